r"""Exact values: every number a metric returns, converted once, and compared by the one rule.

A metric's value on a count matrix is taken exactly, converted once here
(:func:`value_of`): an int (Python, NumPy, gmpy2), a rational
(:class:`fractions.Fraction` whatever its integers, gmpy2's ``mpq``, a SymPy
``Rational``), a binary floating-point number (``float``, NumPy's, mpmath's
``mpf``, gmpy2's ``mpfr``, SymPy's ``Float``; each the exact binary fraction
it is), a ``Decimal`` (the exact decimal fraction), or a SymPy number
(``sympify(strict=True)``: a string is refused, never parsed; an object SymPy's
strict conversion does not know is refused, one with ``__float__`` is read as the
float it gives).  A metric says it is undefined on a matrix by raising
:class:`exactfloor.errors.UndefinedMetric` or returning NaN or None
(:func:`signals_undefined`).  :func:`compare` decides the sign of a
difference by the one rule of :mod:`exactfloor.exact_sign` (issue 22 item 2):
rationals exactly; otherwise interval enclosures (each value keeps one at
the policy's first precision, so most comparisons evaluate nothing), then a
cheap proof of zero, escalation, a symbolic proof.  A difference that the
policy does not decide raises :class:`exactfloor.errors.UndecidedError`
(never a guess).

The property engine's evaluation of a metric on matrices
(:class:`analytic.properties.exact.ExactContext`) is built on these values.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import sympy

from . import exact_sign
from .exact_sign import DEFAULT_POLICY, ExactPolicy
from .parsing import parse_number

__all__ = ["Undefined", "Value", "value_of", "signals_undefined", "compare", "exceeds_sum", "expr",
           "bound_value"]


#: digits of the approximations of irrational values (SymPy's evalf controls the error)
_DPS = 50


class Undefined:
    """The metric is undefined on a matrix: it raised
    :class:`exactfloor.errors.UndefinedMetric` (the message is kept) or returned
    NaN or None.

    Parameters
    ----------
    message : str
        Why: the exception's message, or what the metric returned.

    Examples
    --------
    >>> Undefined("no sample")
    undefined (no sample)
    """

    def __init__(self, message):
        self.message = message

    def __repr__(self):
        return f"undefined ({self.message})"


@dataclass(frozen=True)
class Value:
    """An exact value: a :class:`~fractions.Fraction` when rational, else a
    SymPy expression with an approximation and an enclosure.

    Built by :func:`value_of`, never by hand.

    Parameters
    ----------
    exact : fractions.Fraction or sympy.Expr
        The value: the Fraction when it is rational, else a SymPy number.
    q : fractions.Fraction or None
        The value when it is rational, else None.
    approx : mpmath.mpf or None
        A 50-digit approximation of an irrational value (for display and
        floats); None for a rational one.
    box : mpmath.iv.mpf or None, optional
        An interval containing an irrational value, at the default policy's
        first precision, which :func:`compare` tries first; None for a rational one.

    Examples
    --------
    >>> v = value_of(sympy.sqrt(2))
    >>> str(v), v.q is None, str(v.approx)[:8], v.box.a < v.approx < v.box.b
    ('sqrt(2)', True, '1.414213', True)
    >>> value_of(0.25).q
    Fraction(1, 4)
    >>> float(value_of(Fraction(1, 3))), float(value_of(sympy.sqrt(2)))
    (0.3333333333333333, 1.4142135623730951)
    """

    exact: object
    q: Fraction | None
    approx: object
    box: object = None

    def __str__(self):
        return str(self.q) if self.q is not None else sympy.sstr(self.exact)

    def __float__(self):
        """The nearest float64 (of the Fraction, or of the 50-digit approximation);
        ``OverflowError`` for a rational beyond float64's range, as ``float(Fraction)``."""
        return float(self.q) if self.q is not None else float(self.approx)


