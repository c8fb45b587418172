"""The researcher's workflow (issue 11): report, compare, plot_uoc.

Peers and sources: silva2018 Table I (matrix B: MER 0.56, A_UOC 5/9 exact);
``scipy.stats.bootstrap`` (paired, percentile) for the bootstrap interval;
the exact bootstrap law of a tiny sample, by enumerating all N^N index
resamples; the registered functions themselves called one matrix at a time.
"""

from __future__ import annotations

import importlib

import itertools
import warnings

import numpy as np
import pytest
import scipy.stats
import sympy

import numeric
from numeric.comparison import metric_on_stack, paired_resamples, percentile_interval
from numeric.registry import REGISTRY, Metric, matrix_metrics

CM_B = [[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]]  # silva2018 matrix B


def _data(N=400, K=5, seed=3):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, K, N)
    a = np.clip(t + rng.integers(-1, 2, N), 0, K - 1)
    b = np.clip(t + rng.integers(-2, 3, N), 0, K - 1)
    return t, a, b


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
def test_report_rows_are_the_registry():
    r = numeric.report(CM_B)
    assert [x.label for x in r.rows] == [v.label for m in matrix_metrics() for v in m.cases()]
    for x in r.rows:
        m = REGISTRY[x.name]
        assert (x.better, x.source) == (m.better, m.source)


def test_report_shows_a_metric_registered_later(monkeypatch):
    def twice_mer(cm, *, arithmetic="float"):
        return 2 * numeric.mer(cm, arithmetic=arithmetic)

    monkeypatch.setitem(REGISTRY, "twice_mer", Metric(
        "twice_mer", twice_mer, "2 MER", "matrix", "lower", True, (0, 2), "test"))
    r = numeric.report(CM_B, arithmetic="exact")
    # 2 * MER of matrix B; MER = 10/18 (8 of 18 on the diagonal; silva2018 Table I: 0.56)
    assert r["2 MER"].value == sympy.Rational(10, 9)
    assert r["2 MER"].better == "lower"


def test_report_values_silva2018_matrix_b():
    r = numeric.report(CM_B, arithmetic="exact")
    assert r["A_UOC"].value == sympy.Rational(5, 9)   # silva2018 Table I, exact 5/9
    assert r["MER"].value == sympy.Rational(5, 9)     # 10 of 18 off-diagonal; Table I: 0.56
    d = r.to_dict()
    assert d["N"] == 18 and d["K"] == 4
    assert {"name": "a_uoc", "exact": "5/9"}.items() <= d["metrics"][
        [m["name"] for m in d["metrics"]].index("a_uoc")].items()


def test_report_labels_form_equals_matrix_form():
    t, a, _ = _data(60)
    by_labels = numeric.report(t, a)
    by_matrix = numeric.report(numeric.confusion_matrix(t, a))
    assert [x.value for x in by_labels.rows] == [x.value for x in by_matrix.rows]


def test_report_undefined_metric_is_none_with_reason():
    r = numeric.report([[3, 1], [0, 0]])   # one true class: tau_b has a zero variance
    assert r["tau_b"].value is None and "undefined" in r["tau_b"].note
    assert "undefined" in str(r)


def test_report_whole_matrix_problem_raised_once():
    big = [[9 * 10**18, 1], [1, 9 * 10**18]]
    with pytest.raises(ValueError, match="too large for int64"):
        numeric.report(big)


def test_report_rejects_unknown_metric():
    with pytest.raises(ValueError, match="not registered metrics"):
        numeric.report(CM_B, metrics=["nope"])


# ---------------------------------------------------------------------------
# the paired bootstrap
# ---------------------------------------------------------------------------
def test_resamples_are_paired():
    t, a, b = _data(200)
    cm_a, cm_b, sa, sb, lab = paired_resamples(t, a, b, n_resamples=300, seed=1)
    assert (cm_a == numeric.confusion_matrix(t, a)).all()
    assert (sa.sum(axis=(1, 2)) == 200).all()
    # both margins come from the same resample: the same true-class counts
    assert (sa.sum(axis=2) == sb.sum(axis=2)).all()
    # and not the same resample for every r
    assert len({x.tobytes() for x in sa}) > 250


