r"""Per-class hit rates: within-one accuracy, minimum sensitivity and the
geometric mean of the sensitivities.

Every function takes ``cm`` with ``cm[..., i, j]`` = number of samples of true
class ``i`` predicted as class ``j`` (scikit-learn's convention), classes in
their ordinal order, and ``arithmetic="float" | "exact" | "mp"``.

The sensitivity (recall) of class ``k`` is :math:`S_k = n_{k,k}/N_{k\cdot}`;
it is undefined for a class without samples.  ``missing="ignore"`` (default)
takes the minimum or the geometric mean over the observed true classes;
``missing="zero"`` counts an unobserved class as sensitivity 0, which makes
both metrics 0 -- what imbalanced-learn's ``geometric_mean_score`` returns when
a class of ``labels`` (or, without ``labels``, a class that is only
predicted) has no true sample.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ._common import amin, prepare
from ._validation import check_missing
from .registry import Variant, metric

__all__ = ["within_one_accuracy", "minimum_sensitivity", "geometric_mean_sensitivity"]


@metric(
        label="within-one accuracy", better="higher", symmetric=True, bounds=(0, 1),
        source="1-off accuracy (Levi & Hassner 2015)")
def within_one_accuracy(cm, *, arithmetic="float"):
    r"""Fraction of samples predicted at most one class away from the true class.

    .. math:: \mathrm{Acc}_{\pm 1} = \frac{1}{N}\sum_{|r - c| \le 1} n_{r,c}

    Also called adjacent or "1-off" accuracy, e.g. Levi, G. & Hassner, T.
    (2015), "Age and gender classification using convolutional neural
    networks", *CVPR Workshops* (exact and 1-off accuracy on Adience).
    Symmetric.

    Examples
    --------
    >>> within_one_accuracy([[2, 1, 1], [0, 3, 0], [1, 0, 2]], arithmetic="exact")
    4/5
    """
    p = prepare(cm, arithmetic)
    idx = np.arange(p.K)
    band = p.ctx.asarray((np.abs(idx[:, None] - idx[None, :]) <= 1).astype(np.int64))
    return p.ctx.finalize((band * p.n).sum(axis=(-2, -1)) / p.total())


def sensitivities(cm, arithmetic="float", missing="ignore"):
    """Per-class sensitivities ``(..., K)`` and the mask of the classes that count.

    Unobserved classes get sensitivity 0; with ``missing="ignore"`` the mask
    excludes them, with ``missing="zero"`` it includes every class.
    Returns ``(prepared, sensitivities, mask)``.

    Examples
    --------
    >>> _, s, mask = sensitivities([[1, 1], [0, 0]], "exact")
    >>> s.tolist(), mask.tolist()
    ([1/2, 0], [True, False])
    """
    check_missing(missing)
    p = prepare(cm, arithmetic)
    observed = p.counts.sum(axis=-1) > 0
    diag = np.diagonal(p.n, axis1=-2, axis2=-1)
    rows = np.where(observed, p.rows(), p.ctx.number(1))
    sens = np.where(observed, diag / rows, p.ctx.number(0))
    mask = observed if missing == "ignore" else np.ones_like(observed)
    return p, sens, mask


@metric(
        label="MS", better="higher", symmetric=False, bounds=(0, 1),
        source="Cruz-Ramírez et al. 2014",
        variants=(Variant("MS (observed classes)"),
                  Variant("MS (missing = zero)", {"missing": "zero"})))
def minimum_sensitivity(cm, *, missing="ignore", arithmetic="float"):
    r"""Minimum sensitivity: the recall of the worst-classified class.

    .. math:: \mathrm{MS} = \min_{k} \frac{n_{k,k}}{N_{k\cdot}}

    Cruz-Ramírez, M. et al. (2014), "Metrics to guide a multi-objective
    evolutionary algorithm for ordinal classification", *Neurocomputing*
    135:21-31 (with MMAE, the other per-class extreme).  The minimum runs
    over the observed true classes (``missing="ignore"``), or over all K
    classes with an unobserved one counting 0 (``missing="zero"``; see the
    module docstring).  Not symmetric.

    Parameters
    ----------
    missing : {"ignore", "zero"}, default "ignore"
        A class without true samples: left out of the minimum (``"ignore"``),
        or counted with sensitivity 0 (``"zero"``).

    Examples
    --------
    >>> minimum_sensitivity([[3, 1], [1, 1]], arithmetic="exact")
    1/2
    >>> minimum_sensitivity([[3, 1, 0], [1, 1, 0], [0, 0, 0]], missing="zero", arithmetic="exact")
    0
    """
    p, sens, mask = sensitivities(cm, arithmetic, missing)
    return p.ctx.finalize(amin(np.where(mask, sens, p.ctx.inf), axis=-1))


@metric(
        label="GM", better="higher", symmetric=False, bounds=(0, 1),
        source="Kubat & Matwin 1997; Cruz-Ramírez et al. 2014",
        peers=("imblearn.metrics.geometric_mean_score",),
        variants=(Variant("GM (observed classes)"),
                  Variant("GM (missing = zero)", {"missing": "zero"})))
def geometric_mean_sensitivity(cm, *, missing="ignore", arithmetic="float"):
    r"""Geometric mean of the per-class sensitivities.

    .. math:: \mathrm{GM} = \Big(\prod_{k=1}^{K'} \frac{n_{k,k}}{N_{k\cdot}}\Big)^{1/K'}

    Kubat, M. & Matwin, S. (1997), "Addressing the curse of imbalanced
    training sets: one-sided selection", *ICML*; the multi-class form of
    imbalanced-learn's ``geometric_mean_score`` with its defaults
    (``average="multiclass"``, ``correction=0.0``: a class of sensitivity 0
    makes GM 0).  ``K'`` is the number of observed true classes
    (``missing="ignore"``) or ``K`` (``missing="zero"``: an unobserved class
    counts 0, so GM = 0; imbalanced-learn gives this with ``labels`` listing
    an absent class, and, without ``labels``, whenever a class is predicted
    but never true).  Exact arithmetic keeps the root exact: SymPy's canonical
    form while it is small, and beyond ``exactfloor.arith.CANONICAL_ROOT_BITS`` (4,096)
    bits of its radicand the unevaluated root :math:`(\prod_k S_k)^{1/K'}` (the exact
    context's ``power``), whose size stays linear in the digits of the counts.  Not
    symmetric.

    Parameters
    ----------
    missing : {"ignore", "zero"}, default "ignore"
        A class without true samples: left out of the mean (``"ignore"``), or
        counted with sensitivity 0 (``"zero"``, so the mean is 0).

    Examples
    --------
    >>> geometric_mean_sensitivity([[3, 1], [1, 1]], arithmetic="exact")   # sqrt(3/4 * 1/2)
    sqrt(6)/4
    """
    p, sens, mask = sensitivities(cm, arithmetic, missing)
    one = p.ctx.number(1)
    prod = np.where(mask, sens, one).prod(axis=-1)
    k = mask.sum(axis=-1)
    out = np.empty(np.shape(prod), dtype=np.asarray(prod).dtype)
    for kv in np.unique(k):  # the root's degree may differ across a stack
        sel = k == kv
        out[sel] = p.ctx.power(np.asarray(prod)[sel], Fraction(1, int(kv)))
    return p.ctx.finalize(out)
