"""Fractional ``sample_weight`` (issue 39, item 4).

Every metric of a confusion matrix takes fractional weights in float arithmetic, and
rational ones (``fractions.Fraction``, SymPy ``Rational``) in exact arithmetic, except the
metrics of ``INTEGER_WEIGHT_METRICS`` (r_int), which refuse them with their reason.

Sources of the expected values:

- scikit-learn's weighted metrics (the issue's Done-when): ``mean_absolute_error``,
  ``mean_squared_error``, ``root_mean_squared_error``, ``accuracy_score``,
  ``cohen_kappa_score`` (plain, linear, quadratic); ``recall_score`` (minimum and geometric
  mean sensitivity), imbalanced-learn's ``macro_averaged_mean_absolute_error`` (AMAE);
- plain oracles written here: Kendall's tau_b, Somers' d and Spearman's R_s from their
  definitions over pairs of weighted samples, the within-one accuracy as a weighted share;
  the weighted metrics of MER, MAE, MSE and kappa computed sample by sample in fractions;
- for every metric that takes them (registry-driven, so a new metric is checked without
  a new test): integer weights k equal each sample repeated k times; the value does not
  change when every weight is multiplied by the same number (OC's beta divided by it,
  its ``weight_scale``); the exact value with rational weights w is the metric of the
  integer matrix ``L * (weighted matrix)`` built here by hand (L the common denominator),
  and the float value with the weights ``float(w)`` agrees with it.
"""

from __future__ import annotations

import importlib

import math
import re
from fractions import Fraction

import numpy as np
import pytest

import numeric
from exactfloor.exact_sign import vanishes
from numeric.registry import INTEGER_WEIGHT_METRICS, REGISTRY

skm = importlib.import_module("sklearn.metrics")

K = 5
rng = np.random.default_rng(39)
Y = rng.integers(0, K, 200)
P = np.clip(Y + rng.integers(-2, 3, 200), 0, K - 1)
W = rng.random(200) * 3                               # fractional weights in [0, 3)
LABELS = list(range(K))                               # labels = class indices: sklearn's errors agree


@pytest.mark.parametrize("ours, theirs", [
    (lambda: 1 - numeric.mer(Y, P, sample_weight=W), lambda: skm.accuracy_score(Y, P, sample_weight=W)),
    (lambda: numeric.mae(Y, P, sample_weight=W), lambda: skm.mean_absolute_error(Y, P, sample_weight=W)),
    (lambda: numeric.mse(Y, P, sample_weight=W), lambda: skm.mean_squared_error(Y, P, sample_weight=W)),
    (lambda: numeric.rmse(Y, P, sample_weight=W),
     lambda: skm.root_mean_squared_error(Y, P, sample_weight=W)),
    (lambda: numeric.cohen_kappa(Y, P, sample_weight=W),
     lambda: skm.cohen_kappa_score(Y, P, sample_weight=W, labels=LABELS)),
    (lambda: numeric.cohen_kappa(Y, P, weights="linear", sample_weight=W),
     lambda: skm.cohen_kappa_score(Y, P, weights="linear", sample_weight=W, labels=LABELS)),
    (lambda: numeric.cohen_kappa(Y, P, weights="quadratic", sample_weight=W),
     lambda: skm.cohen_kappa_score(Y, P, weights="quadratic", sample_weight=W, labels=LABELS)),
    (lambda: numeric.minimum_sensitivity(Y, P, sample_weight=W),
     lambda: min(skm.recall_score(Y, P, average=None, sample_weight=W, labels=LABELS))),
    (lambda: numeric.geometric_mean_sensitivity(Y, P, sample_weight=W),
     lambda: math.prod(skm.recall_score(Y, P, average=None, sample_weight=W, labels=LABELS)) ** (1 / K)),
], ids=["accuracy", "mae", "mse", "rmse", "kappa", "kappa_linear", "kappa_quadratic", "ms", "gm"])
def test_fractional_weights_agree_with_scikit_learn(ours, theirs):
    assert float(ours()) == pytest.approx(float(theirs()), rel=1e-12)


def test_amae_agrees_with_imbalanced_learn():
    imb = importlib.import_module("imblearn.metrics")
    assert float(numeric.amae(Y, P, sample_weight=W)) == pytest.approx(
        imb.macro_averaged_mean_absolute_error(Y, P, sample_weight=W), rel=1e-12)


