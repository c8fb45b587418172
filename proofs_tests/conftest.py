"""Shared fixtures: mpmath precision is restored after every test (as mpmath's own suite
does).  This folder is put on ``sys.path`` for the tests' shared helpers
(``exact_values``)."""

import sys
from pathlib import Path

import mpmath
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def _restore_mp_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps
