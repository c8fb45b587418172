"""george2016: the data printed in George, Lu, Chang (AIR 2016).

Source: ``shared/seeds/004_c1e927841b3b5ccf.txt`` (a machine transcription of
"Cost-sensitive performance metric for comparing multiple ordinal
classifiers").  Everything here is copied as transcribed; nothing is corrected
(corrections found by the tests are stated in
``proofs_tests/test_tables_george2016.py`` and the ledger, not here).

Orientation
    george2016 prints confusion matrices **predicted x true** (rows =
    predicted class, columns = true class, §2.2.1).  :data:`PRINTED` holds
    them as printed; :data:`MATRICES` holds the transposes, rows = true
    class, the convention of :mod:`numeric`.

Matrices
    Table 1 (a) colon cancer (SVM, glmnetcr, rpartScore; K = 4), (b) lung
    cancer (Sig24, Shuffle24, Rand24; K = 3), (c) ovarian cancer
    (p_1E-8 ... p_1E-5; K = 5); Table 4 (a) ``Acc_0.60``/``Acc_0.70`` and (b)
    ``Acc_0.70``/``Acc_0.80`` (K = 4), keyed ``"T4a_0.60"`` etc.

Tables
    :data:`TABLE_2` -- Table 2, rows ``d``, ``Accuracy``, ``AMAE``, ``tau_b``;
    cells are strings exactly as printed (``"1.1"`` has one decimal, ``"NA"``
    is printed for glmnetcr's tau_b).  :data:`TABLE_4` -- the values printed
    under each Table 4 matrix (``MC`` as a percentage string).
    :data:`TABLE_4_TIEBREAK` -- the tie-break distances printed in the text
    of §3.2 for Table 4(b).  :data:`TEXT_MC` -- the MC values of the Table 4
    matrices as printed in the text of §3.2 (fractions, 2 decimals).

Cost-matrix example (§2.2)
    :data:`COST_EXAMPLE_COUNTS` = (10, 20, 70), :data:`COST_EXAMPLE_FACTOR`
    (the weights, printed with ``90/70`` and ``80/70``),
    :data:`COST_EXAMPLE_LOSS` and :data:`COST_EXAMPLE_ROUNDED` (the printed
    approximate product), all predicted x true.

Examples
--------
>>> MATRICES["Sig24"][0], PRINTED["Sig24"][0]
((26, 4, 1), (26, 3, 0))
>>> TABLE_2["d"]["glmnetcr"]
'1.07'
"""

from __future__ import annotations

__all__ = [
    "KEY", "SEED", "PRINTED", "MATRICES", "GROUPS", "TABLE_2", "TABLE_2_ROWS",
    "TABLE_4", "TABLE_4_TIEBREAK", "TEXT_MC", "COST_EXAMPLE_COUNTS", "COST_EXAMPLE_FACTOR",
    "COST_EXAMPLE_LOSS", "COST_EXAMPLE_ROUNDED", "transpose",
]

KEY = "george2016"
SEED = "004_c1e927841b3b5ccf.txt"


def transpose(m):
    """Transpose a matrix given as a tuple of row tuples."""
    return tuple(zip(*m, strict=True))


#: Table 1 and Table 4 as printed: rows = predicted class, columns = true class.
PRINTED = {
    # Table 1(a), colon cancer, 4 AJCC stages (GSE17536)
    "SVM": ((21, 0, 0, 0), (1, 54, 2, 2), (2, 3, 55, 2), (0, 0, 0, 35)),
    "glmnetcr": ((0, 0, 0, 0), (0, 0, 0, 0), (24, 57, 57, 39), (0, 0, 0, 0)),
    "rpartScore": ((15, 2, 1, 0), (8, 46, 6, 0), (1, 8, 47, 14), (0, 1, 3, 25)),
    # Table 1(b), lung adenocarcinoma, 3 stages (GSE19804)
    "Sig24": ((26, 3, 0), (4, 5, 3), (1, 4, 10)),
    "Shuffle24": ((16, 0, 0), (4, 12, 0), (11, 0, 13)),
    "Rand24": ((18, 10, 6), (8, 0, 1), (5, 2, 6)),
    # Table 1(c), TCGA ovarian cancer, 5 stage groups
    "p_1E-8": ((7, 8, 5, 53, 2), (4, 2, 3, 44, 5), (0, 1, 1, 7, 2), (5, 19, 21, 242, 58), (0, 0, 2, 71, 17)),
    "p_1E-7": ((10, 5, 10, 83, 3), (0, 6, 3, 18, 7), (4, 6, 9, 52, 17), (2, 11, 8, 143, 29), (0, 2, 2, 121, 28)),
    "p_1E-6": ((10, 5, 9, 71, 3), (3, 10, 7, 28, 2), (2, 6, 8, 71, 21), (1, 7, 6, 105, 20), (0, 2, 2, 142, 38)),
    "p_1E-5": ((8, 6, 5, 54, 1), (4, 12, 5, 26, 1), (4, 5, 16, 105, 24), (0, 5, 3, 86, 17), (0, 2, 3, 146, 41)),
    # Table 4, simulated (N = 800 stated, largest class 75%)
    "T4a_0.60": ((444, 37, 27, 57), (144, 25, 18, 0), (2, 2, 8, 7), (10, 2, 14, 3)),
    "T4a_0.70": ((553, 8, 18, 2), (18, 1, 43, 53), (15, 37, 4, 11), (14, 20, 2, 2)),
    "T4b_0.70": ((539, 53, 33, 52), (19, 3, 24, 0), (42, 2, 3, 0), (0, 8, 7, 15)),
    "T4b_0.80": ((589, 4, 3, 1), (0, 4, 25, 17), (4, 14, 6, 8), (7, 44, 33, 41)),
}