def test_multinomial_law_is_the_index_resampling_law():
    """The exact bootstrap law of N = 5 triples, from all 5^5 index resamples,
    against 40,000 multinomial draws; DKW: P(sup |F_n - F| > 0.012) <= 2 exp(-2 n 0.012^2) = 0.0020."""
    t = np.array([0, 0, 1, 2, 2])
    a = np.array([0, 1, 1, 2, 1])
    b = np.array([1, 0, 1, 1, 2])
    K = 3
    exact = []
    for idx in itertools.product(range(5), repeat=5):
        i = np.array(idx)
        ca = numeric.confusion_matrix(t[i], a[i], labels=range(K))
        cb = numeric.confusion_matrix(t[i], b[i], labels=range(K))
        exact.append(float(numeric.mae(cb) - numeric.mae(ca)))
    # N * (MAE_B - MAE_A) is an integer: compare the two laws on integers
    exact = np.sort(np.rint(5 * np.array(exact)))
    _, _, sa, sb, _ = paired_resamples(t, a, b, n_resamples=40_000, seed=7)
    ours = np.sort(np.rint(5 * (numeric.mae(sb) - numeric.mae(sa))))
    grid = np.unique(exact)
    F = np.searchsorted(exact, grid, side="right") / exact.size
    Fn = np.searchsorted(ours, grid, side="right") / ours.size
    assert np.max(np.abs(F - Fn)) < 0.012


def test_interval_agrees_with_scipy_bootstrap():
    """scipy.stats.bootstrap(paired=True, method="percentile") on the MAE
    difference: both are Monte Carlo estimates of the same interval; with
    10,000 resamples each the endpoints differ by a few hundredths of the
    bootstrap standard error (tolerance 0.25 se)."""
    t, a, b = _data(400)
    c = numeric.compare(t, a, b, metrics=["mae"], n_resamples=10_000, seed=11)
    row = c["MAE"]
    res = scipy.stats.bootstrap(
        (t, a, b), lambda tt, aa, bb: np.mean(np.abs(bb - tt)) - np.mean(np.abs(aa - tt)),
        paired=True, vectorized=False, n_resamples=10_000, method="percentile",
        confidence_level=0.95, random_state=np.random.default_rng(12))
    se = res.standard_error
    assert abs(row.diff - (np.mean(np.abs(b - t)) - np.mean(np.abs(a - t)))) < 1e-12
    assert abs(row.diff_ci[0] - res.confidence_interval.low) < 0.25 * se
    assert abs(row.diff_ci[1] - res.confidence_interval.high) < 0.25 * se


def test_compare_every_metric_equals_per_matrix_loop():
    t, a, b = _data(150)
    c = numeric.compare(t, a, b, n_resamples=40, seed=5)
    _, _, sa, sb, _ = paired_resamples(t, a, b, n_resamples=40, seed=5)
    assert [r.label for r in c.rows] == [v.label for m in matrix_metrics() for v in m.cases()]
    cm_a = numeric.confusion_matrix(t, a)
    for r, (m, v) in zip(c.rows, [(mm, v) for mm in matrix_metrics() for v in mm.cases()]):
        kw = v.kwargs(cm_a)
        loop_a = np.array([float(m.function(x, **kw)) for x in sa])
        loop_b = np.array([float(m.function(x, **kw)) for x in sb])
        assert r.a == pytest.approx(float(m.function(cm_a, **kw)), abs=1e-12)
        assert r.a_ci == pytest.approx(percentile_interval(loop_a), abs=1e-12), r.label
        assert r.diff_ci == pytest.approx(percentile_interval(loop_b - loop_a), abs=1e-12), r.label


def _rare_class_data():
    # class 3 has one sample of 20: a resample misses it with probability (19/20)^20 = 0.36
    t = np.array([0] * 7 + [1] * 6 + [2] * 6 + [3])
    a = t.copy()
    a[:3] = 1
    b = t.copy()
    b[7:10] = 2
    return t, a, b


def test_undefined_resamples_dropped_counted_and_warned():
    t, a, b = _rare_class_data()
    with pytest.warns(numeric.UndefinedResampleWarning, match="TC"):
        c = numeric.compare(t, a, b, metrics=["tc"], n_resamples=500, seed=2)
    _, _, sa, sb, _ = paired_resamples(t, a, b, n_resamples=500, seed=2)

    def defined(x):
        try:
            numeric.tc(x)
            return True
        except ValueError:
            return False

    ok_a = np.array([defined(x) for x in sa])
    ok_b = np.array([defined(x) for x in sb])
    row = c["TC"]
    assert row.undefined == (int((~ok_a).sum()), int((~ok_b).sum()), int((~(ok_a & ok_b)).sum()))
    assert 100 < row.undefined[2] < 300     # about 0.36 * 500
    ok = ok_a & ok_b
    d = np.array([float(numeric.tc(y)) - float(numeric.tc(x)) for x, y in zip(sa[ok], sb[ok])])
    assert row.diff_ci == pytest.approx(percentile_interval(d), abs=1e-12)
    assert "undefined" in row.note


