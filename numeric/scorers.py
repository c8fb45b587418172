r"""scikit-learn scorers of the registered metrics.

A scikit-learn scorer is maximised: :class:`~sklearn.model_selection.GridSearchCV`
keeps the parameters of the largest mean score, and
:func:`~sklearn.model_selection.cross_val_score` reports scores.  A metric
whose registry record says ``better="lower"`` (MAE, AMAE, OC, RPS, ...) is
therefore negated (``greater_is_better=False`` of :func:`sklearn.metrics.make_scorer`),
and its scorer is named ``neg_<name>`` as scikit-learn's own
``neg_mean_absolute_error``; a ``better="higher"`` metric (tau_b, kappa,
GM, ...) is returned as is.

.. math:: \mathrm{score}(h) = \begin{cases} m(y, h(X)) & \text{better = higher}\\
          -\,m(y, h(X)) & \text{better = lower}\end{cases}

Pass ``labels=`` (every class, in ordinal order): a test fold need not
contain every class, and without ``labels`` the confusion matrix of a fold
has only the classes observed in that fold, which changes every ordinal
distance across a missing class (a :class:`~numeric.LabelWarning` says so).

``sample_weight`` reaches the metric when the scorer is called with it
(``scorer(estimator, X, y, sample_weight=w)``), or through scikit-learn's
metadata routing (``scorer.set_score_request(sample_weight=True)`` under
``sklearn.set_config(enable_metadata_routing=True)``); the metrics take
non-negative weights, fractional ones too (every metric but r_int, which
needs whole numbers: see :mod:`numeric.registry`).

scikit-learn is needed only when a scorer is made (the ``sklearn`` extra).

Examples
--------
>>> from sklearn.dummy import DummyClassifier
>>> X, y = [[0], [1], [2], [3]], [0, 0, 1, 2]
>>> clf = DummyClassifier(strategy="most_frequent").fit(X, y)     # predicts 0
>>> scorer = ordinal_scorer("mae", labels=[0, 1, 2])
>>> scorer(clf, X, y)                                             # -(0 + 0 + 1 + 2) / 4
-0.75
>>> scorer_name("mae"), scorer_name("kendall_tau_b")
('neg_mae', 'kendall_tau_b')
"""

from __future__ import annotations

import inspect

import numpy as np

__all__ = ["ordinal_scorer", "scorer_name", "scorer_names"]


def scorer_name(metric: str) -> str:
    """The scorer's name of a registered metric: ``neg_<name>`` when lower is better.

    Parameters
    ----------
    metric : str
        A registered metric's name (:func:`numeric.registry.matrix_metrics`).

    Returns
    -------
    str
        The name, as scikit-learn names its scorers.

    Examples
    --------
    >>> scorer_name("amae")
    'neg_amae'
    """
    return ("neg_" if _record(metric).better == "lower" else "") + metric


def scorer_names() -> list:
    """Every name :func:`ordinal_scorer` accepts with the ``neg_`` prefix where lower is better.

    Returns
    -------
    list of str
        The registered metrics' names, ``neg_`` before those where lower is better.

    Examples
    --------
    >>> "neg_mae" in scorer_names() and "cohen_kappa" in scorer_names()
    True
    """
    from .registry import REGISTRY

    return [scorer_name(name) for name in REGISTRY]


def _record(metric):
    import numeric  # noqa: F401  (registers every metric)

    from .registry import REGISTRY

    if not isinstance(metric, str):
        raise ValueError(f"metric must be a registry name (str), got {metric!r:.60}")
    name = metric[4:] if metric.startswith("neg_") else metric
    m = REGISTRY.get(name)
    if m is None:
        raise ValueError(f"unknown metric {metric!r}; choose from {sorted(REGISTRY)} "
                         "(with neg_ for the lower-is-better ones, or without)")
    if metric.startswith("neg_") and m.better != "lower":
        raise ValueError(f"{name} is better when higher: its scorer is {name!r}, not {metric!r} "
                         "(neg_ negates a lower-is-better metric)")
    return m


