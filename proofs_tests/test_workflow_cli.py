"""``ordinal-verify metrics/auoc`` on label columns, and README's quick start (the tested guide's example).

Expected values come from :func:`numeric.report` / :func:`numeric.compare`
(tested against their peers in test_workflow.py) and from silva2018 Table I
(matrix B: A_UOC = 5/9).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

import numeric
from ordinal_verify import main
from numeric.registry import matrix_metrics

ROOT = Path(__file__).resolve().parents[1]
LABELS = [v.label for m in matrix_metrics() for v in m.cases()]


def _write_preds(path, N=60, seed=0, header=True):
    rng = np.random.default_rng(seed)
    t = rng.integers(1, 6, N)
    a = np.clip(t + rng.integers(-1, 2, N), 1, 5)
    b = np.clip(t + rng.integers(-2, 3, N), 1, 5)
    lines = (["y_true,y_pred_A,y_pred_B"] if header else []) + [
        f"{x},{y},{z}" for x, y, z in zip(t, a, b)]
    path.write_text("\n".join(lines) + "\n")
    return t, a, b


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_side_by_side_with_difference_and_interval(tmp_path, capsys):
    f = tmp_path / "preds.csv"
    _write_preds(f)
    status, out, _ = _run(capsys, "metrics", str(f), "--true", "y_true", "--pred", "y_pred_A",
                          "--pred", "y_pred_B", "--resamples", "200", "--no-progress")
    assert status == 0
    lines = out.splitlines()
    head = lines[1]
    for col in ("y_pred_A", "y_pred_B", "y_pred_B - y_pred_A", "95% CI", "p", "winner",
                "better"):
        assert col in head
    body = lines[3:3 + len(LABELS)]
    assert [ln[:len(lab)] for ln, lab in zip(body, LABELS)] == LABELS
    assert all(re.search(r"\b(lower|higher)\b", ln) for ln in body)


def test_json_and_csv_equal_report_and_compare(tmp_path, capsys):
    f = tmp_path / "preds.csv"
    t, a, b = _write_preds(f)
    args = ("metrics", str(f), "--true", "y_true", "--pred", "y_pred_A", "--pred", "y_pred_B",
            "--resamples", "300", "--seed", "4")
    status, out, _ = _run(capsys, *args, "--json", "-")
    assert status == 0
    data = json.loads(out)                       # nothing but JSON on stdout
    assert [p["name"] for p in data["predictions"]] == ["y_pred_A", "y_pred_B"]
    rep = numeric.report(t, b, labels=[1, 2, 3, 4, 5])
    got = data["predictions"][1]["metrics"]
    assert [m["label"] for m in got] == LABELS
    assert [m["value"] for m in got] == pytest.approx([r.value for r in rep.rows], abs=1e-12)
    assert all(m["better"] in ("lower", "higher") for m in got)
    cmp = numeric.compare(t, a, b, labels=[1, 2, 3, 4, 5], n_resamples=300, seed=4,
                          names=("y_pred_A", "y_pred_B"))
    assert [[m["ci_low"], m["ci_high"]] for m in data["comparison"]["metrics"]] == [
        list(r.diff_ci) for r in cmp.rows]
    assert data["comparison"]["metrics"] == cmp.records()
    status, out, _ = _run(capsys, *args, "--csv", "-")
    rows = list(csv.DictReader(io.StringIO(out)))
    # the CSV has the JSON's columns, one row per metric variant (and pair)
    assert tuple(rows[0]) == tuple(data["comparison"]["columns"])
    assert [r["label"] for r in rows] == LABELS
    assert float(rows[0]["ci_low"]) == pytest.approx(cmp.rows[0].diff_ci[0])


def test_columns_by_index_without_header(tmp_path, capsys):
    f = tmp_path / "p.csv"
    t, a, _ = _write_preds(f, header=False)
    status, out, _ = _run(capsys, "metrics", str(f), "--true", "0", "--pred", "1", "--json", "-")
    assert status == 0
    data = json.loads(out)
    assert data["N"] == 60
    assert data["predictions"][0]["metrics"][1]["value"] == pytest.approx(
        float(numeric.mae(t, a)), abs=1e-15)


def test_string_labels_need_their_order(tmp_path, capsys):
    f = tmp_path / "s.csv"
    f.write_text("truth,guess\nlow,mid\nhigh,high\nmid,mid\nlow,low\n")
    status, _, err = _run(capsys, "metrics", str(f), "--true", "truth", "--pred", "guess")
    assert status == 2 and "--labels" in err and err.count("\n") == 1
    status, out, _ = _run(capsys, "metrics", str(f), "--true", "truth", "--pred", "guess",
                          "--labels", "low,mid,high", "--json", "-")
    assert status == 0
    # MAE with low=0, mid=1, high=2: one error of one class in 4 samples
    assert json.loads(out)["predictions"][0]["metrics"][1]["exact"] == "1/4"


@pytest.mark.parametrize("argv_tail, message", [
    (("--true", "y_true", "--pred", "nope"), "no column 'nope' in the header (y_true, y_pred_A, y_pred_B)"),
    (("--pred", "y_pred_A"), "--pred needs --true"),
    (("--true", "y_true", "--pred", "y_pred_A", "--labels", "1,2,3"), "is not in --labels"),
])
def test_label_column_errors(tmp_path, capsys, argv_tail, message):
    f = tmp_path / "preds.csv"
    _write_preds(f)
    status, _, err = _run(capsys, "metrics", str(f), *argv_tail)
    assert status == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize("metric, seconds", [("mae", 1), ("a_uoc", 5)])
def test_too_many_resamples_are_refused_with_the_chosen_metrics_estimate(tmp_path, capsys,
                                                                         metric, seconds):
    """5 classes, 60 samples, 2 predictions: the bootstrap holds 2 x 5^2 + min(60, 5^3) = 110
    numbers per resample (matrix_cmds.MAX_RESAMPLE_NUMBERS = 2^26: at most 610,080
    resamples), so 10^6 resamples would hold 10^6 x 110 x 8 / 2^20 = 839 MB.  Their time is
    compare's own estimate for the chosen metric (numeric.comparison.compare_seconds):
    2 x (10^6 + 1) x 5^2 x 2e-8 = 1 s for MAE, 5 times that (K = 5) for A_UOC."""
    f = tmp_path / "preds.csv"
    _write_preds(f)
    status, out, err = _run(capsys, "metrics", str(f), "--true", "y_true", "--pred", "y_pred_A",
                            "--pred", "y_pred_B", "--resamples", "1000000", "--metrics", metric)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert ("--resamples 1000000 is too many for 5 classes, 60 samples and 2 predictions: the "
            f"paired bootstrap would hold about 839 MB and take about {seconds} s; "
            "at most 610080 resamples here") in err, err


def test_total_beyond_int64_is_one_message_not_undefined_rows(tmp_path, capsys):
    # issue 10: every metric used to print "undefined"
    f = tmp_path / "big.csv"
    f.write_text("9000000000000000000 1\n1 9000000000000000000\n")
    status, out, err = _run(capsys, "metrics", str(f))
    assert status == 2 and out == ""
    assert "too large for int64" in err and err.count("\n") == 1


def test_long_closed_forms_are_decimals_unless_exact(tmp_path, capsys):
    f = tmp_path / "preds.csv"
    _write_preds(f, N=500)      # R_s of these labels has a closed form of > 40 characters
    args = ("metrics", str(f), "--true", "y_true", "--pred", "y_pred_A")
    _, out, _ = _run(capsys, *args)
    assert any("≈" in ln for ln in out.splitlines())
    _, out_exact, _ = _run(capsys, *args, "--exact")
    assert "≈" not in out_exact
    assert max(len(ln) for ln in out_exact.splitlines()) > max(len(ln) for ln in out.splitlines())


def test_auoc_json_csv_and_plot(tmp_path, capsys):
    f = tmp_path / "B.csv"
    f.write_text("0,4,0,0\n0,0,6,0\n0,0,5,0\n0,0,0,3\n")   # silva2018 matrix B
    status, out, _ = _run(capsys, "auoc", str(f), "--json", "-")
    assert status == 0
    curve = json.loads(out)["curves"][0]
    assert curve["a_uoc"]["exact"] == "5/9"                 # silva2018 Table I
    assert [p["beta_lo"] for p in curve["pieces"]] == ["0", "2/3"]
    status, out, _ = _run(capsys, "auoc", str(f), "--csv", "-", "--plot", str(tmp_path / "u.png"))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["uoc"] for r in rows] == ["beta/2 + 1/3", "2/3"]
    assert (tmp_path / "u.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------------------
# README: the researcher's quick start is the walk-through's folds section
# ---------------------------------------------------------------------------
def _blocks(text, title):
    start = text.index(title)
    nxt = text.find("\n## ", start + 3)
    return re.findall(r"```(\w+)\n(.*?)```", text[start:nxt if nxt >= 0 else None], flags=re.S)


def test_readme_quick_start_is_the_guides_tested_example():
    """README's code blocks for researchers are, verbatim, those of
    docs/guide/walkthrough.md section 6, which test_guide_researcher.py runs as
    written (training, the CLI with --groups and --latex, the Python
    equivalent) -- so the README's example runs as written."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    guide = (ROOT / "docs" / "guide" / "walkthrough.md").read_text(encoding="utf-8")
    ours = [b for b in _blocks(readme, "## Quick start for researchers") if b[0] in ("python", "sh")]
    theirs = [b for b in _blocks(guide, "## 6. Folds") if b[0] in ("python", "sh")]
    assert [k for k, _ in ours] == ["python", "sh", "python"]
    assert ours == theirs, "README's researcher quick start differs from the tested guide section"


# ---------------------------------------------------------------------------
# label files: rows that were dropped or misread without a word (found in review)
# ---------------------------------------------------------------------------
def _json_metrics(capsys, path, *argv):
    status, out, err = _run(capsys, "metrics", str(path), *argv, "--json", "-")
    assert status == 0, err
    return json.loads(out), err


def _mer(data):
    """MER of the single prediction in the JSON of `metrics`."""
    return next(r["exact"] for r in data["predictions"][0]["metrics"] if r["name"] == "mer")


@pytest.mark.parametrize("text, argv, K, N, mer", [
    # a UTF-8 byte-order mark (Excel) made the first row "\ufeff0,0" a header: N 3, K 2
    ("\ufeff0,0\n1,2\n2,1\n1,1\n", ("--true", "0", "--pred", "1"), 3, 4, "1/2"),
    # a typo in the first row with --labels made it a header; later rows raise (below)
    ("y,p\nlow,low\nmid,high\nhigh,mid\nmid,mid\n",
     ("--true", "y", "--pred", "p", "--labels", "low,mid,high"), 3, 4, "1/2"),
    # an id "#2" in the first column was read as a comment line
    ("id,y,p\nA1,0,0\n#2,1,2\nA3,2,1\nA4,1,1\n", ("--true", "y", "--pred", "p"), 3, 4, "1/2"),
    # integers beyond 2**53 were read through float: two classes merged (K 1, MER 0)
    ("y,p\n9007199254740992,9007199254740993\n9007199254740993,9007199254740993\n",
     ("--true", "y", "--pred", "p"), 2, 2, "1/2"),
    # comments before the first row are still comments, and a ";" in one is not
    # the separator of a comma file
    ("# exported, v1\ny,p\n0,0\n1,1\n", ("--true", "y", "--pred", "p"), 2, 2, "0"),
    ("# exported; v1\ny,p\n0,0\n1,2\n", ("--true", "y", "--pred", "p"), 3, 2, "1/2"),
])
def test_label_file_rows_are_all_read(tmp_path, capsys, text, argv, K, N, mer):
    """Expected K, N and MER counted by hand from each file's rows."""
    f = tmp_path / "preds.csv"
    f.write_text(text, encoding="utf-8")
    data, _ = _json_metrics(capsys, f, *argv)
    assert (data["K"], data["N"], _mer(data)) == (K, N, mer), data


