r"""Rational functions of one integer parameter, at the polynomial level.

The decisions of the envelope engines of :mod:`analytic.engines` (which line of an envelope is lowest,
which breakpoint comes first) are signs of rational functions :math:`N/D` of
an integer parameter ``n`` on all integers ``n >= n0``.  This module makes
them with dense polynomials over the integers (lists of Python ints, highest
degree first, ``[]`` for zero) and the ``dup_*`` routines of
:mod:`sympy.polys`, not with SymPy expressions: in the variable
``t = n - n0`` (a Taylor shift),

* a polynomial whose coefficients are all of one sign and whose constant
  term is not zero has no root in ``t >= 0`` (Descartes' rule of signs):
  :func:`clean_sign` decides it by reading the coefficients;
* otherwise :func:`sign_runs` isolates the real roots of the square-free
  parts of ``N`` and ``D`` (:func:`sympy.polys.rootisolation.dup_isolate_real_roots_sqf`),
  finds the integer just below each root exactly, and evaluates the sign once
  per run of integers between two roots.

The runs are what :func:`signs_for_all` and :func:`sign_threshold` read; they give the same
signs and thresholds as evaluating at every integer up to the Cauchy bound
(the previous method), without visiting them one by one.
"""

from __future__ import annotations

from math import gcd as _gcd

import sympy as sp
from sympy.polys.densetools import dup_shift
from sympy.polys.domains import QQ, ZZ
from sympy.polys.euclidtools import dup_gcd, dup_lcm
from sympy.polys.densearith import dup_exquo
from sympy.polys.rootisolation import dup_isolate_real_roots_sqf, dup_refine_real_root
from sympy.polys.sqfreetools import dup_sqf_part

from .errors import UndecidedSign
from .parsing import parse_number

__all__ = ["clean_sign", "sign_runs", "shift", "add", "sub", "mul", "evaluate", "fraction",
           "common_denominator", "cancel", "fadd", "fsub", "fmul", "to_expr",
           "signs_for_all", "sign_for_all", "sign_threshold", "constant_sign", "sign_intervals"]

_HALF = QQ(1, 2)


# ---------------------------------------------------------------------------
# dense integer polynomials
# ---------------------------------------------------------------------------
def _strip(p):
    i = 0
    while i < len(p) and p[i] == 0:
        i += 1
    return p[i:] if i else p


def sub(p, q):
    """``p - q`` of two dense integer polynomials.

    Parameters
    ----------
    p, q : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).

    Returns
    -------
    list of int
        The difference, highest degree first (``[]`` for zero).

    Examples
    --------
    >>> sub([1, 2, 3], [1, 0]), sub([1, 0], [1, 0])
    ([1, 1, 3], [])
    """
    lp, lq = len(p), len(q)
    if lp >= lq:
        d = lp - lq
        out = p[:d] + [a - b for a, b in zip(p[d:], q, strict=True)]
    else:
        d = lq - lp
        out = [-b for b in q[:d]] + [a - b for a, b in zip(p, q[d:], strict=True)]
    return _strip(out)


def add(p, q):
    """``p + q`` of two dense integer polynomials.

    Parameters
    ----------
    p, q : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).

    Returns
    -------
    list of int
        The sum, highest degree first (``[]`` for zero).

    Examples
    --------
    >>> add([1, 2, 3], [-2, 1]), add([1], [-1])
    ([1, 0, 4], [])
    """
    lp, lq = len(p), len(q)
    if lp < lq:
        p, q, lp, lq = q, p, lq, lp
    d = lp - lq
    return _strip(p[:d] + [a + b for a, b in zip(p[d:], q, strict=True)])


def mul(p, q):
    """``p * q`` of two dense integer polynomials.

    Parameters
    ----------
    p, q : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).

    Returns
    -------
    list of int
        The product, highest degree first (``[]`` for zero).

    Examples
    --------
    >>> mul([1, 1], [1, -1]), mul([2], [])
    ([1, 0, -1], [])
    """
    if not p or not q:
        return []
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


