"""Confusion matrix from label vectors (rows = true class, columns = predicted)."""

from __future__ import annotations

import datetime
import numbers
import warnings
from decimal import Decimal

import numpy as np

from exactfloor.errors import LabelWarning  # defined in exactfloor.errors, re-exported here

__all__ = ["confusion_matrix", "LabelWarning", "MAX_CELLS"]

#: the largest dense count matrix built (``K * K`` cells, int64: 10**8 cells are
#: 0.75 GiB, K = 10000).  Raise it (``numeric.confusion.MAX_CELLS = ...``) where
#: the memory is there.  (Without it n_classes=10**5 was numpy's MemoryError for
#: 74.5 GiB, and 30000 classes a silent 6.7 GiB allocation.)
MAX_CELLS = 10**8


def confusion_matrix(y_true, y_pred, *, labels=None, n_classes=None, sample_weight=None):
    r"""Count matrix ``C[i, j]`` = samples of true class ``labels[i]`` predicted as ``labels[j]``.

    .. math:: C_{i,j} = \sum_k w_k\,[y_k = \ell_i]\,[\hat y_k = \ell_j]\quad (w_k = 1 \text{ by default})

    scikit-learn's convention (rows = true class), as in silva2018 and
    cardoso2011 §1.1.  george2016 and binotto2024 print the transpose.

    The order of the classes is the ordinal order every ordinal metric
    reads, so it must be known:

    * ``labels=`` gives it (every class, in ordinal order), or ``n_classes=``
      (``0, ..., K-1``), or ordered :class:`pandas.Categorical` vectors
      (their categories, all of them, in the declared order);
    * otherwise the labels must carry a natural order: numbers (integers,
      floats, bools, :class:`~fractions.Fraction`, :class:`~decimal.Decimal`)
      or datetimes and timedeltas (time order), and the classes are the
      sorted union of the observed labels;
    * strings, bytes, complex numbers, other objects and unordered
      categoricals have no ordinal order (their sort order is alphabetical,
      or arbitrary): a ``ValueError`` asks for ``labels=`` or an ordered
      categorical.

    .. warning::
       Without ``labels=`` (or ``n_classes=``) the classes are the **observed**
       labels: a class that occurs in neither vector is **dropped**, so the
       matrix has fewer rows and every ordinal distance across the gap is
       wrong (classes 0, 1, 3 become 0, 1, 2).  Pass the full ordinal list of
       classes.  A :class:`LabelWarning` is issued when the observed labels
       are not contiguous integers.

    Parameters
    ----------
    y_true, y_pred : array_like, shape (N,)
        Labels of the same length (no missing values: ``None``, NaN and
        masked entries raise).
    labels : array_like, optional
        The classes in their ordinal order; may include classes absent from
        both vectors.  Default: the categories of ordered categoricals, else
        the sorted union of the observed labels (numbers and datetimes only).
    n_classes : int, optional
        Shorthand for ``labels=range(n_classes)`` (labels ``0, ..., K-1``).
    sample_weight : array_like, shape (N,), optional
        Non-negative weight of each sample, added to its cell instead of 1
        (scikit-learn's convention).  Integer-valued weights give an
        ``int64`` matrix; other weights a ``float64`` matrix of weighted
        counts (the metrics called with label vectors take it in float
        arithmetic, all but r_int: :mod:`numeric.registry`; a float matrix
        passed to a metric directly must hold whole numbers).

    Returns
    -------
    numpy.ndarray of int64 (float64 for non-integer weights), shape (K, K)

    Raises
    ------
    ValueError
        More than :data:`MAX_CELLS` cells (``K * K``, default ``10**8``:
        10000 classes); mismatched or non-1-D label vectors, missing labels (None, NaN,
        pandas' NA, NaT), labels without a natural order (strings, ...) or
        unordered categoricals and no ``labels=``, repeated entries in
        ``labels``, a label outside ``labels``, or bad weights (negative,
        not finite, or integers whose sums exceed int64).
    TypeError
        Labels of types that cannot be ordered together (``1`` and ``"a"``,
        bytes and strings, a timedelta and an integer).

    Examples
    --------
    >>> confusion_matrix([1, 2, 3, 1, 2], [3, 2, 2, 1, 2])
    array([[1, 0, 1],
           [0, 2, 0],
           [0, 1, 0]])
    >>> confusion_matrix([0, 1], [1, 1], n_classes=3)          # class 2 kept
    array([[0, 1, 0],
           [0, 1, 0],
           [0, 0, 0]])
    >>> confusion_matrix([0, 1], [1, 1], sample_weight=[2, 3])
    array([[0, 2],
           [0, 3]])
    >>> confusion_matrix(["low", "high"], ["mid", "high"], labels=["low", "mid", "high"])
    array([[0, 1, 0],
           [0, 0, 0],
           [0, 0, 1]])
    >>> confusion_matrix(["low", "high"], ["mid", "high"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the labels are strings ('high', 'low', 'mid') and no labels= was given: ...
    """
    (t, p), lab = _label_vectors({"y_true": y_true, "y_pred": y_pred}, labels, n_classes)
    if sample_weight is not None:
        w = _weights(sample_weight, t.shape[0])
        if lab is None:
            lab = _observed(t, p)
        return _count(t, p, lab, w)
    if lab is None:
        if _all_integer(t, p) and t.size:
            return _integer_fast_path(t, p)
        return _count(t, p, _observed(t, p))
    if lab.dtype.kind in "iu" and _all_integer(t, p) and t.size:
        if np.unique(lab).size != lab.size:
            raise ValueError("labels must not repeat")
        cm = _integer_labels_fast_path(t, p, lab)
        if cm is not None:
            return cm
    return _count(t, p, lab)


