"""GMSEC and MES (issue 25 item 6, :mod:`numeric.extremes`).

Sources of the expected values:

- the docstring examples of dlordinal 2.7.0 (``dlordinal/metrics/metrics.py``,
  ``gmsec``: 0.7071067811865476, ``mes``: 0.75) and of skordinal
  (``skordinal/metrics/_metrics.py``, the same two values);
- the peers' definition, re-computed here with scikit-learn's
  ``recall_score(average=None, zero_division=0)`` as both libraries do
  (``sqrt(recall[0] * recall[-1])`` and ``(recall[0] + recall[-1]) / 2``),
  with ``sample_weight`` forwarded as skordinal does.  (dlordinal itself
  needs torch to install; its ``metrics`` module imports only numpy and
  scikit-learn, and a one-off run of the 2.7.0 wheel's functions on 300
  random label vectors agreed with these to the last bit; it is not a test
  dependency);
- exact values derived by hand (next to each).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy
from sklearn.metrics import recall_score

import numeric
from numeric.comparison import metric_on_stack
from numeric.registry import REGISTRY

DOC_T = [0, 0, 1, 2, 3, 0, 0]
DOC_P = [0, 1, 1, 2, 3, 0, 1]


def test_the_peers_docstring_examples():
    assert numeric.gmsec(DOC_T, DOC_P) == 0.7071067811865476
    assert numeric.mean_extreme_sensitivity(DOC_T, DOC_P) == 0.75


def test_exact_values_by_hand():
    # S_1 = 1/2 (row [1, 1]), S_2 = 2/3 (row [1, 2]): sqrt(1/3) and 7/12
    cm = [[1, 1], [1, 2]]
    assert numeric.gmsec(cm, arithmetic="exact") == sympy.sqrt(3) / 3
    assert numeric.mean_extreme_sensitivity(cm, arithmetic="exact") == sympy.Rational(7, 12)
    # the middle class does not count: S_1 = 3/4, S_3 = 1/1, whatever row 2 is
    cm3 = [[3, 1, 0], [0, 0, 5], [0, 0, 2]]
    assert numeric.gmsec(cm3, arithmetic="exact") == sympy.sqrt(3) / 2
    assert numeric.mean_extreme_sensitivity(cm3, arithmetic="exact") == sympy.Rational(7, 8)


def _peer(t, p, labels, w=None):
    recall = recall_score(t, p, labels=labels, average=None, zero_division=0, sample_weight=w)
    return math.sqrt(recall[0] * recall[-1]), (recall[0] + recall[-1]) / 2


@pytest.mark.parametrize("seed", range(20))
def test_against_the_peers_definition(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 7))
    n = int(rng.integers(4, 60))
    t, p = rng.integers(0, K, n), np.clip(rng.integers(0, K, n), 0, K - 1)
    t[:2] = [0, K - 1]  # both extremes have true samples: every convention agrees
    w = rng.integers(0, 4, n)
    w[:2] = 1
    labels = list(range(K))
    for weights in (None, w):
        g, m = _peer(t, p, labels, weights)
        assert numeric.gmsec(t, p, labels=labels, sample_weight=weights) == pytest.approx(g, abs=1e-15)
        assert numeric.mean_extreme_sensitivity(t, p, labels=labels, sample_weight=weights) \
            == pytest.approx(m, abs=1e-15)


def test_an_extreme_class_without_true_samples():
    """Class 0 is only predicted: undefined by default (a ValueError naming the
    first class), 0 with missing='zero' -- the peers' recall_score(zero_division=0)."""
    t, p = [1, 1, 2, 2], [0, 1, 2, 2]
    with pytest.raises(ValueError, match="the first class has no true sample"):
        numeric.gmsec(t, p, labels=[0, 1, 2])
    with pytest.raises(ValueError, match="MES is undefined: the last class"):
        numeric.mean_extreme_sensitivity([[1, 0], [0, 0]])
    g, m = _peer(t, p, [0, 1, 2])
    assert numeric.gmsec(t, p, labels=[0, 1, 2], missing="zero") == g == 0.0
    assert numeric.mean_extreme_sensitivity(t, p, labels=[0, 1, 2], missing="zero") == m == 0.5
    with pytest.raises(ValueError, match="missing must be 'raise' or 'zero'"):
        numeric.gmsec([[1, 0], [0, 1]], missing="ignore")


def test_a_stack_marks_the_undefined_matrices():
    """In a stack (compare's resamples) the undefined matrix is recorded, not fatal."""
    stack = np.array([[[2, 0], [1, 1]], [[0, 0], [1, 1]], [[1, 1], [0, 2]]])
    values, defined, why = metric_on_stack(numeric.gmsec, stack)
    assert defined.tolist() == [True, False, True]
    assert values[0] == pytest.approx(math.sqrt(0.5)) and values[2] == pytest.approx(math.sqrt(0.5))
    assert "first class has no true sample" in why


def test_registry_records():
    for name, label in (("gmsec", "GMSEC"), ("mean_extreme_sensitivity", "MES")):
        m = REGISTRY[name]
        assert m.label == label and m.better == "higher" and m.bounds == (0, 1)
        assert not m.symmetric and "arXiv:2407.12417" in m.source
