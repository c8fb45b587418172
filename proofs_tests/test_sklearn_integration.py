"""scikit-learn integration (issue 25 item 5): scorers and ``sample_weight=``.

- :func:`numeric.ordinal_scorer` with ``cross_val_score`` and ``GridSearchCV``
  on a real data set (scikit-learn's diabetes data, its target binned at its
  quartiles into 4 ordered classes): the scores equal scikit-learn's own
  metrics computed fold by fold, a lower-is-better metric is negated (so the
  grid search picks the smallest MAE, which is not the largest one), a
  higher-is-better one is not, for every registered metric;
- ``sample_weight=`` in every metric's labels form: against scikit-learn's
  and imbalanced-learn's weighted metrics, and against repeated rows (an
  integer weight w is the sample repeated w times: the same confusion matrix,
  hence the same value, exactly, in every arithmetic);
- the errors: bad weights name ``sample_weight``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.stats
import sklearn
from imblearn.metrics import geometric_mean_score, macro_averaged_mean_absolute_error
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_diabetes
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (accuracy_score, brier_score_loss, cohen_kappa_score,
                             mean_absolute_error, mean_squared_error, recall_score,
                             root_mean_squared_error)
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import numeric
from numeric.registry import REGISTRY

LABELS = [0, 1, 2, 3]
CV = KFold(5, shuffle=True, random_state=0)


def _diabetes():
    """442 patients; the disease-progression target cut at its quartiles: 4 ordered classes."""
    X, y = load_diabetes(return_X_y=True)
    return X, np.digitize(y, np.quantile(y, [0.25, 0.5, 0.75]))


X, Y = _diabetes()


def _params(m):
    """Parameters for the metrics that need one (as numeric.report's first variant)."""
    if m.input == "matrix, beta":
        return {"beta": 0.25}
    if m.input == "matrix, lengths":
        return {"lengths": [1, 2, 3, 4]}
    return {}


def _fold_predictions(estimator):
    """(test indices, predictions) per fold of CV, fitted here (the reference loop)."""
    out = []
    for train, test in CV.split(X, Y):
        est = clone(estimator).fit(X[train], Y[train])
        out.append((test, est))
    return out


# ---------------------------------------------------------------------------
# scorers
# ---------------------------------------------------------------------------
def test_cross_val_score_equals_sklearn_metrics_fold_by_fold():
    """neg_mae is -sklearn's mean_absolute_error on each fold; kappa is sklearn's kappa."""
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    got_mae = cross_val_score(tree, X, Y, cv=CV, scoring=numeric.ordinal_scorer("mae", labels=LABELS))
    got_qwk = cross_val_score(tree, X, Y, cv=CV, scoring=numeric.ordinal_scorer(
        "cohen_kappa", weights="quadratic", labels=LABELS))
    want_mae, want_qwk = [], []
    for test, est in _fold_predictions(tree):
        pred = est.predict(X[test])
        want_mae.append(-mean_absolute_error(Y[test], pred))
        want_qwk.append(cohen_kappa_score(Y[test], pred, weights="quadratic", labels=LABELS))
    assert np.all(got_mae < 0)  # a loss is negated
    np.testing.assert_allclose(got_mae, want_mae, rtol=1e-12)
    np.testing.assert_allclose(got_qwk, want_qwk, rtol=1e-12)


def test_grid_search_minimises_a_lower_is_better_metric():
    """GridSearchCV keeps the depth of the smallest mean MAE (computed here with
    sklearn's mean_absolute_error), not of the largest: the sign is right."""
    grid = {"max_depth": [1, 2, 4, 8, None]}
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=CV,
                          scoring=numeric.ordinal_scorer("neg_mae", labels=LABELS)).fit(X, Y)
    mean_mae = {}
    for depth in grid["max_depth"]:
        folds = _fold_predictions(DecisionTreeClassifier(max_depth=depth, random_state=0))
        mean_mae[depth] = np.mean([mean_absolute_error(Y[t], e.predict(X[t])) for t, e in folds])
    best = min(mean_mae, key=mean_mae.get)
    worst = max(mean_mae, key=mean_mae.get)
    assert best != worst
    assert search.best_params_ == {"max_depth": best}
    assert search.best_score_ == pytest.approx(-mean_mae[best], rel=1e-12)


