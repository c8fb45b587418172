"""``ordinal-verify metrics`` and ``ordinal-verify auoc``: a matrix file, or label columns.

``metrics FILE`` reads a confusion matrix; ``metrics FILE --true COL --pred
COL [--pred COL ...]`` reads label columns (header names or 0-based
indices, :mod:`analytic.cli.labels`).  With two or more predictions the
values are printed side by side with the difference from the first and a
paired-bootstrap interval of it (:func:`numeric.compare`).  Every row is a
metric of :data:`numeric.registry.REGISTRY` (through :func:`numeric.report`)
and says whether lower or higher is better.  ``--json FILE|-`` and ``--csv
FILE`` write the same numbers; ``--plot FILE.png`` draws UOC(beta) with the
shaded A_UOC (matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import csv
import json
import sys

import sympy

from .inputs import (AUOC_SECONDS_PER_CELL, RESAMPLE_SECONDS_PER_CELL, InputError,
                     announce_cost, read_matrix)
from .outputs import check_outputs, plot_format, writing
from .table import format_table

__all__ = ["add_parsers", "cmd_metrics", "cmd_auoc", "format_value", "load_matrices",
           "EXACT_WIDTH"]

#: exact values longer than this are printed as a decimal unless ``--exact``
EXACT_WIDTH = 40


def format_value(v, exact=False) -> str:
    """A SymPy number as its closed form, or as a 15-digit decimal (``≈``) when
    the closed form is longer than :data:`EXACT_WIDTH` and ``exact`` is False;
    an expression in a symbol (a piece of UOC(beta)) gets 15-digit coefficients.

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
    s = sympy.sstr(v)
    if exact or len(s) <= EXACT_WIDTH:
        return s
    if getattr(v, "free_symbols", None):  # float() of an expression in beta raised TypeError
        return "≈" + sympy.sstr(sympy.N(v, 15))
    return f"≈{float(v):.15g}"


def _float(v) -> str:
    return "" if v is None else f"{float(v):.12g}"


def load_matrices(args):
    """``(names, {name: cm}, label_columns or None)`` from a matrix file or label columns."""
    if args.true is None:
        if args.pred:
            raise InputError("--pred needs --true (the column of true labels)")
        if args.labels:
            raise InputError("--labels is for label columns (--true/--pred)")
        cm = read_matrix(args.file, predicted_rows=args.predicted_rows)
        return [args.file], {args.file: cm}, None
    if not args.pred:
        raise InputError("--true needs at least one --pred column")
    if args.predicted_rows:
        raise InputError("--predicted-rows is for matrix files, not label columns")
    from .labels import parse_labels, read_label_columns

    labels = parse_labels(args.labels) if args.labels else None
    cols = read_label_columns(args.file, args.true, args.pred, labels)
    return cols.names, cols.matrices(), cols


def _progress(args):
    if getattr(args, "no_progress", False) or not sys.stderr.isatty():
        return None
    from .ledger_cmd import progress_bar

    return progress_bar(sys.stderr)


def _check_outputs(args):
    """The output paths of ``metrics``/``auoc``, checked before any work (:mod:`.outputs`)."""
    return check_outputs({"--json": args.json, "--csv": args.csv, "--plot": args.plot},
                         inputs=[args.file])


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


def _check_resamples(args, cols=None):
    """``--resamples``: not negative (0: no intervals), and within
    :data:`MAX_RESAMPLE_NUMBERS` for the label columns ``cols``."""
    R = args.resamples
    if R < 0:
        raise InputError(f"--resamples must be a positive number of resamples "
                         f"(or 0 for no intervals), got {R}")
    if cols is None or R == 0:
        return
    K, N = len(cols.labels), len(cols.y_true)
    per = 2 * K * K + min(N, K**3)
    if R * per > MAX_RESAMPLE_NUMBERS:
        raise InputError(
            f"--resamples {R} is too many for {K} classes and {N} samples: the paired bootstrap "
            f"would hold about {R * per * 8 / 2**20:,.0f} MB and take about "
            f"{R * K * K * RESAMPLE_SECONDS_PER_CELL * max(1, len(args.pred) - 1):,.0f} s; "
            f"at most {MAX_RESAMPLE_NUMBERS // per} resamples here")


