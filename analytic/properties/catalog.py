r"""The properties of a confusion-matrix metric, one class each.

A property is a :class:`Property` subclass (in the spirit of SymPy's
distribution classes: declared attributes, required hooks, optional hooks
with a generic fallback):

- ``name``, ``title``, ``source``, ``statement``: what it says, and where
  it comes from (the formal statement is the class docstring);
- ``region``: which matrices it is searched on (``"matrices"``, the
  exhaustive and random matrices of a :class:`~analytic.properties.space.Space`;
  ``"diagonal"``; ``"triples"`` of label vectors);
- :meth:`Property.screen`: the relation on a whole stack of matrices in
  float64, each base matrix classed as *clear* (the relation holds with a
  margin), *tie* (within the tolerance: the float values cannot decide)
  or *candidate* (a violation or a tie of a strict relation);
- :meth:`Property.check`: the same relation in exact arithmetic on one base
  matrix (the reference: every candidate and tie the search confirms is
  decided here);
- :meth:`Property.prove_pattern`, ``proof_statement``, :meth:`Property.vacuous`: the
  property's finite-K symbolic proof on one generic matrix, what it establishes, and the
  scopes where it is vacuous (run by :mod:`analytic.properties.prover`; issue 41 item 3)


Notation: ``A`` a ``K x K`` count matrix (rows = true class, columns =
predicted), ``f`` the metric, "undefined" a :class:`exactfloor.errors.UndefinedMetric`
raised (or NaN or None returned); the *loss* is
``f`` for a lower-is-better metric and ``-f`` otherwise.

Amigó et al. 2020 (ACL), §3, state ordinal monotonicity, ordinal invariance
and class imbalance for a gold standard whose classes are all populated;
each has a ``*_populated`` twin searched only on matrices without an empty
row (their setting), besides the plain one on every matrix.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from exactfloor.certificates import is_zero
from exactfloor.tolerance import FLOAT_SCREEN

from .exact import Undefined, compare, exceeds_sum, value_of
from .generators import insert_empty_class, matrix_text, step_toward_diagonal
from .proofkit import SCALE, certify, refute_family, same_value, split_moves, symbols_of

__all__ = ["Property", "PROPERTIES", "CLEAR", "TIE", "CANDIDATE", "TOLERANCE", "tolerance"]

#: the classes of a base matrix in the float screen
CLEAR, TIE, CANDIDATE = 0, 1, 2

#: relative tolerance of the float screen: two float64 values closer than this
#: (relative to ``max(1, |a|, |b|)``) are a tie the float values cannot decide.
#: The formulas' float64 rounding on the searched matrices is far below it:
#: at most 4.2e-16 (relative) over all 20,000 random matrices of DEFAULT_SPACE
#: and the 31 variants then registered (GMSEC and MES, added later, by the CI
#: sample only), against mpmath at 40 digits (2026-11-27,
#: ``python proofs_tests/test_screen_accuracy.py --campaign``; CI asserts
#: < 1e-14 on a sample of the space).  A difference beyond the tolerance is
#: therefore a difference of the exact values with a margin of 10^6.
TOLERANCE = FLOAT_SCREEN


def tolerance(a, b):
    """The screen's tolerance for comparing float arrays ``a`` and ``b``; 0 when
    either holds exact values (``dtype=object``: the engine's exact screen of
    the ties, :class:`analytic.properties.engine.RationalEvaluator`), so that
    a tie is then an exact equality.

    Parameters
    ----------
    a, b : numpy.ndarray or number
        The values compared.

    Returns
    -------
    numpy.ndarray or int
        ``TOLERANCE * max(1, |a|, |b|)`` elementwise in float64; 0 for exact values.

    Examples
    --------
    >>> float(tolerance(np.array([2.0]), 1.0)[0])
    2e-09
    >>> tolerance(np.array([2], dtype=object), 1)
    0
    """
    if np.asarray(a).dtype == object or np.asarray(b).dtype == object:
        return 0
    return TOLERANCE * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))


def _eq_status(va, da, vb, db):
    """Equality ``f(a) = f(b)`` (both undefined counts as equal), elementwise."""
    st = np.full(va.shape, TIE, dtype=np.int8)
    both = da & db
    diff = np.abs(np.where(both, va - vb, 0.0))
    st[both & (diff > tolerance(np.where(both, va, 0), np.where(both, vb, 0)))] = CANDIDATE
    st[da != db] = CANDIDATE
    st[~da & ~db] = CLEAR
    return st


def _le_status(d, tol, strict):
    """``d <= 0`` (or ``< 0`` when strict) for a float difference of losses."""
    st = np.full(d.shape, CLEAR, dtype=np.int8)
    if strict:
        st[d >= -tol] = CANDIDATE
    else:
        st[np.abs(d) <= tol] = TIE
        st[d > tol] = CANDIDATE
    return st


def _derived(ev, key, stack):
    """``ev(stack)``, shared between properties when ``ev`` memoises derived stacks."""
    return ev.derived(key, stack) if hasattr(ev, "derived") else ev(stack)


def _merge(status, index, sub, n):
    """Fold per-case statuses ``sub`` (of bases ``index``) into per-base ``status``."""
    out = np.zeros(n, dtype=np.int8)
    np.maximum.at(out, index, sub)
    return np.maximum(status, out)


def _case_screen(cases, ev, n, strict):
    """The screen of ``loss(x) <= loss(y)`` (``<`` when strict) over the cases
    ``(idx, x, y, ok)`` of a property (:meth:`Monotonicity.cases`): a case where
    either value is undefined is clear."""
    st = np.zeros(n, dtype=np.int8)
    for idx, x, y, ok in cases:
        d = np.where(ok, ev.orient * (x - y), -np.inf)
        sub = _le_status(d, tolerance(np.where(ok, x, 0), np.where(ok, y, 0)), strict)
        sub[~ok] = CLEAR
        st = _merge(st, idx, sub, n)
    return st


def _case_slack(cases, ev, A, bases, strict):
    """:meth:`Property.slack` of the same relation: the least ``loss(y) - loss(x)``
    over a base's cases (``+inf`` where none is defined)."""
    s = np.full(len(A), np.inf)
    for idx, x, y, ok in cases:
        np.minimum.at(s, idx, np.where(ok, ev.orient * (y - x), np.inf))
    s[~bases] = np.inf
    return s, np.full(len(A), strict)


