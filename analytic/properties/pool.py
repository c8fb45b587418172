"""The property engine's worker processes: how many, and the pool.

The engine's own helpers (before, :func:`default_executor` took the number of
CPUs from the claims ledger, a layer above it; :func:`analytic.ledger.default_jobs`
now reads it here).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

__all__ = ["default_jobs", "default_executor"]


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one):
    the default ``jobs`` of the engine and of the command line.

    >>> default_jobs() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_executor(jobs: int | None):
    """A process pool of ``jobs`` workers (forked on Linux; None: :func:`default_jobs`),
    or None for one job.

    >>> default_executor(1) is None
    True
    """
    if jobs is None:
        jobs = default_jobs()
    if jobs <= 1:
        return None
    import multiprocessing

    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() \
        else None
    return ProcessPoolExecutor(jobs, mp_context=ctx)
