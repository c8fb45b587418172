r"""The property auditor: which formal properties a confusion-matrix metric has.

:func:`audit` takes a metric -- a name of :data:`numeric.registry.REGISTRY`,
a :class:`numeric.registry.Metric`, or any Python function of a count matrix
returning a number: an int, a rational (:class:`fractions.Fraction`, gmpy2's
``mpq``, SymPy's ``Rational``), a float (Python's, NumPy's, mpmath's ``mpf``,
compared as the exact binary fraction it is) or a SymPy number, each
converted once (:func:`analytic.properties.exact.value_of`); a string is
refused, never parsed.  The function says it is **undefined** on a matrix
by raising :class:`exactfloor.errors.UndefinedMetric` (a ``ValueError``) or
returning NaN or None; any other exception (a ``KeyError``, a plain
``ValueError``, a ``ZeroDivisionError``), or a value that is not a finite
real number, is a **broken metric**: every property gets the verdict
``"error"`` naming the exception and the first matrix that raised it -- and
decides each property of :data:`PROPERTIES`
(:mod:`analytic.properties.catalog`, one class per property, where each
formal statement is) by

1. a **search for a counterexample** over a :class:`~analytic.properties.space.Space`
   (:mod:`analytic.properties.engine`): for a registered metric, a float64
   screen of every chunk of the space, each candidate violation and each
   tie the float values cannot decide confirmed in exact arithmetic (ties
   up to a budget, counted in the verdict); for a callable without a
   vectorised form, exact arithmetic on every matrix of a smaller space;
2. a **symbolic proof attempt** (:mod:`analytic.properties.prover`) of each property
   it handles, on the scopes of ``prove`` (default
   :data:`analytic.properties.prover.DEFAULT_SCOPES`), cross-checked against the
   search (a contradiction raises ``RuntimeError``).

Verdicts, each with what it rests on (:meth:`PropertyResult.evidence`):

``"proved"``
    a symbolic proof on the scope :attr:`PropertyResult.proof` states, and no
    counterexample in the search;
``"holds"``
    no counterexample in the searched space (stated, with the number of
    matrices checked and of ties left unconfirmed), no proof;
``"fails"``
    a counterexample, confirmed exactly: the minimal one of the exhaustive
    part when ``minimal`` (order ``(N, K, lexicographic)``), else found
    among random matrices and shrunk; a proof on a smaller scope is kept as
    detail ("proved for K <= 2; fails at K = 3");
``"n/a"``
    the property says nothing here, with the reason: it does not apply
    (no bounds, not distance-like, ...), the search met no matrix the
    property speaks of, or the metric is undefined on every searched matrix.
    Never "holds" on an empty search;
``"error"``
    the metric raised an exception other than :class:`~exactfloor.errors.UndefinedMetric`
    (or returned something that is not a number) on a matrix: no verdict
    rests on it.  The witness names the exception and the matrix (also in
    ``counterexample``), every property has it.

Properties are oriented by the metric's ``better`` direction: the "loss" is
the value for a lower-is-better metric and minus the value otherwise.

Examples
--------
>>> r = audit(lambda A: sum(A[i][j] for i in range(len(A)) for j in range(len(A)) if i != j),
...           properties=["symmetry", "scale"], max_k=3, max_n=1, random=0)
>>> print(r.results["symmetry"].verdict, r.results["scale"].verdict)
holds fails
>>> r.results["scale"].counterexample.tolist()
[[0, 0], [1, 0]]

A metric with a bug (here a ``KeyError`` on every matrix with two classes) has no
verdict; the first matrix that raised it, in the search order, is named:

>>> def buggy(A):
...     return {1: 0}[len(A)]
>>> r = audit(buggy, ["symmetry", "scale"], max_k=2, max_n=1, random=0)
>>> print(r.results["scale"].verdict, "|", r.results["scale"].evidence())
error | the metric raised KeyError: 2 on the count matrix [[0, 0], [0, 1]]

A registered metric's formula is also evaluated on symbolic counts:

>>> from analytic.properties.prover import scopes
>>> r = audit("mae", ["scale", "symmetry"], max_k=2, max_n=2, random=0, prove=scopes(2, 3))
>>> print(r.results["scale"].cell())
proved (K <= 2; 3 x 3 with every cell positive)
>>> print(r.results["scale"].proof.scope_text())
every matrix with K = 1; every matrix with K = 2; every matrix with K = 3 and all cells positive
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

import numpy as np

from . import prover as _prover
from .generators import matrix_text
from .catalog import PROPERTIES, Property
from .engine import (FIRST_MATRIX, FIRST_TRIPLE, TIE_BUDGET, MetricSpec, default_executor,
                     search_matrices, search_triples)
from exactfloor.errors import MetricError

from .exact import ExactContext, compare
from .space import DEFAULT_SPACE, SMALL_SPACE, Space
from .shrink import shrink

__all__ = ["PROPERTIES", "Property", "PropertyResult", "AuditReport", "audit", "result_of",
           "upgrade_table",
           "audit_registered", "property_table", "table_markdown", "DEFAULTS", "compare",
           "Space", "DEFAULT_SPACE", "SMALL_SPACE", "CALLABLE_SPACE", "MAX_MATRICES"]

#: the seed of the random parts (the property table's header states it)
DEFAULTS = dict(seed=0)

#: the default space of a callable without a vectorised form (searched in exact arithmetic)
CALLABLE_SPACE = Space(exhaustive=((1, 6), (2, 6), (3, 6), (4, 4)), random=500, random_k=5,
                       random_n=20, triangle=((2, 4), (3, 3)), triangle_random=200,
                       triangle_n=8, diagonal=((3, 12), (4, 8), (5, 6)))

#: the largest number of matrices a search may enumerate (about 10^6 float
#: evaluations per second per property and core): beyond it, ValueError
MAX_MATRICES = 200_000_000

#: the largest ``max_k`` and ``max_n`` of :func:`space_of` (the CLI's ``--max-k`` and
#: ``--max-n`` limit): beyond them a space is refused before it is built (``max_k =
#: 10**7`` built a tuple of 10**7 sizes; ``max_k = 1, max_n = 10**5`` searched 10**5
#: one-matrix sizes for hours)
MAX_SIZE_ARG = 1000

#: the most cells (K^2 per matrix) of one (K, N) block of more than 8 classes (the
#: blocks are built whole: 2^27 int64 cells are 1 GiB)
MAX_CELLS = 1 << 27

#: the most (K, N) sizes of a search (each costs a pass of every property)
MAX_SIZES = 20_000


def _pair(bounds):
    """``bounds`` as ``(lo, hi)``: a pair, else TypeError naming it (``5`` said "'int'
    object is not iterable", ``(0,)`` an IndexError, a third bound was ignored)."""
    if isinstance(bounds, (str, bytes)) or not isinstance(bounds, Iterable) or \
            len(bounds := tuple(bounds)) != 2:
        raise TypeError(f"bounds must be a pair (lower bound, upper bound), got {bounds!r:.60}")
    return bounds


def _whole(name, v, least):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral) or v < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {v!r}")
    return int(v)


