"""Peers: the metrics against independent implementations on random matrices.

- scikit-learn: ``mean_absolute_error``, ``mean_squared_error``,
  ``accuracy_score`` and ``confusion_matrix`` on the expanded label vectors;
- imbalanced-learn: ``macro_averaged_mean_absolute_error`` (AMAE);
- scipy.stats: ``kendalltau`` (tau-b) and ``spearmanr`` on the expanded
  label vectors;
- cardoso2011 Appendix B, Listing 1: the paper's Matlab OC, transcribed;
- brute force: OC, UOC and A_UOC by enumerating every monotone path
  (Fractions; mpmath for gamma = 2), against the dynamic programme and the parametric search.

The random matrices have empty rows and columns; a matrix is expanded into
``y_true = repeat(i, n_i.)`` and ``y_pred`` accordingly (rows = true class).
"""

from __future__ import annotations

import functools
import itertools
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.stats
import sympy
from imblearn.metrics import macro_averaged_mean_absolute_error
from sklearn.metrics import accuracy_score, confusion_matrix as sk_confusion_matrix
from sklearn.metrics import mean_absolute_error, mean_squared_error

from analytic.derivations.metric_thresholds import monotone_paths as _monotone_paths

import numeric

SEED = 20240611


def random_matrices(n, K_range=(1, 9), high=6, seed=SEED):
    """``n`` random count matrices (K in K_range), with empty rows and columns."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        K = int(rng.integers(K_range[0], K_range[1] + 1))
        cm = rng.integers(0, high, size=(K, K)) * (rng.random((K, K)) < 0.5)
        if rng.random() < 0.3:
            cm[rng.integers(K)] = 0
        if rng.random() < 0.3:
            cm[:, rng.integers(K)] = 0
        if cm.sum() > 0:
            out.append(cm)
    return out


def expand(cm):
    """Label vectors (class indices 0..K-1) whose confusion matrix is ``cm``."""
    K = cm.shape[0]
    i, j = np.meshgrid(np.arange(K), np.arange(K), indexing="ij")
    counts = cm.reshape(-1)
    return np.repeat(i.reshape(-1), counts), np.repeat(j.reshape(-1), counts)


MATRICES = random_matrices(300)


def two_classes(cm):
    return (cm.sum(1) > 0).sum() >= 2 and (cm.sum(0) > 0).sum() >= 2


@pytest.mark.parametrize("i", range(0, 300, 30))
def test_sklearn_mae_mse_accuracy(i):
    """MAE, MSE and 1 - MER equal scikit-learn's on the expanded vectors (rel 1e-12)."""
    for cm in MATRICES[i:i + 30]:
        y, yhat = expand(cm)
        assert numeric.mae(cm) == pytest.approx(mean_absolute_error(y, yhat), rel=1e-12, abs=1e-15)
        assert numeric.mse(cm) == pytest.approx(mean_squared_error(y, yhat), rel=1e-12, abs=1e-15)
        assert 1 - numeric.mer(cm) == pytest.approx(accuracy_score(y, yhat), rel=1e-12, abs=1e-15)


@pytest.mark.filterwarnings("ignore:A single label was found")
def test_sklearn_confusion_matrix():
    """confusion_matrix equals scikit-learn's (rows = true) on random label vectors, with labels."""
    rng = np.random.default_rng(SEED)
    for _ in range(200):
        K = int(rng.integers(1, 9))
        n = int(rng.integers(1, 60))
        labels = np.sort(rng.choice(100, size=K, replace=False))
        y, yhat = rng.choice(labels, n), rng.choice(labels, n)
        assert np.array_equal(numeric.confusion_matrix(y, yhat, labels=labels),
                              sk_confusion_matrix(y, yhat, labels=labels))
        # without labels= both drop the classes absent from both vectors; ours says so
        # (LabelWarning, test_reliability) unless the observed labels are 0..K-1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numeric.LabelWarning)
            assert np.array_equal(numeric.confusion_matrix(y, yhat), sk_confusion_matrix(y, yhat))
    cm = MATRICES[7]
    assert np.array_equal(numeric.confusion_matrix(*expand(cm), labels=np.arange(cm.shape[0])), cm)


def test_imblearn_amae():
    """AMAE (missing='ignore') equals imbalanced-learn's macro-averaged MAE.

    imbalanced-learn averages over the union of the labels of y_true and
    y_pred, and raises when a predicted class has no true sample (its MAE is
    over an empty set); the comparison therefore uses matrices whose
    predicted classes are all observed true classes, where the union is the
    set of observed true classes -- numeric's missing='ignore'.
    """
    compared = 0
    for cm in MATRICES:
        while True:  # keep predicted classes within the observed true classes
            observed = cm.sum(1) > 0
            if not np.any((cm.sum(0) > 0) & ~observed):
                break
            cm = cm * observed[None, :]
        if cm.sum() == 0:
            continue
        y, yhat = expand(cm)
        assert numeric.amae(cm) == pytest.approx(
            macro_averaged_mean_absolute_error(y, yhat), rel=1e-12, abs=1e-15)
        compared += 1
    assert compared >= 250


