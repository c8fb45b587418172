r"""Two classifiers over groups of samples (cross-validation folds, seeds): per-group
metrics, their mean, and an interval that respects the grouping.

When the evaluation is repeated -- the K folds of a cross-validation, the
runs of several seeds, or both -- the samples of one group share a trained
model, so they are not independent draws: :func:`numeric.compare`'s paired
bootstrap of the pooled samples would treat them as such.  Here the unit
is the group.  Each group's confusion matrices of A and B give one value of
each metric (and of the difference ``B - A``); the point estimate is their
unweighted mean over the groups (the "mean over folds" of papers), and the
interval is one of:

``method="corrected_t"`` (default)
    Nadeau & Bengio's corrected resampled t interval (Nadeau, C. & Bengio,
    Y. (2003), "Inference for the generalization error", *Machine
    Learning* 52(3):239-281, §4, the "corrected resampled t-test"): the
    variance of the mean of :math:`J` per-group values :math:`x_j` is
    :math:`(1/J + n_2/n_1)\,S^2`, not :math:`S^2/J`, because the training
    sets of the groups overlap (:math:`n_2/n_1` is the ratio of the test
    to the training set size, ``test_train_ratio``: ``1/(k-1)`` for k-fold
    cross-validation, the same for the ``r k`` folds of r times repeated
    k-fold, Bouckaert & Frank 2004, or 0 for independent test sets and
    models, where it is the ordinary one-sample t interval).  With
    :math:`t_{J-1}` Student's t with :math:`J-1` degrees of freedom:

    .. math:: \bar x \pm t_{J-1,\,1-\alpha/2}\,\sqrt{\Big(\frac1J + \frac{n_2}{n_1}\Big)S^2},\qquad
              S^2 = \frac{1}{J-1}\sum_j (x_j - \bar x)^2

    The t statistic of the mean difference and its two-sided p-value are
    kept too (``t``, ``p_value``).  This is the test of scikit-learn's
    example "Statistical comparison of models using grid search".

``method="bootstrap"``
    The cluster (group) bootstrap: ``n_resamples`` times, draw :math:`J`
    groups with replacement and average their values (Davison, A. C. &
    Hinkley, D. V. (1997), *Bootstrap Methods and their Application*, §3.8:
    with clustered data, resample the clusters); percentile intervals
    (Efron & Tibshirani 1993, ch. 13, numpy's linear quantiles, as
    ``scipy.stats.bootstrap(..., method="percentile")``).  A and B are
    resampled together (the same groups), so the difference stays paired.
    It treats the groups as independent: for folds that share training data
    it is too narrow (Nadeau & Bengio's point), and with few groups it is
    too narrow even for independent ones (it draws from :math:`J` values and
    has no :math:`J/(J-1)` or t correction).  Measured coverage of its 95%
    interval of the mean difference (the simulations of issue 39): 0.91 with
    :math:`J = 10` independent groups, and 0.77 on real 10-fold
    cross-validation, where Nadeau & Bengio's corrected t covers at its
    nominal level; below :math:`J = 10` it is worse.  Use ``"corrected_t"``
    (the default) for cross-validation and repeated cross-validation; keep
    the bootstrap for many independent groups (seeds with their own test
    sets), or to check a t interval's normality.

The classes are those of all the groups together (``labels=`` as for
:func:`numeric.confusion_matrix`), so a fold without some class still has a
K x K matrix and the ordinal distances of the whole problem.  A metric
undefined on some group (tau_b on a fold with one true class) gets no mean
and no interval; the row's ``note`` names the group.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

from ._common import MAX_SECONDS, check_cost
from exactfloor.errors import UndefinedMetric

from ._paired import (COMPARISON_COLUMNS, PairRow, PairTable, _check_confidence, matrix_seconds,
                      metric_on_stack, percentile_interval)

__all__ = ["GroupComparison", "GroupMetricComparison", "compare_groups", "group_codes",
           "group_matrices", "corrected_t_interval", "student_t_sf", "student_t_ppf"]

METHODS = ("corrected_t", "bootstrap")


# ---------------------------------------------------------------------------
# Student's t without SciPy (mpmath's regularised incomplete beta)
# ---------------------------------------------------------------------------
def student_t_sf(t, df):
    r"""The upper tail :math:`P(T > t)` of Student's t with ``df`` degrees of freedom.

    .. math:: P(T > t) = \tfrac12\, I_{\nu/(\nu + t^2)}\big(\tfrac\nu2, \tfrac12\big) \quad (t \ge 0)

    (Abramowitz & Stegun 26.7.1 with 26.5.27), evaluated by mpmath at 30 digits.

    Parameters
    ----------
    t : float
        The point.
    df : int or float
        The degrees of freedom, positive.

    Returns
    -------
    float
        :math:`P(T > t)`.

    Examples
    --------
    >>> round(student_t_sf(2.0, 4), 10)        # scipy.stats.t.sf(2, 4)
    0.0580582618
    """
    import mpmath

    with mpmath.workdps(30):
        t = mpmath.mpf(t)
        x = df / (df + t * t)
        tail = mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, x, regularized=True) / 2
        return float(tail if t >= 0 else 1 - tail)


@functools.lru_cache(maxsize=64)
def student_t_ppf(q, df):
    r"""The quantile :math:`t_{\nu, q}` of Student's t (``0.5 <= q < 1``), by bisection of
    :func:`student_t_sf` at 30 digits.

    .. math:: P(T > t_{\nu,q}) = 1 - q

    Parameters
    ----------
    q : float
        The probability, ``0.5 <= q < 1``.
    df : int or float
        The degrees of freedom, positive.

    Returns
    -------
    float
        The quantile.

    Examples
    --------
    >>> round(student_t_ppf(0.975, 9), 10)     # scipy.stats.t.ppf(0.975, 9)
    2.2621571628
    """
    import mpmath

    if not 0.5 <= q < 1:
        raise ValueError(f"q must be in [0.5, 1), got {q!r}")
    with mpmath.workdps(30):
        target = 1 - mpmath.mpf(q)
        half = mpmath.mpf(1) / 2

        def sf(t):
            return mpmath.betainc(mpmath.mpf(df) / 2, half, 0, df / (df + t * t),
                                  regularized=True) / 2

        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while sf(hi) > target:
            lo, hi = hi, 2 * hi
        for _ in range(120):  # 2**-120 of the bracket: beyond float64
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if sf(mid) > target else (lo, mid)
        return float((lo + hi) / 2)


def corrected_t_interval(values, test_train_ratio, confidence=0.95):
    r"""Nadeau & Bengio's corrected resampled t interval of the mean of per-group values.

    .. math:: \bar x \pm t_{J-1,\,1-\alpha/2}\sqrt{\big(1/J + n_2/n_1\big) S^2}

    Parameters
    ----------
    values : array_like of float, shape (J,)
        The per-group values (a difference of a metric, one per fold or seed).
    test_train_ratio : float
        :math:`n_2/n_1`, the test set's size over the training set's.
    confidence : float, optional
        The interval's level (default 0.95).

    Returns
    -------
    mean : float
        :math:`\bar x`.
    interval : (float, float)
        ``(lo, hi)``.
    t : float or None
        :math:`\bar x` over its corrected standard error; None when every
        value is the same (:math:`S = 0`, the interval is the point).
    p_value : float or None
        The two-sided :math:`2\,P(T_{J-1} > |t|)`; None as ``t``.

    Examples
    --------
    >>> m, ci, t, p = corrected_t_interval([1.0, 2.0, 3.0], 0.5)   # S^2 = 1, SE = sqrt(1/3 + 1/2)
    >>> m, round(ci[0], 6), round(t, 6)                            # t_{2, .975} = 4.302653
    (2.0, -1.927767, 2.19089)
    """
    x = np.asarray(values, dtype=np.float64)
    J = x.size
    if J < 2:
        raise ValueError(f"a t interval needs at least 2 groups, got {J}")
    _check_confidence(confidence)
    mean = float(x.mean())
    var = float(x.var(ddof=1))
    se = math.sqrt((1 / J + test_train_ratio) * var)
    half = student_t_ppf(1 - (1 - confidence) / 2, J - 1) * se
    if se == 0:
        return mean, (mean, mean), None, None
    t = mean / se
    return mean, (mean - half, mean + half), t, 2 * student_t_sf(abs(t), J - 1)


# ---------------------------------------------------------------------------
# the grouped data
# ---------------------------------------------------------------------------
def group_codes(groups, n):
    """The distinct groups (sorted) and each sample's group index.

    Parameters
    ----------
    groups : array_like, shape (n,)
        Each sample's group id (a fold, a seed).
    n : int
        The number of samples.

    Returns
    -------
    ids : ndarray
        The distinct group ids, sorted.
    codes : ndarray of int, shape (n,)
        Each sample's index into ``ids``.

    Raises
    ------
    ValueError
        A vector that is not 1-D of length ``n``, a missing group id (None,
        NaN), ids that cannot be sorted together, fewer than 2 groups, or a
        group of one sample.

    Examples
    --------
    >>> ids, codes = group_codes(["s2", "s1", "s2", "s1"], 4)
    >>> ids.tolist(), codes.tolist()
    (['s1', 's2'], [1, 0, 1, 0])
    """
    from .confusion import _label_vector

    g = _label_vector(groups, "groups")
    if g.ndim != 1 or g.shape[0] != n:
        raise ValueError(f"groups must have shape ({n},) (one group id per sample), got {g.shape}")
    try:
        ids, codes, sizes = np.unique(g, return_inverse=True, return_counts=True)
    except TypeError:
        raise ValueError("groups holds ids of types that cannot be sorted together "
                         "(use one type: integers or strings)") from None
    if ids.size < 2:
        raise ValueError(f"one group ({ids[0]!r}): an interval over groups needs at least 2 "
                         "(use numeric.compare for one set of samples)")
    if np.any(sizes < 2):
        bad = ids[int(np.argmin(sizes))]
        raise ValueError(f"group {bad.item() if hasattr(bad, 'item') else bad!r} has one sample: "
                         "a group is a fold or a run, its metrics need more than one sample")
    return ids, codes.reshape(-1)


def group_matrices(gcodes, t, p, G, K):
    """The stack ``(G, K, K)`` of per-group confusion matrices (rows = true).

    Parameters
    ----------
    gcodes : ndarray of int, shape (N,)
        Each sample's group index (:func:`group_codes`).
    t, p : ndarray of int, shape (N,)
        Each sample's true and predicted class index, in ``0 .. K-1``.
    G : int
        The number of groups.
    K : int
        The number of classes.

    Returns
    -------
    ndarray of int64, shape (G, K, K)
        The confusion matrix of each group.

    Examples
    --------
    >>> group_matrices(np.array([0, 0, 1]), np.array([0, 1, 1]), np.array([0, 0, 1]), 2, 2).tolist()
    [[[1, 0], [1, 0]], [[0, 0], [0, 1]]]
    """
    flat = np.bincount((gcodes * K + t) * K + p, minlength=G * K * K)
    return flat.astype(np.int64).reshape(G, K, K)


# ---------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GroupMetricComparison(PairRow):
    """One metric (one report variant) of a pair of classifiers A and B over the groups.

    ``a_groups``, ``b_groups``: the value on each group (``None`` where it is
    undefined); ``a``, ``b``, ``diff``: their means over the groups (``diff``
    = mean of ``b - a``), ``None`` when the metric is undefined on some group;
    the intervals by the comparison's method; ``t`` of the mean difference
    (``corrected_t`` only) and ``p_value``: the corrected t test's two-sided
    p-value, or for ``"bootstrap"`` the group-bootstrap percentile interval
    inverted (:func:`numeric.comparison.bootstrap_p_value`); ``p_adjusted`` its
    Holm adjustment (``None`` without one).  ``undefined`` counts the groups on
    which A, B, or either leaves the metric undefined.  The winner is
    :func:`numeric.comparison.winner_of`'s, the rule of the paired comparison.
    """

    name: str
    label: str
    better: str
    source: str
    a_groups: tuple
    b_groups: tuple
    a: float | None = None
    b: float | None = None
    diff: float | None = None
    a_ci: tuple | None = None
    b_ci: tuple | None = None
    diff_ci: tuple | None = None
    t: float | None = None
    p_value: float | None = None
    note: str = ""
    key: str = ""
    pair: tuple = ("A", "B")
    p_adjusted: float | None = None
    alpha: float = 0.05
    undefined: tuple = (0, 0, 0)



@dataclass(frozen=True)
class GroupComparison(PairTable):
    """The result of :func:`compare_groups` (and of :func:`numeric.compare` with
    ``groups=``): one :class:`GroupMetricComparison` per metric variant and pair
    of classifiers, in the order of :class:`numeric.Comparison`, with the same
    look-ups (``c["MAE"]``, ``c["MAE", "A", "C"]``) and exports
    (:meth:`records`, :meth:`to_pandas`, :meth:`to_latex`, ``str()``)."""

    rows: tuple
    names: tuple
    groups: tuple
    sizes: tuple
    method: str
    confidence: float
    N: int
    labels: tuple
    test_train_ratio: float | None = None
    n_resamples: int | None = None
    seed: object = None
    warnings: tuple = field(default=())
    adjust: str = "none"
    #: ``{(key, name): reason}`` for a metric undefined on some group of a classifier
    reasons: dict = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict:
        """The settings, ``metrics`` (the records, :data:`COMPARISON_COLUMNS`) and
        ``per_group``: each metric variant's value on each group for each classifier."""
        def plain(x):
            return x.item() if hasattr(x, "item") else x

        per_group, seen = [], set()
        for r in self.rows:
            for name, values in zip(r.pair, (r.a_groups, r.b_groups), strict=True):
                if (r.key, name) not in seen:
                    seen.add((r.key, name))
                    per_group.append({"metric": r.key, "label": r.label, "prediction": name,
                                      "values": list(values)})
        return {"names": list(self.names), "groups": [plain(g) for g in self.groups],
                "sizes": list(self.sizes), "method": self.method,
                "confidence": self.confidence, "adjust": self.adjust, "N": self.N,
                "labels": [plain(x) for x in self.labels],
                "test_train_ratio": self.test_train_ratio, "n_resamples": self.n_resamples,
                "seed": self.seed if isinstance(self.seed, (int, type(None))) else str(self.seed),
                "columns": list(COMPARISON_COLUMNS), "metrics": self.records(),
                "per_group": per_group}

    def table(self, exact=None):
        if exact is not None:
            raise ValueError("exact values are of one confusion matrix; a grouped comparison "
                             "shows means over the groups")
        return super().table()

    def to_latex(self, caption=None, exact=None) -> str:
        if exact is not None:
            raise ValueError("exact values are of one confusion matrix; a grouped comparison "
                             "shows means over the groups")
        return super().to_latex(caption=caption)

    # the table's wording (numeric._paired._table)
    _what_differs = "mean difference"
    _grouped = True

    def _p_resamples(self, r):
        return self.n_resamples if self.method == "bootstrap" else None

    def _how(self):
        if self.method == "corrected_t":
            return (f"corrected resampled t intervals (Nadeau & Bengio 2003, n_test/n_train = "
                    f"{self.test_train_ratio:g}, {len(self.groups) - 1} degrees of freedom)")
        return (f"group bootstrap percentile intervals ({self.n_resamples} resamples of the "
                f"groups, seed {self.seed})")

    def _headline(self):
        return (f"{' vs '.join(self.names)}: {len(self.groups)} groups, N = {self.N}; "
                "means over the groups")

    def _title(self):
        return (", ".join(self.names[:-1]) + f" and {self.names[-1]} over {len(self.groups)} "
                f"groups ({self.N} samples, {len(self.labels)} classes): means over the groups.")

    def _footer(self, pct, tests):
        p = ("p: two-sided corrected t test of the mean difference"
             if self.method == "corrected_t" else "p: two-sided, the percentile interval inverted")
        lo, hi = min(self.sizes), max(self.sizes)
        each = f"{lo} samples each" if lo == hi else f"{lo} to {hi} samples"
        return (f"{len(self.groups)} groups of {each} ({self.N} in all), {len(self.labels)} "
                f"classes; values: unweighted means over the groups; {pct} {self._how()}; {p}"
                + (f", Holm-adjusted over {tests} tests (rows x pairs)" if self.adjust == "holm"
                   else ""))


