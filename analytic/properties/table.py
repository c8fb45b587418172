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
import string
from pathlib import Path

import numpy as np

from numeric.markdown import escape, table as markdown_table

__all__ = ["TABLE_PATH", "result_dict", "report_dict", "table_dict", "load",
           "markdown", "space_dict", "same_space", "cell", "counterexample_of"]

#: the committed table (package data)
TABLE_PATH = Path(__file__).with_name("table.json")
#: the prose of ``docs/properties.md``, with the fields :func:`markdown` fills in (package data)
TEMPLATE_PATH = Path(__file__).with_name("table_template.md")


def _counterexample_json(r):
    c = r.counterexample
    if c is None:
        return None
    if isinstance(c, np.ndarray):
        return {"matrix": c.tolist()}
    a, b, cc, K = c
    return {"a": list(a), "b": list(b), "c": list(cc), "K": int(K)}


def counterexample_of(d):
    """The counterexample of a result dict: an ``int64`` matrix or ``(a, b, c, K)``.

    Parameters
    ----------
    d : dict
        One cell of a table (:func:`result_dict`).

    Returns
    -------
    numpy.ndarray, tuple or None
        The matrix, the triple of label vectors and ``K`` (the triangle
        inequality), or ``None`` when the cell has no counterexample.

    Examples
    --------
    >>> mer = load()["reports"][0]
    >>> counterexample_of(mer["properties"]["ordinal_monotonicity"]).tolist()
    [[0, 0, 0], [0, 0, 0], [1, 0, 0]]
    """
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


def _every_k_json(e):
    if e is None:
        return None
    return {"structure": e.structure, "lemma": e.lemma, "checked": e.checked,
            "up_to_k": e.up_to_k}


def result_dict(r) -> dict:
    """A :class:`analytic.properties.audit.PropertyResult` as JSON-ready data.

    Parameters
    ----------
    r : analytic.properties.audit.PropertyResult
        One property's verdict.

    Returns
    -------
    dict
        Its fields, its cell text and its evidence, JSON-ready (one cell of the table).

    Examples
    --------
    >>> from analytic.properties.audit import audit
    >>> r = audit("mae", ["symmetry"], max_k=2, max_n=2, random=0, prove=False)
    >>> d = result_dict(r.results["symmetry"])
    >>> d["verdict"], d["checked"]
    ('holds', 16)
    """
    return {"property": r.property, "verdict": r.verdict, "cell": r.cell(),
            "counterexample": _counterexample_json(r), "witness": r.witness, "how": r.how,
            "minimal": r.minimal, "searched": r.searched, "checked": r.checked,
            "undefined": r.undefined, "ties": r.ties, "ties_confirmed": r.ties_confirmed,
            "exact": r.exact, "evidence": r.evidence(), "proof": _proof_json(r.proof),
            "every_k": _every_k_json(r.every_k), "guided": r.guided,
            "guided_checked": r.guided_checked}


def report_dict(name, label, rep) -> dict:
    """One row of the table: a variant's report as JSON-ready data.

    Parameters
    ----------
    name : str
        The registered metric.
    label : str
        The variant's label.
    rep : analytic.properties.audit.AuditReport
        Its report.

    Returns
    -------
    dict
        ``metric``, ``variant``, ``better`` and ``properties`` (each a :func:`result_dict`).

    Examples
    --------
    >>> from analytic.properties.audit import audit
    >>> r = audit("mae", ["symmetry"], max_k=2, max_n=2, random=0, prove=False)
    >>> sorted(report_dict("mae", r.label, r))
    ['better', 'metric', 'properties', 'variant']
    """
    return {"metric": name, "variant": label, "better": rep.better,
            "properties": {p: result_dict(r) for p, r in rep.results.items()}}


def space_dict(space) -> dict:
    """A searched space as JSON-ready data (tuples as lists).

    Parameters
    ----------
    space : analytic.properties.space.Space
        The space.

    Returns
    -------
    dict
        Its fields.

    Examples
    --------
    >>> from analytic.properties.space import Space
    >>> space_dict(Space(exhaustive=((2, 2),)))["exhaustive"]
    [[2, 2]]
    """
    return {k: (list(map(list, v)) if isinstance(v, tuple) else v)
            for k, v in dataclasses.asdict(space).items()}


