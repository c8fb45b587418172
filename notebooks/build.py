"""Build the teaching notebooks from their sources and execute them.

Each notebook is written as code in ``notebooks/src/NN_name.py``, in the
"percent" cell format, read by jupytext (:func:`parse`):

* ``# %%`` starts a code cell;
* ``# %% [markdown]`` starts a markdown cell, whose lines are comments
  (``# `` is stripped);
* ``key=<JSON>`` pairs after the marker set cell metadata (jupytext's
  syntax): ``tags=["figure:silva2018-fig1", ...]`` sets cell tags, and
  ``alt="..."`` the alt text of the figure the cell draws.  A cell tagged
  ``figure:<key>`` must produce a PNG and have an alt text (checked by
  ``proofs_tests/test_notebooks.py``); a cell tagged ``solution`` belongs to
  the answers; ``hide-input`` (and the other tags of myst-nb: ``remove-input``,
  ``hide-output``, ``remove-cell`` ...) collapses or removes a cell on the
  book's page (``docs/build.py``), e.g. the plotting code of a figure;
* IPython magics are written commented out (``# %matplotlib inline``), as
  jupytext does, so that every source is valid Python; they are uncommented
  in the notebook.

The student version of a lesson (:func:`student`) keeps the questions and
each answer's **self-check**, drops the answers themselves and the outputs:

* a cell tagged ``solution`` is an answer and is left out, except a code cell
  with an ``assert`` statement at its top level (or tagged ``self-check``):
  that cell checks the answer stored in the names it reads, and is kept,
  under a heading *Self-check for exercise N* (``N`` from the ``**Answer N.**``
  heading before it);
* the ``## Answers`` section becomes ``## Self-checks``, with a note saying
  how to use them; the exercises section (``## N. Exercises``) gets a note
  saying where to answer, worded for the page and for the notebook alike.

Usage (from the repository root)::

    python notebooks/build.py              # build and execute every notebook
    python notebooks/build.py 02 05        # only the notebooks whose name starts so
    python notebooks/build.py --no-execute # write the cells only, no outputs
    python notebooks/build.py --student    # student versions in build/student/:
                                           # answers left out, self-checks kept, not executed

Executed notebooks are written to ``notebooks/NN_name.ipynb`` with their
outputs, so the figures show on a repository page.  Execution starts a fresh
kernel in ``notebooks/`` (nbclient).  The book (``python docs/build.py``)
renders these committed notebooks without running them again.
"""

from __future__ import annotations

import argparse
import ast
import copy
import re
import sys
import time
from pathlib import Path

import jupytext
import nbformat

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:  # run as a script from a checkout: its numeric
    sys.path.insert(0, str(HERE.parent))

from exactfloor.errors import OutputError  # noqa: E402
from numeric.outputs import check_outputs, writing  # noqa: E402

SRC = HERE / "src"
KERNEL = "python3"
TIMEOUT = 300  # seconds per cell

SOLUTION_TAG = "solution"
CHECK_TAG = "self-check"
STUDENT_DIR = HERE.parent / "build" / "student"
#: jupytext's own bookkeeping, not part of the lesson (it would only make the .ipynb differ)
_JUPYTEXT_KEYS = ("lines_to_next_cell",)

EXERCISES_NOTE = (
    "**How to answer.**  Work in the notebook of this lesson (on the web page, download it "
    "with the link at the top of the page and open it in JupyterLab).  Run the lesson's cells "
    "first: the exercises use its names.  Write each answer in a new cell after its question "
    "and store the result in the names that its self-check reads (*Self-checks*, at the end), "
    "then run that self-check.  It does not give the answer away (it compares a fingerprint "
    "of yours, or a property of it): a right answer passes (`name: right.`), a wrong one "
    "stops with a hint saying what to reread."
)
SELF_CHECKS_HEADING = (
    "## Self-checks\n\n"
    "One cell per exercise.  Each reads the names your answer stores and passes when the "
    "answer is right; an error with a hint (or a `NameError`: a name not stored yet) means "
    "it is not.  A check does not contain the answer; the worked answers are in the "
    "teacher's version of the lesson."
)


