"""The researcher's comparison table (issue 25 items 1, 2, 3, 7).

A readable comparison (decimals from the interval width, one row per metric
variant with a unique key, a winner only where the paired interval excludes
0 -- the same rule in Python, the CLI, JSON, CSV and LaTeX --, every pair of
three or more classifiers, Holm's adjustment, the reason of every undefined
value with class labels, ``metrics=`` in the order given, one default number
of resamples), the per-class view, the exports (``to_pandas``, ``--latex``,
CSV and JSON with the same columns) and ``--plot`` without matplotlib.

Sources of the expected values: ``scipy.stats.bootstrap`` (paired percentile
intervals and the bootstrap distribution), Holm (1979) computed by hand,
scikit-learn (confusion matrix, per-class recall, support, MAE of a subset),
and the definitions stated in each test.
"""

from __future__ import annotations

import importlib

import csv
import inspect
import io
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

import numeric
from ordinal_verify import build_parser, main
from numeric.comparison import (COMPARISON_COLUMNS, DEFAULT_RESAMPLES, MetricComparison,
                             bootstrap_p_value, holm, joint_resamples, percentile_interval,
                             winner_of)
from numeric.registry import matrix_metrics
from numeric.reporting import REPORT_COLUMNS, decimals_for, per_class, variant_keys

ROOT = Path(__file__).resolve().parents[1]


def _data(N=177, seed=3):
    """True classes 1..5 and three classifiers of different quality."""
    rng = np.random.default_rng(seed)
    t = rng.integers(1, 6, N)
    a = np.clip(t + rng.integers(-2, 3, N), 1, 5)          # off by up to two
    b = np.clip(t + rng.integers(-1, 2, N), 1, 5)          # off by up to one
    c = np.where(rng.random(N) < 0.5, t, rng.integers(1, 6, N))
    return t, a, b, c


def _write(path, t, *preds, names=("lr", "rf", "ord")):
    lines = [",".join(("y", *names[:len(preds)]))]
    lines += [",".join(map(str, row)) for row in zip(t, *preds)]
    path.write_text("\n".join(lines) + "\n")


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def preds3(tmp_path):
    t, a, b, c = _data()
    f = tmp_path / "preds.csv"
    _write(f, t, a, b, c)
    return f, (t, a, b, c)


# ---------------------------------------------------------------------------
# 1. a readable comparison
# ---------------------------------------------------------------------------
def _decimals(cell):
    m = re.fullmatch(r"<?-?\d+(?:\.(\d+))?", cell)
    assert m, cell
    return len(m.group(1) or "")


def test_one_decimal_rule_per_column(preds3):
    """Issue 39 item 5: 0.4 printed next to 0.42, means with 2 or 3 decimals.  Now every
    number of a column has the same decimals: values, differences and interval ends those
    of the table's narrowest interval (two significant digits of its width, 1 - floor(log10
    w), computed here by hand), p-values 3 (``<0.001`` below; the exact p in the records)."""
    _, (t, a, b, c) = preds3
    cmp = numeric.compare(t, a, b, c, names=["lr", "rf", "ord"], labels=[1, 2, 3, 4, 5],
                          metrics=["mae", "a_uoc", "cohen_kappa_quadratic", "mmae"],
                          n_resamples=2000, seed=0, adjust="holm")
    header, _, rows, _, _ = cmp.table()
    widths = [ci[1] - ci[0] for r in cmp.rows for ci in (r.a_ci, r.b_ci, r.diff_ci)]
    d = 1 - int(np.floor(np.log10(min(widths))))
    per_metric = {r.key: 1 - int(np.floor(np.log10(min(ci[1] - ci[0] for ci in (r.a_ci, r.b_ci,
                                                                                   r.diff_ci)))))
                  for r in cmp.rows}
    assert len(set(per_metric.values())) > 1      # the old per-metric rule would mix decimals
    i_p = header.index("p")
    for row in rows:
        values = row[4:i_p - 1]
        ends = row[i_p - 1].strip("[]").split(", ")
        assert {_decimals(x) for x in values + ends} == {d}, row
        assert all(_decimals(x) == 3 for x in row[i_p:i_p + 2]), row
    for r, row in zip(cmp.rows, rows, strict=True):
        for p, cell in ((r.p_value, row[i_p]), (r.p_adjusted, row[i_p + 1])):
            assert cell == ("<0.001" if p < 0.001 else f"{p:.3f}")
    tex = cmp.to_latex()
    assert "$0.4$" not in tex and not re.search(r"\$1\$", tex)


