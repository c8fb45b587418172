"""The benchmark runner (issue 7): ``--quick`` runs and every agreement check passes.

No timing is asserted here: speed depends on the machine.  What is asserted
is that every workload runs at tiny sizes, that our result agrees with its
peer's wherever there are two results to compare, and that the command line
writes the Markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

try:
    import benchmarks
except ImportError:  # run as `pytest` rather than `python -m pytest` from the root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import benchmarks
from benchmarks import baselines
from benchmarks.runner import compare

# the peers are in the `test` extra: a missing peer is an error, not a skip
import imblearn  # noqa: E402,F401
import scipy  # noqa: E402,F401


@pytest.fixture(scope="module")
def quick_rows():
    return benchmarks.run(quick=True)


def test_every_workload_runs(quick_rows):
    numbers = {int(r.workload.split()[0]) for r in quick_rows}
    assert numbers == set(range(1, 19))


def test_every_agreement_check_passes(quick_rows):
    failed = [(r.workload, r.case, r.check) for r in quick_rows if r.agree is False]
    assert not failed
    # every workload with a peer result has a check that ran
    for r in quick_rows:
        if r.peer is not None:
            assert r.agree is True, (r.workload, r.case, r.check)


def test_table_has_a_line_per_row(quick_rows):
    table = benchmarks.render(quick_rows, info={"nproc": 2}, quick=True)
    body = [ln for ln in table.splitlines() if ln.startswith("| ") and not ln.startswith("| #")]
    assert len(body) == len(quick_rows)
    assert "**NO**" not in table


def test_command_line_writes_the_table(tmp_path, capsys):
    out = tmp_path / "bench.md"
    status = benchmarks.main(["--quick", "--only", "1,7", "--output", str(out), "--silent"])
    assert status == 0
    text = out.read_text(encoding="utf-8")
    assert text == capsys.readouterr().out
    assert "| 1 | confusion_matrix |" in text and "| 7 | r_int |" in text
    assert "nproc" in text


def test_python_m_benchmarks_runs():
    """`python -m benchmarks` itself (CI ran it before the tests; this test now
    keeps it working): a fast workload, exit status 0, its table row printed."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    res = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--only", "8"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "| 8 |" in res.stdout


def test_compare_alternates_and_returns_results():
    calls = []
    (t_a, ra), (t_b, rb) = compare(lambda: calls.append("a") or 1, lambda: calls.append("b") or 2,
                                   repeats=3, budget=10)
    assert (ra, rb) == (1, 2) and t_a.runs == t_b.runs == 3
    assert calls[:4] == ["a", "b", "a", "b"]


def test_appendix_b_transcription_matches_numeric():
    """The listing's default beta (its line 6) and an explicit one."""
    from numeric import oc

    rng = np.random.default_rng(0)
    for K in (2, 3, 5, 8):
        cm = rng.integers(0, 9, (K, K)) + np.eye(K, dtype=int)
        N = cm.sum()
        assert baselines.oc_appendix_b(cm, K) == pytest.approx(oc(cm, 0.75 / (N * (K - 1))), abs=1e-12)
        assert baselines.oc_appendix_b(cm, K, 0.1) == pytest.approx(oc(cm, 0.1), abs=1e-12)


def test_uoc_listing_with_an_unobserved_class():
    from numeric import uoc

    cm = np.array([[3, 1, 0], [0, 0, 0], [1, 2, 5]])
    assert baselines.uoc_appendix_b(cm, 3, 0.25) == pytest.approx(uoc(cm, 0.25), abs=1e-12)


def test_tc_max_linprog_is_george_eq6_unnormalised():
    from numeric.cost import tc_max

    n = np.array([10, 20, 70])
    assert baselines.tc_max_linprog(n) / n.sum() == pytest.approx(tc_max(n), rel=1e-9)
