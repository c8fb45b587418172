"""Path-based indices: OC (cardoso2011), UOC and A_UOC (silva2018).

Both indices minimise, over the monotone ("consistent") paths from cell (1,1)
to cell (K,K), a cost of the form

.. math:: \\mathrm{cost}_\\beta(\\text{path}) = 1 - \\sum_{(r,c)\\in\\text{path}} b_{r,c}
          + \\beta \\sum_{(r,c)\\in\\text{path}} q_{r,c},

with a *benefit* ``b`` and a *penalty* ``q`` per cell.  For a fixed path this
is a line in beta; the index is the lower envelope of those lines, a concave
piecewise-linear function of beta.  :func:`_optimal_path` is the dynamic
programme of cardoso2011 §3.4 (vectorised over a stack of matrices, one
anti-diagonal at a time); :func:`path_envelope` finds the envelope's
breakpoints exactly by parametric search (Eisner and Severance 1976): the
optimal lines at two values of beta meet at a point where the DP either
confirms the envelope or reveals a new line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._arith import get_arithmetic
from ._common import Prepared, prepare
from ._validation import check_beta, check_counts, check_gamma
from .registry import Variant, metric, table_beta

__all__ = ["oc", "uoc", "a_uoc", "path_envelope", "Envelope", "optimal_path"]


# ---------------------------------------------------------------------------
# benefit and penalty of each index
# ---------------------------------------------------------------------------
def _oc_parts(p: Prepared, gamma):
    """cardoso2011 eq. 7 as ``(numer, D, q)``: b = numer / D, q = n |r - c|^gamma.

    ``numer = n`` and ``D = N + M`` with ``M = (sum n |r-c|^gamma)^{1/gamma}``;
    ``D`` has the stack's leading shape.
    """
    dist = p.distance(gamma)
    q = p.n * dist
    M = p.ctx.power(q.sum(axis=(-2, -1)), 1 / p.ctx.number(gamma))
    D = np.asarray(p.total() + M, dtype=p.n.dtype)
    return p.n, D, q


def _oc_weights(p: Prepared, gamma):
    """cardoso2011 eq. 7: b = n / (N + M), q = n |r - c|^gamma."""
    numer, D, q = _oc_parts(p, gamma)
    return numer / D[..., None, None], q


def _uoc_parts(p: Prepared, gamma):
    """silva2018 eq. 28 as ``(numer, D, q)``: b = numer / D.

    ``numer = (n / N_r) 1_O(r)``, ``D = K' + K'^{1-gamma} M'`` and
    ``q = (n / N_r) 1_O(r) |r-c|^gamma / K'`` with
    ``M' = (sum (n / N_r) 1_O(r) |r-c|^gamma)^{1/gamma}`` and ``K'`` the number
    of observed true classes.
    """
    ctx = p.ctx
    observed = p.counts.sum(axis=-1) > 0
    rows = np.where(observed, p.rows(), 1)
    prob = p.n / rows[..., :, None]  # unobserved rows are zero rows already
    Kp = ctx.asarray(observed.sum(axis=-1))
    dq = prob * p.distance(gamma)
    g = ctx.number(gamma)
    M = ctx.power(dq.sum(axis=(-2, -1)), 1 / g)
    D = np.asarray(Kp + ctx.power(Kp, 1 - g) * M, dtype=p.n.dtype)
    q = dq / np.asarray(Kp, dtype=p.n.dtype)[..., None, None]
    return prob, D, q


def _uoc_weights(p: Prepared, gamma):
    """silva2018 eq. 28: rows normalised, unobserved classes ignored.

    b = (n / N_r) 1_O(r) / (K' + K'^{1-gamma} M'),  q = (n / N_r) 1_O(r) |r-c|^gamma / K'
    with M' = (sum (n / N_r) 1_O(r) |r-c|^gamma)^{1/gamma} and K' the number
    of observed true classes.
    """
    numer, D, q = _uoc_parts(p, gamma)
    return numer / D[..., None, None], q


# ---------------------------------------------------------------------------
# the dynamic programme
# ---------------------------------------------------------------------------
def _optimal_path(b, q, beta, ctx, *, slopes=True, trace=None):
    """Minimum path cost at ``beta`` and the penalty (slope) of a minimiser.

    cardoso2011 §3.4: ``W[r,c] = w[r,c] + min(W[r-1,c-1], W[r-1,c], W[r,c-1])``
    with ``w = -b + beta q`` and ``W[1,1] = 1 + w[1,1]``.  One recurrence for
    every arithmetic: ``b``, ``q`` of shape ``(B, K, K)`` and ``beta`` of
    shape ``(B,)`` hold float64 or ``ctx`` numbers (object arrays).

    Layout: the stack is the last (contiguous) axis.  ``w`` is laid out as
    ``(K*K, B)``, so the cells ``(r, d - r)`` of anti-diagonal ``d`` are a
    strided slice; each diagonal of ``W`` is kept in a ``(K + 2, B)`` buffer
    (cell ``(r, d - r)`` at index ``r + 1``, ``+inf`` elsewhere) and only three
    diagonals are alive, so the Python loop has 2K - 1 steps whatever the
    stack size.  On ties the diagonal step is preferred, then the step from
    above (as ``argmin`` over ``(diagonal, above, left)``).

    ``slopes=False`` skips the penalty bookkeeping (the value is unchanged).
    If ``trace`` is a list, ``(r, c, k)`` is appended per anti-diagonal, ``k``
    (shape ``(B, len(r))``) the chosen predecessor: 0 diagonal, 1 above, 2
    left (used by :func:`optimal_path` to backtrack).  Returns ``(value,
    slope)``; ``slope`` is ``None`` when ``slopes=False``.
    """
    B, K, _ = b.shape
    dtype = b.dtype
    qT = np.moveaxis(q, 0, -1).reshape(K * K, B)
    # w = beta q - b (the same IEEE result as -b + beta q)
    w = np.empty((K, K, B), dtype=dtype)
    np.multiply(np.moveaxis(q, 0, -1), beta, out=w)
    np.subtract(w, np.moveaxis(b, 0, -1), out=w)
    w = w.reshape(K * K, B)
    track = slopes or trace is not None
    # entries outside the cells written so far stay +inf: on the way up the
    # written ranges only grow; on the way down every neighbour read is a cell
    prev2, prev1, cur = (np.full((K + 2, B), ctx.inf, dtype=dtype) for _ in range(3))
    prev1[1] = 1 + w[0]
    if slopes:
        zero = ctx.number(0)
        s2, s1, sc = (np.full((K + 2, B), zero, dtype=dtype) for _ in range(3))
        s1[1] = qT[0]
    for d in range(1, 2 * K - 1):
        lo, hi = max(0, d - K + 1), min(d, K - 1)
        cells = slice(lo * K + d - lo, hi * K + d - hi + 1, K - 1)  # (r, d - r), r = lo..hi
        # neighbours of cell (r, c): diagonal (r-1, c-1), above (r-1, c), left (r, c-1)
        diag, above, left = prev2[lo:hi + 1], prev1[lo:hi + 1], prev1[lo + 1:hi + 2]
        m = cur[lo + 1:hi + 2]
        if track:
            from_diag = diag <= above
            best = np.where(from_diag, diag, above)
            keep = best <= left
            m[...] = np.where(keep, best, left)
            if slopes:
                sc[lo + 1:hi + 2] = np.where(
                    keep, np.where(from_diag, s2[lo:hi + 1], s1[lo:hi + 1]), s1[lo + 1:hi + 2]
                ) + qT[cells]
            if trace is not None:
                k = np.where(keep, np.where(from_diag, 0, 1), 2)
                r = np.arange(lo, hi + 1)
                trace.append((r, d - r, k.T))
        else:
            np.minimum(diag, above, out=m)
            np.minimum(m, left, out=m)
        m += w[cells]
        prev2, prev1, cur = prev1, cur, prev2
        if slopes:
            s2, s1, sc = s1, sc, s2
    return prev1[K], (s1[K] if slopes else None)


def _beta_array(beta, lead, ctx):
    """``check_beta`` then conversion; for float arithmetic a numeric array is
    checked with numpy (no Python loop); anything else, or anything invalid,
    goes through :func:`check_beta` and its messages."""
    if ctx.name == "float":
        b = np.asarray(beta)
        if b.dtype.kind in "fiu":
            bf = b.astype(np.float64, copy=False)
            if np.isfinite(bf).all() and (bf >= 0).all():
                try:
                    return np.broadcast_to(bf, lead)
                except ValueError:
                    pass
    return ctx.asarray(check_beta(beta, lead))


def _weights(cm, metric, gamma, arithmetic, min_classes=1):
    check_gamma(gamma)
    p = prepare(cm, arithmetic, min_classes=min_classes)
    b, q = (_oc_weights if metric == "oc" else _uoc_weights)(p, gamma)
    return p, b, q


#: A float stack is evaluated in blocks of about this many cells (at least
#: ``_BLOCK_MIN`` matrices), so that a block's temporaries stay in cache.
_BLOCK_CELLS = 1 << 17
_BLOCK_MIN = 256


def _evaluate(cm, beta, gamma, arithmetic, metric):
    if get_arithmetic(arithmetic).name == "float":
        return _evaluate_float(cm, beta, gamma, metric)
    p, b, q = _weights(cm, metric, gamma, arithmetic)
    lead = p.lead_shape
    beta = _beta_array(beta, lead, p.ctx)
    K = p.K
    value, _ = _optimal_path(
        b.reshape(-1, K, K), q.reshape(-1, K, K), beta.reshape(-1), p.ctx, slopes=False
    )
    return p.ctx.finalize(value.reshape(lead))


def _evaluate_float(cm, beta, gamma, metric):
    """:func:`_evaluate` in float64: validated once, then weights and DP block by block.

    The same checks in the same order (gamma, counts, beta) and, per matrix,
    the same operations as the unblocked evaluation, so the same values.
    """
    ctx = get_arithmetic("float")
    check_gamma(gamma)
    counts = check_counts(cm)
    lead, K = counts.shape[:-2], counts.shape[-1]
    beta = _beta_array(beta, lead, ctx).reshape(-1)
    flat = counts.reshape(-1, K, K)
    weights = _oc_weights if metric == "oc" else _uoc_weights
    out = np.empty(flat.shape[0])
    step = max(_BLOCK_MIN, _BLOCK_CELLS // (K * K))
    for s in range(0, flat.shape[0], step):
        c = flat[s:s + step]
        b, q = weights(Prepared(counts=c, n=ctx.asarray(c), ctx=ctx), gamma)
        out[s:s + step] = _optimal_path(b, q, beta[s:s + step], ctx, slopes=False)[0]
    return ctx.finalize(out.reshape(lead))


@metric(
        label="OC", input="matrix, beta", better="lower", symmetric=True, bounds=(0, 1),
        source="cardoso2011 eq. 7",
        variants=(Variant("OC, beta=0.25/(N(K-1))", table_beta("0.25")),
                  Variant("OC, beta=0.75/(N(K-1))", table_beta("0.75"))))
def oc(cm, beta, *, gamma=1, arithmetic="float"):
    r"""Ordinal Classification Index :math:`OC_\beta^\gamma`.

    .. math:: OC_\beta^\gamma = \min_{\text{path}}\Big\{1 -
              \frac{\sum_{\text{path}} n_{r,c}}{N + (\sum_{r,c} n_{r,c}|r-c|^\gamma)^{1/\gamma}}
              + \beta \sum_{\text{path}} n_{r,c}|r-c|^\gamma\Big\}

    cardoso2011 eq. 7 (silva2018 eq. 11), minimised over the monotone paths
    from (1,1) to (K,K) by the dynamic programme of cardoso2011 §3.4.

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.
    beta : float or array_like
        Used exactly as in eq. 7 (not rescaled).  The papers' tables use
        ``beta = 0.25 / (N (K-1)**gamma)`` and ``0.75 / (N (K-1)**gamma)``.
        For a stack, broadcast against its leading shape.
    gamma : float, default 1
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    value in [0, 1] (an array for a stack).

    Examples
    --------
    >>> oc([[0, 1], [0, 0]], 0, arithmetic="exact")    # one sample, |r - c| = 1
    1/2
    """
    return _evaluate(cm, beta, gamma, arithmetic, "oc")


@metric(
        label="UOC", input="matrix, beta", better="lower", symmetric=False, bounds=(0, 1),
        source="silva2018 eq. 28",
        variants=(Variant("UOC, beta=0.25", {"beta": Fraction(1, 4)}),
                  Variant("UOC, beta=0.75", {"beta": Fraction(3, 4)})))
def uoc(cm, beta, *, gamma=1, arithmetic="float"):
    r"""Uniform Ordinal Classification Index :math:`UOC_\beta^\gamma`.

    .. math:: UOC_\beta^\gamma = \min_{\text{path}}\Big\{1 -
              \frac{\sum_{\text{path}} \hat p_{r,c}}{K' + K'^{1-\gamma}
              (\sum_{r,c} \hat p_{r,c}|r-c|^\gamma)^{1/\gamma}}
              + \frac{\beta}{K'}\sum_{\text{path}} \hat p_{r,c}|r-c|^\gamma\Big\},
              \quad \hat p_{r,c} = \frac{n_{r,c}}{N_r}\mathbb 1_{\mathcal O}(r)

    silva2018 eq. 28: rows are normalised to conditional frequencies and the
    ``K'`` observed true classes get equal weight; an unobserved class is
    ignored.  ``beta`` is used as written (the recast ``N beta -> beta`` of
    eq. 22); silva2018 Table I uses 0.25 and 0.75.

    Examples
    --------
    >>> uoc([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]], 0.25,
    ...     arithmetic="exact")
    11/24
    """
    return _evaluate(cm, beta, gamma, arithmetic, "uoc")


# ---------------------------------------------------------------------------
# the envelope over beta
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Envelope:
    """A concave piecewise-linear function of beta, ``min_i (a_i + s_i beta)``.

    ``breakpoints[i]`` and ``breakpoints[i+1]`` bound the piece on which
    ``intercepts[i] + slopes[i] * beta`` is the value; the last breakpoint is
    ``None`` when the last piece extends to infinity.
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
        total = 0
        for i, (a, s) in enumerate(zip(self.intercepts, self.slopes)):
            lo, hi = self.breakpoints[i], self.breakpoints[i + 1]
            total = total + a * (hi - lo) + s * (hi * hi - lo * lo) / 2
        return total


def _envelopes(b, q, ctx, lo, hi):
    """Batched parametric search over a stack ``(B, K, K)``.

    Returns, per matrix, a list of ``(lo, hi, intercept, slope)`` pieces.  With
    ``hi=None`` the range is ``[lo, inf)`` and the last line is the one of the
    diagonal path: every penalty is >= 0, and the paths of zero penalty gain
    at most the diagonal's benefit.
    """
    B = b.shape[0]
    zero = ctx.number(0)

    def lines_at(idx, betas):
        v, s = _optimal_path(b[idx], q[idx], betas, ctx)
        return v - s * betas, s

    idx = np.arange(B)
    a_lo, s_lo = lines_at(idx, np.full(B, lo, dtype=b.dtype))
    if hi is None:
        a_hi = 1 - np.diagonal(b, axis1=-2, axis2=-1).sum(axis=-1)
        s_hi = np.full(B, zero, dtype=b.dtype)
    else:
        a_hi, s_hi = lines_at(idx, np.full(B, hi, dtype=b.dtype))
    pieces = [[] for _ in range(B)]
    tasks = [(int(i), lo, hi, a_lo[i], s_lo[i], a_hi[i], s_hi[i]) for i in range(B)]
    for _round in range(10_000):
        if not tasks:
            break
        pending = []
        for t in tasks:
            i, l, h, aa, sa, ab, sb = t
            if abs(sa - sb) <= ctx.tolerance() or (h is not None and h == l):
                pieces[i].append((l, h, aa, sa))
            else:
                pending.append(t)
        if not pending:
            break
        who = np.array([t[0] for t in pending])
        # the two lines cross inside [l, h]: a_a + s_a x = a_b + s_b x
        xs = [(t[5] - t[3]) / (t[4] - t[6]) for t in pending]
        xs = [min(max(x, t[1]), t[2]) if t[2] is not None else max(x, t[1]) for x, t in zip(xs, pending)]
        xs_arr = np.empty(len(xs), dtype=b.dtype)
        xs_arr[:] = xs
        a_new, s_new = lines_at(who, xs_arr)
        tasks = []
        for t, x, an, sn in zip(pending, xs, a_new, s_new):
            i, l, h, aa, sa, ab, sb = t
            on_envelope = aa + sa * x
            if an + sn * x >= on_envelope - ctx.tolerance():
                pieces[i].append((l, x, aa, sa))
                pieces[i].append((x, h, ab, sb))
            else:
                tasks.append((i, l, x, aa, sa, an, sn))
                tasks.append((i, x, h, an, sn, ab, sb))
    else:  # pragma: no cover - a guard, never reached for finite inputs
        raise RuntimeError("parametric search did not converge")
    return [_merge(sorted(pc, key=_piece_key), ctx) for pc in pieces]


def _piece_key(piece):
    lo, hi = piece[0], piece[1]
    if isinstance(lo, Fraction):  # exact keys: two close breakpoints never tie
        return (lo, math.inf if hi is None else hi)
    return (float(lo), float("inf") if hi is None else float(hi))


def _merge(pieces, ctx):
    """Drop empty pieces and fuse neighbours that carry the same line."""
    out = []
    for lo, hi, a, s in pieces:
        if hi is not None and hi - lo <= ctx.tolerance():
            if hi == lo or out:
                continue
        if out and abs(out[-1][3] - s) <= ctx.tolerance() and abs(out[-1][2] - a) <= ctx.tolerance():
            out[-1] = (out[-1][0], hi, out[-1][2], out[-1][3])
        else:
            out.append((lo, hi, a, s))
    return out


class _FractionArithmetic:
    """Python :class:`fractions.Fraction` numbers for the exact parametric search.

    The search only adds, multiplies, divides and compares, so rational data
    stays rational; Fractions are several times faster than SymPy Rationals
    in ``dtype=object`` arrays.
    """

    name = "fraction"
    exact = True
    inf = math.inf

    @staticmethod
    def number(x):
        return Fraction(x)

    @staticmethod
    def tolerance(scale=1):
        return 0


_FRACTION = _FractionArithmetic()


def _to_fraction(a):
    """A SymPy-number array as Fractions, or ``None`` if an entry is irrational."""
    flat = a.reshape(-1).tolist()
    if not all(getattr(v, "is_Rational", False) for v in flat):
        return None
    out = np.empty(len(flat), dtype=object)
    out[:] = [Fraction(int(v.p), int(v.q)) for v in flat]
    return out.reshape(a.shape)


def _exact_pieces(numer, D, q, beta_max):
    """Exact envelope pieces ``(lo, hi, a, s)`` of one matrix, or ``None``.

    With ``b = numer / D`` the cost of a path is
    ``1 - B/D + beta Q = 1 - (1/D) (B - t Q)`` with ``t = beta D``: the
    parametric search over ``t`` sees only the rational ``numer`` and ``q``,
    even when ``D`` is irrational (``gamma != 1``).  A line
    ``1 - B + t Q`` in ``t`` maps back to ``1 - B/D + beta Q`` and a breakpoint
    ``t`` to ``beta = t / D``.  Returns ``None`` when ``numer`` or ``q`` has an
    irrational entry (non-integer ``gamma``); the caller then searches in
    SymPy numbers directly.
    """
    import sympy

    nF, qF = _to_fraction(numer), _to_fraction(q)
    if nF is None or qF is None:
        return None
    K = nF.shape[-1]
    (pieces,) = _envelopes(nF.reshape(1, K, K), qF.reshape(1, K, K), _FRACTION,
                           Fraction(0), None)
    # 1/D once, with a rational denominator when D is a surd (gamma != 1)
    rational_D = getattr(D, "is_Rational", False)
    inv_D = 1 / D if rational_D else sympy.radsimp(1 / D)
    tidy = (lambda v: v) if rational_D else sympy.expand

    def num(f):
        return sympy.Rational(f.numerator, f.denominator)

    out = []
    for lo, hi, a, s in pieces:
        lo_b = tidy(num(lo) * inv_D)
        if beta_max is not None and out and not lo_b < beta_max:
            break
        hi_b = None if hi is None else tidy(num(hi) * inv_D)
        out.append((lo_b, hi_b, tidy(1 - (1 - num(a)) * inv_D), num(s)))
    if beta_max is not None:
        lo_b, hi_b, a, s = out[-1]
        out[-1] = (lo_b, beta_max, a, s)
    return out


def path_envelope(cm, *, metric="uoc", gamma=1, beta_max=None, arithmetic="exact"):
    r"""The index as a piecewise-linear function of beta, with exact breakpoints.

    .. math:: f(\beta) = \min_{\text{path}} (a_{\text{path}} + s_{\text{path}}\,\beta)

    where ``a`` is one minus the path's benefit and ``s`` its penalty
    (silva2018 eq. 28 for ``metric="uoc"``, cardoso2011 eq. 7 for ``"oc"``).
    The breakpoints are found by parametric search with the DP of
    cardoso2011 §3.4; in ``"exact"`` arithmetic they are exact numbers.  In
    ``"exact"`` arithmetic the search runs over Python Fractions in the
    scaled parameter ``t = beta (N + M)`` (``beta (K' + K'^{1-gamma} M')`` for
    UOC), so an irrational normaliser (``gamma = 2``) costs nothing extra.

    Parameters
    ----------
    cm : array_like, shape (K, K)
    metric : {"uoc", "oc"}
    beta_max : number or None
        Right end of the range; ``None`` for ``[0, inf)``.

    Returns
    -------
    Envelope

    Examples
    --------
    >>> env = path_envelope([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    >>> env.breakpoints, env.intercepts, env.slopes
    ((0, 2/3, None), (1/3, 2/3), (1/2, 0))
    """
    if metric not in ("uoc", "oc"):
        raise ValueError(f"metric must be 'uoc' or 'oc', got {metric!r}")
    check_gamma(gamma)
    p = prepare(cm, arithmetic)
    if p.counts.ndim != 2:
        raise ValueError("path_envelope takes one matrix, not a stack")
    ctx = p.ctx
    if beta_max is not None:
        check_beta(beta_max)
    hi = None if beta_max is None else ctx.number(beta_max)
    numer, D, q = (_oc_parts if metric == "oc" else _uoc_parts)(p, gamma)
    pieces = _exact_pieces(numer, D[()], q, hi) if ctx.exact else None
    if pieces is None:
        b = numer / D[..., None, None]
        K = p.K
        (pieces,) = _envelopes(b.reshape(1, K, K), q.reshape(1, K, K), ctx, ctx.number(0), hi)
    return Envelope(
        breakpoints=tuple(pc[0] for pc in pieces) + (pieces[-1][1],),
        intercepts=tuple(pc[2] for pc in pieces),
        slopes=tuple(pc[3] for pc in pieces),
        arithmetic=ctx.name,
    )


def _integral(pieces, zero):
    return sum((a * (hi - lo) + s * (hi * hi - lo * lo) / 2 for lo, hi, a, s in pieces), zero)


@metric(
        label="A_UOC", better="lower", symmetric=False, bounds=(0, 1), source="silva2018 eq. 23")
def a_uoc(cm, *, arithmetic="float"):
    r"""Area under the UOC curve, :math:`A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta`.

    .. math:: A_{UOC} = \sum_i \int_{\beta_i}^{\beta_{i+1}} (a_i + s_i\beta)\,d\beta

    silva2018 eq. 23 with eq. 28 (gamma = 1).  UOC is the lower envelope of
    one line per path; the integral is taken exactly over the envelope's
    pieces, whose breakpoints come from a parametric search (see
    :func:`path_envelope`), not on a grid of beta values.  Float stacks are
    searched together, one batched DP per round.

    Examples
    --------
    >>> a_uoc([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]],
    ...       arithmetic="exact")
    5/9
    """
    p = prepare(cm, arithmetic)
    ctx, K, lead = p.ctx, p.K, p.lead_shape
    numer, D, q = _uoc_parts(p, 1)
    one, zero = ctx.number(1), ctx.number(0)
    all_pieces = None
    if ctx.exact:
        numer_s, D_s, q_s = numer.reshape(-1, K, K), D.reshape(-1), q.reshape(-1, K, K)
        all_pieces = [_exact_pieces(numer_s[i], D_s[i], q_s[i], one) for i in range(len(D_s))]
        if any(pc is None for pc in all_pieces):  # pragma: no cover - gamma = 1 is rational
            all_pieces = None
    if all_pieces is None:
        b = numer / D[..., None, None]
        all_pieces = _envelopes(b.reshape(-1, K, K), q.reshape(-1, K, K), ctx, zero, one)
    out = np.empty(len(all_pieces), dtype=object if ctx.name != "float" else np.float64)
    out[:] = [_integral(pc, zero) for pc in all_pieces]
    return ctx.finalize(out.reshape(lead))


# ---------------------------------------------------------------------------
# the optimal path itself (for drawing)
# ---------------------------------------------------------------------------
def optimal_path(cm, beta, *, metric="uoc", gamma=1, arithmetic="exact"):
    r"""The cells of an optimal consistent path of OC or UOC at ``beta``.

    The dynamic programme of cardoso2011 §3.4 (the one :func:`oc` and
    :func:`uoc` run), with each cell's chosen predecessor kept and followed
    back from ``(K-1, K-1)``.  On ties the diagonal step is preferred, then
    the step from above, then from the left.  The path's cost,
    ``1 - sum b + beta sum q`` over its cells (cardoso2011 eq. 7 for
    ``metric="oc"``, silva2018 eq. 28 for ``"uoc"``), equals the index.

    Parameters
    ----------
    cm : array_like, shape (K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.
    beta : number >= 0
        As in :func:`oc` / :func:`uoc` (not rescaled).
    metric : {"uoc", "oc"}
    gamma : number > 0, default 1
    arithmetic : {"exact", "float", "mp"}

    Returns
    -------
    list of (row, col)
        0-based cells from ``(0, 0)`` to ``(K-1, K-1)``; each step moves down,
        right or diagonally down-right by one cell.

    Examples
    --------
    >>> cm = [[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]]
    >>> optimal_path(cm, 0.25)             # silva2018 CM_B: follows the errors
    [(0, 0), (0, 1), (1, 2), (2, 2), (3, 3)]
    >>> optimal_path(cm, 1)                # beta >= 2/3: the main diagonal
    [(0, 0), (1, 1), (2, 2), (3, 3)]
    """
    if metric not in ("uoc", "oc"):
        raise ValueError(f"metric must be 'uoc' or 'oc', got {metric!r}")
    p, b, q = _weights(cm, metric, gamma, arithmetic)
    if p.counts.ndim != 2:
        raise ValueError("optimal_path takes one matrix, not a stack")
    ctx, K = p.ctx, p.K
    beta = ctx.asarray(check_beta(beta).reshape(1))
    trace = []
    _optimal_path(b.reshape(1, K, K), q.reshape(1, K, K), beta, ctx, trace=trace)
    move = {}
    for r, c, k in trace:
        for ri, ci, ki in zip(r.tolist(), c.tolist(), k[0].tolist()):
            move[(ri, ci)] = int(ki)
    steps = ((-1, -1), (-1, 0), (0, -1))
    cell = (K - 1, K - 1)
    path = [cell]
    while cell != (0, 0):
        dr, dc = steps[move[cell]]
        cell = (cell[0] + dr, cell[1] + dc)
        path.append(cell)
    return path[::-1]
