"""Two or more classifiers on the same samples: every metric, paired-bootstrap intervals.

The resampling is exact and cheap: drawing ``N`` samples with replacement
from the ``N`` tuples ``(true, pred_1, ..., pred_k)`` gives the same joint
law as one multinomial draw over the counts of the distinct tuples
(Efron & Tibshirani 1993, §6: the bootstrap resamples the empirical
distribution, which puts mass ``n_c / N`` on cell ``c``).  So a resample
costs O(number of distinct tuples <= N), not O(N) per classifier, and the
classifiers' resampled confusion matrices are margins of the same draw: the
pairing is kept for every pair.  Each registered float metric is then called
once per classifier on the whole stack of resampled matrices.

The winner rule (:func:`winner_of`, the one place it is decided; the CLI,
``str()``, JSON, CSV and LaTeX read it): a pair has a winner only where the
percentile interval of the paired difference excludes 0 and has a positive
width (a zero-width interval, all resamples giving one difference, names no
winner); with ``adjust="holm"`` the Holm-adjusted p-value must also be
below ``1 - confidence``.  The p-value (:func:`bootstrap_p_value`) is the
percentile interval inverted: the smallest ``alpha`` whose equal-tailed
``1 - alpha`` percentile interval of the resampled differences excludes 0,
about twice the smaller of the proportions of resampled differences
``<= 0`` and ``>= 0`` (the achieved significance level read off the
bootstrap distribution, Efron & Tibshirani 1993 ch. 15-16; Davison &
Hinkley 1997 §4.4).  So without adjustment ``p < 1 - confidence`` exactly
when the interval excludes 0.  Holm's step-down adjustment (Holm 1979) runs
over every row and pair of the comparison (:func:`holm`).

Undefined resamples.  A resampled matrix can leave a metric undefined (tau_b
when every resampled sample has one class; TC when a true class drew no
sample).  Policy ``undefined="drop"`` (default): the interval is the
percentile interval of the resamples where the metric is defined (for the
difference: defined for both classifiers); the number of undefined resamples
is kept in the result, shown in the table, and an
:class:`UndefinedResampleWarning` names them.  ``undefined="raise"`` raises
``ValueError`` instead.  A metric undefined on the data themselves gets no
interval (``note`` says why, naming the classes by their labels).
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from dataclasses import dataclass, field

import numpy as np

from ._validation import collect_undefined
from .errors import UndefinedResampleWarning  # defined in numeric.errors, re-exported here
from .reporting import latex_escape, latex_table  # the renderers, defined in numeric.reporting

__all__ = ["Comparison", "MetricComparison", "PairTable", "comparison_record", "UndefinedResampleWarning", "compare",
           "paired_resamples", "joint_resamples", "metric_on_stack", "percentile_interval",
           "bootstrap_p_value", "holm", "winner_of", "DEFAULT_RESAMPLES", "COMPARISON_COLUMNS"]

#: the number of bootstrap resamples of :func:`compare` and of the CLI's ``metrics``
DEFAULT_RESAMPLES = 10_000

#: the adjustments of the p-values across the rows and pairs of a comparison
ADJUSTMENTS = ("none", "holm")


def _letters(k):
    """Default classifier names: ``A, B, ...`` (``P1, P2, ...`` beyond 26)."""
    return tuple(chr(65 + i) for i in range(k)) if k <= 26 else tuple(f"P{i + 1}" for i in range(k))


def joint_resamples(y_true, preds, *, labels=None, n_classes=None,
                    n_resamples=DEFAULT_RESAMPLES, seed=None):
    r"""The confusion matrices of ``k`` classifiers on the same bootstrap resamples.

    .. math:: (n^{*}_{c}) \sim \mathrm{Multinomial}\big(N; (n_{c}/N)\big),\quad
              C^{*}_i[t, p] = \sum_{c:\ c_0 = t,\ c_i = p} n^{*}_{c}

    over the distinct tuples ``c = (true, pred_1, ..., pred_k)`` of the data:
    the same law as resampling the ``N`` indices with replacement (Efron &
    Tibshirani 1993, §6 and §15).  The labels are handled as by
    :func:`numeric.confusion_matrix` (:func:`numeric.confusion.label_codes`).
    For ``k = 2`` the draws are those of :func:`paired_resamples` with the
    same seed.

    Returns
    -------
    cms : ndarray of int64, shape (k, K, K)
    stacks : ndarray of int64, shape (k, n_resamples, K, K)
        ``stacks[i, r]`` and ``stacks[j, r]`` come from the same resample.
    labels : ndarray, shape (K,)

    Examples
    --------
    >>> cms, st, lab = joint_resamples([1, 2, 3, 3], [[1, 2, 2, 3], [1, 3, 3, 3], [2, 2, 3, 3]],
    ...                                n_resamples=4, seed=0)
    >>> st.shape, bool((st.sum(axis=3)[0] == st.sum(axis=3)[2]).all())
    ((3, 4, 3, 3), True)
    """
    from ._validation import positive_integer
    from .confusion import check_cells, label_codes

    n_resamples = positive_integer(n_resamples, "n_resamples")
    preds = list(preds)
    k = len(preds)
    tags = [f"pred_{c.lower()}" for c in _letters(k)]
    lab, codes = label_codes({"y_true": y_true} | dict(zip(tags, preds, strict=True)),
                             labels=labels, n_classes=n_classes)
    K, N = lab.size, codes[0].size
    check_cells(n_resamples * K * K, f"{n_resamples} resampled confusion matrices of {K} classes")
    if N < 2:
        raise ValueError(
            f"{'label vectors are empty' if N == 0 else 'one sample'}: a bootstrap needs at least "
            "2 samples (every resample of one sample is that sample, so every interval would "
            "have zero width and name a winner from nothing)")
    # the distinct (true, pred_1, ..., pred_k) tuples, lexicographically, and their counts
    cells, joint = np.unique(np.stack(codes, axis=1), axis=0, return_counts=True)
    tt = cells[:, 0]
    cms = np.stack([_margin(joint[None, :], tt * K + cells[:, i], K * K)[0].reshape(K, K)
                    for i in range(1, k + 1)])
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:  # numpy's message does not name the argument
        raise type(exc)(f"seed must be None, a non-negative integer or a numpy Generator, got "
                        f"{seed!r:.60} ({exc})") from None
    draws = rng.multinomial(N, joint / N, size=n_resamples)  # (R, cells)
    stacks = np.stack([_margin(draws, tt * K + cells[:, i], K * K).reshape(n_resamples, K, K)
                       for i in range(1, k + 1)])
    return cms, stacks, lab


def paired_resamples(y_true, pred_a, pred_b, *, labels=None, n_classes=None,
                     n_resamples=DEFAULT_RESAMPLES, seed=None):
    r"""The confusion matrices of A and B on the same bootstrap resamples.

    .. math:: (n^{*}_{t,a,b}) \sim \mathrm{Multinomial}\big(N; (n_{t,a,b}/N)\big),\quad
              C^{*}_A[t,a] = \sum_b n^{*}_{t,a,b},\quad C^{*}_B[t,b] = \sum_a n^{*}_{t,a,b}

    The nonparametric bootstrap of paired samples (Efron & Tibshirani 1993,
    §6 and §15), drawn as one multinomial over the distinct
    ``(true, pred_A, pred_B)`` triples: the same law as resampling the ``N``
    indices with replacement (:func:`joint_resamples` with two classifiers).

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
    cms, stacks, lab = joint_resamples(y_true, [pred_a, pred_b], labels=labels,
                                       n_classes=n_classes, n_resamples=n_resamples, seed=seed)
    return cms[0], cms[1], stacks[0], stacks[1], lab


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


