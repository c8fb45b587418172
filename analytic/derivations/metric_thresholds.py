r"""Thresholds on beta: when the diagonal path is optimal, when OC fails the triangle inequality.

* :func:`appendix_a_triangle` — cardoso2011 Appendix A: the three 2 x 2
  matrices built from the vectors a, b, c, their OC as exact ``Piecewise``
  in beta for symbolic ``N``, and the exact set of beta on which
  :math:`OC(a,b) + OC(b,c) < OC(a,c)`.
* :func:`diagonal_threshold` — the smallest beta from which the diagonal
  path is optimal for *every* matrix: ``1/(N+1)`` for OC (cardoso2011
  Appendix A), ``1`` for UOC (silva2018 §III.A), with a symbolic
  certificate and the matrices showing each bound cannot be lowered.

Every ``OC`` here is the envelope of the lines of *all* monotone paths of a
small matrix with symbolic counts (:func:`path_lines`), decided for all
integer values of the parameter by :func:`analytic.engines._pl.lower_envelope`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import sympy as sp

from analytic.engines._pl import lower_envelope
from analytic.engines._rowkinds import exponent, matrix_rows, monotone_paths, path_weights
from analytic.symbols import N, beta
from exactfloor.exact_sign import vanishes

__all__ = ["monotone_paths", "path_lines", "confusion_matrix_symbolic", "appendix_a_triangle",
           "diagonal_threshold", "TriangleViolation", "DiagonalThreshold", "Certificate",
           "Witness"]


@dataclass(frozen=True)
class TriangleViolation:
    r"""Result of :func:`appendix_a_triangle`: where OC violates the triangle inequality.

    Parameters
    ----------
    gamma : sympy.Number
        The exponent of :math:`OC_\beta^\gamma`.
    matrices : Mapping[str, list]
        ``"ab"``, ``"bc"``, ``"ac"``: the 2 x 2 confusion matrices of the
        vector pairs, nested lists in :data:`analytic.symbols.N`.
    oc : Mapping[str, sympy.Expr]
        The same keys: :math:`OC_\beta^\gamma` as ``Piecewise`` in
        :data:`analytic.symbols.beta`, for every integer ``N >= 2``.
    violation : tuple of tuple
        The set :math:`\{\beta \ge 0 : OC(a,b) + OC(b,c) < OC(a,c)\}` as
        intervals ``(lo, hi)``, each ``[lo, hi)``.
    bound : sympy.Expr or None
        ``hi`` when the set is one interval from 0, else ``None``.
    method : str
        How the result was obtained.

    Examples
    --------
    >>> v = appendix_a_triangle()
    >>> sorted(v.matrices), v.violation
    (['ab', 'ac', 'bc'], ((0, (N - 1)/(N**2 + 3*N + 2)),))
    """

    gamma: sp.Expr
    matrices: Mapping[str, list]
    oc: Mapping[str, sp.Expr]
    violation: tuple
    bound: sp.Expr | None
    method: str


@dataclass(frozen=True)
class Certificate:
    """The inequality certificate of :class:`DiagonalThreshold`.

    Parameters
    ----------
    gap : sympy.Expr
        ``bound - threshold``, factored, in the symbols of the per-count
        threshold (see :func:`diagonal_threshold`).
    is_nonnegative : bool or None
        SymPy's decision on ``gap >= 0`` from the symbols' assumptions.

    Examples
    --------
    >>> diagonal_threshold("oc").certificate
    Certificate(gap=m/((N + 1)*(N + m + 1)), is_nonnegative=True)
    """

    gap: sp.Expr
    is_nonnegative: bool | None


@dataclass(frozen=True)
class Witness:
    """A matrix (family) showing that the bound of :class:`DiagonalThreshold` cannot be lowered.

    Parameters
    ----------
    matrix : list
        Nested lists of counts, symbolic in ``N`` (OC) or ``n`` (UOC).
    last_breakpoint : sympy.Expr
        The last breakpoint of its derived envelope: from there on the
        diagonal path is optimal.
    attains : bool or None
        OC: the last breakpoint equals the bound; ``None`` for UOC.
    limit : sympy.Expr or None
        UOC: the last breakpoint's limit as ``n -> oo`` (the bound); ``None``
        for OC.

    Examples
    --------
    >>> w = diagonal_threshold("oc").witness
    >>> w.matrix, w.attains
    ([[N - 1, 0], [1, 0]], True)
    """

    matrix: list
    last_breakpoint: sp.Expr
    attains: bool | None = None
    limit: sp.Expr | None = None


@dataclass(frozen=True)
class DiagonalThreshold:
    """Result of :func:`diagonal_threshold`.

    Parameters
    ----------
    metric : str
        ``"oc"`` or ``"uoc"``.
    bound : sympy.Expr
        The sufficient beta, the supremum over the dispersion of the
        per-count threshold.
    certificate : Certificate
        Why the bound suffices.
    witness : Witness
        Why it cannot be lowered.
    method : str
        How the result was obtained.

    Examples
    --------
    >>> t = diagonal_threshold("uoc")
    >>> t.metric, t.bound
    ('uoc', 1)
    """

    metric: str
    bound: sp.Expr
    certificate: Certificate
    witness: Witness
    method: str


def path_lines(matrix, metric="oc", gamma=1):
    r"""The line :math:`(a_p, s_p)` of every monotone path of a small matrix.

    ``matrix``: a K x K nested list of counts, possibly symbolic (a string is
    parsed by :func:`exactfloor.parsing.parse_number`, never evaluated).  The
    weights are those of cardoso2011 eq. 7 (``"oc"``) or silva2018 eq. 28
    (``"uoc"``); a path costs :math:`1 - \sum_p b + \beta\sum_p q`.  All
    :math:`D(K)` (Delannoy) paths are listed, so keep K small.

    Parameters
    ----------
    matrix : list of list
        K x K counts, numbers, SymPy expressions or strings.
    metric : {"oc", "uoc"}, default "oc"
        Whose path weights.
    gamma : number, default 1
        The exponent of the distance :math:`|r - c|^\gamma`.

    Returns
    -------
    list of tuple
        ``(a_p, s_p)`` of each path, in the order of :func:`monotone_paths`.

    Examples
    --------
    >>> sorted(path_lines([[1, 1], [0, 1]]), key=str)
    [(1/2, 0), (1/2, 0), (1/4, 1)]
    """
    k = len(matrix)
    w = path_weights(matrix_rows(matrix), metric, gamma)
    zero = (sp.Integer(0), sp.Integer(0))
    lines = []
    for path in monotone_paths(k):
        cells = [w.get((f"r{r}", c - r), zero) for r, c in path]
        lines.append((sp.cancel(1 - sum(x[0] for x in cells)), sp.cancel(sum(x[1] for x in cells))))
    return lines


def confusion_matrix_symbolic(true, pred, k):
    """Counts ``C[i][j] = #{t : true[t] = i+1, pred[t] = j+1}`` of label lists.

    A label list may start with ``("repeat", label, count)`` for ``count``
    copies of ``label`` (``count`` symbolic), as cardoso2011 Appendix A writes
    its vectors ``(1, ..., 1, 1, 2)``.

    Parameters
    ----------
    true, pred : list
        The label lists (labels ``1..k``), of the same length, each starting
        with the same ``("repeat", label, count)``.
    k : int
        The number of classes.

    Returns
    -------
    list of list
        ``k`` x ``k`` SymPy integers or expressions, rows = true class.

    Raises
    ------
    ValueError
        If the lists differ in length or do not start with the same repeat.

    Examples
    --------
    >>> confusion_matrix_symbolic([("repeat", 1, N - 2), 1, 2], [("repeat", 1, N - 2), 1, 1], 2)
    [[N - 1, 0], [1, 0]]
    """
    C = [[sp.Integer(0)] * k for _ in range(k)]
    t_rep, p_rep = true[0], pred[0]
    if t_rep[0] != "repeat" or p_rep != t_rep:
        raise ValueError("both vectors must start with the same ('repeat', label, count)")
    if len(true) != len(pred):
        raise ValueError(f"true and pred must have the same length, got {len(true)} and {len(pred)}")
    _, lab, cnt = t_rep
    C[lab - 1][lab - 1] += cnt
    for t, p in zip(true[1:], pred[1:], strict=True):
        C[t - 1][p - 1] += 1
    return C


def appendix_a_triangle(gamma=1):
    r"""cardoso2011 Appendix A: where OC violates the triangle inequality on its three matrices.

    The vectors (length ``N``) are :math:`a = (1,\dots,1,1,2)`,
    :math:`b = (1,\dots,1,1,1)`, :math:`c = (1,\dots,1,2,1)`.  Their
    confusion matrices are built from the vectors, their
    :math:`OC_\beta^\gamma` derived as the envelope of all path lines for
    every integer ``N >= 2``, and the set
    :math:`\{\beta \ge 0 : OC(a,b) + OC(b,c) - OC(a,c) < 0\}` computed piece
    by piece.

    Parameters
    ----------
    gamma : number, default 1
        The exponent of :math:`OC_\beta^\gamma`.

    Returns
    -------
    TriangleViolation
        The matrices, their OC, the violation set and its bound.

    Examples
    --------
    >>> appendix_a_triangle().bound
    (N - 1)/((N + 1)*(N + 2))
    """
    gamma = exponent(gamma)
    rep = ("repeat", 1, N - 2)
    vec = {"a": [rep, 1, 2], "b": [rep, 1, 1], "c": [rep, 2, 1]}
    mats = {xy: confusion_matrix_symbolic(vec[xy[0]], vec[xy[1]], 2) for xy in ("ab", "bc", "ac")}
    fns = {xy: lower_envelope(path_lines(m, "oc", gamma), N, 2) for xy, m in mats.items()}
    diff = fns["ab"] + fns["bc"] + fns["ac"].scale(-1)
    neg = diff.negative_set()
    bound = sp.factor(neg[0][1]) if len(neg) == 1 and neg[0][0] == 0 else None
    return TriangleViolation(
        gamma=gamma, matrices=MappingProxyType(mats),
        oc=MappingProxyType({xy: f.piecewise(beta) for xy, f in fns.items()}),
        violation=tuple(neg), bound=bound,
        method="symbolic for every integer N >= 2: all-path envelopes of cardoso2011 eq. 7, "
               "OC(a,b) + OC(b,c) - OC(a,c) decided piece by piece")


def diagonal_threshold(metric="oc"):
    r"""The smallest beta that makes the diagonal path optimal for every matrix.

    For a path :math:`p` let :math:`B_p` be its benefit and :math:`Q_p` its
    penalty.  Off-diagonal cells have :math:`|r-c|^\gamma \ge 1`, so the
    benefit a path gains over the diagonal is at most its off-diagonal count,
    which is at most its penalty sum :math:`P_p`:

    * OC (cardoso2011 eq. 7): :math:`\text{cost}_p - \text{cost}_{diag}
      \ge P_p\,(\beta - 1/(N+M))` and :math:`M \ge 1` whenever
      :math:`P_p > 0`, so :math:`\beta \ge 1/(N+1)` suffices
      (cardoso2011 Appendix A).  With :math:`M = 1 + m`,
      :math:`\frac{1}{N+1} - \frac{1}{N+M} = \frac{m}{(N+1)(N+1+m)} \ge 0`
      is the certificate returned.  The bound is attained by
      :math:`CM(a,b) = [[N-1, 0], [1, 0]]`, whose last breakpoint is derived.
    * UOC (silva2018 eq. 22/28): :math:`\text{cost}_p - \text{cost}_{diag}
      \ge Q_p\,(\beta - K'/(K' + K'^{1-\gamma}M'))` with :math:`M' > 0`, so
      :math:`\beta \ge 1` suffices (silva2018 §III.A).  It cannot be
      lowered: for :math:`[[n, 1], [0, 1]]` the derived last breakpoint tends
      to 1 as :math:`n \to \infty`.

    Parameters
    ----------
    metric : {"oc", "uoc"}, default "oc"
        The metric.

    Returns
    -------
    DiagonalThreshold
        ``bound`` (the sufficient value, derived as the supremum over the
        dispersion of the per-count threshold), ``certificate`` (the factored
        ``bound - threshold`` and SymPy's decision that it is nonnegative),
        ``witness`` (matrix, its last breakpoint, and the value or limit
        showing tightness), ``method``.

    Examples
    --------
    >>> diagonal_threshold("oc").witness.last_breakpoint
    1/(N + 1)
    >>> diagonal_threshold("uoc").witness.limit
    1
    """
    if metric == "oc":
        # a path leaving the diagonal holds an off-diagonal count, so M = 1 + m, m >= 0;
        # each such count gains 1/(N+M) of benefit and costs beta (|r - c| >= 1)
        m = sp.Symbol("m", nonnegative=True)
        threshold = 1 / (N + 1 + m)
        bound = sp.maximum(threshold, m, sp.Interval(0, sp.oo))
        gap = sp.factor(bound - threshold)
        matrix = [[N - 1, 0], [1, 0]]
        f = lower_envelope(path_lines(matrix, "oc"), N, 2)
        return DiagonalThreshold(
            metric=metric, bound=bound, certificate=Certificate(gap, gap.is_nonnegative),
            witness=Witness(matrix, sp.factor(f.breaks[-1]),
                            attains=vanishes(f.breaks[-1] - bound)),
            method="symbolic inequality chain (certificate) + all-path envelope of the "
                   "witness matrix for every integer N >= 2")
    if metric == "uoc":
        n = sp.Symbol("n", integer=True, positive=True)
        Kp, Mp = sp.symbols("Kprime Mprime", positive=True)
        g = sp.Symbol("gamma", positive=True)
        # per unit of p|r-c| an off-diagonal cell gains 1/D and costs beta/K'
        threshold = Kp / (Kp + Kp ** (1 - g) * Mp)
        bound = sp.limit(threshold, Mp, 0)  # the supremum over M' > 0
        gap = sp.factor(bound - threshold)
        matrix = [[n, 1], [0, 1]]
        f = lower_envelope(path_lines(matrix, "uoc"), n, 1)
        last = sp.factor(f.breaks[-1])
        return DiagonalThreshold(
            metric=metric, bound=bound, certificate=Certificate(gap, gap.is_nonnegative),
            witness=Witness(matrix, last, limit=sp.limit(last, n, sp.oo)),
            method="symbolic inequality chain (certificate) + all-path envelope of the "
                   "witness family for every integer n >= 1, limit n -> oo")
    raise ValueError(f"metric must be 'uoc' or 'oc', got {metric!r}")
