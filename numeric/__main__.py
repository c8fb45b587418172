"""``python -m numeric``: print README's metric tables from the registry;
``python -m numeric --write-readme README.md`` rewrites them in place."""

import sys

from numeric.registry import markdown_tables, write_readme

if sys.argv[1:2] == ["--write-readme"] and len(sys.argv) == 3:
    write_readme(sys.argv[2])
elif len(sys.argv) == 1:
    print(markdown_tables())
else:
    sys.exit("usage: python -m numeric [--write-readme README.md]")