def test_one_default_number_of_resamples():
    """Python defaulted to 10,000 resamples, the CLI to 2,000."""
    assert inspect.signature(numeric.compare).parameters["n_resamples"].default == DEFAULT_RESAMPLES
    sub = build_parser()._subparsers._group_actions[0].choices["metrics"]
    assert sub.get_default("resamples") == DEFAULT_RESAMPLES == 10_000


def test_table_prints_decimals_from_the_interval_width(tmp_path, capsys):
    """The issue: 31 rows of surds (``-2*sqrt(13629)/177 + sqrt(60357)/177``) about 200
    characters wide.  Now decimals, with two significant digits of the interval's width
    (decimals_for: 1 - floor(log10(width))); --exact gives the closed forms."""
    t, a, b, _ = _data()
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    args = ("metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf", "--resamples", "2000",
            "--no-progress")
    status, out, _ = _run(capsys, *args, "--json", tmp_path / "c.json")
    assert status == 0
    assert "sqrt" not in out and "≈" not in out
    # the title line names the input file, whose temporary path varies with the machine
    table = [ln for ln in out.splitlines() if not ln.startswith(("[", str(f)))]
    assert max(map(len, table[:-2])) <= 110
    data = json.loads((tmp_path / "c.json").read_text())
    rows = {r["metric"]: r for r in data["comparison"]["metrics"]}
    line = next(ln for ln in out.splitlines() if ln.startswith("MAE "))
    mae = rows["mae"]
    # one decimal rule per column (issue 39): the narrowest interval of the whole table
    widths = [w for r in data["comparison"]["metrics"] if r["ci_low"] is not None
              for w in (r["ci_high"] - r["ci_low"], r["a_ci_high"] - r["a_ci_low"],
                        r["b_ci_high"] - r["b_ci_low"]) if w > 0]
    d = decimals_for(min(widths))
    assert d == 1 - int(np.floor(np.log10(min(widths))))
    for x in (mae["value_a"], mae["value_b"], mae["diff"], mae["ci_low"], mae["ci_high"]):
        assert f"{x:.{d}f}".replace("-0.00", "0.00") in line
    status, exact, _ = _run(capsys, *args, "--exact")
    assert "sqrt" in exact     # RMSE = sqrt(...)/177 as a closed form
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                          "--resamples", "0", "--labels", "1,2,3,4,5,6", "--metrics", "mae,tc")
    assert status == 0 and "no intervals" in out
    assert re.search(r"^TC\s+lower\s+undefined \[1\]\s+undefined \[1\]$", out, re.M)
    assert "[1] TC is undefined for lr, rf: confusion matrix: true class 6 has no samples" in out


def test_every_row_has_a_unique_name_and_the_csv_a_winner_column(tmp_path, capsys):
    """The CSV repeated names (``oc`` twice, ``cohen_kappa`` three times) and had no
    winner column."""
    t, a, b, _ = _data()
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                          "--resamples", "300", "--csv", "-")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    keys = [r["metric"] for r in rows]
    assert len(keys) == len(set(keys)) == sum(len(m.cases()) for m in matrix_metrics())
    assert {"oc_0.25", "oc_0.75", "cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic",
            "amae", "amae_zero", "uoc_0.25", "uoc_0.75"} <= set(keys)
    assert "winner" in rows[0]
    for m in matrix_metrics():
        assert len(set(variant_keys(m))) == len(m.cases())


def _winner_by_rule(r):
    """The rule, restated: an interval that excludes 0 and has a positive width."""
    lo, hi = r["ci_low"], r["ci_high"]
    if lo is None or not lo < hi or lo <= 0 <= hi:
        return ""
    b_higher = lo > 0
    return r["b"] if b_higher == (r["better"] == "higher") else r["a"]


