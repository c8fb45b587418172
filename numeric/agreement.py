r"""Chance-corrected agreement: Cohen's kappa, unweighted and weighted.

Every function takes ``cm`` with ``cm[..., i, j]`` = number of samples of true
class ``i`` predicted as class ``j`` (scikit-learn's convention), classes in
their ordinal order, and ``arithmetic="float" | "exact" | "mp"``.

The absent-class trap
---------------------
The weights of the weighted kappas are distances between class *positions*.
scikit-learn's ``cohen_kappa_score(y1, y2, weights=...)`` without ``labels=``
(and :func:`cohen_kappa` called on label vectors without ``labels=``) builds
the matrix on the labels that occur, so an ordinal class absent from both
vectors is dropped and its neighbours move one step closer.  With classes
``0, 1, 2, 3`` and class 2 never seen, ``1`` and ``3`` become adjacent:

>>> y_true, y_pred = [0, 1, 3, 3], [0, 0, 3, 3]
>>> cohen_kappa(y_true, y_pred, weights="linear", arithmetic="exact")
3/4
>>> cohen_kappa(y_true, y_pred, weights="linear", labels=[0, 1, 2, 3], arithmetic="exact")
5/6

(``confusion_matrix(y_true, y_pred)`` is 3 x 3 in the first call, 4 x 4 with
an empty row and column in the second.)  Pass ``labels=`` with every ordinal
class, here as to scikit-learn.
"""

from __future__ import annotations

import numpy as np

from ._common import prepare
from ._validation import undefined_if
from .registry import Variant, metric

__all__ = ["cohen_kappa"]

_WEIGHTS = (None, "linear", "quadratic")


def _weight_matrix(p, weights):
    """``w[r, c]``: 1 off the diagonal (None), ``|r - c|`` or ``(r - c)^2``."""
    if weights is None:
        idx = np.arange(p.K)
        return p.ctx.asarray((idx[:, None] != idx[None, :]).astype(np.int64))
    return p.distance(1 if weights == "linear" else 2)


@metric(
        label="kappa", better="higher", symmetric=True, bounds=(-1, 1),
        source="Cohen 1960; Cohen 1968 (weighted)",
        peers=("sklearn.metrics.cohen_kappa_score",),
        variants=(Variant("kappa"),
                  Variant("linear weighted kappa", {"weights": "linear"}),
                  Variant("quadratic weighted kappa", {"weights": "quadratic"})))
def cohen_kappa(cm, *, weights=None, arithmetic="float"):
    r"""Cohen's kappa, unweighted or with linear or quadratic disagreement weights.

    .. math:: \kappa_w = 1 - \frac{\sum_{r,c} w_{r,c}\, n_{r,c}/N}
              {\sum_{r,c} w_{r,c}\, N_{r\cdot} N_{\cdot c}/N^2},\qquad
              w_{r,c} = [r \ne c],\ |r - c|,\ (r - c)^2

    Cohen, J. (1960), "A coefficient of agreement for nominal scales",
    *Educ. Psychol. Meas.* 20(1):37-46; Cohen, J. (1968), "Weighted kappa",
    *Psychol. Bull.* 70(4):213-220.  The same value as
    ``sklearn.metrics.cohen_kappa_score(y_true, y_pred, weights=..., labels=...)``
    when ``labels`` lists every class of the matrix (see the module docstring
    for the trap without ``labels``).  Symmetric in true and predicted
    classes (``w`` is symmetric).

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        Confusion matrix of counts.
    weights : {None, "linear", "quadratic"} or array_like, shape (K, K)
        Disagreement weights; None is the unweighted (nominal) kappa.  An
        array gives ``w`` itself (in the arithmetic's numbers; zero on the
        diagonal, symmetric, for a kappa with these properties), e.g. the
        distances of classes at unequal positions
        (:func:`analytic.derivations.forms.positioned_metric_forms`).
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    float, sympy.Rational or mpmath.mpf (array for a stack), in [-1, 1].

    Raises
    ------
    ValueError
        Unknown ``weights``; or the expected disagreement is 0 (every sample
        has the same true class and is predicted as that class), where kappa
        is 0/0.

    Examples
    --------
    >>> cohen_kappa([[2, 1, 0], [0, 2, 1], [0, 0, 2]], arithmetic="exact")
    27/43
    >>> cohen_kappa([[2, 1, 0], [0, 2, 1], [0, 0, 2]], weights="quadratic", arithmetic="exact")
    33/41
    """
    named = weights is None or isinstance(weights, str)
    if named and weights not in _WEIGHTS:
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    p = prepare(cm, arithmetic)
    if named:
        w = _weight_matrix(p, weights)
    else:
        w = p.ctx.asarray(weights)
        if w.shape != (p.K, p.K):
            raise ValueError(f"weights must be a ({p.K}, {p.K}) array for this matrix, got shape {w.shape}")
    # sum_{r != c} N_r. N_.c = 0 (hence the expected disagreement, for every weighting)
    # exactly when a single class holds all rows and all columns
    rows_seen = p.counts.sum(axis=-1) > 0
    cols_seen = p.counts.sum(axis=-2) > 0
    undefined_if((rows_seen.sum(axis=-1) == 1) & (cols_seen.sum(axis=-1) == 1)
                 & np.all(rows_seen == cols_seen, axis=-1), lambda: (
        "kappa is undefined for this confusion matrix: the expected disagreement is 0 "
        "(every sample has the same true and predicted class)"))
    N = p.total()
    observed = (w * p.n).sum(axis=(-2, -1))
    expected = (w * p.rows()[..., :, None] * p.cols()[..., None, :]).sum(axis=(-2, -1))
    return p.ctx.finalize(1 - N * observed / expected)
