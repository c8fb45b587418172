"""Tests written against surviving mutants of ``analytic/properties/engine.py``
(docs/mutation.md, "Mutation testing of the auditor and the prover").

Each test names the mutants it kills (mutmut's numbering, function by
function) and states why its expected values are right.
"""
from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from exactfloor.errors import MetricError, UndefinedMetric
from analytic.properties.catalog import CANDIDATE, CLEAR, TIE
from analytic.properties.engine import MetricSpec, _screen_random_triples, screen_triples

# A "distance" on label vectors of length n = 1 over K = 4 classes: d(x, y) is
# the weight of the single cell (x, y) of the confusion matrix of (x, y), so any
# value can be given to any ordered pair.  d(1, 1) is undefined (the metric
# raises ValueError there).  The values are chosen for these triples (a, b, c),
# lhs = d(a, c), rhs = d(a, b) + d(b, c), tol = 1e-9 max(1, |lhs|, |rhs|)
# (catalog.tolerance), status TIE when |lhs - rhs| <= tol, CANDIDATE when
# lhs - rhs > tol (engine's module docstring, the triangle's screen):
#   T1 = (0, 1, 2): lhs = 1e-9, rhs = 0 + 0: lhs - rhs = 1e-9 = tol exactly: TIE
#       (the boundary is a tie);
#   T2 = (2, 1, 0): lhs = 5, rhs = 1 + 1: CANDIDATE.  d is not symmetric: the
#       reversed pairs give lhs = d(0, 2) = 1e-9, rhs = d(1, 2) + d(0, 1) = 0, a TIE;
#   T3 = (3, 0, 1): lhs = 1.34375000134375, rhs = 1.34375 + 0: lhs - rhs =
#       1.343750000160071e-09 <= 1e-9 * lhs = 1.3437500013...e-09: TIE; it is above
#       1e-9 * rhs = 1.34375e-09, so a tolerance scaled by rhs alone would call it
#       a candidate (values found by a search over floats);
#   T4 = (3, 2, 3): lhs = 1.9489436729888217, rhs = 1.9489436749377653 + 0:
#       rhs - lhs <= 1e-9 * rhs but > 1e-9 * lhs: TIE, and not one with a
#       tolerance scaled by lhs alone;
#   T5 = (1, 0, 1): lhs = d(1, 1) undefined: not a defined base (CLEAR);
#   S  = (0, 0, 2), S2 = (1, 2, 2): b = a or b = c, not triples of the screen (they
#       reduce to d >= 0).
_W = np.zeros((4, 4))
_W[0, 2] = 1e-9
_W[2, 0], _W[2, 1], _W[1, 0] = 5.0, 1.0, 1.0
_W[3, 0], _W[3, 1] = 1.34375, 1.34375000134375
_W[3, 2], _W[3, 3] = 1.9489436749377653, 1.9489436729888217


def _d(S):
    S = np.asarray(S, dtype=float)
    if (S[:, 1, 1] > 0).any():
        raise UndefinedMetric("d(1, 1) is undefined")
    return (S * _W).sum(axis=(1, 2))


def _d_pair(x, y):
    return None if (x, y) == (1, 1) else float(_W[x, y])


T1, T2, T3, T4, T5, S, S2 = (0, 1, 2), (2, 1, 0), (3, 0, 1), (3, 2, 3), (1, 0, 1), (0, 0, 2), (1, 2, 2)


def _key(t):
    return tuple((v,) for v in t) + (4,)


