"""Derived closed forms (single sample, tridiagonal) against the numeric DP.

Every expected value is computed by ``numeric`` (DP of cardoso2011 §3.4 on
the weights of cardoso2011 eq. 7 / silva2018 eq. 28) in exact arithmetic or
with mpmath at 50 digits; printed values quoted from the papers say so.
"""

import mpmath
import numpy as np
import pytest
import sympy as sp

import numeric
from analytic import K, b, beta, d, single_sample_forms, tridiagonal_forms
from analytic._pl import lower_envelope, sign_for_all, signs_for_all
from analytic.forms import band1_envelope
from analytic.sources import cardoso2011 as C11

TOL = mpmath.mpf(10) ** -45


@pytest.fixture(scope="module")
def tri():
    return tridiagonal_forms()


@pytest.fixture(scope="module")
def single():
    return single_sample_forms()


def _tri(k):
    return (np.abs(np.subtract.outer(np.arange(k), np.arange(k))) <= 1).astype(int)


def _single_matrix(dist, k=None, row=0, below=False):
    k = k or dist + 1
    m = np.zeros((k, k), dtype=int)
    if below:
        m[row + dist, row] = 1
    else:
        m[row, row + dist] = 1
    return m


def _mp(expr, **vals):
    syms = {"K": K, "beta": beta, "d": d, "b": b}
    f = sp.lambdify([syms[k] for k in vals], expr, modules="mpmath")
    return f(*vals.values())


def _zero(e):
    """Exact test that an algebraic number is 0: its minimal polynomial is X."""
    e = sp.expand(sp.radsimp(e))
    return e == 0 or sp.minimal_polynomial(e, sp.Symbol("X")) == sp.Symbol("X")


def _same_envelope(pl, env):
    return (len(pl.lines) == len(env.slopes)
            and all(_zero(x - y) for x, y in zip(pl.breaks, env.breakpoints[:-1]))
            and all(_zero(a - x) and _zero(s - y)
                    for (a, s), x, y in zip(pl.lines, env.intercepts, env.slopes)))


# ---------------------------------------------------------------------------
# the machinery
# ---------------------------------------------------------------------------
def test_sign_for_all_decides_and_refuses():
    assert sign_for_all((K - 1) / (5 * K - 4), K, 2) == 1
    assert sign_for_all(3 * K / (5 * K - 1) - 1, K, 1) == -1
    assert sign_for_all(sp.Integer(0), K, 1) == 0
    with pytest.raises(ValueError, match="not constant"):
        sign_for_all(K - 5, K, 3)  # negative at 3, 4; zero at 5; positive later
    with pytest.raises(ValueError, match="not constant"):
        sign_for_all((K - 10) ** 2 - sp.Rational(1, 4), K, 1)  # negative only near K = 10
    with pytest.raises(ValueError, match="undefined"):
        sign_for_all(1 / (K - 4), K, 2)


def test_lower_envelope_equals_minimum_of_lines():
    # expected: min over the lines, exact, at 0, every breakpoint, midpoints and beyond
    rng = np.random.default_rng(3)
    for _ in range(40):
        lines = [(sp.Rational(int(rng.integers(0, 30)), int(rng.integers(1, 9))),
                  sp.Rational(int(rng.integers(0, 12)), int(rng.integers(1, 5)))) for _ in range(6)]
        f = lower_envelope(lines)
        pts = list(f.breaks) + [(u + v) / 2 for u, v in zip(f.breaks, f.breaks[1:])] + [f.breaks[-1] + 3]
        for t in pts:
            assert f(t) == min(a + s * t for a, s in lines)


def test_pl_add_integral_and_negative_set():
    f = lower_envelope([(1, 0), (sp.Rational(1, 2), 1)])          # min(1, 1/2 + beta)
    g = lower_envelope([(sp.Rational(1, 3), 0), (0, 2)])          # min(1/3, 2 beta)
    h = f + g.scale(-1)
    for t in (0, sp.Rational(1, 6), sp.Rational(1, 3), sp.Rational(1, 2), 2):
        assert h(t) == f(t) - g(t)
    assert f.integral(0, 1) == sp.integrate(sp.Min(1, sp.Rational(1, 2) + beta), (beta, 0, 1))
    neg = lower_envelope([(-1, 1), (0, 0)]).negative_set()       # min(beta - 1, 0) < 0 on [0, 1)
    assert neg == [(0, 1)]


# ---------------------------------------------------------------------------
# band-1 lemma (the path structure behind the tridiagonal forms)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("metric", ["uoc", "oc"])
def test_band1_lemma_equals_dp_on_random_tridiagonal(metric):
    # expected: numeric.path_envelope (parametric search over the DP), exact
    rng = np.random.default_rng(5 if metric == "uoc" else 6)
    for _ in range(25):
        k = int(rng.integers(2, 10))
        m = rng.integers(0, 6, size=(k, k)) * _tri(k)
        m[rng.random((k, k)) < 0.25] = 0
        if not m.sum():
            continue
        assert _same_envelope(band1_envelope(m, metric), numeric.path_envelope(m, metric=metric)), m.tolist()


