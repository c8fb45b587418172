"""Proofs for every K (analytic/properties/structure.py): declared structures and lemmas.

- every declared structure is the metric (its exact values on every small
  matrix and on random ones up to K = 10), and a wrong declaration is refused;
- the kernel facts the lemmas rest on are certified where they hold and not
  where they fail (checked against a plain oracle: the kernel at d = 0..30);
- every lemma's conclusion agrees with the finite prover (which proves it on
  K <= 2 wherever it handles the property) and with the search on K <= 5 (no
  counterexample in exact arithmetic), cell by cell;
- a lemma refuses when its hypothesis fails (a decreasing kernel, a geometric
  mean with an unobserved class counted 0, a mean that is not strict).
"""

from __future__ import annotations

from fractions import Fraction
import math

import numpy as np
import pytest
import sympy as sp

import numeric  # noqa: F401  (registers every metric)
from analytic.properties import structure as S
from analytic.properties.audit import audit
from analytic.properties.catalog import PROPERTIES
from analytic.properties.prover import scopes
from analytic.properties.space import Space
from numeric.registry import REGISTRY

CELLS = [(name, label, p) for (name, label), s in S.STRUCTURES.items() for p in PROPERTIES
         if S.prove_every_k(s, p, REGISTRY[name].better, REGISTRY[name].bounds) is not None]


def _exact(name, label):
    m = REGISTRY[name]
    return m.bind(m.variant(label), "exact")


@pytest.mark.parametrize("key", list(S.STRUCTURES))
def test_every_declaration_is_the_metric(key):
    # every matrix with K = 1, N <= 4 (4) and K = 2, N <= 4 (C(N + 3, 3): 4 + 10 + 20 + 35),
    # then the 40 random ones
    every = 4 + sum(math.comb(N + 3, 3) for N in range(1, 5))
    assert every == 73
    assert S.check_declaration(S.STRUCTURES[key], _exact(*key), random=40, every=(2, 4)) \
        == every + 40


def test_a_wrong_declaration_is_refused():
    with pytest.raises(ValueError, match="disagrees with the metric on"):
        S.check_declaration(S.SampleMean(S.MSE_KERNEL), _exact("mae", "MAE"), random=0)
    with pytest.raises(ValueError, match="disagrees"):  # the observed classes, not all K
        S.check_declaration(S.ClassAggregate(S.MAE_KERNEL, missing=0),
                            _exact("amae", "AMAE (observed classes)"), random=0)


def _oracle_facts(h, orient, top=30):
    """The facts on d = 0..top, plainly (a necessary check of the certified ones)."""
    loss = [orient * h(d) for d in range(top + 2)]
    return {
        "nondecreasing": all(loss[d + 1] >= loss[d] for d in range(top)),
        "increasing": all(loss[d + 1] > loss[d] for d in range(top)),
        "flat beyond 1": all(loss[d + 1] == loss[d] for d in range(1, top)),
        "separates": all(loss[d] > loss[0] for d in range(1, top)),
        "nonnegative": all(h(d) >= 0 for d in range(top)),
        "subadditive": loss[0] == 0 and all(loss[p + q] <= loss[p] + loss[q]
                                            for p in range(15) for q in range(15)),
    }


KERNELS = {"MER": (S.MER_KERNEL, lambda d: int(d != 0)), "MAE": (S.MAE_KERNEL, lambda d: d),
           "MSE": (S.MSE_KERNEL, lambda d: d * d),
           "accuracy": (S.ACCURACY_KERNEL, lambda d: int(d == 0)),
           "within one": (S.WITHIN_ONE_KERNEL, lambda d: int(d <= 1)),
           "decreasing": (S.Kernel(((0, sp.Integer(5)), (1, 5 - S.D)), "5 - d"), lambda d: 5 - d),
           "d^2 - d": (S.Kernel(((0, S.D ** 2 - S.D),), "d^2 - d"), lambda d: d * d - d)}


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("orient", [1, -1])
def test_kernel_facts_against_the_oracle(kernel, orient):
    """A certified fact holds on d = 0..30 (sound); for the registered kernels every
    fact that holds there is certified (complete where the lemmas need it).  The
    certificate is sufficient only: d^2 - d >= 0 holds but is not certified."""
    k, h = KERNELS[kernel]
    got, want = S.facts(k, orient), _oracle_facts(h, orient)
    assert all(want[f] for f in got if got[f]), (kernel, orient, got, want)
    if kernel not in ("decreasing", "d^2 - d"):
        assert got == want, (kernel, orient)
    if kernel == "d^2 - d" and orient == 1:
        assert want["nonnegative"] and not got["nonnegative"]