def bootstrap_p_value(diffs) -> float:
    r"""The two-sided bootstrap p-value of "no difference": the percentile interval inverted.

    .. math:: p = \min\{\alpha : 0 \notin [\hat\Delta^{*(\alpha/2)}, \hat\Delta^{*(1-\alpha/2)}]\}
              \approx 2 \min\big(P^{*}(\Delta^{*} \le 0),\ P^{*}(\Delta^{*} \ge 0)\big)

    The smallest ``alpha`` for which the equal-tailed ``1 - alpha``
    percentile interval (:func:`percentile_interval`, numpy's linear
    quantiles) of the resampled differences excludes 0; the right-hand side
    is twice the smaller tail proportion around 0 (the bootstrap achieved
    significance level, Efron & Tibshirani 1993 ch. 15-16), from which it
    differs by at most ``2 / (R - 1)``.  Inverting the interval itself makes
    the test and the interval agree: ``p < 1 - confidence`` exactly when the
    interval at ``confidence`` excludes 0.  ``p = 0`` when every resampled
    difference is on one side of 0 (report it as ``p < 1/R``); 1 when 0 is
    the median.

    Examples
    --------
    >>> bootstrap_p_value([-1.0, 1.0, 2.0, 3.0, 4.0])   # lower quantile > 0 from q = 1/8 on
    0.25
    >>> bootstrap_p_value([1.0, 2.0]), bootstrap_p_value([0.0, 0.0, 0.0])
    (0.0, 1.0)
    """
    s = np.sort(np.asarray(diffs, dtype=np.float64).ravel())
    if s.size == 0 or not np.isfinite(s).all():
        raise ValueError("bootstrap_p_value needs finite resampled differences, at least one")

    def first_q_above_zero(v):
        # the infimum of q with quantile(v, q) > 0 (linear interpolation: index h = (R-1) q)
        c = int(np.searchsorted(v, 0.0, side="right"))  # values <= 0
        if c == 0:
            return 0.0
        if c == v.size:
            return 1.0
        h = (c - 1) + (0.0 - v[c - 1]) / (v[c] - v[c - 1])
        return h / (v.size - 1)

    q = min(first_q_above_zero(s), first_q_above_zero(-s[::-1]))
    return float(min(1.0, 2.0 * q))


