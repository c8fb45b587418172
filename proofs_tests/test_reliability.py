"""Regression tests of issue 10: no silent wrong number at any count or input.

Each expected value is an exact derivation stated next to it, the exact
arithmetic of the same function (the reference), or scikit-learn.
"""

from __future__ import annotations

import importlib

import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
import sympy

import numeric
from ordinal_verify import main
from ordinal_verify.inputs import InputError, read_matrix
from exactfloor.parsing import parse_number
from numeric.registry import REGISTRY

METRICS = [m for m in REGISTRY.values() if m.takes_matrix]  # RPS: test_metrics_beyond_sources


def rel(a, b):
    return abs(float(a) - float(b)) / max(1.0, abs(float(b)))


# ---------------------------------------------------------------------------
# cancellation
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("big", [10**15, 2**53, 10**17])
def test_tau_b_huge_diagonal_is_one(big):
    # [[big, 0], [0, 1]]: C = big, D = 0, n0 - n1 = n0 - n2 = big (one pair per
    # sample of class 0 with the sample of class 1), so tau_b = big / big = 1
    # (it was 1.015 at 1e15 and inf at 2**53)
    cm = [[big, 0], [0, 1]]
    assert numeric.kendall_tau_b(cm) == 1.0
    assert numeric.kendall_tau_b(cm, arithmetic="exact") == 1
    assert numeric.kendall_tau_b(cm, arithmetic="mp") == 1  # default dps: no 0 / 0


@pytest.mark.parametrize("name", ["kendall_tau_b", "spearman_rs", "r_int"])
def test_ranking_float_matches_exact_at_large_counts(name):
    f = getattr(numeric, name)
    rng = np.random.default_rng(10)
    for _ in range(20):
        K = int(rng.integers(2, 5))
        cm = rng.integers(0, 20, (K, K))
        cm[int(rng.integers(K)), int(rng.integers(K))] = 10**15
        cm[np.arange(K), np.arange(K)] += 1
        # reference: the exact arithmetic of the same formula
        assert rel(f(cm), f(cm, arithmetic="exact")) <= 1e-12, cm.tolist()


def test_exact_sqrt_of_integers_where_sympy_1_14_raises():
    """sympy/sympy#28621: in SymPy 1.14.0 ``sqrt`` of this integer (from the
    issue's report) raises ValueError inside ``factorint``; the exact
    arithmetic must return its root (checked by squaring), and metrics whose
    exact value holds such roots must not raise."""
    from exactfloor.arith import get_arithmetic

    m = 978188756923448938700236182276357436
    root = get_arithmetic("exact").sqrt(np.array(m, dtype=object))
    assert root**2 == m
    cm = np.array([[10**15 + 7, 3, 0], [5, 10**15, 2], [0, 1, 10**15 - 4]])
    for f in (numeric.r_int, numeric.rmse, numeric.kendall_tau_b, numeric.spearman_rs):
        exact = f(cm, arithmetic="exact")
        assert abs(float(exact) - f(cm)) <= 1e-12


def test_spearman_and_r_int_huge_diagonal():
    # [[big, 0], [0, 1]] is a perfect ranking: R_s = 1 (perfect correlation);
    # r_int: S_1 = S_2 = S_1 & S_2 (identical orders), so -1 + 2 = 1
    for big in (10**15, 10**17):
        cm = [[big, 0], [0, 1]]
        assert numeric.spearman_rs(cm) == 1.0
        assert numeric.r_int(cm) == 1.0


@pytest.mark.parametrize("name", ["stc", "tc", "george_d"])
def test_cost_metrics_at_1e17(name):
    f = getattr(numeric, name)
    # true class 0 holds almost every sample: N - n_0 = 11 is lost in float
    # N = 1e17 + 11 (its ulp is 16); the reference is the exact arithmetic
    for cm in ([[10**17 + 1, 0], [1, 10]], [[10**17, 3, 0], [1, 2, 3], [0, 5, 6]],
               [[9, 4], [10**17, 10]]):
        assert rel(f(cm), f(cm, arithmetic="exact")) <= 1e-12, cm


