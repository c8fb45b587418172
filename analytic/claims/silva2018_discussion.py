"""silva2018 §IV.B: the claims of the text that discusses Table I."""

from __future__ import annotations

import numpy as np
import sympy

import numeric

from ..ledger import Outcome, claim
from ..sources import silva2018 as src


@claim("silva2018:sec4B:D-equals-F",
       source=("silva2018", "§IV.B, discussion of Table I"),
       statement="Only MMAE, AMAE, UOC and A_UOC give classifiers D and F equal scores",
       method="exact computation on matrices D and F of Table I",
       expect="verified")
def _d_equals_f():
    q = sympy.Rational
    robust = {
        "MMAE": lambda m: numeric.mmae(m, arithmetic="exact"),
        "AMAE": lambda m: numeric.amae(m, arithmetic="exact"),
        "UOC_0.25": lambda m: numeric.uoc(m, q(1, 4), arithmetic="exact"),
        "UOC_0.75": lambda m: numeric.uoc(m, q(3, 4), arithmetic="exact"),
        "A_UOC": lambda m: numeric.a_uoc(m, arithmetic="exact"),
    }
    sensitive = {
        "MER": lambda m: numeric.mer(m, arithmetic="exact"),
        "MSE": lambda m: numeric.mse(m, arithmetic="exact"),
        "MAE": lambda m: numeric.mae(m, arithmetic="exact"),
        "R_s": lambda m: numeric.spearman_rs(m, arithmetic="exact"),
        "tau_b": lambda m: numeric.kendall_tau_b(m, arithmetic="exact"),
        "r_int": lambda m: numeric.r_int(m, arithmetic="exact"),
        "OC_b1": lambda m: numeric.oc(m, q(1, 4) / (int(m.sum()) * 3), arithmetic="exact"),
        "OC_b2": lambda m: numeric.oc(m, q(3, 4) / (int(m.sum()) * 3), arithmetic="exact"),
    }
    D, F = np.array(src.MATRICES["D"]), np.array(src.MATRICES["F"])
    bad = [n for n, f in robust.items() if f(D) != f(F)]
    bad += [f"{n} (equal)" for n, f in sensitive.items() if f(D) == f(F)]
    if bad:
        return Outcome("refuted", "exceptions: " + ", ".join(bad))
    return Outcome("verified", "MMAE, AMAE, UOC_0.25, UOC_0.75, A_UOC equal on D and F; "
                   "MER, MSE, MAE, R_s, tau_b, r_int, OC_b1, OC_b2 differ")


@claim("silva2018:sec4B:tau-b-lowest-C",
       source=("silva2018", "§IV.B, discussion of Table I"),
       statement="tau_b gives the lowest score of classifiers B, C, D to C",
       method="exact computation of tau_b on matrices B, C, D of Table I",
       expect="refuted")
def _tau_c():
    v = {k: numeric.kendall_tau_b(src.MATRICES[k], arithmetic="exact") for k in "BCD"}
    low = min(v, key=v.get)
    txt = ", ".join(f"tau_b({k}) = {sympy.sstr(x)} = {float(x):.4f}" for k, x in v.items())
    if low == "C":
        return Outcome("verified", txt)
    return Outcome("refuted", f"{txt}: the lowest is {low}, as Table I itself prints "
                   "(0.61 for C, 0.60 for D); the sentence contradicts the table")


@claim("silva2018:sec4B:E-penalised",
       source=("silva2018", "§IV.B, discussion of Table I"),
       statement="UOC and A_UOC penalise E (class 3 unobserved) relative to D, while "
                 "MMAE and AMAE (unobserved class counted as no error) score E as D",
       method="exact computation on matrices D and E of Table I; AMAE with missing='zero'",
       expect="verified")
def _e_penalised():
    q = sympy.Rational
    D, E = np.array(src.MATRICES["D"]), np.array(src.MATRICES["E"])
    checks = [
        numeric.uoc(E, q(1, 4), arithmetic="exact") > numeric.uoc(D, q(1, 4), arithmetic="exact"),
        numeric.uoc(E, q(3, 4), arithmetic="exact") > numeric.uoc(D, q(3, 4), arithmetic="exact"),
        numeric.a_uoc(E, arithmetic="exact") > numeric.a_uoc(D, arithmetic="exact"),
        numeric.amae(E, missing="zero", arithmetic="exact") == numeric.amae(D, missing="zero", arithmetic="exact"),
        numeric.mmae(E, arithmetic="exact") == numeric.mmae(D, arithmetic="exact"),
    ]
    ev = (f"A_UOC(E) = {numeric.a_uoc(E, arithmetic='exact')} > A_UOC(D) = "
          f"{numeric.a_uoc(D, arithmetic='exact')}; AMAE (missing = zero) equal; MMAE equal")
    return Outcome("verified" if all(checks) else "refuted", ev)


def _scores(metric_names):
    fns = {
        "MER": lambda m: numeric.mer(m, arithmetic="exact"),
        "MSE": lambda m: numeric.mse(m, arithmetic="exact"),
        "MAE": lambda m: numeric.mae(m, arithmetic="exact"),
        "MMAE": lambda m: numeric.mmae(m, arithmetic="exact"),
        "AMAE": lambda m: numeric.amae(m, arithmetic="exact"),
        "R_s": lambda m: numeric.spearman_rs(m, arithmetic="exact"),
        "tau_b": lambda m: numeric.kendall_tau_b(m, arithmetic="exact"),
        "r_int": lambda m: numeric.r_int(m, arithmetic="exact"),
    }
    return {n: {k: fns[n](np.array(src.MATRICES[k])) for k in "BCD"} for n in metric_names}


@claim("silva2018:sec4B:accuracy-metrics-B-D-C",
       source=("silva2018", "§IV.B, discussion of Table I"),
       statement="All accuracy-focused metrics (MER, MSE, MAE, MMAE, AMAE) give equal scores "
                 "to B and D, and a worse score to C",
       method="exact computation on matrices B, C, D of Table I",
       expect="refuted")
def _accuracy_bdc():
    s = _scores(["MER", "MSE", "MAE", "MMAE", "AMAE"])
    wrong = [n for n, v in s.items() if not (v["B"] == v["D"] and v["C"] > v["B"])]
    if not wrong:
        return Outcome("verified", "B = D < C for every accuracy-focused metric")
    return Outcome("refuted", "; ".join(
        f"{n}: B = {v['B']}, C = {v['C']}, D = {v['D']}" for n, v in s.items() if n in wrong)
        + " -- MER scores C the same as B and D, as the paragraph before says "
          "('B, C, and D present equal MER'); the other four metrics agree with the sentence")


@claim("silva2018:sec4B:ranking-metrics-D-worse-than-B",
       source=("silva2018", "§IV.B, discussion of Table I"),
       statement="The ranking-focused metrics r_int, R_s and tau_b give D a worse score than B",
       method="exact computation on matrices B and D of Table I",
       expect="verified")
def _ranking_bd():
    s = _scores(["R_s", "tau_b", "r_int"])
    ok = all(v["D"] < v["B"] for v in s.values())
    ev = "; ".join(f"{n}: B = {float(v['B']):.4f} > D = {float(v['D']):.4f}" for n, v in s.items())
    return Outcome("verified" if ok else "refuted", ev)
