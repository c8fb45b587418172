"""Balanced sample weights: :func:`numeric.weights.balanced_weights` (whole numbers, issue 25)
against scikit-learn's fractional ``class_weight="balanced"`` weights, which every metric but
r_int also takes directly since issue 39.

Sources of the expected values:

- scikit-learn's weighted metrics with the fractional weights of
  ``compute_sample_weight("balanced", y)`` (``mean_absolute_error``,
  ``mean_squared_error``, ``accuracy_score``, ``cohen_kappa_score``,
  ``recall_score``): a metric unchanged by scaling the matrix has, with
  whole-number weights proportional to these, the same value;
- the definition of AMAE (silva2018 eq. 15, the mean over the true classes of
  their MAE) is MAE with balanced weights, and 1 - MER with balanced weights
  is scikit-learn's ``balanced_accuracy_score``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.metrics import (accuracy_score, balanced_accuracy_score, cohen_kappa_score,
                             mean_absolute_error, mean_squared_error, recall_score)
from sklearn.utils.class_weight import compute_sample_weight

import numeric
from numeric.registry import matrix_metrics
from numeric.weights import balanced_weights

RNG = np.random.default_rng(7)
Y = RNG.choice(4, 150, p=[0.5, 0.25, 0.15, 0.1])          # imbalanced classes
P = np.clip(Y + RNG.integers(-1, 2, 150), 0, 3)
FRACTIONAL = compute_sample_weight("balanced", Y)        # N / (K n_c): not whole numbers
LABELS = [0, 1, 2, 3]


def test_balanced_weights_are_proportional_to_scikit_learns():
    w = balanced_weights(Y)
    assert w.dtype == np.int64 and (w > 0).all()
    ratio = w / FRACTIONAL
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-12)
    # every class gets the same total weight (the definition of "balanced")
    totals = {c: int(w[Y == c].sum()) for c in LABELS}
    assert len(set(totals.values())) == 1


@pytest.mark.parametrize("ours, theirs", [
    (lambda w: numeric.mae(Y, P, sample_weight=w), lambda: mean_absolute_error(
        Y, P, sample_weight=FRACTIONAL)),
    (lambda w: numeric.mse(Y, P, sample_weight=w), lambda: mean_squared_error(
        Y, P, sample_weight=FRACTIONAL)),
    (lambda w: 1 - numeric.mer(Y, P, sample_weight=w), lambda: accuracy_score(
        Y, P, sample_weight=FRACTIONAL)),
    (lambda w: 1 - numeric.mer(Y, P, sample_weight=w), lambda: balanced_accuracy_score(Y, P)),
    (lambda w: numeric.mae(Y, P, sample_weight=w), lambda: numeric.amae(Y, P)),
    (lambda w: numeric.cohen_kappa(Y, P, weights="quadratic", sample_weight=w),
     lambda: cohen_kappa_score(Y, P, weights="quadratic", sample_weight=FRACTIONAL)),
    (lambda w: numeric.cohen_kappa(Y, P, sample_weight=w),
     lambda: cohen_kappa_score(Y, P, sample_weight=FRACTIONAL)),
    (lambda w: numeric.minimum_sensitivity(Y, P, sample_weight=w),
     lambda: min(recall_score(Y, P, average=None, sample_weight=FRACTIONAL))),
])
def test_balanced_values_match_scikit_learns_fractional_weights(ours, theirs):
    assert float(ours(balanced_weights(Y))) == pytest.approx(theirs(), rel=1e-12)


@pytest.mark.parametrize("m, v", [(m, v) for m in matrix_metrics() for v in m.cases()],
                         ids=lambda x: getattr(x, "label", ""))
def test_balanced_whole_weights_give_the_fractionally_weighted_value(m, v):
    """Every metric that takes fractional weights, with each variant's parameters read from
    its weighted matrix (OC's table beta from the total weight): scikit-learn's balanced
    weights and the whole numbers proportional to them give the same value (the matrices
    differ by a constant factor); a metric that needs whole numbers refuses the fractional
    ones with its reason (issue 39: test_fractional_weights.py)."""
    whole = balanced_weights(Y)
    cm_w = numeric.confusion_matrix(Y, P, labels=LABELS, sample_weight=whole)
    cm_f = numeric.confusion_matrix(Y, P, labels=LABELS, sample_weight=FRACTIONAL)
    if not m.fractional:
        with pytest.raises(ValueError, match=r"whole numbers.*" + re.escape(m.integer_weights)):
            m.function(Y, P, labels=LABELS, sample_weight=FRACTIONAL, **v.kwargs(cm_w))
        return
    got = m.function(Y, P, labels=LABELS, sample_weight=FRACTIONAL, **v.kwargs(cm_f))
    want = m.function(Y, P, labels=LABELS, sample_weight=whole, **v.kwargs(cm_w))
    assert float(got) == pytest.approx(float(want), rel=1e-9, abs=1e-12)


def test_balanced_weights_bad_input_and_overflow():
    with pytest.raises(ValueError, match="non-empty 1-D"):
        balanced_weights([])
    # 16 classes of pairwise coprime sizes: their lcm is beyond int64 counts
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53]
    y = np.repeat(np.arange(16), primes)
    with pytest.raises(ValueError, match="least common multiple"):
        balanced_weights(y)


def test_the_refusals_workaround_runs_as_written_after_import_numeric():
    """Issue 39: the refusal of fractional weights names ``numeric.weights.balanced_weights``,
    which raised AttributeError after a plain ``import numeric`` (a fresh interpreter: this
    one has imported numeric.weights already)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import numeric\n"
            "w = numeric.weights.balanced_weights([0, 1, 1, 1])\n"
            "print(numeric.mae([0, 1, 1, 1], [1, 1, 1, 0], sample_weight=w))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr[-500:]
    # weights (3, 1, 1, 1): MAE = (3*1 + 1) / 6 = 2/3 = AMAE = (1/1 + 1/3) / 2, by hand
    assert float(out.stdout) == pytest.approx(2 / 3, rel=1e-15)
