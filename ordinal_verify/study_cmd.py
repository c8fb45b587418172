"""``ordinal-verify study FILE...``: several methods over many datasets (:func:`numeric.study`).

Each FILE is a CSV (comma, semicolon or tab) of long-format predictions with a
header: one row per sample with its dataset, method, fold (or seed), true and
predicted label (column names ``dataset, method, fold, y_true, y_pred`` or
given with ``--columns``).  A file without the dataset column is one dataset,
named after the file.  Labels are numbers (ordered by value) or, with
``--labels``, words in that ordinal order.

The command prints the metrics x methods table, then each metric's average
ranks, Friedman and Iman-Davenport statistics, Nemenyi's critical difference,
Holm's test against ``--control`` and Wilcoxon's per pair (Markdown).
``--markdown FILE`` writes the same with every metric's datasets x methods
table; ``--latex FILE`` the booktabs tables (``--layout narrow``, one column,
for up to 6 methods, else ``wide``); ``--plot FILE.svg|pdf|png`` the
critical-difference diagram of the first metric (matplotlib, the ``plot``
extra).  Every output is checked before the work and written atomically,
never over an input (:mod:`ordinal_verify.outputs`).  The tests need scipy
(the ``study`` extra): without it the command stops before any work.
"""

from __future__ import annotations

import os

from .inputs import InputError, read_text
from .labels import _number, _split, parse_labels
from .matrix_cmds import _metrics_option
from .outputs import check_outputs, write_text, writing

__all__ = ["add_parsers", "cmd_study", "read_predictions"]

_KEYS = ("dataset", "method", "fold", "y_true", "y_pred")


