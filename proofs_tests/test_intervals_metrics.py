"""Classification by intervals: Hausdorff distance, densities, interval TC / TC_max / STC.

binotto2024 §4 (``shared/seeds/002_1ad9def3cd093580.txt``): eqs 7-9,
Definitions 2-3, Remark 4, Props 4-5, the norm-like properties of §4.2 and
Properties 1-3.  Our matrices have rows = true class; the paper's ``m_ij`` is
(predicted i, true j), i.e. our ``M[j, i]``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import assume, given, settings, strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linprog

import numeric
from analytic.ledger.checks._search import compositions as _rows, exhaustive_max
from analytic.ledger.sources import binotto2024 as B

R = sympy.Rational
EX = dict(arithmetic="exact")


@st.composite
def problems(draw, min_k=2, max_k=6, max_count=8):
    """(cm, lengths): every true class observed, rational positive lengths."""
    k = draw(st.integers(min_k, max_k))
    cm = draw(arrays(np.int64, (k, k), elements=st.integers(0, max_count)))
    cols = draw(arrays(np.int64, (k,), elements=st.integers(0, k - 1)))
    cm[np.arange(k), cols] += 1
    lengths = [Fraction(draw(st.integers(1, 12)), draw(st.integers(1, 5))) for _ in range(k)]
    return cm, lengths


def hausdorff_by_definition(lengths):
    """eq. 7 from the interval end points a_k, b_k (I_k = [a_k, b_k), a_{k+1} = b_k), a_1 = 7/3."""
    a, b, left = [], [], Fraction(7, 3)
    for l in lengths:
        a.append(left)
        b.append(left + l)
        left += l
    K = len(lengths)
    return [[max(abs(a[j] - a[i]), abs(b[j] - b[i])) for j in range(K)] for i in range(K)]


# ---------------------------------------------------------------------------
# eqs 7-9, Remark 4
# ---------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(problems())
def test_hausdorff_distance_eq7(problem):
    """hausdorff_distances equals eq. 7 from the end points, and sum-between + max(l_i, l_j)."""
    _, lengths = problem
    D = numeric.hausdorff_distances(lengths, **EX)
    ref = hausdorff_by_definition(lengths)
    K = len(lengths)
    for i, j in itertools.product(range(K), repeat=2):
        assert D[i, j] == R(ref[i][j].numerator, ref[i][j].denominator)
        if i < j:
            assert D[i, j] == sum(lengths[i + 1:j], Fraction(0)) + max(lengths[i], lengths[j])


@settings(max_examples=200, deadline=None)
@given(problems())
def test_interval_tc_eq9_and_remark4(problem):
    """eq. 9 cell by cell from densities (eq. 8); TC-hat = sum(C ⊙ M-hat) (Remark 4)."""
    cm, lengths = problem
    counts = cm.sum(axis=1)
    N = int(counts.sum())
    delta = [Fraction(int(n)) / l for n, l in zip(counts, lengths, strict=True)]
    Delta = sum(delta)
    D = hausdorff_by_definition(lengths)
    K = len(lengths)
    expect = Fraction(0)
    for t, p in itertools.product(range(K), repeat=2):  # true t, predicted p
        expect += int(cm[t, p]) * (Delta - delta[t]) / delta[p] * D[p][t] / N
    got = numeric.interval_tc(cm, lengths, **EX)
    assert got == R(expect.numerator, expect.denominator)
    assert got == (cm * numeric.interval_cost_matrix(counts, lengths, **EX)).sum()


@settings(max_examples=100, deadline=None)
@given(problems(), st.integers(1, 9), st.integers(1, 4))
def test_equal_lengths_scale_tc(problem, p, q):
    """§4.1: with all lengths equal to L, TC-hat = L x TC and TC-hat_max = L x TC_max."""
    cm, _ = problem
    L = Fraction(p, q)
    K = cm.shape[0]
    assert numeric.interval_tc(cm, [L] * K, **EX) == R(p, q) * numeric.tc(cm, **EX)
    counts = cm.sum(axis=1)
    assert numeric.interval_tc_max(counts, [L] * K, **EX) == R(p, q) * numeric.tc_max(counts, **EX)


def test_remark4_symmetric_iff_proportional_for_r_at_least_3():
    """Remark 4 for r = 3 and 4: M-hat symmetric <=> all densities equal (exhaustive small grid)."""
    grids = {3: ((1, 2, 3), (Fraction(1), Fraction(2), Fraction(3, 2))), 4: ((1, 2), (Fraction(1), Fraction(2)))}
    for r, (cgrid, lgrid) in grids.items():
        for counts in itertools.product(cgrid, repeat=r):
            for lengths in itertools.product(lgrid, repeat=r):
                M = numeric.interval_cost_matrix(counts, lengths, **EX)
                sym = all(M[i, j] == M[j, i] for i, j in itertools.combinations(range(r), 2))
                proportional = len({Fraction(n) / l for n, l in zip(counts, lengths, strict=True)}) == 1
                assert sym == proportional, (counts, lengths)


def test_remark4_fails_for_two_classes():
    """FINDING: Remark 4 is false for r = 2: gamma-hat_12 = gamma-hat_21 = 1 for any densities.

    Minimal counterexample: counts (1, 2), lengths (1, 1) (densities 1 and 2, not
    proportional), M-hat = [[0, 1/3], [1/3, 0]] symmetric.  Same cause as Remark 1:
    the equivalence needs a third class, sum_{k != i,j} delta_k > 0.
    """
    M = numeric.interval_cost_matrix([1, 2], [1, 1], **EX)
    assert M.tolist() == [[0, R(1, 3)], [R(1, 3), 0]]
    for counts, lengths in [((1, 2), (1, 1)), ((5, 1), (2, 7)), ((3, 3), (1, 4))]:
        M = numeric.interval_cost_matrix(counts, lengths, **EX)
        assert M[0, 1] == M[1, 0]
        assert counts[0] * lengths[1] != counts[1] * lengths[0]  # not proportional


# ---------------------------------------------------------------------------
# Props 4 and 5
# ---------------------------------------------------------------------------


def test_prop4_brute_force_small():
    """Prop. 4 = the exhaustive maximum of TC-hat over every matrix of S (exact), r = 2..4."""
    rng = np.random.default_rng(4)
    checked = 0
    for r in (2, 3, 4):
        for _ in range(12 if r < 4 else 5):
            counts = [int(c) for c in rng.integers(1, 4, size=r)]
            lengths = [Fraction(int(p), int(q))
                       for p, q in zip(rng.integers(1, 9, r), rng.integers(1, 4, r), strict=True)]
            M = numeric.interval_cost_matrix(counts, lengths, **EX)
            best, size = exhaustive_max(M, counts)
            checked += size
            assert best == numeric.interval_tc_max(counts, lengths, **EX), (counts, lengths)
    assert checked > 10**4


@pytest.mark.parametrize("seed", range(6))
def test_prop4_against_linear_programme(seed):
    """Prop. 4 equals the LP maximum of TC-hat over the matrices with the given class counts."""
    rng = np.random.default_rng(100 + seed)
    r = int(rng.integers(4, 25))
    counts = rng.integers(1, 500, size=r)
    lengths = rng.uniform(0.2, 5.0, size=r)
    C = numeric.interval_cost_matrix(counts, lengths)
    A_eq = np.kron(np.eye(r), np.ones(r))
    res = linprog(-C.reshape(-1), A_eq=A_eq, b_eq=counts.astype(float), bounds=(0, None), method="highs")
    assert res.status == 0
    assert -res.fun == pytest.approx(numeric.interval_tc_max(counts, lengths), rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 50), st.integers(1, 50), st.fractions(min_value=Fraction(1, 10), max_value=10),
       st.fractions(min_value=Fraction(1, 10), max_value=10))
def test_prop5_binary(n1, n2, l1, l2):
    """binotto2024 Prop. 5: for r = 2, TC-hat_max = max(l_1, l_2) (exact)."""
    v = numeric.interval_tc_max([n1, n2], [l1, l2], **EX)
    assert v == R(max(l1, l2).numerator, max(l1, l2).denominator)


# ---------------------------------------------------------------------------
# §4.2 norm-like properties
# ---------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(problems())
def test_non_negativity_and_maximal_agreement(problem):
    """§4.2: STC-hat >= 0, and STC-hat = 0 <=> A diagonal (every off-diagonal cost is > 0)."""
    cm, lengths = problem
    s = numeric.interval_stc(cm, lengths, **EX)
    assert s >= 0
    assert (s == 0) == (np.count_nonzero(cm - np.diag(np.diag(cm))) == 0)
    diag = np.diag(cm.sum(axis=1))
    assert numeric.interval_stc(diag, lengths, **EX) == 0


def test_homogeneity_fails_stc_is_scale_free():
    """FINDING: §4.2 'Homogeneity' STC(kA) = k STC(A) is false; STC(kA) = STC(A).

    Multiplying A by k multiplies the counts n_j, N and the densities by k, so
    gamma-hat, TC-hat (which has 1/N) and TC-hat_max are unchanged (with
    george2016's TC without 1/N both TC and TC_max scale by k: the ratio again
    does not).  The claim would also contradict STC-hat in [0, 1].  Minimal
    counterexample: r = 2, A = [[0, 1], [1, 0]] (N = 2, the least N with both
    classes observed), k = 2, any lengths: STC(2A) = 1, 2 STC(A) = 2.
    """
    A = np.array([[0, 1], [1, 0]])
    for lengths in ([1, 1], [1, 3], [R(1, 2), 5]):
        assert numeric.interval_stc(A, lengths, **EX) == 1
        assert numeric.interval_stc(2 * A, lengths, **EX) == 1 != 2 * numeric.interval_stc(A, lengths, **EX)


@settings(max_examples=100, deadline=None)
@given(problems(), st.integers(2, 7))
def test_stc_is_homogeneous_of_degree_zero(problem, k):
    """What holds instead of Homogeneity: STC-hat(kA) = STC-hat(A) (exact, random)."""
    cm, lengths = problem
    assert numeric.interval_stc(k * cm, lengths, **EX) == numeric.interval_stc(cm, lengths, **EX)


def test_minimal_agreement_exhaustive():
    """§4.2 'Minimal agreement': STC-hat(A) = 1 <=> A in S_max, and S_max is exactly the matrices
    whose true class j lies entirely on classes maximising d(I_l, I_j)/delta_l (Prop. 4's proof)."""
    cases = [([2, 1, 2], [1, 2, 1]), ([1, 2, 2], [Fraction(1, 2), 1, 3]), ([2, 2, 1, 1], [1, 1, 1, 2])]
    for counts, lengths in cases:
        r = len(counts)
        D = numeric.hausdorff_distances(lengths, **EX)
        dens = [R(n) / R(Fraction(l).numerator, Fraction(l).denominator) for n, l in zip(counts, lengths, strict=True)]
        ratio = [[D[l, j] / dens[l] for l in range(r)] for j in range(r)]
        allowed = [{l for l in range(r) if ratio[j][l] == max(ratio[j])} for j in range(r)]
        n_max = 0
        for rows in itertools.product(*(list(_rows(n, r)) for n in counts)):
            A = np.array(rows)
            is_max = numeric.interval_stc(A, lengths, **EX) == 1
            in_smax = all(A[j, l] == 0 for j in range(r) for l in range(r) if l not in allowed[j])
            assert is_max == in_smax
            n_max += is_max
        assert n_max >= 1


# ---------------------------------------------------------------------------
# Properties 1-3
# ---------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(problems(), st.fractions(min_value=Fraction(1, 20), max_value=20))
def test_property1_scale_invariance(problem, c):
    """Property 1: lengths x c (f(x) = c x + d): TC-hat x c, TC-hat_max x c, STC-hat unchanged."""
    cm, lengths = problem
    scaled = [c * l for l in lengths]
    cs = R(c.numerator, c.denominator)
    counts = cm.sum(axis=1)
    assert numeric.interval_tc(cm, scaled, **EX) == cs * numeric.interval_tc(cm, lengths, **EX)
    assert numeric.interval_tc_max(counts, scaled, **EX) == cs * numeric.interval_tc_max(counts, lengths, **EX)
    assert numeric.interval_stc(cm, scaled, **EX) == numeric.interval_stc(cm, lengths, **EX)


@settings(max_examples=150, deadline=None)
@given(problems(min_k=3), st.data())
def test_property2_monotonicity(problem, data):
    """Property 2: moving a prediction of true class j0 from i0 to k0 with d(I_k0, I_j0) > d(I_i0, I_j0)
    and delta_k0 = delta_i0 raises TC-hat by gamma-hat_{i0 j0} (d_k0 - d_i0) / N > 0."""
    cm, lengths = problem
    K = cm.shape[0]
    j0 = data.draw(st.integers(0, K - 1))
    others = [i for i in range(K) if i != j0]
    i0, k0 = data.draw(st.permutations(others))[:2]
    counts = cm.sum(axis=1)
    if cm[j0, i0] == 0:
        cm[j0, i0] += 1
        counts = cm.sum(axis=1)
    # equal densities: l_k0 = l_i0 n_k0 / n_i0
    lengths = list(lengths)
    lengths[k0] = lengths[i0] * int(counts[k0]) / int(counts[i0])
    D = numeric.hausdorff_distances(lengths, **EX)
    assume(D[k0, j0] != D[i0, j0])
    if not D[k0, j0] > D[i0, j0]:
        i0, k0 = k0, i0  # the farther one is the target
        assume(cm[j0, i0] > 0)
    moved = cm.copy()
    moved[j0, i0] -= 1
    moved[j0, k0] += 1
    N = int(counts.sum())
    delta = [R(int(n)) / R(l.numerator, l.denominator) for n, l in zip(counts, lengths, strict=True)]
    gamma = (sum(delta) - delta[j0]) / delta[i0]
    diff = numeric.interval_tc(moved, lengths, **EX) - numeric.interval_tc(cm, lengths, **EX)
    assert diff == gamma * (D[k0, j0] - D[i0, j0]) / N
    assert diff > 0
    # the move stays inside row j0, so the class counts, hence TC-hat_max, are those of cm:
    # STC-hat rises by exactly diff / TC-hat_max
    stc_diff = numeric.interval_stc(moved, lengths, **EX) - numeric.interval_stc(cm, lengths, **EX)
    assert stc_diff == diff / numeric.interval_tc_max(counts, lengths, **EX)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=3, max_size=3), st.integers(1, 6), st.integers(1, 6),
       st.integers(0, 6))
