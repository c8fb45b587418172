r"""Several methods over many datasets: ranks, Friedman and post-hoc tests (Demšar 2006).

:func:`study` takes long-format predictions -- one row per sample with its
dataset, method, fold (or seed), true and predicted label -- and computes
every requested metric of every fold's confusion matrix, the mean (and
standard deviation) over the folds of each dataset and method, and, per
metric, :func:`rank_tests`: the ranks of the methods on each dataset (1 the
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

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ._paired import holm
from .cd_diagram import cliques

__all__ = ["study", "Study", "rank_tests", "RankTests", "Friedman", "Nemenyi", "ControlTest",
           "WilcoxonPairs", "average_ranks", "rank_rows", "cliques", "STUDY_INSTALL",
           "DEFAULT_COLUMNS"]

#: how to install what the tests need
STUDY_INSTALL = 'pip install "ordinal-verify[study]"'

#: the default column names of :func:`study`'s long-format input
DEFAULT_COLUMNS = {"dataset": "dataset", "method": "method", "fold": "fold",
                   "y_true": "y_true", "y_pred": "y_pred"}


def _stats():
    """scipy.stats, or an ImportError naming the extra."""
    try:
        from scipy import stats
    except ImportError:
        raise ImportError("numeric.study's tests need scipy (chi-squared, F and studentized "
                          f"range distributions, Wilcoxon's test), which is not installed: "
                          f"{STUDY_INSTALL}") from None
    return stats


# ---------------------------------------------------------------------------
# ranks
# ---------------------------------------------------------------------------
def _check_scores(scores):
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"scores must be a 2-D array (datasets x methods), got shape {x.shape}")
    N, k = x.shape
    if N < 2:
        raise ValueError(f"scores has {N} dataset(s): a comparison over datasets needs at least 2")
    if k < 2:
        raise ValueError(f"scores has {k} method(s): a comparison needs at least 2")
    if not np.isfinite(x).all():
        i, j = np.argwhere(~np.isfinite(x))[0]
        raise ValueError(f"scores[{i}, {j}] = {x[i, j]}: every score must be finite")
    return x


def _check_better(better):
    if better not in ("lower", "higher"):
        raise ValueError(f"better must be 'lower' or 'higher', got {better!r}")
    return better


def rank_rows(scores, better="higher"):
    r"""The rank of each method on each dataset: 1 the best, ties given their average rank.

    Demšar (2006, §3.2.2): "ranks the algorithms for each data set
    separately, the best performing algorithm getting the rank of 1, the
    second best rank 2 ...  In case of ties ..., average ranks are
    assigned".  Values are tied when they are equal as floats.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One row per dataset, one column per method.
    better : {"higher", "lower"}
        Which direction is the better method.

    Returns
    -------
    ndarray of float64, shape (N, k)
        Each row a permutation of ``1..k`` with ties averaged
        (``scipy.stats.rankdata(-row)`` for higher is better).

    Examples
    --------
    >>> rank_rows([[0.9, 0.8, 0.9], [0.1, 0.2, 0.3]]).tolist()
    [[1.5, 3.0, 1.5], [3.0, 2.0, 1.0]]
    >>> rank_rows([[0.1, 0.2, 0.3]], better="lower").tolist()
    [[1.0, 2.0, 3.0]]
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"scores must be a 2-D array (datasets x methods), got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError("scores must be finite to be ranked")
    if _check_better(better) == "higher":
        x = -x
    ranks = np.empty_like(x)
    for i, row in enumerate(x):
        order = np.argsort(row, kind="stable")
        s = row[order]
        starts = np.r_[True, s[1:] != s[:-1]]
        first = np.flatnonzero(starts)
        counts = np.diff(np.r_[first, s.size])
        ranks[i, order] = (first + (counts + 1) / 2)[np.cumsum(starts) - 1]
    return ranks


def average_ranks(scores, better="higher"):
    r"""The average rank of each method over the datasets, :math:`R_j = \frac1N \sum_i r_i^j`.

    demsar2006 §3.2.2 (the Friedman test's statistic is built from them).

    >>> average_ranks([[0.9, 0.8], [0.7, 0.8], [0.6, 0.5]]).tolist()
    [1.3333333333333333, 1.6666666666666667]
    """
    return rank_rows(scores, better).mean(axis=0)


