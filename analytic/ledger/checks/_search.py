"""Searches shared by the claims and the tests: deterministic random matrices
(:func:`analytic.properties.generators.random_matrices`, re-exported) and exhaustive
maxima over matrices with fixed row sums."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy

from analytic.properties.generators import compositions, random_matrices

__all__ = ["random_matrices", "compositions", "exhaustive_argmax", "exhaustive_max"]


def exhaustive_argmax(M, counts):
    """``max sum(A * M)`` over every count matrix ``A`` with row sums ``counts``
    (``M`` rational: exact, in integers scaled by the common denominator).

    The rows are independent, so each row's contributions are listed once and
    every combination summed (an outer sum over the rows).  Returns
    ``(maximum as a sympy.Rational, a matrix attaining it, number of matrices)``.
    """
    r = len(counts)
    M = np.asarray(M, dtype=object)
    vals = [[Fraction(str(M[t, p])) for p in range(r)] for t in range(r)]
    den = math.lcm(*(v.denominator for row in vals for v in row))
    C = [[int(v * den) for v in row] for row in vals]
    big = max(abs(v) for row in C for v in row) * max(int(n) for n in counts) * r >= 2**62
    dtype = object if big else np.int64
    C = np.array(C, dtype=dtype)
    rows = [np.array(list(compositions(int(n), r)), dtype=dtype) for n in counts]
    contrib = [rws @ C[t] for t, rws in enumerate(rows)]
    total = contrib[0]
    for c in contrib[1:]:
        total = (total[..., None] + c).reshape(-1)
    k = int(np.argmax(total))
    idx = np.unravel_index(k, [len(c) for c in contrib])
    A = np.array([rows[t][i] for t, i in enumerate(idx)], dtype=np.int64)
    return sympy.Rational(int(total[k]), den), A, int(total.size)


def exhaustive_max(M, counts):
    """``max sum(A * M)`` over every count matrix ``A`` with row sums ``counts``:
    :func:`exhaustive_argmax` without the matrix.  Returns ``(maximum, number of matrices)``."""
    best, _, size = exhaustive_argmax(M, counts)
    return best, size
