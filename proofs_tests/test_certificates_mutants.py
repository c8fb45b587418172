"""Tests that kill the last surviving mutants of the sign machinery of
``analytic.properties.certificates`` (docs/mutation.md, "Survivors not killed").

Each test names the mutant it kills (numbers as in ``mutmut show``) and states
why its expected value is right.  A claim of ``sign`` is a theorem about every
positive integer value of the symbols, so each expected sign is justified by a
proof sketch, and a non-strict one by a point where the value is 0.
"""

from __future__ import annotations

import pytest
import sympy as sp
from sympy import ZZ
from sympy.polys.rings import ring

from analytic.properties import certificates as C
from analytic.properties.certificates import sign

a, b, c = sp.symbols("a b c", integer=True, positive=True)


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
    assert sign(e) == "nonneg"
    assert sign(-e) == "nonpos"
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
    assert sign(f) == "pos"
    assert sign(sp.expand(f ** 2)) == "pos"
    assert sign(sp.expand(-f ** 2)) == "neg"


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
    assert sign(e) == "pos"
