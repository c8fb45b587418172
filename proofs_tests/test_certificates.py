"""Every rule of the certificate engine (exactfloor.certificates), one
by one: cases it must certify and cases it must refuse.

``sign(e)`` claims a sign for EVERY positive integer value of the symbols (where
``e`` is defined), so a refusal (None) is always sound and a claim is a theorem.
Each expected value below is justified by evaluation, stated next to it:

- a claim ("nonneg") by a proof sketch and, where it is not strict, a point
  where the value is 0 (so the claim cannot be "pos");
- a refusal of a claim by two points of opposite signs (so no claim is true),
  e.g. ``a - 2`` is -1 at a = 1 and 1 at a = 3.

The three unsound one-line changes found by mutation testing (docs/mutation.md)
are each pinned: the shift certificate with a negative constant term
(``sign(n - 2)``), odd multiplicities taken for squares (``sign((a - b)**3)``),
and a nonpositive factor not flipping a product's sign
(``sign((1 - a)*(a + b))``).
"""

from __future__ import annotations

import itertools

import pytest
import sympy as sp
from sympy import ZZ
from sympy.polys.rings import ring

from analytic.properties import prover
from exactfloor import certificates as C
from exactfloor.certificates import defined, equal, is_zero, sign
from exactfloor.exact_sign import ANY, NEG, NONNEG, NONPOS, POS, ZERO

a, b, c, k, n = sp.symbols("a b c k n", integer=True, positive=True)
E = sp.expand


@pytest.fixture(autouse=True)
def _fresh_sign_cache():
    """Each test computes its signs (sign() caches them: a cached answer of an
    earlier test would hide what this one exercises, e.g. from mutation testing)."""
    C._sign.cache_clear()


def test_prover_reexports_the_engine():
    """``analytic.properties.prover.sign`` etc. are the engine's functions (callers of the
    prover keep working after the split)."""
    assert (prover.sign, prover.equal, prover.is_zero, prover.defined) == (sign, equal, is_zero, defined)


# ---------------------------------------------------------------------------
# the sign algebra, against the values each label stands for
# ---------------------------------------------------------------------------
#: representative values of each label (None: any sign); "the tightest label of
#: a set of values" is then the definition of each label
VALUES = {POS: {1, 2}, NONNEG: {0, 1, 2}, ZERO: {0}, NONPOS: {0, -1, -2},
          NEG: {-1, -2}, None: {-2, -1, 0, 1, 2}}


def _label(values):
    """The tightest label true of every value (None: both signs occur)."""
    if all(v == 0 for v in values):
        return ZERO
    if all(v > 0 for v in values):
        return POS
    if all(v >= 0 for v in values):
        return NONNEG
    if all(v < 0 for v in values):
        return NEG
    if all(v <= 0 for v in values):
        return NONPOS
    return None


def _table(op):
    """``{(s, t): label of {op(x, y) : x in VALUES[s], y in VALUES[t]}}``."""
    return {(s, t): _label({op(x, y) for x in VALUES[s] for y in VALUES[t]})
            for s, t in itertools.product(VALUES, repeat=2)}


@pytest.mark.parametrize("name, helper, op", [
    ("product", C._mul_signs, lambda x, y: x * y),
    ("sum", C._add_signs, lambda x, y: x + y),
    ("max", C._max_sign, max),
    ("min", C._min_sign, min),
])
def test_sign_algebra_over_every_pair(name, helper, op):
    """The rule of signs of a product, a sum, a max and a min of two terms, for
    every pair of labels: the engine's label is the tightest label of the values
    (e.g. nonpos * pos: {0, -1, -2, -4} -> "nonpos"; pos + neg: {-1, 0, 1} ->
    None).  With an unknown sign (None) the engine may refuse; if it answers, the
    answer is the tightest one (max(pos, anything) > 0)."""
    for (s, t), want in _table(op).items():
        got = helper([s, t])
        if s is None or t is None:
            assert got in (None, want), (name, s, t, got, want)
        else:
            assert got == want, (name, s, t, got, want)


def test_product_with_unknown_factor_is_refused_unless_zero():
    """x * y with y of unknown sign has either sign (1 * 1 and 1 * -1), so None;
    the engine's only answer with an unknown factor is "zero" for a zero factor."""
    assert C._mul_signs([POS, None]) is None
    assert C._mul_signs([ZERO, None]) in (None, ZERO)


# ---------------------------------------------------------------------------
# constants and symbols
# ---------------------------------------------------------------------------
def test_constants_and_symbols():
    """Numbers by their value; a positive symbol is > 0; a symbol of unknown
    domain (x = -1 is possible) has no sign."""
    assert [sign(sp.Integer(0)), sign(3), sign(-2), sign(sp.Rational(-1, 2))] == \
        [ZERO, POS, NEG, NEG]
    assert sign(a) == POS
    assert sign(sp.Symbol("x")) == ANY
    assert sign(sp.Symbol("y", positive=True)) == POS


