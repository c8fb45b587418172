"""Interval TC_max and the optimal rightmost length, derived (analytic.derivations.intervals).

Sources: ``shared/seeds/002_1ad9def3cd093580.txt`` (binotto2024) Prop. 4
(interval TC_max), Prop. 5 (binary case), §5 toy example, Prop. 6 and its
proof in Appendix A (cases a, b.1, b.2, b.3).  The printed Prop. 6 and toy
values, and Appendix A's pieces and per-piece minima, come from
:mod:`analytic.ledger.sources.binotto2024` (transcribed there, as printed).

The analytic side *derives* everything by an exact sweep over ``L``; here
the derivation is held

* against the printed forms symbolically (``simplify(lhs - rhs) == 0``),
  branch by branch and piece by piece, case boundaries included;
* against ``numeric.interval_tc_max`` / ``numeric.optimal_last_length``
  (an independent implementation: breakpoints at fixed numeric ``L``) at 50
  digits (``arithmetic="mp"``, tolerance ``1e-45``) on >= 20 points per form,
  and exactly (``arithmetic="exact"``) where the form is rational.
"""

from __future__ import annotations

import itertools

import mpmath
import pytest
import sympy as sp

import numeric
from analytic import (derive_optimal_last_length, interval_tc_max_symbolic,
                      optimal_last_length_piecewise)
from analytic.ledger.sources import binotto2024 as B
from analytic.symbols import L, x

TOL = mpmath.mpf("1e-45")
PHI = (1 + sp.sqrt(5)) / 2


#: a printed closed form (string) in the shared symbols L and x
printed = B.parse


def mp(v):
    """An exact SymPy number at 50 digits."""
    return mpmath.mpf(sp.N(v, 70))


def _rationals(n=25, step=sp.Rational(1, 5)):
    return [step * k for k in range(1, n + 1)]


# ---------------------------------------------------------------------------
# binotto2024 Appendix A: TC_max(x) in each case, as printed
# ---------------------------------------------------------------------------
# binotto2024 Appendix A as printed (pieces and per-piece minima): analytic.ledger.sources.binotto2024
APPENDIX_A, APPENDIX_A_MINIMA = B.APPENDIX_A, B.APPENDIX_A_MINIMA


@pytest.fixture(scope="module")
def balanced():
    return derive_optimal_last_length([1, 1, 1])


def test_appendix_a_cases_found(balanced):
    """binotto2024 App. A: the sweep finds exactly the cases L <= 1, 1 < L <= phi, phi < L <= 2, L > 2."""
    bounds = [(c.lower, c.upper) for c in balanced.cases]
    expected = [(printed(a), printed(b)) for a, b in (v[0] for v in APPENDIX_A.values())]
    assert expected[1][1] == PHI and expected[-1][1] == sp.oo
    assert len(bounds) == len(expected)
    for (lo, hi), (elo, ehi) in zip(bounds, expected, strict=True):
        assert sp.simplify(lo - elo) == 0
        assert (hi == sp.oo and ehi == sp.oo) or sp.simplify(hi - ehi) == 0


@pytest.mark.parametrize("case", list(APPENDIX_A))
def test_appendix_a_pieces(balanced, case):
    """binotto2024 App. A: TC_max(x) comes out piece by piece (pieces and x-breakpoints, symbolically)."""
    k = list(APPENDIX_A).index(case)
    mine = balanced.cases[k].pieces
    paper = APPENDIX_A[case][1]
    assert len(mine) == len(paper)
    for (f, b), (pb, pf) in zip(mine, paper, strict=True):
        assert sp.simplify(f - printed(pf)) == 0, (case, f, pf)
        if pb is None:
            assert b == sp.oo
        else:
            assert sp.simplify(b - printed(pb)) == 0, (case, b, pb)


@pytest.mark.parametrize("case", list(APPENDIX_A_MINIMA))
def test_appendix_a_piece_minima(balanced, case):
    """binotto2024 App. A: each printed per-piece minimum is the piece at the printed x~, and x~ is
    a critical point of the piece or one of its ends (symbolically)."""
    k = list(APPENDIX_A).index(case)
    pieces = balanced.cases[k].pieces
    for idx, xs, val in APPENDIX_A_MINIMA[case]:
        f, hi = pieces[idx]
        lo = pieces[idx - 1][1] if idx > 0 else sp.Integer(0)
        xt = printed(xs)
        assert sp.simplify(f.subs(x, xt) - printed(val)) == 0, (case, idx)
        is_end = any(sp.simplify(xt - e) == 0 for e in (lo, hi) if e != sp.oo)
        is_crit = sp.simplify(sp.diff(f, x).subs(x, xt)) == 0
        assert is_end or is_crit, (case, idx, xs)


