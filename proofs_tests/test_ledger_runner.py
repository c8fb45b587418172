"""The claims runner never lies and never hangs (issue 22, item 7).

A check that calls ``sys.exit``, ``os._exit``, raises (``KeyboardInterrupt``
included), runs past ``--timeout``, kills its worker or returns a malformed
``Outcome`` is an ``error`` entry naming the reason; the other claims keep
their verdicts, the table is printed and the exit status is 2.  The expected
reasons are the runner's messages (:func:`analytic.ledger.run`); the expected
verdicts of the well-behaved claims are the ones their checks return.

Every CLI run has a subprocess timeout and its own session, so a hang fails
the test (and its processes are killed) instead of hanging the suite.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from analytic import ledger
from ordinal_verify import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
HANG = 45  # seconds after which a CLI run counts as hung


def _cli(*args, env=None):
    """``python -m analytic ARGS`` in its own session; a hang kills the session and fails."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    p = subprocess.Popen([sys.executable, "-m", "analytic", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the CLI and any worker it left
        p.communicate()
        pytest.fail(f"ordinal-verify {' '.join(args)} hung for {HANG} s")
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


# ---------------------------------------------------------------------------
# through the CLI: one misbehaving claim between well-behaved ones
# ---------------------------------------------------------------------------
# "bad:1" misbehaves; "bad:2-after" runs after it in the same source key (the
# same worker, or its replacement); "aaa:before" and "zzz:after" are other keys.
CLAIMS = '''
import os, signal, sys, time
from analytic.ledger import Outcome, claim

def _ok(cid, verdict):
    @claim(cid, source="a test", statement="s", method="m", expect=verdict)
    def _check():
        return Outcome(verdict, f"fine {{cid}}")

_ok("aaa:before", "verified")

@claim("bad:1", source="a test", statement="s", method="m", expect="verified")
def _bad():
{body}

_ok("bad:2-after", "refuted")
_ok("zzz:after", "convention")
'''

# (an exception and a result that is not an Outcome: test_claims_api and the Python tests)
MISBEHAVIOURS = {
    "sys.exit(0)": ("sys.exit(0)", "the check called sys.exit(0)"),
    "sys.exit(3)": ("sys.exit(3)", "the check called sys.exit(3)"),
    "os._exit(0)": ("os._exit(0)", "the check ended its worker process (exit status 0)"),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", "the check raised KeyboardInterrupt()"),
    "timeout": ("time.sleep(60)", "the check ran longer than the timeout of 1 s"),
    "SIGKILL": ("os.kill(os.getpid(), signal.SIGKILL)",
                "the worker process running the check was killed by signal SIGKILL"),
    "int evidence": ("return Outcome('verified', 3)",
                     "the check raised TypeError('Outcome evidence must be a str, got int (3)')"),
    "lambda closed form": ("return Outcome('verified', 'x', closed_form=lambda: 'x')",
                           "the check raised TypeError('Outcome closed_form must be a str or None, "
                           "got function"),
}

WELL_BEHAVED = [("aaa:before", "verified", "fine aaa:before"),
                ("bad:2-after", "refuted", "fine bad:2-after"),
                ("zzz:after", "convention", "fine zzz:after")]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("name", MISBEHAVIOURS)
def test_cli_misbehaving_check_is_an_error_row(tmp_path, name, jobs):
    body, reason = MISBEHAVIOURS[name]
    f = tmp_path / "claims.py"
    f.write_text(CLAIMS.format(body=textwrap.indent(body, "    ")))
    out = _cli("--claims", str(f), "--jobs", jobs, "--timeout", "1", "--no-progress",
               "--json", str(tmp_path / "l.json"), "--markdown", str(tmp_path / "l.md"))
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith("4 claims: "))
    rows = {line.split()[0]: line for line in lines[2:summary]}
    assert list(rows) == ["aaa:before", "bad:1", "bad:2-after", "zzz:after"]
    for cid, verdict, evidence in WELL_BEHAVED:
        assert rows[cid].split(None, 2)[1:] == [verdict, evidence]
    assert rows["bad:1"].split(None, 2)[1] == "error"
    assert f"ordinal-verify: claim 'bad:1': {reason}" in out.stderr
    assert lines[summary] == "4 claims: 1 verified, 1 refuted, 0 not reproduced, 1 convention, 1 error"
    # the legend: the four verdict words shown, in the ledger's order, then where the ledger is
    assert [line.split(":")[0] for line in lines[summary + 2:-1]] == ["verified", "refuted", "convention", "error"]
    assert "docs/ledger.md" in lines[-1]
    # the JSON and Markdown outputs hold the same entries, with string fields only
    data = json.loads((tmp_path / "l.json").read_text())
    assert [(d["id"], d["verdict"]) for d in data] == [
        ("aaa:before", "verified"), ("bad:1", "error"), ("bad:2-after", "refuted"),
        ("zzz:after", "convention")]
    assert data[1]["evidence"].startswith(reason) and data[1]["closed_form"] is None
    assert all(isinstance(d[k], str) for d in data for k in d if k != "closed_form")
    assert "| `bad:1` | error | " + reason.replace("|", "\\|") in (tmp_path / "l.md").read_text()


