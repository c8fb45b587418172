r"""The one Markdown-table renderer of the project.

Every generated Markdown table goes through :func:`table`: README's registry
block (:mod:`numeric.registry`), the claims ledger (:mod:`analytic.ledger`),
the property table (``docs/properties.md``, :mod:`analytic.properties.table`)
and the benchmark table (``docs/benchmarks.md``, :mod:`benchmarks.runner`),
and the tables the lessons display (``notebooks/src``).

Two kinds of text go into a table:

* **Markdown** (code spans, ``**bold**``): given to :func:`table` as it is;
  :func:`table` only makes each cell one line and escapes its ``|`` (GitHub
  Flavored Markdown's rule, which holds inside code spans too: an unescaped
  ``|`` ends the cell);
* **plain text** (a SymPy expression, a claim's evidence, a source's title):
  :func:`escape` it first, so that ``*`` stays a product (``12*k**2 + 3*k``
  is not emphasis) and ``|`` stays a character.

>>> print(table(["name", "value"], [["`x|y`", escape("2*k | 1")]], align=["left", "right"]))
| name | value |
|:---|---:|
| `x\|y` | 2\*k \| 1 |
"""

from __future__ import annotations

import re

__all__ = ["escape", "table"]

#: the separator cell of each alignment (GitHub Flavored Markdown, "Tables")
_RULES = {None: "---", "left": ":---", "right": "---:", "center": ":---:"}

#: a ``|`` not already escaped
_BARE_BAR = re.compile(r"(?<!\\)\|")


def escape(text) -> str:
    r"""Plain text as one line of Markdown: ``|`` and ``*`` escaped, line breaks as spaces.

    For a table cell or a list item; ``*`` is escaped so that SymPy's products
    stay products (issue 24: ``(12*k**2 + 3*k - 1)`` was rendered with
    ``k**2 + 3`` in italics).

    Parameters
    ----------
    text : object
        The text (its ``str``).

    Returns
    -------
    str
        One line of Markdown.

    Examples
    --------
    >>> print(escape("(12*k**2 + 3*k - 1) | x"))
    (12\*k\*\*2 + 3\*k - 1) \| x
    """
    return str(text).replace("|", "\\|").replace("*", "\\*").replace("\n", " ")


def _cell(markdown) -> str:
    r"""A cell: one line, every ``|`` escaped (one already escaped is left as it is).

    >>> print(_cell("a|b \\| c\nd"))
    a\|b \| c d
    """
    return _BARE_BAR.sub(r"\\|", str(markdown).replace("\n", " "))


def table(header, rows, *, align=None) -> str:
    """A Markdown table (no trailing newline): the header, the separator, one line per row.

    Parameters
    ----------
    header : sequence
        The column titles (Markdown).
    rows : iterable of sequence
        The cells of each row (Markdown: :func:`escape` plain text first), as
        many as ``header``.
    align : sequence of {None, "left", "right", "center"}, optional
        Each column's alignment (default: none given, the renderer's).

    Returns
    -------
    str
        The table's lines joined by ``"\\n"``.

    Raises
    ------
    ValueError
        If a row or ``align`` does not have one entry per column, or an
        alignment is unknown.

    Examples
    --------
    >>> print(table(["a", "b"], [[1, 2], ["x", "y"]]))
    | a | b |
    |---|---|
    | 1 | 2 |
    | x | y |
    """
    header = list(header)
    align = [None] * len(header) if align is None else list(align)
    if len(align) != len(header):
        raise ValueError(f"align has {len(align)} entries for {len(header)} columns")
    bad = [a for a in align if a not in _RULES]
    if bad:
        raise ValueError(f"alignment must be one of None, 'left', 'right', 'center'; got {bad[0]!r}")
    lines = [_line(header), "|" + "".join(_RULES[a] + "|" for a in align)]
    for i, row in enumerate(rows):
        row = list(row)
        if len(row) != len(header):
            raise ValueError(f"row {i} has {len(row)} cells for {len(header)} columns")
        lines.append(_line(row))
    return "\n".join(lines)


def _line(cells) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"
