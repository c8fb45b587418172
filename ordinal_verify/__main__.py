"""``python -m ordinal_verify`` runs the ``ordinal-verify`` command."""

import sys

from . import main

sys.exit(main())
