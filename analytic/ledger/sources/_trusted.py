"""The guard of the sources' ``parse`` helpers: they read only their own transcriptions.

``parse`` reads a transcribed formula with :func:`sympy.sympify`, which evaluates its
text (``proofs_tests/test_no_eval.py`` lists the call as trusted input), so it refuses
any string that is not one of its module's own.
"""

from __future__ import annotations

__all__ = ["check_own"]


def _own_strings(value):
    """Every string held by ``value`` (nested in dicts, tuples and lists)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _own_strings(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _own_strings(v)


def check_own(expr, namespace: dict) -> None:
    """``ValueError`` unless ``expr`` is one of the strings held by the upper-case names of
    ``namespace`` (a source module's ``globals()``: its transcribed tables and formulas).

    >>> check_own("1/2", {"PRINTED": {"a": ("1/2", "x")}})
    >>> check_own("__import__('os')", {"PRINTED": {"a": ("1/2",)}})
    Traceback (most recent call last):
    ...
    ValueError: parse reads only the printed formulas of this module (trusted input), not "__import__('os')"; parse a user's text with exactfloor.parsing.parse_number
    """
    if not isinstance(expr, str) or not any(
            expr == s for k, v in namespace.items() if k.isupper() for s in _own_strings(v)):
        raise ValueError(f"parse reads only the printed formulas of this module (trusted input), "
                         f"not {expr!r:.60}; parse a user's text with exactfloor.parsing.parse_number")
