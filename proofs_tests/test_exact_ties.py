"""Every float tie decided exactly (issue 22, item 3): the exact screen of the
ties (``exact_ties=True``, :mod:`exactfloor.rational`), its fall-backs,
and the chunk's flagged list that no longer drops a candidate after its ties.

Expected values: exact derivations stated per test (a metric built so that
the float values tie where the exact ones differ by 10^-12), and the all-exact
search (``exact=True``: every matrix evaluated in SymPy numbers, no float
screen), which is the reference the issue names ("exactly as trustworthy as
today's all-exact search").
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from exactfloor.errors import UndefinedMetric
import numeric  # noqa: F401  (registers every metric)
from analytic.properties import audit as A
from analytic.properties import engine as E
from analytic.properties.catalog import CANDIDATE, CLEAR, PROPERTIES, TIE, tolerance
from analytic.properties.engine import RationalEvaluator
from exactfloor.closedform import _NotExact
from exactfloor.rational import rationals
from analytic.properties.space import Space
from exactfloor.arith import get_arithmetic
from numeric.registry import REGISTRY, Metric

SMALL = Space(exhaustive=((1, 3), (2, 3), (3, 3)), random=40, random_k=3, random_n=6,
              triangle=((2, 3),), triangle_random=20, triangle_n=5, diagonal=((3, 4),))


def _tiny(cm, *, arithmetic="float"):
    """MER + n_01 / 10^12: transposing a matrix with n_01 != n_10 changes it by a
    multiple of 10^-12, below the float screen's 1e-9 (a tie in float64, a
    difference in exact arithmetic)."""
    ctx = get_arithmetic(arithmetic)
    S = np.asarray(cm, dtype=np.int64)
    N = S.sum(axis=(-2, -1))
    off = N - np.trace(S, axis1=-2, axis2=-1)
    big = np.full(N.shape, 10**12, dtype=np.int64)
    v = ctx.divide(ctx.asarray(off), ctx.asarray(N)) + ctx.divide(ctx.asarray(S[..., 0, 1]),
                                                                  ctx.asarray(big))
    return ctx.finalize(v)


@pytest.fixture
def tiny(monkeypatch):
    name = "test_tiny_exact_ties"
    monkeypatch.setitem(REGISTRY, name, Metric(
        name=name, function=_tiny, label="tiny", input="matrix", better="lower",
        symmetric=False, bounds=(0, 2), source="test"))
    return name


def test_a_sub_tolerance_violation_is_found_with_exact_ties_and_missed_by_a_zero_budget(tiny):
    """f([[0, 0], [1, 0]]) = 1 and f([[0, 1], [0, 0]]) = 1 + 10^-12: the float
    values tie; the exact screen of the ties finds the first asymmetric matrix
    (N = 1, the first in the order (N, K, lexicographic)) with no per-matrix
    budget at all, and calls it minimal (no tie was left before it)."""
    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    r = A.audit(tiny, ["symmetry"], space=sp, prove=False, tie_budget=0, exact_ties=True)
    res = r.results["symmetry"]
    assert res.verdict == "fails" and res.minimal
    assert res.counterexample.tolist() == [[0, 0], [1, 0]]
    r0 = A.audit(tiny, ["symmetry"], space=sp, prove=False, tie_budget=0)
    res0 = r0.results["symmetry"]
    assert res0.verdict == "holds" and res0.ties_confirmed == 0 and res0.ties == res0.checked


def _plain(x):
    return x.tolist() if hasattr(x, "tolist") else x  # a matrix, or a triangle's triple


#: rational values, then roots and logarithms (closed forms: exactfloor.closedform)
AGREE = [("mae", 0), ("mer", 0), ("uoc", 0), ("oc", 1), ("cohen_kappa", 2), ("tc", 0), ("amae", 1),
         ("minimum_sensitivity", 0),
         ("rmse", 0), ("macro_rmse", 0), ("kendall_tau_b", 0), ("spearman_rs", 0), ("r_int", 0),
         ("george_d", 0), ("george_tiebreak", 0), ("cem_ord", 0),
         ("geometric_mean_sensitivity", 0), ("geometric_mean_sensitivity", 1), ("gmsec", 0)]


@pytest.mark.parametrize("name, variant", AGREE)
def test_exact_ties_agree_with_the_all_exact_search_and_decide_every_tie(name, variant):
    """On a K <= 3 space: the same verdicts, counterexamples and minimality as the
    search that evaluates every matrix exactly, and every float tie decided
    (the evidence says "all decided exactly") with no per-matrix budget."""
    ref = A.audit(name, variant=variant, space=SMALL, prove=False, exact=True)
    got = A.audit(name, variant=variant, space=SMALL, prove=False, exact_ties=True,
                  tie_budget=0)
    for p in PROPERTIES:
        a, b = ref.results[p], got.results[p]
        assert (a.verdict, a.witness) == (b.verdict, b.witness), p
        if a.verdict == "fails":
            assert _plain(a.counterexample) == _plain(b.counterexample), p
            assert a.minimal == b.minimal, p
        if b.verdict in ("holds", "fails"):
            assert b.ties_confirmed == b.ties, p
    assert sum(r.ties for r in got.results.values()) > 0  # the test decided something


def _nested_root(cm, *, arithmetic="float"):
    """sqrt(N + sqrt(2)): a function of N alone (symmetric), whose exact value is a
    root of a sum of terms, beyond the closed forms, for every N."""
    ctx = get_arithmetic(arithmetic)
    N = ctx.asarray(np.asarray(cm, dtype=np.int64).sum(axis=(-2, -1)))
    return ctx.finalize(ctx.sqrt(N + ctx.sqrt(ctx.asarray(2))))


def test_a_metric_beyond_the_closed_forms_leaves_its_ties_to_the_budget(monkeypatch):
    """The exact screen refuses a root of a sum of roots (_NotExact): the ties are
    decided by the per-matrix check up to the budget, and no more is claimed."""
    name = "test_nested_root"
    monkeypatch.setitem(REGISTRY, name, Metric(
        name=name, function=_nested_root, label="nested root", input="matrix", better="lower",
        symmetric=True, bounds=(0, None), source="test"))
    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    r = A.audit(name, ["symmetry"], space=sp, prove=False, exact_ties=True, tie_budget=5)
    res = r.results["symmetry"]
    assert res.verdict == "holds" and res.ties > 5 and res.ties_confirmed == 5


def test_the_exact_screen_decides_ties_by_exact_values():
    """The unit: float values that tie, exact values equal (CLEAR) or apart by
    10^-12 (CANDIDATE); a float candidate is left alone."""
    class Spec:
        def rational_evaluator(self):
            return RationalEvaluator(lambda S, ctx: _tiny(S, arithmetic=ctx), "lower", (0, 2))

    A_ = np.array([[[0, 0], [1, 0]], [[1, 1], [1, 0]], [[2, 0], [0, 1]]], dtype=np.int64)
    ties = E._ExactTies(Spec())
    status = np.array([TIE, TIE, CANDIDATE], dtype=np.int8)
    new, decided = ties.decide(PROPERTIES["symmetry"], A_, status)
    # [[0,0],[1,0]]: n_01 = 0 != n_10 = 1 -> apart; [[1,1],[1,0]]: symmetric -> equal
    assert new.tolist() == [CANDIDATE, CLEAR, CANDIDATE]
    assert decided.tolist() == [True, True, False]
    assert status.tolist() == [TIE, TIE, CANDIDATE]  # the input is not modified


def test_a_screen_of_every_chunk_counts_its_exact_decisions():
    """screen_chunk with exact_ties: MAE's scale ties on K = 2, N = 3 (every one
    of the C(6, 3) = 20 matrices is a float tie) all decided, none left."""
    m = REGISTRY["mae"]
    spec = E.MetricSpec(name="mae", variant=m.variant(0).label, better="lower",
                        bounds=m.bounds)
    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    chunk = next(c for c in sp.chunks() if c.N == 3)
    res = E.screen_chunk(spec, ("scale",), chunk, sp, True)["scale"]
    assert (res.checked, res.ties, res.ties_exact, res.flagged) == (20, 20, 20, [])
    res0 = E.screen_chunk(spec, ("scale",), chunk, sp)["scale"]
    assert (res0.ties, res0.ties_exact, len(res0.flagged)) == (20, 0, 20)


def test_the_triangle_s_ties_are_decided_on_exact_values():
    """MAE is a distance (the triangle holds): on K = 2, n = 3 every float tie of
    the screen is decided, none left flagged; without exact ties they are all
    flagged for the per-matrix check."""
    m = REGISTRY["mae"]
    spec = E.MetricSpec(name="mae", variant=m.variant(0).label, better="lower",
                        bounds=m.bounds)
    r = E.screen_triples(spec, 2, 3, None, True)
    assert r.ties > 0 and r.ties_exact == r.ties and r.flagged == [] and r.candidates == 0
    assert len(E.screen_triples(spec, 2, 3).flagged) == r.ties
    trips = np.array([[[0, 0, 1], [0, 1, 1], [1, 1, 1]], [[0, 0, 0], [0, 1, 0], [1, 1, 0]]])
    r = E._screen_random_triples(spec, 2, 3, trips, True)
    assert r.ties == r.ties_exact == 2 and r.flagged == []


def test_the_rational_evaluator_refuses_what_is_not_an_exact_rational():
    ev = RationalEvaluator(lambda S, ctx: np.array([0.5] * len(S), dtype=object), "lower",
                           (None, None))
    with pytest.raises(_NotExact, match="returned 0.5"):
        ev(np.ones((1, 2, 2), dtype=np.int64))
    ev = RationalEvaluator(lambda S, ctx: ctx.sqrt(ctx.asarray(S.sum((1, 2))) + ctx.sqrt(2)),
                           "lower", (None, None))
    with pytest.raises(_NotExact, match="a power of a sum"):
        ev(np.ones((1, 2, 2), dtype=np.int64))
    with pytest.raises(_NotExact, match="not a closed form"):
        RationalEvaluator(lambda S, ctx: S, "lower", ("pi", None))
    ev = RationalEvaluator(lambda S, ctx: S, "lower", ("sqrt(2)/2", None))  # a closed form
    assert ev.bounds[0] * 2 == ev.ctx.sqrt(ev.ctx.asarray(2))


def test_a_definedness_other_than_float64_s_is_refused():
    """The float screen's classes rest on its definedness: an exact form defined
    elsewhere is not used (its ties stay ties)."""
    def floats(S):
        return np.zeros(len(S)), np.zeros(len(S), dtype=bool)  # undefined everywhere

    ev = RationalEvaluator(lambda S, ctx: ctx.asarray(S.sum((1, 2))), "lower", (None, None),
                           floats=floats)
    with pytest.raises(_NotExact, match="defined differently"):
        ev(np.ones((2, 2, 2), dtype=np.int64))


def test_a_division_by_zero_is_undefined_like_a_value_error():
    """Fractions raise ZeroDivisionError where float64 gives inf: the matrix is
    isolated by halving and undefined, the others keep their values."""
    def f(S, ctx):
        return ctx.divide(ctx.asarray(np.ones(len(S), dtype=np.int64)), ctx.asarray(S[:, 0, 0]))

    ev = RationalEvaluator(f, "lower", (None, None))
    S = np.array([[[2, 0], [0, 0]], [[0, 1], [0, 0]], [[4, 0], [0, 0]]])
    S[:, 1, 1] = [0, 1, 0]  # equal totals in pairs: one group per total
    v, d = ev(S)
    assert d.tolist() == [True, False, True] and [Fraction(x) for x in v[d]] == [
        Fraction(1, 2), Fraction(1, 4)]


@pytest.mark.parametrize("use_gmpy2", [False, True])
def test_both_rational_number_types_give_the_same_values(use_gmpy2):
    """Fraction and gmpy2.mpq (when installed: the test extra installs it) are the
    same numbers; the values are those of numeric's exact (SymPy) arithmetic."""
    ctx = rationals(use_gmpy2)
    if use_gmpy2:
        import gmpy2  # noqa: F401  (the test extra installs it: an ImportError here is a failure)

        assert ctx.name == "rational (gmpy2)"
    else:
        assert ctx.name == "rational"
    rng = np.random.default_rng(5)
    S = rng.integers(0, 4, size=(30, 3, 3))
    S[:, 0, 0] += 1
    for name in ("mae", "uoc", "cohen_kappa", "a_uoc"):
        m = REGISTRY[name]
        v = m.variant(0)
        ev = RationalEvaluator(lambda T, c: m.function(T, **v.kwargs(T[0]), arithmetic=c),
                               m.better, m.bounds, ctx)
        vals, d = ev(S)
        ref = [m.bind(v, "exact")(s) for s in S]
        assert d.all() and [ctx.fraction(x) for x in vals] == [Fraction(int(r.p), int(r.q))
                                                               for r in ref], name


