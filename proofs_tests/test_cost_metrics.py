"""Cost matrix, TC, STC, George's d and tie-break: definitions, remarks, arithmetic, errors.

Sources: binotto2024 (``shared/seeds/002_1ad9def3cd093580.txt``) eqs 3-5,
Remarks 1-2, Definition 1; george2016 (``shared/seeds/004_c1e927841b3b5ccf.txt``)
eqs 4-7 and §3.2.  Both print matrices predicted x true; ours are rows = true.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import numeric

R = sympy.Rational


def observed_matrices(min_k=2, max_k=7, max_count=9):
    """Confusion matrices in which every true class has at least one sample."""
    @st.composite
    def strat(draw):
        k = draw(st.integers(min_k, max_k))
        m = draw(arrays(np.int64, (k, k), elements=st.integers(0, max_count)))
        cols = draw(arrays(np.int64, (k,), elements=st.integers(0, k - 1)))
        m[np.arange(k), cols] += 1
        return m
    return strat()


# ---------------------------------------------------------------------------
# definitions
# ---------------------------------------------------------------------------
def test_cost_matrix_definition_exact():
    """binotto2024 eq. 4 / george2016 eq. 4 cell by cell: (N - n_true)/n_pred |i - j| (/ N)."""
    counts = [3, 1, 4, 1, 5]
    N = sum(counts)
    M = numeric.cost_matrix(counts, arithmetic="exact")
    G = numeric.cost_matrix(counts, normalize=False, arithmetic="exact")
    for t, p in itertools.product(range(5), repeat=2):
        george = R(N - counts[t], counts[p]) * abs(t - p)  # gamma_{p t} |p - t|, rows = true
        assert G[t, p] == george
        assert M[t, p] == george / N


@settings(max_examples=200, deadline=None)
@given(observed_matrices())
def test_tc_is_sum_of_hadamard_product(cm):
    """binotto2024 Remark 1: TC = sum(C ⊙ M); george2016 eq. 5: N TC = trace(C F^T) (printed orientation)."""
    counts = cm.sum(axis=1)
    t = numeric.tc(cm, arithmetic="exact")
    assert t == (cm * numeric.cost_matrix(counts, arithmetic="exact")).sum()
    Cp = numeric.cost_matrix(counts, normalize=False, arithmetic="exact").T  # george's C (pred x true)
    Fp = cm.T                                                                 # george's F (pred x true)
    assert int(cm.sum()) * t == np.trace(Cp.dot(Fp.T))


@settings(max_examples=200, deadline=None)
@given(observed_matrices(max_k=12))
def test_float_and_mp_agree_with_exact(cm):
    """|float - exact| <= 1e-12 max(1, |exact|); mp at 50 digits within 1e-45 (issue 2 contract)."""
    mpmath.mp.dps = 50
    for f in (numeric.tc, numeric.stc, numeric.george_d, numeric.george_tiebreak):
        ex = f(cm, arithmetic="exact")
        exf = sympy.N(ex, 60)
        assert abs(f(cm) - float(exf)) <= 1e-12 * max(1, abs(float(exf)))
        assert abs(f(cm, arithmetic="mp") - mpmath.mpf(str(exf))) <= mpmath.mpf("1e-45") * max(1, abs(exf))


def test_float_stack_matches_matrices():
    """Float mode is vectorised over a stack (..., K, K)."""
    rng = np.random.default_rng(3)
    stack = rng.integers(1, 20, size=(2, 5, 4, 4))
    for f in (numeric.tc, numeric.stc, numeric.george_d, numeric.george_tiebreak):
        out = f(stack)
        assert out.shape == (2, 5)
        for idx in np.ndindex(2, 5):
            assert out[idx] == pytest.approx(f(stack[idx]), rel=1e-14)
    C = numeric.cost_matrix(stack.sum(axis=-1))
    assert C.shape == (2, 5, 4, 4)


# ---------------------------------------------------------------------------
# Remark 1: symmetric iff balanced -- false for r = 2
# ---------------------------------------------------------------------------
def _symmetric(M):
    return all(M[i, j] == M[j, i] for i, j in itertools.combinations(range(M.shape[0]), 2))


def test_remark1_symmetric_iff_balanced_for_r_at_least_3():
    """binotto2024 Remark 1 holds for r >= 3: exhaustive over counts in 1..5 (r = 3) and 1..4 (r = 4)."""
    for r, top in ((3, 5), (4, 4)):
        for counts in itertools.product(range(1, top + 1), repeat=r):
            M = numeric.cost_matrix(counts, arithmetic="exact")
            assert _symmetric(M) == (len(set(counts)) == 1), counts


def test_remark1_fails_for_two_classes():
    """FINDING: Remark 1 is false for r = 2 -- the cost matrix is always symmetric.

    gamma_12 = (N - n_2)/n_1 = 1 = gamma_21 whatever the counts (the paper's
    step 'sum_{k != i,j} n_k / n_i = sum_{k != i,j} n_k / n_j <=> n_i = n_j' needs
    a third class: with r = 2 both sums are empty).  Minimal counterexample
    (smallest N): counts (1, 2), N = 3, M = [[0, 1/3], [1/3, 0]].
    """
    M = numeric.cost_matrix([1, 2], arithmetic="exact")
    assert M.tolist() == [[0, R(1, 3)], [R(1, 3), 0]]
    assert _symmetric(M)
    # exhaustive: every unbalanced binary design with N <= 30 is a counterexample,
    # and none with N < 3 exists (N = 2 forces (1, 1))
    for n1 in range(1, 30):
        for n2 in range(1, 31 - n1):
            assert _symmetric(numeric.cost_matrix([n1, n2], arithmetic="exact"))
    # the least-N binary design where symmetry and balance disagree, searched through the code
    first = next((N, n1, N - n1) for N in range(2, 31) for n1 in range(1, N)
                 if _symmetric(numeric.cost_matrix([n1, N - n1], arithmetic="exact")) != (n1 == N - n1))
    assert first == (3, 1, 2)


# ---------------------------------------------------------------------------
# george2016: balanced design, TC is a multiple of AMAE
# ---------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9), st.integers(1, 6), st.data())
def test_george_balanced_tc_is_multiple_of_amae(r, n, data):
    """george2016 §3.2: 'in a completely balanced design the cost matrix is equal to a scalar
    times AMAE' -- TC = (r - 1) AMAE exactly (gamma = (N - n)/n = r - 1, AMAE = MAE)."""
    cm = np.zeros((r, r), dtype=np.int64)
    for t in range(r):  # each true class has n samples, spread at random
        for _ in range(n):
            cm[t, data.draw(st.integers(0, r - 1))] += 1
    assert numeric.tc(cm, arithmetic="exact") == (r - 1) * numeric.amae(cm, arithmetic="exact")