def test_undefined_resamples_raise_on_request():
    t, a, b = _rare_class_data()
    with pytest.raises(ValueError, match="resamples undefined"):
        numeric.compare(t, a, b, metrics=["tc"], n_resamples=200, seed=2, undefined="raise")


def test_no_warning_when_every_resample_is_defined():
    t, a, b = _data(300)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = numeric.compare(t, a, b, metrics=["mae", "kendall_tau_b"], n_resamples=200, seed=0)
    assert all(r.undefined == (0, 0, 0) for r in c.rows)
    assert "A_UOC" not in str(c) and "MAE" in str(c)


def test_metric_undefined_on_data_has_no_interval():
    t = np.zeros(10, dtype=int)      # one true class: tau_b is undefined on the data
    a = np.array([0, 1] * 5)
    b = np.array([1, 0] * 5)
    c = numeric.compare(t, a, b, metrics=["kendall_tau_b", "mae"], n_resamples=50, seed=0)
    assert c["tau_b"].diff is None and c["tau_b"].diff_ci is None
    assert "undefined on the data" in c["tau_b"].note
    assert c["MAE"].diff_ci is not None


def test_metric_on_stack_isolates_undefined_matrices():
    stack = np.array([[[2, 1], [1, 2]], [[3, 0], [0, 0]], [[1, 1], [1, 1]], [[0, 0], [0, 4]]])
    v, ok, why = metric_on_stack(numeric.kendall_tau_b, stack)
    assert ok.tolist() == [True, False, True, False]
    assert v[0] == pytest.approx(float(numeric.kendall_tau_b(stack[0])))
    assert np.isnan(v[1]) and "tau_b" in why


@pytest.mark.parametrize("kw, message", [
    ({"n_resamples": 0}, "n_resamples must be a positive integer"),
    # int() made 2.7 two resamples and "5" five; inf, nan and None raised other errors
    *[({"n_resamples": n}, "n_resamples must be a positive integer")
      for n in (2.7, "5", True, float("inf"), float("nan"), None)],
    ({"confidence": 1.5}, r"confidence must be in \(0, 1\)"),
    ({"confidence": "0.9"}, r"confidence must be in \(0, 1\)"),
    ({"confidence": None}, r"confidence must be in \(0, 1\)"),
    ({"undefined": "ignore"}, "undefined must be 'drop' or 'raise'"),
    ({"names": ("A", "B", "C")}, "names must be two names"),
    ({"metrics": []}, "metrics is empty"),
    ({"metrics": ["ranked_probability_score"]}, "take probabilities"),
])
def test_compare_bad_arguments(kw, message):
    t, a, b = _data(20)
    with pytest.raises(ValueError, match=message):
        numeric.compare(t, a, b, **({"metrics": ["mae"]} | kw))


