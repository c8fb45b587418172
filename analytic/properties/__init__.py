"""The property engine: which formal properties a confusion-matrix metric has.

- :mod:`~analytic.properties.catalog`: one class per property (its formal
  statement, the float screen of a stack, the exact check of one matrix, the
  name of its symbolic proof in :mod:`analytic.properties.prover`);
- :mod:`~analytic.properties.space`: the searched space, cut into chunks by
  rank (a combinatorial number system);
- :mod:`~analytic.properties.engine`: the search -- a float64 screen of every
  chunk on any executor, every candidate and tie confirmed exactly;
- :mod:`~analytic.properties.exact`: exact values and their comparison;
- :mod:`~analytic.properties.table`: the committed property table and its Markdown.

:func:`analytic.properties.audit.audit` is the entry point.  A new property is one
subclass of :class:`~analytic.properties.catalog.Property` added to
:data:`~analytic.properties.catalog.PROPERTIES`: the search, the table, the
ledger's ``audit:*`` claims and lesson 7 read that registry.
"""

from .catalog import PROPERTIES, Property
from .space import DEFAULT_SPACE, SMALL_SPACE, Space

__all__ = ["PROPERTIES", "Property", "Space", "DEFAULT_SPACE", "SMALL_SPACE"]