def test_grid_search_maximises_a_higher_is_better_metric():
    """tau_b's scorer is not negated: the grid search keeps the largest mean tau_b
    (scipy.stats.kendalltau fold by fold)."""
    grid = {"max_depth": [1, 2, 4, 8, None]}
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=CV,
                          scoring=numeric.ordinal_scorer("kendall_tau_b", labels=LABELS)).fit(X, Y)
    mean_tau = {}
    for depth in grid["max_depth"]:
        folds = _fold_predictions(DecisionTreeClassifier(max_depth=depth, random_state=0))
        mean_tau[depth] = np.mean([scipy.stats.kendalltau(Y[t], e.predict(X[t]))[0] for t, e in folds])
    assert max(mean_tau, key=mean_tau.get) != min(mean_tau, key=mean_tau.get)
    assert search.best_params_ == {"max_depth": max(mean_tau, key=mean_tau.get)}
    assert search.best_score_ == pytest.approx(max(mean_tau.values()), rel=1e-12)


def test_multimetric_grid_search_and_refit_by_name():
    scoring = {"mae": numeric.ordinal_scorer("mae", labels=LABELS),
               "amae": numeric.ordinal_scorer("amae", labels=LABELS),
               "gmsec": numeric.ordinal_scorer("gmsec", labels=LABELS)}
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=CV,
                          scoring=scoring, refit="amae").fit(X, Y)
    res = search.cv_results_
    assert np.all(res["mean_test_mae"] < 0) and np.all(res["mean_test_amae"] < 0)
    assert np.all(res["mean_test_gmsec"] >= 0)
    assert search.best_index_ == int(np.argmax(res["mean_test_amae"]))


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_registered_metric_has_a_scorer_with_its_sign(name):
    """score = +metric (better = higher) or -metric (better = lower), on a fitted
    model's predictions of the whole data; the name carries neg_ exactly for the
    lower-is-better ones."""
    m = REGISTRY[name]
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X, Y)
    params = _params(m)
    scorer = numeric.ordinal_scorer(name, labels=LABELS, **params)
    if m.takes_matrix:
        value = m.function(Y, model.predict(X), labels=LABELS, **params)
    else:
        value = m.function(Y, model.predict_proba(X), labels=LABELS, **params)
    sign = -1 if m.better == "lower" else 1
    assert scorer(model, X, Y) == pytest.approx(sign * float(value), rel=1e-12, abs=1e-15)
    assert numeric.scorers.scorer_name(name) == ("neg_" if m.better == "lower" else "") + name
    assert numeric.scorers.scorer_name(name) in numeric.scorer_names()


def test_rps_scorer_uses_predict_proba():
    """RPS of K = 2 classes is the Brier score (numeric.ranked_probability_score's docstring)."""
    yb = (Y >= 2).astype(int)
    model = LogisticRegression(max_iter=1000).fit(X, yb)
    got = numeric.ordinal_scorer("ranked_probability_score", labels=[0, 1])(model, X, yb)
    assert got == pytest.approx(-brier_score_loss(yb, model.predict_proba(X)[:, 1]), rel=1e-12)


def test_a_fold_without_a_class_keeps_the_ordinal_scale_with_labels():
    """A test set of classes {0, 3} predicted 3 and 0: with labels= the distance
    is 3 (MAE 3); without, the two observed classes are 1 apart (MAE 1) and a
    LabelWarning says a class was dropped."""
    class Swap(ClassifierMixin, BaseEstimator):  # predicts 3 - x: the extremes swapped
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return 3 - np.asarray(X)[:, 0].astype(int)

    Xs, ys = np.array([[0], [3]]), np.array([0, 3])
    swap = Swap().fit(Xs, ys)
    assert numeric.ordinal_scorer("mae", labels=LABELS)(swap, Xs, ys) == -3.0
    with pytest.warns(numeric.LabelWarning):
        assert numeric.ordinal_scorer("mae")(swap, Xs, ys) == -1.0


def test_scorer_argument_errors():
    with pytest.raises(ValueError, match="unknown metric 'nope'"):
        numeric.ordinal_scorer("nope")
    with pytest.raises(ValueError, match="kendall_tau_b is better when higher"):
        numeric.ordinal_scorer("neg_kendall_tau_b")
    with pytest.raises(ValueError, match="oc needs beta="):
        numeric.ordinal_scorer("oc")
    with pytest.raises(ValueError, match="mae takes no parameter 'weights'"):
        numeric.ordinal_scorer("mae", weights="linear")
    with pytest.raises(ValueError, match="do not pass arithmetic="):
        numeric.ordinal_scorer("mae", arithmetic="exact")
    with pytest.raises(ValueError, match="give labels= or n_classes=, not both"):
        numeric.ordinal_scorer("mae", labels=LABELS, n_classes=4)
    with pytest.raises(ValueError, match="takes probabilities"):
        numeric.ordinal_scorer("ranked_probability_score", n_classes=4)


