r"""Exact values of a metric and their comparison: the property engine's reference.

A metric's value on a count matrix is taken exactly: an int, a
:class:`fractions.Fraction`, a SymPy number (``sympify(strict=True)``: a
string or an unknown object is refused, never parsed), or a float, compared
as the exact binary fraction it is.  :func:`compare` decides the sign of a
difference: rationals exactly; otherwise 50-digit approximations (SymPy's
``evalf`` controls their error) decide when they differ by more than
``1e-30``, and a symbolic simplification decides the rest (a difference of
logarithms of rationals is cancelled over the logarithms of primes first).
A difference that nothing decides raises ``ValueError`` (never a guess).

:class:`ExactContext` evaluates one metric, caches each matrix's value and
gives the exact checks of :mod:`analytic.properties.catalog` their
vocabulary (:meth:`~ExactContext.value`, :meth:`~ExactContext.loss_cmp`,
:meth:`~ExactContext.describe`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy

from ..generators import matrix_text

__all__ = ["Undefined", "Value", "value_of", "compare", "exceeds_sum", "expr", "ExactContext",
           "bound_value"]

#: digits of the approximations of irrational values (SymPy's evalf controls the error)
_DPS = 50


class Undefined:
    """The metric raised ``ValueError`` on a matrix (the message is kept)."""

    def __init__(self, message):
        self.message = message

    def __repr__(self):
        return f"undefined ({self.message})"


@dataclass(frozen=True)
class Value:
    """An exact value: a :class:`~fractions.Fraction` when rational, else a
    SymPy expression with a 50-digit approximation."""

    exact: object
    q: Fraction | None
    approx: object

    def __str__(self):
        return str(self.q) if self.q is not None else sympy.sstr(self.exact)


def value_of(v) -> Value:
    """The :class:`Value` of a number a metric returned.

    Raises ``ValueError`` for anything that is not a finite real number (a
    NaN, an infinity, a complex number, a bool, a string -- never parsed).

    >>> str(value_of(0.5)), str(value_of(Fraction(1, 3))), str(value_of(sympy.sqrt(2)))
    ('1/2', '1/3', 'sqrt(2)')
    >>> value_of("1/2")
    Traceback (most recent call last):
    ...
    ValueError: '1/2' is not a finite real number
    """
    if isinstance(v, (bool, np.bool_)) or isinstance(v, (str, bytes)):
        raise ValueError(f"{v!r:.60} is not a finite real number")
    if isinstance(v, Fraction):
        return Value(v, v, None)
    if isinstance(v, (int, np.integer)):
        return Value(Fraction(int(v)), Fraction(int(v)), None)
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            raise ValueError(f"{v!r} is not a finite real number")
        q = Fraction(float(v))  # the exact binary fraction of the float
        return Value(q, q, None)
    try:
        e = sympy.sympify(v, strict=True)
    except (sympy.SympifyError, TypeError, ValueError):
        raise ValueError(f"{type(v).__name__} {v!r:.60} is not a finite real number") from None
    if not isinstance(e, sympy.Expr) or e.free_symbols:
        raise ValueError(f"{v!r:.60} is not a finite real number")
    if e.is_Rational:
        q = Fraction(int(e.p), int(e.q))
        return Value(q, q, None)
    if not e.is_real or e.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        raise ValueError(f"{e} is not a finite real number")
    with mpmath.workdps(_DPS):
        approx = mpmath.mpf(sympy.N(e, _DPS)._mpf_)
    return Value(e, None, approx)


def bound_value(b, what="bound") -> Value | None:
    """A stated bound as a :class:`Value` (None for an unbounded side).

    A string is read by :func:`numeric.parsing.parse_number` (never evaluated).
    """
    if b is None or (isinstance(b, (float, np.floating)) and np.isinf(b)):
        return None
    from numeric.parsing import parse_number

    e = parse_number(b, what=what, symbols=False)
    if e in (sympy.oo, -sympy.oo):
        return None
    try:
        return value_of(e)
    except ValueError:
        raise ValueError(f"{what} must be a finite real number or None, got {b!r:.60}") from None


def _approx(v: Value):
    if v.approx is not None:
        return v.approx
    return mpmath.mpf(v.q.numerator) / v.q.denominator


def expr(v: Value):
    """The exact value as a SymPy number."""
    return sympy.Rational(v.q.numerator, v.q.denominator) if v.q is not None else v.exact


def compare(a: Value, b: Value) -> int:
    """The exact sign of ``a - b`` (-1, 0, 1).

    >>> compare(value_of(sympy.sqrt(2)), value_of(Fraction(141421, 100000)))
    1
    """
    if a.q is not None and b.q is not None:
        return (a.q > b.q) - (a.q < b.q)
    with mpmath.workdps(_DPS):
        d = _approx(a) - _approx(b)
        if abs(d) > mpmath.mpf("1e-30") * max(1, abs(_approx(a))):
            return 1 if d > 0 else -1
    return _sign(expr(a) - expr(b))


def exceeds_sum(c: Value, a: Value, b: Value) -> bool:
    """``c > a + b``, exactly (approximations first, as in :func:`compare`)."""
    if a.q is not None and b.q is not None and c.q is not None:
        return c.q > a.q + b.q
    with mpmath.workdps(_DPS):
        d = _approx(c) - _approx(a) - _approx(b)
        if abs(d) > mpmath.mpf("1e-30") * max(1, abs(_approx(c))):
            return d > 0
    return _sign(expr(c) - expr(a) - expr(b)) > 0


def _sign(d) -> int:
    if d.is_Rational:
        return int(sympy.sign(d))
    approx = d.evalf(40)
    if abs(approx) > sympy.Float("1e-30"):
        return 1 if approx > 0 else -1
    if _formally_zero(d) or sympy.simplify(d) == 0 or d.equals(0):
        return 0
    approx = d.evalf(200)
    if approx == 0:
        raise ValueError(f"cannot decide the sign of {d}")
    return 1 if approx > 0 else -1


def _formally_zero(d) -> bool:
    """``d`` (a real number) is 0 as a rational function of the logarithms of
    primes: each ``log`` of a positive rational expanded into them, then
    cancelled.  True proves ``d = 0``; False decides nothing.  Much cheaper than
    ``simplify`` for the sums of logarithms of CEM-ORD (Amigó et al. 2020).
    """
    if d.free_symbols or any(not a.args[0].is_Rational or a.args[0] <= 0
                             for a in d.atoms(sympy.log)):
        return False
    return sympy.cancel(sympy.expand_log(d, force=True, factor=True)) == 0


def _key(m):
    return (m.shape[0], m.tobytes())


class ExactContext:
    """One metric in exact arithmetic, with a cache of its values.

    Parameters
    ----------
    f : callable
        The metric on an ``int64`` count matrix; ``ValueError`` means undefined.
    better : {"lower", "higher"}
    bounds : (lo, hi)
        Values (numbers, or strings read by :func:`numeric.parsing.parse_number`) or None.
    """

    def __init__(self, f, better, bounds):
        self.f, self.better = f, better
        self.sign = 1 if better == "lower" else -1
        self.bounds = (bound_value(bounds[0], "lower bound"), bound_value(bounds[1], "upper bound"))
        self.cache = {}

    @property
    def best(self):
        return self.bounds[0] if self.better == "lower" else self.bounds[1]

    def value(self, m):
        """The exact :class:`Value` of ``f(m)``, or :class:`Undefined`."""
        m = np.ascontiguousarray(m, dtype=np.int64)
        k = _key(m)
        if k not in self.cache:
            try:
                v = self.f(m.copy())
            except ValueError as exc:  # the metric is undefined on this matrix
                self.cache[k] = Undefined(str(exc))
            else:
                # a NaN, an infinity or a non-number is a broken metric, not an
                # undefined value: every property would "hold" on it
                try:
                    self.cache[k] = value_of(v)
                except ValueError:
                    raise ValueError(
                        f"the metric returned {v!r:.60} on {m.tolist()}, not a finite real "
                        "number (raise ValueError where it is undefined)") from None
        return self.cache[k]

    def exact(self, m):
        """The exact value as a SymPy number, or None where the metric is undefined."""
        v = self.value(m)
        return None if isinstance(v, Undefined) else expr(v)

    def loss_cmp(self, a, b) -> int:
        """> 0 when ``a`` is worse than ``b``."""
        return self.sign * compare(a, b)

    def describe(self, m) -> str:
        v = self.value(m)
        return (f"f({matrix_text(m)}) = {v}" if isinstance(v, Value)
                else f"f({matrix_text(m)}) undefined")

    def same(self, a, b):
        """None when ``f(a) = f(b)`` (or both undefined), else the witness text."""
        va, vb = self.value(a), self.value(b)
        if isinstance(va, Undefined) and isinstance(vb, Undefined):
            return None
        if isinstance(va, Undefined) or isinstance(vb, Undefined) or compare(va, vb):
            return f"{self.describe(a)} but {self.describe(b)}"
        return None