def _tie_term(ranks):
    """:math:`\\sum (t^3 - t)` over the groups of tied ranks of every row."""
    total = 0.0
    for row in ranks:
        _, counts = np.unique(row, return_counts=True)
        total += float(np.sum(counts.astype(np.float64) ** 3 - counts))
    return total


# ---------------------------------------------------------------------------
# the tests' results
# ---------------------------------------------------------------------------
def _fmt_p(p):
    """A p-value with 3 decimals, ``< 0.001`` below."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _p_text(p):
    """``p = 0.020`` or ``p < 0.001``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass(frozen=True)
class Friedman:
    r"""The Friedman test and Iman and Davenport's F (demsar2006 §3.2.2).

    .. math:: \chi^2_F = \frac{12N}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big],\qquad
              F_F = \frac{(N-1)\chi^2_F}{N(k-1) - \chi^2_F}

    :math:`\chi^2_F` is referred to chi-squared with :math:`k-1` degrees of
    freedom, :math:`F_F` to the F distribution with :math:`k-1` and
    :math:`(k-1)(N-1)`.  Null hypothesis: every method has the same expected
    rank.  Assumptions: the datasets are independent; only the order of the
    methods on each dataset is used.  Both are large-sample approximations:
    Demšar's rule of thumb asks for :math:`N > 10` datasets and :math:`k > 5`
    methods, below which exact critical values should be consulted
    (``reliable`` is False and ``notes`` says so); :math:`\chi^2_F` is
    conservative, Iman and Davenport's :math:`F_F` less so.  With
    ``tie_correction`` :math:`\chi^2_F` is divided by
    :math:`1 - \sum(t^3 - t)/(N k (k^2-1))` over the groups of :math:`t`
    tied methods (``scipy.stats.friedmanchisquare``'s statistic); Demšar's
    formula (the default) has no correction.
    """

    n_datasets: int
    n_methods: int
    chi2: float
    chi2_p: float
    f: float
    f_df: tuple
    f_p: float
    tie_correction: bool
    reliable: bool
    notes: tuple = ()

    @property
    def chi2_df(self) -> int:
        return self.n_methods - 1

    def summary(self) -> str:
        """One line: both statistics with their degrees of freedom and p-values."""
        return (f"Friedman chi2_F = {self.chi2:.2f} ({self.chi2_df} df, {_p_text(self.chi2_p)}); "
                f"Iman-Davenport F_F = {self.f:.2f} ({self.f_df[0]} and {self.f_df[1]} df, "
                f"{_p_text(self.f_p)})")


@dataclass(frozen=True)
class Nemenyi:
    r"""Nemenyi's all-pairs test after Friedman's (demsar2006 §3.2.2).

    .. math:: CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}},\qquad
              q_\alpha = \frac{Q_{1-\alpha}(k, \infty)}{\sqrt2}

    with :math:`Q` the studentized range distribution of :math:`k` means and
    infinite degrees of freedom (``scipy.stats.studentized_range``).  Two
    methods differ significantly when their average ranks differ by at least
    ``cd``; the p-value of a pair is
    :math:`P(Q > \sqrt2\,|R_i - R_j| / \sqrt{k(k+1)/(6N)})`
    (``scikit_posthocs.posthoc_nemenyi_friedman``).  It controls the
    family-wise error over all :math:`k(k-1)/2` pairs, is conservative, and is
    meant after the Friedman test rejects.  ``p_values[i, j]`` follows the
    order of ``methods``; the diagonal is 1.  ``cliques`` are the maximal
    groups of methods (by average rank) no two of which differ significantly.
    """

    alpha: float
    q_alpha: float
    cd: float
    methods: tuple
    p_values: np.ndarray = field(repr=False)
    cliques: tuple = ()


