"""numeric.study and numeric.rank_stats.rank_tests: Demšar's worked example, peers, an oracle.

Sources of the expected values:

* Demšar, J. (2006), "Statistical Comparisons of Classifiers over Multiple Data
  Sets", JMLR 7:1-30: the AUC of four variants of C4.5 on 14 data sets and the
  printed results of the Friedman test (/work/shared/references/demsar2006-example.md);
* peers: ``scipy.stats.rankdata``, ``friedmanchisquare``, ``wilcoxon``, ``chi2``, ``f``;
  ``scikit_posthocs.posthoc_nemenyi_friedman`` and ``posthoc_wilcoxon(p_adjust="holm")``;
* an oracle written here in plain Python (sorting, loops, ``math.erfc``) for the
  ranks with ties in both directions, the statistics and Holm's procedure;
* numeric's own metrics on each fold's labels, computed one fold at a time.
"""

from __future__ import annotations

import importlib

import math
import re
import sys

import numpy as np
import pytest

import numeric
from numeric.cd_diagram import cliques
from numeric.rank_stats import rank_rows, rank_tests

stats = importlib.import_module("scipy.stats")  # the test extra installs scipy

# demsar2006, Table 6 (AUC; higher is better), rows in the paper's order
DEMSAR_AUC = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970]])
DEMSAR_METHODS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


# ---------------------------------------------------------------------------
# Demšar's worked example
# ---------------------------------------------------------------------------
def test_demsar_printed_table_ranks_exactly():
    """The printed three-decimal table ranks (exact sums of ranks, derived by hand from
    the table: data set 13 ties C4.5+cf and C4.5+m+cf at 0.975, data set 10 ties all four)
    to 44/14, 28/14, 41/14, 27/14 -- not the printed 2.893 and 1.964 of the last two."""
    t = rank_tests(DEMSAR_AUC, methods=DEMSAR_METHODS)
    np.testing.assert_allclose(t.average_ranks * 14, [44, 28, 41, 27], rtol=0, atol=1e-12)
    assert t.ranks[12].tolist() == [4.0, 1.0, 2.5, 2.5] and t.ranks[9].tolist() == [2.5] * 4


def test_demsar_printed_results_reproduced():
    """Demšar's printed average ranks 3.143, 2.000, 2.893, 1.964 need C4.5+cf half a rank
    better and C4.5+m+cf half a rank worse than the printed table gives; the only data set
    where the table prints those two as tied (besides data set 10, where all four tie) is
    data set 13 (0.975 and 0.975), so his ranks came from the unrounded AUCs with C4.5+cf
    ahead there.  Breaking that printed tie the same way reproduces every printed result
    to its printed digits: the ranks, chi2_F = 9.28, F_F = 3.69 with 3 and 39 df, the
    critical F 2.85, q_0.05 = 2.569 and CD = 1.25."""
    auc = DEMSAR_AUC.copy()
    auc[12, 2] = 0.9751  # C4.5+cf ahead of C4.5+m+cf on data set 13 (below the printed digits)
    t = rank_tests(auc, methods=DEMSAR_METHODS)
    assert [round(r, 3) for r in t.average_ranks] == [3.143, 2.000, 2.893, 1.964]
    assert round(t.friedman.chi2, 2) == 9.28
    assert round(t.friedman.f, 2) == 3.69 and t.friedman.f_df == (3, 39)
    assert round(float(stats.f.ppf(0.95, 3, 39)), 2) == 2.85
    assert round(t.nemenyi.q_alpha, 3) == 2.569
    assert round(t.nemenyi.cd, 2) == 1.25
    assert t.nemenyi.cd == pytest.approx(t.nemenyi.q_alpha * math.sqrt(4 * 5 / (6 * 14)))
    # Demšar: the F test rejects at 0.05 (3.69 > 2.85), Nemenyi finds no pair differing by CD
    assert t.friedman.f_p < 0.05
    assert cliques(t.average_ranks, t.nemenyi.cd) == ((3, 1, 2, 0),)
    # N = 14 > 10 but k = 4 <= 5: Demšar's rule of thumb is not met, and the output says so
    assert not t.friedman.reliable and "k > 5" in t.caption()


