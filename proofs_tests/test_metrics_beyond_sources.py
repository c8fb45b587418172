"""The metrics beyond the sources (issue 12 part 4): Cohen's kappa (unweighted, linear, quadratic),
within-one accuracy, minimum sensitivity (MS), geometric mean of sensitivities
(GM), Somers' d, Kendall/Stuart tau_c, CEM-ORD and the ranked probability score.

- peers on random matrices expanded to label vectors (rows = true class):
  scikit-learn ``cohen_kappa_score`` and ``recall_score``, imbalanced-learn
  ``geometric_mean_score``, scipy.stats ``somersd`` and ``kendalltau(variant="c")``,
  ``brier_score_loss`` (RPS, K = 2); CEM-ORD and RPS also against a per-item
  loop of the published definition;
- exact values derived by hand (the derivation next to each);
- float and mp against exact (hypothesis), float stacks against per-matrix calls;
- registry flags: symmetric metrics unchanged by transposition, a witness for
  each non-symmetric one, values inside the registered bounds;
- every ValueError message.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.stats
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import hypothesis.extra.numpy as hnp
from imblearn.metrics import geometric_mean_score
from sklearn.metrics import brier_score_loss, cohen_kappa_score, recall_score

import numeric
from numeric.registry import REGISTRY, matrix_metrics

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
R = sympy.Rational

#: name -> one-argument-plus-arithmetic callable, one per registered variant
CASES = {
    "kappa": lambda cm, a: numeric.cohen_kappa(cm, arithmetic=a),
    "kappa_linear": lambda cm, a: numeric.cohen_kappa(cm, weights="linear", arithmetic=a),
    "kappa_quadratic": lambda cm, a: numeric.cohen_kappa(cm, weights="quadratic", arithmetic=a),
    "within_one": lambda cm, a: numeric.within_one_accuracy(cm, arithmetic=a),
    "ms": lambda cm, a: numeric.minimum_sensitivity(cm, arithmetic=a),
    "ms_zero": lambda cm, a: numeric.minimum_sensitivity(cm, missing="zero", arithmetic=a),
    "gm": lambda cm, a: numeric.geometric_mean_sensitivity(cm, arithmetic=a),
    "gm_zero": lambda cm, a: numeric.geometric_mean_sensitivity(cm, missing="zero", arithmetic=a),
    "somers_d": lambda cm, a: numeric.somers_d(cm, arithmetic=a),
    "tau_c": lambda cm, a: numeric.kendall_tau_c(cm, arithmetic=a),
    "cem": lambda cm, a: numeric.cem_ord(cm, arithmetic=a),
}
#: the registry record behind each case
RECORD = {"kappa": "cohen_kappa", "kappa_linear": "cohen_kappa", "kappa_quadratic": "cohen_kappa",
          "within_one": "within_one_accuracy", "ms": "minimum_sensitivity",
          "ms_zero": "minimum_sensitivity", "gm": "geometric_mean_sensitivity",
          "gm_zero": "geometric_mean_sensitivity", "somers_d": "somers_d",
          "tau_c": "kendall_tau_c", "cem": "cem_ord"}


@st.composite
def count_matrices(draw, max_K=8):
    """K x K counts (K = 1..max_K) with many zeros and some empty rows/columns, N >= 1."""
    K = draw(st.integers(1, max_K))
    cm = draw(hnp.arrays(np.int64, (K, K), elements=st.sampled_from([0, 0, 0, 1, 2, 5])))
    for i in draw(st.lists(st.integers(0, K - 1), max_size=max(1, K // 3))):
        cm[i, :] = 0
    for j in draw(st.lists(st.integers(0, K - 1), max_size=max(1, K // 3))):
        cm[:, j] = 0
    if cm.sum() == 0:
        cm[draw(st.integers(0, K - 1)), draw(st.integers(0, K - 1))] = 1
    return cm


def expand(cm):
    """Label vectors (class indices 0..K-1) whose confusion matrix is ``cm``."""
    K = cm.shape[0]
    i, j = np.meshgrid(np.arange(K), np.arange(K), indexing="ij")
    counts = np.asarray(cm).reshape(-1)
    return np.repeat(i.reshape(-1), counts), np.repeat(j.reshape(-1), counts)


def outcome(f, cm, arithmetic):
    try:
        return f(cm, arithmetic), None
    except ValueError as exc:
        return None, str(exc)


def close(x, y, rel=1e-12):
    return abs(float(x) - float(y)) <= rel * max(1.0, abs(float(y)))


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------
def test_every_case_is_a_registered_variant():
    for name, rec in RECORD.items():
        assert rec in REGISTRY, name
    assert set(RECORD.values()) <= {m.name for m in matrix_metrics()}
    labels = {v.label for m in RECORD.values() for v in REGISTRY[m].cases()}
    assert len(labels) == len(CASES)  # one case per report variant


def test_rps_is_registered_but_not_a_matrix_metric():
    assert REGISTRY["ranked_probability_score"].input == "probabilities"
    assert "ranked_probability_score" not in {m.name for m in matrix_metrics()}
    assert all(m.input != "probabilities" for m in matrix_metrics())


# ---------------------------------------------------------------------------
# peers
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_against_sklearn(weights):
    @SETTINGS
    @given(count_matrices())
    def check(cm):
        K = cm.shape[0]
        yt, yp = expand(cm)
        v, refused = outcome(lambda c, a: numeric.cohen_kappa(c, weights=weights, arithmetic=a),
                             cm, "float")
        with _quiet():
            peer = cohen_kappa_score(yt, yp, weights=weights, labels=np.arange(K))
        if refused is not None:  # expected disagreement 0: scikit-learn divides 0 by 0
            assert "expected disagreement is 0" in refused and math.isnan(peer)
            return
        assert close(v, peer, 1e-10)

    check()


class _quiet:
    """Silence scikit-learn's and scipy's warnings about 0/0 inside a peer call."""

    def __enter__(self):
        import warnings

        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


def test_kappa_absent_class_trap():
    """Classes 0..3, class 2 in neither vector.  With labels [0, 1, 2, 3]:
    R = (1, 1, 0, 2), C = (2, 0, 0, 2), N = 4, sum |r-c| n = 1 (the 1 -> 0 error),
    sum |r-c| R_r C_c = 1*2*3 + 1*2*1 + 1*2*2 + 2*2*3 = 24, kappa = 1 - 4*1/24 = 5/6.
    Without labels the classes are (0, 1, 3) at positions (0, 1, 2): R = (1, 1, 2),
    C = (2, 0, 2), sum = 1*2*2 + 1*2*1 + 1*2*1 + 2*2*2 = 16, kappa = 1 - 4/16 = 3/4.
    scikit-learn computes both the same way."""
    yt, yp = [0, 1, 3, 3], [0, 0, 3, 3]
    full = numeric.cohen_kappa(yt, yp, weights="linear", labels=[0, 1, 2, 3], arithmetic="exact")
    short = numeric.cohen_kappa(yt, yp, weights="linear", arithmetic="exact")
    assert (full, short) == (R(5, 6), R(3, 4))
    assert close(cohen_kappa_score(yt, yp, weights="linear", labels=[0, 1, 2, 3]), 5 / 6)
    assert close(cohen_kappa_score(yt, yp, weights="linear"), 3 / 4)


def test_somers_d_and_tau_c_against_scipy():
    @SETTINGS
    @given(count_matrices())
    def check(cm):
        yt, yp = expand(cm)
        d, refused_d = outcome(CASES["somers_d"], cm, "float")
        t, refused_t = outcome(CASES["tau_c"], cm, "float")
        rows = (cm.sum(axis=1) > 0).sum()
        cols = (cm.sum(axis=0) > 0).sum()
        assert (refused_d is not None) == (rows < 2)
        assert (refused_t is not None) == (min(rows, cols) < 2)
        with _quiet():
            peer_t = scipy.stats.kendalltau(yt, yp, variant="c").statistic
        if refused_t is None:
            assert close(t, peer_t, 1e-10)
        else:  # scipy: a constant vector gives nan
            assert math.isnan(peer_t)
        if refused_d is None:
            # scipy's somersd(x, y) is D(y | x): x = y_true; its table form takes rows as x
            with _quiet():
                peer_d = scipy.stats.somersd(yt, yp).statistic
            if cols >= 2:
                assert close(d, peer_d, 1e-10)
                assert close(d, scipy.stats.somersd(cm).statistic, 1e-10)
            else:  # one predicted class: C = D = 0 over a positive denominator; scipy says nan
                assert d == 0 and math.isnan(peer_d)

    check()


def test_gm_and_ms_against_imblearn_and_sklearn():
    @SETTINGS
    @given(count_matrices())
    def check(cm):
        K = cm.shape[0]
        yt, yp = expand(cm)
        rows_seen = cm.sum(axis=1) > 0
        cols_seen = cm.sum(axis=0) > 0
        with _quiet():
            # labels = every class: an unobserved class has recall 0 (correction = 0) -> GM = 0
            assert close(numeric.geometric_mean_sensitivity(cm, missing="zero"),
                         geometric_mean_score(yt, yp, labels=np.arange(K)))
            if np.all(rows_seen | ~cols_seen):  # no class is predicted without being true
                assert close(numeric.geometric_mean_sensitivity(cm), geometric_mean_score(yt, yp))
            observed = np.flatnonzero(rows_seen)
            recalls = recall_score(yt, yp, labels=observed, average=None)
        assert close(numeric.minimum_sensitivity(cm), recalls.min())
        assert close(numeric.geometric_mean_sensitivity(cm), scipy.stats.gmean(recalls))

    check()


def test_gm_trap_predicted_only_class():
    """Class 2 is predicted once but never true.  imbalanced-learn's default labels are the
    union of both vectors: recall of class 2 is 0/0, set to 0, so GM = 0.  Over the observed
    true classes GM = sqrt(1 * 2/3) (recalls 1 and 2/3)."""
    yt, yp = [0, 1, 1, 1], [0, 1, 1, 2]
    with _quiet():
        assert geometric_mean_score(yt, yp) == 0
    assert numeric.geometric_mean_sensitivity(yt, yp, arithmetic="exact") == sympy.sqrt(R(2, 3))
    assert numeric.geometric_mean_sensitivity(yt, yp, missing="zero", arithmetic="exact") == 0


def test_within_one_against_label_loop():
    @SETTINGS
    @given(count_matrices())
    def check(cm):
        yt, yp = expand(cm)
        assert numeric.within_one_accuracy(cm, arithmetic="exact") == \
            R(int(np.sum(np.abs(yt - yp) <= 1)), len(yt))

    check()


def cem_by_items(y_true, y_pred):
    """CEM-ORD item by item, from Amigó et al. 2020's definition: gold counts n_k,
    prox(a, b) = -log2((n_a/2 + sum_{k in (a, b]} n_k) / N), (a, b] read as [b, a) for
    a > b; CEM = sum prox(pred, true) / sum prox(true, true).  Fractions and math.log2."""
    N = len(y_true)
    n = {}
    for t in y_true:
        n[t] = n.get(t, 0) + 1

    def prox(a, b):
        if a == b:
            between = 0
        elif a < b:
            between = sum(n.get(k, 0) for k in range(a + 1, b + 1))
        else:
            between = sum(n.get(k, 0) for k in range(b, a))
        return -math.log2(float((Fraction(n.get(a, 0), 2) + between) / N))

    return (sum(prox(p, t) for t, p in zip(y_true, y_pred))
            / sum(prox(t, t) for t in y_true))


def test_cem_against_item_loop():
    @SETTINGS
    @given(count_matrices())
    def check(cm):
        yt, yp = expand(cm)
        assert close(numeric.cem_ord(cm), cem_by_items(yt.tolist(), yp.tolist()), 1e-12)

    check()


def test_cem_ignores_empty_classes():
    """A class absent from the gold contributes n_k = 0 (the reference implementation adds 0
    for a class that is not in the gold): inserting an empty class changes nothing."""
    cm = np.array([[3, 1, 0], [1, 2, 2], [0, 1, 4]])
    padded = np.zeros((5, 5), dtype=int)
    padded[np.ix_([0, 2, 4], [0, 2, 4])] = cm
    assert numeric.cem_ord(cm, arithmetic="exact") == numeric.cem_ord(padded, arithmetic="exact")


def rps_by_items(y_true, proba, normalize=True):
    """Ranked probability score sample by sample (Epstein 1969; / (K-1): Murphy 1971)."""
    total = Fraction(0)
    for y, row in zip(y_true, proba):
        K = len(row)
        s = sum((sum(row[: k + 1], Fraction(0)) - (1 if y <= k else 0)) ** 2 for k in range(K - 1))
        total += s / (K - 1) if normalize else s
    return total / len(y_true)


@st.composite
def probability_rows(draw, max_N=6, max_K=6):
    K = draw(st.integers(2, max_K))
    N = draw(st.integers(1, max_N))
    rows = []
    for _ in range(N):
        w = draw(st.lists(st.integers(0, 4), min_size=K, max_size=K))
        if sum(w) == 0:
            w[draw(st.integers(0, K - 1))] = 1
        rows.append([Fraction(x, sum(w)) for x in w])
    y = draw(st.lists(st.integers(0, K - 1), min_size=N, max_size=N))
    return y, rows


@SETTINGS
@given(probability_rows(), st.booleans())
def test_rps_against_item_loop_all_arithmetics(data, normalize):
    y, rows = data
    proba = np.array(rows, dtype=object)
    exact = numeric.ranked_probability_score(y, proba, normalize=normalize, arithmetic="exact")
    assert exact == R(rps_by_items(y, rows, normalize))  # Fractions: exactly
    assert close(numeric.ranked_probability_score(y, proba, normalize=normalize), exact)
    with mpmath.workdps(50):
        v = numeric.ranked_probability_score(y, proba, normalize=normalize, arithmetic="mp")
        assert abs(v - mpmath.mpf(sympy.N(exact, 60))) <= mpmath.mpf(10) ** -45
    assert 0 <= exact <= (1 if normalize else len(rows[0]) - 1)


def test_rps_is_brier_for_two_classes():
    """K = 2: (F_1 - O_1)^2 = ((1 - p_1) - [y = 0])^2 = (p_1 - [y = 1])^2, and 1/(K-1) = 1:
    RPS = scikit-learn's brier_score_loss(y, p_1)."""
    rng = np.random.default_rng(12)
    p1 = rng.random(50)
    y = rng.integers(0, 2, 50)
    proba = np.stack([1 - p1, p1], axis=-1)
    assert close(numeric.ranked_probability_score(y, proba), brier_score_loss(y, p1), 1e-14)


