"""Exceptions of :mod:`numeric` and :mod:`analytic` beyond ``ValueError``.

One hierarchy for "not decided" (issue 22 item 2): :class:`UndecidedError`
is the base of every refusal to decide (never a guess), an ``ArithmeticError``;
:class:`UndecidedSign` is the refusal of a sign for every integer ``n >= n0``
(:mod:`analytic.engines._pl`).
"""

__all__ = ["UndecidedError", "UndecidedSign"]


class UndecidedError(ArithmeticError):
    """A decision between two numbers could not be certified at the working precision.

    Raised instead of guessing (for example when two algebraic numbers are
    closer than the separation a sweep can certify, or a parametric search
    does not converge); :mod:`numeric.exact_sign` raises it when its policy
    gives up.

    >>> issubclass(UndecidedError, ArithmeticError)
    True
    """


class UndecidedSign(UndecidedError, ValueError):
    """A sign that is not the same (or not defined) for every integer ``n >= n0``.

    ``threshold`` is the smallest integer ``m >= n0`` from which the sign is
    constant and defined (:func:`analytic.engines._pl.sign_threshold`): the decision
    holds for ``n >= threshold``.

    Also a ``ValueError``, deliberately: it was one before it joined this
    hierarchy, and callers rely on it (``sign_for_all`` documents "a
    ValueError"; the tests and the CLI's error handler catch ``ValueError``
    and print its one-line message).

    >>> issubclass(UndecidedSign, UndecidedError), issubclass(UndecidedSign, ValueError)
    (True, True)
    """

    def __init__(self, message, threshold):
        super().__init__(message)
        self.threshold = threshold
