"""Interval TC_max as a function of the last interval's length, and its minimum.

binotto2024 §5: for three balanced classes with lengths (1, L, x), TC_max is
piecewise ``a/x + b + c x + e x^2`` in x; ``numeric.optimal_last_length``
finds the global minimum exactly (here L = 4: x = 2, Prop. 6).

Run: ``python docs/gallery/interval_optimum.py [OUT.png]`` (refuses a file that exists).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import numeric  # noqa: E402


def main(out, L=4):
    if Path(out).exists():
        sys.exit(f"{out} exists: give a new file name")
    counts, lengths = [1, 1, 1], [1, L]
    xs = np.linspace(0.2, 6, 300)
    ys = [numeric.interval_tc_max(counts, [*lengths, x]) for x in xs]
    best = numeric.optimal_last_length(counts, lengths, arithmetic="exact")
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(xs, ys, label="interval TC_max(1, 1, 1; 1, L, x)")
    ax.plot([float(best.x)], [float(best.minimum)], "o", color="C3",
            label=f"minimum at x = {best.x}, TC_max = {best.minimum}")
    ax.set_xlabel("x, the last interval's length")
    ax.set_title(f"L = {L}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "interval_optimum.png")
