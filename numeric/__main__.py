"""``python -m numeric``: print the metric tables of docs/metrics.md from the registry;
``python -m numeric --write docs/metrics.md`` rewrites them in place (``--write-readme``, the
former name, still works)."""

import sys

from numeric.registry import markdown_tables, write_readme

if sys.argv[1:2] in (["--write"], ["--write-readme"]) and len(sys.argv) == 3:
    write_readme(sys.argv[2])
elif len(sys.argv) == 1:
    print(markdown_tables())
else:
    sys.exit("usage: python -m numeric [--write docs/metrics.md]")