def test_imblearn_amae_refuses_a_predicted_only_class():
    """The peer's limit: a class predicted but never true makes imbalanced-learn raise."""
    with pytest.raises(ValueError):
        macro_averaged_mean_absolute_error([0, 0, 1], [0, 2, 1])
    assert numeric.amae(numeric.confusion_matrix([0, 0, 1], [0, 2, 1]), arithmetic="exact") == sympy.Rational(1, 2)


#: Of each block of 60 random matrices, 49-55 have two observed true and predicted classes
#: (seeded, counted when written); at least this many must be compared with scipy.
COMPARED_MIN = 45


@pytest.mark.parametrize("i", range(0, 300, 60))
def test_scipy_kendall_tau_b_and_spearman(i):
    """tau_b and R_s equal scipy.stats.kendalltau (variant 'b') and spearmanr on the expanded vectors.

    Matrices with a single observed true or predicted class are undefined
    for both: numeric raises ValueError, scipy returns NaN.
    """
    compared = 0
    for cm in MATRICES[i:i + 60]:
        y, yhat = expand(cm)
        if not two_classes(cm):
            with pytest.raises(ValueError, match="undefined"):
                numeric.kendall_tau_b(cm)
            with pytest.raises(ValueError, match="undefined"):
                numeric.spearman_rs(cm)
            continue
        tau = scipy.stats.kendalltau(y, yhat, variant="b").statistic
        rs = scipy.stats.spearmanr(y, yhat).statistic
        assert numeric.kendall_tau_b(cm) == pytest.approx(tau, rel=1e-12, abs=1e-14)
        assert numeric.spearman_rs(cm) == pytest.approx(rs, rel=1e-12, abs=1e-14)
        compared += 1
    assert compared >= COMPARED_MIN  # the skips cannot hide the comparison


# ---------------------------------------------------------------------------
# cardoso2011 Appendix B, Listing 1 (Matlab), transcribed line by line
# ---------------------------------------------------------------------------
def ordinal_classification_index(cMatrix, K, bbeta=None, ggamma=1):
    """cardoso2011 Listing 1, ``OrdinalClassificationIndex(cMatrix, K)``.

    1-based Matlab indices are kept by padding; ``bbeta`` defaults to the
    listing's ``0.75/(N*(K-1)^ggamma)``; exact when ``cMatrix`` holds SymPy
    numbers.
    """
    N = sum(sum(row) for row in cMatrix)
    if bbeta is None:
        bbeta = sympy.Rational(3, 4) / (N * (K - 1) ** ggamma)
    helperM2 = [[0] * (K + 1) for _ in range(K + 1)]
    for r in range(1, K + 1):
        for c in range(1, K + 1):
            helperM2[r][c] = cMatrix[r - 1][c - 1] * (abs(r - c) ** ggamma)
    TotalDispersion = sum(map(sum, helperM2)) ** sympy.Rational(1, ggamma)
    helperM1 = [[0] + [sympy.Integer(v) / (TotalDispersion + N) for v in row] for row in [[0] * K] + list(cMatrix)]
    errMatrix = [[None] * (K + 1) for _ in range(K + 1)]
    errMatrix[1][1] = 1 - helperM1[1][1] + bbeta * helperM2[1][1]
    for r in range(2, K + 1):
        c = 1
        errMatrix[r][c] = errMatrix[r - 1][c] - helperM1[r][c] + bbeta * helperM2[r][c]
    for c in range(2, K + 1):
        r = 1
        errMatrix[r][c] = errMatrix[r][c - 1] - helperM1[r][c] + bbeta * helperM2[r][c]
    for c in range(2, K + 1):
        for r in range(2, K + 1):
            costup = errMatrix[r - 1][c]
            costleft = errMatrix[r][c - 1]
            lefttopcost = errMatrix[r - 1][c - 1]
            aux = min([costup, costleft, lefttopcost])
            errMatrix[r][c] = aux - helperM1[r][c] + bbeta * helperM2[r][c]
    return errMatrix[K][K]


def test_cardoso2011_listing_1_is_a_peer_for_oc():
    """numeric.oc equals the paper's own Matlab listing, exactly, at the listing's
    beta = 0.75/(N(K-1)) and at a second beta, on 120 random matrices (K >= 2)."""
    for cm in [m for m in MATRICES if m.shape[0] >= 2][:120]:
        K, N = cm.shape[0], int(cm.sum())
        rows = cm.tolist()
        assert numeric.oc(cm, sympy.Rational(3, 4) / (N * (K - 1)), arithmetic="exact") == \
            ordinal_classification_index(rows, K)
        assert numeric.oc(cm, sympy.Rational(1, 7), arithmetic="exact") == \
            ordinal_classification_index(rows, K, bbeta=sympy.Rational(1, 7))


