"""The property engine against a brute-force exact oracle (issue 37 item 4).

Random metrics from a small grammar (rationals; sums of square roots of
integers, their radicands sharing factors or not; base-2 logarithms;
regions where the metric is undefined; lower- or higher-is-better; bounds
stated or not), each in two forms: a per-matrix function returning exact
SymPy numbers, and a vectorised float64 form (NaN where undefined).  Each is
audited by the real engine -- the exact search of a plain callable, the
float screen confirmed exactly, and the float screen with every tie decided
on the callable's exact values -- over small random spaces, for every
property; the oracle below re-decides every property by plain loops over
the same matrices in the same order (N, K, lexicographic), with its own
exact sign rule (SymPy, nothing of :mod:`exactfloor.exact_sign`).  Asserted:
the same verdicts, the same counterexamples, ``minimal`` exactly on the
exhaustive part, the same counts, and that a counterexample found among
random matrices and shrunk is still a counterexample in the property's own
setting (its bases).

The seed is fixed (:data:`SEED`); ``ENGINE_ORACLE_CASES`` (default
:data:`CASES`) runs more, e.g. ``ENGINE_ORACLE_CASES=300 python -m pytest
proofs_tests/test_engine_oracle.py``.
"""

from __future__ import annotations

import itertools
import os
import random

import numpy as np
import pytest
import sympy

from exactfloor.errors import UndefinedMetric
from analytic.properties.audit import PROPERTIES, audit
from analytic.properties.space import Space

SEED = 37
#: random metrics in CI (each audited three ways over its own random space)
CASES = int(os.environ.get("ENGINE_ORACLE_CASES", "20"))


# ---------------------------------------------------------------------------
# the grammar of metrics
# ---------------------------------------------------------------------------
def _features(m):
    """Plain integer features of one count matrix (rows true, columns predicted)."""
    K = m.shape[0]
    idx = [(i, j) for i in range(K) for j in range(K)]
    return dict(
        N=int(m.sum()), K=K, T=int(np.trace(m)),
        E=sum(int(m[i, j]) for i, j in idx if i != j),
        D=sum(int(m[i, j]) * abs(i - j) for i, j in idx),
        S=sum(int(m[i, j]) * (i - j) ** 2 for i, j in idx),
        U=sum(int(m[i, j]) for i, j in idx if j > i),
        L=sum(int(m[i, j]) for i, j in idx if j < i),
        R0=int(m[0].sum()), C0=int(m[:, 0].sum()),
    )


def _features_stack(S):
    S = np.asarray(S, dtype=np.int64)
    K = S.shape[-1]
    i, j = np.indices((K, K))
    tot = lambda w: (S * w).sum(axis=(1, 2)).astype(float)  # noqa: E731
    return dict(N=tot(np.ones((K, K))), K=np.full(len(S), float(K)), T=tot(i == j),
                E=tot(i != j), D=tot(np.abs(i - j)), S=tot((i - j) ** 2), U=tot(j > i),
                L=tot(j < i), R0=S[:, 0].sum(axis=-1).astype(float),
                C0=S[:, :, 0].sum(axis=-1).astype(float))


