"""Cost-sensitive metrics: the class-size-weighted cost matrix, TC, TC_max,
STC (= george2016's MC), George's distance d and its tie-break.

Both sources print confusion matrices *predicted x true* (rows = predicted
class, columns = true class).  Here, as everywhere in :mod:`numeric`,
``cm[..., t, p]`` is the number of samples of **true** class ``t`` predicted as
class ``p``: pass ``C.T`` for a matrix ``C`` printed in those papers.  The
cost matrices returned here are in the same orientation (``cost[t, p]``), i.e.
the transpose of binotto2024's ``M`` and george2016's ``C``.

Class counts ``n_k`` are the numbers of samples of *true* class ``k`` (the row
sums of ``cm``; binotto2024 and george2016's column sums).  Every cost divides
by the count of the predicted class, so every class must have a positive
count (binotto2024 §1 assumes ``n_j > 0``); a zero count raises ``ValueError``.

Every function takes ``arithmetic="float" | "exact" | "mp"``; the formulas are
written once over :mod:`exactfloor.arith` (see :mod:`numeric.classical`).
"""

from __future__ import annotations


import numpy as np

from exactfloor.arith import get_arithmetic
from ._common import prepare
from ._costs import (class_counts_of, cost_weights, index_distance, max_total_cost, stack_index,
                     worst_rows)
from ._validation import integer_counts, numeric_array
from exactfloor.errors import UndefinedMetric
from .registry import metric

__all__ = [
    "cost_matrix", "tc", "tc_max", "tc_max_matrix", "stc", "george_d",
    "george_tiebreak",
]


_INT64 = np.dtype(np.int64)  # the dtype object of int64 arrays (compared by identity)


# ---------------------------------------------------------------------------
# validation of class counts (1-D, or a stack (..., K))
# ---------------------------------------------------------------------------
def check_class_counts(class_counts, *, what="class_counts", min_classes=1):
    """Validate class counts: an array ``(..., K)`` of positive integers.

    Returns an ``int64`` array.  binotto2024 §1 assumes ``n_j > 0``: every cost
    of eq. 3/4 divides by a class count, so a zero count raises.

    Raises
    ------
    ValueError
        Not at least 1-D, empty, NaN/infinite, negative, non-integer, zero
        count, or fewer than ``min_classes`` classes.
    """
    a = class_counts
    # the common case, a plain int64 array of positive counts, in as few calls as
    # possible (issue 13, cold timings); anything else takes the checks below
    if (type(a) is np.ndarray and a.dtype is _INT64 and a.ndim and a.size
            and np.minimum.reduce(a, axis=None) > 0 and a.shape[-1] >= min_classes):
        return a
    a = numeric_array(a, what)
    if a.ndim < 1:
        raise ValueError(f"{what} must be 1-D (or a stack of shape (..., K)), got a scalar")
    if a.size == 0 or a.shape[-1] == 0:
        raise ValueError(f"{what} is empty, got shape {a.shape}")
    a = _positive_counts(a, what)
    K = a.shape[-1]
    if K < min_classes:
        raise UndefinedMetric(
            f"{what} has {K} class{'es' if K != 1 else ''}; this metric needs at least {min_classes}"
        )
    return a


def _positive_counts(a, what):
    """:func:`numeric._validation.integer_counts`, and no zero count."""
    a = integer_counts(a, what)
    if np.any(a == 0):
        where = stack_index(a == 0)
        k = where[-1]
        at = f" at stack index {where[:-1]}" if a.ndim > 1 else ""
        raise UndefinedMetric(
            f"{what}{at}: class {k} has a zero count; the cost-based metrics divide by "
            "every class count (binotto2024 §1 assumes n_j > 0)"
        )
    return a


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------
def cost_matrix(class_counts, *, normalize=True, arithmetic="float"):
    r"""Class-size-weighted ordinal cost matrix, rows = true class.

    .. math:: m_{tp} = \frac{\gamma_{pt}\,|p - t|}{N},\qquad
              \gamma_{pt} = \frac{N - n_t}{n_p}

    binotto2024 eq. 4 (Remark 1); george2016 eq. 4 is ``N`` times it
    (``normalize=False``).  Both papers index the cost ``(predicted, true)``;
    this function returns the transpose, ``cost[t, p]`` = cost of predicting
    class ``p`` for a sample of true class ``t``, so that
    ``tc(cm) == (cm * cost_matrix(cm.sum(-1))).sum()``.

    Parameters
    ----------
    class_counts : array_like, shape (..., K)
        Positive numbers of samples of each true class, in ordinal order.
    normalize : bool
        Divide by ``N`` (binotto2024 eq. 4; default) or not (george2016 eq. 4).
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    ndarray, shape (..., K, K), zero diagonal.

    Raises
    ------
    ValueError
        If a class count is zero, negative, non-integer, NaN or infinite.

    Examples
    --------
    george2016's example, class sizes (10, 20, 70), printed as predicted x
    true: its first row (predicted class 1) is our first column.

    >>> cost_matrix([10, 20, 70], normalize=False, arithmetic="exact").T
    array([[0, 8, 6],
           [9/2, 0, 3/2],
           [18/7, 8/7, 0]], dtype=object)
    """
    ctx = get_arithmetic(arithmetic)
    n = ctx.asarray(check_class_counts(class_counts))
    return ctx.finalize(cost_weights(n, index_distance(n.shape[-1], ctx), normalize=normalize))


