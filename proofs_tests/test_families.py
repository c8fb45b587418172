"""Families of matrices with symbolic counts (analytic.derivations.families, analytic.derivations.uoc).

Every symbolic form is checked against the numeric formula run in exact
arithmetic on the substituted integer matrix (an independent evaluation: the
symbolic side decides signs for all n, the numeric side computes one matrix),
at every n on both sides of each threshold; the beta forms are also checked
on both sides of each breakpoint against ``numeric.uoc``/``numeric.oc`` at
that beta (the dynamic programme, no envelope).
"""

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import numeric
from analytic import tridiagonal_forms
from analytic.derivations.families import guess_and_check, support_threshold, symbolic_metric
from analytic.symbols import K, beta
from analytic.derivations.uoc import a_uoc_symbolic, oc_piecewise, uoc_piecewise
from numeric._common import amax
from numeric._symbolic import SymbolicArithmetic, support_from_assumptions
from exact_values import same_value
from numeric.registry import REGISTRY

n = sp.Symbol("n", integer=True, positive=True)
m0 = sp.Symbol("m", integer=True, nonnegative=True)
a, b = sp.symbols("a b", integer=True, positive=True)

CLASSICAL = [name for name, rec in REGISTRY.items()
             if rec.input == "matrix" and name not in ("a_uoc",)]

FAMILIES = {
    # diagonal n plus one off-diagonal sample per row (the example)
    "ring": ([[n, 1, 0], [0, n, 1], [1, 0, n]], n, 1),
    # a count that vanishes at m = 0: the support changes below the threshold
    "vanishing": ([[m0, 1, 0], [0, m0, 2], [1, 0, 1]], m0, 0),
    # an order of per-class errors (MMAE, TC_max) that changes with n
    "crossing": ([[n, 0, 1], [0, 1, 0], [1, 0, 2]], n, 1),
}


def _at(matrix, sym, k):
    return np.array([[int(sp.sympify(v).subs(sym, k)) for v in row] for row in matrix])


def test_classical_list_is_the_registry():
    # the registry's matrix metrics other than the path ones (oc/uoc take beta)
    assert set(CLASSICAL) >= {"mer", "mae", "mse", "rmse", "amae", "mmae", "macro_rmse",
                              "kendall_tau_b", "spearman_rs", "r_int", "tc", "stc",
                              "george_d", "george_tiebreak"}


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("name", CLASSICAL)
def test_symbolic_metric_equals_numeric_exact(family, name):
    matrix, sym, n0 = FAMILIES[family]
    form = symbolic_metric(name, matrix, n0=n0)
    assert form.free_symbols <= {sym}
    for k in range(n0, n0 + 30):
        # expected: numeric.<name> in exact arithmetic on the substituted matrix
        want = REGISTRY[name].function(_at(matrix, sym, k), arithmetic="exact")
        assert same_value(form.subs(sym, k), want), (name, k)


def test_vanishing_count_gets_its_own_branch():
    # at m = 0 the first true class has no correct sample: MER is 4/5 there
    # (4 errors of 5 samples, counted by hand), 4/(2m + 5) beyond
    form = symbolic_metric("mer", FAMILIES["vanishing"][0], n0=0)
    assert form.subs(m0, 0) == sp.Rational(4, 5)
    assert sp.simplify(form.subs(m0, 7) - sp.Rational(4, 19)) == 0


def test_mmae_order_is_decided():
    # per-class MAE of the "crossing" family: 2/(n+1), 0, 2/3 (row by row);
    # 2/(n+1) > 2/3 only at n = 1, so Max is decided: 1 at n = 1, 2/3 from n = 2
    form = symbolic_metric("mmae", FAMILIES["crossing"][0])
    assert form == sp.Piecewise((1, sp.Eq(n, 1)), (sp.Rational(2, 3), n >= 2))


