"""The dynamic programme over consistent paths (cardoso2011 §3.4), once for every arithmetic.

:func:`path_dp` minimises ``1 + sum_{path} (beta q - b)`` over the
monotone paths from cell (1, 1) to cell (K, K), vectorised over a stack, and
returns the penalty ``sum_{path} q`` of a minimiser.  :mod:`numeric.paths`
evaluates OC and UOC with it, and searches the envelope over beta
(:func:`numeric.envelope.search`) with :func:`cells_dp`.

:func:`certified_lines` is the exact variant used by the exact envelope
search: the recurrence runs in exact int64 arithmetic when every path cost
fits, else in float64 (:func:`value_table`) with every choice of a
predecessor on the way back certified against a rigorous bound on the
rounding error, or decided in exact integers when the floats cannot.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from exactfloor.arith import quiet_objects
from exactfloor.tolerance import FLOAT64_UNIT_ROUNDOFF, FLOAT_SCREEN

__all__ = ["path_dp", "cells_dp", "by_diagonals", "diagonal_order", "choice_buffers",
           "path_cells", "value_table", "certified_lines"]


def path_dp(b, q, beta, ctx, *, slopes=True, choices=None):
    """Minimum path cost at ``beta`` and the penalty (slope) of a minimiser.

    .. math:: W_{r,c} = w_{r,c} + \\min(W_{r-1,c-1}, W_{r-1,c}, W_{r,c-1}),
              \\quad w = \\beta q - b,\\quad W_{1,1} = 1 + w_{1,1}

    cardoso2011 §3.4.  ``b``, ``q`` of shape ``(B, K, K)``
    and ``beta`` of shape ``(B,)`` hold float64 or ``ctx`` numbers (object
    arrays); :func:`cells_dp` on their diagonal-major copies.

    ``slopes=False`` skips the penalty bookkeeping (the value is unchanged).
    ``choices``: two bool arrays of shape ``(K*K, B)`` in which the choice of
    every cell is recorded (:func:`cells_dp`; :func:`path_cells` follows
    them back).  Returns ``(value, slope)``; ``slope`` is ``None`` when
    ``slopes=False``.

    Examples
    --------
    >>> import numpy as np
    >>> from exactfloor.arith import get_arithmetic
    >>> b = np.array([[[0.5, 0.0], [0.0, 0.5]]]); q = np.array([[[0.0, 1.0], [1.0, 0.0]]])
    >>> path_dp(b, q, np.array([0.25]), get_arithmetic("float"))
    (array([0.]), array([0.]))
    """
    return cells_dp(by_diagonals(q), by_diagonals(b), beta, ctx, slopes=slopes, choices=choices)


@functools.lru_cache(maxsize=None)
def diagonal_order(K):
    """The cells ``r K + c`` of a ``K x K`` matrix by anti-diagonal ``d = r + c``
    (``r`` ascending within one), where each diagonal starts in that order, and
    the inverse: the position of each cell in it.

    >>> diagonal_order(3)
    (array([0, 1, 3, 2, 4, 6, 5, 7, 8]), (0, 1, 3, 6, 8, 9), array([0, 1, 3, 2, 4, 6, 5, 7, 8]))
    """
    order = [r * K + d - r for d in range(2 * K - 1)
             for r in range(max(0, d - K + 1), min(d, K - 1) + 1)]
    starts = [0]
    for d in range(2 * K - 1):
        starts.append(starts[-1] + min(d, K - 1) - max(0, d - K + 1) + 1)
    order = np.array(order, dtype=np.intp)
    rows = np.argsort(order)
    order.flags.writeable = rows.flags.writeable = False
    return order, tuple(starts), rows


def by_diagonals(a):
    """A stack ``(B, K, K)`` as a C-contiguous ``(K*K, B)`` array in
    :func:`diagonal_order`: the cells of one anti-diagonal are consecutive rows
    (one copy; the layout of :func:`cells_dp`'s weights).

    >>> by_diagonals(np.arange(4).reshape(1, 2, 2)).ravel().tolist()
    [0, 1, 2, 3]
    """
    B, K, _ = a.shape
    return a.reshape(B, K * K).T[diagonal_order(K)[0]]


def choice_buffers(K, B):
    """Two bool arrays ``(K*K, B)`` for :func:`cells_dp` to record its choices in."""
    return np.empty((K * K, B), dtype=bool), np.empty((K * K, B), dtype=bool)


def cells_dp(qD, bD, x, ctx, *, columns=None, slopes=True, below=None, qT=None,
             choices=None):
    """The recurrence of :func:`path_dp` at ``beta = x``, on diagonal-major weights.

    ``qD``, ``bD`` of shape ``(K*K, n)`` hold the penalties and benefits of
    ``n`` matrices, one column each, with their rows in
    :func:`diagonal_order` (:func:`by_diagonals`).  The DP runs on ``B =
    len(x)`` lanes, lane ``j`` on column ``columns[j]`` (an index array, a
    slice of step 1, or ``None``: the first ``B`` columns).  The weights ``w = x q - b``
    of a diagonal are formed (gathered) when the recurrence reaches it, so that
    they are read from memory once and stay in cache; the arithmetic is that of
    forming all of them first.  ``+inf`` and zero are the context's
    (``ctx.inf``, ``ctx.number(0)``).

    Layout: the stack is the last (contiguous) axis; each diagonal of ``W`` is
    kept in a ``(K + 2, B)`` buffer (cell ``(r, d - r)`` at index ``r + 1``,
    ``+inf`` where a neighbour outside the matrix is read) and only three
    diagonals are alive, so the Python loop has 2K - 1 steps whatever the
    stack size.  On ties the diagonal step is preferred, then the step from
    above (as ``argmin`` over ``(diagonal, above, left)``).

    The choice of every cell is recorded (two bits, cell-major: row ``r K +
    c``, in ``choices`` when given, two C-contiguous bool arrays of shape
    ``(K*K, B)``); the slope is then summed along the chosen path, followed
    back from ``(K-1, K-1)`` (:func:`_path_sums`), on the penalties ``qT``
    (cell-major ``(K*K, n)``; default: copied from ``qD``).  With ``below``
    (shape ``(B,)``) the slope is summed only where the value is below it,
    and is zero elsewhere.  ``slopes=False`` skips the slopes.  Returns
    ``(value, slope)``; ``slope`` is ``None`` when ``slopes=False``.

    >>> import numpy as np
    >>> from exactfloor.arith import get_arithmetic
    >>> q = np.array([[0.0], [1.0], [1.0], [0.0]]); b = np.array([[0.0], [-1.0], [-1.0], [1.0]])
    >>> cells_dp(q, b, np.array([0.0]), get_arithmetic("float"))   # w = -b
    (array([0.]), array([0.]))
    """
    # float64: a weight x q beyond the range is inf, and so is every path through
    # it; none of those is a minimiser (the diagonal path has q = 0 and a value in
    # [0, 1]), so the value and slope are right: oc(cm, 1e308) warned "overflow in
    # multiply" and returned the exact value rounded.  Exact and mp: numpy's flags
    # are the objects' own (quiet_objects).
    with quiet_objects(qD, bD), np.errstate(over="ignore"):
        return _cells_dp(qD, bD, x, ctx, columns=columns, slopes=slopes, below=below, qT=qT,
                         choices=choices)


def _cells_dp(qD, bD, x, ctx, *, columns, slopes, below, qT, choices):
    KK, n = qD.shape
    K = math.isqrt(KK)
    B = len(x)
    _, starts, cell_rows = diagonal_order(K)
    dtype = qD.dtype
    gather = isinstance(columns, np.ndarray)
    if not gather:  # the columns start, start + 1, ..., start + B - 1
        start = 0 if columns is None else columns.start or 0
        if columns is not None and columns.step not in (None, 1):
            raise ValueError(f"columns: a slice of step 1, got step {columns.step}")
        columns = slice(start, start + B)
    track = slopes or choices is not None
    # the weights of one diagonal (gathered penalties, then x q - b) and the gathered benefits
    wd, bd = np.empty((K, B), dtype=dtype), np.empty((K, B), dtype=dtype) if gather else None

    def weights(d):
        rows = slice(starts[d], starts[d + 1])
        w = wd[:starts[d + 1] - starts[d]]
        # gathered (mode="clip": unbuffered) or read in place
        q = np.take(qD[rows], columns, axis=1, out=w, mode="clip") if gather else qD[rows, columns]
        np.multiply(q, x, out=w)
        b = np.take(bD[rows], columns, axis=1, out=bd[:len(w)], mode="clip") if gather \
            else bD[rows, columns]
        return np.subtract(w, b, out=w)

    # +inf only where a neighbour outside the matrix is read (not whole buffers:
    # their fill would cost a pass): row 0 (r = -1) of every buffer, diagonal -1,
    # and on the way up the slot just past a diagonal's cells (column -1 for
    # the next one); on the way down every neighbour read is a cell
    prev2, prev1, cur = (np.empty((K + 2, B), dtype=dtype) for _ in range(3))
    prev2[:2] = prev1[0] = cur[0] = ctx.inf
    prev1[1] = 1 + weights(0)[0]
    if K > 1:
        prev1[2] = ctx.inf
    if track:
        # per cell: diagonal <= above, and the lesser of them <= left
        from_diag, keep = choices or choice_buffers(K, B)
        from_diag[0] = keep[0] = True
    for d in range(1, 2 * K - 1):
        lo, hi = max(0, d - K + 1), min(d, K - 1)
        cells = slice(lo * K + d - lo, hi * K + d - hi + 1, K - 1)  # (r, d - r), r = lo..hi
        # neighbours of cell (r, c): diagonal (r-1, c-1), above (r-1, c), left (r, c-1)
        diag, above, left = prev2[lo:hi + 1], prev1[lo:hi + 1], prev1[lo + 1:hi + 2]
        m = cur[lo + 1:hi + 2]
        if track:
            # np.minimum picks its first argument on ties (also for objects: i1 <= i2),
            # the one the masks choose
            fd, kp = from_diag[cells], keep[cells]
            np.less_equal(diag, above, out=fd)
            np.minimum(diag, above, out=m)
            np.less_equal(m, left, out=kp)
            np.minimum(m, left, out=m)
        else:
            np.minimum(diag, above, out=m)
            np.minimum(m, left, out=m)
        m += weights(d)
        if d < K - 1:
            cur[d + 2] = ctx.inf
        prev2, prev1, cur = prev1, cur, prev2
    value = prev1[K]
    if not slopes:
        return value, None
    if qT is None:
        qT = qD[cell_rows]
    lanes = np.arange(B) if below is None else np.flatnonzero(np.asarray(value < below, dtype=bool))
    slope = np.full(B, ctx.number(0), dtype=dtype)
    q_at = columns[lanes] if gather else lanes + columns.start
    sums = _path_sums if len(lanes) > _FEW_PATHS else _path_sums_one_by_one
    slope[lanes] = sums(from_diag, keep, lanes, qT, q_at)
    return value, slope


#: Up to this many paths are followed back one by one in Python (a
#: vectorised step costs a few numpy calls whatever the number of paths).
_FEW_PATHS = 8


def path_cells(from_diag, keep, col):
    """The flat cells ``r K + c`` of column ``col``'s optimal path, from
    ``(K-1, K-1)`` back to ``(0, 0)``, as the choices of :func:`cells_dp`
    (shape ``(K*K, B)``) lead: to the left neighbour unless ``keep``, else to
    the diagonal one if ``from_diag``, else to the one above.

    >>> import numpy as np
    >>> from exactfloor.arith import get_arithmetic
    >>> b = np.array([[0.0], [1.0], [-1.0], [0.0]]); q = np.zeros((4, 1))   # w = -b
    >>> choices = choice_buffers(2, 1)
    >>> _ = cells_dp(q, b, np.zeros(1), get_arithmetic("float"), slopes=False, choices=choices)
    >>> path_cells(*choices, 0)          # (1, 1) <- (0, 1) <- (0, 0)
    [3, 1, 0]
    """
    KK, B = from_diag.shape
    K = math.isqrt(KK)
    from_diag, keep = from_diag.reshape(-1), keep.reshape(-1)
    cells = [KK - 1]
    while cells[-1]:
        cell = cells[-1]
        if not keep[cell * B + col]:
            cells.append(cell - 1)  # from the left
        else:
            cells.append(cell - (K + 1 if from_diag[cell * B + col] else K))
    return cells


def _path_sums_one_by_one(from_diag, keep, columns, qT, q_columns):
    """:func:`_path_sums` for a few columns, each path followed in Python
    (:func:`path_cells`).

    The same additions in the same order (from cell ``(0, 0)`` on; the
    vectorised version's exact zeros past it are left out), so the same
    numbers.
    """
    n = qT.shape[1]
    q = qT.reshape(-1)
    out = []
    for col, q_col in zip(columns.tolist(), np.asarray(q_columns).tolist(), strict=True):
        terms = [q[cell * n + q_col] for cell in path_cells(from_diag, keep, col)]
        s = terms.pop()
        while terms:
            s = s + terms.pop()
        out.append(s)
    return out


def _path_sums(from_diag, keep, columns, qT, q_columns):
    """``sum_{path} q`` along the path the choices of :func:`cells_dp` lead back on.

    From cell ``(K-1, K-1)`` of each of ``columns`` the path steps back to
    the diagonal neighbour, the one above or the left one as ``from_diag``
    and ``keep`` (shape ``(K*K, B)``) say, until cell ``(0, 0)``; vectorised
    over the columns, ``2K - 2`` steps.  The penalties of column
    ``columns[j]`` are column ``q_columns[j]`` of ``qT`` (shape ``(K*K,
    n)``).  They are added from cell ``(0, 0)`` on, the order in which a sum
    carried along the recurrence adds them, so the slope is the same number.
    """
    KK, B = from_diag.shape
    n = qT.shape[1]
    K = math.isqrt(KK)
    from_diag, keep, q = (a.reshape(-1) for a in (from_diag, keep, qT))
    # the step back by code from_diag + 2 keep (0, 1: left; 2: above; 3: diagonal;
    # 4: at (0, 0), stay), in flat indices of the choices and of the penalties
    back = np.array([1, 1, K, K + 1, 0])
    back_at, back_q = back * B, back * n
    at, q_at = (KK - 1) * B + columns, (KK - 1) * n + q_columns
    terms = [q[q_at]]
    for i in range(2 * K - 2):
        code = from_diag[at].view(np.uint8) + 2 * keep[at].view(np.uint8)
        if i >= K - 1:  # a path has K - 1 to 2K - 2 steps
            code[at < B] = 4
        at = at - back_at[code]
        q_at = q_at - back_q[code]
        terms.append(q[q_at] if i < K - 1 else np.where(code < 4, q[q_at], 0))
    s = terms.pop()
    while terms:  # from cell (0, 0) on (the zeros past it first: exact)
        s = s + terms.pop()
    return s


# ---------------------------------------------------------------------------
# exact lines from a float recurrence
# ---------------------------------------------------------------------------
def value_table(w, border=np.inf):
    """Every cell's DP value in ``w``'s dtype (float64, or int64 with a large
    ``border``), in a table with a ``+inf`` (``border``) border.

    .. math:: T_{r,c} = \\tilde w_{r,c} \\oplus \\min(T_{r-1,c-1}, T_{r-1,c}, T_{r,c-1})

    ``w`` of shape ``(K*K, B)``, cell-major (row ``r K + c`` holds cell ``(r, c)``
    of every column).  Cell ``(r, c)`` is row
    ``(r + 1)(K + 1) + c + 1`` of the ``((K+1)**2, B)`` result (row 0 and
    column 0 of the padded grid are ``+inf``), so the three neighbours of
    every cell of an anti-diagonal are strided slices at offsets
    ``K + 2``, ``K + 1`` and ``1``.
    """
    KK, B = w.shape
    K = math.isqrt(KK)
    T = np.empty(((K + 1) * (K + 1), B), dtype=w.dtype)
    T[:K + 1] = border
    T[K + 1::K + 1] = border
    T[K + 2] = w[0]
    for d in range(1, 2 * K - 1):
        lo, hi = max(0, d - K + 1), min(d, K - 1)
        s, e = lo * K + d + K + 2, hi * K + d + K + 3
        m = T[s:e:K]
        np.minimum(T[s - K - 2:e - K - 2:K], T[s - K - 1:e - K - 1:K], out=m)
        np.minimum(m, T[s - 1:e - 1:K], out=m)
        m += w[lo * K + d - lo:hi * K + d - hi + 1:K - 1]
    return T


#: float64 unit roundoff
_U = FLOAT64_UNIT_ROUNDOFF


def certified_lines(nI, qI, nf, qf, points):
    r"""Exact minimising lines ``(a, s)`` of integer weights at rational points.

    The cost of a path at ``t`` is ``sum_{path} (t q - n)``.  One matrix per
    point ``j``: ``nI[j]``, ``qI[j]`` are its ``L n`` and ``L q`` as lists of
    ``K*K`` Python integers (``L`` a common denominator of that matrix),
    column ``j`` of ``nf``, ``qf`` (shape ``(K*K, B)``) float64
    approximations of its ``n`` and ``q`` within a relative ``4u`` (``u =
    2**-53``).  For each point
    ``t = p / r`` (Fraction or int) the recurrence runs in float64
    (:func:`value_table`, one vectorised call for all points); then a path of
    least exact cost is followed back from cell ``(K-1, K-1)``.  A float
    value ``T`` of a cell is within

    .. math:: E = (4K + 20)\,u\,\big(1 + \sum_{r,c} (t q_{r,c} + n_{r,c})\big)

    of the exact least cost ``V`` of that cell (the weights are within
    ``11 u (t q + n)``, each of at most ``2K - 1`` additions rounds by ``u``
    of a partial sum, factor 2 to spare), so a predecessor whose ``T`` is
    above the smallest by more than ``2E`` is certainly not optimal.  Where
    one predecessor remains at every cell of the way back (found for all
    points at once, vectorised) the path is certified; otherwise the exact
    costs ``V`` of the remaining ones are computed in integers
    (``r L V = sum (p qI - r nI)`` along their own certified paths,
    memoised) and the least is taken (ties: diagonal, above, left).  When
    every path cost ``r L V`` is certainly below ``2**60`` in magnitude (small
    counts: the common case), the recurrence runs in exact int64 arithmetic
    instead, with no rounding to certify (:func:`_int64_lines`).  Returns
    the lines of the paths found: ``a = -sum nI`` and ``s = sum qI``, lists of
    Python integers (the path's cost times ``L`` is ``a + s t``).

    >>> import numpy as np
    >>> nI = [[2, 0, 0, 2], [0, 0, 0, 3]]; qI = [[0, 1, 1, 0]] * 2     # L = 1
    >>> certified_lines(nI, qI, np.array(nI, float).T, np.array(qI, float).T, [0, 5])
    ([-4, -3], [0, 0])
    """
    ts = list(points)
    B = len(ts)
    nf, qf = np.asarray(nf, dtype=float), np.asarray(qf, dtype=float)
    KK = len(nf)
    K = math.isqrt(KK)
    if B == 0:
        return [], []
    lines = _int64_lines(nI, qI, ts, K)
    if lines is not None:
        return lines
    tf = np.array([float(t) for t in ts])
    T = value_table(qf * tf - nf)
    slack = 2 * (4 * K + 20) * _U * (1 + tf * qf.sum(axis=0) + nf.sum(axis=0)) * (1 + FLOAT_SCREEN)
    # the predecessors of every cell (r, c) in the padded grid: diagonal, above, left
    G = T.reshape(K + 1, K + 1, B)
    diag, above, left = G[:-1, :-1], G[:-1, 1:], G[1:, :-1]
    limit = np.minimum(np.minimum(diag, above), left) + slack
    near = [v <= limit for v in (diag, above, left)]
    choice = np.where(near[0], 0, np.where(near[1], 1, 2)).reshape(KK, B)
    several = (near[0].astype(np.int8) + near[1] + near[2] > 1).reshape(KK, B)
    path, undecided = _follow(choice, K, several)
    path = path.T.tolist()
    out_a, out_s = [], []
    for j, t in enumerate(ts):
        if undecided[j]:
            a, s = _certified_path(T[:, j].tolist(), choice[:, j].tolist(), several[:, j].tolist(),
                                   K, slack[j], nI[j], qI[j], t)
        else:
            cells = path[j][:path[j].index(0) + 1]
            n, q = nI[j], qI[j]
            a, s = -sum(n[c] for c in cells), sum(q[c] for c in cells)
        out_a.append(a)
        out_s.append(s)
    return out_a, out_s


def _follow(choice, K, several=None):
    """The paths back from cell ``(K-1, K-1)`` along ``choice`` (0 diagonal, 1
    above, 2 left; shape ``(K*K, B)``), every point at once: ``(cells, undecided)``,
    ``cells`` of shape ``(2K - 1, B)`` (cell 0 repeated once reached),
    ``undecided`` where a cell of the way back has ``several`` near-least
    predecessors."""
    KK, B = choice.shape
    every = np.arange(B)
    cell = np.full(B, KK - 1)
    undecided = np.zeros(B, dtype=bool)
    steps = np.array([K + 1, K, 1])
    path = [cell]
    for _ in range(2 * K - 2):
        moving = cell > 0
        if several is not None:
            undecided |= several[cell, every] & moving
        cell = cell - steps[choice[cell, every]] * moving
        path.append(cell)
    return np.array(path), undecided


#: int64 DP values stay below this (the border is 2**62, far above any cost)
_INT_BOUND = 2.0 ** 60
#: :func:`least_lines_int64` runs on slices of columns whose table has at most this
#: many cells (4 MiB of int64; 20,971 columns of 4 x 4 matrices, 35 of 120 x 120)
_INT64_CELLS = 1 << 19


def _int64_lines(nI, qI, ts, K):
    """:func:`certified_lines` in exact int64 arithmetic, when it fits: ``None``
    otherwise (a weight or a point beyond int64, or a path cost ``r L V`` that
    might reach ``2**60``).

    At ``t = p / r`` the cost of a path times ``r L`` is ``sum (p qI - r nI)``:
    integers, so the recurrence is exact and the least predecessor is chosen
    with no tolerance (ties: diagonal, above, left, as :func:`_certified_path`).
    """
    try:
        N = np.array(nI, dtype=np.int64)
        Q = np.array(qI, dtype=np.int64)
        P = np.array([t.numerator for t in ts], dtype=np.int64)  # ints and Fractions
        R = np.array([t.denominator for t in ts], dtype=np.int64)
    except (OverflowError, AttributeError):  # beyond int64, or not a rational (a float)
        return None
    # |cost| <= (2K - 1) (|p| max|qI| + r max|nI|), bounded in floats with room to spare
    size = (np.abs(P) * np.abs(Q).max(axis=1).astype(float)
            + R * np.abs(N).max(axis=1).astype(float)) * (2 * K - 1)
    if not (size < _INT_BOUND).all():
        return None
    A, S = least_lines_int64(np.ascontiguousarray(N.T), np.ascontiguousarray(Q.T), P, R)
    return (-A).tolist(), S.tolist()


def least_lines_int64(NT, QT, P, R):
    """The least path at ``t = P / R`` of each column, in exact int64 arithmetic:
    ``(A, S)``, the sums of ``NT`` and of ``QT`` over its cells.

    ``NT``, ``QT`` of shape ``(K*K, B)``, cell-major (row ``r K + c`` holds
    cell ``(r, c)`` of every column), ``P``, ``R > 0`` of shape ``(B,)``,
    all int64; the caller guarantees that every path cost ``sum (P Q - R
    N)`` is below ``2**60`` in magnitude.  The cost of a path times ``R`` is
    ``P S - R A``; the recurrence (:func:`value_table`) is exact, and the
    way back from cell ``(K-1, K-1)`` takes the least predecessor with no
    tolerance (ties: diagonal, above, left, as :func:`_certified_path`),
    summing the weights of the cells it passes.

    >>> NT = np.array([[2, 0, 0, 2]]).T; QT = np.array([[0, 1, 1, 0]]).T
    >>> least_lines_int64(NT, QT, np.array([0]), np.array([1]))
    (array([4]), array([0]))
    """
    KK, B = NT.shape
    K = math.isqrt(KK)
    width = max(1, _INT64_CELLS // (K + 1) ** 2)
    if B > width:  # in slices of columns whose table stays small (in the cache)
        parts = [least_lines_int64(NT[:, c:c + width], QT[:, c:c + width], P[c:c + width],
                                   R[c:c + width]) for c in range(0, B, width)]
        return tuple(np.concatenate(v) for v in zip(*parts, strict=True))
    T = value_table(P * QT - R * NT, border=np.int64(2**62))
    # flat positions (row times B plus column) of each column's current cell in NT,
    # QT and in T, where cell (r, c) is row (r + 1)(K + 1) + c + 1
    every = np.arange(B)
    cell = (KK - 1) * B + every
    at = (KK + 2 * K) * B + every
    flatT, flatN, flatQ = T.reshape(-1), np.ravel(NT), np.ravel(QT)
    A, S = NT[KK - 1].copy(), QT[KK - 1].copy()
    cell_steps, at_steps = np.array([K + 1, K, 1]) * B, np.array([K + 2, K + 1, 1]) * B
    for _ in range(2 * K - 2):
        moving = cell >= B  # not yet at cell (0, 0)
        diag, above, left = (flatT.take(at - k * B) for k in (K + 2, K + 1, 1))
        step = np.where(diag <= np.minimum(above, left), 0, np.where(above <= left, 1, 2))
        cell -= cell_steps.take(step) * moving
        at -= at_steps.take(step) * moving
        A += flatN.take(cell) * moving
        S += flatQ.take(cell) * moving
    return A, S


def _certified_path(col, choice, several, K, slack, nI, qI, t):
    """:func:`certified_lines` for one point: the column ``col`` of the table, the
    first near-least predecessor of every cell (``choice``) and whether it has
    several (``several``)."""
    p, r = (t.numerator, t.denominator) if hasattr(t, "denominator") else (int(t), 1)
    P = K + 1
    steps = (K + 1, K, 1)

    def cands(cell):
        """Predecessors of ``cell`` that may be optimal, in the tie order."""
        if not several[cell]:
            return [cell - steps[choice[cell]]]
        i, c = divmod(cell, K)
        at = (i + 1) * P + c + 1
        preds = []
        if i and c:
            preds.append((cell - K - 1, col[at - P - 1]))
        if i:
            preds.append((cell - K, col[at - P]))
        if c:
            preds.append((cell - 1, col[at - 1]))
        least = min(v for _, v in preds)
        return [pc for pc, v in preds if v <= least + slack]

    memo = {}

    def exact(cell):
        """The exact least cost at ``cell``, times ``r L`` (memoised, no recursion)."""
        stack = [cell]
        while stack:
            top = stack[-1]
            if top in memo:
                stack.pop()
                continue
            total, z = 0, top
            while True:
                if z in memo:
                    base = memo[z]
                    break
                w = p * qI[z] - r * nI[z]
                if z == 0:
                    base = memo[0] = w
                    break
                cs = cands(z)
                if len(cs) == 1:
                    total += w
                    z = cs[0]
                    continue
                missing = [c for c in cs if c not in memo]
                if missing:
                    stack.extend(missing)
                    base = None
                    break
                base = memo[z] = w + min(memo[c] for c in cs)
                break
            if base is not None:
                memo[top] = total + base
                stack.pop()
        return memo[cell]

    cell = KK = K * K - 1
    a, s = -nI[KK], qI[KK]
    while cell:
        cs = cands(cell)
        if len(cs) > 1:
            values = [exact(c) for c in cs]
            cs = [cs[values.index(min(values))]]
        cell = cs[0]
        a -= nI[cell]
        s += qI[cell]
    return a, s
