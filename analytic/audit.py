r"""The property auditor: which formal properties a confusion-matrix metric has.

:func:`audit` takes a metric -- a name of :data:`numeric.registry.REGISTRY`,
a :class:`numeric.registry.Metric`, or any Python function of a count matrix
(any arithmetic: it may return ints, :class:`fractions.Fraction`, SymPy
numbers or floats, the latter compared as the exact binary fractions they
are) -- and decides each property of :data:`PROPERTIES` by

1. an **exhaustive search** over every matrix with ``1 <= K <= max_k``
   classes and ``1 <= N <= max_n`` samples, walked in the shrinking order
   of :func:`analytic.generators.order_key` (fewest samples, then classes,
   then lexicographic), so the first counterexample found is the minimal one
   of the space;
2. a **random search** (``random`` matrices with ``K`` up to ``max_k + 1``
   and ``N`` in ``max_n + 1 .. 2 max_n``, seeded); a counterexample found
   there only is shrunk with :func:`analytic.shrink.shrink`.

Every value is exact (``arithmetic="exact"``); comparisons of algebraic
values use a 40-digit evaluation whose error SymPy controls and, when the
difference is below ``1e-30``, a symbolic simplification.  Each
``(metric, matrix)`` value is computed once per audit.

3. a **symbolic proof attempt** (:mod:`analytic.prover`) of each property
   it handles: the metric's own formula evaluated on matrices of positive
   integer symbols, one per support pattern, on the scopes of ``prove``
   (default :data:`analytic.prover.DEFAULT_SCOPES`: every matrix with
   ``K <= 2``, and every ``3 x 3`` matrix whose cells are all positive).
   Every proved scope is cross-checked against the search: its minimal
   counterexample must lie outside the scope, and the property's check must
   pass on every searched matrix of the scope and on three random
   all-positive ones; a contradiction raises ``RuntimeError``.  (A
   refuted property may be proved on a smaller scope: MER's ordinal
   monotonicity holds for ``K <= 2`` and fails at ``K = 3``.)

The verdict says which kind of evidence there is: ``"proved"`` (a symbolic
proof on the scope :attr:`PropertyResult.proof` states, and no
counterexample in the search), ``"holds"`` (no counterexample on the
searched matrices, no proof), ``"fails"`` (the minimal counterexample) or
``"n/a"``.

Properties are oriented by the metric's ``better`` direction: the "loss"
is the value for a lower-is-better metric and minus the value otherwise.
Formalisations (``A`` a ``K x K`` count matrix, rows = true, columns =
predicted; ``f`` the metric; "undefined" a ``ValueError``):

``range``
    ``lo <= f(A) <= hi`` for the stated bounds (registry ``bounds``).
``identity``
    ``f(A)`` equals the best bound (``lo`` if lower is better, ``hi``
    otherwise) if and only if ``A`` is diagonal.
``symmetry``
    ``f(A^T) = f(A)`` (both undefined counts as equal).
``triangle``
    For label vectors ``a, b, c`` of length ``n`` over ``K`` classes, with
    ``d(a, b) = f(cm(a, b))`` (``a`` true): ``d(a, c) <= d(a, b) + d(b, c)``.
    Only for lower-is-better metrics whose lower bound is 0 (distance-like);
    searched exhaustively over ``2 <= K <= max_k``, ``n <= min(max_n, 3)``.
``monotonicity``
    Moving one sample one class toward the diagonal (its prediction one step
    closer to its true class) never makes the loss larger.
``ordinal_monotonicity``
    Amigó et al. 2020 (ACL), §3 "Ordinal Monotonicity": if every changed
    prediction moves closer to its true class without crossing it, the
    score is strictly better.  Since any such change is a sequence of the
    one-step moves above, this is: every one-step move strictly lowers the loss.
``ordinal_invariance``
    Amigó et al. 2020, §3 "Ordinal Invariance": ``Eff(s, g) = Eff(f(s), f(g))``
    for a strictly increasing relabelling ``f`` of the classes.  A matrix
    metric sees the classes as positions ``0..K-1``; a strictly increasing
    map into a longer scale leaves gaps, i.e. inserts empty classes (zero
    row and column).  Formalised as: inserting one empty class strictly
    between two classes (positions ``1..K-1``) leaves ``f`` unchanged.
    (With ``empty_class`` below, every strictly increasing relabelling.)
``imbalance``
    Amigó et al. 2020, §3 "Class Imbalance": ``Eff(g_{d1->c2}, g) >
    Eff(g_{d3->c2}, g)`` when ``n_{c1} > n_{c3}``: from a perfect output
    ``g`` (a diagonal matrix), misclassifying one item of the more frequent
    class ``c1`` into ``c2`` is strictly better than one item of the rarer
    ``c3`` into ``c2``.  We require ``c2`` strictly between ``c1`` and
    ``c3`` at equal distance (our formalisation: the part of the paper we
    could read does not say how ``c2`` is placed; equal distance keeps
    the ordinal distance out of the comparison).  Searched over diagonal
    matrices with ``3 <= K <= max_k`` and ``N <= 2 max_n``.
``scale``
    ``f(2A) = f(A)`` (scale invariance, checked at ``k = 2``).
``empty_class``
    Appending an empty class at either end of the scale leaves ``f`` unchanged.
``unobserved_class``
    ``f`` is defined on every matrix with an empty row (a class with no true
    sample).

The properties that build a larger matrix from ``A`` (``ordinal_invariance``,
``empty_class``, ``scale``) take ``A`` with ``K <= max_k - 1`` from the
exhaustive space (and every random matrix), which bounds the cost.

Examples
--------
>>> r = audit(lambda A: sum(A[i][j] for i in range(len(A)) for j in range(len(A)) if i != j),
...           properties=["symmetry", "scale"], max_k=3, max_n=1, random=0)
>>> print(r.results["symmetry"].verdict, r.results["scale"].verdict)
holds fails
>>> r.results["scale"].counterexample.tolist()
[[0, 0], [1, 0]]

A registered metric's formula is also evaluated on symbolic counts:

>>> r = audit("mae", ["scale", "symmetry"], max_k=2, max_n=2, random=0)
>>> print(r.results["scale"].cell(), "|", r.results["scale"].proof.scope_text())
proved (K<=2, K=3+) | every matrix with K = 1; every matrix with K = 2; every matrix with K = 3 and all cells positive
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable, Iterable

import mpmath
import numpy as np
import sympy

from . import prover as _prover
from .generators import (all_matrices, exhaustive, insert_empty_class, label_vectors, matrix_text,
                         order_key, random_matrices, step_toward_diagonal)
from .shrink import shrink

__all__ = ["PROPERTIES", "Property", "PropertyResult", "AuditReport", "audit",
           "audit_registered", "property_table", "table_markdown", "DEFAULTS", "compare"]

#: default search sizes of the property table (the header states them)
DEFAULTS = dict(max_k=3, max_n=3, random=24, seed=0)


@dataclass(frozen=True)
class Property:
    """One property: a short column name, a title and where it comes from."""

    name: str
    title: str
    source: str


PROPERTIES = {p.name: p for p in [
    Property("range", "value within the stated bounds", "registry bounds"),
    Property("identity", "best value exactly on diagonal matrices", "cardoso2011 §3.3 (for OC)"),
    Property("symmetry", "f(A^T) = f(A)", "cardoso2011 §3.3 (for OC)"),
    Property("triangle", "d(a,c) <= d(a,b) + d(b,c) on label vectors", "metric axioms"),
    Property("monotonicity", "a sample moved toward the diagonal never worsens", "ordinal error"),
    Property("ordinal_monotonicity", "a prediction moved closer strictly improves",
             "Amigó et al. 2020 §3"),
    Property("ordinal_invariance", "an empty class inserted between classes changes nothing",
             "Amigó et al. 2020 §3"),
    Property("imbalance", "an error in a more frequent class costs strictly less",
             "Amigó et al. 2020 §3"),
    Property("scale", "f(2A) = f(A)", "scale invariance"),
    Property("empty_class", "an empty class appended at an end changes nothing", "invariance"),
    Property("unobserved_class", "defined with an empty row (unobserved true class)", "behaviour"),
]}


# ---------------------------------------------------------------------------
# exact values and their comparison
# ---------------------------------------------------------------------------
class Undefined:
    """The metric raised ``ValueError`` on a matrix (the message is kept)."""

    def __init__(self, message):
        self.message = message

    def __repr__(self):
        return f"undefined ({self.message})"


@dataclass(frozen=True)
class Value:
    """An exact value: a :class:`~fractions.Fraction` when rational, else a
    SymPy expression with a 40-digit approximation."""

    exact: object
    q: Fraction | None
    approx: object

    def __str__(self):
        return str(self.q) if self.q is not None else sympy.sstr(self.exact)


def _value(v) -> Value:
    if isinstance(v, Fraction):
        return Value(v, v, None)
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return Value(Fraction(int(v)), Fraction(int(v)), None)
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            raise ValueError(f"the metric returned {v}")
        q = Fraction(float(v))  # the exact binary fraction of the float
        return Value(q, q, None)
    e = sympy.sympify(v)
    if e.is_Rational:
        q = Fraction(int(e.p), int(e.q))
        return Value(q, q, None)
    if not e.is_real or e.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        raise ValueError(f"the metric returned {e}, not a finite real number")
    with mpmath.workdps(_DPS):
        approx = mpmath.mpf(sympy.N(e, _DPS)._mpf_)
    return Value(e, None, approx)


#: digits of the approximations of irrational values (SymPy's evalf controls the error)
_DPS = 50


def _approx(v: Value):
    if v.approx is not None:
        return v.approx
    return mpmath.mpf(v.q.numerator) / v.q.denominator


def compare(a: Value, b: Value) -> int:
    """The exact sign of ``a - b`` (-1, 0, 1).

    Rationals compare exactly; otherwise the 50-digit approximations decide
    when they differ by more than ``1e-30`` (far above their error), and a
    symbolic simplification of the difference decides the rest.
    """
    if a.q is not None and b.q is not None:
        return (a.q > b.q) - (a.q < b.q)
    with mpmath.workdps(_DPS):
        d = _approx(a) - _approx(b)
        if abs(d) > mpmath.mpf("1e-30") * max(1, abs(_approx(a))):
            return 1 if d > 0 else -1
    return _sign(_expr(a) - _expr(b))


def _expr(v: Value):
    return sympy.Rational(v.q.numerator, v.q.denominator) if v.q is not None else v.exact


def _sign(d) -> int:
    d = sympy.sympify(d)
    if d.is_Rational:
        return int(sympy.sign(d))
    approx = d.evalf(40)
    if abs(approx) > sympy.Float("1e-30"):
        return 1 if approx > 0 else -1
    if _formally_zero(d) or sympy.simplify(d) == 0 or d.equals(0):
        return 0
    approx = d.evalf(200)
    if approx == 0:
        raise ValueError(f"cannot decide the sign of {d}")
    return 1 if approx > 0 else -1


def _formally_zero(d) -> bool:
    """``d`` (a real number) is 0 as a rational function of the logarithms of
    primes: each ``log`` of a positive rational expanded into them, then
    cancelled.  True proves ``d = 0``; False decides nothing.  Much cheaper than
    ``simplify`` for the sums of logarithms of CEM-ORD (Amigó et al. 2020).
    """
    if d.free_symbols or any(not a.args[0].is_Rational or a.args[0] <= 0
                             for a in d.atoms(sympy.log)):
        return False
    return sympy.cancel(sympy.expand_log(d, force=True, factor=True)) == 0


def _exceeds_sum(c: Value, a: Value, b: Value) -> bool:
    """``c > a + b``, exactly (approximations first, as in :func:`compare`)."""
    if a.q is not None and b.q is not None and c.q is not None:
        return c.q > a.q + b.q
    with mpmath.workdps(_DPS):
        d = _approx(c) - _approx(a) - _approx(b)
        if abs(d) > mpmath.mpf("1e-30") * max(1, abs(_approx(c))):
            return d > 0
    return _sign(_expr(c) - _expr(a) - _expr(b)) > 0


# ---------------------------------------------------------------------------
# the evaluation context of one audit
# ---------------------------------------------------------------------------
def _key(m):
    return (m.shape[0], m.tobytes())


def _is_diagonal(m):
    return not np.any(m - np.diag(np.diag(m)))


class _Context:
    def __init__(self, f, better, bounds, max_k, max_n, random, seed, symbolic=None, scopes=()):
        self.f, self.better = f, better
        self.symbolic, self.scopes = symbolic, tuple(scopes)
        self.raw_bounds = bounds
        self._evaluator = None
        self.sign = 1 if better == "lower" else -1
        self.bounds = tuple(None if b is None else _value(sympy.sympify(b)) for b in bounds)
        self.max_k, self.max_n, self.random, self.seed = max_k, max_n, random, seed
        self.cache = {}
        self.space = list(all_matrices(max_k, max_n))
        self.pool = []
        rng = np.random.default_rng(seed)
        for i in range(random):
            K = int(rng.integers(2, max_k + 2))
            N = int(rng.integers(max_n + 1, 2 * max_n + 1))
            self.pool += random_matrices(K, N, 1, seed=seed * 1000 + i)

    def value(self, m):
        k = _key(m)
        if k not in self.cache:
            try:
                v = self.f(m.copy())
            except ValueError as exc:  # the metric is undefined on this matrix
                self.cache[k] = Undefined(str(exc))
            else:
                # a NaN, an infinity or a non-number is a broken metric, not an
                # undefined value: every property would "hold" on it
                try:
                    if isinstance(v, (bool, np.bool_)):
                        raise TypeError
                    self.cache[k] = _value(v)
                except (ValueError, TypeError, AttributeError, sympy.SympifyError):
                    raise ValueError(
                        f"the metric returned {v!r:.60} on {m.tolist()}, not a finite real "
                        "number (raise ValueError where it is undefined)") from None
        return self.cache[k]

    def exact(self, m):
        """The exact value as a SymPy number, or None where the metric is undefined."""
        v = self.value(m)
        return None if isinstance(v, Undefined) else _expr(v)

    def prove(self, prop):
        """The symbolic proof attempt of ``prop`` (:func:`analytic.prover.prove`)."""
        if self._evaluator is None:
            self._evaluator = _prover.Evaluator(self.symbolic, self.exact)
        return _prover.prove_with(self._evaluator, prop, better=self.better,
                                  bounds=self.raw_bounds, scopes=self.scopes)

    def loss_cmp(self, a, b):
        """> 0 when ``a`` is worse than ``b``."""
        return self.sign * compare(a, b)

    def describe(self, m):
        v = self.value(m)
        return f"f({matrix_text(m)}) = {v}" if isinstance(v, Value) else f"f({matrix_text(m)}) undefined"


def _same(ctx, a, b):
    """None when ``f(a) = f(b)`` (or both undefined), else the witness text."""
    va, vb = ctx.value(a), ctx.value(b)
    if isinstance(va, Undefined) and isinstance(vb, Undefined):
        return None
    if isinstance(va, Undefined) or isinstance(vb, Undefined) or compare(va, vb):
        return f"{ctx.describe(a)} but {ctx.describe(b)}"
    return None


# each check: (ctx, A) -> None or a witness text; None also for a skipped A
def _check_range(ctx, m):
    v = ctx.value(m)
    if isinstance(v, Undefined):
        return None
    lo, hi = ctx.bounds
    if lo is not None and compare(v, lo) < 0 or hi is not None and compare(v, hi) > 0:
        return f"{ctx.describe(m)} outside [{lo}, {hi}]"
    return None


def _best(ctx):
    return ctx.bounds[0] if ctx.better == "lower" else ctx.bounds[1]


def _check_identity(ctx, m):
    v = ctx.value(m)
    if isinstance(v, Undefined):
        return None
    at_best = compare(v, _best(ctx)) == 0
    diag = _is_diagonal(m)
    if diag and not at_best:
        return f"diagonal, yet {ctx.describe(m)}, not the best value {_best(ctx)}"
    if at_best and not diag:
        return f"not diagonal, yet {ctx.describe(m)}, the best value"
    return None


def _check_symmetry(ctx, m):
    return _same(ctx, m, np.ascontiguousarray(m.T))


def _moves(m):
    """(i, j, moved matrix): one sample of cell (i, j) one step toward column i."""
    K = m.shape[0]
    for i in range(K):
        for j in range(K):
            if j != i and m[i, j]:
                yield i, j, step_toward_diagonal(m, i, j)


def _check_monotone(strict):
    def check(ctx, m):
        v = ctx.value(m)
        if isinstance(v, Undefined):
            return None
        for i, j, s in _moves(m):
            w = ctx.value(s)
            if isinstance(w, Undefined):
                continue
            c = ctx.loss_cmp(w, v)
            if c > 0 or (strict and c == 0):
                verb = "worse" if c > 0 else "no better"
                return (f"moving a sample of true class {i} from predicted {j} one step toward "
                        f"{i} is {verb}: {ctx.describe(m)}, {ctx.describe(s)}")
        return None
    return check


def _check_insert(positions):
    def check(ctx, m):
        for p in positions(m.shape[0]):
            w = _same(ctx, m, insert_empty_class(m, p))
            if w:
                return f"empty class inserted at position {p}: {w}"
        return None
    return check


def _check_scale(ctx, m):
    return _same(ctx, m, 2 * m)


def _check_unobserved(ctx, m):
    if not np.any(m.sum(axis=1) == 0):
        return None
    v = ctx.value(m)
    if isinstance(v, Undefined):
        return f"f({matrix_text(m)}) raises: {v.message}"
    return None


def _check_imbalance(ctx, m):
    K = m.shape[0]
    if K < 3 or not _is_diagonal(m):
        return None
    n = np.diag(m)
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
                v1, v3 = ctx.value(a1), ctx.value(a3)
                if isinstance(v1, Undefined) or isinstance(v3, Undefined):
                    continue
                if ctx.loss_cmp(v1, v3) >= 0:
                    return (f"class {c1} ({n[c1]} samples) -> {c2} is not better than class "
                            f"{c3} ({n[c3]} samples) -> {c2}: {ctx.describe(a1)}, "
                            f"{ctx.describe(a3)}")
    return None


_CHECKS = {
    "range": _check_range,
    "identity": _check_identity,
    "symmetry": _check_symmetry,
    "monotonicity": _check_monotone(strict=False),
    "ordinal_monotonicity": _check_monotone(strict=True),
    "ordinal_invariance": _check_insert(_prover.INSERTIONS["ordinal_invariance"]),
    "imbalance": _check_imbalance,
    "scale": _check_scale,
    "empty_class": _check_insert(_prover.INSERTIONS["empty_class"]),
    "unobserved_class": _check_unobserved,
}

#: properties whose check builds a matrix with one more class or twice the samples
_GROWING = ("ordinal_invariance", "empty_class", "scale")


def _bases(ctx, name):
    """The exhaustive bases and the random bases of a property, with a description."""
    if name == "imbalance":
        ex = [d for N in range(1, 2 * ctx.max_n + 1) for K in range(3, ctx.max_k + 1)
              for d in exhaustive(K, N, zero_rows=(), zero_cols=()) if _is_diagonal(d)]
        rnd = [np.diag(np.diag(m) + m.sum(axis=1)) for m in ctx.pool if m.shape[0] >= 3]
        return ex, rnd, (f"diagonal matrices 3 <= K <= {ctx.max_k}, N <= {2 * ctx.max_n}, "
                         f"and {len(rnd)} random diagonal ones")
    if name in _GROWING:
        ex = [m for m in ctx.space if m.shape[0] <= ctx.max_k - 1]
        return ex, ctx.pool, (f"K <= {ctx.max_k - 1}, N <= {ctx.max_n} exhaustive, "
                              f"{len(ctx.pool)} random")
    return ctx.space, ctx.pool, (f"K <= {ctx.max_k}, N <= {ctx.max_n} exhaustive, "
                                 f"{len(ctx.pool)} random")


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PropertyResult:
    """The verdict on one property.

    ``verdict`` is ``"proved"`` (a symbolic proof on the scope of ``proof``,
    and no counterexample on the searched matrices), ``"holds"`` (no
    counterexample on the searched matrices, no proof), ``"fails"``
    (``counterexample`` and ``witness`` say how) or ``"n/a"`` (``witness``
    says why).  ``how`` says how the counterexample was found; ``proof`` is
    the :class:`analytic.prover.Proof` attempt, also for a refuted property
    (None when none was made: the prover does not handle the property, or
    the metric is a callable without a symbolic form).
    """

    property: str
    verdict: str
    counterexample: object = None
    witness: str = ""
    searched: str = ""
    how: str = ""
    checked: int = 0
    proof: object = None

    @property
    def holds(self) -> bool:
        """True for ``"proved"`` and ``"holds"``: no counterexample found."""
        return self.verdict in ("proved", "holds")

    def label(self) -> str:
        """The verdict as shown: ``proved (scope)``, ``holds``, ``fails`` or ``n/a``."""
        return f"proved ({self.proof.short()})" if self.verdict == "proved" else self.verdict

    def cell(self) -> str:
        """The table cell: :meth:`label`, with the counterexample after ``fails``."""
        if self.verdict != "fails":
            return self.label()
        return f"fails {self.counterexample_text()}"

    def evidence(self) -> str:
        """The kind of evidence in words: the proof's scope, or the searched space."""
        if self.verdict == "proved":
            return f"proved symbolically on {self.proof.scope_text()}; searched: {self.searched}"
        if self.verdict == "holds":
            return f"no counterexample (searched: {self.searched})"
        return self.witness

    def counterexample_text(self) -> str:
        c = self.counterexample
        return matrix_text(c) if isinstance(c, np.ndarray) else str(c)


