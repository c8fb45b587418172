"""What paired and grouped comparisons share: rows, tables, the winner rule, the tests.

A private module, the base of :mod:`numeric.comparison` (the paired bootstrap,
:func:`numeric.compare`) and :mod:`numeric.groups` (comparisons over folds or
seeds, :func:`numeric.compare_groups`), which import it and not each other
(except ``compare(..., groups=)`` handing over to ``compare_groups``).  Its
public names are documented and importable where they always were,
``numeric.comparison`` (:func:`numeric.comparison.winner_of`,
:func:`~numeric.comparison.holm`, :func:`~numeric.comparison.bootstrap_p_value`,
:data:`~numeric.comparison.COMPARISON_COLUMNS`, ...).  It imports only
:mod:`numeric.reporting` (the renderers and formatters) and
:mod:`numeric._validation`.

- the rows and tables: :class:`PairRow` (winner, record), :class:`PairTable`
  (look-ups, records, pandas, text and LaTeX tables), :func:`comparison_record`,
  :data:`COMPARISON_COLUMNS`, and the table's cells and notes (``_table``);
- the statistics: :func:`metric_on_stack` (a metric on a stack of resampled
  matrices), :func:`percentile_interval`, :func:`bootstrap_p_value`,
  :func:`holm` and :func:`winner_of` (the one winner rule);
- the argument checks of :func:`numeric.compare` and :func:`numeric.compare_groups`.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from ._validation import collect_undefined
from exactfloor.errors import UndefinedMetric
from .reporting import latex_escape, latex_table


#: the adjustments of the p-values across the rows and pairs of a comparison
ADJUSTMENTS = ("none", "holm")


def _letters(k):
    """Default classifier names: ``A, B, ...`` (``P1, P2, ...`` beyond 26)."""
    return tuple(chr(65 + i) for i in range(k)) if k <= 26 else tuple(f"P{i + 1}" for i in range(k))


def _check_confidence(confidence):
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(
            confidence, (int, float, np.integer, np.floating)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")


#: one core: the time of one metric variant per matrix cell, on a stack of matrices
#: (:func:`metric_on_stack`); measured in :func:`numeric.compare` with every metric at
#: K = 2,000, 10 resamples, 2 classifiers (a loaded 2-core host, 2026-12-07): 12 of the
#: 33 variants in 20 s of CPU, 1.9e-8 s per cell; every variant but A_UOC with
#: ``compare(metrics=...)`` at K = 50, 100, 200, 400 (2026-12-08): 1.7e-8 to 2.6e-8
COMPARE_SECONDS_PER_CELL = 2e-8

#: one core: A_UOC's time per matrix cell *and class*: its envelope has more pieces
#: as K grows, so one matrix takes about K^3 times this; measured with
#: ``compare(metrics=["a_uoc"])`` on labels off by up to 3 classes, 400 K samples,
#: 2 classifiers (2026-12-08): 1.7e-8 at K = 50, 1.1e-8 at K = 100, 1.2e-8 at K = 200,
#: 1.7e-8 at K = 400 (per cell 8.7e-7 to 6.7e-6 s: 40 to 330 times another variant's)
COMPARE_AUOC_SECONDS_PER_CELL_CLASS = 2e-8


def matrix_seconds(K, variants):
    """The estimated seconds, on one core, of the metric ``variants`` on one ``K x K``
    matrix of a stack: :data:`COMPARE_SECONDS_PER_CELL` per cell and variant, A_UOC's
    ``K *`` :data:`COMPARE_AUOC_SECONDS_PER_CELL_CLASS` per cell.

    ``variants`` as :func:`numeric.reporting.metric_rows` lists them.

    >>> from numeric.reporting import metric_rows
    >>> round(matrix_seconds(400, metric_rows(["mae", "a_uoc"])), 3)  # (2e-8 + 400 x 2e-8) 400^2
    1.283
    """
    return K * K * sum(K * COMPARE_AUOC_SECONDS_PER_CELL_CLASS if m.name == "a_uoc"
                       else COMPARE_SECONDS_PER_CELL for m, _, _ in variants)


def metric_on_stack(fn, stack, **kwargs):
    """``fn(stack, **kwargs)`` in float, and which matrices it is defined for.

    The metric's own definedness checks record which matrices leave it
    undefined, so the whole stack is one call; an
    :class:`~exactfloor.errors.UndefinedMetric` raised elsewhere (a check that
    does not record) falls back to halving the stack until the undefined matrices
    are isolated (O(u log R) calls for u of them).

    Parameters
    ----------
    fn : callable
        A metric of :mod:`numeric` (it takes a stack and ``arithmetic="float"``).
    stack : array_like, shape (R, K, K)
        The matrices, e.g. the resampled confusion matrices.
    **kwargs
        The metric's own parameters (``beta=``, ...).

    Returns
    -------
    values : ndarray of float64, shape (R,)
        NaN exactly where ``defined`` is False (never returned to a user).
    defined : ndarray of bool, shape (R,)
    reason : str
        The message of one undefined matrix ("" when all are defined).

    Examples
    --------
    >>> from numeric import kendall_tau_b
    >>> v, ok, why = metric_on_stack(kendall_tau_b, [[[2, 0], [0, 2]], [[4, 0], [0, 0]]])
    >>> float(v[0]), ok.tolist(), why.startswith("tau_b is undefined")
    (1.0, [True, False], True)
    """
    stack = np.asarray(stack)
    values = np.full(len(stack), np.nan)
    defined = np.zeros(len(stack), dtype=bool)
    reason = []

    def run(lo, hi):
        try:
            with collect_undefined() as masks:
                out = fn(stack[lo:hi], **kwargs, arithmetic="float")
            ok = np.ones(hi - lo, dtype=bool)
            for mask in masks:
                ok &= ~np.broadcast_to(mask, ok.shape)
            if not ok.all() and not reason:
                try:  # the message of the first undefined matrix, from the metric itself
                    fn(stack[lo + int(np.argmin(ok))], **kwargs, arithmetic="float")
                except UndefinedMetric as exc:
                    reason.append(str(exc))
            values[lo:hi] = np.where(ok, out, np.nan)
            defined[lo:hi] = ok
        except UndefinedMetric as exc:
            if hi - lo == 1:
                reason.append(str(exc))
                return
            mid = (lo + hi) // 2
            run(lo, mid)
            run(mid, hi)

    if len(stack):
        run(0, len(stack))
    return values, defined, (reason[0] if reason else "")


def percentile_interval(values, confidence=0.95):
    r"""The percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13).

    .. math:: [\hat\theta^{*(\alpha/2)},\ \hat\theta^{*(1-\alpha/2)}],\quad \alpha = 1 - \text{confidence}

    Quantiles by numpy's default (linear) rule, as ``scipy.stats.bootstrap``
    with ``method="percentile"``.

    Parameters
    ----------
    values : array_like of float
        The resampled values.
    confidence : float, optional
        The interval's level, in (0, 1) (default 0.95).

    Returns
    -------
    (float, float)
        The interval's ends.

    Examples
    --------
    >>> percentile_interval(np.arange(101.0), 0.9)
    (5.0, 95.0)
    """
    _check_confidence(confidence)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(np.asarray(values, dtype=np.float64), [a, 1 - a])
    return float(lo), float(hi)


def bootstrap_p_value(diffs) -> float:
    r"""The two-sided bootstrap p-value of "no difference": the percentile interval inverted.

    .. math:: p = \min\{\alpha : 0 \notin [\hat\Delta^{*(\alpha/2)}, \hat\Delta^{*(1-\alpha/2)}]\}
              \approx 2 \min\big(P^{*}(\Delta^{*} \le 0),\ P^{*}(\Delta^{*} \ge 0)\big)

    The smallest ``alpha`` for which the equal-tailed ``1 - alpha``
    percentile interval (:func:`percentile_interval`, numpy's linear
    quantiles) of the resampled differences excludes 0; the right-hand side
    is twice the smaller tail proportion around 0 (the bootstrap achieved
    significance level, Efron & Tibshirani 1993 ch. 15-16), from which it
    differs by at most ``2 / (R - 1)``.  Inverting the interval itself makes
    the test and the interval agree: ``p < 1 - confidence`` exactly when the
    interval at ``confidence`` excludes 0.  ``p = 0`` when every resampled
    difference is on one side of 0 (report it as ``p < 1/R``); 1 when 0 is
    the median.

    Parameters
    ----------
    diffs : array_like of float
        The resampled differences, finite, at least one.

    Returns
    -------
    float
        The p-value, in [0, 1].

    Examples
    --------
    >>> bootstrap_p_value([-1.0, 1.0, 2.0, 3.0, 4.0])   # lower quantile > 0 from q = 1/8 on
    0.25
    >>> bootstrap_p_value([1.0, 2.0]), bootstrap_p_value([0.0, 0.0, 0.0])
    (0.0, 1.0)
    """
    s = np.sort(np.asarray(diffs, dtype=np.float64).ravel())
    if s.size == 0 or not np.isfinite(s).all():
        raise ValueError("bootstrap_p_value needs finite resampled differences, at least one")

    def first_q_above_zero(v):
        # the infimum of q with quantile(v, q) > 0 (linear interpolation: index h = (R-1) q)
        c = int(np.searchsorted(v, 0.0, side="right"))  # values <= 0
        if c == 0:
            return 0.0
        if c == v.size:
            return 1.0
        h = (c - 1) + (0.0 - v[c - 1]) / (v[c] - v[c - 1])
        return h / (v.size - 1)

    q = min(first_q_above_zero(s), first_q_above_zero(-s[::-1]))
    return float(min(1.0, 2.0 * q))


def holm(p_values):
    r"""Holm's step-down adjusted p-values (Holm 1979).

    .. math:: \tilde p_{(i)} = \max_{j \le i} \min\big(1, (m - j + 1)\, p_{(j)}\big)

    for the p-values sorted ascending, ``p_(1) <= ... <= p_(m)``; rejecting
    where ``p~ < alpha`` is Holm's procedure at family-wise level ``alpha``.

    Parameters
    ----------
    p_values : array_like of float
        The p-values of the family.

    Returns
    -------
    ndarray of float64
        The adjusted p-values, in the order given.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.2]).tolist()
    [0.04, 0.09, 0.09, 0.2]
    """
    p = np.asarray(p_values, dtype=np.float64).ravel()
    m = p.size
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(np.argsort(p, kind="stable")):
        running = max(running, min(1.0, (m - rank) * float(p[i])))
        adjusted[i] = running
    return adjusted


def winner_of(diff_ci, better, p_adjusted=None, alpha=None) -> str:
    """``"A"``, ``"B"`` or ``""``: the one winner rule of every output.

    No winner when there is no interval, when it contains 0, when it has
    zero width (every resample, or all but the tails, gave one difference:
    no variation to judge a winner from), or, with an adjustment, when the
    adjusted p-value is not below ``alpha``.  Else the classifier that the
    sign of the difference ``B - A`` and ``better`` favour.

    Parameters
    ----------
    diff_ci : (float, float) or None
        The interval of the difference ``B - A``.
    better : {"lower", "higher"}
        Which values of the metric are better.
    p_adjusted : float, optional
        The adjusted p-value (with an adjustment).
    alpha : float, optional
        The level it is compared with (``1 - confidence``).

    Returns
    -------
    str
        ``"A"``, ``"B"`` or ``""``.

    Examples
    --------
    >>> winner_of((0.1, 0.3), "lower"), winner_of((0.1, 0.3), "higher"), winner_of((-0.1, 0.3), "lower")
    ('A', 'B', '')
    >>> winner_of((0.2, 0.2), "higher"), winner_of((0.1, 0.3), "higher", p_adjusted=0.08, alpha=0.05)
    ('', '')
    """
    if diff_ci is None:
        return ""
    lo, hi = diff_ci
    if not lo < hi or lo <= 0 <= hi:
        return ""
    if p_adjusted is not None and not p_adjusted < alpha:
        return ""
    return "B" if (lo > 0) == (better == "higher") else "A"


#: the columns of :meth:`Comparison.records` (CSV, JSON, ``to_pandas()``): one
#: row per metric variant and pair; ``diff = value_b - value_a``; ``winner``
#: the winning classifier's name or ""
COMPARISON_COLUMNS = ("metric", "name", "label", "better", "a", "b", "value_a", "value_b", "diff",
                      "ci_low", "ci_high", "p_value", "p_adjusted", "adjust", "winner",
                      "a_ci_low", "a_ci_high", "b_ci_low", "b_ci_high", "undefined_a",
                      "undefined_b", "undefined_diff", "source", "note")


class PairRow:
    """What a row of a comparison derives from its fields (``diff_ci``, ``better``,
    ``p_adjusted``, ``alpha``, ``pair``): its winner by :func:`winner_of`, the
    winner's name, and its record.  Shared by the paired rows
    (:class:`MetricComparison`) and the grouped ones
    (:class:`numeric.groups.GroupMetricComparison`), so the rule is one."""

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"``, or ``""`` (:func:`winner_of`)."""
        return winner_of(self.diff_ci, self.better, self.p_adjusted, self.alpha)

    @property
    def winner_name(self) -> str:
        """The winner's name (``pair``), or ``""``."""
        w = self.winner
        return "" if not w else self.pair[0 if w == "A" else 1]

    def to_dict(self) -> dict:
        """The row as a record with the columns :data:`COMPARISON_COLUMNS`."""
        return comparison_record(self)


