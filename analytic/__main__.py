"""``python -m analytic`` runs the ``ordinal-verify`` command."""

import sys

from .cli import main

sys.exit(main())
