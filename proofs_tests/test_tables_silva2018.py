"""silva2018 Table I rebuilt cell by cell from matrices A-F (exact values).

Every cell of Table I (6 matrices x 13 columns) is compared with the exact
value rounded half-up to the printed decimals
(:func:`numeric.rounding.matches_printed`).  Where a cell reproduces only
under a convention, the convention is named in :data:`CONVENTIONS` and the
test shows that the other reading does *not* reproduce it.

Sources: ``shared/seeds/000_8630f6580e0e84f9.txt`` (silva2018), §IV.B and
Table I; data in :mod:`analytic.ledger.sources.silva2018`.
"""

from __future__ import annotations

import pytest
import sympy

import numeric
from numeric.registry import table_beta
from numeric.rounding import matches_printed, round_half_up
from analytic.ledger.sources import silva2018 as S
from analytic.ledger.checks import silva2018_tables as T

COLS = S.TABLE_I_COLUMNS
R = sympy.Rational
BETA1, BETA2 = (R(b) for b in S.TABLE_BETAS)  # 1/4, 3/4 as printed

# The conventions and the value of each cell live with the ledger's claims
# (analytic/ledger/checks/silva2018_tables.py), so both run the same code.
CONVENTIONS = T.CONVENTIONS
exact_cell = T.table_I_value
_column_mismatches = T.mismatching_rows
_card_sets = T.card_sets


CELLS = [(k, c) for k in S.TABLE_I for c in COLS]


@pytest.mark.parametrize("key,column", CELLS, ids=[f"{k}-{c}" for k, c in CELLS])
def test_table_I_cell(key, column):
    """Each of the 78 cells equals the exact value rounded half-up (conventions named)."""
    printed = S.TABLE_I[key][COLS.index(column)]
    missing = "zero" if (key, column) in CONVENTIONS else "ignore"
    value = exact_cell(key, column, missing=missing)
    assert matches_printed(value, printed), (key, column, value, printed)


def test_table_I_exact_values_of_matrix_B():
    """A few cells as exact rationals (derived by hand from CM_B, N = 18, K = 4).

    MER = MAE = MSE = 10/18; MMAE = 1 (classes 1 and 2 are off by one);
    AMAE = (1 + 1 + 0 + 0)/4; UOC_{1/4} = 11/24 (the docstring example).
    """
    assert exact_cell("B", "MER") == R(5, 9)
    assert exact_cell("B", "MAE") == R(5, 9)
    assert exact_cell("B", "MSE") == R(5, 9)
    assert exact_cell("B", "MMAE") == 1
    assert exact_cell("B", "AMAE") == R(1, 2)
    assert exact_cell("B", "UOC_beta1") == R(11, 24)


# ---------------------------------------------------------------------------
# conventions
# ---------------------------------------------------------------------------
def test_amae_of_E_needs_missing_zero():
    """silva2018 Table I, E/AMAE = 0.50 reproduces only with missing='zero'.

    E has no sample of class 3.  Averaging over the 3 observed classes
    (missing='ignore', macroblog's and imbalanced-learn's reading) gives
    (1 + 1 + 0)/3 = 2/3 -> 0.67; counting class 3 as zero error over K = 4
    gives 2/4 -> 0.50 (printed).  Diagnosis: a convention, stated in the text.
    """
    printed = S.TABLE_I["E"][COLS.index("AMAE")]
    assert exact_cell("E", "AMAE", missing="ignore") == R(2, 3)
    assert not matches_printed(R(2, 3), printed)
    assert exact_cell("E", "AMAE", missing="zero") == R(1, 2)
    assert matches_printed(R(1, 2), printed)
    # MMAE is the same under both readings (a zero never raises a maximum)
    assert exact_cell("E", "MMAE", missing="ignore") == exact_cell("E", "MMAE", missing="zero") == 1