def _table_rows(out):
    """The data lines of the CLI's comparison table."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("---")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("[")
               or re.match(r"\d+ samples", lines[i]))
    return lines[start:end]


def test_winner_only_where_the_interval_excludes_zero_in_every_output(preds3, capsys, tmp_path):
    """The CLI's ``best`` column named a classifier on all 31 rows although every
    interval contained 0, while Python printed '—'.  Now one rule (winner_of) in the
    terminal table, Python's str(), JSON, CSV and LaTeX, and every pair of three."""
    f, (t, a, b, c) = preds3
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                          "--pred", "ord", "--resamples", "1000", "--seed", "5", "--no-progress",
                          "--json", tmp_path / "c.json", "--latex", tmp_path / "c.tex")
    assert status == 0
    data = json.loads((tmp_path / "c.json").read_text())["comparison"]
    recs = data["metrics"]
    n_variants = sum(len(m.cases()) for m in matrix_metrics())
    assert len(recs) == 3 * n_variants        # every pair: lr-rf, lr-ord, rf-ord
    assert [(r["a"], r["b"]) for r in recs[:3]] == [("lr", "rf"), ("lr", "ord"), ("rf", "ord")]
    assert [r["winner"] for r in recs] == [_winner_by_rule(r) for r in recs]
    assert any(r["winner"] for r in recs) and any(not r["winner"] for r in recs)
    # the terminal's winner column (the last) is the JSON's
    shown = [ln.split()[-1] for ln in _table_rows(out)]
    assert shown == [r["winner"] or "—" for r in recs]
    # Python: the same rows, the same winners, the same str()
    cmp = numeric.compare(t, a, b, c, labels=[1, 2, 3, 4, 5], names=["lr", "rf", "ord"],
                          n_resamples=1000, seed=5)
    assert cmp.records() == recs
    assert [ln.split()[-1] for ln in _table_rows(str(cmp))] == shown
    # LaTeX: one tabular line per row, the same winner in the last column
    tex = (tmp_path / "c.tex").read_text()
    body = tex.split("\\midrule\n")[1].split("\\bottomrule")[0]
    lines = [ln for ln in body.splitlines() if ln.endswith("\\\\")]
    assert [ln[:-2].split(" & ")[-1].strip() for ln in lines] == [
        r["winner"] or "--" for r in recs]


def test_zero_width_interval_names_no_winner():
    """A degenerate interval (every resample gave the same difference) named a winner:
    MetricComparison.winner was "B" for diff_ci = (0.2, 0.2)."""
    row = MetricComparison("mae", "MAE", "higher", "s", 0.1, 0.3, 0.2, diff_ci=(0.2, 0.2))
    assert row.winner == "" and winner_of((0.2, 0.2), "higher") == ""
    assert winner_of((0.1, 0.3), "higher") == "B" and winner_of((0.1, 0.3), "lower") == "A"


def test_three_classifiers_every_pair_is_the_joint_bootstrap():
    """Each pair's interval is the percentile interval of the per-matrix loop over the
    joint resamples (the definition), and agrees with scipy.stats.bootstrap(paired=True)
    on the pair (B, C) within a quarter of the bootstrap standard error."""
    t, a, b, c = _data(300)
    cmp = numeric.compare(t, a, b, c, metrics=["mae"], n_resamples=10_000, seed=2)
    cms, stacks, _ = joint_resamples(t, [a, b, c], n_resamples=10_000, seed=2)
    mae = [np.array([float(numeric.mae(x)) for x in s]) for s in stacks]
    for (i, j), row in zip([(0, 1), (0, 2), (1, 2)], cmp.rows):
        assert row.pair == ("ABC"[i], "ABC"[j])
        assert row.diff_ci == pytest.approx(percentile_interval(mae[j] - mae[i]), abs=1e-12)
    res = scipy.stats.bootstrap(
        (t, b, c), lambda tt, bb, cc: np.mean(np.abs(cc - tt)) - np.mean(np.abs(bb - tt)),
        paired=True, vectorized=False, n_resamples=10_000, method="percentile",
        random_state=np.random.default_rng(9))
    row = cmp["MAE", "B", "C"]
    se = res.standard_error
    assert abs(row.diff_ci[0] - res.confidence_interval.low) < 0.25 * se
    assert abs(row.diff_ci[1] - res.confidence_interval.high) < 0.25 * se
    # the p-value: twice the smaller tail proportion of scipy's bootstrap distribution
    dist = res.bootstrap_distribution
    p_scipy = 2 * min(np.mean(dist <= 0), np.mean(dist >= 0))
    assert abs(row.p_value - p_scipy) < 0.02