def same_space(recorded: dict, space) -> bool:
    """Whether a table's recorded space (:func:`space_dict`) is ``space``, but for
    ``chunk`` (how the work was split, not what was searched: the results do not
    depend on it, ``proofs_tests/test_property_engine.py``).

    Parameters
    ----------
    recorded : dict
        A table's ``space`` (:func:`space_dict`).
    space : analytic.properties.space.Space
        The space to compare it with.

    Returns
    -------
    bool
        ``True`` if every field but ``chunk`` is the same.

    Examples
    --------
    >>> from analytic.properties.space import DEFAULT_SPACE, Space
    >>> same_space(dict(space_dict(DEFAULT_SPACE), chunk=10**6), DEFAULT_SPACE)
    True
    >>> same_space(space_dict(Space(random=0)), DEFAULT_SPACE)
    False
    """
    def searched(d):
        return {k: v for k, v in d.items() if k != "chunk"}

    return searched(recorded) == searched(space_dict(space))


def table_dict(rows, space, scopes, falsifier=None) -> dict:
    """The whole table: how it was searched, and every report.

    Parameters
    ----------
    rows : list of tuple
        ``(metric name, variant label, AuditReport)``
        (:func:`analytic.properties.audit.property_table`).
    space : analytic.properties.space.Space
        The searched space.
    scopes : tuple of analytic.properties.prover.Scope
        The scopes of the symbolic proofs.
    falsifier : str, optional
        The guided search's budget in words
        (:meth:`analytic.properties.falsify.Budget.text`); ``None``: none ran.

    Returns
    -------
    dict
        ``space``, ``space_text``, ``scopes``, ``falsifier``, ``properties``
        (each property's name, title, source and statement) and ``reports``
        (each a :func:`report_dict`), JSON-ready.

    Examples
    --------
    >>> from analytic.properties.audit import audit
    >>> from analytic.properties.space import Space
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> r = audit("mae", space=tiny, prove=False)
    >>> t = table_dict([("mae", r.label, r)], tiny, ())
    >>> [rep["variant"] for rep in t["reports"]], t["falsifier"]
    (['MAE'], None)
    """
    from .catalog import PROPERTIES

    return {"space": space_dict(space), "space_text": space.describe(),
            "scopes": [[s.K, s.kind] for s in scopes], "falsifier": falsifier,
            "properties": [{"name": p.name, "title": p.title, "source": p.source,
                            "statement": p.statement()} for p in PROPERTIES.values()],
            "reports": [report_dict(*r) for r in rows]}


def load(path=TABLE_PATH) -> dict:
    """The committed table (see :func:`table_dict`).

    Parameters
    ----------
    path : str or pathlib.Path, default :data:`TABLE_PATH`
        The table's JSON file.

    Returns
    -------
    dict
        The table.

    Examples
    --------
    >>> sorted(load())
    ['falsifier', 'properties', 'reports', 'scopes', 'space', 'space_text']
    """
    return json.loads(Path(path).read_text(encoding="utf-8"))


def cell(d) -> str:
    """The cell text of a result dict.

    Parameters
    ----------
    d : dict
        One cell of a table (:func:`result_dict`).

    Returns
    -------
    str
        What the table shows: the verdict and what it rests on.

    Examples
    --------
    >>> cell(load()["reports"][0]["properties"]["symmetry"])
    'proved (every K)'
    """
    return d["cell"]


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------
def _clip(text, n=220):
    return text if len(text) <= n else text[:n] + " ..."


def _scopes_legend(scopes) -> str:
    every = sorted(K for K, kind in scopes if kind == "every")
    pos = sorted(K for K, kind in scopes if kind == "positive")
    parts = []
    if every:
        parts.append(f"`K <= {max(every)}`: every matrix with at most {max(every)} classes (each "
                     "support pattern -- which cells are nonzero -- with its counts as positive "
                     "integer symbols, so every count matrix of that size)")
    for k in pos:
        parts.append(f"`{k} x {k} with every cell positive`: every {k} x {k} matrix whose "
                     f"{k * k} cells are all positive (not every K >= {k})")
    return "; ".join(parts)


