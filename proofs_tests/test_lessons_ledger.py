"""The lessons teach only what is true (issue 24, item 4).

Where a lesson (``notebooks/src/NN_*.py``) says that a paper's statement is
true or false, its markdown cites the claim's entry in the claims ledger
(:mod:`analytic.ledger`, rendered in ``docs/ledger.md``) as

    [ledger: `<claim id>`, <verdict>]

with ``<verdict>`` one of :data:`analytic.ledger.VERDICTS` (``verified``,
``refuted``, ``not reproduced``, ``convention``).  This suite parses every
lesson, finds every citation and checks that the id is a registered claim
and that the verdict written is the ledger's.

The verdicts are computed through the ledger API (:func:`analytic.ledger.run`)
for the cited claims only.  A few cited checks take seconds each (symbolic
derivations, exhaustive searches); for those, listed in :data:`SLOW`, the
verdict is the claim's reviewed ``expect``, which
``test_ledger.py::test_verdict_is_the_reviewed_one`` asserts every run of the
ledger still returns.  So the suite stays fast (the run takes about 4 s on an
idle machine) and no cited verdict goes unchecked.

It also checks the fixes of issue 24.4 (lesson 4's Remark 1, lesson 2's
eq. 21 caveat, lesson 6's scaling of OC's beta), and the shape every lesson
shares: it opens with what it assumes and what a student will learn, ends
with a summary (before its exercises), and its plotting cells are tagged
``hide-input`` so the mathematics leads.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

import numeric
from analytic import ledger

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"

_spec = importlib.util.spec_from_file_location("notebooks_build_lessons", NB_DIR / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

LESSONS = dict(build.sources())                      # name -> path of its source

#: a citation of the ledger in a lesson's markdown (whitespace normalised to single spaces)
CITATION = re.compile(r"\[ledger: `(?P<id>[^`\s]+)`, (?P<verdict>[a-z ]+?)\]")
#: where a citation starts: every such place must be a well-formed citation
CITATION_START = re.compile(r"\[ledger:")

#: cited claims whose check takes more than about half a second on an idle
#: machine: their verdict is the reviewed ``expect``, which test_ledger.py
#: asserts every ledger run returns (the others, about 4 s in all, are run)
SLOW = frozenset({
    "binotto2024:prop3:symbolic",
    "binotto2024:prop6:derived",
    "binotto2024:sec4.1:equal-lengths",
    "binotto2024:sec4.2:homogeneity",
    "binotto2024:toy:cost-matrix-and-tc",
    "binotto2024:toy:stc-values",
    "cardoso2011:appendixA:diagonal-for-beta-ge-1-over-N-plus-1",
    "cardoso2011:eq6:beta-ge-1-diagonal",
    "cardoso2011:sec3.2:single-sample-form",
    "cardoso2011:sec3.4:dynamic-programme",
    "cardoso2011:sec4:tridiagonal-improves-with-K",
    "cardoso2011:sec4:tridiagonal-limits",
    "cardoso2011:sec4:tridiagonal-ranking-to-1",
    "cardoso2011:table4:CM_5:matrix",
    "silva2018:eq22:diagonal-optimal-beta-ge-1",
    "silva2018:eq23:a-uoc-exact-integral",
    "silva2018:sec4A:single-sample-a-uoc",
    "silva2018:sec4A:tridiagonal-intermediate",
})


def _flat(text):
    return re.sub(r"\s+", " ", text)


def markdown_cells(name, text=None):
    """The markdown cells of lesson ``name`` (or of the source ``text``), whitespace normalised."""
    cells = build.parse(LESSONS[name].read_text(encoding="utf-8") if text is None else text)
    return [_flat(c.source) for c in cells if c.cell_type == "markdown"]


def citations(name, text=None):
    """``[(claim id, verdict written), ...]`` of lesson ``name``, in order."""
    return [(m["id"], m["verdict"]) for cell in markdown_cells(name, text)
            for m in CITATION.finditer(cell)]


def malformed(name, text=None):
    """The places where a citation starts but does not have the citation's form."""
    bad = []
    for cell in markdown_cells(name, text):
        good = {m.start() for m in CITATION.finditer(cell)}
        bad += [cell[m.start():m.start() + 80] for m in CITATION_START.finditer(cell)
                if m.start() not in good]
    return bad


_VERDICTS: dict[str, str] = {}