def test_the_integer_certificate_needs_integer_symbols():
    """The shift certificate assumes values >= 1: for a positive REAL y,
    y - 1 = -1/2 and y**2 - y = -1/4 at y = 1/2 (and 1, 2 at y = 2): no sign."""
    y = sp.Symbol("y", positive=True)
    assert sign(y - 1) == ANY
    assert sign(y ** 2 - y) == ANY
    assert sign(y + 1) == POS  # a sum of positive terms, for any positive y


# ---------------------------------------------------------------------------
# the shift certificate: p(1 + y), y >= 0, coefficients of one sign
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    (a - 1, NONNEG, "shift y; 0 at a = 1"),
    (a + b - 2, NONNEG, "shift y_a + y_b; 0 at a = b = 1"),
    (a * b - 1, NONNEG, "shift y_a y_b + y_a + y_b; 0 at a = b = 1"),
    (a * b - a, NONNEG, "shift y_a y_b + y_b; 0 at b = 1"),
    (a ** 2 - a, NONNEG, "shift y^2 + y; 0 at a = 1"),
    (a + b - 1, POS, "shift y_a + y_b + 1; 1 at a = b = 1"),
    (2 * a - 1, POS, "shift 2y + 1; 1 at a = 1"),
    (1 - a, NONPOS, "shift -y; 0 at a = 1"),
    (a - a * b, NONPOS, "shift -y_a y_b - y_b; 0 at b = 1"),
    (-a - 1, NEG, "-2 at a = 1"),
    (1 - a - b, NEG, "-1 at a = b = 1"),
])
def test_shift_certificate_certifies(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (a - 2, {a: 1}, {a: 3}),                 # -1, 1
    (n - 2, {n: 1}, {n: 3}),                 # -1, 1 (mutant: NONNEG)
    (3 * n - 5, {n: 1}, {n: 2}),             # -2, 1 (mutant: NONNEG)
    (2 - a, {a: 3}, {a: 1}),                 # -1, 1
    (a ** 2 - 2 * a, {a: 1}, {a: 3}),        # -1, 3
    (a * b - 2, {a: 1, b: 1}, {a: 2, b: 2}),  # -1, 2
    (a - b, {a: 1, b: 2}, {a: 2, b: 1}),     # -1, 1
])
def test_shift_certificate_refuses_a_negative_constant_term(e, lo, hi):
    """``p(1, ..., 1) < 0`` with the other shifted coefficients >= 0: p takes both
    signs (the points are evaluated here), so no sign may be certified."""
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


def test_shift_by_one_terms():
    """(a + 1)^2 - (a + 1)(b + 1) = a^2 + a - ab - b, expanded by hand; and
    3(a + 1) - 5 = 3a - 2 keeps its negative constant term."""
    R, x, y = ring("x, y", ZZ)
    assert C._shift_by_one(x ** 2 - x * y) == {(2, 0): 1, (1, 0): 1, (1, 1): -1, (0, 1): -1}
    assert C._shift_by_one(3 * x - 5) == {(1, 0): 3, (0, 0): -2}
    assert C._shift_by_one(x ** 3) == {(3, 0): 1, (2, 0): 3, (1, 0): 3, (0, 0): 1}


# ---------------------------------------------------------------------------
# products, quotients and powers
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    ((1 - a) * (a + b), NONPOS, "-3 at a = 2, b = 1; 0 at a = 1"),
    ((a - 1) * (a + b), NONNEG, "3 at a = 2, b = 1; 0 at a = 1"),
    ((1 - a) * (1 - b), NONNEG, "1 at a = b = 2; 0 at a = 1"),
    ((a - 1) * (1 - b), NONPOS, "-1 at a = b = 2; 0 at a = 1"),
    ((1 - a - b) * (a + b), NEG, "-2 at a = b = 1"),
    ((1 - a - b) * (1 - a - b - c), POS, "2 at a = b = c = 1"),
    ((a - 1) / (a + b), NONNEG, "1/3 at a = 2, b = 1; 0 at a = 1"),
    ((1 - a) / (a + b), NONPOS, "-1/3 at a = 2, b = 1; 0 at a = 1"),
    ((a + b) / (1 - a - b), NEG, "-2 at a = b = 1"),
    ((1 - a) / (1 - a - b), NONNEG, "1/2 at a = 2, b = 1; 0 at a = 1"),
    ((a - b) ** 2, NONNEG, "1 at a = 2, b = 1; 0 at a = b"),
    ((a - b) ** 4, NONNEG, "1 at a = 2, b = 1; 0 at a = b"),
    ((a - 2) ** 2, NONNEG, "1 at a = 1; 0 at a = 2"),
    ((1 - a) ** 2, NONNEG, "1 at a = 2; 0 at a = 1"),
    ((1 - a) ** 3, NONPOS, "-1 at a = 2; 0 at a = 1"),
    ((a + 1) ** -2, POS, "1/4 at a = 1"),
    ((1 - a - b) ** -3, NEG, "-1 at a = b = 1"),
    ((1 - a - b) ** -2, POS, "1 at a = b = 1"),
])
def test_products_quotients_powers_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    ((a - b) ** 3, {a: 1, b: 2}, {a: 2, b: 1}),               # -1, 1
    ((a - 2) ** 3, {a: 1}, {a: 3}),                           # -1, 1
    ((a - b) ** 5 * (a + b), {a: 1, b: 2}, {a: 2, b: 1}),     # -3, 3
    (1 / (a - b), {a: 1, b: 2}, {a: 2, b: 1}),                # -1, 1
    ((a - b) ** -3, {a: 1, b: 2}, {a: 2, b: 1}),              # -1, 1
    ((a - 2) * (a + b), {a: 1, b: 1}, {a: 3, b: 1}),          # -2, 4
    ((a - 2) / (a + b), {a: 1, b: 1}, {a: 3, b: 1}),          # -1/2, 1/4
    ((1 - a) * (b - 2), {a: 2, b: 3}, {a: 2, b: 1}),          # -1, 1
])
def test_products_quotients_powers_refuse(e, lo, hi):
    """An odd power or a product with a factor of either sign takes both signs."""
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