def test_appendix_a_nested_piecewise_is_the_cases(balanced):
    """interval_tc_max_symbolic([1,1,1], [1, L, x]) is the Piecewise of the derived cases."""
    pw = interval_tc_max_symbolic([1, 1, 1], [1, L, x])
    assert isinstance(pw, sp.Piecewise) and pw.args[-1].cond == sp.true
    assert len(pw.args) == len(balanced.cases)
    # (each inner Piecewise is checked against the printed pieces above)
    for (inner, cond), case in zip(pw.args, balanced.cases, strict=True):
        assert isinstance(inner, sp.Piecewise) and len(inner.args) == len(case.pieces)
        assert cond == sp.true or cond == (L <= case.upper)


# ---------------------------------------------------------------------------
# Prop. 6, branch by branch
# ---------------------------------------------------------------------------
def test_prop6_case_boundaries_found(balanced):
    """binotto2024 Prop. 6: the derivation finds the boundaries 1, (1+sqrt5)/2, (3+sqrt5)/2 exactly."""
    uppers = [o.upper for o in balanced.optima]
    assert uppers[-1] == sp.oo
    paper = [printed(b) for b, _, _ in B.PROP6 if b is not None]
    assert len(uppers) - 1 == len(paper)
    for mine, p in zip(uppers[:-1], paper, strict=True):
        assert sp.simplify(mine - p) == 0
    assert [o.kind for o in balanced.optima] == [
        "critical point", "critical point", "breakpoint", "critical point"]


def test_prop6_branches_equal_printed(balanced):
    """binotto2024 Prop. 6: x~ and TC_max(x~) equal the printed ones on each branch (simplify == 0)."""
    assert len(balanced.optima) == len(B.PROP6)
    for o, (_, xs, vs) in zip(balanced.optima, B.PROP6, strict=True):
        assert sp.simplify(o.x_opt - printed(xs)) == 0, (o.x_opt, xs)
        assert sp.simplify(o.value - printed(vs)) == 0, (o.value, vs)


def test_prop6_piecewise_forms(balanced):
    """The returned Piecewise objects are ordered, last branch True, conditions L <= boundary."""
    x_opt, tc_opt = optimal_last_length_piecewise([1, 1, 1])
    for pw in (x_opt, tc_opt):
        assert isinstance(pw, sp.Piecewise) and pw.args[-1].cond == sp.true
    assert [a.cond for a in x_opt.args[:-1]] == [L <= o.upper for o in balanced.optima[:-1]]


def test_toy_example_from_prop6():
    """binotto2024 §5 toy example (l_1 = l_2 = 1): x~ = 1/sqrt(2), TC_max(x~) = (2 sqrt(2) + 7)/3."""
    x_opt, tc_opt = optimal_last_length_piecewise([5, 5, 5])
    assert sp.simplify(x_opt.subs(L, 1) - printed(B.TOY_PRINTED["x_opt"])) == 0
    assert sp.simplify(tc_opt.subs(L, 1) - printed(B.TOY_PRINTED["TC_max_opt"])) == 0


# ---------------------------------------------------------------------------
# the optimum against numeric.optimal_last_length
# ---------------------------------------------------------------------------
#: counts -> the case boundaries of this derivation (new closed forms: the source
#: is the derivation itself; the values are held against numeric below).
#: the derived case boundaries, pinned (SymPy numbers, not strings: binotto2024.parse reads
#: only the paper's own transcribed formulas)
NEW_BOUNDARIES = {
    (1, 2, 3): [sp.Rational(1, 8), sp.Integer(1), (1 + sp.sqrt(7)) / 3, 1 + sp.sqrt(7),
                sp.Integer(4)],
    (3, 2, 1): [sp.Rational(4, 5), sp.Integer(1), (1 + sp.sqrt(7)) / 3,
                sp.CRootOf(L**3 - L**2 - 2 * L - 1, 0)],
    (2, 1, 1): [sp.Rational(1, 3), sp.Integer(1), (1 + sp.sqrt(5)) / 2, (3 + sp.sqrt(5)) / 2],
}

COUNTS = [(1, 1, 1), (5, 5, 5), (1, 2, 3), (3, 2, 1), (2, 1, 1), (1, 3, 2)]


def _points(d):
    """25 rationals in (0, 5], a few large L, and every case boundary."""
    return _rationals() + [sp.Integer(v) for v in (7, 12, 40, 1000)] + [
        o.upper for o in d.optima[:-1]]


