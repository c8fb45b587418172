"""``confusion_matrix`` against its definition on any integer label vectors.

The integer fast path of :mod:`numeric.confusion` counts chunk by chunk on a
value range that grows as chunks reveal new extremes; its earlier variants
(runs of chunks, pairs of codes, range checks on unsigned views) each had a
bug that counted a label in a wrong cell or hung (a negative ``int8`` label, a
true label far outside the first chunk's range, big-endian labels).  Here hypothesis draws
label vectors of every integer type in both byte orders, two types at once,
values from small classes to the ends of each type, sorted or not, and the
chunk is made small (``_CHUNK`` patched to a few labels) so that short vectors
cross many chunk and run boundaries.  The reference is the definition,

.. math:: C_{i,j} = \\sum_k [y_k = \\ell_i]\\,[\\hat y_k = \\ell_j],

counted over Python ints (exact for every type), with the classes the sorted
union of the observed labels, or the given ``labels``.
"""
from __future__ import annotations

import warnings
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numeric
import numeric.confusion

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)

TYPES = [f"{order}{kind}{size}" for order in "<>" for kind in "iu" for size in (1, 2, 4, 8)]


def _definition(t, p, labels):
    """The counts of the pairs (labels[i], labels[j]), over Python ints."""
    pairs = Counter(zip(t.tolist(), p.tolist()))
    return [[pairs[(a, b)] for b in labels] for a in labels]


@st.composite
def label_vectors(draw):
    """Two label vectors of integer types (the same or two), and a chunk size.

    Each vector holds a few small classes (random, from a drawn seed) with some
    values put in at drawn places: the edges of the fast path's ranges (11 and
    12 classes for the pair counting, 4095 and 4096), negatives and the ends of
    the type.  Vectors of up to 20,000 labels: the fast path takes a wide table
    (a label -1 is 255 on an ``int8``'s unsigned view) only for enough labels
    (``s**2 <= 8 n + 4096``).
    """
    types = [np.dtype(draw(st.sampled_from(TYPES)))]
    types.append(types[0] if draw(st.booleans()) else np.dtype(draw(st.sampled_from(TYPES))))
    n = draw(st.one_of(st.integers(1, 60), st.integers(7_000, 20_000)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    vectors = []
    for dtype in types:
        info = np.iinfo(dtype)
        special = [v for v in (-1, -100, 10, 11, 12, 255, 256, 4095, 4096, info.min, info.max)
                   if info.min <= v <= info.max]
        classes = draw(st.sampled_from([1, 2, 5, 11, 12, 40]))
        values = rng.integers(0, classes, n).astype(object)
        for _ in range(draw(st.integers(0, 3))):
            values[draw(st.integers(0, n - 1))] = draw(st.sampled_from(special))
        if draw(st.booleans()):
            values = np.sort(values)
        vectors.append(np.array(values.tolist(), dtype=dtype))
    chunk = draw(st.sampled_from([2, 4, 6, 16, 1024]))  # _CHUNK must be even
    return vectors[0], vectors[1], chunk


@SETTINGS
@given(label_vectors(), st.data())
def test_confusion_matrix_is_its_definition_on_any_integer_labels(vectors, data):
    t, p, chunk = vectors
    observed = sorted(set(t.tolist()) | set(p.tolist()))
    with mock.patch.object(numeric.confusion, "_CHUNK", chunk), warnings.catch_warnings():
        warnings.simplefilter("ignore", numeric.LabelWarning)
        assert numeric.confusion_matrix(t, p).tolist() == _definition(t, p, observed)
        # labels= in ordinal order, with a class observed in neither vector when one fits
        labels = list(observed)
        spare = [v for v in range(-2, 20) if v not in observed]
        if data.draw(st.booleans()) and spare:
            labels = sorted(labels + [spare[0]])
        assert numeric.confusion_matrix(t, p, labels=labels).tolist() == \
            _definition(t, p, labels)


def test_the_property_test_reaches_the_fast_path_and_its_growing_range():
    """The patched chunk is what the fast path reads: with ``_CHUNK = 2`` sorted
    labels 0, 0, 1, 1, 2, 2 widen the value range at each chunk (tables of 1, 4
    and 9 cells), and the counts are still the definition's (the diagonal)."""
    t = np.array([0, 0, 1, 1, 2, 2])
    calls = []
    add = numeric.confusion._add_counts

    def spy(flat, codes):
        calls.append(len(flat))  # the table's cells, span ** 2
        return add(flat, codes)

    with mock.patch.object(numeric.confusion, "_CHUNK", 2), \
            mock.patch.object(numeric.confusion, "_add_counts", spy):
        assert numeric.confusion_matrix(t, t).tolist() == _definition(t, t, [0, 1, 2])
    assert calls == [1, 4, 9]


@pytest.mark.parametrize("dtype", [">i8", ">u2", "<i1"])
def test_definition_reference_counts_a_known_matrix(dtype):
    """The reference itself, on the docstring example of ``confusion_matrix``
    (y_true 1, 2, 3, 1, 2 and y_pred 3, 2, 2, 1, 2)."""
    t = np.array([1, 2, 3, 1, 2], dtype=dtype)
    p = np.array([3, 2, 2, 1, 2], dtype=dtype)
    assert _definition(t, p, [1, 2, 3]) == [[1, 0, 1], [0, 2, 0], [0, 1, 0]]
    assert numeric.confusion_matrix(t, p).tolist() == [[1, 0, 1], [0, 2, 0], [0, 1, 0]]