def test_the_random_triples_screen_by_hand():
    """``_screen_random_triples`` 10 (the reversed pair's matrix), 41 (one
    undefined triple clears the whole group), 63, 70 (the tolerance scaled by
    one side only), 84, 86 (the tie's boundary), 111, 112 (the count of ties).

    Triples [T1, T2, S, T3, T4, T5, S2] (above): S and S2 are not counted (5
    checked), T5 is undefined (4 defined), T1, T3, T4 are ties (3 of the 7
    statuses; the other 4 are not) and T2 a candidate; the
    order index of a flagged triple counts the counted triples before it
    (S is skipped: T3 is the 3rd counted, index 2)."""
    spec = MetricSpec(vectorized=_d, better="lower", bounds=(0, None))
    trips = np.array([[[v] for v in t] for t in (T1, T2, S, T3, T4, T5, S2)])
    r = _screen_random_triples(spec, 4, 1, trips)
    checked, defined, ties, flagged = r.checked, r.defined, r.ties, r.flagged
    assert (checked, defined, ties) == (5, 4, 3)
    assert flagged == [(0, TIE, _key(T1)), (1, CANDIDATE, _key(T2)), (2, TIE, _key(T3)),
                       (3, TIE, _key(T4))]


def test_the_exhaustive_triples_screen_by_hand_and_by_brute_force():
    """``screen_triples`` on every triple of the four label vectors (0,) .. (3,)
    with the same d: T1 .. T5 have the statuses derived above, and every triple
    the status of the rule computed here in Python floats (the same IEEE
    operations), in lexicographic order of (a, b, c) among the triples with
    b != a and b != c: 4 * 3 * 3 = 36 (a; b != a; c != b), of which the 3 with
    a = c = 1 (b = 0, 2, 3) are undefined (d(1, 1) is their lhs; it is never
    d(a, b) or d(b, c), as b differs from a and c)."""
    spec = MetricSpec(vectorized=_d, better="lower", bounds=(0, None))
    ref, order, defined = [], 0, 0
    for a, b, c in product(range(4), repeat=3):
        if b == a or b == c:
            continue
        vals = [_d_pair(a, c), _d_pair(a, b), _d_pair(b, c)]
        if None not in vals:
            defined += 1
            lhs, rhs = vals[0], vals[1] + vals[2]
            tol = 1e-9 * max(1.0, abs(lhs), abs(rhs))
            if abs(lhs - rhs) <= tol:
                ref.append((order, TIE, _key((a, b, c))))
            elif lhs - rhs > tol:
                ref.append((order, CANDIDATE, _key((a, b, c))))
        order += 1
    r = screen_triples(spec, 4, 1)
    checked, got_defined, ties, flagged = r.checked, r.defined, r.ties, r.flagged
    assert (checked, got_defined) == (order, defined) == (4 * 3 * 3, 4 * 3 * 3 - 3)
    assert ties == sum(s == TIE for _, s, _ in ref)
    assert flagged == ref
    status = {t[:3]: s for _, s, t in flagged}
    assert [status.get(_key(t)[:3], CLEAR) for t in (T1, T2, T3, T4, T5)] == [
        TIE, CANDIDATE, TIE, TIE, CLEAR]


def test_a_search_of_random_triples_only():
    """``search_triples`` 15, 17 (``max`` over an empty ``space.triangle``
    without its default 0: a TypeError / ValueError instead of a search), 4, 8,
    9 (the result's name, ``Found.name``, is "triangle").

    No exhaustive triangle part, 200 random triples over K = 2 (the default
    classes when ``space.triangle`` names none) with n <= 4.  d(x, y) = h^2 / n
    with h the number of disagreements fails the triangle inequality: for
    a = (0, 0), b = (0, 1), c = (1, 1), d(a, c) = 4 / 2 > d(a, b) + d(b, c) =
    1 / 2 + 1 / 2; the search finds a violating random triple (checked here
    with exact fractions, by the definition of d), and a random one is never
    called minimal."""
    from fractions import Fraction

    from analytic.properties.engine import search_triples
    from analytic.properties.exact import ExactContext
    from analytic.properties.space import Space

    def d(S):
        S = np.asarray(S, dtype=float)
        N = S.sum(axis=(1, 2))
        return (N - np.trace(S, axis1=1, axis2=2)) ** 2 / N

    def d_exact(A):
        A = np.asarray(A)
        return Fraction(int(A.sum() - np.trace(A)) ** 2, int(A.sum()))

    def d_pair(x, y):
        return Fraction(sum(u != v for u, v in zip(x, y)) ** 2, len(x))

    sp = Space(exhaustive=(), random=0, triangle=(), triangle_random=200, triangle_n=4, diagonal=())
    found = search_triples(MetricSpec(vectorized=d, better="lower", bounds=(0, None)), sp,
                           ExactContext(d_exact, "lower", (0, None)))
    assert found.name == "triangle"
    a, b, c, K = found.counterexample
    assert K == 2 and d_pair(a, c) > d_pair(a, b) + d_pair(b, c)
    assert found.how == "random, then shrunk" and not found.minimal
    # the seeded stream (np.random.default_rng([seed, 3]), groups in (K, n) order),
    # pinned from this run: a change of the law or of the stream shows here
    assert (found.counterexample, found.checked) == (((1, 0), (0, 0), (0, 1), 2), 14)