def holm(p_values):
    r"""Holm's step-down adjusted p-values (Holm 1979).

    .. math:: \tilde p_{(i)} = \max_{j \le i} \min\big(1, (m - j + 1)\, p_{(j)}\big)

    for the p-values sorted ascending, ``p_(1) <= ... <= p_(m)``; rejecting
    where ``p~ < alpha`` is Holm's procedure at family-wise level ``alpha``.

    >>> holm([0.01, 0.04, 0.03, 0.2]).tolist()
    [0.04, 0.09, 0.09, 0.2]
    """
    p = np.asarray(p_values, dtype=np.float64).ravel()
    m = p.size
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(np.argsort(p, kind="stable")):
        running = max(running, min(1.0, (m - rank) * float(p[i])))
        adjusted[i] = running
    return adjusted


def winner_of(diff_ci, better, p_adjusted=None, alpha=None) -> str:
    """``"A"``, ``"B"`` or ``""``: the one winner rule of every output.

    No winner when there is no interval, when it contains 0, when it has
    zero width (every resample, or all but the tails, gave one difference:
    no variation to judge a winner from), or, with an adjustment, when the
    adjusted p-value is not below ``alpha``.  Else the classifier that the
    sign of the difference ``B - A`` and ``better`` favour.

    >>> winner_of((0.1, 0.3), "lower"), winner_of((0.1, 0.3), "higher"), winner_of((-0.1, 0.3), "lower")
    ('A', 'B', '')
    >>> winner_of((0.2, 0.2), "higher"), winner_of((0.1, 0.3), "higher", p_adjusted=0.08, alpha=0.05)
    ('', '')
    """
    if diff_ci is None:
        return ""
    lo, hi = diff_ci
    if not lo < hi or lo <= 0 <= hi:
        return ""
    if p_adjusted is not None and not p_adjusted < alpha:
        return ""
    return "B" if (lo > 0) == (better == "higher") else "A"


#: the columns of :meth:`Comparison.records` (CSV, JSON, ``to_pandas()``): one
#: row per metric variant and pair; ``diff = value_b - value_a``; ``winner``
#: the winning classifier's name or ""
COMPARISON_COLUMNS = ("metric", "name", "label", "better", "a", "b", "value_a", "value_b", "diff",
                      "ci_low", "ci_high", "p_value", "p_adjusted", "adjust", "winner",
                      "a_ci_low", "a_ci_high", "b_ci_low", "b_ci_high", "undefined_a",
                      "undefined_b", "undefined_diff", "source", "note")


class PairRow:
    """What a row of a comparison derives from its fields (``diff_ci``, ``better``,
    ``p_adjusted``, ``alpha``, ``pair``): its winner by :func:`winner_of`, the
    winner's name, and its record.  Shared by the paired rows
    (:class:`MetricComparison`) and the grouped ones
    (:class:`numeric.groups.GroupMetricComparison`), so the rule is one."""

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"``, or ``""`` (:func:`winner_of`)."""
        return winner_of(self.diff_ci, self.better, self.p_adjusted, self.alpha)

    @property
    def winner_name(self) -> str:
        """The winner's name (``pair``), or ``""``."""
        w = self.winner
        return "" if not w else self.pair[0 if w == "A" else 1]

    def to_dict(self) -> dict:
        """The row as a record with the columns :data:`COMPARISON_COLUMNS`."""
        return comparison_record(self)


