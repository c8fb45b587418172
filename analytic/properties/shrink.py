r"""Counterexample shrinking: the smallest matrix a predicate holds on.

"Smallest" is the order of :func:`analytic.properties.generators.order_key`: fewest
samples ``N`` first, then fewest classes ``K``, then lexicographic order of
the flattened matrix,

.. math:: A \prec B \iff (N_A, K_A, \mathrm{vec}\,A) <_{\mathrm{lex}} (N_B, K_B, \mathrm{vec}\,B).

:func:`shrink` first shrinks greedily (remove one sample, or one class with
its row and column, while the predicate stays true), then walks every matrix
below the greedy result in that order (:func:`analytic.properties.generators.all_matrices`)
until the first one the predicate holds on.  When the walk completes within
the budget, the result is the minimum over all matrices with ``K <= max_k``
(``how`` says "exhaustive"); otherwise it is the greedy result ("greedy"),
also when ``max_k`` is below the greedy result's ``K`` and the walk found
nothing (the classes between were not searched).  The greedy phase removes
one sample per step, so it has a budget of predicate calls
(:data:`GREEDY_BUDGET`); when that runs out ``how`` starts with "greedy,
unfinished" and no walk is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from numeric._validation import check_counts, positive_integer

from .generators import all_matrices, count, order_key

__all__ = ["Shrunk", "shrink", "greedy_shrink", "GREEDY_BUDGET"]


@dataclass(frozen=True)
class Shrunk:
    """What :func:`shrink` found.

    Parameters
    ----------
    matrix : numpy.ndarray
        The smallest counterexample found.
    how : str
        ``"exhaustive: ..."`` (proved minimal among the matrices with
        ``K <= max_k``), ``"greedy: ..."`` (no single sample or class can be
        removed; not proved minimal) or ``"greedy, unfinished: ..."`` (the
        greedy budget ran out first).
    calls : int
        Number of predicate calls.

    Examples
    --------
    >>> s = shrink(lambda a: len(a) > 1 and a[0, -1] > 0, [[2, 0, 3], [1, 1, 0], [0, 0, 4]])
    >>> s.matrix.tolist(), s.how.split(":")[0]
    ([[0, 1], [0, 0]], 'exhaustive')
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


def _start_matrix(start):
    """``start`` as an ``int64`` square matrix of counts, else ValueError."""
    try:
        a = np.asarray(start) if not isinstance(start, np.ndarray) else start
    except ValueError as exc:  # ragged rows: numpy's message does not say what it read
        raise ValueError(f"the start matrix must be a K x K array of counts: {exc}") from None
    if a.ndim != 2:
        raise ValueError(f"the start matrix must be 2-D (one K x K matrix), got shape {a.shape}")
    return check_counts(a, what="the start matrix")


def _ask(predicate, m):
    """``predicate(m)``, which must be a bool (Python or numpy)."""
    v = predicate(m)
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"the predicate must return a bool (True on a counterexample), got "
                        f"{v!r} of type {type(v).__name__} on {m.tolist()}")
    return bool(v)


#: predicate calls of the greedy phase by default: each step removes one sample
#: or one class, so a start matrix with large counts is shrunk only partly
GREEDY_BUDGET = 10000


def _greedy(predicate, m, budget):
    calls = 0
    while True:
        for s in sorted(_smaller_neighbours(m), key=order_key):
            if calls >= budget:
                return m, calls, False
            calls += 1
            if _ask(predicate, s):
                m = s
                break
        else:
            return m, calls, True


def greedy_shrink(predicate: Callable[[np.ndarray], bool], start, *,
                  budget: int = GREEDY_BUDGET) -> tuple[np.ndarray, int]:
    """Repeatedly move to the smallest (:func:`order_key`) neighbour that is still a counterexample.

    At most ``budget`` predicate calls (:data:`GREEDY_BUDGET`): the matrix
    reached then is returned (:func:`shrink` says when the budget ran out).

    Parameters
    ----------
    predicate : callable
        Takes a matrix, returns a bool (a TypeError otherwise): whether it is a counterexample.
    start : array_like
        A counterexample: non-negative integer counts (a ValueError otherwise).
    budget : int, default :data:`GREEDY_BUDGET`
        The most predicate calls.

    Returns
    -------
    tuple
        ``(matrix, predicate calls)``: the ``int64`` matrix reached and the calls made.

    Examples
    --------
    >>> m, _ = greedy_shrink(lambda a: len(a) > 1 and a[0, -1] > 0, [[2, 0, 3], [1, 1, 0], [0, 0, 4]])
    >>> m.tolist()
    [[0, 1], [0, 0]]
    """
    budget = positive_integer(budget, "budget")
    m, calls, _ = _greedy(predicate, _start_matrix(start), budget)
    return m, calls


