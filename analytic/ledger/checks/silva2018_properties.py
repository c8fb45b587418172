"""silva2018: stated properties of UOC and A_UOC and the steps of its derivation."""

from __future__ import annotations

import numpy as np
import sympy

import numeric
from exactfloor.errors import UndefinedMetric

from analytic.engines._rowkinds import matrix_rows, path_weights
from analytic.ledger import Outcome, claim
from ._search import random_matrices


@claim("silva2018:eq16:rewrite-of-eq11",
       source=("silva2018", "§III.A, eqs. 11 and 16"),
       statement="Eq. 16 is an algebraic rewriting of OC (eq. 11) for every gamma > 0",
       method="symbolic: eq. 11 and eq. 16 with symbols Ntot = N, Dsum = sum n|r-c|^g, "
              "benefit B, penalty P and g = gamma; simplify(difference) per gamma",
       expect="refuted")
def _eq16():
    N, Ssym, B, P, beta, g = sympy.symbols("Ntot Dsum B P b g", positive=True)
    eq11 = 1 - B / (N + Ssym ** (1 / g)) + beta * P
    # eq. 16: every count divided by N, including inside the Minkowski term
    eq16 = 1 - (B / N) / (1 + (Ssym / N) ** (1 / g)) + N * beta * (P / N)
    at1 = sympy.simplify((eq11 - eq16).subs(g, 1))
    at2 = sympy.simplify((eq11 - eq16).subs(g, 2))
    ex = {N: 4, Ssym: 9, B: 2, P: 0, beta: 0}
    v11, v16 = (eq11.subs(g, 2).subs(ex), eq16.subs(g, 2).subs(ex))
    if at1 == 0 and at2 != 0:
        return Outcome("refuted",
                       "holds for gamma = 1 only: dividing the counts by N inside "
                       "(sum n|r-c|^gamma)^(1/gamma) scales it by N^(-1/gamma), not 1/N. "
                       f"gamma = 2, N = 4, S = 9, benefit 2, beta = 0: eq. 11 = {v11}, "
                       f"eq. 16 = {v16}. The paper's tables use gamma = 1.",
                       closed_form=str(sympy.simplify(eq11 - eq16)))
    return Outcome("verified", f"difference at gamma=1: {at1}, at gamma=2: {at2}")


@claim("silva2018:eq21:simplification-of-eq20",
       source=("silva2018", "§III.A, eqs. 20-21 (and eqs. 22, 24, 25, 27, 28 built on them)"),
       statement="Eq. 21's denominator K + (K/K^gamma)(sum p|y-yhat|^gamma)^(1/gamma) simplifies eq. 20",
       method="symbolic (Dsum = sum p|y-yhat|^g, g = gamma): eq. 20's denominator 1 + (Dsum/K)^(1/g) "
              "times K against eq. 21's, simplify per gamma",
       expect="refuted")
def _eq21():
    K, Ssym, g = sympy.symbols("K Dsum g", positive=True)
    from_eq20 = sympy.expand(K * (1 + (Ssym / K) ** (1 / g)), power_base=True, force=True)
    eq21 = K + K / K**g * Ssym ** (1 / g)
    d1 = sympy.simplify((from_eq20 - eq21).subs(g, 1))
    d2 = sympy.simplify((from_eq20 - eq21).subs(g, 2))
    if d1 == 0 and d2 != 0:
        return Outcome("refuted",
                       "holds for gamma = 1 only: eq. 20 multiplied by K gives "
                       "K + K^(1-1/gamma) S^(1/gamma), eq. 21 prints K^(1-gamma); "
                       f"difference at gamma = 2: {d2}. numeric.uoc implements eq. 28 as "
                       "printed (K'/K'^gamma); every value in the paper uses gamma = 1, "
                       "where both agree.",
                       closed_form="K + K**(1 - 1/g)*Dsum**(1/g)")
    return Outcome("verified", f"difference at gamma=1: {d1}, at gamma=2: {d2}")


@claim("silva2018:eq22:diagonal-optimal-beta-ge-1",
       source=("silva2018", "§III.A after eq. 22"),
       statement="For beta >= 1 the optimal UOC path is always the main diagonal",
       method="exact search: 150 random matrices (K = 2..7, N = 1..40, empty rows "
              "included), UOC at beta = 1 against the diagonal path's cost; argument: "
              "an off-diagonal cell adds -p/D + beta p|r-c|/K' >= 0 since D >= K'",
       expect="verified")