def value_of(v) -> Value:
    """The :class:`Value` of a number a metric returned.

    Every kind of number is converted here, once (the module docstring lists
    them): a rational or a binary or decimal floating-point number becomes the
    exact :class:`~fractions.Fraction` it is (with Python integers, whatever
    integers it was built from), anything else a SymPy number.  Raises
    ``ValueError`` for anything that is not a finite real number (a NaN, an
    infinity, a complex number, a bool, a string -- never parsed).

    Parameters
    ----------
    v : int, fractions.Fraction, float, decimal.Decimal or sympy.Expr
        A number a metric returned (NumPy's, gmpy2's and mpmath's numbers too).

    Returns
    -------
    Value
        Its exact value.

    Examples
    --------
    >>> str(value_of(0.5)), str(value_of(Fraction(1, 3))), str(value_of(sympy.sqrt(2)))
    ('1/2', '1/3', 'sqrt(2)')
    >>> q = value_of(Fraction(np.int64(2), np.int64(6))).q   # NumPy integers inside
    >>> q, type(q.numerator)
    (Fraction(1, 3), <class 'int'>)
    >>> str(value_of(mpmath.mpf(0.25))), str(value_of(sympy.Float(0.5)))
    ('1/4', '1/2')
    >>> value_of("1/2")
    Traceback (most recent call last):
    ...
    ValueError: '1/2' is not a finite real number
    """
    if isinstance(v, (bool, np.bool_)) or isinstance(v, (str, bytes)):
        raise ValueError(f"{v!r:.60} is not a finite real number")
    q = _fraction(v)
    if q is not None:
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
    if e.is_Float:  # a binary floating-point number: the exact fraction it is
        r = sympy.Rational(e)
        q = Fraction(int(r.p), int(r.q))
        return Value(q, q, None)
    if not e.is_real or e.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        raise ValueError(f"{e} is not a finite real number")
    with mpmath.workdps(_DPS):
        approx = mpmath.mpf(sympy.N(e, _DPS)._mpf_)
    return Value(e, None, approx, exact_sign.enclose(e, DEFAULT_POLICY.start_dps))


def _fraction(v) -> Fraction | None:
    """``v`` as an exact Fraction of Python integers when it is an integer, a
    rational or a binary or decimal floating-point number (else None; a NaN
    or an infinity: ``ValueError``)."""
    if isinstance(v, (int, np.integer)) or (isinstance(v, numbers.Integral)
                                            and not isinstance(v, sympy.Basic)):
        return Fraction(int(v))
    if isinstance(v, numbers.Rational) and not isinstance(v, sympy.Basic):  # Fraction, mpq
        return Fraction(int(v.numerator), int(v.denominator))
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise ValueError(f"{v!r} is not a finite real number")
        sign, man, exp, _ = v._mpf_  # (-1)^sign * man * 2^exp, exactly
        q = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -q if sign else q
    if isinstance(v, (numbers.Real, Decimal)) and not isinstance(v, sympy.Basic):
        # float, NumPy's floats, gmpy2's mpfr, Decimal: the exact fraction of the value
        try:
            n, d = v.as_integer_ratio()
        except (OverflowError, ValueError):  # an infinity, a NaN
            raise ValueError(f"{v!r} is not a finite real number") from None
        except AttributeError:  # a Real without the method: not taken here
            return None
        return Fraction(int(n), int(d))
    return None


def signals_undefined(v) -> bool:
    """Whether a metric's returned value ``v`` says "undefined here": None or a NaN.

    Parameters
    ----------
    v : object
        What a metric returned.

    Returns
    -------
    bool
        True for None and for a NaN of any number type.

    Examples
    --------
    >>> signals_undefined(None), signals_undefined(float("nan")), signals_undefined(mpmath.nan)
    (True, True, True)
    >>> signals_undefined(sympy.nan), signals_undefined(0.5), signals_undefined(float("inf"))
    (True, False, False)
    """
    if v is None or v is sympy.nan:
        return True
    if isinstance(v, Decimal):  # a signalling NaN raises on v != v (issue 37 item 5's mutants)
        return v.is_nan()
    if isinstance(v, (numbers.Real, Decimal, mpmath.mpf)) and not isinstance(v, sympy.Basic):
        try:
            return bool(v != v)
        except (TypeError, ValueError, ArithmeticError):
            return False
    return False