def test_band1_lemma_gamma2():
    rng = np.random.default_rng(8)
    for _ in range(2):
        k = int(rng.integers(3, 5))
        m = rng.integers(1, 5, size=(k, k)) * _tri(k)
        for metric in ("uoc", "oc"):
            assert _same_envelope(band1_envelope(m, metric, gamma=2),
                                  numeric.path_envelope(m, metric=metric, gamma=2))


def test_band1_rejects_wider_band():
    with pytest.raises(ValueError, match="band-1"):
        band1_envelope([[1, 0, 1], [0, 1, 0], [0, 0, 1]])


# ---------------------------------------------------------------------------
# single sample (silva2018 Fig. 2, cardoso2011 §3.2)
# ---------------------------------------------------------------------------
def _single_points():
    pts = []
    for dist in range(1, 9):
        bp = sp.Rational(1, dist * (dist + 1))
        for t in (sp.Integer(0), bp / 3, bp, (bp + 1) / 2, sp.Rational(3, 4)):
            pts.append((dist, t))
    return pts  # 40 points


@pytest.mark.parametrize("metric", ["oc", "uoc"])
def test_single_sample_exact(single, metric):
    # expected: numeric.oc / numeric.uoc, exact, for the sample above and below the diagonal
    # and away from the corner (K = d + 3, row 1)
    form = single[metric]
    fn = numeric.oc if metric == "oc" else numeric.uoc
    for i, (dist, t) in enumerate(_single_points()):
        m = _single_matrix(dist, k=dist + 1 + 2 * (i % 2), row=i % 2, below=bool(i % 3 == 0))
        assert form.subs({d: dist, beta: t}) == fn(m, t, arithmetic="exact"), (dist, t)


@pytest.mark.parametrize("metric", ["oc", "uoc"])
def test_single_sample_50_digits(single, metric):
    mpmath.mp.dps = 50
    fn = numeric.oc if metric == "oc" else numeric.uoc
    for dist in range(1, 7):
        for t in (mpmath.mpf(1) / 7, mpmath.mpf(1) / 90, mpmath.mpf(2) / 3, mpmath.mpf(1) / (dist * (dist + 1))):
            got = _mp(single[metric], d=mpmath.mpf(dist), beta=t)
            assert abs(got - fn(_single_matrix(dist), t, arithmetic="mp")) < TOL


def test_single_sample_gamma2_exact():
    # expected: numeric with gamma = 2 (penalty d^2, M = (d^2)^(1/2) = d), exact
    f = single_sample_forms(gamma=2)
    for dist in range(1, 6):
        for t in (sp.Rational(1, 500), sp.Rational(1, 50), sp.Rational(1, 5)):
            m = _single_matrix(dist)
            assert f["oc"].subs({d: dist, beta: t}) == numeric.oc(m, t, gamma=2, arithmetic="exact")
            assert f["uoc"].subs({d: dist, beta: t}) == numeric.uoc(m, t, gamma=2, arithmetic="exact")
    assert f["a_uoc"] is None  # A_UOC is defined for gamma = 1 only (silva2018 eq. 23)


def test_single_sample_a_uoc(single):
    # expected: numeric.a_uoc exact for d = 1..20; 50-digit mp for 20 values of d
    mpmath.mp.dps = 50
    for dist in range(1, 21):
        m = _single_matrix(dist)
        assert single["a_uoc"].subs(d, dist) == numeric.a_uoc(m, arithmetic="exact")
        assert abs(_mp(single["a_uoc"], d=mpmath.mpf(dist)) - numeric.a_uoc(m, arithmetic="mp")) < TOL


def test_single_sample_identities(single):
    # OC and UOC coincide for one sample (K' = 1, N = 1): proved structurally
    assert sp.simplify(sp.piecewise_fold(single["oc"] - single["uoc"])) == 0
    # A_UOC is SymPy's integral of the UOC form over [0, 1]
    cut = sp.Rational(1) / (d * (d + 1))
    assert sign_for_all(1 - cut, d, 1) == 1  # the breakpoint lies inside [0, 1] for every d >= 1
    lin = single["uoc"].args[0][0]
    integral = sp.integrate(lin, (beta, 0, cut)) + (1 - cut)
    assert sp.simplify(integral - single["a_uoc"]) == 0


def test_single_sample_monotone_in_d(single):
    # silva2018 §IV.A / Fig. 2 and cardoso2011 §3.2: values increase with the distance d
    lin = single["uoc"].args[0][0]
    assert sp.together(sp.diff(lin, d)).is_positive  # the sloped branch increases; the other is constant 1
    a = single["a_uoc"]
    assert sign_for_all(a.subs(d, d + 1) - a, d, 1) == 1