def test_scorer_with_sample_weight_direct_and_routed():
    """Called with sample_weight, and routed by cross_val_score(params=) under
    scikit-learn's metadata routing: -sklearn's weighted MAE of each test fold."""
    w = np.arange(len(Y)) % 3  # 0, 1, 2: zero weights drop samples
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, Y)
    scorer = numeric.ordinal_scorer("mae", labels=LABELS)
    assert scorer(tree, X, Y, sample_weight=w) == pytest.approx(
        -mean_absolute_error(Y, tree.predict(X), sample_weight=w), rel=1e-12)
    with sklearn.config_context(enable_metadata_routing=True):
        routed = numeric.ordinal_scorer("mae", labels=LABELS).set_score_request(sample_weight=True)
        est = DecisionTreeClassifier(max_depth=3, random_state=0).set_fit_request(sample_weight=False)
        got = cross_val_score(est, X, Y, cv=CV, scoring=routed, params={"sample_weight": w})
    want = [-mean_absolute_error(Y[t], e.predict(X[t]), sample_weight=w[t])
            for t, e in _fold_predictions(DecisionTreeClassifier(max_depth=3, random_state=0))]
    np.testing.assert_allclose(got, want, rtol=1e-12)


# ---------------------------------------------------------------------------
# sample_weight
# ---------------------------------------------------------------------------
RNG = np.random.default_rng(2025)
T = RNG.integers(0, 4, 300)
P = np.clip(T + RNG.integers(-2, 3, 300), 0, 3)
W = RNG.integers(0, 5, 300)  # frequency weights, zeros included


#: numeric metric (labels form) -> its weighted peer in scikit-learn / imbalanced-learn
PEERS = {
    "mer": (lambda t, p, w: numeric.mer(t, p, labels=LABELS, sample_weight=w),
            lambda t, p, w: 1 - accuracy_score(t, p, sample_weight=w)),
    "mae": (lambda t, p, w: numeric.mae(t, p, labels=LABELS, sample_weight=w),
            lambda t, p, w: mean_absolute_error(t, p, sample_weight=w)),
    "mse": (lambda t, p, w: numeric.mse(t, p, labels=LABELS, sample_weight=w),
            lambda t, p, w: mean_squared_error(t, p, sample_weight=w)),
    "rmse": (lambda t, p, w: numeric.rmse(t, p, labels=LABELS, sample_weight=w),
             lambda t, p, w: root_mean_squared_error(t, p, sample_weight=w)),
    "amae": (lambda t, p, w: numeric.amae(t, p, labels=LABELS, sample_weight=w),
             lambda t, p, w: macro_averaged_mean_absolute_error(t, p, sample_weight=w)),
    "kappa": (lambda t, p, w: numeric.cohen_kappa(t, p, labels=LABELS, sample_weight=w),
              lambda t, p, w: cohen_kappa_score(t, p, sample_weight=w)),
    "kappa_linear": (
        lambda t, p, w: numeric.cohen_kappa(t, p, weights="linear", labels=LABELS, sample_weight=w),
        lambda t, p, w: cohen_kappa_score(t, p, weights="linear", sample_weight=w)),
    "kappa_quadratic": (
        lambda t, p, w: numeric.cohen_kappa(t, p, weights="quadratic", labels=LABELS,
                                            sample_weight=w),
        lambda t, p, w: cohen_kappa_score(t, p, weights="quadratic", sample_weight=w)),
    "minimum_sensitivity": (
        lambda t, p, w: numeric.minimum_sensitivity(t, p, labels=LABELS, sample_weight=w),
        lambda t, p, w: recall_score(t, p, average=None, sample_weight=w).min()),
    "geometric_mean_sensitivity": (
        lambda t, p, w: numeric.geometric_mean_sensitivity(t, p, labels=LABELS, sample_weight=w),
        lambda t, p, w: geometric_mean_score(t, p, sample_weight=w)),
    # skordinal's gmsec: sqrt of recall_score(average=None, sample_weight=)[0] and [-1]
    "gmsec": (lambda t, p, w: numeric.gmsec(t, p, labels=LABELS, sample_weight=w),
              lambda t, p, w: math.sqrt(recall_score(t, p, average=None, sample_weight=w)[[0, -1]]
                                        .prod())),
}