def bound_value(b, what="bound") -> Value | None:
    """A stated bound as a :class:`Value` (None for an unbounded side).

    Parameters
    ----------
    b : int, float, fractions.Fraction, str, sympy.Expr or None
        The bound; a string is read by :func:`exactfloor.parsing.parse_number`
        (never evaluated); None or an infinite float for an unbounded side.
    what : str, optional
        The bound's name in an error message.

    Returns
    -------
    Value or None
        Its exact value; None for an unbounded side.

    Raises
    ------
    ValueError
        When ``b`` is not a finite real number, None or an infinite float.

    Examples
    --------
    >>> str(bound_value("sqrt(2)/2")), bound_value(float("inf")), bound_value(None)
    ('sqrt(2)/2', None, None)
    """
    if b is None or (isinstance(b, (float, np.floating)) and np.isinf(b)):
        return None
    e = parse_number(b, what=what, symbols=False)
    if e in (sympy.oo, -sympy.oo):
        return None
    try:
        return value_of(e)
    except ValueError:
        raise ValueError(f"{what} must be a finite real number or None, got {b!r:.60}") from None


def expr(v: Value):
    """The exact value as a SymPy number.

    Parameters
    ----------
    v : Value
        A value.

    Returns
    -------
    sympy.Expr
        A SymPy ``Rational`` when it is rational, else its SymPy number.

    Examples
    --------
    >>> expr(value_of(0.75)), expr(value_of(sympy.sqrt(3)))
    (3/4, sqrt(3))
    """
    return sympy.Rational(v.q.numerator, v.q.denominator) if v.q is not None else v.exact


def _boxes(*vs, policy):
    """The known enclosures of ``vs`` when they were taken at the policy's first precision."""
    if policy.start_dps != DEFAULT_POLICY.start_dps:
        return None
    return tuple(v.box if v.q is None else exact_sign.enclose(v.q, policy.start_dps) for v in vs)


def compare(a: Value, b: Value, policy: ExactPolicy | None = None) -> int:
    """The exact sign of ``a - b`` (-1, 0, 1), by :func:`exactfloor.exact_sign.compare`.

    Two rationals are compared as Fractions; otherwise the enclosures kept in
    the values are tried first.

    Parameters
    ----------
    a, b : Value
        The two values.
    policy : ExactPolicy, optional
        The escalation policy; default :data:`exactfloor.exact_sign.DEFAULT_POLICY`.

    Returns
    -------
    int
        -1, 0 or 1: the sign of ``a - b``.

    Raises
    ------
    exactfloor.errors.UndecidedError
        When ``policy`` does not decide it.

    Examples
    --------
    >>> compare(value_of(sympy.sqrt(2)), value_of(Fraction(141421, 100000)))
    1
    """
    if a.q is not None and b.q is not None:
        return (a.q > b.q) - (a.q < b.q)
    policy = DEFAULT_POLICY if policy is None else policy
    return exact_sign.compare(expr(a), expr(b), policy, boxes=_boxes(a, b, policy=policy))


def exceeds_sum(c: Value, a: Value, b: Value, policy: ExactPolicy | None = None) -> bool:
    """``c > a + b``, exactly (by :func:`exactfloor.exact_sign.compare`, as :func:`compare`).

    Parameters
    ----------
    c, a, b : Value
        The three values.
    policy : ExactPolicy, optional
        The escalation policy; default :data:`exactfloor.exact_sign.DEFAULT_POLICY`.

    Returns
    -------
    bool
        Whether ``c > a + b``.

    Raises
    ------
    exactfloor.errors.UndecidedError
        When ``policy`` does not decide it.

    Examples
    --------
    >>> half, root = value_of(0.5), value_of(sympy.sqrt(2) / 2)
    >>> exceeds_sum(value_of(1.5), half, half), exceeds_sum(value_of(1), root, root)
    (True, False)
    """
    if a.q is not None and b.q is not None and c.q is not None:
        return c.q > a.q + b.q
    policy = DEFAULT_POLICY if policy is None else policy
    boxes = _boxes(c, a, b, policy=policy)
    if boxes is not None and all(x is not None for x in boxes):
        with exact_sign.iv_dps(policy.start_dps):
            boxes = (boxes[0], boxes[1] + boxes[2])
    else:
        boxes = None
    return exact_sign.compare(expr(c), expr(a) + expr(b), policy, boxes=boxes) > 0