# ---------------------------------------------------------------------------
# plain oracles over pairs of weighted samples (no confusion matrix)
# ---------------------------------------------------------------------------
def _pair_sums(y, p, w):
    """Over ordered pairs of samples (i, j), weighted w_i w_j: sum of sgn(dy) sgn(dp), and of
    [dy != 0], [dp != 0], [dy != 0 and dp != 0]... as needed by tau_b and Somers' d."""
    y, p, w = (np.asarray(a, dtype=float) for a in (y, p, w))
    ww = w[:, None] * w[None, :]
    sy, sp = np.sign(y[:, None] - y[None, :]), np.sign(p[:, None] - p[None, :])
    return (ww * sy * sp).sum(), (ww * (sy != 0)).sum(), (ww * (sp != 0)).sum()


def _weighted_midranks(v, w):
    """Each sample's mid-rank among weighted samples: the weight below it plus half its tie's."""
    v, w = np.asarray(v), np.asarray(w, dtype=float)
    return np.array([w[v < x].sum() + w[v == x].sum() / 2 for x in v])


def _weighted_pearson(a, b, w):
    ma, mb = np.average(a, weights=w), np.average(b, weights=w)
    return (np.sum(w * (a - ma) * (b - mb))
            / math.sqrt(np.sum(w * (a - ma) ** 2) * np.sum(w * (b - mb) ** 2)))


@pytest.mark.parametrize("name, oracle", [
    ("kendall_tau_b", lambda y, p, w: (lambda s, ty, tp: s / math.sqrt(ty * tp))(*_pair_sums(y, p, w))),
    ("somers_d", lambda y, p, w: (lambda s, ty, tp: s / ty)(*_pair_sums(y, p, w))),
    ("spearman_rs", lambda y, p, w: _weighted_pearson(
        _weighted_midranks(y, w), _weighted_midranks(p, w), np.asarray(w, dtype=float))),
    ("within_one_accuracy", lambda y, p, w: np.sum(w * (np.abs(y - p) <= 1)) / np.sum(w)),
    ("amae", lambda y, p, w: np.mean([np.average(np.abs(y - p)[y == c], weights=w[y == c])
                                      for c in range(K)])),
])
def test_fractional_weights_equal_a_plain_oracle_over_samples(name, oracle):
    y, p, w = Y[:80], P[:80], W[:80]
    assert float(getattr(numeric, name)(y, p, sample_weight=w, labels=LABELS)) == pytest.approx(
        oracle(y, p, w), rel=1e-10)


# ---------------------------------------------------------------------------
# every metric of the registry: takes them (three identities) or refuses them with its reason
# ---------------------------------------------------------------------------
KS = 4
N_SMALL = 28
_r = np.random.default_rng(7)
YS = np.concatenate([np.arange(KS), _r.integers(0, KS, N_SMALL - KS)])     # every class true
PS = np.concatenate([np.arange(KS), np.clip(YS[KS:] + _r.integers(-1, 2, N_SMALL - KS), 0, KS - 1)])
WF = _r.random(N_SMALL) * 2 + 0.05                                       # fractional, > 0
WR = [Fraction(int(a), int(b)) for a, b in zip(_r.integers(1, 7, N_SMALL), _r.integers(1, 9, N_SMALL))]
WK = _r.integers(0, 4, N_SMALL)                                          # whole numbers 0..3
WK[:KS] = 1                                                              # every class kept

CASES = [(m, v) for m in REGISTRY.values() if m.takes_matrix for v in m.cases()]
IDS = [v.label for _, v in CASES]


def _weighted_matrix(w):
    """The weighted confusion matrix built by hand (rows = true class), in the weights' type."""
    cm = [[0 * w[0]] * KS for _ in range(KS)]
    for a, b, x in zip(YS, PS, w):
        cm[a][b] += x
    return cm


def _kwargs(v, w):
    """The variant's parameters for the weighted matrix (OC's table beta reads its total)."""
    return v.kwargs(np.asarray(_weighted_matrix(w), dtype=float if isinstance(w[0], float) else object))


