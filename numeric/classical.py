"""Accuracy-focused metrics from a confusion matrix: MER, MAE, MSE, RMSE and
their class-balanced (macro-averaged) forms AMAE, MMAE and macro RMSE.

Every function takes ``cm`` with ``cm[..., i, j]`` = number of samples of true
class ``i`` predicted as class ``j`` (scikit-learn's convention), classes in
their ordinal order, and ``arithmetic="float" | "exact" | "mp"``.
"""

from __future__ import annotations

import numpy as np

from ._common import amax, prepare
from ._validation import check_missing
from .registry import Variant, metric

__all__ = ["mer", "mae", "mse", "rmse", "amae", "mmae", "macro_rmse"]


def _weighted_mean_error(cm, power, arithmetic):
    p = prepare(cm, arithmetic)
    err = (p.n * p.distance(power)).sum(axis=(-2, -1))
    return p, err / p.total()


@metric(
        label="MER", better="lower", symmetric=True, bounds=(0, 1), source="silva2018 eq. 1",
        peers=("1 - sklearn.metrics.accuracy_score",))
def mer(cm, *, arithmetic="float"):
    r"""Misclassification error rate.

    .. math:: \mathrm{MER} = 1 - \frac{1}{N}\sum_{k} n_{k,k}

    silva2018 eq. 1; cardoso2011 §1.1.

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        Confusion matrix of counts, ``cm[i, j]``: true class ``i``, predicted ``j``.
    arithmetic : {"float", "exact", "mp"}
        Number system of the result.

    Returns
    -------
    float, sympy.Rational or mpmath.mpf (array for a stack), in [0, 1].

    Examples
    --------
    >>> mer([[4, 1], [0, 5]], arithmetic="exact")
    1/10
    """
    p = prepare(cm, arithmetic)
    return p.ctx.finalize(1 - p.accuracy())


@metric(
        label="MAE", better="lower", symmetric=True, bounds=(0, None), source="silva2018 eq. 3",
        peers=("sklearn.metrics.mean_absolute_error",))
def mae(cm, *, arithmetic="float"):
    r"""Mean absolute error on class indices.

    .. math:: \mathrm{MAE} = \frac{1}{N}\sum_{r,c} n_{r,c}\,|r - c|

    silva2018 eq. 3; cardoso2011 §1.1.

    Examples
    --------
    >>> mae([[4, 1], [0, 5]], arithmetic="exact")
    1/10
    """
    p, v = _weighted_mean_error(cm, 1, arithmetic)
    return p.ctx.finalize(v)


@metric(
        label="MSE", better="lower", symmetric=True, bounds=(0, None), source="silva2018 eq. 2",
        peers=("sklearn.metrics.mean_squared_error",))
def mse(cm, *, arithmetic="float"):
    r"""Mean squared error on class indices.

    .. math:: \mathrm{MSE} = \frac{1}{N}\sum_{r,c} n_{r,c}\,(r - c)^2

    silva2018 eq. 2; cardoso2011 §1.1.

    Examples
    --------
    >>> mse([[1, 0, 1], [0, 1, 0], [0, 0, 1]], arithmetic="exact")
    1
    """
    p, v = _weighted_mean_error(cm, 2, arithmetic)
    return p.ctx.finalize(v)


@metric(
        label="RMSE", better="lower", symmetric=True, bounds=(0, None), source="silva2018 eq. 2",
        peers=("sklearn.metrics.root_mean_squared_error",))
def rmse(cm, *, arithmetic="float"):
    r"""Root mean squared error, :math:`\sqrt{\mathrm{MSE}}` (silva2018 eq. 2).

    .. math:: \mathrm{RMSE} = \Big(\frac{1}{N}\sum_{r,c} n_{r,c}(r-c)^2\Big)^{1/2}

    Examples
    --------
    >>> rmse([[1, 1], [0, 1]], arithmetic="exact")
    sqrt(3)/3
    """
    p, v = _weighted_mean_error(cm, 2, arithmetic)
    return p.ctx.finalize(p.ctx.sqrt(v))