@pytest.mark.parametrize("use_gmpy2", [False, True])
def test_the_rational_context_converts_scalars_and_arrays(use_gmpy2):
    """Counts in one numpy loop, a 0-d array or a scalar too (it came back as a bare
    number, which has no ``reshape``), floats and Fractions elementwise."""
    ctx = rationals(use_gmpy2)
    for x, shape in ((np.asarray(3), ()), (np.int64(4), ()), (5, ()),
                     (np.array([[1, 2]]), (1, 2)), (np.array([0.5, 2.0]), (2,)),
                     (np.array([4095, 4096, 10**12]), (3,)), (np.array([-1, 2]), (2,)),
                     (np.zeros((0, 2), dtype=np.int64), (0, 2))):
        out = ctx.asarray(x)
        assert isinstance(out, np.ndarray) and out.dtype == object and out.shape == shape
        assert [ctx.fraction(v) for v in out.reshape(-1)] == [
            Fraction(v) for v in np.asarray(x).reshape(-1).tolist()]
    assert ctx.asarray(np.array([True])).tolist() == [1]


def test_tolerance_is_zero_for_exact_values():
    assert tolerance(np.array([Fraction(1, 3)], dtype=object), Fraction(1)) == 0
    assert tolerance(np.array([0.5]), Fraction(1, 3)) == 0
    assert float(tolerance(np.array([3.0]), 0.5)[0]) == pytest.approx(3e-9)


