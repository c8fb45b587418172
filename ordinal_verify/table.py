"""Plain-text tables for the terminal (:func:`numeric.reporting.format_table`)."""

from __future__ import annotations

from numeric.reporting import format_table

__all__ = ["format_table"]