def _per_class(cm, power, arithmetic, missing):
    """Per-true-class mean error and the mask of observed classes."""
    check_missing(missing)
    p = prepare(cm, arithmetic)
    observed = p.counts.sum(axis=-1) > 0
    rows = p.rows()
    safe_rows = np.where(observed, rows, 1)
    per_class = (p.n * p.distance(power)).sum(axis=-1) / safe_rows
    per_class = np.where(observed, per_class, p.ctx.number(0))
    denom = observed.sum(axis=-1) if missing == "ignore" else np.full(p.lead_shape, p.K)
    return p, per_class, observed, p.ctx.asarray(denom)


@metric(
        label="AMAE", better="lower", symmetric=False, bounds=(0, None), source="silva2018 eq. 15",
        peers=("imblearn.metrics.macro_averaged_mean_absolute_error",),
        variants=(Variant("AMAE (observed classes)"),
                  Variant("AMAE (missing = zero)", {"missing": "zero"})))
def amae(cm, *, missing="ignore", arithmetic="float"):
    r"""Average mean absolute error (macro-averaged MAE).

    .. math:: \mathrm{AMAE} = \frac{1}{K}\sum_{k=1}^{K} \mathrm{MAE}_k,\qquad
              \mathrm{MAE}_k = \frac{1}{N_k}\sum_{c} n_{k,c}|k-c|

    silva2018 eq. 15 (Baccianella et al. 2009); macroblog ``mae_macro``.

    Parameters
    ----------
    missing : {"ignore", "zero"}
        ``"ignore"`` averages over the observed classes (rows with samples)
        only, as macroblog's code does; ``"zero"`` counts an unobserved class
        as zero error and averages over all K classes (silva2018 Table I,
        matrix E).

    Examples
    --------
    >>> amae([[0, 4, 0], [0, 6, 0], [0, 0, 0]], arithmetic="exact")
    1/2
    >>> amae([[0, 4, 0], [0, 6, 0], [0, 0, 0]], missing="zero", arithmetic="exact")
    1/3
    """
    p, per_class, _, denom = _per_class(cm, 1, arithmetic, missing)
    return p.ctx.finalize(per_class.sum(axis=-1) / denom)


@metric(
        label="MMAE", better="lower", symmetric=False, bounds=(0, None), source="silva2018 eq. 14")
def mmae(cm, *, missing="ignore", arithmetic="float"):
    r"""Maximum mean absolute error over classes.

    .. math:: \mathrm{MMAE} = \max_k \mathrm{MAE}_k

    silva2018 eq. 14 (Cruz-Ramírez et al. 2014).  With ``missing="zero"`` an
    unobserved class contributes 0, which never changes the maximum; the
    keyword exists for symmetry with :func:`amae`.

    Parameters
    ----------
    missing : {"ignore", "zero"}, default "ignore"
        A class without true samples: left out (``"ignore"``), or counted
        with the value 0 of its per-class term (``"zero"``).

    Examples
    --------
    >>> mmae([[0, 4, 0], [0, 6, 0], [1, 0, 1]], arithmetic="exact")
    1
    """
    p, per_class, observed, _ = _per_class(cm, 1, arithmetic, missing)
    if missing == "ignore":
        per_class = np.where(observed, per_class, -p.ctx.inf)
    return p.ctx.finalize(amax(per_class, axis=-1))


@metric(
        label="macro RMSE", better="lower", symmetric=False, bounds=(0, None), source="macroblog")
def macro_rmse(cm, *, missing="ignore", arithmetic="float"):
    r"""Macro-averaged RMSE as macroblog defines it (``rmse_macro``).

    .. math:: \mathrm{RMSE}^M = \Big(\frac{1}{K}\sum_{k}\frac{1}{N_k}
              \sum_{c} n_{k,c}(k-c)^2\Big)^{1/2}

    The square root is taken of the class average of the per-class MSE
    (macroblog; Baccianella et al. 2009).

    Parameters
    ----------
    missing : {"ignore", "zero"}, default "ignore"
        A class without true samples: left out (``"ignore"``), or counted
        with the value 0 of its per-class term (``"zero"``).

    Examples
    --------
    >>> macro_rmse([[1, 0, 1], [0, 2, 0], [0, 1, 0]], arithmetic="exact")
    1
    """
    p, per_class, _, denom = _per_class(cm, 2, arithmetic, missing)
    return p.ctx.finalize(p.ctx.sqrt(per_class.sum(axis=-1) / denom))
