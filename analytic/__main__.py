"""``python -m analytic`` runs the ``ordinal-verify`` command (:mod:`ordinal_verify`).

Kept for the tests, documents and users that call it; ``python -m ordinal_verify``
starts faster (this first imports :mod:`analytic`, and with it SymPy).
"""

import sys

from ordinal_verify import main

sys.exit(main())
