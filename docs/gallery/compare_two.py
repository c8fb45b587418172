"""Two classifiers compared: each metric's difference with its paired-bootstrap interval.

Synthetic labels (a seeded generator, 5 classes, 300 samples): classifier A is
off by one class 30 % of the time, B 20 % of the time but by two classes half
of those.  ``numeric.compare`` resamples the samples jointly (500 resamples
here; 10,000 by default) and calls a winner only where the interval excludes 0.

Run: ``python docs/gallery/compare_two.py [OUT.png]`` (refuses a file that exists).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import numeric  # noqa: E402


def main(out):
    if Path(out).exists():
        sys.exit(f"{out} exists: give a new file name")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, 300)
    a = np.clip(y + rng.choice([-1, 0, 1], 300, p=[0.15, 0.7, 0.15]), 0, 4)
    b = np.clip(y + rng.choice([-2, -1, 0, 1, 2], 300, p=[0.05, 0.05, 0.8, 0.05, 0.05]), 0, 4)
    c = numeric.compare(y, a, b, names=["A", "B"], labels=range(5), n_resamples=500, seed=0,
                        metrics=["mer", "mae", "amae", "kendall_tau_b", "cohen_kappa"])
    rows = list(c.rows)
    diffs = [r.diff for r in rows]
    lows = [r.diff - r.diff_ci[0] for r in rows]
    highs = [r.diff_ci[1] - r.diff for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    ax.errorbar(diffs, range(len(rows)), xerr=[lows, highs], fmt="o", capsize=4)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(range(len(rows)), [f"{r.label} ({r.better} is better)" for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("B − A, with the 95 % paired-bootstrap interval")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "compare_two.png")
