"""The property engine (analytic.properties): its space, its float screen and its verdicts.

The reference everywhere is the exact search (``audit(..., exact=True)``:
every base matrix checked in exact arithmetic, no float screen) and the
definitions of the properties (analytic/properties/catalog.py).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from exactfloor.errors import MetricError, UndefinedMetric
import numeric  # noqa: F401  (registers every metric)
from analytic.properties.audit import PROPERTIES, audit, check_size, space_of
from analytic.properties.generators import exhaustive, order_key
from analytic.properties.space import SMALL_SPACE, Space, block, count, rank

# ---------------------------------------------------------------------------
# the space
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("K, N", [(1, 0), (1, 4), (2, 0), (2, 3), (3, 2), (3, 4), (4, 2)])
def test_blocks_are_the_exhaustive_walk_and_ranks_invert_them(K, N):
    """Reference: analytic.properties.generators.exhaustive (itertools.combinations of bars)."""
    ref = np.array([m.ravel() for m in exhaustive(K, N)])
    assert count(K, N) == len(ref) == math.comb(N + K * K - 1, K * K - 1)
    assert (block(K, N, 0, len(ref)) == ref).all()
    for lo, hi in [(0, 1), (1, min(4, len(ref))), (len(ref) // 2, len(ref))]:
        assert (block(K, N, lo, hi) == ref[lo:hi]).all()
    assert rank(ref, N).tolist() == list(range(len(ref)))


def test_chunks_walk_the_space_once_in_the_shrinking_order():
    """Small chunks: the exhaustive part is every matrix once, in order_key order."""
    sp = Space(exhaustive=((1, 3), (2, 3), (3, 2)), random=10, random_k=3, random_n=5, chunk=7)
    seen = [m for c in sp.chunks() if c.kind == "exhaustive" for m in c.matrices(sp)]
    keys = [order_key(m) for m in seen]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert len(seen) == sum(count(K, N) for K, n in sp.exhaustive for N in range(1, n + 1))
    rnd = [m for c in sp.chunks() if c.kind == "random" for m in c.matrices(sp)]
    assert len(rnd) == 10 and all(m.sum() >= 1 for m in rnd)


def test_default_space_is_the_issue_s():
    """K <= 4 with N <= 8, K = 5 with N <= 5, 20,000 random matrices up to K = 6, N = 60."""
    sp = Space()
    assert sp.size() == sum(count(K, N) for K in range(1, 5) for N in range(1, 9)) + sum(
        count(5, N) for N in range(1, 6)) + 20_000
    assert sp.random_k == 6 and sp.random_n == 60 and sp.triangle == ((2, 6), (3, 4))


# ---------------------------------------------------------------------------
# the float screen never hides what the exact search finds (every registered
# variant on the small space: test_property_table.py)
# ---------------------------------------------------------------------------
def test_small_chunks_change_nothing():
    """Chunks of 5 matrices (most moves looked up outside the chunk) against whole blocks."""
    big = audit("oc", variant=1, space=SMALL_SPACE, prove=False)
    small = audit("oc", variant=1, space=Space(**{**SMALL_SPACE.__dict__, "chunk": 5}),
                  prove=False)
    for p in PROPERTIES:
        assert big.results[p].cell() == small.results[p].cell()
        assert big.results[p].checked == small.results[p].checked


def test_a_violation_below_the_tolerance_is_found_by_the_exact_check_of_ties():
    """f(A) = MER + A[0,1] / 10^12: transposing changes it by 1e-12, below the
    screen's 1e-9, so the float values tie; the exact check of the ties finds
    it, and with no tie budget the verdict says what is left unconfirmed."""
    from fractions import Fraction

    def exact(A):
        A = np.asarray(A)
        return Fraction(int(A.sum() - np.trace(A)), int(A.sum())) + Fraction(int(A[0, 1]), 10**12)

    def vec(S):
        S = np.asarray(S, dtype=float)
        return (S.sum((1, 2)) - np.trace(S, axis1=1, axis2=2)) / S.sum((1, 2)) + S[:, 0, 1] / 1e12

    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    r = audit(exact, ["symmetry"], vectorized=vec, space=sp, bounds=(0, 2), prove=False)
    assert r.results["symmetry"].verdict == "fails"
    assert r.results["symmetry"].counterexample.tolist() == [[0, 0], [1, 0]]
    r0 = audit(exact, ["symmetry"], vectorized=vec, space=sp, bounds=(0, 2), prove=False,
               tie_budget=0)
    res = r0.results["symmetry"]
    assert res.verdict == "holds" and res.ties_confirmed == 0 and res.ties == res.checked
    assert "agreeing to 1e-9 in float64 only" in res.evidence()


def test_a_counterexample_found_at_random_is_shrunk_and_not_called_minimal():
    """Symmetry broken only from N = 7 on: the exhaustive part (N <= 3) misses
    it, the random part (N up to 12) finds it, and shrinking keeps N = 7."""
    def f(A):
        A = np.asarray(A)
        return int(A[0, -1]) if A.sum() >= 7 else 0

    sp = Space(exhaustive=((2, 3),), random=60, random_k=2, random_n=12, triangle=(),
               diagonal=())
    r = audit(f, ["symmetry"], space=sp, bounds=(0, None), prove=False)
    res = r.results["symmetry"]
    assert res.verdict == "fails" and not res.minimal and "random" in res.how
    assert res.counterexample.sum() == 7 and res.counterexample[0, 1] != res.counterexample[1, 0]
    assert "shrunk" in res.how and res.counterexample.shape == (2, 2)


# ---------------------------------------------------------------------------
# verdicts that say what they rest on (issue 22, item 4)
# ---------------------------------------------------------------------------
def test_an_empty_search_is_not_holds():
    """Imbalance needs K >= 3: with K <= 2 nothing was searched (was "holds" with 0 checked)."""
    r = audit("mae", ["imbalance", "ordinal_invariance"], max_k=2, random=0)
    res = r.results["imbalance"]
    assert res.verdict == "n/a" and res.checked == 0 and "empty search" in res.witness


def test_a_metric_undefined_everywhere_is_not_holds():
    """A metric that raises UndefinedMetric on every matrix: n/a for every property it
    cannot fail by being undefined (was "holds" for most)."""
    def never(A):
        raise UndefinedMetric("undefined")

    r = audit(never, max_k=2, max_n=2, random=0, bounds=(0, 1), prove=False)
    for p, res in r.results.items():
        if p == "unobserved_class":
            assert res.verdict == "fails"
        else:
            assert res.verdict == "n/a", (p, res.verdict)
            assert "undefined on every" in res.witness or "empty search" in res.witness


def test_proved_on_a_scope_and_refuted_outside_it_is_fails_with_the_proof_as_detail():
    """MER's ordinal monotonicity: proved for K <= 2, fails at K = 3 (a sample
    moved between two wrong classes leaves MER unchanged)."""
    from analytic.properties.prover import scopes

    r = audit("mer", ["ordinal_monotonicity"], max_k=3, max_n=3, random=0, prove=scopes(2, 0))
    res = r.results["ordinal_monotonicity"]
    assert res.verdict == "fails" and res.counterexample.shape == (3, 3)
    assert res.proof is not None and res.proof.short() == "K <= 2"
    assert "proved for K <= 2, fails at K = 3" in res.evidence()


def test_holds_states_the_searched_space_and_counts():
    r = audit("mae", ["symmetry"], max_k=2, max_n=2, random=3, prove=False)
    text = r.results["symmetry"].evidence()
    assert "every matrix with K <= 2 and N <= 2" in text and "3 random matrices" in text
    assert f"{r.results['symmetry'].checked:,} checked" in text


def test_populated_twins_search_only_populated_gold_standards():
    r = audit("mae", ["imbalance_populated", "ordinal_invariance_populated"], max_k=3,
              max_n=3, random=0, prove=False)
    ce = r.results["imbalance_populated"].counterexample
    assert (np.diag(ce) >= 1).all()
    ce = r.results["ordinal_invariance_populated"].counterexample
    assert (ce.sum(axis=1) >= 1).all()


# ---------------------------------------------------------------------------
# arguments: nothing evaluated, nothing unbounded (issue 23)
# ---------------------------------------------------------------------------
def test_strings_are_never_evaluated(tmp_path):
    marker = tmp_path / "pwned"
    payload = f'__import__("pathlib").Path({str(marker)!r}).touch()'
    r = audit(lambda A: payload, ["symmetry"], max_k=1, max_n=1, random=0, prove=False)
    assert r.results["symmetry"].verdict == "error"         # a string is no number
    assert "(not a finite real number" in r.results["symmetry"].witness
    with pytest.raises(ValueError):
        audit(lambda A: 0, ["range"], max_k=1, max_n=1, random=0, bounds=(payload, 1),
              prove=False)
    r = audit(lambda A: 0, ["range"], max_k=1, max_n=1, random=0, bounds=(0, 1),
              symbolic=lambda A: payload)
    assert r.results["range"].verdict == "holds"           # no proof: a string is no form
    assert "SympifyError" in r.results["range"].proof.refused[0][1]
    assert not marker.exists()


@pytest.mark.parametrize("kw", [dict(variant=99), dict(variant=-1), dict(variant=True),
                                dict(variant=1.0), dict(random=-1), dict(max_k=0),
                                dict(max_n=2.5), dict(seed=-3), dict(tie_budget=-1),
                                dict(jobs=0)])
def test_bad_arguments_are_refused(kw):
    with pytest.raises(ValueError):
        audit("uoc", ["range"], prove=False, **({"max_k": 1, "max_n": 1, "random": 0} | kw))


def test_a_search_too_large_is_refused_with_its_cost():
    with pytest.raises(ValueError, match="hours per property"):
        check_size(space_of(10, 10, 0))
    with pytest.raises(ValueError, match="label vectors"):
        check_size(Space(triangle=((3, 9),)))


def test_infinite_bound_is_unbounded():
    r = audit(lambda A: int(A.sum()), ["range", "identity"], max_k=2, max_n=2, random=0,
              bounds=(0, math.inf), better="higher", prove=False)
    assert r.results["range"].verdict == "holds"
    assert r.results["identity"].verdict == "n/a"


# ---------------------------------------------------------------------------
# executors
# ---------------------------------------------------------------------------
def test_any_executor_gives_the_same_verdicts():
    """A thread pool and a forked process pool against the in-process run."""
    sp = Space(exhaustive=((1, 3), (2, 4), (3, 3)), random=30, random_k=3, random_n=6,
               triangle=((2, 3),), triangle_random=20, diagonal=((3, 6),), chunk=40)
    ref = audit("uoc", space=sp, prove=False, jobs=1)
    with ThreadPoolExecutor(2) as ex:
        threads = audit("uoc", space=sp, prove=False, executor=ex)
    procs = audit("uoc", space=sp, prove=False, jobs=2)
    for p in PROPERTIES:
        for other in (threads, procs):
            a, b = ref.results[p], other.results[p]
            assert (a.cell(), a.witness, a.checked, a.ties) == (b.cell(), b.witness, b.checked,
                                                                b.ties)


@pytest.mark.parametrize("name", ["mae", "rmse", "a_uoc"])
@pytest.mark.parametrize("exact_ties", [False, True])
def test_the_chunk_size_splits_the_work_not_the_results(name, exact_ties):
    """Space.chunk is how the search is split (the property table's staleness test
    ignores it, table.same_space): chunks of 7 matrices and one chunk per (K, N)
    block give the same verdicts, counterexamples, witnesses and counts, with the
    tie budget and with every tie decided exactly."""
    def run(chunk):
        sp = Space(exhaustive=((1, 3), (2, 4), (3, 4)), random=40, random_k=4, random_n=6,
                   triangle=((2, 3),), triangle_random=20, diagonal=((3, 6),), chunk=chunk)
        return audit(name, space=sp, prove=False, jobs=1, exact_ties=exact_ties).results

    small, whole = run(7), run(10**6)
    for p in PROPERTIES:
        a, b = small[p], whole[p]
        assert (a.cell(), a.witness, a.checked, a.undefined, a.ties, a.ties_confirmed,
                a.minimal) == (b.cell(), b.witness, b.checked, b.undefined, b.ties,
                               b.ties_confirmed, b.minimal), p
        # fewer ties than the budget: every one up to the counterexample is confirmed
        assert a.ties_confirmed == a.ties <= 1000, p
    assert any(r.ties for r in small.values())
    assert any(r.verdict == "fails" and r.ties for r in small.values())


def test_a_dask_cluster_gives_the_same_verdicts_and_counterexamples():
    """dask.distributed.LocalCluster (two worker processes) through Client.get_executor()."""
    from dask import distributed

    sp = Space(exhaustive=((1, 3), (2, 4), (3, 3)), random=30, random_k=3, random_n=6,
               triangle=((2, 3),), triangle_random=20, diagonal=((3, 6),), chunk=50)
    ref = audit("amae", space=sp, prove=False, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        got = audit("amae", space=sp, prove=False, executor=client.get_executor())
    for p in PROPERTIES:
        a, b = ref.results[p], got.results[p]
        assert (a.verdict, a.counterexample_text(), a.witness, a.checked) == (
            b.verdict, b.counterexample_text(), b.witness, b.checked), p


# ---------------------------------------------------------------------------
# the space, item by item (issue 27 item 4: mutation testing of space.py)
# ---------------------------------------------------------------------------
_PAIRS, _COUNT = r"\(K, max_n\) must be positive integers", "must be a non-negative integer"


@pytest.mark.parametrize("kw, match", [
    (dict(exhaustive=((0, 3),)), "exhaustive: " + _PAIRS), (dict(exhaustive=((2.5, 3),)), _PAIRS),
    (dict(exhaustive=((2, -1),)), _PAIRS), (dict(exhaustive=((2, 1.5),)), _PAIRS),
    (dict(triangle=((0, 2),)), "triangle: " + _PAIRS), (dict(diagonal=((3, -1),)), "diagonal"),
    (dict(random=-1), "random " + _COUNT), (dict(random=True), _COUNT),
    (dict(random=1.5), _COUNT), (dict(seed=-1), "seed " + _COUNT),
    (dict(triangle_random=-2), "triangle_random " + _COUNT),
    (dict(random=5, random_k=1), "^random matrices need random_k >= 2 and random_n >= 1$"),
    (dict(random=5, random_n=0), "random_n >= 1"), (dict(chunk=0), "chunk must be positive")])
def test_a_space_refuses_what_its_docstring_excludes(kw, match):
    """Space's attributes: (K, max_n) positive integers (max_n >= 0), counts and
    the seed non-negative integers, random matrices with random_k >= 2 and
    random_n >= 1, a positive chunk; the message names the attribute."""
    with pytest.raises(ValueError, match=match):
        Space(**kw)


def test_a_space_accepts_its_boundary_values():
    sp = Space(exhaustive=((1, 0),), random=0, random_k=1, random_n=0, seed=0,
               triangle=(), triangle_random=0, diagonal=((1, 0),), chunk=1)
    assert sp.size() == 0 and sp.chunks() == [] and sp.max_k() == 1
    assert Space(random=1, random_k=2, random_n=1).random == 1


def test_size_max_k_and_chunks_by_hand():
    """size: C(N + K^2 - 1, K^2 - 1) summed over N = 1..max_n (stars and bars), plus
    the random ones; chunks: ranks [lo, hi) of at most `chunk` matrices, every rank
    once, in the order (N, K); max_k leaves out larger K, random groups too."""
    sp = Space(exhaustive=((2, 2), (1, 3)), random=5, random_k=3, random_n=4, chunk=3,
               triangle=(), diagonal=())
    assert sp.size() == (4 + 10) + (1 + 1 + 1) + 5
    assert sp.max_k() == 3 and Space(exhaustive=((1, 3), (3, 2)), random=0).max_k() == 3
    assert Space(exhaustive=(), random=0).max_k() == 0
    ex = [(c.K, c.N, c.lo, c.hi) for c in sp.chunks() if c.kind == "exhaustive"]
    assert ex == [(1, 1, 0, 1), (2, 1, 0, 3), (2, 1, 3, 4), (1, 2, 0, 1), (2, 2, 0, 3),
                  (2, 2, 3, 6), (2, 2, 6, 9), (2, 2, 9, 10), (1, 3, 0, 1)]
    assert [(c.K, c.N) for c in sp.chunks(max_k=1) if c.kind == "exhaustive"] == [
        (1, 1), (1, 2), (1, 3)]
    groups = sp._random_groups()
    assert sum(c for _, c in groups) == 5
    assert all(2 <= K <= 3 and 1 <= N <= 4 for (K, N), _ in groups)
    rnd = [(c.K, c.N, c.lo, c.hi) for c in sp.chunks() if c.kind == "random"]
    assert rnd == [(K, N, 0, c) for (K, N), c in groups]
    assert [g for g in groups if g[0][0] <= 2] == sp._random_groups(max_k=2)
    assert all(c.K <= 2 for c in sp.chunks(max_k=2))
    assert Space(random=0)._random_groups() == []


def test_random_matrices_leave_classes_empty_a_quarter_of_the_time():
    """Each class is left out as a true class (an empty row) and as a predicted
    class (an empty column) with probability 1/4 (at least one of each is kept),
    the N samples on the remaining cells; with N = 60 on <= 16 cells an allowed
    row is almost never empty by chance, so about 1/4 of the rows are empty."""
    sp = Space(random=1, random_k=4, random_n=60)
    R = sp.random_block(4, 60, 0, 400)
    assert R.shape == (400, 4, 4) and (R.sum(axis=(1, 2)) == 60).all() and (R >= 0).all()
    empty_rows = (R.sum(axis=2) == 0).mean()
    empty_cols = (R.sum(axis=1) == 0).mean()
    assert 0.2 < empty_rows < 0.3 and 0.2 < empty_cols < 0.3, (empty_rows, empty_cols)
    assert (R.sum(axis=2) > 0).any(axis=1).all()
    # matrices lo .. hi - 1 of the seeded stream of hi matrices
    assert (sp.random_block(4, 60, 5, 9) == sp.random_block(4, 60, 0, 9)[5:9]).all()
    assert not (Space(random=1, seed=1).random_block(4, 60, 0, 5) == R[:5]).all()
    chunk = [c for c in Space(random=3, random_k=2, random_n=2).chunks() if c.kind == "random"][0]
    assert chunk.matrices(Space(random=3, random_k=2, random_n=2)).shape == (chunk.hi, 2, 2)


def test_describe_states_the_space():
    """The text a verdict rests on, written out by hand for the default space."""
    assert Space().describe() == (
        "every matrix with K <= 4 and N <= 8; every matrix with K = 5 and N <= 5; 20,000 "
        "random matrices (seed 0, 2 <= K <= 6, 1 <= N <= 60, empty rows and columns)")
    assert Space(exhaustive=((4, 3), (2, 3)), random=0).describe() == (
        "every matrix with K = 2, 4 and N <= 3")


def test_blocks_refuse_ranks_outside_the_space_and_slice_large_blocks():
    """count(2, 2) = 10 ranks; block(4, 8) (490,314 matrices, beyond the cached
    size) sliced in the middle: increasing lexicographic rows of total 8 whose
    ranks are the slice."""
    for lo, hi in [(-1, 3), (0, 11), (5, 4)]:
        with pytest.raises(ValueError, match="outside"):
            block(2, 2, lo, hi)
    assert block(2, 2, 10, 10).shape == (0, 4)
    ref = np.array([m.ravel() for m in exhaustive(2, 3)])
    for lo in range(len(ref) + 1):
        for hi in range(lo, len(ref) + 1):
            assert (block(2, 3, lo, hi) == ref[lo:hi]).all(), (lo, hi)
    assert count(4, 8) == math.comb(8 + 15, 15) == 490314
    B = block(4, 8, 262000, 262300)
    assert B.shape == (300, 16) and (B.sum(axis=1) == 8).all()
    assert all(tuple(a) < tuple(b) for a, b in zip(B[:-1], B[1:]))
    assert rank(B, 8).tolist() == list(range(262000, 262300))
    assert block(4, 8, 0, 2).tolist() == [[0] * 15 + [8], [0] * 14 + [1, 7]]


# ---------------------------------------------------------------------------
# the engine, part by part (issue 27 item 4: mutation testing of engine.py)
# ---------------------------------------------------------------------------
def _mer_exact(A):
    from fractions import Fraction

    A = np.asarray(A)
    return Fraction(int(A.sum() - np.trace(A)), int(A.sum()))


def test_the_float_evaluator_marks_undefined_matrices_and_refuses_non_numbers():
    """A vectorised function raising ValueError on a stack holding an undefined
    matrix: the stack is halved until each undefined matrix is isolated, the
    others keep their values; a NaN where the metric says it is defined is a
    broken metric.  Orientation and best value from `better` and the bounds."""
    from analytic.properties.engine import FloatEvaluator

    calls = []

    def first_row_rate(S):
        S = np.asarray(S)
        calls.append(len(S))
        if (S[:, 0].sum(axis=-1) == 0).any():
            raise UndefinedMetric("empty first row")
        return S[:, 0, 0] / S[:, 0].sum(axis=-1)

    ev = FloatEvaluator(first_row_rate, "higher", (0, "1"))
    assert (ev.orient, ev.bounds, ev.best) == (-1.0, (0.0, 1.0), 1.0)
    assert FloatEvaluator(first_row_rate, "lower", (None, 2)).best is None
    # totals 1, 2, 2, 1, 3: split by N first; [[0, 0], [1, 1]] is undefined
    S = np.array([[[1, 0], [0, 0]], [[1, 1], [0, 0]], [[0, 0], [1, 1]], [[0, 1], [0, 0]],
                  [[2, 1], [0, 0]]])
    v, d = ev(S)
    assert d.tolist() == [True, True, False, True, True]
    assert v[d].tolist() == [1.0, 0.5, 0.0, 2 / 3] and np.isnan(v[2])
    assert calls[:3] == [2, 2, 1]     # N = 1 (both defined); N = 2 halved: [1, 1]
    v, d = ev(S[:0])
    assert v.shape == d.shape == (0,)
    # NaN: undefined for a user's form (issue 37 item 1), an error for a registered
    # metric (its checks mark where it is undefined); an infinity: a broken metric
    half = lambda S: np.where(S[:, 0, 0] > 0, 0.5, np.nan)  # noqa: E731
    v, d = FloatEvaluator(half, "lower", (0, 1), nan_undefined=True)(S)
    assert d.tolist() == [True, True, False, False, True]
    with pytest.raises(MetricError, match=r"returned nan .* matrix \[\[0, 0\], \[1, 1\]\]"):
        FloatEvaluator(half, "lower", (0, 1))(S)
    with pytest.raises(MetricError, match=r"the metric returned inf \(not a finite real number; "
                       r"NaN, None or UndefinedMetric where it is undefined\) on the count "
                       r"matrix \[\[1, 0\], \[0, 0\]\]"):
        FloatEvaluator(lambda S: 1 / (S[:, 1, 1] * 1.0), "lower", (0, 1))(S[:1])


def test_a_registered_metric_s_evaluator_and_its_marks():
    """MetricSpec of a registered variant: numeric's own undefined marks (TC is
    undefined with an empty row); MER's value is the error rate."""
    from analytic.properties.engine import MetricSpec

    ev = MetricSpec(name="mer", variant="MER", better="lower", bounds=(0, 1)).evaluator()
    v, d = ev(np.array([[[1, 1], [0, 2]], [[0, 0], [3, 1]]]))
    assert d.tolist() == [True, True] and v.tolist() == [0.25, 0.75]
    tc = REGISTRY_CASE("tc")
    v, d = tc.evaluator()(np.array([[[1, 1], [0, 2]], [[0, 0], [3, 1]]]))
    assert d.tolist() == [True, False]


