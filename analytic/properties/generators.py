r"""Confusion-matrix generators for counterexample searches: exhaustive and random.

Every matrix is a ``K x K`` ``int64`` count matrix (rows = true class,
columns = predicted), with total ``N`` samples.  :func:`exhaustive` lists all
of them for one ``(K, N)``; :func:`all_matrices` walks every size in the
*shrinking order* of :func:`analytic.properties.shrink.shrink` (smallest ``N`` first,
then smallest ``K``, then lexicographic order of the flattened matrix), so the
first matrix of that walk satisfying a predicate is the minimal one;
:func:`random_matrices` draws reproducible random matrices.

The number of ``K x K`` matrices with total ``N`` is the number of weak
compositions of ``N`` into ``K^2`` parts,

.. math:: \#\{A \in \mathbb N^{K\times K} : \textstyle\sum A = N\}
          = \binom{N + K^2 - 1}{K^2 - 1}

(stars and bars; Feller, *An Introduction to Probability Theory*, vol. 1,
§II.5).

>>> [m.tolist() for m in exhaustive(2, 1)]
[[[0, 0], [0, 1]], [[0, 0], [1, 0]], [[0, 1], [0, 0]], [[1, 0], [0, 0]]]
>>> count(3, 4)
495
"""

from __future__ import annotations

import itertools
import math
from typing import Iterable, Iterator

import numpy as np

__all__ = ["compositions", "exhaustive", "all_matrices", "random_matrices", "count",
           "order_key", "label_vectors", "insert_empty_class", "step_toward_diagonal",
           "matrix_text"]


def compositions(n: int, r: int):
    """Every way to spread ``n`` samples over ``r`` cells (stars and bars).

    All non-negative integer lists of length ``r`` summing to ``n``, in
    lexicographic order (the order used by the exhaustive searches of
    :mod:`analytic.ledger.checks`).

    Parameters
    ----------
    n : int
        The samples.
    r : int
        The cells.

    Yields
    ------
    list of int
        One composition.

    Examples
    --------
    >>> list(compositions(2, 2))
    [[0, 2], [1, 1], [2, 0]]
    """
    for bars in itertools.combinations(range(n + r - 1), r - 1):
        prev, row = -1, []
        for b in bars + (n + r - 1,):
            row.append(b - prev - 1)
            prev = b
        yield row


def _check_size(K, N):
    if int(K) != K or K < 1:
        raise ValueError(f"K must be a positive integer, got {K!r}")
    if int(N) != N or N < 0:
        raise ValueError(f"N must be a non-negative integer, got {N!r}")


def _free_cells(K, zero_rows, zero_cols):
    zr, zc = set(zero_rows), set(zero_cols)
    for i in zr | zc:
        if not 0 <= i < K:
            raise ValueError(f"zero row/column index {i} is outside 0..{K - 1}")
    return [(i, j) for i in range(K) for j in range(K) if i not in zr and j not in zc]


def exhaustive(K: int, N: int, *, zero_rows: Iterable[int] = (), zero_cols: Iterable[int] = ()
               ) -> Iterator[np.ndarray]:
    """Every ``K x K`` count matrix with total ``N`` (rows ``zero_rows`` and
    columns ``zero_cols`` held at zero), in lexicographic order of the
    flattened matrix.

    Parameters
    ----------
    K, N : int
        Number of classes and of samples.
    zero_rows, zero_cols : iterable of int
        Classes with no true sample (empty rows) / never predicted (empty columns).

    Examples
    --------
    >>> [m.tolist() for m in exhaustive(2, 2, zero_rows=[1])]
    [[[0, 2], [0, 0]], [[1, 1], [0, 0]], [[2, 0], [0, 0]]]
    """
    _check_size(K, N)
    cells = _free_cells(K, zero_rows, zero_cols)
    if not cells:
        if N == 0:
            yield np.zeros((K, K), dtype=np.int64)
        return
    # compositions come in lexicographic order of the flattened matrix
    for flat in compositions(int(N), len(cells)):
        m = np.zeros((K, K), dtype=np.int64)
        for (i, j), v in zip(cells, flat, strict=True):
            m[i, j] = v
        yield m