def test_several_symbols_classical():
    cm = [[a, 1, 0], [1, b, 1], [0, 1, a + b]]
    for name in ("mae", "mmae", "kendall_tau_b", "spearman_rs", "r_int", "tc", "stc"):
        form = symbolic_metric(name, cm)
        for i in range(1, 5):
            for j in range(1, 5):
                # expected: numeric exact on the substituted matrix
                sub = [[int(sp.sympify(v).subs({a: i, b: j})) for v in row] for row in cm]
                want = REGISTRY[name].function(sub, arithmetic="exact")
                assert same_value(form.subs({a: i, b: j}), want), (name, i, j)


def test_undecided_maximum_stays_max():
    # 1/(a+1) vs 1/(b+1): no order for all a, b; the answer is Max, not a guess
    form = symbolic_metric("mmae", [[a, 1], [1, b]])
    assert isinstance(form, sp.Max)
    assert form.subs({a: 1, b: 3}) == sp.Rational(1, 2)  # max(1/2, 1/4), by hand


PATH_FAMILIES = [
    [[1, n], [2, 1]],
    [[n, 3], [1, 1]],
    [[n, 1, 0], [0, n, 1], [1, 0, n]],
    [[n, 2, 0], [5, 1, 0], [0, 1, n]],
]


def _breakpoints(pw):
    return sorted({c.rhs for p in pw.atoms(sp.Piecewise) for _, c in p.args if c != sp.true})


@pytest.mark.parametrize("matrix", PATH_FAMILIES, ids=range(len(PATH_FAMILIES)))
@pytest.mark.parametrize("metric", ["uoc", "oc"])
def test_path_family_equals_dp_on_both_sides_of_breakpoints(matrix, metric):
    fn = uoc_piecewise if metric == "uoc" else oc_piecewise
    dp = numeric.uoc if metric == "uoc" else numeric.oc
    form = fn(matrix)
    eps = sp.Rational(1, 10**6)
    for k in range(1, 16):
        f = form.subs(n, k)
        assert f.free_symbols <= {beta}
        sub = _at(matrix, n, k)
        points = {sp.Integer(0), sp.Integer(2)}
        for t in _breakpoints(f) + [sp.Rational(x) for x in numeric.path_envelope(
                sub, metric=metric).breakpoints[1:] if x is not None]:
            points |= {t - eps, t, t + eps}
        for x in sorted(p for p in points if p >= 0):
            # expected: the dynamic programme of cardoso2011 §3.4 at this beta, exact
            assert f.subs(beta, x) == dp(sub, beta=x, arithmetic="exact"), (k, x)


@pytest.mark.parametrize("matrix", PATH_FAMILIES, ids=range(len(PATH_FAMILIES)))
def test_a_uoc_family_equals_numeric(matrix):
    form = a_uoc_symbolic(matrix)
    for k in range(1, 31):
        # expected: numeric.a_uoc (exact envelope of one matrix, integrated)
        assert form.subs(n, k) == numeric.a_uoc(_at(matrix, n, k), arithmetic="exact"), k


def test_family_threshold_conditions():
    # [[1, n], [2, 1]]: the first slope of the envelope is 1/3 at n = 1
    # (numeric.path_envelope) but n/(2(n+1)) = 1/4 on the symbolic branch,
    # so the form needs its own branch Eq(n, 1), and only that one
    form = uoc_piecewise([[1, n], [2, 1]])
    conds = [c for _, c in form.args]
    assert conds == [sp.Eq(n, 1), n >= 2]


def test_symbolic_metric_routes_a_uoc():
    assert symbolic_metric("a_uoc", [[n, 1], [1, n]]) == a_uoc_symbolic([[n, 1], [1, n]])


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------
def test_negative_count_is_refused():
    with pytest.raises(ValueError, match="non-negative"):
        symbolic_metric("mae", [[n - 3, 1], [0, 1]])


def test_non_integer_count_is_refused():
    with pytest.raises(ValueError, match="integer"):
        symbolic_metric("mae", [[n / 2, 1], [0, 1]])
    with pytest.raises(ValueError, match="polynomial"):
        support_threshold([[1 / n, 1], [0, 1]], n, 1)


def test_undecided_zero_is_refused():
    with pytest.raises(ValueError, match="may be zero"):
        support_from_assumptions(sp.Symbol("z", integer=True, nonnegative=True) + a - a)


