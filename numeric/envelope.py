"""Lower envelopes of the path lines over beta: one piecewise-linear type, one search.

For a fixed path the cost ``a + s beta`` of OC or UOC is a line; the index is
the lower envelope of those lines, a concave piecewise-linear function.
:func:`search` finds its pieces by parametric search (Eisner and Severance
1976): the minimising lines at the two ends of an interval meet at a point
where the DP either confirms the envelope or reveals a new line.  The search
runs on a whole stack at once: each round evaluates the DP of every pending
interval of every matrix in one vectorised call.

Boundary convention: a piece is ``(lo, hi, a, s)`` with ``lo < hi`` (``hi =
+inf`` for the last piece of an unbounded range); :class:`Envelope` stores
the breakpoints ``b_0 < b_1 < ... < b_m`` with ``None`` for ``+inf``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from exactfloor.errors import UndecidedError

__all__ = ["Envelope", "search", "search_int64", "lines_everywhere", "merge", "piece_areas"]


@dataclass(frozen=True)
class Envelope:
    """A concave piecewise-linear function of beta, ``min_i (a_i + s_i beta)``.

    ``breakpoints[i]`` and ``breakpoints[i+1]`` bound the piece on which
    ``intercepts[i] + slopes[i] * beta`` is the value; the last breakpoint is
    ``None`` when the last piece extends to infinity.

    >>> env = Envelope((0, 1, None), (0.5, 1.0), (0.5, 0.0))
    >>> env(0.5), env(2)
    (0.75, 1.0)
    """

    breakpoints: tuple
    intercepts: tuple
    slopes: tuple
    arithmetic: Any = None

    def __call__(self, beta):
        for i in range(len(self.slopes)):
            hi = self.breakpoints[i + 1]
            if hi is None or beta <= hi:
                return self.intercepts[i] + self.slopes[i] * beta
        return self.intercepts[-1] + self.slopes[-1] * beta

    def integral(self):
        """Integral over the (finite) range of the breakpoints."""
        if self.breakpoints[-1] is None:
            raise ValueError("the envelope extends to infinity; its integral diverges")
        bp = self.breakpoints
        areas = [piece_areas(*piece) for piece in zip(bp[:-1], bp[1:], self.intercepts, self.slopes, strict=True)]
        return sum(areas[1:], areas[0])


def piece_areas(lo, hi, a, s):
    r"""The integral of each piece ``a + s beta`` over ``[lo, hi]`` (elementwise).

    .. math:: \int_{lo}^{hi} (a + s\beta)\,d\beta = a(hi - lo) + s(hi^2 - lo^2)/2

    Parameters
    ----------
    lo, hi, a, s : number or array_like
        The pieces' ends and lines.

    Returns
    -------
    number or ndarray
        The integrals.

    Examples
    --------
    >>> piece_areas(1, 2, 0.5, 2.0)
    3.5
    """
    return a * (hi - lo) + s * (hi * hi - lo * lo) / 2


def _bool(a):
    return np.asarray(a, dtype=bool)


def _cat(parts, dtype):
    return np.concatenate(parts) if parts else np.empty(0, dtype=dtype)


def lines_everywhere(lines_at):
    """The ``lines_below`` callback of :func:`search` from a callback that finds
    the line of a minimiser at every point (an exact DP, where the line costs
    nothing more than the value).

    Parameters
    ----------
    lines_at : callable ``(idx, x) -> (a, s)``
        The line ``a + s beta`` of a minimiser at ``beta = x[k]`` for matrix ``idx[k]``.

    Returns
    -------
    callable ``(idx, x, floor) -> (value, a, s)``
        The callback, which ignores ``floor`` (its value is ``a + s x``).

    Examples
    --------
    >>> at = lambda idx, x: (np.where(x < 2, 0.0, 2.0), np.where(x < 2, -1.0, -2.0))
    >>> [v.tolist() for v in lines_everywhere(at)(np.array([0, 0]), np.array([1.0, 3.0]), None)]
    [[-1.0, -4.0], [0.0, 2.0], [-1.0, -2.0]]
    """
    def lines_below(idx, x, floor):
        a, s = lines_at(idx, x)
        return a + s * x, a, s

    return lines_below


def search(lines_below, lo, hi, end_lo, end_hi, ctx, *, tol_value=None, tol_slope=None,
           max_rounds=None):
    """Batched parametric search of lower envelopes (Eisner and Severance 1976).

    Parameters
    ----------
    lines_below : callable ``(idx, x, floor) -> (value, a, s)``
        The minimum at ``beta = x[k]`` for matrix ``idx[k]`` (one DP call for
        the whole batch), and the line ``a + s beta`` of a minimiser where
        the minimum is below ``floor`` (elsewhere ``a``, ``s`` are not read):
        a line is needed only where the envelope is not confirmed.
        :func:`lines_everywhere` makes one from a callback that finds the
        line at every point.
    lo, hi : arrays, shape (n,)
        The range per matrix; ``hi`` may hold ``ctx.inf``.
    end_lo, end_hi : pairs of arrays ``(a, s)``
        The minimising lines at ``lo`` and at ``hi`` (for an infinite ``hi``,
        the line of least slope).
    ctx : exactfloor.arith.Arithmetic
        The arithmetic of the numbers (its ``divide`` finds the crossings).
    tol_value, tol_slope : callables ``(idx, x) -> slack`` / ``idx -> slack``
        The context's slack for comparing two values / two slopes (None: exact).
    max_rounds : int, optional
        The rounds allowed before :class:`~exactfloor.errors.UndecidedError`
        (None: 100000).

    Returns
    -------
    (idx, lo, hi, a, s)
        Arrays of pieces, unsorted; a matrix's pieces tile its range.

    Examples
    --------
    The envelope ``min(-t, 2 - 2t)`` on ``[0, 3]``, whose lines cross at ``t = 2``:

    >>> from exactfloor.arith import get_arithmetic
    >>> at = lambda idx, x: (np.where(x < 2, 0.0, 2.0), np.where(x < 2, -1.0, -2.0))
    >>> idx, lo, hi, a, s = search(lines_everywhere(at), np.array([0.0]), np.array([3.0]),
    ...                            (np.array([0.0]), np.array([-1.0])),
    ...                            (np.array([2.0]), np.array([-2.0])), get_arithmetic("float"))
    >>> merge(lo.tolist(), hi.tolist(), a.tolist(), s.tolist())
    [(0.0, 2.0, 0.0, -1.0), (2.0, 3.0, 2.0, -2.0)]
    """
    n = len(lo)
    dtype = np.asarray(lo).dtype
    if max_rounds is None:
        max_rounds = 100_000
    ti = np.arange(n)
    tl, th = np.asarray(lo), np.asarray(hi)
    a0, s0 = end_lo
    a1, s1 = end_hi
    out = [[], [], [], [], []]

    def emit(at, l, h, a, s):
        for lst, v in zip(out, (ti, l, h, a, s), strict=True):
            lst.append(v[at])

    # each mask below is turned into positions once, for all the arrays it filters
    for _ in range(max_rounds):
        if ti.size == 0:
            break
        ds = s0 - s1
        same = _bool(np.abs(ds) <= (0 if tol_slope is None else tol_slope(ti))) | _bool(th == tl)
        if same.any():
            emit(np.flatnonzero(same), tl, th, a0, s0)
            keep = np.flatnonzero(~same)
            ti, tl, th, a0, s0, a1, s1, ds = (v[keep] for v in (ti, tl, th, a0, s0, a1, s1, ds))
            if ti.size == 0:
                break
        # the two lines cross at a0 + s0 x = a1 + s1 x, clamped into [tl, th]
        x = ctx.divide(a1 - a0, ds)
        x = np.where(_bool(x < tl), tl, x)
        x = np.where(_bool(x > th), th, x)
        floor = a0 + s0 * x - (0 if tol_value is None else tol_value(ti, x))
        value, a, s = lines_below(ti, x, floor)
        ok = _bool(value >= floor)
        done = np.flatnonzero(ok)
        emit(done, tl, x, a0, s0)
        emit(done, x, th, a1, s1)
        new = np.flatnonzero(~ok)
        ti, tl, x, th, a0, s0, a1, s1, a, s = (
            v[new] for v in (ti, tl, x, th, a0, s0, a1, s1, a, s))
        ti = np.concatenate([ti, ti])
        tl, th = np.concatenate([tl, x]), np.concatenate([x, th])
        a0, s0 = np.concatenate([a0, a]), np.concatenate([s0, s])
        a1, s1 = np.concatenate([a, a1]), np.concatenate([s, s1])
    else:
        raise UndecidedError(f"parametric search did not converge in {max_rounds} rounds")
    return tuple(_cat(v, dtype if k in (1, 2) else None) for k, v in enumerate(out))


def search_int64(least_line, hi_p, hi_r, end_lo, end_hi, *, max_rounds=100_000):
    """:func:`search` over ``[0, hi_p / hi_r]`` in exact int64 arithmetic.

    The lines ``a + s t`` have int64 coefficients, so every point of the
    search is a pair ``p / r`` of int64 (``r > 0``): the crossing of two
    lines is ``(a_1 - a_0) / (s_0 - s_1)``, two points are compared by cross
    products, and a line's value at ``p / r`` by ``r a + s p``.  The rounds
    are those of :func:`search` with no tolerance; the pieces are not merged
    (a piece may be empty: ``lo = hi``), which an integral does not need.

    Parameters
    ----------
    least_line : callable ``(idx, p, r) -> (a, s)``
        The line of a minimiser at ``t = p[k] / r[k]`` for matrix ``idx[k]``
        (one call for the whole batch).
    hi_p, hi_r : int64 arrays, shape (n,)
        The right ends ``hi_p / hi_r`` (``hi_r > 0``).
    end_lo, end_hi : pairs of int64 arrays ``(a, s)``
        The minimising lines at ``0`` and at the right end.
    max_rounds : int, optional
        The rounds allowed before :class:`~exactfloor.errors.UndecidedError`.

    Returns
    -------
    (idx, lo_p, lo_r, hi_p, hi_r, a, s)
        int64 arrays of pieces, unsorted; a matrix's pieces tile its range.

    Notes
    -----
    The caller bounds the numbers: with every ``|a|`` and every ``hi_p`` at
    most ``P``, every ``s`` and every ``hi_r`` at most ``R``, the points
    have ``|p| <= P``, ``r <= R``, and every product here is at most
    ``2 P R``, which must stay below ``2**63``.

    Examples
    --------
    >>> a, s = np.array([0]), np.array([-1])   # min(-t, 2 - 2t) on [0, 3]: they cross at t = 2
    >>> least = lambda idx, p, r: (np.where(2 * r > p, 0, 2), np.where(2 * r > p, -1, -2))
    >>> [v.tolist() for v in search_int64(least, np.array([3]), np.array([1]),
    ...                                    (a, s), (np.array([2]), np.array([-2])))]
    [[0, 0], [0, 2], [1, 1], [2, 3], [1, 1], [0, 2], [-1, -2]]
    """
    n = len(hi_p)
    ti = np.arange(n)
    lp, lr = np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)
    hp, hr = np.asarray(hi_p, dtype=np.int64), np.asarray(hi_r, dtype=np.int64)
    (a0, s0), (a1, s1) = end_lo, end_hi
    out = [[] for _ in range(7)]

    def emit(at, l_p, l_r, h_p, h_r, a, s):
        for lst, v in zip(out, (ti, l_p, l_r, h_p, h_r, a, s), strict=True):
            lst.append(v[at])

    for _ in range(max_rounds):
        if ti.size == 0:
            break
        ds = s0 - s1
        same = (ds == 0) | (lp * hr == hp * lr)
        if same.any():
            emit(np.flatnonzero(same), lp, lr, hp, hr, a0, s0)
            keep = np.flatnonzero(~same)
            ti, lp, lr, hp, hr, a0, s0, a1, s1, ds = (
                v[keep] for v in (ti, lp, lr, hp, hr, a0, s0, a1, s1, ds))
            if ti.size == 0:
                break
        # the crossing p / r of the two lines, clamped into [lo, hi]; r = s0 - s1 > 0, as
        # the envelope is concave (the least line at lo has the larger slope)
        p, r = a1 - a0, ds
        below, above = p * lr < lp * r, p * hr > hp * r
        xp = np.where(below, lp, np.where(above, hp, p))
        xr = np.where(below, lr, np.where(above, hr, r))
        a, s = least_line(ti, xp, xr)
        ok = xr * a + s * xp >= xr * a0 + s0 * xp
        done = np.flatnonzero(ok)
        emit(done, lp, lr, xp, xr, a0, s0)
        emit(done, xp, xr, hp, hr, a1, s1)
        new = np.flatnonzero(~ok)
        ti, lp, lr, xp, xr, hp, hr, a0, s0, a1, s1, a, s = (
            v[new] for v in (ti, lp, lr, xp, xr, hp, hr, a0, s0, a1, s1, a, s))
        ti = np.concatenate([ti, ti])
        lp, lr = np.concatenate([lp, xp]), np.concatenate([lr, xr])
        hp, hr = np.concatenate([xp, hp]), np.concatenate([xr, hr])
        a0, s0 = np.concatenate([a0, a]), np.concatenate([s0, s])
        a1, s1 = np.concatenate([a, a1]), np.concatenate([s, s1])
    else:
        raise UndecidedError(f"parametric search did not converge in {max_rounds} rounds")
    return tuple(np.concatenate(v) if v else np.empty(0, dtype=np.int64) for v in out)


def merge(lo, hi, a, s, *, tol_width=0, tol_value=0, tol_slope=0, key=None):
    """One matrix's pieces sorted by ``lo``: empty pieces dropped, equal neighbours fused.

    Parameters
    ----------
    lo, hi, a, s : sequence
        The pieces: the line ``a + s beta`` on ``[lo, hi]``.
    tol_width : float or callable, optional
        A piece ``[l, h]`` is empty when ``h - l <= tol_width`` (a number, or a
        callable ``(l, h) -> slack``).
    tol_value, tol_slope : float, optional
        Two neighbours are fused when their ``a`` and their ``s`` differ by at
        most these.
    key : callable, optional
        The sort key of a point (default the point itself).

    Returns
    -------
    list of tuple
        The pieces ``(lo, hi, a, s)``, sorted.

    Examples
    --------
    >>> merge([1, 0], [2, 1], [3, 3], [0, 0])
    [(0, 2, 3, 0)]
    >>> merge([0, 1, 1], [1, 2, 1], [1, 2, 3], [1, 0, 5])    # [1, 1] is empty
    [(0, 1, 1, 1), (1, 2, 2, 0)]
    """
    # by (lo, hi): an empty piece [x, x] comes before the piece [x, y] that continues
    k = (lambda v: v) if key is None else key
    order = sorted(range(len(lo)), key=lambda i: (k(lo[i]), k(hi[i])))
    pieces = [(lo[i], hi[i], a[i], s[i]) for i in order]
    out = []
    start = None
    width = tol_width if callable(tol_width) else (lambda l, h: tol_width)
    for l, h, ai, si in pieces:
        if start is not None:
            l, start = start, None
        if h - l <= width(l, h) and len(pieces) > 1:
            if out:
                out[-1] = (out[-1][0], h, out[-1][2], out[-1][3])
            else:
                start = l  # the next piece starts where the range starts
            continue
        if out and abs(out[-1][3] - si) <= tol_slope and abs(out[-1][2] - ai) <= tol_value:
            out[-1] = (out[-1][0], h, out[-1][2], out[-1][3])
        else:
            out.append((l, h, ai, si))
    return out
