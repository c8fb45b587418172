"""The cost formulas of binotto2024, written once over arrays of ctx numbers.

:mod:`numeric.cost` applies them with ``|t - p|`` and the class counts,
:mod:`numeric.intervals` with the Hausdorff distance of intervals and the
densities (binotto2024 Remark 4).  Rows = true class throughout (the
transpose of binotto2024's ``M``).
"""

from __future__ import annotations

import functools

import numpy as np

from ._common import amax, axis_sum
from ._validation import undefined_if

__all__ = ["stack_index", "class_counts_of", "others", "index_distance", "cost_weights",
           "max_total_cost", "worst_rows"]


def stack_index(mask):
    """The index (a tuple) of the first ``True`` entry of ``mask``."""
    idx = np.argwhere(mask)[0]
    return tuple(int(i) for i in idx)


def class_counts_of(p, what="confusion matrix"):
    """Row sums of a prepared matrix, with the zero-count check."""
    rows = p.counts.sum(axis=-1)
    if np.any(rows == 0):
        where = stack_index(rows == 0)
        at = f" at stack index {where[:-1]}" if rows.ndim > 1 else ""
        undefined_if((rows == 0).any(axis=-1), lambda: (
            f"{what}{at}: true class {where[-1]} has no samples; the cost-based metrics "
            "divide by every class count (binotto2024 §1 assumes n_j > 0)"))
    return p.rows()


def others(w):
    r"""``out[..., t] = sum_{k != t} w[..., k]``, the weight of the other classes.

    .. math:: \mathrm{out}_t = \sum_{k < t} w_k + \sum_{k > t} w_k

    Exclusive prefix plus exclusive suffix sums: only additions of
    non-negative numbers, so ``N - n_t`` has no cancellation at any count
    (``W - w_t`` in float loses every digit when ``n_t`` holds most of ``N``).
    """
    before = np.zeros_like(w)
    np.cumsum(w[..., :-1], axis=-1, out=before[..., 1:])
    after = np.zeros_like(w)
    np.cumsum(w[..., :0:-1], axis=-1, out=after[..., -2::-1])
    return before + after


@functools.lru_cache(maxsize=64)
def index_distance(K, ctx):
    """``|t - p|`` as a ``(K, K)`` array of ctx numbers (read-only: it is cached).

    >>> from exactfloor.arith import get_arithmetic
    >>> index_distance(3, get_arithmetic("float"))[0]
    array([0., 1., 2.])
    """
    idx = np.arange(K)
    d = ctx.asarray(np.abs(idx[:, None] - idx[None, :]))
    d.flags.writeable = False
    return d


def cost_weights(n, D, w=None, normalize=True):
    r"""``cost[..., t, p] = (W - w_t) / w_p * D[t, p] (/ N)``, ``W = sum w``.

    .. math:: m_{tp} = \frac{W - w_t}{w_p}\,\frac{D_{tp}}{N}

    With ``w = n`` and ``D = |t - p|`` this is binotto2024 eq. 4 (transposed:
    ``gamma_pt = (N - n_t) / n_p``); with densities ``w = delta`` and the
    Hausdorff distance it is Remark 4 / eq. 9.  ``D`` is symmetric.
    """
    if w is None:
        w = n
    c = (others(w)[..., :, None] / w[..., None, :]) * D
    if normalize:
        c = c / axis_sum(n)[..., None, None]
    return c


def max_total_cost(n, D, w=None, *, rest=None, total=None):
    r"""binotto2024 Prop. 1 (``w = n``) and Prop. 4 (``w = delta``).

    .. math:: \mathrm{TC}_{max} = \frac{1}{N}\sum_j n_j (W - w_j) \max_l \frac{D_{lj}}{w_l}

    The columns of the paper's ``S`` (our rows) are independent, so the worst
    matrix puts the whole of true class ``j`` on a class maximising
    ``D[l, j] / w_l`` (the construction of the proof).  ``rest`` (``W - w_j``,
    default :func:`others`) and ``total`` (``N``) may be given when the caller
    has them exactly (from integer counts).
    """
    if w is None:
        w = n
    best = amax(D / w[..., :, None], axis=-2)
    if rest is None:
        rest = others(w)
    return np.add.reduce(n * rest * best, axis=-1) / (axis_sum(n) if total is None else total)


def worst_rows(n, D):
    """``i_j = argmax_l D[l, j] / n_l`` (binotto2024 eq. 6), the first maximiser."""
    return np.argmax(D / n[..., :, None], axis=-2)
