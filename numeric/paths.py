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

from exactfloor.arith import FRACTION, get_arithmetic, quiet_objects
from ._common import Prepared, Stack, prepare, row_sums, stack
from ._dp import (by_diagonals, cells_dp, certified_lines, choice_buffers, diagonal_order,
                  least_lines_int64, path_cells, path_dp)
from ._validation import check_beta, check_gamma
from .envelope import Envelope, lines_everywhere, merge, piece_areas, search, search_int64
from .registry import Variant, metric, table_beta

__all__ = ["oc", "uoc", "a_uoc", "path_envelope", "Envelope", "optimal_path"]


# ---------------------------------------------------------------------------
# benefit and penalty of each index
# ---------------------------------------------------------------------------
def oc_parts(p: Prepared, gamma):
    r"""cardoso2011 eq. 7 as ``(numer, D, q)``: b = numer / D, q = n |r - c|^gamma.

    .. math:: b = \frac{n}{N + M},\quad q = n|r-c|^\gamma,\quad
              M = \Big(\sum_{r,c} n_{r,c}|r-c|^\gamma\Big)^{1/\gamma}

    ``numer = n`` and ``D = N + M``; ``D`` has the stack's leading shape.
    """
    dist = p.distance(gamma)
    q = p.n * dist
    # float64, small gamma (1e-3: a power 1000): M overflows to inf.  b = n / (N + M)
    # is then 0, its float64 value, so OC at a beta is right (test_paths_reliability
    # compares it with mp); path_envelope raises on D = inf.  Not a RuntimeWarning.
    with np.errstate(over="ignore"):
        M = p.ctx.power(q.sum(axis=(-2, -1)), 1 / p.ctx.number(gamma))
    D = np.asarray(p.total() + M, dtype=p.n.dtype)
    return p.n, D, q


def oc_weights(p: Prepared, gamma):
    r"""cardoso2011 eq. 7: b = n / (N + M), q = n |r - c|^gamma (see :func:`oc_parts`).

    .. math:: b = \frac{n}{N + M},\quad q = n|r-c|^\gamma
    """
    numer, D, q = oc_parts(p, gamma)
    return numer / D[..., None, None], q


def uoc_parts(p: Prepared, gamma):
    r"""silva2018 eq. 28 as ``(numer, D, q)``: b = numer / D.

    .. math:: \hat p = \frac{n}{N_r}\mathbb 1_{\mathcal O}(r),\quad
              D = K' + K'^{1-\gamma} M',\quad q = \frac{\hat p\,|r-c|^\gamma}{K'}

    ``numer = (n / N_r) 1_O(r)``, ``M' = (sum (n / N_r) 1_O(r) |r-c|^gamma)^{1/gamma}``
    and ``K'`` the number of observed true classes.
    """
    ctx = p.ctx
    observed = row_sums(p.counts) > 0
    rows = np.where(observed, p.rows(), 1)
    prob = p.n / rows[..., :, None]  # unobserved rows are zero rows already
    Kp = ctx.asarray(observed.sum(axis=-1))
    dq = prob * p.distance(gamma)
    g = ctx.number(gamma)
    with np.errstate(over="ignore"):  # float64, small gamma: M' = inf, as M in oc_parts
        M = ctx.power(dq.sum(axis=(-2, -1)), 1 / g)
    D = np.asarray(Kp + ctx.power(Kp, 1 - g) * M, dtype=p.n.dtype)
    q = dq / np.asarray(Kp, dtype=p.n.dtype)[..., None, None]
    return prob, D, q


def uoc_weights(p: Prepared, gamma):
    r"""silva2018 eq. 28: rows normalised, unobserved classes ignored (see :func:`uoc_parts`).

    .. math:: b = \frac{(n / N_r) 1_{\mathcal O}(r)}{K' + K'^{1-\gamma} M'},\quad
              q = \frac{(n / N_r) 1_{\mathcal O}(r) |r-c|^\gamma}{K'}
    """
    numer, D, q = uoc_parts(p, gamma)
    return numer / D[..., None, None], q


