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


def _planted(cm):
    """``sum_i e_i g(N_i) / N``, ``e_i`` the errors of row ``i``, ``g(n) = (n - 5)^2 + 1``
    (the planted failure of test_family_verdicts.py): moving a sample of a class with
    ``n`` samples costs ``g(n) / N``, which does not decrease beyond ``n = 5``, so
    imbalance fails on the families with a large gap ``t``."""
    K = cm.shape[0]
    total = sp.Integer(0)
    for i in range(K):
        n_i = sum((sp.sympify(x) for x in cm[i]), sp.Integer(0))
        total += (n_i - sp.sympify(cm[i][i])) * ((n_i - 5) ** 2 + 1)
    return total / sum((sp.sympify(x) for x in cm.reshape(-1)), sp.Integer(0))


def test_imbalance_examines_the_triples_after_one_with_an_empty_end_class():
    """K = 4, the diagonal pattern of classes 1, 2, 3 (class 0 empty): the first
    triples (0, 1, 2) and (2, 1, 0) need class 0 and are skipped, the next ones
    (1, 2, 3), (3, 2, 1) are examined and the planted loss fails on the family
    ``n_1 = 1 + t`` (cost ``g(1 + t) - g(1) = t (t - 8)`` over ``N``, >= 0 from t = 8,
    by hand as in test_family_verdicts.py): a refutation, not None (proved).
    Kills ``Imbalance.prove_pattern`` 16 (``break``: the later triples skipped)
    and 12 (the test of the end classes inverted)."""
    from analytic.properties import prover as P
    from analytic.properties.proofkit import Refutation

    ev = P.Evaluator(_planted, P._exact_of(_planted))
    spec = {"bounds": (0, None), "orient": 1, "best": 0}
    m = P.generic_matrix(4, [(1, 1), (2, 2), (3, 3)])
    r = catalog.PROPERTIES["imbalance"].prove_pattern(ev, m, spec)
    assert isinstance(r, Refutation), r
    n = np.diag(r.matrix)
    assert n[0] == 0 and (n[1] > n[3] >= 1 or n[3] > n[1] >= 1)
