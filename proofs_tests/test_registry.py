"""The metric registry (issue 13), checked for every registered metric at once
(scikit-learn's ``test_common`` pattern).

- every public function of :mod:`numeric` is registered or listed in
  ``NOT_METRICS`` with its reason, and README's generated tables are fresh;
- registration is explicit: every function a module of :mod:`numeric`
  decorates with ``@metric`` (found by reading the source, not by importing)
  is in the registry, whose modules are ``METRIC_MODULES`` (not whatever
  ``numeric/__init__`` imports); every public function of a confusion matrix
  in any arithmetic (first parameter ``cm``, an ``arithmetic`` parameter) is
  registered or explained;
- ``Metric.bind`` and ``table_beta`` are the one binding of a variant and the
  one table beta;
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

import ast
import importlib
import inspect
import pkgutil
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
import sympy

import numeric
from numeric.registry import (METRIC_MODULES, NOT_METRICS, REGISTRY, Variant, _Registry,
                              readme_block, table_beta)

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
    """The metric tables of docs/metrics.md (moved from README, issue 40) are the registry's."""
    text = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")
    assert readme_block() in text, "docs/metrics.md's tables are stale: python -m numeric --write docs/metrics.md"
    assert "registry:begin" not in (ROOT / "README.md").read_text(encoding="utf-8")


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


@pytest.mark.parametrize("name", MATRIX_NAMES)
def test_signature_binds_both_call_forms(name):
    """The signature tells the truth (issue 40): ``inspect.signature(f).bind`` accepts every call
    form the metric accepts (a matrix; two label vectors, positional or by keyword, with
    ``labels=`` and ``sample_weight=``), and each form gives the matrix form's value (the
    expected value: ``f(confusion_matrix(y_true, y_pred, labels, sample_weight))``)."""
    f = REGISTRY[name].function
    sig = inspect.signature(f)
    y_true = np.array([1, 1, 2, 2, 3, 3, 3, 4])
    y_pred = np.array([1, 2, 2, 3, 3, 1, 4, 4])
    labels, weights = [1, 2, 3, 4], [1, 2, 1, 1, 3, 1, 1, 2]
    cm = numeric.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights)
    extra = REGISTRY[name].cases()[0].kwargs(cm)      # beta of OC, lengths of interval TC
    positional = list(extra.values())
    calls = [((cm, *positional), {}), ((cm,), extra), ((), {"cm": cm, **extra}),
             ((y_true, y_pred, *positional), {"labels": labels, "sample_weight": weights}),
             ((y_true, y_pred), {**extra, "labels": labels, "sample_weight": weights}),
             ((), {"y_true": y_true, "y_pred": y_pred, **extra, "labels": labels,
                   "sample_weight": weights})]
    for args, kwargs in calls:
        sig.bind(*args, **kwargs)        # raises TypeError when the signature would refuse the call
    try:
        expected = f(cm, **extra, arithmetic="exact")
    except ValueError as exc:             # a value the metric refuses is refused in every form
        for args, kwargs in calls:
            with pytest.raises(ValueError, match=re.escape(str(exc)[:30])):
                f(*args, **kwargs, arithmetic="exact")
        return
    for args, kwargs in calls:
        assert f(*args, **kwargs, arithmetic="exact") == expected, (args, kwargs)
    # the documented parameters are the signature's, in its order
    names = list(sig.parameters)
    assert names[:2] == ["cm", "y_pred"] and {"y_true", "labels", "sample_weight", "arithmetic"} <= set(names)


def test_mae_by_keywords_and_the_call_forms_it_refuses():
    """``numeric.mae(y_true=..., y_pred=...)`` works (it said ``missing 'cm'``); a call that
    mixes the forms or leaves one half out is refused with a message naming what is missing."""
    y_true, y_pred = [0, 1, 2, 2], [0, 2, 2, 1]
    assert numeric.mae(y_true=y_true, y_pred=y_pred) == numeric.mae(y_true, y_pred) == 0.5  # 2 errors of 1 in 4
    assert numeric.mae(y_true, y_pred=y_pred) == 0.5
    for kwargs, message in (({}, "missing the confusion matrix cm"),
                            ({"y_true": y_true}, "got y_true= but no y_pred"),
                            ({"y_pred": y_pred}, "got y_pred= but no y_true"),
                            ({"cm": [[1, 0], [0, 1]], "y_true": y_true, "y_pred": y_pred}, "not both")):
        with pytest.raises(TypeError, match=message):
            numeric.mae(**kwargs)
    assert inspect.signature(numeric.ranked_probability_score).bind(
        y_true=[0], proba=[[1.0, 0.0]], labels=[0, 1], sample_weight=[1])


