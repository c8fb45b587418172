r"""Exact values of a metric and their comparison: the property engine's reference.

A metric's value on a count matrix is taken exactly: an int, a
:class:`fractions.Fraction`, a SymPy number (``sympify(strict=True)``: a
string or an unknown object is refused, never parsed), or a float, compared
as the exact binary fraction it is.  :func:`compare` decides the sign of a
difference by the one rule of :mod:`numeric.exact_sign` (issue 22 item 2):
rationals exactly; otherwise interval enclosures (each value keeps one at
the policy's first precision, so most comparisons evaluate nothing), then a
cheap proof of zero, escalation, a symbolic proof.  A difference that the
policy does not decide raises :class:`numeric.errors.UndecidedError`
(never a guess; before, a ``ValueError`` or the sign of a 200-digit value).

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

from numeric import exact_sign
from numeric.exact_sign import DEFAULT_POLICY, ExactPolicy

from .generators import matrix_text

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
    SymPy expression with a 50-digit approximation ``approx`` (for display
    and floats) and an interval ``box`` containing it (an ``mpmath.iv.mpf`` at
    the default policy's first precision, or None), which :func:`compare`
    tries first."""

    exact: object
    q: Fraction | None
    approx: object
    box: object = None

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
    return Value(e, None, approx, exact_sign.enclose(e, DEFAULT_POLICY.start_dps))


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


def expr(v: Value):
    """The exact value as a SymPy number."""
    return sympy.Rational(v.q.numerator, v.q.denominator) if v.q is not None else v.exact


def _boxes(*vs, policy):
    """The known enclosures of ``vs`` when they were taken at the policy's first precision."""
    if policy.start_dps != DEFAULT_POLICY.start_dps:
        return None
    return tuple(v.box if v.q is None else exact_sign.enclose(v.q, policy.start_dps) for v in vs)


def compare(a: Value, b: Value, policy: ExactPolicy | None = None) -> int:
    """The exact sign of ``a - b`` (-1, 0, 1), by :func:`numeric.exact_sign.compare`.

    Raises :class:`numeric.errors.UndecidedError` when ``policy`` (default
    :data:`numeric.exact_sign.DEFAULT_POLICY`) does not decide it.

    >>> compare(value_of(sympy.sqrt(2)), value_of(Fraction(141421, 100000)))
    1
    """
    if a.q is not None and b.q is not None:
        return (a.q > b.q) - (a.q < b.q)
    policy = DEFAULT_POLICY if policy is None else policy
    return exact_sign.compare(expr(a), expr(b), policy, boxes=_boxes(a, b, policy=policy))


def exceeds_sum(c: Value, a: Value, b: Value, policy: ExactPolicy | None = None) -> bool:
    """``c > a + b``, exactly (by :func:`numeric.exact_sign.compare`, as :func:`compare`)."""
    if a.q is not None and b.q is not None and c.q is not None:
        return c.q > a.q + b.q
    policy = DEFAULT_POLICY if policy is None else policy
    boxes = _boxes(c, a, b, policy=policy)
    if boxes is not None and all(x is not None for x in boxes):
        old = mpmath.iv.prec
        try:
            mpmath.iv.dps = policy.start_dps
            boxes = (boxes[0], boxes[1] + boxes[2])
        finally:
            mpmath.iv.prec = old
    else:
        boxes = None
    return exact_sign.compare(expr(c), expr(a) + expr(b), policy, boxes=boxes) > 0


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
    policy : ExactPolicy, optional
        How values are compared (:mod:`numeric.exact_sign`; default
        :data:`~numeric.exact_sign.DEFAULT_POLICY`).
    """

    def __init__(self, f, better, bounds, policy: ExactPolicy | None = None):
        self.f, self.better = f, better
        self.policy = DEFAULT_POLICY if policy is None else policy
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
        return self.sign * compare(a, b, self.policy)

    def describe(self, m) -> str:
        v = self.value(m)
        return (f"f({matrix_text(m)}) = {v}" if isinstance(v, Value)
                else f"f({matrix_text(m)}) undefined")

    def same(self, a, b):
        """None when ``f(a) = f(b)`` (or both undefined), else the witness text."""
        va, vb = self.value(a), self.value(b)
        if isinstance(va, Undefined) and isinstance(vb, Undefined):
            return None
        if isinstance(va, Undefined) or isinstance(vb, Undefined) or compare(va, vb, self.policy):
            return f"{self.describe(a)} but {self.describe(b)}"
        return None
