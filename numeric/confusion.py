"""Confusion matrix from label vectors (rows = true class, columns = predicted)."""

from __future__ import annotations

import numpy as np

__all__ = ["confusion_matrix"]


def confusion_matrix(y_true, y_pred, *, labels=None):
    r"""Count matrix ``C[i, j]`` = samples of true class ``labels[i]`` predicted as ``labels[j]``.

    .. math:: C_{i,j} = \#\{k : y_k = \ell_i,\ \hat y_k = \ell_j\}

    scikit-learn's convention (rows = true class), as in silva2018 and
    cardoso2011 §1.1.  george2016 and binotto2024 print the transpose.

    Parameters
    ----------
    y_true, y_pred : array_like, shape (N,)
        Labels of the same length.
    labels : array_like, optional
        The classes in their ordinal order; may include classes absent from
        both vectors.  Default: the sorted union of the observed labels.

    Returns
    -------
    numpy.ndarray of int64, shape (K, K)

    Raises
    ------
    ValueError
        Mismatched or non-1-D label vectors, repeated entries in ``labels``,
        or a label outside ``labels``.

    Examples
    --------
    >>> confusion_matrix([1, 2, 3, 1, 2], [3, 2, 2, 1, 2])
    array([[1, 0, 1],
           [0, 2, 0],
           [0, 1, 0]])
    """
    t = np.asarray(y_true)
    p = np.asarray(y_pred)
    if t.ndim != 1 or p.ndim != 1:
        raise ValueError(
            f"label vectors must be 1-D, got shapes {t.shape} and {p.shape}"
        )
    if t.shape[0] != p.shape[0]:
        raise ValueError(
            f"mismatched label vectors: y_true has {t.shape[0]} labels, y_pred has {p.shape[0]}"
        )
    if labels is None:
        if np.issubdtype(t.dtype, np.integer) and np.issubdtype(p.dtype, np.integer) and t.size:
            return _integer_fast_path(t, p)
        lab = np.unique(np.concatenate([t, p]))
    else:
        lab = np.asarray(labels)
        if lab.ndim != 1 or lab.size == 0:
            raise ValueError("labels must be a non-empty 1-D sequence")
        if np.unique(lab).size != lab.size:
            raise ValueError("labels must not repeat")
    K = lab.size
    order = np.argsort(lab, kind="stable")
    sorted_lab = lab[order]
    codes = []
    for name, v in (("y_true", t), ("y_pred", p)):
        pos = np.searchsorted(sorted_lab, v)
        pos_c = np.minimum(pos, K - 1)
        bad = sorted_lab[pos_c] != v
        if np.any(bad):
            raise ValueError(f"label {v[np.argmax(bad)]!r} in {name} is not in labels")
        codes.append(order[pos_c])
    flat = np.bincount(codes[0] * K + codes[1], minlength=K * K)
    return flat.reshape(K, K).astype(np.int64)


def _integer_fast_path(t, p):
    """Integer labels, no ``labels``: count on the value range, keep observed classes."""
    lo = min(t.min(), p.min())
    hi = max(t.max(), p.max())
    span = int(hi) - int(lo) + 1
    if span > 4096 or span * span > 8 * t.size + 4096:
        lab = np.unique(np.concatenate([t, p]))
        return confusion_matrix(t, p, labels=lab)
    ti = (t - lo).astype(np.intp, copy=False)
    pi = (p - lo).astype(np.intp, copy=False)
    full = np.bincount(ti * span + pi, minlength=span * span).reshape(span, span)
    present = (full.sum(axis=0) + full.sum(axis=1)) > 0
    if present.all():
        return full.astype(np.int64, copy=False)
    return full[np.ix_(present, present)].astype(np.int64)
