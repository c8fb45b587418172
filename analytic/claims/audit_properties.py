"""audit: what the property auditor (:mod:`analytic.audit`) finds for the seeds' metrics.

A user source key (``audit``): each claim states, for every report variant of
the metrics the five sources define, the reviewed verdict of one property of
:data:`analytic.audit.PROPERTIES` on the default search space
(:data:`analytic.audit.DEFAULTS`), and its check re-runs the auditor.  The
claim is ``verified`` when every verdict is the reviewed one ("holds" is
met by "proved": a symbolic proof on a scope, :mod:`analytic.prover`); the
evidence says, for each variant that is not refuted, whether it is proved
and on which scope, or only searched.  A metric added later is not part of
these claims (it appears in ``docs/properties.md``).
"""

from __future__ import annotations

from ..audit import DEFAULTS, PROPERTIES, audit_registered
from ..ledger import Outcome, claim
from ..prover import DEFAULT_SCOPES

#: (registry name, variant label) of the seeds' metrics when these claims were reviewed
SEED_CASES = (
    ("mer", "MER"), ("mae", "MAE"), ("mse", "MSE"), ("rmse", "RMSE"),
    ("amae", "AMAE (observed classes)"), ("amae", "AMAE (missing = zero)"), ("mmae", "MMAE"),
    ("macro_rmse", "macro RMSE"), ("oc", "OC, beta=0.25/(N(K-1))"),
    ("oc", "OC, beta=0.75/(N(K-1))"), ("uoc", "UOC, beta=0.25"), ("uoc", "UOC, beta=0.75"),
    ("a_uoc", "A_UOC"), ("kendall_tau_b", "tau_b"), ("spearman_rs", "R_s"), ("r_int", "r_int"),
    ("tc", "TC"), ("stc", "STC (= MC)"), ("george_d", "George's d"),
    ("george_tiebreak", "George's tie-break"),
)

_RANKS = ("tau_b", "R_s", "r_int")
_COST = ("TC", "STC (= MC)", "George's d")
_TIE = ("George's tie-break",)

#: property -> (claim item, statement, {variant label: verdict} for the cases that do not hold)
REVIEWED = {
    "range": ("range", "Every seed metric stays within its stated bounds", {}),
    "identity": ("identity", "The best value is attained exactly on diagonal matrices except "
                 "by the rank correlations (tau_b, R_s, r_int reach 1 off the diagonal) and "
                 "George's tie-break (0 on diagonal matrices, oriented higher-is-better)",
                 {k: "fails" for k in _RANKS + _TIE}),
    "symmetry": ("symmetry", "Transposition changes the row-normalised and class-weighted "
                 "metrics (AMAE, MMAE, macro RMSE, UOC, A_UOC, TC, STC, George's d and "
                 "tie-break) and no other",
                 {k: "fails" for k in ("AMAE (observed classes)", "AMAE (missing = zero)",
                                       "MMAE", "macro RMSE", "UOC, beta=0.25",
                                       "UOC, beta=0.75", "A_UOC") + _COST + _TIE}),
    "triangle": ("triangle", "On label vectors, the triangle inequality holds for MER, MAE, "
                 "RMSE, OC at beta = 0.75/(N(K-1)), TC, STC and George's d, and fails for the "
                 "other distance-like seed metrics",
                 {**{k: "fails" for k in ("MSE", "AMAE (observed classes)",
                                          "AMAE (missing = zero)", "MMAE", "macro RMSE",
                                          "OC, beta=0.25/(N(K-1))", "UOC, beta=0.25",
                                          "UOC, beta=0.75", "A_UOC")},
                  **{k: "n/a" for k in _RANKS + _TIE}}),
    "monotonicity": ("monotonicity", "Moving one sample toward the diagonal never worsens any "
                     "seed metric except OC at beta = 0.25/(N(K-1)), the rank correlations and "
                     "George's tie-break",
                     {k: "fails" for k in ("OC, beta=0.25/(N(K-1))",) + _RANKS + _TIE}),
    "ordinal_monotonicity": (
        "ordinal-monotonicity", "Amigó et al. 2020's ordinal monotonicity (every move of a "
        "prediction toward its class strictly improves) holds for MAE, MSE, RMSE, AMAE, macro "
        "RMSE, UOC at beta = 0.25 and A_UOC only",
        {k: "fails" for k in ("MER", "MMAE", "OC, beta=0.25/(N(K-1))", "OC, beta=0.75/(N(K-1))",
                              "UOC, beta=0.75") + _RANKS + _COST + _TIE}),
    "ordinal_invariance": (
        "ordinal-invariance", "Amigó et al. 2020's ordinal invariance (an empty class inserted "
        "between classes changes nothing) holds for MER, tau_b, R_s and r_int only",
        {k: "fails" for k, _ in [(lab, 0) for _, lab in SEED_CASES]
         if k not in ("MER",) + _RANKS}),
    "imbalance": (
        "imbalance", "Amigó et al. 2020's class imbalance (an error in a more frequent class "
        "costs strictly less) holds for the class-normalised metrics (AMAE, MMAE, macro RMSE, "
        "UOC, A_UOC) and TC, STC, George's d, and fails for MER, MAE, MSE, RMSE, OC, the rank "
        "correlations and George's tie-break",
        {k: "fails" for k in ("MER", "MAE", "MSE", "RMSE", "OC, beta=0.25/(N(K-1))",
                              "OC, beta=0.75/(N(K-1))") + _RANKS + _TIE}),
    "scale": ("scale", "Every seed metric is unchanged when all counts are doubled, except "
              "r_int, undefined with one sample and defined with two",
              {"r_int": "fails"}),
    "empty_class": (
        "empty-class", "Appending an empty class at an end changes AMAE with missing = zero, "
        "OC (its beta and normaliser depend on K), and TC, STC, George's d and tie-break "
        "(undefined with a zero class count), and no other seed metric",
        {k: "fails" for k in ("AMAE (missing = zero)", "OC, beta=0.25/(N(K-1))",
                              "OC, beta=0.75/(N(K-1))") + _COST + _TIE}),
    "unobserved_class": (
        "unobserved-class", "A class with no true sample makes the rank correlations and the "
        "cost metrics (TC, STC, George's d and tie-break) raise; every other seed metric is "
        "defined",
        {k: "fails" for k in _RANKS + _COST + _TIE}),
}