def ledger_verdicts(ids):
    """``{id: verdict}`` through the ledger API: run the cited claims (their
    ``expect`` for :data:`SLOW`); an id that is not registered is left out."""
    registry = {c.id: c for c in ledger.claims()}
    todo = sorted({i for i in ids if i in registry and i not in _VERDICTS})
    run = [registry[i] for i in todo if i not in SLOW]
    _VERDICTS.update({e.id: e.verdict for e in ledger.run(only=run)})
    _VERDICTS.update({i: registry[i].expect for i in todo if i in SLOW})
    return {i: _VERDICTS[i] for i in ids if i in registry}


def citation_problems(cited):
    """``"<lesson>: <id>: ..."`` for each citation ``(lesson, id, verdict)`` whose id is
    not a claim or whose verdict is not the ledger's."""
    verdicts = ledger_verdicts([i for _, i, _ in cited])
    problems = []
    for lesson, cid, written in cited:
        if cid not in verdicts:
            problems.append(f"{lesson}: {cid}: no such claim in the ledger")
        elif written != verdicts[cid]:
            problems.append(f"{lesson}: {cid}: the lesson says {written!r}, the ledger {verdicts[cid]!r}")
    return problems


ALL_CITED = [(name, cid, v) for name in LESSONS for cid, v in citations(name)]


# ---------------------------------------------------------------------------
# the citations
# ---------------------------------------------------------------------------
def test_every_citation_is_a_claim_with_the_ledgers_verdict():
    assert len(ALL_CITED) >= 40, "the lessons cite the ledger for the paper claims they state"
    assert not citation_problems(ALL_CITED)


def test_citations_are_well_formed():
    bad = {name: malformed(name) for name in LESSONS}
    assert not {k: v for k, v in bad.items() if v}, bad


@pytest.mark.parametrize("name", [n for n in LESSONS if n[:2] in ("01", "02", "03", "04", "05", "06")])
def test_each_lesson_on_the_papers_cites_the_ledger(name):
    assert citations(name), f"{name} states the papers' claims without citing the ledger"


def test_the_slow_list_holds_only_cited_claims():
    """:data:`SLOW` names cited claims (a stale entry would hide nothing, but mislead)."""
    assert SLOW <= {cid for _, cid, _ in ALL_CITED}


def test_a_wrong_verdict_fails():
    """The check can fail: lesson 4 with Remark 1 called "verified" (the ledger: refuted),
    a claim id that does not exist, and a citation without its verdict are all caught."""
    text = LESSONS["04_cost_sensitive"].read_text(encoding="utf-8")
    assert ("binotto2024:remark1:symmetric-iff-balanced", "refuted") in citations("04_cost_sensitive", text)
    broken = text.replace("`binotto2024:remark1:symmetric-iff-balanced`, refuted]",
                          "`binotto2024:remark1:symmetric-iff-balanced`, verified]")
    cited = [("04 broken", cid, v) for cid, v in citations("04_cost_sensitive", broken)]
    assert ("04 broken: binotto2024:remark1:symmetric-iff-balanced: the lesson says 'verified', "
            "the ledger 'refuted'") in citation_problems(cited)
    assert citation_problems([("x", "binotto2024:remark99", "verified")]) == [
        "x: binotto2024:remark99: no such claim in the ledger"]
    assert malformed("04_cost_sensitive", "# %% [markdown]\n# A [ledger: `binotto2024:prop1:exhaustive`] cite.\n")


# ---------------------------------------------------------------------------
# the fixes of issue 24.4
# ---------------------------------------------------------------------------
def _cells_with(name, *words):
    return [c for c in markdown_cells(name) if all(w in c for w in words)]


def _cites(cell, cid, verdict):
    return (cid, verdict) in [(m["id"], m["verdict"]) for m in CITATION.finditer(cell)]


def test_lesson4_teaches_remark1_as_refuted():
    """binotto2024 Remark 1 (symmetric iff balanced) fails for two classes: every cell
    that states it cites the refuted claim, and the lesson shows the two-class case."""
    cells = _cells_with("04_cost_sensitive", "Remark 1", "symmetric")
    assert cells
    assert all(_cites(c, "binotto2024:remark1:symmetric-iff-balanced", "refuted") for c in cells), cells
    # the minimal counterexample of the ledger's evidence: counts (1, 2), M = [[0, 1/3], [1/3, 0]]
    M = numeric.cost_matrix([1, 2], arithmetic="exact")
    assert (M == M.T).all()
    assert "numeric.cost_matrix([1, 2]" in LESSONS["04_cost_sensitive"].read_text(encoding="utf-8")


def test_lesson5_teaches_remark4_as_refuted():
    """binotto2024 Remark 4 (the interval analogue of Remark 1) fails for two classes too."""
    cells = _cells_with("05_intervals", "Remark 4", "symmetric")
    assert cells
    assert all(_cites(c, "binotto2024:remark4:symmetric-iff-proportional", "refuted") for c in cells), cells


