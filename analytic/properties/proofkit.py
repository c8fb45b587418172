r"""The steps of a symbolic proof on one generic matrix, shared by the properties' proofs.

Each property of :mod:`analytic.properties.catalog` that has a finite-K proof
writes it as its method :meth:`~analytic.properties.catalog.Property.prove_pattern`
(issue 41 item 3: before, the proofs, their statements and their vacuous cases
were dictionaries keyed by name in :mod:`analytic.properties.prover`).  The
methods are built from the steps here: an equality of two values
(:func:`same_value`), a certified sign (:func:`certify`), the moves of one
sample toward the diagonal (:func:`split_moves`).  The prover
(:mod:`analytic.properties.prover`) enumerates the scopes and patterns and calls
the method; its :class:`~analytic.properties.prover.Evaluator` gives the values
(a SymPy expression, or an :class:`~exactfloor.value.Undefined`: undefined on every
instance of the pattern).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import sympy as sp

from exactfloor.certificates import _NEG, _POS, _ge0, _le0, _num, _point, equal, sign
from exactfloor.errors import UndecidedError
from exactfloor.exact_sign import NONNEG, NONPOS
from exactfloor.ratfun import sign_intervals
from exactfloor.tolerance import PROBE
from exactfloor.value import Undefined  # the exact engine's mark of "undefined", here on every instance

from .generators import matrix_text, step_toward_diagonal

__all__ = ["SCALE", "Undefined", "short", "same_value", "certify", "split_moves", "Refutation",
           "refute_family", "symbols_of", "instance"]

#: the factor of the scale property (any positive integer)
SCALE = sp.Symbol("k", integer=True, positive=True)


def short(e, n=120):
    """``e`` printed, cut at ``n`` characters (the reasons a proof gives).

    Parameters
    ----------
    e : object
        A SymPy expression (or anything SymPy prints).
    n : int, default 120
        The longest text kept.

    Returns
    -------
    str
        The text, with ``...`` where it was cut.

    Examples
    --------
    >>> short(sp.Symbol("x") + 1), short(sp.Symbol("y" * 10), 4)
    ('x + 1', 'yyyy...')
    """
    s = sp.sstr(e)
    return s if len(s) <= n else s[:n] + "..."


def symbols_of(m) -> list:
    """The symbols of an object matrix of counts, each once, sorted by name.

    Parameters
    ----------
    m : numpy.ndarray
        Counts: integers and SymPy expressions.

    Returns
    -------
    list of sympy.Symbol

    Examples
    --------
    >>> import numpy as np
    >>> t, n = sp.symbols("t n01", integer=True, positive=True)
    >>> symbols_of(np.array([[t + 1, n], [0, 2]], dtype=object))
    [n01, t]
    """
    return sorted(set().union(*(sp.sympify(x, strict=True).free_symbols for x in m.reshape(-1))), key=str)


def instance(m, point) -> np.ndarray:
    """The count matrix of ``m`` at ``point`` (a value for each of its symbols).

    Parameters
    ----------
    m : numpy.ndarray
        Counts: integers and SymPy expressions.
    point : dict
        ``{symbol: integer}``.

    Returns
    -------
    numpy.ndarray
        ``int64``.

    Examples
    --------
    >>> import numpy as np
    >>> t = sp.Symbol("t", integer=True, positive=True)
    >>> instance(np.array([[t + 1, 0], [0, 2]], dtype=object), {t: 3}).tolist()
    [[4, 0], [0, 2]]
    """
    return np.array([[int(sp.sympify(x, strict=True).xreplace(point)) for x in row] for row in m],
                    dtype=np.int64)


def same_value(ev, a, b, what):
    """``f(a) = f(b)`` on every instance (both undefined counts as equal).

    Parameters
    ----------
    ev : callable
        The metric on symbolic matrices (:class:`analytic.properties.prover.Evaluator`).
    a, b : numpy.ndarray
        Two matrices of symbolic counts.
    what : str
        The relation in words (the start of the reason).

    Returns
    -------
    str or None
        None when the identity is proved (:func:`exactfloor.certificates.equal`), else why not.

    Examples
    --------
    >>> import numpy as np
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> ev = lambda m: m[0, 1] / (m[0, 0] + m[0, 1])
    >>> a = np.array([[n, 1], [0, 0]], dtype=object)
    >>> same_value(ev, a, 2 * a, "f(2A) = f(A)") is None
    True
    """
    va, vb = ev(a), ev(b)
    if isinstance(va, Undefined) and isinstance(vb, Undefined):
        return None
    if isinstance(va, Undefined) or isinstance(vb, Undefined):
        return f"{what}: f({matrix_text(a)}) and f({matrix_text(b)}) are not both defined"
    ok, why = equal(va, vb)
    return None if ok else f"{what}: f({matrix_text(a)}) = f({matrix_text(b)}) not proved: {why}"


_NEEDS = {">= 0": _ge0, "> 0": lambda x: x == _POS, "<= 0": _le0, "< 0": lambda x: x == _NEG}


def certify(d, need):
    """Whether ``d`` is certified to satisfy ``need`` at every positive integer point.

    A numerical refutation at two seeded points first (cheap), then the certificate
    (:func:`exactfloor.certificates.sign`).

    Parameters
    ----------
    d : sympy.Expr
        An expression in positive integer symbols.
    need : {">= 0", "> 0", "<= 0", "< 0"}
        The relation.

    Returns
    -------
    str or None
        None when certified, else why not (the refuting point, or "not certified").

    Examples
    --------
    >>> a = sp.Symbol("a", integer=True, positive=True)
    >>> certify(a - 1, ">= 0") is None, certify(a - 1, "> 0")
    (True, 'a - 1 not certified > 0')
    """
    d = sp.sympify(d, strict=True)
    syms = sorted(d.free_symbols, key=str)
    upper = need.startswith("<")  # d must not be clearly positive
    for seed in (1, 2):
        point = _point(syms, seed)
        v = _num(d, point)
        if v is not None and (v > PROBE if upper else v < -PROBE):
            return f"{short(d)} is {sp.N(v, 6)} at {point}, not {need}"
    if _NEEDS[need](sign(d)):
        return None
    return f"{short(d)} not certified {need}"


def split_moves(m):
    """The moves of monotonicity's proof: one sample of an off-diagonal cell one step
    toward the diagonal, the cell's count being 1 or ``n + 1`` (so that the count left
    after the move is 0 or ``n``: its support is decided).

    Parameters
    ----------
    m : numpy.ndarray
        A generic matrix (object array of symbols and zeros).

    Yields
    ------
    tuple
        ``((i, j), before, after)``.

    Examples
    --------
    >>> import numpy as np
    >>> n = sp.Symbol("n01", integer=True, positive=True)
    >>> [(c, b.tolist(), a.tolist()) for c, b, a in split_moves(np.array([[0, n], [0, 0]], dtype=object))]
    [((0, 1), [[0, 1], [0, 0]], [[1, 0], [0, 0]]), ((0, 1), [[0, n01 + 1], [0, 0]], [[1, n01], [0, 0]])]
    """
    K = m.shape[0]
    for i, j in itertools.product(range(K), repeat=2):
        if i == j or m[i, j] == 0:
            continue
        for c in (sp.Integer(1), m[i, j] + 1):
            a = m.copy()
            a[i, j] = c
            yield (i, j), a, step_toward_diagonal(a, i, j)


@dataclass(frozen=True)
class Refutation:
    """A pattern's relation fails on a region of its counts (issue 41 item 2).

    Parameters
    ----------
    reason : str
        What was not certified.
    region : str
        The counts where the relation fails, in words (a closed form of the family).
    matrix : numpy.ndarray
        One concrete count matrix of the region (to be confirmed by the property's
        exact check before it is a counterexample).

    Examples
    --------
    >>> import numpy as np
    >>> r = Refutation("d not certified < 0", "every t >= 1", np.array([[2, 0], [0, 1]]))
    >>> str(r)
    'd not certified < 0; fails on every t >= 1, e.g. [[2, 0], [0, 1]]'
    """

    reason: str
    region: str
    matrix: np.ndarray

    def __str__(self):
        return f"{self.reason}; fails on {self.region}, e.g. {matrix_text(self.matrix)}"

    def __bool__(self):
        return True


def refute_family(d, need: str, family, symbols, what: str = ""):
    """A region of a symbolic family where ``d`` violates ``need``, and one matrix of it.

    ``d`` is the difference a proof needed certified (``"< 0"`` or ``"<= 0"``, or their
    mirror images); ``family`` the object matrix of counts (expressions in ``symbols``).
    First the certificate of the whole family (:func:`exactfloor.certificates.sign`): a
    difference certified on the wrong side everywhere refutes the whole family.  Else
    one symbol at a time, the others at 1, the exact signs of ``d`` on every positive
    integer value of that symbol, as runs (:func:`exactfloor.ratfun.sign_intervals`): the
    runs of a violating sign are the region and the first integer of the first one gives
    the matrix.

    Parameters
    ----------
    d : sympy.Expr
        The difference.
    need : {"< 0", "<= 0", "> 0", ">= 0"}
        What the relation needs of ``d``.
    family : numpy.ndarray
        The family's matrix (object array of SymPy expressions).
    symbols : sequence of sympy.Symbol
        The family's positive integer symbols.
    what : str, optional
        What ``d`` is, in words (the start of the refutation's reason).

    Returns
    -------
    Refutation or None
        None when no region was found (nothing is proved either way).

    Examples
    --------
    >>> import numpy as np, sympy as sp
    >>> t = sp.Symbol("t", integer=True, positive=True)
    >>> fam = np.array([[t + 1, 0], [0, 1]], dtype=object)
    >>> r = refute_family(3 - t, "< 0", fam, [t])
    >>> r.region, r.matrix.tolist()
    ('1 <= t <= 3 (the other symbols 1)', [[2, 0], [0, 1]])
    >>> print(refute_family(sp.Integer(0), "< 0", fam, [t]).region)
    every positive integer value of t (d = 0)
    """
    d = sp.sympify(d, strict=True)
    bad = {"< 0": {0, 1}, "<= 0": {1}, "> 0": {-1, 0}, ">= 0": {-1}}[need]
    wrong = NONNEG if need.startswith("<") else NONPOS
    symbols = list(symbols)
    ones = {x: sp.Integer(1) for x in symbols}
    if sign(d) <= wrong:
        names = ", ".join(map(str, symbols)) or "the counts"
        return Refutation(f"{what}{' ' if what else ''}{short(d)} is certified {'>= 0' if wrong == NONNEG else '<= 0'}",
                          f"every positive integer value of {names} (d = {short(d, 60)})"
                          if d == 0 else f"every positive integer value of {names}", instance(family, ones))
    for x in symbols:
        e = d.xreplace({y: sp.Integer(1) for y in symbols if y != x})
        try:
            runs = sign_intervals(e, x, 1)
        except (UndecidedError, ValueError, TypeError, sp.PolynomialError):
            continue  # not a rational function of x alone (roots, Max): no closed form here
        hits = []
        for lo, hi, s in runs:
            if s not in bad:
                continue
            if hits and hits[-1][1] is not None and hits[-1][1] + 1 == lo:  # one run of violations
                lo = hits.pop()[0]
            hits.append((lo, hi))
        if not hits:
            continue
        region = " or ".join(f"{x} >= {lo}" if hi is None else f"{x} = {lo}" if hi == lo else
                             f"{lo} <= {x} <= {hi}" for lo, hi in hits) + " (the other symbols 1)"
        return Refutation(f"{what}{' ' if what else ''}{short(d)} is not {need}", region,
                          instance(family, ones | {x: sp.Integer(hits[0][0])}))
    return None
