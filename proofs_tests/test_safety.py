"""Issue 23: user strings are never evaluated (item 2), unordered labels are refused (item 4),
bad input gets a clear error (item 6)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import analytic
from analytic import forms, metric_thresholds, tc_max
from analytic._pl import lower_envelope, sign_for_all, sign_threshold, signs_for_all
from analytic.families import family_parameter
from analytic.intervals import prop4_max_form
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
    numeric.parsing.parse_number; before issue 23 each of these entries ran it
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
import importlib  # noqa: E402
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
        "paired_resamples": lambda: importlib.import_module("numeric.compare").paired_resamples(
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
    pd = pytest.importorskip("pandas")
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