def test_random_triples_have_every_length_up_to_triangle_n():
    """``search_triples`` 47 to 50 (the law of a random triple's length n:
    uniform on 1 .. triangle_n), 62 (its labels: uniform on 0 .. K - 1).

    With d = Hamming distance / n (a metric: the triangle holds, so every
    random triple is screened), 300 random triples with n <= 4 over K = 2:
    the pair matrices screened have every total N = n in 1 .. 4 (a length is
    missed with probability at most 4 (3/4)^300 < 10^-36) and no other, and
    some sample has true label 0 (each label is 0 with probability 1/2)."""
    from analytic.properties.engine import search_triples
    from analytic.properties.exact import ExactContext
    from analytic.properties.space import Space

    seen_n, seen_row0 = set(), []

    def hamming(S):
        S = np.asarray(S, dtype=float)
        N = S.sum(axis=(1, 2))
        seen_n.update(int(v) for v in N)
        seen_row0.append(S[:, 0, :].sum())
        return (N - np.trace(S, axis1=1, axis2=2)) / N

    sp = Space(exhaustive=(), random=0, triangle=(), triangle_random=300, triangle_n=4, diagonal=())
    found = search_triples(MetricSpec(vectorized=hamming, better="lower", bounds=(0, 1)), sp,
                           ExactContext(lambda A: 0, "lower", (0, 1)))
    assert not found.fails and found.checked > 0
    assert seen_n == {1, 2, 3, 4} and sum(seen_row0) > 0


def test_the_diagonal_part_s_counterexample_is_a_matrix_of_counts():
    """``diagonal_chunk_matrices`` 8, 10 (the diagonal matrices built as
    float64): the counterexample of the diagonal part is an ``int64`` matrix
    of counts like every chunk's matrices (``Chunk.matrices``; the search's
    counterexample is the flagged base itself).

    MER's imbalance (catalog's statement: an error of a larger class costs
    more than one of a smaller class) fails first, in the diagonal part with
    K = 3, N <= 3, at diag(1, 0, 2): MER ties there (one error costs 1/N in
    every class).  test_property_engine's
    test_the_exact_searches_count_and_stop_at_the_first_counterexample derives
    this matrix by hand; the witness is the exact check's text of it."""
    from fractions import Fraction

    from analytic.properties.catalog import PROPERTIES
    from analytic.properties.engine import search_matrices
    from analytic.properties.exact import ExactContext
    from analytic.properties.space import Space

    mer = _mer()

    def mer_exact(A):
        A = np.asarray(A)
        return Fraction(int(A.sum() - np.trace(A)), int(A.sum()))

    ctx = ExactContext(mer_exact, "lower", (0, 1))
    sp = Space(exhaustive=(), random=0, triangle=(), triangle_random=0, diagonal=((3, 3),))
    imb = search_matrices(MetricSpec(vectorized=mer, better="lower", bounds=(0, 1)), ["imbalance"],
                          sp, ctx)["imbalance"]
    m = imb.counterexample
    assert m.dtype == np.int64 and m.tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 2]]
    assert imb.witness == PROPERTIES["imbalance"].check(ctx, np.diag([1, 0, 2]))