#: term name -> (exact value from features, float value from stacked features); every
#: term is defined where N > 0 (the grammar's undefined regions are added on top)
def _terms(rng):
    p, q = rng.choice([(2, 8), (2, 3), (3, 12), (5, 7), (6, 24)])  # radicands sharing a factor or not
    a, b = rng.randint(1, 3), rng.randint(0, 2)
    return {
        "error rate": (lambda f: sympy.Rational(f["E"], f["N"]),
                       lambda f: f["E"] / f["N"]),
        "accuracy": (lambda f: sympy.Rational(f["T"], f["N"]),
                     lambda f: f["T"] / f["N"]),
        "mean distance": (lambda f: sympy.Rational(a * f["D"] + b * f["E"], f["N"]),
                          lambda f: (a * f["D"] + b * f["E"]) / f["N"]),
        "asymmetry": (lambda f: sympy.Rational(f["U"] - f["L"], f["N"]),
                      lambda f: (f["U"] - f["L"]) / f["N"]),
        "normalised distance": (lambda f: sympy.Rational(f["D"], f["N"] * max(f["K"] - 1, 1)),
                                lambda f: f["D"] / (f["N"] * np.maximum(f["K"] - 1, 1))),
        "root mean square": (lambda f: sympy.sqrt(sympy.Rational(f["S"], f["N"])),
                             lambda f: np.sqrt(f["S"] / f["N"])),
        "sum of roots": (lambda f: (sympy.sqrt(p * f["E"]) + sympy.sqrt(q * f["D"])) / f["N"],
                         lambda f: (np.sqrt(p * f["E"]) + np.sqrt(q * f["D"])) / f["N"]),
        "logarithm": (lambda f: sympy.log(1 + f["D"], 2) - sympy.log(1 + f["N"], 2) + 1,
                      lambda f: np.log2(1 + f["D"]) - np.log2(1 + f["N"]) + 1),
        "first-row miss": (lambda f: sympy.Rational(f["E"] + f["C0"], f["N"] + f["R0"]),
                           lambda f: (f["E"] + f["C0"]) / (f["N"] + f["R0"])),
        "tiny distance": (lambda f: sympy.Rational(f["D"], 10**12),
                          lambda f: f["D"] * 1e-12),
    }


#: where the metric is undefined: a predicate of the features (exact and float agree)
UNDEFINED = {
    "nowhere": lambda f: False,
    "no correct prediction": lambda f: f["T"] == 0,
    "empty first row": lambda f: f["R0"] == 0,
    "N = 2": lambda f: f["N"] == 2,
    "one class": lambda f: f["K"] == 1,
}


class Case:
    """One random metric: its two forms, orientation, bounds and searched space."""

    def __init__(self, k):
        rng = random.Random(SEED * 1000 + k)
        terms = _terms(rng)
        names = sorted(rng.sample(sorted(terms), rng.choice([1, 1, 2])))
        coef = [rng.choice([1, 1, 2]) for _ in names]
        if rng.random() < 0.4 and "tiny distance" not in names:  # float ties, no exact ties
            names.append("tiny distance")
            coef.append(rng.choice([1, -1]))
        self.undefined = rng.choice(sorted(UNDEFINED))
        self.how = rng.choice(["raise", "nan", "none"])
        self.better = rng.choice(["lower", "higher"])
        if k % 4 == 3:  # a monotone rate but for a 1e-12 term: only exact ties decide
            self.better = rng.choice(["lower", "higher"])
            names = ["error rate" if self.better == "lower" else "accuracy", "tiny distance"]
            coef = [1, -1 if self.better == "lower" else 1]
        self.bounds = rng.choice([(None, None), (0, None), (0, 1), (0, 2)])
        self.text = (" + ".join(f"{c} * {n}" for c, n in zip(coef, names))
                     + f"; undefined: {self.undefined} ({self.how}); {self.better} is better; "
                     f"bounds {self.bounds}")
        undefined = UNDEFINED[self.undefined]

        def exact(m):
            f = _features(np.asarray(m))
            if undefined(f):
                if self.how == "raise":
                    raise UndefinedMetric(self.undefined)
                return None if self.how == "none" else float("nan")
            return sum((c * terms[n][0](f) for c, n in zip(coef, names)), sympy.Integer(0))

        def vectorized(S):
            f = _features_stack(S)
            with np.errstate(all="ignore"):
                v = sum(c * terms[n][1](f) for c, n in zip(coef, names))
            bad = np.array([undefined({k: int(x[i]) for k, x in f.items()})
                            for i in range(len(S))], dtype=bool)
            return np.where(bad, np.nan, v)

        exact.__name__ = f"case{k}"
        self.exact, self.vectorized = exact, vectorized
        self.space = Space(
            exhaustive=tuple((K, rng.randint(1, 3 if K < 3 else 2)) for K in range(1, 4)),
            random=rng.choice([0, 0, 25]), random_k=4, random_n=5, seed=rng.randint(0, 9),
            triangle=((2, rng.randint(1, 3)), (3, rng.randint(1, 2))), triangle_random=0,
            diagonal=((3, rng.randint(3, 6)), (4, rng.randint(2, 4))))


