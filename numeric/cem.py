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

In exact arithmetic each closeness is a ratio of integers, and CEM-ORD is
returned as ``A / B`` with ``A`` and ``B`` of the form
``a + sum_p c_p log(p)/log(2)``: integers ``a``, ``c_p`` and odd primes ``p``
(SymPy's ``log(x, 2)`` with ``x`` split into primes).  The coefficients are
summed in Python integers over the factorisations of the numerators and of
``2N`` (:func:`sympy.factorint`, once per distinct integer; an integer of
:data:`_FACTOR_BITS` bits or more is kept whole, odd part as one
logarithm), and each sum becomes one SymPy expression at the end
(:class:`_Log2Sum`): CEM-ORD at K = 40 takes a fraction of a second instead
of 8 s or more for SymPy's K^2 logarithms and additions.
"""

from __future__ import annotations

import numpy as np

from exactfloor.arith import get_arithmetic
from ._common import prepare, stack
from .registry import metric

__all__ = ["cem_ord"]


#: integers below ``2**_FACTOR_BITS`` are split into primes (sympy.factorint
#: takes at most about 1 ms there); larger ones are kept whole (about 6 ms each
#: at 63 bits), so the exact value stays exact but its logarithms may then not
#: all be of primes
_FACTOR_BITS = 40


def _factors(n, cache):
    """``{p: e}`` with ``n = prod p**e`` (primes, or a large cofactor kept whole)."""
    f = cache.get(n)
    if f is None:
        if n.bit_length() < _FACTOR_BITS:
            import sympy

            f = sympy.factorint(n)
        else:
            k = (n & -n).bit_length() - 1
            f = {2: k, n >> k: 1} if k else {n: 1}
            f.pop(1, None)
        cache[n] = f
    return f


class _Log2Sum:
    r"""``sum_i w_i (-log2(u_i / v_i))`` for integers ``w_i``, ``u_i, v_i > 0``, kept
    exact as ``a + sum_p c_p log(p)/log(2)`` (integers ``a``, ``c_p``; odd ``p``).

    >>> s = _Log2Sum({})
    >>> s.add(3, 3, 8); s.add(1, 1, 3)                # 3 (3 - log2 3) + log2 3
    >>> s.expr()
    -2*log(3)/log(2) + 9
    """

    def __init__(self, cache):
        self.cache = cache  # factorisations, shared by the sums of one matrix
        self.coef = {2: 0}

    def add(self, w, u, v):
        for p, e in _factors(u, self.cache).items():
            self.coef[p] = self.coef.get(p, 0) - w * e
        for p, e in _factors(v, self.cache).items():
            self.coef[p] = self.coef.get(p, 0) + w * e

    def expr(self):
        import sympy

        per_ln2 = 1 / sympy.log(2)
        terms = [sympy.Integer(self.coef[2])]
        # log of an odd integer p > 1: log.eval leaves it as it is
        terms += [sympy.Mul(c, sympy.log(sympy.Integer(p), evaluate=False), per_ln2)
                  for p, c in self.coef.items() if c and p != 2]
        return sympy.Add(*terms)


def _exact_cem(counts):
    """CEM-ORD of one ``int64`` matrix in exact arithmetic (see the module
    docstring): the closeness ``(|2 mu_c - 2 mu_r| + N_r) / 2N`` of each cell in
    Python integers, its weight gathered per distinct numerator, then the two
    sums of :class:`_Log2Sum`."""
    R = counts.sum(axis=1).tolist()
    N2 = 2 * sum(R)
    two_mu = (2 * np.cumsum(R) - np.asarray(R)).tolist()  # 2 mu_k, integers
    weight = {}
    rows, cols = np.nonzero(counts)
    for r, c, n in zip(rows.tolist(), cols.tolist(), counts[rows, cols].tolist(), strict=True):
        u = abs(two_mu[c] - two_mu[r]) + R[r]
        weight[u] = weight.get(u, 0) + n
    cache = {}
    num, den = _Log2Sum(cache), _Log2Sum(cache)
    for u, w in weight.items():
        num.add(w, u, N2)
    for n in R:
        if n:
            den.add(n, n, N2)
    return num.expr() / den.expr()


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
    ctx = get_arithmetic(arithmetic)
    if ctx is get_arithmetic("exact"):  # (symbolic counts take the general path below)
        s = stack(cm, ctx)  # validated, not converted
        out = np.empty(len(s.counts), dtype=object)
        out[:] = [_exact_cem(m) for m in s.counts]
        return ctx.finalize(out.reshape(s.lead))
    p = prepare(cm, ctx)
    R = p.rows()
    N = np.expand_dims(np.asarray(p.total(), dtype=p.n.dtype), -1)
    mu = np.cumsum(R, axis=-1) - R / 2
    closeness = (np.abs(mu[..., None, :] - mu[..., :, None]) + R[..., :, None] / 2) / N[..., None]
    cells = p.counts > 0  # every nonzero cell has N_r > 0: a positive closeness
    prox = -p.ctx.log2(np.where(cells, closeness, p.ctx.number(1)))
    seen = p.counts.sum(axis=-1) > 0
    self_prox = -p.ctx.log2(np.where(seen, R / (2 * N), p.ctx.number(1)))
    return p.ctx.finalize((p.n * prox).sum(axis=(-2, -1)) / (R * self_prox).sum(axis=-1))
