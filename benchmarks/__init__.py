"""Benchmarks of :mod:`numeric` against its peers, measured side by side.

Run from the repository root::

    python -m benchmarks                 # the full sizes of issue 7 (minutes)
    python -m benchmarks --quick         # tiny sizes, seconds (what the tests run)
    python -m benchmarks --output FILE   # also write the Markdown table to FILE
    python -m benchmarks --only 4,7      # a subset of the workloads

Every workload times our function and its peer in the same process run,
alternating the two, repeats each and reports the medians and the speed-up
(peer time / our time), and checks that the two results agree.  The
peers are scipy.stats, imbalanced-learn, numpy, scipy's ``linprog``, and the
reference code we transcribe from the sources (:mod:`benchmarks.baselines`).

The exit status is 1 if any agreement check fails; a missed speed target is
reported in the table, not turned into a failure (timings depend on the
machine).
"""

from .runner import Row, Timing, main, render, run

__all__ = ["Row", "Timing", "main", "render", "run"]
