"""cardoso2011: the data printed in Cardoso and Sousa (IJPRAI 2011).

Source: ``shared/seeds/001_bb94c57be16931ab.txt`` (a machine transcription of
"Measuring the performance of ordinal classification").  Matrices and cells
are copied as transcribed; reconstructions and corrections are kept apart,
in :data:`TABLE1_RECONSTRUCTED` and :data:`CORRECTED_CANDIDATES`, and the
tests that justify them are named there.

Orientation: rows = true class, columns = predicted class (§1.1: "a table
with the true class in rows and the predicted class in columns").

Tables (cells are *strings exactly as printed*, so "0.0", "0.77" and
"-0.254" keep their decimals; compare with
:func:`numeric.rounding.matches_printed`), columns :data:`COLUMNS`:

``TABLE1``
    §2, Table 1, classifiers A-D (K = 4, N = 13).  Only CM(A) and CM(B) are
    printed (:data:`MATRICES`); C and D are described in words only.
``TABLE2``
    §4, Table 2, CM_1 and CM_2.  The transcription lost the CM_1 row except
    one cell, "0.50", under MER (its row label is lost too); the other
    CM_1 cells are ``None``.
``TABLE3``, ``TABLE4``, ``TABLE5``
    §4, CM_3/CM_4, CM_5/CM_6 and CM_10/CM_11/CM_12.  Table 3 prints the two
    tau_b cells with three decimals ("-0.254", "-0.250").
``TABLE6``
    §4, OCI mean (std. dev.) over 50 splits on five real data sets; no
    matrices are printed, so it cannot be rebuilt (claim
    ``cardoso2011:table6:rebuild`` checks what the cells allow).

beta: every table uses beta_1 = 0.25 / (N (K-1)^gamma) and
beta_2 = 0.75 / (N (K-1)^gamma) with gamma = 1 (captions; §4 "a percentage
of the maximum possible value for the penalization term, N(K-1)^gamma").
:data:`BETA_NUMERATORS` holds 0.25 and 0.75; :func:`numeric.registry.table_beta`
computes beta for a matrix (the one definition, also the registry's OC variants).

Printed formulas (strings for :func:`parse`, in the symbols of
:mod:`analytic.symbols`): :data:`SINGLE_SAMPLE_OC` (§3.2) and
:data:`APPENDIX_A_BOUND` (Appendix A).

Examples
--------
>>> import numpy as np
>>> int(np.asarray(MATRICES["CM_10"]).sum()), TABLE5["CM_10"][COLUMNS.index("OC_beta2")]
(240, '0.13')
>>> from numeric.registry import table_beta
>>> table_beta(BETA_NUMERATORS[1], gamma=GAMMA).beta(MATRICES["CM_10"])
Fraction(1, 1280)
>>> parse(APPENDIX_A_BOUND, N=2)
1/12
>>> tridiagonal(3)
((1, 1, 0), (1, 1, 1), (0, 1, 1))
"""

from __future__ import annotations

import sympy

from analytic.symbols import N, beta, d

from ._trusted import check_own

__all__ = [
    "KEY", "SEED", "COLUMNS", "MATRICES", "TABLE1", "TABLE1_RECONSTRUCTED",
    "TABLE2", "TABLE3", "TABLE4", "TABLE5", "TABLE6", "TABLE6_COLUMNS",
    "CORRECTED_CANDIDATES", "BETA_NUMERATORS", "GAMMA", "TRIDIAGONAL_LIMITS",
    "tridiagonal", "triangle_matrices", "parse",
    "SINGLE_SAMPLE_OC", "APPENDIX_A_BOUND",
]

KEY = "cardoso2011"
SEED = "001_bb94c57be16931ab.txt"

#: Column order of Tables 1-5 (the papers' header, left to right).
COLUMNS = ("MER", "MAE", "R_s", "tau_b", "r_int", "OC_beta1", "OC_beta2")