def test_george_d_error_term_at_high_accuracy():
    # 1 - Acc = 1 / (1e17 + 1); MC = STC; d = sqrt((1 - Acc)^2 + MC^2) is of order
    # 1e-17 and must not be rounded to the MC term alone (1 - trace/N = 0 in float)
    cm = [[10**17, 1], [0, 1]]
    assert rel(numeric.george_d(cm) * 1e17, numeric.george_d(cm, arithmetic="exact") * 10**17) \
        <= 1e-12


# ---------------------------------------------------------------------------
# optimal_last_length with algebraic lengths
# ---------------------------------------------------------------------------
def test_optimal_last_length_algebraic_lengths():
    # the cubic piece's critical point of this case was an IndexError (Cardano in
    # casus irreducibilis); the reference is the float computation of the same
    # piecewise minimisation
    n, first = [2, 3, 4, 5], [1, sympy.sqrt(2), sympy.Rational(1, 3)]
    ex = numeric.optimal_last_length(n, first, arithmetic="exact")
    fl = numeric.optimal_last_length(n, [float(v) for v in first])
    assert rel(ex.x, fl.x) <= 1e-12 and rel(ex.minimum, fl.minimum) <= 1e-12
    # the minimum is the value of interval_tc_max at x (its definition)
    at = numeric.interval_tc_max(n, [*first, ex.x], arithmetic="exact")
    assert abs(sympy.N(at - ex.minimum, 50)) < 1e-40


def test_cubic_root_with_radical_coefficients():
    from exactfloor.arith import get_arithmetic
    from numeric.intervals import cubic_positive_root

    a, c, e = 5 * sympy.sqrt(2) / 7 + 1, sympy.sqrt(3), sympy.sqrt(2) / 5
    x = cubic_positive_root(a, c, e, get_arithmetic("exact"))
    # x is the root of 2 e x^3 + c x^2 - a: the residual vanishes to 50 digits
    assert x > 0 and abs(sympy.N(2 * e * x**3 + c * x**2 - a, 60)) < 1e-50


# ---------------------------------------------------------------------------
# bad counts: ValueError naming the problem
# ---------------------------------------------------------------------------
BAD_COUNTS = [
    ([[10**400, 0], [0, 1]], "too large for int64"),
    (np.array([[1, 2], [3, 4]], dtype="m8[s]"), "times, not counts"),
    (np.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [0, 0]]), "masked array"),
    (np.array([[1, 2], [3, None]], dtype=object), "must hold real numbers"),
]


@pytest.mark.parametrize("cm, message", BAD_COUNTS, ids=["1e400", "timedelta", "masked", "None"])
@pytest.mark.parametrize("m", METRICS, ids=[m.name for m in METRICS])
def test_bad_counts_named(m, cm, message):
    from proofs_tests.test_fuzz import call

    with pytest.raises(ValueError, match=message):
        call(m, cm, "float", K=2)


def test_unmasked_masked_array_is_used():
    # a masked array with nothing masked is its data: MAE of [[1, 2], [3, 4]] = 5/10
    assert numeric.mae(np.ma.array([[1, 2], [3, 4]]), arithmetic="exact") == sympy.Rational(1, 2)


def test_huge_beta_and_lengths_named():
    with pytest.raises(ValueError, match="beta is too large"):
        numeric.uoc([[1, 0], [0, 1]], 10**400)
    with pytest.raises(ValueError, match="too large"):
        numeric.interval_tc([[1, 0], [0, 1]], [1, 10**400])


# ---------------------------------------------------------------------------
# labels
# ---------------------------------------------------------------------------
def test_none_and_nan_labels_named():
    with pytest.raises(ValueError, match="contains None"):
        numeric.confusion_matrix([None, 1], [1, None])
    with pytest.raises(ValueError, match="contains NaN"):
        numeric.confusion_matrix([0.0, np.nan], [0.0, 1.0])
    with pytest.raises(ValueError, match="masked array"):
        numeric.confusion_matrix(np.ma.array([0, 1], mask=[0, 1]), [0, 1])
    with pytest.raises(TypeError, match="cannot be ordered"):
        numeric.confusion_matrix([1, "a"], ["a", 1])


