r"""Declared structures of metrics and the lemmas that prove properties for every K.

The finite prover (:mod:`analytic.properties.prover`) evaluates a metric on a
matrix of symbolic counts, one size ``K`` at a time.  A statement for every
``K`` needs the metric's *structure*: how its value is built from the cells.
Many ordinal metrics are built from a per-cell cost kernel of the distance
``d = |i - j|`` between the true class ``i`` and the predicted class ``j``:

``SampleMean(kernel, root)``
    .. math:: f(A) = \Big(\frac{1}{N}\sum_{i,j} A_{ij}\,h(|i-j|)\Big)^{1/r}

    (MER, MAE, MSE, RMSE, within-one accuracy);
``ClassAggregate(kernel, aggregate, missing, root)``
    the per-true-class means :math:`m_i = \frac{1}{n_i}\sum_j A_{ij}h(|i-j|)`
    over the observed classes (``n_i > 0``), aggregated by their ``"mean"``
    (over the observed classes, or over all ``K`` with an unobserved class
    counted as ``missing``), ``"max"``, ``"min"`` or ``"gmean"`` (geometric
    mean), then the ``r``-th root (AMAE, MMAE, macro RMSE, MS, GM).

A kernel is given by pieces, ``h(d) = e_k(d)`` for ``s_k <= d < s_{k+1}``,
each ``e_k`` a SymPy expression in the symbol :data:`D`.

Each property is reduced by a **lemma** (the functions ``_lemma_*`` below,
one per property, each stating what it reduces the property to) to facts
about the kernel for every integer distance, which are certified by
:func:`exactfloor.certificates.sign` on positive integer symbols
(``d = s_k - 1 + t``, ``t >= 1``), piece by piece and across the pieces'
boundaries.  The facts (``loss`` = ``h`` for a lower-is-better metric, ``-h``
otherwise, so that every statement is about a loss):

- ``nondecreasing``: ``loss(d + 1) >= loss(d)`` for every ``d >= 0``
  (``increasing``: ``>``);
- ``flat beyond 1``: ``loss(d + 1) = loss(d)`` for every ``d >= 1``;
- ``separates``: ``loss(d) > loss(0)`` for every ``d >= 1``;
- ``within [lo, hi]``: ``lo <= h(d) <= hi`` for every ``d >= 0``;
- ``subadditive``: ``loss(p + q) <= loss(p) + loss(q)`` for ``p, q >= 0`` with
  ``loss(0) = 0``.

A declared structure is a claim about the metric's code, so it is checked
against the metric's exact values (:func:`check_declaration`: every matrix
with ``K <= 3``, ``N <= 3`` and seeded random matrices up to ``K = 10``)
before any lemma uses it, and the proof's text says so.  Every lemma's
conclusion is tested against the finite prover and the search on ``K <= 5``
(``proofs_tests/test_structure.py``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp

from exactfloor import certificates
from exactfloor.exact_sign import NONNEG, POS, ZERO
from exactfloor.exact_sign import vanishes

__all__ = ["D", "Kernel", "SampleMean", "ClassAggregate", "OptimalPath", "STRUCTURES",
           "structure_of", "EveryK", "prove_every_k", "check_declaration", "declaration_max_k",
           "LEMMAS", "PATH_LEMMAS"]

#: the distance ``|i - j|`` of a kernel's pieces (a non-negative integer)
D = sp.Symbol("d", integer=True, nonnegative=True)
_T = sp.Symbol("t", integer=True, positive=True)
_P = sp.Symbol("p", integer=True, positive=True)
_Q = sp.Symbol("q", integer=True, positive=True)


@dataclass(frozen=True)
class Kernel:
    """A per-cell cost ``h(|i - j|)`` by pieces.

    Parameters
    ----------
    pieces : tuple of (int, sympy.Expr)
        ``(s_k, e_k)``: ``h(d) = e_k(d)`` for ``s_k <= d < s_{k+1}`` (the last
        piece for every ``d >= s_k``); ``s_0 = 0``.
    text : str
        The kernel in words (``"|i - j|"``).

    Examples
    --------
    >>> MAE_KERNEL.at(3), ACCURACY_KERNEL.at(0), ACCURACY_KERNEL.at(2)
    (3, 1, 0)
    """

    pieces: tuple
    text: str

    def at(self, d: int):
        """``h(d)`` for a non-negative integer ``d``."""
        e = next(e for s, e in reversed(self.pieces) if d >= s)
        return sp.sympify(e, strict=True).subs(D, d)

    def matrix(self, K: int) -> np.ndarray:
        """The ``K x K`` kernel ``h(|i - j|)`` as Fractions."""
        return np.array([[Fraction(str(self.at(abs(i - j)))) for j in range(K)]
                         for i in range(K)], dtype=object)


MER_KERNEL = Kernel(((0, sp.Integer(0)), (1, sp.Integer(1))), "[i != j]")
MAE_KERNEL = Kernel(((0, D),), "|i - j|")
MSE_KERNEL = Kernel(((0, D ** 2),), "(i - j)^2")
ACCURACY_KERNEL = Kernel(((0, sp.Integer(1)), (1, sp.Integer(0))), "[i = j]")
WITHIN_ONE_KERNEL = Kernel(((0, sp.Integer(1)), (2, sp.Integer(0))), "[|i - j| <= 1]")


@dataclass(frozen=True)
class SampleMean:
    r"""``f(A) = (sum_ij A_ij h(|i - j|) / N)^(1/root)``: a mean of a per-cell kernel over the samples.

    Parameters
    ----------
    kernel : Kernel
        The per-cell cost ``h``.
    root : int, default 1
        The root taken of the mean (2: RMSE).

    Examples
    --------
    >>> import numpy as np
    >>> s = SampleMean(MAE_KERNEL)
    >>> s.text(), s.value(np.array([[2, 1], [0, 1]]))
    ('the mean of |i - j| over the samples', Fraction(1, 4))
    """

    kernel: Kernel
    root: int = 1

    def text(self) -> str:
        inner = f"the mean of {self.kernel.text} over the samples"
        return inner if self.root == 1 else f"the {_ordinal(self.root)} root of {inner}"

    def value(self, m) -> Fraction:
        """The inner mean (before the root) of an ``int64`` matrix, exactly."""
        N = int(m.sum())
        if N == 0:
            raise ValueError("no sample")
        return sum((int(c) * w for c, w in zip(m.ravel(), self.kernel.matrix(len(m)).ravel(),
                                               strict=True)), Fraction(0)) / N


@dataclass(frozen=True)
class ClassAggregate:
    r"""The per-true-class means of the kernel, aggregated (see the module docstring).

    Parameters
    ----------
    kernel : Kernel
        The per-cell cost ``h``.
    aggregate : {"mean", "max", "min", "gmean"}, default "mean"
        How the per-class means are combined.
    missing : number or None, default None
        None: over the observed true classes; a number: an unobserved class's value.
    root : int, default 1
        The root taken of the aggregate.

    Examples
    --------
    >>> import numpy as np
    >>> c = ClassAggregate(MAE_KERNEL, "max")
    >>> c.text(), c.value(np.array([[2, 1], [0, 1]]))
    ('the maximum of the per-class means of |i - j| over the observed true classes', Fraction(1, 3))
    """

    kernel: Kernel
    aggregate: str = "mean"
    missing: object = None  # None: over the observed classes; a number: an unobserved class's value
    root: int = 1

    def text(self) -> str:
        agg = {"mean": "the mean", "max": "the maximum", "min": "the minimum",
               "gmean": "the geometric mean"}[self.aggregate]
        over = ("over the observed true classes" if self.missing is None else
                f"over all K classes, an unobserved one counted {self.missing}")
        inner = f"{agg} of the per-class means of {self.kernel.text} {over}"
        return inner if self.root == 1 else f"the {_ordinal(self.root)} root of {inner}"

    def rows(self, m):
        W = self.kernel.matrix(len(m))
        out = []
        for i, row in enumerate(m):
            n = int(row.sum())
            if n:
                out.append(sum((int(c) * w for c, w in zip(row, W[i], strict=True)),
                               Fraction(0)) / n)
            elif self.missing is not None:
                out.append(Fraction(self.missing))
        if not out:
            raise ValueError("no class counts")
        return out

    def value(self, m):
        """The aggregate before the root (for ``"gmean"``: the product and its degree)."""
        r = self.rows(m)
        if self.aggregate == "mean":
            return sum(r, Fraction(0)) / len(r)
        if self.aggregate == "max":
            return max(r)
        if self.aggregate == "min":
            return min(r)
        return math.prod(r, start=Fraction(1)), len(r)


def _ordinal(r):
    return {2: "square"}.get(r, f"{r}-th")


@dataclass(frozen=True)
class OptimalPath:
    r"""The Ordinal Classification Index family at ``gamma = 1``: the least value over the
    monotone paths ``P`` from cell ``(0, 0)`` to ``(K - 1, K - 1)`` (steps down, right or
    diagonal) of

    .. math:: 1 - \sum_{(r, c) \in P} b_{rc} + \beta \sum_{(r, c) \in P} q_{rc}

    ``kind="oc"`` (cardoso2011 eq. 7 with the table's beta): :math:`b = n/(N + M)`,
    :math:`q = n|r - c|`, :math:`M = \sum n|r - c|`, :math:`\beta = c / (N (K - 1))`;
    ``kind="uoc"`` (silva2018 eq. 28): :math:`\hat p = n / N_r` on the observed rows,
    :math:`b = \hat p / D`, :math:`q = \hat p |r - c| / K'`, :math:`D = K' + M'`,
    :math:`M' = \sum \hat p |r - c|`; ``integrated``: :math:`\int_0^1` of the ``"uoc"``
    value over :math:`\beta` (A_UOC, silva2018 eq. 23).

    Parameters
    ----------
    kind : {"oc", "uoc"}
        Which index.
    beta : number, optional
        ``"oc"``: ``c`` of :math:`\beta = c / (N (K - 1))`; ``"uoc"``: beta; None when integrated.
    integrated : bool, default False
        The integral over beta in ``[0, 1]`` of the ``"uoc"`` value (A_UOC).
    check_max_k : int, default 8
        The declaration is checked on matrices up to this ``K`` (the integral enumerates paths).

    Examples
    --------
    >>> STRUCTURES["a_uoc", "A_UOC"] == OptimalPath("uoc", integrated=True, check_max_k=4)
    True
    """

    kind: str
    beta: object = None  # oc: c of beta = c / (N (K - 1)); uoc: beta; None when integrated
    integrated: bool = False
    root = 1
    kernel = None
    #: the declaration is checked on matrices up to this K (the integral enumerates paths)
    check_max_k: int = 8

    def text(self) -> str:
        if self.integrated:
            return ("the integral over beta in [0, 1] of UOC's least path value (silva2018 "
                    "eq. 23 with eq. 28)")
        if self.kind == "oc":
            return (f"the least value over monotone paths of 1 - sum b + beta sum q, b = n / "
                    f"(N + M), q = n |i - j|, beta = {self.beta} / (N (K - 1)) (cardoso2011 "
                    "eq. 7)")
        return (f"the least value over monotone paths of 1 - sum b + {self.beta} sum q, b = p / "
                "(K' + M'), q = p |i - j| / K', p = n / N_i on the observed rows (silva2018 "
                "eq. 28)")

    def weights(self, m):
        """``(b, q, beta)`` of an ``int64`` matrix, as Fractions."""
        K, N = len(m), int(m.sum())
        if N == 0:
            raise ValueError("no sample")
        d = [[abs(i - j) for j in range(K)] for i in range(K)]
        if self.kind == "oc":
            M = sum(int(m[i, j]) * d[i][j] for i in range(K) for j in range(K))
            b = [[Fraction(int(m[i, j]), N + M) for j in range(K)] for i in range(K)]
            q = [[Fraction(int(m[i, j]) * d[i][j]) for j in range(K)] for i in range(K)]
            beta = Fraction(0) if K == 1 else Fraction(self.beta) / (N * (K - 1))
            return b, q, beta
        rows = [int(r.sum()) for r in m]
        p = [[Fraction(int(m[i, j]), rows[i]) if rows[i] else Fraction(0) for j in range(K)]
             for i in range(K)]
        Kp = sum(1 for r in rows if r)
        M = sum(p[i][j] * d[i][j] for i in range(K) for j in range(K))
        b = [[p[i][j] / (Kp + M) for j in range(K)] for i in range(K)]
        q = [[p[i][j] * d[i][j] / Kp for j in range(K)] for i in range(K)]
        return b, q, None if self.beta is None else Fraction(self.beta)

    def value(self, m) -> Fraction:
        """The value, exactly: a plain DP over the cells (every path's value is a sum of
        per-cell costs ``beta q - b``), or for the integral every path's line enumerated."""
        b, q, beta = self.weights(m)
        K = len(m)
        if not self.integrated:
            W = [[None] * K for _ in range(K)]
            for i in range(K):
                for j in range(K):
                    prev = [W[a][c] for a, c in ((i - 1, j - 1), (i - 1, j), (i, j - 1))
                            if a >= 0 and c >= 0]
                    W[i][j] = beta * q[i][j] - b[i][j] + (min(prev) if prev else 0)
            return 1 + W[K - 1][K - 1]
        lines = set()
        for path in _paths(K):
            lines.add((1 - sum(b[i][j] for i, j in path), sum(q[i][j] for i, j in path)))
        lines = sorted(lines)
        xs = {Fraction(0), Fraction(1)}
        for a1, s1 in lines:
            for a2, s2 in lines:
                if s1 != s2:
                    x = (a2 - a1) / (s1 - s2)
                    if 0 < x < 1:
                        xs.add(x)
        xs = sorted(xs)
        total = Fraction(0)
        for x0, x1 in zip(xs, xs[1:], strict=False):
            mid = (x0 + x1) / 2
            a, s_ = min(lines, key=lambda line: line[0] + line[1] * mid)
            total += a * (x1 - x0) + s_ * (x1 * x1 - x0 * x0) / 2
        return total


def _paths(K):
    """Every monotone path from ``(0, 0)`` to ``(K - 1, K - 1)`` (steps down, right,
    diagonal), as tuples of cells (Delannoy numbers of them: 1, 3, 13, 63, ...)."""
    out = []

    def walk(i, j, acc):
        acc = acc + ((i, j),)
        if (i, j) == (K - 1, K - 1):
            out.append(acc)
            return
        for a, c in ((i + 1, j), (i, j + 1), (i + 1, j + 1)):
            if a < K and c < K:
                walk(a, c, acc)
    walk(0, 0, ())
    return out


#: the declared structures of registered variants, by (metric name, variant label)
STRUCTURES = {
    ("mer", "MER"): SampleMean(MER_KERNEL),
    ("mae", "MAE"): SampleMean(MAE_KERNEL),
    ("mse", "MSE"): SampleMean(MSE_KERNEL),
    ("rmse", "RMSE"): SampleMean(MSE_KERNEL, root=2),
    ("within_one_accuracy", "within-one accuracy"): SampleMean(WITHIN_ONE_KERNEL),
    ("amae", "AMAE (observed classes)"): ClassAggregate(MAE_KERNEL, "mean"),
    ("amae", "AMAE (missing = zero)"): ClassAggregate(MAE_KERNEL, "mean", missing=0),
    ("mmae", "MMAE"): ClassAggregate(MAE_KERNEL, "max"),
    ("macro_rmse", "macro RMSE"): ClassAggregate(MSE_KERNEL, "mean", root=2),
    ("minimum_sensitivity", "MS (observed classes)"): ClassAggregate(ACCURACY_KERNEL, "min"),
    ("minimum_sensitivity", "MS (missing = zero)"): ClassAggregate(ACCURACY_KERNEL, "min",
                                                                   missing=0),
    ("geometric_mean_sensitivity", "GM (observed classes)"): ClassAggregate(ACCURACY_KERNEL,
                                                                            "gmean"),
    ("geometric_mean_sensitivity", "GM (missing = zero)"): ClassAggregate(ACCURACY_KERNEL,
                                                                          "gmean", missing=0),
    ("oc", "OC, beta=0.25/(N(K-1))"): OptimalPath("oc", Fraction(1, 4)),
    ("oc", "OC, beta=0.75/(N(K-1))"): OptimalPath("oc", Fraction(3, 4)),
    ("uoc", "UOC, beta=0.25"): OptimalPath("uoc", Fraction(1, 4)),
    ("uoc", "UOC, beta=0.75"): OptimalPath("uoc", Fraction(3, 4)),
    ("a_uoc", "A_UOC"): OptimalPath("uoc", integrated=True, check_max_k=4),
}


def structure_of(name: str, label: str):
    """The declared structure of a registered variant, or None.

    Parameters
    ----------
    name : str
        A registered metric.
    label : str
        One of its variants' labels.

    Returns
    -------
    SampleMean, ClassAggregate, OptimalPath or None
        Its entry of :data:`STRUCTURES`; None: no structure declared.

    Examples
    --------
    >>> structure_of("mae", "MAE").text()
    'the mean of |i - j| over the samples'
    """
    return STRUCTURES.get((name, label))


# ---------------------------------------------------------------------------
# the declaration, checked against the metric
# ---------------------------------------------------------------------------
def _agrees(structure, v, m) -> bool:
    """Whether the metric's exact value ``v`` (a SymPy number) is the structure's on ``m``."""
    inner = structure.value(m)
    if isinstance(inner, tuple):  # a geometric mean: v^k = product
        prod, k = inner
        return vanishes(sp.Rational(prod.numerator, prod.denominator) - v ** k) \
            and v >= 0
    q = sp.Rational(inner.numerator, inner.denominator)
    if structure.root == 1:
        return vanishes(v - q)
    return v >= 0 and vanishes(v ** structure.root - q)


def declaration_max_k(structure, max_k=10) -> int:
    """The largest ``K`` of :func:`check_declaration`'s random matrices for ``structure``.

    The integral of the path structure enumerates every path: at most ``K = 4``.

    Parameters
    ----------
    structure : SampleMean, ClassAggregate or OptimalPath
        A declared structure.
    max_k : int, default 10
        The largest ``K`` asked for.

    Returns
    -------
    int
        ``max_k``, or the structure's ``check_max_k`` if smaller.

    Examples
    --------
    >>> declaration_max_k(STRUCTURES["mae", "MAE"]), declaration_max_k(STRUCTURES["a_uoc", "A_UOC"])
    (10, 4)
    """
    return min(max_k, getattr(structure, "check_max_k", max_k))


def check_declaration(structure, exact, *, seed=0, random=120, max_k=10, max_n=40,
                      every=(3, 3)) -> int:
    """Check a declared structure against the metric's exact values.

    Every matrix with ``K <= every[0]`` and ``N <= every[1]``, and ``random`` seeded random
    matrices with ``2 <= K <= max_k``, ``1 <= N <= max_n`` (empty rows and
    columns included).

    Parameters
    ----------
    structure : SampleMean, ClassAggregate or OptimalPath
        The declared structure.
    exact : callable
        The metric on an ``int64`` matrix, exactly (a SymPy number; ``ValueError``
        where undefined).
    seed : int, default 0
        The seed of the random matrices.
    random : int, default 120
        How many random matrices.
    max_k, max_n : int, default 10 and 40
        Their largest ``K`` (see :func:`declaration_max_k`) and ``N``.
    every : tuple of (K, N), default (3, 3)
        Every matrix with ``K <= every[0]`` and ``N <= every[1]`` is checked too.

    Returns
    -------
    int
        How many matrices were checked.

    Raises
    ------
    ValueError
        Naming the first matrix where the declaration and the metric disagree
        (or where one of them is undefined and the other is not).

    Examples
    --------
    >>> from numeric import mae
    >>> check_declaration(STRUCTURES["mae", "MAE"],
    ...                   lambda m: mae(m, arithmetic="exact"), random=20) > 20
    True
    """
    from .generators import all_matrices, random_matrices

    max_k = declaration_max_k(structure, max_k)
    mats = list(all_matrices(*every)) + random_matrices((2, max_k), (1, max_n), random, seed=seed)
    for m in mats:
        try:
            v = sp.sympify(exact(m), strict=True)
        except ValueError:
            v = None
        try:
            structure.value(m)
            mine = True
        except ValueError:
            mine = False
        if (v is None) != (not mine) or (v is not None and not _agrees(structure, v, m)):
            raise ValueError(f"the declared structure ({structure.text()}) disagrees with the "
                             f"metric on {m.tolist()}: the metric gives {v}")
    return len(mats)


# ---------------------------------------------------------------------------
# facts about a kernel, for every integer distance
# ---------------------------------------------------------------------------
def _pos(e):
    return certificates.sign(sp.expand(e)) == POS


def _ge0(e):
    return certificates.sign(sp.expand(e)) <= NONNEG


def _zero(e):
    return certificates.sign(sp.expand(e)) == ZERO


def _ranges(kernel):
    """``(s, e, end)`` per piece: ``h = e`` on ``s <= d < end`` (end None: unbounded)."""
    ps = kernel.pieces
    return [(s, sp.sympify(e, strict=True), ps[k + 1][0] if k + 1 < len(ps) else None)
            for k, (s, e) in enumerate(ps)]


def _for_every(kernel, rel, lo=0):
    """Whether ``rel(h, d)`` (a SymPy expression certified by ``_pos``/``_ge0``/... in
    the caller's ``test``) holds for every integer ``d >= lo``: each piece's finite
    part is checked point by point, its unbounded part with ``d = s - 1 + t``."""
    test, expr_of = rel
    for s, _, end in _ranges(kernel):
        if end is not None:
            if not all(test(expr_of(kernel, d)) for d in range(max(s, lo), end)):
                return False
        else:
            start = max(s, lo)
            if not test(expr_of(kernel, start - 1 + _T)):
                return False
    return True


def _h(kernel, d):
    """``h(d)`` for an integer or a symbolic ``d`` (past the last finite piece)."""
    if isinstance(d, int):
        return kernel.at(d)
    return sp.sympify(kernel.pieces[-1][1], strict=True).subs(D, d)


def _step(kernel, d):
    """``h(d + 1) - h(d)``; a symbolic ``d`` lies in the last piece, so does ``d + 1``."""
    return _h(kernel, d + 1) - _h(kernel, d)


@functools.lru_cache(maxsize=None)
def facts(kernel: Kernel, orient: int) -> dict:
    """The certified facts of a kernel oriented as a loss (``orient`` = +1 for a
    lower-is-better metric, -1 otherwise): ``{name: bool}`` (False: not certified).

    >>> f = facts(MAE_KERNEL, 1)
    >>> f["increasing"], f["flat beyond 1"], f["subadditive"]
    (True, False, True)
    >>> facts(MSE_KERNEL, 1)["subadditive"]
    False
    """
    o = sp.Integer(orient)
    out = {
        "nondecreasing": _for_every(kernel, (_ge0, lambda k, d: o * _step(k, d))),
        "increasing": _for_every(kernel, (_pos, lambda k, d: o * _step(k, d))),
        "flat beyond 1": _for_every(kernel, (_zero, lambda k, d: _step(k, d)), lo=1),
        "separates": _for_every(kernel, (_pos, lambda k, d: o * (_h(k, d) - k.at(0))), lo=1),
        "nonnegative": _for_every(kernel, (_ge0, lambda k, d: _h(k, d))),
    }
    out["subadditive"] = _subadditive(kernel, orient)
    return out


def _subadditive(kernel, orient):
    """``loss(p + q) <= loss(p) + loss(q)`` for ``p, q >= 0``, ``loss(0) = 0``: a kernel
    whose loss is 0 at 0 and is either one polynomial (``p, q >= 1``: ``p + q`` in the
    same piece) or 0 then a constant ``c >= 0`` (the discrete metric, scaled)."""
    ps = _ranges(kernel)
    if orient * kernel.at(0) != 0:
        return False
    if len(ps) == 1:
        e = orient * ps[0][1]
        return _ge0(e.subs(D, _P) + e.subs(D, _Q) - e.subs(D, _P + _Q))
    if len(ps) == 2 and ps[1][0] == 1 and not ps[1][1].free_symbols:
        return orient * ps[1][1] >= 0
    return False


def within(kernel, lo, hi) -> bool:
    """``lo <= h(d) <= hi`` for every ``d >= 0`` (a None bound is not checked)."""
    ok = True
    if lo is not None:
        ok &= _for_every(kernel, (_ge0, lambda k, d: _h(k, d) - lo))
    if hi is not None:
        ok &= _for_every(kernel, (_ge0, lambda k, d: hi - _h(k, d)))
    return ok


# ---------------------------------------------------------------------------
# the lemmas
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class EveryK:
    """A property proved for every ``K`` (and every ``N >= 1``) from a declared structure.

    Parameters
    ----------
    property : str
        The property's name.
    structure : str
        The declared structure, in words.
    lemma : str
        The lemma's reduction and the certified kernel facts it used.
    checked : int
        Matrices on which the declaration was checked against the metric.
    up_to_k : int
        The largest ``K`` among them (:func:`declaration_max_k`).

    Examples
    --------
    >>> p = prove_every_k(STRUCTURES["mae", "MAE"], "monotonicity", "lower", (0, None), checked=5)
    >>> p.property, p.structure, p.checked, p.up_to_k
    ('monotonicity', 'the mean of |i - j| over the samples', 5, 10)
    """

    property: str
    structure: str
    lemma: str
    checked: int = 0
    up_to_k: int = 10

    def text(self) -> str:
        return (f"proved for every K from the declared structure f = {self.structure} "
                f"(the declaration checked against the metric's exact values on "
                f"{self.checked:,} matrices up to K = {self.up_to_k}): {self.lemma}")


def _root_ok(s, f):
    """A root ``r > 1`` keeps every comparison when the inner value is >= 0."""
    return s.root == 1 or f["nonnegative"]


def _lemma_scale(s, f, ctx):
    if isinstance(s, SampleMean):
        return "f(kA): every A_ij and N are multiplied by k, so the mean is unchanged"
    return ("f(kA): every row's count and cells are multiplied by k, so each per-class mean and "
            "the set of observed classes are unchanged")


def _lemma_symmetry(s, f, ctx):
    if isinstance(s, SampleMean):
        return ("A^T moves the count of cell (i, j) to (j, i), and h(|i - j|) = h(|j - i|): the "
                "sum and N are unchanged")
    return None


def _lemma_empty_class(s, f, ctx):
    if isinstance(s, SampleMean):
        return ("an empty class at an end shifts every index by 0 or 1 together: every |i - j| "
                "and N are unchanged")
    if s.missing is None:
        return ("an empty class at an end shifts every index together: each per-class mean is "
                "unchanged, and the empty class is not observed, so the aggregate is unchanged")
    return None


def _lemma_ordinal_invariance(s, f, ctx):
    if not f["flat beyond 1"]:
        return None
    if isinstance(s, SampleMean):
        return ("an empty class inserted between classes raises |i - j| by 1 for the samples "
                "across it (|i - j| >= 1 before), and h(d + 1) = h(d) for d >= 1 [flat beyond 1]")
    if s.missing is None:
        return ("an empty class inserted between classes raises |i - j| by 1 for the samples "
                "across it (|i - j| >= 1 before), h(d + 1) = h(d) for d >= 1 [flat beyond 1], and "
                "the inserted class is not observed: every per-class mean and the aggregate "
                "are unchanged")
    return None


def _lemma_unobserved(s, f, ctx):
    if isinstance(s, SampleMean):
        return "an empty row leaves N >= 1, the only denominator"
    return ("an empty row is skipped (or counted as its stated value), and a matrix with N >= 1 "
            "has an observed class: every denominator n_i of an observed class is >= 1")


def _agg_monotone(s, strict):
    if isinstance(s, SampleMean):
        return True
    if s.aggregate == "mean":
        return True
    return not strict


def _lemma_monotone(strict):
    def lemma(s, f, ctx):
        if not (f["increasing"] if strict else f["nondecreasing"]) or not _root_ok(s, f):
            return None
        if not _agg_monotone(s, strict):
            return None
        rel = ">" if strict else ">="
        fact = "increasing" if strict else "nondecreasing"
        if isinstance(s, SampleMean):
            return (f"a move toward the diagonal turns one sample's distance d >= 1 into d - 1, "
                    f"N unchanged: the loss changes by (loss(d - 1) - loss(d)) / N, and "
                    f"loss(d) {rel} loss(d - 1) [{fact}]")
        agg = {"mean": "the mean, strictly increasing in each class",
               "max": "the maximum, nondecreasing in each class",
               "min": "the minimum, nondecreasing in each class's loss",
               "gmean": "the geometric mean of values >= 0, nondecreasing in each class"}
        return (f"a move toward the diagonal stays in its row i (n_i and the observed classes "
                f"unchanged) and changes row i's mean loss by (loss(d - 1) - loss(d)) / n_i "
                f"with loss(d) {rel} loss(d - 1) [{fact}]; the aggregate is "
                f"{agg[s.aggregate]}")
    return lemma


def _lemma_range(s, f, ctx):
    lo, hi = ctx["bounds"]
    if lo is None and hi is None:
        return None
    lo_in = None if lo is None else lo ** s.root
    hi_in = None if hi is None else hi ** s.root
    if not _root_ok(s, f) or not within(s.kernel, lo_in, hi_in):
        return None
    agg = "a mean" if isinstance(s, SampleMean) else "an aggregate of per-class means"
    return (f"f is {agg} of values h(d) in [{lo}, {hi}] (certified for every d >= 0), every "
            "mean and aggregate (mean, max, min, geometric mean) of values in an interval "
            "lies in it")


def _lemma_identity(s, f, ctx):
    best = ctx["best"]
    if best is None or not f["separates"] or not _root_ok(s, f):
        return None
    if s.kernel.at(0) != best ** s.root:
        return None
    if isinstance(s, SampleMean):
        return (f"h(0) = {best} and loss(d) > loss(0) for d >= 1 [separates]: the mean is the "
                "best value exactly when every sample has d = 0, i.e. A is diagonal")
    if s.missing is not None and s.missing != s.kernel.at(0):
        return None
    return (f"h(0) = {best} and loss(d) > loss(0) for d >= 1 [separates]: a per-class mean is "
            "best exactly when its row is diagonal, and the aggregate of values no better than "
            "the best is best exactly when every one is (an unobserved class counts the best)")


def _lemma_imbalance(populated):
    def lemma(s, f, ctx):
        if not isinstance(s, ClassAggregate) or not f["separates"] or not _root_ok(s, f):
            return None
        if s.missing is not None and s.missing != s.kernel.at(0) and not populated:
            return None
        strict = {"mean": "strictly increasing in each class",
                  "max": "strictly increasing in a class above all the others",
                  "min": "strictly increasing in a class's loss above all the others",
                  "gmean": "strictly increasing in a class while every other value is 1"}
        if s.aggregate == "gmean" and s.kernel.at(0) != 1:
            return None
        return ("on a diagonal matrix, one sample of class c moved to c2 at distance d >= 1 "
                "leaves the classes observed and every other class at loss(0), and gives "
                "class c the mean loss loss(0) + (loss(d) - loss(0)) / n_c; with "
                "loss(d) > loss(0) [separates] and n_c1 > n_c3 this is smaller for c1, and "
                f"the aggregate is {strict[s.aggregate]}"
                + ("" if s.missing is None or populated else
                   " (an unobserved class counts the best value)"))
    return lemma


def _lemma_triangle(s, f, ctx):
    if not isinstance(s, SampleMean):
        return None
    if s.root == 1 and f["subadditive"] and f["nondecreasing"]:
        return ("d(a, b) is the mean over positions of loss(|a_t - b_t|); loss(0) = 0, loss is "
                "nondecreasing and subadditive [certified], so loss(|a_t - c_t|) <= "
                "loss(|a_t - b_t| + |b_t - c_t|) <= loss(|a_t - b_t|) + loss(|b_t - c_t|) at "
                "every position")
    pieces = s.kernel.pieces
    if s.root > 1 and len(pieces) == 1 and vanishes(pieces[0][1] - D ** s.root):
        return (f"d(a, b) = (sum_t |a_t - b_t|^{s.root} / n)^(1/{s.root}) is the l_{s.root} "
                f"norm of a - b divided by n^(1/{s.root}): Minkowski's inequality")
    return None


#: the lemma of each property: ``lemma(structure, facts, ctx) -> text or None``
LEMMAS = {
    "range": _lemma_range,
    "identity": _lemma_identity,
    "symmetry": _lemma_symmetry,
    "triangle": _lemma_triangle,
    "monotonicity": _lemma_monotone(False),
    "ordinal_monotonicity": _lemma_monotone(True),
    "ordinal_monotonicity_populated": _lemma_monotone(True),
    "ordinal_invariance": _lemma_ordinal_invariance,
    "ordinal_invariance_populated": _lemma_ordinal_invariance,
    "imbalance": _lemma_imbalance(False),
    "imbalance_populated": _lemma_imbalance(True),
    "scale": _lemma_scale,
    "empty_class": _lemma_empty_class,
    "unobserved_class": _lemma_unobserved,
}


def _path_range(s, ctx):
    lo, hi = ctx["bounds"]
    if (lo, hi) != (0, 1):
        return None
    if s.integrated:
        return ("UOC_beta lies in [0, 1] for every beta in [0, 1] (the lemma for UOC), so its "
                "integral over [0, 1] does")
    total = "N / (N + M)" if s.kind == "oc" else "K' / (K' + M')"
    return (f"b, q >= 0 and beta >= 0, so every path's value is at least 1 - (the sum of every "
            f"b) = 1 - {total} >= 0; the diagonal path (q = 0 there) has the value 1 - (the "
            "sum of its b) <= 1, so the least value lies in [0, 1]")


def _path_identity(s, ctx):
    if ctx["best"] != 0:
        return None
    if s.integrated:
        return ("UOC_beta = 0 for every beta on a diagonal matrix and UOC_beta > 0 for every "
                "beta on any other (the lemma for UOC), so the integral is 0 exactly on "
                "diagonal matrices")
    mass, extra = (("N", "M = sum n |i - j|") if s.kind == "oc" else
                   ("K'", "M' = sum p |i - j|"))
    return (f"on a diagonal matrix {extra} = 0 and the diagonal path collects every b, "
            f"{mass} / {mass} = 1, at no penalty: the value 0; on any other {extra} > 0, so "
            f"every path collects at most {mass} / ({mass} + {extra.split(' = ')[0]}) < 1 of "
            "b and its value (penalty >= 0) is > 0")


def _path_symmetry(s, ctx):
    if s.kind != "oc" or s.integrated:
        return None
    return ("transposition maps b_ij, q_ij to b_ji, q_ji (N, M and |i - j| unchanged) and "
            "every monotone path to its transpose, a monotone path: the set of path values, "
            "and its least element, is unchanged; beta depends on N and K only")


def _path_scale(s, ctx):
    if s.integrated:
        return "every UOC_beta is unchanged by kA (the lemma for UOC), so is its integral"
    if s.kind == "oc":
        return ("kA multiplies n, N and M by k: b = n / (N + M) is unchanged, and so is "
                "beta q = c n |i - j| / (N (K - 1)): every path's value is unchanged")
    return ("kA leaves p = n / N_i, the observed classes and K' unchanged, so b, q and every "
            "path's value")


def _path_unobserved(s, ctx):
    if s.kind == "oc" and not s.integrated:
        return ("a matrix with an empty row and N >= 1 has K >= 2: the denominators N + M >= 1 "
                "and N (K - 1) >= 1")
    return ("an unobserved row has p = 0 and is not counted in K'; a matrix with N >= 1 has "
            "K' >= 1, every observed N_i >= 1 and D = K' + M' >= 1"
            + (", for every beta" if s.integrated else ""))


#: the lemmas of the path structures (:class:`OptimalPath`): ``lemma(structure, ctx)``
PATH_LEMMAS = {"range": _path_range, "identity": _path_identity, "symmetry": _path_symmetry,
               "scale": _path_scale, "unobserved_class": _path_unobserved}


def prove_every_k(structure, prop: str, better: str, bounds, checked: int = 0):
    """The lemma of ``prop`` for ``structure``: an :class:`EveryK`, or None.

    Parameters
    ----------
    structure : SampleMean or ClassAggregate
        A declared structure (check it first: :func:`check_declaration`).
    prop : str
        A property name.
    better : {"lower", "higher"}
        Which values of the metric are better.
    bounds : (lo, hi)
        The metric's stated bounds (numbers or None).
    checked : int
        How many matrices the declaration was checked on (stated in the proof).

    Returns
    -------
    EveryK or None
        The proof, or None when no lemma of the structure proves the property.

    Examples
    --------
    >>> p = prove_every_k(STRUCTURES["mae", "MAE"], "monotonicity", "lower", (0, None))
    >>> print(p.lemma.split(":")[0])
    a move toward the diagonal turns one sample's distance d >= 1 into d - 1, N unchanged
    >>> prove_every_k(STRUCTURES["mse", "MSE"], "triangle", "lower", (0, None)) is None
    True
    """
    orient = 1 if better == "lower" else -1
    lo, hi = (None if b is None else sp.Rational(b) for b in bounds)
    ctx = {"bounds": (lo, hi), "best": lo if better == "lower" else hi}
    if isinstance(structure, OptimalPath):
        if prop not in PATH_LEMMAS or better != "lower":
            return None
        text = PATH_LEMMAS[prop](structure, ctx)
        return None if text is None else EveryK(prop, structure.text(), text, checked,
                                                declaration_max_k(structure))
    if prop not in LEMMAS:
        return None
    text = LEMMAS[prop](structure, facts(structure.kernel, orient), ctx)
    return None if text is None else EveryK(prop, structure.text(), text, checked,
                                            declaration_max_k(structure))