def test_property3_imbalance(counts, l1, l3, extra):
    """Property 3 on r = 3 with the middle interval longest, so d(I_2, I_1) = d(I_2, I_3) = l_2.

    (i) true classes j0, j1 = 1, 3 misclassified into i0 = 2: the lower-density one costs more,
        m_{i0 j0} - m_{i0 j1} = Delta_d/N (delta_j1 - delta_j0)/delta_i0;
    (ii) true class j0 = 2 misclassified into i0, i1 = 1, 3: the lower-density target costs more,
        m_{i0 j0} - m_{i1 j0} = Delta_d/N (Delta - delta_j0)(1/delta_i0 - 1/delta_i1).
    """
    l2 = max(l1, l3) + extra
    lengths = [l1, l2, l3]
    M = numeric.interval_cost_matrix(counts, lengths, **EX)  # M[true, predicted]
    N = sum(counts)
    delta = [R(n, l) for n, l in zip(counts, lengths, strict=True)]
    Delta = sum(delta)
    dist = numeric.hausdorff_distances(lengths, **EX)
    assert dist[1, 0] == dist[1, 2] == l2
    # (i) paper m_{2,1} - m_{2,3} = our M[0, 1] - M[2, 1]
    diff = M[0, 1] - M[2, 1]
    assert diff == R(l2, N) * (delta[2] - delta[0]) / delta[1]
    assert (diff > 0) == (delta[0] < delta[2]) and (diff == 0) == (delta[0] == delta[2])
    # (ii) paper m_{1,2} - m_{3,2} = our M[1, 0] - M[1, 2]
    diff = M[1, 0] - M[1, 2]
    assert diff == R(l2, N) * (Delta - delta[1]) * (1 / delta[0] - 1 / delta[2])
    assert (diff > 0) == (delta[0] < delta[2])