@dataclass
class AuditReport:
    """What :func:`audit` found for one metric (one variant)."""

    label: str
    better: str
    results: dict = field(default_factory=dict)
    evaluations: int = 0

    def verdict(self, prop: str) -> str:
        return self.results[prop].verdict


def _search(ctx, name):
    check = _CHECKS[name]
    ex, rnd, searched = _bases(ctx, name)
    checked = 0
    for m in ex:
        checked += 1
        w = check(ctx, m)
        if w:
            return PropertyResult(name, "fails", m, w, searched,
                                  "exhaustive: the first counterexample in the order (N, K, "
                                  "lexicographic)", checked)
    for m in rnd:
        checked += 1
        if check(ctx, m):
            r = shrink(lambda a: bool(check(ctx, a)), m, max_k=m.shape[0], budget=3000)
            return PropertyResult(name, "fails", r.matrix, check(ctx, r.matrix), searched,
                                  f"random, then shrunk ({r.how})", checked)
    return PropertyResult(name, "holds", searched=searched, checked=checked)


def _triangle(ctx):
    lo = ctx.bounds[0]
    if ctx.better != "lower" or lo is None or compare(lo, _value(0)) != 0:
        return PropertyResult("triangle", "n/a", witness="not distance-like (needs lower is "
                              "better and lower bound 0)")
    n_max = min(ctx.max_n, 3)
    searched = f"label vectors of length n <= {n_max}, 2 <= K <= {ctx.max_k}, all triples"
    checked = 0
    from numeric.confusion import confusion_matrix

    for n in range(1, n_max + 1):
        for K in range(2, ctx.max_k + 1):
            vecs = list(label_vectors(K, n))
            d = {}
            for a in vecs:
                for b in vecs:
                    d[a, b] = ctx.value(np.asarray(confusion_matrix(a, b, labels=range(K))))
            for a, b, c in itertools.product(vecs, repeat=3):
                checked += 1
                ab, bc, ac = d[a, b], d[b, c], d[a, c]
                if any(isinstance(x, Undefined) for x in (ab, bc, ac)):
                    continue
                if _exceeds_sum(ac, ab, bc):
                    ce = f"a={list(a)}, b={list(b)}, c={list(c)} (K={K})"
                    return PropertyResult(
                        "triangle", "fails", ce,
                        f"d(a,c) = {ac} > d(a,b) + d(b,c) = {ab} + {bc}", searched,
                        "exhaustive: the first triple in the order (n, K, lexicographic)",
                        checked)
    return PropertyResult("triangle", "holds", searched=searched, checked=checked)