# ---------------------------------------------------------------------------
# peers
# ---------------------------------------------------------------------------
def _random_scores(seed, N=12, k=5, ties=False):
    rng = np.random.default_rng(seed)
    if ties:
        return rng.integers(0, 4, size=(N, k)).astype(float) / 4  # many ties
    return rng.random((N, k))


@pytest.mark.parametrize("better", ["higher", "lower"])
def test_ranks_agree_with_scipy_rankdata(better):
    x = _random_scores(1, ties=True)
    expected = np.array([stats.rankdata(-r if better == "higher" else r) for r in x])
    np.testing.assert_array_equal(rank_rows(x, better), expected)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_friedman_agrees_with_scipy(seed):
    """Without ties Demšar's chi2_F is scipy's statistic; with ties scipy divides by the
    tie correction, which ``tie_correction=True`` reproduces."""
    x = _random_scores(seed)
    t = rank_tests(x)
    res = stats.friedmanchisquare(*x.T)
    assert t.friedman.chi2 == pytest.approx(res.statistic, rel=1e-12)
    assert t.friedman.chi2_p == pytest.approx(res.pvalue, rel=1e-10)
    y = _random_scores(seed, ties=True)
    res = stats.friedmanchisquare(*y.T)
    tc = rank_tests(y, tie_correction=True).friedman
    assert tc.chi2 == pytest.approx(res.statistic, rel=1e-12)
    assert tc.chi2_p == pytest.approx(res.pvalue, rel=1e-10)
    assert rank_tests(y).friedman.chi2 < tc.chi2  # the correction only enlarges it


