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

from ._arith import _sympy
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
    form while it is small, and beyond ``GM_CANONICAL_BITS`` (4,096) bits the product of
    per-class roots :math:`\prod_k S_k^{1/K'}` (unevaluated), whose size stays
    linear in the digits of the counts.  Not symmetric.

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
    if p.ctx.name == "exact":
        return p.ctx.finalize(_exact_gm(np.where(mask, sens, one), mask.sum(axis=-1)))
    prod = np.where(mask, sens, one).prod(axis=-1)
    k = mask.sum(axis=-1)
    out = np.empty(np.shape(prod), dtype=np.asarray(prod).dtype)
    for kv in np.unique(k):  # the root's degree may differ across a stack
        sel = k == kv
        out[sel] = p.ctx.power(np.asarray(prod)[sel], Fraction(1, int(kv)))
    return p.ctx.finalize(out)


#: bits of the radicand of GM's canonical SymPy form (see :func:`_exact_gm`) beyond which
#: GM is kept as a product of per-class roots: SymPy's form of ``(P/Q)**(1/K)`` is
#: ``(P*Q**(K-1))**(1/K)/Q``, whose radicand it factors, and 20 classes of 14-digit counts
#: made it 5,900 digits (47 s, then Python's 4,300-digit limit of ``str``)
GM_CANONICAL_BITS = 4096


def _exact_gm(sens, k):
    r"""Exact GM of each matrix of a stack: ``sens`` ``(..., K)`` (1 where a class does
    not count), ``k`` ``(...)`` the number of classes that count.

    A small value gets SymPy's canonical form, :math:`(\prod_k S_k)^{1/K'}` (e.g.
    ``sqrt(6)/4``); when that form's radicand :math:`P Q^{K'-1}` (:math:`S_k` in
    lowest terms, :math:`P/Q = \prod_k S_k`) would exceed :data:`GM_CANONICAL_BITS`,
    GM is the unevaluated product :math:`\prod_k S_k^{1/K'}` of per-class roots,
    each of two counts: the same number, of size linear in the digits of the
    counts, whose ``str`` and ``float`` cost is polynomial in them.

    Examples
    --------
    >>> import sympy
    >>> _exact_gm(np.array([sympy.Rational(3, 4), sympy.Rational(1, 2)], dtype=object), np.int64(2))
    sqrt(6)/4
    >>> big = sympy.Rational(10**40 + 1, 10**41 + 3)
    >>> v = _exact_gm(np.array([big, big / 2, big / 3], dtype=object), np.int64(3))
    >>> v.func.__name__, round(float(v), 12) == round((float(big)**3 / 6)**(1 / 3), 12)
    ('Mul', True)
    """
    sympy = _sympy()
    sens = np.asarray(sens, dtype=object)
    k = np.asarray(k)
    flat, ks = sens.reshape(-1, sens.shape[-1]), k.reshape(-1)
    out = np.empty(len(ks), dtype=object)
    for i, (row, kv) in enumerate(zip(flat, ks.tolist(), strict=True)):
        if any(v == 0 for v in row):  # a class never hit: GM = 0 (kv >= 1: the matrix has samples)
            out[i] = sympy.Integer(0)
            continue
        root = sympy.Rational(1, int(kv))
        prod = sympy.Mul(*row)
        if not prod.is_Rational:  # symbolic counts (analytic's families): the canonical form
            out[i] = prod ** root
            continue
        bits = prod.p.bit_length() + (kv - 1) * prod.q.bit_length()
        if bits <= GM_CANONICAL_BITS:
            out[i] = prod ** root
        else:
            out[i] = sympy.Mul(*[sympy.Pow(v, root, evaluate=False) for v in row if v != 1],
                               evaluate=False)
    return out.reshape(k.shape) if k.ndim else out[0]
