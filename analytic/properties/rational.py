r"""Exact values of a registered metric on a whole stack: the engine's tie decisions.

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

from .space import by_total

__all__ = ["RationalEvaluator", "MemoEvaluator", "rationals", "rational_bound"]


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
        if isinstance(x, Fraction):
            return self.mpq(x.numerator, x.denominator)
        return self.mpq(Fraction(x)) if isinstance(x, (float, str)) else self.mpq(x)

    def power(self, a, p):
        p = Fraction(p)
        if p.denominator != 1:
            raise _NotRational(f"the power {p}")
        if p == 1:
            return a
        return np.vectorize(lambda v: self.mpq(v) ** int(p), otypes=[object])(a)

    def divide(self, a, b):
        return self._quotient(a, b)

    def fraction(self, v):
        if isinstance(v, self.types[2]):
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


class RationalEvaluator:
    """``ev(stack) -> (values, defined)`` with exact rational values.

    ``values`` is an object array of the context's rationals (0 where the
    metric is undefined: every screen reads a value only where ``defined``);
    ``orient`` is the integer ``+1`` or ``-1`` (a float would turn an exact
    difference into a float).  ``fn(stack, ctx)`` evaluates the metric on a
    stack of equal total ``N`` in the context ``ctx``; a ``ValueError`` or a
    division by zero is isolated by halving the stack, and the matrix that
    raises it is undefined.  ``floats``: the float evaluator, whose
    definedness must be the same (the float screen's classes rest on it).

    Raises :class:`_NotRational` when the metric leaves the rationals or is
    defined on other matrices than in float64.
    """

    def __init__(self, fn, better, bounds, ctx=None, floats=None):
        self.ctx = rationals() if ctx is None else ctx
        self.fn = fn
        self.floats = floats
        self.orient = 1 if better == "lower" else -1
        self.bounds = tuple(rational_bound(b, self.ctx) for b in bounds)
        self.best = self.bounds[0] if better == "lower" else self.bounds[1]
        self._types = getattr(self.ctx, "types", (int, Fraction))

    def __call__(self, stack):
        stack = np.asarray(stack, dtype=np.int64)
        values = np.empty(len(stack), dtype=object)
        values[:] = 0
        defined = np.zeros(len(stack), dtype=bool)
        if not len(stack):
            return values, defined
        for idx in by_total(stack):
            self._run(stack, idx, values, defined)
        if self.floats is not None and not np.array_equal(defined, self.floats(stack)[1]):
            bad = int(np.flatnonzero(defined != self.floats(stack)[1])[0])
            raise _NotRational(f"defined differently in float64 and in rationals on "
                               f"{stack[bad].tolist()}")
        for i in np.flatnonzero(defined):
            v = values[i]
            if type(v) in self._types:
                continue
            if getattr(v, "is_Rational", False) is True:  # a SymPy rational: the same number
                values[i] = self.ctx.number(Fraction(int(v.p), int(v.q)))
                continue
            # a bool, a float, an irrational SymPy number: not an exact rational
            raise _NotRational(f"the metric returned {v!r:.40} ({type(v).__name__})")
        return values, defined

    def _run(self, stack, idx, values, defined):
        from numeric._validation import collect_undefined

        try:
            with collect_undefined() as masks:
                out = np.asarray(self.fn(stack[idx], self.ctx), dtype=object).reshape(len(idx))
            ok = np.ones(len(idx), dtype=bool)
            for mask in masks:
                ok &= ~np.broadcast_to(mask, ok.shape)
            values[idx[ok]] = out[ok]
            defined[idx] = ok
        except (ValueError, ZeroDivisionError):  # isolate the undefined matrices
            if len(idx) == 1:
                return
            half = len(idx) // 2
            self._run(stack, idx[:half], values, defined)
            self._run(stack, idx[half:], values, defined)


class MemoEvaluator:
    """A :class:`RationalEvaluator` that keeps every matrix's value (by its
    bytes), so a matrix shared by several properties' ties (a base, a
    transpose, ``2A``) is evaluated once per chunk."""

    def __init__(self, ev):
        self.ev = ev
        self.orient, self.bounds, self.best = ev.orient, ev.bounds, ev.best
        self._memo = {}

    def trim(self, most):
        """Forget the values once more than ``most`` are kept (memory)."""
        if len(self._memo) > most:
            self._memo.clear()

    def __call__(self, stack):
        stack = np.ascontiguousarray(stack, dtype=np.int64)
        keys = [(stack.shape[-1], m.tobytes()) for m in stack]
        missing = [i for i, k in enumerate(keys) if k not in self._memo]
        if missing:
            uniq = {}
            for i in missing:
                uniq.setdefault(keys[i], i)
            rows = list(uniq.values())
            v, d = self.ev(stack[rows])
            for j, i in enumerate(rows):
                self._memo[keys[i]] = (v[j], bool(d[j]))
        values = np.empty(len(stack), dtype=object)
        defined = np.zeros(len(stack), dtype=bool)
        for i, k in enumerate(keys):
            values[i], defined[i] = self._memo[k]
        return values, defined
