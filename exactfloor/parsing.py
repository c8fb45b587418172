"""User values to exact SymPy numbers, without evaluating a string as Python.

:func:`sympy.sympify` on a string calls ``eval`` (SymPy's documentation warns:
"sympify uses eval. Don't use it on unsanitized input"), and on an unknown
object it parses ``str(obj)``.  Every public function that takes a number from
a user converts it with :func:`parse_number` instead: a string is parsed by
:mod:`ast` and only numbers, named symbols, ``+ - * / **``, parentheses and the
functions ``sqrt``, ``Rational``, ``Max``, ``Min``, ``Abs`` and the constants
``pi`` and ``E`` are accepted; anything else raises ``ValueError``.
"""

from __future__ import annotations

import ast
import math
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Rational as _RationalABC

import numpy as np
import sympy

__all__ = ["parse_number"]

_FUNCTIONS = {"sqrt": sympy.sqrt, "Rational": sympy.Rational, "Max": sympy.Max,
              "Min": sympy.Min, "Abs": sympy.Abs}
_CONSTANTS = {"pi": sympy.pi, "E": sympy.E}
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
           ast.Pow: lambda a, b: a**b}
#: longest string accepted (a number typed by hand, not a file)
MAX_LENGTH = 1000
#: a string's numbers stay below 10**MAX_DIGITS (numerators and denominators, summed over
#: an operation's operands), and what is under a root below 10**ROOT_DIGITS: SymPy
#: factors the integer under a root, so sqrt(7**6400+2) ran for minutes and
#: (9**9999)**9999 built a number of 95 million digits
MAX_DIGITS, ROOT_DIGITS = 1000, 100
_MAX_BITS, _ROOT_BITS = MAX_DIGITS * math.log2(10), ROOT_DIGITS * math.log2(10)


def parse_number(value, *, what="value", symbols=True, names=None):
    r"""Convert a user value to a SymPy number (or expression) without ``eval``.

    .. math:: \text{"0.1"} \mapsto \tfrac{1}{10},\qquad
              \text{"sqrt(2)/2"} \mapsto \tfrac{\sqrt 2}{2}

    Integers stay integers; a float is read as the shortest decimal that
    prints it (``0.1 -> 1/10``); :class:`fractions.Fraction`,
    :class:`decimal.Decimal`, mpmath and SymPy numbers convert exactly.  A string is parsed with :mod:`ast`
    (numbers, named symbols when ``symbols`` is true, ``+ - * / **``,
    ``sqrt Rational Max Min Abs pi E``); it is never evaluated as Python
    (SymPy's :func:`~sympy.core.sympify.sympify` warns that it uses ``eval``).

    Parameters
    ----------
    value : int, float, Fraction, Decimal, str, SymPy or mpmath number
    what : str
        The name of the value in error messages.
    symbols : bool
        Allow named symbols (``"n"`` -> ``Symbol("n")``) in strings.
    names : mapping of str to SymPy objects, optional
        Names a string may use for given objects (``{"K": K}`` reads ``"K**2"``
        in the symbol ``K`` with its assumptions, not in a new ``Symbol("K")``);
        they take precedence over the constants and the named symbols.

    Returns
    -------
    sympy.Expr
        The exact SymPy number (an expression when ``symbols`` or ``names``
        allow symbols); a SymPy object is returned as it is.

    Raises
    ------
    ValueError
        A string that is not such an expression, or a NaN/infinite float, or
        one whose numbers would pass :data:`MAX_DIGITS` digits (or, under a
        root, :data:`ROOT_DIGITS`): refused before SymPy builds them.
    TypeError
        A value of another type (bool, None, list, arbitrary objects).

    Examples
    --------
    >>> parse_number("sqrt(2)/2")
    sqrt(2)/2
    >>> parse_number(0.1)
    1/10
    >>> k = sympy.Symbol("k", positive=True)
    >>> parse_number("k - 1", names={"k": k}).free_symbols == {k}
    True
    >>> parse_number("__import__('os').getcwd()")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: value: "__import__('os').getcwd()" is not a number or expression (...)
    """
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, (bool, np.bool_)) or value is None:
        raise TypeError(f"{what} must be a number, got {value!r}")
    if isinstance(value, (Integral, np.integer)):
        return sympy.Integer(int(value))
    if isinstance(value, (Fraction, _RationalABC)):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            raise ValueError(f"{what} must be finite, got {value!r}")
        return sympy.Rational(repr(float(value)))
    if isinstance(value, str):
        return _parse_string(value, what, symbols, dict(names or {}))
    if isinstance(value, Decimal):  # SymPy would round it to a 15-digit Float
        if not value.is_finite():
            raise ValueError(f"{what} must be finite, got {value!r}")
        return sympy.Rational(*value.as_integer_ratio())
    try:  # types SymPy converts without parsing a string (mpmath, gmpy, ...)
        return sympy.sympify(value, strict=True)
    except (sympy.SympifyError, TypeError, ValueError):
        raise TypeError(
            f"{what} must be a number, got {type(value).__name__} {value!r:.60}") from None