def space_of(max_k=None, max_n=None, random=None, seed=0, *, default=DEFAULT_SPACE) -> Space:
    """The :class:`Space` of the old size arguments (``default`` where none is given).

    ``max_k, max_n``: every matrix with ``K <= max_k`` and ``N <= max_n``;
    ``random``: random matrices with ``K <= max_k + 1`` and ``N <= 2 max_n``;
    the triangle on label vectors of length ``<= min(max_n, 3)``, ``K <= max_k``;
    imbalance on diagonal matrices with ``N <= 2 max_n``.
    """
    seed = _whole("seed", seed, 0)
    if max_k is None and max_n is None and random is None:
        return replace(default, seed=seed)
    k = _whole("max_k", 3 if max_k is None else max_k, 1)
    n = _whole("max_n", 3 if max_n is None else max_n, 1)
    r = _whole("random", 24 if random is None else random, 0)
    for name, v in (("max_k", k), ("max_n", n)):
        if v > MAX_SIZE_ARG:
            raise ValueError(f"{name} must be at most {MAX_SIZE_ARG:,}, got {v:,} (the search "
                             "space would be too large to search)")
    space = Space(exhaustive=tuple((K, n) for K in range(1, k + 1)), random=r,
                  random_k=max(k + 1, 2), random_n=2 * n, seed=seed,
                  triangle=tuple((K, min(n, 3)) for K in range(2, k + 1)), triangle_random=0,
                  diagonal=tuple((K, 2 * n) for K in range(3, k + 1)))
    return space


def check_size(space: Space):
    """Refuse a space larger than :data:`MAX_MATRICES`, saying what it would cost, one
    of more than :data:`MAX_SIZES` sizes ``(K, N)``, or one whose blocks of more than
    8 classes would hold more than :data:`MAX_CELLS` cells (they are built whole)."""
    if not isinstance(space, Space):
        raise TypeError(f"space must be an analytic.properties.Space, got {space!r:.60}")
    parts = (("exhaustive", space.exhaustive, lambda K: K * K),
             ("diagonal", space.diagonal, lambda K: K))
    for name, pairs, cells in parts:
        for K, n in pairs:
            if min(n, cells(K)) > 64:  # C(n + c, c) >= C(130, 65) > 10^37
                raise ValueError(f"the search space holds more than 10^37 matrices ({name} "
                                 f"part K = {K:,}, N <= {n:,}); at about 10^6 matrices per "
                                 "second it would take more than 10^27 hours per property: "
                                 "choose a smaller space")
        sizes = sum(n for _, n in pairs)
        if sizes > MAX_SIZES:
            raise ValueError(f"the search space has {sizes:,} sizes (K, N) in its {name} part "
                             f"(at most {MAX_SIZES:,}): choose a smaller space")
    size = space.size()
    if size > MAX_MATRICES:
        raise ValueError(
            f"the search space holds {size:.3g} matrices (more than {MAX_MATRICES:.0e}); at "
            f"about 10^6 matrices per second per property it would take about "
            f"{size / 1e6 / 3600:.2g} hours per property: choose a smaller space")
    for name, pairs, cells in parts:
        for K, n in pairs:
            block = math.comb(n + cells(K) - 1, n) * K * K  # the largest block, N = n
            if K > 8 and block > MAX_CELLS:
                raise ValueError(f"the search space's {name} block of {K} x {K} matrices "
                                 f"with N = {n} holds {block:.3g} cells (more than "
                                 f"{MAX_CELLS:.3g}, 1 GiB): choose a smaller space")
    for K, n in space.triangle:
        if K ** n > 400:
            raise ValueError(f"triangle: {K}^{n} = {K ** n} label vectors of length {n} make "
                             f"{float(K ** (3 * n)):.3g} triples; at most 400 vectors")


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PropertyResult:
    """The verdict on one property.

    :func:`audit` makes one per property (:attr:`AuditReport.results`).

    Parameters
    ----------
    property : str
        The property's name (:data:`PROPERTIES`).
    verdict : str
        ``"proved"``, ``"holds"``, ``"fails"``, ``"n/a"`` or ``"error"`` (see
        the module docstring).
    counterexample : numpy.ndarray, tuple or None
        The matrix, or the triple of label vectors and ``K``, that refutes it.
    witness : str
        What the counterexample shows, or why the verdict is ``n/a`` or ``error``.
    searched : str
        Over what the search ran.
    how : str
        How the counterexample was found, or what a proof was implied by.
    checked : int
        How many base matrices (or triples) were checked.
    proof : analytic.properties.prover.Proof or None
        The symbolic proof attempt (also for a refuted property).
    undefined : int
        How many checked matrices leave the metric undefined.
    ties : int
        The float ties met before the verdict.
    ties_confirmed : int
        How many of them were decided exactly.
    minimal : bool
        Whether the counterexample is the minimal one of the exhaustive part.
    exact : bool
        Whether the search ran in exact arithmetic (not a float screen).
    every_k : analytic.properties.structure.EveryK or None
        The proof for every ``K`` from the metric's declared structure.
    guided : str
        The guided search that followed, in words (empty: none).
    guided_checked : int
        How many matrices the guided search checked.

    Examples
    --------
    >>> r = audit("uoc", ["symmetry"], max_k=2, max_n=3, random=0)
    >>> res = r.results["symmetry"]
    >>> res.verdict, res.holds, res.checked
    ('fails', False, 19)
    """

    property: str
    verdict: str
    counterexample: object = None
    witness: str = ""
    searched: str = ""
    how: str = ""
    checked: int = 0
    proof: object = None
    undefined: int = 0
    ties: int = 0
    ties_confirmed: int = 0
    minimal: bool = False
    exact: bool = False
    every_k: object = None
    guided: str = ""
    guided_checked: int = 0

    @property
    def holds(self) -> bool:
        """True for ``"proved"`` and ``"holds"``: no counterexample found."""
        return self.verdict in ("proved", "holds")

    def label(self) -> str:
        """The verdict as shown, in words that say what it rests on: ``proved
        (every K)`` (a lemma, :mod:`analytic.properties.structure`), ``proved (K <= 3;
        4 x 4 with every cell positive)`` (the finite prover's scopes), ``unrefuted
        (searched ...)`` for ``"holds"`` (search only, with its count), ``fails``,
        ``n/a`` or ``error``."""
        if self.verdict == "proved":
            return "proved (every K)" if self.every_k is not None else \
                f"proved ({self.proof.short()})"
        if self.verdict == "holds":
            guided = f" + guided {self.guided_checked:,}" if self.guided else ""
            return f"unrefuted (searched {self.checked:,}{guided})"
        return self.verdict

    def cell(self) -> str:
        """The table cell: :meth:`label`, with the counterexample after ``fails``."""
        if self.verdict != "fails":
            return self.label()
        return f"fails {self.counterexample_text()}"

    def search_text(self) -> str:
        """What the search rests on, in words."""
        kind = "exact arithmetic" if self.exact else "a float64 screen confirmed exactly"
        text = f"{self.checked:,} checked by {kind} ({self.searched})"
        if self.undefined:
            text += f", {self.undefined:,} of them undefined"
        if self.ties:
            left = self.ties - self.ties_confirmed
            text += (f"; {self.ties:,} float ties, "
                     + ("all decided exactly" if not left else
                        f"{self.ties_confirmed:,} decided exactly, {left:,} agreeing to 1e-9 "
                        "in float64 only"))
        return text

    def evidence(self) -> str:
        """What the verdict rests on: the proof's scope, the searched space, or why none."""
        guided = (f"; {self.guided}: no violation among {self.guided_checked:,} matrices"
                  if self.guided else "")
        implied = f" ({self.how})" if self.verdict == "proved" and self.how else ""
        if self.verdict == "proved" and self.every_k is not None:
            finite = (f"; the finite prover: {self.proof.scope_text()}"
                      if self.proof is not None and self.proof.scopes else "")
            return (f"{self.every_k.text()}{implied}{finite}; no counterexample among "
                    f"{self.search_text()}")
        if self.verdict == "proved":
            return (f"proved symbolically on {self.proof.scope_text()}{implied}; no "
                    f"counterexample among {self.search_text()}{guided}")
        if self.verdict == "holds":
            return f"no counterexample among {self.search_text()}{guided}"
        if self.verdict == "fails":
            text = f"{self.witness} ({self.how})"
            if self.proof is not None and self.proof.scopes:
                text += (f"; proved for {self.proof.short()}, fails at K = "
                         f"{self._counterexample_k()}")
            return text
        return self.witness

    def _counterexample_k(self):
        c = self.counterexample
        return c.shape[0] if isinstance(c, np.ndarray) else c[3]

    def counterexample_text(self) -> str:
        c = self.counterexample
        if isinstance(c, np.ndarray):
            return matrix_text(c)
        if isinstance(c, tuple) and len(c) == 4:
            a, b, cc, K = c
            return f"a={list(a)}, b={list(b)}, c={list(cc)} (K={K})"
        return str(c)