class Property:
    """One property of a metric (subclass it: one class per property).

    Required: ``name``, ``title``, ``source``, :meth:`screen`, :meth:`check`.
    Optional: :meth:`not_applicable` (default: applies), ``region``
    (default ``"matrices"``), ``grows`` (the property builds a matrix with
    one more class), ``populated`` (only matrices whose true classes are all
    populated), and for a property with a finite-K symbolic proof
    (:mod:`analytic.properties.prover`): ``proof_statement``, :meth:`prove_pattern`
    and, where some scopes are vacuous, :meth:`vacuous`.

    Examples
    --------
    >>> p = PROPERTIES["symmetry"]
    >>> isinstance(p, Property), p.name, p.region
    (True, 'symmetry', 'matrices')
    """

    name = ""
    title = ""
    source = ""
    region = "matrices"
    grows = False
    populated = False
    amigo = False
    #: what the finite-K symbolic proof establishes on each matrix ``A`` of its scope
    #: (None: the property has no such proof)
    proof_statement: str | None = None
    #: the proof is a symbolic family of its own (not the prover's support patterns alone)
    family = False

    def not_applicable(self, ctx) -> str | None:
        """Why the property says nothing about this metric (None: it applies)."""
        return None

    def bases(self, A):
        """The base matrices of a stack the property is checked on (a bool mask)."""
        if self.populated:
            return (A.sum(axis=-1) > 0).all(axis=-1)
        return np.ones(len(A), dtype=bool)

    def screen(self, ev, A):
        """The float screen: one of CLEAR, TIE, CANDIDATE per base of ``A``.

        ``ev(stack)`` returns ``(values, defined)`` in float64 (the metric's
        value, NaN where undefined).  Bases outside :meth:`bases` are CLEAR.
        """
        raise NotImplementedError

    def check(self, ctx, m) -> str | None:
        """The exact check of one base matrix: None, or the witness of a violation."""
        raise NotImplementedError

    #: the slack of a move property changes by about one sample's weight, ``1 / N``:
    #: the falsifier (:mod:`analytic.properties.falsify`) climbs ``N * slack`` for it
    per_sample = False

    def slack(self, ev, A):
        """How far each base of ``A`` is from violating the relation, in float64:
        ``(slack, strict)``, a float array (``+inf`` where the property says
        nothing: not a base, or the metric undefined) and a bool array.  A base
        violates the relation when ``slack < 0``, or ``slack == 0`` where
        ``strict``; the falsifier (:mod:`analytic.properties.falsify`) climbs
        toward lower slack.  Generic fallback: the float screen, ``0`` for a
        flagged base, ``1`` for a clear one (nothing to climb on).
        """
        st = self.screen(ev, A)
        s = np.where(st == CLEAR, 1.0, 0.0)
        s[~self.bases(A)] = np.inf
        return s, np.ones(len(A), dtype=bool)

    @property
    def prover(self) -> str | None:
        """The property's name in :data:`analytic.properties.prover.PROVABLE` (None: no proof)."""
        return None if self.proof_statement is None else self.name

    def prove_pattern(self, ev, m, spec) -> str | None:
        """The symbolic proof on one generic matrix (:mod:`analytic.properties.prover`).

        Parameters
        ----------
        ev : analytic.properties.prover.Evaluator
            The metric on symbolic matrices: a SymPy expression, or
            :class:`analytic.properties.proofkit.Undefined`.
        m : numpy.ndarray
            A generic matrix: a positive integer symbol on each cell of a support pattern.
        spec : dict
            ``bounds`` (lo, hi), ``orient`` (1 when lower is better, else -1) and ``best``.

        Returns
        -------
        str or None
            None when the relation is certified on every instance of the pattern, else why not.
        """
        raise NotImplementedError(f"the property {self.name!r} has no symbolic proof")

    def vacuous(self, scope) -> str | None:
        """``"true"`` where the property holds vacuously on a prover scope (one class:
        no move, no interior position), ``"irrelevant"`` where it says nothing about
        the scope, else None."""
        return None

    def proof_scopes(self, scopes) -> tuple:
        """The prover's scopes for this property (default: the ones asked for)."""
        return tuple(scopes)

    def patterns(self, scope):
        """The support patterns of ``scope`` the proof must cover (default: every one;
        a property that speaks of fewer matrices lists fewer)."""
        return scope.patterns()

    def statement(self) -> str:
        """The formal statement (the class docstring, one paragraph)."""
        return " ".join((type(self).__doc__ or "").split())

    def __repr__(self):
        return f"<property {self.name}>"