def test_uint64_int64_labels_exact():
    from sklearn.metrics import confusion_matrix as sk

    # 2**63 and 2**63 + 1 are distinct classes (numpy's common type float64 merges them)
    t = np.array([2**63, 2**63 + 1, 5], dtype=np.uint64)
    p = np.array([2**63 + 1, 2**63, 5], dtype=np.uint64)
    labels = [5, 2**63, 2**63 + 1]
    expected = [[1, 0, 0], [0, 0, 1], [0, 1, 0]]  # by hand: 5->5, the two big ones swapped
    assert numeric.confusion_matrix(t, p, labels=np.array(labels, dtype=np.uint64)).tolist() \
        == expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numeric.LabelWarning)
        assert numeric.confusion_matrix(t, p).tolist() == expected
    # uint64 with int64 labels that fit: as int64 (scikit-learn agrees)
    t2, p2 = np.array([1, 2, 3], dtype=np.uint64), np.array([3, 2, 1], dtype=np.int64)
    assert numeric.confusion_matrix(t2, p2).tolist() == sk(t2, p2).tolist()
    # big Python ints in lists are not read as float64
    big = 3**40
    assert numeric.confusion_matrix([big, big + 1], [big + 1, big], labels=[big, big + 1]) \
        .tolist() == [[0, 1], [1, 0]]


@pytest.mark.parametrize("stray", [2**62, 2**60 + 2, 2**40 + 1, 16, -1, -(2**62), -(2**63) + 3])
@pytest.mark.parametrize("side", ["true", "pred"])
def test_out_of_range_label_in_a_later_chunk_is_counted_right(stray, side):
    """The labels of the first chunk (2**16 of them) are 0..3; one label of the last chunk
    is far outside that range.  A shifted 2**62 wraps around in int64 and once landed in
    cell (0, 0): the count must be scikit-learn's (the peer), one sample in its own class."""
    from sklearn.metrics import confusion_matrix as sk

    rng = np.random.default_rng(3)
    t, p = rng.integers(0, 4, size=(2, 65_546))
    assert t.size > numeric.confusion._CHUNK  # the stray label is in a later chunk
    (t if side == "true" else p)[-1] = stray
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numeric.LabelWarning)
        assert numeric.confusion_matrix(t, p).tolist() == sk(t, p).tolist()


@pytest.mark.filterwarnings("ignore:A single label was found")
@pytest.mark.filterwarnings("ignore::numeric.LabelWarning")  # few samples: classes unobserved
@pytest.mark.parametrize("K", [1, 2, 11, 12])
def test_labels_counted_chunk_by_chunk_are_counted_right(K):
    """The value-range path counts chunk by chunk: the counts must be scikit-learn's
    (the peer) at lengths around the chunk size, odd ones included, for several
    integer dtypes, and when a later chunk leaves the range of the chunks before it
    (a class first seen late; sorted labels), where the range grows."""
    from sklearn.metrics import confusion_matrix as sk

    chunk = numeric.confusion._CHUNK
    rng = np.random.default_rng(K)
    for n in (1, 2, 3, chunk - 1, chunk, chunk + 1, 2 * chunk + 3):
        for dtype in (np.int64, np.int32, np.uint8):
            t, p = rng.integers(0, K, size=(2, n)).astype(dtype)
            t[0] = K - 1  # the first chunk holds the largest label
            assert numeric.confusion_matrix(t, p).tolist() == sk(t, p).tolist(), (n, dtype)
    t, p = rng.integers(0, K, size=(2, chunk + 5))
    t[-1] = K  # a class beyond the first chunk's range, in the last chunk
    assert numeric.confusion_matrix(t, p, labels=range(K + 1)).tolist() == \
        sk(t, p, labels=range(K + 1)).tolist()
    t = np.sort(rng.integers(0, K, 3 * chunk + 1))  # each chunk: one class or two
    p = np.clip(t + rng.integers(-1, 2, t.size), 0, K - 1)
    assert numeric.confusion_matrix(t, p).tolist() == sk(t, p).tolist()


