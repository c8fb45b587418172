"""silva2018: closed forms behind Figs. 1-3 derived by :mod:`analytic` (§III, §IV.A).

Each check runs the derivations of :mod:`analytic.derivations.forms`, :mod:`analytic.derivations.uoc`
and :mod:`analytic.derivations.metric_thresholds` and confronts them with the printed
statement and with :mod:`numeric`.
"""

from __future__ import annotations

import sympy

import numeric

from analytic.ledger import Outcome, claim
from ._closed_form import closed_form
from ._search import random_matrices


@claim("silva2018:sec4A:single-sample-uoc-monotone",
       source=("silva2018", "§IV.A and Fig. 2"),
       statement="For a single observation UOC_beta increases monotonically from 0 to 1 with the "
                 "sample's distance to the diagonal, at a rate depending on beta",
       method="symbolic derivation (analytic.single_sample_forms) from the eq. 28 weights "
              "(K' = 1, M' = d) and the two-line lemma; derivative of the sloped branch; exact "
              "numeric.uoc for d = 1..8",
       expect="verified")
def _single_uoc():
    from analytic.derivations.forms import single_sample_forms
    from analytic.symbols import beta, d

    f = single_sample_forms().uoc
    for dist in range(1, 9):
        m = [[0] * (dist + 1) for _ in range(dist + 1)]
        m[dist][0] = 1
        for t in (sympy.Integer(0), sympy.Rational(1, 3 * dist * (dist + 1)), sympy.Rational(1, 4)):
            if f.subs({d: dist, beta: t}) != numeric.uoc(m, t, arithmetic="exact"):
                return Outcome("refuted", f"derived form disagrees with numeric at d = {dist}")
    lin = f.args[0][0]
    slope = sympy.together(sympy.diff(lin, d))
    if slope.is_positive:
        return Outcome("verified",
                       f"UOC = {f} (equal to OC for one sample); d/dd of the sloped branch = {slope} > 0, "
                       "so the rate grows with beta; value 1 from d(d+1) >= 1/beta on",
                       closed_form=closed_form(f))
    return Outcome("refuted", f"slope {slope}")


@claim("silva2018:sec4A:single-sample-a-uoc",
       source=("silva2018", "§IV.A and Fig. 2"),
       statement="For a single observation A_UOC, independent of beta, increases with the distance "
                 "to the diagonal like UOC",
       method="symbolic: exact integral over [0, 1] of the derived UOC form, its increment "
              "A(d+1) - A(d) decided positive for every integer d >= 1; exact numeric.a_uoc, d = 1..12",
       expect="verified")
def _single_auoc():
    from analytic.engines._pl import sign_for_all
    from analytic.derivations.forms import single_sample_forms
    from analytic.symbols import d

    a = single_sample_forms().a_uoc
    for dist in range(1, 13):
        m = [[0] * (dist + 1) for _ in range(dist + 1)]
        m[0][dist] = 1
        if a.subs(d, dist) != numeric.a_uoc(m, arithmetic="exact"):
            return Outcome("refuted", f"derived A_UOC disagrees with numeric at d = {dist}")
    if sign_for_all(a.subs(d, d + 1) - a, d, 1) == 1:
        return Outcome("verified", f"A_UOC = {a}: {a.subs(d, 1)} at d = 1, increasing, "
                                   f"-> {sympy.limit(a, d, sympy.oo)}", closed_form=closed_form(a))
    return Outcome("refuted", f"A_UOC = {a} is not increasing")


@claim("silva2018:sec4A:tridiagonal-intermediate",
       source=("silva2018", "§IV.A and Fig. 3"),
       statement="On tridiagonal matrices UOC_beta (beta = 0.25, 0.75) and A_UOC take values between "
                 "those of MER (2/3) and of r_int, R_s, tau_b (which converge to 1) as K grows",
       method="symbolic closed forms for every K >= 2 (analytic.tridiagonal_forms: band-1 lemma, "
              "eq. 28 weights), their limits K -> oo; exact numeric.uoc / a_uoc for K = 2..10",
       expect="verified")
