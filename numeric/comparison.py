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

import itertools
import warnings
from dataclasses import dataclass, field

import numpy as np

# the rows, tables, statistics and checks shared with numeric.groups, defined in
# numeric._paired and importable here as before
from ._paired import (ADJUSTMENTS, COMPARISON_COLUMNS, PairRow, PairTable,  # noqa: F401 - re-exported
                      _check_confidence, _check_names, _check_undefined_and_adjust, _holm_rows, _letters,
                      COMPARE_AUOC_SECONDS_PER_CELL_CLASS, COMPARE_SECONDS_PER_CELL, bootstrap_p_value,
                      comparison_record, holm, matrix_seconds, metric_on_stack, percentile_interval,
                      winner_of)
from ._common import MAX_SECONDS, check_cost
from exactfloor.errors import UndefinedMetric, UndefinedResampleWarning  # re-exported here
from .reporting import latex_escape, latex_table  # noqa: F401 - the renderers, defined in numeric.reporting

__all__ = ["Comparison", "MetricComparison", "PairTable", "comparison_record", "UndefinedResampleWarning", "compare",
           "paired_resamples", "joint_resamples", "metric_on_stack", "percentile_interval",
           "bootstrap_p_value", "holm", "winner_of", "DEFAULT_RESAMPLES", "COMPARISON_COLUMNS"]

#: the number of bootstrap resamples of :func:`compare` and of the CLI's ``metrics``
DEFAULT_RESAMPLES = 10_000


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

    Parameters
    ----------
    y_true : array_like, shape (N,)
        The true labels.
    preds : sequence of array_like, shape (N,)
        The ``k`` classifiers' predictions.
    labels : array_like, optional
        Classes in ordinal order; default the sorted union of the vectors
        (numbers and datetimes only: strings need ``labels=``).
    n_classes : int, optional
        Shorthand for ``labels=range(n_classes)``.
    n_resamples : int, optional
        The number of bootstrap resamples (default :data:`DEFAULT_RESAMPLES`).
    seed : int or numpy.random.Generator, optional
        The random seed or generator.

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
# compare
# ---------------------------------------------------------------------------
def _on_data_and_resamples(m, kw, cm, stack, confidence, class_labels):
    """One classifier's metric: ``(point, why, values, ok, ci, resample_why)``, the value
    on the data (None, and why, when undefined there), the values on the resamples,
    which are defined, their percentile interval, and why some are not."""
    from .reporting import class_labels_in

    try:
        point = float(m.function(cm, **kw, arithmetic="float"))
    except UndefinedMetric as exc:
        return None, class_labels_in(str(exc), class_labels), None, np.zeros(stack.shape[0], dtype=bool), None, ""
    vals, defined, w = metric_on_stack(m.function, stack, **kw)
    ci = percentile_interval(vals[defined], confidence) if defined.any() else None
    return point, "", vals, defined, ci, class_labels_in(w, class_labels)


def compare_seconds(K, classifiers, n_resamples, variants):
    """The estimated time of :func:`compare` on one core, in seconds.

    Each classifier's matrix is evaluated on the data and on each resample, by
    each variant (:func:`numeric._paired.matrix_seconds`: A_UOC's time grows as
    K^3, every other variant's as K^2).

    Parameters
    ----------
    K : int
        The number of classes.
    classifiers : int
        How many classifiers are compared.
    n_resamples : int
        The bootstrap resamples.
    variants : list
        The metric variants, as :func:`numeric.reporting.metric_rows` lists them.

    Returns
    -------
    float
        Seconds on one core.

    Examples
    --------
    >>> from numeric.reporting import metric_rows
    >>> round(compare_seconds(100, 2, 1000, metric_rows(["mae"])), 1)  # 2 x 1001 x 100^2 x 2e-8
    0.4
    >>> round(compare_seconds(100, 2, 1000, metric_rows(["a_uoc"])), 1)  # x 100 (K) for A_UOC
    40.0
    """
    return classifiers * (n_resamples + 1) * matrix_seconds(K, variants)


def _check_compare_cost(y_true, preds, labels, n_classes, n_resamples, variants, max_seconds):
    """:func:`numeric._common.check_cost` of :func:`compare`, before its resamples:
    the classes counted from ``labels``, ``n_classes`` or the labels seen;
    ``variants`` as :func:`numeric.reporting.metric_rows` lists them."""
    from ._validation import positive_integer

    try:
        if n_classes is not None:
            K = positive_integer(n_classes, "n_classes")
        elif labels is not None:
            K = len(labels)
        else:
            K = len(np.unique(np.concatenate([np.ravel(np.asarray(y_true))]
                                             + [np.ravel(np.asarray(p)) for p in preds])))
        R = positive_integer(n_resamples, "n_resamples")
    except (TypeError, ValueError):  # a bad input: joint_resamples says why, as before
        return
    check_cost(compare_seconds(K, len(preds), R, variants), max_seconds,
               f"numeric.compare of {len(preds)} classifiers, {K} classes, {len(variants)} metric "
               f"variants and {R} resamples", stacklevel=4)


def compare(y_true, pred_a, pred_b, *more, labels=None, n_classes=None, metrics=None,
            n_resamples=DEFAULT_RESAMPLES, confidence=0.95, seed=None, undefined="drop",
            names=None, adjust="none", progress=None, groups=None, method=None,
            test_train_ratio=None, max_seconds=MAX_SECONDS):
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
    max_seconds : float or None, default 60
        The cap on the estimated time (one core, :data:`COMPARE_SECONDS_PER_CELL`
        per metric variant and matrix cell of the data and the resamples of each
        classifier): above it the call refuses (``ValueError``) before the
        work; above 30 s it warns first (:class:`numeric.CostWarning`).
        ``None`` lifts the cap.

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
            names=names, adjust=adjust, undefined=undefined, progress=progress,
            max_seconds=max_seconds)
    if method is not None or test_train_ratio is not None:
        raise ValueError("method= and test_train_ratio= are for comparisons over groups: "
                         "pass groups= (the fold or seed id of each row)")
    from .reporting import metric_rows

    adjust = _check_undefined_and_adjust(undefined, adjust)
    _check_confidence(confidence)
    preds = (pred_a, pred_b, *more)
    names = _check_names(names, len(preds))
    chosen = metric_rows(metrics)
    _check_compare_cost(y_true, preds, labels, n_classes, n_resamples, chosen, max_seconds)
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