@dataclass(frozen=True)
class MetricComparison(PairRow):
    """One metric (one report variant) of a pair of classifiers A and B, their
    difference B - A, and paired-bootstrap percentile intervals of all three.

    ``undefined`` counts the resamples dropped for A, B and the difference.
    The intervals are ``None`` when the metric is undefined on the data.
    ``key`` is the variant's unique name, ``pair`` the names of A and B,
    ``p_value`` the bootstrap p-value of the difference
    (:func:`bootstrap_p_value`), ``p_adjusted`` its Holm adjustment (``None``
    without one), ``alpha = 1 - confidence``.
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
    key: str = ""
    pair: tuple = ("A", "B")
    p_value: float | None = None
    p_adjusted: float | None = None
    alpha: float = 0.05



def comparison_record(r) -> dict:
    """A row of a paired or grouped comparison as a record with the columns
    :data:`COMPARISON_COLUMNS` (the CSV, JSON and ``to_pandas()`` of both)."""
    def ends(ci):
        return (None, None) if ci is None else (float(ci[0]), float(ci[1]))

    return dict(zip(COMPARISON_COLUMNS, (
        r.key or r.name, r.name, r.label, r.better, r.pair[0], r.pair[1],
        r.a, r.b, r.diff, *ends(r.diff_ci), r.p_value, r.p_adjusted,
        "none" if r.p_adjusted is None else "holm", r.winner_name, *ends(r.a_ci),
        *ends(r.b_ci), *map(int, r.undefined), r.source, r.note), strict=True))


class PairTable:
    """What a paired (:class:`Comparison`) and a grouped comparison
    (:class:`numeric.groups.GroupComparison`) share: rows per metric variant and
    pair, looked up as ``c["MAE"]`` or ``c["MAE", "A", "C"]``, and the same
    exports (:meth:`records`, :meth:`to_pandas`, :meth:`table`, :meth:`to_latex`,
    ``str()``) with the columns :data:`COMPARISON_COLUMNS` and the winner rule
    :func:`winner_of`."""

    @property
    def pairs(self) -> tuple:
        return tuple(itertools.combinations(self.names, 2))

    @property
    def metrics(self) -> tuple:
        """The unique keys of the metric variants, in the table's order."""
        return tuple(dict.fromkeys(r.key or r.name for r in self.rows))

    def __getitem__(self, key):
        if isinstance(key, tuple):
            if len(key) != 3:
                raise KeyError(f"{key!r}: give c[metric] or c[metric, A, B]")
            return self.row(*key)
        return self.row(key)

    def row(self, metric, a=None, b=None):
        """The row of ``metric`` (a label, a key, or the name of a one-variant
        metric) and the pair ``(a, b)`` (needed with three or more classifiers)."""
        from .reporting import row_of

        variant = row_of([r for r in self.rows if r.pair == self.pairs[0]], metric)
        hits = [r for r in self.rows if r.key == variant.key and r.label == variant.label]
        if a is not None or b is not None:
            hits = [r for r in hits if r.pair == (a, b)]
            if not hits:
                raise KeyError(f"no pair ({a!r}, {b!r}); the pairs are {list(self.pairs)}")
        if len(hits) != 1:
            raise KeyError(f"{metric!r} has {len(hits)} pairs; give c[{metric!r}, A, B] with "
                           f"one of {list(self.pairs)}")
        return hits[0]

    def records(self) -> list:
        """One dict per row with the columns :data:`COMPARISON_COLUMNS`."""
        return [comparison_record(r) for r in self.rows]

    def to_pandas(self):
        """The rows as a :class:`pandas.DataFrame`, columns :data:`COMPARISON_COLUMNS`
        (pandas, the ``pandas`` extra, is imported here)."""
        from .reporting import to_pandas

        return to_pandas(self.records(), COMPARISON_COLUMNS)

    def table(self, exact=None):
        """``(header, align, rows, notes, footer)`` of the comparison table, the
        cells of ``str()``, the CLI and :meth:`to_latex`.

        One row per metric variant and pair.  Values, differences and interval
        ends have the decimals of two significant digits of the metric's
        narrowest interval (:func:`numeric.reporting.decimals_for`; 4 significant
        digits without one); ``exact`` (``{name: Report}`` in exact arithmetic,
        paired comparisons only) prints the closed forms of values and
        differences instead.  An undefined value or dropped resamples get a
        numbered note.
        """
        return _table(self, exact, style="text")

    def to_latex(self, caption=None, exact=None) -> str:
        """The table as LaTeX (booktabs: ``\\usepackage{booktabs}``): intervals,
        p-values, the winner's value in bold and named in the last column, the
        notes under the table."""
        return _table(self, exact, style="latex", caption=caption)

    def __str__(self) -> str:
        return _table(self, None, style="text", joined=True)


@dataclass(frozen=True)
class Comparison(PairTable):
    """The result of :func:`compare`: one :class:`MetricComparison` per metric
    variant and pair of classifiers, the pairs ``(names[i], names[j])`` for
    ``i < j`` in that order within each metric.

    ``c["MAE"]`` is the row of a metric (label, key or one-variant name) when
    there is one pair; ``c["MAE", "A", "C"]`` picks the pair.
    """

    rows: tuple
    names: tuple
    n_resamples: int
    confidence: float
    N: int
    labels: tuple
    seed: object = None
    warnings: tuple = field(default=())
    adjust: str = "none"
    matrices: dict = field(default=None, repr=False, compare=False)
    #: ``{(key, name): reason}`` for a metric undefined on a classifier's data
    reasons: dict = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict:
        return {"names": list(self.names), "n_resamples": self.n_resamples,
                "confidence": self.confidence, "adjust": self.adjust, "N": self.N,
                "labels": [x.item() if hasattr(x, "item") else x for x in self.labels],
                "seed": self.seed if isinstance(self.seed, (int, type(None))) else str(self.seed),
                "columns": list(COMPARISON_COLUMNS), "metrics": self.records()}

    def per_class(self, name=None):
        """The per-class view (:func:`numeric.reporting.per_class`) of classifier
        ``name``, or ``{name: PerClass}`` of all."""
        from .reporting import per_class

        if self.matrices is None:
            raise ValueError("this comparison holds no confusion matrices")
        if name is None:
            return {n: per_class(self.matrices[n], labels=self.labels) for n in self.names}
        if name not in self.matrices:
            raise KeyError(f"no classifier {name!r}; the names are {list(self.names)}")
        return per_class(self.matrices[name], labels=self.labels)

    # the table's wording (:func:`_table`)
    def _p_resamples(self, r):
        return self.n_resamples - r.undefined[2]

    def _headline(self):
        return f"{' vs '.join(self.names)}: N = {self.N}"

    def _title(self):
        return (", ".join(self.names[:-1]) + f" and {self.names[-1]} on {self.N} samples "
                f"({len(self.labels)} classes): paired-bootstrap comparison.")

    def _footer(self, pct, tests):
        holm_on = self.adjust == "holm"
        return (f"{self.N} samples, {len(self.labels)} classes; {self.n_resamples} paired "
                f"bootstrap resamples (seed {self.seed}), {pct} percentile intervals; p: "
                "two-sided, the percentile interval inverted"
                + (f", Holm-adjusted over {tests} tests (rows x pairs)" if holm_on else ""))

    _what_differs = "paired difference"
    _grouped = False