# ---------------------------------------------------------------------------
# arithmetic and errors
# ---------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(problems(max_k=8))
def test_interval_float_and_mp_agree_with_exact(problem):
    cm, lengths = problem
    mpmath.mp.dps = 50
    counts = cm.sum(axis=1)
    fl = [float(l) for l in lengths]
    mpl = [mpmath.mpf(l.numerator) / l.denominator for l in lengths]
    for f, arg in ((numeric.interval_tc, cm), (numeric.interval_stc, cm), (numeric.interval_tc_max, counts)):
        ex = f(arg, lengths, **EX)
        assert abs(f(arg, fl) - float(ex)) <= 1e-12 * max(1, abs(float(ex)))
        assert abs(f(arg, mpl, arithmetic="mp") - mpmath.mpf(ex.p) / ex.q) <= mpmath.mpf("1e-45") * max(1, abs(ex))


def test_interval_float_stack():
    rng = np.random.default_rng(5)
    cms = rng.integers(1, 9, size=(3, 4, 4))
    lengths = rng.uniform(0.5, 3, size=(3, 4))
    out = numeric.interval_stc(cms, lengths)
    assert out.shape == (3,)
    for i in range(3):
        assert out[i] == pytest.approx(numeric.interval_stc(cms[i], lengths[i]), rel=1e-14)