def test_compare_handles_labels_as_confusion_matrix_does():
    """paired_resamples took np.asarray of the labels and their sorted union: an ordered
    categorical was taken in alphabetical order (MAE 0.83 instead of 0.5), [1, "1"]
    merged into one class, Python ints beyond int64 and integers beyond 2**53 beside
    floats collided, a masked label was counted, and no LabelWarning was issued (found
    in review).  Expected values by hand."""
    pd = importlib.import_module("pandas")
    cat = ["low", "mid", "high"]  # 0, 1, 2

    def c(v):
        return pd.Categorical(v, categories=cat, ordered=True)

    t = c(["low", "mid", "high", "high", "low", "mid"])
    a = c(["low", "high", "high", "mid", "low", "low"])   # |errors| 0 1 0 1 0 1: MAE 1/2
    b = c(["mid", "mid", "high", "high", "low", "mid"])   # 1 0 0 0 0 0: MAE 1/6
    row = numeric.compare(t, a, b, metrics=["mae"], n_resamples=50, seed=0)["MAE"]
    assert (row.a, row.b) == (pytest.approx(1 / 2), pytest.approx(1 / 6))
    with pytest.raises(TypeError, match="cannot be ordered together"):
        numeric.compare([1, "1"], ["1", 1], [1, "1"], metrics=["mer"], n_resamples=5)
    big = [0, 3**40, 3**40 + 1]   # MER of A: 2 of 3 wrong; B right
    row = numeric.compare(big, [0, 3**40 + 1, 3**40], big, metrics=["mer"], n_resamples=5,
                          seed=0)["MER"]
    assert (row.a, row.b) == (pytest.approx(2 / 3), 0)
    t = [0, 2**53 + 1, 1.5]       # A's 2**53 is not 2**53 + 1: MER 1/3
    row = numeric.compare(t, [0, 2**53, 1.5], t, metrics=["mer"], n_resamples=5, seed=0)["MER"]
    assert (row.a, row.b) == (pytest.approx(1 / 3), 0)
    with pytest.raises(ValueError, match="masked"):
        numeric.compare(np.ma.masked_array([0, 1, 5], mask=[0, 0, 1]), [0, 1, 1], [0, 1, 1])
    with pytest.warns(numeric.LabelWarning, match="not contiguous"):
        numeric.compare([0, 1, 3], [0, 1, 1], [0, 3, 3], metrics=["mae"], n_resamples=5)
    c3 = numeric.compare([0, 1, 3], [0, 1, 1], [0, 3, 3], n_classes=4, metrics=["mae"],
                         n_resamples=5, seed=0)
    assert c3.labels == (0, 1, 2, 3) and c3["MAE"].a == pytest.approx(2 / 3)


def test_paired_resamples_with_many_classes_and_the_margins():
    """The triples were counted in a bincount of K**3 cells (labels=range(1500): 25 GiB,
    MemoryError) and mapped onto the matrices by a dense product of R x triples x K**2.
    Now: the distinct triples, and integer sums per cell.  Checked against a loop over
    the resamples' triples (the definition of the margins)."""
    t, a, b = [0, 1, 2, 3], [0, 1, 1, 3], [0, 2, 2, 3]
    ca, cb, sa, sb, lab = paired_resamples(t, a, b, labels=range(1500), n_resamples=2, seed=0)
    assert sa.shape == (2, 1500, 1500) and (sa.sum(axis=(1, 2)) == 4).all()
    assert (ca == numeric.confusion_matrix(t, a, labels=range(1500))).all()
    assert (cb == numeric.confusion_matrix(t, b, labels=range(1500))).all()
    from numeric.comparison import _margin

    rng = np.random.default_rng(5)
    draws = rng.integers(0, 9, size=(7, 30))
    target = rng.integers(0, 12, 30)
    want = np.zeros((7, 12), dtype=np.int64)
    for r in range(7):
        for c in range(30):
            want[r, target[c]] += draws[r, c]
    assert (_margin(draws, target, 12) == want).all()


def test_compare_mismatched_vectors():
    with pytest.raises(ValueError, match="mismatched label vectors"):
        numeric.compare([0, 1, 2], [0, 1], [0, 1, 2], metrics=["mae"])


# ---------------------------------------------------------------------------
# plot_uoc
# ---------------------------------------------------------------------------
def _polygon_area(xy):
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


@pytest.mark.parametrize("cm", [CM_B, [[5, 2, 1, 0], [1, 6, 2, 1], [0, 2, 7, 3], [1, 0, 2, 9]]])
def test_plot_uoc_draws_the_curve_and_shades_a_uoc(cm, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from numeric.plot import uoc_curve

    ax = numeric.plot_uoc(cm, label="X")
    betas, values = uoc_curve(cm)
    line = ax.lines[0].get_xydata()
    assert line[:, 0] == pytest.approx([float(b) for b in betas], abs=1e-15)
    assert line[:, 1] == pytest.approx([float(v) for v in values], abs=1e-15)
    # the curve's value at each vertex is uoc there (silva2018 eq. 28, our float DP)
    assert line[:, 1] == pytest.approx([float(numeric.uoc(cm, float(b))) for b in betas], abs=1e-12)
    # breakpoints marked: the inner vertices
    assert ax.lines[1].get_xydata()[:, 0] == pytest.approx(line[1:-1, 0])
    (poly,) = ax.collections
    area = _polygon_area(poly.get_paths()[0].vertices)
    exact = numeric.a_uoc(cm, arithmetic="exact")
    assert area == pytest.approx(float(exact), abs=1e-12)
    assert "A_UOC" in ax.get_legend_handles_labels()[1][0]
    ax.figure.savefig(tmp_path / "u.png")
    assert (tmp_path / "u.png").stat().st_size > 1000
    plt.close(ax.figure)