def test_oc_columns_use_beta_over_N_times_K_minus_1():
    """Table I's OC columns use beta = 0.25/(N(K-1)) and 0.75/(N(K-1)), not the caption's 0.25, 0.75.

    With beta = 0.25/(N(K-1)) every OC cell reproduces (test_table_I_cell);
    the caption's beta used as written in eq. 11, or divided by N only or by
    K - 1 only, reproduces none of the rows B-F (row A is 0 for every beta).
    """
    for column, b in (("OC_beta1", BETA1), ("OC_beta2", BETA2)):
        assert _column_mismatches(column, lambda cm: numeric.oc(cm, table_beta(b).beta(cm), arithmetic="exact")) == []
        for wrong in (lambda cm: b, lambda cm: b / cm.sum(), lambda cm: b / (cm.shape[0] - 1)):
            bad = _column_mismatches(column, lambda cm: numeric.oc(cm, wrong(cm), arithmetic="exact"))
            assert bad == ["B", "C", "D", "E", "F"], (column, bad)


def test_uoc_columns_use_beta_as_printed():
    """Table I's UOC columns use beta = 0.25 and 0.75 exactly as eq. 22/28 write it.

    Scaling by N(K-1) (as for OC), by N or by K - 1 reproduces none of the
    rows B-F; un-recasting eq. 22 (beta -> N beta, eq. 21) breaks every
    UOC_beta1 cell of B-F.
    """
    for column, b in (("UOC_beta1", BETA1), ("UOC_beta2", BETA2)):
        assert _column_mismatches(column, lambda cm: numeric.uoc(cm, b, arithmetic="exact")) == []
        for wrong in (lambda cm: b / (cm.sum() * (cm.shape[0] - 1)), lambda cm: b / cm.sum(),
                      lambda cm: b / (cm.shape[0] - 1)):
            bad = _column_mismatches(column, lambda cm: numeric.uoc(cm, wrong(cm), arithmetic="exact"))
            assert bad == ["B", "C", "D", "E", "F"], (column, bad)
    bad = _column_mismatches("UOC_beta1", lambda cm: numeric.uoc(cm, BETA1 * int(cm.sum()), arithmetic="exact"))
    assert bad == ["B", "C", "D", "E", "F"]


# ---------------------------------------------------------------------------
# r_int: eq. 8 as transcribed
# ---------------------------------------------------------------------------
def _r_int_literal(cm, **kw):
    s1, s2, s12 = _card_sets(cm, **kw)
    return -1 + 2 * s12 / sympy.sqrt(sympy.Integer(s1) * s2)


def test_r_int_equals_the_literal_sums_of_eqs_8_to_10():
    """numeric.r_int (O(K^2) suffix sums) equals eqs. 8 (row x row), 9, 10 summed literally."""
    for key, cm in S.MATRICES.items():
        assert sympy.simplify(numeric.r_int(cm, arithmetic="exact")
                              - _r_int_literal(cm, eq8_as_transcribed=False)) == 0, key


def test_r_int_eq8_as_transcribed_does_not_reproduce_table_I():
    """silva2018 eq. 8 as transcribed (n_{i.} n_{.j}) does NOT reproduce Table I's r_int column.

    Printed r_int: A 1.00, B 0.86, C 0.69, D 0.74, E 0.53, F 0.79.  Ours
    (row x row, the definition of S_1 = ordered pairs with y_a <= y_b)
    reproduces all six.  The transcribed eq. 8 reproduces only A, where row
    and column sums coincide; it gives B 0.64, C 0.43, D 0.80, E 0.63,
    F 0.71.

    Diagnosis: a typo in eq. 8 (n_{.j} for n_{j.}), in the paper or in its
    transcription -- the transcription alone cannot tell which.  Evidence that
    the printed formula is wrong, not the table: (1) the paper's own Table I
    and cardoso2011's Tables 1-5 follow row x row; (2) eq. 9 is the same sum
    over column sums only, and eq. 7 treats S_1 and S_2 symmetrically; (3)
    as transcribed, card(S_1) can be negative and r_int can leave [-1, 1],
    which the text says it never does (next test).
    """
    printed = {k: S.TABLE_I[k][COLS.index("r_int")] for k in S.MATRICES}
    transcribed = {k: _r_int_literal(cm, eq8_as_transcribed=True) for k, cm in S.MATRICES.items()}
    ours = {k: numeric.r_int(cm, arithmetic="exact") for k, cm in S.MATRICES.items()}
    assert all(matches_printed(ours[k], printed[k]) for k in S.MATRICES)
    reproduced = [k for k in S.MATRICES if matches_printed(transcribed[k], printed[k])]
    assert reproduced == ["A"]
    assert {k: str(round_half_up(transcribed[k], 2)) for k in "BCDEF"} == {
        "B": "16/25", "C": "43/100", "D": "4/5", "E": "63/100", "F": "71/100"}