@dataclass
class AuditReport:
    """What :func:`audit` found for one metric (one variant).

    Parameters
    ----------
    label : str
        The variant's label (``"UOC, beta=0.25"``).
    better : {"lower", "higher"}
        Which values of the metric are better.
    results : dict
        Property name -> :class:`PropertyResult`.
    evaluations : int
        How many times the metric was evaluated.
    space : Space or None
        The searched space.

    Examples
    --------
    >>> r = audit("mae", ["symmetry"], max_k=2, max_n=2, random=0, prove=False)
    >>> r.label, r.better, r.verdict("symmetry")
    ('MAE', 'lower', 'holds')
    """

    label: str
    better: str
    results: dict = field(default_factory=dict)
    evaluations: int = 0
    space: Space | None = None

    def verdict(self, prop: str) -> str:
        return self.results[prop].verdict


# ---------------------------------------------------------------------------
# proofs, cross-checked against the search
# ---------------------------------------------------------------------------
def _positive_samples(seed, K, n=3):
    """``n`` seeded random ``K x K`` matrices with every cell in 1..3: instances
    of an all-positive scope, which a small search rarely holds."""
    rng = np.random.default_rng(seed * 1000 + K)
    return [rng.integers(1, 4, size=(K, K)).astype(np.int64) for _ in range(n)]


def _cross_check(ctx, res, proof, seed):
    """Raise ``RuntimeError`` when the search contradicts a proved scope: the
    counterexample lies in it, or the property's check fails on one of its
    matrices (every matrix of the scope with ``N <= 3``, and three random
    all-positive ones)."""
    p = res.property
    if isinstance(res.counterexample, np.ndarray) and proof.covers(res.counterexample):
        raise RuntimeError(f"{p}: proved on {proof.scope_text()}, but the search refutes it on "
                           f"{matrix_text(res.counterexample)}: {res.witness}")
    prop = PROPERTIES[p]
    from .generators import all_matrices

    for scope in proof.scopes:
        mats = [m for m in all_matrices(scope.K, 3, min_k=scope.K) if scope.covers(m)]
        if scope.kind == "positive":
            mats += _positive_samples(seed, scope.K)
        for m in mats:
            if prop.bases(m[None])[0]:
                w = prop.check(ctx, m)
                if w:
                    raise RuntimeError(f"{p}: proved on {scope.text()}, but the check fails on "
                                       f"{matrix_text(m)}: {w}")


class _Prover:
    def __init__(self, symbolic, ctx, scopes):
        self.symbolic, self.ctx, self.scopes = symbolic, ctx, tuple(scopes)
        self._evaluator = None

    def prove(self, prop, better, bounds):
        if self._evaluator is None:
            self._evaluator = _prover.Evaluator(self.symbolic, self.ctx.exact)
        return _prover.prove_with(self._evaluator, prop, better=better, bounds=bounds,
                                  scopes=self.scopes)


