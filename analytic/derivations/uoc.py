r"""UOC and OC of a given confusion matrix as exact piecewise-linear functions of beta.

For a fixed monotone path the cost of silva2018 eq. 28 (UOC) or
cardoso2011 eq. 7 (OC) is a line :math:`a_p + s_p\beta`; the index is their
lower envelope, a concave piecewise-linear function of :math:`\beta \ge 0`.
The envelope is found by the exact parametric search of
:func:`numeric.path_envelope` (``arithmetic="exact"``); here it is turned into
an ordered SymPy ``Piecewise`` in :data:`analytic.symbols.beta` and integrated
exactly (silva2018 eq. 23) by :func:`a_uoc_symbolic`.

Families: the three functions (and :func:`a_uoc_symbolic`) also take a matrix whose counts are
polynomials in one integer symbol ``n`` (e.g. ``[[n, 1], [0, n]]``).  The
lines of all monotone paths are then rational functions of ``n``
(:class:`analytic.engines._family.PathLines`, the lines of
:func:`analytic.derivations.metric_thresholds.path_lines` as integer polynomials), and
their envelope is decided for every integer ``n`` from a threshold ``m``
(:func:`analytic.engines._pl.envelope_of_polys`, :func:`analytic.engines._family.settle`);
each value ``n0 <= n < m`` is computed on the substituted matrix.  The result
is a ``Piecewise`` in ``n`` (conditions ``Eq(n, k)`` and ``n >= m``) of
``Piecewise`` in beta.  Only ``gamma = 1`` (the weights are then rational
in ``n``), only one symbol, and only ``K <= MAX_FAMILY_K`` (every one of the
Delannoy-many paths is listed); anything else raises ``NotImplementedError``.
"""

from __future__ import annotations

import warnings

import numpy as np
import sympy as sp

import numeric
from analytic.engines._family import PathLines, family_parameter, settle, split_by_parameter, support_threshold
from analytic.symbols import beta
from exactfloor.parsing import parse_number

__all__ = ["uoc_piecewise", "oc_piecewise", "a_uoc_symbolic", "envelope_piecewise", "MAX_FAMILY_K"]

#: largest K of a symbolic family: all D(K) monotone paths are listed (D(6) = 1683)
MAX_FAMILY_K = 6


def _symbolic(cm):
    """The matrix as SymPy objects if some count holds a free symbol, else ``None``."""
    try:
        a = np.asarray(cm, dtype=object)
    except ValueError:
        return None
    if a.ndim != 2 or not any(isinstance(v, sp.Basic) and v.free_symbols
                              for v in a.reshape(-1).tolist()):
        return None
    return np.vectorize(lambda v: parse_number(v, what="confusion matrix entry"),
                        otypes=[object])(a)


def _family_index(a, metric, gamma, n0, integrate):
    """The index of a one-parameter family: ``Piecewise`` in ``n`` (see the module docstring)."""
    syms = set().union(*(v.free_symbols for v in a.reshape(-1)))
    if len(syms) > 1:
        raise NotImplementedError(
            f"{metric.upper()} of a matrix with several symbols ({sorted(map(str, syms))}): "
            "only one-parameter families are supported (the envelope's shape is decided "
            "for all integers of one parameter)")
    if gamma != 1:
        raise NotImplementedError("symbolic counts need gamma = 1 (for other gamma the "
                                  "weights are not rational functions of the parameter)")
    if a.shape[0] != a.shape[1] or a.shape[0] > MAX_FAMILY_K:
        raise NotImplementedError(f"symbolic counts: square matrices with K <= {MAX_FAMILY_K} "
                                  f"only, got shape {a.shape}")
    n, n0 = family_parameter(a, n0)
    lines = PathLines(a.tolist(), metric, n)

    def general(m):
        f = lines.envelope(m)
        return f.integral(0, 1) if integrate else f.piecewise(beta)

    m, value = settle(general, n, support_threshold(a, n, n0))

    def special(k):
        sub = np.vectorize(lambda v: int(v.subs(n, k)), otypes=[np.int64])(a)
        if integrate:
            return numeric.a_uoc(sub, arithmetic="exact")
        return envelope_piecewise(numeric.path_envelope(sub, metric=metric))

    return split_by_parameter(n, n0, m, special, value)


