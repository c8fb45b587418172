"""The claims ledger: every claim of the five sources, its verdict and evidence.

A claim is registered once, next to the code that checks it, in a module of
:mod:`analytic.claims` (one module per source and topic).  The check *runs*
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
    (reproduces only under a stated convention, which the evidence names).
``evidence``
    The exact value beside the printed one, the counterexample, the corrected
    candidate of a transcription slip, the diagnosis.
``closed_form``
    A string :func:`sympy.sympify` parses, where a closed form was derived;
    otherwise ``None``.

``expect`` is the verdict recorded when the claim was last reviewed; the test
suite asserts that every run still returns it, so a verdict that changes
fails CI.

Claims of your own
------------------
Any key is accepted when ``source`` is a text (a seed key's tuple form
``(key, where)`` keeps the seed-file mapping).  Put the claims in a module
(or a folder of modules) and run ``ordinal-verify --claims my_claims.py``:

>>> import numeric
>>> from analytic.generators import exhaustive
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
import multiprocessing
import os
import pkgutil
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

__all__ = [
    "VERDICTS", "SEEDS", "Claim", "Outcome", "Entry", "claim", "register",
    "claims", "run", "default_jobs", "cell_outcome", "source", "load_claims", "mismatches",
]

VERDICTS = ("verified", "refuted", "not reproduced", "convention")

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
    """What a check found."""

    verdict: str
    evidence: str
    closed_form: str | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


@dataclass(frozen=True)
class Claim:
    id: str
    source: str
    statement: str
    method: str
    check: Callable[[], Outcome]
    expect: str


@dataclass(frozen=True)
class Entry:
    """One row of the ledger, with exactly the fields of the JSON output."""

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
    """``"<seed file>, <where>"`` for a source key of INDEX.md."""
    if key not in SEEDS:
        raise ValueError(f"unknown source key {key!r}; expected one of {sorted(SEEDS)}")
    return f"{SEEDS[key]} ({key}), {where}"


def register(id: str, *, source: str | tuple, statement: str, method: str,
             check: Callable[[], Outcome], expect: str, _into=None) -> Claim:
    """Add a claim to the registry (ids are unique; ``expect`` is a verdict).

    ``id`` is ``<key>:<item>``.  A seed key (:data:`SEEDS`) takes ``source``
    as ``(key, where)`` or text; any other key needs ``source`` as a
    non-empty text naming where the claim comes from.
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
    if expect not in VERDICTS:
        raise ValueError(f"expect must be one of {VERDICTS}, got {expect!r}")
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
    """Decorator form of :func:`register` for a check function."""

    def deco(fn):
        globals()["register"](id, source=source, statement=statement,
                              method=method, check=fn, expect=expect,
                              _into=None if register else {})
        return fn

    return deco


def _load_all():
    import analytic.claims as pkg

    for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not mod.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{mod.name}")


def claims(prefix: str | None = None) -> list[Claim]:
    """All registered claims (loading :mod:`analytic.claims`), in id order;
    claims of files loaded by :func:`load_claims` are not among them."""
    _load_all()
    user = {k for ids in _LOADED.values() for k in ids}
    out = [c for k, c in sorted(_REGISTRY.items())
           if k not in user and (prefix is None or k.startswith(prefix))]
    return out


def load_claims(path) -> list[Claim]:
    """Import a user's claims module (``.py`` file) or every ``*.py`` of a folder
    (sorted, names starting with ``_`` skipped); returns the claims they
    registered, in id order.

    Raises ``ValueError`` naming the path when it is missing, not Python,
    or registers no claim.
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
            before = set(_REGISTRY)
            name = f"ordinal_verify_user_claims_{len(_LOADED)}_{f.stem}"
            spec = importlib.util.spec_from_file_location(name, f)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            try:
                spec.loader.exec_module(mod)
            except Exception:
                del sys.modules[name]
                for k in set(_REGISTRY) - before:  # a half-imported module leaves nothing
                    del _REGISTRY[k]
                raise
            _LOADED[key] = sorted(set(_REGISTRY) - before)
        out += _LOADED[key]
    if not out:
        raise ValueError(f"{path}: registers no claim")
    return [_REGISTRY[k] for k in sorted(out)]


#: resolved path of a user's claims file -> the ids it registered
_LOADED: dict[str, list[str]] = {}


def mismatches(entries: Iterable[Entry], todo: Iterable[Claim]) -> list[str]:
    """``"<id>: verdict V, expected E"`` for each entry whose verdict is not its claim's ``expect``."""
    expect = {c.id: c.expect for c in todo}
    return [f"{e.id}: verdict {e.verdict}, expected {expect[e.id]}"
            for e in entries if e.id in expect and e.verdict != expect[e.id]]


