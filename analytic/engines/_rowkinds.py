r"""Matrices described by row kinds, and the path weights of OC and UOC on them; the monotone paths.

Shared by :mod:`analytic.derivations.forms` (single sample, tridiagonal matrices) and
:mod:`analytic.derivations.metric_thresholds` (all-path envelopes of small matrices).

A *row kind* is a row pattern -- the count at each offset ``c - r`` from the
diagonal -- with a multiplicity that may depend on a symbol: the K-class
tridiagonal matrix has one first row, ``K - 2`` interior rows and one last
row.  From such a description the weights of cardoso2011 eq. 7 (OC) and
silva2018 eq. 28 (UOC) are computed with SymPy exactly as
:mod:`numeric.paths` computes them for a given matrix.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from exactfloor.parsing import parse_number

__all__ = ["RowKind", "matrix_rows", "totals", "path_weights", "exponent", "monotone_paths"]


@dataclass(frozen=True)
class RowKind:
    """``mult`` rows whose count at column ``r + offset`` is ``counts[offset]``.

    Attributes
    ----------
    name : str
        Key of the kind in :func:`path_weights`' result.
    mult : int or sympy.Expr
        How many rows of the matrix follow this pattern.
    counts : dict
        ``{offset: count}``; offsets and counts may be symbolic.
    """

    name: str
    mult: object
    counts: dict


def matrix_rows(matrix):
    """One :class:`RowKind` per row of a K x K matrix: ``"r<i>"``, multiplicity 1, its nonzero counts.

    ``matrix``: nested lists (or an array) of counts, possibly SymPy
    expressions; rows = true class.  A string count is parsed by
    :func:`exactfloor.parsing.parse_number`, never evaluated.

    Examples
    --------
    >>> matrix_rows([[2, 0], [1, 1]])
    [RowKind(name='r0', mult=1, counts={0: 2}), RowKind(name='r1', mult=1, counts={-1: 1, 0: 1})]
    """
    rows = []
    for i, row in enumerate(matrix):
        if len(row) != len(matrix):
            raise ValueError(f"the matrix must be square K x K: row {i} has {len(row)} entries, "
                             f"there are {len(matrix)} rows")
        parsed = [parse_number(v, what="confusion matrix entry") for v in row]
        counts = {j - i: v for j, v in enumerate(parsed) if v != 0}
        rows.append(RowKind(f"r{i}", sp.Integer(1), counts))
    return rows


def exponent(gamma):
    """``gamma`` of OC and UOC as a positive SymPy number (a string is parsed, never evaluated).

    >>> exponent(2), exponent("1/2")
    (2, 1/2)
    >>> exponent(0)
    Traceback (most recent call last):
    ...
    ValueError: gamma must be a positive number, got 0
    """
    g = parse_number(gamma, what="gamma", symbols=False)
    if not (g.is_number and g.is_positive):
        raise ValueError(f"gamma must be a positive number, got {g}")
    return g


def _distance(offset, gamma):
    return sp.Abs(sp.sympify(offset, strict=True)) ** gamma


def totals(rows):
    r"""``(N, diagonal count, sum n|r-c|)`` of a description, each cancelled.

    .. math:: N = \sum n_{r,c},\qquad \sum_r n_{r,r},\qquad \sum n_{r,c}|r-c|

    Examples
    --------
    >>> totals([RowKind("a", 2, {0: 1, 1: 3})])
    (8, 2, 6)
    """
    N = sum((r.mult * sum(r.counts.values()) for r in rows), sp.Integer(0))
    diag = sum((r.mult * r.counts.get(0, 0) for r in rows), sp.Integer(0))
    err = sum((r.mult * n * _distance(o, 1) for r in rows for o, n in r.counts.items()),
              sp.Integer(0))
    return sp.cancel(N), sp.cancel(diag), sp.cancel(err)


def path_weights(rows, metric, gamma):
    r"""``{(row kind name, offset): (b, q)}``: benefit and penalty of every cell of a description.

    A monotone path costs :math:`1 - \sum_{\text{path}} b + \beta\sum_{\text{path}} q`.

    OC, cardoso2011 eq. 7: :math:`b = n/(N+M)`, :math:`q = n|r-c|^\gamma`,
    :math:`M = (\sum n|r-c|^\gamma)^{1/\gamma}`.
    UOC, silva2018 eq. 28: :math:`\hat p = n/N_r` on observed rows,
    :math:`b = \hat p/(K' + K'^{1-\gamma}M')`, :math:`q = \hat p|r-c|^\gamma/K'`,
    :math:`M' = (\sum \hat p|r-c|^\gamma)^{1/\gamma}`.

    Examples
    --------
    >>> path_weights([RowKind("r0", 1, {0: 1, 1: 1})], "oc", 1)
    {('r0', 0): (1/3, 0), ('r0', 1): (1/3, 1)}
    """
    g = exponent(gamma)
    out = {}
    if metric == "oc":
        N, _, _ = totals(rows)
        S = sum((r.mult * n * _distance(o, g) for r in rows for o, n in r.counts.items()),
                sp.Integer(0))
        D = N + sp.cancel(S) ** (1 / g)
        for r in rows:
            for o, n in r.counts.items():
                out[(r.name, o)] = (sp.cancel(n / D), sp.cancel(n * _distance(o, g)))
        return out
    if metric != "uoc":
        raise ValueError(f"metric must be 'uoc' or 'oc', got {metric!r}")
    observed = [r for r in rows if sp.cancel(sum(r.counts.values())) != 0]
    Kp = sp.cancel(sum((r.mult for r in observed), sp.Integer(0)))
    S = sp.Integer(0)
    for r in observed:
        Nr = sum(r.counts.values())
        S += r.mult * sum(n / Nr * _distance(o, g) for o, n in r.counts.items())
    D = Kp + Kp ** (1 - g) * sp.cancel(S) ** (1 / g)
    for r in rows:
        Nr = sum(r.counts.values())
        for o, n in r.counts.items():
            p = n / Nr if r in observed else sp.Integer(0)
            out[(r.name, o)] = (sp.cancel(p / D), sp.cancel(p * _distance(o, g) / Kp))
    return out


def monotone_paths(k):
    """Every monotone path from cell (0, 0) to (k-1, k-1) of a k x k matrix.

    A step moves down, right or diagonally (down-right); there are D(k)
    (central Delannoy number) paths, each a tuple of (row, column) cells.

    Parameters
    ----------
    k : int
        The number of classes, ``k >= 1``.

    Returns
    -------
    list of tuple
        The paths, each a tuple of ``(row, column)`` cells from ``(0, 0)`` to
        ``(k-1, k-1)``, the diagonal step tried first.

    Examples
    --------
    >>> monotone_paths(2)
    [((0, 0), (1, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 0), (0, 1), (1, 1))]
    >>> [len(monotone_paths(k)) for k in range(1, 6)]
    [1, 3, 13, 63, 321]
    """
    def walk(r, c):
        if (r, c) == (k - 1, k - 1):
            yield ((r, c),)
            return
        for dr, dc in ((1, 1), (1, 0), (0, 1)):
            if r + dr < k and c + dc < k:
                for rest in walk(r + dr, c + dc):
                    yield ((r, c),) + rest
    return list(walk(0, 0))
