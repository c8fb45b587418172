"""Closed forms as strings that :func:`sympy.sympify` parses back (ledger ``closed_form``)."""

from __future__ import annotations

import re

import sympy


def closed_form(expr) -> str:
    """``sstr(expr)``, with every symbol whose bare name SymPy reads as a function
    (``beta``, ``N``, ``gamma``, ...) written as ``Symbol('name')``.

    >>> from analytic.symbols import N, beta
    >>> closed_form(beta + 1 / (N + 1))
    "Symbol('beta') + 1/(Symbol('N') + 1)"
    """
    expr = sympy.sympify(expr)
    text = sympy.sstr(expr)
    for sym in sorted(expr.free_symbols, key=lambda s: -len(s.name)):
        if not isinstance(sympy.sympify(sym.name), sympy.Symbol):
            text = re.sub(rf"(?<![\w']){re.escape(sym.name)}(?![\w'])", f"Symbol('{sym.name}')", text)
    parsed = sympy.sympify(text)
    names = {s.name for s in parsed.free_symbols}
    if names != {s.name for s in expr.free_symbols}:  # pragma: no cover - a guard
        raise ValueError(f"closed form {text!r} does not parse back to the symbols of {expr}")
    return text