def markdown(table: dict) -> str:
    """``docs/properties.md``: the table rendered, deterministic.

    The prose is :data:`TEMPLATE_PATH` (a :class:`string.Template`, package
    data); this function fills in its fields: the searched space, the
    property table, the metric table and the sections of evidence.

    Parameters
    ----------
    table : dict
        A table (:func:`table_dict`, :func:`load`).

    Returns
    -------
    str
        The Markdown page.

    Examples
    --------
    >>> markdown(load()).splitlines()[0]
    '# Property table'
    """
    from . import prover as _prover

    names = [p["name"] for p in table["properties"]]
    sp = table["space"]
    reports = table["reports"]
    fields = {
        "space_text": table["space_text"],
        "diagonal": "; ".join(f"K = {K}, N <= {n}" for K, n in sp["diagonal"]),
        "triangle": "; ".join(f"K = {K}, n <= {n}" for K, n in sp["triangle"]),
        "triangle_random": f"{sp['triangle_random']:,}",
        "triangle_n": sp["triangle_n"],
        "scopes": _scopes_legend(table["scopes"]),
        "properties": markdown_table(
            ["property", "definition", "source", "symbolic proof"],
            [[f"`{p['name']}`", escape(p["title"]), escape(p["source"]),
              escape(_prover.STATEMENTS.get(p["name"], "none (search only)"))] for p in table["properties"]]),
        "statements": "\n".join(f"- `{p['name']}`: {escape(p['statement'])}" for p in table["properties"]),
        "table": markdown_table(["metric"] + [f"`{n}`" for n in names],
                                [[f"{escape(rep['variant'])} (`{rep['metric']}`)"]
                                 + [escape(rep["properties"][n]["cell"]) for n in names] for rep in reports]),
        "counterexamples": _lines(_counterexamples(reports, names)),
        "evidence": _lines(_evidence(reports, names)),
        "not_applicable": _lines(_not_applicable(reports, names)),
        "not_proved": _lines(_not_proved(reports, names, _prover)),
        "falsifier": table.get("falsifier") or "none",
        "summary": _lines(summary(table)),
        "open": _lines(_open(reports, names)),
    }
    text = string.Template(TEMPLATE_PATH.read_text(encoding="utf-8")).substitute(fields)
    return text.rstrip("\n") + "\n"


def _lines(lines) -> str:
    """Lines of Markdown, each ended by a line break."""
    return "".join(line + "\n" for line in lines)


def _heading(rep) -> list:
    return [f"### {escape(rep['variant'])} (`{rep['metric']}`)", ""]


def _counterexamples(reports, names):
    """The counterexamples, and a broken metric's errors (verdict ``"error"``)."""
    for rep in reports:
        fails = [rep["properties"][n] for n in names
                 if rep["properties"][n]["verdict"] in ("fails", "error")]
        if fails:
            yield from _heading(rep)
            yield from (f"- **{r['property']}**{' (error)' if r['verdict'] == 'error' else ''}: "
                        f"{escape(r['evidence'])}" for r in fails)
            yield ""


def _ties(r) -> str:
    left = r["ties"] - r["ties_confirmed"]
    if not r["ties"]:
        return "no float ties"
    if not left:
        return f"{r['ties']:,} float ties, all decided exactly"
    return f"{r['ties']:,} float ties, {r['ties_confirmed']:,} decided exactly, {left:,} agreeing to 1e-9 only"


def _evidence(reports, names):
    for rep in reports:
        rows = [(n, rep["properties"][n]) for n in names
                if rep["properties"][n]["verdict"] in ("holds", "proved")]
        if rows:
            yield from _heading(rep)
            for n, r in rows:
                und = f", {r['undefined']:,} undefined" if r["undefined"] else ""
                yield f"- **{n}** ({r['verdict']}): {r['checked']:,} checked{und}; {_ties(r)}"
            yield ""


def _not_applicable(reports, names):
    for rep in reports:
        na = [(n, rep["properties"][n]) for n in names if rep["properties"][n]["verdict"] == "n/a"]
        if na:
            yield (f"- {escape(rep['variant'])} (`{rep['metric']}`): "
                   + "; ".join(f"**{n}**: {escape(r['evidence'])}" for n, r in na))


