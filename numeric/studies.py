r"""Several methods over many datasets: ranks, Friedman and post-hoc tests (Demšar 2006).

:func:`numeric.study` takes long-format predictions -- one row per sample with its
dataset, method, fold (or seed), true and predicted label -- and computes
every requested metric of every fold's confusion matrix, the mean (and
standard deviation) over the folds of each dataset and method, and, per
metric, :func:`numeric.rank_stats.rank_tests`: the ranks of the methods on each dataset (1 the
best, ties averaged, the registry's ``better`` deciding the direction), the
average ranks, the Friedman test with Iman and Davenport's F, the Nemenyi
critical difference and all-pairs p-values, Holm's step-down procedure
against a control method, and the Wilcoxon signed-rank test of every pair
with Holm's adjustment.

The tests follow Demšar, J. (2006), "Statistical Comparisons of Classifiers
over Multiple Data Sets", *JMLR* 7:1-30, §3.2 (key ``demsar2006``).  They take
the datasets as the independent units: the folds of one dataset give one
number per method (their mean), never a sample each.  Their assumptions and
when they are unreliable are stated with each result (``notes``) and in every
rendered table.

scipy (the ``study`` extra, ``pip install "ordinal-verify[study]"``) supplies
the distributions (chi-squared, F, normal, the studentized range) and
Wilcoxon's test; it is imported when a test is computed, never by
``import numeric``.
"""


from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .reporting import _plain
from .rank_stats import RankTests, _check_alpha, rank_tests

__all__ = ["study", "Study", "DEFAULT_COLUMNS"]

#: the default column names of :func:`study`'s long-format input
DEFAULT_COLUMNS = {"dataset": "dataset", "method": "method", "fold": "fold",
                   "y_true": "y_true", "y_pred": "y_pred"}


