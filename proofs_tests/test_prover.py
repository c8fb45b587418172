"""The symbolic prover of the auditor (analytic.prover): its certificates on
hand-checked expressions, proofs it must find, proofs it must refuse (false
properties, a deliberately broken metric, a formula that breaks numeric's
symbolic-count contract), and the cross-check of every "proved" verdict of the
property table against the search and against matrices outside the search.

Expected values are derived by hand in each docstring (the metrics' formulas are
silva2018 eq. 2 for MAE, eq. 28 for AMAE); nothing is taken from the code under test.
"""

from __future__ import annotations

import collections
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

import numeric
from analytic import audit as A
from analytic import prover as P
from analytic.generators import random_matrices
from analytic.properties import table as T
from analytic.properties.space import SMALL_SPACE
from numeric._symbolic import SymbolicArithmetic
from numeric.registry import REGISTRY

a, b, k = sp.symbols("a b k", integer=True, positive=True)


def _sym(name, **kw):
    return lambda cm: getattr(numeric, name)(cm, arithmetic=SymbolicArithmetic(), **kw)


def _exact(name, **kw):
    """The metric in exact arithmetic, None where it raises ValueError."""
    def f(cm):
        try:
            return sp.sympify(getattr(numeric, name)(cm, arithmetic="exact", **kw))
        except ValueError:
            return None
    return f


# ---------------------------------------------------------------------------
# certificates on expressions checked by hand
# ---------------------------------------------------------------------------
def test_sign_certificates():
    """For integers a, b >= 1: a/(a+b) > 0; a - 1 >= 0 (0 at a = 1); a - b has either
    sign; (a-b)^2/(a^2+b^2) >= 0 (a square, 0 at a = b); 1 - max(a, b)/(a+b) > 0
    (each fraction < 1); sqrt(a/(a+b)) - 1 < 0 (its square a/(a+b) < 1)."""
    assert P.sign(a / (a + b)) == "pos"
    assert P.sign(a - 1) == "nonneg"
    assert P.sign(a - b) is None
    assert P.sign((a - b) ** 2 / (a ** 2 + b ** 2)) == "nonneg"
    assert P.sign(1 - sp.Max(a / (a + b), b / (a + b))) == "pos"
    assert P.sign(sp.sqrt(a) / sp.sqrt(a + b) - 1) == "neg"


def test_definedness():
    """1/(a - 1) divides by 0 at a = 1 and sqrt(a - b) is not real at a < b: not
    certified; a/(a + b) and log(a/(a + b)) are defined for all a, b >= 1."""
    assert P.defined(a / (a + b)) is None
    assert P.defined(sp.log(a / (a + b))) is None
    assert P.defined(1 / (a - 1)) == "1/(a - 1)"
    assert P.defined(sp.sqrt(a - b)) == "sqrt(a - b)"


def test_zero_tests():
    """sqrt(k a)/sqrt(k) = sqrt(a) and max(1/(k a), 2/(k b)) = max(1/a, 2/b)/k for
    k > 0 (identities); a/(a + 1) != 1 (refuted numerically, the point is named)."""
    assert P.equal(sp.sqrt(k * a) / sp.sqrt(k), sp.sqrt(a))[0]
    assert P.equal(sp.Max(1 / (k * a), 2 / (k * b)), sp.Max(1 / a, 2 / b) / k)[0]
    ok, why = P.equal(a / (a + 1), 1)
    assert not ok and "differ" in why


def test_support_patterns():
    """Every nonempty subset of the K^2 cells: 2^4 - 1 = 15 patterns for K = 2."""
    pats = list(P.support_patterns(2))
    assert len(pats) == 15 and len(set(pats)) == 15
    assert P.generic_matrix(2, [(0, 1)]).tolist() == [[0, sp.Symbol("n01", integer=True,
                                                                       positive=True)], [0, 0]]


# ---------------------------------------------------------------------------
# proofs that must be found
# ---------------------------------------------------------------------------
def test_mae_scale_proved_on_every_pattern():
    """MAE of [[n00, n01], [0, 0]] is n01/(n00 + n01), of k times it k n01/(k n00 + k n01):
    equal; likewise on each of the 15 supports of a 2 x 2 matrix (and the one of K = 1)."""
    p = P.prove(_sym("mae"), "scale", scopes=[P.Scope(1, "every"), P.Scope(2, "every")])
    assert p.proved and p.refused == () and p.patterns == 16
    assert p.scope_text() == "every matrix with K = 1; every matrix with K = 2"
    assert p.covers(np.array([[3, 0], [5, 1]])) and not p.covers(np.ones((3, 3), dtype=int))


def test_positive_scope_covers_only_positive_matrices():
    s = P.Scope(3, "positive")
    assert s.covers(np.ones((3, 3), dtype=int))
    assert not s.covers(np.eye(3, dtype=int)) and not s.covers(np.ones((2, 2), dtype=int))


