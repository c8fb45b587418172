"""Deterministic random matrices for counterexample searches in claims."""

from __future__ import annotations

import itertools

import numpy as np


def random_matrices(count: int, k_range=(2, 6), max_count=6, seed=0, zero_prob=0.4):
    """``count`` random count matrices (a fixed seed: the search is reproducible)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        K = int(rng.integers(k_range[0], k_range[1] + 1))
        m = rng.integers(0, max_count + 1, size=(K, K))
        m[rng.random((K, K)) < zero_prob] = 0
        if m.sum() > 0:
            out.append(m)
    return out


def compositions(n: int, r: int):
    """Every way to spread ``n`` samples of one true class over ``r`` predicted
    classes (stars and bars): all non-negative integer rows of length ``r``
    summing to ``n``, for exhaustive searches over matrices with fixed row sums."""
    for bars in itertools.combinations(range(n + r - 1), r - 1):
        prev, row = -1, []
        for b in bars + (n + r - 1,):
            row.append(b - prev - 1)
            prev = b
        yield row


def exhaustive_max(M, counts):
    """``max sum(A * M)`` over every count matrix ``A`` with row sums ``counts``.

    The rows are independent, so each row's contribution is listed once and
    every combination summed.  Returns ``(maximum, number of matrices)``.
    """
    r = len(counts)
    per_row = [[sum(v * M[t, p] for p, v in enumerate(row)) for row in compositions(n, r)]
               for t, n in enumerate(counts)]
    best, size = None, 0
    for combo in itertools.product(*per_row):
        s = sum(combo)
        size += 1
        best = s if best is None or s > best else best
    return best, size
