"""The rightmost interval's length (binotto2024 §5): toy example, Prop. 6, Appendix A.

``optimal_last_length`` finds the global minimum of x -> TC-hat_max from the
exact breakpoints of the piecewise function and the critical point of each
piece.  It is held against binotto2024's toy example (exactly, SymPy), Prop. 6
at 50 digits, the piecewise forms of Appendix A (exactly), and, for any r and
counts, a dense scan.

Source: ``shared/seeds/002_1ad9def3cd093580.txt`` §5 and Appendix A; data in
:mod:`analytic.ledger.sources.binotto2024` (matrices printed predicted x true, used
transposed).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy

import numeric
from analytic.ledger.sources.binotto2024 import APPENDIX_A as PRINTED_APPENDIX_A
from numeric.rounding import matches_printed
from analytic.ledger.sources import binotto2024 as B
from analytic.symbols import L as L_symbol, x as x_symbol

EX = dict(arithmetic="exact")
X, Ls = x_symbol, L_symbol
SQ2, SQ5 = sympy.sqrt(2), sympy.sqrt(5)
#: a printed closed form of analytic.ledger.sources.binotto2024 as a SymPy expression
printed = B.parse


def toy_lengths(x):
    return [1, 1, x]


# ---------------------------------------------------------------------------
# toy example
# ---------------------------------------------------------------------------
TOY_X = [sympy.Rational(1, 3), sympy.Rational(1, 2), SQ2 / 2, sympy.Integer(1),
         sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(5)]


@pytest.mark.parametrize("x", TOY_X, ids=str)
def test_toy_cost_matrix_and_tc(x):
    """The printed M (predicted x true), TC(C_A) and TC(C_B) - TC(C_A) = 2/15, exactly, at several x."""
    M = numeric.interval_cost_matrix(B.TOY_COUNTS, toy_lengths(x), **EX).T  # back to predicted x true
    for i in range(3):
        for j in range(3):
            assert sympy.simplify(M[i, j] - printed(B.TOY_PRINTED["M"][i][j], x=x)) == 0
    CA, CB = np.array(B.MATRICES["C_A"]), np.array(B.MATRICES["C_B"])
    tca = numeric.interval_tc(CA, toy_lengths(x), **EX)
    assert sympy.simplify(tca - printed(B.TOY_PRINTED["TC_A"], x=x)) == 0
    diff = numeric.interval_tc(CB, toy_lengths(x), **EX) - tca
    assert sympy.simplify(diff - printed(B.TOY_PRINTED["TC_B_minus_TC_A"])) == 0


def test_toy_optimal_length_and_stc_exact():
    """x~ = 1/sqrt 2, TC_max(x~) = (2 sqrt 2 + 7)/3, STC(C_A), STC(C_B) and their difference, exactly."""
    res = numeric.optimal_last_length(B.TOY_COUNTS, [1, 1], **EX)
    assert sympy.simplify(res.x - printed(B.TOY_PRINTED["x_opt"])) == 0
    assert sympy.simplify(res.minimum - printed(B.TOY_PRINTED["TC_max_opt"])) == 0
    L = toy_lengths(res.x)
    assert sympy.simplify(numeric.interval_tc_max(B.TOY_COUNTS, L, **EX) - res.minimum) == 0
    sa = numeric.interval_stc(np.array(B.MATRICES["C_A"]), L, **EX)
    sb = numeric.interval_stc(np.array(B.MATRICES["C_B"]), L, **EX)
    assert sympy.simplify(sa - printed(B.TOY_PRINTED["STC_A"])) == 0
    assert sympy.simplify(sb - printed(B.TOY_PRINTED["STC_B"])) == 0
    assert sympy.simplify(sb - sa - printed(B.TOY_PRINTED["STC_B_minus_STC_A"])) == 0
    assert matches_printed(sympy.nsimplify(sympy.N(sb - sa, 40), rational=True),
                           B.TOY_PRINTED["STC_B_minus_STC_A_approx"])


def test_toy_other_lengths_give_a_smaller_difference():
    """§5: 'With any other value of x, the difference between the two would be less' (a grid)."""
    CA, CB = np.array(B.MATRICES["C_A"]), np.array(B.MATRICES["C_B"])
    best = float(printed(B.TOY_PRINTED["STC_B_minus_STC_A"]))
    for x in np.concatenate([np.geomspace(0.01, 100, 400), [0.70, 0.71, 0.7072]]):
        d = numeric.interval_stc(CB, toy_lengths(x)) - numeric.interval_stc(CA, toy_lengths(x))
        assert d < best


# ---------------------------------------------------------------------------
# Prop. 6 at 50 digits
# ---------------------------------------------------------------------------
def prop6(L):
    """(x~, TC_max(x~)) of Prop. 6 as printed, evaluated in mpmath at the current precision."""
    for bound, xf, vf in B.PROP6:
        if bound is None or L <= mpmath.mpf(sympy.N(printed(bound), mpmath.mp.dps + 10)):
            f = lambda e: sympy.lambdify(Ls, printed(e), "mpmath")(L)  # noqa: E731
            return f(xf), f(vf)


PHI = (1 + SQ5) / 2
PHI2 = (3 + SQ5) / 2
#: >= 20 values of L, >= 5 in each of the four cases, including the case boundaries
PROP6_L = {
    "L <= 1": ["1/100", "1/10", "1/3", "1/2", "0.9", "1"],
    "1 < L <= phi": ["1.0001", "1.1", "1.3", "3/2", "1.6", "1.618"],
    "phi < L <= phi^2": ["1.6181", "1.7", "1.9", "2", "2.3", "2.618"],
    "L > phi^2": ["2.6181", "3", "4", "7.5", "10", "1000"],
}


@pytest.mark.parametrize("case", list(PROP6_L))
def test_prop6_at_50_digits(case):
    """optimal_last_length (mp, 50 digits) = Prop. 6 for r = 3, n balanced, l_1 = 1, l_2 = L."""
    mpmath.mp.dps = 50
    tol = mpmath.mpf(10) ** -45
    for Lstr in PROP6_L[case]:
        L = mpmath.mpf(Fraction(Lstr).numerator) / Fraction(Lstr).denominator
        for n in (1, 4):
            res = numeric.optimal_last_length([n, n, n], [1, L], arithmetic="mp")
            x6, v6 = prop6(L)
            assert abs(res.x - x6) <= tol * x6, (Lstr, res.x, x6)
            assert abs(res.minimum - v6) <= tol * v6, (Lstr, res.minimum, v6)


def test_prop6_at_case_boundaries_50_digits():
    """At L = 1, phi, phi^2 (irrational, at 50 digits) both neighbouring cases agree with the optimum."""
    mpmath.mp.dps = 50
    tol = mpmath.mpf(10) ** -44
    for b in (sympy.Integer(1), PHI, PHI2):
        L = mpmath.mpf(sympy.N(b, 70))
        res = numeric.optimal_last_length([3, 3, 3], [1, L], arithmetic="mp")
        k = [i for i, c in enumerate(B.PROP6) if c[0] is not None and sympy.simplify(printed(c[0]) - b) == 0][0]
        for _, xf, vf in (B.PROP6[k], B.PROP6[k + 1]):
            f = lambda e: sympy.lambdify(Ls, printed(e), "mpmath")(L)  # noqa: E731
            assert abs(res.x - f(xf)) <= tol and abs(res.minimum - f(vf)) <= tol


@pytest.mark.parametrize("L", ["1/4", "1", "6/5", "8/5", "17/10", "2", "5/2", "3", "10"])
def test_prop6_exact(L):
    """Exact arithmetic: x~ and the minimum are Prop. 6's radicals exactly (SymPy simplify)."""
    Lr = sympy.Rational(L)
    res = numeric.optimal_last_length([2, 2, 2], [1, Lr], **EX)
    for bound, xf, vf in B.PROP6:
        if bound is None or Lr <= printed(bound):
            assert sympy.simplify(res.x - printed(xf, L=Lr)) == 0
            assert sympy.simplify(res.minimum - printed(vf, L=Lr)) == 0
            break