def REGISTRY_CASE(name):
    from numeric.registry import REGISTRY

    from analytic.properties.engine import MetricSpec

    m = REGISTRY[name]
    return MetricSpec(name=name, variant=m.cases()[0].label, better=m.better, bounds=m.bounds)


def test_the_chunk_cache_looks_derived_matrices_up_by_rank():
    """_Lookup: the matrices of a stack that are in ranks [lo, hi) of (K, N), and
    where; _Cached: the base stack evaluated once, derived stacks memoised by key,
    a derived matrix in the chunk read from the base values (not re-evaluated)."""
    from analytic.properties.engine import FloatEvaluator, _Cached, _Lookup

    seen = []

    def mer(S):
        seen.append(np.asarray(S).copy())
        S = np.asarray(S, dtype=float)
        return (S.sum((1, 2)) - np.trace(S, axis1=1, axis2=2)) / S.sum((1, 2))

    A = block(2, 2, 2, 7).reshape(-1, 2, 2)          # ranks 2..6 of K = 2, N = 2
    ev = FloatEvaluator(mer, "lower", (0, 1))
    cached = _Cached(ev, A)
    cached.lookup = _Lookup(2, 2, 2, 7, lambda: cached(A))
    probe = np.concatenate([block(2, 2, 0, 10).reshape(-1, 2, 2), [[[1, 0], [0, 0]]]])
    hit, where = cached.lookup.split(probe)
    assert hit.tolist() == [False, False] + [True] * 5 + [False] * 4
    assert where.tolist() == [0, 1, 2, 3, 4]
    assert cached(A) is cached(A) and len(seen) == 1
    v, d = cached.derived("k", probe)
    ref = mer(probe)
    assert d.all() and np.allclose(v, ref)
    n = len(seen)
    assert cached.derived("k", probe[:1]) is cached.derived("k", probe)  # memoised by key
    assert len(seen) == n
    # only the 6 matrices outside the chunk were evaluated (5 read from the base values),
    # by total: N = 1, then N = 2
    assert [len(x) for x in seen[1:3]] == [1, 5]
    assert not any((m == A).all(axis=(1, 2)).any() for m in seen[2])
    v, d = cached(probe[7:])            # K = 2, N = 2 outside, and N = 1: evaluated
    assert np.allclose(v, ref[7:])
    other = FloatEvaluator(mer, "lower", (0, 1))
    assert _Cached(other, A)(np.zeros((0, 2, 2), dtype=np.int64))[0].shape == (0,)