# ---------------------------------------------------------------------------
# the chunk's flagged list: a candidate after the ties is never dropped
# ---------------------------------------------------------------------------
def _cell01(A):
    A = np.asarray(A)
    return int(A[0, 1]) if A.shape[0] > 1 else 0


def _cell01_vec(S):
    return np.asarray(S, dtype=float)[:, 0, 1]


def test_a_candidate_after_more_ties_than_are_flagged_is_still_checked(monkeypatch):
    """f(A) = n_01 is not symmetric; in each chunk of K = 2 the matrices with
    n_01 = n_10 are ties and come first ([[N, 0], [0, 0]] ...).  With one flagged
    entry per chunk, the old list (the first entries only) held a tie and never a
    candidate: "holds".  Now every candidate is sent: the first counterexample."""
    monkeypatch.setattr(E, "_FLAGGED", 1)
    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    res = A.audit(_cell01, ["symmetry"], vectorized=_cell01_vec, space=sp, prove=False,
                  tie_budget=0).results["symmetry"]
    assert res.verdict == "fails" and res.counterexample.tolist() == [[0, 0], [1, 0]]
    # a tie before it was not decided: not certified minimal
    assert not res.minimal


def test_triangle_candidates_beyond_the_cap_all_refuted_is_an_error(monkeypatch):
    """The same rule for the triangle (its count of candidates was the flagged
    ones', so the cap could never be seen exceeded): a vectorised distance
    n_01^2 + n_10^2 that breaks the triangle, an exact one that is 0 everywhere."""
    monkeypatch.setattr(E, "_FLAGGED", 1)
    monkeypatch.setattr(E, "_CANDIDATES", 1)
    sp = Space(exhaustive=((2, 1),), random=0, triangle=((2, 3),), triangle_random=0,
               diagonal=())

    def vec(S):
        S = np.asarray(S, dtype=float)
        return S[:, 0, 1] ** 2 + S[:, 1, 0] ** 2

    with pytest.raises(RuntimeError, match="float screen disagrees"):
        A.audit(lambda A_: 0, ["triangle"], vectorized=vec, space=sp, bounds=(0, None),
                prove=False)


