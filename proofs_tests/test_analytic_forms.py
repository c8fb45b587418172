"""Derived closed forms (single sample, tridiagonal) against the numeric DP.

Every expected value is computed by ``numeric`` (DP of cardoso2011 §3.4 on
the weights of cardoso2011 eq. 7 / silva2018 eq. 28; the functions named in
``analytic.derivations.forms.METRIC_FUNCTIONS`` for kappa, within-one accuracy, MS, GM,
Somers' d, tau_c and CEM-ORD) in exact arithmetic or with mpmath at 50
digits; printed values quoted from the papers say so.
"""

import mpmath
import numpy as np
import pytest
import sympy as sp

import numeric
from analytic import single_sample_forms, tridiagonal_forms
from analytic.engines._pl import lower_envelope, sign_for_all, signs_for_all
from analytic.derivations.forms import METRIC_FUNCTIONS, band1_envelope, positioned_metric_forms
from analytic.ledger.sources import cardoso2011 as C11
from analytic.symbols import K, b, beta, d
from exact_values import algebraic_zero, same_value

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


def _numeric_metric(name, cm, arithmetic):
    """The numeric function behind a field of analytic.derivations.forms.MetricForms."""
    fn, kwargs = METRIC_FUNCTIONS[name]
    return getattr(numeric, fn)(cm, arithmetic=arithmetic, **kwargs)


