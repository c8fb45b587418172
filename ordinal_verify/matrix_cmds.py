"""``ordinal-verify metrics`` and ``ordinal-verify auoc``: a matrix file, or label columns.

``metrics FILE`` reads a confusion matrix; ``metrics FILE --true COL --pred
COL [--pred COL ...]`` reads label columns (header names or 0-based
indices, :mod:`ordinal_verify.labels`).  With two or more predictions the
table is :func:`numeric.compare`'s: one row per metric variant and pair of
predictions, values and differences as decimals (the digits of the
interval's width; ``--exact`` for closed forms), the paired-bootstrap
interval and p-value of the difference, and a winner only where the
interval excludes 0 (``--adjust holm``: and the Holm-adjusted p is below
``1 - confidence``); every undefined value has a numbered note with its
reason.  ``--metrics mae,a_uoc,...`` chooses the rows, in that order
(registry names or variant keys).  ``--groups COL`` (fold or seed ids) compares
over the groups instead (:func:`numeric.compare_groups`: means over the groups,
``--test-train-ratio`` for Nadeau & Bengio's corrected t interval, or
``--method bootstrap``), with the same table and exports.  ``--per-class`` adds the confusion matrix
with its labels and per-class sensitivity, MAE and support.  ``--json
FILE|-``, ``--csv FILE|-`` and ``--latex FILE`` write the same table (JSON
and CSV with the same columns, :data:`numeric.comparison.COMPARISON_COLUMNS`,
or for one prediction :data:`numeric.reporting.REPORT_COLUMNS`); ``--plot
FILE.png`` draws UOC(beta) with the shaded A_UOC (matplotlib, the ``plot``
extra: without it the command stops before any work, exit status 2).
Every output goes through :mod:`ordinal_verify.outputs` (checked before the
work, written atomically, never over an input).

SymPy is imported where a closed form is printed (the exact metrics are
SymPy numbers: :mod:`numeric` imports it for ``arithmetic="exact"``), never
at start-up; :mod:`analytic` not at all.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from .inputs import AUOC_DIGITS_SLOPE, AUOC_SECONDS_PER_CELL, InputError, announce_cost, read_matrix
from .outputs import check_outputs, plot_format, write_text, writing
from .table import format_table

__all__ = ["add_parsers", "cmd_metrics", "cmd_auoc", "format_value", "load_matrices",
           "EXACT_WIDTH"]

#: exact values longer than this are printed as a decimal unless ``--exact``
EXACT_WIDTH = 40


def format_value(v, exact=False) -> str:
    """A SymPy number as its closed form, or as a 15-digit decimal (``≈``) when
    the closed form is longer than :data:`EXACT_WIDTH` and ``exact`` is False;
    an expression in a symbol (a piece of UOC(beta)) gets 15-digit coefficients.

    Parameters
    ----------
    v : sympy.Expr or None
        The value (None: undefined).
    exact : bool, default False
        Print the closed form whatever its length (``--exact``).

    Returns
    -------
    str
        The text printed.

    Examples
    --------
    >>> import sympy
    >>> x = sympy.sqrt(2)/3 + sympy.sqrt(11)/7 + sympy.sqrt(13)/17 + sympy.sqrt(19)/23
    >>> format_value(sympy.Rational(5, 9)), format_value(x)     # sstr(x) has 50 characters
    ('5/9', '≈1.34681665913959')
    >>> b = sympy.Symbol("beta")
    >>> format_value(sympy.Rational(123456789011, 987654321073) + b / 999999937)
    '≈1.000000063e-9*beta + 0.124999998862836'
    >>> format_value(None)
    'undefined'
    """
    if v is None:
        return "undefined"
    import sympy

    s = sympy.sstr(v)
    if exact or len(s) <= EXACT_WIDTH:
        return s
    if getattr(v, "free_symbols", None):  # float() of an expression in beta raised TypeError
        return "≈" + sympy.sstr(sympy.N(v, 15))
    return f"≈{float(v):.15g}"


def _float(v) -> str:
    return "" if v is None else f"{float(v):.12g}"


def load_matrices(args):
    """``(names, {name: cm}, label_columns or None)`` from a matrix file or label columns.

    The user's text is read under Python's default limit of 4,300 digits for an
    ``int`` read from ``str`` (:func:`ordinal_verify.main` lifts it for printing
    the exact values the command computes).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line: ``file``, ``--predicted-rows``, ``--true``,
        ``--pred``, ``--labels`` (and ``--groups`` of ``metrics``).

    Returns
    -------
    tuple
        ``(names, {name: cm}, label_columns or None)``: one matrix per
        prediction, and the :class:`ordinal_verify.labels.LabelColumns` when
        the file holds label columns.

    Examples
    --------
    >>> import contextlib, io, pathlib, tempfile
    >>> from ordinal_verify import build_parser
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "cm.csv")
    ...     _ = path.write_text("2,1\\n0,3\\n")
    ...     names, cms, cols = load_matrices(build_parser().parse_args(["auoc", str(path)]))
    >>> [pathlib.Path(n).name for n in names], cms[names[0]].tolist(), cols
    (['cm.csv'], [[2, 1], [0, 3]], None)
    """
    from numeric._common import DEFAULT_INT_STR_DIGITS, int_str_digits

    with int_str_digits(DEFAULT_INT_STR_DIGITS):
        return _load_matrices(args)


def _load_matrices(args):
    if args.true is None:
        if args.pred:
            raise InputError("--pred needs --true (the column of true labels)")
        if args.labels:
            raise InputError("--labels is for label columns (--true/--pred)")
        if getattr(args, "groups", None) is not None:
            raise InputError("--groups is for label columns (--true/--pred)")
        cm = read_matrix(args.file, predicted_rows=args.predicted_rows)
        return [args.file], {args.file: cm}, None
    if not args.pred:
        raise InputError("--true needs at least one --pred column")
    if args.predicted_rows:
        raise InputError("--predicted-rows is for matrix files, not label columns")
    from .labels import parse_labels, read_label_columns

    labels = parse_labels(args.labels) if args.labels else None
    cols = read_label_columns(args.file, args.true, args.pred, labels,
                              groups=getattr(args, "groups", None))
    return cols.names, cols.matrices(), cols


def _progress(args):
    if getattr(args, "no_progress", False) or not sys.stderr.isatty():
        return None
    from .ledger_cmd import progress_bar

    return progress_bar(sys.stderr)


def _check_outputs(args):
    """The output paths of ``metrics``/``auoc``, checked before any work (:mod:`.outputs`)."""
    return check_outputs({"--json": args.json, "--csv": args.csv, "--plot": args.plot,
                          "--latex": getattr(args, "latex", None)}, inputs=[args.file])


def _write_json(out, data):
    with writing(out) as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


def _write_csv(out, header, rows):
    with writing(out, newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def _plot(out, names, cms):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from numeric import plot_uoc

    fig, ax = plt.subplots(figsize=(6, 4))
    try:
        for name, cm in zip(names, cms, strict=True):
            plot_uoc(cm, ax=ax, label=name if len(names) > 1 else None)
        fig.tight_layout()
        with writing(out, binary=True) as fh:
            fig.savefig(fh, format=plot_format(out.path), dpi=120)
    finally:
        plt.close(fig)


# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------
#: the paired bootstrap holds ``R (2 K**2 + min(N, K**3))`` int64 numbers (the
#: resampled matrices of A and B and the multinomial draws over the distinct
#: (true, A, B) triples); ``--resamples`` is capped so that they fit in 512 MB
MAX_RESAMPLE_NUMBERS = 2**26


def _check_resamples(args, cols=None, metrics=None):
    """``--resamples``: not negative (0: no intervals), and within
    :data:`MAX_RESAMPLE_NUMBERS` for the label columns ``cols`` (the time it would
    take is estimated for ``metrics``, :func:`_metrics_option`'s list)."""
    R = args.resamples
    if R < 0:
        raise InputError(f"--resamples must be a positive number of resamples "
                         f"(or 0 for no intervals), got {R}")
    if cols is None or R == 0:
        return
    from numeric.comparison import compare_seconds
    from numeric.reporting import metric_rows

    K, N, k = len(cols.labels), len(cols.y_true), len(cols.preds)
    per = k * K * K + min(N, K ** (k + 1))
    if R * per > MAX_RESAMPLE_NUMBERS:
        raise InputError(
            f"--resamples {R} is too many for {K} classes, {N} samples and {k} predictions: the "
            f"paired bootstrap would hold about {R * per * 8 / 2**20:,.0f} MB and take about "
            f"{compare_seconds(K, k, R, metric_rows(metrics)):,.0f} s; "
            f"at most {MAX_RESAMPLE_NUMBERS // per} resamples here")


def _metrics_option(args):
    """``--metrics mae,a_uoc`` as a list (checked against the registry before any
    work), or None for every metric."""
    if args.metrics is None:
        return None
    from numeric.reporting import metric_rows

    chosen = [m.strip() for m in args.metrics.split(",") if m.strip()]
    if not chosen:
        raise InputError("--metrics is empty: name at least one metric (e.g. --metrics mae,a_uoc)")
    try:
        metric_rows(chosen)
    except ValueError as exc:
        raise InputError(f"--metrics: {exc}") from None
    return chosen


def _check_groups(args):
    """``--groups``, ``--method`` and ``--test-train-ratio`` together, before any work."""
    grouped = args.groups is not None
    if not grouped:
        if args.method is not None or args.test_train_ratio is not None:
            raise InputError("--method and --test-train-ratio are for --groups (the column of "
                             "fold or seed ids)")
        return
    if args.true is None or len(args.pred) < 2:
        raise InputError("--groups compares two or more --pred columns over the groups "
                         "(give --true and at least two --pred)")
    if args.exact:
        raise InputError("--exact prints the closed forms of one confusion matrix; with "
                         "--groups the table holds means over the groups: drop --exact")
    method = args.method or "corrected_t"
    if method == "corrected_t" and args.test_train_ratio is None:
        raise InputError("--groups needs --test-train-ratio n_test/n_train of each split "
                         "(1/(k-1) for k-fold cross-validation: 0.25 for 5 folds; 0 for "
                         "independent test sets), or --method bootstrap")
    if method == "bootstrap" and args.test_train_ratio is not None:
        raise InputError("--test-train-ratio is for --method corrected_t")
    if method == "bootstrap" and args.resamples == 0:
        raise InputError("--method bootstrap needs --resamples > 0")


def _ratio(text):
    """``--test-train-ratio``: a decimal (``0.25``) or a fraction (``1/4``), >= 0, read
    exactly (``fractions.Fraction``; nothing is evaluated)."""
    from fractions import Fraction

    try:
        r = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number (give n_test/n_train as 0.25 or 1/4)") from None
    if r < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative (n_test/n_train is >= 0)")
    return r


def cmd_metrics(args) -> int:
    """Run ``ordinal-verify metrics``: every metric of a matrix or of label columns, printed.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (:func:`ordinal_verify.build_parser`).

    Returns
    -------
    int
        The exit status, 0.

    Examples
    --------
    >>> import contextlib, io, pathlib, tempfile
    >>> from ordinal_verify import build_parser
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "cm.csv")
    ...     _ = path.write_text("2,1\\n0,3\\n")
    ...     args = build_parser().parse_args(["metrics", str(path), "--metrics", "mae"])
    ...     with contextlib.redirect_stdout(io.StringIO()) as out:
    ...         status = cmd_metrics(args)
    >>> status, out.getvalue().splitlines()[3].split()[:2]
    (0, ['MAE', '1/6'])
    """
    import numeric

    outs = _check_outputs(args)
    _check_resamples(args)
    _check_groups(args)
    metrics = _metrics_option(args)
    names, cms, cols = load_matrices(args)
    grouped = cols is not None and cols.groups is not None
    comparing = cols is not None and len(names) > 1 and (args.resamples > 0 or grouped)
    if args.adjust != "none" and not comparing:
        raise InputError("--adjust needs two or more --pred columns and --resamples > 0 "
                         "(it adjusts the p-values of the paired differences)")
    if cols is not None and len(names) > 1 and not grouped:
        _check_resamples(args, cols, metrics)
    announce_cost(len(cms[names[0]]), matrices=len(names),
                  resamples=args.resamples if cols is not None and not grouped else 0,
                  digits=max(len(str(int(cms[n].max()))) for n in names), metrics=metrics)
    if cols is None:
        reports = {n: numeric.report(cms[n], metrics=metrics, arithmetic="exact") for n in names}
    else:
        reports = {n: numeric.report(cols.y_true, p, labels=cols.labels, metrics=metrics,
                                     arithmetic="exact")
                   for n, p in zip(names, cols.preds, strict=True)}
    first = reports[names[0]]
    quiet = args.json == "-" or args.csv == "-"
    comparison = None
    if comparing:
        import warnings

        with warnings.catch_warnings():  # the table's notes give every undefined resample
            warnings.simplefilter("ignore", numeric.UndefinedResampleWarning)
            if not grouped:  # the command announced its estimate of this cost (announce_cost)
                warnings.simplefilter("ignore", numeric.CostWarning)
            group_args = {} if not grouped else dict(
                groups=cols.groups, method=args.method or "corrected_t",
                test_train_ratio=args.test_train_ratio)
            comparison = numeric.compare(
                cols.y_true, *cols.preds, labels=cols.labels, names=names, metrics=metrics,
                n_resamples=args.resamples, seed=args.seed,
                confidence=args.confidence, adjust=args.adjust,
                progress=None if quiet else _progress(args),
                max_seconds=None,  # the command prints its own estimate (announce_cost)
                **group_args)
    if not quiet:
        what = "rows = true class" if cols is None else f"labels {', '.join(map(str, first.labels))}"
        print(f"{args.file}: K = {first.K}, N = {first.N} ({what})")
        if len(names) == 1:
            table = [(r.label, format_value(r.value, args.exact),
                      _float(r.value) if r.defined else _short_note(r.note), r.better, r.source)
                     for r in first.rows]
            print(format_table(("metric", "exact", "float", "better", "source"), table))
        elif comparison is not None:
            header, align, rows, notes, footer = comparison.table(
                exact=reports if args.exact and not grouped else None)
            print(format_table(header, rows, align=align))
            for i, n in enumerate(notes, start=1):
                print(f"[{i}] {n}")
            print(footer)
        else:
            header, align, rows, notes = _side_by_side(args, names, reports)
            print(format_table(header, rows, align=align))
            for i, n in enumerate(notes, start=1):
                print(f"[{i}] {n}")
            print("no intervals (--resamples 0): no winners")
        if args.per_class:
            for n in names:
                print(f"\n{n}: per class (rows = true class)")
                print(reports[n].per_class())
    if args.json:
        _write_json(outs["--json"], _metrics_json(args, names, reports, comparison))
    if args.csv:
        _write_csv(outs["--csv"], *_metrics_csv(names, reports, comparison))
    if args.latex:
        write_text(outs["--latex"], _metrics_latex(args, names, reports, comparison))
    if args.plot:
        _plot(outs["--plot"], names, [cms[n] for n in names])
    return 0


def _short_note(note):
    """Why a metric is undefined, in a table cell: "tau_b is undefined for this
    confusion matrix" (the part before the colon), or, for a message whose subject
    is the matrix, its first clause ("confusion matrix: true class 1 has no
    samples"), not just "confusion matrix"."""
    head = note.split(":")[0]
    return head if "undefined" in head else note.split(";")[0]


def _side_by_side(args, names, reports, latex=False):
    """The values of every prediction, without intervals (``--resamples 0``):
    ``(header, align, rows, notes)``; undefined values have a numbered note."""
    from numeric.reporting import latex_escape
    from numeric.reporting import format_decimal

    notes = []
    rows = []
    for i, r0 in enumerate(reports[names[0]].rows):
        cells = [latex_escape(r0.label) if latex else r0.label, r0.better]
        for n in names:
            r = reports[n].rows[i]
            if r.value is None:
                same = [x for x in names if reports[x].rows[i].value is None
                        and reports[x].rows[i].note == r.note]
                text = f"{r.label} is undefined for {', '.join(same)}: {r.note}"
                if text not in notes:
                    notes.append(text)
                k = notes.index(text) + 1
                cells.append(f"undefined$^{{{k}}}$" if latex else f"undefined [{k}]")
            elif args.exact and latex:
                import sympy

                cells.append(f"${sympy.latex(r.value)}$")
            elif args.exact:
                cells.append(format_value(r.value, True))
            else:
                v = format_decimal(r.value)
                cells.append(f"${v}$" if latex else v)
        rows.append(cells)
    header = ["Metric" if latex else "metric", "Better" if latex else "better",
              *(latex_escape(n) if latex else n for n in names)]
    return header, "ll" + "r" * len(names), rows, notes


def _metrics_json(args, names, reports, comparison):
    first = reports[names[0]]
    data = {"file": args.file, "K": first.K, "N": first.N,
            "labels": [x.item() if hasattr(x, "item") else x for x in first.labels],
            "predictions": [{"name": n, "metrics": reports[n].records()} for n in names],
            "comparison": None if comparison is None else comparison.to_dict()}
    if args.per_class:
        data["per_class"] = {n: reports[n].per_class().to_dict() for n in names}
    return data


def _metrics_csv(names, reports, comparison):
    """The comparison's records (:data:`numeric.comparison.COMPARISON_COLUMNS`), or,
    without one, every prediction's report records (a ``prediction`` column and
    :data:`numeric.reporting.REPORT_COLUMNS`): the columns of the JSON."""
    if comparison is not None:
        from numeric.comparison import COMPARISON_COLUMNS

        return COMPARISON_COLUMNS, [[d[c] for c in COMPARISON_COLUMNS]
                                    for d in comparison.records()]
    from numeric.reporting import REPORT_COLUMNS

    return ("prediction", *REPORT_COLUMNS), [[n, *(d[c] for c in REPORT_COLUMNS)]
                                             for n in names for d in reports[n].records()]


def _metrics_latex(args, names, reports, comparison):
    if comparison is not None:
        return comparison.to_latex(exact=reports if args.exact else None)
    if len(names) == 1:
        return reports[names[0]].to_latex(caption=f"Metrics of {names[0]} ({reports[names[0]].N} "
                                                  f"samples, {reports[names[0]].K} classes).")
    from numeric.reporting import latex_table

    header, align, rows, notes = _side_by_side(args, names, reports, latex=True)
    return latex_table(header, align, rows, notes,
                       f"Metrics of {', '.join(names)} on {reports[names[0]].N} samples "
                       "(no intervals).")


# ---------------------------------------------------------------------------
# auoc
# ---------------------------------------------------------------------------
def _curve(cm):
    import sympy

    import numeric

    env = numeric.path_envelope(cm, metric="uoc", arithmetic="exact")
    b = sympy.Symbol("beta", nonnegative=True)
    pieces = []
    for i, (a, s) in enumerate(zip(env.intercepts, env.slopes, strict=True)):
        pieces.append((env.breakpoints[i], env.breakpoints[i + 1], a, s, a + s * b))
    return pieces, numeric.a_uoc(cm, arithmetic="exact")


def _line(a, s, expr, exact=False) -> str:
    """A piece ``a + s*beta`` of UOC: its closed form, or -- longer than
    :data:`EXACT_WIDTH` -- intercept and slope as decimals (a closed form with
    the symbol beta has no float value: ``format_value`` would raise).

    >>> import sympy
    >>> b = sympy.Symbol("beta")
    >>> a, s = sympy.Rational(1, 3), sympy.Rational(10**30 + 1, 10**30)
    >>> _line(a, s, a + s * b)
    '≈0.333333333333333 + 1*beta'
    """
    import sympy

    text = sympy.sstr(expr)
    if exact or len(text) <= EXACT_WIDTH:
        return text
    return f"≈{float(a):.15g} + {float(s):.15g}*beta"


def cmd_auoc(args) -> int:
    """Run ``ordinal-verify auoc``: the exact pieces of UOC(beta) and A_UOC of a matrix, printed.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (:func:`ordinal_verify.build_parser`).

    Returns
    -------
    int
        The exit status, 0.

    Examples
    --------
    >>> import contextlib, io, pathlib, tempfile
    >>> from ordinal_verify import build_parser
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "cm.csv")
    ...     _ = path.write_text("2,1\\n0,3\\n")
    ...     args = build_parser().parse_args(["auoc", str(path)])
    ...     with contextlib.redirect_stdout(io.StringIO()) as out:
    ...         status = cmd_auoc(args)
    >>> status, out.getvalue().splitlines()[-1][:14]
    (0, 'A_UOC = 11/49 ')
    """
    import sympy

    outs = _check_outputs(args)
    names, cms, _ = load_matrices(args)
    announce_cost(len(cms[names[0]]), matrices=len(names), per_cell=AUOC_SECONDS_PER_CELL,
                  what="the exact UOC(beta) pieces and A_UOC",
                  digits=max(len(str(int(cms[n].max()))) for n in names),
                  digits_slope=AUOC_DIGITS_SLOPE)
    curves = {n: _curve(cms[n]) for n in names}
    quiet = args.json == "-" or args.csv == "-"
    if not quiet:
        for n in names:
            pieces, value = curves[n]
            print(f"{n}: UOC(beta), gamma = 1 (silva2018 eq. 28), exact pieces:")
            rows = [(f"[{sympy.sstr(lo)}, {'oo' if hi is None else sympy.sstr(hi)})",
                     _line(a, s, expr, args.exact)) for lo, hi, a, s, expr in pieces]
            print(format_table(("beta in", "UOC(beta)"), rows))
            print(f"A_UOC = {format_value(value, args.exact)} = {float(value):.12g} "
                  "(silva2018 eq. 23; lower is better)")
    if args.json:
        _write_json(outs["--json"], {"file": args.file, "curves": [
            {"name": n, "better": "lower",
             "pieces": [{"beta_lo": sympy.sstr(lo), "beta_hi": None if hi is None else sympy.sstr(hi),
                         "intercept": sympy.sstr(a), "slope": sympy.sstr(s),
                         "uoc": sympy.sstr(e)} for lo, hi, a, s, e in curves[n][0]],
             "a_uoc": {"exact": sympy.sstr(curves[n][1]), "value": float(curves[n][1])}}
            for n in names]})
    if args.csv:
        _write_csv(outs["--csv"], ("prediction", "beta_lo", "beta_hi", "intercept", "slope", "uoc",
                              "a_uoc_exact", "a_uoc"),
                   [(n, sympy.sstr(lo), "oo" if hi is None else sympy.sstr(hi), sympy.sstr(a),
                     sympy.sstr(s), sympy.sstr(e), sympy.sstr(curves[n][1]), float(curves[n][1]))
                    for n in names for lo, hi, a, s, e in curves[n][0]])
    if args.plot:
        _plot(outs["--plot"], names, [cms[n] for n in names])
    return 0


def add_parsers(sub) -> None:
    """Add the ``metrics`` and ``auoc`` subcommands.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``ordinal-verify`` parser.

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> sub = p.add_subparsers(dest="command")
    >>> add_parsers(sub)
    >>> p.parse_args(["auoc", "cm.csv", "--predicted-rows"]).predicted_rows
    True
    """
    for name, run, helptext in (
            ("metrics", cmd_metrics,
             "every metric of a confusion matrix or of label columns; two or more "
             "predictions side by side with paired-bootstrap intervals"),
            ("auoc", cmd_auoc, "the piecewise UOC(beta) and the exact A_UOC of a matrix")):
        s = sub.add_parser(name, help=helptext, description=helptext)
        s.add_argument("file", help="CSV or whitespace-separated counts (rows = true class), "
                                    "or a CSV of label columns with --true/--pred")
        s.add_argument("--predicted-rows", action="store_true",
                       help="the file's rows are predicted classes (george2016, binotto2024 layout)")
        s.add_argument("--true", metavar="COL",
                       help="the column of true labels (header name or 0-based index)")
        s.add_argument("--pred", metavar="COL", action="append", default=[],
                       help="a column of predicted labels (repeat for several classifiers)")
        s.add_argument("--labels", metavar="L1,L2,...",
                       help="the classes in ordinal order (default: the sorted numeric labels)")
        s.add_argument("--json", metavar="FILE", help="also write JSON ('-': only JSON, to stdout)")
        s.add_argument("--csv", metavar="FILE", help="also write CSV ('-': only CSV, to stdout)")
        s.add_argument("--exact", action="store_true",
                       help=f"print closed forms longer than {EXACT_WIDTH} characters in full")
        s.add_argument("--plot", metavar="FILE.png",
                       help="draw UOC(beta) with the shaded A_UOC (needs matplotlib: "
                            'pip install "ordinal-verify[plot]")')
        if name == "metrics":
            from numeric.comparison import DEFAULT_RESAMPLES

            s.add_argument("--metrics", metavar="M1,M2,...",
                           help="the rows, in this order: registry names (mae, a_uoc, ...) or "
                                "variant keys (amae_zero, oc_0.25, ...); default all")
            s.add_argument("--adjust", choices=("none", "holm"), default="none",
                           help="adjust the p-values over every row and pair (holm: a winner "
                                "then needs a Holm-adjusted p below 1 - confidence)")
            s.add_argument("--per-class", action="store_true",
                           help="also the confusion matrix with its labels and per-class "
                                "sensitivity, MAE and support")
            s.add_argument("--latex", metavar="FILE",
                           help="also write the table as LaTeX (booktabs)")
            s.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, metavar="R",
                           help=f"paired bootstrap resamples for two or more predictions "
                                f"(default {DEFAULT_RESAMPLES}, as numeric.compare; 0: no "
                                "intervals; at most about 2**26 / (k K^2 + min(N, K^(k+1))) "
                                "for k predictions)")
            s.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
            s.add_argument("--confidence", type=float, default=0.95,
                           help="interval level (default 0.95)")
            s.add_argument("--groups", metavar="COL",
                           help="the column of group ids (cross-validation folds, seeds): "
                                "compare the predictions over the groups (means over the "
                                "groups, intervals that take the group as the unit; "
                                "numeric.compare_groups)")
            s.add_argument("--method", choices=("corrected_t", "bootstrap"), default=None,
                           help="with --groups: Nadeau & Bengio's corrected resampled t "
                                "interval (default; needs --test-train-ratio) or the group "
                                "bootstrap (--resamples, --seed)")
            s.add_argument("--test-train-ratio", type=_ratio, metavar="R",
                           help="with --groups: n_test/n_train of each split, 1/(k-1) for "
                                "k-fold cross-validation (0.25 or 1/4 for 5 folds)")
            s.add_argument("--no-progress", action="store_true", help="no progress bar")
        s.set_defaults(run=run)
