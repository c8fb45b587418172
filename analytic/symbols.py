"""Shared SymPy symbols of the analytic models, with their assumptions.

Every closed form in :mod:`analytic` is written in these symbols, so that
forms from different modules can be combined and compared.

========  ==========================================  =====================
symbol    meaning                                     assumptions
========  ==========================================  =====================
``beta``  OC/UOC trade-off parameter (cardoso2011     nonnegative, real
          eq. 7, silva2018 eq. 22)
``r``     number of classes in TC_max models          positive integer
``K``     number of classes of a confusion matrix     positive integer
``d``     distance of a sample from the diagonal      positive integer
``L``     an interval length                          positive, real
``x``     a free length / abscissa                    positive, real
``N``     number of samples of a confusion matrix     positive integer
``b``     scaled trade-off, beta = b/(N(K-1)^gamma)   nonnegative, real
          (cardoso2011 §4)
========  ==========================================  =====================

Examples
--------
>>> from analytic.symbols import beta, K
>>> beta.is_nonnegative, K.is_integer, K.is_positive
(True, True, True)
"""

import sympy as sp

beta = sp.Symbol("beta", real=True, nonnegative=True)
r = sp.Symbol("r", integer=True, positive=True)
K = sp.Symbol("K", integer=True, positive=True)
d = sp.Symbol("d", integer=True, positive=True)
L = sp.Symbol("L", real=True, positive=True)
x = sp.Symbol("x", real=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
b = sp.Symbol("b", real=True, nonnegative=True)

__all__ = ["beta", "r", "K", "d", "L", "x", "N", "b"]
