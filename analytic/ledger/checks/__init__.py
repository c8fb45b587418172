"""Claim modules, one per source and topic; each registers its claims on import.

:func:`analytic.ledger.claims` imports every module here whose name does not
start with an underscore.
"""
