"""Tests that kill the survivors of the mutation run on :mod:`exactfloor.value` and
:mod:`analytic.properties.exact` (issue 37 item 5; docs/mutation.md, "Mutation
testing of the exact values").

Each test names the mutants it kills; expected values are exact by hand
(``1/3``, ``sqrt(2)``) or stated by the functions' docstrings (a SymPy
number; None where the metric is undefined).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy

from analytic.properties.exact import ExactContext
from exactfloor.errors import MetricError, UndefinedMetric
from exactfloor.value import Undefined, bound_value, exceeds_sum, expr, signals_undefined, value_of


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


def test_a_complex_nan_is_a_broken_metric_not_undefined():
    """Only None and a NaN of a *real* number type say "undefined"
    (``signals_undefined``'s docstring); a complex NaN is not a real number, so
    ``ExactContext`` reports the metric as broken (``MetricError``, value_of's
    "not a finite real number").  Kills ``signals_undefined`` 5 (any object
    unequal to itself taken for a NaN) and ``ExactContext.value`` 24 to 29 (the
    message without the matrix, the reason or the advice)."""
    z = complex("nan")
    assert z != z and signals_undefined(z) is False
    ctx = ExactContext(lambda m: z, "lower", (0, None))
    with pytest.raises(MetricError) as err:
        ctx.value(np.array([[1, 0], [0, 1]]))
    assert str(err.value) == (  # ExactContext.value's message, in MetricError.of's frame
        "the metric returned (nan+0j) (not a finite real number; NaN, None or UndefinedMetric "
        "where it is undefined) on the count matrix [[1, 0], [0, 1]]")


def test_a_decimal_signalling_nan_says_undefined():
    """Regression (found by ``signals_undefined`` 9, ``return True`` where
    ``v != v`` raises): ``Decimal("sNaN")`` is a NaN of a number type, so
    "undefined" (the docstring), but its comparison raises ``InvalidOperation``
    and it was taken for a broken metric's value (``MetricError``).  A number
    whose comparison raises for another reason is not a NaN."""
    assert signals_undefined(Decimal("sNaN")) is True and signals_undefined(Decimal("NaN")) is True
    assert signals_undefined(Decimal("1.5")) is False
    ctx = ExactContext(lambda m: Decimal("sNaN"), "lower", (0, None))
    assert isinstance(ctx.value(np.array([[1, 0], [0, 1]])), Undefined)

    class Incomparable(float):
        def __ne__(self, other):
            raise TypeError("no comparison")

    assert signals_undefined(Incomparable(0.5)) is False


def test_a_bound_that_is_not_a_number_is_refused_naming_the_bound():
    """A bound is read without symbols (``bound_value``'s docstring: never
    evaluated; ``symbols=False``): ``"x"`` is refused by the parser, naming the
    side.  Kills ``bound_value`` 1, 2, 9, 12 (the name) and 13, 14 (symbols
    allowed, ``symbols=True`` or by default: ``x`` parsed as a symbol, then refused by another message)."""
    with pytest.raises(ValueError, match="^bound: 'x' is not a number or expression"):
        bound_value("x")
    with pytest.raises(ValueError, match="^upper bound: 'x' is not a number or expression"):
        bound_value("x", "upper bound")
    assert bound_value("sqrt(2)/2", "lower bound").exact == sympy.sqrt(2) / 2


def test_bounds_are_named_by_their_side_and_infinities_are_unbounded():
    """``ExactContext`` names the side of a bad bound; ``-oo`` and ``oo`` mean
    unbounded (None); a bound that is a SymPy number but not a finite real one
    is refused with the bound's name and value.  Kills ``ExactContext.__init__``
    17 to 29 (the sides' names), ``bound_value`` 16 (``-oo`` refused) and 18
    (the message)."""
    with pytest.raises(ValueError, match="^lower bound: 'x' is not a number or expression"):
        ExactContext(_metric, "lower", ("x", None))
    with pytest.raises(ValueError, match="^upper bound: 'x' is not a number or expression"):
        ExactContext(_metric, "lower", (0, "x"))
    assert bound_value(-sympy.oo) is None and bound_value(sympy.oo) is None
    with pytest.raises(ValueError, match=r"^upper bound must be a finite real number or None, got I$"):
        bound_value(sympy.I, "upper bound")


def test_the_metric_gets_an_int64_matrix_and_none_is_undefined_with_its_reason():
    """``ExactContext.value`` converts the matrix to ``int64`` before calling the
    metric (its docstring: "the metric on an int64 count matrix"), and a
    returned None is undefined with the reason "the metric returned None".
    Kills ``ExactContext.value`` 3, 5 (the matrix passed as given) and 20 (no
    reason)."""
    seen = []

    def f(m):
        seen.append(m.dtype)
        return None

    v = ExactContext(f, "lower", (0, None)).value(np.array([[1.0, 0.0], [0.0, 2.0]]))
    assert seen == [np.dtype(np.int64)]
    assert isinstance(v, Undefined) and v.message == "the metric returned None"


def test_value_of_refuses_bools_and_strings_by_their_repr():
    """A bool and a string are not numbers (``value_of``'s docstring: never
    parsed): ``True is not a finite real number``.  Kills ``value_of`` 1 (a bool
    taken as 1) and 2 (no message)."""
    with pytest.raises(ValueError, match="^True is not a finite real number$"):
        value_of(True)
    with pytest.raises(ValueError, match="^'1/2' is not a finite real number$"):
        value_of("1/2")


class _Half:
    """An unknown object whose ``str`` reads as a number and which has an
    ``as_integer_ratio`` method, but is no registered number type: never
    parsed nor converted."""

    def __str__(self):
        return "1/2"

    def as_integer_ratio(self):
        return (1, 2)


def test_value_of_keeps_the_fraction_and_never_parses_an_unknown_object():
    """A rational Value holds the Fraction as ``exact`` too (``Value``'s
    docstring), whatever the rational's type; an unknown object is refused
    naming its type (``sympify(strict=True)``: its ``str`` "1/2" is not parsed,
    a list is not converted); a symbol or a SymPy non-number is not a finite real number.
    A Decimal is the exact decimal fraction (0.1 is 1/10, not the binary
    fraction SymPy's Float would hold).  Kills ``value_of`` 6, 29, 43
    (``exact`` None), 13, 15, 16 (strict off), 17, 18 (the message), 19 (a
    symbol passed on) and 21 (its message), ``_fraction`` 29 (an unknown
    object's ``as_integer_ratio`` taken) and 30 (a Decimal left to SymPy)."""
    for v in (Fraction(1, 3), sympy.Rational(1, 3), np.int64(3), sympy.Float(0.5)):
        got = value_of(v)
        assert got.exact == got.q and isinstance(got.exact, Fraction)
    with pytest.raises(ValueError, match="^_Half .* is not a finite real number$"):
        value_of(_Half())
    with pytest.raises(ValueError, match=r"^list \[1\] is not a finite real number$"):
        value_of([1])  # non-strict sympify makes it a SymPy list, refused by another message
    assert value_of(Decimal("0.1")).q == Fraction(1, 10)
    with pytest.raises(ValueError, match="^x is not a finite real number$"):
        value_of(sympy.Symbol("x", positive=True))
    with pytest.raises(ValueError, match=r"^\(1, 2\) is not a finite real number$"):
        value_of(sympy.Tuple(1, 2))


def test_a_complex_sympy_number_is_refused():
    """``I`` and ``1 + I`` are not real (``value_of``'s docstring: a complex
    number is refused).  Kills ``value_of`` 48 (``and``: a complex value passed
    on) and 59 (the message)."""
    with pytest.raises(ValueError, match="^I is not a finite real number$"):
        value_of(sympy.I)
    with pytest.raises(ValueError, match=r"^1 \+ I is not a finite real number$"):
        value_of(1 + sympy.I)


def test_an_irrational_value_keeps_a_50_digit_approximation():
    """``Value.approx`` of sqrt(2) is mpmath's sqrt(2) to 50 digits (``Value``'s
    docstring: a 50-digit approximation, for display and floats).  Kills
    ``value_of`` 61, 68 (no approximation) and 66 (SymPy's default 15 digits)."""
    import mpmath

    with mpmath.workdps(50):
        want = mpmath.sqrt(2)
        got = value_of(sympy.sqrt(2)).approx
        assert isinstance(got, mpmath.mpf) and abs(got - want) < mpmath.mpf(10) ** -49