# ---------------------------------------------------------------------------
# Appendix A: the piecewise forms
# ---------------------------------------------------------------------------
#: Appendix A as printed (analytic.ledger.sources.binotto2024): the pieces of each case
APPENDIX_A = {case: pieces for case, (_, pieces) in PRINTED_APPENDIX_A.items()}
APPENDIX_L = {"a": ["1/3", "1/2", "1"], "b.1": ["6/5", "3/2", "8/5"],
              "b.2": ["17/10", "9/5", "2"], "b.3": ["21/10", "5/2", "3", "10"]}


@pytest.mark.parametrize("case", list(APPENDIX_A))
def test_appendix_a_pieces_exact(case):
    """last_length_pieces reproduces Appendix A's pieces and breakpoints exactly (empty pieces dropped)."""
    for Lstr in APPENDIX_L[case]:
        Lr = sympy.Rational(Lstr)
        mine = numeric.last_length_pieces([3, 3, 3], [1, Lr], **EX)
        paper, lo = [], sympy.Integer(0)
        for hi, f in APPENDIX_A[case]:
            hi = None if hi is None else printed(hi, L=Lr)
            if hi is None or sympy.simplify(hi - lo) != 0:  # at L = 2, b.2 has empty pieces
                paper.append((hi, sympy.expand(printed(f, L=Lr))))
                lo = hi
        assert len(mine) == len(paper), (case, Lstr)
        for p, (hi, f) in zip(mine, paper, strict=True):
            assert (p.hi is None) == (hi is None)
            if hi is not None:
                assert sympy.simplify(p.hi - hi) == 0
            assert sympy.expand(p(X) - f) == 0


