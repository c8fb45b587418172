"""Shared plumbing: validated counts in the chosen arithmetic.

Symbolic counts
---------------
With ``arithmetic=SymbolicArithmetic()`` (:mod:`numeric._symbolic`) :func:`prepare` also accepts matrices whose counts are SymPy
expressions in symbols (``n``, ``n + 1``, ``2*m``): every formula of
:mod:`numeric` then returns a SymPy expression in those symbols.  The
structural decisions of the formulas (which true classes are observed, which
predicted classes occur) are taken from the *support* of the matrix: an
entry is either identically zero or positive for every admissible value of
its symbols.  By default that is decided from the symbols' assumptions
(:func:`numeric._symbolic.support_from_assumptions`); :mod:`analytic.families` passes a decision
valid for all integers ``n >= n0`` instead.  ``Prepared.counts`` then holds
that 0/1 support, not counts: a formula that needs the size of a count
(not only whether it is zero) must use ``Prepared.n``.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

import numpy as np

from ._arith import Arithmetic, get_arithmetic
from ._validation import check_counts


@dataclass(frozen=True)
class Prepared:
    """A validated stack of confusion matrices in one arithmetic.

    ``counts`` is the ``int64`` array (for structural decisions such as which
    classes are observed); ``n`` the same counts as numbers of ``ctx``.  For
    symbolic counts (:class:`SymbolicArithmetic`) ``counts`` is the 0/1 support
    and ``n`` the SymPy expressions.
    """

    counts: np.ndarray
    n: np.ndarray
    ctx: Arithmetic

    @property
    def integers(self) -> np.ndarray:
        """The counts for integer arithmetic done before converting to ``ctx``
        (pair counts, ``N - n_t`` without cancellation): the ``int64`` counts,
        or the SymPy expressions of symbolic counts."""
        return self.n if getattr(self.ctx, "support", None) is not None else self.counts

    @property
    def K(self) -> int:
        return self.counts.shape[-1]

    @property
    def lead_shape(self) -> tuple:
        return self.counts.shape[:-2]

    def total(self):
        """N, shape ``(...)``."""
        return self.n.sum(axis=(-2, -1))

    def accuracy(self):
        """Fraction of samples on the diagonal, ``trace / N``, shape ``(...)``."""
        return np.diagonal(self.n, axis1=-2, axis2=-1).sum(axis=-1) / self.total()

    def rows(self):
        """Row sums ``N_r`` (true-class counts), shape ``(..., K)``."""
        return self.n.sum(axis=-1)

    def cols(self):
        """Column sums (predicted-class counts), shape ``(..., K)``."""
        return self.n.sum(axis=-2)

    def distance(self, gamma=1):
        """``|r - c|**gamma`` as a ``(K, K)`` array of ``ctx`` numbers."""
        idx = np.arange(self.K)
        d = self.ctx.asarray(np.abs(idx[:, None] - idx[None, :]))
        return d if gamma == 1 else self.ctx.power(d, gamma)

    def class_index(self):
        """``1, ..., K`` as ``ctx`` numbers."""
        return self.ctx.asarray(np.arange(1, self.K + 1))


def is_symbolic(v):
    """A SymPy expression with free symbols (SymPy need not be imported: no
    SymPy object exists before it is)."""
    sympy = sys.modules.get("sympy")
    return sympy is not None and isinstance(v, sympy.Basic) and bool(v.free_symbols)


def _extreme(a, axis, method, combine):
    a = np.asarray(a)
    if a.dtype != object or not any(is_symbolic(v) for v in a.reshape(-1).tolist()):
        return getattr(a, method)(axis=axis)
    moved = np.moveaxis(a, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.empty(flat.shape[0], dtype=object)
    for i, row in enumerate(flat):
        out[i] = functools.reduce(combine, row.tolist())
    return out.reshape(moved.shape[:-1]) if moved.ndim > 1 else out[0]


def amax(a, axis=-1):
    """``a.max(axis)``; ``sympy.Max`` along the axis when ``a`` holds symbolic expressions.

    numpy's ``max`` compares the elements, which is undecided for SymPy
    expressions in free symbols; ``Max`` keeps the maximum exact and
    unevaluated where SymPy cannot order its arguments.

    >>> import sympy
    >>> n = sympy.Symbol("n", positive=True)
    >>> amax(np.array([1 / (n + 1), 1, -sympy.oo], dtype=object), axis=-1)
    1
    """
    import sympy

    return _extreme(a, axis, "max", sympy.Max)


def amin(a, axis=-1):
    """``a.min(axis)``; ``sympy.Min`` along the axis for symbolic expressions (see :func:`amax`).

    >>> import sympy
    >>> n = sympy.Symbol("n", positive=True)
    >>> amin(np.array([n / (n + 1), sympy.oo], dtype=object), axis=-1)
    n/(n + 1)
    """
    import sympy

    return _extreme(a, axis, "min", sympy.Min)


def prepare(cm, arithmetic="float", *, min_classes=1) -> Prepared:
    """Validate ``cm`` and convert it to the arithmetic (see :class:`Prepared`).

    With a :class:`numeric._symbolic.SymbolicArithmetic` SymPy expressions are accepted as counts.
    """
    ctx = get_arithmetic(arithmetic)
    support = getattr(ctx, "support", None)
    if support is not None:  # a numeric._symbolic.SymbolicArithmetic
        from ._symbolic import check_symbolic_counts

        counts, n = check_symbolic_counts(cm, support, min_classes=min_classes)
        return Prepared(counts=counts, n=n, ctx=ctx)
    counts = check_counts(cm, min_classes=min_classes)
    return Prepared(counts=counts, n=ctx.asarray(counts), ctx=ctx)