@pytest.mark.parametrize("dtype", [np.int8, np.int16])
@pytest.mark.parametrize("at", [5, 70_000])
@pytest.mark.parametrize("side", ["true", "pred"])
def test_negative_narrow_int_label_is_counted_right(dtype, at, side):
    """A label -1 of a narrow signed type is 255 (int8) or 65535 (int16) on the unsigned
    view the fast path checks; in int8 that is inside the range of 4096 labels it counts,
    and in 7b86f8a it was read as class 255 and counted in a wrong cell of a 4x4 matrix
    without a word.  Beside a wider vector, a negative label of the narrow one was below
    the range on its unsigned view and `np.bincount` raised on a negative code.  The
    counts must be scikit-learn's (the peer), in the first chunk and in a later one."""
    from sklearn.metrics import confusion_matrix as sk

    rng = np.random.default_rng(4)
    t, p = rng.integers(0, 3, size=(2, 100_000)).astype(dtype)
    assert 5 < numeric.confusion._CHUNK < 70_000 < t.size  # the first chunk, a later one
    (t if side == "true" else p)[at] = -1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numeric.LabelWarning)
        assert numeric.confusion_matrix(t, p).tolist() == sk(t, p).tolist()
        # the other vector wider, with labels up to 255: -100 is 156 on the uint8 view,
        # below the range of 256 labels, unless the two are cast to a common type
        other = (p if side == "true" else t).astype(np.int32)
        other[[0, -1]] = 255
        (t if side == "true" else p)[at] = -100
        pair = (t, other) if side == "true" else (other, p)
        assert numeric.confusion_matrix(*pair).tolist() == sk(*pair).tolist()


def _returns_within(seconds, f, *args, **kwargs):
    """``f(*args, **kwargs)``, or a failing assertion (not a hung test run) when it
    has not returned after ``seconds``."""
    out, err = [], []

    def run():
        try:
            out.append(f(*args, **kwargs))
        except BaseException as e:  # re-raised in the test's thread
            err.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if err:
        raise err[0]
    assert out, f"{f.__name__} had not returned after {seconds} s"
    return out[0]


@pytest.mark.parametrize("dtypes", [(">i8", ">i8"), (">i2", ">i2"), (">u4", ">u4"),
                                    (">i8", "<i2"), ("<i4", ">i4")])
@pytest.mark.parametrize("n", [5, 100_000])
def test_big_endian_labels_are_counted_right(dtypes, n):
    """The fast path checks each chunk's range on unsigned views, which read the
    machine's byte order: a big-endian 1 was ``2**56`` there, so in af7ad29 the first
    chunk of big-endian labels failed its own range check and the counting loop never
    advanced (the call hung; a column read from a big-endian file or buffer is one).
    The counts must be scikit-learn's (the peer), with and without ``labels=``, in one
    chunk and in several."""
    from sklearn.metrics import confusion_matrix as sk

    rng = np.random.default_rng(n)
    t, p = (rng.integers(0, 5, n).astype(d) for d in dtypes)
    t[:5] = range(5)  # every class observed: no LabelWarning
    assert 5 < numeric.confusion._CHUNK < 100_000  # one chunk, several
    want = sk(t.astype(np.int64), p.astype(np.int64), labels=range(5))
    assert _returns_within(60, numeric.confusion_matrix, t, p).tolist() == want.tolist()
    assert _returns_within(60, numeric.confusion_matrix, t, p, labels=range(5)).tolist() \
        == want.tolist()
    assert _returns_within(60, numeric.confusion_matrix, t, p, n_classes=5).tolist() \
        == want.tolist()


def test_timedelta_labels_are_counted_right():
    """numpy files ``timedelta64`` under ``np.integer``, so in af7ad29 such labels took
    the integer fast path, whose ``int()`` of a label raised TypeError.  They are
    ordered labels like any other (a LabelWarning names the sort order); the counts
    must be scikit-learn's (the peer), with and without ``labels=``."""
    from sklearn.metrics import confusion_matrix as sk

    t = np.array([0, 1, 2, 2, 5], dtype="m8[s]")
    p = np.array([1, 1, 2, 0, 5], dtype="m8[s]")
    with pytest.warns(numeric.LabelWarning, match="not integers"):
        assert numeric.confusion_matrix(t, p).tolist() == sk(t, p).tolist()
    lab = np.arange(6).astype("m8[s]")
    assert numeric.confusion_matrix(t, p, labels=lab).tolist() == sk(t, p, labels=lab).tolist()