@dataclass(frozen=True)
class ControlTest:
    r"""Each method against a control, Holm's step-down procedure (demsar2006 §3.2.2).

    .. math:: z = \frac{R_i - R_c}{\sqrt{k(k+1)/(6N)}},\qquad p = 2\,(1 - \Phi(|z|))

    and Holm's (1979) adjusted p-values over the :math:`k - 1` comparisons
    (:func:`numeric.comparison.holm`); ``rejected`` where the adjusted p is
    below ``alpha``.  The same normal approximation of the rank sums as
    Nemenyi's test, more powerful because it makes :math:`k-1` comparisons
    instead of :math:`k(k-1)/2`.  A negative ``z`` is a method ranked better
    than the control.
    """

    control: str
    alpha: float
    methods: tuple
    z: np.ndarray = field(repr=False)
    p: np.ndarray = field(repr=False)
    p_holm: np.ndarray = field(repr=False)
    rejected: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class WilcoxonPairs:
    r"""Wilcoxon's signed-rank test of every pair over the datasets, with Holm (demsar2006 §3.1.3).

    For a pair, the differences :math:`d_i` of the two methods' scores on the
    :math:`N` datasets are ranked by :math:`|d_i|`; zero differences are split
    evenly between the two rank sums (Demšar's rule, ``zero_method="zsplit"``
    of ``scipy.stats.wilcoxon``, whose two-sided p-value this is).  It
    assumes the differences are commensurable across datasets and
    symmetric about their median under the null; it uses their sizes, so it
    is more powerful than the sign test.  With :math:`N` datasets no
    two-sided p-value below :math:`2/2^N` is possible (0.0625 for 5).
    ``p_holm`` is Holm's adjustment over all :math:`k(k-1)/2` pairs.
    """

    alpha: float
    pairs: tuple
    statistic: np.ndarray = field(repr=False)
    p: np.ndarray = field(repr=False)
    p_holm: np.ndarray = field(repr=False)
    rejected: np.ndarray = field(repr=False)


def _reliability(N, k, alpha, friedman_p):
    notes = []
    if N <= 10 or k <= 5:
        notes.append(f"N = {N} datasets and k = {k} methods: the chi-squared and F "
                     "approximations of the Friedman test want N > 10 and k > 5 (Demšar 2006, "
                     "§3.2.2); compare with exact critical values for so few")
    if friedman_p >= alpha:
        notes.append(f"the Friedman test does not reject at alpha = {alpha:g} "
                     f"(Iman-Davenport {_p_text(friedman_p)}): the post-hoc tests are "
                     "shown for completeness only")
    if 2.0 / 2.0 ** N >= alpha:
        notes.append(f"with N = {N} datasets Wilcoxon's smallest possible two-sided p is "
                     f"2/2^N = {2.0 / 2.0 ** N:.3g}, not below alpha = {alpha:g}")
    return tuple(notes)


#: the assumptions every rendering states
ASSUMPTIONS = ("the datasets are independent and each gives one score per method (the mean over "
               "its folds); the Friedman, Nemenyi and Holm tests use only the ranks; Wilcoxon's "
               "test assumes the differences are commensurable across datasets")


