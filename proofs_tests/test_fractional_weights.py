"""Fractional ``sample_weight`` (issue 39, item 4): MER, MAE, MSE, RMSE and kappa (plain,
linear, quadratic) take them in float arithmetic and agree with scikit-learn's weighted
metrics (the peer); every other metric refuses them with the recipe; exact arithmetic
refuses float weights naming the float arithmetic and takes rational ones
(``fractions.Fraction``, SymPy ``Rational``), checked against the metrics' definitions
computed sample by sample in fractions.
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


# ---------------------------------------------------------------------------
# rational weights in exact arithmetic (issue 39 item 4), against a plain oracle
# ---------------------------------------------------------------------------
def _oracle(y, p, w, name, weights=None):
    """The weighted metric from its definition, sample by sample, in Fractions: MER, MAE
    and MSE are weighted means of the per-sample error; kappa is Cohen's weighted kappa
    1 - sum(v * O) / sum(v * E) on the weighted matrix O and E = row x column / total, with
    disagreement v = [i != j], |i - j| or (i - j)^2 (scikit-learn's cohen_kappa_score)."""
    from fractions import Fraction

    total = sum(w, Fraction(0))
    if name in ("mer", "mae", "mse"):
        err = {"mer": lambda a, b: int(a != b), "mae": lambda a, b: abs(a - b),
               "mse": lambda a, b: (a - b) ** 2}[name]
        return sum((wi * err(a, b) for a, b, wi in zip(y, p, w)), Fraction(0)) / total
    O = [[Fraction(0)] * K for _ in range(K)]
    for a, b, wi in zip(y, p, w):
        O[a][b] += wi
    rows = [sum(r) for r in O]
    cols = [sum(O[i][j] for i in range(K)) for j in range(K)]
    v = {None: lambda i, j: int(i != j), "linear": lambda i, j: abs(i - j),
         "quadratic": lambda i, j: (i - j) ** 2}[weights]
    num = sum(v(i, j) * O[i][j] for i in range(K) for j in range(K))
    den = sum(v(i, j) * rows[i] * cols[j] / total for i in range(K) for j in range(K))
    return 1 - num / den


def _rational_w(n, seed):
    from fractions import Fraction

    r = np.random.default_rng(seed)
    return [Fraction(int(a), int(b)) for a, b in zip(r.integers(0, 7, n), r.integers(1, 9, n))]


@pytest.mark.parametrize("name, kwargs", [
    ("mer", {}), ("mae", {}), ("mse", {}), ("rmse", {}), ("cohen_kappa", {}),
    ("cohen_kappa", {"weights": "linear"}), ("cohen_kappa", {"weights": "quadratic"})],
    ids=["mer", "mae", "mse", "rmse", "kappa", "kappa_linear", "kappa_quadratic"])
def test_rational_weights_in_exact_arithmetic_equal_a_plain_oracle(name, kwargs):
    import sympy

    y, p = Y[:60].tolist(), P[:60].tolist()
    w = _rational_w(60, 7)
    got = getattr(numeric, name)(y, p, sample_weight=w, arithmetic="exact", **kwargs)
    if name == "rmse":
        want = sympy.sqrt(sympy.Rational(*_oracle(y, p, w, "mse").as_integer_ratio()))
    else:
        f = _oracle(y, p, w, name, kwargs.get("weights"))
        want = sympy.Rational(f.numerator, f.denominator)
    assert sympy.simplify(sympy.sympify(got) - want) == 0, (got, want)
    assert sympy.sympify(got).is_Rational == (name != "rmse")
    # SymPy rationals are the same weights; float arithmetic gives the same number
    sw = [sympy.Rational(x.numerator, x.denominator) for x in w]
    assert getattr(numeric, name)(y, p, sample_weight=sw, arithmetic="exact", **kwargs) == got
    assert float(getattr(numeric, name)(y, p, sample_weight=[float(x) for x in w], **kwargs)) \
        == pytest.approx(float(want), rel=1e-12)


def test_rational_weights_are_refused_where_a_metric_needs_integer_counts():
    from fractions import Fraction

    with pytest.raises(ValueError, match="whole numbers"):
        numeric.amae(Y[:10], P[:10], sample_weight=[Fraction(1, 2)] * 10, arithmetic="exact")
    with pytest.raises(ValueError, match="non-negative"):
        numeric.mae(Y[:3], P[:3], sample_weight=[Fraction(1, 2), Fraction(-1, 3), 1],
                    arithmetic="exact")
