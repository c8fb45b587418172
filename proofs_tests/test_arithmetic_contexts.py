"""The three arithmetics and float stacks.

- ``"exact"`` returns SymPy numbers: ``Rational`` where the value is rational,
  an exact algebraic number otherwise;
- ``"mp"`` returns ``mpmath.mpf`` at the caller's ``mp.dps``;
- ``"float"`` accepts stacks ``(..., K, K)`` and returns shape ``(...)``, with
  ``beta`` a scalar or an array broadcast to the stack's leading shape; a
  stack gives the same values as one call per matrix.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy

import numeric
from numeric.registry import REGISTRY, table_beta
from analytic.ledger.sources import cardoso2011 as C11

CM = np.array([[3, 1, 0], [1, 2, 2], [0, 1, 4]])

RATIONAL = {
    "mer": numeric.mer, "mae": numeric.mae, "mse": numeric.mse, "amae": numeric.amae,
    "mmae": numeric.mmae, "a_uoc": numeric.a_uoc,
    "oc": lambda c, **k: numeric.oc(c, table_beta(C11.BETA_NUMERATORS[0]).beta(c), **k),
    "uoc": lambda c, **k: numeric.uoc(c, sympy.Rational(3, 4), **k),
    "kappa_quadratic": lambda c, **k: numeric.cohen_kappa(c, weights="quadratic", **k),
    "within_one_accuracy": numeric.within_one_accuracy,
    "minimum_sensitivity": numeric.minimum_sensitivity,
    "somers_d": numeric.somers_d, "tau_c": numeric.kendall_tau_c,
    "mes": numeric.mean_extreme_sensitivity,
}
ALGEBRAIC = {
    "rmse": numeric.rmse, "macro_rmse": numeric.macro_rmse, "R_s": numeric.spearman_rs,
    "tau_b": numeric.kendall_tau_b, "r_int": numeric.r_int,
    "gm_sensitivity": numeric.geometric_mean_sensitivity, "gmsec": numeric.gmsec,
    "oc_gamma2": lambda c, **k: numeric.oc(c, sympy.Rational(1, 100), gamma=2, **k),
}
ALL = {**RATIONAL, **ALGEBRAIC}


def _registered(m, v):
    return lambda c, **k: m.function(c, **v.kwargs(c), **k)


#: every variant of every registered metric (numeric.registry), for the precision test
CASES = {(m.name if len(m.cases()) == 1 else f"{m.name}[{v.label}]"): _registered(m, v)
         for m in REGISTRY.values() if m.takes_matrix for v in m.cases()}


def test_every_registered_metric_has_its_kind_of_exact_value():
    """A new metric must be classified: rational values, algebraic values, or other."""
    classified = {"mer", "mae", "mse", "amae", "mmae", "a_uoc", "oc", "uoc", "tc", "stc",
                  "interval_tc", "interval_stc",  # rational (checked below or in test_cost_metrics)
                  "rmse", "macro_rmse", "spearman_rs", "kendall_tau_b", "r_int",
                  "cohen_kappa", "within_one_accuracy", "minimum_sensitivity", "somers_d",
                  "kendall_tau_c",  # rational (metrics beyond the sources: checked below)
                  "george_d", "george_tiebreak", "geometric_mean_sensitivity",  # algebraic
                  "cem_ord",  # transcendental (logarithms): test_metrics_beyond_sources checks it by hand
                  "ranked_probability_score",  # rational, from probabilities: test_metrics_beyond_sources
                  "mean_extreme_sensitivity", "gmsec"}  # rational, algebraic (issue 25)
    assert set(REGISTRY) <= classified, set(REGISTRY) - classified



@pytest.mark.parametrize("name", RATIONAL)
def test_exact_is_rational_where_the_value_is(name):
    v = RATIONAL[name](CM, arithmetic="exact")
    assert isinstance(v, sympy.Rational), (name, v)


@pytest.mark.parametrize("name", ALGEBRAIC)
def test_exact_is_algebraic_otherwise(name):
    """Square roots stay exact: the value is an algebraic number, not a Float."""
    v = ALGEBRAIC[name](CM, arithmetic="exact")
    assert isinstance(v, sympy.Expr) and v.is_number
    assert not v.has(sympy.Float)
    assert v.is_algebraic, (name, v)


def test_exact_values_by_hand():
    """CM = [[3,1,0],[1,2,2],[0,1,4]], N = 14: MER = 5/14, MAE = 5/14, MSE = 5/14,
    per-class MAE 1/4, 3/5, 1/5 -> AMAE = 7/20, MMAE = 3/5; macro RMSE^2 = 7/20."""
    ex = dict(arithmetic="exact")
    assert numeric.mer(CM, **ex) == sympy.Rational(5, 14)
    assert numeric.mae(CM, **ex) == numeric.mse(CM, **ex) == sympy.Rational(5, 14)
    assert numeric.amae(CM, **ex) == sympy.Rational(7, 20)
    assert numeric.mmae(CM, **ex) == sympy.Rational(3, 5)
    assert sympy.expand(numeric.macro_rmse(CM, **ex) ** 2) == sympy.Rational(7, 20)
    assert numeric.rmse(CM, **ex) == sympy.sqrt(sympy.Rational(5, 14))


def test_exact_reads_a_float_as_its_shortest_decimal():
    """beta = 0.1 (a float) is read as 1/10 in exact arithmetic, not as the binary 0.1000000000000000055..."""
    assert numeric.oc(CM, 0.1, arithmetic="exact") == numeric.oc(CM, sympy.Rational(1, 10), arithmetic="exact")
    assert numeric.uoc(CM, 0.75, arithmetic="exact") == numeric.uoc(CM, sympy.Rational(3, 4), arithmetic="exact")


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("dps", [15, 30, 80])
def test_mp_follows_the_callers_precision(name, dps):
    """An mpf result at mp.dps = dps, within 10^(3-dps) of the exact value; precision restored after."""
    before = mpmath.mp.dps
    exact = CASES[name](CM, arithmetic="exact")
    with mpmath.workdps(dps):
        v = CASES[name](CM, arithmetic="mp")
        assert isinstance(v, mpmath.mpf)
        assert abs(v - mpmath.mpf(str(sympy.N(exact, dps + 20)))) <= mpmath.mpf(10) ** (3 - dps) * max(1, abs(v))
    assert mpmath.mp.dps == before


def test_mp_at_80_digits_is_finer_than_float():
    exact = sympy.N(numeric.kendall_tau_b(CM, arithmetic="exact"), 100)
    with mpmath.workdps(80):
        err = abs(numeric.kendall_tau_b(CM, arithmetic="mp") - mpmath.mpf(str(exact)))
        assert err < mpmath.mpf(10) ** -75
    assert abs(numeric.kendall_tau_b(CM) - float(exact)) <= 2e-16  # float: the nearest doubles


# ---------------------------------------------------------------------------
# float stacks
# ---------------------------------------------------------------------------
RNG = np.random.default_rng(7)
STACK = RNG.integers(0, 5, size=(2, 3, 4, 4))
for idx in np.ndindex(2, 3):  # two observed classes in every matrix (tau_b, R_s defined)
    STACK[idx][0, 0] += 1
    STACK[idx][3, 3] += 1
STACK[1, 2, 1] = 0  # an empty row
STACK[0, 1, :, 2] = 0  # an empty column

def _constant_parameters(m, v):
    """The variant's parameters, when they are the same for every matrix of STACK."""
    kw = [v.kwargs(STACK[idx]) for idx in np.ndindex(2, 3)]
    return kw[0] if all(str(k) == str(kw[0]) for k in kw) else None


