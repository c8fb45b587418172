"""TC_max derived symbolically (analytic.derivations.tc_max) against binotto2024 and numeric.

Sources: ``shared/seeds/002_1ad9def3cd093580.txt`` (binotto2024) Prop. 1
(construction), Prop. 2 (binary case), Prop. 3 (balanced case, two printed
forms), Corollary 1 (monotonicity and its proof).  The derived forms are held
against the printed ones symbolically (``simplify(lhs - rhs) == 0`` on each
parity, with ``r = 2m`` or ``r = 2m + 1`` and ``m`` a symbolic integer), and
against ``numeric.tc_max`` (binotto2024 Prop. 1, computed class by class)
exactly and at 50 digits.
"""

from __future__ import annotations

import random

import mpmath
import pytest
import sympy as sp

import numeric
from analytic import tc_max_balanced, tc_max_symbolic
from analytic.ledger.sources import binotto2024 as B
from analytic.symbols import r
from analytic.derivations.tc_max import (corollary1_differences, derive_tc_max_balanced,
                             positive_for_integers_from)

m = sp.Symbol("m", integer=True, nonnegative=True)
k = sp.Symbol("k", integer=True, positive=True)


def _parity_forms():
    pw = tc_max_balanced()
    assert isinstance(pw, sp.Piecewise) and pw.args[-1].cond == sp.true
    assert pw.args[0].cond == sp.Eq(sp.Mod(r, 2), 0)
    return pw.args[0].expr, pw.args[1].expr


# ---------------------------------------------------------------------------
# Prop. 3: both printed forms, proved on each parity
# ---------------------------------------------------------------------------
def test_prop3_form_with_h():
    """binotto2024 Prop. 3: TC_max = (r-1)^2/2 + (r-1)(r-h)h/r, h = r/2 (even), floor(r/2)+1 (odd)."""
    even, odd = _parity_forms()
    printed = B.parse(B.PROP3["with_h"])
    h = B.H
    # r = 2m: h = r/2
    lhs = even.subs(r, 2 * m)
    rhs = printed.subs(h, B.parse(B.PROP3_H["even"])).subs(r, 2 * m)
    assert sp.simplify(lhs - rhs) == 0
    # r = 2m + 1: h = floor(r/2) + 1, evaluated by SymPy's floor for integer m
    h_odd = B.parse(B.PROP3_H["odd"], r=2 * m + 1)
    assert h_odd == m + 1
    lhs = odd.subs(r, 2 * m + 1)
    rhs = printed.subs(h, h_odd).subs(r, 2 * m + 1)
    assert sp.simplify(lhs - rhs) == 0


def test_prop3_form_split_by_parity():
    """binotto2024 Prop. 3: (r-1)(3r-2)/4 for even r, (r-1)^2 (3r+1)/(4r) for odd r."""
    even, odd = _parity_forms()
    assert sp.simplify(even - B.parse(B.PROP3["even"])) == 0
    assert sp.simplify(odd - B.parse(B.PROP3["odd"])) == 0
    # each is also proved on its own parity with a symbolic integer m
    assert sp.simplify(even.subs(r, 2 * m) - B.parse(B.PROP3["even"], r=2 * m)) == 0
    assert sp.simplify(odd.subs(r, 2 * m + 1) - B.parse(B.PROP3["odd"], r=2 * m + 1)) == 0


def test_prop3_proof_steps():
    """binotto2024 Prop. 3 proof: i_j = r for j <= h, 1 after; the derivation solves for h."""
    d = derive_tc_max_balanced()
    assert d.h_even == d.m and d.h_odd == d.m + 1          # h = r/2, floor(r/2) + 1
    j = sp.Symbol("j", integer=True, positive=True)
    assert d.split == (j <= r / 2 + sp.Rational(1, 2))     # r - j >= j - 1
    # the proof's middle expression (r-1)/r ((r-h)h + r(r-1)/2) on each parity
    for rr, h, form in ((2 * m, m, d.even_m), (2 * m + 1, m + 1, d.odd_m)):
        assert sp.simplify((rr - 1) / rr * ((rr - h) * h + rr * (rr - 1) / 2) - form) == 0


# ---------------------------------------------------------------------------
# against numeric (binotto2024 Prop. 1 class by class)
# ---------------------------------------------------------------------------
RS = list(range(1, 41))


def test_balanced_exact_against_numeric():
    """Exact: the Piecewise at r = 1..40 equals numeric.tc_max([n]*r, 'exact') (n = 3, 7)."""
    pw = tc_max_balanced()
    for rr in RS:
        val = pw.subs(r, rr)
        assert val.is_Rational
        for n in (3, 7):
            assert val == numeric.tc_max([n] * rr, arithmetic="exact"), rr


