"""``ordinal-verify audit``: a user's function, the committed table, sizes refused (issue 22 item 8, issue 23)."""

from __future__ import annotations

import json

import pytest

from ordinal_verify import main
from analytic.properties import table as T

USER_METRIC = '''
from fractions import Fraction
import numpy as np

def upper_share(cm):
    """Errors above the diagonal over N: not symmetric."""
    cm = np.asarray(cm)
    return Fraction(int(np.triu(cm, 1).sum()), int(cm.sum()))
'''


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_audit_a_user_function(tmp_path, monkeypatch, capsys):
    (tmp_path / "mymetrics.py").write_text(USER_METRIC)
    monkeypatch.syspath_prepend(str(tmp_path))
    out_json = tmp_path / "r.json"
    status, out, err = _run(capsys, "audit", "mymetrics:upper_share", "--bounds", "0,1",
                            "--max-k", "2", "--max-n", "2", "--random", "0", "--no-proofs",
                            "--json", out_json)
    assert status == 0, err
    data = json.loads(out_json.read_text())
    props = data["reports"][0]["properties"]
    # [[0, 1], [0, 0]]: 1 above the diagonal, its transpose 0 (the first in the order)
    assert props["symmetry"]["verdict"] == "fails"
    assert props["symmetry"]["counterexample"] == {"matrix": [[0, 0], [1, 0]]}
    assert props["range"]["verdict"] == "holds" and "checked" in props["range"]["evidence"]
    assert "upper_share" in out and "mymetrics:upper_share" in out


NUMPY_FRACTION_METRIC = '''
from fractions import Fraction
import numpy as np

def upper_share(cm):
    """As USER_METRIC's, a Fraction of NumPy integers (no int() around the sums)."""
    cm = np.asarray(cm)
    return Fraction(np.triu(cm, 1).sum(), cm.sum())
'''


def test_a_fraction_of_numpy_integers_audits_like_one_of_ints(tmp_path, monkeypatch, capsys):
    """Issue 37 item 2: it crashed the auditor (``TypeError: numpy boolean subtract``
    in analytic/properties/exact.py, a 32-line traceback through the CLI); now the
    same table as USER_METRIC's (test_audit_a_user_function)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["--bounds", "0,1", "--max-k", "2", "--max-n", "2", "--random", "0", "--no-proofs",
            "--json", "-"]
    tables = []
    for name, text in (("ints_mod", USER_METRIC), ("numpy_mod", NUMPY_FRACTION_METRIC)):
        (tmp_path / f"{name}.py").write_text(text)
        status, out, err = _run(capsys, "audit", f"{name}:upper_share", *args)
        assert status == 0 and "Traceback" not in err, err
        props = json.loads(out)["reports"][0]["properties"]
        tables.append({p: (d["verdict"], d["counterexample"]) for p, d in props.items()})
    assert tables[0] == tables[1]
    assert tables[1]["symmetry"] == ("fails", {"matrix": [[0, 0], [1, 0]]})


def test_audit_module_function_errors_are_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "broken_mod.py").write_text("raise RuntimeError('boom')\n")
    for spec, words in (("no_such_module_xyz:f", "importing"), ("broken_mod:f", "boom"),
                        ("json:no_such_function", "no attribute")):
        status, out, err = _run(capsys, "audit", spec, "--max-k", "1", "--max-n", "1",
                                "--random", "0")
        assert status == 2 and words in err and "Traceback" not in err, (spec, err)


BUGGY_METRIC = '''
import numpy as np

def buggy(cm):
    """The error count, with a KeyError on every matrix whose cell (1, 0) holds 1."""
    cm = np.asarray(cm)
    if cm.shape[0] == 2 and cm[1, 0] == 1:
        return {}["boom"]
    return int(cm.sum() - np.trace(cm))
'''


def test_a_user_function_raising_keyerror_gets_error_naming_the_matrix(tmp_path, monkeypatch,
                                                                       capsys):
    """Issue 37 item 1: a bug in a user's metric (a KeyError on some matrices) is no
    "undefined" and no one-line exit: every property's verdict is "error", naming the
    exception and the first matrix that raised it.  [[0, 0], [1, 0]] is the first
    matrix with cell (1, 0) = 1 in the search order (N = 1, K = 2, lexicographic:
    the flattened [0, 0, 1, 0] precedes [0, 1, 0, 0]; at N = 1, K = 1, [[1]] is fine)."""
    (tmp_path / "buggy_mod.py").write_text(BUGGY_METRIC)
    monkeypatch.syspath_prepend(str(tmp_path))
    out_json = tmp_path / "r.json"
    status, out, err = _run(capsys, "audit", "buggy_mod:buggy", "--max-k", "2", "--max-n", "2",
                            "--random", "0", "--no-proofs", "--json", out_json)
    why = "the metric raised KeyError: 'boom' on the count matrix [[0, 0], [1, 0]]"
    # the verdicts are printed and written; the exit status and one line say it is broken
    assert status == 2 and "Traceback" not in err, err
    assert err.strip() == f"ordinal-verify: audit: buggy_mod:buggy: the metric raised (verdict error): {why}"
    props = json.loads(out_json.read_text())["reports"][0]["properties"]
    assert set(props) == set(T.load()["properties"][i]["name"]
                             for i in range(len(T.load()["properties"])))
    for name, p in props.items():
        assert (p["verdict"], p["cell"], p["evidence"]) == ("error", "error", why), name
        assert p["counterexample"] == {"matrix": [[0, 0], [1, 0]]}
    rows = [line for line in out.splitlines() if line.split()[:2][-1:] == ["error"]]
    assert len(rows) == len(props) and all(line.endswith(why) for line in rows)


def test_audit_help_says_user_code_runs(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "module:function" in text and "with your rights" in text


@pytest.mark.parametrize("argv, words", [
    (["--max-k", "-1"], "must be >= 1"), (["--random", "-5"], "must be >= 0"),
    (["--max-k", "1.5"], "whole number"), (["--jobs", "0"], "must be >= 1"),
])
def test_negative_or_fractional_sizes_are_refused(capsys, argv, words):
    with pytest.raises(SystemExit) as exc:
        main(["audit", "mae", *argv])
    assert exc.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["--every-k", "4"], "65,535 support patterns"),
    (["--positive-k", "9"], "at most 5"),
    (["--max-k", "100", "--max-n", "100"], "hours per property"),
    (["--random", str(10**9)], "hours per property"),
])
def test_sizes_beyond_the_caps_are_refused_before_the_work(capsys, argv, words):
    status, out, err = _run(capsys, "audit", "mae", *argv)
    assert status == 2 and words in err and out == ""


def test_audit_without_a_metric_prints_the_committed_table(capsys):
    status, out, err = _run(capsys, "audit")
    assert status == 0
    table = T.load()
    assert table["space_text"] in out
    assert all(r["variant"] in out for r in table["reports"])
