"""Every registered metric of one confusion matrix (or one pair of label vectors).

:func:`report` reads :data:`numeric.registry.REGISTRY` (through
:func:`numeric.registry.matrix_metrics`): a metric registered later appears
in the report, the CLI's ``metrics`` table and :func:`numeric.compare`
without any change here.

Every row has a unique name, its *key* (:func:`variant_keys`): the registry
name for a metric with one report variant (``mae``), else the name and the
variant's parameter (``amae_zero``, ``oc_0.25``, ``cohen_kappa_linear``).
``metrics=`` takes registry names (all variants) or keys (one variant), and
the rows come in the order given.  :meth:`Report.per_class` is the per-class
view (confusion matrix with its labels, sensitivity, MAE per true class,
support); ``to_pandas()`` needs pandas (the ``pandas`` extra, imported only
then).

The renderers of every table of the package are here, leaves that import
nothing of it: :func:`format_table` (plain text), :func:`latex_escape` and
:func:`latex_table` (booktabs LaTeX, also of :class:`numeric.Comparison`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._common import unlimited_int_digits
from exactfloor.errors import UndefinedMetric

__all__ = ["MetricValue", "Report", "PerClass", "report", "per_class", "format_table",
           "latex_escape", "latex_table",
           "metric_cases", "metric_rows", "variant_keys", "class_labels_in", "to_pandas",
           "decimals_for", "column_decimals", "format_decimal", "PANDAS_INSTALL"]

#: how to install what ``to_pandas()`` needs
PANDAS_INSTALL = 'pip install "ordinal-verify[pandas]"'


def format_table(header, rows, align=None) -> str:
    """A plain-text table: columns separated by two spaces, a dashed rule under the header.

    Parameters
    ----------
    header : sequence of str
        The columns' titles.
    rows : iterable of sequence
        The rows (each value printed with ``str``).
    align : str, optional
        ``"l"`` or ``"r"`` per column (default: all left).

    Returns
    -------
    str
        The table, without a final line break.

    Examples
    --------
    >>> print(format_table(("a", "bb"), [(1, 2)]))
    a  bb
    -  --
    1  2
    >>> print(format_table(("name", "x"), [("a", "1.5"), ("b", "-10.25")], align="lr"))
    name       x
    ----  ------
    a        1.5
    b     -10.25
    """
    widths = [max(len(str(r[i])) for r in [header] + list(rows)) for i in range(len(header))]
    align = align or "l" * len(header)
    fmt = "  ".join(f"{{:{'>' if a == 'r' else '<'}{w}}}" for a, w in zip(align, widths, strict=True))
    out = [fmt.format(*header), fmt.format(*["-" * w for w in widths])]
    out += [fmt.format(*map(str, r)) for r in rows]
    return "\n".join(line.rstrip() for line in out)


def latex_escape(text) -> str:
    """Text for LaTeX: ``\\ & % $ # _ { } ~ ^`` escaped.

    Parameters
    ----------
    text : object
        The text (its ``str``).

    Returns
    -------
    str
        The escaped text.

    Examples
    --------
    >>> latex_escape("tau_b & 50%")
    'tau\\\\_b \\\\& 50\\\\%'
    """
    out = []
    for ch in str(text):
        out.append({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                    "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                    "^": r"\textasciicircum{}", "<": r"\textless{}",
                    ">": r"\textgreater{}"}.get(ch, ch))
    return "".join(out)


def latex_table(header, align, rows, notes, caption, legend="") -> str:
    """A booktabs ``table`` environment with numbered notes and a legend under it.

    Parameters
    ----------
    header : sequence of str
        The column headings (LaTeX).
    align : str
        The column alignment, e.g. ``"lrr"``.
    rows : sequence of (sequence of str or None)
        The cells (LaTeX) of each row; None for a little space between groups.
    notes : sequence of str
        The numbered notes (plain text), under the table.
    caption : str
        The caption (plain text).
    legend : str, optional
        A last line under the notes (plain text).

    Returns
    -------
    str
        The LaTeX (it needs ``\\usepackage{booktabs}``).

    Examples
    --------
    >>> print(latex_table(["a", "b"], "lr", [["1", "2"], None, ["3", "4"]], ["a note"], "Cap"))
    % needs \\usepackage{booktabs}
    \\begin{table}[htbp]
    \\centering
    \\caption{Cap}
    \\begin{tabular}{lr}
    \\toprule
    a & b \\\\
    \\midrule
    1 & 2 \\\\
    \\addlinespace
    3 & 4 \\\\
    \\bottomrule
    \\end{tabular}
    \\par\\smallskip{\\footnotesize $^{1}$ a note}
    \\end{table}
    <BLANKLINE>
    """
    lines = ["% needs \\usepackage{booktabs}", "\\begin{table}[htbp]", "\\centering",
             f"\\caption{{{latex_escape(caption)}}}", f"\\begin{{tabular}}{{{align}}}",
             "\\toprule", " & ".join(header) + " \\\\", "\\midrule"]
    for r in rows:
        if r is None:
            lines.append("\\addlinespace")
        else:
            lines.append(" & ".join(r) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    under = [f"$^{{{i}}}$ {latex_escape(n)}" for i, n in enumerate(notes, start=1)]
    if legend:
        under.append(latex_escape(legend))
    if under:
        lines.append("\\par\\smallskip{\\footnotesize " + " \\\\\n".join(under) + "}")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def to_pandas(records, columns):
    """A :class:`pandas.DataFrame` of ``records`` (dicts) with ``columns`` in
    that order; pandas is imported only here (``ImportError`` with one line
    saying how to install it when it is missing).

    Parameters
    ----------
    records : iterable of dict
        The rows.
    columns : sequence of str
        The columns, in order.

    Returns
    -------
    pandas.DataFrame
        The table.

    Examples
    --------
    >>> to_pandas([{"a": 1, "b": 2}], ["b", "a"]).columns.tolist()
    ['b', 'a']
    """
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(f"to_pandas() needs pandas, which is not installed: "
                          f"{PANDAS_INSTALL}") from None
    return pd.DataFrame.from_records(list(records), columns=list(columns))


# ---------------------------------------------------------------------------
# decimals chosen from an interval's width
# ---------------------------------------------------------------------------
def decimals_for(width):
    """The decimals that show ``width`` with two significant digits:
    ``1 - floor(log10(width))``, at least 0; ``None`` for a width that is
    not positive and finite (no interval, or a point).

    An interval of width 0.32 is read to its hundredths: more digits of the
    values would be noise of the bootstrap, fewer would hide the interval's
    size (the rule of thumb of reporting an estimate to the digits of its
    uncertainty, Taylor 1997 §2.2, with a two-digit uncertainty).

    Parameters
    ----------
    width : float or None
        The interval's width.

    Returns
    -------
    int or None
        The decimals.

    Examples
    --------
    >>> decimals_for(0.32), decimals_for(0.0056), decimals_for(1.5), decimals_for(25.0)
    (2, 4, 1, 0)
    >>> decimals_for(0.0) is None
    True
    """
    if width is None or not np.isfinite(width) or width <= 0:
        return None
    return max(0, 1 - int(np.floor(np.log10(width))))


def column_decimals(values=(), widths=()):
    r"""One number of decimals for every number of a table's column (issue 39: 0.2 is never
    printed next to 0.22).

    The column's narrowest interval decides when it has intervals: two
    significant digits of its width (:func:`decimals_for`, the pairwise
    comparison table).  Without one, the column's largest magnitude gets four
    significant digits and every other number the same decimals (the per-class
    view's sensitivity and MAE columns):

    .. math:: d = \max\bigl(0,\ 3 - \lfloor \log_{10} \max_i |x_i| \rfloor\bigr)

    Parameters
    ----------
    values : iterable of numbers or None
        The column's numbers (``None``, NaN and infinities are skipped).
    widths : iterable of numbers or None
        The widths of the column's intervals (non-positive ones are skipped).

    Returns
    -------
    int or None
        The decimals (``None``: no number to print).

    Examples
    --------
    >>> column_decimals([0, 0.2222, 0.6, 0.3143])        # largest 0.6: 0.6000
    4
    >>> column_decimals([1.714, 0.7778, 0.4, 1.333]), column_decimals([1.0, 0.5])
    (3, 3)
    >>> column_decimals([0.61, 0.58], widths=[0.032, 0.05])   # the narrowest interval
    3
    >>> column_decimals([0, 0.0]), column_decimals([None])
    (0, None)
    """
    w = [float(x) for x in widths if x is not None]
    d = decimals_for(min((x for x in w if np.isfinite(x) and x > 0), default=None))
    if d is not None:
        return d
    mags = [abs(float(v)) for v in values if v is not None]
    mags = [m for m in mags if np.isfinite(m)]
    if not mags:
        return None
    top = max(mags)
    return 0 if top == 0 else max(0, 3 - int(np.floor(np.log10(top))))


def format_decimal(x, decimals=None) -> str:
    """``x`` with ``decimals`` decimals (4 significant digits when ``None``);
    ``-0.00`` is printed ``0.00``.

    Parameters
    ----------
    x : float or None
        The number; None is printed ``undefined``.
    decimals : int, optional
        The decimals; None for 4 significant digits.

    Returns
    -------
    str
        The number as text.

    Examples
    --------
    >>> format_decimal(-0.001, 2), format_decimal(1.23456), format_decimal(None)
    ('0.00', '1.235', 'undefined')
    """
    if x is None:
        return "undefined"
    x = float(x)
    s = f"{x:.4g}" if decimals is None else f"{x:.{decimals}f}"
    if re.fullmatch(r"-0(\.0*)?", s):
        s = s[1:]
    return s


# ---------------------------------------------------------------------------
# metric variants: unique keys, selection in the order given
# ---------------------------------------------------------------------------
def _token(value) -> str:
    """A variant parameter in a key: ``Fraction(1, 4)`` -> ``0.25``, ``"zero"``."""
    if isinstance(value, Fraction) and value.denominator & (value.denominator - 1) == 0 \
            or isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{float(value):g}"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return re.sub(r"[^0-9A-Za-z.]+", "_", str(value)).strip("_")


def variant_keys(m) -> list:
    """The unique keys of metric ``m``'s report variants.

    One variant: the registry name.  Several: the first variant without
    parameters keeps the name; the others add their parameter values
    (``amae_zero``, ``uoc_0.25``), or, for parameters computed from the matrix
    (OC's ``beta = 0.25/(N(K-1))``), the first number of the variant's label
    (``oc_0.25``).  A key that would repeat gets its variant's position.

    Parameters
    ----------
    m : numeric.registry.Metric
        A registered metric (``REGISTRY[name]``).

    Returns
    -------
    list of str
        One key per report variant.

    Examples
    --------
    >>> from numeric.registry import REGISTRY
    >>> variant_keys(REGISTRY["mae"]), variant_keys(REGISTRY["cohen_kappa"])
    (['mae'], ['cohen_kappa', 'cohen_kappa_linear', 'cohen_kappa_quadratic'])
    >>> variant_keys(REGISTRY["oc"]), variant_keys(REGISTRY["amae"])
    (['oc_0.25', 'oc_0.75'], ['amae', 'amae_zero'])
    """
    cases = m.cases()
    if len(cases) == 1:
        return [m.name]
    keys = []
    for i, v in enumerate(cases, start=1):
        if callable(v.params):
            tokens = re.findall(r"\d+(?:\.\d+)?", v.label)[:1]
        else:
            tokens = [_token(x) for x in dict(v.params).values()]
        key = "_".join([m.name, *tokens])
        keys.append(f"{m.name}_{i}" if key in keys else key)
    return keys


def metric_rows(metrics=None):
    """``[(Metric, Variant, key), ...]``: the registered matrix metrics and their
    report variants with their unique keys (:func:`variant_keys`).

    ``metrics=None``: all, in registration order.  Otherwise a list of
    registry names (every variant of that metric) or keys (one variant), in
    the order given; a name or key given twice raises ``ValueError``.

    Parameters
    ----------
    metrics : sequence of str, optional
        Registry names or variant keys; None for all.

    Returns
    -------
    list of tuple
        ``(Metric, Variant, key)`` per report variant.

    Examples
    --------
    >>> [k for m, v, k in metric_rows(["a_uoc", "amae_zero", "mae"])]
    ['a_uoc', 'amae_zero', 'mae']
    """
    from .registry import REGISTRY, matrix_metrics

    available = matrix_metrics()
    every = [(m, v, k) for m in available for v, k in zip(m.cases(), variant_keys(m), strict=True)]
    if metrics is None:
        return every
    if isinstance(metrics, str):
        metrics = [metrics]
    try:
        metrics = list(metrics)
    except TypeError:
        raise TypeError(f"metrics must be a list of registry names, got {metrics!r:.60}") \
            from None
    if not metrics:
        raise ValueError("metrics is empty: name at least one (or None for all)")
    if not all(isinstance(n, str) for n in metrics):
        raise TypeError(f"metrics must be registry names (str), got {metrics!r:.80}")
    names = {m.name for m in available}
    keys = {k: (m, v, k) for m, v, k in every}
    unknown = [n for n in metrics if n not in names and n not in keys]
    if unknown:
        probabilistic = [n for n in unknown if n in REGISTRY and not REGISTRY[n].takes_matrix]
        other = [n for n in unknown if n in REGISTRY and REGISTRY[n].takes_matrix]
        why = (f"{probabilistic} take probabilities, not a confusion matrix"
               if probabilistic else
               f"{other} need more than the matrix (e.g. interval lengths)" if other
               else f"{unknown} are not registered metrics")
        variants = sorted(k for k in keys if k not in names)
        raise ValueError(f"unknown metrics: {why}; choose from {sorted(names)} "
                         f"or one variant of {variants}")
    chosen = []
    for n in metrics:
        rows = [r for r in every if r[0].name == n] if n in names else [keys[n]]
        twice = [k for _, _, k in rows if k in {c[2] for c in chosen}]
        if twice:
            raise ValueError(f"metrics: {n!r} gives {twice[0]!r} a second time; name each "
                             "metric once")
        chosen += rows
    return chosen


def metric_cases(metrics=None):
    """``[(Metric, Variant), ...]``: :func:`metric_rows` without the keys.

    Parameters
    ----------
    metrics : sequence of str, optional
        Registry names or variant keys; None for all.

    Returns
    -------
    list of tuple
        ``(Metric, Variant)`` per report variant.

    Examples
    --------
    >>> [v.label for m, v in metric_cases(["mae", "amae"])]
    ['MAE', 'AMAE (observed classes)', 'AMAE (missing = zero)']
    """
    return [(m, v) for m, v, _ in metric_rows(metrics)]


def _label_text(label) -> str:
    return repr(label) if isinstance(label, str) else str(label)


def class_labels_in(message: str, labels) -> str:
    """A metric's message with the class *labels* for its 0-based class indices.

    The metrics see a matrix and name its rows by index ("true class 5 has no
    samples"); with ``labels = (1, ..., 6)`` that is the class labelled 6.
    ``labels=None`` leaves the message as it is.

    Parameters
    ----------
    message : str
        The metric's message.
    labels : sequence or None
        The class labels, in ordinal order.

    Returns
    -------
    str
        The message with the labels.

    Examples
    --------
    >>> class_labels_in("confusion matrix: true class 5 has no samples", [1, 2, 3, 4, 5, 6])
    'confusion matrix: true class 6 has no samples'
    >>> class_labels_in("true class 0 has no samples", ["low", "mid"])
    "true class 'low' has no samples"
    """
    if labels is None or not message:
        return message
    labels = list(labels)

    def sub(m):
        i = int(m.group(2))
        return m.group(1) + (_label_text(labels[i]) if i < len(labels) else m.group(2))

    return re.sub(r"\b((?:true |predicted )?class )(\d+)\b", sub, message)


def row_of(rows, label):
    """The row whose ``label`` is ``label``, whose unique ``key`` is, or, for a
    one-variant metric, whose ``name`` is (KeyError otherwise); shared by
    :class:`Report` and :class:`numeric.comparison.Comparison`."""
    for r in rows:
        if r.label == label or getattr(r, "key", None) == label:
            return r
    hits = [r for r in rows if r.name == label]
    if len(hits) == 1:
        return hits[0]
    raise KeyError(label)


#: the columns of :meth:`Report.records` (CSV, JSON and ``to_pandas()``)
REPORT_COLUMNS = ("metric", "name", "label", "value", "exact", "better", "source", "note")


@dataclass(frozen=True)
class MetricValue:
    """One metric (one report variant) of one matrix.

    ``value`` is a number in the report's arithmetic, or ``None`` when the
    metric is undefined for the matrix; ``note`` then says why.  ``key`` is
    the variant's unique name (:func:`variant_keys`).
    """

    name: str
    label: str
    value: Any
    better: str
    source: str
    note: str = ""
    key: str = ""

    @property
    def defined(self) -> bool:
        return self.value is not None

    def to_dict(self) -> dict:
        """The row as a record with the columns :data:`REPORT_COLUMNS`; ``exact``
        is the closed form of an exact value (``None`` for a float)."""
        exact = None
        if self.value is not None and not isinstance(self.value, (float, np.floating)):
            with unlimited_int_digits():  # a computed value, not a user's text
                exact = str(self.value)
        return {"metric": self.key or self.name, "name": self.name, "label": self.label,
                "value": None if self.value is None else float(self.value), "exact": exact,
                "better": self.better, "source": self.source, "note": self.note}


@dataclass(frozen=True)
class Report:
    """The metrics of one confusion matrix: ``rows`` of :class:`MetricValue`.

    ``labels`` are the classes in ordinal order (``0..K-1`` for a matrix
    given as counts), ``matrix`` the counts (``int64``).
    """

    rows: tuple
    K: int
    N: int
    arithmetic: str
    labels: tuple = ()
    matrix: Any = field(default=None, repr=False, compare=False)

    def __getitem__(self, label) -> MetricValue:
        """The row of a label (``"MAE"``), a key (``"amae_zero"``) or, for a
        one-variant metric, its name."""
        return row_of(self.rows, label)

    def to_dict(self) -> dict:
        return {"K": self.K, "N": self.N, "arithmetic": self.arithmetic,
                "labels": [_plain(x) for x in self.labels],
                "metrics": [r.to_dict() for r in self.rows]}

    def records(self) -> list:
        """One dict per row with the columns :data:`REPORT_COLUMNS`."""
        return [r.to_dict() for r in self.rows]

    def to_pandas(self):
        """The rows as a :class:`pandas.DataFrame` (columns :data:`REPORT_COLUMNS`).

        >>> df = report([[3, 1], [0, 4]]).to_pandas()
        >>> float(df.set_index("metric").loc["mer", "value"])
        0.125
        """
        return to_pandas(self.records(), REPORT_COLUMNS)

    def per_class(self) -> "PerClass":
        """The per-class view of the matrix (:func:`per_class`)."""
        return per_class(self.matrix, labels=self.labels)

    def to_latex(self, caption=None) -> str:
        """The rows as a booktabs table (``\\usepackage{booktabs}``): metric, value
        (4 significant digits), better; undefined values give their reason in a
        note under the table."""
        notes, rows = [], []
        for r in self.rows:
            cell = format_decimal(r.value)
            if r.value is None:
                notes.append(f"{r.label}: {r.note}")
                cell = f"undefined$^{{{len(notes)}}}$"
            else:
                cell = f"${cell}$"
            rows.append([latex_escape(r.label), cell, r.better])
        return latex_table(["Metric", "Value", "Better"], "lrl", rows, notes,
                           caption or f"Metrics of {self.N} samples in {self.K} classes.")

    def __str__(self) -> str:
        rows = [(r.label, "undefined" if r.value is None else f"{float(r.value):.6g}",
                 r.better, r.source if r.defined else r.note) for r in self.rows]
        return format_table(("metric", "value", "better", "source"), rows)


def _plain(x):
    """A numpy scalar as the Python number or string (JSON)."""
    return x.item() if hasattr(x, "item") else x


def _count_labels(y_true, y_pred, labels):
    """The confusion matrix of two label vectors and its classes, by the rules of
    :func:`numeric.confusion_matrix` (:func:`numeric.confusion.label_codes`)."""
    from .confusion import check_cells, label_codes

    lab, (ct, cp) = label_codes({"y_true": y_true, "y_pred": y_pred}, labels=labels)
    K = lab.size
    check_cells(K * K, f"a confusion matrix of {K} classes")
    cm = np.bincount(ct * K + cp, minlength=K * K).reshape(K, K).astype(np.int64)
    return cm, tuple(_plain(x) for x in lab.tolist())


def report(cm, y_pred=None, *, labels=None, metrics=None, arithmetic="float") -> Report:
    r"""Every registered metric of a confusion matrix, or of ``(y_true, y_pred)``.

    .. math:: \{\, m(C) : m \in \texttt{REGISTRY},\ m \text{ takes only } C \,\}

    Each metric is the registered function with its report variants (OC at
    cardoso2011's two table betas, UOC at silva2018 Table I's betas, AMAE
    with both policies for a missing class); the sources are the registry's
    (``MAE``: silva2018 eq. 3, ...).

    Parameters
    ----------
    cm : array_like, shape (K, K), or label vector
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.  With
        ``y_pred`` it is ``y_true``, counted by :func:`numeric.confusion_matrix`.
    y_pred : array_like, optional
        Predicted labels.
    labels : array_like, optional
        The classes in their ordinal order (label vectors only; needed for
        labels without a natural order, such as strings: see
        :func:`numeric.confusion_matrix`).  The notes of undefined metrics name
        the classes by these labels.
    metrics : list of str, optional
        Registry names (every variant) or variant keys (:func:`variant_keys`),
        reported in the order given (default: every metric of the matrix alone,
        in registration order).
    arithmetic : {"float", "exact", "mp"}

    Returns
    -------
    Report
        ``rows`` in the order above; a metric undefined for this matrix
        (tau_b with one class) has ``value=None`` and the reason in ``note``.

    Raises
    ------
    ValueError
        A matrix that no metric can take (not square, negative counts, a
        total beyond int64, ...): raised once, with the problem named; an
        unknown ``arithmetic`` (it made every metric "undefined").

    Examples
    --------
    >>> r = report([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]],
    ...            arithmetic="exact")     # silva2018 matrix B, Table I
    >>> r["A_UOC"].value, r["A_UOC"].better, r["A_UOC"].source
    (5/9, 'lower', 'silva2018 eq. 23')
    >>> report([1, 2, 3, 3], [1, 2, 2, 3])["mer"].value
    0.25
    >>> report([1, 2, 2], [1, 2, 1], labels=[1, 2, 3], metrics=["tc"])["tc"].note[:45]
    'confusion matrix: true class 3 has no samples'
    """
    from exactfloor.arith import get_arithmetic
    from ._validation import check_counts

    get_arithmetic(arithmetic)  # an unknown arithmetic is the caller's error, not every metric's
    class_labels = None
    if y_pred is not None:
        cm, class_labels = _count_labels(cm, y_pred, labels)
    elif labels is not None:
        raise ValueError("labels= is for label vectors: call report(y_true, y_pred, labels=...)")
    counts = check_counts(cm)
    if counts.ndim != 2:
        raise ValueError(f"report takes one matrix, not a stack of shape {counts.shape}")
    rows = []
    for m, v, key in metric_rows(metrics):
        try:
            value = m.function(counts, **v.kwargs(counts), arithmetic=arithmetic)
            if isinstance(value, np.floating):
                value = float(value)
            note = ""
        except UndefinedMetric as exc:  # undefined here; anything else is an error, raised
            value, note = None, class_labels_in(str(exc), class_labels)
        rows.append(MetricValue(m.name, v.label, value, m.better, m.source, note, key))
    K = int(counts.shape[0])
    return Report(tuple(rows), K=K, N=int(sum(int(x) for x in counts.flat)),
                  arithmetic=arithmetic, labels=class_labels or tuple(range(K)),
                  matrix=np.asarray(counts, dtype=object if counts.dtype == object else np.int64))


# ---------------------------------------------------------------------------
# per class
# ---------------------------------------------------------------------------
#: the columns of :meth:`PerClass.records`
PER_CLASS_COLUMNS = ("class", "support", "sensitivity", "mae", "note")


@dataclass(frozen=True)
class PerClass:
    """The per-class view of one confusion matrix (:func:`per_class`).

    Built by :func:`per_class`, never by hand.  A class without samples has
    ``None`` and the reason in ``notes[i]``.

    Parameters
    ----------
    labels : tuple
        The classes in ordinal order.
    matrix : ndarray, shape (K, K)
        ``matrix[i, j]``: true class ``labels[i]`` predicted as ``labels[j]``.
    support : tuple of int
        ``support[i]``: the samples of true class ``i``.
    sensitivity : tuple of float or None
        ``sensitivity[i] = matrix[i, i] / support[i]`` (recall).
    mae : tuple of float or None
        ``mae[i] = sum_j |i - j| matrix[i, j] / support[i]``, the MAE of the
        samples of true class ``i`` in class steps (silva2018 eq. 3 on row ``i``;
        AMAE is their mean).
    notes : tuple of str
        Why a class's values are undefined ("" when they are not).

    Examples
    --------
    >>> pc = per_class([[2, 1, 0], [0, 0, 0], [0, 1, 3]])
    >>> pc.support, pc.sensitivity[1], pc.mae[2], pc.notes[1]
    ((3, 0, 4), None, 0.25, 'true class 1 has no samples: its sensitivity and MAE are undefined')
    """

    labels: tuple
    matrix: np.ndarray
    support: tuple
    sensitivity: tuple
    mae: tuple
    notes: tuple

    def __eq__(self, other):
        return isinstance(other, PerClass) and self.to_dict() == other.to_dict()

    __hash__ = None

    def records(self) -> list:
        """One dict per class, the columns :data:`PER_CLASS_COLUMNS`."""
        return [{"class": _plain(c), "support": s, "sensitivity": se, "mae": e, "note": n}
                for c, s, se, e, n in zip(self.labels, self.support, self.sensitivity,
                                          self.mae, self.notes, strict=True)]

    def to_dict(self) -> dict:
        return {"labels": [_plain(x) for x in self.labels],
                "matrix": np.asarray(self.matrix).tolist(), "classes": self.records()}

    def to_pandas(self):
        """The per-class table as a :class:`pandas.DataFrame` (columns
        :data:`PER_CLASS_COLUMNS`); the matrix is :meth:`matrix_frame`."""
        return to_pandas(self.records(), PER_CLASS_COLUMNS)

    def matrix_frame(self):
        """The confusion matrix as a :class:`pandas.DataFrame` indexed by the labels."""
        df = to_pandas([dict(zip(self.labels, row, strict=True)) for row in self.matrix.tolist()],
                       self.labels)
        df.index = list(self.labels)
        df.index.name, df.columns.name = "true", "predicted"
        return df

    def __str__(self) -> str:
        lab = [str(x) for x in self.labels]
        cm = format_table(["true \\ predicted", *lab],
                          [[lab[i], *map(str, row)] for i, row in enumerate(self.matrix.tolist())],
                          align="l" + "r" * len(lab))
        # one decimal rule per column (column_decimals, the pairwise table's): 0.6000 next to 0.2222
        d_se, d_mae = column_decimals(self.sensitivity), column_decimals(self.mae)
        rows = [(lab[i], str(self.support[i]), format_decimal(self.sensitivity[i], d_se),
                 format_decimal(self.mae[i], d_mae)) for i in range(len(lab))]
        table = format_table(("class", "support", "sensitivity", "MAE (true class)"), rows,
                             align="lrrr")
        notes = [n for n in self.notes if n]
        return "\n".join([cm, "", table, *notes])


def per_class(cm, y_pred=None, *, labels=None) -> PerClass:
    r"""The confusion matrix with its labels, and per true class: support,
    sensitivity (recall) and MAE.

    .. math:: n_i = \sum_j C_{ij},\quad \mathrm{Se}_i = C_{ii} / n_i,\quad
              \mathrm{MAE}_i = \sum_j |i - j|\, C_{ij} / n_i

    Parameters
    ----------
    cm : array_like, shape (K, K), or label vector
        Counts (rows = true class), or ``y_true`` with ``y_pred``.
    y_pred : array_like, optional
    labels : array_like, optional
        With label vectors: the classes in ordinal order (as
        :func:`numeric.confusion_matrix`); with a matrix: the names of its
        ``K`` classes (default ``0..K-1``).

    Returns
    -------
    PerClass

    Examples
    --------
    >>> pc = per_class([1, 1, 2, 3, 3], [1, 2, 2, 3, 1], labels=[1, 2, 3])
    >>> pc.support, pc.sensitivity, pc.mae
    ((2, 1, 2), (0.5, 1.0, 0.5), (0.5, 0.0, 1.0))
    """
    from ._validation import check_counts

    if y_pred is not None:
        counts, labels = _count_labels(cm, y_pred, labels)
        K = len(labels)
    else:
        counts = check_counts(cm)
        if counts.ndim != 2:
            raise ValueError(f"per_class takes one matrix, not a stack of shape {counts.shape}")
        K = counts.shape[0]
        if labels is None or len(labels) == 0:
            labels = tuple(range(K))
        else:
            labels = tuple(_plain(x) for x in labels)
            if len(labels) != K or len(set(labels)) != K:
                raise ValueError(f"labels must name the {K} classes of the matrix once each, "
                                 f"got {len(labels)} labels ({list(labels)!r:.80})")
    rows = [[int(x) for x in r] for r in counts.tolist()]
    support, sens, mae, notes = [], [], [], []
    for i, r in enumerate(rows):
        n = sum(r)
        support.append(n)
        if n == 0:
            sens.append(None)
            mae.append(None)
            notes.append(f"true class {_label_text(labels[i])} has no samples: its sensitivity "
                         "and MAE are undefined")
        else:
            sens.append(r[i] / n)
            mae.append(sum(abs(i - j) * c for j, c in enumerate(r)) / n)
            notes.append("")
    return PerClass(tuple(labels), np.array(rows, dtype=np.int64).reshape(K, K), tuple(support),
                    tuple(sens), tuple(mae), tuple(notes))
