"""binotto2024: the data printed in Binotto, Delgado, "How to adapt the
performance metrics to ordinal classification by intervals?".

Source: ``shared/seeds/002_1ad9def3cd093580.txt`` (a machine transcription).
Everything here is copied as transcribed; nothing is corrected.

Orientation
    binotto2024 prints confusion matrices **predicted x true** (``C_ij``:
    instances of class ``j`` assigned to class ``i``, §1).  :data:`PRINTED`
    holds the toy example's matrices as printed, :data:`MATRICES` their
    transposes (rows = true class, the convention of :mod:`numeric`).

Toy example (§5)
    r = 3 intervals of lengths ``1, 1, x``, ``n = (5, 5, 5)``, N = 15.
    :data:`TOY_PRINTED` holds the printed closed forms as strings that
    :func:`sympy.sympify` parses in the symbol ``x`` (``Max(1, x)`` for the
    paper's ``max(1, x)``): the cost matrix ``M`` (predicted x true),
    ``TC(C_A)``, ``TC(C_B) - TC(C_A)``, the optimal length, ``TC_max`` there,
    both STC values and their difference (printed ``≈ 0.0407``).

Proposition 3
    :data:`PROP3` -- both printed forms of the balanced ``TC_max`` (in ``r``
    and ``h``; ``h`` is ``r/2`` for even ``r`` and ``floor(r/2) + 1`` for odd
    ``r``, :data:`PROP3_H`).

Parsing
    :func:`parse` turns any printed string of this module into a SymPy
    expression in the symbols of :mod:`analytic.symbols` (``x``, ``L``, ``r``,
    plus ``h``), optionally substituting values.

Proposition 6
    :data:`PROP6` -- the four cases ``(upper bound of L, x~, TC_max(x~))``
    as sympify-able strings in ``L``; the last case has no upper bound.

Examples
--------
>>> MATRICES["C_A"]
((3, 2, 0), (2, 2, 1), (1, 2, 2))
>>> TOY_PRINTED["x_opt"]
'1/sqrt(2)'
"""

from __future__ import annotations

import sympy

from analytic.symbols import L, r, x

from ._trusted import check_own

__all__ = [
    "KEY", "SEED", "PRINTED", "MATRICES", "TOY_COUNTS",
    "TOY_PRINTED", "PROP3", "PROP3_H", "PROP6", "APPENDIX_A", "APPENDIX_A_MINIMA", "parse",
]

#: the symbol ``h`` of Prop. 3 (an index: positive integer)
H = sympy.Symbol("h", integer=True, positive=True)
_NAMES = {"x": x, "L": L, "r": r, "h": H}


def _check_own(expr):
    """``ValueError`` unless ``expr`` is one of this module's own transcribed strings
    (:func:`analytic.ledger.sources._trusted.check_own`)."""
    check_own(expr, globals())


def parse(expr, **subs):
    """A printed binotto2024 string as a SymPy expression in ``x``, ``L``, ``r``
    (:mod:`analytic.symbols`) and ``h``; ``subs`` substitutes values by name.

    Trusted input only: ``expr`` is read with :func:`sympy.sympify` (which
    evaluates its text), so it must be one of this module's own transcribed
    strings; any other raises ``ValueError``.

    >>> parse(TOY_PRINTED["TC_A"], x=2)
    26/15
    """
    _check_own(expr)  # trusted input only: sympify evaluates its string
    e = sympy.sympify(expr, locals={**_NAMES, "Max": sympy.Max})
    return e.subs({_NAMES[k]: v for k, v in subs.items()}) if subs else e

KEY = "binotto2024"
SEED = "002_1ad9def3cd093580.txt"

#: §5, toy example, as printed: rows = predicted interval, columns = observed.
PRINTED = {
    "C_A": ((3, 2, 1), (2, 2, 2), (0, 1, 2)),
    "C_B": ((3, 2, 2), (2, 2, 1), (0, 1, 2)),
}

#: The same matrices, rows = true class.
MATRICES = {k: tuple(zip(*v, strict=True)) for k, v in PRINTED.items()}

TOY_COUNTS = (5, 5, 5)

#: The printed closed forms of the toy example (strings for sympy.sympify, symbol x).
TOY_PRINTED = {
    "M": (
        ("0", "(1 + 1/x)/15", "2*(1 + Max(1, x))/15"),
        ("(1 + 1/x)/15", "0", "2*Max(1, x)/15"),
        ("(1 + x)*(1 + Max(1, x))/15", "(1 + x)*Max(1, x)/15", "0"),
    ),
    "TC_A": "(6 + 4/x + (7 + x)*Max(1, x))/15",
    "TC_B_minus_TC_A": "2/15",
    "x_opt": "1/sqrt(2)",
    "TC_max_opt": "(2*sqrt(2) + 7)/3",
    "STC_A": "(73 + 11/sqrt(2))/205",
    "STC_B": "(87 + 3/sqrt(2))/205",
    "STC_B_minus_STC_A": "(14 - 8/sqrt(2))/205",
    "STC_B_minus_STC_A_approx": "0.0407",
}

#: Proposition 3 (balanced counts, r classes), as printed: the form with the
#: split index h, and the closed forms for even and odd r.
PROP3 = {
    "with_h": "(r - 1)**2/2 + (r - 1)*(r - h)*h/r",
    "even": "(r - 1)*(3*r - 2)/4",
    "odd": "(r - 1)**2*(3*r + 1)/(4*r)",
}
#: Prop. 3's h, as printed: r/2 for even r, floor(r/2) + 1 for odd r.
PROP3_H = {"even": "r/2", "odd": "floor(r/2) + 1"}

#: Proposition 6 (r = 3, l_1 = 1, l_2 = L, n_1 = n_2 = n_3): (L upper bound, x~, TC_max(x~)).
PROP6 = (
    ("1", "sqrt(L/(L + 1))", "(2*sqrt((L + 1)/L) + 2*L + 4 + 1/L)/3"),
    ("(1 + sqrt(5))/2", "L/sqrt(L + 1)", "(2*sqrt(L + 1) + 3*L + 3 + 1/L)/3"),
    ("(3 + sqrt(5))/2", "L*(sqrt(5) - 1)/2", "L/6*((sqrt(5) + 1)*L + sqrt(5) + 7)"),
    (None, "sqrt(L)", "L/3*(2*sqrt(L) + L + 3)"),
)


# ---------------------------------------------------------------------------
# Appendix A: TC-hat_max(x) for balanced counts, l1 = 1, l2 = L (the proof of Prop. 6)
# ---------------------------------------------------------------------------
_PHI = "(1 + sqrt(5))/2"

#: binotto2024 Appendix A as printed: case -> (L interval, [(upper end of the
#: x-piece or None, TC_max on the piece)]), strings in L and x.
APPENDIX_A = {
    "a": (("0", "1"), [("L/(L+1)", "((L+1)/x + L + 4 + 1/L)/3"),
                       ("1", "((1 + 1/L)*x + 1/x + 2*L + 4 + 1/L)/3"),
                       (None, "((1 + 1/L)*x**2 + (4 + 1/L)*x + 2*L + 1)/3")]),
    "b.1": (("1", _PHI), [("L**2/(L+1)", "((L**2 + L)/x + 3*L + 2 + 1/L)/3"),
                          ("1", "((L+1)/L*x + L/x + 3*L + 3 + 1/L)/3"),
                          ("L", "(x**2/L + (3 + L + 1/L)*x + 3*L + 1)/3"),
                          ("L/(L-1)", "((1 + 1/L)*x**2 + (4 + 1/L)*x + 2*L + 1)/3"),
                          (None, "((1 + 1/L)*x**2 + (4 + L)*x + L)/3")]),
    "b.2": ((_PHI, "2"), [("1", "(L*(L+1)/x + L*(L+3))/3"),
                          ("L*(sqrt(5)-1)/2", "(L*x + L**2/x + L*(L+3))/3"),
                          ("L*(L-1)", "(x**2/L + (L+2)*x + L*(L+3))/3"),
                          ("L", "(x**2/L + (L + 3 + 1/L)*x + 3*L + 1)/3"),
                          ("L/(L-1)", "((1 + 1/L)*x**2 + (4 + 1/L)*x + 2*L + 1)/3"),
                          (None, "((1 + 1/L)*x**2 + (4 + L)*x + L)/3")]),
    "b.3": (("2", "oo"), [("1", "(L*(L+1)/x + L*(L+3))/3"),
                          ("L*(sqrt(5)-1)/2", "(L*x + L**2/x + L*(L+3))/3"),
                          ("L", "(x**2/L + (L+2)*x + L*(L+3))/3"),
                          (None, "((1 + 1/L)*x**2 + (4 + L)*x + L)/3")]),
}

#: binotto2024 Appendix A, "its minimum at each interval of definition", as
#: printed: case -> [(piece index, x~, minimum)].  b.2's second row
#: ("1 <= x <= L(L-1)") spans pieces 1 and 2; b.3's second row has two
#: sub-cases in L, both listed.
APPENDIX_A_MINIMA = {
    "a": [(0, "L/(L+1)", "2*(L + 3 + 1/L)/3"),
          (1, "sqrt(L/(L+1))", "(2*sqrt((L+1)/L) + 2*L + 4 + 1/L)/3"),
          (2, "1", "2*(L + 3 + 1/L)/3")],
    "b.1": [(0, "L**2/(L+1)", "2*(2*L + 2 + 1/L)/3"),
            (1, "L/sqrt(L+1)", "(2*sqrt(L+1) + 3*L + 3 + 1/L)/3"),
            (2, "1", "2*(2*L + 2 + 1/L)/3"),
            (3, "L", "(L**2 + 7*L + 2)/3"),
            (4, "L/(L-1)", "2*L/(3*(L-1)**2)*(L**2 + L - 1)")],
    "b.2": [(0, "1", "2*L*(L+2)/3"),
            (1, "L*(sqrt(5)-1)/2", "L*((sqrt(5)+1)*L + sqrt(5) + 7)/6"),
            (2, "L*(sqrt(5)-1)/2", "L*((sqrt(5)+1)*L + sqrt(5) + 7)/6"),
            (3, "L*(L-1)", "2*L*(L**2+1)/3"),
            (4, "L", "(L**2 + 7*L + 2)/3"),
            (5, "L/(L-1)", "2*L/(3*(L-1)**2)*(L**2 + L - 1)")],
    "b.3": [(0, "1", "2*L*(L+2)/3"),
            (1, "L*(sqrt(5)-1)/2", "L*((sqrt(5)+1)*L + sqrt(5) + 7)/6"),
            (1, "sqrt(L)", "L*(2*sqrt(L) + L + 3)/3"),
            (2, "L*(sqrt(5)-1)/2", "L*((sqrt(5)+1)*L + sqrt(5) + 7)/6"),
            (3, "L", "2*L*(L+3)/3")],
}
