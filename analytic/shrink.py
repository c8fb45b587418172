r"""Counterexample shrinking: the smallest matrix a predicate holds on.

"Smallest" is the order of :func:`analytic.generators.order_key`: fewest
samples ``N`` first, then fewest classes ``K``, then lexicographic order of
the flattened matrix,

.. math:: A \prec B \iff (N_A, K_A, \mathrm{vec}\,A) <_{\mathrm{lex}} (N_B, K_B, \mathrm{vec}\,B).

:func:`shrink` first shrinks greedily (remove one sample, or one class with
its row and column, while the predicate stays true), then walks every matrix
below the greedy result in that order (:func:`analytic.generators.all_matrices`)
until the first one the predicate holds on.  When the walk completes within
the budget, the result is the minimum over all matrices with ``K <= max_k``
(``how`` says "exhaustive"); otherwise it is the greedy result ("greedy").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .generators import all_matrices, count, order_key

__all__ = ["Shrunk", "shrink", "greedy_shrink"]


@dataclass(frozen=True)
class Shrunk:
    """What :func:`shrink` found.

    Attributes
    ----------
    matrix : numpy.ndarray
        The smallest counterexample found.
    how : str
        ``"exhaustive: ..."`` (proved minimal for ``K <= max_k``) or
        ``"greedy: ..."`` (no single sample or class can be removed).
    calls : int
        Number of predicate calls.
    """

    matrix: np.ndarray
    how: str
    calls: int


def _smaller_neighbours(m):
    """One sample removed from a cell, or one class (row and column) removed."""
    K = m.shape[0]
    for i in range(K):
        for j in range(K):
            if m[i, j]:
                s = m.copy()
                s[i, j] -= 1
                if s.sum():
                    yield s
    if K > 1:
        for c in range(K):
            s = np.delete(np.delete(m, c, axis=0), c, axis=1)
            if s.sum():
                yield s


def greedy_shrink(predicate: Callable[[np.ndarray], bool], start) -> tuple[np.ndarray, int]:
    """Repeatedly move to the smallest (:func:`order_key`) neighbour that is
    still a counterexample; returns ``(matrix, predicate calls)``.

    >>> m, _ = greedy_shrink(lambda a: len(a) > 1 and a[0, -1] > 0, [[2, 0, 3], [1, 1, 0], [0, 0, 4]])
    >>> m.tolist()
    [[0, 1], [0, 0]]
    """
    m = np.array(start, dtype=np.int64)
    calls = 0
    while True:
        for s in sorted(_smaller_neighbours(m), key=order_key):
            calls += 1
            if predicate(s):
                m = s
                break
        else:
            return m, calls


def shrink(predicate: Callable[[np.ndarray], bool], start, *, max_k: int | None = None,
           budget: int = 20000) -> Shrunk:
    """The smallest matrix (fewest samples, then classes, then lexicographic)
    on which ``predicate`` is true, searched below ``start``.

    Parameters
    ----------
    predicate : callable
        ``predicate(matrix) -> bool``; true on a counterexample.
    start : array_like
        A counterexample (``predicate(start)`` must be true).
    max_k : int, optional
        Largest number of classes of the exhaustive walk (default: that of
        the greedy result).
    budget : int
        Largest number of matrices the exhaustive walk may visit.

    Returns
    -------
    Shrunk

    Examples
    --------
    A predicate true when some sample sits two classes off the diagonal:

    >>> r = shrink(lambda a: any(a[i, j] for i in range(len(a)) for j in range(len(a))
    ...                          if abs(i - j) >= 2), [[3, 0, 2], [0, 1, 0], [1, 0, 0]])
    >>> r.matrix.tolist(), r.how.split(":")[0]
    ([[0, 0, 0], [0, 0, 0], [1, 0, 0]], 'exhaustive')
    """
    start = np.array(start, dtype=np.int64)
    if not predicate(start):
        raise ValueError("the predicate is false on the start matrix: nothing to shrink")
    g, calls = greedy_shrink(predicate, start)
    calls += 1
    gN, gK = int(g.sum()), g.shape[0]
    kmax = gK if max_k is None else max(max_k, 1)
    size = sum(count(K, N) for N in range(1, gN + 1) for K in range(1, kmax + 1))
    if size > budget:
        return Shrunk(g, f"greedy: no sample or class of the result can be removed; the "
                         f"exhaustive walk below it ({size} matrices, K <= {kmax}) exceeds "
                         f"the budget {budget}", calls)
    gk = order_key(g)
    for m in all_matrices(kmax, gN):
        if order_key(m) >= gk:
            break
        calls += 1
        if predicate(m):
            return Shrunk(m, f"exhaustive: the first counterexample in the order "
                             f"(N, K, lexicographic) over N <= {gN}, K <= {kmax}", calls)
    return Shrunk(g, f"exhaustive: no smaller counterexample in the order (N, K, "
                     f"lexicographic) over N <= {gN}, K <= {kmax}", calls)
