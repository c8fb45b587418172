"""Algebraic numbers for the exact sweeps: real roots of integer polynomials at 100 digits.

Split from :mod:`analytic.engines._sweep` (issue 13): the numbers here (roots located
at 100 digits, their count certified by an exact Sturm count, numerical
roots told apart only at a separation of at least ``1e-60``, otherwise
:class:`exactfloor.errors.UndecidedError`) and the polynomial helpers; the sweep
of a sum of maxima stays in :mod:`analytic.engines._sweep`.

The sign of an exact number (a discriminant or a Cardano term at a sample,
a quadratic root near 0) is decided by the one rule of
:mod:`exactfloor.exact_sign` (issue 22 item 2; before: 100 digits, undecided
below ``1e-60``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from exactfloor import exact_sign
from exactfloor.errors import UndecidedError
from exactfloor.tolerance import FLOAT_ROOT, mp_tolerance

__all__ = ["DPS", "SEP", "Root", "exact_algebraic", "real_roots", "real_roots_fractions",
           "simplest_between", "to_fraction", "to_mp", "irreducible_factors", "root_branches",
           "tidy_root", "tidy_value", "tidy"]

DPS = 100
SEP = mp_tolerance(DPS, 40)  # 1e-60: roots told apart with 40 of the 100 digits to spare
_DPS, _SEP = DPS, SEP


# ---------------------------------------------------------------------------
# algebraic numbers: real roots of integer polynomials, at 100 digits
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Root:
    """A real root of the irreducible integer polynomial ``poly`` (univariate).

    ``value`` holds it to 100 digits.
    """

    poly: sp.Poly
    value: mpmath.mpf

    def expr(self):
        return exact_algebraic(self.poly, self.value)


def exact_algebraic(poly, value):
    """The exact SymPy number: the root of ``poly`` (irreducible) near ``value``.

    Real radicals where SymPy finds them (degree <= 4, no ``I``), otherwise the
    matching ``CRootOf``.
    """
    hit = []
    if poly.degree() <= 4:
        # radicals, when the root has a real radical expression (no I)
        cands = [c for c in sp.roots(poly, cubics=True, quartics=True) if not c.has(sp.I)]
        with mpmath.workdps(_DPS):
            approx = [(c, sp.N(c, _DPS)) for c in cands]
            hit = [c for c, v in approx
                   if sp.im(v) == 0 and abs(mpmath.mpmathify(v) - value) < _SEP]
    if not hit:
        with mpmath.workdps(_DPS):
            hit = [c for c in poly.real_roots() if abs(mpmath.mpf(sp.N(c, _DPS)) - value) < _SEP]
    if len(hit) != 1:
        raise UndecidedError(f"cannot identify the root {value} of {poly.as_expr()}")
    return hit[0]


def real_roots(poly, *, positive=True):
    """Real roots (distinct, sorted) of a univariate ``Poly`` with rational
    coefficients, as ``(mpf, exact or None)`` pairs; positive ones only by default.
    """
    poly = sp.Poly(poly.as_expr(), poly.gen, domain="QQ")
    if poly.is_ground:
        return []
    sqf = sp.Poly(sp.sqf_part(poly.as_expr()), poly.gen, domain="QQ")
    cs = [sp.Rational(c) for c in sqf.all_coeffs()]
    deg = len(cs) - 1
    out = []
    with mpmath.workdps(_DPS):
        if deg == 1:
            rt = -cs[1] / cs[0]
            out = [(mpmath.mpf(rt.p) / rt.q, rt)]
        elif deg == 2:
            a, b, c = cs
            D = b * b - 4 * a * c
            if D > 0:
                sD = mpmath.sqrt(mpmath.mpf(D.p) / D.q)
                A, B = mpmath.mpf(a.p) / a.q, mpmath.mpf(b.p) / b.q
                out = [((-B - sD) / (2 * A), None), ((-B + sD) / (2 * A), None)]
            elif D == 0:  # pragma: no cover - sqf_part removes double roots
                rt = -b / (2 * a)
                out = [(mpmath.mpf(rt.p) / rt.q, rt)]
        else:
            approx = np.roots([float(c) for c in cs])
            f = [mpmath.mpf(c.p) / c.q for c in cs]
            df = [f[k] * (deg - k) for k in range(deg)]
            for z in approx:
                if abs(z.imag) > FLOAT_ROOT * max(1.0, abs(z.real)):
                    continue
                t = mpmath.mpf(z.real)
                for _ in range(200):
                    step = mpmath.polyval(f, t) / mpmath.polyval(df, t)
                    t -= step
                    if abs(step) < mpmath.mpf(10) ** (-_DPS + 5) * max(1, abs(t)):
                        break
                out.append((t, None))
            out.sort(key=lambda p: p[0])
            # certify: the exact Sturm count of real roots must match
            if sqf.count_roots() != len(out) or any(
                    b[0] - a[0] < _SEP for a, b in zip(out, out[1:], strict=False)):
                raise UndecidedError(f"real roots of {sqf.as_expr()} not certified")
        if positive:
            if any(abs(t) < _SEP for t, _ in out) and sqf.eval(0) != 0:
                raise UndecidedError("a root too close to 0 to decide its sign")
            out = [(t, e) for t, e in out if t > 0 and (e is None or e > 0)]
    return out


def real_roots_fractions(cs):
    """Positive real roots of ``sum cs[k] x**(deg-k)`` (``Fraction`` coefficients,
    leading one nonzero) as 100-digit mpf; degrees <= 2 in closed form."""
    while cs and cs[0] == 0:
        cs = cs[1:]
    deg = len(cs) - 1
    if deg <= 0:
        return []
    if deg == 1:
        rt = -cs[1] / cs[0]
        with mpmath.workdps(_DPS):
            return [mpmath.mpf(rt.numerator) / rt.denominator] if rt > 0 else []
    if deg == 2:
        a, b, c = cs
        D = b * b - 4 * a * c
        with mpmath.workdps(_DPS):
            if D < 0:
                return []
            if D == 0:
                rt = -b / (2 * a)
                return [mpmath.mpf(rt.numerator) / rt.denominator] if rt > 0 else []
            sD = mpmath.sqrt(mpmath.mpf(D.numerator) / D.denominator)
            A, B = mpmath.mpf(a.numerator) / a.denominator, mpmath.mpf(b.numerator) / b.denominator
            out = sorted([((-B - sD) / (2 * A), -1), ((-B + sD) / (2 * A), 1)])
            if any(abs(t) < _SEP for t, _ in out) and c != 0:
                # a root near 0: its exact sign, (-b +- sqrt(D)) / (2a)
                a_, b_, D_ = (sp.Rational(f.numerator, f.denominator) for f in (a, b, D))
                return [t for t, pm in out
                        if exact_sign.sign((-b_ + pm * sp.sqrt(D_)) / (2 * a_)) > 0]
            return [t for t, _ in out if t > 0]
    X = sp.Dummy("X")
    poly = sp.Poly([sp.Rational(f.numerator, f.denominator) for f in cs], X)
    return [t for t, _ in real_roots(poly)]


def simplest_between(lo, hi):
    """The rational of smallest denominator strictly between ``lo < hi``.

    ``lo, hi`` are 100-digit ``mpf`` (``hi`` may be ``mpmath.inf``) standing for
    algebraic numbers; the margin ``1e-80`` (``exactfloor.tolerance.mp_tolerance(100, 20)``)
    keeps the answer strictly inside.
    """
    with mpmath.workdps(_DPS):
        eps = mp_tolerance(_DPS, 20)  # 1e-80
        a = to_fraction(lo + eps) if lo > 0 else Fraction(0)
        b = None if hi == mpmath.inf else to_fraction(hi - eps)
    if b is not None and not a < b:
        raise UndecidedError("interval too narrow to sample")

    def simplest(a, b):  # open interval (a, b), 0 <= a, b None = infinity
        n = a.numerator // a.denominator
        if b is None or n + 1 < b:
            return Fraction(n + 1)
        inner_hi = None if a == n else 1 / (a - n)
        return n + 1 / simplest(1 / (b - n), inner_hi)

    f = simplest(a, b)
    return sp.Rational(f.numerator, f.denominator)


def to_fraction(v):
    m, e = mpmath.mpf(v).man_exp
    return Fraction(int(m)) * Fraction(2) ** int(e)


def to_mp(v):
    """An exact SymPy number (rational or algebraic) as a 100-digit mpf."""
    if isinstance(v, sp.Rational):
        return mpmath.mpf(v.p) / v.q
    if v == sp.oo:
        return mpmath.inf
    return mpmath.mpf(sp.N(v, _DPS))


# ---------------------------------------------------------------------------
# polynomial helpers
# ---------------------------------------------------------------------------
def irreducible_factors(expr, gens):
    """Irreducible factors over QQ of the numerator of ``expr`` (primitive,
    positive leading coefficient), as ``Poly`` objects in ``gens``."""
    num = sp.numer(sp.together(expr))
    if num == 0:
        return []
    out = []
    for fac, _mult in sp.factor_list(num, *gens)[1]:
        p = sp.Poly(fac, *gens)
        if p.is_ground:
            continue
        p = p.primitive()[1]
        if p.LC() < 0:
            p = -p
        out.append(p)
    return out


def root_branches(poly, x, param=None, p0=None):
    """The roots in ``x`` of ``poly`` as real symbolic functions of ``param``.

    Returns ``(mode, branches)``.  Degree <= 2: radicals (``mode = None``).
    Degree 3 (the critical points of a piece ``a/x + b + c x + e x^2``): the
    form that is real and continuous on a parameter cell, chosen by the signs
    at the sample ``p0`` (all of them are events, so they are constant on the
    cell).  With ``x = t - a_2/(3 a_3)``, ``t^3 + p t + q = 0`` and
    ``D = q^2/4 + p^3/27``:

    * ``D > 0`` (one real root): Cardano with real cube roots,
      ``t = cbrt(-q/2 + sqrt D) + cbrt(-q/2 - sqrt D)``;
    * ``D < 0`` (three real roots): ``t_k = 2 sqrt(-p/3) cos(acos(3q/(2p)
      sqrt(-3/p))/3 - 2 pi k/3)``, ``k = 0, 1, 2``.
    """
    X = sp.Dummy("X")
    px = sp.Poly(poly.as_expr().subs(x, X), X)
    deg = px.degree()
    if deg <= 2:
        rts = sp.roots(px)
        if sum(rts.values()) != deg:  # pragma: no cover - quadratics always solve
            raise NotImplementedError(f"no closed-form roots of {poly.as_expr()} in {x}")
        return None, [tidy_root(rt) for rt in rts]
    if deg != 3:
        raise NotImplementedError(f"roots of degree {deg} in {x} are not supported")
    a3, a2, a1, a0 = [sp.together(c) for c in px.all_coeffs()]
    shift = a2 / (3 * a3)
    p = sp.together((3 * a3 * a1 - a2**2) / (3 * a3**2))
    q = sp.together((2 * a2**3 - 9 * a3 * a2 * a1 + 27 * a3**2 * a0) / (27 * a3**3))
    D = sp.together(q**2 / 4 + p**3 / 27)
    at = (lambda e: e) if param is None else (lambda e: e.subs(param, p0))
    sD = exact_sign.sign(at(D))
    if sD == 0:
        raise UndecidedError("a cubic with a double root at a sample")
    if sD > 0:
        u = -q / 2 + sp.sqrt(D)
        v = -q / 2 - sp.sqrt(D)
        signs = []
        for w in (u, v):
            sw = exact_sign.sign(at(w))
            if sw == 0:
                raise UndecidedError("Cardano term vanishes at a sample")
            signs.append(sw)
        cbrt = [w ** sp.Rational(1, 3) if sg > 0 else -(-w) ** sp.Rational(1, 3)
                for w, sg in zip((u, v), signs, strict=True)]
        return ("one real root", *signs), [cbrt[0] + cbrt[1] - shift]
    amp = 2 * sp.sqrt(-p / 3)
    ang = sp.acos(3 * q / (2 * p) * sp.sqrt(-3 / p)) / 3
    return ("three real roots",), [amp * sp.cos(ang - 2 * sp.pi * k / 3) - shift for k in range(3)]


def tidy_root(v):
    v1 = sp.simplify(v)
    return min((v1, sp.radsimp(v1), sp.factor(v1)), key=sp.count_ops)


def tidy_value(v):
    if sp.count_ops(v) > 80 or v.has(sp.acos):  # Cardano / trigonometric forms: keep
        return v
    v1 = sp.simplify(v)
    v2 = sp.radsimp(sp.expand(v))
    return min((v1, v2), key=sp.count_ops)


def tidy(f, x):
    f = sp.cancel(sp.together(f))
    f = sp.apart(f, x)
    return sp.collect(sp.expand(f), x)