# ---------------------------------------------------------------------------
# the oracle: every property by plain loops, exact signs by SymPy
# ---------------------------------------------------------------------------
def _sign(x):
    """The exact sign of a SymPy number (rational, roots, logarithms)."""
    x = sympy.nsimplify(x) if isinstance(x, sympy.Float) else x
    if x.is_Rational:
        return 1 if x > 0 else -1 if x < 0 else 0
    v = sympy.N(x, 60)
    if abs(v) > sympy.Float("1e-40"):
        return 1 if v > 0 else -1
    assert sympy.simplify(sympy.expand_log(x, force=True)) == 0 or x.equals(0), x
    return 0


class Oracle:
    def __init__(self, case):
        self.f, self.better = case.exact, case.better
        self.lo, self.hi = (None if b is None else sympy.Integer(b) for b in case.bounds)
        self.memo = {}

    def value(self, m):
        """The exact value, or None where undefined."""
        m = np.asarray(m, dtype=np.int64)
        key = (m.shape[0], m.tobytes())
        if key not in self.memo:
            try:
                v = self.f(m)
            except UndefinedMetric:
                v = None
            if isinstance(v, float):  # NaN
                v = None
            self.memo[key] = v
        return self.memo[key]

    def loss_cmp(self, a, b):
        """The sign of loss(a) - loss(b) (loss: the value, or minus it if higher is better)."""
        return _sign(a - b) * (1 if self.better == "lower" else -1)

    # each property: None, or a violation on the base m
    def range(self, m):
        v = self.value(m)
        return v is not None and (self.lo is not None and _sign(v - self.lo) < 0
                                  or self.hi is not None and _sign(v - self.hi) > 0)

    def identity(self, m):
        v = self.value(m)
        if v is None:
            return False
        best = self.lo if self.better == "lower" else self.hi
        diagonal = not any(m[i, j] for i in range(len(m)) for j in range(len(m)) if i != j)
        return diagonal != (_sign(v - best) == 0)

    def _same(self, a, b):
        va, vb = self.value(a), self.value(b)
        if va is None or vb is None:
            return va is None and vb is None
        return _sign(va - vb) == 0

    def symmetry(self, m):
        return not self._same(m, m.T.copy())

    def scale(self, m):
        return not self._same(m, 2 * m)

    def _inserted(self, m, p):
        K = len(m)
        out = np.zeros((K + 1, K + 1), dtype=np.int64)
        rest = [i for i in range(K + 1) if i != p]
        for a, i in enumerate(rest):
            for b, j in enumerate(rest):
                out[i, j] = m[a, b]
        return out

    def ordinal_invariance(self, m):
        return any(not self._same(m, self._inserted(m, p)) for p in range(1, len(m)))

    def empty_class(self, m):
        return any(not self._same(m, self._inserted(m, p)) for p in (0, len(m)))

    def _monotone(self, m, strict):
        v = self.value(m)
        if v is None:
            return False
        K = len(m)
        for i in range(K):
            for j in range(K):
                if i == j or not m[i, j]:
                    continue
                s = m.copy()
                s[i, j] -= 1
                s[i, j - 1 if j > i else j + 1] += 1
                w = self.value(s)
                if w is None:
                    continue
                c = self.loss_cmp(w, v)
                if c > 0 or (strict and c == 0):
                    return True
        return False

    def monotonicity(self, m):
        return self._monotone(m, False)

    def ordinal_monotonicity(self, m):
        return self._monotone(m, True)

    def imbalance(self, m):
        K = len(m)
        n = [int(m[i, i]) for i in range(K)]
        for c2 in range(1, K - 1):
            for dist in range(1, min(c2, K - 1 - c2) + 1):
                for c1, c3 in ((c2 - dist, c2 + dist), (c2 + dist, c2 - dist)):
                    if not n[c1] > n[c3] >= 1:
                        continue
                    a1, a3 = m.copy(), m.copy()
                    a1[c1, c1] -= 1
                    a1[c1, c2] += 1
                    a3[c3, c3] -= 1
                    a3[c3, c2] += 1
                    v1, v3 = self.value(a1), self.value(a3)
                    if v1 is not None and v3 is not None and self.loss_cmp(v1, v3) >= 0:
                        return True
        return False

    def unobserved_class(self, m):
        return self.value(m) is None

    def distance(self, x, y, K):
        cm = np.zeros((K, K), dtype=np.int64)
        for a, b in zip(x, y):
            cm[a, b] += 1
        return self.value(cm)

    def triangle(self, t):
        a, b, c, K = t
        d = [self.distance(a, b, K), self.distance(b, c, K), self.distance(a, c, K)]
        return None not in d and _sign(d[2] - d[0] - d[1]) > 0


