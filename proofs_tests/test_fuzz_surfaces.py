"""Fuzz of every hardened surface besides the metrics (issue 23, item 7).

``test_fuzz.py`` fuzzes the metrics and ``confusion_matrix``; this file the
rest: the CLI's matrix files and label files, its output paths, the claims
runner, the auditor's arguments, :func:`analytic.properties.shrink.shrink`,
:func:`numeric.compare` and :func:`numeric.report`, and user strings.

The contract of every call:

* a valid input gives a value that agrees with an independent oracle (the
  matrix the test wrote, a confusion matrix counted with
  :class:`collections.Counter`, the known minimum of a shrinking order, a
  :class:`fractions.Fraction` evaluation of an expression, the verdict a
  claim returned); never NaN or inf;
* a bad input gives a value or ``ValueError``/``TypeError`` with a message
  naming the problem (for the API's arguments: the argument's name); the CLI
  gives exit status 2 and one line on stderr (``ordinal-verify: ...``;
  argparse's own usage errors are accepted as they are), never a traceback;
* within a time bound, never a modified input file, never an evaluated
  string (a payload such as ``__import__("os").system("touch MARKER")``
  must not create the marker).

Each case runs in a forked worker process (:class:`Sandbox`), so that a call
that hangs -- in Python or in C -- is a "hang" after its time bound rather
than a stuck test: the worker is killed and a new one forked.  A case is
``(surface, seed, valid)``; its input is drawn from
``numpy.random.default_rng(seed)`` in the worker, so hypothesis drives the
generators through a seed (``derandomize=True``: the same examples on every
run), and the campaign (``python proofs_tests/test_fuzz.py --report N``,
:func:`campaign`, docs/safety.md) draws the seeds of each surface and kind
from a generator of its own (:func:`case_seeds`), so that it can run in
chunks (``--only``, ``--start``/``--stop``, ``--save``, ``--merge``).

Failures are counted by kind (:data:`KINDS`): ``wrong value``, ``crash`` (an
exception of another type, an uncaught exception in the CLI, a wrong exit
status or more than one line on stderr), ``hang``, ``data loss`` (an input
modified or removed, a temporary file left), ``evaluated`` (the marker
exists) and ``vague error`` (a ``ValueError``/``TypeError`` whose message is
empty or does not name the argument).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import multiprocessing
import os
import re
import shutil
import signal
import sys
import tempfile
import textwrap
import time
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings, strategies as st

# imported here, not in the worker: a worker forked while a hypothesis test runs
# may not define @given tests (hypothesis's nested-given health check)
import test_fuzz

KINDS = ("wrong value", "crash", "hang", "data loss", "evaluated", "vague error")
#: seconds a case may take before it is a hang (each is well under a second on one core)
BOUND = 30.0
#: the claims runner's timeout in the claims cases, seconds
CLAIM_TIMEOUT = 1.0
MARKER = "MARKER"
#: the outcomes of the checked calls of the running case (:func:`tally`): "value",
#: "ValueError", "TypeError", "CLI result" (exit status 0 or another code the case
#: expects), "CLI refusal" (exit status 2 with its one line); the campaign counts them
TALLY = Counter()


def tally(outcome):
    TALLY[outcome] += 1


class Failure(Exception):
    """A broken contract: ``kind`` (one of :data:`KINDS`) and what happened."""

    def __init__(self, kind, detail):
        super().__init__(kind, detail)
        self.kind, self.detail = kind, detail


def fail(kind, detail):
    raise Failure(kind, str(detail)[:600])


# ---------------------------------------------------------------------------
# the sandbox: a forked worker runs the cases, the parent keeps the time
# ---------------------------------------------------------------------------
def _serve(conn, parent_end):
    """The worker: run each ``(surface, seed, valid, folder)`` received, send ``(kind, detail)``."""
    parent_end.close()
    os.setpgrp()  # the worker's own process group: a hang is killed with its children
    _guard_process_pools()
    null = os.open(os.devnull, os.O_WRONLY)  # the ledger's workers and plots print nothing
    os.dup2(null, 1)
    os.dup2(null, 2)
    home = os.getcwd()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            break
        if task is None:
            break
        surface, seed, valid, folder = task
        TALLY.clear()
        test_fuzz.OUTCOMES.clear()
        try:
            os.chdir(folder)
            case = SURFACES[surface][1 if valid else 2] if surface in SURFACES else \
                REGRESSIONS[surface]
            case(np.random.default_rng(seed), Path(folder))
            out = ("ok", "")
        except Failure as f:
            out = (f.kind, f.detail)
        except BaseException as exc:  # noqa: BLE001 - the harness itself: reported, never hidden
            import traceback

            where = " | ".join(traceback.format_exc(limit=-4).splitlines()[1:-1])
            out = ("crash", f"fuzz harness: {type(exc).__name__}: {exc} ({where})"[:1500])
        finally:
            os.chdir(home)
            sys.path[:] = [p for p in sys.path if p != folder]
        try:
            conn.send((*out, dict(TALLY + test_fuzz.OUTCOMES)))
        except (OSError, ValueError):
            break
    os._exit(0)


def _guard_process_pools(limit=16):
    """A safety net of the worker: a process pool of more than ``limit`` workers
    is refused (RuntimeError, a crash in the counts) instead of forked (the fork
    start method launches every worker at once)."""
    from analytic.properties import pool

    real = pool.ProcessPoolExecutor

    def guarded(max_workers=None, **kw):
        if max_workers is not None and max_workers > limit:
            raise RuntimeError(f"the fuzz test refused a pool of {max_workers} processes")
        return real(max_workers, **kw)

    pool.ProcessPoolExecutor = guarded


class Sandbox:
    """Runs cases in a forked worker under a time bound; a worker that hangs or
    dies is replaced by a new one."""

    def __init__(self):
        self.proc = self.conn = None
        self.outcomes = {}  # the last case's call outcomes (:data:`TALLY`)

    def _start(self):
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        self.proc = ctx.Process(target=_serve, args=(child, self.conn), name="fuzz worker")
        self.proc.start()
        child.close()

    def stop(self, graceful=True):
        if self.proc is None:
            return
        with contextlib.suppress(Exception):
            if graceful and self.proc.is_alive():
                self.conn.send(None)
                self.proc.join(2)
        with contextlib.suppress(OSError):  # the worker and what it started (pools, workers)
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.is_alive():  # killed before its os.setpgrp(): not a group leader yet
            self.proc.kill()
        self.proc.join()
        self.conn.close()
        self.proc = self.conn = None

    def _children(self):
        """The worker's state and its children's (what a hang was waiting for)."""
        import subprocess

        try:
            return subprocess.run(["ps", "-o", "pid,ppid,stat,etime,wchan:20,args", "--pid",
                                   str(self.proc.pid), "--ppid", str(self.proc.pid)],
                                  capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            return f"(ps failed: {exc})"

    def run(self, surface, seed, valid, bound=None):
        """``(kind, detail)`` of one case; ``("ok", "")`` when the contract holds."""
        bound = bound or (SURFACES[surface][3] if surface in SURFACES else BOUND)
        if self.proc is None or not self.proc.is_alive():
            self.stop()
            self._start()
        folder = tempfile.mkdtemp(prefix="fuzz-")
        self.outcomes = {}
        try:
            self.conn.send((surface, int(seed), bool(valid), folder))
            if self.conn.poll(bound):
                try:
                    *out, self.outcomes = self.conn.recv()
                    out = tuple(out)
                except (EOFError, OSError):
                    self.proc.join(2)
                    out = ("crash", f"the case ended the fuzz worker (exit status "
                                    f"{self.proc.exitcode})")
                    self.stop(graceful=False)
            else:
                out = ("hang", f"no answer within {bound:g} s; {self._children()}")
                self.stop(graceful=False)
            if Path(folder, MARKER).exists():
                out = ("evaluated", f"the marker was created ({out[0]}: {out[1]})")
            return out
        finally:
            shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------
# contract checks
# ---------------------------------------------------------------------------
def finite(v):
    """True when every number in ``v`` (nested tuples, lists, dicts, arrays) is finite."""
    if v is None or isinstance(v, (str, bool)):
        return True
    if isinstance(v, dict):
        return all(finite(x) for x in v.values())
    if isinstance(v, (list, tuple)):
        return all(finite(x) for x in v)
    if isinstance(v, np.ndarray):
        return all(finite(x) for x in v.reshape(-1).tolist())
    try:
        import sympy

        if isinstance(v, sympy.Basic):
            return not v.has(sympy.nan, sympy.oo, -sympy.oo, sympy.zoo)
        return math.isfinite(float(v))
    except (TypeError, ValueError, OverflowError):
        return True  # not a number


def refused(fn, *, names=(), must_raise=False, check=None, valid=False):
    """Run ``fn()``: a ``ValueError``/``TypeError`` whose message names one of
    ``names`` (any message when ``names`` is empty), or a value that ``check``
    accepts (``check(value)`` returns None or what is wrong).  Returns the
    exception or the value.  ``valid``: the input is valid, an exception is a
    wrong value."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = fn()
    except Failure:
        raise
    except (ValueError, TypeError) as exc:
        tally(type(exc).__name__ if type(exc) in (ValueError, TypeError) else
              ("ValueError" if isinstance(exc, ValueError) else "TypeError"))
        msg = str(exc)
        if valid:
            fail("wrong value", f"a valid input refused: {type(exc).__name__}: {msg}")
        if not msg.strip():
            fail("vague error", f"{type(exc).__name__} without a message")
        if names and not any(n in msg for n in names):
            fail("vague error", f"{type(exc).__name__}: {msg[:300]!r} names none of {names}")
        return exc
    except BaseException as exc:  # noqa: BLE001 - the failure being counted
        fail("crash", f"{type(exc).__name__}: {exc}")
    tally("value")
    if must_raise:
        fail("wrong value", f"accepted, returned {value!r:.300}")
    if check is not None:
        why = check(value)
        if why:
            fail("wrong value", why)
    return value


def snapshot(paths):
    return {str(p): Path(p).read_bytes() for p in paths if Path(p).is_file()}


def check_kept(snap, folder=None):
    """Data loss: an input changed or removed, or a temporary file left in ``folder``."""
    for p, data in snap.items():
        if not Path(p).is_file():
            fail("data loss", f"the input {p} was removed")
        if Path(p).read_bytes() != data:
            fail("data loss", f"the input {p} was modified")
    if folder is not None:
        left = [f.name for f in Path(folder).iterdir() if re.fullmatch(r"\..*\.[0-9a-f]{8}\.tmp",
                                                                       f.name)]
        if left:
            fail("data loss", f"temporary files left: {left}")


def cli(argv, *, inputs=(), must_fail=None, codes=(0,), one_line=True, folder=None):
    """``ordinal-verify ARGV`` in this process: ``(status, stdout, stderr)``.

    An uncaught exception is a crash (a traceback in a terminal); status 2
    must come with exactly one line ``ordinal-verify: ...`` on stderr (besides
    ``ordinal-verify: warning:`` lines) when ``one_line``; argparse's usage
    errors (status 2, ``error:``) are accepted.  ``must_fail``: True (status
    0 is a wrong value), False (status 2 is a wrong value) or None.  The
    ``inputs`` are byte-compared before and after.
    """
    from ordinal_verify import main

    snap = snapshot(inputs)
    out, err = io.StringIO(), io.StringIO()
    argparse_error = False
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse (status 2), or an exit that escaped the CLI
            status, argparse_error = exc.code, True
            if exc.code != 2:
                fail("crash", f"ordinal-verify {' '.join(map(str, argv))[:200]}: "
                              f"SystemExit({exc.code!r}) escaped, nothing said")
        except BaseException as exc:  # noqa: BLE001 - a traceback in a terminal
            check_kept(snap, folder)
            fail("crash", f"ordinal-verify {' '.join(map(str, argv))[:200]}: uncaught "
                          f"{type(exc).__name__}: {exc}")
    check_kept(snap, folder)
    text = err.getvalue()
    lines = [ln for ln in text.splitlines() if not ln.startswith("ordinal-verify: warning:")]
    shown = f"ordinal-verify {' '.join(map(str, argv))[:200]}"
    if argparse_error:
        if status != 2 or "error:" not in text:
            fail("crash", f"{shown}: argparse exit {status}: {text[-300:]!r}")
        status = 2
    elif status == 2 and one_line and (len(lines) != 1 or not lines[0].startswith(
            "ordinal-verify: ") or len(lines[0]) < 20):
        fail("crash", f"{shown}: exit 2 with {len(lines)} lines on stderr: {text[-400:]!r}")
    elif status != 2 and status not in codes:
        fail("crash", f"{shown}: exit status {status}: {text[-300:]!r}")
    tally("CLI refusal" if status == 2 else "CLI result")
    if must_fail is True and status != 2:
        fail("wrong value", f"{shown}: accepted (exit {status}) a bad input")
    if must_fail is False and status == 2:
        fail("wrong value", f"{shown}: refused a valid input: {text[-300:]!r}")
    return status, out.getvalue(), text


def pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def payloads(folder):
    """Strings that create the marker if anything evaluates them as Python."""
    m = str(Path(folder, MARKER))
    return [
        f'__import__("os").system("touch {m}")',
        f"__import__('pathlib').Path('{m}').touch()",
        f"exec(\"open('{m}', 'w').close()\")",
        f"eval(\"__import__('os').system('touch {m}')\")",
        f"(lambda: __import__('os').system('touch {m}'))()",
        f"open('{m}', 'w')",
        f"[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'catch_warnings']"
        f"[0]()._module.__builtins__['__import__']('os').system('touch {m}')",
        f"Symbol('x').__class__.__init__.__globals__['__builtins__']['__import__']('os')"
        f".system('touch {m}')",
    ]


# ---------------------------------------------------------------------------
# surface: CLI matrix files (ordinal_verify/inputs.py)
# ---------------------------------------------------------------------------
def _matrix(rng, kmax=4):
    cm = test_fuzz.random_matrix(rng)
    while cm.shape[0] > kmax:
        cm = test_fuzz.random_matrix(rng)
    return cm


def _render_rows(rng, rows):
    sep = pick(rng, [",", ";", " ", "\t", ", ", " ; ", "  "])
    lines = [sep.join(row) for row in rows]
    if rng.random() < 0.3:
        lines.insert(int(rng.integers(len(lines) + 1)), "# a comment, with; separators")
    if rng.random() < 0.3:
        lines.insert(int(rng.integers(len(lines) + 1)), "   ")
    if rng.random() < 0.2:
        lines[-1] += "  # trailing comment"
    nl = pick(rng, ["\n", "\r\n", "\r"])
    return ("\ufeff" if rng.random() < 0.2 else "") + nl.join(lines) + (
        nl if rng.random() < 0.7 else "")


def _cell_text(rng, x):
    s = str(int(x))
    r = rng.random()
    return "+" + s if r < 0.05 else s + ".0" if r < 0.1 else "0" + s if r < 0.15 else s


def _matrix_file(rng, folder, cm, transpose=False):
    rows = [[_cell_text(rng, x) for x in row] for row in (cm.T if transpose else cm)]
    p = Path(folder, pick(rng, ["m.csv", "m.txt", "matrix data.csv"]))
    p.write_text(_render_rows(rng, rows), encoding="utf-8", newline="")
    return p


def _oracle_metrics(cm, labels=None):
    """The report of the counted matrix; with the classes' ``labels`` the notes name
    the classes by them, as the CLI's notes of label columns do (issue 25)."""
    import numeric
    from numeric.reporting import class_labels_in

    rows = numeric.report(cm, arithmetic="exact").to_dict()["metrics"]
    for r in rows:
        r["note"] = class_labels_in(r["note"], labels)
    return rows


def _oracle_auoc(cm):
    import sympy

    import numeric

    return sympy.sstr(numeric.a_uoc(cm, arithmetic="exact"))


def _json_to(rng, argv):
    """``argv`` with ``--json -`` (JSON only, on stdout) or, half of the time,
    ``--json out.json`` (the table on stdout too); returns ``(argv, reader)``,
    ``reader(stdout)`` the JSON text."""
    if rng.random() < 0.5:
        return argv + ["--json", "-"], lambda out: out
    return argv + ["--json", "out.json"], lambda out: Path("out.json").read_text()


def _check_outputs_json(cmd, out, cms, labels=None):
    """The JSON of ``metrics``/``auoc`` against the oracle on each matrix."""
    try:
        data = json.loads(out)
    except ValueError:
        fail("wrong value", f"stdout is not JSON: {out[:200]!r}")
    if cmd == "metrics":
        got = [p["metrics"] for p in data["predictions"]]
        want = [_oracle_metrics(cm, labels) for cm in cms]
        if data["N"] != int(cms[0].sum()) or data["K"] != cms[0].shape[0]:
            fail("wrong value", f"K, N = {data['K']}, {data['N']}, expected {cms[0].shape[0]}, "
                                f"{int(cms[0].sum())}")
    else:
        got = [c["a_uoc"]["exact"] for c in data["curves"]]
        want = [_oracle_auoc(cm) for cm in cms]
    if got != want:
        fail("wrong value", f"{cmd}: {str(got)[:250]} != oracle {str(want)[:250]}")
    if not finite(got):
        fail("wrong value", f"{cmd}: a non-finite value in {str(got)[:300]}")


def matrix_valid(rng, folder):
    cm = _matrix(rng)
    t = rng.random() < 0.3
    p = _matrix_file(rng, folder, cm, transpose=t)
    cmd = pick(rng, ["metrics", "metrics", "auoc"])
    argv, read = _json_to(rng, [cmd, p.name] + (["--predicted-rows"] if t else []))
    _, out, _ = cli(argv, inputs=[p], must_fail=False, folder=folder)
    _check_outputs_json(cmd, read(out), [cm])


HUGE = ["1e999999999", "9" * 30, "1" + "0" * 5000, "7" * 140_000, str(2**63), "1e5",
        "99999999999999999999", "1" * 4301]
BAD_CELLS = ["-3", "3.5", "nan", "inf", "0x10", "1_000", "abc", "+-3", "3e0", "\u00bd", "\x00",
             "'3'", '"3"', "3-", "--", "\u00b3"]


def _mutate_grid(rng, folder, cm):
    """A malformed matrix file: ``(path, must_fail, what)``."""
    K = cm.shape[0]
    rows = [[str(int(x)) for x in row] for row in cm]
    i, j = int(rng.integers(K)), int(rng.integers(K))
    kind = int(rng.integers(22))
    must = True
    p = Path(folder, "m.csv")
    text = None
    if kind == 0:
        rows[i][j] = pick(rng, HUGE)
    elif kind == 1:
        rows[i][j] = pick(rng, BAD_CELLS + payloads(folder))
    elif kind == 2:  # a byte-order mark inside the text (at its start it is one)
        rows[i][j] = "\ufeff" + rows[i][j]
        must = (i, j) != (0, 0) or None
    elif kind == 3:
        rows[i] = rows[i][:-1]
    elif kind == 4:
        rows.append(list(rows[i]))
    elif kind == 5:
        rows = [r + ["1"] for r in rows]
    elif kind == 6:  # comma and space in one line
        text = "\n".join(", ".join(r) if n != i else (r[0] + ", " + " ".join(r[1:]) + " 1")
                         for n, r in enumerate(rows))
    elif kind == 7:
        text = "\n".join(",".join(r) + ("," if n == i else "") for n, r in enumerate(rows))
    elif kind == 8:
        text = "\n".join(",,".join(r) if K > 1 else r[0] + ",," for r in rows)
    elif kind == 9:  # not UTF-8
        data = "\n".join(",".join(r) for r in rows).encode(pick(rng, ["utf-16", "utf-32"]))
        if rng.random() < 0.5:
            data = "\n".join(",".join(r) for r in rows).encode() + b"\xff\xfe\n"
        p.write_bytes(data)
        return p, True, "not UTF-8"
    elif kind == 10:
        text = pick(rng, ["", "   \n\n", "# only a comment\n", "\ufeff", "\n\r\n"])
    elif kind == 11:
        text = ",".join("abcdefghijklmnopqrstuvwxyz"[:K]) + "\n" + "\n".join(",".join(r)
                                                                             for r in rows)
    elif kind == 12:
        rows = [["0"] * K for _ in range(K)]
    elif kind == 13:
        n = int(rng.integers(501, 700))
        text = ",".join(["1"] * n) + "\n"
    elif kind == 14:
        p.write_bytes(b"0," * (5 * 2**20 + 100) + b"0\n")
        return p, True, "a file over 10 MB"
    elif kind == 15:  # unicode line breaks and digits: read as they are, any outcome
        sep = pick(rng, ["\u2028", "\x0b", "\x0c", "\x1c", "\x85"])
        rows[i][j] = pick(rng, ["\u0663", "\u0661\u0662", "\uff13", rows[i][j] + sep])
        must = None
    elif kind == 16:
        p = Path(folder, pick(rng, ["missing.csv", "."]))
        if str(p).endswith("."):
            p = Path(folder)
        return p, True, "no such file / a folder"
    elif kind == 17:
        return Path(os.devnull), True, "/dev/null"
    elif kind == 18:  # a symbolic link loop
        q = Path(folder, "loop.csv")
        q.symlink_to(q)
        return q, True, "a link loop"
    elif kind == 19:  # the total beyond int64
        rows[i][j] = str(2**62)
        rows[(i + 1) % K][(j + 1) % K] = str(2**62)
        if K == 1:
            rows[0][0] = str(2**63)
    elif kind == 20:
        rows[i][j] = rows[i][j] + "\x00"
    else:
        rows[i][j] = "9" * int(rng.integers(19, 200))
    if text is None:
        text = "\n".join(",".join(r) for r in rows) + "\n"
    p.write_text(text, encoding="utf-8", newline="")
    return p, must, f"mutation {kind}"


def matrix_bad(rng, folder):
    cm = _matrix(rng)
    p, must, what = _mutate_grid(rng, folder, cm)
    extra = []
    r = rng.random()
    if r < 0.1:
        extra, must = ["--labels", "1,2"], True
    elif r < 0.15:
        extra, must = ["--pred", "a"], True
    elif r < 0.2:
        extra, must = ["--true", "0", "--pred", "1"], None
    cmd = pick(rng, ["metrics", "auoc"])
    inputs = [p] if p.is_file() and str(p) != os.devnull else []
    cli([cmd, str(p), *extra], inputs=inputs, must_fail=must, folder=folder)


# ---------------------------------------------------------------------------
# surface: CLI label files (ordinal_verify/labels.py)
# ---------------------------------------------------------------------------
WORDS = ["low", "mid", "high", "very high", "none", "c5", "x y", "Z", "\u00e9lev\u00e9", "7b"]


def _label_case(rng):
    """``(kind, classes, columns)``: the kind of labels, the classes in their
    ordinal order, and the true and predicted columns as indices into them."""
    K = int(rng.integers(1, 6))
    kind = pick(rng, ["int", "offset", "gapped", "big", "half", "str"])
    if kind == "int":
        classes = list(range(K))
    elif kind == "offset":
        classes = list(range(-3, K - 3))
    elif kind == "gapped":
        classes = sorted(int(x) for x in rng.choice(100, K, replace=False))
    elif kind == "big":
        classes = [2**60 + 3 * i for i in range(K)]
    elif kind == "half":
        classes = [i + 0.5 for i in range(K)]
    else:
        classes = [WORDS[i] for i in rng.permutation(len(WORDS))[:K]]
    N = int(rng.integers(2, 41))
    n_preds = int(rng.integers(1, 3))
    cols = [rng.integers(0, K, N) for _ in range(1 + n_preds)]
    return kind, classes, cols


