"""The book (issues 14, 24): ``python docs/build.py`` builds it with Sphinx from the
executed notebooks, ``docs/*.md`` and the docstrings; this suite builds it (the
teacher's and the student's version, into temporary folders: this is how CI
builds it), checks its links, anchors and downloads as files, then opens every
page in a real headless Chromium (playwright driving the system's ``chromium``,
installed by ``.ci/run``) served on the loopback interface, and checks what a
reader sees: the page loads, every formula is typeset by the bundled MathJax 3
without an error, every figure loads and has an alt text, no request leaves the
machine, search finds "kappa" and "A_UOC", the API entry of ``numeric.a_uoc``
shows its signature and formula, a wide table scrolls at 1,280 px, and a
figure stays readable at 390 px (it opens alone at full size).  Issue 40: each
lesson's Markdown outputs (tables, display math with ``\\`` row breaks) are
rendered, never shown as raw text, at 1,280 px and 375 px, with a screenshot
of each (``OV_SCREENSHOTS=DIR`` keeps them); no page of documents is wider than
a 375 px phone (the document's ``scrollWidth`` against the viewport); one
search box per page, the public ``numeric.a_uoc`` first in a search for
A_UOC; the Install and How-to-cite pages, the version in the header, the
``[source]`` links and the favicon.

Without a Chromium the browser tests fail (they are not skipped): install it
with ``apt-get install chromium`` or point ``CHROMIUM`` at a binary.

The build time is printed (``-s``) and recorded as a test property; the budget
of the book's build and of this suite is 90 s on CI's two cores (issue 24).
"""

from __future__ import annotations

import doctest
import functools
import html
import http.server
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
LESSONS = sorted(p.stem for p in NB_DIR.glob("[0-9][0-9]_*.ipynb"))
DOCS = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]

_spec = importlib.util.spec_from_file_location("docs_build", ROOT / "docs" / "build.py")
docs_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(docs_build)
_spec = importlib.util.spec_from_file_location("notebooks_build", NB_DIR / "build.py")
nb_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nb_build)


def _build(out, *extra):
    """Run the documented command; return the folder it wrote and the seconds it took."""
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "docs/build.py", "--output", str(out), *extra],
                         cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    assert res.returncode == 0, res.stdout + res.stderr
    print(f"\n{' '.join(['docs/build.py', *extra])}: {seconds:.1f} s; {res.stdout.strip()}")
    return out, seconds, res


@pytest.fixture(scope="module")
def book_run(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("book") / "book")


@pytest.fixture(scope="module")
def book(book_run):
    return book_run[0]


@pytest.fixture(scope="module")
def student_book(tmp_path_factory):
    # the API pages are the teacher's (tested above) and half the build's time: left out here
    return _build(tmp_path_factory.mktemp("student") / "book", "--student", "--no-api")[0]


def _pages(folder):
    """The book's pages (``_static`` holds the theme's HTML fragments, not pages)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html")
                  if p.relative_to(folder).parts[0] not in ("_static", "_downloads", "_images"))


class _Page(HTMLParser):
    """The ids, links, resources and images of an HTML page."""

    def __init__(self, text):
        super().__init__()
        self.ids, self.links, self.resources, self.images, self.classes = set(), [], [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        if a.get("class"):
            self.classes.append((tag, a["class"]))
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in ("script", "img", "iframe", "source", "video", "audio", "embed") and a.get("src"):
            self.resources.append(a["src"])
        if tag == "link" and a.get("href") and a.get("rel") != "canonical":
            self.resources.append(a["href"])
        if tag == "img":
            self.images.append(a)


@functools.lru_cache(maxsize=None)
def _parse(path):
    return _Page(Path(path).read_text(encoding="utf-8"))


def _png_outputs(stem):
    nb = nbformat.read(str(NB_DIR / f"{stem}.ipynb"), as_version=4)
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)


# --- the book as files ---------------------------------------------------------

def test_docstrings_link_into_the_libraries_documentation(book):
    """Issue 40: intersphinx, from the inventories of docs/_inventories/ (offline): a
    docstring's :func:`sklearn.metrics.make_scorer` and :func:`sympy.sympify` are links to
    the projects' pages (their addresses: proofs_tests/test_inventories.py)."""
    scorers = (book / "docs/api/generated/numeric.scorers.html").read_text(encoding="utf-8")
    assert ('href="https://scikit-learn.org/stable/modules/generated/sklearn.metrics.make_scorer.html'
            '#sklearn.metrics.make_scorer"') in scorers
    parsing = (book / "docs/api/generated/exactfloor.parsing.html").read_text(encoding="utf-8")
    assert 'href="https://docs.sympy.org/latest/modules/core.html#sympy.core.sympify.sympify"' in parsing