def comparison_record(r) -> dict:
    """A row of a paired or grouped comparison as a record with the columns
    :data:`COMPARISON_COLUMNS` (the CSV, JSON and ``to_pandas()`` of both).

    Parameters
    ----------
    r : numeric.MetricComparison or numeric.GroupMetricComparison
        A row of :func:`numeric.compare` or :func:`numeric.compare_groups`.

    Returns
    -------
    dict
        ``{column: value}``, the columns in the order of :data:`COMPARISON_COLUMNS`.

    Examples
    --------
    >>> import numeric
    >>> c = numeric.compare([0, 1, 2, 2, 1, 0], [0, 1, 2, 1, 1, 0], [0, 2, 2, 2, 0, 0],
    ...                     metrics=["mae"], n_resamples=200, seed=0)
    >>> record = comparison_record(c["MAE"])
    >>> record["metric"], round(record["value_a"], 4), round(record["diff"], 4), tuple(record) == COMPARISON_COLUMNS
    ('mae', 0.1667, 0.1667, True)
    """
    def ends(ci):
        return (None, None) if ci is None else (float(ci[0]), float(ci[1]))

    return dict(zip(COMPARISON_COLUMNS, (
        r.key or r.name, r.name, r.label, r.better, r.pair[0], r.pair[1],
        r.a, r.b, r.diff, *ends(r.diff_ci), r.p_value, r.p_adjusted,
        "none" if r.p_adjusted is None else "holm", r.winner_name, *ends(r.a_ci),
        *ends(r.b_ci), *map(int, r.undefined), r.source, r.note), strict=True))


