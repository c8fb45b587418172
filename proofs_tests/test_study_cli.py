"""``ordinal-verify study FILE...``: the files read, the outputs written safely, the numbers
those of :func:`numeric.study` on the same predictions (the peer: the Python API, itself
checked in test_study.py against Demšar 2006, scipy and scikit-posthocs)."""

from __future__ import annotations

import importlib

import csv
import os
import re

import numpy as np

import numeric
from ordinal_verify import main

importlib.import_module("scipy")


def _write(path, rows, header=("dataset", "method", "fold", "y_true", "y_pred")):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def _rows(seed=0, datasets=("d0", "d1", "d2"), methods=(("A", 0.2), ("B", 0.5), ("C", 0.4)),
          folds=3, n=30, with_dataset=True):
    rng = np.random.default_rng(seed)
    out = []
    for d in datasets:
        for m, noise in methods:
            for f in range(folds):
                y = rng.integers(1, 5, n)
                p = np.where(rng.random(n) < noise, rng.integers(1, 5, n), y)
                out += [([d] if with_dataset else []) + [m, f, int(a), int(b)] for a, b in zip(y, p)]
    return out


def _long(rows):
    cols = list(zip(*rows))
    return {"dataset": list(cols[0]), "method": list(cols[1]), "fold": list(cols[2]),
            "y_true": list(cols[3]), "y_pred": list(cols[4])}


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_study_prints_and_writes_every_output(tmp_path, capsys):
    matplotlib = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    rows = _rows()
    f = tmp_path / "preds.csv"
    _write(f, rows)
    md, tex, svg = tmp_path / "s.md", tmp_path / "s.tex", tmp_path / "cd.svg"
    status, out, err = _run(capsys, "study", f, "--metrics", "mae,cohen_kappa_quadratic",
                            "--markdown", md, "--latex", tex, "--plot", svg)
    assert status == 0, err
    s = numeric.study(_long(rows), metrics=["mae", "cohen_kappa_quadratic"])
    # the printed metrics x methods table is the API's, cell by cell
    line = next(ln for ln in out.splitlines() if ln.startswith("| MAE |"))
    printed = [float(re.sub(r"[*<u>/]", "", c.split("±")[0])) for c in line.strip("|").split(" | ")[1:]]
    np.testing.assert_allclose(printed, np.round(s.means["mae"].mean(axis=0), 3), atol=5e-4)
    assert f"Friedman chi2_F = {s['mae'].friedman.chi2:.2f}" in out
    text = md.read_text()
    assert "## MAE" in text and "| d2 |" in text and "Nemenyi p" in text
    latex = tex.read_text()
    assert latex.count("\\begin{table}") == 3 and "\\toprule" in latex  # summary + 2 metrics
    assert svg.read_bytes().lstrip()[:5] in (b"<?xml", b"<svg ")
    assert sorted(os.listdir(tmp_path)) == ["cd.svg", "preds.csv", "s.md", "s.tex"]  # no temp file


def test_files_without_a_dataset_column_are_datasets_and_labels_by_name(tmp_path, capsys):
    words = ["low", "mid", "high", "top"]
    for name, seed in (("iris", 1), ("wine", 2)):
        rows = _rows(seed, datasets=("x",), with_dataset=False)
        rows = [[m, f, words[a - 1], words[b - 1]] for m, f, a, b in rows]
        _write(tmp_path / f"{name}.csv", rows, header=("method", "seed", "truth", "pred"))
    status, out, err = _run(capsys, "study", tmp_path / "iris.csv", tmp_path / "wine.csv",
                            "--metrics", "mae", "--columns", "fold=seed,y_true=truth,y_pred=pred",
                            "--labels", ",".join(words), "--control", "B",
                            "--markdown", tmp_path / "o.md")
    assert status == 0, err
    text = (tmp_path / "o.md").read_text()
    assert "| iris |" in text and "| wine |" in text
    assert "| B | " in out and "control" in out


def test_output_naming_an_input_is_refused_before_the_work(tmp_path, capsys):
    f = tmp_path / "preds.csv"
    _write(f, _rows())
    before = f.read_bytes()
    status, out, err = _run(capsys, "study", f, "--metrics", "mae", "--latex", f)
    assert status == 2 and "it is the input file" in err and out == ""
    assert f.read_bytes() == before


def test_bad_inputs_are_one_line(tmp_path, capsys):
    f = tmp_path / "p.csv"
    _write(f, [r[:4] for r in _rows()], header=("dataset", "method", "fold", "y_true"))
    status, _, err = _run(capsys, "study", f, "--metrics", "mae")
    assert status == 2 and "no column 'y_pred'" in err and str(f) in err
    g = tmp_path / "q.csv"
    _write(g, [["d0", "A", 0, "low", 1]])
    status, _, err = _run(capsys, "study", g)
    assert status == 2 and "label 'low' is not a number" in err and f"{g}:2" in err
    h = tmp_path / "h.csv"
    _write(h, _rows(datasets=("only",)))
    status, _, err = _run(capsys, "study", h, "--metrics", "mae")
    assert status == 2 and "at least 2 of each" in err
    status, _, err = _run(capsys, "study", f, "--columns", "bogus=x")
    assert status == 2 and "--columns" in err
