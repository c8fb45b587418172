"""Exact parametric sweep of a sum of maxima, and of its minimum.

The functions of :mod:`analytic.derivations.intervals` have the shape

.. math::

    F(x; L) = \\sum_j c_j(x, L)\\,\\max_a A_{j,a}(x, L),

with coefficients :math:`c_j > 0` rational in ``x`` and ``L`` and atoms
:math:`A_{j,a}` polynomial in ``x`` and ``L`` (binotto2024 Prop. 4 written out:
one maximum per true class ``j``, over the candidate class and the branch of
the Hausdorff distance).  At one value of the parameter ``L`` the pieces of
``F`` in ``x`` are separated by ties of two atoms.  As ``L`` moves, the pattern
of pieces can only change at an *event*:

* an atom tie free of ``x`` holds (an ``x``-free factor vanishes),
* a tie root enters ``x > 0`` or goes to infinity (the constant or the leading
  coefficient in ``x`` of a tie factor vanishes) or two roots merge (its
  discriminant in ``x`` vanishes),
* two tie roots cross (the resultant in ``x`` of two tie factors vanishes).

Events are the positive real roots of polynomials in ``L`` with integer
coefficients.  Between two consecutive events the pattern is fixed: it is read
off at one rational sample of ``L`` (exact rational arithmetic for the choice
of atoms), and the symbolic branch of each breakpoint (a root in ``x`` of a tie
factor, an algebraic function of ``L``) is identified there.  Adjacent cells
with the same pattern are merged: what is left are the genuine case
boundaries.

For the minimum over ``x`` the events of the critical points of each piece
are added (a critical point meets one of the two ends of its piece, enters
``x > 0``, goes to infinity or merges with another), and inside each resulting
cell the places where two candidate values are equal (elimination of ``x``
with resultants, then of the value).

Numbers: the choice of atoms at a sample is exact (rational arithmetic); the
positions of algebraic numbers (roots, events, candidate values) are computed
at 100 digits from exact polynomials, the number of real roots is certified by
an exact Sturm count, and every decision between two distinct algebraic
numbers requires a separation of at least ``1e-60``, otherwise an
:class:`exactfloor.errors.UndecidedError` is raised rather than a guess being
made.  The algebraic numbers live in :mod:`analytic.engines._algebraic`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations

import mpmath
import sympy as sp

from analytic.engines._algebraic import DPS as _DPS
from analytic.engines._algebraic import SEP as _SEP
from analytic.engines._algebraic import (
    Root, exact_algebraic, irreducible_factors, real_roots, real_roots_fractions, root_branches,
    simplest_between, tidy, tidy_value, to_mp,
)
from exactfloor.errors import UndecidedError
from exactfloor.tolerance import PROBE, PROBE_DPS
from exactfloor.exact_sign import vanishes

__all__ = ["MaxSum", "Structure", "Cell", "OptimumCell", "exact_algebraic"]


# ---------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Structure:
    """The pieces of ``F(.; L0)`` in ``x`` at one parameter value.

    ``pieces[k]`` (a tuple: the chosen atom of every ``j``) holds on
    ``(b_{k-1}, b_k]``; ``breaks[k] = (tie factor, b_k as a 100-digit mpf)``.
    """

    pieces: tuple
    breaks: tuple


@dataclass
class Cell:
    """An open parameter interval on which the pattern in ``x`` is fixed.

    ``pieces`` is ``[(F_k(x, L), b_k(L))]`` with ``b_last = oo``; ``break_keys``
    names each breakpoint by ``(tie factor, branch index)``.  ``lower`` and
    ``upper`` are exact SymPy numbers (``upper`` may be ``oo``).
    """

    lower: object
    upper: object
    sample: sp.Rational
    structure: Structure
    pieces: list = field(default_factory=list)
    break_keys: tuple = ()


@dataclass
class OptimumCell:
    """A parameter interval on which one symbolic candidate minimises ``F``."""

    lower: object
    upper: object
    sample: sp.Rational
    kind: str  # "critical point" or "breakpoint"
    x_opt: sp.Expr
    value: sp.Expr
    key: tuple
    piece: sp.Expr  # the piece F_k(x, L) whose value is taken


@dataclass(frozen=True)
class _Candidate:
    kind: str
    key: tuple
    x_expr: sp.Expr
    piece: sp.Expr
    poly: sp.Poly  # defines x: poly(x, L) = 0
    x0: mpmath.mpf  # x at the sample


# ---------------------------------------------------------------------------
# the model
# ---------------------------------------------------------------------------
class MaxSum:
    """``F(x; L) = sum_j coefs[j] * max(atoms[j])`` (see the module docstring).

    Parameters
    ----------
    coefs : list of SymPy expressions, positive for ``x, L > 0``
    atoms : list of lists of polynomials in ``x`` (and ``param``)
    x : the variable (a positive symbol)
    param : the parameter (a positive symbol) or ``None``
    """

    def __init__(self, coefs, atoms, x, param=None):
        self.x, self.param = x, param
        self.gens = (x,) if param is None else (x, param)
        self.coefs = [sp.together(c) for c in coefs]
        self.atoms = []
        for A in atoms:
            uniq = []
            for a in A:
                a = sp.expand(a)
                if not any(sp.expand(a - u) == 0 for u in uniq):
                    uniq.append(a)
            self.atoms.append(uniq)
        free = set()
        for c in self.coefs:
            free |= c.free_symbols
        for A in self.atoms:
            for a in A:
                free |= a.free_symbols
        extra = free - set(self.gens)
        if extra:
            raise ValueError(f"unexpected free symbols {sorted(map(str, extra))}")
        self._pieces, self._branches, self._crit = {}, {}, {}
        self._xcoef, self._vfac, self._fn, self._res = {}, {}, {}, {}
        self._factor_cache, self._root_cache = {}, {}

    # -- the function ----------------------------------------------------------
    def piece(self, sel):
        """The smooth piece of ``F`` choosing atom ``sel[j]`` for every ``j``."""
        if sel not in self._pieces:
            f = sp.Add(*[c * A[s] for c, A, s in zip(self.coefs, self.atoms, sel, strict=True)])
            self._pieces[sel] = tidy(f, self.x)
        return self._pieces[sel]

    @cached_property
    def _atom_functions(self):
        """Atoms of each ``j`` scaled to integer coefficients (argmax unchanged),
        as functions of Python ``Fraction`` arguments."""
        fns = []
        for A in self.atoms:
            den = sp.ilcm(1, *[sp.denom(c) for a in A
                               for c in sp.Poly(a, *self.gens).coeffs()])
            fns.append([sp.lambdify(self.gens, sp.expand(a * den), modules=[{}])
                        for a in A])
        return fns

    def _select(self, xv, pv=None):
        args = (Fraction(int(xv.p), int(xv.q)),)
        if self.param is not None:
            args += (Fraction(int(pv.p), int(pv.q)),)
        sel = []
        for fA in self._atom_functions:
            vals = [f(*args) for f in fA]
            best = max(vals)
            idx = [k for k, v in enumerate(vals) if v == best]
            if len(idx) != 1:
                raise UndecidedError(f"atom tie at the sample point {args}")
            sel.append(idx[0])
        return tuple(sel)

    # -- ties ---------------------------------------------------------------
    @cached_property
    def tie_factors(self):
        """Irreducible factors of every atom tie: ``(with x, free of x)``."""
        with_x, without_x = {}, {}
        for A in self.atoms:
            for a, b in combinations(A, 2):
                for p in irreducible_factors(a - b, self.gens):
                    if p.degree(self.x) > 0:
                        if p.as_expr() == self.x:  # the root x = 0 is outside x > 0
                            continue
                        with_x.setdefault(p.as_expr(), p)
                    else:
                        without_x.setdefault(p.as_expr(), p)
        return list(with_x.values()), list(without_x.values())

    # -- one parameter value ---------------------------------------------------
    def _x_coeff_functions(self, poly):
        key = poly.as_expr()
        if key not in self._xcoef:
            deg = poly.degree(self.x)
            e = sp.expand(poly.as_expr())
            args = [self.param] if self.param is not None else []
            self._xcoef[key] = [sp.lambdify(args, e.coeff(self.x, k), modules=[{}])
                                for k in range(deg, -1, -1)]
        return self._xcoef[key]

    def _x_roots(self, poly, p0):
        """Positive real roots in ``x`` of ``poly`` at ``param = p0`` (100 digits)."""
        args = [] if self.param is None else [Fraction(int(p0.p), int(p0.q))]
        cs = [Fraction(f(*args)) for f in self._x_coeff_functions(poly)]
        return real_roots_fractions(cs)

    def structure_at(self, p0=None):
        """The :class:`Structure` of ``F(.; p0)`` (``p0`` rational or ``None``)."""
        roots = []
        for p in self.tie_factors[0]:
            roots += [(t, p) for t in self._x_roots(p, p0)]
        roots.sort(key=lambda t: t[0])
        for (a, pa), (b, pb) in zip(roots, roots[1:], strict=False):
            if b - a < _SEP:
                raise UndecidedError(
                    f"tie roots of {pa.as_expr()} and {pb.as_expr()} meet at {p0}")
        edges = [mpmath.mpf(0)] + [t for t, _ in roots] + [mpmath.inf]
        sels = [self._select(simplest_between(lo, hi), p0)
                for lo, hi in zip(edges, edges[1:], strict=False)]
        pieces, breaks = [sels[0]], []
        for k, sel in enumerate(sels[1:]):
            if sel != pieces[-1]:
                pieces.append(sel)
                breaks.append((roots[k][1], roots[k][0]))
        return Structure(tuple(pieces), tuple(breaks))

    # -- symbolic translation -----------------------------------------------------
    def branches(self, poly, p0=None):
        """``(mode, [symbolic roots in x], [their mpmath functions])`` of ``poly``
        on the parameter cell of the sample ``p0`` (cached)."""
        key = poly.as_expr()
        if key not in self._branches or (poly.degree(self.x) == 3 and p0 is not None):
            mode, brs = root_branches(poly, self.x, self.param, p0)
            P = self.param
            fn = [sp.lambdify([P] if P is not None else [], b, modules="mpmath") for b in brs]
            if poly.degree(self.x) != 3:
                self._branches[key] = (mode, brs, fn)
            else:
                self._branches.setdefault((key, mode), (mode, brs, fn))
                return self._branches[(key, mode)]
        return self._branches[key]

    def pick_branch(self, poly, p0, target):
        """``(mode, index)`` of the branch of ``poly`` equal to ``target`` at ``param = p0``."""
        mode, brs, fns = self.branches(poly, p0)
        hits = []
        with mpmath.workdps(_DPS):
            for k, fn in enumerate(fns):
                v = fn(to_mp(p0)) if self.param is not None else fn()
                if abs(mpmath.mpc(v) - target) < _SEP:
                    hits.append(k)
        if len(hits) != 1:
            raise UndecidedError(f"cannot identify the branch of {target} among {brs}")
        return (mode, hits[0]), brs[hits[0]]

    def symbolic_breaks(self, st, p0):
        """``[(b(L), (factor, branch))]`` for the breakpoints of ``st``."""
        out = []
        for poly, val in st.breaks:
            k, expr = self.pick_branch(poly, p0, val)
            out.append((expr, (poly.as_expr(), k)))
        return out

    # -- events -------------------------------------------------------------------
    def _event_polys(self, polys_with_x, polys_without_x=(), cross=None):
        x = self.x
        ev = [p.as_expr() for p in polys_without_x]
        for p in polys_with_x:
            e = p.as_expr()
            deg = p.degree(x)
            ev.append(e.coeff(x, deg))
            const = e.subs(x, 0)
            if const == 0:
                raise UndecidedError(f"{e} has the root x = 0 for every parameter")
            ev.append(const)
            if deg >= 2:
                ev.append(sp.discriminant(e, x))
            if deg == 3:  # the signs that choose the real form of the roots
                a3, a2, a1, a0 = sp.Poly(e, x).all_coeffs()
                ev.append(3 * a3 * a1 - a2**2)
                ev.append(2 * a2**3 - 9 * a3 * a2 * a1 + 27 * a3**2 * a0)
        pairs = combinations(polys_with_x, 2) if cross is None else cross
        for p, q in pairs:
            if p.as_expr() != q.as_expr():
                ev.append(sp.resultant(p.as_expr(), q.as_expr(), x))
        return ev

    def _events(self, ev_polys, lo=0, hi=mpmath.inf):
        """Sorted positive real roots in ``(lo, hi)`` of the polynomials."""
        P = self.param
        facs = {}
        for e in ev_polys:
            if e not in self._factor_cache:
                ee = sp.expand(e)
                if ee == 0:
                    raise UndecidedError("an event polynomial vanishes identically")
                self._factor_cache[e] = (irreducible_factors(ee, (P,))
                                         if P in ee.free_symbols else [])
            for f in self._factor_cache[e]:
                facs.setdefault(f.as_expr(), f)
        roots = []
        for key, f in facs.items():
            if key not in self._root_cache:
                self._root_cache[key] = [Root(f, t) for t, _ in real_roots(f)]
            roots += [rt for rt in self._root_cache[key]
                      if rt.value - lo > _SEP and (hi == mpmath.inf or hi - rt.value > _SEP)]
        roots.sort(key=lambda r: r.value)
        for a, b in zip(roots, roots[1:], strict=False):
            if b.value - a.value < _SEP:
                raise UndecidedError("two distinct events too close to order")
        return roots

    @cached_property
    def structure_events(self):
        """Parameter values where the pattern of ties may change."""
        with_x, without_x = self.tie_factors
        return self._events(self._event_polys(with_x, without_x))

    def _cell(self, lo, hi):
        p0 = simplest_between(lo.value if lo else mpmath.mpf(0),
                               hi.value if hi else mpmath.inf)
        st = self.structure_at(p0)
        sb = self.symbolic_breaks(st, p0)
        pieces = [(self.piece(sel), sb[k][0] if k < len(sb) else sp.oo)
                  for k, sel in enumerate(st.pieces)]
        return Cell(lo, hi, p0, st, pieces, tuple(k for _, k in sb))

    @cached_property
    def _structure_cells(self):
        ev = self.structure_events
        cells = [self._cell(lo, hi) for lo, hi in zip([None] + ev, ev + [None], strict=True)]
        out = []
        for c in cells:
            if out and (out[-1].structure.pieces, out[-1].break_keys) == (
                    c.structure.pieces, c.break_keys):
                out[-1].upper = c.upper
            else:
                out.append(c)
        return out

    def structure_cells(self):
        """Parameter cells with a fixed pattern in ``x`` (merged), bounds exact."""
        if self.param is None:
            raise ValueError("no parameter to sweep")
        return [Cell(_exact(c.lower, 0), _exact(c.upper, sp.oo), c.sample, c.structure,
                     c.pieces, c.break_keys) for c in self._structure_cells]

    # -- the minimum over x ---------------------------------------------------------
    def _critical_factors(self, sel):
        if sel not in self._crit:
            f = self.piece(sel)
            self._crit[sel] = [q for q in irreducible_factors(sp.diff(f, self.x), self.gens)
                               if q.degree(self.x) > 0]
        return self._crit[sel]

    def optimum_cells(self):
        """Parameter cells on which ``argmin_x F`` is one symbolic candidate."""
        out = []
        for cell in self._structure_cells:
            out.extend(self._optimum_over(cell))
        merged = []
        for c in out:
            if merged and self._same_optimum(merged[-1], c):
                merged[-1].upper = c.upper
            else:
                merged.append(c)
        for c in merged:
            c.lower, c.upper = _exact(c.lower, 0), _exact(c.upper, sp.oo)
            c.value = tidy_value(c.piece.subs(self.x, c.x_opt))
        return merged

    def _same_optimum(self, a, b):
        """Same minimiser and same minimum as functions of the parameter."""
        # a cheap refutation first: two distinct algebraic functions differ at a
        # generic point; equality is then decided symbolically
        def differ(e):
            return any(abs(sp.N(e.subs(self.param, t), PROBE_DPS)) > PROBE
                       for t in (a.sample, b.sample))

        if a.key[:2] != b.key[:2]:
            dx = a.x_opt - b.x_opt
            if differ(dx) or not vanishes(dx):
                return False
        if a.piece == b.piece:
            return True
        diff = a.piece.subs(self.x, a.x_opt) - b.piece.subs(self.x, b.x_opt)
        return not differ(diff) and vanishes(diff)

    def _optimum_over(self, cell):
        """Split a structure cell where the candidate set may change."""
        st = cell.structure
        bpolys = [p for p, _ in st.breaks]
        ev = []
        for k, sel in enumerate(st.pieces):
            ends = [bpolys[i] for i in (k - 1, k) if 0 <= i < len(bpolys)]
            crit = self._critical_factors(sel)
            ev += self._event_polys(crit, (), cross=[(q, p) for q in crit for p in ends])
        lo = cell.lower.value if cell.lower else mpmath.mpf(0)
        hi = cell.upper.value if cell.upper else mpmath.inf
        inner = self._events(ev, lo, hi)
        # merged-away structure events inside the cell: samples must avoid them
        seen = {(str(r.poly.as_expr()), str(r.value)) for r in inner}
        inner += [r for r in self.structure_events
                  if r.value - lo > _SEP and (hi == mpmath.inf or hi - r.value > _SEP)
                  and (str(r.poly.as_expr()), str(r.value)) not in seen]
        inner.sort(key=lambda r: r.value)
        out = []
        for a, b in zip([cell.lower] + inner, inner + [cell.upper], strict=True):
            sub = self._cell(a, b)
            if (sub.structure.pieces, sub.break_keys) != (st.pieces, cell.break_keys):
                raise UndecidedError(f"pattern changed inside a cell at {sub.sample}")
            out.extend(self._optimum_in_cell(sub))
        return out

    def _candidates(self, cell):
        """Breakpoints, and critical points inside their piece, at the sample."""
        st, p0 = cell.structure, cell.sample
        out = []
        for k, ((poly, val), (bexpr, key)) in enumerate(
                zip(st.breaks, self.symbolic_breaks(st, p0), strict=True)):
            out.append(_Candidate("breakpoint", key, bexpr, self.piece(st.pieces[k]), poly, val))
        edges = [mpmath.mpf(0)] + [v for _, v in st.breaks] + [mpmath.inf]
        for k, sel in enumerate(st.pieces):
            for q in self._critical_factors(sel):
                for t in self._x_roots(q, p0):
                    if t - edges[k] > _SEP and (edges[k + 1] == mpmath.inf
                                                or edges[k + 1] - t > _SEP):
                        j, expr = self.pick_branch(q, p0, t)
                        out.append(_Candidate("critical point", (q.as_expr(), j, sel),
                                              expr, self.piece(sel), q, t))
        return out

    def _piece_function(self, piece):
        if piece not in self._fn:
            self._fn[piece] = sp.lambdify(self.gens, piece, modules="mpmath")
        return self._fn[piece]

    def _value(self, cand, p0):
        f = self._piece_function(cand.piece)
        with mpmath.workdps(_DPS):
            return f(cand.x0, to_mp(p0)) if self.param is not None else f(cand.x0)

    def _optimum_in_cell(self, cell):
        """Winners on the parts of a cell separated by equal candidate values."""
        cands = self._candidates(cell)
        p0 = cell.sample
        vals = [self._value(c, p0) for c in cands]
        best = min(vals)
        win = [k for k, v in enumerate(vals) if v - best < _SEP]
        if len(win) != 1:
            raise UndecidedError(f"several minimisers at the sample {p0}")
        w = win[0]
        lo = cell.lower.value if cell.lower else mpmath.mpf(0)
        hi = cell.upper.value if cell.upper else mpmath.inf
        switch = self._switch_events(cands, vals, w, lo, hi, p0)
        if not switch:
            c = cands[w]
            return [OptimumCell(cell.lower, cell.upper, p0, c.kind, c.x_expr, None,
                                c.key, c.piece)]
        out = []
        for a, b in zip([cell.lower] + switch, switch + [cell.upper], strict=True):
            out.extend(self._optimum_in_cell(self._cell(a, b)))
        return out

    def _value_factor(self, cand, val, p0):
        """The irreducible polynomial in ``(v, L)`` of the candidate's value."""
        v, x, P = self._v, self.x, self.param
        key = (cand.poly.as_expr(), cand.piece)
        if key not in self._vfac:
            num, den = sp.fraction(sp.together(cand.piece))
            res = sp.resultant(cand.poly.as_expr(), sp.expand(v * den - num), x)
            self._vfac[key] = [(q, sp.lambdify((v, P), q.as_expr(), modules="mpmath"))
                               for q in irreducible_factors(res, (v, P)) if q.degree(v) > 0]
        hit = []
        with mpmath.workdps(_DPS):
            for q, fq in self._vfac[key]:
                scale = 1 + abs(fq(val + 1, to_mp(p0)))
                if abs(fq(val, to_mp(p0))) < _SEP * scale:
                    hit.append(q)
        if len(hit) != 1:
            raise UndecidedError("cannot identify the value polynomial of a candidate")
        return hit[0]

    @cached_property
    def _v(self):
        return sp.Dummy("v")

    def _switch_events(self, cands, vals, w, lo, hi, p0):
        """Parameter values in ``(lo, hi)`` where another candidate's value
        equals the winner's: roots of the resultant in ``v`` of the two value
        polynomials (for two branches of one polynomial, its discriminant)."""
        fw = self._value_factor(cands[w], vals[w], p0)
        ev = []
        for k, c in enumerate(cands):
            if k == w or c.key[:2] == cands[w].key[:2]:
                continue
            fk = self._value_factor(c, vals[k], p0)
            pair = (fw.as_expr(), fk.as_expr())
            if pair not in self._res:
                if fk.as_expr() == fw.as_expr():
                    self._res[pair] = (sp.discriminant(fk.as_expr(), self._v)
                                       if fk.degree(self._v) >= 2 else 0)
                else:
                    self._res[pair] = sp.resultant(fw.as_expr(), fk.as_expr(), self._v)
            ev.append(self._res[pair])
        return self._events([e for e in ev if e != 0], lo, hi)


def _exact(root, default):
    return default if root is None else root.expr()