def _late(A):
    A = np.asarray(A)
    if A.shape[0] < 2 or A.sum() < 2:
        return 0
    if A[0, 1] == A[1, 0]:
        raise UndefinedMetric("undefined on a symmetric matrix with N >= 2")
    return int(A[0, 1])


def _late_vec(S):
    S = np.asarray(S)
    late = S.sum(axis=(1, 2)) >= 2
    if (late & (S[:, 0, 1] == S[:, 1, 0])).any():
        raise UndefinedMetric("undefined")  # the stack is halved down to the matrices that raise
    return np.where(late, S[:, 0, 1], 0).astype(float)


def test_ties_not_flagged_are_unconfirmed_for_a_later_counterexample(monkeypatch):
    """f = n_01 from N = 2 on (undefined where n_01 = n_10: no tie there), 0
    before: the N = 1 chunk has four ties; with one flagged entry per chunk, one
    is decided (the budget allows 100) and three are never looked at, so the
    counterexample of N = 2 is not certified minimal (it was, when the ties a
    chunk did not send were forgotten)."""
    monkeypatch.setattr(E, "_FLAGGED", 1)
    sp = Space(exhaustive=((2, 2),), random=0, triangle=(), diagonal=())
    res = A.audit(_late, ["symmetry"], vectorized=_late_vec, space=sp, prove=False,
                  tie_budget=100).results["symmetry"]
    assert res.verdict == "fails" and res.counterexample.sum() == 2
    assert not res.minimal and "not certified minimal" in res.how
    monkeypatch.setattr(E, "_FLAGGED", 2000)
    res = A.audit(_late, ["symmetry"], vectorized=_late_vec, space=sp, prove=False,
                  tie_budget=100).results["symmetry"]
    assert res.verdict == "fails" and res.minimal


