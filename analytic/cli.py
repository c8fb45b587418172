"""The ``ordinal-verify`` command (also ``python -m analytic``).

``ordinal-verify``
    runs the claims ledger and prints a table and a summary line;
    ``--json FILE`` (``-`` for stdout), ``--markdown FILE``, ``--only PREFIX``.
``ordinal-verify metrics FILE``
    every metric of a user's confusion matrix, exact and float.
``ordinal-verify auoc FILE``
    the piecewise UOC(beta) and the exact A_UOC of a matrix.

A matrix file is CSV or whitespace-separated, one row per line, rows = true
class (``--predicted-rows`` for the transpose); ``#`` starts a comment.  A
malformed file gets a one-line error naming the file, line and problem, and
exit status 2.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

import numpy as np
import sympy


class InputError(Exception):
    """A user input problem: printed on one line, exit status 2."""


# ---------------------------------------------------------------------------
# matrix files
# ---------------------------------------------------------------------------
def read_matrix(path: str, *, predicted_rows: bool = False) -> np.ndarray:
    """Read a confusion matrix of counts from a CSV or whitespace-separated file."""
    try:
        with open(path, encoding="utf-8") as fh:
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
        fields = [f for f in re.split(r"[,\s;]+", line) if f]
        if width is None:
            width, first_line = len(fields), lineno
        elif len(fields) != width:
            raise InputError(
                f"{path}:{lineno}: expected {width} values (as on line {first_line}), found {len(fields)}"
            )
        row = []
        for f in fields:
            if not re.fullmatch(r"\+?\d+(\.0*)?", f):
                raise InputError(f"{path}:{lineno}: {f!r} is not a non-negative integer count")
            row.append(int(f.split(".")[0]))
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no matrix rows found")
    if len(rows) != width:
        raise InputError(f"{path}: the matrix is {len(rows)}x{width}, not square")
    cm = np.array(rows, dtype=object)
    try:
        cm = cm.astype(np.int64)
    except OverflowError:
        raise InputError(f"{path}: a count exceeds the int64 range") from None
    if cm.sum() == 0:
        raise InputError(f"{path}: the matrix is all zero (no samples)")
    return cm.T.copy() if predicted_rows else cm


# ---------------------------------------------------------------------------
# subcommands
# ---------------------------------------------------------------------------
def _metric_rows(cm):
    import numeric

    N, K = int(cm.sum()), cm.shape[0]
    q = sympy.Rational
    rows = [
        ("MER", lambda a: numeric.mer(cm, arithmetic=a), "silva2018 eq. 1"),
        ("MAE", lambda a: numeric.mae(cm, arithmetic=a), "silva2018 eq. 3"),
        ("MSE", lambda a: numeric.mse(cm, arithmetic=a), "silva2018 eq. 2"),
        ("RMSE", lambda a: numeric.rmse(cm, arithmetic=a), "silva2018 eq. 2"),
        ("AMAE (observed classes)", lambda a: numeric.amae(cm, arithmetic=a), "silva2018 eq. 15"),
        ("AMAE (missing = zero)", lambda a: numeric.amae(cm, missing="zero", arithmetic=a), "silva2018 eq. 15"),
        ("MMAE", lambda a: numeric.mmae(cm, arithmetic=a), "silva2018 eq. 14"),
        ("macro RMSE", lambda a: numeric.macro_rmse(cm, arithmetic=a), "macroblog"),
        ("R_s", lambda a: numeric.spearman_rs(cm, arithmetic=a), "silva2018 eq. 4"),
        ("tau_b", lambda a: numeric.kendall_tau_b(cm, arithmetic=a), "silva2018 eq. 5"),
        ("r_int", lambda a: numeric.r_int(cm, arithmetic=a), "silva2018 eqs. 7-10"),
    ]
    if K >= 2:
        rows += [
            ("OC, beta=0.25/(N(K-1))", lambda a: numeric.oc(cm, q(1, 4) / (N * (K - 1)), arithmetic=a), "cardoso2011 eq. 7"),
            ("OC, beta=0.75/(N(K-1))", lambda a: numeric.oc(cm, q(3, 4) / (N * (K - 1)), arithmetic=a), "cardoso2011 eq. 7"),
        ]
    rows += [
        ("UOC, beta=0.25", lambda a: numeric.uoc(cm, q(1, 4), arithmetic=a), "silva2018 eq. 28"),
        ("UOC, beta=0.75", lambda a: numeric.uoc(cm, q(3, 4), arithmetic=a), "silva2018 eq. 28"),
        ("A_UOC", lambda a: numeric.a_uoc(cm, arithmetic=a), "silva2018 eq. 23"),
    ]
    for name, source in (("tc", "binotto2024 eq. 3"), ("stc", "binotto2024 STC"),
                         ("george_d", "george2016 eq. 7")):
        fn = getattr(numeric, name, None)
        if fn is not None:
            rows.append((name.upper() if name != "george_d" else "George's d",
                         (lambda f: lambda a: f(cm, arithmetic=a))(fn), source))
    return rows


def _format_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*header), fmt.format(*["-" * w for w in widths])]
    out += [fmt.format(*map(str, r)) for r in rows]
    return "\n".join(out)


def cmd_metrics(args) -> int:
    cm = read_matrix(args.file, predicted_rows=args.predicted_rows)
    print(f"{args.file}: K = {cm.shape[0]}, N = {int(cm.sum())} (rows = true class)")
    table = []
    for name, f, source in _metric_rows(cm):
        try:
            exact = f("exact")
            table.append((name, sympy.sstr(exact), f"{float(f('float')):.12g}", source))
        except ValueError as exc:
            table.append((name, "undefined", str(exc).split(":")[0], source))
    print(_format_table(("metric", "exact", "float", "source"), table))
    return 0


def cmd_auoc(args) -> int:
    import numeric

    cm = read_matrix(args.file, predicted_rows=args.predicted_rows)
    env = numeric.path_envelope(cm, metric="uoc", arithmetic="exact")
    b = sympy.Symbol("beta", nonnegative=True)
    print(f"{args.file}: UOC(beta), gamma = 1 (silva2018 eq. 28), exact pieces:")
    rows = []
    for i, (a, s) in enumerate(zip(env.intercepts, env.slopes)):
        lo, hi = env.breakpoints[i], env.breakpoints[i + 1]
        rng = f"[{sympy.sstr(lo)}, {'oo' if hi is None else sympy.sstr(hi)})"
        rows.append((rng, sympy.sstr(a + s * b)))
    print(_format_table(("beta in", "UOC(beta)"), rows))
    value = numeric.a_uoc(cm, arithmetic="exact")
    print(f"A_UOC = {sympy.sstr(value)} = {float(value):.12g} (silva2018 eq. 23)")
    return 0


def _progress_bar(stream):
    def show(i, n, cid):
        if n == 0:
            return
        width = 30
        filled = width * i // n
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {i}/{n} {cid[:40]:<40}")
        if i == n:
            stream.write("\n")
        stream.flush()

    return show


def cmd_ledger(args) -> int:
    from . import ledger

    progress = None if args.no_progress else _progress_bar(sys.stderr)
    entries = ledger.run(prefix=args.only, progress=progress)
    if args.json == "-":
        json.dump([e.to_dict() for e in entries], sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        rows = []
        for e in entries:
            ev = e.evidence if len(e.evidence) <= 100 else e.evidence[:97] + "..."
            rows.append((e.id, e.verdict, ev))
        print(_format_table(("id", "verdict", "evidence"), rows))
        print(ledger.summary_line(entries))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump([e.to_dict() for e in entries], fh, indent=1)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(ledger.to_markdown(entries))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ordinal-verify",
        description="Verify the claims of the ordinal-metric papers, or compute the metrics of a matrix.",
    )
    p.add_argument("--json", metavar="FILE", help="write the ledger as JSON ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="write the ledger as a Markdown report")
    p.add_argument("--only", metavar="PREFIX", help="run only the claims whose id starts with PREFIX")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    sub = p.add_subparsers(dest="command")
    for name, helptext in (("metrics", "every metric of a confusion matrix, exact and float"),
                           ("auoc", "the piecewise UOC(beta) and the exact A_UOC of a matrix")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("file", help="CSV or whitespace-separated counts, rows = true class")
        s.add_argument("--predicted-rows", action="store_true",
                       help="the file's rows are predicted classes (george2016, binotto2024 layout)")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "metrics":
            return cmd_metrics(args)
        if args.command == "auoc":
            return cmd_auoc(args)
        return cmd_ledger(args)
    except InputError as exc:
        print(f"ordinal-verify: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        target = getattr(args, "file", None)
        print(f"ordinal-verify: {target + ': ' if target else ''}{exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
