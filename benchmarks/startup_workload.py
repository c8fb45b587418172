"""Workload 16 (issue 26, item 2): the start-up of ``ordinal-verify metrics``.

The command lives in :mod:`ordinal_verify`, which imports :mod:`analytic`
(SymPy's derivations, the ledger, the auditor) only in the commands that use
it.  Each side is a fresh interpreter from the repository root, timed as a
whole (``subprocess.run``), alternately, in this run:

* ours: ``python -m ordinal_verify metrics FILE`` on a 3 x 3 matrix (every
  metric in exact arithmetic, the table printed);
* peer ``python -c "import numeric"``: the target (about 1x), against the
  command's start alone (``metrics --help``: its imports and its parser, no
  work) and against the whole run;
* peer: the same metrics from :mod:`numeric` alone (``numeric.report(cm,
  arithmetic="exact")``): what the command cannot avoid (the exact closed
  forms are SymPy numbers, so SymPy is imported);
* peer ``python -m analytic metrics FILE``: the same command started through
  :mod:`analytic` (the delegate kept for old scripts), i.e. the import cost
  the command had when it lived in ``analytic/cli``.

``--quick`` times only the first two pairs, once each after a warm-up.  The
target of issue 26 (the command starts in about numeric's import time) is the
first row: the command's start (imports, parser) against ``import numeric``.
The whole run cannot be about 1x ``import numeric`` while ``metrics`` prints
exact closed forms: :mod:`numeric`'s exact arithmetic imports SymPy (about
0.6 s alone), so the second row reports that ratio and the third the cost the
command adds to the same work done by :mod:`numeric` alone.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile

from .timing import Config, Row, compare

__all__ = ["w16_startup"]

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: a small matrix (rows = true class): MAE = 5/23 (5 samples one class off of 23)
MATRIX = [[5, 2, 0], [1, 6, 1], [0, 1, 7]]

_REPORT = ("import sys, numpy, numeric; "
           "r = numeric.report(numpy.loadtxt(sys.argv[1], delimiter=',', dtype=numpy.int64), "
           "arithmetic='exact'); print(r.rows[1].value)")


def _cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _run(argv, cpu_times):
    """Run ``python argv`` from the repository root; ``(exit status, stdout)``.  Its CPU
    time (user + system) is appended to ``cpu_times``: on a loaded machine the wall
    times of two fresh interpreters differ more than their CPU times."""
    before = _cpu()
    out = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=REPO,
                         timeout=300)
    cpu_times.append(_cpu() - before)
    return out.returncode, out.stdout


def _mae(stdout):
    """The exact MAE of ``ordinal-verify metrics``' table (the row ``MAE  5/23 ...``)."""
    return next((ln.split()[1] for ln in stdout.splitlines() if ln.split()[:1] == ["MAE"]), None)


def w16_startup(cfg: Config):
    fd, path = tempfile.mkstemp(suffix=".csv", prefix="startup_workload_")
    with os.fdopen(fd, "w") as fh:
        fh.write("\n".join(",".join(map(str, r)) for r in MATRIX) + "\n")
    ours_cmd = ["-m", "ordinal_verify", "metrics", path]
    start_cmd = ["-m", "ordinal_verify", "metrics", "--help"]
    repeats, budget = (1, 10.0) if cfg.quick else (min(cfg.repeats, 5), min(cfg.budget, 15.0))
    size = "3x3 file, every metric exact (a fresh process each)"
    rows = []
    try:
        peers = (
            ("`python -c \"import numeric\"`", ["-c", "import numeric"], "start"),
            ("`python -c \"import numeric\"`", ["-c", "import numeric"], "target"),
            ("`numeric.report(cm, arithmetic=\"exact\")` in a fresh process", ["-c", _REPORT, path],
             "value"),
            ("`python -m analytic metrics` (the command through analytic, as in analytic/cli)",
             ["-m", "analytic", "metrics", path], "table"),
        )
        for peer_name, peer_cmd, kind in peers[:2] if cfg.quick else peers:
            cpu_ours, cpu_peer = [], []
            cmd = start_cmd if kind == "start" else ours_cmd
            (t_ours, (status, out)), (t_peer, (pstatus, pout)) = compare(
                lambda cmd=cmd: _run(cmd, cpu_ours), lambda cmd=peer_cmd: _run(cmd, cpu_peer),
                repeats=repeats, budget=budget)
            cpu = statistics.median(cpu_ours), statistics.median(cpu_peer)
            mae = _mae(out)
            if kind == "start":
                ok = status == pstatus == 0 and out.startswith("usage: ordinal-verify metrics")
                check = f"the usage printed; exit statuses {status}, {pstatus}"
            elif kind == "target":
                ok = status == pstatus == 0 and mae == "5/23"
                check = f"MAE {mae}; exit statuses {status}, {pstatus}"
            elif kind == "value":
                ok, check = mae == pout.strip() == "5/23", f"MAE {mae} = {pout.strip()}"
            else:
                ok = status == pstatus == 0 and out == pout
                check = "identical output" if out == pout else "outputs differ"
            ratio = t_ours.median / t_peer.median
            target = {"start": "about 1x (ours/peer ≤ 1.25)",
                      "value": "about 1x (ours/peer ≤ 1.25)"}.get(kind, "— (report)")
            rows.append(Row(
                "16 metrics CLI start-up", "`metrics --help`: imports and parser, no work (a fresh "
                "process each)" if kind == "start" else size, t_ours, peer_name, t_peer, target=target,
                target_met=None if cfg.quick or kind in ("table", "target") else ratio <= 1.25,
                agree=ok, check=check,
                note=f"ours/peer = {ratio:.2f}; median CPU time {cpu[0]:.2f} s / {cpu[1]:.2f} s = "
                     f"{cpu[0] / cpu[1]:.2f}" + (
                    "; the whole run: the exact metrics import SymPy (numeric's exact arithmetic), "
                    "which the next row measures as the work itself" if kind == "target" else ""),
            ))
    finally:
        os.unlink(path)
    return rows