def count(K: int, N: int) -> int:
    """The number of matrices :func:`exhaustive` lists (no zero rows or columns imposed).

    Parameters
    ----------
    K, N : int
        The number of classes and of samples.

    Returns
    -------
    int
        ``math.comb(N + K * K - 1, K * K - 1)`` (stars and bars).

    Examples
    --------
    >>> count(2, 2) == len(list(exhaustive(2, 2)))
    True
    >>> count(4, 8), count(5, 5)   # C(23, 15), C(29, 24)
    (490314, 118755)
    """
    _check_size(K, N)
    return math.comb(N + K * K - 1, K * K - 1)


def order_key(m) -> tuple:
    """The shrinking order: ``(N, K, flattened matrix)``; smaller is smaller.

    Parameters
    ----------
    m : array_like
        A count matrix.

    Returns
    -------
    tuple
        ``(N, K, the flattened counts)``, Python ints.

    Examples
    --------
    >>> order_key([[1, 0], [0, 1]])
    (2, 2, (1, 0, 0, 1))
    """
    a = np.asarray(m, dtype=np.int64)
    return int(a.sum()), int(a.shape[0]), tuple(int(x) for x in a.ravel())


def all_matrices(max_k: int, max_n: int, *, min_k: int = 1, min_n: int = 1
                 ) -> Iterator[np.ndarray]:
    """Every matrix with ``min_k <= K <= max_k`` and ``min_n <= N <= max_n``,
    in increasing :func:`order_key` (``N``, then ``K``, then lexicographic).

    Parameters
    ----------
    max_k, max_n : int
        The largest number of classes and of samples.
    min_k, min_n : int, default 1
        The smallest.

    Yields
    ------
    numpy.ndarray
        ``int64`` count matrices.

    Examples
    --------
    >>> [order_key(m) for m in all_matrices(2, 1)][:2]
    [(1, 1, (1,)), (1, 2, (0, 0, 0, 1))]
    """
    for N in range(min_n, max_n + 1):
        for K in range(min_k, max_k + 1):
            yield from exhaustive(K, N)


def _size_range(name, v):
    """``v`` as an inclusive ``(lo, hi)`` range: an int is ``(v, v)``."""
    if isinstance(v, (tuple, list)):
        if len(v) != 2:
            raise ValueError(f"{name} must be an integer or a (lo, hi) range, got {v!r}")
        lo, hi = v
        _check_size(*((lo, 0) if name == "K" else (1, lo)))
        _check_size(*((hi, 0) if name == "K" else (1, hi)))
        if lo > hi:
            raise ValueError(f"{name} range {v!r} is empty (lo > hi)")
        return int(lo), int(hi)
    return None


def random_matrices(K, N, n: int, seed: int = 0, *, zero_rows: Iterable[int] = (),
                    zero_cols: Iterable[int] = (), diagonal: bool = False) -> list[np.ndarray]:
    """``n`` random ``K x K`` matrices with total ``N``, reproducible from ``seed``.

    Each sample falls in a cell drawn uniformly among the allowed cells (a
    multinomial draw); ``zero_rows``/``zero_cols`` stay empty; ``diagonal=True``
    draws diagonal matrices only (a perfect classifier's, the "gold" of
    Amigó et al. 2020's class-imbalance property).

    Parameters
    ----------
    K, N : int or (lo, hi)
        The number of classes and of samples; a ``(lo, hi)`` pair draws each
        matrix's ``K`` (then ``N``) uniformly from ``lo..hi`` inclusive (the
        claims' searches over sizes).  With two integers the stream of a seed
        is the multinomial draws alone.
    n : int
        How many matrices.
    seed : int
        Seed of :func:`numpy.random.default_rng`.
    zero_rows, zero_cols : iterable of int
        Classes held empty (checked against every drawn ``K``).
    diagonal : bool
        Diagonal matrices only.

    Returns
    -------
    list of numpy.ndarray
        ``int64`` count matrices.

    Examples
    --------
    >>> ms = random_matrices(3, 5, 2, seed=1, zero_rows=[0])
    >>> [int(m.sum()) for m in ms], [int(m[0].sum()) for m in ms]
    ([5, 5], [0, 0])
    >>> ms = random_matrices((2, 4), (1, 9), 50, seed=0)
    >>> sorted({m.shape[0] for m in ms}), all(1 <= m.sum() <= 9 for m in ms)
    ([2, 3, 4], True)
    """
    k_range, n_range = _size_range("K", K), _size_range("N", N)
    if k_range is None:
        _check_size(K, 0)
    if n_range is None:
        _check_size(1, N)
    zero_rows, zero_cols = tuple(zero_rows), tuple(zero_cols)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = K if k_range is None else int(rng.integers(k_range[0], k_range[1] + 1))
        total = N if n_range is None else int(rng.integers(n_range[0], n_range[1] + 1))
        cells = _free_cells(k, zero_rows, zero_cols)
        if diagonal:
            cells = [(i, j) for i, j in cells if i == j]
        if not cells and total:
            raise ValueError("no cell is free to hold the samples")
        m = np.zeros((k, k), dtype=np.int64)
        if cells:
            draw = rng.multinomial(total, [1 / len(cells)] * len(cells))
            for (i, j), v in zip(cells, draw, strict=True):
                m[i, j] = v
        out.append(m)
    return out


