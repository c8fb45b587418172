"""The property auditor (issue 12, parts 2-3): known counterexamples found and
minimal, known properties hold on the search space (and are proved
symbolically where the prover derives them), the registry's symmetric flag
agrees with the auditor.  The prover itself is tested in test_prover.py, the
engine in test_property_engine.py, the committed table in test_property_table.py."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy

import numeric
from analytic.properties import audit as A
from analytic.properties.generators import all_matrices
from analytic.properties.space import SMALL_SPACE
from analytic.properties.prover import scopes
from numeric.registry import matrix_metrics

ROOT = Path(__file__).resolve().parents[1]
CASES = [(m.name, v.label) for m in matrix_metrics() for v in m.cases()]
#: the proof scopes of these tests: every matrix with K <= 2, all-positive K = 3
SCOPES = scopes(2, 3)


def small(name, label, **kw):
    return A.audit(name, variant=label, space=SMALL_SPACE, prove=SCOPES, **kw)


@pytest.mark.parametrize("metric", matrix_metrics(), ids=lambda m: m.name)
def test_symmetric_flag_agrees_with_the_auditor(metric):
    """numeric.registry's ``symmetric`` is True exactly when the committed property table
    (the auditor's full search) has no transposition counterexample (verdict "holds" or
    "proved"), for every report variant; test_property_table keeps the table current."""
    from analytic.properties.table import load

    reports = {(r["metric"], r["variant"]): r for r in load()["reports"]}
    verdicts = [reports[metric.name, v.label]["properties"]["symmetry"]["verdict"]
                for v in metric.cases()]
    assert {v in ("holds", "proved") for v in verdicts} == {metric.symmetric}, verdicts
    assert "n/a" not in verdicts  # symmetry applies to every metric


def test_uoc_symmetry_minimal_witness():
    """UOC_{1/4} of [[0,0],[1,2]] (rows = true) by hand, silva2018 eq. 28, gamma = 1:
    row 0 is unobserved, K' = 1, p = (1/3, 2/3), D = K' + sum p|r-c| = 4/3; the path
    (0,0),(1,0),(1,1) gives 1 - 1/(4/3) + (1/4)(1/3) = 1/3, the diagonal 1 - (2/3)/(4/3) = 1/2:
    UOC = 1/3.  Transposed [[0,1],[0,2]]: K' = 2, p = [[0,1],[0,1]], D = 2 + 1 = 3; the path
    through (0,1) gives 1 - 2/3 + (1/4)(1/2) = 11/24, the two others 2/3: UOC = 11/24."""
    r = A.audit("uoc", ["symmetry"], max_k=3, max_n=3, random=0).results["symmetry"]
    assert r.verdict == "fails"
    assert r.counterexample.tolist() == [[0, 0], [1, 2]]
    assert "= 1/3" in r.witness and "= 11/24" in r.witness
    # minimal: no matrix with N <= 2 (K <= 3) is a counterexample, checked directly
    quarter = sympy.Rational(1, 4)
    for m in all_matrices(3, 2):
        assert numeric.uoc(m, quarter, arithmetic="exact") == numeric.uoc(m.T.copy(), quarter, arithmetic="exact")


def test_mer_ordinal_monotonicity_minimal_witness():
    """MER counts a wrong prediction as 1 wherever it is: one sample of true class 2
    predicted 0 moved to predicted 1 leaves MER = 1 (not strictly better).  With K <= 2
    every one-step move reaches the diagonal (strictly better).  At K = 3, N = 1 the
    flattened order puts a 1 in a later cell first: cell (2,2) (diagonal), then (2,1)
    (distance 1: its move reaches the diagonal), then (2,0), the first counterexample.
    The prover agrees: it proves the strict property for every matrix with K <= 2
    and not on the all-positive 3 x 3 matrices; the non-strict one everywhere."""
    r = A.audit("mer", ["ordinal_monotonicity", "monotonicity"], max_k=3, max_n=3, random=0,
                prove=SCOPES).results
    om = r["ordinal_monotonicity"]
    assert om.counterexample.tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert om.proof.short() == "K <= 2"
    assert [s.short() for s, _, _ in om.proof.refused] == ["3 x 3 with every cell positive"]
    assert r["monotonicity"].verdict == "proved"
    assert r["monotonicity"].cell() == "proved (K <= 2; 3 x 3 with every cell positive)"


def test_known_properties_hold():
    """MAE is an average of |true - predicted| (silva2018 eq. 2): symmetric, a
    (pseudo)metric on label vectors, strictly monotone in each prediction, invariant
    under 2A; every one of these but the triangle inequality (search only) is also
    proved symbolically on every matrix with K <= 2 and every all-positive 3 x 3 one.
    OC is symmetric and 0 exactly on diagonal matrices (cardoso2011 §3.3); its
    table variants' beta = c / (N (K - 1)) needs the integer N, so it has no
    symbolic form: searched only."""
    mae = small("mae", "MAE")
    for p in ("range", "identity", "symmetry", "monotonicity", "ordinal_monotonicity",
              "scale", "empty_class"):
        assert mae.verdict(p) == "proved", p
        assert mae.results[p].proof.short() == "K <= 2; 3 x 3 with every cell positive", p
        assert mae.results[p].checked > 0
    assert mae.verdict("unobserved_class") == "proved"   # no empty row when all cells > 0
    assert mae.results["unobserved_class"].proof.short() == "K <= 2"
    assert mae.verdict("triangle") == "holds" and mae.results["triangle"].proof is None
    oc = small("oc", "OC, beta=0.75/(N(K-1))")
    assert oc.verdict("symmetry") == oc.verdict("identity") == "holds"
    assert {kind for _, _, kind in oc.results["symmetry"].proof.refused} == {"no symbolic form"}


def test_mae_not_ordinally_invariant():
    """Inserting an empty class between classes 0 and 1 doubles the distance of a
    sample of true 1 predicted 0: MAE goes from 1 to 2 (silva2018 eq. 2, by hand)."""
    r = A.audit("mae", ["ordinal_invariance"], space=SMALL_SPACE, prove=False).results[
        "ordinal_invariance"]
    assert r.counterexample.tolist() == [[0, 0], [1, 0]]
    assert "= 1 but" in r.witness and r.witness.endswith("= 2")


def test_mse_triangle_counterexample():
    """Squared error: d(0, 2) = 4 > d(0, 1) + d(1, 2) = 1 + 1, the smallest triple (n = 1)."""
    r = A.audit("mse", ["triangle"], space=SMALL_SPACE, prove=False).results["triangle"]
    assert r.counterexample_text() == "a=[0], b=[1], c=[2] (K=3)"


def test_user_callable_any_arithmetic():
    """A user's metric in floats: the number of errors over N (= MER) in float64 and a
    deliberately asymmetric one (errors above the diagonal count double)."""
    def mer_float(cm):
        return float(cm.sum() - np.trace(cm)) / float(cm.sum())

    def upper_double(cm):
        return Fraction(int(np.triu(cm, 1).sum()) * 2 + int(np.tril(cm, -1).sum()), int(cm.sum()))

    r = A.audit(mer_float, ["symmetry", "scale", "identity"], bounds=(0, 1), max_k=3,
                max_n=3, random=2)
    assert [r.verdict(p) for p in ("symmetry", "scale", "identity")] == ["holds"] * 3
    r = A.audit(upper_double, ["symmetry"], max_k=3, max_n=3, random=0).results["symmetry"]
    # the smallest: N = 1, K = 2, lexicographically first off-diagonal cell (1, 0)
    assert r.counterexample.tolist() == [[0, 0], [1, 0]]
    with pytest.raises(ValueError, match="unknown property"):
        A.audit(mer_float, ["nonsense"])
    with pytest.raises(ValueError, match="unknown metric"):
        A.audit("nonsense")


def test_identity_oriented_by_better():
    """A higher-is-better metric: the best value is the upper bound.  Kendall's tau_b
    is 1 on [[0,0,0],[1,0,0],[0,0,1]]-like matrices that are not diagonal: all pairs
    concordant (silva2018 eqs. 5-6) -- identity fails; MER (lower) holds."""
    tb = A.audit("kendall_tau_b", ["identity"], space=SMALL_SPACE, prove=False).results[
        "identity"]
    assert tb.verdict == "fails" and "not diagonal" in tb.witness
    assert numeric.kendall_tau_b(tb.counterexample, arithmetic="exact") == 1


def test_audit_claims_state_the_search_they_rest_on():
    """audit:triangle read "the triangle inequality holds for ... TC" while TC fails on
    label vectors of length 4 (a review found a = (0,0,1,2), b = (0,1,1,2), c = (0,1,0,1):
    TC(a, c) = 13/8 > 1/2 + 7/8, outside the default search).  Every reviewed-property
    claim says that its verdicts are the auditor's search on the default space."""
    from analytic.ledger import claims

    audit_claims = [c for c in claims("audit:") if c.id != "audit:registry-symmetric-flags"]
    assert len(audit_claims) == len(A.PROPERTIES)
    for c in audit_claims:
        assert c.statement.startswith("On the property engine's default search (every matrix "
                                      "with K <= 4 and N <= 8; every matrix with K = 5 and "
                                      "N <= 5; 20,000 random matrices"), c.id