#: Every matrix the paper prints, rows = true class, as transcribed.
MATRICES = {
    # §2, Table 1 (K = 4, N = 13); C and D are not printed
    "A": ((4, 0, 0, 0), (0, 6, 0, 0), (0, 0, 0, 0), (0, 0, 0, 3)),
    "B": ((0, 4, 0, 0), (0, 0, 6, 0), (0, 0, 0, 0), (0, 0, 0, 3)),
    # §4, "Dispersed examples"
    "CM_1": ((2, 0, 1), (1, 1, 0), (2, 1, 2)),
    "CM_2": ((1, 0, 0), (0, 4, 0), (2, 2, 1)),
    "CM_3": ((1, 0, 1), (0, 0, 0), (3, 2, 0)),
    "CM_4": ((1, 0, 1), (0, 2, 1), (1, 1, 0)),
    "CM_5": ((1, 1, 0, 0), (0, 1, 0, 1), (0, 0, 0, 3), (0, 0, 0, 0)),
    "CM_6": ((0, 0, 1, 0), (1, 1, 1, 0), (1, 1, 1, 0), (0, 0, 0, 0)),
    # §4, "Evaluation of real classifiers" (oSVM, oNN, Frank & Hall)
    "CM_10": ((0, 0, 0, 0, 0), (0, 50, 7, 0, 0), (0, 2, 94, 2, 0), (0, 0, 11, 39, 0), (0, 0, 0, 5, 30)),
    "CM_11": ((0, 0, 0, 0, 0), (0, 0, 45, 12, 0), (0, 0, 2, 87, 9), (0, 0, 0, 6, 44), (0, 0, 0, 0, 35)),
    "CM_12": ((0, 0, 0, 0, 0), (0, 50, 7, 0, 0), (0, 2, 94, 2, 0), (0, 0, 21, 29, 0), (0, 0, 0, 29, 6)),
}

#: Table 1 as printed.  The transcription labels row B with a Cyrillic "В"
#: (U+0412); the key here is the Latin "B".
TABLE1 = {
    "A": ("0.0", "0.0", "1.0", "1.0", "1.0", "0.0", "0.0"),
    "B": ("0.77", "0.77", "1.0", "1.0", "1.0", "0.50", "0.63"),
    "C": ("0.77", "1.08", "0.79", "0.75", "0.80", "0.61", "0.78"),
    "D": ("0.77", "0.77", "0.24", "0.11", "0.53", "0.65", "0.72"),
}

#: NOT PRINTED: the matrices C and D of Table 1 as reconstructed by an
#: exhaustive search (``proofs_tests/test_tables_cardoso2011.py``): among all
#: 4x4 count matrices with the true-class counts (4, 6, 0, 3) of CM(A) and
#: CM(B) (58 800 matrices), each is the only one that reproduces its whole
#: Table 1 row.  They equal silva2018's CM_C and CM_E with class 3 emptied.
TABLE1_RECONSTRUCTED = {
    "C": ((0, 0, 4, 0), (0, 0, 6, 0), (0, 0, 0, 0), (0, 0, 0, 3)),
    "D": ((0, 4, 0, 0), (6, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 3)),
}

#: Table 2 as transcribed: CM_1 keeps only its MER cell.
TABLE2 = {
    "CM_1": ("0.50", None, None, None, None, None, None),
    "CM_2": ("0.40", "0.60", "0.10", "0.11", "0.45", "0.53", "0.58"),
}

#: Table 3 as printed (tau_b with three decimals).
TABLE3 = {
    "CM_3": ("0.86", "1.43", "-0.26", "-0.254", "0.34", "0.79", "0.93"),
    "CM_4": ("0.57", "0.85", "-0.25", "-0.250", "0.08", "0.71", "0.75"),
}

#: Table 4 as printed.
TABLE4 = {
    "CM_5": ("0.86", "1.00", "0.89", "0.84", "0.81", "0.58", "0.75"),
    "CM_6": ("0.71", "1.00", "-0.29", "-0.26", "0.06", "0.74", "0.79"),
}

#: Table 5 as printed.
TABLE5 = {
    "CM_10": ("0.11", "0.11", "0.93", "0.91", "0.91", "0.12", "0.13"),
    "CM_11": ("0.82", "0.91", "0.89", "0.85", "0.84", "0.55", "0.66"),
    "CM_12": ("0.25", "0.25", "0.90", "0.86", "0.86", "0.23", "0.26"),
}

#: Columns of Table 6 (learning schemes).
TABLE6_COLUMNS = ("oSVM", "Frank&Hall", "Conventional")

