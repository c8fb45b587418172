"""Reliability of the path indices at extreme scales (issue 10, numeric/paths.py).

Expected values come from the exact arithmetic (the reference) or from mpmath
at 50 digits, as stated next to each assertion.
"""

import mpmath
import numpy as np
import pytest

import numeric
from numeric import oc, optimal_path, path_envelope, uoc


def _matrices(seed, n, scale):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        K = int(rng.integers(3, 6))
        cm = rng.integers(0, scale, (K, K)) * (rng.random((K, K)) < 0.6)
        cm[0, 0] += 1
        yield cm


@pytest.mark.parametrize("scale", [10, 10**6, 10**12])
def test_float_oc_envelope_has_the_exact_breakpoints(scale):
    # expected: path_envelope in exact arithmetic (the reference).  With counts
    # up to 1e12 the breakpoints are of order 1/(N (K-1)): a fixed absolute
    # tolerance merged pieces there; the float slack now scales with the problem.
    for cm in _matrices(10, 25, scale):
        exact = path_envelope(cm, metric="oc")
        fl = path_envelope(cm, metric="oc", arithmetic="float")
        assert len(fl.breakpoints) == len(exact.breakpoints), cm.tolist()
        for e, f in zip(exact.breakpoints[1:-1], fl.breakpoints[1:-1]):
            assert abs(float(e) - f) <= 1e-9 * float(e), cm.tolist()
        for e, f in zip(exact.slopes, fl.slopes):
            assert abs(float(e) - f) <= 1e-9 * max(1.0, float(e))


CM5 = np.array([[3, 1, 0, 0, 1], [1, 4, 2, 0, 0], [0, 1, 5, 1, 0], [0, 0, 1, 4, 1], [1, 0, 0, 2, 3]])


@pytest.mark.parametrize("gamma", [1e-3, 0.01, 0.5, 2, 100, 300])
@pytest.mark.parametrize("metric", [oc, uoc])
def test_float_agrees_with_mp_over_gamma(metric, gamma):
    # expected: the same index in mpmath at 50 digits
    with mpmath.workdps(50):
        ref = metric(CM5, 0.1, gamma=gamma, arithmetic="mp")
    got = metric(CM5, 0.1, gamma=gamma)
    assert abs(got - float(ref)) <= 1e-12


@pytest.mark.parametrize("fn", [
    lambda g: oc(CM5, 0.1, gamma=g),
    lambda g: uoc(CM5, 0.1, gamma=g),
    lambda g: optimal_path(CM5, 0.1, gamma=g, arithmetic="float"),
    lambda g: path_envelope(CM5, gamma=g, arithmetic="float"),
])
def test_float_gamma_beyond_float_range_raises(fn):
    # 4**1000 overflows float64: a ValueError naming the supported range, not NaN or KeyError
    with pytest.raises(ValueError, match=r"float supports 0 < gamma <= \d+"):
        fn(1000)


def test_mp_handles_gamma_beyond_float_range():
    # expected: exact arithmetic (the reference); mp has the exponent range float lacks
    with mpmath.workdps(30):
        got = oc(CM5, 0.1, gamma=1000, arithmetic="mp")
    import sympy

    exact = oc(CM5, 0.1, gamma=1000, arithmetic="exact")
    with mpmath.workdps(30):
        assert abs(got - mpmath.mpf(str(sympy.N(exact, 40)))) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("gamma", ["1/2", "3/2"])
def test_exact_envelope_with_irrational_weights_finishes(gamma):
    # expected: the mp envelope at 30 digits (breakpoints and slopes to 1e-20
    # relative); before, SymPy's comparison of close radicals did not finish at K = 5
    import sympy

    g = sympy.Rational(gamma)
    cm = np.random.default_rng(0).integers(0, 10, (6, 6))
    exact = path_envelope(cm, gamma=g)
    with mpmath.workdps(30):
        ref = path_envelope(cm, gamma=g, arithmetic="mp")
        assert len(exact.breakpoints) == len(ref.breakpoints)
        for e, r in zip(exact.breakpoints[1:-1] + exact.slopes, ref.breakpoints[1:-1] + ref.slopes):
            e = mpmath.mpf(str(sympy.N(e, 40)))
            assert abs(e - r) <= mpmath.mpf(10) ** -20 * max(abs(r), mpmath.mpf(10) ** -300)


def test_exact_envelope_with_gamma_one_thousandth():
    # gamma = 1/1000: the breakpoints are of order 10**-700; expected: UOC by
    # the DP in mp at 1100 digits at each exact breakpoint equals the envelope there
    import sympy

    g = sympy.Rational(1, 1000)
    cm = np.random.default_rng(0).integers(0, 10, (6, 6))
    env = path_envelope(cm, gamma=g)
    assert len(env.slopes) >= 2
    with mpmath.workdps(1100):
        for bp in env.breakpoints[:-1]:
            x = mpmath.mpf(str(sympy.N(bp, 1100)))
            ref = uoc(cm, x, gamma=mpmath.mpf(1) / 1000, arithmetic="mp")
            got = mpmath.mpf(str(sympy.N(env(bp), 1100)))
            assert abs(got - ref) < mpmath.mpf(10) ** -1000


def test_float_envelope_below_float_range_raises():
    # gamma = 1/1000: (sum ...)**1000 overflows float64 and every breakpoint
    # would underflow to 0; a ValueError names the supported range
    cm = np.random.default_rng(0).integers(0, 10, (6, 6))
    with pytest.raises(ValueError, match=r"float supports gamma >= about"):
        path_envelope(cm, gamma=1e-3, arithmetic="float")


@pytest.mark.parametrize("arithmetic", ["float", "mp", "exact"])
def test_envelope_with_beta_max_zero(arithmetic):
    # expected: the one-point range [0, 0]: one piece whose value at 0 is UOC_0
    # computed by the DP in the same arithmetic
    cm = [[1, 2], [3, 4]]
    env = path_envelope(cm, beta_max=0, arithmetic=arithmetic)
    assert len(env.slopes) == 1 and env.breakpoints[0] == 0 and env.breakpoints[-1] == 0
    assert env(0) == uoc(cm, 0, arithmetic=arithmetic)


def test_envelope_integral_of_zero_range_is_zero():
    # expected: the integral over [0, 0] is 0 (definition)
    assert path_envelope([[1, 2], [3, 4]], beta_max=0).integral() == 0


def test_import_numeric_does_not_import_sympy():
    # numeric's float path must not pay for SymPy's import (issue 13)
    import subprocess
    import sys

    code = "import numeric, sys; assert 'sympy' not in sys.modules, 'sympy imported'"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert numeric.a_uoc is not None


def test_exact_a_uoc_with_an_empty_piece():
    # the envelope of this matrix has an empty piece [10/513, 10/513]; sorted
    # before the piece it touches it once cut [10/513, 1/27] away.  expected:
    # the independent Fraction search of benchmarks.baselines (one DP per beta)
    import sympy

    from benchmarks.baselines import a_uoc_exact_fractions

    cm = np.ones((5, 5), dtype=int)
    cm[0, 0] = 0
    ref = a_uoc_exact_fractions(cm)
    assert numeric.a_uoc(cm, arithmetic="exact") == sympy.Rational(ref.numerator, ref.denominator)
    assert abs(numeric.a_uoc(cm) - float(ref)) <= 1e-15