@dataclass(frozen=True)
class RankTests:
    """Every rank-based test of one metric over the datasets (:func:`rank_tests`).

    Attributes
    ----------
    metric, better : str
        The metric's label and direction.
    methods, datasets : tuple of str
    scores, ranks : ndarray, shape (N, k)
        The scores and the ranks (1 the best) per dataset and method.
    average_ranks : ndarray, shape (k,)
    friedman : Friedman
    nemenyi : Nemenyi
    control : ControlTest
    wilcoxon : WilcoxonPairs
    notes : tuple of str
        When the tests are unreliable here (few datasets, no Friedman rejection).
    """

    metric: str
    better: str
    methods: tuple
    datasets: tuple
    scores: np.ndarray = field(repr=False)
    ranks: np.ndarray = field(repr=False)
    average_ranks: np.ndarray
    friedman: Friedman
    nemenyi: Nemenyi
    control: ControlTest
    wilcoxon: WilcoxonPairs
    notes: tuple = ()

    def caption(self) -> str:
        """The tests in one paragraph (plain text): a table's caption."""
        c = self.control
        beaten = [m for m, r in zip(c.methods, c.rejected, strict=True) if r]
        parts = [f"{self.metric} ({self.better} is better), N = {len(self.datasets)} datasets, "
                 f"k = {len(self.methods)} methods. {self.friedman.summary()}. "
                 f"Nemenyi CD = {self.nemenyi.cd:.3f} (q = {self.nemenyi.q_alpha:.3f}, "
                 f"alpha = {self.nemenyi.alpha:g}). Holm vs control {c.control}: "
                 + (f"different from {', '.join(beaten)}" if beaten else "no method differs")
                 + "."]
        parts += [n[0].upper() + n[1:] + "." for n in self.notes]
        return " ".join(parts)

    def records(self) -> list:
        """One dict per method: average rank and the test against the control."""
        c = self.control
        out = []
        for j, m in enumerate(self.methods):
            row = {"metric": self.metric, "method": m, "average_rank": float(self.average_ranks[j])}
            if m in c.methods:
                i = c.methods.index(m)
                row.update(z=float(c.z[i]), p=float(c.p[i]), p_holm=float(c.p_holm[i]),
                           differs_from_control=bool(c.rejected[i]))
            else:
                row.update(z=None, p=None, p_holm=None, differs_from_control=None)
            out.append(row)
        return out

    def pair_records(self) -> list:
        """One dict per pair: Nemenyi's p and Wilcoxon's statistic, p and Holm's p."""
        w, n = self.wilcoxon, self.nemenyi
        out = []
        for t, (a, b) in enumerate(w.pairs):
            i, j = self.methods.index(a), self.methods.index(b)
            out.append({"metric": self.metric, "a": a, "b": b,
                        "rank_difference": float(self.average_ranks[j] - self.average_ranks[i]),
                        "nemenyi_p": float(n.p_values[i, j]),
                        "wilcoxon_statistic": float(w.statistic[t]), "wilcoxon_p": float(w.p[t]),
                        "wilcoxon_p_holm": float(w.p_holm[t]), "wilcoxon_differs": bool(w.rejected[t])})
        return out

    def to_pandas(self):
        """:meth:`records` as a DataFrame (pandas, the ``pandas`` extra)."""
        from .reporting import to_pandas

        return to_pandas(self.records(), ["metric", "method", "average_rank", "z", "p", "p_holm",
                                          "differs_from_control"])

    def to_markdown(self) -> str:
        """The average ranks with Holm's test against the control, the pairs, and the caption."""
        from .markdown import escape, table

        rows = []
        for r in self.records():
            rows.append([escape(r["method"]), f"{r['average_rank']:.3f}",
                         "control" if r["z"] is None else f"{r['z']:.2f}",
                         "" if r["p"] is None else _fmt_p(r["p"]),
                         "" if r["p_holm"] is None else _fmt_p(r["p_holm"])])
        head = table(["method", "average rank", "z vs control", "p", "Holm p"], rows,
                     align=["left", "right", "right", "right", "right"])
        pairs = table(["pair", "rank difference", "Nemenyi p", "Wilcoxon p", "Wilcoxon Holm p"],
                      [[escape(f"{p['a']} vs {p['b']}"), f"{p['rank_difference']:.3f}",
                        _fmt_p(p["nemenyi_p"]), _fmt_p(p["wilcoxon_p"]), _fmt_p(p["wilcoxon_p_holm"])]
                       for p in self.pair_records()],
                      align=["left", "right", "right", "right", "right"])
        return (f"{head}\n\n{pairs}\n\n{escape(self.caption())}\n\n"
                f"Assumptions: {escape(ASSUMPTIONS)}.\n")

    def to_latex(self) -> str:
        """The average ranks and Holm's test against the control as a booktabs table."""
        from .reporting import latex_escape, latex_table

        rows = [[latex_escape(r["method"]), f"{r['average_rank']:.3f}",
                 "control" if r["z"] is None else f"{r['z']:.2f}",
                 "" if r["p"] is None else _fmt_p(r["p"]),
                 "" if r["p_holm"] is None else _fmt_p(r["p_holm"])] for r in self.records()]
        return latex_table(["method", "average rank", "$z$", "$p$", "Holm $p$"], "lrrrr", rows,
                           [], self.caption(), legend="Assumptions: " + ASSUMPTIONS + ".")

    def __str__(self) -> str:
        return self.to_markdown()


# ---------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------
def _check_alpha(alpha):
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) \
            or not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    return float(alpha)