def test_integers_beyond_float64_beside_floats_are_compared_exactly():
    """numpy compares int64 with float64 labels as float64, where 2**53 + 1 == 2**53,
    and reads a list of np.int64 and np.uint64 as float64; both merged two classes
    without a word (found reviewing 86382cb).  Expected: the definition, counted
    over Python numbers (scikit-learn agrees on the first)."""
    from sklearn.metrics import confusion_matrix as sk

    t, p = [2**53 + 1, 2**53], [2.0**53, 2.0**53]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numeric.LabelWarning)
        assert numeric.confusion_matrix(t, p).tolist() == [[1, 0], [1, 0]] == sk(t, p).tolist()
        t = [np.int64(2**62 + 1), np.uint64(2**62)]
        assert numeric.confusion_matrix(t, [np.int64(2**62 + 1)] * 2).tolist() == \
            [[0, 1], [0, 1]]
    with pytest.raises(ValueError, match="9007199254740993 in y_true is not in labels"):
        numeric.confusion_matrix([2**53 + 1], [2**53 + 1], labels=[2.0**53])


def test_integer_weights_are_exact_and_their_sums_do_not_wrap():
    """Integer weights were summed in int64 with only a sign check: 8 weights of 2**61
    gave a count of 0 and 9 a positive wrong count; integers beyond 2**53 beside a
    float, or in an object array, were rounded through float64; 10**400 raised
    OverflowError.  Expected: the exact sums (Python ints), else ValueError."""
    for n in (2, 8, 9):
        with pytest.raises(ValueError, match="sums are too large for int64"):
            numeric.confusion_matrix([0] * n, [0] * n, sample_weight=[2**61] * n)
    assert numeric.confusion_matrix([0, 0], [0, 0], sample_weight=[2**53 + 1, 1.0]).tolist() \
        == [[2**53 + 2]]
    w = np.array([2**53 + 1, 0], dtype=object)
    assert numeric.confusion_matrix([0, 0], [0, 0], sample_weight=w).tolist() == [[2**53 + 1]]
    with pytest.raises(ValueError, match="too large for int64"):
        numeric.confusion_matrix([0], [0], sample_weight=[10**400])
    with pytest.raises(ValueError, match="too large for float64"):
        numeric.confusion_matrix([0, 1], [0, 1], sample_weight=[10**400, 0.5])


@pytest.mark.parametrize("t, p, match", [
    ([1, 2], ["1", "2"], "y_true numbers .* y_pred strings"),
    ([b"a"], ["a"], "y_true bytes .* y_pred strings"),
    (np.array(["2020-01-01"], dtype="M8[D]"), np.array([1]), "datetimes .* numbers"),
    (np.array([1], dtype="m8[s]"), np.array([1]), "timedeltas .* numbers"),
    (np.array([1], dtype=object), np.array(["a"], dtype=object), "types int, str"),
])
def test_labels_of_types_that_do_not_order_raise_type_error(t, p, match):
    """numpy made strings of the integers ([1, 2] against ["1", "2"]: "label 1 is not in
    labels"), seconds of an integer beside a timedelta, or leaked its DTypePromotionError
    from the error handler; each is a TypeError naming the two types."""
    with pytest.raises(TypeError, match=match):
        numeric.confusion_matrix(t, p)


