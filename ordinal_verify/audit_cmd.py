"""``ordinal-verify audit [METRIC]``: the property auditor (:mod:`analytic.properties.audit`).

``METRIC`` is a name of :data:`numeric.registry.REGISTRY` (every report
variant is audited and printed: property, verdict, counterexample, and what
the verdict rests on), or ``module:function``: a Python function of a count
matrix, **imported and run with your rights** (``--better``, ``--bounds``;
searched in exact arithmetic on :data:`analytic.properties.audit.CALLABLE_SPACE`).
``--all`` audits every registered metric (the property table: about ten
minutes on two cores, with a progress line) and ``--json FILE`` /
``--markdown FILE`` write it (``analytic/properties/table.json``,
``docs/properties.md``).  Without a metric and without ``--all`` the
committed table is printed.

The searched space is :data:`analytic.properties.space.DEFAULT_SPACE` unless
``--max-k``/``--max-n``/``--random`` give another; it runs on ``--jobs``
local processes, or on a Dask cluster (``--scheduler ADDRESS``, the
``dask`` extra; the results come back as pickles, which run code when
unpickled: give only a scheduler you trust).  The symbolic proofs (:mod:`analytic.properties.prover`) cover every
matrix with ``K <= --every-k`` and the all-positive matrices with
``--every-k < K <= --positive-k``; ``--no-proofs`` searches only.
"""

from __future__ import annotations

import importlib
import json
import os
import sys

from exactfloor.errors import UserFunctionError

from .outputs import check_outputs, module_sources, write_text
from .table import format_table

__all__ = ["add_parsers", "cmd_audit", "load_function", "UserFunctionError"]

#: the largest proof scopes the CLI accepts (2^(K^2) - 1 support patterns for --every-k)
MAX_EVERY_K, MAX_POSITIVE_K = 3, 5
#: ``--every-k`` and ``--positive-k``'s defaults as their help states them:
#: :data:`analytic.properties.prover.EVERY_K` and ``POSITIVE_K``, which a run uses; restated
#: because building the parser imports no :mod:`analytic` (a test checks they agree)
SHOWN_EVERY_K, SHOWN_POSITIVE_K = 3, 4


def _whole(text, least):
    import argparse

    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < least:
        raise argparse.ArgumentTypeError(f"must be >= {least}, got {v}")
    return v


def _nonneg(text):
    return _whole(text, 0)


def _positive(text):
    return _whole(text, 1)


#: largest ``--max-k`` and ``--max-n``: beyond them every space is refused anyway
#: (over :data:`analytic.properties.audit.MAX_MATRICES` matrices), but building it is linear in
#: the number (``--max-k 1000000000`` ran for hours before the refusal)
MAX_SIZE_ARG = 1000


def _size(text):
    import argparse

    v = _positive(text)
    if v > MAX_SIZE_ARG:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_SIZE_ARG:,}, got {v:,} (the search space would hold far more than "
            "the auditor's limit of matrices)")
    return v


def _jobs(text):
    """``--jobs``: at most 4 processes per usable CPU (a fork start launches every
    worker at once: ``--jobs 99999999999`` forked without end)."""
    import argparse

    from analytic.ledger import default_jobs

    v = _positive(text)
    cap = 4 * default_jobs()
    if v > cap:
        raise argparse.ArgumentTypeError(
            f"at most {cap} (4 per usable CPU; each job is a process), got {v:,}")
    return v


