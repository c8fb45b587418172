"""The public exceptions and warnings, defined in :mod:`exactfloor.errors` (issue 37).

This module keeps the path ``numeric.errors`` working for code written before
the exceptions moved to the exact floor; the classes are the same objects.

>>> import numeric.errors, exactfloor.errors
>>> numeric.errors.UndefinedMetric is exactfloor.errors.UndefinedMetric
True
"""

from exactfloor.errors import (CostWarning, InputError, LabelWarning, MetricError, OutputError, UndecidedError,
                               UndecidedSign, UndefinedMetric, UndefinedResampleWarning, UserFunctionError)

__all__ = ["UndefinedMetric", "MetricError", "UndecidedError", "UndecidedSign", "LabelWarning",
           "UndefinedResampleWarning", "CostWarning",
           "InputError", "OutputError", "UserFunctionError"]
