"""Issue 13: float stacks in blocks, the exact search on a certified float DP,
and the decisions the arithmetic contexts own.

- A stack evaluated in blocks of any size gives the values of one block (the
  per-matrix operations do not depend on the other matrices).
- ``numeric._dp.certified_lines`` follows the exact least path even where the
  float values order two paths the wrong way (the rounding slack sends the
  choice to integers); exact A_UOC of matrices whose paths differ below
  float resolution equals the independent Fraction search of
  ``benchmarks.baselines``.
- The context methods that replaced ``ctx.exact`` branches give the same
  numbers in the three arithmetics.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy

import numeric
import numeric._dp as dp
from exactfloor.arith import FloatArithmetic, get_arithmetic

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.baselines import a_uoc_exact_fractions  # noqa: E402

RNG = np.random.default_rng(13)
STACK = RNG.integers(0, 6, (23, 4, 4))
STACK[:, 0, 0] += 1
STACK[:, 3, 3] += 1

STACK_METRICS = {
    "a_uoc": lambda s: numeric.a_uoc(s),
    "oc": lambda s: numeric.oc(s, 0.01),
    "uoc": lambda s: numeric.uoc(s, 0.25),
    "kendall_tau_b": numeric.kendall_tau_b,
    "spearman_rs": numeric.spearman_rs,
    "r_int": numeric.r_int,
}


@pytest.mark.parametrize("name", STACK_METRICS)
def test_blocks_of_two_matrices_give_the_values_of_one_block(name, monkeypatch):
    # expected: the same stack in one block (the default for 23 small matrices,
    # checked: the default blocks are recorded)
    f = STACK_METRICS[name]
    default_blocks = FloatArithmetic.blocks
    calls = []

    def one(self, n, cells, **kw):
        calls.append(default_blocks(self, n, cells, **kw))
        return calls[-1]

    monkeypatch.setattr(FloatArithmetic, "blocks", one)
    whole = f(STACK)
    assert calls and all(len(b) == 1 for b in calls)

    def two(self, n, cells, *, size=None, least=1):
        calls.append([slice(s, s + 2) for s in range(0, n, 2)])
        return calls[-1]

    calls.clear()
    monkeypatch.setattr(FloatArithmetic, "blocks", two)
    assert np.array_equal(f(STACK), whole)
    assert calls  # the stack was evaluated in blocks of two


@pytest.mark.parametrize("int64", [True, False])
def test_certified_lines_overrule_float_rounding(int64, monkeypatch):
    # a 2x2 grid: the two paths through (0, 1) and (1, 0) cost -(10**16 + 2) and
    # -(10**16 + 3) (L = 1, t = 0); the float weights passed are within the 4u
    # the function allows but order the two the wrong way.  expected: the exact
    # least cost, through (1, 0), by hand; by the exact int64 recurrence, and by
    # the float one (int64 switched off) whose rounding slack sends the choice to
    # integers, alone and in a batch after a matrix of small weights (each
    # column's slack is its own: the first column's would be too small)
    if not int64:
        monkeypatch.setattr(dp, "_int64_lines", lambda *a: None)
    nI = [0, 10**16 + 2, 10**16 + 3, 0]
    nf = np.array([0.0, 1e16 + 4, 1e16 + 2, 0.0])
    a, s = dp.certified_lines([nI], [[0] * 4], nf[:, None], np.zeros((4, 1)), [0])
    assert a == [-(10**16 + 3)] and s == [0]
    small = [0, 1, 2, 0]
    a, s = dp.certified_lines([small, nI], [[0] * 4] * 2, np.array([small, nf]).T,
                              np.zeros((4, 2)), [0, 0])
    assert a == [-2, -(10**16 + 3)] and s == [0, 0]


def test_exact_a_uoc_with_paths_closer_than_float_resolution(monkeypatch):
    # counts of 10**17 plus 0..2: two paths differ by a few counts in 10**17,
    # below float64 resolution.  expected: the independent Fraction search of
    # benchmarks.baselines (one DP per beta, no floats)
    resolved = []
    # the module the search calls (a doctest run may import numeric._dp twice)
    where = numeric.paths.certified_lines.__globals__
    original = where["_certified_path"]
    monkeypatch.setitem(where, "_certified_path", lambda *a: resolved.append(1) or original(*a))
    rng = np.random.default_rng(5)
    for _ in range(8):
        cm = rng.integers(0, 3, (4, 4)) * 10**17 + rng.integers(0, 3, (4, 4))
        cm[cm.sum(axis=1) == 0, 0] = 1
        ref = a_uoc_exact_fractions(cm)
        assert numeric.a_uoc(cm, arithmetic="exact") == sympy.Rational(ref.numerator, ref.denominator)
    assert resolved  # some choice was decided in integers


def test_exact_a_uoc_of_random_matrices_agrees_with_fractions():
    # expected: benchmarks.baselines.a_uoc_exact_fractions (identical rationals)
    rng = np.random.default_rng(11)
    for K in (2, 3, 6, 9):
        cm = rng.integers(0, 30, (K, K))
        cm[rng.random((K, K)) < 0.3] = 0  # zero cells: exact ties between paths
        cm[cm.sum(axis=1) == 0, 0] = 1
        ref = a_uoc_exact_fractions(cm)
        assert numeric.a_uoc(cm, arithmetic="exact") == sympy.Rational(ref.numerator, ref.denominator)


@pytest.mark.parametrize("beta_max", [sympy.Rational(1, 2), sympy.Rational(3, 4), 2])
def test_float_envelope_below_and_beyond_the_diagonal_threshold(beta_max):
    # silva2018's CM_B: the diagonal path is optimal from beta* = 2/3 on; at
    # beta_max = 1/2 the line at the right end needs a DP, beyond it not.
    # expected: the exact envelope (breakpoints, intercepts, slopes)
    cm = [[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]]
    exact = numeric.path_envelope(cm, beta_max=beta_max)
    fl = numeric.path_envelope(cm, beta_max=float(beta_max), arithmetic="float")
    for part in ("breakpoints", "intercepts", "slopes"):
        assert len(getattr(fl, part)) == len(getattr(exact, part)), part
    for e, f in zip(exact.breakpoints + exact.intercepts + exact.slopes,
                    fl.breakpoints + fl.intercepts + fl.slopes):
        assert abs(float(e) - f) <= 1e-15
    assert len(fl.slopes) == len(exact.slopes)


@pytest.mark.parametrize("arithmetic", ["float", "exact", "mp"])
def test_positive_root_and_quadratic_roots(arithmetic):
    # expected, by hand: 2 x^3 + x^2 - 3 = (x - 1)(2 x^2 + 3 x + 3), root 1;
    # x^2 - 3 x + 2 = (x - 1)(x - 2)
    ctx = get_arithmetic(arithmetic)
    c = [ctx.number(v) for v in (2, 1, 0, -3)]
    assert abs(float(ctx.positive_root(c)) - 1) <= 1e-15
    roots = sorted(float(r) for r in ctx.quadratic_roots(*(ctx.number(v) for v in (2, -3, 1))))
    assert roots == [1.0, 2.0]


def test_exact_context_decides_ties_of_algebraic_numbers():
    # expected: sqrt(8) = 2 sqrt(2) exactly; (1 + sqrt(2))^2 = 3 + 2 sqrt(2)
    ctx = get_arithmetic("exact")
    assert ctx.same(sympy.sqrt(8), 2 * sympy.sqrt(2))
    assert ctx.same(sympy.expand((1 + sympy.sqrt(2)) ** 2), 3 + 2 * sympy.sqrt(2))
    assert not ctx.same(sympy.sqrt(2), sympy.Rational(14142135623730951, 10**16))
    m = ctx.point_between(sympy.sqrt(2), sympy.sqrt(3))
    assert m.is_Rational and sympy.sqrt(2) < m < sympy.sqrt(3)


def test_mp_guard_digits_and_rounding():
    # expected: mpmath's own sqrt(2) at the caller's precision
    ctx = get_arithmetic("mp")
    with mpmath.workdps(30):
        inner = ctx.guarded(lambda: mpmath.mp.prec)
        assert inner == mpmath.mp.prec + 40  # the 40 guard bits of MpArithmetic.guarded
        v = ctx.rounded(ctx.guarded(lambda: mpmath.sqrt(2)))
        assert v == mpmath.sqrt(2)


@pytest.mark.parametrize("arithmetic", ["float", "mp"])
def test_slopes_of_few_paths_equal_the_vectorised_ones(arithmetic):
    """``cells_dp`` sums the slope along the recorded choices vectorised over many
    columns, and path by path in Python for a few: the same additions in the same
    order, so the same numbers (checked bit for bit; the expected values are the
    vectorised ones, with 40 columns, against each column alone), and the value and
    slope equal the cost and the penalty summed over the cells of the recorded path
    (independent of the DP's sums).  Lanes that gather their columns (an index
    array) or read a range of them (a slice) give the numbers of the columns
    themselves; a slice with a step is refused."""
    ctx = get_arithmetic(arithmetic)
    rng = np.random.default_rng(13)
    for K in (1, 2, 3, 5, 8):
        q = np.abs(np.subtract.outer(np.arange(K), np.arange(K))).reshape(K * K, 1) \
            * rng.random((K * K, 40))
        b, x = rng.random((K * K, 40)), rng.random(40)
        if arithmetic == "mp":
            q, b, x = (np.vectorize(mpmath.mpf, otypes=[object])(a) for a in (q, b, x))
        order = dp.diagonal_order(K)[0]
        choices = dp.choice_buffers(K, 40)
        v_all, s_all = dp.cells_dp(q[order], b[order], x, ctx, choices=choices)
        for j in range(40):
            one = [np.ascontiguousarray(a[:, j:j + 1]) for a in (q[order], b[order])]
            v, s = dp.cells_dp(*one, x[j:j + 1], ctx)
            assert v[0] == v_all[j] and s[0] == s_all[j], (K, j)
            # independently: the path's penalty summed over its cells from (0, 0) on (the
            # same additions: the same number) and its cost (other additions: to 1e-12)
            cells = dp.path_cells(*choices, j)[::-1]
            assert s_all[j] == sum(q[c, j] for c in cells), (K, j)
            cost = 1 + sum(x[j] * q[c, j] - b[c, j] for c in cells)
            assert abs(v_all[j] - cost) <= 1e-12 * (1 + abs(cost)), (K, j)
        lanes = rng.integers(0, 40, 60)
        v, s = dp.cells_dp(q[order], b[order], x[lanes], ctx, columns=lanes, qT=q)
        assert list(v) == list(v_all[lanes]) and list(s) == list(s_all[lanes]), K
        v, s = dp.cells_dp(q[order], b[order], x[7:30], ctx, columns=slice(7, 30))
        assert list(v) == list(v_all[7:30]) and list(s) == list(s_all[7:30]), K
    with pytest.raises(ValueError, match="step 1"):
        dp.cells_dp(q[order], b[order], x[:20], ctx, columns=slice(0, 40, 2))


# ---------------------------------------------------------------------------
# the exact int64 recurrence and the batched search (A_UOC of a stack)
# ---------------------------------------------------------------------------
def _every_path(K):
    """Every monotone path from cell 0 to cell K*K - 1 (steps right, down, diagonal)."""
    out = []

    def walk(r, c, cells):
        if (r, c) == (K - 1, K - 1):
            out.append(cells)
            return
        for dr, dc in ((1, 1), (1, 0), (0, 1)):
            if r + dr < K and c + dc < K:
                walk(r + dr, c + dc, cells + [(r + dr) * K + c + dc])

    walk(0, 0, [0])
    return out


def _tied_weights(rng, K, B):
    """Small integer weights with many exact ties (zeros and repeated values), one
    matrix per point, and rational points."""
    from fractions import Fraction

    nI = [list(rng.integers(0, 3, K * K) * rng.integers(1, 4)) for _ in range(B)]
    qI = [list(rng.integers(0, 3, K * K)) for _ in range(B)]
    ts = [Fraction(int(rng.integers(0, 7)), int(rng.integers(1, 4))) for _ in range(B)]
    return [[int(v) for v in n] for n in nI], [[int(v) for v in q] for q in qI], ts


@pytest.mark.parametrize("K", [2, 3, 4])
def test_int64_lines_are_least_paths_and_agree_with_the_certified_float_path(K, monkeypatch):
    # expected: (1) the least exact cost over every path, enumerated (brute force);
    # (2) the same lines as the float recurrence with its certified / integer
    # choices (the int64 path switched off), ties included: the same tie order
    rng = np.random.default_rng(K)
    nI, qI, ts = _tied_weights(rng, K, 60)
    nf = np.array(nI, dtype=float).T
    qf = np.array(qI, dtype=float).T
    taken = []
    original = dp._int64_lines
    monkeypatch.setattr(dp, "_int64_lines", lambda *a: taken.append(1) or original(*a))
    a, s = dp.certified_lines(nI, qI, nf, qf, ts)
    assert taken and original(nI, qI, ts, K) is not None  # the int64 recurrence ran
    paths = _every_path(K)
    for j, t in enumerate(ts):
        least = min(sum(t * qI[j][c] - nI[j][c] for c in p) for p in paths)
        assert a[j] + s[j] * t == least
    monkeypatch.setattr(dp, "_int64_lines", lambda *a: None)
    assert dp.certified_lines(nI, qI, nf, qf, ts) == (a, s)


def test_every_path_lists_every_path():
    # the central Delannoy numbers 1, 3, 13, 63 count the monotone paths with
    # diagonal steps (OEIS A001850)
    assert [len(_every_path(K)) for K in (1, 2, 3, 4)] == [1, 3, 13, 63]


@pytest.mark.parametrize("columns", [None, 3])
def test_least_lines_int64_are_least_paths(columns, monkeypatch):
    # expected: the least cost over every path, enumerated (brute force), at points
    # p / r with p < 0 too; in slices of 3 columns (a table of 16 cells per 3 x 3
    # matrix) the same lines as in one slice
    if columns:
        monkeypatch.setattr(dp, "_INT64_CELLS", 16 * columns)
    rng = np.random.default_rng(7)
    K, B = 3, 40
    N, Q = rng.integers(0, 9, (K * K, B)), rng.integers(0, 9, (K * K, B))
    P, R = rng.integers(-5, 20, B), rng.integers(1, 6, B)
    A, S = dp.least_lines_int64(N, Q, P, R)
    for j in range(B):
        least = min(sum(P[j] * Q[c, j] - R[j] * N[c, j] for c in cells) for cells in _every_path(K))
        assert P[j] * S[j] - R[j] * A[j] == least


def test_int64_lines_refuse_what_int64_cannot_hold():
    # expected: None (the float recurrence then certifies): a weight beyond int64,
    # a point beyond int64, a cost that might reach 2**60, and a float point
    from fractions import Fraction

    small = [[0, 1, 1, 0]]
    assert dp._int64_lines(small, small, [Fraction(1, 2)], 2) is not None
    assert dp._int64_lines([[0, 2**63, 1, 0]], small, [0], 2) is None
    assert dp._int64_lines(small, small, [Fraction(2**64, 3)], 2) is None
    assert dp._int64_lines([[0, 2**59, 1, 0]], small, [1], 2) is None  # 3 cells: 1.5 * 2**60
    assert dp._int64_lines(small, small, [0.5], 2) is None


def test_certified_lines_of_a_batch_are_those_of_each_matrix_alone():
    # expected: the same function called once per matrix (its own weights at every point)
    rng = np.random.default_rng(4)
    nI, qI, ts = _tied_weights(rng, 4, 30)
    nf, qf = np.array(nI, dtype=float).T, np.array(qI, dtype=float).T
    batch = dp.certified_lines(nI, qI, nf, qf, ts)
    alone = [dp.certified_lines([nI[j]], [qI[j]], nf[:, j:j + 1], qf[:, j:j + 1], [ts[j]])
             for j in range(30)]
    assert batch == ([a[0] for a, _ in alone], [s[0] for _, s in alone])


@pytest.mark.parametrize("way", ["int64", "general"])
@pytest.mark.parametrize("number", ["exact", "rational", "mpq"])
def test_exact_a_uoc_of_a_stack_is_the_independent_fraction_search(number, way, monkeypatch):
    # expected: benchmarks.baselines.a_uoc_exact_fractions, matrix by matrix (one
    # DP per beta in Fractions, no floats); the stack is searched together in
    # numeric (one batched DP a round, never the one-matrix search), in SymPy's
    # exact context and in the property engine's rational contexts (Fraction,
    # and gmpy2's mpq: in the test extra); in int64 (these counts fit), and the
    # general way (weights in rationals, _exact_areas) as if none fitted
    from fractions import Fraction

    import numeric.paths
    from exactfloor.rational import rationals
    from numeric.paths import a_uoc

    def one_at_a_time(*a):
        raise AssertionError("the stack was searched one matrix at a time")

    monkeypatch.setattr(numeric.paths, "_exact_pieces", one_at_a_time)
    general = []
    if way == "general":
        parts = numeric.paths.uoc_integer_parts
        monkeypatch.setattr(numeric.paths, "uoc_integer_parts",
                            lambda c: (*parts(c)[:-1], np.zeros(len(c), dtype=bool)))
        areas = numeric.paths._exact_areas
        monkeypatch.setattr(numeric.paths, "_exact_areas",
                            lambda *a: general.append(len(a[1])) or areas(*a))

    ctx = {"exact": "exact", "rational": rationals(False), "mpq": rationals(True)}[number]
    if number == "mpq":  # gmpy2 is in the test extra: the mpq context is the one tested
        assert ctx.name == "rational (gmpy2)"
    rng = np.random.default_rng(22)
    cms = rng.integers(0, 4, (40, 4, 4)) * (rng.random((40, 4, 4)) < 0.6)
    cms[cms.sum(axis=(1, 2)) == 0, 0, 0] = 1
    values = a_uoc(cms, arithmetic=ctx)
    for cm, v in zip(cms, values, strict=True):
        ref = a_uoc_exact_fractions(cm)
        got = Fraction(int(v.numerator), int(v.denominator)) if number != "exact" else Fraction(
            int(v.p), int(v.q))
        assert got == ref, cm
    assert general == ([40] if way == "general" else [])