def test_the_book_has_every_lesson_document_and_api_page(book, book_run):
    _, seconds, res = book_run
    assert "0 warnings" in res.stdout, res.stderr  # docstrings and pages build cleanly
    pages = _pages(book)
    assert len(LESSONS) >= 7 and {"ledger", "properties", "mutation", "benchmarks", "changelog"} <= set(DOCS)
    for stem in LESSONS:
        assert f"notebooks/{stem}.html" in pages
    for stem in DOCS:
        assert f"docs/{stem}.html" in pages
    for guide in ("researcher", "mathematician", "teacher"):
        assert f"docs/guide/{guide}.html" in pages
    for module in ("numeric", "analytic", "numeric.envelope", "analytic.properties.audit", "analytic.ledger"):
        assert f"docs/api/generated/{module}.html" in pages
    contents = _parse(book / "docs" / "index.html").links
    for stem in LESSONS:
        assert f"../notebooks/{stem}.html" in contents, f"the contents page does not link lesson {stem}"
    # the changelog page holds CHANGELOG.md, the benchmarks page the README's former diary
    changelog = (book / "docs" / "changelog.html").read_text(encoding="utf-8")
    first_entry = next(line[4:] for line in (ROOT / "CHANGELOG.md").read_text().splitlines() if line.startswith("## "))
    assert first_entry.strip("[]") in changelog
    assert "Latest full run" in (book / "docs" / "benchmarks.html").read_text(encoding="utf-8")
    # a newcomer finds from the book where to add a metric (issue 24): CONTRIBUTING.md, linked
    # from the contents page
    assert "Where each kind of change goes" in (book / "docs" / "contributing.html").read_text(encoding="utf-8")
    assert "contributing.html" in contents
    assert (book / "index.html").is_file() and "docs/index.html" in (book / "index.html").read_text()


def test_the_book_fetches_nothing_from_the_network(book):
    """Every script, style sheet, font and image is a file of the book or a data: URI (no CDN)."""
    for page in _pages(book):
        for url in _parse(book / page).resources:
            parts = urlsplit(url)
            assert not parts.netloc and parts.scheme in ("", "data"), f"{page}: fetches {url}"
    assert (book / "_static" / "mathjax" / "tex-chtml.js").is_file()
    for css in (book / "_static").rglob("*.css"):
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.read_text(encoding="utf-8", errors="replace")):
            assert urlsplit(url).scheme in ("", "data"), f"{css.name}: loads {url}"


