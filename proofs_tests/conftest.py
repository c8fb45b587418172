"""Shared fixtures: mpmath precision is restored after every test (as mpmath's own suite does)."""

import mpmath
import pytest


@pytest.fixture(autouse=True)
def _restore_mp_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps
