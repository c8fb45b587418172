"""The paper table over folds and seeds (issue 25 item 4): ``compare(..., groups=)`` and
``ordinal-verify metrics --groups``.

Expected values and their sources:

- the grouped rows are :func:`numeric.compare_groups`'s (whose numbers
  ``test_groups.py`` checks against scikit-learn's Nadeau & Bengio example and
  ``scipy.stats.bootstrap``): ``compare(..., groups=)`` must be that function;
- a pair of a k-classifier grouped comparison is the two-classifier comparison
  of that pair (every pair is computed independently of the others, the
  definition of "every pair");
- Holm's adjustment: :func:`numeric.comparison.holm` on the table's p-values
  (Holm 1979), checked in ``test_paper_table.py``;
- the exports: the columns of the paired comparison,
  :data:`numeric.comparison.COMPARISON_COLUMNS`, and the winner rule
  :func:`numeric.comparison.winner_of`.
"""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import numeric
from ordinal_verify import main
from numeric.comparison import COMPARISON_COLUMNS, holm, winner_of

RNG = np.random.default_rng(5)
N = 300
T = RNG.integers(0, 4, N)
A = np.clip(T + RNG.integers(-1, 2, N), 0, 3)      # off by at most one class
B = np.clip(T + RNG.integers(-2, 3, N), 0, 3)      # off by at most two
C = np.where(RNG.random(N) < 0.8, T, A)           # mostly right
FOLD = np.arange(N) % 5


def test_compare_with_groups_is_compare_groups():
    """``compare(..., groups=)`` returns compare_groups' result, field for field."""
    kw = dict(metrics=["mae", "kendall_tau_b"], test_train_ratio=0.25, names=["a", "b"])
    via = numeric.compare(T, A, B, groups=FOLD, **kw)
    direct = numeric.compare_groups(T, A, B, groups=FOLD, **kw)
    assert isinstance(via, numeric.GroupComparison)
    assert via == direct and via.records() == direct.records()
    boot = numeric.compare(T, A, B, groups=FOLD, method="bootstrap", n_resamples=400, seed=3,
                           metrics=["mae"])
    assert boot == numeric.compare_groups(T, A, B, groups=FOLD, method="bootstrap",
                                          n_resamples=400, seed=3, metrics=["mae"])


def test_k_classifiers_every_pair_is_the_pair_alone():
    c3 = numeric.compare(T, A, B, C, groups=FOLD, test_train_ratio=0.25, metrics=["mae", "amae"],
                         names=["a", "b", "c"])
    assert [r.pair for r in c3.rows[:3]] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(c3.rows) == 3 * 3                         # 3 variants (MAE, 2 AMAE) x 3 pairs
    for (x, px), (y, py) in [(("a", A), ("b", B)), (("a", A), ("c", C)), (("b", B), ("c", C))]:
        alone = numeric.compare(T, px, py, groups=FOLD, test_train_ratio=0.25,
                                metrics=["mae", "amae"], names=[x, y])
        for r in alone.rows:
            got = c3[r.key, x, y]
            assert (got.a, got.b, got.diff, got.diff_ci, got.p_value, got.a_groups) == \
                (r.a, r.b, r.diff, r.diff_ci, r.p_value, r.a_groups)


@pytest.mark.parametrize("method", ["corrected_t", "bootstrap"])
def test_winners_follow_the_paired_rule_and_holm(method):
    extra = {"test_train_ratio": 0.25} if method == "corrected_t" else {"n_resamples": 500,
                                                                       "seed": 0}
    c = numeric.compare(T, A, B, C, groups=FOLD, method=method, metrics=["mae", "cohen_kappa"],
                        adjust="holm", **extra)
    ps = [r.p_value for r in c.rows]
    assert all(p is not None for p in ps)
    np.testing.assert_array_equal([r.p_adjusted for r in c.rows], holm(ps))
    for r, rec in zip(c.rows, c.records(), strict=True):
        w = winner_of(r.diff_ci, r.better, r.p_adjusted, 1 - c.confidence)
        assert r.winner == w and rec["winner"] == ("" if not w else r.pair["AB".index(w)])
        # a winner only where the interval of the mean difference excludes 0
        if rec["winner"]:
            assert not r.diff_ci[0] <= 0 <= r.diff_ci[1]
        # the test and the interval agree (t test: duality; bootstrap: the interval inverted)
        assert (r.p_value < 0.05) == (not r.diff_ci[0] <= 0 <= r.diff_ci[1])
    assert c["MAE", "A", "B"].diff > 0                     # B is off by two classes at times