# ---------------------------------------------------------------------------
class Range(Property):
    """``lo <= f(A) <= hi`` for the metric's stated bounds (registry ``bounds``)."""

    name, title, source = "range", "value within the stated bounds", "registry bounds"
    proof_statement = "lo <= f(A) <= hi (a sign certificate of each difference)"

    def not_applicable(self, ctx):
        return "no bounds stated" if ctx.bounds == (None, None) else None

    def screen(self, ev, A):
        v, d = ev(A)
        st = np.zeros(len(A), dtype=np.int8)
        for b, side in zip(ev.bounds, (-1, 1), strict=True):
            if b is None:
                continue
            diff = np.where(d, side * (v - b), -np.inf)  # > 0: outside
            tol = tolerance(np.where(d, v, 0), b)
            st = np.maximum(st, _le_status(diff, tol, strict=False))
        return st

    def slack(self, ev, A):
        v, d = ev(A)
        s = np.full(len(A), np.inf)
        for b, side in zip(ev.bounds, (-1, 1), strict=True):
            if b is not None:
                s = np.minimum(s, np.where(d, -side * (v - b), np.inf))
        return s, np.zeros(len(A), dtype=bool)

    def check(self, ctx, m):
        v = ctx.value(m)
        if isinstance(v, Undefined):
            return None
        lo, hi = ctx.bounds
        if lo is not None and compare(v, lo) < 0 or hi is not None and compare(v, hi) > 0:
            return f"{ctx.describe(m)} outside [{lo}, {hi}]"
        return None

    def prove_pattern(self, ev, m, spec):
        v = ev(m)
        if isinstance(v, Undefined):
            return None
        lo, hi = spec["bounds"]
        for d, what in ((None if lo is None else v - lo, f"f({matrix_text(m)}) - {lo}"),
                        (None if hi is None else hi - v, f"{hi} - f({matrix_text(m)})")):
            why = None if d is None else certify(d, ">= 0")
            if why:
                return f"{what}: {why}"
        return None


def _is_diagonal(A):
    K = A.shape[-1]
    off = ~np.eye(K, dtype=bool)
    return ~(A[..., off] != 0).any(axis=-1)


