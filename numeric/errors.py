"""Exceptions of :mod:`numeric` and :mod:`analytic` beyond ``ValueError``."""

__all__ = ["UndecidedError"]


class UndecidedError(ArithmeticError):
    """A decision between two numbers could not be certified at the working precision.

    Raised instead of guessing (for example when two algebraic numbers are
    closer than the separation a sweep can certify, or a parametric search
    does not converge).

    >>> issubclass(UndecidedError, ArithmeticError)
    True
    """