def test_several_symbols_path_metric_not_implemented():
    with pytest.raises(NotImplementedError, match="several symbols"):
        uoc_piecewise([[a, 1], [1, b]])
    with pytest.raises(NotImplementedError, match="gamma = 1"):
        oc_piecewise([[n, 1], [1, n]], gamma=2)


def test_symbols_need_the_symbolic_arithmetic():
    # plain "exact" keeps refusing symbols; SymbolicArithmetic accepts them
    with pytest.raises(ValueError, match="real numbers"):
        numeric.mae([[n, 1], [0, n]], arithmetic="exact")
    # expected: (1 error at distance 1) / (2n + 1 samples), by hand
    assert numeric.mae([[n, 1], [0, n]], arithmetic=SymbolicArithmetic()) == 1 / (2 * n + 1)


def test_oc_needs_beta():
    with pytest.raises(ValueError, match="beta"):
        symbolic_metric("uoc", [[n, 1], [1, n]])


def test_amax_numbers_unchanged():
    x = np.array([[1, 5], [7, 2]], dtype=object)
    assert list(amax(x, axis=-1)) == [5, 7]  # the row maxima, by hand


# ---------------------------------------------------------------------------
# guess and check
# ---------------------------------------------------------------------------
def _tridiagonal(k):
    return (np.eye(k, dtype=int) + np.eye(k, k, 1, dtype=int) + np.eye(k, k, -1, dtype=int))


def _tri_a_uoc(k):
    return numeric.a_uoc(_tridiagonal(k), arithmetic="exact")


def _tri_form():
    # the K >= 3 branch of the band-1 derivation (analytic.derivations.forms), independent of the fit
    return tridiagonal_forms().a_uoc.args[-1][0]


def test_guess_recovers_tridiagonal_a_uoc():
    c = guess_and_check(_tri_a_uoc, range(3, 12), range(12, 17))
    assert sp.simplify(c.expr - _tri_form()) == 0
    assert c.status == "conjecture, checked for K <= 16"
    assert c.counterexample is None
    assert set(c.fitted_on) | set(c.checked_on) == set(range(3, 17))


def test_guess_is_proved_only_with_a_derivation():
    c = guess_and_check(_tri_a_uoc, range(3, 12), (), proof=_tri_form(),
                        proof_source="tridiagonal_forms, band-1 lemma")
    assert c.status == "proved (tridiagonal_forms, band-1 lemma)"
    wrong = guess_and_check(_tri_a_uoc, range(3, 12), (), proof=_tri_form() + 1 / K**5)
    assert wrong.status.startswith("refuted by the derivation")


def test_guess_recovers_mer_of_tridiagonal():
    # silva2018 Fig. 3 / analytic.derivations.forms: MER = 2(K-1)/(3K-2)
    c = guess_and_check(lambda k: numeric.mer(_tridiagonal(k), arithmetic="exact"),
                        range(2, 8), range(8, 12))
    assert sp.simplify(c.expr - tridiagonal_forms().mer) == 0
    assert c.status == "conjecture, checked for K <= 11"


def test_wrong_guess_is_caught_by_the_check():
    # the exact MER, except at K = 20 where it is off by 10^-9
    def f(k):
        v = numeric.mer(_tridiagonal(k), arithmetic="exact")
        return v + sp.Rational(1, 10**9) if k == 20 else v
    c = guess_and_check(f, range(2, 10), range(10, 25))
    assert c.status == "refuted at K = 20"
    assert c.counterexample[0] == 20
    assert c.checked_on[-1] == 20


def test_no_fit_is_reported():
    # 2^K is not a rational function of K: nothing of degree < 6 predicts it
    c = guess_and_check(lambda k: 2**k, range(1, 8))
    assert c.expr is None and c.status == "no rational function fits"


def test_guess_needs_exact_values():
    with pytest.raises(ValueError, match="exact rational"):
        guess_and_check(lambda k: 1.0 / k, range(1, 6))
    assert guess_and_check(lambda k: Fraction(1, k), range(1, 6)).expr == 1 / K
