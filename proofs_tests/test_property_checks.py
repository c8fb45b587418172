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

from exactfloor.errors import UndefinedMetric
import numeric
from analytic.properties.audit import audit
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


# ---------------------------------------------------------------------------
# every property against an independent implementation of its statement
# (issue 27 item 4: mutation testing of catalog.py)
# ---------------------------------------------------------------------------
# The reference below is written from the class docstrings of catalog.py, with
# plain Python loops and Fractions: for each base matrix, the exact relation gives
# the float screen's class (the metrics here are rational with denominators <= 6,
# so two different values differ by far more than the 1e-9 tolerance and the
# screen's classes are the exact ones: a violation is a candidate, an equality a
# tie -- a candidate for a strict relation -- and a strict margin clear) and
# whether the exact check must report a violation.

def _grid(A):
    return np.asarray(A).tolist()


def _n(A):
    return sum(map(sum, A))


def _f_mer(A):
    A = _grid(A)
    return Fraction(_n(A) - sum(A[i][i] for i in range(len(A))), _n(A))


def _f_mae(A):
    A = _grid(A)
    K = len(A)
    return Fraction(sum(abs(i - j) * A[i][j] for i in range(K) for j in range(K)), _n(A))


def _f_upper(A):
    """The share of cell (0, 1): asymmetric, not invariant under inserted classes."""
    A = _grid(A)
    return Fraction(A[0][1] if len(A) > 1 else 0, _n(A))


def _f_macro(A):
    """The mean over true classes of the class's error rate: undefined with an empty row."""
    A = _grid(A)
    if any(sum(row) == 0 for row in A):
        raise UndefinedMetric("a true class without samples")
    return sum(Fraction(sum(row) - row[i], sum(row)) for i, row in enumerate(A)) / len(A)


def _f_col_macro(A):
    """The mean over predicted classes of the share of wrong samples in the column:
    undefined with an empty column, which a move or imbalance's error can empty while
    the matrix it is compared with stays defined."""
    A = _grid(A)
    cols = [[row[j] for row in A] for j in range(len(A))]
    if any(sum(col) == 0 for col in cols):
        raise UndefinedMetric("a predicted class without samples")
    return sum(Fraction(sum(col) - col[j], sum(col)) for j, col in enumerate(cols)) / len(A)


def _f_acc(A):
    return 1 - _f_mer(A)


def _f_count00(A):
    return Fraction(_grid(A)[0][0])


def _f_neg_mae(A):
    return -_f_mae(A)


# (name, metric, better, bounds)
METRICS = [
    ("mer", _f_mer, "lower", (0, 1)),
    ("mae", _f_mae, "lower", (0, 1)),          # MAE > 1 is outside these bounds
    ("upper", _f_upper, "lower", (0, 1)),
    ("macro", _f_macro, "lower", (0, 1)),
    ("col_macro", _f_col_macro, "lower", (0, 1)),
    ("acc", _f_acc, "higher", (0, 1)),
    ("count00", _f_count00, "lower", (0, 2)),
    ("neg_mae", _f_neg_mae, "lower", (None, 0)),
]


_VALUES = {}


def _value(f, A):
    """f(A) as a Fraction, None where f raises ValueError (memoised)."""
    A = np.asarray(A, dtype=np.int64)
    key = (f, A.shape, A.tobytes())
    if key not in _VALUES:
        try:
            _VALUES[key] = Fraction(f(A))
        except ValueError:
            _VALUES[key] = None
    return _VALUES[key]


def _inserted(A, p):
    """A with an empty class (a zero row and column) at position p."""
    K = len(A)
    idx = [i if i < p else i + 1 for i in range(K)]
    B = [[0] * (K + 1) for _ in range(K + 1)]
    for i in range(K):
        for j in range(K):
            B[idx[i]][idx[j]] = A[i][j]
    return B


def _diagonal(A):
    return all(A[i][j] == 0 for i in range(len(A)) for j in range(len(A)) if i != j)


