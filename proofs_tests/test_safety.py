"""Issue 23: user strings are never evaluated (item 2), unordered labels are refused (item 4),
bad input gets a clear error (item 6)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import sympy as sp

import analytic
from analytic.derivations import forms, metric_thresholds, tc_max
from analytic.engines._pl import lower_envelope, sign_for_all, sign_threshold, signs_for_all
from analytic.derivations.families import family_parameter
from analytic.derivations.intervals import prop4_max_form
from analytic.symbols import K

# ---------------------------------------------------------------------------
# A. no user string is evaluated (item 2)
# ---------------------------------------------------------------------------
n = sp.Symbol("n", integer=True, positive=True)


def _entries(P):
    """Every public entry that took a string into ``sympy.sympify`` (issue 23), fed ``P``."""
    return {
        "symbolic_metric": lambda: analytic.symbolic_metric("mae", [[P, 1], [1, 1]]),
        "symbolic_metric, family": lambda: analytic.symbolic_metric("mae", [[P, n], [1, 1]]),
        "family_parameter": lambda: family_parameter([[P, 1], [1, 1]]),
        "uoc_piecewise, family": lambda: analytic.uoc_piecewise([[P, n], [1, 1]]),
        "oc_piecewise, family": lambda: analytic.oc_piecewise([[P, n], [1, 1]]),
        "a_uoc_symbolic, family": lambda: analytic.a_uoc_symbolic([[P, n], [1, 1]]),
        "guess_and_check proof": lambda: analytic.guess_and_check(lambda k: k, range(1, 6), proof=P),
        "positioned_metric_forms positions": lambda: forms.positioned_metric_forms({(0, 1): 1}, (0, P)),
        "positioned_metric_forms cells": lambda: forms.positioned_metric_forms({(0, 1): P}, (0, 1)),
        "appendix_a_triangle gamma": lambda: analytic.appendix_a_triangle(gamma=P),
        "single_sample_forms gamma": lambda: analytic.single_sample_forms(gamma=P),
        "path_lines matrix": lambda: metric_thresholds.path_lines([[P, 1], [1, 1]]),
        "path_lines gamma": lambda: metric_thresholds.path_lines([[1, 1], [1, 1]], gamma=P),
        "band1_envelope matrix": lambda: forms.band1_envelope([[P, 1], [1, 1]]),
        "band1_envelope gamma": lambda: forms.band1_envelope([[1, 1], [1, 1]], gamma=P),
        "prop4_max_form": lambda: prop4_max_form([P, 1], [1, 1]),
        "positive_for_integers_from expr": lambda: tc_max.positive_for_integers_from(P, n),
        "positive_for_integers_from start": lambda: tc_max.positive_for_integers_from(n, n, P),
        "lower_envelope": lambda: lower_envelope([(P, 0), (1, 1)]),
        "sign_threshold": lambda: sign_threshold(P, n),
        "signs_for_all": lambda: signs_for_all(P, n),
        "sign_for_all": lambda: sign_for_all(P, n),
        "PL.integral": lambda: lower_envelope([(1, 0)]).integral(0, P),
        "PL.scale": lambda: lower_envelope([(1, 0)]).scale(P),
    }


ENTRIES = sorted(_entries(None))


@pytest.mark.parametrize("entry", ENTRIES)
def test_payload_is_not_evaluated(entry, tmp_path):
    """A string that would create a file when evaluated as Python is refused by
    exactfloor.parsing.parse_number; before issue 23 each of these entries ran it
    through sympy.sympify, which evaluates it (SymPy's documentation: "sympify
    uses eval")."""
    marker = tmp_path / "pwned"
    payload = f'__import__("pathlib").Path({str(marker)!r}).touch() or 1'
    with pytest.raises(ValueError, match="is not a number or expression"):
        _entries(payload)[entry]()
    assert not marker.exists()


def test_strings_that_are_numbers_still_parse():
    """parse_number keeps the strings a user may mean: "1" is the integer 1, and the proof
    of guess_and_check is read in ``var`` (the symbol K with its assumptions, so the
    fitted f(K) = K equals it: before, sympify made a new Symbol("K") and a refutation)."""
    assert metric_thresholds.path_lines([["1", "0"], ["0", "1"]]) == \
        metric_thresholds.path_lines([[1, 0], [0, 1]])
    c = analytic.guess_and_check(lambda k: k, range(1, 6), proof="K")
    assert c.expr == K and c.status.startswith("proved")
    assert analytic.single_sample_forms(gamma="2").gamma == 2


# ---------------------------------------------------------------------------
# B. labels without an order are refused (item 4)
# ---------------------------------------------------------------------------
import warnings  # noqa: E402

import numeric  # noqa: E402
from numeric.confusion import label_codes  # noqa: E402

#: ordinal order low < mid < high.  MAE by hand, with low, mid, high = 0, 1, 2:
#: |0-1| + |1-1| + |2-0| + |2-2| = 3 over 4 samples.  The alphabetical order (high,
#: low, mid = 0, 1, 2) gave 1 + 0 + 1 + 0 = 2 over 4 = 0.5 with only a LabelWarning.
T_STR, P_STR = ["low", "mid", "high", "high"], ["mid", "mid", "low", "high"]
ORDER = ["low", "mid", "high"]


def _label_entries(t, p):
    return {
        "confusion_matrix": lambda: numeric.confusion_matrix(t, p),
        "label_codes": lambda: label_codes({"y_true": t, "y_pred": p}),
        "mae": lambda: numeric.mae(t, p),
        "kendall_tau_b": lambda: numeric.kendall_tau_b(t, p),
        "uoc": lambda: numeric.uoc(t, p, 0.1),
        "report": lambda: numeric.report(t, p),
        "compare": lambda: numeric.compare(t, p, p, n_resamples=10, seed=0),
        "paired_resamples": lambda: importlib.import_module("numeric.comparison").paired_resamples(
            t, p, p, n_resamples=10, seed=0),
    }


@pytest.mark.parametrize("entry", sorted(_label_entries(None, None)))
def test_string_labels_without_order_are_refused(entry):
    """Every Python entry that counts label vectors refuses strings without labels=
    (the CLI already did): their sorted order is alphabetical, and MAE came out 0.5
    instead of the ordinal 0.75 (see T_STR)."""
    with pytest.raises(ValueError, match=r"strings .*no labels= was given.*labels=.*ordered=True"):
        _label_entries(T_STR, P_STR)[entry]()


@pytest.mark.parametrize("t, p, kind", [
    ([b"lo", b"hi"], [b"hi", b"hi"], "bytes"),
    (np.array(["lo", "hi"], dtype=object), np.array(["hi", "hi"], dtype=object), "strings"),
    ([1 + 0j, 2 + 0j], [2 + 0j, 2 + 0j], "complex numbers"),
    (np.array([(0, 1), (1, 0)], dtype="i8,i8"), np.array([(0, 1), (0, 1)], dtype="i8,i8"),
     "records"),
])
def test_other_labels_without_order_are_refused(t, p, kind):
    """Bytes, strings in object arrays, complex numbers (numpy sorts them by real, then
    imaginary part: not an order of classes) and structured records: no natural order."""
    with pytest.raises(ValueError, match=f"the labels are {kind}.*labels="):
        numeric.confusion_matrix(t, p)


def test_the_order_comes_from_labels_or_ordered_categoricals():
    """Unordered categoricals are refused (they were sorted alphabetically with a
    LabelWarning); labels= or ordered categoricals give the order: MAE 3/4 (by hand,
    see T_STR), with no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numeric.mae(T_STR, P_STR, labels=ORDER, arithmetic="exact") == sp.Rational(3, 4)
        assert numeric.report(T_STR, P_STR, labels=ORDER, arithmetic="exact")["mae"].value == \
            sp.Rational(3, 4)
        assert numeric.compare(T_STR, P_STR, P_STR, labels=ORDER, metrics=["mae"],
                               n_resamples=10, seed=0)["MAE"].a == 0.75
    pd = importlib.import_module("pandas")
    t, p = pd.Categorical(T_STR), pd.Categorical(P_STR)
    for f in (lambda: numeric.confusion_matrix(t, p), lambda: numeric.mae(t, p),
              lambda: numeric.compare(t, p, p, n_resamples=10, seed=0)):
        with pytest.raises(ValueError, match="y_true is an unordered categorical.*ordered=True"):
            f()
    ordered = [pd.Categorical(v, categories=ORDER, ordered=True) for v in (T_STR, P_STR)]
    assert numeric.mae(*ordered, arithmetic="exact") == sp.Rational(3, 4)  # by hand, T_STR
    # labels= gives the order of an unordered categorical, without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numeric.mae(t, p, labels=ORDER, arithmetic="exact") == sp.Rational(3, 4)


def test_labels_with_a_natural_order_are_counted_in_it():
    """Numbers and time keep the sorted order (a LabelWarning when not contiguous
    integers); strings do not (the test fails on the code before issue 23, which
    counted them).  Expected: by hand, true (1, 2, 3) predicted (2, 2, 1) -> cells
    (0,1), (1,1), (2,0) in the sorted order of every type below."""
    from decimal import Decimal
    from fractions import Fraction

    want = [[0, 1, 0], [0, 1, 0], [1, 0, 0]]
    days = np.array(["2020-01-01", "2020-01-02", "2020-01-03"], dtype="M8[D]")
    for conv in (float, Fraction, Decimal, lambda v: days[v - 1], lambda v: days[v - 1].item()):
        t, p = [conv(v) for v in (1, 2, 3)], [conv(v) for v in (2, 2, 1)]
        with pytest.warns(numeric.LabelWarning, match="not integers"):
            assert numeric.confusion_matrix(t, p).tolist() == want
    with pytest.warns(numeric.LabelWarning, match="not integers"):  # False < True
        assert numeric.confusion_matrix([False, True], [True, True]).tolist() == [[0, 1], [0, 1]]
    with pytest.raises(ValueError, match="strings"):
        numeric.confusion_matrix(["1", "2", "3"], ["2", "2", "1"])


# ---------------------------------------------------------------------------
# C. clear errors (item 6)
# ---------------------------------------------------------------------------
import mpmath  # noqa: E402

CM3 = np.array([[3, 2, 0], [2, 2, 1], [1, 2, 2]])
#: test_paths_reliability's matrix, on which the warnings below leaked
CM5 = np.array([[3, 1, 0, 0, 1], [1, 4, 2, 0, 0], [0, 1, 5, 1, 0], [0, 0, 1, 4, 1], [1, 0, 0, 2, 3]])


@pytest.mark.parametrize("y_pred, said", [(1, r"y_pred is a scalar \(1\)"),
                                          ([[0, 1, 2]], r"y_pred is of shape \(1, 3\)")])
@pytest.mark.parametrize("f", [numeric.mae, numeric.kendall_tau_b, numeric.oc])
def test_label_vector_with_a_bad_y_pred_is_named(f, y_pred, said):
    """numeric.mae([0, 1, 2], 1) said "mae() takes 1 positional argument but 2 were given"."""
    with pytest.raises(ValueError, match=f"y_true has 3 labels but {said}"):
        f([0, 1, 2], y_pred)


@pytest.mark.parametrize("K, gib", [(10**5, "74.5"), (3 * 10**4, "6.7"), (10**12, "7.45e[+]15")])
def test_confusion_matrix_size_is_capped(K, gib):
    """n_classes=10**5 raised numpy's MemoryError (74.5 GiB) and 3*10**4 allocated 6.7 GiB
    without a word; 10**12 failed in np.arange(n_classes) already.  Expected sizes: K**2
    cells of 8 bytes over 2**30."""
    with pytest.raises(ValueError, match=rf"{K} classes has {K * K:,} cells \({gib} GiB\), "
                                         r"above numeric.confusion.MAX_CELLS = 100,000,000"):
        numeric.confusion_matrix([0], [0], n_classes=K)
    if K <= 10**5:
        with pytest.raises(ValueError, match="MAX_CELLS"):
            numeric.confusion_matrix([0], [0], labels=np.arange(K))


def test_the_cap_can_be_raised(monkeypatch):
    """MAX_CELLS is the documented way beyond the cap (here lowered to 9 cells: K = 3 fits,
    K = 4 does not); compare's resampled stacks are held to it too."""
    monkeypatch.setattr(numeric.confusion, "MAX_CELLS", 9)
    assert numeric.confusion_matrix([0], [2], n_classes=3).tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    with pytest.raises(ValueError, match="4 classes has 16 cells"):
        numeric.confusion_matrix([0], [3], n_classes=4)
    with pytest.raises(ValueError, match="10 resampled confusion matrices of 2 classes has 40 cells"):
        numeric.compare([0, 1], [0, 1], [1, 1], n_resamples=10, seed=0)


def test_report_refuses_an_unknown_arithmetic():
    """report(cm, arithmetic="bogus") listed every metric as undefined."""
    with pytest.raises(ValueError, match="arithmetic must be one of 'float', 'exact', 'mp'; got 'bogus'"):
        numeric.report([[1, 0], [0, 1]], arithmetic="bogus")


def test_compare_refuses_one_sample():
    """One sample gave the interval [1, 1] and named a winner: every resample of one
    sample is that sample."""
    for f in (lambda: numeric.compare([0], [1], [0], metrics=["mae"], n_resamples=100, seed=0),
              lambda: importlib.import_module("numeric.comparison").paired_resamples(
                  [0], [1], [0], n_resamples=100, seed=0)):
        with pytest.raises(ValueError, match="one sample: a bootstrap needs at least 2 samples"):
            f()
    # two samples are compared (a winner is named only from the intervals of resamples)
    assert numeric.compare([0, 1], [1, 1], [0, 1], metrics=["mae"], n_resamples=100,
                           seed=0)["MAE"].diff == -0.5  # by hand: MAE 1/2 against 0


def test_hausdorff_distances_beyond_float64_are_named():
    """[1e308] * 3 returned inf and NaN with RuntimeWarnings: the distances 2e308 and 3e308
    are beyond float64 (exact: 2 and 3 times 10**308)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="a distance exceeds the float64 range.*'exact' or 'mp'"):
            numeric.hausdorff_distances([1e308] * 3)
    assert numeric.hausdorff_distances([1e308] * 3, arithmetic="exact")[0, 2] == 2 * 10**308


def test_optimal_last_length_at_the_ends_of_float64():
    """[1e308, 1e308] said "min() arg is an empty sequence"; [1e-300, 1e-300] returned
    x = 5e-301 and minimum 0.  The optimum is homogeneous in the lengths, so float64 now
    scales them by a power of two.  Expected: mp at 30 digits (x = 1e-300, minimum 4e-300;
    for 1e308 the minimum 4e308 is beyond float64)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="the minimum exceeds about 1.8e308.*'exact' or 'mp'"):
            numeric.optimal_last_length([2, 3, 4], [1e308, 1e308])
        got = numeric.optimal_last_length([2, 3, 4], [1e-300, 1e-300])
    with mpmath.workdps(30):
        ref = numeric.optimal_last_length([2, 3, 4], [1e-300, 1e-300], arithmetic="mp")
        assert abs(got.x - ref.x) <= 1e-14 * ref.x
        assert abs(got.minimum - ref.minimum) <= 1e-14 * ref.minimum