def test_rps_labels_and_stacks():
    """labels= maps labels to columns; a stack (..., N, K) equals one call per slice."""
    rng = np.random.default_rng(3)
    proba = rng.dirichlet(np.ones(4), size=(2, 3, 7))
    y = rng.integers(0, 4, size=(2, 3, 7))
    stack = numeric.ranked_probability_score(y, proba)
    assert stack.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        assert stack[idx] == numeric.ranked_probability_score(y[idx], proba[idx])
    names = np.array(["a", "b", "c", "d"])
    assert numeric.ranked_probability_score(names[y[0, 0]], proba[0, 0], labels=names) == stack[0, 0]


# ---------------------------------------------------------------------------
# exact values by hand
# ---------------------------------------------------------------------------
CM = np.array([[3, 1, 0], [1, 2, 2], [0, 1, 4]])  # N = 14, R = (4, 5, 5), C = (4, 4, 6)


def test_exact_values_by_hand():
    ex = dict(arithmetic="exact")
    # off-diagonal mass 5, all at distance 1 (so the observed disagreement is 5 for every w).
    # unweighted: sum_{r != c} R_r C_c = 14^2 - (4*4 + 5*4 + 5*6) = 130; 1 - 14*5/130 = 6/13
    assert numeric.cohen_kappa(CM, **ex) == R(6, 13)
    # linear: sum |r-c| R_r C_c = 4*4 + 2*4*6 + 5*4 + 5*6 + 2*5*4 + 5*4 = 174; 1 - 70/174 = 52/87
    assert numeric.cohen_kappa(CM, weights="linear", **ex) == R(52, 87)
    # quadratic: 16 + 4*24 + 20 + 30 + 4*20 + 20 = 262; 1 - 70/262 = 96/131
    assert numeric.cohen_kappa(CM, weights="quadratic", **ex) == R(96, 131)
    # recalls 3/4, 2/5, 4/5: MS = 2/5, GM = (3/4 * 2/5 * 4/5)^(1/3) = (6/25)^(1/3)
    assert numeric.minimum_sensitivity(CM, **ex) == R(2, 5)
    assert numeric.geometric_mean_sensitivity(CM, **ex) == R(6, 25) ** R(1, 3)
    # C: cell (0,0) 3 * (2+2+1+4) + (0,1) 1 * (2+4) + (1,0) 1 * (1+4) + (1,1) 2 * 4 = 46;
    # D: (0,1) 1 * 1 + (1,2) 2 * 1 = 3; C - D = 43.  Pairs untied on the true class:
    # (14^2 - (16 + 25 + 25))/2 = 65, on the predicted class (196 - (16 + 16 + 36))/2 = 64
    assert numeric.somers_d(CM, **ex) == R(43, 65)
    assert numeric.somers_d(CM.T, **ex) == R(43, 64)
    # tau_c: m = 3, 2*3*43 / (196 * 2) = 129/196
    assert numeric.kendall_tau_c(CM, **ex) == R(129, 196)
    # within-one: cells (0,2), (2,0) are 2 apart and hold 1 + 1 of N = 10
    assert numeric.within_one_accuracy([[2, 1, 1], [0, 3, 0], [1, 0, 2]], **ex) == R(4, 5)


