"""binotto2024, derived symbolically: TC_max (Props 2-3, Corollary 1), Prop. 5,
Prop. 6 and Appendix A, and new closed forms for unbalanced counts.

Every check runs :mod:`analytic.derivations.tc_max` / :mod:`analytic.derivations.intervals` (closed
forms derived by SymPy: summation for Prop. 3, an exact sweep over ``L`` for
Prop. 6) and compares with the printed forms symbolically
(``exactfloor.exact_sign.vanishes(lhs - rhs)``) or, for the new forms, with
:func:`numeric.optimal_last_length` at 50 digits.  Printed Prop. 6 and toy
values come from :mod:`analytic.ledger.sources.binotto2024`, Appendix A's pieces and
per-piece minima included (``APPENDIX_A``, ``APPENDIX_A_MINIMA``).  The same checks,
with more points, are in ``proofs_tests/test_analytic_tc_max.py`` and
``proofs_tests/test_analytic_intervals.py``.
"""

from __future__ import annotations

import mpmath
import sympy as sp

import numeric

from analytic.derivations.intervals import derive_optimal_last_length, interval_tc_max_symbolic
from analytic.ledger import Outcome, claim
from ..sources import binotto2024 as src
from ..sources.binotto2024 import APPENDIX_A, APPENDIX_A_MINIMA, PROP3, PROP3_H
from analytic.symbols import L, r, x
from analytic.derivations.tc_max import (corollary1_differences, derive_tc_max_balanced,
                      positive_for_integers_from, tc_max_balanced, tc_max_symbolic)
from exactfloor.tolerance import mp_tolerance
from exactfloor.exact_sign import vanishes

__all__ = ["NEW_COUNTS"]

#: unbalanced counts for which new closed forms are derived (r = 3, l = (1, L, x))
NEW_COUNTS = ((1, 2, 3), (3, 2, 1), (2, 1, 1))


_p = src.parse


def _zero(e):
    return vanishes(e)


def _form_string(e):
    s = sp.sstr(e)
    sp.sympify(s)  # must parse
    return s


# ---------------------------------------------------------------------------
# §3: TC_max
# ---------------------------------------------------------------------------
@claim("binotto2024:prop2:symbolic",
       source=("binotto2024", "§3.1, Prop. 2"),
       statement="In the binary case TC_max = 1, for any positive n_1, n_2",
       method="symbolic: Prop. 1 with positive symbols n1, n2 (analytic.tc_max_symbolic), vanishes(TC_max - 1)",
       expect="verified")
def _prop2():
    n1, n2 = sp.symbols("n1 n2", positive=True)
    v = tc_max_symbolic([n1, n2])
    return Outcome("verified" if _zero(v - 1) else "refuted",
                   f"Prop. 1 with symbolic counts gives {v}", closed_form=sp.sstr(v))


@claim("binotto2024:prop3:symbolic",
       source=("binotto2024", "§3.2, Prop. 3"),
       statement="Balanced: TC_max = (r-1)^2/2 + (r-1)(r-h)h/r = (r-1)(3r-2)/4 (r even), (r-1)^2(3r+1)/(4r) (r odd)",
       method="symbolic: Prop. 1's construction summed by SymPy on r = 2m and r = 2m+1 (split index solved "
              "from r - j >= j - 1); both printed forms proved equal on each parity with simplify == 0",
       expect="verified")
def _prop3():
    d = derive_tc_max_balanced()
    m, h = d.m, src.H
    pw = tc_max_balanced()
    even, odd = pw.args[0].expr, pw.args[1].expr
    with_h = _p(PROP3["with_h"])
    checks = [
        _zero(even.subs(r, 2 * m) - with_h.subs(h, _p(PROP3_H["even"])).subs(r, 2 * m)),
        _zero(odd.subs(r, 2 * m + 1) - with_h.subs(h, _p(PROP3_H["odd"])).subs(r, 2 * m + 1)),
        _zero(even - _p(PROP3["even"])),
        _zero(odd - _p(PROP3["odd"])),
    ]
    ok = all(checks)
    return Outcome("verified" if ok else "refuted",
                   f"derived h = {d.h_even} (r = 2m), {d.h_odd} (r = 2m+1); sums {d.even_m}, {d.odd_m}; "
                   f"equalities with the printed forms: {checks}",
                   closed_form=_form_string(pw))