def test_the_triangle_screen_of_given_vectors():
    """``screen_triples`` 4 (the vectors ``V`` given ignored: all vectors
    screened instead).

    With V = [(0,), (1,), (2,)] of K = 4 (the class 3 left out) and d as
    above, the screen covers 3 * 2 * 2 = 12 triples (a; b != a; c != b), all
    defined (d(1, 1) is only the lhs of (1, b, 1), b = 0, 2: 2 undefined, so
    10), and flags exactly T1 (TIE) and T2 (CANDIDATE) among them (T3, T4
    involve class 3)."""
    spec = MetricSpec(vectorized=_d, better="lower", bounds=(0, None))
    V = np.array([[0], [1], [2]])
    r = screen_triples(spec, 4, 1, V)
    checked, defined, ties, flagged = r.checked, r.defined, r.ties, r.flagged
    assert (checked, defined, ties) == (12, 10, 1)
    assert [(s, t) for _, s, t in flagged] == [(TIE, _key(T1)), (CANDIDATE, _key(T2))]


def test_the_triangle_search_adds_the_ties_of_every_size():
    """``search_triples`` 88 (the ties of the last task only, ``=`` for ``+=``),
    ``_Tracker.confirm`` 9 (the ties decided exactly counted as 1).

    d = MAE of cm(x, y) = sum |x_i - y_i| / n, a metric: the triangle holds,
    with equality exactly when b lies between a and c in every position.  On
    the triangle part K = 3, n <= 2 the float values are multiples of 1/2
    (exact), so the ties are the exact equalities, counted here by definition
    over the triples of both lengths (n = 1: (0, 1, 2) and (2, 1, 0))."""
    from fractions import Fraction

    from analytic.properties.engine import search_triples
    from analytic.properties.exact import ExactContext
    from analytic.properties.space import Space

    def mae(S):
        S = np.asarray(S, dtype=float)
        w = np.abs(np.arange(3)[:, None] - np.arange(3)[None, :])
        return (S * w).sum(axis=(1, 2)) / S.sum(axis=(1, 2))

    def mae_pair(x, y):
        return Fraction(sum(abs(u - v) for u, v in zip(x, y)), len(x))

    ties = {}
    for n in (1, 2):
        V = list(product(range(3), repeat=n))
        ties[n] = sum(1 for a, b, c in product(V, repeat=3)
                      if b != a and b != c and mae_pair(a, c) == mae_pair(a, b) + mae_pair(b, c))
    assert ties[1] == 2 and ties[2] > 0
    sp = Space(exhaustive=(), random=0, triangle=((3, 2),), triangle_random=0, diagonal=())
    ctx = ExactContext(lambda A: Fraction(int((np.abs(np.arange(3)[:, None] - np.arange(3)) * A).sum()),
                                          int(A.sum())), "lower", (0, None))
    found = search_triples(MetricSpec(vectorized=mae, better="lower", bounds=(0, None)), sp, ctx)
    assert not found.fails and found.ties == ties[1] + ties[2]
    # fewer than TIE_BUDGET = 1000 ties (at most 9 * 8 * 8 = 576 triples with n = 2):
    # every one is decided exactly
    assert found.ties_confirmed == found.ties


