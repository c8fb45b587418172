"""Tests that kill the surviving mutants of ``analytic.properties.audit`` (docs/mutation.md,
"the auditor").  Each test names the mutants it kills (numbers as in
``mutmut show``) and states why its expected values are right.

The exact search (``_exact_search``, ``_exact_triples``: a callable without a
vectorised form, or ``exact=True``) is checked against the float screen
confirmed exactly (``analytic.properties.engine``), which is tested against
brute force in ``test_property_engine.py``: on the same space both must find
the same verdicts, counterexamples, counts and texts.  Texts are behaviour:
the evidence strings are committed in ``docs/properties.md``.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from exactfloor.errors import UndefinedMetric
import numeric

from analytic.properties import audit as A
from analytic.properties import prover as P
from analytic.properties.space import Space

#: a small space with every part: exhaustive, random, triangle (a smaller K
#: searched to a larger n, so that ``n > m`` skips K = 2 and not K = 3), diagonal
SPACE = Space(exhaustive=((1, 3), (2, 3), (3, 2)), random=30, random_k=3, random_n=4, seed=0,
              triangle=((2, 1), (3, 2)), triangle_random=0, diagonal=((3, 4),), chunk=7)



class _CountingExecutor(ThreadPoolExecutor):
    """A thread pool that counts the tasks submitted to it (an executor given to
    ``audit`` must receive the search's chunks)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tasks = 0

    def submit(self, fn, *args, **kwargs):
        self.tasks += 1
        return super().submit(fn, *args, **kwargs)

def _row0_share(A):
    """A[0, 0] over the first row: undefined (ValueError) on an empty first row."""
    s = int(A[0].sum())
    if s == 0:
        raise UndefinedMetric("empty first row")
    return Fraction(int(A[0, 0]), s)


def _row0_share_vec(S):
    """The same on a stack (ValueError when one is undefined: the engine halves
    the stack to find which)."""
    S = np.asarray(S, dtype=float)
    s = S[:, 0].sum(axis=-1)
    if (s == 0).any():
        raise UndefinedMetric("empty first row")
    return S[:, 0, 0] / s


def _pairs():
    for name in ("mer", "mae", "mse", "amae"):
        yield name, (A.audit(name, space=SPACE, prove=False, exact=True),
                     A.audit(name, space=SPACE, prove=False, exact=False))
    kw = dict(vectorized=_row0_share_vec, space=SPACE, prove=False, bounds=(0, 1), better="higher")
    yield "row0", (A.audit(_row0_share, exact=True, **kw), A.audit(_row0_share, **kw))


@pytest.fixture(scope="module")
def reports():
    return dict(_pairs())


def test_the_exact_search_agrees_with_the_float_screen(reports):
    """``_exact_search`` 3, 5, 6 (``exact`` not True), 8, 9 (the diagonal region
    not recognised), 12 to 18 (the sample sizes of the diagonal part), 20 (a
    diagonal counterexample taken as random), 21 to 24, 32 to 34 and 45 to 47
    (the counts of checked and defined bases), 52 to 59 (how it was found);
    ``_exact_triples`` 3, 5, 8, 19, 20, 23, 24, 31 to 39 (the walk over the
    triples and its counts).

    Both searches walk the same bases in the same order (exhaustive part by
    (N, K, lexicographic), then the random part; diagonal matrices by N; triples
    by (n, K)) and stop at the first counterexample, so every verdict,
    counterexample, witness, count of checked and undefined bases and "how" is
    the same; only the kind of search differs (``exact``), as the evidence says.
    The user metric is undefined on an empty first row, so "undefined" counts
    are not all 0.
    """
    undefined = 0
    for name, (ex, fl) in reports.items():
        assert list(ex.results) == list(fl.results)
        for p, x in ex.results.items():
            y = fl.results[p]
            assert (x.verdict, x.checked, x.undefined, x.minimal, x.witness) == \
                   (y.verdict, y.checked, y.undefined, y.minimal, y.witness), (name, p)
            assert str(x.counterexample) == str(y.counterexample), (name, p)
            if x.verdict != "n/a":
                assert x.exact is True and y.exact is False, (name, p)
                assert "checked by exact arithmetic (" in x.search_text()
                assert "checked by a float64 screen confirmed exactly (" in y.search_text()
            if p != "triangle":
                assert x.how == y.how, (name, p)
            undefined += x.undefined
    assert undefined > 0
    # the counterexamples found: exhaustive ones (minimal) and a random one, shrunk
    hows = {x.how for ex, _ in reports.values() for x in ex.results.values() if x.verdict == "fails"}
    assert "exhaustive: the first counterexample in the order (N, K, lexicographic)" in hows


def test_the_exact_triangle_search_names_the_first_triple(reports):
    """``_exact_triples`` 50 (``w = None``), 55 to 63 (the counterexample, its
    minimality, how it was found).

    MSE (squared distance of the classes) violates the triangle inequality on
    a = [0], b = [1], c = [2] with K = 3: d(a, c) = 4 > d(a, b) + d(b, c) = 2.
    Triples with b = a or c = b are skipped.  n = 1, K = 2: (0, 1, 0) and
    (1, 0, 1), a = c, no violation; n = 1, K = 3, lexicographically: (0, 1, 0),
    then (0, 1, 2), the first violation: 4 triples checked.
    """
    x = reports["mse"][0].results["triangle"]
    assert x.verdict == "fails" and x.minimal and x.checked == 4
    assert x.counterexample == ((0,), (1,), (2,), 3)
    assert x.how == "exhaustive: the first triple in the order (n, K, lexicographic)"
    assert x.cell() == "fails a=[0], b=[1], c=[2] (K=3)"


def test_an_exact_search_without_triangle_part_is_empty():
    """``_exact_triples`` 11, 13 (``max`` of no sizes without ``default=0``);
    ``_verdict`` 124 (the fields of an empty search dropped: it was exact).

    A space without a triangle part: the exact triangle search checks nothing,
    and the verdict is "n/a" (an empty search is not "holds")."""
    sp = Space(exhaustive=((2, 2),), random=0, triangle=(), triangle_random=0, diagonal=())
    r = A.audit("mse", ["triangle"], space=sp, prove=False, exact=True).results["triangle"]
    assert (r.verdict, r.checked, r.exact) == ("n/a", 0, True)
    assert r.witness.startswith("empty search: no matrix of the searched space is one the property speaks of")


def test_search_texts_state_kind_counts_and_ties():
    """``PropertyResult.search_text`` 1 to 7, 9, 10, 12, 16, 18, 19.

    The text committed in docs/properties.md: ``{checked:,} checked by {kind}
    ({searched})``, then ``, {undefined:,} of them undefined`` when some are,
    then ``; {ties:,} float ties, `` and "all decided exactly" or how many were
    decided and how many (ties - decided) agree to 1e-9 in float64 only.
    """
    r = A.PropertyResult("symmetry", "holds", searched="S", checked=1234, undefined=5, ties=7,
                         ties_confirmed=3)
    assert r.search_text() == ("1,234 checked by a float64 screen confirmed exactly (S), 5 of them "
                               "undefined; 7 float ties, 3 decided exactly, 4 agreeing to 1e-9 in "
                               "float64 only")
    r = A.PropertyResult("symmetry", "holds", searched="S", checked=10, ties=2, ties_confirmed=2,
                         exact=True)
    assert r.search_text() == "10 checked by exact arithmetic (S); 2 float ties, all decided exactly"


def test_evidence_of_each_verdict():
    """``PropertyResult.evidence`` 2, 3 (the "proved" branch), 11 (``or``: a
    failing property without a proof), 13 (``text =``); ``_counterexample_k``
    3, 5 (a triangle counterexample's K is its 4th entry).

    proved: the proof's scope and the search; fails: the witness and how, and,
    when a smaller scope was proved, that scope and the K of the counterexample.
    """
    proof = P.Proof("scale", (P.Scope(1, "every"), P.Scope(2, "every")))
    r = A.PropertyResult("scale", "proved", searched="S", checked=3, proof=proof)
    assert r.evidence() == ("proved symbolically on every matrix with K = 1; every matrix with K = 2; "
                            "no counterexample among 3 checked by a float64 screen confirmed exactly (S)")
    r = A.PropertyResult("symmetry", "fails", np.array([[1]]), "w", how="h")
    assert r.evidence() == "w (h)"
    r = A.PropertyResult("symmetry", "fails", np.zeros((3, 3), dtype=int), "w", how="h", proof=proof)
    assert r.evidence() == "w (h); proved for K <= 2, fails at K = 3"
    r = A.PropertyResult("triangle", "fails", ((0,), (1,), (2,), 3), "w", how="h", proof=proof)
    assert r.evidence() == "w (h); proved for K <= 2, fails at K = 3"


def test_bounds_must_be_a_pair():
    """``_pair`` 1, 2 (``and`` for ``or``), 6 (the message).

    A string is refused even when it has two characters; an iterable of one
    bound is refused; the message names the value."""
    for bad in ("ab", (0,), 5, (0, 1, 2)):
        with pytest.raises(TypeError, match=r"^bounds must be a pair \(lower bound, upper bound\), got "):
            A._pair(bad)
    with pytest.raises(TypeError, match=r"got \(0,\)$"):
        A._pair((0,))
    assert A._pair([0, 1]) == (0, 1)


def test_space_of_the_size_arguments():
    """``space_of`` 1 (``seed=1``), 3, 9, 10, 22, 28, 29, 36, 42, 43 (the names
    in the refusals), 12 to 16 (which arguments select the default space), 20
    (the seed of the default space), 32 (max_k defaults to 3).

    No size argument: the default space with the given seed (0 by default).
    Any size argument: every matrix with K <= max_k (3 by default) and N <= max_n
    (3 by default), ``random`` random ones (24 by default).
    """
    d = Space(exhaustive=((1, 1),), random=0, triangle=(), diagonal=())
    assert A.space_of(default=d) == d and A.space_of(default=d).seed == 0
    assert A.space_of(seed=5, default=d).seed == 5
    s = A.space_of(max_n=2, default=d)
    assert s.exhaustive == ((1, 2), (2, 2), (3, 2)) and s.random == 24
    s = A.space_of(max_k=2, default=d)
    assert s.exhaustive == ((1, 3), (2, 3)) and s.random == 24
    s = A.space_of(random=5, default=d)
    assert s.exhaustive == ((1, 3), (2, 3), (3, 3)) and s.random == 5
    for kw, msg in (({"seed": -1}, "seed must be an integer >= 0, got -1"),
                    ({"max_k": 0}, "max_k must be an integer >= 1, got 0"),
                    ({"max_n": 0}, "max_n must be an integer >= 1, got 0")):
        with pytest.raises(ValueError, match=f"^{msg}$"):
            A.space_of(**kw)


def test_space_of_builds_the_documented_space():
    """``space_of`` 46, 50 to 60 (the default and the name of ``random``), 63 to
    70 and 67 (the limit ``MAX_SIZE_ARG`` = 1,000 and its message), 82 to 104
    (the fields of the space).

    The docstring: every matrix with K <= max_k and N <= max_n; random
    matrices with K <= max_k + 1 (at least 2) and N <= 2 max_n; the triangle
    on label vectors of length <= min(max_n, 3), 2 <= K <= max_k, no random
    triples; imbalance on diagonal matrices with N <= 2 max_n, 3 <= K <= max_k.
    """
    assert A.space_of(max_k=3, max_n=4, random=7, seed=2) == Space(
        exhaustive=((1, 4), (2, 4), (3, 4)), random=7, random_k=4, random_n=8, seed=2,
        triangle=((2, 3), (3, 3)), triangle_random=0, diagonal=((3, 8),))
    assert A.space_of(max_k=1, max_n=1, random=0) == Space(
        exhaustive=((1, 1),), random=0, random_k=2, random_n=2, seed=0, triangle=(),
        triangle_random=0, diagonal=())
    s = A.space_of(max_k=2, random=0)
    assert s.exhaustive == ((1, 3), (2, 3)) and s.random_n == 6
    with pytest.raises(ValueError, match="^random must be an integer >= 0, got -1$"):
        A.space_of(random=-1)
    assert A.space_of(max_k=1, max_n=1000, random=0).exhaustive == ((1, 1000),)
    for kw, name in (({"max_k": 1001}, "max_k"), ({"max_n": 1001}, "max_n")):
        with pytest.raises(ValueError, match=f"^{name} must be at most 1,000, got 1,001 \\(the search "
                                             "space would be too large to search\\)$"):
            A.space_of(random=0, **kw)


def test_counterexample_texts():
    """``PropertyResult.counterexample_text`` 2 (``matrix_text(None)``), 3 (``or``).

    A matrix is shown by ``matrix_text`` (rows = true class), a triple of label
    vectors with its K, anything else by ``str`` (a four-character string is
    not a triple)."""
    r = A.PropertyResult("symmetry", "fails", np.array([[1, 0], [2, 3]]), "w")
    assert r.cell() == "fails [[1, 0], [2, 3]]"
    r = A.PropertyResult("triangle", "fails", ((0, 1), (1, 1), (2, 2), 3), "w")
    assert r.counterexample_text() == "a=[0, 1], b=[1, 1], c=[2, 2] (K=3)"
    assert A.PropertyResult("x", "fails", "abcd").counterexample_text() == "abcd"


def test_the_property_table_on_a_tiny_space():
    """``property_table`` 1 to 31 and ``table_markdown`` 1 to 16 (not reached by
    the fast tests before: the whole table takes minutes, test_property_table.py).

    On a tiny space without proofs the table is every case of every registered
    matrix metric (``numeric.registry.matrix_metrics``), in registry order, each
    row the cached ``audit_registered`` report of that case on that space and
    scopes with one job (the same object); ``progress`` is called before each
    case with (index, count, label) and once at the end with (count, count, "").
    The Markdown is the table module's rendering of those rows, and states the
    searched space.
    """
    from analytic.properties.table import markdown, table_dict
    from numeric.registry import matrix_metrics

    tiny = Space(exhaustive=((1, 1), (2, 1)), random=0, triangle=((2, 1),), triangle_random=0,
                 diagonal=((3, 1),))
    cases = [(m.name, v.label) for m in matrix_metrics() for v in m.cases()]
    calls = []
    rows = A.property_table(tiny, (), progress=lambda *a: calls.append(a), falsify=None,
                            every_k=False)
    assert [(n, lab) for n, lab, _ in rows] == cases
    assert all(rep is A.audit_registered(n, lab, tiny, (), 1, False, None, False)
               for n, lab, rep in rows)
    assert calls == [(i, len(cases), lab) for i, (_, lab) in enumerate(cases)] + [(len(cases), len(cases), "")]
    assert A.property_table(tiny, (), falsify=None, every_k=False) == rows
    md = A.table_markdown(rows, tiny, ())
    assert md == markdown(table_dict(rows, tiny, ()))
    assert A.table_markdown(None, tiny, (), falsify=None, every_k=False) == md
    assert A.table_markdown(space=tiny, scopes=(), falsify=None, every_k=False) == md
    assert "- **Matrices**: every matrix with K <= 2 and N <= 1." in md


def test_the_positive_samples_of_the_cross_check():
    """``_positive_samples`` 1 (4 samples), 3 (unseeded), 6 (seeded by
    ``seed * 1001 + K``), 7 (not int64), 11 (cells in 0..3).

    The cross-check of an all-positive scope adds n = 3 random K x K matrices
    with every cell in 1..3 (instances of the scope), int64 like the searched
    matrices, reproducible: drawn by ``numpy.random.default_rng(seed * 1000 +
    K)`` (the same draws as the committed table's cross-checks)."""
    for seed, K in ((0, 4), (2, 3)):
        got = A._positive_samples(seed, K)
        rng = np.random.default_rng(seed * 1000 + K)
        assert len(got) == 3
        for m in got:
            assert m.dtype == np.int64 and m.shape == (K, K) and m.min() >= 1 and m.max() <= 3
            assert np.array_equal(m, rng.integers(1, 4, size=(K, K)))


def test_the_proof_of_a_higher_is_better_metric_is_oriented():
    """``_Prover.prove`` 14 (``better`` not passed to the prover: lower is better).

    Accuracy (the diagonal share; higher is better): a move toward the
    diagonal raises it or keeps it, so monotonicity is proved at K = 2 when
    higher is better; taken as lower is better the proof is refused
    (test_prover.py::test_the_orientation_and_the_bounds_of_a_proof) and the
    verdict would stay "holds"."""
    def acc(m):
        return Fraction(int(np.trace(m)), int(m.sum()))

    def acc_sym(m):
        import sympy as sp
        return sp.Add(*[m[i, i] for i in range(m.shape[0])]) / sp.Add(*m.ravel())

    r = A.audit(acc, ["monotonicity"], symbolic=acc_sym, better="higher", bounds=(0, 1),
                max_k=2, max_n=2, random=0, prove=P.scopes(2, 0)).results["monotonicity"]
    assert r.verdict == "proved" and r.proof.short() == "K <= 2"


def _ctx_bad_at(n_bad):
    """An exact context whose metric leaves the range [0, 1] exactly when N = n_bad."""
    from analytic.properties.exact import ExactContext

    return ExactContext(lambda m: Fraction(5) if int(m.sum()) == n_bad else Fraction(0), "lower", (0, 1))


def test_the_cross_check_of_a_proof_and_its_messages():
    """``_cross_check`` 5, 33 (the matrices in the messages), 14 (N <= 4), 15
    (``covers(None)``: no matrix checked), 19 (``mats =``: the all-positive
    scope's matrices with N <= 3 replaced by the random samples).

    The docstring: a proved scope is contradicted when the search's
    counterexample lies in it, or when the property's check fails on one of its
    matrices with N <= 3 or on three seeded random all-positive ones.  With
    K = 1 those are [[1]], [[2]], [[3]] and, for the all-positive scope, the
    samples [[2]], [[2]], [[3]] of seed 0 (checked below).
    """
    rng_proof = P.Proof("range", (P.Scope(1, "every"),))
    res = A.PropertyResult("range", "fails", np.array([[1]]), "w")
    with pytest.raises(RuntimeError) as exc:
        A._cross_check(_ctx_bad_at(1), res, rng_proof, 0)
    assert str(exc.value) == "range: proved on every matrix with K = 1, but the search refutes it on [[1]]: w"
    holds = A.PropertyResult("range", "holds")
    with pytest.raises(RuntimeError) as exc:
        A._cross_check(_ctx_bad_at(3), holds, rng_proof, 0)
    assert str(exc.value) == ("range: proved on every matrix with K = 1, but the check fails on [[3]]: "
                              "f([[3]]) = 5 outside [0, 1]")
    A._cross_check(_ctx_bad_at(4), holds, rng_proof, 0)  # N = 4 is not checked
    assert [m.tolist() for m in A._positive_samples(0, 1)] == [[[2]], [[2]], [[3]]]
    with pytest.raises(RuntimeError, match=r"but the check fails on \[\[1\]\]"):
        A._cross_check(_ctx_bad_at(1), holds, P.Proof("range", (P.Scope(1, "positive"),)), 0)


def test_the_diagonal_part_in_words():
    """``_diagonal_text`` 3: the populated twin of imbalance says so."""
    sp = Space(exhaustive=(), random=0, triangle=(), diagonal=((3, 4), (4, 2)))
    assert A._diagonal_text(sp, A.PROPERTIES["imbalance"]) == "diagonal matrices K = 3, N <= 4; K = 4, N <= 2"
    assert A._diagonal_text(sp, A.PROPERTIES["imbalance_populated"]) == \
        "diagonal matrices K = 3, N <= 4; K = 4, N <= 2, every class populated"


def test_a_variant_s_symbolic_form_takes_its_own_arguments():
    """``_variant_symbolic`` 5, 7 (the variant's keyword arguments dropped or
    computed from None); the binding is now the registry's ``Metric.bind``, which
    the audit calls with the exact and the symbolic arithmetic.

    Cohen's kappa with linear and with quadratic weights differ on 3 x 3
    matrices (the weights |i - j| and (i - j)^2 differ at distance 2): on the
    generic all-positive 3 x 3 matrix the two symbolic forms, evaluated at the
    instance [[1, 2, 3], [4, 5, 6], [7, 8, 10]], are each variant's exact value,
    and these differ."""
    import sympy as sp
    from numeric._symbolic import SymbolicArithmetic
    from numeric.registry import REGISTRY

    m = REGISTRY["cohen_kappa"]
    lin, quad = (next(v for v in m.cases() if v.label == lab)
                 for lab in ("linear weighted kappa", "quadratic weighted kappa"))
    g = P.generic_matrix(3, [(i, j) for i in range(3) for j in range(3)])
    inst = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]])
    point = {g[i, j]: sp.Integer(int(inst[i, j])) for i in range(3) for j in range(3)}
    values = []
    for v in (lin, quad):
        exact = m.bind(v, "exact")(inst)
        assert sp.simplify(m.bind(v, SymbolicArithmetic())(g).xreplace(point) - exact) == 0
        values.append(exact)
    assert values[0] != values[1]