@metric(
        label="TC", better="lower", symmetric=False, bounds=(0, None), source="binotto2024 eq. 3")
def tc(cm, *, arithmetic="float"):
    r"""Total misclassification cost TC.

    .. math:: \mathrm{TC} = \frac{1}{N}\sum_{t,p} n_{tp}\,
              \frac{N - n_t}{n_p}\,|t - p|

    binotto2024 eq. 3 (with its ``1/N``, Remark 2); george2016 eq. 5 is ``N``
    times this value.  ``n_{tp}`` = samples of true class ``t`` predicted as
    ``p`` (the papers' ``C_{pt}``); ``n_t`` are the row sums.

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        Confusion matrix, rows = true class, columns = predicted class
        (transpose the matrices printed in binotto2024 and george2016).
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    float, sympy.Rational or mpmath.mpf (array for a stack), >= 0.

    Raises
    ------
    ValueError
        If a true class has no samples (every cost divides by a class count).

    Examples
    --------
    >>> tc([[1, 1], [0, 2]], arithmetic="exact")     # N=4, n=(2,2): 1 * (4-2)/2 / 4
    1/4
    """
    p = prepare(cm, arithmetic)
    n = class_counts_of(p)
    return p.ctx.finalize((p.n * cost_weights(n, index_distance(p.K, p.ctx))).sum(axis=(-2, -1)))


def tc_max(class_counts, *, arithmetic="float"):
    r"""Maximum of TC over all matrices with the given class counts.

    .. math:: \mathrm{TC}_{max} = \frac{1}{N}\sum_{j=1}^{r} K_j,\quad
              K_j = \frac{n_j (N - n_j)}{n_{i_j}}\,|i_j - j|,\quad
              i_j = \arg\max_{\ell}\frac{|\ell - j|}{n_\ell}

    binotto2024 Prop. 1 (eqs. 5-6): each true class is sent as a whole to the
    class of highest cost; computed in O(r^2) without building the matrix
    (:func:`tc_max_matrix` returns it).  It equals george2016's ``max TC``
    (eq. 6) divided by ``N``: the diagonal constraint of eq. 6 is inactive
    since the diagonal costs are zero.

    Parameters
    ----------
    class_counts : array_like, shape (..., r)
        Positive class counts ``n_1, ..., n_r``.
    arithmetic : {"float", "exact", "mp"}, default "float"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    float, sympy.Rational or mpmath.mpf (array for a stack).  0 for r = 1.

    Examples
    --------
    >>> tc_max([5, 5, 5], arithmetic="exact")      # binotto2024 Prop. 3, r = 3
    10/3
    >>> tc_max([3, 7], arithmetic="exact")         # Prop. 2
    1
    """
    ctx = get_arithmetic(arithmetic)
    counts = check_class_counts(class_counts)
    n, D = ctx.asarray(counts), index_distance(counts.shape[-1], ctx)
    if n.dtype.kind == "f":
        # N and N - n_j in float64 are exact while N < 2**53 (integers)
        N = np.add.reduce(n, axis=-1)  # a numpy scalar for one set of counts
        if (N.max() if N.ndim else N) < 2**53:
            return ctx.finalize(max_total_cost(n, D, rest=(N[..., None] if N.ndim else N) - n, total=N))
    # N and N - n_j of integer counts, exact (in Python integers if int64 could wrap)
    big = int(counts.max()) * counts.shape[-1] >= 2**62
    N = (counts.astype(object) if big else counts).sum(axis=-1, keepdims=True)
    return ctx.finalize(max_total_cost(n, D, rest=ctx.asarray(N - counts), total=ctx.asarray(N[..., 0])))


def tc_max_matrix(class_counts):
    r"""A confusion matrix attaining :func:`tc_max` (binotto2024 Prop. 1, proof).

    Row ``j`` (true class ``j``) holds all ``n_j`` samples in column
    ``i_j = argmax_l |l - j| / n_l`` (the first maximiser; any maximiser gives
    the same TC, Remark 3).  Rows = true class: the transpose of the paper's
    ``A_max``.  The maximiser is chosen with exact rational comparisons.

    Parameters
    ----------
    class_counts : array_like, shape (..., r)
        Positive class counts ``n_1, ..., n_r`` (a stack along the leading axes).

    Returns
    -------
    ndarray of int64, shape (..., r, r)

    Examples
    --------
    >>> tc_max_matrix([1, 1, 1])
    array([[0, 0, 1],
           [1, 0, 0],
           [1, 0, 0]])
    """
    counts = check_class_counts(class_counts)
    ctx = get_arithmetic("exact")
    K = counts.shape[-1]
    i = worst_rows(ctx.asarray(counts), index_distance(K, ctx)).astype(np.int64)
    out = np.zeros(counts.shape + (K,), dtype=np.int64)
    np.put_along_axis(out, i[..., :, None], counts[..., :, None], axis=-1)
    return out


