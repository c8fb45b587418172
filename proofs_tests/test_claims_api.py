"""The public claims API (issue 12, part 1): user claims through ``ordinal-verify
--claims``, the matrix generators and the counterexample shrinker."""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analytic.properties.generators import (all_matrices, count, exhaustive, label_vectors, order_key,
                                 random_matrices)
from analytic.properties.shrink import greedy_shrink, shrink

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "analytic", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=600)


# ---------------------------------------------------------------------------
# generators
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("K, N", [(1, 3), (2, 0), (2, 3), (3, 2), (3, 4)])
def test_exhaustive_lists_every_matrix_once(K, N):
    """Stars and bars: C(N + K^2 - 1, K^2 - 1) matrices (3x3, N = 4: C(12, 8) = 495),
    all distinct, each with total N, in lexicographic order; cross-checked against a
    brute-force product over the cells for small sizes."""
    ms = [m.ravel().tolist() for m in exhaustive(K, N)]
    assert len(ms) == count(K, N) == math.comb(N + K * K - 1, K * K - 1)
    assert ms == sorted(ms) and len({tuple(m) for m in ms}) == len(ms)
    assert all(sum(m) == N for m in ms)
    if K * K * N <= 27:
        brute = sorted(list(p) for p in itertools.product(range(N + 1), repeat=K * K) if sum(p) == N)
        assert ms == brute


def test_exhaustive_zero_rows_and_cols():
    ms = list(exhaustive(3, 3, zero_rows=[0], zero_cols=[2]))
    # 4 free cells (rows 1-2, columns 0-1): C(3 + 3, 3) = 20 matrices
    assert len(ms) == 20
    assert all(m[0].sum() == 0 and m[:, 2].sum() == 0 and m.sum() == 3 for m in ms)
    with pytest.raises(ValueError, match="outside 0..2"):
        list(exhaustive(3, 1, zero_rows=[3]))


def test_all_matrices_in_shrinking_order():
    keys = [order_key(m) for m in all_matrices(3, 3)]
    assert keys == sorted(keys)
    assert len(keys) == sum(count(K, N) for K in (1, 2, 3) for N in (1, 2, 3))


def test_random_matrices_reproducible_and_constrained():
    a = random_matrices(4, 9, 5, seed=3, zero_cols=[1])
    b = random_matrices(4, 9, 5, seed=3, zero_cols=[1])
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert all(m.sum() == 9 and m[:, 1].sum() == 0 for m in a)
    d = random_matrices(3, 6, 4, seed=0, diagonal=True)
    assert all(not np.any(m - np.diag(np.diag(m))) and m.sum() == 6 for m in d)
    # (lo, hi) sizes: each matrix draws its K, then its N, inclusive (the claims' searches)
    r = random_matrices((2, 4), (1, 5), 200, seed=7, zero_rows=[0])
    assert {m.shape[0] for m in r} == {2, 3, 4} and {int(m.sum()) for m in r} == {1, 2, 3, 4, 5}
    assert all(m.shape == (m.shape[0],) * 2 and m.dtype == np.int64 and m[0].sum() == 0 for m in r)
    assert all(np.array_equal(x, y) for x, y in zip(r, random_matrices((2, 4), (1, 5), 200, seed=7,
                                                                           zero_rows=[0])))
    # a range of one value gives that size
    assert all(m.shape == (3, 3) and m.sum() == 6 for m in random_matrices((3, 3), (6, 6), 5))
    for bad, match in (((4, 2), "K range .* is empty"), ((0, 2), "K must be a positive integer"),
                       ((1, 2, 3), "K must be an integer or a")):
        with pytest.raises(ValueError, match=match):
            random_matrices(bad, 3, 1)
    with pytest.raises(ValueError, match="N must be a non-negative integer"):
        random_matrices(2, (-1, 3), 1)
    # the one generator: the claims' searches use it (no second random_matrices)
    from analytic.ledger.checks import _search
    assert _search.random_matrices is random_matrices
    assert list(label_vectors(3, 1)) == [(0,), (1,), (2,)]


# ---------------------------------------------------------------------------
# shrinker: against brute force
# ---------------------------------------------------------------------------
PREDICATES = {
    # some sample two or more classes off, and the first class never predicted correctly
    "far-error": lambda a: len(a) > 2 and a[0, 0] == 0 and any(
        a[i, j] for i in range(len(a)) for j in range(len(a)) if abs(i - j) >= 2),
    # more samples above the diagonal than below, and at least 3 samples
    "upper-heavy": lambda a: a.sum() >= 3 and np.triu(a, 1).sum() > np.tril(a, -1).sum(),
    # an empty row and an empty column that are different classes
    "empty-pair": lambda a: any(a[i].sum() == 0 and a[:, j].sum() == 0
                                for i in range(len(a)) for j in range(len(a)) if i != j),
}


@pytest.mark.parametrize("name", PREDICATES)
def test_shrink_returns_the_brute_force_minimum(name):
    """The minimum of order_key over every matrix with K <= 4, N <= 5 satisfying the
    predicate (brute force) is what shrink returns from a large counterexample."""
    pred = PREDICATES[name]
    brute = min((m for m in all_matrices(4, 5) if pred(m)), key=order_key)
    start = np.array([[0, 2, 3, 1], [1, 2, 0, 4], [2, 0, 3, 1], [0, 0, 0, 0]])
    if name == "empty-pair":
        start[:, 2] = 0
    assert pred(start)
    r = shrink(pred, start, max_k=4)
    assert r.how.startswith("exhaustive")
    assert order_key(r.matrix) == order_key(brute), (r.matrix.tolist(), brute.tolist())
    assert r.calls > 0


