"""The metric registry: one record per public metric, read by every consumer.

A metric is registered where it is defined, with the :func:`metric`
decorator, in one of the modules listed in :data:`METRIC_MODULES` (the
registry imports them itself on first use: registration does not depend on
what :mod:`numeric`'s ``__init__`` imports).  The record says what the
metric takes, which direction is better, whether it is symmetric (unchanged
when the confusion matrix is transposed), its range, its source and its
peers in other libraries; :meth:`Metric.bind` fixes a report variant and an
arithmetic (a function of one matrix).  The CLI's
``metrics`` table, :func:`numeric.report`, the metric table of docs/metrics.md, the test
suite's property, error and arithmetic parametrisations and the property
auditor all iterate over :data:`REGISTRY`; a test fails when a public
function of :mod:`numeric` is neither registered nor listed in
:data:`NOT_METRICS` with the reason (scikit-learn's ``test_common`` pattern).

The decorator also gives every metric the labels form: a metric called with
two 1-D label vectors, ``f(y_true, y_pred, ..., labels=None,
sample_weight=None)``, counts them with :func:`numeric.confusion_matrix`
first.  ``sample_weight`` are non-negative weights, added to each sample's
cell instead of 1: whole-number weights are frequency weights (a weight of 3
counts its sample three times, so integer weights and repeated rows give the
same matrix and the same value).  Every metric whose formula is defined on a
matrix of real weighted counts and does not change when every count is
multiplied by the same number also takes fractional weights, in float
arithmetic, as scikit-learn does, and rational ones (``fractions.Fraction``,
SymPy ``Rational``) in exact and mp arithmetic (:func:`_rational_weights`).  A metric
that needs whole-number weights says why in its record
(:attr:`Metric.integer_weights`, :data:`INTEGER_WEIGHT_METRICS`: r_int)
and refuses fractional ones with that reason.

>>> from numeric.registry import REGISTRY
>>> REGISTRY["mae"].better, REGISTRY["mae"].symmetric, REGISTRY["mae"].source
('lower', True, 'silva2018 eq. 3')
"""

from __future__ import annotations

import functools
import inspect
import numbers
import textwrap
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from exactfloor.errors import UndefinedMetric
from .markdown import table as markdown_table

__all__ = ["Metric", "Variant", "REGISTRY", "METRIC_MODULES", "NOT_METRICS", "INTEGER_WEIGHT_METRICS", "metric",
           "matrix_metrics", "TableBeta", "table_beta", "consecutive_lengths"]

#: what a metric takes: a confusion matrix (or label vectors), possibly with a
#: parameter, or ``"probabilities"``: true labels and predicted class
#: probabilities ``(..., N, K)`` (no confusion matrix; not in :func:`matrix_metrics`)
INPUTS = ("matrix", "matrix, beta", "matrix, lengths", "probabilities")


