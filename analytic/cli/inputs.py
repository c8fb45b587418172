"""Reading a user's files: one-line errors naming the file, line and problem."""

from __future__ import annotations

import re

import numpy as np

__all__ = ["InputError", "read_matrix"]


class InputError(Exception):
    """A user input problem: printed on one line, exit status 2."""


# ---------------------------------------------------------------------------
# matrix files
# ---------------------------------------------------------------------------
def read_matrix(path: str, *, predicted_rows: bool = False) -> np.ndarray:
    """Read a confusion matrix of counts from a CSV or whitespace-separated file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    rows, width, first_line = [], None, None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f for f in re.split(r"[,\s;]+", line) if f]
        if width is None:
            width, first_line = len(fields), lineno
        elif len(fields) != width:
            raise InputError(
                f"{path}:{lineno}: expected {width} values (as on line {first_line}), found {len(fields)}"
            )
        row = []
        for f in fields:
            if not re.fullmatch(r"\+?\d+(\.0*)?", f):
                raise InputError(f"{path}:{lineno}: {f!r} is not a non-negative integer count")
            row.append(int(f.split(".")[0]))
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no matrix rows found")
    if len(rows) != width:
        raise InputError(f"{path}: the matrix is {len(rows)}x{width}, not square")
    cm = np.array(rows, dtype=object)
    try:
        cm = cm.astype(np.int64)
    except OverflowError:
        raise InputError(f"{path}: a count exceeds the int64 range") from None
    if cm.sum() == 0:
        raise InputError(f"{path}: the matrix is all zero (no samples)")
    return cm.T.copy() if predicted_rows else cm