def _positive_samples(ctx, K, n=3):
    """``n`` seeded random ``K x K`` matrices with every cell in 1..3: instances
    of an all-positive scope, which the search (``N <= 2 max_n``) rarely holds."""
    rng = np.random.default_rng(ctx.seed * 1000 + K)
    return [rng.integers(1, 4, size=(K, K)).astype(np.int64) for _ in range(n)]


def _cross_check(ctx, res, proof):
    """Raise ``RuntimeError`` when the search contradicts a proved scope: the
    counterexample lies in it, or the property's check fails on one of its
    matrices (the searched ones of the scope, and :func:`_positive_samples`)."""
    p = res.property
    if isinstance(res.counterexample, np.ndarray) and proof.covers(res.counterexample):
        raise RuntimeError(f"{p}: proved on {proof.scope_text()}, but the search refutes it on "
                           f"{matrix_text(res.counterexample)}: {res.witness}")
    ex, rnd, _ = _bases(ctx, p)
    check = _CHECKS[p]
    for scope in proof.scopes:
        extra = _positive_samples(ctx, scope.K) if scope.kind == "positive" else []
        for m in [m for m in ex + rnd if scope.covers(m)] + extra:
            w = check(ctx, m)
            if w:
                raise RuntimeError(f"{p}: proved on {scope.text()}, but the check fails on "
                                   f"{matrix_text(m)}: {w}")