# ---------------------------------------------------------------------------
# the study
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Study:
    """Every metric of several methods over several datasets, and their rank tests (:func:`study`).

    Made by :func:`study`; its fields are the study's data.

    Parameters
    ----------
    datasets, methods : tuple of str
        In the order of their first appearance in the data.
    metrics : tuple of str
        The metric keys (:func:`numeric.reporting.variant_keys`), in the order asked.
    labels : dict
        key -> the metric's label (``"MAE"``).
    better : dict
        key -> ``"lower"`` or ``"higher"``.
    means, sds : dict
        key -> ndarray (N, k): the mean and standard deviation (``ddof=1``)
        of the metric over the folds of each dataset and method; the sd is
        NaN for a dataset of one fold (rendered without ``±``).
    n_folds : tuple of int
        The folds of each dataset.
    tests : dict
        key -> :class:`numeric.rank_stats.RankTests` of the means.
    alpha : float
        The significance level of the tests and of the critical difference.

    Examples
    --------
    >>> rows = {"dataset": ["a"] * 4 + ["b"] * 4, "method": ["m", "m", "n", "n"] * 2,
    ...         "fold": [0] * 8, "y_true": [0, 1, 0, 1] * 2, "y_pred": [0, 1, 1, 1] * 2}
    >>> s = study(rows, metrics=["mae"])
    >>> s.methods, s.means["mae"].tolist()
    (('m', 'n'), [[0.0, 0.5], [0.0, 0.5]])
    """

    datasets: tuple
    methods: tuple
    metrics: tuple
    labels: dict = field(repr=False)
    better: dict = field(repr=False)
    means: dict = field(repr=False)
    sds: dict = field(repr=False)
    n_folds: tuple = field(repr=False)
    tests: dict = field(repr=False)
    alpha: float = 0.05

    def _key(self, metric):
        if metric is None:
            return self.metrics[0]
        if metric in self.means:
            return metric
        hits = [k for k in self.metrics if self.labels[k] == metric]
        if len(hits) == 1:
            return hits[0]
        raise KeyError(f"{metric!r} is not a metric of this study; it has {list(self.metrics)}")

    def __getitem__(self, metric) -> RankTests:
        return self.tests[self._key(metric)]

    def table(self, metric=None, *, decimals=3):
        """The datasets x methods table of one metric (:class:`numeric.study_tables.StudyTable`)."""
        from .study_tables import dataset_table

        return dataset_table(self, self._key(metric), decimals=decimals)

    def summary_table(self, metrics=None, *, decimals=3):
        """The metrics x methods table, each cell averaged over the datasets."""
        from .study_tables import metric_table

        keys = self.metrics if metrics is None else tuple(self._key(m) for m in metrics)
        return metric_table(self, keys, decimals=decimals)

    def records(self) -> list:
        """One dict per dataset, method and metric: mean, sd, rank."""
        out = []
        for key in self.metrics:
            t = self.tests[key]
            for i, d in enumerate(self.datasets):
                for j, m in enumerate(self.methods):
                    sd = float(self.sds[key][i, j])
                    out.append({"dataset": d, "method": m, "metric": key, "label": self.labels[key],
                                "mean": float(self.means[key][i, j]),
                                "sd": None if math.isnan(sd) else sd,
                                "rank": float(t.ranks[i, j]), "folds": self.n_folds[i]})
        return out

    def to_pandas(self):
        """:meth:`records` as a long DataFrame (pandas, the ``pandas`` extra)."""
        from .reporting import to_pandas

        return to_pandas(self.records(), ["dataset", "method", "metric", "label", "mean", "sd",
                                          "rank", "folds"])

    def to_markdown(self, *, decimals=3) -> str:
        """The metrics x methods table, then each metric's tests."""
        parts = [self.summary_table(decimals=decimals).to_markdown()]
        for key in self.metrics:
            parts.append(f"### {self.labels[key]}\n\n{self.tests[key].to_markdown()}")
        return "\n\n".join(parts)

    def to_latex(self, metric=None, *, layout="narrow", decimals=3) -> str:
        """One metric's datasets x methods table, or (``metric="all"``) the metrics x methods one."""
        t = self.summary_table(decimals=decimals) if metric == "all" else self.table(metric, decimals=decimals)
        return t.to_latex(layout=layout)

    def bayesian_signed_rank(self, metric, a, b, rope, **kwargs):
        """Benavoli et al.'s (2017) Bayesian signed-rank test of methods ``a`` and ``b`` on one
        metric (:func:`numeric.bayesian.bayesian_signed_rank`), ``rope`` in the metric's units.

        The scores are negated for a lower-is-better metric, so ``p_left`` is always the
        probability that ``a`` is practically better, ``p_right`` that ``b`` is.
        """
        from .bayesian import bayesian_signed_rank

        key = self._key(metric)
        for m in (a, b):
            if m not in self.methods:
                raise ValueError(f"{m!r} is not one of the methods {list(self.methods)}")
        sign = 1.0 if self.better[key] == "higher" else -1.0
        x = sign * self.means[key][:, self.methods.index(a)]
        y = sign * self.means[key][:, self.methods.index(b)]
        return bayesian_signed_rank(x, y, rope, **kwargs)

    def plot_cd(self, metric=None, ax=None, **kwargs):
        """Demšar's critical-difference diagram of one metric (:func:`numeric.cd_diagram.plot_cd`)."""
        from .cd_diagram import plot_cd

        return plot_cd(self[metric] if metric is not None else self.tests[self.metrics[0]], ax=ax,
                       **kwargs)

    def __str__(self) -> str:
        return self.to_markdown()


def _column(data, key, name):
    try:
        v = data[name]
    except (KeyError, IndexError, TypeError, ValueError):
        cols = list(data.keys()) if hasattr(data, "keys") else list(getattr(data, "columns", []))
        raise ValueError(f"study: no column {name!r} (the {key}); the data has {cols}") from None
    a = np.asarray(v)
    if a.ndim != 1:
        raise ValueError(f"study: column {name!r} must be 1-D, got shape {a.shape}")
    return a


def _first_seen(a):
    """The distinct values in order of first appearance, and each row's index into them."""
    try:
        uniq, first, inv = np.unique(a, return_index=True, return_inverse=True)
    except TypeError:
        raise ValueError("study: a column mixes values that cannot be sorted together") from None
    order = np.argsort(first, kind="stable")
    relabel = np.empty_like(order)
    relabel[order] = np.arange(order.size)
    return uniq[order], relabel[inv.reshape(-1)]