def _tridiagonal():
    import numpy as np

    from analytic.derivations.forms import tridiagonal_forms
    from analytic.symbols import K, beta

    f = tridiagonal_forms()
    for k in range(2, 11):
        cm = (np.abs(np.subtract.outer(np.arange(k), np.arange(k))) <= 1).astype(int)
        if f.a_uoc.subs(K, k) != numeric.a_uoc(cm, arithmetic="exact"):
            return Outcome("refuted", f"A_UOC form disagrees with numeric at K = {k}")
        for t in (sympy.Rational(1, 4), sympy.Rational(3, 4)):
            if f.uoc.subs({K: k, beta: t}) != numeric.uoc(cm, t, arithmetic="exact"):
                return Outcome("refuted", f"UOC form disagrees with numeric at K = {k}, beta = {t}")
    lim = f.limits
    vals = {"UOC_0.25": lim["uoc"].subs(beta, sympy.Rational(1, 4)),
            "UOC_0.75": lim["uoc"].subs(beta, sympy.Rational(3, 4)), "A_UOC": lim["a_uoc"]}
    if all(lim["mer"] < v < 1 for v in vals.values()):
        return Outcome("verified",
                       f"UOC = {f.uoc}; A_UOC = {f.a_uoc}; limits {vals} lie in (2/3, 1); "
                       f"the UOC limit is {lim['uoc']}, below MER's 2/3 only for beta < 1/5",
                       closed_form=closed_form(f.uoc))
    return Outcome("refuted", f"limits {vals}")


@claim("silva2018:eq23:a-uoc-exact-integral",
       source=("silva2018", "§III.B after eq. 25, eq. 23"),
       statement="With eq. 25 A_UOC is easily integrated exactly from a confusion matrix",
       method="analytic.uoc_piecewise (exact envelope over beta) integrated by SymPy over [0, 1] "
              "against numeric.a_uoc exact on 20 random matrices (K = 2..7)",
       expect="verified")
def _auoc_integral():
    from analytic.symbols import beta
    from analytic.derivations.uoc import a_uoc_symbolic, uoc_piecewise

    for m in random_matrices((2, 7), (1, 40), 20, seed=91):
        exact = numeric.a_uoc(m, arithmetic="exact")
        if a_uoc_symbolic(m) != exact or sympy.integrate(uoc_piecewise(m), (beta, 0, 1)) != exact:
            return Outcome("refuted", f"integral mismatch for {m.tolist()}")
    return Outcome("verified", "UOC is concave piecewise linear in beta with exact rational "
                               "breakpoints; its integral is rational and equals numeric.a_uoc on 20 matrices")


@claim("silva2018:eq22:diagonal-threshold-tight",
       source=("silva2018", "§III.A after eq. 22"),
       statement="beta >= 1 makes the diagonal the optimal UOC path (bound: symbolic proof and tightness)",
       method="symbolic certificate cost_p - cost_diag >= Q_p (beta - K'/(K' + K'^{1-gamma} M')); "
              "witness family [[n, 1], [0, 1]] whose derived last breakpoint tends to 1",
       expect="verified")
def _uoc_threshold():
    from analytic.derivations.metric_thresholds import diagonal_threshold

    out = diagonal_threshold("uoc")
    n = sympy.Symbol("n", integer=True, positive=True)
    last = out.witness.last_breakpoint
    for v in range(1, 8):
        env = numeric.path_envelope([[v, 1], [0, 1]], metric="uoc")
        if env.breakpoints[-2] != last.subs(n, v):
            return Outcome("refuted", f"witness breakpoint mismatch at n = {v}")
    if out.bound == 1 and out.certificate.is_nonnegative and out.witness.limit == 1:
        return Outcome("verified",
                       f"1 - K'/(K' + K'^(1-gamma) M') = {out.certificate.gap} > 0, so "
                       f"beta >= 1 suffices; [[n,1],[0,1]] needs beta >= {last} -> 1: no smaller "
                       "uniform bound exists", closed_form=closed_form(last))
    return Outcome("refuted", str(out))