def add_parsers(sub) -> None:
    """Add the ``audit`` subcommand.

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
    >>> p.parse_args(["audit", "mae", "--max-k", "3"]).max_k
    3
    """
    p = sub.add_parser(
        "audit", help="decide formal properties of a metric (a wide search, confirmed exactly, "
                      "and symbolic proofs)",
        description="Decide formal properties of a metric.  METRIC is a registered name or "
                    "module:function -- the latter imports and runs your Python code with "
                    "your rights.",
        epilog="Python code named on the command line runs with your rights: "
               "'ordinal-verify audit module:function' imports the module and calls the "
               "function, as 'ordinal-verify --claims FILE' imports and runs FILE. Give only "
               "code you trust.")
    p.add_argument("metric", nargs="?",
                   help="a registered metric name, or module:function (imports and runs that "
                        "module with your rights)")
    p.add_argument("--all", action="store_true",
                   help="audit every registered metric (the property table; minutes)")
    p.add_argument("--max-k", type=_size, help="every matrix with K <= this (with --max-n)")
    p.add_argument("--max-n", type=_size, help="every matrix with N <= this")
    p.add_argument("--random", type=_nonneg, help="number of random matrices")
    p.add_argument("--seed", type=_nonneg, default=0, help="seed of the random search")
    p.add_argument("--jobs", type=_jobs, default=None,
                   help="worker processes of the float screen (default: the usable CPUs; at "
                        "most 4 per usable CPU)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the search on a Dask cluster (needs the 'dask' extra); the "
                        "results are unpickled from the cluster, which can run code here: "
                        "give only a scheduler you trust")
    p.add_argument("--tie-budget", type=_nonneg, default=None,
                   help="float ties decided exactly per property by the per-matrix check "
                        "(default 1000)")
    p.add_argument("--exact-ties", action="store_true",
                   help="decide every float tie exactly, on whole stacks in rational "
                        "arithmetic (rationals, and closed forms of their roots and logarithms; "
                        "slower: MAE ~3x, A_UOC ~1.5x)")
    p.add_argument("--every-k", type=_nonneg, default=None,
                   help=f"prove on every matrix with K <= this (default {SHOWN_EVERY_K}, at most "
                        f"{MAX_EVERY_K})")
    p.add_argument("--positive-k", type=_nonneg, default=None,
                   help=f"prove on the all-positive matrices up to this K (default "
                        f"{SHOWN_POSITIVE_K}, at most {MAX_POSITIVE_K})")
    p.add_argument("--no-proofs", action="store_true", help="search only, no symbolic proofs")
    p.add_argument("--falsify", type=_nonneg, default=None, metavar="MATRICES",
                   help="the guided search's budget per property (matrices evaluated; 0: "
                        "none; default 400,000 with --all or --upgrade, none otherwise)")
    p.add_argument("--no-lemmas", action="store_true",
                   help="no proofs for every K from the metrics' declared structures")
    p.add_argument("--upgrade", action="store_true",
                   help="apply the lemmas for every K and the guided search to the committed "
                        "table (its search results and finite proofs kept), with --json and "
                        "--markdown to write it: minutes, not the search's hours")
    p.add_argument("--families", action="store_true",
                   help="with --upgrade: also re-run the finite proofs that are symbolic families "
                        "(imbalance) and those of the unrefuted cells, whose families may give a "
                        "counterexample")
    p.add_argument("--better", choices=("lower", "higher"),
                   help="module:function only: which direction is better (default lower)")
    p.add_argument("--bounds", metavar="LO,HI",
                   help="module:function only: the stated range, e.g. 0,1 or 0,inf")
    p.add_argument("--markdown", metavar="FILE",
                   help="write the property table as Markdown (the ledger's report is "
                        "'ordinal-verify --markdown FILE')")
    p.add_argument("--json", metavar="FILE", help="write the verdicts as JSON ('-' for stdout)")
    p.set_defaults(run=cmd_audit)


def scopes_from_args(args) -> tuple:
    """The proof scopes of the command line (:func:`analytic.properties.prover.scopes` of
    ``--every-k`` and ``--positive-k``, by default :data:`analytic.properties.prover.EVERY_K`
    and ``POSITIVE_K``; none with ``--no-proofs``)."""
    from analytic.properties.prover import EVERY_K, POSITIVE_K, scopes

    every_k = EVERY_K if args.every_k is None else args.every_k
    positive_k = POSITIVE_K if args.positive_k is None else args.positive_k
    if every_k > MAX_EVERY_K:
        raise ValueError(f"--every-k {every_k}: at most {MAX_EVERY_K} (K = 4 has "
                         f"{2 ** 16 - 1:,} support patterns, each a symbolic proof)")
    if positive_k > MAX_POSITIVE_K:
        raise ValueError(f"--positive-k {positive_k}: at most {MAX_POSITIVE_K}")
    return () if args.no_proofs else scopes(every_k, positive_k)


