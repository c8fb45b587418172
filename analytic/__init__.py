"""ordinal-verify analytic models: closed forms derived with SymPy.

The shared symbols (``K``, ``N``, ``beta``, ``d``, ...) with their
assumptions are in :mod:`analytic.symbols`, not here.  :func:`a_uoc_symbolic`
is the exact A_UOC of a matrix (the value of ``numeric.a_uoc(cm,
arithmetic="exact")``) or the closed form of a one-parameter family;
``analytic.a_uoc`` is its deprecated alias.

The exported functions are loaded on first use (PEP 562), so that importing a
part of :mod:`analytic` -- the property auditor, :mod:`analytic.properties.audit`
-- loads no module of :mod:`analytic.derivations` (issue 37; it loaded every
one, 1.9 s).
"""

import importlib as _importlib
import warnings as _warnings

import sympy as _sympy

from exactfloor.arith import patch_factor_cache

patch_factor_cache(_sympy)  # sympy/sympy#28621, see there

#: each exported name -> the module of analytic.derivations that defines it
_EXPORTS = {
    **dict.fromkeys(("a_uoc_symbolic", "oc_piecewise", "uoc_piecewise"), "uoc"),
    **dict.fromkeys(("single_sample_forms", "tridiagonal_forms"), "forms"),
    **dict.fromkeys(("appendix_a_triangle", "diagonal_threshold"), "metric_thresholds"),
    **dict.fromkeys(("covering_path", "oc00_forms"), "oc_general"),
    **dict.fromkeys(("tc_max_balanced", "tc_max_symbolic", "derive_tc_max_balanced"), "tc_max"),
    **dict.fromkeys(("guess_and_check", "symbolic_metric"), "families"),
    **dict.fromkeys(("interval_tc_max_symbolic", "optimal_last_length_piecewise",
                     "derive_optimal_last_length"), "intervals"),
}

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
    """An exported function, loaded from its module of :mod:`analytic.derivations` on
    first use (then kept here); a subpackage (``analytic.derivations``, ...);
    ``a_uoc``: deprecated alias of :func:`a_uoc_symbolic` (warns); the symbols moved."""
    if name in _EXPORTS:
        value = getattr(_importlib.import_module(f"analytic.derivations.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    if name in ("derivations", "engines", "ledger", "properties", "symbols"):
        return _importlib.import_module(f"analytic.{name}")
    if name == "a_uoc":
        uoc = _importlib.import_module("analytic.derivations.uoc")
        _warnings.warn(uoc.A_UOC_RENAMED, DeprecationWarning, stacklevel=2)
        return uoc.a_uoc_symbolic
    from analytic import symbols as _symbols

    if name in _symbols.__all__:
        raise AttributeError(f"module 'analytic' has no attribute {name!r}: the symbols are in "
                             f"analytic.symbols (from analytic.symbols import {name})")
    raise AttributeError(f"module 'analytic' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
