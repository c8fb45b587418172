"""The teaching site (issue 14): ``python -m notebooks.site`` builds static
pages from the executed notebooks and every ``docs/*.md``; this suite builds
it (this is how CI builds it), checks the links and that nothing is fetched
from the network, then opens every page in a real headless Chromium
(playwright driving the system's ``chromium``, installed by ``.ci/run``) and
checks that the page loads, every figure shows with an alt text, and all math
is typeset by the bundled MathJax without an error.

Without a Chromium the browser tests fail (they are not skipped): install it
with ``apt-get install chromium`` or point ``CHROMIUM`` at a binary.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(p.stem for p in NB_DIR.glob("[0-9][0-9]_*.ipynb"))
DOCS = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
PAGES = ["index"] + NOTEBOOKS + DOCS
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def _build(out, *extra):
    """Run the documented command; return the folder it wrote."""
    subprocess.run([sys.executable, "-m", "notebooks.site", "--output", str(out), *extra],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="module")
def student_site(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("student") / "site", "--student")


class _Page(HTMLParser):
    """The ids, links, resources and images of an HTML page."""

    def __init__(self, text):
        super().__init__()
        self.ids, self.links, self.resources, self.images = set(), [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in ("script", "img", "iframe", "source", "video", "audio") and a.get("src"):
            self.resources.append(a["src"])
        if tag == "link" and a.get("href"):
            self.resources.append(a["href"])
        if tag == "img":
            self.images.append(a)


def _parse(folder, page):
    return _Page((folder / f"{page}.html").read_text(encoding="utf-8"))


def _png_outputs(stem):
    nb = nbformat.read(str(NB_DIR / f"{stem}.ipynb"), as_version=4)
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_every_notebook_and_document_has_a_page_linked_from_the_contents(site):
    assert len(NOTEBOOKS) >= 5 and "ledger" in DOCS
    contents = _parse(site, "index")
    for page in PAGES:
        assert (site / f"{page}.html").is_file(), f"no page for {page}"
        if page != "index":
            assert f"{page}.html" in contents.links, f"the contents page does not link {page}.html"


def test_the_site_fetches_nothing_from_the_network(site):
    """Every script, style sheet and image is a file of the site or a data: URI (no CDN)."""
    for page in PAGES:
        for url in _parse(site, page).resources:
            assert not urlsplit(url).netloc and urlsplit(url).scheme in ("", "data"), f"{page}: fetches {url}"
    assert (site / "mathjax" / "MathJax.js").is_file()


def test_every_internal_link_and_anchor_resolves(site):
    checked = 0
    for page in PAGES:
        for href in _parse(site, page).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc:
                continue  # an external link: not fetched here
            target = site / unquote(parts.path) if parts.path else site / f"{page}.html"
            assert target.is_file(), f"{page}.html links to a missing {href}"
            if parts.fragment:
                ids = _parse(site, target.stem).ids  # nbconvert writes heading ids percent-encoded
                assert parts.fragment in ids or unquote(parts.fragment) in ids, f"{page}.html: no anchor {href}"
            checked += 1
    assert checked > 2 * len(PAGES)


def test_every_figure_is_embedded_with_an_alt_text(site):
    for stem in NOTEBOOKS:
        images = _parse(site, stem).images
        assert len(images) == _png_outputs(stem) > 0, stem
        for img in images:
            assert img["src"].startswith("data:image/png;base64,"), stem
            alt = img.get("alt") or ""
            assert len(alt) > 30 and alt != "None", f"{stem}: a figure without an alt text: {alt!r}"


def test_student_site_has_the_exercises_without_the_answers(site, student_site):
    answered = 0
    for stem in NOTEBOOKS:
        full = (site / f"{stem}.html").read_text(encoding="utf-8")
        student = (student_site / f"{stem}.html").read_text(encoding="utf-8")
        exercises = re.findall(r"<strong>Exercise (\d+)\.</strong>", full)
        if not exercises:  # the explorer: no exercise, hence no answers section
            assert 'id="Answers"' not in full, stem
            continue
        assert re.findall(r"<strong>Exercise (\d+)\.</strong>", student) == exercises, stem
        assert 'id="Answers"' in full, f"{stem}: no Answers section"
        # the answers' headings ("**Answer 1.**"); a code cell's "assert " is split by the highlighter's spans
        assert "<strong>Answer 1.</strong>" in full, f"{stem}: no answer shown on the full page"
        assert 'id="Answers"' not in student and "<strong>Answer " not in student, \
            f"{stem}: the student page shows answers"
        answered += len(exercises)
    assert answered >= 5 * 4


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
def served(site):
    """The site served on the loopback interface (a page opened as a file may not load web fonts)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
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


