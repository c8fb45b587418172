"""Every public exception and warning of :mod:`numeric`, :mod:`analytic` and the
command line (:mod:`ordinal_verify`).

Bad input raises the built-in ``ValueError`` (its message names the problem);
the classes here are the rest, defined once, here:

* :class:`UndefinedMetric` (a ``ValueError``): a metric's formula is undefined on
  this matrix (a zero denominator of its definition, an empty class where it
  divides); raised exactly there, by every metric of :mod:`numeric` and by a
  user's metric that wants to say so.  The only exception read as "undefined
  here" (by the property auditor, :func:`numeric.report`, :func:`numeric.compare`
  and the command line); any other exception from a metric is an error;
* :class:`MetricError` (an ``Exception``): a metric raised something other than
  :class:`UndefinedMetric` (or returned something that is not a number) on a
  count matrix; the property auditor turns it into the verdict ``"error"``
  naming the exception and the matrix;
* :class:`UndecidedError` (an ``ArithmeticError``): the base of every refusal
  to decide (never a guess), e.g. two numbers too close to order at the
  working precision (:mod:`exactfloor.exact_sign`, :mod:`numeric.envelope`,
  the envelope sweeps of :mod:`analytic.engines`);
* :class:`UndecidedSign` (an :class:`UndecidedError` and a ``ValueError``):
  no sign for every integer ``n >= n0`` (:mod:`exactfloor.ratfun`);
* :class:`LabelWarning` (a ``UserWarning``): the classes of a confusion matrix
  were guessed from the observed labels (:func:`numeric.confusion_matrix`);
* :class:`UndefinedResampleWarning` (a ``UserWarning``): bootstrap resamples
  that left a metric undefined were dropped (:func:`numeric.compare`);
* :class:`CostWarning` (a ``UserWarning``): an API call estimated to take over
  30 s (:func:`numeric.compare`, :func:`analytic.guess_and_check`), said before the
  work; above its ``max_seconds=`` the call refuses with a ``ValueError`` instead;
* :class:`InputError` (an ``Exception``): a user input problem of the
  ``ordinal-verify`` command (:mod:`ordinal_verify`), a malformed matrix or label
  file or a bad option; its subclasses :class:`OutputError` (an output path that
  cannot be written) and :class:`UserFunctionError` (a user's ``module:function``
  failed outside a metric's evaluation). Each is printed as one
  line, exit status 2.

The modules that raise or issue them re-export them under their old names
(``numeric.confusion.LabelWarning``, ``numeric.comparison.UndefinedResampleWarning``,
``analytic.engines._pl.UndecidedSign``, ``ordinal_verify.inputs.InputError``, ...), and
:mod:`numeric` exports the three warnings.

The rule (checked by ``proofs_tests/test_errors.py``): every exception or
warning class defined in a module of :mod:`numeric`, :mod:`analytic` or
:mod:`ordinal_verify` is defined in this module, except a private one (its name
starts with ``_``), which is a signal between the functions of its module and
never reaches a caller.
"""

__all__ = ["UndefinedMetric", "MetricError", "UndecidedError", "UndecidedSign", "LabelWarning",
           "UndefinedResampleWarning", "CostWarning",
           "InputError", "OutputError", "UserFunctionError"]


class UndefinedMetric(ValueError):
    """A metric's formula is undefined on this confusion matrix.

    Raised exactly where a definition divides by zero or needs what the matrix
    lacks (no sample, an empty class the formula divides by, a single class
    where it divides by ``K - 1``).  A ``ValueError`` so that callers that
    caught ``ValueError`` keep working; but bad input (a negative count, a
    matrix that is not square, ...) is a plain ``ValueError``, and only this
    class means "undefined here" to the property auditor, :func:`numeric.report`,
    :func:`numeric.compare` and the command line.  A user's metric raises it
    (or returns NaN or None) to say it is undefined on a matrix.

    Examples
    --------
    >>> import numeric
    >>> try:
    ...     numeric.kendall_tau_b([[2, 0], [1, 0]])
    ... except UndefinedMetric as exc:
    ...     print(type(exc).__name__, issubclass(type(exc), ValueError))
    UndefinedMetric True
    """


class MetricError(Exception):
    """A metric raised something other than :class:`UndefinedMetric`, or returned
    something that is not a finite real number, on a count matrix.

    The property auditor (:func:`analytic.properties.audit.audit`) gives every
    property the verdict ``"error"`` with this text (never holds, fails or n/a on a
    broken metric).

    Parameters
    ----------
    cause : str
        What happened: ``"raised"`` and the exception's type name and message, or
        ``"returned"`` and the value (:meth:`MetricError.of` writes it).
    matrix : list of list of int
        The count matrix, nested lists.

    Examples
    --------
    >>> str(MetricError.of(KeyError("x"), [[1, 0], [0, 1]]))
    "the metric raised KeyError: 'x' on the count matrix [[1, 0], [0, 1]]"
    """

    def __init__(self, cause, matrix):
        super().__init__(cause, matrix)
        self.cause, self.matrix = cause, matrix

    def __str__(self):
        return f"the metric {self.cause} on the count matrix {self.matrix}"

    @classmethod
    def of(cls, exc, matrix):
        """The error of ``exc`` (an exception; a ``str``: what the metric did
        instead, e.g. ``"returned inf"``) on ``matrix`` (an array or nested lists)."""
        cause = exc if isinstance(exc, str) else f"raised {type(exc).__name__}: {exc}"
        return cls(cause, matrix.tolist() if hasattr(matrix, "tolist") else matrix)