def test_george_balanced_remark_needs_balance():
    """...and only in a balanced design: an unbalanced matrix where TC != (r - 1) AMAE."""
    cm = np.array([[1, 1, 0], [0, 3, 0], [0, 0, 2]])
    # n = (2, 3, 2), N = 7: one sample of class 1 predicted 2 costs (7 - 2)/3 * 1 / 7
    assert numeric.tc(cm, arithmetic="exact") == R(5, 21)
    assert numeric.amae(cm, arithmetic="exact") == R(1, 6)  # (1/2 + 0 + 0)/3
    assert numeric.tc(cm, arithmetic="exact") != 2 * numeric.amae(cm, arithmetic="exact")


# ---------------------------------------------------------------------------
# STC, d and the tie-break
# ---------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(observed_matrices())
def test_stc_range_and_extremes(cm):
    """binotto2024 Definition 1: STC in [0, 1]; 0 on the diagonal; 1 at A_max (exact)."""
    counts = cm.sum(axis=1)
    s = numeric.stc(cm, arithmetic="exact")
    assert 0 <= s <= 1
    assert numeric.stc(np.diag(counts), arithmetic="exact") == 0
    assert numeric.stc(numeric.tc_max_matrix(counts), arithmetic="exact") == 1
    assert s == numeric.tc(cm, arithmetic="exact") / numeric.tc_max(counts, arithmetic="exact")


@settings(max_examples=200, deadline=None)
@given(observed_matrices())
def test_george_d_definition_and_range(cm):
    """george2016 eq. 7 with MC = STC: d = sqrt((1 - Acc)^2 + MC^2) in [0, sqrt 2]; tie-break |Acc+MC-1|/sqrt 2."""
    acc = 1 - numeric.mer(cm, arithmetic="exact")
    mc = numeric.stc(cm, arithmetic="exact")
    d = numeric.george_d(cm, arithmetic="exact")
    assert sympy.simplify(d - sympy.sqrt((1 - acc) ** 2 + mc**2)) == 0
    assert 0 <= d <= sympy.sqrt(2)
    tb = numeric.george_tiebreak(cm, arithmetic="exact")
    assert sympy.simplify(tb - abs(acc + mc - 1) / sympy.sqrt(2)) == 0


