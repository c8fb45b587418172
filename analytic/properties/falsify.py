r"""The falsifier: a guided search for counterexamples beyond the exhaustive space.

The exhaustive search stops at small ``N`` and ``K`` and the random part
draws matrices blindly; a counterexample that lives at ``N`` in the tens or
hundreds, among matrices of a special shape, escapes both.  The falsifier
aims at where violations live, in the spirit of targeted property-based
testing (Hypothesis's ``target()``, Löscher & Sagonas 2017): it treats each
property's *slack* (:meth:`analytic.properties.catalog.Property.slack`, how
far a base matrix is from violating the relation, e.g.
``loss(before) - loss(after)`` for a move) as an objective and

1. **climbs** toward a violation: from a start matrix (random with unequal
   cell weights, near-diagonal, one populated row, one populated column, or
   for a diagonal property a diagonal matrix with unequal counts), it moves
   to the neighbour of least slack among a random sample of neighbours (one
   or a quarter of a cell's samples moved to a neighbouring cell, a cell
   filled or emptied, a row doubled or halved, a class appended or removed),
   and restarts when no neighbour improves;
2. **samples structured families** in bulk, screened in float64: diagonal
   matrices with large unequal counts, near-diagonal matrices, matrices with
   one populated row or column, random matrices up to ``K = max_k``.

Move properties (monotonicity, imbalance) change by about one sample's
weight ``1/N``, so their objective is ``N * slack``; the others climb the
slack itself.  Every float candidate (a violation beyond the screen's
tolerance, or a tie of a strict relation) is decided by the property's exact
check (:meth:`~analytic.properties.catalog.Property.check`); the first one
confirmed is shrunk (:func:`analytic.properties.shrink.shrink`, with a
predicate that keeps the property's own setting: a base of the property and
a violation) and returned.  A float tie of a non-strict relation is not
pursued (the main search decides those exactly).

The budget is a count of matrices evaluated in float64 and a seed
(:class:`Budget`), so a run is reproducible; nothing found is never a proof,
and the falsifier's counterexamples are never called minimal (they are
shrunk, greedily then exhaustively within the shrinker's own budget, which
:attr:`Falsified.shrunk` states).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .catalog import PROPERTIES, TOLERANCE
from .generators import matrix_text
from .shrink import shrink

__all__ = ["Budget", "DEFAULT_BUDGET", "Falsified", "falsify", "falsify_spec", "registered"]


@dataclass(frozen=True)
class Budget:
    """What the falsifier may spend on one (metric, property) cell.

    Parameters
    ----------
    evaluations : int
        Matrices evaluated in float64: neighbours, family samples and every
        matrix a property derives from them (a move, a transpose, ...).
    seed : int
        Seed of every random choice (:func:`numpy.random.default_rng`).
    max_k : int
        Largest number of classes of a start matrix or a family sample.
    max_n : int
        Largest number of samples of a start matrix or a family sample.
    checks : int
        Largest number of float candidates decided in exact arithmetic.

    Examples
    --------
    >>> Budget(evaluations=2000).evaluations, DEFAULT_BUDGET == Budget()
    (2000, True)
    """

    evaluations: int = 400_000
    seed: int = 0
    max_k: int = 10
    max_n: int = 1000
    checks: int = 200

    def text(self) -> str:
        """The budget in words (the table's evidence).

        >>> Budget().text()
        'guided search (seed 0, 400,000 matrices, K <= 10, N <= 1,000)'
        """
        return (f"guided search (seed {self.seed}, {self.evaluations:,} matrices, "
                f"K <= {self.max_k}, N <= {self.max_n:,})")


#: the budget of the property table's cells
DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class Falsified:
    """A counterexample the falsifier found and confirmed exactly.

    Parameters
    ----------
    matrix : numpy.ndarray
        The counterexample after shrinking (a base of the property).
    witness : str
        The property's exact witness on :attr:`matrix`.
    found : numpy.ndarray
        The matrix the search met, before shrinking.
    strategy : str
        Which part of the search met it.
    evaluations : int
        Matrices evaluated until then.
    budget : Budget
        The budget it was found within.
    shrunk : str
        How it was shrunk (:attr:`analytic.properties.shrink.Shrunk.how`).

    Examples
    --------
    >>> r = falsify("uoc", "symmetry", budget=Budget(evaluations=2000))
    >>> r.matrix.tolist(), r.strategy
    ([[0, 0], [1, 2]], 'climb from a random start')
    """

    matrix: np.ndarray
    witness: str
    found: np.ndarray
    strategy: str
    evaluations: int
    budget: Budget
    shrunk: str

    def how(self) -> str:
        """How it was found, in words (the table's "how")."""
        K, N = self.found.shape[0], int(self.found.sum())
        return (f"{self.budget.text()}: {self.strategy}, met at K = {K}, N = {N:,} after "
                f"{self.evaluations:,} matrices ({matrix_text(self.found)}), then shrunk "
                f"({self.shrunk})")


class _Spent(Exception):
    """The budget is spent."""


class _Counted:
    """A float evaluator that counts the matrices it evaluates against the budget."""

    def __init__(self, ev, most):
        self.ev, self.most, self.count = ev, most, 0
        self.orient, self.bounds, self.best = ev.orient, ev.bounds, ev.best

    def __call__(self, stack):
        if self.count + len(stack) > self.most:
            raise _Spent
        self.count += len(stack)
        return self.ev(stack)


class _Search:
    """One cell's search: the evaluator, the exact context, the counters."""

    def __init__(self, prop, ev, ctx, budget):
        self.prop, self.ctx, self.budget = prop, ctx, budget
        self.ev = _Counted(ev, budget.evaluations)
        self.rng = np.random.default_rng(budget.seed)
        self.checks = 0
        self.seen = set()
        self.found = None

    # -- evaluation ----------------------------------------------------------
    def objective(self, A):
        """``(objective, candidate)`` of a stack of one ``K``: the slack (times
        ``N`` for a move property) and the float candidates."""
        s, strict = self.prop.slack(self.ev, A)
        # wider than the screen's 1e-9 (relative to values up to 16 in size): a candidate is
        # only decided exactly, so a wider margin costs exact checks, never a verdict
        tol = TOLERANCE * 16
        cand = np.isfinite(s) & ((s < -tol) | (strict & (s <= tol)))
        if self.prop.per_sample:
            s = s * A.sum(axis=(-2, -1))
        return s, cand

    def confirm(self, A, cand, strategy):
        """Decide the float candidates of ``A`` exactly (the first few); the first
        confirmed one ends the search."""
        for m in A[np.flatnonzero(cand)]:
            key = (m.shape[0], m.tobytes())
            if key in self.seen:
                continue
            self.seen.add(key)
            if self.checks >= self.budget.checks:
                raise _Spent
            self.checks += 1
            if self.prop.check(self.ctx, m):
                self.found = (m.copy(), strategy, self.ev.count)
                return True
        return False

    # -- strategies ----------------------------------------------------------
    def sizes(self, lo_k):
        """``(K, N)``: ``K`` with weights ``1 / (K - lo_k + 1)^1.5`` (small ``K`` first:
        cheaper, and where the violations of the table live), ``N`` log-uniform in
        ``[K, max_n]``."""
        b = self.budget
        ks = np.arange(lo_k, b.max_k + 1)
        w = 1.0 / (ks - lo_k + 1.0) ** 1.5
        K = int(self.rng.choice(ks, p=w / w.sum()))
        N = int(round(math.exp(self.rng.uniform(math.log(K), math.log(b.max_n)))))
        return K, max(N, 1)

    def start(self, kind, K, N):
        rng = self.rng
        if kind == "diagonal":
            w = rng.pareto(1.0, K) + 0.05
            m = np.diag(rng.multinomial(N, w / w.sum())).astype(np.int64)
            return m
        w = rng.pareto(1.0, (K, K)) + 0.01
        if kind == "near-diagonal":
            w += np.eye(K) * w.sum()
        elif kind == "one row":
            keep = np.zeros((K, K))
            keep[rng.integers(K)] = 1
            w *= keep
        elif kind == "one column":
            keep = np.zeros((K, K))
            keep[:, rng.integers(K)] = 1
            w *= keep
        return rng.multinomial(N, (w / w.sum()).ravel()).reshape(K, K).astype(np.int64)

    def neighbours(self, m, most=192):
        """A random sample of ``m``'s neighbours, all of ``m``'s ``K`` (class
        changes are separate stacks), in the property's setting: the moves are
        listed, ``most`` of them drawn, and only those built."""
        K = m.shape[0]
        diagonal = self.prop.region == "diagonal"
        cells = ([(i, i) for i in range(K)] if diagonal else
                 [(i, j) for i in range(K) for j in range(K)])
        moves = []  # (cell from or None, cell to or None, amount, row scaling)
        for i, j in cells:
            c = int(m[i, j])
            for d in ({1, max(1, c // 4), max(1, c // 2)} if c else ()):
                if not diagonal:
                    moves += [((i, j), (i2, j2), d) for i2, j2 in
                              ((i, j - 1), (i, j + 1), (i - 1, j), (i + 1, j))
                              if 0 <= i2 < K and 0 <= j2 < K]
                moves.append(((i, j), None, d))
            moves += [(None, (i, j), d) for d in {1, max(1, c // 2), max(1, c)}]
        if diagonal:
            moves += [("swap", i, 0) for i in range(K - 1)]
        else:
            moves += [("row", i, f) for i in range(K) for f in (2, 0)]
        if len(moves) > most:
            moves = [moves[k] for k in self.rng.choice(len(moves), most, replace=False)]
        out = np.repeat(m[None], len(moves), axis=0)
        for s, (a, b, d) in zip(out, moves, strict=True):
            if a == "swap":
                s[b, b], s[b + 1, b + 1] = m[b + 1, b + 1], m[b, b]
            elif a == "row":
                s[b] = s[b] * 2 if d == 2 else s[b] // 2
            else:
                if a is not None:
                    s[a] -= d
                if b is not None:
                    s[b] += d
        tot = out.sum(axis=(1, 2))
        keep = (tot > 0) & (tot <= 4 * self.budget.max_n)
        sizes = np.unique(tot[keep & (tot != m.sum())])
        if len(sizes) > 6:  # the float evaluator splits a stack by N: a few N per step
            keep &= np.isin(tot, np.append(self.rng.choice(sizes, 6, replace=False), m.sum()))
        out = out[keep]
        return out[self.prop.bases(out)] if len(out) else out

    def resized(self, m):
        """``m`` with a class appended (empty, or with one sample on its
        diagonal) or one class removed: stacks of another ``K``."""
        K = m.shape[0]
        out = []
        if K < self.budget.max_k:
            for p in (0, K):
                g = np.insert(np.insert(m, p, 0, axis=0), p, 0, axis=1)
                out.append(g)
                g = g.copy()
                g[p, p] = 1
                out.append(g)
        if K > 2:
            c = int(self.rng.integers(K))
            out.append(np.delete(np.delete(m, c, axis=0), c, axis=1))
        return [a for a in out if a.sum() > 0 and self.prop.bases(a[None])[0]]

    def climb(self, kind, lo_k, steps=60):
        K, N = self.sizes(lo_k)
        m = self.start(kind, K, N)
        if not self.prop.bases(m[None])[0]:
            return False
        s, cand = self.objective(m[None])
        if self.confirm(m[None], cand, f"climb from a {kind} start"):
            return True
        cur = s[0]
        stale = 0
        for _ in range(steps):
            A = self.neighbours(m)
            best, arg = cur, None
            if len(A):
                s, cand = self.objective(A)
                if cand.any() and self.confirm(A, cand, f"climb from a {kind} start"):
                    return True
                j = int(np.argmin(s))
                if s[j] < best:
                    best, arg = s[j], A[j]
            for g in self.resized(m):
                s, cand = self.objective(g[None])
                if cand.any() and self.confirm(g[None], cand, f"climb from a {kind} start"):
                    return True
                if s[0] < best:
                    best, arg = s[0], g
            if arg is None or not np.isfinite(best):
                stale += 1
                if stale >= 2:
                    return False
                continue
            m, cur = arg, best
        return False

    def family(self, kind, lo_k, cells=40_000):
        """Samples of one structured family (one ``K``; about ``cells / K^2`` of
        them), screened."""
        K, N = self.sizes(lo_k)  # one N for the batch (the float evaluator splits a stack by N)
        count = max(20, cells // (K * K))
        A = np.array([self.start(kind, K, N) for _ in range(count)])
        A = A[self.prop.bases(A)]
        if not len(A):
            return False
        s, cand = self.objective(A)
        return bool(cand.any()) and self.confirm(A, cand, f"{kind} family sample")


def falsify_spec(spec, ctx, prop, budget: Budget = DEFAULT_BUDGET):
    """The falsifier on one property of a metric given by its float evaluator.

    Parameters
    ----------
    spec : analytic.properties.engine.MetricSpec
        The metric in float64 (its :meth:`~analytic.properties.engine.MetricSpec.evaluator`).
    ctx : analytic.properties.exact.ExactContext
        The same metric in exact arithmetic (the reference).
    prop : analytic.properties.catalog.Property or str
        A property of the ``"matrices"`` or ``"diagonal"`` region.
    budget : Budget

    Returns
    -------
    tuple
        ``(Falsified or None, evaluations)``.

    Examples
    --------
    UOC at beta = 0.25 (silva2018 eq. 28) fails Amigó et al.'s class imbalance,
    which no diagonal matrix of the exhaustive search shows (the falsifier meets
    a counterexample with ``N = 89``, shrunk to ``N = 24``):

    >>> from analytic.properties.engine import MetricSpec
    >>> from analytic.properties.exact import ExactContext
    >>> from fractions import Fraction
    >>> from numeric import uoc
    >>> spec = MetricSpec(name="uoc", variant="UOC, beta=0.25", better="lower", bounds=(0, 1))
    >>> ctx = ExactContext(lambda m: uoc(m, Fraction(1, 4), arithmetic="exact"), "lower", (0, 1))
    >>> r, n = falsify_spec(spec, ctx, "imbalance", Budget(evaluations=40_000))
    >>> r.matrix.tolist(), int(r.found.sum()) > 8
    ([[11, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 12]], True)
    """
    prop = PROPERTIES[prop] if isinstance(prop, str) else prop
    if prop.region not in ("matrices", "diagonal"):
        raise ValueError(f"the falsifier searches matrices; {prop.name!r} is searched on "
                         f"{prop.region}")
    run = _Search(prop, spec.evaluator(), ctx, budget)
    lo_k = 3 if prop.region == "diagonal" else 2
    if prop.region == "diagonal":
        plan = [("family", "diagonal"), ("climb", "diagonal")] * 2
    else:
        plan = [("climb", "random"), ("family", "near-diagonal"), ("climb", "near-diagonal"),
                ("family", "one column"), ("climb", "one column"), ("family", "random"),
                ("climb", "one row"), ("family", "one row")]
    try:
        while True:
            for how, kind in plan:
                hit = run.climb(kind, lo_k) if how == "climb" else run.family(kind, lo_k)
                if hit:
                    raise _Spent
    except _Spent:
        pass
    if run.found is None:
        return None, run.ev.count
    m, strategy, at = run.found

    def fails(a):
        return bool(prop.bases(a[None])[0]) and bool(prop.check(ctx, a))

    r = shrink(fails, m, max_k=m.shape[0], budget=3000)
    return (Falsified(r.matrix, prop.check(ctx, r.matrix), m, strategy, at, budget, r.how),
            run.ev.count)


def falsify(metric, prop, *, variant=0, budget: Budget = DEFAULT_BUDGET):
    """The falsifier on one property of a registered metric (see the module docstring).

    Parameters
    ----------
    metric : str
        A name of :data:`numeric.registry.REGISTRY`.
    prop : str
        A property of the ``"matrices"`` or ``"diagonal"`` region.
    variant : int or str
        The report variant (index or label).
    budget : Budget

    Returns
    -------
    Falsified or None
        None when the budget is spent without a confirmed violation (which
        proves nothing).

    Examples
    --------
    >>> r = falsify("mae", "symmetry", budget=Budget(evaluations=2000))
    >>> r is None
    True
    """
    _, spec, ctx = registered(metric, variant)
    return falsify_spec(spec, ctx, prop, budget)[0]


def registered(metric, variant=0):
    """The registry record, the float form and the exact form of a registered variant.

    Parameters
    ----------
    metric : str
        A registered metric.
    variant : int or str, default 0
        One of its report variants (index or label).

    Returns
    -------
    tuple
        ``(record, spec, ctx)``: its registry record, its float form
        (:class:`~analytic.properties.engine.MetricSpec`) and its exact form
        (:class:`~analytic.properties.exact.ExactContext`), with the registry's
        orientation and bounds.

    Examples
    --------
    >>> m, spec, ctx = registered("mae")
    >>> spec.variant, ctx.better
    ('MAE', 'lower')
    """
    from numeric.registry import REGISTRY

    from .engine import MetricSpec
    from .exact import ExactContext

    m = REGISTRY[metric]
    v = m.variant(variant)
    spec = MetricSpec(name=m.name, variant=v.label, better=m.better, bounds=m.bounds)
    return m, spec, ExactContext(m.bind(v, "exact"), m.better, m.bounds)