class Identity(Property):
    """``f(A)`` equals the best bound (``lo`` if lower is better, ``hi`` otherwise)
    if and only if ``A`` is diagonal."""

    name, title, source = "identity", "best value exactly on diagonal matrices", "cardoso2011 §3.3 (for OC)"
    proof_statement = ("f(A) = best on a diagonal pattern; the loss of f(A) is certified > the "
                       "best one on any other pattern")

    def not_applicable(self, ctx):
        return "the better side is unbounded" if ctx.best is None else None

    def screen(self, ev, A):
        v, d = ev(A)
        best = ev.best
        diag = _is_diagonal(A)
        loss = ev.orient * (v - best)  # >= 0 within the range
        tol = tolerance(np.where(d, v, 0), best)
        st = np.zeros(len(A), dtype=np.int8)
        on = d & diag
        st[on & (np.abs(loss) > tol)] = CANDIDATE
        st[on & (np.abs(loss) <= tol)] = TIE
        st[d & ~diag & (loss <= tol)] = CANDIDATE  # must be strictly above the best
        return st

    def slack(self, ev, A):
        v, d = ev(A)
        diag = _is_diagonal(A)
        loss = ev.orient * (v - ev.best)
        s = np.where(d, np.where(diag, -np.abs(loss), loss), np.inf)
        return s, ~diag

    def check(self, ctx, m):
        v = ctx.value(m)
        if isinstance(v, Undefined):
            return None
        best = ctx.best
        at_best = compare(v, best) == 0
        diag = bool(_is_diagonal(m))
        if diag and not at_best:
            return f"diagonal, yet {ctx.describe(m)}, not the best value {best}"
        if at_best and not diag:
            return f"not diagonal, yet {ctx.describe(m)}, the best value"
        return None

    def prove_pattern(self, ev, m, spec):
        v = ev(m)
        if isinstance(v, Undefined):
            return None
        best = spec["best"]
        if all(m[i, j] == 0 for i in range(m.shape[0]) for j in range(m.shape[0]) if i != j):
            ok, why = is_zero(v - best)
            return None if ok else f"diagonal {matrix_text(m)}: f - {best}: {why}"
        why = certify(spec["orient"] * (v - best), "> 0")
        return f"off-diagonal {matrix_text(m)}: the loss above the best: {why}" if why else None


class _Equality(Property):
    """Shared screen and check of ``f(T(A)) = f(A)`` for transforms ``T``."""

    def transforms(self, K):
        """``[(label, function of a stack)]``."""
        raise NotImplementedError

    def screen(self, ev, A):
        va, da = ev(A)
        st = np.zeros(len(A), dtype=np.int8)
        for label, t in self.transforms(A.shape[-1]):
            vb, db = _derived(ev, (self.name, label), t(A))
            st = np.maximum(st, _eq_status(va, da, vb, db))
        return st

    def slack(self, ev, A):
        va, da = ev(A)
        s = np.full(len(A), np.inf)
        for _, t in self.transforms(A.shape[-1]):
            vb, db = ev(t(A))
            both = da & db
            s = np.minimum(s, np.where(both, -np.abs(np.where(both, va - vb, 0.0)),
                                       np.where(da != db, -1.0, np.inf)))
        s[~self.bases(A)] = np.inf
        return s, np.zeros(len(A), dtype=bool)

    def check(self, ctx, m):
        for label, t in self.transforms(m.shape[0]):
            w = ctx.same(m, t(m[None])[0])
            if w:
                return f"{label}: {w}" if label else w
        return None


class _Insertion(_Equality):
    """An equality under an empty class inserted at :meth:`positions`."""

    def positions(self, K):
        """Where the empty class goes (``K`` classes before)."""
        raise NotImplementedError

    def transforms(self, K):
        return [(f"empty class inserted at position {p}", _insert(p)) for p in self.positions(K)]

    def prove_pattern(self, ev, m, spec):
        for p in self.positions(m.shape[0]):
            w = same_value(ev, m, insert_empty_class(m, p), f"empty class at {p}")
            if w:
                return w
        return None


def _insert(p):
    def t(A):
        return np.insert(np.insert(A, p, 0, axis=-1), p, 0, axis=-2)
    return t