def _class_indices(yt, yp, labels, dataset):
    """The 0-based class indices of the true and predicted labels of one dataset, and K.

    ``labels``: None (the observed numeric labels, sorted; a :class:`numeric.LabelWarning`
    when integers are not contiguous), a sequence in ordinal order, or a mapping
    dataset -> sequence.
    """
    if isinstance(labels, Mapping):
        if dataset not in labels:
            raise ValueError(f"study: labels has no classes for dataset {dataset!r}")
        labels = labels[dataset]
    both = np.concatenate([yt, yp])
    if labels is None:
        if both.dtype.kind not in "iuf":
            raise ValueError(f"study: dataset {dataset!r} has labels that are not numbers "
                             f"(e.g. {_plain(both[0])!r}); give the classes in ordinal order "
                             "with labels=")
        order = np.unique(both)
        if both.dtype.kind in "iu" and order.size != int(order[-1]) - int(order[0]) + 1:
            import warnings

            from exactfloor.errors import LabelWarning

            warnings.warn(LabelWarning(
                f"study: dataset {dataset!r}: the observed integer labels are not contiguous "
                f"({', '.join(map(str, order.tolist()[:10]))}); a class absent from the dataset is "
                "dropped. Pass labels= in ordinal order"), stacklevel=3)
        return np.searchsorted(order, yt), np.searchsorted(order, yp), order.size
    lab = np.asarray(list(labels))
    if lab.ndim != 1 or lab.size == 0:
        raise ValueError("study: labels must be a non-empty sequence of classes in ordinal order")
    try:
        perm = np.argsort(lab, kind="stable")
        srt = lab[perm]
        if np.any(srt[1:] == srt[:-1]):
            raise ValueError(f"study: labels names a class twice ({_plain(srt[1:][srt[1:] == srt[:-1]][0])!r})")
        out = []
        for y in (yt, yp):
            pos = np.clip(np.searchsorted(srt, y), 0, srt.size - 1)
            bad = srt[pos] != y
            if np.any(bad):
                raise ValueError(f"study: dataset {dataset!r} has the label {_plain(y[bad][0])!r}, "
                                 "which is not one of labels")
            out.append(perm[pos])
    except TypeError:
        raise ValueError(f"study: the labels of dataset {dataset!r} and labels= cannot be "
                         "compared (use one type)") from None
    return out[0], out[1], lab.size


