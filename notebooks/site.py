"""Build the teaching site: static HTML pages from the executed notebooks and
every ``docs/*.md`` file, with a contents page, math rendered offline and the
figures embedded.

Usage (from the repository root, so that ``notebooks`` is importable)::

    python -m notebooks.site                    # -> build/site/index.html
    python -m notebooks.site --student          # exercises without answers
    python -m notebooks.site --output DIR

The notebooks are **not** executed again: the pages are rendered from the
committed, executed ``notebooks/NN_name.ipynb`` (their figures are PNG
outputs, embedded in the page as ``data:`` URIs).  Each ``docs/*.md`` file
becomes a page too, so a document added to ``docs/`` appears on the next build.

Math is typeset in the browser by MathJax 2, copied into the site from the
``jupyter-server-mathjax`` package (with its STIX web fonts): the pages load
nothing from the network.  The page template (``notebooks/templates/ovsite``)
is nbconvert's JupyterLab template without its network scripts (require.js,
mermaid, the widget manager), with a navigation bar and the alt text of each
figure (a figure cell's ``alt`` metadata, see ``notebooks/build.py``).

``--student`` leaves out every cell tagged ``solution`` (the answers section
of each lesson), as ``python notebooks/build.py --student`` does for the
notebooks themselves.

The output folder is never emptied blindly.  The builder writes only into a
new or empty folder, or into one it wrote before: that folder holds the
marker file ``.ordinal-verify-site``, which lists what the previous build
wrote, and only those entries are removed before the new build (a file the
user added is left alone).  Any other folder (``--output .`` in a checkout,
a site built before the marker existed) is refused with a one-line message
and exit status 2, before any page is rendered.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import shutil
import sys
from pathlib import Path

import jupyter_server_mathjax
import nbformat
from nbconvert import HTMLExporter

from notebooks import build

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DOCS = ROOT / "docs"
OUTPUT = ROOT / "build" / "site"
TEMPLATES = HERE / "templates"
MATHJAX_SRC = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
MATHJAX_DIR = "mathjax"
MATHJAX_URL = f"{MATHJAX_DIR}/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = (
    '<p class="ov-widget-note">Interactive controls (ipywidgets) appear here when '
    "the notebook runs in JupyterLab; this page shows the outputs computed with "
    "the fixed values below.</p>"
)

#: the file that marks a folder as written by this builder; it lists the entries it wrote
MARKER = ".ordinal-verify-site"
_MARKER_KIND = "ordinal-verify teaching site"


class SiteOutputError(ValueError):
    """The output folder cannot be used: one line on stderr, exit status 2."""


def _owned_entries(output):
    """The entries a previous build wrote into ``output``, from its marker file
    (``None`` when there is no marker)."""
    marker = output / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        entries = data["entries"]
        assert data.get("kind") == _MARKER_KIND and isinstance(entries, list)
        assert all(isinstance(e, str) and e and e == Path(e).name and e not in (".", "..", MARKER)
                   for e in entries)
    except (OSError, ValueError, KeyError, TypeError, AssertionError):
        raise SiteOutputError(
            f"{output}: the marker file {MARKER} is damaged, so what the previous build wrote "
            "is not known; remove the folder yourself or give another --output") from None
    return entries


def check_output(output):
    """Check that the site may be written into ``output``, before any work.

    ``output`` may be missing, an empty folder, or a folder holding the
    :data:`MARKER` file of a previous build; returns the entries that build
    wrote (to remove before writing), ``[]`` otherwise.

    Raises
    ------
    SiteOutputError
        ``output`` is a file, or a non-empty folder without the marker.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> check_output(d / "new"), check_output(d)
    ([], [])
    >>> _ = (d / "mine.txt").write_text("keep me")
    >>> check_output(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    notebooks.site.SiteOutputError: ...: not empty and not written by this builder ...
    """
    output = Path(output)
    if not output.exists() and not output.is_symlink():
        return []
    if not output.is_dir():
        raise SiteOutputError(f"{output}: not a folder; give a new or empty folder for the site")
    entries = _owned_entries(output)
    if entries is not None:
        return entries
    try:
        empty = not any(os.scandir(output))
    except OSError as exc:
        raise SiteOutputError(f"{output}: cannot be read ({exc.strerror or exc})") from None
    if not empty:
        raise SiteOutputError(
            f"{output}: not empty and not written by this builder (no {MARKER} file); "
            "nothing was changed. Give a new or empty folder")
    return []


def _write_marker(output, entries):
    (output / MARKER).write_text(
        json.dumps({"kind": _MARKER_KIND, "entries": sorted(entries)}, indent=1) + "\n",
        encoding="utf-8")


def _clean(output, entries):
    """Remove the entries a previous build wrote (and nothing else)."""
    for name in entries:
        p = output / name
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        elif p.exists() or p.is_symlink():
            p.unlink()


_HREF = re.compile(r'href="([^"#]*?)(\.ipynb|\.md)(#[^"]*)?"')


def notebooks():
    """The executed notebooks, in order: ``[(stem, path), ...]``."""
    return [(p.stem, p) for p in sorted(HERE.glob("[0-9][0-9]_*.ipynb"))]


def documents(docs=DOCS):
    """Every Markdown document of ``docs/``: ``[(stem, path), ...]``."""
    return [(p.stem, p) for p in sorted(Path(docs).glob("*.md"))]


def title_of(markdown, default):
    """The first level-1 heading of a Markdown text (its ``#`` and any ``N ·`` kept)."""
    for line in markdown.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return default


def prepare(nb):
    """The notebook as the site shows it: alt text on each PNG, widget views replaced by a note.

    A cell's ``alt`` metadata becomes the alt text of every PNG it outputs
    (nbconvert reads it from the output's ``image/png`` metadata).
    """
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        alt = cell.get("metadata", {}).get("alt")
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "image/png" in data and alt:
                out.setdefault("metadata", {}).setdefault("image/png", {})["alt"] = alt
            if WIDGET_MIME in data:
                out["data"] = {"text/html": WIDGET_NOTE}
    return nb


def markdown_notebook(text, title):
    """A one-cell notebook holding a Markdown document (rendered as the notebooks are)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(text)]
    nb.metadata["title"] = title
    return nb


def rewrite_links(body, targets):
    """Links to a notebook (``X.ipynb``) or a document (``X.md``) of the site point to its page."""
    def sub(m):
        stem = Path(m.group(1) + m.group(2)).stem
        if stem in targets:
            return f'href="{targets[stem]}{m.group(3) or ""}"'
        return m.group(0)
    return _HREF.sub(sub, body)


def exporter():
    ex = HTMLExporter(template_name="ovsite", extra_template_basedirs=[str(TEMPLATES)])
    ex.mathjax_url = MATHJAX_URL
    return ex


def contents_page(lessons, docs, *, student):
    """The Markdown of the contents page."""
    lines = [
        "# ordinal-verify: teaching site",
        "",
        "Lessons on the theory of performance metrics for ordinal classification, "
        "built on the `numeric` and `analytic` packages of ordinal-verify, and the "
        "reference documents of the project.",
        "",
        ("This is the **student version**: each lesson ends with exercises; the answers are left out."
         if student else
         "Each lesson ends with exercises, followed by their answers in a separate section."),
        "",
        "## Lessons",
        "",
    ]
    for page, title, has_answers in lessons:
        line = f"* [{title}]({page})"
        if has_answers and not student:
            line += f" — [answers]({page}#Answers)"
        lines.append(line)
    lines += ["", "## Reference documents", ""]
    lines += [f"* [{title}]({page})" for page, title in docs]
    return "\n".join(lines) + "\n"


def build_site(output=OUTPUT, *, student=False, docs=DOCS):
    """Write the site into ``output``; return the pages written, contents first.

    ``output`` is new, empty, or a folder of a previous build (its
    :data:`MARKER` file lists what that build wrote, which is removed first);
    anything else raises :class:`SiteOutputError` before any work
    (:func:`check_output`).
    """
    output = Path(output)
    previous = check_output(output)

    pages = []  # (page file, title, notebook)
    for stem, path in notebooks():
        nb = nbformat.read(str(path), as_version=4)
        if student:
            nb = build.strip_solutions(nb)
        first_md = next((c.source for c in nb.cells if c.cell_type == "markdown"), "")
        title = title_of(first_md, stem)
        nb.metadata["title"] = title
        has_answers = any(
            c.cell_type == "markdown" and re.search(r"^## Answers\s*$", c.source, re.M) for c in nb.cells)
        pages.append((f"{stem}.html", title, prepare(nb), has_answers))
    doc_pages = []
    for stem, path in documents(docs):
        text = path.read_text(encoding="utf-8")
        title = title_of(text, stem)
        doc_pages.append((f"{stem}.html", title, markdown_notebook(text, title), False))

    index = markdown_notebook(
        contents_page([(p, t, a) for p, t, _, a in pages], [(p, t) for p, t, _, _ in doc_pages],
                      student=student),
        "ordinal-verify: teaching site")
    everything = [("index.html", index.metadata["title"], index, False)] + pages + doc_pages
    targets = {Path(p).stem: p for p, _, _, _ in everything}

    # the marker lists every entry this build writes before the first is written,
    # so that an interrupted build is still cleaned by the next one
    output.mkdir(parents=True, exist_ok=True)
    ours = [MATHJAX_DIR] + [p for p, _, _, _ in everything]
    _write_marker(output, set(previous) | set(ours))
    _clean(output, previous)
    _write_marker(output, ours)
    shutil.copytree(MATHJAX_SRC, output / MATHJAX_DIR)

    ex = exporter()
    written = []
    for i, (page, title, nb, _) in enumerate(everything):
        resources = {
            "metadata": {"name": title},
            "ov_prev": everything[i - 1][:2] if i > 1 else None,
            "ov_next": everything[i + 1][:2] if 0 < i < len(everything) - 1 else None,
        }
        body, _ = ex.from_notebook_node(nb, resources=resources)
        (output / page).write_text(rewrite_links(body, targets), encoding="utf-8")
        written.append(output / page)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--output", type=Path, default=OUTPUT, help=f"folder of the site (default {OUTPUT.relative_to(ROOT)})")  # noqa: E501
    ap.add_argument("--student", action="store_true", help="leave out the cells tagged 'solution'")
    args = ap.parse_args(argv)
    try:
        pages = build_site(args.output, student=args.student)
    except SiteOutputError as exc:
        print(f"notebooks.site: {exc}", file=sys.stderr)
        return 2
    print(f"{len(pages)} pages in {args.output}; open {pages[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