def _with_proof(prover, ctx, res, better, bounds, seed):
    """``res`` with the symbolic proof attempt, cross-checked; ``"holds"``
    becomes ``"proved"`` when a scope with ``K >= 2`` is proved."""
    name = PROPERTIES[res.property].prover
    if prover is None or not prover.scopes or name is None or res.verdict not in (
            "holds", "fails", "proved"):
        return res
    proof = prover.prove(name, better, bounds)
    _cross_check(ctx, res, proof, seed)
    r = proof.refutation
    if res.verdict in ("holds", "proved") and r is not None:
        # a region of a symbolic family where the relation fails (issue 41 item 2): its
        # matrix is a counterexample once the property's exact check confirms it
        witness = PROPERTIES[res.property].check(ctx, r.matrix)
        if witness:
            return replace(res, verdict="fails", proof=proof, counterexample=r.matrix, witness=witness,
                           minimal=False, how=f"derived from the symbolic family: it fails on {r.region}; "
                                              f"{matrix_text(r.matrix)} confirmed in exact arithmetic")
    if res.verdict == "holds" and proof.proved:
        return replace(res, verdict="proved", proof=proof)
    return replace(res, proof=proof)


def _falsified(prop, res, spec, ctx, budget):
    """``res`` after the falsifier (:mod:`analytic.properties.falsify`): a cell the
    search left without a counterexample becomes ``"fails"`` with the guided
    search's counterexample (confirmed exactly, shrunk, never called minimal),
    or keeps its verdict with the guided search's budget in :attr:`PropertyResult.guided`."""
    from .falsify import falsify_spec

    if budget is None or spec is None or res.verdict not in ("holds", "proved") or \
            res.every_k is not None or prop.region not in ("matrices", "diagonal"):
        return res
    found, n = falsify_spec(spec, ctx, prop, budget)
    if found is None:
        return replace(res, guided=budget.text(), guided_checked=n)
    if res.proof is not None and res.proof.covers(found.matrix):
        raise RuntimeError(f"{prop.name}: proved on {res.proof.scope_text()}, but the guided "
                           f"search refutes it on {matrix_text(found.matrix)}")
    return replace(res, verdict="fails", counterexample=found.matrix, witness=found.witness,
                   how=found.how(), minimal=False)


def _with_every_k(res, structure, better, bounds, checked):
    """``res`` with the lemma of :mod:`analytic.properties.structure` for every ``K``;
    a lemma contradicted by a counterexample of the search raises ``RuntimeError``."""
    from .structure import prove_every_k

    if structure is None or res.verdict not in ("holds", "proved", "fails"):
        return res
    lemma = prove_every_k(structure, res.property, better, bounds, checked)
    if lemma is None:
        return res
    if res.verdict == "fails":
        raise RuntimeError(f"{res.property}: proved for every K ({lemma.lemma}), but the "
                           f"search refutes it: {res.witness}")
    return replace(res, verdict="proved", every_k=lemma, guided="", guided_checked=0)


def _implied(results):
    """A ``*_populated`` twin (Amigó et al.'s setting: matrices without an empty row)
    is the same relation on a subset of its property's matrices, so a proof of the
    property proves the twin on the same scope: a twin the search left unrefuted
    takes its property's proof (finite scopes, or every ``K``), saying so in
    :attr:`PropertyResult.how`."""
    out = dict(results)
    for name, res in results.items():
        base = name.removesuffix("_populated")
        if name == base or base not in results or res.verdict != "holds":
            continue
        src = results[base]
        if src.verdict != "proved":
            continue
        proof = None if src.proof is None else replace(src.proof, property=name)
        out[name] = replace(res, verdict="proved", proof=proof, every_k=src.every_k,
                            how=f"implied by {base} (its proof covers every matrix of the "
                                "scope, those without an empty row among them)")
    return out


# ---------------------------------------------------------------------------
# the audit
# ---------------------------------------------------------------------------
def _exact_search(prop, ctx, space):
    """A callable without a vectorised form: every base matrix in exact arithmetic."""
    from .engine import Found, diagonal_chunk_matrices

    found = Found(prop.name, exact=True)
    if prop.region == "diagonal":
        order = sorted((N, K) for K, n in space.diagonal for N in range(1, n + 1))
        parts = [(False, diagonal_chunk_matrices(K, N)) for N, K in order]
    else:
        parts = [(c.kind == "random", c.matrices(space)) for c in space.chunks()]
    for rnd, A in parts:
        A = A[prop.bases(A)]
        for m in A:
            found.checked += 1
            w = prop.check(ctx, m)
            if not _undefined(ctx, m):
                found.defined += 1
            if w:
                found.counterexample, found.witness, found.minimal = m, w, not rnd
                found.how = "random, then shrunk" if rnd else f"exhaustive: {FIRST_MATRIX}"
                return found
    return found


def _exact_triples(prop, ctx, space):
    from .generators import label_vectors
    from .engine import Found

    found = Found("triangle", exact=True)
    top = max((n for _, n in space.triangle), default=0)
    for n in range(1, top + 1):
        for K, m in sorted(space.triangle):
            if n > m:
                continue
            vecs = list(label_vectors(K, n))
            for a in vecs:
                for b in vecs:
                    if b == a:
                        continue
                    for c in vecs:
                        if c == b:
                            continue
                        found.checked += 1
                        found.defined += _triple_defined(ctx, a, b, c, K)
                        w = prop.check(ctx, (a, b, c, K))
                        if w:
                            found.counterexample, found.witness = (a, b, c, K), w
                            found.minimal = True
                            found.how = f"exhaustive: {FIRST_TRIPLE}"
                            return found
    return found


def _triple_defined(ctx, a, b, c, K):
    from .catalog import _distance
    from .exact import Undefined

    return all(not isinstance(_distance(ctx, x, y, K), Undefined)
               for x, y in ((a, b), (b, c), (a, c)))


def _undefined(ctx, m):
    from .exact import Undefined

    return isinstance(ctx.value(m), Undefined)


