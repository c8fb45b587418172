"""Tests that kill the surviving mutants of ``exactfloor.certificates``:
the last ones of the sign machinery (docs/mutation.md, "The four survivors
left unexplained, now killed") and those of the rational functions and the
identity test (docs/mutation.md, "The rational-function code and the identity
test of certificates.py").

Each test names the mutant it kills (numbers as in ``mutmut show``) and states
why its expected value is right.  A claim of ``sign`` is a theorem about every
positive integer value of the symbols, so each expected sign is justified by a
proof sketch, and a non-strict one by a point where the value is 0.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy as sp
from sympy import ZZ
from sympy.polys.rings import ring

from exactfloor import certificates as C
from exactfloor.certificates import sign
from exactfloor import exact_sign
from exactfloor.errors import UndecidedError
from exactfloor.exact_sign import ANY, NEG, NONNEG, NONPOS, POS

a, b, c, k = sp.symbols("a b c k", integer=True, positive=True)


@pytest.fixture(autouse=True)
def _fresh_sign_cache():
    """Each test computes its signs (a cached answer would hide the mutated rule)."""
    C._sign.cache_clear()


def test_square_free_factorisation_is_tried_up_to_its_size_limit_inclusive():
    """``_poly_sign`` 47 (``len(coeffs) < _FACTOR_TERMS`` for ``<=``).

    ``c (a - 2b)^2`` expanded is ``a^2 c - 4abc + 4b^2 c``; shifted by one it has
    exactly ``_FACTOR_TERMS`` = 12 terms (counted below), some negative, so
    the shift certificate fails, and completing squares fails too (the
    ``-4abc`` term needs ``a^2 c`` and ``b^2 c`` with coefficients 4 each in
    ``2p``; ``a^2 c`` has 2).  Its square-free factors ``c`` (positive) and
    ``(a - 2b)^2`` (a square) give "nonneg"; it is 0 at a = 2, b = 1, so
    "nonneg" and not "pos".  With the limit exclusive the polynomial is not
    factored and ``sign`` gives up (None).
    """
    R, ra, rb, rc = ring("a, b, c", ZZ)
    assert len(C._shift_by_one(rc * (ra - 2 * rb) ** 2)) == C._FACTOR_TERMS == 12
    e = sp.expand(c * (a - 2 * b) ** 2)
    assert sign(e) == NONNEG
    assert sign(-e) == NONPOS
    assert e.subs({a: 2, b: 1, c: 1}) == 0


def test_the_square_of_a_strictly_signed_factor_is_strictly_positive():
    """``_poly_sign`` 67 (``_POS if _nonzero(s) and False else _NONNEG``) and 69
    (``_nonzero(None)``): the square of a factor of certified strict sign
    counted "nonneg" instead of "pos".

    ``((a - b)^2 + 1)^2`` expanded: its shifted terms include ``-4 a^3 b``
    (no shift certificate), completing squares leaves an undecided rest, and
    its square-free factorisation is ``f^2`` with ``f = (a - b)^2 + 1``,
    certified "pos" (``f >= 1``), so ``f^2 >= 1 > 0``: "pos" (the claim is
    strict: there is no zero).  The mutants answer "nonneg", a true but
    weaker claim, which would make a strict inequality "not proved".
    """
    f = (a - b) ** 2 + 1
    assert sign(f) == POS
    assert sign(sp.expand(f ** 2)) == POS
    assert sign(sp.expand(-f ** 2)) == NEG


def test_an_absorbed_negative_term_is_zero_for_the_later_pairs():
    """``_complete_squares`` 67 (``terms[mono] = None`` for ``= 0``), found
    equivalent by the earlier reading of the run, is not: an absorbed term can
    be the square term of a later pair.

    ``p = a^3 b + a^3 c + a^2 b^2 + a b c^2 + b^2 c^2 - a^2 b c - a b^2 c``.
    Monomials are visited in increasing exponent order: ``-a b^2 c`` (1, 2, 1)
    first, absorbed by the pair (a, c) as ``b^2 (a - c)^2`` (its pair (a, b)
    needs ``a^2 b c``, negative).  Then ``-a^2 b c`` (2, 1, 1): its first pair
    (a, b) has ``a^3 c`` (enough) and ``a b^2 c`` (the absorbed term, now 0:
    not enough), so the pair is skipped and (a, c) absorbs it as
    ``a b (a - c)^2``.  With ``None`` the comparison ``None >= 1`` raises
    TypeError.  The rest, ``a^3 b + 2 a^3 c + a^2 b^2 + a b c^2 + b^2 c^2``
    (computed below), has positive coefficients only, so ``2p`` is a sum of
    squares plus a positive polynomial: ``p > 0``, "pos".
    """
    R, ra, rb, rc = ring("a, b, c", ZZ)
    p = (ra**3 * rb + ra**3 * rc + ra**2 * rb**2 + ra * rb * rc**2 + rb**2 * rc**2
         - ra**2 * rb * rc - ra * rb**2 * rc)
    rest = C._complete_squares(p)
    assert rest == ra**3 * rb + 2 * ra**3 * rc + ra**2 * rb**2 + ra * rb * rc**2 + rb**2 * rc**2
    # 2p - rest is b^2 (a - c)^2 + a b (a - c)^2: the two absorbed squares
    assert 2 * p - rest == rb**2 * (ra - rc) ** 2 + ra * rb * (ra - rc) ** 2
    e = a**3 * b + a**3 * c + a**2 * b**2 + a * b * c**2 + b**2 * c**2 - a**2 * b * c - a * b**2 * c
    assert sign(e) == POS


# ---------------------------------------------------------------------------
# the sparse rational functions (_SparseFractions, _fraction): docs/mutation.md,
# "The rational-function code of certificates.py"
# ---------------------------------------------------------------------------
def _exact(e, point):
    """``e`` at the integer ``point``, evaluated EXACTLY with ``fractions.Fraction``
    on SymPy's tree (sums, products, integer powers): independent of the
    sparse polynomials under test.  ZeroDivisionError at a pole."""
    if e.is_Symbol:
        return Fraction(point[e])
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if e.is_Add:
        return sum((_exact(x, point) for x in e.args), Fraction(0))
    if e.is_Mul:
        out = Fraction(1)
        for x in e.args:
            out *= _exact(x, point)
        return out
    assert e.is_Pow and e.exp.is_Integer, e
    return _exact(e.base, point) ** int(e.exp)


def _at(p, point):
    """The polynomial ``p`` (a ``PolyElement``) at ``point`` (its ring's symbols;
    a symbol of the ring not in ``point``, the placeholder of a constant, at 0)."""
    return Fraction(int(p(*[point.get(s, 0) for s in p.ring.symbols])))


def _grid(syms, hi=4):
    return [dict(zip(syms, v, strict=True)) for v in itertools.product(range(1, hi + 1), repeat=len(syms))]


#: rational expressions (SymPy keeps them unevaluated as written), each with
#: the feature of _SparseFractions it exercises
_FRACTIONS = [
    # negative odd power of a base with negative content -1 (1 - a - b: its
    # primitive part a + b - 1 has the sign flipped): the numerator must flip
    (1 - a - b) ** -3,
    (1 - a - b) ** -1,
    # content -2, odd and even negative powers: the constant is |c0|**-k
    (2 - 4 * a) ** -3,
    (2 - 4 * a) ** -2,
    # monomial content a (and a*b): split takes the generators out
    (6 * a * b - 4 * a) ** -1,
    (a ** 2 * b - a * b ** 2) ** -2,
    (a ** 3 * b ** 2 - 2 * a ** 2 * b ** 3) ** -3,
    # a base with a constant numerator: 1/a - 1/(a + 1) = 1/(a (a + 1))
    (1 / a - 1 / (a + 1)) ** -1,
    (1 / a - 1 / (a + 1)) ** -3,
    # a base with a constant denominator and factors in it
    (sp.Rational(3, 2) / a + sp.Rational(1, 4) / b) ** -3,
    (sp.Rational(-3, 2) / a ** 2) ** -1 + (a + b) / (2 * a * (a + 1) ** 2),
    # sums over denominators sharing factors (the lcm is a (a + 1)^2, 6)
    1 / (a * (a + 1)) + 1 / (a + 1) ** 2 - 1 / (2 * a) + sp.Rational(5, 6),
    (a ** 2 + 2 * a + 1) / (a * (a + 1) ** 3) - 1 / (3 * (a + 1) ** 2 * a),
    a / (2 * b * (a + b)) - b / (3 * a * (a + b) ** 2) + 1 / (6 * a * b),
    # products of fractions, repeated factors, both signs of a factor
    (a / (2 * b)) * (b / (3 * (a + b))) * ((a + b) ** 2 / (4 * a ** 3)),
    1 / ((b - a) * (a - b + 1)) + (a - b) ** 2 / (b - 2 * a) ** 3,
    # positive powers of fractions
    ((a + 1) / (2 * b)) ** 3 - (a / (b + 1)) ** 2,
    # the content of a sum beyond 2**53 (lcm 3**40 * 7**25: exact integers, not floats)
    a / 3 ** 40 + 1 / (7 ** 25 * b) - sp.Rational(2, 3 ** 39),
    # the same factor from two bases of a product: (a + 1) and 2a + 2
    1 / ((a + 1) * (2 * a + 2)) + a / ((a + 1) ** 2 * (3 * a + 3)),
    # positive powers of a sum with denominators
    (1 / a + 1 / (2 * b)) ** 2,
    (1 / a - 1 / (a + 1)) ** 3 + (a / (b + 1) - 1) ** 4,
    # constants: no symbols (the ring gets a placeholder generator)
    sp.Rational(-3, 4),
    sp.Integer(7),
]


@pytest.mark.parametrize("e", _FRACTIONS, ids=str)
def test_fraction_is_the_expression_at_integer_points(e):
    """``_fraction(e) = (num, den)``: ``num / den = e`` at every integer point of a
    grid where ``e`` is defined (the expected values: ``_exact``, Fraction
    arithmetic on the expression tree), ``den`` with a positive leading
    coefficient (the docstring of ``_SparseFractions.fraction``).

    Kills mutants of ``_SparseFractions.pow`` (the content and the sign of an
    inverted base, the constant ``bc**-k``, the exponents of the inverted
    factors), ``split`` (a ground numerator, the primitive part), ``add``,
    ``mul``, ``expand``, ``ev`` (numbers named in docs/mutation.md).
    """
    num, den = C._fraction(e)
    assert den.LC > 0
    syms = sorted(e.free_symbols, key=str)
    checked = 0
    for point in _grid(syms):
        try:
            want = _exact(e, point)
        except ZeroDivisionError:
            continue
        assert _at(den, point) != 0, point
        assert _at(num, point) / _at(den, point) == want, point
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("e", _FRACTIONS, ids=str)
def test_the_sparse_representation_keeps_its_invariants(e):
    """``_SparseFractions.ev(e) = (num, c, den)`` with ``e = num / (c * prod
    factor**m)`` (the class docstring): ``c`` a positive integer, every factor
    of ``den`` primitive with a positive leading coefficient and a positive
    exponent.  Expected values: ``_exact`` as above."""
    syms = sorted(e.free_symbols, key=str)
    sf = C._SparseFractions(syms)
    num, c, den = sf.ev(e)
    assert type(c) is int and c >= 1
    for k, m in den.items():
        f = sf.factors[k]
        assert m >= 1 and f.LC > 0 and f.primitive()[0] == 1 and not f.is_ground
    for point in _grid(syms, 3):
        try:
            want = _exact(e, point)
        except ZeroDivisionError:
            continue
        d = Fraction(c)
        for k, m in den.items():
            d *= _at(sf.factors[k], point) ** m
        assert _at(num, point) / d == want, point


def test_a_sum_is_put_over_the_lcm_of_its_denominators():
    """``_SparseFractions.add`` 2 (the constant starting at 2, not 1): the
    docstring's representation, ``num / (c * prod factor**m)`` over the LEAST
    common multiple.  ``1/(a (a + 1)) + 1/(a + 1)^2 - 1/(2a)``: the lcm of the
    denominators is ``2 a (a + 1)^2`` (by hand: the highest power of each
    factor, lcm(1, 1, 2) = 2), so ``c = 2``, ``den = {a: 1, a + 1: 2}`` and
    ``num = 2 (a + 1) + 2a - (a + 1)^2 = -a^2 + 2a + 1``.
    """
    sf = C._SparseFractions([a])
    num, c, den = sf.ev(1 / (a * (a + 1)) + 1 / (a + 1) ** 2 - 1 / (2 * a))
    x = sf.gens[0]
    assert c == 2
    assert {sf.factors[k_]: m for k_, m in den.items()} == {x: 1, x + 1: 2}
    assert num == -x ** 2 + 2 * x + 1


def test_a_non_rational_expression_is_refused():
    """``_SparseFractions.ev`` 13 (``x.is_Pow or x.exp.is_Integer``): a root is
    not a rational function (``int(1/2)`` would read ``sqrt(a)`` as ``a**0 =
    1``) and ``Max`` has no exponent; both are refused with ``_NotRational``
    (which ``_Frozen.reduce`` relies on to skip a relation whose radicand is
    not a polynomial)."""
    for e in (sp.sqrt(a), a ** sp.Rational(2, 3) + 1, sp.Max(a, b), sp.log(a) * b):
        with pytest.raises(C._NotRational):
            C._fraction(e)


def test_the_ring_orders_frozen_symbols_first_then_by_name():
    """``_fraction`` 7 (dummies last) and 8 (names ignored: the order of a set,
    which changes with the hash seed): the ring's generators are the frozen
    symbols (``Dummy``) first, then the symbols by name (the docstring: the
    relation ``t**q - b`` of a radical leads in lex order).  Eight symbols, so
    a set order matching by chance is unlikely (1 in 8! for a random order)."""
    syms = sp.symbols("h c f a g e b d", integer=True, positive=True)
    t = sp.Dummy("t0")
    num, _ = C._fraction(sum(syms) + t * syms[0])
    assert num.ring.symbols == (t, *sorted(syms, key=str))


def test_a_relation_of_a_root_is_used_in_the_lex_order_it_needs():
    """``_fraction`` 7, behaviourally: ``a (sqrt(a + 1) - sqrt(a)) (sqrt(a + 1) +
    sqrt(a)) = a ((a + 1) - a) = a`` (difference of squares).  Frozen, the
    numerator is ``a t1^2 - a t0^2 - a`` with ``t0^2 = a``, ``t1^2 = a + 1``;
    it reduces to 0 only when the ``t`` lead (with ``a`` first, both relations
    lead with ``a`` and the division stops early)."""
    e = a * (sp.sqrt(a + 1) - sp.sqrt(a)) * (sp.sqrt(a + 1) + sp.sqrt(a))
    assert sp.expand(e) == a
    assert C.equal(e, a) == (True, "cancels to 0")


def test_a_shared_factor_of_a_product_adds_its_exponents():
    """``_SparseFractions.mul`` 11 (``d.get(None, 0) + m``: the exponent of a
    factor met twice in a product is overwritten).  ``1/((a + 1)(2a + 2))``:
    both bases have the factor ``a + 1`` (``2a + 2 = 2 (a + 1)``), so the
    representation is ``1 / (2 (a + 1)^2)``: ``c = 2``, ``{a + 1: 2}``."""
    sf = C._SparseFractions([a])
    num, c, den = sf.ev(1 / ((a + 1) * (2 * a + 2)))
    assert num == 1 and c == 2 and list(den.values()) == [2]


def _probe_zero(*syms):
    """A polynomial zero at both probe points of :func:`equal` (``_point`` with
    seeds 1 and 2 on the symbols sorted by name) and not identically zero."""
    syms = sorted(syms, key=str)
    x = syms[0]
    return sp.Mul(*[x - C._point(syms, s)[x] for s in (1, 2)])


def test_the_power_guard_refuses_before_forming_a_large_power():
    """``_SparseFractions.pow`` 2, 5, 6: a base of ``n`` terms to the power
    ``k`` is refused (``_TooLarge``) when ``n**|k| > MAX_TERMS**2`` (9e6),
    before it is formed.  ``a + b + 1`` (3 terms): ``3**14 = 4 782 969`` is
    formed (``(a + b + 1)^14`` has C(16, 2) = 120 terms), ``3**15 = 14 348 907``
    is refused; so is ``-15`` (``abs(k)``)."""
    sf = C._SparseFractions([a, b])
    base = sf.ev(a + b + 1)
    assert 3 ** 14 <= C.MAX_TERMS ** 2 < 3 ** 15
    assert len(sf.pow(base, 14)[0]) == 120
    for k_ in (15, -15):
        with pytest.raises(C._TooLarge):
            sf.pow(base, k_)


def test_the_size_limits_are_inclusive():
    """``_check_size`` 1 (``>=``): a polynomial of exactly ``MAX_TERMS`` terms
    is formed, one more is refused.  ``_small`` 1 (``len(p) - len(q)``), 2
    (``>=``), 3 (large is small) and 6 (degree ``<``): a gcd is tried for
    ``len(p) + len(q) <= _GCD_TERMS`` and total degree ``<= _GCD_DEGREE``
    (their definitions)."""
    R, x, y = ring("x, y", ZZ)
    p = sum((x ** i * y ** j for i in range(60) for j in range(50)), R.zero)
    assert len(p) == C.MAX_TERMS
    assert C._check_size(p) is p
    with pytest.raises(C._TooLarge):
        C._check_size(p + x ** 100)
    R3, x, y, z = ring("x, y, z", ZZ)
    monos = [x ** i * y ** j * z ** m for i in range(13) for j in range(13) for m in range(13)
             if i + j + m <= 12]  # C(15, 3) = 455 monomials of degree <= 12
    assert len(monos) == 455
    p250, p150 = sum(monos[:250], R3.zero), sum(monos[250:400], R3.zero)
    small = sum((x ** i for i in range(12)), R3.zero)  # 12 terms, degree 11
    assert C._small(p250, p150) is True  # 400 terms
    assert C._small(p250, p150 + monos[400]) is False  # 401 terms
    assert C._small(p250 + p150 + monos[400], small) is False  # 413 (p - q would be 389)
    assert C._small(small * x, small) is True  # degree 12
    assert C._small(small * x ** 2, small) is False  # degree 13


def test_the_reasons_of_equal():
    """``_equal`` 3, 4, 14 to 19, 42, 43, 56, 57, 68, 69, 72, 73: the reason
    returned with the verdict (it reaches the prover's and the CLI's reports)
    names the rule, and a refutation its point and difference (6 digits).
    ``a + 1`` and ``a + 2`` differ by -1 everywhere; the first probe point is
    ``_point([a], 1)``."""
    assert C.equal(a, a) == (True, "identical")
    assert C.equal(sp.Max(a, b) + a, sp.Max(b, a + 0 * b) + a)[1] == "identical"
    assert C.equal(a * sp.Max(a, b ** 2), sp.Max(b ** 2, a) * a) == (True, "identical")
    p = C._point([a], 1)
    assert C.equal(a + 1, a + 2) == (False, f"they differ by {sp.N(-1, 6)} at {p}")
    assert C.equal(a + 1, a + 2)[1] == "they differ by -1.00000 at {a: 24}"
    # congruence: (sqrt(a) + 1)^2 = a + 2 sqrt(a) + 1 inside a Max
    x, y = (sp.sqrt(a) + 1) ** 2, a + 2 * sp.sqrt(a) + 1
    assert C.equal(sp.Max(x, b), sp.Max(y, b)) == (True, "equal arguments")
    # a common power: x^2 vs y^2 (x = y above)
    assert C.equal(x ** 2 * b ** 2, y ** 2 * b ** 2)[1] in ("equal arguments", "equal roots of a common power")
    assert C.equal(x ** 3, y ** 3) == (True, "equal roots of a common power")
    assert C.equal(x, y) == (True, "cancels to 0")
    v = _probe_zero(a)
    assert C.equal(a + v, a) == (False, "not reduced to 0 by cancellation")


def test_a_common_power_of_different_bases_is_not_equal():
    """``_equal`` 54 (``_equal(*roots, points)[1]``, the reason, always truthy):
    a FALSE certificate.  ``a^2`` and ``(a + v)^2`` with ``v`` zero at both
    probe points (so the probe cannot refute) differ where ``v != 0``:
    at a = 1, v = (1 - 24)(1 - 42) = 943 (expected values: the two probe
    points, ``_point``)."""
    v = _probe_zero(a)
    assert v.subs(a, 1) == (1 - 24) * (1 - 42)
    assert C.equal(a ** 2, (a + v) ** 2)[0] is False
    assert C.equal((a + v) ** 3, a ** 3)[0] is False


def test_an_undecided_identity_is_not_certified():
    """``_equal`` 70 (True when the polynomials are too large): a FALSE
    certificate.  ``(a + b + 1)^15`` against its expansion plus ``v`` (zero at
    both probe points, 943 at a = 1): they differ, and the global test is
    refused (a 3-term base to the 15th power, ``_SparseFractions.pow``'s guard)."""
    v = _probe_zero(a, b)
    assert C.equal((a + b + 1) ** 15, sp.expand((a + b + 1) ** 15) + v) == (
        False, f"not decided: polynomials beyond {C.MAX_TERMS} terms")


def test_distinct_atoms_freeze_to_distinct_symbols():
    """``_Frozen._walk`` 2, 19, 20, 24 (``self._new(None)``: every constant, every
    non-real Max/Min, every Abs/log, every other function frozen to ONE
    symbol).  The class docstring: each becomes a new symbol, equal atoms the
    same one.  Behaviourally (a FALSE certificate of the mutants): ``pi v`` and
    ``E v``, ``v`` zero at the probe points, differ where ``v != 0``."""
    s = sp.sqrt((a - b) / (b - a))
    atoms = [sp.pi, sp.E, sp.Min(1, s), sp.Max(2, s), sp.log(a), sp.Abs(a - 2 * b),
             sp.sin(a), sp.cos(b)]
    fz = C._Frozen()
    frozen = [fz.freeze(x) for x in atoms]
    assert len(set(frozen)) == len(atoms)
    assert all(isinstance(t, sp.Dummy) for t in frozen)
    assert fz.freeze(sp.log(a)) == frozen[4]
    v = _probe_zero(a)
    assert C.equal(sp.pi * v, sp.E * v)[0] is False
    assert C.equal(sp.log(a + 1) * v, sp.log(a + 2) * v)[0] is False
    assert C.equal(sp.sin(a) * v, sp.cos(a) * v)[0] is False


def test_roots_of_different_index_are_different_symbols():
    """``_Frozen._root`` 13, 15 (``Rational(1, None)`` = 1: the atom of
    ``b**(1/q)`` keyed as ``b**1`` for every ``q``): ``sqrt(a) v`` and
    ``a^(1/3) v``, ``v`` zero at the probe points, differ at a = 2 (v != 0,
    sqrt(2) != 2^(1/3)); the mutants freeze both roots to one symbol."""
    v = _probe_zero(a)
    assert C.equal(sp.sqrt(a) * v, a ** sp.Rational(1, 3) * v)[0] is False


def test_a_positive_factor_of_a_max_multiplies_it():
    """``_Frozen._walk`` 16 (``walk(c) / new``): ``Max(ab, ac) = a Max(b, c)``
    for ``a > 0`` (the class docstring); the mutant freezes the left side as
    ``a / t``."""
    assert C.equal(sp.Max(a * b, a * c), a * sp.Max(b, c)) == (True, "cancels to 0")


def test_a_root_of_a_rational_number_is_frozen_with_its_relation():
    """``_Frozen._power`` 7 to 10 (the root of a rational base): ``(sqrt 2 + 1)^2
    = 3 + 2 sqrt 2`` (expanding), proved by the relation ``t^2 = 2``."""
    assert sp.expand((sp.sqrt(2) + 1) ** 2) == 3 + 2 * sp.sqrt(2)
    assert C.equal((sp.sqrt(2) + 1) ** 2, 3 + 2 * sp.sqrt(2)) == (True, "cancels to 0")


def test_a_relation_whose_root_cancelled_is_skipped():
    """``_Frozen.reduce`` 12 (skip a relation only when its ``t`` is absent AND
    its radicand is outside the ring): ``sqrt(a^2 + a)/sqrt(a + 1) - sqrt(a)``
    freezes to ``t1 t0 / t1 - t0 = 0`` (``sqrt(a^2 + a) = sqrt(a + 1) sqrt(a)``,
    both factors certified >= 0), so with ``+ v`` (zero at the probe points,
    nonzero elsewhere) the numerator is ``v``, a polynomial in ``a`` only: the
    relations ``t^2 = a``, ``t^2 = a + 1`` have no generator and are skipped,
    answer False (the mutant raises KeyError)."""
    v = _probe_zero(a)
    x = sp.sqrt(a ** 2 + a) / sp.sqrt(a + 1) - sp.sqrt(a)
    assert x != 0
    assert C.is_zero(x + v) == (False, "not reduced to 0 by cancellation")


_SQUARE = (sp.sqrt(b) + 1) ** 2 - b - 2 * sp.sqrt(b) - 1  # = 0 (expanding), needs t^2 = b


@pytest.mark.parametrize("skipped", [
    sp.sqrt(c),  # a radicand whose symbol c is not in the ring (only t_c is)
    c * sp.sqrt(1 + sp.sqrt(c)),  # a radicand that is not rational
    c * sp.sqrt(1 / c - 1),  # a radicand that is not a polynomial
], ids=["outside-the-ring", "not-rational", "not-polynomial"])
def test_a_skipped_relation_does_not_stop_the_others(skipped):
    """``_Frozen.reduce`` 17, 20, 23 (``break`` for ``continue``): a relation
    that cannot be used (its radicand in a symbol outside the ring, not
    rational, not a polynomial) must not stop the use of the next one.  Each
    expression is identically 0 (``_SQUARE`` expands to 0); ``is_zero`` needs
    the relation ``t^2 = b``, created after the skipped one (the factors are
    frozen in SymPy's order of the product's arguments, the sum last)."""
    e = skipped * _SQUARE
    assert C.is_zero(e) == (True, "cancels to 0")


def test_strings_are_not_evaluated():
    """``equal`` 3, 5, 6, 8, 10, 11, ``_canon`` 3, 5, 6, ``_Frozen.freeze`` 10, 12,
    13, ``sign`` 3, 5, 6 (``sympify`` without ``strict``): a string is refused (SymPy's sympify of a
    string evaluates Python; the project's rule: user strings are never
    evaluated)."""
    for x, y in (("a", 1), (1, "a")):
        with pytest.raises(sp.SympifyError):
            C.equal(x, y)
    with pytest.raises(sp.SympifyError):
        C._canon("a + 1")
    with pytest.raises(sp.SympifyError):
        C.sign("a - 1")
    with pytest.raises(sp.SympifyError):
        C._Frozen().freeze("a + 1")


def test_the_canonical_form_keeps_the_value():
    """``_canon_parts`` 7, 8 (the form of a rational function identically 0),
    22 (a negative leading coefficient: content negated, primitive part not)
    and 48 (a frozen atom of the monomial content returned as its symbol):
    ``_canon(x)`` is ``x`` (``x = c * prod(base**k)``, the docstring), checked by
    SymPy's ``expand``/``together`` (an identity of rational functions)."""
    z = 1 / (a * (a + 1)) - 1 / a + 1 / (a + 1)  # = 0 (over a (a + 1): 1 - (a + 1) + a)
    assert sp.together(z) == 0
    assert C._canon_parts(z) == (0, [])
    assert C._canon(z) == 0
    for x in (1 - a, 2 - 4 * a * b, sp.pi * a + sp.pi, (1 - a) / (b - 2 * a) ** 3, sp.E * a ** 2 * b / (3 - b)):
        y = C._canon(x)
        assert y.free_symbols == x.free_symbols
        assert sp.cancel(sp.together(y - x)) == 0, (x, y)
    assert C._canon_parts(1 - a) == (-1, [(a - 1, 1)])


def test_the_root_of_zero_is_not_one():
    """``_canon_parts`` 8 (the form of 0 read as ``1``): a FALSE certificate,
    ``sqrt(z)`` with ``z`` identically 0 frozen as 1, so ``v sqrt(z) = v`` (``v``
    zero at the probe points, 943 at a = 1, where the left side is 0)."""
    z = 1 / (a * (a + 1)) - 1 / a + 1 / (a + 1)
    v = _probe_zero(a)
    assert C.equal(v * sp.sqrt(z), v)[0] is False


def test_only_common_positive_factors_leave_a_max():
    """``_pull_positive`` 5, 6 (a number, or a factor not certified positive,
    taken out of a Max): FALSE certificates.  ``Max(-2a, -2b) = -2 Min(a, b)``,
    not ``-2 Max(a, b)``; ``Max((1 - a) b, (1 - a) c) = (1 - a) Min(b, c)`` for
    a > 1; each times ``v``, zero at the probe points.  And ``_canon`` 22's
    effect: ``Max(1 - a, b)`` is not ``Max(a - 1, b)`` (at a = 5, b = 1: 1 vs 4)."""
    v = _probe_zero(a, b)
    assert C.equal(sp.Max(-2 * a, -2 * b) * v, -2 * sp.Max(a, b) * v)[0] is False
    assert C.equal(sp.Max(1 - a, b) * v, sp.Max(a - 1, b) * v)[0] is False
    v3 = _probe_zero(a, b, c)
    assert C.equal(sp.Max((a - 2) * b, (a - 2) * c) * v3, (a - 2) * sp.Max(b, c) * v3)[0] is False


def test_the_probe_tries_both_points():
    """``_differ`` 13 (``break`` at a point where a value is undefined) and 23
    (``break`` at a point where the probe cannot separate the values): the
    first probe point is a = 24, the second a = 42 (``_point``).
    ``1/(a - 24)`` is undefined at 24, and ``2a - 24 = a`` at 24; both pairs
    differ at 42 (by -1 and by 18: exact arithmetic)."""
    assert C.equal(1 / (a - 24), 1 / (a - 24) + 1) == (False, "they differ by -1.00000 at {a: 42}")
    assert C.equal(2 * a - 24, a) == (False, "they differ by 18.0000 at {a: 42}")
    assert C.equal(a, b)[1] == "they differ by -2.00000 at {a: 24, b: 26}"


def test_the_probe_is_a_30_digit_probe():
    """``_differ`` 16, 19 (the exact-sign default policy, up to 300 digits with
    proofs of zero, for ``PROBE_POLICY``): ``sqrt(a^2 + 10^-40)`` and ``a`` differ
    by about ``10^-40 / (2a)`` (a Taylor expansion), below the probe's 30
    digits, so the probe does not refute them (a probe, not a proof) and the
    symbolic test answers; the default policy separates them at 24."""
    e = sp.sqrt(a ** 2 + sp.Rational(1, 10 ** 40))
    assert exact_sign.compare(e.subs(a, 24), sp.Integer(24), exact_sign.ExactPolicy()) == 1
    assert C.equal(e, a) == (False, "not reduced to 0 by cancellation")


def test_the_refutation_states_the_difference_to_30_digits():
    """``a`` and ``a + 10^-18`` differ by exactly -1e-18 (exact arithmetic), which
    15-digit values of 24 lose.  (It killed ``_num`` 3, 5, values to 15 digits,
    while the message printed the difference of the probe values; it is now
    the difference of the expressions, and ``_num``'s digits are pinned by
    ``test_the_probe_values_have_30_digits``.)"""
    assert C.equal(a, a + sp.Rational(1, 10 ** 18)) == (False, "they differ by -1.00000E-18 at {a: 24}")


def test_congruence_pairs_every_argument():
    """``_pairs`` 1 (same head, different numbers of arguments paired anyway):
    a FALSE certificate, ``a + b = a + b + v`` with ``v`` zero at the probe
    points (its arguments pair with two of the three).  ``_pairs`` 28
    (``next`` without a default): an argument without a partner raised
    StopIteration; ``(2a + 2)(a + 3) = (a + 1)(2a + 6)`` (expanding) is proved."""
    v = _probe_zero(a, b)
    assert C.equal(a + b, a + b + v)[0] is False
    assert sp.expand((2 * a + 2) * (a + 3) - (a + 1) * (2 * a + 6)) == 0
    assert C.equal((2 * a + 2) * (a + 3), (a + 1) * (2 * a + 6)) == (True, "cancels to 0")


def test_a_common_power_is_the_gcd_of_the_exponents():
    """``_common_root`` 15 (``gcd`` of the last exponent only): a FALSE
    certificate, ``(1 + v)^3 = (1 + v)^2`` read as ``(1 + v)^1 = (1 + v)^1``
    (``v`` zero at the probe points); 18, 19 (``g <= 2``, ``g < 3``): a common
    square is a common power, ``x^2 = y^2`` for ``x = (sqrt(a) + 1)^2``,
    ``y = a + 2 sqrt(a) + 1`` (expanding), by their roots."""
    v = _probe_zero(a)
    assert C.equal((1 + v) ** 3, (1 + v) ** 2)[0] is False
    x, y = (sp.sqrt(a) + 1) ** 2, a + 2 * sp.sqrt(a) + 1
    assert sp.expand(x - y) == 0
    assert C.equal(x ** 2, y ** 2) == (True, "equal roots of a common power")


def test_the_power_guard_admits_its_limit():
    """``_SparseFractions.pow`` 4 (``>=``): the guard refuses only beyond
    ``MAX_TERMS**2``; a base of exactly ``MAX_TERMS`` terms to the power -2
    (``3000**2 = MAX_TERMS**2``) is formed: its inverse keeps the base as a
    factor of the denominator, ``1 / p^2``, without expanding ``p^2``."""
    sf = C._SparseFractions([a, b])
    x, y = sf.gens
    p = sum((x ** i * y ** j for i in range(60) for j in range(50)), sf.R.zero)
    assert len(p) == C.MAX_TERMS and len(p) ** 2 == C.MAX_TERMS ** 2
    num, c, den = sf.pow((p, 1, {}), -2)
    assert (num, c) == (1, 1) and {sf.factors[k_]: m for k_, m in den.items()} == {p: 2}


def test_a_root_takes_integer_powers_of_the_monomial_content_out():
    """``_Frozen._power`` 32 (``walk(b) * e`` for ``walk(b) ** e``): ``sqrt(a^5 +
    a^4) = sqrt(a^4 (a + 1)) = a^2 sqrt(a + 1)`` for ``a >= 0`` (the monomial
    content ``a^4``, exponent 4 * 1/2 = 2); the mutant reads ``2 a sqrt(a + 1)``."""
    assert C.equal(sp.sqrt(a ** 5 + a ** 4), a ** 2 * sp.sqrt(a + 1)) == (True, "cancels to 0")


def test_a_root_of_a_base_too_large_to_canonicalise_is_frozen_whole():
    """``_Frozen._power`` 7 to 10 (the ``_TooLarge`` fallback: ``_root(None,
    ex)`` etc. raised instead): ``B = (a + b + 1)^15 + 1`` is beyond the power
    guard (3 terms to the 15th), so ``sqrt(B)`` is frozen as a whole (a symbol
    ``t``, ``t^2 = B``).  ``sqrt(B) v`` (``v`` zero at the probe points) is not
    identically 0 (``B >= 2``, ``v(1) = 943``)."""
    with pytest.raises(C._TooLarge):
        C._canon_parts((a + b + 1) ** 15 + 1)
    v = _probe_zero(a, b)
    assert C.equal(sp.sqrt((a + b + 1) ** 15 + 1) * v, 0) == (False, "not reduced to 0 by cancellation")


def test_the_second_probe_point():
    """``_point`` 17, 18 (``integers(2, 50)``, ``integers(1, 51)``) and
    ``_differ`` 23 (``break`` after a point where the probe cannot separate):
    the probe points of ``equal`` in ``a, b`` are ``{a: 24, b: 26}`` and
    ``{a: 42, b: 13}`` (``numpy.random.default_rng(seed).integers(1, 50, 2)``,
    seeds 1 and 2).  ``2a + b - 24`` and ``a + b`` are equal at the first
    (50) and differ by ``a - 24 = 18`` at the second.  ``(sqrt(a) + 1)^2 + a - 24``
    and ``a + 2 sqrt(a) + 1`` are equal at a = 24, where the 30-digit probe
    cannot prove it, and differ by 18 at a = 42; ``sqrt(a^2 + 10^-40) + a - 24``
    and ``a`` differ at a = 24 by about 2e-42 (a Taylor expansion), below the
    probe's 30 digits (``UndecidedError``), and by 18 at a = 42."""
    import numpy as np
    assert [int(v) for v in np.random.default_rng(2).integers(1, 50, 2)] == [42, 13]
    assert C.equal(2 * a + b - 24, a + b) == (False, "they differ by 18.0000 at {a: 42, b: 13}")
    e = sp.sqrt(a ** 2 + sp.Rational(1, 10 ** 40)) + a - 24
    with pytest.raises(UndecidedError):
        exact_sign.compare(e.subs(a, 24), sp.Integer(24), C.PROBE_POLICY)
    assert C.equal(e, a) == (False, "they differ by 18.0000 at {a: 42}")


def test_arguments_are_paired_by_value_whatever_their_order():
    """``_pairs`` 4 (positional pairing for ``+ * Max Min``) and 30 (the first
    candidate taken whatever its value): ``x = (sqrt(a) + 1)^2`` and ``y = a +
    2 sqrt(a) + 1`` are equal (expanding) but SymPy orders them differently
    among other arguments: ``x (b^2 + 1)`` has the arguments ``(x, b^2 + 1)``,
    ``y (b^2 + 1)`` has ``(b^2 + 1, y)``, so congruence needs the values (the
    other cases: the same pairs in other products, sums and Max, one of them
    with values near 1e32)."""
    x, y = (sp.sqrt(a) + 1) ** 2, a + 2 * sp.sqrt(a) + 1
    assert (x * (b ** 2 + 1)).args.index(x) != (y * (b ** 2 + 1)).args.index(y)
    assert C.equal(x * (b ** 2 + 1), y * (b ** 2 + 1)) == (True, "equal arguments")
    assert C.equal(x * b, y * b) == (True, "equal arguments")
    assert C.equal(x * b + 1, b * y + 1) == (True, "equal arguments")
    assert C.equal(sp.Max(x, b + 1), sp.Max(b + 1, y)) == (True, "equal arguments")
    assert C.equal(sp.Max(x, b ** 3), sp.Max(b ** 3, y)) == (True, "equal arguments")
    assert C.equal(sp.Max(x * 10 ** 30, b), sp.Max(y * 10 ** 30, b)) == (True, "equal arguments")


def test_congruence_needs_a_value_at_the_first_probe_point():
    """``_num`` 9 (a value returned even when not a finite number): ``x/(a - 24)``
    and ``y/(a - 24)`` (``x = y`` as above) have an argument ``1/(a - 24)``,
    infinite at the first probe point a = 24: congruence is not tried (the
    mutant compares ``zoo - zoo = nan`` and SymPy raises TypeError); the global
    test proves it.  ``_num`` 10: a non-real value is not a number either."""
    x, y = (sp.sqrt(a) + 1) ** 2, a + 2 * sp.sqrt(a) + 1
    assert C.equal(x / (a - 24), y / (a - 24)) == (True, "cancels to 0")
    assert C._num(sp.sqrt(a - 30), {a: sp.Integer(24)}) is None
    assert C._num(1 / (a - 24), {a: sp.Integer(24)}) is None


def test_a_common_power_takes_the_root_of_each_side():
    """``_common_root`` 22 (``x * (e // g)`` on the second side): ``y^6`` and
    ``(sqrt(a) + 1)^12``, ``y = a + 2 sqrt(a) + 1 = (sqrt(a) + 1)^2``: the gcd of
    the exponents is 6 and the roots ``y`` and ``(sqrt(a) + 1)^2`` are equal."""
    y = a + 2 * sp.sqrt(a) + 1
    assert C.equal(y ** 6, (sp.sqrt(a) + 1) ** 12) == (True, "equal roots of a common power")


# ---------------------------------------------------------------------------
# the nine survivors left by branch mutc (docs/mutation.md, "Not killed, not
# equivalent"), and the two bugs found on the way
# ---------------------------------------------------------------------------
_Z = 1 / (a * (a + 1)) - 1 / a + 1 / (a + 1)  # identically 0 (over a (a + 1): 1 - (a + 1) + a)


def test_the_root_of_a_base_identically_zero_is_zero():
    """``_Frozen._power`` 12, adopted (``c < 0`` for ``c <= 0``): a base whose
    canonical form is 0 (``_Z``, checked by SymPy's ``together``) has the root
    0, so ``sqrt(_Z) = 0`` and ``a sqrt(_Z) = 0`` are proved (the old code froze
    ``sqrt(_Z)`` as ``t`` with ``t^2 = 0``, which ``reduce`` does not turn into
    0; the mutant ``c <= 0`` is now the old code).  Soundness: ``sqrt(_Z) + 1``
    is not 0 (it is 1), nor ``sqrt(_Z) = a`` (0 vs a >= 1), and the root of the
    reciprocal of ``_Z`` (undefined everywhere) is not certified to be 0."""
    assert sp.together(_Z) == 0
    assert C.is_zero(sp.sqrt(_Z)) == (True, "cancels to 0")
    assert C.equal(a * sp.sqrt(_Z), 0) == (True, "cancels to 0")
    assert C.equal(_Z ** sp.Rational(1, 3) * (a + 1), 0) == (True, "cancels to 0")
    assert C.is_zero(sp.sqrt(_Z) + 1)[0] is False
    assert C.equal(sp.sqrt(_Z), a)[0] is False
    assert C.is_zero(1 / sp.sqrt(_Z))[0] is False


def test_the_root_of_a_negative_base_keeps_its_relation():
    """``_Frozen._power`` 11 (split a root into the roots of its factors when
    the content ``c`` is negative and the factors are certified >= 0):
    ``(sqrt(-a - 1) + 1)^2 = -a + 2 sqrt(-a - 1)`` (SymPy's ``expand``) is proved
    by the relation ``t^2 = -a - 1`` of the root frozen whole; the mutant
    freezes ``sqrt(-1) = I`` as a symbol without relation and misses it."""
    x, y = (sp.sqrt(-a - 1) + 1) ** 2, -a + 2 * sp.sqrt(-a - 1)
    assert sp.expand(x - y) == 0
    assert C.equal(x, y) == (True, "cancels to 0")


def test_an_integer_power_out_of_a_root_is_the_frozen_atom_itself():
    """``_Frozen._power`` 30 (an integer power of a monomial-content factor
    frozen as a new root ``t = b`` with ``q = 1``): ``(T^3)^(1/3) = T`` for ``T =
    Max(c - b, ab - a) >= 0`` (certified: ``ab - a = a (b - 1) >= 0``; SymPy does
    not simplify it); the relation ``t = T`` of the mutant is not a polynomial
    one, so the mutant does not prove it."""
    T = sp.Max(c - b, a * b - a)
    assert sign(T) == NONNEG
    assert (T ** 3) ** sp.Rational(1, 3) != T  # not simplified by SymPy
    assert C.equal((T ** 3) ** sp.Rational(1, 3), T) == (True, "cancels to 0")
    assert C.equal((T ** 3 * (a + 1)) ** sp.Rational(1, 3), T * sp.cbrt(a + 1))[0] is True


def test_a_max_of_equal_arguments_in_another_order_is_the_same_max():
    """``_pull_positive`` 4 (the positive factors of the SECOND argument taken
    out without checking the first) and 12 (those of the first, checked against
    none for two arguments): ``c (b - 3) = bc - 3c`` (expanding), so
    ``Max(c (b - 3), k (a - 3)) - Max(k (a - 3), bc - 3c)`` is identically 0.
    SymPy orders the two Max's arguments differently; the code pulls only the
    factors common to all arguments (none here), so both canonicalise to one
    Max.  The mutants take ``c`` out of one and ``k`` out of the other."""
    x, y = sp.Max(c * (b - 3), k * (a - 3)), sp.Max(k * (a - 3), b * c - 3 * c)
    assert sp.expand(c * (b - 3) - (b * c - 3 * c)) == 0
    assert C.is_zero(x - y) == (True, "cancels to 0")


def test_the_pairing_tolerance_is_1e_20_relative_inclusive():
    """``_pairs`` 34 (``<``), 35 (``/ max(1, |v|)``), 43 (``max(2, |v|)``): the
    docstring's tolerance ``|v - w| <= 1e-20 max(1, |v|)``.  ``r`` is the exact
    binary value of ``Float("1e-20")``, so ``0`` and ``r`` are exactly at the
    tolerance (paired); ``0`` and ``3r/2`` are beyond it; ``10^21`` and
    ``10^21 + 5`` are within ``1e-20 * 10^21 = 10`` (30-digit values of 22-digit
    integers are exact).  ``Max(0, a - b)``: SymPy cannot order the arguments."""
    r = sp.Rational(sp.Float("1e-20"))
    p = {a: sp.Integer(3), b: sp.Integer(1)}
    pairs = C._pairs(sp.Max(0, a - b), sp.Max(r, a - b), p)
    assert pairs is not None and set(pairs) == {(0, r), (a - b, a - b)}
    assert C._pairs(sp.Max(0, a - b), sp.Max(3 * r / 2, a - b), p) is None
    big = sp.Integer(10) ** 21
    pairs = C._pairs(sp.Max(big, a - b), sp.Max(big + 5, a - b), p)
    assert pairs is not None and set(pairs) == {(big, big + 5), (a - b, a - b)}


def test_the_probe_values_have_30_digits():
    """``_num`` 7 (31 digits), and 3, 5 (15): ``_num`` is the value to 30
    digits (its docstring), SymPy's ``N(pi, 30)`` (a Float of that precision)."""
    v = C._num(sp.pi * a, {a: sp.Integer(1)})
    assert v == sp.N(sp.pi, 30) and v._prec == sp.N(sp.pi, 30)._prec
    assert v != sp.N(sp.pi, 31) and v != sp.N(sp.pi, 15)


def test_an_expression_undefined_everywhere_is_not_a_crash():
    """Found by mutc: ``_Z^-1`` has a denominator identically 0 (``_Z = 0``), and
    a sum with it raised ZeroDivisionError (the lcm of the denominators is 0).
    ``equal``/``is_zero`` refuse it as undecided (never certified), ``sign``
    certifies nothing.  The refusal is made where the denominator 0 arises, a
    negative power of the zero polynomial (``_SparseFractions.pow``), so ``_Z^-1``
    alone gets the same reason as a sum with it (it was "not reduced to 0 by
    cancellation", with the constant ``c = 0`` against the class's invariant
    ``c >= 1``)."""
    e = a + 1 / _Z
    assert C.is_zero(e) == (False, "not decided: a denominator is identically 0")
    assert C.equal(e, a + 1)[0] is False
    assert sign(e) == ANY
    assert C.is_zero(1 / _Z) == (False, "not decided: a denominator is identically 0")
    assert sign(1 / _Z) == ANY
    with pytest.raises(C._DefinedNowhere):
        C._fraction(1 / _Z)


def test_a_refutation_below_30_digits_states_the_difference():
    """Found by mutc: ``a`` and ``a + 10^-40`` differ by exactly ``-10^-40`` (exact
    arithmetic), which the 30-digit values of ``a = 24`` lose: the message said
    "differ by 0"."""
    assert C.equal(a, a + sp.Rational(1, 10 ** 40)) == (False, "they differ by -1.00000E-40 at {a: 24}")
    assert C.equal(sp.sqrt(2) * a, sp.sqrt(2) * a + sp.Rational(3, 10 ** 45))[1] == \
        "they differ by -3.00000E-45 at {a: 24}"
