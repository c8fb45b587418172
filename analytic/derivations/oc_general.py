r"""The generalised index :math:`OC^\gamma_{\beta_1;\beta_2}` of cardoso2011 eq. 8 at beta1 = beta2 = 0.

.. math:: OC^\gamma_{\beta_1;\beta_2} = \min_{\text{path}}\Big\{1 -
          \frac{\sum_{\text{path}} n_{r,c}}{N + M}
          + \beta_1\sum_{\text{path}} n_{r,c}|r-c|^\gamma
          + \beta_2 N_{disc\_pos}\Big\}

over *all* 8-adjacent paths from (1,1) to (K,K) (cardoso2011 §3.1).  With
:math:`\beta_1 = \beta_2 = 0` only the benefit is left.  A path's benefit is
the sum of the entries of the cells it holds (each cell once), so it is at
most ``N``, and :func:`covering_path` holds every cell: the minimum is
:math:`1 - N/(N+M) = M/(N+M)`.  For ``gamma = 1``, :math:`M = N\,MAE`, and
SymPy turns this into the paper's :math:`MAE/(1+MAE)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from analytic.symbols import N

__all__ = ["covering_path", "oc00_forms", "OC00Forms"]


@dataclass(frozen=True)
class OC00Forms:
    r""":math:`OC^1_{0;0}` in two forms (result of :func:`oc00_forms`).

    Parameters
    ----------
    oc00 : sympy.Expr
        :math:`1 - N/(N+M)` simplified, in :data:`analytic.symbols.N` and
        the symbol ``M`` (the Minkowski dispersion of cardoso2011 eq. 7).
    oc00_in_mae : sympy.Expr
        The same after substituting :math:`M = N\,MAE` (``gamma = 1``), in
        the symbol ``MAE``.
    M, MAE : sympy.Symbol
        The symbols of the two forms (nonnegative).
    method : str
        How the forms were obtained.

    Examples
    --------
    >>> f = oc00_forms()
    >>> f.M, f.MAE
    (M, MAE)
    """

    oc00: sp.Expr
    oc00_in_mae: sp.Expr
    M: sp.Symbol
    MAE: sp.Symbol
    method: str


def covering_path(k):
    """An 8-adjacent path from (0, 0) to (k-1, k-1) through each of the k*k cells once.

    Rows are swept alternately left-to-right and right-to-left; when ``k`` is
    even the last two rows are swept together column by column, stepping
    diagonally from ``(k-1, j)`` to ``(k-2, j+1)``.

    Parameters
    ----------
    k : int
        The number of classes (``k >= 1``).

    Returns
    -------
    list of tuple
        The ``k * k`` cells ``(row, column)`` in the order of the path.

    Raises
    ------
    ValueError
        If ``k < 1``.

    Examples
    --------
    >>> covering_path(2)
    [(0, 0), (1, 0), (0, 1), (1, 1)]
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    snake_rows = k if k % 2 else k - 2
    path = []
    for r in range(snake_rows):
        cols = range(k) if r % 2 == 0 else range(k - 1, -1, -1)
        path += [(r, c) for c in cols]
    if k % 2 == 0:
        for c in range(k):
            path += [(k - 2, c), (k - 1, c)]
    return path


def oc00_forms():
    r""":math:`OC^1_{0;0}` in terms of ``N`` and ``M``, and in terms of MAE (cardoso2011 §3.1).

    Returns
    -------
    OC00Forms
        Both forms, their symbols and how they were obtained.

    Examples
    --------
    >>> f = oc00_forms()
    >>> f.oc00, f.oc00_in_mae
    (M/(M + N), MAE/(MAE + 1))
    """
    M = sp.Symbol("M", nonnegative=True)
    mae = sp.Symbol("MAE", nonnegative=True)
    # the benefit of a path is the sum of the counts it holds, at most N; an
    # explicit covering path holds every cell once, so the maximum is N: computed
    # here on a symbolic matrix for K = 2..5 (the tests check the covering for more K)
    for k in range(2, 6):
        cells = sp.symbols(f"n0:{k * k}", nonnegative=True)
        path = covering_path(k)
        benefit = sp.Add(*[cells[r * k + c] for r, c in path])
        if len(set(path)) != len(path) or sp.expand(benefit - sp.Add(*cells)) != 0:
            raise AssertionError(f"covering_path({k}) does not hold every cell once")  # pragma: no cover
    best_benefit = N
    oc00 = sp.simplify(1 - best_benefit / (N + M))
    return OC00Forms(
        oc00=oc00, oc00_in_mae=sp.simplify(oc00.subs(M, N * mae)), M=M, MAE=mae,
        method="maximal benefit N attained by an explicit covering path; "
               "M = N*MAE for gamma = 1 substituted and simplified by SymPy")