def test_candidates_beyond_the_cap_all_refuted_is_an_error(monkeypatch):
    """A vectorised form that disagrees with the exact one (it says n_01, the exact
    metric is 0 everywhere): every float candidate is refuted; past the cap the
    engine refuses to give a verdict rather than say "holds"."""
    monkeypatch.setattr(E, "_FLAGGED", 1)
    monkeypatch.setattr(E, "_CANDIDATES", 1)
    sp = Space(exhaustive=((2, 4),), random=0, triangle=(), diagonal=())
    with pytest.raises(RuntimeError, match="float screen disagrees"):
        A.audit(lambda A_: 0, ["symmetry"], vectorized=_cell01_vec, space=sp, prove=False)


def _tiny_exact(m):
    """The exact value of :func:`_tiny` on one matrix (a user's callable)."""
    m = np.asarray(m)
    N = int(m.sum())
    return Fraction(N - int(np.trace(m)), N) + Fraction(int(m[0, 1]), 10**12)


def _tiny_stack(S):
    return _tiny(S)


def test_a_callable_s_ties_are_decided_by_its_own_exact_values():
    """A callable with a vectorised form: its ties are decided by the callable
    itself on the stack of ties (CallableEvaluator), so the 10^-12 asymmetry
    is found with no per-matrix budget and called minimal; without
    ``exact_ties`` it is missed (a float tie)."""
    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    kw = dict(space=sp, prove=False, tie_budget=0, vectorized=_tiny_stack, bounds=(0, 2))
    res = A.audit(_tiny_exact, ["symmetry", "scale"], exact_ties=True, **kw).results
    assert res["symmetry"].verdict == "fails" and res["symmetry"].minimal
    assert res["symmetry"].counterexample.tolist() == [[0, 0], [1, 0]]
    assert res["scale"].verdict == "fails"  # f(2A) - f(A) = n_01 / 10^12
    assert res["scale"].counterexample.tolist() == [[0, 1], [0, 0]]
    res0 = A.audit(_tiny_exact, ["symmetry", "scale"], **kw).results
    assert res0["symmetry"].verdict == res0["scale"].verdict == "holds"
    assert res0["symmetry"].ties_confirmed == 0