class Symmetry(_Equality):
    """``f(A^T) = f(A)`` (both undefined counts as equal)."""

    name, title, source = "symmetry", "f(A^T) = f(A)", "cardoso2011 §3.3 (for OC)"
    proof_statement = "f(A^T) = f(A)"

    def transforms(self, K):
        return [("", lambda A: np.ascontiguousarray(np.swapaxes(A, -1, -2)))]

    def prove_pattern(self, ev, m, spec):
        return same_value(ev, m, np.ascontiguousarray(m.T), "f(A^T) = f(A)")


class Scale(_Equality):
    """``f(2A) = f(A)`` (scale invariance, checked at the factor 2; the proof
    takes every positive integer factor)."""

    name, title, source = "scale", "f(2A) = f(A)", "scale invariance"
    proof_statement = "f(kA) = f(A) for every positive integer k (k a symbol)"

    def transforms(self, K):
        return [("", lambda A: 2 * A)]

    def prove_pattern(self, ev, m, spec):
        return same_value(ev, m, m * SCALE, "f(kA) = f(A) for every positive integer k")


class OrdinalInvariance(_Insertion):
    """Amigó et al. 2020 (ACL), §3 "Ordinal Invariance": ``Eff(s, g) =
    Eff(f(s), f(g))`` for a strictly increasing relabelling ``f`` of the
    classes.  A matrix metric sees the classes as positions ``0..K-1``; a
    strictly increasing map into a longer scale leaves gaps, i.e. inserts
    empty classes (a zero row and column).  Formalised as: inserting one
    empty class strictly between two classes (positions ``1..K-1``) leaves
    ``f`` unchanged."""

    name, title, source = ("ordinal_invariance", "an empty class inserted between classes changes nothing",
                           "Amigó et al. 2020 §3")
    proof_statement = "f is unchanged by an empty class inserted at positions 1..K-1"
    grows, amigo = True, True

    def positions(self, K):
        return range(1, K)

    def vacuous(self, scope):
        return "true" if scope.K < 2 else None  # no interior position


class EmptyClass(_Insertion):
    """Appending an empty class at either end of the scale (position ``0`` or
    ``K``) leaves ``f`` unchanged."""

    name, title, source = "empty_class", "an empty class appended at an end changes nothing", "invariance"
    proof_statement = "f is unchanged by an empty class at position 0 and at position K"
    grows = True

    def positions(self, K):
        return (0, K)


def _moves(K):
    """(i, j, target column): one sample of cell (i, j) one step toward column i."""
    return [(i, j, j - 1 if j > i else j + 1) for i in range(K) for j in range(K) if i != j]


class Monotonicity(Property):
    """Moving one sample one class toward the diagonal (its prediction one step
    closer to its true class) never makes the loss larger (both values defined)."""

    name, title, source = "monotonicity", "a sample moved toward the diagonal never worsens", "ordinal error"
    proof_statement = ("moving one sample of a cell one step toward the diagonal: the change of "
                       "the loss is certified <= 0 (the cell's count 1 and n + 1 separately)")
    strict, per_sample = False, True

    def vacuous(self, scope):
        return "true" if scope.K < 2 else None  # no move

    def prove_pattern(self, ev, m, spec):
        for (i, j), a, s in split_moves(m):
            va, vs = ev(a), ev(s)
            if isinstance(va, Undefined) or isinstance(vs, Undefined):
                continue
            d = spec["orient"] * (vs - va)  # the change of the loss
            need = "< 0" if self.strict else "<= 0"
            why = certify(d, need)
            if why:
                # a region of the family where the move worsens, and a matrix of it (item 2)
                what = f"moving a sample of cell ({i}, {j}) of {matrix_text(a)}: the change of the loss"
                return refute_family(d, need, a, symbols_of(a), what) or f"{what} {why}"
        return None

    def cases(self, ev, A):
        """``(idx, after, before, ok)`` per one-step move: the bases ``idx`` that
        have the moved cell, the values after and before the move (the
        relation: ``loss(after) <= loss(before)``), and where both are defined."""
        va, da = ev(A)
        for i, j, t in _moves(A.shape[-1]):
            idx = np.flatnonzero(A[:, i, j] > 0)
            if not len(idx):
                continue
            M = A[idx].copy()
            M[:, i, j] -= 1
            M[:, i, t] += 1
            vm, dm = _derived(ev, ("move", i, j), M)
            yield idx, vm, va[idx], da[idx] & dm

    def screen(self, ev, A):
        return _case_screen(self.cases(ev, A), ev, len(A), self.strict)

    def slack(self, ev, A):
        return _case_slack(self.cases(ev, A), ev, A, self.bases(A), self.strict)

    def check(self, ctx, m):
        v = ctx.value(m)
        if isinstance(v, Undefined):
            return None
        K = m.shape[0]
        for i, j, _ in _moves(K):
            if not m[i, j]:
                continue
            s = step_toward_diagonal(m, i, j)
            w = ctx.value(s)
            if isinstance(w, Undefined):
                continue
            c = ctx.loss_cmp(w, v)
            if c > 0 or (self.strict and c == 0):
                verb = "worse" if c > 0 else "no better"
                return (f"moving a sample of true class {i} from predicted {j} one step toward "
                        f"{i} is {verb}: {ctx.describe(m)}, {ctx.describe(s)}")
        return None


