"""The metric registry (issue 13), checked for every registered metric at once
(scikit-learn's ``test_common`` pattern).

- every public function of :mod:`numeric` is registered or listed in
  ``NOT_METRICS`` with its reason, and README's generated tables are fresh;
- each record is well formed (its function is the public one, its source
  names a source key or an external reference);
- the ``symmetric`` flag is true to the metric in both directions: a symmetric
  metric is unchanged by transposition on every matrix of an exhaustive
  search space, and a non-symmetric one has a witness in that space (found by
  the search, not written by hand);
- values lie in the recorded ``bounds`` (exact arithmetic);
- the labels form ``f(y_true, y_pred, labels=...)`` equals ``f(confusion_matrix(...))``.

The search space: every K x K count matrix with K = 2, 3 and total N <= 3
(exact SymPy arithmetic is the reference).  Values a metric refuses
(ValueError: e.g. tau_b with one class) are compared as refusals.
"""

from __future__ import annotations

import inspect
import re
from itertools import product
from pathlib import Path

import numpy as np
import pytest
import sympy

import numeric
from numeric.registry import NOT_METRICS, REGISTRY, readme_block

ROOT = Path(__file__).resolve().parents[1]
SOURCE_KEYS = ("silva2018", "cardoso2011", "binotto2024", "george2016", "macroblog")


def _space():
    """Every K x K count matrix with K = 2, 3 and total N = 1, 2, 3."""
    out = []
    for K in (2, 3):
        for N in (1, 2, 3):
            for cells in product(range(N + 1), repeat=K * K):
                if sum(cells) == N:
                    out.append(np.array(cells, dtype=np.int64).reshape(K, K))
    return out


SPACE = _space()
NAMES = list(REGISTRY)
#: the metrics of a confusion matrix (RPS takes probabilities: test_metrics_beyond_sources)
MATRIX_NAMES = [name for name in NAMES if REGISTRY[name].takes_matrix]


def _value(m, cm, variant=0):
    kwargs = m.cases()[variant].kwargs(cm)
    try:
        return m.function(cm, **kwargs, arithmetic="exact")
    except ValueError as exc:
        return ("refused", str(exc))


def _equal(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple)
    return a == b or sympy.simplify(a - b) == 0


def test_every_public_function_is_registered_or_explained():
    public = {name for name in numeric.__all__ if inspect.isfunction(getattr(numeric, name))}
    unexplained = public - set(REGISTRY) - set(NOT_METRICS)
    assert not unexplained, f"register these metrics or list them in NOT_METRICS: {unexplained}"
    both = set(REGISTRY) & set(NOT_METRICS)
    assert not both, f"both a metric and not a metric: {both}"
    assert set(REGISTRY) <= set(numeric.__all__), "a registered metric is not public"


@pytest.mark.parametrize("name", NAMES)
def test_record_is_well_formed(name):
    m = REGISTRY[name]
    assert getattr(numeric, name) is m.function
    assert m.function.__doc__ and ".. math::" in m.function.__doc__
    # a seed key, or an outside reference written "Author year"
    assert any(key in m.source for key in SOURCE_KEYS) or re.search(r"[A-Z]\w+.* (19|20)\d\d", m.source), m.source
    lo, hi = m.bounds
    assert lo is None or hi is None or sympy.sympify(lo) < sympy.sympify(hi)


def test_readme_tables_are_generated_from_the_registry():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme_block() in text, "README's metric table is stale: python -m numeric --write-readme README.md"


@pytest.mark.parametrize("name", MATRIX_NAMES)
def test_symmetric_flag_is_true_to_the_metric(name):
    """symmetric=True: unchanged by transposition on the whole space (every
    variant); symmetric=False: the search finds a witness."""
    m = REGISTRY[name]
    witnesses = []
    for variant in range(len(m.cases())):
        for cm in SPACE:
            v, vt = _value(m, cm, variant), _value(m, cm.T.copy(), variant)
            if not _equal(v, vt):
                witnesses.append(cm)
                break
    if m.symmetric:
        assert not witnesses, f"{name} is registered symmetric but changes on {witnesses[0].tolist()}"
    else:
        assert witnesses, f"{name} is registered non-symmetric but no witness in the space"


@pytest.mark.parametrize("name", MATRIX_NAMES)
def test_values_lie_in_the_recorded_bounds(name):
    m = REGISTRY[name]
    lo, hi = (None if b is None else sympy.sympify(b) for b in m.bounds)
    defined = 0
    for cm in SPACE:
        v = _value(m, cm)
        if isinstance(v, tuple):
            continue
        defined += 1
        assert lo is None or v >= lo, (cm.tolist(), v)
        assert hi is None or v <= hi, (cm.tolist(), v)
    assert defined >= 20, f"{name} is defined on only {defined} matrices of the space"


@pytest.mark.parametrize("name", MATRIX_NAMES)
def test_labels_form_equals_matrix_form(name):
    """f(y_true, y_pred, labels=...) counts the labels first (rows = true class)."""
    m = REGISTRY[name]
    y_true = np.array([1, 1, 2, 2, 3, 3, 3, 4])
    y_pred = np.array([1, 2, 2, 3, 3, 1, 4, 4])
    labels = [1, 2, 3, 4, 5]  # class 5 unobserved: kept by labels=
    cm = numeric.confusion_matrix(y_true, y_pred, labels=labels)
    assert cm.shape == (5, 5)
    kwargs = m.cases()[0].kwargs(cm)
    try:
        expected = m.function(cm, **kwargs, arithmetic="exact")
    except ValueError as exc:
        with pytest.raises(ValueError, match=str(exc)[:30].replace("(", r"\(").replace(")", r"\)")):
            m.function(y_true, y_pred, **kwargs, labels=labels, arithmetic="exact")
        return
    assert m.function(y_true, y_pred, **kwargs, labels=labels, arithmetic="exact") == expected


def test_labels_keyword_needs_label_vectors():
    with pytest.raises(ValueError, match="labels= is for label vectors"):
        numeric.mae([[1, 0], [0, 1]], labels=[0, 1])
