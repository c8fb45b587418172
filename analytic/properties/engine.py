r"""The search for counterexamples: a float64 screen over a wide space, confirmed exactly.

For a registered metric (or a callable with a vectorised form) every chunk
of the space (:class:`analytic.properties.space.Space`) is evaluated as a
stack in float64 (:mod:`numeric` vectorises every metric over
``(..., K, K)``; :func:`numeric._validation.collect_undefined` marks the
matrices where it is undefined), and each property's
:meth:`~analytic.properties.catalog.Property.screen` classes every base
matrix as *clear*, *tie* or *candidate*.  The chunks are independent (ranks
of a combinatorial number system), so they run on any
:class:`concurrent.futures.Executor` -- a local process pool by default, a
Dask cluster through ``client.get_executor()`` -- and come back in search
order.  In this process, in search order:

- every **candidate** (a violation beyond the tolerance, or a tie of a
  strict relation) is decided by the property's exact check; the first one
  confirmed is the counterexample (and stops the search of that property);
- every **tie** (two float values within the tolerance, which float64 cannot
  order) is decided exactly too: with ``exact_ties``, all of them, in the
  workers, by the property's screen run again on exact values of the whole
  stack of tied matrices (:class:`_ExactTies`: rationals,
  :mod:`exactfloor.rational`, and closed forms of roots and
  logarithms, :mod:`exactfloor.closedform`; a callable's own exact
  values, :class:`CallableEvaluator`) -- a metric whose values leave those
  numbers keeps the rule that follows; otherwise up to
  ``tie_budget`` ties per property, the first ones in search order, by the
  per-matrix check.  The verdict counts the ties left unconfirmed (they
  agree to ``1e-9`` in float64, which is all that is then known of them).

A chunk sends back its first :data:`_FLAGGED` ties and candidates and every
candidate after them, so that no candidate is lost behind the ties.

A counterexample of the exhaustive part is the *minimal* one of that part
(order ``(N, K, lexicographic)``) when no tie before it was left
unconfirmed; one found among the random matrices is shrunk
(:func:`analytic.properties.shrink.shrink`) and never called minimal.  A callable
without a vectorised form is searched in exact arithmetic on every matrix
(no float screen, no ties), on a smaller default space.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from exactfloor.errors import MetricError, UndecidedError, UndefinedMetric

from .generators import label_vectors
from .catalog import CANDIDATE, CLEAR, PROPERTIES, TIE, tolerance
from exactfloor.closedform import _NotExact, from_sympy
from exactfloor.rational import rational_bound, rationals
from .pool import default_executor
from .space import Chunk, Space

__all__ = ["MetricSpec", "FloatEvaluator", "RationalEvaluator", "CallableEvaluator",
           "MemoEvaluator", "Found",
           "search_matrices", "search_triples", "default_executor", "TIE_BUDGET"]

#: ties (float values within the tolerance) decided exactly per property, the first in order
TIE_BUDGET = 1000
#: exceptions that pass through an evaluator unchanged: a metric already named broken, the
#: engine's own signals (a value beyond the exact forms, a sign left undecided), no memory
_PASSED_ON = (MetricError, _NotExact, UndecidedError, MemoryError)
#: flagged bases a chunk sends back per property (candidates and ties, in order)
_FLAGGED = 2000
#: tied bases decided exactly at once, and exact values a worker keeps (memory)
_EXACT_BATCH = 20_000
_EXACT_MEMO = 400_000
#: candidates a chunk sends back after those (a float violation beyond the
#: tolerance, or a tie of a strict relation); more, all refuted, is an error
_CANDIDATES = 100_000


# ---------------------------------------------------------------------------
# the metric, as a worker rebuilds it
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class MetricSpec:
    """What a worker needs to evaluate the metric in float64.

    A registered metric's name and variant label, or a vectorised callable
    (picklable for a process pool; any callable in this process).

    Parameters
    ----------
    name, variant : str, optional
        A registered metric and its variant's label.
    vectorized : callable, optional
        Instead: the metric on a ``(B, K, K)`` stack in float64, NaN where undefined.
    better : {"lower", "higher"}, default "lower"
        Which values are better.
    bounds : (lo, hi)
        The stated range (None for an unbounded side).
    exact : callable, optional
        A callable's exact value on one matrix, which decides the ties on
        exact values (``exact_ties``; :class:`CallableEvaluator`).

    Examples
    --------
    >>> import numpy as np
    >>> stack = np.array([[[2, 1], [0, 1]], [[0, 0], [0, 3]]])
    >>> spec = MetricSpec(name="mae", variant="MAE", bounds=(0, None))
    >>> values, defined = spec.evaluator()(stack)
    >>> values.tolist(), defined.tolist()
    ([0.25, 0.0], [True, True])
    """

    name: str | None = None
    variant: str | None = None
    vectorized: object = None
    better: str = "lower"
    bounds: tuple = (None, None)
    exact: object = None

    def evaluator(self) -> "FloatEvaluator":
        return _evaluator(self)

    def rational_evaluator(self):
        """The metric's exact values on stacks: a registered metric's formula in
        exact arithmetic (:class:`RationalEvaluator`), a callable's ``exact``
        function matrix by matrix (:class:`CallableEvaluator`), or None."""
        if self.name is not None:
            return _rational_evaluator(self)
        if self.exact is not None:
            return CallableEvaluator(self.exact, self.better, self.bounds,
                                     floats=self.evaluator())
        return None


def _registered(spec):
    """The registered variant of ``spec`` as ``fn(stack, arithmetic)`` (one
    formula, evaluated in float64 or in the engine's exact rationals)."""
    from numeric.registry import REGISTRY

    import numeric  # noqa: F401  (registers every metric)

    m = REGISTRY[spec.name]
    v = next(c for c in m.cases() if c.label == spec.variant)

    def fn(stack, arithmetic):
        return m.function(stack, **v.kwargs(stack[0]), arithmetic=arithmetic)
    return fn


@functools.lru_cache(maxsize=64)
def _evaluator(spec):
    if spec.name is None:  # a user's vectorised form: NaN says "undefined here"
        return FloatEvaluator(spec.vectorized, spec.better, spec.bounds, nan_undefined=True)
    fn = _registered(spec)
    return FloatEvaluator(lambda stack: fn(stack, "float"), spec.better, spec.bounds)


@functools.lru_cache(maxsize=64)
def _rational_evaluator(spec):
    return RationalEvaluator(_registered(spec), spec.better, spec.bounds,
                             floats=spec.evaluator())


def _float_bound(b):
    if b is None:
        return None
    from .exact import bound_value

    v = bound_value(b)
    try:
        return None if v is None else float(v)
    except OverflowError:  # the float screen cannot hold it (Fraction's float() overflows)
        raise ValueError(f"a bound must lie within float64's range (1.8e308), got "
                         f"{b!r:.60}") from None


class FloatEvaluator:
    """``ev(stack) -> (values, defined)`` in float64, and the metric's orientation.

    The stack is split by total ``N`` (a variant's parameters may depend on
    ``K`` and ``N``, e.g. cardoso2011's table beta).  Undefined matrices are
    marked by the metric's own checks (:func:`numeric._validation.collect_undefined`);
    an error of :attr:`errors` from elsewhere halves the stack until it is
    isolated, and so does any other exception, down to the first matrix
    that raises it: :class:`exactfloor.errors.MetricError` naming the exception
    and that matrix (the audit's verdict ``"error"``).  With ``nan_undefined``
    (a user's vectorised callable) a NaN value means undefined; otherwise (a
    registered metric, whose own checks mark where it is undefined) a NaN,
    and always an infinity, where the metric is defined is a broken metric:
    :class:`~exactfloor.errors.MetricError`.  :class:`RationalEvaluator` is the
    same evaluator over exact rationals.

    Parameters
    ----------
    fn : callable
        The metric on a ``(B, K, K)`` stack, in float64.
    better : {"lower", "higher"}
        Which values are better (the evaluator's ``orient``: +1 or -1).
    bounds : (lo, hi)
        The stated range (None for an unbounded side).
    nan_undefined : bool, default False
        A NaN value means undefined (a user's vectorised callable).

    Examples
    --------
    >>> import numpy as np
    >>> stack = np.array([[[2, 1], [0, 1]], [[0, 0], [0, 3]]])
    >>> ev = FloatEvaluator(lambda s: s[:, 0, 1] / s.sum(axis=(1, 2)), "lower", (0, 1))
    >>> ev(stack)[0].tolist(), ev.orient, ev.best
    ([0.25, 0.0], 1.0, 0.0)
    """

    #: raised where a matrix leaves the metric undefined (isolated by halving)
    errors = (UndefinedMetric,)
    #: the values' dtype, and the value kept where the metric is undefined
    dtype, missing = np.float64, np.nan
    orientation = 1.0

    def __init__(self, fn, better, bounds, nan_undefined=False):
        self.fn, self.nan_undefined = fn, nan_undefined
        self.orient = self.orientation if better == "lower" else -self.orientation
        self.bounds = tuple(self.bound(b) for b in bounds)
        self.best = self.bounds[0] if better == "lower" else self.bounds[1]

    bound = staticmethod(_float_bound)

    def evaluate(self, stack):
        """The metric on a stack of equal total ``N``, one value per matrix."""
        return np.asarray(self.fn(stack), dtype=np.float64)

    def __call__(self, stack):
        stack = np.asarray(stack, dtype=np.int64)
        values = np.full(len(stack), self.missing, dtype=self.dtype)
        defined = np.zeros(len(stack), dtype=bool)
        if not len(stack):
            return values, defined
        totals = stack.sum(axis=(-2, -1))
        for N in np.unique(totals):
            self._run(stack, np.flatnonzero(totals == N), values, defined)
        self.check(stack, values, defined)
        return values, defined

    def broken(self, exc, m):
        """What an exception other than :attr:`errors` on the matrix ``m`` raises: the
        metric is broken (:class:`~exactfloor.errors.MetricError`, the verdict "error")."""
        return MetricError.of(exc, m)

    def check(self, stack, values, defined):
        """Refuse a value that is not finite where the metric is defined (a NaN
        means undefined with ``nan_undefined``)."""
        if self.nan_undefined:
            defined &= ~np.isnan(values)
        bad = defined & ~np.isfinite(values)
        if bad.any():
            raise MetricError.of(f"returned {values[np.argmax(bad)]} (not a finite real number; "
                                 "NaN, None or UndefinedMetric where it is undefined)",
                                 stack[np.argmax(bad)])

    def _run(self, stack, idx, values, defined):
        from numeric._validation import collect_undefined

        try:
            with collect_undefined() as masks:
                out = self.evaluate(stack[idx])
            ok = np.ones(len(idx), dtype=bool)
            for mask in masks:
                ok &= ~np.broadcast_to(mask, ok.shape)
            values[idx] = np.where(ok, out, self.missing)
            defined[idx] = ok
        except _PASSED_ON:
            raise
        except Exception as exc:  # undefined (self.errors), or an error: isolate the matrix
            if len(idx) == 1:
                if isinstance(exc, self.errors):
                    return
                raise self.broken(exc, stack[idx[0]]) from exc
            half = len(idx) // 2
            self._run(stack, idx[:half], values, defined)
            self._run(stack, idx[half:], values, defined)


class RationalEvaluator(FloatEvaluator):
    """:class:`FloatEvaluator` over exact rationals (the exact screen of the ties).

    ``fn(stack, ctx)`` evaluates the metric in the rational context ``ctx``
    (:func:`exactfloor.rational.rationals`; default: gmpy2's when
    installed).  ``values`` is an object array (0 where the metric is
    undefined: every screen reads a value only where ``defined``);
    ``orient`` is the integer ``+1`` or ``-1`` (a float would turn an exact
    difference into a float).  Fractions raise ``ZeroDivisionError`` where
    float64 gives an infinity: an undefined matrix too.  ``floats``: the
    float evaluator, whose definedness must be the same (the float screen's
    classes rest on it).

    Raises the internal signal of :mod:`exactfloor.closedform` that the exact
    screen does not apply (the metric's ties then go to the per-matrix check) when the metric
    leaves the exact numbers (rationals, and closed forms of roots and
    logarithms of rationals) or is defined on other matrices than in float64.

    Parameters
    ----------
    fn : callable
        ``fn(stack, ctx)``: the metric in the rational context ``ctx``.
    better : {"lower", "higher"}
        Which values are better.
    bounds : (lo, hi)
        The stated range (None for an unbounded side).
    ctx : optional
        The rational context (default: :func:`exactfloor.rational.rationals`).
    floats : FloatEvaluator, optional
        The float evaluator, whose definedness must be the same.

    Examples
    --------
    >>> import numpy as np
    >>> stack = np.array([[[2, 1], [0, 1]], [[0, 0], [0, 3]]])
    >>> ev = MetricSpec(name="mae", variant="MAE", bounds=(0, None)).rational_evaluator()
    >>> [str(v) for v in ev(stack)[0]]
    ['1/4', '0']
    """

    errors = (UndefinedMetric, ZeroDivisionError)
    dtype, missing = object, 0
    orientation = 1

    def __init__(self, fn, better, bounds, ctx=None, floats=None):
        self.ctx = rationals() if ctx is None else ctx
        self.floats = floats
        super().__init__(fn, better, bounds)

    def bound(self, b):
        return rational_bound(b, self.ctx)

    def broken(self, exc, m):
        """A registered formula that fails in the engine's rationals switches the exact
        screen off (:class:`_NotExact`: its ties go to the per-matrix check, whose
        exact arithmetic names a broken metric); a user's callable is the metric
        itself (:class:`CallableEvaluator`)."""
        return _NotExact(f"the formula in rationals raised {type(exc).__name__}: {exc} on "
                         f"{m.tolist()}")

    def evaluate(self, stack):
        return np.asarray(self.fn(stack, self.ctx), dtype=object).reshape(len(stack))

    def check(self, stack, values, defined):
        if self.floats is not None:
            other = self.floats(stack)[1] != defined
            if other.any():
                raise _NotExact(f"defined differently in float64 and in rationals on "
                               f"{stack[np.argmax(other)].tolist()}")
        for i in np.flatnonzero(defined):
            if type(values[i]) not in self.ctx.types:
                values[i] = self.exact_value(values[i])

    def exact_value(self, v):
        """A value of another type than the context's, as one of them."""
        if getattr(v, "is_Rational", False) is True:  # a SymPy rational: the same number
            return self.ctx.number(Fraction(int(v.p), int(v.q)))
        # a bool, a float, an irrational SymPy number: a formula of numeric leaked it
        raise _NotExact(f"the metric returned {v!r:.40} ({type(v).__name__})")


class CallableEvaluator(RationalEvaluator):
    """:class:`RationalEvaluator` of a user's callable: its exact value on each
    matrix of the stack (the function the per-matrix check calls), read as
    that check reads it (:func:`analytic.properties.exact.value_of`: a float is
    the binary fraction it is, a SymPy number is exact); an irrational SymPy
    number becomes a closed form
    (:func:`exactfloor.closedform.from_sympy`); beyond them the exact screen
    does not apply (its internal signal, as :class:`RationalEvaluator`).
    :class:`~exactfloor.errors.UndefinedMetric` from the callable, or a NaN or
    None returned: undefined; any other exception:
    :class:`~exactfloor.errors.MetricError` naming the matrix.

    Parameters
    ----------
    f : callable
        The metric's exact value on one ``int64`` matrix.
    better : {"lower", "higher"}
        Which values are better.
    bounds : (lo, hi)
        The stated range (None for an unbounded side).
    ctx : optional
        The rational context (default: :func:`exactfloor.rational.rationals`).
    floats : FloatEvaluator, optional
        The float evaluator, whose definedness must be the same.

    Examples
    --------
    >>> from fractions import Fraction
    >>> import numpy as np
    >>> stack = np.array([[[2, 1], [0, 1]], [[0, 0], [0, 3]]])
    >>> ev = CallableEvaluator(lambda m: Fraction(int(m[0, 1]), int(m.sum())), "lower", (0, 1))
    >>> [str(v) for v in ev(stack)[0]]
    ['1/4', '0']
    """

    def __init__(self, f, better, bounds, ctx=None, floats=None):
        self.f = f
        super().__init__(None, better, bounds, ctx, floats)

    def _run(self, stack, idx, values, defined):
        from .exact import signals_undefined

        for i in idx:
            try:
                v = self.f(stack[i].copy())
            except UndefinedMetric:
                continue
            except _PASSED_ON:
                raise
            except Exception as exc:
                raise MetricError.of(exc, stack[i]) from exc
            if not signals_undefined(v):
                values[i], defined[i] = v, True

    def exact_value(self, v):
        from .exact import value_of

        try:
            x = value_of(v)
        except ValueError as exc:  # a broken metric: the per-matrix check says so
            raise _NotExact(str(exc)) from None
        return self.ctx.number(x.q) if x.q is not None else from_sympy(x.exact)


class MemoEvaluator:
    """A :class:`RationalEvaluator` that keeps every matrix's value (by its bytes).

    A matrix shared by several properties' ties (a base, a transpose, ``2A``)
    is evaluated once per chunk.

    Parameters
    ----------
    ev : RationalEvaluator
        The evaluator whose values are kept.

    Examples
    --------
    >>> import numpy as np
    >>> stack = np.array([[[2, 1], [0, 1]], [[0, 0], [0, 3]]])
    >>> ev = MemoEvaluator(MetricSpec(name="mae", variant="MAE", bounds=(0, None)).rational_evaluator())
    >>> [str(v) for v in ev(stack)[0]]
    ['1/4', '0']
    """

    def __init__(self, ev):
        self.ev = ev
        self.orient, self.bounds, self.best = ev.orient, ev.bounds, ev.best
        self._memo = {}

    def trim(self, most):
        """Forget the values once more than ``most`` are kept (memory)."""
        if len(self._memo) > most:
            self._memo.clear()

    def __call__(self, stack):
        stack = np.ascontiguousarray(stack, dtype=np.int64)
        # one bytes key per matrix (its length, 8 K^2, tells K apart), in one C loop
        keys = stack.reshape(len(stack), stack.shape[-1] ** 2).view(
            np.dtype((np.void, 8 * stack.shape[-1] ** 2))).ravel().tolist()
        memo = self._memo
        rows = list({k: i for i, k in enumerate(keys) if k not in memo}.values())
        if rows:
            v, d = self.ev(stack[rows])
            memo.update(zip([keys[i] for i in rows], zip(v.tolist(), d.tolist(), strict=True),
                            strict=True))
        pairs = [memo[k] for k in keys]
        values = np.empty(len(stack), dtype=object)
        values[:] = [p[0] for p in pairs]
        return values, np.array([p[1] for p in pairs], dtype=bool).reshape(len(stack))


# ---------------------------------------------------------------------------
# the worker's task: screen one chunk for several properties
# ---------------------------------------------------------------------------
@dataclass
class ChunkScreen:
    """What a chunk's screen found for one property."""

    checked: int = 0          # bases the property applies to
    defined: int = 0          # of those, where f(base) is defined
    candidates: int = 0
    ties: int = 0
    ties_exact: int = 0       # of the ties, those the exact screen decided (_ExactTies)
    flagged: list = field(default_factory=list)  # [(order index, status, matrix)], in order
    #: per flagged base, ``(ties, ties_exact)`` up to it (inclusive), so that a
    #: counterexample's tie counts stop at it whatever the chunk boundaries (None: not kept)
    upto: list | None = None


def _upto(at, ties, decided):
    """:attr:`ChunkScreen.upto` at the positions ``at`` from the masks of the ties
    and of the exactly decided ties (in search order).

    >>> _upto([0, 2], np.array([1, 0, 1], bool), np.array([1, 0, 0], bool))
    [(1, 1), (2, 1)]
    """
    at = np.asarray(at, dtype=np.int64)
    pre = [np.cumsum(m)[at].tolist() for m in (ties, decided)]
    return list(zip(*pre, strict=True))


def _flag(status):
    """The positions a chunk sends back, in order: the first :data:`_FLAGGED`
    ties and candidates, and every candidate after them up to
    :data:`_CANDIDATES` (a candidate is never dropped for the ties before it)."""
    first = np.flatnonzero(status != CLEAR)[:_FLAGGED]
    later = np.flatnonzero(status == CANDIDATE)
    later = later[later > (first[-1] if len(first) else -1)][:_CANDIDATES]
    return np.concatenate([first, later])


class _Lookup:
    """The values of a chunk of ranks ``[lo, hi)`` of the ``K x K`` matrices with
    total ``N``: a derived matrix of that size takes its value from here when
    its rank is in the chunk (:func:`analytic.properties.space.rank`)."""

    def __init__(self, K, N, lo, hi, base):
        self.K, self.N, self.lo, self.hi, self.base = K, N, lo, hi, base

    def split(self, stack):
        """``(hit, index)``: which matrices of ``stack`` are in the chunk, and where."""
        from .space import rank

        flat = stack.reshape(len(stack), -1)
        ok = flat.sum(axis=-1) == self.N
        r = np.full(len(stack), -1, dtype=np.int64)
        if ok.any():
            r[ok] = rank(flat[ok], self.N)
        hit = (r >= self.lo) & (r < self.hi)
        return hit, r[hit] - self.lo


class _Cached:
    """The evaluator with the base stack's values computed once, the values of
    derived stacks shared between properties (:meth:`derived`), and derived
    matrices of the chunk's own size looked up in the chunk (:class:`_Lookup`)."""

    def __init__(self, ev, A, lookup=None):
        self.ev, self.A, self.lookup = ev, A, lookup
        self.orient, self.bounds, self.best = ev.orient, ev.bounds, ev.best
        self._base = None
        self._memo = {}

    def __call__(self, stack):
        if stack is self.A:
            if self._base is None:
                self._base = self.ev(stack)
            return self._base
        return self._eval(stack)

    def derived(self, key, stack):
        """``self(stack)`` for a stack derived from the base stack, memoised by ``key``."""
        if key not in self._memo:
            self._memo[key] = self._eval(stack)
        return self._memo[key]

    def _eval(self, stack):
        lk = self.lookup
        if lk is None or not len(stack) or stack.shape[-1] != lk.K:
            return self.ev(stack)
        hit, where = lk.split(stack)
        values = np.full(len(stack), np.nan)
        defined = np.zeros(len(stack), dtype=bool)
        bv, bd = lk.base()
        values[hit], defined[hit] = bv[where], bd[where]
        if not hit.all():
            v, d = self.ev(stack[~hit])
            values[~hit], defined[~hit] = v, d
        return values, defined


#: what switches the exact screen off (its ties then keep the budget): a number beyond the
#: closed forms, a definedness other than float64's, a sign exactfloor.exact_sign's policy leaves
_BEYOND = (_NotExact, UndecidedError)


def _settled(exact):
    """The statuses of an exact screen: an exact tie is an equality, which
    satisfies every relation a screen marks as a tie (CLEAR); a candidate stays."""
    return np.where(exact == TIE, CLEAR, exact)


class _ExactTies:
    """The ties of a chunk decided on exact values (:mod:`exactfloor.rational`):
    the property's screen run again on the tied bases, in rational arithmetic
    (roots and logarithms of rationals as closed forms:
    :mod:`exactfloor.closedform`), with no tolerance.  An exact tie
    is an equality, which satisfies the relation (CLEAR); an exact candidate
    stays a candidate (the per-matrix check decides it).  A metric that leaves
    those numbers (:class:`_NotExact`), or a sign the policy of
    :mod:`exactfloor.exact_sign` does not decide (``UndecidedError``), switches
    this off for the rest of the chunk (its ties stay ties)."""

    def __init__(self, spec):
        try:
            ev = spec.rational_evaluator()
        except _NotExact:
            ev = None
        self.ev = None if ev is None else MemoEvaluator(ev)

    def decide(self, prop, sub, status):
        """``(status, decided)``: the statuses with the ties decided, and which were
        (in batches of :data:`_EXACT_BATCH` bases: exact arrays are large)."""
        decided = np.zeros(len(sub), dtype=bool)
        ties = np.flatnonzero(status == TIE)
        status = status.copy()
        for lo in range(0, len(ties), _EXACT_BATCH):
            if self.ev is None:
                break
            idx = ties[lo:lo + _EXACT_BATCH]
            try:
                exact = prop.screen(self.ev, sub[idx])
            except _BEYOND:
                self.ev = None
                break
            finally:
                if self.ev is not None:
                    self.ev.trim(_EXACT_MEMO)
            status[idx] = _settled(exact)
            decided[idx] = True
        return status, decided


def _screen_all(ev, A, names, chunk=None, exact=None) -> dict:
    """Screen the stack ``A`` for each property of ``names``; a ``*_populated``
    twin takes its parent's statuses on its own bases when both are asked.
    ``exact`` (an :class:`_ExactTies`): the ties are decided on exact values."""
    out, full, full_ties, full_decided = {}, {}, {}, {}
    whole = _Cached(ev, A)
    if chunk is not None and chunk.kind == "exhaustive":
        whole.lookup = _Lookup(chunk.K, chunk.N, chunk.lo, chunk.hi, lambda: whole(A))
    for name in sorted(names, key=lambda n: PROPERTIES[n].populated):
        prop = PROPERTIES[name]
        keep = prop.bases(A)
        order = np.flatnonzero(keep)
        res = ChunkScreen(checked=len(order))
        if len(order):
            sub = A if len(order) == len(A) else A[keep]
            cached = whole if sub is A else _Cached(ev, sub, whole.lookup)
            parent = name[:-len("_populated")] if prop.populated else None
            if parent in full:
                status = full[parent][keep]
                ties, decided = full_ties[parent][keep], full_decided[parent][keep]
                res.defined = int(np.count_nonzero(whole(A)[1][keep]))
            else:
                status = prop.screen(cached, sub)
                ties = status == TIE
                decided = np.zeros(len(sub), dtype=bool)
                if exact is not None:
                    status, decided = exact.decide(prop, sub, status)
                res.defined = int(np.count_nonzero(cached(sub)[1]))
            for store, v in ((full, status), (full_ties, ties), (full_decided, decided)):
                store[name] = np.zeros(len(A), dtype=v.dtype)
                store[name][keep] = v
            res.candidates = int(np.count_nonzero(status == CANDIDATE))
            res.ties = int(np.count_nonzero(ties))
            res.ties_exact = int(np.count_nonzero(decided))
            at = _flag(status)
            res.flagged = [(int(i), int(status[i]), sub[i].copy()) for i in at]
            res.upto = _upto(at, ties, decided)
        out[name] = res
    return out


def screen_chunk(spec: MetricSpec, names: tuple, chunk: Chunk, space: Space,
                 exact_ties: bool = False) -> dict:
    """Screen one chunk for each property of ``names`` (the worker's task);
    ``exact_ties``: decide its ties on exact values (:class:`_ExactTies`)."""
    return _screen_all(spec.evaluator(), chunk.matrices(space), names, chunk,
                       _ExactTies(spec) if exact_ties else None)


def diagonal_chunk_matrices(K, N):
    """Every diagonal ``K x K`` matrix with total ``N`` (lexicographic in the diagonal)."""

    d = block_compositions(N, K)
    A = np.zeros((len(d), K, K), dtype=np.int64)
    A[:, np.arange(K), np.arange(K)] = d
    return A


def block_compositions(n, r):
    from .space import _range, _parts

    return np.array(_range(n, r, 0, _parts(n, r)), dtype=np.int64)


def screen_diagonal(spec: MetricSpec, names: tuple, K: int, N: int,
                    exact_ties: bool = False) -> dict:
    """The diagonal part (imbalance): every diagonal matrix with ``K`` classes and total ``N``."""
    return _screen_all(spec.evaluator(), diagonal_chunk_matrices(K, N), names, None,
                       _ExactTies(spec) if exact_ties else None)


# ---------------------------------------------------------------------------
# executors (the pool: analytic.properties.pool, default_executor re-exported)
# ---------------------------------------------------------------------------

class _InProcess:
    """The executor protocol, run at once in this process."""

    class _Done:
        def __init__(self, fn, args):
            self._v = fn(*args)

        def result(self):
            return self._v

        def cancel(self):
            return False  # already done

    def submit(self, fn, *args):
        return self._Done(fn, args)


#: tasks in flight on a pool (:func:`_ordered`): enough for 16 workers to share
#: the chunks while the results are consumed in order
WINDOW = 16


def _ordered(executor, tasks, window=None):
    """Submit ``tasks`` (``[(fn, *args)]``), at most ``window`` at a time (default:
    1 in this process, whose tasks run when submitted; :data:`WINDOW` on a pool),
    and yield their results in order; a consumer that stops stops the submitting
    and cancels the tasks not started."""
    if window is None:
        window = 1 if isinstance(executor, _InProcess) else WINDOW
    pending = []
    it = iter(tasks)
    for t in it:
        pending.append(executor.submit(*t))
        if len(pending) >= window:
            break
    try:
        while pending:
            fut = pending.pop(0)
            res = fut.result()
            for t in it:
                pending.append(executor.submit(*t))
                break
            yield res
    finally:
        for fut in pending:
            fut.cancel()


# ---------------------------------------------------------------------------
# the search in this process: screen results confirmed exactly, in order
# ---------------------------------------------------------------------------
@dataclass
class Found:
    """What the search found for one property.

    Parameters
    ----------
    name : str
        The property's name.
    counterexample : numpy.ndarray, tuple or None
        The first counterexample (None: none found).
    witness : str
        The property's exact witness on it.
    how : str
        Which part of the search met it.
    minimal : bool
        Whether it is the minimal one of the exhaustive part.
    checked, defined : int
        Base matrices (or triples) checked, and how many leave the metric defined.
    ties, ties_confirmed : int
        The float ties met, and how many were decided exactly.
    exact_checks : int
        Candidates decided by the per-matrix exact check.
    exact : bool
        Whether the search ran in exact arithmetic.

    Examples
    --------
    >>> from analytic.properties.falsify import registered
    >>> from analytic.properties.space import Space
    >>> small = Space(exhaustive=((2, 3),), random=0, triangle=((2, 2),), triangle_random=0,
    ...               diagonal=((2, 2),))
    >>> _, spec, ctx = registered("uoc")
    >>> found = search_matrices(spec, ["symmetry"], small, ctx)["symmetry"]
    >>> found.fails, found.counterexample.tolist(), found.minimal
    (True, [[0, 0], [1, 2]], True)
    """

    name: str
    counterexample: object = None
    witness: str = ""
    how: str = ""
    minimal: bool = False
    checked: int = 0
    defined: int = 0
    ties: int = 0
    ties_confirmed: int = 0
    exact_checks: int = 0
    exact: bool = False

    @property
    def fails(self) -> bool:
        return self.counterexample is not None


#: how a counterexample of the exhaustive part is named: the first one in the
#: search order of its region (matrices by total N, label-vector triples by length n)
FIRST_MATRIX = "the first counterexample in the order (N, K, lexicographic)"
FIRST_TRIPLE = "the first triple in the order (n, K, lexicographic)"


class _Tracker:
    def __init__(self, name, budget, first=FIRST_MATRIX):
        self.found = Found(name)
        self.budget = budget
        self.spent = 0  # ties decided by the per-matrix check (the budget's count)
        self.first = first
        self.unconfirmed_before = 0
        self.done = False

    def take(self, ctx, prop, r: ChunkScreen, random_part) -> bool:
        """Count a chunk's screen ``r`` and decide its flagged bases (:meth:`confirm`)."""
        f = self.found
        before = (f.checked, f.ties, f.ties_confirmed)
        f.checked += r.checked
        f.defined += r.defined
        f.ties += r.ties
        f.ties_confirmed += r.ties_exact
        return self.confirm(ctx, prop, r.flagged, random_part, before, r.ties - r.ties_exact,
                            r.candidates, r.upto)

    def confirm(self, ctx, prop, flagged, random_part, before=(0, 0, 0), ties=None,
                candidates=None, upto=None):
        """Decide the flagged bases of one chunk in order; True when a
        counterexample was confirmed (``checked`` then counts the bases up to
        it, ``before = (checked, ties, ties_confirmed)`` those of the earlier
        chunks, and with ``upto`` (:attr:`ChunkScreen.upto`) the tie counts
        stop at it too).
        ``ties``: the chunk's ties left to this check (not decided by the
        exact screen), of which those not flagged count as unconfirmed;
        ``candidates``: the chunk's candidates (all of them are flagged, up
        to :data:`_CANDIDATES`)."""
        f = self.found
        checked0, ties0, confirmed0 = before
        confirmed_here = 0
        sent = sum(1 for _, st, _ in flagged if st == TIE)
        dropped = 0 if ties is None else ties - sent
        last_tie = max((pos for pos, st, _ in flagged if st == TIE), default=-1)
        for k, (pos, status, m) in enumerate(flagged):
            if status == TIE:
                if self.spent >= self.budget:
                    self.unconfirmed_before += 1
                    continue
                self.spent += 1
                f.ties_confirmed += 1
                confirmed_here += 1
            elif dropped and pos > last_tie:
                # ties of this chunk were not sent back: they may lie before it
                self.unconfirmed_before += dropped
                dropped = 0
            f.exact_checks += 1
            w = prop.check(ctx, m)
            if w:
                f.counterexample, f.witness = m, w
                f.checked = checked0 + pos + 1
                if upto is not None:
                    ties_upto, exact_upto = upto[k]
                    f.ties = ties0 + ties_upto
                    f.ties_confirmed = confirmed0 + exact_upto + confirmed_here
                f.minimal = not random_part and self.unconfirmed_before == 0
                f.how = ("random, then shrunk" if random_part else
                         f"exhaustive: {self.first}" + (
                             "" if f.minimal else
                             ", after ties left unconfirmed: not certified minimal"))
                self.done = True
                return True
        self.unconfirmed_before += dropped
        if candidates is not None and candidates > sum(1 for _, st, _ in flagged
                                                       if st == CANDIDATE):
            raise RuntimeError(
                f"{prop.name}: more than {_CANDIDATES:,} float candidates in one chunk, every "
                "one sent refuted by the exact check: the float screen disagrees with the "
                "exact values (a broken vectorised form?); no verdict is given")
        return False


def search_matrices(spec: MetricSpec, names, space: Space, ctx, *, executor=None,
                    tie_budget=TIE_BUDGET, window=None, exact_ties=False) -> dict:
    """Search the matrices (and the diagonal part) of ``space`` for counterexamples.

    Parameters
    ----------
    spec : MetricSpec
        The metric in float64.
    names : iterable of str
        The properties (:data:`analytic.properties.catalog.PROPERTIES`).
    space : analytic.properties.space.Space
        The searched space.
    ctx : analytic.properties.exact.ExactContext
        The metric's exact form, which decides every candidate.
    executor : concurrent.futures.Executor, optional
        Where the chunks run (default: this process).
    tie_budget : int, default :data:`TIE_BUDGET`
        Float ties decided by the per-matrix exact check.
    window : int, optional
        The most chunks submitted at a time (default: 1 in this process,
        :data:`WINDOW` on a pool).
    exact_ties : bool, default False
        Decide every tie on exact values in the workers when the metric's
        values are rationals; otherwise the ties up to ``tie_budget``.

    Returns
    -------
    dict
        ``{name: Found}``.

    Examples
    --------
    >>> from analytic.properties.falsify import registered
    >>> from analytic.properties.space import Space
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> _, spec, ctx = registered("mae")
    >>> found = search_matrices(spec, ["symmetry"], tiny, ctx)["symmetry"]
    >>> found.fails, found.checked, found.ties_confirmed
    (False, 14, 14)
    """
    ex = executor or _InProcess()
    trackers = {n: _Tracker(n, tie_budget) for n in names}
    mat = [n for n in names if PROPERTIES[n].region == "matrices"]
    diag = [n for n in names if PROPERTIES[n].region == "diagonal"]
    if mat:
        tasks = [(screen_chunk, spec, tuple(mat), c, space, exact_ties) for c in space.chunks()]
        _consume(ex, tasks, [c.kind == "random" for c in space.chunks()], trackers, mat, ctx,
                 window, spec, space)
    if diag:
        order = sorted(((N, K) for K, n in space.diagonal for N in range(1, n + 1)))
        tasks = [(screen_diagonal, spec, tuple(diag), K, N, exact_ties) for N, K in order]
        _consume(ex, tasks, [False] * len(tasks), trackers, diag, ctx, window, spec, space)
    return {n: t.found for n, t in trackers.items()}


def _consume(ex, tasks, is_random, trackers, names, ctx, window, spec, space):
    open_names = list(names)
    gen = _ordered(ex, tasks, window)
    for i, res in enumerate(gen):
        for n in list(open_names):
            if trackers[n].take(ctx, PROPERTIES[n], res[n], is_random[i]):
                open_names.remove(n)
        if not open_names:
            gen.close()
            break


# ---------------------------------------------------------------------------
# the triangle inequality on label vectors
# ---------------------------------------------------------------------------
def _pair_matrices(V, K):
    """The confusion matrix of every ordered pair of label vectors ``V``
    (``(P, n)``): ``(P * P, K, K)``, pair ``(a, b)`` at ``a * P + b``."""
    P, n = V.shape
    codes = (V[:, None, :] * K + V[None, :, :]).reshape(P * P, n)
    out = np.zeros((P * P, K * K), dtype=np.int64)
    rows = np.repeat(np.arange(P * P), n)
    np.add.at(out, (rows, codes.ravel()), 1)
    return out.reshape(P * P, K, K)


def _triangle_status(lhs, rhs, good):
    """``d(a, c) <= d(a, b) + d(b, c)`` elementwise, ``lhs`` and ``rhs`` its two
    sides: CLEAR, TIE (within the tolerance; exact values: equal) or CANDIDATE;
    CLEAR where not ``good`` (a distance undefined, or a trivial triple)."""
    diff = np.where(good, lhs - rhs, -np.inf)
    tol = tolerance(np.where(good, lhs, 0), np.where(good, rhs, 0))
    status = np.zeros(diff.shape, dtype=np.int8)
    status[np.abs(diff) <= tol] = TIE
    status[diff > tol] = CANDIDATE
    status[~good] = CLEAR
    return status


def _exact_triangle(spec, mats, status, lhs_of, rhs_of):
    """Decide the ties of ``status`` on exact values, by :func:`_triangle_status`
    and :func:`_settled`: ``lhs_of(values, ties)``, ``rhs_of(values, ties)`` the
    two sides at the tied positions from the exact values of ``mats``.  Returns
    the number decided (0 on :data:`_BEYOND`: a number beyond the closed forms,
    a definedness other than float64's, an undecided sign)."""
    ties = np.flatnonzero(status.ravel() == TIE)
    if not len(ties):
        return 0
    try:
        ev = spec.rational_evaluator()
        if ev is None:
            return 0
        vals, _ = ev(mats)
        exact = _triangle_status(lhs_of(vals, ties), rhs_of(vals, ties),
                                 np.ones(len(ties), bool))
    except _BEYOND:
        return 0
    status.reshape(-1)[ties] = _settled(exact)
    return len(ties)


def screen_triples(spec: MetricSpec, K: int, n: int, V=None, exact_ties: bool = False):
    """Every triple of the label vectors ``V`` (default: all of length ``n``
    over ``K`` classes): a :class:`ChunkScreen`, flagged ``[(order, status,
    (a, b, c, K))]`` in lexicographic order of ``(a, b, c)``."""
    ev = spec.evaluator()
    V = np.array(list(label_vectors(K, n)), dtype=np.int64) if V is None else V
    P = len(V)
    mats = _pair_matrices(V, K)
    vals, ok = ev(mats)
    D, Dok = vals.reshape(P, P), ok.reshape(P, P)
    # d(a, c) - d(a, b) - d(b, c) over (a, b, c)
    lhs = D[:, None, :]
    rhs = D[:, :, None] + D[None, :, :]
    good = Dok[:, None, :] & Dok[:, :, None] & Dok[None, :, :]
    idx = np.arange(P)
    nontrivial = (idx[None, :, None] != idx[:, None, None]) & (idx[None, :, None] != idx[None, None, :])
    good &= nontrivial
    status = _triangle_status(lhs, rhs, good)
    tied = (status == TIE).ravel()
    n_ties = int(np.count_nonzero(tied))
    decided = 0
    if exact_ties:
        def lhs(v, t):
            a, _, c = np.unravel_index(t, status.shape)
            return v[a * P + c]

        def rhs(v, t):
            a, b, c = np.unravel_index(t, status.shape)
            return v[a * P + b] + v[b * P + c]
        decided = _exact_triangle(spec, mats, status, lhs, rhs)
    flat = _flag(status.ravel())
    flagged = []
    before = np.cumsum(nontrivial.ravel()) - 1  # the position among the nontrivial triples
    for f in flat:
        a, b, c = np.unravel_index(f, status.shape)
        flagged.append((int(before[f]), int(status.flat[f]),
                        (tuple(V[a].tolist()), tuple(V[b].tolist()), tuple(V[c].tolist()), K)))
    return ChunkScreen(checked=int(np.count_nonzero(nontrivial)),
                       defined=int(np.count_nonzero(good)),
                       candidates=int(np.count_nonzero(status == CANDIDATE)), ties=n_ties,
                       ties_exact=decided, flagged=flagged,
                       # _exact_triangle decides every tie or none
                       upto=_upto(flat, tied, tied & bool(decided)))


def search_triples(spec, space: Space, ctx, *, executor=None, tie_budget=TIE_BUDGET,
                   exact_ties=False) -> Found:
    """The triangle inequality on every triple of ``space.triangle``, then random triples.

    Parameters
    ----------
    spec : MetricSpec
        The metric in float64.
    space : analytic.properties.space.Space
        The searched space (its ``triangle`` parts).
    ctx : analytic.properties.exact.ExactContext
        The metric's exact form, which decides every candidate.
    executor : concurrent.futures.Executor, optional
        Where the chunks run (default: this process).
    tie_budget : int, default :data:`TIE_BUDGET`
        Float ties decided by the per-matrix exact check.
    exact_ties : bool, default False
        Decide every tie on exact values in the workers.

    Returns
    -------
    Found
        The triangle inequality's result.

    Examples
    --------
    >>> from analytic.properties.falsify import registered
    >>> from analytic.properties.space import Space
    >>> tiny = Space(exhaustive=((2, 2),), random=0, triangle=((2, 2),), triangle_random=0,
    ...              diagonal=((2, 2),))
    >>> _, spec, ctx = registered("mae")
    >>> found = search_triples(spec, tiny, ctx)
    >>> found.fails, found.checked
    (False, 38)
    """
    ex = executor or _InProcess()
    t = _Tracker("triangle", tie_budget, FIRST_TRIPLE)
    prop = PROPERTIES["triangle"]
    top = max((n for _, n in space.triangle), default=0)
    tasks = [(screen_triples, spec, K, n, None, exact_ties) for n in range(1, top + 1)
             for K, m in sorted(space.triangle) if n <= m]
    random_tasks = []
    if space.triangle_random:
        rng = np.random.default_rng([space.seed, 3])
        Ks = sorted({K for K, _ in space.triangle}) or [2]
        groups: dict = {}
        for _ in range(space.triangle_random):
            K = int(rng.choice(Ks))
            n = int(rng.integers(1, space.triangle_n + 1))
            groups.setdefault((K, n), []).append(rng.integers(0, K, size=(3, n)))
        for (K, n), trip in sorted(groups.items()):
            random_tasks.append((_screen_random_triples, spec, K, n, np.array(trip), exact_ties))
    kinds = [False] * len(tasks) + [True] * len(random_tasks)
    for i, res in enumerate(_ordered(ex, tasks + random_tasks)):
        if t.take(ctx, prop, res, kinds[i]):
            break
    return t.found


def _screen_random_triples(spec, K, n, trips, exact_ties=False):
    """Random triples ``trips`` ``(T, 3, n)``: the same statuses, one triple each."""
    ev = spec.evaluator()
    T = len(trips)
    mats = np.concatenate([_pair_matrices(np.stack([tr[x], tr[y]]), K)[[1]]
                           for tr in trips for x, y in ((0, 1), (1, 2), (0, 2))])
    vals, ok = ev(mats)
    vals, ok = vals.reshape(T, 3), ok.reshape(T, 3)
    same = np.array([(tr[0] == tr[1]).all() or (tr[1] == tr[2]).all() for tr in trips])
    good = ok.all(axis=1) & ~same
    lhs, rhs = vals[:, 2], vals[:, 0] + vals[:, 1]
    status = _triangle_status(lhs, rhs, good)
    tied = status == TIE
    n_ties = int(np.count_nonzero(tied))
    decided = 0
    if exact_ties:
        decided = _exact_triangle(spec, mats, status, lambda v, t: v[3 * t + 2],
                                  lambda v, t: v[3 * t] + v[3 * t + 1])
    before = np.cumsum(~same) - 1
    at = _flag(status)
    flagged = [(int(before[i]), int(status[i]), (tuple(trips[i][0].tolist()), tuple(trips[i][1].tolist()),
                                          tuple(trips[i][2].tolist()), K))
               for i in at]
    return ChunkScreen(checked=int(np.count_nonzero(~same)), defined=int(np.count_nonzero(good)),
                       candidates=int(np.count_nonzero(status == CANDIDATE)), ties=n_ties,
                       ties_exact=decided, flagged=flagged,
                       upto=_upto(at, tied, tied & bool(decided)))
