"""``python -m numeric``: print the metric tables of docs/metrics.md from the registry;
``python -m numeric --write docs/metrics.md`` rewrites them in place (``--write-readme``, the
former name, still works; checked first and replaced atomically:
:func:`numeric.registry.write_readme`).  An error is one line on stderr and exit status 2."""

import sys

from exactfloor.errors import InputError
from numeric.registry import markdown_tables, write_readme

if sys.argv[1:2] in (["--write"], ["--write-readme"]) and len(sys.argv) == 3:
    try:
        write_readme(sys.argv[2])
    except (InputError, ValueError, OSError) as exc:
        print(f"python -m numeric: {exc}", file=sys.stderr)
        sys.exit(2)
elif len(sys.argv) == 1:
    print(markdown_tables())
else:
    sys.exit("usage: python -m numeric [--write docs/metrics.md]")