# ---------------------------------------------------------------------------
# square-free factorisation of a polynomial (expanded, so that only the
# polynomial certificate can sign it)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    (E((a - b) ** 2 * (a + b)), NONNEG, "3 at a = 2, b = 1; 0 at a = b"),
    (E((a - b) ** 2 * (1 - a)), NONPOS, "-1 at a = 2, b = 1; 0 at a = b"),
    (E((a - b) ** 2 * (a - 2) ** 2), NONNEG, "1 at a = 1, b = 2; 0 at a = b"),
    (E(-(a - b) ** 2 * (a + b)), NONPOS, "-3 at a = 2, b = 1; 0 at a = b"),
    (E((a - b) ** 4 * (a + 1)), NONNEG, "3 at a = 2, b = 1; 0 at a = b"),
])
def test_square_free_factors_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (E((a - b) ** 3), {a: 1, b: 2}, {a: 2, b: 1}),                # -1, 1
    (E((a - b) ** 3 * (a + b)), {a: 1, b: 2}, {a: 2, b: 1}),      # -3, 3
    (E((a - b) ** 2 * (a - 2)), {a: 1, b: 2}, {a: 3, b: 1}),      # -1, 4
    (E((a - b) ** 5), {a: 1, b: 2}, {a: 2, b: 1}),                # -1, 1
    (E((a - b) ** 3 * (a - b - 1) ** 2), {a: 1, b: 2}, {a: 3, b: 1}),  # -4, 8
])
def test_square_free_factors_refuse_odd_multiplicities(e, lo, hi):
    """A factor of odd multiplicity keeps its sign: (a - b)^3 is not a square."""
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


# ---------------------------------------------------------------------------
# completed squares: 2p - sum g u (x - y)^2
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    (a ** 2 - a * b + b ** 2, POS, "(a - b/2)^2 + 3b^2/4; 1 at a = b = 1"),
    (a ** 2 - 2 * a * b + b ** 2 + a, POS, "(a - b)^2 + a; 1 at a = b = 1"),
    (a * b + (a - b) ** 2 - 1, NONNEG, "ab - 1 >= 0; 0 at a = b = 1"),
    (E(c * (a - b) ** 2), NONNEG, "c (a - b)^2; 0 at a = b"),
    (E(-c * (a - b) ** 2), NONPOS, "-c (a - b)^2; 0 at a = b"),
    (E((a - b) ** 2 + (b - c) ** 2), NONNEG, "two squares; 0 at a = b = c"),
    (E(2 * (a - b) ** 2 + a * b), POS, "1 at a = b = 1"),
])
def test_completed_squares_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (a ** 2 - 3 * a * b + b ** 2, {a: 1, b: 1}, {a: 3, b: 1}),    # -1, 1
    (E((a - b) ** 2 - 1), {a: 1, b: 1}, {a: 3, b: 1}),            # -1, 3
    (E((a - b) ** 2 - a), {a: 1, b: 1}, {a: 4, b: 1}),            # -1, 5
    (E(c * (a - b) ** 2 - c), {a: 1, b: 1, c: 1}, {a: 3, b: 1, c: 1}),  # -1, 3
])
def test_completed_squares_refuse(e, lo, hi):
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


def test_complete_squares_rest():
    """2(a^2 - ab + b^2) - (a - b)^2 = a^2 + b^2; in 2(a^2 - 3ab + b^2) the term
    -6ab needs 3a^2 and 3b^2 for 3(a - b)^2 and there are only 2 of each: nothing
    absorbed (None); a^2 + b^2 has no negative term to absorb (None)."""
    R, x, y = ring("x, y", ZZ)
    assert C._complete_squares(x ** 2 - x * y + y ** 2) == x ** 2 + y ** 2
    assert C._complete_squares(x ** 2 - 3 * x * y + y ** 2) is None
    assert C._complete_squares(x ** 2 + y ** 2) is None


