"""The intersphinx inventories of the book (issue 40): ``docs/_inventories/*.inv``.

The book links into the NumPy, SciPy, SymPy, mpmath and scikit-learn documentation
while it builds offline, through inventories that ``docs/inventories.py`` writes from
the installed libraries.  These tests read the committed files with Sphinx's own
reader (no book build) and check: the names our docstrings reference resolve, to the
addresses of the projects' published pages (each expected address below was read on
the project's site: ``numpy.org/doc/stable/reference/generated/numpy.mean.html``,
``docs.scipy.org/doc/scipy/reference/generated/scipy.stats.friedmanchisquare.html``,
``scikit-learn.org/stable/modules/generated/sklearn.metrics.mean_absolute_error.html``,
SymPy's Core page ``modules/core.html`` with its entry ``sympy.core.numbers.Rational``,
mpmath's ``basics.html``, section "Number types"); every entry names an object of the
installed library; every reference of a docstring to these libraries is either listed
or stated below as left unlinked; ``docs/conf.py`` maps each project to its file; and
the writer refuses to replace a file that is not an inventory.  That a built page
links there is checked on the built book by ``proofs_tests/test_site.py``.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import posixpath
import re
import sys
import types
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "_inventories"
_spec = importlib.util.spec_from_file_location("docs_inventories", ROOT / "docs" / "inventories.py")
inventories = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(inventories)

BASES = {name: base for name, (_, _, base) in inventories.PROJECTS.items()}

#: name -> (project, expected address), each read on the project's published site
EXPECTED = {
    "numpy.ndarray": ("numpy", "reference/generated/numpy.ndarray.html#numpy.ndarray"),
    "numpy.mean": ("numpy", "reference/generated/numpy.mean.html#numpy.mean"),
    "numpy.random.default_rng": ("numpy", "reference/random/generator.html#numpy.random.default_rng"),
    "scipy.stats.friedmanchisquare":
        ("scipy", "reference/generated/scipy.stats.friedmanchisquare.html#scipy.stats.friedmanchisquare"),
    "scipy.stats.wilcoxon": ("scipy", "reference/generated/scipy.stats.wilcoxon.html#scipy.stats.wilcoxon"),
    "scipy.stats.bootstrap": ("scipy", "reference/generated/scipy.stats.bootstrap.html#scipy.stats.bootstrap"),
    "sklearn.metrics.mean_absolute_error":
        ("sklearn", "modules/generated/sklearn.metrics.mean_absolute_error.html#sklearn.metrics.mean_absolute_error"),
    "sklearn.metrics.make_scorer":
        ("sklearn", "modules/generated/sklearn.metrics.make_scorer.html#sklearn.metrics.make_scorer"),
    "sympy.Rational": ("sympy", "modules/core.html#sympy.core.numbers.Rational"),
    "sympy.sympify": ("sympy", "modules/core.html#sympy.core.sympify.sympify"),
    "mpmath.mpf": ("mpmath", "basics.html#number-types"),
}

#: references in our docstrings that stay plain text, each with its reason
UNLINKED = {
    "sympy.Poly.real_roots": "SymPy's polynomial pages: their addresses were not checked",
    "sympy.Poly.count_roots": "SymPy's polynomial pages: their addresses were not checked",
    "sympy.CRootOf": "SymPy's polynomial pages: their addresses were not checked",
    "sympy.polys": "SymPy's polynomial pages: their addresses were not checked",
    "sympy.polys.rootisolation.dup_isolate_real_roots_sqf": "an internal of SymPy, documented on no page",
    "sympy.summation": "SymPy's page of sums (concrete): its address was not checked",
    "sympy.factorint": "SymPy's number theory page: its address was not checked",
}

_ROLE = re.compile(r":(?:func|class|meth|mod|obj|data|attr|exc):`~?((?:numpy|scipy|sklearn|sympy|mpmath)\.[\w.]+)`")


def _load(project):
    with open(FOLDER / f"{project}.inv", "rb") as fh:
        inv = InventoryFile.load(fh, BASES[project], posixpath.join)
    return getattr(inv, "data", inv)   # Sphinx 8.2 returns a mapping; later a _Inventory with .data


def _resolve(project, name):
    """(role, address) of ``name`` in a committed inventory, or None."""
    for role, items in _load(project).items():
        if name in items:
            item = items[name]
            return role, getattr(item, "uri", None) or item[2]
    return None


def _referenced():
    """Every name of these libraries a role of our packages' docstrings refers to."""
    names = set()
    for package in ("exactfloor", "numeric", "analytic", "ordinal_verify"):
        for path in (ROOT / package).rglob("*.py"):
            names |= set(_ROLE.findall(path.read_text(encoding="utf-8")))
    return names


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_referenced_name_resolves_to_its_published_page(name):
    project, uri = EXPECTED[name]
    found = _resolve(project, name)
    assert found is not None, f"{name} is not in docs/_inventories/{project}.inv"
    assert found[1] == BASES[project] + uri