def _call(m, w, kwargs, arithmetic="float"):
    return m.function(YS, PS, labels=list(range(KS)), sample_weight=w, arithmetic=arithmetic, **kwargs)


def _fixed(v):
    """The variant's parameters of the unweighted matrix: fixed, whatever the weights."""
    return v.kwargs(numeric.confusion_matrix(YS, PS, labels=list(range(KS))))


def test_the_registry_records_which_metrics_refuse_them():
    assert sorted(m.name for m in REGISTRY.values() if m.takes_matrix and not m.fractional) == sorted(
        INTEGER_WEIGHT_METRICS)
    assert all(m.fractional for m in REGISTRY.values() if not m.takes_matrix)   # their own weights


@pytest.mark.parametrize("m, v", [c for c in CASES if c[0].fractional], ids=[
    i for i, c in zip(IDS, CASES, strict=True) if c[0].fractional])
def test_whole_weights_are_repeated_samples_and_scaling_all_weights_changes_nothing(m, v):
    kw = _fixed(v)
    keep = np.repeat(np.arange(N_SMALL), WK)
    repeated = m.function(YS[keep], PS[keep], labels=list(range(KS)), **kw)
    assert float(_call(m, WK, kw)) == float(repeated)                # the same int64 matrix
    base = float(_call(m, WF, kw))
    assert math.isfinite(base)
    for c in (0.37, 3.0, 1e3):
        scaled = m.weight_scale({**kw, "arithmetic": "float"}, c) if m.weight_scale else kw
        scaled = {k: x for k, x in scaled.items() if k != "arithmetic"}
        assert float(_call(m, WF * c, scaled)) == pytest.approx(base, rel=1e-9, abs=1e-12), c


@pytest.mark.parametrize("m, v", [c for c in CASES if c[0].fractional], ids=[
    i for i, c in zip(IDS, CASES, strict=True) if c[0].fractional])
def test_rational_weights_in_exact_arithmetic_equal_the_integer_matrix_built_by_hand(m, v):
    kw = _kwargs(v, WR)
    got = _call(m, WR, kw, "exact")
    L = math.lcm(*(x.denominator for x in WR))
    cm = np.array([[int(x * L) for x in row] for row in _weighted_matrix(WR)], dtype=np.int64)
    ekw = m.weight_scale({**kw, "arithmetic": "exact"}, L) if m.weight_scale else kw
    ekw = {k: x for k, x in ekw.items() if k != "arithmetic"}
    want = m.function(cm, arithmetic="exact", **ekw)
    assert got == want
    # the float route on float weights (a float matrix of weighted counts) agrees
    wf = [float(x) for x in WR]
    assert float(_call(m, wf, _kwargs(v, wf))) == pytest.approx(float(want), rel=1e-9, abs=1e-12)


def test_oc_at_a_given_beta_scales_beta_with_the_weights():
    """OC is not unchanged by scaling the weights at a given beta: OC(c w, beta) = OC(w, c beta)
    (cardoso2011 eq. 7); rational weights in exact arithmetic are counted as the matrix of L w
    with beta / L, so the exact value is OC of the weights as given."""
    a = float(numeric.oc(YS, PS, 0.02, sample_weight=WF * 4, labels=list(range(KS))))
    b = float(numeric.oc(YS, PS, 0.08, sample_weight=WF, labels=list(range(KS))))
    c = float(numeric.oc(YS, PS, 0.02, sample_weight=WF, labels=list(range(KS))))
    assert a == pytest.approx(b, rel=1e-12) and abs(a - c) > 1e-3      # the beta matters here
    exact = numeric.oc(YS, PS, Fraction(1, 50), sample_weight=WR, labels=list(range(KS)),
                       arithmetic="exact")
    assert float(exact) == pytest.approx(float(numeric.oc(
        YS, PS, 0.02, sample_weight=[float(x) for x in WR], labels=list(range(KS)))), rel=1e-12)


@pytest.mark.parametrize("m", [m for m in REGISTRY.values() if m.takes_matrix and not m.fractional],
                         ids=lambda m: m.name)
