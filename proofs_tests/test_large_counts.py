"""Counts around 10^15: exact values are exact, float64 within 1e-12.

Products of two counts reach 10^30 and N(N-1)/2 about 10^32, far beyond
int64 (9.2e18): r_int, tau_b and R_s must not multiply counts in int64.  The
reference values here are computed independently of :mod:`numeric`, with
Python integers and :class:`fractions.Fraction` on the sources' formulas
summed literally (O(K^4) pair sums); values with a square root are compared
through their squares and signs, which are rational.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy

import numeric

RNG = np.random.default_rng(10**15)


def big_matrix(K):
    m = RNG.integers(10**14, 10**15, size=(K, K), dtype=np.int64)
    m = m * (RNG.random((K, K)) < 0.7)
    m[0, 0] += 10**15
    m[-1, -1] += 10**15  # two observed classes: tau_b and R_s are defined
    return m


MATRICES = [big_matrix(K) for K in (2, 3, 4, 5, 6, 8) for _ in range(2)]
MATRICES.append(np.array([[10**15, 1], [1, 10**15]]))  # tau_b near 1: C - D huge, D = 1
MATRICES.append(np.array([[10**15, 10**15 - 1], [10**15 + 1, 10**15]]))  # tau_b near 0


def F(x):
    return Fraction(int(x))


def reference(cm):
    """Independent exact values: Fractions for rational metrics, (square, sign) for the others."""
    m = [[int(v) for v in row] for row in cm]
    K = len(m)
    N = sum(map(sum, m))
    rows = [sum(r) for r in m]
    cols = [sum(m[i][j] for i in range(K)) for j in range(K)]
    d1 = sum(m[i][j] * abs(i - j) for i in range(K) for j in range(K))
    d2 = sum(m[i][j] * (i - j) ** 2 for i in range(K) for j in range(K))
    out = {
        "mer": 1 - Fraction(sum(m[i][i] for i in range(K)), N),
        "mae": Fraction(d1, N),
        "mse": Fraction(d2, N),
        "rmse^2": Fraction(d2, N),
    }
    per1 = [Fraction(sum(m[i][j] * abs(i - j) for j in range(K)), rows[i]) for i in range(K) if rows[i]]
    per2 = [Fraction(sum(m[i][j] * (i - j) ** 2 for j in range(K)), rows[i]) for i in range(K) if rows[i]]
    out["amae"] = sum(per1) / len(per1)
    out["mmae"] = max(per1)
    out["macro_rmse^2"] = sum(per2) / len(per2)
    # Kendall: concordant, discordant pairs (cardoso2011 §1.1)
    C = sum(m[i][j] * m[a][b] for i in range(K) for j in range(K) for a in range(i + 1, K) for b in range(j + 1, K))
    D = sum(m[i][j] * m[a][b] for i in range(K) for j in range(K) for a in range(i + 1, K) for b in range(j))
    n0 = N * (N - 1) // 2
    n1 = sum(r * (r - 1) // 2 for r in rows)
    n2 = sum(c * (c - 1) // 2 for c in cols)
    out["tau_b^2"] = (Fraction((C - D) ** 2, (n0 - n1) * (n0 - n2)), np.sign(C - D))
    # Spearman with mid-ranks (silva2018 eq. 4)
    def midranks(marg):
        before, ranks = 0, []
        for n in marg:
            ranks.append(before + Fraction(n + 1, 2))
            before += n
        return ranks
    mean = Fraction(N + 1, 2)
    p, q = midranks(rows), midranks(cols)
    cov = sum(m[i][j] * (p[i] - mean) * (q[j] - mean) for i in range(K) for j in range(K))
    va = sum(rows[i] * (p[i] - mean) ** 2 for i in range(K))
    vb = sum(cols[j] * (q[j] - mean) ** 2 for j in range(K))
    out["R_s^2"] = (cov**2 / (va * vb), np.sign(cov))
    # r_int, silva2018 eqs. 8 (row x row), 9, 10
    s1 = sum(rows[i] * rows[j] for i in range(K) for j in range(i, K)) - N
    s2 = sum(cols[i] * cols[j] for i in range(K) for j in range(i, K)) - N
    s12 = sum(m[i][j] * m[a][b] for i in range(K) for j in range(K)
              for a in range(i, K) for b in range(j, K)) - N
    out["(r_int+1)^2"] = Fraction(4 * s12**2, s1 * s2)
    # OC (cardoso2011 eq. 7, gamma = 1) by the DP of §3.4, in Fractions
    beta = Fraction(1, 4) / (N * (K - 1))
    w = [[-Fraction(m[r][c], N + d1) + beta * m[r][c] * abs(r - c) for c in range(K)] for r in range(K)]
    W = [[None] * K for _ in range(K)]
    for r in range(K):
        for c in range(K):
            prev = [W[a][b] for a, b in ((r - 1, c - 1), (r - 1, c), (r, c - 1)) if a >= 0 and b >= 0]
            W[r][c] = w[r][c] + (min(prev) if prev else 1)
    out["oc"] = W[K - 1][K - 1]
    return out


def R(fr):
    return sympy.Rational(fr.numerator, fr.denominator)


@pytest.mark.parametrize("cm", MATRICES, ids=[f"K{m.shape[0]}-{i}" for i, m in enumerate(MATRICES)])
def test_exact_values_at_1e15(cm):
    ref = reference(cm)
    ex = dict(arithmetic="exact")
    N, K = int(cm.sum()), cm.shape[0]
    assert N > 10**15 and int(cm.max()) ** 2 > 2**63  # products overflow int64
    assert numeric.mer(cm, **ex) == R(ref["mer"])
    assert numeric.mae(cm, **ex) == R(ref["mae"])
    assert numeric.mse(cm, **ex) == R(ref["mse"])
    assert sympy.expand(numeric.rmse(cm, **ex) ** 2) == R(ref["rmse^2"])
    assert numeric.amae(cm, **ex) == R(ref["amae"])
    assert numeric.mmae(cm, **ex) == R(ref["mmae"])
    assert sympy.expand(numeric.macro_rmse(cm, **ex) ** 2) == R(ref["macro_rmse^2"])
    for name, f in (("tau_b^2", numeric.kendall_tau_b), ("R_s^2", numeric.spearman_rs)):
        sq, sign = ref[name]
        v = f(cm, **ex)
        assert sympy.expand(v**2) == R(sq), name
        assert sympy.sign(v) == sign, name
    assert sympy.expand((numeric.r_int(cm, **ex) + 1) ** 2) == R(ref["(r_int+1)^2"])
    assert numeric.oc(cm, sympy.Rational(1, 4) / (N * (K - 1)), **ex) == R(ref["oc"])


@pytest.mark.parametrize("cm", MATRICES, ids=[f"K{m.shape[0]}-{i}" for i, m in enumerate(MATRICES)])
def test_float_and_mp_at_1e15(cm):
    """float64 within 1e-12 * max(1, |exact|) and mp (50 digits) within 1e-45 of the exact value."""
    N, K = int(cm.sum()), cm.shape[0]
    fs = {
        "mer": numeric.mer, "mae": numeric.mae, "mse": numeric.mse, "rmse": numeric.rmse,
        "amae": numeric.amae, "mmae": numeric.mmae, "macro_rmse": numeric.macro_rmse,
        "tau_b": numeric.kendall_tau_b, "R_s": numeric.spearman_rs, "r_int": numeric.r_int,
        "oc": lambda c, **k: numeric.oc(c, sympy.Rational(1, 4) / (N * (K - 1)), **k),
        "uoc": lambda c, **k: numeric.uoc(c, sympy.Rational(1, 4), **k),
        "a_uoc": numeric.a_uoc,
    }
    with mpmath.workdps(50):
        for name, f in fs.items():
            exact = f(cm, arithmetic="exact")
            e60 = sympy.N(exact, 60)
            fl = f(cm)
            assert abs(fl - float(e60)) <= 1e-12 * max(1.0, abs(float(e60))), name
            mp = f(cm, arithmetic="mp")
            assert abs(mp - mpmath.mpf(str(e60))) <= mpmath.mpf(10) ** -45, name