def test_a_chunk_screen_counts_flags_and_shares_the_parent_s_statuses():
    """_screen_all on every 3 x 3 matrix with N = 2 for MER: checked = bases,
    defined, candidates and ties per property, each flagged base with its index
    and status in order; the populated twin's statuses are its parent's on its
    own bases (reference: the properties' own screens on the whole stack)."""
    from analytic.properties.engine import FloatEvaluator, _screen_all

    def mer(S):
        S = np.asarray(S, dtype=float)
        return (S.sum((1, 2)) - np.trace(S, axis1=1, axis2=2)) / S.sum((1, 2))

    A = block(3, 2, 0, count(3, 2)).reshape(-1, 3, 3)
    ev = FloatEvaluator(mer, "lower", (0, 1))
    names = ("ordinal_monotonicity_populated", "ordinal_monotonicity", "unobserved_class")
    out = _screen_all(ev, A, names)
    om = PROPERTIES["ordinal_monotonicity"].screen(ev, A)
    r = out["ordinal_monotonicity"]
    assert (r.checked, r.defined) == (45, 45)
    assert r.candidates == int((om == 2).sum()) > 0 and r.ties == int((om == 1).sum())
    assert [(i, s) for i, s, _ in r.flagged] == [(int(i), int(om[i])) for i in np.flatnonzero(om)]
    assert all((m == A[i]).all() for i, _, m in r.flagged)
    keep = (A.sum(axis=-1) > 0).all(axis=-1)
    twin = out["ordinal_monotonicity_populated"]
    assert twin.checked == int(keep.sum())
    assert [s for _, s, _ in twin.flagged] == [int(s) for s in om[keep] if s]
    assert [m.tolist() for _, _, m in twin.flagged] == [m.tolist() for m, s in zip(A[keep], om[keep]) if s]
    un = out["unobserved_class"]
    assert un.checked == int((~keep).sum()) and un.candidates == 0 and un.flagged == []