_SOURCE = ("analytic.audit (the ordinal-verify property auditor), run on the metrics of "
           "silva2018, cardoso2011, binotto2024, george2016 and macroblog; ordinal "
           "monotonicity, ordinal invariance and class imbalance formalised from Amigó, "
           "Gonzalo, Mizzaro and Carrillo-de-Albornoz 2020 (ACL), §3")
_METHOD = (f"exhaustive search in exact arithmetic over every matrix with "
           f"K <= {DEFAULTS['max_k']}, N <= {DEFAULTS['max_n']} (see docs/properties.md for each "
           f"property's space) plus {DEFAULTS['random']} seeded random matrices; the minimal "
           f"counterexample in the order (N, K, lexicographic); where not refuted, a symbolic "
           f"proof (analytic.prover: the metric's formula on matrices of positive integer "
           f"symbols, one per support pattern) on "
           f"{'; '.join(s.text() for s in DEFAULT_SCOPES)}")


def _check_property(prop):
    _, _, not_holding = REVIEWED[prop]

    def check():
        from numeric.registry import REGISTRY

        import numeric  # noqa: F401

        found, wrong, notes, proved = {}, [], [], {}
        for name, label in SEED_CASES:
            if name not in REGISTRY or label not in [v.label for v in REGISTRY[name].cases()]:
                return Outcome("not reproduced", f"{name} has no report variant {label!r} any more")
            r = audit_registered(name, label).results[prop]
            verdict = "holds" if r.holds else r.verdict
            found[label] = verdict
            if r.verdict == "proved":
                proved[label] = r.proof.short()
            if verdict != not_holding.get(label, "holds"):
                wrong.append(f"{label}: {r.verdict}, reviewed {not_holding.get(label, 'holds')}")
            if r.verdict == "fails":
                notes.append(f"{label} {r.counterexample_text()}")
        if wrong:
            return Outcome("refuted", "; ".join(wrong))
        text = ("proved symbolically: "
                + (", ".join(f"{lab} ({sc})" for lab, sc in proved.items()) or "none"))
        searched = [lab for lab, v in found.items() if v == "holds" and lab not in proved]
        text += f"; holds (no counterexample, no proof): {', '.join(searched) or 'none'}"
        if notes:
            text += f"; minimal counterexamples: {'; '.join(notes)}"
        na = [lab for lab, v in found.items() if v == "n/a"]
        if na:
            text += f"; n/a (not distance-like): {', '.join(na)}"
        return Outcome("verified", text)

    return check


#: what every statement is about: the auditor's search, not all matrices (where it
#: says "holds" without a proof, a larger matrix can still fail: the triangle
#: inequality of TC fails on label vectors of length 4)
_SCOPE = (f"On the auditor's default search (every matrix with K <= {DEFAULTS['max_k']} and "
          f"N <= {DEFAULTS['max_n']}, label vectors of length <= {min(DEFAULTS['max_n'], 3)} "
          f"for the triangle inequality, and {DEFAULTS['random']} random matrices; \"holds\" "
          "means no counterexample there, proved only where the evidence names a symbolic "
          "proof and its scope): ")

for _prop, (_item, _statement, _) in REVIEWED.items():
    claim(f"audit:{_item}", source=_SOURCE,
          statement=_SCOPE + _statement + " (" + PROPERTIES[_prop].title + ")",
          method=_METHOD, expect="verified")(_check_property(_prop))


@claim("audit:registry-symmetric-flags", source=_SOURCE,
       statement="numeric.registry's symmetric flag of every seed metric agrees with the "
                 "auditor's symmetry verdict on every report variant",
       method=_METHOD, expect="verified")
def _flags():
    from numeric.registry import REGISTRY

    bad = [f"{name} ({label}): flag {REGISTRY[name].symmetric}, auditor "
           f"{audit_registered(name, label).verdict('symmetry')}"
           for name, label in SEED_CASES
           if audit_registered(name, label).results["symmetry"].holds != REGISTRY[name].symmetric]
    if bad:
        return Outcome("refuted", "; ".join(bad))
    return Outcome("verified", f"{len(SEED_CASES)} variants of "
                               f"{len({n for n, _ in SEED_CASES})} metrics agree")
