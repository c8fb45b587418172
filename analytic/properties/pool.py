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
    """The CPUs this process may run on: the default ``jobs`` of the engine and of the command line.

    Returns
    -------
    int
        The CPUs of this process's affinity mask where the OS has one, else of the machine.

    Examples
    --------
    >>> default_jobs() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_executor(jobs: int | None):
    """A process pool of ``jobs`` workers, or None for one job.

    Parameters
    ----------
    jobs : int or None
        The workers (None: :func:`default_jobs`).

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor or None
        Its workers forked on Linux; None when ``jobs <= 1``.

    Examples
    --------
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