@metric(
        label="STC (= MC)", better="lower", symmetric=False, bounds=(0, 1),
        source="binotto2024 Definition 1; george2016 §2.3")
def stc(cm, *, arithmetic="float"):
    r"""Standardized total misclassification cost, STC = TC / TC_max.

    .. math:: \mathrm{STC} = \frac{\mathrm{TC}}{\mathrm{TC}_{max}} \in [0, 1]

    binotto2024 Definition 1; the same number as george2016's
    ``MC = TC / max TC`` (§2.3) when ``max TC`` is the true maximum of eq. 6
    (george2016 obtained it numerically with R's ``constrOptim``).
    ``TC_max`` uses the row sums of ``cm`` (true-class counts).

    Raises
    ------
    ValueError
        Fewer than two classes (TC_max = 0), or a true class with no samples.

    Examples
    --------
    >>> stc([[0, 1], [1, 0]], arithmetic="exact")
    1
    >>> stc([[3, 2, 0], [2, 2, 1], [1, 2, 2]], arithmetic="exact")   # binotto2024 toy C_A.T
    9/25
    """
    p = prepare(cm, arithmetic, min_classes=2)
    return p.ctx.finalize(_stc(p))


def _stc(p):
    n = class_counts_of(p)
    D = index_distance(p.K, p.ctx)
    return (p.n * cost_weights(n, D)).sum(axis=(-2, -1)) / max_total_cost(n, D)


def _err_mc(cm, arithmetic):
    """``(p, 1 - Acc, MC)``; ``1 - Acc`` = off-diagonal count / N, the count
    in int64 (``1 - trace/N`` in float cancels when Acc is near 1)."""
    p = prepare(cm, arithmetic, min_classes=2)
    mc = _stc(p)
    c = p.integers
    off = c.sum(axis=(-2, -1)) - np.trace(c, axis1=-2, axis2=-1)
    return p, p.ctx.asarray(off) / p.total(), mc


@metric(
        label="George's d", better="lower", symmetric=False, bounds=(0, "sqrt(2)"),
        source="george2016 eq. 7")
def george_d(cm, *, arithmetic="float"):
    r"""George's distance to the ideal point (Acc, MC) = (1, 0).

    .. math:: d = \sqrt{(1 - \mathrm{Acc})^2 + \mathrm{MC}^2},\qquad
              \mathrm{MC} = \mathrm{STC}

    george2016 eq. 7, with ``MC = TC / max TC`` (§2.3) computed from the
    closed-form maximum (:func:`stc`).

    Returns
    -------
    float, SymPy algebraic number or mpmath.mpf (array for a stack), in
    ``[0, sqrt(2)]``.

    Examples
    --------
    >>> george_d([[0, 1], [1, 0]], arithmetic="exact")
    sqrt(2)
    >>> george_d([[1, 1], [0, 2]], arithmetic="exact")
    sqrt(2)/4
    """
    p, err, mc = _err_mc(cm, arithmetic)
    return p.ctx.finalize(p.ctx.sqrt(err ** 2 + mc ** 2))


@metric(
        label="George's tie-break", better="higher", symmetric=False,
        bounds=(0, "sqrt(2)/2"), source="george2016 §2.3")
def george_tiebreak(cm, *, arithmetic="float"):
    r"""George's tie-break: distance of (Acc, MC) from the line of random chance.

    .. math:: \frac{|\mathrm{Acc} + \mathrm{MC} - 1|}{\sqrt{2}}

    george2016 §2.3 (after eq. 7): among classifiers with tied ``d`` the one
    farthest from the line ``Acc + MC = 1`` is preferred.  "Higher is better"
    (the registry's flag) holds only among classifiers tied in ``d``: the
    perfect classifier, ``Acc = 1`` and ``MC = 0``, lies on that line and gets
    0 (the formula as printed; george2016 Table 4's 0.12 and 0.04 reproduce it,
    ``|Acc - MC|/sqrt(2)`` would not).

    Examples
    --------
    >>> george_tiebreak([[2, 1, 0], [0, 2, 0], [0, 1, 1]], arithmetic="exact")
    95*sqrt(2)/1988

    For two classes ``MC = 1 - Acc`` identically (TC = (n_12 + n_21)/N, TC_max
    = 1), so every binary classifier lies on the line and the tie-break is 0:

    >>> george_tiebreak([[2, 1], [0, 2]], arithmetic="exact")
    0
    """
    p, err, mc = _err_mc(cm, arithmetic)
    return p.ctx.finalize(np.abs(mc - err) / p.ctx.sqrt(p.ctx.number(2)))