class PairTable:
    """What a paired (:class:`Comparison`) and a grouped comparison
    (:class:`numeric.groups.GroupComparison`) share: rows per metric variant and
    pair, looked up as ``c["MAE"]`` or ``c["MAE", "A", "C"]``, and the same
    exports (:meth:`records`, :meth:`to_pandas`, :meth:`table`, :meth:`to_latex`,
    ``str()``) with the columns :data:`COMPARISON_COLUMNS` and the winner rule
    :func:`winner_of`.

    A base class: its subclasses are built by :func:`numeric.compare` and
    :func:`numeric.compare_groups`, never by hand.

    Examples
    --------
    >>> import numeric
    >>> c = numeric.compare([0, 1, 2, 2, 1, 0], [0, 1, 2, 1, 1, 0], [0, 2, 2, 2, 0, 0],
    ...                     metrics=["mae", "rmse"], n_resamples=200, seed=0)
    >>> type(c).__name__, c.metrics, c.pairs, c["MAE", "A", "B"] is c["MAE"]
    ('Comparison', ('mae', 'rmse'), (('A', 'B'),), True)
    >>> len(c.records()), c.records()[0]["metric"]
    (2, 'mae')
    """

    @property
    def pairs(self) -> tuple:
        return tuple(itertools.combinations(self.names, 2))

    @property
    def metrics(self) -> tuple:
        """The unique keys of the metric variants, in the table's order."""
        return tuple(dict.fromkeys(r.key or r.name for r in self.rows))

    def __getitem__(self, key):
        if isinstance(key, tuple):
            if len(key) != 3:
                raise KeyError(f"{key!r}: give c[metric] or c[metric, A, B]")
            return self.row(*key)
        return self.row(key)

    def row(self, metric, a=None, b=None):
        """The row of ``metric`` (a label, a key, or the name of a one-variant
        metric) and the pair ``(a, b)`` (needed with three or more classifiers)."""
        from .reporting import row_of

        variant = row_of([r for r in self.rows if r.pair == self.pairs[0]], metric)
        hits = [r for r in self.rows if r.key == variant.key and r.label == variant.label]
        if a is not None or b is not None:
            hits = [r for r in hits if r.pair == (a, b)]
            if not hits:
                raise KeyError(f"no pair ({a!r}, {b!r}); the pairs are {list(self.pairs)}")
        if len(hits) != 1:
            raise KeyError(f"{metric!r} has {len(hits)} pairs; give c[{metric!r}, A, B] with "
                           f"one of {list(self.pairs)}")
        return hits[0]

    def records(self) -> list:
        """One dict per row with the columns :data:`COMPARISON_COLUMNS`."""
        return [comparison_record(r) for r in self.rows]

    def to_pandas(self):
        """The rows as a :class:`pandas.DataFrame`, columns :data:`COMPARISON_COLUMNS`
        (pandas, the ``pandas`` extra, is imported here)."""
        from .reporting import to_pandas

        return to_pandas(self.records(), COMPARISON_COLUMNS)

    def table(self, exact=None):
        """``(header, align, rows, notes, footer)`` of the comparison table, the
        cells of ``str()``, the CLI and :meth:`to_latex`.

        One row per metric variant and pair.  One decimal rule per column:
        values, differences and interval ends have the decimals of two
        significant digits of the table's narrowest interval
        (:func:`numeric.reporting.column_decimals`; when no row has an interval,
        the decimals of 4 significant digits of its largest number), p-values always 3 decimals (``<0.001`` below);
        ``exact`` (``{name: Report}`` in exact arithmetic, paired comparisons
        only) prints the closed forms of values and differences instead.  An undefined value or dropped resamples get a
        numbered note.
        """
        return _table(self, exact, style="text")

    def to_latex(self, caption=None, exact=None) -> str:
        """The table as LaTeX (booktabs: ``\\usepackage{booktabs}``): intervals,
        p-values, the winner's value in bold and named in the last column, the
        notes under the table."""
        return _table(self, exact, style="latex", caption=caption)

    def __str__(self) -> str:
        return _table(self, None, style="text", joined=True)