@pytest.mark.parametrize("seed", [0, 3])
def test_nemenyi_agrees_with_scikit_posthocs(seed):
    sp = importlib.import_module("scikit_posthocs")
    x = _random_scores(seed, N=15, k=5, ties=True)
    t = rank_tests(x)
    expected = sp.posthoc_nemenyi_friedman(x).to_numpy()
    np.testing.assert_allclose(t.nemenyi.p_values, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("better, order, k", [("higher", "descending", 6), ("lower", "ascending", 4)])
def test_ranks_friedman_and_cd_agree_with_autorank(better, order, k):
    """autorank (nonparametric mode): mean ranks, Friedman's p (scipy's tie-corrected
    statistic) and Nemenyi's CD, whose q comes from statsmodels' qsturng (Gleason's 1999
    approximation of the studentized range, hence rel 1e-4, not scipy's exact quantile)."""
    autorank = importlib.import_module("autorank")
    pd = importlib.import_module("pandas")
    x = _random_scores(20 + k, N=14, k=k, ties=True)
    names = list("ABCDEF"[:k])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = autorank.autorank(pd.DataFrame(x, columns=names), alpha=0.05, order=order,
                              force_mode="nonparametric")
    t = rank_tests(x, methods=names, better=better, tie_correction=True)
    assert r.omnibus == "friedman" and t.friedman.chi2_p == pytest.approx(r.pvalue, rel=1e-10)
    assert dict(zip(t.methods, t.average_ranks)) == pytest.approx(r.rankdf["meanrank"].to_dict(), rel=1e-12)
    assert t.nemenyi.cd == pytest.approx(r.cd, rel=1e-4)


def test_wilcoxon_holm_agrees_with_scikit_posthocs_and_scipy():
    sp = importlib.import_module("scikit_posthocs")
    x = _random_scores(4, N=14, k=4)
    x[3, 1] = x[3, 0]  # one zero difference: Demšar's split of its rank (zsplit)
    t = rank_tests(x)
    adjusted = sp.posthoc_wilcoxon(x.T.tolist(), zero_method="zsplit", p_adjust="holm").to_numpy()
    for n, (a, b) in enumerate(t.wilcoxon.pairs):
        i, j = int(a), int(b)
        res = stats.wilcoxon(x[:, i], x[:, j], zero_method="zsplit")
        assert t.wilcoxon.p[n] == pytest.approx(res.pvalue, rel=1e-12)
        assert t.wilcoxon.statistic[n] == pytest.approx(res.statistic)
        assert t.wilcoxon.p_holm[n] == pytest.approx(adjusted[i, j], rel=1e-9)


@pytest.mark.parametrize("n", [6, 9, 10])
def test_wilcoxon_with_ties_and_zeros_agrees_with_scipy(n):
    """With ties or zeros and N <= 13 scipy runs its exact permutation test (about a second
    a pair at N = 13); numeric enumerates the same 2^N sign flips at once."""
    from numeric.rank_stats import _wilcoxon

    rng = np.random.default_rng(n)
    for _ in range(3):
        d = rng.integers(-3, 4, n) / 4
        d[0] = 0.0  # a zero, and (with 7 values for n numbers) ties
        res = stats.wilcoxon(d, zero_method="zsplit")
        stat, p = _wilcoxon(d, stats)
        assert stat == res.statistic and p == pytest.approx(res.pvalue, rel=1e-12)


# ---------------------------------------------------------------------------
# a plain oracle on random data
# ---------------------------------------------------------------------------
def _oracle_ranks(row, better):
    """Rank 1 the best; a value tied with others gets the mean of their positions."""
    key = [(-v if better == "higher" else v) for v in row]
    out = []
    for v in key:
        below = sum(1 for w in key if w < v)
        same = sum(1 for w in key if w == v)
        out.append(below + (same + 1) / 2)
    return out


def _oracle_holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adj, running = [0.0] * m, 0.0
    for pos, i in enumerate(order):
        running = max(running, min(1.0, (m - pos) * p[i]))
        adj[i] = running
    return adj


@pytest.mark.parametrize("seed,better", [(10, "higher"), (11, "lower"), (12, "lower"), (13, "higher")])
def test_against_a_plain_oracle(seed, better):
    rng = np.random.default_rng(seed)
    N, k = int(rng.integers(6, 20)), int(rng.integers(3, 8))
    x = np.round(rng.random((N, k)), 1)  # one decimal: ties on most rows
    t = rank_tests(x, better=better, control=str(k - 1))
    ranks = [_oracle_ranks(list(r), better) for r in x]
    assert t.ranks.tolist() == ranks
    R = [sum(r[j] for r in ranks) / N for j in range(k)]
    np.testing.assert_allclose(t.average_ranks, R, rtol=1e-12)
    chi2 = 12 * N / (k * (k + 1)) * (sum(r * r for r in R) - k * (k + 1) ** 2 / 4)
    ff = (N - 1) * chi2 / (N * (k - 1) - chi2)
    assert t.friedman.chi2 == pytest.approx(chi2, rel=1e-10)
    assert t.friedman.f == pytest.approx(ff, rel=1e-10)
    assert t.friedman.f_p == pytest.approx(float(stats.f.sf(ff, k - 1, (k - 1) * (N - 1))), rel=1e-9)
    se = math.sqrt(k * (k + 1) / (6 * N))
    z = [(R[j] - R[k - 1]) / se for j in range(k - 1)]
    p = [math.erfc(abs(v) / math.sqrt(2)) for v in z]  # 2 (1 - Phi(|z|))
    np.testing.assert_allclose(t.control.z, z, rtol=1e-12)
    np.testing.assert_allclose(t.control.p, p, rtol=1e-9)
    np.testing.assert_allclose(t.control.p_holm, _oracle_holm(p), rtol=1e-9)
    assert t.control.rejected.tolist() == [q < 0.05 for q in _oracle_holm(p)]
    # the cliques: every pair inside a clique is within CD, and every pair within CD is in one
    cd = t.nemenyi.cd
    groups = cliques(R, cd)
    for g in groups:
        assert max(R[i] for i in g) - min(R[i] for i in g) < cd
    for i in range(k):
        for j in range(k):
            if i != j and abs(R[i] - R[j]) < cd:
                assert any(i in g and j in g for g in groups), (i, j)


def test_direction_matters():
    """The same scores, opposite direction: ranks k + 1 - r, the control flips."""
    x = _random_scores(5)
    hi, lo = rank_tests(x, better="higher"), rank_tests(x, better="lower")
    np.testing.assert_allclose(hi.ranks + lo.ranks, x.shape[1] + 1)
    assert hi.control.control != lo.control.control
    assert hi.friedman.chi2 == pytest.approx(lo.friedman.chi2)


def test_p_cells_are_written_as_in_the_comparison_tables():
    """One rule for every p-value cell of the toolkit (numeric._paired._format_p, the
    comparison tables): 3 decimals, ``<0.001`` below, ``$...$`` in LaTeX.  Method "a"
    is best on each of 40 datasets, "c" worst: the control "a" differs from "c" with
    z = 2 / sqrt(3 * 4 / (6 * 40)) = 8.9, p ~ 1e-18 (demsar2006 §3.2.2), and the
    Wilcoxon p of a vs c is far below 0.001 (all 40 differences of one sign: 2 / 2^40
    exactly, about 4e-8 by the normal approximation)."""
    rng = np.random.default_rng(3)
    x = np.sort(rng.uniform(size=(40, 3)), axis=1)[:, ::-1]  # column 0 best on every row
    t = rank_tests(x, methods=["a", "b", "c"], better="higher")
    assert t.control.control == "a"
    # the table rows (the caption's prose says "p < 0.001", as a sentence does)
    md = [c.strip() for line in t.to_markdown().splitlines() if line.startswith("| ")
          for c in line.strip("|").split("|")]
    tex = [c.strip() for line in t.to_latex().splitlines() if "&" in line
           for c in re.sub(r"\\\\\s*$", "", line).split("&")]  # "... & x \\"
    assert "<0.001" in md and "$<0.001$" in tex
    p_md = [c for c in md if re.fullmatch(r"<?[01]\.\d{3}|<\s*0\.001", c)]
    p_tex = [c for c in tex if c.startswith("$") and any(d.isdigit() for d in c)]
    assert p_md and all(re.fullmatch(r"<0\.001|[01]\.\d{3}", c) for c in p_md), p_md
    assert p_tex and all(re.fullmatch(r"\$(<0\.001|[01]\.\d{3})\$", c) for c in p_tex), p_tex
    assert not [c for c in tex if "<" in c and not c.startswith("$")], tex  # no bare "<"


# ---------------------------------------------------------------------------
# the study from long-format predictions
# ---------------------------------------------------------------------------
def _long(seed=0, datasets=4, methods=(("A", 0.15), ("B", 0.4), ("C", 0.7)), folds=3, n=40):
    rng = np.random.default_rng(seed)
    rows = {"dataset": [], "method": [], "fold": [], "y_true": [], "y_pred": []}
    for d in range(datasets):
        for m, noise in methods:
            for f in range(folds):
                y = rng.integers(0, 4, n)
                p = np.where(rng.random(n) < noise, rng.integers(0, 4, n), y)
                rows["dataset"] += [f"set{d}"] * n
                rows["method"] += [m] * n
                rows["fold"] += [f] * n
                rows["y_true"] += y.tolist()
                rows["y_pred"] += p.tolist()
    return rows


def _fold_values(rows, fn):
    """{(dataset, method): [fn on each fold]} one fold at a time."""
    out = {}
    keys = list(zip(rows["dataset"], rows["method"], rows["fold"], strict=True))
    yt, yp = np.array(rows["y_true"]), np.array(rows["y_pred"])
    for key in dict.fromkeys(keys):
        sel = np.array([k == key for k in keys])
        labels = np.unique(np.concatenate([yt[np.array(rows["dataset"]) == key[0]],
                                           yp[np.array(rows["dataset"]) == key[0]]]))
        out.setdefault(key[:2], []).append(fn(yt[sel], yp[sel], labels=labels))
    return out


def test_study_means_sds_and_ranks():
    rows = _long()
    s = numeric.study(rows, metrics=["mae", "cohen_kappa_quadratic"])
    assert s.datasets == ("set0", "set1", "set2", "set3") and s.methods == ("A", "B", "C")
    mae = _fold_values(rows, numeric.mae)
    qwk = _fold_values(rows, lambda t, p, labels: numeric.cohen_kappa(t, p, labels=labels,
                                                                     weights="quadratic"))
    for i, d in enumerate(s.datasets):
        for j, m in enumerate(s.methods):
            assert s.means["mae"][i, j] == pytest.approx(np.mean(mae[d, m]), rel=1e-12)
            assert s.sds["mae"][i, j] == pytest.approx(np.std(mae[d, m], ddof=1), rel=1e-12)
            assert s.means["cohen_kappa_quadratic"][i, j] == pytest.approx(np.mean(qwk[d, m]))
    # MAE: lower is better, kappa higher: A (least noise) is ranked first by both
    for key in s.metrics:
        assert s[key].average_ranks.tolist() == [1.0, 2.0, 3.0]
        expected = [_oracle_ranks(list(r), s.better[key]) for r in s.means[key]]
        assert s[key].ranks.tolist() == expected
    assert s.better == {"mae": "lower", "cohen_kappa_quadratic": "higher"}
    assert s["MAE"] is s.tests["mae"]


def test_study_control_columns_and_pandas():
    pd = importlib.import_module("pandas")
    rows = _long(1)
    frame = pd.DataFrame(rows).rename(columns={"fold": "seed"})
    s = numeric.study(frame, metrics=["mae"], control="C", columns={"fold": "seed"})
    assert s["mae"].control.control == "C" and s["mae"].control.methods == ("A", "B")
    long = s.to_pandas()
    assert len(long) == 4 * 3 and set(long.columns) >= {"dataset", "method", "mean", "sd", "rank"}
    assert s["mae"].to_pandas()["average_rank"].tolist() == s["mae"].average_ranks.tolist()


def test_study_errors():
    rows = _long(2, datasets=2, folds=2, n=20)
    with pytest.raises(ValueError, match="no column 'fold'"):
        numeric.study({k: v for k, v in rows.items() if k != "fold"})
    cut = {k: v[20:] for k, v in rows.items()}  # set0, A loses fold 0
    with pytest.raises(ValueError, match="no samples of method 'A' in fold 0"):
        numeric.study(cut, metrics=["mae"])
    one = {k: [v for v, d in zip(vals, rows["dataset"]) if d == "set0"] for k, vals in rows.items()}
    with pytest.raises(ValueError, match="at least 2 of each"):
        numeric.study(one, metrics=["mae"])
    with pytest.raises(ValueError, match="control 'Z' is not one of the methods"):
        numeric.study(rows, metrics=["mae"], control="Z")
    const = dict(rows, y_pred=[0] * len(rows["y_pred"]))  # tau_b undefined: one predicted class
    with pytest.raises(ValueError, match="tau_b is undefined on dataset 'set0', method 'A', fold 0"):
        numeric.study(const, metrics=["kendall_tau_b"])
    with pytest.raises(ValueError, match="unknown metrics"):
        numeric.study(rows, metrics=["nope"])
    with pytest.raises(ValueError, match="alpha must be in"):
        rank_tests(DEMSAR_AUC, alpha=1.5)
    with pytest.raises(ValueError, match="must be finite"):
        rank_tests([[1.0, float("nan")], [1.0, 2.0]])


def test_missing_scipy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)
    with pytest.raises(ImportError, match=re.escape('pip install "ordinal-verify[study]"')):
        rank_tests(DEMSAR_AUC)


