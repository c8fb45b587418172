"""macroblog: the post's own code is a peer for AMAE and macro RMSE.

The post ("Macroaveraged MAE and RMSE for ordinal classification in Python",
``shared/seeds/003_a75846058968dfdc.txt``) prints reference code and a
worked example (``y``, ``yhat``) but not the example's output, and a table of
four numbers whose confusion matrices are shown only as plots.  Data in
:mod:`analytic.ledger.sources.macroblog`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

import numeric
from numeric.rounding import printed_interval
from analytic.ledger.checks.macroblog import example_matrix as _cm
from analytic.ledger.sources import macroblog as M


# --- the post's code, transcribed verbatim (its reference implementation) ----
def groupby_labels(y, yhat):
    """Based on https://stackoverflow.com/questions/38013778/is-there-any-numpy-group-by-function
    """
    m = np.stack([y, yhat]).T
    m = m[m[:, 0].argsort()]
    grouped_preds = np.split(m[:, 1], np.unique(m[:, 0], return_index=True)[1])[1:]
    labels = np.unique(m[:, 0])
    return labels, grouped_preds


def mae_macro(y, yhat):
    """Macroaveraged MAE
    """
    labels, preds = groupby_labels(y, yhat)
    mean_diff = np.array([np.abs(label - pred).mean()
                          for label, pred in zip(labels, preds)]).mean()
    return mean_diff


def rmse_macro(y, yhat):
    """Macroaveraged RMSE
    """
    labels, preds = groupby_labels(y, yhat)
    mean_diff = np.array([np.power(label - pred, 2).mean()
                          for label, pred in zip(labels, preds)]).mean()
    return np.sqrt(mean_diff)
# ------------------------------------------------------------------------------


def test_worked_example_exact_values():
    """y = [1,2,3,1,2], yhat = [3,2,2,1,2]: AMAE = 2/3, macro RMSE = 1 (exact).

    By hand: class 1 errors |1-3|, |1-1| -> MAE 1, MSE 2; class 2 -> 0, 0;
    class 3 error |3-2| -> 1, 1.  AMAE = (1 + 0 + 1)/3 = 2/3; macro RMSE =
    sqrt((2 + 0 + 1)/3) = 1.  The post's code gives the same in float64.
    """
    cm = _cm(M.EXAMPLE_Y, M.EXAMPLE_YHAT)
    assert cm.tolist() == [[1, 0, 1], [0, 2, 0], [0, 1, 0]]
    assert numeric.amae(cm, arithmetic="exact") == sympy.Rational(2, 3)
    assert numeric.macro_rmse(cm, arithmetic="exact") == 1
    y, yhat = np.array(M.EXAMPLE_Y), np.array(M.EXAMPLE_YHAT)
    assert abs(mae_macro(y, yhat) - 2 / 3) <= 1e-15
    assert rmse_macro(y, yhat) == 1.0
    assert numeric.amae(cm) == pytest.approx(mae_macro(y, yhat), rel=1e-15)
    assert numeric.macro_rmse(cm) == rmse_macro(y, yhat)


def test_post_code_is_a_peer_on_random_labels():
    """amae / macro_rmse equal the post's mae_macro / rmse_macro on 300 random label vectors.

    The post averages over the classes present in ``y`` (numeric's
    missing='ignore'); classes only predicted count through their distance.
    """
    rng = np.random.default_rng(2009)
    for _ in range(300):
        K = int(rng.integers(2, 9))
        n = int(rng.integers(1, 40))
        y = rng.integers(1, K + 1, size=n)
        yhat = np.clip(y + rng.integers(-2, 3, size=n), 1, K)
        cm = numeric.confusion_matrix(y, yhat, labels=np.arange(1, K + 1))
        assert numeric.amae(cm) == pytest.approx(mae_macro(y, yhat), rel=1e-12, abs=1e-15)
        assert numeric.macro_rmse(cm) == pytest.approx(rmse_macro(y, yhat), rel=1e-12, abs=1e-15)


def test_an_absent_middle_class_must_be_listed():
    """y = [1, 3], yhat = [3, 1]: the post's distance is 2; without class 2 in ``labels``
    the matrix has K = 2 and distance 1 -- numeric follows the matrix it is given."""
    y, yhat = [1, 3], [3, 1]
    assert mae_macro(np.array(y), np.array(yhat)) == 2.0
    assert numeric.amae(numeric.confusion_matrix(y, yhat), arithmetic="exact") == 1
    assert numeric.amae(numeric.confusion_matrix(y, yhat, labels=[1, 2, 3]), arithmetic="exact") == 2


def test_macro_rmse_takes_the_root_after_averaging():
    """The post's rmse_macro is sqrt(mean_k MSE_k), not mean_k sqrt(MSE_k).

    On the worked example: sqrt((2 + 0 + 1)/3) = 1, while the mean of the
    per-class RMSEs is (sqrt(2) + 0 + 1)/3 = 0.8047.
    """
    cm = _cm(M.EXAMPLE_Y, M.EXAMPLE_YHAT)
    mean_of_roots = (sympy.sqrt(2) + 0 + 1) / 3
    assert numeric.macro_rmse(cm, arithmetic="exact") == 1 != mean_of_roots


# --- the post's table ----------------------------------------------------------
def test_table_cannot_be_rebuilt_but_obeys_the_metrics_inequalities():
    """The table (RMSE 1.67/1.66, macro RMSE 1.6/1.3, MAE 0.78/0.9, macro MAE 1.09/0.89)
    has no matrices in the source (plots only, in percent): it cannot be rebuilt.

    What can be checked are relations every matrix satisfies, with the
    printed rounding slack: MAE <= RMSE and AMAE <= macro RMSE (Jensen), and
    RMSE^2 <= (K-1) MAE, macro RMSE^2 <= (K-1) AMAE (d^2 <= (K-1) d on a
    K = 5 star scale, the post's "1" ... "5").  All hold; the exact
    relations themselves are checked in test_inequalities_hold_exactly.
    """
    K = 5
    for j, _ in enumerate(M.TABLE_COLUMNS):
        c = {row: printed_interval(cells[j]) for row, cells in M.TABLE.items()}
        assert c["MAE"][0] <= c["RMSE"][1]
        assert c["Macro MAE"][0] <= c["Macro RMSE"][1]
        assert c["RMSE"][0] ** 2 <= (K - 1) * c["MAE"][1]
        assert c["Macro RMSE"][0] ** 2 <= (K - 1) * c["Macro MAE"][1]
    # one-decimal cells get the wider slack of one decimal (+-0.05), not +-0.005
    assert printed_interval(M.TABLE["Macro RMSE"][1]) == (Fraction(5, 4), Fraction(27, 20))


def test_inequalities_hold_exactly():
    """MAE <= RMSE, AMAE <= macro RMSE, RMSE^2 <= (K-1) MAE, macro RMSE^2 <= (K-1) AMAE,
    exactly, on 150 random matrices (K = 2..6, rows may be empty)."""
    rng = np.random.default_rng(3)
    ex = dict(arithmetic="exact")
    for _ in range(150):
        K = int(rng.integers(2, 7))
        cm = rng.integers(0, 4, size=(K, K)) * (rng.random((K, K)) < 0.6)
        cm[0, 0] += 1
        mae, rmse = numeric.mae(cm, **ex), numeric.rmse(cm, **ex)
        amae, mrmse = numeric.amae(cm, **ex), numeric.macro_rmse(cm, **ex)
        assert mae <= rmse and amae <= mrmse
        assert rmse**2 <= (K - 1) * mae and sympy.expand(mrmse**2) <= (K - 1) * amae
