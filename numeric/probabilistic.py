r"""Scores of predicted class probabilities: the ranked probability score.

Unlike the other metrics of :mod:`numeric` these take no confusion matrix
but the true labels and the predicted probabilities of the K ordered classes
(registry input ``"probabilities"``).
"""

from __future__ import annotations

import numpy as np

from exactfloor.arith import get_arithmetic
from .registry import metric
from exactfloor.tolerance import FLOAT_SCREEN

__all__ = ["ranked_probability_score"]

#: slack allowed in the sum of a row of probabilities (float64 and exact
#: inputs; a narrower float type is allowed ``4 K`` of its machine epsilons,
#: e.g. 1.9e-6 for float32 and K = 4: its softmax rows are that accurate)
SUM_TOLERANCE = FLOAT_SCREEN


def _sum_tolerance(dtype, K):
    """:data:`SUM_TOLERANCE`, or ``4 K eps`` of a float type narrower than float64."""
    if dtype.kind == "f" and dtype.itemsize < 8:
        return max(SUM_TOLERANCE, 4 * K * float(np.finfo(dtype).eps))
    return SUM_TOLERANCE


def _probabilities(proba):
    """Validated probabilities ``(..., N, K)``, elements kept as given (objects stay
    objects, so Fractions and SymPy numbers reach exact arithmetic unrounded)."""
    from ._validation import is_real_number, unmasked

    proba = unmasked(proba, "probabilities")
    try:
        a = np.asarray(proba)
    except ValueError:
        raise ValueError("probabilities must be a rectangular array") from None
    if a.dtype == object:
        vals = a.reshape(-1).tolist()
        if any(isinstance(v, (bool, np.bool_)) or not is_real_number(v) for v in vals):
            raise ValueError("probabilities must hold real numbers")
        try:
            fl = np.array([float(v) for v in vals], dtype=np.float64).reshape(a.shape)
        except OverflowError:  # 10**400
            raise ValueError("probabilities must lie in [0, 1]") from None
    elif a.dtype == bool or not np.issubdtype(a.dtype, np.number) or np.issubdtype(
            a.dtype, np.complexfloating):
        raise ValueError(f"probabilities must hold real numbers, got dtype {a.dtype}")
    else:
        fl = a.astype(np.float64)
    if a.ndim < 2:
        raise ValueError(
            f"probabilities must have shape (..., N, K), got shape {a.shape}")
    if a.shape[-1] < 2:
        raise ValueError(
            f"probabilities need at least 2 classes (the last axis), got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"probabilities hold no samples, got shape {a.shape}")
    if not np.all(np.isfinite(fl)):
        raise ValueError("probabilities contain NaN or infinite values")
    if np.any(fl < 0) or np.any(fl > 1):
        raise ValueError("probabilities must lie in [0, 1]")
    worst = float(np.max(np.abs(fl.sum(axis=-1) - 1)))
    if worst > _sum_tolerance(a.dtype, a.shape[-1]):
        raise ValueError(
            f"probabilities must sum to 1 over the classes (last axis); "
            f"a row is off by {worst:.3g}")
    return a


def _class_codes(y_true, shape, labels, K):
    """Column index of each true label, shape ``shape = (..., N)``, and the
    number of ``labels`` (None without)."""
    from ._validation import unmasked

    y = np.asarray(unmasked(y_true, "y_true"))
    if y.shape != shape:
        raise ValueError(
            f"y_true has shape {y.shape}; the probabilities need {shape} (their shape "
            "without the class axis)")
    if labels is None:
        vals = y.reshape(-1).tolist()
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                   for v in vals):
            raise ValueError(
                "y_true must hold class indices 0..K-1 (the columns of the probabilities); "
                "pass labels= for other labels")
        bad = [v for v in vals if not 0 <= v < K]
        if bad:
            raise ValueError(f"class index {bad[0]} in y_true is outside 0..{K - 1}")
        return np.asarray(vals, dtype=np.int64).reshape(shape), None
    lab = np.asarray(labels)
    if lab.ndim != 1 or lab.size == 0:
        raise ValueError("labels must be a non-empty 1-D sequence")
    where = {v: i for i, v in enumerate(lab.tolist())}
    if len(where) != lab.size:
        raise ValueError("labels must not repeat")
    codes = []
    for v in y.reshape(-1).tolist():
        if v not in where:
            raise ValueError(f"label {v!r} in y_true is not in labels")
        codes.append(where[v])
    return np.asarray(codes, dtype=np.int64).reshape(shape), lab.size


@metric(
        label="RPS", better="lower", symmetric=False, bounds=(0, 1),
        source="Epstein 1969; Murphy 1971 (normalised)", input="probabilities",
        peers=("sklearn.metrics.brier_score_loss (K = 2)",))
