"""Running the workloads, the Markdown table and the command line."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time

from exactfloor.errors import OutputError
from numeric.markdown import table as markdown_table
from numeric.outputs import check_outputs, write_text

from .timing import Config, Row, Timing, compare, fmt_seconds, time_one
from .workloads import WORKLOADS

__all__ = ["Timing", "Row", "Config", "compare", "time_one", "run", "render", "machine", "main"]


# ---------------------------------------------------------------------------
# running and rendering
# ---------------------------------------------------------------------------
def run(*, quick=False, only=None, seed=Config.seed, progress=None) -> list[Row]:
    """Run the workloads (all, or the numbers in ``only``) and return their rows."""
    cfg = Config(quick=quick, seed=seed, repeats=2 if quick else 7, budget=0.25 if quick else 30.0)
    rows: list[Row] = []
    for number, (title, fn) in WORKLOADS.items():
        if only and number not in only:
            continue
        if progress:
            progress(f"workload {number}: {title} ...")
        t0 = time.perf_counter()
        new = fn(cfg)
        rows.extend(new)
        if progress:
            progress(f"workload {number}: done in {time.perf_counter() - t0:.1f} s")
    return rows


def _yes_no(v):
    return "—" if v is None else ("yes" if v else "**NO**")


def render(rows: list[Row], *, info: dict | None = None, quick=False) -> str:
    """The Markdown table (and the machine it ran on)."""
    lines = []
    if info:
        lines.append(
            "Machine: "
            + "; ".join(f"{k} {v}" for k, v in info.items())
            + "."
        )
        lines.append("")
    if quick:
        lines.append("`--quick`: tiny sizes; the timings are not the targets' and the targets are not evaluated.")
        lines.append("")
    header = ["#", "workload", "size", "ours", "peer", "peer time", "speed-up (peer/ours)", "target", "met",
              "results agree; notes"]
    cells = []
    for r in rows:
        num, _, name = r.workload.partition(" ")
        sp = r.speedup
        sp_s = "—" if sp is None else (f"{sp:.3g}x" if sp < 1000 else f"{sp:,.0f}x")
        met = "n/a (quick)" if quick and r.target != "—" else _yes_no(r.target_met)
        agree = _yes_no(r.agree)
        if r.check:
            agree = f"{agree}: {r.check}" if r.agree is not None else r.check
        if r.note:
            agree = f"{agree}; {r.note}" if agree != "—" else r.note
        cells.append([num, name, r.case, fmt_seconds(r.ours.median) if r.ours else "—", r.peer_name,
                      fmt_seconds(r.peer.median) if r.peer else "—", sp_s, r.target, met, agree])
    lines.append(markdown_table(header, cells))
    return "\n".join(lines) + "\n"


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(mod):
    try:
        m = __import__(mod)
        return m.__version__
    except Exception:  # pragma: no cover - a missing peer
        return "not installed"


def _git_commit():
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        )
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict:
    """The machine and software the table was measured on."""
    from analytic.ledger import default_jobs  # the CPUs this process may use

    info = {
        "nproc": default_jobs(),
        "CPU": _cpu_model(),
        "Python": platform.python_version(),
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
        "scikit-learn": _version("sklearn"),
        "imbalanced-learn": _version("imblearn"),
        "sympy": _version("sympy"),
        "date": datetime.date.today().isoformat(),
    }
    commit = _git_commit()
    if commit:
        info["commit"] = commit
    return info


def _parse_only(text):
    try:
        return {int(x) for x in text.split(",") if x.strip()}
    except ValueError:
        raise argparse.ArgumentTypeError(f"--only takes workload numbers such as 1,4,7; got {text!r}") from None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="tiny sizes, runs in seconds")
    ap.add_argument("--output", metavar="FILE", help="also write the Markdown table to FILE")
    ap.add_argument("--only", type=_parse_only, metavar="N,N",
                    help=f"run only these workloads ({min(WORKLOADS)}-{max(WORKLOADS)})")
    ap.add_argument("--seed", type=int, default=Config.seed, help="random seed of the data")
    ap.add_argument("-q", "--silent", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args(argv)
    try:  # the project's output rule, before minutes of work (numeric.outputs)
        out = check_outputs({"--output": args.output}).get("--output")
    except OutputError as exc:
        print(f"python -m benchmarks: {exc}", file=sys.stderr)
        return 2

    def progress(msg):
        print(msg, file=sys.stderr, flush=True)

    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    t0 = time.perf_counter()
    rows = run(quick=args.quick, only=args.only, seed=args.seed, progress=None if args.silent else progress)
    info = machine()
    if load_before is not None:
        info["1-min load average before / after"] = f"{load_before:.2f} / {os.getloadavg()[0]:.2f}"
    info["benchmark wall time"] = f"{time.perf_counter() - t0:.0f} s"
    table = render(rows, info=info, quick=args.quick)
    print(table, end="")
    if out is not None:
        try:
            write_text(out, table)  # atomically: a failed write leaves the previous file
        except OutputError as exc:
            print(f"python -m benchmarks: {exc}", file=sys.stderr)
            return 2
    failed = [r for r in rows if r.agree is False]
    for r in failed:
        print(f"AGREEMENT FAILED: {r.workload} [{r.case}]: {r.check}", file=sys.stderr)
    return 1 if failed else 0