def test_unreliable_cases_are_stated():
    small = rank_tests(DEMSAR_AUC[:5], methods=DEMSAR_METHODS)
    text = small.to_markdown()
    assert "N = 5 datasets" in text and "want N > 10 and k > 5" in text
    assert "smallest possible two-sided p is 2/2^N = 0.0625" in text
    assert "does not reject" in text  # 5 data sets are too few for this example
    big = rank_tests(_random_scores(7, N=12, k=6))
    assert big.friedman.reliable and "want N > 10" not in big.caption()
    assert "commensurable" in big.to_markdown() and "commensurable" in big.to_latex()


# ---------------------------------------------------------------------------
# the tables papers print
# ---------------------------------------------------------------------------
def _oracle_marks(values, better, decimals):
    """2 for the best printed value, 1 for the second distinct one (plain Python)."""
    printed = [round(float(v), decimals) for v in values]
    distinct = sorted(set(printed), reverse=(better == "higher"))
    return [2 if v == distinct[0] else 1 if len(distinct) > 1 and v == distinct[1] else 0
            for v in printed]


def _md_rows(text):
    lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in ln.strip("|").split(" | ")] for ln in lines[1:]]


def _md_mark(cell):
    return 2 if cell.startswith("**") else 1 if cell.startswith("<u>") else 0


