"""UOC(beta) with A_UOC shaded, for silva2018's matrix C.

UOC is the lower envelope of one line per consistent path; A_UOC is the area
under it on [0, 1] (silva2018 eq. 23), exact here: 32/49.

Run: ``python docs/gallery/uoc_area.py [OUT.png]`` (refuses a file that exists).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import numeric  # noqa: E402
from analytic.ledger.sources import silva2018  # noqa: E402


def main(out):
    if Path(out).exists():
        sys.exit(f"{out} exists: give a new file name")
    cm = silva2018.MATRICES["C"]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    numeric.plot_uoc(cm, ax, label="UOC(β) of silva2018's C")
    area = numeric.a_uoc(cm, arithmetic="exact")
    ax.set_title(f"A_UOC = {area} ≈ {float(area):.4f}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "uoc_area.png")
