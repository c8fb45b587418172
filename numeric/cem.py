r"""The Closeness Evaluation Measure for ordinal classification, CEM-ORD.

Amigó, E., Gonzalo, J., Mizzaro, S. & Carrillo-de-Albornoz, J. (2020),
"An Effectiveness Metric for Ordinal Classification: Formal Properties and
Experimental Results", *Proceedings of ACL 2020*, pp. 3938-3949.

Definition (the paper's §4; the authors' reference implementation, class
``CEMOrd`` and ``ConfusionMatrix.proximityCEM`` of the Java package
``es.uned.nlp.cem``, computes the same).  With :math:`n_k` the number of
samples whose *true* class is ``k`` (the proximity is measured on the gold
distribution) and N the number of samples, the closeness information
quantity of predicting ``a`` for an item of true class ``b`` is

.. math:: \mathrm{prox}(a, b) = -\log_2\frac{\tfrac12 n_a + \sum_{k \in (a, b]} n_k}{N}

where :math:`(a, b]` is the set of classes strictly between ``a`` and ``b``
together with ``b`` (for ``a > b`` read it as :math:`[b, a)`), and
:math:`\mathrm{prox}(b, b) = -\log_2(n_b / 2N)`.  Then

.. math:: \mathrm{CEM} = \frac{\sum_i \mathrm{prox}(\hat y_i, y_i)}{\sum_i \mathrm{prox}(y_i, y_i)}.

On a confusion matrix (rows = true class), with :math:`N_{r\cdot}` the row
sums and :math:`\mu_k = \sum_{j<k} N_{j\cdot} + \tfrac12 N_{k\cdot}` the gold
mass up to the middle of class ``k``, the numerator of ``prox(c, r)`` is
:math:`|\mu_c - \mu_r| + \tfrac12 N_{r\cdot}` for every ``c`` (for
``c < r``: :math:`\tfrac12 N_{c\cdot} + \sum_{k=c+1}^{r} N_{k\cdot}`; for
``c > r``: :math:`\tfrac12 N_{c\cdot} + \sum_{k=r}^{c-1} N_{k\cdot}`).  A class
without gold samples contributes :math:`n_k = 0`, so empty classes anywhere in
the matrix do not change CEM (the reference code adds 0 for a predicted class
absent from the gold).  Exact arithmetic keeps the logarithms exact (SymPy
``log(x, 2)``); ``"mp"`` uses ``mpmath.log(x, 2)``.
"""

from __future__ import annotations

import numpy as np

from ._common import prepare
from .registry import metric

__all__ = ["cem_ord"]


@metric(
        label="CEM-ORD", better="higher", symmetric=False, bounds=(0, 1),
        source="Amigó et al. 2020 (ACL), CEM-ORD")
def cem_ord(cm, *, arithmetic="float"):
    r"""Closeness Evaluation Measure CEM-ORD (Amigó et al. 2020, see the module docstring).

    .. math:: \mathrm{CEM} = \frac{\sum_{r,c} n_{r,c}\,\mathrm{prox}(c, r)}
              {\sum_r N_{r\cdot}\,\mathrm{prox}(r, r)},\qquad
              \mathrm{prox}(c, r) = -\log_2\frac{|\mu_c - \mu_r| + \tfrac12 N_{r\cdot}}{N}

    Always defined (each :math:`\mathrm{prox}(r, r) \ge 1`); in [0, 1], 1 for
    a diagonal matrix.  Not symmetric: the proximities are computed on the
    true-class counts.

    Examples
    --------
    Gold counts (2, 1, 1), N = 4; one class-1 item predicted as class 3.
    prox(1,1) = -log2(1/4) = 2, prox(2,2) = prox(3,3) = -log2(1/8) = 3 and
    prox(3, 1) = -log2((n_3/2 + n_1 + n_2)/N) = -log2((1/2 + 2 + 1)/4)
    = 3 - log2(7) (the classes in [1, 3) are 1 and 2).  CEM = (2 + (3 - log2 7)
    + 3 + 3) / (2*2 + 3 + 3) = 11/10 - log2(7)/10:

    >>> cem_ord([[1, 0, 1], [0, 1, 0], [0, 0, 1]], arithmetic="exact")
    -log(7)/(10*log(2)) + 11/10
    >>> round(float(cem_ord([[1, 0, 1], [0, 1, 0], [0, 0, 1]])), 6)
    0.819265
    """
    p = prepare(cm, arithmetic)
    R = p.rows()
    N = np.expand_dims(np.asarray(p.total(), dtype=p.n.dtype), -1)
    mu = np.cumsum(R, axis=-1) - R / 2
    closeness = (np.abs(mu[..., None, :] - mu[..., :, None]) + R[..., :, None] / 2) / N[..., None]
    cells = p.counts > 0  # every nonzero cell has N_r > 0: a positive closeness
    prox = -p.ctx.log2(np.where(cells, closeness, p.ctx.number(1)))
    seen = p.counts.sum(axis=-1) > 0
    self_prox = -p.ctx.log2(np.where(seen, R / (2 * N), p.ctx.number(1)))
    return p.ctx.finalize((p.n * prox).sum(axis=(-2, -1)) / (R * self_prox).sum(axis=-1))
