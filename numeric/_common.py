"""Shared plumbing: validated counts in the chosen arithmetic."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._arith import Arithmetic, get_arithmetic
from ._validation import check_counts


@dataclass(frozen=True)
class Prepared:
    """A validated stack of confusion matrices in one arithmetic.

    ``counts`` is the ``int64`` array (for structural decisions such as which
    classes are observed); ``n`` the same counts as numbers of ``ctx``.
    """

    counts: np.ndarray
    n: np.ndarray
    ctx: Arithmetic

    @property
    def K(self) -> int:
        return self.counts.shape[-1]

    @property
    def lead_shape(self) -> tuple:
        return self.counts.shape[:-2]

    def total(self):
        """N, shape ``(...)``."""
        return self.n.sum(axis=(-2, -1))

    def accuracy(self):
        """Fraction of samples on the diagonal, ``trace / N``, shape ``(...)``."""
        return np.diagonal(self.n, axis1=-2, axis2=-1).sum(axis=-1) / self.total()

    def rows(self):
        """Row sums ``N_r`` (true-class counts), shape ``(..., K)``."""
        return self.n.sum(axis=-1)

    def cols(self):
        """Column sums (predicted-class counts), shape ``(..., K)``."""
        return self.n.sum(axis=-2)

    def distance(self, gamma=1):
        """``|r - c|**gamma`` as a ``(K, K)`` array of ``ctx`` numbers."""
        idx = np.arange(self.K)
        d = self.ctx.asarray(np.abs(idx[:, None] - idx[None, :]))
        return d if gamma == 1 else self.ctx.power(d, gamma)

    def class_index(self):
        """``1, ..., K`` as ``ctx`` numbers."""
        return self.ctx.asarray(np.arange(1, self.K + 1))


def prepare(cm, arithmetic="float", *, min_classes=1) -> Prepared:
    ctx = get_arithmetic(arithmetic)
    counts = check_counts(cm, min_classes=min_classes)
    return Prepared(counts=counts, n=ctx.asarray(counts), ctx=ctx)