@pytest.mark.parametrize("counts", COUNTS, ids=str)
def test_optimum_against_numeric_mp50(counts):
    """x~(L) and TC_max(x~(L)) at 50 digits vs numeric.optimal_last_length(..., 'mp'): >= 29 L, 1e-45."""
    d = derive_optimal_last_length(counts)
    fx, fv = d.forms
    with mpmath.workdps(50):
        pts = _points(d)
        assert len(pts) >= 20
        for Lv in pts:
            ref = numeric.optimal_last_length(list(counts), [1, mp(Lv)], arithmetic="mp")
            assert abs(mp(fv.subs(L, Lv)) - ref.minimum) < TOL, (counts, Lv)
            assert abs(mp(fx.subs(L, Lv)) - ref.x) < TOL, (counts, Lv)


@pytest.mark.parametrize("counts", [(1, 2, 3), (3, 2, 1), (2, 1, 1)], ids=str)
def test_optimum_exact_where_rational(counts):
    """Where x~(L) and the minimum are rational (kinks at rational x), they equal numeric 'exact' exactly."""
    d = derive_optimal_last_length(counts)
    fx, fv = d.forms
    seen = 0
    for Lv in _rationals(15, sp.Rational(1, 3)):
        xv, vv = fx.subs(L, Lv), fv.subs(L, Lv)
        if xv.is_Rational and sp.nsimplify(vv).is_Rational:
            ref = numeric.optimal_last_length(list(counts), [1, Lv], arithmetic="exact")
            assert sp.simplify(ref.x - xv) == 0 and sp.simplify(ref.minimum - vv) == 0, Lv
            seen += 1
    assert seen >= 3


@pytest.mark.parametrize("counts", list(NEW_BOUNDARIES), ids=str)
def test_new_forms_boundaries_and_continuity(counts):
    """New closed forms: the derived case boundaries (pinned), and x~(L), TC_max(x~(L)) continuous
    across each (80-digit evaluation from both sides of the boundary)."""
    d = derive_optimal_last_length(counts)
    uppers = [o.upper for o in d.optima[:-1]]
    expected = NEW_BOUNDARIES[counts]
    assert len(uppers) == len(expected)
    for mine, e in zip(uppers, expected, strict=True):
        assert abs(sp.N(mine - e, 80)) < 1e-70, (mine, e)
        assert mine.free_symbols == set()
    for a, b in itertools.pairwise(d.optima):
        for f in ("x_opt", "value"):
            jump = sp.N((getattr(a, f) - getattr(b, f)).subs(L, a.upper), 80)
            assert abs(jump) < 1e-70, (counts, a.upper, f)


def test_cubic_critical_point_branch():
    """Counts (1, 3, 2): on ((3+sqrt105)/8, (5 sqrt33 - 21)/2] the minimiser is the positive root of
    the cubic numerator of a piece's derivative, in trigonometric form (three real roots); it is
    held against numeric at 50 digits in test_optimum_against_numeric_mp50[(1, 3, 2)]; here: the
    branch exists, and the derivative of its piece vanishes there (80 digits, 10 L inside)."""
    d = derive_optimal_last_length([1, 3, 2])
    trig = [o for o in d.optima if o.x_opt.has(sp.acos)]
    assert len(trig) == 1 and trig[0].kind == "critical point"
    o = trig[0]
    assert sp.simplify(o.lower - (3 + sp.sqrt(105)) / 8) == 0
    assert sp.simplify(o.upper - (5 * sp.sqrt(33) - 21) / 2) == 0
    df = sp.diff(o.piece, x)
    lo, hi = sp.N(o.lower, 30), sp.N(o.upper, 30)
    for k in range(1, 11):
        Lv = sp.nsimplify(lo + (hi - lo) * k / 11, rational=True)
        assert abs(sp.N(df.subs(x, o.x_opt).subs(L, Lv), 80)) < 1e-70


def test_counts_reduced_by_their_gcd():
    """(5,5,5) is derived as (1,1,1): TC_max-hat is homogeneous of degree 0 in the counts (the
    mp50 test above holds the (1,1,1) forms against numeric with counts (5,5,5))."""
    assert derive_optimal_last_length([5, 5, 5]).class_counts == (1, 1, 1)
    assert derive_optimal_last_length([2, 4, 6]).class_counts == (1, 2, 3)


# ---------------------------------------------------------------------------
# interval_tc_max_symbolic against numeric.interval_tc_max
# ---------------------------------------------------------------------------
ONE_SYMBOL = [
    ((5, 5, 5), (1, 1, x)),                       # binotto2024 §5 toy example
    ((1, 2, 3), (1, 2, x)),
    ((3, 2, 1), (2, sp.Rational(1, 2), x)),
    ((2, 1, 1), (1, x, 1)),                       # the free length in the middle
    ((1, 2, 3, 4), (1, 1, x, 2)),                 # r = 4
]


