"""One test per ValueError message: bad input is refused with a message that names the problem."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import numpy as np
import pytest
import sympy

import numeric
import exactfloor.errors
from numeric.registry import REGISTRY

#: fixed parameters for the metrics that take more than a matrix (a bad matrix
#: cannot supply its own: the registry's variants read N and K from it)
FIXED = {"matrix": lambda cm: {}, "matrix, beta": lambda cm: {"beta": 0.1},
         "matrix, lengths": lambda cm: {"lengths": np.ones(np.shape(cm)[-1] if np.ndim(cm) else 1)}}


def _one_argument(m):
    def f(cm, **kwargs):
        return m.function(cm, **FIXED[m.input](cm), **kwargs)
    return f


#: every registered metric (numeric.registry), as a one-argument callable
METRICS = {m.name: _one_argument(m) for m in REGISTRY.values() if m.takes_matrix}
ALL = pytest.mark.parametrize("f", METRICS.values(), ids=METRICS.keys())


@ALL
def test_not_2d(f):
    with pytest.raises(ValueError, match=r"must be 2-D .* got shape \(3,\)"):
        f([1, 2, 3])


@ALL
def test_not_square(f):
    with pytest.raises(ValueError, match=r"must be square, got shape \(2, 3\)"):
        f([[1, 0, 0], [0, 1, 0]])


@ALL
def test_negative(f):
    with pytest.raises(ValueError, match="must be non-negative"):
        f([[1, -1], [0, 2]])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@ALL
def test_nan_or_infinite(f, bad):
    with pytest.raises(ValueError, match="contains NaN or infinite values"):
        f([[1.0, bad], [0.0, 2.0]])


@ALL
def test_non_integer(f):
    with pytest.raises(ValueError, match="must hold integer counts"):
        f([[1.5, 0], [0, 2]])


def test_non_integer_exact_number():
    with pytest.raises(ValueError, match="must hold integer counts"):
        numeric.mae([[sympy.Rational(1, 2), 0], [0, 2]])


@ALL
def test_all_zero(f):
    with pytest.raises(ValueError, match="is all zero: it holds no samples"):
        f([[0, 0], [0, 0]])


def test_all_zero_in_a_stack_names_the_index():
    stack = np.array([[[1, 0], [0, 1]], [[0, 0], [0, 0]]])
    with pytest.raises(ValueError, match=r"at stack index \(1,\) is all zero"):
        numeric.mae(stack)


@ALL
def test_empty(f):
    with pytest.raises(ValueError, match=r"is empty, got shape \(0, 0\)"):
        f(np.zeros((0, 0)))


def test_not_numbers():
    with pytest.raises(ValueError, match="must hold real numbers"):
        numeric.mae([["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match="must hold real numbers"):
        numeric.mae([[None, 1], [1, 1]])
    with pytest.raises(ValueError, match="must hold real numbers"):
        numeric.mae([[True, False], [False, True]])
    with pytest.raises(ValueError, match="must hold real numbers"):
        numeric.mae(np.array([[1j, 0], [0, 1]]))


def test_ragged():
    with pytest.raises(ValueError, match="must be a rectangular array of counts"):
        numeric.mae([[1, 2], [3]])


def test_too_large_for_int64():
    with pytest.raises(ValueError, match="has counts too large for int64"):
        numeric.mae([[2**70, 0], [0, 1]])
    with pytest.raises(ValueError, match="has counts too large for int64"):
        numeric.mae(np.array([[2**63 + 5, 0], [0, 1]], dtype=np.uint64))
    with pytest.raises(ValueError, match="has a total count too large for int64"):
        numeric.mae([[2**62, 2**62], [0, 0]])  # int64 sums would wrap to 0


@pytest.mark.parametrize("f", [numeric.spearman_rs, numeric.kendall_tau_b], ids=["R_s", "tau_b"])
@pytest.mark.parametrize("cm", [[[5]], [[2, 3], [0, 0]], [[2, 0], [3, 0]]],
                         ids=["K=1", "one-true-class", "one-predicted-class"])
def test_fewer_than_two_classes(f, cm):
    """R_s and tau_b divide by a variance that is zero when one class holds every sample."""
    with pytest.raises(ValueError, match="all samples share one true class or one predicted class"):
        f(cm)


def test_r_int_needs_two_samples():
    """r_int needs N >= 2 (card(S_1) = 0 otherwise), not two classes.

    One true class, N = 5: card(S_1) = 5*5 - 5 = 20 (every ordered pair),
    card(S_2) = 2*2 + 2*3 + 3*3 - 5 = 14 = card(S_1 & S_2), so
    r_int = -1 + 2*14/sqrt(20*14) = -1 + 2 sqrt(7/10).
    """
    with pytest.raises(ValueError, match="undefined for a single sample"):
        numeric.r_int([[0, 1], [0, 0]])
    assert numeric.r_int([[2, 3], [0, 0]], arithmetic="exact") == -1 + 2 * sympy.sqrt(sympy.Rational(7, 10))


@pytest.mark.parametrize("f", [numeric.oc, numeric.uoc], ids=["oc", "uoc"])
def test_beta_negative(f):
    with pytest.raises(ValueError, match="beta must be >= 0, got -0.1"):
        f([[1, 0], [0, 1]], -0.1)
    with pytest.raises(ValueError, match="beta must be >= 0"):
        f(np.eye(2, dtype=int)[None].repeat(2, 0), [0.1, -1])


@pytest.mark.parametrize("f", [numeric.oc, numeric.uoc], ids=["oc", "uoc"])
def test_beta_not_finite_or_not_a_number(f):
    with pytest.raises(ValueError, match="beta must be finite, got nan"):
        f([[1, 0], [0, 1]], np.nan)
    with pytest.raises(ValueError, match="beta must be a real number, got 'x'"):
        f([[1, 0], [0, 1]], "x")


def test_beta_does_not_broadcast():
    with pytest.raises(ValueError, match=r"beta of shape \(3,\) does not broadcast against the stack shape \(2,\)"):
        numeric.oc(np.eye(2, dtype=int)[None].repeat(2, 0), [0.1, 0.2, 0.3])


@pytest.mark.parametrize("gamma", [0, -1, np.inf])
@pytest.mark.parametrize("f", [numeric.oc, numeric.uoc], ids=["oc", "uoc"])
def test_gamma_not_positive(f, gamma):
    with pytest.raises(ValueError, match="gamma must be > 0"):
        f([[1, 0], [0, 1]], 0.1, gamma=gamma)


def test_gamma_not_a_number():
    with pytest.raises(ValueError, match="gamma must be a real number, got 'a'"):
        numeric.oc([[1, 0], [0, 1]], 0.1, gamma="a")


def test_mismatched_label_vectors():
    with pytest.raises(ValueError, match="mismatched label vectors: y_true has 3 labels, y_pred has 2"):
        numeric.confusion_matrix([1, 2, 3], [1, 2])


def test_empty_label_vectors_without_labels():
    with pytest.raises(ValueError, match="label vectors are empty and no labels were given"):
        numeric.confusion_matrix([], [])
    # with labels the classes are known: an all-zero matrix (which the metrics reject)
    assert numeric.confusion_matrix([], [], labels=[1, 2]).tolist() == [[0, 0], [0, 0]]


def test_label_vectors_not_1d():
    with pytest.raises(ValueError, match=r"label vectors must be 1-D, got shapes \(1, 2\) and \(2,\)"):
        numeric.confusion_matrix([[1, 2]], [1, 2])


def test_label_outside_labels():
    with pytest.raises(ValueError, match="label 5 in y_pred is not in labels"):
        numeric.confusion_matrix([1, 2], [1, 5], labels=[1, 2, 3])
    with pytest.raises(ValueError, match="label 'z' in y_true is not in labels"):
        numeric.confusion_matrix(["z"], ["a"], labels=["a", "b"])


def test_labels_repeat_or_empty():
    with pytest.raises(ValueError, match="labels must not repeat"):
        numeric.confusion_matrix([1], [1], labels=[1, 1])
    with pytest.raises(ValueError, match="labels must be a non-empty 1-D sequence"):
        numeric.confusion_matrix([1], [1], labels=[])


@ALL
def test_unknown_arithmetic(f):
    with pytest.raises(ValueError, match="arithmetic must be one of 'float', 'exact', 'mp'; got 'decimal'"):
        f([[1, 0], [0, 1]], arithmetic="decimal")


@pytest.mark.parametrize("f", [numeric.amae, numeric.mmae, numeric.macro_rmse])
def test_bad_missing(f):
    with pytest.raises(ValueError, match="missing must be 'ignore' or 'zero', got 'drop'"):
        f([[1, 0], [0, 1]], missing="drop")


def test_path_envelope_bad_metric_and_stack():
    with pytest.raises(ValueError, match="metric must be 'uoc' or 'oc', got 'mae'"):
        numeric.path_envelope([[1, 0], [0, 1]], metric="mae")
    with pytest.raises(ValueError, match="path_envelope takes one matrix, not a stack"):
        numeric.path_envelope(np.eye(2, dtype=int)[None].repeat(2, 0))


def _exception_classes():
    """Every exception or warning class defined in a module of numeric, analytic or
    ordinal_verify (the command line)."""
    found = {}
    for package in ("exactfloor", "numeric", "analytic", "ordinal_verify"):
        pkg = importlib.import_module(package)
        for info in pkgutil.walk_packages(pkg.__path__, package + "."):
            if info.name.endswith(".__main__"):
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if (inspect.isclass(obj) and issubclass(obj, BaseException)
                        and obj.__module__ == info.name):
                    found[f"{info.name}.{name}"] = obj
    return found


def test_every_public_exception_and_warning_is_defined_in_numeric_errors():
    """The rule of exactfloor.errors' docstring: a public exception or warning class of
    numeric, analytic or the command line is defined in exactfloor.errors; a private one
    (leading ``_``) is a signal inside its module.  Before issue 26, LabelWarning was
    defined in numeric/confusion.py, UndefinedResampleWarning in numeric/comparison.py
    and the command line's InputError, OutputError, UserFunctionError in its modules."""
    found = _exception_classes()
    public = {qual for qual, cls in found.items() if not cls.__name__.startswith("_")}
    assert public == {f"exactfloor.errors.{n}" for n in exactfloor.errors.__all__}, sorted(public)
    assert any(cls.__name__.startswith("_") for cls in found.values())  # the rule's exception is real


