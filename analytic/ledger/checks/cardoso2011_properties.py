"""cardoso2011: stated properties of OC (§3, §3.3) and its dynamic programme (§3.4)."""

from __future__ import annotations

import itertools

import numpy as np
import sympy

import numeric

from analytic.ledger import Outcome, claim
from analytic.derivations.metric_thresholds import monotone_paths, path_lines
from ._search import random_matrices

_BETAS = (0, sympy.Rational(1, 40), sympy.Rational(1, 8), 1)


@claim("cardoso2011:sec3.3:symmetry",
       source=("cardoso2011", "§3.3"),
       statement="Transposing the confusion matrix does not change OC_beta^gamma",
       method="exact computation on 60 random matrices (K = 2..6) at beta in {0, 1/40, 1/8, 1} "
              "with gamma = 1, and on 5 of them with gamma = 2 (algebraic values)",
       expect="verified")
def _symmetry():
    for i, m in enumerate(random_matrices((2, 6), (1, 40), 60, seed=33)):
        for beta in _BETAS:
            for g in ((1, 2) if i < 5 else (1,)):
                if (numeric.oc(m, beta, gamma=g, arithmetic="exact")
                        != numeric.oc(m.T, beta, gamma=g, arithmetic="exact")):
                    return Outcome("refuted", f"{m.tolist()} at beta = {beta}, gamma = {g}")
    return Outcome("verified", "OC(cm) = OC(cm^T) exactly on all 60 matrices x 4 betas (gamma = 1) "
                               "and 5 x 4 (gamma = 2)")


@claim("cardoso2011:sec3.3:range-and-identity",
       source=("cardoso2011", "§3.3"),
       statement="0 <= OC_beta^gamma <= 1, and OC = 0 if and only if the matrix is diagonal",
       method="exact computation on 100 random matrices (K = 2..6), beta in {0, 1/40, 1/8, 1}",
       expect="verified")
def _range():
    for m in random_matrices((2, 6), (1, 40), 100, seed=34):
        diagonal = not np.any(m - np.diag(np.diag(m)))
        for beta in _BETAS:
            v = numeric.oc(m, beta, arithmetic="exact")
            if not (0 <= v <= 1) or ((v == 0) != diagonal):
                return Outcome("refuted", f"OC = {v} for {m.tolist()} at beta = {beta}")
    return Outcome("verified", "OC in [0, 1] and zero exactly on diagonal matrices, 100 matrices x 4 betas")


@claim("cardoso2011:sec3:monotone-paths-consistent",
       source=("cardoso2011", "§3, Definition 4 and eq. 5"),
       statement="Any monotonous path from (1,1) to (K,K) is consistent (all its pairs of nodes non-discordant)",
       method="exhaustive: every monotone path for K = 2..6, every pair of its nodes",
       expect="verified")
def _monotone():
    total = 0
    for K in range(2, 7):
        for path in monotone_paths(K):
            total += 1
            for (r1, c1), (r2, c2) in itertools.combinations(path, 2):
                if (r1 - r2) * (c1 - c2) < 0:
                    return Outcome("refuted", f"discordant pair in {path}")
    return Outcome("verified", f"{total} monotone paths checked, no discordant pair")


@claim("cardoso2011:sec3.4:dynamic-programme",
       source=("cardoso2011", "§3.4"),
       statement="The dynamic programme W[r,c] = w[r,c] + min(W[r-1,c-1], W[r-1,c], W[r,c-1]) "
                 "returns the minimum of eq. 7 over the consistent paths",
       method="exhaustive: all monotone paths enumerated (analytic.derivations.metric_thresholds.path_lines, "
              "eq. 7 weights) for 40 random matrices (K = 2..5) at 4 betas, exact, against numeric.oc",
       expect="verified")
def _dp():
    for m in random_matrices((2, 5), (1, 40), 40, seed=35):
        # every monotone path's line a + beta s, from analytic's eq. 7 weights (independent of numeric)
        lines = path_lines(m.tolist(), "oc")
        for beta in _BETAS:
            best = min(a + beta * s for a, s in lines)
            if best != numeric.oc(m, beta, arithmetic="exact"):
                return Outcome("refuted", f"{m.tolist()} at beta = {beta}: enumeration {best}")
    return Outcome("verified", "DP equals the enumerated minimum on 40 matrices x 4 betas")


@claim("cardoso2011:eq6:beta-ge-1-diagonal",
       source=("cardoso2011", "§3, after eq. 6"),
       statement="If beta >= 1 the optimal path is the main diagonal, so the index is the "
                 "diagonal path's cost (stated for eq. 6; checked for OC of eq. 7, whose "
                 "benefit weights n/(N+M) are smaller still)",
       method="exact computation on 100 random matrices (K = 2..6): OC_1 against the diagonal path's cost",
       expect="verified")
def _beta1():
    for m in random_matrices((2, 6), (1, 40), 100, seed=36):
        K = m.shape[0]
        a, s = path_lines(m.tolist(), "oc")[monotone_paths(K).index(tuple((i, i) for i in range(K)))]
        if numeric.oc(m, 1, arithmetic="exact") != a + s:
            return Outcome("refuted", f"{m.tolist()}")
    return Outcome("verified", "OC_1 is the diagonal path's cost on all 100 matrices")