def test_variants_are_chosen_by_label_or_index():
    """``_variant`` 5, 13 to 16 (the refusals and their messages: an index is
    0..len - 1); the lookup is now the registry's ``Metric.variant``, which the
    audit calls."""
    from numeric.registry import REGISTRY

    m = REGISTRY["uoc"]
    labels = [v.label for v in m.cases()]
    assert m.variant(1).label == labels[1] and m.variant(labels[0]).label == labels[0]
    for bad in (len(labels), -1, True):
        with pytest.raises(ValueError) as exc:
            m.variant(bad)
        assert str(exc.value) == (f"variant must be a label or an index 0..{len(labels) - 1} of "
                                  f"{labels}, got {bad!r}")
    with pytest.raises(ValueError) as exc:
        m.variant("nonsense")
    assert str(exc.value) == f"uoc has no variant 'nonsense'; expected one of {labels}"


def test_texts_of_the_triangle_part_and_pickling():
    """``_triangle_text`` 2, 4, 5, 6 (the parts joined by "; ", the random
    triples appended); ``_can_pickle`` 1 (a spec with a lambda cannot be sent
    to a process pool: the search then runs in this process)."""
    from analytic.properties.engine import MetricSpec

    sp = Space(exhaustive=(), random=0, triangle=((2, 4), (3, 3)), triangle_random=200, triangle_n=8,
               diagonal=())
    assert A._triangle_text(sp) == ("every triple of label vectors of length n <= 4 over K = 2 classes; "
                                    "every triple of label vectors of length n <= 3 over K = 3 classes; "
                                    "200 random triples (n <= 8)")
    sp = Space(exhaustive=(), random=0, triangle=((2, 1),), triangle_random=0, diagonal=())
    assert A._triangle_text(sp) == "every triple of label vectors of length n <= 1 over K = 2 classes"
    assert not A._can_pickle(MetricSpec(vectorized=lambda S: S))
    assert A._can_pickle(MetricSpec(name="mae", variant="MAE"))


