r"""The property table: every registered metric's verdicts, as data and as Markdown.

The table is a committed artefact, :data:`TABLE_PATH` (package data, so the
installed ledger reads it), written by ``ordinal-verify audit --all`` after
a search of :data:`analytic.properties.space.DEFAULT_SPACE` and the proofs of
:data:`analytic.properties.prover.DEFAULT_SCOPES` (about ten minutes on two cores: too
slow to repeat in every test run).  ``docs/properties.md`` is rendered from
it by :func:`markdown`.  The test suite checks that the artefact is current
without re-running the search: its space, scopes, metrics and properties
are the code's, the Markdown is its rendering, every counterexample is
re-checked in exact arithmetic, and every "holds" or "proved" cell is
re-searched on :data:`~analytic.properties.space.SMALL_SPACE` in exact
arithmetic."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

__all__ = ["TABLE_PATH", "result_dict", "report_dict", "table_dict", "load", "markdown",
           "space_dict", "cell", "counterexample_of"]

#: the committed table (package data)
TABLE_PATH = Path(__file__).with_name("table.json")


def _counterexample_json(r):
    c = r.counterexample
    if c is None:
        return None
    if isinstance(c, np.ndarray):
        return {"matrix": c.tolist()}
    a, b, cc, K = c
    return {"a": list(a), "b": list(b), "c": list(cc), "K": int(K)}


def counterexample_of(d):
    """The counterexample of a result dict: an ``int64`` matrix or ``(a, b, c, K)``."""
    c = d.get("counterexample")
    if c is None:
        return None
    if "matrix" in c:
        return np.array(c["matrix"], dtype=np.int64)
    return (tuple(c["a"]), tuple(c["b"]), tuple(c["c"]), c["K"])


def _proof_json(proof):
    if proof is None:
        return None
    return {"scopes": [[s.K, s.kind] for s in proof.scopes], "short": proof.short(),
            "scope_text": proof.scope_text(), "seconds": round(proof.seconds, 1),
            "refused": [{"scope": sc.short(), "scope_text": sc.text(), "kind": kind,
                         "reason": why} for sc, why, kind in proof.refused]}


def result_dict(r) -> dict:
    """A :class:`analytic.properties.audit.PropertyResult` as JSON-ready data."""
    return {"property": r.property, "verdict": r.verdict, "cell": r.cell(),
            "counterexample": _counterexample_json(r), "witness": r.witness, "how": r.how,
            "minimal": r.minimal, "searched": r.searched, "checked": r.checked,
            "undefined": r.undefined, "ties": r.ties, "ties_confirmed": r.ties_confirmed,
            "exact": r.exact, "evidence": r.evidence(), "proof": _proof_json(r.proof)}


def report_dict(name, label, rep) -> dict:
    return {"metric": name, "variant": label, "better": rep.better,
            "properties": {p: result_dict(r) for p, r in rep.results.items()}}


def space_dict(space) -> dict:
    return {k: (list(map(list, v)) if isinstance(v, tuple) else v)
            for k, v in dataclasses.asdict(space).items()}


def table_dict(rows, space, scopes) -> dict:
    """The whole table: how it was searched, and every report."""
    from .catalog import PROPERTIES

    return {"space": space_dict(space), "space_text": space.describe(),
            "scopes": [[s.K, s.kind] for s in scopes],
            "properties": [{"name": p.name, "title": p.title, "source": p.source,
                            "statement": p.statement()} for p in PROPERTIES.values()],
            "reports": [report_dict(*r) for r in rows]}


def load(path=TABLE_PATH) -> dict:
    """The committed table (see :func:`table_dict`)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def cell(d) -> str:
    """The cell text of a result dict."""
    return d["cell"]


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------
def _esc(t) -> str:
    r"""A table cell: no line breaks, ``|`` and ``*`` escaped (SymPy's products
    would otherwise turn into italics).

    >>> print(_esc("(12*k**2 + 3*k - 1) | x"))
    (12\*k\*\*2 + 3\*k - 1) \| x
    """
    return str(t).replace("|", "\\|").replace("*", "\\*").replace("\n", " ")


def _clip(text, n=220):
    return text if len(text) <= n else text[:n] + " ..."