def test_exact_algebraic_lengths():
    """Exact mode accepts algebraic lengths (the toy example's optimal 1/sqrt 2, binotto2024 §5)."""
    x = B.parse(B.TOY_PRINTED["x_opt"])
    v = numeric.interval_tc_max(B.TOY_COUNTS, [1, 1, x], **EX)
    assert sympy.simplify(v - B.parse(B.TOY_PRINTED["TC_max_opt"])) == 0


@pytest.mark.parametrize("lengths, msg", [
    ([1, 0, 1], "must be positive"),
    ([1, -2, 1], "must be positive"),
    ([1, float("nan"), 1], "NaN or infinite"),
    ([1, np.inf, 1], "NaN or infinite"),
    ([1, 1], "has 2 entries but there are 3 classes"),
    (["a", 1, 1], "real numbers"),
])
def test_error_bad_lengths(lengths, msg):
    with pytest.raises(ValueError, match=msg):
        numeric.interval_tc_max([1, 2, 3], lengths)


def test_error_interval_zero_count_and_one_class():
    with pytest.raises(ValueError, match="true class 2 has no samples"):
        numeric.interval_tc([[1, 0, 0], [0, 1, 0], [0, 0, 0]], [1, 1, 1])
    with pytest.raises(ValueError, match="class 0 has a zero count"):
        numeric.interval_cost_matrix([0, 1], [1, 1])
    with pytest.raises(ValueError, match="needs at least 2"):
        numeric.interval_stc([[3]], [1])


