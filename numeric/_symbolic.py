"""Symbolic counts: the arithmetic whose counts may be SymPy expressions.

See :mod:`numeric._common` (section "Symbolic counts") for what the formulas
take from the support of a symbolic matrix; :mod:`analytic.derivations.families` is the
public entry point.  A module of its own so that ``import numeric`` does not
import SymPy.
"""

from __future__ import annotations

import numpy as np
import sympy

from exactfloor.arith import ExactArithmetic, get_arithmetic
from ._common import is_symbolic, prepare  # noqa: F401 (prepare: used by the doctests)
from ._validation import check_counts
from exactfloor.errors import UndefinedMetric

__all__ = ["SymbolicArithmetic", "support_from_assumptions", "check_symbolic_counts"]


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


class SymbolicArithmetic(ExactArithmetic):
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
    :func:`analytic.derivations.families.symbolic_metric` is the public entry point.
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

    def prepare_counts(self, cm, *, min_classes=1):
        """``(support, counts)`` of a matrix whose counts may be symbolic, the support
        decided by this arithmetic (:func:`check_symbolic_counts`); called by
        :func:`numeric._common.prepare`, which need not import this module (nor SymPy).

        >>> n = sympy.Symbol("n", integer=True, positive=True)
        >>> sup, counts = SymbolicArithmetic().prepare_counts([[n, 0], [1, n]])
        >>> sup.tolist(), counts.tolist()
        ([[1, 0], [1, 1]], [[n, 0], [1, n]])
        """
        return check_symbolic_counts(cm, self.support, min_classes=min_classes)


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
    mask = np.array([is_symbolic(v) for v in flat], dtype=bool)
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
        raise UndefinedMetric(f"{what} is all zero: it holds no samples")
    K = a.shape[-1]
    if K < min_classes:
        raise UndefinedMetric(
            f"{what} has {K} class{'es' if K != 1 else ''}; this metric needs at least {min_classes}")
    return sup, out.reshape(a.shape)
