"""``ordinal-verify audit [METRIC]``: the property auditor (:mod:`analytic.audit`).

``METRIC`` is a name of :data:`numeric.registry.REGISTRY`; every report
variant is audited and printed as a table (property, verdict, minimal
counterexample, witness or proof scope).  Without ``METRIC`` every registered
metric is audited and the property table printed; ``--markdown FILE`` writes
it (``docs/properties.md``), ``--json FILE`` (``-`` for stdout) the verdicts.

The symbolic proofs (:mod:`analytic.prover`) cover every matrix with
``K <= --every-k`` and the all-positive matrices with
``--every-k < K <= --positive-k`` (defaults: :data:`analytic.prover.DEFAULT_SCOPES`);
``--no-proofs`` searches only.
"""

from __future__ import annotations

import json

from .outputs import check_outputs, writing, write_text
from .table import format_table

__all__ = ["add_parsers", "cmd_audit"]


def add_parsers(sub) -> None:
    from analytic.audit import DEFAULTS
    from analytic.prover import EVERY_K, POSITIVE_K

    p = sub.add_parser(
        "audit", help="decide formal properties of a metric (exhaustive + random, exact)",
        epilog="Python code named on the command line runs with your rights: "
               "'ordinal-verify --claims FILE' imports and runs FILE, and so will a METRIC "
               "given as module:function once audit accepts one. Give only code you trust.")
    p.add_argument("metric", nargs="?", help="a registered metric name (default: every metric)")
    p.add_argument("--max-k", type=int, default=DEFAULTS["max_k"], help="largest K of the exhaustive search")
    p.add_argument("--max-n", type=int, default=DEFAULTS["max_n"], help="largest N of the exhaustive search")
    p.add_argument("--random", type=int, default=DEFAULTS["random"], help="number of random matrices")
    p.add_argument("--seed", type=int, default=DEFAULTS["seed"], help="seed of the random search")
    p.add_argument("--every-k", type=int, default=EVERY_K,
                   help="prove on every matrix with K <= this (default %(default)s)")
    p.add_argument("--positive-k", type=int, default=POSITIVE_K,
                   help="prove on the all-positive matrices up to this K (default %(default)s)")
    p.add_argument("--no-proofs", action="store_true", help="search only, no symbolic proofs")
    p.add_argument("--markdown", metavar="FILE", help="write the property table as Markdown")
    p.add_argument("--json", metavar="FILE", help="write the verdicts as JSON ('-' for stdout)")
    p.set_defaults(run=cmd_audit)


def _proof_dict(proof):
    if proof is None:
        return None
    return {"scope": proof.scope_text(), "short": proof.short(),
            "refused": [{"scope": sc.text(), "kind": kind, "reason": why}
                        for sc, why, kind in proof.refused]}


def _as_dict(name, label, rep):
    return {"metric": name, "variant": label, "better": rep.better,
            "properties": {p: {"verdict": r.verdict,
                               "counterexample": r.counterexample_text() if r.verdict == "fails" else None,
                               "witness": r.witness, "searched": r.searched, "how": r.how,
                               "proof": _proof_dict(r.proof)}
                           for p, r in rep.results.items()}}


def scopes_from_args(args) -> tuple:
    """The proof scopes of the command line (:func:`analytic.prover.scopes` of
    ``--every-k`` and ``--positive-k``; none with ``--no-proofs``)."""
    from analytic.prover import scopes

    return () if args.no_proofs else scopes(args.every_k, args.positive_k)


def _write_json(out, rows):
    with writing(out) as fh:
        json.dump([_as_dict(*r) for r in rows], fh, indent=1)
        fh.write("\n")


def cmd_audit(args) -> int:
    from analytic import audit as A
    from numeric.registry import REGISTRY, matrix_metrics

    outs = check_outputs({"--json": args.json, "--markdown": args.markdown},
                         stdout_ok=("--json",))
    sizes = dict(max_k=args.max_k, max_n=args.max_n, random=args.random, seed=args.seed,
                 scopes=scopes_from_args(args))
    if args.metric is not None:
        if args.metric not in REGISTRY:
            raise ValueError(f"unknown metric {args.metric!r}; expected one of {sorted(REGISTRY)}")
        metrics = [REGISTRY[args.metric]]
    else:
        metrics = matrix_metrics()
    rows = [(m.name, v.label, A.audit_registered(m.name, v.label, **sizes))
            for m in metrics for v in m.cases()]
    if args.json == "-":
        _write_json(outs["--json"], rows)
    elif args.metric is not None:
        for name, label, rep in rows:
            print(f"{label} ({name}, {rep.better} is better):")
            table = []
            for p, r in rep.results.items():
                ce = r.counterexample_text() if r.verdict == "fails" else ""
                table.append((p, r.label(), ce, r.evidence()))
            print(format_table(("property", "verdict", "counterexample", "witness / evidence"),
                               table))
            print()
    else:
        names = list(A.PROPERTIES)
        table = [(label,) + tuple(rep.results[p].label() for p in names) for _, label, rep in rows]
        print(format_table(("metric",) + tuple(names), table))
    if args.json and args.json != "-":
        _write_json(outs["--json"], rows)
    if args.markdown:
        write_text(outs["--markdown"], A.table_markdown(rows, **sizes))
    return 0