def _imbalance_triples(K):
    """(c1, c2, c3): c2 strictly between c1 and c3, at equal distance from both."""
    return {(c1, c2, c3) for c1 in range(K) for c2 in range(K) for c3 in range(K)
            if min(c1, c3) < c2 < max(c1, c3) and c2 - min(c1, c3) == max(c1, c3) - c2}


def _moved(A):
    """Every matrix with one sample of an off-diagonal cell moved one step toward the diagonal."""
    K = len(A)
    for i in range(K):
        for j in range(K):
            if i == j or not A[i][j]:
                continue
            B = [row[:] for row in A]
            B[i][j] -= 1
            B[i][j - 1 if j > i else j + 1] += 1
            yield B


def _imbalance_pairs(A):
    """(a1, a3) per triple with n_c1 > n_c3 >= 1: one sample of c1, and one of c3, moved to c2."""
    n = [A[i][i] for i in range(len(A))]
    for c1, c2, c3 in _imbalance_triples(len(A)):
        if n[c1] > n[c3] >= 1:
            a1, a3 = [row[:] for row in A], [row[:] for row in A]
            a1[c1][c1] -= 1
            a1[c1][c2] += 1
            a3[c3][c3] -= 1
            a3[c3][c2] += 1
            yield a1, a3


def _transformed(base, A):
    """The matrices an equality property compares ``A`` with."""
    K = len(A)
    if base == "symmetry":
        return [[list(r) for r in zip(*A)]]
    if base == "scale":
        return [[[2 * x for x in row] for row in A]]
    return [_inserted(A, p) for p in (range(1, K) if base == "ordinal_invariance" else (0, K))]


def _setting(f, better, bounds, A):
    """The oracles' reading of a case: the matrix as lists, the orientation (+1: lower
    is better), the bounds as Fractions (None: unbounded) and f(A) (None: undefined)."""
    A = _grid(A)
    return (A, 1 if better == "lower" else -1,
            tuple(None if b is None else Fraction(b) for b in bounds), _value(f, A))


def reference(prop, f, better, bounds, A):
    """(class of the float screen, must the exact check report a violation?)."""
    A, orient, (lo, hi), v = _setting(f, better, bounds, A)
    classes = [CLEAR]
    violated = False

    def relation(change, strict):
        """A change of the loss that must be < 0 (strict) or <= 0."""
        nonlocal violated
        if change > 0 or (strict and change == 0):
            classes.append(CANDIDATE)
            violated = True
        elif change == 0:
            classes.append(TIE)

    def same(B):
        nonlocal violated
        w = _value(f, B)
        if v is None and w is None:
            return
        if v is None or w is None or v != w:
            classes.append(CANDIDATE)
            violated = True
        else:
            classes.append(TIE)

    base = prop.removesuffix("_populated")
    if base == "range":
        if v is not None:
            for b, side in ((lo, -1), (hi, 1)):
                if b is not None:
                    relation(side * (v - b), strict=False)
    elif base == "identity":
        best = lo if better == "lower" else hi
        if v is not None:
            loss = orient * (v - best)
            if _diagonal(A):
                classes.append(TIE if loss == 0 else CANDIDATE)
                violated = loss != 0
            else:
                classes.append(CANDIDATE if loss <= 0 else CLEAR)
                violated = loss == 0
    elif base in ("symmetry", "scale", "ordinal_invariance", "empty_class"):
        for B in _transformed(base, A):
            same(B)
    elif base in ("monotonicity", "ordinal_monotonicity"):
        if v is not None:
            for B in _moved(A):
                w = _value(f, B)
                if w is not None:
                    relation(orient * (w - v), strict=base == "ordinal_monotonicity")
    elif base == "imbalance":
        for a1, a3 in _imbalance_pairs(A):
            v1, v3 = _value(f, a1), _value(f, a3)
            if v1 is not None and v3 is not None:
                relation(orient * (v1 - v3), strict=True)
    elif base == "unobserved_class":
        if v is None:
            classes.append(CANDIDATE)
            violated = True
    return max(classes), violated