def test_p_value_is_the_inverted_percentile_interval():
    """p < alpha exactly when the 1 - alpha percentile interval excludes 0, and p is
    within 2/(R-1) of twice the smaller tail proportion around 0 (the definitions in
    bootstrap_p_value's docstring); [-1, 1, 2, 3, 4] by hand: the linear quantile at
    q is -1 + 2 (4q) for 4q <= 1, positive from q = 1/8, so p = 1/4."""
    assert bootstrap_p_value([-1.0, 1.0, 2.0, 3.0, 4.0]) == pytest.approx(0.25)
    rng = np.random.default_rng(0)
    for shift in (0.0, 0.5, 1.5, 2.5, -2.0):
        for lattice in (False, True):
            d = rng.normal(shift, 1.0, 999)
            if lattice:
                d = np.round(d * 4) / 4        # ties, and values exactly 0
            p = bootstrap_p_value(d)
            tails = 2 * min(np.mean(d <= 0), np.mean(d >= 0))
            assert abs(p - min(1.0, tails)) <= 2 / (d.size - 1) + 1e-12
            for alpha in np.linspace(0.01, 0.99, 50):
                lo, hi = percentile_interval(d, 1 - alpha)
                assert (p < alpha) == (lo > 0 or hi < 0), (shift, alpha, p, lo, hi)


def test_holm_by_hand():
    """Holm (1979): sorted p_(1) <= ... <= p_(m), adjusted max_{j<=i} min(1, (m-j+1) p_(j)).
    p = [0.01, 0.04, 0.03, 0.005]: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06,
    max(0.06, 0.04*1) = 0.06; in the input order [0.03, 0.06, 0.06, 0.02]."""
    assert holm([0.01, 0.04, 0.03, 0.005]).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]).tolist() == pytest.approx([1.0, 1.0])   # 2*0.5 = 1; max(1, 0.9)


def test_holm_across_rows_and_pairs(preds3, capsys):
    """compare(adjust="holm") adjusts over every row and pair (the family is the table),
    and a winner then needs the adjusted p below 1 - confidence: a row whose interval
    excludes 0 with an adjusted p >= 0.05 has none.  The CLI's --adjust holm agrees."""
    f, (t, a, b, c) = preds3
    kw = dict(labels=[1, 2, 3, 4, 5], names=["lr", "rf", "ord"], n_resamples=2000, seed=1,
              metrics=["mae", "mer", "cohen_kappa", "minimum_sensitivity"])
    plain = numeric.compare(t, a, b, c, **kw)
    adj = numeric.compare(t, a, b, c, adjust="holm", **kw)
    p = [r.p_value for r in plain.rows]
    assert [r.p_adjusted for r in adj.rows] == pytest.approx(holm(p).tolist())
    assert len(p) == 7 * 3   # cohen_kappa has three variants, minimum_sensitivity two
    for r in adj.rows:
        excludes = r.diff_ci[0] > 0 or r.diff_ci[1] < 0
        assert bool(r.winner) == (excludes and r.p_adjusted < 0.05)
    lost = [r for r, r0 in zip(adj.rows, plain.rows) if r0.winner and not r.winner]
    assert lost, "the data should have a row that Holm's adjustment takes the winner from"
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                          "--pred", "ord", "--resamples", "2000", "--seed", "1", "--adjust",
                          "holm", "--metrics", "mae,mer,cohen_kappa,minimum_sensitivity",
                          "--json", "-")
    assert status == 0
    assert json.loads(out)["comparison"]["metrics"] == adj.records()


