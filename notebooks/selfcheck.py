"""Self-checks of the lessons' exercises that check an answer without giving it away.

A self-check compares a *fingerprint* of the student's answer (a hash of its
canonical form: a SymPy number in lowest terms, a set sorted, a matrix with
its shape) with the fingerprint of the right answer written in the lesson,
so reading the check does not tell the answer.  A wrong answer raises
:class:`NotYet` with a hint naming the section of the lesson to reread; a
right one prints a short confirmation.  Where a property says enough (the
matrix has N = 6 samples and MER = 1) the lessons check the property with an
``assert`` instead.

The lessons import it as ``from selfcheck import check`` (their kernel runs
in ``notebooks/``); a lesson's author writes the fingerprint of the worked
answer, ``fingerprint(answer)``, into its check.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

__all__ = ["NotYet", "fingerprint", "check"]


class NotYet(AssertionError):
    """A self-check's answer is not the expected one; the message is the hint."""


def _canonical(value) -> str:
    """A text that two equal answers share, whatever their Python type.

    Examples
    --------
    >>> import sympy as sp
    >>> _canonical(Fraction(10, 13)) == _canonical(sp.Rational(20, 26))
    True
    >>> _canonical({"b", "a"}) == _canonical(frozenset({"a", "b"}))
    True
    >>> _canonical({"a", "b"}) == _canonical(["a", "b"])      # a set is not a list
    False
    """
    import numpy as np
    import sympy as sp

    if isinstance(value, bool) or value is None or isinstance(value, str):
        return repr(value)
    if isinstance(value, (set, frozenset)):
        return "set(" + ",".join(sorted(_canonical(v) for v in value)) + ")"
    if isinstance(value, dict):
        return "dict(" + ",".join(sorted(f"{_canonical(k)}:{_canonical(v)}" for k, v in value.items())) + ")"
    if isinstance(value, (list, tuple)):
        return "seq(" + ",".join(_canonical(v) for v in value) + ")"
    if isinstance(value, np.ndarray):
        return f"array{value.shape}(" + ",".join(_canonical(v) for v in value.ravel().tolist()) + ")"
    if isinstance(value, (int, Fraction, np.integer)):
        return sp.srepr(sp.Rational(int(value)) if not isinstance(value, Fraction)
                        else sp.Rational(value.numerator, value.denominator))
    if isinstance(value, sp.Basic):
        return sp.srepr(sp.nsimplify(value) if value.is_Float else sp.simplify(value))
    raise TypeError(f"a self-check compares exact answers: got {type(value).__name__} {value!r:.40}")


def fingerprint(value) -> str:
    """The first 16 hexadecimal digits of the SHA-256 of the answer's canonical form.

    Parameters
    ----------
    value : number, str, bool, set, dict, sequence or ndarray
        An exact answer (an integer, a fraction, a SymPy number or expression, a
        word, or a collection of these).

    Returns
    -------
    str
        16 hexadecimal digits; equal answers (``Fraction(1, 2)`` and
        ``sympy.Rational(1, 2)``) share it.

    Examples
    --------
    >>> import sympy as sp
    >>> fingerprint(sp.Rational(1, 2)) == fingerprint(Fraction(2, 4))
    True
    >>> len(fingerprint({"MMAE", "AMAE"}))
    16
    """
    return hashlib.sha256(_canonical(value).encode("utf-8")).hexdigest()[:16]


def check(name, value, expected, hint) -> None:
    """Check an answer against the fingerprint of the right one, without showing it.

    Parameters
    ----------
    name : str
        The variable that holds the answer, as the exercise names it.
    value : object
        The answer (see :func:`fingerprint`).
    expected : str
        The fingerprint of the right answer.
    hint : str
        Where to look again (a section of the lesson, a function to use).

    Returns
    -------
    None
        Prints ``name: right.`` when the answer is right.

    Raises
    ------
    NotYet
        The answer is not the right one (or not an exact value); the message is the hint.

    Examples
    --------
    >>> check("x", 2, fingerprint(2), "reread section 1")
    x: right.
    >>> try:
    ...     check("x", 3, fingerprint(2), "reread section 1")
    ... except NotYet as wrong:
    ...     print(wrong)
    x is not right yet. Hint: reread section 1
    """
    try:
        got = fingerprint(value)
    except TypeError as exc:
        raise NotYet(f"{name} is not an exact answer ({exc}). Hint: {hint}") from None
    if got != expected:
        raise NotYet(f"{name} is not right yet. Hint: {hint}")
    print(f"{name}: right.")
