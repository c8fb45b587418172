"""The claims runner never exits 0 without its table (issue 38, item 3).

Found by a hostile-user review of ``ordinal-verify --claims``: a claims module
calling ``os._exit(0)`` while being imported ended the command with exit status
0 and no table (the import ran in the command's own process); a verdict that is
a ``str`` subclass whose unpickling runs code ran that code in the parent (the
outcome crossed the process boundary as a pickle) and, unpickling to ``None``,
ended in a ``KeyError`` traceback; a module setting ``sys.stdout = None`` at
import ended in an ``AttributeError`` traceback (exit status 1).

Expected (the runner's rules, :mod:`analytic.ledger`'s "Running the claims"):
the import also runs in a forked worker, so ``os._exit`` there is one line and
exit status 2; verdicts and evidence cross as exact ``str`` in JSON; a broken
stream is an ``error`` entry, the table is printed and the exit status is 2.
Each claims module here is a small fake written for the case.
"""

from __future__ import annotations

import re

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HANG = 60

HEADER = "import os, sys\nfrom analytic.ledger import Outcome, claim\n"
GOOD = textwrap.dedent('''
    @claim("zzz:good", source="a test", statement="s", method="m", expect="verified")
    def _good():
        return Outcome("verified", "fine")
    ''')


def _cli(tmp_path, module, *args):
    """``ordinal-verify --claims FILE`` in a fresh interpreter and its own session."""
    f = tmp_path / "my_claims.py"
    f.write_text(HEADER + textwrap.dedent(module))
    p = subprocess.Popen([sys.executable, "-m", "ordinal_verify", "--claims", str(f), "--no-progress",
                          "--jobs", "1", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail("the run hung")
    return p.returncode, out, err


def _table(out):
    """``{id: (verdict, evidence)}`` of the printed table."""
    rows = {}
    for line in out.splitlines()[2:]:
        if re.match(r"\d+ claims: ", line):  # the summary, then the legend of the verdicts
            break
        parts = line.split(None, 2)
        if len(parts) >= 2 and ":" in parts[0]:
            rows[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return rows


@pytest.mark.parametrize("code, how", [
    ("os._exit(0)", "ended the process (exit status 0, e.g. by os._exit)"),
    ("os.kill(os.getpid(), 9)", "was killed by signal SIGKILL"),
])
def test_a_module_ending_the_process_at_import_is_an_error(tmp_path, code, how):
    status, out, err = _cli(tmp_path, GOOD + code + "\n")
    assert status == 2, (out, err)
    assert out == ""
    assert err == (f"ordinal-verify: {tmp_path / 'my_claims.py'}: importing the claims {how} "
                   "before it finished; no claim was run\n")


#: a verdict whose unpickling prints in the process that unpickles it; it compares equal
#: to anything, so the Outcome's own check of the verdict lets it through
SNEAKY = '''
class Sneaky(str):
    def __reduce__(self):
        return (print, ("UNPICKLED IN THE LEDGER",))
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__

@claim("aaa:sneaky", source="a test", statement="s", method="m", expect="verified")
def _sneaky():
    return Outcome(Sneaky({verdict!r}), Sneaky("evidence"))
'''


def test_a_str_subclass_verdict_crosses_as_a_plain_str(tmp_path):
    status, out, err = _cli(tmp_path, SNEAKY.format(verdict="verified") + GOOD)
    assert "UNPICKLED" not in out + err
    assert status == 0, (out, err)
    assert _table(out) == {"aaa:sneaky": ("verified", "evidence"), "zzz:good": ("verified", "fine")}


def test_a_str_subclass_equal_to_every_verdict_is_an_error(tmp_path):
    status, out, err = _cli(tmp_path, SNEAKY.format(verdict="anything") + GOOD)
    assert "UNPICKLED" not in out + err and "Traceback" not in err
    assert status == 2, (out, err)
    table = _table(out)
    assert table["aaa:sneaky"][0] == "error" and "verdict must be one of" in table["aaa:sneaky"][1]
    assert table["zzz:good"] == ("verified", "fine")


def test_stdout_set_to_none_at_import_is_an_error_entry(tmp_path):
    status, out, err = _cli(tmp_path, "sys.stdout = None\n" + GOOD)
    assert "Traceback" not in err
    assert status == 2, (out, err)
    assert _table(out)["zzz:good"][0] == "error"
    assert ("ordinal-verify: claim 'zzz:good': the check raised RuntimeError('importing its claims "
            "module my_claims.py replaced sys.stdout with something that cannot be written to "
            "(None)')") in err


def test_stdout_set_to_none_by_a_check_is_an_error_entry(tmp_path):
    module = GOOD + textwrap.dedent('''
        @claim("aaa:mute", source="a test", statement="s", method="m", expect="verified")
        def _mute():
            sys.stdout = None
            return Outcome("verified", "fine")
        ''')
    status, out, err = _cli(tmp_path, module)
    assert "Traceback" not in err
    assert status == 2, (out, err)
    assert _table(out) == {
        "aaa:mute": ("error", "the check replaced sys.stdout with something that cannot be "
                              "written to (None)"),
        "zzz:good": ("verified", "fine")}


def test_outcomes_are_plain_str_in_this_process_too(monkeypatch):
    """Where the checks run in the calling process (not Linux), the outcome is plain str as well."""
    from analytic import ledger

    class Loud(str):
        pass

    c = ledger.Claim(id="mine:loud", source="s", statement="s", method="m",
                     check=lambda: ledger.Outcome(Loud("verified"), Loud("e"), Loud("x")),
                     expect="verified")
    monkeypatch.setattr(ledger, "_can_fork", lambda: False)
    e, = ledger.run(only=[c])
    assert (e.verdict, e.evidence, e.closed_form) == ("verified", "e", "x")
    assert {type(e.verdict), type(e.evidence), type(e.closed_form)} == {str}


def test_a_worker_message_that_is_not_an_outcome_is_refused():
    from analytic.ledger import _decode

    assert _decode(b'[3, "verified", "e", null]') == (3, ("verified", "e", None))
    assert _decode(b'[1, "error", "why", null]') == (1, ("error", "why", None))
    for bad in (b'[3, "maybe", "e", null]', b'[3, "verified", 5, null]', b'{"i": 3}',
                b'[true, "verified", "e", null]', b'[3, "verified", "e"]'):
        with pytest.raises((ValueError, TypeError)):
            _decode(bad)
