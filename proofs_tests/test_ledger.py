"""The claims ledger and the ``ordinal-verify`` command (issue 5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from analytic import ledger

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = ledger.claims()
FIELDS = ["id", "source", "statement", "method", "verdict", "evidence", "closed_form"]


@pytest.fixture(scope="module")
def entries():
    return {e.id: e for e in ledger.run()}


@pytest.mark.parametrize("c", CLAIMS, ids=[c.id for c in CLAIMS])
def test_verdict_is_the_reviewed_one(c, entries):
    """A verdict that changes fails CI: each run must return the reviewed verdict."""
    e = entries[c.id]
    assert e.verdict == c.expect, e.evidence
    assert e.evidence.strip()
    if e.closed_form is not None:
        sympy.sympify(e.closed_form)


def test_registry_ids_and_sources():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    for c in CLAIMS:
        key = c.id.split(":", 1)[0]
        if key in ledger.SEEDS:
            assert ledger.SEEDS[key] in c.source, c.id
        else:  # a user key (e.g. the auditor's "audit"): a source text
            assert c.source.strip(), c.id
        assert c.statement and c.method


def test_register_rejects_bad_claims():
    # a (key, where) source needs a seed key; a user key needs a source text
    with pytest.raises(ValueError, match="must start with a source key"):
        ledger.register("nosuchpaper:x", source=("nosuchpaper", "p. 1"), statement="s",
                        method="m", check=lambda: None, expect="verified", _into={})
    with pytest.raises(ValueError, match="needs a source text"):
        ledger.register("nosuchpaper:x", source=" ", statement="s", method="m",
                        check=lambda: None, expect="verified", _into={})
    with pytest.raises(ValueError, match="must be <key>:<item>"):
        ledger.register("nokey", source="s", statement="s", method="m",
                        check=lambda: None, expect="verified", _into={})
    c = ledger.register("mine:x", source="my notes", statement="s", method="m",
                        check=lambda: None, expect="verified", _into={})
    assert c.source == "my notes"
    with pytest.raises(ValueError, match="expect must be one of"):
        ledger.register("silva2018:x", source="s", statement="s", method="m",
                        check=lambda: None, expect="maybe", _into={})
    with pytest.raises(ValueError, match="verdict must be one of"):
        ledger.Outcome("true", "e")


def test_cell_outcome_rounds_half_up():
    # 5/8 = 0.625 prints as 0.63 half-up (a float '%.2f' gives 0.62)
    assert ledger.cell_outcome(sympy.Rational(5, 8), "0.63").verdict == "verified"
    assert ledger.cell_outcome(sympy.Rational(5, 8), "0.62").verdict == "not reproduced"
    assert ledger.cell_outcome(sympy.Rational(5, 8), "0.63", convention="c").verdict == "convention"


def test_markdown_report_is_current(entries):
    """docs/ledger.md is the rendered report of the current ledger."""
    ordered = [entries[c.id] for c in CLAIMS]
    expected = ledger.to_markdown(ordered)
    actual = (ROOT / "docs" / "ledger.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/ledger.md is stale: run `ordinal-verify --markdown docs/ledger.md`"


def test_markdown_keeps_sympy_products_literal():
    """SymPy's ``*`` in evidence is not Markdown emphasis (issue 24: the book showed
    ``(12<em>k**2 + 3</em>k - 1)``): rendered by markdown-it (the parser of the
    book's MyST), the text comes back with its stars and no <em>."""
    from markdown_it import MarkdownIt

    text = "TC(2k+2) - TC(2k+1) = (12*k**2 + 3*k - 1)/(3*m - 1) | k >= 1"
    e = ledger.Entry("x:y", "s", "a*b*c", "m", "verified", text, None)
    html = MarkdownIt("commonmark").enable("table").render(ledger.to_markdown([e]))
    assert "<em>" not in html
    assert "(12*k**2 + 3*k - 1)/(3*m - 1) | k &gt;= 1" in html
    assert "a*b*c" in html


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "analytic", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=600)


def test_cli_json_schema_and_summary(tmp_path):
    prefix = "cardoso2011:sec3"
    out = _cli("--only", prefix, "--no-progress", "--json", str(tmp_path / "l.json"))
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "l.json").read_text())
    expected_ids = [c.id for c in CLAIMS if c.id.startswith(prefix)]
    assert [d["id"] for d in data] == expected_ids
    for d in data:
        assert list(d) == FIELDS
        assert d["verdict"] in ledger.VERDICTS
    n = len(expected_ids)
    verified = sum(d["verdict"] == "verified" for d in data)
    lines = out.stdout.strip().splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith(f"{n} claims: {verified} verified"))
    # then the legend: one line per verdict word shown, and where the full ledger is (issue 40)
    shown = [v for v in ledger.VERDICTS if any(d["verdict"] == v for d in data)]
    assert lines[summary + 1:] == ["", *(f"{v}: {ledger.VERDICT_MEANINGS[v]}" for v in shown), lines[-1]]
    assert "docs/ledger.md" in lines[-1] and "--markdown FILE" in lines[-1]
    out = _cli("--only", prefix, "--no-progress", "--json", "-")
    assert [d["id"] for d in json.loads(out.stdout)] == expected_ids