def test_a_callable_s_exact_values_are_read_as_the_per_matrix_check_reads_them():
    """ints and Fractions as they are, a float as its binary fraction, a SymPy
    root as a closed form, ValueError as undefined; a NaN is refused
    (_NotExact: the per-matrix check reports the broken metric)."""
    import sympy

    from exactfloor.closedform import ClosedForm

    def f(m):
        n = int(m.sum())
        if n == 3:
            raise UndefinedMetric("undefined at N = 3")
        return {1: 1, 2: Fraction(1, 3), 4: 0.1, 5: sympy.sqrt(2) / 2}.get(n, sympy.Integer(n))

    ev = E.CallableEvaluator(f, "lower", (0, None))
    S = np.zeros((6, 2, 2), dtype=np.int64)
    S[:, 0, 0] = [1, 2, 3, 4, 5, 6]
    v, d = ev(S)
    assert d.tolist() == [True, True, False, True, True, True]
    assert [ev.ctx.fraction(x) for x in v[[0, 1, 3, 5]]] == [1, Fraction(1, 3), Fraction(0.1), 6]
    assert isinstance(v[4], ClosedForm) and v[4] * v[4] == Fraction(1, 2)
    bad = E.CallableEvaluator(lambda m: float("inf"), "lower", (None, None))
    with pytest.raises(_NotExact, match="not a finite real number"):
        bad(S[:1])
    # NaN or None says "undefined" (issue 37 item 1), as to the per-matrix check
    nan = E.CallableEvaluator(lambda m: None if m.sum() == 2 else float("nan"), "lower", (0, None))
    assert nan(S[:3])[1].tolist() == [False, False, False]


def test_a_callable_that_cannot_be_pickled_runs_in_this_process():
    """``metric`` goes to the workers with the spec when ``exact_ties``: a lambda
    cannot, so the search runs here, with the same result."""
    sp = Space(exhaustive=((2, 3),), random=0, triangle=(), diagonal=())
    res = A.audit(lambda m: _tiny_exact(m), ["symmetry"], space=sp, prove=False, tie_budget=0,
                  vectorized=_tiny_stack, bounds=(0, 2), exact_ties=True, jobs=2).results
    assert res["symmetry"].counterexample.tolist() == [[0, 0], [1, 0]]


def test_the_command_line_flag_reaches_every_metric(monkeypatch):
    """``--exact-ties`` reaches audit for every metric, A_UOC included (the property
    table has no exception since A_UOC's stacks are searched together)."""
    from ordinal_verify import audit_cmd

    seen = []
    monkeypatch.setattr(A, "audit", lambda name, **kw: seen.append((name, kw["exact_ties"])))
    audit_cmd._audit_one("a_uoc", "A_UOC", None, (), {"exact_ties": True})
    audit_cmd._audit_one("mae", "MAE", None, (), {"exact_ties": False})
    assert seen == [("a_uoc", True), ("mae", False)]


def test_the_command_line_decides_every_tie():
    out = subprocess.run(
        [sys.executable, "-m", "ordinal_verify", "audit", "mae", "--max-k", "2", "--max-n", "3",
         "--random", "0", "--jobs", "1", "--exact-ties", "--tie-budget", "0"],
        capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.lstrip().startswith("scale"))
    assert "all decided exactly" in line and "agreeing to 1e-9" not in line