def test_r_int_eq8_as_transcribed_breaks_its_own_range():
    """As transcribed, eq. 8 gives a negative cardinality and an r_int above 1.

    [[0, 0], [3, 0]]: card(S_1) = -3.  [[0, 0], [2, 2]]: card(S_1) = 4,
    card(S_2) = card(S_1 & S_2) = 8, r_int = -1 + 2*8/sqrt(32) = 2 sqrt(2) - 1
    = 1.83 > 1, against "all three indices ... vary between -1 and 1".
    """
    assert _card_sets([[0, 0], [3, 0]], eq8_as_transcribed=True)[0] == -3
    v = _r_int_literal([[0, 0], [2, 2]], eq8_as_transcribed=True)
    assert sympy.simplify(v - (2 * sympy.sqrt(2) - 1)) == 0 and v > 1
    # with the definition (row x row) the same matrix is a valid r_int
    assert -1 <= numeric.r_int([[0, 0], [2, 2]], arithmetic="exact") <= 1


# ---------------------------------------------------------------------------
# Table II: no matrices; only relations between printed cells can be checked
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("table", ["I", "II"])
def test_printed_rows_obey_the_metrics_inequalities(table):
    """Relations every confusion matrix satisfies, checked on the printed (rounded) cells.

    Table II's matrices appear only as figures (Figs. 4-5), so its cells
    cannot be rebuilt; these relations are what can be checked.  For every
    matrix: MER <= MAE (a wrong class costs >= 1), MAE <= MSE (d <= d^2 for
    integer d), AMAE <= MMAE, OC and UOC non-decreasing in beta, and, UOC
    being concave and non-decreasing on [0, 1] with UOC_0 >= 0,
    A_UOC >= (3/8) UOC_{1/4} + (1/2) UOC_{3/4} (below: the chords through
    (0, 0), (1/4, UOC_{1/4}), (3/4, UOC_{3/4}), then UOC_{3/4}) and
    A_UOC <= (1/4) UOC_{1/4} + (3/4) UOC_{3/4} (above: the chord through
    1/4 and 3/4 extended to both ends, UOC_{3/4} in between).  Rounding
    slack of the printed decimals is taken into account.
    """
    rows = S.TABLE_I if table == "I" else S.TABLE_II
    assert len(rows) == 6
    for name, cells in rows.items():
        assert T.printed_row_violations(cells) == [], name


def test_printed_row_relations_can_fail():
    """The relations reject impossible rows: Table I's row B with MER above MAE, OC_beta1 above
    OC_beta2, A_UOC below its lower chord bound, and R_s = 1.10."""
    cells = dict(zip(COLS, S.TABLE_I["B"], strict=True))
    cells.update(MER="0.70", OC_beta1="0.60", A_UOC="0.30", R_s="1.10")
    assert T.printed_row_violations([cells[c] for c in COLS]) == [
        "MER <= MAE", "OC_beta1 <= OC_beta2", "A_UOC lower bound", "R_s in [-1, 1]"]


def test_a_uoc_bounds_hold_for_exact_values():
    """The A_UOC bounds of the previous test hold exactly for matrices A-F (they are theorems)."""
    for key, cm in S.MATRICES.items():
        u1, u2 = numeric.uoc(cm, BETA1, arithmetic="exact"), numeric.uoc(cm, BETA2, arithmetic="exact")
        a = numeric.a_uoc(cm, arithmetic="exact")
        assert R(3, 8) * u1 + R(1, 2) * u2 <= a <= R(1, 4) * u1 + R(3, 4) * u2, key