class UndecidedError(ArithmeticError):
    """A decision between two numbers could not be certified at the working precision.

    Raised instead of guessing (for example when two algebraic numbers are
    closer than the separation a sweep can certify, or a parametric search
    does not converge); :mod:`exactfloor.exact_sign` raises it when its policy
    gives up.

    Examples
    --------
    >>> issubclass(UndecidedError, ArithmeticError)
    True
    """


class UndecidedSign(UndecidedError, ValueError):
    """A sign that is not the same (or not defined) for every integer ``n >= n0``.

    Also a ``ValueError``, deliberately: it was one before it joined this
    hierarchy, and callers rely on it (``sign_for_all`` documents "a
    ValueError"; the tests and the CLI's error handler catch ``ValueError``
    and print its one-line message).

    Parameters
    ----------
    message : str
        The one-line message.
    threshold : int
        The smallest integer ``m >= n0`` from which the sign is constant and defined
        (:func:`exactfloor.ratfun.sign_threshold`): the decision holds for
        ``n >= threshold``.

    Examples
    --------
    >>> issubclass(UndecidedSign, UndecidedError), issubclass(UndecidedSign, ValueError)
    (True, True)
    """

    def __init__(self, message, threshold):
        super().__init__(message)
        self.threshold = threshold


class LabelWarning(UserWarning):
    """The classes of a confusion matrix were guessed from the observed labels.

    Issued by :func:`numeric.confusion_matrix` called without ``labels=`` or
    ``n_classes=`` when the observed labels are not contiguous integers
    (numbers or datetimes): a class absent from both vectors is then silently
    missing from the matrix, and every ordinal distance after it shrinks.
    Labels without a natural order (strings, ...) are refused instead (see
    :func:`numeric.confusion_matrix`).

    Examples
    --------
    >>> import warnings, numeric
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     numeric.confusion_matrix([0, 2], [0, 2]).tolist()
    [[1, 0], [0, 1]]
    >>> caught[0].category is LabelWarning
    True
    """


class UndefinedResampleWarning(UserWarning):
    """Some bootstrap resamples left a metric undefined and were dropped.

    Issued by :func:`numeric.compare` (``undefined="drop"``, the default),
    which names the metric and the number of resamples dropped.

    Examples
    --------
    >>> issubclass(UndefinedResampleWarning, UserWarning)
    True
    """


class CostWarning(UserWarning):
    """An API call is estimated to take over 30 s of one core.

    Said before the work starts, with the estimate and the keyword that bounds
    it (``max_seconds=``).  Above ``max_seconds`` the call refuses instead
    (``ValueError``).  Turn it into an error to stop such calls early
    (``warnings.simplefilter("error", CostWarning)``).

    Examples
    --------
    A comparison of 100000 resamples over 60 classes, stopped before its work:

    >>> import warnings, numeric
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", CostWarning)
    ...     try:
    ...         numeric.compare([0, 1, 2], [0, 1, 2], [0, 2, 2], n_classes=60,
    ...                         n_resamples=100_000, max_seconds=None)
    ...     except CostWarning as warning:
    ...         print(warning)  # doctest: +ELLIPSIS
    numeric.compare of 2 classifiers, 60 classes, ... resamples: about ... s on one core (...)
    >>> issubclass(CostWarning, UserWarning)
    True
    """


class InputError(Exception):
    """A user input problem of the ``ordinal-verify`` command (a malformed matrix
    or label file, a bad option): printed on one line, exit status 2.

    Examples
    --------
    >>> str(InputError("cm.csv:3: expected 3 values (as on line 1), found 2"))
    'cm.csv:3: expected 3 values (as on line 1), found 2'
    """


class OutputError(InputError):
    """An output path of the ``ordinal-verify`` command that cannot be written:
    one line on stderr, exit status 2 (:mod:`ordinal_verify.outputs`).

    Examples
    --------
    >>> issubclass(OutputError, InputError)
    True
    """


class UserFunctionError(InputError):
    """A ``module:function`` of the ``ordinal-verify`` command failed outside the
    metric's evaluation: one line naming it, exit status 2 (an exception of the
    metric on a matrix is the audit's verdict ``"error"``, :class:`MetricError`).

    Examples
    --------
    >>> issubclass(UserFunctionError, InputError)
    True
    """