def test_a_derived_matrix_of_another_total_is_not_looked_up_in_the_chunk():
    """``_Lookup.split`` 20 (a matrix whose total is not the chunk's N marked
    rank +1 instead of -1: it would take the value of the chunk's matrix of
    rank 1).

    Scale invariance compares f(A) with f(2A); 2A has total 2N, so its value
    is computed, not looked up among the chunk's matrices of total N.  MER =
    errors / N is scale invariant: f(2A) = f(A) on every matrix, so no base
    of the chunk (every 2 x 2 matrix with N = 2, ranks 0 .. 9, one chunk) is a
    candidate (MER is defined on all of them and on their doubles)."""
    from analytic.properties.engine import screen_chunk

    mer = _mer()

    sp, chunk = _chunk_2x2()
    assert (chunk.kind, chunk.K, chunk.lo, chunk.hi) == ("exhaustive", 2, 0, 10)
    res = screen_chunk(MetricSpec(vectorized=mer, better="lower", bounds=(0, 1)), ("scale",), chunk, sp)
    assert (res["scale"].checked, res["scale"].candidates) == (10, 0)


def test_the_default_executor_of_no_jobs_asks_the_engine_s_default(monkeypatch):
    """``default_executor`` 2 (``jobs=None`` not replaced by the default number
    of jobs, ``analytic.properties.pool.default_jobs``, the engine's own: issue 37
    moved it from the ledger), 9, 10 (an unknown start method), 14, 16 (the
    pool's size not given: the machine's cores): one job is no pool, three a
    pool of three worker processes; the ledger's default is the engine's."""
    import analytic.ledger
    from analytic.properties import pool
    from analytic.properties.engine import default_executor

    monkeypatch.setattr(pool, "default_jobs", lambda: 1)
    assert default_executor(None) is None
    assert analytic.ledger.default_jobs() == 1
    monkeypatch.setattr(pool, "default_jobs", lambda: 3)
    ex = default_executor(None)
    try:
        assert ex._max_workers == 3
    finally:
        ex.shutdown()


def test_a_chunk_s_derived_matrices_are_looked_up_not_evaluated_again():
    """``screen_chunk`` 4, 8 (the chunk not passed on: no lookup, every
    derived matrix evaluated again), ``search_matrices`` 5 and
    ``_Tracker.__init__`` 2 (each result is named by its property).

    Symmetry compares f(A) with f(A^T).  The chunk of every 2 x 2 matrix with
    N = 2 (ranks 0 .. 9) is closed under transposition, so the float metric
    is called on its 10 matrices only: their transposes take their values from
    the chunk (``_Lookup``); without the lookup it would see 20."""
    from analytic.properties.engine import screen_chunk, search_matrices
    from analytic.properties.exact import ExactContext

    seen = []
    mer = _mer(seen)
    sp, chunk = _chunk_2x2()
    spec = MetricSpec(vectorized=mer, better="lower", bounds=(0, 1))
    res = screen_chunk(spec, ("symmetry",), chunk, sp)
    assert res["symmetry"].checked == 10 and sum(seen) == 10
    found = search_matrices(spec, ["symmetry"], sp, ExactContext(lambda A: 0, "lower", (0, 1)))
    assert found["symmetry"].name == "symmetry" and not found["symmetry"].fails


# ---------------------------------------------------------------------------
# _screen_all: how often the metric is evaluated (issue 27, branch `mute`)
# ---------------------------------------------------------------------------
def _mer(seen=None):
    """MER = (N - trace) / N in float64 over a stack (``numeric.mer``); with
    ``seen``, the sizes of the stacks it is called on are appended to it."""
    import numeric

    def mer(S):
        if seen is not None:
            seen.append(len(S))
        return numeric.mer(S)
    return mer


def _chunk_2x2():
    """The space of every 2 x 2 matrix with N <= 2, and its chunk of N = 2 (ranks 0 .. 9)."""
    from analytic.properties.space import Space

    sp = Space(exhaustive=((2, 2),), random=0, triangle=(), triangle_random=0, diagonal=())
    return sp, [c for c in sp.chunks() if c.N == 2][0]


