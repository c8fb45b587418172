r"""The tables papers print of a study (:func:`numeric.study`): methods as columns.

Two tables: one metric's datasets x methods (:func:`dataset_table`), and the
metrics x methods table whose cells are averaged over the datasets
(:func:`metric_table`).  A cell is ``mean ± sd`` (over the folds of the
dataset, or over the datasets), every number of a table with the same
decimals; in each row the best mean is bold and the second underlined (by
the values as printed, so that two cells that print alike are marked alike,
in the row's direction: the registry's ``better``); the last row holds the
average ranks (lower is better, marked the same way); the caption states the
Friedman and post-hoc results and when they are unreliable.

Renderers: :meth:`StudyTable.to_markdown` (bold ``**x**``, underline
``<u>x</u>``), :meth:`StudyTable.to_latex` (booktabs; ``layout="narrow"``
for one column of a two-column paper, up to 6 methods: the sd under the mean
in a smaller font, leading zeros dropped, scaled down to the column only if
still wider; ``"wide"`` spans the page, ``table*``) and :meth:`StudyTable.to_pandas` (the printed cells).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .reporting import latex_escape

__all__ = ["StudyTable", "dataset_table", "metric_table", "marks", "latex_caption",
           "NARROW_MAX_METHODS"]

#: the most methods the narrow LaTeX layout takes (one column of a two-column paper)
NARROW_MAX_METHODS = 6


def _fmt(x, decimals, drop_zero=False):
    s = f"{float(x):.{decimals}f}"
    if s.lstrip("-").strip("0.") == "":
        s = s.lstrip("-")  # -0.000 is 0.000
    if drop_zero and s.lstrip("-").startswith("0."):
        s = s.replace("0.", ".", 1)
    return s


def latex_caption(text) -> str:
    r"""A caption's plain text as LaTeX: escaped, with the statistics' symbols in math.

    Parameters
    ----------
    text : str
        The caption (plain text, e.g. :attr:`StudyTable.caption`).

    Returns
    -------
    str
        The LaTeX.

    Examples
    --------
    >>> print(latex_caption("Friedman chi2_F = 9.28; F_F = 3.69; 0.1 ± 0.2 (§3.2.2)"))
    Friedman $\chi^2_F$ = 9.28; $F_F$ = 3.69; 0.1 $\pm$ 0.2 (\S{}3.2.2)
    """
    out = latex_escape(text)
    for plain, tex in (("chi2\\_F", "$\\chi^2_F$"), ("F\\_F", "$F_F$"), ("±", "$\\pm$"),
                       ("§", "\\S{}")):
        out = out.replace(plain, tex)
    return out


def marks(values, better, decimals):
    """Which cells of a row are the best (``2``) and second best (``1``), by the printed values.

    Parameters
    ----------
    values : array_like, shape (k,)
    better : {"higher", "lower"}
    decimals : int

    Returns
    -------
    ndarray of int, shape (k,)
        2 for every cell printing the best value, 1 for the second best
        distinct printed value, 0 otherwise.

    Examples
    --------
    >>> marks([0.7501, 0.7499, 0.6, 0.9], "higher", 3).tolist()
    [1, 1, 0, 2]
    >>> marks([1.0, 2.0, 2.0], "lower", 2).tolist()
    [2, 1, 1]
    """
    printed = np.array([float(_fmt(v, decimals)) for v in values])
    distinct = np.unique(printed)
    if better == "higher":
        distinct = distinct[::-1]
    out = np.zeros(printed.size, dtype=int)
    out[printed == distinct[0]] = 2
    if distinct.size > 1:
        out[printed == distinct[1]] = 1
    return out


@dataclass(frozen=True)
class StudyTable:
    """A table of a study: rows (datasets or metrics) x methods, mean ± sd, an average-rank row.

    Built by :func:`dataset_table` and :func:`metric_table`, never by hand.

    Parameters
    ----------
    kind : {"datasets", "metrics"}
        What the rows are.
    rows, methods : tuple of str
        The rows' and the columns' names.
    means, sds : ndarray, shape (rows, methods)
        The cells; ``sds`` NaN where there is none (printed without ``±``).
    better : tuple of str
        Each row's direction.
    average_ranks : ndarray, shape (methods,)
        The last row.
    decimals : int
        The decimals of the cells.
    caption : str
        Plain text (the tests and their reliability).
    rank_label : str, optional
        The label of the last row.

    Examples
    --------
    >>> from numeric import study
    >>> rows = {"dataset": ["a"] * 4 + ["b"] * 4, "method": ["m", "m", "n", "n"] * 2,
    ...         "fold": [0] * 8, "y_true": [0, 1, 0, 1] * 2, "y_pred": [0, 1, 1, 1] * 2}
    >>> s = study(rows, metrics=["mae", "amae"])
    >>> t = dataset_table(s, "mae")
    >>> t.kind, t.rows, t.methods, t.means.tolist(), t.rank_label
    ('datasets', ('a', 'b'), ('m', 'n'), [[0.0, 0.5], [0.0, 0.5]], 'average rank')
    """

    kind: str
    rows: tuple
    methods: tuple
    means: np.ndarray = field(repr=False)
    sds: np.ndarray = field(repr=False)
    better: tuple
    average_ranks: np.ndarray
    decimals: int
    caption: str
    rank_label: str = "average rank"

    def _all_rows(self):
        """(label, means, sds or None, better) of every row, the rank row last."""
        out = [(r, self.means[i], self.sds[i], self.better[i]) for i, r in enumerate(self.rows)]
        out.append((self.rank_label, self.average_ranks, None, "lower"))
        return out

    def _cells(self, number, bold, underline, pm):
        lines = []
        for label, m, s, better in self._all_rows():
            mk = marks(m, better, self.decimals)
            cells = []
            for j in range(len(self.methods)):
                v = number(m[j])
                v = bold(v) if mk[j] == 2 else underline(v) if mk[j] == 1 else v
                if s is not None and not np.isnan(s[j]):
                    v = pm(v, number(s[j]))
                cells.append(v)
            lines.append((label, cells))
        return lines

    def to_markdown(self) -> str:
        """A Markdown table (best ``**bold**``, second ``<u>underlined</u>``) and its caption."""
        from .markdown import escape, table

        num = lambda x: _fmt(x, self.decimals)  # noqa: E731
        lines = self._cells(num, lambda v: f"**{v}**", lambda v: f"<u>{v}</u>",
                            lambda v, s: f"{v} ± {s}")
        head = ["dataset" if self.kind == "datasets" else "metric", *map(escape, self.methods)]
        body = table(head, [[escape(label), *cells] for label, cells in lines],
                     align=["left"] + ["right"] * len(self.methods))
        return f"{body}\n\n{escape(self.caption)}\n"

    def to_latex(self, *, layout="narrow", label=None) -> str:
        r"""A booktabs table: ``layout="narrow"`` (one column, at most 6 methods) or ``"wide"`` (``table*``).

        The narrow layout sets the sd under the mean in ``\scriptsize`` and
        drops leading zeros (``.763``), at ``\footnotesize`` with
        ``\tabcolsep`` 3pt.  Whether that fits depends on the names: six
        methods named like ORCA's (``SVOREX``, ``REDSVM``) and datasets like
        ``winequality-red`` measured 294pt in pdflatex, over a 229.5pt
        column; so the tabular is set in a box and scaled down to
        ``\columnwidth`` (``\textwidth`` for ``"wide"``) only when it is
        wider, and never scaled up.  Needs ``\usepackage{booktabs}`` and
        ``\usepackage{graphicx}`` (``\resizebox``).
        """
        if layout not in ("narrow", "wide"):
            raise ValueError(f"layout must be 'narrow' or 'wide', got {layout!r}")
        k = len(self.methods)
        narrow = layout == "narrow"
        if narrow and k > NARROW_MAX_METHODS:
            raise ValueError(f"the narrow layout fits at most {NARROW_MAX_METHODS} methods in one "
                             f"column, this table has {k}: use layout='wide'")
        num = (lambda x: _fmt(x, self.decimals, drop_zero=narrow))  # noqa: E731
        if narrow:
            pm = (lambda v, s: f"\\shortstack{{${v}$\\\\{{\\scriptsize $\\pm{s}$}}}}")  # noqa: E731
        else:
            pm = (lambda v, s: f"${v} \\pm {s}$")  # noqa: E731
        lines = self._cells(num, lambda v: f"\\mathbf{{{v}}}", lambda v: f"\\underline{{{v}}}", pm)
        env = "table" if narrow else "table*"
        out = ["% needs \\usepackage{booktabs} and \\usepackage{graphicx}",
               f"\\begin{{{env}}}[htbp]", "\\centering"]
        if narrow:
            out += ["\\footnotesize", "\\setlength{\\tabcolsep}{3pt}"]
        out += [f"\\caption{{{latex_caption(self.caption)}}}"]
        if label:
            out.append(f"\\label{{{label}}}")
        first = "dataset" if self.kind == "datasets" else "metric"
        width = "\\columnwidth" if narrow else "\\textwidth"
        out += ["\\sbox0{%", f"\\begin{{tabular}}{{l{'c' * k}}}", "\\toprule",
                " & ".join([first, *map(latex_escape, self.methods)]) + " \\\\", "\\midrule"]
        for n, (row_label, cells) in enumerate(lines):
            if n == len(lines) - 1:
                out.append("\\midrule")
            cells = [c if c.startswith("\\shortstack") or c.startswith("$") else f"${c}$" for c in cells]
            out.append(" & ".join([latex_escape(row_label), *cells]) + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}}%",
                f"\\ifdim\\wd0>{width}\\resizebox{{{width}}}{{!}}{{\\usebox0}}\\else\\usebox0\\fi",
                f"\\end{{{env}}}"]
        return "\n".join(out) + "\n"

    def to_pandas(self):
        """The printed cells as a DataFrame (rows x methods, the rank row last; pandas extra)."""
        from .reporting import PANDAS_INSTALL

        try:
            import pandas as pd
        except ImportError:
            raise ImportError(f"to_pandas() needs pandas, which is not installed: {PANDAS_INSTALL}") \
                from None
        lines = self._cells(lambda x: _fmt(x, self.decimals), lambda v: v, lambda v: v,
                            lambda v, s: f"{v} ± {s}")
        return pd.DataFrame([cells for _, cells in lines], index=[label for label, _ in lines],
                            columns=list(self.methods))

    def __str__(self) -> str:
        return self.to_markdown()


def _check_decimals(decimals):
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)) or not 0 <= decimals <= 10:
        raise ValueError(f"decimals must be a whole number 0..10, got {decimals!r}")
    return int(decimals)


def dataset_table(s, key, *, decimals=3) -> StudyTable:
    """One metric of a :class:`numeric.Study`: datasets x methods, mean ± sd over the folds.

    Parameters
    ----------
    s : numeric.Study
        The study (:func:`numeric.study`).
    key : str
        The metric's key (one of ``s.metrics``).
    decimals : int, optional
        The decimals of the cells, 0 to 10 (default 3).

    Returns
    -------
    StudyTable
        The table, its last row the average ranks.

    Examples
    --------
    >>> from numeric import study
    >>> rows = {"dataset": ["a"] * 4 + ["b"] * 4, "method": ["m", "m", "n", "n"] * 2,
    ...         "fold": [0] * 8, "y_true": [0, 1, 0, 1] * 2, "y_pred": [0, 1, 1, 1] * 2}
    >>> s = study(rows, metrics=["mae", "amae"])
    >>> t = dataset_table(s, "mae", decimals=2)
    >>> t.means.tolist(), t.average_ranks.tolist(), t.caption.startswith("MAE: mean ± sd")
    ([[0.0, 0.5], [0.0, 0.5]], [1.0, 2.0], True)
    """
    decimals = _check_decimals(decimals)
    t = s.tests[key]
    return StudyTable("datasets", s.datasets, s.methods, s.means[key], s.sds[key],
                      (s.better[key],) * len(s.datasets), t.average_ranks, decimals,
                      f"{s.labels[key]}: mean ± sd over the folds of each dataset; best in bold, "
                      f"second underlined. " + t.caption())


def metric_table(s, keys, *, decimals=3) -> StudyTable:
    """Metrics x methods of a :class:`numeric.Study`: mean ± sd over the datasets of
    each dataset's mean; the last row the average over the metrics of each method's average rank.

    Parameters
    ----------
    s : numeric.Study
        The study (:func:`numeric.study`).
    keys : sequence of str
        The metrics' keys (of ``s.metrics``), in the rows' order.
    decimals : int, optional
        The decimals of the cells, 0 to 10 (default 3).

    Returns
    -------
    StudyTable
        The table.

    Examples
    --------
    >>> from numeric import study
    >>> rows = {"dataset": ["a"] * 4 + ["b"] * 4, "method": ["m", "m", "n", "n"] * 2,
    ...         "fold": [0] * 8, "y_true": [0, 1, 0, 1] * 2, "y_pred": [0, 1, 1, 1] * 2}
    >>> s = study(rows, metrics=["mae", "amae"])
    >>> t = metric_table(s, ["mae", "amae"])
    >>> t.kind, t.rows, t.means.tolist(), t.rank_label
    ('metrics', ('MAE', 'AMAE (observed classes)'), [[0.0, 0.5], [0.0, 0.5]], 'mean average rank')
    """
    decimals = _check_decimals(decimals)
    means = np.array([s.means[k].mean(axis=0) for k in keys])
    sds = np.array([s.means[k].std(axis=0, ddof=1) for k in keys])
    ranks = np.mean([s.tests[k].average_ranks for k in keys], axis=0)
    parts = [f"Mean ± sd over N = {len(s.datasets)} datasets of each dataset's mean over its folds; "
             "best in bold, second underlined; the last row averages each method's average rank "
             "over the metrics."]
    for k in keys:
        t = s.tests[k]
        parts.append(f"{s.labels[k]}: {t.friedman.summary()}; Nemenyi CD = {t.nemenyi.cd:.3f}.")
    notes = dict.fromkeys(n if n.startswith(("N = ", "with N = ")) else f"{s.labels[k]}: {n}"
                          for k in keys for n in s.tests[k].notes)
    parts += [n[0].upper() + n[1:] + "." for n in notes]
    return StudyTable("metrics", tuple(s.labels[k] for k in keys), s.methods, means, sds,
                      tuple(s.better[k] for k in keys), ranks, decimals, " ".join(parts),
                      rank_label="mean average rank")