def test_every_missing_value_is_named_and_numpy_strings_are_strings():
    """Only None and a Python float NaN were recognised as missing in object labels:
    pandas' NA, NaT, a numpy or Decimal NaN gave a type error or "not in labels".  And
    np.str_ beside str was refused as a mix of label types (scikit-learn counts it)."""
    from decimal import Decimal

    pd = importlib.import_module("pandas")
    for y, name in [(pd.Series(["a", None], dtype="string"), "<NA>"),
                    (pd.array([True, None], dtype="boolean"), "<NA>"),
                    (np.array([pd.Timestamp(0), pd.NaT], dtype=object), "NaT"),
                    (np.array([np.float32("nan"), 1.0], dtype=object), "nan"),
                    ([Decimal(1), Decimal("NaN")], "Decimal\\('NaN'\\)")]:
        with pytest.raises(ValueError, match=f"y_true contains .*{name}.* missing label"):
            numeric.confusion_matrix(y, [y[0], y[0]])
    from sklearn.metrics import confusion_matrix as sk

    # strings have no ordinal order: labels= gives it (issue 23: without it they are refused)
    t, p = ["a", "b"], [np.str_("a"), "b"]
    assert numeric.confusion_matrix(t, p, labels=["a", "b"]).tolist() == \
        sk(t, p, labels=["a", "b"]).tolist() == [[1, 0], [0, 1]]
    # scikit-learn refuses bytes; by the definition: one (a, a), one (b, b)
    assert numeric.confusion_matrix([b"a", np.bytes_(b"b")], [b"a", b"b"],
                                    labels=[b"a", b"b"]).tolist() == [[1, 0], [0, 1]]
    assert numeric.confusion_matrix(["a"], ["a"], labels=[np.str_("a"), "b"]).tolist() == \
        [[1, 0], [0, 0]]


def test_label_warning_names_negative_labels():
    """The fast path for a range not starting at 0 warned with the offsets (0, 2) of
    the labels -5 and -3 instead of the labels."""
    with pytest.warns(numeric.LabelWarning, match=r"not contiguous \(-5, -3\)"):
        numeric.confusion_matrix([-5, -3], [-5, -3])