def test_balanced_mp50_against_numeric():
    """50 digits: the Piecewise evaluated by mpmath vs numeric.tc_max(..., 'mp'), 40 points, 1e-45."""
    even, odd = _parity_forms()
    fe = sp.lambdify(r, even, "mpmath")
    fo = sp.lambdify(r, odd, "mpmath")
    with mpmath.workdps(50):
        for rr in RS:
            mine = fe(mpmath.mpf(rr)) if rr % 2 == 0 else fo(mpmath.mpf(rr))
            ref = numeric.tc_max([5] * rr, arithmetic="mp")
            assert abs(mine - ref) < mpmath.mpf("1e-45"), rr


def test_symbolic_counts_against_numeric():
    """tc_max_symbolic (Prop. 1 with Max) equals numeric.tc_max exactly on 25 random count vectors."""
    rng = random.Random(20240)
    for _ in range(25):
        counts = [rng.randint(1, 30) for _ in range(rng.randint(2, 7))]
        assert tc_max_symbolic(counts) == numeric.tc_max(counts, arithmetic="exact"), counts


# ---------------------------------------------------------------------------
# Prop. 2 and Corollary 1
# ---------------------------------------------------------------------------
def test_prop2_symbolic_counts():
    """binotto2024 Prop. 2: TC_max = 1 for r = 2 and any positive n1, n2 (symbols)."""
    n1, n2 = sp.symbols("n1 n2", positive=True)
    assert sp.simplify(tc_max_symbolic([n1, n2]) - 1) == 0
    # and the balanced form at r = 2 (Corollary 1's first case)
    assert tc_max_balanced().subs(r, 2) == 1


def test_corollary1_differences_positive():
    """binotto2024 Corollary 1: TC(2k) < TC(2k+1) < TC(2k+2) for every k >= 1 (exact Sturm argument)."""
    d1, d2 = corollary1_differences()
    assert positive_for_integers_from(d1, k, 1)
    assert positive_for_integers_from(d2, k, 1)
    # TC_max(1) = 0 < TC_max(2) = 1, so the sequence is strictly increasing from r = 1 and > 1 for r > 2
    pw = tc_max_balanced()
    assert pw.subs(r, 1) == 0 and pw.subs(r, 2) == 1 and pw.subs(r, 3) > 1


def test_corollary1_checker_can_fail():
    """The positivity check is not vacuous: k^2 - 2 > 0 fails from 1, holds from 2; d1 fails from 0."""
    kk = sp.Symbol("kk")
    assert not positive_for_integers_from(kk**2 - 2, kk, 1)
    assert positive_for_integers_from(kk**2 - 2, kk, 2)
    d1, _ = corollary1_differences()
    assert not positive_for_integers_from(d1, k, 0)          # 12k^2 + 3k - 1 < 0 at k = 0


def test_corollary1_proof_first_inequality():
    """binotto2024 Cor. 1 proof: (4k^2-1)(3k-1) < 4k^2(3k+2)  <=>  12k^2 + 3k - 1 > 0."""
    assert sp.expand(4 * k**2 * (3 * k + 2) - (4 * k**2 - 1) * (3 * k - 1)) == 12 * k**2 + 3 * k - 1
    d1, _ = corollary1_differences()
    assert sp.simplify(d1 - (12 * k**2 + 3 * k - 1) / (2 * (2 * k + 1))) == 0


def test_corollary1_proof_second_inequality_slip():
    """binotto2024 Cor. 1 proof prints '4k^2 < (2k+1)^2  <=>  2 <= 2k+1'.

    Finding: that is not an equivalence. Over the reals 4k^2 < (2k+1)^2 holds
    exactly for k > -1/4 (it is 4k + 1 > 0), over the integers for k >= 0,
    while 2 <= 2k + 1 means k >= 1/2.  Both hold for k >= 1, so the corollary
    stands (test_corollary1_differences_positive).
    """
    kr = sp.Symbol("kr", real=True)
    sol = sp.solve_univariate_inequality(4 * kr**2 < (2 * kr + 1) ** 2, kr, relational=False)
    assert sol == sp.Interval.open(sp.Rational(-1, 4), sp.oo)
    printed = sp.solve_univariate_inequality(2 <= 2 * kr + 1, kr, relational=False)
    assert printed == sp.Interval(sp.Rational(1, 2), sp.oo)
    assert sol != printed
    # at k = 0 the two sides of the printed equivalence disagree
    assert 0 in sol and 0 not in printed
    _, d2 = corollary1_differences()
    assert sp.simplify(d2 - (3 * k + 2) * (4 * k + 1) / (2 * (2 * k + 1))) == 0


# ---------------------------------------------------------------------------
# input checks
# ---------------------------------------------------------------------------
def test_tc_max_symbolic_rejects_nonpositive():
    with pytest.raises(ValueError, match="must be positive"):
        tc_max_symbolic([3, 0])
    with pytest.raises(ValueError, match="must be positive"):
        tc_max_symbolic([3, sp.Symbol("q")])
    with pytest.raises(ValueError, match="at least one class"):
        tc_max_symbolic([])
