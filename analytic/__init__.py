"""ordinal-verify analytic models: closed forms derived with SymPy."""

from analytic.symbols import K, L, N, b, beta, d, r, x