def test_undefined_values_give_their_reason_with_class_labels(tmp_path, capsys):
    """With --labels 1,...,6 (class 6 never occurs) TC read 'true class 5 has no samples'
    (the 0-based index of label 6), and the comparison's undefined rows gave no reason."""
    t, a, b, _ = _data()
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                          "--labels", "1,2,3,4,5,6", "--resamples", "200", "--no-progress")
    assert status == 0
    tc = next(ln for ln in out.splitlines() if ln.startswith("TC "))
    n = re.search(r"undefined \[(\d+)\]", tc).group(1)
    note = next(ln for ln in out.splitlines() if ln.startswith(f"[{n}] "))
    assert "true class 6 has no samples" in note and "lr" in note and "rf" in note
    assert "class 5" not in note
    assert "true class 6 has no samples" in numeric.report(t, a, labels=range(1, 7))["tc"].note
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--labels",
                          "1,2,3,4,5,6", "--json", "-")
    tc = next(r for r in json.loads(out)["predictions"][0]["metrics"] if r["metric"] == "tc")
    assert "true class 6 has no samples" in tc["note"]


def test_metrics_in_the_order_given(tmp_path, capsys):
    """compare(metrics=[...]) and --metrics ignored the order asked for."""
    t, a, b, _ = _data()
    order = ["a_uoc", "mae", "amae_zero", "mer"]
    cmp = numeric.compare(t, a, b, metrics=order, n_resamples=100, seed=0)
    assert list(cmp.metrics) == order == [x["metric"] for x in cmp.records()]
    assert [r.key for r in numeric.report(t, a, metrics=order).rows] == order
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                          "--metrics", ",".join(order), "--resamples", "100", "--csv", "-")
    assert status == 0
    assert [r["metric"] for r in csv.DictReader(io.StringIO(out))] == order
    with pytest.raises(ValueError, match="second time"):
        numeric.compare(t, a, b, metrics=["amae", "amae_zero"], n_resamples=10)
    status, _, err = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--metrics",
                          "mae,nosuch")
    assert status == 2 and "--metrics" in err and "nosuch" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------
# 2. per class
# ---------------------------------------------------------------------------
def test_per_class_agrees_with_scikit_learn(tmp_path, capsys):
    """The confusion matrix, recall per class and support from scikit-learn; the MAE per
    true class is scikit-learn's mean_absolute_error on that class's samples, in class
    steps (the labels' ranks); a class without samples is undefined with its reason."""
    from sklearn.metrics import (confusion_matrix, mean_absolute_error,
                                 precision_recall_fscore_support)

    t, a, _, _ = _data()
    labels = [1, 2, 3, 4, 5, 6]
    pc = per_class(t, a, labels=labels)
    assert (pc.matrix == confusion_matrix(t, a, labels=labels)).all()
    _, rec, _, sup = precision_recall_fscore_support(t, a, labels=labels, zero_division=0)
    assert list(pc.support) == sup.tolist()
    assert list(pc.sensitivity[:5]) == pytest.approx(rec[:5].tolist(), abs=1e-15)
    rank = {v: i for i, v in enumerate(labels)}
    for i, lab in enumerate(labels[:5]):
        m = t == lab
        want = mean_absolute_error([rank[x] for x in t[m]], [rank[x] for x in a[m]])
        assert pc.mae[i] == pytest.approx(want, abs=1e-15)
    assert pc.sensitivity[5] is None and pc.mae[5] is None and "class 6" in pc.notes[5]
    assert numeric.report(t, a, labels=labels).per_class() == pc
    f = tmp_path / "p.csv"
    _write(f, t, a)
    status, out, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--labels",
                          ",".join(map(str, labels)), "--per-class", "--json", tmp_path / "o.json")
    assert status == 0
    assert re.search(r"true \\ predicted\s+1\s+2\s+3\s+4\s+5\s+6", out)
    assert re.search(r"class\s+support\s+sensitivity\s+MAE", out)
    got = json.loads((tmp_path / "o.json").read_text())["per_class"]["lr"]
    assert got == pc.to_dict()


#: the ridge baseline of docs/guide/walkthrough.md section 4 (its printed matrix)
RIDGE = [[0, 11, 23, 1, 0], [0, 8, 28, 0, 0], [0, 7, 21, 7, 0], [0, 1, 23, 11, 0],
         [0, 0, 12, 24, 0]]


