"""The one Markdown-table renderer (numeric.markdown) and the tables it writes.

Expected renderings come from markdown-it-py, the CommonMark parser of the
book's MyST, with its GitHub-Flavored-Markdown table extension: a cell is the
text between unescaped ``|`` (GFM spec, "Tables (extension)", which also
requires ``\\|`` inside code spans), and ``*`` is emphasis unless escaped.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import numeric
from numeric import markdown
from numeric.registry import NOT_METRICS, REGISTRY

ROOT = Path(__file__).resolve().parents[1]
MD = MarkdownIt("commonmark").enable("table")


def _cells(markdown: str) -> list[list[str]]:
    """The cells of every body row of the tables of ``markdown``, as markdown-it renders them
    (HTML tags kept, so that code and emphasis show; entities such as ``&amp;`` decoded)."""
    page = MD.render(markdown)
    rows = re.findall(r"<tr>\n(.*?)</tr>", page.split("<tbody>", 1)[1] if "<tbody>" in page else "", re.S)
    return [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


def test_cells_keep_their_bars_and_stars():
    """A plain-text cell with ``|``, ``*`` and a line break, and a code span with ``|``:
    each row keeps its two cells and the characters come back literally."""
    text = markdown.table(["code", "text"], [["`a|b`", markdown.escape("12*k**2 + 3*k | k >= 1\nnext")]])
    assert _cells(text) == [["<code>a|b</code>", "12*k**2 + 3*k | k >= 1 next"]]


def test_an_escaped_bar_is_not_escaped_twice():
    """``escape`` then ``table`` (the ledger's and the property table's path) gives one backslash:
    markdown-it shows a bare ``|``, not ``\\|``."""
    assert _cells(markdown.table(["x"], [[markdown.escape("a|b")]])) == [["a|b"]]


def test_alignment():
    """GFM: ``:---`` left, ``---:`` right, ``:---:`` center (rendered as text-align)."""
    page = MD.render(markdown.table(["a", "b", "c", "d"], [[1, 2, 3, 4]],
                                     align=["left", "right", "center", None]))
    assert re.findall(r"<td(?: style=\"text-align:(\w+)\")?>", page) == ["left", "right", "center", ""]


@pytest.mark.parametrize("kwargs, message", [
    ({"rows": [[1]]}, "row 0 has 1 cells for 2 columns"),
    ({"rows": [], "align": ["left"]}, "align has 1 entries for 2 columns"),
    ({"rows": [], "align": ["left", "middle"]},
     "alignment must be one of None, 'left', 'right', 'center'; got 'middle'"),
])
def test_bad_shapes_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        markdown.table(["a", "b"], **kwargs)


def test_readme_metric_table_has_every_registry_field_in_its_column():
    """README's generated metric table, rendered: one row per registered metric, eight
    cells, the source cell the registry's source.  Before the one renderer the
    ``somers_d`` row's source ``d(pred|true)`` was cut at its bare ``|``: the source
    column showed "Somers 1962, d(pred", the peers column "true)", and the peer
    ``scipy.stats.somersd`` was dropped."""
    text = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")   # moved from README (issue 40)
    block = text[text.index("<!-- registry:begin -->"):text.index("<!-- registry:end -->")]
    metrics, others = block.split("Other public functions", 1)
    rows = _cells(metrics)
    assert [r[0] for r in rows] == [f"<code>{name}</code>" for name in REGISTRY]
    for row, m in zip(rows, REGISTRY.values(), strict=True):
        assert len(row) == 8 and row[6] == m.source, row
    assert [r[0] for r in _cells(others)] == [f"<code>{n}</code>" for n in sorted(NOT_METRICS)
                                              if n in numeric.__all__]


def _writes_a_separator_row(path):
    """A line of code (not a comment: a lesson's Markdown cell is one) with ``|---`` or ``---|``."""
    return any(("|---" in line or "---|" in line) and not line.lstrip().startswith("#")
               for line in path.read_text(encoding="utf-8").splitlines())


def test_one_renderer_writes_every_table():
    """No module of the packages, the benchmarks, the lessons or the build scripts writes
    a table's separator row itself: every generated table goes through
    numeric.markdown.table (before: seven writers, in numeric/registry.py,
    analytic/ledger.py, analytic/properties/table.py, benchmarks/runner.py and
    lessons 1, 4 and 7)."""
    writers = [p.relative_to(ROOT).as_posix()
               for folder in ("numeric", "analytic", "benchmarks", "notebooks", "docs")
               for p in sorted((ROOT / folder).rglob("*.py"))
               if _writes_a_separator_row(p)]
    assert writers == ["numeric/markdown.py"], writers
