"""The symbolic prover of the auditor (analytic.properties.prover): its certificates on
hand-checked expressions, proofs it must find, proofs it must refuse (false
properties, a deliberately broken metric, a formula that breaks numeric's
symbolic-count contract), and the cross-check of every "proved" verdict of the
property table against the search and against matrices outside the search.

Expected values are derived by hand in each docstring (the metrics' formulas are
silva2018 eq. 2 for MAE, eq. 28 for AMAE); nothing is taken from the code under test.
"""

from __future__ import annotations

import collections
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

import numeric
from analytic.properties import audit as A
from analytic.properties import prover as P
from analytic.properties.generators import random_matrices
from analytic.properties import table as T
from analytic.properties.space import SMALL_SPACE
from numeric._symbolic import SymbolicArithmetic
from numeric.registry import REGISTRY
from exactfloor.exact_sign import ANY, NEG, NONNEG, POS
from analytic.properties.catalog import PROPERTIES

from analytic.properties.proofkit import certify, split_moves
from exactfloor.certificates import _point
from exactfloor.errors import UndefinedMetric

#: the properties' proofs on one generic matrix (issue 41 item 3: methods of their classes)
prange, pidentity = PROPERTIES["range"].prove_pattern, PROPERTIES["identity"].prove_pattern
punobserved = PROPERTIES["unobserved_class"].prove_pattern

a, b, k = sp.symbols("a b k", integer=True, positive=True)


def _sym(name, **kw):
    return lambda cm: getattr(numeric, name)(cm, arithmetic=SymbolicArithmetic(), **kw)


def _exact(name, **kw):
    """The metric in exact arithmetic, None where it raises ValueError."""
    def f(cm):
        try:
            return sp.sympify(getattr(numeric, name)(cm, arithmetic="exact", **kw))
        except ValueError:
            return None
    return f


# ---------------------------------------------------------------------------
# certificates on expressions checked by hand
# ---------------------------------------------------------------------------
def test_sign_certificates():
    """For integers a, b >= 1: a/(a+b) > 0; a - 1 >= 0 (0 at a = 1); a - b has either
    sign; (a-b)^2/(a^2+b^2) >= 0 (a square, 0 at a = b); 1 - max(a, b)/(a+b) > 0
    (each fraction < 1); sqrt(a/(a+b)) - 1 < 0 (its square a/(a+b) < 1)."""
    assert P.sign(a / (a + b)) == POS
    assert P.sign(a - 1) == NONNEG
    assert P.sign(a - b) == ANY
    assert P.sign((a - b) ** 2 / (a ** 2 + b ** 2)) == NONNEG
    assert P.sign(1 - sp.Max(a / (a + b), b / (a + b))) == POS
    assert P.sign(sp.sqrt(a) / sp.sqrt(a + b) - 1) == NEG


def test_definedness():
    """1/(a - 1) divides by 0 at a = 1 and sqrt(a - b) is not real at a < b: not
    certified; a/(a + b) and log(a/(a + b)) are defined for all a, b >= 1."""
    assert P.defined(a / (a + b)) is None
    assert P.defined(sp.log(a / (a + b))) is None
    assert P.defined(1 / (a - 1)) == "1/(a - 1)"
    assert P.defined(sp.sqrt(a - b)) == "sqrt(a - b)"


def test_zero_tests():
    """sqrt(k a)/sqrt(k) = sqrt(a) and max(1/(k a), 2/(k b)) = max(1/a, 2/b)/k for
    k > 0 (identities); a/(a + 1) != 1 (refuted numerically, the point is named)."""
    assert P.equal(sp.sqrt(k * a) / sp.sqrt(k), sp.sqrt(a))[0]
    assert P.equal(sp.Max(1 / (k * a), 2 / (k * b)), sp.Max(1 / a, 2 / b) / k)[0]
    ok, why = P.equal(a / (a + 1), 1)
    assert not ok and "differ" in why


def test_support_patterns():
    """Every nonempty subset of the K^2 cells: 2^4 - 1 = 15 patterns for K = 2."""
    pats = list(P.support_patterns(2))
    assert len(pats) == 15 and len(set(pats)) == 15
    assert P.generic_matrix(2, [(0, 1)]).tolist() == [[0, sp.Symbol("n01", integer=True,
                                                                       positive=True)], [0, 0]]


# ---------------------------------------------------------------------------
# proofs that must be found
# ---------------------------------------------------------------------------
def test_mae_scale_proved_on_every_pattern():
    """MAE of [[n00, n01], [0, 0]] is n01/(n00 + n01), of k times it k n01/(k n00 + k n01):
    equal; likewise on each of the 15 supports of a 2 x 2 matrix (and the one of K = 1)."""
    p = P.prove(_sym("mae"), "scale", scopes=[P.Scope(1, "every"), P.Scope(2, "every")])
    assert p.proved and p.refused == () and p.patterns == 16
    assert p.scope_text() == "every matrix with K = 1; every matrix with K = 2"
    assert p.covers(np.array([[3, 0], [5, 1]])) and not p.covers(np.ones((3, 3), dtype=int))


