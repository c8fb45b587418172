"""The claims ledger: every claim of the five sources, its verdict and evidence.

A claim is registered once, next to the code that checks it, in a module of
:mod:`analytic.ledger.checks` (one module per source and topic).  The check *runs*
the ``numeric`` and ``analytic`` code; it never restates a formula.

Registering a claim
-------------------
>>> from analytic.ledger import claim, Outcome
>>> @claim("silva2018:demo", source=("silva2018", "Table I, row A, MER"),
...        statement="MER of matrix A is 0.00",
...        method="exact computation (SymPy Rational), rounded half-up",
...        expect="verified", register=False)
... def _check():
...     return Outcome("verified", "exact 0 -> 0.00; printed 0.00")

Fields of every entry (the JSON schema of ``ordinal-verify --json``):

``id``
    ``<key>:<item>``, e.g. ``silva2018:table1:B:oc1`` or ``binotto2024:prop6``.
    The keys of ``shared/seeds/INDEX.md`` (:data:`SEEDS`) name the five
    sources; any other key (``audit``, ``mine``, ...) is a user key.
``source``
    The seed file and the location (section, equation, table), or, for a
    user key, a text naming the source (a paper, a script, the auditor).
``statement``
    The claim, in one line.
``method``
    Symbolic proof, exact computation, high-precision cross-check (with the
    precision), exhaustive or random counterexample search (with its size).
``verdict``
    ``verified``, ``refuted``, ``not reproduced`` or ``convention``
    (reproduces only under a stated convention, which the evidence names);
    ``error`` when the check did not return an :class:`Outcome` (it raised,
    called ``sys.exit``, returned something else, ran past the timeout or
    ended its worker process): the evidence then says what happened.
    ``error`` is the runner's verdict, never a check's or an ``expect``.
``evidence``
    The exact value beside the printed one, the counterexample, the corrected
    candidate of a transcription slip, the diagnosis.
``closed_form``
    A string :func:`sympy.sympify` parses, where a closed form was derived;
    otherwise ``None``.

``expect`` is the verdict recorded when the claim was last reviewed; the test
suite asserts that every run still returns it, so a verdict that changes
fails CI.

Running the claims
------------------
:func:`run` runs each check in a forked worker process on Linux (the claims
of one source key in the same worker, so that they share caches), one claim
at a time under a timeout (:data:`DEFAULT_TIMEOUT`, 600 s; the slowest claim
of the package takes about 25 s).  A check that raises (any exception,
``KeyboardInterrupt`` and ``SystemExit`` included), returns a malformed
outcome, runs past the timeout or ends its worker (``os._exit``, a signal)
gets the verdict ``error``; the other claims still run, in a new worker when
the old one is gone.  A verdict, an evidence and a closed form cross from the
worker to the ledger as exact :class:`str` in JSON (a ``str`` subclass may
compare equal to any verdict, or run code when unpickled: nothing a check
made is unpickled by the ledger), and a check that leaves ``sys.stdout`` or
``sys.stderr`` set to ``None`` gets the verdict ``error``.  A user's claims
module is imported in a forked worker first (:func:`load_claims`).

Where processes cannot be forked (not Linux) the checks run in the calling
process: an exception or ``sys.exit`` of a check is still an ``error`` entry,
but a ``KeyboardInterrupt`` stops the run (it cannot be told from the user's
Ctrl-C), the timeout is not enforced, and ``os._exit`` or a signal ends the
caller.

Claims of your own
------------------
Any key is accepted when ``source`` is a text (a seed key's tuple form
``(key, where)`` keeps the seed-file mapping).  Put the claims in a module
(or a folder of modules) and run ``ordinal-verify --claims my_claims.py``:

>>> import numeric
>>> from analytic.properties.generators import exhaustive
>>> @claim("mine:mae-le-mse", source="my notes, 2025", expect="verified",
...        statement="MAE <= MSE on every 3x3 matrix with 4 samples",
...        method="exhaustive, exact", register=False)
... def _mine():
...     bad = [m for m in exhaustive(3, 4)
...            if numeric.mae(m, arithmetic="exact") > numeric.mse(m, arithmetic="exact")]
...     return Outcome("refuted" if bad else "verified", f"{len(bad)} counterexamples")
>>> _mine()
Outcome(verdict='verified', evidence='0 counterexamples', closed_form=None)
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import multiprocessing.connection
import numbers
import os
import pkgutil
import signal
import sys
import time
import dataclasses
from collections import deque
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from numeric.markdown import escape, table as markdown_table

__all__ = [
    "VERDICTS", "CHECK_VERDICTS", "VERDICT_MEANINGS", "DEFAULT_TIMEOUT", "SEEDS", "Claim", "Outcome", "Entry",
    "claim", "register", "claims", "run", "default_jobs", "cell_outcome", "source",
    "load_claims", "mismatches",
]

#: the verdicts a check returns (and a claim expects)
CHECK_VERDICTS = ("verified", "refuted", "not reproduced", "convention")
#: every verdict of an entry: a check's, or the runner's ``error``
VERDICTS = CHECK_VERDICTS + ("error",)
#: what each verdict word means, in one line (the legend under ``ordinal-verify``'s table)
VERDICT_MEANINGS = {
    "verified": "the claim holds: reproduced exactly, proved, or no counterexample in the "
                "stated search (the method says which)",
    "refuted": "the claim is false: the evidence gives the counterexample or the exact value",
    "not reproduced": "the printed value is not obtained: the evidence gives the exact value "
                      "and a diagnosis (a slip, a missing detail)",
    "convention": "reproduces only under a stated convention, which the evidence names",
    "error": "the check did not finish (it raised or ran past the timeout): the evidence says why",
}

#: seconds a check may run (:func:`run`, ``ordinal-verify --timeout``): the
#: slowest claim of the package (``audit:empty-class``) takes about 25 s
DEFAULT_TIMEOUT = 600.0

#: key -> seed file of ``shared/seeds`` (INDEX.md)
SEEDS = {
    "silva2018": "000_8630f6580e0e84f9.txt",
    "cardoso2011": "001_bb94c57be16931ab.txt",
    "binotto2024": "002_1ad9def3cd093580.txt",
    "macroblog": "003_a75846058968dfdc.txt",
    "george2016": "004_c1e927841b3b5ccf.txt",
}


@dataclass(frozen=True)
class Outcome:
    """What a check found.

    Anything but the types below raises, naming the field and the type it got.

    Parameters
    ----------
    verdict : str
        One of :data:`CHECK_VERDICTS`.
    evidence : str
        What the verdict rests on: the exact value beside the printed one, the
        counterexample, the diagnosis.
    closed_form : str or None, default None
        A closed form that :func:`sympy.sympify` parses, where one was derived.

    Examples
    --------
    >>> Outcome("verified", "exact 5/8 = 0.625; printed 0.63").verdict
    'verified'
    >>> Outcome("verified", 3)
    Traceback (most recent call last):
    ...
    TypeError: Outcome evidence must be a str, got int (3)
    """

    verdict: str
    evidence: str
    closed_form: str | None = None

    def __post_init__(self):
        _check_fields(self.verdict, self.evidence, self.closed_form)


def _check_fields(verdict, evidence, closed_form) -> None:
    if not isinstance(verdict, str) or verdict not in CHECK_VERDICTS:
        raise ValueError(f"verdict must be one of {CHECK_VERDICTS}, got {verdict!r}")
    if not isinstance(evidence, str):
        raise TypeError(f"Outcome evidence must be a str, got {type(evidence).__name__} "
                        f"({_short(evidence)})")
    if closed_form is not None and not isinstance(closed_form, str):
        raise TypeError(f"Outcome closed_form must be a str or None, got "
                        f"{type(closed_form).__name__} ({_short(closed_form)})")


def _short(value, limit: int = 200) -> str:
    """``repr(value)`` on one line, at most ``limit`` characters (a failing repr: the type)."""
    try:
        text = repr(value)
    except Exception:  # a repr that raises still names the type
        text = f"<{type(value).__name__}>"
    text = text.replace("\r", " ").replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass(frozen=True)
class Claim:
    """A registered claim: what a paper states, where, how it is checked, and its check.

    Made by :func:`register` (or the :func:`claim` decorator), which checks the fields.

    Parameters
    ----------
    id : str
        ``<key>:<item>``, e.g. ``silva2018:table1:B:oc1`` (the module's "Fields").
    source : str
        The seed file and the location, or a user key's source text.
    statement : str
        The claim, in one line.
    method : str
        How it is checked (proof, exact computation, search and its size).
    check : callable
        Called without arguments; returns an :class:`Outcome`.
    expect : str
        The reviewed verdict, one of :data:`CHECK_VERDICTS`.

    Examples
    --------
    >>> c = Claim(id="mine:two", source="a demo", statement="1 + 1 = 2", method="exact",
    ...           check=lambda: Outcome("verified", "1 + 1 = 2"), expect="verified")
    >>> c.check().verdict == c.expect
    True
    """

    id: str
    source: str
    statement: str
    method: str
    check: Callable[[], Outcome]
    expect: str


@dataclass(frozen=True)
class Entry:
    """One row of the ledger, with exactly the fields of the JSON output.

    :func:`run` makes one per claim; the fields are the module's "Fields".

    Parameters
    ----------
    id, source, statement, method : str
        The claim's (:class:`Claim`).
    verdict : str
        One of :data:`VERDICTS`: the check's, or ``error``.
    evidence : str
        The check's evidence, or what went wrong.
    closed_form : str or None
        The check's closed form.

    Examples
    --------
    >>> c = Claim(id="mine:two", source="a demo", statement="1 + 1 = 2", method="exact",
    ...           check=lambda: Outcome("verified", "1 + 1 = 2"), expect="verified")
    >>> e, = run(only=[c])
    >>> e.to_dict()["verdict"], e.closed_form
    ('verified', None)
    """

    id: str
    source: str
    statement: str
    method: str
    verdict: str
    evidence: str
    closed_form: str | None

    def to_dict(self):
        return asdict(self)


_REGISTRY: dict[str, Claim] = {}


def source(key: str, where: str) -> str:
    """The source text of a claim of one of the five sources.

    Parameters
    ----------
    key : str
        A source key of INDEX.md (:data:`SEEDS`).
    where : str
        The location in the source: a section, an equation, a table.

    Returns
    -------
    str
        ``"<seed file> (<key>), <where>"``.

    Raises
    ------
    ValueError
        If ``key`` is not a source key.

    Examples
    --------
    >>> source("silva2018", "eq. 28")
    '000_8630f6580e0e84f9.txt (silva2018), eq. 28'
    """
    if key not in SEEDS:
        raise ValueError(f"unknown source key {key!r}; expected one of {sorted(SEEDS)}")
    return f"{SEEDS[key]} ({key}), {where}"


def register(id: str, *, source: str | tuple, statement: str, method: str,
             check: Callable[[], Outcome], expect: str, _into=None) -> Claim:
    """Add a claim to the registry (ids are unique; ``expect`` is a verdict).

    Parameters
    ----------
    id : str
        ``<key>:<item>``; unique in the registry.
    source : str or tuple
        A seed key (:data:`SEEDS`) takes ``(key, where)`` (see :func:`source`)
        or text; any other key needs a non-empty text naming where the claim
        comes from.
    statement : str
        The claim, in one line.
    method : str
        How it is checked.
    check : callable
        Called without arguments; returns an :class:`Outcome`.
    expect : str
        The reviewed verdict, one of :data:`CHECK_VERDICTS`.
    _into : dict, optional
        Another registry to add to (used by ``claim(..., register=False)``); leave unset.

    Returns
    -------
    Claim
        The registered claim.

    Raises
    ------
    ValueError
        A malformed or repeated id, a missing source, an unknown verdict.

    Examples
    --------
    >>> c = register("mine:doc-register", source="a demo", statement="1 + 1 = 2", method="exact",
    ...              check=lambda: Outcome("verified", "1 + 1 = 2"), expect="verified", _into={})
    >>> c.id, c.source
    ('mine:doc-register', 'a demo')
    """
    key, sep, item = id.partition(":")
    if not (key and sep and item):
        raise ValueError(f"claim id {id!r} must be <key>:<item>")
    if key not in SEEDS:
        if isinstance(source, tuple):
            raise ValueError(f"claim id {id!r} must start with a source key of INDEX.md "
                             f"to take a (key, where) source; give a user key's source as text")
        if not (isinstance(source, str) and source.strip()):
            raise ValueError(f"claim {id!r}: a user key needs a source text")
    if expect not in CHECK_VERDICTS:
        raise ValueError(f"expect must be one of {CHECK_VERDICTS}, got {expect!r}")
    if isinstance(source, tuple):
        source = globals()["source"](*source)
    c = Claim(id=id, source=source, statement=statement, method=method,
              check=check, expect=expect)
    reg = _REGISTRY if _into is None else _into
    if id in reg:
        raise ValueError(f"claim id {id!r} is registered twice")
    reg[id] = c
    return c


def claim(id: str, *, source, statement: str, method: str, expect: str,
          register: bool = True):
    """Decorator form of :func:`register` for a check function.

    Parameters
    ----------
    id : str
        ``<key>:<item>``; unique in the registry.
    source : str or tuple
        As for :func:`register`.
    statement : str
        The claim, in one line.
    method : str
        How it is checked.
    expect : str
        The reviewed verdict, one of :data:`CHECK_VERDICTS`.
    register : bool, default True
        Add the claim to the registry; ``False`` only checks its fields.

    Returns
    -------
    callable
        The decorator, which registers the function it decorates as the
        claim's check and returns that function unchanged.

    Examples
    --------
    >>> @claim("mine:doc-claim", source="a demo", statement="1 + 1 = 2", method="exact",
    ...        expect="verified", register=False)
    ... def check_two():
    ...     return Outcome("verified", "1 + 1 = 2")
    >>> check_two().verdict
    'verified'
    """

    def deco(fn):
        globals()["register"](id, source=source, statement=statement,
                              method=method, check=fn, expect=expect,
                              _into=None if register else {})
        return fn

    return deco


def _load_all():
    import analytic.ledger.checks as pkg

    for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not mod.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{mod.name}")


def claims(prefix: str | None = None) -> list[Claim]:
    """All registered claims (loading :mod:`analytic.ledger.checks`), in id order.

    Claims of files loaded by :func:`load_claims` are not among them.

    Parameters
    ----------
    prefix : str, optional
        Only the claims whose id starts with it.

    Returns
    -------
    list of Claim
        In id order.

    Examples
    --------
    >>> [c.id for c in claims("binotto2024:prop1")]
    ['binotto2024:prop1:exhaustive']
    """
    _load_all()
    user = {k for ids in _LOADED.values() for k in ids}
    out = [c for k, c in sorted(_REGISTRY.items())
           if k not in user and (prefix is None or k.startswith(prefix))]
    return out


def load_claims(path) -> list[Claim]:
    """Import a user's claims module (``.py`` file) or every ``*.py`` of a folder
    (sorted, names starting with ``_`` skipped); returns the claims they
    registered, in id order.

    On Linux each file is imported first in a forked worker process, then here: a module that ends the process at
    import (``os._exit(0)``, a signal) raises ``ValueError`` instead of ending
    the caller with exit status 0 and no table (a module's import code runs
    twice).  A module that replaces ``sys.stdout`` or ``sys.stderr`` with
    ``None`` at import has the stream put back and each of its claims gets the
    verdict ``error`` naming it.

    Parameters
    ----------
    path : str or os.PathLike
        A ``.py`` file or a folder of them.

    Returns
    -------
    list of Claim
        The claims the files registered, in id order.

    Raises
    ------
    ValueError
        Naming the path when it is missing, not Python, registers no claim,
        or ends the process at import.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:   # a claim id of its own at each run
    ...     cid = f"mine:{pathlib.Path(d).name}"
    ...     _ = pathlib.Path(d, "mine.py").write_text(
    ...         "from analytic.ledger import Outcome, claim\\n"
    ...         f"@claim({cid!r}, source='a demo', statement='s', method='m', expect='verified')\\n"
    ...         "def check():\\n"
    ...         "    return Outcome('verified', 'e')\\n")
    ...     [c.id for c in load_claims(d)] == [cid]
    True
    """
    import importlib.util
    import sys
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.glob("*.py") if not f.name.startswith("_"))
    elif p.is_file() and p.suffix == ".py":
        files = [p]
    else:
        raise ValueError(f"{path}: not a .py file or a folder of them")
    out = []
    for f in files:
        key = str(f.resolve())
        if key not in _LOADED:  # a file is imported once; its claims are remembered
            if _can_fork():
                _probe_import(f)  # in a forked worker first: an os._exit there ends only it
            before = set(_REGISTRY)
            name = f"ordinal_verify_user_claims_{len(_LOADED)}_{f.stem}"
            spec = importlib.util.spec_from_file_location(name, f)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            try:
                spec.loader.exec_module(mod)
            except BaseException:  # sys.exit and Ctrl-C at import too
                _streams_broken()
                del sys.modules[name]
                for k in set(_REGISTRY) - before:  # a half-imported module leaves nothing
                    del _REGISTRY[k]
                raise
            new = sorted(set(_REGISTRY) - before)
            broken = _streams_broken()
            if broken:  # its claims are error entries, and the ledger still prints its table
                reason = (f"importing its claims module {f.name} replaced {broken} with "
                          "something that cannot be written to (None)")
                for k in new:
                    _REGISTRY[k] = dataclasses.replace(_REGISTRY[k], check=_Broken(reason))
            _LOADED[key] = new
        out += _LOADED[key]
    if not out:
        raise ValueError(f"{path}: registers no claim")
    return [_REGISTRY[k] for k in sorted(out)]


#: resolved path of a user's claims file -> the ids it registered
_LOADED: dict[str, list[str]] = {}


class _Broken:
    """The check of a claim whose module broke the process at import: raises ``reason``."""

    def __init__(self, reason: str):
        self.reason = reason

    def __call__(self):
        raise RuntimeError(self.reason)


def _probe_child(conn, path: str) -> None:
    """In a forked worker: import the claims file ``path`` and send how it went, as JSON."""
    import importlib.util

    try:
        spec = importlib.util.spec_from_file_location("ordinal_verify_claims_probe", path)
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
        report = ["ok", ""]
    except BaseException as exc:  # what the parent's own import will raise, and say
        report = [type(exc).__name__, _short(exc)]
    try:
        conn.send_bytes(json.dumps(report).encode("utf-8"))
    finally:
        os._exit(0)


def _probe_import(f) -> None:
    """Import the claims file ``f`` in a forked worker before this process does: a
    module that ends the process at import (``os._exit(0)``, a signal) ends only the
    worker, and is a ``ValueError`` here instead of a run that exits 0 without its table.

    An exception at import is left to this process's own import, which raises it
    (the command line names it)."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    for stream in (sys.stdout, sys.stderr):  # not printed twice by the child
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    proc = ctx.Process(target=_probe_child, args=(child, str(f)), name="ordinal-verify claims import")
    proc.start()
    child.close()
    try:
        report = json.loads(parent.recv_bytes().decode("utf-8"))
    except (EOFError, OSError, ValueError):
        report = None
    finally:
        proc.join()
        parent.close()
    if report is None:
        code = proc.exitcode
        how = (f"was killed by signal {signal.Signals(-code).name}" if code is not None and code < 0
               else f"ended the process (exit status {code}, e.g. by os._exit)")
        raise ValueError(f"{f}: importing the claims {how} before it finished; no claim was run")


def mismatches(entries: Iterable[Entry], todo: Iterable[Claim]) -> list[str]:
    """The entries whose verdict is not their claim's ``expect``, one line each.

    Parameters
    ----------
    entries : iterable of Entry
        The ledger's rows (:func:`run`).
    todo : iterable of Claim
        The claims that were run.

    Returns
    -------
    list of str
        ``"<id>: verdict V, expected E"``, in the order of ``entries``.

    Examples
    --------
    >>> c = Claim(id="mine:two", source="a demo", statement="1 + 1 = 3", method="exact",
    ...           check=lambda: Outcome("refuted", "1 + 1 = 2"), expect="verified")
    >>> mismatches(run(only=[c]), [c])
    ['mine:two: verdict refuted, expected verified']
    """
    expect = {c.id: c.expect for c in todo}
    return [f"{e.id}: verdict {e.verdict}, expected {expect[e.id]}"
            for e in entries if e.id in expect and e.verdict != expect[e.id]]


def run(prefix: str | None = None, progress: Callable[[int, int, str], None] | None = None,
        *, only: Iterable[Claim] | None = None, jobs: int = 1,
        timeout: float = DEFAULT_TIMEOUT) -> list[Entry]:
    """Run the checks (every registered claim, those whose id starts with
    ``prefix``, or the claims ``only``); returns one :class:`Entry` per claim,
    in the order of the claims.

    A check that does not return an :class:`Outcome` -- it raises (any
    exception, ``KeyboardInterrupt`` and ``SystemExit`` included), returns
    something else, runs longer than ``timeout`` or ends its worker process
    (``os._exit``, a signal) -- gets an entry with the verdict ``error`` and
    the reason as evidence; the other claims still run.

    Parameters
    ----------
    prefix : str, optional
        Only the claims whose id starts with it.
    progress : callable, optional
        Called as ``progress(done, total, claim_id)`` when a claim starts
        (``done`` claims have finished) and ``progress(total, total, "")``
        at the end.
    only : iterable of Claim, optional
        Run these claims (e.g. from :func:`load_claims`) instead of the registry's.
    jobs : int, default 1
        Worker processes.  On Linux each check runs in a forked worker (so
        that claims registered at run time reach it), the claims of one
        source key in the same worker -- they share caches, e.g. the
        auditor's reports -- and ``jobs`` workers at a time; the entries do
        not depend on ``jobs``.  Elsewhere the checks run in this process,
        one after the other: see the module's "Running the claims".
    timeout : float, default :data:`DEFAULT_TIMEOUT` (600 s)
        Seconds each check may run; a check still running then has its
        worker killed and the verdict ``error``.  Not enforced where the
        checks run in this process.

    Returns
    -------
    list of Entry
        One per claim, in the order of the claims.

    Examples
    --------
    >>> def stops():
    ...     raise SystemExit(3)
    >>> c = Claim(id="mine:exit", source="a demo", statement="s", method="m",
    ...           check=stops, expect="verified")
    >>> e, = run(only=[c])
    >>> e.verdict, e.evidence
    ('error', 'the check called sys.exit(3)')
    """
    todo = claims(prefix) if only is None else [
        c for c in only if prefix is None or c.id.startswith(prefix)]
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral):
        raise TypeError(f"jobs must be an int, got {type(jobs).__name__}")
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if (isinstance(timeout, bool) or not isinstance(timeout, numbers.Real)
            or not 0 < timeout < math.inf):
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if not todo:
        if progress is not None:
            progress(0, 0, "")
        return []
    if _can_fork():
        groups = _by_key(todo)
        if jobs > 1:  # the largest groups first: the others fill in behind them
            groups.sort(key=len, reverse=True)
        return _run_isolated(todo, groups, progress, min(jobs, len(groups)), float(timeout))
    entries = []
    for i, c in enumerate(todo):
        if progress is not None:
            progress(i, len(todo), c.id)
        # a KeyboardInterrupt propagates: here it may be the user's Ctrl-C
        entries.append(_entry(c, _outcome(c, contain=Exception)))
    if progress is not None:
        progress(len(todo), len(todo), "")
    return entries