def test_each_verdict_states_what_was_searched(reports):
    """``_verdict`` 2, 6, 7, 8 (which part of the space a verdict names).

    The triangle names its triples, imbalance (and its populated twin) the
    diagonal matrices, every other property the matrices of the space (its
    ``describe()``), the populated twins restricted to matrices without an
    empty row, ``unobserved_class`` to matrices with one."""
    res = reports["mae"][1].results
    assert res["triangle"].searched == ("every triple of label vectors of length n <= 1 over K = 2 classes; "
                                        "every triple of label vectors of length n <= 2 over K = 3 classes")
    assert res["imbalance"].searched == "diagonal matrices K = 3, N <= 4"
    assert res["imbalance_populated"].searched == "diagonal matrices K = 3, N <= 4, every class populated"
    assert res["symmetry"].searched == SPACE.describe()
    assert res["ordinal_monotonicity_populated"].searched == SPACE.describe() + ", matrices without an empty row"
    assert res["unobserved_class"].searched == SPACE.describe() + ", matrices with an empty row"


def test_float_ties_are_counted_and_decided_exactly(reports):
    """``_verdict`` 48 (``ties_confirmed`` not passed on).

    MER's symmetry: ``f(A^T) = f(A)`` holds exactly, so every base matrix is a
    float tie of an equality, decided in exact arithmetic while fewer than
    ``TIE_BUDGET`` (1,000) ties have been met; the exact search has no ties."""
    ex, fl = reports["mer"]
    r = fl.results["symmetry"]
    assert r.ties > 0 and r.ties_confirmed == min(r.ties, A.TIE_BUDGET)
    assert ex.results["symmetry"].ties == 0
    assert r.search_text().endswith(f"; {r.ties:,} float ties, all decided exactly")


