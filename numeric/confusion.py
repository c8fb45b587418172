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
    if labels is None and t.size == 0:
        raise ValueError("label vectors are empty and no labels were given: there are no classes")
    if labels is None:
        if _all_integer(t, p) and t.size:
            return _integer_fast_path(t, p)
        lab = np.unique(np.concatenate([t, p]))
    else:
        lab = np.asarray(labels)
        if lab.ndim != 1 or lab.size == 0:
            raise ValueError("labels must be a non-empty 1-D sequence")
        if np.unique(lab).size != lab.size:
            raise ValueError("labels must not repeat")
        if lab.dtype.kind in "iu" and _all_integer(t, p) and t.size:
            cm = _integer_labels_fast_path(t, p, lab)
            if cm is not None:
                return cm
    K = lab.size
    order = np.argsort(lab, kind="stable")
    sorted_lab = lab[order]
    codes = []
    for name, v in (("y_true", t), ("y_pred", p)):
        pos = np.searchsorted(sorted_lab, v)
        pos_c = np.minimum(pos, K - 1)
        bad = sorted_lab[pos_c] != v
        if np.any(bad):
            bad_label = v[np.argmax(bad)]
            bad_label = bad_label.item() if hasattr(bad_label, "item") else bad_label
            raise ValueError(f"label {bad_label!r} in {name} is not in labels")
        codes.append(order[pos_c])
    flat = np.bincount(codes[0] * K + codes[1], minlength=K * K)
    return flat.reshape(K, K).astype(np.int64)


#: Labels per chunk of the integer fast path: the chunk's index buffer stays in
#: cache, so the labels are read from memory once (no N-long temporary).
_CHUNK = 1 << 16


def _all_integer(t, p):
    return np.issubdtype(t.dtype, np.integer) and np.issubdtype(p.dtype, np.integer)


def _integer_fast_path(t, p):
    """Integer labels, no ``labels``: count on the value range, keep observed classes."""
    counted = _count_value_range(t, p)
    if counted is None:
        lab = np.unique(np.concatenate([t, p]))
        return confusion_matrix(t, p, labels=lab)
    acc, _ = counted
    present = (acc.sum(axis=0) + acc.sum(axis=1)) > 0
    if present.all():
        return acc.astype(np.int64, copy=False)
    return acc[np.ix_(present, present)].astype(np.int64)


def _integer_labels_fast_path(t, p, lab):
    """Integer labels and integer ``labels``: count on the value range, then
    place each observed value at its position in ``labels``.

    ``None`` (the general path decides, and names a stray label) when the
    range is too wide or an observed value is not in ``labels``.
    """
    counted = _count_value_range(t, p)
    if counted is None:
        return None
    acc, lo = counted
    present = np.flatnonzero((acc.sum(axis=0) + acc.sum(axis=1)) > 0)
    where = {v: i for i, v in enumerate(lab.tolist())}
    idx = [where.get(lo + int(k)) for k in present]
    if None in idx:
        return None
    K = lab.size
    out = np.zeros((K, K), dtype=np.int64)
    out[np.ix_(idx, idx)] = acc[np.ix_(present, present)]
    return out


def _count_value_range(t, p):
    """Counts ``acc[i, j]`` of the pairs ``(lo + i, lo + j)`` over the value range, and ``lo``.

    The labels are counted chunk by chunk (``np.bincount`` of
    ``(t - lo) * span + (p - lo)`` over a cache-sized chunk); the value range
    ``[lo, hi]`` grows as chunks reveal new extremes.  ``None`` for a wide or
    huge range (the callers use the general path).
    """
    n = t.size
    lo = hi = span = off = None
    acc = flat = None
    buf = np.empty(min(n, _CHUNK), dtype=np.intp)
    for s in range(0, n, _CHUNK):
        tc, pc = t[s:s + _CHUNK], p[s:s + _CHUNK]
        clo = int(min(tc.min(), pc.min()))
        chi = int(max(tc.max(), pc.max()))
        if acc is None or clo < lo or chi > hi:
            nlo = clo if lo is None else min(lo, clo)
            nhi = chi if hi is None else max(hi, chi)
            nspan = nhi - nlo + 1
            if nspan > 4096 or nspan * nspan > 8 * n + 4096 or max(-nlo, nhi) >= 2**31:
                return None
            grown = np.zeros((nspan, nspan), dtype=np.intp)
            if acc is not None:
                o = lo - nlo
                grown[o:o + span, o:o + span] = acc
            acc, flat = grown, grown.reshape(-1)
            lo, hi, span = nlo, nhi, nspan
            off = lo * span + lo
        x = buf[:tc.size]
        np.multiply(tc, span, out=x, dtype=np.intp, casting="unsafe")
        np.add(x, pc, out=x, dtype=np.intp, casting="unsafe")
        if off:
            x -= off
        flat += np.bincount(x, minlength=span * span)
    return acc, lo