@pytest.mark.parametrize("name", PEERS)
def test_sample_weight_matches_the_weighted_peer(name):
    ours, peer = PEERS[name]
    assert ours(T, P, W) == pytest.approx(peer(T, P, W), rel=1e-12, abs=1e-15)
    # and the weights matter: the unweighted value differs
    assert ours(T, P, None) != pytest.approx(ours(T, P, W), rel=1e-9)


def _variants():
    out = []
    for m in REGISTRY.values():
        if m.takes_matrix:
            for i, v in enumerate(m.cases()):
                out.append(pytest.param(m.name, i, id=f"{m.name}[{v.label}]"))
    return out


@pytest.mark.parametrize("name, variant", _variants())
def test_integer_weights_equal_repeated_rows_exactly(name, variant):
    """f(t, p, sample_weight=w) == f(repeat(t, w), repeat(p, w)): the same
    confusion matrix, so the same exact value (SymPy) and the same float."""
    m = REGISTRY[name]
    t, p, w = T[:40], P[:40], W[:40]
    cm = numeric.confusion_matrix(np.repeat(t, w), np.repeat(p, w), labels=LABELS)
    assert np.array_equal(numeric.confusion_matrix(t, p, labels=LABELS, sample_weight=w), cm)
    kw = m.cases()[variant].kwargs(cm)
    for arithmetic in ("exact", "float"):
        weighted = m.function(t, p, **kw, labels=LABELS, sample_weight=w, arithmetic=arithmetic)
        repeated = m.function(np.repeat(t, w), np.repeat(p, w), **kw, labels=LABELS,
                              arithmetic=arithmetic)
        assert weighted == repeated, (arithmetic, weighted, repeated)


def test_rps_sample_weight_is_repetition_and_sklearn_brier():
    rng = np.random.default_rng(7)
    proba = rng.dirichlet(np.ones(4), size=30)
    t, w = rng.integers(0, 4, 30), rng.integers(0, 4, 30)
    from fractions import Fraction

    exact = [[Fraction(x).limit_denominator(1000) for x in row] for row in proba]
    exact = [row[:-1] + [1 - sum(row[:-1])] for row in exact]  # rows summing to 1 exactly
    rps = numeric.ranked_probability_score
    assert rps(t, exact, sample_weight=w, arithmetic="exact") == rps(
        np.repeat(t, w), [row for row, k in zip(exact, w) for _ in range(k)], arithmetic="exact")
    yb, pb = (t >= 2).astype(int), proba[:, :2].sum(axis=1)  # two classes
    two = np.column_stack([pb, 1 - pb])
    assert rps(yb, two, sample_weight=w) == pytest.approx(
        brier_score_loss(yb, two[:, 1], sample_weight=w), rel=1e-12)
    # fractional weights: the weighted mean (RPS is a mean, not a count)
    fw = rng.random(30)
    per = [rps([y], [row]) for y, row in zip(t, proba)]
    assert rps(t, proba, sample_weight=fw) == pytest.approx(np.average(per, weights=fw), rel=1e-12)


@pytest.mark.parametrize("weights, message", [
    ([1, -1, 1], "sample_weight must be non-negative"),
    ([1, float("nan"), 1], "sample_weight contains NaN"),
    ([1, 2], r"sample_weight must have shape \(3,\)"),
    ([1, 0.5, 1], "sample_weight must hold whole numbers"),
    ([0, 0, 0], "all zero"),
])
def test_bad_weights_are_named(weights, message):
    # r_int: the one metric that refuses fractional weights since issue 39 (test_fractional_weights.py)
    with pytest.raises(ValueError, match=message):
        numeric.r_int([0, 1, 2], [0, 2, 2], sample_weight=weights)


def test_sample_weight_needs_label_vectors():
    with pytest.raises(ValueError, match="sample_weight= is for label vectors"):
        numeric.mae([[1, 0], [0, 1]], sample_weight=[1, 1])
    with pytest.raises(ValueError, match="sample_weight sums to 0"):
        numeric.ranked_probability_score([0, 1], [[1, 0], [0, 1]], sample_weight=[0, 0])


def test_no_warnings_from_the_scorers_with_labels():
    """With labels= a fold missing a class raises no LabelWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", numeric.LabelWarning)
        cross_val_score(DecisionTreeClassifier(max_depth=2, random_state=0), X[:60], Y[:60],
                        cv=KFold(10), scoring=numeric.ordinal_scorer("amae", labels=LABELS))