def label_codes(vectors, *, labels=None, n_classes=None):
    """The classes and, for each label vector, the position of each label among them.

    The label handling of :func:`confusion_matrix` for any number of vectors
    of the same samples (:func:`numeric.compare` takes three; the metrics
    called as ``f(y_true, y_pred)`` and :func:`numeric.report` go through
    :func:`confusion_matrix`).  The rule for the order of the classes:

    * ``labels=`` (or ``n_classes=``, or ordered pandas categoricals) gives it;
    * else the observed labels must have a natural order -- numbers (ints,
      floats, bools, Fraction, Decimal) or datetimes/timedeltas -- and the
      classes are their sorted union (a :class:`LabelWarning` when they are
      not contiguous integers: an unobserved class is dropped);
    * else (strings, bytes, complex numbers, other objects, unordered
      categoricals) ``ValueError``: for ordinal metrics an alphabetical order
      is a guess, not the order of the classes.

    Missing labels and types that do not order together raise; integers
    compare exactly.

    Parameters
    ----------
    vectors : dict of str to array_like
        The label vectors by name (the name is used in error messages).
    labels, n_classes :
        As for :func:`confusion_matrix`.

    Returns
    -------
    labels : numpy.ndarray, shape (K,)
    codes : list of numpy.ndarray of intp, shape (N,)
        ``labels[codes[i][k]]`` is label ``k`` of vector ``i``.

    Examples
    --------
    >>> lab, (t, p) = label_codes({"y_true": [3, 1, 2], "y_pred": [1, 1, 3]})
    >>> lab.tolist(), t.tolist(), p.tolist()
    ([1, 2, 3], [2, 0, 1], [0, 0, 2])
    >>> lab, (t, p) = label_codes({"y_true": ["b", "a"], "y_pred": ["a", "a"]}, labels=["b", "a"])
    >>> lab.tolist(), t.tolist(), p.tolist()
    (['b', 'a'], [0, 1], [1, 1])
    """
    arrays, lab = _label_vectors(vectors, labels, n_classes)
    if lab is None:
        lab = _observed(*arrays)
    order = _label_order(lab)
    return lab, [_codes(a, lab, order, name) for name, a in zip(vectors, arrays, strict=True)]


