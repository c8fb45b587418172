"""Exact closed forms for the tie screen of metrics with roots and logarithms
(:mod:`exactfloor.closedform`).

Expected values: exact identities stated per test (``sqrt(12) = 2 sqrt(3)``,
``log2(12) = 2 + log2(3)``...), signs of numbers whose digits are known
(``sqrt(10^80 + 1) - 10^40`` lies in ``(0, 10^-40)``), and numeric's exact
(SymPy) values of every registered metric whose values are irrational.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

import numeric  # noqa: F401  (registers every metric)
from exactfloor import closedform as C
from exactfloor.closedform import ClosedForm, _NotExact, from_sympy, log2, power
from analytic.properties.engine import MetricSpec
from exactfloor.rational import rationals
from exactfloor import exact_sign
from exactfloor.errors import UndecidedError
from numeric.registry import REGISTRY

HALF = Fraction(1, 2)


def sqrt(x):
    return power(x, HALF)


def test_canonical_forms_make_equal_numbers_equal_forms():
    assert repr(sqrt(12)) == "2*3^(1/2)"
    assert sqrt(2) * sqrt(3) == sqrt(6) and repr(sqrt(2) * sqrt(6)) == "2*3^(1/2)"
    assert sqrt(8) - 2 * sqrt(2) == 0 and type(sqrt(8) - 2 * sqrt(2)) is C.Q
    assert power(power(2, Fraction(1, 3)), 3) == 2 and type(power(2, Fraction(1, 3)) ** 3) is C.Q
    assert power(Fraction(27, 8), Fraction(2, 3)) == Fraction(9, 4)
    s = 1 + sqrt(2)  # an integer power of a sum stays exact
    assert power(s, 2) == 3 + 2 * sqrt(2) and power(s, -1) == sqrt(2) - 1 and s ** 0 == 1
    assert repr(power(Fraction(3, 4), Fraction(1, 3))) == "1/2*2^(1/3)*3^(1/3)"
    assert repr(log2(12)) == "2 + log2(3)" and log2(Fraction(1, 8)) == -3
    assert log2(6) - log2(3) == 1 and repr(log2(45)) == "2*log2(3) + log2(5)"
    # a quotient: the common factor cancels by cross-multiplication
    a, b = 1 + log2(3), 2 + log2(3)
    assert a / b == (2 * a) / (2 * b) and a / b != b / a
    assert (a / b) * (b / a) == 1


def test_a_monomial_free_of_logarithms_folds_into_the_numerator():
    x = 1 / sqrt(2)
    assert x.den is None and repr(x) == "1/2*2^(1/2)"
    y = log2(3) / sqrt(3)
    assert y.den is None and repr(y) == "1/3*3^(1/2)*log2(3)"
    z = 1 / log2(3)
    assert z.den is not None and z * log2(3) == 1


@pytest.mark.parametrize("x, s", [
    (sqrt(2) - Fraction(141421356237, 10**11), 1),            # sqrt(2) = 1.41421356237309...
    (sqrt(10**20 + 1) - 10**10, 1),                           # 5e-11: below float64's 1e-9
    (sqrt(10**80 + 1) - 10**40, 1),                           # 5e-41: beyond 30 digits
    (sqrt(10**80 + 1) - 10**40 - sqrt(2) / 10**50, 1),      # three terms: the policy
    (10**40 - sqrt(10**80 + 1), -1),
    (log2(3) - Fraction(158496250072, 10**11), 1),            # log2(3) = 1.58496250072115...
    (log2(3) * log2(5) - log2(5) * log2(3), 0),               # 0 by its form: a Q
    (sqrt(2) + sqrt(3) - sqrt(5), 1),
    (3 * sqrt(2) - 2 * sqrt(5), -1),                          # sqrt(18) < sqrt(20)
    (1 / (1 - log2(3)), -1),                                  # a negative denominator
    ((2 - log2(3)) / (1 - log2(3)), -1),                      # 0.415 / -0.585
    ((log2(3) - 2) / (1 - log2(3)), 1),
    (power(2, Fraction(1, 3)) - power(3, Fraction(1, 5)), 1),   # 1.2599... > 1.2457...
    (power(3, Fraction(1, 5)) - power(2, Fraction(1, 3)), -1),
])
def test_signs_of_numbers_whose_digits_are_known(x, s):
    got = x.sign() if isinstance(x, ClosedForm) else (x > 0) - (x < 0)
    assert got == s and (s != 0 or type(x) is C.Q)  # 0 is decided by the form, no evaluation
    assert (x > 0, x < 0, x == 0) == (s > 0, s < 0, s == 0)


def test_a_sign_the_first_enclosure_cannot_decide_goes_to_the_policy(monkeypatch):
    """``sqrt(10^80 + 1) - 10^40 - sqrt(2)/10^50`` (about 5e-41 - 1.4e-50 > 0)
    needs more than the policy's first 30 digits: :func:`exactfloor.exact_sign.sign`
    (the one rule) is asked, and decides."""
    calls = []
    real = exact_sign.sign
    monkeypatch.setattr(exact_sign, "sign", lambda *a, **k: calls.append(a) or real(*a, **k))
    x = sqrt(10**80 + 1) - 10**40 - sqrt(2) / 10**50
    assert x.sign() == 1 and len(calls) == 1
    calls.clear()
    assert (sqrt(3) - sqrt(2) - Fraction(1, 3)).sign() == -1 and (log2(3) - sqrt(2)).sign() == 1
    assert calls == []  # decided by the first enclosure


@pytest.mark.parametrize("L", [2, 3, 5])
def test_the_sign_of_a_rational_and_one_root_is_exact(L, monkeypatch):
    """``b (m - a)`` is signed by comparing ``|a|^L`` with ``(|b| m)^L``, no
    enclosure; ``a`` is the root rounded to 25 digits, 10^-20 above and below
    it, or 0; the reference is the sign of the SymPy number at 50 digits
    (the differences are at least 10^-26)."""
    monkeypatch.setattr(C, "_enclosure_sign", None)  # never asked here
    for n in (2, 3, 10, 12, 45, 1000):
        m = power(Fraction(n, 7), Fraction(1, L))
        ref = sympy.Rational(n, 7) ** sympy.Rational(1, L)
        near = sympy.Rational(str(ref.evalf(25)))
        for a in (near, near + sympy.Rational(1, 10**20), near - sympy.Rational(1, 10**20),
                  sympy.Integer(0)):
            for b in (1, -3):
                x = b * (m - Fraction(int(a.p), int(a.q)))
                want = int(sympy.sign((b * (ref - a)).evalf(50)))
                assert want != 0 and x.sign() == want, (n, L, a, b)


def test_the_policy_s_refusal_is_raised_never_a_guess(monkeypatch):
    def undecided(*a, **k):
        raise UndecidedError("cannot decide")

    monkeypatch.setattr(exact_sign, "sign", undecided)
    x = sqrt(10**80 + 1) - 10**40 - sqrt(2) / 10**50
    with pytest.raises(UndecidedError):
        x.sign()
    with pytest.raises(UndecidedError):
        bool(x < 0)


def test_comparisons_with_other_numbers():
    r = sqrt(2)
    assert r < math.inf and r > -math.inf and not (r == math.nan) and r != math.nan
    assert r > 1.4142135623730950 - 1e-15 and r < Fraction(3, 2)
    assert 1 < r and Fraction(3, 2) > r and abs(-r) == r and -r < 0
    import gmpy2  # the test extra installs it

    assert gmpy2.mpq(3, 2) > r and gmpy2.mpq(3, 2) - r > 0 and r * gmpy2.mpq(2) == sqrt(8)
    # a Fraction built from an mpq holds mpz parts (gmpy2.mpq refuses it whole)
    assert C.coefficient(Fraction(gmpy2.mpq(1, 3))) == Fraction(1, 3)
    assert power(8, gmpy2.mpq(1, 3)) == 2 and power(8, Fraction(gmpy2.mpq(1, 3))) == 2
    assert (r == "1") is False and r != "1"
    with pytest.raises(TypeError):
        r < "1"  # noqa: B015
    with pytest.raises(TypeError):
        hash(r)


def test_what_leaves_the_closed_forms_is_refused_and_undefined_is_a_value_error():
    with pytest.raises(_NotExact, match="a power of a sum"):
        sqrt(1 + sqrt(2))
    with pytest.raises(_NotExact, match="a power of a logarithm"):
        sqrt(log2(3))
    with pytest.raises(_NotExact, match="a logarithm of"):
        log2(sqrt(2))
    with pytest.raises(_NotExact, match="not a closed form"):
        from_sympy(sympy.pi)
    for leak in (lambda: sqrt(2) + 0.5, lambda: sqrt(2) * 0.5, lambda: 0.1 * sqrt(2),
                 lambda: power(0.5, HALF), lambda: log2(0.25), lambda: sqrt(2) / 2.0):
        with pytest.raises(_NotExact, match="a float in an exact formula"):
            leak()  # a formula's float is not an exact number: the screen falls back
    with pytest.raises(ValueError, match="negative"):
        sqrt(-2)
    with pytest.raises(ValueError, match="negative"):
        sqrt(-sqrt(2))
    with pytest.raises(ValueError, match="not a positive"):
        log2(0)
    with pytest.raises(ZeroDivisionError):
        sqrt(2) / (sqrt(8) - 2 * sqrt(2))
    with pytest.raises(ZeroDivisionError):
        power(0, Fraction(-1, 2))
    assert sqrt(0) == 0 and power(0, 2) == 0


def test_bounds_and_sympy_round_trips():
    b = from_sympy(sympy.sqrt(2) / 2)
    assert b == 1 / sqrt(2)
    R = sympy.Rational
    for x, ref in ((sqrt(12) - 3, 2 * sympy.sqrt(3) - 3),
                   (log2(12) / (1 + log2(5)), sympy.log(12, 2) / (1 + sympy.log(5, 2))),
                   (power(Fraction(5, 7), Fraction(2, 5)), R(5, 7) ** R(2, 5))):
        assert exact_sign.is_zero(x.to_sympy() - ref)
        assert float(x) == pytest.approx(float(ref), rel=1e-15)


def test_factorisation_with_and_without_flint(monkeypatch):
    n = 2**3 * 1031**2 * 1033 * 104729
    want = ((2, 3), (1031, 2), (1033, 1), (104729, 1))
    C._factors.cache_clear()
    assert C._fmpz is not None  # python-flint: the test extra installs it
    assert C._factors(n) == want and C._factors(1) == ()
    monkeypatch.setattr(C, "_fmpz", None)
    C._factors.cache_clear()
    try:
        assert C._factors(n) == want and C._factors(1) == () and C._factors(97) == ((97, 1),)
        assert C._factors(1031 * 1033) == ((1031, 1), (1033, 1))
    finally:
        C._factors.cache_clear()


#: every registered metric whose values leave the rationals
IRRATIONAL = [("rmse", 0), ("macro_rmse", 0), ("kendall_tau_b", 0), ("spearman_rs", 0),
              ("r_int", 0), ("george_d", 0), ("george_tiebreak", 0), ("cem_ord", 0),
              ("geometric_mean_sensitivity", 0), ("geometric_mean_sensitivity", 1), ("gmsec", 0)]


@pytest.mark.parametrize("name, variant", IRRATIONAL)
@pytest.mark.parametrize("use_gmpy2", [False, True])
def test_closed_forms_are_numeric_s_exact_values(name, variant, use_gmpy2):
    """The engine's exact stack evaluation equals numeric's exact (SymPy) value on
    random matrices (with empty rows and columns), and is defined exactly where
    float64 is."""
    m = REGISTRY[name]
    v = m.cases()[variant]
    spec = MetricSpec(name=name, variant=v.label, better=m.better, bounds=m.bounds)
    from analytic.properties.engine import RationalEvaluator

    ev = RationalEvaluator(lambda T, c: m.function(T, **v.kwargs(T[0]), arithmetic=c),
                           m.better, m.bounds, rationals(use_gmpy2), floats=spec.evaluator())
    rng = np.random.default_rng(7)
    S = rng.integers(0, 5, size=(24, 4, 4)) * (rng.random((24, 4, 4)) < 0.6)
    vals, d = ev(S)
    exact = m.bind(v, "exact")
    irrational = 0
    for s, x, ok in zip(S, vals, d, strict=True):
        if not ok:
            continue
        ref = sympy.sympify(exact(s))
        mine = x.to_sympy() if isinstance(x, ClosedForm) else sympy.Rational(
            int(x.numerator), int(x.denominator))
        assert exact_sign.is_zero(ref - mine), (s.tolist(), ref, x)
        irrational += isinstance(x, ClosedForm)
    assert irrational > 0  # the test met closed forms


def test_without_gmpy2_and_flint_the_numbers_are_fractions():
    """A machine without the ``fast`` extra: ``Q`` is Fraction, the factorisation
    SymPy's; the same forms and decisions (a fresh interpreter, both blocked)."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['gmpy2'] = None; sys.modules['flint'] = None\n"
        "from fractions import Fraction as F\n"
        "from exactfloor.closedform import Q, _fmpz, power, log2\n"
        "r = power(12, F(1, 2))\n"
        "print(Q is F, _fmpz is None, repr(r), type(r * r).__name__, r > F(346, 100),\n"
        "      repr(power(1031 * 1033 * 4, F(1, 2))), repr(log2(F(45, 8))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True", "2*3^(1/2)", "Fraction", "True", "2*1031^(1/2)*1033^(1/2)",
                   "-3", "+", "2*log2(3)", "+", "log2(5)"]


@pytest.mark.parametrize("use_gmpy2", [False, True])
def test_the_context_s_quotient_of_closed_forms(use_gmpy2):
    """``ctx.divide`` (numeric's exact quotient, which makes ints a rational) also
    divides closed forms: sqrt(2) / 2 = 1 / sqrt(2), and 1 / (1 + sqrt 2) = sqrt 2 - 1."""
    ctx = rationals(use_gmpy2)
    a = np.array([sqrt(2), 1, 3], dtype=object)
    b = np.array([2, 1 + sqrt(2), 4], dtype=object)
    q = ctx.divide(a, b)
    assert q[0] == 1 / sqrt(2) and q[1] == sqrt(2) - 1 and q[2] == Fraction(3, 4)
    assert ctx.fraction(ctx.divide(np.array([3]), np.array([4]))[0]) == Fraction(3, 4)
