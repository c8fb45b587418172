"""``ordinal-verify metrics FILE`` and ``ordinal-verify auoc FILE``.

The metrics table lists every metric of :data:`numeric.registry.REGISTRY`
that needs nothing but the matrix, each variant on a row.
"""

from __future__ import annotations

import sympy

from .inputs import read_matrix
from .table import format_table

__all__ = ["add_parsers", "cmd_metrics", "cmd_auoc", "metric_rows"]


def metric_rows(cm):
    """``[(label, f(arithmetic), better, source), ...]`` from the registry."""
    from numeric.registry import matrix_metrics

    rows = []
    for m in matrix_metrics():
        for v in m.cases():
            kwargs = v.kwargs(cm)
            rows.append((v.label, (lambda f, kw: lambda a: f(cm, **kw, arithmetic=a))(m.function, kwargs),
                         m.better, m.source))
    return rows


def cmd_metrics(args) -> int:
    cm = read_matrix(args.file, predicted_rows=args.predicted_rows)
    print(f"{args.file}: K = {cm.shape[0]}, N = {int(cm.sum())} (rows = true class)")
    table = []
    for name, f, better, source in metric_rows(cm):
        try:
            exact = f("exact")
            table.append((name, sympy.sstr(exact), f"{float(f('float')):.12g}", better, source))
        except ValueError as exc:
            table.append((name, "undefined", str(exc).split(":")[0], better, source))
    print(format_table(("metric", "exact", "float", "better", "source"), table))
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
    print(format_table(("beta in", "UOC(beta)"), rows))
    value = numeric.a_uoc(cm, arithmetic="exact")
    print(f"A_UOC = {sympy.sstr(value)} = {float(value):.12g} (silva2018 eq. 23)")
    return 0


def add_parsers(sub) -> None:
    """The ``metrics`` and ``auoc`` subcommands."""
    for name, run, helptext in (
            ("metrics", cmd_metrics, "every metric of a confusion matrix, exact and float"),
            ("auoc", cmd_auoc, "the piecewise UOC(beta) and the exact A_UOC of a matrix")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("file", help="CSV or whitespace-separated counts, rows = true class")
        s.add_argument("--predicted-rows", action="store_true",
                       help="the file's rows are predicted classes (george2016, binotto2024 layout)")
        s.set_defaults(run=run)
