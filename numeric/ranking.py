"""Rank-correlation metrics computed from the confusion matrix in O(K^2).

Spearman's R_s, Kendall's tau_b and Pinto da Costa's r_int are defined on the
N pairs of labels; here every pair sum is rewritten with 2-D cumulative sums of
the matrix, so the cost is O(K^2) whatever N is, and exact arithmetic gives
the exact value (no int64 products of counts).
"""

from __future__ import annotations

import numpy as np

from ._common import prepare
from .registry import metric

__all__ = ["spearman_rs", "kendall_tau_b", "r_int"]


def _suffix2d(n):
    """``S[..., i, j] = sum_{i' >= i, j' >= j} n[..., i', j']``."""
    s = np.flip(np.cumsum(np.flip(n, axis=-1), axis=-1), axis=-1)
    return np.flip(np.cumsum(np.flip(s, axis=-2), axis=-2), axis=-2)


def _shift(a, di, dj, fill):
    """``out[..., i, j] = a[..., i + di, j + dj]`` (``fill`` outside)."""
    out = np.full_like(a, fill)
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
    if np.any(true_classes < 2) or np.any(pred_classes < 2):
        raise ValueError(
            f"{which} is undefined for this confusion matrix: all samples share one "
            "true class or one predicted class (a zero variance)"
        )


def _pairs(p):
    """Concordant and discordant (unordered) pair counts, and the ties."""
    n = p.n
    zero = p.ctx.number(0)
    S = _suffix2d(n)
    below_right = _shift(S, 1, 1, zero)  # i' > i, j' > j
    # i' > i, j' < j: rows below, columns to the left
    rows_below = _shift(np.flip(np.cumsum(np.flip(n, axis=-2), axis=-2), axis=-2), 1, 0, zero)
    left = _shift(np.cumsum(rows_below, axis=-1), 0, -1, zero)
    concordant = (n * below_right).sum(axis=(-2, -1))
    discordant = (n * left).sum(axis=(-2, -1))
    return concordant, discordant


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
    p = prepare(cm, arithmetic)
    C, D = _pairs(p)
    N = p.total()
    R, Cc = p.rows(), p.cols()
    n0 = N * (N - 1) / 2
    n1 = (R * (R - 1) / 2).sum(axis=-1)
    n2 = (Cc * (Cc - 1) / 2).sum(axis=-1)
    _require_two_classes(p, "tau_b")
    return p.ctx.finalize((C - D) / p.ctx.sqrt((n0 - n1) * (n0 - n2)))


def _midranks(p, marginals):
    """Average rank of each class: samples before it plus (n_k + 1) / 2."""
    before = np.cumsum(marginals, axis=-1) - marginals
    return before + (marginals + 1) / 2


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
    p = prepare(cm, arithmetic)
    _require_two_classes(p, "R_s")
    R, C = p.rows(), p.cols()
    N = p.total()
    mean = np.expand_dims(np.asarray((N + 1) / 2, dtype=p.n.dtype), -1)
    a = _midranks(p, R) - mean
    b = _midranks(p, C) - mean
    cov = (p.n * a[..., :, None] * b[..., None, :]).sum(axis=(-2, -1))
    va = (R * a * a).sum(axis=-1)
    vb = (C * b * b).sum(axis=-1)
    return p.ctx.finalize(cov / p.ctx.sqrt(va * vb))


@metric(
        label="r_int", better="higher", symmetric=True, bounds=(-1, 1), source="silva2018 eqs. 7-10")
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
    p = prepare(cm, arithmetic)
    if np.any(p.counts.sum(axis=(-2, -1)) < 2):
        raise ValueError(
            "r_int is undefined for a single sample: card(S_1) = card(S_2) = 0 "
            "(it needs at least two samples)"
        )
    N = p.total()
    S = _suffix2d(p.n)
    both = (p.n * S).sum(axis=(-2, -1)) - N

    def ordered(m):
        tail = np.flip(np.cumsum(np.flip(m, axis=-1), axis=-1), axis=-1)
        return (m * tail).sum(axis=-1) - N

    s1, s2 = ordered(p.rows()), ordered(p.cols())
    return p.ctx.finalize(-1 + 2 * both / p.ctx.sqrt(s1 * s2))
