"""Exact equality of closed numbers, shared by the tests (imported as ``exact_values``:
``conftest.py`` puts this folder on ``sys.path``)."""

import sympy as sp


def algebraic_zero(e):
    """Exact test that an algebraic number is 0: its minimal polynomial is X."""
    e = sp.expand(sp.radsimp(e))
    return e == 0 or sp.minimal_polynomial(e, sp.Symbol("X")) == sp.Symbol("X")


def same_value(got, want):
    """Exact equality of two closed numbers: algebraic ones by :func:`algebraic_zero`;
    with logarithms of rationals (CEM-ORD), each ``log(q)`` is written over symbols
    standing for the logarithms of the primes, and the difference must cancel to 0 as a
    rational function of those symbols (a sufficient condition for equality, decided
    exactly; ``simplify`` raises inside SymPy on them)."""
    diff = sp.sympify(got) - sp.sympify(want)
    if not diff.has(sp.log):
        return algebraic_zero(diff)

    def over_primes(e):
        q = sp.Rational(e.args[0])
        return sum(k * sp.Symbol(f"log{p}") for p, k in sp.factorrat(q).items())
    diff = diff.replace(lambda e: isinstance(e, sp.log), over_primes)
    return sp.cancel(sp.together(diff)) == 0
