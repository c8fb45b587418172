"""Reading a user's files: one-line errors naming the file, line and problem."""

from __future__ import annotations

import os
import re

import numpy as np

__all__ = ["InputError", "read_matrix", "MAX_BYTES", "MAX_CLASSES"]


class InputError(Exception):
    """A user input problem: printed on one line, exit status 2."""


# ---------------------------------------------------------------------------
# matrix files
# ---------------------------------------------------------------------------
#: largest matrix file read (bytes) and largest number of classes: a clear
#: error instead of a MemoryError (the exact metrics are O(K^2) SymPy numbers)
MAX_BYTES = 10 * 2**20
MAX_CLASSES = 500
_INT64_DIGITS = len(str(2**63 - 1))  # 19


def read_matrix(path: str, *, predicted_rows: bool = False) -> np.ndarray:
    """Read a confusion matrix of counts from a CSV or whitespace-separated file.

    Cells are separated by commas, semicolons or whitespace; an empty cell
    (``1,,2``) is an error.  Files over :data:`MAX_BYTES` or matrices with
    more than :data:`MAX_CLASSES` classes are refused.
    """
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    if size > MAX_BYTES:
        raise InputError(
            f"{path}: the file has {size / 2**20:.0f} MB; a confusion matrix file is at most "
            f"{MAX_BYTES // 2**20} MB (at most {MAX_CLASSES} classes)")
    try:
        with open(path, encoding="utf-8-sig") as fh:  # Excel writes a byte-order mark
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
        if re.search(r"[,;]", line):
            fields = [f.strip() for f in re.split(r"[,;]", line)]
            if "" in fields:
                raise InputError(f"{path}:{lineno}: an empty cell (column {fields.index('') + 1})")
            if any(re.search(r"\s", f) for f in fields):
                raise InputError(f"{path}:{lineno}: mixes comma/semicolon and space separators")
        else:
            fields = line.split()
        if width is None:
            width, first_line = len(fields), lineno
            if width > MAX_CLASSES:
                raise InputError(
                    f"{path}:{lineno}: {width} columns; at most {MAX_CLASSES} classes are supported")
        elif len(fields) != width:
            raise InputError(
                f"{path}:{lineno}: expected {width} values (as on line {first_line}), found {len(fields)}"
            )
        row = []
        for j, f in enumerate(fields, start=1):
            if not re.fullmatch(r"\+?\d+(\.0*)?", f):
                shown = repr(f) if len(f) <= 40 else f"{f[:30]!r}... ({len(f)} characters)"
                raise InputError(f"{path}:{lineno}: {shown} is not a non-negative integer count")
            digits = f.lstrip("+").split(".")[0].lstrip("0")
            if len(digits) > _INT64_DIGITS:  # int() of a long text is slow, and fails at 4300 digits
                raise InputError(
                    f"{path}:{lineno}: the count in column {j} has {len(digits)} digits "
                    f"({digits[:12]}...); a count is below 2**63 (at most {_INT64_DIGITS} digits)")
            row.append(int(digits or "0"))
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no matrix rows found")
    if len(rows) != width:
        raise InputError(f"{path}: the matrix is {len(rows)}x{width}, not square")
    total = sum(map(sum, rows))  # Python ints: an int64 sum can wrap around to 0
    if total >= 2**63:
        raise InputError(f"{path}: the total count {total} is too large for int64 counts")
    cm = np.array(rows, dtype=np.int64)
    if total == 0:
        raise InputError(f"{path}: the matrix is all zero (no samples)")
    return cm.T.copy() if predicted_rows else cm
