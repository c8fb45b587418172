"""Two classifiers on the same samples: every metric, paired-bootstrap intervals.

The resampling is exact and cheap: drawing ``N`` samples with replacement
from the ``N`` triples ``(true, pred_A, pred_B)`` gives the same joint law
as one multinomial draw over the counts of the distinct triples
(Efron & Tibshirani 1993, §6: the bootstrap resamples the empirical
distribution, which puts mass ``n_c / N`` on cell ``c``).  So a resample
costs O(number of distinct triples <= K^3), not O(N), and A's and B's
resampled confusion matrices are the two margins of the same draw: the
pairing is kept.  Each registered float metric is then called once on the
whole stack of resampled matrices.

Undefined resamples.  A resampled matrix can leave a metric undefined (tau_b
when every resampled sample has one class; TC when a true class drew no
sample).  Policy ``undefined="drop"`` (default): the interval is the
percentile interval of the resamples where the metric is defined (for the
difference: defined for both A and B); the number of undefined resamples is
kept in the result, shown in the table, and an :class:`UndefinedResampleWarning`
names them.  ``undefined="raise"`` raises ``ValueError`` instead.  A metric
undefined on the data themselves gets no interval (``note`` says why).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from ._validation import collect_undefined

__all__ = ["Comparison", "MetricComparison", "UndefinedResampleWarning", "compare",
           "paired_resamples", "metric_on_stack", "percentile_interval"]


class UndefinedResampleWarning(UserWarning):
    """Some bootstrap resamples left a metric undefined and were dropped."""


def paired_resamples(y_true, pred_a, pred_b, *, labels=None, n_classes=None,
                     n_resamples=10_000, seed=None):
    r"""The confusion matrices of A and B on the same bootstrap resamples.

    .. math:: (n^{*}_{t,a,b}) \sim \mathrm{Multinomial}\big(N; (n_{t,a,b}/N)\big),\quad
              C^{*}_A[t,a] = \sum_b n^{*}_{t,a,b},\quad C^{*}_B[t,b] = \sum_a n^{*}_{t,a,b}

    The nonparametric bootstrap of paired samples (Efron & Tibshirani 1993,
    §6 and §15), drawn as one multinomial over the distinct
    ``(true, pred_A, pred_B)`` triples: the same law as resampling the ``N``
    indices with replacement.

    The labels are handled as by :func:`numeric.confusion_matrix`
    (:func:`numeric.confusion.label_codes`): ``labels=`` or ordered
    categoricals give the order, labels without a natural order (strings,
    unordered categoricals) raise without them, missing labels and types that
    do not order together raise, and a :class:`~numeric.LabelWarning` says
    when the classes were guessed.

    Parameters
    ----------
    y_true, pred_a, pred_b : array_like, shape (N,)
    labels : array_like, optional
        Classes in ordinal order; default the sorted union of the three
        vectors (numbers and datetimes only: strings need ``labels=``).
    n_classes : int, optional
        Shorthand for ``labels=range(n_classes)``.
    n_resamples : int
    seed : int or numpy.random.Generator, optional

    Raises
    ------
    ValueError
        Fewer than 2 samples (a resample of one sample is that sample), or
        label problems (see :func:`numeric.confusion_matrix`).

    Returns
    -------
    cm_a, cm_b : ndarray of int64, shape (K, K)
        The confusion matrices of the data.
    stack_a, stack_b : ndarray of int64, shape (n_resamples, K, K)
        Row ``r`` of both comes from the same resample.
    labels : ndarray, shape (K,)

    Examples
    --------
    >>> a, b, sa, sb, lab = paired_resamples([1, 2, 3, 3], [1, 2, 2, 3], [1, 3, 3, 3],
    ...                                      n_resamples=5, seed=0)
    >>> sa.shape, bool((sa.sum(axis=(1, 2)) == 4).all()), bool((sa.sum(axis=2) == sb.sum(axis=2)).all())
    ((5, 3, 3), True, True)
    """
    from .confusion import check_cells, label_codes

    from ._validation import positive_integer

    n_resamples = positive_integer(n_resamples, "n_resamples")
    lab, (ct, ca, cb) = label_codes({"y_true": y_true, "pred_a": pred_a, "pred_b": pred_b},
                                    labels=labels, n_classes=n_classes)
    K, N = lab.size, ct.size
    check_cells(n_resamples * K * K, f"{n_resamples} resampled confusion matrices of {K} classes")
    if N < 2:
        raise ValueError(
            f"{'label vectors are empty' if N == 0 else 'one sample'}: a bootstrap needs at least "
            "2 samples (every resample of one sample is that sample, so every interval would "
            "have zero width and name a winner from nothing)")
    # the distinct (true, A, B) triples and their counts: O(N log N), not K^3
    cells, joint = np.unique(np.ravel_multi_index((ct, ca, cb), (K, K, K)), return_counts=True)
    tt, aa, bb = np.unravel_index(cells, (K, K, K))
    cm_a = _margin(joint[None, :], tt * K + aa, K * K)[0].reshape(K, K)
    cm_b = _margin(joint[None, :], tt * K + bb, K * K)[0].reshape(K, K)
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:  # numpy's message does not name the argument
        raise type(exc)(f"seed must be None, a non-negative integer or a numpy Generator, got "
                        f"{seed!r:.60} ({exc})") from None
    draws = rng.multinomial(N, joint / N, size=n_resamples)  # (R, cells)
    stack_a = _margin(draws, tt * K + aa, K * K).reshape(n_resamples, K, K)
    stack_b = _margin(draws, tt * K + bb, K * K).reshape(n_resamples, K, K)
    return cm_a, cm_b, stack_a, stack_b, lab


def _margin(draws, target, size):
    """``out[r, target[c]] += draws[r, c]``: each drawn triple adds to one cell of a
    matrix; integer sums over the triples of each cell (``np.add.reduceat``),
    O(R x triples), exact."""
    order = np.argsort(target, kind="stable")
    sorted_target = target[order]
    starts = np.flatnonzero(np.r_[True, sorted_target[1:] != sorted_target[:-1]])
    out = np.zeros((len(draws), size), dtype=np.int64)
    out[:, sorted_target[starts]] = np.add.reduceat(
        np.asarray(draws, dtype=np.int64)[:, order], starts, axis=1)
    return out


def _check_confidence(confidence):
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(
            confidence, (int, float, np.integer, np.floating)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")


def metric_on_stack(fn, stack, **kwargs):
    """``fn(stack, **kwargs)`` in float, and which matrices it is defined for.

    The metric's own definedness checks record which matrices leave it
    undefined (:func:`numeric._validation.collect_undefined`), so the whole
    stack is one call; a ``ValueError`` raised elsewhere (a check that does
    not record) falls back to halving the stack until the undefined matrices
    are isolated (O(u log R) calls for u of them).

    Returns
    -------
    values : ndarray of float64, shape (R,)
        NaN exactly where ``defined`` is False (never returned to a user).
    defined : ndarray of bool, shape (R,)
    reason : str
        The message of one undefined matrix ("" when all are defined).

    Examples
    --------
    >>> from numeric import kendall_tau_b
    >>> v, ok, why = metric_on_stack(kendall_tau_b, [[[2, 0], [0, 2]], [[4, 0], [0, 0]]])
    >>> float(v[0]), ok.tolist(), why.startswith("tau_b is undefined")
    (1.0, [True, False], True)
    """
    stack = np.asarray(stack)
    values = np.full(len(stack), np.nan)
    defined = np.zeros(len(stack), dtype=bool)
    reason = []

    def run(lo, hi):
        try:
            with collect_undefined() as masks:
                out = fn(stack[lo:hi], **kwargs, arithmetic="float")
            ok = np.ones(hi - lo, dtype=bool)
            for mask in masks:
                ok &= ~np.broadcast_to(mask, ok.shape)
            if not ok.all() and not reason:
                try:  # the message of the first undefined matrix, from the metric itself
                    fn(stack[lo + int(np.argmin(ok))], **kwargs, arithmetic="float")
                except ValueError as exc:
                    reason.append(str(exc))
            values[lo:hi] = np.where(ok, out, np.nan)
            defined[lo:hi] = ok
        except ValueError as exc:
            if hi - lo == 1:
                reason.append(str(exc))
                return
            mid = (lo + hi) // 2
            run(lo, mid)
            run(mid, hi)

    if len(stack):
        run(0, len(stack))
    return values, defined, (reason[0] if reason else "")


def percentile_interval(values, confidence=0.95):
    r"""The percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13).

    .. math:: [\hat\theta^{*(\alpha/2)},\ \hat\theta^{*(1-\alpha/2)}],\quad \alpha = 1 - \text{confidence}

    Quantiles by numpy's default (linear) rule, as ``scipy.stats.bootstrap``
    with ``method="percentile"``.

    >>> percentile_interval(np.arange(101.0), 0.9)
    (5.0, 95.0)
    """
    _check_confidence(confidence)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(np.asarray(values, dtype=np.float64), [a, 1 - a])
    return float(lo), float(hi)


@dataclass(frozen=True)
class MetricComparison:
    """One metric (one report variant) of A and B, their difference B - A,
    and paired-bootstrap percentile intervals of all three.

    ``undefined`` counts the resamples dropped for A, B and the difference.
    The intervals are ``None`` when the metric is undefined on the data.
    """

    name: str
    label: str
    better: str
    source: str
    a: float | None
    b: float | None
    diff: float | None
    a_ci: tuple | None = None
    b_ci: tuple | None = None
    diff_ci: tuple | None = None
    undefined: tuple = (0, 0, 0)
    note: str = ""

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"``, or ``""`` when no difference can be established: the
        interval of B - A contains 0, or has zero width (every resample, or all but a
        few beyond the percentiles, gave the same difference: the bootstrap saw no
        variation, e.g. every sample the same triple, so it cannot bound the error)."""
        if self.diff_ci is None or self.diff_ci[0] <= 0 <= self.diff_ci[1] \
                or self.diff_ci[0] == self.diff_ci[1]:
            return ""
        b_higher = self.diff_ci[0] > 0
        return "B" if b_higher == (self.better == "higher") else "A"

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v)
                for k, v in self.__dict__.items()} | {"winner": self.winner}


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`: one :class:`MetricComparison` per row."""

    rows: tuple
    names: tuple
    n_resamples: int
    confidence: float
    N: int
    labels: tuple
    seed: object = None
    warnings: tuple = field(default=())

    def __getitem__(self, label) -> MetricComparison:
        """The row of a label (``"MAE"``) or, for a one-variant metric, its name."""
        from .report import row_of

        return row_of(self.rows, label)

    def to_dict(self) -> dict:
        return {"names": list(self.names), "n_resamples": self.n_resamples,
                "confidence": self.confidence, "N": self.N,
                "labels": [x.item() if hasattr(x, "item") else x for x in self.labels],
                "seed": self.seed if isinstance(self.seed, (int, type(None))) else str(self.seed),
                "metrics": [r.to_dict() for r in self.rows]}

    def __str__(self) -> str:
        from .report import format_table

        a, b = self.names
        pct = f"{100 * self.confidence:g}%"

        def num(x):
            return "undefined" if x is None else f"{x:.4g}"

        def ci(c):
            return "—" if c is None else f"[{c[0]:.4g}, {c[1]:.4g}]"

        rows = []
        for r in self.rows:
            und = "" if not any(r.undefined) else "/".join(map(str, r.undefined))
            win = {"A": a, "B": b, "": "—"}[r.winner]
            rows.append((r.label, num(r.a), num(r.b), num(r.diff), ci(r.diff_ci), win,
                         r.better, und))
        head = (f"{a} vs {b}: N = {self.N}, {self.n_resamples} paired bootstrap resamples, "
                f"{pct} percentile intervals")
        return head + "\n" + format_table(
            ("metric", a, b, f"{b} - {a}", f"{pct} CI of {b} - {a}", "better model",
             "better", "undefined resamples A/B/diff"), rows)


def compare(y_true, pred_a, pred_b, *, labels=None, n_classes=None, metrics=None,
            n_resamples=10_000, confidence=0.95, seed=None, undefined="drop",
            names=("A", "B"), progress=None) -> Comparison:
    r"""Compare two classifiers on the same samples with paired-bootstrap intervals.

    .. math:: \Delta^{*}_r = m(C^{*}_{B,r}) - m(C^{*}_{A,r}),\qquad
              \mathrm{CI} = [\Delta^{*(\alpha/2)}, \Delta^{*(1-\alpha/2)}]

    For every registered matrix metric (:func:`numeric.report`'s rows): the
    value for A and B, the difference ``B - A``, and percentile intervals
    (Efron & Tibshirani 1993, ch. 13) from :func:`paired_resamples`.  Each
    metric is evaluated once on the whole stack of resampled matrices.  See
    the module docstring for the policy on undefined resamples.

    Parameters
    ----------
    y_true, pred_a, pred_b : array_like, shape (N,)
        True labels and the two classifiers' predictions for the same samples,
        ``N >= 2``: one sample is refused (``ValueError``), since every
        resample would be that sample and every interval a point, from which
        no winner can be named.
    labels : array_like, optional
        Classes in ordinal order (default: the sorted union of the labels,
        numbers and datetimes only; the label handling is
        :func:`numeric.confusion_matrix`'s).
    n_classes : int, optional
        Shorthand for ``labels=range(n_classes)``.
    metrics : list of str, optional
        Registry names (default: every metric of the matrix alone).
    n_resamples : int, default 10000
    confidence : float, default 0.95
    seed : int or numpy.random.Generator, optional
    undefined : {"drop", "raise"}
    names : (str, str)
        Names of A and B in the table.
    progress : callable, optional
        Called as ``progress(i, n, label)`` after each metric.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> t = rng.integers(0, 4, 300)
    >>> a = np.clip(t + rng.integers(-1, 2, 300), 0, 3)    # off by at most one
    >>> b = np.clip(t + rng.integers(-2, 3, 300), 0, 3)    # off by at most two
    >>> c = compare(t, a, b, metrics=["mae"], n_resamples=2000, seed=0)
    >>> row = c["MAE"]
    >>> row.diff > 0, row.diff_ci[0] > 0, row.winner
    (True, True, 'A')
    """
    if undefined not in ("drop", "raise"):
        raise ValueError(f"undefined must be 'drop' or 'raise', got {undefined!r}")
    _check_confidence(confidence)
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != 2:
        raise ValueError(f"names must be two names (A's and B's), got {names!r}")
    from .report import metric_cases

    cases = metric_cases(metrics)
    cm_a, cm_b, sa, sb, lab = paired_resamples(
        y_true, pred_a, pred_b, labels=labels, n_classes=n_classes, n_resamples=n_resamples,
        seed=seed)
    rows, notes = [], []
    for i, (m, v) in enumerate(cases, start=1):
        kw = v.kwargs(cm_a)
        point = []
        why = ""
        for cm in (cm_a, cm_b):
            try:
                point.append(float(m.function(cm, **kw, arithmetic="float")))
            except ValueError as exc:
                point.append(None)
                why = why or str(exc)
        if None in point:
            rows.append(MetricComparison(m.name, v.label, m.better, m.source, point[0], point[1],
                                         None, note=f"undefined on the data: {why}"))
        else:
            va, oka, wa = metric_on_stack(m.function, sa, **kw)
            vb, okb, wb = metric_on_stack(m.function, sb, **kw)
            ok = oka & okb
            und = (int((~oka).sum()), int((~okb).sum()), int((~ok).sum()))
            note = ""
            diff_ci = percentile_interval(vb[ok] - va[ok], confidence) if ok.any() else None
            if diff_ci is not None and diff_ci[0] == diff_ci[1] != 0:
                note = (f"no difference can be established: the {confidence:.0%} interval of "
                        f"the difference is the single value {diff_ci[0]:.4g} (the resamples "
                        "hardly vary: the bootstrap cannot bound the error)")
            if und[2]:
                msg = (f"{v.label}: {und[2]} of {len(ok)} resamples undefined "
                       f"(A {und[0]}, B {und[1]}), e.g. {wa or wb}")
                if undefined == "raise":
                    raise ValueError(msg)
                notes.append(msg)
                note = f"{note}; {msg}" if note else msg
            rows.append(MetricComparison(
                m.name, v.label, m.better, m.source, point[0], point[1], point[1] - point[0],
                a_ci=percentile_interval(va[oka], confidence) if oka.any() else None,
                b_ci=percentile_interval(vb[okb], confidence) if okb.any() else None,
                diff_ci=diff_ci,
                undefined=und, note=note))
        if progress is not None:
            progress(i, len(cases), v.label)
    if notes:
        warnings.warn("; ".join(notes) + " (dropped: intervals over the defined resamples)",
                      UndefinedResampleWarning, stacklevel=2)
    return Comparison(tuple(rows), tuple(names), int(n_resamples), float(confidence),
                      N=int(cm_a.sum()), labels=tuple(lab.tolist()), seed=seed,
                      warnings=tuple(notes))
