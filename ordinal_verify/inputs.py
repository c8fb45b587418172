"""Reading a user's files: one-line errors naming the file, line and problem."""

from __future__ import annotations

import os
import re
import sys

import numpy as np

from numeric._common import ANNOUNCE_SECONDS
from exactfloor.errors import InputError

__all__ = ["InputError", "read_matrix", "read_text", "MAX_BYTES", "MAX_CLASSES",
           "ANNOUNCE_SECONDS", "announce_cost", "digits_factor", "AUOC_DIGITS_SLOPE"]


# ---------------------------------------------------------------------------
# matrix files
# ---------------------------------------------------------------------------
#: largest matrix file read (bytes) and largest number of classes: a clear
#: error instead of a MemoryError (the exact metrics are O(K^2) SymPy numbers)
MAX_BYTES = 10 * 2**20
MAX_CLASSES = 500
_INT64_DIGITS = len(str(2**63 - 1))  # 19


def read_text(path: str, *, newline=None) -> str:
    """The text of a user's file (UTF-8, without the byte-order mark Excel writes).

    Parameters
    ----------
    path : str
        The file.
    newline : str, optional
        As :func:`open`'s (None: universal newlines).

    Returns
    -------
    str
        The text.

    Raises
    ------
    InputError
        A missing or unreadable file, naming it.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "cm.csv")
    ...     _ = path.write_bytes(b"\\xef\\xbb\\xbf1,2\\n")
    ...     read_text(str(path))
    '1,2\\n'
    """
    try:
        with open(path, encoding="utf-8-sig", newline=newline) as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc.__class__.__name__})") from None