# ---------------------------------------------------------------------------
# roots: real roots of certified non-negative numbers, and sums with them
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    (sp.sqrt(a), POS, "1 at a = 1"),
    (sp.sqrt(a - 1), NONNEG, "0 at a = 1"),
    (a ** sp.Rational(1, 3), POS, "1 at a = 1"),
    (sp.sqrt(a + 1) - sp.sqrt(a), POS, "(a + 1) - a = 1 > 0"),
    (a - sp.sqrt(a ** 2 + 1), NEG, "a^2 - (a^2 + 1) = -1 < 0"),
    (sp.sqrt(a ** 2 + 1) - a - 1, NEG, "(a^2 + 1) - (a + 1)^2 = -2a < 0"),
    (a * sp.sqrt(b) - sp.sqrt(a ** 2 * b + 1), NEG, "a^2 b - (a^2 b + 1) = -1"),
    (2 - sp.sqrt(3), POS, "4 - 3 = 1 > 0"),
    (1 - sp.sqrt(2), NEG, "1 - 2 = -1 < 0"),
    ((2 - sp.sqrt(3)) * sp.sqrt(a), POS, "a product of positive factors"),
    (sp.sqrt(a) / sp.sqrt(a + b) - 1, NEG, "its square a/(a + b) < 1"),
])
def test_roots_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (sp.sqrt(a) - 2, {a: 1}, {a: 9}),                          # -1, 1
    (sp.sqrt(a) - sp.sqrt(b), {a: 1, b: 2}, {a: 2, b: 1}),
    (sp.sqrt(a) * sp.sqrt(b) - a, {a: 4, b: 1}, {a: 1, b: 4}),  # -2, 1
    (a * sp.sqrt(b) - b * sp.sqrt(a), {a: 1, b: 4}, {a: 4, b: 1}),  # -2, 2
    (sp.sqrt(a ** 2 + 3) - a - 1 + sp.Rational(1, 10), {a: 2}, {a: 1}),
])
def test_roots_refuse(e, lo, hi):
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


def test_root_of_a_number_of_unknown_sign_is_not_signed():
    """sqrt(a - b) is not real at a = 1, b = 2; (a - b)**(1/3) is the complex
    principal root there: no sign (and not defined)."""
    assert sign(sp.sqrt(a - b)) == ANY
    assert sign((a - b) ** sp.Rational(1, 3)) == ANY
    assert sign((1 - a) ** sp.Rational(1, 3)) == ANY  # 0 at a = 1, complex at a = 2


# ---------------------------------------------------------------------------
# Max, Min, Abs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    (sp.Max(a, b) - a, NONNEG, "1 at a = 1, b = 2; 0 at a = b"),
    (sp.Min(a, b) - a, NONPOS, "-1 at a = 2, b = 1; 0 at a = b"),
    (sp.Max(a, b) - a - b, NEG, "-min(a, b) <= -1"),
    (sp.Min(a, b) - a - b, NEG, "-max(a, b) <= -1"),
    (sp.Max(a - 1, 1 - b), NONNEG, "1 at a = 2, b = 1; 0 at a = b = 1"),
    (sp.Max(1 - a, 1 - b), NONPOS, "-1 at a = b = 2; 0 at a = 1"),
    (sp.Max(-a, -b), NEG, "-min(a, b) <= -1"),
    (sp.Min(a, b), POS, "1 at a = b = 1"),
    (sp.Min(a - 1, b + 1), NONNEG, "0 at a = 1"),
    (1 - sp.Max(a, b), NONPOS, "0 at a = b = 1; -1 at a = 2"),
    (a - sp.Max(a, b), NONPOS, "0 at a = b; -1 at a = 1, b = 2"),
    (1 - sp.Max(a / (a + b), b / (a + b)), POS, "each fraction < 1"),
    (sp.Abs(a - b), NONNEG, "0 at a = b"),
    (sp.Abs(a - 2 * b) + 1, POS, "1 at a = 2, b = 1"),
    (-sp.Abs(a - b), NONPOS, "0 at a = b"),
])
def test_max_min_abs_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (sp.Max(a - 2, b - 2), {a: 1, b: 1}, {a: 3, b: 1}),       # -1, 1
    (sp.Min(a - 1, b - 2), {a: 1, b: 1}, {a: 2, b: 3}),       # -1, 1
    (2 - sp.Max(a, b), {a: 3, b: 1}, {a: 1, b: 1}),           # -1, 1
    (sp.Abs(a - b) - 1, {a: 1, b: 1}, {a: 3, b: 1}),          # -1, 1
    (sp.Min(a, b) - 2, {a: 1, b: 5}, {a: 3, b: 3}),           # -1, 1
])
def test_max_min_abs_refuse(e, lo, hi):
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