def test_the_kernels_are_the_metrics_distances():
    """The kernels' values at d = 0..5 (a plain oracle above) are the registered ones."""
    for name, (k, h) in KERNELS.items():
        assert [k.at(d) for d in range(6)] == [h(d) for d in range(6)], name
    assert S.MAE_KERNEL.matrix(3)[0, 2] == Fraction(2)


SPACE5 = Space(exhaustive=((1, 4), (2, 4), (3, 4), (4, 3), (5, 2)), random=150, random_k=5,
               random_n=14, seed=0, triangle=((2, 3), (3, 2)), triangle_random=0,
               diagonal=((3, 9), (4, 7), (5, 6)))


@pytest.mark.parametrize("name", sorted({n for n, _, _ in CELLS}))
def test_every_lemma_agrees_with_the_search_on_k_up_to_5(name):
    """For each cell a lemma proves for every K, the search of every small matrix up
    to K = 5 (float screen, every tie decided exactly) finds no counterexample: a
    counterexample would raise (``RuntimeError``: a lemma contradicted)."""
    for label in sorted({lb for n, lb, _ in CELLS if n == name}):
        props = [p for n, lb, p in CELLS if (n, lb) == (name, label)]
        r = audit(name, props, variant=label, space=SPACE5, prove=False, exact_ties=True,
                  every_k=True)
        for p in props:
            res = r.results[p]
            assert res.verdict == "proved" and res.every_k is not None, (label, p, res.cell())
            assert res.cell() == "proved (every K)" and res.checked > 0


def test_every_lemma_agrees_with_the_finite_prover():
    """The finite prover never contradicts a lemma: on the committed table, every
    lemma cell's finite proof attempt is proved on K <= 3 or refused without a value
    that disagrees (its certificates are sufficient, not necessary: MMAE's maximum, GM's
    roots; OC's and UOC's minimum over paths has no symbolic form): 85 of the 134 lemma
    cells are proved on K <= 3 too; and live, on K <= 2 for MAE and AMAE, it proves what
    the lemmas prove."""
    from analytic.properties import table as T

    reports = {(r["metric"], r["variant"]): r["properties"] for r in T.load()["reports"]}
    proved_too = 0
    for name, label, p in CELLS:
        cell = reports[name, label][p]
        assert cell["verdict"] == "proved" and cell["every_k"] is not None, (label, p)
        proof = cell["proof"]
        if proof is not None:  # never a value of the formula that disagrees with the metric
            # (A_UOC's formula refuses symbolic counts: "no symbolic form"; a "contract"
            # refusal is a symbolic "undefined" that an exact instance contradicts)
            assert all(x["kind"] != "contract" or " is undefined (" in x["reason"]
                       for x in proof["refused"]), (label, p)
            proved_too += bool(proof["scopes"]) and any(k >= 2 for k, _ in proof["scopes"])
    assert proved_too == 85, proved_too  # counted on the committed table (2026-12-07)
    for name, label in (("mae", "MAE"), ("amae", "AMAE (observed classes)")):
        # imbalance says nothing below K = 3 (its family proof starts there): not on K <= 2
        props = [p for n, lb, p in CELLS if (n, lb) == (name, label) and PROPERTIES[p].prover
                 and not p.startswith("imbalance")]
        r = audit(name, props, variant=label, max_k=2, max_n=2, random=0, prove=scopes(2, 0))
        assert all(r.results[p].proof.proved for p in props), (label, props)


def test_the_lemmas_prove_what_the_table_counts():
    """The cells a lemma proves (134: 112 of the kernel structures, 22 of the path
    structures of OC, UOC and A_UOC): the count the table's summary rests on."""
    assert len(CELLS) == 134
    assert sum(n in ("oc", "uoc", "a_uoc") for n, _, _ in CELLS) == 22


@pytest.mark.parametrize("structure, prop", [
    (S.SampleMean(KERNELS["decreasing"][0]), "monotonicity"),
    (S.SampleMean(S.MSE_KERNEL), "triangle"),
    (S.SampleMean(S.MAE_KERNEL), "ordinal_invariance"),
    (S.SampleMean(S.WITHIN_ONE_KERNEL), "identity"),
    (S.ClassAggregate(S.ACCURACY_KERNEL, "gmean", missing=0), "imbalance"),
    (S.ClassAggregate(S.MAE_KERNEL, "max"), "ordinal_monotonicity"),
    (S.ClassAggregate(S.MAE_KERNEL, "mean", missing=0), "empty_class"),
    (S.ClassAggregate(S.MAE_KERNEL, "mean"), "symmetry"),
])
def test_a_lemma_refuses_when_its_hypothesis_fails(structure, prop):
    assert S.prove_every_k(structure, prop, "lower", (0, None)) is None