def _per_class_rows(text):
    """The cells of the per-class table of ``str(PerClass)``: after its dashes line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("class  support")) + 2
    return [line.split() for line in lines[start:] if line.strip() and not line.startswith("true ")]


def test_per_class_one_decimal_rule_per_column():
    """Issue 39 item 5: the per-class view printed 0, 0.2222 and 0.6 in one column.  Now every
    number of the sensitivity column has the same decimals, and of the MAE column: those of
    4 significant digits of the column's largest value, 3 - floor(log10(max)), by hand (0.6 ->
    4 decimals, 1.714 -> 3); an undefined class prints 'undefined' without changing them."""
    pc = per_class(RIDGE, labels=[1, 2, 3, 4, 5])
    rows = _per_class_rows(str(pc))
    assert len(rows) == 5
    assert len({_decimals(f"{v:.4g}") for v in pc.sensitivity}) > 1   # the old rule mixed them
    for col, vals in ((2, pc.sensitivity), (3, pc.mae)):
        d = 3 - int(np.floor(np.log10(max(vals))))
        assert [row[col] for row in rows] == [f"{v:.{d}f}" for v in vals]
        assert {_decimals(row[col]) for row in rows} == {d}
    assert [row[2] for row in rows] == ["0.0000", "0.2222", "0.6000", "0.3143", "0.0000"]
    with_empty = per_class([[2, 1, 0], [0, 0, 0], [1, 0, 3]])          # class 1 has no samples
    rows = _per_class_rows(str(with_empty))
    assert [row[2] for row in rows] == ["0.6667", "undefined", "0.7500"]   # 2/3, -, 3/4
    assert [row[3] for row in rows] == ["0.3333", "undefined", "0.5000"]   # 1/3, -, 2/4


def test_the_pairwise_table_and_the_per_class_view_share_one_rule(monkeypatch):
    """One helper, not two copies: numeric.reporting.column_decimals decides the decimals of
    the pairwise table and of the per-class view (patched here to 7, both print 7)."""
    t, a, b, _ = _data()
    cmp = numeric.compare(t, a, b, names=["x", "y"], metrics=["mae"], n_resamples=50, seed=0)
    monkeypatch.setattr(numeric.reporting, "column_decimals", lambda values=(), widths=(): 7)
    _, _, rows, _, _ = cmp.table()
    assert {_decimals(x) for x in rows[0][2:5]} == {7}
    assert {_decimals(row[2]) for row in _per_class_rows(str(per_class(RIDGE)))} == {7}


def test_a_pairwise_table_without_intervals_keeps_one_rule_per_column():
    """Every sample off by one class in both classifiers: every resample has MAE = MER = 1,
    so no interval has a width and the decimals are those of 4 significant digits of the
    largest number (1 -> 3 decimals, by hand); before, each cell had its own 4 significant
    digits (1 next to 0.5)."""
    t = np.array([1, 2, 3, 4, 5, 4, 3, 2] * 4)
    p = np.where(t < 5, t + 1, t - 1)
    cmp = numeric.compare(t, p, p, names=["x", "y"], labels=[1, 2, 3, 4, 5],
                          metrics=["mae", "mer"], n_resamples=50, seed=0)
    _, _, rows, _, _ = cmp.table()
    assert [row[2:5] for row in rows] == [["1.000", "1.000", "0.000"]] * 2


def test_per_class_of_a_comparison():
    t, a, b, _ = _data()
    cmp = numeric.compare(t, a, b, metrics=["mae"], n_resamples=20, seed=0, names=["x", "y"])
    assert cmp.per_class("y") == per_class(t, b)
    assert set(cmp.per_class()) == {"x", "y"}


# ---------------------------------------------------------------------------
# 3. exports
# ---------------------------------------------------------------------------
def test_to_pandas_has_the_csv_columns():
    pd = importlib.import_module("pandas")
    t, a, b, c = _data()
    cmp = numeric.compare(t, a, b, c, metrics=["mae", "mer"], n_resamples=50, seed=0)
    df = cmp.to_pandas()
    assert isinstance(df, pd.DataFrame) and tuple(df.columns) == COMPARISON_COLUMNS
    for col in COMPARISON_COLUMNS:
        want = [r[col] for r in cmp.records()]
        got = df[col].tolist()
        assert [None if pd.isna(x) else x for x in got] == want, col
    assert df["winner"].tolist() == [r.winner_name for r in cmp.rows]
    rep = numeric.report(t, a).to_pandas()
    assert tuple(rep.columns) == REPORT_COLUMNS and len(rep) == len(numeric.report(t, a).rows)
    assert per_class(t, a).to_pandas()["support"].tolist() == list(per_class(t, a).support)


def test_to_pandas_without_pandas_says_how_to_install(monkeypatch):
    t, a, b, _ = _data()
    cmp = numeric.compare(t, a, b, metrics=["mae"], n_resamples=20, seed=0)
    monkeypatch.setitem(sys.modules, "pandas", None)
    for obj in (cmp, numeric.report(t, a), per_class(t, a)):
        with pytest.raises(ImportError) as exc:
            obj.to_pandas()
        assert str(exc.value) == ('to_pandas() needs pandas, which is not installed: '
                                  'pip install "ordinal-verify[pandas]"')
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(d.startswith("pandas") for d in extras["pandas"])


def test_latex_is_booktabs_with_intervals_and_bold_winners(tmp_path, capsys):
    t, a, b, _ = _data()
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    status, _, _ = _run(capsys, "metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf",
                        "--resamples", "500", "--latex", tmp_path / "t.tex", "--json",
                        tmp_path / "t.json")
    assert status == 0
    tex = (tmp_path / "t.tex").read_text()
    for cmd in ("\\toprule", "\\midrule", "\\bottomrule", "\\begin{tabular}", "\\caption{"):
        assert tex.count(cmd) == 1, cmd
    recs = json.loads((tmp_path / "t.json").read_text())["comparison"]["metrics"]
    body = tex.split("\\midrule\n")[1].split("\\bottomrule")[0]
    lines = [ln[:-2].split(" & ") for ln in body.splitlines() if ln.endswith("\\\\")]
    assert len(lines) == len(recs)
    # one decimal rule for the column (issue 39): the table's narrowest interval
    d = decimals_for(min(x for r in recs if r["ci_low"] is not None
                         for x in (r["ci_high"] - r["ci_low"], r["a_ci_high"] - r["a_ci_low"],
                                   r["b_ci_high"] - r["b_ci_low"]) if x > 0))
    for cells, r in zip(lines, recs):
        want = f"$[{r['ci_low']:.{d}f}, {r['ci_high']:.{d}f}]$"
        assert cells[5] == re.sub(r"-(0\.0+)(?=[,\]])", r"\1", want)
        if r["winner"]:
            bold = cells[2] if r["winner"] == r["a"] else cells[3]
            assert bold.startswith("$\\mathbf{"), cells
        else:
            assert "mathbf" not in " ".join(cells)


def test_latex_never_overwrites_the_input_and_is_checked_first(tmp_path, capsys):
    t, a, b, _ = _data()
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    before = f.read_bytes()
    argv = ("metrics", f, "--true", "y", "--pred", "lr", "--pred", "rf", "--resamples", "100")
    status, out, err = _run(capsys, *argv, "--latex", f)
    assert status == 2 and out == "" and "it is the input file" in err and f.read_bytes() == before
    status, out, err = _run(capsys, *argv, "--latex", tmp_path / "no" / "t.tex")
    assert status == 2 and out == "" and "does not exist" in err
    status, out, err = _run(capsys, *argv, "--latex", tmp_path / "t.tex", "--csv",
                            tmp_path / "t.tex")
    assert status == 2 and "name the same file" in err


# ---------------------------------------------------------------------------
# 7. --plot without matplotlib, label columns and the new outputs
# ---------------------------------------------------------------------------
def test_plot_without_matplotlib_stops_before_the_work(tmp_path):
    t, a, b, _ = _data()
    f = tmp_path / "p.csv"
    _write(f, t, a, b)
    outs = [tmp_path / n for n in ("u.png", "t.tex", "t.csv", "t.json")]
    argv = ["metrics", str(f), "--true", "y", "--pred", "lr", "--pred", "rf", "--plot",
            str(outs[0]), "--latex", str(outs[1]), "--csv", str(outs[2]), "--json", str(outs[3])]
    code = ("import sys; sys.modules['matplotlib'] = None; from ordinal_verify import main; "
            f"sys.exit(main({argv!r}))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == ('ordinal-verify: --plot needs matplotlib, which is not installed: '
                          'pip install "ordinal-verify[plot]"\n')
    assert not any(p.exists() for p in outs)
