"""Every writer of the repository follows one output rule (issue 38, item 1).

Found by a careless-user review of the tools around the command:
``python docs/build.py --log CHANGELOG.md`` replaced the changelog with
Sphinx's messages; rebuilding the book into its own folder deleted the files a
user put inside the folders it owns (``notebooks/``, ``_static/``);
``ordinal-verify audit pkg:f --json pkg/impl.py`` replaced the source file
defining ``f`` (only ``pkg/__init__.py`` was protected); ``python -m numeric
--write-readme``, ``python -m benchmarks --output`` (checked only after minutes
of work) and ``notebooks/build.py`` wrote in place, so a failed write truncated
the old file.

The expected behaviour is the rule of :mod:`numeric.outputs` (its docstring):
the path is checked before the work (not an input, not a source file of the
project or of a user module being run, not a folder, its folder exists), the
error is one line and exit status 2, and a file is written into a temporary
file of the same folder and moved into place, so that a failed write (here a
real one: the file-size limit of ``ulimit -f``, ``RLIMIT_FSIZE``, in a fresh
interpreter; CPython ignores ``SIGXFSZ``, so the write fails with ``EFBIG``)
leaves the old file intact and no temporary file behind.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ordinal_verify import main

ROOT = Path(__file__).resolve().parents[1]
OLD = "the previous file, kept\n"
MATRIX = "0,4,0,0\n0,0,6,0\n0,0,5,0\n0,0,0,3\n"   # silva2018 matrix B


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


docs_build = _load("docs_build_w", ROOT / "docs" / "build.py")
nb_build = _load("notebooks_build_w", ROOT / "notebooks" / "build.py")


def _never(*args, **kwargs):
    raise AssertionError("the work started although the output path is bad")


def _one_line(err, program):
    assert "Traceback" not in err, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"{program}: "), err
    return err.strip()


def _limited(code, *args, limit=4096, cwd=ROOT):
    """``code`` in a fresh interpreter whose files may not grow beyond ``limit`` bytes
    (``ulimit -f``); returns the finished process."""
    def preexec():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=300,
                          preexec_fn=preexec)


def _old_file(folder, name):
    path = Path(folder) / name
    path.write_text(OLD)
    return path


def _intact(path):
    assert path.read_text() == OLD
    assert sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")) == []


#: a path inside the project's sources that does not exist: a writer that did not refuse
#: it would create a file, never destroy one
PROJECT_SOURCE = ROOT / "numeric" / "_not_an_output_ever.py"


@pytest.fixture(autouse=True)
def _no_project_source_left():
    """A writer that wrongly accepted :data:`PROJECT_SOURCE` fails its test; the file
    it created is removed so that it cannot fail (or be imported by) the others."""
    yield
    if PROJECT_SOURCE.exists():
        PROJECT_SOURCE.unlink()
        pytest.fail(f"{PROJECT_SOURCE} was written")


# ---------------------------------------------------------------------------
# the shared rule
# ---------------------------------------------------------------------------
def test_the_rule_refuses_sources_of_the_project_and_of_user_code(tmp_path):
    from exactfloor.errors import OutputError
    from numeric.outputs import check_outputs, module_sources

    with pytest.raises(OutputError, match=r"it is the source file numeric/_not_an_output_ever.py "
                                          r"of the project"):
        check_outputs({"--x": str(PROJECT_SOURCE)})
    with pytest.raises(OutputError, match="it is the source file numeric/registry.py of the project"):
        check_outputs({"--x": str(ROOT / "numeric" / "registry.py")})
    pkg = tmp_path / "userpkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "impl.py").write_text(OLD)
    sys.path.insert(0, str(tmp_path))
    try:
        sources = module_sources("userpkg.sub.impl:f")
    finally:
        sys.path.remove(str(tmp_path))
    assert sources == (str(pkg.resolve()),)
    with pytest.raises(OutputError, match=r"source file userpkg/sub/impl.py of the code being run"):
        check_outputs({"--json": str(pkg / "sub" / "impl.py")}, sources=sources)
    # not a source: a data file in the package, and a .py file elsewhere
    assert check_outputs({"--json": str(pkg / "table.json")}, sources=sources)["--json"].kind == "file"
    assert check_outputs({"--json": str(tmp_path / "other.py")}, sources=sources)["--json"].kind == "file"
    assert (pkg / "sub" / "impl.py").read_text() == OLD


# ---------------------------------------------------------------------------
# ordinal-verify audit module:function
# ---------------------------------------------------------------------------
def test_audit_refuses_the_file_that_defines_the_users_function(tmp_path, monkeypatch, capsys):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .impl import f\n")
    impl = pkg / "impl.py"
    impl.write_text("def f(cm):\n    return 0\n")
    # a module that only re-exports a function of another folder: found once it is loaded
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "real.py").write_text("def g(cm):\n    return 0\n")
    (tmp_path / "shim.py").write_text("import sys, os\nsys.path.insert(0, os.path.join("
                                      "os.path.dirname(__file__), 'elsewhere'))\nfrom real import g\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("analytic.properties.audit.audit", _never)
    before = {p: p.read_text() for p in (impl, pkg / "__init__.py", other / "real.py")}
    for spec, target, name in (("mypkg:f", impl, "mypkg/impl.py"),
                               ("mypkg:f", pkg / "__init__.py", "mypkg/__init__.py"),
                               ("mypkg.impl:f", impl, "mypkg/impl.py"),
                               ("shim:g", other / "real.py", "real.py"),
                               ("shim:g", tmp_path / "shim.py", "shim.py")):
        status = main(["audit", spec, "--max-k", "1", "--max-n", "1", "--random", "0",
                       "--json", str(target)])
        err = capsys.readouterr().err
        assert status == 2, (spec, err)
        assert _one_line(err, "ordinal-verify") == (
            f"ordinal-verify: cannot write {target}: it is the source file {name} of the code "
            "being run; choose another name (the source is left as it is)")
    assert {p: p.read_text() for p in before} == before


def test_commands_refuse_a_source_file_of_the_project(tmp_path, capsys):
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    for argv in (["metrics", data, "--json", PROJECT_SOURCE],
                 ["audit", "mae", "--max-k", "1", "--max-n", "1", "--random", "0",
                  "--markdown", PROJECT_SOURCE]):
        assert main([str(a) for a in argv]) == 2
        assert "it is the source file numeric/_not_an_output_ever.py of the project" in \
            _one_line(capsys.readouterr().err, "ordinal-verify")
    assert not PROJECT_SOURCE.exists()


def test_a_failed_write_of_the_command_keeps_the_old_file(tmp_path):
    data = tmp_path / "m.csv"
    data.write_text(MATRIX)
    old = _old_file(tmp_path, "out.json")
    res = _limited("import sys; from ordinal_verify import main; sys.exit(main(sys.argv[1:]))",
                   "metrics", data, "--json", old, limit=2048)
    assert res.returncode == 2, res.stderr
    assert _one_line(res.stderr, "ordinal-verify") == f"ordinal-verify: cannot write {old}: File too large"
    _intact(old)


# ---------------------------------------------------------------------------
# docs/build.py: --log, and the book's folder
# ---------------------------------------------------------------------------
@pytest.fixture
def fake_book(monkeypatch, tmp_path):
    """docs/build.py on a fake checkout (its CHANGELOG.md, docs/ and a lesson) with a
    stand-in for Sphinx that writes the pages of ``pages`` (None: a folder) and
    prints ``messages``."""
    checkout = tmp_path / "checkout"
    (checkout / "docs").mkdir(parents=True)
    (checkout / "notebooks").mkdir()
    (checkout / "CHANGELOG.md").write_text(OLD)
    (checkout / "CONTRIBUTING.md").write_text("contributing\n")
    (checkout / "docs" / "index.md").write_text("# index\n")
    (checkout / "notebooks" / "01_tour.ipynb").write_text("{}")
    monkeypatch.setattr(docs_build, "ROOT", checkout)
    monkeypatch.setattr(docs_build, "HERE", checkout / "docs")
    monkeypatch.setattr(docs_build, "NOTEBOOKS", checkout / "notebooks")
    monkeypatch.setattr(docs_build, "OUTPUT", checkout / "build" / "book")
    monkeypatch.setattr(docs_build, "STUDENT_OUTPUT", checkout / "build" / "book-student")
    state = {"pages": {"index.html": "home", "notebooks/01_tour.html": "lesson",
                       "_static/theme.css": "css", "_static/empty": None},
             "messages": "WARNING: nothing\n"}

    def run(cmd, **kwargs):
        out = Path(cmd[-1])
        out.mkdir(parents=True)
        for name, text in state["pages"].items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).mkdir() if text is None else (out / name).write_text(text)
        return subprocess.CompletedProcess(cmd, 0, state["messages"], "")

    monkeypatch.setattr(docs_build.subprocess, "run", run)
    monkeypatch.setattr(docs_build, "stage", lambda src, **kw: Path(src).mkdir(parents=True))
    state["checkout"] = checkout
    return state


def test_book_log_refuses_an_input_a_source_and_a_folder_before_the_build(fake_book, tmp_path,
                                                                          monkeypatch, capsys):
    checkout = fake_book["checkout"]
    monkeypatch.setattr(docs_build, "stage", _never)
    out = tmp_path / "book"
    for log, reason in ((checkout / "CHANGELOG.md", "it is the input file"),
                        (checkout / "docs" / "index.md", "it is the input file"),
                        (checkout / "notebooks" / "01_tour.ipynb", "it is the input file"),
                        (PROJECT_SOURCE, "it is the source file numeric/_not_an_output_ever.py"),
                        (tmp_path, "it is a folder"),
                        (tmp_path / "no" / "log.txt", "does not exist")):
        assert docs_build.main(["--output", str(out), "--log", str(log)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert reason in _one_line(captured.err, "docs/build.py"), captured.err
    assert (checkout / "CHANGELOG.md").read_text() == OLD
    assert not out.exists() and not PROJECT_SOURCE.exists()


def test_book_log_is_written(fake_book, tmp_path, capsys):
    log = _old_file(tmp_path, "sphinx.log")
    assert docs_build.main(["--output", str(tmp_path / "book"), "--log", str(log)]) == 0
    assert log.read_text() == "WARNING: nothing\n"


def test_book_keeps_the_users_files_inside_the_folders_it_owns(fake_book, tmp_path, capsys):
    out = tmp_path / "book"
    assert docs_build.main(["--output", str(out)]) == 0
    marker = json.loads((out / docs_build.MARKER).read_text())
    assert marker["files"] == ["_static/theme.css", "index.html", "notebooks/01_tour.html"]
    assert marker["folders"] == ["_static", "_static/empty", "notebooks"]
    (out / "notebooks" / "my_notes.md").write_text("the user's")
    (out / "_static" / "custom.css").write_text("the user's")
    (out / "_static" / "empty" / "keep.txt").write_text("the user's")
    # the next build no longer writes the lesson page nor the empty folder
    fake_book["pages"] = {"index.html": "home 2", "_static/theme.css": "css 2"}
    assert docs_build.main(["--output", str(out)]) == 0
    assert (out / "index.html").read_text() == "home 2"
    assert not (out / "notebooks" / "01_tour.html").exists()      # the builder's own, removed
    for rel in ("notebooks/my_notes.md", "_static/custom.css", "_static/empty/keep.txt"):
        assert (out / rel).read_text() == "the user's", rel
    # the book's page where a user's file is: refused, nothing changed
    fake_book["pages"] = {"index.html": "home 3", "notebooks/my_notes.md": "the book's"}
    assert docs_build.main(["--output", str(out)]) == 2
    assert "notebooks/my_notes.md was not written by this builder" in capsys.readouterr().err
    assert (out / "index.html").read_text() == "home 2"
    assert (out / "notebooks" / "my_notes.md").read_text() == "the user's"


def test_book_upgrades_an_older_marker_without_removing_the_users_files(fake_book, tmp_path, capsys):
    """An older builder's marker lists only the top-level entries: the files inside its
    folders are replaced when the new build writes them, never removed otherwise."""
    out = tmp_path / "book"
    (out / "notebooks").mkdir(parents=True)
    (out / "notebooks" / "01_tour.html").write_text("old lesson")
    (out / "notebooks" / "old_page.html").write_text("unknown: maybe the user's")
    (out / "index.html").write_text("old home")
    (out / docs_build.MARKER).write_text(json.dumps(
        {"kind": "ordinal-verify teaching site", "entries": ["index.html", "notebooks"]}))
    assert docs_build.main(["--output", str(out)]) == 0
    assert (out / "notebooks" / "01_tour.html").read_text() == "lesson"
    assert (out / "index.html").read_text() == "home"
    assert (out / "notebooks" / "old_page.html").read_text() == "unknown: maybe the user's"


def test_a_failed_write_of_the_book_log_keeps_the_old_file(tmp_path):
    log = _old_file(tmp_path, "sphinx.log")
    code = f"""
    import subprocess, sys
    from pathlib import Path
    sys.path.insert(0, {str(ROOT / "proofs_tests")!r})
    import importlib.util
    spec = importlib.util.spec_from_file_location("b", {str(ROOT / "docs" / "build.py")!r})
    b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)
    def run(cmd, **kw):
        Path(cmd[-1]).mkdir(parents=True); (Path(cmd[-1]) / "index.html").write_text("home")
        return subprocess.CompletedProcess(cmd, 0, "WARNING: x\\n" * 2000, "")
    b.subprocess.run = run
    b.stage = lambda src, **kw: Path(src).mkdir(parents=True)
    sys.exit(b.main(sys.argv[1:]))
    """
    res = _limited(code, "--output", tmp_path / "book", "--log", log)
    assert res.returncode == 2, res.stderr
    assert _one_line(res.stderr, "docs/build.py") == f"docs/build.py: cannot write {log}: File too large"
    _intact(log)


# ---------------------------------------------------------------------------
# notebooks/build.py
# ---------------------------------------------------------------------------
@pytest.fixture
def lesson_source(tmp_path, monkeypatch):
    src = tmp_path / "src"
    src.mkdir()
    body = "".join(f"# %% [markdown]\n# Cell {i}: {'words ' * 40}\n\n" for i in range(60))
    (src / "01_big.py").write_text(body)
    monkeypatch.setattr(nb_build, "SRC", src)
    return src


def test_notebook_builder_checks_its_outputs_before_building(lesson_source, tmp_path, monkeypatch,
                                                             capsys):
    student = tmp_path / "student"
    (student / "01_big.ipynb").mkdir(parents=True)   # a folder where the notebook goes
    monkeypatch.setattr(nb_build, "STUDENT_DIR", student)
    monkeypatch.setattr(nb_build, "build", _never)
    assert nb_build.main(["--student"]) == 2
    assert "it is a folder" in _one_line(capsys.readouterr().err, "notebooks/build.py")


def test_a_failed_write_of_a_notebook_keeps_the_old_one(lesson_source, tmp_path, monkeypatch):
    student = tmp_path / "student"
    student.mkdir()
    old = _old_file(student, "01_big.ipynb")
    code = f"""
    import sys, importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("b", {str(ROOT / "notebooks" / "build.py")!r})
    b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)
    b.SRC, b.STUDENT_DIR = Path({str(lesson_source)!r}), Path({str(student)!r})
    sys.exit(b.main(["--student"]))
    """
    res = _limited(code, limit=8192)
    assert res.returncode == 2, res.stderr
    assert _one_line(res.stderr, "notebooks/build.py") == (
        f"notebooks/build.py: cannot write {old}: File too large")
    _intact(old)
    # without the limit the notebook is written (so the limit, not the builder, failed above)
    monkeypatch.setattr(nb_build, "STUDENT_DIR", student)
    assert nb_build.main(["--student"]) == 0
    assert len(json.loads(old.read_text())["cells"]) == 60


# ---------------------------------------------------------------------------
# python -m numeric --write-readme
# ---------------------------------------------------------------------------
def _numeric(*args, limit=resource.RLIM_INFINITY):
    return _limited("import runpy, sys; sys.argv[0] = 'numeric'; "
                    "runpy.run_module('numeric', run_name='__main__')", *args, limit=limit)


def test_write_readme_refuses_before_writing(tmp_path):
    from exactfloor.errors import OutputError
    from numeric.registry import write_readme

    no_markers = _old_file(tmp_path, "R.md")
    for target, reason in ((tmp_path, "it is a folder"),
                           (PROJECT_SOURCE, "it is the source file numeric/_not_an_output_ever.py"),
                           (tmp_path / "no" / "R.md", "does not exist"),
                           (no_markers, "no generated block")):
        with pytest.raises((OutputError, ValueError), match=reason):
            write_readme(target)
    _intact(no_markers)
    assert not PROJECT_SOURCE.exists()
    # and as the command: one line, exit status 2
    res = _numeric("--write-readme", no_markers)
    assert res.returncode == 2
    assert _one_line(res.stderr, "python -m numeric") == (
        f"python -m numeric: {no_markers}: no generated block (<!-- registry:begin --> ... "
        "<!-- registry:end -->, in this order) to replace; add the two markers where the tables go")


def test_a_failed_write_of_the_readme_keeps_the_old_one(tmp_path):
    from numeric.registry import _BEGIN, _END, readme_block

    readme = tmp_path / "README.md"
    text = f"intro\n{_BEGIN}\nold table\n{_END}\nend\n"
    readme.write_text(text)
    res = _numeric("--write-readme", readme, limit=1024)     # the tables are several KB
    assert res.returncode == 2, res.stderr
    assert _one_line(res.stderr, "python -m numeric") == (
        f"python -m numeric: cannot write {readme}: File too large")
    assert readme.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]
    res = _numeric("--write-readme", readme)
    assert res.returncode == 0, res.stderr
    assert readme.read_text() == f"intro\n{readme_block()}\nend\n"


# ---------------------------------------------------------------------------
# python -m benchmarks --output
# ---------------------------------------------------------------------------
def test_benchmarks_output_is_checked_before_the_run(tmp_path, monkeypatch, capsys):
    from benchmarks import runner

    monkeypatch.setattr(runner, "run", _never)
    for target, reason in ((tmp_path, "it is a folder"),
                           (tmp_path / "no" / "b.md", "does not exist"),
                           (PROJECT_SOURCE, "it is the source file numeric/_not_an_output_ever.py")):
        assert runner.main(["--quick", "--output", str(target)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert reason in _one_line(captured.err, "python -m benchmarks"), captured.err
    assert not PROJECT_SOURCE.exists()


def test_a_failed_write_of_the_benchmarks_table_keeps_the_old_one(tmp_path):
    old = _old_file(tmp_path, "bench.md")
    code = """
    import sys
    from benchmarks import runner
    runner.run = lambda **kw: []
    runner.render = lambda rows, **kw: "| a table |\\n" * 1000
    sys.exit(runner.main(sys.argv[1:]))
    """
    res = _limited(code, "--quick", "-q", "--output", old, limit=4096)
    assert res.returncode == 2, res.stderr
    assert _one_line(res.stderr, "python -m benchmarks") == (
        f"python -m benchmarks: cannot write {old}: File too large")
    _intact(old)
