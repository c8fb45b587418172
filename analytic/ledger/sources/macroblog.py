"""macroblog: the data printed in "Macroaveraged MAE and RMSE for ordinal
classification in Python" (a blog post).

Source: ``shared/seeds/003_a75846058968dfdc.txt``.

``EXAMPLE_Y``, ``EXAMPLE_YHAT``
    The label vectors of the ``__main__`` block of the post's code.  The post
    prints the code, not its output.
``TABLE``
    "The table below compares four evaluation measures for these two
    classifiers": RMSE, macro RMSE, MAE and macro MAE of a classifier trained
    on unbalanced data and one trained after SMOTE oversampling, as strings
    exactly as printed (note "1.6", "1.3" and "0.9" carry one decimal).  The
    two confusion matrices behind it are shown only as plots, in percent,
    which the transcription does not hold: the table cannot be rebuilt.

The post's ``mae_macro`` and ``rmse_macro`` (Baccianella et al. 2009) average
over the classes present in ``y`` and take the square root *after* averaging
the per-class MSE (``numeric.macro_rmse``).

Examples
--------
>>> TABLE["Macro MAE"]
('1.09', '0.89')
"""

from __future__ import annotations

__all__ = ["KEY", "SEED", "EXAMPLE_Y", "EXAMPLE_YHAT", "TABLE_COLUMNS", "TABLE"]

KEY = "macroblog"
SEED = "003_a75846058968dfdc.txt"

#: ``y`` of the post's worked example (true labels).
EXAMPLE_Y = (1, 2, 3, 1, 2)
#: ``yhat`` of the post's worked example (predicted labels).
EXAMPLE_YHAT = (3, 2, 2, 1, 2)

#: Column order of the table.
TABLE_COLUMNS = ("Unbalanced", "Balanced")

#: The table as printed; rows in printed order.
TABLE = {
    "RMSE": ("1.67", "1.66"),
    "Macro RMSE": ("1.6", "1.3"),
    "MAE": ("0.78", "0.9"),
    "Macro MAE": ("1.09", "0.89"),
}
