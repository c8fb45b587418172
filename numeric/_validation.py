"""Input checks shared by every metric: one exact message per problem."""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

__all__ = ["check_counts", "check_beta", "check_gamma", "check_missing"]


def _numeric_array(cm, what):
    a = np.asarray(cm)
    if a.dtype == object:
        try:
            a = np.asarray(a.tolist(), dtype=np.float64) if _all_small(a) else a
        except (TypeError, ValueError):
            raise ValueError(f"{what} must hold numbers") from None
    if a.dtype == bool or not (
        np.issubdtype(a.dtype, np.number) or a.dtype == object
    ) or np.issubdtype(a.dtype, np.complexfloating):
        raise ValueError(f"{what} must hold real numbers, got dtype {a.dtype}")
    return a


def _all_small(a):
    try:
        return all(abs(float(v)) < 2.0**53 for v in a.reshape(-1).tolist())
    except (TypeError, ValueError, OverflowError):
        return False


def check_counts(cm, *, min_classes: int = 1, what: str = "confusion matrix"):
    """Validate a confusion matrix (or a stack of them) of counts.

    Returns an ``int64`` array of shape ``(..., K, K)``.  Rows are true
    classes, columns predicted classes.

    Raises
    ------
    ValueError
        Not at least 2-D, not square, empty, non-finite, negative, non-integer,
        all-zero, or fewer than ``min_classes`` classes.
    """
    a = _numeric_array(cm, what)
    if a.ndim < 2:
        raise ValueError(
            f"{what} must be 2-D (or a stack of shape (..., K, K)), got shape {a.shape}"
        )
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{what} must be square, got shape {a.shape}")
    if a.shape[-1] == 0 or a.size == 0:
        raise ValueError(f"{what} is empty, got shape {a.shape}")
    if a.dtype == object:
        vals = a.reshape(-1).tolist()
        if any(not math.isfinite(float(v)) for v in vals):
            raise ValueError(f"{what} contains NaN or infinite values")
        if any(v < 0 for v in vals):
            raise ValueError(f"{what} must be non-negative")
        if any(int(v) != v for v in vals):
            raise ValueError(f"{what} must hold integer counts")
        a = np.asarray([int(v) for v in vals], dtype=np.int64).reshape(a.shape)
    elif np.issubdtype(a.dtype, np.floating):
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{what} contains NaN or infinite values")
        if np.any(a < 0):
            raise ValueError(f"{what} must be non-negative")
        if np.any(a != np.floor(a)):
            raise ValueError(f"{what} must hold integer counts")
        if np.any(a >= 2.0**63):
            raise ValueError(f"{what} has counts too large for int64")
        a = a.astype(np.int64)
    else:
        if np.any(a < 0):
            raise ValueError(f"{what} must be non-negative")
        a = a.astype(np.int64)
    totals = a.sum(axis=(-2, -1))
    if np.any(totals == 0):
        if a.ndim == 2:
            raise ValueError(f"{what} is all zero: it holds no samples")
        where = tuple(int(i) for i in np.argwhere(totals == 0)[0])
        raise ValueError(f"{what} at stack index {where} is all zero: it holds no samples")
    K = a.shape[-1]
    if K < min_classes:
        raise ValueError(
            f"{what} has {K} class{'es' if K != 1 else ''}; this metric needs at least {min_classes}"
        )
    return a


def check_beta(beta, lead_shape=()):
    """Validate beta >= 0 and broadcast it to the stack's leading shape."""
    b = np.asarray(beta, dtype=object)
    for v in b.reshape(-1).tolist():
        try:
            fv = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"beta must be a real number, got {v!r}") from None
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
    if not math.isfinite(fg) or fg <= 0:
        raise ValueError(f"gamma must be > 0, got {gamma!r}")
    return gamma


def check_missing(missing):
    if missing not in ("ignore", "zero"):
        raise ValueError(f"missing must be 'ignore' or 'zero', got {missing!r}")
    return missing


def is_real_scalar(x):
    return isinstance(x, Real)
