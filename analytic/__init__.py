"""ordinal-verify analytic models: closed forms derived with SymPy."""

from analytic.symbols import K, L, beta, d, r, x