def test_results_come_back_in_order_within_the_window():
    """_ordered: at most `window` tasks submitted ahead; results in task order;
    a consumer that stops stops the submitting."""
    from analytic.properties.engine import _InProcess, _ordered

    log = []

    class Ex(_InProcess):
        def submit(self, fn, *args):
            log.append(args[0])
            return super().submit(fn, *args)

    tasks = [(lambda x: x * x, i) for i in range(6)]
    gen = _ordered(Ex(), tasks, 2)
    assert next(gen) == 0 and log == [0, 1, 2]
    assert next(gen) == 1 and log == [0, 1, 2, 3]
    gen.close()
    assert log == [0, 1, 2, 3]
    assert list(_ordered(_InProcess(), tasks, 10)) == [0, 1, 4, 9, 16, 25]
    assert list(_ordered(_InProcess(), tasks, 1)) == [0, 1, 4, 9, 16, 25]
    log.clear()
    gen = _ordered(Ex(), tasks)  # in this process: a window of one (one task ahead, not 16)
    assert next(gen) == 0 and log == [0, 1]


def test_a_pool_gets_window_tasks_and_a_stopped_consumer_cancels_the_rest():
    """On a pool, WINDOW (16) tasks in flight, so up to 16 workers share the
    chunks (it was 4: a cluster's further workers idled); when the consumer stops,
    the tasks not started are cancelled."""
    from concurrent.futures import Future

    from analytic.properties.engine import WINDOW, _ordered

    class Pool:  # its first task is done at once, the others never start
        def __init__(self):
            self.futures = []

        def submit(self, fn, *args):
            f = Future()
            if not self.futures:
                f.set_result(fn(*args))
            self.futures.append(f)
            return f

    pool = Pool()
    gen = _ordered(pool, [(lambda x: x * x, i) for i in range(40)])
    assert next(gen) == 0
    assert WINDOW == 16 and len(pool.futures) == WINDOW + 1
    gen.close()
    assert all(f.cancelled() for f in pool.futures[1:])