class OrdinalMonotonicity(Monotonicity):
    """Amigó et al. 2020 (ACL), §3 "Ordinal Monotonicity": if every changed
    prediction moves closer to its true class without crossing it, the score
    is strictly better.  Any such change is a sequence of one-step moves, so:
    every one-step move toward the diagonal strictly lowers the loss (both
    values defined)."""

    name, title, source = ("ordinal_monotonicity", "a prediction moved closer strictly improves",
                           "Amigó et al. 2020 §3")
    proof_statement = "as monotonicity, the change certified < 0"
    strict, amigo = True, True


class Imbalance(Property):
    """Amigó et al. 2020 (ACL), §3 "Class Imbalance": ``Eff(g_{d1->c2}, g) >
    Eff(g_{d3->c2}, g)`` when ``n_{c1} > n_{c3}``: from a perfect output ``g``
    (a diagonal matrix), misclassifying one item of the more frequent class
    ``c1`` into ``c2`` is strictly better than one item of the rarer ``c3``
    into ``c2``.  Formalised with ``c2`` strictly between ``c1`` and ``c3`` at
    equal distance (the paper does not say how ``c2`` is placed; equal
    distance keeps the ordinal distance out of the comparison), on diagonal
    matrices with ``K >= 3``; a tie is a violation."""

    name, title, source = ("imbalance", "an error in a more frequent class costs strictly less",
                           "Amigó et al. 2020 §3")
    region, amigo, family = "diagonal", True, True
    proof_statement = ("on every diagonal support pattern and triple c1, c2, c3: with n_c1 = n_c3 + t "
                       "and n_c3 = 1 or s + 1 (t, s and the other counts positive integer symbols), "
                       "the loss after one sample c1 -> c2 minus the loss after one c3 -> c2 is "
                       "certified < 0 (a symbolic family per pattern)")
    #: the largest K of the family proof (:meth:`proof_scopes`): the diagonal patterns
    #: are few (``2^K - 1``), so the proof goes beyond the prover's every-pattern scopes
    FAMILY_K = 5

    def proof_scopes(self, scopes):
        scopes = tuple(scopes)
        if not scopes:
            return scopes
        scope = type(scopes[0])  # the prover's Scope (the prover imports this module)
        have = {(s.K, s.kind) for s in scopes}
        return scopes + tuple(scope(k, "every") for k in range(1, self.FAMILY_K + 1)
                              if (k, "every") not in have)

    def vacuous(self, scope):
        # no all-positive matrix is diagonal, and with K < 3 no class lies strictly between
        # two others: the property says nothing there (not "holds", which would read as proved)
        return "irrelevant" if scope.kind == "positive" or scope.K < 3 else None

    def patterns(self, scope):
        """The diagonal patterns (with every diagonal cell, for the populated twin): the
        relation says nothing about another matrix."""
        cells = [(k, k) for k in range(scope.K)]
        if self.populated:
            return [tuple(cells)]
        return [tuple(c for c, keep in zip(cells, mask, strict=True) if keep)
                for mask in itertools.product((False, True), repeat=scope.K) if any(mask)]

    def prove_pattern(self, ev, m, spec):
        K = m.shape[0]
        if K < 3 or not _is_diagonal(m):
            return None
        n = [m[k, k] for k in range(K)]
        for c1, c2, c3 in self.triples(K):
            if n[c1] == 0 or n[c3] == 0:  # the relation needs n_c1 > n_c3 >= 1
                continue
            for b in _imbalance_family(m, c1, c3):
                a1, a3 = _one_error_each(b, c1, c2, c3)
                v1, v3 = ev(a1), ev(a3)
                if isinstance(v1, Undefined) or isinstance(v3, Undefined):
                    continue
                d = spec["orient"] * (v1 - v3)
                why = certify(d, "< 0")
                if why:
                    # a region of the family where it fails, and a matrix of it (issue 41 item 2)
                    what = f"class {c1} -> {c2} against class {c3} -> {c2} on {matrix_text(b)}:"
                    return refute_family(d, "< 0", b, symbols_of(b), what) or f"{what} {why}"
        return None

    @staticmethod
    def triples(K):
        out = []
        for c2 in range(1, K - 1):
            for dist in range(1, min(c2, K - 1 - c2) + 1):
                out += [(c2 - dist, c2, c2 + dist), (c2 + dist, c2, c2 - dist)]
        return out

    def bases(self, A):
        n = np.diagonal(A, axis1=-2, axis2=-1)
        keep = np.ones(len(A), dtype=bool) if not self.populated else (n > 0).all(axis=-1)
        return keep & (A.shape[-1] >= 3)

    per_sample = True

    def cases(self, ev, A):
        """``(idx, v1, v3, ok)`` per triple ``(c1, c2, c3)``: the bases with
        ``n_c1 > n_c3 >= 1``, the values with a sample of ``c1`` and of ``c3``
        moved to ``c2`` (the relation: ``loss(v1) < loss(v3)``), and where both
        are defined."""
        n = np.diagonal(A, axis1=-2, axis2=-1)
        parts = []
        for c1, c2, c3 in self.triples(A.shape[-1]):
            idx = np.flatnonzero((n[:, c1] > n[:, c3]) & (n[:, c3] >= 1))
            if not len(idx):
                continue
            parts.append((idx, *_one_error_each(A[idx], c1, c2, c3)))
        if not parts:
            return
        # every derived matrix in one stack: one evaluation (the evaluator splits it by N)
        v, d = ev(np.concatenate([a for _, a1, a3 in parts for a in (a1, a3)]))
        at = 0
        for idx, _, _ in parts:
            k = len(idx)
            yield idx, v[at:at + k], v[at + k:at + 2 * k], d[at:at + k] & d[at + k:at + 2 * k]
            at += 2 * k

    def screen(self, ev, A):
        return _case_screen(self.cases(ev, A), ev, len(A), True)

    def slack(self, ev, A):
        return _case_slack(self.cases(ev, A), ev, A, self.bases(A), True)

    def check(self, ctx, m):
        K = m.shape[0]
        if K < 3 or not _is_diagonal(m):
            return None
        n = np.diag(m)
        for c1, c2, c3 in self.triples(K):
            if not n[c1] > n[c3] >= 1:
                continue
            a1, a3 = _one_error_each(m, c1, c2, c3)
            v1, v3 = ctx.value(a1), ctx.value(a3)
            if isinstance(v1, Undefined) or isinstance(v3, Undefined):
                continue
            if ctx.loss_cmp(v1, v3) >= 0:
                return (f"class {c1} ({n[c1]} samples) -> {c2} is not better than class "
                        f"{c3} ({n[c3]} samples) -> {c2}: {ctx.describe(a1)}, "
                        f"{ctx.describe(a3)}")
        return None


