r"""Hit rates of the extreme classes: GMSEC and MES (issue 25, item 6).

In many ordinal problems the first and the last class matter most (the
healthiest and the most severe cases) and are the rarest; a classifier that
pulls predictions towards the middle has a good MAE and poor extremes.
Vargas, V. M., Gutiérrez, P. A., Barbero-Gómez, J. & Hervás-Martínez, C.
(2024), "Improving the classification of extreme classes by means of loss
regularisation and generalised beta distributions", arXiv:2407.12417,
proposed the geometric mean of the sensitivities of the two extreme classes
(GMSEC); dlordinal and skordinal also offer their arithmetic mean (MES).

With :math:`S_k = n_{k,k}/N_{k\cdot}` the sensitivity (recall) of class
:math:`k` (rows = true class, classes ``1..K`` in ordinal order):

.. math:: \mathrm{GMSEC} = \sqrt{S_1\,S_K},\qquad \mathrm{MES} = \tfrac12\,(S_1 + S_K)

The extreme classes are the first and the last of the matrix -- of
``labels=`` for label vectors -- not the extremes that happen to occur.  A
sensitivity is undefined when its class has no true sample: the metric then
raises ``ValueError`` (``missing="raise"``, the default), or counts it 0
(``missing="zero"``: what dlordinal and skordinal return, through
scikit-learn's ``recall_score`` with ``zero_division=0``, when an extreme
class is only predicted).  Where no class is absent the three agree.

The peers differ in one more case: without ``labels`` they take the classes
that occur in ``y_true`` or ``y_pred``, so when class ``K`` occurs in neither
their "last class" is ``K - 1``; here ``labels=`` fixes the scale (and
without it :func:`numeric.confusion_matrix` warns when the observed labels
are not contiguous).

Metrics of the ordinal libraries considered (dlordinal 2.7.0,
``dlordinal/metrics/metrics.py``; skordinal, ``skordinal/metrics/_metrics.py``
of github.com/ayrna/skordinal; ORCA's and orca-python's metric lists):

* GMSEC (``gmsec``, both): added here, :func:`gmsec`.
* MES (dlordinal ``mes``, skordinal ``mean_extreme_sensitivity``): added
  here, :func:`mean_extreme_sensitivity` (cheap, same source family).
* GMES (dlordinal ``gmes``): skipped, the same formula as ``gmsec``
  (:math:`\sqrt{S_1 S_K}`) under a second name.
* 1-off accuracy (``accuracy_off1``, ``accuracy_off1_score``): present,
  :func:`numeric.within_one_accuracy`.
* MS (``minimum_sensitivity``): present, :func:`numeric.minimum_sensitivity`.
* AMAE, MMAE (``amae``, ``mmae``; skordinal's long names): present,
  :func:`numeric.amae`, :func:`numeric.mmae`.
* RPS (``ranked_probability_score``): present,
  :func:`numeric.ranked_probability_score` (Murphy-normalised;
  ``normalize=False`` is the libraries' form).
* MZE (``mean_zero_one_error``) and CCR: present, :func:`numeric.mer`
  (CCR = 1 - MER).
* GM (skordinal ``geometric_mean``): present as
  :func:`numeric.geometric_mean_sensitivity`; skordinal's convention for a
  class without true samples (sensitivity 1 inside a K-th root) is a third
  one, not added: it is neither the mean over the observed classes nor
  imbalanced-learn's 0.
* Kendall's tau (``kendalls_tau``): present, :func:`numeric.kendall_tau_b`
  (scipy's tau_b, as skordinal).
* linear weighted kappa (``weighted_kappa``): present,
  ``cohen_kappa(weights="linear")``.
* Spearman (skordinal ``spearmans_rho``): present, :func:`numeric.spearman_rs`.
  skordinal's function is Pearson's r of the label values, not of their
  ranks (0.9165 against Spearman's 0.8465 on its own docstring example,
  ``scipy.stats.pearsonr`` and ``spearmanr``): nothing to add.

Neither metric is symmetric (transposing the matrix swaps the sensitivities
for precisions); both lie in [0, 1].
"""

from __future__ import annotations

from ._validation import undefined_if
from .registry import metric
from .sensitivity import sensitivities

__all__ = ["gmsec", "mean_extreme_sensitivity"]

_MISSING = ("raise", "zero")