def _label_vectors(vectors, labels, n_classes):
    """The label vectors (1-D, one length, no missing label, types that order
    together, integers comparable exactly) and the ``labels`` array (None
    when the classes are to be found)."""
    labels = _resolve_labels(vectors, labels, n_classes)
    arrays = [_label_vector(v, name) for name, v in vectors.items()]
    names = list(vectors)
    if any(a.ndim != 1 for a in arrays):
        raise ValueError(
            f"label vectors must be 1-D, got shapes {' and '.join(str(a.shape) for a in arrays)}")
    for name, a in zip(names[1:], arrays[1:], strict=True):
        if a.shape[0] != arrays[0].shape[0]:
            raise ValueError(f"mismatched label vectors: {names[0]} has {arrays[0].shape[0]} "
                             f"labels, {name} has {a.shape[0]}")
    if labels is None and arrays[0].size == 0:
        raise ValueError("label vectors are empty and no labels were given: there are no classes")
    lab = None
    if labels is not None:
        lab = _label_vector(labels, "labels")
        if lab.ndim != 1 or lab.size == 0:
            raise ValueError("labels must be a non-empty 1-D sequence")
    _check_orderable(dict(zip(names, arrays, strict=True)), lab)
    *arrays, lab = _common_integers(*arrays, lab)
    if lab is not None:
        check_cells(lab.size * lab.size, f"a confusion matrix of {lab.size} classes")
    return arrays, lab


def check_cells(cells, what, itemsize=8):
    """ValueError when ``cells`` (of ``itemsize`` bytes) exceed :data:`MAX_CELLS`,
    stating the memory it would take.

    >>> check_cells(3 * 10**4 * 3 * 10**4, "a confusion matrix of 30000 classes")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a confusion matrix of 30000 classes has 900,000,000 cells (6.7 GiB), above ...
    """
    if cells > MAX_CELLS:
        gib = cells * itemsize / 2**30
        size = f"{gib:.1f}" if gib < 1e6 else f"{gib:.3g}"
        raise ValueError(
            f"{what} has {cells:,} cells ({size} GiB), above numeric.confusion.MAX_CELLS = "
            f"{MAX_CELLS:,}; set it higher if the memory is there")


def _resolve_labels(vectors, labels, n_classes):
    """``labels`` from ``n_classes`` or from ordered categoricals."""
    if n_classes is not None:
        if labels is not None:
            raise ValueError("give labels= or n_classes=, not both")
        from ._validation import positive_integer

        K = positive_integer(n_classes, "n_classes")
        check_cells(K * K, f"a confusion matrix of {K} classes")  # before arange(K)
        return np.arange(K)
    if labels is not None:  # the given order; a categorical's own order is not needed
        return labels
    cats = [_categories(y, name) for name, y in vectors.items()]
    if all(c is None for c in cats):
        return None
    ordered = [c for c in cats if c is not None]
    if any(list(c) != list(ordered[0]) for c in ordered[1:]):
        raise ValueError(
            f"{' and '.join(vectors)} are categoricals with different categories; pass labels=")
    return ordered[0]


def _categories(y, name):
    """The categories of an ordered pandas categorical (duck-typed), None for
    another vector; ValueError for an unordered categorical (its categories
    have no order)."""
    dtype = getattr(y, "dtype", None)
    cats = getattr(dtype, "categories", None)
    if cats is None:
        return None
    if not getattr(dtype, "ordered", False):
        raise ValueError(
            f"{name} is an unordered categorical: its categories have no order, and ordinal "
            f"metrics depend on the order of the classes. {_GIVE_ORDER}")
    return np.asarray(cats)


#: how to give the order of the classes (the end of every refusal)
_GIVE_ORDER = ("Pass labels= with every class in ordinal order (labels=['low', 'mid', 'high']), "
               "or ordered pandas categoricals "
               "(pd.Categorical(y, categories=['low', 'mid', 'high'], ordered=True)).")

#: label types with a natural order (numbers, time) besides numpy's kinds ``biufmM``
_NATURAL = (numbers.Real, Decimal, np.bool_, datetime.date, datetime.time, datetime.timedelta,
            np.datetime64, np.timedelta64)


def _without_order(lab):
    """What the sorted observed labels ``lab`` are when they have no natural order
    (``"strings"``, ``"bytes"``, ...), else None."""
    kind = lab.dtype.kind
    if kind in "biufmM":
        return None
    if kind != "O":
        return {"U": "strings", "S": "bytes", "c": "complex numbers",
                "V": "records"}.get(kind, f"{lab.dtype} values")
    for v in lab.tolist():
        if isinstance(v, str):
            return "strings"
        if isinstance(v, bytes):
            return "bytes"
        if isinstance(v, numbers.Complex) and not isinstance(v, numbers.Real):
            return "complex numbers"
        if not isinstance(v, _NATURAL):
            return f"{type(v).__name__} objects"
    return None