def _verdict(prop, found, space, ctx) -> PropertyResult:
    searched = (_triangle_text(space) if prop.region == "triples" else
                _diagonal_text(space, prop) if prop.region == "diagonal" else
                space.describe() + (", matrices without an empty row" if prop.populated else "")
                + (", matrices with an empty row" if prop.name == "unobserved_class" else ""))
    common = dict(searched=searched, checked=found.checked, ties=found.ties,
                  ties_confirmed=found.ties_confirmed, exact=found.exact,
                  # of a failing property only the bases up to the counterexample are counted
                  undefined=0 if found.fails else found.checked - found.defined)
    if found.fails:
        m = found.counterexample
        how = found.how
        if isinstance(m, np.ndarray) and not found.minimal:
            def fails(a):
                return bool(prop.bases(a[None])[0]) and bool(prop.check(ctx, a))
            r = shrink(fails, m, max_k=m.shape[0], budget=3000)
            m, how = r.matrix, f"{found.how} ({r.how})"
        return PropertyResult(prop.name, "fails", m, prop.check(ctx, m) if isinstance(
            m, np.ndarray) else found.witness, how=how, minimal=found.minimal, **common)
    if found.checked == 0:
        return PropertyResult(prop.name, "n/a", witness=(
            f"empty search: no matrix of the searched space is one the property speaks of "
            f"({searched})"), **common)
    if found.defined == 0 and prop.name != "unobserved_class":
        return PropertyResult(prop.name, "n/a", witness=(
            f"the metric is undefined on every one of the {found.checked:,} searched matrices "
            f"({searched})"), **common)
    return PropertyResult(prop.name, "holds", **common)


def _triangle_text(space):
    parts = [f"every triple of label vectors of length n <= {n} over K = {K} classes"
             for K, n in space.triangle]
    text = "; ".join(parts)
    if space.triangle_random:
        text += f"; {space.triangle_random:,} random triples (n <= {space.triangle_n})"
    return text


def _diagonal_text(space, prop):
    parts = [f"K = {K}, N <= {n}" for K, n in space.diagonal]
    extra = ", every class populated" if prop.populated else ""
    return "diagonal matrices " + "; ".join(parts) + extra


def _run(spec, exact_f, label, better, bounds, names, space, symbolic, scopes, *,
         executor=None, jobs=1, tie_budget=TIE_BUDGET, exact=False,
         exact_ties=False, falsify=None, structure=None, checked=None) -> AuditReport:
    if better not in ("lower", "higher"):
        raise ValueError(f"better must be 'lower' or 'higher', got {better!r}")
    if names is not None and (isinstance(names, str) or not isinstance(names, Iterable)):
        raise TypeError(f"properties must be a list of property names, got {names!r:.60}")
    names = list(PROPERTIES) if names is None else list(names)
    for p in names:
        if p not in PROPERTIES:
            raise ValueError(f"unknown property {p!r}; expected some of {list(PROPERTIES)}")
    check_size(space)
    ctx = ExactContext(exact_f, better, bounds)
    rep = AuditReport(label=label, better=better, space=space)
    active = []
    for p in names:
        why = PROPERTIES[p].not_applicable(ctx)
        if why:
            rep.results[p] = PropertyResult(p, "n/a", witness=why)
        else:
            active.append(p)
    own = None
    if spec is not None and not exact and executor is None:
        own = default_executor(jobs) if _can_pickle(spec) else None
    ex = executor or own
    try:
        if spec is None or exact:
            found = {p: (_exact_triples(PROPERTIES[p], ctx, space) if p == "triangle"
                         else _exact_search(PROPERTIES[p], ctx, space)) for p in active}
        else:
            found = search_matrices(spec, [p for p in active if p != "triangle"], space, ctx,
                                    executor=ex, tie_budget=tie_budget,
                                    exact_ties=exact_ties)
            if "triangle" in active:
                found["triangle"] = search_triples(spec, space, ctx, executor=ex,
                                                   tie_budget=tie_budget,
                                                   exact_ties=exact_ties)
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)
    prover = _Prover(symbolic, ctx, scopes) if symbolic is not None else None
    if structure is not None and checked is None:
        from .structure import check_declaration

        checked = check_declaration(structure, _raising(ctx))
    fspec = spec if spec is not None else _exact_spec(ctx, better, bounds)
    for p in active:
        res = _verdict(PROPERTIES[p], found[p], space, ctx)
        res = _with_every_k(res, structure, better, bounds, checked)
        res = _with_proof(prover, ctx, res, better, bounds, space.seed)
        rep.results[p] = _falsified(PROPERTIES[p], res, fspec, ctx, falsify)
    rep.results = _implied({p: rep.results[p] for p in names})
    rep.evaluations = len(ctx.cache)
    return rep


def _raising(ctx):
    """The exact value as a SymPy number, ``ValueError`` where undefined."""
    def f(m):
        v = ctx.exact(m)
        if v is None:
            raise ValueError("undefined")
        return v
    return f


def _exact_spec(ctx, better, bounds):
    """A float form of a callable without one (the falsifier's screen): its exact
    value per matrix (:meth:`ExactContext.value`, cached), as a float;
    :class:`exactfloor.errors.UndefinedMetric` where it is undefined."""
    from exactfloor.errors import UndefinedMetric

    from .exact import Undefined

    def vectorized(stack):
        out = []
        for m in stack:
            v = ctx.value(m)
            if isinstance(v, Undefined):
                raise UndefinedMetric(v.message)
            out.append(float(v))
        return np.array(out)
    return MetricSpec(vectorized=vectorized, better=better, bounds=bounds)


def _or_error(label, better, names, space, run) -> AuditReport:
    """``run()``, or, when the metric is broken (:class:`exactfloor.errors.MetricError`),
    the report giving every property of ``names`` the verdict ``"error"``."""
    try:
        return run()
    except MetricError as exc:
        m = np.array(exc.matrix, dtype=np.int64)
        rep = AuditReport(label=label, better=better, space=space)
        rep.results = {p: PropertyResult(p, "error", counterexample=m, witness=str(exc))
                       for p in (list(PROPERTIES) if names is None else names)}
        return rep


def _listed(names):
    """``properties`` as a list (an iterator is read once), else as given (checked later)."""
    if names is None or isinstance(names, str) or not isinstance(names, Iterable):
        return names
    return list(names)


def _can_pickle(spec):
    import pickle

    try:
        pickle.dumps(spec)
        return True
    except Exception:
        return False