def _extremes(cm, arithmetic, missing, what):
    """``(prepared, S_1, S_K)``; an extreme class without true samples raises
    (``missing="raise"``) or counts 0 (``"zero"``)."""
    if missing not in _MISSING:
        raise ValueError(f"missing must be 'raise' or 'zero', got {missing!r}")
    p, sens, _ = sensitivities(cm, arithmetic, "zero")  # an unobserved class: 0
    if missing == "raise":
        rows = p.counts.sum(axis=-1)
        for k, name in ((0, "first"), (p.K - 1, "last")):
            undefined_if(rows[..., k] == 0, lambda name=name: (
                f"{what} is undefined: the {name} class has no true sample (its sensitivity "
                "is 0/0); pass labels= with the full ordinal scale, or missing='zero' to "
                "count it 0"))
    return p, sens[..., 0], sens[..., -1]


@metric(
        label="GMSEC", better="higher", symmetric=False, bounds=(0, 1),
        source="Vargas et al. 2024 (arXiv:2407.12417)",
        peers=("dlordinal.metrics.gmsec", "skordinal.metrics.gmsec"))
def gmsec(cm, *, missing="raise", arithmetic="float"):
    r"""Geometric mean of the sensitivities of the two extreme classes.

    .. math:: \mathrm{GMSEC} = \sqrt{\frac{n_{1,1}}{N_{1\cdot}}\cdot\frac{n_{K,K}}{N_{K\cdot}}}

    Vargas, Gutiérrez, Barbero-Gómez & Hervás-Martínez (2024),
    arXiv:2407.12417; dlordinal's and skordinal's ``gmsec``.  0 as soon as
    one extreme class is never recognised.  For K = 1 it is the sensitivity
    of the single class.

    Parameters
    ----------
    cm : array_like, shape (..., K, K)
        Counts, rows = true class (or ``y_true, y_pred`` label vectors).
    missing : {"raise", "zero"}
        An extreme class without true samples: ``ValueError`` (default), or
        sensitivity 0 (the peers' ``zero_division=0``, so GMSEC = 0).
    arithmetic : {"float", "exact", "mp"}

    Raises
    ------
    ValueError
        The first or the last class has no true sample (``missing="raise"``),
        or the usual matrix problems.

    Examples
    --------
    The example of dlordinal's and skordinal's docstrings: class 0 has
    sensitivity 2/4, class 3 has 1/1.

    >>> gmsec([0, 0, 1, 2, 3, 0, 0], [0, 1, 1, 2, 3, 0, 1], arithmetic="exact")
    sqrt(2)/2
    >>> gmsec([[1, 1], [0, 0]], missing="zero", arithmetic="exact")
    0
    """
    p, first, last = _extremes(cm, arithmetic, missing, "GMSEC")
    return p.ctx.finalize(p.ctx.sqrt(first * last))


@metric(
        label="MES", better="higher", symmetric=False, bounds=(0, 1),
        source="Vargas et al. 2024 (arXiv:2407.12417); dlordinal mes",
        peers=("dlordinal.metrics.mes", "skordinal.metrics.mean_extreme_sensitivity"))
def mean_extreme_sensitivity(cm, *, missing="raise", arithmetic="float"):
    r"""Arithmetic mean of the sensitivities of the two extreme classes (MES).

    .. math:: \mathrm{MES} = \frac12\Big(\frac{n_{1,1}}{N_{1\cdot}} + \frac{n_{K,K}}{N_{K\cdot}}\Big)

    dlordinal's ``mes`` and skordinal's ``mean_extreme_sensitivity``, the
    arithmetic companion of :func:`gmsec` (which Vargas et al. 2024 propose);
    unlike GMSEC it does not drop to 0 when one extreme is never recognised.
    ``missing`` as for :func:`gmsec`.

    Parameters
    ----------
    missing : {"raise", "zero"}, default "raise"
        An extreme class without true samples: ``ValueError``, or sensitivity
        0 (as for :func:`gmsec`).

    Examples
    --------
    >>> mean_extreme_sensitivity([0, 0, 1, 2, 3, 0, 0], [0, 1, 1, 2, 3, 0, 1], arithmetic="exact")
    3/4
    """
    p, first, last = _extremes(cm, arithmetic, missing, "MES")
    return p.ctx.finalize((first + last) / p.ctx.number(2))