def test_default_executor_by_jobs():
    from analytic.properties.engine import default_executor

    assert default_executor(1) is None
    ex = default_executor(2)
    try:
        assert ex._max_workers == 2
    finally:
        ex.shutdown()


def test_the_tracker_spends_its_tie_budget_in_order_and_states_minimality():
    """Ties are checked exactly up to the budget, the rest counted as unconfirmed;
    a counterexample after an unconfirmed tie is not minimal; checked counts the
    bases up to it (the earlier chunks' `before`, its position + 1)."""
    from analytic.properties.engine import _Tracker

    class Prop:
        def check(self, ctx, m):
            return "bad" if m == "x" else None

    t = _Tracker("p", budget=1)
    assert not t.confirm(None, Prop(), [(0, 1, "a"), (3, 1, "b"), (5, 2, "c")], False)
    f = t.found
    assert (f.ties_confirmed, f.exact_checks, t.unconfirmed_before) == (1, 2, 1)
    assert t.confirm(None, Prop(), [(7, 2, "x"), (9, 2, "y")], False, before=(100, 0, 0))
    assert f.counterexample == "x" and f.checked == 108 and f.witness == "bad"
    assert not f.minimal and f.how.endswith("after ties left unconfirmed: not certified minimal")
    t = _Tracker("p", budget=5)
    assert t.confirm(None, Prop(), [(0, 1, "a"), (2, 1, "x")], False)
    assert t.found.minimal and t.found.how == ("exhaustive: the first counterexample in the "
                                               "order (N, K, lexicographic)")
    t = _Tracker("p", budget=5)
    assert t.confirm(None, Prop(), [(0, 2, "x")], True) and not t.found.minimal
    assert t.found.how == "random, then shrunk" and t.done