def _scopes(prove):
    if prove is True:
        return _prover.DEFAULT_SCOPES
    if not prove:
        return ()
    return tuple(prove)


def audit(metric, properties: Iterable[str] | None = None, *, max_n: int | None = None,
          max_k: int | None = None, random: int | None = None, seed: int = 0,
          space: Space | None = None, variant=0, better: str | None = None,
          bounds: tuple | None = None, prove=True, symbolic: Callable | None = None,
          vectorized: Callable | None = None, jobs: int | None = 1, executor=None,
          tie_budget: int = TIE_BUDGET, exact: bool = False,
          exact_ties: bool = False, falsify=None, every_k: bool = False,
          structure=None) -> AuditReport:
    """Decide the properties of a metric: search a space of matrices for a
    counterexample, and prove symbolically what is not refuted.

    Parameters
    ----------
    metric : str, numeric.registry.Metric or callable
        A registry name (``"uoc"``), a registry record, or a function of a
        ``K x K`` ``int64`` count matrix returning a number (raising
        :class:`exactfloor.errors.UndefinedMetric`, or returning NaN or None,
        where it is undefined; any other exception gives the verdict ``"error"``).
    properties : iterable of str, optional
        Names of :data:`PROPERTIES` (default: all).
    space : Space, optional
        The searched space (default :data:`DEFAULT_SPACE` for a registered
        metric or a callable with ``vectorized``, :data:`CALLABLE_SPACE` for a
        plain callable).
    max_n, max_k, random, seed : int, optional
        Instead of ``space``: every matrix with ``K <= max_k``, ``N <= max_n``
        and ``random`` random matrices (:func:`space_of`).
    variant : int or str
        Which report variant of a registered metric (index or label).
    better : {"lower", "higher"}
        Required for a callable (default ``"lower"``); a registered metric's own.
    bounds : (lo, hi), optional
        The stated range (default: the registry's, or unknown for a callable);
        numbers, or strings read without evaluation (:func:`exactfloor.parsing.parse_number`).
    prove : bool or sequence of analytic.properties.prover.Scope
        The scopes of the symbolic proofs (``True``: :data:`analytic.properties.prover.DEFAULT_SCOPES`).
    symbolic : callable, optional
        For a callable metric: the same metric on a matrix of SymPy counts.
    vectorized : callable, optional
        For a callable metric: the metric on a ``(B, K, K)`` stack in float64,
        NaN where a matrix leaves it undefined, or raising
        :class:`exactfloor.errors.UndefinedMetric` (the stack is then halved);
        enables the float screen.
    jobs : int or None
        Worker processes of the screen (None: the usable CPUs).
    executor : concurrent.futures.Executor, optional
        Runs the chunks instead (e.g. ``dask.distributed.Client.get_executor()``).
    tie_budget : int
        Ties decided exactly per property by the per-matrix check (the first
        in search order), besides those ``exact_ties`` decides.
    exact : bool
        Search in exact arithmetic on every matrix (no float screen).
    exact_ties : bool
        Decide every tie of the float screen exactly, in the workers: a
        registered metric is evaluated on the whole stack of tied matrices
        in rational arithmetic (:mod:`exactfloor.rational`; gmpy2
        makes it ~5x faster), roots and base-2 logarithms of rationals as
        exact closed forms (:mod:`exactfloor.closedform`), and each
        property's screen runs again on the exact values; a callable with
        ``vectorized`` is evaluated by ``metric`` itself, matrix by matrix,
        on the stack of ties (in this process if ``metric`` cannot be
        pickled).  Ties of a metric whose values leave those forms (a root of
        a sum of roots) are left to ``tie_budget``.  Slower (over the default
        space on 2 processes: MAE about three times the float search, 35-45 s;
        A_UOC, whose exact values are parametric searches run together in
        int64 for the whole stack of ties, about 1.5 times, 50-56 s).
    falsify : analytic.properties.falsify.Budget, optional
        Run the falsifier (:mod:`analytic.properties.falsify`) with this budget on
        every property the search leaves without a counterexample (default: none;
        the property table uses :data:`analytic.properties.falsify.DEFAULT_BUDGET`).
        A callable without ``vectorized`` is screened through its exact values
        (slow: give a small budget).
    every_k : bool
        Prove properties for every ``K`` from the metric's declared structure
        (:data:`analytic.properties.structure.STRUCTURES`), checked first against
        the metric's exact values.
    structure : analytic.properties.structure.SampleMean or ClassAggregate, optional
        For a callable: its structure (implies ``every_k``), checked against it
        before any lemma uses it.

    Returns
    -------
    AuditReport

    Raises
    ------
    ValueError
        An unknown metric, variant or property, invalid or too large sizes.
    RuntimeError
        A proof contradicted by the search.

    Examples
    --------
    >>> r = audit("uoc", ["symmetry"], max_k=2, max_n=3, random=0)
    >>> r.label, r.results["symmetry"].verdict, r.results["symmetry"].counterexample.tolist()
    ('UOC, beta=0.25', 'fails', [[0, 0], [1, 2]])
    """
    if space is not None and any(x is not None for x in (max_k, max_n, random)):
        raise ValueError("give either space or max_k/max_n/random, not both")
    tie_budget = _whole("tie_budget", tie_budget, 0)
    if jobs is not None:
        jobs = _whole("jobs", jobs, 1)
    if isinstance(metric, str) or hasattr(metric, "cases"):
        from numeric.registry import REGISTRY

        m = metric
        if isinstance(metric, str):
            if metric not in REGISTRY:
                raise ValueError(f"unknown metric {metric!r}; expected one of {sorted(REGISTRY)}")
            m = REGISTRY[metric]
        v = m.variant(variant)
        sp = space_of(max_k, max_n, random, seed) if space is None else space
        bnds = m.bounds if bounds is None else _pair(bounds)
        spec = MetricSpec(name=m.name, variant=v.label, better=better or m.better, bounds=bnds)
        from numeric._symbolic import SymbolicArithmetic

        checked = None  # a given structure is checked in _run; a declared one once per process
        if structure is None and every_k:
            _, _, _, structure, checked = _registered_parts(m.name, v.label, True)
        properties = _listed(properties)
        return _or_error(v.label, better or m.better, properties, sp, lambda: _run(
            spec, m.bind(v, "exact"), v.label, better or m.better, bnds,
            properties, sp, symbolic or m.bind(v, SymbolicArithmetic()), _scopes(prove),
            executor=executor, jobs=jobs, tie_budget=tie_budget, exact=exact,
            exact_ties=exact_ties, falsify=falsify, structure=structure, checked=checked))
    if not callable(metric):
        raise ValueError(f"metric must be a registry name, a Metric or a callable, got {metric!r}")
    default = DEFAULT_SPACE if vectorized is not None else CALLABLE_SPACE
    sp = space_of(max_k, max_n, random, seed, default=default) if space is None else space
    bnds = (None, None) if bounds is None else _pair(bounds)
    spec = None if vectorized is None else MetricSpec(
        vectorized=vectorized, better=better or "lower", bounds=bnds,
        exact=metric if exact_ties else None)
    label = getattr(metric, "__name__", "metric")
    properties = _listed(properties)
    return _or_error(label, better or "lower", properties, sp, lambda: _run(
        spec, metric, label, better or "lower", bnds, properties, sp, symbolic,
        _scopes(prove), executor=executor, jobs=jobs, tie_budget=tie_budget, exact=exact,
        exact_ties=exact_ties, falsify=falsify, structure=structure))