#: Table 6 as printed, "mean (std. dev.)" of OCI; no matrices are printed.
TABLE6 = {
    "SWD": ("0.49 (0.02)", "0.47 (0.01)", "0.49 (0.02)"),
    "LEV": ("0.44 (0.02)", "0.46 (0.02)", "0.47 (0.02)"),
    "ESL": ("0.36 (0.00)", "0.36 (0.01)", "0.36 (0.01)"),
    "Balance": ("0.13 (0.01)", "0.13 (0.01)", "0.14 (0.02)"),
    "BCCT": ("0.39 (0.01)", "0.39 (0.01)", "0.40 (0.01)"),
}

#: NOT PRINTED: corrected candidates of transcribed matrices that do not
#: reproduce their table row (diagnosis in the tests).  CM_5 as printed
#: reproduces none of its 7 cells of Table 4; moving one sample of row 2
#: from column 2 to column 3 reproduces all 7, and of the 8 matrices of an
#: exhaustive search (all 4x4, N = 7) that reproduce the row it is the only
#: one that differs from the printed matrix by a single moved sample.
CORRECTED_CANDIDATES = {
    "CM_5": ((1, 1, 0, 0), (0, 0, 1, 1), (0, 0, 0, 3), (0, 0, 0, 0)),
}

#: beta_1 and beta_2 numerators; beta_i = numerator / (N (K-1)^gamma).
BETA_NUMERATORS = ("0.25", "0.75")

#: gamma of every table (§4: "we only present the experimental study for gamma = 1").
GAMMA = 1

#: §4 "Tridiagonal matrices": limits as K -> oo, as printed in the text.
TRIDIAGONAL_LIMITS = {
    "MER": "2/3", "MAE": "2/3", "OC": "0.6",
    "R_s": "1", "tau_b": "1", "r_int": "1",
}


#: §3.2, one sample at distance ``|r-c| = d``, the sloped branch of
#: ``"OC^gamma_beta = min(1; 1 - 1/(1+|r-c|) + beta |r-c|)"`` (as printed).
SINGLE_SAMPLE_OC = "1 - 1/(1 + d) + beta*d"

#: Appendix A: "for beta < (N-1)/((N+1)(N+2)) we have OC(a,b) + OC(b,c) < OC(a,c)".
APPENDIX_A_BOUND = "(N - 1)/((N + 1)*(N + 2))"

_NAMES = {"N": N, "beta": beta, "d": d}


def _check_own(expr):
    """``ValueError`` unless ``expr`` is one of this module's own transcribed strings
    (:func:`analytic.ledger.sources._trusted.check_own`)."""
    check_own(expr, globals())


def parse(expr, **subs):
    """A printed cardoso2011 formula as a SymPy expression in ``N``, ``beta``, ``d``
    (:mod:`analytic.symbols`); ``subs`` substitutes values by name.

    Trusted input only: ``expr`` is read with :func:`sympy.sympify` (which
    evaluates its text), so it must be one of this module's own transcribed
    strings; any other raises ``ValueError``.

    >>> parse(SINGLE_SAMPLE_OC, d=1, beta=0)
    1/2
    """
    _check_own(expr)  # trusted input only: sympify evaluates its string
    e = sympy.sympify(expr, locals=_NAMES)
    return e.subs({_NAMES[k]: v for k, v in subs.items()}) if subs else e


def tridiagonal(K: int):
    """§4's tridiagonal CM: ones on the main, sub- and super-diagonal.

    >>> tridiagonal(2)
    ((1, 1), (1, 1))
    """
    if K < 1:
        raise ValueError(f"K must be >= 1, got {K}")
    return tuple(tuple(1 if abs(r - c) <= 1 else 0 for c in range(K)) for r in range(K))


def triangle_matrices(N: int):
    """Appendix A's CM(a, b), CM(b, c), CM(a, c) (K = 2) for N samples.

    >>> triangle_matrices(5)
    (((4, 0), (1, 0)), ((4, 1), (0, 0)), ((3, 1), (1, 0)))
    """
    if N < 2:
        raise ValueError(f"N must be >= 2, got {N}")
    return (((N - 1, 0), (1, 0)), ((N - 1, 1), (0, 0)), ((N - 2, 1), (1, 0)))
