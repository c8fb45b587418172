r"""One-parameter families of confusion matrices: the machinery of :mod:`~analytic.derivations.families`
and :mod:`~analytic.derivations.uoc`.

A family is a matrix whose counts are polynomials in one integer symbol
``n`` (``[[n, 1], [0, n]]``).  Both :func:`analytic.derivations.families.symbolic_metric`
(the classical metrics) and :func:`analytic.derivations.uoc.uoc_piecewise` /
``oc_piecewise`` / ``a_uoc_symbolic`` (the path metrics) use:

* :func:`family_parameter` — the symbol and its first value ``n0``;
* :func:`support_threshold` — the counts checked, and the ``n`` from which
  each is zero or positive for good;
* :func:`settle` — a computation retried from the threshold of the sign it
  could not decide (:class:`analytic.engines._pl.UndecidedSign`);
* :func:`split_by_parameter` — the ``Piecewise`` of the values below the
  threshold and the symbolic branch;
* :class:`PathLines` — the line of every monotone path as integer
  polynomials, and their envelope (:func:`analytic.engines._pl.envelope_of_polys`).

Both modules import this one; neither imports the other for it.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from exactfloor import ratfun as _rf
from analytic.engines._pl import UndecidedSign, envelope_of_polys, sign_threshold, signs_for_all
from analytic.engines._rowkinds import matrix_rows, monotone_paths, path_weights
from exactfloor.parsing import parse_number
from exactfloor.exact_sign import vanishes

__all__ = ["family_parameter", "support_threshold", "split_by_parameter", "settle",
           "PathLines", "MAX_SPECIAL"]

#: at most this many values of the parameter below the threshold are listed
#: one by one in a ``Piecewise``; beyond it the functions raise.
MAX_SPECIAL = 64


# ---------------------------------------------------------------------------
# the matrix and its parameter
# ---------------------------------------------------------------------------
def _matrix(cm):
    a = np.empty(np.shape(cm), dtype=object)
    try:
        a[...] = np.asarray(cm, dtype=object)
    except ValueError:
        raise ValueError("confusion matrix must be a rectangular array of counts") from None
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.size == 0:
        raise ValueError(f"a symbolic confusion matrix must be square K x K, got shape {a.shape}")
    return np.vectorize(_count, otypes=[object])(a)


def _count(v):
    """A count as a SymPy object; a string is parsed by
    :func:`exactfloor.parsing.parse_number`, never evaluated."""
    return parse_number(v, what="confusion matrix entry")


def _symbols(a):
    return set().union(*(v.free_symbols for v in a.reshape(-1)))


def family_parameter(cm, n0=None):
    r"""The single integer symbol ``n`` of a one-parameter family, and its first value ``n0``.

    ``n0`` defaults to the smallest integer the assumptions of ``n`` allow
    (1 for ``positive=True``, 0 for ``nonnegative=True``).

    Parameters
    ----------
    cm : array_like
        K x K counts: numbers, or polynomials in one integer symbol (a string
        is read by :func:`exactfloor.parsing.parse_number`).
    n0 : int, optional
        The first value of the parameter; by default implied by its assumptions.

    Returns
    -------
    (sympy.Symbol or None, int)
        The symbol and ``n0``; ``None`` (and ``n0``, default 0) when the
        matrix holds numbers only.

    Raises
    ------
    ValueError
        More than one free symbol, a symbol not declared ``integer=True``, or
        no ``n0`` (neither given nor implied by the assumptions).

    Examples
    --------
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> family_parameter([[n, 1], [0, n + 1]])
    (n, 1)
    """
    syms = _symbols(_matrix(cm))
    if not syms:
        return None, 0 if n0 is None else int(n0)
    if len(syms) > 1:
        raise ValueError(f"a family needs one free symbol, got {sorted(map(str, syms))}")
    (n,) = syms
    if not n.is_integer:
        raise ValueError(f"the parameter {n} must be declared integer=True")
    if n0 is None:
        if n.is_positive:
            n0 = 1
        elif n.is_nonnegative:
            n0 = 0
        else:
            raise ValueError(f"give n0: the assumptions of {n} set no lower bound")
    return n, int(n0)


def support_threshold(cm, n, n0):
    r"""Check the counts of a family and find where its support settles.

    Every count must be a polynomial in ``n`` taking non-negative integer
    values at every integer ``n >= n0`` (a polynomial is integer-valued on
    all integers from ``n0`` if and only if it is at ``deg + 1`` consecutive
    ones, Pólya; non-negativity is decided by
    :func:`exactfloor.ratfun.signs_for_all`).

    Parameters
    ----------
    cm : array_like
        K x K counts, polynomials in ``n`` (or numbers).
    n : sympy.Symbol
        The parameter (:func:`family_parameter`).
    n0 : int
        Its first value.

    Returns
    -------
    int
        The smallest ``m >= n0`` from which every count is either zero for
        all ``n >= m`` or positive for all ``n >= m``.

    Raises
    ------
    ValueError
        A count that is not a polynomial in ``n``, not integer-valued, or
        negative at some integer ``n >= n0``.

    Examples
    --------
    >>> n = sp.Symbol("n", integer=True, nonnegative=True)
    >>> support_threshold([[n, 1], [0, n - 1]], n, 1)   # n - 1 = 0 at n = 1
    2
    """
    a = _matrix(cm)
    m = n0
    for v in a.reshape(-1):
        if v == 0:
            continue
        if not v.is_polynomial(n):
            raise ValueError(f"count {v} must be a polynomial in {n} (an integer for every {n})")
        deg = sp.degree(v, n) if v.free_symbols else 0
        if any(not v.subs(n, k).is_integer for k in range(n0, n0 + int(deg) + 1)):
            raise ValueError(f"count {v} must be an integer for every integer {n} >= {n0}")
        if -1 in signs_for_all(v, n, n0):
            bad = next(k for k in range(n0, 10**6) if v.subs(n, k) < 0)
            raise ValueError(f"count {v} must be non-negative: it is {v.subs(n, bad)} at {n} = {bad}")
        m = max(m, sign_threshold(v, n, n0))
    return m


def split_by_parameter(n, n0, m, special, general):
    r"""``Piecewise((special(n0), Eq(n, n0)), ..., (special(m-1), Eq(n, m-1)), (general, n >= m))``.

    ``special(k)`` is called for each integer ``n0 <= k < m``.  When
    ``general`` at ``n = k`` equals ``special(k)`` exactly (as a number, or
    as a piecewise-linear function of beta) at the last such values, its
    condition is widened to them.  A single branch whose
    condition SymPy decides to be true is returned bare.

    Parameters
    ----------
    n : sympy.Symbol
        The parameter.
    n0 : int
        Its first value.
    m : int
        The threshold from which ``general`` holds.
    special : callable
        ``special(k)``: the value at the integer ``n = k``.
    general : sympy.Expr
        The value for ``n >= m``, an expression in ``n``.

    Returns
    -------
    sympy.Expr
        The ``Piecewise`` (or ``general`` alone).

    Raises
    ------
    NotImplementedError
        If more than :data:`MAX_SPECIAL` values precede ``m``.

    Examples
    --------
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> split_by_parameter(n, 1, 3, lambda k: k**2, n + 5)
    Piecewise((1, Eq(n, 1)), (4, Eq(n, 2)), (n + 5, n >= 3))
    >>> split_by_parameter(n, 1, 3, lambda k: 2 * k + 3, n + 5)   # agrees at n = 2
    Piecewise((5, Eq(n, 1)), (n + 5, n >= 2))
    """
    if m - n0 > MAX_SPECIAL:
        raise NotImplementedError(
            f"the symbolic form holds only from {n} = {m}; listing the {m - n0} values from "
            f"{n} = {n0} one by one exceeds MAX_SPECIAL = {MAX_SPECIAL} (substitute instead)")
    specials = [(k, special(k)) for k in range(n0, m)]
    # the general branch also holds at the last values below m where it agrees exactly
    while specials and _agree(general.subs(n, specials[-1][0]), specials[-1][1]):
        m = specials.pop()[0]
    branches = [(v, sp.Eq(n, k)) for k, v in specials]
    branches.append((general, n >= m))
    if len(branches) == 1 and branches[0][1] == sp.true:
        return general
    return sp.Piecewise(*branches, evaluate=False)


def _agree(x, y):
    """Exact equality of two numbers, or of two piecewise-linear ``Piecewise`` in one variable.

    A ``Piecewise`` whose conditions are ``var < t`` (and ``True``) is linear
    on each interval between consecutive ``t``; two such functions are equal
    if they agree at two points of every interval of the union of their
    breakpoints.
    """
    x, y = sp.sympify(x, strict=True), sp.sympify(y, strict=True)
    if not (x.has(sp.Piecewise) or y.has(sp.Piecewise)):
        return vanishes(x - y)
    syms = x.free_symbols | y.free_symbols
    if len(syms) != 1:
        return False
    (var,) = syms
    ts = set()
    for e in (x, y):
        for pw in e.atoms(sp.Piecewise):
            for _, c in pw.args:
                if c == sp.true:
                    continue
                if not (isinstance(c, sp.StrictLessThan) and c.lhs == var and c.rhs.is_number):
                    return False
                ts.add(c.rhs)
    pts = sorted(ts | {sp.Integer(0)})
    probes = [p for a, b in zip(pts, pts[1:], strict=False) for p in (a, (a + b) / 2)] + [pts[-1], pts[-1] + 1]
    return all(vanishes(x.subs(var, p) - y.subs(var, p)) for p in probes)


def settle(compute, n, m):
    r"""``compute(m)``, retried from a larger ``m`` while a sign is undecided.

    ``compute(m)`` decides signs for all integers ``n >= m`` and raises
    :class:`exactfloor.errors.UndecidedSign` when one is not constant; it is
    called again from that sign's threshold.

    Parameters
    ----------
    compute : callable
        ``compute(m)``: the computation for all integers ``n >= m``.
    n : sympy.Symbol
        The family's parameter, whose signs ``compute`` decides (not read by the retry).
    m : int
        The first threshold tried.

    Returns
    -------
    (int, object)
        The threshold ``m`` from which ``compute`` decided, and its result.

    Examples
    --------
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> m, signs = settle(lambda m: signs_for_all(1 / (d - 4), d, m), d, 1)   # a pole at d = 4
    >>> m, sorted(signs)
    (5, [1])
    """
    while True:
        try:
            return m, compute(m)
        except UndecidedSign as e:
            if e.threshold <= m:  # pragma: no cover - sign_threshold's contract
                raise
            m = e.threshold


# ---------------------------------------------------------------------------
# the lines of all monotone paths
# ---------------------------------------------------------------------------
class PathLines:
    r"""The line :math:`(a_p, s_p)` of every monotone path of a family, as integer polynomials.

    The same lines as :func:`analytic.derivations.metric_thresholds.path_lines` (same
    paths, same order), built without SymPy expressions: the weights
    :math:`(b, q)` of the ``K^2`` cells (:func:`analytic.engines._rowkinds.path_weights`)
    are brought to common denominators :math:`D_a`, :math:`D_s`, so a path
    is :math:`a_p = (D_a - \sum_p B)/D_a`, :math:`s_p = \sum_p Q/D_s` with
    integer polynomials ``B``, ``Q`` in ``n``.  The SymPy form of a line is
    built only for the lines of an envelope (:meth:`line_expr`).

    Parameters
    ----------
    matrix : list of lists
        K x K counts, polynomials in ``n`` (or numbers).
    metric : {"uoc", "oc"}
    n : sympy.Symbol or None

    Examples
    --------
    >>> from analytic.symbols import beta
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> lines = PathLines([[1, n], [2, 1]], "uoc", n)
    >>> len(lines.A), lines.line_expr(0)
    (3, ((10*n + 4)/(11*n + 8), 0))
    >>> lines.envelope(3).piecewise(beta)   # n >= 3: a_2 - a_1 = (2 - n)/(11n + 8) is 0 at n = 2
    Piecewise((beta*n/(2*(n + 1)) + (7*n + 4)/(11*n + 8), beta < 6*(n + 1)/(11*n + 8)), (2*(5*n + 2)/(11*n + 8), True))
    """

    def __init__(self, matrix, metric, n):
        self.n = n
        self.paths = monotone_paths(len(matrix))
        self.weights = path_weights(matrix_rows(matrix), metric, 1)
        gen = n if n is not None else sp.Dummy("n")
        keys = list(self.weights)
        fb, fq = [], []
        for key in keys:
            b, q = (_rf.fraction(v, gen) for v in self.weights[key])
            if b is None or q is None:
                raise ValueError(f"the weights of {metric} are not rational in {n}: "
                                 f"{self.weights[key]}")
            fb.append(b)
            fq.append(q)
        B, self.Da = _rf.common_denominator(fb)
        Q, self.Ds = _rf.common_denominator(fq)
        cell = {key: j for j, key in enumerate(keys)}
        self.A, self.S = [], []
        for path in self.paths:
            sb, sq = [], []
            for r, c in path:
                j = cell.get((f"r{r}", c - r))
                if j is not None:
                    sb, sq = _rf.add(sb, B[j]), _rf.add(sq, Q[j])
            self.A.append(_rf.sub(self.Da, sb))
            self.S.append(sq)

    def line_expr(self, i):
        """Line ``i`` as SymPy expressions, exactly as ``path_lines`` and
        ``lower_envelope`` write it (cancelled sums of the cell weights)."""
        zero = (sp.Integer(0), sp.Integer(0))
        cells = [self.weights.get((f"r{r}", c - r), zero) for r, c in self.paths[i]]
        line = (sp.cancel(1 - sum(x[0] for x in cells)), sp.cancel(sum(x[1] for x in cells)))
        return tuple(sp.cancel(v) for v in line)

    def envelope(self, n0=1):
        """The lower envelope of the lines for every integer ``n >= n0`` (an :class:`analytic.engines._pl.PL`);
        raises :class:`analytic.engines._pl.UndecidedSign` as :func:`analytic.engines._pl.lower_envelope`."""
        return envelope_of_polys(self.A, self.Da, self.S, self.Ds, self.line_expr, self.n, n0)