def _same_envelope(pl, env):
    return (len(pl.lines) == len(env.slopes)
            and all(algebraic_zero(x - y) for x, y in zip(pl.breaks, env.breakpoints[:-1]))
            and all(algebraic_zero(a - x) and algebraic_zero(s - y)
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
    form = getattr(single, metric)
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
            got = _mp(getattr(single, metric), d=mpmath.mpf(dist), beta=t)
            assert abs(got - fn(_single_matrix(dist), t, arithmetic="mp")) < TOL


def test_single_sample_gamma2_exact():
    # expected: numeric with gamma = 2 (penalty d^2, M = (d^2)^(1/2) = d), exact
    f = single_sample_forms(gamma=2)
    for dist in range(1, 6):
        for t in (sp.Rational(1, 500), sp.Rational(1, 50), sp.Rational(1, 5)):
            m = _single_matrix(dist)
            assert f.oc.subs({d: dist, beta: t}) == numeric.oc(m, t, gamma=2, arithmetic="exact")
            assert f.uoc.subs({d: dist, beta: t}) == numeric.uoc(m, t, gamma=2, arithmetic="exact")
    assert f.a_uoc is None  # A_UOC is defined for gamma = 1 only (silva2018 eq. 23)


def test_single_sample_a_uoc(single):
    # expected: numeric.a_uoc exact for d = 1..20; 50-digit mp for 20 values of d
    mpmath.mp.dps = 50
    for dist in range(1, 21):
        m = _single_matrix(dist)
        assert single.a_uoc.subs(d, dist) == numeric.a_uoc(m, arithmetic="exact")
        assert abs(_mp(single.a_uoc, d=mpmath.mpf(dist)) - numeric.a_uoc(m, arithmetic="mp")) < TOL


def test_single_sample_identities(single):
    # OC and UOC coincide for one sample (K' = 1, N = 1): proved structurally
    assert sp.simplify(sp.piecewise_fold(single.oc - single.uoc)) == 0
    # A_UOC is SymPy's integral of the UOC form over [0, 1]
    cut = sp.Rational(1) / (d * (d + 1))
    assert sign_for_all(1 - cut, d, 1) == 1  # the breakpoint lies inside [0, 1] for every d >= 1
    lin = single.uoc.args[0][0]
    integral = sp.integrate(lin, (beta, 0, cut)) + (1 - cut)
    assert sp.simplify(integral - single.a_uoc) == 0


def test_single_sample_monotone_in_d(single):
    # silva2018 §IV.A / Fig. 2 and cardoso2011 §3.2: values increase with the distance d
    lin = single.uoc.args[0][0]
    assert sp.together(sp.diff(lin, d)).is_positive  # the sloped branch increases; the other is constant 1
    a = single.a_uoc
    assert sign_for_all(a.subs(d, d + 1) - a, d, 1) == 1


def test_single_sample_cardoso_formula_and_mer(single):
    # cardoso2011 §3.2 prints OC = min(1; 1 - 1/(1+|r-c|) + beta |r-c|): the gamma = 1 form
    printed = C11.parse(C11.SINGLE_SAMPLE_OC)
    lin, cond = single.oc.args[0]
    assert sp.simplify(lin - printed) == 0
    assert sp.simplify(printed.subs(beta, cond.rhs) - 1) == 0
    # "for beta = 0.5, OC already equals the MER" (= 1 for one misclassified sample)
    assert signs_for_all(sp.Rational(1, 2) - cond.rhs, d, 1) == {0, 1}  # equality only at d = 1
    # gamma = 2: the derived penalty is beta d^2, not the printed beta |r-c|
    lin2 = single_sample_forms(gamma=2).oc.args[0][0]
    assert sp.simplify(lin2 - (d / (1 + d) + beta * d**2)) == 0


# ---------------------------------------------------------------------------
# kappa, within-one, MS, GM, Somers' d, tau_c, CEM-ORD (analytic.derivations.forms.METRIC_FUNCTIONS)
# ---------------------------------------------------------------------------
def _random_sparse(rng):
    """A K x K matrix with empty classes, its nonempty classes and their cells."""
    k = int(rng.integers(2, 8))
    m = rng.integers(0, 4, size=(k, k)) * (rng.random((k, k)) < 0.45)
    empty = rng.random(k) < 0.3
    m[empty, :] = 0
    m[:, empty] = 0
    if not m.sum():
        m[int(rng.integers(0, k)), int(rng.integers(0, k))] = 1
    used = [c for c in range(k) if m[c, :].sum() or m[:, c].sum()]
    cells = {(used.index(i), used.index(j)): int(m[i, j]) for i in used for j in used if m[i, j]}
    return m, used, cells


def test_positioned_metric_forms_equal_numeric_with_empty_classes():
    # expected: numeric's functions, exact, on the whole K x K matrix (empty classes between
    # and around the nonempty ones); positioned_metric_forms sees only the nonempty classes
    # at their positions.  Undefined exactly where numeric raises ValueError.
    rng = np.random.default_rng(12)
    cases = [_random_sparse(rng) for _ in range(40)]
    cases.append((np.array([[0, 0, 0], [0, 0, 0], [0, 0, 3]]), [2], {(0, 0): 3}))  # all undefined
    cases.append((np.array([[0, 0, 2], [0, 0, 0], [0, 0, 0]]), [0, 2], {(0, 1): 2}))
    undefined_seen = set()
    for m, used, cells in cases:
        f = positioned_metric_forms(cells, used)
        for name in METRIC_FUNCTIONS:
            form = getattr(f, name)
            if form is None:
                undefined_seen.add(name)
                assert name in f.undefined
                with pytest.raises(ValueError, match="undefined"):
                    _numeric_metric(name, m, "exact")
            else:
                assert same_value(form, _numeric_metric(name, m, "exact")), (name, m.tolist())
    assert undefined_seen == {"kappa", "kappa_linear", "kappa_quadratic", "somers_d",
                              "kendall_tau_c"}


def test_positioned_metric_forms_refuses():
    x, y = sp.symbols("x y", real=True)
    with pytest.raises(ValueError, match="positions must increase"):
        positioned_metric_forms({(0, 1): 1}, (x, y))            # order not decided
    with pytest.raises(ValueError, match="positions must increase"):
        positioned_metric_forms({(0, 1): 1}, (2, 1))
    with pytest.raises(ValueError, match="outside"):
        positioned_metric_forms({(0, 2): 1}, (0, 1))
    with pytest.raises(ValueError, match="no sample"):
        positioned_metric_forms({(0, 1): 0}, (0, 1))


def _single_cases():
    """(d, K, row, below): the sample above and below the diagonal, in and away from the corner."""
    return [(dist, dist + 1 + 2 * (i % 2), i % 3 if i % 2 else 0, bool(i % 2 == 0))
            for i, dist in enumerate(range(1, 16))] + [(dist, dist + 1, 0, False) for dist in (1, 2, 3)]


@pytest.mark.parametrize("name", list(METRIC_FUNCTIONS))
def test_single_sample_metrics_exact_and_50_digits(single, name):
    # expected: the numeric function of METRIC_FUNCTIONS, exact and mp (50 digits), on one
    # sample at distance d = 1..15, K = d+1 or d+3, above or below the diagonal, rows 0..2
    mpmath.mp.dps = 50
    form = getattr(single, name)
    for dist, k, row, below in _single_cases():
        m = _single_matrix(dist, k=k, row=row, below=below)
        if form is None:
            with pytest.raises(ValueError, match="undefined"):
                _numeric_metric(name, m, "exact")
            continue
        assert same_value(form.subs(d, dist), _numeric_metric(name, m, "exact")), (name, dist)
        got = _mp(form, d=mpmath.mpf(dist))
        assert abs(got - _numeric_metric(name, m, "mp")) < TOL, (name, dist)


def test_single_sample_undefined_metrics(single):
    # one sample forms no pair: Somers' d and tau_c are undefined (numeric raises ValueError),
    # every other metric has a form; the forms do not depend on gamma
    assert set(single.undefined) == {"somers_d", "kendall_tau_c"}
    assert single.somers_d is None and single.kendall_tau_c is None
    assert "one true class" in single.undefined["somers_d"]
    g2 = single_sample_forms(gamma=2)
    assert g2.metric_forms() == single.metric_forms() and g2.undefined == single.undefined
    # ... and the gamma = 2 forms are numeric's values (gamma enters only OC and UOC)
    for dist in (1, 4):
        for name, form in g2.metric_forms().items():
            if form is not None:
                assert same_value(form.subs(d, dist),
                                  _numeric_metric(name, _single_matrix(dist), "exact")), (name, dist)
    # within-one accuracy is 1 at d = 1 only: the one sample counts iff |p_i - p_j| = d <= 1
    # (a form with a branch: it can fail on either side)
    assert [single.within_one_accuracy.subs(d, k) for k in (1, 2, 7)] == [1, 0, 0]


# ---------------------------------------------------------------------------
# tridiagonal matrices (silva2018 Fig. 3, cardoso2011 §4)
# ---------------------------------------------------------------------------
def test_tridiagonal_mer_mae_exact_and_50_digits(tri):
    mpmath.mp.dps = 50
    for k in range(2, 26):
        m = _tri(k)
        assert tri.mer.subs(K, k) == numeric.mer(m, arithmetic="exact")
        assert tri.mae.subs(K, k) == numeric.mae(m, arithmetic="exact")
        assert abs(_mp(tri.mer, K=mpmath.mpf(k)) - numeric.mer(m, arithmetic="mp")) < TOL
        assert abs(_mp(tri.mae, K=mpmath.mpf(k)) - numeric.mae(m, arithmetic="mp")) < TOL


def test_tridiagonal_uoc_full_envelope(tri):
    # the whole envelope (breakpoints, intercepts, slopes) equals numeric.path_envelope, K = 2..16
    for k in range(2, 17):
        env = numeric.path_envelope(_tri(k), metric="uoc")
        pw = tri.uoc.subs(K, k)
        pts = [sp.Integer(0)] + list(env.breakpoints[1:-1])
        pts += [p + sp.Rational(1, 10) for p in pts]
        for t in pts:
            assert pw.subs(beta, t) == env(t)
        assert numeric.uoc(_tri(k), sp.Rational(1, 4), arithmetic="exact") == pw.subs(beta, sp.Rational(1, 4))


def test_tridiagonal_uoc_50_digits(tri):
    mpmath.mp.dps = 50
    for k in (2, 3, 4, 7, 12):
        for t in (mpmath.mpf(1) / 4, mpmath.mpf(3) / 4, mpmath.mpf(3) * k / (5 * k - 1), mpmath.mpf(2)):
            got = _mp(tri.uoc, K=mpmath.mpf(k), beta=t)
            assert abs(got - numeric.uoc(_tri(k), t, arithmetic="mp")) < TOL


def test_tridiagonal_a_uoc(tri):
    mpmath.mp.dps = 50
    for k in range(2, 22):
        m = _tri(k)
        assert tri.a_uoc.subs(K, k) == numeric.a_uoc(m, arithmetic="exact")
        assert abs(_mp(tri.a_uoc, K=mpmath.mpf(k)) - numeric.a_uoc(m, arithmetic="mp")) < TOL


def test_tridiagonal_oc_scaled_beta(tri):
    # beta = b / (N (K-1)), N = 3K - 2 (cardoso2011 §4); both branches are reached
    mpmath.mp.dps = 50
    for k in range(2, 12):
        m = _tri(k)
        n = 3 * k - 2
        for bb in (sp.Rational(1, 4), sp.Rational(3, 4), sp.Integer(2), sp.Integer(40)):
            t = bb / (n * (k - 1))
            assert tri.oc.subs({K: k, b: bb}) == numeric.oc(m, t, arithmetic="exact")
            got = _mp(tri.oc, K=mpmath.mpf(k), b=mpmath.mpf(bb.p) / bb.q)
            assert abs(got - numeric.oc(m, mpmath.mpf(bb.p) / bb.q / (n * (k - 1)), arithmetic="mp")) < TOL


def test_tridiagonal_limits(tri):
    lim = tri.limits
    # cardoso2011 §4: "MER, MAE converge to 2/3 and OC converge to 0.6"; silva2018 §IV.A "MER of 2/3"
    assert lim["mer"] == sp.Rational(2, 3) and lim["mae"] == sp.Rational(2, 3)
    assert lim["oc"] == sp.Rational(3, 5)
    assert lim["a_uoc"] == sp.Rational(37, 50)
    # the limits agree with the exact values at large K (errors O(1/K))
    big = 10**6
    for key in ("mer", "mae", "a_uoc"):
        assert abs(getattr(tri, key).subs(K, big) - lim[key]) < sp.Rational(10, big)
    for bb in (sp.Rational(1, 4), sp.Rational(3, 4)):
        assert abs(tri.oc.subs({K: big, b: bb}) - lim["oc"]) < sp.Rational(10, big)
    for t in (0, sp.Rational(1, 5), sp.Rational(3, 5), sp.Rational(7, 10), 1, 3):
        assert abs(tri.uoc.subs({K: big, beta: t}) - lim["uoc"].subs(beta, t)) < sp.Rational(10, big)


@pytest.mark.parametrize("name", list(METRIC_FUNCTIONS))
def test_tridiagonal_metrics_exact_and_50_digits(tri, name):
    # expected: the numeric function of METRIC_FUNCTIONS, exact and mp (50 digits), K = 2..10
    mpmath.mp.dps = 50
    form = getattr(tri, name)
    assert form is not None and not tri.undefined
    for k in range(2, 11):
        m = _tri(k)
        assert same_value(form.subs(K, k), _numeric_metric(name, m, "exact")), (name, k)
        assert abs(_mp(form, K=mpmath.mpf(k)) - _numeric_metric(name, m, "mp")) < TOL, (name, k)
