"""Tests that kill survivors of the mutation run on the proof methods of
:mod:`analytic.properties.catalog` (issue 37 item 5; docs/mutation.md,
"catalog.py's proof methods").

Each test names the mutants it kills; expected values are by hand.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from analytic.properties import catalog


def test_the_symbols_of_a_family_sorted_by_name():
    """A family with several count symbols (``n01``, ``n10``, ``t`` and a
    constant): its symbols, each once, sorted by name (SymPy symbols have no
    order of their own: ``<`` between two of them is a relation, whose truth
    value SymPy refuses).  Kills ``_symbols`` 2, 4 (sorted without the key)."""
    n01, n10, t = sp.symbols("n01 n10 t", positive=True, integer=True)
    fam = np.array([[t + 1, n10], [n01 * t, 2]], dtype=object)
    assert catalog._symbols(fam) == [n01, n10, t]