def test_a_counterexample_s_counts_stop_at_it():
    """With ``upto`` (each flagged base's ties and exactly decided ties up to it,
    inclusive), a counterexample's counts are those before the chunk plus those up
    to it, not the whole chunk's: checked 100 + 7 + 1, ties 30 + 4, ties confirmed
    20 + 3 decided by the exact screen + 1 by the per-matrix check (the tie at 2;
    by hand from the numbers passed)."""
    from analytic.properties.engine import ChunkScreen, _Tracker

    class Prop:
        def check(self, ctx, m):
            return "bad" if m == "x" else None

    t = _Tracker("p", budget=5)
    f = t.found
    f.checked, f.defined, f.ties, f.ties_confirmed = 100, 90, 30, 20
    r = ChunkScreen(checked=50, defined=45, ties=12, ties_exact=9,
                    flagged=[(2, 1, "a"), (7, 2, "x"), (9, 1, "b")],
                    upto=[(3, 3), (4, 3), (6, 5)])
    assert t.take(None, Prop(), r, False)
    assert (f.checked, f.ties, f.ties_confirmed) == (108, 34, 24)
    t = _Tracker("p", budget=5)  # no upto (a caller that does not keep it): whole chunk
    f = t.found
    assert t.take(None, Prop(), ChunkScreen(checked=50, defined=45, ties=12, ties_exact=9,
                                            flagged=[(7, 2, "x")]), False)
    assert (f.checked, f.ties, f.ties_confirmed) == (8, 12, 9)