def reference_bases(prop, A):
    A = _grid(A)
    if prop == "unobserved_class":
        return any(sum(row) == 0 for row in A)
    if prop == "imbalance":
        return len(A) >= 3
    if prop == "imbalance_populated":
        return len(A) >= 3 and all(A[i][i] > 0 for i in range(len(A)))
    if prop.endswith("_populated"):
        return all(sum(row) > 0 for row in A)
    return True


def _stacks():
    """Every K x K matrix with K <= 3 and 1 <= N <= 3 (one stack per K), and every
    diagonal K x K matrix with K = 3, 4 and N <= 6 (imbalance's region)."""
    from itertools import product

    out = {}
    for K in (1, 2, 3):
        out["matrices", K] = np.array([np.reshape(c, (K, K)) for c in product(range(4), repeat=K * K)
                                       if 1 <= sum(c) <= 3], dtype=np.int64)
    for K in (3, 4):
        out["diagonal", K] = np.array([np.diag(d) for d in product(range(7), repeat=K)
                                       if 1 <= sum(d) <= 6], dtype=np.int64)
    return out


STACKS = _stacks()


@pytest.mark.parametrize("name, f, better, bounds", METRICS, ids=[m[0] for m in METRICS])
def test_screen_and_check_agree_with_the_statements_on_every_small_matrix(name, f, better,
                                                                          bounds):
    from analytic.properties.engine import _Cached

    ctx = ExactContext(f, better, bounds)
    ev = FloatEvaluator(_float_stack(f), better, bounds)
    for prop, p in PROPERTIES.items():
        if prop == "triangle":
            continue
        reason = p.not_applicable(ctx)
        expected_na = (prop == "range" and bounds == (None, None)) or (
            prop == "identity" and (bounds[0] if better == "lower" else bounds[1]) is None)
        assert (reason is not None) == expected_na, (prop, reason)
        if reason:
            continue
        region = "diagonal" if p.region == "diagonal" else "matrices"
        for (kind, K), S in STACKS.items():
            if kind != region:
                continue
            keep = p.bases(S)
            assert keep.tolist() == [reference_bases(prop, m) for m in S], (prop, K)
            B = S[keep]
            if not len(B):
                continue
            ref = [reference(prop, f, better, bounds, m) for m in B]
            for evaluator in (ev, _Cached(ev, B)):
                got = p.screen(evaluator, B)
                bad = [(m.tolist(), int(g), r[0]) for m, g, r in zip(B, got, ref) if g != r[0]]
                assert not bad, (prop, bad[:3])
            wrong = [(m.tolist(), p.check(ctx, m)) for m, r in zip(B, ref)
                     if bool(p.check(ctx, m)) != r[1]]
            assert not wrong, (prop, wrong[:3])


def _float_stack(f):
    """The float evaluator's function, marking the undefined matrices as a
    registered metric does (numeric._validation.undefined_if)."""
    from numeric._validation import undefined_if

    def vec(S):
        vals = [_value(f, m) for m in S]
        undefined_if(np.array([v is None for v in vals]), lambda: "undefined")
        return np.array([0.0 if v is None else float(v) for v in vals], dtype=np.float64)
    return vec


def test_the_screen_s_tolerance_and_its_classes_at_the_boundary():
    """TOLERANCE = 1e-9 relative to max(1, |a|, |b|) (catalog.py); a difference
    within it (boundary included) is a tie, beyond it a violation or a margin."""
    from analytic.properties.catalog import _eq_status, _le_status, _merge, tolerance

    assert tolerance(np.array([0.5, 3.0, -7.0]), np.array([0.25, -5.0, 2.0])).tolist() == [
        1e-9, 5 * 1e-9, 7 * 1e-9]
    d = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    assert _le_status(d, 1.0, strict=False).tolist() == [CLEAR, TIE, TIE, TIE, CANDIDATE]
    assert _le_status(d, 1.0, strict=True).tolist() == [CLEAR, CANDIDATE, CANDIDATE,
                                                        CANDIDATE, CANDIDATE]
    # f(a), f(b): equal; 1e-9 apart (= the tolerance at |values| <= 1); 2e-9 apart;
    # one undefined; the other undefined; both undefined (equal)
    va = np.array([0.5, 0.0, 0.0, 1.0, np.nan, np.nan])
    vb = np.array([0.5, 1e-9, 2e-9, np.nan, 1.0, np.nan])
    da, db = ~np.isnan(va), ~np.isnan(vb)
    assert _eq_status(va, da, vb, db).tolist() == [TIE, TIE, CANDIDATE, CANDIDATE, CANDIDATE,
                                                   CLEAR]
    # per-case statuses folded into their bases by the maximum
    status = np.array([CLEAR, TIE, CLEAR, CLEAR], dtype=np.int8)
    sub = np.array([CANDIDATE, CLEAR, TIE, TIE], dtype=np.int8)
    assert _merge(status, np.array([0, 0, 2, 2]), sub, 4).tolist() == [CANDIDATE, TIE, TIE,
                                                                         CLEAR]


