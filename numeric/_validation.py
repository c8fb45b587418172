"""Input checks shared by every metric: one exact message per problem."""

from __future__ import annotations

import contextlib
import contextvars
import math
from decimal import Decimal
from numbers import Real

import numpy as np

from exactfloor.errors import UndefinedMetric

__all__ = ["check_counts", "integer_counts", "fractional_counts", "numeric_array", "check_beta",
           "check_gamma", "check_missing",
           "undefined_if", "collect_undefined", "unmasked", "is_real_number", "positive_integer"]


def unmasked(x, what):
    """``x`` without its mask: a masked array with a masked entry raises
    (a mask is never silently ignored)."""
    if type(x) is not np.ndarray and isinstance(x, np.ma.MaskedArray):  # np.ma: a lazy attribute
        if np.ma.getmaskarray(x).any():
            raise ValueError(
                f"{what} is a masked array with masked entries; fill them "
                "(numpy.ma.filled) or remove them first")
        return np.ma.getdata(x)
    return x


def numeric_array(cm, what):
    if type(cm) is np.ndarray and cm.dtype.kind in "iuf":  # plain real numbers: nothing to check
        return cm
    cm = unmasked(cm, what)
    try:
        a = np.asarray(cm)
    except (ValueError, TypeError):  # ragged nested sequences
        raise ValueError(f"{what} must be a rectangular array of counts") from None
    if a.dtype.kind in "mM":  # numpy counts timedelta64 among the integers
        raise ValueError(f"{what} must hold real numbers, got dtype {a.dtype} (times, not counts)")
    if a.dtype == object:
        vals = a.reshape(-1).tolist()
        if any(isinstance(v, (bool, np.bool_)) or not is_real_number(v) for v in vals):
            raise ValueError(f"{what} must hold real numbers")
        if _all_small(vals):
            a = np.asarray(vals, dtype=np.float64).reshape(a.shape)
    if a.dtype.kind not in "iufO":  # not bool, complex, strings, bytes, void
        raise ValueError(f"{what} must hold real numbers, got dtype {a.dtype}")
    return a