def test_undefined_bases_are_counted_for_a_verdict_without_counterexample():
    """``_verdict`` 49 to 54 (the count of undefined bases: ``checked -
    defined`` when no counterexample was found, 0 for a failing property,
    whose search stopped early).

    Every matrix with K <= 2 and N <= 2: K = 1: [[1]], [[2]]; K = 2: 4 with
    N = 1 and C(5, 3) = 10 with N = 2; 16 in all.  The share of A[0, 0] in the
    first row is undefined where the first row is empty: 2 matrices with N = 1
    and 3 with N = 2 (the samples spread over the second row: (2, 0), (1, 1),
    (0, 2)), 5 in all.  It is scale-invariant (holds: 5 undefined of 16) and
    not symmetric (fails: 0 counted)."""
    sp = Space(exhaustive=((1, 2), (2, 2)), random=0, triangle=(), triangle_random=0, diagonal=())
    for kw in ({}, {"vectorized": _row0_share_vec}):
        res = A.audit(_row0_share, ["scale", "symmetry"], space=sp, prove=False, bounds=(0, 1), **kw).results
        assert (res["scale"].verdict, res["scale"].checked, res["scale"].undefined) == ("holds", 16, 5)
        assert res["symmetry"].verdict == "fails" and res["symmetry"].undefined == 0
        assert "(every matrix with K <= 2 and N <= 2), 5 of them undefined" in res["scale"].search_text()


def test_a_random_counterexample_is_shrunk_and_its_witness_is_the_shrunk_one():
    """``_verdict`` 76, 78 (the budget of the exhaustive walk, 3,000), 95 (the
    witness of the random matrix kept instead of the shrunk one's), 109 (the
    counts of "undefined everywhere").

    f = 5 (outside the range [0, 1]) on 3 x 3 matrices with N >= 9, else 0.
    Only the random part (K <= 3, N <= 12) has such matrices: the first found
    is shrunk greedily (a sample removed while N > 9 keeps it a counterexample;
    a class removed does not), so the result has N = 9 and K = 3 and the
    witness is its value; the exhaustive walk below a 3 x 3 matrix with N = 9
    visits more than 3,000 matrices (C(9 + 8, 8) = 24,310 with N = 9 alone), so
    it is not walked and the text says so: not certified minimal."""
    sp = Space(exhaustive=(), random=60, random_k=3, random_n=12, seed=0, triangle=(), triangle_random=0,
               diagonal=())

    def f(m):
        return Fraction(5) if int(m.sum()) >= 9 and m.shape[0] == 3 else Fraction(0)

    r = A.audit(f, ["range"], space=sp, prove=False, bounds=(0, 1)).results["range"]
    m = r.counterexample
    assert r.verdict == "fails" and not r.minimal and m.shape == (3, 3) and m.sum() == 9
    assert r.witness == f"f({A.matrix_text(m)}) = 5 outside [0, 1]"
    assert r.how.startswith("random, then shrunk (greedy: ")
    assert r.how.endswith("K <= 3) exceeds the budget 3000)")