def test_a_lemma_proves_for_a_users_callable():
    """A callable declaring its structure (macro-averaged MER, written here) gets the
    lemmas too, after the declaration is checked against it."""
    def macro_mer(A):
        rows = [(int(r.sum()), int(r.sum() - r[i])) for i, r in enumerate(np.asarray(A))]
        obs = [Fraction(e, n) for n, e in rows if n]
        if not obs:
            raise ValueError("no sample")
        return sum(obs, Fraction(0)) / len(obs)

    st = S.ClassAggregate(S.MER_KERNEL, "mean")
    r = audit(macro_mer, ["scale", "imbalance", "ordinal_invariance"], structure=st,
              bounds=(0, 1), max_k=3, max_n=3, random=0)
    assert {p: x.cell() for p, x in r.results.items()} == {
        "scale": "proved (every K)", "imbalance": "proved (every K)",
        "ordinal_invariance": "proved (every K)"}
    with pytest.raises(ValueError, match="disagrees"):
        audit(macro_mer, ["scale"], structure=S.ClassAggregate(S.MAE_KERNEL), max_k=2, max_n=2,
              random=0)


def test_a_twin_takes_only_its_own_property_s_proof():
    """kappa: ordinal invariance is proved on K <= 3 and the 4 x 4 all-positive matrices,
    so its populated twin is too ("implied by ordinal_invariance"); imbalance and its twin
    are each proved on their own symbolic families (3 <= K <= 5, issue 41 item 2), never
    by borrowing another property's proof."""
    r = audit("cohen_kappa", ["ordinal_invariance", "ordinal_invariance_populated", "imbalance",
                              "imbalance_populated"], max_k=3, max_n=3, random=0)
    res = r.results
    assert res["ordinal_invariance"].verdict == "proved"
    assert res["ordinal_invariance_populated"].verdict == "proved"
    assert res["ordinal_invariance_populated"].how.startswith("implied by ordinal_invariance ")
    assert res["ordinal_invariance_populated"].proof.property == "ordinal_invariance_populated"
    for p in ("imbalance", "imbalance_populated"):
        assert res[p].verdict == "proved" and res[p].proof.property == p
        assert res[p].proof.short() == "3 <= K <= 5" and not res[p].how.startswith("implied")


def test_the_path_enumeration_is_every_monotone_path():
    """The A_UOC declaration's paths: the central Delannoy numbers 1, 3, 13, 63, 321
    (OEIS A001850), each path a monotone walk from (0, 0) to (K - 1, K - 1)."""
    assert [len(S._paths(K)) for K in range(1, 6)] == [1, 3, 13, 63, 321]
    for path in S._paths(4):
        assert path[0] == (0, 0) and path[-1] == (3, 3)
        assert all((a2 - a1, c2 - c1) in ((1, 0), (0, 1), (1, 1))
                   for (a1, c1), (a2, c2) in zip(path, path[1:]))


def test_a_path_declaration_of_another_metric_is_refused():
    """UOC's weights declared for OC, or OC's beta for UOC's: the check names a matrix."""
    with pytest.raises(ValueError, match="disagrees with the metric on"):
        S.check_declaration(S.OptimalPath("uoc", Fraction(1, 4)),
                            _exact("oc", "OC, beta=0.25/(N(K-1))"), random=20)
    with pytest.raises(ValueError, match="disagrees with the metric on"):
        S.check_declaration(S.OptimalPath("uoc", Fraction(3, 4)), _exact("uoc", "UOC, beta=0.25"),
                            random=20)


@pytest.mark.parametrize("key, prop", [
    (("uoc", "UOC, beta=0.25"), "symmetry"),      # rows normalised: not symmetric
    (("uoc", "UOC, beta=0.25"), "empty_class"),   # no lemma: a path may skip the corner
    (("a_uoc", "A_UOC"), "symmetry"),
    (("oc", "OC, beta=0.25/(N(K-1))"), "monotonicity"),
])
def test_a_path_lemma_refuses_what_it_does_not_prove(key, prop):
    m = REGISTRY[key[0]]
    assert S.prove_every_k(S.STRUCTURES[key], prop, m.better, m.bounds) is None
    assert S.prove_every_k(S.STRUCTURES[key], "range", m.better, (0, 2)) is None  # other bounds