def test_cem_exact_by_hand():
    """Gold counts (4, 5, 5), N = 14.  prox(r, r) = -log2(n_r / 28): log2 7, log2(28/5) twice.
    Off the diagonal (prox(pred, true) = -log2((n_pred/2 + classes in (pred, true]) / 14)):
    true 1 pred 2: (5/2 + 4)/14 = 13/28; true 2 pred 1: (2 + 5)/14 = 1/2;
    true 2 pred 3: (5/2 + 5)/14 = 15/28 (2 items); true 3 pred 2: (5/2 + 5)/14 = 15/28."""
    L = lambda x: sympy.log(x, 2)  # noqa: E731
    num = 3 * L(7) + L(R(28, 13)) + 1 + 2 * L(R(28, 5)) + 2 * L(R(28, 15)) + L(R(28, 15)) \
        + 4 * L(R(28, 5))
    den = 4 * L(7) + 10 * L(R(28, 5))
    v = numeric.cem_ord(CM, arithmetic="exact")
    assert not v.has(sympy.Float)
    assert abs(sympy.N(v - num / den, 60)) < sympy.Float(10) ** -50
    assert close(numeric.cem_ord(CM), cem_by_items(*[t.tolist() for t in expand(CM)]))


def test_rps_inputs_found_in_review():
    """float32 rows (rounded to about 6e-8) were refused by the 1e-9 tolerance; a
    Decimal reached exact arithmetic as a 15-digit Float; masks were ignored; a label
    2**64, a huge object entry and an empty stack raised OverflowError or numpy's
    reduction error; strings in an object array were read as numbers; normalize=None
    meant False.  Expected values by hand (the docstring's formula)."""
    from decimal import Decimal

    rps = numeric.ranked_probability_score
    p = np.float32([[0.1, 0.2, 0.3, 0.4]])
    # class 0: F = cumulative sums of the float32 values, O = (1, 1, 1)
    f = np.cumsum(p.astype(np.float64))[:-1]
    assert rps([0], p) == pytest.approx(float(((f - 1) ** 2).sum() / 3), rel=1e-15)
    with pytest.raises(ValueError, match="sum to 1"):
        rps([0], np.float32([[0.1, 0.2, 0.3, 0.401]]))
    # one sample of class 0, K = 2: (0.1 - 1)**2 = 81/100, exactly
    assert rps([0], [[Decimal("0.1"), Decimal("0.9")]], arithmetic="exact") == \
        sympy.Rational(81, 100)
    for call, match in [
            (lambda: rps([0], np.ma.masked_array([[0.9, 0.1]], mask=[[0, 1]])), "masked"),
            (lambda: rps(np.ma.masked_array([0, 1], mask=[0, 1]), [[.5, .5], [.5, .5]]),
             "masked"),
            (lambda: rps([2**64], [[.5, .5]]), "outside 0..1"),
            (lambda: rps(np.zeros((0, 2), int), np.zeros((0, 2, 3))), "no samples"),
            (lambda: rps([0], np.array([[10**400, 0]], dtype=object)), r"lie in \[0, 1\]"),
            (lambda: rps([0], np.array([["0.5", "0.5"]], dtype=object)), "real numbers"),
            (lambda: rps([0], [[.5, .5]], normalize=None), "normalize must be True or False")]:
        with pytest.raises(ValueError, match=match):
            call()


