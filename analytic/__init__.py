"""ordinal-verify analytic models: closed forms derived with SymPy."""