def _matrices(K, N):
    """Every K x K count matrix with total N, lexicographic in the flattened cells."""
    return [np.array(c, dtype=np.int64).reshape(K, K)
            for c in itertools.product(range(N + 1), repeat=K * K) if sum(c) == N]


def _applies(name, case):
    if name == "range":
        return case.bounds != (None, None)
    if name == "identity":
        return (case.bounds[0] if case.better == "lower" else case.bounds[1]) is not None
    if name == "triangle":
        return case.better == "lower" and case.bounds[0] == 0
    return True


def _in_setting(name, m):
    """The property's own bases (its setting)."""
    K = len(m)
    if name in ("imbalance", "imbalance_populated"):
        diag = not any(m[i, j] for i in range(K) for j in range(K) if i != j)
        return diag and K >= 3 and (name == "imbalance" or all(m[i, i] > 0 for i in range(K)))
    if name == "unobserved_class":
        return any(m[i].sum() == 0 for i in range(K))
    if name.endswith("_populated"):
        return all(m[i].sum() > 0 for i in range(K))
    return True


def oracle(case):
    """``{property: (verdict, counterexample as lists or None, minimal, checked, undefined)}``
    of the exhaustive parts (the random part: None for a property decided there)."""
    o = Oracle(case)
    sp = case.space
    out = {}
    for name in PROPERTIES:
        if not _applies(name, case):
            out[name] = ("n/a", None, False, 0, 0)
            continue
        base = name.removesuffix("_populated")
        check = getattr(o, base)
        if name == "triangle":
            bases = []
            for n in range(1, max(x for _, x in sp.triangle) + 1):
                for K, top in sorted(sp.triangle):
                    if n <= top:
                        vecs = list(itertools.product(range(K), repeat=n))
                        bases += [(a, b, c, K) for a in vecs for b in vecs if b != a
                                  for c in vecs if c != b]
            defined = lambda t: None not in (o.distance(t[0], t[1], t[3]),  # noqa: E731
                                             o.distance(t[1], t[2], t[3]),
                                             o.distance(t[0], t[2], t[3]))
        else:
            if base == "imbalance":
                sizes = sorted((N, K) for K, top in sp.diagonal for N in range(1, top + 1))
                mats = [np.diag(d).astype(np.int64) for N, K in sizes
                        for d in itertools.product(range(N + 1), repeat=K) if sum(d) == N]
            else:
                sizes = sorted((N, K) for K, top in sp.exhaustive for N in range(1, top + 1))
                mats = [m for N, K in sizes for m in _matrices(K, N)]
            bases = [m for m in mats if _in_setting(name, m)]
            defined = lambda m: o.value(m) is not None  # noqa: E731
        found = None
        for k, t in enumerate(bases):
            if check(t):
                found = k
                break
        if found is not None:
            t = bases[found]
            ce = ([list(t[0]), list(t[1]), list(t[2]), t[3]] if name == "triangle"
                  else t.tolist())
            out[name] = ("fails", ce, True, found + 1, None)
        elif sp.random and name != "triangle" and base != "imbalance":
            out[name] = None  # decided by the random part: checked against the oracle's check
        else:
            und = sum(1 for t in bases if not defined(t))
            verdict = ("n/a" if not bases or (und == len(bases) and name != "unobserved_class")
                       else "holds")
            out[name] = (verdict, None, False, len(bases), und)
    return out, o


