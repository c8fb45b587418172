"""Build the ordinal-verify book: lessons, guides, reference pages and the API, as static HTML.

Usage (from anywhere; the checkout is found from this file)::

    python docs/build.py                  # the book, into build/book/ (open build/book/index.html)
    python docs/build.py --student        # the student version, into build/book-student/
    python docs/build.py --output DIR     # another folder (with or without --student)
    python docs/build.py --no-api         # a quicker preview: no API reference pages

Sphinx (``docs/conf.py``) renders a source tree that this script lays out in
a temporary folder, mirroring the repository so that relative links between
lessons and documents work as they do on a repository page:

* ``docs/`` as it is (the guides, ``ledger.md``, ``properties.md``, ...);
* ``CHANGELOG.md`` (included by ``docs/changelog.md``) and ``CONTRIBUTING.md``
  (included by ``docs/contributing.md``);
* the gallery's figures: each example ``docs/gallery/NAME.py`` is run
  (:func:`run_gallery`) and writes ``NAME.png`` beside its staged copy, which
  ``docs/gallery.md`` shows with the code;
* the figures of the pages of :data:`RUN_PAGES`: the Python blocks of each
  page are run, in order, in its staged folder (:func:`run_pages`), so the
  picture the page shows is the one its code makes (the worked study's
  critical-difference diagram, ``guide/study_cd.svg``; no image is committed);
* ``notebooks/NN_name.ipynb``: each committed, executed lesson, **not run
  again**, prepared for the page (:func:`page_notebook`): the ``alt``
  metadata of a figure cell becomes the alt text of its image, an ipywidgets
  view becomes a note (the page has no kernel), and a note at the top links
  the notebook for download (``notebooks/download/NN_name.ipynb``, the
  committed notebook, or its student version).

``--student`` renders :func:`notebooks.build.student` versions of the lessons
(answers left out, self-checks kept; the page keeps the lesson's own outputs)
and offers the student notebooks, without outputs, for download.

The output folder is never emptied blindly (the rule of the former
``notebooks/site.py``, kept): the builder writes only into a new or empty
folder, or into one it wrote before, which holds the marker file
``.ordinal-verify-site`` listing every file and folder the previous build
wrote; only those files are replaced or removed (a file the user added is
left alone, at any depth: a note in the book's ``notebooks/`` or ``_static/``
stays).  Any other folder (``--output .`` in a checkout) is refused with a
one-line message and exit status 2 before anything is built.  Sphinx builds
into a temporary folder first, so a failed build leaves the previous book as
it was.  ``--log FILE`` follows the project's output rule
(:mod:`numeric.outputs`): checked before the build (not an input such as
``CHANGELOG.md``, not a source file, not a folder), written atomically.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import copy
import importlib.util
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout: its numeric, as Sphinx's
    sys.path.insert(0, str(ROOT))

from exactfloor.errors import OutputError  # noqa: E402
from numeric.outputs import check_outputs, write_text  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
OUTPUT = ROOT / "build" / "book"
STUDENT_OUTPUT = ROOT / "build" / "book-student"
#: files of docs/ that are the build's machinery, not pages
_NOT_PAGES = ("conf.py", "build.py", "inventories.py", "_static", "_templates", "_extra", "_inventories", "__pycache__")

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = (
    '<p class="ov-widget-note">Interactive controls (ipywidgets) appear here when '
    "the notebook runs in JupyterLab; this page shows the outputs computed with "
    "the fixed values below.</p>"
)

#: the file that marks a folder as written by this builder; it lists the entries it wrote
MARKER = ".ordinal-verify-site"
_MARKER_KIND = "ordinal-verify teaching site"


def _notebook_build():
    """``notebooks/build.py`` as a module (the student version, the solution tag)."""
    spec = importlib.util.spec_from_file_location("notebooks_build", NOTEBOOKS / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class SiteOutputError(ValueError):
    """The output folder cannot be used: one line on stderr, exit status 2."""


def _relative(e) -> bool:
    """Whether ``e`` is a clean relative path inside the folder (no ``..``, not absolute)."""
    parts = e.split("/") if isinstance(e, str) else [None]
    return bool(e) and all(isinstance(x, str) and x not in ("", ".", "..") for x in parts) \
        and not e.startswith("/") and "\\" not in e and e != MARKER


def _owned(output):
    """What a previous build wrote into ``output``, from its marker file: ``(files,
    folders, legacy)`` as relative POSIX paths (``None`` when there is no marker).

    A marker of an older builder lists only the top-level ``entries``: the
    files inside its folders are then unknown, and those folders are
    ``legacy``: a file in one of them is replaced when the new build writes
    the same path, and never removed otherwise."""
    marker = output / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        entries = data["entries"]
        assert data.get("kind") == _MARKER_KIND and isinstance(entries, list)
        assert all(isinstance(e, str) and e == Path(e).name and _relative(e) for e in entries)
        files, folders, legacy = data.get("files"), data.get("folders", []), []
        if files is None:  # an older marker: the top-level files it lists
            files = [e for e in entries if (output / e).is_file() or (output / e).is_symlink()]
            legacy = folders = [e for e in entries if e not in files]
        assert isinstance(files, list) and isinstance(folders, list)
        assert all(_relative(e) for e in files + folders)
    except (OSError, ValueError, KeyError, TypeError, AssertionError):
        raise SiteOutputError(
            f"{output}: the marker file {MARKER} is damaged, so what the previous build wrote "
            "is not known; remove the folder yourself or give another --output") from None
    return files, folders, legacy


def check_output(output):
    """Check that the book may be written into ``output``, before any work.

    ``output`` may be missing, an empty folder, or a folder holding the
    :data:`MARKER` file of a previous build; returns what that build wrote,
    ``(files, folders, legacy)`` (to replace or remove, see :func:`install`),
    ``([], [], [])`` otherwise.

    Raises
    ------
    SiteOutputError
        ``output`` is a file, or a non-empty folder without the marker.

    Examples
    --------
    >>> d = Path(tempfile.mkdtemp())
    >>> check_output(d / "new"), check_output(d)
    (([], [], []), ([], [], []))
    >>> _ = (d / "mine.txt").write_text("keep me")
    >>> check_output(d)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    SiteOutputError: .../mine.txt: not empty and not written by this builder
    """
    output = Path(output)
    if not output.exists() and not output.is_symlink():
        return [], [], []
    if not output.is_dir():
        raise SiteOutputError(f"{output}: not a folder; give a new or empty folder for the book")
    owned = _owned(output)
    if owned is not None:
        return owned
    try:
        empty = not any(os.scandir(output))
    except OSError as exc:
        raise SiteOutputError(f"{output}: cannot be read ({exc.strerror or exc})") from None
    if not empty:
        raise SiteOutputError(
            f"{output}: not empty and not written by this builder (no {MARKER} file); "
            "nothing was changed. Give a new or empty folder")
    return [], [], []


def _write_marker(output, files, folders):
    files, folders = sorted(set(files)), sorted(set(folders))
    entries = sorted({e.split("/")[0] for e in files + folders})
    write_text(output / MARKER, json.dumps({"kind": _MARKER_KIND, "entries": entries,
                                            "files": files, "folders": folders}, indent=1) + "\n")


def _listing(built):
    """The files (and symbolic links) and the folders under ``built``, as relative POSIX paths."""
    files, folders = [], []
    for path in sorted(Path(built).rglob("*")):
        rel = path.relative_to(built).as_posix()
        (folders if path.is_dir() and not path.is_symlink() else files).append(rel)
    return files, folders


def install(built, output, previous):
    """Move the files of the finished build ``built`` into ``output``.

    ``previous`` is ``(files, folders, legacy)`` that the previous build wrote
    (:func:`check_output`; a file under a ``legacy`` folder, from an older
    marker, may be replaced but is never removed).  The marker first lists the previous build's files and the new
    ones (so an interrupted install is still cleaned by the next build), the
    new files are moved in (replacing the previous build's), the previous
    files that the new build does not write are removed, then the folders left
    empty that a build created, and the marker lists the new files only.  A
    file or folder the builder did not write is never touched, at any depth
    (a note the user put in ``notebooks/`` stays), and a user's file where the
    book needs to write is refused before anything changes.
    """
    old_files, old_folders, legacy = previous
    files, folders = _listing(built)
    mine = set(old_files) | {f for f in files if f.split("/")[0] in legacy}
    file_set, folder_set = set(files), set(folders)
    for rel in files + [f + "/_" for f in folders]:
        parts = rel.split("/")
        for i in range(1, len(parts)):  # a user's file where the book needs a folder
            p = output.joinpath(*parts[:i])
            if (p.is_file() or p.is_symlink()) and "/".join(parts[:i]) not in mine:
                raise SiteOutputError(f"{output}: {'/'.join(parts[:i])} was not written by this builder "
                                      "and the book needs that name; nothing was changed. "
                                      "Move it or give another --output")
        p = output / rel
        if rel in file_set and (p.exists() or p.is_symlink()) and (rel not in mine or p.is_dir()):
            raise SiteOutputError(f"{output}: {rel} was not written by this builder and the book "
                                  "needs that name; nothing was changed. Move it or give another --output")
    output.mkdir(parents=True, exist_ok=True)
    _write_marker(output, set(old_files) | set(files), set(old_folders) | set(folders))
    for rel in folders + files:
        parts = rel.split("/")
        for i in range(1, len(parts) + (rel in folder_set)):  # a previous build's file where a folder goes
            _remove_file(output.joinpath(*parts[:i]))
        if rel in folder_set:
            (output / rel).mkdir(parents=True, exist_ok=True)
        else:
            shutil.move(str(Path(built) / rel), str(output / rel))
    for rel in set(old_files) - set(files):
        _remove_file(output / rel)
    every = set(old_folders) | set(folders)
    for rel in sorted(every - set(folders), key=lambda r: -r.count("/")):
        with contextlib.suppress(OSError):  # not empty: it holds the user's files
            (output / rel).rmdir()
    _write_marker(output, files, [f for f in every if (output / f).is_dir()])
    return files


def _remove_file(path):
    """Remove ``path`` if it is a file or a symbolic link (never a folder)."""
    if path.is_symlink() or path.is_file():
        path.unlink()


def png_width(b64):
    """The width in pixels of a base64-encoded PNG (its IHDR header).

    >>> png_width(base64.b64encode(b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0\\0\\0\\rIHDR" + struct.pack(">II", 7, 3)))
    7
    """
    head = base64.b64decode(b64[:64])
    return struct.unpack(">I", head[16:20])[0]


def page_notebook(nb, stem, *, student=False):
    """The notebook as the book shows it (a copy; ``nb`` is not changed).

    * A figure cell's ``alt`` metadata becomes the alt text of its images
      (myst-nb's ``mystnb.image`` options), with the class ``ov-figure``:
      ``conf.py`` links each such image to its PNG file (click to open it
      alone, full size: a phone shows the page's copy shrunk to the page).
    * An ipywidgets view becomes a note: a static page has no kernel.
    * A note after the title links the notebook for download
      (``download/<stem>.ipynb`` beside the page).
    """
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        alt = cell.get("metadata", {}).get("alt")
        if any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            options = {"classes": "ov-figure"}
            if alt:
                options["alt"] = alt
            cell.metadata.setdefault("mystnb", {})["image"] = options
        for out in cell.get("outputs", []):
            if WIDGET_MIME in out.get("data", {}):
                out["data"] = {"text/html": WIDGET_NOTE}
    if student:
        note = (f"**Student version.**  The answers are left out; each exercise keeps its self-check.  "
                f"Download the notebook, {{download}}`{stem}.ipynb <download/{stem}.ipynb>`, open it in "
                "JupyterLab (`pip install \"ordinal-verify[notebooks]\"`), run it, and answer the "
                "exercises in it.")
    else:
        note = (f"Download this lesson as a notebook, {{download}}`{stem}.ipynb <download/{stem}.ipynb>` "
                "(with its outputs), to run and change every cell in JupyterLab "
                "(`pip install \"ordinal-verify[notebooks]\"`).")
    cell = nbformat.v4.new_markdown_cell(f":::{{note}}\n{note}\n:::")
    cell["id"] = f"{stem[:2]}-download"
    nb.cells.insert(1 if nb.cells and nb.cells[0].cell_type == "markdown" else 0, cell)
    return nb


def inputs():
    """The files the book is built from (never an output: ``--log CHANGELOG.md`` is refused)."""
    found = [ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md"]
    found += [p for p in sorted(HERE.rglob("*")) if p.is_file()]
    return [str(p) for p in found + [p for _, p in lessons()]]


def lessons():
    """The committed, executed lessons, in order: ``[(stem, path), ...]``."""
    return [(p.stem, p) for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))]


API_STUB = """# API reference

Not built: this book was built with `python docs/build.py --no-api`.  Build it
without `--no-api` for the reference of every module of `numeric` and `analytic`.
"""


def stage(src, *, student=False, api=True):
    """Lay out the Sphinx source tree in the folder ``src`` (see the module docstring);
    without ``api`` the API index is a stub and no module page is generated."""
    src = Path(src)
    shutil.copytree(HERE, src / "docs", ignore=lambda d, names: [n for n in names if n in _NOT_PAGES])
    pages = start_pages(src / "docs")            # alongside the gallery
    try:
        run_gallery(src / "docs" / "gallery")
    finally:
        _wait(pages, "the page")
    if not api:
        (src / "docs" / "api" / "index.md").write_text(API_STUB, encoding="utf-8")
    shutil.copy2(ROOT / "CHANGELOG.md", src / "CHANGELOG.md")
    shutil.copy2(ROOT / "CONTRIBUTING.md", src / "CONTRIBUTING.md")
    nbdir = src / "notebooks"
    (nbdir / "download").mkdir(parents=True)
    nbbuild = _notebook_build() if student else None
    for stem, path in lessons():
        nb = nbformat.read(str(path), as_version=4)
        if student:
            download = nbbuild.student(nb)
            shown = nbbuild.student(nb, outputs=True)
        else:
            download, shown = nb, nb
        nbformat.write(download, str(nbdir / "download" / f"{stem}.ipynb"))
        nbformat.write(page_notebook(shown, stem, student=student), str(nbdir / f"{stem}.ipynb"))


def _env():
    """The environment of a run at build time: this checkout's packages, matplotlib without a
    display, one BLAS thread (the runs go side by side)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


def _wait(runs, what):
    """Wait for every ``(path, process)``; the first that failed fails the build with its error output."""
    failed = None
    for path, proc in runs:
        _, err = proc.communicate()
        if proc.returncode != 0 and failed is None:
            failed = f"{what} {path.name} failed:\n{err[-2000:]}"
    if failed:
        raise RuntimeError(failed)


def run_gallery(folder):
    """Run each example of the gallery (``docs/gallery/*.py``, copied into ``folder``), all at
    once, each writing its figure ``NAME.png`` beside it; an example that fails fails the build
    with its error output."""
    scripts = sorted(p for p in Path(folder).glob("*.py") if not p.name.startswith("_"))
    runs = [(p, subprocess.Popen([sys.executable, str(p), str(p.with_suffix(".png"))], cwd=folder, env=_env(),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            for p in scripts]
    _wait(runs, "the gallery example")
    return [p.with_suffix(".png") for p in scripts]


#: the pages (relative to ``docs/``) whose Python blocks run at build time, in the staged page's
#: folder: the figures they show are made by their code then (issue 39: the worked study's
#: critical-difference diagram, ``study_cd.svg``, is the study's own, not a committed picture)
RUN_PAGES = ("guide/study.md",)

#: runs the ```python blocks of the page ``sys.argv[1]`` in order, in one namespace
_PAGE_RUNNER = r"""
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
ns = {"__name__": "__page__"}
for kind, body in re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S):
    if kind == "python":
        exec(compile(body, sys.argv[1], "exec"), ns)
"""


def start_pages(docs, pages=RUN_PAGES):
    """Start running the Python blocks of each page of ``pages`` (paths relative to the staged
    ``docs`` folder), each in its own process, in the page's folder (the files its code writes
    land beside it, where the page's images point); returns ``[(path, process)]`` for
    :func:`_wait`."""
    docs = Path(docs)
    return [(docs / page, subprocess.Popen(
        [sys.executable, "-c", _PAGE_RUNNER, (docs / page).name], cwd=(docs / page).parent, env=_env(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)) for page in pages]


def run_pages(docs, pages=RUN_PAGES):
    """Run the Python blocks of each page of ``pages`` in its folder under ``docs``
    (:func:`start_pages`) and wait; a page whose code fails fails the build with its error."""
    _wait(start_pages(docs, pages), "the page")


def sphinx_command(src, out, *, student=False, api=True, jobs="auto", warnings_as_errors=False):
    """The ``python -m sphinx`` command that renders ``src`` into ``out``
    (``jobs``: Sphinx's parallel processes, ``"auto"`` one per CPU)."""
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-c", str(HERE), "-q",
           "-d", str(Path(out).parent / ".doctrees")]
    if student:
        cmd += ["-t", "student"]
    if not api:
        cmd += ["-t", "no_api"]
    if jobs:
        cmd += ["-j", str(jobs)]
    if warnings_as_errors:
        cmd += ["-W", "--keep-going"]
    return cmd + [str(src), str(out)]  # the two folders last


def build_book(output=None, *, student=False, api=True, jobs="auto", warnings_as_errors=False, log=None):
    """Build the book into ``output`` (default :data:`OUTPUT`, :data:`STUDENT_OUTPUT`
    with ``student``); return ``(output, seconds, warnings)``.

    ``output`` and ``log`` are checked first (:func:`check_output`, and the
    project's output rule, :func:`numeric.outputs.check_outputs`: the log is
    not one of the book's :func:`inputs`, a source file or a folder); Sphinx
    then builds in a temporary folder and the result is moved in
    (:func:`install`); the log is written atomically.  Raises
    :class:`SiteOutputError` for a folder that cannot be used,
    :class:`~exactfloor.errors.OutputError` for a log that cannot be written and
    :class:`RuntimeError` (with Sphinx's messages) when the build fails.
    """
    output = Path(output if output is not None else (STUDENT_OUTPUT if student else OUTPUT))
    log = check_outputs({"--log": log}, inputs()).get("--log")
    previous = check_output(output)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ordinal-verify-book-") as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "html"
        stage(src, student=student, api=api)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        res = subprocess.run(sphinx_command(src, out, student=student, api=api, jobs=jobs,
                                            warnings_as_errors=warnings_as_errors),
                             cwd=tmp, env=env, capture_output=True, text=True)
        messages = (res.stdout + res.stderr).replace(str(src) + os.sep, "")
        warnings = [line for line in messages.splitlines() if "WARNING" in line or "ERROR" in line]
        if log is not None:
            write_text(log, messages)
        if res.returncode != 0:
            raise RuntimeError(f"sphinx failed (exit status {res.returncode}):\n{messages[-4000:]}")
        install(out, output, previous)
    return output, time.perf_counter() - t0, warnings


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--output", type=Path, default=None,
                    help=f"folder of the book (default {OUTPUT.relative_to(ROOT)}, "
                         f"with --student {STUDENT_OUTPUT.relative_to(ROOT)})")
    ap.add_argument("--student", action="store_true",
                    help="the student version: answers left out, self-checks kept")
    ap.add_argument("--no-api", dest="api", action="store_false",
                    help="leave out the API reference (a quicker build, e.g. to preview a lesson)")
    ap.add_argument("-j", "--jobs", default="auto", help="Sphinx's parallel processes (default: one per CPU)")
    ap.add_argument("-W", dest="strict", action="store_true", help="turn Sphinx warnings into errors")
    ap.add_argument("--log", type=Path, default=None, help="write Sphinx's messages to this file")
    args = ap.parse_args(argv)
    try:
        output, seconds, warnings = build_book(args.output, student=args.student, api=args.api, jobs=args.jobs,
                                               warnings_as_errors=args.strict, log=args.log)
    except (SiteOutputError, OutputError) as exc:
        print(f"docs/build.py: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        print(f"docs/build.py: {exc}", file=sys.stderr)
        return 1
    for line in warnings:
        print(line, file=sys.stderr)
    print(f"{'student ' if args.student else ''}book in {output} ({seconds:.0f} s, {len(warnings)} warnings); "
          f"open {output / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
