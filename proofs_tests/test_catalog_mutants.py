"""Tests that kill survivors of the mutation run on the proof methods of
:mod:`analytic.properties.catalog` (issue 37 item 5; docs/mutation.md,
"catalog.py's proof methods").

Each test names the mutants it kills; expected values are by hand.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from analytic.properties import catalog
from analytic.properties.proofkit import symbols_of


def test_the_symbols_of_a_family_sorted_by_name():
    """A family with several count symbols (``n01``, ``n10``, ``t`` and a
    constant): its symbols, each once, sorted by name (SymPy symbols have no
    order of their own: ``<`` between two of them is a relation, whose truth
    value SymPy refuses).  Kills ``_symbols`` 2, 4 (sorted without the key; the function is
    now ``proofkit.symbols_of``, shared with the prover)."""
    n01, n10, t = sp.symbols("n01 n10 t", positive=True, integer=True)
    fam = np.array([[t + 1, n10], [n01 * t, 2]], dtype=object)
    assert symbols_of(fam) == [n01, n10, t]


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


def _undefined_when_a_row_misses_its_class(cm):
    """The planted loss, undefined (``UndefinedMetric``) on a matrix where a class has samples
    but none predicted right (a row with a 0 on the diagonal): in the family ``n_c3 = 1``
    moving the single sample of ``c3`` leaves such a row, so only the family ``n_c3 = s + 1``
    decides the triple."""
    from exactfloor.errors import UndefinedMetric

    for i in range(cm.shape[0]):
        n_i = sum((sp.sympify(x) for x in cm[i]), sp.Integer(0))
        if n_i != 0 and sp.sympify(cm[i][i]) == 0:
            raise UndefinedMetric(f"class {i} has samples and none on the diagonal")
    return _planted(cm)


def test_imbalance_goes_past_an_undefined_moved_matrix_to_the_other_family():
    """K = 3, every diagonal count positive: for the triple (0, 1, 2) the family ``n_2 = 1``
    leaves class 2 without a right prediction after its move (undefined), so the prover goes
    on to the family ``n_2 = s + 1``, ``n_0 = s + 1 + t``.  Its symbols are read one at a time
    in name order, the others at 1: ``n11`` only scales the difference by ``1 / N``; then
    ``s`` with ``t = 1``: ``g(s + 2) - g(s + 1) = (s - 3)^2 - (s - 4)^2 = 2 s - 7``, >= 0
    from ``s = 4`` (by hand): the region ``s >= 4``, the matrix diag(6, 1, 5).  Kills
    ``Imbalance.prove_pattern`` 39 (``and``: the undefined value used in a difference), 40
    (``break``: the other family skipped, the pattern "proved"), 52, 53, 59, 64 (the
    refutation's text), ``_imbalance_family`` 10, 11 (the name of ``s``) and 18 (the second
    family ``s + 2``: ``g(s + 3) - g(s + 2) = 2 s - 5``, the region ``s >= 3``)."""
    from analytic.properties import prover as P
    from analytic.properties.proofkit import Refutation

    f = _undefined_when_a_row_misses_its_class
    ev = P.Evaluator(f, P._exact_of(f))
    spec = {"bounds": (0, None), "orient": 1, "best": 0}
    r = catalog.PROPERTIES["imbalance"].prove_pattern(ev, P.generic_matrix(3, [(0, 0), (1, 1), (2, 2)]), spec)
    assert isinstance(r, Refutation), r
    assert r.matrix.tolist() == [[6, 0, 0], [0, 1, 0], [0, 0, 5]]
    assert r.region == "s >= 4 (the other symbols 1)"
    assert r.reason.startswith("class 0 -> 1 against class 2 -> 1 on [[s + t + 1, 0, 0], [0, n11, 0], "
                               "[0, 0, s + 1]]: ")
    assert r.reason.endswith(" is not < 0")
    assert str(r).endswith("; fails on s >= 4 (the other symbols 1), e.g. [[6, 0, 0], [0, 1, 0], [0, 0, 5]]")


def test_imbalance_proof_scopes_from_a_single_scope():
    """The prover may ask for one scope: the family scopes every K <= 5 are added after it,
    each once (by hand: K = 2 given, then 1, 3, 4, 5).  Kills ``Imbalance.proof_scopes`` 6
    (``scopes[1]``: an IndexError)."""
    from analytic.properties.prover import Scope

    got = catalog.PROPERTIES["imbalance"].proof_scopes((Scope(2, "every"),))
    assert [(s.K, s.kind) for s in got] == [(2, "every"), (1, "every"), (3, "every"), (4, "every"),
                                           (5, "every")]
    assert catalog.PROPERTIES["imbalance"].proof_scopes(()) == ()
