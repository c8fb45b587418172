"""A paper's table, rebuilt: silva2018 Table I's MAE, AMAE and A_UOC against the printed cells.

Each cell is computed exactly and rounded half-up to the printed digits; a
cell that does not match is marked (the ledger's ``silva2018:table1:*``
claims diagnose each).

Run: ``python docs/gallery/paper_table.py [OUT.png]`` (refuses a file that exists).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import numeric  # noqa: E402
from analytic.ledger.sources import silva2018  # noqa: E402
from numeric.rounding import matches_printed  # noqa: E402

COLUMNS = {"MAE": lambda cm: numeric.mae(cm, arithmetic="exact"),
           "AMAE": lambda cm: numeric.amae(cm, missing="zero", arithmetic="exact"),
           "A_UOC": lambda cm: numeric.a_uoc(cm, arithmetic="exact")}


def main(out):
    if Path(out).exists():
        sys.exit(f"{out} exists: give a new file name")
    cells, colours = [], []
    for key, cm in silva2018.MATRICES.items():
        row, shade = [], []
        for col, f in COLUMNS.items():
            printed = silva2018.TABLE_I[key][silva2018.TABLE_I_COLUMNS.index(col)]
            value = f(cm)
            ok = matches_printed(value, printed)
            row.append(f"{float(value):.3f} / {printed}" + ("" if ok else "  ✗"))
            shade.append("#e5f5e0" if ok else "#fcbba1")
        cells.append(row)
        colours.append(shade)
    fig, ax = plt.subplots(figsize=(6.4, 0.36 * len(cells) + 1.0))
    ax.axis("off")
    table = ax.table(cellText=cells, cellColours=colours, rowLabels=list(silva2018.MATRICES),
                     colLabels=[f"{c}: computed / printed" for c in COLUMNS], loc="center")
    table.scale(1, 1.4)
    ax.set_title("silva2018 Table I, rebuilt (green: the printed cell reproduces)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "paper_table.png")