def test_install_cite_version_source_links_and_favicon(book):
    """Issue 40: an Install page with the README's two commands and every extra of
    pyproject.toml; a How-to-cite page whose BibTeX carries CITATION.cff's title and version;
    the version in the header of every page; a [source] link beside each API entry; a
    favicon that is a file of the book."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = (book / "docs" / "install.html").read_text(encoding="utf-8")
    commands = [line.strip() for line in readme.splitlines() if line.startswith("    ") and "python3 -m venv" in line]
    assert len(commands) == 2
    install_text = _text_of(install)
    for command in commands:
        assert command in install_text, command[:60]
    for extra in project["optional-dependencies"]:
        cell = f'<td><p><code class="docutils literal notranslate"><span class="pre">{extra}</span>'
        assert cell in install, extra
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    version = re.search(r'^version: "([^"]+)"', cff, re.M).group(1)
    title = re.search(r'^title: "([^"]+)"', cff, re.M).group(1)
    assert version == project["version"]
    cite = (book / "docs" / "cite.html").read_text(encoding="utf-8")
    assert "@software" in cite and f"{version}" in cite and title in cite
    for key in ("cardoso2011", "silva2018", "george2016", "binotto2024", "macroblog"):
        assert key in cite and key in cff
    for path in ("docs/index.html", "notebooks/01_tour.html", "docs/api/generated/numeric.html"):
        page = (book / path).read_text(encoding="utf-8")
        assert re.search(rf'class="title logo__title">ordinal-verify {re.escape(version)}<', page), path
        icons = re.findall(r'<link rel="icon" href="([^"]+)"', page)
        assert icons and all((book / path).parent.joinpath(unquote(i)).resolve().is_file() for i in icons), path
    api = (book / "docs/api/generated/numeric.html").read_text(encoding="utf-8")
    source = re.search(r'<dt class="sig sig-object py" id="numeric.a_uoc">.*?</dt>', api, re.S).group(0)
    link = re.search(r'<a class="reference internal" href="([^"]+)"><span class="viewcode-link">', source)
    assert link, "no [source] link beside numeric.a_uoc"
    target, anchor = link.group(1).split("#")
    code = (book / "docs/api/generated" / target).resolve()
    assert code.is_file() and f'id="{anchor}"' in code.read_text(encoding="utf-8")
    assert "def a_uoc(" in _text_of(code.read_text(encoding="utf-8"))


def test_gallery_shows_each_example_with_its_picture_and_script(book):
    """Issue 40: the gallery page shows every script of docs/gallery/, run at build time on
    small inputs: its figure (a PNG the run wrote, with an alt text), its code, a download of
    the script as it is in the repository."""
    scripts = sorted(p for p in (ROOT / "docs" / "gallery").glob("*.py") if not p.name.startswith("_"))
    assert len(scripts) >= 5
    page = _parse(book / "docs" / "gallery.html")
    text = _text_of((book / "docs" / "gallery.html").read_text(encoding="utf-8"))
    for script in scripts:
        images = [i for i in page.images if i.get("src", "").endswith(f"/{script.stem}.png")]
        assert len(images) == 1 and len(images[0].get("alt", "")) > 30, script.name
        png = (book / "docs" / unquote(images[0]["src"])).resolve()
        assert png.is_file() and _png_size(png)[0] >= 500, script.name
        downloads = [h for h in page.links if h.endswith(f"/{script.name}")]
        assert len(downloads) == 1, script.name
        assert (book / "docs" / unquote(downloads[0])).resolve().read_bytes() == script.read_bytes()
        assert script.read_text(encoding="utf-8").splitlines()[0].strip('"') in text   # the code is shown


def _text_of(page):
    """The text of an HTML page: its tags removed, its entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_every_internal_link_and_anchor_resolves(book):
    checked = 0
    for page in _pages(book):
        for href in _parse(book / page).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc:
                continue  # an external link: not fetched here
            target = (book / page).parent / unquote(parts.path) if parts.path else book / page
            target = target.resolve()
            assert target.is_file(), f"{page} links to a missing {href}"
            if parts.fragment and target.suffix == ".html":
                ids = _parse(target).ids
                assert unquote(parts.fragment) in ids, f"{page}: no anchor {href}"
            checked += 1
    assert checked > 1000


def test_every_figure_has_an_alt_text_and_a_full_size_link(book):
    for stem in LESSONS:
        page = _parse(book / "notebooks" / f"{stem}.html")
        images = page.images
        assert len(images) == _png_outputs(stem) > 0, stem
        for img in images:
            alt = img.get("alt") or ""
            assert len(alt) > 30 and alt != "None" and "ov-figure" in img.get("class", ""), \
                f"{stem}: a figure without an alt text: {alt!r}"
            assert (book / "notebooks" / img["src"]).resolve().is_file()
            assert img["src"] in page.links, f"{stem}: a figure does not link to its file"


def test_each_lesson_page_links_its_notebook_and_the_download_is_the_lesson(book):
    for stem in LESSONS:
        page = _parse(book / "notebooks" / f"{stem}.html")
        downloads = [h for h in page.links if h.endswith(f"/{stem}.ipynb")]
        assert len(downloads) == 1, f"{stem}: no download link of its notebook"
        got = nbformat.read(str((book / "notebooks" / downloads[0]).resolve()), as_version=4)
        want = nbformat.read(str(NB_DIR / f"{stem}.ipynb"), as_version=4)
        assert got == want, f"{stem}: the download is not the committed notebook"


def test_cells_tagged_hide_input_are_collapsed_on_the_page(book):
    """A plotting cell tagged ``hide-input`` in its source shows its figure and folds its code."""
    for stem in LESSONS:
        nb = nbformat.read(str(NB_DIR / f"{stem}.ipynb"), as_version=4)
        tagged = sum("hide-input" in c.metadata.get("tags", []) for c in nb.cells if c.cell_type == "code")
        page = _parse(book / "notebooks" / f"{stem}.html")
        shown = sum(tag == "div" and "tag_hide-input" in cls.split() for tag, cls in page.classes)
        assert shown == tagged, f"{stem}: {tagged} cells tagged hide-input, {shown} folded on the page"