def test_positive_scope_covers_only_positive_matrices():
    s = P.Scope(3, "positive")
    assert s.covers(np.ones((3, 3), dtype=int))
    assert not s.covers(np.eye(3, dtype=int)) and not s.covers(np.ones((2, 2), dtype=int))


# ---------------------------------------------------------------------------
# proofs that must be refused
# ---------------------------------------------------------------------------
def test_refuses_amae_symmetry():
    """AMAE (observed classes) of [[a, b], [0, 0]] averages over the one observed class:
    b/(a + b); of its transpose [[a, 0], [b, 0]] over two: (0 + 1)/2 = 1/2. They differ
    (e.g. a = b = 1: 1/2 = 1/2, but a = 1, b = 2: 2/3), so no proof at K = 2."""
    p = P.prove(_sym("amae"), "symmetry", scopes=[P.Scope(2, "every")])
    assert not p.proved
    (scope, why, kind), = p.refused
    assert kind == "not derived" and "differ" in why


def test_refuses_mse_ordinal_invariance_and_triangle():
    """MSE of [[0, n], [0, 0]] is 1 (every sample one class off); with an empty class
    inserted between the two it is 2^2 = 4: not invariant.  The triangle inequality
    (on label vectors) is not handled by the prover: searched only, and it fails
    (d(0, 2) = 4 > d(0, 1) + d(1, 2) = 2)."""
    p = P.prove(_sym("mse"), "ordinal_invariance", scopes=[P.Scope(2, "every")])
    assert not p.proved and "differ" in p.refused[0][1]
    with pytest.raises(ValueError, match="no symbolic prover for 'triangle'"):
        P.prove(_sym("mse"), "triangle")
    r = A.audit("mse", ["triangle"], space=SMALL_SPACE).results["triangle"]
    assert r.verdict == "fails" and r.proof is None


def test_refuses_uoc_symmetry():
    """UOC is a minimum over paths, which the symbolic arithmetic cannot order for
    symbolic counts: no proof (and the search refutes symmetry, test_audit.py)."""
    r = A.audit("uoc", ["symmetry"], variant="UOC, beta=0.25", space=SMALL_SPACE,
                prove=P.scopes(2, 3)).results["symmetry"]
    assert r.verdict == "fails" and not r.proof.proved
    assert "no symbolic form" in {kind for _, _, kind in r.proof.refused}


def _mae_plus(cm):
    """A deliberately broken metric: MAE + 1/N (exact), not scale invariant."""
    n = int(np.sum(cm))
    return numeric.mae(cm, arithmetic="exact") + sp.Rational(1, n)


def _mae_plus_sym(cm):
    return numeric.mae(cm, arithmetic=SymbolicArithmetic()) + 1 / sp.Add(*np.ravel(cm))


def test_broken_metric():
    """MAE + 1/N: f([[1]]) = 0 + 1 = 1 but f([[2]]) = 1/2 -- scale fails, found by the
    search and refused by the prover; it is symmetric (MAE and N are), which the
    prover proves on every matrix with K <= 2 and all-positive 3 x 3 ones."""
    r = A.audit(_mae_plus, ["scale", "symmetry"], symbolic=_mae_plus_sym, max_k=2, max_n=2,
                random=0, bounds=(0, None), prove=P.scopes(2, 3))
    scale, sym = r.results["scale"], r.results["symmetry"]
    assert scale.verdict == "fails" and scale.counterexample.tolist() == [[1]]
    assert not scale.proof.proved and "differ" in scale.proof.refused[0][1]
    assert sym.verdict == "proved" and sym.proof.short() == "K <= 2; 3 x 3 with every cell positive"


def test_asymmetric_metric_refused():
    """Errors above the diagonal count double: [[0, n], [0, 0]] gives 2, its transpose 1."""
    def upper_double(cm):
        return Fraction(int(np.triu(cm, 1).sum()) * 2 + int(np.tril(cm, -1).sum()),
                        int(cm.sum()))

    def upper_double_sym(cm):
        return (2 * sp.Add(*np.triu(cm, 1).ravel()) + sp.Add(*np.tril(cm, -1).ravel())) \
            / sp.Add(*cm.ravel())

    p = P.prove(upper_double_sym, "symmetry", exact=lambda m: sp.sympify(upper_double(m)),
                scopes=[P.Scope(2, "every")])
    assert not p.proved and "differ" in p.refused[0][1]


