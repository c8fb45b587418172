"""Deterministic random matrices for counterexample searches in claims."""

from __future__ import annotations

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
