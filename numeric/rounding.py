"""Compare exact values with the two-decimal cells printed in the papers."""

from __future__ import annotations

from decimal import Decimal

import sympy

__all__ = ["round_half_up", "matches_printed"]


def round_half_up(value, digits: int = 2):
    r"""Round an exact value half-up (away from zero at a tie) to ``digits`` decimals.

    .. math:: \mathrm{round}(x) = \operatorname{sign}(x)\,\lfloor |x| 10^{d} + \tfrac12 \rfloor / 10^{d}

    The papers print values to two decimals; a cell is compared with the exact
    value rounded this way, never with a float formatted by ``%.2f`` (which
    rounds the binary approximation half-to-even).

    Returns
    -------
    sympy.Rational

    Examples
    --------
    >>> round_half_up(sympy.Rational(5, 8), 2)   # 0.625 -> 0.63, where '%.2f' % 0.625 gives 0.62
    63/100
    >>> round_half_up(-sympy.Rational(1, 8), 2)
    -13/100
    """
    if isinstance(value, float):
        raise TypeError("round_half_up takes an exact value (int, Fraction, SymPy number), not a float")
    x = sympy.sympify(value)
    scale = sympy.Integer(10) ** digits
    mag = sympy.floor(abs(x) * scale + sympy.Rational(1, 2))
    sign = -1 if x.is_negative else 1
    return sign * sympy.Rational(mag, scale)


def matches_printed(value, printed: str) -> bool:
    """True when ``value`` rounded half-up to the printed number of decimals equals ``printed``.

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
