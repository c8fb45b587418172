"""The book's pages whose code runs at build time (issue 39, item 6: "the CD diagram is ...
shown in the book").

docs/guide/study.md shows the worked study's tables (their printed outputs, checked to the
character by test_guide_study.py) and its critical-difference diagram, ``study_cd.svg``.
That picture is not committed: ``docs/build.py`` runs the page's Python blocks in the staged
page's folder (``RUN_PAGES``, :func:`run_pages`), so the diagram in the book is the one the
page's code makes at every build.  These tests are fast: they check the page's source, the
build's staging, and the runner on a page of two lines; test_site.py builds the whole book
and checks every figure loads with an alt text.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "study.md"

_spec = importlib.util.spec_from_file_location("docs_build_pages", ROOT / "docs" / "build.py")
docs_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(docs_build)


def test_the_study_page_shows_the_diagram_its_code_makes_and_the_tables():
    text = GUIDE.read_text(encoding="utf-8")
    images = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", text)
    assert [src for _, src in images] == ["study_cd.svg"]
    assert len(images[0][0]) > 60                                          # an alt text that describes it
    code = "\n".join(b for k, b in re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S) if k == "python")
    assert re.search(r"\.savefig\(\"study_cd\.svg\"", code)                  # the page's code writes it
    assert "guide/study.md" in docs_build.RUN_PAGES                        # ... at build time
    assert not (ROOT / "docs" / "guide" / "study_cd.svg").exists(), (
        "docs/guide/study_cd.svg is made by docs/build.py from the page's code: do not commit it")
    # the tables papers print, as the page shows them (their outputs: test_guide_study.py)
    assert 'print(s.table("mae"))' in code and "print(s.summary_table())" in code
    assert "| average rank |" in text and "| mean average rank |" in text


def test_staging_runs_the_pages_beside_the_gallery(tmp_path, monkeypatch):
    started, waited = [], []
    monkeypatch.setattr(docs_build, "start_pages", lambda docs: started.append(Path(docs)) or ["runs"])
    monkeypatch.setattr(docs_build, "_wait", lambda runs, what: waited.append((runs, what)))
    monkeypatch.setattr(docs_build, "run_gallery", lambda folder: [])
    monkeypatch.setattr(docs_build, "lessons", lambda: [])
    docs_build.stage(tmp_path / "src", api=False)
    assert started == [tmp_path / "src" / "docs"]
    assert waited == [(["runs"], "the page")]
    assert (tmp_path / "src" / "docs" / "guide" / "study.md").is_file()


def test_run_pages_runs_a_pages_python_blocks_in_order_in_its_folder(tmp_path):
    page = tmp_path / "guide" / "p.md"
    page.parent.mkdir()
    page.write_text("# A page\n\n```python\nx = 6 * 7\n```\n\n```text\nnot code\n```\n\n"
                    "```python\nopen('fig.txt', 'w').write(str(x))\n```\n", encoding="utf-8")
    docs_build.run_pages(tmp_path, ("guide/p.md",))
    assert (tmp_path / "guide" / "fig.txt").read_text() == "42"
    (tmp_path / "bad.md").write_text("```python\nraise ValueError('a broken page')\n```\n")
    with pytest.raises(RuntimeError, match=r"the page bad\.md failed:(.|\n)*a broken page"):
        docs_build.run_pages(tmp_path, ("bad.md",))


def test_the_study_page_renders_the_table_its_code_writes(tmp_path):
    """The MAE table is shown rendered, not only as the terminal prints it: the page
    includes ``study_mae.md``, which its own code writes (at build time, not committed),
    and running the page's blocks in a folder makes that file with the printed table."""
    text = GUIDE.read_text(encoding="utf-8")
    assert re.search(r"```\{include\} study_mae\.md\n```", text)
    assert not (ROOT / "docs" / "guide" / "study_mae.md").exists()
    code = "\n".join(b for k, b in re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S) if k == "python")
    assert 'f.write(str(s.table("mae")))' in code and code.index("study_mae.md") < code.index("savefig")
