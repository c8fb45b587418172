"""docs/guide/walkthrough.md, section 6 (folds), run as written.

The section's code blocks run in order in a temporary folder: the Python
block that trains three scikit-learn classifiers on 5 folds of the diabetes
data shipped with scikit-learn and writes ``cv_preds.csv`` with fold ids,
the ``ordinal-verify metrics ... --groups fold`` command, and the Python
equivalent.  Model versions can change the numbers, so the checks are on the
structure that the guide's text states: 5 folds, one row per metric variant
and pair (3 variants x 3 pairs), the columns of the paired table, winners
only where the interval of the mean difference excludes 0 (the rule
:func:`numeric.comparison.winner_of`), booktabs LaTeX, and the CLI and
Python agree on every number (the same function underneath).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np

from numeric.comparison import COMPARISON_COLUMNS, winner_of

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "walkthrough.md"


def _section_blocks(title="## 6. Folds"):
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(title)
    nxt = text.find("\n## ", start + 3)
    return re.findall(r"```(\w+)\n(.*?)```", text[start:nxt if nxt >= 0 else None], flags=re.S)


def _plain_holm(p):
    """Holm (1979): the i-th smallest p times (m - i), a running maximum, at most 1."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def _latex_rows(tex):
    body = tex.split("\\midrule")[1].split("\\bottomrule")[0]
    return [ln for ln in body.strip().splitlines() if ln != "\\addlinespace"]


def test_guide_folds_section_runs_as_written(tmp_path, monkeypatch):
    blocks = _section_blocks()
    kinds = [k for k, _ in blocks]
    assert kinds.count("python") == 2 and kinds.count("sh") == 1 and "latex" in kinds
    monkeypatch.chdir(tmp_path)
    namespaces = []
    cli = None
    for kind, body in blocks:
        if kind == "python":
            ns = {"__name__": "__guide__"}
            exec(compile(body, str(GUIDE), "exec"), ns)
            namespaces.append(ns)
        elif kind == "sh":
            argv = shlex.split(body.replace("\\\n", " "))
            assert argv[:2] == ["ordinal-verify", "metrics"]
            cli = subprocess.run([sys.executable, "-m", "analytic", *argv[1:], "--csv",
                                  "cv_table.csv"], capture_output=True, text=True, cwd=tmp_path,
                                 timeout=600, env={"PYTHONPATH": str(ROOT), "PATH": ""})
            assert cli.returncode == 0, cli.stderr
    # the predictions: every row of the data in one of 5 folds
    fold = namespaces[0]["rows"]
    assert len(fold) == 442 and sorted({r[0] for r in fold}) == [1, 2, 3, 4, 5]
    # the table: 5 groups, 3 metric variants x 3 pairs, the paired columns
    assert "5 groups" in cli.stdout and "Nadeau & Bengio" in cli.stdout
    csv_rows = (tmp_path / "cv_table.csv").read_text().splitlines()
    assert csv_rows[0].split(",") == list(COMPARISON_COLUMNS) and len(csv_rows) == 1 + 9
    c = namespaces[1]["c"]
    assert len(c.groups) == 5 and len(c.rows) == 9
    assert [r.key for r in c.rows] == ["mae"] * 3 + ["amae_zero"] * 3 + \
        ["cohen_kappa_quadratic"] * 3
    # Holm over the 9 tests, as the section's text says (--adjust holm, adjust="holm")
    assert c.adjust == "holm" and "Holm-adjusted over 9 tests" in cli.stdout
    assert np.allclose([r.p_adjusted for r in c.rows], _plain_holm([r.p_value for r in c.rows]),
                       rtol=1e-12, atol=0)
    for r in c.rows:
        assert len(r.a_groups) == len(r.b_groups) == 5
        assert r.diff == np.mean(np.subtract(r.b_groups, r.a_groups))
        unadjusted = winner_of(r.diff_ci, r.better)
        assert bool(unadjusted) == (not r.diff_ci[0] <= 0 <= r.diff_ci[1])
        assert (r.p_value < 0.05) == bool(unadjusted)    # the t test and its interval agree
        w = winner_of(r.diff_ci, r.better, r.p_adjusted, 0.05)
        assert r.winner == w
        assert bool(w) == (bool(unadjusted) and r.p_adjusted < 0.05)
    # the text: two differences exclude 0 before the adjustment, none survives it
    assert sum(bool(winner_of(r.diff_ci, r.better)) for r in c.rows) == 2
    assert not any(r.winner for r in c.rows)
    # LaTeX: the CLI's file and Python's, booktabs, one line per row, the same winners
    for name in ("cv_table.tex", "cv_table_py.tex"):
        tex = (tmp_path / name).read_text()
        assert all(cmd in tex for cmd in ("\\toprule", "\\midrule", "\\bottomrule"))
        lines = _latex_rows(tex)
        assert len(lines) == 9
        assert [ln.rstrip(" \\").rsplit(" & ", 1)[1] for ln in lines] == \
            [r.winner_name or "--" for r in c.rows]
        assert "5 groups" in tex
    assert _latex_rows((tmp_path / "cv_table.tex").read_text()) == \
        _latex_rows((tmp_path / "cv_table_py.tex").read_text())