@pytest.fixture(scope="module")
def small_study():
    return numeric.study(_long(3, datasets=5, methods=(("A", 0.3), ("B", 0.35), ("C", 0.3),
                                                       ("D", 0.6))),
                         metrics=["mae", "cohen_kappa_quadratic"])


def test_markdown_dataset_table_marks_the_oracle_best(small_study):
    s = small_study
    for key, decimals in (("mae", 3), ("cohen_kappa_quadratic", 2)):
        text = s.table(key, decimals=decimals).to_markdown()
        rows = _md_rows(text)
        assert [r[0] for r in rows] == [*s.datasets, "average rank"]
        for r, means in zip(rows, [*s.means[key], s[key].average_ranks]):
            better = "lower" if r[0] == "average rank" else s.better[key]
            assert [_md_mark(c) for c in r[1:]] == _oracle_marks(means, better, decimals), r
            numbers = re.findall(r"-?\d+\.\d+", " ".join(r[1:]))
            assert numbers and all(len(x.split(".")[1]) == decimals for x in numbers), r
            printed = [float(re.findall(r"-?\d+\.\d+", c)[0]) for c in r[1:]]
            np.testing.assert_allclose(printed, np.round(means, decimals), atol=10 ** -decimals / 2 + 1e-12)
        assert "±" in rows[0][1] and "±" not in rows[-1][1]  # the rank row has no sd
        assert "Friedman chi2_F" in text and "Nemenyi CD" in text


