"""The exact floor: number types, arithmetic contexts, the one sign rule and the exceptions.

The bottom layer of ordinal-verify (issue 37).  Everything above it
(:mod:`numeric`'s metrics, :mod:`analytic`'s derivations, its property engine
and its claims ledger, the ``ordinal-verify`` command) takes its numbers, its
exact decisions and its errors from here; nothing here imports from those
packages (``proofs_tests/test_floor.py`` checks it).

- :mod:`exactfloor.errors`: every public exception and warning (re-exported by
  :mod:`numeric.errors` and by the modules that raise them);
- :mod:`exactfloor.parsing`: a user's number or expression converted without ``eval``;
- :mod:`exactfloor.value`: every number a metric returns, converted once, and compared;
- :mod:`exactfloor.arith`: the arithmetic contexts of the metrics: float64 (vectorised),
  exact (SymPy), mp (mpmath), fractions;
- :mod:`exactfloor.guarded`: exact numbers carried with an interval enclosure;
- :mod:`exactfloor.rational`: the property engine's rationals (Fraction or gmpy2's mpq);
- :mod:`exactfloor.closedform`: sums of rational multiples of roots of integers;
- :mod:`exactfloor.exact_sign`: the one rule: the sign, the comparison and the zero test of
  a real number, and the zero test of an expression (:func:`~exactfloor.exact_sign.vanishes`);
  never a guess;
- :mod:`exactfloor.ratfun`: the sign of a rational function of one integer ``n`` on every
  ``n >= n0``;
- :mod:`exactfloor.certificates`: the sign of an expression for every positive integer value
  of its symbols (certificates);
- :mod:`exactfloor.tolerance`: every numerical tolerance, derived from a precision.

The two "sign for every integer" engines speak one vocabulary: a sign set, the
:class:`frozenset` of the signs (-1, 0, 1) the expression may take
(:data:`~exactfloor.exact_sign.POS`, :data:`~exactfloor.exact_sign.NONNEG`, ...).
:func:`exactfloor.ratfun.signs_for_all` gives the exact set;
:func:`exactfloor.certificates.sign` gives a certified superset
(:data:`~exactfloor.exact_sign.ANY` when nothing is certified).
"""

__all__: list = []  # the modules are the API; the package exports no name of its own