def test_a_metric_undefined_everywhere_is_not_applicable_with_its_counts():
    """``_verdict`` 109 (the counts of "undefined everywhere" dropped).

    Every matrix with K <= 2 and N <= 2 is 16 matrices (see above), all
    undefined: "n/a", 16 checked, 16 undefined, and the witness says so."""
    sp = Space(exhaustive=((1, 2), (2, 2)), random=0, triangle=(), triangle_random=0, diagonal=())

    def never(m):
        raise UndefinedMetric("never defined")

    r = A.audit(never, ["scale"], space=sp, prove=False, bounds=(0, 1)).results["scale"]
    assert (r.verdict, r.checked, r.undefined) == ("n/a", 16, 16)
    assert r.witness == ("the metric is undefined on every one of the 16 searched matrices "
                         "(every matrix with K <= 2 and N <= 2)")


def test_audit_refuses_bad_arguments_with_their_messages():
    """``_run`` 8, 13 (the messages), 11 (``and``: a single name, a string,
    would be read as a list of one-letter names)."""
    with pytest.raises(ValueError, match="^better must be 'lower' or 'higher', got 'best'$"):
        A.audit("mae", ["symmetry"], better="best", max_k=1, max_n=1, random=0, prove=False)
    with pytest.raises(TypeError, match="^properties must be a list of property names, got 'symmetry'$"):
        A.audit("mae", "symmetry", max_k=1, max_n=1, random=0, prove=False)


def test_the_walk_below_a_shrunk_counterexample_keeps_the_random_matrix_s_classes():
    """The walk below a shrunk random counterexample covers the classes of the
    random matrix (``max_k``).  (Meant for ``_verdict`` 71, 75, ``shrink``
    without ``max_k``; it does not kill them: the greedy result keeps the
    random matrix's classes here.  The next test, where greedy shrinking
    removes a class, does.)

    f = 5 (outside [0, 1]) when N >= 3.  Random matrices have 2 <= K <= 3
    (``random_k`` = 3; K is drawn from 2..random_k).  The first one with N >= 3
    is shrunk greedily to [[3]] (samples and classes removed while N >= 3), and
    the exhaustive walk below it covers N <= 3 and the classes of the random
    matrix found (K >= 2), where [[3]] is the first counterexample."""
    import re

    sp = Space(exhaustive=(), random=30, random_k=3, random_n=4, seed=0, triangle=(), triangle_random=0,
               diagonal=())
    r = A.audit(lambda m: Fraction(5) if int(m.sum()) >= 3 else Fraction(0), ["range"], space=sp,
                prove=False, bounds=(0, 1)).results["range"]
    assert r.counterexample.tolist() == [[3]] and not r.minimal
    k = re.fullmatch(r"random, then shrunk \(exhaustive: the first counterexample in the order \(N, K, "
                     r"lexicographic\) over N <= 3, K <= (\d)\)", r.how)
    assert k and int(k.group(1)) >= 2


def test_a_counterexample_shrunk_to_fewer_classes_is_walked_over_the_random_matrix_s_classes():
    """``_verdict`` 71, 75 (``shrink`` without ``max_k``: the walk would cover
    only the greedy result's classes) and 95 (the random matrix's witness kept
    instead of the shrunk matrix's).

    f = 5 (outside [0, 1]) when K >= 2 and N >= 3, else 0.  With seed 2 the
    four random sizes drawn are (K, N) = (2, 1), (2, 2), (3, 2), (3, 8)
    (``Space._random_groups``), so the only counterexample of the search is the
    3 x 3 matrix with N = 8, [[0, 0, 1], [0, 4, 2], [0, 0, 1]]
    (``Space.random_block(3, 8, 0, 1)``; both checked below).  Greedy shrinking
    takes the smallest neighbour (in N) that still fails: removing the second
    class leaves N = 2 (passes), removing the third class leaves
    [[0, 0], [0, 4]] (fails), then one sample less gives [[0, 0], [0, 3]]
    (K = 2, N = 3), where no sample or class can go; the exhaustive walk below it covers the
    random matrix's K <= 3 (``max_k=m.shape[0]``), not the greedy result's
    K <= 2, and finds nothing smaller: in the order (N, K, lexicographic) no
    matrix with N < 3 fails, and [[0, 0], [0, 3]] is the lexicographically
    first one with N = 3 and K = 2.  The witness is f of that shrunk matrix."""
    sp = Space(exhaustive=(), random=4, random_k=3, random_n=8, seed=2, triangle=(), triangle_random=0,
               diagonal=())
    assert sp._random_groups() == [((2, 1), 1), ((2, 2), 1), ((3, 2), 1), ((3, 8), 1)]
    assert sp.random_block(3, 8, 0, 1)[0].tolist() == [[0, 0, 1], [0, 4, 2], [0, 0, 1]]

    def f(m):
        return Fraction(5) if int(m.sum()) >= 3 and m.shape[0] >= 2 else Fraction(0)

    r = A.audit(f, ["range"], space=sp, prove=False, bounds=(0, 1)).results["range"]
    assert r.counterexample.tolist() == [[0, 0], [0, 3]] and not r.minimal
    assert r.how == ("random, then shrunk (exhaustive: no smaller counterexample in the order "
                     "(N, K, lexicographic) over N <= 3, K <= 3)")
    assert r.witness == "f([[0, 0], [0, 3]]) = 5 outside [0, 1]"


def test_a_report_names_its_metric_and_the_inapplicable_properties():
    """``_run`` 32 to 37 (the report's label, orientation, space), 42 to 47 (a
    property that does not apply: its name and why).

    A report is labelled by the variant (registry) or the function's name; it
    keeps ``better`` and the searched space.  Identity needs a best value
    (the bound on the better side) and range a bound: without bounds both are
    "n/a", saying so (the catalogue's ``not_applicable`` texts)."""
    sp = Space(exhaustive=((1, 1),), random=0, triangle=(), triangle_random=0, diagonal=())

    def share(m):
        return Fraction(int(np.trace(m)), int(m.sum()))

    rep = A.audit(share, ["identity", "range"], space=sp, prove=False, better="higher")
    assert (rep.label, rep.better, rep.space) == ("share", "higher", sp)
    assert [(r.property, r.verdict, r.witness) for r in rep.results.values()] == [
        ("identity", "n/a", "the better side is unbounded"), ("range", "n/a", "no bounds stated")]
    rep = A.audit("mae", ["symmetry"], space=sp, prove=False)
    assert (rep.label, rep.better) == ("MAE", "lower")


#: the pid of the process running the test, set when each test starts (not at
#: import: mutmut's fork server imports the test modules in one process and runs
#: each test in a child forked from it, whose pid differs)
_MAIN_PID = [os.getpid()]


@pytest.fixture(autouse=True)
def _record_the_test_s_pid():
    _MAIN_PID[0] = os.getpid()


