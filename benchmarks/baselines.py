"""The peers we write ourselves: reference listings and literal formulas.

Nothing here is used by :mod:`numeric`; these functions exist to be timed
against it and to check that both give the same numbers.

* :func:`oc_appendix_b` -- cardoso2011 Appendix B (Listing 1, the MATLAB
  reference implementation of :math:`OC_\\beta^\\gamma`) transcribed line by
  line to Python, one matrix per call.
* :func:`uoc_appendix_b` -- the same listing with silva2018 eq. 28's weights
  (rows normalised, unobserved classes ignored) in place of lines 8-15.
* :func:`a_uoc_trapezoid` -- the common practice for A_UOC (silva2018 eq. 23):
  a trapezoid rule over a grid of beta values, each evaluated by a float DP.
* :func:`r_int_literal` -- silva2018 eqs. 7-10 with the 4-fold sum of eq. 10
  written out literally, O(K^4); :func:`r_int_literal_numpy` the same sum
  with its two inner sums done by numpy (O(K^4) work, K^2 Python steps).
* :func:`tc_max_linprog` -- george2016 eq. 6, the maximum total cost as a
  linear programme solved by ``scipy.optimize.linprog``.
* :func:`a_uoc_exact_fractions` -- exact A_UOC by the parametric search in
  Python Fractions (the arithmetic of our previous implementation).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "oc_appendix_b",
    "uoc_appendix_b",
    "a_uoc_trapezoid",
    "r_int_literal",
    "r_int_literal_numpy",
    "tc_max_linprog",
    "a_uoc_exact_fractions",
]


def oc_appendix_b(cMatrix, K, bbeta=None, ggamma=1):
    """cardoso2011 Appendix B, Listing 1 ("Ordinal Classification Index"), in Python.

    A line-by-line transcription of the MATLAB listing: MATLAB matrices
    become numpy arrays, indices start at 0 instead of 1, ``min([...])``
    becomes Python's ``min``.  The listing hard-codes ``ggamma = 1`` and
    ``bbeta = 0.75/(N*(K-1)^ggamma)`` (lines 5-6); here both are parameters
    with the listing's values as defaults.  The listing's own line numbers
    are in the comments.

    >>> float(oc_appendix_b(np.array([[0, 1], [0, 0]]), 2, bbeta=0))
    0.5
    """
    N = cMatrix.sum()                                             # 4
    if bbeta is None:
        bbeta = 0.75 / (N * (K - 1) ** ggamma)                    # 6

    helperM2 = np.zeros((K, K))                                   # 8
    for r in range(K):                                            # 9
        for c in range(K):                                        # 10
            helperM2[r, c] = cMatrix[r, c] * (abs(r - c) ** ggamma)  # 11
    TotalDispersion = helperM2.sum() ** (1 / ggamma)              # 13
    helperM1 = cMatrix / (TotalDispersion + N)                    # 14

    errMatrix = np.zeros((K, K))
    errMatrix[0, 0] = 1 - helperM1[0, 0] + bbeta * helperM2[0, 0]  # 17
    for r in range(1, K):                                         # 18
        c = 0                                                     # 19
        errMatrix[r, c] = errMatrix[r - 1, c] - helperM1[r, c] + bbeta * helperM2[r, c]  # 20-21
    for c in range(1, K):                                         # 23
        r = 0                                                     # 24
        errMatrix[r, c] = errMatrix[r, c - 1] - helperM1[r, c] + bbeta * helperM2[r, c]  # 25-26
    for c in range(1, K):                                         # 28
        for r in range(1, K):                                     # 30
            costup = errMatrix[r - 1, c]                          # 31
            costleft = errMatrix[r, c - 1]                        # 32
            lefttopcost = errMatrix[r - 1, c - 1]                 # 33
            aux = min([costup, costleft, lefttopcost])            # 34
            errMatrix[r, c] = aux - helperM1[r, c] + bbeta * helperM2[r, c]  # 35
    oc = errMatrix[-1, -1]                                        # 38
    return oc


def uoc_appendix_b(cMatrix, K, bbeta, ggamma=1):
    """UOC (silva2018 eq. 28) by the Appendix B listing, one matrix per call.

    Lines 8-15 of the listing are replaced by silva2018 eq. 28's weights:
    each observed row is divided by its total, ``K'`` is the number of
    observed true classes, the benefit is ``p / (K' + K'^(1-gamma) M')`` and
    the penalty ``p |r-c|^gamma / K'``.  The dynamic programme (lines 17-38)
    is the listing's.
    """
    rowsum = cMatrix.sum(axis=1)
    observed = rowsum > 0
    Kp = int(observed.sum())
    prob = np.zeros((K, K))
    for r in range(K):
        if observed[r]:
            prob[r, :] = cMatrix[r, :] / rowsum[r]
    helperM2 = np.zeros((K, K))
    for r in range(K):
        for c in range(K):
            helperM2[r, c] = prob[r, c] * (abs(r - c) ** ggamma)
    TotalDispersion = helperM2.sum() ** (1 / ggamma)
    helperM1 = prob / (Kp + Kp ** (1 - ggamma) * TotalDispersion)
    helperM2 = helperM2 / Kp

    errMatrix = np.zeros((K, K))
    errMatrix[0, 0] = 1 - helperM1[0, 0] + bbeta * helperM2[0, 0]
    for r in range(1, K):
        c = 0
        errMatrix[r, c] = errMatrix[r - 1, c] - helperM1[r, c] + bbeta * helperM2[r, c]
    for c in range(1, K):
        r = 0
        errMatrix[r, c] = errMatrix[r, c - 1] - helperM1[r, c] + bbeta * helperM2[r, c]
    for c in range(1, K):
        for r in range(1, K):
            costup = errMatrix[r - 1, c]
            costleft = errMatrix[r, c - 1]
            lefttopcost = errMatrix[r - 1, c - 1]
            aux = min([costup, costleft, lefttopcost])
            errMatrix[r, c] = aux - helperM1[r, c] + bbeta * helperM2[r, c]
    return errMatrix[-1, -1]


def a_uoc_trapezoid(cm, n_beta=1000, uoc_at=None):
    """A_UOC = integral_0^1 UOC_beta d(beta) by the trapezoid rule on ``n_beta`` points.

    ``uoc_at(cm, beta)`` is the float DP evaluated at each beta; by default
    :func:`uoc_appendix_b`, one call per beta (the common practice).
    """
    cm = np.asarray(cm)
    K = cm.shape[-1]
    betas = np.linspace(0.0, 1.0, n_beta)
    if uoc_at is None:
        values = np.array([uoc_appendix_b(cm, K, b) for b in betas])
    else:
        values = np.array([uoc_at(cm, b) for b in betas])
    return float(np.trapezoid(values, betas))


def r_int_literal(cm):
    """Pinto da Costa's r_int from silva2018 eqs. 7-10, the sums written out.

    ``card(S_1 & S_2)`` is eq. 10's 4-fold sum, literally, in Python
    integers: O(K^4).  ``card(S_1)`` and ``card(S_2)`` are eqs. 8-9 with two
    row sums in eq. 8 (the definition; the transcription prints a row sum
    times a column sum, see :func:`numeric.r_int`).
    """
    n = [[int(v) for v in row] for row in np.asarray(cm).tolist()]
    K = len(n)
    N = sum(map(sum, n))
    rows = [sum(n[i]) for i in range(K)]
    cols = [sum(n[i][j] for i in range(K)) for j in range(K)]
    s1 = sum(rows[i] * rows[j] for i in range(K) for j in range(i, K)) - N      # eq. 8
    s2 = sum(cols[i] * cols[j] for i in range(K) for j in range(i, K)) - N      # eq. 9
    both = 0                                                                     # eq. 10
    for i in range(K):
        for j in range(K):
            for i2 in range(i, K):
                for j2 in range(j, K):
                    both += n[i][j] * n[i2][j2]
    both -= N
    return -1 + 2 * both / math.sqrt(s1 * s2)                                    # eq. 7


def r_int_literal_numpy(cm):
    """:func:`r_int_literal` with eq. 10's inner double sum as a numpy slice sum.

    ``sum_{i,j} n_ij * sum(n[i:, j:])``: still O(K^4) additions, but only
    K^2 Python steps, so it is feasible at K = 200.  Counts are int64 here
    (fine for the benchmark's small counts; :func:`r_int_literal` uses
    Python integers).
    """
    n = np.asarray(cm, dtype=np.int64)
    K = n.shape[0]
    N = int(n.sum())
    rows, cols = n.sum(axis=1), n.sum(axis=0)
    s1 = sum(int(rows[i]) * int(rows[i:].sum()) for i in range(K)) - N      # eq. 8
    s2 = sum(int(cols[i]) * int(cols[i:].sum()) for i in range(K)) - N      # eq. 9
    both = 0                                                                 # eq. 10
    for i in range(K):
        for j in range(K):
            both += int(n[i, j]) * int(n[i:, j:].sum())
    both -= N
    return -1 + 2 * both / math.sqrt(s1 * s2)                                # eq. 7


def tc_max_linprog(class_counts):
    """george2016 eq. 6: the maximum total cost, as a linear programme for ``linprog``.

    Maximise ``TC = sum_{i,j} c_ij f_ij`` (george2016 eq. 5, no ``1/N``) over
    matrices ``f`` in george2016's layout (rows = predicted class ``i``,
    columns = true class ``j``) with ``f_ij >= 0``, the diagonal fixed at 0
    (the diagonal cells are not variables), and the column sums
    ``sum_i f_ij = n_j`` (which imply ``sum f = N``).  The cost is george2016
    eq. 4, ``c_ij = (sum_{l != j} n_l / n_i) |j - i|``.  Returns the optimal
    value of eq. 6; binotto2024's ``TC_max`` is this divided by ``N``.
    """
    from scipy.optimize import linprog

    n = np.asarray(class_counts, dtype=np.float64)
    M = n.size
    N = n.sum()
    i = np.arange(M)[:, None]
    j = np.arange(M)[None, :]
    cost = (N - n)[None, :] / n[:, None] * np.abs(j - i)   # c[i, j]: predicted i, true j
    off = i != j
    pairs = np.argwhere(off)                                # the variables f_ij, i != j
    c = -cost[off]                                          # linprog minimises
    A_eq = np.zeros((M, pairs.shape[0]))
    A_eq[pairs[:, 1], np.arange(pairs.shape[0])] = 1.0      # column sums: sum_i f_ij = n_j
    res = linprog(c, A_eq=A_eq, b_eq=n, bounds=(0, None), method="highs")
    if res.status != 0:  # pragma: no cover - a feasible, bounded LP
        raise RuntimeError(f"linprog failed: {res.message}")
    return -res.fun


def a_uoc_exact_fractions(cm):
    """Exact A_UOC (silva2018 eqs. 23, 28) by the parametric search over Fractions.

    The previous implementation's arithmetic, kept as the peer of the integer
    search of :mod:`numeric.paths`: weights ``b = (n / N_r) / (K' + M')`` and
    ``q = (n / N_r) |r - c| / K'`` as :class:`fractions.Fraction`, one DP per
    beta (cardoso2011 §3.4, ties: diagonal, above, left), Eisner-Severance
    refinement on ``[0, 1]``, the integral summed exactly over the pieces.
    """
    from fractions import Fraction

    cm = np.asarray(cm)
    K = cm.shape[0]
    rows = cm.sum(axis=1)
    Kp = int((rows > 0).sum())
    prob = [[Fraction(int(cm[r, c]), int(rows[r])) if rows[r] else Fraction(0) for c in range(K)]
            for r in range(K)]
    M = sum(prob[r][c] * abs(r - c) for r in range(K) for c in range(K))
    D = Kp + M
    b = [[p / D for p in row] for row in prob]
    q = [[prob[r][c] * abs(r - c) / Kp for c in range(K)] for r in range(K)]

    def line_at(beta):
        W = [[None] * K for _ in range(K)]
        S = [[None] * K for _ in range(K)]
        for r in range(K):
            for c in range(K):
                w = beta * q[r][c] - b[r][c]
                if r == 0 and c == 0:
                    W[0][0], S[0][0] = 1 + w, q[0][0]
                    continue
                cands = []
                if r and c:
                    cands.append((W[r - 1][c - 1], S[r - 1][c - 1]))
                if r:
                    cands.append((W[r - 1][c], S[r - 1][c]))
                if c:
                    cands.append((W[r][c - 1], S[r][c - 1]))
                v, s = cands[0]
                for cv, cs in cands[1:]:
                    if cv < v:
                        v, s = cv, cs
                W[r][c], S[r][c] = v + w, s + q[r][c]
        v, s = W[K - 1][K - 1], S[K - 1][K - 1]
        return v - s * beta, s

    total = Fraction(0)
    stack = [(Fraction(0), Fraction(1), line_at(Fraction(0)), line_at(Fraction(1)))]
    while stack:
        lo, hi, (a0, s0), (a1, s1) = stack.pop()
        if s0 == s1 or lo == hi:
            total += a0 * (hi - lo) + s0 * (hi * hi - lo * lo) / 2
            continue
        x = min(max((a1 - a0) / (s0 - s1), lo), hi)
        a, s = line_at(x)
        if a + s * x >= a0 + s0 * x:
            total += a0 * (x - lo) + s0 * (x * x - lo * lo) / 2
            total += a1 * (hi - x) + s1 * (hi * hi - x * x) / 2
        else:
            stack.append((lo, x, (a0, s0), (a, s)))
            stack.append((x, hi, (a, s), (a1, s1)))
    return total
