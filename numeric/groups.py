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
    it is too narrow (Nadeau & Bengio's point), and with few groups
    (``J < 10``) every bootstrap interval is unreliable; prefer
    ``"corrected_t"`` for cross-validation.

The classes are those of all the groups together (``labels=`` as for
:func:`numeric.confusion_matrix`), so a fold without some class still has a
K x K matrix and the ordinal distances of the whole problem.  A metric
undefined on some group (tau_b on a fold with one true class) gets no mean
and no interval; the row's ``note`` names the group.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

from .comparison import _check_confidence, metric_on_stack, percentile_interval

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

    Returns ``(mean, (lo, hi), t, p_value)``: ``t`` is :math:`\bar x` over
    its corrected standard error and ``p_value`` the two-sided
    :math:`2\,P(T_{J-1} > |t|)`; both are ``None`` when every value is the
    same (:math:`S = 0`, the interval is the point).

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

    Raises ``ValueError`` for a vector that is not 1-D of length ``n``, a
    missing group id (None, NaN), ids that cannot be sorted together, fewer
    than 2 groups, or a group of one sample.

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

    >>> group_matrices(np.array([0, 0, 1]), np.array([0, 1, 1]), np.array([0, 0, 1]), 2, 2).tolist()
    [[[1, 0], [1, 0]], [[0, 0], [0, 1]]]
    """
    flat = np.bincount((gcodes * K + t) * K + p, minlength=G * K * K)
    return flat.astype(np.int64).reshape(G, K, K)


# ---------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GroupMetricComparison:
    """One metric (one report variant) of A and B over the groups.

    ``a_groups``, ``b_groups``: the value on each group (``None`` where it is
    undefined); ``a``, ``b``, ``diff``: their means over the groups (``diff``
    = mean of ``b - a``); the intervals by the comparison's method; ``t`` and
    ``p_value`` of the mean difference (``corrected_t`` only).
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

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"``, or ``""`` when the interval of B - A contains 0."""
        if self.diff_ci is None or self.diff_ci[0] <= 0 <= self.diff_ci[1]:
            return ""
        b_higher = self.diff_ci[0] > 0
        return "B" if b_higher == (self.better == "higher") else "A"

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v)
                for k, v in self.__dict__.items()} | {"winner": self.winner}


@dataclass(frozen=True)
class GroupComparison:
    """The result of :func:`compare_groups`: one :class:`GroupMetricComparison` per row."""

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

    def __getitem__(self, label) -> GroupMetricComparison:
        """The row of a label (``"MAE"``) or, for a one-variant metric, its name."""
        from .reporting import row_of

        return row_of(self.rows, label)

    def to_dict(self) -> dict:
        def plain(x):
            return x.item() if hasattr(x, "item") else x

        return {"names": list(self.names), "groups": [plain(g) for g in self.groups],
                "sizes": list(self.sizes), "method": self.method,
                "confidence": self.confidence, "N": self.N,
                "labels": [plain(x) for x in self.labels],
                "test_train_ratio": self.test_train_ratio, "n_resamples": self.n_resamples,
                "seed": self.seed if isinstance(self.seed, (int, type(None))) else str(self.seed),
                "metrics": [r.to_dict() for r in self.rows]}

    def __str__(self) -> str:
        from .reporting import format_table

        a, b = self.names
        pct = f"{100 * self.confidence:g}%"
        how = (f"corrected resampled t (Nadeau & Bengio 2003, n_test/n_train = "
               f"{self.test_train_ratio:g})" if self.method == "corrected_t"
               else f"group bootstrap, {self.n_resamples} resamples, percentile")

        def num(x):
            return "undefined" if x is None else f"{x:.4g}"

        def ci(c):
            return "—" if c is None else f"[{c[0]:.4g}, {c[1]:.4g}]"

        rows = []
        for r in self.rows:
            win = {"A": a, "B": b, "": "—"}[r.winner]
            row = [r.label, num(r.a), num(r.b), num(r.diff), ci(r.diff_ci), win, r.better]
            if self.method == "corrected_t":
                row.append("—" if r.p_value is None else f"{r.p_value:.3g}")
            rows.append(tuple(row))
        head = (f"{a} vs {b}: {len(self.groups)} groups, N = {self.N}; means over the groups, "
                f"{pct} intervals by {how}")
        header = ["metric", f"{a} (mean)", f"{b} (mean)", f"{b} - {a}", f"{pct} CI of {b} - {a}",
                  "better model", "better"]
        if self.method == "corrected_t":
            header.append("p")
        return head + "\n" + format_table(tuple(header), rows)


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
        except ValueError as exc:
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