def _columns_option(text):
    """``"fold=seed,y_pred=pred"`` -> ``{"fold": "seed", "y_pred": "pred"}``."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, name = part.partition("=")
        if not sep or key.strip() not in _KEYS or not name.strip():
            raise InputError(f"--columns: {part!r} is not KEY=NAME with KEY one of {', '.join(_KEYS)}")
        out[key.strip()] = name.strip()
    return out


def read_predictions(paths, columns=None, labels=None) -> dict:
    """The long-format columns of every file, concatenated (``{key: list}``).

    Parameters
    ----------
    paths : list of str
        The CSV files, each with a header line.
    columns : dict, optional
        Other column names, e.g. ``{"fold": "seed"}`` (keys of
        :data:`numeric.studies.DEFAULT_COLUMNS`).  A file without the dataset
        column is one dataset, named after the file.
    labels : list, optional
        The classes in ordinal order (``--labels``); the labels are then read
        as their positions.

    Returns
    -------
    dict
        ``{"dataset", "method", "fold", "y_true", "y_pred": list}``, every file's rows.

    Raises
    ------
    InputError
        Naming the file (and line) for a missing column, a short row, or a
        label that is neither a number nor one of ``labels``.

    Examples
    --------
    >>> import contextlib, io, pathlib, tempfile
    >>> from ordinal_verify import build_parser
    >>> pred = {"a": lambda t: t, "b": lambda t: min(2, t + (t == 0)), "c": lambda t: min(2, t + 1)}
    >>> rows = ["dataset,method,fold,y_true,y_pred"] + [
    ...     f"{d},{m},1,{t},{pred[m](t)}" for d in ("d1", "d2", "d3") for m in "abc" for t in (0, 1, 2)]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "predictions.csv")
    ...     _ = path.write_text("\\n".join(rows) + "\\n")
    ...     data = read_predictions([str(path)])
    >>> len(data["y_true"]), sorted(set(data["method"])), data["y_pred"][:3]
    (27, ['a', 'b', 'c'], [0, 1, 2])
    """
    names = {k: k for k in _KEYS}
    names.update(columns or {})
    order = None if labels is None else {lab: i for i, lab in enumerate(labels)}
    out = {k: [] for k in _KEYS}
    for path in paths:
        rows = [r for r in _split(read_text(path), path) if r and any(r)
                and not r[0].lstrip().startswith("#")]
        if not rows:
            raise InputError(f"{path}: no header line")
        header, body = rows[0], rows[1:]
        if not body:
            raise InputError(f"{path}: no rows under the header")
        idx = {}
        for key, name in names.items():
            if name in header:
                idx[key] = header.index(name)
            elif key != "dataset":
                raise InputError(f"{path}: no column {name!r} (the {key}); the header has {header}")
        stem = os.path.splitext(os.path.basename(path))[0]
        for lineno, r in enumerate(body, start=2):
            if len(r) < len(header):
                raise InputError(f"{path}:{lineno}: {len(r)} fields, the header has {len(header)}")
            out["dataset"].append(r[idx["dataset"]] if "dataset" in idx else stem)
            out["method"].append(r[idx["method"]])
            fold = r[idx["fold"]]
            out["fold"].append(_number(fold) if _number(fold) is not None else fold)
            for key in ("y_true", "y_pred"):
                v = r[idx[key]]
                if order is not None:
                    lab = _number(v) if _number(v) is not None and _number(v) in order else v
                    if lab not in order:
                        raise InputError(f"{path}:{lineno}: label {v!r} is not one of --labels")
                    out[key].append(order[lab])
                else:
                    n = _number(v)
                    if n is None:
                        raise InputError(f"{path}:{lineno}: label {v!r} is not a number; give the "
                                         "classes in their ordinal order with --labels")
                    out[key].append(n)
    return out


def cmd_study(args) -> int:
    """Run ``ordinal-verify study``: every metric over datasets, ranks and tests, printed as Markdown.

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
    >>> pred = {"a": lambda t: t, "b": lambda t: min(2, t + (t == 0)), "c": lambda t: min(2, t + 1)}
    >>> rows = ["dataset,method,fold,y_true,y_pred"] + [
    ...     f"{d},{m},1,{t},{pred[m](t)}" for d in ("d1", "d2", "d3") for m in "abc" for t in (0, 1, 2)]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "predictions.csv")
    ...     _ = path.write_text("\\n".join(rows) + "\\n")
    ...     args = build_parser().parse_args(["study", str(path), "--metrics", "mae"])
    ...     with contextlib.redirect_stdout(io.StringIO()) as out:
    ...         status = cmd_study(args)
    >>> status, out.getvalue().splitlines()[0]
    (0, '| metric | a | b | c |')
    """
    outs = check_outputs({"--latex": args.latex, "--markdown": args.markdown, "--plot": args.plot},
                         inputs=args.files, stdout_ok=())
    import numeric
    from numeric.rank_stats import _stats

    _stats()  # scipy missing: an error before any work
    metrics = _metrics_option(args)  # checked against the registry before any file is read
    labels = None if args.labels is None else parse_labels(args.labels)
    data = read_predictions(args.files, _columns_option(args.columns or ""), labels)
    s = numeric.study(data, metrics=metrics, control=args.control, alpha=args.alpha,
                      labels=None if labels is None else list(range(len(labels))))
    print(s.to_markdown(decimals=args.decimals))
    if "--markdown" in outs:
        parts = [s.summary_table(decimals=args.decimals).to_markdown()]
        for key in s.metrics:
            parts += [f"## {s.labels[key]}", s.table(key, decimals=args.decimals).to_markdown(),
                      s.tests[key].to_markdown()]
        write_text(outs["--markdown"], "\n\n".join(parts))
    if "--latex" in outs:
        layout = args.layout or ("narrow" if len(s.methods) <= 6 else "wide")
        parts = [s.summary_table(decimals=args.decimals).to_latex(layout=layout)]
        parts += [s.table(key, decimals=args.decimals).to_latex(layout=layout) for key in s.metrics]
        write_text(outs["--latex"], "\n".join(parts))
    if "--plot" in outs:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from .outputs import plot_format

        ax = s.plot_cd(s.metrics[0])
        try:
            with writing(outs["--plot"], binary=True) as fh:
                ax.figure.savefig(fh, format=plot_format(outs["--plot"].path), bbox_inches="tight")
        finally:
            plt.close(ax.figure)
    return 0


def add_parsers(sub) -> None:
    """Add the ``study`` subcommand.

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
    >>> p.parse_args(["study", "a.csv", "b.csv"]).files
    ['a.csv', 'b.csv']
    """
    helptext = ("several methods over many datasets: every metric per dataset (mean over folds), "
                "average ranks, Friedman, Iman-Davenport, Nemenyi, Holm and Wilcoxon (Demšar 2006)")
    s = sub.add_parser("study", help=helptext, description=helptext)
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="CSV of predictions: dataset, method, fold, y_true, y_pred (a file "
                        "without the dataset column is one dataset, named after the file)")
    s.add_argument("--metrics", metavar="M1,M2,...",
                   help="registry names or variant keys (mae, cohen_kappa_quadratic, ...); "
                        "default all; the first is the one plotted")
    s.add_argument("--control", metavar="METHOD",
                   help="the control of Holm's test (default: the best average rank)")
    s.add_argument("--alpha", type=float, default=0.05, help="level of the tests (default 0.05)")
    s.add_argument("--decimals", type=int, default=3, help="decimals of the tables (default 3)")
    s.add_argument("--columns", metavar="KEY=NAME,...",
                   help="other column names, e.g. fold=seed,y_pred=prediction")
    s.add_argument("--labels", metavar="L1,L2,...",
                   help="the classes in ordinal order (default: numeric labels by value)")
    s.add_argument("--markdown", metavar="FILE", help="write the tables and tests as Markdown")
    s.add_argument("--latex", metavar="FILE", help="write the tables as LaTeX (booktabs)")
    s.add_argument("--layout", choices=("narrow", "wide"),
                   help="LaTeX layout (default narrow for up to 6 methods, else wide)")
    s.add_argument("--plot", metavar="FILE.svg",
                   help="draw the critical-difference diagram of the first metric (SVG, PDF, "
                        'PNG; needs matplotlib: pip install "ordinal-verify[plot]")')
    s.set_defaults(run=cmd_study)
