r"""One rule for the exact sign and equality of real constants (issue 22 item 2).

:func:`sign`, :func:`compare` and :func:`is_zero` decide the sign of a real
*number* given exactly (an ``int``, a :class:`fractions.Fraction`, a float
read as the binary fraction it is, or a SymPy number without symbols:
rationals, radicals, logarithms, ``pi``...; a SymPy ``Float`` alone is the
binary fraction it is, inside an expression SymPy has already rounded the
arithmetic to its precision), under one escalation policy, an
:class:`ExactPolicy` owned by the arithmetic context that asks (as mpmath's
``almosteq`` takes its tolerance from its context).  They never return a
guess: what the policy cannot decide raises
:class:`~exactfloor.errors.UndecidedError`.

The policy
----------
1. **Exact rationals**: an ``int``, a ``Fraction``, a float, a SymPy
   ``Rational`` or ``Float`` is signed exactly, with no evaluation.
2. **Interval enclosure** at ``start_dps`` digits: the expression tree is
   evaluated in mpmath's interval arithmetic (``mpmath.iv``: outward
   rounding, so the interval contains the number); an interval that excludes
   0 gives the sign, the degenerate interval ``[0, 0]`` proves 0.  Leaves
   that ``mpmath.iv`` has no function for (``CRootOf``, ``acos``...) are
   evaluated by SymPy's ``evalf`` (``strict``: its accuracy tracking) and
   widened by ``10**-dps`` relative.
3. **Cheap zero proof** (once, after the first enclosure): the numerator of
   ``together(x)`` expands to 0 (equal sums of radicals), or the logarithms,
   those of integers expanded into the logarithms of primes, cancel.
4. **Escalation**: enclosures at ``2 start_dps``, ``4 start_dps``, ... up to
   ``max_dps`` (each step doubles the digits, the last one is the cap).
5. **Proof of zero** (when ``prove``): ``minimal_polynomial(x) == X`` for an
   algebraic number (its minimal polynomial is ``X`` exactly when it is 0),
   else ``x.equals(0) is True`` (SymPy simplifies, then tries its proofs for
   constants; ``None`` proves nothing).
6. Otherwise :class:`~exactfloor.errors.UndecidedError` (the number is within
   ``10**-max_dps`` of 0, relative to its parts, and not proved 0).

Defaults (:data:`DEFAULT_POLICY`): ``start_dps = 30``, ``max_dps = 300``,
``prove = True``.  A numerical probe (a refutation that may give up) uses
``prove=False`` and a small cap.

The five rules this replaces
----------------------------
=======================================  ======================================================
site (its name then)                     former rule
=======================================  ======================================================
``numeric._guarded.Guarded``             60-digit approximations, decided when they differ by
                                         ``> 1e-40`` relative; else the expanded numerator of
                                         the difference is 0, or its sign read at 150 digits
                                         when ``> 1e-120``; else ``UndecidedError``
``numeric._arith.ExactArithmetic.same``  equal when ``u == v``; different when
                                         ``|N(u - v, 60)| > 1e-45`` relative; else
                                         ``simplify(u - v) == 0`` (False when simplify fails:
                                         a guess)
``analytic.properties.exact.compare``    Fractions exactly; 50-digit approximations decide at
                                         ``> 1e-30`` relative; ``evalf(40)`` at ``> 1e-30``;
                                         log cancellation, ``simplify``, ``equals``; else the
                                         sign of ``evalf(200)`` (a guess unless 0, then
                                         ``ValueError``)
``analytic.engines._algebraic``          100 digits; signs (cubic discriminant, Cardano terms)
                                         decided when ``|v| >= 1e-60`` absolute, else
                                         ``UndecidedError``
``analytic.properties.certificates``     a numerical refutation of an identity at two integer
(``equal``/``is_zero``)                  points: 30 digits, different when ``> 1e-20``
                                         relative
=======================================  ======================================================

Not here: the signs of *symbolic* expressions for every positive integer
value of their symbols (:func:`exactfloor.certificates.sign`,
:func:`exactfloor.ratfun.signs_for_all`) are certificates, not evaluations (both
answer with a sign set, :data:`POS` ... :data:`ANY`); their
"undecided" exception is :class:`~exactfloor.errors.UndecidedSign`, a subclass
of the same :class:`~exactfloor.errors.UndecidedError`.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral

import mpmath
import sympy

from .errors import UndecidedError

__all__ = ["ExactPolicy", "DEFAULT_POLICY", "sign", "compare", "is_zero", "vanishes", "enclose",
           "POS", "NONNEG", "ZERO", "NONPOS", "NEG", "ANY", "sign_set", "iv_dps"]

# ---------------------------------------------------------------------------
# sign sets: the one vocabulary of the floor's sign engines (issue 37)
# ---------------------------------------------------------------------------
#: ``{1}``: positive
POS = frozenset({1})
#: ``{0, 1}``: non-negative
NONNEG = frozenset({0, 1})
#: ``{0}``: zero
ZERO = frozenset({0})
#: ``{-1, 0}``: non-positive
NONPOS = frozenset({-1, 0})
#: ``{-1}``: negative
NEG = frozenset({-1})
#: ``{-1, 0, 1}``: any sign (nothing is known)
ANY = frozenset({-1, 0, 1})


def sign_set(x, policy: ExactPolicy | None = None) -> frozenset:
    """The sign of a real number as a sign set: ``frozenset({sign(x)})``.

    The sign engines for every integer value of a symbol
    (:func:`exactfloor.ratfun.signs_for_all`, :func:`exactfloor.certificates.sign`)
    answer with the set of signs an expression may take; a number takes one.

    Parameters
    ----------
    x : int, Fraction, float or SymPy number
        The number (see :func:`sign`).
    policy : ExactPolicy, optional
        The escalation policy (default :data:`DEFAULT_POLICY`).

    Returns
    -------
    frozenset
        :data:`POS`, :data:`ZERO` or :data:`NEG`.

    Examples
    --------
    >>> sign_set(sympy.sqrt(2) - 1) == POS, sign_set(0) == ZERO, NEG <= NONPOS
    (True, True, True)
    """
    return frozenset({sign(x, policy)})


iv = mpmath.iv


@dataclass(frozen=True)
class ExactPolicy:
    """The escalation policy of :func:`sign` (see the module docstring).

    Parameters
    ----------
    start_dps : int
        Digits of the first interval enclosure (default 30).
    max_dps : int
        Digits of the last one, the cap (default 300); each step doubles.
    prove : bool
        Whether a symbolic proof of zero is tried before giving up (default
        True; False for a probe that may give up cheaply).

    Examples
    --------
    >>> ExactPolicy().precisions()
    (30, 60, 120, 240, 300)
    >>> ExactPolicy(start_dps=0)
    Traceback (most recent call last):
    ...
    ValueError: start_dps must be an integer >= 1, got 0
    """

    start_dps: int = 30
    max_dps: int = 300
    prove: bool = True

    def __post_init__(self):
        for name in ("start_dps", "max_dps"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, Integral) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        if self.max_dps < self.start_dps:
            raise ValueError(f"max_dps ({self.max_dps}) must be >= start_dps ({self.start_dps})")

    def precisions(self) -> tuple:
        """The digits of the successive enclosures: doubling from ``start_dps``, capped."""
        out, dps = [], self.start_dps
        while dps < self.max_dps:
            out.append(dps)
            dps *= 2
        out.append(self.max_dps)
        return tuple(out)


#: the policy of the exact contexts unless they are given another one
DEFAULT_POLICY = ExactPolicy()


# ---------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------
def _rational(x):
    """``x`` as a Fraction when it is an exact rational, else None."""
    if isinstance(x, bool):
        raise ValueError(f"{x!r} is not a real number")
    if isinstance(x, (Integral, Fraction)):
        return Fraction(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"{x!r} is not a finite real number")
        return Fraction(x)
    if isinstance(x, (sympy.Rational, sympy.Float)):  # a Float: its exact binary value
        r = sympy.Rational(x)
        return Fraction(int(r.p), int(r.q))
    return None


def _expr(x):
    """``x`` as a SymPy number (a string is refused, never parsed)."""
    q = _rational(x)
    if q is not None:
        return sympy.Rational(q.numerator, q.denominator)
    if isinstance(x, (str, bytes)):
        raise ValueError(f"{x!r:.60} is not a number (strings are not parsed here)")
    try:
        e = sympy.sympify(x, strict=True)
    except (sympy.SympifyError, TypeError, ValueError):
        raise ValueError(f"{type(x).__name__} {x!r:.60} is not a real number") from None
    if not isinstance(e, sympy.Expr) or e.free_symbols:
        raise ValueError(f"{e!s:.60} is not a real number (it has symbols)")
    if e.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        raise ValueError(f"{e!s:.60} is not a finite real number")
    return e


# ---------------------------------------------------------------------------
# step 2: interval enclosures
# ---------------------------------------------------------------------------
class _NoEnclosure(Exception):
    """The interval evaluation cannot enclose this value (a negative radicand...)."""


def _hull(lo, hi):
    return iv.mpf([lo, hi])


def _iv(e, memo):
    """An ``mpmath.iv`` interval containing the SymPy number ``e`` (at ``iv.prec``;
    ``memo`` holds the intervals of the subexpressions already enclosed)."""
    if e not in memo:
        memo[e] = _iv_node(e, memo)
    return memo[e]


def _iv_node(e, memo):
    if e.is_Rational:
        return iv.mpf(int(e.p)) / int(e.q)
    if e.is_Float:
        return iv.mpf(_mpf(e))
    if e is sympy.pi:
        return +iv.pi  # the constant evaluated now, at iv.prec
    if e is sympy.E:
        return +iv.e
    if e.is_Add:
        out = _iv(e.args[0], memo)
        for a in e.args[1:]:
            out = out + _iv(a, memo)
        return out
    if e.is_Mul:
        out = _iv(e.args[0], memo)
        for a in e.args[1:]:
            out = out * _iv(a, memo)
        return out
    if e.is_Pow and e.exp.is_Integer:
        b = _iv(e.base, memo)
        if e.exp.is_negative and 0 in b:
            raise _NoEnclosure
        return b ** int(e.exp)
    if e.is_Pow and e.exp.is_Rational:
        b = _iv(e.base, memo)
        if b.a < 0:  # a real root of a negative number is not SymPy's principal root
            raise _NoEnclosure
        if e.exp == sympy.S.Half:
            return iv.sqrt(b)
        return iv.exp(iv.log(b) * (iv.mpf(int(e.exp.p)) / int(e.exp.q)))
    if isinstance(e, sympy.exp):
        return iv.exp(_iv(e.args[0], memo))
    if isinstance(e, sympy.log):  # SymPy's log has one argument (log(x, b) = log(x)/log(b))
        b = _iv(e.args[0], memo)
        if not b.a > 0:
            raise _NoEnclosure
        return iv.log(b)
    if isinstance(e, sympy.Abs):
        b = _iv(e.args[0], memo)
        if b.a >= 0:
            return b
        if b.b <= 0:
            return -b
        return _hull(0, max(-b.a, b.b))
    if isinstance(e, (sympy.Max, sympy.Min)):
        parts = [_iv(a, memo) for a in e.args]
        pick = max if isinstance(e, sympy.Max) else min
        return _hull(pick(p.a for p in parts), pick(p.b for p in parts))
    return _evalf_leaf(e)


def _evalf_leaf(e):
    """A node mpmath.iv has no function for: SymPy's ``evalf`` (strict) at
    ``iv.dps + 10`` digits, widened by ``10**-iv.dps`` relative."""
    dps = iv.dps
    try:
        v = e.evalf(dps + 10, strict=True)
    except (sympy.core.evalf.PrecisionExhausted, ValueError, TypeError):
        raise _NoEnclosure from None
    if not v.is_Float:  # complex, or not a number
        raise _NoEnclosure
    m = iv.mpf(_mpf(v))
    return m + iv.mpf([-1, 1]) * max(abs(m).b, 1) * iv.mpf(10) ** -dps


def _mpf(f):
    """The SymPy Float ``f`` as an mpf, exactly (not rounded to ``mp.prec``)."""
    with mpmath.workprec(f._prec):  # the Float's own precision: no rounding
        return +mpmath.mpf(f._mpf_)


def enclose(x, dps):
    """An interval (``mpmath.iv.mpf``) containing the real number ``x``,
    evaluated at ``dps`` digits, or None when the evaluation cannot enclose it.

    Parameters
    ----------
    x : int, Fraction, float or SymPy number
        The number (see :func:`sign`).
    dps : int
        The decimal digits of the interval evaluation.

    Returns
    -------
    mpmath.iv.mpf or None
        The enclosure (outward rounding), or None.

    Examples
    --------
    >>> box = enclose(sympy.sqrt(2), 20)
    >>> with mpmath.workdps(40):
    ...     mpmath.sqrt(2) in box, float(box.delta) < 1e-20
    (True, True)
    """
    q = _rational(x)
    return _enclose(_expr(x) if q is None else q, dps)


@contextlib.contextmanager
def iv_dps(dps: int):
    """``mpmath.iv`` at ``dps`` digits within the block, its precision restored after
    (``mpmath.iv`` has no ``workdps``).

    Parameters
    ----------
    dps : int
        The interval arithmetic's digits.

    Yields
    ------
    None

    Examples
    --------
    >>> with iv_dps(50):
    ...     inner = iv.dps
    >>> inner, iv.dps == 50
    (50, False)
    """
    old = iv.prec
    try:
        iv.dps = dps
        yield
    finally:
        iv.prec = old


def _enclose(e, dps):
    """:func:`enclose` of a Fraction or a checked SymPy number."""
    with iv_dps(dps):
        try:
            if isinstance(e, Fraction):
                return iv.mpf(e.numerator) / e.denominator
            return _iv(e, {})
        except (_NoEnclosure, ZeroDivisionError, mpmath.libmp.ComplexResult):
            return None


def _interval_sign(box):
    """The sign the interval ``box`` proves, or None."""
    if box is None:
        return None
    if box.a > 0:
        return 1
    if box.b < 0:
        return -1
    if box.a == 0 and box.b == 0:
        return 0
    return None


# ---------------------------------------------------------------------------
# steps 3 and 5: proofs of zero
# ---------------------------------------------------------------------------
def _cheap_zero(e) -> bool:
    """The numerator of ``together(e)`` expands to 0, or the logarithms cancel
    once those of integers are expanded over the logarithms of primes
    (``expand_log(factor=True)``, which respects the signs: no ``force``).
    True proves ``e = 0``; False decides nothing."""
    if sympy.expand(sympy.numer(sympy.together(e))) == 0:
        return True
    return e.has(sympy.log) and sympy.cancel(sympy.expand_log(e, factor=True)) == 0


def _proved_zero(e) -> bool:
    """A symbolic proof that ``e = 0`` (see the module docstring, step 5)."""
    if e.is_algebraic:
        X = sympy.Dummy()
        try:
            return sympy.minimal_polynomial(e, X) == X
        except (NotImplementedError, sympy.polys.polyerrors.PolynomialError):
            pass
    return e.equals(0) is True  # simplify first, then SymPy's proofs for constants


# ---------------------------------------------------------------------------
# the public rule
# ---------------------------------------------------------------------------
def sign(x, policy: ExactPolicy | None = None, *, box=None) -> int:
    """The exact sign (-1, 0, 1) of the real number ``x``, decided by ``policy``.

    Parameters
    ----------
    x : int, Fraction, float or SymPy number
        A float is the binary fraction it is; a string is refused.
    policy : ExactPolicy, optional
        :data:`DEFAULT_POLICY` when None.
    box : mpmath.iv.mpf, optional
        An enclosure of ``x`` already known (tried before step 2).

    Raises
    ------
    UndecidedError
        When the policy neither separates ``x`` from 0 nor proves it 0.
    ValueError
        When ``x`` is not a finite real number.

    Returns
    -------
    int
        -1, 0 or 1.

    Examples
    --------
    >>> import sympy
    >>> sign(sympy.sqrt(10**20 + 1) - 10**10), sign(sympy.log(8) - 3 * sympy.log(2))
    (1, 0)
    """
    policy = DEFAULT_POLICY if policy is None else policy
    q = _rational(x)
    if q is not None:
        return (q > 0) - (q < 0)
    return _sign(_expr(x), policy, box)


def _sign(e, policy, box):
    """:func:`sign` of a checked irrational SymPy number."""
    s = _interval_sign(box)
    if s is not None:
        return s
    for i, dps in enumerate(policy.precisions()):
        s = _interval_sign(_enclose(e, dps))
        if s is not None:
            return s
        if i == 0 and _cheap_zero(e):
            return 0
    if policy.prove and _proved_zero(e):
        return 0
    if e.is_extended_real is False:  # asked only here: the query may be slow
        raise ValueError(f"{e!s:.60} is not a real number")
    raise UndecidedError(
        f"cannot decide the sign of {e!s:.200} at {policy.max_dps} digits")


def compare(a, b, policy: ExactPolicy | None = None, *, boxes=None) -> int:
    """The exact sign of ``a - b`` (-1, 0, 1); see :func:`sign`.

    Two rationals are compared exactly; otherwise the known enclosures are tried
    before the difference's :func:`sign`.

    Parameters
    ----------
    a, b : int, Fraction, float or SymPy number
        The two numbers.
    policy : ExactPolicy, optional
        :data:`DEFAULT_POLICY` when None.
    boxes : tuple of mpmath.iv.mpf, optional
        Known enclosures ``(box_a, box_b)`` at the policy's first precision.

    Returns
    -------
    int
        -1, 0 or 1: the sign of ``a - b``.

    Raises
    ------
    UndecidedError
        When the policy does not decide it.

    Examples
    --------
    >>> import sympy
    >>> compare(sympy.sqrt(2), Fraction(141421, 100000)), compare(Fraction(1, 3), 0.5)
    (1, -1)
    """
    qa, qb = _rational(a), _rational(b)
    if qa is not None and qb is not None:
        return (qa > qb) - (qa < qb)
    policy = DEFAULT_POLICY if policy is None else policy
    if boxes is not None and boxes[0] is not None and boxes[1] is not None:
        with iv_dps(policy.start_dps):  # outward rounding at the boxes' precision
            s = _interval_sign(boxes[0] - boxes[1])
        if s is not None:
            return s
    return sign(_expr(a) - _expr(b), policy)


def is_zero(x, policy: ExactPolicy | None = None) -> bool:
    """Whether the real number ``x`` is exactly 0 (:func:`sign` is 0).

    Parameters
    ----------
    x : int, Fraction, float or SymPy number
        The number.
    policy : ExactPolicy, optional
        :data:`DEFAULT_POLICY` when None.

    Returns
    -------
    bool
        Whether ``x`` is 0.

    Raises
    ------
    UndecidedError
        When the policy neither separates ``x`` from 0 nor proves it 0.

    Examples
    --------
    >>> import sympy
    >>> is_zero(sympy.sqrt(8) - 2 * sympy.sqrt(2)), is_zero(sympy.Rational(1, 10**40))
    (True, False)
    """
    return sign(x, policy) == 0


def _witness_values(symbol):
    """Values at which an identity in ``symbol`` is probed, respecting its assumptions."""
    if symbol.is_integer:
        return [sympy.Integer(p) for p in (2, 3, 5, 7, 11, 13)]
    return [sympy.Rational(3, 7), sympy.Rational(5, 11), sympy.Integer(2), sympy.Rational(13, 5),
            sympy.Rational(1, 3), sympy.Integer(7)]


def vanishes(e, policy: ExactPolicy | None = None) -> bool:
    """Whether the expression ``e`` is 0 for every value of its symbols: the one zero test.

    A number is decided by :func:`is_zero`.  An expression with symbols is
    first probed at points that respect its symbols' assumptions (positive
    integers for integer symbols, positive rationals otherwise): a point where
    it is a number of non-zero :func:`sign` proves it is not identically 0.
    Then ``cancel(together(e)) == 0`` or ``simplify(e) == 0`` proves it is.
    Neither: :class:`~exactfloor.errors.UndecidedError` (before, a failed
    ``simplify(e) == 0`` read as "different", a guess).

    Parameters
    ----------
    e : SymPy expression or number
        The expression (symbols with their assumptions).
    policy : ExactPolicy, optional
        The escalation policy of the number tests (default :data:`DEFAULT_POLICY`).

    Returns
    -------
    bool
        True when ``e`` is identically 0, False when a point proves it is not.

    Examples
    --------
    >>> n = sympy.Symbol("n", positive=True, integer=True)
    >>> vanishes((n + 1) ** 2 - n ** 2 - 2 * n - 1), vanishes(n / (n + 1) - 1 + 1 / (n + 2))
    (True, False)
    >>> vanishes(sympy.sqrt(8) - 2 * sympy.sqrt(2))
    True
    """
    e = sympy.sympify(e, strict=True)
    symbols = sorted(e.free_symbols, key=str)
    if not symbols:
        return is_zero(e, policy)
    if e == 0:
        return True
    columns = [_witness_values(s) for s in symbols]
    for t in range(len(columns[0])):
        point = {s: col[(t + k) % len(col)] for k, (s, col) in enumerate(zip(symbols, columns, strict=True))}
        v = e.xreplace(point)
        if v.free_symbols or not v.is_number or v.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) \
                or v.is_real is False:
            continue
        try:
            if sign(v, policy) != 0:
                return False
        except (UndecidedError, TypeError, ValueError):
            continue
    if sympy.cancel(sympy.together(e)) == 0 or sympy.simplify(e) == 0:
        return True
    raise UndecidedError(f"cannot decide whether {sympy.sstr(e)[:200]} is identically 0")
