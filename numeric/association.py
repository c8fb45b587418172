r"""Ordinal association from pair counts: Somers' d and Stuart's (Kendall's) tau_c.

Both are ``C - D`` (concordant minus discordant pairs, exact integers from
:func:`numeric.pairs.pair_counts`) over a normaliser.  Every function takes
``cm`` with ``cm[..., i, j]`` = number of samples of true class ``i``
predicted as class ``j`` and ``arithmetic="float" | "exact" | "mp"``.
"""

from __future__ import annotations

import numpy as np

from ._common import prepare
from .pairs import pair_counts
from ._validation import undefined_if
from .registry import metric

__all__ = ["somers_d", "kendall_tau_c"]


@metric(
        label="Somers' d", better="higher", symmetric=False, bounds=(-1, 1),
        source="Somers 1962, d(pred|true)",
        peers=("scipy.stats.somersd(y_true, y_pred)",))
def somers_d(cm, *, arithmetic="float"):
    r"""Somers' :math:`d` of the prediction given the true class, :math:`d(\hat y\,|\,y)`.

    .. math:: d(\hat y\,|\,y) = \frac{C - D}{\tfrac12\big(N^2 - \sum_r N_{r\cdot}^2\big)}

    Somers, R. H. (1962), "A new asymmetric measure of association for
    ordinal variables", *Am. Sociol. Rev.* 27(6):799-811.  ``C`` and ``D``
    count concordant and discordant pairs; the denominator counts the pairs
    of samples with different true classes.  This is
    ``scipy.stats.somersd(y_true, y_pred).statistic`` -- scipy's
    ``somersd(x, y)`` is :math:`D(Y|X)` with ``x`` the independent ("row")
    variable, and its table form ``somersd(cm)`` takes rows as ``x``, as
    here.  Not symmetric: the transpose gives :math:`d(y\,|\,\hat y)`, whose
    denominator counts pairs with different predicted classes.  When every
    sample has the same *predicted* class, ``C = D = 0`` over a positive
    denominator and d = 0 here; scipy returns nan (a constant ``y``).

    Raises
    ------
    ValueError
        If every sample has the same true class (no pair is untied on it).

    Examples
    --------
    >>> somers_d([[2, 1], [0, 1]], arithmetic="exact")   # C - D = 2, 3 pairs untied on y
    2/3
    >>> somers_d([[2, 0], [1, 1]], arithmetic="exact")   # the transpose: 4 pairs untied on y
    1/2
    """
    p = prepare(cm, arithmetic)
    undefined_if((p.counts.sum(axis=-1) > 0).sum(axis=-1) < 2, lambda: (
        "Somers' d is undefined for this confusion matrix: all samples share one true "
        "class (no pair of samples differs in the true class)"))
    pc = pair_counts(p)
    return p.ctx.finalize(pc.difference / pc.untied_true)


@metric(
        label="tau_c", better="higher", symmetric=True, bounds=(-1, 1),
        source="Stuart 1953",
        peers=("scipy.stats.kendalltau(variant='c')",))
def kendall_tau_c(cm, *, arithmetic="float"):
    r"""Stuart's :math:`\tau_c` (Kendall's tau-c).

    .. math:: \tau_c = \frac{2m\,(C - D)}{N^2\,(m - 1)},\qquad
              m = \min(\#\{r : N_{r\cdot} > 0\},\ \#\{c : N_{\cdot c} > 0\})

    Stuart, A. (1953), "The estimation and comparison of strengths of
    association in contingency tables", *Biometrika* 40(1/2):105-110.
    ``m`` counts the *observed* true and predicted classes (rows and columns
    with samples), as ``scipy.stats.kendalltau(y_true, y_pred,
    variant="c")`` does with the distinct values of each vector: empty rows
    or columns of the matrix (classes nobody has or predicts) do not change
    the value.  Symmetric.  It reaches 1 only when the margins are equal:
    a diagonal matrix with unequal classes scores below 1 (diag(2, 1, 3):
    11/12).

    Raises
    ------
    ValueError
        If all samples share one true class or one predicted class (``m = 1``).

    Examples
    --------
    >>> kendall_tau_c([[2, 1], [0, 1]], arithmetic="exact")   # 2*2*2 / (16*1)
    1/2
    """
    p = prepare(cm, arithmetic)
    m = np.minimum((p.counts.sum(axis=-1) > 0).sum(axis=-1),
                   (p.counts.sum(axis=-2) > 0).sum(axis=-1))
    undefined_if(m < 2, lambda: (
        "tau_c is undefined for this confusion matrix: all samples share one true class "
        "or one predicted class (m = 1)"))
    m = p.ctx.asarray(m)
    N = p.total()
    return p.ctx.finalize(2 * m * pair_counts(p).difference / (N * N * (m - 1)))
