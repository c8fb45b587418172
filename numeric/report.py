"""Every registered metric of one confusion matrix (or one pair of label vectors).

:func:`report` reads :data:`numeric.registry.REGISTRY` (through
:func:`numeric.registry.matrix_metrics`): a metric registered later appears
in the report, the CLI's ``metrics`` table and :func:`numeric.compare`
without any change here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["MetricValue", "Report", "report", "format_table", "metric_cases"]


def format_table(header, rows) -> str:
    """Left-aligned columns, a dashed rule under the header.

    >>> print(format_table(("a", "bb"), [(1, 2)]))
    a  bb
    -  --
    1  2
    """
    widths = [max(len(str(r[i])) for r in [header] + list(rows)) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*header), fmt.format(*["-" * w for w in widths])]
    out += [fmt.format(*map(str, r)) for r in rows]
    return "\n".join(line.rstrip() for line in out)


def metric_cases(metrics=None):
    """``[(Metric, Variant), ...]``: the registered matrix metrics and their
    report variants, in registration order; ``metrics`` (names of
    :data:`~numeric.registry.REGISTRY`) selects some.

    >>> [v.label for m, v in metric_cases(["mae", "amae"])]
    ['MAE', 'AMAE (observed classes)', 'AMAE (missing = zero)']
    """
    from .registry import REGISTRY, matrix_metrics

    available = matrix_metrics()
    if metrics is None:
        chosen = available
    else:
        if isinstance(metrics, str):
            metrics = [metrics]
        try:
            metrics = list(metrics)
        except TypeError:
            raise TypeError(f"metrics must be a list of registry names, got {metrics!r:.60}") \
                from None
        if not metrics:
            raise ValueError("metrics is empty: name at least one (or None for all)")
        if not all(isinstance(n, str) for n in metrics):
            raise TypeError(f"metrics must be registry names (str), got {metrics!r:.80}")
        names = {m.name for m in available}
        unknown = [n for n in metrics if n not in names]
        if unknown:
            probabilistic = [n for n in unknown if n in REGISTRY and not REGISTRY[n].takes_matrix]
            other = [n for n in unknown if n in REGISTRY and REGISTRY[n].takes_matrix]
            why = (f"{probabilistic} take probabilities, not a confusion matrix"
                   if probabilistic else
                   f"{other} need more than the matrix (e.g. interval lengths)" if other
                   else f"{unknown} are not registered metrics")
            raise ValueError(f"unknown metrics: {why}; choose from {sorted(names)}")
        chosen = [m for m in available if m.name in set(metrics)]
    return [(m, v) for m in chosen for v in m.cases()]


def row_of(rows, label):
    """The row whose ``label`` is ``label`` or, for a one-variant metric, whose
    ``name`` is (KeyError otherwise); shared by :class:`Report` and
    :class:`numeric.compare.Comparison`."""
    for r in rows:
        if r.label == label:
            return r
    hits = [r for r in rows if r.name == label]
    if len(hits) == 1:
        return hits[0]
    raise KeyError(label)


@dataclass(frozen=True)
class MetricValue:
    """One metric (one report variant) of one matrix.

    ``value`` is a number in the report's arithmetic, or ``None`` when the
    metric is undefined for the matrix; ``note`` then says why.
    """

    name: str
    label: str
    value: Any
    better: str
    source: str
    note: str = ""

    @property
    def defined(self) -> bool:
        return self.value is not None

    def to_dict(self) -> dict:
        d = {"name": self.name, "label": self.label,
             "value": None if self.value is None else float(self.value),
             "better": self.better, "source": self.source, "note": self.note}
        if self.value is not None and not isinstance(self.value, (float, np.floating)):
            d["exact"] = str(self.value)
        return d


@dataclass(frozen=True)
class Report:
    """The metrics of one confusion matrix: ``rows`` of :class:`MetricValue`."""

    rows: tuple
    K: int
    N: int
    arithmetic: str

    def __getitem__(self, label) -> MetricValue:
        """The row of a label (``"MAE"``) or, for a one-variant metric, its name."""
        return row_of(self.rows, label)

    def to_dict(self) -> dict:
        return {"K": self.K, "N": self.N, "arithmetic": self.arithmetic,
                "metrics": [r.to_dict() for r in self.rows]}

    def __str__(self) -> str:
        rows = [(r.label, "undefined" if r.value is None else f"{float(r.value):.6g}",
                 r.better, r.source if r.defined else r.note) for r in self.rows]
        return format_table(("metric", "value", "better", "source"), rows)


def report(cm, y_pred=None, *, labels=None, metrics=None, arithmetic="float") -> Report:
    r"""Every registered metric of a confusion matrix, or of ``(y_true, y_pred)``.

    .. math:: \{\, m(C) : m \in \texttt{REGISTRY},\ m \text{ takes only } C \,\}

    Each metric is the registered function with its report variants (OC at
    cardoso2011's two table betas, UOC at silva2018 Table I's betas, AMAE
    with both policies for a missing class); the sources are the registry's
    (``MAE``: silva2018 eq. 3, ...).

    Parameters
    ----------
    cm : array_like, shape (K, K), or label vector
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.  With
        ``y_pred`` it is ``y_true``, counted by :func:`numeric.confusion_matrix`.
    y_pred : array_like, optional
        Predicted labels.
    labels : array_like, optional
        The classes in their ordinal order (label vectors only; needed for
        labels without a natural order, such as strings: see
        :func:`numeric.confusion_matrix`).
    metrics : list of str, optional
        Registry names to report (default: every metric of the matrix alone).
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    Report
        ``rows`` in registration order; a metric undefined for this matrix
        (tau_b with one class) has ``value=None`` and the reason in ``note``.

    Raises
    ------
    ValueError
        A matrix that no metric can take (not square, negative counts, a
        total beyond int64, ...): raised once, with the problem named; an
        unknown ``arithmetic`` (it made every metric "undefined").

    Examples
    --------
    >>> r = report([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]],
    ...            arithmetic="exact")     # silva2018 matrix B, Table I
    >>> r["A_UOC"].value, r["A_UOC"].better, r["A_UOC"].source
    (5/9, 'lower', 'silva2018 eq. 23')
    >>> report([1, 2, 3, 3], [1, 2, 2, 3])["mer"].value
    0.25
    """
    from ._arith import get_arithmetic
    from ._validation import check_counts

    get_arithmetic(arithmetic)  # an unknown arithmetic is the caller's error, not every metric's
    if y_pred is not None:
        from .confusion import confusion_matrix

        cm = confusion_matrix(cm, y_pred, labels=labels)
    elif labels is not None:
        raise ValueError("labels= is for label vectors: call report(y_true, y_pred, labels=...)")
    counts = check_counts(cm)
    if counts.ndim != 2:
        raise ValueError(f"report takes one matrix, not a stack of shape {counts.shape}")
    rows = []
    for m, v in metric_cases(metrics):
        try:
            value = m.function(counts, **v.kwargs(counts), arithmetic=arithmetic)
            if isinstance(value, np.floating):
                value = float(value)
            note = ""
        except ValueError as exc:
            value, note = None, str(exc)
        rows.append(MetricValue(m.name, v.label, value, m.better, m.source, note))
    return Report(tuple(rows), K=int(counts.shape[0]), N=int(sum(int(x) for x in counts.flat)),
                  arithmetic=arithmetic)
