r"""Every numerical tolerance of the toolkit, derived from the precision it guards.

A tolerance is never a bare literal: it is the relative precision of the
arithmetic that produced the numbers, loosened by a stated number of *guard
digits* for the rounding accumulated before the comparison (mpmath's
``almosteq`` is the model: its default tolerance is
:math:`2^{-\mathrm{prec} + 4}`, the context's precision less 4 guard bits).

.. math:: \mathrm{tol}(d, g) = 10^{-(d - g)}

where :math:`d` is the number of decimal digits the arithmetic carries
(float64: :data:`FLOAT64_DIGITS`, numpy's ``finfo(float64).precision`` = 15;
mpmath or SymPy: the working ``dps``) and :math:`g` the guard digits.
``proofs_tests/test_floor.py`` fails on any tolerance literal (a number below
``1e-4`` or a power ``10 ** -n``) in :mod:`numeric`, :mod:`analytic` or
:mod:`ordinal_verify`: they all come from here.

A tolerance decides only *screens* (which float cases are clear, which two
numbers look different enough to skip a proof, a numerical refutation that
is then confirmed exactly) and checks of instances; an exact verdict never
rests on one (:mod:`exactfloor.exact_sign` decides, or refuses).
"""

from __future__ import annotations

import mpmath
import numpy as np

__all__ = ["FLOAT64_DIGITS", "FLOAT64_UNIT_ROUNDOFF", "float_tolerance", "mp_tolerance", "sympy_tolerance",
           "FLOAT_SCREEN", "FLOAT_TIE", "FLOAT_ROOT", "PROBE_DPS", "PROBE"]  # noqa: F822 - PROBE: module __getattr__

#: the decimal digits float64 carries in full (``numpy.finfo(numpy.float64).precision``)
FLOAT64_DIGITS = int(np.finfo(np.float64).precision)

#: float64's unit roundoff ``u = eps / 2 = 2**-53``: the relative error of one rounded
#: operation, the unit of rigorous error bounds (:mod:`numeric._dp`)
FLOAT64_UNIT_ROUNDOFF = float(np.finfo(np.float64).eps) / 2


def float_tolerance(guard_digits: int) -> float:
    """The relative tolerance of float64 numbers after ``guard_digits`` digits of rounding.

    Parameters
    ----------
    guard_digits : int
        Digits given up to accumulated rounding, ``0 <= guard_digits <= 15``.

    Returns
    -------
    float
        :math:`10^{-(15 - g)}`.

    Examples
    --------
    >>> float_tolerance(6), float_tolerance(3)
    (1e-09, 1e-12)
    """
    if not 0 <= guard_digits <= FLOAT64_DIGITS:
        raise ValueError(f"guard_digits must lie in [0, {FLOAT64_DIGITS}], got {guard_digits!r}")
    return 10.0 ** -(FLOAT64_DIGITS - guard_digits)


def mp_tolerance(dps: int, guard_digits: int):
    """The relative tolerance of ``dps``-digit mpmath numbers after ``guard_digits`` digits.

    Parameters
    ----------
    dps : int
        The working precision in decimal digits.
    guard_digits : int
        Digits given up to accumulated rounding, ``0 <= guard_digits < dps``.

    Returns
    -------
    mpmath.mpf
        :math:`10^{-(\\mathrm{dps} - g)}`, computed at ``dps`` digits.

    Examples
    --------
    >>> print(mp_tolerance(50, 5))
    1.0e-45
    """
    if not 0 <= guard_digits < dps:
        raise ValueError(f"guard_digits must lie in [0, {dps}), got {guard_digits!r}")
    with mpmath.workdps(dps):
        return mpmath.mpf(10) ** -(dps - guard_digits)


def sympy_tolerance(dps: int, guard_digits: int):
    """:func:`mp_tolerance` as a SymPy ``Float`` (for numbers from ``sympy.N(x, dps)``).

    Parameters
    ----------
    dps : int
        The digits of the evaluation (``sympy.N(x, dps)``).
    guard_digits : int
        Digits given up to SymPy's evaluation error and the arithmetic after it.

    Returns
    -------
    sympy.Float
        :math:`10^{-(\\mathrm{dps} - g)}` at ``dps`` digits.

    Examples
    --------
    >>> sympy_tolerance(30, 10)
    1.00000000000000e-20
    """
    if not 0 <= guard_digits < dps:
        raise ValueError(f"guard_digits must lie in [0, {dps}), got {guard_digits!r}")
    import sympy  # here: numeric's float code imports this module without SymPy

    return sympy.Float(sympy.Rational(1, 10 ** (dps - guard_digits)), dps)


#: float64 screens of a metric's values (the property engine's float screen, a
#: probability row's sum): 6 guard digits cover the rounding of sums of up to
#: 10^6 terms (at most n units of roundoff, 10^6 * 1.1e-16 ~ 1e-10)
FLOAT_SCREEN = float_tolerance(6)

#: float64 ties of statistics computed from ranks (sums of at most 10^3 terms,
#: 3 guard digits), and the float arithmetic's tolerance
FLOAT_TIE = float_tolerance(3)

#: the imaginary part left on a real root by ``numpy.roots`` (a double root is
#: found to about sqrt(eps) ~ 1e-8: 9 guard digits)
FLOAT_ROOT = float_tolerance(9)

#: the digits of the cheap numerical probes of symbolic expressions (a
#: refutation at a point, confirmed or discarded by an exact step)
PROBE_DPS = 30



def __getattr__(name):
    """``PROBE``, the probes' tolerance: 10 of their 30 digits given up to SymPy's
    evaluation (``sympy_tolerance(PROBE_DPS, 10)``, a SymPy ``Float``; made on first use,
    so that importing this module does not import SymPy)."""
    if name == "PROBE":
        globals()["PROBE"] = value = sympy_tolerance(PROBE_DPS, 10)  # made once, then a plain name
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
