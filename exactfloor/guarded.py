"""Exact numbers with an interval enclosure (for irrational path weights).

A :class:`Guarded` number carries an exact SymPy value and an interval
(``mpmath.iv``) containing it, at the first precision of its policy
(:attr:`Guarded.policy`, :data:`exactfloor.exact_sign.DEFAULT_POLICY`).
Arithmetic updates both (interval arithmetic rounds outward, so the
enclosure stays valid); a comparison is decided by the intervals when they
are disjoint, otherwise by the one rule of :func:`exactfloor.exact_sign.compare`
(issue 22 item 2: a cheap proof of zero, escalating enclosures, a symbolic
proof, else :class:`~exactfloor.errors.UndecidedError`, never a guess).
Before, the approximations were 60-digit floats decided at ``1e-40``
relative, then the sign of the expanded difference read at 150 digits.
"""

from __future__ import annotations

import mpmath
import sympy

from . import exact_sign
from .arith import Arithmetic

__all__ = ["Guarded", "GUARDED"]

iv = mpmath.iv


def _at_start(policy, f, *args):
    """``f(*args)`` in interval arithmetic at the policy's first precision."""
    with exact_sign.iv_dps(policy.start_dps):
        return f(*args)


class Guarded:
    """An exact SymPy number with an interval enclosure (see the module docstring).

    Built by :meth:`Guarded.of` (which encloses the number) or by the
    arithmetic of guarded numbers.

    Parameters
    ----------
    x : sympy.Expr
        The exact value.
    v : mpmath.iv.mpf or None
        An interval containing it, at the first precision of :attr:`policy`;
        None for an infinity.

    Examples
    --------
    >>> a = Guarded.of(sympy.sqrt(2)); b = Guarded.of(2) / a
    >>> a == b, a < a + 1, (a * a).x
    (True, True, 2)
    """

    __slots__ = ("x", "v")

    #: the comparison policy of every Guarded number (:mod:`exactfloor.exact_sign`)
    policy = exact_sign.DEFAULT_POLICY

    def __init__(self, x, v):
        self.x, self.v = x, v

    @classmethod
    def of(cls, x):
        if isinstance(x, Guarded):
            return x
        x = sympy.sympify(x, strict=True)  # numbers of the arithmetic, never a string
        if x in (sympy.oo, -sympy.oo, sympy.zoo):  # oo bounds the search; no enclosure
            return cls(x, None)
        return cls(x, exact_sign.enclose(x, cls.policy.start_dps))

    def _op(self, other, f, swap=False):
        o = Guarded.of(other)
        a, b = (o, self) if swap else (self, o)
        x = f(a.x, b.x)
        if a.v is None or b.v is None:  # an infinite operand
            return Guarded.of(x)
        return Guarded(x, _at_start(self.policy, f, a.v, b.v))

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
        return Guarded(-self.x, None if self.v is None else -self.v)

    def __abs__(self):
        return -self if self._cmp(0) < 0 else self

    def _cmp(self, other):
        o = Guarded.of(other)
        if self.v is None or o.v is None:  # an infinity: SymPy orders it exactly
            return int(bool(self.x > o.x)) - int(bool(self.x < o.x))
        return exact_sign.compare(self.x, o.x, self.policy, boxes=(self.v, o.v))

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
    def policy(self):
        """The comparison policy (:attr:`Guarded.policy`)."""
        return Guarded.policy

    @property
    def inf(self):
        return Guarded(sympy.oo, None)


GUARDED = _GuardedArithmetic()