def test_a_triangle_counterexample_is_named_by_the_order_of_triples():
    """The triangle search walks label-vector triples by length n, then K
    (not matrices by total N): the float search names its counterexample as
    the exact search does, "the first triple in the order (n, K, ...)".
    MSE's first triple is a=[0], b=[1], c=[2] (n = 1, K = 3): d(a,c) = 4 >
    d(a,b) + d(b,c) = 1 + 1 (MSE of one sample two classes off, by hand)."""
    from analytic.properties.engine import FIRST_TRIPLE

    sp = Space(exhaustive=((1, 1),), random=0, diagonal=(), triangle=((2, 2), (3, 2)),
               triangle_random=0)
    reps = [audit("mse", ["triangle"], space=sp, prove=False, exact=e).results["triangle"]
            for e in (False, True)]
    for r in reps:
        assert r.counterexample[:3] == ((0,), (1,), (2,)) and r.minimal
        assert r.how == f"exhaustive: {FIRST_TRIPLE}" == ("exhaustive: the first triple in the "
                                                          "order (n, K, lexicographic)")


def test_the_triangle_screen_against_brute_force():
    """screen_triples and the random triples' screen: d(a, c) - d(a, b) - d(b, c)
    over the triples with b != a and b != c (the others reduce to d >= 0), d(x, y) =
    MSE of cm(x, y) (squared class distance, fails the triangle: 4 > 1 + 1), a tie
    within the tolerance, a violation beyond it; statuses and order by brute force."""
    from itertools import product

    from analytic.properties.engine import MetricSpec, _screen_random_triples, screen_triples

    def mse(S):
        S = np.asarray(S, dtype=float)
        K = S.shape[-1]
        w = (np.arange(K)[:, None] - np.arange(K)[None, :]) ** 2
        return (S * w).sum((1, 2)) / S.sum((1, 2))

    def d(x, y):
        return sum((i - j) ** 2 for i, j in zip(x, y)) / len(x)

    spec = MetricSpec(vectorized=mse, better="lower", bounds=(0, None))
    K, n = 3, 2
    V = list(product(range(K), repeat=n))
    ref, order = [], 0
    for a, b, c in product(V, repeat=3):
        if b == a or b == c:
            continue
        diff = d(a, c) - d(a, b) - d(b, c)
        if diff > 1e-9 * max(1, d(a, c), d(a, b) + d(b, c)):
            ref.append((order, 2, (a, b, c, K)))
        elif abs(diff) <= 1e-9 * max(1, d(a, c), d(a, b) + d(b, c)):
            ref.append((order, 1, (a, b, c, K)))
        order += 1
    r = screen_triples(spec, K, n)
    checked, defined, ties, flagged = r.checked, r.defined, r.ties, r.flagged
    assert (checked, defined) == (order, order) and ties == sum(s == 1 for _, s, _ in ref)
    assert flagged == ref
    assert r.candidates == sum(s == 2 for _, s, _ in ref)  # every one, not the flagged ones
    trips = np.array([[a, b, c] for _, _, (a, b, c, _) in ref[:5]]
                     + [[(0, 0), (0, 0), (2, 2)], [(0, 1), (0, 1), (0, 1)]])
    r = _screen_random_triples(spec, K, n, trips)
    checked, defined, ties, flagged = r.checked, r.defined, r.ties, r.flagged
    assert (checked, defined) == (5, 5)
    assert r.candidates == sum(s == 2 for _, s, _ in ref[:5])
    assert [(s, t) for _, s, t in flagged] == [(s, t) for _, s, t in ref[:5]]
    assert [o for o, _, _ in flagged] == [0, 1, 2, 3, 4]