def test_lesson2_gives_the_eq21_caveat():
    """The printed UOC formula with K'^(1-gamma) (silva2018 eqs. 21, 28) is eq. 20 only for
    gamma = 1: the cell that prints it cites the ledger's refuted eq. 21 claim."""
    cells = _cells_with("02_oc_uoc_paths", "K'^{1-\\gamma}")
    assert cells
    assert all(_cites(c, "silva2018:eq21:simplification-of-eq20", "refuted") for c in cells), cells
    assert all("γ = 1 only" in c for c in cells)


def _explorer_namespace():
    """Run lesson 6's visible code cells before the widgets (imports, the metrics table)."""
    cells = build.parse(LESSONS["06_explorer"].read_text(encoding="utf-8"))
    ns: dict = {}
    for cell in cells:
        if cell.cell_type != "code":
            continue
        if "hide-input" in cell.metadata.get("tags", []):
            break
        code = "\n".join(line for line in cell.source.splitlines() if not line.startswith("%"))
        exec(compile(code, "06_explorer", "exec"), ns)      # our own source, not user input
    return ns


def test_lesson6_scales_ocs_beta_as_its_label_says():
    """The explorer's OC row is OC at beta/(N(K-1)) (cardoso2011's tables, ledger
    cardoso2011:tables:beta-scaling), so it moves over the whole slider; passed
    unscaled, OC is constant from beta = 1/85 on for the starting matrix."""
    ns = _explorer_namespace()
    start = ns["START"]
    N, K = int(start.sum()), len(start)
    labels = [label for label, _ in ns["METRICS"] if label.startswith("OC")]
    assert labels == ["OC at β/(N(K−1))"]
    for b in (0.1, 0.25, 0.6, 1.0):
        got = ns["metric_values"](start, b)[labels[0]]
        assert got == pytest.approx(float(numeric.oc(start, b / (N * (K - 1)))), rel=1e-12)
    # unscaled, OC would be the diagonal's value for every slider position from 1/85 on
    assert numeric.oc(start, 0.25) == numeric.oc(start, 0.75)
    values = [ns["metric_values"](start, b)[labels[0]] for b in np.linspace(0, 1, 11)]
    assert all(a < b for a, b in zip(values, values[1:]))    # scaled: it moves everywhere
    assert "convention" in " ".join(markdown_cells("06_explorer"))


# ---------------------------------------------------------------------------
# the shape of every lesson
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(LESSONS))
def test_lesson_opens_with_assumptions_and_aims_and_ends_with_a_summary(name):
    cells = build.parse(LESSONS[name].read_text(encoding="utf-8"))
    first_code = next(i for i, c in enumerate(cells) if c.cell_type == "code")
    opening = " ".join(c.source for c in cells[:first_code] if c.cell_type == "markdown")
    assert "**What this lesson assumes.**" in opening and "**What you will learn.**" in opening
    body = [c for c in cells if c.cell_type == "markdown" and "solution" not in c.metadata.get("tags", [])]
    headings = [h for c in body for h in re.findall(r"^## (.+)$", c.source, re.M)]
    summary = [i for i, h in enumerate(headings) if re.fullmatch(r"(\d+\. )?Summary", h)]
    assert len(summary) == 1, headings
    after = headings[summary[0] + 1:]
    assert after == [] or (len(after) == 1 and re.fullmatch(r"\d+\. Exercises", after[0])), headings


@pytest.mark.parametrize("name", list(LESSONS))
def test_plotting_cells_are_hidden_and_hide_no_check(name):
    """Every figure cell is tagged ``hide-input`` (its input is collapsed, its figure shown);
    a hidden cell holds no ``assert``: the checks stay in view.  build.py passes the tag into
    the notebook, and the committed notebook carries it."""
    cells = build.parse(LESSONS[name].read_text(encoding="utf-8"))
    tags = [c.metadata.get("tags", []) for c in cells]
    hidden = [c for c, t in zip(cells, tags) if "hide-input" in t]
    assert hidden
    figures = [t for t in tags if any(x.startswith("figure:") for x in t)]
    assert all("hide-input" in t for t in figures), figures
    assert not [c.source[:80] for c in hidden if re.search(r"^\s*assert\b", c.source, re.M)]
    committed = nbformat.read(str(NB_DIR / f"{name}.ipynb"), as_version=4)
    assert [c.metadata.get("tags", []) for c in committed.cells] == tags, (
        f"{name}.ipynb is out of date: run python notebooks/build.py {name[:2]}")
