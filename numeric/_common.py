"""Shared plumbing: validated counts in the chosen arithmetic.

Symbolic counts
---------------
With ``arithmetic=SymbolicArithmetic()`` (:mod:`numeric._symbolic`) :func:`prepare` also
accepts matrices whose counts are SymPy expressions in symbols (``n``, ``n + 1``, ``2*m``): every formula of
:mod:`numeric` then returns a SymPy expression in those symbols.  The
structural decisions of the formulas (which true classes are observed, which
predicted classes occur) are taken from the *support* of the matrix: an
entry is either identically zero or positive for every admissible value of
its symbols.  By default that is decided from the symbols' assumptions
(:func:`numeric._symbolic.support_from_assumptions`); :mod:`analytic.derivations.families` passes a decision
valid for all integers ``n >= n0`` instead.  ``Prepared.counts`` then holds
that 0/1 support, not counts: a formula that needs the size of a count
(not only whether it is zero) must use ``Prepared.n``.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from dataclasses import dataclass

import numpy as np

from exactfloor.arith import Arithmetic, get_arithmetic
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
        return row_sums(self.n)

    def cols(self):
        """Column sums (predicted-class counts), shape ``(..., K)``."""
        return col_sums(self.n)

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


def row_sums(a):
    """``a.sum(axis=-1)``; for numbers of a numpy dtype by ``einsum``, several times
    faster than a reduction over a short last axis (a stack of small matrices).

    >>> row_sums(np.arange(6).reshape(2, 3))
    array([ 3, 12])
    """
    if a.dtype == object or a.dtype == bool:
        return a.sum(axis=-1)
    return np.einsum("...j->...", a)


def col_sums(a):
    """``a.sum(axis=-2)`` (see :func:`row_sums`).

    >>> col_sums(np.arange(6).reshape(2, 3))
    array([3, 5, 7])
    """
    if a.dtype == object or a.dtype == bool:
        return a.sum(axis=-2)
    return np.einsum("...ij->...j", a)


def axis_sum(a, axis=-1):
    """``a.sum(axis)`` kept as an array of ``a``'s dtype (the sum of a 1-D object
    array would be a bare scalar).

    >>> axis_sum(np.array([1, 2], dtype=object)).shape
    ()
    """
    return np.asarray(a.sum(axis=axis), dtype=a.dtype)


def _extreme(a, axis, ufunc, combine):
    """``ufunc.reduce`` along the axis (numbers), or ``sympy.<combine>`` when
    ``a`` holds symbolic expressions."""
    a = np.asarray(a)
    # numbers of a numpy dtype: no element is symbolic (and no Python layer of a.max)
    if a.dtype.kind != "O" or not any(is_symbolic(v) for v in a.reshape(-1).tolist()):
        return ufunc.reduce(a, axis=axis)
    import sympy

    combine = getattr(sympy, combine)
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
    return _extreme(a, axis, np.maximum, "Max")


def amin(a, axis=-1):
    """``a.min(axis)``; ``sympy.Min`` along the axis for symbolic expressions (see :func:`amax`).

    >>> import sympy
    >>> n = sympy.Symbol("n", positive=True)
    >>> amin(np.array([n / (n + 1), sympy.oo], dtype=object), axis=-1)
    n/(n + 1)
    """
    return _extreme(a, axis, np.minimum, "Min")


def prepare(cm, arithmetic="float", *, min_classes=1) -> Prepared:
    """Validate ``cm`` and convert it to the arithmetic (see :class:`Prepared`).

    With a :class:`numeric._symbolic.SymbolicArithmetic` SymPy expressions are accepted as counts.
    """
    ctx = get_arithmetic(arithmetic)
    support = getattr(ctx, "support", None)
    if support is not None:  # a numeric._symbolic.SymbolicArithmetic: it validates its counts
        counts, n = ctx.prepare_counts(cm, min_classes=min_classes)
        return Prepared(counts=counts, n=n, ctx=ctx)
    counts = check_counts(cm, min_classes=min_classes)
    return Prepared(counts=counts, n=ctx.asarray(counts), ctx=ctx)


@dataclass(frozen=True)
class Stack:
    """A validated stack of confusion matrices, evaluated block by block.

    ``counts`` is the ``int64`` stack flattened to ``(M, K, K)`` (for symbolic
    counts the 0/1 support, with the expressions in ``symbolic``) and ``lead``
    its leading shape.  :meth:`map` evaluates a formula on blocks of
    matrices (:meth:`exactfloor.arith.Arithmetic.blocks`: in float64 blocks of
    about ``size`` cells, so that every temporary is bounded whatever the
    stack; in the other arithmetics one block), converting each block to the
    arithmetic only when it is evaluated.
    """

    counts: np.ndarray
    lead: tuple
    ctx: Arithmetic
    symbolic: np.ndarray | None = None

    @property
    def K(self) -> int:
        return self.counts.shape[-1]

    def blocks(self, *, size=None, least=1):
        """``(rows, Prepared)`` per block: ``rows`` a slice of the flattened stack
        (blocks of :meth:`exactfloor.arith.Arithmetic.blocks`; ``size`` cells, by default the
        context's)."""
        for rows in self.ctx.blocks(len(self.counts), self.K * self.K, size=size, least=least):
            c = self.counts[rows]
            n = self.ctx.asarray(c) if self.symbolic is None else self.symbolic[rows]
            yield rows, Prepared(counts=c, n=n, ctx=self.ctx)

    def map(self, compute, **blocks):
        """``compute(prepared, rows)`` (one value per matrix) over the blocks,
        finalised in the stack's shape."""
        out = np.empty(len(self.counts), dtype=self.ctx.dtype)
        for rows, p in self.blocks(**blocks):
            out[rows] = compute(p, rows)
        return self.ctx.finalize(out.reshape(self.lead))


def stack(cm, arithmetic="float", *, min_classes=1) -> Stack:
    """Validate ``cm`` once (as :func:`prepare`) without converting it: a :class:`Stack`.

    >>> s = stack(np.ones((3, 2, 2), dtype=int))
    >>> s.map(lambda p, rows: p.total())
    array([4., 4., 4.])
    """
    ctx = get_arithmetic(arithmetic)
    if getattr(ctx, "support", None) is not None:  # symbolic counts: see prepare
        p = prepare(cm, ctx, min_classes=min_classes)
        K = p.K
        return Stack(p.counts.reshape(-1, K, K), p.lead_shape, ctx, p.n.reshape(-1, K, K))
    counts = check_counts(cm, min_classes=min_classes)
    K = counts.shape[-1]
    return Stack(counts.reshape(-1, K, K), counts.shape[:-2], ctx)


@contextlib.contextmanager
def int_str_digits(limit):
    """Python's limit on the digits of an ``int`` converted to or from ``str``
    (``sys.set_int_max_str_digits``; 0: none) set to ``limit`` inside the block, and
    restored after it (Python < 3.11 has no limit: nothing is done)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:
        yield
        return
    before = get()
    sys.set_int_max_str_digits(limit)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


#: Python's default limit (``sys.int_info.default_max_str_digits``, 4,300)
DEFAULT_INT_STR_DIGITS = getattr(sys.int_info, "default_max_str_digits", 4300)


def unlimited_int_digits():
    """Lift Python's limit on the digits of an ``int`` converted to or from ``str``
    (4,300 by default) inside the block, and restore it.

    For the text of an exact value this package *computed* (an A_UOC of 100
    classes of 14-digit counts has a denominator of over 4,300 digits): the cost
    of printing it is polynomial in its size, which is polynomial in the input's.
    A user's text is read under the default limit (the command line's readers
    run inside ``int_str_digits(DEFAULT_INT_STR_DIGITS)``).

    Examples
    --------
    >>> with unlimited_int_digits():
    ...     len(str(10**5000))
    5001
    """
    return int_str_digits(0)


#: an API call estimated above this many seconds of one core says so first (a
#: :class:`exactfloor.errors.CostWarning`), as ``ordinal-verify`` prints one line
#: (``ordinal_verify.inputs`` reads it from here: one threshold for the command and the API)
ANNOUNCE_SECONDS = 30
#: the default ``max_seconds=`` of the API calls that estimate their cost: above it
#: they refuse (``ValueError``) before the work; ``max_seconds=None`` lifts it
MAX_SECONDS = 60


def check_cost(seconds, max_seconds, what, keyword="max_seconds", *, stacklevel=3):
    """Before long work: ``ValueError`` when ``seconds`` (an estimate, one core) is
    above ``max_seconds`` (None: no cap), else a :class:`exactfloor.errors.CostWarning`
    when it is above :data:`ANNOUNCE_SECONDS`.  Both messages name ``what``, the
    estimate and ``keyword``, the argument that sets the cap.

    >>> check_cost(1.0, 60, "f")
    >>> check_cost(90.0, 60, "f of K = 400")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: f of K = 400: about 90 s on one core, above max_seconds=60; pass max_seconds=None ...
    """
    import warnings

    from exactfloor.errors import CostWarning

    if max_seconds is not None:
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float)) \
                or not max_seconds > 0:
            raise ValueError(f"{keyword} must be a positive number or None, got {max_seconds!r}")
        if seconds > max_seconds:
            raise ValueError(f"{what}: about {seconds:.0f} s on one core, above {keyword}="
                             f"{max_seconds:g}; pass {keyword}=None (or a larger cap) to run "
                             "it anyway")
    if seconds > ANNOUNCE_SECONDS:
        warnings.warn(f"{what}: about {seconds:.0f} s on one core (a smaller {keyword}= "
                      "refuses it instead)",
                      CostWarning, stacklevel=stacklevel)
