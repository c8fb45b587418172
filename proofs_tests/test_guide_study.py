"""docs/guide/study.md, run as written.

The page's code blocks run in order in a temporary folder: the Python blocks in one
namespace (the predictions of 4 scikit-learn classifiers on 6 problems cut from the
diabetes data shipped with scikit-learn, the study, its tables, the critical-difference
diagram, the CSV), then the ``ordinal-verify study`` command.  With the scikit-learn
version the page names, every printed output is the page's text block after it, to the
character; with another version the checks are on the structure the text states.  The
CLI and Python agree on the table (the same function underneath).
"""

from __future__ import annotations

import importlib

import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "study.md"

importlib.import_module("sklearn")
importlib.import_module("scipy")
importlib.import_module("matplotlib")
threadpool_limits = importlib.import_module("threadpoolctl").threadpool_limits  # scikit-learn's dependency


def test_study_guide_runs_as_written(tmp_path, monkeypatch):
    import sklearn

    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S)
    version = re.search(r"scikit-learn (\d+\.\d+\.\d+) made the numbers", text).group(1)
    same_version = sklearn.__version__ == version
    monkeypatch.chdir(tmp_path)
    ns = {"__name__": "__guide__"}
    printed, expected, cli = [], [], None
    for n, (kind, body) in enumerate(blocks):
        if kind == "python":
            buf = io.StringIO()
            # one BLAS thread: the 30 small fits of the page spin idle threads on a shared
            # machine (0.26 s of CPU a logistic regression instead of 0.006 s)
            with contextlib.redirect_stdout(buf), threadpool_limits(1):
                exec(compile(body, str(GUIDE), "exec"), ns)
            if buf.getvalue():
                printed.append(buf.getvalue())
                assert blocks[n + 1][0] == "text", f"block {n} prints, the page shows no output"
                expected.append(blocks[n + 1][1])
        elif kind == "sh":
            argv = shlex.split(body)
            assert argv[:2] == ["ordinal-verify", "study"]
            cli = subprocess.run([sys.executable, "-m", "ordinal_verify", *argv[1:]],
                                 capture_output=True, text=True, cwd=tmp_path, timeout=600,
                                 env={"PYTHONPATH": str(ROOT), "PATH": "", "OMP_NUM_THREADS": "1",
                                      "OPENBLAS_NUM_THREADS": "1"})
            assert cli.returncode == 0, cli.stderr
    assert len(printed) == 4
    if same_version:
        assert [p.rstrip() for p in printed] == [e.rstrip() for e in expected]
    s = ns["s"]
    assert len(ns["rows"]["y_true"]) == 6 * 4 * 442
    assert s.datasets == ("target", "bmi", "bp", "s1", "s3", "s5")
    assert s.methods == ("logreg", "forest", "knn", "ridge")
    assert s["mae"].control.control == "ridge"
    assert "want N > 10 and k > 5" in printed[1]                   # the page's warning
    # the outputs of the page and of the command
    svg = (tmp_path / "study_cd.svg").read_text()
    assert all(m in svg for m in s.methods) and "CD = " in svg
    tex = (tmp_path / "study_tables.tex").read_text()
    assert tex.count("\\begin{table}") == 2 and "\\toprule" in tex
    for name in ("study.tex", "study_report.md", "study_cd.pdf"):
        assert (tmp_path / name).stat().st_size > 0
    assert (tmp_path / "study_cd.pdf").read_bytes()[:4] == b"%PDF"
    # the command's first table is numeric.study's, for the command's metrics
    s2 = __import__("numeric").study(ns["rows"], metrics=["mae", "cohen_kappa_quadratic"],
                                    control="ridge")
    assert cli.stdout.startswith(s2.summary_table().to_markdown())