def uoc_integer_parts(counts):
    r""":func:`uoc_parts` at gamma = 1 over one common denominator per matrix, in int64.

    .. math:: \ell = \operatorname{lcm}_{r \in \mathcal O} N_r,\quad L = K'\ell,\quad
              L\,\hat p_{r,c} = K' n_{r,c}\frac{\ell}{N_r},\quad
              L\,q_{r,c} = n_{r,c}\frac{\ell}{N_r}|r - c|,\quad
              D = K' + M' = \frac{K'\ell + \sum_{r,c} L\,q_{r,c}}{\ell}

    silva2018 eq. 28 with every weight an integer over ``L``: ``numer =
    nI / L``, ``q = qI / L``, ``D = Dn / Dd``.  ``counts`` is an int64 stack
    ``(m, K, K)`` with no empty matrix.  Returns ``(nI, qI, L, Dn, Dd,
    fits)``; ``fits`` is False for a matrix whose numbers might leave int64
    in the search of :func:`_a_uoc_int64` (large row totals with a large
    lcm), whose other entries are then meaningless.

    >>> nI, qI, L, Dn, Dd, fits = uoc_integer_parts(np.array([[[1, 1], [0, 2]]]))
    >>> nI.tolist(), qI.tolist(), L.tolist(), Dn.tolist(), Dd.tolist(), fits.tolist()
    ([[[2, 2], [0, 4]]], [[[0, 1], [0, 0]]], [4], [5], [2], [True])
    """
    counts = np.asarray(counts, dtype=np.int64)
    m, K, _ = counts.shape
    totals = counts.sum(axis=-1)
    observed = totals > 0
    Kp = observed.sum(axis=-1)
    # the lcm row by row, while it stays below 2**50 ("small"; beyond, 1 and meaningless)
    ell, small = np.ones(m, dtype=np.int64), np.ones(m, dtype=bool)
    for r in range(K):
        t = np.where(observed[:, r], totals[:, r], 1)
        step = ell // np.gcd(ell, t)
        small &= step.astype(float) * t < 2.0 ** 50
        ell = np.where(small, step * t, 1)
    rows = np.where(observed & small[:, None], totals, 1)
    base = counts * (ell[:, None] // rows)[:, :, None]  # n l / N_r (0 on an empty row)
    idx = np.arange(K)
    nI = base * Kp[:, None, None]
    qI = base * np.abs(idx[:, None] - idx[None, :])
    L = Kp * ell
    Dn, Dd = L + qI.sum(axis=(-2, -1)), ell
    # the search's numbers (search_int64, least_lines_int64): |p| <= P, r <= R
    f = float
    P = np.maximum(nI.sum(axis=(-2, -1)).astype(f), Dn.astype(f))
    R = np.maximum(qI.sum(axis=(-2, -1)).astype(f), Dd.astype(f))
    cost = (2 * K - 1) * (P * qI.max(axis=(-2, -1)) + R * nI.max(axis=(-2, -1)))
    fits = small & (2 * P * R < 2.0 ** 61) & (cost < 2.0 ** 59)
    return nI, qI, L, Dn, Dd, fits


_PARTS = {"oc": oc_parts, "uoc": uoc_parts}
_WEIGHTS = {"oc": oc_weights, "uoc": uoc_weights}


def _check_metric(metric):
    if metric not in _PARTS:
        raise ValueError(f"metric must be 'uoc' or 'oc', got {metric!r}")


# ---------------------------------------------------------------------------
# evaluation at given betas
# ---------------------------------------------------------------------------
def _check_gamma_range(ctx, counts, gamma, metric):
    """The context holds the penalties ``w |r - c|**gamma`` only up to a ``gamma_max``.

    The largest penalty weight is ``N`` (OC) or 1 (UOC) times ``(K-1)**gamma``,
    and sums of ``K*K`` of them must stay below the largest number of the
    arithmetic (``exp(ctx.log_max)``: float64's; unbounded in exact and mp).
    Beyond that a ValueError names the supported range.
    """
    K = counts.shape[-1]
    if ctx.exact and getattr(ctx, "support", None) is None:
        _check_exact_gamma(ctx, counts, gamma, metric)
        return
    if K < 3 or counts.size == 0 or math.isinf(ctx.log_max):
        return
    top = float(counts.sum(axis=(-2, -1)).max()) if metric == "oc" else 1.0
    g_max = (ctx.log_max - math.log(4.0 * K * K * max(top, 1.0))) / math.log(K - 1)
    if float(gamma) > g_max:
        raise _range_error(ctx, gamma, f"{ctx.name} supports 0 < gamma <= {g_max:.4g} here "
                                       "((K-1)**gamma times the counts overflows beyond)")


#: exact arithmetic builds the powers ``|r - c|**gamma`` (and ``K'**(1 - gamma)``)
#: and the normaliser ``S**(1/gamma)`` as exact numbers: each of them (times the
#: counts) is kept below ``10**EXACT_DIGITS``, the range of gamma that follows is
#: refused with a ValueError (beyond it SymPy spends minutes or hours on
#: integers of millions of digits, and prints none beyond 4300 digits)
EXACT_DIGITS = 1000
#: exact arithmetic: gamma's denominator is at most ``10**EXACT_GAMMA_DIGITS``.  A
#: penalty ``d**(p/q)`` differs from ``d**floor(p/q)`` in its ``log10(q)``-th
#: digit, so every comparison of the DP needs that precision: the time grows
#: with it (at K = 12: 5 s at gamma = 1/2, 11 s at 1e-30, over 30 s at 1e-300)
EXACT_GAMMA_DIGITS = 30


def _check_exact_gamma(ctx, counts, gamma, metric):
    """The exact range of gamma (:data:`EXACT_DIGITS`), before any power is built.

    Large gamma: ``(K-1)**gamma`` (OC) or ``K'**(gamma-1)`` (UOC) times the
    counts has about ``gamma log10(K) + log10(4 N K^2)`` digits.  Small gamma
    ``= p/q``: when every penalised distance ``d`` of a matrix has a rational
    ``d**gamma`` (``d = 1``, or ``d`` a ``q``-th power), the sum ``S`` is a
    rational and ``S**(q/p)`` holds ``S**(q // p)``, of about
    ``(q // p) log10(max(numerator, denominator))`` digits.  (An irrational
    ``S`` stays a symbolic power: nothing large is built.)
    """
    K = counts.shape[-1]
    f = ctx.fraction(ctx.number(gamma))
    if f is not None and f.denominator > 10**EXACT_GAMMA_DIGITS:
        raise ValueError(
            f"gamma={gamma} is outside the range of exact arithmetic: exact supports a gamma "
            f"whose denominator (in lowest terms) is at most 10**{EXACT_GAMMA_DIGITS} (a float "
            f"is read as its shortest decimal, so gamma >= 1e-{EXACT_GAMMA_DIGITS}); here it is "
            f"about 10**{f.denominator.bit_length() * math.log10(2):.0f}, and |r - c|**gamma "
            "differs from an integer power in that digit; use arithmetic='mp'")
    if counts.size == 0 or K < 2:
        return
    g = float(gamma)
    top = float(counts.sum(axis=(-2, -1)).max()) if metric == "oc" else 1.0
    base = K if metric == "uoc" else K - 1
    if base >= 2:
        extra = math.log10(4.0 * K * K * max(top, 1.0))
        g_max = (EXACT_DIGITS - extra) / math.log10(base)
        if g > g_max:
            raise ValueError(
                f"gamma={gamma} is outside the range of exact arithmetic for this matrix: "
                f"exact supports 0 < gamma <= {g_max:.4g} here ({base}**gamma times the counts "
                f"would have more than {EXACT_DIGITS} digits); use arithmetic='mp'")
    if g >= 1 or f is None:
        return
    p, q = f.numerator, f.denominator
    whole = q // p  # S**(1/gamma) = S**whole * S**((q % p) / p)
    power = {}  # the rational d**gamma: d = m**q, d**gamma = m**p
    for d in range(1, K):
        m = round(d ** (1 / q)) if q < 64 else 1
        if m**q == d:
            power[d] = m**p
    dist = np.abs(np.arange(K)[:, None] - np.arange(K)[None, :])
    irrational = ~np.isin(dist, [0, *power])
    flat = counts.reshape(-1, K, K)
    for m in flat[~np.any((flat > 0) & irrational, axis=(-2, -1))]:
        rows = m.sum(axis=1)
        S = sum(Fraction(int(m[r, c]) * power[int(dist[r, c])],
                         1 if metric == "oc" else int(rows[r]))
                for r, c in zip(*np.nonzero(m * (dist > 0)), strict=True))
        if S == 0:
            continue
        size = math.log10(max(S.numerator, S.denominator))
        digits = whole * size
        if digits > EXACT_DIGITS:
            g_min = size / EXACT_DIGITS
            raise ValueError(
                f"gamma={gamma} is outside the range of exact arithmetic for the matrix "
                f"{m.tolist()}: its sum of penalties S = {S} is rational, and "
                f"S**(1/gamma) would have about {digits:.3g} digits (more than {EXACT_DIGITS}); "
                f"exact supports gamma >= about {float(g_min):.3g} for it; use arithmetic='mp'")


def _range_error(ctx, gamma, detail):
    return ValueError(
        f"gamma={gamma} is outside the range of {ctx.name} arithmetic for this matrix (its "
        f"largest number is about 1e{ctx.log_max / math.log(10):.0f}): {detail}; "
        "use arithmetic='mp' or 'exact'")


#: OC and UOC at one beta: at least this many matrices per block, so that the
#: DP's Python steps (one per anti-diagonal) are paid for by wide numpy calls.
_LEAST_LANES = 256


def _evaluate(cm, beta, gamma, arithmetic, metric):
    """``oc``/``uoc`` at ``beta``: validated once, then weights and DP block by
    block (:meth:`exactfloor.arith.Arithmetic.blocks`; bounded temporaries in float)."""
    ctx = get_arithmetic(arithmetic)
    check_gamma(gamma)
    s = stack(cm, ctx)
    _check_gamma_range(ctx, s.counts, gamma, metric)
    beta = ctx.parameters(beta, s.lead, check_beta).reshape(-1)
    weights = _WEIGHTS[metric]
    rational = ctx.rationals() is not ctx and s.symbolic is None and ctx.fraction(
        ctx.number(gamma)) == 1 and ctx.fractions(beta) is not None
    if rational:  # gamma = 1, rational betas: every weight is rational, and the DP
        # runs in Python Fractions (3x faster than SymPy's Rationals), as the envelope does
        fractions = ctx.fractions(beta)
        beta = np.empty(len(fractions), dtype=object)
        beta[:] = fractions
        s = Stack(s.counts, s.lead, ctx.rationals())

    def block(p, rows):
        with quiet_objects(p.n):  # exact and mp: numpy's flags are the objects' (_arith)
            b, q = weights(p, gamma)
        return path_dp(b, q, beta[rows], p.ctx, slopes=False)[0]

    out = s.map(block, least=_LEAST_LANES)
    return ctx.finalize(ctx.asarray(out)) if rational else out


def _beta_over(params, L):
    r"""OC's parameters for the matrix of every count times ``L``: ``beta / L``.

    .. math:: OC_{\beta/L}(L\,n) = OC_\beta(n)

    (cardoso2011 eq. 7: the benefit ``L n / (L N + L M)`` does not change, the
    penalty ``sum L n |r - c|^gamma`` is ``L`` times larger).  Rational weights in
    exact arithmetic are counted as the matrix of ``L w``
    (:func:`numeric.registry._rational_weights`); a beta that is not a real
    number is left to OC's own check.

    >>> _beta_over({"beta": 0.25, "arithmetic": "exact"}, 6)["beta"]
    1/24
    """
    beta = params.get("beta")
    if beta is None or isinstance(beta, (bool, str, np.bool_)) or np.ndim(beta) != 0:
        return params
    ctx = get_arithmetic(params.get("arithmetic", "float"))
    try:
        return {**params, "beta": ctx.number(beta) / L}
    except (TypeError, ValueError):
        return params


@metric(
        label="OC", input="matrix, beta", better="lower", symmetric=True, bounds=(0, 1),
        source="cardoso2011 eq. 7", weight_scale=_beta_over,
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
        ``gamma > 0``.  Each arithmetic has a range beyond which a ValueError
        names the supported one: float64 while ``N (K-1)**gamma`` is a float;
        exact while the powers it builds have at most
        :data:`EXACT_DIGITS` digits and gamma's denominator is at most
        ``10**EXACT_GAMMA_DIGITS`` (see :func:`_check_exact_gamma`); mp has
        no limit.
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
    ``gamma`` and ``arithmetic`` as in :func:`oc` (same ranges, with ``K`` for
    ``K - 1``).

    Parameters
    ----------
    beta : float or array_like
        The weight of the path's cost, as written (the recast
        ``N beta -> beta`` of silva2018 eq. 22); for a stack, broadcast
        against its leading shape.
    gamma : float, default 1
        ``gamma > 0``, the exponent of the distance ``|r - c|``; its ranges
        per arithmetic as in :func:`oc` (with ``K`` for ``K - 1``).

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
#: round's DP runs over chunks of at most as many cells and at most
#: ``_DP_LANES`` cells per anti-diagonal (bounded buffers; each numpy call of
#: the DP works on one anti-diagonal of a chunk, large enough to pay for the call).
_SEARCH_CELLS = 1 << 20
_DP_LANES = 1 << 16
#: Stacks of fewer matrices evaluate all pending intervals in one gathered DP call.
_WHOLE_STACK_MIN = 256


def _diagonal_from(b, q, ctx):
    """``beta*`` per matrix: from there on the main diagonal is a minimising path.

    .. math:: \\beta^* = \\max_{q_{r,c} > 0} b_{r,c} / q_{r,c}

    For ``beta >= beta*`` every cell off the diagonal has ``beta q - b >= 0``
    (a diagonal cell has ``q = 0``, as ``|r - c| = 0``), so no path costs less
    than the diagonal, which collects every diagonal benefit.
    """
    positive = q > 0
    ratio = np.where(positive, b / np.where(positive, q, 1), 0)
    return ratio.reshape(len(b), -1).max(axis=-1)


def _stack_pieces(b, q, ctx, lo, hi, *, diagonal_at_hi=False):
    """Envelope pieces of every matrix of a stack ``(n, K, K)`` over ``[lo, hi]``.

    ``hi=None`` searches ``[lo, inf)``.  Where ``hi >= beta*``
    (:func:`_diagonal_from`; ``diagonal_at_hi``: known to the caller) the line
    at ``hi`` is the diagonal path's, with no DP.  Each round of the search
    is one DP call for all pending intervals of all matrices; the slope of a
    minimiser is summed (along the recorded choices) only for those that
    reveal a new line.  Slack (float, mp): the context's relative tolerance times the
    problem's scale, ``1 + sum |b| + |beta| sum q`` for values and ``sum q``
    for slopes (zero in an exact context).  Returns the arrays ``(idx, lo,
    hi, a, s)`` of :func:`numeric.envelope.search`.
    """
    n, K, _ = b.shape
    dtype = b.dtype
    # diagonal-major copies once (the DP's layout) and the penalties also cell-major
    # (the slopes' walk back); the DP gathers the pending matrices' columns one
    # diagonal at a time (the pending intervals are a few sorted runs of
    # matrices: near-sequential reads)
    every = np.arange(n)
    bD, qD = by_diagonals(b), by_diagonals(q)
    cell_rows = diagonal_order(K)[2]  # cell r K + c -> its row of bD, qD
    qT = qD[cell_rows]
    chunk = max(1, min(_DP_LANES // K, _SEARCH_CELLS // (K * K)))
    choice_bufs = [np.empty(K * K * chunk, dtype=bool) for _ in range(2)]

    def dp(idx, x, floor):
        # the DP in chunks, so that its buffers stay bounded; the slope of a
        # minimiser only where the value is below floor
        v, s = np.empty(len(idx), dtype=dtype), np.empty(len(idx), dtype=dtype)
        for c in range(0, len(idx), chunk):
            part = slice(c, c + chunk)
            width = len(idx[part])
            choices = [buf[:K * K * width].reshape(K * K, width) for buf in choice_bufs]
            v[part], s[part] = cells_dp(qD, bD, x[part], ctx, columns=part if idx is every else idx[part],
                                        below=None if floor is None else floor[part], qT=qT,
                                        choices=choices)
        return v, s

    def lines_below(idx, x, floor=None):
        # the search's pending intervals come in runs of distinct matrices
        # (increasing idx): in a large stack a run of 3/4 of it or more is
        # evaluated on the whole stack, without gathering its columns; the
        # other runs (all of them in a small stack, where a gather is cheap
        # and one DP call per run is not) together
        v, s = np.empty(len(idx), dtype=dtype), np.empty(len(idx), dtype=dtype)
        ends = np.flatnonzero(idx[1:] <= idx[:-1]) + 1
        scattered = []
        for run in map(slice, np.r_[0, ends], np.r_[ends, len(idx)]):
            if n < _WHOLE_STACK_MIN or 4 * (run.stop - run.start) < 3 * n:
                scattered.append(np.arange(run.start, run.stop))
                continue
            xs = np.full(n, lo, dtype=dtype)
            xs[idx[run]] = x[run]
            fs = None
            if floor is not None:
                fs = np.full(n, -ctx.inf, dtype=dtype)
                fs[idx[run]] = floor[run]
            vs, ss = dp(every, xs, fs)
            v[run], s[run] = vs[idx[run]], ss[idx[run]]
        if scattered:
            pos = np.concatenate(scattered)
            v[pos], s[pos] = dp(idx[pos], x[pos], None if floor is None else floor[pos])
        return v, v - s * x, s

    def lines_at(idx, x):
        return lines_below(idx, x)[1:]

    lo_arr = np.full(n, lo, dtype=dtype)
    end_lo = lines_at(every, lo_arr)
    hi_arr = np.full(n, ctx.inf if hi is None else hi, dtype=dtype)
    end_hi = (1 - bD[cell_rows[::K + 1]].sum(axis=0),
              np.full(n, ctx.number(0), dtype=dtype))
    eps = ctx.tolerance(1)
    if hi is not None and not diagonal_at_hi:
        dp_needed = np.flatnonzero(np.asarray(hi_arr < _diagonal_from(b, q, ctx) * (1 + 8 * eps),
                                              dtype=bool))
        if dp_needed.size:
            end_hi[0][dp_needed], end_hi[1][dp_needed] = lines_at(dp_needed, hi_arr[dp_needed])
    # benefits and penalties are >= 0: their sums are the sums of their sizes
    b_scale = 1 + bD.sum(axis=0)
    q_scale = qD.sum(axis=0)
    return search(lines_below, lo_arr, hi_arr, end_lo, end_hi, ctx,
                  tol_value=lambda i, x: eps * (b_scale[i] + q_scale[i] * np.abs(x)),
                  tol_slope=lambda i: eps * q_scale[i])


def _merge_one(pieces, b, q, ctx):
    """:func:`numeric.envelope.merge` of one matrix's pieces with the slack of
    :func:`_stack_pieces` (none in an exact context)."""
    _, lo, hi, a, s = pieces
    eps = ctx.tolerance(1)
    finite = [abs(v) for v in list(lo) + list(hi) if v != ctx.inf]
    x_max = max(finite, default=0)
    q_scale = q.sum()

    def width(l, h):
        # a breakpoint is off by a relative eps of its own size: a piece is empty
        # when it is that narrow.  (eps times the largest breakpoint, as before,
        # dropped the piece [0, 2/3) of [[1, 1], [1, 1]] for beta_max >= 1e15.)
        return eps * max(abs(l), 0 if h == ctx.inf else abs(h))

    return merge(lo, hi, a, s, tol_width=width,
                 tol_value=eps * (1 + np.abs(b).sum() + q_scale * x_max),
                 tol_slope=eps * q_scale)


def _envelope_parts(cm, metric, gamma, ctx):
    """``(prepared, numer, D, q)`` of :func:`oc_parts` / :func:`uoc_parts`; with
    ``gamma = 1`` in the context's arithmetic of rationals
    (:meth:`exactfloor.arith.Arithmetic.rationals`: Python Fractions for exact)."""
    parts = _PARTS[metric]
    if ctx.fraction(ctx.number(gamma)) == 1:
        p = prepare(cm, ctx.rationals())
        return (Prepared(counts=p.counts, n=p.n, ctx=ctx),) + parts(p, 1)
    p = prepare(cm, ctx)
    _check_gamma_range(ctx, p.counts, gamma, metric)
    numer, D, q = parts(p, gamma)
    if ctx.exact and p.K >= 3:
        # rational penalties (an integer gamma) are searched by a float64 DP whose
        # choices are certified (_integer_pieces): they must be float64 numbers
        top = float(p.counts.sum()) if metric == "oc" else 1.0
        log_max = get_arithmetic("float").log_max
        g_max = (log_max - math.log(4.0 * p.K * p.K * max(top, 1.0))) / math.log(p.K - 1)
        if float(gamma) > g_max and ctx.fractions(q) is not None:
            raise ValueError(
                f"gamma={gamma} is outside the range of the exact path_envelope for this "
                f"matrix: with rational penalties (an integer gamma) it supports 0 < gamma <= "
                f"{g_max:.4g} here (its search certifies a float64 dynamic programme, and "
                f"{p.K - 1}**gamma times the counts overflows float64 beyond); oc, uoc and "
                "optimal_path at given betas take this gamma in exact arithmetic")
    return p, numer, D, q


def _float_or_inf(x):
    """``float(x)`` of a positive Fraction, ``inf`` beyond float64 (``beta_max=1e308``
    times ``D`` is an exact Fraction too large for a float)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf


def _integer_pieces(numers, qs, K, t_his, rat=FRACTION):
    """Exact envelopes of the lines ``1 - sum numer + t sum q`` over ``[0, t_hi]``,
    for a batch of matrices searched together.

    ``numers``, ``qs``: per matrix, the ``K*K`` weights as exact rationals
    of the context ``rat`` (:class:`exactfloor.arith.FractionArithmetic`:
    Fractions, or the property engine's ``gmpy2.mpq``); ``t_his``: per
    matrix, the right end (such a rational, or ``None`` for ``[0, inf)``).
    With ``L`` a matrix's common denominator, the line of a path is ``(L -
    sum nI + t sum qI) / L`` (``nI = L numer``, ``qI = L q``, Python
    integers); the minimising lines come from
    :func:`numeric._dp.certified_lines` (an exact int64 DP, or a float64 one
    whose every choice is certified or decided in integers), one call a round for every matrix
    still searched (:func:`numeric.envelope.search`).  From ``t* = max
    numer / q`` on the diagonal path is optimal (:func:`_diagonal_from`), so
    at such a ``t_hi`` no DP runs.  Returns, per matrix, the merged pieces
    ``(lo, hi, a, s)`` in ``t`` (``rat``'s numbers, ``hi`` of the last piece
    ``inf`` when unbounded).
    """
    m = len(numers)
    # Python ints (an mpq's parts are gmpy2's mpz)
    Ls = [lcm(*(int(v.denominator) for v in n), *(int(v.denominator) for v in q))
          for n, q in zip(numers, qs, strict=True)]
    nI = [[int(v.numerator) * (L // int(v.denominator)) for v in n] for n, L in zip(numers, Ls, strict=True)]
    qI = [[int(v.numerator) * (L // int(v.denominator)) for v in q] for q, L in zip(qs, Ls, strict=True)]
    nf = np.array([[float(v) for v in n] for n in numers]).reshape(m, K * K).T
    qf = np.array([[float(v) for v in q] for q in qs]).reshape(m, K * K).T
    L_arr = np.array(Ls, dtype=object)

    def lines_at(idx, x):
        at = idx.tolist()
        a, s = certified_lines([nI[i] for i in at], [qI[i] for i in at], nf[:, idx], qf[:, idx],
                               x.tolist())
        return L_arr[idx] + np.array(a, dtype=object), np.array(s, dtype=object)

    every = np.arange(m)
    zero = np.full(m, rat.number(0), dtype=object)
    end_lo = lines_at(every, zero)
    # t_hi >= t* = max nI / qI: every off-diagonal cell has t_hi q - n >= 0 (in
    # floats with a margin far above their rounding, else decided in integers)
    positive = qf > 0
    t_star = np.divide(nf, qf, out=np.zeros_like(nf), where=positive).max(axis=0)
    hi = np.empty(m, dtype=object)
    end_hi = (np.array([L - sum(n[::K + 1]) for L, n in zip(Ls, nI, strict=True)], dtype=object),
              np.zeros(m, dtype=object))
    dp_needed = []
    for i, t_hi in enumerate(t_his):
        hi[i] = rat.inf if t_hi is None else t_hi
        if not (t_hi is None or _float_or_inf(t_hi) >= 1.01 * t_star[i] or all(
                t_hi.numerator * qc >= t_hi.denominator * nc
                for nc, qc in zip(nI[i], qI[i], strict=True) if qc > 0)):
            dp_needed.append(i)
    if dp_needed:
        dp_needed = np.array(dp_needed)
        end_hi[0][dp_needed], end_hi[1][dp_needed] = lines_at(dp_needed, hi[dp_needed])
    idx, lo, hi, a, s = search(lines_everywhere(lines_at), zero, hi, end_lo, end_hi, rat)
    out = []
    order = np.argsort(idx, kind="stable")
    for i, run in enumerate(np.split(order, np.searchsorted(idx[order], every[1:]))):
        L = Ls[i]
        out.append([(l, h, rat.divide(ai, L), rat.divide(si, L))
                    for l, h, ai, si in merge(lo[run], hi[run], a[run], s[run])])
    return out


def _guarded_pieces(numer, q, K, t_hi):
    """Exact envelope in ``t`` when the penalties ``q`` are irrational (non-integer gamma).

    The search and the DP run on :class:`exactfloor.guarded.Guarded` numbers
    (exact, compared at guarded precision); the line of a minimiser is summed
    exactly over the cells of its path (followed back along the DP's choices), so
    intercepts stay rational and slopes stay sums of radicals.
    """
    from exactfloor.guarded import GUARDED  # SymPy-backed: imported when first needed

    nG, qG = GUARDED.asarray(numer), GUARDED.asarray(q)

    def lines_at(idx, x):
        m = len(idx)
        choices = choice_buffers(K, m)
        path_dp(np.broadcast_to(nG, (m, K, K)), np.broadcast_to(qG, (m, K, K)), x, GUARDED,
                slopes=False, choices=choices)
        a = np.empty(m, dtype=object)
        s = np.empty(m, dtype=object)
        for j in range(m):
            cells = path_cells(*choices, j)[::-1]  # from (0, 0) on
            a[j] = GUARDED.number(1 - sum(numer.flat[c] for c in cells))
            s[j] = GUARDED.number(sum(q.flat[c] for c in cells))
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
    _, lo, hi, a, s = search(lines_everywhere(lines_at), zero, hi, end_lo, end_hi, GUARDED)
    return merge(lo, hi, a, s)


def _exact_pieces(numer, D, q, beta_max, ctx):
    """Exact envelope pieces ``(lo, hi, a, s)`` of one matrix (``ctx`` exact: the
    benefits ``n / N_r`` and ``n`` are rationals).

    With ``b = numer / D`` the cost of a path is
    ``1 - B/D + beta Q = 1 - (1/D) (B - t Q)`` with ``t = beta D``: the
    parametric search over ``t`` sees only the rational ``numer`` and ``q``,
    even when ``D`` is irrational (``gamma != 1``), and runs in integers
    (:func:`_integer_pieces`), or for irrational penalties (non-integer
    ``gamma``) in guarded exact numbers (:func:`_guarded_pieces`).  A line
    ``1 - B + t Q`` in ``t`` maps back to ``1 - B/D + beta Q`` and a
    breakpoint ``t`` to ``beta = t / D``.
    """
    nF = ctx.fractions(numer)
    import sympy

    qF = ctx.fractions(q)
    K = numer.shape[-1]
    D_f = ctx.fraction(D)
    if qF is None:
        from exactfloor.guarded import GUARDED as tctx

        t_hi = None if beta_max is None else tctx.number(beta_max * D)
        pieces = _guarded_pieces(numer, q, K, t_hi)
    else:
        tctx = FRACTION  # the context of the search in t
        t_hi = None  # an irrational D: [0, inf), cut at beta_max below
        if beta_max is not None and D_f is not None:
            t_hi = ctx.fraction(beta_max) * D_f
        pieces = _integer_pieces([nF], [qF], K, [t_hi])[0]
    # 1/D once, with a rational denominator when D is a surd (gamma != 1)
    # (a small surd only: radsimp of (sum of 1000th roots)**1000 does not finish)
    simple = D_f is None and all(
        e.exp.is_Rational and abs(e.exp.p) <= 2 and e.exp.q <= 2 for e in D.atoms(sympy.Pow))
    inv_D = sympy.Rational(D_f.denominator, D_f.numerator) if D_f is not None else (
        sympy.radsimp(1 / D) if simple else 1 / D)
    tidy = sympy.expand if simple else (lambda v: v)

    num = tctx.sympy_number
    if beta_max is not None and ctx.fraction(beta_max) is not None:
        # in the pieces' numbers (SymPy's), for the comparison and the last end: SymPy
        # reads a context's mpq (the property engine's rationals) as a float
        beta_max = num(ctx.fraction(beta_max))
    out = []
    for lo, hi, a, s in pieces:
        lo_b, hi_b, a_b, s_b = _in_beta(
            (num(lo), None if hi == tctx.inf else num(hi), num(a), num(s)), inv_D)
        lo_b = tidy(lo_b)
        if beta_max is not None and out and not lo_b < beta_max:
            break
        out.append((lo_b, None if hi_b is None else tidy(hi_b), tidy(a_b), s_b))
    if beta_max is not None:
        lo_b, hi_b, a, s = out[-1]
        out[-1] = (lo_b, beta_max, a, s)
    return out


def _exact_areas(numer, D, q, ctx):
    """The exact integral over ``beta`` in ``[0, 1]`` of each matrix's envelope
    (A_UOC of a stack, ``ctx`` exact), in the context's numbers.

    ``numer``, ``D`` and ``q`` are rationals of the context's rational
    arithmetic (gamma = 1: Fractions, or the property engine's mpq): the
    matrices are searched together (:func:`_integer_pieces`, ``t = beta D``
    up to ``t = D``) and the pieces integrated in those rationals.
    """
    n, K, rat = len(D), numer.shape[-1], ctx.rationals()
    out = np.empty(n, dtype=object)
    # D in rat's own numbers, from its parts (the engine's Fraction context computes
    # it with a closed form's mpq; a Fraction of an mpq would hold gmpy2's mpz)
    DF = [rat.divide(int(d.numerator), int(d.denominator)) for d in D.tolist()]
    envelopes = _integer_pieces([numer[i].reshape(-1).tolist() for i in range(n)],
                                [q[i].reshape(-1).tolist() for i in range(n)], K, DF, rat)
    for i, pieces in enumerate(envelopes):
        inv_D = rat.divide(1, DF[i])
        out[i] = ctx.number(sum(piece_areas(*_in_beta(piece, inv_D)) for piece in pieces))
    return out


def _a_uoc_int64(nI, qI, L, Dn, Dd, ctx):
    r"""Exact A_UOC of a stack of integer counts, searched in int64.

    .. math:: A_{UOC} = 1 + \frac{I}{L D^2},\quad
              I = \int_0^D E(t)\,dt = a_m D
              - \sum_{k=1}^{m} \frac{(a_k - a_{k-1})^2}{2 (s_{k-1} - s_k)}

    silva2018 eq. 23 with eq. 28 at gamma = 1, with ``t = beta D`` and the
    integer weights of :func:`uoc_integer_parts`: the cost of a path is
    ``1 + (a + s t) / (L D)`` with ``a = -sum nI``, ``s = sum qI`` over
    its cells, and ``E(t)`` is the least ``a + s t``.  Its lines
    ``a_0 + s_0 t, ..., a_m + s_m t`` in the order of decreasing slope
    (``s_m = 0``: the diagonal path's, least at ``t = D``, as slopes are
    sums of penalties ``>= 0``) come from one batched search of the whole
    stack in int64 (:func:`numeric.envelope.search_int64`, each round one
    :func:`numeric._dp.least_lines_int64` call).  ``I`` is integrated
    line by line: consecutive lines meet on the envelope, at ``t_k =
    (a_k - a_{k-1}) / (s_{k-1} - s_k)``, so the piece sums ``a (h - l) + s
    (h^2 - l^2) / 2`` telescope into the terms above (a line that is least
    at one point only adds a term that telescopes too).  The result is
    one rational per matrix in the context's rationals (gmpy2's mpq in the
    property engine, Fractions for SymPy's exact context), with a handful
    of Python-integer operations.  ``nI, qI, L, Dn, Dd``: the parts of
    :func:`uoc_integer_parts` of matrices that fit; returns their values in
    the numbers of the exact context ``ctx``.
    """
    rat = ctx.rationals()
    K = nI.shape[-1]
    # cell-major, the layout of the DP (each round gathers the columns of its points)
    nT, qT = nI.reshape(-1, K * K).T.copy(), qI.reshape(-1, K * K).T.copy()

    def least_line(idx, xp, xr):
        A, S = least_lines_int64(nT.take(idx, axis=1), qT.take(idx, axis=1), xp, xr)
        return -A, S

    every = np.arange(len(L))
    end_lo = least_line(every, np.zeros_like(Dn), np.ones_like(Dd))
    # at t = D (beta = 1) the diagonal path is least: off the diagonal every cell has
    # beta q - b = p (|r - c| / K' - 1 / D) >= 0, as D = K' + M' >= K'
    end_hi = -nT[::K + 1].sum(axis=0), np.zeros_like(Dn)
    idx, _, _, _, _, a, s = search_int64(least_line, Dn, Dd, end_lo, end_hi)
    # each envelope's distinct lines by decreasing slope (two least lines of one slope are one line)
    order = np.lexsort((-s, idx))
    idx, a, s = idx[order], a[order], s[order]
    same = (idx[1:] == idx[:-1]) & (s[1:] == s[:-1])
    if (a[1:][same] != a[:-1][same]).any():
        raise AssertionError("two least lines of one slope with different intercepts")
    keep = np.r_[True, ~same]
    idx, a, s = idx[keep], a[keep], s[keep]
    last = np.r_[idx[1:] != idx[:-1], True]  # the least slope: the line at t = D
    inner = np.flatnonzero(~last)  # a line and the next one of its matrix: a breakpoint
    # sigma = sum da^2 / (2 ds) over a matrix's breakpoints, as sigma_n / sigma_d with
    # sigma_d the product of the 2 ds (Python integers: one rational per matrix at the end)
    da = (a[inner + 1] - a[inner]).astype(object)
    twice_ds = 2 * (s[inner] - s[inner + 1]).astype(object)
    sigma_n = np.zeros(len(L), dtype=object)
    sigma_d = np.ones(len(L), dtype=object)
    who = idx[inner]
    if who.size:
        runs = np.r_[0, np.flatnonzero(who[1:] != who[:-1]) + 1]
        sigma_d[who[runs]] = np.multiply.reduceat(twice_ds, runs)
        sigma_n[who[runs]] = np.add.reduceat(da * da * (sigma_d[who] // twice_ds), runs)
    # the last line has slope 0 (every slope is >= 0, and the diagonal's is 0), so
    # 1 + I / (L D^2) = 1 + (aL D - sigma) / (L D^2), with D = Dn / Dd
    aL = a[last].astype(object)
    Dn, Dd, L = Dn.astype(object), Dd.astype(object), L.astype(object)
    LDn2 = L * Dn * Dn
    values = rat.divide(sigma_d * (LDn2 + aL * Dd * Dn) - sigma_n * Dd * Dd, LDn2 * sigma_d)
    return values if ctx is rat else np.array([ctx.number(v) for v in values], dtype=object)


def _in_beta(piece, inv_D):
    """A piece ``(lo, hi, a, s)`` of the envelope in ``t = beta D`` as a piece in
    ``beta`` (``inv_D = 1/D``; ``hi`` None: unbounded): the line ``1 - B + t Q``
    is ``1 - B/D + beta Q``."""
    lo, hi, a, s = piece
    return lo * inv_D, None if hi is None else hi * inv_D, 1 - (1 - a) * inv_D, s


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
    gamma : number > 0, default 1
        Its range is that of :func:`oc`; in exact arithmetic rational
        penalties (an integer gamma) must also be float64 numbers (the
        search certifies a float64 dynamic programme), else a ValueError.
    beta_max : number or None
        Right end of the range; ``None`` for ``[0, inf)``.
    arithmetic : {"float", "exact", "mp"}, default "exact"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    Envelope

    Examples
    --------
    >>> env = path_envelope([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    >>> env.breakpoints, env.intercepts, env.slopes
    ((0, 2/3, None), (1/3, 2/3), (1/2, 0))
    """
    _check_metric(metric)
    check_gamma(gamma)
    ctx = get_arithmetic(arithmetic)
    p, numer, D, q = _envelope_parts(cm, metric, gamma, ctx)
    if p.counts.ndim != 2:
        raise ValueError("path_envelope takes one matrix, not a stack")
    if beta_max is not None:
        check_beta(beta_max)
    hi = None if beta_max is None else ctx.number(beta_max)
    if ctx.exact:
        pieces = _exact_pieces(numer, D[()], q, hi, ctx)
    else:  # a rounding arithmetic: the search of a stack, on this one matrix
        if not ctx.all_finite(D):
            top = float(p.counts.sum()) if metric == "oc" else 1.0
            g_min = math.log(4.0 * p.K * p.K * max(top, 1.0)) / ctx.log_max
            raise _range_error(ctx, gamma, "the normaliser (sum ...)**(1/gamma) overflows, so the "
                               f"breakpoints underflow; {ctx.name} supports gamma >= about "
                               f"{g_min:.3g} here")
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


@metric(
        label="A_UOC", better="lower", symmetric=False, bounds=(0, 1), source="silva2018 eq. 23")
def a_uoc(cm, *, arithmetic="float"):
    r"""Area under the UOC curve, :math:`A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta`.

    .. math:: A_{UOC} = \sum_i \int_{\beta_i}^{\beta_{i+1}} (a_i + s_i\beta)\,d\beta

    silva2018 eq. 23 with eq. 28 (gamma = 1).  UOC is the lower envelope of
    one line per path; the integral is taken exactly over the envelope's
    pieces, whose breakpoints come from a parametric search (see
    :func:`path_envelope`), not on a grid of beta values.

    Notes
    -----
    With ``arithmetic="exact"`` the value is the exact rational, for counts
    of any size.  The matrices of a stack are computed together (one search
    for all of them).

    Examples
    --------
    >>> a_uoc([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]],
    ...       arithmetic="exact")
    5/9
    """
    # How: the matrices of a stack are searched together, one batched DP per round.  Exact:
    # in int64 over each matrix's common denominator, integrated line by line into one
    # rational per matrix (_a_uoc_int64); a matrix whose numbers might leave int64 goes the
    # general way, in Python integers (_exact_areas).  Float and mp: in the context's numbers,
    # in blocks (float64: about 2**20 cells each, bounded temporaries).
    ctx = get_arithmetic(arithmetic)
    wctx = ctx.rationals()  # gamma = 1: the weights are rational
    one, zero = ctx.number(1), ctx.number(0)

    def block(p, rows):
        if not ctx.exact:  # a rounding arithmetic: the stack searched at once
            numer, D, q = uoc_parts(p, 1)
            # UOC at beta = 1 >= K'/D = beta* (D = K' + M'): the diagonal path
            idx, lo, hi, a, s = _stack_pieces(numer / D[:, None, None], q, ctx, zero, one,
                                              diagonal_at_hi=True)
            return ctx.sum_by(idx, piece_areas(lo, hi, a, s), len(D))
        out = np.empty(len(p.counts), dtype=object)
        fits = np.zeros(len(p.counts), dtype=bool)
        if getattr(p.ctx, "support", None) is None:  # integer counts: in int64 where they fit
            *parts, fits = uoc_integer_parts(p.counts)
            if fits.any():
                out[fits] = _a_uoc_int64(*(v[fits] for v in parts), ctx)
        rest = np.flatnonzero(~fits)
        if rest.size:  # the weights in the stack's rationals, searched in Python integers
            numer, D, q = uoc_parts(Prepared(counts=p.counts[rest], n=p.n[rest], ctx=p.ctx), 1)
            out[rest] = _exact_areas(numer, D, q, ctx)
        return out

    return stack(cm, wctx).map(block, size=_SEARCH_CELLS)


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

    .. math:: W_{r,c} = \beta q_{r,c} - b_{r,c} + \min(W_{r-1,c-1}, W_{r-1,c}, W_{r,c-1})

    Parameters
    ----------
    cm : array_like, shape (K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.
    beta : number >= 0
        As in :func:`oc` / :func:`uoc` (not rescaled).
    metric : {"uoc", "oc"}
    gamma : number > 0, default 1
        Its range in each arithmetic is that of :func:`oc`.
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
    _check_metric(metric)
    check_gamma(gamma)
    ctx = get_arithmetic(arithmetic)
    p = prepare(cm, ctx)
    _check_gamma_range(ctx, p.counts, gamma, metric)
    b, q = _WEIGHTS[metric](p, gamma)
    if p.counts.ndim != 2:
        raise ValueError("optimal_path takes one matrix, not a stack")
    K = p.K
    beta = ctx.asarray(check_beta(beta).reshape(1))
    choices = choice_buffers(K, 1)
    path_dp(b.reshape(1, K, K), q.reshape(1, K, K), beta, ctx, slopes=False, choices=choices)
    return [divmod(cell, K) for cell in reversed(path_cells(*choices, 0))]