def envelope_piecewise(env, var=beta):
    r"""An exact :class:`numeric.Envelope` as an ordered ``Piecewise`` in ``var``.

    .. math:: f(\beta) = a_i + s_i\beta \quad\text{for}\quad
              \beta_i \le \beta < \beta_{i+1}

    Branch ``i`` carries the condition ``var < breakpoints[i+1]``; the last
    branch is ``(a_last + s_last*var, True)``.  The envelope is continuous,
    so the value at a breakpoint is the same from either branch.

    Parameters
    ----------
    env : numeric.Envelope
        An envelope in exact arithmetic (:func:`numeric.path_envelope`).
    var : sympy.Symbol, default :data:`analytic.symbols.beta`
        The variable of the ``Piecewise``.

    Returns
    -------
    sympy.Piecewise
        Ordered by ``var``, the last branch ``(..., True)``.

    Examples
    --------
    >>> from numeric import path_envelope
    >>> envelope_piecewise(path_envelope([[0, 1], [0, 0]], metric="oc"))
    Piecewise((beta + 1/2, beta < 1/2), (1, True))
    """
    n = len(env.slopes)
    branches = []
    for i, (a, s) in enumerate(zip(env.intercepts, env.slopes, strict=True)):
        expr = sp.sympify(a, strict=True) + sp.sympify(s, strict=True) * var
        hi = env.breakpoints[i + 1]
        last = i == n - 1
        branches.append((expr, sp.true if last else var < hi))
    return sp.Piecewise(*branches, evaluate=False)