@claim("binotto2024:cor1:symbolic",
       source=("binotto2024", "§3.2, Corollary 1"),
       statement="Balanced TC_max(2k) < TC_max(2k+1) < TC_max(2k+2) for every k >= 1; TC_max(2) = 1",
       method="symbolic: the differences of the derived Piecewise as rational functions of k; no real root "
              "of numerator or denominator in [1, oo) (Sturm count) and positive at k = 1",
       expect="verified")
def _cor1():
    k = sp.Symbol("k", integer=True, positive=True)
    d1, d2 = corollary1_differences()
    ok = (positive_for_integers_from(d1, k, 1) and positive_for_integers_from(d2, k, 1)
          and tc_max_balanced().subs(r, 2) == 1)
    return Outcome("verified" if ok else "refuted",
                   f"TC(2k+1) - TC(2k) = {d1}, TC(2k+2) - TC(2k+1) = {d2}, both > 0 for k >= 1",
                   closed_form=f"({sp.sstr(d1)}, {sp.sstr(d2)})")


@claim("binotto2024:cor1:proof-second-inequality",
       source=("binotto2024", "§3.2, proof of Corollary 1"),
       statement="4k^2 < (2k+1)^2 <=> 2 <= 2k+1",
       method="symbolic: solve_univariate_inequality of both sides over the reals",
       expect="refuted")
def _cor1_step():
    kr = sp.Symbol("k", real=True)
    lhs = sp.solve_univariate_inequality(4 * kr**2 < (2 * kr + 1) ** 2, kr, relational=False)
    rhs = sp.solve_univariate_inequality(2 <= 2 * kr + 1, kr, relational=False)
    if lhs == rhs:
        return Outcome("verified", f"both sides hold on {lhs}")
    return Outcome("refuted",
                   f"not an equivalence: 4k^2 < (2k+1)^2 holds on {lhs} (it is 4k + 1 > 0), "
                   f"2 <= 2k+1 on {rhs}; they differ at k = 0. Both hold for k >= 1, so Corollary 1 "
                   "stands (binotto2024:cor1:symbolic)")


# ---------------------------------------------------------------------------
# §4: Prop. 5
# ---------------------------------------------------------------------------
@claim("binotto2024:prop5:symbolic",
       source=("binotto2024", "§4.1, Prop. 5"),
       statement="In the binary case TC-hat_max = max(l_1, l_2), for any positive counts",
       method="symbolic: Prop. 4 with positive symbols n1, n2, l1, l2 (analytic.interval_tc_max_symbolic)",
       expect="verified")
def _prop5():
    l1, l2, n1, n2 = sp.symbols("l1 l2 n1 n2", positive=True)
    v = interval_tc_max_symbolic([n1, n2], [l1, l2])
    return Outcome("verified" if _zero(v - sp.Max(l1, l2)) else "refuted",
                   f"Prop. 4 with symbolic counts and lengths gives {v}", closed_form=sp.sstr(v))


# ---------------------------------------------------------------------------
# §5: Appendix A and Prop. 6
# ---------------------------------------------------------------------------
@claim("binotto2024:appendixA:cases-derived",
       source=("binotto2024", "Appendix A, cases a), b.1), b.2), b.3)"),
       statement="For r = 3, balanced, l = (1, L, x): TC-hat_max(x) has the printed pieces on L <= 1, "
                 "1 < L <= (1+sqrt5)/2, (1+sqrt5)/2 < L <= 2, L > 2",
       method="symbolic: exact sweep over L (analytic.derive_optimal_last_length): case boundaries and "
              "every piece and x-breakpoint compared with the printed ones, simplify == 0",
       expect="verified")
