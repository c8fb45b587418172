"""Path-based indices: OC (cardoso2011), UOC and A_UOC (silva2018).

Both indices minimise, over the monotone ("consistent") paths from cell (1,1)
to cell (K,K), a cost of the form

.. math:: \\mathrm{cost}_\\beta(\\text{path}) = 1 - \\sum_{(r,c)\\in\\text{path}} b_{r,c}
          + \\beta \\sum_{(r,c)\\in\\text{path}} q_{r,c},

with a *benefit* ``b`` and a *penalty* ``q`` per cell.  For a fixed path this
is a line in beta; the index is the lower envelope of those lines, a concave
piecewise-linear function of beta.  :func:`numeric._dp.path_dp` is the dynamic
programme of cardoso2011 §3.4 (vectorised over a stack of matrices, one
anti-diagonal at a time); :func:`path_envelope` finds the envelope's
breakpoints exactly by parametric search (Eisner and Severance 1976): the
optimal lines at two values of beta meet at a point where the DP either
confirms the envelope or reveals a new line.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import lcm

import numpy as np
from mpmath import isinf as mpmath_isinf

from ._arith import FRACTION, get_arithmetic
from ._common import Prepared, prepare
from ._dp import INT_SENTINEL, cells_dp, path_dp
from ._validation import check_beta, check_counts, check_gamma
from .envelope import Envelope, merge, piece_areas, search
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
# evaluation at given betas
# ---------------------------------------------------------------------------
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


def _float_gamma_range(counts, gamma, metric):
    """Float64 holds the penalties ``w |r - c|**gamma`` only up to a ``gamma_max``.

    The largest penalty weight is ``N`` (OC) or 1 (UOC) times ``(K-1)**gamma``,
    and sums of ``K*K`` of them must stay finite.  Beyond that a ValueError
    names the supported range (``arithmetic="mp"`` or ``"exact"`` have it).
    """
    K = counts.shape[-1]
    if K < 3 or counts.size == 0:
        return
    top = float(counts.sum(axis=(-2, -1)).max()) if metric == "oc" else 1.0
    g_max = (math.log(np.finfo(np.float64).max) - math.log(4.0 * K * K * max(top, 1.0))) / math.log(K - 1)
    if float(gamma) > g_max:
        raise ValueError(
            f"gamma={gamma} is outside the range of float64 arithmetic for this matrix: "
            f"float supports 0 < gamma <= {g_max:.4g} here ((K-1)**gamma times the counts "
            "overflows beyond); use arithmetic='mp' or 'exact'")


def _weights(cm, metric, gamma, arithmetic, min_classes=1):
    check_gamma(gamma)
    p = prepare(cm, arithmetic, min_classes=min_classes)
    if p.ctx.name == "float":
        _float_gamma_range(p.counts, gamma, metric)
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
    value, _ = path_dp(
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
    _float_gamma_range(counts, gamma, metric)
    lead, K = counts.shape[:-2], counts.shape[-1]
    beta = _beta_array(beta, lead, ctx).reshape(-1)
    flat = counts.reshape(-1, K, K)
    weights = _oc_weights if metric == "oc" else _uoc_weights
    out = np.empty(flat.shape[0])
    step = max(_BLOCK_MIN, _BLOCK_CELLS // (K * K))
    for s in range(0, flat.shape[0], step):
        c = flat[s:s + step]
        b, q = weights(Prepared(counts=c, n=ctx.asarray(c), ctx=ctx), gamma)
        out[s:s + step] = path_dp(b, q, beta[s:s + step], ctx, slopes=False)[0]
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
#: A float stack is searched in blocks of about this many cells, and each
#: round's DP runs over chunks of ``_DP_CHUNK`` intervals (cache-sized buffers).
_SEARCH_CELLS = 1 << 20
_DP_CHUNK = 4096


def _stack_pieces(b, q, ctx, lo, hi):
    """Envelope pieces of every matrix of a stack ``(n, K, K)`` over ``[lo, hi]``.

    ``hi=None`` searches ``[lo, inf)``; the last line is then the diagonal
    path's: every penalty is >= 0, and the paths of zero penalty gain at most
    the diagonal's benefit.  Each round of the search is one DP call for all
    pending intervals of all matrices.  Slack (float, mp): the context's
    relative tolerance times the problem's scale, ``1 + sum |b| + |beta| sum
    q`` for values and ``sum q`` for slopes.  Returns the arrays ``(idx, lo,
    hi, a, s)`` of :func:`numeric.envelope.search`.
    """
    n, K, _ = b.shape
    dtype = b.dtype
    # cell-major copies once: each round gathers the pending matrices' columns
    every = np.arange(n)
    bT = np.ascontiguousarray(np.moveaxis(b, 0, -1).reshape(K * K, n))
    qT = np.ascontiguousarray(np.moveaxis(q, 0, -1).reshape(K * K, n))

    def lines_at(idx, x):
        # the DP in chunks of _DP_CHUNK matrices, so that its buffers stay in cache
        v = np.empty(len(idx), dtype=dtype)
        s = np.empty(len(idx), dtype=dtype)
        for c in range(0, len(idx), _DP_CHUNK):
            part = slice(c, c + _DP_CHUNK)
            i = idx[part]
            bi, qi = (bT[:, part], qT[:, part]) if idx is every else (bT[:, i], qT[:, i])
            v[part], s[part] = cells_dp(qi * x[part] - bi, qi, ctx)
        return v - s * x, s

    lo_arr = np.full(n, lo, dtype=dtype)
    end_lo = lines_at(every, lo_arr)
    if hi is None:
        hi_arr = np.full(n, ctx.inf, dtype=dtype)
        end_hi = (1 - np.diagonal(b, axis1=-2, axis2=-1).sum(axis=-1),
                  np.full(n, ctx.number(0), dtype=dtype))
    else:
        hi_arr = np.full(n, hi, dtype=dtype)
        end_hi = lines_at(every, hi_arr)
    if ctx.exact:
        return search(lines_at, lo_arr, hi_arr, end_lo, end_hi, ctx)
    eps = ctx.tolerance(1)
    b_scale = 1 + np.abs(b).sum(axis=(-2, -1))
    q_scale = q.sum(axis=(-2, -1))
    return search(lines_at, lo_arr, hi_arr, end_lo, end_hi, ctx,
                  tol_value=lambda i, x: eps * (b_scale[i] + q_scale[i] * np.abs(x)),
                  tol_slope=lambda i: eps * q_scale[i])


def _merge_one(pieces, b, q, ctx):
    """:func:`numeric.envelope.merge` of one matrix's pieces with the slack of
    :func:`_stack_pieces` (none when exact)."""
    _, lo, hi, a, s = pieces
    if ctx.exact:
        return merge(lo, hi, a, s)
    eps = ctx.tolerance(1)
    finite = [abs(v) for v in list(lo) + list(hi) if v != ctx.inf]
    x_max = max(finite, default=0)
    q_scale = q.sum()
    return merge(lo, hi, a, s, tol_width=eps * x_max,
                 tol_value=eps * (1 + np.abs(b).sum() + q_scale * x_max),
                 tol_slope=eps * q_scale)


def _fraction(v):
    """A Fraction, int or SymPy Rational as a Fraction; ``None`` if irrational."""
    if isinstance(v, (Fraction, int)):
        return Fraction(v)
    if getattr(v, "is_Rational", False):
        return Fraction(int(v.p), int(v.q))
    return None


def _rationals(a):
    """An array of exact numbers as a list of Fractions, or ``None`` if one is irrational."""
    out = [_fraction(v) for v in a.reshape(-1).tolist()]
    return None if any(v is None for v in out) else out


def _exact_parts(cm, metric, gamma, arithmetic):
    """``(prepared, numer, D, q)`` of :func:`_oc_parts` / :func:`_uoc_parts`; for an
    exact ``gamma = 1`` in Fractions (rational, and much faster than SymPy numbers)."""
    parts = _oc_parts if metric == "oc" else _uoc_parts
    ctx = get_arithmetic(arithmetic)
    if ctx.exact and _fraction(ctx.number(gamma)) == 1:
        p = prepare(cm, FRACTION)
        return (Prepared(counts=p.counts, n=p.n, ctx=ctx),) + parts(p, 1)
    p = prepare(cm, ctx)
    if ctx.name == "float":
        _float_gamma_range(p.counts, gamma, metric)
    return (p,) + parts(p, gamma)


def _integer_pieces(numer, q, K, t_hi):
    """Exact envelope of the lines ``1 - sum numer + t sum q`` over ``[0, t_hi]``.

    ``numer``, ``q``: the ``K*K`` weights as Fractions.  With ``L`` their
    common denominator the DP runs in integers: at ``t = p / r`` it minimises
    ``p Q - r B`` over the paths (``B = L sum numer``, ``Q = L sum q``), in
    int64 when the packed values fit, otherwise in Python integers.
    ``t_hi=None`` searches ``[0, inf)``.  Returns merged pieces ``(lo, hi, a,
    s)`` in ``t`` (Fractions, ``hi`` of the last piece ``inf`` when unbounded).
    """
    L = lcm(*(v.denominator for v in numer), *(v.denominator for v in q))
    nI = np.array([int(v * L) for v in numer], dtype=object).reshape(K, K)
    qI = np.array([int(v * L) for v in q], dtype=object).reshape(K, K)
    n_sum, q_sum = int(sum(nI.flat)), int(sum(qI.flat))

    # (value, penalty) packed as value * 2**k + penalty, 0 <= penalty <= q_sum < 2**k:
    # one integer per cell, ordered lexicographically, so the DP only takes minima
    k = q_sum.bit_length() + 1
    n_col, q_col = nI.reshape(-1, 1), qI.reshape(-1, 1)

    def lines_at(idx, x):
        ps = np.array([v.numerator if isinstance(v, Fraction) else int(v) for v in x], dtype=object)
        rs = np.array([v.denominator if isinstance(v, Fraction) else 1 for v in x], dtype=object)
        z = (q_col * ps - n_col * rs) * (1 << k) + q_col  # (K*K, m) Python integers
        small = (max(max(ps), 1) * q_sum + max(rs) * n_sum + 1) << k < INT_SENTINEL >> 1
        z, _ = cells_dp(z.astype(np.int64) if small else z, None, FRACTION, slopes=False, start=0)
        a = np.empty(len(z), dtype=object)
        s = np.empty(len(z), dtype=object)
        mask = (1 << k) - 1
        for j, (zj, p, r) in enumerate(zip(z.tolist(), ps, rs)):
            v, sj = zj >> k, zj & mask
            a[j] = L - (p * sj - v) // r  # L (1 - B/L); (p Q - V) / r = B exactly
            s[j] = sj
        return a, s

    zero = np.array([Fraction(0)], dtype=object)
    end_lo = lines_at(zero, zero)
    if t_hi is None:
        hi = np.array([FRACTION.inf], dtype=object)
        end_hi = (np.array([L - int(np.trace(nI))], dtype=object), np.array([0], dtype=object))
    else:
        hi = np.array([t_hi], dtype=object)
        end_hi = lines_at(hi, hi)
    _, lo, hi, a, s = search(lines_at, zero, hi, end_lo, end_hi, FRACTION)
    return [(l, h, Fraction(ai, L), Fraction(si, L)) for l, h, ai, si in merge(lo, hi, a, s)]


def _is_inf(v):
    """``+inf`` of the Fraction search (``math.inf``) or of the guarded one."""
    return mpmath_isinf(v.v) if hasattr(v, "v") else v == FRACTION.inf


def _guarded_pieces(numer, q, K, t_hi):
    """Exact envelope in ``t`` when the penalties ``q`` are irrational (non-integer gamma).

    The search and the DP run on :class:`numeric._guarded.Guarded` numbers
    (exact, compared at guarded precision); the line of a minimiser is summed
    exactly over the cells of its path (backtracked from the DP's trace), so
    intercepts stay rational and slopes stay sums of radicals.
    """
    from ._guarded import GUARDED  # SymPy-backed: imported when first needed

    nG, qG = GUARDED.asarray(numer), GUARDED.asarray(q)

    def lines_at(idx, x):
        m = len(idx)
        trace = []
        path_dp(np.broadcast_to(nG, (m, K, K)), np.broadcast_to(qG, (m, K, K)), x, GUARDED,
                slopes=False, trace=trace)
        a = np.empty(m, dtype=object)
        s = np.empty(m, dtype=object)
        for j in range(m):
            cells = _backtrack(trace, K, j)
            a[j] = GUARDED.number(1 - sum(numer[c] for c in cells))
            s[j] = GUARDED.number(sum(q[c] for c in cells))
        return a, s

    zero = np.array([GUARDED.number(0)], dtype=object)
    end_lo = lines_at(zero, zero)
    if t_hi is None:
        hi = np.array([GUARDED.inf], dtype=object)
        end_hi = (np.array([GUARDED.number(1 - np.trace(numer))], dtype=object),
                  np.array([GUARDED.number(0)], dtype=object))
    else:
        hi = np.array([t_hi], dtype=object)
        end_hi = lines_at(hi, hi)
    _, lo, hi, a, s = search(lines_at, zero, hi, end_lo, end_hi, GUARDED)
    return merge(lo, hi, a, s)


def _exact_pieces(numer, D, q, beta_max):
    """Exact envelope pieces ``(lo, hi, a, s)`` of one matrix, or ``None``.

    With ``b = numer / D`` the cost of a path is
    ``1 - B/D + beta Q = 1 - (1/D) (B - t Q)`` with ``t = beta D``: the
    parametric search over ``t`` sees only the rational ``numer`` and ``q``,
    even when ``D`` is irrational (``gamma != 1``), and runs in integers
    (:func:`_integer_pieces`), or for irrational penalties (non-integer
    ``gamma``) in guarded exact numbers (:func:`_guarded_pieces`).  A line
    ``1 - B + t Q`` in ``t`` maps back to ``1 - B/D + beta Q`` and a
    breakpoint ``t`` to ``beta = t / D``.
    """
    import sympy

    nF, qF = _rationals(numer), _rationals(q)
    K = numer.shape[-1]
    D_f = _fraction(D)
    if nF is None:  # pragma: no cover - the benefits n / N_r and n are rational
        return None
    if qF is None:
        from ._guarded import GUARDED

        t_hi = None if beta_max is None else GUARDED.number(beta_max * D)
        pieces = _guarded_pieces(numer, q, K, t_hi)
    else:
        t_hi = None
        if beta_max is not None and D_f is not None:
            t_hi = _fraction(beta_max) * D_f
        pieces = _integer_pieces(nF, qF, K, t_hi)
    # 1/D once, with a rational denominator when D is a surd (gamma != 1)
    # (a small surd only: radsimp of (sum of 1000th roots)**1000 does not finish)
    simple = D_f is None and all(
        e.exp.is_Rational and abs(e.exp.p) <= 2 and e.exp.q <= 2 for e in D.atoms(sympy.Pow))
    inv_D = sympy.Rational(D_f.denominator, D_f.numerator) if D_f is not None else (
        sympy.radsimp(1 / D) if simple else 1 / D)
    tidy = sympy.expand if simple else (lambda v: v)

    def num(f):
        if isinstance(f, Fraction):
            return sympy.Rational(f.numerator, f.denominator)
        return f.x  # a Guarded number

    out = []
    for lo, hi, a, s in pieces:
        lo_b = tidy(num(lo) * inv_D)
        if beta_max is not None and out and not lo_b < beta_max:
            break
        hi_b = None if _is_inf(hi) else tidy(num(hi) * inv_D)
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
    ``"exact"`` arithmetic the search runs in integers over a common
    denominator, in the scaled parameter ``t = beta (N + M)`` (``beta (K' +
    K'^{1-gamma} M')`` for UOC), so an irrational normaliser (``gamma = 2``)
    costs nothing extra.  In ``"float"`` and ``"mp"`` the comparisons allow
    the context's relative tolerance times the problem's scale.

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
    p, numer, D, q = _exact_parts(cm, metric, gamma, arithmetic)
    if p.counts.ndim != 2:
        raise ValueError("path_envelope takes one matrix, not a stack")
    ctx = p.ctx
    if beta_max is not None:
        check_beta(beta_max)
    hi = None if beta_max is None else ctx.number(beta_max)
    pieces = _exact_pieces(numer, D[()], q, hi) if ctx.exact else None
    if pieces is None:
        if ctx.name == "float" and not np.isfinite(D).all():
            top = float(p.counts.sum()) if metric == "oc" else 1.0
            g_min = math.log(4.0 * p.K * p.K * max(top, 1.0)) / math.log(np.finfo(np.float64).max)
            raise ValueError(
                f"gamma={gamma} is outside the range of float64 arithmetic for this matrix: "
                f"the normaliser (sum ...)**(1/gamma) overflows, so the breakpoints underflow; "
                f"float supports gamma >= about {g_min:.3g} here; use arithmetic='mp' or 'exact'")
        b = (numer / D[..., None, None]).reshape(1, p.K, p.K)
        q = q.reshape(1, p.K, p.K)
        pieces = _merge_one(_stack_pieces(b, q, ctx, ctx.number(0), hi), b, q, ctx)
    last = pieces[-1][1]
    return Envelope(
        breakpoints=tuple(pc[0] for pc in pieces) + (None if last == ctx.inf else last,),
        intercepts=tuple(pc[2] for pc in pieces),
        slopes=tuple(pc[3] for pc in pieces),
        arithmetic=ctx.name,
    )


def _auoc_float(cm):
    """Float :func:`a_uoc` of a stack, searched block by block (bounded temporaries)."""
    ctx = get_arithmetic("float")
    counts = check_counts(cm)
    lead, K = counts.shape[:-2], counts.shape[-1]
    flat = counts.reshape(-1, K, K)
    out = np.empty(flat.shape[0])
    step = max(1, _SEARCH_CELLS // (K * K))
    for s in range(0, flat.shape[0], step):
        c = flat[s:s + step]
        numer, D, q = _uoc_parts(Prepared(counts=c, n=ctx.asarray(c), ctx=ctx), 1)
        b = numer / D[..., None, None]
        idx, lo, hi, a, sl = _stack_pieces(b, q, ctx, 0.0, 1.0)
        out[s:s + step] = np.bincount(idx, piece_areas(lo, hi, a, sl), minlength=len(c))
    return ctx.finalize(out.reshape(lead))


@metric(
        label="A_UOC", better="lower", symmetric=False, bounds=(0, 1), source="silva2018 eq. 23")
def a_uoc(cm, *, arithmetic="float"):
    r"""Area under the UOC curve, :math:`A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta`.

    .. math:: A_{UOC} = \sum_i \int_{\beta_i}^{\beta_{i+1}} (a_i + s_i\beta)\,d\beta

    silva2018 eq. 23 with eq. 28 (gamma = 1).  UOC is the lower envelope of
    one line per path; the integral is taken exactly over the envelope's
    pieces, whose breakpoints come from a parametric search (see
    :func:`path_envelope`), not on a grid of beta values.  Float stacks are
    searched together, one batched DP per round, in blocks.

    Examples
    --------
    >>> a_uoc([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]],
    ...       arithmetic="exact")
    5/9
    """
    if get_arithmetic(arithmetic).name == "float":
        return _auoc_float(cm)
    p, numer, D, q = _exact_parts(cm, "uoc", 1, arithmetic)
    ctx, K, lead = p.ctx, p.K, p.lead_shape
    one, zero = ctx.number(1), ctx.number(0)
    numer, D, q = numer.reshape(-1, K, K), D.reshape(-1), q.reshape(-1, K, K)
    out = np.empty(len(D), dtype=object)
    if ctx.exact:  # gamma = 1: the weights are rational
        for i in range(len(D)):
            lo, hi, a, s = zip(*_exact_pieces(numer[i], D[i], q[i], one))
            out[i] = piece_areas(np.array(lo), np.array(hi), np.array(a), np.array(s)).sum()
    else:
        idx, lo, hi, a, s = _stack_pieces(numer / D[:, None, None], q, ctx, zero, one)
        areas = piece_areas(lo, hi, a, s)
        for i in range(len(D)):
            out[i] = areas[idx == i].sum()
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
    path_dp(b.reshape(1, K, K), q.reshape(1, K, K), beta, ctx, trace=trace)
    return _backtrack(trace, K, 0)


def _backtrack(trace, K, j):
    """The cells of matrix ``j``'s optimal path from a :func:`path_dp` trace."""
    move = {}
    for r, c, k in trace:
        for ri, ci, ki in zip(r.tolist(), c.tolist(), k[j].tolist()):
            move[(ri, ci)] = int(ki)
    steps = ((-1, -1), (-1, 0), (0, -1))
    cell = (K - 1, K - 1)
    path = [cell]
    while cell != (0, 0):
        dr, dc = steps[move[cell]]
        cell = (cell[0] + dr, cell[1] + dc)
        path.append(cell)
    return path[::-1]