def test_callable_without_symbolic_form_is_not_proved():
    """A plain callable gets no proof (its formula need not honour the contract)."""
    r = A.audit(lambda cm: Fraction(int(cm.sum() - np.trace(cm)), int(cm.sum())), ["symmetry"],
                random=0, max_n=2)
    assert r.results["symmetry"].verdict == "holds" and r.results["symmetry"].proof is None


def test_contract_violations_are_refused():
    """r_int tests N < 2 on the support, so the symbolic [[n]] raises although [[2]]
    is defined (r_int([[2]]) = 1, silva2018 eq. 7: card(S1) = 2): the instance check
    refuses the pattern.  A symbolic form that lies (MAE for MER) is caught on the
    all-positive 3 x 3 matrices -- at all ones MAE = 8/9, MER = 6/9 -- but is
    genuinely equal for K <= 2, where every error is one class off (|i - j| = 1)."""
    p = P.prove(_sym("r_int"), "scale", exact=_exact("r_int"), scopes=[P.Scope(1, "every")])
    (_, why, kind), = p.refused
    assert kind == "contract" and "[[2]]" in why
    assert numeric.r_int([[2]], arithmetic="exact") == 1
    p = P.prove(_sym("mae"), "symmetry", exact=_exact("mer"),
                scopes=[P.Scope(2, "every"), P.Scope(3, "positive")])
    assert [s.short() for s in p.scopes] == ["K = 2"]
    (_, why, kind), = p.refused
    assert kind == "contract" and "8/9" in why


# ---------------------------------------------------------------------------
# cross-checks of the proofs
# ---------------------------------------------------------------------------
def test_cross_check_raises_on_a_contradicted_proof():
    """A (bogus) proof of scale for MAE + 1/N is contradicted: on K = 1 by the minimal
    counterexample [[1]] itself, on all-positive 3 x 3 matrices by the check on the
    random positive samples (f(2A) - f(A) = -1/(2N) != 0)."""
    from analytic.properties.exact import ExactContext

    ctx = ExactContext(_mae_plus, "lower", (0, None))
    res = A.PropertyResult("scale", "fails", np.array([[1]]), "f([[1]]) = 1 but f([[2]]) = 1/2")
    with pytest.raises(RuntimeError, match="the search refutes it on"):
        A._cross_check(ctx, res, P.Proof("scale", (P.Scope(1, "every"),)), 0)
    with pytest.raises(RuntimeError, match="the check fails on"):
        A._cross_check(ctx, A.PropertyResult("scale", "holds"),
                       P.Proof("scale", (P.Scope(3, "positive"),)), 0)


def _covers(scopes, m):
    return any(m.shape == (K, K) and (kind == "every" or bool((m > 0).all()))
               for K, kind in scopes)


def test_failing_properties_are_never_proved_on_their_counterexample():
    """Over the committed property table the prover also ran, blind, on every refuted
    property it handles; no proved scope holds the counterexample (the table
    would have raised), and the refusals are many."""
    refused = 0
    for rep in T.load()["reports"]:
        for r in rep["properties"].values():
            if r["verdict"] == "fails" and r["proof"] is not None:
                c = T.counterexample_of(r)
                if isinstance(c, np.ndarray):
                    assert not _covers(r["proof"]["scopes"], c), (rep["variant"], r["property"])
                refused += 1
    assert refused > 50


def test_proved_verdicts_hold_beyond_the_search():
    """Each "proved" verdict of the committed table, re-checked by the property's exact
    check on matrices the search never sees: 1 x 1, 2 x 2 and 3 x 3 matrices with
    N = 9 and 12 (the exhaustive space stops at N = 8), and 4 x 4 matrices with every
    cell in 1..9 (N >= 16; the random ones have N <= 60 but rarely every cell
    positive).  Every proved scope has its samples (a scope without them fails)."""
    from analytic.properties.exact import ExactContext

    checked = collections.Counter()
    for rep in T.load()["reports"]:
        proved = [r for r in rep["properties"].values() if r["verdict"] == "proved"]
        if not proved:
            continue
        m = REGISTRY[rep["metric"]]
        v = next(v for v in m.cases() if v.label == rep["variant"])
        ctx = ExactContext(m.bind(v, "exact"), m.better, m.bounds)
        rng = np.random.default_rng(sum(map(ord, rep["variant"])))
        samples = {(k, "every"): random_matrices(k, 9, 1, seed=1) + random_matrices(k, 12, 1, seed=2)
                   for k in (1, 2, 3)}
        samples[4, "positive"] = [rng.integers(1, 10, size=(4, 4)).astype(np.int64)]
        # a proof for every K (a lemma of analytic.properties.structure): K = 6 too, and a
        # diagonal matrix with unequal counts (the imbalance properties' bases)
        samples[6, "every"] = random_matrices(6, 15, 2, seed=3) + [
            np.diag([5, 1, 3, 2, 7, 4]).astype(np.int64)]
        # the imbalance families' scopes (every K <= 5, diagonal patterns): diagonal matrices
        # with unequal counts, one with an empty class
        samples[4, "every"] = random_matrices(4, 10, 1, seed=4) + [np.diag([4, 1, 2, 7]).astype(np.int64)]
        samples[5, "every"] = [np.diag([3, 9, 1, 5, 2]).astype(np.int64),
                               np.diag([6, 0, 2, 11, 1]).astype(np.int64)]
        for r in proved:
            prop = A.PROPERTIES[r["property"]]
            scopes = [] if r["proof"] is None else r["proof"]["scopes"]
            if r.get("every_k"):
                scopes = [(1, "every"), (2, "every"), (3, "every"), (4, "positive"), (6, "every")]
            if prop.region == "triples":  # label vectors (test_structure.py searches them)
                continue
            for K, kind in scopes:
                for mat in samples[K, kind]:
                    if prop.bases(mat[None])[0]:
                        assert not prop.check(ctx, mat), (rep["variant"], r["property"], mat)
                        checked[K, kind] += 1  # counted only where the check ran
    # every scope kind of the table's proofs was re-checked
    assert set(checked) == {(1, "every"), (2, "every"), (3, "every"), (4, "positive"),
                            (4, "every"), (5, "every"), (6, "every")}, checked
    assert sum(checked.values()) > 100