def _one_error_each(A, c1, c2, c3):
    """The two matrices imbalance compares, from a diagonal matrix (or a stack of them):
    one sample of class ``c1`` predicted ``c2``, and one sample of ``c3`` predicted ``c2``."""
    a1, a3 = A.copy(), A.copy()
    a1[..., c1, c1] -= 1
    a1[..., c1, c2] += 1
    a3[..., c3, c3] -= 1
    a3[..., c3, c2] += 1
    return a1, a3


def _imbalance_family(m, c1, c3):
    """The two sub-families of a diagonal pattern where ``n_c1 > n_c3 >= 1``: ``n_c3 = 1``
    or ``s + 1``, and ``n_c1 = n_c3 + t`` (``s``, ``t`` positive integer symbols), so that
    every count after a move is a sum of positive symbols or 0 (the support stays decided)."""
    s, t = (sp.Symbol(x, integer=True, positive=True) for x in ("s", "t"))
    out = []
    for low in (sp.Integer(1), s + 1):
        b = m.copy()
        b[c3, c3], b[c1, c1] = low, low + t
        out.append(b)
    return out


class UnobservedClass(Property):
    """``f`` is defined on every matrix with an empty row (a class with no true sample)."""

    name, title, source = "unobserved_class", "defined with an empty row (unobserved true class)", "behaviour"
    proof_statement = "f(A) is defined (and a real number) on every pattern with an empty row"

    def vacuous(self, scope):
        return "irrelevant" if scope.kind == "positive" else None  # no empty row

    def prove_pattern(self, ev, m, spec):
        if not any(all(x == 0 for x in row) for row in m):
            return None
        v = ev(m)
        if isinstance(v, Undefined):
            return f"f({matrix_text(m)}) is undefined: {v.message}"
        return None

    def bases(self, A):
        return (A.sum(axis=-1) == 0).any(axis=-1)

    def screen(self, ev, A):
        v, d = ev(A)
        return np.where(~d, CANDIDATE, CLEAR).astype(np.int8)

    def check(self, ctx, m):
        if not np.any(m.sum(axis=1) == 0):
            return None
        v = ctx.value(m)
        if isinstance(v, Undefined):
            return f"f({matrix_text(m)}) raises: {v.message}"
        return None