@functools.lru_cache(maxsize=None)
def audit_registered(name: str, variant_label: str, space: Space = DEFAULT_SPACE,
                     scopes: tuple = _prover.DEFAULT_SCOPES, jobs: int | None = 1,
                     exact_ties: bool = False, falsify=None,
                     every_k: bool = False) -> AuditReport:
    """:func:`audit` of one registered variant with every property, cached for the process.

    The property table's cells (:func:`property_table`) and the ledger's
    ``audit:*`` claims read the same reports through this cache.

    Parameters
    ----------
    name : str
        A registered metric (``"mae"``).
    variant_label : str
        One of its report variants' labels (``"MAE"``).
    space : Space, default :data:`DEFAULT_SPACE`
        The searched space.
    scopes : tuple of analytic.properties.prover.Scope
        The scopes of the symbolic proofs (``()``: none).
    jobs : int or None, default 1
        Worker processes of the screen (None: the usable CPUs).
    exact_ties, falsify, every_k
        As :func:`audit`'s.

    Returns
    -------
    AuditReport
        The same object for the same arguments.

    Examples
    --------
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> r = audit_registered("mae", "MAE", tiny, ())
    >>> r.verdict("symmetry"), r is audit_registered("mae", "MAE", tiny, ())
    ('holds', True)
    """
    return audit(name, variant=variant_label, space=space, prove=tuple(scopes), jobs=jobs,
                 exact_ties=exact_ties, falsify=falsify, every_k=every_k)


def property_table(space: Space = DEFAULT_SPACE, scopes: tuple = _prover.DEFAULT_SCOPES,
                   jobs: int | None = 1, progress=None,
                   exact_ties: bool = False, falsify="default",
                   every_k: bool = True) -> list[tuple[str, str, AuditReport]]:
    """The property audit of every variant of every registered metric of a matrix.

    The metrics are those that need only the matrix
    (:func:`numeric.registry.matrix_metrics`), each case (variant) in the
    registry's order.

    Parameters
    ----------
    space : Space, default :data:`DEFAULT_SPACE`
        The searched space.
    scopes : tuple of analytic.properties.prover.Scope
        The scopes of the symbolic proofs (``()``: none).
    jobs : int or None, default 1
        Worker processes of the screen (None: the usable CPUs).
    progress : callable, optional
        ``progress(done, total, variant label)``.
    exact_ties : bool, default False
        As :func:`audit`'s.
    falsify : analytic.properties.falsify.Budget, "default" or None
        The falsifier's budget per cell (``"default"``:
        :data:`~analytic.properties.falsify.DEFAULT_BUDGET`; None: no falsifier).
    every_k : bool, default True
        As :func:`audit`'s.

    Returns
    -------
    list of tuple
        ``(metric name, variant label, AuditReport)`` per variant.

    Examples
    --------
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> rows = property_table(tiny, scopes=(), falsify=None, every_k=False)
    >>> rows[0][:2], rows[0][2].verdict("symmetry")
    (('mer', 'MER'), 'holds')
    """
    from numeric.registry import matrix_metrics

    from .falsify import DEFAULT_BUDGET

    budget = DEFAULT_BUDGET if falsify == "default" else falsify
    cases = [(m.name, v.label) for m in matrix_metrics() for v in m.cases()]
    out = []
    for i, (name, label) in enumerate(cases):
        if progress is not None:
            progress(i, len(cases), label)
        out.append((name, label, audit_registered(name, label, space, tuple(scopes), jobs,
                                                  exact_ties, budget, every_k)))
    if progress is not None:
        progress(len(cases), len(cases), "")
    return out


def table_markdown(rows=None, space: Space = DEFAULT_SPACE,
                   scopes: tuple = _prover.DEFAULT_SCOPES, **kw) -> str:
    """The property table as Markdown (``docs/properties.md``), deterministic.

    Parameters
    ----------
    rows : list of tuple, optional
        :func:`property_table`'s rows (default: run it with ``space``, ``scopes`` and ``kw``).
    space : Space, default :data:`DEFAULT_SPACE`
        The searched space, stated in the table's header.
    scopes : tuple of analytic.properties.prover.Scope
        The scopes of the symbolic proofs.
    **kw
        Passed to :func:`property_table` when ``rows`` is not given.

    Returns
    -------
    str
        The Markdown page.

    Examples
    --------
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> r = audit("mae", space=tiny, prove=False)
    >>> table_markdown([("mae", r.label, r)], tiny, ()).splitlines()[0]
    '# Property table'
    """
    from .table import markdown, table_dict

    rows = property_table(space, scopes, **kw) if rows is None else rows
    return markdown(table_dict(rows, space, scopes))


# ---------------------------------------------------------------------------
# the table's last two stages on a committed table
# ---------------------------------------------------------------------------
def _scope_of(text):
    """A :class:`~analytic.properties.prover.Scope` from its :meth:`text`."""
    import re

    from .prover import Scope

    m = re.fullmatch(r"every matrix with K = (\d+)( and all cells positive)?", text)
    if m is None:
        raise ValueError(f"not a proof scope: {text!r}")
    return Scope(int(m.group(1)), "positive" if m.group(2) else "every")