# ---------------------------------------------------------------------------
# the table: text and LaTeX from the same cells
# ---------------------------------------------------------------------------
#: the decimals of every p-value cell (one rule for the column: 0.400 next to 0.420)
P_DECIMALS = 3


def _format_p(p, resamples, latex=False):
    """A p-value cell, always :data:`P_DECIMALS` decimals: ``0.076``, ``0.400``,
    ``1.000``; below ``0.001`` (or ``p = 0``) it is ``<0.001``, and a bootstrap
    p of 0 with ``resamples`` R is ``<1/R`` when that is larger (``<0.010`` for
    R = 100).  ``resamples`` is None for a p-value of a t test.  The exact
    p-values are in :meth:`PairTable.records` (CSV, JSON, DataFrame).

    >>> [_format_p(p, None) for p in (0.0764, 0.42, 0.4, 0.0083, 1.0, 2e-5, 0.0)]
    ['0.076', '0.420', '0.400', '0.008', '1.000', '<0.001', '<0.001']
    >>> _format_p(0.0, 100), _format_p(0.0, 10000), _format_p(None, None)
    ('<0.010', '<0.001', '—')
    """
    if p is None:
        return "—" if not latex else "--"
    floor = 10.0 ** -P_DECIMALS
    if p == 0 and resamples is not None:
        floor = max(floor, 1 / max(resamples, 1))
    if p < floor or p == 0:
        s = f"<{floor:.{P_DECIMALS}f}"
    else:
        s = f"{p:.{P_DECIMALS}f}"
    return s if not latex else f"${s}$"


