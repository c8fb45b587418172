"""Rank-correlation metrics computed from the confusion matrix in O(K^2).

Spearman's R_s, Kendall's tau_b and Pinto da Costa's r_int are defined on the
N pairs of labels; here every pair sum is rewritten with 2-D cumulative sums of
the matrix, so the cost is O(K^2) whatever N is, and exact arithmetic gives
the exact value (no int64 products of counts).

No cancellation at any count (issue 10): every difference of counts (the
complement ``N - N_r``, the rank offsets, ``S - 1``) is taken in ``int64``,
where it is exact (:func:`numeric._validation.check_counts` keeps every total
below ``2**62``), before the counts enter the chosen arithmetic; what the
arithmetic then computes are sums of products of non-negative numbers (and one
difference, the numerator of tau_b and R_s, which is the metric's own value).
So a float result at counts up to ``10**15`` is within a few ulps of exact
when the metric is not near zero (``[[10**15, 0], [0, 1]]`` has tau_b = 1,
not 1.015).

A float stack is evaluated in blocks of matrices (:class:`numeric._common.Stack`):
the O(K^2) temporaries of each formula stay bounded whatever the stack's size.
"""

from __future__ import annotations

import numpy as np

from ._common import stack
from ._validation import undefined_if
from .registry import metric

__all__ = ["spearman_rs", "kendall_tau_b", "r_int"]


def _suffix2d(n):
    """``S[..., i, j] = sum_{i' >= i, j' >= j} n[..., i', j']``."""
    s = np.flip(np.cumsum(np.flip(n, axis=-1), axis=-1), axis=-1)
    return np.flip(np.cumsum(np.flip(s, axis=-2), axis=-2), axis=-2)


def _shift(a, di, dj):
    """``out[..., i, j] = a[..., i + di, j + dj]`` (0 outside)."""
    out = np.zeros_like(a)
    K = a.shape[-1]
    src_i = slice(max(di, 0), K + min(di, 0))
    dst_i = slice(max(-di, 0), K + min(-di, 0))
    src_j = slice(max(dj, 0), K + min(dj, 0))
    dst_j = slice(max(-dj, 0), K + min(-dj, 0))
    out[..., dst_i, dst_j] = a[..., src_i, src_j]
    return out


def _require_two_classes(p, which):
    """tau_b and R_s divide by the spread of both label vectors: at least two
    observed true classes and two observed predicted classes are needed."""
    true_classes = (p.counts.sum(-1) > 0).sum(-1)
    pred_classes = (p.counts.sum(-2) > 0).sum(-1)
    undefined_if((true_classes < 2) | (pred_classes < 2), lambda: (
        f"{which} is undefined for this confusion matrix: all samples share one "
        "true class or one predicted class (a zero variance)"))


def _concordance(p):
    """``C - D`` (concordant minus discordant unordered pairs).

    ``C - D = sum_ij n_ij (S_ij^{>,>} - S_ij^{>,<})`` where ``S^{>,>}`` counts
    the samples below and to the right of cell ``(i, j)`` and ``S^{>,<}``
    below and to the left; both, and their difference, in int64 (exact).
    """
    c = p.integers
    below_right = _shift(_suffix2d(c), 1, 1)  # i' > i, j' > j
    rows_below = _shift(np.flip(np.cumsum(np.flip(c, axis=-2), axis=-2), axis=-2), 1, 0)
    below_left = _shift(np.cumsum(rows_below, axis=-1), 0, -1)  # i' > i, j' < j
    return (p.n * p.ctx.asarray(below_right - below_left)).sum(axis=(-2, -1))


def _untied_pairs(p, marginals):
    """``sum_r m_r (N - m_r)`` = twice the pairs in different classes,
    ``N(N-1) - sum_r m_r (m_r - 1)`` without the cancellation: ``N - m_r``
    is taken in int64 (the other classes' counts) before the product."""
    rest = marginals.sum(axis=-1, keepdims=True) - marginals
    return (p.ctx.asarray(marginals) * p.ctx.asarray(rest)).sum(axis=-1)


@metric(
        label="tau_b", better="higher", symmetric=True, bounds=(-1, 1), source="silva2018 eqs. 5-6",
        peers=("scipy.stats.kendalltau",))
def kendall_tau_b(cm, *, arithmetic="float"):
    r"""Kendall's :math:`\tau_b` from the confusion matrix.

    .. math:: \tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)(n_0 - n_2)}},\quad
              n_0 = \tbinom{N}{2},\; n_1 = \sum_r \tbinom{N_{r\cdot}}{2},\;
              n_2 = \sum_c \tbinom{N_{\cdot c}}{2}

    silva2018 eqs. 5-6; cardoso2011 §1.1 (the ``c, d, e_t, e_p`` form).
    ``C`` and ``D`` (concordant and discordant pairs) come from 2-D cumulative
    sums, O(K^2).

    Raises
    ------
    ValueError
        If all samples share one true class or one predicted class.

    Examples
    --------
    >>> kendall_tau_b([[2, 0], [0, 2]], arithmetic="exact")
    1
    >>> kendall_tau_b([[1, 1], [0, 1]], arithmetic="exact")
    1/2
    """
    def block(p, _):
        _require_two_classes(p, "tau_b")
        # n0 - n1 = sum_r N_r (N - N_r) / 2, n0 - n2 likewise: the 1/2 goes in the root
        rows = _untied_pairs(p, p.integers.sum(axis=-1))
        cols = _untied_pairs(p, p.integers.sum(axis=-2))
        return 2 * _concordance(p) / p.ctx.sqrt(rows * cols)

    return stack(cm, arithmetic).map(block)