def load_function(spec: str):
    """The function named ``module:function`` (the module is imported: its code runs).

    Parameters
    ----------
    spec : str
        ``module:function``; the function may be a dotted attribute path.

    Returns
    -------
    callable
        The function.

    Raises
    ------
    ValueError
        A malformed name, a module that fails to import, a missing or not callable attribute.

    Examples
    --------
    >>> load_function("numeric:mae").__name__
    'mae'
    """
    mod, _, name = spec.partition(":")
    if not mod or not name:
        raise ValueError(f"expected module:function, got {spec!r}")
    try:
        module = importlib.import_module(mod)
    except Exception as exc:
        raise ValueError(f"{spec}: importing {mod!r} raised {exc!r}") from None
    fn = module
    for part in name.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise ValueError(f"{spec}: {mod!r} has no attribute {name!r}")
    if not callable(fn):
        raise ValueError(f"{spec}: {name!r} is not callable")
    return fn


def _bounds(text):
    if text is None:
        return None
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != 2:
        raise ValueError(f"--bounds takes LO,HI, got {text!r}")
    return tuple(None if t.lower() in ("", "none", "inf", "+inf", "-inf", "oo", "-oo") else t
                 for t in parts)


def _space(args):
    from analytic.properties.audit import space_of

    if args.max_k is None and args.max_n is None and args.random is None:
        return None
    return space_of(args.max_k, args.max_n, args.random, args.seed)


def _executor(args):
    if not args.scheduler:
        return None
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask: pip install \"ordinal-verify[dask]\"") from None
    try:
        return Client(args.scheduler).get_executor()
    except (OSError, TypeError, ValueError) as exc:  # no scheduler there, a malformed address
        raise ValueError(f"--scheduler {args.scheduler}: cannot connect: {exc}") from None


def _progress():
    if not sys.stderr.isatty():
        def show(i, n, label):
            if i < n:
                print(f"ordinal-verify: audit {i + 1}/{n}: {label}", file=sys.stderr, flush=True)
        return show
    from .ledger_cmd import progress_bar

    return progress_bar(sys.stderr)


