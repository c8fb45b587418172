"""Tests that kill the surviving mutants of ``analytic.properties.prover`` (docs/mutation.md,
"the prover").  Each test names the mutants it kills (numbers as in
``mutmut show``) and states why its expected value is right.

A refusal's text is behaviour: it is printed by the CLI and committed in
``docs/properties.md`` (its "Not proved" lines), so mutants that change only a
message are killed by asserting the message.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
import sympy as sp

import numeric
from analytic.properties import prover as P
from numeric._symbolic import SymbolicArithmetic
from analytic.properties.proofkit import certify, short
from exactfloor.certificates import _point

a, b = sp.symbols("a b", integer=True, positive=True)
TWO = [P.Scope(2, "every")]


def _mae(cm):
    return numeric.mae(cm, arithmetic=SymbolicArithmetic())


def _exact_of_expr(f):
    """The exact reference of a formula that is defined everywhere."""
    return lambda m: sp.Integer(int(f(m)))


# ---------------------------------------------------------------------------
# _certify: which points refute, and the threshold (messages of the table)
# ---------------------------------------------------------------------------
def test_certify_names_the_first_seeded_point_that_refutes():
    """``_certify`` 15 (seeds ``(2, 2)``), 16 (``(1, 3)``), 19 (``_point(syms, None)``).

    The probe points are ``_point(syms, 1)`` then ``_point(syms, 2)``
    (``numpy.random.default_rng(seed).integers(1, 50)``: a = 24, then a = 42, b
    differs).  ``-a - b`` is negative everywhere: refuted at the first point,
    whose values the message names.  ``30 - a`` is 6 >= 0 at a = 24 and -12 at
    a = 42: not refuted at the first point, refuted at the second, which the
    message names (with seeds (1, 3) it would name a = 40).
    """
    p1, p2 = _point([a], 1), _point([a], 2)
    assert (p1, p2) == ({a: 24}, {a: 42})
    q = _point([a, b], 1)
    assert certify(-a - b, ">= 0") == f"-a - b is {sp.N(-q[a] - q[b], 6)} at {q}, not >= 0"
    assert certify(30 - a, ">= 0") == "30 - a is -12.0000 at {a: 42}, not >= 0"
    assert certify(a - 30, "<= 0") == "a - 30 is 12.0000 at {a: 42}, not <= 0"


def test_certify_refutes_only_beyond_the_threshold():
    """``_certify`` 31 (``v >= 1e-20``) and 33 (``v <= -1e-20``).

    A value refutes a relation numerically only when it is beyond 1e-20 (``>``,
    ``<``): a value exactly at the threshold is left to the sign certificate.
    ``t`` is the double 1e-20 as an exact rational (SymPy's ``Rational(float)``
    is exact), so its 30-digit value is exactly at the threshold (checked below).  ``t > 0``
    is certified "pos", so "<= 0" is refused as "not certified", and "> 0" is
    certified (None); likewise ``-t`` for ">= 0".
    """
    t = sp.Rational(1e-20)
    v = sp.N(t, 30)
    assert not v > 1e-20 and v >= 1e-20 and not -v < -1e-20 and -v <= -1e-20
    assert certify(t, "<= 0") == f"{t} not certified <= 0"
    assert certify(-t, ">= 0") == f"{-t} not certified >= 0"
    assert certify(t, "> 0") is None and certify(-t, "< 0") is None


# ---------------------------------------------------------------------------
# the evaluator: strings never parsed, refusal texts
# ---------------------------------------------------------------------------
def test_a_metric_returning_a_string_is_never_parsed():
    """``Evaluator._evaluate`` 3, 5, 7 and ``_exact_of`` 2, 4, 6 (``sympify``
    without ``strict=True``).

    User strings are never evaluated (``sympify`` of a string runs Python).
    ``strict=True`` refuses a string with ``SympifyError``, a ``ValueError``:
    the symbolic value is "undefined", which the instance check then finds
    contradicted by an exact reference that is defined (kind "contract");
    ``_exact_of`` of a string-returning metric is undefined (None).  Parsed,
    the string ``"1"`` would be the number 1 on both sides.
    """
    ev = P.Evaluator(lambda m: "1", lambda m: sp.Integer(1))
    with pytest.raises(P._Refused) as exc:
        ev(P.generic_matrix(1, [(0, 0)]))
    assert exc.value.kind == P.CONTRACT
    assert str(exc.value) == ("the symbolic evaluation of [[n00]] raises ValueError (SympifyError: '1') "
                              "but the exact one at [[1]] is defined: not undefined on the whole "
                              "support pattern")
    assert P._exact_of(lambda m: "1")(np.array([[1]])) is None
    assert P._exact_of(lambda m: sp.Integer(int(m.sum())))(np.array([[3]])) == 3


def test_a_formula_that_fails_on_symbols_is_refused_with_its_error():
    """``Evaluator._evaluate`` 15 (``matrix_text(None)``), 20 (``_short(str(exc))``:
    120 characters), 22 (101 characters).

    The refusal names the matrix and the error, cut to 100 characters and
    "..." (``_short(s, 100)``): an error text of 101 characters is cut.
    """
    def boom(m):
        raise RuntimeError("y" * 101)

    with pytest.raises(P._Refused) as exc:
        P.Evaluator(boom, lambda m: None)(P.generic_matrix(1, [(0, 0)]))
    assert exc.value.kind == P.NO_FORM
    assert str(exc.value) == "the symbolic evaluation of [[n00]] fails: RuntimeError: " + "y" * 100 + "..."


def test_a_value_not_certified_defined_is_refused_with_the_denominator():
    """``Evaluator._evaluate`` 31, 32, 33 (``matrix_text(None)``, ``_short(None)``,
    ``_short(None, 60)`` in the refusal).

    ``1/(n00 - n01)`` on ``[[n00, n01], [0, 0]]`` is undefined where n00 = n01,
    so ``defined`` does not certify it; it answers the expression it could not
    certify (the denominator's reciprocal, ``1/(n00 - n01)``), which the refusal
    quotes after the matrix and the value.
    """
    m = P.generic_matrix(2, [(0, 0), (0, 1)])
    v = 1 / (m[0, 0] - m[0, 1])
    assert str(P.defined(v)) == "1/(n00 - n01)"
    with pytest.raises(P._Refused) as exc:
        P.Evaluator(lambda x: 1 / (x[0, 0] - x[0, 1]), lambda x: None)(m)
    assert exc.value.kind == P.NOT_DERIVED
    assert str(exc.value) == ("f([[n00, n01], [0, 0]]) = 1/(n00 - n01) is not certified defined at every "
                              "instance (1/(n00 - n01))")


def test_short_keeps_120_characters_and_cuts_beyond():
    """``_short`` 1 (``n=121``) and 6 (``len(s) < n``): an expression's text of
    exactly 120 characters is kept whole; one of 121 is cut to 120 and "..."."""
    assert short(sp.Symbol("x" * 120)) == "x" * 120
    assert short(sp.Symbol("x" * 121)) == "x" * 120 + "..."


def test_scopes_refuse_negative_limits_with_their_message():
    """``scopes`` 7 (the message)."""
    with pytest.raises(ValueError, match="^every_k and positive_k must be non-negative$"):
        P.scopes(-1, 2)


# ---------------------------------------------------------------------------
# _prove: orientation in the refusals, vacuous scopes, the Proof's fields
# ---------------------------------------------------------------------------
def test_the_loss_in_a_refusal_is_the_metric_oriented_by_one():
    """``_prove`` 22 (``orient = 2`` for lower is better) and 27 (``-2`` for higher).

    The loss is ``f`` when lower is better and ``-f`` when higher is better
    (``orient`` = 1 or -1), and a refusal of identity quotes ``orient * (f - best)``.
    ``f = n01 - n10`` with best 0: on the pattern [[0, 0], [n10, 0]] the loss
    above the best is ``-n10`` (lower is better), refuted at n10 = 24 (the first
    seeded point); taken as higher is better, with best = hi = 0, on
    [[0, n01], [0, 0]] it is ``-n01``.  With orient 2 or -2 the message would
    read ``-2*n10`` / ``-2*n01``.
    """
    def f(m):
        return m[0, 1] - m[1, 0]

    (_, why, kind), = P.prove(f, "identity", bounds=(0, None), scopes=TWO, exact=_exact_of_expr(f)).refused
    assert kind == P.NOT_DERIVED
    assert why == "off-diagonal [[0, 0], [n10, 0]]: the loss above the best: -n10 is -24.0000 at {n10: 24}, not > 0"
    (_, why, _), = P.prove(f, "identity", better="higher", bounds=(None, 0), scopes=TWO,
                           exact=_exact_of_expr(f)).refused
    assert why == "off-diagonal [[0, n01], [0, 0]]: the loss above the best: -n01 is -24.0000 at {n01: 24}, not > 0"


def test_a_vacuous_scope_does_not_end_the_proof():
    """``_prove`` 71 (``break`` for ``continue`` after a vacuous scope).

    Monotonicity holds vacuously with one class; the next scope, every 2 x 2
    matrix (15 support patterns), is still proved for MAE (a one-step move toward
    the diagonal lowers the distance of one sample by 1: silva2018 eq. 2).
    Likewise unobserved_class is irrelevant on all-positive matrices and then
    proved on K = 2 (MAE is defined with an empty row).
    """
    p = P.prove(_mae, "monotonicity", scopes=[P.Scope(1, "every"), P.Scope(2, "every")])
    assert p.scopes == (P.Scope(1, "every"), P.Scope(2, "every")) and p.patterns == 15
    p = P.prove(_mae, "unobserved_class", scopes=[P.Scope(2, "positive"), P.Scope(2, "every")])
    assert p.scopes == (P.Scope(2, "every"),) and p.patterns == 15


def test_a_proof_names_its_property_and_its_wall_time():
    """``_prove`` 93 (``Proof(None, ...)``), 46, 55 (the time of a proof not
    attempted: ``perf_counter() + t0``, None) and 96 (None at the end).

    ``seconds`` is the wall time of the call: a float between 0 and the time
    measured around it.
    """
    for prop, bounds in (("scale", (None, None)), ("range", (None, None)), ("identity", (None, 1))):
        t0 = time.perf_counter()
        p = P.prove(_mae, prop, bounds=bounds, scopes=TWO)
        elapsed = time.perf_counter() - t0
        assert p.property == prop
        assert isinstance(p.seconds, float) and 0 <= p.seconds <= elapsed


def test_a_long_uncertified_part_is_cut_to_60_characters():
    """``Evaluator._evaluate`` 35 (``_short(60)``), 36 (``_short(w)``: 120
    characters), 37 (61).

    The part ``defined`` could not certify is quoted cut to 60 characters and
    "..." (``_short(w, 60)``); here it is the reciprocal of a polynomial that
    vanishes where n00 = n01 (so it is not certified), longer than 61 characters.
    """
    m = P.generic_matrix(2, [(0, 0), (0, 1)])

    def f(x):
        p, q = x[0, 0], x[0, 1]
        return 1 / (p**5 - q**5 + p**4 * q - p * q**4 + p**3 - q**3)

    w = str(P.defined(f(m)))
    assert len(w) >= 62
    with pytest.raises(P._Refused) as exc:
        P.Evaluator(f, lambda x: None)(m)
    v = str(f(m))
    assert len(v) <= 120
    assert str(exc.value) == (f"f([[n00, n01], [0, 0]]) = {v} is not certified defined at every "
                              f"instance ({w[:60]}...)")


def test_the_third_instance_is_the_documented_seeded_draw():
    """``Evaluator._instances`` 15 (``default_rng(None)``), 18 (``8 * K``), 39
    (values in 2..6), 40 (values in 1..7).

    The third instance of a pattern takes seeded values in 1..6 (module
    docstring), from ``numpy.random.default_rng(len(symbols) + 7 K)``: for the
    full 2 x 2 pattern (4 symbols, seed 18, symbols in name order) the draw is
    6, 3, 2, 5, so the instance is [[6, 3], [2, 5]]; the refusals name it, so
    the draw is part of the committed texts.  An exact reference that disagrees
    with the formula there alone (``N + 1`` instead of ``N``) is caught there,
    and the refusal names the matrix and both values.
    """
    assert np.random.default_rng(18).integers(1, 7, 4).tolist() == [6, 3, 2, 5]
    m = P.generic_matrix(2, [(0, 0), (0, 1), (1, 0), (1, 1)])

    def exact(x):
        n = int(x.sum())
        return sp.Integer(n + 1 if x.tolist() == [[6, 3], [2, 5]] else n)

    with pytest.raises(P._Refused) as exc:
        P.Evaluator(lambda x: sp.Add(*x.ravel()), exact)(m)
    assert exc.value.kind == P.CONTRACT
    assert str(exc.value) == ("f([[n00, n01], [n10, n11]]) = n00 + n01 + n10 + n11 gives 16 at "
                              "[[6, 3], [2, 5]], the exact evaluation 17")


def test_scope_refusals_name_the_bad_value():
    """``Scope.__post_init__`` 6, 9 (``ValueError(None)``): the messages."""
    with pytest.raises(ValueError, match="^kind must be 'every' or 'positive', got 'all'$"):
        P.Scope(2, "all")
    with pytest.raises(ValueError, match="^K must be at least 1, got 0$"):
        P.Scope(0, "every")


def test_instance_refusals_name_the_matrices_and_cut_the_message():
    """``Evaluator._instances`` 58, 62, 63, 65, 66 (the text of "raises ValueError
    but the exact one is defined": the matrix, the message cut to 80 characters
    and "...", the end), 67, 68 (the text of "the exact evaluation raises").

    A formula raising ``ValueError`` with a message of 81 characters, against
    an exact reference that is defined (1): refused at the first instance
    (every symbol 1) with the message cut at 80.  A formula that is defined
    (``n00``) against a reference undefined everywhere (None): refused, naming
    both.
    """
    m = P.generic_matrix(1, [(0, 0)])

    def raises(x):
        raise ValueError("z" * 81)

    with pytest.raises(P._Refused) as exc:
        P.Evaluator(raises, lambda x: sp.Integer(1))(m)
    assert exc.value.kind == P.CONTRACT
    assert str(exc.value) == ("the symbolic evaluation of [[n00]] raises ValueError (" + "z" * 80
                              + "...) but the exact one at [[1]] is defined: not undefined on the whole "
                              "support pattern")
    with pytest.raises(P._Refused) as exc:
        P.Evaluator(lambda x: x[0, 0], lambda x: None)(m)
    assert exc.value.kind == P.CONTRACT
    assert str(exc.value) == "f([[n00]]) = n00 but the exact evaluation at [[1]] raises ValueError"


def test_an_exact_reference_returning_a_string_is_never_parsed():
    """``_agree`` 8, 10, 11 (``sympify(b)`` without ``strict=True``).

    The exact reference is the caller's function; a string it returns is
    refused by SymPy's strict ``sympify`` (``SympifyError``), never parsed as
    the number 1 (which would agree with the formula's value 1).
    """
    with pytest.raises(sp.SympifyError):
        P.Evaluator(lambda x: sp.Integer(1), lambda x: "1")(P.generic_matrix(1, [(0, 0)]))
    with pytest.raises(sp.SympifyError):
        P._agree(sp.Integer(1), "1")


def test_agree_is_exact_for_two_rationals_and_to_the_tolerance_otherwise():
    """``_agree`` 12 (``or``), 34 (``<``), 37, 39 (the tolerance at 15 digits),
    42 (61 digits), 47 (``max(2, |b|)``), 19, 24 (``N(a, 61)``, ``N(b, 61)``).

    Two rationals agree only when equal; otherwise both are evaluated to 60
    digits and agree when ``|a - b| <= T max(1, |b|)``, ``T = Float("1e-50", 60)``:

    - ``r``, a rational within 1e-55 of sqrt(2), agrees with sqrt(2) (not both
      rational: the tolerance applies), and not with ``r + 1e-40``;
    - ``T`` itself and 0: the difference is exactly the tolerance (``<=``);
      ``T`` at 15 or 61 digits is another binary number, ``T61 < T < T15``
      (checked below): ``T`` agrees with 0, ``T15`` does not;
    - ``1.5e-50`` and 0: beyond the tolerance (``max(1, 0) = 1``);
    - ``u = Rational(T) + sqrt(2) 10^-112``: above ``T`` by less than the
      resolution of 60 digits, so its 60-digit value is ``T`` (agrees with 0,
      either side), while at 61 digits it is above ``T`` (checked below).
    """
    r = sp.Rational(str(sp.N(sp.sqrt(2), 70)))
    assert abs(r - sp.sqrt(2)) < sp.Rational(1, 10**55)
    assert P._agree(r, sp.sqrt(2)) and P._agree(sp.sqrt(2), r)
    assert not P._agree(r + sp.Rational(1, 10**40), sp.sqrt(2))
    third = sp.Rational(1, 3)
    assert P._agree(third, third) and not P._agree(third, third + sp.Rational(1, 10**60))
    T, T15, T61 = sp.Float("1e-50", 60), sp.Float("1e-50", 15), sp.Float("1e-50", 61)
    assert T61 < T < T15  # 1e-50 rounded to 203, 53 and 206 bits
    assert P._agree(T, 0)  # exactly the tolerance; not within a tolerance of T61
    assert not P._agree(T15, 0)  # beyond T, within a tolerance of T15
    assert not P._agree(sp.Float("1.5e-50", 60), 0)  # beyond T, within 2 T
    u = sp.Rational(T) + sp.sqrt(2) * sp.Integer(10) ** -112
    assert sp.N(u, 60) <= T < sp.N(u, 61)
    assert P._agree(u, 0) and P._agree(0, u)
