"""Plain-text tables for the terminal (:func:`numeric.report.format_table`)."""

from __future__ import annotations

from numeric.report import format_table

__all__ = ["format_table"]
