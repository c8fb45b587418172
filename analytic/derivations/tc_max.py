r"""TC_max in closed form, derived from binotto2024 Prop. 1 by SymPy.

binotto2024 Prop. 1: the worst matrix sends every true class ``j`` as a whole
to the class ``i_j = argmax_l |l - j| / n_l``, so

.. math::

    \mathrm{TC}_{max} = \frac1N \sum_{j=1}^r n_j (N - n_j)
        \max_{\ell} \frac{|\ell - j|}{n_\ell}.

:func:`tc_max_symbolic` is that expression for symbolic counts (Prop. 2 for
``r = 2``); :func:`tc_max_balanced` carries the construction out for
``n_j = N/r`` and a symbolic number of classes ``r``: the split index ``h``
is solved for, the two sums are done by :func:`sympy.summation` on each parity
of ``r``, and the result is returned as a ``Piecewise`` on the parity.  The
printed Prop. 3 (both forms) and Corollary 1 are *checked* against it in
``proofs_tests/test_analytic_tc_max.py``; nothing of them is typed in here.

Only class counts are involved (no confusion matrix), so the rows/columns
convention does not arise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from analytic.derivations.intervals import prop4_max_form
from analytic.symbols import r
from exactfloor.parsing import parse_number

__all__ = [
    "tc_max_symbolic", "tc_max_balanced", "derive_tc_max_balanced", "BalancedDerivation",
    "corollary1_differences", "positive_for_integers_from",
]


def tc_max_symbolic(class_counts):
    r"""TC_max of binotto2024 Prop. 1 for numeric or symbolic class counts.

    .. math::

        \mathrm{TC}_{max} = \frac1N \sum_{j=1}^r n_j (N - n_j)
            \max_{\ell \ne j} \frac{|\ell - j|}{n_\ell}

    Parameters
    ----------
    class_counts : sequence of positive numbers or positive symbols

    Returns
    -------
    sympy.Expr
        Exact; ``Max`` remains where the assumptions do not decide it.

    Examples
    --------
    >>> import sympy
    >>> n1, n2 = sympy.symbols("n1 n2", positive=True)
    >>> tc_max_symbolic([n1, n2])            # binotto2024 Prop. 2
    1
    >>> tc_max_symbolic([5, 5, 5])           # binotto2024 Prop. 3, r = 3
    10/3
    """
    n = [parse_number(c, what="class count") for c in class_counts]
    if not n:
        raise ValueError("class_counts must hold at least one class")
    for c in n:
        if c.is_positive is not True:
            raise ValueError(f"class counts must be positive, got {c}")
    if len(n) == 1:
        return sp.Integer(0)
    # Prop. 1 is Prop. 4 with unit lengths (delta = n, Hausdorff distance |l - j|)
    return sp.cancel(prop4_max_form(n, [sp.Integer(1)] * len(n)))


@dataclass(frozen=True)
class BalancedDerivation:
    """The steps of :func:`tc_max_balanced` (binotto2024 Prop. 1 with n_j = N/r).

    Parameters
    ----------
    m : sympy.Symbol
        The half of the number of classes: ``r = 2m`` or ``r = 2m + 1``.
    split : sympy.Basic
        The condition on ``j`` under which class ``r`` is the worst target
        (solved from ``r - j >= j - 1``).
    h_even, h_odd : sympy.Expr
        The last such ``j`` for ``r = 2m`` and ``r = 2m + 1``.
    even_m, odd_m : sympy.Expr
        TC_max as polynomials in ``m``.
    even, odd : sympy.Expr
        The same in ``r``.

    Examples
    --------
    >>> d = derive_tc_max_balanced()
    >>> d.even
    (r - 1)*(3*r - 2)/4
    """

    m: sp.Symbol
    split: sp.Basic
    h_even: sp.Expr
    h_odd: sp.Expr
    even_m: sp.Expr
    odd_m: sp.Expr
    even: sp.Expr
    odd: sp.Expr


@lru_cache(maxsize=1)
def derive_tc_max_balanced() -> BalancedDerivation:
    r"""Carry out binotto2024 Prop. 1's construction for balanced counts.

    With ``n_l = N/r`` the cost of sending true class ``j`` to ``l`` is
    proportional to ``|l - j|``, which is convex in ``l``: its maximum over
    ``1..r`` is at ``l = 1`` (value ``j - 1``) or ``l = r`` (value ``r - j``).
    Class ``r`` wins for ``r - j >= j - 1``; solving for ``j`` gives
    ``j <= (r + 1)/2``, so ``h = floor((r + 1)/2)``, evaluated on each parity
    (``r = 2m``, ``r = 2m + 1``).  Then

    .. math::

        \mathrm{TC}_{max} = \frac1N\Big(\sum_{j=1}^{h} K_j + \sum_{j=h+1}^{r} K_j\Big),
        \quad K_j = n_j\,\frac{N - n_j}{n_{i_j}}\,|i_j - j|

    is summed by :func:`sympy.summation` with symbolic ``N`` and ``m``.

    Examples
    --------
    >>> d = derive_tc_max_balanced()
    >>> d.split, d.h_even, d.h_odd
    (j <= r/2 + 1/2, m, m + 1)
    """
    m = sp.Symbol("m", integer=True, nonnegative=True)
    j = sp.Symbol("j", integer=True, positive=True)
    N = sp.Symbol("N", positive=True)
    R = sp.Symbol("r", positive=True)  # real stand-in of r for solving in j
    jr = sp.Symbol("j", real=True)
    split = sp.solve(sp.Le(jr - 1, R - jr), jr)  # r - j >= j - 1
    bound = sp.solve(sp.Eq(jr - 1, R - jr), jr)[0]  # (r + 1)/2
    split = split.subs({R: r, jr: j}) if split is not None else split

    out = {}
    for name, rr in (("even", 2 * m), ("odd", 2 * m + 1)):
        h = sp.floor(bound.subs(R, rr))
        n_j = N / rr  # every class holds N / r samples
        K_to_r = n_j * (N - n_j) / n_j * (rr - j)  # i_j = r for j <= h
        K_to_1 = n_j * (N - n_j) / n_j * (j - 1)  # i_j = 1 for j > h
        total = (sp.summation(K_to_r, (j, 1, h)) + sp.summation(K_to_1, (j, h + 1, rr))) / N
        out[name] = (h, sp.factor(sp.simplify(total)))
    h_even, even_m = out["even"]
    h_odd, odd_m = out["odd"]
    even = sp.factor(even_m.subs(m, r / 2))
    odd = sp.factor(odd_m.subs(m, (r - 1) / 2))
    return BalancedDerivation(m, split, h_even, h_odd, even_m, odd_m, even, odd)


def tc_max_balanced():
    r"""TC_max for ``r`` perfectly balanced classes, as a ``Piecewise`` on the parity of ``r``.

    .. math::

        \mathrm{TC}_{max}(r) = \begin{cases}
            \frac{(r-1)(3r-2)}{4} & r \text{ even}\\
            \frac{(r-1)^2 (3r+1)}{4r} & r \text{ odd}
        \end{cases}

    Derived by :func:`derive_tc_max_balanced` from binotto2024 Prop. 1 (the
    formula above is what the derivation returns, not an input); it equals
    binotto2024 Prop. 3 in both printed forms (``proofs_tests``).

    Returns
    -------
    sympy.Piecewise
        In the symbol :data:`analytic.symbols.r` (positive integer), valid for
        every ``r >= 1`` (``0`` at ``r = 1``).

    Examples
    --------
    >>> from analytic.symbols import r
    >>> tc_max_balanced()
    Piecewise(((r - 1)*(3*r - 2)/4, Eq(Mod(r, 2), 0)), ((r - 1)**2*(3*r + 1)/(4*r), True))
    >>> [tc_max_balanced().subs(r, k) for k in (1, 2, 3, 4)]
    [0, 1, 10/3, 15/2]
    """
    d = derive_tc_max_balanced()
    return sp.Piecewise((d.even, sp.Eq(sp.Mod(r, 2), 0)), (d.odd, True))


def corollary1_differences():
    r"""``(TC(2k+1) - TC(2k), TC(2k+2) - TC(2k+1))`` from :func:`tc_max_balanced`.

    binotto2024 Corollary 1 states both are positive for every ``k >= 1``;
    :func:`positive_for_integers_from` decides that exactly.

    Returns
    -------
    tuple of sympy.Expr
        The two differences, factored rational functions of a positive integer ``k``.

    Examples
    --------
    >>> d1, d2 = corollary1_differences()
    >>> d1
    (12*k**2 + 3*k - 1)/(2*(2*k + 1))
    """
    k = sp.Symbol("k", integer=True, positive=True)
    pw = tc_max_balanced()
    even = pw.args[0].expr
    odd = pw.args[1].expr
    d1 = sp.factor(sp.cancel(odd.subs(r, 2 * k + 1) - even.subs(r, 2 * k)))
    d2 = sp.factor(sp.cancel(even.subs(r, 2 * k + 2) - odd.subs(r, 2 * k + 1)))
    return d1, d2


def positive_for_integers_from(expr, var, start=1):
    """Whether the rational function ``expr`` of ``var`` is > 0 for every real ``var >= start``.

    Exact: numerator and denominator have no real root in ``[start, oo)``
    (Sturm count, :meth:`sympy.Poly.count_roots`) and are positive at ``start``.
    (Then in particular for every integer ``var >= start``.)

    Parameters
    ----------
    expr : sympy.Expr or str
        A rational function of ``var`` (a string is parsed by
        :func:`exactfloor.parsing.parse_number`, never evaluated).
    var : sympy.Symbol
        Its variable.
    start : number, default 1
        The left end of the range.

    Returns
    -------
    bool
        ``True`` if ``expr > 0`` for every real ``var >= start``.

    Raises
    ------
    TypeError
        If ``var`` is not a SymPy Symbol.

    Examples
    --------
    >>> import sympy
    >>> k = sympy.Symbol("k")
    >>> positive_for_integers_from(k**2 - 2, k, 1), positive_for_integers_from(k**2 - 2, k, 2)
    (False, True)
    """
    if not isinstance(var, sp.Symbol):
        raise TypeError(f"var must be a SymPy Symbol, got {var!r:.60}")
    start = parse_number(start, what="start")
    num, den = sp.fraction(sp.cancel(sp.together(parse_number(expr, what="expression"))))
    polys = [sp.Poly(p, var) for p in (num, den)]
    if any(p.count_roots(start, None) != 0 for p in polys):
        return False  # a sign change or a zero in [start, oo)
    return bool(polys[0].eval(start) * polys[1].eval(start) > 0)