def _with_proof(ctx, res):
    """``res`` with the symbolic proof attempt, cross-checked (:func:`_cross_check`);
    the verdict ``"holds"`` becomes ``"proved"`` when a scope with ``K >= 2`` is proved."""
    p = res.property
    if ctx.symbolic is None or not ctx.scopes or p not in _prover.PROVABLE:
        return res
    if res.verdict not in ("holds", "fails"):
        return res
    proof = ctx.prove(p)
    _cross_check(ctx, res, proof)
    if res.verdict == "holds" and proof.proved:
        return replace(res, verdict="proved", proof=proof)
    return replace(res, proof=proof)


def _run(f, label, better, bounds, properties, max_k, max_n, random, seed, symbolic=None,
         scopes=()) -> AuditReport:
    if better not in ("lower", "higher"):
        raise ValueError(f"better must be 'lower' or 'higher', got {better!r}")
    props = list(PROPERTIES) if properties is None else list(properties)
    for p in props:
        if p not in PROPERTIES:
            raise ValueError(f"unknown property {p!r}; expected some of {list(PROPERTIES)}")
    if max_k < 1 or max_n < 1:
        raise ValueError("max_k and max_n must be at least 1")
    ctx = _Context(f, better, bounds, max_k, max_n, random, seed, symbolic, scopes)
    rep = AuditReport(label=label, better=better)
    for p in props:
        if p == "triangle":
            rep.results[p] = _triangle(ctx)
        elif p == "range" and bounds == (None, None):
            rep.results[p] = PropertyResult(p, "n/a", witness="no bounds stated")
        elif p == "identity" and _best(ctx) is None:
            rep.results[p] = PropertyResult(p, "n/a", witness="the better side is unbounded")
        else:
            rep.results[p] = _with_proof(ctx, _search(ctx, p))
    rep.evaluations = len(ctx.cache)
    return rep