def test_the_exact_searches_count_and_stop_at_the_first_counterexample():
    """search_matrices / search_triples on small spaces: the counts of checked and
    defined bases, the stop at the first counterexample (by hand: MER's ordinal
    monotonicity first fails at [[0,0,0],[0,0,0],[1,0,0]], the 3rd 3 x 3 matrix with
    N = 1 (after cells (2, 2) and (2, 1)), after the 1 + 4 matrices with K <= 2; its
    imbalance at diag(1, 0, 2), the 5th diagonal with N = 3 in lexicographic order
    (003, 012, 021, 030, 102), after 3 + 6 with N <= 2, where no n_c1 > n_c3 >= 1;
    MSE's triangle at a=[0], b=[1], c=[2])."""
    from analytic.properties.engine import MetricSpec, search_matrices, search_triples
    from analytic.properties.exact import ExactContext

    def mer(S):
        S = np.asarray(S, dtype=float)
        return (S.sum((1, 2)) - np.trace(S, axis1=1, axis2=2)) / S.sum((1, 2))

    spec = MetricSpec(vectorized=mer, better="lower", bounds=(0, 1))
    ctx = ExactContext(_mer_exact, "lower", (0, 1))
    sp = Space(exhaustive=((1, 2), (2, 2), (3, 2)), random=0, triangle=(), diagonal=((3, 3),),
               chunk=4)
    found = search_matrices(spec, ["ordinal_monotonicity", "symmetry", "imbalance"], sp, ctx)
    om = found["ordinal_monotonicity"]
    assert om.counterexample.tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0]] and om.minimal
    assert om.checked == 1 + 4 + 3
    sym = found["symmetry"]
    assert not sym.fails and sym.checked == sym.defined == sum(
        count(K, N) for K in (1, 2, 3) for N in (1, 2))
    imb = found["imbalance"]      # MER ties: a violation
    assert imb.counterexample.tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 2]]
    assert imb.checked == 3 + 6 + 5
    trip = search_triples(MetricSpec(vectorized=lambda S: np.asarray(
        [((np.arange(3)[:, None] - np.arange(3)) ** 2 * m).sum() / m.sum() for m in S]),
        better="lower", bounds=(0, None)), Space(triangle=((3, 1),), triangle_random=0),
        ExactContext(lambda A: sum((i - j) ** 2 * int(A[i, j]) for i in range(3)
                                   for j in range(3)) / int(A.sum()), "lower", (0, None)))
    assert trip.counterexample == ((0,), (1,), (2,), 3) and trip.minimal


def test_ranks_of_stacks_of_any_shape_and_int64_chunks():
    """rank works on the last axis (a single flattened matrix: its rank; a stack of
    stacks: one rank each); a chunk's matrices are int64 (Chunk.matrices), random
    ones too (their witnesses print integer counts)."""
    ref = np.array([m.ravel() for m in exhaustive(2, 2)])
    assert int(rank(ref[3], 2)) == 3
    assert rank(ref[:6].reshape(2, 3, 4), 2).tolist() == [[0, 1, 2], [3, 4, 5]]
    sp = Space(random=4, random_k=3, random_n=5)
    for c in sp.chunks():
        assert c.matrices(sp).dtype == np.int64, c


def test_chunks_of_uneven_and_empty_exhaustive_parts():
    """A smaller K searched to a smaller N does not stop the larger K at that N;
    without an exhaustive part only the random chunks remain."""
    sp = Space(exhaustive=((1, 1), (2, 2)), random=0)
    assert [(c.K, c.N) for c in sp.chunks()] == [(1, 1), (2, 1), (2, 2)]
    sp = Space(exhaustive=(), random=3, random_k=2, random_n=1)
    assert [(c.kind, c.K, c.N, c.hi) for c in sp.chunks()] == [("random", 2, 1, 3)]


def test_random_sizes_cover_their_whole_ranges():
    """Random sizes are drawn with 2 <= K <= random_k and 1 <= N <= random_n (Space):
    with 300 draws over 2 x 3 sizes, every size occurs."""
    groups = Space(random=300, random_k=3, random_n=3)._random_groups()
    assert sorted(size for size, _ in groups) == [(K, N) for K in (2, 3) for N in (1, 2, 3)]