class _Cells:
    """How the cells of a comparison table are written: plain text or LaTeX."""

    def __init__(self, latex):
        self.latex = latex
        self.dash = "--" if latex else "—"

    def text(self, s):
        return latex_escape(s) if self.latex else s

    def mark(self, cell, n):
        """``cell`` with a reference to note ``n``."""
        return f"{cell}$^{{{n}}}$" if self.latex else f"{cell} [{n}]"

    def num(self, x, d, bold=False):
        from .reporting import format_decimal

        if not self.latex:
            return format_decimal(x, d)
        if x is None:
            return "undefined"
        return f"$\\mathbf{{{format_decimal(x, d)}}}$" if bold else f"${format_decimal(x, d)}$"

    def exact(self, v):
        return "undefined" if v is None else (f"${_latex_expr(v)}$" if self.latex else str(v))

    def interval(self, ci, d):
        from .reporting import format_decimal

        if ci is None:
            return self.dash
        text = f"[{format_decimal(ci[0], d)}, {format_decimal(ci[1], d)}]"
        return f"${text}$" if self.latex else text


class _Notes(list):
    """The numbered notes under a table; :meth:`number` adds a note once."""

    def number(self, text):
        if text not in self:
            self.append(text)
        return self.index(text) + 1


def _table(c, exact, style, caption=None, joined=False):
    from .reporting import format_table

    cells = _Cells(style == "latex")
    pct = f"{100 * c.confidence:g}%"
    notes = _Notes()
    rows = _table_rows(c, exact, cells, notes)
    header, align = _table_header(c, cells, pct)
    alpha = 1 - c.confidence
    tests = sum(r.p_value is not None for r in c.rows)
    rule = (f"winner: where the {pct} interval of the {c._what_differs} excludes 0 (and has a "
            f"positive width)" + (f" and the Holm-adjusted p < {alpha:.3g}" if c.adjust == "holm" else "")
            + ("" if cells.latex else "; — : none"))
    footer = c._footer(pct, tests) + f";\n{rule}"
    if cells.latex:
        return latex_table(header, align, rows, notes, caption or c._title(),
                           legend=footer.replace("\n", " "))
    if not joined:
        return header, align, rows, list(notes), footer
    lines = [c._headline(), format_table(header, rows, align=align)]
    lines += [f"[{i}] {n}" for i, n in enumerate(notes, start=1)]
    lines.append(footer)
    return "\n".join(lines)


