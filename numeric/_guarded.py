"""Exact numbers compared at guarded precision (for irrational path weights).

A :class:`Guarded` number carries an exact SymPy value and a 60-digit mpmath
approximation.  Arithmetic updates both; a comparison is decided on the
approximations when they differ by more than ``1e-40`` (relative), far above
their rounding error.  Closer values are compared exactly: the numerator of
the difference over a common denominator is expanded, which is zero for equal
sums of radicals; otherwise its sign is read at 150 digits, and if even that
is below ``1e-120`` an :class:`~numeric.errors.UndecidedError` is raised
rather than a guess made.  SymPy's own comparison of two close algebraic
numbers goes through minimal polynomials and may not finish.
"""

from __future__ import annotations

import mpmath
import sympy

from ._arith import Arithmetic
from .errors import UndecidedError

__all__ = ["Guarded", "GUARDED"]

_DPS = 60
_SEP = mpmath.mpf("1e-40")
_SEP_HIGH = mpmath.mpf("1e-120")


class Guarded:
    """An exact SymPy number with a 60-digit approximation (see the module docstring).

    >>> a = Guarded.of(sympy.sqrt(2)); b = Guarded.of(2) / a
    >>> a == b, a < a + 1, (a * a).x
    (True, True, 2)
    """

    __slots__ = ("x", "v")

    def __init__(self, x, v):
        self.x, self.v = x, v

    @classmethod
    def of(cls, x):
        if isinstance(x, Guarded):
            return x
        x = sympy.sympify(x, strict=True)  # numbers of the arithmetic, never a string
        if x is sympy.oo:
            return cls(x, mpmath.inf)
        with mpmath.workdps(_DPS):
            return cls(x, mpmath.mpf(sympy.N(x, _DPS + 5)))

    def _op(self, other, f, swap=False):
        o = Guarded.of(other)
        a, b = (o, self) if swap else (self, o)
        with mpmath.workdps(_DPS):
            return Guarded(f(a.x, b.x), f(a.v, b.v))

    def __add__(self, o):
        return self._op(o, lambda a, b: a + b)

    def __radd__(self, o):
        return self._op(o, lambda a, b: a + b, True)

    def __sub__(self, o):
        return self._op(o, lambda a, b: a - b)

    def __rsub__(self, o):
        return self._op(o, lambda a, b: a - b, True)

    def __mul__(self, o):
        return self._op(o, lambda a, b: a * b)

    def __rmul__(self, o):
        return self._op(o, lambda a, b: a * b, True)

    def __truediv__(self, o):
        return self._op(o, lambda a, b: a / b)

    def __rtruediv__(self, o):
        return self._op(o, lambda a, b: a / b, True)

    def __neg__(self):
        return Guarded(-self.x, -self.v)

    def __abs__(self):
        return -self if self._cmp(0) < 0 else self

    def _cmp(self, other):
        o = Guarded.of(other)
        if mpmath.isinf(self.v) or mpmath.isinf(o.v):
            return (self.v > o.v) - (self.v < o.v)
        with mpmath.workdps(_DPS):
            d = self.v - o.v
            if abs(d) > _SEP * max(1, abs(self.v), abs(o.v)):
                return 1 if d > 0 else -1
        diff = sympy.numer(sympy.together(self.x - o.x))
        diff = sympy.expand(diff) * sympy.denom(sympy.together(self.x - o.x))
        if diff == 0:
            return 0
        with mpmath.workdps(150):
            hv = mpmath.mpf(sympy.N(diff, 150))
            if abs(hv) > _SEP_HIGH * max(1, abs(self.v), abs(o.v)):
                return 1 if hv > 0 else -1
        raise UndecidedError(f"cannot separate {self.x} and {o.x} at 150 digits")

    def __lt__(self, o):
        return self._cmp(o) < 0

    def __le__(self, o):
        return self._cmp(o) <= 0

    def __gt__(self, o):
        return self._cmp(o) > 0

    def __ge__(self, o):
        return self._cmp(o) >= 0

    def __eq__(self, o):
        return self._cmp(o) == 0

    def __ne__(self, o):
        return self._cmp(o) != 0

    __hash__ = None

    def __repr__(self):
        return f"Guarded({self.x})"


class _GuardedArithmetic(Arithmetic):
    """Exact arithmetic with guarded comparisons; used inside the envelope search."""

    name = "guarded"
    exact = True

    def number(self, x):
        return Guarded.of(x)

    def sympy_number(self, v):
        """The exact SymPy value of a guarded number."""
        return v.x

    @property
    def inf(self):
        return Guarded(sympy.oo, mpmath.inf)


GUARDED = _GuardedArithmetic()
