"""Plain-text tables for the terminal."""

from __future__ import annotations

__all__ = ["format_table"]


def format_table(header, rows) -> str:
    """Left-aligned columns, a dashed rule under the header.

    >>> print(format_table(("a", "bb"), [(1, 2)]))
    a  bb
    -  --
    1  2
    """
    widths = [max(len(str(r[i])) for r in [header] + list(rows)) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*header), fmt.format(*["-" * w for w in widths])]
    out += [fmt.format(*map(str, r)) for r in rows]
    return "\n".join(line.rstrip() for line in out)
