"""Timing of a comparison, the result rows and the run configuration.

The workloads (:mod:`benchmarks.workloads`) and the command line
(:mod:`benchmarks.runner`) both import this module; it imports neither.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Timing", "Row", "Config", "compare", "time_one", "fmt_seconds"]


# ---------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Timing:
    """Median wall time of ``runs`` timed calls (seconds)."""

    median: float
    runs: int
    times: tuple = ()

    def __str__(self):
        return f"{fmt_seconds(self.median)} (n={self.runs})"


def fmt_seconds(t: float | None) -> str:
    if t is None:
        return "—"
    if t < 1e-3:
        return f"{t * 1e6:.0f} µs"
    if t < 1:
        return f"{t * 1e3:.3g} ms"
    return f"{t:.3g} s"


class _Side:
    """One side of a comparison: a function, its repeats, and a time budget."""

    def __init__(self, fn, repeats, budget):
        self.fn, self.repeats, self.budget = fn, repeats, budget
        self.times: list[float] = []
        self.spent = 0.0
        self.warm = False
        self.result: Any = None

    @property
    def done(self):
        if len(self.times) >= self.repeats:
            return True
        return bool(self.times) and self.spent >= self.budget

    def step(self):
        # as timeit: the cyclic garbage collector is off during a timed call
        enabled = gc.isenabled()
        gc.disable()
        try:
            t0 = time.perf_counter()
            self.result = self.fn()
            dt = time.perf_counter() - t0
        finally:
            if enabled:
                gc.enable()
        self.spent += dt
        if not self.warm:
            self.warm = True
            if dt < 1.0:  # a cheap first call is a warm-up (imports, caches)
                return
        self.times.append(dt)

    def timing(self) -> Timing:
        return Timing(statistics.median(self.times), len(self.times), tuple(self.times))


def compare(ours: Callable, peer: Callable, *, repeats=7, peer_repeats=None, budget=30.0):
    """Time ``ours`` and ``peer`` alternately in this process.

    Each side runs ``repeats`` timed calls (``peer_repeats`` for the peer), or
    fewer once it has spent ``budget`` seconds (at least one).  A first call
    under a second is an untimed warm-up.  Returns ``(Timing, result)`` for
    each side: ``((t_ours, r_ours), (t_peer, r_peer))``.
    """
    a = _Side(ours, repeats, budget)
    b = _Side(peer, peer_repeats or repeats, budget)
    gc.collect()
    while not (a.done and b.done):
        if not a.done:
            a.step()
        if not b.done:
            b.step()
    return (a.timing(), a.result), (b.timing(), b.result)


def time_one(fn: Callable, *, repeats=7, budget=30.0):
    """Time one function alone (for rows without a peer): ``(Timing, result)``."""
    s = _Side(fn, repeats, budget)
    gc.collect()
    while not s.done:
        s.step()
    return s.timing(), s.result


# ---------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------
@dataclass
class Row:
    """One line of the table.

    ``speedup`` is peer time / our time.  ``target_met`` is ``None`` where the
    workload has no numeric target or the target is not evaluated (quick
    sizes); ``agree`` is ``None`` where there is nothing to compare.
    """

    workload: str
    case: str
    ours: Timing | None
    peer_name: str
    peer: Timing | None
    target: str = "—"
    target_met: bool | None = None
    agree: bool | None = None
    check: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def speedup(self) -> float | None:
        if self.ours is None or self.peer is None or self.ours.median <= 0:
            return None
        return self.peer.median / self.ours.median


@dataclass(frozen=True)
class Config:
    quick: bool = False
    seed: int = 20240607
    #: repeats of fast calls (slow ones are cut by the time budget)
    repeats: int = 7
    budget: float = 30.0