def rank_tests(scores, *, better="higher", methods=None, datasets=None, alpha=0.05,
               control=None, tie_correction=False, metric="score") -> RankTests:
    r"""Ranks, the Friedman test and its post-hoc tests of a datasets x methods table.

    demsar2006 §3.2.2 (Friedman, Iman-Davenport, Nemenyi, Holm against a
    control) and §3.1.3 (Wilcoxon, here for every pair with Holm's
    adjustment).  See :class:`Friedman`, :class:`Nemenyi`,
    :class:`ControlTest` and :class:`WilcoxonPairs` for each formula and its
    assumptions.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per dataset (row) and method (column): a metric's mean
        over the folds of that dataset.
    better : {"higher", "lower"}
        Which direction is better (rank 1 goes to the best).
    methods, datasets : sequence of str, optional
        Names (default ``"0", "1", ...``).
    alpha : float, default 0.05
        The level of the critical difference and of the rejections.
    control : str, optional
        The control of Holm's procedure (default: the best average rank).
    tie_correction : bool, default False
        Divide :math:`\chi^2_F` by the tie correction (scipy's statistic);
        Demšar's formula has none.
    metric : str
        The metric's name in the output.

    Returns
    -------
    RankTests

    Raises
    ------
    ValueError
        Fewer than 2 datasets or methods, a non-finite score, names that do
        not match the shape or repeat, an unknown control.
    ImportError
        scipy is not installed (the ``study`` extra).

    Examples
    --------
    Demšar's (2006) Table 6 (AUC of four variants of C4.5 on 14 datasets, rows 1-3 here):

    >>> t = rank_tests([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...                 [0.954, 0.971, 0.968, 0.967]], methods=["C4.5", "m", "cf", "m+cf"])
    >>> t.average_ranks.tolist()
    [3.0, 2.0, 2.3333333333333335, 2.6666666666666665]
    >>> round(t.friedman.chi2, 3)
    1.0
    """
    x = _check_scores(scores)
    better = _check_better(better)
    alpha = _check_alpha(alpha)
    N, k = x.shape
    methods = _names(methods, k, "methods")
    datasets = _names(datasets, N, "datasets")
    st = _stats()

    ranks = rank_rows(x, better)
    R = ranks.mean(axis=0)
    # demsar2006 §3.2.2: chi2_F and F_F
    chi2 = 12.0 * N / (k * (k + 1)) * (float(np.sum(R ** 2)) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)  # rounding of an exact 0
    if tie_correction:
        c = 1.0 - _tie_term(ranks) / (N * k * (k * k - 1))
        if c <= 0:
            raise ValueError("every dataset ties every method: the tie-corrected Friedman "
                             "statistic is 0/0")
        chi2 /= c
    df1, df2 = k - 1, (k - 1) * (N - 1)
    denom = N * (k - 1) - chi2
    f = math.inf if denom <= 1e-12 * N * k else (N - 1) * chi2 / denom
    chi2_p = float(st.chi2.sf(chi2, df1))
    f_p = 0.0 if math.isinf(f) else float(st.f.sf(f, df1, df2))
    notes = _reliability(N, k, alpha, f_p)
    friedman = Friedman(N, k, float(chi2), chi2_p, float(f), (df1, df2), f_p, bool(tie_correction),
                        reliable=not (N <= 10 or k <= 5), notes=notes[:1] if N <= 10 or k <= 5 else ())

    # Nemenyi: q_alpha from the studentized range with infinite degrees of freedom
    se = math.sqrt(k * (k + 1) / (6.0 * N))
    q_alpha = float(st.studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2)
    cd = q_alpha * se
    diff = np.abs(R[:, None] - R[None, :])
    p_nem = np.ones((k, k))
    iu = np.triu_indices(k, 1)
    p_nem[iu] = st.studentized_range.sf(diff[iu] / se * math.sqrt(2), k, np.inf)
    p_nem[(iu[1], iu[0])] = p_nem[iu]
    p_nem = np.clip(p_nem, 0.0, 1.0)
    groups = tuple(tuple(methods[i] for i in g) for g in cliques(R, cd))
    nemenyi = Nemenyi(alpha, q_alpha, cd, methods, p_nem, groups)

    # Holm against a control
    if control is None:
        c_idx = int(np.argmin(R))
    elif control in methods:
        c_idx = methods.index(control)
    else:
        raise ValueError(f"control {control!r} is not one of the methods {list(methods)}")
    others = [j for j in range(k) if j != c_idx]
    z = (R[others] - R[c_idx]) / se
    p = np.minimum(1.0, 2.0 * st.norm.sf(np.abs(z)))
    p_holm = holm(p)
    ctrl = ControlTest(methods[c_idx], alpha, tuple(methods[j] for j in others), z, p, p_holm,
                       p_holm < alpha)

    # Wilcoxon per pair, Holm over the pairs
    pairs = list(itertools.combinations(range(k), 2))
    stat, pw = np.empty(len(pairs)), np.empty(len(pairs))
    for t, (i, j) in enumerate(pairs):
        stat[t], pw[t] = _wilcoxon(x[:, i] - x[:, j], st)
    pw_holm = holm(pw)
    wil = WilcoxonPairs(alpha, tuple((methods[i], methods[j]) for i, j in pairs), stat, pw, pw_holm,
                        pw_holm < alpha)
    return RankTests(metric, better, methods, datasets, x, ranks, R, friedman, nemenyi, ctrl, wil,
                     notes)


