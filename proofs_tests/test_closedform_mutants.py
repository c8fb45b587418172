"""Tests that kill the survivors of the mutation run on :mod:`exactfloor.closedform`
(issue 37 item 5; docs/mutation.md, "Mutation testing of the exact closed forms").

Each test names the mutants it kills and states where its expected values come
from: exact identities derived by hand (``sqrt(6) sqrt(6) = 6``,
``log2(3)^2 = 2.512... < 3``), the canonical form of the module docstring
(for the printed forms), or Python's correctly rounded ``math.sqrt``.  Every
value is computed inside the test, with the module's caches cleared first:
values built while pytest collects (``parametrize``) are made by the clean code
before mutmut switches a mutant on, and a cached answer hides a mutated body.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from exactfloor import closedform as C
from exactfloor import exact_sign
from exactfloor.closedform import from_sympy, log2, power

HALF = Fraction(1, 2)
_CACHED = ("_factors", "_times", "_inverse", "_monomial_box", "_rational_power", "_rational_log2")


@pytest.fixture(autouse=True)
def _fresh_caches():
    for name in _CACHED:
        getattr(C, name).cache_clear()
    yield
    for name in _CACHED:
        getattr(C, name).cache_clear()


def sqrt(x):
    return power(x, HALF)


def test_trial_division_factors_small_composites_without_flint(monkeypatch):
    """The fall-back factorisation (no python-flint): 2 = 2, 4 = 2^2, 9 = 3^2,
    12 = 2^2 3 (by hand).  Kills ``_factors_uncached`` 10 (``p * p >= n`` stops
    before dividing 4 by 2), 12 (``n / p == 0`` finds no factor) and 27
    (``n > 2`` drops a last factor 2)."""
    monkeypatch.setattr(C, "_fmpz", None)
    assert C._factors(2) == ((2, 1),)
    assert C._factors(4) == ((2, 2),)
    assert C._factors(9) == ((3, 2),)
    assert C._factors(12) == ((2, 2), (3, 1))
    assert C._factors(2 * 1031) == ((2, 1), (1031, 1))


def test_products_of_roots_carry_every_integer_part():
    """``sqrt(6) sqrt(6) = 6`` and ``sqrt(6) sqrt(12) = 6 sqrt(2)`` (both
    primes' halves add up to 1: the coefficient is the product of the primes).
    Kills ``_times_uncached`` 16 (``c = p``: only the last prime is kept)."""
    assert sqrt(6) * sqrt(6) == 6
    assert sqrt(6) * sqrt(12) == 6 * sqrt(2)


def test_the_enclosure_of_a_product_of_a_root_and_logarithms():
    """``sqrt(3) log2(3) = 1.7320... x 1.5849... = 2.745... > 5/2`` and
    ``log2(3)^2 = 2.512... < 3`` (digits of sqrt(3), log2(3) by hand); both are
    decided by the interval enclosure (a logarithm: no two-term rule).  Kills
    ``_monomial_box_uncached`` 18 (the logarithm's factor replaces the box: 1.58 <
    5/2) and 20 (``* k``: 2 log2(3) = 3.17 > 3)."""
    assert (sqrt(3) * log2(3) - Fraction(5, 2)).sign() == 1
    assert (log2(3) ** 2 - 3).sign() == -1
    assert (log2(3) * log2(3) - Fraction(5, 2)).sign() == 1


def test_to_sympy_keeps_every_factor_and_power():
    """``sqrt(3) log2(3)^2`` as a SymPy number is ``sqrt(3) (log 3 / log 2)^2``
    (the module docstring's monomial).  Kills ``_sympy_monomial`` 19 (``out =``
    drops the root) and 21 (``* k``)."""
    x = sqrt(3) * log2(3) ** 2
    ref = sympy.sqrt(3) * (sympy.log(3) / sympy.log(2)) ** 2
    assert exact_sign.is_zero(x.to_sympy() - ref)


def test_the_two_term_rule_with_a_rational_at_most_1():
    """``1 - sqrt(2)/2 = 0.29... > 0`` and ``1/2 - sqrt(2)/2 < 0`` (sqrt(2) =
    1.414... by hand): the rational term is in ``(0, 1]``.  Kills
    ``_two_term_sign`` 39 (``a > 1`` flips the sign for such a term)."""
    assert (1 - sqrt(2) / 2).sign() == 1
    assert (HALF - sqrt(2) / 2).sign() == -1
    assert (Fraction(1, 3) - sqrt(2) / 5).sign() == 1  # 1/9 > 2/25


def test_reflected_subtraction_and_division():
    """``1 - sqrt(2) < 0`` (int's ``-`` defers to ``__rsub__``), and
    ``1 / (a / b) = b / a`` for ``a = 1 + log2(3)``, ``b = 2 + log2(3)`` (a
    quotient that keeps its denominator).  Kills ``__rsub__`` 2 (``+self``),
    ``__rtruediv__`` 6 and ``_reciprocal`` 9 (the denominator dropped)."""
    d = 1 - sqrt(2)
    assert d < 0 and d + sqrt(2) == 1
    a, b = 1 + log2(3), 2 + log2(3)
    q = a / b
    assert q.den is not None
    assert 1 / q == b / a and (1 / q) * q == 1


def test_a_closed_form_to_a_rational_power():
    """``sqrt(2) ** (1/2) = 2^(1/4)`` (exponents multiply); ``x ** 0 = 1``.
    Kills ``__pow__`` 1 (a Fraction exponent taken as a repeat count), 3 to 6
    (``power`` called without the base or the exponent)."""
    assert sqrt(2) ** HALF == power(2, Fraction(1, 4))
    assert (sqrt(2) ** HALF) ** 4 == 2


def test_abs_bool_and_every_comparison_on_both_sides_of_an_equality():
    """``sqrt(2) = 1.414...``: against 1 (above), sqrt(2) itself (equal, a
    different object), 2 (below), and ``NaN`` (every comparison False).  Kills
    ``__abs__`` 2, ``_compare`` 4 (a NaN compared), ``__lt__`` 6, 7,
    ``__le__`` 5 to 7, ``__gt__`` 6, ``__ge__`` 1 to 7 (no test called it),
    ``__ne__`` 1, 2, 4, 5, 7, ``__bool__`` 1, 2 (no test called it) and
    ``_rational_sign`` 1, 3 (a rational difference: -1, 1/2)."""
    r, same = sqrt(2), sqrt(8) / 2
    assert r is not same
    assert abs(r) == r and abs(-r) == r
    assert bool(r) is True and bool(r - 2) is True and bool(1 - r) is True
    assert (r < 1, r < same, r < 2) == (False, False, True)
    assert (r <= 1, r <= same, r <= 2) == (False, True, True)
    assert (r > 1, r > same, r > 2) == (True, False, False)
    assert (r >= 1, r >= same, r >= 2) == (True, True, False)
    assert (r == 1, r == same, r == 2) == (False, True, False)
    assert (r != 1, r != same, r != 2) == (True, False, True)
    nan = float("nan")
    assert (r < nan, r <= nan, r > nan, r >= nan, r == nan) == (False,) * 5
    assert r < 1 + r and not (r > 1 + r) and r + HALF > r and not (r + HALF < r)


def test_not_equal_defers_to_the_other_operand():
    """``!=`` with an operand it does not know returns NotImplemented, so a NumPy
    array compares element by element (``[1, sqrt(2)]`` against sqrt(2):
    ``[True, False]``).  Kills ``__ne__`` 3 (a plain True instead)."""
    got = sqrt(2) != np.array([1, sqrt(2)], dtype=object)
    assert isinstance(got, np.ndarray) and got.tolist() == [True, False]


def test_float_is_the_correctly_rounded_double():
    """``float(sqrt(n))`` is ``math.sqrt(n)`` (IEEE 754: correctly rounded).
    Kills ``__float__`` 3 (SymPy's default 15 digits: sqrt(19) and sqrt(170)
    then round to a neighbouring double)."""
    for n in (2, 19, 76, 170):
        assert float(sqrt(n)) == math.sqrt(n), n


def test_the_printed_forms():
    """The printed canonical form: a logarithm's power (``log2(3)^2``), a
    coefficient -1 (``-``), a negative term (`` - ``), a kept denominator
    (``(num)/(den)``).  Kills ``__repr__`` 15, 18 (the power), 30, 32, 34, 35
    (the ``-`` lead), 46, 47 (``+ -`` to `` - ``), 51, 53 (the denominator)."""
    assert repr(log2(3) ** 2) == "log2(3)^2"
    assert repr(log2(3) ** 3) == "log2(3)^3"
    assert repr(-sqrt(2)) == "-2^(1/2)"
    assert repr(1 - sqrt(2)) == "1 - 2^(1/2)"
    assert repr(1 / log2(3)) == "(1)/(log2(3))"
    assert repr(1 / (1 - log2(3))) == "(1)/(1 - log2(3))"


def test_zero_divisions_say_what_was_divided():
    """Division by an exact 0 and a negative power of 0 raise ZeroDivisionError
    naming the case; ``0 ** 0 = 1`` (Python's convention for ``Fraction``).
    Kills ``_reciprocal`` 2 to 4, ``_zero_division`` 1 to 3, ``_rational_power``
    4 (``0 ** -1`` left to the number type) and 8, 9 (``0 ** 0`` refused)."""
    with pytest.raises(ZeroDivisionError, match="^division by an exact 0$"):
        sqrt(2) / (sqrt(8) - 2 * sqrt(2))
    with pytest.raises(ZeroDivisionError, match="^a power of 0 with a negative exponent$"):
        power(0, Fraction(-1, 2))
    with pytest.raises(ZeroDivisionError, match="^a power of 0 with a negative exponent$"):
        power(0, -1)
    assert power(0, 0) == 1 and power(Fraction(0), Fraction(0)) == 1


def test_from_sympy_adds_sums_and_never_parses_a_string():
    """``1 + sqrt(2)`` and ``sqrt(3) - 1`` are sums (SymPy's Add); a string is
    not a SymPy number (``sympify(strict=True)`` refuses it, never parses it).
    Kills ``from_sympy`` 20, 22 (a sum multiplied / subtracted) and 3, 5, 6
    (strict off: ``"1/2"`` parsed)."""
    assert from_sympy(1 + sympy.sqrt(2)) == 1 + sqrt(2)
    assert from_sympy(sympy.sqrt(3) - 1) == sqrt(3) - 1
    with pytest.raises(sympy.SympifyError):
        from_sympy("1/2")


def test_what_is_not_a_number_is_refused_naming_it():
    """A power or a logarithm of something that is not a rational or a closed
    form raises ``_NotExact`` naming it.  Kills ``power`` 29 (no message)."""
    with pytest.raises(C._NotExact, match="a power of 'x'"):
        power("x", HALF)
    with pytest.raises(C._NotExact, match="a logarithm of 'x'"):
        log2("x")


def test_two_roots_sharing_a_prime():
    """``sqrt(6) - (3/2) sqrt(2) = sqrt(2) (sqrt(3) - 3/2) > 0`` (sqrt(3) =
    1.732...) and ``sqrt(6) - 2 sqrt(2) < 0``: the two-term rule divides by one
    root, and ``sqrt(6) / sqrt(2) = sqrt(3)`` carries the integer part 2 of
    ``2^(1/2) 2^(1/2)``.  Kills ``_poly_sign`` 30 (``c1 ci / k``)."""
    assert (sqrt(6) - Fraction(3, 2) * sqrt(2)).sign() == 1
    assert (Fraction(3, 2) * sqrt(2) - sqrt(6)).sign() == -1
    assert (sqrt(6) - 2 * sqrt(2)).sign() == -1
    assert (sqrt(2) - Fraction(2, 3) * sqrt(6)).sign() == -1  # 1 < 2 sqrt(3) / 3 = 1.15...


def test_a_sum_with_one_quotient_and_a_product_by_0():
    """``sqrt(2) + 1 / log2(3) = 1.414... + 0.6309... = 2.045...`` (1/log2(3) =
    log3(2)): the first operand has no denominator, the second has one; and
    ``sqrt(2) * 0 = 0``.  Kills ``__add__`` 7 (the denominator ignored), 18, 19
    (the first operand's denominator 1 taken as None, 2) and ``__mul__`` 16
    (``x * 0 = 1``)."""
    s = sqrt(2) + 1 / log2(3)
    assert 2 < s < Fraction(21, 10)
    assert s - 1 / log2(3) == sqrt(2)
    assert sqrt(2) * 0 == 0 and 0 * sqrt(2) == 0
