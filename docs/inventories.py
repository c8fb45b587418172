"""Write the intersphinx inventories of NumPy, SciPy, SymPy, mpmath and scikit-learn.

Usage (from anywhere; the checkout is found from this file)::

    python docs/inventories.py            # rewrites docs/_inventories/*.inv

The book builds offline (issue 24), so Sphinx cannot fetch each project's
``objects.inv``, and no package on PyPI ships those files.  This script writes
an inventory for each project from the **installed** library: the names are
read from the library itself (its ``__all__``), and each name's address follows
the project's own documentation, checked against its published pages:

* NumPy (``https://numpy.org/doc/stable/``): a public function or ufunc of
  ``numpy.__all__`` (under its own name, not an alias) has its page ``reference/generated/numpy.NAME.html``
  (as ``numpy.mean``), and so has ``numpy.ndarray``; ``numpy.random.default_rng``
  and ``numpy.random.Generator`` are entries of ``reference/random/generator.html``.
* SciPy (``https://docs.scipy.org/doc/scipy/``): a public function or class of
  ``scipy.stats.__all__`` has ``reference/generated/scipy.stats.NAME.html``
  (as ``scipy.stats.friedmanchisquare``).
* scikit-learn (``https://scikit-learn.org/stable/``): a public function or
  class of ``sklearn.metrics`` and ``sklearn.model_selection`` (their ``__all__``) has
  ``modules/generated/sklearn.MODULE.NAME.html`` (as
  ``sklearn.metrics.mean_absolute_error``).
* SymPy (``https://docs.sympy.org/latest/``): only the objects of its Core page,
  ``modules/core.html``, whose entries are named by their defining module
  (``sympy.core.numbers.Rational``): ``sympify``, ``Symbol``, ``Rational``,
  ``Integer``, ``Float``, each also under its name in ``sympy``
  (``sympy.Rational``), which points at the same entry.  SymPy's other pages
  (polynomials, summation, lambdify, ...) are not listed: their addresses were
  not checked, and a name without an entry stays plain text in the book.
* mpmath (``https://mpmath.org/doc/current/``): ``mpmath.mpf`` and
  ``mpmath.mpc``, the section "Number types" of its Basic usage page
  (``basics.html#number-types``); mpmath documents its functions on many
  pages, whose addresses were not checked.

Each name is listed only if it exists in the installed library, whose version
the inventory states.  The files are written in Sphinx's inventory format
(version 2, zlib-compressed) and read back with Sphinx's own reader
(``proofs_tests/test_inventories.py``).  Like every writer of the project, the
script writes only into ``docs/_inventories/``, refuses to replace a file
there that is not an inventory, and writes each file to a temporary file in
that folder that is then moved into place.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import zlib
from pathlib import Path

from numeric.outputs import writing

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "_inventories"
HEADER = b"# Sphinx inventory version 2\n"

#: each project: its name in ``intersphinx_mapping``, its title, the package
#: whose version is stated, and the documentation the entries' addresses are relative to
PROJECTS = {
    "numpy": ("NumPy", "numpy", "https://numpy.org/doc/stable/"),
    "scipy": ("SciPy", "scipy", "https://docs.scipy.org/doc/scipy/"),
    "sympy": ("SymPy", "sympy", "https://docs.sympy.org/latest/"),
    "mpmath": ("mpmath", "mpmath", "https://mpmath.org/doc/current/"),
    "sklearn": ("scikit-learn", "sklearn", "https://scikit-learn.org/stable/"),
}

#: SymPy's Core page: each public name and the module whose entry documents it
SYMPY_CORE = {"sympify": "sympy.core.sympify", "Symbol": "sympy.core.symbol",
              "Rational": "sympy.core.numbers", "Integer": "sympy.core.numbers",
              "Float": "sympy.core.numbers"}

def _role(obj):
    return "py:class" if inspect.isclass(obj) else "py:function"

def _public(module_name):
    """The public functions, ufuncs and classes of a module, by its ``__all__``."""
    module = importlib.import_module(module_name)
    out = {}
    for name in sorted(getattr(module, "__all__", ())):
        try:
            obj = getattr(module, name)
        except ImportError:   # scikit-learn's experimental estimators are imported on request only
            continue
        # a function (NumPy's are dispatchers or ufuncs: any callable that is not a class or a
        # module) or a class, under its own name: an alias (numpy.acosh of numpy.arccosh) is left out
        if callable(obj) and not inspect.ismodule(obj) and getattr(obj, "__name__", None) == name:
            out[name] = obj
    return out

def entries(project):
    """The entries of one project's inventory.

    Parameters
    ----------
    project : str
        A key of :data:`PROJECTS`.

    Returns
    -------
    list of tuple
        ``(name, role, uri)``, sorted by name; ``uri`` is relative to the
        project's documentation.

    Examples
    --------
    >>> ("scipy.stats.friedmanchisquare", "py:function",
    ...  "reference/generated/scipy.stats.friedmanchisquare.html#scipy.stats.friedmanchisquare") in entries("scipy")
    True
    """
    rows = []
    if project == "numpy":
        for name, obj in _public("numpy").items():
            if not inspect.isclass(obj):
                rows.append((f"numpy.{name}", "py:function", f"reference/generated/numpy.{name}.html"))
        rows.append(("numpy.ndarray", "py:class", "reference/generated/numpy.ndarray.html"))
        rows += [("numpy.random.default_rng", "py:function", "reference/random/generator.html"),
                 ("numpy.random.Generator", "py:class", "reference/random/generator.html")]
        rows = [(n, r, f"{u}#{n}") for n, r, u in rows]
    elif project == "scipy":
        rows = [(f"scipy.stats.{n}", _role(o), f"reference/generated/scipy.stats.{n}.html#scipy.stats.{n}")
                for n, o in _public("scipy.stats").items()]
    elif project == "sklearn":
        for module in ("sklearn.metrics", "sklearn.model_selection"):
            rows += [(f"{module}.{n}", _role(o), f"modules/generated/{module}.{n}.html#{module}.{n}")
                     for n, o in _public(module).items()]
    elif project == "sympy":
        import sympy

        for name, module in SYMPY_CORE.items():
            obj = getattr(sympy, name)
            assert obj is getattr(importlib.import_module(module), name), name
            uri = f"modules/core.html#{module}.{name}"
            rows += [(f"sympy.{name}", _role(obj), uri), (f"{module}.{name}", _role(obj), uri)]
    elif project == "mpmath":
        import mpmath

        rows = [(f"mpmath.{n}", "py:class", "basics.html#number-types") for n in ("mpf", "mpc")
                if hasattr(mpmath, n)]
    else:
        raise ValueError(f"unknown project {project!r}; expected one of {sorted(PROJECTS)}")
    return sorted(set(rows))

def inventory_bytes(project):
    """One project's inventory in Sphinx's format (version 2).

    Parameters
    ----------
    project : str
        A key of :data:`PROJECTS`.

    Returns
    -------
    bytes
        Four header lines, then the zlib-compressed entries
        (``name domain:role priority uri display-name``; ``-``: the name).

    Examples
    --------
    >>> inventory_bytes("mpmath").splitlines()[1]
    b'# Project: mpmath'
    """
    title, package, _ = PROJECTS[project]
    version = importlib.import_module(package).__version__
    body = "".join(f"{name} {role} 1 {uri} -\n" for name, role, uri in entries(project))
    head = (HEADER + f"# Project: {title}\n# Version: {version}\n".encode()
            + b"# The remainder of this file is compressed using zlib.\n")
    return head + zlib.compress(body.encode("utf-8"), 9)

def write(project, folder=FOLDER):
    """Write one project's inventory to ``folder/PROJECT.inv``, atomically.

    Parameters
    ----------
    project : str
        A key of :data:`PROJECTS`.
    folder : pathlib.Path, optional
        Where to write; ``docs/_inventories`` by default.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        If the target exists and is not a Sphinx inventory (or not a file).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write("mpmath", Path(d)).name
    'mpmath.inv'
    """
    data = inventory_bytes(project)
    folder = Path(folder)
    target = folder / f"{project}.inv"
    if target.exists() or target.is_symlink():
        if target.is_symlink() or not target.is_file():
            raise ValueError(f"{target}: not a file; refusing to replace it")
        with open(target, "rb") as fh:
            if fh.read(len(HEADER)) != HEADER:
                raise ValueError(f"{target}: not a Sphinx inventory; refusing to replace it")
    folder.mkdir(parents=True, exist_ok=True)
    with writing(str(target), binary=True) as fh:  # the project's atomic write (numeric.outputs)
        fh.write(data)
    return target

def main(argv=None):
    """Write every project's inventory; print one line per file.

    Parameters
    ----------
    argv : list of str, optional
        No arguments are taken (``sys.argv[1:]`` by default).

    Returns
    -------
    int
        The exit status: 0, or 2 if an argument is given or a target is refused.

    Examples
    --------
    >>> main(["--help"])
    2
    """
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        print(f"docs/inventories.py takes no arguments, got {' '.join(argv)}", file=sys.stderr)
        return 2
    for project in PROJECTS:
        try:
            path = write(project)
        except ValueError as err:
            print(f"docs/inventories.py: {err}", file=sys.stderr)
            return 2
        print(f"{path.relative_to(HERE.parent)}: {len(entries(project))} entries")
    return 0

if __name__ == "__main__":
    sys.exit(main())