class Triangle(Property):
    """For label vectors ``a, b, c`` of length ``n`` over ``K`` classes, with
    ``d(a, b) = f(cm(a, b))`` (``a`` the true labels, ``b`` the predicted):
    ``d(a, c) <= d(a, b) + d(b, c)``.  Only for lower-is-better metrics whose
    lower bound is 0 (distance-like); triples with ``b = a`` or ``b = c``
    reduce to ``d >= 0`` (the range property) and are not searched."""

    name, title, source = ("triangle", "d(a,c) <= d(a,b) + d(b,c) on label vectors",
                           "metric axioms")
    region = "triples"

    def not_applicable(self, ctx):
        lo = ctx.bounds[0]
        if ctx.better != "lower" or lo is None or compare(lo, value_of(0)) != 0:
            return "not distance-like (needs lower is better and lower bound 0)"
        return None

    def check(self, ctx, m):
        a, b, c, K = m
        dab, dbc, dac = _distance(ctx, a, b, K), _distance(ctx, b, c, K), _distance(ctx, a, c, K)
        if any(isinstance(x, Undefined) for x in (dab, dbc, dac)):
            return None
        if exceeds_sum(dac, dab, dbc):
            return f"d(a,c) = {dac} > d(a,b) + d(b,c) = {dab} + {dbc}"
        return None


def _distance(ctx, x, y, K):
    """``f(cm(x, y))`` (``x`` the true labels), cached on the context."""
    pairs = ctx.__dict__.setdefault("_pairs", {})
    key = (tuple(x), tuple(y), K)
    if key not in pairs:
        cm = np.zeros((K, K), dtype=np.int64)
        np.add.at(cm, (np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)), 1)
        pairs[key] = ctx.value(cm)
    return pairs[key]


class _Populated:
    """The twin of an Amigó et al. property on their setting: every true class populated."""

    populated = True

    def __init__(self):
        self.name = self.name + "_populated"
        self.title = self.title + " (every true class populated)"


class OrdinalMonotonicityPopulated(_Populated, OrdinalMonotonicity):
    """As ``ordinal_monotonicity``, on matrices without an empty row (Amigó et
    al. 2020's setting: every class of the gold standard is populated).  No proof of
    its own: it takes ``ordinal_monotonicity``'s (:func:`analytic.properties.audit.result_of`)."""

    proof_statement = None


class OrdinalInvariancePopulated(_Populated, OrdinalInvariance):
    """As ``ordinal_invariance``, on matrices without an empty row (Amigó et
    al. 2020's setting: every class of the gold standard is populated).  No proof of
    its own: it takes ``ordinal_invariance``'s (:func:`analytic.properties.audit.result_of`)."""

    proof_statement = None


class ImbalancePopulated(_Populated, Imbalance):
    """As ``imbalance``, on diagonal matrices whose diagonal counts are all
    positive (Amigó et al. 2020's setting: every class of the gold standard
    is populated)."""


#: every property, by name, in the order of the property table
PROPERTIES = {p.name: p for p in [
    Range(), Identity(), Symmetry(), Triangle(), Monotonicity(), OrdinalMonotonicity(),
    OrdinalMonotonicityPopulated(), OrdinalInvariance(), OrdinalInvariancePopulated(),
    Imbalance(), ImbalancePopulated(), Scale(), EmptyClass(), UnobservedClass(),
]}
