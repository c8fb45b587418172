"""Scalar conversion between the arithmetics keeps value and sign exactly."""

from fractions import Fraction

import mpmath
import pytest
import sympy

from numeric import get_arithmetic


@pytest.mark.parametrize("x, exact", [
    (mpmath.mpf(-0.375), sympy.Rational(-3, 8)),   # mpf's mantissa is unsigned: the sign is kept apart
    (mpmath.mpf(0.375), sympy.Rational(3, 8)),
    (mpmath.mpf(-5), sympy.Integer(-5)),
    (0.1, sympy.Rational(1, 10)),                  # a float is read as its shortest decimal
    (Fraction(-2, 6), sympy.Rational(-1, 3)),
    ("7/3", sympy.Rational(7, 3)),
])
def test_exact_number(x, exact):
    assert get_arithmetic("exact").number(x) == exact


def test_mp_number_from_exact():
    with mpmath.workdps(50):
        v = get_arithmetic("mp").number(sympy.sqrt(2))
        assert abs(v - mpmath.sqrt(2)) < mpmath.mpf(10) ** -49
        assert get_arithmetic("mp").number(sympy.Rational(-1, 3)) == -mpmath.mpf(1) / 3