def _variant_function(m, v):
    return lambda cm: m.function(cm, **v.kwargs(cm), arithmetic="exact")


def _variant_symbolic(m, v):
    """The variant on symbolic counts (numeric's ``SymbolicArithmetic``)."""
    from numeric._symbolic import SymbolicArithmetic

    return lambda cm: m.function(cm, **v.kwargs(cm), arithmetic=SymbolicArithmetic())


def _scopes(prove):
    if prove is True:
        return _prover.DEFAULT_SCOPES
    if not prove:
        return ()
    return tuple(prove)


def audit(metric, properties: Iterable[str] | None = None, *, max_n: int = DEFAULTS["max_n"],
          max_k: int = DEFAULTS["max_k"], random: int = DEFAULTS["random"],
          seed: int = DEFAULTS["seed"], variant=0, better: str | None = None,
          bounds: tuple | None = None, prove=True,
          symbolic: Callable | None = None) -> AuditReport:
    """Decide the properties of a metric: search every small matrix and random
    ones for a counterexample, and prove symbolically what is not refuted.

    Parameters
    ----------
    metric : str, numeric.registry.Metric or callable
        A registry name (``"uoc"``), a registry record, or a function of a
        ``K x K`` ``int64`` count matrix returning a number.
    properties : iterable of str, optional
        Names of :data:`PROPERTIES` (default: all).
    max_n, max_k : int
        The exhaustive space: every matrix with ``K <= max_k``, ``N <= max_n``.
    random : int
        Number of random matrices (``K <= max_k + 1``, ``max_n < N <= 2 max_n``).
    seed : int
        Seed of the random search.
    variant : int or str
        Which report variant of a registered metric (index or label).
    better : {"lower", "higher"}, optional
        Required for a callable (default ``"lower"``); a registered metric's own.
    bounds : (lo, hi), optional
        The stated range (default: the registry's, or unknown for a callable).
    prove : bool or sequence of analytic.prover.Scope
        The scopes of the symbolic proofs (``True``: :data:`analytic.prover.DEFAULT_SCOPES`;
        ``False``: search only).
    symbolic : callable, optional
        For a callable metric: the same metric on a matrix of SymPy counts
        (see :func:`analytic.prover.prove`); without it a callable gets no
        proof (its formula is not known to honour numeric's symbolic-count
        contract).  A registered metric uses its function with
        ``arithmetic=SymbolicArithmetic()``.

    Returns
    -------
    AuditReport

    Raises
    ------
    ValueError
        An unknown metric, variant or property, or invalid sizes.
    RuntimeError
        A proof contradicted by the search (:func:`_cross_check`): a bug of
        the prover or a metric that breaks numeric's symbolic-count contract
        where the instance checks did not see it.

    Examples
    --------
    >>> r = audit("uoc", ["symmetry"], max_k=2, max_n=3, random=0)
    >>> r.label, r.results["symmetry"].verdict, r.results["symmetry"].counterexample.tolist()
    ('UOC, beta=0.25', 'fails', [[0, 0], [1, 2]])
    """
    if isinstance(metric, str) or hasattr(metric, "cases"):
        from numeric.registry import REGISTRY

        import numeric  # noqa: F401  (registers every metric)

        m = metric
        if isinstance(metric, str):
            if metric not in REGISTRY:
                raise ValueError(f"unknown metric {metric!r}; expected one of {sorted(REGISTRY)}")
            m = REGISTRY[metric]
        cases = m.cases()
        if isinstance(variant, str):
            match = [v for v in cases if v.label == variant]
            if not match:
                raise ValueError(f"{m.name} has no variant {variant!r}; "
                                 f"expected one of {[v.label for v in cases]}")
            v = match[0]
        else:
            v = cases[variant]
        return _run(_variant_function(m, v), v.label, better or m.better,
                    m.bounds if bounds is None else tuple(bounds), properties,
                    max_k, max_n, random, seed, symbolic or _variant_symbolic(m, v),
                    _scopes(prove))
    if not callable(metric):
        raise ValueError(f"metric must be a registry name, a Metric or a callable, got {metric!r}")
    return _run(metric, getattr(metric, "__name__", "metric"), better or "lower",
                (None, None) if bounds is None else tuple(bounds), properties,
                max_k, max_n, random, seed, symbolic, _scopes(prove))


