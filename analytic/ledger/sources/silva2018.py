"""silva2018: the data printed in Silva, Pinto, Cardoso (IJCNN 2018).

Source: ``shared/seeds/000_8630f6580e0e84f9.txt`` (a machine transcription of
"A Uniform Performance Index for Ordinal Classification with Imbalanced
Classes").  Everything here is copied as transcribed; nothing is corrected.

Matrices
    :data:`MATRICES` -- the simulated confusion matrices ``CM_A`` ... ``CM_F``
    of §IV.B (K = 4), rows = true class, columns = predicted class, exactly as
    the paper prints them (the paper uses that orientation, like cardoso2011).
    Matrix E has no sample of class 3 (an unobserved class, §III.C); matrix F
    is D with the first row multiplied by 10 (an imbalanced test set).

Tables
    :data:`TABLE_I` -- Table I, "Results for the simulated confusion matrices,
    with beta_1 = 0.25 and beta_2 = 0.75", one tuple of 13 cells per matrix,
    in the order of :data:`TABLE_I_COLUMNS`.  Cells are *strings exactly as
    printed* ("0.56", "1.00"), so the number of printed decimals is kept; a
    cell is compared with the exact value rounded half-up to those decimals
    (:func:`numeric.rounding.matches_printed`).

    :data:`TABLE_II` -- Table II, the same 13 columns for three classifiers on
    two real data sets.  Its confusion matrices appear only as figures
    (Figs. 4 and 5), which the transcription does not hold, so Table II
    cannot be rebuilt from this source (claim ``silva2018:table2:rebuild``
    checks relations between its cells).

beta
    The caption of Tables I and II prints beta_1 = 0.25 and beta_2 = 0.75
    (:data:`TABLE_BETAS`).  For UOC these are used as printed (eq. 22 recasts
    N beta as beta); for OC the table uses cardoso2011's scaling
    beta / (N (K - 1)^gamma) -- see ``proofs_tests/test_tables_silva2018.py``.

Examples
--------
>>> import numpy as np
>>> int(np.asarray(MATRICES["F"]).sum()), TABLE_I["F"][TABLE_I_COLUMNS.index("A_UOC")]
(54, '0.61')
"""

from __future__ import annotations

__all__ = [
    "KEY", "SEED", "MATRICES", "TABLE_I_COLUMNS", "TABLE_I", "TABLE_II",
    "TABLE_II_ROWS", "TABLE_BETAS", "GAMMA",
]

KEY = "silva2018"
SEED = "000_8630f6580e0e84f9.txt"

#: §IV.B, the simulated matrices CM_A ... CM_F (K = 4), rows = true class.
MATRICES = {
    "A": ((4, 0, 0, 0), (0, 6, 0, 0), (0, 0, 5, 0), (0, 0, 0, 3)),
    "B": ((0, 4, 0, 0), (0, 0, 6, 0), (0, 0, 5, 0), (0, 0, 0, 3)),
    "C": ((0, 0, 4, 0), (0, 0, 6, 0), (0, 0, 5, 0), (0, 0, 0, 3)),
    "D": ((0, 4, 0, 0), (6, 0, 0, 0), (0, 0, 5, 0), (0, 0, 0, 3)),
    "E": ((0, 4, 0, 0), (6, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 3)),
    "F": ((0, 40, 0, 0), (6, 0, 0, 0), (0, 0, 5, 0), (0, 0, 0, 3)),
}

#: Column order of Tables I and II (the paper's header, left to right).
TABLE_I_COLUMNS = (
    "MER", "MSE", "MAE", "MMAE", "AMAE", "R_s", "tau_b", "r_int",
    "OC_beta1", "OC_beta2", "UOC_beta1", "UOC_beta2", "A_UOC",
)

#: Table I as printed (strings), one row per matrix of :data:`MATRICES`.
TABLE_I = {
    "A": ("0.00", "0.00", "0.00", "0.00", "0.00", "1.00", "1.00", "1.00", "0.00", "0.00", "0.00", "0.00", "0.00"),
    "B": ("0.56", "0.56", "0.56", "1.00", "0.50", "0.90", "0.86", "0.86", "0.40", "0.50", "0.46", "0.67", "0.56"),
    "C": ("0.56", "1.22", "0.78", "2.00", "0.75", "0.67", "0.61", "0.69", "0.50", "0.63", "0.62", "0.71", "0.65"),
    "D": ("0.56", "0.56", "0.56", "1.00", "0.50", "0.73", "0.60", "0.74", "0.53", "0.58", "0.56", "0.67", "0.61"),
    "E": ("0.77", "0.77", "0.77", "1.00", "0.50", "0.24", "0.11", "0.53", "0.65", "0.72", "0.68", "0.80", "0.74"),
    "F": ("0.85", "0.85", "0.85", "1.00", "0.50", "0.29", "0.23", "0.79", "0.58", "0.71", "0.56", "0.67", "0.61"),
}

#: Row labels of Table II (data set, classifier), in printed order.
TABLE_II_ROWS = ("Wine kNN", "Wine SVM", "Wine RF", "ESL kNN", "ESL SVM", "ESL RF")

#: Table II as printed (strings); columns as :data:`TABLE_I_COLUMNS`.
#: No matrices are printed (Figs. 4-5 only): these cells cannot be rebuilt.
TABLE_II = {
    "Wine kNN": ("0.38", "0.58", "0.44", "3.00", "1.10", "0.57", "0.52", "0.64", "0.46", "0.48", "0.76", "0.82", "0.79"),
    "Wine SVM": ("0.37", "0.50", "0.41", "3.00", "1.27", "0.53", "0.50", "0.65", "0.42", "0.44", "0.82", "0.87", "0.84"),
    "Wine RF": ("0.33", "0.38", "0.34", "2.00", "0.88", "0.66", "0.62", "0.71", "0.37", "0.39", "0.70", "0.81", "0.75"),
    "ESL kNN": ("0.37", "0.39", "0.37", "1.00", "0.50", "0.91", "0.84", "0.81", "0.39", "0.40", "0.54", "0.72", "0.63"),
    "ESL SVM": ("0.31", "0.80", "0.40", "5.00", "1.11", "0.83", "0.79", "0.78", "0.37", "0.38", "0.75", "0.80", "0.78"),
    "ESL RF": ("0.37", "0.46", "0.40", "2.00", "0.61", "0.91", "0.83", "0.81", "0.41", "0.42", "0.63", "0.73", "0.68"),
}

#: The captions' beta_1 and beta_2, as printed.
TABLE_BETAS = ("0.25", "0.75")

#: The tables' gamma (the column headers print OC^1; §III.A proposes gamma = 1).
GAMMA = 1