@pytest.mark.parametrize("result", [float("inf"), True, "x", 1j, np.array([1.0])])
def test_a_metric_returning_a_non_number_is_an_error_not_undefined(result):
    """An inf (or a bool, str, complex, array) was taken as "undefined here", so every
    property held on such a metric (found in review); then it raised ValueError out of
    audit.  Now (issue 37 item 1) every property's verdict is "error", naming the value
    and the first matrix, [[0]] (K = 1, N = 0 is not searched; the order (N, K, lex)
    starts at N = 1, K = 1)."""
    r = A.audit(lambda m: result, ["range", "symmetry"], bounds=(0, 1), max_k=2, max_n=2,
                random=0)
    for res in r.results.values():
        assert res.verdict == "error" and not res.holds
        assert res.witness == (f"the metric returned {result!r:.60} (not a finite real number; "
                               "NaN, None or UndefinedMetric where it is undefined) on the count "
                               "matrix [[1]]")
        assert res.counterexample.tolist() == [[1]] and res.cell() == "error"


@pytest.mark.parametrize("result", [float("nan"), None, np.float64("nan")])
def test_a_metric_returning_nan_or_none_is_undefined(result):
    """NaN or None is how a user's callable says "undefined here" (issue 37 item 1): a
    metric undefined everywhere is n/a, never "holds" (test_property_engine's rule)."""
    r = A.audit(lambda m: result, ["range", "symmetry"], bounds=(0, 1), max_k=2, max_n=2,
                random=0)
    for res in r.results.values():
        assert res.verdict == "n/a" and "undefined on every one of the 16" in res.witness