def test_grouped_exports_have_the_paired_columns_and_booktabs():
    c = numeric.compare(T, A, B, groups=FOLD, test_train_ratio=0.25,
                        metrics=["mae", "kendall_tau_b"], names=["tree", "forest"])
    df = c.to_pandas()
    assert list(df.columns) == list(COMPARISON_COLUMNS) and len(df) == 2
    assert df["value_a"].tolist() == [r.a for r in c.rows]
    tex = c.to_latex(caption="Five folds.")
    for cmd in ("\\toprule", "\\midrule", "\\bottomrule", "\\caption{Five folds.}"):
        assert cmd in tex
    body = [ln for ln in tex.split("\\midrule")[1].split("\\bottomrule")[0].strip().splitlines()
            if ln != "\\addlinespace"]
    assert [ln.split(" & ")[0] for ln in body] == ["MAE", "tau\\_b"]
    for ln, r in zip(body, c.rows, strict=True):
        assert ln.rstrip(" \\").endswith(r.winner_name or "--")
        if r.winner_name:     # the winner's mean is the bold one
            bold = ln.split(" & ")[2 if r.winner_name == "tree" else 3]
            assert bold.startswith("$\\mathbf{")
    assert "5 groups" in tex and "Nadeau" in tex and "(mean)" in tex


def test_grouped_undefined_metric_names_the_group_and_classifier():
    t = np.array([0, 0, 0, 0, 0, 1, 2, 3, 1, 2, 3, 0])      # group 0: one true class
    a = np.array([0, 1, 0, 0, 0, 1, 2, 3, 1, 2, 2, 0])
    g = np.array([0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
    c = numeric.compare(t, a, t, groups=g, test_train_ratio=0, metrics=["kendall_tau_b", "mae"])
    tau = c["tau_b"]
    assert tau.a is None and tau.diff is None and tau.winner == "" and tau.undefined[0] == 1
    assert "group 0" in tau.note and "A:" in tau.note
    with pytest.raises(ValueError, match="undefined on group 0"):
        numeric.compare(t, a, t, groups=g, test_train_ratio=0, metrics=["kendall_tau_b"],
                        undefined="raise")
    assert "undefined [1]" in str(c)


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "bootstrap"}, "method= and test_train_ratio= are for comparisons over groups"),
    ({"test_train_ratio": 0.25}, "pass groups="),
    ({"groups": FOLD[:10], "test_train_ratio": 0.25}, r"groups must have shape \(300,\)"),
    ({"groups": FOLD}, "needs test_train_ratio"),
    ({"groups": FOLD, "test_train_ratio": 0.25, "names": ["x"]}, "names must be two names"),
])
def test_compare_group_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        numeric.compare(T, A, B, metrics=["mae"], n_resamples=50, **kwargs)


