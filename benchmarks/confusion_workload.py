"""Workload 1's rows on the counting paths of :func:`numeric.confusion_matrix`.

Each path of :mod:`numeric.confusion` is timed against the simplest one, the
general path (:func:`numeric.confusion._count`: each label's position by
``np.searchsorted`` in the sorted classes, then one ``np.bincount``), on the
labels that select it, alternately in one run (:func:`~benchmarks.timing.compare`),
so that the ratios are measured under the same load.  A path is worth its
code where the ratio (general / path) is well above 1.

Issue 26 kept three paths of five: the general one, the value range (the
classes found) and the value range placed on given integer ``labels``.  The
two removed, measured in this workload's first version (commit 0b6d9ea) and
alternated against each other, were within 1.3x of the value range: a path
for labels in ``[0, 4096)`` (0.97-1.3x; 0.75x at 4096 classes) and its pairs
of codes (1.06-1.16x).
"""

from __future__ import annotations

import numpy as np

from .timing import Config, Row, compare

__all__ = ["w1_counting_paths"]

GENERAL = "general path (`searchsorted` codes, one `bincount`)"


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
    for K in (5, 50):
        t, p = labels(K)
        cases += [
            (f"K={K}, classes found: value range", lambda t=t, p=p: confusion.confusion_matrix(t, p),
             general(t, p)),
            (f"K={K}, `labels=range(K)`: value range placed on labels",
             lambda t=t, p=p, K=K: confusion.confusion_matrix(t, p, labels=np.arange(K)),
             general(t, p, np.arange(K))),
        ]
    tn, pn = labels(5, lo=-2)
    cases.append(("K=5, labels -2..2: value range", lambda: confusion.confusion_matrix(tn, pn),
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