def _parse_string(text, what, symbols, names):
    bad = ValueError(
        f"{what}: {text!r:.80} is not a number or expression (only numbers"
        f"{', named symbols' if symbols else ''}, + - * / **, sqrt, Rational, Max, Min, "
        "Abs, pi, E are accepted)")
    if len(text) > MAX_LENGTH:
        raise ValueError(f"{what}: a string of {len(text)} characters is too long for a number")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        raise bad from None

    def too_large():
        return ValueError(
            f"{what}: {text!r:.80} holds a number beyond {MAX_DIGITS} digits or a root of a "
            f"number beyond {ROOT_DIGITS} digits (a number typed by hand is smaller)")

    def sized(*args, exponent=None):
        """Refuse, before SymPy computes it, an operation on ``args`` whose result
        (``args[0] ** exponent`` for a power) would hold too large numbers."""
        bits = sum(_bits(a) for a in args)
        if exponent is not None and exponent.is_number:
            if not exponent.is_integer:  # a root: SymPy factors what is under it
                if bits > _ROOT_BITS:
                    raise too_large()
            elif bits * abs(exponent) > _MAX_BITS:
                raise too_large()
        elif bits > _MAX_BITS or sum(_root_bits(a) for a in args) > _ROOT_BITS:
            raise too_large()  # a product of roots is the root of the product

    def ev(node):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            v = node.value
            return sympy.Integer(v) if isinstance(v, int) else parse_number(v, what=what)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow):
                if right.is_number and abs(right) > 10**4:
                    raise ValueError(
                        f"{what}: exponent {str(right):.30} in {text!r:.80} is too large")
                sized(left, exponent=right)
            else:
                sized(left, right)
            return _BINOPS[type(node.op)](left, right)
        if isinstance(node, ast.Name):
            if node.id in names:
                return names[node.id]
            if node.id in _CONSTANTS:
                return _CONSTANTS[node.id]
            if symbols and node.id not in _FUNCTIONS:
                return sympy.Symbol(node.id)
            raise bad
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _FUNCTIONS and not node.keywords):
            args = [ev(a) for a in node.args]
            if node.func.id == "sqrt" and len(args) == 1:
                sized(args[0], exponent=sympy.Rational(1, 2))
            else:
                sized(*args)
            return _FUNCTIONS[node.func.id](*args)
        raise bad

    try:
        out = ev(tree.body)
    except (TypeError, ZeroDivisionError, RecursionError):
        raise bad from None
    if not out.free_symbols and (out.is_finite is False or out.is_extended_real is False):
        raise ValueError(f"{what}: {text!r:.80} is not a finite real number")
    return out


def _bits(x) -> float:
    """The bits of the rational numbers in ``x``: the sum of ``log2`` of the larger
    of each one's numerator and denominator."""
    return sum(math.log2(max(abs(a.p), a.q)) for a in x.atoms(sympy.Rational))


def _root_bits(x) -> float:
    """The bits of the rational numbers under the roots in ``x``."""
    return sum(_bits(p.base) for p in x.atoms(sympy.Pow) if p.exp.is_integer is False)