def test_markdown_metric_table(small_study):
    s = small_study
    rows = _md_rows(s.summary_table().to_markdown())
    assert [r[0] for r in rows] == ["MAE", "quadratic weighted kappa", "mean average rank"]
    for r, key in zip(rows, s.metrics):
        means = s.means[key].mean(axis=0)
        assert [_md_mark(c) for c in r[1:]] == _oracle_marks(means, s.better[key], 3)
        sd = float(r[1].split("±")[1])
        assert sd == pytest.approx(np.std(s.means[key][:, 0], ddof=1), abs=5e-4)
    mean_rank = np.mean([s[k].average_ranks for k in s.metrics], axis=0)
    assert [float(re.sub(r"[*<u>/]", "", c)) for c in rows[-1][1:]] == pytest.approx(mean_rank, abs=5e-4)


def _latex_rows(text):
    body = text.split("\\midrule", 1)[1].split("\\bottomrule")[0]
    return [ln.rstrip(" \\").split(" & ") for ln in body.splitlines()
            if "&" in ln and not ln.startswith("\\")]


def _latex_mark(cell):
    return 2 if "\\mathbf{" in cell else 1 if "\\underline{" in cell else 0


@pytest.mark.parametrize("layout", ["narrow", "wide"])
def test_latex_tables(small_study, layout):
    s = small_study
    text = s.to_latex("mae", layout=layout)
    env = "table" if layout == "narrow" else "table*"
    assert f"\\begin{{{env}}}" in text and f"\\end{{{env}}}" in text
    assert text.count("\\toprule") == text.count("\\bottomrule") == 1
    assert "\\begin{tabular}{lcccc}" in text
    rows = _latex_rows(text)
    assert [r[0] for r in rows] == [*s.datasets, "average rank"]
    for r, means in zip(rows, [*s.means["mae"], s["mae"].average_ranks]):
        assert [_latex_mark(c) for c in r[1:]] == _oracle_marks(means, "lower", 3)  # MAE, ranks
        first = re.findall(r"-?\d*\.\d+", r[1])[0]
        if r[0] != "average rank":  # MAE < 1: the narrow layout drops "0."
            assert first.startswith(".") == (layout == "narrow")
    assert ("\\shortstack" in text) == (layout == "narrow")
    # scaled down to the column (the page) only when wider: checked with pdflatex in a
    # two-column article (no overfull box, six ORCA-like names over a 229.5pt column)
    width = "\\columnwidth" if layout == "narrow" else "\\textwidth"
    assert f"\\ifdim\\wd0>{width}\\resizebox{{{width}}}{{!}}{{\\usebox0}}\\else\\usebox0\\fi" in text
    assert text.index("\\sbox0{%") < text.index("\\begin{tabular}") < text.index("\\end{tabular}}%")
    assert "Friedman" in text and "\\caption{" in text


