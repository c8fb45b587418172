r"""Exact real numbers in closed form over the rationals: radicals and base-2
logarithms of rationals, for the engine's exact tie screen.

The rational context (:mod:`exactfloor.rational`) runs numeric's
formulas in exact rationals; a metric that takes a root or a logarithm (RMSE,
Kendall's tau_b, the geometric mean of sensitivities, CEM-ORD...) leaves the
rationals there.  Its values are still simple: a root of a rational, a ratio
of sums of logarithms of rationals.  :class:`ClosedForm` keeps such a number
in a *canonical form*, so that two formulas giving the same number give the
same form and an exact equality is decided by comparing forms, with no
evaluation:

.. math::

   x = \frac{\sum_m c_m\, m}{\sum_{m'} d_{m'}\, m'}, \qquad
   m = \prod_p p^{e_p} \prod_{q \ne 2} (\log_2 q)^{k_q}

with rational coefficients ``c``, ``d``, primes ``p`` with exponents
``0 < e_p < 1`` (the integer part of a power of a prime goes into the
coefficient) and odd primes ``q`` with integer powers ``k_q >= 1``
(``log2(x)`` of a rational is expanded over the logarithms of its primes:
``log2(12) = 2 + log2(3)``; ``log2(2) = 1``).  The denominator is kept only
when it is not a single monomial free of logarithms (then the quotient is
folded into the numerator): CEM-ORD's ratio of two sums of logarithms.

Equality and sign
-----------------
``x = 0`` when its numerator has no term: a *proof* (the forms are equal as
polynomials in the atoms, so the numbers are).  Otherwise the sign is that
of the coefficients when they all have one sign (every atom is positive),
else an interval enclosure of the form at the first precision of
:data:`exactfloor.exact_sign.DEFAULT_POLICY`, else the whole policy
(:func:`exactfloor.exact_sign.sign` on the SymPy number, which may raise
:class:`~exactfloor.errors.UndecidedError`: no guess).  For radicals alone a
form with a term is never 0 (the products of powers of distinct primes with
exponents in ``(0, 1)`` are linearly independent over the rationals:
Besicovitch 1940, Mordell 1953), so the policy's enclosures separate it from
0 for any number this toolkit computes; for products of logarithms no such
theorem is known, and the policy decides or refuses.

What leaves these forms (a root of a sum of radicals, a logarithm of an
irrational, a root of a negative number is undefined) raises this module's
internal signal that the exact screen does not apply (the property engine
then leaves the metric's ties to the per-matrix check) or
:class:`exactfloor.errors.UndefinedMetric` (undefined, as in float64).

>>> r = power(12, Fraction(1, 2)); r            # sqrt(12) = 2 sqrt(3)
2*3^(1/2)
>>> r * r == 12, r / 2 - power(3, Fraction(1, 2)) == 0, type(r * r) is Q
(True, True, True)
>>> x = log2(Fraction(3, 4)); x, x > -1
(-2 + log2(3), True)

Rationals are ``Q``: ``gmpy2.mpq`` when gmpy2 is installed (C arithmetic,
~5x faster), else :class:`fractions.Fraction`.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from numbers import Rational

import mpmath
import sympy

from . import exact_sign
from .errors import UndefinedMetric

try:
    from gmpy2 import mpq as Q
except ImportError:  # pragma: no cover - gmpy2 is in the test extra
    Q = Fraction
QTYPE = type(Q(0))

__all__ = ["ClosedForm", "power", "log2", "coefficient", "from_sympy"]

iv = mpmath.iv

#: a monomial: ``(((p, e), ...), ((q, k), ...))``, both sorted by prime
ONE = ((), ())


class _NotExact(Exception):
    """The exact tie screen does not apply: a number leaves the closed forms (a
    root of a sum, a logarithm of an irrational), a metric returned a float,
    or it is defined on other matrices than in float64."""


def coefficient(x):
    """``x`` (an int, a Fraction, a ``gmpy2.mpq``, a numpy integer) as a ``Q``;
    None for anything else.

    A float in an exact formula is a leak: it raises the module's signal that
    the exact screen does not apply (a formula's ``0.1`` is not the binary
    fraction it holds).

    Parameters
    ----------
    x : object
        A number of an exact formula.

    Returns
    -------
    Q or None
        The rational (``gmpy2.mpq`` when gmpy2 is installed, else a
        :class:`~fractions.Fraction`); None when ``x`` is not a rational
        (a :class:`ClosedForm`, a string...).

    Examples
    --------
    >>> coefficient(Fraction(1, 2)) == Fraction(1, 2), coefficient("1")
    (True, None)
    >>> try:
    ...     coefficient(0.5)
    ... except Exception as exc:
    ...     print(exc)
    a float in an exact formula: 0.5
    """
    if type(x) is QTYPE:
        return x
    if isinstance(x, int):  # a bool too
        return Q(int(x))
    if isinstance(x, Rational):  # Fraction, gmpy2.mpq, numpy's integers, SymPy's Rational
        # (parts as ints: a Fraction built from an mpq holds gmpy2's mpz, which mpq refuses)
        return Q(int(x.numerator), int(x.denominator))
    if isinstance(x, float):
        raise _NotExact(f"a float in an exact formula: {x!r}")
    return None


_SMALL_PRIMES = tuple(sympy.sieve.primerange(2, 1024))

try:  # FLINT's factorisation (C): ~100x SymPy's on this toolkit's numbers
    from flint import fmpz as _fmpz
except ImportError:  # pragma: no cover - python-flint is in the test extra
    _fmpz = None


def _factors_uncached(n: int) -> tuple:
    """The prime factorisation ``((p, v), ...)`` of ``n >= 1``, by python-flint
    when installed (the ``fast`` extra), else by trial division by the primes
    below 1024 and SymPy's ``factorint`` for a cofactor that is not a prime.

    >>> _factors(2 ** 3 * 1031 ** 2 * 1033), _factors(1)
    (((2, 3), (1031, 2), (1033, 1)), ())
    """
    if _fmpz is not None:
        return tuple(sorted((int(p), int(v)) for p, v in _fmpz(int(n)).factor()))
    out = []
    for p in _SMALL_PRIMES:
        if p * p > n:
            break
        if n % p == 0:
            v = 0
            while n % p == 0:
                n //= p
                v += 1
            out.append((p, v))
    if n > 1:
        if n < 1024 * 1024 or sympy.isprime(n):
            out.append((n, 1))
        else:
            out.extend(sympy.factorint(n).items())
    return tuple(sorted(out))


#: cached (an undecorated body, so that mutmut can mutate it: it skips decorated functions)
_factors = functools.lru_cache(maxsize=1 << 16)(_factors_uncached)


def _times_uncached(a, b):
    """``(c, m)``: the monomial ``a * b`` is ``c m`` (``m`` canonical, ``c`` an integer)."""
    rad = dict(a[0])
    c = 1
    for p, e in b[0]:
        e = rad.get(p, 0) + e
        if e >= 1:
            c *= p
            e -= 1
        if e:
            rad[p] = e
        else:
            rad.pop(p, None)
    logs = dict(a[1])
    for q, k in b[1]:
        logs[q] = logs.get(q, 0) + k
    return c, (tuple(sorted(rad.items())), tuple(sorted(logs.items())))


#: cached (an undecorated body, so that mutmut can mutate it: it skips decorated functions)
_times = functools.lru_cache(maxsize=1 << 16)(_times_uncached)


def _inverse_uncached(m):
    """``(c, m')`` with ``1 / m = c m'`` for a monomial free of logarithms."""
    c = Q(1)
    rad = []
    for p, e in m[0]:
        c /= p
        rad.append((p, 1 - e))
    return c, (tuple(rad), ())


#: cached (an undecorated body, so that mutmut can mutate it: it skips decorated functions)
_inverse = functools.lru_cache(maxsize=1 << 16)(_inverse_uncached)


def _add(a: dict, b: dict) -> dict:
    out = dict(a)
    for m, c in b.items():
        c = out.get(m, 0) + c
        if c:
            out[m] = c
        else:
            out.pop(m, None)
    return out


def _mul(a: dict, b: dict) -> dict:
    out = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            k, m = _times(ma, mb)
            c = out.get(m, 0) + k * ca * cb
            if c:
                out[m] = c
            else:
                out.pop(m, None)
    return out


def _scale(a: dict, c) -> dict:
    return {m: c * v for m, v in a.items()} if c else {}


def _number(num: dict, den: dict | None):
    """The canonical number: a ``Q`` when it is rational, else a ClosedForm."""
    if den is not None and len(den) == 1:
        (m, d), = den.items()
        if not m[1]:  # a monomial free of logarithms: fold it into the numerator
            c, inv = _inverse(m)
            num, den = _mul(num, {inv: c / d}), None
    if not num:
        return Q(0)
    if den is None and len(num) == 1 and ONE in num:
        return num[ONE]
    return ClosedForm(num, den)


def _parts(x):
    """``(num, den)`` of a rational or a ClosedForm; None for anything else."""
    if isinstance(x, ClosedForm):
        return x.num, x.den
    c = coefficient(x)
    if c is None:
        return None
    return ({ONE: c} if c else {}), None


# ---------------------------------------------------------------------------
# signs: the canonical form, then exactfloor.exact_sign's policy
# ---------------------------------------------------------------------------
def _monomial_box_uncached(m, dps):
    with exact_sign.iv_dps(dps):
        box = iv.mpf(1)
        for p, e in m[0]:
            box *= iv.exp(iv.log(iv.mpf(p)) * (iv.mpf(int(e.numerator)) / int(e.denominator)))
        for q, k in m[1]:
            box *= (iv.log(iv.mpf(q)) / iv.log(iv.mpf(2))) ** k
        return box


#: cached (an undecorated body, so that mutmut can mutate it: it skips decorated functions)
_monomial_box = functools.lru_cache(maxsize=1 << 16)(_monomial_box_uncached)


def _box(poly: dict, dps: int):
    with exact_sign.iv_dps(dps):
        box = iv.mpf(0)
        for m, c in poly.items():
            box += iv.mpf(int(c.numerator)) / int(c.denominator) * _monomial_box(m, dps)
        return box


def _sympy_monomial(m):
    out = sympy.Integer(1)
    for p, e in m[0]:
        out *= sympy.Pow(sympy.Integer(p), sympy.Rational(int(e.numerator), int(e.denominator)))
    for q, k in m[1]:
        out *= (sympy.log(q) / sympy.log(2)) ** k
    return out


def _sympy(poly: dict):
    return sympy.Add(*(sympy.Rational(int(c.numerator), int(c.denominator)) * _sympy_monomial(m)
                       for m, c in poly.items()))


def _poly_sign(poly: dict) -> int:
    if not poly:
        return 0
    signs = {c > 0 for c in poly.values()}
    if len(signs) == 1:  # every atom is positive
        return 1 if signs.pop() else -1
    if len(poly) == 2:
        (m1, c1), (m2, c2) = poly.items()
        if not m1[1] and not m2[1]:
            if m2 != ONE:  # c1 m1 + c2 m2 = m2 (c1 m1 / m2 + c2), m2 > 0
                ci, inv = _inverse(m2)
                k, m = _times(m1, inv)
                m1, c1, m2, c2 = m, c1 * ci * k, ONE, c2
            return _two_term_sign({ONE: c2, m1: c1})
    return _enclosure_sign(poly)


def _two_term_sign(poly: dict) -> int:
    """The sign of ``a + b m`` (``a``, ``b`` rationals of opposite signs, ``m``
    a monomial free of logarithms, not 1), exactly: ``|a|`` against ``|b| m``,
    both positive, compared by their ``L``-th powers, ``L`` the common
    denominator of ``m``'s exponents (then ``m^L`` is a rational).  (Two
    radical terms ``c1 m1 + c2 m2`` come here divided by ``m2 > 0``.)"""
    (m, b), = ((k, v) for k, v in poly.items() if k != ONE)
    a = poly[ONE]
    L = 1
    for _, e in m[0]:
        L = L * int(e.denominator) // math.gcd(L, int(e.denominator))
    mL = Q(1)
    for p, e in m[0]:
        mL *= Q(p) ** int(e * L)
    lhs, rhs = abs(a) ** L, abs(b) ** L * mL  # |a|^L against (|b| m)^L
    big = (lhs > rhs) - (lhs < rhs)  # the sign of |a| - |b| m
    return big if a > 0 else -big


def _enclosure_sign(poly: dict) -> int:
    policy = exact_sign.DEFAULT_POLICY
    box = _box(poly, policy.start_dps)
    s = exact_sign._interval_sign(box)
    return s if s is not None else exact_sign.sign(_sympy(poly), policy, box=box)


class ClosedForm:
    """An irrational real number in the canonical form of the module docstring.

    Rationals are ``Q``: the functions of this module never build a rational
    ClosedForm from a denominator-free form.  Immutable; not hashable (a
    general quotient has several forms).  Built by :func:`power`, :func:`log2`,
    :func:`from_sympy` and the arithmetic of closed forms, not by hand.

    Parameters
    ----------
    num : dict
        The numerator: ``{monomial: coefficient}``, a monomial being
        ``(((p, e), ...), ((q, k), ...))`` (the primes under a fractional power
        and the odd primes under a power of ``log2``, both sorted by prime), the
        coefficients rationals ``Q``.
    den : dict or None, optional
        The denominator in the same form; None when it is 1.

    Examples
    --------
    >>> x = power(2, Fraction(1, 2)) + log2(3)
    >>> x, x.num == {(((2, Fraction(1, 2)),), ()): 1, ((), ((3, 1),)): 1}, x.den
    (log2(3) + 2^(1/2), True, None)
    >>> x.sign(), x < 3, x.to_sympy()             # 2.99917... < 3, certified
    (1, True, sqrt(2) + log(3)/log(2))
    """

    __slots__ = ("num", "den", "_sign")
    __hash__ = None

    def __init__(self, num: dict, den: dict | None = None):
        self.num, self.den, self._sign = num, den, None

    # -- arithmetic -------------------------------------------------------------
    def __add__(self, other):
        o = _parts(other)
        if o is None:
            return NotImplemented
        if self.den is None and o[1] is None:
            return _number(_add(self.num, o[0]), None)
        d1 = self.den or {ONE: Q(1)}
        d2 = o[1] or {ONE: Q(1)}
        return _number(_add(_mul(self.num, d2), _mul(o[0], d1)), _mul(d1, d2))

    __radd__ = __add__

    def __neg__(self):
        return ClosedForm(_scale(self.num, Q(-1)), self.den)

    def __pos__(self):
        return self

    def __sub__(self, other):
        o = _parts(other)
        if o is None:
            return NotImplemented
        return self + (-_number(*o))

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if not isinstance(other, ClosedForm):  # a rational: scale the numerator
            c = coefficient(other)
            if c is None:
                return NotImplemented
            return _number(_scale(self.num, c), self.den) if c else Q(0)
        o = _parts(other)
        if self.den is not None and o[1] is not None:
            den = _mul(self.den, o[1])
        else:
            den = self.den if o[1] is None else o[1]
        return _number(_mul(self.num, o[0]), den)

    __rmul__ = __mul__

    def __truediv__(self, other):
        o = _parts(other)
        if o is None:
            return NotImplemented
        return self * _reciprocal(*o)

    def __rtruediv__(self, other):
        o = _parts(other)
        if o is None:
            return NotImplemented
        return _reciprocal(self.num, self.den) * _number(*o)

    def __pow__(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            return power(self, k)
        out = Q(1)
        for _ in range(abs(k)):
            out = self * out
        return out if k >= 0 else 1 / out

    def __abs__(self):
        return -self if self.sign() < 0 else self

    # -- comparisons ------------------------------------------------------------
    def sign(self) -> int:
        """-1, 0 or 1 (see the module docstring); may raise ``UndecidedError``."""
        if self._sign is None:
            s = _poly_sign(self.num)
            if s and self.den is not None:
                s *= _poly_sign(self.den)
            self._sign = s
        return self._sign

    def _cmp(self, other):
        if isinstance(other, float):  # compared as the binary fraction it is
            if other != other:
                return None
            if abs(other) == float("inf"):
                return -1 if other > 0 else 1
            other = Q(other)
        o = _parts(other)
        if o is None:
            return NotImplemented
        d = self - _number(*o)
        return d.sign() if isinstance(d, ClosedForm) else _rational_sign(d)

    def _compare(self, other, test):
        s = self._cmp(other)
        if s is NotImplemented:
            return NotImplemented
        return False if s is None else test(s)

    def __lt__(self, other):
        return self._compare(other, lambda s: s < 0)

    def __le__(self, other):
        return self._compare(other, lambda s: s <= 0)

    def __gt__(self, other):
        return self._compare(other, lambda s: s > 0)

    def __ge__(self, other):
        return self._compare(other, lambda s: s >= 0)

    def __eq__(self, other):
        return self._compare(other, lambda s: s == 0)

    def __ne__(self, other):
        s = self._cmp(other)
        return NotImplemented if s is NotImplemented else s != 0

    def __bool__(self):
        return self.sign() != 0

    def __float__(self):
        return float(mpmath.mpf(self.to_sympy().evalf(20)))

    # -- conversion --------------------------------------------------------------
    def to_sympy(self):
        """The same number as a SymPy expression."""
        n = _sympy(self.num)
        return n if self.den is None else n / _sympy(self.den)

    def __repr__(self):
        def show(poly):
            terms = []
            for m, c in sorted(poly.items(), key=lambda t: (t[0] != ONE, t[0])):
                atoms = [f"{p}^({e})" for p, e in m[0]]
                atoms += [f"log2({q})" + (f"^{k}" if k > 1 else "") for q, k in m[1]]
                if not atoms:
                    terms.append(str(c))
                else:
                    lead = "" if c == 1 else "-" if c == -1 else f"{c}*"
                    terms.append(lead + "*".join(atoms))
            return " + ".join(terms).replace("+ -", "- ")

        text = show(self.num)
        return text if self.den is None else f"({text})/({show(self.den)})"


def _rational_sign(q) -> int:
    return (q > 0) - (q < 0)


def _reciprocal(num: dict, den: dict | None):
    if not num:
        raise ZeroDivisionError("division by an exact 0")
    return _number(den if den is not None else {ONE: Q(1)}, num)


def power(x, e):
    """``x ** e`` for a rational ``x >= 0`` (or a positive monomial free of
    logarithms) and a rational exponent ``e``; a negative base with a
    fractional exponent is undefined (:class:`exactfloor.errors.UndefinedMetric`).

    Parameters
    ----------
    x : int, fractions.Fraction, Q or ClosedForm
        The base.
    e : int, fractions.Fraction or Q
        The exponent.

    Returns
    -------
    Q or ClosedForm
        The power: a rational when it is one, else its closed form.

    Raises
    ------
    exactfloor.errors.UndefinedMetric
        A root of a negative number.
    ZeroDivisionError
        A negative power of 0.

    Examples
    --------
    >>> power(Fraction(3, 4), Fraction(1, 3)), power(8, Fraction(2, 3)) == 4
    (1/2*2^(1/3)*3^(1/3), True)
    """
    e = coefficient(e)
    if isinstance(x, ClosedForm):
        if e.denominator == 1:
            return x ** int(e)
        if x.den is not None or len(x.num) != 1:
            raise _NotExact(f"a power of a sum of terms: ({x!r:.60})**{e}")
        (m, c), = x.num.items()
        if m[1]:
            raise _NotExact(f"a power of a logarithm: ({x!r:.60})**{e}")
        out = power(c, e)  # UndefinedMetric for c < 0 (e is not an integer here)
        atoms = {}
        for p, a in m[0]:
            atoms[p] = a * e
        return out * _prime_powers(atoms)
    c = coefficient(x)
    if c is None:
        raise _NotExact(f"a power of {x!r:.40}")
    return _rational_power(c, e)


def _rational_power_uncached(c, e):
    """``c ** e`` for rationals (the closed forms are immutable: shared)."""
    if e.denominator == 1:
        return c ** int(e) if c or e >= 0 else _zero_division()
    if c < 0:
        raise UndefinedMetric(f"a root of a negative number: ({c})**{e}")
    if not c:
        if e < 0:
            return _zero_division()
        return Q(0)
    atoms = {}
    for n, s in ((c.numerator, 1), (c.denominator, -1)):
        for p, v in _factors(n):
            atoms[p] = atoms.get(p, 0) + s * v * e
    return _prime_powers(atoms)


#: cached (an undecorated body, so that mutmut can mutate it: it skips decorated functions)
_rational_power = functools.lru_cache(maxsize=1 << 16)(_rational_power_uncached)


def _zero_division():
    raise ZeroDivisionError("a power of 0 with a negative exponent")


def _prime_powers(atoms: dict):
    """``prod p ** a`` for rational ``a``, in canonical form."""
    c = Q(1)
    rad = []
    for p in sorted(atoms):
        a = atoms[p]
        whole = int(a.numerator // a.denominator)  # floor
        c *= Q(p) ** whole
        if a - whole:
            rad.append((p, a - whole))
    return _number({(tuple(rad), ()): c}, None)


def log2(x):
    """``log2(x)`` of a positive rational, over the logarithms of its primes;
    ``log2(0)`` and a negative ``x`` are undefined (:class:`exactfloor.errors.UndefinedMetric`).

    Parameters
    ----------
    x : int, fractions.Fraction or Q
        A rational.

    Returns
    -------
    Q or ClosedForm
        The logarithm: a rational when ``x`` is a power of 2, else its closed form.

    Raises
    ------
    exactfloor.errors.UndefinedMetric
        When ``x <= 0``.

    Examples
    --------
    >>> log2(24), log2(Fraction(1, 8)) == -3
    (3 + log2(3), True)
    """
    c = coefficient(x)
    if c is None:
        raise _NotExact(f"a logarithm of {x!r:.40}")
    return _rational_log2(c)


def _rational_log2_uncached(c):
    if c <= 0:
        raise UndefinedMetric(f"log2 of {c}, not a positive number")
    poly = {}
    for n, s in ((c.numerator, 1), (c.denominator, -1)):
        for p, v in _factors(n):
            m = ONE if p == 2 else ((), ((p, 1),))
            poly = _add(poly, {m: Q(s * v)})
    return _number(poly, None)


#: cached (an undecorated body, so that mutmut can mutate it: it skips decorated functions)
_rational_log2 = functools.lru_cache(maxsize=1 << 16)(_rational_log2_uncached)


def from_sympy(e):
    """A SymPy number built of rationals by ``+``, ``*`` and rational powers
    (a bound such as ``sqrt(2)/2``) as a ``Q`` or a ClosedForm; anything
    else raises the module's signal that the exact screen does not apply.

    Parameters
    ----------
    e : sympy.Expr
        A SymPy number without symbols.

    Returns
    -------
    Q or ClosedForm
        The same number: a rational when it is one, else its closed form.

    Examples
    --------
    >>> from_sympy(sympy.sqrt(2) / 2), from_sympy(sympy.Rational(3, 4)) == Fraction(3, 4)
    (1/2*2^(1/2), True)
    """
    e = sympy.sympify(e, strict=True)
    if e.is_Rational:
        return Q(int(e.p), int(e.q))
    if e.is_Add or e.is_Mul:
        parts = [from_sympy(a) for a in e.args]
        out = parts[0]
        for a in parts[1:]:
            out = out + a if e.is_Add else out * a
        return out
    if e.is_Pow and e.exp.is_Rational:
        return power(from_sympy(e.base), Q(int(e.exp.p), int(e.exp.q)))
    raise _NotExact(f"{e!s:.40} is not a closed form of rationals")
