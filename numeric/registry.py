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
two 1-D label vectors, ``f(y_true, y_pred, ..., labels=None,
sample_weight=None)``, counts them with :func:`numeric.confusion_matrix`
first.  ``sample_weight`` are frequency weights: non-negative integers, a
weight of 3 counting its sample three times (the metrics are defined on
counts), so integer weights and repeated rows give the same matrix and the
same value.

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

from .markdown import table as markdown_table

__all__ = ["Metric", "Variant", "REGISTRY", "NOT_METRICS", "metric", "matrix_metrics",
           "table_beta", "consecutive_lengths"]

#: what a metric takes: a confusion matrix (or label vectors), possibly with a
#: parameter, or ``"probabilities"``: true labels and predicted class
#: probabilities ``(..., N, K)`` (no confusion matrix; not in :func:`matrix_metrics`)
INPUTS = ("matrix", "matrix, beta", "matrix, lengths", "probabilities")


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
    input : {"matrix", "matrix, beta", "matrix, lengths", "probabilities"}
        What it takes besides the confusion matrix; ``"probabilities"``: no
        confusion matrix but ``(y_true, proba)`` (the function handles its own
        ``labels=``).
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

    @property
    def takes_matrix(self) -> bool:
        """True unless the metric takes probabilities instead of a confusion matrix."""
        return self.input != "probabilities"

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
    "compare_groups": "two classifiers' metrics over groups (folds, seeds): per-group values, "
                      "means, corrected t or group-bootstrap intervals (reads this registry)",
    "ordinal_scorer": "a scikit-learn scorer of a registered metric, negated when lower is better",
    "scorer_names": "the names ordinal_scorer accepts (neg_ for lower-is-better metrics)",
}


#: the refusal of fractional ``sample_weight`` by every metric (one message, one reason)
FRACTIONAL_WEIGHTS = (
    "{name}: sample_weight must hold whole numbers (frequency weights: a weight of 3 counts its "
    "sample three times): the metrics are defined on a confusion matrix of counts (their exact "
    "arithmetic and the optimal paths of OC/UOC need integer cells), so fractional weights are "
    "refused. For scikit-learn's class_weight='balanced', pass "
    "sample_weight=numeric.weights.balanced_weights(y_true) (whole numbers proportional to scikit-learn's: "
    "the same value for every metric unchanged by scaling the matrix), or use the class-averaged "
    "metric (AMAE is MAE with balanced weights); other rational weights: multiply them by a "
    "common denominator")


def _is_label_vector(x) -> bool:
    try:
        return np.ndim(x) == 1
    except ValueError:  # ragged nested sequences: let the metric's checks name it
        return False


def _describe(x):
    """``x`` in an error message: its shape, or the scalar."""
    try:
        shape = np.shape(x)
    except ValueError:
        return "a ragged sequence"
    return f"a scalar ({x!r:.40})" if shape == () else f"of shape {shape}"


def _accept_labels(fn):
    """``fn(cm, ...)`` also as ``fn(y_true, y_pred, ..., labels=None)``."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(cm, *args, labels=None, sample_weight=None, **kwargs):
        if args and _is_label_vector(cm) and _is_label_vector(args[0]):
            from .confusion import confusion_matrix

            cm = confusion_matrix(cm, args[0], labels=labels, sample_weight=sample_weight)
            if cm.dtype.kind == "f":  # weights that are not whole numbers
                raise ValueError(FRACTIONAL_WEIGHTS.format(name=fn.__name__))
            args = args[1:]
        elif args and _is_label_vector(cm):
            raise ValueError(
                f"{fn.__name__}(y_true, y_pred, ...) needs two 1-D label vectors of the same "
                f"length: y_true has {len(cm)} labels but y_pred is {_describe(args[0])}. Pass "
                "y_pred, or a K x K confusion matrix as the first argument")
        elif labels is not None:
            raise ValueError("labels= is for label vectors: call f(y_true, y_pred, labels=...)")
        elif sample_weight is not None:
            raise ValueError("sample_weight= is for label vectors: call "
                             "f(y_true, y_pred, sample_weight=...)")
        return fn(cm, *args, **kwargs)

    params = list(sig.parameters.values())
    first = params[0].replace(name="cm")
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
             for name in ("labels", "sample_weight")]
    wrapper.__signature__ = sig.replace(parameters=[first, *params[1:], *extra])
    return wrapper


def metric(*, label: str, better: str, symmetric: bool, bounds: tuple, source: str,
           input: str = "matrix", peers: tuple = (), variants: tuple = ()):
    """Register the decorated function in :data:`REGISTRY` (see :class:`Metric`)."""

    def deco(fn):
        wrapped = fn if input == "probabilities" else _accept_labels(fn)
        old = REGISTRY.get(fn.__name__)
        if old is not None:
            if old.function.__module__ != fn.__module__:
                raise ValueError(f"metric {fn.__name__!r} is registered twice "
                                 f"({old.function.__module__} and {fn.__module__})")
            # the same module imported a second time (doctest collection of a
            # module file): keep the record :mod:`numeric` exports
            return wrapped
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


def consecutive_lengths(cm) -> dict:
    """``lengths = 1, 2, ..., K``: interval classes of growing length (a report
    and test parameterisation of the interval metrics)."""
    return {"lengths": [Fraction(k) for k in range(1, np.shape(cm)[-1] + 1)]}


def table_beta(numerator) -> Callable[[np.ndarray], dict]:
    """``beta = numerator / (N (K - 1))``, the scale of cardoso2011's tables
    (``numerator / N`` for K = 1, where beta has no effect)."""
    num = Fraction(str(numerator))

    def params(cm):
        N, K = int(np.asarray(cm).sum()), np.shape(cm)[-1]
        return {"beta": num / (N * max(K - 1, 1))}

    return params


# ---------------------------------------------------------------------------
# README's tables, generated (``python -m numeric --write-readme README.md``)
# ---------------------------------------------------------------------------
_BEGIN, _END = "<!-- registry:begin -->", "<!-- registry:end -->"


def markdown_tables() -> str:
    """README's metric table and its table of the other public functions."""
    import numeric

    def fmt_bounds(b):
        lo, hi = (("-inf" if b[0] is None else b[0]), ("inf" if b[1] is None else b[1]))
        return f"[{lo}, {hi}]"

    metrics = markdown_table(
        ["function", "metric", "input", "better", "symmetric", "range", "source", "peers"],
        [[f"`{m.name}`", m.label, m.input, m.better, "yes" if m.symmetric else "no",
          fmt_bounds(m.bounds), m.source, ", ".join(f"`{p}`" for p in m.peers) or "—"]
         for m in REGISTRY.values()])
    others = markdown_table(["function", "what it is"],
                            [[f"`{name}`", NOT_METRICS[name]] for name in sorted(NOT_METRICS)
                             if name in numeric.__all__])
    return f"{metrics}\n\nOther public functions of `numeric` (not metrics of a confusion matrix):\n\n{others}"


def readme_block() -> str:
    """The generated block, with its markers, as it stands in README.md."""
    return f"{_BEGIN}\n{markdown_tables()}\n{_END}"


def write_readme(path) -> None:
    """Replace the generated block of ``path`` (between the markers)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start, end = text.index(_BEGIN), text.index(_END) + len(_END)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text[:start] + readme_block() + text[end:])

