"""binotto2024 Prop. 1 (TC_max), Props 2-3 and Corollary 1, checked three ways.

* exhaustively: the maximum of TC over *every* confusion matrix with the given
  class counts (the set S of binotto2024 §3), in exact integer arithmetic;
* by linear programming: george2016 eq. 6 (the problem the closed form
  replaces) solved with scipy's ``linprog`` (HiGHS) for larger r and counts;
* in exact arithmetic for r up to 50 (Props 2, 3, Corollary 1).

Source: ``shared/seeds/002_1ad9def3cd093580.txt`` (binotto2024 §3) and
``shared/seeds/004_c1e927841b3b5ccf.txt`` (george2016 §2.2.2, eq. 6).
Our matrices have rows = true class (the papers' columns).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy
from scipy.optimize import linprog

import numeric
from analytic.ledger.checks._search import exhaustive_argmax
from analytic.ledger.sources import binotto2024 as B

R = sympy.Rational


SMALL = (
    [(n1, n2) for n1 in range(1, 6) for n2 in range(1, 6)]
    + [tuple(c) for c in itertools.product(range(1, 5), repeat=3)]
    + [tuple(c) for c in itertools.product(range(1, 4), repeat=4)]
    + [(1,), (4,), (1, 2, 1, 2, 1), (2, 1, 2, 2, 1), (1, 1, 1, 1, 2)]
)


def test_prop1_brute_force_small():
    """Prop. 1 equals the exhaustive maximum for every count vector of SMALL (exact equality)."""
    matrices = 0
    for counts in SMALL:
        best, A, size = exhaustive_argmax(numeric.cost_matrix(counts, arithmetic="exact"), counts)
        matrices += size
        closed = numeric.tc_max(counts, arithmetic="exact")
        assert closed == best, counts
        # the maximiser found by enumeration has TC = TC_max, and so does the
        # matrix of the proof (all of class j in the row i_j)
        assert numeric.tc(A, arithmetic="exact") == closed
        assert numeric.tc(numeric.tc_max_matrix(counts), arithmetic="exact") == closed
    assert matrices > 10**6  # the enumeration is not a token one


def _smax_columns(counts):
    """For each true class j, the predicted classes i maximising |i - j| / n_i (binotto2024 §3:
    S_max puts all of class j on such i_j)."""
    r = len(counts)
    out = []
    for j in range(r):
        ratio = [Fraction(abs(i - j), int(counts[i])) for i in range(r)]
        out.append({i for i in range(r) if ratio[i] == max(ratio)})
    return out


def test_prop1_no_matrix_exceeds_closed_form_random():
    """Random matrices (exact TC) never exceed TC_max, and reach it only on S_max; random
    matrices of S_max (each class spread over its maximising columns) reach it."""
    rng = np.random.default_rng(20240101)
    hits = 0
    for _ in range(200):
        r = int(rng.integers(2, 8))
        cm = rng.integers(0, 6, size=(r, r))
        cm[np.arange(r), rng.integers(0, r, size=r)] += 1  # every class observed
        counts = cm.sum(axis=1)
        tcmax = numeric.tc_max(counts, arithmetic="exact")
        tc = numeric.tc(cm, arithmetic="exact")
        allowed = _smax_columns(counts)
        in_smax = all(cm[j, i] == 0 for j in range(r) for i in range(r) if i not in allowed[j])
        assert tc <= tcmax
        assert (tc == tcmax) == in_smax, cm.tolist()
        # a matrix of S_max with the same counts: each row spread over its allowed columns
        smax = np.zeros_like(cm)
        for j in range(r):
            cols = sorted(allowed[j])
            np.add.at(smax[j], rng.choice(cols, size=int(counts[j])), 1)
        assert numeric.tc(smax, arithmetic="exact") == tcmax
        hits += any(len(a) > 1 for a in allowed)
    assert hits > 0  # some draws have tied maximisers, so the S_max matrices vary


def _lp_max_tc(counts, *, zero_diagonal=True):
    """george2016 eq. 6 as a linear programme: max sum c_ij f_ij, column sums n_j, f >= 0.

    Variables are f[t, p] (rows = true), so the paper's column-sum constraint is
    our row sums; ``zero_diagonal`` adds the paper's f_ii = 0.
    """
    r = len(counts)
    C = numeric.cost_matrix(counts, normalize=False)  # george2016 eq. 4, rows = true
    A_eq = np.zeros((r, r * r))
    for t in range(r):
        A_eq[t, t * r:(t + 1) * r] = 1.0
    bounds = [(0, 0) if (zero_diagonal and t == p) else (0, None)
              for t in range(r) for p in range(r)]
    res = linprog(-C.reshape(-1), A_eq=A_eq, b_eq=np.asarray(counts, float),
                  bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return -res.fun


@pytest.mark.parametrize("seed", range(12))
def test_prop1_against_linear_programme(seed):
    """Prop. 1 x N equals the LP optimum of george2016 eq. 6 (HiGHS, rtol 1e-9), r = 5..40."""
    rng = np.random.default_rng(seed)
    r = int(rng.integers(5, 41))
    counts = rng.integers(1, 2000, size=r)
    closed = float(numeric.tc_max(counts, arithmetic="exact")) * counts.sum()
    for zd in (True, False):  # the diagonal constraint of eq. 6 is inactive
        assert _lp_max_tc(counts, zero_diagonal=zd) == pytest.approx(closed, rel=1e-9)


def test_prop1_float_and_mp_agree_with_exact_and_stack():
    """tc_max in float (also on a stack) and in mp at 50 digits against the exact value."""
    import mpmath
    rng = np.random.default_rng(7)
    stack = rng.integers(1, 10**6, size=(3, 4, 9))
    f = numeric.tc_max(stack)
    assert f.shape == (3, 4)
    mpmath.mp.dps = 50
    for idx in np.ndindex(3, 4):
        ex = numeric.tc_max(stack[idx], arithmetic="exact")
        assert abs(f[idx] - float(ex)) <= 1e-12 * float(ex)
        mp = numeric.tc_max(stack[idx], arithmetic="mp")
        assert abs(mp - mpmath.mpf(ex.p) / ex.q) <= mpmath.mpf(10) ** -45 * abs(mp)


def test_prop1_large_counts_exact():
    """Counts near 10**15: exact arithmetic has no int64 overflow in n_j (N - n_j)."""
    counts = [10**15, 3, 10**15 + 7, 999_999_999_999_989]
    N = sum(counts)
    # K_j by hand, with Python integers
    Ks = []
    for j, nj in enumerate(counts):
        best = max(Fraction(abs(l - j), counts[l]) for l in range(4))
        Ks.append(nj * (N - nj) * best)
    expect = sum(Ks) / N
    assert numeric.tc_max(counts, arithmetic="exact") == R(expect.numerator, expect.denominator)


# ---------------------------------------------------------------------------
# Prop. 2 (r = 2), Prop. 3 (balanced), Corollary 1
# ---------------------------------------------------------------------------
def test_prop2_binary_tcmax_is_one():
    """binotto2024 Prop. 2: TC_max = 1 for r = 2, whatever the counts (exact)."""
    for n1, n2 in itertools.product([1, 2, 3, 7, 10, 999, 10**12], repeat=2):
        assert numeric.tc_max([n1, n2], arithmetic="exact") == 1


def _parity(r):
    return "even" if r % 2 == 0 else "odd"


def prop3_h(r):
    """TC_max of binotto2024 Prop. 3, first form, with h as printed (analytic.ledger.sources.binotto2024)."""
    return B.parse(B.PROP3["with_h"], r=r, h=B.parse(B.PROP3_H[_parity(r)], r=r))


def prop3_parity(r):
    """TC_max of binotto2024 Prop. 3, second form (even / odd r), as printed."""
    return B.parse(B.PROP3[_parity(r)], r=r)


@pytest.mark.parametrize("n", [1, 6, 1000])
def test_prop3_balanced_closed_form_r_up_to_50(n):
    """binotto2024 Prop. 3: both printed forms equal Prop. 1 exactly for r = 1..50."""
    for r in range(1, 51):
        closed = numeric.tc_max([n] * r, arithmetic="exact")
        assert closed == prop3_h(r) == prop3_parity(r), r


def test_prop3_symbolic_forms_agree():
    """The two forms of Prop. 3 agree symbolically (r = 2k and r = 2k + 1, k >= 1)."""
    k = sympy.Symbol("k", positive=True, integer=True)
    for r, h, parity in ((2 * k, k, "even"), (2 * k + 1, k + 1, "odd")):
        # h as printed: r/2 (even), floor(r/2) + 1 (odd)
        assert sympy.simplify(B.parse(B.PROP3_H[parity], r=r) - h) == 0
        first = B.parse(B.PROP3["with_h"], r=r, h=h)
        assert sympy.simplify(first - B.parse(B.PROP3[parity], r=r)) == 0


def test_prop3_balanced_worst_matrix_shape():
    """Prop. 3's A_max: the first h classes go to class r, the others to class 1."""
    for r in range(2, 12):
        h = r // 2 if r % 2 == 0 else r // 2 + 1
        A = numeric.tc_max_matrix([3] * r)  # rows = true: the transpose of the printed A_max
        for j in range(r):
            target = r - 1 if j < h else 0
            # with r odd, class h (0-based h-1) is tied between 1 and r (the paper's remark)
            if r % 2 == 1 and j == h - 1:
                assert A[j].sum() == 3 and A[j, [0, r - 1]].sum() == 3
            else:
                assert A[j, target] == 3


