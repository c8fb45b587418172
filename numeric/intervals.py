"""Classes that are intervals: interval TC, TC_max and STC (binotto2024 §4)
and the length of an unbounded rightmost interval that minimises TC_max (§5).

The classes are consecutive intervals ``I_1, ..., I_r`` given by their
lengths ``l_1, ..., l_r`` (their position does not matter: every quantity
is translation invariant).  Two ingredients replace those of :mod:`numeric.cost`:

* the Hausdorff distance of intervals (binotto2024 eq. 7)
  ``d(I_i, I_j) = max(|a_j - a_i|, |b_j - b_i|)`` instead of ``|i - j|``;
* the densities (eq. 8) ``delta_k = n_k / l_k`` instead of the counts in the
  weights ``gamma``.

The formulas are those of :mod:`numeric.cost` (written once, there) applied to
these two ingredients.  Confusion matrices have rows = true class; binotto2024
prints predicted x true (pass ``C.T``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import mpmath
import numpy as np

from exactfloor.arith import get_arithmetic, is_sympy
from ._common import axis_sum, prepare
from ._costs import class_counts_of, cost_weights, max_total_cost, others
from ._validation import unmasked
from .cost import check_class_counts
from .registry import Variant, consecutive_lengths, metric

__all__ = [
    "hausdorff_distances", "interval_cost_matrix", "interval_tc",
    "interval_tc_max", "interval_stc", "optimal_last_length", "OptimalLength",
    "last_length_pieces", "Piece",
]


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def check_lengths(lengths, *, K=None, what="lengths"):
    """Validate interval lengths: finite and > 0, shape ``(..., K)``.

    Returns the input as a numpy array (object dtype kept, so that exact
    inputs such as ``sympy.sqrt(2)/2`` or ``Fraction(1, 3)`` stay exact).
    """
    lengths = unmasked(lengths, what)
    a = np.asarray(lengths, dtype=object if _is_exact_like(lengths) else None)
    if a.dtype != object and (a.dtype == bool or a.dtype.kind in "mM"
                              or not np.issubdtype(a.dtype, np.number)
                              or np.issubdtype(a.dtype, np.complexfloating)):
        raise ValueError(f"{what} must hold real numbers, got dtype {a.dtype}")
    if a.ndim < 1:
        raise ValueError(f"{what} must be 1-D (or a stack of shape (..., K)), got a scalar")
    if K is not None and a.shape[-1] != K:
        raise ValueError(f"{what} has {a.shape[-1]} entries but there are {K} classes")
    for v in a.reshape(-1).tolist():
        try:
            fv = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"{what} must hold real numbers, got {v!r}") from None
        except OverflowError:
            raise ValueError(f"{what} are too large (beyond the float range), got {v!r:.60}") from None
        if math.isnan(fv) or math.isinf(fv):
            raise ValueError(f"{what} contain NaN or infinite values")
        if not fv > 0 or (is_sympy(v) and not bool(v > 0)):
            raise ValueError(f"{what} must be positive, got {v!r}")
    return a


def _unit_lengths(lengths, K, ctx):
    """The lengths divided by a power of two ``S`` near the largest of each row, and ``S``.

    The interval TC and TC_max are homogeneous of degree 1 in the lengths and
    STC of degree 0, so they are computed on lengths of at most 1 and
    rescaled by ``S``: exact in every arithmetic (a power of two), and it
    keeps float64's densities ``n / l`` and costs away from overflow and
    underflow (lengths of 1e-170 or 1e160 gave inf or 0 in float64).
    """
    raw = check_lengths(lengths, K=K)
    top = np.array([float(v) for v in raw.reshape(-1).tolist()]).reshape(raw.shape).max(axis=-1)
    scale = np.empty(top.shape, dtype=object)
    scale.reshape(-1)[:] = [Fraction(2) ** min(max(math.frexp(t)[1], -1021), 1023)
                            for t in top.reshape(-1).tolist()]
    S = ctx.asarray(scale)
    return ctx.asarray(raw) / S[..., None], S


def _finite(value, ctx, what):
    """``value``, or ValueError when float64 overflowed (lengths too far apart)."""
    if not ctx.all_finite(value):
        raise ValueError(
            f"{what}: the lengths span too many orders of magnitude for float64 (an "
            "intermediate overflowed); use arithmetic='exact' or 'mp'")
    return value


def _is_exact_like(x):
    try:
        flat = np.asarray(x, dtype=object).reshape(-1).tolist()
    except (TypeError, ValueError):
        return False
    return any(is_sympy(v) or isinstance(v, (Fraction, str, mpmath.mpf)) for v in flat)


# ---------------------------------------------------------------------------
# the two ingredients (eqs. 7-8)
# ---------------------------------------------------------------------------
def _hausdorff(l):
    """``D[..., i, j] = max(|a_j - a_i|, |b_j - b_i|)`` for consecutive intervals (eq. 7)."""
    b = np.cumsum(l, axis=-1)
    a = b - l
    da = np.abs(a[..., None, :] - a[..., :, None])
    db = np.abs(b[..., None, :] - b[..., :, None])
    return np.maximum(da, db)


def _ingredients(class_counts, lengths, ctx):
    """Counts, densities and Hausdorff distances on the lengths scaled by
    :func:`_unit_lengths`, and the scale ``S`` (the costs are homogeneous of
    degree 1 in the lengths: multiply them by ``S``)."""
    n = ctx.asarray(check_class_counts(class_counts))
    l, S = _unit_lengths(lengths, n.shape[-1], ctx)
    n, l = np.broadcast_arrays(n, l)
    with np.errstate(over="ignore"):  # the callers' _finite says so
        return n, n / l, _hausdorff(l), S


def hausdorff_distances(lengths, *, arithmetic="float"):
    r"""Hausdorff distances between consecutive intervals of the given lengths.

    .. math:: d(I_i, I_j) = \max\{|a_j - a_i|,\ |b_j - b_i|\}
              = \sum_{i < k < j} \ell_k + \max(\ell_i, \ell_j)\quad (i < j)

    binotto2024 eq. 7, with ``I_k = [a_k, b_k)`` and ``a_{k+1} = b_k``.
    The distances are homogeneous in the lengths: they are computed on the
    lengths scaled by a power of two (:func:`_unit_lengths`) and rescaled.

    Parameters
    ----------
    lengths : array_like, shape (K,)
        Positive, finite lengths ``l_k`` of the consecutive class intervals.
    arithmetic : {"float", "exact", "mp"}, default "float"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    ndarray, shape (K, K)
        ``d(I_i, I_j)``, symmetric, zero on the diagonal (in the arithmetic's
        numbers).

    Raises
    ------
    ValueError
        Invalid lengths, or (float) a distance beyond the float64 range
        (``[1e308] * 3`` spans ``3e308``): use ``arithmetic="exact"`` or ``"mp"``.

    Examples
    --------
    >>> hausdorff_distances([1, 1, 3], arithmetic="exact")
    array([[0, 1, 4],
           [1, 0, 3],
           [4, 3, 0]], dtype=object)
    """
    ctx = get_arithmetic(arithmetic)
    l, S = _unit_lengths(lengths, None, ctx)
    with np.errstate(over="ignore"):  # checked below
        D = _hausdorff(l) * S[..., None, None]
    if not ctx.all_finite(D):
        raise ValueError(
            "hausdorff_distances: a distance exceeds the float64 range (the lengths add up to "
            "more than about 1.8e308); use arithmetic='exact' or 'mp'")
    return ctx.finalize(D)


def interval_cost_matrix(class_counts, lengths, *, arithmetic="float"):
    r"""Cost matrix of classification by intervals, rows = true class.

    .. math:: \widehat m_{tp} = \frac{\widehat\gamma_{pt}\, d(I_p, I_t)}{N},\qquad
              \widehat\gamma_{pt} = \frac{\Delta - \delta_t}{\delta_p},\quad
              \delta_k = \frac{n_k}{\ell_k},\ \Delta = \sum_k \delta_k

    binotto2024 Remark 4 (eqs. 7-9), transposed to rows = true class.

    Parameters
    ----------
    class_counts : array_like, shape (K,)
        Positive class counts ``n_1, ..., n_K`` (the true classes' row sums).
    lengths : array_like, shape (K,)
        Positive, finite lengths ``l_k`` of the consecutive class intervals.
    arithmetic : {"float", "exact", "mp"}, default "float"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    ndarray, shape (K, K)
        The costs ``m_tp``, rows = true class (in the arithmetic's numbers).

    Examples
    --------
    binotto2024's toy example (n = (5, 5, 5), lengths (1, 1, x)) at x = 2:
    the paper's ``M`` has first row ``(0, 1 + 1/x, 2(1 + max(1, x)))/15``.

    >>> interval_cost_matrix([5, 5, 5], [1, 1, 2], arithmetic="exact").T[0]
    array([0, 1/10, 2/5], dtype=object)
    """
    ctx = get_arithmetic(arithmetic)
    n, delta, D, S = _ingredients(class_counts, lengths, ctx)
    with np.errstate(over="ignore", invalid="ignore"):  # _finite says so
        cost = cost_weights(n, D, w=delta) * S[..., None, None]
    return ctx.finalize(_finite(cost, ctx, "interval_cost_matrix"))


@metric(
        label="interval TC", input="matrix, lengths", better="lower", symmetric=False,
        bounds=(0, None), source="binotto2024 eq. 9",
        variants=(Variant("interval TC, lengths 1..K", consecutive_lengths),))
def interval_tc(cm, lengths, *, arithmetic="float"):
    r"""Interval total misclassification cost.

    .. math:: \widehat{\mathrm{TC}} = \frac{1}{N}\sum_{t,p} n_{tp}\,
              \frac{\Delta - \delta_t}{\delta_p}\, d(I_p, I_t)

    binotto2024 eq. 9 (Definition 2), rows = true class; with equal lengths
    ``L`` it is ``L * tc(cm)``.

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        Confusion matrix, rows = true class.
    lengths : array_like, shape (..., K)
        Positive lengths ``l_k`` of the class intervals, in order.

    Raises
    ------
    ValueError
        A true class with no samples, a length that is not positive and
        finite, or a number of lengths different from K.

    Examples
    --------
    >>> interval_tc([[3, 2, 0], [2, 2, 1], [1, 2, 2]], [1, 1, 2], arithmetic="exact")  # toy C_A.T, x = 2
    26/15
    """
    p = prepare(cm, arithmetic)
    n = class_counts_of(p)
    l, S = _unit_lengths(lengths, p.K, p.ctx)
    n, l = np.broadcast_arrays(n, l)
    with np.errstate(over="ignore", invalid="ignore"):  # _finite says so
        tc = (p.n * cost_weights(n, _hausdorff(l), w=n / l)).sum(axis=(-2, -1)) * S
    return p.ctx.finalize(_finite(tc, p.ctx, "interval_tc"))


def interval_tc_max(class_counts, lengths, *, arithmetic="float"):
    r"""Maximum of the interval TC over all matrices with the given class counts.

    .. math:: \widehat{\mathrm{TC}}_{max} = \frac{1}{N}\sum_{j} \widehat K_j,\quad
              \widehat K_j = n_j\,\frac{\Delta - \delta_j}{\delta_{\hat\imath_j}}\,
              d(I_{\hat\imath_j}, I_j),\quad
              \hat\imath_j = \arg\max_\ell \frac{d(I_\ell, I_j)}{\delta_\ell}

    binotto2024 Prop. 4; for r = 2 it is ``max(l_1, l_2)`` (Prop. 5).

    Parameters
    ----------
    class_counts : array_like, shape (K,)
        Positive class counts ``n_1, ..., n_K`` (the true classes' row sums).
    lengths : array_like, shape (K,)
        Positive, finite lengths ``l_k`` of the consecutive class intervals.
    arithmetic : {"float", "exact", "mp"}, default "float"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    float, sympy number or mpmath.mpf
        The largest interval TC over the matrices with these row sums.

    Examples
    --------
    >>> interval_tc_max([4, 9], [2, 5], arithmetic="exact")
    5
    >>> interval_tc_max([5, 5, 5], [1, 1, 1], arithmetic="exact")   # = tc_max([5, 5, 5])
    10/3
    """
    ctx = get_arithmetic(arithmetic)
    n, delta, D, S = _ingredients(class_counts, lengths, ctx)
    with np.errstate(over="ignore", invalid="ignore"):  # _finite says so
        top = max_total_cost(n, D, w=delta) * S
    return ctx.finalize(_finite(top, ctx, "interval_tc_max"))


@metric(
        label="interval STC", input="matrix, lengths", better="lower", symmetric=False,
        bounds=(0, 1), source="binotto2024 Definition 3",
        variants=(Variant("interval STC, lengths 1..K", consecutive_lengths),))
def interval_stc(cm, lengths, *, arithmetic="float"):
    r"""Interval standardized total misclassification cost.

    .. math:: \widehat{\mathrm{STC}} = \frac{\widehat{\mathrm{TC}}}
              {\widehat{\mathrm{TC}}_{max}} \in [0, 1]

    binotto2024 Definition 3, with ``TC_max`` of Prop. 4 for the row sums of
    ``cm``.

    Parameters
    ----------
    lengths : array_like, shape (..., K)
        Positive lengths ``l_k`` of the class intervals, in order.

    Examples
    --------
    >>> interval_stc([[0, 1], [1, 0]], [1, 3], arithmetic="exact")
    1
    """
    p = prepare(cm, arithmetic, min_classes=2)
    n = class_counts_of(p)
    l, _ = _unit_lengths(lengths, p.K, p.ctx)  # STC does not depend on the scale
    n, l = np.broadcast_arrays(n, l)
    D = _hausdorff(l)
    with np.errstate(over="ignore", invalid="ignore"):  # _finite says so
        t = (p.n * cost_weights(n, D, w=n / l)).sum(axis=(-2, -1))
        stc = t / max_total_cost(n, D, w=n / l)
    return p.ctx.finalize(_finite(stc, p.ctx, "interval_stc"))


# ---------------------------------------------------------------------------
# the rightmost length (binotto2024 §5)
# ---------------------------------------------------------------------------
class OptimalLength(NamedTuple):
    """Result of :func:`optimal_last_length`."""

    #: the length of the last interval that minimises interval TC_max
    x: object
    #: the minimum value of interval TC_max
    minimum: object


class Piece(NamedTuple):
    r"""One smooth piece of ``x -> interval_tc_max`` (see :func:`last_length_pieces`).

    On ``lo < x <= hi`` (``hi = None`` for infinity) the function equals
    ``a/x + b + c x + e x^2``.
    """

    lo: object
    hi: object
    a: object
    b: object
    c: object
    e: object

    def __call__(self, x):
        return self.a / x + self.b + self.c * x + self.e * x * x


def _structure(counts, first, ctx):
    r"""Branch sets of ``f(x) = interval_tc_max(n, (l_1, ..., l_{r-1}, x))``.

    With ``R`` the last class, ``B = l_1 + ... + l_{r-1}``, ``Delta_0 =
    sum_{k<R} delta_k`` and ``I_k = [a_k, b_k)``, Prop. 4 reads

    ``N f(x) = sum_{j<R} n_j (Delta_0 - delta_j + n_R / x) M_j(x)
    + n_R Delta_0 M_R(x)``

    where ``M_j = max(C_j, x max(B - a_j, B - b_j + x) / n_R)`` with
    ``C_j = max_{l<R} d(I_l, I_j) / delta_l``, and ``M_R = max_{l<R}
    l_l max(B - a_l, B - b_l + x) / n_l``.  Each ``M`` is a maximum of
    polynomials ``u0 + u1 x + u2 x^2``; returns ``[(w, v, branches)]`` where
    the set contributes ``(w + v / x) * max(branches)``.
    """
    n = ctx.asarray(counts)
    l = ctx.asarray(first)
    R = len(counts) - 1
    nR = n[R]
    zero = ctx.number(0)
    delta = n[:R] / l
    Delta0 = axis_sum(delta)[()]
    rest = others(delta)  # Delta0 - delta_j without cancellation
    b = np.cumsum(l)
    a = b - l
    B = b[-1]
    D = _hausdorff(l)
    sets = []
    for j in range(R):
        C = _max(D[k, j] / delta[k] for k in range(R))
        branches = [
            (C, zero, zero),
            (zero, (B - a[j]) / nR, zero),
            (zero, (B - b[j]) / nR, 1 / nR),
        ]
        sets.append((n[j] * rest[j], n[j] * nR, branches))
    branches = []
    for k in range(R):
        branches.append((l[k] * (B - a[k]) / n[k], zero, zero))
        branches.append((l[k] * (B - b[k]) / n[k], l[k] / n[k], zero))
    sets.append((nR * Delta0, zero, branches))
    return axis_sum(n)[()], sets


def _max(values):
    best = None
    for v in values:
        if best is None or v > best:
            best = v
    return best


def _positive_roots_quadratic(d0, d1, d2, ctx):
    """Positive roots of ``d0 + d1 x + d2 x^2`` (see :meth:`Arithmetic.quadratic_roots`)."""
    if d2 == 0:
        if d1 == 0:
            return []
        x = -d0 / d1
        return [x] if x > 0 else []
    return [x for x in ctx.quadratic_roots(d0, d1, d2) if x > 0]


def cubic_positive_root(a, c, e, ctx):
    r"""The positive root of ``2 e x^3 + c x^2 - a`` (``a, e > 0``, ``c >= 0``).

    .. math:: 2 e x^3 + c x^2 = a

    The critical point of a piece ``a/x + b + c x + e x^2`` of
    :func:`last_length_pieces` (binotto2024 §5); one sign change, so one
    positive root (:meth:`exactfloor.arith.Arithmetic.positive_root`: Newton
    from above in a rounding arithmetic, an exact algebraic number in exact).
    """
    return ctx.positive_root([2 * e, c, 0 * a, -a])


def _pieces(counts, first, ctx):
    N, sets = _structure(counts, first, ctx)
    points = []
    for _, _, branches in sets:
        for i in range(len(branches)):
            for k in range(i + 1, len(branches)):
                d = [branches[i][m] - branches[k][m] for m in range(3)]
                points.extend(_positive_roots_quadratic(*d, ctx))
    points.sort(key=ctx.sort_key)
    bps = []
    for v in points:
        if not bps or not ctx.same(bps[-1], v):
            bps.append(v)
    zero = ctx.number(0)
    edges = [zero] + bps + [None]
    pieces = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = ctx.point_between(lo, hi)
        coef = [zero, zero, zero, zero]  # x^-1, x^0, x^1, x^2
        for w, v, branches in sets:
            vals = [u0 + u1 * m + u2 * m * m for u0, u1, u2 in branches]
            u0, u1, u2 = branches[max(range(len(vals)), key=lambda i: (vals[i], -i))]
            coef[0] += v * u0
            coef[1] += w * u0 + v * u1
            coef[2] += w * u1 + v * u2
            coef[3] += w * u2
        coef = [c / N for c in coef]
        if pieces and all(ctx.same(p, q) for p, q in zip(pieces[-1][2:], coef, strict=True)):
            pieces[-1] = Piece(pieces[-1].lo, hi, *pieces[-1][2:])
        else:
            pieces.append(Piece(lo, hi, *coef))
    return pieces


def _check_last(class_counts, lengths):
    counts = check_class_counts(class_counts, min_classes=2)
    if counts.ndim != 1:
        raise ValueError("class_counts must be 1-D for the rightmost-length problem")
    first = check_lengths(lengths, K=len(counts) - 1, what="lengths of the first r-1 intervals")
    if first.ndim != 1:
        raise ValueError("lengths of the first r-1 intervals must be 1-D")
    return counts, first


def last_length_pieces(class_counts, lengths, *, arithmetic="float"):
    r"""The smooth pieces of ``x -> interval_tc_max(class_counts, (*lengths, x))``.

    The function is continuous and piecewise of the form
    ``a/x + b + c x + e x^2`` with ``a, c, e >= 0`` (so convex on each piece):
    in Prop. 4, ``x`` enters through the density ``n_r / x`` and through
    ``max(l_k, x)`` in the Hausdorff distances to the last interval, and each
    ``argmax`` switches where two polynomials of degree <= 2 cross.  The
    breakpoints are all such crossings (exact roots); adjacent pieces with
    the same coefficients are merged.  binotto2024 Appendix A derives these
    pieces by hand for r = 3, balanced counts.

    Parameters
    ----------
    class_counts : array_like, shape (r,)
        Positive class counts, r >= 2.
    lengths : array_like, shape (r - 1,)
        Lengths of the first r - 1 intervals.
    arithmetic : {"float", "exact", "mp"}, default "float"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    tuple of :class:`Piece` ``(lo, hi, a, b, c, e)``, covering ``(0, inf)``.

    Examples
    --------
    binotto2024 Appendix A, case a) with L = 1: three pieces, breakpoints
    L/(L+1) = 1/2 and 1.

    >>> [(p.lo, p.hi) for p in last_length_pieces([1, 1, 1], [1, 1], arithmetic="exact")]
    [(0, 1/2), (1/2, 1), (1, None)]
    """
    ctx = get_arithmetic(arithmetic)
    counts, first = _check_last(class_counts, lengths)
    if ctx.name != "float":
        pieces = ctx.guarded(lambda: _pieces(counts, first, ctx))  # mp: guard bits
        return tuple(Piece(*(None if v is None else ctx.rounded(v) for v in p)) for p in pieces)
    # float64: on the lengths scaled by a power of two S (:func:`_unit_lengths`), then
    # f(x; S l) = S f(x / S; l): lo, hi times S, a times S**2, b times S, e over S
    first, S = _unit_lengths(first, None, ctx)
    S = S[()]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # checked below
        pieces = _pieces(counts, first, ctx)
        out = tuple(Piece(p.lo * S, None if p.hi is None else p.hi * S, p.a * S * S, p.b * S,
                          p.c, p.e / S) for p in pieces)
    if not all(ctx.all_finite(np.array([v for v in p if v is not None])) for p in out):
        raise ValueError(
            "last_length_pieces: a coefficient is beyond the float64 range (the term a/x grows "
            "as the square of the lengths); use arithmetic='exact' or 'mp'")
    return tuple(Piece(*(None if v is None else ctx.rounded(v) for v in p)) for p in out)


def optimal_last_length(class_counts, lengths, *, arithmetic="float"):
    r"""Length of the rightmost interval that minimises interval TC_max.

    .. math:: \tilde x = \arg\min_{x > 0}\ \widehat{\mathrm{TC}}_{max}
              \big(n_1, \dots, n_r;\ \ell_1, \dots, \ell_{r-1}, x\big)

    binotto2024 §5 (Prop. 6 is the case r = 3, n_1 = n_2 = n_3, l_1 = 1).
    Any r >= 2 and any counts.  The function is continuous, piecewise
    ``a/x + b + c x + e x^2`` with ``a, c, e >= 0`` (:func:`last_length_pieces`);
    the global minimum is the least value over the breakpoints and the
    critical point of each piece (``sqrt(a/c)`` when ``e = 0``, the positive
    root of ``2 e x^3 + c x^2 = a`` otherwise).  No local search: in
    ``"exact"`` the breakpoints are exact radicals and the critical points
    radicals or :class:`sympy.CRootOf` (with algebraic lengths such as
    ``sqrt(2)``, a root of the rational polynomial obtained by eliminating the
    radicals); in ``"mp"`` everything is computed with
    guard bits and is exact to the working precision.

    If several x attain the minimum the smallest candidate is returned.  For
    r = 2 the function is ``max(l_1, x)`` (Prop. 5), constant on
    ``(0, l_1]``: then ``x = l_1`` is returned.

    Parameters
    ----------
    class_counts : array_like, shape (r,)
        Positive class counts, r >= 2 (the last one counts every sample above
        the lower end of the unbounded interval).
    lengths : array_like, shape (r - 1,)
        Lengths of the first r - 1 intervals.
    arithmetic : {"float", "exact", "mp"}, default "float"
        The number system (:func:`numeric.get_arithmetic`).

    Returns
    -------
    OptimalLength
        ``(x, minimum)``.

    Examples
    --------
    binotto2024's toy example: x = 1/sqrt(2), minimum (2 sqrt(2) + 7)/3.

    >>> optimal_last_length([5, 5, 5], [1, 1], arithmetic="exact")
    OptimalLength(x=sqrt(2)/2, minimum=2*sqrt(2)/3 + 7/3)
    """
    ctx = get_arithmetic(arithmetic)
    counts, first = _check_last(class_counts, lengths)
    scale = None
    if ctx.name == "float":  # x and TC_max are homogeneous of degree 1 in the lengths
        first, scale = _unit_lengths(first, None, ctx)  # exact: a power of two

    def compute():
        pieces = _pieces(counts, first, ctx)
        cands = []  # (x, value)
        for p in pieces:
            if p.hi is not None:
                cands.append((p.hi, p(p.hi)))
            if p.a != 0 and not (p.c == 0 and p.e == 0):
                xc = ctx.sqrt(p.a / p.c) if p.e == 0 else cubic_positive_root(p.a, p.c, p.e, ctx)
                if xc > p.lo and (p.hi is None or xc < p.hi):
                    cands.append((xc, p(xc)))
        return _argmin(cands, ctx)

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # _finite says so
        x, value = ctx.guarded(compute)  # mp: guard bits, rounded here
    _finite(np.array([x, value]), ctx, "optimal_last_length")
    if scale is not None:
        with np.errstate(over="ignore"):  # checked below
            x, value = x * scale[()], value * scale[()]
        if not ctx.all_finite(np.array([x, value])):
            what = "x" if not ctx.all_finite(np.array([x])) else f"x = {float(x):.4g} but the minimum"
            raise ValueError(
                f"optimal_last_length: the optimum is beyond the float64 range ({what} exceeds "
                "about 1.8e308); use arithmetic='exact' or 'mp'")
    return OptimalLength(ctx.rounded(x), ctx.tidy(ctx.rounded(value)))


def _argmin(cands, ctx):
    """The candidate ``(x, value)`` of least value, the smallest ``x`` among equal
    values (compared by the context: exact ties of algebraic numbers are decided)."""
    keys = [(ctx.sort_key(v), ctx.sort_key(x)) for x, v in cands]
    best = min(range(len(cands)), key=lambda i: keys[i])
    for i in sorted(range(len(cands)), key=lambda i: keys[i][1]):
        if i == best:
            break
        if ctx.same(cands[i][1], cands[best][1]):
            best = i  # an exact tie at a smaller x
            break
    return cands[best]