@functools.lru_cache(maxsize=None)
def audit_registered(name: str, variant_label: str, max_k: int = DEFAULTS["max_k"],
                     max_n: int = DEFAULTS["max_n"], random: int = DEFAULTS["random"],
                     seed: int = DEFAULTS["seed"],
                     scopes: tuple = _prover.DEFAULT_SCOPES) -> AuditReport:
    """:func:`audit` of one registered variant with every property, cached for
    the process (the ledger's ``audit`` claims and the property table share it)."""
    return audit(name, variant=variant_label, max_k=max_k, max_n=max_n, random=random,
                 seed=seed, prove=tuple(scopes))


def property_table(**sizes) -> list[tuple[str, str, AuditReport]]:
    """``[(metric name, variant label, report)]`` for every case of every
    registered metric that needs only the matrix (:func:`numeric.registry.matrix_metrics`)."""
    from numeric.registry import matrix_metrics

    return [(m.name, v.label, audit_registered(m.name, v.label, **sizes))
            for m in matrix_metrics() for v in m.cases()]


def _scopes_legend(scopes) -> str:
    every = sorted(sc.K for sc in scopes if sc.kind == "every")
    pos = sorted(sc.K for sc in scopes if sc.kind == "positive")
    parts = []
    if every:
        parts.append(f"`K<={max(every)}`: every matrix with at most {max(every)} classes (each "
                     "support pattern -- which cells are nonzero -- with its counts as positive "
                     "integer symbols, so every count matrix of that size)")
    for k in pos:
        parts.append(f"`K={k}+`: every {k} x {k} matrix whose {k * k} cells are all positive")
    return "; ".join(parts)


