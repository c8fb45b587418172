"""ordinal-verify analytic models: closed forms derived with SymPy.

The shared symbols (``K``, ``N``, ``beta``, ``d``, ...) with their
assumptions are in :mod:`analytic.symbols`, not here.  :func:`a_uoc_symbolic`
is the exact A_UOC of a matrix (the value of ``numeric.a_uoc(cm,
arithmetic="exact")``) or the closed form of a one-parameter family;
``analytic.a_uoc`` is its deprecated alias.
"""

import warnings as _warnings

import sympy as _sympy

from numeric._arith import patch_factor_cache

patch_factor_cache(_sympy)  # sympy/sympy#28621, see there

from analytic import symbols as _symbols
from analytic.derivations import uoc as _uoc
from analytic.derivations.uoc import a_uoc_symbolic, oc_piecewise, uoc_piecewise
from analytic.derivations.forms import single_sample_forms, tridiagonal_forms
from analytic.derivations.metric_thresholds import appendix_a_triangle, diagonal_threshold
from analytic.derivations.oc_general import covering_path, oc00_forms
from analytic.derivations.tc_max import tc_max_balanced, tc_max_symbolic, derive_tc_max_balanced
from analytic.derivations.families import guess_and_check, symbolic_metric
from analytic.derivations.intervals import (interval_tc_max_symbolic, optimal_last_length_piecewise,
                                            derive_optimal_last_length)

__all__ = [
    # silva2018 / cardoso2011: UOC and OC over beta, and the closed forms behind the figures
    "uoc_piecewise", "oc_piecewise", "a_uoc_symbolic",
    "single_sample_forms", "tridiagonal_forms",
    "appendix_a_triangle", "diagonal_threshold", "covering_path", "oc00_forms",
    # families: metrics of matrices with symbolic counts, fitted closed forms
    "symbolic_metric", "guess_and_check",
    # binotto2024: TC_max and the optimal rightmost length
    "tc_max_balanced", "tc_max_symbolic", "derive_tc_max_balanced",
    "interval_tc_max_symbolic", "optimal_last_length_piecewise", "derive_optimal_last_length",
]


def __getattr__(name):
    """``a_uoc``: deprecated alias of :func:`a_uoc_symbolic` (warns); the symbols moved."""
    if name == "a_uoc":
        _warnings.warn(_uoc.A_UOC_RENAMED, DeprecationWarning, stacklevel=2)
        return a_uoc_symbolic
    if name in _symbols.__all__:
        raise AttributeError(f"module 'analytic' has no attribute {name!r}: the symbols are in "
                             f"analytic.symbols (from analytic.symbols import {name})")
    raise AttributeError(f"module 'analytic' has no attribute {name!r}")