# ---------------------------------------------------------------------------
# proofs that must be refused
# ---------------------------------------------------------------------------
def test_refuses_amae_symmetry():
    """AMAE (observed classes) of [[a, b], [0, 0]] averages over the one observed class:
    b/(a + b); of its transpose [[a, 0], [b, 0]] over two: (0 + 1)/2 = 1/2. They differ
    (e.g. a = b = 1: 1/2 = 1/2, but a = 1, b = 2: 2/3), so no proof at K = 2."""
    p = P.prove(_sym("amae"), "symmetry", scopes=[P.Scope(2, "every")])
    assert not p.proved
    (scope, why, kind), = p.refused
    assert kind == "not derived" and "differ" in why


def test_refuses_mse_ordinal_invariance_and_triangle():
    """MSE of [[0, n], [0, 0]] is 1 (every sample one class off); with an empty class
    inserted between the two it is 2^2 = 4: not invariant.  The triangle inequality
    (on label vectors) is not handled by the prover: searched only, and it fails
    (d(0, 2) = 4 > d(0, 1) + d(1, 2) = 2)."""
    p = P.prove(_sym("mse"), "ordinal_invariance", scopes=[P.Scope(2, "every")])
    assert not p.proved and "differ" in p.refused[0][1]
    with pytest.raises(ValueError, match="no symbolic prover for 'triangle'"):
        P.prove(_sym("mse"), "triangle")
    r = A.audit("mse", ["triangle"], space=SMALL_SPACE).results["triangle"]
    assert r.verdict == "fails" and r.proof is None


def test_refuses_uoc_symmetry():
    """UOC is a minimum over paths, which the symbolic arithmetic cannot order for
    symbolic counts: no proof (and the search refutes symmetry, test_audit.py)."""
    r = A.audit("uoc", ["symmetry"], variant="UOC, beta=0.25", space=SMALL_SPACE,
                prove=P.scopes(2, 3)).results["symmetry"]
    assert r.verdict == "fails" and not r.proof.proved
    assert "no symbolic form" in {kind for _, _, kind in r.proof.refused}


def _mae_plus(cm):
    """A deliberately broken metric: MAE + 1/N (exact), not scale invariant."""
    n = int(np.sum(cm))
    return numeric.mae(cm, arithmetic="exact") + sp.Rational(1, n)


def _mae_plus_sym(cm):
    return numeric.mae(cm, arithmetic=SymbolicArithmetic()) + 1 / sp.Add(*np.ravel(cm))


def test_broken_metric():
    """MAE + 1/N: f([[1]]) = 0 + 1 = 1 but f([[2]]) = 1/2 -- scale fails, found by the
    search and refused by the prover; it is symmetric (MAE and N are), which the
    prover proves on every matrix with K <= 2 and all-positive 3 x 3 ones."""
    r = A.audit(_mae_plus, ["scale", "symmetry"], symbolic=_mae_plus_sym, max_k=2, max_n=2,
                random=0, bounds=(0, None), prove=P.scopes(2, 3))
    scale, sym = r.results["scale"], r.results["symmetry"]
    assert scale.verdict == "fails" and scale.counterexample.tolist() == [[1]]
    assert not scale.proof.proved and "differ" in scale.proof.refused[0][1]
    assert sym.verdict == "proved" and sym.proof.short() == "K<=2, K=3+"


def test_asymmetric_metric_refused():
    """Errors above the diagonal count double: [[0, n], [0, 0]] gives 2, its transpose 1."""
    def upper_double(cm):
        return Fraction(int(np.triu(cm, 1).sum()) * 2 + int(np.tril(cm, -1).sum()),
                        int(cm.sum()))

    def upper_double_sym(cm):
        return (2 * sp.Add(*np.triu(cm, 1).ravel()) + sp.Add(*np.tril(cm, -1).ravel())) \
            / sp.Add(*cm.ravel())

    p = P.prove(upper_double_sym, "symmetry", exact=lambda m: sp.sympify(upper_double(m)),
                scopes=[P.Scope(2, "every")])
    assert not p.proved and "differ" in p.refused[0][1]


def test_callable_without_symbolic_form_is_not_proved():
    """A plain callable gets no proof (its formula need not honour the contract)."""
    r = A.audit(lambda cm: Fraction(int(cm.sum() - np.trace(cm)), int(cm.sum())), ["symmetry"],
                random=0, max_n=2)
    assert r.results["symmetry"].verdict == "holds" and r.results["symmetry"].proof is None


