"""The metric registry: one record per public metric, read by every consumer.

A metric is registered where it is defined, with the :func:`metric`
decorator; the record says what the metric takes, which direction is better,
whether it is symmetric (unchanged when the confusion matrix is transposed),
its range, its source and its peers in other libraries.  The CLI's
``metrics`` table, :func:`numeric.report`, README's metric table, the test
suite's property, error and arithmetic parametrisations and the property
auditor all iterate over :data:`REGISTRY`; a test fails when a public
function of :mod:`numeric` is neither registered nor listed in
:data:`NOT_METRICS` with the reason (scikit-learn's ``test_common`` pattern).

The decorator also gives every metric the labels form: a metric called with
two 1-D label vectors, ``f(y_true, y_pred, ..., labels=None)``, counts them
with :func:`numeric.confusion_matrix` first.

>>> from numeric.registry import REGISTRY
>>> REGISTRY["mae"].better, REGISTRY["mae"].symmetric, REGISTRY["mae"].source
('lower', True, 'silva2018 eq. 3')
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["Metric", "Variant", "REGISTRY", "NOT_METRICS", "metric", "matrix_metrics",
           "table_beta"]

#: what a metric takes besides the confusion matrix (or label vectors)
INPUTS = ("matrix", "matrix, beta", "matrix, lengths")


@dataclass(frozen=True)
class Variant:
    """One parameterisation of a metric shown in reports.

    ``params`` maps a validated ``int64`` confusion matrix to the keyword
    arguments of the call (a constant dict is allowed).
    """

    label: str
    params: Callable[[np.ndarray], Mapping[str, Any]] | Mapping[str, Any] = field(
        default_factory=dict)

    def kwargs(self, cm) -> dict:
        p = self.params(np.asarray(cm)) if callable(self.params) else self.params
        return dict(p)


@dataclass(frozen=True)
class Metric:
    """The registry record of one metric.

    Attributes
    ----------
    name : str
        The public function's name in :mod:`numeric`.
    function : callable
        The function; ``function(cm, **variant_kwargs, arithmetic=...)``.
    label : str
        Its name in tables ("MAE", "Kendall's tau_b").
    input : {"matrix", "matrix, beta", "matrix, lengths"}
        What it takes besides the confusion matrix.
    better : {"lower", "higher"}
        Which direction is the better classifier.
    symmetric : bool
        True when transposing the confusion matrix never changes the value
        (the tests check both directions: a witness for ``False``).
    bounds : (lo, hi)
        The value range (``None`` for an unbounded side).
    source : str
        The defining equation, by source key and number.
    peers : tuple of str
        Functions of other libraries that compute the same value.
    variants : tuple of Variant
        The parameterisations shown in reports (default: one, no parameters).
    """

    name: str
    function: Callable
    label: str
    input: str
    better: str
    symmetric: bool
    bounds: tuple
    source: str
    peers: tuple = ()
    variants: tuple = ()

    def __post_init__(self):
        if self.better not in ("lower", "higher"):
            raise ValueError(f"better must be 'lower' or 'higher', got {self.better!r}")
        if self.input not in INPUTS:
            raise ValueError(f"input must be one of {INPUTS}, got {self.input!r}")

    def cases(self) -> tuple:
        """The report variants (one unparameterised variant by default)."""
        return self.variants or (Variant(self.label),)


#: name -> :class:`Metric`, filled as the modules of :mod:`numeric` are imported
REGISTRY: dict[str, Metric] = {}

#: public functions of :mod:`numeric` that are not metrics of a confusion matrix, and why
NOT_METRICS = {
    "confusion_matrix": "builds the matrix the metrics take",
    "get_arithmetic": "selects a number system",
    "path_envelope": "UOC/OC as a function of beta (its value at beta is uoc/oc)",
    "optimal_path": "the cells of an optimal path (drawing)",
    "cost_matrix": "a matrix of costs from class counts",
    "tc_max": "the normaliser of STC, from class counts only",
    "tc_max_matrix": "a maximising matrix of TC, from class counts only",
    "hausdorff_distances": "distances between interval classes",
    "interval_cost_matrix": "a matrix of costs from class counts and lengths",
    "interval_tc_max": "the normaliser of interval STC, from class counts and lengths",
    "last_length_pieces": "TC_max as a function of the last interval's length",
    "optimal_last_length": "an optimisation over the last interval's length",
    "report": "every registered metric of one matrix (reads this registry)",
    "compare": "two classifiers' metrics with paired-bootstrap intervals (reads this registry)",
    "plot_uoc": "draws UOC(beta) and shades A_UOC (a figure, not a number)",
}


def _is_label_vector(x) -> bool:
    try:
        return np.ndim(x) == 1
    except ValueError:  # ragged nested sequences: let the metric's checks name it
        return False


def _accept_labels(fn):
    """``fn(cm, ...)`` also as ``fn(y_true, y_pred, ..., labels=None)``."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(cm, *args, labels=None, **kwargs):
        if args and _is_label_vector(cm) and _is_label_vector(args[0]):
            from .confusion import confusion_matrix

            cm = confusion_matrix(cm, args[0], labels=labels)
            args = args[1:]
        elif labels is not None:
            raise ValueError("labels= is for label vectors: call f(y_true, y_pred, labels=...)")
        return fn(cm, *args, **kwargs)

    params = list(sig.parameters.values())
    first = params[0].replace(name="cm")
    labels_param = inspect.Parameter("labels", inspect.Parameter.KEYWORD_ONLY, default=None)
    wrapper.__signature__ = sig.replace(parameters=[first, *params[1:], labels_param])
    return wrapper


def metric(*, label: str, better: str, symmetric: bool, bounds: tuple, source: str,
           input: str = "matrix", peers: tuple = (), variants: tuple = ()):
    """Register the decorated function in :data:`REGISTRY` (see :class:`Metric`)."""

    def deco(fn):
        wrapped = _accept_labels(fn)
        if fn.__name__ in REGISTRY:
            raise ValueError(f"metric {fn.__name__!r} is registered twice")
        REGISTRY[fn.__name__] = Metric(
            name=fn.__name__, function=wrapped, label=label, input=input, better=better,
            symmetric=symmetric, bounds=tuple(bounds), source=source, peers=tuple(peers),
            variants=tuple(variants))
        return wrapped

    return deco


def matrix_metrics() -> list[Metric]:
    """The registered metrics that need nothing but the matrix (their variants
    supply any parameter), in registration order."""
    import numeric  # noqa: F401  (registers everything)

    return [m for m in REGISTRY.values() if m.input in ("matrix", "matrix, beta")]


def table_beta(numerator) -> Callable[[np.ndarray], dict]:
    """``beta = numerator / (N (K - 1))``, the scale of cardoso2011's tables
    (``numerator / N`` for K = 1, where beta has no effect)."""
    num = Fraction(str(numerator))

    def params(cm):
        N, K = int(np.asarray(cm).sum()), np.shape(cm)[-1]
        return {"beta": num / (N * max(K - 1, 1))}

    return params