def _counting(seen):
    """f(A) = A[0, 1] / N, counting the matrices it is called on in ``seen``.

    Moving a sample of row 1 toward the diagonal leaves f unchanged, so
    ordinal monotonicity (strict) has candidates and the statuses compared
    below are not all CLEAR."""
    def f(S):
        S = np.asarray(S, dtype=float)
        seen.append(len(S))
        return S[:, 0, 1] / S.sum(axis=(1, 2))
    return f


def _plain(res):
    """A ``ChunkScreen`` as plain values (its flagged matrices are arrays)."""
    return (res.checked, res.defined, res.candidates, res.ties,
            [(i, s, m.tolist()) for i, s, m in res.flagged])


def _all_2x2(N):
    """Every 2 x 2 matrix of counts with total N (C(N + 3, 3) of them)."""
    return np.array([[[a, b], [c, N - a - b - c]]
                     for a, b, c in product(range(N + 1), repeat=3) if a + b + c <= N],
                    dtype=np.int64)


def test_a_twin_s_sub_stack_is_evaluated_once():
    """``_screen_all`` 43 (every property screened with the whole stack's cache:
    a sub-stack's values recomputed on each call, and its memo of derived
    stacks shared), 46, 49 (the sub-stack's cache built without the
    sub-stack: no value cached).

    The stack: every 2 x 2 matrix with N = 3 (20); ``ordinal_monotonicity_populated``
    keeps the 12 with both rows non-empty (row sums (1, 2): 2 * 3 = 6, and (2, 1):
    6).  Without a chunk there is no lookup, so by ``_Cached``'s design (the
    base stack's values computed once, each derived stack once, memoised by
    key) the metric sees the 12 bases once and each one-step move's stack
    once: the bases with a sample at (0, 1) (row sums (1, 2): 1 * 3, (2, 1):
    2 * 2, 7 in all) and those with a sample at (1, 0) (2 * 2 + 3 * 1 = 7):
    12 + 7 + 7 = 26, counted here from the stack by the same definition."""
    from analytic.properties.engine import FloatEvaluator, _screen_all

    A = _all_2x2(3)
    assert len(A) == 20
    seen = []
    out = _screen_all(FloatEvaluator(_counting(seen), "lower", (0, 1)), A,
                      ("ordinal_monotonicity_populated",))
    sub = A[(A.sum(axis=-1) > 0).all(axis=-1)]
    expected = len(sub) + int((sub[:, 0, 1] > 0).sum()) + int((sub[:, 1, 0] > 0).sum())
    assert (len(sub), expected) == (12, 26)
    assert out["ordinal_monotonicity_populated"].checked == 12
    assert sum(seen) == expected
    # the statuses of a property do not depend on the other properties asked:
    # monotonicity memoises its moves of the whole stack under the same keys as
    # the twin's moves of its 12 bases (43 hands the twin those, of the 20)
    both = _screen_all(FloatEvaluator(_counting([]), "lower", (0, 1)), A,
                       ("monotonicity", "ordinal_monotonicity_populated"))
    assert _plain(both["ordinal_monotonicity_populated"]) == _plain(out["ordinal_monotonicity_populated"])
    assert out["ordinal_monotonicity_populated"].candidates > 0


