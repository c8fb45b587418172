r"""Families of confusion matrices: metrics of matrices whose counts are SymPy expressions.

* :func:`symbolic_metric` — a classical metric (MER, MAE, MSE, RMSE, AMAE,
  MMAE, macro RMSE, :math:`\tau_b`, :math:`R_s`, :math:`r_{int}`, TC, STC,
  George's d and tie-break) of a matrix whose counts are expressions in
  symbols, e.g. ``[[n, 1], [0, n]]``.  The formula is the one of
  :mod:`numeric`, evaluated on the expressions (:class:`numeric._common.SymbolicArithmetic`);
  nothing is re-derived by hand.
* :func:`family_parameter`, :func:`support_threshold`, :func:`split_by_parameter`,
  :func:`settle` — the one-parameter machinery, defined in
  :mod:`analytic.engines._family` (imported by this module and by :mod:`analytic.derivations.uoc`,
  whose ``uoc_piecewise``, ``oc_piecewise`` and ``a_uoc_symbolic`` accept
  such families) and re-exported here.
* :func:`guess_and_check` — a rational function of ``K`` fitted to exact
  values of a family indexed by ``K``, then checked on further ``K``.

One free symbol (a family indexed by an integer ``n``)
------------------------------------------------------
Every structural decision (which cells are nonzero, which class is the
worst, which line of the envelope is lowest) is the sign of a rational
function of ``n``; :func:`analytic.engines._pl.sign_threshold` finds the integer
``m`` from which all of them are constant.  The symbolic result holds for
every integer ``n >= m``; each ``n0 <= n < m`` is computed exactly on the
substituted matrix.  The answer is a ``Piecewise`` with conditions
``Eq(n, k)`` for those values and ``n >= m`` for the symbolic branch (SymPy
drops a condition its assumptions make true, e.g. ``n >= 1`` for a positive
``n``).

Several free symbols
--------------------
Only the classical metrics, and only where SymPy's assumptions decide each
count to be positive or zero; a maximum that the assumptions do not decide
stays an unevaluated ``sympy.Max``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp
from sympy.polys.polyfuncs import rational_interpolate

from analytic.engines._family import (  # noqa: F401 - the family machinery, re-exported
    MAX_SPECIAL, family_parameter, settle, split_by_parameter, support_threshold,
)
from analytic.engines._family import _matrix, _symbols
from analytic.engines._pl import UndecidedSign, sign_for_all, sign_threshold, signs_for_all
from analytic.symbols import K as K_symbol
from analytic.derivations.uoc import a_uoc_symbolic
from numeric._common import MAX_SECONDS, check_cost
from numeric._symbolic import SymbolicArithmetic
from exactfloor.parsing import parse_number
from numeric.registry import REGISTRY
from exactfloor.exact_sign import vanishes

__all__ = ["symbolic_metric", "family_parameter", "support_threshold", "split_by_parameter",
           "settle", "Conjecture", "guess_and_check", "MAX_SPECIAL"]

#: metrics computed on the path envelope (see :mod:`analytic.derivations.uoc`)
_PATH_METRICS = {"oc", "uoc", "a_uoc"}


def _support_for_all(n, m):
    """``support`` of :class:`numeric._common.SymbolicArithmetic` valid for integers ``n >= m``."""
    def support(entry):
        return sign_for_all(entry, n, m) != 0
    return support


# ---------------------------------------------------------------------------
# classical metrics
# ---------------------------------------------------------------------------
def _tidy(expr):
    """Cancel rational parts; ``Max``/``Min`` argument by argument."""
    if isinstance(expr, (sp.Max, sp.Min, sp.Abs)):
        return expr.func(*(_tidy(a) for a in expr.args))
    expr = sp.sympify(expr, strict=True)
    if expr.has(sp.Max, sp.Min, sp.Abs):
        return expr.replace(lambda e: isinstance(e, (sp.Max, sp.Min, sp.Abs)), _tidy)
    return sp.factor(sp.cancel(sp.together(expr)))


def _decide_extrema(expr, n, m):
    """Resolve every ``Max``, ``Min`` and ``Abs`` of rational functions of ``n`` for all ``n >= m``.

    Raises :class:`UndecidedSign` (with the threshold) when an order of two
    arguments, or a sign, changes after ``m``; arguments that are not
    rational functions of ``n`` are kept unevaluated.
    """
    def signs(e):
        e = sp.cancel(sp.together(e))
        if not e.is_rational_function(n):
            return None
        found = signs_for_all(e, n, m)
        if {-1, 1} <= found:  # from where is it one-signed (zeros allowed)?
            k = next(k for k in range(m + 1, sign_threshold(e, n, m) + 1)
                     if not {-1, 1} <= signs_for_all(e, n, k))
            raise UndecidedSign(f"the sign of {e} changes for {n} >= {m}", k)
        return found

    def resolve(e):
        if isinstance(e, sp.Abs):
            s = signs(e.args[0])
            if s is None:
                return e
            return -e.args[0] if -1 in s else e.args[0]
        keep = list(e.args)
        sign = 1 if isinstance(e, sp.Max) else -1
        for x in list(keep):
            for y in keep:
                s = None if y is x else signs(x - y)
                if s is not None and all(sign * v <= 0 for v in s):  # x never beats y
                    keep.remove(x)
                    break
        return e.func(*keep)
    return expr.replace(lambda e: isinstance(e, (sp.Max, sp.Min, sp.Abs)), resolve)


def _resolve_metric(metric):
    if callable(metric):
        return getattr(metric, "__name__", None), metric
    try:
        record = REGISTRY[metric]
    except KeyError:
        raise ValueError(f"unknown metric {metric!r}; one of {sorted(REGISTRY)}") from None
    return metric, record.function


def symbolic_metric(metric, cm, *, n0=None, **kwargs):
    r"""A metric of a matrix of symbolic counts, as a SymPy expression in the symbols.

    .. math:: m(C(n)) \;\text{for every admissible}\; n,\qquad
              C(n)_{r,c} \in \mathbb{Z}_{\ge 0}[n]

    The formula is the metric's own (its source equation is in the
    docstring of the :mod:`numeric` function), evaluated on expressions.

    Parameters
    ----------
    metric : str or callable
        A name of :data:`numeric.registry.REGISTRY` (``"mae"``,
        ``"kendall_tau_b"``, ...) or the function itself.  ``"a_uoc"`` is
        passed to :func:`analytic.derivations.uoc.a_uoc_symbolic`; ``"oc"``/``"uoc"`` depend on
        beta: use :func:`analytic.derivations.uoc.oc_piecewise` / ``uoc_piecewise``.
    cm : array_like of SymPy expressions, shape (K, K)
        ``cm[i][j]``: true class ``i`` predicted as ``j``.
    n0 : int, optional
        One free integer symbol ``n``: the family is ``n >= n0`` (default from
        the assumptions, see :func:`family_parameter`).
    **kwargs
        Passed to the metric (e.g. ``missing="zero"``).

    Returns
    -------
    sympy.Expr or sympy.Piecewise
        One symbol: exact for every integer ``n >= n0``, with ``Eq(n, k)``
        branches below the threshold of :func:`support_threshold` and of
        the maxima (``MMAE``, ``TC_max``), which are decided.  Several
        symbols: an expression valid wherever the symbols' assumptions hold,
        a maximum left as ``sympy.Max`` when SymPy cannot order it.

    Raises
    ------
    ValueError
        Invalid counts (negative, non-integer, undecided zero), an unknown
        metric, a metric undefined on the family (e.g. tau_b with one class).
    NotImplementedError
        Several symbols for a path metric, or a threshold beyond
        :data:`MAX_SPECIAL` values.

    Examples
    --------
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> symbolic_metric("mae", [[n, 1], [0, n]])
    1/(2*n + 1)
    >>> symbolic_metric("mmae", [[n, 0, 1], [0, 1, 0], [1, 0, 2]])
    Piecewise((1, Eq(n, 1)), (2/3, n >= 2))
    >>> a, b = sp.symbols("a b", integer=True, positive=True)
    >>> symbolic_metric("mmae", [[a, 1], [1, b]])
    Max(1/(a + 1), 1/(b + 1))
    """
    name, fn = _resolve_metric(metric)
    if name in _PATH_METRICS:
        if name == "a_uoc" and not kwargs:
            return a_uoc_symbolic(cm, n0=n0)
        raise ValueError(f"{name} depends on beta: use analytic.{name}_piecewise")
    a = _matrix(cm)
    syms = _symbols(a)
    if not syms:
        return fn(a, arithmetic="exact", **kwargs)
    if len(syms) > 1 or not next(iter(syms)).is_integer:
        return _tidy(fn(a, arithmetic=SymbolicArithmetic(), **kwargs))
    n, n0 = family_parameter(a, n0)

    def general(m):
        value = _tidy(fn(a, arithmetic=SymbolicArithmetic(_support_for_all(n, m)), **kwargs))
        return _tidy(_decide_extrema(value, n, m))

    m, value = settle(general, n, support_threshold(a, n, n0))
    subs = np.vectorize(lambda v, k: v.subs(n, k), otypes=[object])

    def special(k):
        return fn(subs(a, k), arithmetic="exact", **kwargs)
    return split_by_parameter(n, n0, m, special, value)


# ---------------------------------------------------------------------------
# guess and check
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Conjecture:
    """A closed form fitted to a family's exact values (see :func:`guess_and_check`).

    Parameters
    ----------
    expr : sympy.Expr or None
        The rational function of the parameter (``None``: nothing fitted).
    fitted_on : tuple of int
        The parameter values whose exact values determined ``expr``.
    checked_on : tuple of int
        Further values where ``expr`` was compared with the family.
    status : str
        ``"conjecture, checked for K <= m"``, ``"refuted at K = k"``,
        ``"proved (...)"`` or ``"no rational function fits"``.
    counterexample : tuple or None
        ``(k, exact value, predicted value)`` of a refutation.

    Examples
    --------
    >>> from fractions import Fraction
    >>> c = guess_and_check(lambda k: Fraction(k, k + 1), range(1, 6), range(6, 9))
    >>> c.expr, c.fitted_on, c.checked_on, c.counterexample
    (K/(K + 1), (1, 2, 3), (4, 5, 6, 7, 8), None)
    """

    expr: object
    fitted_on: tuple
    checked_on: tuple
    status: str
    counterexample: tuple | None = None


def _exact_rational(v, k):
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return sp.Integer(int(v))
    if isinstance(v, sp.Basic) and v.is_Rational:
        return v
    raise ValueError(f"f({k}) must be an exact rational number, got {v!r}")


def _predict(expr, var, k):
    num, den = sp.fraction(sp.together(expr))
    d = den.subs(var, k)
    return None if d == 0 else num.subs(var, k) / d


#: one core: :func:`guess_and_check`'s fit rounds take about this many seconds times
#: ``T**4`` for ``T`` rounds (every split of the degree, factored); measured on a
#: degree-29 guess that no fit matches (2026-12-07, a loaded 2-core host): T = 10
#: 1.2 s, 14 5.0 s, 18 12.6 s (1.2e-4 to 1.3e-4 T**4)
FIT_SECONDS_PER_ROUND4 = 1.3e-4


def guess_and_check(f, K_values, check_K=(), *, var=K_symbol, holdout=2, proof=None,
                    proof_source=None, max_seconds=MAX_SECONDS):
    r"""Fit a rational function of ``K`` to exact values ``f(K)``, then check it further.

    .. math:: f(K) \overset{?}{=} \frac{p(K)}{q(K)},\quad
              \deg p + \deg q + 1 = \#\text{fit points}

    The fit uses the first ``t`` values of ``K_values`` (SymPy's
    ``rational_interpolate``, every split of the degree between numerator
    and denominator), for ``t = 1, 2, ...``; the first candidate that
    predicts every remaining value of ``K_values`` exactly (at least
    ``holdout`` of them) is kept.  It is then compared with ``f(K)`` at every
    ``K`` of ``check_K``.  A fit is a *conjecture*: it is labelled
    ``"conjecture, checked for K <= m"`` (``m`` the largest ``K`` compared),
    ``"refuted at K = k"`` at the first disagreement, and ``"proved (...)"``
    only when a symbolic derivation ``proof`` is given and equals it.

    Parameters
    ----------
    f : callable
        ``f(K)`` returns an exact rational (int, Fraction, sympy.Rational).
    K_values : sequence of int
        Values used for fitting (in order).
    check_K : sequence of int
        Further values to check the fitted form on.
    var : sympy.Symbol
        The variable of the form (default :data:`analytic.symbols.K`).
    holdout : int
        How many values of ``K_values`` beyond the fit points must be predicted.
    proof : sympy.Expr or str, optional
        A closed form derived symbolically, valid on every value compared; a
        string is parsed by :func:`exactfloor.parsing.parse_number` (in ``var``),
        never evaluated.
    proof_source : str, optional
        Where ``proof`` comes from (shown in ``status``).
    max_seconds : float or None, default 60
        The cap on the estimated time of the fit (one core, at most
        ``T = len(K_values) - holdout`` rounds, :data:`FIT_SECONDS_PER_ROUND4`
        ``* T**4``; the time of ``f`` is not counted): above it the call refuses
        (``ValueError``) before calling ``f``; above 30 s it warns first
        (:class:`numeric.CostWarning`).  ``None`` lifts the cap.

    Returns
    -------
    Conjecture

    Examples
    --------
    A_UOC of the K-class tridiagonal matrix of ones (silva2018 Fig. 3),
    fitted from :func:`numeric.a_uoc` and checked up to K = 14; the form of
    :func:`analytic.tridiagonal_forms` (derived by the band-1 lemma) then
    proves it:

    >>> import numeric
    >>> tri = lambda k: numeric.a_uoc(np.eye(k, dtype=int) + np.eye(k, k, 1, dtype=int)
    ...                               + np.eye(k, k, -1, dtype=int), arithmetic="exact")
    >>> c = guess_and_check(tri, range(3, 11), range(11, 15))
    >>> c.expr, c.status
    ((37*K**2 - 28*K + 4)/(2*(5*K - 1)**2), 'conjecture, checked for K <= 14')
    """
    K_values, check_K = [int(k) for k in K_values], [int(k) for k in check_K]
    if proof is not None:  # a string is parsed in ``var``, never evaluated
        proof = parse_number(proof, what="proof", names={str(var): var})
    if holdout < 1:
        raise ValueError(f"holdout must be >= 1, got {holdout}")
    if len(K_values) <= holdout:
        raise ValueError(f"K_values needs more than holdout = {holdout} values")
    rounds = len(K_values) - holdout
    check_cost(FIT_SECONDS_PER_ROUND4 * rounds**4, max_seconds,
               f"guess_and_check: up to {rounds} fit rounds (a rational guess of degree up to "
               f"{rounds - 1}; fewer K_values fit less)")
    data = [(k, _exact_rational(f(k), k)) for k in K_values]
    expr, used = None, ()
    for t in range(1, len(data) - holdout + 1):
        for degnum in range(t - 1, -1, -1):
            try:
                cand = sp.factor(rational_interpolate(data[:t], degnum, X=var))
            except ZeroDivisionError:
                continue
            if all(_predict(cand, var, k) == y for k, y in data):
                expr, used = cand, tuple(K_values[:t])
                break
        if expr is not None:
            break
    if expr is None:
        return Conjecture(None, tuple(K_values), (), "no rational function fits")
    checked = []
    for k in check_K:
        want, got = _exact_rational(f(k), k), _predict(expr, var, k)
        checked.append(k)
        if want != got:
            return Conjecture(expr, used, tuple(checked), f"refuted at {var} = {k}", (k, want, got))
    top = max(K_values + check_K)
    status = f"conjecture, checked for {var} <= {top}"
    if proof is not None:
        if vanishes(proof - expr):
            status = f"proved ({proof_source or 'equals the given derivation'})"
        else:
            status = f"refuted by the derivation ({proof_source or 'proof'})"
    return Conjecture(expr, used, tuple(K_values[len(used):]) + tuple(check_K), status)