def test_cli_metrics_and_auoc(tmp_path):
    f = tmp_path / "B.csv"
    # silva2018 matrix B (rows = true); Table I prints MER 0.56, A_UOC 0.56 (exact 5/9)
    f.write_text("0,4,0,0\n0,0,6,0\n0,0,5,0\n0,0,0,3\n")
    out = _cli("metrics", str(f))
    assert out.returncode == 0, out.stderr
    assert any(line.startswith("A_UOC") and " 5/9 " in line for line in out.stdout.splitlines())
    out = _cli("auoc", str(f))
    assert out.returncode == 0, out.stderr
    assert "A_UOC = 5/9" in out.stdout
    assert "beta/2 + 1/3" in out.stdout  # the piece on [0, 2/3): 1/3 + beta/2
    # --predicted-rows reads the transpose
    g = tmp_path / "Bt.txt"
    g.write_text("0 0 0 0\n4 0 0 0\n0 6 5 0\n0 0 0 3\n")
    out = _cli("auoc", "--predicted-rows", str(g))
    assert "A_UOC = 5/9" in out.stdout


@pytest.mark.parametrize("content, message", [
    ("1,2\n3\n", ":2: expected 2 values (as on line 1), found 1"),
    ("1 x\n2 3\n", ":1: 'x' is not a non-negative integer count"),
    ("1 -2\n2 3\n", ":1: '-2' is not a non-negative integer count"),
    ("1 2 3\n4 5 6\n", "the matrix is 2x3, not square"),
    ("# only a comment\n\n", "no matrix rows found"),
    ("0 0\n0 0\n", "the matrix is all zero"),
])
def test_cli_malformed_file(tmp_path, content, message):
    f = tmp_path / "m.txt"
    f.write_text(content)
    out = _cli("metrics", str(f))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert message in out.stderr and str(f) in out.stderr


def test_cli_missing_file():
    out = _cli("auoc", "/nonexistent/m.csv")
    assert out.returncode == 2
    assert out.stderr.strip() == "ordinal-verify: /nonexistent/m.csv: no such file"


def _cheap_claims():
    """The claims of two source keys that run in about a second (george2016, macroblog)."""
    return [c for c in CLAIMS if c.id.split(":", 1)[0] in ("george2016", "macroblog")]


def test_forked_run_gives_the_same_entries():
    """``jobs=2`` runs the keys in two forked processes: the same entries, in the same order,
    as the serial run; progress once as each claim starts, and n/n at the end."""
    todo = _cheap_claims()
    seen = []
    forked = ledger.run(only=todo, jobs=2, progress=lambda i, n, cid: seen.append((i, n)))
    assert forked == ledger.run(only=todo, jobs=1)
    assert [e.id for e in forked] == [c.id for c in todo]
    assert seen[-1] == (len(todo), len(todo)) and len(seen) == len(todo) + 1
    with pytest.raises(ValueError, match="jobs must be >= 1"):
        ledger.run(only=todo, jobs=0)


def test_forked_run_names_a_failing_claim():
    """A check that raises in a worker is an ``error`` entry naming the exception, as in the
    serial run, and the other claims keep their verdicts; claims made at run time (not in
    the registry) reach the workers by fork."""
    def boom():
        raise ZeroDivisionError("1/0")

    def make(cid, check):
        return ledger.Claim(id=cid, source="a test", statement="s", method="m", check=check,
                            expect="verified")

    ok = make("other:ok", lambda: ledger.Outcome("verified", "fine"))
    for jobs in (1, 2):
        assert [(e.id, e.verdict, e.evidence) for e in
                ledger.run(only=[make("mine:boom", boom), ok], jobs=jobs)] == [
            ("mine:boom", "error", "the check raised ZeroDivisionError('1/0')"),
            ("other:ok", "verified", "fine")]
    two = ledger.run(only=[ok, make("x:y", lambda: ledger.Outcome("refuted", "local"))], jobs=2)
    assert [(e.id, e.verdict, e.evidence) for e in two] == [
        ("other:ok", "verified", "fine"), ("x:y", "refuted", "local")]


def test_jobs_without_fork_run_in_this_process(monkeypatch):
    """Where workers cannot be forked (not Linux) ``jobs=2`` runs the claims here: the
    same entries, and progress once per claim as in the serial run."""
    monkeypatch.setattr(ledger, "_can_fork", lambda: False)
    todo = _cheap_claims()
    seen = []
    assert ledger.run(only=todo, jobs=2, progress=lambda i, n, cid: seen.append(i)) \
        == ledger.run(only=todo, jobs=1)
    assert seen == list(range(len(todo) + 1))
