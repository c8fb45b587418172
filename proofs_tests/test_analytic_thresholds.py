"""cardoso2011 Appendix A, the diagonal thresholds of OC and UOC, and OC_{0;0} (cardoso2011 §3.1).

Expected values: the printed statements of cardoso2011 (quoted), and
``numeric`` (DP of cardoso2011 §3.4) in exact arithmetic or at 50 digits.
"""

import mpmath
import numpy as np
import pytest
import sympy as sp

import numeric
from analytic import appendix_a_triangle, covering_path, diagonal_threshold, oc00_forms
from analytic.engines._pl import sign_for_all
from analytic.ledger.checks._search import compositions
from analytic.derivations.metric_thresholds import confusion_matrix_symbolic
from analytic.ledger.sources import cardoso2011 as C11
from analytic.symbols import N, beta
from numeric._common import prepare
from numeric.paths import oc_parts

TOL = mpmath.mpf(10) ** -45


@pytest.fixture(scope="module")
def tri1():
    return appendix_a_triangle(gamma=1)


def _matrices_with(n_samples, k):
    """Every k x k count matrix holding exactly n_samples samples."""
    for counts in compositions(n_samples, k * k):
        yield np.array(counts).reshape(k, k)


def test_appendix_a_matrices_from_vectors(tri1):
    # cardoso2011 Appendix A prints CM(a,b) = [[N-1, 0], [1, 0]], CM(b,c) = [[N-1, 1], [0, 0]],
    # CM(a,c) = [[N-2, 1], [1, 0]]
    # (analytic.ledger.sources.cardoso2011.triangle_matrices); compared for N = 2..9
    mats = tri1.matrices
    for n in range(2, 10):
        derived = tuple(tuple(tuple(int(sp.sympify(v).subs(N, n)) for v in row) for row in mats[key])
                        for key in ("ab", "bc", "ac"))
        assert derived == C11.triangle_matrices(n), n


def test_confusion_matrix_symbolic_refuses_vectors_of_different_lengths():
    # C[i][j] counts the positions t with true[t] = i+1 and pred[t] = j+1 (the
    # definition): vectors of different lengths have no such pairing.  zip used
    # to drop the extra label and return a matrix of the shorter pairing.
    rep = ("repeat", 1, N)
    assert confusion_matrix_symbolic([rep, 1, 2], [rep, 2, 2], 2) == [[N, 1], [0, 1]]
    with pytest.raises(ValueError, match="same length, got 3 and 2"):
        confusion_matrix_symbolic([rep, 1, 2], [rep, 2], 2)
    with pytest.raises(ValueError, match="same length, got 2 and 3"):
        confusion_matrix_symbolic([rep, 1], [rep, 2, 1], 2)


def test_appendix_a_bound_gamma1(tri1):
    # cardoso2011 Appendix A: "for beta < (N-1)/((N+1)(N+2)) we have OC(a,b) + OC(b,c) < OC(a,c)";
    # derived: the violation set is exactly [0, (N-1)/((N+1)(N+2)))
    assert len(tri1.violation) == 1 and tri1.violation[0][0] == 0
    assert sp.simplify(tri1.bound - C11.parse(C11.APPENDIX_A_BOUND)) == 0


def test_appendix_a_oc_forms_exact_and_50_digits(tri1):
    # expected: numeric.oc on the concrete matrices, exact; 50-digit mp
    mpmath.mp.dps = 50
    for n in range(2, 9):
        for t in (sp.Integer(0), sp.Rational(1, 60), sp.Rational(1, 2 * (n + 2)), sp.Rational(1, n + 2),
                  sp.Rational(1, n + 1), sp.Rational(1, 3)):
            for key, m in tri1.matrices.items():
                cm = [[int(sp.sympify(v).subs(N, n)) for v in row] for row in m]
                pw = tri1.oc[key].subs(N, n)
                assert pw.subs(beta, t) == numeric.oc(cm, t, arithmetic="exact")
                f = sp.lambdify(beta, pw, modules="mpmath")
                tm = mpmath.mpf(t.p) / t.q
                assert abs(f(tm) - numeric.oc(cm, tm, arithmetic="mp")) < TOL


def test_appendix_a_violation_set_exact_on_grid(tri1):
    # the derived set, checked with numeric at and around its end for N = 2..12
    for n in range(2, 13):
        bound = tri1.bound.subs(N, n)
        mats = {k: [[int(sp.sympify(v).subs(N, n)) for v in row] for row in m]
                for k, m in tri1.matrices.items()}
        for t, violated in ((bound / 2, True), (bound, False), (bound * sp.Rational(11, 10), False),
                            (sp.Rational(1, n + 1), False), (sp.Integer(0), True)):
            o = {k: numeric.oc(m, t, arithmetic="exact") for k, m in mats.items()}
            assert (o["ab"] + o["bc"] < o["ac"]) == violated, (n, t)