def _not_proved(reports, names, _prover):
    for rep in reports:
        refused = [(n, x) for n in names for r in [rep["properties"][n]]
                   if r["verdict"] in ("holds", "proved") and r["proof"] is not None
                   for x in r["proof"]["refused"]]
        if not refused:
            continue
        yield from _heading(rep)
        for kind in (_prover.NO_FORM, _prover.CONTRACT):
            group = [(n, x) for n, x in refused if x["kind"] == kind]
            if group:
                props = ", ".join(dict.fromkeys(n for n, _ in group))
                scopes = ", ".join(dict.fromkeys(x["scope"] for _, x in group))
                yield f"- {kind} ({scopes}; {props}): {escape(_clip(group[0][1]['reason']))}"
        for n, x in refused:
            if x["kind"] == _prover.NOT_DERIVED:
                yield f"- **{n}**, {x['scope']}: {escape(_clip(x['reason']))}"
        yield ""


# ---------------------------------------------------------------------------
# how far the table is from the goal: every cell proved for every K or refuted
# ---------------------------------------------------------------------------
def kind(d) -> str:
    """The kind of a cell: ``"proved (every K)"``, ``"proved (finite scopes)"``,
    ``"unrefuted"`` (search only), ``"fails"`` or ``"n/a"``."""
    v = d["verdict"]
    if v == "proved":
        return "proved (every K)" if d.get("every_k") else "proved (finite scopes)"
    return "unrefuted" if v == "holds" else v


KINDS = ("proved (every K)", "proved (finite scopes)", "unrefuted", "fails", "n/a")


def summary(table: dict) -> list:
    """One line per kind of cell, with the count (the table's distance from its goal).

    >>> t = {"reports": [{"properties": {"a": {"verdict": "fails", "how": "guided search"},
    ...                                  "b": {"verdict": "holds"}}}]}
    >>> for line in summary(t)[2:4]:
    ...     print(line)
    - **unrefuted** (search only: no proof, no counterexample): 1
    - **fails**: 1 (1 of them found by the guided search)
    """
    cells = [d for r in table["reports"] for d in r["properties"].values()]
    count = {k: sum(kind(d) == k for d in cells) for k in KINDS}
    guided = sum(d["verdict"] == "fails" and d.get("how", "").startswith("guided search")
                 for d in cells)
    family = sum(d["verdict"] == "fails" and d.get("how", "").startswith("derived from the symbolic family")
                 for d in cells)
    words = {"proved (every K)": "proved for every K and N (a lemma on the declared structure)",
             "proved (finite scopes)": "proved on finite scopes only (K <= 3, 4 x 4 with every "
                                       "cell positive, ...), unrefuted beyond",
             "unrefuted": "search only: no proof, no counterexample",
             "fails": None, "n/a": "the property says nothing here"}
    out = []
    for k in KINDS:
        if k == "fails":
            out.append(f"- **fails**: {count[k]} ({guided} of them found by the guided search"
                       + (f", {family} derived from a symbolic family" if family else "") + ")")
        else:
            out.append(f"- **{k}** ({words[k]}): {count[k]}")
    return out


def _open(reports, names):
    """The cells neither proved for every K nor refuted, with why."""
    from .structure import structure_of

    for rep in reports:
        rows = [(n, rep["properties"][n]) for n in names
                if kind(rep["properties"][n]) in ("unrefuted", "proved (finite scopes)")]
        if not rows:
            continue
        declared = structure_of(rep["metric"], rep["variant"])
        why = ("its declared structure's lemma does not apply" if declared is not None else
               "no structure declared (not a mean of a per-cell kernel over samples or "
               "classes)")
        yield (f"- {escape(rep['variant'])} (`{rep['metric']}`), {why}: "
               + "; ".join(f"**{n}** ({_open_reason(d)})" for n, d in rows))


def _open_reason(d):
    parts = []
    proof = d.get("proof")
    if d["verdict"] == "proved":
        parts.append(f"proved on {proof['short']}")
    elif proof is not None and proof["refused"]:
        parts.append("the finite prover did not derive it")
    elif proof is None or not proof["scopes"]:
        parts.append("no finite proof of this property")
    parts.append("guided search spent its budget" if d.get("guided") else "no guided search "
                 "(a property of label-vector triples)" if d["property"] == "triangle" else
                 "no guided search")
    return ", ".join(parts)