def _rank_offsets(p, marginals):
    """Twice the mid-rank minus the mean rank of each class, in int64:
    ``2 (p_r - (N + 1) / 2) = (samples before r) - (samples after r)``."""
    upto = np.cumsum(marginals, axis=-1)
    before = upto - marginals
    after = upto[..., -1:] - upto
    return p.ctx.asarray(before - after)


@metric(
        label="R_s", better="higher", symmetric=True, bounds=(-1, 1), source="silva2018 eq. 4",
        peers=("scipy.stats.spearmanr",))
def spearman_rs(cm, *, arithmetic="float"):
    r"""Spearman's rank correlation :math:`R_s` with mid-ranks for ties.

    .. math:: R_s = \frac{\sum_{r,c} n_{r,c}(p_r-\bar p)(q_c-\bar q)}
              {\sqrt{\sum_r N_{r\cdot}(p_r-\bar p)^2\,\sum_c N_{\cdot c}(q_c-\bar q)^2}}

    silva2018 eq. 4; cardoso2011 §1.1.  ``p_r`` is the average rank of the
    samples of true class ``r``, ``q_c`` of predicted class ``c``.

    Raises
    ------
    ValueError
        If all samples share one true class or one predicted class.

    Examples
    --------
    >>> spearman_rs([[1, 1], [0, 1]], arithmetic="exact")
    1/2
    """
    def block(p, _):
        _require_two_classes(p, "R_s")
        R, C = p.rows(), p.cols()
        # a, b are twice the centred mid-ranks: the factors 4 cancel in the ratio
        a = _rank_offsets(p, p.integers.sum(axis=-1))
        b = _rank_offsets(p, p.integers.sum(axis=-2))
        cov = (p.n * a[..., :, None] * b[..., None, :]).sum(axis=(-2, -1))
        va = (R * a * a).sum(axis=-1)
        vb = (C * b * b).sum(axis=-1)
        return cov / p.ctx.sqrt(va * vb)

    return stack(cm, arithmetic).map(block)


#: why r_int takes whole-number sample weights only (the refusal of fractional ones says it)
R_INT_WHOLE_WEIGHTS = (
    "r_int counts ordered pairs of distinct samples (silva2018 eqs. 7-10: card(S_1) = "
    "sum_{i <= j} N_i N_j - N, the - N removing each sample's pair with itself), a count "
    "that needs whole samples: with weights below 1 it turns negative (two samples of "
    "weight 0.3 in two classes: 0.27 - 0.6) and its value changes when every weight is "
    "multiplied by the same number. Pass weights that count samples.")


@metric(
        label="r_int", better="higher", symmetric=True, bounds=(-1, 1), source="silva2018 eqs. 7-10",
        integer_weights=R_INT_WHOLE_WEIGHTS)
def r_int(cm, *, arithmetic="float"):
    r"""Pinto da Costa's :math:`r_{int}` coefficient.

    .. math:: r_{int} = -1 + 2\,\frac{\mathrm{card}(S_1\cap S_2)}
              {\sqrt{\mathrm{card}(S_1)\,\mathrm{card}(S_2)}}

    silva2018 eqs. 7-10 (Pinto da Costa et al. 2008).  ``S_1`` (``S_2``) is
    the set of ordered pairs of distinct samples whose true (predicted) classes
    are in non-decreasing order:

    .. math:: \mathrm{card}(S_1) = \sum_{i}\sum_{j\ge i} N_{i\cdot}N_{j\cdot} - N,\quad
              \mathrm{card}(S_1\cap S_2) = \sum_{i,j}\sum_{i'\ge i}\sum_{j'\ge j}
              n_{ij}n_{i'j'} - N.

    The transcription of silva2018 eq. 8 prints ``n_{i.} n_{.j}`` (a row sum
    times a column sum); the definition, eq. 9 and silva2018 Table I use two
    row sums, as here (see ``proofs_tests/test_tables_silva2018.py``).  The
    4-fold sum of eq. 10 is a 2-D suffix sum, O(K^2).

    Unlike :math:`\tau_b` and :math:`R_s`, the formula needs no variance:
    when every sample has the same true class, ``S_1`` holds every ordered
    pair and ``card(S_1) = N(N-1) > 0``.  It is undefined only for ``N < 2``.

    Raises
    ------
    ValueError
        If the matrix holds fewer than two samples.

    Examples
    --------
    >>> r_int([[2, 0], [0, 2]], arithmetic="exact")
    1
    >>> r_int([[1, 1], [0, 0]], arithmetic="exact")   # one true class: S_1 = S_1 & S_2
    -1 + sqrt(2)
    """
    def block(p, _):
        undefined_if(p.counts.sum(axis=(-2, -1)) < 2, lambda: (
            "r_int is undefined for a single sample: card(S_1) = card(S_2) = 0 "
            "(it needs at least two samples)"))
        # sum n S - N = sum n (S - 1): the - 1 in int64 (no cancellation), likewise s1, s2
        both = (p.n * p.ctx.asarray(_suffix2d(p.integers) - 1)).sum(axis=(-2, -1))

        def ordered(m):
            tail = np.flip(np.cumsum(np.flip(m, axis=-1), axis=-1), axis=-1)
            return (p.ctx.asarray(m) * p.ctx.asarray(tail - 1)).sum(axis=-1)

        s1, s2 = ordered(p.integers.sum(axis=-1)), ordered(p.integers.sum(axis=-2))
        return -1 + 2 * both / p.ctx.sqrt(s1 * s2)

    return stack(cm, arithmetic).map(block)