@pytest.mark.parametrize("counts,lengths", ONE_SYMBOL, ids=str)
def test_interval_tc_max_one_symbol(counts, lengths):
    """One free length: ordered Piecewise, exact at 25 rational x (numeric 'exact'), and at 50 digits
    at irrational x (numeric 'mp')."""
    pw = interval_tc_max_symbolic(counts, lengths)
    assert isinstance(pw, sp.Piecewise) and pw.args[-1].cond == sp.true
    for xv in _rationals(25, sp.Rational(1, 4)):
        ls = [v.subs(x, xv) if isinstance(v, sp.Basic) else v for v in lengths]
        assert pw.subs(x, xv) == numeric.interval_tc_max(list(counts), ls, arithmetic="exact"), xv
    with mpmath.workdps(50):
        for xv in [sp.sqrt(k) / 3 for k in (2, 3, 5, 6, 7, 8, 10, 11, 13, 14, 15, 17, 19, 20, 21, 22,
                                            23, 24, 26, 27)]:
            ls = [mp(v.subs(x, xv)) if isinstance(v, sp.Basic) else v for v in lengths]
            ref = numeric.interval_tc_max(list(counts), ls, arithmetic="mp")
            assert abs(mp(pw.subs(x, xv)) - ref) < TOL, xv


@pytest.mark.parametrize("counts", [(1, 1, 1), (1, 2, 3)], ids=str)
def test_interval_tc_max_two_symbols(counts):
    """Free x and L: the nested Piecewise at 50 digits vs numeric 'mp' on a 6 x 6 grid of (L, x) and at
    each case boundary L (then at 6 x each)."""
    pw = interval_tc_max_symbolic(counts, [1, L, x])
    d = derive_optimal_last_length(counts)
    Ls = [sp.Rational(1, 3), sp.Rational(9, 10), sp.Rational(6, 5), sp.Rational(17, 10),
          sp.Rational(5, 2), sp.Integer(6)] + [c.upper for c in d.cases[:-1]]
    xs = [sp.Rational(1, 4), sp.Rational(2, 3), sp.sqrt(2) / 2, sp.Rational(3, 2), sp.Integer(2),
          sp.Integer(5)]
    with mpmath.workdps(50):
        for Lv in Ls:
            inner = pw.subs(L, Lv)
            for xv in xs:
                ref = numeric.interval_tc_max(list(counts), [1, mp(Lv), mp(xv)], arithmetic="mp")
                assert abs(mp(inner.subs(x, xv)) - ref) < TOL, (Lv, xv)


def test_prop5_symbolic():
    """binotto2024 Prop. 5: for r = 2, TC_max-hat = max(l_1, l_2), for symbolic counts and lengths."""
    l1, l2, n1, n2 = sp.symbols("l1 l2 n1 n2", positive=True)
    assert sp.simplify(interval_tc_max_symbolic([n1, n2], [l1, l2]) - sp.Max(l1, l2)) == 0


def test_numbers_only():
    """No free symbol: the exact number, equal to numeric 'exact' (toy example at x = 1/sqrt(2))."""
    for ls in ([1, 1, sp.sqrt(2) / 2], [1, 3, 2], [sp.Rational(1, 3), 1, 4]):
        mine = interval_tc_max_symbolic([5, 5, 5], ls)
        assert sp.simplify(mine - numeric.interval_tc_max([5, 5, 5], ls, arithmetic="exact")) == 0
    assert sp.simplify(interval_tc_max_symbolic([5, 5, 5], [1, 1, sp.sqrt(2) / 2])
                       - printed(B.TOY_PRINTED["TC_max_opt"])) == 0


# ---------------------------------------------------------------------------
# input checks
# ---------------------------------------------------------------------------
def test_input_errors():
    with pytest.raises(ValueError, match="at least 2 classes"):
        interval_tc_max_symbolic([3], [1])
    with pytest.raises(ValueError, match="must be positive"):
        interval_tc_max_symbolic([3, 0], [1, 1])
    with pytest.raises(ValueError, match="lengths must be positive"):
        interval_tc_max_symbolic([3, 3], [1, sp.Symbol("q")])
    with pytest.raises(ValueError, match="2 classes"):
        interval_tc_max_symbolic([3, 3], [1, 1, 1])
    with pytest.raises(ValueError, match="give variable="):
        interval_tc_max_symbolic([1, 1, 1], [x, L, 1])
    with pytest.raises(ValueError, match="when r != 3"):
        optimal_last_length_piecewise([1, 1])
    with pytest.raises(ValueError, match="exactly one free symbol"):
        optimal_last_length_piecewise([1, 1, 1], lengths=[1, 2])
    with pytest.raises(ValueError, match="must be numbers"):
        optimal_last_length_piecewise([sp.Symbol("n", positive=True), 1, 1])