def test_teacher_book_shows_the_answers_and_the_student_book_the_self_checks(book, student_book):
    answered = 0
    for stem in LESSONS:
        full = (book / "notebooks" / f"{stem}.html").read_text(encoding="utf-8")
        student = (student_book / "notebooks" / f"{stem}.html").read_text(encoding="utf-8")
        exercises = re.findall(r"<strong>Exercise (\d+)\.</strong>", full)
        if not exercises:  # the explorer: no exercise, hence no answers section
            assert 'id="answers"' not in full and "Self-check" not in student, stem
            continue
        assert re.findall(r"<strong>Exercise (\d+)\.</strong>", student) == exercises, stem
        assert 'id="answers"' in full and "<strong>Answer 1.</strong>" in full, f"{stem}: no answers"
        assert 'id="answers"' not in student and "<strong>Answer " not in student, \
            f"{stem}: the student page shows answers"
        checks = re.findall(r"<strong>Self-check for exercise (\d+)\.</strong>", student)
        assert checks == exercises, f"{stem}: not one self-check per exercise"
        assert "How to answer." in student and "download" in student.split("How to answer.")[1][:400]
        answered += len(exercises)
    assert answered >= 5 * 4


def test_the_student_download_is_the_student_notebook(student_book):
    for stem in LESSONS:
        page = _parse(student_book / "notebooks" / f"{stem}.html")
        (href,) = [h for h in page.links if h.endswith(f"/{stem}.ipynb")]
        got = nbformat.read(str((student_book / "notebooks" / href).resolve()), as_version=4)
        want = nb_build.student(nbformat.read(str(NB_DIR / f"{stem}.ipynb"), as_version=4))
        assert got == want, stem
        assert not any("solution" in c.metadata.get("tags", []) for c in got.cells)
        assert not any(c.get("outputs") for c in got.cells if c.cell_type == "code")


# --- the output folder rules (issue 23: output never destroys data) -----------

def test_student_and_teacher_books_have_their_own_folders():
    assert docs_build.OUTPUT != docs_build.STUDENT_OUTPUT
    assert docs_build.OUTPUT not in docs_build.STUDENT_OUTPUT.parents
    assert docs_build.STUDENT_OUTPUT not in docs_build.OUTPUT.parents


def test_builder_doctests():
    for module in (docs_build, nb_build):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted >= 2 and result.failed == 0, module.__name__


@pytest.fixture
def fake_sphinx(monkeypatch):
    """:mod:`docs/build.py` with a stand-in for Sphinx that writes two pages and a folder."""
    pages = {"index.html": "home", "docs": None}

    def run(cmd, **kwargs):
        out = Path(cmd[-1])
        out.mkdir(parents=True)
        for name, text in pages.items():
            (out / name).mkdir() if text is None else (out / name).write_text(text)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(docs_build.subprocess, "run", run)
    monkeypatch.setattr(docs_build, "stage", lambda src, **kw: Path(src).mkdir(parents=True))
    return pages


def _never(*args, **kwargs):
    raise AssertionError("called before the output folder was checked")


