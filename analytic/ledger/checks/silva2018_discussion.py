"""silva2018 §IV.B: the claims of the text that discusses Table I."""

from __future__ import annotations

import sympy

from analytic.ledger import Outcome, claim
from .silva2018_tables import table_I_value


@claim("silva2018:sec4B:D-equals-F",
       source=("silva2018", "§IV.B, discussion of Table I"),
       statement="Only MMAE, AMAE, UOC and A_UOC give classifiers D and F equal scores",
       method="exact computation on matrices D and F of Table I",
       expect="verified")
def _d_equals_f():
    robust = ["MMAE", "AMAE", "UOC_beta1", "UOC_beta2", "A_UOC"]
    sensitive = ["MER", "MSE", "MAE", "R_s", "tau_b", "r_int", "OC_beta1", "OC_beta2"]
    v = {k: {c: table_I_value(k, c) for c in robust + sensitive} for k in "DF"}
    bad = [c for c in robust if v["D"][c] != v["F"][c]]
    bad += [f"{c} (equal)" for c in sensitive if v["D"][c] == v["F"][c]]
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
    v = {k: table_I_value(k, "tau_b") for k in "BCD"}
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
    v = {k: {c: table_I_value(k, c, missing="zero") for c in ("UOC_beta1", "UOC_beta2", "A_UOC", "AMAE", "MMAE")}
         for k in "DE"}
    D, E = v["D"], v["E"]
    checks = [E["UOC_beta1"] > D["UOC_beta1"], E["UOC_beta2"] > D["UOC_beta2"], E["A_UOC"] > D["A_UOC"],
              E["AMAE"] == D["AMAE"], E["MMAE"] == D["MMAE"]]
    ev = (f"A_UOC(E) = {E['A_UOC']} > A_UOC(D) = {D['A_UOC']}; AMAE (missing = zero) equal; MMAE equal")
    return Outcome("verified" if all(checks) else "refuted", ev)


def _scores(metric_names):
    return {n: {k: table_I_value(k, n) for k in "BCD"} for n in metric_names}


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
    mer_only = wrong == ["MER"] and s["MER"]["B"] == s["MER"]["C"] == s["MER"]["D"]
    if not mer_only:
        return Outcome("not reproduced", "metrics disagreeing with the sentence: " + "; ".join(
            f"{n}: B = {v['B']}, C = {v['C']}, D = {v['D']}" for n, v in s.items() if n in wrong)
            + " -- not the expected diagnosis (MER alone, scoring B, C, D equally)")
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
