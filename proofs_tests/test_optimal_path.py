"""numeric.optimal_path: the cells it returns form a consistent path whose cost
(cardoso2011 eq. 7, silva2018 eq. 28, recomputed here from the equations with
Fractions) equals ``oc`` / ``uoc``, and no consistent path is cheaper
(exhaustive enumeration for K <= 4)."""

from fractions import Fraction

import numpy as np
import pytest

from analytic.derivations.metric_thresholds import monotone_paths as _all_paths
from analytic.ledger.sources import cardoso2011, silva2018
from numeric import oc, optimal_path, uoc

BETAS = [Fraction(0), Fraction(1, 100), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1), Fraction(3)]


def _parts(cm, metric):
    """Per-cell benefit b and penalty q of eq. 7 (OC) / eq. 28 (UOC), gamma = 1, as Fractions."""
    cm = [[Fraction(v) for v in row] for row in cm]
    K = len(cm)
    dist = [[abs(r - c) for c in range(K)] for r in range(K)]
    if metric == "oc":
        w = cm
        N = sum(map(sum, cm))
        D = N + sum(w[r][c] * dist[r][c] for r in range(K) for c in range(K))
        scale = Fraction(1)
    else:
        rows = [sum(row) for row in cm]
        w = [[v / rows[r] if rows[r] else Fraction(0) for v in cm[r]] for r in range(K)]
        Kp = sum(1 for n in rows if n)
        D = Kp + sum(w[r][c] * dist[r][c] for r in range(K) for c in range(K))
        scale = Fraction(1, Kp)
    b = [[w[r][c] / D for c in range(K)] for r in range(K)]
    q = [[w[r][c] * dist[r][c] * scale for c in range(K)] for r in range(K)]
    return b, q


def _cost(path, b, q, beta):
    return 1 - sum(b[r][c] for r, c in path) + beta * sum(q[r][c] for r, c in path)


def _is_consistent(path, K):
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])}
    return path[0] == (0, 0) and path[-1] == (K - 1, K - 1) and steps <= {(1, 1), (1, 0), (0, 1)}


MATRICES = [
    *(m for m in silva2018.MATRICES.values()),
    *(cardoso2011.MATRICES[k] for k in ("A", "B", "CM_1", "CM_2", "CM_3", "CM_4", "CM_5", "CM_6")),
]


@pytest.mark.parametrize("metric", ["oc", "uoc"])
@pytest.mark.parametrize("cm", MATRICES)
def test_path_cost_is_the_index_and_no_path_is_cheaper(cm, metric):
    K = len(cm)
    b, q = _parts(cm, metric)
    index = oc if metric == "oc" else uoc
    paths = _all_paths(K)
    for beta in BETAS:
        path = optimal_path(cm, beta, metric=metric)
        assert _is_consistent(path, K)
        cost = _cost(path, b, q, beta)
        assert cost == index(cm, beta, arithmetic="exact")
        assert cost == min(_cost(pth, b, q, beta) for pth in paths)


def test_float_and_exact_agree_on_a_real_classifier():
    cm = cardoso2011.MATRICES["CM_10"]
    for beta in (0.001, 0.01, 0.1):
        path = optimal_path(cm, beta, metric="oc", arithmetic="float")
        b, q = _parts(cm, "oc")
        assert float(_cost(path, b, q, Fraction(beta))) == pytest.approx(oc(cm, beta), abs=1e-12)


def test_large_beta_gives_the_diagonal():
    cm = np.arange(25).reshape(5, 5)
    assert optimal_path(cm, 10) == [(i, i) for i in range(5)]
    assert optimal_path(cm, 10, metric="oc") == [(i, i) for i in range(5)]


def test_one_class():
    assert optimal_path([[3]], 0.5) == [(0, 0)]


def test_errors():
    with pytest.raises(ValueError, match="metric must be"):
        optimal_path([[1, 0], [0, 1]], 0.5, metric="mae")
    with pytest.raises(ValueError, match="one matrix"):
        optimal_path([[[1, 0], [0, 1]]] * 2, 0.5)
    with pytest.raises(ValueError, match="beta must be >= 0"):
        optimal_path([[1, 0], [0, 1]], -1)