#: at most this many datasets get the exact sign-flip p-value when there are ties or zeros
EXACT_TIES_MAX = 13


def _wilcoxon(d, st):
    r"""Wilcoxon's signed-rank statistic ``min(R+, R-)`` and two-sided p-value of the differences ``d``.

    Zero differences are ranked and split between :math:`R^+` and :math:`R^-`
    (demsar2006 §3.1.3; ``zero_method="zsplit"``).  The p-value is the one
    ``scipy.stats.wilcoxon(d, zero_method="zsplit")`` returns: exact without
    ties or zeros (up to 50 datasets); with ties or zeros and at most
    :data:`EXACT_TIES_MAX` datasets, exact over the :math:`2^N` sign flips
    (scipy's permutation test, enumerated here in one array operation, as
    scipy's takes about a second a pair); beyond, the normal approximation
    with the tie correction.
    """
    d = np.asarray(d, dtype=np.float64)
    N = d.size
    if not np.any(d):
        return N * (N + 1) / 4.0, 1.0  # every rank split evenly: R+ = R-
    a = np.abs(d)
    ranks = rank_rows(a[None, :], "lower")[0]
    zero_half = float(ranks[d == 0].sum()) / 2
    r_plus = float(ranks[d > 0].sum()) + zero_half
    r_minus = float(ranks[d < 0].sum()) + zero_half
    ties = np.unique(a).size < N or bool(np.any(d == 0))
    if ties and N <= EXACT_TIES_MAX:
        flips = ((np.arange(2 ** N)[:, None] >> np.arange(N)) & 1).astype(bool)
        positive = np.where(flips, d < 0, d > 0)
        null = positive.astype(np.float64) @ ranks + zero_half
        tol = 1e-12 * max(abs(r_plus), 1.0)
        p = 2 * min(np.mean(null <= r_plus + tol), np.mean(null >= r_plus - tol))
        return min(r_plus, r_minus), float(min(1.0, p))
    res = st.wilcoxon(d, zero_method="zsplit", method="auto")
    return float(res.statistic), float(res.pvalue)


def _names(names, n, what):
    if names is None:
        return tuple(str(i) for i in range(n))
    names = tuple(str(x) for x in names)
    if len(names) != n:
        raise ValueError(f"{what} has {len(names)} names for {n} columns/rows of scores")
    if len(set(names)) != n:
        dup = next(x for x in names if names.count(x) > 1)
        raise ValueError(f"{what}: {dup!r} is named twice")
    return names


# ---------------------------------------------------------------------------
# the study
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Study:
    """Every metric of several methods over several datasets, and their rank tests (:func:`study`).

    Attributes
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
        key -> :class:`numeric.studies.RankTests` of the means.
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


def _plain(v):
    return v.item() if hasattr(v, "item") else v


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

            from .errors import LabelWarning

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
    :func:`numeric.studies.rank_tests`: ranks (ties averaged; the registry's ``better``
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
        See :func:`numeric.studies.rank_tests`.

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