def test_rps_exact_by_hand():
    """y = (0, 2), p = ((1/2, 1/4, 1/4), (0, 1/2, 1/2)): sample 1 F = (1/2, 3/4), O = (1, 1),
    ((1/2)^2 + (1/4)^2)/2 = 5/32; sample 2 F = (0, 1/2), O = (0, 0), (1/2)^2/2 = 1/8;
    mean 9/64 (normalised), 9/32 without the 1/(K-1)."""
    p = [[R(1, 2), R(1, 4), R(1, 4)], [0, R(1, 2), R(1, 2)]]
    assert numeric.ranked_probability_score([0, 2], p, arithmetic="exact") == R(9, 64)
    assert numeric.ranked_probability_score([0, 2], p, normalize=False, arithmetic="exact") == R(9, 32)


# ---------------------------------------------------------------------------
# arithmetics and stacks
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", CASES)
def test_float_and_mp_against_exact(name):
    """|float64 - exact| <= 1e-12 max(1, |exact|); mp at 50 digits within 1e-45; a refusal
    is the same ValueError in all three arithmetics."""
    f = CASES[name]

    @SETTINGS
    @given(count_matrices())
    def check(cm):
        exact, refused = outcome(f, cm, "exact")
        if refused is not None:
            for a in ("float", "mp"):
                assert outcome(f, cm, a) == (None, refused)
            return
        e = sympy.N(exact, 70)
        assert abs(f(cm, "float") - float(e)) <= 1e-12 * max(1.0, abs(float(e)))
        with mpmath.workdps(50):
            v = f(cm, "mp")
            assert isinstance(v, mpmath.mpf)
            assert abs(v - mpmath.mpf(str(e))) <= mpmath.mpf(10) ** -45

    check()


