"""Derivations: closed forms of the papers' quantities, derived with SymPy.

- :mod:`~analytic.derivations.uoc`: UOC and OC over beta, A_UOC (of a matrix or a one-parameter family);
- :mod:`~analytic.derivations.forms`: single-sample and tridiagonal closed forms (silva2018, cardoso2011);
- :mod:`~analytic.derivations.metric_thresholds`, :mod:`~analytic.derivations.oc_general`: cardoso2011's
  thresholds, Appendix A's triangle, the covering path;
- :mod:`~analytic.derivations.families`: metrics of matrices with symbolic counts, fitted closed forms;
- :mod:`~analytic.derivations.tc_max`, :mod:`~analytic.derivations.intervals`: binotto2024's TC_max
  and the optimal rightmost length.

The public functions are exported by :mod:`analytic` (``from analytic import uoc_piecewise``); the
exact machinery they share is in :mod:`analytic.engines`.
"""