# ---------------------------------------------------------------------------
# any r, any counts
# ---------------------------------------------------------------------------
def _random_problem(rng, r):
    counts = [int(c) for c in rng.integers(1, 30, size=r)]
    lengths = [Fraction(int(p), int(q))
               for p, q in zip(rng.integers(1, 20, size=r - 1), rng.integers(1, 6, size=r - 1), strict=True)]
    return counts, lengths


@pytest.mark.parametrize("seed", range(8))
def test_pieces_equal_tc_max_exactly(seed):
    """Every piece's a/x + b + c x + e x^2 equals interval_tc_max inside it and at its ends (exact);
    a, c, e >= 0 (each piece is convex)."""
    rng = np.random.default_rng(seed)
    counts, lengths = _random_problem(rng, int(rng.integers(2, 6)))
    pieces = numeric.last_length_pieces(counts, lengths, **EX)
    assert pieces[0].lo == 0 and pieces[-1].hi is None
    for p, q in itertools.pairwise(pieces):
        assert p.hi == q.lo
    for p, q in itertools.pairwise(pieces):  # continuity at every breakpoint (exact radicals)
        assert sympy.simplify(p(p.hi) - q(p.hi)) == 0
    for p in pieces:
        assert p.a >= 0 and p.c >= 0 and p.e >= 0
        lo = p.lo
        hi = p.hi if p.hi is not None else lo + 3
        for t in (sympy.Rational(1, 7), sympy.Rational(1, 2), sympy.Rational(6, 7)):
            xr = _rational_near(lo + t * (hi - lo))
            assert lo < xr and (p.hi is None or xr < p.hi)
            assert numeric.interval_tc_max(counts, lengths + [xr], **EX) == p(xr)


def _rational_near(v):
    """A rational within 1e-30 of v (v may be a radical)."""
    return v if v.is_Rational else sympy.Rational(str(sympy.N(v, 40)))