def cmd_audit(args) -> int:
    """Run ``ordinal-verify audit``: the formal properties of a metric (or the table), printed.

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
    >>> import contextlib, io
    >>> from ordinal_verify import build_parser
    >>> args = build_parser().parse_args(["audit", "mae", "--max-k", "2", "--max-n", "2", "--random", "0",
    ...                                   "--no-proofs", "--no-lemmas", "--jobs", "1"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     status = cmd_audit(args)
    >>> status, out.getvalue().splitlines()[0]
    (0, 'MAE (mae, lower is better):')
    """
    from analytic.properties import audit as A
    from analytic.properties import table as T
    from numeric.registry import REGISTRY, matrix_metrics

    if args.families and not args.upgrade:  # before any other work
        raise ValueError("--families works with --upgrade only")
    if args.upgrade and (args.metric is not None or args.all):
        raise ValueError("--upgrade works on the committed table: give no METRIC and no --all")
    out_paths = {"--json": args.json, "--markdown": args.markdown}
    user = args.metric if args.metric is not None and ":" in args.metric else None
    outs = check_outputs(out_paths, stdout_ok=("--json",),
                         sources=module_sources(user) if user else ())
    scopes = scopes_from_args(args)
    from analytic.properties.falsify import DEFAULT_BUDGET, Budget

    if args.falsify is not None:
        budget = Budget(evaluations=args.falsify) if args.falsify else None
    else:
        budget = DEFAULT_BUDGET if (args.all or args.upgrade) else None
    kw = dict(jobs=args.jobs, executor=_executor(args), exact_ties=args.exact_ties,
              falsify=budget, every_k=not args.no_lemmas)
    if args.tie_budget is not None:
        kw["tie_budget"] = args.tie_budget
    space = _space(args)
    if space is not None:
        A.check_size(space)  # before any progress line: the refusal is the only line
    if user:
        fn = load_function(args.metric)
        # the module ran: the files that define fn are known now, still before the audit
        outs = check_outputs(out_paths, stdout_ok=("--json",),
                             sources=module_sources(user) + _defining_files(fn))
        # an exception of fn on a matrix (but UndefinedMetric) is every property's
        # verdict "error", naming it and the matrix (analytic.properties.audit)
        rep = A.audit(fn, space=space, seed=args.seed if space is None else 0,
                      better=args.better or "lower", bounds=_bounds(args.bounds),
                      prove=scopes or False, jobs=args.jobs, executor=kw["executor"],
                      falsify=budget)
        rows = [(args.metric, rep.label, rep)]
        space = rep.space
    elif args.metric is not None or args.all:
        if args.better or args.bounds:
            raise ValueError("--better and --bounds are for module:function only")
        if args.metric is not None:
            if args.metric not in REGISTRY:
                raise ValueError(f"unknown metric {args.metric!r}; expected one of "
                                 f"{sorted(REGISTRY)} or module:function")
            metrics = [REGISTRY[args.metric]]
        else:
            metrics = matrix_metrics()
        space = space or A.DEFAULT_SPACE
        cases = [(m.name, v.label) for m in metrics for v in m.cases()]
        announce_search(space, len(cases), exact_ties=args.exact_ties)
        show = _progress() if len(cases) > 1 else None
        rows = _audit_cases(cases, space, scopes, kw, show)
    else:
        table = T.load()
        if args.upgrade:
            table = A.upgrade_table(table, falsify=budget, every_k=not args.no_lemmas,
                                    jobs=args.jobs, progress=_progress(), families=args.families)
        names = [p["name"] for p in table["properties"]]
        print(format_table(("metric",) + tuple(names),
                           [(r["variant"],) + tuple(T.kind(r["properties"][n]) for n in names)
                            for r in table["reports"]]))
        print(f"(the committed table, searched over {table['space_text']}; "
              "`ordinal-verify audit METRIC` for the evidence)")
        if args.markdown:
            write_text(outs["--markdown"], T.markdown(table))
        if args.json:
            write_text(outs["--json"], json.dumps(table, indent=1) + "\n")
        return 0
    data = T.table_dict(rows, space, scopes, falsifier=None if budget is None else budget.text())
    if args.json == "-":
        write_text(outs["--json"], json.dumps(data, indent=1) + "\n")
    elif len(rows) == 1 or args.metric is not None:
        for name, label, rep in rows:
            print(f"{label} ({name}, {rep.better} is better):")
            table = []
            for p, r in rep.results.items():
                ce = r.counterexample_text() if r.verdict == "fails" else ""
                table.append((p, r.label(), ce, r.evidence()))
            print(format_table(("property", "verdict", "counterexample", "evidence"), table))
            print()
    else:
        names = list(A.PROPERTIES)
        print(format_table(("metric",) + tuple(names),
                           [(label,) + tuple(rep.results[p].label() for p in names)
                            for _, label, rep in rows]))
    if args.json and args.json != "-":
        write_text(outs["--json"], json.dumps(data, indent=1) + "\n")
    if args.markdown:
        write_text(outs["--markdown"], T.markdown(data))
    broken = [(name, r) for name, _, rep in rows for r in rep.results.values()
              if r.verdict == "error"]
    if broken:  # the verdicts are printed; the exit status says the metric is broken
        name, r = broken[0]
        print(f"ordinal-verify: audit: {name}: the metric raised (verdict error): {r.witness}",
              file=sys.stderr)
        return 2
    return 0


#: the float screen's rate (:func:`analytic.properties.audit.check_size` states the same)
MATRICES_PER_SECOND = 1e6
#: the rate with every tie decided exactly (``--exact-ties``): MAE's 14 properties over the
#: default space (922,786 matrices) took 228 s of CPU (114 s on 2 cores, 2026-11-27)
EXACT_TIES_PER_SECOND = 5e4