def test_last_length_pieces_beyond_float64_are_named():
    """[1e300, 1e300] warned "overflow in scalar divide" and returned inf coefficients
    (exact: a = 2.6e600 on the first piece)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="a coefficient is beyond the float64 range"):
            numeric.last_length_pieces([2, 3, 4], [1e300, 1e300])


def test_envelope_with_a_huge_beta_max():
    """beta_max=1e308 raised OverflowError in exact arithmetic; in float and mp a beta_max
    from about 1e15 on dropped the piece [0, 2/3) of [[1, 1], [1, 1]] (its width was
    compared with eps times the largest breakpoint, beta_max).  Expected: the exact envelope
    without beta_max (band1_envelope's doctest: beta/4 + 1/2 below 2/3, then 2/3), cut at
    beta_max."""
    cm = [[1, 1], [1, 1]]
    env = numeric.path_envelope(cm, beta_max=1e308, arithmetic="exact")
    assert env.breakpoints == (0, sp.Rational(2, 3), 10**308)
    assert env.intercepts == (sp.Rational(1, 2), sp.Rational(2, 3))
    assert env.slopes == (sp.Rational(1, 4), 0)
    for arithmetic in ("float", "mp"):
        for beta_max in (1e15, 1e308):
            e = numeric.path_envelope(cm, beta_max=beta_max, arithmetic=arithmetic)
            assert len(e.slopes) == 2 and abs(e.breakpoints[1] - 2 / 3) < 1e-15, (arithmetic, e)


@pytest.mark.parametrize("metric, cm, beta, gamma, arithmetic", [
    # float: the penalties beyond float64 are inf on paths that are never minimal
    (numeric.oc, CM3, 1e308, 1, "float"),
    (numeric.oc, CM3, 1e308, 2, "float"),
    # float: the normaliser M overflows, the benefits n / (N + M) are 0 in float64
    (numeric.uoc, CM5, 0.1, 1e-4, "float"),
    (numeric.oc, CM3, 0.1, 1e-3, "float"),
    # exact: numpy reported the float flags SymPy left while comparing huge radicals
    (numeric.oc, CM5, 0.1, 1000, "exact"),
])
def test_no_runtime_warning_leaks(metric, cm, beta, gamma, arithmetic):
    """exactfloor/arith.py (power), numeric/paths.py (divide) and numeric/_dp.py (multiply,
    minimum) leaked RuntimeWarnings here (found with -W error::RuntimeWarning).  Expected
    value: mp at 40 digits (for OC at beta = 1e308, gamma = 1: 17/24 exactly)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = metric(cm, beta, gamma=gamma, arithmetic=arithmetic)
    with mpmath.workdps(40):
        ref = metric(cm, beta, gamma=gamma, arithmetic="mp")
        assert abs(mpmath.mpf(str(sp.N(got, 30)) if arithmetic == "exact" else got) - ref) \
            <= 1e-15 * abs(ref)


def test_float_envelope_out_of_range_raises_without_a_warning():
    cm = np.random.default_rng(0).integers(0, 10, (6, 6))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match=r"float supports gamma >= about"):
            numeric.path_envelope(cm, metric="oc", gamma=1e-3, arithmetic="float")