# ---------------------------------------------------------------------------
# the comparison
# ---------------------------------------------------------------------------
def _per_group(m, v, stack):
    """The metric's value on each group's matrix and where it is defined, and
    one reason.  A variant whose parameters depend on the matrix (beta scaled
    by N) gets them from each group's own matrix."""
    if not callable(v.params):
        return metric_on_stack(m.function, stack, **v.kwargs(stack[0]))
    values = np.full(len(stack), np.nan)
    defined = np.zeros(len(stack), dtype=bool)
    reason = ""
    for g, cm in enumerate(stack):
        try:
            values[g] = float(m.function(cm, **v.kwargs(cm), arithmetic="float"))
            defined[g] = True
        except UndefinedMetric as exc:
            reason = reason or str(exc)
    return values, defined, reason


def _check_ratio(test_train_ratio, method):
    if method != "corrected_t":
        if test_train_ratio is not None:
            raise ValueError("test_train_ratio is for method='corrected_t'")
        return None
    if test_train_ratio is None:
        raise ValueError(
            "method='corrected_t' needs test_train_ratio = n_test / n_train of each group's "
            "split: 1/(k-1) for k-fold cross-validation (also repeated), 0 for independent "
            "test sets (the ordinary t interval); or use method='bootstrap'")
    if isinstance(test_train_ratio, (bool, np.bool_)) or not isinstance(test_train_ratio, Real) \
            or not math.isfinite(test_train_ratio) or test_train_ratio < 0:
        raise ValueError(f"test_train_ratio must be a finite number >= 0, got {test_train_ratio!r}")
    return float(test_train_ratio)


