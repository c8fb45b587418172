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
    ``<key>:<item>`` with the keys of ``shared/seeds/INDEX.md``, e.g.
    ``silva2018:table1:B:oc1`` or ``binotto2024:prop6``.
``source``
    The seed file and the location (section, equation, table).
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
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

__all__ = [
    "VERDICTS", "SEEDS", "Claim", "Outcome", "Entry", "claim", "register",
    "claims", "run", "cell_outcome", "source",
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
    """Add a claim to the registry (ids are unique; ``expect`` is a verdict)."""
    key = id.split(":", 1)[0]
    if key not in SEEDS:
        raise ValueError(f"claim id {id!r} must start with a source key of INDEX.md")
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
    """All registered claims (loading :mod:`analytic.claims`), in id order."""
    _load_all()
    out = [c for k, c in sorted(_REGISTRY.items()) if prefix is None or k.startswith(prefix)]
    return out


def run(prefix: str | None = None, progress: Callable[[int, int, str], None] | None = None
        ) -> list[Entry]:
    """Run the checks; returns one :class:`Entry` per claim."""
    todo = claims(prefix)
    entries = []
    for i, c in enumerate(todo):
        if progress is not None:
            progress(i, len(todo), c.id)
        try:
            out = c.check()
        except Exception as exc:  # a failing check is a bug: name the claim
            raise RuntimeError(f"the check of claim {c.id!r} raised {exc!r}") from exc
        if not isinstance(out, Outcome):
            raise TypeError(f"the check of claim {c.id!r} returned {type(out).__name__}, not Outcome")
        entries.append(Entry(id=c.id, source=c.source, statement=c.statement,
                             method=c.method, verdict=out.verdict,
                             evidence=out.evidence, closed_form=out.closed_form))
    if progress is not None:
        progress(len(todo), len(todo), "")
    return entries


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