def evaluate(p, x):
    """``p(x)`` by Horner's rule.

    Parameters
    ----------
    p : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).
    x : int or fractions.Fraction
        The point.

    Returns
    -------
    int or fractions.Fraction
        The value, exact.

    Examples
    --------
    >>> from fractions import Fraction
    >>> evaluate([1, -5, 6], 4), evaluate([2, -3], Fraction(3, 2)), evaluate([], 7)
    (2, Fraction(0, 1), 0)
    """
    v = 0
    for c in p:
        v = v * x + c
    return v


def shift(p, a):
    """``p(t + a)``: a Taylor shift by the integer ``a``.

    Parameters
    ----------
    p : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).
    a : int
        The shift.

    Returns
    -------
    list
        The shifted polynomial, highest degree first (``ZZ``'s integers).

    Examples
    --------
    >>> [int(c) for c in shift([1, -5, 6], 2)]          # (t + 2)^2 - 5 (t + 2) + 6 = t^2 - t
    [1, -1, 0]
    """
    return dup_shift(p, ZZ(a), ZZ) if len(p) > 1 and a else list(p)


def _sgn(v):
    return (v > 0) - (v < 0)


def clean_sign(p):
    r"""The sign of ``p`` on all of ``t >= 0`` when Descartes' rule decides it, else ``None``.

    A nonzero constant term and coefficients of one sign: no sign change, so
    no root in :math:`t > 0`, and none at ``t = 0``.

    Parameters
    ----------
    p : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).

    Returns
    -------
    int or None
        1 or -1, the sign of ``p(t)`` for every ``t >= 0``; None when the rule
        does not decide it (a sign change, a zero constant term, ``p = 0``).

    Examples
    --------
    >>> clean_sign([1, 0, 3]), clean_sign([-2, -1]), clean_sign([1, -1]), clean_sign([1, 0])
    (1, -1, None, None)
    """
    if not p or p[-1] == 0:
        return None
    s = p[-1] > 0
    for c in p:
        if c and (c > 0) != s:
            return None
    return 1 if s else -1


# ---------------------------------------------------------------------------
# fractions N/D
# ---------------------------------------------------------------------------
def cancel(num, den):
    """``num / den`` in lowest terms (``den`` with a positive leading coefficient).

    Parameters
    ----------
    num : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).
    den : list of int
        A nonzero dense polynomial over the integers, highest degree first.

    Returns
    -------
    tuple of list
        ``(N, D)``: the fraction with their greatest common divisor removed;
        ``([], [1])`` for zero.

    Examples
    --------
    >>> N, D = cancel([1, 0, -1], [-1, -1])             # (t^2 - 1) / (-t - 1)
    >>> [int(c) for c in N], [int(c) for c in D], cancel([], [3, 1])
    ([-1, 1], [1], ([], [1]))
    """
    if not num:
        return [], [1]
    g = dup_gcd(num, den, ZZ)
    if len(g) > 1 or g[0] != 1:
        num, den = dup_exquo(num, g, ZZ), dup_exquo(den, g, ZZ)
    if den[0] < 0:
        num, den = [-c for c in num], [-c for c in den]
    return num, den