def _group_draws(n_resamples, seed, G):
    """``(n_resamples, draws)``: the bootstrap's ``(n_resamples, G)`` array of group
    indices, the draw of :func:`scipy.stats.bootstrap`."""
    from ._validation import positive_integer
    from .confusion import check_cells

    n_resamples = positive_integer(n_resamples, "n_resamples")
    check_cells(n_resamples * G, f"{n_resamples} resamples of {G} groups")
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"seed must be None, a non-negative integer or a numpy Generator, "
                        f"got {seed!r:.60} ({exc})") from None
    return n_resamples, rng.integers(0, G, (n_resamples, G))


def _undefined_on(ids, ok, why):
    """Why a metric has no mean: the groups (at most five named) where it is undefined."""
    bad = [ids[j] for j in np.flatnonzero(~ok)]
    return (f"undefined on group{'s' if len(bad) > 1 else ''} "
            f"{', '.join(map(repr, bad[:5]))}{', ...' if len(bad) > 5 else ''}: {why}")


def _defined_values(values, ok):
    """The per-group values as floats, None where undefined."""
    return tuple(float(x) if defined else None for x, defined in zip(values, ok, strict=True))


def compare_groups(y_true, pred_a, pred_b, *more, groups, method="corrected_t",
                   test_train_ratio=None, labels=None, n_classes=None, metrics=None,
                   confidence=0.95, n_resamples=10_000, seed=None, names=None, adjust="none",
                   undefined="drop", progress=None, max_seconds=MAX_SECONDS) -> GroupComparison:
    r"""Compare classifiers over groups (folds, seeds): per-group metrics, means, intervals.

    .. math:: d_j = m(C_{B,j}) - m(C_{A,j}),\qquad \bar d = \frac1J\sum_{j=1}^J d_j,\qquad
              \bar d \pm t_{J-1,\,1-\alpha/2}\sqrt{(1/J + n_2/n_1)\,S_d^2}

    For every metric variant and every pair ``(A, B)`` of the classifiers (in
    the order given, as :func:`numeric.compare`).  See the module docstring for
    the two interval methods and their sources.  ``numeric.compare(...,
    groups=)`` calls this.

    Parameters
    ----------
    y_true, pred_a, pred_b, *more : array_like, shape (N,)
        True labels and two or more classifiers' predictions; the rows of all
        the groups together (a sample may occur in several groups, e.g. the
        same test set under several seeds).
    groups : array_like, shape (N,)
        The group id of each row (a fold number, a seed, a ``"seed-fold"``
        string); at least 2 groups, each of at least 2 samples.
    method : {"corrected_t", "bootstrap"}
        ``"corrected_t"`` for cross-validation; the group bootstrap's 95%
        interval covered only 0.91 at ``J = 10`` folds and 0.77 on real 10-fold
        cross-validation (see the module's docstring).
    test_train_ratio : float
        ``n_test / n_train`` of each group's split, for ``"corrected_t"``
        (required there: ``1/(k-1)`` for k-fold cross-validation; 0 for
        independent test sets).
    labels, n_classes :
        The classes in ordinal order, as for :func:`numeric.confusion_matrix`
        (default: the sorted union over all groups, numbers only).
    metrics : list of str, optional
        Registry names or variant keys (default: every metric of the matrix alone).
    confidence : float, default 0.95
    n_resamples : int, default 10000
        Group resamples (``"bootstrap"`` only).
    seed : int or numpy.random.Generator, optional
        ``"bootstrap"`` only.
    names : sequence of str, optional
        The classifiers' names (default ``"A", "B", ...``).
    adjust : {"none", "holm"}
        ``"holm"``: Holm's adjustment of the p-values over every row and pair;
        a winner then needs an adjusted p below ``1 - confidence`` too.
    undefined : {"drop", "raise"}
        ``"drop"``: a metric undefined on some group gets no mean (its
        ``note`` names the groups); ``"raise"``: ``ValueError``.
    progress : callable, optional
        Called as ``progress(i, n, label)`` after each metric.
    max_seconds : float or None, default 60
        Refuse (``ValueError``, naming the estimate) before the work when the
        estimate exceeds it, warn (:class:`exactfloor.errors.CostWarning`) above 30 s;
        None lifts the cap.  The estimate: every metric variant on each group's
        matrix of each classifier (:func:`numeric._paired.matrix_seconds`: A_UOC's
        time grows as K^3, every other variant's as K^2; the group
        resamples only average those values).

    Returns
    -------
    GroupComparison

    Raises
    ------
    ValueError
        An unknown method, ``test_train_ratio`` missing (``"corrected_t"``),
        negative or given to ``"bootstrap"``; ``groups`` of the wrong length,
        with a missing id, one group, or a group of one sample; label
        problems (as :func:`numeric.confusion_matrix`).

    Examples
    --------
    Five folds; A is off by at most one class, B by at most two:

    >>> rng = np.random.default_rng(1)
    >>> t = rng.integers(0, 4, 500)
    >>> a = np.clip(t + rng.integers(-1, 2, 500), 0, 3)
    >>> b = np.clip(t + rng.integers(-2, 3, 500), 0, 3)
    >>> fold = np.arange(500) % 5
    >>> c = compare_groups(t, a, b, groups=fold, metrics=["mae"], test_train_ratio=1 / 4)
    >>> row = c["MAE"]
    >>> len(row.a_groups), row.diff > 0, row.diff_ci[0] > 0, row.winner
    (5, True, True, 'A')
    >>> c3 = compare_groups(t, a, b, t, groups=fold, metrics=["mae"], test_train_ratio=1 / 4,
    ...                     names=["a", "b", "oracle"], adjust="holm")
    >>> [(r.pair, r.winner_name) for r in c3.rows]
    [(('a', 'b'), 'a'), (('a', 'oracle'), 'oracle'), (('b', 'oracle'), 'oracle')]
    """
    from ._paired import _check_names, _check_undefined_and_adjust, _holm_rows, _letters, bootstrap_p_value
    from .confusion import check_cells, label_codes
    from .reporting import class_labels_in, metric_rows

    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    adjust = _check_undefined_and_adjust(undefined, adjust)
    ratio = _check_ratio(test_train_ratio, method)
    _check_confidence(confidence)
    preds = (pred_a, pred_b, *more)
    k = len(preds)
    names = _check_names(names, k)
    cases = metric_rows(metrics)
    tags = [f"pred_{c.lower()}" for c in _letters(k)]
    lab, codes = label_codes({"y_true": y_true} | dict(zip(tags, preds, strict=True)),
                             labels=labels, n_classes=n_classes)
    ct = codes[0]
    ids, gcodes = group_codes(groups, ct.size)
    G, K = ids.size, lab.size
    check_cells(k * G * K * K, f"{k} x {G} group confusion matrices of {K} classes")
    check_cost(k * G * matrix_seconds(K, cases), max_seconds,
               f"numeric.compare_groups of {k} classifiers, {G} groups, {K} classes and "
               f"{len(cases)} metric variants")
    stacks = [group_matrices(gcodes, ct, c, G, K) for c in codes[1:]]
    class_labels = tuple(x.item() if hasattr(x, "item") else x for x in lab.tolist())
    plain_ids = [x.item() if hasattr(x, "item") else x for x in ids]
    draws = None
    if method == "bootstrap":
        n_resamples, draws = _group_draws(n_resamples, seed, G)
    alpha = 1.0 - float(confidence)

    def interval(values):
        """(mean, ci, t, p) of per-group values by the method."""
        if method == "corrected_t":
            return corrected_t_interval(values, ratio, confidence)
        means = values[draws].mean(axis=1)
        return float(values.mean()), percentile_interval(means, confidence), None, None

    rows, notes, reasons = [], [], {}
    for step, (m, v, key) in enumerate(cases, start=1):
        per = [_per_group(m, v, stack) for stack in stacks]  # (values, defined, why) of each classifier
        own = []
        for name, (x, ok, why) in zip(names, per, strict=True):
            own.append(interval(x) if ok.all() else None)
            if not ok.all():
                reasons[(key, name)] = _undefined_on(plain_ids, ok, class_labels_in(why, class_labels))
        for i, j in itertools.combinations(range(k), 2):
            (x_i, ok_i, _), (x_j, ok_j, _) = per[i], per[j]
            common = dict(name=m.name, label=v.label, better=m.better, source=m.source,
                          a_groups=_defined_values(x_i, ok_i), b_groups=_defined_values(x_j, ok_j),
                          key=key, pair=(names[i], names[j]), alpha=alpha,
                          undefined=(int((~ok_i).sum()), int((~ok_j).sum()), int((~(ok_i & ok_j)).sum())))
            if own[i] is None or own[j] is None:
                bad = [(names[x], reasons[(key, names[x])]) for x in (i, j) if own[x] is None]
                note = (f"{v.label} is " + "; ".join(f"{n}: {w}" for n, w in bad)
                        + "; no mean over the groups")
                if undefined == "raise":
                    raise ValueError(note)
                if note not in notes:
                    notes.append(note)
                a, b = ((None, None) if own[x] is None else own[x][:2] for x in (i, j))
                rows.append(GroupMetricComparison(**common, a=a[0], b=b[0], a_ci=a[1], b_ci=b[1], note=note))
                continue
            d = x_j - x_i
            md, d_ci, t, p = interval(d)
            if method == "bootstrap":
                p = bootstrap_p_value(d[draws].mean(axis=1))
            note = "" if d_ci[0] < d_ci[1] else (
                f"the {100 * confidence:g}% interval of the mean difference has zero "
                f"width (the per-group differences are all {md:.4g}): no winner")
            rows.append(GroupMetricComparison(
                **common, a=own[i][0], b=own[j][0], diff=md, a_ci=own[i][1], b_ci=own[j][1],
                diff_ci=d_ci, t=t, p_value=p, note=note))
        if progress is not None:
            progress(step, len(cases), v.label)
    if adjust == "holm":
        rows = _holm_rows(rows)
    return GroupComparison(
        tuple(rows), tuple(names), groups=tuple(plain_ids),
        sizes=tuple(int(x) for x in stacks[0].sum(axis=(1, 2))), method=method,
        confidence=float(confidence), N=int(ct.size), labels=class_labels,
        test_train_ratio=ratio, n_resamples=int(n_resamples) if method == "bootstrap" else None,
        seed=seed if method == "bootstrap" else None, warnings=tuple(notes), adjust=adjust,
        reasons=reasons)