def _mer_exact(m):
    return Fraction(int(m.sum() - np.trace(m)), int(m.sum()))


def _mer_in_a_worker(S):
    """MER on a stack (``numeric.mer``), refusing to run in the test's own process (module level:
    it can be pickled, so ``jobs=2`` sends it to a process pool)."""
    if os.getpid() == _MAIN_PID[0]:
        raise RuntimeError("evaluated in the main process")
    return numeric.mer(S)


def test_the_search_runs_on_the_executor_it_is_given():
    """``_run`` 54 to 59, 61 (when the audit makes its own process pool), 62,
    63 (a given executor ignored).

    ``jobs=2`` with a vectorised form that can be pickled: the search runs in
    a pool of 2 worker processes (the form refuses to run in this process);
    one that cannot be pickled (a lambda) runs here instead, with the same
    verdict.  A given executor is the one used (it counts its tasks)."""

    sp = Space(exhaustive=((1, 2), (2, 2)), random=0, triangle=(), triangle_random=0, diagonal=())
    r = A.audit(_mer_exact, ["symmetry"], vectorized=_mer_in_a_worker, space=sp, prove=False, jobs=2,
                bounds=(0, 1))
    assert r.results["symmetry"].verdict == "holds"
    vec = lambda S: (np.asarray(S).sum((1, 2)) - np.trace(S, axis1=1, axis2=2)) / np.asarray(S).sum((1, 2))  # noqa: E731
    r = A.audit(_mer_exact, ["symmetry"], vectorized=vec, space=sp, prove=False, jobs=2, bounds=(0, 1))
    assert r.results["symmetry"].verdict == "holds"

    with _CountingExecutor(1) as ex:
        r = A.audit(_mer_exact, ["symmetry"], vectorized=vec, space=sp, prove=False, executor=ex, bounds=(0, 1))
    assert r.results["symmetry"].verdict == "holds" and ex.tasks > 0


def _check(**kw):
    A.check_size(Space(**{"exhaustive": (), "random": 0, "triangle": (), "diagonal": (), **kw}))


def test_check_size_refuses_spaces_at_each_limit_with_its_message():
    """``check_size`` 2, 4 to 9, 16 to 22 (beyond 10^37 matrices: when the
    smaller of N and the cells of a matrix exceeds 64, C(n + c, c) >=
    C(130, 65) > 10^37; the part named), 25, 26 (at most ``MAX_SIZES`` =
    20,000 sizes (K, N)), 28, 30 to 32 (at most ``MAX_MATRICES`` = 2 x 10^8
    matrices; the cost at 10^6 matrices a second: 2 x 10^8 + 1 matrices take
    2e8 / 1e6 / 3600 = 0.056 hours)."""
    with pytest.raises(TypeError, match="^space must be an analytic.properties.Space, got 'x'$"):
        A.check_size("x")
    big = ("; at about 10^6 matrices per second it would take more than 10^27 hours per property: "
           "choose a smaller space")
    with pytest.raises(ValueError) as exc:
        _check(exhaustive=((9, 65),))
    assert str(exc.value) == "the search space holds more than 10^37 matrices (exhaustive part K = 9, N <= 65)" + big
    with pytest.raises(ValueError) as exc:
        _check(diagonal=((65, 65),))
    assert str(exc.value) == "the search space holds more than 10^37 matrices (diagonal part K = 65, N <= 65)" + big
    with pytest.raises(ValueError) as exc:  # min(64, 81) = 64: refused by its size instead
        _check(exhaustive=((9, 64),))
    assert str(exc.value).startswith("the search space holds ") and "(more than 2e+08)" in str(exc.value)
    _check(exhaustive=((1, 20000),))
    with pytest.raises(ValueError) as exc:
        _check(exhaustive=((1, 20001),))
    assert str(exc.value) == ("the search space has 20,001 sizes (K, N) in its exhaustive part (at most "
                              "20,000): choose a smaller space")
    _check(random=200_000_000)
    with pytest.raises(ValueError) as exc:
        _check(random=200_000_001)
    assert str(exc.value) == ("the search space holds 2e+08 matrices (more than 2e+08); at about 10^6 "
                              "matrices per second per property it would take about 0.056 hours per "
                              "property: choose a smaller space")


def test_the_triangle_search_gets_the_executor_and_the_tie_budget(reports):
    """``_run`` 98, 99 (the triangle left among the matrix properties), 109,
    114 (the triangle searched without the given executor), 115 (without the
    tie budget), 152 (the report's count of exact evaluations).

    MER's triangle meets float ties (72 on SPACE): with ``tie_budget=0`` none is
    decided exactly; with a given executor the triple search submits its tasks
    to it.  ``evaluations`` counts the exact evaluations (at least one per
    checked base of an exact search)."""

    r = A.audit("mer", ["symmetry", "triangle"], space=SPACE, prove=False, tie_budget=0).results
    assert r["triangle"].ties > 0 and r["triangle"].ties_confirmed == 0 and r["symmetry"].ties_confirmed == 0

    with _CountingExecutor(1) as ex:
        t = A.audit("mer", ["triangle"], space=SPACE, prove=False, executor=ex).results["triangle"]
    assert ex.tasks > 0 and t.verdict == reports["mer"][1].results["triangle"].verdict
    rep = A.audit(_row0_share, ["scale"], space=SPACE, prove=False, bounds=(0, 1))
    assert isinstance(rep.evaluations, int) and rep.evaluations >= rep.results["scale"].checked > 0


def test_check_size_states_the_cost_and_the_largest_block():
    """``check_size`` 32, 33 (the hours: size / 10^6 / 3600, two digits), 34 to
    44 (the largest block of more than 8 classes, ``C(n + K^2 - 1, n) K^2``
    cells, at most ``MAX_CELLS`` = 2^27).

    450,000,360 matrices take 0.1250001 hours: "0.13" (with 3601 seconds an
    hour, or 1,000,001 matrices a second, it would read "0.12").  With K = 9,
    N <= 4 the block of N = 4 holds C(84, 4) * 81 = 156,289,581 cells, more
    than 2^27 = 134,217,728 (while the space has only about 2 x 10^6
    matrices); with N <= 3, C(83, 3) * 81 = 7,442,361 cells are allowed."""
    with pytest.raises(ValueError) as exc:
        _check(random=450_000_360)
    assert str(exc.value).endswith("it would take about 0.13 hours per property: choose a smaller space")
    with pytest.raises(ValueError) as exc:
        _check(exhaustive=((9, 4),))
    assert str(exc.value) == ("the search space's exhaustive block of 9 x 9 matrices with N = 4 holds "
                              "1.56e+08 cells (more than 1.34e+08, 1 GiB): choose a smaller space")
    _check(exhaustive=((9, 3),))


def _mer_in_this_process(S):
    """MER on a stack (``numeric.mer``), refusing to run in any process but the test's own
    (module level: it can be pickled, so a process pool would get it)."""
    if os.getpid() != _MAIN_PID[0]:
        raise RuntimeError("evaluated in a worker process")
    return numeric.mer(S)


