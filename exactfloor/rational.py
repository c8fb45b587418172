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

Roots and logarithms: a metric that takes the root of a rational (RMSE,
Kendall's tau_b, the geometric mean of sensitivities...) or the base-2
logarithm of one (CEM-ORD) gets exact closed forms
(:mod:`exactfloor.closedform`: canonical, so an exact equality is
decided by comparing forms; a sign by :mod:`exactfloor.exact_sign`'s policy).
What leaves them (a root of a sum of roots...) raises the closed forms'
internal signal that the exact screen does not apply, and the metric's ties
are left to the per-matrix check.  Definedness is the metric's own (its
undefined matrices, as numeric's validation collects them), exactly as in the float
screen; a value that is not a rational (a float that leaked from a formula)
is refused too, never compared.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from .arith import FractionArithmetic, _fraction_quotient

from . import closedform
from .closedform import ClosedForm

__all__ = ["rationals", "rational_bound"]


class _Rationals(FractionArithmetic):
    """:class:`exactfloor.arith.FractionArithmetic` whose roots, powers and base-2
    logarithms of rationals are exact closed forms
    (:class:`~exactfloor.closedform.ClosedForm`; a rational result
    stays a rational: ``closedform.Q``, gmpy2's mpq when installed).

    >>> [str(v) for v in _Rationals().sqrt(np.array([Fraction(4), Fraction(8, 9)], dtype=object))]
    ['2', '2/3*2^(1/2)']
    >>> _Rationals().sqrt(np.array([Fraction(-1)], dtype=object))
    Traceback (most recent call last):
    ...
    exactfloor.errors.UndefinedMetric: a root of a negative number: (-1)**1/2
    """

    name = "rational"
    #: the types of this context's exact rationals
    types = (int, Fraction, ClosedForm, closedform.QTYPE)
    _convert = staticmethod(np.frompyfunc(Fraction, 1, 1))
    _quotient = staticmethod(_fraction_quotient)  # FractionArithmetic's

    def asarray(self, a):
        """Integer arrays (the counts) converted in one numpy loop (small counts
        taken from a table of this context's numbers: immutable, shared); the
        rest elementwise."""
        a = np.asarray(a)
        if a.dtype.kind in "iu" and a.size and 0 <= a.min() and a.max() < _SMALL:
            return np.asarray(self._table[a], dtype=object).reshape(a.shape)
        if a.dtype.kind in "iu":
            # a 0-d array gives a scalar: back into a 0-d array, as the elementwise path does
            return np.asarray(self._convert(a.astype(object)), dtype=object).reshape(a.shape)
        return super().asarray(a)

    @functools.cached_property
    def _table(self):
        """The numbers 0 .. _SMALL - 1 of this context."""
        out = np.empty(_SMALL, dtype=object)
        out[:] = [self.number(i) for i in range(_SMALL)]
        return out

    def fraction(self, v):
        """``v`` as a Fraction when it is an exact rational (an int, a Fraction, an
        mpq: closed forms give mpq when gmpy2 is installed), else None."""
        if isinstance(v, float):
            return None
        c = closedform.coefficient(v)  # None for a closed form
        return None if c is None else Fraction(int(c.numerator), int(c.denominator))

    def divide(self, a, b):
        try:
            return self._quotient(a, b)  # the rational of two ints, exactly
        except TypeError:  # a closed form: its own quotient
            return np.asarray(a, dtype=object) / np.asarray(b, dtype=object)

    def sqrt(self, a):
        return self.power(a, Fraction(1, 2))

    def log2(self, a):
        return _log2(a)

    def power(self, a, p):
        return _power(a, p)


class _Mpq(_Rationals):
    """The same numbers as ``gmpy2.mpq`` (C arithmetic; comparisons and results
    identical to :class:`fractions.Fraction`)."""

    name = "rational (gmpy2)"

    def __init__(self, gmpy2):
        self.mpq = gmpy2.mpq
        self._quotient = np.frompyfunc(gmpy2.mpq, 2, 1)
        self._convert = np.frompyfunc(gmpy2.mpq, 1, 1)

    def number(self, x):
        return self.mpq(x)  # exact from an int, a Fraction, a float or a string


#: counts below this are converted by a table lookup
_SMALL = 4096
_power = np.frompyfunc(closedform.power, 2, 1)
_log2 = np.frompyfunc(closedform.log2, 1, 1)


@functools.lru_cache(maxsize=2)
def rationals(use_gmpy2: bool = True) -> _Rationals:
    """The rational context: ``gmpy2.mpq`` when gmpy2 is importable and ``use_gmpy2``, else Fraction.

    Parameters
    ----------
    use_gmpy2 : bool, default True
        Use gmpy2 when it is installed (the same numbers, about 5x faster).

    Returns
    -------
    numeric arithmetic context
        The context whose numbers are :class:`fractions.Fraction` or ``gmpy2.mpq``.

    Examples
    --------
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
    """A metric's stated bound in the rational context ``ctx``.

    Parameters
    ----------
    b : number, str or None
        A bound as the registry states it (parsed exactly, never evaluated).
    ctx : numeric arithmetic context
        The rational context (:func:`rationals`).

    Returns
    -------
    object
        The rational in ``ctx``; an irrational bound as a closed form (of the
        engine's closed forms of roots and logarithms; beyond them the closed
        forms' not-exact error is raised); ``None`` for ``None``.

    Examples
    --------
    >>> ctx = rationals(False)
    >>> rational_bound("1/2", ctx), rational_bound(None, ctx)
    (Fraction(1, 2), None)
    """
    if b is None:
        return None
    from .value import bound_value

    v = bound_value(b)
    if v is None:
        return None
    if v.q is None:
        return closedform.from_sympy(v.exact)
    return ctx.number(v.q)