def test_ordered_categorical_order_respected():
    pd = importlib.import_module("pandas")
    cats = ["low", "mid", "high", "top"]
    t = pd.Categorical(["low", "high", "mid"], categories=cats, ordered=True)
    p = pd.Categorical(["low", "low", "low"], categories=cats, ordered=True)
    cm = numeric.confusion_matrix(t, p)
    # rows/columns in the declared order, with the unobserved class "top" kept
    assert cm.tolist() == [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    # MAE = (0 + 2 + 1) / 3 = 1 with high = 2 (alphabetical order would give high = 0)
    assert numeric.mae(pd.Series(t), pd.Series(p), arithmetic="exact") == 1
    # an unordered categorical has no order of its classes: refused (issue 23; it was a
    # LabelWarning and the alphabetical order); labels= gives the order
    with pytest.raises(ValueError, match="y_true is an unordered categorical.*labels="):
        numeric.confusion_matrix(pd.Categorical(["a", "b"]), pd.Categorical(["b", "a"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cm = numeric.confusion_matrix(pd.Categorical(["a", "b"]), pd.Categorical(["b", "b"]),
                                      labels=["b", "a"])
    assert cm.tolist() == [[1, 0], [1, 0]]  # by hand: b -> b, a -> b in the order (b, a)


def test_label_warning_and_n_classes():
    with pytest.warns(numeric.LabelWarning, match="not contiguous"):
        cm = numeric.confusion_matrix([0, 1, 3], [0, 3, 3])
    assert cm.shape == (3, 3)  # class 2 dropped: the documented trap
    with pytest.warns(numeric.LabelWarning, match="not integers"):  # floats: a natural order
        numeric.confusion_matrix([0.5, 1.5], [1.5, 0.5])
    with pytest.raises(ValueError, match="strings .* no labels= was given"):  # none (issue 23)
        numeric.confusion_matrix(["a", "b"], ["b", "a"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        numeric.confusion_matrix([1, 2, 3], [3, 2, 1])  # contiguous: no warning
        # n_classes keeps class 2: by hand, 0->0, 1->3, 3->3
        cm = numeric.confusion_matrix([0, 1, 3], [0, 3, 3], n_classes=4)
    assert cm.tolist() == [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert issubclass(numeric.LabelWarning, UserWarning) and "LabelWarning" in numeric.__all__
    with pytest.raises(ValueError, match="not both"):
        numeric.confusion_matrix([0], [0], labels=[0], n_classes=1)


def test_sample_weight_matches_sklearn():
    from sklearn.metrics import confusion_matrix as sk

    rng = np.random.default_rng(11)
    t, p = rng.integers(0, 4, 50), rng.integers(0, 4, 50)
    for w in (rng.integers(0, 5, 50), rng.random(50), np.ones(50)):
        ours = numeric.confusion_matrix(t, p, sample_weight=w, n_classes=4)
        peer = sk(t, p, sample_weight=w, labels=[0, 1, 2, 3])
        assert np.allclose(ours, peer, rtol=1e-15, atol=0)  # peer: scikit-learn
        integral = np.all(w == np.floor(w))
        assert ours.dtype == (np.int64 if integral else np.float64)
    frac = numeric.confusion_matrix([0, 1], [0, 1], sample_weight=[0.5, 1])
    with pytest.raises(ValueError, match="must hold integer counts"):
        numeric.mae(frac)
    with pytest.raises(ValueError, match="non-negative"):
        numeric.confusion_matrix([0, 1], [0, 1], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="shape"):
        numeric.confusion_matrix([0, 1], [0, 1], sample_weight=[1])


# ---------------------------------------------------------------------------
# no eval of user strings
# ---------------------------------------------------------------------------
EVIL = "__import__('os').system('echo pwned')"


def test_no_public_function_evaluates_a_string():
    from analytic.derivations.intervals import interval_tc_max_symbolic
    from analytic.derivations.tc_max import tc_max_symbolic
    from numeric.rounding import round_half_up

    for f in (lambda: numeric.get_arithmetic("exact").number(EVIL),
              lambda: round_half_up(EVIL),
              lambda: tc_max_symbolic([EVIL, 1]),
              lambda: interval_tc_max_symbolic([1, 2], [EVIL, 1]),
              lambda: numeric.interval_tc([[1, 0], [0, 1]], [EVIL, 1], arithmetic="exact")):
        with pytest.raises(ValueError, match="not a number|real numbers"):
            f()


def test_parse_number_accepts_numbers_and_symbols():
    # exact readings: "0.1" = 1/10, "sqrt(2)/2" = sqrt(2)/2, "n + 1" a symbolic sum
    assert parse_number("0.1") == sympy.Rational(1, 10)
    assert parse_number("sqrt(2)/2") == sympy.sqrt(2) / 2
    assert parse_number("n + 1") == sympy.Symbol("n") + 1
    assert numeric.get_arithmetic("exact").number("3/4") == sympy.Rational(3, 4)
    for bad in ("n", "1/0", "sqrt(-1)", "2**10**9", "x.__class__", "[1]", "lambda: 1"):
        with pytest.raises(ValueError):
            parse_number(bad, symbols=False)


# ---------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------
def test_cli_empty_cell(tmp_path):
    f = tmp_path / "m.csv"
    f.write_text("1,,2\n3,4,5\n0,1,2\n")
    with pytest.raises(InputError, match="empty cell"):
        read_matrix(str(f))
    f.write_text("1,2,\n3,4,5\n0,1,2\n")
    with pytest.raises(InputError, match="empty cell"):
        read_matrix(str(f))


def test_cli_size_guards(tmp_path, capsys):
    from ordinal_verify import inputs

    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(["1"] * (inputs.MAX_CLASSES + 1)) + "\n")
    assert main(["metrics", str(wide)]) == 2
    assert "classes are supported" in capsys.readouterr().err
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:  # a sparse file of MAX_BYTES + 1 bytes
        fh.seek(inputs.MAX_BYTES)
        fh.write(b"1")
    assert main(["metrics", str(big)]) == 2
    assert "MB" in capsys.readouterr().err


def test_cli_broken_pipe_is_quiet(tmp_path):
    f = tmp_path / "m.txt"
    f.write_text("5 1 0\n1 5 1\n0 1 5\n")
    code = ("import sys\nfrom ordinal_verify import main\n"
            "class Pipe:\n"
            "    def write(self, s): raise BrokenPipeError(32, 'Broken pipe')\n"
            "    def flush(self): pass\n"
            "    def fileno(self): return sys.__stdout__.fileno()\n"
            f"sys.stdout = Pipe()\nsys.exit(main(['metrics', {str(f)!r}]))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