@pytest.mark.parametrize("module, name", [
    ("numeric", "LabelWarning"), ("numeric.confusion", "LabelWarning"),
    ("numeric", "UndefinedResampleWarning"), ("numeric.comparison", "UndefinedResampleWarning"),
    ("analytic.engines._pl", "UndecidedSign"),
    ("ordinal_verify.inputs", "InputError"), ("ordinal_verify.outputs", "OutputError"),
    ("ordinal_verify.audit_cmd", "UserFunctionError"),
])
def test_old_import_locations_are_the_errors_classes(module, name):
    """The re-exports: importing from the module that issues the warning gives
    the very class of exactfloor.errors, so ``except``/``pytest.warns`` on either works."""
    assert getattr(importlib.import_module(module), name) is getattr(exactfloor.errors, name)


def _small_matrices():
    """Every count matrix with K <= 3 and N <= 2, and with K = 1, 2 and N = 0."""
    import itertools

    out = []
    for K in (1, 2, 3):
        for N in (0, 1, 2):
            out += [np.array(c).reshape(K, K) for c in itertools.product(range(N + 1),
                                                                        repeat=K * K)
                    if sum(c) == N and (N or K < 3)]
    return out


@pytest.mark.parametrize("arithmetic", ["float", "exact"])
def test_a_valid_matrix_raises_only_undefined_metric(arithmetic):
    """Issue 37 item 1: on a valid count matrix a metric either has a value or raises
    exactfloor.errors.UndefinedMetric (its formula undefined: no sample, an empty class it
    divides by, one class); only that is read as "undefined" by the auditor, report and
    compare, so a plain ValueError here would be an "error" there.  Every registered
    metric's every report variant, on every matrix with K <= 3 and N <= 2 (and N = 0)."""
    from exactfloor.errors import UndefinedMetric
    from numeric.registry import matrix_metrics

    seen = set()
    for m in matrix_metrics():
        for v in m.cases():
            f = m.bind(v, arithmetic)
            for cm in _small_matrices():
                try:
                    f(cm)
                except UndefinedMetric:
                    seen.add(m.name)
                except Exception as exc:  # noqa: BLE001 - the test names any other
                    raise AssertionError(f"{m.name} ({v.label}) on {cm.tolist()}: "
                                         f"{type(exc).__name__}: {exc}") from None
    # every metric is undefined somewhere here: at least on the all-zero matrix
    assert seen == {m.name for m in matrix_metrics()}


def test_undefined_and_bad_input_are_told_apart():
    """The all-zero matrix and tau_b with one true class are undefined; a negative count
    and a matrix that is not square are bad input (a plain ValueError)."""
    from exactfloor.errors import UndefinedMetric

    for call in (lambda: numeric.mae([[0, 0], [0, 0]]),
                 lambda: numeric.kendall_tau_b([[2, 1], [0, 0]]),
                 lambda: numeric.stc([[3]]),
                 lambda: numeric.tc_max([0, 2]),
                 lambda: numeric.mae(np.zeros((2, 2, 2), dtype=int))):
        with pytest.raises(UndefinedMetric):
            call()
    for call in (lambda: numeric.mae([[1, -1], [0, 2]]), lambda: numeric.mae([[1, 0, 0]]),
                 lambda: numeric.mae([[1, 0], [0, 1]], arithmetic="nope")):
        with pytest.raises(ValueError) as exc:
            call()
        assert type(exc.value) is ValueError
