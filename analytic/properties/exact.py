r"""Exact values of a metric and their comparison: the property engine's reference.

:class:`ExactContext` evaluates one metric on count matrices, caches each matrix's
value and gives the exact checks of :mod:`analytic.properties.catalog` their
vocabulary (:meth:`~ExactContext.value`, :meth:`~ExactContext.loss_cmp`,
:meth:`~ExactContext.describe`).  Each value is converted once, by the exact floor's
:func:`exactfloor.value.value_of` (every kind of number a metric may return), and
compared by :func:`exactfloor.value.compare` (the one rule of
:mod:`exactfloor.exact_sign`: never a guess).  A metric says it is undefined on a
matrix by raising :class:`exactfloor.errors.UndefinedMetric` or returning NaN or None;
any other exception, or a value that is not a number, is
:class:`exactfloor.errors.MetricError` naming the matrix.  The floor's names
(``Value``, ``value_of``, ``compare``, ...) are re-exported here for the engine.
"""

from __future__ import annotations

import numpy as np

from exactfloor.errors import MetricError, UndecidedError, UndefinedMetric
from exactfloor.exact_sign import DEFAULT_POLICY, ExactPolicy
from exactfloor.value import (  # the floor's number type (issue 37); re-exported for the engine
    Undefined, Value, bound_value, compare, exceeds_sum, expr, signals_undefined, value_of)

from .generators import matrix_text

__all__ = ["Undefined", "Value", "value_of", "signals_undefined", "compare", "exceeds_sum", "expr",
           "ExactContext", "bound_value"]


def _key(m):
    return (m.shape[0], m.tobytes())


class ExactContext:
    """One metric in exact arithmetic, with a cache of its values.

    Parameters
    ----------
    f : callable
        The metric on an ``int64`` count matrix; :class:`exactfloor.errors.UndefinedMetric`
        raised, or NaN or None returned, means undefined; any other exception
        (or a value that is not a finite real number) is
        :class:`exactfloor.errors.MetricError` naming the matrix.
    better : {"lower", "higher"}
    bounds : (lo, hi)
        Values (numbers, or strings read by :func:`exactfloor.parsing.parse_number`) or None.
    policy : ExactPolicy, optional
        How values are compared (:mod:`exactfloor.exact_sign`; default
        :data:`~exactfloor.exact_sign.DEFAULT_POLICY`).
    """

    def __init__(self, f, better, bounds, policy: ExactPolicy | None = None):
        self.f, self.better = f, better
        self.policy = DEFAULT_POLICY if policy is None else policy
        self.sign = 1 if better == "lower" else -1
        self.bounds = (bound_value(bounds[0], "lower bound"), bound_value(bounds[1], "upper bound"))
        self.cache = {}

    @property
    def best(self):
        return self.bounds[0] if self.better == "lower" else self.bounds[1]

    def value(self, m):
        """The exact :class:`Value` of ``f(m)``, or :class:`Undefined`."""
        m = np.ascontiguousarray(m, dtype=np.int64)
        k = _key(m)
        if k not in self.cache:
            try:
                v = self.f(m.copy())
            except UndefinedMetric as exc:  # the metric is undefined on this matrix
                self.cache[k] = Undefined(str(exc))
                return self.cache[k]
            except (MetricError, UndecidedError, MemoryError):  # not the metric's own error
                raise
            except Exception as exc:  # a broken metric: no verdict rests on it
                raise MetricError.of(exc, m) from exc
            if signals_undefined(v):
                self.cache[k] = Undefined(f"the metric returned {v!r}")
                return self.cache[k]
            # an infinity or a non-number is a broken metric, not an undefined value
            try:
                self.cache[k] = value_of(v)
            except ValueError:
                raise MetricError.of(f"returned {v!r:.60} (not a finite real number; NaN, "
                                     "None or UndefinedMetric where it is undefined)",
                                     m) from None
        return self.cache[k]

    def exact(self, m):
        """The exact value as a SymPy number, or None where the metric is undefined."""
        v = self.value(m)
        return None if isinstance(v, Undefined) else expr(v)

    def loss_cmp(self, a, b) -> int:
        """> 0 when ``a`` is worse than ``b``."""
        return self.sign * compare(a, b, self.policy)

    def describe(self, m) -> str:
        v = self.value(m)
        return (f"f({matrix_text(m)}) = {v}" if isinstance(v, Value)
                else f"f({matrix_text(m)}) undefined")

    def same(self, a, b):
        """None when ``f(a) = f(b)`` (or both undefined), else the witness text."""
        va, vb = self.value(a), self.value(b)
        if isinstance(va, Undefined) and isinstance(vb, Undefined):
            return None
        if isinstance(va, Undefined) or isinstance(vb, Undefined) or compare(va, vb, self.policy):
            return f"{self.describe(a)} but {self.describe(b)}"
        return None
