"""``python -m benchmarks``: see :mod:`benchmarks`."""

import sys

from .runner import main

sys.exit(main())