def test_appendix_a_bound_fails_for_gamma2():
    # the paper states the bound for OC^gamma; with gamma = 2, M(a,c) = 2^(1/2), not 2
    tri2 = appendix_a_triangle(gamma=2)
    expected = (sp.sqrt(2) - 1) * (N - 1) / ((N + 1) * (N + sp.sqrt(2)))
    assert sp.simplify(tri2.bound - expected) == 0
    assert sign_for_all(tri2.bound - C11.parse(C11.APPENDIX_A_BOUND), N, 2) == -1
    # counterexample to the printed statement: N = 2, beta = 1/16 < 1/12, no violation
    t = sp.Rational(1, 16)
    o = {k: numeric.oc(m, t, gamma=2, arithmetic="exact")
         for k, m in zip(("ab", "bc", "ac"), C11.triangle_matrices(2), strict=True)}
    assert t < C11.parse(C11.APPENDIX_A_BOUND, N=2) == sp.Rational(1, 12)
    assert sp.N(o["ab"] + o["bc"] - o["ac"], 30) > 0


def test_oc_diagonal_threshold_certificate_and_witness():
    out = diagonal_threshold("oc")
    assert out.bound == 1 / (N + 1)  # derived; cardoso2011 Appendix A prints 1/(N+1)
    assert out.certificate.is_nonnegative
    assert out.witness.attains  # CM(a,b) needs exactly beta >= 1/(N+1)


def test_oc_diagonal_threshold_exhaustive():
    # cardoso2011 Appendix A: "for beta >= 1/(N+1) the optimal path is always over the main
    # diagonal".  Exhaustive: every 2x2 matrix with N <= 8 (gamma 1), N <= 6 (gamma 2), every
    # 3x3 with N <= 3 (gamma 1);
    # the last breakpoint of the exact envelope never exceeds 1/(N+1) and reaches it.
    for k, nmax, gammas in ((2, 8, (1,)), (2, 6, (2,)), (3, 3, (1,))):
        for n in range(1, nmax + 1):
            worst = {g: sp.Integer(0) for g in gammas}
            for m in _matrices_with(n, k):
                for g in gammas:
                    env = numeric.path_envelope(m, metric="oc", gamma=g)
                    last = env.breakpoints[-2] if len(env.slopes) > 1 else sp.Integer(0)
                    assert sp.N(last - sp.Rational(1, n + 1), 40) <= 0, (m.tolist(), g)
                    worst[g] = max(worst[g], last, key=lambda v: sp.N(v, 40))
            for g in gammas:
                assert n == 1 or worst[g] == sp.Rational(1, n + 1), (k, n, g, worst[g])


def test_uoc_diagonal_threshold():
    # silva2018 §III.A: "for beta >= 1 ... the optimal path is always over the main diagonal"
    out = diagonal_threshold("uoc")
    assert out.bound == 1  # derived; silva2018 §III.A prints beta >= 1
    assert out.certificate.is_nonnegative
    n = sp.Symbol("n", integer=True, positive=True)
    assert out.witness.limit == 1  # the bound cannot be lowered
    for v in range(1, 12):  # witness breakpoints against the exact envelope
        env = numeric.path_envelope([[v, 1], [0, 1]], metric="uoc")
        assert env.breakpoints[-2] == out.witness.last_breakpoint.subs(n, v)


def test_covering_path_is_valid():
    for k in range(1, 31):
        p = covering_path(k)
        assert len(p) == k * k == len(set(p))
        assert p[0] == (0, 0) and p[-1] == (k - 1, k - 1)
        assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in zip(p, p[1:]))


def test_oc00_identity():
    # cardoso2011 §3.1: "OC^1_{0;0} = MAE/(1+MAE)"
    f = oc00_forms()
    M, mae = f.M, f.MAE
    assert sp.simplify(f.oc00 - M / (N + M)) == 0
    assert sp.simplify(f.oc00_in_mae - mae / (1 + mae)) == 0


def test_oc00_against_numeric_at_50_digits():
    # expected: 1 - N/(N+M) with N, M from numeric's eq. 7 weights (mp) equals
    # MAE/(1+MAE) with numeric.mae (mp), 25 random matrices
    mpmath.mp.dps = 50
    f = oc00_forms()
    g = sp.lambdify(f.MAE, f.oc00_in_mae, modules="mpmath")
    rng = np.random.default_rng(61)
    for _ in range(25):
        k = int(rng.integers(2, 8))
        m = rng.integers(0, 9, size=(k, k))
        m[0, 0] += 1
        p = prepare(m, "mp")
        numer, D, _ = oc_parts(p, 1)
        benefit = sum(numer[r, c] for r, c in covering_path(k))
        assert abs((1 - benefit / D[()]) - g(numeric.mae(m, arithmetic="mp"))) < TOL


def test_oc00_covering_path_is_optimal_by_brute_force():
    # every simple 8-adjacent path of a 3x3 matrix: none beats the covering path's benefit N
    k = 3
    nbrs = {(r, c): [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if (dr or dc) and 0 <= r + dr < k and 0 <= c + dc < k]
            for r in range(k) for c in range(k)}
    rng = np.random.default_rng(62)
    m = rng.integers(0, 9, size=(k, k))
    best, count = 0, 0

    def walk(path, seen):
        nonlocal best, count
        cell = path[-1]
        if cell == (k - 1, k - 1):
            count += 1
            best = max(best, sum(int(m[c]) for c in seen))
            return
        for nb in nbrs[cell]:
            if nb not in seen:
                seen.add(nb)
                path.append(nb)
                walk(path, seen)
                path.pop()
                seen.remove(nb)

    walk([(0, 0)], {(0, 0)})
    assert count == 235 and best == int(m.sum())  # 235 simple paths end at (K, K)