def test_the_catalogue_s_names_statements_and_transforms():
    """The populated twins are named and titled after their parents; the statement
    is the class docstring; the class-inserting transforms are at the positions
    their statements name (interior 1..K-1, ends 0 and K); moves go one column
    toward the diagonal; imbalance's triples are every (c1, c2, c3) with c2
    strictly between at equal distance (brute force above)."""
    from analytic.properties.catalog import _moves

    twin = PROPERTIES["ordinal_monotonicity_populated"]
    assert twin.name == "ordinal_monotonicity_populated"
    assert twin.title == PROPERTIES["ordinal_monotonicity"].title + " (every true class populated)"
    assert repr(PROPERTIES["scale"]) == "<property scale>"
    assert PROPERTIES["symmetry"].statement() == "``f(A^T) = f(A)`` (both undefined counts as equal)."
    m = np.array([[[1, 2], [3, 4]]])
    assert [(lab, t(m)[0].tolist()) for lab, t in PROPERTIES["ordinal_invariance"].transforms(2)] \
        == [("empty class inserted at position 1", _inserted([[1, 2], [3, 4]], 1))]
    assert [(lab, t(m)[0].tolist()) for lab, t in PROPERTIES["empty_class"].transforms(2)] == [
        ("empty class inserted at position 0", _inserted([[1, 2], [3, 4]], 0)),
        ("empty class inserted at position 2", _inserted([[1, 2], [3, 4]], 2))]
    assert _moves(3) == [(0, 1, 0), (0, 2, 1), (1, 0, 1), (1, 2, 1), (2, 0, 1), (2, 1, 2)]
    for K in range(1, 7):
        triples = PROPERTIES["imbalance"].triples(K)
        assert len(triples) == len(set(triples)) and set(triples) == _imbalance_triples(K), K


def test_triangle_applies_only_to_distance_like_metrics():
    """Lower is better with lower bound 0 (catalog.py, Triangle)."""
    p = PROPERTIES["triangle"]
    assert p.not_applicable(ExactContext(_f_mae, "lower", (0, None))) is None
    for better, bounds in (("higher", (0, None)), ("lower", (None, 1)), ("lower", (1, 2)),
                           ("lower", (-1, 2))):
        assert "not distance-like" in p.not_applicable(ExactContext(_f_mae, better, bounds))