def test_contract_violations_are_refused():
    """r_int tests N < 2 on the support, so the symbolic [[n]] raises although [[2]]
    is defined (r_int([[2]]) = 1, silva2018 eq. 7: card(S1) = 2): the instance check
    refuses the pattern.  A symbolic form that lies (MAE for MER) is caught on the
    all-positive 3 x 3 matrices -- at all ones MAE = 8/9, MER = 6/9 -- but is
    genuinely equal for K <= 2, where every error is one class off (|i - j| = 1)."""
    p = P.prove(_sym("r_int"), "scale", exact=_exact("r_int"), scopes=[P.Scope(1, "every")])
    (_, why, kind), = p.refused
    assert kind == "contract" and "[[2]]" in why
    assert numeric.r_int([[2]], arithmetic="exact") == 1
    p = P.prove(_sym("mae"), "symmetry", exact=_exact("mer"),
                scopes=[P.Scope(2, "every"), P.Scope(3, "positive")])
    assert [s.short() for s in p.scopes] == ["K=2"]
    (_, why, kind), = p.refused
    assert kind == "contract" and "8/9" in why


# ---------------------------------------------------------------------------
# cross-checks of the proofs
# ---------------------------------------------------------------------------
def test_cross_check_raises_on_a_contradicted_proof():
    """A (bogus) proof of scale for MAE + 1/N is contradicted: on K = 1 by the minimal
    counterexample [[1]] itself, on all-positive 3 x 3 matrices by the check on the
    random positive samples (f(2A) - f(A) = -1/(2N) != 0)."""
    from analytic.properties.exact import ExactContext

    ctx = ExactContext(_mae_plus, "lower", (0, None))
    res = A.PropertyResult("scale", "fails", np.array([[1]]), "f([[1]]) = 1 but f([[2]]) = 1/2")
    with pytest.raises(RuntimeError, match="the search refutes it on"):
        A._cross_check(ctx, res, P.Proof("scale", (P.Scope(1, "every"),)), 0)
    with pytest.raises(RuntimeError, match="the check fails on"):
        A._cross_check(ctx, A.PropertyResult("scale", "holds"),
                       P.Proof("scale", (P.Scope(3, "positive"),)), 0)


def _covers(scopes, m):
    return any(m.shape == (K, K) and (kind == "every" or bool((m > 0).all()))
               for K, kind in scopes)


def test_failing_properties_are_never_proved_on_their_counterexample():
    """Over the committed property table the prover also ran, blind, on every refuted
    property it handles; no proved scope holds the counterexample (the table
    would have raised), and the refusals are many."""
    refused = 0
    for rep in T.load()["reports"]:
        for r in rep["properties"].values():
            if r["verdict"] == "fails" and r["proof"] is not None:
                c = T.counterexample_of(r)
                if isinstance(c, np.ndarray):
                    assert not _covers(r["proof"]["scopes"], c), (rep["variant"], r["property"])
                refused += 1
    assert refused > 50


def test_proved_verdicts_hold_beyond_the_search():
    """Each "proved" verdict of the committed table, re-checked by the property's exact
    check on matrices the search never sees: 1 x 1, 2 x 2 and 3 x 3 matrices with
    N = 9 and 12 (the exhaustive space stops at N = 8), and 4 x 4 matrices with every
    cell in 1..9 (N >= 16; the random ones have N <= 60 but rarely every cell
    positive).  Every proved scope has its samples (a scope without them fails)."""
    from analytic.properties.exact import ExactContext

    checked = collections.Counter()
    for rep in T.load()["reports"]:
        proved = [r for r in rep["properties"].values() if r["verdict"] == "proved"]
        if not proved:
            continue
        m = REGISTRY[rep["metric"]]
        v = next(v for v in m.cases() if v.label == rep["variant"])
        ctx = ExactContext(A._variant_function(m, v), m.better, m.bounds)
        rng = np.random.default_rng(sum(map(ord, rep["variant"])))
        samples = {(k, "every"): random_matrices(k, 9, 1, seed=1) + random_matrices(k, 12, 1, seed=2)
                   for k in (1, 2, 3)}
        samples[4, "positive"] = [rng.integers(1, 10, size=(4, 4)).astype(np.int64)]
        for r in proved:
            prop = A.PROPERTIES[r["property"]]
            for K, kind in r["proof"]["scopes"]:
                for mat in samples[K, kind]:
                    if prop.bases(mat[None])[0]:
                        assert not prop.check(ctx, mat), (rep["variant"], r["property"], mat)
                    checked[K, kind] += 1
    # every scope kind of the table's proofs was re-checked
    assert set(checked) == {(1, "every"), (2, "every"), (3, "every"), (4, "positive")}, checked
    assert sum(checked.values()) > 100


def test_properties_md_states_the_evidence():
    """The rendered table explains its verdicts and shows proof scopes."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "properties.md").read_text("utf-8")
    assert "- **proved (scope)**" in text and "- **holds**" in text and "- **fails M**" in text
    assert "| MAE (`mae`) | proved (K<=3, K=4+) |" in text
    assert "## Proofs not obtained" in text
