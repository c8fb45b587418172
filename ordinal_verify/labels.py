"""Reading label columns (``y_true``, ``y_pred_A``, ...) from a user's CSV file.

A column is named by its header or by its 0-based index (a spec that is
both, at two different columns, is refused).  The file has a header line
when any column is given by name; with indices only, the first line is a
header when none of its chosen fields is a label (a number, or in
``--labels``).  Fields are separated by commas, semicolons or tabs
(whitespace when the first line has none of them); lines starting with
``#`` before the first row are comments.  Numeric labels are ordered by
value, integers read exactly; other labels need ``--labels`` for their
ordinal order.  A numeric label has at most :data:`MAX_LABEL_DIGITS` digits
(its exponent counted), and there are at most
:data:`ordinal_verify.inputs.MAX_CLASSES` classes, as for a matrix file.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from fractions import Fraction

import numpy as np

from .inputs import MAX_CLASSES, InputError, read_text

__all__ = ["LabelColumns", "read_label_columns", "parse_labels", "MAX_LABEL_DIGITS"]

#: a numeric label has at most this many digits, its decimal exponent counted:
#: ``"1e999999999"`` (13 bytes) is an integer of a billion digits, and reading
#: it exactly would not finish
MAX_LABEL_DIGITS = 100

# the decimal texts Fraction reads (without "_", refused below); Fraction reads
# "3/4" and non-numbers in a time linear in the text (int() stops at 4300 digits)
_DECIMAL = re.compile(r"\s*[+-]?(?=\d|\.\d)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*")


def _digits(s):
    """An upper bound on the digits of the exact value of the decimal text ``s``,
    its digits plus the size of its exponent (``"1.5e3"`` -> 5); 0 for other texts."""
    m = _DECIMAL.fullmatch(s)
    if m is None:
        return 0
    whole, frac, exp = m.groups()
    size = len(whole.lstrip("0")) + len(frac or "")
    if exp is not None:
        size += abs(int(exp)) if len(exp) <= 12 else 10**12
    return size


def _check_size(s, where=""):
    """InputError when the number ``s`` has more than :data:`MAX_LABEL_DIGITS` digits."""
    n = _digits(s)
    if n > MAX_LABEL_DIGITS:
        shown = repr(s) if len(s) <= 40 else f"{s[:30]!r}... ({len(s)} characters)"
        raise InputError(
            f"{where}the number {shown} has {'over 10**12' if n >= 10**12 else n} digits; a "
            f"numeric label has at most {MAX_LABEL_DIGITS} (its exponent counted); name the "
            "classes with words and give their order with --labels")


def _exact(s):
    """The exact value of a decimal text (``"2.5"`` -> 5/2, ``"1e3"`` -> 1000), else None.

    A number of more than :data:`MAX_LABEL_DIGITS` digits raises InputError.
    """
    if "_" in s:  # int() and float() read "1_0" as 10
        return None
    _check_size(s)
    try:
        return Fraction(s.strip())
    except (ValueError, ZeroDivisionError):  # not a number, "nan", "inf", "1/0"
        return None


def _number(s):
    """``"3"`` -> 3, ``"2.5"`` -> 2.5, ``"3.0"`` -> 3, else None (integers exactly,
    beyond ``2**53`` too)."""
    x = _exact(s)
    if x is None or "/" in s:
        return None
    return int(x) if x.denominator == 1 else float(x)


def _as_labels(fields):
    """Numbers when every field is a number, else the strings.  Two different
    non-integer numbers that are one float64 (``0.1`` and
    ``0.10000000000000001``) raise :class:`InputError`."""
    nums = [_number(f) for f in fields]
    if not all(n is not None for n in nums):
        return list(fields)
    seen = {}
    for f, n in zip(fields, nums, strict=True):
        if isinstance(n, float) and seen.setdefault(n, (f, _exact(f)))[1] != _exact(f):
            raise InputError(f"labels {seen[n][0]!r} and {f!r} differ but are the same "
                             "float64 number; write them as integers or strings with --labels")
    return nums


def parse_labels(text: str):
    """``"1,2,3"`` -> ``[1, 2, 3]``; ``"low,mid,high"`` stays strings.

    Parameters
    ----------
    text : str
        The ``--labels`` option: comma-separated labels.

    Returns
    -------
    list
        Integers when every label is one, else the strings.

    Examples
    --------
    >>> parse_labels("1, 2,3"), parse_labels("low,mid,high")
    ([1, 2, 3], ['low', 'mid', 'high'])
    """
    fields = [f.strip() for f in text.split(",") if f.strip()]
    if not fields:
        raise InputError("--labels is empty")
    if len(fields) > MAX_CLASSES:
        raise InputError(f"--labels: {len(fields)} classes; at most {MAX_CLASSES} classes are "
                         "supported")
    for f in fields:
        _check_size(f, "--labels: ")
    return _as_labels(fields)


class LabelColumns:
    """The true labels, the named predictions and the ordered classes (:func:`read_label_columns`).

    Parameters
    ----------
    y_true : numpy.ndarray
        The true labels.
    preds : list of numpy.ndarray
        The predictions, one array per column.
    names : list of str
        The prediction columns' names.
    labels : numpy.ndarray
        The ordered classes.
    groups : numpy.ndarray, optional
        The group id of each row (``--groups``: integers when every id is one,
        else the strings).

    Examples
    --------
    >>> import numpy as np
    >>> c = LabelColumns(np.array([0, 1, 2]), [np.array([0, 1, 1])], ["a"], np.array([0, 1, 2]))
    >>> c.matrices()["a"].tolist()
    [[1, 0, 0], [0, 1, 0], [0, 1, 0]]
    """

    def __init__(self, y_true, preds, names, labels, groups=None):
        self.y_true, self.preds, self.names, self.labels = y_true, preds, names, labels
        #: the group id of each row (``--groups``: integers when every id is one, else
        #: the strings), or None
        self.groups = groups

    def matrices(self):
        """``{name: confusion matrix}`` over the common ``labels``."""
        from numeric import confusion_matrix

        return {n: confusion_matrix(self.y_true, p, labels=self.labels)
                for n, p in zip(self.names, self.preds, strict=True)}


def _split(text, path):
    # the separator is read off the first line that is not blank or a comment
    first = next((ln for ln in text.splitlines()
                  if ln.strip() and not ln.lstrip().startswith("#")), "")
    for delim in (",", ";", "\t"):
        if delim in first:
            reader = csv.reader(io.StringIO(text), delimiter=delim)
            try:
                return [[f.strip() for f in row] for row in reader]
            except csv.Error as exc:  # a field over csv's limit of 131,072 characters
                raise InputError(f"{path}:{reader.line_num}: {exc} (a label is a short text; "
                                 "is a quote left open?)") from None
    return [re.split(r"\s+", ln.strip()) for ln in text.splitlines()]


def read_label_columns(path: str, true: str, preds: list, labels=None,
                       groups=None) -> LabelColumns:
    """Read the true-label column and the prediction columns of a CSV file, and
    the group column ``groups`` (fold or seed ids, ``--groups``) when given.

    The group ids are not labels: they neither make nor need ``--labels``;
    they are integers when every id is a whole number (so fold 10 comes after
    fold 9), else strings.  Errors name the file, line and problem
    (:class:`InputError`).

    Parameters
    ----------
    path : str
        The CSV file.
    true : str
        The true labels' column: its name in the header line, or its number
        when every column is given by number.
    preds : list of str
        The prediction columns, likewise.
    labels : list, optional
        The ordered classes (``--labels``; default: the sorted numeric labels,
        which must then be contiguous).
    groups : str, optional
        The group column, likewise.

    Returns
    -------
    LabelColumns
        The columns read.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "preds.csv")
    ...     _ = path.write_text("y,a,b,fold\\n0,0,1,1\\n1,1,1,1\\n2,1,2,2\\n")
    ...     c = read_label_columns(str(path), "y", ["a", "b"], groups="fold")
    >>> c.names, c.labels.tolist(), c.groups.tolist(), c.matrices()["b"].tolist()
    (['a', 'b'], [0, 1, 2], [1, 1, 2], [[0, 1, 0], [0, 1, 0], [0, 0, 1]])
    """
    rows = _rows(path, read_text(path, newline=""))  # newline="": csv reads the line ends
    specs = [true, *preds, *([] if groups is None else [groups])]
    by_index = all(re.fullmatch(r"\d+", s) for s in specs)
    header_line, header = rows[0]
    has_header = not by_index or _index_header(path, rows[0], specs[:1 + len(preds)], labels)
    idx = [_column(path, rows[0], s, has_header, by_index) for s in specs]
    names = [header[i] if has_header and i < len(header) else f"column {i}" for i in idx]
    if len(set(idx)) != len(idx):
        raise InputError(f"{path}: a column is given twice ({', '.join(names)})")
    body = rows[1:] if has_header else rows
    if not body:
        raise InputError(f"{path}: no data rows after the header")
    cols = [[] for _ in idx]
    for lineno, r in body:
        for k, i in enumerate(idx):
            if i >= len(r) or r[i] == "":
                raise InputError(f"{path}:{lineno}: no value in column {names[k]!r}")
            _check_size(r[i], f"{path}:{lineno}: column {names[k]!r}: ")
            cols[k].append(r[i])
    group_ids = None
    if groups is not None:
        fields = cols.pop()
        names.pop()
        ints = [_number(f) for f in fields]
        group_ids = np.asarray(ints if all(isinstance(x, int) for x in ints) else fields)
    values = _as_labels([f for c in cols for f in c])
    n = len(body)
    arrays = [np.asarray(values[k * n:(k + 1) * n]) for k in range(len(cols))]
    lab = _classes(path, values, labels)
    if lab.dtype.kind in "iuf" and arrays[0].dtype.kind not in "iuf":
        raise InputError(f"{path}: --labels are numbers but the file's labels are not")
    allowed = set(lab.tolist())
    for name, a in zip(names, arrays, strict=True):
        bad = [x for x in a.tolist() if x not in allowed]
        if bad:
            raise InputError(f"{path}: label {bad[0]!r} in column {name!r} is not in --labels")
    return LabelColumns(arrays[0], arrays[1:], names[1:], lab, groups=group_ids)


def _rows(path, text):
    """``[(line number, fields)]`` of the non-blank rows, without the comments
    before the first row (later, a field ``#2`` is data)."""
    rows = []
    for i, r in enumerate(_split(text, path), start=1):
        if not any(r) or (not rows and r[0].startswith("#")):
            continue
        rows.append((i, r))
    if not rows:
        raise InputError(f"{path}: no rows found")
    return rows


def _index_header(path, first, label_specs, labels):
    """Columns given by index only: whether the first row is a header (none of
    its chosen fields is a label: a number, or in ``labels``)."""
    header_line, header = first
    known = set(map(str, labels)) if labels is not None else set()
    chosen = [header[int(s)] for s in label_specs if int(s) < len(header)]
    for f in chosen:
        _check_size(f, f"{path}:{header_line}: ")
    return bool(chosen) and all(_number(f) is None and f not in known for f in chosen)


def _column(path, first, s, has_header, by_index):
    """The 0-based index of the column ``s`` (a header name or an index)."""
    header_line, header = first
    named = [j for j, h in enumerate(header) if h == s] if has_header else []
    if len(named) > 1:
        raise InputError(f"{path}:{header_line}: the header has {len(named)} columns "
                         f"named {s!r}; give the column by its 0-based index")
    index = int(s) if re.fullmatch(r"\d+", s) else None
    if named and index is not None and named[0] != index:
        where = (f"the index of column {index} ({header[index]!r})" if index < len(header)
                 else "no valid index")
        raise InputError(f"{path}:{header_line}: {s!r} is the name of column {named[0]} "
                         f"and {where}; rename the column")
    if named:
        return named[0]
    if index is not None and (by_index or index < len(header)):
        return index
    raise InputError(f"{path}:{header_line}: no column {s!r} in the header "
                     f"({', '.join(header)})")


def _classes(path, values, labels):
    """The ordered classes: ``labels`` (``--labels``), or the sorted numeric labels
    of the file (a warning when integers skip a class)."""
    if labels is None:
        if isinstance(values[0], str):
            raise InputError(f"{path}: the labels are not numbers; give their ordinal order "
                             "with --labels (e.g. --labels low,mid,high)")
        labels = sorted(set(values))
        if all(isinstance(v, int) for v in labels) and labels[-1] - labels[0] != len(labels) - 1:
            from numeric import LabelWarning

            warnings.warn(
                f"{path}: the observed labels {', '.join(map(str, labels[:8]))}"
                f"{', ...' if len(labels) > 8 else ''} are not contiguous: a class absent "
                "from every column is dropped; give every class with --labels",
                LabelWarning, stacklevel=3)  # the caller of read_label_columns
    if len(labels) > MAX_CLASSES:
        raise InputError(f"{path}: {len(labels)} distinct labels; at most {MAX_CLASSES} classes "
                         "are supported")
    return np.asarray(labels)