def test_the_checks_say_nothing_outside_their_region_and_name_their_witness():
    """Imbalance speaks only of diagonal matrices with K >= 3, unobserved_class only
    of matrices with an empty row: outside, the check is silent even where the
    relation would fail.  Witnesses, by hand: MAE of [[0, 0, 1], ...] is 2 > 1;
    MER of [[0, 0, 0], [0, 0, 0], [1, 0, 0]] stays 1 when the sample moves to
    predicted 1 (no better; -MAE is worse: 1 -> ... it rises from -2 to -1)."""
    mer = ExactContext(_f_mer, "lower", (0, 1))
    imb = PROPERTIES["imbalance"]
    # not diagonal: MER of the two moved matrices would tie (a violation on a diagonal one)
    assert imb.check(mer, np.array([[2, 1, 0], [0, 0, 0], [0, 0, 1]])) is None
    assert imb.check(mer, np.array([[2, 0], [0, 1]])) is None
    assert imb.check(mer, np.array([[2, 0, 0], [0, 0, 0], [0, 0, 1]])) == (
        "class 0 (2 samples) -> 1 is not better than class 2 (1 samples) -> 1: "
        "f([[1, 1, 0], [0, 0, 0], [0, 0, 1]]) = 1/3, f([[2, 0, 0], [0, 0, 0], [0, 1, 0]]) = 1/3")
    undefined_everywhere = ExactContext(lambda A: _f_macro(np.zeros((1, 1))), "lower", (0, 1))
    un = PROPERTIES["unobserved_class"]
    assert un.check(undefined_everywhere, np.array([[1, 0], [0, 1]])) is None
    assert un.check(undefined_everywhere, np.array([[0, 0], [0, 2]])) == (
        "f([[0, 0], [0, 2]]) raises: a true class without samples")
    assert PROPERTIES["range"].check(ExactContext(_f_mae, "lower", (0, 1)),
                                     np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]])) == (
        "f([[0, 0, 1], [0, 0, 0], [0, 0, 0]]) = 2 outside [0, 1]")
    m = np.array([[0, 0, 0], [0, 0, 0], [1, 0, 0]])
    assert PROPERTIES["ordinal_monotonicity"].check(mer, m) == (
        "moving a sample of true class 2 from predicted 0 one step toward 2 is no better: "
        "f([[0, 0, 0], [0, 0, 0], [1, 0, 0]]) = 1, f([[0, 0, 0], [0, 0, 0], [0, 1, 0]]) = 1")
    assert PROPERTIES["monotonicity"].check(ExactContext(_f_neg_mae, "lower", (None, 0)), m) == (
        "moving a sample of true class 2 from predicted 0 one step toward 2 is worse: "
        "f([[0, 0, 0], [0, 0, 0], [1, 0, 0]]) = -2, f([[0, 0, 0], [0, 0, 0], [0, 1, 0]]) = -1")
    ident = PROPERTIES["identity"]
    assert ident.check(ExactContext(_f_count00, "lower", (0, 2)), np.array([[1, 0], [0, 0]])) == (
        "diagonal, yet f([[1, 0], [0, 0]]) = 1, not the best value 0")
    assert ident.check(mer, np.array([[1, 0], [0, 1]])) is None
    assert ident.check(ExactContext(_f_upper, "lower", (0, 1)), np.array([[0, 0], [1, 0]])) == (
        "not diagonal, yet f([[0, 0], [1, 0]]) = 0, the best value")
    sym = PROPERTIES["empty_class"].check(ExactContext(_f_upper, "lower", (0, 1)),
                                          np.array([[0, 1], [0, 0]]))
    assert sym == ("empty class inserted at position 0: f([[0, 1], [0, 0]]) = 1 but "
                   "f([[0, 0, 0], [0, 0, 1], [0, 0, 0]]) = 0")


def test_identity_s_tolerance_boundary_and_a_bare_property():
    """On a diagonal matrix a loss equal to the tolerance (1e-9 at best value 0) is a
    tie, beyond it a candidate (as _le_status: within the tolerance, boundary
    included); a property class without a docstring states nothing."""
    from analytic.properties.catalog import Property

    def vec(S):
        return np.where(S[:, 0, 0] == 1, 1e-9, 2e-9)

    ev = FloatEvaluator(vec, "lower", (0, 1))
    S = np.array([[[1, 0], [0, 1]], [[2, 0], [0, 1]]])
    assert PROPERTIES["identity"].screen(ev, S).tolist() == [TIE, CANDIDATE]

    class Bare(Property):
        pass

    assert Bare.__doc__ is None and Bare().statement() == ""