# ---------------------------------------------------------------------------
# logarithms: log x has the sign of x - 1 for x > 0
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, want, why", [
    (sp.log(a), NONNEG, "0 at a = 1"),
    (sp.log(a + 1), POS, "log 2 > 0 at a = 1"),
    (sp.log(a / (a + b)), NEG, "a/(a + b) < 1"),
    (sp.log(1 + 1 / a), POS, "1 + 1/a > 1"),
    (-sp.log(a), NONPOS, "0 at a = 1"),
])
def test_logs_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (sp.log(a / b), {a: 1, b: 2}, {a: 2, b: 1}),              # log 1/2, log 2
    (sp.log(a) - 1, {a: 1}, {a: 3}),                          # -1, log 3 - 1
    (sp.log(a * b) - sp.log(3), {a: 1, b: 1}, {a: 2, b: 2}),
])
def test_logs_refuse(e, lo, hi):
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


def test_log_of_a_number_of_unknown_sign_is_refused():
    """log((a - b)^2) is log 0 at a = b, 0 at |a - b| = 1 and log 4 > 0 at
    |a - b| = 2: no sign; log(a - 1) is log 0 at a = 1: not defined."""
    assert sign(sp.log((a - b) ** 2)) == ANY
    assert defined(sp.log(a - 1)) == "log(a - 1)"


# ---------------------------------------------------------------------------
# definedness
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("e, bad, why", [
    (1 / (a - b), "1/(a - b)", "1/0 at a = b"),
    (1 / (a - 1), "1/(a - 1)", "1/0 at a = 1"),
    ((a - b) ** -2, "(a - b)**(-2)", "1/0 at a = b"),
    (1 / sp.Abs(a - b), "1/Abs(a - b)", "1/0 at a = b"),
    (sp.sqrt(a - b), "sqrt(a - b)", "sqrt(-1) at a = 1, b = 2"),
    ((a - 1) ** sp.Rational(-1, 2), "1/sqrt(a - 1)", "0^(-1/2) at a = 1"),
    ((1 - a) ** sp.Rational(1, 3), "(1 - a)**(1/3)", "(-1)^(1/3) is not real (SymPy's principal root)"),
    (sp.log(a - 1), "log(a - 1)", "log 0 at a = 1"),
    (1 / sp.log(a), "1/log(a)", "1/log 1 = 1/0 at a = 1"),
    (sp.Max(a, 1 / (a - b)), "1/(a - b)", "an argument undefined at a = b"),
    (sp.Min(sp.sqrt(a - 2), a), "sqrt(a - 2)", "sqrt(-1) at a = 1"),
    (sp.zoo, "zoo", "complex infinity"),
    (sp.oo, "oo", "not a real number"),
    (sp.nan, "nan", "not a number"),
    (sp.sqrt(-(a - b) ** 2), "I", "I*Abs(a - b) in SymPy: I at a = 2, b = 1"),
    (a + sp.I, "I", "1 + I at a = 1"),
])
def test_defined_refuses(e, bad, why):
    assert defined(e) == bad, why


@pytest.mark.parametrize("e", [
    a / (a + b), 1 / (a + b - 1), sp.sqrt(a - 1), sp.sqrt((a - b) ** 2), sp.log(a),
    sp.log(a / (a + b)), sp.sqrt(a) * sp.sqrt(b) / (a + b), sp.Max(a / b, b / a),
    sp.Min(sp.sqrt(a - 1), 1 / a), sp.log(a) / sp.log(a + 1), sp.pi * a,
])
def test_defined_certifies(e):
    """Denominators >= 1 (a + b - 1, a + b, log(a + 1) >= log 2), radicands >= 0
    (a - 1, (a - b)^2 = Abs(a - b)^2), log arguments > 0."""
    assert defined(e) is None


# ---------------------------------------------------------------------------
# identities
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("x, y, why", [
    ((a ** 2 - b ** 2) / (a - b), a + b, "(a - b)(a + b)/(a - b)"),
    (a / (a + b) + b / (a + b), 1, "one denominator"),
    ((sp.sqrt(a) + 1) * (sp.sqrt(a) - 1), a - 1, "sqrt(a)^2 = a"),
    (sp.sqrt(k * a) / sp.sqrt(k), sp.sqrt(a), "sqrt(k a) = sqrt(k) sqrt(a), k, a > 0"),
    (sp.Max(1 / (k * a), 2 / (k * b)), sp.Max(1 / a, 2 / b) / k, "k > 0 factors out"),
    (sp.sqrt(a * b + b), sp.sqrt(b) * sp.sqrt(a + 1), "sqrt(b (a + 1)), b, a + 1 > 0"),
    (sp.log(a) * (a + 1) / (a + 1), sp.log(a), "a common factor"),
    (sp.Max(a, b) ** 2 - sp.Max(a, b) * sp.Max(b, a), 0, "Max(a, b) = Max(b, a)"),
])
def test_equal_certifies(x, y, why):
    assert equal(x, y)[0], why
    assert is_zero(x - y)[0], why


def _probe_zero(x):
    """A polynomial vanishing at both numerical probe points of :func:`equal` (the
    engine's own points, read from it): only the symbolic test can refute it."""
    return sp.Mul(*[x - C._point([x], s)[x] for s in (1, 2)])