def cmd_metrics(args) -> int:
    import numeric

    outs = _check_outputs(args)
    _check_resamples(args)
    names, cms, cols = load_matrices(args)
    if cols is not None and len(names) > 1:
        _check_resamples(args, cols)
    announce_cost(len(cms[names[0]]), matrices=len(names),
                  resamples=args.resamples if cols is not None else 0)
    reports = {n: numeric.report(cms[n], arithmetic="exact") for n in names}
    first = reports[names[0]]
    quiet = args.json == "-" or args.csv == "-"
    comparisons = {}
    if cols is not None and len(names) > 1 and args.resamples > 0:
        import warnings

        for n, p in zip(names[1:], cols.preds[1:], strict=True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", numeric.UndefinedResampleWarning)
                comparisons[n] = numeric.compare(
                    cols.y_true, cols.preds[0], p, labels=cols.labels, names=(names[0], n),
                    n_resamples=args.resamples, seed=args.seed, confidence=args.confidence,
                    progress=None if quiet else _progress(args))
    if not quiet:
        what = "rows = true class" if cols is None else f"labels {', '.join(map(str, cols.labels.tolist()))}"
        print(f"{args.file}: K = {first.K}, N = {first.N} ({what})")
        if len(names) == 1:
            table = [(r.label, format_value(r.value, args.exact),
                      _float(r.value) if r.defined else _short_note(r.note), r.better, r.source)
                     for r in first.rows]
            print(format_table(("metric", "exact", "float", "better", "source"), table))
        else:
            _print_side_by_side(args, names, reports, comparisons)
    if args.json:
        _write_json(outs["--json"], _metrics_json(args, names, reports, comparisons))
    if args.csv:
        _write_csv(outs["--csv"], *_metrics_csv(names, reports, comparisons))
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


def _diff(a, b):
    return None if a is None or b is None else b - a


def _print_side_by_side(args, names, reports, comparisons):
    a = names[0]
    header = ["metric", *names]
    header += [f"{n} - {a}" for n in names[1:]]
    if comparisons:
        pct = f"{100 * args.confidence:g}%"
        header += [f"{pct} CI of {n} - {a}" for n in comparisons]
    header += ["better", "best"]
    any_undefined = any(any(r.undefined) for c in comparisons.values() for r in c.rows)
    if any_undefined:
        header.append("undefined resamples")
    rows = []
    for i, r0 in enumerate(reports[a].rows):
        vals = [reports[n].rows[i].value for n in names]
        row = [r0.label, *(format_value(v, args.exact) for v in vals)]
        row += [format_value(_diff(vals[0], v), args.exact) for v in vals[1:]]
        for c in comparisons.values():
            ci = c.rows[i].diff_ci
            row.append("—" if ci is None else f"[{ci[0]:.4g}, {ci[1]:.4g}]")
        defined = [(float(v), n) for v, n in zip(vals, names, strict=True) if v is not None]
        best = ""
        if len(defined) == len(vals):
            pick = min if r0.better == "lower" else max
            top = pick(v for v, _ in defined)
            best = ", ".join(n for v, n in defined if v == top)
            best = "tie" if best.count(",") == len(names) - 1 else best
        row += [r0.better, best]
        if any_undefined:
            row.append("; ".join(f"{c.names[1]}: {'/'.join(map(str, c.rows[i].undefined))}"
                                 for c in comparisons.values() if any(c.rows[i].undefined)))
        rows.append(row)
    print(format_table(header, rows))
    for c in comparisons.values():
        print(f"{c.names[1]} - {c.names[0]}: {c.n_resamples} paired bootstrap resamples "
              f"(seed {c.seed}), percentile intervals; 'best' compares the values only")
    if any_undefined:
        print("undefined resamples A/B/diff: dropped; the interval is over the defined ones")


def _metrics_json(args, names, reports, comparisons):
    preds = []
    for n in names:
        d = reports[n].to_dict()
        preds.append({"name": n, "metrics": d["metrics"]})
    first = reports[names[0]]
    return {"file": args.file, "K": first.K, "N": first.N, "predictions": preds,
            "comparisons": [c.to_dict() for c in comparisons.values()]}


def _metrics_csv(names, reports, comparisons):
    header = ("prediction", "name", "label", "exact", "value", "ci_low", "ci_high",
              "undefined_resamples", "better", "source", "note")
    rows = []
    a = names[0]
    for n in names:
        for i, r in enumerate(reports[n].rows):
            ci, und = None, ""
            if n in comparisons:
                ci, und = comparisons[n].rows[i].b_ci, comparisons[n].rows[i].undefined[1]
            elif comparisons and n == a:
                c0 = next(iter(comparisons.values())).rows[i]
                ci, und = c0.a_ci, c0.undefined[0]
            rows.append((n, r.name, r.label, "" if r.value is None else sympy.sstr(r.value),
                         _float(r.value), *(ci or ("", "")), und, r.better, r.source, r.note))
    for n, c in comparisons.items():
        for i, r in enumerate(c.rows):
            d = _diff(reports[a].rows[i].value, reports[n].rows[i].value)
            rows.append((f"{n} - {a}", r.name, r.label, "" if d is None else sympy.sstr(d),
                         _float(d), *(r.diff_ci or ("", "")), r.undefined[2], r.better,
                         r.source, r.note))
    return header, rows


# ---------------------------------------------------------------------------
# auoc
# ---------------------------------------------------------------------------
def _curve(cm):
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

    >>> b = sympy.Symbol("beta")
    >>> a, s = sympy.Rational(1, 3), sympy.Rational(10**30 + 1, 10**30)
    >>> _line(a, s, a + s * b)
    '≈0.333333333333333 + 1*beta'
    """
    text = sympy.sstr(expr)
    if exact or len(text) <= EXACT_WIDTH:
        return text
    return f"≈{float(a):.15g} + {float(s):.15g}*beta"


def cmd_auoc(args) -> int:
    outs = _check_outputs(args)
    names, cms, _ = load_matrices(args)
    announce_cost(len(cms[names[0]]), matrices=len(names), per_cell=AUOC_SECONDS_PER_CELL,
                  what="the exact UOC(beta) pieces and A_UOC")
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
    """The ``metrics`` and ``auoc`` subcommands."""
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
                       help="draw UOC(beta) with the shaded A_UOC (needs matplotlib)")
        if name == "metrics":
            s.add_argument("--resamples", type=int, default=2000, metavar="R",
                           help="paired bootstrap resamples for two or more predictions "
                                "(default 2000; 0: no intervals; at most about "
                                "2**26 / (2 K^2 + min(N, K^3)))")
            s.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
            s.add_argument("--confidence", type=float, default=0.95,
                           help="interval level (default 0.95)")
            s.add_argument("--no-progress", action="store_true", help="no progress bar")
        s.set_defaults(run=run)