def test_the_triangle_check_builds_integer_count_matrices():
    """d(x, y) = f(cm(x, y)) with cm the int64 count matrix of the pairs (x true, y
    predicted; the metric's contract): a total squared error, not normalised, gives
    d([0], [2]) = 4 > d([0], [1]) + d([1], [2]) = 1 + 1 (by hand)."""
    def total_squared(A):
        assert A.dtype == np.int64
        K = len(A)
        return sum((i - j) ** 2 * int(A[i, j]) for i in range(K) for j in range(K))

    ctx = ExactContext(total_squared, "lower", (0, None))
    p = PROPERTIES["triangle"]
    assert p.check(ctx, ((0,), (1,), (2,), 3)) == "d(a,c) = 4 > d(a,b) + d(b,c) = 1 + 1"
    assert p.check(ctx, ((0, 1), (0, 1), (1, 1), 3)) is None
    assert p.not_applicable(ExactContext(_f_mae, "higher", (0, None))) == (
        "not distance-like (needs lower is better and lower bound 0)")


def test_inapplicable_properties_say_why_and_scale_doubles():
    """range needs a stated bound, identity a bounded better side; scale is checked
    at the factor 2 (its statement), with no label before the witness."""
    assert PROPERTIES["range"].not_applicable(ExactContext(_f_mae, "lower", (None, None))) == (
        "no bounds stated")
    assert PROPERTIES["identity"].not_applicable(ExactContext(_f_mae, "higher", (0, None))) == (
        "the better side is unbounded")
    (label, t), = PROPERTIES["scale"].transforms(2)
    m = np.array([[[1, 2], [0, 3]]])
    assert label == "" and t(m).tolist() == [[[2, 4], [0, 6]]]
    assert PROPERTIES["scale"].check(ExactContext(_f_count00, "lower", (0, None)),
                                     np.array([[1, 0], [0, 0]])) == (
        "f([[1, 0], [0, 0]]) = 1 but f([[2, 0], [0, 0]]) = 2")


def test_imbalance_screens_every_triple_of_a_single_matrix():
    """diag(1, 0, 2): the triple (0, 1, 2) does not apply (n0 = 1 < n2 = 2), the
    next one (2, 1, 0) does, and MER ties there (1/3 both): a candidate; off the
    diagonal, a loss equal to the tolerance above the best is a candidate of identity."""
    ev = FloatEvaluator(_float_stack(_f_mer), "lower", (0, 1))
    assert PROPERTIES["imbalance"].screen(ev, np.diag([1, 0, 2])[None]).tolist() == [CANDIDATE]

    def vec(S):
        return np.full(len(S), 1e-9)

    off = np.array([[[1, 1], [0, 1]]])
    assert PROPERTIES["identity"].screen(FloatEvaluator(vec, "lower", (0, 1)), off).tolist() == [
        CANDIDATE]


#: two float64 values X and X + DELTA whose distance DELTA lies between 1e-9 X and
#: 1e-9 (X + DELTA): within the tolerance relative to max(1, |a|, |b|) (catalog.py),
#: beyond it relative to the smaller magnitude alone (DELTA = 4503600 ulps of 1.0,
#: X = 1e9 DELTA (1 - 5e-10); both differences below are exact in float64)
DELTA = 4503600 * 2.0 ** -52
X = DELTA * 1e9 * (1 - 0.5e-9)