def test_corollary1_exact_r_up_to_50():
    """binotto2024 Corollary 1: balanced TC_max = 1 for r = 2, > 1 for r > 2, strictly increasing."""
    values = [numeric.tc_max([5] * r, arithmetic="exact") for r in range(2, 51)]
    assert values[0] == 1
    assert all(v > 1 for v in values[1:])
    assert all(a < b for a, b in itertools.pairwise(values))


def test_corollary1_proof_steps_symbolic():
    """The two 'mere verifications' of the proof, as polynomial identities in k."""
    k = sympy.Symbol("k", positive=True, integer=True)
    even = lambda r: B.parse(B.PROP3["even"], r=r)  # noqa: E731
    odd = lambda r: B.parse(B.PROP3["odd"], r=r)  # noqa: E731
    # TC(2k+1) - TC(2k) = (12k^2 + 3k - 1) / (2 (2k + 1))
    assert sympy.simplify(odd(2 * k + 1) - even(2 * k) - (12 * k**2 + 3 * k - 1) / (2 * (2 * k + 1))) == 0
    # TC(2k+2) - TC(2k+1) = ((2k+1)^2 - 4k^2)(3k+2) / (2 (2k+1)) = (4k + 1)(3k + 2) / (2(2k+1))
    assert sympy.simplify(even(2 * k + 2) - odd(2 * k + 1) - (4 * k + 1) * (3 * k + 2) / (2 * (2 * k + 1))) == 0


def test_remark3_ties_do_not_change_kj():
    """binotto2024 Remark 3: with a tied argmax (i_j not unique) every choice gives the same TC."""
    counts = [2, 4, 2]  # for j = 2 (middle): |1-2|/2 = |3-2|/2, classes 1 and 3 tie
    A = numeric.tc_max_matrix(counts)
    B = A.copy()
    B[1] = 0
    B[1, 2] = 4  # the other maximiser for the middle class
    assert not np.array_equal(A, B)
    assert numeric.tc(A, arithmetic="exact") == numeric.tc(B, arithmetic="exact") \
        == numeric.tc_max(counts, arithmetic="exact")