# ---------------------------------------------------------------------------
# brute force over every monotone path
# ---------------------------------------------------------------------------
#: Every path (1,1) -> (K,K) with steps (1,0), (0,1), (1,1) (the Delannoy paths), cached.
monotone_paths = functools.lru_cache(maxsize=None)(_monotone_paths)


def path_lines(cm, metric, gamma=1):
    """(intercept, slope) of every monotone path: cost = 1 - benefit + beta * penalty.

    OC (cardoso2011 eq. 7): benefit n / (N + M), penalty n |r-c|^gamma.
    UOC (silva2018 eq. 28): p = n/N_r on observed rows, K' observed classes,
    benefit p / (K' + K'^(1-gamma) M'), penalty p |r-c|^gamma / K'.
    gamma = 1 in :class:`fractions.Fraction` (exact); gamma = 2 in mpmath at
    60 digits.
    """
    if gamma == 1:
        num, root = Fraction, (lambda x: x)
    else:
        num, root = mpmath.mpf, (lambda x: mpmath.root(x, gamma))
    cm = [[num(int(v)) for v in row] for row in cm]
    K = len(cm)
    d = lambda r, c: num(abs(r - c)) ** gamma  # noqa: E731
    if metric == "oc":
        N = sum(map(sum, cm))
        M = root(sum(cm[r][c] * d(r, c) for r in range(K) for c in range(K)))
        ben = [[cm[r][c] / (N + M) for c in range(K)] for r in range(K)]
        pen = [[cm[r][c] * d(r, c) for c in range(K)] for r in range(K)]
    else:
        rows = [sum(row) for row in cm]
        p = [[cm[r][c] / rows[r] if rows[r] else num(0) for c in range(K)] for r in range(K)]
        Kp = num(sum(1 for n in rows if n))
        Mp = root(sum(p[r][c] * d(r, c) for r in range(K) for c in range(K)))
        ben = [[p[r][c] / (Kp + Kp ** (1 - gamma) * Mp) for c in range(K)] for r in range(K)]
        pen = [[p[r][c] * d(r, c) / Kp for c in range(K)] for r in range(K)]
    return [(1 - sum(ben[r][c] for r, c in path), sum(pen[r][c] for r, c in path))
            for path in monotone_paths(K)]


def envelope_integral(lines, lo=0, hi=1):
    """Exact integral over [lo, hi] of min over lines (Fractions), split at every pairwise crossing."""
    xs = {Fraction(lo), Fraction(hi)}
    for (a1, s1), (a2, s2) in itertools.combinations(set(lines), 2):
        if s1 != s2:
            x = (a2 - a1) / (s1 - s2)
            if lo < x < hi:
                xs.add(x)
    xs = sorted(xs)
    total = Fraction(0)
    for x0, x1 in zip(xs, xs[1:]):
        mid = (x0 + x1) / 2
        a, s = min(lines, key=lambda l: l[0] + l[1] * mid)
        total += a * (x1 - x0) + s * (x1**2 - x0**2) / 2
    return total


def as_fraction(x):
    assert isinstance(x, sympy.Rational), x
    return Fraction(int(x.p), int(x.q))


SMALL = random_matrices(80, K_range=(1, 5), high=4, seed=SEED + 1)


def test_brute_force_oc_and_uoc():
    """OC and UOC equal the minimum over every monotone path (63 paths at K = 4, 321 at K = 5):
    exactly for gamma = 1, within 1e-45 at 60 digits for gamma = 2."""
    with mpmath.workdps(60):
        for cm in SMALL:
            for beta in (Fraction(1, 9), Fraction(3, 5)):
                for metric, f in (("oc", numeric.oc), ("uoc", numeric.uoc)):
                    brute = min(a + s * beta for a, s in path_lines(cm, metric, 1))
                    got = f(cm, sympy.Rational(beta.numerator, beta.denominator), arithmetic="exact")
                    assert as_fraction(got) == brute, (metric, cm.tolist())
                    if cm.shape[0] <= 4:
                        b = mpmath.mpf(beta.numerator) / beta.denominator
                        brute2 = min(a + s * b for a, s in path_lines(cm, metric, 2))
                        got2 = f(cm, b, gamma=2, arithmetic="mp")
                        assert abs(got2 - brute2) < mpmath.mpf(10) ** -45, (metric, cm.tolist())


def test_brute_force_a_uoc():
    """A_UOC equals the exact integral over [0, 1] of the lower envelope of all path lines (K <= 4)."""
    for cm in [m for m in SMALL if m.shape[0] <= 4]:
        assert as_fraction(numeric.a_uoc(cm, arithmetic="exact")) == envelope_integral(path_lines(cm, "uoc"))
