"""Each property's check, on matrices where it must fail and where it must hold (issue 27, item 3).

Independent of the committed table: every expected verdict below is worked
out by hand from the property's definition (analytic/properties/catalog.py)
and the metric's formula, and both the exact check and the float screen of
the property are asked.  Ties are where a careless change would slip: a tie
of a strict relation (ordinal monotonicity, imbalance) is a violation, a tie
of a non-strict one (monotonicity) is not.  The triangle's orientation is
re-checked with d(x, y) = f(cm(x, y)), x the true labels, built here with
numeric.confusion_matrix.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import numeric
from analytic.audit import audit
from analytic.properties.catalog import CANDIDATE, CLEAR, PROPERTIES, TIE
from analytic.properties.engine import FloatEvaluator
from analytic.properties.exact import ExactContext


def _mer(A):
    A = np.asarray(A)
    return Fraction(int(A.sum() - np.trace(A)), int(A.sum()))


def _mae(A):
    return numeric.mae(np.asarray(A), arithmetic="exact")


def _zero(A):
    return 0


def _upper_01(A):
    """The share of samples in cell (0, 1): not symmetric."""
    A = np.asarray(A)
    return Fraction(int(A[0, 1]), int(A.sum()))


def _count_00(A):
    """The count of cell (0, 0): not scale invariant."""
    return int(np.asarray(A)[0, 0])


def _tc(A):
    return numeric.tc(np.asarray(A), arithmetic="exact")


def _amae_zero(A):
    return numeric.amae(np.asarray(A), missing="zero", arithmetic="exact")


def _float(f):
    """The float screen's evaluator of an exact per-matrix function."""
    def vec(S):
        out = []
        for m in S:
            out.append(float(f(m)))
        return np.array(out)
    return vec


def verdicts(prop, f, m, better="lower", bounds=(0, None)):
    """(exact check's witness, float screen's status) of property ``prop`` on ``m``."""
    m = np.asarray(m, dtype=np.int64)
    p = PROPERTIES[prop]
    ctx = ExactContext(f, better, bounds)
    ev = FloatEvaluator(_float(f), better, bounds)
    assert p.bases(m[None])[0], "not a base matrix of the property"
    return p.check(ctx, m), int(p.screen(ev, m[None])[0])


# (property, metric, matrix, bounds, better, fails?, status of the float screen)
CASES = [
    # MAE of [[0,0,1],...]: one sample of true 0 predicted 2: MAE = 2 > 1
    ("range", _mae, [[0, 0, 1], [0, 0, 0], [0, 0, 0]], (0, 1), "lower", True, CANDIDATE),
    ("range", _mae, [[1, 1], [0, 1]], (0, 1), "lower", False, CLEAR),
    # MER = 0 on a diagonal matrix (the best: a tie with the bound, decided exactly)
    ("identity", _mer, [[2, 0], [0, 1]], (0, 1), "lower", False, TIE),
    ("identity", _mer, [[2, 1], [0, 1]], (0, 1), "lower", False, CLEAR),
    # the zero metric reaches its best value 0 off the diagonal
    ("identity", _zero, [[0, 1], [0, 0]], (0, 1), "lower", True, CANDIDATE),
    # higher is better: the best is the upper bound 1; 1 - MER is 1 exactly on the diagonal
    ("identity", lambda A: 1 - _mer(A), [[0, 1], [1, 0]], (0, 1), "higher", False, CLEAR),
    ("identity", lambda A: Fraction(1), [[0, 1], [1, 0]], (0, 1), "higher", True, CANDIDATE),
    ("symmetry", _upper_01, [[0, 1], [0, 0]], (0, 1), "lower", True, CANDIDATE),
    ("symmetry", _mae, [[1, 2], [0, 1]], (0, None), "lower", False, TIE),
    # TC of [[0,0],[1,1]] is undefined (true class 0 is empty), of its transpose defined:
    # one side undefined is a violation, not a tie
    ("symmetry", _tc, [[0, 0], [1, 1]], (0, None), "lower", True, CANDIDATE),
    # MER: a sample of true 2 predicted 0 moved to predicted 1 is still wrong: a tie,
    # allowed by monotonicity, a violation of ordinal monotonicity
    ("monotonicity", _mer, [[0, 0, 0], [0, 0, 0], [1, 0, 0]], (0, 1), "lower", False, TIE),
    ("ordinal_monotonicity", _mer, [[0, 0, 0], [0, 0, 0], [1, 0, 0]], (0, 1), "lower", True,
     CANDIDATE),
    ("ordinal_monotonicity", _mae, [[0, 0, 0], [0, 0, 0], [1, 0, 0]], (0, None), "lower",
     False, CLEAR),
    # a metric that rewards moving away: the loss grows
    ("monotonicity", lambda A: -_mae(A), [[0, 1], [0, 0]], (None, 0), "lower", True, CANDIDATE),
    # MER on gold [[2,0,0],[0,0,0],[0,0,1]]: an error of class 0 (2 samples) into class 1
    # and one of class 2 (1 sample) into class 1 both give MER = 1/3: a tie, a violation
    ("imbalance", _mer, [[2, 0, 0], [0, 0, 0], [0, 0, 1]], (0, 1), "lower", True, CANDIDATE),
    # AMAE (missing = zero) averages per true class: 1/2 (class 0) < 1 (class 2): holds
    ("imbalance", _amae_zero, [[2, 0, 0], [0, 0, 0], [0, 0, 1]], (0, None), "lower", False,
     CLEAR),
    ("ordinal_invariance", _mer, [[1, 1], [0, 2]], (0, 1), "lower", False, TIE),
    # MAE of [[0,0],[1,0]] is 1; with an empty class between the two it is 2
    ("ordinal_invariance", _mae, [[0, 0], [1, 0]], (0, None), "lower", True, CANDIDATE),
    ("empty_class", _mae, [[1, 1], [0, 2]], (0, None), "lower", False, TIE),
    # AMAE (missing = zero) counts the appended empty class as a class with error 0
    ("empty_class", _amae_zero, [[0, 0], [1, 0]], (0, None), "lower", True, CANDIDATE),
    ("scale", _mae, [[1, 2], [0, 1]], (0, None), "lower", False, TIE),
    ("scale", _count_00, [[1, 0], [0, 0]], (0, None), "lower", True, CANDIDATE),
    # TC divides by every class count: undefined with an empty row
    ("unobserved_class", _tc, [[0, 0], [0, 1]], (0, None), "lower", True, CANDIDATE),
    ("unobserved_class", _mae, [[0, 0], [0, 1]], (0, None), "lower", False, CLEAR),
]