def compare_groups(y_true, pred_a, pred_b, *, groups, method="corrected_t",
                   test_train_ratio=None, labels=None, n_classes=None, metrics=None,
                   confidence=0.95, n_resamples=10_000, seed=None, names=("A", "B"),
                   progress=None) -> GroupComparison:
    r"""Compare two classifiers over groups (folds, seeds): per-group metrics, means, intervals.

    .. math:: d_j = m(C_{B,j}) - m(C_{A,j}),\qquad \bar d = \frac1J\sum_{j=1}^J d_j,\qquad
              \bar d \pm t_{J-1,\,1-\alpha/2}\sqrt{(1/J + n_2/n_1)\,S_d^2}

    See the module docstring for the two interval methods and their sources.

    Parameters
    ----------
    y_true, pred_a, pred_b : array_like, shape (N,)
        True labels and both classifiers' predictions; the rows of all the
        groups together (a sample may occur in several groups, e.g. the same
        test set under several seeds).
    groups : array_like, shape (N,)
        The group id of each row (a fold number, a seed, a ``"seed-fold"``
        string); at least 2 groups, each of at least 2 samples.
    method : {"corrected_t", "bootstrap"}
    test_train_ratio : float
        ``n_test / n_train`` of each group's split, for ``"corrected_t"``
        (required there: ``1/(k-1)`` for k-fold cross-validation; 0 for
        independent test sets).
    labels, n_classes :
        The classes in ordinal order, as for :func:`numeric.confusion_matrix`
        (default: the sorted union over all groups, numbers only).
    metrics : list of str, optional
        Registry names (default: every metric of the matrix alone).
    confidence : float, default 0.95
    n_resamples : int, default 10000
        Group resamples (``"bootstrap"`` only).
    seed : int or numpy.random.Generator, optional
        ``"bootstrap"`` only.
    names : (str, str)
    progress : callable, optional
        Called as ``progress(i, n, label)`` after each metric.

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
    """
    from .confusion import check_cells, label_codes
    from .reporting import metric_cases

    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    ratio = _check_ratio(test_train_ratio, method)
    _check_confidence(confidence)
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != 2:
        raise ValueError(f"names must be two names (A's and B's), got {names!r}")
    cases = metric_cases(metrics)
    lab, (ct, ca, cb) = label_codes({"y_true": y_true, "pred_a": pred_a, "pred_b": pred_b},
                                    labels=labels, n_classes=n_classes)
    ids, gcodes = group_codes(groups, ct.size)
    G, K = ids.size, lab.size
    check_cells(G * K * K, f"{G} group confusion matrices of {K} classes")
    stack_a = group_matrices(gcodes, ct, ca, G, K)
    stack_b = group_matrices(gcodes, ct, cb, G, K)
    draws = None
    if method == "bootstrap":
        from ._validation import positive_integer

        n_resamples = positive_integer(n_resamples, "n_resamples")
        check_cells(n_resamples * G, f"{n_resamples} resamples of {G} groups")
        try:
            rng = np.random.default_rng(seed)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"seed must be None, a non-negative integer or a numpy Generator, "
                            f"got {seed!r:.60} ({exc})") from None
        # the draw of scipy.stats.bootstrap: an (n_resamples, G) array of group indices
        draws = rng.integers(0, G, (n_resamples, G))
    rows, notes = [], []
    for i, (m, v) in enumerate(cases, start=1):
        va, oka, wa = _per_group(m, v, stack_a)
        vb, okb, wb = _per_group(m, v, stack_b)
        a_groups = tuple(float(x) if ok else None for x, ok in zip(va, oka, strict=True))
        b_groups = tuple(float(x) if ok else None for x, ok in zip(vb, okb, strict=True))
        common = dict(name=m.name, label=v.label, better=m.better, source=m.source,
                      a_groups=a_groups, b_groups=b_groups)
        if not (oka.all() and okb.all()):
            bad = [ids[j].item() if hasattr(ids[j], "item") else ids[j]
                   for j in np.flatnonzero(~(oka & okb))]
            note = (f"{v.label} is undefined on group{'s' if len(bad) > 1 else ''} "
                    f"{', '.join(map(repr, bad[:5]))}{', ...' if len(bad) > 5 else ''}: "
                    f"{wa or wb}; no mean over the groups")
            notes.append(note)
            rows.append(GroupMetricComparison(**common, note=note))
        else:
            d = vb - va
            if method == "corrected_t":
                ma, a_ci, _, _ = corrected_t_interval(va, ratio, confidence)
                mb, b_ci, _, _ = corrected_t_interval(vb, ratio, confidence)
                md, d_ci, t, p = corrected_t_interval(d, ratio, confidence)
                rows.append(GroupMetricComparison(
                    **common, a=ma, b=mb, diff=md, a_ci=a_ci, b_ci=b_ci, diff_ci=d_ci, t=t,
                    p_value=p))
            else:
                rows.append(GroupMetricComparison(
                    **common, a=float(va.mean()), b=float(vb.mean()), diff=float(d.mean()),
                    a_ci=percentile_interval(va[draws].mean(axis=1), confidence),
                    b_ci=percentile_interval(vb[draws].mean(axis=1), confidence),
                    diff_ci=percentile_interval(d[draws].mean(axis=1), confidence)))
        if progress is not None:
            progress(i, len(cases), v.label)
    return GroupComparison(
        tuple(rows), tuple(names), groups=tuple(ids.tolist()),
        sizes=tuple(int(s) for s in stack_a.sum(axis=(1, 2))), method=method,
        confidence=float(confidence), N=int(ct.size), labels=tuple(lab.tolist()),
        test_train_ratio=ratio, n_resamples=int(n_resamples) if method == "bootstrap" else None,
        seed=seed if method == "bootstrap" else None, warnings=tuple(notes))
