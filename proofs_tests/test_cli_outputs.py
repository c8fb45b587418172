"""Outputs never destroy data, and an output error is one line (issue 23, items 1 and 8; issue 25, item 7).

Found by a hostile-user review: ``metrics data.csv --json data.csv`` overwrote the
input with JSON (exit 0); ``--json``/``--csv``/``--plot``/``--markdown`` into a
missing folder, a folder or ``/dev/full`` ended in an OSError traceback after the
work (the whole ledger ran first); ``--plot`` without matplotlib ended in a
ModuleNotFoundError traceback after the work; ``python -m notebooks.site --output
DIR`` emptied DIR whatever it held.

The expected values are the rules of :mod:`analytic.cli.outputs` and of
:func:`notebooks.site.check_output` (their docstrings): the paths are checked
before any work, a regular file is replaced atomically, and an error is the one
line ``ordinal-verify: cannot write PATH: reason`` with exit status 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import numeric
from analytic import audit as audit_module
from analytic import ledger
from analytic.cli import main

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
    code = (f"import sys; {pre}; from analytic.cli import main; "
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
    from analytic.cli import outputs

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
    from analytic.cli import outputs

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


# ---------------------------------------------------------------------------
# the teaching site never empties a folder it did not write
# ---------------------------------------------------------------------------
@pytest.fixture
def site(monkeypatch, tmp_path):
    """:mod:`notebooks.site` building quickly: no notebook, one document, a small
    stand-in for the MathJax folder."""
    from notebooks import site

    mathjax = tmp_path / "mathjax-src"
    mathjax.mkdir()
    (mathjax / "MathJax.js").write_text("// stand-in")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "alpha.md").write_text("# Alpha\n\ntext\n")
    (docs / "beta.md").write_text("# Beta\n\ntext\n")
    monkeypatch.setattr(site, "notebooks", lambda: [])
    monkeypatch.setattr(site, "MATHJAX_SRC", mathjax)
    monkeypatch.setattr(site, "DOCS", docs)
    monkeypatch.setattr(site, "documents",
                        lambda *_: [(p.stem, p) for p in sorted(docs.glob("*.md"))])
    return site


def test_site_refuses_a_folder_it_did_not_write(site, tmp_path, capsys, monkeypatch):
    for work in ("notebooks", "documents", "exporter"):   # refused before any page is read
        monkeypatch.setattr(site, work, _never)
    user = tmp_path / "mine"
    user.mkdir()
    (user / "thesis.tex").write_text("years of work")
    checkout = tmp_path / "checkout"      # what --output . from the repository root looks like
    (checkout / ".git").mkdir(parents=True)
    (checkout / "README.md").write_text("readme")
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    for folder, message in ((user, "not empty and not written by this builder"),
                            (checkout, "not empty and not written by this builder"),
                            (a_file, "not a folder")):
        assert site.main(["--output", str(folder)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and "Traceback" not in err and len(err.splitlines()) == 1
        assert err.startswith(f"notebooks.site: {folder}: {message}")
    assert (user / "thesis.tex").read_text() == "years of work"
    assert sorted(p.name for p in checkout.iterdir()) == [".git", "README.md"]
    assert a_file.read_text() == "x"


def test_site_rebuilds_its_own_folder_and_removes_only_its_own_entries(site, tmp_path, capsys):
    out = tmp_path / "build" / "site"
    assert site.main(["--output", str(out)]) == 0
    first = sorted(p.name for p in out.iterdir())
    assert first == [site.MARKER, "alpha.html", "beta.html", "index.html", "mathjax"]
    (out / "notes.txt").write_text("the user's")           # a file the builder did not write
    (site.DOCS / "beta.md").unlink()                         # a page that is gone next time
    assert site.main(["--output", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        site.MARKER, "alpha.html", "index.html", "mathjax", "notes.txt"]
    assert (out / "notes.txt").read_text() == "the user's"
    # an empty folder is accepted (and marked); a damaged marker is refused
    empty = tmp_path / "empty"
    empty.mkdir()
    site.build_site(empty)
    assert (empty / site.MARKER).is_file()
    (out / site.MARKER).write_text('{"kind": "ordinal-verify teaching site", "entries": ["../x"]}')
    capsys.readouterr()
    assert site.main(["--output", str(out)]) == 2
    assert "the marker file .ordinal-verify-site is damaged" in capsys.readouterr().err
    assert (out / "notes.txt").exists() and (out / "alpha.html").exists()
