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

import numeric  # noqa: F401  (registers every metric)
from analytic.audit import PROPERTIES, audit, check_size, space_of
from analytic.generators import exhaustive, order_key
from analytic.properties.space import SMALL_SPACE, Space, block, count, rank

# ---------------------------------------------------------------------------
# the space
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("K, N", [(1, 0), (1, 4), (2, 0), (2, 3), (3, 2), (3, 4), (4, 2)])
def test_blocks_are_the_exhaustive_walk_and_ranks_invert_them(K, N):
    """Reference: analytic.generators.exhaustive (itertools.combinations of bars)."""
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
    """A metric that raises ValueError on every matrix: n/a for every property it
    cannot fail by being undefined (was "holds" for most)."""
    def never(A):
        raise ValueError("undefined")

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
    from analytic.prover import scopes

    r = audit("mer", ["ordinal_monotonicity"], max_k=3, max_n=3, random=0, prove=scopes(2, 0))
    res = r.results["ordinal_monotonicity"]
    assert res.verdict == "fails" and res.counterexample.shape == (3, 3)
    assert res.proof is not None and res.proof.short() == "K<=2"
    assert "proved for K<=2, fails at K = 3" in res.evidence()


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
    with pytest.raises(ValueError, match="not a finite real number"):
        audit(lambda A: payload, ["symmetry"], max_k=1, max_n=1, random=0, prove=False)
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
