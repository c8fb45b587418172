"""Reading label columns (``y_true``, ``y_pred_A``, ...) from a user's CSV file.

A column is named by its header or by its 0-based index.  The file has a
header line when any column is given by name; with indices only, the first
line is a header when one of its chosen fields is not a label (not a number,
and not in ``--labels``).  Fields are separated by commas, semicolons or
tabs (whitespace when the first line has none of them).  Numeric labels are
ordered by value; other labels need ``--labels`` for their ordinal order.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np

from .inputs import InputError

__all__ = ["LabelColumns", "read_label_columns", "parse_labels"]


def _number(s):
    """``"3"`` -> 3, ``"2.5"`` -> 2.5, ``"3.0"`` -> 3, else None."""
    try:
        x = float(s)
    except ValueError:
        return None
    if not np.isfinite(x):
        return None
    return int(x) if x == int(x) else x


def _as_labels(fields):
    """Numbers when every field is a number, else the strings."""
    nums = [_number(f) for f in fields]
    if all(n is not None for n in nums):
        return nums
    return list(fields)


def parse_labels(text: str):
    """``"1,2,3"`` -> ``[1, 2, 3]``; ``"low,mid,high"`` stays strings.

    >>> parse_labels("1, 2,3"), parse_labels("low,mid,high")
    ([1, 2, 3], ['low', 'mid', 'high'])
    """
    fields = [f.strip() for f in text.split(",") if f.strip()]
    if not fields:
        raise InputError("--labels is empty")
    return _as_labels(fields)


class LabelColumns:
    """The true labels, the named predictions and the ordered classes."""

    def __init__(self, y_true, preds, names, labels):
        self.y_true, self.preds, self.names, self.labels = y_true, preds, names, labels

    def matrices(self):
        """``{name: confusion matrix}`` over the common ``labels``."""
        from numeric import confusion_matrix

        return {n: confusion_matrix(self.y_true, p, labels=self.labels)
                for n, p in zip(self.names, self.preds)}


def _split(text, path):
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    for delim in (",", ";", "\t"):
        if delim in first:
            return [[f.strip() for f in row] for row in csv.reader(io.StringIO(text), delimiter=delim)]
    return [re.split(r"\s+", ln.strip()) for ln in text.splitlines()]


def read_label_columns(path: str, true: str, preds: list, labels=None) -> LabelColumns:
    """Read the true-label column and the prediction columns of a CSV file.

    Errors name the file, line and problem (:class:`InputError`).
    """
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    rows = [(i, r) for i, r in enumerate(_split(text, path), start=1)
            if r and any(f for f in r) and not r[0].startswith("#")]
    if not rows:
        raise InputError(f"{path}: no rows found")
    specs = [true, *preds]
    by_index = all(re.fullmatch(r"\d+", s) for s in specs)
    header_line, header = rows[0]
    if by_index:
        idx = [int(s) for s in specs]
        known = set(map(str, labels)) if labels is not None else set()
        has_header = any(i < len(header) and _number(header[i]) is None and header[i] not in known
                         for i in idx)
        names = [header[i] if has_header and i < len(header) else f"column {i}" for i in idx]
    else:
        has_header = True
        idx, names = [], []
        for s in specs:
            if s in header:
                idx.append(header.index(s))
                names.append(s)
            elif re.fullmatch(r"\d+", s) and int(s) < len(header):
                idx.append(int(s))
                names.append(header[int(s)])
            else:
                raise InputError(f"{path}:{header_line}: no column {s!r} in the header "
                                 f"({', '.join(header)})")
    body = rows[1:] if has_header else rows
    if not body:
        raise InputError(f"{path}: no data rows after the header")
    cols = [[] for _ in idx]
    for lineno, r in body:
        for k, i in enumerate(idx):
            if i >= len(r) or r[i] == "":
                raise InputError(f"{path}:{lineno}: no value in column {names[k]!r}")
            cols[k].append(r[i])
    values = _as_labels([f for c in cols for f in c])
    n = len(body)
    arrays = [np.asarray(values[k * n:(k + 1) * n]) for k in range(len(idx))]
    if labels is None:
        if isinstance(values[0], str):
            raise InputError(f"{path}: the labels are not numbers; give their ordinal order "
                             "with --labels (e.g. --labels low,mid,high)")
        labels = sorted(set(values))
    lab = np.asarray(labels)
    if lab.dtype.kind in "iuf" and arrays[0].dtype.kind not in "iuf":
        raise InputError(f"{path}: --labels are numbers but the file's labels are not")
    allowed = set(lab.tolist())
    for name, a in zip(names, arrays):
        bad = [x for x in a.tolist() if x not in allowed]
        if bad:
            raise InputError(f"{path}: label {bad[0]!r} in column {name!r} is not in --labels")
    if len(set(names)) != len(names):
        raise InputError(f"{path}: a column is given twice ({', '.join(names)})")
    return LabelColumns(arrays[0], arrays[1:], names[1:], lab)