@pytest.mark.parametrize("lengths", [[1e-170] * 3, [1e-160] * 3, [1e160] * 3,
                                     [1, 1e154, 1e154], [3e-300, 1e-300, 2e-300]])
def test_float_interval_metrics_at_extreme_lengths_match_exact(lengths):
    """Densities n / l and costs overflowed or underflowed in float64: STC with equal
    lengths of 1e-170 was inf, of 1e160 was 0, TC_max at 1e-170 was 0 (found in
    review).  The metrics are homogeneous in the lengths and are now computed on
    lengths scaled by a power of two.  Reference: the exact arithmetic."""
    cm = [[3, 2, 0], [2, 2, 1], [1, 2, 2]]
    for f, args in [(numeric.interval_tc, (cm,)), (numeric.interval_stc, (cm,)),
                    (numeric.interval_tc_max, ([5, 5, 5],))]:
        exact = f(*args, lengths, arithmetic="exact")
        assert float(f(*args, lengths)) == pytest.approx(float(exact), rel=1e-12), f.__name__
    exact = numeric.interval_cost_matrix([5, 5, 5], lengths, arithmetic="exact")
    assert numeric.interval_cost_matrix([5, 5, 5], lengths) == pytest.approx(
        np.array(exact, dtype=float), rel=1e-12)


def test_float_interval_metrics_refuse_lengths_too_far_apart():
    """Lengths 1 and 1e300 (or 1e-320) overflow float64 even after scaling: NaN was
    returned with RuntimeWarnings; now a ValueError that points to exact and mp, which
    compute the value (checked finite and positive here)."""
    cm = [[3, 2, 0], [2, 2, 1], [1, 2, 2]]
    for lengths in ([1, 1e300, 2], [1, 1e-320, 2]):
        with pytest.raises(ValueError, match="too many orders of magnitude"):
            numeric.interval_tc(cm, lengths)
        assert numeric.interval_tc(cm, lengths, arithmetic="exact") > 0
        assert mpmath.isfinite(numeric.interval_tc(cm, lengths, arithmetic="mp"))
    # the minimum itself is beyond float64 (mp: 3.33e599, at x = 1e150): said so (issue 23;
    # optimal_last_length now scales the lengths as the metrics do)
    with pytest.raises(ValueError, match="minimum exceeds about 1.8e308.*'exact' or 'mp'"):
        numeric.optimal_last_length([5, 5, 5], [1e300, 1])
    with pytest.raises(ValueError, match="too many orders of magnitude"):  # was NaN cells
        numeric.interval_cost_matrix([5, 5, 5], [1, 1e-320, 2])