@pytest.mark.parametrize("x, y, point, why", [
    (a / (a + 1), 1, {a: 1}, "1/2 != 1"),
    (sp.Max(a, b), a, {a: 1, b: 2}, "2 != 1"),
    (sp.sqrt(a + 1), sp.sqrt(a), {a: 1}, "sqrt 2 != 1"),
    (a, a + _probe_zero(a), {a: 1}, "the perturbation is nonzero at a = 1 (both probes are > 1)"),
    (sp.sqrt(a), sp.sqrt(a) + _probe_zero(a) / (a + 1), {a: 1}, "as above"),
    (sp.Max(a, b), sp.Max(a, b + _probe_zero(a) ** 2), {a: 1, b: 1}, "Max(1, 1 + p(1)^2) != 1"),
])
def test_equal_refuses(x, y, point, why):
    assert all(C._point([a], s)[a] > 1 for s in (1, 2))
    assert sp.sympify(x - y).subs(point) != 0, why
    assert not equal(x, y)[0], why
    assert not is_zero(x - y)[0], why


def test_equal_with_an_undefined_probe_point():
    """Max(1, 1/(a - p)) at the probe a = p is Max(1, zoo), which SymPy refuses
    with a ValueError; the probe is skipped (regression: equal raised it) and the
    identity with Max(1, 2/(2a - 2p)) is still proved (equal arguments)."""
    p = C._point([a], 2)[a]
    assert equal(sp.Max(1, 1 / (a - p)), sp.Max(1, 2 / (2 * a - 2 * p)))[0]
    assert C._num(sp.Max(1, 1 / (a - p)), {a: p}) is None


# ---------------------------------------------------------------------------
# sums with roots: P + Q by squares, and r +- sqrt(x)
# (cases added for survivors of mutation testing, docs/mutation.md)
# ---------------------------------------------------------------------------
R32 = sp.Rational(3, 2)


@pytest.mark.parametrize("e, want, why", [
    (2 * sp.sqrt(a) - sp.sqrt(a + 1), POS, "4a - (a + 1) = 3a - 1 > 0"),
    (sp.sqrt(a + 1) - 2 * sp.sqrt(a), NEG, "(a + 1) - 4a < 0"),
    (2 * sp.sqrt(a) - sp.sqrt(3 * a + 1), NONNEG, "4a - (3a + 1) = a - 1 >= 0; 0 at a = 1"),
    (sp.sqrt(a) - sp.sqrt(2 * a - 1), NONPOS, "a - (2a - 1) = 1 - a <= 0; 0 at a = 1"),
    # Q = (a - b) sqrt(a) of either sign; P^2 - Q^2 = 5a^2 b + 2ab^2 + b^3 > 0
    ((a + b) ** R32 + (a - b) * sp.sqrt(a), POS, "P > |Q|"),
    (-(a + b) ** R32 - (a - b) * sp.sqrt(a), NEG, "the same, negated (both terms flipped)"),
    ((a - b) * sp.sqrt(a) - (a + b) ** R32, NEG, "|Q| < P"),
    (a + 1 - sp.sqrt(a ** 2 + a), POS, "(a + 1)^2 - (a^2 + a) = a + 1 > 0"),
    (a + 1 - sp.sqrt(a ** 2 + 3 * a), NONPOS, "(a + 1)^2 - (a^2 + 3a) = 1 - a; 0 at a = 1"),
    (sp.sqrt(sp.sqrt(a) + 1) - 1, POS, "sqrt(a) + 1 > 1 (a nested root: not P + Q)"),
    (sp.sqrt(a) - 1 / (a + 1), POS, "a (a + 1)^2 > 1"),
])
def test_sums_with_roots_certify(e, want, why):
    assert sign(e) == want, why


@pytest.mark.parametrize("e, lo, hi", [
    (2 * sp.sqrt(a) - sp.sqrt(a + 5), {a: 1}, {a: 3}),                    # 4a - a - 5
    ((a + b) * sp.sqrt(a) + (a - b) * sp.sqrt(b), {a: 1, b: 9}, {a: 1, b: 1}),  # 10 - 24, 2
    (b + 1 - sp.sqrt(a * b + a), {a: 10, b: 1}, {a: 1, b: 1}),            # 2 - sqrt 20, 2 - sqrt 2
    (sp.sqrt(a + 1) - sp.sqrt(a) - sp.Rational(1, 3), {a: 9}, {a: 1}),
    (1 - sp.Max(a, b) + sp.sqrt(a), {a: 9, b: 9}, {a: 1, b: 1}),
])
def test_sums_with_roots_refuse(e, lo, hi):
    assert e.subs(lo) < 0 < e.subs(hi)
    assert sign(e) == ANY


def test_square_roots_only():
    """P + Q by squares needs products whose squares have no roots: square roots
    of radicands without roots; not a sum, not a cube root, not a nested root,
    and at least one root."""
    assert C._square_roots_only(sp.sqrt(a), -sp.sqrt(a + 1))
    assert C._square_roots_only(2 * sp.sqrt(a), b)
    assert not C._square_roots_only(sp.sqrt(a) + 1, a)
    assert not C._square_roots_only(a, sp.sqrt(a) + 1)
    assert not C._square_roots_only(a, b)
    assert not C._square_roots_only(a ** sp.Rational(1, 3), a)
    assert not C._square_roots_only(sp.sqrt(sp.sqrt(a) + 1), a)


