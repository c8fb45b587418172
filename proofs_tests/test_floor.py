"""The exact floor (issue 37 item 3): one bottom layer, one zero test, one sign vocabulary,
no tolerance literal above it.

- ``exactfloor`` imports nothing from the packages above it, statically (every import
  statement, in functions too: ``test_import_cycles.LAYERS``) and at run time (a fresh
  interpreter importing every floor module loads no module of ``numeric``, ``analytic`` or
  ``ordinal_verify``).
- No tolerance literal (a number below ``1e-4``, a power ``** -n``, a string ``"1e-n"``)
  remains in ``numeric``, ``analytic`` or ``ordinal_verify``: each comes from
  :mod:`exactfloor.tolerance`.  The only small literals allowed are costs in seconds
  (a name containing ``SECONDS``), which are not tolerances.
- No zero test ``simplify(x) == 0`` (or ``!= 0``) remains above the floor: they go through
  :func:`exactfloor.exact_sign.vanishes`.
- The two sign engines for every integer answer in one vocabulary, sign sets; on the
  rational functions of one positive integer ``n`` both can read, the certificate's set
  contains the exact set of :func:`exactfloor.ratfun.signs_for_all` (a differential test
  on random rational functions; the exact set is also checked against evaluation at
  ``n = 1 .. 60``).
"""

from __future__ import annotations

import ast
import io
import random
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from exactfloor import certificates, ratfun, tolerance
from exactfloor.errors import UndecidedError
from exactfloor.exact_sign import ANY, NEG, NONNEG, NONPOS, POS, ZERO, sign_set, vanishes

ROOT = Path(__file__).resolve().parent.parent
ABOVE = ("numeric", "analytic", "ordinal_verify")
FLOOR_MODULES = sorted(p.stem for p in (ROOT / "exactfloor").glob("*.py") if p.stem != "__init__")