@pytest.mark.parametrize("name", CASES)
def test_stack_equals_per_matrix_calls(name):
    f = CASES[name]
    rng = np.random.default_rng(7)
    stack = rng.integers(0, 4, size=(3, 2, 4, 4)) + np.eye(4, dtype=int) * 2  # defined everywhere
    v = f(stack, "float")
    assert v.shape == (3, 2)
    for idx in np.ndindex(3, 2):
        assert v[idx] == f(stack[idx], "float")
    ve = f(stack, "exact")
    assert all(ve[idx] == f(stack[idx], "exact") for idx in np.ndindex(3, 2))


def test_pair_counts_exact_beyond_float():
    """Counts near 2^40: C and D exceed 2^53 but C - D is an exact integer, so the float
    tau_c is the exact value rounded once.  [[a, b], [b, a]]: C - D = a^2 - b^2."""
    a, b = 2**40 + 1, 2**40
    cm = np.array([[a, b], [b, a]])
    exact = numeric.kendall_tau_c(cm, arithmetic="exact")
    assert exact == R(2 * 2 * (a * a - b * b), (2 * a + 2 * b) ** 2)
    assert numeric.kendall_tau_c(cm) == float(exact)


# ---------------------------------------------------------------------------
# registry flags: symmetry and bounds
# ---------------------------------------------------------------------------
SYMMETRIC = [c for c in CASES if REGISTRY[RECORD[c]].symmetric]
WITNESS = {  # a matrix whose transpose changes the value
    "ms": [[1, 1], [0, 3]], "ms_zero": [[1, 1], [0, 3]], "gm": [[1, 1], [0, 3]],
    "gm_zero": [[1, 1], [0, 3]], "somers_d": [[1, 1], [0, 3]], "cem": [[1, 1], [0, 3]],
}


