"""uoc_piecewise, oc_piecewise and a_uoc_symbolic against the numeric DP.

Expected values are computed by ``numeric`` (the DP of cardoso2011 §3.4 on
the weights of silva2018 eq. 28 / cardoso2011 eq. 7) in exact arithmetic
(SymPy Rationals) or with mpmath at 50 digits, and, for small K, by brute
force over every monotone path.
"""


import mpmath
import numpy as np
import pytest
import sympy as sp

import numeric
from analytic import a_uoc_symbolic, oc_piecewise, uoc_piecewise
from analytic.derivations.metric_thresholds import path_lines
from analytic.symbols import beta


def _random(count, kmax, seed, kmin=2, max_count=9):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        k = int(rng.integers(kmin, kmax + 1))
        m = rng.integers(0, max_count + 1, size=(k, k))
        m[rng.random((k, k)) < 0.4] = 0
        if m.sum():
            out.append(m)
    return out


def _breakpoints(pw):
    """Breakpoints of an ordered Piecewise built by envelope_piecewise."""
    if not isinstance(pw, sp.Piecewise):
        return []
    return [cond.rhs for _, cond in pw.args[:-1]]


def _probe_points(pw):
    """0, every breakpoint, every midpoint, and points beyond the last one."""
    bps = [sp.Integer(0)] + _breakpoints(pw)
    pts = list(bps)
    pts += [(u + v) / 2 for u, v in zip(bps, bps[1:])]
    pts += [bps[-1] + sp.Rational(1, 3), bps[-1] + 2, sp.Integer(5)]
    return pts


def _numeric_at(metric, cm, points, arithmetic="exact", gamma=1):
    stack = np.broadcast_to(np.asarray(cm), (len(points),) + np.shape(cm))
    fn = numeric.uoc if metric == "uoc" else numeric.oc
    return list(fn(stack, np.array(points, dtype=object), gamma=gamma, arithmetic=arithmetic))


@pytest.mark.parametrize("metric, build", [("uoc", uoc_piecewise), ("oc", oc_piecewise)])
def test_piecewise_exact_at_breakpoints_and_between(metric, build):
    # expected: numeric.uoc / numeric.oc, exact arithmetic, K = 2..12
    seed = 11 if metric == "uoc" else 12
    mats = _random(15, 12, seed=seed) + _random(1, 12, seed=seed, kmin=12)
    assert max(m.shape[0] for m in mats) == 12
    for m in mats:
        pw = build(m)
        pts = _probe_points(pw)
        for t, want in zip(pts, _numeric_at(metric, m, pts)):
            assert pw.subs(beta, t) == want, (m.tolist(), t)


def test_piecewise_structure():
    # ordered branches, last (..., True), strictly increasing rational breakpoints
    for m in _random(10, 8, seed=13):
        pw = uoc_piecewise(m)
        if isinstance(pw, sp.Piecewise):
            assert pw.args[-1][1] is sp.true
            bps = _breakpoints(pw)
            assert all(isinstance(x, sp.Rational) for x in bps)
            assert all(u < v for u, v in zip(bps, bps[1:]))
            assert bps[0] > 0
        else:  # a single line: only matrices whose optimal path never changes
            assert pw.free_symbols <= {beta}


def _brute_envelope(lines, at):
    return min(a + s * at for a, s in lines)


@pytest.mark.parametrize("metric", ["uoc", "oc"])
def test_piecewise_equals_brute_force_over_all_paths(metric):
    # expected: minimum over every monotone path (Delannoy many), exact
    for m in _random(25, 4, seed=21 if metric == "uoc" else 22):
        lines = path_lines(m.tolist(), metric)
        pw = (uoc_piecewise if metric == "uoc" else oc_piecewise)(m)
        for t in _probe_points(pw):
            assert pw.subs(beta, t) == _brute_envelope(lines, t), (m.tolist(), t)


def test_piecewise_gamma2_at_50_digits():
    # expected: numeric with arithmetic="mp" at mp.dps = 50; algebraic breakpoints
    mpmath.mp.dps = 50
    mats = _random(4, 5, seed=31)
    for metric, build in (("uoc", uoc_piecewise), ("oc", oc_piecewise)):
        for m in mats:
            pw = build(m, gamma=2)
            f = sp.lambdify(beta, pw, modules="mpmath")
            pts = [mpmath.mpf(k) / 37 for k in range(0, 60, 3)]  # 20 points in [0, 1.6]
            pts += [mpmath.mpf(sp.N(t, 60)) for t in _breakpoints(pw)]
            want = _numeric_at(metric, m, pts, arithmetic="mp", gamma=2)
            for t, w in zip(pts, want):
                assert abs(f(t) - w) < mpmath.mpf(10) ** -45, (metric, m.tolist(), t)


