"""One-line messages for Ctrl-C, an empty ``--only`` and bad option values (issue 38, item 4).

Found by a careless-user review: Ctrl-C during ``ordinal-verify metrics`` printed
a traceback; ``ordinal-verify --only nosuch`` printed an empty table, "0
claims" and exit status 0 (a misspelt prefix read as success); a negative
``audit`` option value printed argparse's multi-line usage block.

Expected (the command's rule, :mod:`ordinal_verify`'s docstring): an error is
one line on stderr, ``ordinal-verify...: ...``, and a non-zero exit status (2
for bad input, 130 for an interrupt, the shell's convention 128 + SIGINT).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import numeric
from ordinal_verify import main

ROOT = Path(__file__).resolve().parents[1]
MATRIX = "0,4,0,0\n0,0,6,0\n0,0,5,0\n0,0,0,3\n"   # silva2018 matrix B


def _one_line(err):
    assert "Traceback" not in err, err
    assert len(err.splitlines()) == 1, err
    return err.strip()


def test_ctrl_c_during_metrics_is_one_line(tmp_path, capsys, monkeypatch):
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(numeric, "report", interrupted)
    assert main(["metrics", str(data)]) == 130
    captured = capsys.readouterr()
    assert _one_line(captured.err) == "ordinal-verify: interrupted"


def test_a_real_sigint_during_metrics_is_one_line(tmp_path):
    """SIGINT to a running ``metrics`` (the terminal's Ctrl-C), in a fresh interpreter."""
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    code = ("import sys, time, numeric\n"
            "def slow(*a, **k):\n"
            "    print('computing', flush=True); time.sleep(60)\n"
            "numeric.report = slow\n"
            "from ordinal_verify import main\n"
            f"sys.exit(main(['metrics', {str(data)!r}]))\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert p.stdout.readline() == "computing\n"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130, err
    assert _one_line(err) == "ordinal-verify: interrupted"


@pytest.mark.parametrize("argv", [["--only", "no-such-prefix"], ["ledger", "--only", "silva2018:zz"]])
def test_only_matching_no_claim_is_an_error(capsys, monkeypatch, argv):
    from analytic import ledger

    monkeypatch.setattr(ledger, "run", lambda *a, **k: pytest.fail("the ledger ran"))
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    line = _one_line(captured.err)
    assert line.startswith(f"ordinal-verify: --only {argv[-1]!r}: no claim id starts with it "
                           "(the ids start with audit:, ")
    assert "silva2018:" in line


def test_only_matching_some_claims_still_runs(capsys, monkeypatch):
    """The check does not refuse a prefix that matches (silva2018's claims exist: docs/ledger.md)."""
    from analytic import ledger

    called = []
    monkeypatch.setattr(ledger, "run", lambda *a, **k: called.append(k) or [])
    assert main(["--only", "silva2018:", "--no-progress", "--jobs", "1"]) == 0
    assert len(called) == 1 and any(c.id.startswith("silva2018:") for c in called[0]["only"])


@pytest.mark.parametrize("argv, words", [
    (["audit", "mae", "--max-k", "-1"], "argument --max-k: must be >= 1, got -1"),
    (["audit", "mae", "--random", "-5"], "argument --random: must be >= 0, got -5"),
    (["audit", "mae", "--jobs", "zero"], "argument --jobs: expected a whole number, got 'zero'"),
    (["audit", "mae", "--tie-budget", "-2"], "argument --tie-budget: must be >= 0, got -2"),
])
def test_bad_audit_option_values_are_one_line(capsys, argv, words):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert _one_line(captured.err) == (f"ordinal-verify audit: error: {words} "
                                       "(see 'ordinal-verify audit --help')")
    assert "usage:" not in captured.err


def test_bad_option_values_of_the_other_commands_are_one_line(capsys):
    for argv, prog in ((["metrics"], "ordinal-verify metrics"),
                       (["--timeout", "-1"], "ordinal-verify"),
                       (["--only", "x", "metrics", "m.csv"], "ordinal-verify"),
                       (["audit", "--no-such-option"], "ordinal-verify")):  # argparse: the top level
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        line = _one_line(capsys.readouterr().err)
        assert line.startswith(f"{prog}: error: ") and line.endswith(f"(see '{prog} --help')"), line


def test_scheduler_help_says_results_are_unpickled(capsys):
    """Dask returns results as pickles (its documentation: a worker's results are
    serialised with pickle), which run code when loaded: the help says so."""
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("results are unpickled from the cluster, which can run code here: give only a "
            "scheduler you trust") in text