def test_the_floor_loads_nothing_above_it():
    code = ("import sys\n"
            + "".join(f"import exactfloor.{m}\n" for m in FLOOR_MODULES)
            + f"print(sorted(m for m in sys.modules if m.split('.')[0] in {ABOVE!r}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    assert len(FLOOR_MODULES) >= 10  # errors, parsing, value, arith, guarded, rational, closedform, ...


_STRING_TOL = re.compile(r'^[rbuRBU]?["\'](\d*\.?\d*[eE]-\d+)["\']$')


def tolerance_literals(source: str):
    """``[(line, text)]`` of the tolerance literals of a module's source (see the module docstring)."""
    toks = list(tokenize.generate_tokens(io.StringIO(source).readline))
    hits = []
    for i, t in enumerate(toks):
        line = t.line.strip()
        if "SECONDS" in line.split("=")[0]:
            continue
        if t.type == tokenize.NUMBER:
            try:
                v = float(t.string.replace("_", ""))
            except ValueError:
                continue
            if 0 < v < 1e-4:
                hits.append((t.start[0], line))
        elif t.type == tokenize.OP and t.string == "**" and i + 2 < len(toks) \
                and toks[i + 1].string == "-" and toks[i + 2].type == tokenize.NUMBER \
                and float(toks[i + 2].string) >= 5:
            hits.append((t.start[0], line))
        elif t.type == tokenize.STRING and _STRING_TOL.match(t.string):
            hits.append((t.start[0], line))
    return hits


def test_the_tolerance_scan_finds_each_kind():
    # expected by construction: one literal of each kind the scan must see, and the two it
    # must not (a cost in seconds, a docstring mentioning 1e-9)
    src = ('"""agree to 1e-9"""\n'
           "a = 1e-9\n"
           "b = x > 10 ** -12\n"
           'c = mpmath.mpf("1e-60")\n'
           "d = 2.5e-7 * y\n"
           "RESAMPLE_SECONDS_PER_CELL = 5e-6\n"
           "e = 0.001\n")
    assert [ln for ln, _ in tolerance_literals(src)] == [2, 3, 4, 5]


def test_no_tolerance_literal_above_the_floor():
    found = [f"{p.relative_to(ROOT)}:{ln}: {line}" for pkg in ABOVE for p in sorted((ROOT / pkg).rglob("*.py"))
             for ln, line in tolerance_literals(p.read_text(encoding="utf-8"))]
    assert not found, "tolerance literals outside exactfloor (use exactfloor.tolerance):\n" + "\n".join(found)


def _simplify_zero_tests(source: str):
    """Lines comparing ``simplify(...)`` with 0 (``==`` or ``!=``), by the syntax tree."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            left, right = node.left, node.comparators[0]
            for a, b in ((left, right), (right, left)):
                if isinstance(a, ast.Call) and getattr(a.func, "attr", getattr(a.func, "id", None)) == "simplify" \
                        and isinstance(b, ast.Constant) and b.value == 0:
                    out.append(node.lineno)
    return out


def test_zero_tests_go_through_the_one_rule():
    assert _simplify_zero_tests("x = sp.simplify(a - b) == 0\ny = 0 != simplify(c)\nz = simplify(d)\n") == [1, 2]
    found = [f"{p.relative_to(ROOT)}:{ln}" for pkg in ABOVE for p in sorted((ROOT / pkg).rglob("*.py"))
             for ln in _simplify_zero_tests(p.read_text(encoding="utf-8"))]
    assert not found, "simplify(...) == 0 outside the floor (use exactfloor.exact_sign.vanishes): " + ", ".join(found)


# ---------------------------------------------------------------------------
# the tolerances are derived from a precision
# ---------------------------------------------------------------------------
def test_tolerances_follow_from_the_precision():
    # float64 carries 15 full decimal digits (numpy's finfo(float64).precision)
    assert tolerance.FLOAT64_DIGITS == 15 and tolerance.FLOAT64_UNIT_ROUNDOFF == 2.0 ** -53
    assert tolerance.FLOAT_SCREEN == 10.0 ** -9 and tolerance.FLOAT_TIE == 10.0 ** -12
    assert tolerance.FLOAT_ROOT == 10.0 ** -6
    with mpmath.workdps(50):  # both rounded to 50 digits
        assert tolerance.mp_tolerance(50, 5) == mpmath.mpf(10) ** -45
    assert tolerance.sympy_tolerance(30, 10) == sp.Float("1e-20", 30)
    assert tolerance.PROBE == tolerance.sympy_tolerance(tolerance.PROBE_DPS, 10)
    for bad in (lambda: tolerance.float_tolerance(16), lambda: tolerance.float_tolerance(-1),
                lambda: tolerance.mp_tolerance(30, 30), lambda: tolerance.sympy_tolerance(30, -1)):
        with pytest.raises(ValueError, match="guard_digits"):
            bad()


# ---------------------------------------------------------------------------
# the one zero test for expressions
# ---------------------------------------------------------------------------
n = sp.Symbol("n", positive=True, integer=True)
b = sp.Symbol("b", positive=True)


def test_vanishes_proves_identities_and_refutes_with_a_point():
    assert vanishes((n + 1) ** 2 - n ** 2 - 2 * n - 1)
    assert vanishes(sp.sqrt(b) ** 2 - b)
    assert vanishes(sp.sqrt(8) - 2 * sp.sqrt(2))  # a number: the one rule of exact_sign
    assert not vanishes(n / (n + 1) - 1 + 1 / (n + 2))
    assert not vanishes(sp.Rational(1, 10 ** 40))
    # 0 at 3 and 1, -2 at 2: a point refutes although 2 of 6 points give 0
    assert not vanishes((n - 3) * (b - sp.Rational(3, 7)))


def test_vanishes_refuses_rather_than_guesses():
    # zero at every probe point (the primes 2..13), not identically zero, not simplified to 0:
    # before, simplify(e) == 0 read it as "different" silently; now it is undecided
    e = sp.expand((n - 2) * (n - 3) * (n - 5) * (n - 7) * (n - 11) * (n - 13))
    with pytest.raises(UndecidedError, match="identically 0"):
        vanishes(e)


# ---------------------------------------------------------------------------
# one vocabulary for the two sign engines
# ---------------------------------------------------------------------------
def test_sign_sets_are_the_one_vocabulary():
    assert {POS, NONNEG, ZERO, NONPOS, NEG, ANY} == {frozenset(s) for s in
                                                      ({1}, {0, 1}, {0}, {-1, 0}, {-1}, {-1, 0, 1})}
    assert sign_set(sp.sqrt(2) - 1) == POS and sign_set(0) == ZERO and sign_set(-sp.pi) == NEG
    assert certificates.sign(n / (n + 1)) == POS
    assert certificates.sign(n - 1) == NONNEG
    assert certificates.sign(sp.Symbol("x")) == ANY  # nothing certified
    assert ratfun.signs_for_all(n - 1, n, 1) == NONNEG
    assert isinstance(ratfun.signs_for_all(n - 3, n, 1), frozenset)


def _random_rational(rng):
    def poly():
        return sum(rng.randint(-4, 4) * n ** k for k in range(rng.randint(0, 3)))
    num, den = poly(), poly()
    if den == 0 or any(den.subs(n, k) == 0 for k in range(1, 80)):
        den = n + rng.randint(1, 3)
    return sp.cancel(num / den)


def test_both_engines_agree_on_random_rational_functions():
    """The certificate's set contains the exact set (a certificate is sound), the exact set
    is what evaluation shows on n = 1..60 (the roots of these small polynomials lie below
    60), and on these small cases the certificate is often tight: counted."""
    rng = random.Random(37)
    tight = 0
    for _ in range(150):
        e = _random_rational(rng)
        exact = ratfun.signs_for_all(e, n, 1) if e.free_symbols else sign_set(e)
        seen = frozenset(int(sp.sign(e.subs(n, k))) for k in range(1, 61))
        assert exact == seen, (e, exact, seen)
        cert = certificates.sign(e)
        assert exact <= cert, (e, exact, cert)
        tight += cert == exact
    assert tight >= 75, tight
