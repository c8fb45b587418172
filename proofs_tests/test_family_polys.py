"""Family envelopes decided on integer polynomials (issue 26, item 6).

The signs, envelopes and integrals of :mod:`analytic.engines._pl` are now computed on
dense integer polynomials (:mod:`exactfloor.ratfun`) instead of SymPy
expressions.  Expected values come from three independent places:

* signs: exact evaluation with :class:`fractions.Fraction` at every integer
  up to past the Cauchy bound of numerator and denominator (every real root
  lies below it, so the sign there is the sign for good): the definition;
* envelopes and integrals: the expression-level algorithm kept in
  :mod:`analytic.engines._pl` (``_lower_envelope_expr``, ``PL._integral_expr``; the
  previous code, still used for irrational coefficients), which must give the
  same object, or the same undecided sign, comparison for comparison;
* closed forms of a family: :func:`numeric.path_envelope` and
  :func:`numeric.a_uoc` in exact arithmetic on the substituted matrix.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import numeric
from exactfloor import ratfun as rf
from analytic.engines._family import PathLines, settle
from analytic.engines._pl import (
    PL, UndecidedSign, _lower_envelope_expr, lower_envelope, sign_for_all, sign_threshold,
    signs_for_all,
)
from analytic.derivations.metric_thresholds import path_lines
from analytic.symbols import beta, d
from analytic.derivations.uoc import a_uoc_symbolic, envelope_piecewise, oc_piecewise, uoc_piecewise

n = sp.Symbol("n", integer=True, positive=True)

#: the 4 x 4 family of issue 26 (more than 200 CPU seconds before)
ISSUE_FAMILY = [[1, n, 2, 3], [n, 1, n, 2], [3, n, 1, n], [2, 3, n, 1]]

# ---------------------------------------------------------------------------
# signs on the integers n >= n0
# ---------------------------------------------------------------------------
SIGN_CASES = [
    (n - 2) * (n - 3),                        # two integer zeros
    (n - 2) ** 2 * (2 * n - 7),               # a double zero and a root at 7/2
    (n - 5) / (n - 2),                        # a pole at 2, a zero at 5
    (3 * n - 10) / (7 * n - 20),              # root 10/3 and pole 20/7, no integer between
    (n**2 - 2) * (n - 40),                    # an irrational root
    (n - 9) * (n - 10) * (n - 11),            # three consecutive integer roots
    (2 * n - 21) * (n - 10) / (n**2 + 1),     # roots 10 and 21/2, no real pole
    1 / (n**2 - 10 * n + 26),                 # no real root: positive
    -(n - 1) * (n - 2),
    n**2 - 20 * n + sp.Rational(399, 4),      # roots 19/2 and 21/2: negative at 10 only
    (n - 3) ** 2,                             # an even zero: the sign comes back
    sp.Integer(-3),
    n / 7 - sp.Rational(3, 2),
]


def _brute(expr, n0):
    """``[(k, sign or None)]`` at every integer from n0 to past the Cauchy bounds."""
    num, den = sp.fraction(sp.cancel(expr))
    polys = [sp.Poly(p, n) for p in (num, den)]
    bound = n0
    for p in polys:
        c = [Fraction(int(x.p), int(x.q)) for x in p.all_coeffs()]
        if len(c) > 1:
            bound = max(bound, math.ceil(1 + max(abs(x / c[0]) for x in c[1:])))
    out = []
    for k in range(n0, bound + 3):
        v = [sum(Fraction(int(x.p), int(x.q)) * k**i
                 for i, x in enumerate(reversed(p.all_coeffs()))) for p in polys]
        q = None if v[1] == 0 else v[0] / v[1]
        out.append((k, None if q is None else (q > 0) - (q < 0)))
    return out


@pytest.mark.parametrize("expr", SIGN_CASES, ids=range(len(SIGN_CASES)))
@pytest.mark.parametrize("n0", [0, 1, 3, 10])
def test_signs_and_thresholds_equal_evaluation_at_every_integer(expr, n0):
    table = _brute(expr, n0)
    signs = {s for _, s in table}
    last = table[-1][1]
    bad = [k for k, s in table if s != last]
    want_threshold = bad[-1] + 1 if bad else n0
    # expected: the definitions, on the exact values at every integer
    assert sign_threshold(expr, n, n0) == want_threshold
    if None in signs:
        with pytest.raises(UndecidedSign) as e:
            signs_for_all(expr, n, n0)
        assert e.value.threshold == want_threshold
        assert f"undefined at {n} = {next(k for k, s in table if s is None)}" in str(e.value)
    else:
        assert signs_for_all(expr, n, n0) == signs
    if len(signs) == 1 and None not in signs:
        assert sign_for_all(expr, n, n0) == last
    else:
        with pytest.raises(UndecidedSign) as e:
            sign_for_all(expr, n, n0)
        assert e.value.threshold == want_threshold


def test_a_far_root_is_not_walked_to():
    # expected: (n - 10^6)(n + 1) is negative below 10^6, zero there, positive after
    t = time.process_time()
    assert sign_threshold((n - 10**6) * (n + 1), n, 1) == 10**6 + 1
    assert signs_for_all((n - 10**6) * (n + 1), n, 1) == {-1, 0, 1}
    # the previous method evaluated every integer up to the Cauchy bound (10^6 of them)
    assert time.process_time() - t < 5


def test_sign_runs_cut_at_the_roots():
    # (t - 2)(t - 3)^2 / (2t - 9): zero at 2 and 3, pole at 9/2 (not an integer)
    num = rf.mul([1, -2], rf.mul([1, -3], [1, -3]))
    runs = rf.sign_runs(num, [2, -9])
    expanded = {}
    prev = -1
    for last, s in runs[:-1]:
        for k in range(prev + 1, last + 1):
            expanded[k] = s
        prev = last
    # expected, by hand: (-)(+)/(-) = + below 2; zeros at 2, 3; at 4: (+)(+)/(-) = -;
    # beyond the pole 9/2 positive for good
    assert expanded == {0: 1, 1: 1, 2: 0, 3: 0, 4: -1}
    assert runs[-1] == (5, 1)


def test_clean_sign_is_descartes():
    # expected: no sign change in the coefficients and a nonzero constant term
    assert rf.clean_sign([3, 0, 1]) == 1 and rf.clean_sign([-1, -4]) == -1
    assert rf.clean_sign([1, -3, 2]) is None  # (t - 1)(t - 2): roots in t >= 0
    assert rf.clean_sign([1, 0]) is None      # t: a root at 0
    assert rf.clean_sign([]) is None


def test_fraction_refuses_what_is_not_rational():
    assert rf.fraction(sp.sqrt(2) * n, n) is None
    assert rf.fraction(sp.sqrt(n), n) is None
    assert rf.fraction(n + sp.Symbol("m"), n) is None
    assert rf.fraction(sp.Float(0.5) * n, n) is None
    # expected: (n/3 + 1/(2(n + 1))) = (2n^2 + 2n + 3) / (6n + 6), by hand
    assert rf.fraction(n / 3 + sp.Rational(1, 2) / (n + 1), n) == ([2, 2, 3], [6, 6])


# ---------------------------------------------------------------------------
# envelopes: the polynomial route equals the expression route
# ---------------------------------------------------------------------------
ENVELOPE_FAMILIES = [
    ([[1, n], [2, 1]], "uoc"),
    ([[n, 2, 0], [5, 1, 0], [0, 1, n]], "uoc"),
    ([[n, 2, 0], [5, 1, 0], [0, 1, n]], "oc"),
    ([[1, 2 * n, 3], [n, 1, 2], [3, n + 2, 1]], "uoc"),
    ([[n, n + 1, 1], [2, 1, n], [1, n**2, 3]], "oc"),
    ([[5, 5, n + 1], [5, 1, 5], [n, 0, 3]], "uoc"),
]


def _outcome(fn):
    try:
        return fn()
    except UndecidedSign as e:
        return ("undecided", e.threshold)


def _same(x, y):
    if isinstance(x, PL) and isinstance(y, PL):
        return sp.srepr((x.breaks, x.lines, x.n, x.n0)) == sp.srepr((y.breaks, y.lines, y.n, y.n0))
    return x == y


@pytest.mark.parametrize("matrix,metric", ENVELOPE_FAMILIES, ids=range(len(ENVELOPE_FAMILIES)))
def test_polynomial_envelope_equals_expression_envelope(matrix, metric):
    lines = path_lines(matrix, metric)
    family = PathLines(matrix, metric, n)
    m_final, _ = settle(family.envelope, n, 1)
    for m in sorted({1, m_final - 1, m_final} - {0}):  # undecided below m_final, decided from it
        # expected: the expression-level algorithm (the previous code) on path_lines
        want = _outcome(lambda: _lower_envelope_expr(lines, n, m))
        assert _same(_outcome(lambda: family.envelope(m)), want), m
        assert _same(_outcome(lambda: lower_envelope(lines, n, m)), want), m
        if isinstance(want, PL):
            got = family.envelope(m).integral(0, 1)
            assert sp.srepr(got) == sp.srepr(want._integral_expr(sp.Integer(0), sp.Integer(1)))


@pytest.mark.parametrize("matrix", [[[n, 1, 0], [0, n, 1], [1, 0, n]],
                                    [[1, n, 2, 3], [n, 1, n, 2], [3, n, 1, n], [2, 3, n, 1]],
                                    [[0, n, 0], [1, 0, 2 * n], [n, 0, 1]]])
@pytest.mark.parametrize("metric", ["uoc", "oc"])
def test_path_lines_as_polynomials_are_path_lines(matrix, metric):
    family = PathLines(matrix, metric, n)
    # expected: analytic.derivations.metric_thresholds.path_lines, line by line (same paths, same order)
    for i, (a, s) in enumerate(path_lines(matrix, metric)):
        assert family.line_expr(i) == (sp.cancel(a), sp.cancel(s))
        for num, den, want in ((family.A[i], family.Da, a), (family.S[i], family.Ds, s)):
            p, q = (sp.Poly(e, n) for e in sp.fraction(sp.cancel(want)))
            # num/den = p/q, cross-multiplied with SymPy's own polynomials
            assert sp.Poly(num or [0], n) * q == sp.Poly(den, n) * p


def test_irrational_coefficients_use_the_expression_route():
    # min(1, sqrt(2)/2 + d beta): the lines cross at (1 - sqrt(2)/2)/d, by hand
    f = lower_envelope([(1, 0), (sp.sqrt(2) / 2, d)], d, 1)
    assert f.breaks == (0, sp.cancel((1 - sp.sqrt(2) / 2) / d))
    assert f.lines == ((sp.sqrt(2) / 2, d), (1, 0))


def test_numbers_only_envelope():
    # parameter-free lines: min(1, 1/2 + beta, 3/4 + beta/4), by hand:
    # 1/2 + beta up to 1/3, then 3/4 + beta/4 up to 1, then 1
    f = lower_envelope([(1, 0), (sp.Rational(1, 2), 1), (sp.Rational(3, 4), sp.Rational(1, 4))])
    assert f.breaks == (0, sp.Rational(1, 3), 1)
    # 2/9 + 11/18 + 1 over [0, 1/3], [1/3, 1], [1, 2], by hand
    assert f.integral(0, 2) == sp.Rational(11, 6)


# ---------------------------------------------------------------------------
# the family of the issue
# ---------------------------------------------------------------------------
def _at(matrix, k):
    return np.array([[int(sp.sympify(v).subs(n, k)) for v in row] for row in matrix])


def _agree_pl(f, g):
    """Two piecewise-linear functions of beta (Piecewise) agree at the breakpoints and between."""
    pts = {sp.Integer(0), sp.Integer(3)}
    for h in (f, g):
        for p in h.atoms(sp.Piecewise):
            pts |= {c.rhs for _, c in p.args if c != sp.true}
    pts = sorted(pts)
    probes = pts + [(a + b) / 2 for a, b in zip(pts, pts[1:])]
    return all(f.subs(beta, x) == g.subs(beta, x) for x in probes)


def test_issue_family_finishes_and_equals_the_exact_envelope():
    t = time.process_time()
    form = uoc_piecewise(ISSUE_FAMILY)
    area = a_uoc_symbolic(ISSUE_FAMILY)
    spent = time.process_time() - t
    # the issue's target is 30 s; the previous code had not finished after 200 s
    assert spent < 60, spent
    for k in list(range(1, 41)) + [97, 1000]:
        sub = _at(ISSUE_FAMILY, k)
        # expected: the exact envelope of the substituted matrix (numeric's parametric search)
        want = envelope_piecewise(numeric.path_envelope(sub, metric="uoc"))
        assert _agree_pl(form.subs(n, k), want), k
        assert area.subs(n, k) == numeric.a_uoc(sub, arithmetic="exact"), k


def test_oc_of_a_family_with_many_pieces_equals_the_exact_envelope():
    matrix = [[3, n + 3, n, n], [3, 1, 0, n + 3], [n, 0, 0, n], [1, 0, 5, n + 1]]
    form = oc_piecewise(matrix)
    for k in list(range(1, 25)) + [500]:
        want = envelope_piecewise(numeric.path_envelope(_at(matrix, k), metric="oc"))
        assert _agree_pl(form.subs(n, k), want), k