# ---------------------------------------------------------------------------
# identities through frozen roots, Max/Min and common powers
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("x, y, why", [
    (sp.sqrt(2 * a + 2), sp.sqrt(2) * sp.sqrt(a + 1), "sqrt(2 (a + 1)), a root of a rational"),
    (sp.sqrt(4 * a + 4), 2 * sp.sqrt(a + 1), "sqrt(4) = 2"),
    ((8 * a + 8) ** sp.Rational(1, 3), 2 * (a + 1) ** sp.Rational(1, 3), "cube roots"),
    ((sp.sqrt(a) + 1) ** 2, a + 2 * sp.sqrt(a) + 1, "t^2 = a"),
    ((a ** sp.Rational(1, 3) + 1) ** 3, a + 3 * a ** sp.Rational(2, 3) + 3 * a ** sp.Rational(1, 3) + 1,
     "t^3 = a"),
    (sp.sqrt(a ** 2 * b + a ** 2), a * sp.sqrt(b + 1), "a^2 leaves the root"),
    (sp.sqrt(a) ** 3 / a, sp.sqrt(a), "a^(3/2) / a"),
    (sp.Max(a * b, a * c), a * sp.Max(b, c), "a > 0 factors out"),
    (sp.Max(a / (a + b), b / (a + b)), sp.Max(a, b) / (a + b), "1/(a + b) > 0 factors out"),
    ((a + a * b) ** 2, a ** 2 * (1 + b) ** 2, "equal roots of a common power"),
    (sp.log(a * b + a), sp.log(a * (b + 1)), "equal arguments"),
])
def test_equal_through_frozen_parts(x, y, why):
    assert equal(x, y)[0], why
    assert equal(y, x)[0], why


@pytest.mark.parametrize("x, y, point, why", [
    (sp.sqrt(2 * a + 2), sp.sqrt(3) * sp.sqrt(a + 1), {a: 1}, "2 != sqrt 6"),
    (sp.sqrt(a + 1), sp.sqrt(a + 1) + sp.sqrt(2) * _probe_zero(a), {a: 1}, "p(1) sqrt 2 != 0"),
    ((a + 1) ** sp.Rational(1, 3), (a + 1) ** sp.Rational(1, 3) * (1 + _probe_zero(a)), {a: 1},
     "p(1) 2^(1/3) != 0"),
    (sp.Max(a * b, a * c), a * sp.Max(b, c) + _probe_zero(a), {a: 1, b: 1, c: 1}, "p(1) != 0"),
    (sp.log(a + 1), sp.log(a + 1) * (1 + _probe_zero(a)), {a: 1}, "p(1) log 2 != 0"),
    (sp.Abs(a - b), sp.Abs(a - b) + _probe_zero(a), {a: 1, b: 1}, "p(1) != 0"),
])
def test_equal_refuses_through_frozen_parts(x, y, point, why):
    assert sp.N(sp.sympify(x - y).subs(point)) != 0, why
    assert not equal(x, y)[0], why


def test_roots_inside_functions_are_not_squared_away():
    """Regression (found by the soundness campaign): Max(1, sqrt(a)) - sqrt(b) was
    taken for P + Q of square roots, and squaring it again and again raised
    RecursionError.  It takes both signs (1 - 2 at a = 1, b = 4; 3 - 1 at a = 9,
    b = 1): None."""
    e = sp.Max(1, sp.sqrt(a)) - sp.sqrt(b)
    assert e.subs({a: 1, b: 4}) < 0 < e.subs({a: 9, b: 1})
    assert not C._square_roots_only(sp.Max(1, sp.sqrt(a)), -sp.sqrt(b))
    assert sign(e) == ANY


def test_max_of_a_non_real_argument_is_not_signed():
    """Regression (found by the soundness campaign): Min(1, sqrt((a - b)/(b - a)))
    is Min(1, I) wherever a != b (not a real number); freezing it made SymPy raise
    ValueError ("not comparable") out of sign().  Now: no sign, not defined."""
    e = sp.Min(1, sp.sqrt((a - b) / (b - a)))
    assert sign(e) == ANY
    assert defined(e) is not None


def test_completed_squares_use_the_right_monomials():
    """a^2 - 2a^2 b + ab^2 is -2 at a = 2, b = 1 and 4 at a = 1, b = 3 (and the
    mirror b^2 - 2ab^2 + a^2 b is -2 at a = 1, b = 2, 4 at a = 3, b = 1): the term
    -2a^2 b must be absorbed with a^3 and ab^2 (a (a - b)^2), which are not both
    there, not with a^2 (a mutant that did so certified "nonneg")."""
    for e, lo, hi in ((a ** 2 - 2 * a ** 2 * b + a * b ** 2, {a: 2, b: 1}, {a: 1, b: 3}),
                      (b ** 2 - 2 * a * b ** 2 + a ** 2 * b, {a: 1, b: 2}, {a: 3, b: 1})):
        assert e.subs(lo) < 0 < e.subs(hi)
        assert sign(e) == ANY