def test_a_twin_asked_with_its_parent_takes_the_parent_s_statuses():
    """``_screen_all`` 51 (the twin screened on its own instead of taking its
    parent's statuses).

    ``_screen_all``'s docstring: a ``*_populated`` twin takes its parent's
    statuses on its own bases when both are asked.  So asking for the twin as
    well costs no evaluation at all: the metric sees as many matrices as for
    the parent alone (its 20 bases once and each move stack once, counted from
    the stack below), and the twin's result is the one it gets when screened
    alone."""
    from analytic.properties.engine import FloatEvaluator, _screen_all

    A = _all_2x2(3)
    alone_parent, both, alone_twin = [], [], []
    _screen_all(FloatEvaluator(_counting(alone_parent), "lower", (0, 1)), A,
                ("ordinal_monotonicity",))
    out = _screen_all(FloatEvaluator(_counting(both), "lower", (0, 1)), A,
                      ("ordinal_monotonicity", "ordinal_monotonicity_populated"))
    twin = _screen_all(FloatEvaluator(_counting(alone_twin), "lower", (0, 1)), A,
                       ("ordinal_monotonicity_populated",))
    # the parent alone: the 20 bases, then the move stacks of the bases with a
    # sample at (0, 1) and at (1, 0), each once
    assert sum(alone_parent) == len(A) + int((A[:, 0, 1] > 0).sum()) + int((A[:, 1, 0] > 0).sum())
    assert sum(both) == sum(alone_parent)
    assert _plain(out["ordinal_monotonicity_populated"]) == _plain(twin["ordinal_monotonicity_populated"])


def test_a_twin_s_derived_matrices_are_looked_up_in_the_chunk():
    """``_screen_all`` 47, 50 (the sub-stack's cache built without the chunk's
    lookup: its derived matrices evaluated instead of looked up).

    The chunk of every 2 x 2 matrix with N = 3 (ranks 0 .. 19, one chunk).
    ``ordinal_monotonicity_populated`` alone: its 12 bases are evaluated once
    (the sub-stack's own cache), and its one-step moves keep K and N, so by
    ``_Cached``'s design they take their values from the chunk's, which are
    computed once for the whole chunk: 12 + 20 = 32 matrices.  Evaluated
    instead, the 7 + 7 moved matrices would make 12 + 14 = 26 (counts as in
    the test above)."""
    from analytic.properties.engine import screen_chunk
    from analytic.properties.space import Space

    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), triangle_random=0, diagonal=())
    chunk = [c for c in sp.chunks() if c.N == 3][0]
    assert (chunk.kind, chunk.K, chunk.lo, chunk.hi) == ("exhaustive", 2, 0, 20)
    seen = []
    res = screen_chunk(MetricSpec(vectorized=_counting(seen), better="lower", bounds=(0, 1)),
                       ("ordinal_monotonicity_populated",), chunk, sp)
    assert res["ordinal_monotonicity_populated"].checked == 12
    assert sum(seen) == 12 + 20


def test_a_derived_matrix_of_another_size_is_evaluated_not_looked_up():
    """``_Cached._eval`` 2 (a derived stack of another K sent to the chunk's
    lookup: its matrices ranked as if they were K x K).

    Empty class inserts an empty class at position 0 and K: from the chunk
    of every 2 x 2 matrix with N = 2 (10 matrices) it derives 3 x 3 matrices
    of the same total, which are not in the chunk (``_Cached``: only derived
    matrices of the chunk's own size are looked up), so the metric sees the
    10 bases and their 2 * 10 derived matrices: 30.  MER = errors / N is
    unchanged by an empty class (no sample moves), so no base is a
    candidate: each is a tie (an equality whose float values agree within
    the tolerance is left to the exact check: ``catalog._eq_status``)."""
    from analytic.properties.engine import screen_chunk

    seen = []
    mer = _mer(seen)
    sp, chunk = _chunk_2x2()
    res = screen_chunk(MetricSpec(vectorized=mer, better="lower", bounds=(0, 1)), ("empty_class",),
                       chunk, sp)["empty_class"]
    assert (res.checked, res.defined, res.candidates, res.ties) == (10, 10, 0, 10)
    assert sum(seen) == 10 + 2 * 10