# ---------------------------------------------------------------------------
# the CLI
# ---------------------------------------------------------------------------
def _write(path, with_header=True):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        if with_header:
            w.writerow(["fold", "y", "tree", "forest", "ridge"])
        w.writerows(zip(FOLD + 1, T, A, B, C))


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_groups_matches_python_and_writes_every_export(tmp_path, capsys):
    f = tmp_path / "cv.csv"
    _write(f)
    tex, csv_out, js = tmp_path / "t.tex", tmp_path / "t.csv", tmp_path / "t.json"
    status, out, err = _run(capsys, "metrics", str(f), "--true", "y", "--pred", "tree",
                            "--pred", "forest", "--pred", "ridge", "--groups", "fold",
                            "--test-train-ratio", "1/4", "--metrics", "mae,amae_zero",
                            "--latex", str(tex), "--csv", str(csv_out), "--json", str(js),
                            "--adjust", "holm")
    assert status == 0, err
    ref = numeric.compare(T, A, B, C, groups=FOLD + 1, test_train_ratio=0.25,
                          metrics=["mae", "amae_zero"], names=["tree", "forest", "ridge"],
                          labels=[0, 1, 2, 3], adjust="holm")
    rows = list(csv.DictReader(io.StringIO(csv_out.read_text())))
    assert list(rows[0]) == list(COMPARISON_COLUMNS) and len(rows) == 6
    for row, r in zip(rows, ref.rows, strict=True):
        assert float(row["diff"]) == pytest.approx(r.diff, rel=1e-12)
        assert float(row["ci_low"]) == pytest.approx(r.diff_ci[0], rel=1e-12)
        assert row["winner"] == r.winner_name and row["adjust"] == "holm"
    data = json.loads(js.read_text())["comparison"]
    assert data["groups"] == [1, 2, 3, 4, 5] and data["method"] == "corrected_t"
    assert data["test_train_ratio"] == 0.25 and data["metrics"] == ref.records()
    assert tex.read_text() == ref.to_latex()
    assert "5 groups" in out and "Nadeau & Bengio" in out and "tree (mean)" not in out
    assert "mean B - A" in out                                   # three classifiers


def test_cli_groups_by_index_and_bootstrap(tmp_path, capsys):
    f = tmp_path / "cv.csv"
    _write(f, with_header=False)
    status, out, err = _run(capsys, "metrics", str(f), "--true", "1", "--pred", "2", "--pred",
                            "3", "--groups", "0", "--method", "bootstrap", "--resamples", "300",
                            "--metrics", "mae", "--csv", "-")
    assert status == 0, err
    ref = numeric.compare(T, A, B, groups=FOLD + 1, method="bootstrap", n_resamples=300, seed=0,
                          metrics=["mae"], names=["column 2", "column 3"], labels=[0, 1, 2, 3])
    row = next(csv.DictReader(io.StringIO(out)))
    assert float(row["p_value"]) == ref["MAE"].p_value
    assert (float(row["ci_low"]), float(row["ci_high"])) == ref["MAE"].diff_ci


@pytest.mark.parametrize("argv, message", [
    (["--groups", "fold"], "needs --test-train-ratio"),
    (["--groups", "fold", "--method", "bootstrap", "--test-train-ratio", "0.25"],
     "--test-train-ratio is for --method corrected_t"),
    (["--test-train-ratio", "0.25"], "--method and --test-train-ratio are for --groups"),
    (["--groups", "fold", "--test-train-ratio", "0.25", "--exact"], "drop --exact"),
    (["--groups", "nope", "--test-train-ratio", "0.25"], "no column 'nope'"),
    (["--groups", "y", "--test-train-ratio", "0.25"], "a column is given twice"),
])
def test_cli_group_errors_are_one_line(tmp_path, capsys, argv, message):
    f = tmp_path / "cv.csv"
    _write(f)
    status, out, err = _run(capsys, "metrics", str(f), "--true", "y", "--pred", "tree",
                            "--pred", "forest", "--metrics", "mae", *argv)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1


def test_cli_groups_needs_two_predictions(tmp_path, capsys):
    f = tmp_path / "cv.csv"
    _write(f)
    status, _, err = _run(capsys, "metrics", str(f), "--true", "y", "--pred", "tree",
                          "--groups", "fold", "--test-train-ratio", "0.25")
    assert status == 2 and "two or more --pred" in err