#: the registered cases whose parameters do not depend on the matrix (OC's
#: table beta does: the broadcast-beta test below covers it)
STACK_CASES = {name: (m, kw) for m in REGISTRY.values() if m.takes_matrix for v in m.cases()
               for name in [m.name if len(m.cases()) == 1 else f"{m.name}[{v.label}]"]
               for kw in [_constant_parameters(m, v)] if kw is not None}


def test_stack_cases_cover_the_registry():
    matrix_metrics = {m.name for m in REGISTRY.values() if m.takes_matrix}
    assert {m.name for m, _ in STACK_CASES.values()} == matrix_metrics - {"oc"}


@pytest.mark.parametrize("name", STACK_CASES)
def test_stack_equals_per_matrix_calls(name):
    """A stack gives the per-matrix values; a stack with an undefined member is
    refused as a whole, with that member's message."""
    m, kw = STACK_CASES[name]
    try:
        got = m.function(STACK, **kw)
    except ValueError as exc:
        refused = []
        for idx in np.ndindex(2, 3):
            try:
                m.function(STACK[idx], **kw)
            except ValueError as one:
                refused.append(str(one))
        # the stack's message may add the member's index before the problem
        assert refused and str(exc).split(": ", 1)[1] in {r.split(": ", 1)[1] for r in refused}
        return
    assert got.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        assert got[idx] == pytest.approx(m.function(STACK[idx], **kw), rel=1e-14, abs=1e-15), idx


def _table_betas(stack):
    """float64 of the OC table beta 0.25/(N(K-1)) (cardoso2011's, numeric.registry.table_beta) of each matrix
    of a stack."""
    out = np.empty(stack.shape[:-2])
    for idx in np.ndindex(out.shape):
        out[idx] = float(table_beta(C11.BETA_NUMERATORS[0]).beta(stack[idx]))
    return out


BETAS = {
    "scalar": lambda: 0.3,
    "per-matrix (2, 3)": lambda: _table_betas(STACK),  # OC's table beta, one per matrix's N
    "row (3,)": lambda: np.array([0.0, 0.2, 1.5]),
    "column (2, 1)": lambda: np.array([[0.05], [0.6]]),
}


@pytest.mark.parametrize("beta", BETAS)
@pytest.mark.parametrize("metric", ["oc", "uoc"])
@pytest.mark.parametrize("gamma", [1, 2])
def test_stack_with_broadcast_beta_equals_per_matrix_calls(metric, beta, gamma):
    f = {"oc": numeric.oc, "uoc": numeric.uoc}[metric]
    b = np.broadcast_to(BETAS[beta](), (2, 3))
    got = f(STACK, BETAS[beta](), gamma=gamma)
    assert got.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        assert got[idx] == pytest.approx(f(STACK[idx], float(b[idx]), gamma=gamma), rel=1e-14, abs=1e-15)


def test_one_dimensional_stack_and_exact_stack():
    """A (B, K, K) stack returns shape (B,); the exact arithmetic accepts a stack too."""
    flat = STACK.reshape(-1, 4, 4)
    assert numeric.oc(flat, _table_betas(flat)).shape == (6,)
    ex = numeric.mae(flat, arithmetic="exact")
    assert ex.shape == (6,) and all(isinstance(v, sympy.Rational) for v in ex)
    assert [float(v) for v in ex] == pytest.approx(numeric.mae(flat).tolist(), rel=1e-15)


def test_stack_policy_for_undefined_members():
    """A stack is refused as a whole if one member is undefined (tau_b, R_s), naming the problem."""
    bad = STACK.copy()
    bad[0, 0] = 0
    bad[0, 0, 1, 1] = 5  # one class only
    with pytest.raises(ValueError, match="undefined"):
        numeric.kendall_tau_b(bad)
    # metrics without that requirement still take it
    assert numeric.mae(bad)[0, 0] == 0