_STATE = """() => {
  const prose = document.body.cloneNode(true);
  prose.querySelectorAll('pre, code, script, style, .jp-InputArea, .MathJax, .MathJax_Display, .MathJax_Preview')
       .forEach(e => e.remove());
  return {
    title: document.title,
    tex: document.querySelectorAll('script[type^="math/tex"]').length,
    typeset: document.querySelectorAll('span.MathJax').length,
    errors: document.querySelectorAll('.merror, .noError, .MathJax_Error').length,
    mathText: [...document.querySelectorAll('span.MathJax')].map(e => e.textContent).join(' '),
    prose: prose.textContent,
    body: document.body.innerText,
    font: (MathJax.OutputJax['HTML-CSS'] || {}).fontInUse || null,
    images: [...document.images].map(i => ({ok: i.complete && i.naturalWidth > 0, alt: i.alt,
                                              w: i.getBoundingClientRect().width, natural: i.naturalWidth})),
    fontErrors: [...document.fonts].filter(f => f.status === 'error' && f.family !== 'MathJax_Blank')
                                   .map(f => f.family),
  };
}"""


@pytest.mark.parametrize("page", PAGES)
def test_page_loads_in_a_browser_with_figures_and_math(browser, served, page):
    origin = served
    problems, foreign = [], []
    tab = browser.new_page(viewport={"width": 1200, "height": 900})
    tab.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    # MathJax 2's HTML-CSS output declares a "MathJax_Blank" font at about:blank
    # to time its web fonts (config/TeX-AMS-MML_HTMLorMML-full.js); Chromium refuses that
    # one load, by design.  Every other failure counts.
    blank = ("Access to font at 'about:blank'", "failed: about:blank ", "Failed to load resource: net::ERR_FAILED")

    def route(r):
        if r.request.url.startswith((origin, "data:")):
            r.continue_()
        else:
            foreign.append(r.request.url)
            r.abort()

    tab.route("**/*", route)
    try:
        response = tab.goto(origin + f"{page}.html", wait_until="load")
        assert response is not None and response.ok, f"{page}.html did not load"
        tab.wait_for_function("window.MathJax && MathJax.isReady === true", timeout=120_000)
        tab.evaluate("() => new Promise(done => MathJax.Hub.Queue(() => done(true)))")
        state = tab.evaluate(_STATE)
    finally:
        tab.close()
    assert not foreign, f"{page}: requests outside the site: {foreign}"
    blank_font = [p for p in problems if p.removeprefix("console: ").startswith(blank)]
    assert len(blank_font) <= 3 * (state["tex"] > 0), f"{page}: {problems}"
    assert not [p for p in problems if p not in blank_font], f"{page}: {problems}"
    assert state["title"] and "Contents" in state["body"]
    # math: every TeX fragment typeset, with the bundled web font, no error, no TeX left
    assert state["typeset"] == state["tex"], f"{page}: {state['tex']} TeX fragments, {state['typeset']} typeset"
    if page in NOTEBOOKS:
        assert state["tex"] > 0, f"{page}: no math found"
    assert state["errors"] == 0, f"{page}: {state['errors']} math errors"
    assert "Math Processing Error" not in state["body"] and "\\" not in state["mathText"], page
    prose = state["prose"]
    assert "$" not in prose, f"{page}: TeX left untypeset: ...{prose[prose.find('$') - 60:][:120]}..."
    assert state["tex"] == 0 or state["font"] == "STIX-Web", f"{page}: math font {state['font']}"
    assert not state["fontErrors"], f"{page}: fonts not loaded: {state['fontErrors']}"
    # figures: each decoded, shown and described
    expected = _png_outputs(page) if page in NOTEBOOKS else 0
    assert len(state["images"]) == expected, page
    for img in state["images"]:
        assert img["ok"] and img["w"] > 100 and len(img["alt"]) > 30, f"{page}: a figure does not show: {img}"
        # at its own size: a figure scaled down shrinks its text (test_notebooks keeps them narrow enough)
        assert img["w"] >= img["natural"] - 1, \
            f"{page}: a figure is scaled down: {img['natural']} px shown at {img['w']:.0f}"
