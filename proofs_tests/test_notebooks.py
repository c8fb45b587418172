"""The teaching notebooks (issue 6): each is executed from a clean kernel,
holds the figures it promises, and is committed executed and in sync with its
source in ``notebooks/src/``.

A cell tagged ``figure:<key>`` (e.g. ``figure:silva2018-fig1``) must output a
PNG; :data:`FIGURES` lists the keys each notebook must hold.  Exercises are
``assert`` cells: an execution error fails the test.
"""

from __future__ import annotations

import base64
import copy
import importlib.util
import re
import struct
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"

_spec = importlib.util.spec_from_file_location("notebooks_build", NB_DIR / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

#: The figures each notebook must show (cell tags ``figure:<key>``).
FIGURES = {
    "01_tour": [
        "heatmaps-cardoso2011", "heatmaps-silva2018", "metrics-side-by-side",
    ],
    "02_oc_uoc_paths": [
        "consistent-paths", "optimal-paths", "silva2018-fig1",
        "silva2018-fig2", "cardoso2011-fig4",
    ],
    "03_tridiagonal": [
        "tridiagonal-heatmap", "silva2018-fig3", "cardoso2011-fig5",
    ],
    "04_cost_sensitive": [
        "cost-matrix", "tc-max-matrix", "george2016-fig1", "george2016-fig2",
    ],
    "05_intervals": [
        "hausdorff-densities", "tc-max-of-x", "binotto2024-fig1",
    ],
    "06_explorer": ["explorer"],
    "07_properties": [
        "rps-cumulative", "property-map", "kappa-monotonicity", "weighted-kappa-invariance",
        "somers-identity", "tau-c-monotonicity", "cem-ordinal-monotonicity", "cem-imbalance",
        "cem-imbalance-populated", "within-one-invariance",
    ],
}

NAMES = [name for name, _ in build.sources()]

#: the width (CSS pixels) the site shows a notebook's output at in a 1200-pixel window
#: (nbconvert's lab template: the page less the prompt column); a wider PNG is scaled
#: down and its text with it, so figures are drawn at most this wide (dpi 90, 12 in)
SITE_FIGURE_WIDTH = 1090


def _png_size(data):
    """(width, height) of a base64 PNG, from its IHDR chunk (PNG spec, section 11.2.2)."""
    raw = base64.b64decode(data[:64])
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR", "not a PNG"
    return struct.unpack(">II", raw[16:24])


def _committed(name):
    return nbformat.read(str(NB_DIR / f"{name}.ipynb"), as_version=4)


def _figure_tags(nb):
    """``{key: has_png}`` for every cell tagged ``figure:<key>``."""
    out = {}
    for cell in nb.cells:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag.startswith("figure:"):
                pngs = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
                out[tag.split(":", 1)[1]] = bool(pngs)
    return out


def test_at_least_five_notebooks_with_sources():
    assert len(NAMES) >= 5
    assert set(FIGURES) <= set(NAMES), set(FIGURES) - set(NAMES)
    for name in NAMES:
        assert (NB_DIR / f"{name}.ipynb").exists(), f"{name}.ipynb not built"


@pytest.fixture(scope="module")
def executed():
    """Every notebook, built from its source and executed in a fresh kernel.

    Their total execution time (issue 6: under 3 minutes) is measured by
    ``python -m benchmarks --only 9``, not by a timed unit test.
    """
    out = {}
    for name, path in build.sources():
        nb = build.build(path)
        build.execute(nb)  # raises CellExecutionError on any error, failed asserts included
        out[name] = nb
    return out


@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes_and_shows_its_figures(executed, name):
    nb = executed[name]
    tags = _figure_tags(nb)
    for key in FIGURES.get(name, []):
        assert key in tags, f"{name}: no cell tagged figure:{key}"
        assert tags[key], f"{name}: the cell tagged figure:{key} output no PNG"
    assert all(tags.values()), f"{name}: figure cells without a PNG: {[k for k, v in tags.items() if not v]}"
    asserts = [c for c in nb.cells if c.cell_type == "code" and "assert " in c.source]
    assert asserts, f"{name}: no exercise checked by an assert cell"


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_is_executed_and_matches_its_source(name):
    committed = _committed(name)
    built = build.build(NB_DIR / "src" / f"{name}.py")
    assert [c.cell_type for c in committed.cells] == [c.cell_type for c in built.cells], (
        f"{name}.ipynb is out of date: run python notebooks/build.py {name[:2]}")
    for got, want in zip(committed.cells, built.cells):
        assert got.source == want.source, f"{name}.ipynb is out of date: run python notebooks/build.py {name[:2]}"
    code = [c for c in committed.cells if c.cell_type == "code" and c.source.strip()]
    assert all(c.get("execution_count") for c in code), f"{name}.ipynb has unexecuted cells"
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{name}.ipynb was not run top to bottom in one kernel"
    errors = [o for c in code for o in c.outputs if o.get("output_type") == "error"]
    assert not errors, f"{name}.ipynb was committed with errors"
    tags = _figure_tags(committed)
    for key in FIGURES.get(name, []):
        assert tags.get(key), f"{name}.ipynb: figure:{key} has no committed PNG"
    for cell in committed.cells:  # issue 14: every figure has an alt text (the site shows it)
        pngs = [o["data"]["image/png"] for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        if pngs:
            assert len(cell.metadata.get("alt", "")) > 30, f"{name}.ipynb: a figure cell without alt text"
        for png in pngs:  # shown unscaled on the site, so its fonts keep their size
            width, _ = _png_size(png)
            assert width <= SITE_FIGURE_WIDTH, (
                f"{name}.ipynb: a figure {width} px wide (the site shows {SITE_FIGURE_WIDTH}): "
                f"{cell.metadata.get('alt', '')[:60]}")


@pytest.mark.parametrize("name", NAMES)
def test_student_version_keeps_the_questions_and_drops_the_answers(name):
    """Exercises (issues 14, 24): questions in the lesson, answers only in cells tagged
    ``solution``; the student version keeps each answer's self-check (the cell of
    ``assert`` statements after it, run by the teacher's notebook) and no other code."""
    nb = build.build(NB_DIR / "src" / f"{name}.py")
    student = build.student(nb)
    questions = [c for c in nb.cells if c.cell_type == "markdown" and "**Exercise " in c.source]
    if name == "06_explorer":
        assert not questions and student.cells == nb.cells  # the explorer has no exercise
        return
    assert questions, f"{name}: no exercise"
    assert [c for c in student.cells if "**Exercise " in c.source] == questions
    assert not [c for c in student.cells if "solution" in c.metadata.get("tags", [])]
    start = next(i for i, c in enumerate(student.cells) if re.search(r"^## \d+\. Exercises", c.source, re.M))
    checks = [c for c in student.cells[start:] if c.cell_type == "code"]
    # a check is a cell of asserts, or one tagged self-check (issue 40: selfcheck.check calls)
    teacher_checks = [c.source for c in nb.cells if "solution" in c.metadata.get("tags", [])
                      and c.cell_type == "code" and (re.search(r"^assert ", c.source, re.M)
                                                     or "self-check" in c.metadata.get("tags", []))]
    # every kept code cell is a self-check of the teacher's notebook, verbatim (so it passes there)
    assert [c.source for c in checks] == teacher_checks, f"{name}: a code cell of the exercises is not a self-check"
    assert all(c.metadata["tags"] == ["self-check"] and not c.outputs for c in checks), name
    headings = re.findall(r"\*\*Self-check for exercise (\d+)\.\*\*", "\n".join(c.source for c in student.cells))
    assert headings == re.findall(r"\*\*Exercise (\d+)\.\*\*", "\n".join(c.source for c in questions)), (
        f"{name}: not one self-check per exercise")
    assert any("## Answers" in c.source for c in nb.cells) and not any("## Answers" in c.source for c in student.cells)
    assert not any("**Answer " in c.source for c in student.cells), f"{name}: an answer's text is shown"
    # the instructions suit a web page and a notebook alike (issue 24: no "new cell below" alone)
    assert any(c.source.startswith("**How to answer.**") and "download" in c.source for c in student.cells)


def test_sources_are_valid_python():
    """Magics are commented out in the sources (as jupytext writes them), so each source compiles."""
    for _, path in build.sources():
        compile(path.read_text(encoding="utf-8"), str(path), "exec")


def test_png_size_reads_the_header():
    """A 3 x 2 PNG written by matplotlib (the notebooks' own backend) reads back as (3, 2)."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    plt.imsave(buf, [[0.0, 1.0, 0.5], [1.0, 0.0, 0.5]], format="png")
    assert _png_size(base64.b64encode(buf.getvalue()).decode()) == (3, 2)


def test_parser_round_trip():
    src = (
        "# %% [markdown]\n# # Title\n#\n# Some *text*.\n\n"
        "# %% tags=[\"figure:k\"] alt=\"a plot, x = 1\"\n# %matplotlib inline\nx = 1  # a comment\n\n"
        "# %%\nassert x == 1\n"
    )
    cells = build.parse(src)
    assert [c.cell_type for c in cells] == ["markdown", "code", "code"]
    assert cells[0].source == "# Title\n\nSome *text*."
    assert cells[1].metadata["tags"] == ["figure:k"]
    assert cells[1].metadata["alt"] == "a plot, x = 1"
    assert cells[1].source == "%matplotlib inline\nx = 1  # a comment"
    nb = copy.deepcopy(nbformat.v4.new_notebook())
    nb.cells = cells
    nbformat.validate(nb)