def result_of(d):
    """The :class:`~analytic.properties.audit.PropertyResult` of a result dict.

    The inverse of :func:`analytic.properties.table.result_dict` (but for the
    rounding of the proofs' timings): how a committed table is read back.

    Parameters
    ----------
    d : dict
        One cell of a table (:func:`analytic.properties.table.table_dict`).

    Returns
    -------
    PropertyResult
        The cell's result.

    Examples
    --------
    >>> from analytic.properties.table import result_dict
    >>> res = audit("mae", ["symmetry"], max_k=2, max_n=2, random=0, prove=False).results["symmetry"]
    >>> result_of(result_dict(res)) == res
    True
    """
    from .prover import Proof
    from .table import counterexample_of
    from .structure import EveryK

    proof = d.get("proof")
    if proof is not None:
        proof = Proof(d["property"], tuple(_scope_of(t) for t in proof["scope_text"].split("; ")
                                           if t),
                      tuple((_scope_of(x["scope_text"]), x["reason"], x["kind"])
                            for x in proof["refused"]), proof["seconds"])
    e = d.get("every_k")
    return PropertyResult(
        d["property"], d["verdict"], counterexample_of(d), d["witness"], d["searched"],
        d["how"], d["checked"], proof, d["undefined"], d["ties"], d["ties_confirmed"],
        d["minimal"], d["exact"],
        None if e is None else EveryK(d["property"], e["structure"], e["lemma"], e["checked"],
                                      e["up_to_k"]),
        d["guided"], d["guided_checked"])


@functools.lru_cache(maxsize=None)
def _registered_parts(name, label, every_k):
    """The record, spec, exact context, structure and declaration count of a registered
    variant."""
    from .falsify import registered
    from .structure import check_declaration, structure_of

    m, spec, ctx = registered(name, label)
    structure = structure_of(name, label) if every_k else None
    checked = 0 if structure is None else check_declaration(structure, _raising(ctx))
    return m, spec, ctx, structure, checked


def _family_stage(prop, res) -> bool:
    """Whether the upgrade re-runs a cell's finite proof: the property's proof is a
    symbolic family (``family``, e.g. imbalance), or the cell is unrefuted and its
    proof may now end in a refuted family (issue 41 item 2)."""
    return prop.proof_statement is not None and res.every_k is None and (
        prop.family or res.verdict == "holds")


def _upgrade_cell(name, label, d, budget, every_k, families=False, seed=0):
    from numeric._symbolic import SymbolicArithmetic

    from .table import result_dict

    m, spec, ctx, structure, checked = _registered_parts(name, label, every_k)
    res = result_of(d)
    prop = PROPERTIES[res.property]
    if families and _family_stage(prop, res):
        v = m.variant(label)
        prover = _Prover(m.bind(v, SymbolicArithmetic()), ctx, _prover.DEFAULT_SCOPES)
        res = _with_proof(prover, ctx, replace(res, proof=None), m.better, m.bounds, seed)
    res = _with_every_k(res, structure, m.better, m.bounds, checked)
    return result_dict(_falsified(PROPERTIES[res.property], res, spec, ctx, budget))


def upgrade_table(table: dict, falsify="default", every_k: bool = True, jobs: int | None = 1,
                  progress=None, variants=None, families: bool = False) -> dict:
    """A table (:func:`analytic.properties.table.table_dict`) with the stages that
    follow the search and the finite proofs: the lemmas for every ``K`` and the
    falsifier.

    Both stages take a cell's search result and finite proof as they are and
    depend on nothing else (the metric, the property, the budget and its
    seed), so this gives the table a full ``ordinal-verify audit --all`` would
    give with the same search, without its two hours of search.

    Parameters
    ----------
    table : dict
        A table with the search's and the finite prover's results.
    falsify : analytic.properties.falsify.Budget, "default" or None
        The falsifier's budget per cell (``"default"``:
        :data:`~analytic.properties.falsify.DEFAULT_BUDGET`; None: no falsifier).
    every_k : bool
        Apply the declared structures' lemmas.
    jobs : int or None
        Worker processes (None: the usable CPUs).
    progress : callable, optional
        ``progress(done, total, text)``.
    variants : collection of str, optional
        Only these rows (variant labels; the stages are deterministic, so a row not named
        is what they would give it again when its code is unchanged).
    families : bool, default False
        Also re-run the finite proof of the cells whose proof is a symbolic family
        (imbalance) and of the unrefuted cells, whose proof may end in a refuted family
        (:class:`analytic.properties.proofkit.Refutation`, confirmed exactly).  It reads
        the metric and the cell's search result only, like the other stages.

    Returns
    -------
    dict
        The new table (the input is not changed).

    Examples
    --------
    >>> from analytic.properties.table import table_dict
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> r = audit("mae", space=tiny, prove=False)
    >>> table = table_dict([("mae", r.label, r)], tiny, ())
    >>> upgrade_table(table, falsify=None, every_k=False) == table   # neither stage asked for
    True
    """
    import copy

    from .falsify import DEFAULT_BUDGET
    from .table import result_dict

    budget = DEFAULT_BUDGET if falsify == "default" else falsify
    out = copy.deepcopy(table)
    out["falsifier"] = None if budget is None else budget.text()
    cells = [(rep, p) for rep in out["reports"] for p in rep["properties"]
             if variants is None or rep["variant"] in variants]
    from .engine import _InProcess

    ex = default_executor(jobs)
    run = ex or _InProcess()
    try:
        seed = out.get("space", {}).get("seed", 0)
        futures = [run.submit(_upgrade_cell, rep["metric"], rep["variant"], rep["properties"][p],
                              budget, every_k, families, seed) for rep, p in cells]
        for i, ((rep, p), fut) in enumerate(zip(cells, futures, strict=True)):
            rep["properties"][p] = fut.result()
            if progress is not None:
                progress(i + 1, len(cells), f"{rep['variant']}: {p}")
    finally:
        if ex is not None:
            ex.shutdown(cancel_futures=True)
    for rep in out["reports"]:
        if variants is not None and rep["variant"] not in variants:
            continue
        implied = _implied({p: result_of(d) for p, d in rep["properties"].items()})
        rep["properties"] = {p: result_dict(r) for p, r in implied.items()}
    return out
