"""No user string is evaluated: every use of an evaluating function is safe or listed with its reason.

:func:`sympy.sympify` (and ``sympy.S(...)``, which calls it) runs ``eval`` on
a string -- SymPy's documentation: "sympify uses eval. Don't use it on
unsanitized input" -- as do ``parse_expr``, ``eval``, ``exec`` and
``compile``; :func:`sympy.lambdify` ``exec``\\ s the code it prints (and
sympifies a string it is given).  User values go through
:func:`exactfloor.parsing.parse_number` instead (issue 23, item 2).

This test walks the syntax tree of every module of ``numeric/``,
``analytic/`` and ``notebooks/`` and finds every call of such a function, and
every reference to one passed around as a value (``np.vectorize(sp.sympify)``).
A use is safe by construction when

* it is ``sympify(..., strict=True)`` or ``S(..., strict=True)`` (SymPy then
  refuses a string: ``SympifyError``, a ``ValueError``), or
* every argument is a literal written in the code.

Every other use must be in :data:`ALLOWED` with a one-line reason; an entry
that no longer matches a use fails too, so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("exactfloor", "numeric", "analytic", "notebooks")

#: functions that evaluate a string (or exec generated code)
EVALUATING = {"sympify", "S", "parse_expr", "parse_latex", "lambdify", "eval", "exec", "compile"}
#: builtins: flagged when called by their bare name only (``poly.eval(1)``, ``re.compile`` are not them)
BUILTINS = {"eval", "exec", "compile"}
#: distinctive SymPy names: flagged as any attribute (``sympy.core.sympify.sympify``)
SYMPY_ATTRS = {"sympify", "parse_expr", "parse_latex", "lambdify"}

PENDING = "pending: audit/prover rewrite"

#: ``(file, enclosing function, code) -> reason``; ``code`` is ``ast.unparse`` of the
#: call (or of the reference, when the function is passed as a value).
ALLOWED = {
    # -- project-internal values: SymPy objects or the project's own literal text ------------
    ("analytic/ledger/checks/_closed_form.py", "closed_form", "sympy.sympify(expr)"):
        "expr is a SymPy expression derived by the claims modules, never user text",
    ("analytic/ledger/checks/_closed_form.py", "closed_form", "sympy.sympify(sym.name)"):
        "the name of a symbol of a derived expression (analytic.symbols), read back to test it",
    ("analytic/ledger/checks/_closed_form.py", "closed_form", "sympy.sympify(text)"):
        "text is sympy.sstr of the derived expression just printed, parsed back as a round trip",
    ("analytic/ledger/checks/binotto2024_forms.py", "_form_string", "sp.sympify(s)"):
        "s is sympy.sstr of a derived expression, parsed back to check the printed form",
    ("analytic/ledger/sources/cardoso2011.py", "parse", "sympy.sympify(expr, locals=_NAMES)"):
        "called on the module's own transcribed formula constants (literal strings of the paper)",
    ("analytic/ledger/sources/binotto2024.py", "parse",
     "sympy.sympify(expr, locals={**_NAMES, 'Max': sympy.Max})"):
        "called on the module's own transcribed formula constants (literal strings of the paper)",
    ("notebooks/src/05_intervals.py", "printed", "sp.sympify(expr, locals={'x': x, 'L': L, 'Max': sp.Max})"):
        "expr is a printed form of analytic.ledger.sources.binotto2024 (the project's literal strings)",
    ("notebooks/src/07_properties.py", "shown", "sp.sympify(value)"):
        "value is a metric value computed by numeric in exact arithmetic (a number)",
    ("notebooks/src/07_properties.py", "<lambda>",
     "sp.sympify(values[a][label] - values[b][label])"):
        "a difference of two exact metric values computed by the notebook",
    ("analytic/ledger/checks/binotto2024_numeric.py", "_prop6.<lambda>",
     "sympy.lambdify(_L, _printed(e), 'mpmath')"):
        "_printed(e) is the SymPy expression of a literal printed form of binotto2024",
    ("notebooks/src/05_intervals.py", "<module>", "sp.lambdify(x, tcmax_x, 'numpy')"):
        "tcmax_x is a Piecewise derived by analytic.interval_tc_max_symbolic in the notebook",
    ("notebooks/src/05_intervals.py", "<module>", "sp.lambdify(L, x_opt, 'numpy')"):
        "x_opt is a Piecewise derived by analytic.optimal_last_length_piecewise in the notebook",
    ("notebooks/src/05_intervals.py", "<module>", "sp.lambdify(L, prop6, 'numpy')"):
        "prop6 is a Piecewise built from binotto2024's literal printed forms",
    # analytic/engines/_sweep.py: MaxSum is built by analytic.derivations.intervals from inputs already parsed by
    # parse_number; every lambdify there prints a SymPy expression that MaxSum derived
    ("analytic/engines/_sweep.py", "MaxSum._atom_functions",
     "sp.lambdify(self.gens, sp.expand(a * den), modules=[{}])"):
        "sp.expand of an atom of the MaxSum (a SymPy polynomial)",
    ("analytic/engines/_sweep.py", "MaxSum._x_coeff_functions",
     "sp.lambdify(args, e.coeff(self.x, k), modules=[{}])"):
        "a coefficient of a SymPy polynomial of the MaxSum",
    ("analytic/engines/_sweep.py", "MaxSum.branches",
     "sp.lambdify([P] if P is not None else [], b, modules='mpmath')"):
        "b is a root branch returned by analytic.engines._algebraic.root_branches (SymPy)",
    ("analytic/engines/_sweep.py", "MaxSum._piece_function", "sp.lambdify(self.gens, piece, modules='mpmath')"):
        "piece is a SymPy expression of the MaxSum's pieces",
    ("analytic/engines/_sweep.py", "MaxSum._value_factor",
     "sp.lambdify((v, P), q.as_expr(), modules='mpmath')"):
        "q is a factor of a SymPy resultant (Poly.as_expr)",
    # -- pending: audit/prover rewrite ----------------------------------------------------------
    # analytic/properties/audit.py and analytic/properties/prover.py are being rewritten by other helpers (issue 23);
    # the integrator replaces these uses (parse_number for user values, strict=True for
    # internal ones) and removes the entries here.
}


def _modules():
    for pkg in PACKAGES:
        yield from sorted((ROOT / pkg).rglob("*.py"))


class _Finder(ast.NodeVisitor):
    """Uses of :data:`EVALUATING` in one module: ``[(function, code, line)]`` of the unsafe ones."""

    def __init__(self, tree):
        self.found, self.stack = [], []
        self.sympy_modules = {"sympy"}  # names bound to the sympy module
        self.imported = {}  # local name -> evaluating SymPy function it is bound to
        self.parents = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "sympy":
                        self.sympy_modules.add(a.asname or "sympy")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sympy":
                for a in node.names:
                    if a.name in EVALUATING:
                        self.imported[a.asname or a.name] = a.name

    def _scope(self, node):
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def visit_Lambda(self, node):
        self.stack.append("<lambda>")
        self.generic_visit(node)
        self.stack.pop()

    def _evaluating(self, node):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            return node.id in self.imported or node.id in BUILTINS
        if isinstance(node, ast.Attribute):
            if node.attr in SYMPY_ATTRS:
                return True
            return (node.attr == "S" and isinstance(node.value, ast.Name)
                    and node.value.id in self.sympy_modules)
        return False

    def _check(self, node):
        parent = self.parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return  # an attribute of it (S.Zero, S.Half), not a call
        site = parent if isinstance(parent, ast.Call) and parent.func is node else node
        if site is not node and _safe_call(site):
            return
        function = ".".join(n for n in self.stack if n) or "<module>"
        self.found.append((function, ast.unparse(site), node.lineno))

    def visit_Name(self, node):
        if self._evaluating(node):
            self._check(node)

    def visit_Attribute(self, node):
        if self._evaluating(node):
            self._check(node)
        self.generic_visit(node)


def _safe_call(call):
    """``strict=True``, or literal arguments only."""
    if any(k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True
           for k in call.keywords):
        return True
    return (all(isinstance(a, ast.Constant) for a in call.args)
            and all(k.arg is not None and isinstance(k.value, ast.Constant) for k in call.keywords))


def find_unsafe(source):
    """The unsafe uses of ``source``: ``[(function, code, line)]``."""
    tree = ast.parse(source)
    finder = _Finder(tree)
    finder.visit(tree)
    return finder.found


def _all_uses():
    uses = {}
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        for function, code, line in find_unsafe(path.read_text(encoding="utf-8")):
            uses.setdefault((rel, function, code), []).append(line)
    return uses


def test_no_unlisted_evaluation():
    """Every evaluating use in numeric/, analytic/, notebooks/ is safe by construction or listed."""
    unlisted = {k: v for k, v in _all_uses().items() if k not in ALLOWED}
    assert not unlisted, (
        "sympify/S/parse_expr/eval/exec/lambdify on a value that may be a user string; use "
        "exactfloor.parsing.parse_number for user values, sympify(x, strict=True) for SymPy "
        "objects, or list the use in ALLOWED with its reason:\n"
        + "\n".join(f"  {f}:{lines[0]} in {fn}: {code}" for (f, fn, code), lines in unlisted.items()))


def test_allow_list_is_current():
    """An entry of :data:`ALLOWED` that matches no use any more is removed (the list only shrinks)."""
    stale = sorted(set(ALLOWED) - set(_all_uses()))
    assert not stale, f"stale ALLOWED entries (no such use any more): {stale}"


def test_every_reason_is_one_line():
    for key, reason in ALLOWED.items():
        assert reason.strip() and "\n" not in reason, key


def test_every_module_is_read():
    """The walk covers the four packages (a renamed folder would make the test pass vacuously)."""
    found = {p.relative_to(ROOT).parts[0] for p in _modules()}
    assert found == set(PACKAGES)
    assert (ROOT / "exactfloor" / "parsing.py") in set(_modules())


@pytest.mark.parametrize("source, unsafe", [
    ("import sympy as sp\ndef f(x):\n    return sp.sympify(x)", [("f", "sp.sympify(x)", 3)]),
    ("import sympy\nsympy.S(x)", [("<module>", "sympy.S(x)", 2)]),
    ("from sympy import sympify as s\ndef g(v):\n    return s(v)", [("g", "s(v)", 3)]),
    ("from sympy import S\nS(v)", [("<module>", "S(v)", 2)]),
    ("import numpy as np, sympy as sp\nnp.vectorize(sp.sympify)(a)",
     [("<module>", "sp.sympify", 2)]),
    ("class C:\n    def m(self, t):\n        eval(t)", [("C.m", "eval(t)", 3)]),
    ("exec(code)", [("<module>", "exec(code)", 1)]),
    ("from sympy.parsing.sympy_parser import parse_expr\nparse_expr(t)",
     [("<module>", "parse_expr(t)", 2)]),
    ("f = lambda e: sympy.lambdify(x, e)", [("<lambda>", "sympy.lambdify(x, e)", 1)]),
    # safe by construction
    ("import sympy as sp\nsp.sympify(x, strict=True)", []),
    ("import sympy as sp\nsp.S('1/2') + sp.sympify(3)", []),
    ("import sympy as sp\nsp.S.Zero + sp.S.Half", []),
    ("S = 0\nS(x)", []),  # a local S, not SymPy's
    ("poly.eval(1); re.compile(p)", []),
])
def test_finder(source, unsafe):
    """The walker finds what it must (so the tests above can fail) and passes the safe forms."""
    assert find_unsafe(source) == unsafe


# ---------------------------------------------------------------------------
# SymPy calls that convert a string implicitly (issue 38, item 5)
# ---------------------------------------------------------------------------
#: SymPy functions that sympify a string argument without ``strict`` (SymPy 1.14: each
#: runs the payload below; checked by the first test, so the list stays true)
IMPLICIT = {
    "Max": lambda s: __import__("sympy").Max(s, 1),
    "Abs": lambda s: __import__("sympy").Abs(s),
    "Matrix": lambda s: __import__("sympy").Matrix([[s]]),
    ".subs": lambda s: (__import__("sympy").Symbol("x") + 1).subs("x", s),
    "nsimplify": lambda s: __import__("sympy").nsimplify(s),
}


def _payload(marker):
    return f'__import__("pathlib").Path({str(marker)!r}).touch() or 1'


@pytest.mark.parametrize("name", sorted(IMPLICIT))
def test_these_sympy_calls_do_evaluate_a_string(name, tmp_path):
    """The reason for the sweep below: each of these SymPy calls evaluates a string it
    is given (it sympifies it), so a user value must never reach one unparsed."""
    marker = tmp_path / "pwned"
    IMPLICIT[name](_payload(marker))
    assert marker.exists(), f"{name} no longer evaluates a string: update IMPLICIT"


def test_no_public_function_passes_a_user_string_to_sympy():
    """Every public function of :mod:`numeric` and :mod:`analytic`, given the payload in
    every required parameter, and in each optional one in turn (224 calls), refuses it
    or ignores it: the marker file is never created.  A user string must go through
    :func:`exactfloor.parsing.parse_number` before any call of :data:`IMPLICIT` (or
    ``sympify``) sees it.  A call is stopped after 20 s (none takes so long today)."""
    import inspect
    import signal
    import tempfile

    import analytic
    import numeric

    marker = Path(tempfile.mkdtemp()) / "pwned"
    payload = _payload(marker)

    class _Stop(BaseException):
        pass

    def stop(*args):
        raise _Stop

    previous = signal.signal(signal.SIGALRM, stop)
    evaluated, calls = [], 0
    try:
        for pkg in (numeric, analytic):
            for name in sorted(pkg.__all__):
                f = getattr(pkg, name)
                if not callable(f) or inspect.isclass(f):
                    continue
                params = [p for p in inspect.signature(f).parameters.values()
                          if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
                required = [p for p in params if p.default is p.empty]
                for extra in [None] + [p for p in params if p.default is not p.empty]:
                    args = [payload for p in required if p.kind != p.KEYWORD_ONLY]
                    kwargs = {p.name: payload for p in required if p.kind == p.KEYWORD_ONLY}
                    if extra is not None:
                        kwargs[extra.name] = payload
                    if not args and not kwargs:
                        continue
                    calls += 1
                    signal.setitimer(signal.ITIMER_REAL, 20)
                    try:
                        f(*args, **kwargs)
                    except (Exception, _Stop):  # a refusal (ValueError, TypeError, ...) is right
                        pass
                    finally:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                    if marker.exists():
                        evaluated.append(f"{pkg.__name__}.{name}({extra.name if extra else ''})")
                        marker.unlink()
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert calls > 200
    assert not evaluated, evaluated


@pytest.mark.parametrize("module", ["cardoso2011", "binotto2024"])
def test_the_sources_parse_helpers_read_only_their_own_strings(module, tmp_path):
    """``analytic.ledger.sources.*.parse`` read the papers' transcribed formulas with
    sympify (listed in ALLOWED as trusted input); any other string is refused before it,
    so a caller cannot hand them a user's text."""
    import importlib

    src = importlib.import_module(f"analytic.ledger.sources.{module}")
    marker = tmp_path / "pwned"
    with pytest.raises(ValueError, match="reads only the printed formulas of this module"):
        src.parse(_payload(marker))
    with pytest.raises(ValueError, match="trusted input"):
        src.parse("x + 1")
    assert not marker.exists()