def _label_file(rng, folder, kind, classes, cols, *, header=True):
    """Write the columns (true first) with an extra column or two; returns
    ``(path, specs, sep)`` where specs are the arguments naming the columns."""
    names = ["y_true"] + [f"pred {c}" if rng.random() < 0.5 else f"p{c}" for c in "AB"][
        :len(cols) - 1]
    texts = [[str(classes[i]) for i in c] for c in cols]
    extra = int(rng.integers(0, 3))
    for e in range(extra):
        names.append(f"id{e}")
        texts.append([str(n) for n in range(len(cols[0]))])
    order = rng.permutation(len(names))
    spaced = any(" " in n for n in names) or any(" " in str(c) for c in classes)
    sep = pick(rng, [",", ";", "\t"] + ([] if spaced else [" "]))
    quote = sep == "," and rng.random() < 0.3
    fmt = (lambda s: f'"{s}"') if quote else (lambda s: s)
    lines = []
    if rng.random() < 0.2:
        lines.append("# written by the fuzz test")
    if header:
        lines.append(sep.join(fmt(names[k]) for k in order))
    for r in range(len(cols[0])):
        lines.append(sep.join(fmt(texts[k][r]) for k in order))
    nl = pick(rng, ["\n", "\r\n"])
    p = Path(folder, pick(rng, ["labels.csv", "labels.tsv", "y.txt"]))
    p.write_text(("\ufeff" if rng.random() < 0.2 else "") + nl.join(lines) + nl,
                 encoding="utf-8", newline="")
    by_index = not header or rng.random() < 0.3
    pos = {k: int(np.flatnonzero(order == k)[0]) for k in range(len(names))}
    specs = [str(pos[k]) if by_index else names[k] for k in range(len(cols))]
    return p, specs, sep


def _label_argv(cmd, p, specs, labels=None, extra=()):
    argv = [cmd, p.name, "--true", specs[0]]
    for s in specs[1:]:
        argv += ["--pred", s]
    if labels is not None:  # "=": argparse reads "--labels -3,-2" as two options
        argv += ["--labels=" + ",".join(map(str, labels))]
    if cmd == "metrics":
        argv += ["--resamples", "0"]
    return argv + list(extra)


def labels_valid(rng, folder):
    kind, classes, cols = _label_case(rng)
    give = kind == "str" or rng.random() < 0.3
    order = list(range(len(classes)))
    if give and rng.random() < 0.5:
        order = [int(i) for i in rng.permutation(len(classes))]  # the user's ordinal order
    header = kind == "str" and rng.random() < 0.5 or rng.random() < 0.8
    p, specs, _ = _label_file(rng, folder, kind, classes, cols, header=header)
    labels = [classes[i] for i in order] if give else None
    cmd = pick(rng, ["metrics", "metrics", "auoc"])
    argv, read = _json_to(rng, _label_argv(cmd, p, specs, labels))
    _, out, _ = cli(argv, inputs=[p], must_fail=False, folder=folder)
    out = read(out)
    # the oracle: count (true, pred) pairs over the classes in their order
    if give:
        rank = {c: n for n, c in enumerate(order)}
        present = order
    else:
        present = sorted(set(int(x) for c in cols for x in c))
        rank = {c: n for n, c in enumerate(present)}
    K = len(present)
    cms = []
    for c in cols[1:]:
        cm = np.zeros((K, K), dtype=np.int64)
        for (a, b), n in Counter(zip(cols[0].tolist(), c.tolist())).items():
            cm[rank[a], rank[b]] += n
        cms.append(cm)
    _check_outputs_json(cmd, out, cms, [classes[i] for i in present])


def _rewrite(p, edit):
    """Rewrite the label file ``p`` line by line (``edit(lines)`` changes the list)."""
    lines = p.read_text(encoding="utf-8-sig").splitlines()
    edit(lines)
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")


