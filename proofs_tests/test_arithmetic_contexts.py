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
from analytic.sources import cardoso2011 as C11

CM = np.array([[3, 1, 0], [1, 2, 2], [0, 1, 4]])

RATIONAL = {
    "mer": numeric.mer, "mae": numeric.mae, "mse": numeric.mse, "amae": numeric.amae,
    "mmae": numeric.mmae, "a_uoc": numeric.a_uoc,
    "oc": lambda c, **k: numeric.oc(c, C11.oc_table_beta(c, C11.BETA_NUMERATORS[0]), **k),
    "uoc": lambda c, **k: numeric.uoc(c, sympy.Rational(3, 4), **k),
}
ALGEBRAIC = {
    "rmse": numeric.rmse, "macro_rmse": numeric.macro_rmse, "R_s": numeric.spearman_rs,
    "tau_b": numeric.kendall_tau_b, "r_int": numeric.r_int,
    "oc_gamma2": lambda c, **k: numeric.oc(c, sympy.Rational(1, 100), gamma=2, **k),
}
ALL = {**RATIONAL, **ALGEBRAIC}


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


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("dps", [15, 30, 80])
def test_mp_follows_the_callers_precision(name, dps):
    """An mpf result at mp.dps = dps, within 10^(3-dps) of the exact value; precision restored after."""
    before = mpmath.mp.dps
    exact = ALL[name](CM, arithmetic="exact")
    with mpmath.workdps(dps):
        v = ALL[name](CM, arithmetic="mp")
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

NO_BETA = {
    "mer": numeric.mer, "mae": numeric.mae, "mse": numeric.mse, "rmse": numeric.rmse,
    "amae": numeric.amae, "mmae": numeric.mmae, "macro_rmse": numeric.macro_rmse,
    "amae_zero": lambda c, **k: numeric.amae(c, missing="zero", **k),
    "R_s": numeric.spearman_rs, "tau_b": numeric.kendall_tau_b, "r_int": numeric.r_int,
    "a_uoc": numeric.a_uoc,
}


@pytest.mark.parametrize("name", NO_BETA)
def test_stack_equals_per_matrix_calls(name):
    f = NO_BETA[name]
    got = f(STACK)
    assert got.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        assert got[idx] == pytest.approx(f(STACK[idx]), rel=1e-14, abs=1e-15), idx


def _table_betas(stack):
    """float64 of the OC table beta 0.25/(N(K-1)) (cardoso2011's oc_table_beta) of each matrix of a stack."""
    out = np.empty(stack.shape[:-2])
    for idx in np.ndindex(out.shape):
        out[idx] = float(C11.oc_table_beta(stack[idx], C11.BETA_NUMERATORS[0]))
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
