"""binotto2024, checked numerically: TC_max (Props 1-3, Corollary 1), the cost
matrices (Remarks 1, 3, 4), intervals (eqs 7-9, Props 4-5), the properties of
§4.2 and Properties 1-3, the toy example and Prop. 6 / Appendix A.

Every check runs :mod:`numeric` (``cost``, ``intervals``) in exact arithmetic
(SymPy) or mpmath at 50 digits; the printed closed forms come from
:mod:`analytic.ledger.sources.binotto2024`.  The same claims are asserted, with larger
searches and an LP (scipy), in ``proofs_tests/test_cost_*.py`` and
``proofs_tests/test_intervals_*.py``.  Matrices have rows = true class (the
paper's columns).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import sympy

import numeric
from numeric.rounding import matches_printed

from analytic import symbols
from analytic.ledger import Outcome, claim
from ..sources import binotto2024 as src
from ._search import compositions as _rows, exhaustive_max as _exhaustive_max
from exactfloor.tolerance import mp_tolerance
from exactfloor.exact_sign import vanishes

EX = dict(arithmetic="exact")
R = sympy.Rational
_X, _L = symbols.x, symbols.L
_printed = src.parse


def _rand_problems(count, seed, k=(2, 6), max_count=8):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        K = int(rng.integers(k[0], k[1] + 1))
        cm = rng.integers(0, max_count + 1, size=(K, K))
        cm[np.arange(K), rng.integers(0, K, size=K)] += 1
        lengths = [Fraction(int(p), int(q)) for p, q in zip(rng.integers(1, 13, K), rng.integers(1, 6, K), strict=True)]
        out.append((cm, lengths))
    return out


# ---------------------------------------------------------------------------
# §3: TC_max
# ---------------------------------------------------------------------------
@claim("binotto2024:prop1:exhaustive",
       source=("binotto2024", "§3, Prop. 1 (eqs. 5-6)"),
       statement="TC_max = (1/N) sum_j n_j (N - n_j)/n_{i_j} |i_j - j| is the maximum of TC over S",
       method="exhaustive: every matrix of S for all count vectors in {1..4}^2, {1..3}^3, {1..2}^4 "
              "(exact rationals); the LP of george2016 eq. 6 for r up to 40 is in proofs_tests",
       expect="verified")
def _prop1():
    total = 0
    grid = ([c for c in itertools.product(range(1, 5), repeat=2)]
            + [c for c in itertools.product(range(1, 4), repeat=3)]
            + [c for c in itertools.product(range(1, 3), repeat=4)])
    for counts in grid:
        best, size = _exhaustive_max(numeric.cost_matrix(counts, **EX), counts)
        total += size
        if best != numeric.tc_max(counts, **EX):
            return Outcome("refuted", f"counts {counts}: exhaustive {best}, Prop. 1 {numeric.tc_max(counts, **EX)}")
    return Outcome("verified", f"equal on all {len(grid)} count vectors ({total} matrices enumerated); "
                   "the worst matrix of the proof attains it")


@claim("binotto2024:remark3:ties",
       source=("binotto2024", "§3, Remark 3"),
       statement="K_j is well defined although i_j may not be unique",
       method="exact: counts (2, 4, 2), where the middle class ties between classes 1 and 3; both choices",
       expect="verified")
def _remark3():
    counts = [2, 4, 2]
    A = numeric.tc_max_matrix(counts)
    B = A.copy()
    B[1] = [0, 0, 4] if A[1, 0] else [4, 0, 0]
    ta, tb = numeric.tc(A, **EX), numeric.tc(B, **EX)
    if ta == tb == numeric.tc_max(counts, **EX):
        return Outcome("verified", f"both maximisers give TC = {ta}")
    return Outcome("refuted", f"TC {ta} vs {tb}")


@claim("binotto2024:prop2:binary",
       source=("binotto2024", "§3.1, Prop. 2"),
       statement="In the binary case TC_max = 1",
       method="exact: all (n_1, n_2) in {1..40}^2 and counts near 10^12",
       expect="verified")
def _prop2():
    pairs = list(itertools.product(range(1, 41), repeat=2)) + [(10**12, 3), (7, 10**12 + 1)]
    bad = [p for p in pairs if numeric.tc_max(p, **EX) != 1]
    return Outcome("refuted", f"counterexamples {bad[:3]}") if bad else \
        Outcome("verified", f"TC_max = 1 for all {len(pairs)} count pairs")


@claim("binotto2024:prop3:balanced-r-le-50",
       source=("binotto2024", "§3.2, Prop. 3"),
       statement="Balanced: TC_max = (r-1)^2/2 + (r-1)(r-h)h/r = (r-1)(3r-2)/4 (r even), (r-1)^2(3r+1)/(4r) (r odd)",
       method="exact: both printed forms against Prop. 1 (numeric.tc_max) for r = 1..50, n = 1 and 7",
       expect="verified")
def _prop3():
    for n in (1, 7):
        for r in range(1, 51):
            parity = "even" if r % 2 == 0 else "odd"
            h = _printed(src.PROP3_H[parity], r=r)
            first = _printed(src.PROP3["with_h"], r=r, h=h)
            second = _printed(src.PROP3[parity], r=r)
            v = numeric.tc_max([n] * r, **EX)
            if not v == first == second:
                return Outcome("refuted", f"r = {r}: Prop. 1 {v}, forms {first}, {second}")
    return Outcome("verified", "both forms equal Prop. 1 for r = 1..50")


@claim("binotto2024:cor1:increasing",
       source=("binotto2024", "§3.2, Corollary 1"),
       statement="Balanced TC_max = 1 for r = 2, > 1 for r > 2, strictly increasing in r",
       method="exact: numeric.tc_max([5]*r) for r = 2..50",
       expect="verified")
def _cor1():
    v = [numeric.tc_max([5] * r, **EX) for r in range(2, 51)]
    ok = v[0] == 1 and all(x > 1 for x in v[1:]) and all(a < b for a, b in itertools.pairwise(v))
    return Outcome("verified" if ok else "refuted", f"TC_max(2..6) = {v[:5]}, TC_max(50) = {v[-1]}")


@claim("binotto2024:remark1:symmetric-iff-balanced",
       source=("binotto2024", "§2, Remark 1"),
       statement="The cost matrix M is symmetric if and only if n_i = n_j for all i, j",
       method="exact search: all count vectors in {1..5}^2, {1..5}^3, {1..3}^4 by increasing N",
       expect="refuted")
def _remark1():
    grid = sorted([c for c in itertools.product(range(1, 6), repeat=2)]
                  + [c for c in itertools.product(range(1, 6), repeat=3)]
                  + [c for c in itertools.product(range(1, 4), repeat=4)], key=lambda c: (sum(c), len(c)))
    bad = []
    for counts in grid:
        M = numeric.cost_matrix(counts, **EX)
        sym = all(M[i, j] == M[j, i] for i, j in itertools.combinations(range(len(counts)), 2))
        if sym != (len(set(counts)) == 1):
            bad.append(counts)
    if not bad:
        return Outcome("verified", "no counterexample")
    unbalanced_binary = [c for c in grid if len(c) == 2 and c[0] != c[1]]
    if bad == unbalanced_binary and tuple(bad[0]) == (1, 2):
        return Outcome("refuted", f"fails exactly for r = 2 ({len(bad)} of the unbalanced binary designs, all "
                       f"of them): gamma_12 = gamma_21 = 1 always. Minimal counterexample (least N): counts "
                       f"{bad[0]}, M = {numeric.cost_matrix(bad[0], **EX).tolist()}. The step "
                       "'sum_(k != i,j) n_k/n_i = sum_(k != i,j) n_k/n_j <=> n_i = n_j' needs a third class; "
                       "for r >= 3 the equivalence holds on the whole grid")
    return Outcome("not reproduced", f"counterexamples differ from the diagnosis (exactly the unbalanced "
                   f"binary designs, least (1, 2)): {len(bad)} found, first {bad[:3]}")


# ---------------------------------------------------------------------------
# §4: intervals
# ---------------------------------------------------------------------------
@claim("binotto2024:sec4.1:equal-lengths",
       source=("binotto2024", "§4.1, after eq. 9"),
       statement="If all intervals have the same length L, TC-hat = L x TC",
       method="exact: 150 random matrices (r = 2..6) and L in {1/3, 1, 5/2, 7}",
       expect="verified")
def _equal_lengths():
    for cm, _ in _rand_problems(150, 41):
        for L in (R(1, 3), R(1), R(5, 2), R(7)):
            if numeric.interval_tc(cm, [L] * cm.shape[0], **EX) != L * numeric.tc(cm, **EX):
                return Outcome("refuted", f"{cm.tolist()}, L = {L}")
    return Outcome("verified", "TC-hat = L TC on all 600 cases")


@claim("binotto2024:remark4:symmetric-iff-proportional",
       source=("binotto2024", "§4.1, Remark 4"),
       statement="M-hat is symmetric iff the densities n_i/l_i are all equal (perfectly proportional case)",
       method="exact search: counts in {1,2,3}^r, lengths in {1, 2, 3/2}^r for r = 2, 3",
       expect="refuted")
def _remark4():
    bad, binary_unprop = [], []
    for r in (2, 3):
        for counts in itertools.product((1, 2, 3), repeat=r):
            for lengths in itertools.product((Fraction(1), Fraction(2), Fraction(3, 2)), repeat=r):
                M = numeric.interval_cost_matrix(counts, lengths, **EX)
                sym = all(M[i, j] == M[j, i] for i, j in itertools.combinations(range(r), 2))
                prop = len({Fraction(n) / l for n, l in zip(counts, lengths, strict=True)}) == 1
                if sym != prop:
                    bad.append((counts, lengths))
                if r == 2 and not prop:
                    binary_unprop.append((counts, lengths))
    if not bad:
        return Outcome("verified", "no counterexample")
    minimal = ((1, 2), (Fraction(1), Fraction(1)))
    if bad == binary_unprop and minimal in bad:
        return Outcome("refuted", f"fails for r = 2 only ({len(bad)} cases: every non-proportional binary "
                       "design): gamma-hat_12 = gamma-hat_21 = 1 for any densities. "
                       "Minimal counterexample: counts (1, 2), lengths (1, 1), M-hat = "
                       f"{numeric.interval_cost_matrix([1, 2], [1, 1], **EX).tolist()}; holds on the r = 3 grid")
    return Outcome("not reproduced", f"counterexamples differ from the diagnosis (every non-proportional "
                   f"binary design, and only those): {len(bad)} found, first {bad[:3]}")


@claim("binotto2024:prop4:exhaustive",
       source=("binotto2024", "§4.1, Prop. 4"),
       statement="TC-hat_max = (1/N) sum_j n_j (Delta - delta_j)/delta_{i_j} d(I_{i_j}, I_j) "
                 "is the maximum of TC-hat over S",
       method="exhaustive: every matrix of S for 20 random (counts in 1..3, rational lengths) with r = 2..4 "
              "(exact); the LP check is in proofs_tests",
       expect="verified")
def _prop4():
    rng = np.random.default_rng(4)
    total = 0
    for _ in range(20):
        r = int(rng.integers(2, 5))
        counts = [int(c) for c in rng.integers(1, 4 if r < 4 else 3, size=r)]
        lengths = [Fraction(int(p), int(q)) for p, q in zip(rng.integers(1, 9, r), rng.integers(1, 4, r), strict=True)]
        best, size = _exhaustive_max(numeric.interval_cost_matrix(counts, lengths, **EX), counts)
        total += size
        if best != numeric.interval_tc_max(counts, lengths, **EX):
            return Outcome("refuted", f"{counts}, {lengths}")
    return Outcome("verified", f"equal on 20 problems ({total} matrices enumerated)")


@claim("binotto2024:prop5:binary",
       source=("binotto2024", "§4.1, Prop. 5"),
       statement="In the binary case TC-hat_max = max(l_1, l_2)",
       method="exact: counts in {1..6}^2, lengths in {1/3, 1, 5/2, 4}^2",
       expect="verified")
def _prop5():
    ls = (R(1, 3), R(1), R(5, 2), R(4))
    for n in itertools.product(range(1, 7), repeat=2):
        for l in itertools.product(ls, repeat=2):
            if numeric.interval_tc_max(n, l, **EX) != max(l):
                return Outcome("refuted", f"counts {n}, lengths {l}")
    return Outcome("verified", "TC-hat_max = max(l_1, l_2) on all 576 cases")


@claim("binotto2024:sec4.2:non-negativity-and-maximal-agreement",
       source=("binotto2024", "§4.2, Non-negativity and Maximal agreement"),
       statement="STC-hat >= 0, and STC-hat(A) = 0 iff A is diagonal",
       method="exact: 150 random (matrix, lengths), r = 2..6, and their diagonals",
       expect="verified")
def _nonneg():
    for cm, lengths in _rand_problems(150, 42):
        s = numeric.interval_stc(cm, lengths, **EX)
        offdiag = np.count_nonzero(cm - np.diag(np.diag(cm)))
        if s < 0 or (s == 0) != (offdiag == 0) or numeric.interval_stc(np.diag(cm.sum(1)), lengths, **EX) != 0:
            return Outcome("refuted", f"{cm.tolist()}, {lengths}")
    return Outcome("verified", "on all 150 cases (every off-diagonal cost is > 0 when all n_j > 0)")


@claim("binotto2024:sec4.2:homogeneity",
       source=("binotto2024", "§4.2, Homogeneity"),
       statement="STC-hat(kA) = k STC-hat(A) for all k > 0",
       method="exact: minimal counterexample (least N, r = 2, k = 2) and 150 random (matrix, lengths, k)",
       expect="refuted")
def _homogeneity():
    A = np.array([[0, 1], [1, 0]])
    s1, s2 = numeric.interval_stc(A, [1, 3], **EX), numeric.interval_stc(2 * A, [1, 3], **EX)
    rng = np.random.default_rng(43)
    degree0 = all(numeric.interval_stc(k * cm, l, **EX) == numeric.interval_stc(cm, l, **EX)
                  for (cm, l), k in zip(_rand_problems(150, 43), rng.integers(2, 8, 150), strict=True))
    if s2 == 2 * s1:
        return Outcome("verified", "holds on the minimal case")
    if not (degree0 and s2 == s1):
        return Outcome("not reproduced", f"STC-hat(2A) = {s2}, 2 STC-hat(A) = {2 * s1}, but STC-hat is not "
                       f"homogeneous of degree 0 (STC-hat(kA) = STC-hat(A) on all 150 random cases: {degree0})")
    return Outcome("refuted", f"A = [[0, 1], [1, 0]] (N = 2), k = 2, lengths (1, 3): STC-hat(2A) = {s2}, "
                   f"2 STC-hat(A) = {2 * s1}. Scaling A scales n_j, N and every density by k, so gamma-hat, "
                   "TC-hat (with 1/N) and TC-hat_max are unchanged: STC-hat is homogeneous of degree 0 "
                   "(STC-hat(kA) = STC-hat(A) on the minimal case and on all 150 random cases); degree 1 would also "
                   "contradict STC-hat in [0, 1]")


@claim("binotto2024:sec4.2:minimal-agreement",
       source=("binotto2024", "§4.2, Minimal agreement"),
       statement="For A in S, STC-hat(A) = 1 iff A in S_max",
       method="exhaustive over S for three small problems: STC-hat = 1 exactly on the matrices that put each "
              "true class on maximisers of d(I_l, I_j)/delta_l",
       expect="verified")
def _minimal():
    cases = [([2, 1, 2], [1, 2, 1]), ([1, 2, 2], [Fraction(1, 2), 1, 3]), ([2, 1, 1, 1], [1, 1, 1, 2])]
    for counts, lengths in cases:
        r = len(counts)
        D = numeric.hausdorff_distances(lengths, **EX)
        dens = [R(n) / R(Fraction(l).numerator, Fraction(l).denominator) for n, l in zip(counts, lengths, strict=True)]
        allowed = []
        for j in range(r):
            ratio = [D[l, j] / dens[l] for l in range(r)]
            allowed.append({l for l in range(r) if ratio[l] == max(ratio)})
        for rows in itertools.product(*(list(_rows(n, r)) for n in counts)):
            A = np.array(rows)
            one = numeric.interval_stc(A, lengths, **EX) == 1
            smax = all(A[j, l] == 0 for j in range(r) for l in range(r) if l not in allowed[j])
            if one != smax:
                return Outcome("refuted", f"{A.tolist()} with {counts}, {lengths}")
    return Outcome("verified", "on every matrix of S for the three problems")


@claim("binotto2024:property1:scale-invariance",
       source=("binotto2024", "§4.2, Property 1"),
       statement="STC-hat is invariant under a change of scale f(x) = c x + d, c > 0",
       method="exact: 150 random (matrix, lengths), c in {1/7, 3, 11/2}; TC-hat and TC-hat_max scale by c",
       expect="verified")
def _prop_scale():
    for cm, l in _rand_problems(150, 44):
        for c in (R(1, 7), R(3), R(11, 2)):
            cl = [c * R(x.numerator, x.denominator) for x in l]
            n = cm.sum(1)
            if not (numeric.interval_stc(cm, cl, **EX) == numeric.interval_stc(cm, l, **EX)
                    and numeric.interval_tc(cm, cl, **EX) == c * numeric.interval_tc(cm, l, **EX)
                    and numeric.interval_tc_max(n, cl, **EX) == c * numeric.interval_tc_max(n, l, **EX)):
                return Outcome("refuted", f"{cm.tolist()}, {l}, c = {c}")
    return Outcome("verified", "on all 450 cases")


@claim("binotto2024:property2:monotonicity",
       source=("binotto2024", "§4.2, Property 2"),
       statement="Moving a prediction farther from the true class (to a class of the same density) increases TC-hat",
       method="exact: 150 random cases with delta_k0 = delta_i0 forced and d(I_k0, I_j0) > d(I_i0, I_j0); "
              "the increase equals gamma-hat_{i0 j0} (d_k0 - d_i0)/N",
       expect="verified")
def _prop_mono():
    rng = np.random.default_rng(45)
    done = 0
    for cm, l in _rand_problems(400, 45, k=(3, 6)):
        K = cm.shape[0]
        j0, i0, k0 = (int(v) for v in rng.permutation(K)[:3])
        cm[j0, i0] += 1
        n = cm.sum(1)
        l = list(l)
        l[k0] = l[i0] * int(n[k0]) / int(n[i0])
        D = numeric.hausdorff_distances(l, **EX)
        if D[k0, j0] == D[i0, j0]:
            continue
        if D[k0, j0] < D[i0, j0]:
            i0, k0 = k0, i0
            if cm[j0, i0] == 0:
                continue
        moved = cm.copy()
        moved[j0, i0] -= 1
        moved[j0, k0] += 1
        dens = [R(int(a)) / R(b.numerator, b.denominator) for a, b in zip(n, l, strict=True)]
        gamma = (sum(dens) - dens[j0]) / dens[i0]
        diff = numeric.interval_tc(moved, l, **EX) - numeric.interval_tc(cm, l, **EX)
        if diff != gamma * (D[k0, j0] - D[i0, j0]) / int(n.sum()) or not diff > 0:
            return Outcome("refuted", f"{cm.tolist()}, {l}, j0={j0}, i0={i0}, k0={k0}")
        done += 1
        if done == 150:
            break
    return Outcome("verified", f"on {done} cases")


@claim("binotto2024:property3:imbalance",
       source=("binotto2024", "§4.2, Property 3"),
       statement="Misclassifying from (resp. into) a lower-density class at the same distance costs more",
       method="exact: r = 3 with the middle interval longest (d(I_2, I_1) = d(I_2, I_3)), counts in {1..5}^3, "
              "l_1, l_3 in {1, 2, 3}; both differences equal the printed expressions and have the stated sign",
       expect="verified")
def _prop_imb():
    for counts in itertools.product(range(1, 6), repeat=3):
        for l1, l3 in itertools.product((1, 2, 3), repeat=2):
            l = [l1, max(l1, l3) + 1, l3]
            M = numeric.interval_cost_matrix(counts, l, **EX)
            N = sum(counts)
            dens = [R(n, x) for n, x in zip(counts, l, strict=True)]
            d1 = M[0, 1] - M[2, 1]  # paper m_{2,1} - m_{2,3}
            d2 = M[1, 0] - M[1, 2]  # paper m_{1,2} - m_{3,2}
            ok = (d1 == R(l[1], N) * (dens[2] - dens[0]) / dens[1]
                  and d2 == R(l[1], N) * (sum(dens) - dens[1]) * (1 / dens[0] - 1 / dens[2])
                  and (d1 > 0) == (dens[0] < dens[2]) and (d2 > 0) == (dens[0] < dens[2]))
            if not ok:
                return Outcome("refuted", f"counts {counts}, lengths {l}")
    return Outcome("verified", "on all 1125 cases")


# ---------------------------------------------------------------------------
# §5: toy example, Prop. 6, Appendix A
# ---------------------------------------------------------------------------
def _toy_outcome(name, got, printed_key, **subs):
    want = _printed(src.TOY_PRINTED[printed_key], **subs)
    ok = vanishes(got - want)
    return Outcome("verified" if ok else "refuted",
                   f"{name}: computed {sympy.sstr(sympy.radsimp(sympy.simplify(got)))}, "
                   f"printed {src.TOY_PRINTED[printed_key]}",
                   closed_form=str(want))


@claim("binotto2024:toy:cost-matrix-and-tc",
       source=("binotto2024", "§5, toy example"),
       statement="M, TC(C_A) = (6 + 4/x + (7 + x) max(1, x))/15 and TC(C_B) - TC(C_A) = 2/15 for all x > 0",
       method="exact (SymPy) at x in {1/3, 1/2, 1/sqrt 2, 1, 3/2, 2, 5}",
       expect="verified")
def _toy_tc():
    CA, CB = np.array(src.MATRICES["C_A"]), np.array(src.MATRICES["C_B"])
    for x in (R(1, 3), R(1, 2), 1 / sympy.sqrt(2), R(1), R(3, 2), R(2), R(5)):
        M = numeric.interval_cost_matrix(src.TOY_COUNTS, [1, 1, x], **EX).T
        for i, j in itertools.product(range(3), repeat=2):
            if not vanishes(M[i, j] - _printed(src.TOY_PRINTED["M"][i][j], x=x)):
                return Outcome("refuted", f"M[{i + 1},{j + 1}] at x = {x}")
        a = numeric.interval_tc(CA, [1, 1, x], **EX)
        b = numeric.interval_tc(CB, [1, 1, x], **EX)
        if (not vanishes(a - _printed(src.TOY_PRINTED["TC_A"], x=x))
                or not vanishes(b - a - _printed(src.TOY_PRINTED["TC_B_minus_TC_A"]))):
            return Outcome("refuted", f"TC at x = {x}")
    return Outcome("verified", "M, TC(C_A) and TC(C_B) - TC(C_A) = 2/15 equal the printed forms at all 7 x",
                   closed_form=src.TOY_PRINTED["TC_A"])


@claim("binotto2024:toy:optimal-length",
       source=("binotto2024", "§5, toy example"),
       statement="The length minimising TC-hat_max is 1/sqrt 2, with TC-hat_max = (2 sqrt 2 + 7)/3",
       method="exact: numeric.optimal_last_length (breakpoints and critical points, SymPy)",
       expect="verified")
def _toy_x():
    res = numeric.optimal_last_length(src.TOY_COUNTS, [1, 1], **EX)
    o1 = _toy_outcome("x", res.x, "x_opt")
    o2 = _toy_outcome("TC_max", res.minimum, "TC_max_opt")
    return Outcome("verified" if o1.verdict == o2.verdict == "verified" else "refuted",
                   f"{o1.evidence}; {o2.evidence}", closed_form=o2.closed_form)


@claim("binotto2024:toy:stc-values",
       source=("binotto2024", "§5, toy example"),
       statement="STC(C_A) = (73 + 11/sqrt 2)/205, STC(C_B) = (87 + 3/sqrt 2)/205, difference "
                 "(14 - 8/sqrt 2)/205 ~ 0.0407, and any other x gives a smaller difference",
       method="exact interval_stc at x = 1/sqrt 2 (SymPy simplify); 4-decimal half-up; float scan of 400 x",
       expect="verified")
def _toy_stc():
    x = 1 / sympy.sqrt(2)
    CA, CB = np.array(src.MATRICES["C_A"]), np.array(src.MATRICES["C_B"])
    sa, sb = numeric.interval_stc(CA, [1, 1, x], **EX), numeric.interval_stc(CB, [1, 1, x], **EX)
    outs = [_toy_outcome("STC_A", sa, "STC_A"), _toy_outcome("STC_B", sb, "STC_B"),
            _toy_outcome("difference", sb - sa, "STC_B_minus_STC_A")]
    approx = matches_printed(sympy.Rational(str(sympy.N(sb - sa, 30))), src.TOY_PRINTED["STC_B_minus_STC_A_approx"])
    best = float(sb - sa)
    scan = max(numeric.interval_stc(CB, [1, 1, v]) - numeric.interval_stc(CA, [1, 1, v])
               for v in np.geomspace(0.01, 100, 400))
    ok = all(o.verdict == "verified" for o in outs) and approx and scan < best
    return Outcome("verified" if ok else "refuted",
                   "; ".join(o.evidence for o in outs) + f"; {sympy.N(sb - sa, 6)} -> 0.0407; "
                   f"best difference on the scan {scan:.9f} < {best:.9f}")


_PROP6_L = ["1/100", "1/10", "1/3", "1/2", "9/10", "1", "10001/10000", "11/10", "13/10", "3/2", "8/5",
            "809/500", "16181/10000", "17/10", "19/10", "2", "23/10", "1309/500", "26181/10000", "3",
            "4", "15/2", "10", "1000"]


@claim("binotto2024:prop6:mp50",
       source=("binotto2024", "§5, Prop. 6 (proof in Appendix A)"),
       statement="For r = 3, l_1 = 1, l_2 = L, n_1 = n_2 = n_3 the optimal x and TC-hat_max(x) "
                 "are the four printed cases",
       method="mpmath at 50 digits: numeric.optimal_last_length (global, from the exact breakpoints) against the "
              "printed closed forms at 24 values of L over the four cases (6 each) and at L = 1, phi, phi^2; "
              "tolerance 1e-44",
       expect="verified")
def _prop6():
    with mpmath.workdps(50):
        tol = mp_tolerance(50, 6)  # 1e-44
        Ls = [mpmath.mpf(Fraction(s).numerator) / Fraction(s).denominator for s in _PROP6_L]
        Ls += [mpmath.mpf(1), (1 + mpmath.sqrt(5)) / 2, (3 + mpmath.sqrt(5)) / 2]
        worst = mpmath.mpf(0)
        for L in Ls:
            res = numeric.optimal_last_length([3, 3, 3], [1, L], arithmetic="mp")
            for bound, xf, vf in src.PROP6:
                if bound is None or L <= mpmath.mpf(sympy.N(_printed(bound), 60)) + tol:
                    f = lambda e: sympy.lambdify(_L, _printed(e), "mpmath")(L)  # noqa: E731
                    err = max(abs(res.x - f(xf)), abs(res.minimum - f(vf)))
                    worst = max(worst, err)
                    if err > tol:
                        return Outcome("refuted", f"L = {L}: computed ({res.x}, {res.minimum}), "
                                       f"printed ({f(xf)}, {f(vf)})")
                    break
    return Outcome("verified", f"all 27 values of L agree; largest difference {mpmath.nstr(worst, 3)}")


#: rational values of L inside each case of Appendix A (the printed pieces are
#: :data:`analytic.ledger.sources.binotto2024.APPENDIX_A`)
_APPENDIX_A_L = {"a": ["1/3", "1/2", "1"], "b.1": ["6/5", "3/2", "8/5"],
                 "b.2": ["17/10", "9/5"], "b.3": ["5/2", "3", "10"]}


@claim("binotto2024:appendixA:piecewise-tcmax",
       source=("binotto2024", "Appendix A, cases a), b.1), b.2), b.3)"),
       statement="TC-hat_max(x) is the printed piecewise function of x in each case of Appendix A",
       method="exact: numeric.last_length_pieces (breakpoints = exact crossings of the argmax branches) "
              "against the printed pieces and breakpoints at 11 rational L",
       expect="verified")
def _appendix_a():
    for case, Ls in _APPENDIX_A_L.items():
        pieces = src.APPENDIX_A[case][1]
        for Lstr in Ls:
            Lr = R(Lstr)
            mine = numeric.last_length_pieces([1, 1, 1], [1, Lr], **EX)
            if len(mine) != len(pieces):
                return Outcome("refuted", f"case {case}, L = {Lr}: {len(mine)} pieces, printed {len(pieces)}")
            for p, (hi, f) in zip(mine, pieces, strict=True):
                hi_ok = (p.hi is None and hi is None) or (
                    p.hi is not None and hi is not None and vanishes(p.hi - _printed(hi, L=Lr)))
                if not hi_ok or sympy.expand(p(_X) - _printed(f, L=Lr)) != 0:
                    return Outcome("refuted", f"case {case}, L = {Lr}: piece ending at {hi}")
    return Outcome("verified", "all pieces and breakpoints of the four cases agree exactly")