def test_binary_mc_is_error_rate():
    """Observation: for r = 2, MC = 1 - Acc exactly (TC = (n_12 + n_21)/N and TC_max = 1),
    so every binary classifier lies on George's line of random chance (tie-break 0)
    and d = sqrt(2) (1 - Acc): d cannot break a tie of accuracy for two classes."""
    for cm in ([[3, 1], [2, 7]], [[10, 0], [5, 1]], [[1, 4], [4, 1]]):
        acc = 1 - numeric.mer(cm, arithmetic="exact")
        assert numeric.stc(cm, arithmetic="exact") == 1 - acc
        assert numeric.george_tiebreak(cm, arithmetic="exact") == 0
        assert numeric.george_d(cm, arithmetic="exact") == sympy.sqrt(2) * (1 - acc)


def test_tc_scale_invariance_in_counts():
    """TC (with binotto's 1/N) and STC are unchanged when every count is multiplied by k."""
    cm = np.array([[5, 2, 0], [1, 3, 1], [0, 2, 6]])
    for k in (2, 3, 10):
        assert numeric.tc(k * cm, arithmetic="exact") == numeric.tc(cm, arithmetic="exact")
        assert numeric.stc(k * cm, arithmetic="exact") == numeric.stc(cm, arithmetic="exact")


# ---------------------------------------------------------------------------
# errors: one test per message
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("f", [numeric.tc, numeric.stc, numeric.george_d, numeric.george_tiebreak])
def test_error_true_class_without_samples(f):
    with pytest.raises(ValueError, match="true class 1 has no samples"):
        f([[1, 0, 1], [0, 0, 0], [0, 1, 1]])


def test_error_true_class_without_samples_in_stack():
    stack = np.array([[[1, 0], [0, 1]], [[1, 1], [0, 0]]])
    with pytest.raises(ValueError, match=r"at stack index \(1,\): true class 1 has no samples"):
        numeric.tc(stack)


@pytest.mark.parametrize("f", [numeric.cost_matrix, numeric.tc_max, numeric.tc_max_matrix])
def test_error_zero_class_count(f):
    with pytest.raises(ValueError, match="class 2 has a zero count"):
        f([3, 1, 0])


@pytest.mark.parametrize("bad, msg", [
    ([3, -1], "must be non-negative"),
    ([3, float("nan")], "NaN or infinite"),
    ([3, np.inf], "NaN or infinite"),
    ([3, 1.5], "integer counts"),
    ([], "is empty"),
    (4, "got a scalar"),
    (["a", "b"], "real numbers"),
    ([True, True], "real numbers"),
])
def test_error_bad_class_counts(bad, msg):
    with pytest.raises(ValueError, match=msg):
        numeric.tc_max(bad)


@pytest.mark.parametrize("bad, msg", [
    (np.array([3, 0, 2]), "class 1 has a zero count"),
    (np.array([[3, 2], [4, 0]]), r"at stack index \(1,\): class 1 has a zero count"),
    (np.array([3, -1]), "must be non-negative"),
    (np.array([], dtype=np.int64), "is empty"),
    (np.zeros((2, 0), dtype=np.int64), "is empty"),
    (np.int64(4), "got a scalar"),
    (np.array(4), "got a scalar"),
    (np.ma.array([3, 2], mask=[False, True]), "masked"),
])
def test_error_bad_int64_class_counts(bad, msg):
    """Bad int64 arrays (and an int64 scalar, a masked array) fail the guard of the
    validation's fast path for int64 counts (issue 13) and get the general path's
    messages."""
    with pytest.raises(ValueError, match=msg):
        numeric.tc_max(bad)


def test_int64_class_counts_min_classes():
    """The fast path honours ``min_classes`` (interval optimisation needs two classes)."""
    with pytest.raises(ValueError, match="needs at least 2"):
        numeric.cost.check_class_counts(np.array([4]), min_classes=2)
    a = np.array([4, 1])
    assert numeric.cost.check_class_counts(a, min_classes=2) is a


@pytest.mark.parametrize("f", [numeric.stc, numeric.george_d, numeric.george_tiebreak])
def test_error_stc_needs_two_classes(f):
    """TC_max = 0 for r = 1: STC (and MC in d) would divide by zero."""
    assert numeric.tc_max([4], arithmetic="exact") == 0
    with pytest.raises(ValueError, match="needs at least 2"):
        f([[4]])


def test_error_bad_matrix_and_arithmetic():
    with pytest.raises(ValueError, match="must be square"):
        numeric.tc([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="arithmetic must be one of"):
        numeric.tc([[1, 0], [0, 1]], arithmetic="decimal")
