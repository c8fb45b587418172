"""The ``ordinal-verify`` command in its own package (issue 26 item 2).

* :mod:`ordinal_verify` imports :mod:`analytic` (and SymPy, about a second)
  only in the commands that use it: ``metrics`` and ``auoc`` need only
  :mod:`numeric` (checked on the modules a fresh interpreter holds, not on
  timings; the timing is benchmark 16);
* ``ordinal-verify ledger [options]`` is the bare command with the same
  options, and the bare command keeps them;
* the ledger's options before another subcommand are refused (``audit``'s own
  ``--markdown`` replaced the top-level one, which wrote nothing);
* the CLI's exceptions are :mod:`exactfloor.errors`' classes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import exactfloor.errors
from ordinal_verify import build_parser, main

ROOT = Path(__file__).resolve().parents[1]

#: a 3x3 matrix: MAE = (2 + 1 + 1 + 1) / 23 = 5/23 (silva2018 eq. 3: the mean of
#: |i - j| over the 23 samples; the off-diagonal samples are all one class off)
MATRIX = "5,2,0\n1,6,1\n0,1,7\n"

#: one user claim that checks nothing slow (the ledger's machinery is under test); its
#: id is ``mine:ID``, one per loaded file (a process registers an id once)
CLAIMS = '''
from analytic.ledger import Outcome, claim

@claim("mine:ID", source="arithmetic", expect="verified",
       statement="1 + 1 = 2", method="evaluated")
def _sum():
    return Outcome("verified" if 1 + 1 == 2 else "refuted", "1 + 1 = 2")
'''


def _claims(folder, tag):
    """A claims module whose one claim is ``mine:TAG``."""
    f = folder / f"claims_{tag}.py"
    f.write_text(CLAIMS.replace("ID", tag))
    return f


def _python(code, *args):
    """``python -c code args`` in a fresh interpreter from the repository root."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


# code run in a fresh interpreter: the CLI's command, then the loaded top-level packages
_MODULES_AFTER = """
import json, sys
from ordinal_verify import main
status = main(sys.argv[1:])
print(json.dumps({"status": status,
                  "loaded": sorted({m.split('.')[0] for m in sys.modules}
                                   & {"analytic", "sympy", "numeric", "ordinal_verify"})}))
"""


def _loaded(*argv):
    out = _python(_MODULES_AFTER, *argv)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.parametrize("command", ["metrics", "auoc"])
def test_metrics_and_auoc_do_not_import_analytic(tmp_path, command):
    """``metrics`` and ``auoc`` import numeric (whose exact arithmetic imports SymPy:
    the closed forms are SymPy numbers), never analytic and its derivations."""
    f = tmp_path / "cm.csv"
    f.write_text(MATRIX)
    got = _loaded(command, str(f), "--json", "-")
    assert got == {"status": 0, "loaded": ["numeric", "ordinal_verify", "sympy"]}


def test_the_cli_itself_imports_neither_analytic_nor_sympy(tmp_path):
    """The parser of every command, and a ``metrics`` run that stops at its input
    (before any metric): neither analytic nor SymPy is loaded, so the command's own
    start-up is numeric's import."""
    assert _loaded("metrics", str(tmp_path / "missing.csv")) == {
        "status": 2, "loaded": ["numeric", "ordinal_verify"]}
    out = _python("import sys; import ordinal_verify; ordinal_verify.build_parser(); "
                  "print(sorted({'analytic', 'sympy'} & set(sys.modules)))")
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr


def test_metrics_value_through_the_new_package(tmp_path, capsys):
    f = tmp_path / "cm.csv"
    f.write_text(MATRIX)
    assert main(["metrics", str(f), "--metrics", "mae", "--json", "-"]) == 0
    rows = json.loads(capsys.readouterr().out)["predictions"][0]["metrics"]
    assert [(r["metric"], r["exact"]) for r in rows] == [("mae", "5/23")]


def test_help_defaults_restated_from_analytic_agree():
    """The help states ``--timeout``'s, ``--every-k``'s and ``--positive-k``'s defaults
    without importing analytic; a run uses analytic's values: they must agree."""
    from analytic.ledger import DEFAULT_TIMEOUT
    from analytic.properties.prover import EVERY_K, POSITIVE_K
    from ordinal_verify import audit_cmd, ledger_cmd

    assert ledger_cmd.SHOWN_TIMEOUT == DEFAULT_TIMEOUT
    assert (audit_cmd.SHOWN_EVERY_K, audit_cmd.SHOWN_POSITIVE_K) == (EVERY_K, POSITIVE_K)


# ---------------------------------------------------------------------------
# ledger: the bare command and the subcommand
# ---------------------------------------------------------------------------
def _ledger_json(capsys, argv):
    status = main(argv)
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