def test_audit_s_defaults_and_refusals():
    """``audit`` 1 (the default seed is 0, as documented), 4 (the default
    ``jobs=1`` searches in this process: no pool), 10 to 12 (the refusal of
    both a space and size arguments), 14, 20, 21 (the refusal of a bad
    ``tie_budget`` names it; ``_whole``'s message).

    MER is symmetric in the transposition of a matrix: symmetry holds."""
    rep = A.audit("mer", ["symmetry"], max_k=2, max_n=2, random=3, prove=False)
    assert rep.space == A.space_of(2, 2, 3, 0) and rep.space.seed == 0
    sp = Space(exhaustive=((1, 2), (2, 2)), random=0, triangle=(), triangle_random=0, diagonal=())
    r = A.audit(_mer_exact, ["symmetry"], vectorized=_mer_in_this_process, space=sp, prove=False,
                bounds=(0, 1))
    assert r.results["symmetry"].verdict == "holds"
    with pytest.raises(ValueError, match="^give either space or max_k/max_n/random, not both$"):
        A.audit("mer", ["symmetry"], space=sp, max_k=2)
    with pytest.raises(ValueError, match=r"^tie_budget must be an integer >= 0, got -1$"):
        A.audit("mer", ["symmetry"], space=sp, tie_budget=-1)


def test_check_size_the_triangle_s_limit_and_the_blocks_of_8_classes():
    """``check_size`` 46 (blocks of exactly 8 classes are not built whole: no
    cell limit), 51, 52 (at most 400 label vectors: 20^2 = 400 is allowed,
    401^1 = 401 is not), 54, 56 to 58 (the message: K^n vectors, K^(3n)
    triples).

    K = 8, N <= 5: the block of N = 5 would hold C(5 + 63, 5) * 64 =
    10,424,128 * 64 = 667,144,192 cells, more than 2^27, but the space has
    sum_{N <= 5} C(N + 63, 63) < 1.2 x 10^7 matrices (below 2 x 10^8), and only
    blocks of more than 8 classes are limited.  3^6 = 729 label vectors make
    3^18 = 387,420,489 triples ("3.87e+08")."""
    assert math.comb(5 + 63, 5) * 64 == 667_144_192 > A.MAX_CELLS
    _check(exhaustive=((8, 5),))
    _check(triangle=((20, 2),))
    with pytest.raises(ValueError) as exc:
        _check(triangle=((401, 1),))
    assert str(exc.value).startswith("triangle: 401^1 = 401 label vectors")
    with pytest.raises(ValueError) as exc:
        _check(triangle=((3, 6),))
    assert str(exc.value) == ("triangle: 3^6 = 729 label vectors of length 6 make 3.87e+08 triples; "
                              "at most 400 vectors")



def test_check_size_allows_a_block_of_exactly_max_cells():
    """``check_size`` 48 (``block >= MAX_CELLS``: a block of exactly
    ``MAX_CELLS`` cells refused; the docstring refuses only "more than").

    The block of a part is ``C(n + c - 1, n) K^2`` cells (``c = K^2`` for the
    exhaustive part, ``K`` for the diagonal one).  It equals 2^27 only if K is
    a power of 2 and ``C(n + c - 1, n)`` too; K > 8 leaves one case, the
    diagonal part with N = 1 and K^3 = 2^27, K = 512: C(512, 1) * 512^2 =
    2^9 * 2^18 = 2^27 (exhaustive: N = 1 needs K^4 = 2^27; N = 0 (no matrix)
    K^2 = 2^27; N = 2, 3 binomials with an odd factor c + 1 > 3; N >= 4 a
    binomial that is a perfect power, impossible by Erdos, 1951).  K = 513
    is one class more: 513^3 = 135,005,697 cells, refused."""
    assert math.comb(1 + 512 - 1, 1) * 512 * 512 == 2 ** 27 == A.MAX_CELLS
    _check(diagonal=((512, 1),))
    with pytest.raises(ValueError) as exc:
        _check(diagonal=((513, 1),))
    assert str(exc.value) == ("the search space's diagonal block of 513 x 513 matrices with N = 1 holds "
                              "1.35e+08 cells (more than 1.34e+08, 1 GiB): choose a smaller space")

def test_audit_of_a_metric_object_on_a_given_space():
    """``audit`` 35, 39 to 41 (a :class:`numeric.registry.Metric` object, not
    only its name, is audited as the registered metric), 50 (a registered
    metric searched on the given space, not the default one), 25, 31, 32 (the
    refusal of a bad ``jobs`` names it).

    MER's registered variant is labelled "MER" (test_a_report_names_... reads
    the label of MAE the same way); MER is symmetric: symmetry holds on every
    matrix with K <= 2, N <= 2."""
    from numeric.registry import REGISTRY

    sp = Space(exhaustive=((1, 2), (2, 2)), random=0, triangle=(), triangle_random=0, diagonal=())
    rep = A.audit(REGISTRY["mer"], ["symmetry"], space=sp, prove=False)
    assert (rep.label, rep.space, rep.results["symmetry"].verdict) == ("MER", sp, "holds")
    assert A.audit("mer", ["symmetry"], space=sp, prove=False).space == sp
    with pytest.raises(ValueError, match=r"^jobs must be an integer >= 1, got 0$"):
        A.audit("mer", ["symmetry"], space=sp, jobs=0)


def test_a_registered_metric_gets_the_given_bounds_and_jobs(monkeypatch):
    """``audit`` 62, 64 (a registered metric's ``bounds`` argument ignored or
    lost), 85 (its ``jobs`` not passed on: ``jobs=None`` would make a pool of
    the machine's size).

    MER = errors / N lies in [0, 1]; with the stated bounds (0, 1/2) range
    fails on a matrix where MER > 1/2 (every matrix with K = 2, N = 1 off the
    diagonal has MER = 1).  The audit asks ``default_executor`` for a pool of
    the ``jobs`` given (1 by default: none)."""
    asked = []

    def recording(jobs):
        asked.append(jobs)

    monkeypatch.setattr(A, "default_executor", recording)
    sp = Space(exhaustive=((1, 2), (2, 2)), random=0, triangle=(), triangle_random=0, diagonal=())
    r = A.audit("mer", ["range"], space=sp, prove=False, bounds=(0, Fraction(1, 2))).results["range"]
    m = r.counterexample
    assert r.verdict == "fails" and Fraction(int(m.sum() - np.trace(m)), int(m.sum())) > Fraction(1, 2)
    A.audit("mer", ["range"], space=sp, prove=False, jobs=3)
    assert asked == [1, 3]


# ---------------------------------------------------------------------------
# audit's front: what it hands to the search (issue 27, branch `mute`)
# ---------------------------------------------------------------------------
def _recording_run(monkeypatch):
    """Replace ``audit``'s search (``_run``) by a recorder of its arguments:
    ``(spec, exact_f, label, better, bounds, names, space, symbolic, scopes)``
    and the keywords ``executor, jobs, tie_budget, exact``."""
    calls = []

    def record(*args, **kwargs):
        calls.append((args, kwargs))
        return "report"

    monkeypatch.setattr(A, "_run", record)
    return calls