def _appendix_cases():
    d = derive_optimal_last_length([1, 1, 1])
    if len(d.cases) != len(APPENDIX_A):
        return Outcome("refuted", f"{len(d.cases)} cases derived, {len(APPENDIX_A)} printed")
    for case, (name, ((lo, hi), pieces)) in zip(d.cases, APPENDIX_A.items(), strict=True):
        if not (_zero(case.lower - _p(lo)) and (case.upper == _p(hi) or _zero(case.upper - _p(hi)))):
            return Outcome("refuted", f"case {name}: derived ({case.lower}, {case.upper}], printed ({lo}, {hi}]")
        if len(case.pieces) != len(pieces):
            return Outcome("refuted", f"case {name}: {len(case.pieces)} pieces derived, {len(pieces)} printed")
        for (f, b), (pb, pf) in zip(case.pieces, pieces, strict=True):
            if not _zero(f - _p(pf)) or not (b == sp.oo if pb is None else _zero(b - _p(pb))):
                return Outcome("refuted", f"case {name}: derived {f} up to {b}, printed {pf} up to {pb}")
    form = interval_tc_max_symbolic([1, 1, 1], [1, L, x])
    return Outcome("verified", "4 cases, 3 + 5 + 6 + 4 pieces and their breakpoints equal the printed ones; "
                   "boundaries 1, (1+sqrt5)/2, 2 found by the sweep", closed_form=_form_string(form))


@claim("binotto2024:appendixA:piece-minima",
       source=("binotto2024", "Appendix A, the per-piece minima of cases a), b.1), b.2), b.3)"),
       statement="The printed minimum of each piece is reached at the printed x~",
       method="symbolic: printed value == derived piece at the printed x~, and x~ is an end of the piece or "
              "a zero of its derivative (simplify == 0)",
       expect="verified")
def _appendix_minima():
    d = derive_optimal_last_length([1, 1, 1])
    if len(d.cases) != len(APPENDIX_A):
        return Outcome("refuted", f"{len(d.cases)} cases derived, {len(APPENDIX_A)} printed")
    n, printed = 0, sum(len(v) for v in APPENDIX_A_MINIMA.values())
    for case, name in zip(d.cases, APPENDIX_A, strict=True):
        for idx, xs, val in APPENDIX_A_MINIMA[name]:
            f, hi = case.pieces[idx]
            lo = case.pieces[idx - 1][1] if idx else sp.Integer(0)
            xt = _p(xs)
            end = any(_zero(xt - e) for e in (lo, hi) if e != sp.oo)
            crit = _zero(sp.diff(f, x).subs(x, xt))
            if not (_zero(f.subs(x, xt) - _p(val)) and (end or crit)):
                return Outcome("refuted", f"case {name}, piece {idx}: printed {val} at x = {xs}, "
                                          f"piece there {sp.simplify(f.subs(x, xt))}")
            n += 1
    if n != printed:
        return Outcome("refuted", f"{n} minima checked, {printed} printed")
    return Outcome("verified", f"all {n} printed per-piece minima agree")


@claim("binotto2024:prop6:derived",
       source=("binotto2024", "§5, Prop. 6 (proof in Appendix A)"),
       statement="For r = 3, l = (1, L, x), n_1 = n_2 = n_3: the optimal x and TC-hat_max(x) are the four "
                 "printed branches, with boundaries 1, (1+sqrt5)/2, (3+sqrt5)/2",
       method="symbolic: exact sweep over L (breakpoints and critical points as algebraic functions of L, "
              "L-cells where their order holds, exchanges of the minimum by resultants); boundaries and "
              "each branch compared with the printed ones, simplify == 0",
       expect="verified")