def announce_search(space, cases, stream=None, exact_ties=False):
    """One line on ``stream`` (stderr) when searching ``space`` for ``cases``
    registered variants is estimated (at :data:`MATRICES_PER_SECOND` per property
    on one core) to take over :data:`~ordinal_verify.inputs.ANNOUNCE_SECONDS`: a
    single metric printed nothing until its verdicts (README rule, issue 23 item 3).

    >>> import io
    >>> from analytic.properties.audit import Space
    >>> s = io.StringIO()
    >>> announce_search(Space(exhaustive=((2, 3),), random=10), 1, stream=s), s.getvalue()
    (False, '')
    >>> announce_search(Space(exhaustive=((4, 10),), random=0), 1, stream=s)
    True
    >>> s.getvalue()[:57]      # C(10 + 16, 16) - 1 matrices of K = 4, N = 1..10
    'ordinal-verify: audit: 5.3e+06 matrices, 14 properties, 1'
    >>> announce_search(Space(exhaustive=((2, 3),), random=10), 1, stream=s, exact_ties=True)
    False
    >>> announce_search(Space(exhaustive=((4, 7),), random=0), 1, stream=s, exact_ties=True)
    True
    >>> s.getvalue().splitlines()[-1][67:]  # 245,156 matrices x 14 properties / 5e4 per second
    'about 69 s on one core (at 5e+04 matrices per second per property, every tie decided exactly) ...'
    """
    from analytic.properties.audit import PROPERTIES

    from .inputs import ANNOUNCE_SECONDS

    size = space.size()
    rate = EXACT_TIES_PER_SECOND if exact_ties else MATRICES_PER_SECOND
    seconds = size * len(PROPERTIES) * cases / rate
    if seconds <= ANNOUNCE_SECONDS:
        return False
    print(f"ordinal-verify: audit: {size:.2g} matrices, {len(PROPERTIES)} properties, {cases} "
          f"variant{'s' if cases != 1 else ''}: about {seconds:.0f} s on one core "
          f"(at {rate:.0e} matrices per second per property"
          f"{', every tie decided exactly' if exact_ties else ''}) ...",
          file=stream or sys.stderr, flush=True)
    return True


def _audit_one(name, label, space, scopes, kw):
    from analytic.properties import audit as A

    return A.audit(name, variant=label, space=space, prove=scopes or False, **kw)


def _audit_cases(cases, space, scopes, kw, show):
    """Audit each (metric, variant): one after the other (each screen on ``--jobs``
    workers or the cluster), or -- several cases on a local machine -- the cases
    themselves spread over ``--jobs`` forked processes (the proofs run in one
    process each)."""
    from analytic.ledger import default_jobs
    from analytic.properties.engine import default_executor

    jobs = kw["jobs"] or default_jobs()
    if len(cases) == 1 or kw["executor"] is not None or jobs == 1:
        rows = []
        for i, (name, label) in enumerate(cases):
            if show:
                show(i, len(cases), label)
            rows.append((name, label, _audit_one(name, label, space, scopes, kw)))
    else:
        pool = default_executor(jobs)
        one = dict(kw, jobs=1)
        try:
            futures = [pool.submit(_audit_one, name, label, space, scopes, one)
                       for name, label in cases]
            rows = []
            for i, ((name, label), fut) in enumerate(zip(cases, futures, strict=True)):
                if show:
                    show(i, len(cases), label)
                rows.append((name, label, fut.result()))
        finally:
            pool.shutdown(cancel_futures=True)
    if show:
        show(len(cases), len(cases), "")
    return rows


def _defining_files(fn) -> tuple:
    """The source files of the loaded function ``fn`` and of its module, and the folders
    of their top-level packages (:func:`~numeric.outputs.module_sources`)."""
    import inspect

    files = set()
    for obj in (fn, inspect.getmodule(fn)):
        try:
            f = inspect.getsourcefile(obj) if obj is not None else None
        except TypeError:  # a builtin
            f = None
        if f:
            files.add(os.path.realpath(f))
    name = getattr(fn, "__module__", None)
    return tuple(sorted(files)) + (module_sources(name) if isinstance(name, str) else ())