def test_builder_refuses_a_folder_it_did_not_write(fake_sphinx, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(docs_build, "stage", _never)   # refused before anything is built
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
        assert docs_build.main(["--output", str(folder)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and "Traceback" not in err and len(err.splitlines()) == 1
        assert err.startswith(f"docs/build.py: {folder}: {message}")
    assert (user / "thesis.tex").read_text() == "years of work"
    assert sorted(p.name for p in checkout.iterdir()) == [".git", "README.md"]
    assert a_file.read_text() == "x"


def test_builder_rebuilds_its_own_folder_and_removes_only_its_own_entries(fake_sphinx, tmp_path, capsys):
    out = tmp_path / "build" / "book"
    assert docs_build.main(["--output", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [docs_build.MARKER, "docs", "index.html"]
    (out / "notes.txt").write_text("the user's")           # a file the builder did not write
    del fake_sphinx["docs"]                                   # an entry that is gone next time
    fake_sphinx["search.html"] = "search"
    assert docs_build.main(["--output", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [docs_build.MARKER, "index.html", "notes.txt", "search.html"]
    assert (out / "notes.txt").read_text() == "the user's"
    # the student version goes to its own folder by default, and never into the teacher's
    assert json.loads((out / docs_build.MARKER).read_text())["entries"] == ["index.html", "search.html"]
    # an empty folder is accepted (and marked); a damaged marker is refused
    empty = tmp_path / "empty"
    empty.mkdir()
    docs_build.build_book(empty)
    assert (empty / docs_build.MARKER).is_file()
    (out / docs_build.MARKER).write_text('{"kind": "ordinal-verify teaching site", "entries": ["../x"]}')
    capsys.readouterr()
    assert docs_build.main(["--output", str(out)]) == 2
    assert "the marker file .ordinal-verify-site is damaged" in capsys.readouterr().err
    assert (out / "notes.txt").exists() and (out / "index.html").exists()


def test_a_failed_build_leaves_the_previous_book(fake_sphinx, tmp_path, monkeypatch, capsys):
    out = tmp_path / "book"
    assert docs_build.main(["--output", str(out)]) == 0
    monkeypatch.setattr(docs_build.subprocess, "run",
                        lambda cmd, **kw: subprocess.CompletedProcess(cmd, 1, "", "Sphinx error: boom"))
    assert docs_build.main(["--output", str(out)]) == 1
    assert "boom" in capsys.readouterr().err
    assert (out / "index.html").read_text() == "home"


# --- in a real browser -------------------------------------------------------

def _chromium():
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        pytest.fail("no Chromium: apt-get install chromium (as .ci/run does) or set CHROMIUM")
    return exe


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(book):
    """The book served on the loopback interface (a page opened as a file may not load web fonts)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(book)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        yield b
        b.close()


class _Tab:
    """A browser tab that lets requests to the book through and records (and aborts) any other."""

    def __init__(self, browser, origin, width=1280, height=900):
        self.origin, self.foreign, self.problems, self.width = origin, [], [], width
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # a request the next navigation cancels (the theme loads its search index late) is no failure
        self.page.on("requestfailed", lambda r: "ERR_ABORTED" not in (r.failure or "")
                     and self.problems.append(f"failed: {r.url} {r.failure}"))
        self.page.route("**/*", self._route)

    def _route(self, route):
        url = route.request.url
        if url.startswith((self.origin, "data:", "blob:")):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()

    def open(self, path):
        self.foreign.clear()
        self.problems.clear()
        response = self.page.goto(self.origin + path, wait_until="load")
        assert response is not None and response.ok, f"{path} did not load"
        # MathJax 3: the startup promise resolves once the page is typeset
        self.page.wait_for_function("() => !window.MathJax || (MathJax.startup && MathJax.startup.promise)",
                                    timeout=60_000)
        self.page.evaluate("() => window.MathJax ? MathJax.startup.promise.then(() => true) : true")
        return self.page

    def check(self):
        assert not self.foreign, f"requests outside the book: {self.foreign}"
        assert not self.problems, self.problems

    def close(self):
        self.page.close()
        self.check()


#: how far the document reaches beyond the viewport, in CSS px: the document's scrollWidth
#: against the width the tab was opened with (``window.innerWidth`` is no yardstick: on a
#: phone-sized viewport it may grow with the page)
_OVERFLOW = "(width) => document.documentElement.scrollWidth - width"

_STATE = """(width) => {
  const math = [...document.querySelectorAll('.math, span.math, div.math')];
  const fonts = [...document.fonts].filter(f => f.status === 'error').map(f => f.family);
  return {
    title: document.title,
    math: math.length,
    typeset: math.filter(e => e.querySelector('mjx-container')).length,
    errors: document.querySelectorAll('mjx-merror, .MathJax_Error').length,
    leftover: math.filter(e => !e.querySelector('mjx-container')).map(e => e.textContent).slice(0, 3),
    images: [...document.images].map(i => ({ok: i.complete && i.naturalWidth > 0, alt: i.alt, src: i.src})),
    fontErrors: fonts,
    wide: document.documentElement.scrollWidth - width,
  };
}"""


def test_every_page_loads_with_its_math_and_figures(browser, served, book, screenshots):
    """Every page of the book, one after the other in a tab: loads, typesets, shows its
    images, stays local; a lesson shows its Markdown outputs rendered (:func:`_lesson_problems`,
    with a screenshot at 1,280 px)."""
    # the [source] pages (sphinx.ext.viewcode) are highlighted code: checked as files (links)
    pages = [p for p in _pages(book) if not p.startswith("_modules/")]
    assert len(pages) > 80
    failures = []
    tab = _Tab(browser, served)
    for path in pages:
        try:
            state = tab.open(path).evaluate(_STATE, tab.width)
            tab.check()
            assert state["title"], "no title"
            assert state["typeset"] == state["math"], \
                f"{state['math']} formulas, {state['typeset']} typeset; left: {state['leftover']}"
            assert state["errors"] == 0, f"{state['errors']} math errors"
            assert not state["fontErrors"], f"fonts not loaded: {state['fontErrors']}"
            for img in state["images"]:
                assert img["ok"], f"an image does not load: {img['src']}"
            if path.startswith("notebooks/"):
                stem = Path(path).stem
                assert state["math"] > 0, "no math found"
                figures = [i for i in state["images"] if "/_images/" in i["src"]]
                assert len(figures) == _png_outputs(stem), "figures missing"
                assert all(len(i["alt"]) > 30 for i in figures), "a figure without alt text"
                problems = _lesson_problems(tab.page, stem, tab.width, screenshots)
                assert not problems, "; ".join(problems)
            assert state["wide"] <= 0, f"the page is {state['wide']} px wider than the window"
        except AssertionError as exc:
            failures.append(f"{path}: {str(exc).splitlines()[0]}")
    tab.page.close()
    assert not failures, "\n".join(failures)
    assert sorted(p.name for p in screenshots.glob("*-1280px.png")) == [f"{s}-1280px.png" for s in LESSONS]


# --- lesson outputs rendered as in JupyterLab (issue 40) ------------------------

#: what a reader sees of a lesson page outside code and typeset math: the text nodes that
#: look like Markdown or LaTeX left unrendered (a table row, its |---| rule, which Sphinx's
#: smart quotes turn into |—|, $$ or \begin), the MathJax errors, the TeX of every typeset
#: formula, the tables of the outputs, and how far the document reaches beyond the viewport
_RAW = r"""(width) => {
  const skip = 'pre, code, script, style, textarea, .math, mjx-container, .cell_input';
  const raw = /\|\s*:?(-{3,}|[\u2013\u2014]+):?\s*\||^\s*\|.*\|\s*$|\$\$|\\begin\b/m;
  const walker = document.createTreeWalker(document.querySelector('main') || document.body,
                                           NodeFilter.SHOW_TEXT);
  const found = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (raw.test(n.textContent) && !n.parentElement.closest(skip)) found.push(n.textContent.trim().slice(0, 80));
  }
  const tex = window.MathJax && MathJax.startup.document
    ? Array.from(MathJax.startup.document.math, m => m.math.trim()) : [];
  return {raw: found, tex,
          errors: document.querySelectorAll('mjx-merror, [data-mjx-error], .MathJax_Error').length,
          tables: document.querySelectorAll('.cell_output table').length,
          wide: document.documentElement.scrollWidth - width};
}"""

_MD_TABLE_RULE = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$", re.M)
_MD_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
_SPLIT = re.compile(r"^\\begin\{split\}(.*)\\end\{split\}$", re.S)


@functools.lru_cache(maxsize=None)
def _markdown_outputs(stem):
    """The lesson's ``text/markdown`` outputs (as the committed notebook holds them)."""
    nb = nbformat.read(str(NB_DIR / f"{stem}.ipynb"), as_version=4)
    return [o["data"]["text/markdown"] for c in nb.cells if c.cell_type == "code"
            for o in c.outputs if "text/markdown" in o.get("data", {})]


def _png_size(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    """Where the lesson screenshots go: ``OV_SCREENSHOTS`` when set (to look at them), else a
    temporary folder."""
    folder = os.environ.get("OV_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        return Path(folder)
    return tmp_path_factory.mktemp("screenshots")


def _lesson_problems(page, stem, width, screenshots):
    """What is wrong with lesson ``stem`` open in ``page`` at ``width`` px (a list, empty when
    nothing is): raw Markdown or LaTeX outside math and code, a MathJax error, a table or a
    formula of its Markdown outputs not rendered as written (a matrix that lost its ``\\``
    row breaks collapses into one line), the document wider than the viewport.  Takes a
    screenshot of the page's top into ``screenshots`` and checks it is one."""
    outputs = _markdown_outputs(stem)
    tables = sum(len(_MD_TABLE_RULE.findall(md)) for md in outputs)
    formulas = {(a or b).strip() for md in outputs for a, b in _MD_MATH.findall(md)}
    state = page.evaluate(_RAW, width)
    shot = screenshots / f"{stem}-{width}px.png"
    page.screenshot(path=str(shot))
    problems = []
    if state["raw"]:
        problems.append(f"raw Markdown or LaTeX on the page: {state['raw'][:3]}")
    if state["errors"]:
        problems.append(f"{state['errors']} MathJax errors")
    if state["tables"] < tables:
        problems.append(f"{tables} tables in the outputs, {state['tables']} on the page")
    # Sphinx wraps a display formula holding \\ in a split environment
    missing = sorted(formulas - {_SPLIT.sub(r"\1", tex).strip() for tex in state["tex"]})
    if missing:
        problems.append(f"{len(missing)} formulas of the outputs not typeset as written: {missing[0][:80]}")
    if state["wide"] > 0:
        problems.append(f"the page is {state['wide']} px wider than the window")
    if _png_size(shot) != tuple(page.viewport_size.values()):
        problems.append(f"the screenshot {shot} is not of the window")
    return problems


def test_lesson_outputs_render_on_a_phone(browser, served, screenshots):
    """Every lesson at 375 px (at 1,280 px: in the test of every page): no Markdown table,
    ``$$`` or ``\begin`` shown as raw text, no MathJax error, each table and formula of the
    Markdown outputs rendered as written, the document no wider than the viewport, and a
    screenshot (kept in ``OV_SCREENSHOTS`` when set)."""
    failures = []
    tab = _Tab(browser, served, width=375, height=900)
    for stem in LESSONS:
        page = tab.open(f"notebooks/{stem}.html")
        tab.check()
        failures += [f"{stem} at 375 px: {p}" for p in _lesson_problems(page, stem, 375, screenshots)]
    tab.close()
    assert not failures, "\n".join(failures)
    assert sorted(p.name for p in screenshots.glob("*-375px.png")) == [f"{s}-375px.png" for s in LESSONS]
    # what the checks look for is there: the lessons hold tables and matrices with row breaks
    every = [md for stem in LESSONS for md in _markdown_outputs(stem)]
    assert sum(len(_MD_TABLE_RULE.findall(md)) for md in every) >= 13
    assert sum("\\\\" in (a or b) for md in every for a, b in _MD_MATH.findall(md)) >= 10


def test_no_page_is_wider_than_a_phone(browser, served, book):
    """The pages written as documents (guides, ledger, property table, mutation report...) at
    375 px: the document is no wider than the viewport (a wide table scrolls in its box, a long
    word breaks).  The lessons are measured above, the API pages at 1,280 px."""
    pages = [p for p in _pages(book) if p.startswith("docs/") and not p.startswith("docs/api/generated/")]
    assert len(pages) >= 10
    tab = _Tab(browser, served, width=375, height=800)
    wide = {}
    for path in pages:
        overflow = tab.open(path).evaluate(_OVERFLOW, tab.width)
        if overflow > 0:
            wide[path] = overflow
    tab.close()
    assert not wide, f"px wider than a 375 px window: {wide}"


@pytest.mark.parametrize("query, expected", [
    ("kappa", "notebooks/07_properties.html"),
    ("A_UOC", "docs/api/generated/numeric.html"),
])
def test_search_finds(browser, served, query, expected):
    tab = _Tab(browser, served)
    page = tab.open(f"search.html?q={query}")
    # Sphinx shows the results one by one (loading each page's summary) and then
    # writes "Search finished, ..." into the summary: read the list only then
    page.wait_for_function(
        "() => /^(Search finished|Your search did not)/.test("
        "document.querySelector('#search-results p.search-summary')?.innerText || '')",
        timeout=60_000)
    hrefs = page.evaluate("() => [...document.querySelectorAll('#search-results li a')].map(a => a.href)")
    tab.close()
    assert any(urlsplit(h).path.endswith(expected) for h in hrefs), f"{query}: {hrefs[:10]}"
    if query == "A_UOC":   # the public function first, before any internal module's a_uoc (issue 40)
        assert urlsplit(hrefs[0]).path.endswith(expected) and urlsplit(hrefs[0]).fragment == "numeric.a_uoc", hrefs[:5]


def test_one_search_box_per_page(browser, served):
    """One search control visible on a page, at 1,280 px and on a phone (it had two: the
    sidebar's field and the header's button); it opens the search."""
    for width in (1280, 375):
        tab = _Tab(browser, served, width=width, height=800)
        page = tab.open("docs/ledger.html")
        visible = page.evaluate("""() => [...document.querySelectorAll(
            '.search-button__button, .search-button-field, form.bd-search input')]
          .filter(e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
                         return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'
                                && r.right > 0 && r.left < window.innerWidth; }).length""")
        tab.close()
        assert visible == 1, f"{visible} search controls visible at {width} px"


def test_api_entry_of_a_uoc_shows_its_signature_and_formula(browser, served):
    tab = _Tab(browser, served)
    page = tab.open("docs/api/generated/numeric.html#numeric.a_uoc")
    entry = page.evaluate("""() => {
      const dt = document.getElementById('numeric.a_uoc');
      const dd = dt.nextElementSibling;
      return {sig: dt.innerText, text: dd.innerText, math: dd.querySelectorAll('mjx-container').length,
              errors: dd.querySelectorAll('mjx-merror').length,
              top: dt.getBoundingClientRect().top, height: window.innerHeight,
              display: dd.querySelectorAll('mjx-container[display="true"]').length};
    }""")
    tab.close()
    # both call forms (issue 40): a matrix, or label vectors positionally or by keyword
    signature = (r"numeric\.a_uoc\(cm=None, y_pred=None, \*, y_true=None, arithmetic='float', "
                 r"labels=None, sample_weight=None\)")
    assert re.match(signature, entry["sig"]), entry["sig"]
    assert "Area under the UOC curve" in entry["text"] and "Examples" in entry["text"]
    assert entry["math"] >= 2 and entry["display"] >= 1 and entry["errors"] == 0  # the integral, typeset
    assert 0 <= entry["top"] < entry["height"], "the anchor does not scroll to the entry"


def test_wide_tables_scroll_instead_of_being_cut(browser, served):
    """The property table at 1,280 px: a table wider than the page scrolls in its own box,
    and scrolled to its end its last column is inside the window."""
    tab = _Tab(browser, served, width=1280, height=900)
    page = tab.open("docs/properties.html")
    tables = page.evaluate("""() => [...document.querySelectorAll('article table')].map(t => {
      let box = t;
      while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      if (!box) return {wide: t.scrollWidth > t.getBoundingClientRect().width + 1, scrolls: false};
      box.scrollLeft = box.scrollWidth;
      const cells = t.querySelectorAll('tr:first-child > *');
      const last = cells[cells.length - 1].getBoundingClientRect();
      return {wide: box.scrollWidth > box.clientWidth, scrolls: true,
              lastRight: last.right, boxRight: box.getBoundingClientRect().right + 1};
    })""")
    overflow = page.evaluate(_OVERFLOW, tab.width)
    tab.close()
    assert tables and any(t["wide"] for t in tables), "no wide table to check"
    for t in tables:
        if t["wide"]:
            assert t["scrolls"] and t["lastRight"] <= t["boxRight"], t
    assert overflow <= 0


def test_figures_are_readable_on_a_phone(browser, served, book):
    """At 390 px a figure is shrunk to the page, and it links to its PNG: opened alone,
    the figure is shown at its own size (1 CSS px per pixel, the fonts as drawn)."""
    tab = _Tab(browser, served, width=390, height=844)
    page = tab.open("notebooks/01_tour.html")
    figures = page.evaluate("""() => [...document.querySelectorAll('img.ov-figure')].map(i => ({
      w: i.getBoundingClientRect().width, natural: i.naturalWidth, right: i.getBoundingClientRect().right,
      link: i.closest('a') ? i.closest('a').href : null}))""")
    overflow = page.evaluate(_OVERFLOW, tab.width)
    assert figures and overflow <= 0
    for f in figures:
        assert f["right"] <= 390 and f["link"], f
    big = max(figures, key=lambda f: f["natural"])
    assert big["natural"] > 390
    page.goto(big["link"])
    shown = page.evaluate("() => [document.images[0].naturalWidth, document.images[0].getBoundingClientRect().width]")
    tab.close()
    assert shown[0] == big["natural"]
    assert urljoin(big["link"], ".").startswith(served)
