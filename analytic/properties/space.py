r"""The searched space of the property engine: matrices by rank, in chunks.

Every ``K x K`` count matrix with total ``N`` is a weak composition of ``N``
into ``r = K^2`` parts (the flattened matrix).  In lexicographic order the
compositions are numbered ``0 .. C(N + r - 1, r - 1) - 1`` (a combinatorial
number system: the rank of a composition is the number of compositions
before it, counted part by part with the binomial coefficients of stars
and bars), so a range of ranks ``[lo, hi)`` is a chunk of the space that
any worker can build on its own, without listing what comes before it.
:func:`block` builds one chunk as an array.

A :class:`Space` is the union of three searches:

- ``exhaustive``: every matrix with ``K`` classes and ``1 <= N <= max_n``, for
  each ``(K, max_n)``; walked in the order ``(N, K, lexicographic)`` of
  :func:`analytic.properties.generators.order_key`, so the first counterexample of the
  walk is the minimal one of this part of the space;
- ``random``: seeded random matrices (``2 <= K <= random_k``,
  ``1 <= N <= random_n``), each class empty as a true class or as a
  predicted class with probability ``1/4`` (empty rows and columns are
  where many properties break);
- ``triangle``: every triple of label vectors of length ``n`` over ``K``
  classes for each ``(K, max_n)`` and ``n <= max_n``, plus random triples.

>>> block(2, 2, 0, 10).tolist()          # every 2 x 2 matrix with N = 2, flattened
[[0, 0, 0, 2], [0, 0, 1, 1], [0, 0, 2, 0], [0, 1, 0, 1], [0, 1, 1, 0], [0, 2, 0, 0], [1, 0, 0, 1], [1, 0, 1, 0], [1, 1, 0, 0], [2, 0, 0, 0]]
>>> block(2, 2, 3, 5).tolist()
[[0, 1, 0, 1], [0, 1, 1, 0]]
"""  # noqa: E501 (the expected output of a doctest)

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .generators import count  # the number of K x K matrices with N samples

__all__ = ["block", "count", "rank", "Space", "DEFAULT_SPACE", "SMALL_SPACE", "Chunk"]

#: blocks of at most this many rows are built once and kept (the sub-blocks of every chunk)
_CACHED_ROWS = 1 << 18


def _parts(n: int, r: int) -> int:
    return math.comb(n + r - 1, r - 1)


#: above this many parts the compositions are built without recursion (the
#: recursion below is one level per part: K = 60 classes, 3,600 cells, passed
#: Python's recursion limit)
_DEEP = 64


def _flat(n: int, r: int) -> np.ndarray:
    """Every composition of ``n`` into ``r`` parts, lexicographic, without
    recursion: each multiset of ``n`` part indices (stars and bars) counted,
    then the rows sorted (column 0 the primary key)."""
    import itertools

    idx = np.array(list(itertools.combinations_with_replacement(range(r), n)),
                   dtype=np.int64).reshape(-1, n)
    out = np.zeros((len(idx), r), dtype=np.int64)
    np.add.at(out, (np.repeat(np.arange(len(idx)), n), idx.ravel()), 1)
    return out[np.lexsort(out.T[::-1])]


@functools.lru_cache(maxsize=None)
def _full(n: int, r: int) -> np.ndarray:
    """Every composition of ``n`` into ``r`` parts, lexicographic (read-only)."""
    if r > _DEEP:
        out = _flat(n, r)
    elif r == 1:
        out = np.array([[n]], dtype=np.int64)
    else:
        out = np.empty((_parts(n, r), r), dtype=np.int64)
        at = 0
        for a in range(n + 1):
            sub = _full(n - a, r - 1)
            out[at:at + len(sub), 0] = a
            out[at:at + len(sub), 1:] = sub
            at += len(sub)
    out.flags.writeable = False
    return out