def default_jobs() -> int:
    """The CPUs this process may run on: the default ``jobs`` of the command line.

    Read from :func:`analytic.properties.pool.default_jobs`, the property engine's.

    Returns
    -------
    int
        The CPUs of this process's affinity mask where the OS has one, else of the machine.

    Examples
    --------
    >>> default_jobs() >= 1
    True
    """
    from analytic.properties.pool import default_jobs as cpus

    return cpus()


def _can_fork() -> bool:
    """Forked workers: Linux only (macOS's system libraries are not fork-safe)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _plain(text: str) -> str:
    """``text`` as an exact :class:`str` (a copy of a subclass's characters): a subclass
    may compare equal to anything, or run code when it is unpickled."""
    return str.__str__(text)


def _streams_broken() -> str | None:
    """The name of ``sys.stdout`` or ``sys.stderr`` when a check or a claims module
    replaced it with something that cannot be written to (``None``); it is put back.
    A process started without the stream (``sys.__stdout__`` is ``None``) is not flagged."""
    for name in ("stdout", "stderr"):
        stream, original = getattr(sys, name), getattr(sys, f"__{name}__")
        if original is not None and (stream is None or not callable(getattr(stream, "write", None))):
            setattr(sys, name, original)
            return f"sys.{name}"
    return None


def _outcome(c: Claim, contain=BaseException) -> tuple:
    """``(verdict, evidence, closed_form)`` of a check, as exact :class:`str` (they
    cross a process boundary); ``("error", reason, None)`` when the check raises
    (``contain`` and ``SystemExit``), returns no valid Outcome, or leaves
    ``sys.stdout`` or ``sys.stderr`` broken (set to ``None``)."""
    try:
        out = c.check()
        broken = _streams_broken()
        if broken:
            return _error(f"the check replaced {broken} with something that cannot be "
                          "written to (None)")
        if not isinstance(out, Outcome):
            return _error(f"the check returned {type(out).__name__}, not Outcome")
        # again: an Outcome changed after construction, or a subclass, is checked too,
        # and its fields are checked as exact str (a str subclass may equal anything)
        _check_fields(out.verdict, out.evidence, out.closed_form)
        for field in (out.verdict, out.evidence, out.closed_form):
            str(field)  # a subclass whose str() raises is an error, as it always was
        verdict, evidence = _plain(out.verdict), _plain(out.evidence)
        closed_form = None if out.closed_form is None else _plain(out.closed_form)
        _check_fields(verdict, evidence, closed_form)
        return verdict, evidence, closed_form
    except SystemExit as exc:
        _streams_broken()
        return _error(f"the check called sys.exit({_short(exc.code)})")
    except contain as exc:
        _streams_broken()
        return _error(f"the check raised {_short(exc, 400)}")


def _error(reason: str) -> tuple:
    return "error", reason, None


def _entry(c: Claim, out: tuple) -> Entry:
    verdict, evidence, closed_form = out
    return Entry(id=c.id, source=c.source, statement=c.statement, method=c.method,
                 verdict=verdict, evidence=evidence, closed_form=closed_form)


def _by_key(todo: list[Claim]) -> list[list[int]]:
    """Indices of ``todo`` grouped by source key (the id up to its first colon)."""
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(todo):
        groups.setdefault(c.id.split(":", 1)[0], []).append(i)
    return list(groups.values())


#: the claims of the run in progress, inherited by the forked workers
_FORKED: list[Claim] = []


def _worker_main(conn, parent_end, parent_pid: int) -> None:
    """A forked worker: run the claims of each task (a list of indices of
    :data:`_FORKED`) received on ``conn``, sending ``(index, outcome)`` as each
    finishes; ``None`` or a closed pipe ends it."""
    parent_end.close()
    todo = list(_FORKED)  # a check that runs a ledger of its own does not change the task
    # the user's Ctrl-C (SIGINT to the foreground process group) ends a worker
    # at once, even in C code; the parent stops the run.  A KeyboardInterrupt
    # *raised* by a check is an exception like any other.
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:  # die with the parent, even when it is killed (Linux PR_SET_PDEATHSIG = 1)
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except Exception:  # pragma: no cover - best effort; the parent kills its workers
        pass
    if os.getppid() != parent_pid:  # the parent died before prctl
        os._exit(1)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        for i in task:
            out = _outcome(todo[i])
            try:  # JSON of exact str: the parent unpickles nothing a check made
                conn.send_bytes(json.dumps([i, *out]).encode("utf-8"))
            except (EOFError, OSError):  # the parent is gone
                return
            except Exception as exc:  # pragma: no cover - the fields are exact str
                reason = f"the outcome could not be sent to the ledger: {_short(exc)}"
                conn.send_bytes(json.dumps([i, *_error(reason)]).encode("utf-8"))


def _decode(message: bytes) -> tuple:
    """``(index, (verdict, evidence, closed_form))`` from a worker's JSON message; a
    message of another shape raises ``ValueError`` (the worker is then treated as gone)."""
    data = json.loads(message.decode("utf-8"))
    if not (isinstance(data, list) and len(data) == 4 and type(data[0]) is int):
        raise ValueError("not an outcome")
    verdict, evidence, closed_form = data[1:]
    if verdict == "error":
        if not isinstance(evidence, str) or closed_form is not None:
            raise ValueError("not an outcome")
    else:
        _check_fields(verdict, evidence, closed_form)
    return data[0], (verdict, evidence, closed_form)


class _Worker:
    """A forked worker process, its pipe, and the claims of its task not yet finished."""

    def __init__(self, ctx, number: int):
        self.conn, self._child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(self._child, self.conn, os.getpid()),
                                name=f"ordinal-verify ledger worker {number}")
        self.pending: deque[int] = deque()
        self.started = 0.0  # time.monotonic() when pending[0] started
        self.running = False

    def start(self) -> None:
        for stream in (sys.stdout, sys.stderr):  # not printed twice by the child's exit
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self.proc.start()
        self.running = True
        self._child.close()  # the parent sees EOF when the worker dies

    def give(self, task: list[int]) -> bool:
        """Send a task; False if the worker is gone."""
        if not self.proc.is_alive():
            return False
        try:
            self.conn.send(task)
        except (EOFError, OSError):
            return False
        self.pending.extend(task)
        self.started = time.monotonic()
        return True

    def receive(self) -> tuple[list, bool]:
        """The outcomes sent so far, and whether the worker is gone (dead, or its pipe broken)."""
        alive = self.proc.is_alive()  # before reading: a dead worker's outcomes are all in the pipe
        got = []
        try:
            while self.conn.poll():
                got.append(_decode(self.conn.recv_bytes()))
        except Exception:  # EOF, a message cut short by the worker's death, or not an outcome
            return got, True
        return got, not alive

    def gone_reason(self) -> str:
        self.proc.join(2)  # a worker whose pipe closed as it exited: its exit status
        code = self.proc.exitcode
        if code is None:
            return "the check broke its worker's pipe to the ledger (the worker was killed)"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"the worker process running the check was killed by signal {name}"
        return (f"the check ended its worker process (exit status {code}) without an outcome, "
                f"e.g. by os._exit")

    def stop(self, graceful: bool) -> None:
        if not self.running:  # never started
            self.conn.close()
            self._child.close()
            return
        if graceful and self.proc.is_alive():
            try:
                self.conn.send(None)
            except (EOFError, OSError):
                pass
            self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()
        self.proc.close()
        self.running = False


def _run_isolated(todo, groups, progress, jobs, timeout):
    """Run the groups of claims (lists of indices of ``todo``) in at most ``jobs``
    forked workers; see :func:`run`."""
    ctx = multiprocessing.get_context("fork")
    n = len(todo)
    out: list[Entry | None] = [None] * n
    queue = deque(groups)
    workers: list[_Worker] = []
    done = 0
    started = 0
    _FORKED[:] = todo
    graceful = False

    def fail(i, reason):
        nonlocal done
        out[i] = _entry(todo[i], _error(reason))
        done += 1

    def report(w):
        if progress is not None:
            progress(done, n, todo[w.pending[0]].id)

    try:
        while done < n:
            # a task for every idle worker, and new workers up to ``jobs``
            for w in [w for w in workers if not w.pending]:
                if queue and not w.give(queue[0]):
                    workers.remove(w)
                    w.stop(False)
                elif queue:
                    queue.popleft()
                    report(w)
            while queue and len(workers) < jobs:
                started += 1
                w = _Worker(ctx, started)
                workers.append(w)  # before it starts: stopped by the finally below
                w.start()
                if not w.give(queue[0]):
                    raise RuntimeError(f"the ledger's worker process {w.proc.pid} died at start "
                                       f"(exit status {w.proc.exitcode})")
                queue.popleft()
                report(w)
            busy = [w for w in workers if w.pending]
            if not busy:  # pragma: no cover - a worker that died at once is retried above
                continue
            deadline = min(w.started for w in busy) + timeout
            multiprocessing.connection.wait(
                [w.conn for w in busy] + [w.proc.sentinel for w in busy],
                timeout=min(max(deadline - time.monotonic(), 0.0), 60.0))
            for w in busy:
                got, gone = w.receive()
                for i, o in got:
                    assert i == w.pending[0], (i, w.pending[0])
                    w.pending.popleft()
                    out[i] = _entry(todo[i], o)
                    done += 1
                    w.started = time.monotonic()
                    if w.pending:
                        report(w)
                if not w.pending and not gone:
                    continue
                if w.pending and not gone and time.monotonic() - w.started <= timeout:
                    continue
                if w.pending:
                    i = w.pending.popleft()
                    reason = (w.gone_reason() if gone else
                              f"the check ran longer than the timeout of {timeout:g} s "
                              f"(its worker process was killed)")
                    w.stop(False)
                    fail(i, reason)
                    if w.pending:  # the rest of the task runs next, in a new worker
                        queue.appendleft(list(w.pending))
                else:
                    w.stop(False)
                workers.remove(w)
        graceful = True
    finally:
        for w in workers:
            w.stop(graceful)
        _FORKED.clear()
    if progress is not None:
        progress(n, n, "")
    return out


def cell_outcome(exact, printed: str, *, convention: str | None = None,
                 diagnosis: str | None = None, digits_note: str = "") -> Outcome:
    """Compare an exact value with a printed table cell (rounded half-up).

    Parameters
    ----------
    exact : number
        A SymPy number, or any number a check computes (an int of Python,
        NumPy or gmpy2, a :class:`fractions.Fraction`, gmpy2's ``mpq``, a
        float or mpmath's ``mpf`` -- the exact binary fraction it is, as the
        property auditor reads it), converted once by
        :func:`analytic.properties.exact.value_of`.
    printed : str
        The cell as the paper prints it.
    convention : str, optional
        The stated convention under which the value was computed (the
        verdict is then ``convention`` if it reproduces).
    diagnosis : str, optional
        Why it does not reproduce (required for a mismatch to be informative).
    digits_note : str, default ""
        Appended to the evidence of a verified cell.

    Returns
    -------
    Outcome
        ``verified``, ``convention`` or ``not reproduced``, the exact and the
        printed value as evidence.

    Examples
    --------
    >>> from fractions import Fraction
    >>> cell_outcome(Fraction(5, 8), "0.63").verdict
    'verified'
    """
    import sympy

    from numeric.rounding import matches_printed

    if not isinstance(exact, sympy.Basic):  # one conversion of every other kind of number
        from analytic.properties.exact import expr, value_of

        exact = expr(value_of(exact))

    ok = matches_printed(exact, printed)
    approx = sympy.N(exact, 6)
    text = f"exact {sympy.sstr(exact)} = {approx}; printed {printed}"
    if ok and convention:
        return Outcome("convention", f"{text}; reproduces under: {convention}")
    if ok:
        return Outcome("verified", text + digits_note)
    return Outcome("not reproduced", f"{text}; {diagnosis or 'no diagnosis recorded'}")


def to_markdown(entries: Iterable[Entry]) -> str:
    """The ledger as a Markdown report (deterministic: no timings)."""
    entries = list(entries)
    lines = ["# Claims ledger", "",
             "Generated by `ordinal-verify --markdown docs/ledger.md`; "
             "a test fails when this file is stale.", "",
             summary_line(entries), "",
             markdown_table(["id", "verdict", "evidence"],
                            [[f"`{e.id}`", e.verdict, escape(e.evidence)] for e in entries]),
             "", "## Details", ""]
    for e in entries:
        lines += [f"### `{e.id}`", "", f"- **source**: {escape(e.source)}",
                  f"- **statement**: {escape(e.statement)}", f"- **method**: {escape(e.method)}",
                  f"- **verdict**: {e.verdict}", f"- **evidence**: {escape(e.evidence)}"]
        if e.closed_form is not None:
            lines.append(f"- **closed form**: `{e.closed_form}`")
        lines.append("")
    return "\n".join(lines)


def summary_line(entries: Iterable[Entry]) -> str:
    """``"<n> claims: <k> verified, ..."``; the count of ``error`` entries only when there are some.

    >>> summary_line([Entry("a:b", "s", "s", "m", "error", "the check raised X()", None)])
    '1 claims: 0 verified, 0 refuted, 0 not reproduced, 0 convention, 1 error'
    """
    entries = list(entries)
    counts = {v: 0 for v in VERDICTS}
    for e in entries:
        counts[e.verdict] += 1
    shown = [v for v in VERDICTS if v in CHECK_VERDICTS or counts[v]]
    parts = ", ".join(f"{counts[v]} {v}" for v in shown)
    return f"{len(entries)} claims: {parts}"