def test_piecewise_at_50_digits_gamma1():
    # expected: numeric with arithmetic="mp" at mp.dps = 50, 24 points per matrix
    mpmath.mp.dps = 50
    for m in _random(6, 9, seed=32):
        for metric, build in (("uoc", uoc_piecewise), ("oc", oc_piecewise)):
            f = sp.lambdify(beta, build(m), modules="mpmath")
            pts = [mpmath.mpf(k) / 23 for k in range(24)]
            for t, w in zip(pts, _numeric_at(metric, m, pts, arithmetic="mp")):
                assert abs(f(t) - w) < mpmath.mpf(10) ** -45


def test_a_uoc_exact_equals_numeric_and_symbolic_integral():
    # expected: numeric.a_uoc(arithmetic="exact") and SymPy's integrate of the Piecewise
    for i, m in enumerate(_random(20, 10, seed=41)):
        got = a_uoc_symbolic(m)
        assert got == numeric.a_uoc(m, arithmetic="exact")
        if i < 4:  # SymPy's own integration of the Piecewise is slow: four matrices
            assert sp.integrate(uoc_piecewise(m), (beta, 0, 1)) == got


def test_a_uoc_at_50_digits():
    # expected: numeric.a_uoc(arithmetic="mp") at 50 digits, 20 matrices
    mpmath.mp.dps = 50
    for m in _random(20, 8, seed=42):
        exact = a_uoc_symbolic(m)
        assert abs(mpmath.mpf(exact.p) / exact.q - numeric.a_uoc(m, arithmetic="mp")) < mpmath.mpf(10) ** -45


def test_a_uoc_old_name_is_a_deprecated_alias():
    # issue 13: analytic.a_uoc read as a second numeric.a_uoc; the old names still work, and warn
    import analytic
    import analytic.derivations.uoc

    with pytest.warns(DeprecationWarning, match="a_uoc_symbolic"):
        assert analytic.a_uoc is a_uoc_symbolic
    with pytest.warns(DeprecationWarning, match="numeric.a_uoc"):
        assert analytic.derivations.uoc.a_uoc is a_uoc_symbolic
    with pytest.raises(AttributeError, match="no attribute 'a_uoc_exact'"):
        analytic.derivations.uoc.a_uoc_exact  # noqa: B018


def test_symbols_are_not_exported_at_top_level():
    # issue 13: one-letter symbols live in analytic.symbols only
    import analytic
    import analytic.symbols

    for name in analytic.symbols.__all__:
        assert name not in analytic.__all__
        with pytest.raises(AttributeError, match=f"from analytic.symbols import {name}"):
            getattr(analytic, name)
    with pytest.raises(ImportError):
        from analytic import K  # noqa: F401


def test_silva2018_table1_matrix_B_envelope():
    # expected: silva2018 Table I, row B, columns UOC_beta1, UOC_beta2 and A_UOC as printed
    # (two decimals, compared half-up), and the exact integral of the Piecewise itself
    from analytic.ledger.sources.silva2018 import MATRICES, TABLE_I, TABLE_I_COLUMNS
    from numeric.rounding import matches_printed

    B = MATRICES["B"]
    row = dict(zip(TABLE_I_COLUMNS, TABLE_I["B"], strict=True))
    pw = uoc_piecewise(B)
    assert matches_printed(pw.subs(beta, sp.Rational(1, 4)), row["UOC_beta1"])
    assert matches_printed(pw.subs(beta, sp.Rational(3, 4)), row["UOC_beta2"])
    area = sp.integrate(pw, (beta, 0, 1))
    assert matches_printed(area, row["A_UOC"]) and a_uoc_symbolic(B) == area


def test_random_30x30():
    # issue 4: a random 30 x 30 matrix (its time is measured by `python -m benchmarks --only 5`,
    # not by a timed unit test)
    m = np.random.default_rng(7).integers(0, 20, size=(30, 30))
    pw = uoc_piecewise(m)
    area = a_uoc_symbolic(m)
    # spot check against the DP at the first breakpoint and at beta = 1/2
    t = _breakpoints(pw)[0]
    assert pw.subs(beta, t) == numeric.uoc(m, t, arithmetic="exact")
    assert pw.subs(beta, sp.Rational(1, 2)) == numeric.uoc(m, sp.Rational(1, 2), arithmetic="exact")
    assert 0 < area < 1


def test_envelope_beyond_one_is_diagonal_for_uoc():
    # silva2018 §III.A: for beta >= 1 the optimal path is the diagonal (slope 0)
    for m in _random(30, 7, seed=51):
        env = numeric.path_envelope(m, metric="uoc")
        assert env.slopes[-1] == 0
        assert len(env.slopes) == 1 or env.breakpoints[-2] < 1
