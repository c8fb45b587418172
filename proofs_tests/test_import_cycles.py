"""No import circle among the modules of ``numeric`` and ``analytic`` (issue 26 item 3).

A static check: each module's source is parsed with :mod:`ast` (nothing is imported) and
every import statement naming a module of the two packages is an edge of a directed graph
whose nodes are the modules (a package is its ``__init__``).  The graph must have no circle.

What counts as an edge:

- ``import a.b`` -> ``a.b``; ``from a import b`` -> ``a.b`` when that is a module, else ``a``
  (the module holding the name); relative imports are resolved against the importing module.
- Imports inside functions count as much as those at module top level: a lazy import avoids
  the failure at load time ("partially initialised module"), not the two modules needing each
  other.  The circles of the issue were of this kind (``analytic.families`` <-> ``analytic.uoc``
  until the family machinery moved to ``analytic/engines/_family.py``, ``numeric._common`` <->
  ``numeric._symbolic``, ``numeric.comparison`` <-> ``numeric.groups`` <-> ``numeric.reporting``
  until the rows and tables both comparisons share moved to ``numeric/_paired.py`` and the
  LaTeX renderers to ``numeric/reporting.py``); at module top level there was none.
- Not counted: the parent packages that Python imports before a submodule (importing
  ``analytic.engines._pl`` runs ``analytic/__init__.py`` first).  A package's ``__init__`` imports
  its modules to re-export them; counting that would make every such package a circle.
- Not counted: an import of a top-level package itself (``import numeric``) inside a function.
  That is the public facade, which imports every module by design: ``numeric.registry`` and
  ``numeric.scorers`` import it on demand so that every metric is registered.  At module top
  level it would count (and be a real circle at load time).

:data:`KNOWN` lists the circles that remain, each with its reason; the test fails on any other
circle and on a listed one that is gone (so the list only shrinks).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("exactfloor", "numeric", "analytic", "ordinal_verify")

#: the circles left, as sets of modules -> why they are not broken here (none: the last,
#: numeric.comparison <-> numeric.groups <-> numeric.reporting, went with numeric/_paired.py;
#: the mechanism stays for a circle that must be tolerated for a while)
KNOWN: dict = {}


def module_files(root=ROOT, packages=PACKAGES):
    """``{module name: path}`` of every ``.py`` file under the packages."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(tree):
    """``(node, inside_a_function)`` of every import statement of a module."""
    found = []

    def walk(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, inside))
            walk(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    return found


def import_graph(files):
    """``{module: set of modules it imports}`` over the modules of ``files`` (see the module docstring)."""
    graph = {}
    for name, path in files.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        edges = set()
        for node, inside in _imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            for target in targets:
                if target not in files or target == name:
                    continue
                if inside and "." not in target:  # the top-level facade, on demand
                    continue
                edges.add(target)
        graph[name] = edges
    return graph


def circles(graph):
    """The strongly connected components of more than one module (sets), and self-loops."""
    def reach(start):
        seen, todo = {start}, [start]
        while todo:
            for w in graph[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return seen

    reachable = {v: reach(v) for v in graph}
    out = set()
    for v in graph:
        component = frozenset(w for w in reachable[v] if v in reachable[w])
        if len(component) > 1 or v in graph[v]:
            out.add(component)
    return out


def test_no_import_circle():
    found = circles(import_graph(module_files()))
    new = found - set(KNOWN)
    assert not new, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in new)
    gone = set(KNOWN) - found
    assert not gone, "no longer a circle, remove it from KNOWN: " + "; ".join(", ".join(sorted(c)) for c in gone)


#: the layers: a module of the first group imports none of the second (CONTRIBUTING.md,
#: "Where each kind of change goes")
LAYERS = [
    # the exact floor is the bottom layer (issue 37)
    (("exactfloor",), ("numeric", "analytic", "ordinal_verify")),
    (("numeric",), ("analytic", "ordinal_verify")),
    (("analytic",), ("ordinal_verify",)),
    (("analytic.engines",), ("analytic.derivations", "analytic.properties", "analytic.ledger")),
    (("analytic.derivations",), ("analytic.properties", "analytic.ledger")),
    # the property engine takes nothing from the claims ledger above it (issue 37: its
    # process pool came from analytic.ledger.default_jobs)
    (("analytic.properties",), ("analytic.ledger",)),
]


def _within(name, prefixes):
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_layers_import_downwards():
    graph = import_graph(module_files())
    # a package's __main__ is a script entry (``python -m analytic`` hands over to the
    # command line), run and never imported: it sits above every layer
    wrong = [f"{a} -> {b}" for lower, upper in LAYERS for a in sorted(graph) if _within(a, lower)
             and not a.endswith(".__main__") for b in sorted(graph[a]) if _within(b, upper)]
    assert not wrong, "imports against the layers: " + "; ".join(wrong)


def test_the_check_finds_a_circle(tmp_path):
    # expected by construction: a.x imports a.y at top level, a.y imports a.x inside a function
    # (a circle); a.z imports the facade a inside a function (not counted), a imports a.z
    pkg = tmp_path / "a"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .z import f\n")
    (pkg / "x.py").write_text("from a import y\n")
    (pkg / "y.py").write_text("def g():\n    from .x import h\n    return h\n")
    (pkg / "z.py").write_text("def f():\n    import a\n    return a\n")
    graph = import_graph(module_files(tmp_path, ("a",)))
    assert graph == {"a": {"a.z"}, "a.x": {"a.y"}, "a.y": {"a.x"}, "a.z": set()}
    assert circles(graph) == {frozenset({"a.x", "a.y"})}


def test_the_auditor_loads_no_derivation():
    """``import analytic.properties.audit`` in a fresh interpreter loads no module of
    ``analytic.derivations`` (nor ``analytic.engines`` or the ledger): the package's
    ``__init__`` loads its exported functions on first use (issue 37; it loaded every
    derivation, 1.9 s).  The exported names still resolve, each from its module."""
    import subprocess
    import sys

    code = ("import sys, analytic.properties.audit\n"
            "print(sorted(m for m in sys.modules if m.startswith(('analytic.derivations', "
            "'analytic.engines', 'analytic.ledger'))))\n"
            "import analytic\n"
            "print(all(getattr(analytic, n).__module__.startswith('analytic.derivations.') "
            "for n in analytic.__all__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["[]", "True"]