def test_symmetry_flags_cover_every_case():
    assert sorted(SYMMETRIC) == ["kappa", "kappa_linear", "kappa_quadratic", "tau_c", "within_one"]
    assert sorted(SYMMETRIC + list(WITNESS)) == sorted(CASES)


@pytest.mark.parametrize("name", SYMMETRIC)
def test_symmetric_unchanged_by_transposition(name):
    f = CASES[name]

    @SETTINGS
    @given(count_matrices())
    def check(cm):
        assert outcome(f, cm, "exact") == outcome(f, cm.T.copy(), "exact")

    check()


@pytest.mark.parametrize("name", WITNESS)
def test_non_symmetric_witness(name):
    cm = np.array(WITNESS[name])
    assert CASES[name](cm, "exact") != CASES[name](cm.T.copy(), "exact")


@pytest.mark.parametrize("name", CASES)
def test_values_within_registered_bounds(name):
    f = CASES[name]
    lo, hi = REGISTRY[RECORD[name]].bounds

    @SETTINGS
    @given(count_matrices(max_K=6))
    def check(cm):
        v, refused = outcome(f, cm, "exact")
        if refused is None:
            v = sympy.N(v, 50)
            assert (lo is None or v >= lo - sympy.Float(10) ** -45) and \
                (hi is None or v <= hi + sympy.Float(10) ** -45)

    check()


