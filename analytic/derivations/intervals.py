r"""Interval TC_max and the optimal rightmost length, derived symbolically.

binotto2024 §4-§5 and Appendix A.  Classes are consecutive intervals
``I_1, ..., I_r`` of lengths ``l_1, ..., l_r`` holding ``n_1, ..., n_r``
samples.  Prop. 4 gives

.. math::

    \widehat{\mathrm{TC}}_{max} = \frac1N \sum_{j=1}^r n_j\,(\Delta - \delta_j)
        \max_{\ell \ne j} \frac{d(I_\ell, I_j)}{\delta_\ell},\qquad
    \delta_k = \frac{n_k}{l_k},\ \Delta = \sum_k \delta_k,

with the Hausdorff distance (eq. 7) ``d(I_i, I_j) = max(|a_j - a_i|,
|b_j - b_i|)``.  Each term is a positive coefficient times a maximum of
*atoms* ``l_l * (a Hausdorff branch) / n_l``, polynomials in the lengths, so
as a function of a free length ``x`` (and a parameter ``L``) it is piecewise
rational with breakpoints at atom ties.  :mod:`analytic.engines._sweep` finds the
pieces, the breakpoints as algebraic functions of ``L`` and the ``L``-cells on
which that pattern holds, then the minimiser in ``x`` cell by cell.  Nothing of
Appendix A is typed in: its cases a, b.1, b.2, b.3 and Prop. 6's boundaries
``(1 + sqrt 5)/2`` and ``(3 + sqrt 5)/2`` come out of the sweep, and the tests
compare them with the printed ones.

Matrices are not involved here (only class counts), so the rows/columns
convention does not arise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import sympy as sp

from analytic.engines._sweep import MaxSum
from analytic.symbols import L, x
from exactfloor.parsing import parse_number

__all__ = [
    "interval_tc_max_symbolic", "optimal_last_length_piecewise",
    "derive_optimal_last_length", "OptimalLengthForms", "LastLengthDerivation",
    "Case", "Optimum", "prop4_max_form",
]


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------
def _counts(class_counts):
    try:
        n = [parse_number(c, what="class count") for c in class_counts]
    except TypeError:
        raise ValueError("class_counts must be a sequence of positive numbers or symbols") from None
    if len(n) < 2:
        raise ValueError(f"class_counts must hold at least 2 classes, got {len(n)}")
    for c in n:
        if c.is_positive is not True:
            raise ValueError(f"class counts must be positive, got {c}")
    return tuple(n)


def _lengths(lengths, r):
    try:
        ls = [parse_number(v, what="length") for v in lengths]
    except TypeError:
        raise ValueError("lengths must be a sequence of positive numbers or expressions") from None
    if len(ls) != r:
        raise ValueError(f"lengths has {len(ls)} entries but there are {r} classes")
    for v in ls:
        if v.is_positive is not True:
            raise ValueError(f"lengths must be positive (use positive symbols), got {v}")
    return tuple(ls)


def _prop4_terms(n, ls):
    """binotto2024 Prop. 4, term by term: ``N`` and, per true class ``j``,
    ``(n_j (Delta - delta_j), [(l_l / n_l, |a_l - a_j|, |b_l - b_j|) for l != j])``
    with ``delta_k = n_k / l_k``, ``Delta = sum delta`` and ``I_k = [a_k, b_k)``."""
    r = len(n)
    delta = [n[k] / ls[k] for k in range(r)]
    Delta = sum(delta)
    a = [sum(ls[:k], sp.Integer(0)) for k in range(r)]
    b = [sum(ls[:k + 1], sp.Integer(0)) for k in range(r)]
    terms = [(n[j] * (Delta - delta[j]),
              [(ls[l] / n[l], abs(a[l] - a[j]), abs(b[l] - b[j])) for l in range(r) if l != j])
             for j in range(r)]
    return sum(n), terms


def _model(n, ls):
    """Prop. 4 as coefficients and atoms of a :class:`MaxSum` (see the module docstring)."""
    N, terms = _prop4_terms(n, ls)
    coefs = [w / N for w, _ in terms]
    atoms = [[f * d for f, da, db in others for d in (da, db)] for _, others in terms]
    return coefs, atoms


def prop4_max_form(n, ls):
    r"""binotto2024 Prop. 4 written with ``Max``, exact for every positive value of the symbols.

    .. math::

        \widehat{\mathrm{TC}}_{max} = \frac1N \sum_{j} n_j\,(\Delta - \delta_j)
            \max_{\ell \ne j} \frac{l_\ell}{n_\ell}\,
            \max\big(|a_\ell - a_j|,\ |b_\ell - b_j|\big)

    The factor ``l_l / n_l`` is kept outside the inner ``Max``: that
    is what lets SymPy reduce Prop. 5 to ``Max(l_1, l_2)``.  With unit
    lengths it is Prop. 1 (:func:`analytic.derivations.tc_max.tc_max_symbolic`).

    Parameters
    ----------
    n : sequence
        The class counts (numbers or SymPy expressions; a string is parsed by
        :func:`exactfloor.parsing.parse_number`, never evaluated).
    ls : sequence
        The intervals' lengths, one per class, likewise.  Not otherwise
        checked: :func:`interval_tc_max_symbolic` is the checked entry point.

    Returns
    -------
    sympy.Expr
        :math:`\widehat{\mathrm{TC}}_{max}`, with ``Max`` where the symbols leave it open.

    Examples
    --------
    >>> prop4_max_form([sp.Integer(5)] * 3, [sp.Integer(1)] * 3)   # binotto2024 Prop. 3, r = 3
    10/3
    """
    n = [parse_number(v, what="class count") for v in n]  # a string is parsed, never evaluated
    ls = [parse_number(v, what="length") for v in ls]
    N, terms = _prop4_terms(n, ls)
    return sp.Add(*[w * sp.Max(*[f * sp.Max(da, db) for f, da, db in others])
                    for w, others in terms]) / N


# ---------------------------------------------------------------------------
# interval TC_max
# ---------------------------------------------------------------------------
def interval_tc_max_symbolic(class_counts, lengths, *, variable=None):
    r"""Exact interval TC_max (binotto2024 Prop. 4) for lengths that may be symbols.

    .. math::

        \widehat{\mathrm{TC}}_{max} = \frac1N \sum_{j} n_j\,(\Delta - \delta_j)
            \max_{\ell \ne j} \frac{d(I_\ell, I_j)}{\delta_\ell}

    Parameters
    ----------
    class_counts : sequence of positive integers (or positive symbols)
    lengths : sequence of positive numbers or expressions, one per class
        Polynomials in positive symbols (e.g. ``analytic.symbols.x``, ``analytic.symbols.L``).
    variable : sympy.Symbol, optional
        With two free symbols, the one the inner ``Piecewise`` is ordered in;
        default: the last length, if it is a symbol.

    Returns
    -------
    sympy.Expr
        * no free symbol: the exact number;
        * one free symbol ``s``: an ordered ``Piecewise`` in ``s``,
          ``(F_1, s <= b_1), ..., (F_k, True)``, with exact algebraic
          breakpoints ``b_i`` (atom ties);
        * two free symbols (``variable`` and a parameter ``p``, counts
          numeric): an ordered ``Piecewise`` in ``p`` whose branches are the
          ordered ``Piecewise`` in ``variable`` of each case, with breakpoints
          algebraic functions of ``p`` (binotto2024 Appendix A's cases for
          ``lengths = (1, L, x)``);
        * otherwise (symbolic counts, more symbols, non-polynomial lengths):
          Prop. 4 written with ``sympy.Max``, exact for all positive values.

    Notes
    -----
    At a case boundary ``p = c`` the left case applies (``p <= c``); it is
    valid there by continuity of TC_max in ``(x, p)`` (checked: each
    breakpoint of the left case is finite at ``c``).

    References
    ----------
    binotto2024 Prop. 4, Prop. 5, Appendix A.

    Examples
    --------
    >>> from analytic.symbols import x
    >>> interval_tc_max_symbolic([5, 5, 5], [1, 1, x])   # binotto2024 §5 toy example
    Piecewise((2 + 2/(3*x), x <= 1/2), (2*x/3 + 7/3 + 1/(3*x), x <= 1), (2*x**2/3 + 5*x/3 + 1, True))
    >>> import sympy
    >>> l1, l2, n1, n2 = sympy.symbols("l1 l2 n1 n2", positive=True)
    >>> interval_tc_max_symbolic([n1, n2], [l1, l2])    # binotto2024 Prop. 5
    Max(l1, l2)
    """
    n = _counts(class_counts)
    ls = _lengths(lengths, len(n))
    free = set().union(*[v.free_symbols for v in ls])
    counts_numeric = all(c.is_Rational for c in n)
    polynomial = all(v.is_polynomial(*free) for v in ls) if free else True
    if not free and counts_numeric:
        return sp.simplify(prop4_max_form(n, ls))
    if counts_numeric and polynomial and len(free) == 1:
        (s,) = free
        coefs, atoms = _model(n, ls)
        return _piecewise_in(MaxSum(coefs, atoms, s, None), s)
    if counts_numeric and polynomial and len(free) == 2:
        if variable is None:
            variable = ls[-1] if ls[-1].is_Symbol else None
        if variable is None or variable not in free:
            raise ValueError("with two free symbols, give variable= (one of them)")
        (param,) = free - {variable}
        return _nested(_cases(n, ls, variable, param), variable, param)
    return sp.cancel(prop4_max_form(n, ls))


def _piecewise_in(model, s):
    st = model.structure_at(None)
    breaks = model.symbolic_breaks(st, None)
    branches = []
    for k, sel in enumerate(st.pieces):
        f = model.piece(sel)
        branches.append((f, s <= breaks[k][0]) if k < len(breaks) else (f, True))
    return sp.Piecewise(*branches)


@dataclass(frozen=True)
class Case:
    """One case (parameter interval) of the piecewise TC_max in ``x``.

    On ``lower < L <= upper`` (``upper = oo`` for the last case), TC_max is
    ``pieces[k][0]`` for ``pieces[k-1][1] < x <= pieces[k][1]``.

    Parameters
    ----------
    lower, upper : sympy.Expr
        The parameter interval.
    pieces : tuple
        ``((F_k(x, L), b_k(L)), ...)``: each piece and its right end; the last ``b_k`` is ``oo``.

    Examples
    --------
    >>> c = derive_optimal_last_length([1, 1, 1]).cases[0]
    >>> c.lower, c.upper, c.pieces[-1][1]
    (0, 1, oo)
    """

    lower: sp.Expr
    upper: sp.Expr
    pieces: tuple  # ((F_k(x, L), b_k(L)), ...), last b_k = oo

    def piecewise(self, variable=x):
        """This case as an ordered ``Piecewise`` in ``variable``."""
        return sp.Piecewise(*[(f, variable <= b) if b != sp.oo else (f, True)
                              for f, b in self.pieces])


@lru_cache(maxsize=32)
def _model_cached(n, ls, variable, param):
    coefs, atoms = _model(n, ls)
    return MaxSum(coefs, atoms, variable, param)


def _cases(n, ls, variable, param):
    model = _model_cached(n, ls, variable, param)
    return tuple(Case(c.lower, c.upper, tuple(c.pieces)) for c in model.structure_cells())


def _closed(expr_list, param, c):
    """Whether every expression is finite and real at ``param = c``."""
    for e in expr_list:
        v = sp.N(e.subs(param, c), 30)
        if not (v.is_real and v.is_finite):
            return False
    return True


def _nested(cases, variable, param):
    branches = []
    for k, case in enumerate(cases):
        inner = case.piecewise(variable)
        if case.upper == sp.oo:
            branches.append((inner, True))
            continue
        ok = _closed([b for _, b in case.pieces if b != sp.oo], param, case.upper)
        if not ok:  # pragma: no cover - does not occur for r = 3
            raise NotImplementedError(f"case {k} is not valid at its upper end {case.upper}")
        branches.append((inner, param <= case.upper))
    return sp.Piecewise(*branches)


# ---------------------------------------------------------------------------
# the optimal rightmost length
# ---------------------------------------------------------------------------
class OptimalLengthForms(NamedTuple):
    """Result of :func:`optimal_last_length_piecewise`: two ``Piecewise`` in ``L``.

    Parameters
    ----------
    x_opt : sympy.Expr
        The length of the last interval that minimises interval TC_max.
    tc_max_opt : sympy.Expr
        The minimum value of interval TC_max.

    Examples
    --------
    >>> forms = optimal_last_length_piecewise([1, 1, 1])
    >>> forms.tc_max_opt.subs(L, 1)
    2*sqrt(2)/3 + 7/3
    """

    #: the length of the last interval that minimises interval TC_max
    x_opt: sp.Expr
    #: the minimum value of interval TC_max
    tc_max_opt: sp.Expr


@dataclass(frozen=True)
class Optimum:
    """On ``lower < L <= upper`` the minimiser is ``x_opt(L)``, the minimum ``value(L)``.

    Parameters
    ----------
    lower, upper : sympy.Expr
        The parameter interval.
    kind : str
        ``"critical point"`` (a zero of the derivative of ``piece``) or
        ``"breakpoint"`` (a kink of TC_max, where ``piece`` ends).
    x_opt, value : sympy.Expr
        The minimiser and the minimum, in ``L``.
    piece : sympy.Expr
        The piece of TC_max in ``x`` and ``L`` that holds the minimum.

    Examples
    --------
    >>> o = derive_optimal_last_length([1, 1, 1]).optima[-1]
    >>> o.kind, o.x_opt
    ('critical point', sqrt(L))
    """

    lower: sp.Expr
    upper: sp.Expr
    kind: str
    x_opt: sp.Expr
    value: sp.Expr
    piece: sp.Expr


@dataclass(frozen=True)
class LastLengthDerivation:
    """The full derivation behind :func:`optimal_last_length_piecewise`.

    Parameters
    ----------
    class_counts : tuple
        The counts divided by their gcd (the result depends on the proportions only).
    lengths : tuple
        The lengths, the last one the symbol ``x``.
    cases : tuple of Case
        The piecewise TC_max in ``x`` on each parameter interval (binotto2024 Appendix A's cases).
    optima : tuple of Optimum
        The minimiser on each parameter interval (Prop. 6's branches).
    forms : OptimalLengthForms
        Both as ``Piecewise`` in the parameter.

    Examples
    --------
    >>> d = derive_optimal_last_length([2, 2, 2])
    >>> d.class_counts, d.lengths
    ((1, 1, 1), (1, L, x))
    """

    class_counts: tuple
    lengths: tuple
    cases: tuple
    optima: tuple
    forms: OptimalLengthForms


def _first_lengths(n, lengths):
    if lengths is None:
        if len(n) != 3:
            raise ValueError("give lengths= (the first r-1 lengths) when r != 3")
        lengths = (1, L)
    ls = [parse_number(v, what="length") for v in lengths]
    if len(ls) != len(n) - 1:
        raise ValueError(f"lengths must hold the first r-1 = {len(n) - 1} lengths, got {len(ls)}")
    free = set().union(*[v.free_symbols for v in ls])
    if len(free) != 1:
        raise ValueError("the first r-1 lengths must hold exactly one free symbol (the parameter)")
    if x in free:
        raise ValueError("x is the free last length; use another symbol for the parameter")
    return tuple(ls), free.pop()


@lru_cache(maxsize=32)
def _derive(n, first, param):
    ls = _lengths(first + (x,), len(n))
    model = _model_cached(n, ls, x, param)
    cases = _cases(n, ls, x, param)
    optima = tuple(Optimum(c.lower, c.upper, c.kind, c.x_opt, c.value, c.piece)
                   for c in model.optimum_cells())
    xb, vb = [], []
    for k, o in enumerate(optima):
        if o.upper == sp.oo:
            cond = True
        else:
            if not _closed([o.x_opt, o.value], param, o.upper):  # pragma: no cover
                raise NotImplementedError(f"optimum {k} is not valid at {o.upper}")
            cond = param <= o.upper
        for branches, e in ((xb, o.x_opt), (vb, o.value)):
            if branches and branches[-1][0] == e:  # the same expression: one branch
                branches[-1] = (e, cond)
            else:
                branches.append((e, cond))
    forms = OptimalLengthForms(sp.Piecewise(*xb), sp.Piecewise(*vb))
    return LastLengthDerivation(n, ls, cases, optima, forms)


def derive_optimal_last_length(class_counts, *, lengths=None):
    r"""Derive the optimal rightmost length and every step of the derivation.

    See :func:`optimal_last_length_piecewise`; this returns the
    :class:`LastLengthDerivation` (cases of TC_max in ``x``, optima per
    parameter interval, and the two ``Piecewise`` forms).

    Parameters
    ----------
    class_counts : sequence of 3 positive integers (or r, with ``lengths``)
        The class counts.
    lengths : sequence of r-1 lengths with one free positive symbol, optional
        Default ``(1, L)`` (binotto2024's ``l_1 = 1``, ``l_2 = L``).

    Returns
    -------
    LastLengthDerivation
        The cases, the optima and the two forms.

    Raises
    ------
    ValueError
        Symbolic counts, or lengths without exactly one free symbol.

    Examples
    --------
    >>> d = derive_optimal_last_length([1, 1, 1])
    >>> [(c.lower, c.upper, len(c.pieces)) for c in d.cases]   # binotto2024 App. A: a, b.1, b.2, b.3
    [(0, 1, 3), (1, 1/2 + sqrt(5)/2, 5), (1/2 + sqrt(5)/2, 2, 6), (2, oo, 4)]
    """
    n = _counts(class_counts)
    if not all(c.is_Rational for c in n):
        raise ValueError("class_counts must be numbers for the derivation")
    first, param = _first_lengths(n, lengths)
    # TC_max-hat is homogeneous of degree 0 in the counts (delta and the
    # coefficients scale by c, the atoms by 1/c): derive once per proportion
    g = sp.gcd_list(list(n)) if all(c.is_Integer for c in n) else sp.Integer(1)
    return _derive(tuple(c / g for c in n), first, param)


def optimal_last_length_piecewise(class_counts, *, lengths=None):
    r"""The length ``x`` of the last interval minimising interval TC_max, in closed form.

    .. math::

        \tilde x(L) = \arg\min_{x > 0}\ \widehat{\mathrm{TC}}_{max}
            \big(n_1, n_2, n_3;\ 1, L, x\big),\qquad
        \widehat{\mathrm{TC}}_{max}(\tilde x(L))

    binotto2024 §5, Prop. 6 (balanced counts, proof in Appendix A), derived
    here for any counts: the piecewise TC_max in ``x`` is swept over ``L``
    (breakpoints as algebraic functions of ``L``, the cases on which they keep
    their order), and in each case the candidates (breakpoints and critical
    points of the pieces) are followed until two of them exchange the minimum.

    Parameters
    ----------
    class_counts : sequence of 3 positive integers (or r, with ``lengths``)
    lengths : sequence of r-1 lengths with one free positive symbol, optional
        Default ``(1, L)`` (binotto2024's ``l_1 = 1``, ``l_2 = L``).

    Returns
    -------
    OptimalLengthForms
        ``(x_opt, tc_max_opt)``: ordered ``Piecewise`` in ``L``, branch ``k``
        holding for ``c_{k-1} < L <= c_k``, last branch ``True``.  At a
        boundary ``c_k`` the left branch is used (it is a minimiser there by
        continuity).  Where the minimum is attained on a whole interval of
        ``x`` (only ``r = 2``: TC_max = max(l_1, x), Prop. 5) the breakpoint
        ``x = l_1`` is returned.

    Notes
    -----
    The boundaries ``c_k`` are exact algebraic numbers (radicals, or
    ``CRootOf``); a minimiser is a breakpoint (a root of a quadratic atom
    tie), or a critical point of a piece ``a/x + b + c x + e x^2``: a square
    root, or for ``a, e > 0`` the positive root of a cubic, written in the
    real form valid on its cell (real Cardano or trigonometric).  Also
    checked offline for ``r = 4`` (``lengths=(1, 1, L)`` and ``(1, L, 2)``)
    against :func:`numeric.optimal_last_length` at 50 digits; a derivation
    for ``r = 4`` takes ~10-20 s.

    References
    ----------
    binotto2024 Prop. 6 and Appendix A.

    Examples
    --------
    >>> x_opt, tc_opt = optimal_last_length_piecewise([1, 1, 1])   # binotto2024 Prop. 6
    >>> x_opt
    Piecewise((sqrt(L)/sqrt(L + 1), L <= 1), (L/sqrt(L + 1), L <= 1/2 + sqrt(5)/2),
              (L*(-1 + sqrt(5))/2, L <= sqrt(5)/2 + 3/2), (sqrt(L), True))
    >>> tc_opt.subs(L, 1)          # the toy example: (2 sqrt 2 + 7)/3
    2*sqrt(2)/3 + 7/3
    """
    return derive_optimal_last_length(class_counts, lengths=lengths).forms