def test_latex_narrow_refuses_seven_methods_and_pandas():
    pd = importlib.import_module("pandas")
    rows = _long(5, datasets=2, methods=tuple((m, 0.3) for m in "ABCDEFG"), folds=2, n=30)
    s = numeric.study(rows, metrics=["mae"])
    with pytest.raises(ValueError, match="at most 6 methods"):
        s.to_latex("mae", layout="narrow")
    assert "\\begin{table*}" in s.to_latex("mae", layout="wide")
    frame = s.table("mae").to_pandas()
    assert isinstance(frame, pd.DataFrame) and frame.shape == (3, 7)
    assert list(frame.index) == ["set0", "set1", "average rank"]
    assert frame.iloc[0, 0] == f"{s.means['mae'][0, 0]:.3f} ± {s.sds['mae'][0, 0]:.3f}"


# ---------------------------------------------------------------------------
# the critical-difference diagram
# ---------------------------------------------------------------------------
def test_cd_diagram_elements_and_formats(tmp_path):
    matplotlib = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from numeric.cd_diagram import plot_cd

    R = [1.2, 2.5, 3.1, 3.9, 4.4, 5.9, 6.0]
    names = list("ABCDEFG")
    ax = plot_cd(average_ranks=R, methods=names, cd=1.5)
    # the groups by hand: {A, B} (1.3 < 1.5), {B, C, D} (1.4), {C, D, E} (1.3), {F, G}
    assert sum(1 for ln in ax.lines if ln.get_gid() == "clique") == 4
    assert sorted(t.get_text() for t in ax.texts if t.get_gid() == "method") == names
    assert [t.get_text() for t in ax.texts if t.get_gid() == "cd-label"] == ["CD = 1.50"]
    cd_bar = [ln for ln in ax.lines if ln.get_gid() == "cd"][0]
    assert np.ptp(cd_bar.get_xdata()) == pytest.approx(1.5)
    assert ax.get_xlim()[0] > ax.get_xlim()[1]  # the axis turned: the best rank on the right
    by_name = {t.get_text(): t for t in ax.texts if t.get_gid() == "method"}
    assert by_name["A"].get_position()[0] < by_name["G"].get_position()[0]  # A on the right side
    for ext, magic in (("svg", b"<?xml"), ("pdf", b"%PDF"), ("png", b"\x89PNG")):
        path = tmp_path / f"cd.{ext}"
        ax.figure.savefig(path)
        assert path.read_bytes()[:5].startswith(magic)
    plt.close("all")
    t = rank_tests(DEMSAR_AUC, methods=DEMSAR_METHODS)
    ax = plot_cd(t)
    assert sum(1 for ln in ax.lines if ln.get_gid() == "clique") == len(t.nemenyi.cliques) == 1
    plt.close("all")


