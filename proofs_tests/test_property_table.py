"""The committed property table (analytic/properties/table.json, docs/properties.md) is current.

The table is the search of DEFAULT_SPACE with the proofs of DEFAULT_SCOPES,
minutes of work, so these tests check it without redoing that search:

- it describes the current code (space, proof scopes, properties, every
  registered variant) and docs/properties.md is its rendering;
- every counterexample still fails, re-checked in exact arithmetic, with the
  recorded witness;
- every cell is consistent with the all-exact search of SMALL_SPACE (every
  matrix with K <= 3 and N <= 3, 24 random matrices): a "holds"/"proved"
  cell has no counterexample there, and a minimal counterexample that lies
  in that space's exhaustive part is the one the exact search finds first
  (the two walks share their order);
- the float screen agrees with that exact search on SMALL_SPACE (the same
  verdicts and counterexamples), for every variant.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import numeric  # noqa: F401  (registers every metric)
from analytic.properties import audit as A
from analytic.ledger.checks.audit_properties import recheck
from analytic.properties.generators import order_key
from analytic.properties import table as T
from analytic.properties.space import DEFAULT_SPACE, SMALL_SPACE
from analytic.properties.prover import DEFAULT_SCOPES
from numeric.registry import matrix_metrics

ROOT = Path(__file__).resolve().parents[1]
CASES = [(m.name, v.label) for m in matrix_metrics() for v in m.cases()]
TABLE = T.load()
REPORTS = {(r["metric"], r["variant"]): r for r in TABLE["reports"]}
REGEN = ("run `ordinal-verify audit --all --exact-ties --json analytic/properties/table.json "
         "--markdown docs/properties.md`")


@functools.lru_cache(maxsize=None)
def exact_small(name, label):
    return A.audit(name, variant=label, space=SMALL_SPACE, prove=False, exact=True)


def test_the_table_describes_the_current_code():
    assert T.same_space(TABLE["space"], DEFAULT_SPACE), f"another space: {REGEN}"
    assert TABLE["scopes"] == [[s.K, s.kind] for s in DEFAULT_SCOPES], f"other scopes: {REGEN}"
    assert [p["name"] for p in TABLE["properties"]] == list(A.PROPERTIES), REGEN
    assert [(r["metric"], r["variant"]) for r in TABLE["reports"]] == CASES, REGEN
    for r in TABLE["reports"]:
        assert list(r["properties"]) == list(A.PROPERTIES)


def test_every_tie_of_the_table_was_decided_exactly():
    """The table is the search with ``--exact-ties``: every float tie of every cell
    decided exactly.  A table generated without the flag fails here (its header
    says how it was made)."""
    for r in TABLE["reports"]:
        for p, cell in r["properties"].items():
            assert cell["ties_confirmed"] == cell["ties"], (r["variant"], p, REGEN)


def test_properties_md_is_the_rendered_table():
    actual = (ROOT / "docs" / "properties.md").read_text(encoding="utf-8")
    assert actual == T.markdown(TABLE), f"docs/properties.md is stale: {REGEN}"


@pytest.mark.parametrize("name, label", CASES)
def test_every_counterexample_still_fails(name, label):
    for r in REPORTS[name, label]["properties"].values():
        if r["verdict"] == "fails":
            assert recheck(name, label, r) is None


@pytest.mark.parametrize("name, label", CASES)
def test_cells_agree_with_the_exact_search_of_the_small_space(name, label):
    ref = exact_small(name, label)
    for p, cell in REPORTS[name, label]["properties"].items():
        small = ref.results[p]
        if cell["verdict"] in ("holds", "proved"):
            assert small.verdict in ("holds", "n/a"), (label, p, small.cell())
        if cell["verdict"] == "fails" and cell["minimal"] and small.verdict == "fails" \
                and isinstance(small.counterexample, np.ndarray):
            big = T.counterexample_of(cell)
            # the default walk is a superset with the same order: its first
            # counterexample comes no later than the small walk's
            assert order_key(big) <= order_key(small.counterexample), (label, p)
            in_small = big.shape[0] <= 3 and big.sum() <= 3
            if in_small:
                assert big.tolist() == small.counterexample.tolist(), (label, p)
        if cell["verdict"] == "n/a" and small.verdict != "n/a":
            assert small.verdict in ("holds", "fails"), (label, p)


@pytest.mark.parametrize("name, label", CASES)
def test_screen_agrees_with_the_exact_search_on_the_small_space(name, label):
    """The float screen hides no counterexample the exact search finds (and
    invents none): the same verdicts and counterexamples on SMALL_SPACE."""
    fast = A.audit(name, variant=label, space=SMALL_SPACE, prove=False)
    ref = exact_small(name, label)
    for p in A.PROPERTIES:
        a, b = fast.results[p], ref.results[p]
        assert (a.verdict, a.counterexample_text(), a.witness) == (
            b.verdict, b.counterexample_text(), b.witness), (label, p)
        if a.verdict == "holds":
            assert a.checked == b.checked