@pytest.mark.parametrize("name", CASES)
def test_perfect_classifier(name):
    """A diagonal matrix with equal classes is the best value, 1, of every metric here;
    with an unobserved class too, except the missing = "zero" variants (an unobserved
    class counts 0)."""
    assert CASES[name](np.diag([2, 2, 2]), "exact") == 1
    assert CASES[name](np.diag([2, 0, 2]), "exact") == (0 if name.endswith("_zero") else 1)


def test_tau_c_below_one_on_an_unbalanced_diagonal():
    """diag(2, 1, 3): C - D = 2*1 + 2*3 + 1*3 = 11, N = 6, m = 3:
    tau_c = 2*3*11 / (36*2) = 11/12 < 1 (N^2 (m-1)/m exceeds the untied pairs' count
    unless the margins are equal); the other metrics give 1 there."""
    assert numeric.kendall_tau_c(np.diag([2, 1, 3]), arithmetic="exact") == R(11, 12)
    for name in CASES:
        if name != "tau_c":
            assert CASES[name](np.diag([2, 1, 3]), "exact") == 1


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------
# The errors every matrix metric shares (shape, sign, NaN, counts, empty, unknown
# arithmetic) are tested for every registered metric in test_errors.py.


def test_kappa_errors():
    with pytest.raises(ValueError, match="weights must be None, 'linear' or 'quadratic', got 'cubic'"):
        numeric.cohen_kappa([[1, 0], [0, 1]], weights="cubic")
    for cm in ([[5]], [[0, 0], [0, 3]], np.stack([np.eye(2, dtype=int), [[0, 0], [0, 3]]])):
        with pytest.raises(ValueError, match="kappa is undefined .* the expected disagreement is 0"):
            numeric.cohen_kappa(cm)
    # one true class but a different predicted one: expected disagreement 3*3, kappa = 1 - 3*3/9 = 0
    assert numeric.cohen_kappa([[0, 3], [0, 0]], arithmetic="exact") == 0
    with pytest.raises(ValueError, match=r"weights must be a \(2, 2\) array for this matrix, got shape \(3, 3\)"):
        numeric.cohen_kappa([[1, 0], [0, 1]], weights=np.ones((3, 3)))


def test_kappa_with_a_weight_matrix():
    """An array of weights is ``w`` itself (Cohen 1968): ``|r - c|`` and ``(r - c)^2``
    give the linear and quadratic kappas exactly; a 0/1 matrix off the diagonal the
    unweighted one; weights at unequal positions 0, 1, 3 a different number (the
    distance 3 between the outer classes, not 2)."""
    rng = np.random.default_rng(21)
    d = np.abs(np.subtract.outer(np.arange(3), np.arange(3)))
    for _ in range(20):
        cm = rng.integers(0, 9, (3, 3))
        cm[0, 0] += 1
        cm[2, 1] += 1
        for w, named in ((d, "linear"), (d ** 2, "quadratic"), ((d > 0).astype(int), None)):
            assert numeric.cohen_kappa(cm, weights=w, arithmetic="exact") == \
                numeric.cohen_kappa(cm, weights=named, arithmetic="exact")
    cm = [[2, 0, 1], [0, 2, 0], [1, 0, 2]]
    at = np.abs(np.subtract.outer([0, 1, 3], [0, 1, 3]))
    # R = C = (3, 2, 3), N = 8; observed sum w n = 3 + 3 = 6; expected sum w R_i C_j =
    # 3 (2*1 + 3*3) + 2 (3*1 + 3*2) + 3 (3*3 + 2*2) = 90: kappa = 1 - 8 * 6/90 = 7/15
    assert numeric.cohen_kappa(cm, weights=at, arithmetic="exact") == sympy.Rational(7, 15)


def test_association_errors():
    with pytest.raises(ValueError, match="Somers' d is undefined .* all samples share one true class"):
        numeric.somers_d([[2, 3], [0, 0]])
    # one predicted class is fine for d(pred | true): C = D = 0 -> 0
    assert numeric.somers_d([[2, 0], [3, 0]], arithmetic="exact") == 0
    for cm in ([[5]], [[2, 3], [0, 0]], [[2, 0], [3, 0]]):
        with pytest.raises(ValueError, match=r"tau_c is undefined .* \(m = 1\)"):
            numeric.kendall_tau_c(cm)


