"""Workload 1's rows on the counting paths of :func:`numeric.confusion_matrix`.

Each path of :mod:`numeric.confusion` is timed against the simplest one, the
general path (:func:`numeric.confusion._count`: each label's position by
``np.searchsorted`` in the sorted classes, then one ``np.bincount``), on the
labels that select it, alternately in one run (:func:`~benchmarks.timing.compare`),
so that the ratios are measured under the same load.  A path is worth its
code where the ratio (general / path) is well above 1.
"""

from __future__ import annotations

import contextlib

import numpy as np

from .timing import Config, Row, compare

__all__ = ["w1_counting_paths"]

GENERAL = "general path (`searchsorted` codes, one `bincount`)"


@contextlib.contextmanager
def _no_pair_codes():
    """The value-range path without its pair codes (``_PAIR_BINS = 0``)."""
    from numeric import confusion

    saved = confusion._PAIR_BINS
    confusion._PAIR_BINS = 0
    try:
        yield
    finally:
        confusion._PAIR_BINS = saved


def _without_pairs(t, p):
    from numeric import confusion

    with _no_pair_codes():
        return confusion.confusion_matrix(t, p)


def w1_counting_paths(cfg: Config):
    from numeric import confusion

    N = 10**5 if cfg.quick else 10**7
    rng = np.random.default_rng(cfg.seed)

    def general(t, p, lab=None):
        return lambda: confusion._count(t, p, confusion._observed(t, p) if lab is None else lab)

    def labels(K, lo=0):
        t = rng.integers(lo, lo + K, N)
        return t, np.clip(t + rng.integers(-2, 3, N), lo, lo + K - 1)

    cases = []
    t5, p5 = labels(5)
    cases += [
        ("K=5, classes found: value range, pair codes", lambda: confusion.confusion_matrix(t5, p5),
         general(t5, p5)),
        ("K=5, classes found: value range, single codes", lambda: _without_pairs(t5, p5), general(t5, p5)),
        ("K=5, classes found: growing range", lambda: confusion._count_growing_range(t5, p5)[0],
         general(t5, p5)),
    ]
    t50, p50 = labels(50)
    cases += [
        ("K=50, classes found: value range, single codes", lambda: confusion.confusion_matrix(t50, p50),
         general(t50, p50)),
        ("K=50, classes found: growing range", lambda: confusion._count_growing_range(t50, p50)[0],
         general(t50, p50)),
        ("K=50, `labels=range(K)`: value range placed on labels",
         lambda: confusion.confusion_matrix(t50, p50, labels=np.arange(50)), general(t50, p50, np.arange(50))),
    ]
    tn, pn = labels(5, lo=-2)
    cases.append(("K=5, labels -2..2: growing range", lambda: confusion.confusion_matrix(tn, pn),
                  general(tn, pn)))
    K = 512 if cfg.quick else 4096
    tw, pw = rng.integers(0, K, N), rng.integers(0, K, N)
    cases.append((f"K={K}, uniform: value range, `np.add.at` per chunk",
                  lambda: confusion.confusion_matrix(tw, pw), general(tw, pw)))

    rows = []
    for case, path, simplest in cases:
        (t_path, got), (t_general, ref) = compare(path, simplest, repeats=cfg.repeats, budget=cfg.budget)
        ok = bool(np.array_equal(got, ref))
        rows.append(Row(
            "1 confusion_matrix counting paths", f"N={N:.0e}".replace("+0", "") + f", int64, {case}",
            t_path, GENERAL, t_general, target="— (report)", agree=ok,
            check="identical counts" if ok else "counts differ",
        ))
    return rows
