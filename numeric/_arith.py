"""Arithmetic contexts: every formula is written once over a chosen arithmetic.

A formula in :mod:`numeric` manipulates numpy arrays with ``+ - * /``,
``sum``, ``cumsum``, ``argmin`` and the context's own :meth:`Arithmetic.sqrt`,
:meth:`Arithmetic.power` and :meth:`Arithmetic.log2`.  The context decides
what the array elements are:

``"float"``
    ``numpy.float64``; the formula is vectorised over any stack ``(..., K, K)``.
``"exact"``
    SymPy numbers in ``dtype=object`` arrays: integers stay integers, quotients
    become :class:`sympy.Rational`, roots stay exact algebraic numbers.
``"mp"``
    :class:`mpmath.mpf` in ``dtype=object`` arrays, at the caller's ``mp.dps``.

This is the design of mpmath's ``fp``/``mp`` contexts applied to numpy code:
one algorithm, several number systems.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational as _RationalABC

import sys

import mpmath
import numpy as np


def _sympy():
    """SymPy, imported on first use: the float arithmetic never needs it."""
    import sympy

    if not _patched:
        patch_factor_cache(sympy)
    return sympy


_patched = []


def patch_factor_cache(sympy) -> bool:
    """Work around sympy/sympy#28621 (SymPy 1.14.0): ``sqrt`` of some integers
    near 10^30 raises ``ValueError: ... is not a prime factor`` because
    ``factorint(n, limit=...)`` hands a composite cofactor to its factor cache.

    The cache only remembers a prime factor of ``n``; the patched ``add``
    skips what is not one (nothing is cached for it, every result is
    unchanged).  Applied once, only to the affected releases (the fix,
    sympy#28624, is not in 1.14.0).  Returns whether it patched.
    """
    _patched.append(True)
    cache_type = getattr(getattr(sympy.ntheory, "factor_", None), "FactorCache", None)
    if cache_type is None or not sympy.__version__.startswith("1.14."):
        return False
    if getattr(cache_type.add, "skips_composites", False):  # patched already
        return True
    isprime = sympy.ntheory.isprime
    original = cache_type.add

    def add(self, n, factors):
        original(self, n, [p for p in factors if isprime(p)])

    add.skips_composites = True
    cache_type.add = add
    return True


def _is_sympy(x):
    """True for a SymPy object (without importing SymPy: none exists before it is)."""
    mod = sys.modules.get("sympy")
    return mod is not None and isinstance(x, mod.Basic)

__all__ = ["Arithmetic", "get_arithmetic", "ARITHMETICS", "FRACTION"]


class Arithmetic:
    """Base class of the three number systems (see the module docstring)."""

    name: str = ""
    #: True when comparisons are exact (no tolerance is needed).
    exact: bool = False

    # -- conversion ---------------------------------------------------------
    def number(self, x):  # pragma: no cover - abstract
        """Convert one scalar (int, float, Fraction, str, SymPy number)."""
        raise NotImplementedError

    def asarray(self, a) -> np.ndarray:
        """Convert a numeric array (counts, distances, parameters) elementwise."""
        a = np.asarray(a)
        if a.dtype == object or self.name != "float":
            flat = [self.number(v) for v in a.reshape(-1).tolist()]
            out = np.empty(len(flat), dtype=object)
            out[:] = flat
            return out.reshape(a.shape)
        return a.astype(np.float64)

    def finalize(self, a):
        """Turn a result array into what the public function returns."""
        a = np.asarray(a, dtype=object if self.name != "float" else np.float64)
        if a.ndim == 0:
            return a[()]
        return a

    # -- elementwise functions ---------------------------------------------
    def sqrt(self, a):  # pragma: no cover - abstract
        raise NotImplementedError

    def power(self, a, p):  # pragma: no cover - abstract
        raise NotImplementedError

    def log2(self, a):  # pragma: no cover - abstract
        """Base-2 logarithm, elementwise (exact: SymPy ``log(x, 2)``, unevaluated)."""
        raise NotImplementedError

    @property
    def inf(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def tolerance(self, scale=1):
        """Absolute slack allowed when comparing two computed values."""
        return 0

    def divide(self, a, b):
        """Elementwise quotient ``a / b`` in this number system."""
        return a / b

    def __repr__(self):
        return f"<Arithmetic {self.name!r}>"


def _decimal_string(x: float) -> str:
    return repr(float(x))


class _Float(Arithmetic):
    name = "float"

    def number(self, x):
        if _is_sympy(x):
            return float(_sympy().N(x, 17))
        if isinstance(x, (mpmath.mpf,)):
            return float(x)
        return float(x)

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype == object:
            return np.vectorize(self.number, otypes=[np.float64])(a)
        return a.astype(np.float64)

    def sqrt(self, a):
        return np.sqrt(a)

    def power(self, a, p):
        return np.power(a, float(p))

    def log2(self, a):
        return np.log2(a)

    @property
    def inf(self):
        return np.inf

    def tolerance(self, scale=1):
        return 1e-12 * max(1.0, float(scale))


class _Exact(Arithmetic):
    name = "exact"
    exact = True

    def number(self, x):
        sympy = _sympy()
        if isinstance(x, sympy.Basic):
            return x
        if isinstance(x, (bool, np.bool_)):
            return sympy.Integer(int(x))
        if isinstance(x, (Integral, np.integer)):
            return sympy.Integer(int(x))
        if isinstance(x, Fraction) or isinstance(x, _RationalABC):
            return sympy.Rational(x.numerator, x.denominator)
        if isinstance(x, (float, np.floating)):
            # A float is read as the shortest decimal that prints it: 0.1 -> 1/10.
            return sympy.Rational(_decimal_string(x))
        if isinstance(x, mpmath.mpf):
            if not mpmath.isfinite(x):
                raise ValueError(f"cannot convert {x} to an exact number")
            sign, man, exp, _ = x._mpf_
            return (-1) ** sign * sympy.Integer(int(man)) * sympy.Integer(2) ** int(exp)
        from .parsing import parse_number  # no eval of a user string (issue 10)

        return parse_number(x, what="number", symbols=False)

    def sqrt(self, a):
        return _map(_sympy().sqrt, a)

    def power(self, a, p):
        p = self.number(p)
        return _map(lambda v: v**p, a)

    def log2(self, a):
        return _map(lambda v: _sympy().log(v, 2), a)

    @property
    def inf(self):
        return _sympy().oo


class _Mp(Arithmetic):
    name = "mp"

    def number(self, x):
        if isinstance(x, mpmath.mpf):
            return x
        if _is_sympy(x):
            if x.is_Rational:
                return mpmath.mpf(int(x.p)) / int(x.q)
            return mpmath.mpf(_sympy().N(x, mpmath.mp.dps + 10))
        if isinstance(x, (bool, np.bool_, Integral, np.integer)):
            return mpmath.mpf(int(x))
        if isinstance(x, Fraction):
            return mpmath.mpf(x.numerator) / x.denominator
        if isinstance(x, (float, np.floating)):
            return mpmath.mpf(_decimal_string(x))
        return mpmath.mpf(x)

    def sqrt(self, a):
        return _map(mpmath.sqrt, a)

    def power(self, a, p):
        p = self.number(p)
        if p == 1:
            return a
        return _map(lambda v: mpmath.power(v, p), a)

    def log2(self, a):
        return _map(lambda v: mpmath.log(v, 2), a)

    @property
    def inf(self):
        return mpmath.inf

    def tolerance(self, scale=1):
        return mpmath.ldexp(1, -mpmath.mp.prec + 16) * max(1, abs(scale))


def _map(f, a):
    a = np.asarray(a, dtype=object)
    if a.ndim == 0:
        return f(a[()])
    out = np.empty(a.shape, dtype=object)
    flat_in = a.reshape(-1)
    flat_out = out.reshape(-1)
    for i, v in enumerate(flat_in):
        flat_out[i] = f(v)
    return out


class _Fraction(Arithmetic):
    """Python :class:`fractions.Fraction` numbers (and ints) for exact searches.

    Not a public ``arithmetic=`` choice: :mod:`numeric.paths` runs its exact
    parametric search in integers and Fractions, which stay rational under
    ``+ - * /`` and compare exactly, and are much faster than SymPy numbers.
    """

    name = "fraction"
    exact = True
    inf = math.inf

    def number(self, x):
        return Fraction(x)

    def power(self, a, p):
        p = Fraction(p)
        if p.denominator != 1:
            raise ValueError(f"a Fraction power must be an integer, got {p}")
        if p == 1:
            return a
        return _map(lambda v: v ** int(p), a)

    def divide(self, a, b):
        return _fraction_quotient(a, b)


_fraction_quotient = np.frompyfunc(Fraction, 2, 1)

#: The Fraction context (see :class:`_Fraction`).
FRACTION = _Fraction()

ARITHMETICS = {"float": _Float(), "exact": _Exact(), "mp": _Mp()}


def get_arithmetic(arithmetic) -> Arithmetic:
    """Return the context named ``"float"``, ``"exact"`` or ``"mp"``.

    >>> get_arithmetic("exact").number(0.25)
    1/4
    """
    if isinstance(arithmetic, Arithmetic):
        return arithmetic
    try:
        return ARITHMETICS[arithmetic]
    except (KeyError, TypeError):
        raise ValueError(
            f"arithmetic must be one of 'float', 'exact', 'mp'; got {arithmetic!r}"
        ) from None