def ranked_probability_score(y_true, proba, *, labels=None, normalize=True, sample_weight=None,
                             arithmetic="float"):
    r"""Ranked probability score of ordinal class probabilities (lower is better).

    .. math:: \mathrm{RPS} = \frac{1}{N}\sum_{i=1}^{N} \frac{1}{K-1}
              \sum_{k=1}^{K-1} \big(F_{i,k} - O_{i,k}\big)^2,\qquad
              F_{i,k} = \sum_{j \le k} p_{i,j},\quad O_{i,k} = [\,y_i \le k\,]

    Epstein, E. S. (1969), "A scoring system for probability forecasts of
    ranked categories", *J. Appl. Meteorol.* 8(6):985-987; the factor
    :math:`1/(K-1)` is Murphy's normalisation (Murphy, A. H. (1971), "A note
    on the ranked probability score", *J. Appl. Meteorol.* 10(1):155-156),
    which puts RPS in [0, 1] for every K.  ``normalize=False`` omits it (the
    form of several machine-learning papers, in [0, K - 1]).  The term
    ``k = K`` is omitted because :math:`F_{i,K} = O_{i,K} = 1`.

    For K = 2, :math:`(F_1 - O_1)^2 = (p_{i,1} - [y_i = 1])^2` (the classes
    counted from 0), so RPS is the Brier score of the second class,
    ``sklearn.metrics.brier_score_loss(y_true, proba[:, 1])``; Brier's own
    (1950) multi-category score sums the squares over both classes and is
    twice that.

    Parameters
    ----------
    y_true : array_like, shape (..., N)
        True classes: indices ``0..K-1`` of the probability columns, or
        elements of ``labels``.
    proba : array_like, shape (..., N, K)
        Predicted probabilities of the K classes in their ordinal order; each
        row in [0, 1] summing to 1 (within :data:`SUM_TOLERANCE`, or ``4 K``
        machine epsilons for float32 and float16 inputs; every input, exact
        or not, is used as given).
    labels : sequence of length K, optional
        The classes of the columns, in order (like scikit-learn's
        ``classes_``); then ``y_true`` holds labels.
    normalize : bool, default True
        Divide by ``K - 1``.
    sample_weight : array_like, shape (N,), optional
        Non-negative weight of each sample (the same for every matrix of a
        stack): the mean over the samples becomes the weighted mean
        :math:`\sum_i w_i\,\mathrm{RPS}_i / \sum_i w_i` (scikit-learn's
        convention, e.g. ``brier_score_loss(..., sample_weight=)``); integer
        weights equal repeating the samples.  Fractional weights are allowed:
        RPS is a mean, not a function of counts.
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    float, sympy.Rational or mpmath.mpf (array of shape ``(...)`` for a stack).

    Raises
    ------
    ValueError
        Probabilities not of shape (..., N, K) with K >= 2 and N >= 1,
        not real, NaN or infinite, outside [0, 1] or not summing to 1; ``y_true``
        of the wrong shape or not a class; ``labels`` not of length K or
        repeating; ``sample_weight`` not of shape (N,), negative, not finite
        or summing to 0.

    Examples
    --------
    One sample of class 0 (of 3) with probabilities (1/2, 1/4, 1/4):
    F = (1/2, 3/4), O = (1, 1), RPS = ((1/2)^2 + (1/4)^2) / 2 = 5/32.

    >>> from fractions import Fraction as Fr
    >>> ranked_probability_score([0], [[Fr(1, 2), Fr(1, 4), Fr(1, 4)]], arithmetic="exact")
    5/32
    >>> ranked_probability_score(["low"], [[0.5, 0.25, 0.25]], labels=["low", "mid", "high"],
    ...                          normalize=False, arithmetic="exact")
    5/16
    >>> ranked_probability_score([0, 2], [[1, 0, 0], [1, 0, 0]], sample_weight=[3, 1],
    ...                          arithmetic="exact")                 # (3 * 0 + 1 * 1) / 4
    1/4
    """
    ctx = get_arithmetic(arithmetic)
    if not isinstance(normalize, (bool, np.bool_)):
        raise ValueError(f"normalize must be True or False, got {normalize!r}")
    a = _probabilities(proba)
    K = a.shape[-1]
    codes, n_labels = _class_codes(y_true, a.shape[:-1], labels, K)
    if n_labels is not None and n_labels != K:
        raise ValueError(f"labels has {n_labels} classes; the probabilities have K = {K}")
    P = ctx.asarray(a)
    F = np.cumsum(P, axis=-1)[..., :-1]
    O = ctx.asarray((codes[..., None] <= np.arange(K - 1)).astype(np.int64))
    per_sample = ((F - O) * (F - O)).sum(axis=-1)
    if normalize:
        per_sample = per_sample / ctx.number(K - 1)
    if sample_weight is None:
        return ctx.finalize(per_sample.sum(axis=-1) / ctx.number(a.shape[-2]))
    from .confusion import _weights

    w = _weights(sample_weight, a.shape[-2])
    if not w.any():
        raise ValueError("sample_weight sums to 0: no sample counts")
    w = ctx.asarray(w)
    return ctx.finalize((w * per_sample).sum(axis=-1) / w.sum())