# ---------------------------------------------------------------------------
# the table: text and LaTeX from the same cells
# ---------------------------------------------------------------------------
def _format_p(p, resamples, latex=False):
    """``resamples``: the bootstrap resamples behind ``p`` (``p = 0`` is shown as
    ``< 1/R``), or None for a p-value of a t test (``p = 0`` only by underflow)."""
    if p is None:
        return "—" if not latex else "--"
    if p == 0 and resamples is None:
        return "<1e-300" if not latex else "$<10^{-300}$"
    if p == 0:
        s = f"{1 / max(resamples, 1):.1g}"
        return f"<{s}" if not latex else f"$<{_latex_number(s)}$"
    s = f"{p:.1e}" if p < 1e-3 else f"{p:.2g}"
    return s if not latex else f"${_latex_number(s)}$"


def _latex_number(s):
    """``"9.4e-04"`` -> ``9.4\\times10^{-4}``; other numbers as they are."""
    mantissa, e, exponent = s.partition("e")
    return f"{mantissa}\\times10^{{{int(exponent)}}}" if e else s


class _Cells:
    """How the cells of a comparison table are written: plain text or LaTeX."""

    def __init__(self, latex):
        self.latex = latex
        self.dash = "--" if latex else "—"

    def text(self, s):
        return latex_escape(s) if self.latex else s

    def mark(self, cell, n):
        """``cell`` with a reference to note ``n``."""
        return f"{cell}$^{{{n}}}$" if self.latex else f"{cell} [{n}]"

    def num(self, x, d, bold=False):
        from .reporting import format_decimal

        if not self.latex:
            return format_decimal(x, d)
        if x is None:
            return "undefined"
        return f"$\\mathbf{{{format_decimal(x, d)}}}$" if bold else f"${format_decimal(x, d)}$"

    def exact(self, v):
        return "undefined" if v is None else (f"${_latex_expr(v)}$" if self.latex else str(v))

    def interval(self, ci, d):
        from .reporting import format_decimal

        if ci is None:
            return self.dash
        text = f"[{format_decimal(ci[0], d)}, {format_decimal(ci[1], d)}]"
        return f"${text}$" if self.latex else text


class _Notes(list):
    """The numbered notes under a table; :meth:`number` adds a note once."""

    def number(self, text):
        if text not in self:
            self.append(text)
        return self.index(text) + 1


def _table(c, exact, style, caption=None, joined=False):
    from .reporting import format_table

    cells = _Cells(style == "latex")
    pct = f"{100 * c.confidence:g}%"
    notes = _Notes()
    rows = _table_rows(c, exact, cells, notes)
    header, align = _table_header(c, cells, pct)
    alpha = 1 - c.confidence
    tests = sum(r.p_value is not None for r in c.rows)
    rule = (f"winner: where the {pct} interval of the {c._what_differs} excludes 0 (and has a "
            f"positive width)" + (f" and the Holm-adjusted p < {alpha:.3g}" if c.adjust == "holm" else "")
            + ("" if cells.latex else "; — : none"))
    footer = c._footer(pct, tests) + f";\n{rule}"
    if cells.latex:
        return latex_table(header, align, rows, notes, caption or c._title(),
                           legend=footer.replace("\n", " "))
    if not joined:
        return header, align, rows, list(notes), footer
    lines = [c._headline(), format_table(header, rows, align=align)]
    lines += [f"[{i}] {n}" for i, n in enumerate(notes, start=1)]
    lines.append(footer)
    return "\n".join(lines)


def _table_rows(c, exact, cells, notes):
    """One row of cells per metric variant and pair (LaTeX: a blank line between metrics)."""
    from .reporting import decimals_for

    by_metric = {}
    for r in c.rows:
        by_metric.setdefault((r.key, r.label), []).append(r)
    rows = []
    for (key, label), group in by_metric.items():
        widths = [ci[1] - ci[0] for r in group for ci in (r.a_ci, r.b_ci, r.diff_ci)
                  if ci is not None and ci[1] > ci[0]]
        d = decimals_for(min(widths)) if widths else None
        if cells.latex and rows:
            rows.append(None)
        for n, r in enumerate(group):
            rows.append(_table_row(c, r, key, label, d, first=n == 0, exact=exact, cells=cells, notes=notes))
    return rows


