r"""The rational arithmetic of the engine's tie decisions (the contexts; the
evaluator over them is :class:`analytic.properties.engine.RationalEvaluator`).

The float screen (:mod:`analytic.properties.engine`) cannot decide a *tie*:
two float64 values within its tolerance.  For the equality properties every
matrix is one (``f(2A)`` and ``f(A)`` agree in float64 whether or not they
are equal), so deciding each tie by the per-matrix exact check (SymPy
numbers, one matrix at a time) costs milliseconds per matrix: hours for the
default space.  Here the same formula of :mod:`numeric` runs on the whole
stack of tied matrices in rational arithmetic (Python
:class:`fractions.Fraction`, or ``gmpy2.mpq`` when gmpy2 is installed: the
same numbers, ~5x faster), and the property's own screen
(:meth:`~analytic.properties.catalog.Property.screen`) runs again on those
exact values with no tolerance (:func:`~analytic.properties.catalog.tolerance`
is 0 for exact values).  A tie of the exact screen is an exact equality,
which satisfies every relation the screen marks as a tie (an equality, a
non-strict inequality, the best value on a diagonal matrix); a candidate of
the exact screen goes to the per-matrix exact check like any candidate.

Only rationals: a metric that needs a root or a logarithm (RMSE, Kendall's
tau_b, CEM-ORD, ...) raises :class:`_NotRational` here, and its ties are left
to the per-matrix check.  Definedness is the metric's own
(:func:`numeric._validation.collect_undefined`), exactly as in the float
screen; a value that is not a rational (a float that leaked from a formula)
is refused too, never compared.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from numeric._arith import FractionArithmetic

__all__ = ["rationals", "rational_bound"]


class _NotRational(Exception):
    """The metric needs a number that is not a rational (a root, a logarithm, a
    non-integer power) or returned one: the exact tie screen does not apply."""


class _Rationals(FractionArithmetic):
    """:class:`numeric._arith.FractionArithmetic` that refuses what leaves the rationals.

    >>> _Rationals().sqrt(np.array([Fraction(4)], dtype=object))
    Traceback (most recent call last):
    ...
    analytic.properties.rational._NotRational: a square root
    """

    name = "rational"
    #: the types of this context's exact rationals
    types = (int, Fraction)
    _convert = staticmethod(np.frompyfunc(Fraction, 1, 1))

    def asarray(self, a):
        """Integer arrays (the counts) converted in one numpy loop; the rest elementwise."""
        a = np.asarray(a)
        if a.dtype.kind in "iu":
            # a 0-d array gives a scalar: back into a 0-d array, as the elementwise path does
            return np.asarray(self._convert(a.astype(object)), dtype=object).reshape(a.shape)
        return super().asarray(a)

    def sqrt(self, a):
        raise _NotRational("a square root")

    def log2(self, a):
        raise _NotRational("a logarithm")

    def power(self, a, p):
        p = Fraction(p)
        if p.denominator != 1:
            raise _NotRational(f"the power {p}")
        return super().power(a, p)


class _Mpq(_Rationals):
    """The same numbers as ``gmpy2.mpq`` (C arithmetic; comparisons and results
    identical to :class:`fractions.Fraction`)."""

    name = "rational (gmpy2)"

    def __init__(self, gmpy2):
        self.mpq = gmpy2.mpq
        self.types = (int, Fraction, type(gmpy2.mpq()))
        self._quotient = np.frompyfunc(gmpy2.mpq, 2, 1)
        self._convert = np.frompyfunc(gmpy2.mpq, 1, 1)

    def number(self, x):
        return self.mpq(x)  # exact from an int, a Fraction, a float or a string

    def divide(self, a, b):
        return self._quotient(a, b)

    def fraction(self, v):
        if isinstance(v, self.types[-1]):  # an mpq
            return Fraction(int(v.numerator), int(v.denominator))
        return super().fraction(v)


@functools.lru_cache(maxsize=2)
def rationals(use_gmpy2: bool = True) -> _Rationals:
    """The rational context: ``gmpy2.mpq`` when gmpy2 is importable and
    ``use_gmpy2``, else :class:`fractions.Fraction`.

    >>> rationals(False).name
    'rational'
    """
    if use_gmpy2:
        try:
            import gmpy2
        except ImportError:
            pass
        else:
            return _Mpq(gmpy2)
    return _Rationals()


def rational_bound(b, ctx):
    """A bound (registry value, parsed exactly) in the context ``ctx``; ``None``
    stays None; an irrational bound raises :class:`_NotRational`."""
    if b is None:
        return None
    from .exact import bound_value

    v = bound_value(b)
    if v is None:
        return None
    if v.q is None:
        raise _NotRational(f"the bound {b!r:.40} is not rational")
    return ctx.number(v.q)