def test_the_tolerance_is_relative_to_the_larger_magnitude_of_the_pair():
    from analytic.properties.catalog import tolerance

    assert (X + DELTA) - X == DELTA and 1e-9 * X < DELTA <= 1e-9 * (X + DELTA)
    assert tolerance(np.array([X + DELTA]), np.array([X]))[0] >= DELTA
    assert tolerance(np.array([-X]), np.array([-X - DELTA]))[0] >= DELTA
    assert tolerance(np.array([0.0]), np.array([X]))[0] < DELTA
    # equality: X + DELTA against X, either way round: a tie
    from analytic.properties.catalog import _eq_status

    va, vb = np.array([X + DELTA, X]), np.array([X, X + DELTA])
    assert _eq_status(va, np.ones(2, bool), vb, np.ones(2, bool)).tolist() == [TIE, TIE]
    # identity: f = X + DELTA on a diagonal matrix, best value X: a tie
    ev = FloatEvaluator(lambda S: np.full(len(S), X + DELTA), "lower", (X, X + 1))
    assert PROPERTIES["identity"].screen(ev, np.array([[[1, 0], [0, 1]]])).tolist() == [TIE]
    # imbalance on diag(1, 0, 2), triple (2, 1, 0): f(a1) and f(a3) a tie either way
    # (a1: a sample of class 2 moved to 1, a3: one of class 0 moved to 1)
    for v1, v3 in ((-(X + DELTA), -X), (X, X + DELTA)):
        def vec(S, v1=v1, v3=v3):
            return np.where(S[:, 2, 1] == 1, v1, np.where(S[:, 0, 1] == 1, v3, 0.0))
        ev = FloatEvaluator(vec, "lower", (None, None))
        assert PROPERTIES["imbalance"].screen(ev, np.diag([1, 0, 2])[None]).tolist() == [
            CANDIDATE], (v1, v3)
    # monotonicity on [[0, 1], [0, 0]]: the sample moved to [[1, 0], [0, 0]] changes the
    # loss by +DELTA, within the tolerance either way round: a tie (not strict)
    for vm, va in ((X + DELTA, X), (-X, -X - DELTA)):
        def vec(S, vm=vm, va=va):
            return np.where(S[:, 0, 0] == 1, vm, va)
        ev = FloatEvaluator(vec, "lower", (None, None))
        assert PROPERTIES["monotonicity"].screen(ev, np.array([[[0, 1], [0, 0]]])).tolist() == [
            TIE], (vm, va)


def test_symmetry_s_witness_has_no_label():
    """f = the share of cell (0, 1): 1 on [[0, 1], [0, 0]], 0 on its transpose."""
    assert PROPERTIES["symmetry"].check(ExactContext(_f_upper, "lower", (0, 1)),
                                        np.array([[0, 1], [0, 0]])) == (
        "f([[0, 1], [0, 0]]) = 1 but f([[0, 0], [1, 0]]) = 0")


def test_checks_skip_undefined_cases_and_go_on():
    """A case where one of the two values is undefined is skipped, and the next
    case is still checked.  Imbalance on diag(2, 1, 1, 1, 1), f = MER but undefined
    when cell (0, 1) is filled: the first applicable triple (0, 1, 2) fills it, the
    next one, (0, 2, 4), ties (MER 1/6 both): a violation.  Monotonicity on
    [[0, 1], [1, 0]], f = -MAE but undefined when cell (0, 0) is filled: the first
    move fills it, the second, (1, 0) -> (1, 1), raises -MAE from -1 to -1/2: worse."""
    def mer_unless_01(A):
        if A[0, 1]:
            raise UndefinedMetric("cell (0, 1) filled")
        return _f_mer(A)

    ctx = ExactContext(mer_unless_01, "lower", (0, 1))
    w = PROPERTIES["imbalance"].check(ctx, np.diag([2, 1, 1, 1, 1]))
    assert w.startswith("class 0 (2 samples) -> 2 is not better than class 4 (1 samples) -> 2")

    def neg_mae_unless_00(A):
        if A[0, 0]:
            raise UndefinedMetric("cell (0, 0) filled")
        return _f_neg_mae(A)

    ctx = ExactContext(neg_mae_unless_00, "lower", (None, 0))
    w = PROPERTIES["monotonicity"].check(ctx, np.array([[0, 1], [1, 0]]))
    assert w == ("moving a sample of true class 1 from predicted 0 one step toward 1 is worse: "
                 "f([[0, 1], [1, 0]]) = -1, f([[0, 1], [0, 1]]) = -1/2")


def test_range_s_tolerance_on_each_side():
    """Within 1e-9 of a bound (inside) is a tie on either side; a value DELTA above
    the upper bound X is within the tolerance relative to X + DELTA: a tie."""
    vals = np.array([0.75e-9, 0.5, 1 - 0.75e-9])
    ev = FloatEvaluator(lambda S: vals[S[:, 0, 0] - 1], "lower", (0, 1))
    S = np.array([[[1]], [[2]], [[3]]])
    assert PROPERTIES["range"].screen(ev, S).tolist() == [TIE, CLEAR, TIE]
    ev = FloatEvaluator(lambda S: np.full(len(S), X + DELTA), "lower", (None, X))
    assert PROPERTIES["range"].screen(ev, S[:1]).tolist() == [TIE]


