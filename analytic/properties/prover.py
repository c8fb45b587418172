r"""Symbolic proofs of the auditor's properties, on generic matrices of symbols.

:mod:`analytic.properties.audit` decides a property by searching for a counterexample;
"no counterexample" is not a proof.  This module proves a property where a
symbolic derivation is possible, on a stated *scope* of matrices, by
evaluating the metric's own formula (:mod:`numeric` with
:class:`numeric._symbolic.SymbolicArithmetic`) on matrices whose counts are
SymPy symbols.

Scope: support patterns
-----------------------
The formulas of :mod:`numeric` take structural decisions (which true classes
are observed, which classes are predicted) from the *support* of the matrix
(which cells are nonzero; :mod:`numeric._common`, "Symbolic counts").  A
*support pattern* ``S`` of a ``K x K`` matrix is a nonempty set of cells; its
*generic matrix* holds a positive integer symbol ``n_ij`` on every cell of
``S`` and 0 elsewhere.  Every count matrix is an instance of exactly one
pattern, so a property proved on the generic matrix of every pattern with
``K`` classes holds on **every** ``K x K`` matrix.  A :class:`Scope` is a
number of classes with either every pattern (``every``: ``2^(K^2) - 1``
patterns) or the one pattern of all ``K^2`` cells (``positive``: every
matrix whose cells are all positive).  :data:`DEFAULT_SCOPES` are every
matrix with ``K <= 3`` and the all-positive matrices with ``K = 4``.

What a proof on one pattern is
------------------------------
``E(S)`` is the metric's value on the generic matrix, a SymPy expression in
the symbols.  The proof of a pattern then rests on

1. *the symbolic-count contract* of :mod:`numeric`: every decision is taken
   from the support, so ``E(S)`` is the value of every instance of ``S``
   where it is defined, and :class:`~exactfloor.errors.UndefinedMetric` (or a NaN
   or None returned) on the generic matrix means "undefined on every instance"
   (any other exception refuses the pattern: no symbolic form);
2. *definedness* (:func:`defined`): every denominator, even root and
   logarithm of ``E(S)`` is certified nonzero / non-negative / positive for
   every positive integer value of the symbols (so ``E(S)`` is a number on
   every instance);
3. the property's identity or inequality in the symbols: an identity
   ``E_1 - E_2 = 0`` (:func:`equal`: congruence of equal arguments, then
   the difference with ``Max``, ``Min``, ``Abs``, logarithms and roots
   frozen into new symbols, put over one denominator as sparse polynomials
   and reduced modulo the roots' relations; SymPy's ``simplify`` is not
   tried), or a sign (:func:`sign`: structural rules and, for a rational
   function, the certificate below).

The contract is checked, not assumed blindly: each generic matrix is also
evaluated at three instances (every symbol 1, every symbol 2, and seeded
random values in 1..6) in exact arithmetic, and the pattern is refused when
the instance's value differs from ``E(S)`` there, or when one of the two is
undefined and the other not (e.g. :func:`numeric.r_int` tests ``N < 2`` on
the support, so ``[[n]]`` raises symbolically although ``[[2]]`` is defined).

Positivity certificate
----------------------
The sign certificates, zero tests and definedness checks are those of
:mod:`exactfloor.certificates` (re-exported here: :func:`sign`,
:func:`defined`, :func:`equal`, :func:`is_zero`).  A property is never
"proved" on a pattern whose certificate fails: the prover is sound (up to
the contract, which the instance checks guard) but incomplete.

Examples
--------
>>> import numeric
>>> from numeric._symbolic import SymbolicArithmetic
>>> f = lambda cm: numeric.mae(cm, arithmetic=SymbolicArithmetic())
>>> p = prove(f, "scale", scopes=[Scope(2, "every")])
>>> p.proved, p.scope_text()
(True, 'every matrix with K = 2')
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import sympy as sp

from exactfloor.certificates import MAX_TERMS, defined, equal, is_zero, sign  # noqa: F401 (re-exported)
from exactfloor.errors import UndefinedMetric
from exactfloor.parsing import parse_number
from exactfloor.tolerance import sympy_tolerance
from exactfloor.value import signals_undefined

from .catalog import PROPERTIES
from .generators import matrix_text
from .proofkit import SCALE, Refutation, Undefined, instance, short, symbols_of  # noqa: F401 (SCALE: the scale proof's factor)

__all__ = ["Scope", "scopes", "EVERY_K", "POSITIVE_K", "DEFAULT_SCOPES", "Proof", "Evaluator", "prove",
           "prove_with", "PROVABLE", "STATEMENTS",
           "equal", "is_zero", "sign", "defined", "support_patterns", "generic_matrix"]


# ---------------------------------------------------------------------------
# scopes and generic matrices
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Scope:
    """A set of matrices a proof covers: ``K`` classes, and which supports.

    Parameters
    ----------
    K : int
        The number of classes.
    kind : {"every", "positive"}
        ``"every"``: every support pattern (every ``K x K`` matrix);
        ``"positive"``: the full pattern (every matrix whose ``K^2`` cells
        are all positive).

    Examples
    --------
    >>> Scope(2, "every").text(), Scope(3, "positive").short()
    ('every matrix with K = 2', '3 x 3 with every cell positive')
    """

    K: int
    kind: str

    def __post_init__(self):
        if self.kind not in ("every", "positive"):
            raise ValueError(f"kind must be 'every' or 'positive', got {self.kind!r}")
        if self.K < 1:
            raise ValueError(f"K must be at least 1, got {self.K}")

    def patterns(self):
        """The support patterns of the scope (tuples of cells)."""
        if self.kind == "positive":
            return [tuple(itertools.product(range(self.K), repeat=2))]
        return list(support_patterns(self.K))

    def covers(self, m) -> bool:
        """Whether the count matrix ``m`` is in the scope."""
        m = np.asarray(m)
        if m.shape != (self.K, self.K):
            return False
        return self.kind == "every" or bool(np.all(m > 0))

    def text(self) -> str:
        if self.kind == "every":
            return f"every matrix with K = {self.K}"
        return f"every matrix with K = {self.K} and all cells positive"

    def short(self) -> str:
        """``K = 2`` (every matrix) or ``3 x 3 with every cell positive``: words that
        cannot be read as "every K >= 3"."""
        return (f"K = {self.K}" if self.kind == "every" else
                f"{self.K} x {self.K} with every cell positive")


#: the default proof scopes (:func:`scopes`, the CLI's ``--every-k``/``--positive-k``)
EVERY_K, POSITIVE_K = 3, 4


def scopes(every_k: int = EVERY_K, positive_k: int = POSITIVE_K) -> tuple:
    """Every matrix with ``K <= every_k``, and the all-positive matrices with
    ``every_k < K <= positive_k``.

    Parameters
    ----------
    every_k : int, default :data:`EVERY_K`
        The largest ``K`` of every matrix.
    positive_k : int, default :data:`POSITIVE_K`
        The largest ``K`` of the all-positive matrices.

    Returns
    -------
    tuple of Scope
        In increasing ``K``.

    Examples
    --------
    >>> [s.short() for s in scopes(2, 3)]
    ['K = 1', 'K = 2', '3 x 3 with every cell positive']
    """
    if every_k < 0 or positive_k < 0:
        raise ValueError("every_k and positive_k must be non-negative")
    return tuple([Scope(k, "every") for k in range(1, every_k + 1)]
                 + [Scope(k, "positive") for k in range(every_k + 1, positive_k + 1)])


#: the scopes of the property table: every matrix with K <= 3 (511 support patterns at K = 3),
#: and the all-positive matrices with K = 4
DEFAULT_SCOPES = scopes()


def support_patterns(K: int):
    """Every nonempty set of cells of a ``K x K`` matrix, smallest first.

    Parameters
    ----------
    K : int
        The number of classes.

    Yields
    ------
    tuple of tuple
        The cells ``(i, j)`` of one pattern.

    Examples
    --------
    >>> len(list(support_patterns(2))), next(iter(support_patterns(2)))
    (15, ((0, 0),))
    """
    cells = list(itertools.product(range(K), repeat=2))
    for r in range(1, len(cells) + 1):
        yield from itertools.combinations(cells, r)


def _symbol(i, j):
    return sp.Symbol(f"n{i}{j}", integer=True, positive=True)


def generic_matrix(K: int, pattern) -> np.ndarray:
    """The ``K x K`` object array with the symbol ``n_ij`` on each cell of ``pattern``.

    Parameters
    ----------
    K : int
        The number of classes.
    pattern : iterable of tuple
        The nonzero cells ``(i, j)``.

    Returns
    -------
    numpy.ndarray
        Object array: a positive integer symbol on each cell of the pattern, 0 elsewhere.

    Examples
    --------
    >>> generic_matrix(2, [(0, 0), (1, 0)]).tolist()
    [[n00, 0], [n10, 0]]
    """
    a = np.full((K, K), sp.Integer(0), dtype=object)
    for i, j in pattern:
        a[i, j] = _symbol(i, j)
    return a


# ---------------------------------------------------------------------------
# symbolic evaluation of a metric with contract checks
# ---------------------------------------------------------------------------
class _Refused(Exception):
    """A pattern the prover cannot handle (the message says why; ``kind`` is
    ``"no symbolic form"`` or ``"contract"``, see :class:`Proof`)."""

    def __init__(self, message, kind):
        super().__init__(message)
        self.kind = kind


class Evaluator:
    """The metric on symbolic matrices, cached, each checked at three instances.

    Parameters
    ----------
    symbolic : callable
        The metric on an object array of SymPy counts.
    exact : callable
        The metric on an ``int64`` matrix: its exact value as a SymPy
        number, or None where it is undefined.

    Examples
    --------
    >>> import numeric
    >>> from numeric._symbolic import SymbolicArithmetic
    >>> ev = Evaluator(lambda m: numeric.mae(m, arithmetic=SymbolicArithmetic()),
    ...                lambda m: numeric.mae(m, arithmetic="exact"))
    >>> prove_with(ev, "scale", scopes=scopes(2, 0)).scope_text()
    'every matrix with K = 1; every matrix with K = 2'
    """

    def __init__(self, symbolic, exact):
        self.symbolic, self.exact = symbolic, exact
        self.cache = {}

    def __call__(self, m):
        key = (m.shape[0], tuple(m.reshape(-1).tolist()))
        if key not in self.cache:
            self.cache[key] = self._evaluate(m)
        v = self.cache[key]
        if isinstance(v, _Refused):
            raise v
        return v

    def _evaluate(self, m):
        # only UndefinedMetric (or a NaN or None returned) says "undefined here" (issue 37):
        # any other exception, a ValueError included, is a formula that cannot take symbols
        try:
            raw = self.symbolic(m.copy())
            v = Undefined("the formula returned NaN or None") if signals_undefined(raw) else \
                sp.sympify(raw, strict=True)  # a string: refused, never parsed
        except UndefinedMetric as exc:
            v = Undefined(str(exc))
        except Exception as exc:  # noqa: BLE001 -- a formula that cannot take symbols
            return _Refused(f"the symbolic evaluation of {matrix_text(m)} fails: "
                            f"{type(exc).__name__}: {short(str(exc), 100)}", NO_FORM)
        if not isinstance(v, Undefined):
            w = defined(v)
            if w is not None:
                return _Refused(f"f({matrix_text(m)}) = {short(v)} is not certified defined "
                                f"at every instance ({short(w, 60)})", NOT_DERIVED)
        bad = self._instances(m, v)
        if bad:
            return _Refused(bad, CONTRACT)
        return v

    def _instances(self, m, v):
        """Compare with exact evaluation at three instances; the mismatch, if any."""
        syms = symbols_of(m)
        rng = np.random.default_rng(len(syms) + 7 * m.shape[0])
        points = [{x: sp.Integer(1) for x in syms}, {x: sp.Integer(2) for x in syms},
                  {x: sp.Integer(int(r)) for x, r in zip(syms, rng.integers(1, 7, len(syms)), strict=True)}]
        for point in points:
            inst = instance(m, point)
            concrete = self.exact(inst)
            if isinstance(v, Undefined) != (concrete is None):
                if isinstance(v, Undefined):
                    return (f"the symbolic evaluation of {matrix_text(m)} is undefined "
                            f"({short(v.message, 80)}) but the exact one at {matrix_text(inst)} is "
                            "defined: not undefined on the whole support pattern")
                return (f"f({matrix_text(m)}) = {short(v)} but the exact evaluation at {matrix_text(inst)} "
                        "is undefined")
            if concrete is not None and not _agree(v.xreplace(point), concrete):
                return (f"f({matrix_text(m)}) = {short(v)} gives {v.xreplace(point)} at {matrix_text(inst)}, "
                        f"the exact evaluation {concrete}")
        return None


def _agree(a, b) -> bool:
    """Two numbers are equal: exactly when both are rational, else to 50 digits
    (an instance check, not a step of the proof)."""
    a, b = sp.sympify(a, strict=True), sp.sympify(b, strict=True)
    if a.is_Rational and b.is_Rational:
        return a == b
    na, nb = sp.N(a, 60), sp.N(b, 60)
    if not (na.is_Float or na.is_Integer) or not (nb.is_Float or nb.is_Integer):
        return False
    return bool(abs(na - nb) <= sympy_tolerance(60, 10) * max(1, abs(nb)))


#: the properties the prover handles: those whose class has a proof
#: (:meth:`analytic.properties.catalog.Property.prove_pattern`; ``triangle`` is on label
#: vectors and ``imbalance`` on a different family: search only; a ``*_populated`` twin
#: takes its property's proof, :func:`analytic.properties.audit.result_of`)
PROVABLE = tuple(name for name, p in PROPERTIES.items() if p.proof_statement is not None)

#: what a proof of each property establishes on each matrix ``A`` of its scope (the
#: class attribute :attr:`~analytic.properties.catalog.Property.proof_statement`)
STATEMENTS = {name: PROPERTIES[name].proof_statement for name in PROVABLE}


#: kinds of refusal (:attr:`Proof.refused`)
NO_FORM, CONTRACT, NOT_DERIVED, REFUTED = "no symbolic form", "contract", "not derived", "refuted"


# ---------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Proof:
    """What :func:`prove` established for one property.

    Parameters
    ----------
    property : str
        The property's name.
    scopes : tuple of Scope
        The scopes on which the property is proved (every pattern of each;
        with one class, the ordinal properties hold vacuously).
    refused : tuple of (Scope, str, str)
        The scopes not proved: the first pattern's reason, and its kind:
        ``"no symbolic form"`` (the formula does not evaluate on symbols),
        ``"contract"`` (the symbolic value disagrees with the exact one at an
        instance) or ``"not derived"`` (the identity or sign was not
        established).
    seconds : float
        Wall time of the proof attempt.
    patterns : int
        How many support patterns were decided.
    refutation : analytic.properties.proofkit.Refutation or None
        A region of a pattern's symbolic family where the relation fails, with one
        matrix of it (not yet confirmed: the auditor confirms it in exact arithmetic);
        its scope is refused with the kind ``"refuted"``.

    Examples
    --------
    >>> import numeric
    >>> from numeric._symbolic import SymbolicArithmetic
    >>> p = prove(lambda m: numeric.mae(m, arithmetic=SymbolicArithmetic()), "symmetry",
    ...           scopes=scopes(2, 0))
    >>> p.proved, p.short(), p.patterns, p.refused
    (True, 'K <= 2', 16, ())
    """

    property: str
    scopes: tuple = ()
    refused: tuple = ()
    seconds: float = 0.0
    patterns: int = field(default=0)
    refutation: object = None

    @property
    def proved(self) -> bool:
        """True when a scope with at least two classes is proved (one class
        alone is too trivial to call the property proved)."""
        return any(s.K >= 2 for s in self.scopes)

    def covers(self, m) -> bool:
        """Whether the count matrix ``m`` is in a proved scope."""
        return any(s.covers(m) for s in self.scopes)

    def scope_text(self) -> str:
        """The proved scopes in words (``"every matrix with K = 2; ..."``)."""
        return "; ".join(s.text() for s in self.scopes)

    def short(self) -> str:
        """The proved scopes in the table's words: ``K <= 2; 3 x 3 with every cell
        positive`` (never a bare ``K=3+``, which reads as "every K >= 3")."""
        every = sorted(s.K for s in self.scopes if s.kind == "every")
        parts = []
        if every and every == list(range(min(every), max(every) + 1)) and len(every) > 1:
            parts.append(f"K <= {max(every)}" if min(every) == 1 else f"{min(every)} <= K <= {max(every)}")
        else:
            parts += [f"K = {k}" for k in every]
        parts += [s.short() for s in sorted(self.scopes, key=lambda s: s.K)
                  if s.kind == "positive"]
        return "; ".join(parts)


def prove(symbolic: Callable, prop: str, *, better: str = "lower", bounds=(None, None),
          scopes=DEFAULT_SCOPES, exact: Callable | None = None) -> Proof:
    """Try to prove a property symbolically on each scope.

    Parameters
    ----------
    symbolic : callable
        The metric on a ``K x K`` object array of SymPy counts (e.g. a
        :mod:`numeric` function with ``arithmetic=SymbolicArithmetic()``),
        returning a SymPy expression, or raising
        :class:`~exactfloor.errors.UndefinedMetric` (or returning NaN or None) where it
        is undefined.  Its results must follow numeric's symbolic-count contract
        (the instance checks refuse a pattern where they do not).
    prop : str
        A name of :data:`PROVABLE`.
    better : {"lower", "higher"}
    bounds : (lo, hi)
        Stated range (``None`` for an unbounded side); ``range`` and
        ``identity`` use them.
    scopes : sequence of Scope
    exact : callable, optional
        ``exact(int64 matrix)`` -> the exact value, or ``None`` where the
        metric is undefined: the reference of the instance checks
        (default: ``symbolic`` itself on the numbers, which checks the
        expression but not the contract: pass the metric in exact arithmetic).

    Returns
    -------
    Proof
        Vacuous scopes (e.g. ``unobserved_class`` on all-positive matrices)
        are neither proved nor refused.

    Examples
    --------
    >>> import numeric
    >>> from numeric._symbolic import SymbolicArithmetic
    >>> f = lambda cm: numeric.mae(cm, arithmetic=SymbolicArithmetic())
    >>> prove(f, "scale", scopes=[Scope(2, "every")]).proved
    True
    """
    return prove_with(Evaluator(symbolic, exact or _exact_of(symbolic)), prop, better=better,
                      bounds=bounds, scopes=scopes)


def prove_with(evaluator: Evaluator, prop: str, *, better: str = "lower", bounds=(None, None),
               scopes=DEFAULT_SCOPES) -> Proof:
    """:func:`prove` with an :class:`Evaluator` (its cache shared between properties).

    Parameters
    ----------
    evaluator : Evaluator
        The metric on symbolic matrices, and its exact reference.
    prop : str
        A name of :data:`PROVABLE`.
    better : {"lower", "higher"}, default "lower"
        Which values of the metric are better.
    bounds : (lo, hi)
        Stated range (``None`` for an unbounded side).
    scopes : sequence of Scope, default :data:`DEFAULT_SCOPES`
        Where to prove it.

    Returns
    -------
    Proof
        The scopes proved and refused.

    Raises
    ------
    ValueError
        If ``prop`` has no symbolic prover.

    Examples
    --------
    >>> import numeric
    >>> from numeric._symbolic import SymbolicArithmetic
    >>> ev = Evaluator(lambda m: numeric.mae(m, arithmetic=SymbolicArithmetic()),
    ...                lambda m: numeric.mae(m, arithmetic="exact"))
    >>> prove_with(ev, "symmetry", scopes=scopes(2, 0)).proved
    True
    """
    if prop not in PROVABLE:
        raise ValueError(f"no symbolic prover for {prop!r}; provable: {list(PROVABLE)}")
    return _prove(evaluator, prop, better, bounds, scopes)


def _exact_of(symbolic):
    def exact(m):
        try:
            raw = symbolic(m)
        except UndefinedMetric:
            return None
        return None if signals_undefined(raw) else sp.sympify(raw, strict=True)
    return exact


def _prove(ev, prop, better, bounds, scopes):
    t0 = time.perf_counter()
    lo, hi = (None if b is None else parse_number(b, what='bound', symbols=False)
              for b in bounds)
    spec = {"bounds": (lo, hi), "orient": 1 if better == "lower" else -1,
            "best": lo if better == "lower" else hi}
    if prop == "range" and lo is None and hi is None:
        return Proof(prop, seconds=time.perf_counter() - t0)
    if prop == "identity" and spec["best"] is None:
        return Proof(prop, seconds=time.perf_counter() - t0)
    check = PROPERTIES[prop].prove_pattern
    done, refused, count, refutation = [], [], 0, None
    for scope in PROPERTIES[prop].proof_scopes(scopes):
        vacuous = PROPERTIES[prop].vacuous(scope)
        if vacuous:
            if vacuous == "true":
                done.append(scope)
            continue
        why, kind = None, NOT_DERIVED
        for pattern in PROPERTIES[prop].patterns(scope):
            count += 1
            m = generic_matrix(scope.K, pattern)
            try:
                why = check(ev, m, spec)
            except _Refused as exc:
                why, kind = str(exc), exc.kind
            if isinstance(why, Refutation):
                refutation = refutation or why
                why, kind = str(why), REFUTED
            if why:
                break
        if why:
            refused.append((scope, why, kind))
        else:
            done.append(scope)
    return Proof(prop, tuple(done), tuple(refused), time.perf_counter() - t0, count, refutation)
