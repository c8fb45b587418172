"""Fractional ``sample_weight`` (issue 39, item 4): MER, MAE, MSE, RMSE and kappa (plain,
linear, quadratic) take them in float arithmetic and agree with scikit-learn's weighted
metrics (the peer); every other metric refuses them with the recipe; exact arithmetic
refuses them naming the float arithmetic.
"""

from __future__ import annotations

import numpy as np
import pytest

import numeric
from numeric.registry import FRACTIONAL_METRICS, REGISTRY

skm = pytest.importorskip("sklearn.metrics")

K = 5
rng = np.random.default_rng(39)
Y = rng.integers(0, K, 200)
P = np.clip(Y + rng.integers(-2, 3, 200), 0, K - 1)
W = rng.random(200) * 3                               # fractional weights in [0, 3)
LABELS = list(range(K))                               # labels = class indices: sklearn's errors agree


@pytest.mark.parametrize("ours, theirs", [
    (lambda: numeric.mer(Y, P, sample_weight=W), lambda: 1 - skm.accuracy_score(Y, P, sample_weight=W)),
    (lambda: numeric.mae(Y, P, sample_weight=W), lambda: skm.mean_absolute_error(Y, P, sample_weight=W)),
    (lambda: numeric.mse(Y, P, sample_weight=W), lambda: skm.mean_squared_error(Y, P, sample_weight=W)),
    (lambda: numeric.rmse(Y, P, sample_weight=W),
     lambda: np.sqrt(skm.mean_squared_error(Y, P, sample_weight=W))),
    (lambda: numeric.cohen_kappa(Y, P, sample_weight=W),
     lambda: skm.cohen_kappa_score(Y, P, sample_weight=W, labels=LABELS)),
    (lambda: numeric.cohen_kappa(Y, P, weights="linear", sample_weight=W),
     lambda: skm.cohen_kappa_score(Y, P, weights="linear", sample_weight=W, labels=LABELS)),
    (lambda: numeric.cohen_kappa(Y, P, weights="quadratic", sample_weight=W),
     lambda: skm.cohen_kappa_score(Y, P, weights="quadratic", sample_weight=W, labels=LABELS)),
], ids=["mer", "mae", "mse", "rmse", "kappa", "kappa_linear", "kappa_quadratic"])
def test_fractional_weights_agree_with_scikit_learn(ours, theirs):
    assert float(ours()) == pytest.approx(float(theirs()), rel=1e-12)


def test_the_registry_records_which_metrics_take_them():
    assert sorted(m.name for m in REGISTRY.values() if m.fractional) == sorted(FRACTIONAL_METRICS)


def test_the_refusal_names_the_metrics_that_take_them():
    """The others refuse (every one: test_balanced_weights.py), naming the ones that do not."""
    with pytest.raises(ValueError, match=r"whole numbers.*MER, MAE, MSE, RMSE and kappa take them"):
        numeric.amae(Y, P, sample_weight=W)


def test_exact_arithmetic_refuses_them_and_whole_weights_still_count():
    with pytest.raises(ValueError, match="float arithmetic only"):
        numeric.mae(Y, P, sample_weight=W, arithmetic="exact")
    w = rng.integers(0, 4, 200)
    assert numeric.mae(Y, P, sample_weight=w, arithmetic="exact") == numeric.mae(
        np.repeat(Y, w), np.repeat(P, w), arithmetic="exact")
    # the fractional counts stay inside the call: a fractional matrix is refused afterwards
    with pytest.raises(ValueError, match="integer counts"):
        numeric.mae([[0.5, 1.0], [0.0, 2.0]])