@pytest.mark.parametrize("seed", range(12))
def test_optimal_length_against_dense_scan(seed):
    """For r = 2..8 and random counts/lengths, no x on a dense grid beats the result, and
    interval_tc_max at the returned x equals the returned minimum (float; mp; exact)."""
    rng = np.random.default_rng(1000 + seed)
    r = int(rng.integers(2, 9))
    counts, lengths = _random_problem(rng, r)
    fl = [float(l) for l in lengths]
    res = numeric.optimal_last_length(counts, lengths)
    grid = np.concatenate([np.geomspace(1e-3, 1e3, 3000), res.x * (1 + np.linspace(-1e-3, 1e-3, 41))])
    grid = grid[grid > 0]
    vals = numeric.interval_tc_max(np.broadcast_to(counts, (grid.size, r)),
                                   np.column_stack([np.broadcast_to(fl, (grid.size, r - 1)), grid]))
    assert res.minimum <= vals.min() * (1 + 1e-12)
    assert numeric.interval_tc_max(counts, fl + [res.x]) == pytest.approx(res.minimum, rel=1e-12)
    mpmath.mp.dps = 50
    mres = numeric.optimal_last_length(counts, lengths, arithmetic="mp")
    assert abs(numeric.interval_tc_max(counts, lengths + [mres.x], arithmetic="mp") - mres.minimum) \
        <= mpmath.mpf(10) ** -45 * mres.minimum
    if r <= 5:
        eres = numeric.optimal_last_length(counts, lengths, **EX)
        assert abs(sympy.N(eres.x, 60) - sympy.Float(mres.x, 60)) <= sympy.Float("1e-40") * (1 + abs(eres.x))
        assert abs(sympy.N(eres.minimum, 60) - sympy.Float(mres.minimum, 60)) <= sympy.Float("1e-44") * eres.minimum


def test_cubic_critical_point():
    """A case whose minimum is the positive root of a cubic 2 e x^3 + c x^2 = a (e > 0):
    exact result is a CRootOf, mp agrees at 50 digits, f'(x~) = 0 on its piece."""
    counts, lengths = [9, 1, 5], [Fraction(2), Fraction(1, 2)]  # found by a random search
    pieces = numeric.last_length_pieces(counts, lengths, **EX)
    res = numeric.optimal_last_length(counts, lengths, **EX)
    p = [q for q in pieces if q.lo < res.x and (q.hi is None or res.x <= q.hi)][0]
    assert p.e > 0 and p.a > 0 and res.x != p.hi  # an interior cubic critical point
    assert isinstance(res.x, sympy.CRootOf)
    # derived: f = a/x + b + c x + e x^2 on the piece, so f'(x) = 0 <=> 2 e x^3 + c x^2 - a = 0
    found = sympy.Poly(res.x.poly.as_expr().subs(res.x.poly.gen, X), X)
    assert found.monic() == sympy.Poly(2 * p.e * X**3 + p.c * X**2 - p.a, X).monic()
    # REGRESSION PIN (not printed anywhere): the code's polynomial for this case, as recorded when the
    # case was found; the derived check above is what makes it right
    assert found.as_expr() == 12 * X**3 + 115 * X**2 - 300
    deriv = -p.a / res.x**2 + p.c + 2 * p.e * res.x
    assert abs(sympy.N(deriv, 50)) < 1e-45
    mpmath.mp.dps = 50
    m = numeric.optimal_last_length(counts, lengths, arithmetic="mp")
    assert abs(sympy.Float(m.x, 60) - sympy.N(res.x, 60)) < 1e-45


def test_two_classes_policy():
    """r = 2: TC_max = max(l_1, x) (Prop. 5) is minimal on all of (0, l_1]; x = l_1 is returned."""
    for arithmetic in ("float", "exact", "mp"):
        res = numeric.optimal_last_length([3, 8], [Fraction(5, 2)], arithmetic=arithmetic)
        assert sympy.Rational(str(res.x)) == sympy.Rational(5, 2) == sympy.Rational(str(res.minimum))
    pieces = numeric.last_length_pieces([3, 8], [2], **EX)
    assert [(p.lo, p.hi, p.a, p.b, p.c, p.e) for p in pieces] == [(0, 2, 0, 2, 0, 0), (2, None, 0, 0, 1, 0)]


@pytest.mark.parametrize("counts, lengths, msg", [
    ([3, 3, 3], [1, 1, 1], "has 3 entries but there are 2 classes"),
    ([3, 3, 3], [1], "has 1 entries but there are 2 classes"),
    ([3], [], "needs at least 2"),
    ([3, 0, 3], [1, 1], "class 1 has a zero count"),
    ([3, 3, 3], [1, 0], "must be positive"),
    ([[3, 3], [3, 3]], [[1], [1]], "must be 1-D"),
])
def test_optimal_length_errors(counts, lengths, msg):
    with pytest.raises(ValueError, match=msg):
        numeric.optimal_last_length(counts, lengths)
