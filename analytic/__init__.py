"""ordinal-verify analytic models: closed forms derived with SymPy."""

import sympy as _sympy

from numeric._arith import patch_factor_cache

patch_factor_cache(_sympy)  # sympy/sympy#28621, see there

from analytic.symbols import K, L, N, b, beta, d, r, x
from analytic.uoc import a_uoc, oc_piecewise, uoc_piecewise
from analytic.forms import single_sample_forms, tridiagonal_forms
from analytic.metric_thresholds import appendix_a_triangle, diagonal_threshold
from analytic.oc_general import covering_path, oc00_forms
from analytic.tc_max import tc_max_balanced, tc_max_symbolic, derive_tc_max_balanced
from analytic.families import guess_and_check, symbolic_metric
from analytic.intervals import interval_tc_max_symbolic, optimal_last_length_piecewise, derive_optimal_last_length

__all__ = [
    # symbols (with their assumptions)
    "K", "L", "N", "b", "beta", "d", "r", "x",
    # silva2018 / cardoso2011: UOC and OC over beta, and the closed forms behind the figures
    "uoc_piecewise", "oc_piecewise", "a_uoc",
    "single_sample_forms", "tridiagonal_forms",
    "appendix_a_triangle", "diagonal_threshold", "covering_path", "oc00_forms",
    # families: metrics of matrices with symbolic counts, fitted closed forms
    "symbolic_metric", "guess_and_check",
    # binotto2024: TC_max and the optimal rightmost length
    "tc_max_balanced", "tc_max_symbolic", "derive_tc_max_balanced",
    "interval_tc_max_symbolic", "optimal_last_length_piecewise", "derive_optimal_last_length",
]
