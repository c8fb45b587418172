r"""Piecewise-linear functions of beta whose coefficients depend on one integer parameter.

The closed forms of :mod:`analytic.derivations.forms` are lower envelopes of a few lines
:math:`a_i(n) + s_i(n)\beta` whose coefficients are rational functions of an
integer parameter ``n`` (the distance ``d`` of a sample, the number of
classes ``K``, the number of samples ``N``).  The shape of the envelope (the
order of its breakpoints) is *decided*, not sampled: every comparison is the
sign of a rational function of ``n``, proved constant on all integers
``n >= n0`` by :func:`sign_for_all`.  When a sign is not constant the
functions raise instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from exactfloor.errors import UndecidedSign  # one 'undecided' hierarchy (issue 22 item 2)
from exactfloor import ratfun as _rf
from exactfloor.parsing import parse_number
from exactfloor.ratfun import constant_sign, sign_for_all, sign_threshold, signs_for_all  # the floor's (issue 37)

__all__ = ["signs_for_all", "sign_for_all", "sign_threshold", "UndecidedSign", "PL",
           "lower_envelope", "envelope_of_polys"]


def _cmp_extended(u, v, finite):
    """``sign(u - v)`` where ``u`` and ``v`` may be ``sp.oo``; ``finite(u, v)``
    decides two finite ones (the envelope compares breakpoints with oo)."""
    if u == v:
        return 0
    if u == sp.oo:
        return 1
    if v == sp.oo:
        return -1
    return finite(u, v)


@dataclass(frozen=True)
class PL:
    r"""A continuous piecewise-linear function of ``beta >= 0``.

    Piece ``i`` is :math:`a_i + s_i\beta` on ``[breaks[i], breaks[i+1])``,
    the last piece extends to infinity; ``breaks[0] == 0``.  Breakpoints and
    coefficients are expressions in the integer parameter ``n`` (or numbers,
    ``n = None``); the order of the breakpoints holds for all ``n >= n0``.
    """

    breaks: tuple
    lines: tuple
    n: sp.Symbol | None = None
    n0: int = 1

    # -- comparisons ---------------------------------------------------------
    def cmp(self, u, v):
        """sign(u - v) for every integer n >= n0 (``sp.oo`` allowed)."""
        return _cmp_extended(u, v, lambda a, b: sign_for_all(a - b, self.n, self.n0))

    def _like(self, breaks, lines):
        return PL(tuple(breaks), tuple(lines), self.n, self.n0)._fused()

    def _fused(self):
        """Fuse neighbouring pieces that carry the same line."""
        breaks, lines = [self.breaks[0]], [self.lines[0]]
        for t, (a, s) in zip(self.breaks[1:], self.lines[1:], strict=True):
            pa, ps = lines[-1]
            if sp.cancel(a - pa) == 0 and sp.cancel(s - ps) == 0:
                continue
            breaks.append(t)
            lines.append((a, s))
        return PL(tuple(breaks), tuple(lines), self.n, self.n0)

    # -- algebra -------------------------------------------------------------
    def __add__(self, other):
        if other.n is not None and self.n is not None and other.n != self.n:
            raise ValueError("the two functions have different parameters")
        n = self.n if self.n is not None else other.n
        me = PL(self.breaks, self.lines, n, max(self.n0, other.n0))
        merged = [sp.Integer(0)]
        for t in sorted(set(self.breaks[1:]) | set(other.breaks[1:]), key=sp.default_sort_key):
            pos = len(merged)
            while pos > 1 and me.cmp(t, merged[pos - 1]) < 0:
                pos -= 1
            if me.cmp(t, merged[pos - 1]) == 0:
                continue
            merged.insert(pos, t)
        lines = []
        for t in merged:
            la, ls = me._line_at(self, t)
            ra, rs = me._line_at(other, t)
            lines.append((sp.cancel(la + ra), sp.cancel(ls + rs)))
        return me._like(merged, lines)

    def _line_at(self, f, t):
        """The line of ``f`` on the piece that starts at or before ``t``."""
        i = 0
        for j in range(1, len(f.breaks)):
            if self.cmp(f.breaks[j], t) <= 0:
                i = j
        return f.lines[i]

    def scale(self, c):
        """``c * f`` (``c`` an expression in ``n``)."""
        c = parse_number(c, what="factor")
        return self._like(self.breaks, [(sp.cancel(c * a), sp.cancel(c * s)) for a, s in self.lines])

    def rescale(self, c):
        r"""``u -> f(c u)`` for ``c > 0``: the function in the variable ``u = beta / c``."""
        c = parse_number(c, what="rescaling factor")
        if sign_for_all(c, self.n, self.n0) <= 0:
            raise ValueError("the rescaling factor must be positive")
        return self._like([sp.cancel(t / c) for t in self.breaks],
                          [(a, sp.cancel(s * c)) for a, s in self.lines])

    def subs(self, value):
        """The function at ``n = value`` (numbers only)."""
        value = parse_number(value, what="value")
        sub = lambda e: sp.sympify(e, strict=True).subs(self.n, value)  # noqa: E731
        return PL(tuple(sub(t) for t in self.breaks),
                  tuple((sub(a), sub(s)) for a, s in self.lines), None, 1)._fused()

    # -- outputs -------------------------------------------------------------
    def piecewise(self, var):
        """Ordered ``Piecewise`` in ``var``, last branch ``(..., True)``."""
        branches = []
        for i, (a, s) in enumerate(self.lines):
            expr = sp.factor(a) + sp.factor(s) * var
            last = i == len(self.lines) - 1
            branches.append((expr, sp.true if last else var < sp.factor(self.breaks[i + 1])))
        if len(branches) == 1:
            return branches[0][0]
        return sp.Piecewise(*branches, evaluate=False)

    def __call__(self, x):
        """Value at a number ``x`` (parameter-free functions only)."""
        x = parse_number(x, what="beta")
        i = 0
        for j in range(1, len(self.breaks)):
            if self.breaks[j] <= x:
                i = j
        a, s = self.lines[i]
        return a + s * x

    def integral(self, lo=0, hi=1):
        r""":math:`\int_{lo}^{hi} f(\beta)\,d\beta`, exactly, for all ``n >= n0``.

        .. math:: \sum_i \Big[a_i\beta + \tfrac{s_i}{2}\beta^2\Big]_{\max(t_i, lo)}^{\min(t_{i+1}, hi)}

        With rational coefficients the sum is taken on integer polynomials
        (:mod:`exactfloor.ratfun`), otherwise on SymPy expressions; the
        comparisons and the factored result are the same.
        """
        lo, hi = parse_number(lo, what="lo"), parse_number(hi, what="hi")
        fast = self._integral_polys(lo, hi)
        return fast if fast is not None else self._integral_expr(lo, hi)

    def _integral_expr(self, lo, hi):
        """:meth:`integral` on SymPy expressions."""
        total = sp.Integer(0)
        ends = list(self.breaks[1:]) + [sp.oo]
        for t0, t1, (a, s) in zip(self.breaks, ends, self.lines, strict=True):
            l = t0 if self.cmp(t0, lo) > 0 else lo
            h = t1 if self.cmp(t1, hi) < 0 else hi
            if self.cmp(h, l) <= 0:
                continue
            total += a * (h - l) + s * (h * h - l * l) / 2
        return sp.factor(sp.cancel(total))

    def _integral_polys(self, lo, hi):
        """:meth:`integral` on integer polynomials, ``None`` if a coefficient is not rational in ``n``."""
        gen = self.n if self.n is not None else sp.Dummy("n")
        n0 = self.n0 if self.n is not None else 0
        fracs = {}
        for e in (*self.breaks, lo, hi, *(c for line in self.lines for c in line)):
            if e not in fracs:
                fracs[e] = _rf.fraction(sp.sympify(e, strict=True), gen)
                if fracs[e] is None:
                    return None

        def finite(u, v):  # as PL.cmp, the sign decided on polynomials
            (un, ud), (vn, vd) = fracs[u], fracs[v]
            return _poly_sign([_rf.shift(_rf.sub(_rf.mul(un, vd), _rf.mul(vn, ud)), n0)],
                              [_rf.shift(_rf.mul(ud, vd), n0)], self.n, self.n0)

        def cmp(u, v):
            return _cmp_extended(u, v, finite)

        total = ([], [1])
        ends = list(self.breaks[1:]) + [sp.oo]
        for t0, t1, (a, s) in zip(self.breaks, ends, self.lines, strict=True):
            l = t0 if cmp(t0, lo) > 0 else lo
            h = t1 if cmp(t1, hi) < 0 else hi
            if cmp(h, l) <= 0:
                continue
            # a (h - l) + s (h^2 - l^2) / 2 = (h - l) (a + s (h + l) / 2)
            fh, fl = fracs[h], fracs[l]
            mid = _rf.fmul(_rf.fadd(fh, fl), ([1], [2]))
            term = _rf.fmul(_rf.fsub(fh, fl), _rf.fadd(fracs[a], _rf.fmul(fracs[s], mid)))
            total = _rf.fadd(total, term)
        return sp.factor(_rf.to_expr(*total, gen))

    def limit(self):
        """The pointwise limit as ``n -> oo`` (a parameter-free :class:`PL`).

        Breakpoints and coefficients converge to their limits; a piece whose
        two breakpoints meet in the limit vanishes (the functions are
        continuous), and pieces beyond a breakpoint that tends to infinity are
        never reached.
        """
        lim = lambda e: sp.limit(e, self.n, sp.oo)  # noqa: E731
        breaks = [lim(t) for t in self.breaks]
        lines = [(lim(a), lim(s)) for a, s in self.lines]
        keep_b, keep_l = [], []
        ends = breaks[1:] + [sp.oo]
        for t0, t1, line in zip(breaks, ends, lines, strict=True):
            if t0 == sp.oo or not (t0 < t1):
                continue
            keep_b.append(t0)
            keep_l.append(line)
        return PL(tuple(keep_b), tuple(keep_l), None, 1)._fused()

    def negative_set(self):
        """The intervals of ``beta >= 0`` where ``f < 0``, as ``[(lo, hi), ...]``.

        ``hi`` may be ``sp.oo``; the set is ``union [lo, hi)`` up to its
        endpoints, which are exact expressions valid for all ``n >= n0``.
        """
        out = []
        ends = list(self.breaks[1:]) + [sp.oo]
        for t0, t1, (a, s) in zip(self.breaks, ends, self.lines, strict=True):
            f0 = a + s * t0
            s0 = self.cmp(f0, 0)
            s1 = self.cmp(s, 0) if t1 == sp.oo else self.cmp(a + s * t1, 0)
            if t1 == sp.oo and s1 == 0:
                s1 = s0
            if s0 >= 0 and s1 >= 0:
                continue
            if s0 < 0 and s1 < 0:
                part = (t0, t1)
            else:
                root = sp.cancel(-a / s)
                part = (t0, root) if s0 < 0 else (root, t1)
            if out and self.cmp(out[-1][1], part[0]) == 0:
                out[-1] = (out[-1][0], part[1])
            else:
                out.append(part)
        return out


def lower_envelope(lines, n=None, n0=1):
    r"""The lower envelope :math:`\min_i (a_i + s_i\beta)` over ``beta >= 0``.

    ``lines``: pairs ``(a_i, s_i)``.  Starting from the lowest line at
    ``beta = 0`` (ties: the smallest slope), the next piece is the line of
    smaller slope that crosses the current one first (ties: the smallest
    slope) — every comparison decided for all integers ``n >= n0``.

    When every coefficient is a rational function of ``n`` with rational
    coefficients, the comparisons are made on polynomials
    (:func:`envelope_of_polys`); otherwise (radicals, other numbers) on SymPy
    expressions.  Both make the same comparisons in the same order.

    Examples
    --------
    >>> from analytic.symbols import d, beta
    >>> f = lower_envelope([(1, 0), (d / (d + 1), d)], d, 1)
    >>> f.piecewise(beta)
    Piecewise((beta*d + d/(d + 1), beta < 1/(d*(d + 1))), (1, True))
    """
    lines = [tuple(parse_number(v, what="line coefficient") for v in line) for line in lines]
    polys = _poly_lines(lines, n)
    if polys is None:
        return _lower_envelope_expr(lines, n, n0)
    A, Da, S, Ds = polys
    return envelope_of_polys(A, Da, S, Ds, lambda i: tuple(sp.cancel(v) for v in lines[i]), n, n0)


def _poly_lines(lines, n):
    """``(A, Da, S, Ds)`` with ``a_i = A_i/Da``, ``s_i = S_i/Ds`` (dense integer
    polynomials in ``n``), or ``None`` if a coefficient is not rational in ``n``."""
    gen = n if n is not None else sp.Dummy("n")
    fa, fs = [], []
    for a, s in lines:
        pa, ps = _rf.fraction(a, gen), _rf.fraction(s, gen)
        if pa is None or ps is None:
            return None
        fa.append(pa)
        fs.append(ps)
    A, Da = _rf.common_denominator(fa)
    S, Ds = _rf.common_denominator(fs)
    return A, Da, S, Ds


class _Lazy:
    """A cancelled expression built only when printed (the messages of :class:`UndecidedSign`)."""

    def __init__(self, num, den, n, n0):
        self.args = num, den, n, n0

    def __str__(self):
        return str(_rf.to_expr(*self.args))


def _poly_sign(nums, dens, n, n0):
    """sign of ``prod(nums) / prod(dens)`` (polynomials in ``t = n - n0``) for every integer ``t >= 0``.

    Descartes' rule first (:func:`exactfloor.ratfun.clean_sign` of each
    factor); otherwise the runs of the fraction in lowest terms, with the
    errors of :func:`sign_for_all`.
    """
    if any(not p for p in nums):
        return 0
    s = 1
    for p in (*nums, *dens):
        c = _rf.clean_sign(p)
        if c is None:
            break
        s *= c
    else:
        return s
    num, den = [1], [1]
    for p in nums:
        num = _rf.mul(num, p)
    for p in dens:
        den = _rf.mul(den, p)
    num, den = _rf.cancel(num, den)
    table = [(n0 + t, s) for t, s in _rf.sign_runs(num, den)]
    expr = _Lazy(num, den, n, n0)
    return constant_sign(expr, table, n, n0)


def envelope_of_polys(A, Da, S, Ds, line_expr, n=None, n0=1):
    r""":func:`lower_envelope` of the lines ``(A_i/Da, S_i/Ds)`` given as dense integer polynomials in ``n``.

    ``A``, ``S``: lists of numerators (``[]`` is zero), ``Da``, ``Ds`` the
    common denominators, all as lists of ints, highest degree first (see
    :mod:`exactfloor.ratfun`).  ``line_expr(i)`` returns line ``i`` as a
    pair of cancelled SymPy expressions; it is called only for the lines of
    the result.  The comparisons, their order and the result are those of
    the expression-level algorithm: a line equal to an earlier one is
    dropped; the lowest line at ``beta = 0`` starts; the next piece is the
    flatter line that crosses the current one first.  The crossing of line
    ``l`` with ``c`` is :math:`x = \frac{D_s}{D_a}\,\frac{A_l - A_c}{S_c - S_l}`,
    held as the pair ``(A_l - A_c, S_c - S_l)``.
    """
    first = {}
    for i, (a, s) in enumerate(zip(A, S, strict=True)):
        first.setdefault((tuple(a), tuple(s)), i)
    uniq = sorted(first.values())
    if n is not None and n0:
        At = {i: _rf.shift(A[i], n0) for i in uniq}
        St = {i: _rf.shift(S[i], n0) for i in uniq}
        Dat, Dst = _rf.shift(Da, n0), _rf.shift(Ds, n0)
    else:
        At, St, Dat, Dst = {i: A[i] for i in uniq}, {i: S[i] for i in uniq}, Da, Ds

    def cmp_a(i, j):
        return _poly_sign([_rf.sub(At[i], At[j])], [Dat], n, n0)

    def cmp_s(i, j):
        return _poly_sign([_rf.sub(St[i], St[j])], [Dst], n, n0)

    def cmp_x(x, y):  # sign(x - y) = sign(Ds (u1 v2 - u2 v1) / (Da v1 v2))
        (u1, v1), (u2, v2) = x, y
        return _poly_sign([_rf.sub(_rf.mul(u1, v2), _rf.mul(u2, v1)), Dst], [Dat, v1, v2],
                          n, n0)

    def better(l1, l2):  # l1 lower at beta = 0, or equal and flatter
        c = cmp_a(l1, l2)
        return c < 0 or (c == 0 and cmp_s(l1, l2) < 0)

    cur = uniq[0]
    for line in uniq[1:]:
        if better(line, cur):
            cur = line
    out, crossings, xs = [cur], [], [([], [1])]
    while True:
        cands = [l for l in uniq if cmp_s(l, cur) < 0]
        if not cands:
            break
        best, best_x = None, None
        for l in cands:
            x = (_rf.sub(At[l], At[cur]), _rf.sub(St[cur], St[l]))
            if best is None:
                best, best_x = l, x
                continue
            c = cmp_x(x, best_x)
            if c < 0 or (c == 0 and cmp_s(l, best) < 0):
                best, best_x = l, x
        c = cmp_x(best_x, xs[-1])
        if c < 0:  # pragma: no cover - envelope invariant
            raise AssertionError("a crossing before the current breakpoint")
        if c == 0:
            out[-1] = best
        else:
            xs.append(best_x)
            crossings.append((best, cur))
            out.append(best)
        cur = best
    exprs = {}

    def expr(i):
        if i not in exprs:
            exprs[i] = line_expr(i)
        return exprs[i]

    breaks = [sp.Integer(0)] + [sp.cancel((expr(l)[0] - expr(c)[0]) / (expr(c)[1] - expr(l)[1]))
                                for l, c in crossings]
    return PL(tuple(breaks), tuple(expr(i) for i in out), n, n0)._fused()


def _lower_envelope_expr(lines, n, n0):
    """:func:`lower_envelope` on SymPy expressions (coefficients not rational in ``n``)."""
    uniq = []
    for a, s in lines:
        a, s = sp.cancel(a), sp.cancel(s)
        if not any(sp.cancel(a - ua) == 0 and sp.cancel(s - us) == 0 for ua, us in uniq):
            uniq.append((a, s))
    probe = PL((sp.Integer(0),), ((0, 0),), n, n0)
    cmp = probe.cmp

    def better(l1, l2):  # l1 lower at beta = 0, or equal and flatter
        c = cmp(l1[0], l2[0])
        return c < 0 or (c == 0 and cmp(l1[1], l2[1]) < 0)

    cur = uniq[0]
    for line in uniq[1:]:
        if better(line, cur):
            cur = line
    breaks, out = [sp.Integer(0)], [cur]
    while True:
        cands = [l for l in uniq if cmp(l[1], cur[1]) < 0]
        if not cands:
            break
        best, best_x = None, None
        for l in cands:
            x = sp.cancel((l[0] - cur[0]) / (cur[1] - l[1]))
            if best is None:
                best, best_x = l, x
                continue
            c = cmp(x, best_x)
            if c < 0 or (c == 0 and cmp(l[1], best[1]) < 0):
                best, best_x = l, x
        if cmp(best_x, breaks[-1]) < 0:  # pragma: no cover - envelope invariant
            raise AssertionError("a crossing before the current breakpoint")
        if cmp(best_x, breaks[-1]) == 0:
            out[-1] = best
        else:
            breaks.append(best_x)
            out.append(best)
        cur = best
    return PL(tuple(breaks), tuple(out), n, n0)._fused()