def _range(n: int, r: int, lo: int, hi: int) -> np.ndarray:
    total = _parts(n, r)
    if lo == 0 and hi == total and total <= _CACHED_ROWS:
        return _full(n, r)
    if r > _DEEP:  # a block of at most MAX_CELLS cells (analytic.properties.audit.check_size)
        return _flat(n, r)[lo:hi]
    if r == 1:
        return np.array([[n]], dtype=np.int64)[lo:hi]
    pieces, start = [], 0
    for a in range(n + 1):
        c = _parts(n - a, r - 1)
        if start + c > lo and start < hi:
            sub = _range(n - a, r - 1, max(lo - start, 0), min(hi - start, c))
            piece = np.empty((len(sub), r), dtype=np.int64)
            piece[:, 0] = a
            piece[:, 1:] = sub
            pieces.append(piece)
        start += c
        if start >= hi:
            break
    return np.concatenate(pieces) if pieces else np.empty((0, r), dtype=np.int64)


def block(K: int, N: int, lo: int, hi: int) -> np.ndarray:
    """The ``K x K`` matrices with total ``N`` of ranks ``lo <= rank < hi``, flattened.

    Rank 0 is ``[0, ..., 0, N]``; the order is that of
    :func:`analytic.properties.generators.exhaustive` (lexicographic).  Only the blocks
    the range needs are built.

    Parameters
    ----------
    K, N : int
        The number of classes and of samples.
    lo, hi : int
        The ranks ``lo <= rank < hi``.

    Returns
    -------
    ndarray of int64, shape ``(hi - lo, K * K)``
        The matrices, flattened.

    Examples
    --------
    >>> block(2, 1, 0, 4).tolist()
    [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    """
    total = count(K, N)
    if not (0 <= lo <= hi <= total):
        raise ValueError(f"ranks [{lo}, {hi}) are outside 0..{total} for K = {K}, N = {N}")
    return np.array(_range(N, K * K, lo, hi), dtype=np.int64)


@functools.lru_cache(maxsize=None)
def _rank_table(n: int, r: int) -> np.ndarray:
    """``T[s, t, c]``: the compositions of ``s`` into the ``r - t`` parts from
    position ``t`` on whose first part is smaller than ``c`` (the rank's
    terms, :func:`rank`)."""
    T = np.zeros((n + 1, r, n + 2), dtype=np.int64)
    for s in range(n + 1):
        for t in range(r):
            rest = r - t - 1
            acc = 0
            for c in range(n + 2):
                T[s, t, c] = acc
                if c <= s:
                    acc += (_parts(s - c, rest) if rest else int(s - c == 0))
    return T


def rank(flat, N: int) -> np.ndarray:
    """The ranks (in :func:`block`'s order) of flattened matrices with total ``N``.

    Parameters
    ----------
    flat : numpy.ndarray
        ``(B, K * K)`` flattened count matrices.
    N : int
        Their total.

    Returns
    -------
    numpy.ndarray
        The ``B`` ranks.

    Examples
    --------
    >>> rank(block(2, 3, 0, count(2, 3)), 3).tolist() == list(range(count(2, 3)))
    True
    """
    flat = np.asarray(flat, dtype=np.int64)
    r = flat.shape[-1]
    T = _rank_table(N, r)
    left = N - np.cumsum(flat, axis=-1) + flat  # the total from position t on
    return T[left, np.arange(r), flat].sum(axis=-1)


@dataclass(frozen=True)
class Chunk:
    """One independent piece of a search.

    Parameters
    ----------
    kind : {"exhaustive", "random"}
        Ranks ``[lo, hi)`` of the ``K x K`` matrices with total ``N``, or random
        matrices ``lo .. hi - 1`` of the seeded stream.
    K, N : int
        The number of classes and of samples.
    lo, hi : int
        The range.

    Examples
    --------
    >>> Chunk("exhaustive", 2, 2, 0, 3).matrices(SMALL_SPACE).tolist()
    [[[0, 0], [0, 2]], [[0, 0], [1, 1]], [[0, 0], [2, 0]]]
    """

    kind: str
    K: int
    N: int
    lo: int
    hi: int

    def matrices(self, space: "Space") -> np.ndarray:
        """The chunk's matrices, ``(hi - lo, K, K)`` ``int64``."""
        if self.kind == "exhaustive":
            return block(self.K, self.N, self.lo, self.hi).reshape(-1, self.K, self.K)
        return space.random_block(self.K, self.N, self.lo, self.hi)