def positive_integer(n, what):
    """``int(n)`` for an integer ``n >= 1`` (Python or numpy, not bool), else ValueError
    naming ``what``."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{what} must be a positive integer, got {n!r}")
    return int(n)


def is_real_number(v):
    """A real scalar: Python/numpy real, Fraction, Decimal, mpmath mpf, or a real SymPy number."""
    if isinstance(v, (Real, Decimal, np.integer, np.floating)):
        return True
    try:
        import mpmath
        import sympy
    except ImportError:  # pragma: no cover - both are core dependencies
        return False
    if isinstance(v, mpmath.mpf):
        return True
    if isinstance(v, sympy.Basic):
        return bool(v.is_number) and v.is_extended_real is not False
    return False


def _all_small(vals):
    try:
        return all(abs(float(v)) < 2.0**53 for v in vals)
    except (TypeError, ValueError, OverflowError):
        return False


_INT64_MAX = 2**63 - 1


def _finite(v):
    """False for NaN and infinities; an integer or fraction beyond the float
    range (``10**400``) is finite (and too large, said by the caller)."""
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return True


#: True inside :func:`fractional_counts`: :func:`integer_counts` keeps float counts
_FRACTIONAL = contextvars.ContextVar("numeric_fractional_counts", default=False)


@contextlib.contextmanager
def fractional_counts():
    """Within the block, :func:`check_counts` accepts non-negative finite float
    counts that are not whole numbers, and returns them as ``float64``.

    Only for a metric called with label vectors and a fractional
    ``sample_weight``, in float arithmetic, when its registry record takes
    them (no ``integer_weights`` reason: :mod:`numeric.registry`).

    >>> with fractional_counts():
    ...     check_counts([[0.5, 1.0], [0.0, 2.25]]).dtype
    dtype('float64')
    """
    token = _FRACTIONAL.set(True)
    try:
        yield
    finally:
        _FRACTIONAL.reset(token)


def integer_counts(a, what):
    """Elementwise checks of an array of counts, returned as ``int64``.

    ``a`` comes from :func:`numeric_array`; any shape.  Raises ValueError
    for NaN or infinite values, negative or non-integer counts, and counts
    beyond int64.
    """
    if a.dtype == object:
        vals = a.reshape(-1).tolist()
        if any(not _finite(v) for v in vals):
            raise ValueError(f"{what} contains NaN or infinite values")
        if any(v < 0 for v in vals):
            raise ValueError(f"{what} must be non-negative")
        if any(int(v) != v for v in vals):
            raise ValueError(f"{what} must hold integer counts")
        if any(int(v) > _INT64_MAX for v in vals):
            raise ValueError(f"{what} has counts too large for int64")
        a = np.asarray([int(v) for v in vals], dtype=np.int64).reshape(a.shape)
    elif np.issubdtype(a.dtype, np.floating):
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{what} contains NaN or infinite values")
        if np.any(a < 0):
            raise ValueError(f"{what} must be non-negative")
        if _FRACTIONAL.get():  # fractional sample_weight of a metric that takes them (float arithmetic)
            return a.astype(np.float64, copy=False)
        if np.any(a != np.floor(a)):
            raise ValueError(f"{what} must hold integer counts")
        if np.any(a >= 2.0**63):
            raise ValueError(f"{what} has counts too large for int64")
        a = a.astype(np.int64)
    else:
        if a.min() < 0:
            raise ValueError(f"{what} must be non-negative")
        if a.dtype == np.uint64 and np.any(a > np.uint64(_INT64_MAX)):
            raise ValueError(f"{what} has counts too large for int64")
        a = a.astype(np.int64, copy=False)
    return a


def check_counts(cm, *, min_classes: int = 1, what: str = "confusion matrix"):
    """Validate a confusion matrix (or a stack of them) of counts.

    Returns an ``int64`` array of shape ``(..., K, K)``.  Rows are true
    classes, columns predicted classes.

    Raises
    ------
    ValueError
        Not at least 2-D, not square, empty, non-finite, negative, non-integer.
    exactfloor.errors.UndefinedMetric
        All zero (no sample), or fewer than ``min_classes`` classes: the
        formula is undefined there.
    """
    a = numeric_array(cm, what)
    if a.ndim < 2:
        raise ValueError(
            f"{what} must be 2-D (or a stack of shape (..., K, K)), got shape {a.shape}"
        )
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{what} must be square, got shape {a.shape}")
    if a.shape[-1] == 0 or a.size == 0:
        raise ValueError(f"{what} is empty, got shape {a.shape}")
    a = integer_counts(a, what)
    # int64 sums below (totals, row and column sums) must not wrap around; the
    # float64 sums are needed only when the largest count times K^2 could
    if int(a.max()) * a.shape[-1] ** 2 >= 2**62 and np.any(
        a.sum(axis=(-2, -1), dtype=np.float64) >= 2.0**62
    ):
        raise ValueError(f"{what} has a total count too large for int64")
    totals = a.sum(axis=(-2, -1))
    if np.any(totals == 0):
        if a.ndim == 2:  # every metric divides by N (or by a class count)
            raise UndefinedMetric(f"{what} is all zero: it holds no samples")
        where = tuple(int(i) for i in np.argwhere(totals == 0)[0])
        undefined_if(totals == 0,
                     lambda: f"{what} at stack index {where} is all zero: it holds no samples")
    K = a.shape[-1]
    if K < min_classes:  # the formula divides by K - 1 (or by a count of class pairs)
        raise UndefinedMetric(
            f"{what} has {K} class{'es' if K != 1 else ''}; this metric needs at least {min_classes}"
        )
    return a


#: the masks of undefined matrices collected by :func:`collect_undefined` (None: raise)
_UNDEFINED = contextvars.ContextVar("numeric_undefined_masks", default=None)


def undefined_if(mask, message):
    """Raise :class:`~exactfloor.errors.UndefinedMetric` (a ``ValueError``) with
    ``message()`` where a matrix of a stack leaves a metric
    undefined (``mask``: one bool per matrix, the stack's lead shape) -- or,
    inside :func:`collect_undefined`, record the mask and go on (the values
    computed for those matrices are then discarded).

    >>> undefined_if(np.array([False, True]), lambda: "undefined here")
    Traceback (most recent call last):
    ...
    exactfloor.errors.UndefinedMetric: undefined here
    """
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return
    masks = _UNDEFINED.get()
    if masks is None or mask.ndim == 0:
        raise UndefinedMetric(message())
    masks.append(mask)


@contextlib.contextmanager
def collect_undefined():
    """Evaluate a float metric on a whole stack although some matrices leave it
    undefined: the metric's own checks (:func:`undefined_if`) record which
    instead of raising.  Yields the list of masks; numpy's floating-point
    warnings are silenced (the undefined matrices' values are garbage, then
    discarded by the caller, :func:`numeric.comparison.metric_on_stack`).
    """
    masks = []
    token = _UNDEFINED.set(masks)
    try:
        with np.errstate(all="ignore"):
            yield masks
    finally:
        _UNDEFINED.reset(token)


def check_beta(beta, lead_shape=()):
    """Validate beta >= 0 and broadcast it to the stack's leading shape."""
    b = np.asarray(beta, dtype=object)
    for v in b.reshape(-1).tolist():
        try:
            fv = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"beta must be a real number, got {v!r}") from None
        except OverflowError:
            raise ValueError(f"beta is too large (beyond the float range), got {v!r:.60}") from None
        if math.isnan(fv) or math.isinf(fv):
            raise ValueError(f"beta must be finite, got {v!r}")
        if fv < 0 or (fv == 0 and v < 0):
            raise ValueError(f"beta must be >= 0, got {v!r}")
    try:
        return np.broadcast_to(b, lead_shape)
    except ValueError:
        raise ValueError(
            f"beta of shape {b.shape} does not broadcast against the stack shape {lead_shape}"
        ) from None


def check_gamma(gamma):
    """Validate gamma > 0 (a real scalar)."""
    try:
        fg = float(gamma)
    except (TypeError, ValueError):
        raise ValueError(f"gamma must be a real number, got {gamma!r}") from None
    except OverflowError:
        raise ValueError(f"gamma is too large (beyond the float range), got {gamma!r:.60}") from None
    if not math.isfinite(fg) or fg <= 0:
        raise ValueError(f"gamma must be > 0, got {gamma!r}")
    return gamma


def check_missing(missing):
    if missing not in ("ignore", "zero"):
        raise ValueError(f"missing must be 'ignore' or 'zero', got {missing!r}")
    return missing


def is_real_scalar(x):
    return isinstance(x, Real)