def _scopes_legend(scopes) -> str:
    every = sorted(K for K, kind in scopes if kind == "every")
    pos = sorted(K for K, kind in scopes if kind == "positive")
    parts = []
    if every:
        parts.append(f"`K<={max(every)}`: every matrix with at most {max(every)} classes (each "
                     "support pattern -- which cells are nonzero -- with its counts as positive "
                     "integer symbols, so every count matrix of that size)")
    for k in pos:
        parts.append(f"`K={k}+`: every {k} x {k} matrix whose {k * k} cells are all positive")
    return "; ".join(parts)


def markdown(table: dict) -> str:
    """``docs/properties.md``: the table rendered, deterministic."""
    from . import prover as _prover

    names = [p["name"] for p in table["properties"]]
    sp = table["space"]
    tri = "; ".join(f"K = {K}, n <= {n}" for K, n in sp["triangle"])
    diag = "; ".join(f"K = {K}, N <= {n}" for K, n in sp["diagonal"])
    lines = [
        "# Property table", "",
        "Generated by `ordinal-verify audit --all --json analytic/properties/table.json "
        "--markdown docs/properties.md`; a test fails when this file or the table is stale "
        "(it re-checks every counterexample and re-searches every other cell on a small space "
        "in exact arithmetic, without re-running the whole search).", "",
        "Every registered metric (each report variant) audited by `analytic.properties.audit` "
        "(the properties: `analytic/properties/catalog.py`; the search: "
        "`analytic/properties/engine.py`).", "",
        "## What was searched", "",
        f"- **Matrices**: {table['space_text']}.",
        f"- **Imbalance**: diagonal matrices with {diag} (every class count ordered pair).",
        f"- **Triangle**: every triple of label vectors with {tri}, plus "
        f"{sp['triangle_random']:,} random triples of length up to {sp['triangle_n']} "
        "(triples with b = a or b = c reduce to d >= 0 and are left out).",
        "- **How**: every matrix is evaluated in float64 (numeric's vectorised metrics); a "
        "violation beyond a tolerance of 1e-9 (relative), and every tie of a strict relation, "
        "is a candidate decided in exact arithmetic; a tie of an equality or a non-strict "
        "inequality (two float values within 1e-9, which float64 cannot order) is decided in "
        "exact arithmetic for the first 1,000 ties of each property in search order, and "
        "the rest are counted in the evidence below as agreeing to 1e-9 only.",
        "- **Amigó et al. 2020's setting**: the three properties of their §3 are searched on "
        "every matrix and again (`*_populated`) only on matrices whose true classes are all "
        "populated, as in their gold standards.", "",
        "## Verdicts", "",
        "- **proved (scope)**: a symbolic proof for every matrix of the scope, and no "
        f"counterexample in the search. Scopes: {_scopes_legend(table['scopes'])}. The proof "
        "evaluates the metric's own formula (`numeric` with `SymbolicArithmetic`) on the matrix "
        "of symbols, certifies that the value is a real number at every instance, and derives "
        "the statement in the last column of the definitions below: an identity by "
        "cancellation of sparse polynomials, an inequality by a positivity certificate (a "
        "polynomial in n >= 1 whose coefficients are all >= 0 after n = 1 + m). Outside the "
        "scope, \"proved\" says no more than \"holds\".",
        "- **holds**: no counterexample in the search (its size and the ties left unconfirmed "
        "are in \"Evidence\" below), and no symbolic proof: the prover does not handle the "
        "property or did not derive it (why: \"Proofs not obtained\").",
        "- **fails M**: a counterexample M confirmed in exact arithmetic (rows = true class); "
        "the minimal one of the exhaustive part (fewest samples, then classes, then "
        "lexicographic) unless \"Counterexamples\" says it was found at random and shrunk. A "
        "property proved on a smaller scope and refuted outside it is \"fails\", its proof "
        "kept in the counterexample's line.",
        "- **n/a**: the property says nothing here, with the reason: it does not apply "
        "(triangle: not distance-like; range: no bounds; identity: unbounded better side), "
        "the search met no matrix the property speaks of, or the metric is undefined on every "
        "searched matrix.", "",
        "## Properties", "",
        "| property | definition | source | symbolic proof |", "|---|---|---|---|",
    ]
    for p in table["properties"]:
        lines.append(f"| `{p['name']}` | {_esc(p['title'])} | {_esc(p['source'])} | "
                     f"{_esc(_prover.STATEMENTS.get(p['name'], 'none (search only)'))} |")
    lines += ["", "Formal statements:", ""]
    lines += [f"- `{p['name']}`: {_esc(p['statement'])}" for p in table["properties"]]
    lines += ["", "## Table", "",
              "| metric | " + " | ".join(f"`{n}`" for n in names) + " |",
              "|---|" + "---|" * len(names)]
    for rep in table["reports"]:
        cells = [_esc(rep["properties"][n]["cell"]) for n in names]
        lines.append(f"| {_esc(rep['variant'])} (`{rep['metric']}`) | " + " | ".join(cells) + " |")
    lines += ["", "## Counterexamples", ""]
    for rep in table["reports"]:
        fails = [rep["properties"][n] for n in names if rep["properties"][n]["verdict"] == "fails"]
        if not fails:
            continue
        lines += [f"### {_esc(rep['variant'])} (`{rep['metric']}`)", ""]
        for r in fails:
            lines.append(f"- **{r['property']}**: {_esc(r['evidence'])}")
        lines.append("")
    lines += ["## Evidence", "",
              "For each cell that is not \"fails\" or \"n/a\": how many base matrices (or "
              "triples) were checked, how many leave the metric undefined, and the float ties "
              "and how many of them were decided in exact arithmetic.", ""]
    for rep in table["reports"]:
        rows = [(n, rep["properties"][n]) for n in names
                if rep["properties"][n]["verdict"] in ("holds", "proved")]
        if not rows:
            continue
        lines += [f"### {_esc(rep['variant'])} (`{rep['metric']}`)", ""]
        for n, r in rows:
            left = r["ties"] - r["ties_confirmed"]
            ties = ("no float ties" if not r["ties"] else
                    f"{r['ties']:,} float ties, all decided exactly" if not left else
                    f"{r['ties']:,} float ties, {r['ties_confirmed']:,} decided exactly, "
                    f"{left:,} agreeing to 1e-9 only")
            und = f", {r['undefined']:,} undefined" if r["undefined"] else ""
            lines.append(f"- **{n}** ({r['verdict']}): {r['checked']:,} checked{und}; {ties}")
        lines.append("")
    lines += ["## n/a", ""]
    for rep in table["reports"]:
        na = [(n, rep["properties"][n]) for n in names if rep["properties"][n]["verdict"] == "n/a"]
        if na:
            lines.append(f"- {_esc(rep['variant'])} (`{rep['metric']}`): " + "; ".join(
                f"**{n}**: {_esc(r['evidence'])}" for n, r in na))
    lines += ["", "## Proofs not obtained", "",
              "For each property the search did not refute, the scopes on which the prover "
              "derived no proof, and the first reason (`nij` is the count of cell (i, j); a "
              "move splits a cell's count into `1` and `n + 1`). \"No symbolic form\": the "
              "formula does not evaluate on symbolic counts; \"contract\": the symbolic value "
              "disagrees with the exact one at an instance (the pattern is refused).", ""]
    for rep in table["reports"]:
        refused = [(n, x) for n in names for r in [rep["properties"][n]]
                   if r["verdict"] in ("holds", "proved") and r["proof"] is not None
                   for x in r["proof"]["refused"]]
        if not refused:
            continue
        lines += [f"### {_esc(rep['variant'])} (`{rep['metric']}`)", ""]
        for kind in (_prover.NO_FORM, _prover.CONTRACT):
            group = [(n, x) for n, x in refused if x["kind"] == kind]
            if group:
                props = ", ".join(dict.fromkeys(n for n, _ in group))
                scopes = ", ".join(dict.fromkeys(x["scope"] for _, x in group))
                lines.append(f"- {kind} ({scopes}; {props}): {_esc(_clip(group[0][1]['reason']))}")
        for n, x in refused:
            if x["kind"] == _prover.NOT_DERIVED:
                lines.append(f"- **{n}**, {x['scope']}: {_esc(_clip(x['reason']))}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