def test_single_sample_cardoso_formula_and_mer(single):
    # cardoso2011 §3.2 prints OC = min(1; 1 - 1/(1+|r-c|) + beta |r-c|): the gamma = 1 form
    printed = C11.parse(C11.SINGLE_SAMPLE_OC)
    lin, cond = single["oc"].args[0]
    assert sp.simplify(lin - printed) == 0
    assert sp.simplify(printed.subs(beta, cond.rhs) - 1) == 0
    # "for beta = 0.5, OC already equals the MER" (= 1 for one misclassified sample)
    assert signs_for_all(sp.Rational(1, 2) - cond.rhs, d, 1) == {0, 1}  # equality only at d = 1
    # gamma = 2: the derived penalty is beta d^2, not the printed beta |r-c|
    lin2 = single_sample_forms(gamma=2)["oc"].args[0][0]
    assert sp.simplify(lin2 - (d / (1 + d) + beta * d**2)) == 0


# ---------------------------------------------------------------------------
# tridiagonal matrices (silva2018 Fig. 3, cardoso2011 §4)
# ---------------------------------------------------------------------------
def test_tridiagonal_mer_mae_exact_and_50_digits(tri):
    mpmath.mp.dps = 50
    for k in range(2, 26):
        m = _tri(k)
        assert tri["mer"].subs(K, k) == numeric.mer(m, arithmetic="exact")
        assert tri["mae"].subs(K, k) == numeric.mae(m, arithmetic="exact")
        assert abs(_mp(tri["mer"], K=mpmath.mpf(k)) - numeric.mer(m, arithmetic="mp")) < TOL
        assert abs(_mp(tri["mae"], K=mpmath.mpf(k)) - numeric.mae(m, arithmetic="mp")) < TOL


def test_tridiagonal_uoc_full_envelope(tri):
    # the whole envelope (breakpoints, intercepts, slopes) equals numeric.path_envelope, K = 2..16
    for k in range(2, 17):
        env = numeric.path_envelope(_tri(k), metric="uoc")
        pw = tri["uoc"].subs(K, k)
        pts = [sp.Integer(0)] + list(env.breakpoints[1:-1])
        pts += [p + sp.Rational(1, 10) for p in pts]
        for t in pts:
            assert pw.subs(beta, t) == env(t)
        assert numeric.uoc(_tri(k), sp.Rational(1, 4), arithmetic="exact") == pw.subs(beta, sp.Rational(1, 4))


def test_tridiagonal_uoc_50_digits(tri):
    mpmath.mp.dps = 50
    for k in (2, 3, 4, 7, 12):
        for t in (mpmath.mpf(1) / 4, mpmath.mpf(3) / 4, mpmath.mpf(3) * k / (5 * k - 1), mpmath.mpf(2)):
            got = _mp(tri["uoc"], K=mpmath.mpf(k), beta=t)
            assert abs(got - numeric.uoc(_tri(k), t, arithmetic="mp")) < TOL


def test_tridiagonal_a_uoc(tri):
    mpmath.mp.dps = 50
    for k in range(2, 22):
        m = _tri(k)
        assert tri["a_uoc"].subs(K, k) == numeric.a_uoc(m, arithmetic="exact")
        assert abs(_mp(tri["a_uoc"], K=mpmath.mpf(k)) - numeric.a_uoc(m, arithmetic="mp")) < TOL


def test_tridiagonal_oc_scaled_beta(tri):
    # beta = b / (N (K-1)), N = 3K - 2 (cardoso2011 §4); both branches are reached
    mpmath.mp.dps = 50
    for k in range(2, 12):
        m = _tri(k)
        n = 3 * k - 2
        for bb in (sp.Rational(1, 4), sp.Rational(3, 4), sp.Integer(2), sp.Integer(40)):
            t = bb / (n * (k - 1))
            assert tri["oc"].subs({K: k, b: bb}) == numeric.oc(m, t, arithmetic="exact")
            got = _mp(tri["oc"], K=mpmath.mpf(k), b=mpmath.mpf(bb.p) / bb.q)
            assert abs(got - numeric.oc(m, mpmath.mpf(bb.p) / bb.q / (n * (k - 1)), arithmetic="mp")) < TOL


def test_tridiagonal_limits(tri):
    lim = tri["limits"]
    # cardoso2011 §4: "MER, MAE converge to 2/3 and OC converge to 0.6"; silva2018 §IV.A "MER of 2/3"
    assert lim["mer"] == sp.Rational(2, 3) and lim["mae"] == sp.Rational(2, 3)
    assert lim["oc"] == sp.Rational(3, 5)
    assert lim["a_uoc"] == sp.Rational(37, 50)
    # the limits agree with the exact values at large K (errors O(1/K))
    big = 10**6
    for key in ("mer", "mae", "a_uoc"):
        assert abs(tri[key].subs(K, big) - lim[key]) < sp.Rational(10, big)
    for bb in (sp.Rational(1, 4), sp.Rational(3, 4)):
        assert abs(tri["oc"].subs({K: big, b: bb}) - lim["oc"]) < sp.Rational(10, big)
    for t in (0, sp.Rational(1, 5), sp.Rational(3, 5), sp.Rational(7, 10), 1, 3):
        assert abs(tri["uoc"].subs({K: big, beta: t}) - lim["uoc"].subs(beta, t)) < sp.Rational(10, big)
