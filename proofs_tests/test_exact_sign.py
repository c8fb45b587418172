"""The one rule for exact signs and equality (exactfloor.exact_sign, issue 22 item 2).

Every expected sign below is stated with its source: an algebraic identity
(derived in the comment), a closed form of a small difference, or IEEE 754
(what float64 computes, to show why float64 cannot decide the case).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from exactfloor import exact_sign
from exactfloor.errors import UndecidedError, UndecidedSign
from exactfloor.exact_sign import DEFAULT_POLICY, ExactPolicy, compare, enclose, is_zero, sign
from exactfloor.exact_sign import NEG, POS, ZERO

s2, s3, s6 = sp.sqrt(2), sp.sqrt(3), sp.sqrt(6)
TINY = ExactPolicy(start_dps=10, max_dps=50, prove=False)


def _unevaluated_sqrt2_sqrt3():
    return sp.Mul(s2, s3, evaluate=False)


# ---------------------------------------------------------------------------
# exact zeros that float64 calls nonzero
# ---------------------------------------------------------------------------
ZEROS = {
    # sqrt(2) sqrt(3) = sqrt(6) (product of square roots of positive numbers)
    "sqrt2*sqrt3 - sqrt6": (lambda: _unevaluated_sqrt2_sqrt3() - s6,
                            math.sqrt(2) * math.sqrt(3) - math.sqrt(6)),
    # (sqrt2 + sqrt3)^2 = 2 + 2 sqrt6 + 3
    "(sqrt2+sqrt3)^2 - 5 - 2 sqrt6": (
        lambda: sp.Add(sp.Pow(s2 + s3, 2, evaluate=False), -5, -2 * s6, evaluate=False),
        (math.sqrt(2) + math.sqrt(3)) ** 2 - 5 - 2 * math.sqrt(6)),
    # denesting: ((sqrt6 + sqrt2)/2)^2 = (8 + 2 sqrt12)/4 = 2 + sqrt3, both sides positive
    "sqrt(2+sqrt3) - (sqrt6+sqrt2)/2": (
        lambda: sp.sqrt(2 + s3) - (s6 + s2) / 2,
        math.sqrt(2 + math.sqrt(3)) - (math.sqrt(6) + math.sqrt(2)) / 2),
}


@pytest.mark.parametrize("name", sorted(ZEROS))
def test_exact_zeros_that_float64_calls_nonzero(name):
    make, as_float = ZEROS[name]
    assert as_float != 0  # IEEE 754 double rounding leaves a few ulps
    x = make()
    assert sign(x) == 0 and is_zero(x)
    assert compare(x + 1, 1) == 0


def test_log_identity_is_zero():
    # log 8 = log 2^3 = 3 log 2 (exact), proved by the cancellation over log of primes
    x = sp.log(8) - 3 * sp.log(2)
    assert sign(x) == 0 and is_zero(x)
    assert sign(sp.log(6) - sp.log(2) - sp.log(3)) == 0  # log 6 = log 2 + log 3


def test_transcendental_zero_needs_the_proof_step():
    # sin^2 + cos^2 = 1; no interval excludes 0, the cheap tests do not see it
    x = sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1
    assert sign(x) == 0
    with pytest.raises(UndecidedError):
        sign(x, ExactPolicy(prove=False))


def test_denesting_zero_needs_the_minimal_polynomial():
    # the denesting identity above is not seen by expand/together (step 3): the
    # proof step (minimal polynomial X) decides it, without it the policy gives up
    x = ZEROS["sqrt(2+sqrt3) - (sqrt6+sqrt2)/2"][0]()
    with pytest.raises(UndecidedError, match="at 300 digits"):
        sign(x, ExactPolicy(prove=False))
    assert sign(x, ExactPolicy(start_dps=10, max_dps=10)) == 0


# ---------------------------------------------------------------------------
# tiny nonzeros that float64 calls zero
# ---------------------------------------------------------------------------
def test_tiny_positive_difference_float64_calls_zero():
    # sqrt(10^20 + 1) - 10^10 = 1 / (sqrt(10^20 + 1) + 10^10) ~ 5e-11 > 0
    assert math.sqrt(1e20 + 1) - 1e10 == 0.0  # float64: 10^20 + 1 rounds to 10^20
    x = sp.sqrt(10**20 + 1) - 10**10
    assert sign(x) == 1 and not is_zero(x)
    assert sign(-x) == -1
    assert compare(sp.sqrt(10**20 + 1), 10**10) == 1
    assert compare(10**10, sp.sqrt(10**20 + 1)) == -1


def test_tiny_nonzero_below_float_resolution():
    # 1 + 10^-40 sqrt 2 > 1 (a positive term); float64 rounds it to 1
    assert 1 + 1e-40 * math.sqrt(2) == 1.0
    t = sp.Rational(1, 10**40) * s2
    assert compare(1 + t, 1) == 1 and compare(1 - t, 1) == -1
    assert sign(t) == 1 and sign(-t) == -1


def test_escalation_is_needed_and_capped():
    # sqrt(10^100 + 1) - 10^50 = 1/(sqrt(10^100+1) + 10^50) ~ 5e-51: at 30 or 60
    # digits the enclosure of the terms (~10^50) is wider than the difference
    x = sp.sqrt(10**100 + 1) - 10**50
    assert sign(x) == 1  # default policy: 30, 60, 120 digits
    with pytest.raises(UndecidedError, match="at 60 digits"):
        sign(x, ExactPolicy(start_dps=30, max_dps=60, prove=False))
    assert sign(x, ExactPolicy(start_dps=30, max_dps=120, prove=False)) == 1
    # a one-step policy at 120 digits decides it too (the cap is reached)
    assert sign(-x, ExactPolicy(start_dps=120, max_dps=120, prove=False)) == -1


def test_cap_reached_raises_undecided_never_a_guess():
    # sqrt(10^200 + 1) - 10^100 ~ 5e-101 needs > 100 digits; a 50-digit cap gives up
    x = sp.sqrt(10**200 + 1) - 10**100
    with pytest.raises(UndecidedError, match="cannot decide the sign"):
        sign(x, TINY)
    # the proof step cannot prove a nonzero number 0: still undecided
    with pytest.raises(UndecidedError):
        sign(x, ExactPolicy(start_dps=10, max_dps=50, prove=True))
    with pytest.raises(UndecidedError):
        compare(sp.sqrt(10**200 + 1), 10**100, TINY)
    with pytest.raises(UndecidedError):
        is_zero(x, TINY)
    assert sign(x) == 1  # the default cap (300 digits) decides it


# ---------------------------------------------------------------------------
# rationals, floats, inputs
# ---------------------------------------------------------------------------
def test_rationals_are_exact_without_evaluation(monkeypatch):
    monkeypatch.setattr(exact_sign, "_enclose", lambda *a: pytest.fail("evaluated"))
    monkeypatch.setattr(exact_sign, "_expr", lambda *a: pytest.fail("made a SymPy number"))
    assert [sign(v) for v in (Fraction(-1, 3), 0, 7, sp.Rational(2, 5), sp.Integer(0))] == \
        [-1, 0, 1, 1, 0]
    assert compare(Fraction(1, 3), Fraction(1, 3)) == 0
    assert compare(Fraction(1, 3), sp.Rational(1, 2)) == -1
    assert compare(2, Fraction(3, 2)) == 1
    # 0.1 is the binary fraction 3602879701896397 / 2**55 > 1/10 (IEEE 754)
    assert compare(0.1, Fraction(1, 10)) == 1 and compare(0.5, Fraction(1, 2)) == 0
    assert sign(sp.Integer(3) - 3) == 0


def test_sympy_float_is_its_exact_binary_value():
    # Float(0.1, 5) is 838861 / 2^23 (its mpf mantissa and exponent) > 1/10;
    # SymPy's own Float(0.1, 5) - 1/10 rounds the difference to 0 at 5 digits
    f5 = sp.Float(0.1, 5)
    assert f5._mpf_[1:3] == (838861, -23)
    assert compare(f5, sp.Rational(1, 10)) == 1 and compare(sp.Rational(1, 10), f5) == -1
    assert compare(f5, Fraction(838861, 2**23)) == 0 and sign(-f5) == -1
    # inside an expression: enclosed at the Float's own precision (mp.prec is 53)
    assert sign(sp.Add(sp.Float(1, 40), sp.Float(2, 40) ** -100, -1, evaluate=False)) == 1
    # the Float 1 + 2^-100 at 40 digits is > 1 (mpmath.mp.prec is 53: not rounded)
    f = sp.Float(1, 40) + sp.Float(2, 40) ** -100
    assert sign(f - 1) == 1
    assert sign(sp.Float("-1e-60", 80)) == -1


@pytest.mark.parametrize("bad", ["1/2", b"1", True, float("nan"), float("inf"), sp.oo, sp.nan,
                                 sp.zoo, sp.Symbol("x"), sp.I, 1 + sp.sqrt(-2), sp.log(-2),
                                 object()])
def test_non_real_numbers_are_refused(bad):
    with pytest.raises(ValueError):
        sign(bad)


def test_strings_are_refused_never_parsed():
    with pytest.raises(ValueError, match="strings are not parsed"):
        sign("__import__('os')")
    with pytest.raises(ValueError, match="strings are not parsed"):
        compare("1", sp.sqrt(2))


class _PrintsAsTwo:
    def __str__(self):
        return "2"


def test_objects_are_not_read_through_their_text():
    # an object is refused and named, never read through str(obj) = "2"
    with pytest.raises(ValueError, match=r"^_PrintsAsTwo <.* is not a real number"):
        sign(_PrintsAsTwo())


def test_python_numbers_enter_differences_exactly():
    # 0.1 is 3602879701896397 / 2^55 exactly (IEEE 754); b exceeds it by 1e-30 sqrt2.
    # A SymPy Float(0.1) in the difference would round it at 15 digits
    b = sp.Rational(3602879701896397, 2**55) + sp.Rational(1, 10**30) * s2
    assert compare(0.1, b) == -1 and compare(b, 0.1) == 1
    # c = 0.1 + 10^-40 - 10^-50 sqrt2 > 0.1; rounded to 15 digits the rational part
    # of 0.1 - c would vanish and leave + 10^-50 sqrt2 (the wrong sign)
    c = sp.Rational(3602879701896397, 2**55) + sp.Rational(1, 10**40) - sp.Rational(1, 10**50) * s2
    assert compare(0.1, c) == -1 and compare(c, 0.1) == 1
    # 1/3 < sqrt(2)/4, as (4/3)^2 = 16/9 < 2
    assert compare(Fraction(1, 3), s2 / 4) == -1 and compare(s2 / 4, Fraction(1, 3)) == 1


def test_complex_numbers_are_named():
    with pytest.raises(ValueError, match="-oo is not a finite real number"):
        sign(-sp.oo)
    with pytest.raises(ValueError, match="is not a finite real number"):
        compare(s2, -sp.oo)
    with pytest.raises(ValueError, match="True is not a real number"):
        sign(True)
    with pytest.raises(ValueError, match="nan is not a finite real number"):
        sign(float("nan"))
    with pytest.raises(ValueError, match="-inf is not a finite real number"):
        compare(1, float("-inf"))
    with pytest.raises(ValueError, match="inf is not a finite real number"):
        sign(float("inf"))
    with pytest.raises(ValueError, match="I is not a real number"):
        sign(sp.I)
    with pytest.raises(ValueError, match="has symbols"):
        sign(sp.Symbol("x") + 1)
    with pytest.raises(ValueError, match="zoo is not a finite real number"):
        sign(sp.zoo)


# ---------------------------------------------------------------------------
# the policy object
# ---------------------------------------------------------------------------
def test_policy_defaults():
    # the documented defaults (module docstring of exactfloor.exact_sign)
    assert (DEFAULT_POLICY.start_dps, DEFAULT_POLICY.max_dps, DEFAULT_POLICY.prove) == (30, 300, True)
    assert ExactPolicy() == DEFAULT_POLICY
    assert DEFAULT_POLICY.precisions() == (30, 60, 120, 240, 300)
    assert ExactPolicy(10, 10).precisions() == (10,)
    assert ExactPolicy(10, 40).precisions() == (10, 20, 40)
    assert ExactPolicy(7, 20).precisions() == (7, 14, 20)


@pytest.mark.parametrize("kw, msg", [({"start_dps": 0}, "start_dps"), ({"max_dps": 0}, "max_dps"),
                                     ({"start_dps": 2.5}, "start_dps"),
                                     ({"start_dps": True}, "start_dps"),
                                     ({"start_dps": 50, "max_dps": 40}, "max_dps")])
def test_policy_validation(kw, msg):
    with pytest.raises(ValueError, match=msg):
        ExactPolicy(**kw)


def test_policy_of_one_digit_is_allowed():
    assert ExactPolicy(1, 1).precisions() == (1,)
    assert sign(s2 - 1, ExactPolicy(1, 1, prove=False)) == 1


# ---------------------------------------------------------------------------
# enclosures
# ---------------------------------------------------------------------------
ENCLOSED = [
    # (expression, its value to 40 digits by mpmath, the source)
    (sp.sqrt(2), lambda: mpmath.sqrt(2)),
    (sp.pi - 3, lambda: mpmath.pi - 3),
    (sp.pi, lambda: +mpmath.pi),
    (sp.E, lambda: mpmath.e),
    (sp.exp(sp.Rational(1, 2)), lambda: mpmath.exp(0.5)),
    (sp.log(3), lambda: mpmath.log(3)),
    (sp.Integer(2) ** sp.Rational(1, 3), lambda: mpmath.cbrt(2)),
    (sp.Integer(3) ** sp.Rational(-2, 3), lambda: mpmath.mpf(3) ** (mpmath.mpf(-2) / 3)),
    (1 / (s2 - 1), lambda: 1 / (mpmath.sqrt(2) - 1)),
    ((s2 - 2) ** 3, lambda: (mpmath.sqrt(2) - 2) ** 3),
    (sp.Abs(1 - s3, evaluate=False), lambda: mpmath.sqrt(3) - 1),
    (sp.Abs(s3 - 1, evaluate=False), lambda: mpmath.sqrt(3) - 1),
    (sp.Abs(s3 - sp.Rational(17, 10) - sp.Rational(1, 10**40), evaluate=False),
     lambda: mpmath.sqrt(3) - mpmath.mpf(17) / 10 - mpmath.mpf(10) ** -40),
    (sp.Max(s2, sp.pi / 2, evaluate=False), lambda: mpmath.pi / 2),
    (sp.Min(s2, sp.pi / 2, evaluate=False), lambda: mpmath.sqrt(2)),
    (sp.acos(sp.Rational(1, 3)), lambda: mpmath.acos(mpmath.mpf(1) / 3)),
    (sp.Float("0.1", 30), lambda: mpmath.mpf(sp.Float("0.1", 30)._mpf_)),
]


@pytest.mark.parametrize("i", range(len(ENCLOSED)))
def test_enclosures_contain_the_value_and_are_narrow(i):
    e, ref = ENCLOSED[i]
    box = enclose(e, 30)
    with mpmath.workdps(60):
        v = ref()
        assert v in box
        assert box.b - box.a < max(1, abs(v)) * mpmath.mpf(10) ** -25
        assert box.a <= box.b


def test_rational_enclosure_takes_no_sympy_number(monkeypatch):
    monkeypatch.setattr(exact_sign, "_expr", lambda *a: pytest.fail("made a SymPy number"))
    box = enclose(Fraction(1, 3), 20)
    with mpmath.workdps(40):
        assert mpmath.mpf(1) / 3 in box and float(box.delta) < 1e-20


def test_leaves_evalf_cannot_enclose():
    # atan(sin^2 1 + cos^2 1 - 1) = atan(0) = 0: SymPy's evalf reaches no relative
    # accuracy (strict: PrecisionExhausted), so no enclosure; not strict it returns
    # a value ~ -7e-139 that is only noise
    z = sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1
    assert enclose(sp.atan(z), 20) is None
    assert sign(sp.atan(z)) == 0  # the proof step


@pytest.mark.parametrize("leaf, value", [
    # a root of x^5 - 10^40 x - 1 near 10^10 (x^4 ~ 10^40); acos(1/3) ~ 1.23 (mpmath)
    (sp.CRootOf(sp.Symbol("x") ** 5 - 10**40 * sp.Symbol("x") - 1, 2), mpmath.mpf(10) ** 10),
    (sp.acos(sp.Rational(1, 3)), mpmath.acos(mpmath.mpf(1) / 3)),
    (sp.atan(sp.Rational(1, 3)), mpmath.atan(mpmath.mpf(1) / 3)),
])
def test_evalf_leaves_are_widened_by_the_documented_radius(leaf, value):
    # module docstring: an evalf leaf is widened by 10**-dps relative (absolute
    # below 1): the enclosure is value +- max(|value|, 1) 10^-dps
    box = enclose(leaf, 20)
    with mpmath.workdps(50):
        r = max(abs(value), 1) * mpmath.mpf(10) ** -20
        assert abs(box.delta - 2 * r) < r / 2  # (plus the outward rounding at 20 digits)
        assert abs(box.mid - value) < r


def test_cheap_zero_step_comes_after_the_first_enclosure(monkeypatch):
    # module docstring, step 3: once, right after the first enclosure
    calls = []
    real = exact_sign._enclose
    monkeypatch.setattr(exact_sign, "_enclose", lambda e, dps: calls.append(dps) or real(e, dps))
    x = ZEROS["(sqrt2+sqrt3)^2 - 5 - 2 sqrt6"][0]()
    assert sign(x) == 0 and calls == [30]


ACOS = sp.acos(sp.Rational(1, 3))


@pytest.mark.parametrize("e, ref", [
    # leaves (evalf) nested in every node kind, each in the first and a later place
    (sp.Add(ACOS, s2, evaluate=False), lambda: mpmath.acos(mpmath.mpf(1) / 3) + mpmath.sqrt(2)),
    (sp.Add(s2, ACOS, evaluate=False), lambda: mpmath.acos(mpmath.mpf(1) / 3) + mpmath.sqrt(2)),
    (sp.Mul(ACOS, s2, evaluate=False), lambda: mpmath.acos(mpmath.mpf(1) / 3) * mpmath.sqrt(2)),
    (sp.Mul(s2, ACOS, evaluate=False), lambda: mpmath.acos(mpmath.mpf(1) / 3) * mpmath.sqrt(2)),
    (ACOS ** 3, lambda: mpmath.acos(mpmath.mpf(1) / 3) ** 3),
    (sp.sqrt(ACOS), lambda: mpmath.sqrt(mpmath.acos(mpmath.mpf(1) / 3))),
    (sp.exp(ACOS), lambda: mpmath.exp(mpmath.acos(mpmath.mpf(1) / 3))),
    (sp.log(ACOS), lambda: mpmath.log(mpmath.acos(mpmath.mpf(1) / 3))),
    (sp.log(s2 - 1), lambda: mpmath.log(mpmath.sqrt(2) - 1)),  # a log of a number in (0, 1)
    (sp.Abs(ACOS - 2, evaluate=False), lambda: 2 - mpmath.acos(mpmath.mpf(1) / 3)),
    (sp.Max(ACOS, 1, evaluate=False), lambda: mpmath.acos(mpmath.mpf(1) / 3)),
    # roots of bases in (0, 1): (sqrt2 - 1)^(1/3), (sqrt2 - 1)^(1/2)
    ((s2 - 1) ** sp.Rational(1, 3), lambda: mpmath.cbrt(mpmath.sqrt(2) - 1)),
    (sp.sqrt(s2 - 1), lambda: mpmath.sqrt(mpmath.sqrt(2) - 1)),
])
def test_nested_leaves_are_enclosed_at_the_working_precision(e, ref):
    box = enclose(e, 30)
    with mpmath.workdps(60):
        v = ref()
        assert v in box and box.b - box.a < abs(v) * mpmath.mpf(10) ** -25


def _node(e, **given):
    """The enclosure rule of one node applied to given intervals of its arguments."""
    iv = mpmath.iv
    memo = {sp.Symbol(k): iv.mpf(v) for k, v in given.items()}
    old = iv.prec
    try:
        iv.dps = 20
        out = exact_sign._iv(e, memo)
        return [float(out.a), float(out.b)]
    finally:
        iv.prec = old


X, Y = sp.symbols("x y")


def test_node_rules_on_given_intervals():
    # interval arithmetic by hand: |[-3, 1]| = [0, 3], |[-1, 3]| = [0, 3], ...
    assert _node(sp.Abs(X), x=[-3, 1]) == [0, 3]
    assert _node(sp.Abs(X), x=[-1, 3]) == [0, 3]
    assert _node(sp.Abs(X), x=[-3, -1]) == [1, 3]
    assert _node(sp.Abs(X), x=[1, 3]) == [1, 3]
    assert _node(sp.Abs(X), x=[0, 2]) == [0, 2] and _node(sp.Abs(X), x=[-2, 0]) == [0, 2]
    assert _node(sp.Max(X, Y), x=[-3, 1], y=[0, 2]) == [0, 2]
    assert _node(sp.Min(X, Y), x=[-3, 1], y=[0, 2]) == [-3, 1]
    assert _node(X ** 2, x=[-3, 1]) == [0, 9]
    assert _node(X ** -2, x=[1, 2]) == [0.25, 1]
    assert _node(X ** sp.Rational(1, 3), x=[0, 8]) == [0, 2]
    assert _node(sp.sqrt(X), x=[0, 4]) == [0, 2]
    assert _node(sp.log(X), x=[1, 1]) == [0, 0]
    assert _node(sp.exp(X), x=[0, 0]) == [1, 1]
    assert _node(X + Y, x=[-3, 1], y=[0, 2]) == [-3, 3]
    assert _node(X * Y, x=[-3, 1], y=[0, 2]) == [-6, 2]
    for e, x in [(X ** -1, [-3, 1]), (X ** -1, [0, 1]), (X ** sp.Rational(1, 3), [-1, 1]),
                 (sp.sqrt(X), [-1, 4]), (sp.log(X), [0, 1]), (sp.log(X), [-1, 1])]:
        with pytest.raises(exact_sign._NoEnclosure):
            _node(e, x=x)


def test_powers_of_intervals_around_zero():
    # s = sqrt3 - 1.7320508075688772935274463415058723669 ~ 7.0e-38 > 0 (mpmath at 60
    # digits); at 20 digits its interval straddles 0
    inner = s3 - sp.Rational(17320508075688772935274463415058723669, 10**37)
    assert 0 in enclose(inner, 20)
    cube = enclose(sp.Pow(inner, 3, evaluate=False), 20)  # s^3: an interval around 0
    assert cube is not None and 0 in cube and cube.b - cube.a < mpmath.mpf(10) ** -50
    assert enclose(sp.Pow(inner, -1, evaluate=False), 20) is None  # 1/s: no bound
    assert enclose(sp.Pow(inner, sp.Rational(1, 3), evaluate=False), 20) is None
    assert sign(sp.Pow(inner, 3, evaluate=False)) == 1
    # the square root of an exact 0 written apart is the interval [0, 0]
    zero = sp.Add(sp.Rational(1, 4), sp.Rational(-1, 4), sp.Mul(0, s2, evaluate=False),
                  evaluate=False)
    root = enclose(sp.Pow(zero, sp.Rational(1, 2), evaluate=False), 20)
    assert root is not None and root.a == 0 == root.b


def test_abs_of_an_interval_around_zero_encloses():
    # |sqrt3 - 1.7320508075688772935274463415058723669 + 10^-30|: an inner interval
    # that straddles 0 at 20 digits gives [0, hi]
    inner = s3 - sp.Rational(17320508075688772935274463415058723669, 10**37)
    box = enclose(sp.Abs(inner, evaluate=False), 20)
    assert box.a == 0 and box.b > 0 and box.b < mpmath.mpf(10) ** -15


@pytest.mark.parametrize("e", [sp.Pow(sp.log(2) - sp.log(2) * 1, -1, evaluate=False),
                               sp.log(1 - s2), sp.sqrt(1 - s2), sp.I + 1,
                               sp.Pow(1 - s2, sp.Rational(1, 3), evaluate=False)])
def test_no_enclosure_of_what_is_not_a_real_number(e):
    assert enclose(e, 20) is None


def test_zero_width_enclosure_proves_zero(monkeypatch):
    # the difference of two equal rationals written apart is [0, 0] in interval arithmetic
    x = sp.Add(sp.Rational(1, 4), sp.Rational(-1, 4), sp.Mul(0, s2, evaluate=False),
               evaluate=False)
    assert enclose(x, 20).a == 0 == enclose(x, 20).b
    monkeypatch.setattr(exact_sign, "_cheap_zero", lambda e: pytest.fail("not needed"))
    assert exact_sign._interval_sign(mpmath.iv.mpf([0, 0])) == 0
    assert exact_sign._interval_sign(mpmath.iv.mpf([-1, 1])) is None
    assert exact_sign._interval_sign(mpmath.iv.mpf([0, 1])) is None
    assert exact_sign._interval_sign(mpmath.iv.mpf([-1, 0])) is None
    assert exact_sign._interval_sign(mpmath.iv.mpf([1, 2])) == 1
    assert exact_sign._interval_sign(mpmath.iv.mpf([-2, -1])) == -1
    assert exact_sign._interval_sign(None) is None
    assert sign(x) == 0


def test_known_boxes_decide_first(monkeypatch):
    iv = mpmath.iv
    calls = []
    real = exact_sign.sign
    monkeypatch.setattr(exact_sign, "sign", lambda *a, **k: calls.append(a) or real(*a, **k))
    a, b = iv.mpf([1, 2]), iv.mpf([3, 4])
    # separated boxes decide without looking at the numbers (here deliberately wrong
    # boxes, to show they are used: sqrt2 > 1 exactly)
    assert compare(s2, 1, boxes=(a, b)) == -1 and not calls
    assert compare(s2, 1, boxes=(b, a)) == 1 and not calls
    # overlapping boxes, or a missing one, fall back to the rule
    assert compare(s2, 1, boxes=(a, a)) == 1 and len(calls) == 1
    assert compare(s2, 1, boxes=(a, None)) == 1 and len(calls) == 2
    assert compare(s2, 1, boxes=(None, a)) == 1 and len(calls) == 3
    assert sign(s2 - 1, box=iv.mpf([-2, -1])) == -1  # a known box is trusted
    assert sign(s2 - 1, box=iv.mpf([-2, 1])) == 1


def test_boxes_are_subtracted_at_the_policy_precision():
    # two boxes 10^-40 apart at 50 digits: subtracting them at 53 bits would round
    # outward to overlap; at the policy's 50 digits they are separated
    pol = ExactPolicy(start_dps=50, max_dps=50, prove=False)
    x, y = sp.Integer(1) + sp.Rational(1, 10**40) * s2, sp.Integer(1)
    bx, by = enclose(x, 50), enclose(y, 50)
    assert compare(x, y, pol, boxes=(bx, by)) == 1
    assert compare(y, x, pol, boxes=(by, bx)) == -1


def test_cheap_zero_proofs():
    assert exact_sign._cheap_zero(sp.Add(sp.Pow(s2 + s3, 2, evaluate=False), -5, -2 * s6,
                                         evaluate=False))
    assert exact_sign._cheap_zero(sp.log(8) - 3 * sp.log(2))
    # log 6 = log 2 + log 3 and log 12 = 2 log 2 + log 3: only with the integers factored
    assert exact_sign._cheap_zero(sp.log(6) - sp.log(2) - sp.log(3))
    assert exact_sign._cheap_zero(sp.log(12) - 2 * sp.log(2) - sp.log(3))
    assert not exact_sign._cheap_zero(sp.log(12) - sp.log(2) - sp.log(3))
    assert not exact_sign._cheap_zero(sp.log(8) - 2 * sp.log(2))
    assert not exact_sign._cheap_zero(sp.log(s2) - sp.log(3))  # log(sqrt2): not a rational argument
    assert not exact_sign._cheap_zero(s2 - 1)
    assert not exact_sign._cheap_zero(sp.log(sp.Rational(-1, 2), evaluate=False) + 1)


def test_proof_step():
    assert exact_sign._proved_zero(ZEROS["sqrt(2+sqrt3) - (sqrt6+sqrt2)/2"][0]())
    assert not exact_sign._proved_zero(s2 - 1)
    assert exact_sign._proved_zero(sp.sin(1) ** 2 + sp.cos(1) ** 2 - 1)
    assert not exact_sign._proved_zero(sp.sin(1) - 1)
    assert not exact_sign._proved_zero(sp.sin(1) ** 2 + sp.cos(1) ** 2 - 2)


# ---------------------------------------------------------------------------
# one exception hierarchy
# ---------------------------------------------------------------------------
def test_one_undecided_hierarchy():
    import analytic.engines._pl
    from analytic.engines._pl import sign_for_all
    from exactfloor import certificates

    assert analytic.engines._pl.UndecidedSign is UndecidedSign
    assert issubclass(UndecidedSign, UndecidedError) and issubclass(UndecidedError, ArithmeticError)
    # deliberately also a ValueError (callers catch it as one; exactfloor/errors.py)
    assert issubclass(UndecidedSign, ValueError)
    assert issubclass(certificates._TooLarge, UndecidedError)
    K = sp.Symbol("K", integer=True, positive=True)
    with pytest.raises(UndecidedError) as info:
        sign_for_all(K - 5, K, 3)
    assert isinstance(info.value, UndecidedSign) and info.value.threshold == 6


# ---------------------------------------------------------------------------
# every former site routes through the one module
# ---------------------------------------------------------------------------
@pytest.fixture
def spy(monkeypatch):
    calls = []
    real_sign, real_compare = exact_sign.sign, exact_sign.compare

    def sign_spy(*a, **k):
        calls.append(("sign", a))
        return real_sign(*a, **k)

    def compare_spy(*a, **k):
        calls.append(("compare", a))
        return real_compare(*a, **k)

    monkeypatch.setattr(exact_sign, "sign", sign_spy)
    monkeypatch.setattr(exact_sign, "compare", compare_spy)
    return calls


def test_guarded_routes_through_the_rule(spy, monkeypatch):
    from exactfloor.guarded import GUARDED, Guarded

    a, b = Guarded.of(s2), Guarded.of(2) / Guarded.of(s2)
    assert a == b and spy and spy[0][0] == "compare"
    assert GUARDED.policy is DEFAULT_POLICY
    # the policy is the Guarded one: a small cap gives up on a 5e-101 difference
    monkeypatch.setattr(Guarded, "policy", TINY)
    with pytest.raises(UndecidedError):
        Guarded.of(sp.sqrt(10**200 + 1)).__lt__(Guarded.of(10**100))
    assert GUARDED.policy is TINY


def test_guarded_infinity_and_negation():
    from exactfloor.guarded import GUARDED, Guarded

    inf = GUARDED.inf
    assert Guarded.of(s2) < inf and inf > Guarded.of(10**30) and not inf < inf
    assert abs(Guarded.of(1 - s2)) == Guarded.of(s2 - 1)
    assert -Guarded.of(s2) < 0 < Guarded.of(s2)
    assert (inf + 1).x == sp.oo


def test_exact_arithmetic_same_routes_through_the_rule(spy):
    from exactfloor.arith import ExactArithmetic

    ctx = ExactArithmetic()
    assert ctx.same(_unevaluated_sqrt2_sqrt3(), s6) and spy[0][0] == "compare"
    n = len(spy)
    assert ctx.same(s2, s2) and len(spy) == n  # identical: no evaluation
    assert not ctx.same(sp.sqrt(10**20 + 1), 10**10)
    with pytest.raises(UndecidedError):
        ExactArithmetic(policy=TINY).same(sp.sqrt(10**200 + 1), 10**100)
    assert ExactArithmetic(policy=TINY).policy is TINY


def test_auditor_routes_through_the_rule(spy):
    import numpy as np

    from analytic.properties.exact import ExactContext, compare as vcompare, exceeds_sum, value_of

    a, b = value_of(sp.sqrt(10**20 + 1)), value_of(10**10)
    assert vcompare(a, b) == 1 and spy[-1][0] == "compare"
    assert exceeds_sum(a, b, value_of(Fraction(1, 10**11))) and len(spy) == 2
    assert not exceeds_sum(b, a, value_of(0))
    with pytest.raises(UndecidedError):
        vcompare(value_of(sp.sqrt(10**200 + 1)), value_of(10**100), TINY)
    with pytest.raises(UndecidedError):
        exceeds_sum(value_of(sp.sqrt(10**200 + 1)), value_of(10**100), value_of(0), TINY)
    vals = {0: sp.sqrt(10**200 + 1), 1: sp.Integer(10**100)}
    ctx = ExactContext(lambda m: vals[int(m[0, 0])], "lower", (None, None), policy=TINY)
    m0, m1 = np.array([[0, 1], [1, 1]]), np.array([[1, 1], [1, 1]])
    with pytest.raises(UndecidedError):
        ctx.loss_cmp(ctx.value(m0), ctx.value(m1))
    with pytest.raises(UndecidedError):
        ctx.same(m0, m1)
    default = ExactContext(lambda m: vals[int(m[0, 0])], "lower", (None, None))
    assert default.policy is DEFAULT_POLICY
    assert default.loss_cmp(default.value(m0), default.value(m1)) == 1
    assert default.same(m0, m1) is not None


def test_algebraic_routes_through_the_rule(spy):
    from analytic.engines._algebraic import real_roots_fractions, root_branches

    x = sp.Symbol("x")
    # x^3 - 2: one real root (discriminant q^2/4 + p^3/27 = 1 > 0), Cardano terms 2 and 0
    # -> the second vanishes: undecided by design
    with pytest.raises(UndecidedError, match="Cardano term vanishes"):
        root_branches(sp.Poly(x**3 - 2, x), x)
    assert any(k == "sign" for k, _ in spy)
    # x^3 - 3x + 1: three real roots (D = 1/4 - 1 < 0)
    mode, brs = root_branches(sp.Poly(x**3 - 3 * x + 1, x), x)
    assert mode == ("three real roots",) and len(brs) == 3
    # x^3 + x - 1: D = 1/4 + 1/27 > 0, one real root ~0.6823
    mode, brs = root_branches(sp.Poly(x**3 + x - 1, x), x)
    assert mode[0] == "one real root" and abs(float(brs[0]) - 0.6823278038280193) < 1e-12
    # x^3 - 3x + 2 = (x - 1)^2 (x + 2): D = 0, a double root
    with pytest.raises(UndecidedError, match="double root"):
        root_branches(sp.Poly(x**3 - 3 * x + 2, x), x)
    # a quadratic root 10^-70 from 0: x^2 + x - 10^-70 has the roots
    # (-1 +- sqrt(1 + 4e-70)) / 2, one ~1e-70 > 0 (product of the roots -1e-70 < 0)
    n = len(spy)
    got = real_roots_fractions([Fraction(1), Fraction(1), Fraction(-1, 10**70)])
    assert len(got) == 1 and 0 < got[0] < 1e-69 and len(spy) > n


def test_certificates_route_through_the_rule(spy):
    from exactfloor import certificates

    certificates._sign.cache_clear()
    assert certificates.sign(sp.Rational(-3, 7)) == NEG and spy[-1][0] == "sign"
    assert certificates.sign(sp.Float(2.5)) == POS
    assert certificates.sign(sp.Integer(0)) == ZERO
    a = sp.Symbol("a", integer=True, positive=True)
    n = len(spy)
    ok, why = certificates.equal(sp.sqrt(a + 10**20) , sp.sqrt(a) * 10**10)
    assert not ok and "differ" in why and any(k == "compare" for k, _ in spy[n:])
    # a difference of ~5e-31 at a = 1 (sqrt(10^60 + 1) - 10^30) is below the 30-digit
    # probe: no refutation, and the symbolic test does not prove it either
    ok, why = certificates.equal(sp.sqrt(a + 10**60), sp.Integer(10**30))
    assert not ok and "differ" not in why
    assert certificates.equal(_unevaluated_sqrt2_sqrt3() * a, s6 * a)[0]
    assert certificates.PROBE_POLICY == ExactPolicy(30, 30, prove=False)