def _prop6():
    d = derive_optimal_last_length([1, 1, 1])
    if len(d.optima) != len(src.PROP6):
        return Outcome("refuted", f"{len(d.optima)} branches derived, {len(src.PROP6)} printed")
    for o, (b, xs, vs) in zip(d.optima, src.PROP6, strict=True):
        bound_ok = o.upper == sp.oo if b is None else _zero(o.upper - _p(b))
        if not (bound_ok and _zero(o.x_opt - _p(xs)) and _zero(o.value - _p(vs))):
            return Outcome("refuted", f"derived ({o.x_opt}, {o.value}) up to {o.upper}; printed ({xs}, {vs}) up to {b}")
    kinds = ", ".join(o.kind for o in d.optima)
    return Outcome("verified", f"4 branches equal the printed ones ({kinds}); boundaries found by the sweep: "
                   + ", ".join(sp.sstr(o.upper) for o in d.optima[:-1]),
                   closed_form=f"({_form_string(d.forms.x_opt)}, {_form_string(d.forms.tc_max_opt)})")


@claim("binotto2024:toy:optimal-length:symbolic",
       source=("binotto2024", "§5, toy example"),
       statement="With l_1 = l_2 = 1 and n = (5, 5, 5): x~ = 1/sqrt(2) and TC-hat_max(x~) = (2 sqrt(2) + 7)/3",
       method="symbolic: the derived Prop. 6 Piecewise at L = 1",
       expect="verified")
def _toy():
    xo, vo = derive_optimal_last_length([5, 5, 5]).forms
    xv, vv = xo.subs(L, 1), vo.subs(L, 1)
    ok = _zero(xv - _p(src.TOY_PRINTED["x_opt"])) and _zero(vv - _p(src.TOY_PRINTED["TC_max_opt"]))
    return Outcome("verified" if ok else "refuted", f"derived x~ = {xv}, TC-hat_max = {vv}")


# ---------------------------------------------------------------------------
# beyond the paper: unbalanced counts
# ---------------------------------------------------------------------------
def _new_form_check(counts):
    d = derive_optimal_last_length(counts)
    fx, fv = d.forms
    pts = [sp.Rational(k, 4) for k in range(1, 21)] + [sp.Integer(v) for v in (8, 30, 1000)] + [
        o.upper for o in d.optima[:-1]]
    worst = mpmath.mpf(0)
    with mpmath.workdps(50):
        for Lv in pts:
            ref = numeric.optimal_last_length(list(counts), [1, mpmath.mpf(sp.N(Lv, 70))], arithmetic="mp")
            err = max(abs(mpmath.mpf(sp.N(fx.subs(L, Lv), 70)) - ref.x),
                      abs(mpmath.mpf(sp.N(fv.subs(L, Lv), 70)) - ref.minimum))
            worst = max(worst, err)
    ok = worst < mp_tolerance(50, 5)  # 1e-45
    branches = "; ".join(f"L <= {sp.sstr(o.upper)}: x~ = {sp.sstr(o.x_opt)} ({o.kind})" for o in d.optima)
    return Outcome("verified" if ok else "refuted",
                   f"{branches}; against numeric.optimal_last_length at 50 digits on {len(pts)} values of L "
                   f"(boundaries included): largest difference {mpmath.nstr(worst, 3)}",
                   closed_form=f"({_form_string(fx)}, {_form_string(fv)})")


for _counts in NEW_COUNTS:
    _key = "-".join(map(str, _counts))
    claim(f"binotto2024:sec5:optimal-length:counts-{_key}",
          source=("binotto2024", "§5 (Prop. 6 extended to unbalanced counts; new closed form)"),
          statement=f"For r = 3, l = (1, L, x), n = {_counts}: the optimal x and TC-hat_max(x) as Piecewise in L "
                    "(derived; not in the paper)",
          method="symbolic derivation by the exact sweep over L, cross-checked against "
                 "numeric.optimal_last_length (mp, 50 digits, tolerance 1e-45)",
          expect="verified")(lambda c=_counts: _new_form_check(c))