def labels_bad(rng, folder):
    kind, classes, cols = _label_case(rng)
    classes = list(classes)
    labels = list(classes) if kind == "str" or rng.random() < 0.3 else None
    m = int(rng.integers(20))
    must, extra, header, edit = True, [], True, None
    if m == 0:  # a chosen cell becomes a huge number
        classes.append(pick(rng, ["1e999999999", "9" * 200, "1e-999999", "-1E+1000",
                                  "0." + "1" * 150]))
        cols[0][int(rng.integers(len(cols[0])))] = len(classes) - 1
    elif m == 1:  # a field longer than csv's limit (131,072 characters)
        classes.append(pick(rng, ["a" * 140_000, "7" * 140_000, "x" * 2**18]))
        cols[1][int(rng.integers(len(cols[1])))] = len(classes) - 1
    elif m == 2:  # thousands of distinct labels
        N = int(rng.integers(501, 3000))
        classes, cols, labels = list(range(N)), [rng.permutation(N), rng.permutation(N)], None
    elif m in (3, 4, 18):  # not UTF-8; empty, header or comments only; a folder, a missing file
        p = Path(folder, "l.csv")
        body = "t,p\n" + "\n".join(f"{classes[a]},{classes[b]}" for a, b in zip(*cols[:2]))
        empty = ["", "t,p\n", "# nothing\n", "\ufeff\n", "t;p\r\n# c\r\n"]
        p.write_bytes(pick(rng, [body.encode("utf-16"), body.encode() + b"\n\xff\n",
                                 "t,p\n\u00e9,1\n".encode("latin-1")]) if m == 3 else
                      pick(rng, empty).encode())
        name = p.name if m != 18 else pick(rng, [".", "missing.csv"])
        cli(["metrics", name, "--true", "t", "--pred", "p"], inputs=[p], must_fail=True,
            folder=folder)
        return
    elif m == 5:  # strings without --labels
        classes, labels = [WORDS[i] for i in range(len(classes))], None
    elif m == 6:  # --labels without a class that occurs
        cols[0][0], cols[1][0] = 0, len(classes)
        classes.append(max(classes) + 1 if kind != "str" else "extra")
        used = sorted(set(int(x) for c in cols for x in c))
        labels = [classes[i] for i in used[1:]]
    elif m == 7:  # --labels repeating a class
        labels = classes + [classes[0]]
    elif m == 8:
        labels = [pick(rng, payloads(folder))]
    elif m == 9:
        labels, extra = None, ["--labels", pick(rng, [",", " , ", ",,,"])]
    elif m == 10:  # a column that is not there
        extra = ["--pred", pick(rng, ["nosuch", "99"])]
    elif m == 11:  # nan, inf; two labels that are one float64
        if rng.random() < 0.5:
            classes.append(pick(rng, ["nan", "inf", "-inf", "NaN"]))
            cols[0][0] = len(classes) - 1
            must = None if labels is None and kind == "str" else True
            labels = None if kind != "str" else labels
        else:
            classes, labels = ["0.1", "0.10000000000000001"], None
            cols = [np.array([0, 1, 0]), np.array([1, 0, 0])]
    elif m == 12:  # bad bootstrap options (two predictions: the bootstrap runs)
        if len(cols) < 3:
            cols.append(cols[1].copy())
        extra = pick(rng, [["--resamples", "-1"], ["--resamples", "x"],
                           ["--seed", "-1", "--resamples", "5"],
                           ["--confidence", "nan", "--resamples", "5"],
                           ["--confidence", "1.5", "--resamples", "5"], ["--predicted-rows"],
                           ["--resamples", str(10**12)]])
    elif m == 13:  # no header, columns named
        header = False
    elif m == 14:  # a BOM, a NUL byte or an open quote at the start of a line
        r, ch = int(rng.integers(1, 10**6)), pick(rng, ["\ufeff", "\x00", '"'])
        must = None

        def edit(lines):
            lines[r % len(lines)] = ch + lines[r % len(lines)]
    elif m == 15:  # a row cut short
        r, must = int(rng.integers(1, 10**6)), None

        def edit(lines):
            k = max(1, r % len(lines))
            lines[k] = lines[k][: len(lines[k]) // 3]
    elif m == 16:  # another separator on the last line
        must = None

        def edit(lines):
            sep = next(c for c in (",", ";", "\t", " ") if c in lines[-1])
            lines[-1] = lines[-1].replace(sep, ";" if sep != ";" else ",")
    elif m == 17:  # --pred repeats --true
        extra = ["--pred", "y_true"]
        must = None
    else:  # numbers and strings mixed, without --labels
        classes.append("seven")
        cols[1][0], labels = len(classes) - 1, None
    p, specs, _ = _label_file(rng, folder, kind, classes, cols, header=header)
    if m == 13 and all(s.isdigit() for s in specs):
        must = None
    if edit is not None:
        _rewrite(p, edit)
    cmd = "metrics" if m == 12 or rng.random() < 0.7 else "auoc"
    cli(_label_argv(cmd, p, specs, labels, extra), inputs=[p], must_fail=must, folder=folder)


# ---------------------------------------------------------------------------
# surface: output paths (ordinal_verify/outputs.py, check_outputs)
# ---------------------------------------------------------------------------
CLAIMS_FILE = textwrap.dedent('''\
    from analytic.ledger import claim, Outcome

    @claim("mine:{id}", source="the fuzz test", statement="s", method="m", expect="verified")
    def one():
        return Outcome("verified", "e")
    ''')
METRIC_FILE = "def f(A):\n    return int(A[0][0])\n"


def _metric_module(folder):
    """A new importable module ``NAME.py`` in ``folder`` holding METRIC_FILE; its name
    is new to the worker (a name imported by an earlier case would resolve to that
    case's file, not this one)."""
    import uuid

    name = f"fuzzmetric_{uuid.uuid4().hex}"
    Path(folder, name + ".py").write_text(METRIC_FILE)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return name


def _command(rng, folder):
    """A small command whose outputs are fuzzed: ``(argv, inputs, options)``."""
    which = pick(rng, ["metrics", "metrics", "auoc", "labels", "ledger", "audit"])
    if which in ("metrics", "auoc"):
        p = Path(folder, "in.csv")
        p.write_text("3,1\n0,2\n")
        return [which, p.name], [p], ["--json", "--csv"] + (
            ["--plot"] if rng.random() < 0.15 else [])
    if which == "labels":
        p = Path(folder, "in.csv")
        p.write_text("t,a\n1,1\n2,1\n2,2\n")
        return ["metrics", p.name, "--true", "t", "--pred", "a"], [p], ["--json", "--csv"]
    if which == "ledger":
        p = Path(folder, "claims_in.py")
        p.write_text(CLAIMS_FILE.replace("{id}", f"{os.getpid()}-{rng.integers(10**12)}"))
        return (["--claims", p.name, "--no-progress", "--jobs", "1", "--timeout", "20"], [p],
                ["--json", "--markdown"])
    name = _metric_module(folder)
    p = Path(folder, name + ".py")
    return (["audit", f"{name}:f", "--max-k", "1", "--max-n", "1", "--random", "0",
             "--no-proofs", "--jobs", "1"], [p], ["--json", "--markdown"])


def _bad_path(rng, folder, inp, option):
    """A path ``option`` must refuse (exit 2, one line)."""
    folder = Path(folder)
    k = int(rng.integers(13))
    if k == 0:
        return inp.name
    if k == 1:
        return str(inp)
    if k == 2:
        link = folder / "link.out"
        link.symlink_to(inp)
        return link.name
    if k == 3:
        hard = folder / "hard.out"
        os.link(inp, hard)
        return hard.name
    if k == 4:
        (folder / "sub").mkdir(exist_ok=True)
        return f"sub/../{inp.name}"
    if k == 5:
        return pick(rng, ["missing/x.out", "a/b/c/x.out", str(folder / "nope" / "x")])
    if k == 6:
        return pick(rng, [".", str(folder), "/"])
    if k == 7:
        return "/dev/full"
    if k == 8:
        return ""
    if k == 9:
        return f"{inp.name}/x.out"
    if k == 10:
        return "n" * 300 + ".json"
    if k == 11:
        dangling = folder / "dangling.out"
        dangling.symlink_to(folder / "no" / "where")
        return dangling.name
    if option in ("--plot", "--markdown"):
        return "-"
    return pick(rng, [inp.name, "/dev/full"])


def outputs_valid(rng, folder):
    argv, inputs, options = _command(rng, folder)
    chosen = [o for o in options if rng.random() < 0.6] or [options[0]]
    ext = {"--plot": ".png", "--markdown": ".md", "--json": ".json", "--csv": ".csv"}
    stdout_ok = ("--json", "--csv") if argv[0] in ("metrics", "auoc") else ("--json",)
    paths, stdout_used = {}, False
    for o in chosen:
        r = rng.random()
        if r < 0.15 and o in stdout_ok and not stdout_used:
            paths[o], stdout_used = "-", True
        elif r < 0.25:
            paths[o] = os.devnull
        elif r < 0.4:
            Path(folder, "old" + ext[o]).write_text("an old output")
            paths[o] = "old" + ext[o]
        else:
            paths[o] = pick(rng, ["out", "x/../out", "./out"]) + o.strip("-") + ext[o]
    Path(folder, "x").mkdir()
    extra = [a for o, p in paths.items() for a in (o, p)]
    codes = (0, 1) if argv[0] == "--claims" else (0,)
    cli(argv + extra, inputs=inputs, must_fail=False, codes=codes, folder=folder)
    for o, p in paths.items():
        if p not in ("-", os.devnull):
            q = Path(folder, p)
            if not q.is_file() or q.stat().st_size == 0 or q.read_bytes() == b"an old output":
                fail("wrong value", f"{o} {p}: not written")


def outputs_bad(rng, folder):
    argv, inputs, options = _command(rng, folder)
    o = pick(rng, options)
    bad = _bad_path(rng, folder, inputs[0], o)
    extra = [o, bad]
    if rng.random() < 0.3 and len(options) > 1:  # a second option naming the same path
        other = pick(rng, [x for x in options if x != o])
        extra += [other, bad if rng.random() < 0.5 else "same.out"]
        if extra[-1] == "same.out":
            extra[1] = "same.out"
    codes = (0, 1) if argv[0] == "--claims" else (0,)
    cli(argv + extra, inputs=inputs, must_fail=True, codes=codes, folder=folder)


# ---------------------------------------------------------------------------
# surface: the claims runner (analytic/ledger/__init__.py run, ordinal-verify --claims)
# ---------------------------------------------------------------------------
#: a check's body -> whether the runner keeps its verdict (True), gives "error"
#: (False), or either (None); ``{V}``/``{E}`` are a verdict and an evidence text
BEHAVIOURS = {
    "an Outcome": ("return Outcome({V!r}, {E!r})", True),
    "an Outcome with a closed form": ("return Outcome({V!r}, {E!r}, 'x + 1')", True),
    "3 MB of evidence": ("return Outcome({V!r}, 'e' * 3_000_000)", True),
    "an Outcome subclass": ("class O(Outcome):\n    pass\nreturn O({V!r}, {E!r})", True),
    "a thread left running": ("import threading\nthreading.Thread(target=time.sleep, "
                              "args=(30,), daemon=True).start()\nreturn Outcome({V!r}, {E!r})",
                              True),
    "stdout closed": ("sys.stdout.close()\nreturn Outcome({V!r}, {E!r})", None),
    "ValueError": ("raise ValueError('boom')", False),
    "RuntimeError": ("raise RuntimeError()", False),
    "an exception whose str and repr raise": (
        "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('str')\n"
        "    def __repr__(self):\n        raise RuntimeError('repr')\nraise E()", False),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", False),
    "sys.exit(0)": ("sys.exit(0)", False),
    "sys.exit(None)": ("sys.exit()", False),
    "sys.exit('bye')": ("sys.exit('bye')", False),
    "SystemExit(3)": ("raise SystemExit(3)", False),
    "MemoryError": ("raise MemoryError", False),
    "RecursionError": ("def f(n):\n    return f(n + 1)\nreturn f(0)", False),
    "GeneratorExit": ("raise GeneratorExit", False),
    "BaseException": ("raise BaseException('base')", False),
    "os._exit(0)": ("os._exit(0)", False),
    "os._exit(3)": ("os._exit(3)", False),
    "SIGKILL": ("os.kill(os.getpid(), signal.SIGKILL)", False),
    "SIGTERM": ("os.kill(os.getpid(), signal.SIGTERM)", False),
    "SIGSEGV": ("os.kill(os.getpid(), signal.SIGSEGV)", False),
    "SIGINT": ("os.kill(os.getpid(), signal.SIGINT)\ntime.sleep(30)", False),
    "SIGSTOP": ("os.kill(os.getpid(), signal.SIGSTOP)", False),
    "a sleep beyond the timeout": ("time.sleep(30)", False),
    "a busy loop beyond the timeout": (
        "end = time.monotonic() + 30\nwhile time.monotonic() < end:\n    pass", False),
    "SIGTERM ignored, then a sleep": (
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(30)", False),
    "None": ("return None", False),
    "an int": ("return 3", False),
    "a verdict string": ("return {V!r}", False),
    "a tuple": ("return ({V!r}, {E!r})", False),
    "a dict": ("return {{'verdict': {V!r}, 'evidence': {E!r}}}", False),
    "a verdict changed to 'error'": (
        "o = Outcome({V!r}, {E!r})\nobject.__setattr__(o, 'verdict', 'error')\nreturn o", False),
    "evidence changed to an int": (
        "o = Outcome({V!r}, {E!r})\nobject.__setattr__(o, 'evidence', 3)\nreturn o", False),
    "closed_form changed to a list": (
        "o = Outcome({V!r}, {E!r})\nobject.__setattr__(o, 'closed_form', [1])\nreturn o", False),
    "evidence a str whose str() raises": (
        "class S(str):\n    def __str__(self):\n        raise RuntimeError('no')\n"
        "return Outcome({V!r}, S({E!r}))", False),
    "its pipe closed": ("os.closerange(3, 4096)\nreturn Outcome({V!r}, {E!r})", False),
}
GOOD = [k for k, (_, ok) in BEHAVIOURS.items() if ok]
BAD_BEHAVIOURS = [k for k, (_, ok) in BEHAVIOURS.items() if ok is not True]
EVIDENCE = ["e", "", "multi\nline | evidence", "\u00e9\u2028\u0000", "x" * 500]


def _claim_source(name, body, V, E, i):
    code = body.format(V=V, E=E)
    return f"def check_{i}():\n" + textwrap.indent(code, "    ") + "\n"


def _claims(rng, n, bad):
    """``n`` claims: ``[(id, behaviour, verdict, evidence, source)]``; some bad when ``bad``."""
    from analytic.ledger import CHECK_VERDICTS

    out = []
    tag = f"{os.getpid()}-{int(rng.integers(10**12))}"
    for i in range(n):
        name = pick(rng, BAD_BEHAVIOURS if bad and (i == 0 or rng.random() < 0.5) else GOOD)
        V, E = pick(rng, list(CHECK_VERDICTS)), pick(rng, EVIDENCE)
        key = pick(rng, ["mine", "other", "third"])
        out.append((f"{key}:{tag}-{i}", name, V, E,
                    _claim_source(name, BEHAVIOURS[name][0], V, E, i)))
    order = rng.permutation(n)
    return [out[k] for k in order]


def _check_entries(entries, claims):
    if len(entries) != len(claims):
        fail("wrong value", f"{len(entries)} entries for {len(claims)} claims")
    for e, (cid, name, V, E, _) in zip(entries, claims):  # noqa: B007 (the tuple's parts named)
        ok = BEHAVIOURS[name][1]
        verdict, evidence = (e.verdict, e.evidence) if hasattr(e, "verdict") else (
            e["verdict"], e["evidence"])
        if ok is True and (verdict, evidence) != (V, E if name != "3 MB of evidence" else
                                                  "e" * 3_000_000):
            fail("wrong value", f"{name}: verdict {verdict!r} ({evidence[:200]!r}), "
                                f"expected {V!r}")
        if ok is False and (verdict != "error" or not evidence):
            fail("wrong value", f"{name}: verdict {verdict!r} ({evidence[:200]!r}), expected "
                                "'error' with a reason")
        if ok is None and verdict not in (V, "error"):
            fail("wrong value", f"{name}: verdict {verdict!r}")


def _run_api(rng, claims):
    from analytic import ledger

    todo = []
    for cid, name, V, E, src in claims:  # noqa: B007 (the tuple's parts named)
        ns = {"Outcome": ledger.Outcome, "os": os, "sys": sys, "time": time,
              "signal": signal}
        exec(src, ns)  # the test's own catalogue of check bodies, not user input
        todo.append(ledger.Claim(id=cid, source="the fuzz test", statement="s", method="m",
                                 check=ns[next(k for k in ns if k.startswith("check_"))],
                                 expect="verified"))
    jobs = int(rng.integers(1, 3))
    entries = refused(lambda: ledger.run(only=todo, jobs=jobs, timeout=CLAIM_TIMEOUT))
    if isinstance(entries, Exception):
        fail("wrong value", f"ledger.run raised {entries!r}")
    _check_entries(entries, claims)


def _claims_module(claims):
    head = ("import os, signal, sys, time\n"
            "from analytic.ledger import Outcome, register\n\n")
    body = "".join(src for *_, src in claims)
    regs = "".join(
        f"register({cid!r}, source='the fuzz test', statement='s', method='m', "
        f"check=check_{src.split('check_')[1].split('(')[0]}, expect={V!r})\n"
        for cid, name, V, E, src in claims)
    return head + body + "\n" + regs


def _run_cli(rng, claims, folder):
    p = Path(folder, f"claims_{int(rng.integers(10**9))}.py")
    p.write_text(_claims_module(claims))
    bad = any(BEHAVIOURS[c[1]][1] is False for c in claims)
    status, out, err = cli(["--claims", p.name, "--timeout", str(CLAIM_TIMEOUT), "--jobs",
                            str(int(rng.integers(1, 3))), "--no-progress", "--json", "-"],
                           inputs=[p], codes=(0, 1, 2), one_line=False, folder=folder)
    try:
        entries = json.loads(out)
    except ValueError:
        fail("wrong value", f"--claims: stdout is not JSON: {out[:200]!r} ({err[-200:]!r})")
    by_id = {e["id"]: e for e in entries}
    _check_entries([by_id.get(c[0], {"verdict": "missing", "evidence": ""}) for c in claims],
                   claims)
    errors = sum(e["verdict"] == "error" for e in entries)
    if (status == 2) != bool(errors) or (bad and status != 2):
        fail("wrong value", f"--claims: exit {status} with {errors} error verdicts")


def claims_valid(rng, folder):
    claims = _claims(rng, int(rng.integers(1, 4)), bad=False)
    _run_cli(rng, claims, folder) if rng.random() < 0.3 else _run_api(rng, claims)


IMPORT_FAILURES = [
    "import sys\nsys.exit(0)\n", "import sys\nsys.exit(3)\n", "raise RuntimeError('at import')\n",
    "def (:\n", "x = 1\n", "raise KeyboardInterrupt\n", "raise SystemExit\n",
    "from analytic.ledger import register, Outcome\n"
    "register('mine:dup-{tag}', source='s', statement='s', method='m', "
    "check=lambda: Outcome('verified', 'e'), expect='verified')\n"
    "register('mine:dup-{tag}', source='s', statement='s', method='m', "
    "check=lambda: Outcome('verified', 'e'), expect='verified')\n",
    "from analytic.ledger import register, Outcome\n"
    "register('mine:err-{tag}', source='s', statement='s', method='m', "
    "check=lambda: Outcome('verified', 'e'), expect='error')\n",
    "from analytic.ledger import register, Outcome\n"
    "register('nocolon{tag}', source='s', statement='s', method='m', "
    "check=lambda: Outcome('verified', 'e'), expect='verified')\n",
]


def claims_bad(rng, folder):
    r = rng.random()
    if r < 0.25:  # the claims file itself fails to import, or is no claims file
        tag = f"{os.getpid()}-{int(rng.integers(10**12))}"
        k = int(rng.integers(len(IMPORT_FAILURES) + 3))
        if k < len(IMPORT_FAILURES):
            p = Path(folder, f"bad_{tag.replace('-', '_')}.py")
            p.write_text(IMPORT_FAILURES[k].replace("{tag}", tag))
            name = p.name
        elif k == len(IMPORT_FAILURES):
            Path(folder, "notes.txt").write_text("x")
            name = "notes.txt"
        else:
            name = pick(rng, ["missing.py", "."])
        src = Path(folder, name)  # a Ctrl-C at import: "interrupted", exit status 130
        interrupt = src.is_file() and "KeyboardInterrupt" in src.read_text()
        cli(["--claims", name, "--timeout", "5", "--jobs", "1", "--no-progress"],
            inputs=list(Path(folder).glob("*")), must_fail=None if interrupt else True,
            codes=(130,) if interrupt else (0,), folder=folder)
        return
    claims = _claims(rng, int(rng.integers(1, 4)), bad=True)
    _run_cli(rng, claims, folder) if rng.random() < 0.3 else _run_api(rng, claims)


# ---------------------------------------------------------------------------
# surface: the auditor's arguments (analytic.properties.audit.audit, ordinal-verify audit)
# ---------------------------------------------------------------------------
def _tiny_audit(rng):
    """Valid keyword arguments of a tiny audit (K <= 2, N <= 2, no proofs)."""
    from analytic.properties.audit import PROPERTIES
    from numeric.registry import matrix_metrics

    m = pick(rng, matrix_metrics())
    props = [str(p) for p in rng.choice(list(PROPERTIES), int(rng.integers(1, 4)), replace=False)]
    cases = m.cases()
    kw = dict(max_k=int(rng.integers(1, 3)), max_n=int(rng.integers(1, 3)),
              random=int(rng.integers(0, 5)), seed=int(rng.integers(0, 2**31)), prove=False,
              jobs=1, tie_budget=int(rng.integers(0, 50)))
    if rng.random() < 0.5:
        kw["variant"] = pick(rng, [int(rng.integers(len(cases))), cases[0].label])
    return m, props, kw


def _audit_oracle(m, props, kw, rep):
    """Every property answered with a known verdict; each counterexample
    re-checked with the property's exact check on the metric's exact values."""
    from analytic.properties.catalog import PROPERTIES
    from analytic.properties.exact import ExactContext

    if list(rep.results) != props:
        return f"results for {list(rep.results)}, asked {props}"
    cases = m.cases()
    v = kw.get("variant", 0)
    v = cases[v] if isinstance(v, int) else next(c for c in cases if c.label == v)
    ctx = ExactContext(lambda cm: m.function(cm, **v.kwargs(cm), arithmetic="exact"),
                       m.better, m.bounds)
    for p, r in rep.results.items():
        if r.verdict not in ("proved", "holds", "fails", "n/a"):
            return f"{p}: verdict {r.verdict!r}"
        if r.verdict == "holds" and r.checked == 0:
            return f"{p}: holds on an empty search"
        if r.verdict == "fails" and isinstance(r.counterexample, np.ndarray):
            if not PROPERTIES[p].check(ctx, r.counterexample):
                return f"{p}: the counterexample {r.counterexample.tolist()} does not violate it"
    return None


def audit_valid(rng, folder):
    from analytic.properties.audit import audit

    m, props, kw = _tiny_audit(rng)
    if rng.random() < 0.3:  # numpy integers are integers
        kw["max_k"] = np.int64(kw["max_k"])
    refused(lambda: audit(m.name if rng.random() < 0.8 else m, props, **kw),
            check=lambda rep: _audit_oracle(m, props, kw, rep), valid=True)


def _junk(rng, folder, *, huge=(10**30, 2**64)):
    return pick(rng, [-1, 0, -(10**20), 1.5, float("nan"), float("inf"), "2", "", None, True,
                      False, [2], (1,), {}, Fraction(3, 2), np.float64(2.0), *huge,
                      object(), pick(rng, payloads(folder))])


#: argument -> the words a message about it must contain (one of them)
AUDIT_NAMES = {"max_k": ("max_k", "space"), "max_n": ("max_n", "space"),
               "random": ("random", "space"), "seed": ("seed",), "tie_budget": ("tie_budget",),
               "jobs": ("jobs",), "variant": ("variant",), "better": ("better",),
               "bounds": ("bound",), "metric": ("metric",), "properties": ("propert",),
               "space": ("space",)}


def audit_bad(rng, folder):
    from analytic.properties.audit import Space, audit

    if rng.random() < 0.35:
        return audit_cli_bad(rng, folder)
    m, props, kw = _tiny_audit(rng)
    metric = m.name
    arg = pick(rng, list(AUDIT_NAMES))
    value = _junk(rng, folder)
    if arg in ("max_k", "max_n"):
        value = _junk(rng, folder, huge=(10**7, 10**5, 1001))
    if arg == "jobs" and (isinstance(value, int) and not isinstance(value, bool) and value > 1
                          or value is None):
        value = pick(rng, [0, -1])  # a valid number of processes forks them: not fuzzed
    if arg == "metric":
        metric = pick(rng, ["nosuch", "", "MAE", None, 5, [], pick(rng, payloads(folder)),
                            lambda A: pick(rng, ["1", None, float("nan"), math.inf, True, A,
                                                 1j, pick(rng, payloads(folder))])])
    elif arg == "properties":
        props = pick(rng, [["nosuch"], "symmetry", [None], [pick(rng, payloads(folder))],
                           ["symmetry", "symmetry "], 5])
    elif arg == "bounds":
        P = pick(rng, payloads(folder))
        value = pick(rng, [(P, 1), (0, P), P, ("nan", 1), (float("nan"), 1), ("1/0", 2),
                           ("x", 1), (0, "oo"), ({}, 1), ("9**9999", 1), ("(9**9999)**9999", 1),
                           ("sqrt(7**6400+2)", 0), (True, 1), (None, "1e999"), (0,), 5,
                           [0, 1, 2], ("10**400", None), "0,1"])
    elif arg == "better":
        value = pick(rng, ["up", "Lower", 1, "", pick(rng, payloads(folder)), ["lower"]])
    elif arg == "variant":
        value = pick(rng, [-1, 99, "nosuch", 1.5, None, True, pick(rng, payloads(folder))])
    elif arg == "space":
        kw.pop("max_k"), kw.pop("max_n"), kw.pop("random")
        # K = 12: 144 cells, the compositions built without recursion (a valid space)
        value = pick(rng, [Space(exhaustive=((2, 500),)), Space(random=10**12), "x", 5,
                           Space(exhaustive=((12, 1),), random=0, triangle=(), triangle_random=0,
                                 diagonal=((66, 1),)),
                           Space(exhaustive=((1, 10**9),)), Space(exhaustive=((1, 10**5),)),
                           Space(exhaustive=((10**7, 10**9),)), Space(diagonal=((100, 10**6),)),
                           Space(exhaustive=((100, 2),))])
    if arg not in ("metric", "properties"):
        kw[arg] = value
    refused(lambda: audit(metric, props, **kw), names=AUDIT_NAMES[arg],
            must_raise=arg in ("jobs", "variant", "properties") or arg == "metric"
            and not callable(metric), check=lambda rep: _audit_oracle(m, props, kw, rep)
            if arg == "space" and isinstance(value, Space) else None)


def audit_cli_bad(rng, folder):
    """``ordinal-verify audit`` with junk option values."""
    name = _metric_module(folder)
    junk = ["0", "-1", "x", "1.5", "", "99999999999", "1e3", " 2", "nan",
            pick(rng, payloads(folder))]
    metric = pick(rng, ["mae", "uoc", f"{name}:f", "nosuch", "nosuchmodule:f", "os:nosuch", ":",
                        "math:pi", "math:sqrt", "builtins:len", "builtins:str", "json:dumps",
                        pick(rng, payloads(folder))])
    argv = ["audit", metric, "--max-k", "1", "--max-n", "1", "--random", "0", "--no-proofs",
            "--jobs", "1"]
    opt = pick(rng, ["--max-k", "--max-n", "--random", "--seed", "--jobs", "--tie-budget",
                     "--every-k", "--positive-k", "--bounds", "--better", "--scheduler", None])
    if opt is not None:
        value = pick(rng, junk)
        if opt == "--bounds":
            value = pick(rng, [value, f"{value},1", "0,1,2", ",", pick(rng, payloads(folder))])
        if opt == "--scheduler":
            value = pick(rng, ["nonsense", "tcp://", "xyz://a:1", ""])
        if opt == "--jobs" and value.strip().isdigit() and 1 < int(value) <= 64:
            # a valid number of processes forks them: not fuzzed (as in audit_bad); " 2" forked
            # a process pool inside the sandbox's forked worker, which can deadlock on a lock
            # another thread of the test process held at the fork (a hang seen once in CI)
            value = pick(rng, ["0", "-1"])
        argv += [opt, value]
    cli(argv, inputs=[Path(folder, name + ".py")], must_fail=None, folder=folder)


# ---------------------------------------------------------------------------
# surface: analytic.properties.shrink.shrink
# ---------------------------------------------------------------------------
def _minimum(kind, d):
    """The first matrix in the order (N, K, lexicographic) that the predicate
    ``kind`` holds on, from the definition of the order: fewest samples, then
    fewest classes, then the flattened matrix with its one sample latest."""
    if kind == "far":  # a sample d classes off the diagonal: K = d + 1, N = 1, at (d, 0)
        m = np.zeros((d + 1, d + 1), dtype=np.int64)
        m[d, 0] = 1
    elif kind == "samples":  # N >= d: one class, [[d]]
        m = np.array([[d]], dtype=np.int64)
    else:  # K >= d classes: N = 1, the sample in the last cell
        m = np.zeros((d, d), dtype=np.int64)
        m[d - 1, d - 1] = 1
    return m


def _predicate(kind, d, numpy_bool):
    def far(a):
        return any(a[i, j] for i in range(len(a)) for j in range(len(a)) if abs(i - j) >= d)

    f = {"far": far, "samples": lambda a: a.sum() >= d,
         "classes": lambda a: a.shape[0] >= d and a.sum() >= 1}[kind]
    return (lambda a: np.bool_(f(a))) if numpy_bool else (lambda a: bool(f(a)))


def shrink_valid(rng, folder):
    from analytic.properties.generators import order_key
    from analytic.properties.shrink import shrink

    kind = pick(rng, ["far", "samples", "classes"])
    d = int(rng.integers(1, 3)) if kind == "far" else int(rng.integers(1, 4))
    K = int(rng.integers(max(d + 1 if kind == "far" else d, 1), 5))
    big = rng.random() < 0.2
    start = rng.integers(0, 10**6 if big else 4, size=(K, K))
    if kind == "far":
        start[K - 1, 0] += 1
    start[0, 0] += d
    pred = _predicate(kind, d, rng.random() < 0.3)
    kw = {}
    if rng.random() < 0.3:
        kw["max_k"] = int(rng.integers(_minimum(kind, d).shape[0], 6))
    if rng.random() < 0.3:
        kw["greedy_budget"] = int(rng.integers(1, 200))
    want = _minimum(kind, d)

    def check(r):
        if not pred(r.matrix):
            return f"the result {r.matrix.tolist()} is not a counterexample"
        if order_key(r.matrix) > order_key(start):
            return f"the result {r.matrix.tolist()} is above the start"
        if r.how.startswith("exhaustive") and not np.array_equal(r.matrix, want):
            return (f"'exhaustive' result {r.matrix.tolist()}, but the minimum is "
                    f"{want.tolist()} ({kind}, d = {d})")
        return None

    refused(lambda: shrink(pred, start.tolist() if rng.random() < 0.5 else start, **kw),
            check=check, valid=True)


def shrink_bad(rng, folder):
    from analytic.properties.shrink import shrink

    what = int(rng.integers(3))
    ok = [[1, 2], [0, 3]]
    if what == 0:  # the start
        start = pick(rng, [[[-1, 2], [0, 1]], [[1.5, 0], [0, 1]], [[1, 2, 3]], [1, 2], 7, None,
                           "1 2; 3 4", [[2**63, 0], [0, 0]], [[float("nan"), 1], [1, 1]],
                           [[True, False], [False, True]], np.zeros((0, 0)), np.ones((2, 2, 2)),
                           [[Fraction(1, 2), 1], [1, 1]], [["1", "2"], ["3", "4"]],
                           np.array([[1, None], [0, 1]], dtype=object), [[1, 2], [3]],
                           np.array(ok, dtype=complex), np.array(ok, dtype="m8[s]"),
                           np.ma.array(ok, mask=[[0, 1], [0, 0]]), [[-(2**70), 0], [0, 1]]])
        refused(lambda: shrink(lambda a: bool(a.sum() > 0), start),
                names=("start matrix",), must_raise=True)
    elif what == 1:  # the predicate
        ret = pick(rng, [None, 1, 0, "yes", np.array([True]), np.float64("nan"), [True],
                         np.float64(1.0), 1.0, "True", np.array(True), object()])
        refused(lambda: shrink(lambda a: ret, ok), names=("predicate",), must_raise=True)
    else:  # the budgets
        arg = pick(rng, ["max_k", "budget", "greedy_budget"])
        value = pick(rng, [0, -1, 1.5, "2", True, float("nan"), [3], 10**30, 2**64,
                           np.int64(3), np.float64(2.0), Fraction(4, 2), 10**9])
        big = int(rng.integers(1, 10**6))
        refused(lambda: shrink(lambda a: bool(a.sum() > 0), [[big, 1], [1, 1]], **{arg: value}),
                names=(arg,), check=lambda r: None if np.array_equal(r.matrix, [[1]])
                or not r.how.startswith("exhaustive") else f"{r.matrix.tolist()} ({r.how})")


# ---------------------------------------------------------------------------
# surface: numeric.compare and numeric.report
# ---------------------------------------------------------------------------
def _count(t, p, order):
    rank = {c: i for i, c in enumerate(order)}
    cm = np.zeros((len(order), len(order)), dtype=np.int64)
    for (a, b), n in Counter(zip(t, p)).items():
        cm[rank[a], rank[b]] += n
    return cm


def compare_valid(rng, folder):
    import numeric
    from numeric.registry import REGISTRY, matrix_metrics

    K = int(rng.integers(2, 5))
    N = int(rng.integers(2, 40))
    words = rng.random() < 0.3
    classes = [WORDS[i] for i in range(K)] if words else list(range(K))
    t, a, b = ([classes[i] for i in rng.integers(0, K, N)] for _ in range(3))
    if rng.random() < 0.15:  # every sample the same triple: no resample varies
        t, a, b = ([x[0]] * N for x in (t, a, b))
    labels = classes if words or rng.random() < 0.3 else None
    order = labels or sorted(set(t) | set(a) | set(b))
    if rng.random() < 0.5:
        names = [m.name for m in matrix_metrics()]
        chosen = [str(x) for x in rng.choice(names, int(rng.integers(1, 4)), replace=False)]
        R = int(rng.integers(2, 60))
        conf = float(rng.uniform(0.5, 0.99))

        def check(c):
            for row in c.rows:
                m = REGISTRY[row.name]
                for got, y in ((row.a, a), (row.b, b)):
                    cm = _count(t, y, order)
                    var = next(v for v in m.cases() if v.label == row.label)
                    try:
                        want = float(m.function(cm, **var.kwargs(cm), arithmetic="float"))
                    except ValueError:
                        want = None
                    if (got is None) != (want is None) or (
                            want is not None and abs(got - want) > 1e-12 * max(1, abs(want))):
                        return f"{row.label}: {got} != {want} (counted)"
                for ci in (row.a_ci, row.b_ci, row.diff_ci):
                    if ci is not None and not (finite(ci) and ci[0] <= ci[1]):
                        return f"{row.label}: interval {ci}"
                ci = row.diff_ci
                if row.winner and (ci is None or ci[0] <= 0 <= ci[1] or ci[0] == ci[1]):
                    return f"{row.label}: winner {row.winner} from the interval {ci}"
            return None

        refused(lambda: numeric.compare(t, a, b, labels=labels, metrics=chosen, n_resamples=R,
                                        confidence=conf, seed=int(rng.integers(2**31))),
                check=check, valid=True)
    else:
        arithmetic = pick(rng, ["float", "float", "exact", "mp"])

        def check(r):
            cm = _count(t, a, labels or sorted(set(t) | set(a)))
            want = numeric.report(cm, arithmetic=arithmetic)
            if [x.value for x in r.rows] != [x.value for x in want.rows]:
                return "report of labels != report of the counted matrix"
            if not finite([x.value for x in r.rows]):
                return "a non-finite value"
            return None

        refused(lambda: numeric.report(t, a, labels=labels, arithmetic=arithmetic),
                check=check, valid=True)


COMPARE_ARGS = {
    "n_resamples": [0, -1, 1.5, "10", 10**12, True, None, float("nan"), [10]],
    "confidence": [0, 1, 1.5, -0.1, float("nan"), float("inf"), "0.9", None, True, [0.9]],
    "labels": [[0, 1], [0, 0, 1, 2], "012", [], [[0, 1, 2]], [None, 1, 2], 5, [0.5, 1, 2]],
    "seed": [-1, "x", 1.5, [-1], float("nan"), {}, "0"],
    "names": ["AB", 5, ["A"], ("A", "B", "C"), ("A", "A"), ("A", "")],
    "metrics": [[], "nosuch", 5, [None], ["rps"], ["mae", "nosuch"], [["mae"]]],
    "undefined": ["x", None, 1, "DROP"],
    "n_classes": [2, -1, 0, 1.5, "3", True, 10**30],
}


def compare_bad(rng, folder):
    import numeric
    from test_fuzz import bad_labels

    r = rng.random()
    if r < 0.3:  # bad label vectors (the confusion_matrix generator)
        t, p, kw = bad_labels(rng)
        if rng.random() < 0.5:
            kw = {k: v for k, v in kw.items() if k in ("labels", "n_classes")}
            refused(lambda: numeric.compare(t, p, p, n_resamples=5, **kw))
        else:
            kw = {k: v for k, v in kw.items() if k == "labels"}
            refused(lambda: numeric.report(t, p, **kw))
        return
    t, a, b = [0, 1, 2, 1, 2], [0, 1, 1, 1, 2], [0, 2, 2, 1, 2]
    if r < 0.4:  # strings without labels= must raise
        w = [WORDS[i] for i in t]
        refused(lambda: (numeric.compare(w, w, w, n_resamples=5) if rng.random() < 0.5 else
                         numeric.report(w, w)), names=("labels",), must_raise=True)
        return
    if r < 0.5:  # report's own arguments
        arg = pick(rng, ["arithmetic", "metrics", "labels", "cm"])
        value = pick(rng, {"arithmetic": ["x", None, 1, "Float"],
                           "metrics": COMPARE_ARGS["metrics"],
                           "labels": [[0, 1], "012", 5],
                           "cm": [[[1, 2], [3, 4]], None, "x"]}[arg])
        if arg == "labels":
            refused(lambda: numeric.report([[1, 2], [3, 4]], labels=value), names=("labels",),
                    must_raise=True)
        elif arg == "cm":
            refused(lambda: numeric.report(value, [1, 2]), must_raise=True)
        else:
            refused(lambda: numeric.report([[1, 2], [3, 4]], **{arg: value}), names=(arg,),
                    must_raise=True)
        return
    arg = pick(rng, list(COMPARE_ARGS))
    value = pick(rng, COMPARE_ARGS[arg])
    kw = {"n_resamples": 5, arg: value}
    name = {"n_resamples": ("n_resamples", "resampled"), "labels": ("label",),
            "n_classes": ("n_classes", "label", "classes")}.get(arg, (arg,))
    refused(lambda: numeric.compare(t, a, b, **kw), names=name, must_raise=True)


# ---------------------------------------------------------------------------
# surface: user strings (exactfloor.parsing and the functions that take numbers)
# ---------------------------------------------------------------------------
def _expression(rng, depth=0):
    """A random arithmetic expression: ``(text, exact Fraction value or None)``."""
    r = rng.random()
    if depth > 3 or r < 0.35:
        x = pick(rng, [int(rng.integers(-50, 50)), Fraction(int(rng.integers(-99, 99)),
                                                            int(rng.integers(1, 30)))])
        if isinstance(x, Fraction) and x.denominator != 1:
            text = pick(rng, [f"Rational({x.numerator}, {x.denominator})",
                              f"({x.numerator}/{x.denominator})"])
        else:
            x = Fraction(int(x))
            text = f"({int(x)})" if x < 0 else str(int(x))
        if rng.random() < 0.15:
            d = round(float(rng.uniform(-100, 100)), int(rng.integers(0, 6)))
            x, text = Fraction(repr(d)), f"({repr(d)})"
        return text, x
    a, va = _expression(rng, depth + 1)
    b, vb = _expression(rng, depth + 1)
    op = pick(rng, ["+", "-", "*", "/", "**", "Max", "Min", "Abs", "sqrt"])
    if op == "/" and vb == 0 or op == "**":
        e = int(rng.integers(-3, 4))
        if va == 0 and e < 0:
            e = 2
        return f"({a})**{e}" if e >= 0 else f"({a})**({e})", va ** e
    if op in ("Max", "Min"):
        return f"{op}({a}, {b})", (max if op == "Max" else min)(va, vb)
    if op == "Abs":
        return f"Abs({a})", abs(va)
    if op == "sqrt":  # of a square
        return f"sqrt(({a})**2)", abs(va)
    return f"({a}) {op} ({b})", {"+": va + vb, "-": va - vb, "*": va * vb,
                                 "/": va / vb if vb else None}[op]


def strings_valid(rng, folder):
    import sympy

    from exactfloor.parsing import parse_number

    text, value = _expression(rng)
    if value is None:
        return
    refused(lambda: parse_number(text, symbols=False),
            check=lambda v: None if v == sympy.Rational(value.numerator, value.denominator)
            else f"{text!r} -> {v}, but Fraction arithmetic gives {value}", valid=True)


BOMBS = ["(9**9999)**9999", "sqrt(7**6400+2)", "9**99999", "1e999", "1" * 1001, "(" * 300 +
         "1" + ")" * 300, "-" * 999 + "1", "Rational(1, 0)", "sqrt(-1)", "lambda: 1", "[1]",
         "1 if 1 else 2", "nan", "oo", "zoo", "I", "E**I", "Max()", "sqrt()", "Abs(1, 2)",
         "x.real", "x[0]", "f(1)", "1; 2", "'1'", "b'1'", "1j", "2**(9**9)", "(2**9999)**9999",
         "sqrt(9**9999+1)", "(sqrt(2)*9**999)**999", "Max(9**9999, 8**9999+1)**999",
         "Rational(7**9999+1, 3)**9", "(1/3)**9999**1", "0**-1", "10**-9999**1"]


def strings_bad(rng, folder):
    from analytic import symbolic_metric
    from analytic.properties.audit import audit
    from analytic.derivations.forms import positioned_metric_forms
    from exactfloor.parsing import parse_number

    P = pick(rng, payloads(folder)) if rng.random() < 0.6 else pick(rng, BOMBS)
    where = int(rng.integers(9))
    if where == 0:
        refused(lambda: parse_number(P, symbols=bool(rng.random() < 0.5)))
    elif where == 1:
        refused(lambda: symbolic_metric("mae", [[P, 1], [0, 1]]))
    elif where == 2:
        refused(lambda: symbolic_metric(P, [[1, 1], [0, 1]]), must_raise=True)
    elif where == 3:
        refused(lambda: positioned_metric_forms({(0, 0): P, (1, 1): 1}, (0, 1)))
    elif where == 4:
        refused(lambda: positioned_metric_forms({(0, 0): 1, (1, 1): 1}, (P, 10**6)))
    elif where == 5:
        refused(lambda: audit("mae", ["range"], bounds=(P, 1), max_k=1, max_n=1, random=0,
                              prove=False))
    elif where == 6:  # the CLI's --bounds of a module:function metric
        name = _metric_module(folder)
        cli(["audit", f"{name}:f", "--max-k", "1", "--max-n", "1", "--random", "0",
             "--no-proofs", "--jobs", "1", "--bounds", f"{P},1" if "," not in P else P],
            must_fail=None, folder=folder)
    elif where == 7:  # a matrix file cell, a label, --labels
        p = Path(folder, "m.csv")
        if rng.random() < 0.5:
            p.write_text(f"1,2\n{P},4\n")
            cli(["metrics", p.name], inputs=[p], must_fail=True, folder=folder)
        else:
            p.write_text(f"t;p\n1;2\n2;{P}\n")
            cli(["metrics", p.name, "--true", "t", "--pred", "p"] + (
                ["--labels", f"1,2,{P}"] if rng.random() < 0.5 else []),
                inputs=[p], must_fail=None, folder=folder)
    else:
        from analytic.derivations.intervals import interval_tc_max_symbolic
        from numeric.rounding import matches_printed

        refused(lambda: matches_printed(P, "0.5") if rng.random() < 0.5 else
                interval_tc_max_symbolic([P, 1], [1, 1]))


# ---------------------------------------------------------------------------
# the metrics and confusion_matrix (test_fuzz.py's generators), for the campaign
# ---------------------------------------------------------------------------
def metrics_valid(rng, folder):
    from test_fuzz import METRICS, check_valid, random_matrix

    cm = random_matrix(rng)
    with warnings.catch_warnings():  # a numpy RuntimeWarning leaking out is a crash
        warnings.simplefilter("error", RuntimeWarning)
        failures = [f for m in METRICS if (f := check_valid(m, cm))]
    if failures:
        kind = "crash" if any(": " in f and "Error" in f.split(": ")[1] for f in failures) \
            else "wrong value"
        fail(kind, f"{cm.tolist()}: {failures[:3]}")


def metrics_bad(rng, folder):
    from test_fuzz import METRICS, bad_matrix, call, check_bad

    x = bad_matrix(rng)
    a = pick(rng, ["float", "exact", "mp"])
    failures = [f for m in METRICS if (f := check_bad(lambda: call(m, x, a, K=2)))]
    if failures:
        fail("wrong value" if "non-finite" in failures[0] else "crash",
             f"{x!r:.200}: {failures[:3]}")


def labels_api_valid(rng, folder):
    import numeric

    K, N = int(rng.integers(1, 6)), int(rng.integers(1, 60))
    t, p = rng.integers(0, K, N), rng.integers(0, K, N)
    refused(lambda: numeric.confusion_matrix(t, p, n_classes=K),
            check=lambda cm: None if np.array_equal(cm, _count(t.tolist(), p.tolist(),
                                                               list(range(K))))
            else f"{cm.tolist()} != the counted matrix", valid=True)


def labels_api_bad(rng, folder):
    import numeric
    from test_fuzz import bad_labels, check_bad

    t, p, kw = bad_labels(rng)
    f = check_bad(lambda: numeric.confusion_matrix(t, p, **kw))
    if f:
        fail("wrong value" if "non-finite" in f else "crash", f"{(t, p, kw)!r:.200}: {f}")


#: name -> (title, valid case, bad case, time bound in seconds)
SURFACES = {
    "metrics": ("metrics (26, three arithmetics)", metrics_valid, metrics_bad, BOUND),
    "confusion": ("confusion_matrix", labels_api_valid, labels_api_bad, BOUND),
    "matrix_files": ("CLI matrix files", matrix_valid, matrix_bad, BOUND),
    "label_files": ("CLI label files", labels_valid, labels_bad, BOUND),
    "outputs": ("CLI output paths", outputs_valid, outputs_bad, BOUND),
    "claims": ("claims runner", claims_valid, claims_bad, 3 * 4 * (CLAIM_TIMEOUT + 5) + BOUND),
    "audit": ("auditor arguments", audit_valid, audit_bad, BOUND),
    "shrink": ("shrink", shrink_valid, shrink_bad, BOUND),
    "compare": ("compare / report", compare_valid, compare_bad, BOUND),
    "strings": ("user strings", strings_valid, strings_bad, BOUND),
}

SANDBOX = Sandbox()


@pytest.fixture(scope="module", autouse=True)
def _sandbox():
    yield SANDBOX
    SANDBOX.stop()


def _case(surface, seed, valid):
    kind, detail = SANDBOX.run(surface, seed, valid)
    assert kind == "ok", (surface, seed, "valid" if valid else "bad", kind, detail)


SEEDS = st.integers(0, 2**32 - 1)
#: hypothesis examples (valid, bad) per surface: about 50 s of CPU in all (with the
#: claims runner's sleeps, about 60 s on the clock)
EXAMPLES = {"matrix_files": (80, 150), "label_files": (80, 150), "outputs": (60, 150),
            "claims": (25, 50), "audit": (80, 200), "shrink": (80, 200), "compare": (80, 200),
            "strings": (150, 300)}


def _fuzz_test(surface):
    n_valid, n_bad = EXAMPLES[surface]

    # no shrinking: a seed is not smaller for being a smaller number, and a hang costs its bound
    phases = (Phase.explicit, Phase.generate)

    @settings(derandomize=True, max_examples=n_valid, deadline=None, database=None,
              phases=phases)
    @given(seed=SEEDS)
    def valid(seed):
        _case(surface, seed, True)

    @settings(derandomize=True, max_examples=n_bad, deadline=None, database=None, phases=phases)
    @given(seed=SEEDS)
    def bad(seed):
        _case(surface, seed, False)

    return valid, bad


test_matrix_files_valid, test_matrix_files_bad = _fuzz_test("matrix_files")
test_label_files_valid, test_label_files_bad = _fuzz_test("label_files")
test_output_paths_valid, test_output_paths_bad = _fuzz_test("outputs")
test_claims_runner_valid, test_claims_runner_bad = _fuzz_test("claims")
test_audit_arguments_valid, test_audit_arguments_bad = _fuzz_test("audit")
test_shrink_valid, test_shrink_bad = _fuzz_test("shrink")
test_compare_report_valid, test_compare_report_bad = _fuzz_test("compare")
test_user_strings_valid, test_user_strings_bad = _fuzz_test("strings")


# ---------------------------------------------------------------------------
# regressions: each bug the fuzz found, as a case of its own; each fails (a
# crash, a hang, a vague error or two lines on stderr) on the code before its fix
# ---------------------------------------------------------------------------
def _auoc_long_piece(rng, folder):
    """``auoc`` printed UOC(beta) with float() of a piece longer than 40 characters:
    a TypeError traceback (matrix_cmds.format_value)."""
    p = Path(folder, "m.csv")
    p.write_text("123456789012,1,0,4\n0,2,1,999999999\n1,0,5,1\n1,2,3,4\n")
    _, out, _ = cli(["auoc", p.name], inputs=[p], must_fail=False, folder=folder)
    if "*beta" not in out or "\u2248" not in out:
        fail("wrong value", f"no piece shown with 15-digit coefficients: {out[:300]!r}")


def _label_field_over_csv_limit(rng, folder):
    """A label field over csv's 131,072 characters: ``_csv.Error`` traceback (labels._split)."""
    p = Path(folder, "l.csv")
    p.write_text("t,p\n1," + "2" * 140_000 + "\n1,1\n")
    _, _, err = cli(["metrics", p.name, "--true", "t", "--pred", "p"], inputs=[p],
                    must_fail=True, folder=folder)
    if "l.csv:2:" not in err:
        fail("vague error", f"the line is not named: {err[:200]!r}")


def _line_break_in_message(rng, folder):
    """A file name with a line break, or a header read across an open quote, made
    the one-line error two lines (cli.main)."""
    cli(["metrics", "no\nsuch.csv"], must_fail=True, folder=folder)
    p = Path(folder, "l.csv")
    p.write_text('"t,p\n1,2\n2,1\n')
    cli(["metrics", p.name, "--true", "t", "--pred", "p"], inputs=[p], must_fail=True,
        folder=folder)


def _claims_exit_at_import(rng, folder):
    """A claims file calling sys.exit(0) at import ended ordinal-verify with status 0,
    no claim run, nothing said (ledger_cmd)."""
    p = Path(folder, "c.py")
    p.write_text("import sys\nsys.exit(0)\n")
    cli(["--claims", p.name, "--no-progress"], inputs=[p], must_fail=True, folder=folder)


def _audit_jobs_capped(rng, folder):
    """``audit --jobs 99999999999`` asked for a pool of that many forked processes
    (the fork start launches all at once); the fuzz worker refuses pools over 16
    (RuntimeError, a crash) instead of forking them."""
    cli(["audit", "mae", "--max-k", "1", "--max-n", "1", "--random", "0", "--no-proofs",
         "--jobs", "99999999999"], must_fail=True, folder=folder)


def _audit_sizes_capped(rng, folder):
    """``audit --max-k 2000000`` built two million sizes (11 s; 10**9 would take
    hours and tens of GB) before the auditor refused the space."""
    start = time.monotonic()
    cli(["audit", "mae", "--max-k", "2000000", "--max-n", "1", "--no-proofs", "--jobs", "1"],
        must_fail=True, folder=folder)
    if time.monotonic() - start > 3:
        fail("hang", f"refused after {time.monotonic() - start:.1f} s")


def _audit_scheduler_unreachable(rng, folder):
    """No scheduler at ``--scheduler``: "cannot write stdout: Timed out ..." (cli.main
    took the connection's OSError for a write error)."""
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        _, _, err = cli(["audit", "mae", "--max-k", "1", "--max-n", "1", "--random", "0",
                         "--no-proofs", "--scheduler", "tcp://127.0.0.1:9"], must_fail=True,
                        folder=folder)
    if "--scheduler" not in err or "cannot write" in err:
        fail("vague error", err[:300])


def _audit_user_function_error(rng, folder):
    """A module:function metric raising TypeError (``json:dumps``): a traceback."""
    _, _, err = cli(["audit", "json:dumps", "--max-k", "1", "--max-n", "1", "--random", "0",
                     "--no-proofs", "--jobs", "1"], must_fail=True, folder=folder)
    if "json:dumps" not in err:
        fail("vague error", err[:300])


def _audit_refusal_before_progress(rng, folder):
    """A space too large for a metric of two variants: a progress line, then the
    refusal (two lines on stderr)."""
    cli(["audit", "uoc", "--random", "99999999999", "--no-proofs", "--jobs", "1"],
        must_fail=True, folder=folder)


def _parse_bombs(rng, folder):
    """Strings of a few characters whose numbers SymPy cannot build or factor in
    time: (9**9999)**9999 (95 million digits), sqrt(7**6400+2) (127 s), a product of
    twenty roots of 96-digit numbers (38 s); each is refused at once, and large
    numbers that are quick still parse (Fraction arithmetic agrees)."""
    import sympy

    from exactfloor.parsing import parse_number

    roots = "*".join(f"sqrt(9**100+{k})" for k in range(1, 40, 2))
    for text in ("(9**9999)**9999", "sqrt(7**6400+2)", roots, "(sqrt(2)*9**99)**999"):
        start = time.monotonic()
        refused(lambda: parse_number(text), names=("digits",), must_raise=True)
        if time.monotonic() - start > 2:
            fail("hang", f"{text[:40]!r} took {time.monotonic() - start:.1f} s")
    for text, want in (("9**999", Fraction(9) ** 999), ("(1/3)**2000", Fraction(1, 3) ** 2000),
                       ("Rational(7**900, 3)", Fraction(7**900, 3))):
        refused(lambda: parse_number(text), valid=True,
                check=lambda v: None if v == sympy.Rational(want.numerator, want.denominator)
                else f"{text} -> {v}")


def _shrink_huge_max_k(rng, folder):
    """``shrink(..., max_k=10**30)`` summed the walk's size over 10**30 classes."""
    from analytic.properties.shrink import shrink

    refused(lambda: shrink(lambda a: bool(a.sum() > 0), [[5, 1], [1, 1]], max_k=10**30,
                           budget=10**30), valid=True,
            check=lambda r: None if r.matrix.tolist() == [[1]] else r.matrix.tolist())


def _shrink_ragged_start(rng, folder):
    """A ragged start matrix: numpy's "inhomogeneous shape" message, naming nothing."""
    from analytic.properties.shrink import shrink

    refused(lambda: shrink(lambda a: True, [[1, 2], [3]]), names=("start matrix",),
            must_raise=True)


def _compare_report_messages(rng, folder):
    """compare's seed and names, report's metrics: TypeError/ValueError naming nothing
    (numpy's "expected non-negative integer", "object of type 'NoneType' has no len()",
    "'int' object is not iterable", "unhashable type: 'list'")."""
    import numeric

    t, a, b = [0, 1, 2, 1], [0, 1, 1, 1], [0, 2, 2, 1]
    # names=None is the default names (A, B, ...) since compare takes two or more predictions
    for kw, name in (({"seed": -1}, "seed"), ({"seed": "x"}, "seed"), ({"names": 5}, "names"),
                     ({"metrics": 5}, "metrics"), ({"metrics": [["mae"]]}, "metrics")):
        refused(lambda: numeric.compare(t, a, b, n_resamples=5, **kw), names=(name,),
                must_raise=True)
    refused(lambda: numeric.report([[1, 2], [3, 4]], metrics=5), names=("metrics",),
            must_raise=True)


def _audit_space_arguments(rng, folder):
    """The auditor's space arguments: max_k = 10**7 built 10**7 sizes and max_n = 10**5
    searched 10**5 one-matrix sizes (hours); properties=5 and bounds=5 said "'int'
    object is not iterable", bounds=(0,) an IndexError, a third bound was ignored,
    a bound of 10**400 an OverflowError, space="x" an AttributeError; Space.size()
    summed 10**9 terms; the 3,600 matrices of K = 60, N = 1 a RecursionError (the
    compositions recursed once per cell).  Each is refused at once, naming its
    argument, and the compositions of more than 64 parts agree with the definition."""
    from analytic.properties.audit import Space, audit
    from analytic.properties.space import _full, _range, block, count

    base = dict(prove=False, jobs=1)
    small = dict(max_k=1, max_n=1, random=0)
    for kw, names in (({"max_k": 10**7, "max_n": 2, "random": 0}, ("max_k",)),
                      ({"max_k": 1, "max_n": 10**5, "random": 0}, ("max_n",)),
                      ({"space": "x"}, ("space",)), ({"space": 5}, ("space",)),
                      ({"space": Space(exhaustive=((1, 10**9),))}, ("space",)),
                      ({"space": Space(exhaustive=((10**7, 10**9),))}, ("space",)),
                      ({"space": Space(exhaustive=((100, 2),))}, ("space",)),
                      ({**small, "bounds": 5}, ("bound",)), ({**small, "bounds": (0,)}, ("bound",)),
                      ({**small, "bounds": [0, 1, 2]}, ("bound",)),
                      ({**small, "bounds": ("10**400", None)}, ("bound",))):
        start = time.monotonic()
        refused(lambda: audit("mae", ["range"], **base, **kw), names=names, must_raise=True)
        if time.monotonic() - start > 3:
            fail("hang", f"{kw} refused after {time.monotonic() - start:.1f} s")
    refused(lambda: audit("mae", 5, **base, **small), names=("propert",), must_raise=True)
    # K = 60, N = 1: the 3,600 matrices with one sample, by definition the unit matrices
    # e_i of the 3,600 cells; lexicographic order puts the sample in the last cell first
    want = np.eye(3600, dtype=np.int64)[::-1]
    refused(lambda: block(60, 1, 0, count(60, 1)), valid=True,
            check=lambda b: None if np.array_equal(b, want) else "K = 60, N = 1: wrong block")
    # 65 parts (the path without recursion) against the recursion's order, shifted by one
    # part: the compositions of n into r + 1 parts whose first part is 0 are those into r
    for n in (1, 2, 3):
        deep = _full(n, 65)
        refused(lambda: deep[:count(8, n)], valid=True,
                check=lambda d: None if np.array_equal(d[:, 1:], _full(n, 64)) and
                not d[:, 0].any() else f"n = {n}: the order differs from the recursion's")
        refused(lambda: _range(n, 65, 3, 40), valid=True,
                check=lambda d: None if np.array_equal(d, deep[3:40]) else "a range differs")


def _compare_no_winner_without_variation(rng, folder):
    """Every sample the same (true, A, B) triple: every resample is the data, the
    interval of B - A is the single value 1 (MAE of B 1, of A 0, by its definition),
    and compare named A the winner from that zero-width interval (found in review,
    issue 23).  A winner needs an interval that excludes 0 and has width."""
    import numeric

    def check(c):
        r = c["MAE"]
        if (r.diff, r.diff_ci) != (1.0, (1.0, 1.0)):
            return f"MAE of B - A {r.diff}, interval {r.diff_ci}; want 1 and (1, 1)"
        if r.winner or "no difference can be established" not in r.note:
            return f"winner {r.winner!r} from a zero-width interval; note {r.note!r}"
        return None

    refused(lambda: numeric.compare([0] * 5, [0] * 5, [1] * 5, metrics=["mae"], n_resamples=40,
                                    seed=0), valid=True, check=check)


REGRESSIONS = {f.__name__.lstrip("_"): f for f in (
    _audit_space_arguments, _compare_no_winner_without_variation,
    _auoc_long_piece, _label_field_over_csv_limit, _line_break_in_message,
    _claims_exit_at_import, _audit_jobs_capped, _audit_sizes_capped,
    _audit_scheduler_unreachable, _audit_user_function_error, _audit_refusal_before_progress,
    _parse_bombs, _shrink_huge_max_k, _shrink_ragged_start, _compare_report_messages)}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_regression_found_by_the_fuzz(name):
    kind, detail = SANDBOX.run(name, 0, True, bound=BOUND)
    assert kind == "ok", (name, kind, detail)


# ---------------------------------------------------------------------------
# the campaign
# ---------------------------------------------------------------------------
#: the share of each surface in the campaign's valid and bad inputs
WEIGHTS = {"metrics": (30, 10), "confusion": (5, 10), "matrix_files": (8, 10),
           "label_files": (8, 10), "outputs": (6, 10), "claims": (4, 8), "audit": (9, 12),
           "shrink": (10, 10), "compare": (8, 10), "strings": (12, 10)}


#: the call outcomes counted (:data:`TALLY`)
OUTCOME_KINDS = ("value", "ValueError", "TypeError", "CLI result", "CLI refusal")


def plan(n, counts=None):
    """``{(surface, "valid" | "bad"): number of cases}``: ``n`` valid and ``n`` bad
    inputs spread by :data:`WEIGHTS`; ``counts`` overrides single entries."""
    out = {}
    for col, kind in ((0, "valid"), (1, "bad")):
        total = sum(w[col] for w in WEIGHTS.values())
        for s, w in WEIGHTS.items():
            out[s, kind] = round(n * w[col] / total)
    out.update(counts or {})
    return out


def case_seeds(seed, surface, kind, number):
    """The first ``number`` case seeds of ``(surface, kind)``: a generator of their
    own (seeded by the campaign's seed, the surface and the kind), so that a chunk
    of a campaign draws the same cases as the whole campaign."""
    key = [int(seed), list(WEIGHTS).index(surface), kind == "valid"]
    return np.random.default_rng(key).integers(2**32, size=number, dtype=np.uint64).tolist()


def campaign(n, seed=2024, out=sys.stdout, *, counts=None, only=None, start=0, stop=None,
             save=None):
    """Run a campaign, or a chunk of one, in the sandbox; print its table.

    ``n`` valid and ``n`` bad inputs spread over every surface (:func:`plan`,
    ``counts`` overrides entries); ``only`` (a set of ``(surface, kind)``) and
    ``start``/``stop`` (case indices within each entry) select a chunk.  The
    counts per ``(surface, kind)``: cases, call outcomes
    (:data:`OUTCOME_KINDS`), failures (:data:`KINDS`), seconds; ``save`` writes
    them and the failures' seeds as JSON (:func:`merge` adds chunks up).
    Returns ``(counts, examples)``.
    """
    SANDBOX.stop()
    todo = {k: v for k, v in plan(n, counts).items() if only is None or k in only}
    counts = {}
    examples = []
    start_time = time.time()
    try:
        for (s, kind), number in todo.items():
            c = counts[f"{s}/{kind}"] = {"cases": 0, **{k: 0 for k in OUTCOME_KINDS},
                                         **{k: 0 for k in KINDS}, "seconds": 0.0}
            t0 = time.time()
            seeds = case_seeds(seed, s, kind, number)[start:stop]
            for i, case_seed in enumerate(seeds, start=start):
                result, detail = SANDBOX.run(s, case_seed, kind == "valid")
                c["cases"] += 1
                for k, v in SANDBOX.outcomes.items():
                    c[k] = c.get(k, 0) + v
                if result != "ok":
                    c[result] += 1
                    examples.append((s, kind, i, case_seed, result, detail))
            c["seconds"] = round(time.time() - t0, 1)
            print(f"  {s} {kind}: {c['cases']} cases, "
                  f"{sum(c[k] for k in KINDS)} failures ({time.time() - start_time:.0f} s)",
                  file=sys.stderr, flush=True)
    finally:
        SANDBOX.stop()
    if save is not None:
        Path(save).write_text(json.dumps(
            {"n": n, "seed": seed, "start": start, "stop": stop, "counts": counts, "failures": examples}, indent=1))
    table(counts, examples, out=out)
    return counts, examples


def merge(paths):
    """The counts of the chunks saved by :func:`campaign` (``save=``), added up."""
    counts, examples = {}, []
    for p in paths:
        data = json.loads(Path(p).read_text())
        examples += data["failures"]
        for key, c in data["counts"].items():
            into = counts.setdefault(key, {})
            for k, v in c.items():
                into[k] = into.get(k, 0) + v
    return counts, examples


def table(counts, examples=(), out=sys.stdout):
    """Print the counts (:func:`campaign`) as a Markdown table, then the failures."""
    head = ("surface", "inputs", "cases", *OUTCOME_KINDS, *KINDS, "seconds")
    total = {k: 0 for k in head[2:]}
    print("| " + " | ".join(head) + " |", file=out)
    print("|" + "---|" * len(head), file=out)
    order = {f"{s}/{k}": (i, k != "valid") for i, s in enumerate(WEIGHTS) for k in ("valid", "bad")}
    for key, c in sorted(counts.items(), key=lambda kc: order[kc[0]]):
        s, kind = key.split("/")
        for k in total:
            total[k] += c.get(k, 0)
        print(f"| {SURFACES[s][0]} | {kind} | " + " | ".join(
            f"{c.get(k, 0):,}" if k != "seconds" else f"{c.get(k, 0):,.0f}" for k in head[2:])
            + " |", file=out)
    print("| total | | " + " | ".join(
        f"{total[k]:,}" if k != "seconds" else f"{total[k]:,.0f}" for k in head[2:]) + " |",
        file=out)
    for s, kind, i, case_seed, result, detail in examples:
        print(f"  {s} {kind} #{i} seed {case_seed}: {result}: {detail[:400]}", file=out)


# ---------------------------------------------------------------------------
# item 3 and item 8 of issue 23: long runs say so first, user code is declared
# ---------------------------------------------------------------------------
def test_help_says_user_code_runs_with_your_rights(capsys):
    """``--claims`` and ``audit module:function`` import and run the user's Python:
    both ``--help`` texts say it runs with the user's rights (issue 23 item 8)."""
    from ordinal_verify import main

    for argv, option in ((["--help"], "--claims"), (["audit", "--help"], "module:function")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        assert exit_.value.code == 0
        assert option in text and "with your rights" in text, (argv, text[-400:])


def test_single_metric_audit_announces_a_long_search(monkeypatch, tmp_path):
    """``audit METRIC`` of one variant printed nothing until its verdicts however
    large the space (issue 23 item 3: no input runs longer than a stated bound
    without a line first).  At a rate of 10 matrices per second the 20 matrices of
    K <= 2, N <= 2 (1 + 4 + 1 + 10 + 4 random, by the count C(N + K^2 - 1, N))
    take 14 properties x 2 s: over the 30 s of ANNOUNCE_SECONDS, one line first."""
    from ordinal_verify import audit_cmd

    monkeypatch.setattr(audit_cmd, "MATRICES_PER_SECOND", 10)
    status, _, err = cli(["audit", "mae", "--max-k", "2", "--max-n", "2", "--random", "4",
                          "--no-proofs", "--jobs", "1"], must_fail=False, folder=tmp_path)
    assert status == 0 and err == "", err  # 28 s: under the bound, no line
    monkeypatch.setattr(audit_cmd, "MATRICES_PER_SECOND", 5)
    status, _, err = cli(["audit", "mae", "--max-k", "2", "--max-n", "2", "--random", "4",
                          "--no-proofs", "--jobs", "1"], must_fail=False, folder=tmp_path)
    assert status == 0 and err.startswith(
        "ordinal-verify: audit: 20 matrices, 14 properties, 1 variant: about 56 s"), err