def _table_row(c, r, key, label, d, *, first, exact, cells, notes):
    """The cells of one row: metric and better side (on the first row of a metric),
    the pair (more than two classifiers), values, difference, interval, p-values, winner."""
    a_name, b_name = r.pair
    win = r.winner_name
    if exact is not None:
        ea, eb = exact[a_name][key].value, exact[b_name][key].value
        va, vb = cells.exact(ea), cells.exact(eb)
        vd = cells.exact(None if ea is None or eb is None else eb - ea)
    else:
        va, vb = cells.num(r.a, d, win == a_name), cells.num(r.b, d, win == b_name)
        vd = cells.num(r.diff, d)
    for value, name in ((r.a, a_name), (r.b, b_name)):
        if value is None:
            reason = c.reasons.get((key, name), r.note)
            same = [x for x in c.names if c.reasons.get((key, x)) == reason] or [name]
            k = notes.number(f"{label} is undefined for {', '.join(same)}: {reason}")
            if name == a_name:
                va = cells.mark(va, k)
            else:
                vb = cells.mark(vb, k)
    ci = cells.interval(r.diff_ci, d)
    if r.note and r.a is not None and r.b is not None:
        ci = cells.mark(ci, notes.number(r.note))
    out = [cells.text(label), r.better]
    if len(c.names) != 2:
        out = (out if first else ["", ""]) + [cells.text(a_name), cells.text(b_name)]
    out += [va, vb, vd, ci, _format_p(r.p_value, c._p_resamples(r), cells.latex)]
    if c.adjust == "holm":
        out.append(_format_p(r.p_adjusted, c._p_resamples(r), cells.latex))
    out.append(cells.text(win) or cells.dash)
    return out


def _table_header(c, cells, pct):
    """The column titles and their alignment (``l``/``r`` per column)."""
    latex, two, holm_on = cells.latex, len(c.names) == 2, c.adjust == "holm"
    if two:
        a, b = c.names
        head_a, head_b = cells.text(a), cells.text(b)
        diff_head = f"{head_b} $-$ {head_a}" if latex else f"{b} - {a}"
        if c._grouped:
            head_a, head_b, diff_head = (f"{h} (mean)" for h in (head_a, head_b, diff_head))
        header = ["Metric" if latex else "metric", "Better" if latex else "better", head_a, head_b,
                  diff_head]
    elif c._grouped:
        header = (["Metric", "Better", "A", "B", r"$\bar m(A)$", r"$\bar m(B)$",
                   r"$\overline{m(B) - m(A)}$"] if latex else
                  ["metric", "better", "A", "B", "mean A", "mean B", "mean B - A"])
    else:
        header = (["Metric", "Better", "A", "B", "$m(A)$", "$m(B)$", "$m(B) - m(A)$"] if latex else
                  ["metric", "better", "A", "B", "value A", "value B", "B - A"])
    header += [f"{cells.text(pct)} CI", "$p$" if latex else "p"]
    if holm_on:
        header.append("$p$ (Holm)" if latex else "p (Holm)")
    header.append("Winner" if latex else "winner")
    align = "ll" + ("" if two else "ll") + "rrrrr" + ("r" if holm_on else "") + "l"
    return header, align


def _latex_expr(v) -> str:
    try:
        import sympy

        return sympy.latex(v)
    except (ImportError, TypeError, AttributeError):
        return str(v)


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------
_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
          9: "nine", 10: "ten"}


def _check_names(names, k):
    if names is None:
        return _letters(k)
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != k:
        raise ValueError(f"names must be {_WORDS.get(k, k)} names (one per prediction), "
                         f"got {names!r:.80}")
    names = tuple(names)
    if not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"names must be non-empty strings, got {names!r:.80}")
    if len(set(names)) != k:
        raise ValueError(f"names must differ (they name the pairs), got {names!r:.80}")
    return names


def _check_undefined_and_adjust(undefined, adjust):
    """``adjust`` (None read as ``"none"``) after checking it and ``undefined``
    (:func:`compare`, :func:`numeric.compare_groups`)."""
    if undefined not in ("drop", "raise"):
        raise ValueError(f"undefined must be 'drop' or 'raise', got {undefined!r}")
    adjust = "none" if adjust is None else adjust
    if adjust not in ADJUSTMENTS:
        raise ValueError(f"adjust must be one of {ADJUSTMENTS}, got {adjust!r:.40}")
    return adjust


def _holm_rows(rows):
    """The rows with ``p_adjusted``, Holm's adjustment over every row that has a p-value."""
    rows = list(rows)
    tested = [n for n, r in enumerate(rows) if r.p_value is not None]
    for n, p in zip(tested, holm([rows[n].p_value for n in tested]), strict=True):
        rows[n] = dataclasses.replace(rows[n], p_adjusted=float(p))
    return rows


