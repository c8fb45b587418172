"""Symbolic families as verdicts (issue 41 item 2).

A property that speaks of a parametric family is decided on the family's symbolic counts:
imbalance on diagonal matrices with ``n_c1 = n_c3 + t`` and ``n_c3 = 1`` or ``s + 1``
(``Imbalance.prove_pattern``), monotonicity on one sample moved toward the diagonal (the
prover's patterns).  The difference of the losses is certified (a proof over the family) or,
where it is not, :func:`analytic.properties.proofkit.refute_family` derives a region of the
counts where the relation fails, and one matrix of it, which the auditor confirms in exact
arithmetic before it calls the cell "fails".

Expected values: exact derivations written out in each test (the planted metric's loss
difference is a polynomial whose sign runs are computed by hand), and the MAE/MER
identities (a move across the diagonal changes MAE by the same 1/N whatever the class).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import sympy as sp

import numeric
from analytic.properties import prover as P
from analytic.properties.audit import audit
from analytic.properties.catalog import PROPERTIES
from analytic.properties.proofkit import Refutation, refute_family
from analytic.properties.space import Space
from exactfloor.ratfun import sign_intervals
from numeric._symbolic import SymbolicArithmetic

t, s = sp.symbols("t s", integer=True, positive=True)


def _planted(cm):
    """A loss whose imbalance fails for large gaps: ``sum_i e_i g(N_i) / N`` with ``e_i`` the
    errors of row ``i`` and ``g(n) = (n - 5)^2 + 1``, not decreasing beyond 5.  Written once
    for numbers and for SymPy counts (diagonal families: an empty row is the number 0)."""
    K = cm.shape[0]
    total = sp.Integer(0)
    for i in range(K):
        n_i = sum((sp.sympify(x) for x in cm[i]), sp.Integer(0))
        e_i = n_i - sp.sympify(cm[i][i])
        total += e_i * ((n_i - 5) ** 2 + 1)
    return total / sum((sp.sympify(x) for x in cm.reshape(-1)), sp.Integer(0))


def test_refute_family_region_is_the_exact_set_of_violations():
    """A differential test against plain integer evaluation: for random quadratics d(t)
    (roots below 40) the region's first integer is the first t in 1..200 where d >= 0
    (the relation "< 0" fails), and no region is given when there is none."""
    rng = random.Random(41)
    fam = np.array([[t + 1, 0], [0, 1]], dtype=object)
    # by construction: two runs of violations (t = 1 and t >= 29), a run in the middle
    # (3 <= t <= 9: -(t - 3)(t - 9)), a single zero (-(t - 5)^2: t = 5 only), none
    # (-t^2 - 1 < 0), from t = 2 on (t^2 + t - 3); then random ones
    cases = [(1, -30, 40), (-1, 12, -27), (-1, 10, -25), (-1, 0, -1), (1, 1, -3)]
    cases += [(rng.randint(-3, 3), rng.randint(-30, 30), rng.randint(-40, 40)) for _ in range(60)]
    none = 0
    for a, b, c in cases:
        d = a * t ** 2 + b * t + c
        bad = [k for k in range(1, 201) if a * k * k + b * k + c >= 0]
        r = refute_family(d, "< 0", fam, [t])
        runs = sign_intervals(d, t, 1)
        ever = any(sg in (0, 1) for _, _, sg in runs)
        if not ever:
            assert r is None and not bad
            none += 1
            continue
        assert isinstance(r, Refutation)
        first = int(r.matrix[0, 0]) - 1  # t = n_00 - 1
        assert bad and first == bad[0], (d, r.region, bad[:5])
    assert none >= 1  # the no-region branch ran (at least the case built for it)
    r = refute_family(-(t - 5) ** 2, "< 0", fam, [t])
    assert r.region == "t = 5 (the other symbols 1)"


def test_planted_imbalance_fails_on_a_derived_region():
    """By hand: a move keeps every row total, so moving one sample of class c1 (total
    n_c1) costs g(n_c1) / N and one of class c3 costs g(n_c3) / N.  In the sub-family
    n_c3 = 1, n_c1 = 1 + t: d = g(1 + t) - g(1) = (t - 4)^2 - 16 = t (t - 8), >= 0
    exactly for t >= 8; with n_c3 = s + 1 = 2 (s = 1): g(2 + t) - g(2) = t (t - 6),
    >= 0 for t >= 6.  The prover returns the first one it meets and a matrix of it (the
    first pattern with a third class refuted); the metric's exact check confirms it."""
    pr = P.prove(_planted, "imbalance", scopes=P.scopes(3, 0), exact=_planted)
    r = pr.refutation
    assert r is not None and not pr.proved and pr.scopes == ()
    # the first pattern with classes 0 and 2 is diag(n00, 0, n22), first its family n_c3 = 1:
    # t (t - 8) >= 0 from t = 8, so n_00 = 9
    assert r.region == "t >= 8 (the other symbols 1)", r.region
    assert r.matrix.tolist() == [[9, 0, 0], [0, 0, 0], [0, 0, 1]]
    m = r.matrix
    n = np.diag(m)
    assert (m == np.diag(n)).all() and n[0] > n[2] >= 1
    assert n[0] - n[2] in (6, 8)  # t at the start of the region (n_c3 = 2: 6; n_c3 = 1: 8)
    a1, a3 = m.copy(), m.copy()
    a1[0, 0] -= 1
    a1[0, 1] += 1
    a3[2, 2] -= 1
    a3[2, 1] += 1
    assert _planted(a1) >= _planted(a3)  # the relation (strictly less) fails
    assert any(kind == P.REFUTED for _, _, kind in pr.refused)