@pytest.mark.parametrize("e, want, why", [
    # Q = sqrt(a)(a - b) first in SymPy's order, of either sign; P = sqrt(ab)(a + b):
    # P^2 - Q^2 = a (b (a + b)^2 - (a - b)^2) > 0
    (sp.sqrt(a) * sp.sqrt(b) * (a + b) + sp.sqrt(a) * (a - b), POS, "P > |Q|"),
    # P = sqrt(b)(a + b - 2) >= 0, Q = sqrt(b)(a - b): P^2 - Q^2 = 4b(a - 1)(b - 1) >= 0
    (sp.sqrt(b) * (a + b - 2) + sp.sqrt(b) * (a - b), NONNEG, "2 sqrt(b)(a - 1); 0 at a = 1"),
])
def test_sums_of_two_roots_with_a_term_of_either_sign(e, want, why):
    assert sign(e) == want, why


def test_root_rule_needs_the_sign_of_the_rest():
    """a - 1 + sqrt(a^2 + 1) > 0 (sqrt 2 at a = 1) although (a - 1)^2 - (a^2 + 1)
    < 0, and 1 - a - sqrt(a^2 + 1) < 0 although (a^2 + 1) - (1 - a)^2 > 0: the
    rule r -+ sqrt(x) ~ r^2 - x holds only for r >= 0 with -sqrt, r <= 0 with
    +sqrt.  Any certified answer must agree with the values."""
    assert sign(a - 1 + sp.sqrt(a ** 2 + 1)) in (ANY, POS, NONNEG)
    assert sign(1 - a - sp.sqrt(a ** 2 + 1)) in (ANY, NEG, NONPOS)


@pytest.mark.parametrize("e, want, why", [
    (-a ** 2 + a * b - b ** 2, NEG, "-((a - b/2)^2 + 3b^2/4); -1 at a = b = 1 (squares of -p)"),
    ((sp.sqrt(a) - b) ** 2, NONNEG, "a square; 0 at a = 4, b = 2 (base of unknown sign)"),
    ((1 - sp.sqrt(a)) ** 3, NONPOS, "an odd power of 1 - sqrt(a) <= 0; 0 at a = 1"),
    (1 / (sp.sqrt(a) + 1), POS, "a negative power of a positive number"),
    (sp.sqrt(a * (b + 1) - a * b - a), ZERO, "the radicand is identically 0"),
])
def test_powers_of_non_rational_bases(e, want, why):
    """Signs the rational certificate cannot give (the base has a root): only the
    power rules decide them."""
    assert sign(e) == want, why


def test_defined_names_a_symbolic_exponent():
    """a**b: the exponent is not a number; the refusal names the expression."""
    assert defined(a ** b) == "a**b"


def test_unhandled_functions_are_not_signed():
    """sin(a) takes both signs (sin 1 > 0 > sin 4) and exp is not a rule of the
    engine: no sign (None, not some other value), and exp(a) is not certified
    defined (the refusal names it)."""
    assert sp.sin(1) > 0 > sp.sin(4)
    assert sign(sp.sin(a)) == ANY
    assert sign(sp.exp(a)) in (ANY, POS)
    assert defined(sp.exp(a)) == "exp(a)"


def test_abs_keeps_a_strict_or_zero_sign():
    """|a^2 - ab + b^2| >= 1 (the square completed above); the radicand-like
    a(b + 1) - ab - a is identically 0, so is its absolute value."""
    assert sign(sp.Abs(a ** 2 - a * b + b ** 2)) == POS
    assert sign(sp.Abs(a * (b + 1) - a * b - a)) == ZERO


def test_log_of_a_negative_number_is_not_signed():
    """log(1 - a - b) is the log of a number <= -1: not a real number anywhere,
    although (1 - a - b) - 1 < 0 would suggest "neg"."""
    assert sign(sp.log(1 - a - b)) == ANY


def test_products_fall_back_to_the_rational_certificate():
    """(a^2 - b^2)/(a - b) = a + b (3 at a = 2, b = 1) where defined: its factors
    have no sign, the fraction cancelled does."""
    assert sign((a ** 2 - b ** 2) / (a - b)) == POS


def test_special_term_found_after_a_constant():
    """The Max/sqrt term is found whatever precedes it in SymPy's order (a constant
    2 comes first): a + b + 2 - Max(a, b) = min(a, b) + 2 >= 3, and
    a + 2 - sqrt(a^2 + 1) > 0 ((a + 2)^2 - (a^2 + 1) = 4a + 3)."""
    assert sign(a + b + 2 - sp.Max(a, b)) == POS
    assert sign(a + 2 - sp.sqrt(a ** 2 + 1)) == POS
