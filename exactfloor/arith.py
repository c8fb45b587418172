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

import contextlib
import math
from fractions import Fraction
from numbers import Integral, Rational as _RationalABC

import sys

import mpmath
import numpy as np
from .tolerance import FLOAT_TIE


def _sympy():
    """SymPy, imported on first use: the float arithmetic never needs it."""
    import sympy

    if not _patched:
        patch_factor_cache(sympy)
    return sympy


_patched = []


class _LazySympy:
    """``sympy`` for modules that name it at their top: the attribute access
    imports it (``lazy_sympy.Basic``), so importing such a module does not."""

    def __getattr__(self, name):
        return getattr(_sympy(), name)

    def __repr__(self):
        return "<SymPy, imported on first use>"


#: ``from .arith import lazy_sympy as sympy``: SymPy on first attribute access
lazy_sympy = _LazySympy()


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


def is_sympy(x):
    """True for a SymPy object (without importing SymPy: none exists before it is)."""
    mod = sys.modules.get("sympy")
    return mod is not None and isinstance(x, mod.Basic)

__all__ = ["Arithmetic", "FloatArithmetic", "ExactArithmetic", "MpArithmetic",
           "FractionArithmetic", "get_arithmetic", "ARITHMETICS", "FRACTION"]


class Arithmetic:
    """Base class of the number systems (see the module docstring).

    Besides the elementwise functions, a context owns the decisions that
    depend on its numbers, so that a formula never asks which arithmetic it
    runs in: how two computed values are compared (:meth:`tolerance`,
    :meth:`same`, :meth:`sort_key`), which values are exact rationals
    (:meth:`fraction`), how a stack is split into blocks (:meth:`blocks`),
    how sums are kept (:meth:`sum_by`), guard precision
    (:meth:`guarded`, :meth:`rounded`) and the closed forms whose best
    evaluation depends on rounding (:meth:`quadratic_roots`,
    :meth:`positive_root`).  The defaults here are those of a rounding
    arithmetic; the exact contexts override them.

    A context is taken by name with :func:`get_arithmetic`; it has no
    constructor parameter (:class:`ExactArithmetic`'s policy aside).

    Examples
    --------
    >>> [str(get_arithmetic(name).sqrt(get_arithmetic(name).asarray([8]))[0]) for name in ("float", "exact")]
    ['2.8284271247461903', '2*sqrt(2)']
    >>> isinstance(get_arithmetic("mp"), Arithmetic), get_arithmetic("exact").exact
    (True, True)
    """

    name: str = ""
    #: True when comparisons are exact (no tolerance is needed).
    exact: bool = False
    #: dtype of the arrays of this context's numbers
    dtype = object
    #: natural logarithm of the largest finite number (``inf``: unbounded)
    log_max: float = math.inf

    # -- conversion ---------------------------------------------------------
    def number(self, x):  # pragma: no cover - abstract
        """Convert one scalar (int, float, Fraction, str, SymPy number)."""
        raise NotImplementedError

    def asarray(self, a) -> np.ndarray:
        """Convert a numeric array (counts, distances, parameters) elementwise."""
        a = np.asarray(a)
        flat = [self.number(v) for v in a.reshape(-1).tolist()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        return out.reshape(a.shape)

    def finalize(self, a):
        """Turn a result array into what the public function returns."""
        a = np.asarray(a, dtype=self.dtype)
        if a.ndim == 0:
            return a[()]
        return a

    def parameters(self, values, shape, check):
        """``check(values, shape)`` (validation and broadcasting) converted to this context."""
        return self.asarray(check(values, shape))

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

    def divide(self, a, b):
        """Elementwise quotient ``a / b`` in this number system."""
        return a / b

    # -- comparisons ----------------------------------------------------------
    def tolerance(self, scale=1):
        r"""Absolute slack allowed when comparing two computed values of size ``scale``.

        .. math:: \text{slack} = \epsilon \max(1, |\text{scale}|)

        (0 in an exact context).
        """
        return 0

    def same(self, u, v):
        """Whether two computed values are the same number (exactly, in this context)."""
        return u == v

    def sort_key(self, v):
        """A key that orders values as numbers (``sorted(..., key=ctx.sort_key)``)."""
        return v

    def point_between(self, lo, hi):
        """A point strictly inside ``(lo, hi)`` (``hi=None``: infinity)."""
        return lo + 1 if hi is None else (lo + hi) / 2

    def all_finite(self, a):
        """Whether every value of ``a`` is finite (no overflow happened)."""
        return True

    def rationals(self):
        """The arithmetic in which this context computes with rational numbers
        (the exact one: Python Fractions, much faster than SymPy numbers)."""
        return self

    def fraction(self, v):
        """``v`` as a :class:`fractions.Fraction` if it is an exact rational, else ``None``
        (always ``None`` in a rounding arithmetic: its values are not exact)."""
        return None

    def fractions(self, a):
        """The values of ``a`` as a list of Fractions, or ``None`` if one is not an
        exact rational (see :meth:`fraction`)."""
        out = []
        for v in np.asarray(a).reshape(-1).tolist():
            f = self.fraction(v)
            if f is None:
                return None
            out.append(f)
        return out

    # -- sums -----------------------------------------------------------------
    def sum_by(self, idx, values, n):
        """``out[i] = sum(values[idx == i])`` for ``i < n`` (grouped sums)."""
        out = np.empty(n, dtype=object)
        out[:] = [self.number(0)] * n
        for i, v in zip(np.asarray(idx).tolist(), values.tolist(), strict=True):
            out[i] = out[i] + v
        return out

    def blocks(self, n, cells, *, size=None, least=1):
        """Slices of a stack of ``n`` matrices of ``cells`` cells each, evaluated
        one after the other (here one block, the whole stack: an array of
        Python numbers is no faster in pieces)."""
        return [slice(0, n)]

    # -- precision ------------------------------------------------------------
    def guarded(self, compute):
        """``compute()`` at guard precision (see :meth:`rounded`)."""
        return compute()

    def rounded(self, v):
        """A value computed under :meth:`guarded`, rounded to the working precision."""
        return v

    def tidy(self, v):
        """The simplest form of a result (exact: radicals out of denominators)."""
        return v

    # -- closed forms whose evaluation depends on rounding ---------------------
    def quadratic_roots(self, c0, c1, c2):
        r"""The real roots of ``c0 + c1 x + c2 x^2`` (``c2 != 0``), in no particular order.

        .. math:: x = \frac{-c_1 \mp \sqrt{c_1^2 - 4 c_2 c_0}}{2 c_2}

        The two distinct roots come from :meth:`root_pair`.
        """
        disc = c1 * c1 - 4 * c2 * c0
        if disc < 0:
            return []
        if disc == 0:
            return [-c1 / (2 * c2)]
        return self.root_pair(c0, c1, c2, self.sqrt(disc))

    def root_pair(self, c0, c1, c2, s):
        """The two roots of ``c0 + c1 x + c2 x^2`` given ``s = sqrt(disc) > 0``: in a
        rounding arithmetic the cancellation-free pair ``q / c2, c0 / q`` with
        ``q = -(c1 + sign(c1) s) / 2`` (Numerical Recipes §5.6)."""
        q = -(c1 + s) / 2 if c1 >= 0 else -(c1 - s) / 2
        return [q / c2, c0 / q]

    def positive_root(self, coeffs):
        r"""The positive root of ``p(x) = sum_k coeffs[k] x^(d-k)`` (highest degree
        first) whose coefficients are all >= 0 except a negative constant term.

        .. math:: x_{j+1} = x_j - p(x_j) / p'(x_j),\quad
                  x_0 = \min_{k:\,c_k > 0} \big(|c_d| / c_k\big)^{1/(d-k)}

        ``p`` is increasing and convex on ``x > 0`` (one sign change, Descartes:
        one positive root), and ``p(x_0) >= c_k x_0^{d-k} - |c_d| = 0``, so
        Newton's iterates from the upper bound ``x_0`` decrease monotonically
        to the root; they stop when they no longer decrease.
        """
        d = len(coeffs) - 1
        x = min(self.power(-coeffs[-1] / c, 1 / self.number(d - k))
                for k, c in enumerate(coeffs[:-1]) if c != 0)
        for _ in range(500):
            value = slope = 0
            for c in coeffs:  # Horner, value and derivative together
                slope = slope * x + value
                value = value * x + c
            xn = x - value / slope
            if not xn < x:
                break
            x = xn
        return x

    def __repr__(self):
        return f"<Arithmetic {self.name!r}>"


def _decimal_string(x: float) -> str:
    return repr(float(x))


_FLOAT64 = np.dtype(np.float64)

#: Cells per block of a float stack's evaluation (:meth:`FloatArithmetic.blocks`).
BLOCK_CELLS = 1 << 17


class FloatArithmetic(Arithmetic):
    """numpy float64, vectorised over stacks; comparisons with a relative slack.

    The context ``"float"`` (:func:`get_arithmetic`), the default of every metric.

    Examples
    --------
    >>> ctx = get_arithmetic("float")
    >>> type(ctx) is FloatArithmetic, ctx.sqrt(ctx.asarray([2, 9])).tolist(), ctx.fraction(0.5)
    (True, [1.4142135623730951, 3.0], None)
    """

    name = "float"
    dtype = np.float64
    log_max = math.log(np.finfo(np.float64).max)

    def number(self, x):
        if is_sympy(x):
            return float(_sympy().N(x, 17))
        if isinstance(x, (mpmath.mpf,)):
            return float(x)
        return float(x)

    def finalize(self, a):
        if type(a) is np.float64:  # a numpy scalar already
            return a
        return super().finalize(a)

    def asarray(self, a):
        if type(a) is not np.ndarray:
            a = np.asarray(a)
        if a.dtype.kind == "O":
            return np.vectorize(self.number, otypes=[np.float64])(a)
        return a.astype(_FLOAT64)  # a dtype object: no conversion of the type np.float64

    def sqrt(self, a):
        return np.sqrt(a)

    def power(self, a, p):
        p = float(p)
        return a if p == 1 else np.power(a, p)

    def log2(self, a):
        return np.log2(a)

    @property
    def inf(self):
        return np.inf

    def tolerance(self, scale=1):
        return FLOAT_TIE * max(1.0, float(scale))

    def parameters(self, values, shape, check):
        """A finite non-negative numeric array is checked by numpy (no Python
        loop over a stack); anything else goes through ``check`` and its messages."""
        b = np.asarray(values)
        if b.dtype.kind in "fiu":
            bf = b.astype(np.float64, copy=False)
            if np.isfinite(bf).all() and (bf >= 0).all():
                try:
                    return np.broadcast_to(bf, shape)
                except ValueError:
                    pass
        return super().parameters(values, shape, check)

    def all_finite(self, a):
        return bool(np.isfinite(a).all())

    def sum_by(self, idx, values, n):
        return np.bincount(idx, values, minlength=n)

    def blocks(self, n, cells, *, size=None, least=1):
        """Blocks of about ``size`` cells (default :data:`BLOCK_CELLS`; at least
        ``least`` matrices): a block's temporaries stay in cache and the memory
        of a stack's evaluation is bounded whatever its size."""
        step = max(least, (size or BLOCK_CELLS) // max(cells, 1))
        return [slice(s, s + step) for s in range(0, n, step)]

    def rounded(self, v):
        return float(v)


#: bits of the radicand of SymPy's canonical form of a root of a rational beyond which
#: :meth:`ExactArithmetic.power` keeps the unevaluated power: SymPy writes ``(P/Q)**(1/K)``
#: as ``(P*Q**(K-1))**(1/K)/Q`` and factors that radicand; 20 classes of 14-digit counts
#: made GM's 5,900 digits (47 s, then Python's 4,300-digit limit of ``str``)
CANONICAL_ROOT_BITS = 4096


def _root(v, p):
    """``v**p``, unevaluated for a root of a rational whose canonical radicand
    ``P * Q**(q - 1)`` (``p = r/q`` in lowest terms) exceeds :data:`CANONICAL_ROOT_BITS`."""
    if getattr(v, "is_Rational", False) and getattr(p, "is_Rational", False) and p.q > 1 \
            and v.p.bit_length() + (p.q - 1) * v.q.bit_length() > CANONICAL_ROOT_BITS:
        return _sympy().Pow(v, p, evaluate=False)
    return v**p


class ExactArithmetic(Arithmetic):
    """SymPy numbers: rationals stay rational, roots stay exact algebraic numbers.

    The context ``"exact"`` (:func:`get_arithmetic`).

    Parameters
    ----------
    policy : exactfloor.exact_sign.ExactPolicy, optional
        How :meth:`same` decides; default
        :data:`~exactfloor.exact_sign.DEFAULT_POLICY`.

    Examples
    --------
    >>> ctx = get_arithmetic("exact")
    >>> ctx.sqrt(ctx.asarray([2, 8])).tolist(), ctx.number(0.1), ctx.fraction(ctx.number(0.5))
    ([sqrt(2), 2*sqrt(2)], 1/10, Fraction(1, 2))
    >>> ctx.same(ctx.number(0.1) + ctx.number(0.2), ctx.number(0.3))
    True
    >>> from exactfloor.exact_sign import ExactPolicy
    >>> ExactArithmetic(ExactPolicy(start_dps=20)).policy.start_dps
    20
    """

    name = "exact"
    exact = True
    #: the comparison policy (None: exactfloor.exact_sign.DEFAULT_POLICY)
    policy = None

    def __init__(self, policy=None):
        if policy is not None:
            self.policy = policy

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

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype.kind in "iu":  # counts: SymPy Integers without number()'s type tests
            Integer = _sympy().Integer  # (4x faster: every exact metric converts its counts)
            out = np.empty(a.size, dtype=object)
            out[:] = [Integer(v) for v in a.reshape(-1).tolist()]
            return out.reshape(a.shape)
        return super().asarray(a)

    def sqrt(self, a):
        return _map(_sympy().sqrt, a)

    def power(self, a, p):
        """``a**p``; a root of a rational whose canonical SymPy form would be too large
        (:data:`CANONICAL_ROOT_BITS`) stays the unevaluated power, the same number.

        >>> ExactArithmetic().power(_sympy().Rational(3, 8), Fraction(1, 2))
        sqrt(6)/4
        >>> big = _sympy().Rational(10**300 + 1, 10**301 + 3)
        >>> v = ExactArithmetic().power(big, Fraction(1, 20))
        >>> v.func.__name__, v ** 20 == big
        ('Pow', True)
        """
        p = self.number(p)
        return _map(lambda v: _root(v, p), a)

    def log2(self, a):
        return _map(lambda v: _sympy().log(v, 2), a)

    @property
    def inf(self):
        return _sympy().oo

    def same(self, u, v):
        """Equal numbers, by :func:`exactfloor.exact_sign.compare` under :attr:`policy`
        (identical expressions at once; :class:`~exactfloor.errors.UndecidedError`
        when the policy does not decide, never a guess)."""
        if u == v:
            return True
        from . import exact_sign

        return exact_sign.compare(u, v, self.policy) == 0

    def sort_key(self, v):
        return _sympy().N(v, 60)

    def point_between(self, lo, hi):
        """A rational point inside ``(lo, hi)`` when the midpoint is irrational
        (the midpoint itself if its 40-digit rounding falls outside)."""
        m = super().point_between(lo, hi)
        if not m.is_Rational:
            sympy = _sympy()
            t = sympy.Rational(str(sympy.N(m, 40)))
            if t > lo and (hi is None or t < hi):
                return t
        return m

    def rationals(self):
        return FRACTION

    def fraction(self, v):
        if isinstance(v, Fraction):
            return v
        if isinstance(v, int):
            return Fraction(v)
        if getattr(v, "is_Rational", False):
            return Fraction(int(v.p), int(v.q))
        return None

    def tidy(self, v):
        """``radsimp(expand(v))`` when that has fewer operations (a CRootOf is kept)."""
        sympy = _sympy()
        if isinstance(v, sympy.Basic) and v.has(sympy.CRootOf):
            return v
        w = sympy.radsimp(sympy.expand(v))
        return w if sympy.count_ops(w) <= sympy.count_ops(v) else v

    def root_pair(self, c0, c1, c2, s):
        """The textbook pair ``(-c1 -+ s) / (2 c2)`` (no rounding to avoid; radicals
        stay in the numerators)."""
        return [(-c1 - s) / (2 * c2), (-c1 + s) / (2 * c2)]

    def positive_root(self, coeffs):
        """The exact positive root: a real root of a rational polynomial
        (:meth:`sympy.Poly.real_roots`), or for algebraic coefficients (lengths
        such as ``sqrt(2)``) see :meth:`_algebraic_positive_root`."""
        sympy = _sympy()
        X = sympy.Dummy("x", positive=True)
        d = len(coeffs) - 1
        expr = sum(c * X ** (d - k) for k, c in enumerate(coeffs))
        poly = sympy.Poly(expr, X)
        if poly.domain.is_QQ or poly.domain.is_ZZ:
            return [r for r in poly.real_roots() if r > 0][0]
        return self._algebraic_positive_root(expr, X)

    @staticmethod
    def _algebraic_positive_root(expr, X):
        """The positive root of a polynomial with one sign change whose
        coefficients are algebraic numbers, as a :class:`sympy.CRootOf` of a
        rational polynomial.

        Cardano's formula in casus irreducibilis gives a real root as an
        expression in ``I`` whose sign SymPy cannot decide, so instead each
        algebraic generator ``g`` is replaced by a symbol ``t`` and eliminated
        with the resultant against its minimal polynomial: the rational
        polynomial obtained vanishes at the root; its real root nearest a
        60-digit approximation is the root (checked to be isolated, else
        :class:`~exactfloor.errors.UndecidedError`).
        """
        from .errors import UndecidedError

        sympy = _sympy()
        gens = sorted({g for g in expr.atoms(sympy.Pow)
                       if g.exp.is_Rational and not g.exp.is_Integer and g.is_number},
                      key=sympy.count_ops, reverse=True)
        P = expr
        for k, g in enumerate(gens):
            t = sympy.Dummy(f"t{k}")
            P = sympy.resultant(sympy.minimal_polynomial(g, t), P.xreplace({g: t}), t)
        try:
            rational = sympy.Poly(P, X, domain="QQ")
        except (sympy.polys.polyerrors.PolynomialError, sympy.polys.polyerrors.CoercionFailed):
            raise ValueError(
                "exact arithmetic needs lengths that are algebraic numbers (radicals), "
                f"got a coefficient outside QQ(radicals): {expr}") from None
        with mpmath.workdps(60):
            approx = [r for r in mpmath.polyroots(
                          [mpmath.mpf(str(sympy.N(co, 70))) for co in sympy.Poly(expr, X).all_coeffs()],
                          maxsteps=200, extraprec=200)
                      if abs(mpmath.im(r)) < mpmath.mpf(10) ** -40 and mpmath.re(r) > 0]
        target = sympy.Float(str(mpmath.re(approx[0])), 60)
        cands = sorted(rational.real_roots(), key=lambda r: abs(sympy.N(r - target, 60)))
        if len(cands) > 1 and not abs(sympy.N(cands[1] - target, 60)) > 10**6 * abs(
                sympy.N(cands[0] - target, 60)):
            raise UndecidedError(f"cannot isolate the positive root of {expr}")  # pragma: no cover
        return cands[0]


class MpArithmetic(Arithmetic):
    """mpmath numbers at the caller's ``mp.dps``; comparisons with a relative slack.

    The context ``"mp"`` (:func:`get_arithmetic`).

    Examples
    --------
    >>> ctx = get_arithmetic("mp")
    >>> with mpmath.workdps(30):
    ...     print(ctx.sqrt(ctx.number(2)))
    1.41421356237309504880168872421
    """

    name = "mp"

    def number(self, x):
        if isinstance(x, mpmath.mpf):
            return x
        if is_sympy(x):
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

    def guarded(self, compute):
        """``compute()`` with 40 guard bits (round its results with :meth:`rounded`)."""
        with mpmath.workprec(mpmath.mp.prec + 40):
            return compute()

    def rounded(self, v):
        return +v


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


class FractionArithmetic(Arithmetic):
    """Python :class:`fractions.Fraction` numbers (and ints) for exact searches.

    Not a public ``arithmetic=`` choice: :mod:`numeric.paths` runs its exact
    parametric search in integers and Fractions, which stay rational under
    ``+ - * /`` and compare exactly, and are much faster than SymPy numbers.
    Its one instance is :data:`FRACTION`.

    Examples
    --------
    >>> FRACTION.divide(np.array([1, 2]), np.array([3, 4])).tolist()
    [Fraction(1, 3), Fraction(1, 2)]
    >>> FRACTION.number("1/3") < FRACTION.number(0.5), FRACTION.sympy_number(Fraction(2, 6))
    (True, 1/3)
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

    def fraction(self, v):
        if isinstance(v, Fraction):
            return v
        return Fraction(v) if isinstance(v, int) else None

    def sympy_number(self, v):
        """The same number as a SymPy Rational."""
        v = Fraction(v)
        return _sympy().Rational(v.numerator, v.denominator)


_fraction_quotient = np.frompyfunc(Fraction, 2, 1)

#: The Fraction context (see :class:`FractionArithmetic`).
FRACTION = FractionArithmetic()

ARITHMETICS = {"float": FloatArithmetic(), "exact": ExactArithmetic(), "mp": MpArithmetic()}


def quiet_objects(*arrays):
    """``np.errstate(all="ignore")`` when an array holds Python objects (exact, mp
    numbers), else a no-op.

    numpy's loops over object arrays report the floating-point flags that the
    objects' own code left set (SymPy evaluates huge radicals in floats while
    comparing them: ``oc(cm, 0.1, gamma=1000, arithmetic="exact")`` leaked
    "overflow encountered in divide" and "in minimum"); they say nothing about
    the exact result.  float64 arrays keep numpy's reporting.

    >>> with quiet_objects(np.array([1], dtype=object)):
    ...     np.geterr()["over"]
    'ignore'
    """
    if any(getattr(a, "dtype", None) == object for a in arrays):  # noqa: E721 (a dtype, not a type)
        return np.errstate(all="ignore")
    return contextlib.nullcontext()


def get_arithmetic(arithmetic) -> Arithmetic:
    """Return the context named ``"float"``, ``"exact"`` or ``"mp"``.

    Parameters
    ----------
    arithmetic : {"float", "exact", "mp"} or Arithmetic
        The number system: float64, exact (SymPy rationals and radicals), or
        mpmath at its working precision; a context is returned as it is.

    Returns
    -------
    Arithmetic
        The context whose operations the metrics use.

    Examples
    --------
    >>> get_arithmetic("exact").number(0.25)
    1/4
    """
    try:
        return ARITHMETICS[arithmetic]
    except (KeyError, TypeError):  # not a name: a context, or an error
        if isinstance(arithmetic, Arithmetic):
            return arithmetic
        raise ValueError(
            f"arithmetic must be one of 'float', 'exact', 'mp'; got {arithmetic!r}"
        ) from None