def ordinal_scorer(metric, *, labels=None, n_classes=None, **params):
    r"""A scikit-learn scorer of a registered metric, negated when lower is better.

    .. math:: s(h; X, y) = \sigma\, m\big(y, h(X)\big),\qquad
              \sigma = +1 \text{ (better = higher)},\ -1 \text{ (better = lower)}

    Parameters
    ----------
    metric : str
        A name of :data:`numeric.registry.REGISTRY` (``"mae"``), or its
        scorer name (``"neg_mae"``; ``neg_`` only for lower-is-better metrics).
    labels : sequence, optional
        Every class in ordinal order; strongly advised (see the module
        docstring).  For the ranked probability score: the classes of the
        columns of ``predict_proba`` (the estimator's ``classes_``).
    n_classes : int, optional
        Shorthand for ``labels=range(n_classes)`` (matrix metrics only).
    **params
        The metric's parameters (``weights="quadratic"`` for
        :func:`numeric.cohen_kappa`, ``beta=`` for OC and UOC, ``lengths=``
        for the interval metrics, ``missing=`` ...); ``arithmetic`` is
        always ``"float"``.

    Returns
    -------
    sklearn.metrics scorer
        Call it as ``scorer(estimator, X, y[, sample_weight=w])``, or pass it
        as ``scoring=`` to ``cross_val_score``, ``GridSearchCV``...  It calls
        the estimator's ``predict`` (``predict_proba`` for the ranked
        probability score).

    Raises
    ------
    ValueError
        An unknown metric, ``neg_`` before a higher-is-better metric, a
        parameter the metric does not take or a required one missing
        (``beta`` for OC), ``arithmetic=`` (scorers are float), or
        ``n_classes`` with a metric of probabilities.
    ImportError
        scikit-learn is not installed.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = [[0], [1], [2], [3]], [0, 0, 1, 2]
    >>> clf = DummyClassifier(strategy="most_frequent").fit(X, y)
    >>> ordinal_scorer("cohen_kappa", weights="linear", n_classes=3)(clf, X, y)
    0.0
    """
    try:
        from sklearn.metrics import make_scorer
    except ImportError as exc:  # pragma: no cover - the sklearn extra is missing
        raise ImportError("ordinal_scorer needs scikit-learn: pip install "
                          "'ordinal-verify[sklearn]'") from exc
    m = _record(metric)
    if "arithmetic" in params:
        raise ValueError("a scorer computes in float: do not pass arithmetic=")
    sig = inspect.signature(inspect.unwrap(m.function))  # the metric's own (cm, ...), not the label form's
    accepted = [p for p in list(sig.parameters)[1 if m.takes_matrix else 2:]
                if p not in ("arithmetic", "labels", "sample_weight")]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ValueError(f"{m.name} takes no parameter {unknown[0]!r}; its parameters: "
                         f"{accepted or 'none'}")
    required = [p for p in accepted if sig.parameters[p].default is inspect.Parameter.empty
                and sig.parameters[p].kind is not inspect.Parameter.VAR_KEYWORD]
    missing = [p for p in required if p not in params]
    if missing:
        raise ValueError(f"{m.name} needs {missing[0]}= (e.g. ordinal_scorer({m.name!r}, "
                         f"{missing[0]}=...))")
    kwargs = dict(params)
    if m.takes_matrix:
        if n_classes is not None:
            if labels is not None:
                raise ValueError("give labels= or n_classes=, not both")
            from ._validation import positive_integer

            labels = list(range(positive_integer(n_classes, "n_classes")))
        response = "predict"
    else:
        if n_classes is not None:
            raise ValueError(f"{m.name} takes probabilities: give labels= (the estimator's "
                             "classes_), not n_classes=")
        response = "predict_proba"
    if labels is not None:
        kwargs["labels"] = list(labels)
    return make_scorer(_Score(m.function, m.name, not m.takes_matrix), response_method=response,
                       greater_is_better=m.better == "higher", **kwargs)


class _Score:
    """The metric as ``score(y_true, y_pred, **kwargs)``, a Python float
    (picklable, for scikit-learn's parallel workers; its name is the metric's
    in the scorer's repr)."""

    def __init__(self, function, name, probabilities=False):
        self.function, self.__name__, self.probabilities = function, name, probabilities

    def __call__(self, y_true, y_pred, **kwargs):
        if self.probabilities and getattr(y_pred, "ndim", 2) == 1:
            # two classes: scikit-learn passes the probability of the second one only
            y_pred = np.column_stack([1 - y_pred, y_pred])
        return float(self.function(y_true, y_pred, **kwargs, arithmetic="float"))

    def __reduce__(self):
        return (_score_of, (self.__name__,))


def _score_of(name):
    import numeric  # noqa: F401  (registers every metric)

    from .registry import REGISTRY

    m = REGISTRY[name]
    return _Score(m.function, name, probabilities=not m.takes_matrix)