#: (K, N) blocks :func:`_walk_size` adds up before it calls a walk too large to count
_MAX_BLOCKS = 10**6


def _walk_size(kmax, gN, limit):
    """The number of matrices with ``K <= kmax`` and ``N <= gN``; ``None`` once it
    exceeds ``limit`` after more than 10,000 terms, or after :data:`_MAX_BLOCKS`
    terms (``gN`` and ``kmax`` may be huge: ``max_k=10**30`` summed for ever)."""
    size, terms = 0, 0
    for N in range(1, gN + 1):
        for K in range(1, kmax + 1):
            size += count(K, N)
            terms += 1
            if size > limit and terms > 10_000 or terms > _MAX_BLOCKS:
                return None
    return size


def shrink(predicate: Callable[[np.ndarray], bool], start, *, max_k: int | None = None,
           budget: int = 20000, greedy_budget: int = GREEDY_BUDGET) -> Shrunk:
    """The smallest matrix (fewest samples, then classes, then lexicographic)
    on which ``predicate`` is true, searched below ``start``.

    Parameters
    ----------
    predicate : callable
        ``predicate(matrix) -> bool`` (Python or numpy bool); true on a
        counterexample.  Any other return value (NaN, a string, an array) is a
        TypeError naming it.
    start : array_like
        A counterexample (``predicate(start)`` must be true): a square 2-D
        matrix of non-negative integer counts, else a ValueError.
    max_k : int, optional
        Largest number of classes of the exhaustive walk (default: that of
        the greedy result).
    budget : int
        Largest number of matrices the exhaustive walk may visit.
    greedy_budget : int
        Largest number of predicate calls of the greedy phase
        (:data:`GREEDY_BUDGET`); when it runs out, the result is the matrix
        reached and ``how`` says so.

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
    start = _start_matrix(start)
    budget = positive_integer(budget, "budget")
    greedy_budget = positive_integer(greedy_budget, "greedy_budget")
    if max_k is not None:
        max_k = positive_integer(max_k, "max_k")
    if not _ask(predicate, start):
        raise ValueError("the predicate is false on the start matrix: nothing to shrink")
    g, calls, done = _greedy(predicate, start, greedy_budget)
    calls += 1
    gN, gK = int(g.sum()), g.shape[0]
    if not done:
        return Shrunk(g, f"greedy, unfinished: the greedy budget of {greedy_budget} predicate "
                         f"calls ran out (N = {gN} samples left); no exhaustive walk", calls)
    kmax = gK if max_k is None else max_k
    size = _walk_size(kmax, gN, budget)
    if size is None and budget >= _MAX_BLOCKS:
        return Shrunk(g, f"greedy: no sample or class of the result can be removed; the "
                         f"exhaustive walk below it (K <= {kmax}, N <= {gN}) is too large to "
                         f"count", calls)
    if size is None or size > budget:
        return Shrunk(g, f"greedy: no sample or class of the result can be removed; the "
                         f"exhaustive walk below it ({size or f'more than {budget}'} matrices, "
                         f"K <= {kmax}) exceeds the budget {budget}", calls)
    gk = order_key(g)
    for m in all_matrices(kmax, gN):
        if order_key(m) >= gk:
            break
        calls += 1
        if _ask(predicate, m):
            return Shrunk(m, f"exhaustive: the first counterexample in the order "
                             f"(N, K, lexicographic) over N <= {gN}, K <= {kmax}", calls)
    if kmax < gK:
        return Shrunk(g, f"greedy: no sample or class of the result can be removed, and the "
                         f"exhaustive walk found no counterexample with K <= {kmax}, N <= {gN}; "
                         f"matrices with {kmax} < K < {gK} classes were not searched", calls)
    return Shrunk(g, f"exhaustive: no smaller counterexample in the order (N, K, "
                     f"lexicographic) over N <= {gN}, K <= {kmax}", calls)