def uoc_piecewise(cm, *, gamma=1, n0=None):
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
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``; or
        polynomials in one integer symbol ``n`` (a family, see the module
        docstring).
    gamma : number, default 1
        The exponent of the distance :math:`|r - c|^\gamma` (silva2018 eq. 28).
    n0 : int, optional
        For a family: its first value (default from the assumptions of ``n``).

    Returns
    -------
    sympy.Piecewise
        In :data:`analytic.symbols.beta`; branches ordered by beta, the last
        ``(..., True)``; values in ``[0, 1]``.  For a family, a
        ``Piecewise`` in ``n`` of those.

    Raises
    ------
    NotImplementedError
        For a family with several symbols, ``gamma != 1`` or ``K > MAX_FAMILY_K``.

    Examples
    --------
    >>> uoc_piecewise([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    Piecewise((beta/2 + 1/3, beta < 2/3), (2/3, True))

    A family: ``n`` samples of class 1 predicted as class 2.  The symbolic
    envelope holds from ``n = 2``; ``n = 1`` has its own shape.

    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> uoc_piecewise([[1, n], [2, 1]])
    Piecewise((Piecewise((beta/3 + 10/19, beta < 12/19), (14/19, True)), Eq(n, 1)),
              (Piecewise((beta*n/(2*(n + 1)) + (7*n + 4)/(11*n + 8),
                          beta < 6*(n + 1)/(11*n + 8)),
                         (2*(5*n + 2)/(11*n + 8), True)), n >= 2))
    """
    a = _symbolic(cm)
    if a is not None:
        return _family_index(a, "uoc", gamma, n0, integrate=False)
    return envelope_piecewise(numeric.path_envelope(cm, metric="uoc", gamma=gamma))


def oc_piecewise(cm, *, gamma=1, n0=None):
    r"""Exact :math:`OC_\beta^\gamma` of a matrix as a ``Piecewise`` in ``beta``.

    .. math:: OC_\beta^\gamma = \min_{\text{path}}\Big\{1 -
              \frac{\sum_{\text{path}} n_{r,c}}{N + M}
              + \beta\sum_{\text{path}} n_{r,c}|r-c|^\gamma\Big\},\quad
              M = \Big(\sum_{r,c} n_{r,c}|r-c|^\gamma\Big)^{1/\gamma}

    cardoso2011 eq. 7 (silva2018 eq. 11), valid for every :math:`\beta \ge 0`.

    Parameters
    ----------
    cm : array_like, shape (K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``; or
        polynomials in one integer symbol ``n`` (a family, as in :func:`uoc_piecewise`).
    gamma : number, default 1
        The exponent of the distance :math:`|r - c|^\gamma` (cardoso2011 eq. 7).
    n0 : int, optional
        For a family: its first value (default from the assumptions of ``n``).

    Returns
    -------
    sympy.Piecewise
        In :data:`analytic.symbols.beta`; branches ordered by beta, the last
        ``(..., True)``.  For a family, a ``Piecewise`` in ``n`` of those.

    Raises
    ------
    NotImplementedError
        For a family with several symbols, ``gamma != 1`` or ``K > MAX_FAMILY_K``.

    Examples
    --------
    >>> oc_piecewise([[2, 1], [0, 1]])
    Piecewise((beta + 1/5, beta < 1/5), (2/5, True))
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> oc_piecewise([[n, 1], [0, 1]])
    Piecewise((beta + 1/(n + 3), beta < 1/(n + 3)), (2/(n + 3), True))
    """
    a = _symbolic(cm)
    if a is not None:
        return _family_index(a, "oc", gamma, n0, integrate=False)
    return envelope_piecewise(numeric.path_envelope(cm, metric="oc", gamma=gamma))


def a_uoc_symbolic(cm, *, n0=None):
    r"""Exact :math:`A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta` of a matrix, or its closed form for a family.

    .. math:: A_{UOC} = \sum_i \Big[a_i\beta + \tfrac{s_i}{2}\beta^2
              \Big]_{\beta_i}^{\beta_{i+1}}

    silva2018 eq. 23: the integral of :func:`uoc_piecewise` over ``[0, 1]``,
    taken piece by piece over the exact envelope.  The same quantity as
    :func:`numeric.a_uoc`: for a matrix of numbers this *is*
    ``numeric.a_uoc(cm, arithmetic="exact")``, a rational number (the tests
    compare it with SymPy's own integral of the ``Piecewise``); what this
    function adds is a matrix whose counts hold one integer symbol ``n``
    (see :func:`uoc_piecewise`): the integral of the envelope decided for
    all ``n >= m``, a rational function of ``n``, in a ``Piecewise`` with the
    values below ``m``.  (Renamed from ``a_uoc``, which read as a second
    :func:`numeric.a_uoc`; ``analytic.a_uoc`` and ``analytic.derivations.uoc.a_uoc``
    remain as deprecated aliases.)

    Parameters
    ----------
    cm : array_like, shape (K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``; or
        polynomials in one integer symbol ``n`` (a family).
    n0 : int, optional
        For a family: its first value (default from the assumptions of ``n``).

    Returns
    -------
    sympy.Expr
        A rational number in ``[0, 1]`` (lower is better); for a family, a
        ``Piecewise`` in ``n``.

    Raises
    ------
    NotImplementedError
        For a family with several symbols or ``K > MAX_FAMILY_K``.

    Examples
    --------
    >>> a_uoc_symbolic([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    5/9
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> a_uoc_symbolic([[1, n], [2, 1]])
    Piecewise((242/361, Eq(n, 1)), ((101*n**2 + 115*n + 32)/(11*n + 8)**2, n >= 2))
    """
    a = _symbolic(cm)
    if a is not None:
        return _family_index(a, "uoc", 1, n0, integrate=True)
    return numeric.a_uoc(cm, arithmetic="exact")


#: The warning of the deprecated aliases ``analytic.a_uoc`` and ``analytic.derivations.uoc.a_uoc``.
A_UOC_RENAMED = ("analytic.a_uoc is renamed analytic.a_uoc_symbolic (the exact value of a matrix "
                 "or the closed form of a family); numeric.a_uoc computes the value in float, "
                 "exact or mp arithmetic")


def __getattr__(name):
    """``a_uoc``: deprecated alias of :func:`a_uoc_symbolic` (warns)."""
    if name == "a_uoc":
        warnings.warn(A_UOC_RENAMED, DeprecationWarning, stacklevel=2)
        return a_uoc_symbolic
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
