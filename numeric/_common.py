"""Shared plumbing: validated counts in the chosen arithmetic.

Symbolic counts
---------------
With ``arithmetic=SymbolicArithmetic()`` :func:`prepare` also accepts matrices whose counts are SymPy
expressions in symbols (``n``, ``n + 1``, ``2*m``): every formula of
:mod:`numeric` then returns a SymPy expression in those symbols.  The
structural decisions of the formulas (which true classes are observed, which
predicted classes occur) are taken from the *support* of the matrix: an
entry is either identically zero or positive for every admissible value of
its symbols.  By default that is decided from the symbols' assumptions
(:func:`support_from_assumptions`); :mod:`analytic.families` passes a decision
valid for all integers ``n >= n0`` instead.  ``Prepared.counts`` then holds
that 0/1 support, not counts: a formula that needs the size of a count
(not only whether it is zero) must use ``Prepared.n``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import sympy

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
        return self.n if isinstance(self.ctx, SymbolicArithmetic) else self.counts

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


def support_from_assumptions(entry):
    """``True`` if a count is positive, ``False`` if it is zero, from SymPy's assumptions.

    Raises ValueError when the assumptions of its symbols do not decide it
    (a count that may be zero for some values changes which classes are
    observed: declare the symbols ``positive=True`` or substitute).

    >>> import sympy
    >>> n = sympy.Symbol("n", integer=True, positive=True)
    >>> support_from_assumptions(n + 1), support_from_assumptions(sympy.Integer(0))
    (True, False)
    """
    if entry == 0:
        return False
    if entry.is_positive:
        return True
    if entry.is_nonnegative:
        raise ValueError(
            f"confusion matrix entry {entry} may be zero for some values of its symbols: "
            "the observed classes depend on it (declare the symbols positive, or substitute)")
    raise ValueError(f"confusion matrix entry {entry} must be non-negative "
                     "(by the assumptions of its symbols)")


class SymbolicArithmetic(Arithmetic):
    """Exact arithmetic whose counts may be SymPy expressions in symbols.

    Pass an instance as ``arithmetic=`` to any metric of :mod:`numeric`: the
    numbers are those of ``"exact"`` (every operation is delegated to it),
    and :func:`prepare` accepts symbolic counts.  The results are SymPy
    expressions in the symbols of the counts; formulas that take a maximum
    over such expressions go through :func:`amax` and return ``sympy.Max``.

    Parameters
    ----------
    support : callable
        ``support(entry) -> bool``: whether a symbolic entry is positive
        (``True``) or identically zero (``False``) for every admissible value
        of its symbols; it raises ValueError when neither holds.  Default
        :func:`support_from_assumptions`.

    Examples
    --------
    >>> import sympy
    >>> n = sympy.Symbol("n", integer=True, positive=True)
    >>> p = prepare([[n, 1], [0, n]], SymbolicArithmetic())
    >>> p.total(), p.counts.tolist()
    (2*n + 1, [[1, 1], [0, 1]])

    Every metric of :mod:`numeric` with ``arithmetic=SymbolicArithmetic()``
    (e.g. ``numeric.mae``) gives ``1/(2*n + 1)`` here;
    :func:`analytic.families.symbolic_metric` is the public entry point.
    """

    name = "exact"
    exact = True

    def __init__(self, support=support_from_assumptions):
        self.support = support
        self._exact = get_arithmetic("exact")

    def number(self, x):
        return self._exact.number(x)

    def asarray(self, a):
        return self._exact.asarray(a)

    def finalize(self, a):
        return self._exact.finalize(a)

    def sqrt(self, a):
        return self._exact.sqrt(a)

    def power(self, a, p):
        return self._exact.power(a, p)

    def log2(self, a):
        return self._exact.log2(a)

    @property
    def inf(self):
        return self._exact.inf

    def __repr__(self):
        return "<Arithmetic 'exact' with symbolic counts>"


def _is_symbolic(v):
    return isinstance(v, sympy.Basic) and bool(v.free_symbols)


def check_symbolic_counts(cm, support, *, min_classes=1, what="confusion matrix"):
    """Validate a matrix of counts some of which are SymPy expressions.

    Returns ``(support, counts)``: the 0/1 ``int64`` support and an object
    array of SymPy expressions.  Numeric entries get the checks of
    :func:`numeric._validation.check_counts`; symbolic entries must be real,
    not known to be non-integer, and decided by ``support``.
    """
    a = np.empty(np.shape(cm), dtype=object)
    try:
        a[...] = np.asarray(cm, dtype=object)
    except ValueError:
        raise ValueError(f"{what} must be a rectangular array of counts") from None
    if a.ndim < 2:
        raise ValueError(
            f"{what} must be 2-D (or a stack of shape (..., K, K)), got shape {a.shape}")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{what} must be square, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{what} is empty, got shape {a.shape}")
    flat = a.reshape(-1)
    mask = np.array([_is_symbolic(v) for v in flat], dtype=bool)
    numeric_part = np.where(mask, 1, flat)
    # numeric entries: the ordinary checks (symbolic ones stand in as 1)
    check_counts(numeric_part.reshape(a.shape), what=what)
    sup = np.empty(flat.shape, dtype=np.int64)
    out = np.empty(flat.shape, dtype=object)
    for i, v in enumerate(flat.tolist()):
        if mask[i]:
            if v.is_extended_real is False or v.is_integer is False:
                raise ValueError(f"{what} entry {v} must be an integer count")
            positive = support(v)
            sup[i] = 1 if positive else 0
            out[i] = v if positive else sympy.Integer(0)
        else:
            out[i] = sympy.Integer(int(v))
            sup[i] = 1 if out[i] > 0 else 0
    sup = sup.reshape(a.shape)
    if np.any(sup.sum(axis=(-2, -1)) == 0):
        raise ValueError(f"{what} is all zero: it holds no samples")
    K = a.shape[-1]
    if K < min_classes:
        raise ValueError(
            f"{what} has {K} class{'es' if K != 1 else ''}; this metric needs at least {min_classes}")
    return sup, out.reshape(a.shape)


def _extreme(a, axis, method, combine):
    a = np.asarray(a)
    if a.dtype != object or not any(_is_symbolic(v) for v in a.reshape(-1).tolist()):
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
    return _extreme(a, axis, "max", sympy.Max)


def amin(a, axis=-1):
    """``a.min(axis)``; ``sympy.Min`` along the axis for symbolic expressions (see :func:`amax`).

    >>> import sympy
    >>> n = sympy.Symbol("n", positive=True)
    >>> amin(np.array([n / (n + 1), sympy.oo], dtype=object), axis=-1)
    n/(n + 1)
    """
    return _extreme(a, axis, "min", sympy.Min)


def prepare(cm, arithmetic="float", *, min_classes=1) -> Prepared:
    """Validate ``cm`` and convert it to the arithmetic (see :class:`Prepared`).

    With a :class:`SymbolicArithmetic` SymPy expressions are accepted as counts.
    """
    ctx = get_arithmetic(arithmetic)
    support = getattr(ctx, "support", None)
    if support is not None:
        counts, n = check_symbolic_counts(cm, support, min_classes=min_classes)
        return Prepared(counts=counts, n=n, ctx=ctx)
    counts = check_counts(cm, min_classes=min_classes)
    return Prepared(counts=counts, n=ctx.asarray(counts), ctx=ctx)