def read_matrix(path: str, *, predicted_rows: bool = False) -> np.ndarray:
    """Read a confusion matrix of counts from a CSV or whitespace-separated file.

    Cells are separated by commas, semicolons or whitespace; an empty cell
    (``1,,2``) is an error.  Files over :data:`MAX_BYTES` or matrices with
    more than :data:`MAX_CLASSES` classes are refused.

    Parameters
    ----------
    path : str
        The file: one row per line, rows = true class; ``#`` starts a comment.
    predicted_rows : bool, default False
        The file's rows are the predicted class (the transpose is returned).

    Returns
    -------
    numpy.ndarray
        The square matrix of counts (int64), rows = true class.

    Raises
    ------
    exactfloor.errors.InputError
        A missing, too large or malformed file, naming the file, line and problem.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "cm.csv")
    ...     _ = path.write_text("# rows = true class\\n2, 1\\n0, 3\\n")
    ...     read_matrix(str(path)).tolist(), read_matrix(str(path), predicted_rows=True).tolist()
    ([[2, 1], [0, 3]], [[2, 0], [1, 3]])
    """
    _check_size(path)
    rows, width, first_line = [], None, None
    for lineno, raw in enumerate(read_text(path).splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = _cells(path, lineno, line)
        if width is None:
            width, first_line = len(fields), lineno
            if width > MAX_CLASSES:
                raise InputError(
                    f"{path}:{lineno}: {width} columns; at most {MAX_CLASSES} classes are supported")
        elif len(fields) != width:
            raise InputError(
                f"{path}:{lineno}: expected {width} values (as on line {first_line}), found {len(fields)}"
            )
        rows.append([_count(path, lineno, j, f) for j, f in enumerate(fields, start=1)])
    cm = _square(path, rows, width)
    return cm.T.copy() if predicted_rows else cm


def _check_size(path):
    """A missing or unreadable file, or one over :data:`MAX_BYTES`: :class:`InputError`."""
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


def _cells(path, lineno, line):
    """The cells of a matrix line: split at commas or semicolons (no empty cell, no
    space inside a cell), or, without either, at whitespace."""
    if not re.search(r"[,;]", line):
        return line.split()
    fields = [f.strip() for f in re.split(r"[,;]", line)]
    if "" in fields:
        raise InputError(f"{path}:{lineno}: an empty cell (column {fields.index('') + 1})")
    if any(re.search(r"\s", f) for f in fields):
        raise InputError(f"{path}:{lineno}: mixes comma/semicolon and space separators")
    return fields


def _count(path, lineno, j, f):
    """The count in cell ``f`` (column ``j``): a non-negative integer below ``2**63``."""
    if not re.fullmatch(r"\+?\d+(\.0*)?", f):
        shown = repr(f) if len(f) <= 40 else f"{f[:30]!r}... ({len(f)} characters)"
        raise InputError(f"{path}:{lineno}: {shown} is not a non-negative integer count")
    digits = f.lstrip("+").split(".")[0].lstrip("0")
    # int() of a long text is slow, and fails at 4300 digits
    if len(digits) > _INT64_DIGITS:
        raise InputError(
            f"{path}:{lineno}: the count in column {j} has {len(digits)} digits "
            f"({digits[:12]}...); a count is below 2**63 (at most {_INT64_DIGITS} digits)")
    return int(digits or "0")


def _square(path, rows, width):
    """The int64 matrix of the rows: square, not all zero, its total within int64."""
    if not rows:
        raise InputError(f"{path}: no matrix rows found")
    if len(rows) != width:
        raise InputError(f"{path}: the matrix is {len(rows)}x{width}, not square")
    total = sum(map(sum, rows))  # Python ints: an int64 sum can wrap around to 0
    if total >= 2**63:
        raise InputError(f"{path}: the total count {total} is too large for int64 counts")
    if total == 0:
        raise InputError(f"{path}: the matrix is all zero (no samples)")
    return np.array(rows, dtype=np.int64)


# ---------------------------------------------------------------------------
# long runs say so first
# ---------------------------------------------------------------------------
# ANNOUNCE_SECONDS (numeric._common, imported above): a command whose estimated time is
# above it prints one line on stderr first (the README's rule: no input under 1 MB runs
# longer than a minute without a line saying so); the API warns above it too
#: one core: every metric of one K x K matrix in exact arithmetic takes about
#: this many seconds per cell (measured on random counts 0..19: K = 60 3.8 s,
#: K = 120 15 s, K = 250 58 s, with the imports)
EXACT_SECONDS_PER_CELL = 1e-3
#: one core: ``auoc``'s exact envelope and A_UOC per matrix cell (K = 500: 27 s
#: for the envelope, as much for A_UOC)
AUOC_SECONDS_PER_CELL = 2.5e-4


def digits_factor(digits, slope=3) -> float:
    """How much slower the exact metrics are on counts of ``digits`` decimal digits than
    on the counts of ``EXACT_SECONDS_PER_CELL``'s measurement (0..19, 2 digits):
    ``1 + (digits - 2) / slope``, at least 1.  Measured on K = 50, every exact metric
    (2026-12-07, a loaded 2-core host): counts 0..19 3.9 s, 14-digit counts 19.2 s
    (x 4.9; the formula gives 5): the exact numbers (logarithms, roots, products)
    grow with the digits of the counts.  ``auoc`` grows more slowly
    (:data:`AUOC_DIGITS_SLOPE`).

    Parameters
    ----------
    digits : int
        The decimal digits of the largest count.
    slope : float, default 3
        How many digits over 2 add the measured time once more.

    Returns
    -------
    float
        The factor, at least 1.

    Examples
    --------
    >>> digits_factor(2), digits_factor(14), digits_factor(14, AUOC_DIGITS_SLOPE)
    (1.0, 5.0, 3.0)
    """
    return max(1.0, 1 + (int(digits) - 2) / slope)


#: ``auoc``'s :func:`digits_factor` slope: its exact envelope and A_UOC on K = 250
#: (the whole command, 2026-12-07, a loaded 2-core host): counts 0..19 5.0 s,
#: 14-digit counts 15.5 s (x 3.1; ``1 + 12/6`` = 3)
AUOC_DIGITS_SLOPE = 6


def announce_cost(K, *, matrices=1, resamples=0, per_cell=EXACT_SECONDS_PER_CELL,
                  what="every metric in exact arithmetic", stream=None, digits=None,
                  digits_slope=3, metrics=None):
    """Print one line on stderr when a command is estimated to take over :data:`ANNOUNCE_SECONDS`.

    The estimate: ``what`` for ``matrices`` K x K matrices, ``per_cell``
    seconds per cell each (times :func:`digits_factor` of ``digits`` when
    given), and, for two matrices or more, ``resamples`` paired bootstrap
    resamples of them all (:func:`numeric.comparison.compare_seconds`, the
    estimate :func:`numeric.compare` makes itself).

    Parameters
    ----------
    K : int
        The number of classes.
    matrices : int, default 1
        How many matrices.
    resamples : int, default 0
        Paired bootstrap resamples (with two matrices or more).
    per_cell : float, default :data:`EXACT_SECONDS_PER_CELL`
        Seconds per cell of one matrix.
    what : str
        What is computed, in words (the line says it).
    stream : file, optional
        Where to print (default: ``sys.stderr``).
    digits : int, optional
        The decimal digits of the largest count.
    digits_slope : float, default 3
        :func:`digits_factor`'s ``slope``.
    metrics : list of str, optional
        The metrics of the bootstrap (default: every metric), as ``numeric.compare`` takes them.

    Returns
    -------
    bool
        Whether the line was printed.

    Examples
    --------
    >>> import io
    >>> s = io.StringIO()
    >>> announce_cost(10, stream=s), s.getvalue()
    (False, '')
    >>> announce_cost(250, stream=s), s.getvalue()[:52]
    (True, 'ordinal-verify: 250 classes: every metric in exact a')
    >>> announce_cost(100, stream=s), announce_cost(100, digits=14, stream=io.StringIO())
    (False, True)
    """
    if digits is not None:
        per_cell = per_cell * digits_factor(digits, digits_slope)
    seconds = K * K * matrices * per_cell
    if resamples and matrices > 1:
        from numeric.comparison import compare_seconds
        from numeric.reporting import metric_rows

        seconds += compare_seconds(K, matrices, resamples, metric_rows(metrics))
    if seconds <= ANNOUNCE_SECONDS:
        return False
    large = f" of counts up to {digits} digits" if digits is not None and digits > 2 else ""
    print(f"ordinal-verify: {K} classes{large}: {what}"
          f"{' and the bootstrap' if resamples and matrices > 1 else ''}, about "
          f"{seconds:.0f} s on one core ...", file=stream or sys.stderr, flush=True)
    return True