def _table_rows(c, exact, cells, notes):
    """One row of cells per metric variant and pair (LaTeX: a blank line between metrics)."""
    from .reporting import column_decimals

    by_metric = {}
    for r in c.rows:
        by_metric.setdefault((r.key, r.label), []).append(r)
    # one rule per column (column_decimals): the decimals of the narrowest interval of the
    # whole table, or without one those of 4 significant digits of its largest number
    widths = [ci[1] - ci[0] for r in c.rows for ci in (r.a_ci, r.b_ci, r.diff_ci)
              if ci is not None and ci[1] > ci[0]]
    d = column_decimals([x for r in c.rows for x in (r.a, r.b, r.diff)], widths)
    rows = []
    for (key, label), group in by_metric.items():
        if cells.latex and rows:
            rows.append(None)
        for n, r in enumerate(group):
            rows.append(_table_row(c, r, key, label, d, first=n == 0, exact=exact, cells=cells, notes=notes))
    return rows


def _table_row(c, r, key, label, d, *, first, exact, cells, notes):
    """The cells of one row: metric and better side (on the first row of a metric),
    the pair (more than two classifiers), values, difference, interval, p-values, winner."""
    a_name, b_name = r.pair
    win = r.winner_name
    if exact is not None:
        ea, eb = exact[a_name][key].value, exact[b_name][key].value
        va, vb = cells.exact(ea), cells.exact(eb)
        vd = cells.exact(None if ea is None or eb is None else eb - ea)
    else:
        va, vb = cells.num(r.a, d, win == a_name), cells.num(r.b, d, win == b_name)
        vd = cells.num(r.diff, d)
    for value, name in ((r.a, a_name), (r.b, b_name)):
        if value is None:
            reason = c.reasons.get((key, name), r.note)
            same = [x for x in c.names if c.reasons.get((key, x)) == reason] or [name]
            k = notes.number(f"{label} is undefined for {', '.join(same)}: {reason}")
            if name == a_name:
                va = cells.mark(va, k)
            else:
                vb = cells.mark(vb, k)
    ci = cells.interval(r.diff_ci, d)
    if r.note and r.a is not None and r.b is not None:
        ci = cells.mark(ci, notes.number(r.note))
    out = [cells.text(label), r.better]
    if len(c.names) != 2:
        out = (out if first else ["", ""]) + [cells.text(a_name), cells.text(b_name)]
    out += [va, vb, vd, ci, _format_p(r.p_value, c._p_resamples(r), cells.latex)]
    if c.adjust == "holm":
        out.append(_format_p(r.p_adjusted, c._p_resamples(r), cells.latex))
    out.append(cells.text(win) or cells.dash)
    return out