def test_metrics_that_need_whole_weights_refuse_them_with_their_reason(m):
    kw = _fixed(m.cases()[0])
    reason = re.escape(m.integer_weights)
    with pytest.raises(ValueError, match=rf"{m.name}: sample_weight must hold whole numbers.*{reason}"):
        _call(m, WF, kw)
    with pytest.raises(ValueError, match=reason):
        _call(m, WR, kw, "exact")
    assert math.isfinite(float(_call(m, WK, kw)))                    # whole numbers are counted


def test_r_int_reason_is_true():
    """The refusal's example: two samples of weight 0.3 in two classes give card(S_1) =
    0.3^2 + 0.3 * 0.3 + 0.3^2 - 0.6 < 0 (silva2018 eq. 9 with N = 0.6)."""
    N0 = N1 = 0.3
    assert N0 * N0 + N0 * N1 + N1 * N1 - (N0 + N1) < 0
    assert "0.27 - 0.6" in REGISTRY["r_int"].integer_weights
    # and that input is refused, with that reason (the behaviour, not only the text)
    with pytest.raises(ValueError, match=re.escape(REGISTRY["r_int"].integer_weights)):
        numeric.r_int([0, 1], [0, 1], sample_weight=[0.3, 0.3])


def test_rational_weights_in_mp_arithmetic_give_the_exact_value_to_its_precision():
    """mp counts the same matrix of L w as exact arithmetic: the exact value, rounded."""
    for name in ("mae", "a_uoc", "geometric_mean_sensitivity"):
        f = getattr(numeric, name)
        exact = f(YS, PS, sample_weight=WR, labels=list(range(KS)), arithmetic="exact")
        mp = f(YS, PS, sample_weight=WR, labels=list(range(KS)), arithmetic="mp")
        assert abs(float(mp) - float(exact)) <= 1e-14 * max(1.0, abs(float(exact))), name
    with pytest.raises(ValueError, match="float arithmetic only"):
        numeric.mae(YS, PS, sample_weight=WF, arithmetic="mp")


def test_exact_arithmetic_refuses_float_weights_and_fractional_matrices_stay_refused():
    with pytest.raises(ValueError, match="float arithmetic only"):
        numeric.mae(Y, P, sample_weight=W, arithmetic="exact")
    # the fractional counts stay inside the call: a fractional matrix is refused afterwards
    with pytest.raises(ValueError, match="integer counts"):
        numeric.mae([[0.5, 1.0], [0.0, 2.0]])


# ---------------------------------------------------------------------------
# rational weights in exact arithmetic, against the definitions computed in fractions
# ---------------------------------------------------------------------------
def _oracle(y, p, w, name, weights=None):
    """The weighted metric from its definition, sample by sample, in Fractions: MER, MAE
    and MSE are weighted means of the per-sample error; kappa is Cohen's weighted kappa
    1 - sum(v * O) / sum(v * E) on the weighted matrix O and E = row x column / total, with
    disagreement v = [i != j], |i - j| or (i - j)^2 (scikit-learn's cohen_kappa_score)."""
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
    assert vanishes(sympy.sympify(got) - want), (got, want)
    assert sympy.sympify(got).is_Rational == (name != "rmse")
    # SymPy rationals are the same weights; float arithmetic gives the same number
    sw = [sympy.Rational(x.numerator, x.denominator) for x in w]
    assert getattr(numeric, name)(y, p, sample_weight=sw, arithmetic="exact", **kwargs) == got
    assert float(getattr(numeric, name)(y, p, sample_weight=[float(x) for x in w], **kwargs)) \
        == pytest.approx(float(want), rel=1e-12)


def test_negative_rational_weights_are_refused():
    with pytest.raises(ValueError, match="non-negative"):
        numeric.mae(Y[:3], P[:3], sample_weight=[Fraction(1, 2), Fraction(-1, 3), 1],
                    arithmetic="exact")


def test_the_table_beta_of_a_weighted_matrix_reads_its_total_weight():
    """OC's table beta = 0.25 / (N (K - 1)) with N the total weight, 11/4 here (not its
    integer part): 0.25 / (11/4) = 1/11, by hand."""
    from numeric.registry import table_beta

    assert table_beta("0.25").beta(np.array([[0.5, 1.0], [0.25, 1.0]])) == Fraction(1, 11)
    assert table_beta("0.25").beta([[Fraction(1, 2), 1], [Fraction(1, 4), 1]]) == Fraction(1, 11)
