r"""Certified signs, zero tests and definedness of expressions in positive integer symbols.

The certificate engine of :mod:`analytic.properties.prover` (and of any proof over
matrices of counts): an expression in SymPy symbols declared positive
integers is

- *signed* (:func:`sign`): a sign set of :mod:`exactfloor.exact_sign` (``POS``,
  ``NONNEG``, ``ZERO``, ``NONPOS``, ``NEG``: the signs it may take) certified
  for **every** positive integer value of its symbols, or ``ANY`` (nothing
  certified);
- *checked defined* (:func:`defined`): no zero denominator, no even root or
  logarithm of a number that may be negative;
- *tested for an identity* (:func:`equal`, :func:`is_zero`): the non-rational
  parts frozen into new symbols, the difference put over one denominator as
  sparse polynomials and reduced modulo the relations of the roots.

Every rule is sufficient, not necessary: ``None``/``False`` proves nothing,
but a certified answer must hold at every instance (tested by evaluation in
``proofs_tests/test_certificates*.py``).

The sign of a *number* met on the way (a number term, the difference of two
sides at an integer point in :func:`equal`'s refutation) is decided by the
one rule of :mod:`exactfloor.exact_sign` (issue 22 item 2); a polynomial too
large to form (beyond :data:`MAX_TERMS` terms) is not formed: the answer is
then "not certified" (never a guess).

Positivity certificate
----------------------
A polynomial ``p`` in positive integer symbols ``x_i >= 1`` is shifted to
``q(y) = p(1 + y)``, ``y_i >= 0``; if every coefficient of ``q`` is
non-negative then ``p >= 0`` on every instance, and ``p > 0`` if the
constant term ``q(0) = p(1, ..., 1)`` is positive as well (Pólya-type
certificate; sufficient, not necessary).  A rational function is signed by
its numerator and denominator.  The same rules with signs reversed give
non-positivity.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import sympy as sp
from sympy import ZZ
from sympy.polys.rings import ring

from . import exact_sign
from .errors import UndecidedError
from .exact_sign import ANY, NEG, NONNEG, NONPOS, POS, ZERO
from .tolerance import PROBE, PROBE_DPS

__all__ = ["sign", "defined", "equal", "is_zero", "MAX_TERMS"]


# ---------------------------------------------------------------------------
# signs, zeros and definedness of expressions in positive integer symbols
# ---------------------------------------------------------------------------
# the floor's sign sets (issue 37: the vocabulary of exactfloor.ratfun.signs_for_all too);
# inside this module None stands for "nothing certified", ANY at the public boundary
_POS, _NONNEG, _ZERO, _NONPOS, _NEG = POS, NONNEG, ZERO, NONPOS, NEG
_FLIP = {_POS: _NEG, _NONNEG: _NONPOS, _ZERO: _ZERO, _NONPOS: _NONNEG, _NEG: _POS, None: None}


def _ge0(s):
    return s in (_POS, _NONNEG, _ZERO)


def _le0(s):
    return s in (_NEG, _NONPOS, _ZERO)


def _nonzero(s):
    return s in (_POS, _NEG)


def _poly_sign(p):
    """The certified sign of a polynomial (a ``PolyElement`` over QQ) at every
    positive integer value of its generators: the shift certificate, then
    the signs of its square-free factors (``(a - b)**2 >= 0``) for a small
    polynomial."""
    if not p:
        return _ZERO
    if p.is_ground:
        return _POS if p.LC > 0 else _NEG
    shifted = _shift_by_one(p)
    coeffs = list(shifted.values())
    const = shifted.get((0,) * p.ring.ngens, 0)
    if all(c >= 0 for c in coeffs):
        return _POS if const > 0 else _NONNEG
    if all(c <= 0 for c in coeffs):
        return _NEG if const < 0 else _NONPOS
    for q, flip in ((p, False), (-p, True)):
        rest = _complete_squares(q)
        if rest is not None:
            s = _poly_sign(rest)
            if _ge0(s):
                s = _POS if s == _POS else _NONNEG
                return _FLIP[s] if flip else s
    if len(coeffs) <= _FACTOR_TERMS:
        c, factors = p.sqf_list()
        if len(factors) > 1 or any(m > 1 for _, m in factors):
            parts = [_POS if c > 0 else _NEG]
            for f, mult in factors:
                s = _poly_sign(f)  # a proper factor of p
                if mult % 2 == 0:
                    parts.append(_POS if _nonzero(s) else _NONNEG)
                else:
                    parts.append(s)
            return _mul_signs(parts)
    return None


def _shift_by_one(p):
    """The terms ``{monomial: coefficient}`` of ``p(x_1 + 1, ..., x_n + 1)``.

    One variable at a time, each power expanded by the binomial theorem (the
    same polynomial as ``p.compose([(x, x + 1) for x in gens])``, without
    SymPy's generic products of polynomials).  SymPy's ``R.dmp_shift(p, [1] *
    n)`` gives the same terms; on a random 9-variable polynomial of 300 terms
    this took 0.10 s against its 0.15 s and ``compose``'s 0.71 s.

    >>> from sympy.polys.rings import ring
    >>> R, a, b = ring("a, b", ZZ)
    >>> sorted((m, int(c)) for m, c in _shift_by_one(a**2 - a*b).items())  # (a+1)^2 - (a+1)(b+1)
    [((0, 1), -1), ((1, 0), 1), ((1, 1), -1), ((2, 0), 1)]
    """
    terms = dict(p.terms())
    for v in range(p.ring.ngens):
        out = {}
        for mono, c in terms.items():
            k = mono[v]
            for j in range(k + 1):
                m = mono[:v] + (j,) + mono[v + 1:]
                out[m] = out.get(m, 0) + c * math.comb(k, j)
        terms = out
    return {m: c for m, c in terms.items() if c}


def _complete_squares(p):
    """``2p - sum(g u (x - y)**2)``, ``g > 0``, ``u`` a monomial: each negative
    term ``-2 g x y u`` of ``2p`` absorbed with ``g x**2 u`` and ``g y**2 u``
    (so that ``p >= 0`` wherever the rest is >= 0, and ``p > 0`` wherever it
    is > 0); None when no term can be absorbed.

    >>> from sympy.polys.rings import ring
    >>> R, a, b, c = ring("a, b, c", ZZ)
    >>> _complete_squares(a*b + a*c + b**2 - 2*b*c + c**2)   # a(b + c) + (b - c)**2
    2*a*b + 2*a*c
    """
    R = p.ring
    n = len(R.gens)
    terms = {m: 2 * c for m, c in p.terms()}
    changed = False
    for mono, coeff in sorted(p.terms()):
        if coeff >= 0 or terms.get(mono, 0) >= 0:
            continue
        for i, j in itertools.combinations([v for v in range(n) if mono[v]], 2):
            u = list(mono)
            u[i] -= 1
            u[j] -= 1
            ma, mb = list(u), list(u)
            ma[i] += 2
            mb[j] += 2
            ma, mb = tuple(ma), tuple(mb)
            half = -terms[mono] // 2
            if terms.get(ma, 0) >= half and terms.get(mb, 0) >= half:
                terms[ma] -= half
                terms[mb] -= half
                terms[mono] = 0
                changed = True
                break
    if not changed:
        return None
    return R.from_dict({m: c for m, c in terms.items() if c})


#: largest number of terms of a polynomial whose square-free factorisation
#: :func:`_poly_sign` tries
_FACTOR_TERMS = 12


def _rational_sign(e):
    """The sign of a rational function of the symbols (numerator and denominator);
    None unless every symbol is declared a positive integer (the certificate
    assumes values >= 1)."""
    if not all(x.is_integer and x.is_positive for x in e.free_symbols):
        return None
    fz = _Frozen()
    r = fz.freeze(e)
    if fz.atoms:
        return None
    try:
        num, den = _fraction(r)
    except _TooLarge:
        return None
    sn, sd = _poly_sign(num), _poly_sign(den)
    if sn is None or not _nonzero(sd):
        return None
    return sn if sd == _POS else _FLIP[sn]


def _mul_signs(signs):
    out = _POS
    for s in signs:
        if s is None:
            return None
        if s == _ZERO:
            return _ZERO
        neg = out in (_NEG, _NONPOS)
        weak = out in (_NONNEG, _NONPOS) or s in (_NONNEG, _NONPOS)
        if s in (_NEG, _NONPOS):
            neg = not neg
        out = (_NONPOS if neg else _NONNEG) if weak else (_NEG if neg else _POS)
    return out


def _add_signs(signs):
    if all(s == _ZERO for s in signs):
        return _ZERO
    if all(_ge0(s) for s in signs):
        return _POS if _POS in signs else _NONNEG
    if all(_le0(s) for s in signs):
        return _NEG if _NEG in signs else _NONPOS
    return None


def _pow_sign(base, ex):
    b = _certified(base)
    if ex.is_Integer:
        if ex == 0:
            return _POS
        if ex < 0 and not _nonzero(b):
            return None
        if ex % 2 == 0:
            return _POS if _nonzero(b) else (_NONNEG if b is not None else _NONNEG)
        return b
    # a real root or power: defined for a non-negative base
    if b == _POS:
        return _POS
    if b in (_NONNEG, _ZERO) and ex > 0:
        return _NONNEG if b == _NONNEG else _ZERO
    return None


def _add_rewrite(e):
    """The sign of ``a - Max(...)``, ``a - sqrt(x)``, ``P + Q`` and similar.

    ``P + Q`` of two terms whose squares have no roots, ``P >= 0``: if also
    ``Q <= 0`` it has the sign of ``P^2 - Q^2`` (``P - |Q|`` times the
    positive ``P + |Q|``, or both vanish); else ``P^2 > Q^2`` (``>= 0``)
    gives ``P > |Q| >= -Q`` (``P + Q >= 0``).  ``P <= 0`` likewise with
    signs reversed.  Otherwise one special term ``t`` with coefficient
    ``c = +-1`` and the rest ``a``.
    """
    if len(e.args) == 2:
        for flip in (False, True):
            for x, y in (e.args, e.args[::-1]):
                if flip:
                    x, y = -x, -y
                if not (_ge0(_certified(x)) and _square_roots_only(x, y)):
                    continue
                s2 = _certified(x ** 2 - y ** 2)
                if _ge0(_certified(-y)):
                    out = s2
                elif s2 == _POS:
                    out = _POS
                elif s2 in (_NONNEG, _ZERO):
                    out = _NONNEG
                else:
                    out = None
                if out is not None:
                    return _FLIP[out] if flip else out
    for t in e.args:
        coeff, core = t.as_coeff_Mul()
        if coeff not in (1, -1):
            continue
        rest = e - t
        if isinstance(core, (sp.Max, sp.Min)):
            # rest + c*Max(x_i): Max(rest + x_i) for c = 1, Min(rest - x_i) for c = -1
            parts = [_certified(rest + coeff * x) for x in core.args]
            use_max = isinstance(core, sp.Max) == (coeff == 1)
            return _max_sign(parts) if use_max else _min_sign(parts)
        if isinstance(core, sp.Pow) and core.exp == sp.Rational(1, 2):
            # rest + c*sqrt(x) with sqrt(x) >= 0
            x = core.base
            sr = _certified(rest)
            if coeff == -1 and _ge0(sr):        # rest - sqrt(x) ~ rest^2 - x
                return _certified(rest ** 2 - x)
            if coeff == 1 and _le0(sr):         # sqrt(x) - (-rest) ~ x - rest^2
                return _certified(x - rest ** 2)
    return None


def _square_roots_only(p, q):
    """``p`` and ``q`` (numbers or products, not sums) have square roots, of
    radicands without roots, and no other roots: their squares have none.

    The squares are checked too: a root inside a function is not squared away
    (``Max(1, sqrt(a))**2`` still holds ``sqrt(a)``), and squaring again and
    again never ended (``_certified(Max(1, sqrt(a)) - sqrt(b))`` was a RecursionError).
    """
    if p.is_Add or q.is_Add:
        return False
    roots = [x for e in (p, q) for x in e.atoms(sp.Pow) if not x.exp.is_Integer]
    if not (bool(roots) and all(
            x.exp.is_Rational and x.exp.q == 2
            and all(y.exp.is_Integer for y in x.base.atoms(sp.Pow)) for x in roots)):
        return False
    return all(x.exp.is_Integer for e in (p, q) for x in (e ** 2).atoms(sp.Pow))


def _is_rational(e):
    """``e`` is built from symbols and rationals by ``+``, ``*`` and integer powers."""
    for x in sp.preorder_traversal(e):
        if not (x.is_Add or x.is_Mul or x.is_Symbol or x.is_Rational
                or (x.is_Pow and x.exp.is_Integer)):
            return False
    return True


def _max_sign(parts):
    if _POS in parts:
        return _POS
    ge, le = any(_ge0(s) for s in parts), all(_le0(s) for s in parts)
    if ge and le:
        return _ZERO
    if ge:
        return _NONNEG
    if le:
        return _NEG if all(s == _NEG for s in parts) else _NONPOS
    return None


def _min_sign(parts):
    return _FLIP[_max_sign([_FLIP[s] for s in parts])]


def sign(e) -> frozenset:
    """The certified sign set of ``e`` for every positive integer value of its symbols.

    Structural rules (sums and products of signed terms, powers, ``Max``,
    ``Min``, ``Abs``, ``log``, ``c - Max``, ``P + Q`` by squares), then the
    positivity certificate of a rational function (module docstring).

    Parameters
    ----------
    e : sympy.Expr
        An expression in symbols declared positive integers.

    Returns
    -------
    frozenset
        A sign set of :mod:`exactfloor.exact_sign` (the vocabulary of
        :func:`exactfloor.ratfun.signs_for_all` too): the signs ``e`` may take,
        certified: :data:`~exactfloor.exact_sign.POS` (``{1}``),
        :data:`~exactfloor.exact_sign.NONNEG` (``{0, 1}``),
        :data:`~exactfloor.exact_sign.ZERO`, :data:`~exactfloor.exact_sign.NONPOS`,
        :data:`~exactfloor.exact_sign.NEG`, or :data:`~exactfloor.exact_sign.ANY`
        (``{-1, 0, 1}``) when no sign is certified (which proves nothing either way).

    Examples
    --------
    >>> a, b = sp.symbols("a b", integer=True, positive=True)
    >>> [sorted(s) for s in (sign(a / (a + b)), sign(a - 1), sign(a - b))]
    [[1], [0, 1], [-1, 0, 1]]
    >>> sign(1 - a / (a + b)) == POS
    True
    """
    s = _certified(e)
    return ANY if s is None else s


def _certified(e):
    """:func:`sign` inside this module: a sign set, or None when nothing is certified."""
    e = sp.sympify(e, strict=True)  # a string is refused, never parsed
    try:
        return _sign(e)
    except RecursionError:  # a rewriting that does not terminate: nothing certified
        return None
    except _DefinedNowhere:  # a denominator identically 0: nothing to certify
        return None




def _sign_uncached(e):
    """:func:`sign` of a SymPy expression (cached as :func:`_sign`)."""
    if e.is_Number:
        return exact_sign.sign_set(e)
    if e.is_Symbol:
        return _POS if e.is_positive else None
    s = None
    if e.is_Add:
        s = _add_signs([_certified(t) for t in e.args])
        if s is None and _is_rational(e):
            return _rational_sign(e)
        if s is None:
            s = _add_rewrite(e)
    elif e.is_Mul:
        s = _mul_signs([_certified(t) for t in e.args])
    elif e.is_Pow:
        s = _pow_sign(e.base, e.exp)
    elif isinstance(e, sp.Max):
        s = _max_sign([_certified(x) for x in e.args])
    elif isinstance(e, sp.Min):
        s = _min_sign([_certified(x) for x in e.args])
    elif isinstance(e, sp.Abs):
        inner = _certified(e.args[0])
        s = _POS if _nonzero(inner) else (_ZERO if inner == _ZERO else _NONNEG)
    elif isinstance(e, sp.log):
        s = _certified(e.args[0] - 1)
        if s is not None and not _ge0(_certified(e.args[0])):
            s = None
    if s is None:
        s = _rational_sign(e)
    return s


#: the cache of :func:`sign` (an undecorated body, so that mutation testing
#: can mutate it: mutmut skips decorated functions)
_sign = functools.lru_cache(maxsize=20000)(_sign_uncached)


_TOTAL = (sp.Add, sp.Mul, sp.Max, sp.Min, sp.Abs)


def defined(e) -> str | None:
    """Whether ``e`` is certified to be a real number at every positive
    integer value of its symbols: no zero denominator, no root or logarithm
    of a negative number (signs by :func:`sign`).

    Parameters
    ----------
    e : sympy.Expr
        An expression in symbols declared positive integers.

    Returns
    -------
    str or None
        ``None`` when certified, else the first offending subexpression
        (which proves nothing either way: the rules are sufficient).

    Examples
    --------
    >>> a, b = sp.symbols("a b", integer=True, positive=True)
    >>> defined(a / (a + b)), defined(1 / (a - 1)), defined(sp.sqrt(a - b))
    (None, '1/(a - 1)', 'sqrt(a - b)')
    """
    e = sp.sympify(e, strict=True)
    if e.is_Atom:
        # a real number or a symbol declared real: not I (sqrt(-(a - b)**2) is
        # I*Abs(a - b) in SymPy), oo, zoo, nan, nor a symbol of unknown domain
        return None if e.is_real else str(e)
    if e.is_Pow:
        b, x = e.base, e.exp
        if not x.is_Number:
            return str(e)
        s = _certified(b)
        if x.is_Integer:
            ok = x >= 0 or _nonzero(s)
        else:
            ok = s == _POS or (x > 0 and _ge0(s))
        return defined(b) if ok else str(e)
    if isinstance(e, sp.log):
        return defined(e.args[0]) if _certified(e.args[0]) == _POS else str(e)
    if isinstance(e, _TOTAL):
        for a in e.args:
            w = defined(a)
            if w is not None:
                return w
        return None
    return str(e)


# ---------------------------------------------------------------------------
# fractions of sparse polynomials: canonical forms and zero tests
# ---------------------------------------------------------------------------
class _NotRational(Exception):
    pass


class _TooLarge(UndecidedError):
    """A polynomial beyond :data:`MAX_TERMS` terms: the test is not decided."""


class _DefinedNowhere(UndecidedError):
    """A base identically 0 to a negative power: the expression has a
    denominator identically 0 (nothing is certified of it)."""


#: polynomials with more terms are not formed (the test is refused instead)
MAX_TERMS = 3000


#: gcds (cancellation) only of polynomials this small: the heuristic gcd
#: of large ones is slow, and a fraction need not be in lowest terms to be
#: zero-tested or signed
_GCD_TERMS, _GCD_DEGREE = 400, 12


def _small(p, q):
    if len(p) + len(q) > _GCD_TERMS:
        return False
    return max(sum(m) for x in (p, q) for m in x.itermonoms()) <= _GCD_DEGREE


def _check_size(p):
    if len(p) > MAX_TERMS:
        raise _TooLarge(len(p))
    return p


class _SparseFractions:
    """Rational expressions in the symbols ``syms`` as fractions of sparse
    polynomials over ZZ (SymPy's ``PolyRing``), built bottom-up with a memo.

    A fraction is kept as ``(num, c, den)``: ``num / (c * prod factor**m)``,
    ``num`` a polynomial, ``c`` a positive integer and ``den`` a dict
    ``{factor key: exponent}`` over the primitive factors met so far (each
    with a positive leading coefficient), so that a sum is put over the least
    common multiple of its denominators by comparing factors, without
    polynomial gcds.
    """

    def __init__(self, syms):
        self.R, *self.gens = ring(syms or [sp.Dummy("u")], ZZ)
        self.symbols = dict(zip(syms, self.gens, strict=False))
        self.factors = {}  # key -> primitive polynomial
        self.memo = {}

    def key(self, p):
        """The key of the factor ``p`` (registered on first sight)."""
        k = tuple(sorted(p.items()))
        self.factors.setdefault(k, p)
        return k

    def split(self, p):
        """``p`` as ``(integer, {factor key: exponent})``: its content, the
        generators of its monomial content, its primitive part."""
        if p.is_ground:
            return int(p.LC), {}
        c, prim = p.primitive()
        if prim.LC < 0:
            c, prim = -c, -prim
        out = {}
        mono = [min(m[i] for m in prim.itermonoms()) for i in range(len(self.gens))]
        if any(mono):
            prim = prim.quo(self.R.from_dict({tuple(mono): ZZ(1)}))
            for g, m in zip(self.gens, mono, strict=True):
                if m:
                    out[self.key(g)] = m
        if not prim.is_ground:
            out[self.key(prim)] = out.get(self.key(prim), 0) + 1
        return int(c), out

    def expand(self, den):
        """The polynomial ``prod factor**m`` of ``den``."""
        out = self.R.one
        for k, m in den.items():
            out = _check_size(out * self.factors[k] ** m)
        return out

    def ev(self, x):
        """``(num, c, den)`` of the expression ``x`` (memoised)."""
        if x in self.memo:
            return self.memo[x]
        if x.is_Symbol:
            out = self.symbols[x], 1, {}
        elif x.is_Rational:
            out = self.R(int(x.p)), int(x.q), {}
        elif x.is_Add:
            out = self.add([self.ev(a) for a in x.args])
        elif x.is_Mul:
            out = self.mul(x.args)
        elif x.is_Pow and x.exp.is_Integer:
            out = self.pow(self.ev(x.base), int(x.exp))
        else:
            raise _NotRational(str(x))
        self.memo[x] = out
        return out

    def add(self, parts):
        """The sum of fractions, over the lcm of their denominators."""
        lcm, c = {}, 1
        for _, ci, di in parts:
            c = math.lcm(c, abs(ci))
            for k, m in di.items():
                lcm[k] = max(lcm.get(k, 0), m)
        n = self.R.zero
        for ni, ci, di in parts:
            mult = self.R(c // ci)
            for k, m in lcm.items():
                if m > di.get(k, 0):
                    mult = mult * self.factors[k] ** (m - di.get(k, 0))
            n = _check_size(n + ni * mult)
        return n, c, lcm

    def mul(self, args):
        """The product of the expressions ``args`` (each evaluated in turn)."""
        n, c, d = self.R.one, 1, {}
        for a in args:
            ni, ci, di = self.ev(a)
            n, c = _check_size(n * ni), c * ci
            for k, m in di.items():
                d[k] = d.get(k, 0) + m
        return n, c, d

    def pow(self, base, k):
        """The fraction ``base`` to the integer power ``k``."""
        bn, bc, bd = base
        if len(bn) ** abs(k) > MAX_TERMS ** 2:
            raise _TooLarge(len(bn))
        if k >= 0:
            return _check_size(bn ** k), bc ** k, {f: m * k for f, m in bd.items()}
        # (bn / (bc * D)) ** k = (bc * D) ** -k / bn ** -k
        if not bn:
            raise _DefinedNowhere("a base identically 0 to a negative power")
        c0, d0 = self.split(bn)
        num = _check_size(self.R(bc ** -k) * self.expand({f: m * -k for f, m in bd.items()}))
        if c0 < 0 and k % 2:
            num, c0 = -num, -c0
        return num, abs(c0) ** -k, {f: m * -k for f, m in d0.items()}

    def fraction(self, e):
        """``(num, den)`` of ``e``: two polynomials, cancelled by a gcd when
        small (:data:`_GCD_TERMS`), ``den`` with a positive leading coefficient."""
        num, c, d = self.ev(e)
        den = _check_size(self.R(c) * self.expand(d))
        if _small(num, den):
            num, den = num.cancel(den)
        if den.LC < 0:
            num, den = -num, -den
        return num, den


def _fraction(e):
    """``(num, den)``: ``e``, a rational expression in its symbols, as two
    sparse polynomials over ZZ (SymPy's ``PolyRing``; symbols named ``t...``
    first, so that a radical's relation ``t**q - b`` leads in lex order).

    Arithmetic on sparse polynomials, not on expression trees
    (:class:`_SparseFractions`); the result is cancelled by a gcd only when
    small (:data:`_GCD_TERMS`).
    """
    syms = sorted(e.free_symbols, key=lambda x: (not isinstance(x, sp.Dummy), str(x)))
    return _SparseFractions(syms).fraction(e)


class _Frozen:
    """The non-rational parts of expressions replaced by new symbols.

    A root ``b**(p/q)`` becomes ``t**p`` with ``t = b**(1/q)`` (after
    :func:`_canon` of ``b``, so that equal radicands give the same ``t``,
    and positive factors split off: ``sqrt(k x) = sqrt(k) sqrt(x)``), with
    the relation ``t**q = b``; ``Max``, ``Min``, ``Abs``, ``log`` (of
    canonical arguments, common positive factors of a ``Max``/``Min`` taken
    out) and irrational constants become plain new symbols.
    """

    def __init__(self):
        self.atoms = {}       # canonical atom -> Dummy
        self.relations = {}   # Dummy -> (q, b) with Dummy**q = b

    def _new(self, atom):
        if atom not in self.atoms:
            self.atoms[atom] = sp.Dummy(f"t{len(self.atoms)}")
        return self.atoms[atom]

    def freeze(self, e):
        memo = {}

        def walk(x):
            if x in memo:
                return memo[x]
            memo[x] = out = self._walk(x, walk)
            return out
        return walk(sp.sympify(e, strict=True))

    def _walk(self, x, walk):
        if x.is_Symbol or x.is_Rational:
            return x
        if x.is_Atom:
            return self._new(x)
        if x.is_Pow and x.exp.is_Integer:
            return walk(x.base) ** x.exp
        if x.is_Pow and x.exp.is_Rational:
            return self._power(x.base, x.exp, walk)
        if isinstance(x, (sp.Max, sp.Min)):
            c, args = _pull_positive([_canon(a) for a in x.args])
            try:
                return walk(c) * self._new(x.func(*args))
            except ValueError:
                # SymPy refuses a Max/Min of an argument that canonicalises to a
                # non-real number (sqrt((a - b)/(b - a)) = I): frozen as it is
                return self._new(x)
        if isinstance(x, (sp.Abs, sp.log)):
            return self._new(x.func(*[_canon(a) for a in x.args]))
        if x.is_Add or x.is_Mul:
            return x.func(*[walk(a) for a in x.args])
        return self._new(x)

    def _power(self, base, ex, walk):
        """``base**ex`` for a non-integer rational ``ex``: split into the roots
        of the canonical factors of ``base`` when each is certified >= 0."""
        if base.is_Rational:
            return self._root(base, ex)
        try:
            c, factors = _canon_parts(base)
        except _TooLarge:
            return self._root(base, ex)
        # c = 0: the base is identically 0 (no factors), and so is its root
        # (0**ex is SymPy's zoo for ex < 0: frozen as an atom, never defined)
        if c < 0 or not all(_ge0(_certified(b)) for b, _ in factors):
            return self._root(_canon(base), ex)
        out = walk(c ** ex)
        for b, k in factors:
            e = k * ex
            out *= walk(b) ** e if e.is_Integer else self._root(b, e)
        return out

    def _root(self, base, ex):
        q, p = int(ex.q), int(ex.p)
        t = self._new(sp.Pow(base, sp.Rational(1, q), evaluate=False))
        self.relations[t] = (q, base)
        return t ** p

    def reduce(self, num):
        """``num`` (a polynomial in the symbols and the ``t``) modulo the
        relations ``t**q - b`` whose ``b`` is a polynomial in the symbols
        (a Gröbner basis: the leading terms ``t**q`` are coprime)."""
        R = num.ring
        gens = dict(zip(R.symbols, R.gens, strict=True))
        divisors = []
        for t, (q, b) in self.relations.items():
            if t not in gens or not b.free_symbols <= set(R.symbols):
                continue
            try:
                bn, bd = _fraction(b)
            except _NotRational:
                continue
            if bd != 1:
                continue
            divisors.append(gens[t] ** q - R.from_expr(bn.as_expr()))
        return num.rem(divisors) if divisors else num


def _canon_parts(x):
    """``(c, [(base, k), ...])`` with ``x = c * prod(base**k)``: ``x`` as one
    fraction of polynomials, ``c`` rational, the bases the generators of the
    monomial contents (symbols, and the frozen atoms put back) and the
    primitive numerator and denominator (leading coefficient positive)."""
    fz = _Frozen()
    num, den = _fraction(fz.freeze(x))
    back = {t: a for a, t in fz.atoms.items()}
    if not num:
        return sp.Integer(0), []
    R = num.ring
    out, c = [], sp.Integer(1)
    monos = []
    for poly, sgn in ((num, 1), (den, -1)):
        cont, prim = poly.primitive()
        if prim.LC < 0:
            cont, prim = -cont, -prim
        c *= sp.Integer(int(cont)) ** sgn
        mono = [min(m[i] for m in prim.monoms()) for i in range(len(R.gens))]
        if any(mono):
            prim = prim.quo(R.from_dict({tuple(mono): ZZ(1)}))
        monos.append(mono)
        if not prim.is_ground:
            out.append((prim.as_expr().xreplace(back), sgn))
    for i, g in enumerate(R.symbols):
        k = monos[0][i] - monos[1][i]
        if k:
            out.append((back.get(g, g), k))
    return c, out


def _canon(x):
    """A canonical expression of ``x`` (see :func:`_canon_parts`)."""
    x = sp.sympify(x, strict=True)
    if x.is_Atom:
        return x
    try:
        c, factors = _canon_parts(x)
    except _TooLarge:
        return x  # not canonical: equal values may then not be recognised
    return c * sp.Mul(*[b ** k for b, k in factors])


def _pull_positive(args):
    """``(c, args / c)``: the positive factors common to every argument of a
    ``Max``/``Min`` (``Max(c x, c y) = c Max(x, y)`` for ``c > 0``)."""
    parts = [sp.Mul.make_args(a) for a in args]
    common = [f for f in parts[0] if not f.is_Number and _certified(f) == _POS
              and all(f in p for p in parts[1:])]
    if not common:
        return sp.Integer(1), args
    c = sp.Mul(*common)
    return c, [_canon(a / c) for a in args]


def _point(syms, seed):
    rng = np.random.default_rng(seed)
    return {x: sp.Integer(int(v)) for x, v in zip(syms, rng.integers(1, 50, len(syms)), strict=True)}


def _num(e, point):
    """``e`` at ``point`` to 30 digits, or None when it is not a finite number there
    (SymPy raises ValueError for ``Max``/``Min`` of a non-real value or of
    ``zoo``, e.g. ``Max(1, 1/(a - 3))`` at ``a = 3``: that is None too)."""
    try:
        v = sp.N(e.xreplace(point), PROBE_DPS)
    except (ValueError, TypeError):
        return None
    return v if v.is_Number and v.is_finite else None


#: the refutation of :func:`equal` is a probe: 30 digits, no proof of zero
#: (an undecided difference refutes nothing; the symbolic tests follow).
#: Before: 30-digit values, different when ``> 1e-20`` relative.
PROBE_POLICY = exact_sign.ExactPolicy(start_dps=30, max_dps=30, prove=False)


def _differ(a, b, points):
    """A point where ``a`` and ``b`` are certified to differ (a refutation), or None."""
    for point in points:
        va, vb = _num(a, point), _num(b, point)
        if va is None or vb is None:
            continue
        x, y = a.xreplace(point), b.xreplace(point)
        try:
            if exact_sign.compare(x, y, PROBE_POLICY):
                # the difference itself, not of the 30-digit values (which may be
                # equal: a and a + 10**-40); SymPy's evalf raises the precision
                return point, sp.N(x - y, 6)
        except (UndecidedError, ValueError):  # not separated, or not a real number there
            continue
    return None


def _pairs(a, b, point):
    """The arguments of ``a`` and ``b`` (same head) paired: by position, or for
    a commutative head by their 30-digit values at ``point`` (equal when within
    ``1e-20`` relative: ``|v - w| <= 1e-20 max(1, |v|)``); None when they do not pair."""
    if a.func != b.func or len(a.args) != len(b.args):
        return None
    if not isinstance(a, (sp.Add, sp.Mul, sp.Max, sp.Min)):
        return list(zip(a.args, b.args, strict=True))
    vb = [(_num(y, point), y) for y in b.args]
    out = []
    for x in a.args:
        v = _num(x, point)
        if v is None:
            return None
        hit = next((i for i, (w, _) in enumerate(vb)
                    if w is not None and abs(v - w) <= PROBE * max(1, abs(v))), None)
        if hit is None:
            return None
        out.append((x, vb.pop(hit)[1]))
    return out


def _common_root(a, b):
    """``(u, v)`` with ``a = u**g``, ``b = v**g`` for the gcd ``g >= 2`` of the
    integer exponents of both products (``u = v`` implies ``a = b``), or None."""
    pa, pb = sp.Mul(a).as_powers_dict(), sp.Mul(b).as_powers_dict()
    exps = list(pa.values()) + list(pb.values())
    if not all(e.is_Integer for e in exps):
        return None
    g = 0
    for e in exps:
        g = math.gcd(g, int(e))
    if g < 2:
        return None
    return (sp.Mul(*[x ** (e // g) for x, e in pa.items()]),
            sp.Mul(*[x ** (e // g) for x, e in pb.items()]))


def equal(a, b) -> tuple[bool, str]:
    """Whether ``a = b`` identically in their symbols, symbolically, with the reason.

    A numerical probe first (two random positive integer points, 30 digits):
    a difference refutes at once.  Then *congruence*: two expressions with
    the same head whose arguments are equal pairwise (paired by position,
    or by value for ``+``, ``*``, ``Max``, ``Min``) are equal.  Then the
    global test: the non-rational parts of ``a - b`` are frozen into new
    symbols, the result put over one denominator as
    sparse polynomials, and the numerator reduced modulo the relations of
    the roots; zero means ``a = b`` wherever both are defined.  Sound, not
    complete (SymPy's ``simplify`` is not tried; polynomials beyond
    :data:`MAX_TERMS` terms are not formed).

    Parameters
    ----------
    a, b : sympy.Expr
        The two sides, in symbols declared positive integers.

    Returns
    -------
    (bool, str)
        True when the identity is proved, and the reason (for False: the
        numerical difference found, or what was not decided).

    Examples
    --------
    >>> a, k = sp.symbols("a k", integer=True, positive=True)
    >>> equal(sp.sqrt(k * a) / sp.sqrt(k), sp.sqrt(a))[0], equal(a / (a + 1), 1)[0]
    (True, False)
    """
    a, b = sp.sympify(a, strict=True), sp.sympify(b, strict=True)
    syms = sorted((a.free_symbols | b.free_symbols), key=str)
    points = [_point(syms, 1), _point(syms, 2)]
    return _equal(a, b, points)


def _equal(a, b, points):
    if a == b:
        return True, "identical"
    bad = _differ(a, b, points)
    if bad:
        return False, f"they differ by {bad[1]} at {bad[0]}"
    if not a.is_Atom and not b.is_Atom:
        pairs = _pairs(a, b, points[0])
        if pairs is not None and all(_equal(x, y, points)[0] for x, y in pairs):
            return True, "equal arguments"
        roots = _common_root(a, b)
        if roots is not None and _equal(*roots, points)[0]:
            return True, "equal roots of a common power"
    try:
        fz = _Frozen()
        num, _ = _fraction(fz.freeze(a - b))
        if not num or not fz.reduce(num):
            return True, "cancels to 0"
    except _TooLarge:
        return False, f"not decided: polynomials beyond {MAX_TERMS} terms"
    except _DefinedNowhere:
        return False, "not decided: a denominator is identically 0"
    return False, "not reduced to 0 by cancellation"


def is_zero(d) -> tuple[bool, str]:
    """Whether ``d = 0`` identically in its symbols: :func:`equal` ``(d, 0)``.

    Parameters
    ----------
    d : sympy.Expr
        An expression in symbols declared positive integers.

    Returns
    -------
    (bool, str)
        True when ``d = 0`` is proved, and the reason (for False: the
        numerical difference from 0 found, or what was not decided).

    Examples
    --------
    >>> a, k = sp.symbols("a k", integer=True, positive=True)
    >>> is_zero(sp.sqrt(k * a) / sp.sqrt(k) - sp.sqrt(a))[0], is_zero(a / (a + 1) - 1)[0]
    (True, False)
    """
    return equal(d, 0)