def label_vectors(K: int, n: int) -> Iterator[tuple]:
    """Every label vector of length ``n`` over classes ``0..K-1`` (lexicographic).

    Parameters
    ----------
    K : int
        The number of classes.
    n : int
        The length.

    Returns
    -------
    iterator of tuple
        The vectors.

    Examples
    --------
    >>> list(label_vectors(2, 2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    return itertools.product(range(K), repeat=n)


def insert_empty_class(m, p: int) -> np.ndarray:
    """``m`` with an empty class inserted at position ``p`` (``0 <= p <= K``).

    The counts keep their dtype: ``int64``, or an object array of SymPy
    counts (whose zero is then ``0 * m[0, 0]``, a SymPy zero).

    Parameters
    ----------
    m : array_like
        A ``K x K`` count matrix.
    p : int
        Where the new class goes (``0 <= p <= K``).

    Returns
    -------
    numpy.ndarray
        The ``(K + 1) x (K + 1)`` matrix.

    Examples
    --------
    >>> insert_empty_class(np.array([[1, 2], [3, 4]]), 1).tolist()
    [[1, 0, 2], [0, 0, 0], [3, 0, 4]]
    """
    m = np.asarray(m)
    K = m.shape[0]
    out = np.full((K + 1, K + 1), 0 * m.flat[0], dtype=m.dtype)
    idx = [i if i < p else i + 1 for i in range(K)]
    out[np.ix_(idx, idx)] = m
    return out


def step_toward_diagonal(m, i: int, j: int) -> np.ndarray:
    """A copy of ``m`` with one sample of the off-diagonal cell ``(i, j)``
    moved one column toward the diagonal (to ``(i, j - 1)`` if ``j > i``,
    else ``(i, j + 1)``): the prediction one class closer to the truth.

    Parameters
    ----------
    m : numpy.ndarray
        A count matrix (not changed).
    i, j : int
        An off-diagonal cell holding a sample.

    Returns
    -------
    numpy.ndarray
        The new matrix.

    Examples
    --------
    >>> step_toward_diagonal(np.array([[0, 0, 2], [0, 0, 0], [0, 0, 0]]), 0, 2).tolist()
    [[0, 1, 1], [0, 0, 0], [0, 0, 0]]
    """
    s = m.copy()
    s[i, j] = s[i, j] - 1
    t = j - 1 if j > i else j + 1
    s[i, t] = s[i, t] + 1
    return s


def matrix_text(m) -> str:
    """A matrix as the nested list it prints as (counterexamples, witnesses).

    Parameters
    ----------
    m : array_like
        A matrix.

    Returns
    -------
    str
        ``str`` of its nested list.

    Examples
    --------
    >>> matrix_text(np.eye(2, dtype=int))
    '[[1, 0], [0, 1]]'
    """
    return str(np.asarray(m).tolist())
