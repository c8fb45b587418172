r"""Rank statistics of several methods over several datasets (Demšar 2006): the tests of :func:`numeric.study`.

:func:`rank_tests` takes a datasets x methods table of scores (a metric's
mean over the folds of each dataset) and gives the ranks of the methods on
each dataset (1 the best, ties averaged), the average ranks, the Friedman test
with Iman and Davenport's F, Nemenyi's critical difference and all-pairs
p-values, Holm's step-down procedure against a control, and Wilcoxon's
signed-rank test of every pair with Holm's adjustment (Demšar, J. (2006),
"Statistical Comparisons of Classifiers over Multiple Data Sets", *JMLR*
7:1-30, §3.1.3 and §3.2, key ``demsar2006``).  Each result states its
assumptions and when it is unreliable (``notes``).

scipy (the ``study`` extra) supplies the distributions and Wilcoxon's test;
it is imported when a test is computed, never by ``import numeric``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ._paired import _format_p, holm
from .cd_diagram import cliques
from exactfloor.tolerance import FLOAT_TIE

__all__ = ["rank_tests", "RankTests", "Friedman", "Nemenyi", "ControlTest", "WilcoxonPairs",
           "average_ranks", "rank_rows", "STUDY_INSTALL", "ASSUMPTIONS", "EXACT_TIES_MAX"]

#: how to install what the tests need
STUDY_INSTALL = 'pip install "ordinal-verify[study]"'

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

    Parameters
    ----------
    scores : array_like, shape (N, k)
        The score of each method (column) on each dataset (row).
    better : {"higher", "lower"}, optional
        Which scores are better (default higher).

    Returns
    -------
    ndarray of float64, shape (k,)
        The average ranks (1 the best).

    Examples
    --------
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
def _fmt_p(p, latex=False):
    """A p-value cell, as in the comparison tables (:func:`numeric._paired._format_p`):
    3 decimals, ``<0.001`` below (in LaTeX ``$<0.001$``: a bare ``<`` in text is
    another glyph in LaTeX's default font encoding).

    >>> _fmt_p(0.0234), _fmt_p(2e-5), _fmt_p(2e-5, latex=True), _fmt_p(0.5, latex=True)
    ('0.023', '<0.001', '$<0.001$', '$0.500$')
    """
    return _format_p(p, None, latex)


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
    formula (the default) has no correction.  Built by :func:`rank_tests`.

    Parameters
    ----------
    n_datasets, n_methods : int
        :math:`N` and :math:`k`.
    chi2, chi2_p : float
        :math:`\chi^2_F` and its p-value.
    f, f_p : float
        :math:`F_F` and its p-value.
    f_df : (int, int)
        The degrees of freedom of :math:`F_F`, :math:`k-1` and :math:`(k-1)(N-1)`.
    tie_correction : bool
        Whether :math:`\chi^2_F` is corrected for ties.
    reliable : bool
        Whether Demšar's rule of thumb (:math:`N > 10`, :math:`k > 5`) holds.
    notes : tuple of str, optional
        Why the approximations are not reliable here, if so.

    Examples
    --------
    >>> t = rank_tests([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...                 [0.954, 0.971, 0.968, 0.967]], methods=["C4.5", "m", "cf", "m+cf"])
    >>> t.friedman.chi2, t.friedman.f_df, t.friedman.reliable
    (1.0, (3, 6), False)
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
    order of ``methods``; the diagonal is 1.  Built by :func:`rank_tests`.

    Parameters
    ----------
    alpha : float
        The significance level.
    q_alpha : float
        :math:`q_\alpha`.
    cd : float
        The critical difference.
    methods : tuple of str
        The methods, in the order of ``p_values``.
    p_values : ndarray, shape (k, k)
        The p-value of each pair.
    cliques : tuple of tuple of str, optional
        The maximal groups of methods (by average rank) no two of which
        differ significantly.

    Examples
    --------
    >>> t = rank_tests([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...                 [0.954, 0.971, 0.968, 0.967]], methods=["C4.5", "m", "cf", "m+cf"])
    >>> round(t.nemenyi.q_alpha, 3), round(t.nemenyi.cd, 3), t.nemenyi.cliques   # q_0.05 = 2.569 (demsar2006, k = 4)
    (2.569, 2.708, (('m', 'cf', 'm+cf', 'C4.5'),))
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
    than the control.  Built by :func:`rank_tests`.

    Parameters
    ----------
    control : str
        The control method (by default the best ranked).
    alpha : float
        The significance level.
    methods : tuple of str
        The other methods, in the order of ``z``, ``p`` and ``p_holm``.
    z, p, p_holm : ndarray, shape (k - 1,)
        Each method's statistic, p-value and Holm-adjusted p-value.

    Examples
    --------
    >>> t = rank_tests([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...                 [0.954, 0.971, 0.968, 0.967]], methods=["C4.5", "m", "cf", "m+cf"])
    >>> t.control.control, t.control.methods, t.control.rejected.tolist()
    ('m', ('C4.5', 'cf', 'm+cf'), [False, False, False])
    """

    control: str
    alpha: float
    methods: tuple
    z: np.ndarray = field(repr=False)
    p: np.ndarray = field(repr=False)
    p_holm: np.ndarray = field(repr=False)

    @property
    def rejected(self) -> np.ndarray:
        """Where Holm's adjusted p is below ``alpha``."""
        return self.p_holm < self.alpha


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
    Built by :func:`rank_tests`.

    Parameters
    ----------
    alpha : float
        The significance level.
    pairs : tuple of (str, str)
        The pairs of methods, in the order of the arrays.
    statistic, p, p_holm : ndarray, shape (k(k-1)/2,)
        Each pair's statistic (the smaller rank sum), p-value and
        Holm-adjusted p-value.

    Examples
    --------
    >>> t = rank_tests([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...                 [0.954, 0.971, 0.968, 0.967]], methods=["C4.5", "m", "cf", "m+cf"])
    >>> t.wilcoxon.pairs[0], float(t.wilcoxon.p_holm.min())   # N = 3: no p below 2/2^3
    (('C4.5', 'm'), 1.0)
    """

    alpha: float
    pairs: tuple
    statistic: np.ndarray = field(repr=False)
    p: np.ndarray = field(repr=False)
    p_holm: np.ndarray = field(repr=False)

    @property
    def rejected(self) -> np.ndarray:
        """Where Holm's adjusted p is below ``alpha``."""
        return self.p_holm < self.alpha


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

    Built by :func:`rank_tests`, never by hand.

    Parameters
    ----------
    metric, better : str
        The metric's label and direction.
    methods, datasets : tuple of str
        The names of the methods and the datasets.
    scores, ranks : ndarray, shape (N, k)
        The scores and the ranks (1 the best) per dataset and method.
    average_ranks : ndarray, shape (k,)
        Each method's average rank.
    friedman : Friedman
        The Friedman test.
    nemenyi : Nemenyi
        Nemenyi's all-pairs test.
    control : ControlTest
        Each method against the control.
    wilcoxon : WilcoxonPairs
        Wilcoxon's test of every pair.
    notes : tuple of str, optional
        When the tests are unreliable here (few datasets, no Friedman rejection).

    Examples
    --------
    >>> t = rank_tests([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...                 [0.954, 0.971, 0.968, 0.967]], methods=["C4.5", "m", "cf", "m+cf"])
    >>> t.methods, t.ranks[0].tolist()
    (('C4.5', 'm', 'cf', 'm+cf'), [4.0, 3.0, 2.0, 1.0])
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
                 "" if r["p"] is None else _fmt_p(r["p"], latex=True),
                 "" if r["p_holm"] is None else _fmt_p(r["p_holm"], latex=True)]
                for r in self.records()]
        text = latex_table(["method", "average rank", "$z$", "$p$", "Holm $p$"], "lrrrr", rows,
                           [], self.caption(), legend="Assumptions: " + ASSUMPTIONS + ".")
        # as numeric.study_tables: scaled down to the column only when wider (graphicx)
        text = text.replace("% needs \\usepackage{booktabs}",
                            "% needs \\usepackage{booktabs} and \\usepackage{graphicx}")
        text = text.replace("\\begin{tabular}", "\\sbox0{%\n\\begin{tabular}", 1)
        return text.replace("\\end{tabular}", "\\end{tabular}}%\n\\ifdim\\wd0>\\columnwidth"
                            "\\resizebox{\\columnwidth}{!}{\\usebox0}\\else\\usebox0\\fi", 1)

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
    f = math.inf if denom <= FLOAT_TIE * N * k else (N - 1) * chi2 / denom
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
    ctrl = ControlTest(methods[c_idx], alpha, tuple(methods[j] for j in others), z, p, p_holm)

    # Wilcoxon per pair, Holm over the pairs
    pairs = list(itertools.combinations(range(k), 2))
    stat, pw = np.empty(len(pairs)), np.empty(len(pairs))
    for t, (i, j) in enumerate(pairs):
        stat[t], pw[t] = _wilcoxon(x[:, i] - x[:, j], st)
    pw_holm = holm(pw)
    wil = WilcoxonPairs(alpha, tuple((methods[i], methods[j]) for i, j in pairs), stat, pw, pw_holm)
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
        tol = FLOAT_TIE * max(abs(r_plus), 1.0)
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