@pytest.mark.parametrize("tag, form", [
    ("bare", ["--claims", "{f}", "--json", "-", "--no-progress"]),
    ("sub", ["ledger", "--claims", "{f}", "--json", "-", "--no-progress"]),
    ("both-sides", ["--claims", "{f}", "ledger", "--json", "-", "--no-progress"]),
])
def test_ledger_subcommand_is_the_bare_command(tmp_path, capsys, tag, form):
    f = _claims(tmp_path, tag)
    status, data, err = _ledger_json(capsys, [a.format(f=f) for a in form])
    assert status == 0, err
    assert [(d["id"], d["verdict"], d["evidence"]) for d in data] == [
        (f"mine:{tag}", "verified", "1 + 1 = 2")]


def test_ledger_subcommand_writes_the_ledger_markdown(tmp_path, capsys):
    """``ledger --markdown`` writes the ledger's report, as the bare command does."""
    bare, sub = tmp_path / "bare.md", tmp_path / "sub.md"
    f = _claims(tmp_path, "md-bare")
    assert main(["--claims", str(f), "--no-progress", "--markdown", str(bare)]) == 0
    g = _claims(tmp_path, "md-sub")
    assert main(["ledger", "--claims", str(g), "--no-progress", "--markdown", str(sub)]) == 0
    capsys.readouterr()
    assert "### `mine:md-bare`" in bare.read_text()
    assert sub.read_text() == bare.read_text().replace("md-bare", "md-sub")


def test_ledger_options_keep_their_defaults_in_both_forms():
    """The subcommand's options that are not given keep the bare command's defaults
    (argparse: a subparser's defaults overwrite the top level's)."""
    bare = build_parser().parse_args([])
    sub = build_parser().parse_args(["ledger"])
    keys = ("json", "markdown", "only", "no_progress", "claims", "jobs", "timeout")
    assert {k: getattr(sub, k) for k in keys} == {k: getattr(bare, k) for k in keys} == {
        "json": None, "markdown": None, "only": None, "no_progress": False, "claims": None,
        "jobs": None, "timeout": None}
    assert sub.run is bare.run
    given = build_parser().parse_args(["--only", "a", "ledger", "--timeout", "5"])
    assert (given.only, given.timeout) == ("a", 5.0)


@pytest.mark.parametrize("argv, named, command", [
    (["--markdown", "x.md", "audit"], "--markdown", "audit"),
    (["--only", "silva", "--no-progress", "metrics", "cm.csv"], "--only, --no-progress", "metrics"),
])
def test_ledger_options_before_another_subcommand_are_refused(capsys, argv, named, command):
    """Before: ``--markdown x.md audit`` printed the committed property table and wrote
    nothing (audit's own ``--markdown`` default replaced it); ``--only`` before
    ``metrics`` was ignored.  Now an argparse error, exit status 2, before any work."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"{named}: an option of the ledger (the bare command), given before '{command}'" in err


def test_help_says_which_markdown_writes_what():
    p = build_parser()
    sub = p._subparsers._group_actions[0].choices
    top = p.format_help()
    assert "ledger" in sub and "Without a subcommand it runs the claims ledger" in " ".join(top.split())

    def markdown_help(parser):
        return " ".join(next(a.help for a in parser._actions if "--markdown" in a.option_strings).split())

    assert markdown_help(p) == markdown_help(sub["ledger"])
    assert markdown_help(p).startswith("write the ledger as a Markdown report")
    assert "audit --markdown FILE' writes the property table" in markdown_help(p)
    assert markdown_help(sub["audit"]).startswith("write the property table as Markdown")
    assert "'ordinal-verify --markdown FILE'" in markdown_help(sub["audit"])


def test_python_m_ordinal_verify_and_python_m_analytic(tmp_path):
    """``python -m ordinal_verify`` and the delegate ``python -m analytic`` run the
    same command (the README's ``ordinal-verify`` is ``ordinal_verify:main``)."""
    f = tmp_path / "cm.csv"
    f.write_text(MATRIX)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    outs = [subprocess.run([sys.executable, "-m", pkg, "metrics", str(f), "--metrics", "mae"],
                           capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
            for pkg in ("ordinal_verify", "analytic")]
    assert [o.returncode for o in outs] == [0, 0], [o.stderr for o in outs]
    assert outs[0].stdout == outs[1].stdout and "5/23" in outs[0].stdout


# ---------------------------------------------------------------------------
# the CLI's exceptions live in exactfloor.errors
# ---------------------------------------------------------------------------
def test_cli_exceptions_are_numeric_errors(tmp_path):
    from ordinal_verify import audit_cmd, inputs, outputs

    assert inputs.InputError is exactfloor.errors.InputError
    assert outputs.OutputError is exactfloor.errors.OutputError
    assert audit_cmd.UserFunctionError is exactfloor.errors.UserFunctionError
    assert issubclass(exactfloor.errors.OutputError, exactfloor.errors.InputError)
    assert issubclass(exactfloor.errors.UserFunctionError, exactfloor.errors.InputError)
    assert {"InputError", "OutputError", "UserFunctionError"} <= set(exactfloor.errors.__all__)
    with pytest.raises(exactfloor.errors.InputError, match="no such file"):
        inputs.read_matrix(str(tmp_path / "missing.csv"))