def _label_vector(y, what):
    """``np.asarray(y)`` for labels, refusing missing values by name."""
    from ._validation import unmasked

    y = unmasked(y, what)
    if getattr(getattr(y, "dtype", None), "categories", None) is not None:
        y = np.asarray(y, dtype=object)
    try:
        a = np.asarray(y)
    except (ValueError, TypeError):
        raise ValueError(f"{what} must be a 1-D sequence of labels") from None
    if a.dtype.kind in "US" and not isinstance(y, np.ndarray):
        # numpy reads [1, "a"] as strings ("1", "a"): 1 and "1" would merge
        kinds = {_kind(v) for v in np.asarray(y, dtype=object).reshape(-1).tolist()}
        if len(kinds) > 1:
            raise TypeError(
                f"{what} mixes label types ({', '.join(sorted(kinds))}), which cannot be "
                "ordered together")
    a = _unrounded(y, a)
    if a.dtype == object:
        missing = [v for v in a.reshape(-1).tolist() if _missing(v)]
        if missing:
            v = missing[0]
            name = "None" if v is None else "NaN" if isinstance(v, float) else repr(v)
            raise ValueError(f"{what} contains {name} (a missing label); drop or fill it first")
    elif a.dtype.kind in "fc" and np.isnan(a).any():
        raise ValueError(f"{what} contains NaN (a missing label); drop or fill it first")
    elif a.dtype.kind in "mM" and np.isnat(a).any():
        raise ValueError(f"{what} contains NaT (a missing label); drop or fill it first")
    return a


def _kind(v):
    """The kind of a label for the mixed-types check: ``np.str_`` is a ``str``."""
    for base in (str, bytes):
        if isinstance(v, base):
            return base.__name__
    return type(v).__name__


def _unrounded(y, a):
    """``a = np.asarray(y)``, or ``y`` as an object array where numpy read a sequence
    as float64 and rounded an integer in it: ``[0, 3**40]``, ``[2**53 + 1, 1.0]``,
    ``[np.int64(2**62 + 1), np.uint64(1)]`` (big integers would collide)."""
    if a.dtype.kind != "f" or isinstance(y, np.ndarray):
        return a
    obj = np.asarray(y, dtype=object)
    if any(isinstance(v, (int, np.integer)) and abs(int(v)) > 2**53
           for v in obj.reshape(-1).tolist()):
        return obj
    return a


def _missing(v):
    """A missing value in an object array: None, pandas' NA and NaT, any NaN
    (float, numpy, Decimal): the values that differ from themselves."""
    if v is None or type(v).__name__ == "NAType":
        return True
    try:
        return bool(v != v)
    except (TypeError, ValueError):  # an element that compares elementwise
        return False


#: Label dtype kinds that order together; an object array is left to Python's
#: comparisons (a TypeError names its types).
_ORDER_GROUPS = {**dict.fromkeys("biuf", "numbers"), "c": "complex numbers", "U": "strings",
                 "S": "bytes", "M": "datetimes", "m": "timedeltas"}


def _check_orderable(arrays, lab):
    """TypeError for label vectors (by name) of kinds that cannot be ordered
    together: numpy would make strings of integers (``[1, 2]`` and ``["1",
    "2"]``) or seconds of integers (a timedelta and an integer)."""
    named = [(n, a) for n, a in [*arrays.items(), ("labels", lab)]
             if a is not None and a.dtype.kind in _ORDER_GROUPS]
    groups = {_ORDER_GROUPS[a.dtype.kind] for _, a in named}
    if len(groups) > 1:
        which = ", ".join(f"{n} {_ORDER_GROUPS[a.dtype.kind]} ({a.dtype})" for n, a in named)
        raise TypeError(f"labels of different types cannot be ordered together: {which}")


