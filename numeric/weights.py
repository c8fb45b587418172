r"""Whole-number sample weights for the "balanced" class weighting of scikit-learn.

Every metric of a matrix but r_int
(:data:`numeric.registry.INTEGER_WEIGHT_METRICS`) takes fractional
``sample_weight`` in float arithmetic; whole-number weights are counted
exactly in every arithmetic.  scikit-learn's ``class_weight="balanced"`` /
``compute_sample_weight("balanced", y)`` gives the fractional weights
:math:`w_i = N / (K\,n_{y_i})`.  :func:`balanced_weights` gives whole numbers
proportional to them,

.. math:: w_i = L / n_{y_i},\qquad L = \operatorname{lcm}\{n_c : n_c > 0\},

so the weighted matrix is the balanced one times the constant :math:`LK/N`,
and every metric whose value does not change when the matrix is scaled
(MAE, MSE, MER, AMAE, kappa, tau_b, the sensitivities, OC, UOC, ...: the
``scale`` property of docs/properties.md) has exactly the value of the
fractionally weighted metric, in any arithmetic (exact rationals too).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["balanced_weights"]


def balanced_weights(y_true):
    r"""Whole-number sample weights proportional to scikit-learn's "balanced" ones.

    .. math:: w_i = \frac{\operatorname{lcm}\{n_c\}}{n_{y_i}}
              \;\propto\; \frac{N}{K\, n_{y_i}} \ \text{(scikit-learn's)}

    Parameters
    ----------
    y_true : array_like, shape (N,)
        The true labels (the classes are those observed, as scikit-learn's
        ``compute_sample_weight("balanced", y)``).

    Returns
    -------
    ndarray of int64, shape (N,)
        Every class gets the same total weight (``lcm`` of the class counts).

    Raises
    ------
    ValueError
        An empty or non-1-D label vector, or class counts whose least common
        multiple makes the total weight reach ``2**62`` (int64 counts).

    Examples
    --------
    >>> balanced_weights([0, 0, 0, 1, 2, 2]).tolist()     # class totals 6, 6, 6
    [2, 2, 2, 6, 3, 3]
    >>> from numeric import mae, amae
    >>> y, p = [0, 0, 0, 1, 2, 2], [0, 1, 1, 1, 2, 0]
    >>> print(mae(y, p, sample_weight=balanced_weights(y), arithmetic="exact"),
    ...       amae(y, p, arithmetic="exact"))                   # MAE balanced = AMAE
    5/9 5/9
    """
    from .confusion import _label_vector

    y = _label_vector(y_true, "y_true")
    if y.ndim != 1 or y.size == 0:
        raise ValueError(f"y_true must be a non-empty 1-D label vector, got shape {y.shape}")
    try:
        _, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    except TypeError:
        raise ValueError("y_true holds labels of types that cannot be sorted together") from None
    lcm = math.lcm(*(int(n) for n in counts))
    if lcm * len(counts) >= 2**62:
        raise ValueError(
            f"the least common multiple of the {len(counts)} class counts is {lcm:.3e}: the "
            "balanced whole-number weights would overflow int64 counts; for MAE use AMAE "
            "(MAE with balanced weights), for MER 1 - balanced accuracy (the mean sensitivity)")
    per_class = np.array([lcm // int(n) for n in counts], dtype=np.int64)
    return per_class[codes.reshape(-1)]
