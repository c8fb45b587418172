r"""UOC and OC of a given confusion matrix as exact piecewise-linear functions of beta.

For a fixed monotone path the cost of silva2018 eq. 28 (UOC) or
cardoso2011 eq. 7 (OC) is a line :math:`a_p + s_p\beta`; the index is their
lower envelope, a concave piecewise-linear function of :math:`\beta \ge 0`.
The envelope is found by the exact parametric search of
:func:`numeric.path_envelope` (``arithmetic="exact"``); here it is turned into
an ordered SymPy ``Piecewise`` in :data:`analytic.beta` and integrated exactly
(silva2018 eq. 23).
"""

from __future__ import annotations

import sympy as sp

import numeric
from analytic.symbols import beta

__all__ = ["uoc_piecewise", "oc_piecewise", "a_uoc", "envelope_piecewise"]


def envelope_piecewise(env, var=beta):
    r"""An exact :class:`numeric.Envelope` as an ordered ``Piecewise`` in ``var``.

    .. math:: f(\beta) = a_i + s_i\beta \quad\text{for}\quad
              \beta_i \le \beta < \beta_{i+1}

    Branch ``i`` carries the condition ``var < breakpoints[i+1]``; the last
    branch is ``(a_last + s_last*var, True)``.  The envelope is continuous,
    so the value at a breakpoint is the same from either branch.

    Examples
    --------
    >>> from numeric import path_envelope
    >>> envelope_piecewise(path_envelope([[0, 1], [0, 0]], metric="oc"))
    Piecewise((beta + 1/2, beta < 1/2), (1, True))
    """
    n = len(env.slopes)
    branches = []
    for i, (a, s) in enumerate(zip(env.intercepts, env.slopes)):
        expr = sp.sympify(a) + sp.sympify(s) * var
        hi = env.breakpoints[i + 1]
        last = i == n - 1
        branches.append((expr, sp.true if last else var < hi))
    return sp.Piecewise(*branches, evaluate=False)


def uoc_piecewise(cm, *, gamma=1):
    r"""Exact :math:`UOC_\beta^\gamma` of a matrix as a ``Piecewise`` in ``beta``.

    .. math:: UOC_\beta^\gamma = \min_{\text{path}}\Big\{1 -
              \frac{\sum_{\text{path}} \hat p_{r,c}}{K' + K'^{1-\gamma}M'}
              + \frac{\beta}{K'}\sum_{\text{path}} \hat p_{r,c}|r-c|^\gamma\Big\}
              = \min_i\,(a_i + s_i\beta)

    silva2018 eq. 28 (eq. 22 when every class is observed), valid for every
    :math:`\beta \ge 0`.  The breakpoints, intercepts and slopes are exact
    (rational for ``gamma = 1``, algebraic for ``gamma = 2``).

    Parameters
    ----------
    cm : array_like, shape (K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.
    gamma : number, default 1

    Returns
    -------
    sympy.Piecewise
        In :data:`analytic.beta`; branches ordered by beta, the last
        ``(..., True)``; values in ``[0, 1]``.

    Examples
    --------
    >>> uoc_piecewise([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    Piecewise((beta/2 + 1/3, beta < 2/3), (2/3, True))
    """
    return envelope_piecewise(numeric.path_envelope(cm, metric="uoc", gamma=gamma))


def oc_piecewise(cm, *, gamma=1):
    r"""Exact :math:`OC_\beta^\gamma` of a matrix as a ``Piecewise`` in ``beta``.

    .. math:: OC_\beta^\gamma = \min_{\text{path}}\Big\{1 -
              \frac{\sum_{\text{path}} n_{r,c}}{N + M}
              + \beta\sum_{\text{path}} n_{r,c}|r-c|^\gamma\Big\},\quad
              M = \Big(\sum_{r,c} n_{r,c}|r-c|^\gamma\Big)^{1/\gamma}

    cardoso2011 eq. 7 (silva2018 eq. 11), valid for every :math:`\beta \ge 0`.

    Examples
    --------
    >>> oc_piecewise([[2, 1], [0, 1]])
    Piecewise((beta + 1/5, beta < 1/5), (2/5, True))
    """
    return envelope_piecewise(numeric.path_envelope(cm, metric="oc", gamma=gamma))


def a_uoc(cm):
    r"""Exact :math:`A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta` of a matrix.

    .. math:: A_{UOC} = \sum_i \Big[a_i\beta + \tfrac{s_i}{2}\beta^2
              \Big]_{\beta_i}^{\beta_{i+1}}

    silva2018 eq. 23: the integral of :func:`uoc_piecewise` over ``[0, 1]``,
    taken piece by piece over the exact envelope -- which is what
    :func:`numeric.a_uoc` does in ``"exact"`` arithmetic, so this is that
    function (the tests compare it with SymPy's own integral of the
    ``Piecewise``).  A rational number.

    Examples
    --------
    >>> a_uoc([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    5/9
    """
    return numeric.a_uoc(cm, arithmetic="exact")