@pytest.mark.parametrize("f", [numeric.minimum_sensitivity, numeric.geometric_mean_sensitivity])
def test_bad_missing(f):
    with pytest.raises(ValueError, match="missing must be 'ignore' or 'zero', got 'drop'"):
        f([[1, 0], [0, 1]], missing="drop")


@pytest.mark.parametrize("y,proba,kw,message", [
    ([0], [0.5, 0.5], {}, r"must have shape \(\.\.\., N, K\), got shape \(2,\)"),
    ([0], [[1.0]], {}, r"need at least 2 classes .* got shape \(1, 1\)"),
    ([], np.zeros((0, 3)), {}, r"hold no samples, got shape \(0, 3\)"),
    ([0], [[np.nan, 1.0]], {}, "contain NaN or infinite values"),
    ([0], [[-0.5, 1.5]], {}, r"must lie in \[0, 1\]"),
    ([0], [[0.5, 0.6]], {}, "must sum to 1 over the classes .* off by 0.1"),
    ([0], [["a", "b"]], {}, "must hold real numbers, got dtype <U1"),
    ([0], np.array([[True, False]], dtype=object), {}, "must hold real numbers"),
    ([0, 1], [[0.5, 0.5]], {}, r"y_true has shape \(2,\); the probabilities need \(1,\)"),
    ([0.0], [[0.5, 0.5]], {}, "y_true must hold class indices 0..K-1"),
    ([2], [[0.5, 0.5]], {}, r"class index 2 in y_true is outside 0..1"),
    (["x"], [[0.5, 0.5]], {"labels": ["a", "b"]}, "label 'x' in y_true is not in labels"),
    (["a"], [[0.5, 0.5]], {"labels": ["a", "a"]}, "labels must not repeat"),
    (["a"], [[0.5, 0.5]], {"labels": ["a", "b", "c"]}, "labels has 3 classes; the probabilities have K = 2"),
    ([0], [[0.5, 0.5]], {"arithmetic": "decimal"}, "arithmetic must be one of"),
])
def test_rps_errors(y, proba, kw, message):
    with pytest.raises(ValueError, match=message):
        numeric.ranked_probability_score(y, proba, **kw)


# ---------------------------------------------------------------------------
# closed forms (analytic.derivations.forms) against the numeric exact values
# ---------------------------------------------------------------------------
def test_tridiagonal_limits():
    """The limits as K -> oo of the symbolic forms of the K-class tridiagonal
    matrix of ones (``forms.limits``, computed by ``sp.limit``; the forms
    themselves are checked against numeric at K = 2..10, exact and 50 digits,
    in test_analytic_forms.py), each within 10^-5 of the form at K = 10^6
    (the forms converge as O(1/K)).

    Expected limits, derived by hand: N = 3K - 2 samples, K of them on the
    diagonal, row and column sums 2, 3, ..., 3, 2.  Unweighted kappa: the
    observed agreement K/N -> 1/3, the chance agreement sum R_i C_i / N^2 ~
    9K / (3K)^2 -> 0, so kappa -> 1/3.  Weighted kappa: the observed
    disagreement 2(K - 1) / N stays bounded while the chance one grows like
    K (linear) or K^2 (quadratic), so 1 - observed/chance -> 1.  tau_c and
    Somers' d: the discordant pairs (one per pair of adjacent off-diagonal
    cells) and the pairs tied in a row or a column (sum R_i^2 / 2 ~ 9K / 2)
    are O(K) out of about N^2 / 2 pairs,
    so both -> 1.  MS: the middle rows' recall 1/3 (the end rows have 1/2)."""
    from analytic.derivations.forms import tridiagonal_forms
    from analytic.symbols import K

    forms = tridiagonal_forms()
    expected = {"kappa": sympy.Rational(1, 3), "kappa_linear": 1, "kappa_quadratic": 1,
                "kendall_tau_c": 1, "somers_d": 1, "minimum_sensitivity": sympy.Rational(1, 3)}
    for key, lim in expected.items():
        assert forms.limits[key] == lim, key
        assert abs(sympy.N(getattr(forms, key).subs(K, 10**6) - lim)) < 1e-5, key