def test_cli_timeout_is_per_claim(tmp_path):
    """Two claims of one key, each 0.7 s, under a 1 s timeout: both finish (the clock
    restarts at each claim); the default timeout is stated in --help."""
    f = tmp_path / "claims.py"
    f.write_text(textwrap.dedent('''
        import time
        from analytic.ledger import Outcome, claim
        for k in (1, 2):
            @claim(f"mine:{k}", source="a test", statement="s", method="m", expect="verified")
            def _check():
                time.sleep(0.7)
                return Outcome("verified", "slept 0.7 s")
    '''))
    out = _cli("--claims", str(f), "--jobs", "1", "--timeout", "1", "--no-progress")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("2 claims: 2 verified") for line in lines)
    # the job ends with the legend of the verdicts shown and where the full ledger is (issue 40)
    assert lines[-2].startswith("verified: the claim holds") and "docs/ledger.md" in lines[-1]
    helptext = build_parser().format_help()
    assert "--timeout SECONDS" in helptext and "(default: 600;" in " ".join(helptext.split())


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_cli_refuses_a_bad_timeout(value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--timeout", value, "--no-progress"])
    assert exc.value.code == 2
    assert (f"argument --timeout: must be a positive number of seconds, got {value!r}"
            in capsys.readouterr().err)


SLOW = '''
import os, time
from analytic.ledger import Outcome, claim
for key in ("aaa", "bbb"):
    @claim(f"{key}:slow", source="a test", statement="s", method="m", expect="verified")
    def _check():
        with open(os.environ["PIDS"], "a") as fh:
            fh.write(f"{os.getpid()}\\n")
        time.sleep(60)
        return Outcome("verified", "slept")
'''


@pytest.mark.parametrize("jobs", [1, 2])
def test_cli_ctrl_c_stops_the_run_and_its_workers(tmp_path, jobs):
    """Ctrl-C (SIGINT to the terminal's process group) while the checks run: one line on
    stderr, exit status 130 (128 + SIGINT, the shell's convention), within seconds, and
    no worker left."""
    f, pids = tmp_path / "slow.py", tmp_path / "pids"
    f.write_text(SLOW)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PIDS=str(pids))
    p = subprocess.Popen([sys.executable, "-m", "analytic", "--claims", str(f), "--jobs", str(jobs),
                          "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT, env=env, start_new_session=True,
                         # as from a terminal: a test run started in the background (`cmd &`
                         # in a shell without job control) inherits SIGINT ignored, and so
                         # would the CLI (Python keeps an ignored SIGINT ignored)
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        t0 = time.monotonic()
        while not (pids.exists() and len(pids.read_text().split()) == jobs):
            assert time.monotonic() - t0 < 30, "the checks did not start"
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        t0 = time.monotonic()
        out, err = p.communicate(timeout=15)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert time.monotonic() - t0 < 10
    assert (p.returncode, err, out) == (130, "ordinal-verify: interrupted\n", "")
    for pid in map(int, pids.read_text().split()):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


# ---------------------------------------------------------------------------
# the Python API
# ---------------------------------------------------------------------------
def _claim(cid, check, expect="verified"):
    return ledger.Claim(id=cid, source="a test", statement="s", method="m", check=check,
                        expect=expect)


def _sleep():
    time.sleep(60)


def _raise(exc):
    def check():
        raise exc
    return check


def _misbehaving():
    """Claims made at run time (closures: they reach the forked workers, not a pickle)."""
    ok = lambda v: (lambda: ledger.Outcome(v, f"fine {v}"))  # noqa: E731
    return [
        _claim("a:ok", ok("verified")),
        _claim("a:exit", lambda: sys.exit(3)),
        _claim("a:after-exit", ok("refuted"), "refuted"),
        _claim("b:os-exit", lambda: os._exit(0)),
        _claim("b:after-os-exit", ok("convention"), "convention"),
        _claim("c:kill", lambda: os.kill(os.getpid(), signal.SIGKILL)),
        _claim("c:sleep", _sleep),
        _claim("c:interrupt", _raise(KeyboardInterrupt)),
        _claim("c:lookup", _raise(LookupError("no such cell"))),
        _claim("c:closed-form", lambda: ledger.Outcome("verified", "e", closed_form=math.sqrt)),
        _claim("c:not-an-outcome", lambda: "verified"),
        _claim("d:ok", ok("not reproduced"), "not reproduced"),
    ]


EXPECTED = [
    ("a:ok", "verified", "fine verified"),
    ("a:exit", "error", "the check called sys.exit(3)"),
    ("a:after-exit", "refuted", "fine refuted"),
    ("b:os-exit", "error", "the check ended its worker process (exit status 0) without an "
                           "outcome, e.g. by os._exit"),
    ("b:after-os-exit", "convention", "fine convention"),
    ("c:kill", "error", "the worker process running the check was killed by signal SIGKILL"),
    ("c:sleep", "error", "the check ran longer than the timeout of 0.5 s (its worker process "
                         "was killed)"),
    ("c:interrupt", "error", "the check raised KeyboardInterrupt()"),
    ("c:lookup", "error", "the check raised LookupError('no such cell')"),
    ("c:closed-form", "error", "the check raised TypeError('Outcome closed_form must be a str "
                               "or None, got builtin_function_or_method (<built-in function "
                               "sqrt>)')"),
    ("c:not-an-outcome", "error", "the check returned str, not Outcome"),
    ("d:ok", "not reproduced", "fine not reproduced"),
]


@pytest.mark.parametrize("jobs", [1, 2, 8])
def test_run_turns_every_misbehaviour_into_an_error_entry(jobs):
    """Each misbehaving check is an error entry; the rest of its key runs in a new worker
    when the old one is gone; entries in the order of the claims; progress ends at n/n."""
    todo = _misbehaving()
    seen = []
    entries = ledger.run(only=todo, jobs=jobs, timeout=0.5,
                         progress=lambda i, n, cid: seen.append((i, n, cid)))
    assert [(e.id, e.verdict, e.evidence) for e in entries] == EXPECTED
    assert all(e.closed_form is None for e in entries)
    assert seen[-1] == (len(todo), len(todo), "")
    assert [i for i, _, _ in seen] == sorted(i for i, _, _ in seen)
    assert ledger.mismatches(entries, todo) == [
        f"{cid}: verdict error, expected verified" for cid, v, _ in EXPECTED if v == "error"]


def test_run_serial_progress_names_each_claim_as_it_starts():
    todo = [_claim("a:1", lambda: ledger.Outcome("verified", "1")),
            _claim("a:2", lambda: sys.exit(0)),
            _claim("b:1", lambda: ledger.Outcome("verified", "3"))]
    seen = []
    ledger.run(only=todo, jobs=1, progress=lambda *a: seen.append(a))
    assert seen == [(0, 3, "a:1"), (1, 3, "a:2"), (2, 3, "b:1"), (3, 3, "")]


def test_run_without_fork_contains_exceptions_and_sys_exit(monkeypatch):
    """Where workers cannot be forked the checks run here: an exception or sys.exit is an
    error entry, but a KeyboardInterrupt stops the run (it may be the user's Ctrl-C)."""
    monkeypatch.setattr(ledger, "_can_fork", lambda: False)
    todo = [_claim("a:exit", lambda: sys.exit("bye")),
            _claim("a:int", lambda: ledger.Outcome("verified", 3)),
            _claim("b:ok", lambda: ledger.Outcome("verified", "fine"))]
    assert [(e.verdict, e.evidence) for e in ledger.run(only=todo, jobs=2)] == [
        ("error", "the check called sys.exit('bye')"),
        ("error", "the check raised TypeError('Outcome evidence must be a str, got int (3)')"),
        ("verified", "fine")]
    with pytest.raises(KeyboardInterrupt):
        ledger.run(only=[_claim("a:interrupt", _raise(KeyboardInterrupt))])


@pytest.mark.parametrize("timeout", [0, -1.0, math.nan, math.inf, "5", True, None])
def test_run_refuses_a_bad_timeout(timeout):
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
        ledger.run(only=[_claim("a:ok", lambda: ledger.Outcome("verified", "e"))],
                   timeout=timeout)


def test_outcome_fields_are_checked():
    with pytest.raises(TypeError, match=r"Outcome evidence must be a str, got int \(3\)"):
        ledger.Outcome("verified", 3)
    with pytest.raises(TypeError, match="Outcome closed_form must be a str or None, got function"):
        ledger.Outcome("verified", "e", closed_form=lambda: "x")
    with pytest.raises(ValueError, match="verdict must be one of"):
        ledger.Outcome("error", "a check does not give the runner's verdict")
    with pytest.raises(ValueError, match="expect must be one of"):
        ledger.register("mine:x", source="s", statement="s", method="m",
                        check=lambda: None, expect="error", _into={})
    # an Outcome changed after construction is checked again by the runner
    bad = ledger.Outcome("verified", "e")
    object.__setattr__(bad, "evidence", float("nan"))
    e, = ledger.run(only=[_claim("a:nan", lambda: bad)])
    assert (e.verdict, e.evidence) == (
        "error", "the check raised TypeError('Outcome evidence must be a str, got float (nan)')")


def test_error_entries_in_the_summary_and_the_markdown():
    """The error count is shown only when there are errors (a clean ledger's summary line,
    and so docs/ledger.md, are unchanged)."""
    ok = ledger.Entry("a:1", "s", "s", "m", "verified", "fine", None)
    err = ledger.Entry("a:2", "s", "s", "m", "error", "the check raised X('a|b')", None)
    assert ledger.summary_line([ok]) == (
        "1 claims: 1 verified, 0 refuted, 0 not reproduced, 0 convention")
    assert ledger.summary_line([ok, err]) == (
        "2 claims: 1 verified, 0 refuted, 0 not reproduced, 0 convention, 1 error")
    md = ledger.to_markdown([ok, err])
    assert "| `a:2` | error | the check raised X('a\\|b') |" in md
    assert "- **verdict**: error" in md