@pytest.mark.parametrize("prop, f, m, bounds, better, fails, status", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_check_fails_and_holds_where_the_definition_says(prop, f, m, bounds, better,
                                                               fails, status):
    witness, screened = verdicts(prop, f, m, better, bounds)
    assert bool(witness) == fails, witness
    assert screened == status


def test_populated_twins_skip_unpopulated_gold_standards():
    """ordinal_monotonicity_populated speaks only of matrices without an empty row;
    imbalance_populated only of gold standards with every class count >= 1."""
    p = PROPERTIES["ordinal_monotonicity_populated"]
    assert not p.bases(np.array([[[0, 0, 0], [0, 0, 0], [1, 0, 0]]]))[0]
    assert p.bases(np.array([[[1, 0, 0], [0, 1, 0], [1, 0, 0]]]))[0]
    q = PROPERTIES["imbalance_populated"]
    assert not q.bases(np.array([[[2, 0, 0], [0, 0, 0], [0, 0, 1]]]))[0]
    assert q.bases(np.array([[[2, 0, 0], [0, 1, 0], [0, 0, 1]]]))[0]


def test_triangle_orientation_of_an_asymmetric_metric():
    """d(a, b) = the share of samples predicted exactly one class above the truth
    (a true, b predicted) is asymmetric.  On a = [0], b = [2], c = [1] (K = 3):
    d(a, c) = 1 (c = a + 1) > d(a, b) + d(b, c) = 0 + 0 (b = a + 2, c = b - 1).  The
    auditor finds this minimal triple, and it is re-checked here from the definition."""
    def one_above(A):
        A = np.asarray(A)
        K = len(A)
        return Fraction(int(sum(A[i, i + 1] for i in range(K - 1))), int(A.sum()))

    r = audit(one_above, ["triangle"], max_k=3, max_n=1, random=0, bounds=(0, 1))
    res = r.results["triangle"]
    assert res.verdict == "fails"
    a, b, c, K = res.counterexample

    def d(x, y):
        return one_above(numeric.confusion_matrix(list(x), list(y), labels=range(K)))

    assert d(a, c) > d(a, b) + d(b, c)
    assert (list(a), list(b), list(c), K) == ([0], [2], [1], 3)
    # the reverse orientation, d(x, y) = f(cm(y, x)), holds on this triple: 0 <= 1 + 0
    def rev(x, y):
        return d(y, x)
    assert not rev(a, c) > rev(a, b) + rev(b, c)


def test_a_tie_of_the_strict_relations_is_decided_exactly_not_by_the_tolerance():
    """The float screen sends a tie of a strict relation to the exact check as a
    candidate; the exact values decide (MER's tie above is exact: 1 = 1)."""
    ctx = ExactContext(_mer, "lower", (0, 1))
    m = np.array([[0, 0, 0], [0, 0, 0], [1, 0, 0]])
    s = m.copy()
    s[2, 0], s[2, 1] = 0, 1
    assert ctx.loss_cmp(ctx.value(s), ctx.value(m)) == 0