def test_labels_keyword_needs_label_vectors():
    with pytest.raises(ValueError, match="labels= is for label vectors"):
        numeric.mae([[1, 0], [0, 1]], labels=[0, 1])


# ---------------------------------------------------------------------------
# explicit registration: the source's decorators, the registry's modules
# ---------------------------------------------------------------------------
def _decorated_metrics(package_dir):
    """``{name: module}`` of every function decorated ``@metric(...)`` (or
    ``@registry.metric(...)``) in the ``.py`` files of ``package_dir``, read
    with :mod:`ast` (a module nobody imports is found too)."""
    found = {}
    for path in sorted(Path(package_dir).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for dec in node.decorator_list:
                call = dec.func if isinstance(dec, ast.Call) else dec
                name = call.attr if isinstance(call, ast.Attribute) else getattr(call, "id", None)
                if name == "metric":
                    assert node.name not in found, f"{node.name} decorated in {found.get(node.name)} and {path.stem}"
                    found[node.name] = path.stem
    return found


def test_every_decorated_metric_is_registered():
    """The registry holds exactly the functions the source decorates with
    ``@metric``; a decorated metric in a module missing from METRIC_MODULES fails."""
    decorated = _decorated_metrics(ROOT / "numeric")
    assert len(decorated) >= 29  # the 29 metrics of this writing: the scan does find decorators
    registered = {name: m.function.__module__.rsplit(".", 1)[-1] for name, m in REGISTRY.items()}
    unlisted = sorted({mod for mod in decorated.values()} - set(METRIC_MODULES))
    assert not unlisted, f"modules that define metrics but are not in METRIC_MODULES: {unlisted}"
    assert registered == decorated


def test_registry_reads_its_modules_not_the_imports():
    """A fresh registry of METRIC_MODULES is REGISTRY, record for record; one
    module fewer loses exactly that module's metrics (the list governs)."""
    fresh = _Registry(METRIC_MODULES)
    assert list(fresh) == list(REGISTRY)
    assert all(fresh[n] is REGISTRY[n] for n in REGISTRY)
    fewer = _Registry(tuple(m for m in METRIC_MODULES if m != "extremes"))
    assert set(REGISTRY) - set(fewer) == {"gmsec", "mean_extreme_sensitivity"}


def test_a_metric_added_at_run_time(monkeypatch):
    """Outside METRIC_MODULES a metric is added explicitly, by its record (the
    decorator marks, it does not register), after the package's own."""
    from numeric.registry import metric

    @metric(label="2 MER", better="lower", symmetric=True, bounds=(0, 2), source="test 2026")
    def twice_mer(cm, *, arithmetic="float"):
        return 2 * numeric.mer(cm, arithmetic=arithmetic)

    assert "twice_mer" not in REGISTRY  # defined in no module of METRIC_MODULES
    monkeypatch.setitem(REGISTRY, "twice_mer", twice_mer.registry_record)
    assert list(REGISTRY)[-1] == "twice_mer"
    # MER of [[1, 1], [0, 2]] is 1/4 (one of four off the diagonal)
    assert REGISTRY["twice_mer"].bind(0, "exact")([[1, 1], [0, 2]]) == sympy.Rational(1, 2)
    with pytest.raises(ValueError, match="takes the Metric record named 'mer2'"):
        REGISTRY["mer2"] = twice_mer.registry_record


def _public_functions():
    """``{name: function}``: ``numeric.__all__`` and the ``__all__`` of every
    public module of :mod:`numeric`."""
    out = {n: getattr(numeric, n) for n in numeric.__all__}
    for info in pkgutil.iter_modules(numeric.__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"numeric.{info.name}")
        out.update({n: getattr(mod, n) for n in getattr(mod, "__all__", ())})
    return {n: f for n, f in out.items() if inspect.isfunction(f)}


def test_public_metric_functions_are_registered():
    """Criterion of a metric function of a confusion matrix: public, first
    parameter ``cm``, an ``arithmetic`` parameter.  Each is registered (as the
    very function exported) or explained in NOT_METRICS."""
    candidates = {}
    for name, f in _public_functions().items():
        params = list(inspect.signature(f).parameters)
        if params and params[0] == "cm" and "arithmetic" in params:
            candidates[name] = f
    assert {"mae", "oc", "cohen_kappa", "path_envelope"} <= set(candidates)  # the criterion bites
    unregistered = sorted(n for n in candidates if n not in REGISTRY and n not in NOT_METRICS)
    assert not unregistered, f"metric functions neither registered nor in NOT_METRICS: {unregistered}"
    assert all(REGISTRY[n].function is f for n, f in candidates.items() if n in REGISTRY)


# ---------------------------------------------------------------------------
# Metric.variant / Metric.bind: the one binding of a report variant
# ---------------------------------------------------------------------------
BIND_MATRICES = [np.array([[3, 1, 0], [1, 2, 2], [0, 1, 4]]), np.array([[2, 1], [0, 3]]),
                 np.array([[0, 1, 0, 0], [1, 0, 2, 0], [0, 0, 3, 1], [0, 0, 1, 2]])]


@pytest.mark.parametrize("name", MATRIX_NAMES)
def test_bind_is_the_variant_call(name):
    """bind(v, a)(cm) is function(cm, **v.kwargs(cm), arithmetic=a) (the
    definition of a variant), by index, label or record."""
    m = REGISTRY[name]
    for i, v in enumerate(m.cases()):
        for arithmetic in ("exact", "float"):
            by_index, by_label, by_record = (m.bind(w, arithmetic) for w in (i, v.label, v))
            for cm in BIND_MATRICES:
                try:
                    want = m.function(cm, **v.kwargs(cm), arithmetic=arithmetic)
                except ValueError as exc:
                    for f in (by_index, by_label, by_record):
                        with pytest.raises(ValueError, match=re.escape(str(exc)[:40])):
                            f(cm)
                    continue
                for f in (by_index, by_label, by_record):
                    got = f(cm)
                    assert got == want or (got != got and want != want), (v.label, cm.tolist())


def test_bind_reads_the_variant_parameters_from_each_matrix():
    """OC's first variant: beta = 0.25/(N(K-1)) of the matrix at hand
    (cardoso2011 §4), so one bound function serves matrices of any N and K."""
    oc = REGISTRY["oc"].bind(0, "exact")
    for cm in BIND_MATRICES:
        N, K = int(cm.sum()), cm.shape[0]
        assert oc(cm) == numeric.oc(cm, sympy.Rational(1, 4) / (N * (K - 1)), arithmetic="exact")


def test_bind_refuses_unknown_variants_and_arithmetics():
    m = REGISTRY["oc"]
    with pytest.raises(ValueError, match="oc has no variant 'OC, beta=1'"):
        m.bind("OC, beta=1", "exact")
    with pytest.raises(ValueError, match=r"variant must be a label or an index 0\.\.1"):
        m.bind(2, "exact")
    with pytest.raises(ValueError, match="variant must be a label or an index"):
        m.bind(True, "exact")
    with pytest.raises(ValueError, match="is not a variant of oc"):
        m.bind(REGISTRY["uoc"].cases()[0], "exact")
    with pytest.raises(ValueError, match="is not a variant of oc"):
        m.bind(Variant("OC, beta=0.25/(N(K-1))", {"beta": 1}), "exact")
    with pytest.raises(ValueError, match="arithmetic must be one of"):
        m.bind(0, "decimal")


# ---------------------------------------------------------------------------
# table_beta: the one beta = numerator / (N (K-1)^gamma) (cardoso2011 §4)
# ---------------------------------------------------------------------------
def test_table_beta_is_cardosos_scale():
    """cardoso2011 §4 and captions: beta_i = (0.25, 0.75) / (N (K-1)^gamma);
    K = 1, where beta has no effect, divides by N only."""
    cm = [[3, 1, 0], [1, 2, 2], [0, 1, 4]]  # N = 14, K = 3
    assert table_beta("0.25").beta(cm) == Fraction(1, 4) / (14 * 2)
    assert table_beta(0.75)(cm) == {"beta": Fraction(3, 4) / (14 * 2)}
    assert table_beta(sympy.Rational(3, 4), gamma=2).beta(cm) == Fraction(3, 4) / (14 * 2 ** 2)
    assert table_beta("0.25").beta([[5]]) == Fraction(1, 20)
    assert all(REGISTRY["oc"].cases()[i].params(cm) == table_beta(b)(cm) for i, b in enumerate(("0.25", "0.75")))


def test_table_beta_refuses_what_has_no_beta():
    with pytest.raises(ValueError, match=r"one K x K confusion matrix, got shape \(2, 2, 2\)"):
        table_beta("0.25").beta(np.ones((2, 2, 2), dtype=int))  # a stack: one N per matrix
    with pytest.raises(ValueError, match="needs a total N > 0, got N = 0"):
        table_beta("0.25").beta([[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="gamma must be a whole number >= 1"):
        table_beta("0.25", gamma=0)
    with pytest.raises(ValueError, match="numerator must be a rational number"):
        table_beta("a quarter")