def test_every_reference_of_a_docstring_is_linked_or_stated_unlinked():
    referenced = _referenced()
    assert {"sympy.sympify", "sklearn.metrics.make_scorer", "numpy.random.default_rng"} <= referenced
    projects = {"numpy": "numpy", "scipy": "scipy", "sklearn": "sklearn", "sympy": "sympy", "mpmath": "mpmath"}
    missing = sorted(n for n in referenced - set(UNLINKED) if _resolve(projects[n.split(".")[0]], n) is None)
    assert not missing, f"add these to docs/inventories.py (with a checked address) or to UNLINKED: {missing}"
    stale = sorted(set(UNLINKED) - referenced)
    assert not stale, f"no docstring refers to these any more: drop them from UNLINKED: {stale}"


@pytest.mark.parametrize("project", sorted(inventories.PROJECTS))
def test_every_entry_is_an_object_of_the_installed_library(project):
    data = _load(project)
    names = sorted(n for items in data.values() for n in items)
    assert len(names) >= {"numpy": 100, "scipy": 100, "sklearn": 50, "sympy": 10, "mpmath": 2}[project]
    for name in names:
        assert _lookup(name) is not None, name


def _lookup(name):
    """The object a dotted name denotes: its longest importable module, then attributes."""
    parts = name.split(".")
    for k in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for part in parts[k:]:
            obj = getattr(obj, part, None)
        return obj
    return None


def test_the_book_maps_each_project_to_its_committed_file():
    conf = types.ModuleType("docs_conf")
    conf.__file__ = str(ROOT / "docs" / "conf.py")
    conf.tags = types.SimpleNamespace(has=lambda tag: tag == "no_api")   # no API walk: a quick load
    code = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    saved_path, saved_modules = list(sys.path), dict(sys.modules)
    try:   # conf.py puts the checkout on sys.path and stand-ins for the packages' __main__
        exec(compile(code, str(ROOT / "docs" / "conf.py"), "exec"), conf.__dict__)
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - set(saved_modules):
            del sys.modules[name]
    assert "sphinx.ext.intersphinx" in conf.extensions
    assert set(conf.intersphinx_mapping) == set(inventories.PROJECTS)
    for project, (base, path) in conf.intersphinx_mapping.items():
        assert base == BASES[project]
        assert Path(path) == FOLDER / f"{project}.inv" and Path(path).is_file()


def test_the_writer_refuses_a_file_that_is_not_an_inventory(tmp_path):
    note = tmp_path / "numpy.inv"
    note.write_text("my notes\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a Sphinx inventory; refusing to replace it"):
        inventories.write("numpy", tmp_path)
    assert note.read_text(encoding="utf-8") == "my notes\n"
    (tmp_path / "scipy.inv").mkdir()
    with pytest.raises(ValueError, match="not a file; refusing"):
        inventories.write("scipy", tmp_path)
    written = inventories.write("mpmath", tmp_path)          # a new file, then its own rewrite
    assert inventories.write("mpmath", tmp_path) == written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mpmath.inv", "numpy.inv", "scipy.inv"]


def test_writer_doctests():
    result = doctest.testmod(inventories, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and result.failed == 0