def test_shrink_greedy_fallback_and_errors():
    pred = PREDICATES["upper-heavy"]
    start = np.triu(np.full((5, 5), 3))
    r = shrink(pred, start, budget=10)
    assert r.how.startswith("greedy") and pred(r.matrix)
    g, _ = greedy_shrink(pred, start)
    assert np.array_equal(g, r.matrix)
    with pytest.raises(ValueError, match="predicate is false"):
        shrink(pred, np.eye(3, dtype=int))


# ---------------------------------------------------------------------------
# user claims through the CLI
# ---------------------------------------------------------------------------
USER_OK = '''
import numeric
from analytic.properties.generators import exhaustive
from analytic.ledger import Outcome, claim

@claim("mine:mer-le-mae", source="my notes, p. 1", expect="verified",
       statement="MER <= MAE on every 3x3 matrix with 3 samples",
       method="exhaustive (analytic.properties.generators.exhaustive), exact")
def _mer_le_mae():
    bad = [m for m in exhaustive(3, 3)
           if numeric.mer(m, arithmetic="exact") > numeric.mae(m, arithmetic="exact")]
    return Outcome("refuted" if bad else "verified", f"{len(bad)} counterexamples of 165")
'''

USER_WRONG = '''
import numeric
from analytic.ledger import Outcome, claim
from analytic.properties.shrink import shrink

@claim("mine:mae-eq-mer", source="a wrong conjecture", expect="verified",
       statement="MAE = MER", method="shrunk counterexample")
def _wrong():
    pred = lambda m: numeric.mae(m, arithmetic="exact") != numeric.mer(m, arithmetic="exact")
    r = shrink(pred, [[1, 0, 2], [0, 1, 0], [0, 0, 1]])
    return Outcome("refuted", f"counterexample {r.matrix.tolist()} ({r.how})")
'''

USER_RAISES = '''
from analytic.ledger import claim

@claim("mine:broken", source="s", statement="s", method="m", expect="verified")
def _broken():
    return 1 / 0
'''


def test_cli_claims_module_prints_the_users_claims(tmp_path):
    f = tmp_path / "my_claims.py"
    f.write_text(USER_OK)
    out = _cli("--claims", str(f), "--no-progress")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("mine:mer-le-mae") and "verified" in line for line in lines)
    # the summary, then the legend of the verdict words printed (ledger_cmd.legend)
    assert "1 claims: 1 verified, 0 refuted, 0 not reproduced, 0 convention" in lines
    assert lines[-1].startswith("The full ledger")
    # JSON and Markdown as for the package's ledger; a folder loads each module
    (tmp_path / "more.py").write_text(USER_WRONG)
    out = _cli("--claims", str(tmp_path), "--no-progress", "--json", "-")
    data = json.loads(out.stdout)
    assert [d["id"] for d in data] == ["mine:mae-eq-mer", "mine:mer-le-mae"]
    assert data[1]["source"] == "my notes, p. 1"
    md = tmp_path / "l.md"
    _cli("--claims", str(f), "--no-progress", "--markdown", str(md))
    assert "### `mine:mer-le-mae`" in md.read_text()


def test_cli_claims_failing_check_is_reported(tmp_path):
    """A verdict other than the expected one: listed, named on stderr, exit status 1.
    The shrunk counterexample to MAE = MER: one sample one class off gives MAE = MER = 1,
    so the smallest needs a sample two classes off (N = 1, K = 3); of cells (0,2) and
    (2,0) the flattened order puts (2,0) first (a 1 in a later position is smaller)."""
    f = tmp_path / "wrong.py"
    f.write_text(USER_WRONG)
    out = _cli("--claims", str(f), "--no-progress")
    assert out.returncode == 1
    assert "mine:mae-eq-mer: verdict refuted, expected verified" in out.stderr
    assert "counterexample [[0, 0, 0], [0, 0, 0], [1, 0, 0]]" in out.stdout
    g = tmp_path / "raises.py"
    g.write_text(USER_RAISES)
    out = _cli("--claims", str(g), "--no-progress")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    # a check that raises: an error row with the exception, named on stderr too
    reason = "the check raised ZeroDivisionError('division by zero')"
    assert f"ordinal-verify: claim 'mine:broken': {reason}" in out.stderr
    assert out.stdout.splitlines()[2].split(None, 2) == ["mine:broken", "error", reason]
    out = _cli("--claims", str(tmp_path / "missing.py"), "--no-progress")
    assert out.returncode == 2 and "not a .py file or a folder" in out.stderr


def test_cli_audit_metric():
    out = _cli("audit", "mer", "--random", "0", "--max-n", "2", "--every-k", "2",
               "--positive-k", "3")
    assert out.returncode == 0, out.stderr
    assert any(line.split()[:2] == ["ordinal_monotonicity", "fails"]
               for line in out.stdout.splitlines())
    out = _cli("audit", "nosuch")
    assert out.returncode == 2 and "unknown metric 'nosuch'" in out.stderr