def test_the_audit_turns_a_confirmed_family_region_into_fails():
    """The search's diagonal part (N <= 6) cannot reach t >= 6 with n_c3 >= 1 and a third
    class; the family derives the counterexample, the exact check confirms it, and the cell
    says how it was found (never called minimal)."""
    tiny = Space(exhaustive=((3, 3),), random=0, triangle=((2, 2),), triangle_random=0,
                 diagonal=((3, 6),))
    r = audit(_planted, ["imbalance"], space=tiny, bounds=(0, None), symbolic=_planted).results["imbalance"]
    assert r.verdict == "fails"
    assert r.how.startswith("derived from the symbolic family: it fails on ")
    assert not r.minimal and isinstance(r.counterexample, np.ndarray)
    assert PROPERTIES["imbalance"].check(_exact_ctx(), r.counterexample)


def _exact_ctx():
    from analytic.properties.exact import ExactContext

    return ExactContext(_planted, "lower", (0, None))


@pytest.mark.parametrize("name", ["tc", "cohen_kappa", "amae"])
def test_imbalance_proved_over_the_family_up_to_k5(name):
    """TC, kappa and AMAE: the difference is certified < 0 on every diagonal pattern and
    triple up to K = 5 (the search found no counterexample either: the committed table)."""
    m = numeric.registry.REGISTRY[name]
    f = m.bind(0, SymbolicArithmetic())
    for prop in ("imbalance", "imbalance_populated"):
        pr = P.prove(f, prop, better=m.better, bounds=m.bounds, exact=_exact_of(m))
        assert pr.short() == "3 <= K <= 5" and not pr.refused and pr.refutation is None, (prop, pr.refused)


def _exact_of(m):
    ex = m.bind(0, "exact")

    def exact(cm):
        try:
            return ex(cm)
        except ValueError:
            return None
    return exact


@pytest.mark.parametrize("name", ["mae", "mer"])
def test_a_zero_difference_refutes_the_whole_family(name):
    """MAE and MER: one error across one class boundary costs 1/N whichever class it
    comes from, so the difference is identically 0 on the family: the strict relation
    fails on all of it, from diag(2, 0, 1) on (t = 1, the empty middle class)."""
    m = numeric.registry.REGISTRY[name]
    pr = P.prove(m.bind(0, SymbolicArithmetic()), "imbalance", better=m.better, bounds=m.bounds,
                 exact=_exact_of(m))
    r = pr.refutation
    assert r.region.startswith("every positive integer value of") and r.region.endswith("(d = 0)")
    assert r.matrix.tolist() == [[2, 0, 0], [0, 0, 0], [0, 0, 1]]


def test_a_move_that_does_not_strictly_improve_is_a_refuted_family():
    """MER (the error rate): moving a sample from cell (0, 2) to (0, 1) leaves it an
    error, so the change is 0 and ordinal monotonicity (strict) fails on [[0, 0, 1], ...]:
    the prover returns that family's refutation; monotonicity (<= 0) is proved."""
    m = numeric.registry.REGISTRY["mer"]
    ev = P.Evaluator(m.bind(0, SymbolicArithmetic()), _exact_of(m))
    spec = {"bounds": (0, 1), "orient": 1, "best": 0}
    corner = P.generic_matrix(3, [(0, 2)])  # one count n02 in the corner
    r = PROPERTIES["ordinal_monotonicity"].prove_pattern(ev, corner, spec)
    assert isinstance(r, Refutation) and r.region.endswith("(d = 0)")
    assert r.matrix.tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    assert PROPERTIES["monotonicity"].prove_pattern(ev, corner, spec) is None
