"""Exact engines shared by the derivations (and used by some ledger checks); internal, no public API.

- :mod:`~analytic.engines._pl`: piecewise-linear functions of beta whose coefficients depend on one integer
  parameter (lower envelopes, signs decided for every value of the parameter);
- :mod:`~exactfloor.ratfun`: dense integer polynomials and their sign runs (used by ``_pl``);
- :mod:`~analytic.engines._rowkinds`: matrices described by row kinds, and the OC/UOC path weights on them;
- :mod:`~analytic.engines._family`: one-parameter families of matrices (used by ``uoc`` and ``families``);
- :mod:`~analytic.engines._sweep`: exact parametric sweep of a sum of maxima, and of its minimum (``intervals``);
- :mod:`~analytic.engines._algebraic`: real roots of integer polynomials, certified (``_sweep``).
"""
