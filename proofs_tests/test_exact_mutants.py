"""Tests that kill the survivors of the mutation run on :mod:`exactfloor.value` and
:mod:`analytic.properties.exact` (issue 37 item 5; docs/mutation.md, "Mutation
testing of the exact values").

Each test names the mutants it kills; expected values are exact by hand
(``1/3``, ``sqrt(2)``) or stated by the functions' docstrings (a SymPy
number; None where the metric is undefined).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy

from analytic.properties.exact import ExactContext
from exactfloor.errors import UndefinedMetric
from exactfloor.value import exceeds_sum, expr, value_of


def _metric(m):
    """1/3 on a matrix whose first cell is 1, sqrt(2) on 2, undefined on 0."""
    k = int(m[0, 0])
    if k == 0:
        raise UndefinedMetric("no first cell")
    return Fraction(1, 3) if k == 1 else sympy.sqrt(2)


def test_exact_is_the_sympy_number_or_none_where_undefined():
    """``ExactContext.exact`` gives the metric's value as a SymPy number (1/3 as
    ``Rational(1, 3)``, sqrt(2) as ``sqrt(2)``), None where the metric is
    undefined, each for its own matrix.  Kills ``ExactContext.exact`` 1 to 5
    (no test called it) and ``expr`` 1 (a rational returned as the Fraction)."""
    ctx = ExactContext(_metric, "lower", (0, None))
    one, two, zero = (np.array([[k, 1], [0, 1]]) for k in (1, 2, 0))
    third = ctx.exact(one)
    assert isinstance(third, sympy.Rational) and third == sympy.Rational(1, 3)
    root = ctx.exact(two)
    assert root == sympy.sqrt(2)
    assert ctx.exact(zero) is None
    v = expr(value_of(Fraction(2, 6)))
    assert isinstance(v, sympy.Rational) and (v.p, v.q) == (1, 3)


def test_exceeds_sum_below_the_first_enclosure():
    """``sqrt(10^80 + 1) > (10^40 + 1) + (-1) = 10^40`` (by 5e-41, below the
    policy's first 30 digits, so the exact rule decides on the sum), not
    ``> 10^40 + 2``; ``2 sqrt(2) > sqrt(2) + sqrt(2)`` is False (equal, proved 0).
    Kills ``exceeds_sum`` 43 (``a - b``) and 46 (``>= 0``)."""
    c = value_of(sympy.sqrt(10**80 + 1))
    assert exceeds_sum(c, value_of(10**40 + 1), value_of(-1))
    assert not exceeds_sum(c, value_of(10**40 + 1), value_of(1))
    r = value_of(sympy.sqrt(2))
    assert not exceeds_sum(value_of(2 * sympy.sqrt(2)), r, r)


def test_a_value_prints_as_its_fraction_or_its_sympy_number():
    """``str`` of a Value: ``1/3`` for the rational, ``sqrt(2)`` (SymPy's
    ``sstr``) for the irrational.  Kills ``Value.__str__`` 4, 5."""
    assert str(value_of(Fraction(2, 6))) == "1/3"
    assert str(value_of(sympy.sqrt(2))) == "sqrt(2)"
    assert str(value_of(sympy.sqrt(8) / 4)) == "sqrt(2)/2"


def test_describe_names_the_matrix_and_its_value_or_undefined():
    """``describe``: ``f(<the matrix as a nested list>) = <value>``, or
    ``... undefined`` where the metric is undefined (the form the witnesses of
    the catalogue's checks print).  Kills ``ExactContext.describe`` 4 (an
    undefined value printed as a value) and 6 (the matrix left out)."""
    ctx = ExactContext(_metric, "lower", (0, None))
    assert ctx.describe(np.array([[1, 1], [0, 1]])) == "f([[1, 1], [0, 1]]) = 1/3"
    assert ctx.describe(np.array([[0, 1], [0, 1]])) == "f([[0, 1], [0, 1]]) undefined"