def test_the_float_bounds_of_an_unbounded_side_and_of_a_bound_beyond_float64():
    """``_float_bound`` 4 (a bound that ``exact.bound_value`` reads as
    unbounded, an infinite float, not mapped to None), 12 (the
    refusal's message).

    ``bound_value``'s docstring: None for an unbounded side; 10^400 is beyond
    float64's largest value, about 1.8 x 10^308 (``np.finfo(float).max``)."""
    from analytic.properties.engine import FloatEvaluator

    def f(S):
        return np.zeros(len(S))

    assert FloatEvaluator(f, "lower", (0, float("inf"))).bounds == (0.0, None)
    ev = FloatEvaluator(f, "higher", (float("-inf"), "1/4"))
    assert (ev.bounds, ev.best) == ((None, 0.25), 0.25)
    assert 10 ** 400 > int(np.finfo(float).max)
    with pytest.raises(ValueError) as exc:
        FloatEvaluator(f, "lower", (0, 10 ** 400))
    assert str(exc.value) == ("a bound must lie within float64's range (1.8e308), got "
                              + repr(10 ** 400)[:60])


def test_the_metric_gets_count_matrices_of_int64():
    """``FloatEvaluator.__call__`` 3, 5 (the stack passed on as given: a stack
    of counts given as floats reaches the metric as floats).

    ``FloatEvaluator`` evaluates count matrices: whatever array of counts it is
    given, the metric sees ``int64`` counts (the engine's own stacks already
    are; the equivalence of ``_pair_matrices`` 12, 14 in docs/mutation.md rests
    on this conversion), and a broken metric's message names the matrix of
    counts."""
    from analytic.properties.engine import FloatEvaluator

    dtypes = []

    def broken(S):
        dtypes.append(S.dtype)
        return np.full(len(S), np.inf)

    with pytest.raises(MetricError) as exc:
        FloatEvaluator(broken, "lower", (0, None))(np.array([[[1.0, 1.0], [0.0, 1.0]]]))
    assert dtypes == [np.dtype(np.int64)]
    assert str(exc.value) == ("the metric returned inf (not a finite real number; NaN, None or "
                              "UndefinedMetric where it is undefined) on the count matrix "
                              "[[1, 1], [0, 1]]")


def test_a_broken_value_is_named_with_its_own_matrix():
    """``FloatEvaluator.__call__`` 40, 42 (the first matrix of the stack, not
    the first broken one, named in the message), 43, 44 (the message's text:
    also asserted above).

    The metric returns 1/2 on the first matrix and infinity on the second,
    where it says it is defined: the message names the second matrix and its
    value (``FloatEvaluator``'s docstring: a non-finite value where the
    metric is defined is a broken metric)."""
    from analytic.properties.engine import FloatEvaluator

    def broken(S):
        return np.array([0.5, np.inf])

    with pytest.raises(MetricError) as exc:
        FloatEvaluator(broken, "lower", (0, None))(np.array([[[1, 1], [0, 0]], [[2, 0], [0, 0]]]))
    assert str(exc.value) == ("the metric returned inf (not a finite real number; NaN, None or "
                              "UndefinedMetric where it is undefined) on the count matrix "
                              "[[2, 0], [0, 0]]")


def test_every_mask_a_metric_records_marks_its_matrices_undefined():
    """``FloatEvaluator._run`` 12 (only the last mask recorded kept: the
    matrices of the earlier ones taken as defined).

    ``numeric._validation.undefined_if``'s docstring: inside
    ``collect_undefined`` a check records its mask (the matrices it leaves
    undefined) and the evaluation goes on.  A metric with two checks, one
    leaving the first matrix undefined and one the second, is defined on the
    third only."""
    from analytic.properties.engine import FloatEvaluator
    from numeric._validation import undefined_if

    def two_checks(S):
        undefined_if(np.array([True, False, False]), lambda: "first check")
        undefined_if(np.array([False, True, False]), lambda: "second check")
        return np.array([1.0, 2.0, 3.0])

    values, defined = FloatEvaluator(two_checks, "lower", (0, None))(np.ones((3, 2, 2), dtype=np.int64))
    assert defined.tolist() == [False, False, True]
    assert np.isnan(values[:2]).all() and values[2] == 3.0
