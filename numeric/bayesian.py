r"""The Bayesian signed-rank test with a region of practical equivalence (Benavoli et al. 2017).

Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017), "Time for a change:
a tutorial for comparing multiple classifiers through Bayesian analysis",
*JMLR* 18(77):1-36, §4.2 (key ``benavoli2017``), after Benavoli et al. (2014),
"A Bayesian Wilcoxon signed-rank test based on the Dirichlet process", ICML.
Where Wilcoxon's test gives the probability of the data under "no
difference", this one gives the posterior probabilities that one method is
practically better, that the two are practically equivalent (the mean
difference within ``rope``), or that the other is better -- a statement about
the methods, with the ROPE, in the metric's own units, stated by the user.

numpy only; the same computation as ``baycomp.SignedRankTest`` (and, with the
same ``seed``, the same Dirichlet draws: ``numpy.random.RandomState(seed)``).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._validation import positive_integer

__all__ = ["BayesianSignedRank", "bayesian_signed_rank"]


@dataclass(frozen=True)
class BayesianSignedRank:
    """The posterior probabilities of the Bayesian signed-rank test.

    Each probability is the posterior probability that its region has the
    largest mass (benavoli2017 §4.2), estimated from ``nsamples`` draws.
    Built by :func:`bayesian_signed_rank`.

    Parameters
    ----------
    p_left : float
        ``y - x`` is below ``-rope`` (x practically larger).
    p_rope : float
        ``y - x`` is within the ROPE ``[-rope, rope]``.
    p_right : float
        ``y - x`` is above ``rope`` (y practically larger).
    rope : float
        The half-width of the region of practical equivalence.
    prior : float
        The weight of the prior's pseudo-observation.
    nsamples : int
        The number of posterior draws.

    Examples
    --------
    >>> r = bayesian_signed_rank([0.70, 0.80, 0.75, 0.60], [0.80, 0.90, 0.85, 0.72], rope=0.01,
    ...                          nsamples=2000)
    >>> round(r.p_left + r.p_rope + r.p_right, 9), r.rope, r.nsamples
    (1.0, 0.01, 2000)
    """

    p_left: float
    p_rope: float
    p_right: float
    rope: float
    prior: float
    nsamples: int

    def summary(self) -> str:
        return (f"P(x better) = {self.p_left:.3f}, P(equivalent within ±{self.rope:g}) = "
                f"{self.p_rope:.3f}, P(y better) = {self.p_right:.3f} (larger is better; "
                f"{self.nsamples} posterior samples)")


def bayesian_signed_rank(x, y, rope, *, prior=0.5, nsamples=50000, seed=0) -> BayesianSignedRank:
    r"""The Bayesian signed-rank test of two methods' scores on the same datasets.

    With :math:`z_0 = 0` (the prior's pseudo-observation, of weight ``prior``)
    and :math:`z_i = y_i - x_i`, the posterior of a Dirichlet process gives
    weights :math:`w \sim \mathrm{Dir}(s, 1, \dots, 1)`; the masses of the three
    regions are the weighted fractions of Walsh averages
    :math:`(z_i + z_j)/2` below :math:`-r`, within :math:`[-r, r]` and above
    :math:`r`:

    .. math:: \theta_{\text{left}} = \sum_{i,j} w_i w_j\, H(-z_i - z_j - 2r),\qquad
              \theta_{\text{right}} = \sum_{i,j} w_i w_j\, H(z_i + z_j - 2r)

    (:math:`H` the step function with :math:`H(0) = 1/2`), and
    :math:`\theta_{\text{rope}} = 1 - \theta_{\text{left}} - \theta_{\text{right}}`
    (benavoli2017 §4.2, eq. 7).  The returned probabilities are the shares of
    the ``nsamples`` draws in which each region has the largest mass.

    Assumptions: the datasets are independent, and the differences are
    commensurable across them (as Wilcoxon's test); the result depends on
    the ROPE, which must be chosen for the metric (e.g. 0.01 of accuracy).

    Parameters
    ----------
    x, y : array_like, shape (N,)
        The two methods' scores on the N datasets.
    rope : float
        The half-width of the region of practical equivalence (>= 0), in
        the scores' units.
    prior : float, default 0.5
        The weight of the pseudo-observation at 0 (baycomp's default).
    nsamples : int, default 50000
    seed : int, default 0
        Seed of ``numpy.random.RandomState`` (baycomp's ``random_state``).

    Returns
    -------
    BayesianSignedRank

    Examples
    --------
    >>> r = bayesian_signed_rank([0.70, 0.80, 0.75, 0.60], [0.80, 0.90, 0.85, 0.72], rope=0.01,
    ...                          nsamples=2000)
    >>> r.p_right > 0.5 > r.p_left
    True
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.ndim != 1 or y.shape != x.shape or x.size < 2:
        raise ValueError(f"x and y must be 1-D of one length (>= 2 datasets), got shapes {x.shape} "
                         f"and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("x and y must be finite")
    if not isinstance(rope, numbers.Real) or not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be a finite number >= 0, got {rope!r}")
    if not isinstance(prior, numbers.Real) or not prior > 0:
        raise ValueError(f"prior must be positive, got {prior!r}")
    nsamples = positive_integer(nsamples, "nsamples")
    z = np.concatenate([[0.0], y - x])
    sums = z[:, None] + z[None, :]
    alpha = np.ones(z.size)
    alpha[0] = prior
    w = np.random.RandomState(seed).dirichlet(alpha, nsamples)

    def step(a, t):
        return (a > t).astype(np.float64) + 0.5 * (a == t)

    right = np.einsum("si,ij,sj->s", w, step(sums, 2 * rope), w)
    if rope > 0:
        left = np.einsum("si,ij,sj->s", w, step(-sums, 2 * rope), w)
        masses = np.column_stack([left, 1 - left - right, right])
    else:  # two regions: P(left) = 1 - P(right) per draw
        masses = np.column_stack([1 - right, np.zeros_like(right), right])
    p = np.bincount(np.argmax(masses, axis=1), minlength=3) / len(masses)
    return BayesianSignedRank(float(p[0]), float(p[1]), float(p[2]), float(rope), float(prior),
                              int(nsamples))