#: The same matrices transposed: rows = true class (the :mod:`numeric` convention).
MATRICES = {k: transpose(v) for k, v in PRINTED.items()}

#: Classifiers compared together (same test set, hence the same class sizes).
GROUPS = {
    "colon": ("SVM", "glmnetcr", "rpartScore"),
    "lung": ("Sig24", "Shuffle24", "Rand24"),
    "ovarian": ("p_1E-8", "p_1E-7", "p_1E-6", "p_1E-5"),
    "table4": ("T4a_0.60", "T4a_0.70", "T4b_0.70", "T4b_0.80"),
}

TABLE_2_ROWS = ("d", "Accuracy", "AMAE", "tau_b")

#: Table 2 as printed (strings), row -> classifier -> cell.
TABLE_2 = {
    row: dict(zip(GROUPS["colon"] + GROUPS["lung"] + GROUPS["ovarian"], cells, strict=True))
    for row, cells in {
        "d": ("0.07", "1.07", "0.26", "0.33", "0.36", "0.68", "0.55", "0.70", "0.73", "0.74"),
        "Accuracy": ("0.93", "0.32", "0.75", "0.73", "0.73", "0.43", "0.46", "0.34", "0.30", "0.28"),
        "AMAE": ("0.11", "1.00", "0.29", "0.34", "0.28", "0.86", "1.15", "1.1", "0.97", "0.87"),
        "tau_b": ("0.91", "NA", "0.79", "0.72", "0.49", "0.08", "0.19", "0.19", "0.25", "0.28"),
    }.items()
}

#: The values printed under each Table 4 matrix.
TABLE_4 = {
    "T4a_0.60": {"d": "0.428", "AMAE": "1.222", "tau_b": "0.138", "MC%": "15"},
    "T4a_0.70": {"d": "0.449", "AMAE": "1.113", "tau_b": "0.637", "MC%": "33"},
    "T4b_0.70": {"d": "0.329", "AMAE": "1.256", "tau_b": "0.242", "MC%": "13"},
    "T4b_0.80": {"d": "0.331", "AMAE": "0.820", "tau_b": "0.843", "MC%": "26"},
}

#: §3.2: "These distances are 0.12 and 0.04 for Acc = 0.70 and Acc = 0.80".
TABLE_4_TIEBREAK = {"T4b_0.70": "0.12", "T4b_0.80": "0.04"}

#: §3.2, the MC values quoted in the text: 0.15 vs 0.33 (Table 4(a)) and
#: 0.13 vs 0.26 (Table 4(b)).
TEXT_MC = {"T4a_0.60": "0.15", "T4a_0.70": "0.33", "T4b_0.70": "0.13", "T4b_0.80": "0.26"}

#: §2.2, the cost-matrix example: class sizes 10, 20, 70.
COST_EXAMPLE_COUNTS = (10, 20, 70)
#: The weight matrix as printed (predicted x true); "90/70" and "80/70" kept as strings.
COST_EXAMPLE_FACTOR = (("0", "8", "3"), ("4.5", "0", "1.5"), ("90/70", "80/70", "0"))
#: The linear absolute-value loss ``|i - j|``.
COST_EXAMPLE_LOSS = ((0, 1, 2), (1, 0, 1), (2, 1, 0))
#: The printed (approximate, "≈") product.
COST_EXAMPLE_ROUNDED = (("0", "8", "6"), ("4.5", "0", "1.5"), ("2.6", "1.1", "0"))
