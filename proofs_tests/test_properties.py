"""Property tests (hypothesis, >= 200 examples each) over random count matrices.

Matrices have K = 1..12 classes, small counts (exact SymPy arithmetic is the
reference and is slow on large ones), many zero cells, and empty rows and
columns.  Metrics that need two classes (R_s, tau_b) or two samples (r_int)
raise ValueError on some of them: those examples are not skipped -- every
arithmetic must then raise the same ValueError.

Properties:
- |float64 - exact| <= 1e-12 max(1, |exact|), and mp at 50 digits within
  1e-45 of exact, for every variant of every registered metric (and OC and
  UOC at gamma = 2);
- invariance under transposition for the metrics the registry flags symmetric
  (OC: cardoso2011 §3.3); test_registry.py finds a witness for the others;
- OC, UOC and A_UOC in [0, 1], and exactly 0 for a diagonal matrix;
- UOC (and OC) non-decreasing and concave in beta;
- UOC, A_UOC and the macro-averaged errors unchanged when a row is
  multiplied by a positive integer (silva2018: robust to imbalance).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import hypothesis.extra.numpy as hnp

import numeric
from numeric.registry import REGISTRY

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def count_matrices(draw, min_K=1, max_K=12, max_count=3):
    """A K x K count matrix with many zeros, some empty rows and columns, N >= 1."""
    K = draw(st.integers(min_K, max_K))
    cm = draw(hnp.arrays(np.int64, (K, K), elements=st.sampled_from([0, 0, 1, 2, max_count])))
    for i in draw(st.lists(st.integers(0, K - 1), max_size=max(1, K // 3))):
        cm[i, :] = 0
    for j in draw(st.lists(st.integers(0, K - 1), max_size=max(1, K // 3))):
        cm[:, j] = 0
    if cm.sum() == 0:
        cm[draw(st.integers(0, K - 1)), draw(st.integers(0, K - 1))] = 1
    return cm


def _registered(m, variant):
    return lambda cm, a: m.function(cm, **variant.kwargs(cm), arithmetic=a)


#: case -> (function(cm, arithmetic), max K for the exact reference): every variant
#: of every registered metric (numeric.registry), plus OC/UOC at other beta and gamma
METRICS = {
    (m.name if len(m.cases()) == 1 else f"{m.name}[{v.label}]"): (_registered(m, v), 12)
    for m in REGISTRY.values() if m.takes_matrix for v in m.cases()
}
METRICS.update({
    "oc_beta_1/10": (lambda cm, a: numeric.oc(cm, sympy.Rational(1, 10), arithmetic=a), 12),
    # gamma = 2: the exact reference carries square roots, slow -- K <= 4
    "oc_gamma2": (lambda cm, a: numeric.oc(cm, sympy.Rational(1, 50), gamma=2, arithmetic=a), 4),
    "uoc_gamma2": (lambda cm, a: numeric.uoc(cm, sympy.Rational(1, 3), gamma=2, arithmetic=a), 4),
})
#: the registry name of each case
METRIC_OF = {case: case.split("[")[0].split("_beta")[0].split("_gamma")[0] for case in METRICS}


def _outcome(f, cm, arithmetic):
    try:
        return f(cm, arithmetic), None
    except ValueError as exc:
        return None, str(exc)


def _same_refusal(f, cm, arithmetics, message):
    for a in arithmetics:
        with pytest.raises(ValueError) as info:
            f(cm, a)
        assert str(info.value) == message


@pytest.mark.parametrize("name", METRICS)
def test_float_and_mp_against_exact(name):
    """|float64 - exact| <= 1e-12 max(1, |exact|); mp at 50 digits within 1e-45 of exact.

    One exact (SymPy) reference per example serves both comparisons.
    """
    f, max_K = METRICS[name]

    @SETTINGS
    @given(count_matrices(max_K=max_K))
    def check(cm):
        exact, refused = _outcome(f, cm, "exact")
        if refused is not None:
            _same_refusal(f, cm, ["float", "mp"], refused)
            return
        e = sympy.N(exact, 70)
        assert abs(f(cm, "float") - float(e)) <= 1e-12 * max(1.0, abs(float(e)))
        with mpmath.workdps(50):
            v = f(cm, "mp")
            assert isinstance(v, mpmath.mpf)
            assert abs(v - mpmath.mpf(str(e))) <= mpmath.mpf(10) ** -45

    check()


# ---------------------------------------------------------------------------
# symmetry under transposition
# ---------------------------------------------------------------------------
#: the registry's flag decides; test_registry.py finds a witness for each non-symmetric one
SYMMETRIC = [case for case in METRICS if REGISTRY[METRIC_OF[case]].symmetric]


def test_every_registered_metric_is_a_case():
    assert set(METRIC_OF.values()) == {m.name for m in REGISTRY.values() if m.takes_matrix}


@pytest.mark.parametrize("name", SYMMETRIC)
def test_symmetric_metrics_unchanged_by_transposition(name):
    """cardoso2011 §3.3: "the transposition of the CM does not change the value of OC"
    (exact equality); MER, MAE, MSE, R_s, tau_b and r_int share the property."""
    f, max_K = METRICS[name]

    @SETTINGS
    @given(count_matrices(max_K=min(max_K, 8)))
    def check(cm):
        v, refused = _outcome(f, cm, "exact")
        vt, refused_t = _outcome(f, cm.T.copy(), "exact")
        assert (refused is None) == (refused_t is None)
        if refused is None and v != vt:  # equal values in different forms: simplify
            assert sympy.simplify(v - vt) == 0

    check()


# ---------------------------------------------------------------------------
# range, zero on the diagonal, monotone and concave in beta
# ---------------------------------------------------------------------------
betas = st.fractions(min_value=0, max_value=3, max_denominator=50)


def _R(fr):
    return sympy.Rational(fr.numerator, fr.denominator)


@SETTINGS
@given(count_matrices(max_K=8), betas)
def test_path_indices_in_unit_interval(cm, beta):
    """OC (cardoso2011 §3.3), UOC and A_UOC (silva2018) lie in [0, 1]."""
    b = _R(beta)
    for v in (numeric.oc(cm, b, arithmetic="exact"), numeric.uoc(cm, b, arithmetic="exact"),
              numeric.a_uoc(cm, arithmetic="exact")):
        assert 0 <= v <= 1


@SETTINGS
@given(hnp.arrays(np.int64, st.integers(1, 12), elements=st.integers(0, 5)), betas,
       st.sampled_from([1, 2, Fraction(1, 2)]))
def test_path_indices_zero_for_a_diagonal_matrix(diag, beta, gamma):
    """A diagonal matrix (a perfect classifier; zero diagonal entries are unobserved
    classes) has OC = UOC = A_UOC = 0 exactly, for every beta and gamma."""
    if diag.sum() == 0:
        diag[0] = 1
    cm = np.diag(diag)
    g = _R(Fraction(gamma))
    assert numeric.oc(cm, _R(beta), gamma=g, arithmetic="exact") == 0
    assert numeric.uoc(cm, _R(beta), gamma=g, arithmetic="exact") == 0
    assert numeric.a_uoc(cm, arithmetic="exact") == 0


@pytest.mark.parametrize("metric", ["uoc", "oc"])
def test_non_decreasing_and_concave_in_beta(metric):
    """UOC (silva2018 §III) and OC are minima of lines with non-negative slopes:
    non-decreasing and concave in beta -- checked exactly at three betas."""
    f = {"uoc": numeric.uoc, "oc": numeric.oc}[metric]

    @SETTINGS
    @given(count_matrices(max_K=6), st.lists(betas, min_size=3, max_size=3, unique=True))
    def check(cm, bs):
        b1, b2, b3 = sorted(_R(b) for b in bs)
        v1, v2, v3 = (f(cm, b, arithmetic="exact") for b in (b1, b2, b3))
        assert v1 <= v2 <= v3
        assert (b3 - b1) * v2 >= (b3 - b2) * v1 + (b2 - b1) * v3

    check()


@SETTINGS
@given(count_matrices(max_K=6), st.data())
def test_row_scaling_invariance(cm, data):
    """Multiplying a true class's row by c > 0 (imbalance) leaves UOC, A_UOC, AMAE, MMAE
    and macro RMSE unchanged (silva2018 Table I, D vs F); OC generally changes."""
    i = data.draw(st.integers(0, cm.shape[0] - 1))
    c = data.draw(st.integers(2, 10))
    scaled = cm.copy()
    scaled[i] *= c
    ex = dict(arithmetic="exact")
    assert numeric.uoc(cm, sympy.Rational(1, 4), **ex) == numeric.uoc(scaled, sympy.Rational(1, 4), **ex)
    assert numeric.a_uoc(cm, **ex) == numeric.a_uoc(scaled, **ex)
    for f in (numeric.amae, numeric.mmae, numeric.macro_rmse):
        assert f(cm, **ex) == f(scaled, **ex)


def test_oc_is_not_row_scaling_invariant():
    """The witness from silva2018 Table I: D and F (D with row 1 times 10) differ in OC."""
    from analytic.ledger.sources import silva2018 as S
    D, F = np.array(S.MATRICES["D"]), np.array(S.MATRICES["F"])
    beta = sympy.Rational(1, 100)
    assert numeric.oc(D, beta, arithmetic="exact") != numeric.oc(F, beta, arithmetic="exact")
    beta = sympy.Rational(1, 4)
    assert numeric.uoc(D, beta, arithmetic="exact") == numeric.uoc(F, beta, arithmetic="exact")


@SETTINGS
@given(count_matrices(max_K=10))
def test_ranking_coefficients_in_minus_one_one(cm):
    """silva2018 §II: "All three indices of similarity, R_s, tau_b and r_int, vary between -1 and 1"."""
    degenerate = (cm.sum(axis=1) > 0).sum() < 2 or (cm.sum(axis=0) > 0).sum() < 2
    compared = 0
    for f in (numeric.spearman_rs, numeric.kendall_tau_b, numeric.r_int):
        try:
            v = f(cm, arithmetic="exact")
        except ValueError:
            # undefined only with a single observed true or predicted class
            assert degenerate, (f.__name__, cm.tolist())
            continue
        assert -1 <= v <= 1
        compared += 1
    assert compared == 3 or degenerate