def test_properties_md_states_the_evidence():
    """The rendered table explains its verdicts and shows proof scopes."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "properties.md").read_text("utf-8")
    assert "- **proved (every K)**" in text and "- **unrefuted (searched S + guided G)**" in text
    assert "- **proved (K <= 3; 4 x 4 with every cell positive)**" in text
    assert "- **fails M**" in text and "K=4+" not in text and "**holds**" not in text
    assert "| MAE (`mae`) | proved (every K) |" in text
    assert "| kappa (`cohen_kappa`) | proved (K <= 3; 4 x 4 with every cell positive) |" in text
    assert "## How far from the goal" in text and "## Open cells" in text
    assert "## Proofs not obtained" in text


# ---------------------------------------------------------------------------
# the prover's parts (issue 27 item 4: mutation testing of prover.py)
# ---------------------------------------------------------------------------
def test_scopes_their_patterns_and_texts():
    """A scope: K >= 1 and kind "every" (every nonempty subset of the K^2 cells:
    2^(K^2) - 1 patterns) or "positive" (the one pattern of all cells)."""
    for bad in [(2, "some"), (0, "every"), (-1, "positive")]:
        with pytest.raises(ValueError):
            P.Scope(*bad)
    assert P.Scope(1, "every").patterns() == [((0, 0),)]
    assert P.Scope(2, "positive").patterns() == [((0, 0), (0, 1), (1, 0), (1, 1))]
    assert len(P.Scope(2, "every").patterns()) == 15
    s, t = P.Scope(2, "every"), P.Scope(2, "positive")
    assert s.covers([[0, 0], [1, 0]]) and not s.covers([[1]]) and not s.covers(np.ones((3, 3)))
    assert t.covers([[1, 2], [3, 4]]) and not t.covers([[1, 0], [3, 4]])
    assert (s.text(), s.short()) == ("every matrix with K = 2", "K = 2")
    assert (t.text(), t.short()) == ("every matrix with K = 2 and all cells positive", "2 x 2 with every cell positive")
    assert [x.short() for x in P.scopes(2, 4)] == [
        "K = 1", "K = 2", "3 x 3 with every cell positive", "4 x 4 with every cell positive"]
    assert [x.short() for x in P.scopes(3, 2)] == ["K = 1", "K = 2", "K = 3"]
    assert P.scopes(0, 0) == ()
    for bad in [(-1, 2), (2, -1)]:
        with pytest.raises(ValueError, match="non-negative"):
            P.scopes(*bad)
    m = P.generic_matrix(2, [(1, 0)])
    assert m[1, 0].is_integer and m[1, 0].is_positive and m[0, 0] == 0 and str(m[1, 0]) == "n10"
    assert P.short(sp.Symbol("x" * 10), 4) == "xxxx..." and P.short(a + 1) == "a + 1"


def test_a_proof_s_scope_texts():
    """proved: a scope with K >= 2 (K = 1 alone is trivial); short: K<=k for every
    K = 1..k, else each K, then the all-positive scopes."""
    e1, e2, e3, p3 = (P.Scope(1, "every"), P.Scope(2, "every"), P.Scope(3, "every"),
                      P.Scope(3, "positive"))
    assert not P.Proof("scale", (e1,)).proved and P.Proof("scale", (e2,)).proved
    assert P.Proof("scale", (p3,)).proved
    assert P.Proof("scale", (e1, e2, p3)).short() == "K <= 2; 3 x 3 with every cell positive"
    assert P.Proof("scale", (e2,)).short() == "K = 2"
    assert P.Proof("scale", (e1, e3)).short() == "K = 1; K = 3"
    assert P.Proof("scale", (p3, e1)).short() == "K = 1; 3 x 3 with every cell positive"
    assert P.Proof("scale", (e1, e2)).scope_text() == ("every matrix with K = 1; every matrix "
                                                        "with K = 2")
    pr = P.Proof("scale", (e2, p3))
    assert pr.covers(np.array([[0, 1], [0, 0]])) and pr.covers(np.ones((3, 3), dtype=int))
    assert not pr.covers(np.eye(3, dtype=int))


def test_the_evaluator_caches_and_classes_its_refusals():
    """Each symbolic matrix is evaluated once; a formula that cannot take symbols is
    "no symbolic form", a value not certified defined "not derived" (1/(n00 - 1)
    divides by 0 at n00 = 1), a disagreement with the exact value at an instance
    "contract" (n00 + 1 against n00 at n00 = 1: 2 != 1)."""
    calls = []

    def f(m):
        calls.append(1)
        return m[0, 0] / sp.Add(*m.ravel())

    ev = P.Evaluator(f, P._exact_of(f))
    m = P.generic_matrix(2, [(0, 0), (0, 1)])
    assert ev(m) == m[0, 0] / (m[0, 0] + m[0, 1])
    n = len(calls)
    assert ev(m.copy()) == ev(m) and len(calls) == n
    x = P.generic_matrix(1, [(0, 0)])

    def refusal(symbolic, exact=None):
        e = P.Evaluator(symbolic, exact or P._exact_of(symbolic))
        with pytest.raises(P._Refused) as first:
            e(x)
        with pytest.raises(P._Refused) as again:  # cached, raised again
            e(x)
        assert again.value is first.value
        return first.value.kind, str(first.value)

    def typed(m):
        raise TypeError("no symbols here")

    kind, why = refusal(typed)
    assert kind == P.NO_FORM and "TypeError: no symbols here" in why
    kind, why = refusal(lambda m: 1 / (m[0, 0] - 1))
    assert kind == P.NOT_DERIVED and "not certified defined" in why
    kind, why = refusal(lambda m: m[0, 0] + 1, exact=lambda m: sp.Integer(int(m[0, 0])))
    assert kind == P.CONTRACT and "gives 2 at [[1]], the exact evaluation 1" in why

    def undefined_symbolically(m):
        raise UndefinedMetric("never")

    kind, why = refusal(undefined_symbolically, exact=lambda m: sp.Integer(1))
    assert kind == P.CONTRACT and "is undefined (never)" in why
    kind, why = refusal(lambda m: m[0, 0], exact=lambda m: None)
    assert kind == P.CONTRACT and "but the exact evaluation at [[1]] is undefined" in why
    # undefined on both sides: the value is the undefined marker, not a refusal
    u = P.Evaluator(undefined_symbolically, lambda m: None)(x)
    assert isinstance(u, P.Undefined) and u.message == "never"


def test_instances_agree_exactly_or_to_fifty_digits():
    assert P._agree(sp.Rational(1, 3), sp.Rational(1, 3))
    assert not P._agree(sp.Rational(1, 3), sp.Rational(1, 3) + sp.Rational(1, 10**60))
    assert P._agree(sp.sqrt(2), sp.sqrt(8) / 2)
    assert not P._agree(sp.sqrt(2), sp.sqrt(2) + sp.Rational(1, 10**40))
    assert P._agree(sp.sqrt(2), sp.sqrt(2) + sp.Rational(1, 10**55))   # below 1e-50
    assert P._agree(200 * sp.sqrt(2), 200 * sp.sqrt(2) + sp.Rational(1, 10**49))  # relative
    assert not P._agree(sp.sqrt(2), a) and not P._agree(a, sp.sqrt(2))


def test_certify_refutes_numerically_or_certifies_each_relation():
    """For integers a, b >= 1: a - 1 >= 0 but not > 0 (0 at a = 1); 1 - a <= 0;
    -a < 0; a - b has either sign (refuted at one of the two seeded points or not
    certified); 1 - 2a is negative at every point: refuted for ">= 0" numerically."""
    assert certify(a - 1, ">= 0") is None
    assert certify(a - 1, "> 0") == "a - 1 not certified > 0"
    assert certify(1 - a, "<= 0") is None and certify(-a, "< 0") is None
    assert certify(a, "< 0").startswith("a is ") and "not < 0" in certify(a, "< 0")
    assert certify(a, "<= 0").endswith("not <= 0")
    why = certify(1 - 2 * a, ">= 0")
    assert why.startswith("1 - 2*a is -") and why.endswith("not >= 0")
    assert certify(a - b, ">= 0") is not None and certify(a - b, "<= 0") is not None
    assert certify(sp.Integer(0), "<= 0") is None and certify(sp.Integer(0), ">= 0") is None
    assert certify(sp.Integer(0), "< 0") == "0 not certified < 0"


def test_the_property_checks_on_one_pattern():
    """MAE (silva2018 eq. 2) on generic 2 x 2 matrices: in [0, 1] (for K = 2 every error
    is one class off), 0 exactly on a diagonal pattern, its loss above 0 elsewhere;
    a bogus bound 1/2 is refused with the difference that fails; unobserved_class:
    a pattern without an empty row says nothing, one with an empty row is defined."""
    mae = P.Evaluator(_sym("mae"), _exact("mae"))
    full = P.generic_matrix(2, [(0, 0), (0, 1), (1, 0), (1, 1)])
    diag = P.generic_matrix(2, [(0, 0), (1, 1)])
    upper = P.generic_matrix(2, [(0, 1)])
    spec = {"bounds": (0, 1), "orient": 1, "best": 0}
    assert prange(mae, full, spec) is None
    why = prange(mae, upper, {"bounds": (0, sp.Rational(1, 2)), "orient": 1, "best": 0})
    assert why.startswith("1/2 - f([[0, n01], [0, 0]]): ") and "not >= 0" in why
    why = prange(mae, upper, {"bounds": (sp.Rational(3, 2), None), "orient": 1, "best": 0})
    assert why.startswith("f([[0, n01], [0, 0]]) - 3/2: ")
    assert pidentity(mae, diag, spec) is None and pidentity(mae, full, spec) is None
    why = pidentity(mae, diag, {"bounds": (1, 2), "orient": 1, "best": 1})
    assert why.startswith("diagonal [[n00, 0], [0, n11]]: f - 1: ")
    why = pidentity(mae, full, {"bounds": (1, 2), "orient": 1, "best": 1})
    assert why.startswith("off-diagonal [[n00, n01], [n10, n11]]: the loss above the best: ")
    assert punobserved(mae, full, spec) is None and punobserved(mae, upper, spec) is None
    def rows_needed(m):
        if any(all(x == 0 for x in row) for row in m):
            raise UndefinedMetric("an empty row")
        return sp.Integer(0)

    rows = P.Evaluator(rows_needed, P._exact_of(rows_needed))
    assert punobserved(rows, upper, spec) == "f([[0, n01], [0, 0]]) is undefined: an empty row"
    assert punobserved(rows, full, spec) is None


def test_moves_split_the_cell_count_and_step_toward_the_diagonal():
    """Each off-diagonal cell's count is taken as 1 and as n + 1 (n >= 1): together
    every positive count; one sample then moves one column toward the diagonal."""
    m = P.generic_matrix(3, [(0, 2), (1, 1), (2, 1)])
    moves = list(split_moves(m))
    n02, n21 = m[0, 2], m[2, 1]
    assert [(cell, a[cell], s[cell]) for cell, a, s in moves] == [
        ((0, 2), 1, 0), ((0, 2), n02 + 1, n02), ((2, 1), 1, 0), ((2, 1), n21 + 1, n21)]
    assert [s[0, 1] for cell, a, s in moves[:2]] == [1, 1]
    assert [s[2, 2] for cell, a, s in moves[2:]] == [1, 1]
    assert all((a == m).sum() == 8 for _, a, _ in moves)   # only the moved cell differs
    # the change of the loss: MER's one-step move from (2, 0) to (2, 1) is 0 (not < 0)
    mer = P.Evaluator(_sym("mer"), _exact("mer"))
    strict, weak = PROPERTIES["ordinal_monotonicity"].prove_pattern, PROPERTIES["monotonicity"].prove_pattern
    far = P.generic_matrix(3, [(2, 0)])
    spec = {"bounds": (0, 1), "orient": 1, "best": 0}
    assert "moving a sample of cell (2, 0) of [[0, 0, 0], [0, 0, 0], [1, 0, 0]]" in str(strict(
        mer, far, spec))
    assert weak(mer, far, spec) is None
    assert PROPERTIES["monotonicity"].prove_pattern(mer, far, {"bounds": (0, 1), "orient": -1, "best": 1}) is None
    assert PROPERTIES["ordinal_monotonicity"].prove_pattern(mer, P.generic_matrix(2, [(0, 1)]), spec) is None
    assert "moving a sample" in str(PROPERTIES["ordinal_monotonicity"].prove_pattern(
        mer, P.generic_matrix(2, [(0, 1)]), {"bounds": (0, 1), "orient": -1, "best": 1}))


def test_prove_covers_vacuous_and_inapplicable_scopes():
    """One class: no move and no interior position, the ordinal properties hold
    vacuously (listed as proved, not counted as patterns); unobserved_class says
    nothing about all-positive matrices; range without bounds and identity without a
    best value are not attempted; an unknown property is refused."""
    f = _sym("mae")
    p = P.prove(f, "monotonicity", scopes=[P.Scope(1, "every")])
    assert p.scopes == (P.Scope(1, "every"),) and p.patterns == 0 and not p.proved
    for prop in ("ordinal_invariance", "ordinal_monotonicity"):
        assert P.prove(f, prop, scopes=[P.Scope(1, "every")]).scopes == (P.Scope(1, "every"),)
    p = P.prove(f, "scale", scopes=[P.Scope(1, "every")])
    assert p.patterns == 1 and p.scopes == (P.Scope(1, "every"),)
    p = P.prove(f, "unobserved_class", scopes=[P.Scope(2, "positive")])
    assert (p.scopes, p.refused, p.patterns) == ((), (), 0)
    p = P.prove(f, "range", scopes=[P.Scope(2, "every")])
    assert (p.scopes, p.refused, p.patterns) == ((), (), 0)
    p = P.prove(f, "identity", better="higher", bounds=(0, None), scopes=[P.Scope(2, "every")])
    assert (p.scopes, p.refused, p.patterns) == ((), (), 0)
    p = P.prove(f, "identity", bounds=("0", None), scopes=[P.Scope(2, "every")])
    assert p.proved and p.patterns == 15
    p = P.prove(f, "range", bounds=(None, 1), scopes=[P.Scope(2, "every"), P.Scope(3, "positive")])
    assert p.scopes == (P.Scope(2, "every"),) and p.patterns == 16
    (scope, why, kind), = p.refused
    assert scope == P.Scope(3, "positive") and kind == P.NOT_DERIVED
    with pytest.raises(ValueError, match="no symbolic prover for 'nonsense'"):
        P.prove(f, "nonsense")
    assert PROPERTIES["unobserved_class"].vacuous(P.Scope(2, "positive")) == "irrelevant"
    assert PROPERTIES["unobserved_class"].vacuous(P.Scope(1, "every")) is None
    assert PROPERTIES["monotonicity"].vacuous(P.Scope(2, "every")) is None
    assert PROPERTIES["scale"].vacuous(P.Scope(1, "every")) is None


def _accuracy(m):
    """1 - MER (the share on the diagonal): higher is better, 1 exactly on diagonal
    patterns, raised by every one-step move that reaches the diagonal."""
    return sp.Add(*[m[i, i] for i in range(m.shape[0])]) / sp.Add(*m.ravel())


def test_the_orientation_and_the_bounds_of_a_proof():
    """Accuracy (higher is better, best value 1): identity and monotonicity are
    proved at K = 2 (the loss is -accuracy); taken as lower-is-better, the
    monotonicity proof is refused.  prove_with's default is lower is better
    (MAE's monotonicity proved).  Bounds are numbers, never names."""
    two = [P.Scope(2, "every")]
    assert P.prove(_accuracy, "identity", better="higher", bounds=(0, 1), scopes=two).proved
    assert P.prove(_accuracy, "monotonicity", better="higher", scopes=two).proved
    assert not P.prove(_accuracy, "monotonicity", better="lower", scopes=two).proved
    ev = P.Evaluator(_sym("mae"), _exact("mae"))
    assert P.prove_with(ev, "monotonicity", scopes=two).proved
    for bad in ("k", "x + 1", "nonsense("):
        with pytest.raises(ValueError, match=f"^bound: '{re.escape(bad)}' is not a number"):
            P.prove(_sym("mae"), "range", bounds=(bad, None), scopes=two)


def test_equalities_refused_with_their_reason():
    """A metric undefined with an empty row: on [[n00, n01], [0, 0]] undefined, on its
    transpose defined: symmetry is refused, "not both defined"; the reasons name
    the relation and both matrices.  MAE's ordinal invariance fails (an empty class
    between 0 and 1 doubles the distance), the empty class at the ends does not."""
    def rows_needed(m):
        if any(all(x == 0 for x in row) for row in m):
            raise UndefinedMetric("an empty row")
        return sp.Integer(0)

    two = [P.Scope(2, "every")]
    (_, why, _), = P.prove(rows_needed, "symmetry", scopes=two).refused
    # the first pattern with exactly one side undefined (smaller patterns: both undefined)
    assert why == ("f(A^T) = f(A): f([[n00, n01], [0, 0]]) and f([[n00, 0], [n01, 0]]) are "
                   "not both defined")
    (_, why, _), = P.prove(_mae_plus_sym, "scale", exact=_mae_plus, scopes=[P.Scope(1, "every")]).refused
    assert why.startswith("f(kA) = f(A) for every positive integer k: f([[n00]]) = f([[k*n00]]) "
                          "not proved: ")
    p = P.prove(_sym("mae"), "ordinal_invariance", scopes=two)
    assert not p.proved and p.refused[0][1].startswith("empty class at 1: f([[")
    p = P.prove(_sym("mae"), "empty_class", scopes=two)
    assert p.proved and p.patterns == 15
    p = P.prove(lambda m: sp.Integer(m.shape[0]), "empty_class", scopes=[P.Scope(1, "every")],
                exact=lambda m: sp.Integer(m.shape[0]))
    assert p.refused[0][1].startswith("empty class at 0: f([[n00]]) = f([[0, 0], [0, n00]])")


def test_vacuous_scopes_evaluate_no_pattern_and_refutations_name_the_point():
    """One class: ordinal invariance and ordinal monotonicity hold without a pattern
    being evaluated.  A relation refuted at the first seeded point names the value
    with 6 digits and the point; a positive value below 1 refutes "<= 0" too."""
    f = _sym("mae")
    for prop in ("ordinal_invariance", "ordinal_monotonicity"):
        assert P.prove(f, prop, scopes=[P.Scope(1, "every")]).patterns == 0
    point = _point([a], 1)
    v = 1 - 2 * point[a]
    assert certify(1 - 2 * a, ">= 0") == f"1 - 2*a is {sp.N(v, 6)} at {point}, not >= 0"
    why = certify(1 / (a + 1), "<= 0")
    assert " is 0." in why and why.endswith("not <= 0")


def test_monotonicity_skips_a_move_to_an_undefined_matrix_and_goes_on():
    """f = -(off-diagonal share), undefined when cell (0, 0) is filled.  On
    [[0, n01], [0, 0]] the only move fills (0, 0): skipped, nothing to refute.  On
    [[0, n01], [n10, 0]] the moves of cell (0, 1) are skipped, those of (1, 0)
    raise the loss by 1/N (a sample reaches the diagonal): refused."""
    def f(m):
        if m[0, 0] != 0:
            raise UndefinedMetric("cell (0, 0) filled")
        return -sp.Add(*[m[i, j] for i in range(2) for j in range(2) if i != j]) / sp.Add(*m.ravel())

    ev = P.Evaluator(f, P._exact_of(f))
    spec = {"bounds": (None, 0), "orient": 1, "best": None}
    assert PROPERTIES["monotonicity"].prove_pattern(ev, P.generic_matrix(2, [(0, 1)]), spec) is None
    why = str(PROPERTIES["monotonicity"].prove_pattern(ev, P.generic_matrix(2, [(0, 1), (1, 0)]), spec))
    assert why.startswith("moving a sample of cell (1, 0) of [[0, n01], [1, 0]]")


def test_each_proof_is_a_method_of_its_property_class(monkeypatch):
    """Issue 41 item 3: the prover holds no table of proofs; a property class with a
    ``proof_statement`` overrides :meth:`Property.prove_pattern`, the prover calls it, and a
    change of the method changes the prover's answer (a differential check of the dispatch).
    The twins on populated matrices have no proof of their own (they take their base's),
    but for imbalance's, whose family is the populated diagonal pattern."""
    from analytic.properties.catalog import Property

    provable = {n for n, p in PROPERTIES.items() if p.proof_statement is not None}
    assert provable == set(P.PROVABLE) == set(P.STATEMENTS)
    assert provable == {"range", "identity", "symmetry", "monotonicity", "ordinal_monotonicity",
                        "ordinal_invariance", "scale", "empty_class", "unobserved_class",
                        "imbalance", "imbalance_populated"}
    for name in provable:
        assert type(PROPERTIES[name]).prove_pattern is not Property.prove_pattern, name
        assert PROPERTIES[name].prover == name
    for name in ("ordinal_monotonicity_populated", "ordinal_invariance_populated", "triangle"):
        assert PROPERTIES[name].prover is None
        with pytest.raises(ValueError, match="no symbolic prover"):
            P.prove(_sym("mae"), name, scopes=[P.Scope(2, "every")])
    with pytest.raises(NotImplementedError, match="triangle"):
        PROPERTIES["triangle"].prove_pattern(None, None, None)
    assert P.prove(_sym("mae"), "symmetry", scopes=[P.Scope(2, "every")]).proved
    monkeypatch.setattr(type(PROPERTIES["symmetry"]), "prove_pattern", lambda self, ev, m, spec: "broken on purpose")
    p = P.prove(_sym("mae"), "symmetry", scopes=[P.Scope(2, "every")])
    assert not p.proved and p.refused[0][1] == "broken on purpose"
    # a vacuous scope comes from the class's method too
    monkeypatch.setattr(type(PROPERTIES["scale"]), "vacuous", lambda self, scope: "true")
    assert P.prove(_sym("mae"), "scale", scopes=[P.Scope(2, "every")]).patterns == 0