#: MAE of [[1, 1], [0, 1]]: one error at distance 1 among 3 samples, 1/3 exactly
#: (the float 0.333... is not equal to it: a float evaluator would show)
_M13 = np.array([[1, 1], [0, 1]])


def test_audit_hands_a_registered_metric_s_forms_and_arguments_to_the_search(monkeypatch):
    """``audit`` 88 to 113 (a registered metric's arguments to the search: its
    spec, exact form, label, orientation, bounds, properties, space, symbolic
    form, scopes, executor, jobs, tie budget, ``exact``).

    The docstring: a registry name is searched with the registry's variant
    (label "MAE", ``better`` "lower", bounds (0, None), the registry's record),
    in exact arithmetic for the exact check (MAE of ``_M13`` is 1/3 exactly)
    and on SymPy counts for the proofs (``SymbolicArithmetic``: the Rational
    1/3); ``prove=True`` means ``prover.DEFAULT_SCOPES``; the other arguments
    are passed on as given."""
    import sympy

    from analytic.properties.engine import MetricSpec

    calls = _recording_run(monkeypatch)
    sp = Space(exhaustive=((1, 2),), random=0, triangle=(), triangle_random=0, diagonal=())
    ex = object()
    assert A.audit("mae", ["symmetry"], space=sp, executor=ex, jobs=3, tie_budget=0,
                   exact=True, exact_ties=True) == "report"
    (spec, exact_f, label, better, bounds, names, space, symbolic, scopes), kw = calls[-1]
    assert spec == MetricSpec(name="mae", variant="MAE", better="lower", bounds=(0, None))
    assert (label, better, bounds, names, space, scopes) == (
        "MAE", "lower", (0, None), ["symmetry"], sp, P.DEFAULT_SCOPES)
    v = exact_f(_M13)
    assert not isinstance(v, float) and v == Fraction(1, 3)
    s = symbolic(_M13)
    assert isinstance(s, sympy.Rational) and s == sympy.Rational(1, 3)
    assert kw == dict(executor=ex, jobs=3, tie_budget=0, exact=True, exact_ties=True,
                      falsify=None, structure=None, checked=None)
    # a symbolic form given is used; scopes given are kept; better given wins
    sym = object()
    A.audit("mae", ["symmetry"], space=sp, symbolic=sym, prove=(), better="higher")
    (spec, _, _, better, _, _, _, symbolic, scopes), kw = calls[-1]
    assert (spec.better, better, symbolic, scopes) == ("higher", "higher", sym, ())
    assert kw == dict(executor=None, jobs=1, tie_budget=A.TIE_BUDGET, exact=False,
                      exact_ties=False, falsify=None, structure=None, checked=None)


def test_audit_hands_a_callable_s_forms_and_arguments_to_the_search(monkeypatch):
    """``audit`` 117 to 192 (a callable's default space, bounds, spec, label,
    orientation and the arguments passed on).

    The docstring: the default space is ``DEFAULT_SPACE`` with a vectorised
    form and ``CALLABLE_SPACE`` without (seed 0); ``max_k, max_n, random,
    seed`` give ``space_of``'s space; bounds default to unknown, (None, None);
    ``better`` to "lower"; without ``vectorized`` there is no float screen
    (no spec); the label is the function's ``__name__`` ("metric" for a
    callable without one); ``prove=True`` means ``prover.DEFAULT_SCOPES``."""
    import functools

    from analytic.properties.engine import MetricSpec

    calls = _recording_run(monkeypatch)

    def share(m):
        return Fraction(int(np.trace(m)), int(m.sum()))

    def vec(S):
        return np.trace(S, axis1=1, axis2=2) / S.sum(axis=(1, 2))

    A.audit(share, vectorized=vec)
    (spec, exact_f, label, better, bounds, names, space, symbolic, scopes), kw = calls[-1]
    assert spec == MetricSpec(vectorized=vec, better="lower", bounds=(None, None))
    assert (exact_f, label, better, bounds, names, space, symbolic, scopes) == (
        share, "share", "lower", (None, None), None, A.DEFAULT_SPACE, None, P.DEFAULT_SCOPES)
    assert kw == dict(executor=None, jobs=1, tie_budget=A.TIE_BUDGET, exact=False,
                      exact_ties=False, falsify=None, structure=None)

    A.audit(share)
    (spec, _, _, _, _, _, space, _, _), _ = calls[-1]
    assert (spec, space) == (None, A.CALLABLE_SPACE)

    # none of them space_of's default (max_k 3, max_n 3, random 24, seed 0)
    A.audit(share, max_k=2, max_n=4, random=5, seed=7)
    assert calls[-1][0][6] == A.space_of(2, 4, 5, 7)
    assert A.space_of(2, 4, 5, 7) not in (A.space_of(3, 4, 5, 7), A.space_of(2, 3, 5, 7),
                                          A.space_of(2, 4, 24, 7), A.space_of(2, 4, 5, 0))

    sym, ex = object(), object()
    A.audit(share, ["range"], vectorized=vec, better="higher", bounds=(0, 1), symbolic=sym,
            prove=(), executor=ex, jobs=3, tie_budget=0, exact=True, exact_ties=True)
    (spec, _, _, better, bounds, names, _, symbolic, scopes), kw = calls[-1]
    # exact_ties: the callable itself decides the ties on the stacks (CallableEvaluator)
    assert spec == MetricSpec(vectorized=vec, better="higher", bounds=(0, 1), exact=share)
    assert (better, bounds, names, symbolic, scopes) == ("higher", (0, 1), ["range"], sym, ())
    assert kw == dict(executor=ex, jobs=3, tie_budget=0, exact=True, exact_ties=True,
                      falsify=None, structure=None)

    A.audit(functools.partial(share))   # a callable without __name__
    assert calls[-1][0][2] == "metric"


def test_audit_refuses_what_is_not_a_metric_and_a_boolean_count():
    """``audit`` 114 to 116 (the refusal of a metric that is none of a name, a
    record, a callable: its message), ``_whole`` 2 (a bool is not accepted as
    an integer count: ``jobs=True`` would mean 1), 4 (``tie_budget=0`` is
    allowed: ``>= 0``, no tie decided exactly).

    ``_whole``'s message: "NAME must be an integer >= LEAST, got V"."""
    with pytest.raises(ValueError, match=r"^metric must be a registry name, a Metric or a callable, "
                                         r"got 5$"):
        A.audit(5)
    with pytest.raises(ValueError, match=r"^jobs must be an integer >= 1, got True$"):
        A.audit("mae", ["symmetry"], jobs=True)
    sp = Space(exhaustive=((1, 1),), random=0, triangle=(), triangle_random=0, diagonal=())
    r = A.audit("mae", ["symmetry"], space=sp, prove=False, tie_budget=0).results["symmetry"]
    assert (r.verdict, r.ties_confirmed) == ("holds", 0)