def fraction(expr, gen):
    """``(N, D)``: an expression rational in ``gen`` with rational coefficients, in lowest terms.

    ``None`` when it is not one (another symbol, an irrational coefficient, a
    radical of ``gen``).  The coefficients are ``ZZ``'s integers (``int``, or
    gmpy2's ``mpz`` when gmpy2 is installed: SymPy then uses it).

    Parameters
    ----------
    expr : sympy.Expr
        The expression.
    gen : sympy.Symbol
        Its variable.

    Returns
    -------
    tuple of list or None
        ``(N, D)``, dense integer polynomials in ``gen``, highest degree first; or None.

    Examples
    --------
    >>> n = sp.Symbol("n")
    >>> N, D = fraction((n + 1) / (2 * n**2 + 2 * n), n)
    >>> [int(c) for c in N], [int(c) for c in D], fraction(sp.sqrt(2) * n, n)
    ([1], [2, 0], None)
    """
    if expr.free_symbols - {gen} or expr.has(sp.Float):
        return None
    num, den = expr.as_numer_denom()
    try:
        P = sp.Poly(num, gen, domain=QQ)
        Q = sp.Poly(den, gen, domain=QQ)
    except (sp.PolynomialError, sp.CoercionFailed):
        return None
    if Q.is_zero:
        return None
    cp, cq = P.rep.to_list(), Q.rep.to_list()
    scale = 1
    for c in cp + cq:
        scale = scale * c.denominator // _gcd(scale, c.denominator)
    return cancel([int(c.numerator * (scale // c.denominator)) for c in cp],
                  [int(c.numerator * (scale // c.denominator)) for c in cq])


def common_denominator(fracs):
    """``(numerators, L)``: the fractions ``N_i/D_i`` written as ``M_i/L`` with ``L = lcm(D_i)``.

    Parameters
    ----------
    fracs : list of tuple
        The fractions ``(N_i, D_i)``, dense integer polynomials.

    Returns
    -------
    tuple
        ``([M_1, ...], L)``: the new numerators and the common denominator
        (a positive leading coefficient).

    Examples
    --------
    >>> M, L = common_denominator([([1], [1, 0]), ([1], [1, 1])])     # 1/t, 1/(t + 1)
    >>> [[int(c) for c in m] for m in M], [int(c) for c in L]
    ([[1, 1], [1, 0]], [1, 1, 0])
    """
    L = [1]
    for _, d in fracs:
        L = dup_lcm(L, d, ZZ)
    if L[0] < 0:
        L = [-c for c in L]
    return [mul(num, dup_exquo(L, den, ZZ)) for num, den in fracs], L


def fadd(x, y):
    """``x + y`` of two fractions ``(N, D)``, in lowest terms.

    Parameters
    ----------
    x, y : tuple of list
        A fraction ``(N, D)`` of dense integer polynomials.

    Returns
    -------
    tuple of list
        ``(N, D)`` in lowest terms (:func:`cancel`).

    Examples
    --------
    >>> N, D = fadd(([1], [1, 0]), ([1], [1, 0]))
    >>> [int(c) for c in N], [int(c) for c in D]
    ([2], [1, 0])
    """
    (a, b), (c, d) = x, y
    if not a:
        return y
    if not c:
        return x
    if b == d:
        return cancel(add(a, c), b)
    return cancel(add(mul(a, d), mul(c, b)), mul(b, d))


def fsub(x, y):
    """``x - y`` of two fractions ``(N, D)``, in lowest terms.

    Parameters
    ----------
    x, y : tuple of list
        A fraction ``(N, D)`` of dense integer polynomials.

    Returns
    -------
    tuple of list
        ``(N, D)`` in lowest terms (:func:`cancel`).

    Examples
    --------
    >>> N, D = fsub(([1], [1, 0]), ([1], [1, 0]))
    >>> [int(c) for c in N], [int(c) for c in D]
    ([], [1])
    """
    return fadd(x, ([-c for c in y[0]], y[1]))


def fmul(x, y):
    """``x * y`` of two fractions ``(N, D)``, in lowest terms.

    Parameters
    ----------
    x, y : tuple of list
        A fraction ``(N, D)`` of dense integer polynomials.

    Returns
    -------
    tuple of list
        ``(N, D)`` in lowest terms (:func:`cancel`).

    Examples
    --------
    >>> N, D = fmul(([1, 0], [1, 1]), ([1, 1], [2]))
    >>> [int(c) for c in N], [int(c) for c in D]
    ([1, 0], [2])
    """
    return cancel(mul(x[0], y[0]), mul(x[1], y[1]))


def to_expr(num, den, n, n0=0):
    """``N(n - n0) / D(n - n0)`` as a cancelled SymPy expression in ``n`` (for messages).

    Parameters
    ----------
    num, den : list of int
        The numerator and the (nonzero) denominator, dense integer polynomials in ``t = n - n0``.
    n : sympy.Symbol or None
        The variable; None leaves the expression in a dummy ``t``, uncancelled.
    n0 : int, optional
        The shift.

    Returns
    -------
    sympy.Expr
        The rational function.

    Examples
    --------
    >>> n = sp.Symbol("n")
    >>> to_expr([1, 0], [1, 1], n, 2)
    (n - 2)/(n - 1)
    """
    t = sp.Dummy("t")
    e = sp.Poly(num or [0], t).as_expr() / sp.Poly(den, t).as_expr()
    return sp.cancel(e.subs(t, n - n0)) if n is not None else e


# ---------------------------------------------------------------------------
# signs on the integers t >= 0
# ---------------------------------------------------------------------------
def _floor_of_root(g, a, b):
    """``(floor(r), r is an integer)`` for the one root ``r`` of the square-free ``g`` in ``[a, b]``."""
    if a == b:
        return int(a.numerator // a.denominator), a.denominator == 1
    while int(b.numerator // b.denominator) - int(-(-a.numerator // a.denominator)) >= 1:
        a, b = dup_refine_real_root(g, a, b, ZZ, eps=_HALF)
        if a == b:
            return int(a.numerator // a.denominator), a.denominator == 1
    j = int(-(-a.numerator // a.denominator))  # ceil(a): the only integer that may lie in [a, b]
    if j > b:
        return int(a.numerator // a.denominator), False
    vj = evaluate(g, j)
    if vj == 0:
        return j, True
    vb = evaluate(g, b)
    if vb == 0:  # r = b, not an integer (g(j) != 0 and j is the only integer in [a, b])
        return int(b.numerator // b.denominator), False
    # one simple root in [a, b]: it lies above j iff g changes sign between j and b
    return (j if _sgn(vj) != _sgn(vb) else j - 1), False


def _run_starts(p, starts):
    if len(p) <= 1 or clean_sign(p) is not None:  # no root in t >= 0
        return
    g = dup_sqf_part(p, ZZ)
    for a, b in dup_isolate_real_roots_sqf(g, ZZ, inf=QQ(0)):
        fl, integer = _floor_of_root(g, a, b)
        if integer:
            starts.update((fl, fl + 1))
        else:
            starts.add(fl + 1)


def sign_runs(num, den):
    r"""The signs of ``num/den`` (in lowest terms) on the integers ``t >= 0``, run by run.

    Returns ``[(t_last, sign), ...]`` in increasing ``t``: the sign (-1, 0, 1,
    or ``None`` at a pole) is the same on every integer of the run that ends
    at ``t_last``; the last run is infinite (its ``t_last`` is its first
    integer).  Runs are cut at the integers next to each real root of ``num``
    and ``den``: between two roots the sign does not change.

    Parameters
    ----------
    num : list of int
        A dense polynomial over the integers, highest degree first (``[]`` for zero).
    den : list of int
        A nonzero dense polynomial over the integers, highest degree first.

    Returns
    -------
    list of tuple
        ``[(t_last, sign), ...]`` as above.

    Examples
    --------
    >>> sign_runs([1, -5, 6], [1])          # (t - 2)(t - 3)
    [(1, 1), (2, 0), (3, 0), (4, 1)]
    >>> sign_runs([1], [2, -3])             # 1 / (2t - 3): pole at 3/2, not an integer
    [(1, -1), (2, 1)]
    """
    if not num:
        return [(0, 0)]
    starts = {0}
    _run_starts(num, starts)
    _run_starts(den, starts)
    b = sorted(s for s in starts if s >= 0)
    runs = []
    for i, s in enumerate(b):
        dv = evaluate(den, s)
        sign = None if dv == 0 else _sgn(evaluate(num, s)) * _sgn(dv)
        runs.append((b[i + 1] - 1 if i + 1 < len(b) else s, sign))
    return runs


# ---------------------------------------------------------------------------
# the sign of a rational function on every integer n >= n0 (moved from
# analytic.engines._pl, issue 37: the floor's one-variable sign engine)
# ---------------------------------------------------------------------------
def _sign_table(expr, n, n0):
    """``(expr, [(k, sign or None), ...])``: the signs on the integers ``n >= n0``.

    ``expr`` is cancelled; ``None`` marks a pole.  Entry ``(k, s)``: the sign
    is ``s`` on the integers after the previous entry's ``k`` up to ``k``; the
    last entry's sign holds for every ``n >= k``.  With rational
    coefficients the entries are the runs between consecutive real roots of
    numerator and denominator (:func:`exactfloor.ratfun.sign_runs`);
    otherwise every integer ``n0 .. bound + 1`` is listed, beyond the Cauchy
    bound of numerator and denominator the sign being that of the last.
    """
    expr = sp.cancel(sp.together(parse_number(expr, what="expression")))
    if expr == 0:
        return expr, [(n0, 0)]
    if n is None or n not in expr.free_symbols:
        if expr.free_symbols:
            raise ValueError(f"{expr} depends on {expr.free_symbols}, not only on {n}")
        s = sp.sign(expr)
        if s not in (-1, 0, 1):  # pragma: no cover - numbers only
            raise ValueError(f"cannot decide the sign of {expr}")
        return expr, [(n0, int(s))]
    if expr.free_symbols != {n}:
        raise ValueError(f"{expr} depends on {expr.free_symbols - {n}} besides {n}")
    frac = fraction(expr, n)
    if frac is not None:  # rational coefficients: the runs between the real roots
        num, den = (shift(p, n0) for p in frac)
        return expr, [(n0 + t, s) for t, s in sign_runs(num, den)]
    num, den = sp.fraction(expr)
    bound = n0
    for part in (num, den):
        poly = sp.Poly(part, n)
        if poly.degree() > 0:
            coeffs = poly.all_coeffs()
            cauchy = 1 + max(abs(c / coeffs[0]) for c in coeffs[1:])
            bound = max(bound, int(sp.ceiling(cauchy)))
    table = []
    for k in range(n0, bound + 2):
        if den.subs(n, k) == 0:
            table.append((k, None))
        else:
            table.append((k, int(sp.sign(expr.subs(n, k)))))
    return expr, table


def signs_for_all(expr, n=None, n0=1):
    r"""The sign set of ``expr`` on the integers ``n >= n0``: the signs (-1, 0, 1) it takes.

    ``expr`` is a rational function of ``n`` (or a number).  The sign can
    only change at a real root of its numerator or denominator: with rational
    coefficients the roots are isolated exactly and the sign is evaluated
    once on each run of integers between two of them
    (:func:`exactfloor.ratfun.sign_runs`); otherwise, all real roots lying
    below the Cauchy bound :math:`1 + \max_i |a_i / a_{\deg}|`, it is
    evaluated exactly at every integer ``n0, ..., bound + 1``.

    The answer is a sign set of :mod:`exactfloor.exact_sign` (a frozenset,
    e.g. :data:`~exactfloor.exact_sign.NONNEG`), the vocabulary of
    :func:`exactfloor.certificates.sign` too: this engine's set is exact, the
    certificates' a certified superset.

    Parameters
    ----------
    expr : sympy.Expr, number or str
        A rational function of ``n`` (or a number); a string is read by
        :func:`exactfloor.parsing.parse_number`.
    n : sympy.Symbol, optional
        The integer variable; None for a number.
    n0 : int, optional
        The first integer (default 1).

    Returns
    -------
    frozenset
        The signs taken, a subset of ``{-1, 0, 1}``.

    Raises
    ------
    ValueError
        If the expression depends on another symbol, or is undefined at an
        integer ``n >= n0`` (then an :class:`UndecidedSign`).

    Examples
    --------
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> sorted(signs_for_all(1 - 2 / (d * (d + 1)), d, 1))
    [0, 1]
    """
    expr, table = _sign_table(expr, n, n0)
    _require_defined(expr, table, n, n0)
    return frozenset(s for _, s in table)


def _require_defined(expr, table, n, n0):
    for k, s in table:
        if s is None:
            raise UndecidedSign(f"{expr} is undefined at {n} = {k}", _threshold(table, n0))


def constant_sign(expr, table, n, n0):
    """The one sign of a sign table of ``expr`` on the integers ``n >= n0``.

    Parameters
    ----------
    expr : sympy.Expr
        The expression (named in the message).
    table : list of tuple
        Its runs ``(k, sign)``: the sign (-1, 0, 1, None at a pole) on the
        integers after the previous entry's ``k`` up to ``k``, the last one for
        every ``n >= k``.
    n : sympy.Symbol
        The variable (named in the message).
    n0 : int
        The first integer.

    Returns
    -------
    int
        The sign (-1, 0, 1), the same on every run.

    Raises
    ------
    UndecidedSign
        When ``expr`` is undefined at one of the integers or its sign changes;
        its ``threshold`` says from which ``n`` it is constant.

    Examples
    --------
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> constant_sign(d + 1, [(1, 1)], d, 1)
    1
    >>> constant_sign(d - 2, [(1, -1), (2, 0), (3, 1)], d, 1)
    Traceback (most recent call last):
    ...
    exactfloor.errors.UndecidedSign: the sign of d - 2 is not constant for integers d >= 1
    """
    _require_defined(expr, table, n, n0)
    signs = {s for _, s in table}
    if len(signs) != 1:
        raise UndecidedSign(f"the sign of {expr} is not constant for integers {n} >= {n0}",
                            _threshold(table, n0))
    return signs.pop()


def _threshold(table, n0):
    last = table[-1][1]
    bad = [k for k, s in table if s != last]
    return bad[-1] + 1 if bad else n0


def sign_threshold(expr, n=None, n0=1):
    r"""The smallest integer ``m >= n0`` from which the sign of ``expr`` is constant.

    On the integers ``n >= m`` the rational function is defined and of one
    sign (see :func:`signs_for_all` for the method); at ``m - 1`` (if
    ``m > n0``) it differs or is undefined.

    Parameters
    ----------
    expr : sympy.Expr, number or str
        A rational function of ``n`` (or a number); a string is read by
        :func:`exactfloor.parsing.parse_number`.
    n : sympy.Symbol, optional
        The integer variable; None for a number.
    n0 : int, optional
        The first integer (default 1).

    Returns
    -------
    int
        The threshold ``m``.

    Examples
    --------
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> sign_threshold((d - 3) * (d - 5), d, 1), sign_threshold(d + 1, d, 1)
    (6, 1)
    """
    return _threshold(_sign_table(expr, n, n0)[1], n0)


def sign_for_all(expr, n=None, n0=1):
    r"""The sign (-1, 0, 1) of ``expr``, the same for every integer ``n >= n0``.

    See :func:`signs_for_all` for the method.

    Parameters
    ----------
    expr : sympy.Expr, number or str
        A rational function of ``n`` (or a number); a string is read by
        :func:`exactfloor.parsing.parse_number`.
    n : sympy.Symbol, optional
        The integer variable; None for a number.
    n0 : int, optional
        The first integer (default 1).

    Returns
    -------
    int
        The sign: -1, 0 or 1.

    Raises
    ------
    UndecidedSign
        (a ValueError) If the sign is not the same for every integer
        ``n >= n0`` (or the expression is undefined at one of them); its
        ``threshold`` says from which ``n`` it is.

    Examples
    --------
    >>> K = sp.Symbol("K", integer=True, positive=True)
    >>> sign_for_all((K - 1) / (5 * K - 4), K, 2), sign_for_all(2 - K, K, 3)
    (1, -1)
    """
    expr, table = _sign_table(expr, n, n0)
    return constant_sign(expr, table, n, n0)




def sign_intervals(expr, n=None, n0=1):
    """The sign of ``expr`` on the integers ``n >= n0``, as runs ``(lo, hi, sign)``.

    ``sign`` (-1, 0, 1, or None at a pole) holds on every integer ``lo .. hi``; the last
    run has ``hi = None`` (every ``n >= lo``).  Neighbouring runs have different signs.
    The method is :func:`signs_for_all`'s.

    Parameters
    ----------
    expr : SymPy expression or number
        A rational function of ``n``.
    n : sympy.Symbol, optional
        The integer parameter.
    n0 : int
        The first integer.

    Returns
    -------
    list of (int, int or None, int or None)

    Examples
    --------
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> sign_intervals((n - 3) * (n - 5), n, 1)
    [(1, 2, 1), (3, 3, 0), (4, 4, -1), (5, 5, 0), (6, None, 1)]
    >>> sign_intervals(3 - n, n, 1)
    [(1, 2, 1), (3, 3, 0), (4, None, -1)]
    """
    _, table = _sign_table(expr, n, n0)
    runs, lo = [], n0
    for i, (k, s) in enumerate(table):
        hi = None if i == len(table) - 1 else k
        if runs and runs[-1][2] == s:
            runs[-1] = (runs[-1][0], hi, s)
        else:
            runs.append((lo, hi, s))
        lo = k + 1
    return runs