def _diag_optimal():
    # the eq. 28 weights of analytic.engines._rowkinds (computed independently of numeric), not
    # analytic.derivations.metric_thresholds.path_lines: that lists all D(K) paths (8989 at K = 7) and
    # takes ~19 s on these 150 matrices, against < 1 s here
    zero = (0, 0)
    for m in random_matrices((2, 7), (1, 40), 150, seed=22):
        w = path_weights(matrix_rows(m.tolist()), "uoc", 1)
        diag = 1 - sum(w.get((f"r{i}", 0), zero)[0] for i in range(len(m)))
        if numeric.uoc(m, 1, arithmetic="exact") != diag:
            return Outcome("refuted", f"counterexample {m.tolist()}")
    return Outcome("verified", "UOC_1 equals the diagonal path's cost on all 150 matrices")


@claim("silva2018:eq22:metric-beta-ge-1",
       source=("silva2018", "§III.A after eq. 22"),
       statement="For beta >= 1, UOC_beta^gamma is a metric (on pairs of label vectors)",
       method="exact computation on a counterexample to symmetry, and exhaustive search "
              "over label vectors of length <= 4 with 2 classes",
       expect="refuted")
def _metric():
    import itertools

    found = None
    for n in range(2, 5):
        for a in itertools.product((1, 2), repeat=n):
            for b in itertools.product((1, 2), repeat=n):
                cab = numeric.confusion_matrix(a, b, labels=[1, 2])
                cba = numeric.confusion_matrix(b, a, labels=[1, 2])
                u1 = numeric.uoc(cab, 1, arithmetic="exact")
                u2 = numeric.uoc(cba, 1, arithmetic="exact")
                if u1 != u2:
                    found = (a, b, u1, u2)
                    break
            if found:
                break
        if found:
            break
    if found:
        a, b, u1, u2 = found
        return Outcome("refuted",
                       f"not symmetric: a = {list(a)}, b = {list(b)} (true, predicted) gives "
                       f"UOC_1(a, b) = {u1}, UOC_1(b, a) = {u2}; rows are normalised by the "
                       "true-class counts, so swapping the roles changes the weights")
    return Outcome("verified", "no asymmetry found for label vectors up to length 4")


@claim("silva2018:sec2:ranking-range",
       source=("silva2018", "§II after eq. 10"),
       statement="R_s, tau_b and r_int all vary between -1 and 1",
       method="exact computation on 100 random matrices (K = 2..6) where defined",
       expect="verified")
def _range():
    for m in random_matrices((2, 6), (1, 40), 100, seed=7):
        for f in (numeric.spearman_rs, numeric.kendall_tau_b, numeric.r_int):
            try:
                v = f(m, arithmetic="exact")
            except UndefinedMetric:
                continue
            if not (-1 <= v <= 1):
                return Outcome("refuted", f"{f.__name__} = {v} for {m.tolist()}")
    return Outcome("verified", "all values in [-1, 1] on 100 random matrices")


@claim("silva2018:sec3:uoc-range",
       source=("silva2018", "§III, eq. 28"),
       statement="UOC_beta and A_UOC take values in [0, 1], 0 exactly for a perfect classifier",
       method="exact computation on 60 random matrices (K = 2..6) at beta in {0, 1/4, 3/4, 1, 3}",
       expect="verified")
def _uoc_range():
    for m in random_matrices((2, 6), (1, 40), 60, seed=9):
        for beta in (0, sympy.Rational(1, 4), sympy.Rational(3, 4), 1, 3):
            v = numeric.uoc(m, beta, arithmetic="exact")
            if not (0 <= v <= 1):
                return Outcome("refuted", f"UOC_{beta} = {v} for {m.tolist()}")
        d = np.diag(np.diag(m))
        if d.sum() and numeric.a_uoc(d, arithmetic="exact") != 0:
            return Outcome("refuted", f"A_UOC of diagonal {d.tolist()} is not 0")
    return Outcome("verified", "UOC and A_UOC in [0, 1] on 60 random matrices and 0 on their diagonals")