def table_markdown(rows=None, **sizes) -> str:
    """The property table as Markdown (``docs/properties.md``), deterministic."""
    s = dict(DEFAULTS, **{"scopes": _prover.DEFAULT_SCOPES, **sizes})
    rows = property_table(**sizes) if rows is None else rows
    esc = lambda t: str(t).replace("|", "\\|").replace("\n", " ")
    names = list(PROPERTIES)
    searched = (
        f"exhaustive over every matrix with K <= {s['max_k']} classes and "
        f"N <= {s['max_n']} samples (the properties that add a class or double the "
        f"samples: K <= {s['max_k'] - 1}; imbalance: diagonal matrices, K = 3..{s['max_k']}, "
        f"N <= {2 * s['max_n']}; triangle: label vectors of length <= {min(s['max_n'], 3)}), "
        f"plus {s['random']} random matrices (seed {s['seed']}, K <= {s['max_k'] + 1}, "
        f"{s['max_n'] + 1} <= N <= {2 * s['max_n']})")
    lines = [
        "# Property table", "",
        "Generated by `ordinal-verify audit --markdown docs/properties.md`; a test fails "
        "when this file is stale.", "",
        "Every registered metric (each report variant) audited by `analytic.audit`: a search "
        f"for a counterexample in exact arithmetic, {searched}, then a symbolic proof "
        "(`analytic.prover`) of each property the search did not refute, where the prover "
        "derives one.  The formalisation of each property is in the docstring of "
        "`analytic/audit.py`; ordinal invariance, ordinal monotonicity and imbalance follow "
        "Amigó et al. 2020 (ACL), §3, formalised by us for confusion matrices (the paper's own "
        "table of metrics was not available to us: these cells are derived here, not copied).",
        "", "Verdicts:", "",
        "- **proved (scope)**: a symbolic proof for every matrix of the scope, and no "
        f"counterexample in the search (outside the scope, \"proved\" says no more than "
        f"\"holds\"). Scopes: {_scopes_legend(s['scopes'])}. The proof evaluates the metric's "
        "own formula (`numeric` with `SymbolicArithmetic`) on the matrix of symbols, certifies "
        "that the value is a real number at every instance (no zero denominator, no root or "
        "logarithm of a negative number), and derives the statement in the last column of the "
        "table below: an identity by cancellation of sparse polynomials (roots reduced by "
        "their relations), an inequality by a positivity certificate (a polynomial in "
        "n >= 1 whose coefficients are all >= 0 after n = 1 + m). It relies on numeric's "
        "symbolic-count contract (structural decisions from the support only), which is "
        "checked at three instances of each symbolic matrix. Each proof is cross-checked "
        "against the search (its counterexample outside the scope, its check passing on the "
        "scope's searched matrices and three random all-positive ones). Larger scopes "
        "(`--every-k 3`: all 511 supports of a 3 x 3 matrix; `--positive-k 4`) are left out "
        "of this table for time.",
        "- **holds**: no counterexample in the search, no symbolic proof: the prover does "
        "not handle the property (triangle, imbalance) or did not derive it on any scope "
        "(why: \"Proofs not obtained\" below).",
        "- **fails M**: the minimal counterexample M (fewest samples, then classes, then "
        "lexicographic; rows = true class).",
        "- **n/a**: the property does not apply (triangle: not distance-like; range: no "
        "bounds stated; identity: unbounded better side).", "",
        "| property | definition | source | symbolic proof |", "|---|---|---|---|",
    ]
    lines += [f"| `{p.name}` | {esc(p.title)} | {esc(p.source)} | "
              f"{esc(_prover.STATEMENTS.get(p.name, 'none (search only)'))} |"
              for p in PROPERTIES.values()]
    lines += ["", "| metric | " + " | ".join(f"`{n}`" for n in names) + " |",
              "|---|" + "---|" * len(names)]
    for name, label, rep in rows:
        cells = [esc(rep.results[n].cell()) for n in names]
        lines.append(f"| {esc(label)} (`{name}`) | " + " | ".join(cells) + " |")
    lines += ["", "## Counterexamples", ""]
    for name, label, rep in rows:
        fails = [rep.results[n] for n in names if rep.results[n].verdict == "fails"]
        if not fails:
            continue
        lines += [f"### {esc(label)} (`{name}`)", ""]
        for r in fails:
            lines.append(f"- **{r.property}**: `{r.counterexample_text()}`: {esc(r.witness)} "
                         f"({esc(r.how)})")
        lines.append("")
    lines += ["## Proofs not obtained", "",
              "For each property the search did not refute, the scopes on which the prover "
              "derived no proof, and the first reason (`nij` is the count of cell (i, j); a "
              "move splits a cell's count into `1` and `n + 1`). \"No symbolic form\": the "
              "formula does not evaluate on symbolic counts; \"contract\": the symbolic value "
              "disagrees with the exact one at an instance (the pattern is refused).", ""]
    for name, label, rep in rows:
        refused = [(n, scope, why, kind) for n in names for r in [rep.results[n]]
                   if r.holds and r.proof is not None for scope, why, kind in r.proof.refused]
        unhandled = [n for n in names if rep.results[n].holds and rep.results[n].proof is None
                     and n in _prover.PROVABLE]
        if not refused and not unhandled:
            continue
        lines += [f"### {esc(label)} (`{name}`)", ""]
        for kind in (_prover.NO_FORM, _prover.CONTRACT):
            group = [(n, scope, why) for n, scope, why, k in refused if k == kind]
            if group:
                props = ", ".join(dict.fromkeys(n for n, _, _ in group))
                scopes = ", ".join(dict.fromkeys(sc.short() for _, sc, _ in group))
                lines.append(f"- {kind} ({scopes}; {props}): {esc(_clip(group[0][2]))}")
        for n, scope, why, kind in refused:
            if kind == _prover.NOT_DERIVED:
                lines.append(f"- **{n}**, {scope.short()}: {esc(_clip(why))}")
        for n in unhandled:
            lines.append(f"- **{n}**: no symbolic form of the metric given")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _clip(text, n=220):
    return text if len(text) <= n else text[:n] + " ..."
