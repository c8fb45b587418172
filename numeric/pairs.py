r"""Pair counts of a confusion matrix, exact in integers, O(K^2).

For the :math:`\binom{N}{2}` unordered pairs of samples: concordant pairs
``C`` (true and predicted classes ordered the same way), discordant pairs
``D``, and the pairs untied on the true (predicted) class.  They are counted
with 2-D cumulative sums of the integer counts -- ``int64`` when every total
is below :math:`2^{31}` (all partial sums then stay below :math:`2^{62}`),
Python integers otherwise -- so the differences are exact and each value is
rounded once, when it is converted to the caller's arithmetic.  A float
``C - D`` computed from float ``C`` and ``D`` loses every digit when both
exceed :math:`2^{53}` and nearly cancel; this one does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PairCounts", "pair_counts"]

_INT64_SAFE_TOTAL = 2**31


@dataclass(frozen=True)
class PairCounts:
    r"""Pair counts of a stack of matrices: arrays of shape ``(...)`` of numbers of
    the caller's arithmetic.

    Built by :func:`pair_counts`, never by hand.

    Parameters
    ----------
    difference : number or ndarray
        ``C - D``: concordant minus discordant pairs.
    untied_true : number or ndarray
        The pairs whose true classes differ, :math:`(N^2 - \sum_r N_{r\cdot}^2)/2`.
    untied_pred : number or ndarray
        The pairs whose predicted classes differ, :math:`(N^2 - \sum_c N_{\cdot c}^2)/2`.

    Examples
    --------
    >>> from numeric._common import prepare
    >>> pc = pair_counts(prepare([[2, 1], [0, 1]], "exact"))
    >>> [int(v) for v in (pc.difference, pc.untied_true, pc.untied_pred)]
    [2, 3, 4]
    """

    #: ``C - D``
    difference: object
    #: pairs whose true classes differ, :math:`(N^2 - \sum_r N_{r\cdot}^2)/2`
    untied_true: object
    #: pairs whose predicted classes differ, :math:`(N^2 - \sum_c N_{\cdot c}^2)/2`
    untied_pred: object


def _integers(counts):
    if counts.dtype == object:  # Python ints or SymPy expressions already
        return counts
    if int(counts.sum(axis=(-2, -1)).max()) < _INT64_SAFE_TOTAL:
        return counts
    return counts.astype(object)


def pair_counts(p) -> PairCounts:
    r"""``C - D`` and the untied pairs of a :class:`numeric._common.Prepared` stack.

    .. math:: C - D = \sum_{i,j} n_{i,j}\Big(\sum_{i'>i,\,j'>j} n_{i',j'}
              - \sum_{i'>i,\,j'<j} n_{i',j'}\Big)

    Parameters
    ----------
    p : numeric._common.Prepared
        A validated stack of count matrices with their numbers in one
        arithmetic (how the metrics of :mod:`numeric.association` hold their
        input; ``numeric._common.prepare`` makes it).

    Returns
    -------
    PairCounts
        The counts, numbers of that arithmetic.

    Examples
    --------
    >>> from numeric._common import prepare
    >>> pc = pair_counts(prepare([[2, 1], [0, 1]], "exact"))
    >>> [int(v) for v in (pc.difference, pc.untied_true, pc.untied_pred)]
    [2, 3, 4]
    """
    a = _integers(p.integers)
    below = np.flip(np.cumsum(np.flip(a, axis=-2), axis=-2), axis=-2) - a  # rows i' > i
    left_incl = np.cumsum(below, axis=-1)  # rows i' > i, columns j' <= j
    below_left = left_incl - below
    below_right = below.sum(axis=-1, keepdims=True) - left_incl
    diff = (a * (below_right - below_left)).sum(axis=(-2, -1))
    N = a.sum(axis=(-2, -1))
    # the numerators are exact (even) integers; halving after the conversion is
    # exact in every arithmetic (and stays a SymPy quotient for symbolic counts)
    twice_true = N * N - (a.sum(axis=-1) ** 2).sum(axis=-1)
    twice_pred = N * N - (a.sum(axis=-2) ** 2).sum(axis=-1)
    conv = p.ctx.asarray
    return PairCounts(conv(diff), conv(twice_true) / 2, conv(twice_pred) / 2)