def _table_header(c, cells, pct):
    """The column titles and their alignment (``l``/``r`` per column)."""
    latex, two, holm_on = cells.latex, len(c.names) == 2, c.adjust == "holm"
    if two:
        a, b = c.names
        head_a, head_b = cells.text(a), cells.text(b)
        diff_head = f"{head_b} $-$ {head_a}" if latex else f"{b} - {a}"
        if c._grouped:
            head_a, head_b, diff_head = (f"{h} (mean)" for h in (head_a, head_b, diff_head))
        header = ["Metric" if latex else "metric", "Better" if latex else "better", head_a, head_b,
                  diff_head]
    elif c._grouped:
        header = (["Metric", "Better", "A", "B", r"$\bar m(A)$", r"$\bar m(B)$",
                   r"$\overline{m(B) - m(A)}$"] if latex else
                  ["metric", "better", "A", "B", "mean A", "mean B", "mean B - A"])
    else:
        header = (["Metric", "Better", "A", "B", "$m(A)$", "$m(B)$", "$m(B) - m(A)$"] if latex else
                  ["metric", "better", "A", "B", "value A", "value B", "B - A"])
    header += [f"{cells.text(pct)} CI", "$p$" if latex else "p"]
    if holm_on:
        header.append("$p$ (Holm)" if latex else "p (Holm)")
    header.append("Winner" if latex else "winner")
    align = "ll" + ("" if two else "ll") + "rrrrr" + ("r" if holm_on else "") + "l"
    return header, align


def _latex_expr(v) -> str:
    try:
        import sympy

        return sympy.latex(v)
    except (ImportError, TypeError, AttributeError):
        return str(v)


_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
          9: "nine", 10: "ten"}


def _check_names(names, k):
    if names is None:
        return _letters(k)
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != k:
        raise ValueError(f"names must be {_WORDS.get(k, k)} names (one per prediction), "
                         f"got {names!r:.80}")
    names = tuple(names)
    if not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"names must be non-empty strings, got {names!r:.80}")
    if len(set(names)) != k:
        raise ValueError(f"names must differ (they name the pairs), got {names!r:.80}")
    return names


def _check_undefined_and_adjust(undefined, adjust):
    """``adjust`` (None read as ``"none"``) after checking it and ``undefined``
    (:func:`compare`, :func:`numeric.compare_groups`)."""
    if undefined not in ("drop", "raise"):
        raise ValueError(f"undefined must be 'drop' or 'raise', got {undefined!r}")
    adjust = "none" if adjust is None else adjust
    if adjust not in ADJUSTMENTS:
        raise ValueError(f"adjust must be one of {ADJUSTMENTS}, got {adjust!r:.40}")
    return adjust


def _holm_rows(rows):
    """The rows with ``p_adjusted``, Holm's adjustment over every row that has a p-value."""
    rows = list(rows)
    tested = [n for n, r in enumerate(rows) if r.p_value is not None]
    for n, p in zip(tested, holm([rows[n].p_value for n in tested]), strict=True):
        rows[n] = dataclasses.replace(rows[n], p_adjusted=float(p))
    return rows