# ---------------------------------------------------------------------------
# The slacks (Property.slack, which the falsifier climbs: analytic/properties/falsify.py),
# against a plain oracle written from the docstring of Property.slack and the relation of
# each property: how far a base is from violating it (< 0 violates; 0 violates where
# ``strict``), +inf where the property says nothing (not a base, or nothing defined).

def reference_slack(prop, f, better, bounds, A):
    """(slack, strict) of one matrix, in exact arithmetic (None for +inf, where the
    strictness is not read)."""
    A, orient, (lo, hi), v = _setting(f, better, bounds, A)
    base = prop.removesuffix("_populated")
    if not reference_bases(prop, A):
        return None, None
    least = []
    if base == "range":
        # the distance inside each stated bound; a value on a bound is not a violation
        if v is not None:
            least += [v - b for b in (lo,) if b is not None] + [b - v for b in (hi,) if b is not None]
        return (min(least) if least else None), False
    if base == "identity":
        if v is None:
            return None, None
        loss = orient * (v - (lo if better == "lower" else hi))
        # on a diagonal matrix any distance from the best violates; elsewhere the loss must be > 0
        return (-abs(loss) if _diagonal(A) else loss), not _diagonal(A)
    if base in ("symmetry", "scale", "ordinal_invariance", "empty_class"):
        for B in _transformed(base, A):
            w = _value(f, B)
            if v is not None and w is not None:
                least.append(-abs(v - w))
            elif (v is None) != (w is None):
                least.append(Fraction(-1))  # defined on one side only: a violation
        return (min(least) if least else None), False
    if base in ("monotonicity", "ordinal_monotonicity"):
        for B in _moved(A):
            w = _value(f, B)
            if v is not None and w is not None:
                least.append(orient * (v - w))  # the loss before less the loss after
        return (min(least) if least else None), base == "ordinal_monotonicity"
    if base == "imbalance":
        for a1, a3 in _imbalance_pairs(A):
            v1, v3 = _value(f, a1), _value(f, a3)
            if v1 is not None and v3 is not None:
                least.append(orient * (v3 - v1))  # the rarer class's error must cost more
        return (min(least) if least else None), True
    assert base == "unobserved_class", prop
    # no slack of its own: Property.slack's fallback, 0 where the screen flags, else 1
    return Fraction(0 if v is None else 1), True


@pytest.mark.parametrize("name, f, better, bounds", METRICS, ids=[m[0] for m in METRICS])
def test_the_slacks_agree_with_the_relations_on_every_small_matrix(name, f, better, bounds):
    """Property.slack, the falsifier's objective, on every small matrix (and every
    small diagonal one for imbalance) equals the plain oracle above: the same
    margin to the nearest violation, +inf in the same places, the same strictness."""
    ev = FloatEvaluator(_float_stack(f), better, bounds)
    ctx = ExactContext(f, better, bounds)
    checked = 0
    for prop, p in PROPERTIES.items():
        if prop == "triangle" or p.not_applicable(ctx):
            continue
        region = "diagonal" if p.region == "diagonal" else "matrices"
        for (kind, _k), S in STACKS.items():
            if kind != region:
                continue
            got, strict = p.slack(ev, S)
            assert got.shape == strict.shape == (len(S),), prop
            # a bool array, as Property.slack documents: the falsifier combines it with
            # ``&`` (falsify._Search.objective), which refuses a float array (TypeError)
            assert strict.dtype == np.bool_, (prop, strict.dtype)
            for m, g, st in zip(S, got, strict):
                want, want_strict = reference_slack(prop, f, better, bounds, m)
                if want is None:
                    assert g == np.inf, (prop, m.tolist(), g)
                else:
                    assert g == pytest.approx(float(want), rel=1e-12, abs=1e-12), (
                        prop, m.tolist(), g, want)
                if want is not None:  # the strictness matters only where a slack is finite
                    assert bool(st) == want_strict, (prop, m.tolist(), st)
                checked += 1
    assert checked > 1000
