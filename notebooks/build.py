"""Build the teaching notebooks from their sources and execute them.

Each notebook is written as code in ``notebooks/src/NN_name.py``, in the
"percent" cell format (as jupytext and VS Code read it):

* ``# %%`` starts a code cell;
* ``# %% [markdown]`` starts a markdown cell, whose lines are comments
  (``# `` is stripped);
* ``key=<JSON>`` pairs after the marker set cell metadata (jupytext's
  syntax): ``tags=["figure:silva2018-fig1", ...]`` sets cell tags, and
  ``alt="..."`` the alt text of the figure the cell draws.  A cell tagged
  ``figure:<key>`` must produce a PNG and have an alt text (checked by
  ``proofs_tests/test_notebooks.py``); a cell tagged ``solution`` belongs to
  the answers and is left out of the student version;
* IPython magics are written commented out (``# %matplotlib inline``), as
  jupytext does, so that every source is valid Python; they are uncommented
  in the notebook.

Usage (from the repository root)::

    python notebooks/build.py              # build and execute every notebook
    python notebooks/build.py 02 05        # only the notebooks whose name starts so
    python notebooks/build.py --no-execute # write the cells only, no outputs
    python notebooks/build.py --student    # student versions in build/student/:
                                           # no cell tagged "solution", not executed

Executed notebooks are written to ``notebooks/NN_name.ipynb`` with their
outputs, so the figures show on a repository page.  Execution starts a fresh
kernel in ``notebooks/`` (nbclient).
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
KERNEL = "python3"
TIMEOUT = 300  # seconds per cell

_MARKER = re.compile(r"^# %%(?P<md>\s*\[markdown\])?(?P<rest>.*)$")
_KEY = re.compile(r"\s*(\w+)\s*=\s*")
SOLUTION_TAG = "solution"
STUDENT_DIR = HERE.parent / "build" / "student"
_MAGIC = re.compile(r"^# (%(?!%)\w.*)$")


def sources():
    """The notebook sources, in order: ``[(name, path), ...]``."""
    return [(p.stem, p) for p in sorted(SRC.glob("[0-9][0-9]_*.py"))]


def marker_metadata(rest):
    """Cell metadata written after a ``# %%`` marker as ``key=<JSON>`` pairs."""
    meta, decoder, i = {}, json.JSONDecoder(), 0
    while rest[i:].strip():
        m = _KEY.match(rest, i)
        if not m:
            raise ValueError(f"cell marker metadata is not key=<JSON> pairs: {rest!r}")
        meta[m.group(1)], i = decoder.raw_decode(rest, m.end())
    return meta


def _cell(kind, lines, meta):
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    text = "\n".join(lines)
    if kind == "markdown":
        cell = nbformat.v4.new_markdown_cell(text)
    else:
        cell = nbformat.v4.new_code_cell(text)
    cell.metadata.update(meta)
    return cell


def parse(text):
    """Cells of a percent-format source (anything before the first marker is dropped)."""
    cells = []
    kind, meta, lines = None, {}, []
    for line in text.splitlines():
        m = _MARKER.match(line)
        if m:
            if kind is not None:
                cells.append(_cell(kind, lines, meta))
            kind = "markdown" if m.group("md") else "code"
            meta = marker_metadata(m.group("rest"))
            lines = []
            continue
        if kind == "code":
            line = _MAGIC.sub(r"\1", line)
        if kind == "markdown":
            if line.startswith("# "):
                line = line[2:]
            elif line.startswith("#"):
                line = line[1:]
        lines.append(line)
    if kind is not None:
        cells.append(_cell(kind, lines, meta))
    return cells


def build(path):
    """An unexecuted notebook from the source file ``path``."""
    nb = nbformat.v4.new_notebook()
    nb.cells = parse(Path(path).read_text(encoding="utf-8"))
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):  # stable ids, so rebuilding gives the same file
        cell["id"] = f"{Path(path).stem[:2]}-{i:03d}"
    return nb


def execute(nb, *, cwd=HERE, timeout=TIMEOUT):
    """Execute ``nb`` in place in a fresh kernel started in ``cwd``; raises on any error."""
    client = NotebookClient(
        nb, timeout=timeout, kernel_name=KERNEL, allow_errors=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def strip_solutions(nb):
    """A copy of ``nb`` without the cells tagged ``solution`` (the answers)."""
    nb = copy.deepcopy(nb)
    nb.cells = [c for c in nb.cells if SOLUTION_TAG not in c.get("metadata", {}).get("tags", [])]
    return nb


def student(nb):
    """The student version of ``nb``: no solution cell (:func:`strip_solutions`), no outputs."""
    nb = strip_solutions(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


def write(nb, name, folder=HERE):
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{name}.ipynb"
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, str(out))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("only", nargs="*", help="name prefixes, e.g. 01 02")
    ap.add_argument("--no-execute", action="store_true")
    ap.add_argument("--student", action="store_true",
                    help=f"write student versions (no solution cells, not executed) to {STUDENT_DIR}")
    args = ap.parse_args(argv)
    todo = [(n, p) for n, p in sources() if not args.only or any(n.startswith(o) for o in args.only)]
    if not todo:
        print("no notebook source matches", args.only, file=sys.stderr)
        return 1
    for name, path in todo:
        nb = build(path)
        t0 = time.perf_counter()
        if args.student:
            out = write(student(nb), name, STUDENT_DIR)
            print(f"{out}: {len(student(nb).cells)} cells (student version)")
            continue
        if not args.no_execute:
            execute(nb)
        out = write(nb, name)
        print(f"{out.relative_to(HERE.parent)}: {len(nb.cells)} cells, {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