@pytest.mark.parametrize("text, argv, message", [
    ("lo,low\nmid,high\nhigh,mid\n", ("--true", "0", "--pred", "1", "--labels", "low,mid,high"),
     "label 'lo' in column 'column 0' is not in --labels"),
    ("a,b,0,1\n0,0,2,2\n1,1,2,0\n", ("--true", "a", "--pred", "1"),
     "'1' is the name of column 3 and the index of column 1"),
    ("y,p,p\n0,0,1\n1,1,0\n", ("--true", "y", "--pred", "p"), "2 columns named 'p'"),
    ("y,p\n0.1,0.1\n0.10000000000000001,0.1\n", ("--true", "y", "--pred", "p"),
     "differ but are the same float64 number"),
    ("y,p\n1_0,1\n1,1\n", ("--true", "y", "--pred", "p"), "not numbers"),
])
def test_label_file_ambiguities_are_refused(tmp_path, capsys, text, argv, message):
    f = tmp_path / "preds.csv"
    f.write_text(text, encoding="utf-8")
    status, out, err = _run(capsys, "metrics", str(f), *argv)
    assert status == 2 and message in err and err.count("\n") == 1, err


def test_label_file_duplicate_names_by_index_and_gaps_warned(tmp_path, capsys):
    """Columns 1 and 2 both named p were refused as 'given twice' by index; a gap in
    the observed integer labels (0, 1, 3) was collapsed without a word (K 3; with
    --labels 0,1,2,3 K is 4)."""
    f = tmp_path / "preds.csv"
    f.write_text("y,p,p\n0,0,1\n1,1,0\n", encoding="utf-8")
    data, _ = _json_metrics(capsys, f, "--true", "0", "--pred", "1", "--pred", "2",
                            "--resamples", "0")
    assert [p["name"] for p in data["predictions"]] == ["p", "p"]
    f.write_text("y,p\n0,0\n1,3\n3,1\n1,1\n", encoding="utf-8")
    data, err = _json_metrics(capsys, f, "--true", "y", "--pred", "p")
    assert data["K"] == 3
    assert err.startswith("ordinal-verify: warning:") and "not contiguous" in err
    data, err = _json_metrics(capsys, f, "--true", "y", "--pred", "p", "--labels", "0,1,2,3")
    assert data["K"] == 4 and err == ""