def test_labels_order_and_absent_classes():
    """Words need their order (labels=); the order given is the one used; a class no sample
    of a dataset shows keeps its place with labels= (and is warned about without)."""
    rows = _long(6, datasets=2, folds=2, n=30)
    words = np.array(["none", "mild", "moderate", "severe"])  # alphabetical order is not ordinal
    named = dict(rows, y_true=words[rows["y_true"]].tolist(), y_pred=words[rows["y_pred"]].tolist())
    with pytest.raises(ValueError, match="not numbers.*labels="):
        numeric.study(named, metrics=["mae"])
    a = numeric.study(named, metrics=["mae"], labels=list(words))
    b = numeric.study(rows, metrics=["mae"])
    np.testing.assert_array_equal(a.means["mae"], b.means["mae"])
    per = numeric.study(named, metrics=["mae"], labels={"set0": list(words), "set1": list(words)})
    np.testing.assert_array_equal(per.means["mae"], b.means["mae"])
    with pytest.raises(ValueError, match="the label 'severe', which is not one of labels"):
        numeric.study(named, metrics=["mae"], labels=list(words[:3]))
    # class 2 never seen: 1 -> 3 is an error of 2 classes, not 1
    gap = {"dataset": ["a"] * 4 + ["b"] * 4, "method": ["A", "A", "B", "B"] * 2,
           "fold": [0] * 8, "y_true": [1, 3, 1, 3] * 2, "y_pred": [3, 3, 1, 1] * 2}
    with pytest.warns(numeric.LabelWarning, match="not contiguous"):
        dropped = numeric.study(gap, metrics=["mae"])
    kept = numeric.study(gap, metrics=["mae"], labels=[1, 2, 3])
    assert dropped.means["mae"][0].tolist() == [0.5, 0.5] and kept.means["mae"][0].tolist() == [1.0, 1.0]


# ---------------------------------------------------------------------------
# the Bayesian signed-rank test (benavoli2017)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_bayesian_signed_rank_agrees_with_baycomp(rope):
    """baycomp.SignedRankTest draws its Dirichlet weights from RandomState(random_state):
    with the same seed the posterior probabilities are the same numbers."""
    baycomp = importlib.import_module("baycomp")
    from numeric.bayesian import bayesian_signed_rank

    rng = np.random.default_rng(int(rope * 1000))
    x = rng.random(12)
    y = np.round(x + rng.normal(0.02, 0.05, 12), 2)  # rounded: zero differences and ties
    ours = bayesian_signed_rank(x, y, rope, nsamples=5000, seed=3)
    theirs = baycomp.SignedRankTest.probs(x, y, rope, nsamples=5000, random_state=3)
    if rope > 0:
        assert (ours.p_left, ours.p_rope, ours.p_right) == pytest.approx(theirs, abs=1e-12)
    else:
        assert (ours.p_left, ours.p_right) == pytest.approx(theirs, abs=1e-12) and ours.p_rope == 0


def test_bayesian_signed_rank_in_a_study():
    from numeric.bayesian import bayesian_signed_rank

    s = numeric.study(_long(7, datasets=6, folds=2, n=40), metrics=["mae"])
    r = s.bayesian_signed_rank("mae", "C", "A", rope=0.01, nsamples=4000)
    assert r.p_right > 0.9  # A (least noise, lower MAE) is practically better than C
    same = bayesian_signed_rank(-s.means["mae"][:, 2], -s.means["mae"][:, 0], 0.01, nsamples=4000)
    assert same == r
    with pytest.raises(ValueError, match="rope must be a finite number >= 0"):
        s.bayesian_signed_rank("mae", "C", "A", rope=-1)
    with pytest.raises(ValueError, match="'Z' is not one of the methods"):
        s.bayesian_signed_rank("mae", "Z", "A", rope=0.01)