def run(prefix: str | None = None, progress: Callable[[int, int, str], None] | None = None,
        *, only: Iterable[Claim] | None = None, jobs: int = 1) -> list[Entry]:
    """Run the checks (every registered claim, those whose id starts with
    ``prefix``, or the claims ``only``); returns one :class:`Entry` per claim,
    in the order of the claims.

    Parameters
    ----------
    jobs : int, default 1
        Worker processes.  With ``jobs > 1`` (on Linux, where the workers
        are forked, so that claims registered at run time reach them; elsewhere
        the claims run in this process, as with ``jobs=1``) the claims
        are run by source key -- the claims of one key share caches, e.g.
        the auditor's reports -- in ``jobs`` forked processes; the entries
        are the same as with ``jobs=1``.  ``progress`` is then called as each
        key finishes.
    """
    todo = claims(prefix) if only is None else [
        c for c in only if prefix is None or c.id.startswith(prefix)]
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    groups = _by_key(todo)
    if jobs > 1 and len(groups) > 1 and _can_fork():
        return _run_forked(todo, groups, progress, min(jobs, len(groups)))
    entries = []
    for i, c in enumerate(todo):
        if progress is not None:
            progress(i, len(todo), c.id)
        entries.append(_run_one(c))
    if progress is not None:
        progress(len(todo), len(todo), "")
    return entries


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one):
    the default ``jobs`` of the CLI."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    """Forked workers: Linux only (macOS's system libraries are not fork-safe)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _run_one(c: Claim) -> Entry:
    try:
        out = c.check()
    except Exception as exc:  # a failing check is a bug: name the claim
        raise RuntimeError(f"the check of claim {c.id!r} raised {exc!r}") from exc
    if not isinstance(out, Outcome):
        raise TypeError(f"the check of claim {c.id!r} returned {type(out).__name__}, not Outcome")
    return Entry(id=c.id, source=c.source, statement=c.statement, method=c.method,
                 verdict=out.verdict, evidence=out.evidence, closed_form=out.closed_form)


def _by_key(todo: list[Claim]) -> list[list[int]]:
    """Indices of ``todo`` grouped by source key (the id up to its first colon)."""
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(todo):
        groups.setdefault(c.id.split(":", 1)[0], []).append(i)
    return list(groups.values())


#: the claims of the run in progress, inherited by the forked workers
_FORKED: list[Claim] = []


def _run_group(indices: list[int]) -> list[tuple[int, Entry]]:
    return [(i, _run_one(_FORKED[i])) for i in indices]


def _run_forked(todo, groups, progress, jobs):
    _FORKED[:] = todo
    out: list[Entry | None] = [None] * len(todo)
    done = 0
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            # the largest groups first: the others fill in behind them
            for part in pool.imap_unordered(_run_group, sorted(groups, key=len, reverse=True)):
                for i, e in part:
                    out[i] = e
                done += len(part)
                if progress is not None:
                    progress(done, len(todo), part[-1][1].id if done < len(todo) else "")
    finally:
        _FORKED.clear()
    return out


def cell_outcome(exact, printed: str, *, convention: str | None = None,
                 diagnosis: str | None = None, digits_note: str = "") -> Outcome:
    """Compare an exact value with a printed table cell (rounded half-up).

    ``convention``: the stated convention under which the value was computed
    (the verdict is then ``convention`` if it reproduces).  ``diagnosis``:
    why it does not reproduce (required for a mismatch to be informative).
    """
    import sympy

    from numeric.rounding import matches_printed

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
             "| id | verdict | evidence |", "|---|---|---|"]
    esc = lambda s: str(s).replace("|", "\\|").replace("\n", " ")
    for e in entries:
        lines.append(f"| `{e.id}` | {e.verdict} | {esc(e.evidence)} |")
    lines += ["", "## Details", ""]
    for e in entries:
        lines += [f"### `{e.id}`", "", f"- **source**: {esc(e.source)}",
                  f"- **statement**: {esc(e.statement)}", f"- **method**: {esc(e.method)}",
                  f"- **verdict**: {e.verdict}", f"- **evidence**: {esc(e.evidence)}"]
        if e.closed_form is not None:
            lines.append(f"- **closed form**: `{e.closed_form}`")
        lines.append("")
    return "\n".join(lines)


def summary_line(entries: Iterable[Entry]) -> str:
    entries = list(entries)
    counts = {v: 0 for v in VERDICTS}
    for e in entries:
        counts[e.verdict] += 1
    parts = ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
    return f"{len(entries)} claims: {parts}"