def _on_data_and_resamples(m, kw, cm, stack, confidence, class_labels):
    """One classifier's metric: ``(point, why, values, ok, ci, resample_why)``, the value
    on the data (None, and why, when undefined there), the values on the resamples,
    which are defined, their percentile interval, and why some are not."""
    from .reporting import class_labels_in

    try:
        point = float(m.function(cm, **kw, arithmetic="float"))
    except ValueError as exc:
        return None, class_labels_in(str(exc), class_labels), None, np.zeros(stack.shape[0], dtype=bool), None, ""
    vals, defined, w = metric_on_stack(m.function, stack, **kw)
    ci = percentile_interval(vals[defined], confidence) if defined.any() else None
    return point, "", vals, defined, ci, class_labels_in(w, class_labels)


def compare(y_true, pred_a, pred_b, *more, labels=None, n_classes=None, metrics=None,
            n_resamples=DEFAULT_RESAMPLES, confidence=0.95, seed=None, undefined="drop",
            names=None, adjust="none", progress=None, groups=None, method=None,
            test_train_ratio=None):
    r"""Compare classifiers on the same samples with paired-bootstrap intervals.

    .. math:: \Delta^{*}_r = m(C^{*}_{B,r}) - m(C^{*}_{A,r}),\qquad
              \mathrm{CI} = [\Delta^{*(\alpha/2)}, \Delta^{*(1-\alpha/2)}]

    For every registered matrix metric (:func:`numeric.report`'s rows) and
    every pair ``(A, B)`` of the classifiers (in the order given, ``A``
    first): the values, the difference ``B - A``, percentile intervals
    (Efron & Tibshirani 1993, ch. 13) from one joint bootstrap of all the
    classifiers (:func:`joint_resamples`), the bootstrap p-value of the
    difference (:func:`bootstrap_p_value`) and the winner
    (:func:`winner_of`).  Each metric is evaluated once per classifier on the
    whole stack of resampled matrices.  See the module docstring for the
    winner rule and the policy on undefined resamples.

    Parameters
    ----------
    y_true, pred_a, pred_b, *more : array_like, shape (N,)
        True labels and two or more classifiers' predictions for the same
        samples, ``N >= 2``: one sample is refused (``ValueError``), since
        every resample would be that sample and every interval a point.
    labels : array_like, optional
        Classes in ordinal order (default: the sorted union of the labels,
        numbers and datetimes only; the label handling is
        :func:`numeric.confusion_matrix`'s).  Messages name the classes by
        these labels.
    n_classes : int, optional
        Shorthand for ``labels=range(n_classes)``.
    metrics : list of str, optional
        Registry names (every variant) or variant keys (``"amae_zero"``), in
        the order of the table (default: every metric of the matrix alone).
    n_resamples : int, default :data:`DEFAULT_RESAMPLES` (10,000; the CLI's too)
    confidence : float, default 0.95
    seed : int or numpy.random.Generator, optional
    undefined : {"drop", "raise"}
    names : sequence of str, optional
        The classifiers' names (default ``"A", "B", ...``).
    adjust : {"none", "holm"}
        ``"holm"``: Holm's adjustment of the p-values over every row and pair
        (:func:`holm`); a winner then needs an adjusted p below
        ``1 - confidence`` too.
    progress : callable, optional
        Called as ``progress(i, n, label)`` after each metric variant.
    groups : array_like, shape (N,), optional
        The fold or seed id of each row: the comparison is then over the
        groups (:func:`numeric.compare_groups`: every metric on each group,
        the means over the groups, and intervals that take the group as the
        unit), with the same rows, look-ups and exports.
    method : {"corrected_t", "bootstrap"}, optional
        With ``groups``: Nadeau & Bengio's corrected resampled t interval
        (default) or the group bootstrap (``n_resamples``, ``seed``).
    test_train_ratio : float, optional
        With ``groups`` and ``method="corrected_t"`` (required there):
        ``n_test / n_train`` of each group's split, ``1/(k-1)`` for k-fold
        cross-validation.

    Returns
    -------
    Comparison
        Or, with ``groups``, :class:`numeric.GroupComparison`.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> t = rng.integers(0, 4, 300)
    >>> a = np.clip(t + rng.integers(-1, 2, 300), 0, 3)    # off by at most one
    >>> b = np.clip(t + rng.integers(-2, 3, 300), 0, 3)    # off by at most two
    >>> c = compare(t, a, b, metrics=["mae"], n_resamples=2000, seed=0)
    >>> row = c["MAE"]
    >>> row.diff > 0, row.diff_ci[0] > 0, row.winner, row.p_value < 0.05
    (True, True, 'A', True)
    >>> c3 = compare(t, a, b, t, metrics=["mae", "mer"], names=["a", "b", "oracle"],
    ...              n_resamples=500, seed=0, adjust="holm")
    >>> [(r.key, r.pair, r.winner_name) for r in c3.rows][:3]
    [('mae', ('a', 'b'), 'a'), ('mae', ('a', 'oracle'), 'oracle'), ('mae', ('b', 'oracle'), 'oracle')]

    Over five folds (the fold id of each row):

    >>> g = compare(t, a, b, metrics=["mae"], groups=np.arange(300) % 5, test_train_ratio=1 / 4)
    >>> len(g["MAE"].a_groups), g["MAE"].winner_name
    (5, 'A')
    """
    if groups is not None:
        from .groups import compare_groups

        return compare_groups(
            y_true, pred_a, pred_b, *more, groups=groups,
            method="corrected_t" if method is None else method,
            test_train_ratio=test_train_ratio, labels=labels, n_classes=n_classes,
            metrics=metrics, confidence=confidence, n_resamples=n_resamples, seed=seed,
            names=names, adjust=adjust, undefined=undefined, progress=progress)
    if method is not None or test_train_ratio is not None:
        raise ValueError("method= and test_train_ratio= are for comparisons over groups: "
                         "pass groups= (the fold or seed id of each row)")
    from .reporting import metric_rows

    adjust = _check_undefined_and_adjust(undefined, adjust)
    _check_confidence(confidence)
    preds = (pred_a, pred_b, *more)
    names = _check_names(names, len(preds))
    chosen = metric_rows(metrics)
    cms, stacks, lab = joint_resamples(y_true, preds, labels=labels, n_classes=n_classes,
                                       n_resamples=n_resamples, seed=seed)
    class_labels = tuple(x.item() if hasattr(x, "item") else x for x in lab.tolist())
    R, k = stacks.shape[1], len(preds)
    alpha = 1.0 - float(confidence)
    rows, notes, reasons = [], [], {}
    for step, (m, v, key) in enumerate(chosen, start=1):
        kw = v.kwargs(cms[0])
        point, why, values, ok, ci, resample_why = zip(*(
            _on_data_and_resamples(m, kw, cm, stack, confidence, class_labels)
            for cm, stack in zip(cms, stacks, strict=True)), strict=True)
        reasons.update({(key, name): w for name, p, w in zip(names, point, why, strict=True) if p is None})
        for i, j in itertools.combinations(range(k), 2):
            pair = (names[i], names[j])
            common = dict(key=key, pair=pair, alpha=alpha)
            if point[i] is None or point[j] is None:
                bad = [(names[x], why[x]) for x in (i, j) if point[x] is None]
                reason = "; ".join(f"{n}: {w}" for n, w in bad) if len(bad) == 2 and \
                    bad[0][1] != bad[1][1] else f"{' and '.join(n for n, _ in bad)}: {bad[0][1]}"
                rows.append(MetricComparison(
                    m.name, v.label, m.better, m.source, point[i], point[j], None,
                    a_ci=ci[i], b_ci=ci[j], note=f"undefined on the data for {reason}", **common))
                continue
            both = ok[i] & ok[j]
            und = (int((~ok[i]).sum()), int((~ok[j]).sum()), int((~both).sum()))
            note = ""
            if und[2]:
                msg = (f"{v.label}: {und[2]} of {R} resamples undefined ({names[i]} {und[0]}, "
                       f"{names[j]} {und[1]}), e.g. {resample_why[i] or resample_why[j]}")
                if undefined == "raise":
                    raise ValueError(msg)
                notes.append(msg)
                note = msg + " (dropped: the interval is over the defined resamples)"
            diff_ci = p = None
            if both.any():
                d = values[j][both] - values[i][both]
                diff_ci = percentile_interval(d, confidence)
                p = bootstrap_p_value(d)
                if not diff_ci[0] < diff_ci[1]:
                    flat = (f"the {100 * confidence:g}% interval of the difference has zero width "
                            f"(the resampled differences are {'all' if d.min() == d.max() else 'mostly'} "
                            f"{diff_ci[0]:.4g}; the bootstrap cannot bound the error): no difference "
                            "can be established, no winner")
                    note = f"{note}; {flat}" if note else flat
            rows.append(MetricComparison(
                m.name, v.label, m.better, m.source, point[i], point[j], point[j] - point[i],
                a_ci=ci[i], b_ci=ci[j], diff_ci=diff_ci, undefined=und, note=note, p_value=p,
                **common))
        if progress is not None:
            progress(step, len(chosen), v.label)
    if adjust == "holm":
        rows = _holm_rows(rows)
    if notes:
        warnings.warn("; ".join(notes) + " (dropped: intervals over the defined resamples)",
                      UndefinedResampleWarning, stacklevel=2)
    return Comparison(tuple(rows), names, int(R), float(confidence), N=int(cms[0].sum()),
                      labels=class_labels, seed=seed, warnings=tuple(notes), adjust=adjust,
                      matrices=dict(zip(names, cms, strict=True)), reasons=reasons)
