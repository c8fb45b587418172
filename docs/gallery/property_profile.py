"""One metric's property profile: AMAE's verdicts in the committed property table.

Each property of the catalogue is proved (symbolically), holds (no
counterexample in the searched space), fails (a counterexample, re-checked
exactly) or does not apply; ``ordinal-verify audit amae`` prints the same.

Run: ``python docs/gallery/property_profile.py [OUT.png]`` (refuses a file that exists).
"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import analytic  # noqa: E402

COLOURS = {"proved": "#1b7837", "holds": "#a6dba0", "fails": "#d6604d", "n/a": "#dddddd"}


def main(out, variant="AMAE (observed classes)"):
    if Path(out).exists():
        sys.exit(f"{out} exists: give a new file name")
    table = json.loads((Path(analytic.__file__).parent / "properties" / "table.json").read_text())
    (report,) = [r for r in table["reports"] if r["variant"] == variant]
    names = list(report["properties"])
    verdicts = [report["properties"][n]["verdict"] for n in names]
    fig, ax = plt.subplots(figsize=(6.4, 0.32 * len(names) + 0.9))
    ax.barh(range(len(names)), [1] * len(names), color=[COLOURS.get(v, "#dddddd") for v in verdicts])
    for i, v in enumerate(verdicts):
        ax.text(0.5, i, v, ha="center", va="center")
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xticks([])
    ax.set_title(f"{variant}: its properties")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "property_profile.png")
