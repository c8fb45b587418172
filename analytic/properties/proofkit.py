r"""The steps of a symbolic proof on one generic matrix, shared by the properties' proofs.

Each property of :mod:`analytic.properties.catalog` that has a finite-K proof
writes it as its method :meth:`~analytic.properties.catalog.Property.prove_pattern`
(issue 41 item 3: before, the proofs, their statements and their vacuous cases
were dictionaries keyed by name in :mod:`analytic.properties.prover`).  The
methods are built from the steps here: an equality of two values
(:func:`same_value`), a certified sign (:func:`certify`), the moves of one
sample toward the diagonal (:func:`split_moves`).  The prover
(:mod:`analytic.properties.prover`) enumerates the scopes and patterns and calls
the method; its :class:`~analytic.properties.prover.Evaluator` gives the values
(a SymPy expression, or an :class:`~exactfloor.value.Undefined`: undefined on every
instance of the pattern).
"""

from __future__ import annotations

import itertools

import sympy as sp

from exactfloor.certificates import _NEG, _POS, _ge0, _le0, _num, _point, equal, sign
from exactfloor.tolerance import PROBE
from exactfloor.value import Undefined  # the exact engine's mark of "undefined", here on every instance

from .generators import matrix_text, step_toward_diagonal

__all__ = ["SCALE", "Undefined", "short", "same_value", "certify", "split_moves"]

#: the factor of the scale property (any positive integer)
SCALE = sp.Symbol("k", integer=True, positive=True)


def short(e, n=120):
    """``e`` printed, cut at ``n`` characters (the reasons a proof gives)."""
    s = sp.sstr(e)
    return s if len(s) <= n else s[:n] + "..."


def same_value(ev, a, b, what):
    """``f(a) = f(b)`` (both undefined counts as equal); None or the reason it is not proved."""
    va, vb = ev(a), ev(b)
    if isinstance(va, Undefined) and isinstance(vb, Undefined):
        return None
    if isinstance(va, Undefined) or isinstance(vb, Undefined):
        return f"{what}: f({matrix_text(a)}) and f({matrix_text(b)}) are not both defined"
    ok, why = equal(va, vb)
    return None if ok else f"{what}: f({matrix_text(a)}) = f({matrix_text(b)}) not proved: {why}"


_NEEDS = {">= 0": _ge0, "> 0": lambda x: x == _POS, "<= 0": _le0, "< 0": lambda x: x == _NEG}


def certify(d, need):
    """None when ``d`` is certified to satisfy ``need`` (``">= 0"``, ``"> 0"``,
    ``"<= 0"``, ``"< 0"``) at every instance, else why not: a numerical
    refutation at a random point first (cheap), else "not certified"."""
    d = sp.sympify(d, strict=True)
    syms = sorted(d.free_symbols, key=str)
    upper = need.startswith("<")  # d must not be clearly positive
    for seed in (1, 2):
        point = _point(syms, seed)
        v = _num(d, point)
        if v is not None and (v > PROBE if upper else v < -PROBE):
            return f"{short(d)} is {sp.N(v, 6)} at {point}, not {need}"
    if _NEEDS[need](sign(d)):
        return None
    return f"{short(d)} not certified {need}"


def split_moves(m):
    """(cell, before, after): one sample of an off-diagonal cell moved one step
    toward the diagonal, the count of the cell being 1 or ``n + 1``."""
    K = m.shape[0]
    for i, j in itertools.product(range(K), repeat=2):
        if i == j or m[i, j] == 0:
            continue
        for c in (sp.Integer(1), m[i, j] + 1):
            a = m.copy()
            a[i, j] = c
            yield (i, j), a, step_toward_diagonal(a, i, j)
