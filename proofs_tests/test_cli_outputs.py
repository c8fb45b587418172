"""Outputs never destroy data, and an output error is one line (issue 23, items 1 and 8; issue 25, item 7).

Found by a hostile-user review: ``metrics data.csv --json data.csv`` overwrote the
input with JSON (exit 0); ``--json``/``--csv``/``--plot``/``--markdown`` into a
missing folder, a folder or ``/dev/full`` ended in an OSError traceback after the
work (the whole ledger ran first); ``--plot`` without matplotlib ended in a
ModuleNotFoundError traceback after the work; ``python -m notebooks.site --output
DIR`` emptied DIR whatever it held (the book's builder, ``docs/build.py``, keeps that
rule; its tests are in ``test_site.py``).

The expected values are the rules of :mod:`ordinal_verify.outputs` (its docstrings):
the paths are checked before any work, a regular file is replaced atomically, and
an error is the one line ``ordinal-verify: cannot write PATH: reason`` with exit status 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import numeric
from analytic.properties import audit as audit_module
from analytic import ledger
from ordinal_verify import main

ROOT = Path(__file__).resolve().parents[1]
LABELS = "y,a,b\n1,1,2\n2,3,2\n3,3,3\n2,2,1\n"
MATRIX = "0,4,0,0\n0,0,6,0\n0,0,5,0\n0,0,0,3\n"   # silva2018 matrix B


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def _cli(*argv, pre="pass"):
    """The command in a fresh interpreter (its exit status and stderr as a user sees them);
    ``pre`` is Python run before it (to hide matplotlib)."""
    code = (f"import sys; {pre}; from ordinal_verify import main; "
            f"sys.exit(main({[str(a) for a in argv]!r}))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600)


def _one_line(err):
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ordinal-verify: "), err
    return lines[0]


def _never(*args, **kwargs):
    raise AssertionError("the work started although an output path is bad")


# ---------------------------------------------------------------------------
# an output that names an input file is refused, and the input is unchanged
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("command, option", [
    ("metrics", "--json"), ("metrics", "--csv"), ("metrics", "--plot"),
    ("auoc", "--json"), ("auoc", "--csv"), ("auoc", "--plot"),
])
def test_output_naming_the_input_is_refused_and_the_input_kept(tmp_path, capsys, monkeypatch,
                                                                command, option):
    data = tmp_path / "data.csv"
    data.write_text(LABELS)
    before = data.read_bytes()
    link = tmp_path / "link.csv"
    link.symlink_to(data)
    monkeypatch.setattr(numeric, "report", _never)   # refused before any metric is computed
    for target in (data, link, tmp_path / "." / "data.csv"):
        status, out, err = _run(capsys, command, data, "--true", "y", "--pred", "a", option, target)
        assert status == 2
        line = _one_line(err)
        assert line.startswith(f"ordinal-verify: cannot write {target}: it is the input file")
        assert out == ""
        assert data.read_bytes() == before
        assert link.is_symlink()


def test_ledger_output_naming_the_claims_file_is_refused_before_importing_it(tmp_path, capsys):
    sentinel = tmp_path / "imported"
    claims = tmp_path / "my_claims.py"
    claims.write_text(f"open({str(sentinel)!r}, 'w').close()\n")
    before = claims.read_bytes()
    for option in ("--json", "--markdown"):
        # the file itself, and the folder form of --claims (each *.py of it is an input)
        for given in (claims, tmp_path):
            status, _, err = _run(capsys, "--claims", given, "--no-progress", option, claims)
            assert status == 2
            assert "it is the input file" in _one_line(err)
            assert claims.read_bytes() == before
            assert not sentinel.exists()  # the user's module was not even imported


# ---------------------------------------------------------------------------
# bad paths: one line, exit status 2, before the work
# ---------------------------------------------------------------------------
def _bad_paths(tmp_path):
    return {"missing folder": (tmp_path / "no" / "out.x", "the folder"),
            "a folder": (tmp_path, "it is a folder")}


@pytest.mark.parametrize("option", ["--json", "--csv", "--plot"])
@pytest.mark.parametrize("case", ["missing folder", "a folder"])
def test_metrics_bad_output_path_is_one_line_before_the_work(tmp_path, capsys, monkeypatch,
                                                             option, case):
    data = tmp_path / "data.csv"
    data.write_text(LABELS)
    path, reason = _bad_paths(tmp_path)[case]
    if option == "--plot":
        path = path.with_suffix(".png") if case == "missing folder" else path
    monkeypatch.setattr(numeric, "report", _never)
    status, out, err = _run(capsys, "metrics", data, "--true", "y", "--pred", "a", option, path)
    assert status == 2 and out == ""
    assert _one_line(err).startswith(f"ordinal-verify: cannot write {path}: {reason}")


@pytest.mark.parametrize("option", ["--json", "--markdown"])
@pytest.mark.parametrize("case", ["missing folder", "a folder"])
def test_ledger_bad_output_path_fails_before_running_claims(tmp_path, capsys, monkeypatch,
                                                            option, case):
    path, reason = _bad_paths(tmp_path)[case]
    monkeypatch.setattr(ledger, "run", _never)
    status, out, err = _run(capsys, "--no-progress", "--only", "silva2018", option, path)
    assert status == 2 and out == ""
    assert _one_line(err).startswith(f"ordinal-verify: cannot write {path}: {reason}")


@pytest.mark.parametrize("option", ["--json", "--markdown"])
def test_audit_bad_output_path_fails_before_auditing(tmp_path, capsys, monkeypatch, option):
    path, reason = _bad_paths(tmp_path)["missing folder"]
    monkeypatch.setattr(audit_module, "audit", _never)
    status, out, err = _run(capsys, "audit", "mae", option, path)
    assert status == 2 and out == ""
    assert _one_line(err).startswith(f"ordinal-verify: cannot write {path}: {reason}")


def test_two_outputs_into_one_file_or_stdout_and_stdout_where_unsupported(tmp_path, capsys,
                                                                          monkeypatch):
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    monkeypatch.setattr(numeric, "report", _never)
    out_file = tmp_path / "out.txt"
    link = tmp_path / "out-link.txt"
    link.symlink_to(out_file)
    cases = [
        (("--json", out_file, "--csv", out_file), "--json and --csv name the same file"),
        (("--json", out_file, "--csv", link), "--json and --csv name the same file"),
        (("--json", "-", "--csv", "-"), "--json and --csv name the same file (stdout)"),
        (("--plot", "-"), "--plot -: this option cannot write to stdout"),
    ]
    for extra, message in cases:
        status, out, err = _run(capsys, "metrics", data, *extra)
        assert status == 2 and out == ""
        assert message in _one_line(err), err
    assert not out_file.exists()
    status, _, err = _run(capsys, "--no-progress", "--only", "x", "--markdown", "-")
    assert status == 2 and "--markdown -: this option cannot write to stdout" in _one_line(err)


def test_dev_full_is_one_line_in_a_fresh_interpreter(tmp_path):
    """A write error only the write itself can find (``/dev/full`` is a character device:
    it is written directly, not replaced): one line, exit status 2, no traceback."""
    assert not Path("/dev/full").is_file()
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    for argv in (("metrics", data, "--json", "/dev/full"),
                 ("auoc", data, "--csv", "/dev/full"),
                 ("metrics", data, "--plot", "/dev/full"),
                 ("audit", "mae", "--max-k", "2", "--max-n", "1", "--random", "0", "--no-proofs",
                  "--markdown", "/dev/full")):
        res = _cli(*argv)
        assert res.returncode == 2, (argv, res.stderr)
        assert _one_line(res.stderr) == "ordinal-verify: cannot write /dev/full: No space left on device"
    # a missing folder, in a fresh interpreter too: the exit status and no traceback
    res = _cli("metrics", data, "--json", tmp_path / "no" / "x.json")
    assert res.returncode == 2 and "the folder" in _one_line(res.stderr) and res.stdout == ""


# ---------------------------------------------------------------------------
# atomic writes: a failure leaves the previous file and no temporary file
# ---------------------------------------------------------------------------
def test_a_failure_mid_write_keeps_the_previous_file(tmp_path, capsys, monkeypatch):
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    old = tmp_path / "out.json"
    old.write_text('{"previous": true}\n')
    old.chmod(0o640)
    listing = sorted(os.listdir(tmp_path))

    def half_then_full(obj, fh, **kw):
        fh.write('{"half": ')
        fh.flush()
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(json, "dump", half_then_full)
    status, _, err = _run(capsys, "auoc", data, "--json", old)
    assert status == 2
    assert _one_line(err) == f"ordinal-verify: cannot write {old}: No space left on device"
    assert old.read_text() == '{"previous": true}\n'
    assert sorted(os.listdir(tmp_path)) == listing          # no temporary file left
    monkeypatch.undo()

    # an exception that is not an OSError: raised as it is, the file still intact
    from ordinal_verify import outputs

    with pytest.raises(RuntimeError):
        with outputs.writing(str(old)) as fh:
            fh.write("partial")
            raise RuntimeError("the writer failed")
    assert old.read_text() == '{"previous": true}\n'
    assert sorted(os.listdir(tmp_path)) == listing

    # and a write that succeeds replaces it, keeping the file's permissions
    status, _, err = _run(capsys, "auoc", data, "--json", old)
    assert status == 0, err
    assert json.loads(old.read_text())["curves"][0]["a_uoc"]["exact"] == "5/9"  # silva2018 Table I
    assert old.stat().st_mode & 0o777 == 0o640
    assert sorted(os.listdir(tmp_path)) == listing


def test_writing_through_a_symbolic_link_keeps_the_link(tmp_path):
    from ordinal_verify import outputs

    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(RuntimeError):
        with outputs.writing(str(link)) as fh:
            fh.write("partial")
            raise RuntimeError("the writer failed")
    assert target.read_text() == "old" and link.is_symlink()
    outputs.write_text(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


# ---------------------------------------------------------------------------
# --plot without matplotlib
# ---------------------------------------------------------------------------
def test_plot_without_matplotlib_is_one_line_before_the_work(tmp_path):
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    for command in ("metrics", "auoc"):
        res = _cli(command, data, "--plot", tmp_path / "u.png", pre="sys.modules['matplotlib'] = None")
        assert res.returncode == 2, res.stderr
        assert _one_line(res.stderr) == ("ordinal-verify: --plot needs matplotlib, which is not "
                                         'installed: pip install "ordinal-verify[plot]"')
        assert res.stdout == ""                     # refused before the table is computed
        assert not (tmp_path / "u.png").exists()