@dataclass(frozen=True)
class Variant:
    """One parameterisation of a metric shown in reports.

    Parameters
    ----------
    label : str
        Its name in tables.
    params : callable or mapping, optional
        Maps a validated ``int64`` confusion matrix to the keyword arguments
        of the call (a constant dict is allowed; default none).

    Examples
    --------
    >>> v = REGISTRY["oc"].variants[0]
    >>> v.label, v.kwargs([[1, 1], [0, 1]])
    ('OC, beta=0.25/(N(K-1))', {'beta': Fraction(1, 12)})
    >>> Variant("UOC, beta=1/4", {"beta": 0.25}).kwargs([[1, 0], [0, 1]])
    {'beta': 0.25}
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

    Made by the decorator :func:`metric`; read from :data:`REGISTRY`.

    Parameters
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
    integer_weights : str
        Why the metric takes whole-number ``sample_weight`` only (the
        refusal of fractional weights states it); empty (the default) when it
        takes fractional weights too (:attr:`fractional`).
    weight_scale : callable or None
        ``weight_scale(params, L)``: the metric's keyword parameters for the
        matrix of every weight times ``L`` that give the value of the
        original weights (OC: ``beta / L``); None when the value does not
        change when every count is multiplied by ``L``.

    Examples
    --------
    >>> m = REGISTRY["mae"]
    >>> m.name, m.label, m.better, m.bounds, m.source
    ('mae', 'MAE', 'lower', (0, None), 'silva2018 eq. 3')
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
    integer_weights: str = ""
    weight_scale: Callable | None = None

    def __post_init__(self):
        if self.better not in ("lower", "higher"):
            raise ValueError(f"better must be 'lower' or 'higher', got {self.better!r}")
        if self.input not in INPUTS:
            raise ValueError(f"input must be one of {INPUTS}, got {self.input!r}")
        if not isinstance(self.integer_weights, str):
            raise ValueError("integer_weights is the reason the metric needs whole-number "
                             f"weights (a str, '' for none), got {self.integer_weights!r}")

    @property
    def fractional(self) -> bool:
        """True when the metric takes fractional ``sample_weight`` (float arithmetic;
        rational weights in exact arithmetic): no :attr:`integer_weights` reason."""
        return not self.integer_weights

    @property
    def takes_matrix(self) -> bool:
        """True unless the metric takes probabilities instead of a confusion matrix."""
        return self.input != "probabilities"

    def cases(self) -> tuple:
        """The report variants (one unparameterised variant by default)."""
        return self.variants or (Variant(self.label),)

    def variant(self, which=0) -> Variant:
        """One report variant, by its index in :meth:`cases` or by its label.

        Parameters
        ----------
        which : int, str or Variant
            An index ``0 .. len(cases()) - 1``, a variant's label, or one of
            this metric's own :class:`Variant` records.

        Returns
        -------
        Variant

        Raises
        ------
        ValueError
            No such variant (the message lists the labels).

        Examples
        --------
        >>> from numeric.registry import REGISTRY
        >>> REGISTRY["oc"].variant(1).label
        'OC, beta=0.75/(N(K-1))'
        >>> REGISTRY["oc"].variant("OC, beta=0.25/(N(K-1))") is REGISTRY["oc"].cases()[0]
        True
        """
        cases = self.cases()
        labels = [v.label for v in cases]
        if isinstance(which, Variant) or hasattr(which, "kwargs"):  # a record (of any copy of this module)
            if not any(which is v for v in cases) and which not in cases:
                raise ValueError(f"{which.label!r} is not a variant of {self.name}; "
                                 f"expected one of {labels}")
            return which
        if isinstance(which, str):
            if which not in labels:
                raise ValueError(f"{self.name} has no variant {which!r}; expected one of {labels}")
            return cases[labels.index(which)]
        if isinstance(which, (bool, np.bool_)) or not isinstance(which, numbers.Integral) \
                or not 0 <= which < len(cases):
            raise ValueError(f"variant must be a label or an index 0..{len(cases) - 1} of "
                             f"{labels}, got {which!r}")
        return cases[int(which)]

    def bind(self, variant=0, arithmetic="float") -> Callable[[Any], Any]:
        """The metric as a function of one confusion matrix: a report variant's
        parameters and an arithmetic fixed.

        ``bind(v, a)(cm)`` is ``function(cm, **v.kwargs(cm), arithmetic=a)``:
        the variant's parameters are computed from each matrix (OC's table
        beta depends on ``N`` and ``K``), so the callable takes one ``K x K``
        matrix, not a stack.  The auditor, lesson 7 and the table claims bind
        their variants here.

        Parameters
        ----------
        variant : int, str or Variant
            Which report variant (:meth:`variant`; default the first).
        arithmetic : str or numeric arithmetic context
            ``"float"``, ``"exact"``, ``"mp"`` or a context such as
            :class:`numeric._symbolic.SymbolicArithmetic`; checked now.

        Returns
        -------
        callable
            ``f(cm)`` returning the metric's value; it raises the metric's
            :class:`~exactfloor.errors.UndefinedMetric` where the metric is undefined.

        Raises
        ------
        ValueError
            An unknown variant or arithmetic.

        Examples
        --------
        >>> import numeric
        >>> from numeric.registry import REGISTRY
        >>> oc = REGISTRY["oc"].bind("OC, beta=0.25/(N(K-1))", "exact")
        >>> oc([[3, 1], [0, 4]]) == numeric.oc([[3, 1], [0, 4]], 0.25 / (8 * 1), arithmetic="exact")
        True
        >>> REGISTRY["mae"].bind(arithmetic="exact")([[3, 1], [0, 4]])
        1/8
        """
        from exactfloor.arith import get_arithmetic

        v = self.variant(variant)
        get_arithmetic(arithmetic)  # an unknown arithmetic fails here, not at the first call
        function = self.function

        def bound(cm):
            return function(cm, **v.kwargs(cm), arithmetic=arithmetic)

        bound.__name__ = self.name
        bound.__qualname__ = f"{self.name}[{v.label}]"
        bound.__doc__ = f"{v.label} of one confusion matrix, arithmetic={arithmetic!r} ({self.name})."
        return bound


#: the modules of :mod:`numeric` that define metrics, in the order of the
#: registry (docs/metrics.md's table, reports): a metric is registered by its
#: :func:`metric` decorator in one of these modules, and a test fails when a
#: module of :mod:`numeric` decorates a metric but is not listed here
METRIC_MODULES = ("classical", "paths", "ranking", "cost", "intervals", "agreement",
                  "association", "cem", "probabilistic", "sensitivity", "extremes")

#: the attribute by which :func:`metric` marks a function with its record
_RECORD = "registry_record"


class _Registry(MutableMapping):
    """name -> :class:`Metric`, read from :data:`METRIC_MODULES` on first use.

    Registration does not depend on which modules happen to be imported: the
    first lookup imports every module of :data:`METRIC_MODULES` and collects
    the functions its :func:`metric` decorator marked, module by module in
    definition order.  A metric defined elsewhere is added explicitly,
    ``REGISTRY[record.name] = record`` (a :class:`Metric`; a decorated
    function carries it as ``registry_record``), after the package's own.
    """

    def __init__(self, modules):
        self._modules = tuple(modules)
        self._records = None

    def _load(self) -> dict:
        if self._records is not None:
            return self._records
        import importlib

        records, complete = {}, True
        for name in self._modules:
            module = importlib.import_module(f"{__package__}.{name}")
            spec = getattr(module, "__spec__", None)
            complete &= not getattr(spec, "_initializing", False)  # a lookup during an import
            for obj in list(vars(module).values()):
                rec = getattr(obj, _RECORD, None)
                if rec is None or rec.function is not obj or obj.__module__ != module.__name__:
                    continue  # not a metric, or one imported from another module
                old = records.get(rec.name)
                if old is not None and old is not rec:
                    raise ValueError(f"metric {rec.name!r} is registered twice "
                                     f"({old.function.__module__} and {obj.__module__})")
                records[rec.name] = rec
        if complete:
            self._records = records
        return records

    def __getitem__(self, name) -> Metric:
        return self._load()[name]

    def __setitem__(self, name, record) -> None:
        if getattr(record, "name", None) != name or not callable(getattr(record, "function", None)):
            raise ValueError(f"REGISTRY[{name!r}] takes the Metric record named {name!r}, got {record!r:.80}")
        records = self._load()
        if self._records is None:
            raise RuntimeError("a metric cannot be added while the metric modules are being imported")
        records[name] = record

    def __delitem__(self, name) -> None:
        del self._load()[name]

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return f"REGISTRY({list(self)})"


#: name -> :class:`Metric` of every metric of :data:`METRIC_MODULES` (and of any added at run time)
REGISTRY: MutableMapping[str, Metric] = _Registry(METRIC_MODULES)

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
    "study": "several methods over many datasets: every metric per dataset (mean over folds), "
             "ranks, Friedman, Iman-Davenport, Nemenyi, Holm and Wilcoxon (demsar2006; reads "
             "this registry)",
}


#: the refusal of fractional ``sample_weight`` by a metric that needs whole-number weights
#: (``reason``: its record's :attr:`Metric.integer_weights`)
FRACTIONAL_WEIGHTS = (
    "{name}: sample_weight must hold whole numbers here (frequency weights: a weight of 3 "
    "counts its sample three times), not fractions: {reason}")


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


#: the metrics that take whole-number ``sample_weight`` only, each with its reason
#: (:attr:`Metric.integer_weights`; every other metric of a matrix takes fractional weights,
#: proofs_tests/test_fractional_weights.py)
INTEGER_WEIGHT_METRICS = ("r_int",)

#: a fractional ``sample_weight`` of floats with another arithmetic than float
FRACTIONAL_FLOAT_ONLY = (
    "{name}: fractional float sample_weight is taken in float arithmetic only "
    "(arithmetic='float'); in another arithmetic pass the weights as rationals "
    "(fractions.Fraction or SymPy Rational), or multiply them by a common denominator")


def _rational_weights(sample_weight, name):
    """Rational ``sample_weight`` (``fractions.Fraction``, SymPy ``Rational``, int) as whole
    numbers: each times the least common multiple :math:`L` of their denominators, or None
    when a weight is a float or not a rational (the float path decides).

    The metrics that take fractional weights do not change when every count is multiplied
    by :math:`L` (their ``scale`` property; OC's beta is divided by :math:`L`, its
    ``weight_scale`` hook), so the matrix of ``L w`` gives their exact value.

    Returns ``(whole, L)``: the ``int64`` weights ``L w`` and :math:`L`.

    >>> from fractions import Fraction
    >>> whole, L = _rational_weights([Fraction(1, 2), Fraction(2, 3), 1], "mae")
    >>> whole.tolist(), L
    ([3, 4, 6], 6)
    >>> _rational_weights([0.5, 1.0], "mae") is None
    True
    """
    import math
    from fractions import Fraction
    from numbers import Rational

    try:
        vals = list(np.asarray(sample_weight, dtype=object).reshape(-1))
    except (TypeError, ValueError):
        return None
    out = []
    for v in vals:
        if isinstance(v, bool) or isinstance(v, (float, np.floating)):
            return None
        if isinstance(v, (Rational, np.integer)):
            out.append(Fraction(int(v)) if isinstance(v, np.integer) else Fraction(v))
        elif getattr(v, "is_Rational", False):          # SymPy Integer / Rational
            out.append(Fraction(int(v.p), int(v.q)))
        else:
            return None
    if any(w < 0 for w in out):
        raise ValueError(f"{name}: sample_weight must be non-negative")
    L = math.lcm(*(w.denominator for w in out)) if out else 1
    scaled = [int(w * L) for w in out]
    if sum(scaled) > np.iinfo(np.int64).max:
        raise ValueError(f"{name}: the rational sample_weight times the common denominator of "
                         f"its weights ({L}) has counts too large for int64")
    return np.asarray(scaled, dtype=np.int64), L


#: the Parameters entries every metric of a matrix shares (numpydoc), written into its
#: docstring by :func:`metric` where the docstring does not document the name itself
SHARED_PARAMETERS = {
    "cm": ("cm : array_like, shape (K, K) or (..., K, K)",
           "Counts, ``cm[i, j]``: true class ``i`` predicted as ``j`` (a stack of matrices "
           "along the leading axes).  Or, with ``y_pred``, the true labels ``y_true``."),
    "y_pred": ("y_pred : array_like, shape (n_samples,), optional",
               "The predicted labels, after the true labels: ``f(y_true, y_pred)`` counts them "
               "into a matrix (:func:`numeric.confusion_matrix`, rows the true class)."),
    "y_true": ("y_true : array_like, shape (n_samples,), optional",
               "The true labels by keyword: ``f(y_true=..., y_pred=...)``."),
    "arithmetic": ('arithmetic : {"float", "exact", "mp"}, default "float"',
                   "The number system (:func:`numeric.get_arithmetic`): float64, exact "
                   "rationals (SymPy where a root is needed), or mpmath at its precision."),
    "labels": ("labels : array_like, optional",
               "With label vectors only: the classes, in order (the matrix's rows and "
               "columns; a class never seen is kept).  Default: the sorted labels seen."),
    "sample_weight": ("sample_weight : array_like, optional",
                      "With label vectors only: non-negative weights, added to each sample's "
                      "cell instead of 1 (a whole number k counts its sample k times); "
                      "fractional ones as floats in float arithmetic, as "
                      "``fractions.Fraction`` or SymPy ``Rational`` in exact arithmetic "
                      "(refused, with the reason, by the metrics of "
                      "``numeric.registry.INTEGER_WEIGHT_METRICS``)."),
}

_SECTION_ORDER = ("Parameters", "Returns", "Yields", "Raises", "Warns", "Warnings", "See Also",
                  "Notes", "References", "Examples")


def _sections(lines):
    """``{title: line index}`` of the numpydoc section headers in ``lines``."""
    return {lines[i].strip(): i for i in range(len(lines) - 1)
            if lines[i].strip() in _SECTION_ORDER and lines[i + 1].strip()
            and set(lines[i + 1].strip()) == {"-"}}


def _insert_section(lines, title, body):
    """``lines`` with the section ``title`` (its ``body`` lines) before the first later section."""
    found = _sections(lines)
    later = [found[t] for t in _SECTION_ORDER[_SECTION_ORDER.index(title) + 1:] if t in found]
    at = min(later) if later else len(lines)
    block = [title, "-" * len(title), *body, ""]
    if at and lines[at - 1].strip():
        block.insert(0, "")
    return lines[:at] + block + lines[at:]


def _document_call_forms(doc, sig, record):
    """The metric's docstring with the Parameters entries of :data:`SHARED_PARAMETERS` it lacks
    (in the signature's order) and, when it has none, a Returns section from ``record``."""
    lines = inspect.cleandoc(doc or "").splitlines()
    found = _sections(lines)
    entries, start, end = {}, None, None
    if "Parameters" in found:
        start = found["Parameters"] + 2
        later = [i for i in found.values() if i > found["Parameters"]]
        end = min(later) if later else len(lines)
        name = None
        for line in lines[start:end]:
            if line and not line[0].isspace():
                name = line.split(":")[0].strip()
                entries[name] = [line]
            elif name is not None:
                entries[name].append(line)
        lines = lines[:start - 2] + lines[end:]
    for entry in entries.values():
        while entry and not entry[-1].strip():
            entry.pop()
    body = []
    for name in sig.parameters:
        entry = entries.pop(name, [])
        if len(entry) < 2 and name in SHARED_PARAMETERS:  # not documented, or a type alone
            head, text = SHARED_PARAMETERS[name]
            entry = [head, *textwrap.wrap(text, 76, initial_indent="    ", subsequent_indent="    ")]
        body += entry
    for rest in entries.values():  # documented but not in the signature: kept, numpydoc names it
        body += rest
    lines = _insert_section(lines, "Parameters", body)
    if "Returns" not in _sections(lines):
        lo = "-inf" if record.bounds[0] is None else record.bounds[0]
        hi = "inf" if record.bounds[1] is None else record.bounds[1]
        lines = _insert_section(lines, "Returns", [
            "value : float, or the arithmetic's number; an array for a stack",
            f"    {record.label} in [{lo}, {hi}]; {record.better} is better."])
    return "\n".join(lines).rstrip() + "\n"


def _accept_labels(fn, integer_weights="", weight_scale=None):
    """``fn(cm, ...)`` also as ``fn(y_true, y_pred, ..., labels=None, sample_weight=None)``;
    a fractional ``sample_weight`` gives a float matrix of weighted counts (float
    arithmetic) or, rational in exact arithmetic, the matrix of ``L w``
    (:func:`_rational_weights`, the metric's parameters passed through ``weight_scale``);
    refused with the reason ``integer_weights`` when it is not empty.

    The wrapper's signature tells both call forms (``inspect.signature(f).bind``
    accepts each): the first parameter is the matrix ``cm`` or, positionally,
    ``y_true``; the second ``y_pred`` (omitted with a matrix); ``y_true=`` and
    ``y_pred=`` may also be given by keyword.  The wrapped metric's own
    positional parameters (``beta`` of OC, ``lengths`` of interval TC) follow,
    with ``None`` as their default in the signature only (Python allows no
    required parameter after an optional one): the metric still needs them.
    """
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    name = fn.__name__
    fractional = not integer_weights
    own = [p.name for p in params[1:]
           if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        args = list(args)
        cm, y_true, y_pred = (kwargs.pop(k, None) for k in ("cm", "y_true", "y_pred"))
        labels, sample_weight = kwargs.pop("labels", None), kwargs.pop("sample_weight", None)
        if y_true is not None or y_pred is not None:   # the label form by keyword
            if cm is not None:
                raise TypeError(f"{name}() takes a matrix cm or label vectors y_true and y_pred, not both")
            if y_true is None:
                if not args:
                    raise TypeError(f"{name}() got y_pred= but no y_true")
                y_true = args.pop(0)
            elif args and _is_label_vector(args[0]) and y_pred is None:
                raise TypeError(f"{name}() got y_true= and a positional y_pred: give both by keyword")
            if y_pred is None:
                raise TypeError(f"{name}() got y_true= but no y_pred")
            cm, args = y_true, [y_pred, *args]
        elif cm is None:
            if not args:
                raise TypeError(f"{name}() missing the confusion matrix cm (or the label vectors "
                                "y_true and y_pred)")
            cm = args.pop(0)
        if args and _is_label_vector(cm) and _is_label_vector(args[0]):
            from .confusion import confusion_matrix

            if fractional and sample_weight is not None and \
                    kwargs.get("arithmetic", "float") != "float":
                # rational weights in exact (or mp) arithmetic: the matrix of L w, the same value
                # (the metric's parameters rescaled by its weight_scale, if it has one)
                rational = _rational_weights(sample_weight, fn.__name__)
                if rational is not None:
                    sample_weight, L = rational
                    if weight_scale is not None and L != 1 and len(args) <= len(own) + 1:
                        given = dict(zip(own[:len(args) - 1], args[1:], strict=True))
                        kwargs = weight_scale({**given, **kwargs}, L)
                        args = args[:1]
            cm = confusion_matrix(cm, args[0], labels=labels, sample_weight=sample_weight)
            args = args[1:]
            if cm.dtype.kind == "f":  # weights that are not whole numbers
                if not fractional:
                    raise ValueError(FRACTIONAL_WEIGHTS.format(name=fn.__name__,
                                                               reason=integer_weights))
                if kwargs.get("arithmetic", "float") != "float":
                    raise ValueError(FRACTIONAL_FLOAT_ONLY.format(name=fn.__name__))
                from ._validation import fractional_counts

                with fractional_counts():
                    return fn(cm, *args, **kwargs)
        elif args and _is_label_vector(cm):
            raise ValueError(
                f"{name}(y_true, y_pred, ...) needs two 1-D label vectors of the same "
                f"length: y_true has {len(cm)} labels but y_pred is {_describe(args[0])}. Pass "
                "y_pred, or a K x K confusion matrix as the first argument")
        elif labels is not None:
            raise ValueError("labels= is for label vectors: call f(y_true, y_pred, labels=...)")
        elif sample_weight is not None:
            raise ValueError("sample_weight= is for label vectors: call "
                             "f(y_true, y_pred, sample_weight=...)")
        return fn(cm, *args, **kwargs)

    P = inspect.Parameter
    positional = [p.replace(default=None) if p.default is P.empty else p
                  for p in params[1:] if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    keyword = [p for p in params[1:] if p.kind is P.KEYWORD_ONLY]
    wrapper.__signature__ = sig.replace(parameters=[
        P("cm", P.POSITIONAL_OR_KEYWORD, default=None),
        P("y_pred", P.POSITIONAL_OR_KEYWORD, default=None),
        *(p.replace(kind=P.POSITIONAL_OR_KEYWORD) for p in positional),
        P("y_true", P.KEYWORD_ONLY, default=None),
        *keyword,
        *(P(k, P.KEYWORD_ONLY, default=None) for k in ("labels", "sample_weight"))])
    return wrapper


def metric(*, label: str, better: str, symmetric: bool, bounds: tuple, source: str,
           input: str = "matrix", peers: tuple = (), variants: tuple = (),
           integer_weights: str = "", weight_scale: Callable | None = None):
    """Mark the decorated function as a metric with its :class:`Metric` record.

    A metric of a matrix takes fractional ``sample_weight`` (float arithmetic;
    rational weights in exact arithmetic, as the matrix of the weights times
    their common denominator ``L``) unless ``integer_weights`` says why it
    needs whole numbers.  Its value must then not change when every count is
    multiplied by ``L``, or ``weight_scale(params, L)`` returns the keyword
    parameters that compensate (OC: ``beta / L``);
    ``proofs_tests/test_fractional_weights.py`` checks both for every metric.

    :data:`REGISTRY` collects the marked functions (their attribute
    ``registry_record``) of the modules listed in :data:`METRIC_MODULES`: a
    metric in another module of :mod:`numeric` is not registered, and
    ``proofs_tests/test_registry.py`` fails; outside the package, add it
    with ``REGISTRY[f.registry_record.name] = f.registry_record``.  The
    returned function also accepts label vectors (``f(y_true, y_pred,
    labels=...)``) unless ``input="probabilities"``.

    Parameters
    ----------
    label, better, symmetric, bounds, source, input, peers, variants, integer_weights, weight_scale
        The fields of the :class:`Metric` record (its ``name`` and
        ``function`` are the decorated function's).

    Returns
    -------
    callable
        The decorator; it returns the function wrapped to accept label
        vectors, with its record as the attribute ``registry_record``.

    Examples
    --------
    >>> @metric(label="one", better="lower", symmetric=True, bounds=(1, 1), source="none 2000")
    ... def one(cm, *, arithmetic="float"):
    ...     return 1
    >>> one.registry_record.label, one([0, 1], [1, 1])
    ('one', 1)
    """

    def deco(fn):
        wrapped = (fn if input == "probabilities"
                   else _accept_labels(fn, integer_weights, weight_scale))
        record = Metric(
            name=fn.__name__, function=wrapped, label=label, input=input, better=better,
            symmetric=symmetric, bounds=tuple(bounds), source=source, peers=tuple(peers),
            variants=tuple(variants), integer_weights=integer_weights,
            weight_scale=weight_scale)
        setattr(wrapped, _RECORD, record)
        if wrapped is not fn:  # the call forms the wrapper adds, documented once, here
            wrapped.__doc__ = _document_call_forms(fn.__doc__, inspect.signature(wrapped), record)
        return wrapped

    return deco


def matrix_metrics() -> list[Metric]:
    """The registered metrics that need nothing but the matrix (their variants
    supply any parameter), in registration order.

    Returns
    -------
    list of Metric
        Their records.

    Examples
    --------
    >>> [m.name for m in matrix_metrics()][:3]
    ['mer', 'mae', 'mse']
    """
    return [m for m in REGISTRY.values() if m.input in ("matrix", "matrix, beta")]


def consecutive_lengths(cm) -> dict:
    """``lengths = 1, 2, ..., K``: interval classes of growing length (a report
    and test parameterisation of the interval metrics).

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        A confusion matrix (only its ``K`` is read).

    Returns
    -------
    dict
        ``{"lengths": [1, ..., K]}`` as Fractions.

    Examples
    --------
    >>> consecutive_lengths([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    {'lengths': [Fraction(1, 1), Fraction(2, 1), Fraction(3, 1)]}
    """
    return {"lengths": [Fraction(k) for k in range(1, np.shape(cm)[-1] + 1)]}


@dataclass(frozen=True)
class TableBeta:
    """OC's beta on cardoso2011's scale: ``beta = numerator / (N (K - 1)^gamma)``.

    cardoso2011 (§4 and the captions of Tables 1-5) and silva2018 (Table I's
    OC columns) give OC's beta as a fraction (0.25, 0.75) of ``N (K-1)^gamma``,
    "the maximum possible value for the penalization term".  The one
    definition: the registry's OC variants, the table claims of both papers
    and the lessons read it from here.  Called on a matrix, it is a
    :class:`Variant`'s parameters ``{"beta": ...}``; :meth:`beta` is the value.

    For ``K = 1`` (where beta has no effect on OC) the factor ``K - 1`` is
    taken as 1, so the value is ``numerator / N``.

    Parameters
    ----------
    numerator : fractions.Fraction
        The fraction of ``N (K-1)^gamma`` (0.25, 0.75 in the papers).
    gamma : int, optional
        OC's ``gamma`` (default 1).

    Examples
    --------
    >>> tb = table_beta("0.25")
    >>> tb.beta([[1, 1], [0, 1]]), tb([[1, 1], [0, 1]])
    (Fraction(1, 12), {'beta': Fraction(1, 12)})
    >>> table_beta(1).beta([[1, 1, 0], [1, 1, 1], [0, 1, 1]])
    Fraction(1, 14)
    >>> table_beta("0.25", gamma=2).beta([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    Fraction(1, 48)
    """

    numerator: Fraction
    gamma: int = 1

    def beta(self, cm) -> Fraction:
        """The value of beta for one ``K x K`` count matrix (exact)."""
        shape = np.shape(cm)
        if len(shape) != 2:  # a stack's matrices may differ in N: one beta each
            raise ValueError(f"table_beta takes one K x K confusion matrix, got shape {shape}")
        total = np.asarray(cm).sum()  # weighted counts: the total weight, exactly
        if getattr(total, "is_Rational", False):  # SymPy
            total = Fraction(int(total.p), int(total.q))
        N = Fraction(total) if isinstance(total, (float, Fraction)) else int(total)
        K = shape[-1]
        if N <= 0:  # beta divides by N: undefined on a matrix with no sample
            raise UndefinedMetric(f"table_beta: beta = numerator / (N (K-1)^gamma) needs a total "
                             f"N > 0, got N = {N}")
        return self.numerator / (N * max(K - 1, 1) ** self.gamma)

    def __call__(self, cm) -> dict:
        return {"beta": self.beta(cm)}


def table_beta(numerator, *, gamma: int = 1) -> TableBeta:
    """``beta = numerator / (N (K-1)^gamma)``, the scale of cardoso2011's
    tables (:class:`TableBeta`; ``numerator`` read exactly from its decimal
    text, so ``"0.25"`` and ``0.25`` give ``1/4``).

    Parameters
    ----------
    numerator : str, int, float or fractions.Fraction
        The fraction of ``N (K-1)^gamma``, read exactly from its decimal text.
    gamma : int, optional
        OC's ``gamma``, a whole number >= 1 (default 1).

    Returns
    -------
    TableBeta
        The parameters of a :class:`Variant`.

    Examples
    --------
    >>> table_beta("0.75")([[2, 0], [1, 1]])
    {'beta': Fraction(3, 16)}
    """
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Integral) or gamma < 1:
        raise ValueError(f"table_beta: gamma must be a whole number >= 1, got {gamma!r}")
    try:
        num = Fraction(str(numerator))
    except ValueError:
        raise ValueError(f"table_beta: numerator must be a rational number, got {numerator!r}") from None
    return TableBeta(num, int(gamma))


# ---------------------------------------------------------------------------
# the metric tables of docs/metrics.md, generated (``python -m numeric --write docs/metrics.md``)
# ---------------------------------------------------------------------------
_BEGIN, _END = "<!-- registry:begin -->", "<!-- registry:end -->"


def markdown_tables() -> str:
    """The metric table of docs/metrics.md and its table of the other public functions."""
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
    """The generated block, with its markers, as it stands in docs/metrics.md."""
    return f"{_BEGIN}\n{markdown_tables()}\n{_END}"


def write_readme(path) -> None:
    r"""Replace the generated block of ``path`` (between the markers ``<!-- registry:begin -->``
    and ``<!-- registry:end -->``).

    The path is checked first and the file is replaced atomically, by the
    project's output rule (:mod:`numeric.outputs`): a failed write leaves it as
    it was.

    Raises
    ------
    OutputError
        ``path`` cannot be written (a folder, a source file, a missing folder).
    ValueError
        ``path`` does not hold the two markers, in order (nothing is written).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "R.md")
    >>> _ = open(p, "w").write("intro\n" + _BEGIN + "\nold\n" + _END + "\nend\n")
    >>> write_readme(p)
    >>> text = open(p).read()
    >>> text.startswith("intro\n<!-- registry:begin -->\n| function |"), text.endswith("end\n")
    (True, True)
    """
    from numeric.outputs import check_outputs, write_text

    out = check_outputs({"--write-readme": path})["--write-readme"]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start, end = text.find(_BEGIN), text.find(_END)
    if start < 0 or end < start:
        raise ValueError(f"{path}: no generated block ({_BEGIN} ... {_END}, in this order) to "
                         "replace; add the two markers where the tables go")
    write_text(out, text[:start] + readme_block() + text[end + len(_END):])

