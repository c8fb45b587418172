"""macroblog: the worked example of the post's code, and its table of four measures.

The post prints reference code (``mae_macro``, ``rmse_macro``) and a worked
example, but not the example's output; its table has no matrices (plots
only).  ``proofs_tests/test_macroblog.py`` runs the post's code itself as a
peer.
"""

from __future__ import annotations

import numpy as np
import sympy

import numeric
from numeric.rounding import printed_interval

from analytic.ledger import Outcome, claim
from ..sources import macroblog as src

__all__ = ["example_matrix"]

EX = dict(arithmetic="exact")


def example_matrix(y=src.EXAMPLE_Y, yhat=src.EXAMPLE_YHAT):
    """Confusion matrix over every class between the smallest and largest label.

    The post measures ``|label - pred|`` on the label values; the matrix measures
    ``|i - j|`` on class indices, so a class absent from both vectors must still
    be listed in ``labels``.  Defaults: the post's worked example.
    """
    lo, hi = min(min(y), min(yhat)), max(max(y), max(yhat))
    return numeric.confusion_matrix(y, yhat, labels=np.arange(lo, hi + 1))


@claim("macroblog:example:mae-macro",
       source=("macroblog", "code, __main__ block: mae_macro(y, yhat)"),
       statement="Macro-averaged MAE of y = [1,2,3,1,2], yhat = [3,2,2,1,2] (output not printed)",
       method="exact AMAE (missing='ignore', the post's average over the classes present in y) "
              "of the example's confusion matrix",
       expect="verified")
def _example_mae():
    cm = example_matrix()
    v = numeric.amae(cm, **EX)
    if v == sympy.Rational(2, 3):
        return Outcome("verified", f"matrix {cm.tolist()}; per-class MAE 1, 0, 1 -> AMAE = {v}; "
                                   "the post's own code returns the same (proofs_tests/test_macroblog.py)",
                       closed_form=str(v))
    return Outcome("refuted", f"AMAE = {v}")


@claim("macroblog:example:rmse-macro",
       source=("macroblog", "code, __main__ block: rmse_macro(y, yhat)"),
       statement="Macro-averaged RMSE of the example, the square root of the mean per-class MSE "
                 "(output not printed)",
       method="exact macro RMSE of the example's confusion matrix",
       expect="verified")
def _example_rmse():
    cm = example_matrix()
    v = numeric.macro_rmse(cm, **EX)
    if v == 1:
        return Outcome("verified", "per-class MSE 2, 0, 1 -> sqrt(3/3) = 1 (the mean of per-class RMSEs "
                                   "would be (sqrt 2 + 1)/3 = 0.80); the post's code returns 1.0",
                       closed_form=str(v))
    return Outcome("refuted", f"macro RMSE = {v}")


@claim("macroblog:table:rebuild",
       source=("macroblog", "Example, table of RMSE, Macro RMSE, MAE, Macro MAE"),
       statement="RMSE 1.67/1.66, macro RMSE 1.6/1.3, MAE 0.78/0.9, macro MAE 1.09/0.89 "
                 "(unbalanced/balanced training)",
       method="none possible: the two confusion matrices are shown only as plots (percentages), "
              "not transcribed; relations valid for every matrix are checked on the printed cells",
       expect="not reproduced")
def _table():
    K = 5  # the post's "1" ... "5" star scale
    ok = True
    for j in range(len(src.TABLE_COLUMNS)):
        c = {row: printed_interval(cells[j]) for row, cells in src.TABLE.items()}
        ok &= c["MAE"][0] <= c["RMSE"][1] and c["Macro MAE"][0] <= c["Macro RMSE"][1]
        ok &= c["RMSE"][0] ** 2 <= (K - 1) * c["MAE"][1]
        ok &= c["Macro RMSE"][0] ** 2 <= (K - 1) * c["Macro MAE"][1]
    if not ok:
        return Outcome("refuted", "the printed cells violate a relation every confusion matrix obeys")
    return Outcome("not reproduced",
                   "cannot be rebuilt: no matrices in the source.  The relations MAE <= RMSE, AMAE <= macro "
                   "RMSE, RMSE^2 <= (K-1) MAE and macro RMSE^2 <= (K-1) AMAE (K = 5) hold on the printed "
                   "cells within their rounding; 'Macro RMSE' and one MAE cell are printed with one decimal")
