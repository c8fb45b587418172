"""Honest errors and any number a user returns (issue 37 items 1 and 2).

Item 1: only :class:`exactfloor.errors.UndefinedMetric` (or NaN/None returned by a
user's callable) means "undefined here"; any other exception from a metric is
the verdict "error" of every property, naming the exception and the first
matrix that raised it -- through :func:`analytic.properties.audit.audit` (exact
search, float screen in this process and on a process pool, exact ties),
:func:`numeric.report` and :func:`numeric.compare`.  The CLI's test is in
``test_audit_cli.py``.

Item 2: a callable returning ints, Fractions (also of NumPy integers), gmpy2
``mpq``, SymPy ``Rational``, mpmath ``mpf`` or floats is audited like its
twin of another type whenever they are the same numbers; the claims API's
:func:`analytic.ledger.cell_outcome` takes them all.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import gmpy2
import mpmath
import numpy as np
import pytest
import sympy

import numeric
from exactfloor.errors import MetricError, UndefinedMetric
from numeric.registry import REGISTRY
from analytic.properties.audit import PROPERTIES, audit
from analytic.properties.exact import value_of
from analytic.properties.generators import all_matrices, order_key
from analytic.properties.table import markdown, table_dict

SMALL = dict(max_k=2, max_n=2, random=0, prove=False)


def _raises_on(m):
    """Where the buggy metric below raises: a 2 x 2 matrix whose cell (1, 0) holds 1."""
    return m.shape[0] == 2 and m[1, 0] == 1


def buggy(m):
    """The error count over N, with a KeyError where :func:`_raises_on` says."""
    m = np.asarray(m)
    if _raises_on(m):
        return {}["boom"]
    return Fraction(int(m.sum() - np.trace(m)), int(m.sum()))


def buggy_stack(S):
    """:func:`buggy` vectorised: the whole stack raises when one matrix does."""
    S = np.asarray(S)
    if S.shape[-1] == 2 and (S[:, 1, 0] == 1).any():
        raise KeyError("boom")
    return (S.sum(axis=(1, 2)) - np.trace(S, axis1=1, axis2=2)) / S.sum(axis=(1, 2))


#: the first matrix in the search order (N, K, lexicographic) on which buggy raises, by brute
#: force over the searched sizes: [[0, 0], [1, 0]] (N = 1: [[1]], then [[0, 0], [0, 1]] are fine)
FIRST = min((m for m in all_matrices(2, 2) if _raises_on(m)), key=order_key)
WHY = f"the metric raised KeyError: 'boom' on the count matrix {FIRST.tolist()}"


def _all_error(r, why=WHY, first=FIRST):
    assert list(r.results) == list(PROPERTIES)
    for p, res in r.results.items():
        assert (res.verdict, res.cell(), res.evidence()) == ("error", "error", why), p
        assert res.counterexample.tolist() == first.tolist() and not res.holds


def test_the_first_raising_matrix_is_the_brute_force_one():
    assert FIRST.tolist() == [[0, 0], [1, 0]]


def test_a_keyerror_is_error_in_every_property_in_exact_search():
    _all_error(audit(buggy, bounds=(0, 1), **SMALL))


def test_a_keyerror_is_error_in_every_property_with_proofs_asked():
    """The proofs are not attempted on a broken metric (a symbolic form is given)."""
    _all_error(audit(buggy, bounds=(0, 1), max_k=2, max_n=2, random=0,
                     symbolic=lambda A: sympy.Integer(0)))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_keyerror_is_error_in_every_property_on_the_float_screen(jobs):
    """The float screen halves the stack down to the first matrix that raises, in this
    process and in the workers of a process pool (the error crosses the pickle).  The
    bug is in the vectorised form only (the per-matrix form is right): read as
    "undefined", every property would get a verdict."""
    _all_error(audit(_rate, bounds=(0, 1), vectorized=buggy_stack, jobs=jobs, **SMALL))
    _all_error(audit(buggy, bounds=(0, 1), vectorized=buggy_stack, jobs=jobs, **SMALL))


def test_an_error_of_the_exact_ties_callable_is_error():
    """With ``exact_ties`` the callable itself decides the ties in the workers: a float
    screen that is fine and an exact callable that raises is still an error."""
    def fine_stack(S):
        S = np.asarray(S)
        return (S.sum(axis=(1, 2)) - np.trace(S, axis1=1, axis2=2)) / S.sum(axis=(1, 2))

    r = audit(buggy, ["symmetry", "scale"], bounds=(0, 1), vectorized=fine_stack,
              exact_ties=True, **SMALL)
    assert {res.verdict for res in r.results.values()} == {"error"}
    assert all("raised KeyError: 'boom'" in res.witness for res in r.results.values())


@pytest.mark.parametrize("exc", [ValueError("not undefined, a bug"), ZeroDivisionError("x"),
                                 TypeError("y")])
def test_any_exception_but_undefined_metric_is_an_error(exc):
    """A plain ValueError (or a ZeroDivisionError) from a user's metric was read as
    "undefined here"; now only UndefinedMetric is."""
    def f(m):
        if m.sum() == 2:
            raise exc
        return 0

    r = audit(f, ["symmetry"], **SMALL)
    res = r.results["symmetry"]
    assert res.verdict == "error"
    assert res.witness == (f"the metric raised {type(exc).__name__}: {exc} on the count "
                           "matrix [[2]]")


def test_undefined_metric_nan_and_none_are_undefined_not_errors():
    """The three ways to say "undefined here": each matrix with N = 2 is undefined, the
    others hold symmetry; the count of undefined bases is the same for each."""
    def make(kind):
        def f(m):
            if m.sum() == 2:
                if kind == "raise":
                    raise UndefinedMetric("N = 2")
                return None if kind == "none" else float("nan")
            return Fraction(int(m.sum()))
        return f

    results = [audit(make(k), ["symmetry"], **SMALL).results["symmetry"]
               for k in ("raise", "none", "nan")]
    # K <= 2, N = 2: 1 matrix with K = 1 and C(5, 3) = 10 with K = 2 are undefined
    assert [(r.verdict, r.undefined) for r in results] == [("holds", 11)] * 3


def test_the_table_renders_the_error_verdict():
    r = audit(buggy, bounds=(0, 1), **SMALL)
    text = markdown(table_dict([("buggy", "buggy", r)], r.space, ()))
    assert f"- **symmetry** (error): {WHY}" in text
    assert "| buggy (`buggy`) | error | error |" in text


# ---------------------------------------------------------------------------
# numeric: UndefinedMetric where a formula is undefined, every other error raised
# ---------------------------------------------------------------------------
def _broken_registry(monkeypatch, name, exc):
    m = REGISTRY[name]

    def broken(cm, **kw):
        raise exc

    monkeypatch.setitem(REGISTRY, name, dataclasses.replace(m, function=broken))


def test_report_reads_only_undefined_metric_as_undefined(monkeypatch):
    """tau_b is undefined on a matrix with one true class (silva2018 eq. 9: a zero
    denominator): None with the reason; a metric raising KeyError or a plain
    ValueError raises out of report (it was a silent "undefined" for ValueError)."""
    r = numeric.report([[2, 1], [0, 0]], metrics=["kendall_tau_b", "mae"])
    tau, mae = r.rows
    assert tau.value is None and "tau_b is undefined" in tau.note
    assert mae.value == pytest.approx(1 / 3)
    for exc in (KeyError("boom"), ValueError("a bug")):
        _broken_registry(monkeypatch, "mae", exc)
        with pytest.raises(type(exc), match="boom|a bug"):
            numeric.report([[2, 1], [0, 1]], metrics=["mae"])


def test_compare_reads_only_undefined_metric_as_undefined(monkeypatch):
    y = [0, 0, 1, 1, 2, 2]
    c = numeric.compare(y, [0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0], metrics=["mae"],
                        n_resamples=20, seed=0)
    assert c.rows[0].a == 0
    _broken_registry(monkeypatch, "mae", ValueError("a bug"))
    with pytest.raises(ValueError, match="a bug"):
        numeric.compare(y, [0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0], metrics=["mae"],
                        n_resamples=20, seed=0)


@pytest.mark.parametrize("cm", [[[0, 0], [0, 0]], [[3]]])
def test_an_all_zero_or_one_class_matrix_is_undefined(cm):
    """N = 0 (every metric divides by N) and K = 1 for STC (TC_max = 0, binotto2024 eq. 6)."""
    with pytest.raises(UndefinedMetric):
        numeric.stc(cm)


def test_bad_input_is_a_plain_value_error_not_undefined():
    for bad in ([[1, -1], [0, 2]], [[1, 0, 0], [0, 1, 0]], [[1.5, 0], [0, 1]]):
        with pytest.raises(ValueError) as exc:
            numeric.mae(bad)
        assert not isinstance(exc.value, UndefinedMetric)


# ---------------------------------------------------------------------------
# item 2: any number a user returns, converted once
# ---------------------------------------------------------------------------
def _rate(m):
    """The error rate as an exact Fraction of Python ints (the reference)."""
    return Fraction(int(m.sum() - np.trace(m)), int(m.sum()))


#: the same rationals in other types
TWINS = {
    "Fraction of numpy ints": lambda m: Fraction(m.sum() - np.trace(m), m.sum()),
    "gmpy2 mpq": lambda m: gmpy2.mpq(int(m.sum() - np.trace(m)), int(m.sum())),
    "SymPy Rational": lambda m: sympy.Rational(int(m.sum() - np.trace(m)), int(m.sum())),
}
#: the rationals rounded to binary floating point (53 bits)
FLOAT_TWINS = {
    "float": lambda m: float(m.sum() - np.trace(m)) / float(m.sum()),
    "numpy float64": lambda m: (m.sum() - np.trace(m)) / m.sum(),
    "mpmath mpf": lambda m: mpmath.mpf(int(m.sum() - np.trace(m))) / int(m.sum()),
    "SymPy Float": lambda m: sympy.Float(float(m.sum() - np.trace(m)) / float(m.sum())),
}


@pytest.fixture(scope="module")
def reference():
    return audit(_rate, max_k=3, max_n=3, random=30, prove=False, bounds=(0, 1))


def _same_verdicts(r, reference, skip=()):
    for p, res in reference.results.items():
        if p in skip:
            continue
        got = r.results[p]
        assert got.verdict == res.verdict, (p, got.verdict, res.verdict)
        ce = None if res.counterexample is None else np.asarray(res.counterexample).tolist()
        assert (None if got.counterexample is None else
                np.asarray(got.counterexample).tolist()) == ce, p


@pytest.mark.parametrize("name", TWINS)
def test_every_rational_type_audits_like_its_fraction_twin(name, reference):
    """The same numbers, so the same verdicts and counterexamples.  The Fraction of
    NumPy integers crashed the auditor (``TypeError: numpy boolean subtract`` in
    exact.py's compare); gmpy2's mpq was read through SymPy."""
    _same_verdicts(audit(TWINS[name], max_k=3, max_n=3, random=30, prove=False,
                         bounds=(0, 1)), reference)


@pytest.mark.parametrize("name", FLOAT_TWINS)
def test_every_float_type_audits_like_its_fraction_twin(name, reference):
    """A float is the exact binary fraction it is (the module docstring of exact.py).
    Correct rounding keeps the order and the equalities of these small rationals
    (denominators <= 3), so every property comparing single values has the same
    verdict and counterexample.  The triangle inequality adds two rounded values and
    fails honestly: fl(1/3) + fl(2/3) = 3 * 6004799503160661 / 2^54 < 1 = d(a, c)."""
    r = audit(FLOAT_TWINS[name], max_k=3, max_n=3, random=30, prove=False, bounds=(0, 1))
    _same_verdicts(r, reference, skip=("triangle",))
    assert reference.results["triangle"].verdict == "holds"
    t = r.results["triangle"]
    assert t.verdict == "fails" and t.witness == (
        "d(a,c) = 1 > d(a,b) + d(b,c) = 6004799503160661/18014398509481984 + "
        "6004799503160661/9007199254740992")


@pytest.mark.parametrize("v, q", [
    (Fraction(np.int64(2), np.int64(6)), Fraction(1, 3)),
    (gmpy2.mpq(2, 6), Fraction(1, 3)), (gmpy2.mpz(7), Fraction(7)), (np.int32(-4), Fraction(-4)),
    (mpmath.mpf("0.375"), Fraction(3, 8)), (mpmath.mpf("-0.375"), Fraction(-3, 8)),
    (mpmath.mpf(0), Fraction(0)), (gmpy2.mpfr(-1.5), Fraction(-3, 2)), (gmpy2.mpq(-1, 3), Fraction(-1, 3)),
    (0.1, Fraction(3602879701896397, 36028797018963968)), (-0.5, Fraction(-1, 2)),
    (np.float32(0.5), Fraction(1, 2)), (sympy.Float(0.25), Fraction(1, 4)),
    (sympy.Rational(-2, 3), Fraction(-2, 3)), (gmpy2.mpfr(1.5), Fraction(3, 2)),
])
def test_value_of_converts_every_number_to_a_fraction_of_python_ints(v, q):
    """Each the exact number it is (0.1: the binary fraction 3602879701896397 / 2^55)."""
    got = value_of(v).q
    assert got == q and type(got.numerator) is int and type(got.denominator) is int


@pytest.mark.parametrize("v", [mpmath.mpf("inf"), gmpy2.mpfr("inf"), float("-inf")])
def test_value_of_refuses_infinities_of_every_kind(v):
    with pytest.raises(ValueError, match="not a finite real number"):
        value_of(v)


@pytest.mark.parametrize("v", [Fraction(1, 3), Fraction(np.int64(1), np.int64(3)),
                               gmpy2.mpq(1, 3), sympy.Rational(1, 3)])
def test_the_claims_api_takes_every_rational(v):
    """cell_outcome compares a user's exact value with a printed cell (rounded half-up):
    gmpy2's mpq crashed it (TypeError in SymPy)."""
    from analytic.ledger import cell_outcome

    out = cell_outcome(v, "0.33")
    assert (out.verdict, out.evidence) == ("verified", "exact 1/3 = 0.333333; printed 0.33")


@pytest.mark.parametrize("v, printed, verdict", [
    (0.625, "0.63", "verified"),            # 5/8 exactly: half-up gives 0.63
    (mpmath.mpf(0.625), "0.63", "verified"),
    (0.285, "0.29", "not reproduced"),       # the float is 0.28499999999999997...: 0.28
    (np.int64(3), "3", "verified"), (gmpy2.mpz(3), "3.00", "verified"),
])
def test_the_claims_api_reads_a_float_as_the_binary_fraction_it_is(v, printed, verdict):
    """A float (or mpf) is compared as its exact binary value, as the auditor reads it
    (it was a TypeError for float; mpf was read from a 15-digit string)."""
    from analytic.ledger import cell_outcome

    assert cell_outcome(v, printed).verdict == verdict


def test_metric_error_survives_pickling():
    """A worker's MetricError reaches the parent through pickle (its args)."""
    import pickle

    e = pickle.loads(pickle.dumps(MetricError.of(KeyError("boom"), np.eye(2, dtype=int))))
    assert str(e) == "the metric raised KeyError: 'boom' on the count matrix [[1, 0], [0, 1]]"
    assert e.matrix == [[1, 0], [0, 1]] and e.cause == "raised KeyError: 'boom'"


def _upper_minus_lower(m):
    """Errors above the diagonal minus those below, over N: signed, in [-1, 1]."""
    return Fraction(int(np.triu(m, 1).sum() - np.tril(m, -1).sum()), int(m.sum()))


SIGNED_TWINS = {
    "gmpy2 mpq": lambda m: gmpy2.mpq(_upper_minus_lower(m)),
    "mpmath mpf": lambda m: (mpmath.mpf(int(np.triu(m, 1).sum() - np.tril(m, -1).sum()))
                             / int(m.sum())),
    "float": lambda m: float(_upper_minus_lower(m)),
    "gmpy2 mpfr": lambda m: gmpy2.mpfr(float(_upper_minus_lower(m))),
}


@pytest.mark.parametrize("name", SIGNED_TWINS)
def test_negative_values_of_every_kind_audit_like_their_fraction_twin(name):
    """Negative values too (mpmath's mantissa is unsigned: a sign lost made -1/3 into
    1/3 in an early draft of the conversion); no property adds two values here."""
    kw = dict(max_k=3, max_n=3, random=30, prove=False, bounds=(-1, 1))
    _same_verdicts(audit(SIGNED_TWINS[name], **kw), audit(_upper_minus_lower, **kw))


def test_a_formula_failing_in_the_engine_s_rationals_switches_the_exact_screen_off():
    """The exact re-screen of a registered metric (RationalEvaluator) is an accelerator:
    an exception there other than UndefinedMetric switches it off (_NotExact: its ties
    go to the per-matrix check, in SymPy's exact arithmetic, which names a broken metric
    as MetricError); the float screen and a user's callable name the matrix at once."""
    from exactfloor.closedform import _NotExact
    from analytic.properties.engine import CallableEvaluator, FloatEvaluator, RationalEvaluator

    S = np.array([[[1, 0], [0, 0]], [[2, 0], [0, 0]], [[1, 1], [0, 0]]])

    def fn(stack, *ctx):
        if (np.asarray(stack)[:, 0, 0] == 2).any():
            raise TypeError("no rationals here")
        return np.asarray(stack)[:, 0, 1] / np.asarray(stack).sum(axis=(1, 2))

    with pytest.raises(_NotExact, match=r"raised TypeError: no rationals here on \[\[2, 0\]"):
        RationalEvaluator(fn, "lower", (0, 1))(S)
    with pytest.raises(MetricError, match=r"raised TypeError: no rationals here on the count "
                                          r"matrix \[\[2, 0\], \[0, 0\]\]"):
        FloatEvaluator(fn, "lower", (0, 1))(S)
    with pytest.raises(MetricError, match=r"on the count matrix \[\[2, 0\], \[0, 0\]\]"):
        CallableEvaluator(lambda m: fn(m[None])[0], "lower", (0, 1))(S)
