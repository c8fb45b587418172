"""The dynamic programme over consistent paths (cardoso2011 §3.4), once for every arithmetic.

:func:`path_dp` minimises ``1 + sum_{path} (beta q - b)`` over the
monotone paths from cell (1, 1) to cell (K, K), vectorised over a stack, and
returns the penalty ``sum_{path} q`` of a minimiser.  :mod:`numeric.paths`
evaluates OC and UOC with it; :mod:`numeric.envelope` searches the envelope
over beta with it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["path_dp", "cells_dp", "INT_SENTINEL"]

#: "+inf" of an int64 dynamic programme; values must stay below 2**61.
INT_SENTINEL = 1 << 62


def path_dp(b, q, beta, ctx, *, slopes=True, trace=None, start=1):
    """Minimum path cost at ``beta`` and the penalty (slope) of a minimiser.

    .. math:: W_{r,c} = w_{r,c} + \\min(W_{r-1,c-1}, W_{r-1,c}, W_{r,c-1}),
              \\quad w = \\beta q - b,\\quad W_{1,1} = \\text{start} + w_{1,1}

    cardoso2011 §3.4 (``start = 1``).  ``b``, ``q`` of shape ``(B, K, K)``
    and ``beta`` of shape ``(B,)`` hold float64, int64 or ``ctx`` numbers
    (object arrays).

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
    left.  Returns ``(value, slope)``; ``slope`` is ``None`` when
    ``slopes=False``.

    Examples
    --------
    >>> import numpy as np
    >>> from numeric._arith import get_arithmetic
    >>> b = np.array([[[0.5, 0.0], [0.0, 0.5]]]); q = np.array([[[0.0, 1.0], [1.0, 0.0]]])
    >>> path_dp(b, q, np.array([0.25]), get_arithmetic("float"))
    (array([0.]), array([0.]))
    """
    B, K, _ = b.shape
    qT = np.moveaxis(q, 0, -1).reshape(K * K, B)
    # w = beta q - b (the same IEEE result as -b + beta q)
    w = np.empty((K, K, B), dtype=b.dtype)
    np.multiply(np.moveaxis(q, 0, -1), beta, out=w)
    np.subtract(w, np.moveaxis(b, 0, -1), out=w)
    return cells_dp(w.reshape(K * K, B), qT, ctx, slopes=slopes, trace=trace, start=start)


def cells_dp(w, qT, ctx, *, slopes=True, trace=None, start=1):
    """:func:`path_dp` on cell-major arrays: ``w`` and ``qT`` of shape ``(K*K, B)``.

    Row ``r K + c`` holds cell ``(r, c)`` of every matrix of the stack.  In
    float64 with ``slopes`` and no ``trace``, value and penalty travel as one
    complex number ``W + i S``: numpy orders complex numbers by real part,
    then imaginary part, so ``np.minimum`` picks the smallest value and, among
    exactly tied values, the smallest penalty, in the passes of the value-only
    recurrence (the values are the same IEEE numbers).

    >>> import numpy as np
    >>> from numeric._arith import get_arithmetic
    >>> w = np.array([[0.0], [1.0], [1.0], [-1.0]]); q = np.array([[0.0], [1.0], [1.0], [0.0]])
    >>> cells_dp(w, q, get_arithmetic("float"))
    (array([0.]), array([0.]))
    """
    KK, B = w.shape
    K = int(round(KK ** 0.5))
    dtype = w.dtype
    packed = slopes and trace is None and dtype == np.float64
    if packed:
        z = np.empty((KK, B), dtype=np.complex128)
        z.real, z.imag = w, qT
        w, dtype, slopes = z, z.dtype, False
    track = slopes or trace is not None
    inf = INT_SENTINEL if dtype.kind == "i" else (np.inf if dtype.kind in "fc" else ctx.inf)
    # entries outside the cells written so far stay +inf: on the way up the
    # written ranges only grow; on the way down every neighbour read is a cell
    prev2, prev1, cur = (np.full((K + 2, B), inf, dtype=dtype) for _ in range(3))
    prev1[1] = start + w[0]
    if slopes:
        zero = 0 if dtype.kind == "i" else ctx.number(0)
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
    if packed:
        return prev1[K].real.copy(), prev1[K].imag.copy()
    return prev1[K], (s1[K] if slopes else None)