def _common_integers(*arrays):
    """uint64 and signed labels together: numpy would compare them as float64
    (2**63 + 1 == 2**63 + 2); cast to int64 when every value fits, else to
    Python ints (exact).  Integers beyond ``2**53`` beside floats: numpy
    would compare them as float64 too (``2**53 + 1 == 2.0**53``); all are
    cast to Python numbers, which compare exactly."""
    given = [a for a in arrays if a is not None]
    kinds = {a.dtype.kind for a in given}
    if "f" in kinds and kinds & {"i", "u"} and kinds <= {"i", "u", "f", "b"}:
        if any(a.dtype.kind in "iu" and a.size and max(abs(int(a.min())), abs(int(a.max())))
               > 2**53 for a in given):
            return tuple(None if a is None else _python_numbers(a) for a in arrays)
        return arrays
    if not ("u" in kinds and "i" in kinds) or not kinds <= {"u", "i"}:
        return arrays
    big = any(a.dtype.kind == "u" and a.size and int(a.max()) > _INT64_MAX for a in given)

    def cast(a):
        if a is None:
            return None
        return _python_numbers(a) if big else a.astype(np.int64)

    return tuple(cast(a) for a in arrays)


def _python_numbers(a):
    """A 1-D array as an object array of Python numbers (exact comparisons)."""
    out = np.empty(a.shape, dtype=object)
    out[...] = a.tolist()
    return out


def _observed(*arrays):
    """The sorted union of the observed labels, with a LabelWarning when they
    are not contiguous integers (a class absent from all would be dropped);
    ValueError for labels without a natural order (strings, ...)."""
    try:
        lab = np.unique(np.concatenate(arrays))
    except TypeError:
        kinds = sorted({_kind(v) for a in arrays for v in a.tolist()})
        raise TypeError(
            f"labels of types {', '.join(kinds)} cannot be ordered together") from None
    check_cells(lab.size * lab.size, f"a confusion matrix of {lab.size} classes")
    kind = _without_order(lab)
    if kind is not None:
        raise ValueError(
            f"the labels are {kind} ({_preview(lab.tolist())}) and no labels= was given: "
            f"{kind} have no ordinal order (sorted, they are in alphabetical or arbitrary "
            f"order), and ordinal metrics depend on the order of the classes. {_GIVE_ORDER}")
    _warn_unless_contiguous(lab)
    return lab


def _warn_unless_contiguous(lab):
    # an object array can hold numpy integers (a list of np.int64 and np.uint64)
    vals = [int(v) if isinstance(v, np.integer) else v for v in lab.tolist()]
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in vals)
    if ints and vals[-1] - vals[0] == len(vals) - 1:
        return
    what = ("the observed integer labels are not contiguous" if ints
            else "the labels are not integers: their order is the sort order")
    warnings.warn(
        f"confusion_matrix without labels=: {what} ({_preview(vals)}); a class absent from "
        "both vectors is dropped. Pass labels= (or n_classes=) in ordinal order.",
        LabelWarning, stacklevel=4)


def _preview(vals):
    return ", ".join(repr(v) for v in vals[:6]) + (", ..." if len(vals) > 6 else "")


def _weights(sample_weight, n):
    from ._validation import numeric_array

    w = numeric_array(sample_weight, "sample_weight")
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"sample_weight must have shape ({n},), got {w.shape}")
    w = _unrounded(sample_weight, w)
    if w.dtype == object:  # exact numbers, some beyond float64's integers
        ints = _integers(w.tolist())
        if ints is not None:
            if any(i < 0 for i in ints):
                raise ValueError("sample_weight must be non-negative")
            if sum(ints) >= 2**62:
                raise ValueError("sample_weight sums are too large for int64 counts")
            return np.array(ints, dtype=np.int64)
        try:  # not all integers: checked as floats below
            w = np.array([float(v) for v in w.tolist()], dtype=np.float64)
        except OverflowError:
            raise ValueError("sample_weight has a weight too large for float64") from None
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight contains NaN or infinite values")
    if np.any(w < 0):
        raise ValueError("sample_weight must be non-negative")
    if w.dtype.kind in "iu" or np.all(w == np.floor(w)):
        # every cell is at most the total: a float64 sum below 2**62 bounds
        # it below 2**63 (relative error n eps), so no int64 sum wraps around
        if np.any(w >= 2.0**62) or float(w.sum(dtype=np.float64)) >= 2.0**62:
            raise ValueError("sample_weight sums are too large for int64 counts")
        return w.astype(np.int64)
    return w.astype(np.float64)