def test_matrix_file_with_bom_and_a_total_that_wraps(tmp_path, capsys):
    """A BOM was '\\ufeff3 is not a count'; four counts of 2**62 sum to 2**64, which an
    int64 sum wraps to 0: 'the matrix is all zero'."""
    f = tmp_path / "m.csv"
    f.write_text("\ufeff3,1\n2,4\n", encoding="utf-8")
    status, out, err = _run(capsys, "metrics", str(f), "--json", "-")
    assert status == 0 and json.loads(out)["N"] == 10
    q = 2**62
    f.write_text(f"{q},{q}\n{q},{q}\n", encoding="utf-8")
    status, out, err = _run(capsys, "metrics", str(f))
    assert status == 2 and "too large for int64" in err


def test_text_table_says_why_a_cost_metric_is_undefined(tmp_path, capsys):
    """The cell showed only "confusion matrix" (the text before the first colon of
    "confusion matrix: true class 1 has no samples; ..."), found in review."""
    f = tmp_path / "m.csv"
    f.write_text("3,0\n0,0\n", encoding="utf-8")
    status, out, _ = _run(capsys, "metrics", str(f))
    tc = next(ln for ln in out.splitlines() if ln.startswith("TC "))
    assert status == 0 and "true class 1 has no samples" in tc
    tau = next(ln for ln in out.splitlines() if ln.startswith("tau_b "))
    assert "tau_b is undefined for this confusion matrix" in tau
