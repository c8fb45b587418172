"""Compare exact values with the two-decimal cells printed in the papers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import sympy

from exactfloor.parsing import parse_number

__all__ = ["round_half_up", "matches_printed", "printed_interval"]


def round_half_up(value, digits: int = 2):
    r"""Round an exact value half-up (away from zero at a tie) to ``digits`` decimals.

    .. math:: \mathrm{round}(x) = \operatorname{sign}(x)\,\lfloor |x| 10^{d} + \tfrac12 \rfloor / 10^{d}

    The papers print values to two decimals; a cell is compared with the exact
    value rounded this way, never with a float formatted by ``%.2f`` (which
    rounds the binary approximation half-to-even).

    Parameters
    ----------
    value : int, fractions.Fraction, str or SymPy number
        The exact value (a float is refused: :class:`TypeError`).
    digits : int, optional
        The decimals kept (default 2).

    Returns
    -------
    sympy.Rational
        The rounded value.

    Examples
    --------
    >>> round_half_up(sympy.Rational(5, 8), 2)   # 0.625 -> 0.63, where '%.2f' % 0.625 gives 0.62
    63/100
    >>> round_half_up(-sympy.Rational(1, 8), 2)
    -13/100
    """
    if isinstance(value, float):
        raise TypeError("round_half_up takes an exact value (int, Fraction, SymPy number), not a float")
    x = parse_number(value, what="value", symbols=False)
    scale = sympy.Integer(10) ** digits
    mag = sympy.floor(abs(x) * scale + sympy.Rational(1, 2))
    sign = -1 if x.is_negative else 1
    return sign * sympy.Rational(mag, scale)


def matches_printed(value, printed: str) -> bool:
    """True when ``value`` rounded half-up to the printed number of decimals equals ``printed``.

    Parameters
    ----------
    value : int, fractions.Fraction, str or SymPy number
        The exact value (:func:`round_half_up`).
    printed : str
        The number as a paper prints it, e.g. ``"0.56"``.

    Returns
    -------
    bool
        Whether they match.

    Examples
    --------
    >>> matches_printed(sympy.Rational(5, 9), "0.56")
    True
    >>> matches_printed(sympy.Rational(5, 9), "0.6")
    True
    >>> matches_printed(sympy.Rational(5, 9), "0.55")
    False
    """
    d = Decimal(printed.strip())
    digits = max(0, -d.as_tuple().exponent)
    return round_half_up(value, digits) == sympy.Rational(str(d))


def printed_interval(printed: str):
    """The interval ``(lo, hi)`` of exact values that round to the printed cell.

    A cell printed with ``d`` decimals stands for a value within half a unit
    of its last decimal: ``lo = printed - 5 * 10**-(d+1)`` and
    ``hi = printed + 5 * 10**-(d+1)`` (both ends included, so that relations
    checked with this slack can only err on the side of passing).

    Parameters
    ----------
    printed : str
        The cell as printed, e.g. ``"0.56"`` or ``"1.3"``.

    Returns
    -------
    tuple of fractions.Fraction
        ``(lo, hi)``, exact.

    Examples
    --------
    >>> printed_interval("0.56")
    (Fraction(111, 200), Fraction(113, 200))
    >>> printed_interval("1.3")
    (Fraction(5, 4), Fraction(27, 20))
    >>> printed_interval("2")
    (Fraction(3, 2), Fraction(5, 2))
    """
    d = Decimal(printed.strip())
    digits = max(0, -d.as_tuple().exponent)
    v, h = Fraction(str(d)), Fraction(1, 2 * 10 ** digits)
    return v - h, v + h