def _integers(vals):
    """The exact numbers ``vals`` as Python ints, or None when one is not an
    integer (a fraction, NaN or an infinity)."""
    try:
        ints = [int(v) for v in vals]
    except (OverflowError, ValueError):  # an infinity, a NaN
        return None
    return ints if all(i == v for i, v in zip(ints, vals, strict=True)) else None


def _label_order(lab):
    """The permutation that sorts ``lab`` (ValueError if a label repeats)."""
    try:
        if np.unique(lab).size != lab.size:
            raise ValueError("labels must not repeat")
        return np.argsort(lab, kind="stable")
    except TypeError:
        raise TypeError("labels of different types cannot be ordered together") from None


def _codes(v, lab, order, name):
    """The position in ``lab`` of each label of ``v`` (ValueError naming a stray one)."""
    K = lab.size
    sorted_lab = lab[order]
    try:
        pos = np.searchsorted(sorted_lab, v)
    except TypeError:
        raise TypeError(
            f"{name} holds labels that cannot be compared with labels={_preview(lab.tolist())}"
        ) from None
    pos_c = np.minimum(pos, K - 1)
    bad = sorted_lab[pos_c] != v if v.size else np.zeros(0, dtype=bool)
    if np.any(bad):
        bad_label = v[np.argmax(bad)]
        bad_label = bad_label.item() if hasattr(bad_label, "item") else bad_label
        raise ValueError(f"label {bad_label!r} in {name} is not in labels")
    return order[pos_c]


def _count(t, p, lab, w=None):
    """The general path: codes of the labels in ``lab``, then a (weighted) count."""
    order = _label_order(lab)
    K = lab.size
    flat_codes = _codes(t, lab, order, "y_true") * K + _codes(p, lab, order, "y_pred")
    if w is None:
        flat = np.bincount(flat_codes, minlength=K * K).astype(np.int64)
    elif w.dtype == np.int64:
        flat = np.zeros(K * K, dtype=np.int64)
        np.add.at(flat, flat_codes, w)  # no wrap-around: _weights bounds the sum
    else:
        flat = np.bincount(flat_codes, weights=w, minlength=K * K)
    return flat.reshape(K, K)


_INT64_MAX = 2**63 - 1


#: Labels per chunk of the integer fast path: the chunk's index buffer stays in
#: cache, so the labels are read from memory once (no N-long temporary).
_CHUNK = 1 << 16


def _all_integer(t, p):
    # dtype kinds, not np.issubdtype: numpy files timedelta64 under np.integer,
    # and the fast path's int() of a label refuses a timedelta
    return t.dtype.kind in "iu" and p.dtype.kind in "iu"


def _integer_fast_path(t, p):
    """Integer labels, no ``labels``: count on the value range, keep observed classes."""
    counted = _count_value_range(t, p)
    if counted is None:
        return _count(t, p, _observed(t, p))
    acc, lo = counted
    present = (acc.sum(axis=0) + acc.sum(axis=1)) > 0
    if present.all():
        return acc.astype(np.int64, copy=False)
    _warn_unless_contiguous(lo + np.flatnonzero(present))
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

    The only value-range path (issue 26): a second one for labels in
    ``[0, 4096)`` (range checks on unsigned views, runs of chunks, pairs of
    codes for up to 11 classes) was 0.97-1.3x as fast on 10**7 labels (0.75x
    at 4096 classes), its pairs of codes 1.06-1.16x; this path is as fast as
    ``np.bincount(t*K+p)`` with ``K`` known (``benchmarks/confusion_workload.py``).
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
        _add_counts(flat, x)
    return acc, lo


def _add_counts(flat, codes):
    """``flat[c] += 1`` for each code: ``np.bincount`` for a table no larger than
    the chunk, else ``np.add.at``, whose cost does not grow with the table (a
    bincount of each chunk over a table of 4096**2 cells took 3.3 s for 10**7
    labels, ``np.add.at`` 0.1 s)."""
    if len(flat) <= _CHUNK:
        flat += np.bincount(codes, minlength=len(flat))
    else:
        np.add.at(flat, codes, 1)