def sources():
    """The notebook sources, in order: ``[(name, path), ...]``."""
    return [(p.stem, p) for p in sorted(SRC.glob("[0-9][0-9]_*.py"))]


def parse(text):
    """Cells of a percent-format source, read by jupytext.

    Each cell's metadata is what its marker line says (``key=<JSON>`` pairs);
    jupytext's round-trip bookkeeping (``lines_to_next_cell``) is dropped.

    Raises
    ------
    ValueError
        A marker's metadata that is not ``key=<JSON>`` pairs.

    Examples
    --------
    >>> [(c.cell_type, c.source, dict(c.metadata)) for c in parse(
    ...     '# %% [markdown]\\n# # Title\\n\\n# %% tags=["solution"]\\nx = 1\\n')]
    [('markdown', '# Title', {}), ('code', 'x = 1', {'tags': ['solution']})]
    """
    nb = jupytext.reads(text, fmt="py:percent")
    for cell in nb.cells:
        bad = cell.metadata.pop("incorrectly_encoded_metadata", None)
        if bad is not None:
            raise ValueError(f"cell marker metadata is not key=<JSON> pairs: {bad!r}")
        for key in _JUPYTEXT_KEYS:
            cell.metadata.pop(key, None)
    return nb.cells


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
    from nbclient import NotebookClient

    client = NotebookClient(
        nb, timeout=timeout, kernel_name=KERNEL, allow_errors=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def is_self_check(cell):
    """Whether a cell tagged ``solution`` is the self-check of its answer (kept for students).

    It is a code cell tagged ``self-check``, or one with an ``assert``
    statement at its top level (the cell after each answer that checks it).
    """
    if cell.cell_type != "code":
        return False
    if CHECK_TAG in _tags(cell):
        return True
    try:
        body = ast.parse(cell.source).body
    except SyntaxError:  # a magic: not a check
        return False
    return any(isinstance(node, ast.Assert) for node in body)


def strip_solutions(nb):
    """A copy of ``nb`` without any cell tagged ``solution`` (the answers and their checks)."""
    nb = copy.deepcopy(nb)
    nb.cells = [c for c in nb.cells if SOLUTION_TAG not in _tags(c)]
    return nb


_ANSWER = re.compile(r"\*\*Answer (\d+)\.\*\*")
_EXERCISES = re.compile(r"^## (?:\d+\.\s*)?Exercises\s*$", re.M)
_ANSWERS = re.compile(r"^## Answers\s*$", re.M)


def _markdown(text, cell_id):
    cell = nbformat.v4.new_markdown_cell(text)
    cell["id"] = cell_id
    return cell


def student(nb, *, outputs=False):
    r"""The student version of ``nb``: the questions and the self-checks, no answer, no output.

    Every cell tagged ``solution`` is left out except the self-checks
    (:func:`is_self_check`), which are kept untagged (tag ``self-check``)
    under a heading naming their exercise; the ``## Answers`` heading becomes
    ``## Self-checks``; a note after the exercises' heading says where and how
    to answer (:data:`EXERCISES_NOTE`).  A notebook without exercises is
    returned with its outputs cleared only.  With ``outputs=True`` the cells
    kept keep their outputs (the book's student page shows the lesson's figures).

    Examples
    --------
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = parse(
    ...     '# %% [markdown]\n# ## 3. Exercises\n#\n# **Exercise 1.**  Store 2 in `x`.\n\n'
    ...     '# %% [markdown] tags=["solution"]\n# ## Answers\n\n'
    ...     '# %% [markdown] tags=["solution"]\n# **Answer 1.**  Two.\n\n'
    ...     '# %% tags=["solution"]\nx = 2\n\n'
    ...     '# %% tags=["solution"]\nassert x == 2\n')
    >>> for c in student(nb).cells:  # doctest: +ELLIPSIS
    ...     print(c.cell_type, c.metadata.get("tags"), c.source.splitlines()[0])
    markdown None ## 3. Exercises
    markdown None **How to answer.**  Work in the notebook of this lesson (on the web page, ...
    markdown None ## Self-checks
    markdown None **Self-check for exercise 1.**
    code ['self-check'] assert x == 2
    """
    nb = copy.deepcopy(nb)
    cells, exercise = [], None
    for cell in nb.cells:
        if cell.cell_type == "code" and not outputs:
            cell.outputs, cell.execution_count = [], None
        cid = cell.get("id", "cell")
        if SOLUTION_TAG not in _tags(cell):
            cells.append(cell)
            if cell.cell_type == "markdown" and _EXERCISES.search(cell.source):
                cells.append(_markdown(EXERCISES_NOTE, f"{cid}-how"))
            continue
        if cell.cell_type == "markdown":
            if _ANSWERS.search(cell.source):
                cells.append(_markdown(SELF_CHECKS_HEADING, f"{cid}-checks"))
            m = _ANSWER.search(cell.source)
            if m:
                exercise = m.group(1)
            continue
        if is_self_check(cell):
            if exercise is not None:
                cells.append(_markdown(f"**Self-check for exercise {exercise}.**", f"{cid}-title"))
                exercise = None  # a second check cell of the same answer needs no second heading
            tags = [t for t in _tags(cell) if t != SOLUTION_TAG]
            cell.metadata["tags"] = tags + [CHECK_TAG] * (CHECK_TAG not in tags)
            cells.append(cell)
    nb.cells = cells
    return nb


def write(nb, name, folder=HERE):
    """Write ``nb`` to ``folder/name.ipynb`` with the project's output rule
    (:mod:`numeric.outputs`): into a temporary file moved into place, so that
    a failed write leaves the previous notebook as it was."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{name}.ipynb"
    nb.metadata.pop("widgets", None)
    with writing(str(out)) as fh:
        nbformat.write(nb, fh)
    return out


def check(todo, folder):
    """Check every notebook's output path before any is built or executed
    (:func:`numeric.outputs.check_outputs`: not a folder, not a source, a folder
    that exists and is writable); ``todo`` is ``[(name, source path), ...]``."""
    folder.mkdir(parents=True, exist_ok=True)
    check_outputs({name: str(folder / f"{name}.ipynb") for name, _ in todo},
                  inputs=[str(path) for _, path in todo])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("only", nargs="*", help="name prefixes, e.g. 01 02")
    ap.add_argument("--no-execute", action="store_true")
    ap.add_argument("--student", action="store_true",
                    help=f"write student versions (answers left out, self-checks kept, not executed) to {STUDENT_DIR}")
    args = ap.parse_args(argv)
    todo = [(n, p) for n, p in sources() if not args.only or any(n.startswith(o) for o in args.only)]
    if not todo:
        print("no notebook source matches", args.only, file=sys.stderr)
        return 1
    try:
        check(todo, STUDENT_DIR if args.student else HERE)
        for name, path in todo:
            nb = build(path)
            t0 = time.perf_counter()
            if args.student:
                nb = student(nb)
                out = write(nb, name, STUDENT_DIR)
                print(f"{out}: {len(nb.cells)} cells, {sum(is_self_check(c) for c in nb.cells)} "
                      "self-checks (student version)")
                continue
            if not args.no_execute:
                execute(nb)
            out = write(nb, name)
            print(f"{out.relative_to(HERE.parent)}: {len(nb.cells)} cells, {time.perf_counter() - t0:.1f} s")
    except (OutputError, OSError) as exc:  # the previous notebook is left as it was
        print(f"notebooks/build.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