def _engine_tuple(res):
    ce = res.counterexample
    if isinstance(ce, np.ndarray):
        ce = ce.tolist()
    elif isinstance(ce, tuple):
        ce = [list(ce[0]), list(ce[1]), list(ce[2]), ce[3]]
    return (res.verdict, ce, res.minimal, res.checked,
            None if res.verdict == "fails" else res.undefined)


MODES = {
    "exact search": lambda c: audit(c.exact, space=c.space, better=c.better, bounds=c.bounds,
                                    prove=False),
    "float screen": lambda c: audit(c.exact, space=c.space, better=c.better, bounds=c.bounds,
                                    vectorized=c.vectorized, prove=False),
    "exact ties": lambda c: audit(c.exact, space=c.space, better=c.better, bounds=c.bounds,
                                  vectorized=c.vectorized, exact_ties=True, prove=False),
}


@pytest.mark.parametrize("k", range(CASES))
def test_the_engine_agrees_with_the_brute_force_oracle(k):
    case = Case(k)
    want, o = oracle(case)
    for mode, run in MODES.items():
        rep = run(case)
        for name, res in rep.results.items():
            got = _engine_tuple(res)
            where = f"case {k} ({case.text}), {mode}, {name}"
            w = want[name]
            if w is None:  # the random part decided it
                if res.verdict == "fails":
                    m = res.counterexample
                    assert _in_setting(name, m), f"{where}: {m.tolist()} left the setting"
                    base = name.removesuffix("_populated")
                    assert getattr(o, base)(m), f"{where}: {m.tolist()} is no counterexample"
                    assert not res.minimal, where
                else:
                    assert res.verdict in ("holds", "n/a"), where
                continue
            assert got == w, f"{where}: engine {got}, oracle {w}"
    # no tie budget: ties left unconfirmed (all of them: 1e-12 apart or equal), so the
    # engine may miss a counterexample that only a tie shows, and must say so
    rep = audit(case.exact, space=case.space, better=case.better, bounds=case.bounds,
                vectorized=case.vectorized, prove=False, tie_budget=0)
    for name, res in rep.results.items():
        w, where = want[name], f"case {k} ({case.text}), tie_budget=0, {name}"
        if w is None:
            continue
        if res.verdict == "fails":
            base = name.removesuffix("_populated")
            t = res.counterexample
            assert getattr(o, base)(t if name != "triangle" else tuple(t)), where
            if res.minimal:  # claimed minimal: no tie before it was left unconfirmed
                assert _engine_tuple(res)[:3] == w[:3], f"{where}: {_engine_tuple(res)}, {w}"
            # the ties counted up to a counterexample, none confirmed: not certified minimal
            assert not (res.minimal and res.ties > res.ties_confirmed), where
        if _engine_tuple(res)[:2] != w[:2]:  # missed or later: only behind unconfirmed ties
            assert res.ties > res.ties_confirmed and not res.minimal, where


def test_the_grammar_covers_what_it_promises():
    """The fixed-seed cases cover both orientations, every form of value and of
    undefinedness, and some counterexamples in random parts (not a vacuous run)."""
    cases = [Case(k) for k in range(CASES)]  # the cases the oracle test runs
    text = " ".join(c.text for c in cases)
    assert {c.better for c in cases} == {"lower", "higher"}
    assert {c.how for c in cases} == {"raise", "nan", "none"}
    assert {c.better for c in cases if "tiny" in c.text} == {"lower", "higher"}
    assert {c.better for c in cases if "rate + -1 * tiny" in c.text or
            "accuracy + 1 * tiny" in c.text} == {"lower", "higher"}
    for word in ("sum of roots", "root mean square", "logarithm", "normalised distance",
                 "first-row miss", "mean distance", "asymmetry", "undefined: nowhere",
                 "undefined: one class", "undefined: N = 2", "undefined: empty first row",
                 "undefined: no correct prediction"):
        assert word in text, word
    assert {c.bounds for c in cases} == {(None, None), (0, None), (0, 1), (0, 2)}
    assert any(c.space.random for c in cases)