@dataclass(frozen=True)
class Space:
    """A searched space (see the module docstring).

    Parameters
    ----------
    exhaustive : tuple of (K, max_n)
        Every matrix with ``K`` classes and ``1 <= N <= max_n``.
    random : int
        Number of random matrices.
    random_k, random_n : int
        Their largest ``K`` and ``N`` (``K >= 2``, ``N >= 1``).
    seed : int
        The seed of the random parts.
    triangle : tuple of (K, max_n)
        Every triple of label vectors of length ``n <= max_n`` over ``K`` classes.
    triangle_random : int
        Random triples, ``2 <= K <= max K of triangle``, length up to ``triangle_n``.
    triangle_n : int
        The largest length of a random triple's vectors.
    diagonal : tuple of (K, max_n)
        The diagonal matrices of the imbalance property: every diagonal matrix
        with ``K`` classes and ``1 <= N <= max_n``.
    chunk : int
        Matrices per chunk: how the work is split, not what is searched (the
        verdicts, counterexamples and counts do not depend on it).  A derived
        matrix of the same size (a move toward the diagonal, the transpose)
        whose rank falls in the chunk takes the chunk's value instead of a
        new evaluation, so large chunks cost the least evaluations; chunks
        small enough to share the largest ``(K, N)`` block among processes
        cost the least time (the default 250,000: the 490,314 matrices with
        K = 4, N = 8 are two chunks; MAE's 14 properties with every tie
        decided exactly on 2 processes: 52 s, against 79 s with chunks of
        10^6).

    Examples
    --------
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> tiny.size(), tiny.max_k()
    (14, 2)
    """

    exhaustive: tuple = ((1, 8), (2, 8), (3, 8), (4, 8), (5, 5))
    random: int = 20_000
    random_k: int = 6
    random_n: int = 60
    seed: int = 0
    triangle: tuple = ((2, 6), (3, 4))
    triangle_random: int = 2_000
    triangle_n: int = 14
    diagonal: tuple = ((3, 24), (4, 16), (5, 12), (6, 10))
    chunk: int = 250_000

    def __post_init__(self):
        for name in ("exhaustive", "triangle", "diagonal"):
            for K, n in getattr(self, name):
                if int(K) != K or K < 1 or int(n) != n or n < 0:
                    raise ValueError(f"{name}: (K, max_n) must be positive integers, got {(K, n)}")
        for name in ("random", "triangle_random", "seed"):
            v = getattr(self, name)
            if isinstance(v, bool) or int(v) != v or v < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
        if self.random and (self.random_k < 2 or self.random_n < 1):
            raise ValueError("random matrices need random_k >= 2 and random_n >= 1")
        if self.chunk < 1:
            raise ValueError(f"chunk must be positive, got {self.chunk}")

    # -- sizes -------------------------------------------------------------------
    def size(self) -> int:
        """Matrices in the exhaustive part and the random part.

        ``sum_{N=1}^{n} C(N + K^2 - 1, K^2 - 1) = C(n + K^2, K^2) - 1`` (the
        hockey-stick identity), not a sum of ``n`` terms (``n = 10**9`` ran
        for ever); exact, so slow only when both ``n`` and ``K^2`` are huge
        (:func:`analytic.properties.audit.check_size` refuses those first).

        >>> Space(exhaustive=((2, 3), (3, 1)), random=5).size() == sum(
        ...     count(2, N) for N in (1, 2, 3)) + count(3, 1) + 5
        True
        """
        return sum(math.comb(n + K * K, K * K) - 1 for K, n in self.exhaustive) + self.random

    def max_k(self) -> int:
        return max([K for K, _ in self.exhaustive] + ([self.random_k] if self.random else []),
                   default=0)

    # -- the walk ----------------------------------------------------------------
    def chunks(self, max_k: int | None = None, where=None) -> list[Chunk]:
        """The chunks in search order: exhaustive by ``(N, K, rank)``, then random.

        ``max_k`` leaves out larger matrices (the properties that add a class).
        """
        out = []
        top = max((n for _, n in self.exhaustive), default=0)
        for N in range(1, top + 1):
            for K, n in sorted(self.exhaustive):
                if N > n or (max_k is not None and K > max_k):
                    continue
                total = count(K, N)
                for lo in range(0, total, self.chunk):
                    out.append(Chunk("exhaustive", K, N, lo, min(total, lo + self.chunk)))
        for (K, N), c in self._random_groups(max_k):
            out.append(Chunk("random", K, N, 0, c))
        return out

    def _random_groups(self, max_k=None):
        """``[((K, N), count)]``: how many random matrices of each size (a
        seeded draw of the sizes; each size's matrices are drawn by its own
        seeded generator, so a group is one independent chunk)."""
        if not self.random:
            return []
        rng = np.random.default_rng([self.seed, 1])
        K = rng.integers(2, self.random_k + 1, size=self.random)
        N = rng.integers(1, self.random_n + 1, size=self.random)
        sizes, counts = np.unique(np.stack([K, N], axis=1), axis=0, return_counts=True)
        return [((int(k), int(n)), int(c)) for (k, n), c in zip(sizes, counts, strict=True)
                if max_k is None or k <= max_k]

    def random_block(self, K: int, N: int, lo: int, hi: int) -> np.ndarray:
        """Random matrices ``lo .. hi - 1`` of the group of size ``(K, N)``:
        each class is left out as a true class (an empty row) and as a
        predicted class (an empty column) with probability 1/4, and the
        ``N`` samples fall uniformly on the remaining cells."""
        rng = np.random.default_rng([self.seed, 2, K, N])
        rows = rng.random((hi, K)) >= 0.25
        cols = rng.random((hi, K)) >= 0.25
        pick_r, pick_c = rng.integers(K, size=hi), rng.integers(K, size=hi)
        out = np.zeros((hi, K, K), dtype=np.int64)
        for t in range(hi):
            rows[t, pick_r[t]] |= not rows[t].any()
            cols[t, pick_c[t]] |= not cols[t].any()
            cells = np.flatnonzero(np.outer(rows[t], cols[t]))
            out[t].flat[cells] = rng.multinomial(N, np.full(len(cells), 1 / len(cells)))
        return out[lo:hi]

    def describe(self) -> str:
        """The space in words (a verdict's evidence)."""
        parts = []
        by_n: dict[int, list[int]] = {}
        for K, n in self.exhaustive:
            by_n.setdefault(n, []).append(K)
        for n, ks in sorted(by_n.items(), reverse=True):
            ks = sorted(ks)
            kt = (f"K <= {ks[-1]}" if ks == list(range(1, ks[-1] + 1))
                  else ("K = " + ", ".join(map(str, ks))))
            parts.append(f"every matrix with {kt} and N <= {n}")
        text = "; ".join(parts)
        if self.random:
            text += (f"; {self.random:,} random matrices (seed {self.seed}, 2 <= K <= "
                     f"{self.random_k}, 1 <= N <= {self.random_n}, empty rows and columns)")
        return text


#: the default space of the property table (issue 22): K <= 4 with N <= 8, K = 5
#: with N <= 5, 20,000 random matrices up to K = 6 and N = 60
DEFAULT_SPACE = Space()

#: the space of the all-exact search of earlier versions (K <= 3, N <= 3, 24 random)
SMALL_SPACE = Space(exhaustive=((1, 3), (2, 3), (3, 3)), random=24, random_k=4, random_n=6,
                    triangle=((2, 3), (3, 3)), triangle_random=0, diagonal=((3, 6),),
                    chunk=50_000)