def study(data, *, metrics=None, control=None, alpha=0.05, columns=None, labels=None,
          tie_correction=False) -> Study:
    r"""Several methods over several datasets: every metric per dataset, ranks and the tests of Demšar (2006).

    Each ``(dataset, method, fold)`` gives one confusion matrix (classes:
    every label seen on that dataset, sorted), each metric's value on it, and
    per dataset and method the mean over the folds (the number papers
    print) and its standard deviation.  Per metric the means go to
    :func:`numeric.rank_stats.rank_tests`: ranks (ties averaged; the registry's ``better``
    decides the direction), average ranks, Friedman's :math:`\chi^2_F` and
    Iman-Davenport's :math:`F_F`, Nemenyi's critical difference and all-pairs
    p-values, Holm against ``control`` and Wilcoxon per pair with Holm
    (demsar2006 §3.1.3, §3.2.2).

    Assumptions (stated in every output): the datasets are independent, and
    the unit is the dataset (the folds only give its mean); the Friedman
    approximations want more than 10 datasets and 5 methods (Demšar's rule
    of thumb), and every result says when they have fewer.

    Parameters
    ----------
    data : pandas.DataFrame or mapping of column name -> sequence
        Long format, one row per sample.
    metrics : list of str, optional
        Registry names or variant keys (as :func:`numeric.report`); default
        every metric of a confusion matrix.
    control : str, optional
        Holm's control method (default: the best average rank of each metric).
    alpha : float, default 0.05
    columns : dict, optional
        Other column names, e.g. ``{"fold": "seed"}`` (keys of :data:`numeric.studies.DEFAULT_COLUMNS`).
    labels : sequence or mapping, optional
        The classes in ordinal order, for every dataset, or a mapping dataset
        -> its classes.  Default: the labels seen on each dataset (true or
        predicted), which must be numbers, sorted by value; integers that are
        not contiguous give a :class:`numeric.LabelWarning` (a class no
        sample shows is dropped and the ordinal distances after it shrink).
    tie_correction : bool, default False
        See :func:`numeric.rank_stats.rank_tests`.

    Returns
    -------
    Study

    Raises
    ------
    ValueError
        A missing column, labels that are not numbers without ``labels=``, a
        label not in ``labels``, a method missing from a dataset, a method missing a
        fold another has, a metric undefined on some fold (named: leave it
        out with ``metrics=``), fewer than 2 datasets or methods.
    ImportError
        scipy is not installed (the ``study`` extra).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> rows = {"dataset": [], "method": [], "fold": [], "y_true": [], "y_pred": []}
    >>> for d in ["d1", "d2", "d3"]:
    ...     for m, noise in [("good", 0.2), ("bad", 0.6)]:
    ...         for f in range(2):
    ...             y = rng.integers(0, 3, 30)
    ...             p = np.where(rng.random(30) < noise, rng.integers(0, 3, 30), y)
    ...             for key, v in zip(rows, [d, m, f]):
    ...                 rows[key] += [v] * 30
    ...             rows["y_true"] += list(y); rows["y_pred"] += list(p)
    >>> s = study(rows, metrics=["mae"])
    >>> s["mae"].average_ranks.tolist()
    [1.0, 2.0]
    """
    from .registry import REGISTRY  # noqa: F401 (the metric modules register on first use)
    from .reporting import metric_rows
    from .groups import _per_group

    alpha = _check_alpha(alpha)
    names = dict(DEFAULT_COLUMNS)
    if columns is not None:
        if not isinstance(columns, Mapping) or set(columns) - set(names):
            raise ValueError(f"columns must map some of {sorted(names)} to column names, got {columns!r}")
        names.update(columns)
    if not (isinstance(data, Mapping) or hasattr(data, "columns")):
        raise ValueError("study: data must be a DataFrame or a mapping of column name -> values")
    cols = {key: _column(data, key, name) for key, name in names.items()}
    n = {len(v) for v in cols.values()}
    if len(n) != 1:
        raise ValueError(f"study: the columns have different lengths {sorted(n)}")
    if n.pop() == 0:
        raise ValueError("study: the data has no rows")
    for key in ("y_true", "y_pred"):
        a = cols[key]
        if a.dtype.kind == "f" and np.isnan(a).any() or a.dtype == object and any(
                v is None or v != v for v in a):
            raise ValueError(f"study: column {names[key]!r} has a missing label")
    rows = metric_rows(metrics)
    ds, d_idx = _first_seen(cols["dataset"])
    ms, m_idx = _first_seen(cols["method"])
    if len(ds) < 2 or len(ms) < 2:
        raise ValueError(f"study: {len(ds)} dataset(s) and {len(ms)} method(s); a study needs at "
                         "least 2 of each (numeric.compare_groups compares methods on one dataset)")
    N, k = len(ds), len(ms)
    means = {key: np.empty((N, k)) for _, _, key in rows}
    sds = {key: np.empty((N, k)) for _, _, key in rows}
    n_folds = []
    for i in range(N):
        sel = d_idx == i
        yt, yp, mi = cols["y_true"][sel], cols["y_pred"][sel], m_idx[sel]
        fs, fi = _first_seen(cols["fold"][sel])
        F = len(fs)
        n_folds.append(F)
        t, p, K = _class_indices(yt, yp, labels, _plain(ds[i]))
        cell = mi * F + fi
        counts = np.bincount(cell, minlength=k * F)
        if not counts.all():
            j, f = divmod(int(np.argmin(counts)), F)
            raise ValueError(f"study: dataset {_plain(ds[i])!r} has no samples of method "
                             f"{_plain(ms[j])!r} in fold {_plain(fs[f])!r}; every method needs "
                             "every fold of every dataset (the comparison is paired)")
        stack = np.bincount((cell * K + t) * K + p, minlength=k * F * K * K)
        stack = stack.astype(np.int64).reshape(k * F, K, K)
        for m, v, key in rows:
            values, defined, why = _per_group(m, v, stack)
            if not defined.all():
                j, f = divmod(int(np.argmin(defined)), F)
                raise ValueError(f"study: {v.label} is undefined on dataset {_plain(ds[i])!r}, "
                                 f"method {_plain(ms[j])!r}, fold {_plain(fs[f])!r} ({why}); "
                                 "leave it out with metrics=")
            values = values.reshape(k, F)
            means[key][i] = values.mean(axis=1)
            sds[key][i] = values.std(axis=1, ddof=1) if F > 1 else np.nan
    datasets = tuple(str(_plain(x)) for x in ds)
    methods = tuple(str(_plain(x)) for x in ms)
    if control is not None and str(control) not in methods:
        raise ValueError(f"control {control!r} is not one of the methods {list(methods)}")
    labels = {key: v.label for _, v, key in rows}
    better = {key: m.better for m, _, key in rows}
    tests = {key: rank_tests(means[key], better=better[key], methods=methods, datasets=datasets,
                             alpha=alpha, control=None if control is None else str(control),
                             tie_correction=tie_correction, metric=labels[key])
             for _, _, key in rows}
    return Study(datasets, methods, tuple(key for _, _, key in rows), labels, better, means, sds,
                 tuple(n_folds), tests, alpha)
