"""Issue 23: user strings are never evaluated (item 2), unordered labels are refused (item 4),
bad input gets a clear error (item 6)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import analytic
from analytic import forms, metric_thresholds, tc_max
from analytic._pl import lower_envelope, sign_for_all, sign_threshold, signs_for_all
from analytic.families import family_parameter
from analytic.intervals import prop4_max_form
from analytic.symbols import K

# ---------------------------------------------------------------------------
# A. no user string is evaluated (item 2)
# ---------------------------------------------------------------------------
n = sp.Symbol("n", integer=True, positive=True)


def _entries(P):
    """Every public entry that took a string into ``sympy.sympify`` (issue 23), fed ``P``."""
    return {
        "symbolic_metric": lambda: analytic.symbolic_metric("mae", [[P, 1], [1, 1]]),
        "symbolic_metric, family": lambda: analytic.symbolic_metric("mae", [[P, n], [1, 1]]),
        "family_parameter": lambda: family_parameter([[P, 1], [1, 1]]),
        "uoc_piecewise, family": lambda: analytic.uoc_piecewise([[P, n], [1, 1]]),
        "oc_piecewise, family": lambda: analytic.oc_piecewise([[P, n], [1, 1]]),
        "a_uoc_symbolic, family": lambda: analytic.a_uoc_symbolic([[P, n], [1, 1]]),
        "guess_and_check proof": lambda: analytic.guess_and_check(lambda k: k, range(1, 6), proof=P),
        "positioned_metric_forms positions": lambda: forms.positioned_metric_forms({(0, 1): 1}, (0, P)),
        "positioned_metric_forms cells": lambda: forms.positioned_metric_forms({(0, 1): P}, (0, 1)),
        "appendix_a_triangle gamma": lambda: analytic.appendix_a_triangle(gamma=P),
        "single_sample_forms gamma": lambda: analytic.single_sample_forms(gamma=P),
        "path_lines matrix": lambda: metric_thresholds.path_lines([[P, 1], [1, 1]]),
        "path_lines gamma": lambda: metric_thresholds.path_lines([[1, 1], [1, 1]], gamma=P),
        "band1_envelope matrix": lambda: forms.band1_envelope([[P, 1], [1, 1]]),
        "band1_envelope gamma": lambda: forms.band1_envelope([[1, 1], [1, 1]], gamma=P),
        "prop4_max_form": lambda: prop4_max_form([P, 1], [1, 1]),
        "positive_for_integers_from expr": lambda: tc_max.positive_for_integers_from(P, n),
        "positive_for_integers_from start": lambda: tc_max.positive_for_integers_from(n, n, P),
        "lower_envelope": lambda: lower_envelope([(P, 0), (1, 1)]),
        "sign_threshold": lambda: sign_threshold(P, n),
        "signs_for_all": lambda: signs_for_all(P, n),
        "sign_for_all": lambda: sign_for_all(P, n),
        "PL.integral": lambda: lower_envelope([(1, 0)]).integral(0, P),
        "PL.scale": lambda: lower_envelope([(1, 0)]).scale(P),
    }


ENTRIES = sorted(_entries(None))


@pytest.mark.parametrize("entry", ENTRIES)
def test_payload_is_not_evaluated(entry, tmp_path):
    """A string that would create a file when evaluated as Python is refused by
    numeric.parsing.parse_number; before issue 23 each of these entries ran it
    through sympy.sympify, which evaluates it (SymPy's documentation: "sympify
    uses eval")."""
    marker = tmp_path / "pwned"
    payload = f'__import__("pathlib").Path({str(marker)!r}).touch() or 1'
    with pytest.raises(ValueError, match="is not a number or expression"):
        _entries(payload)[entry]()
    assert not marker.exists()


def test_strings_that_are_numbers_still_parse():
    """parse_number keeps the strings a user may mean: "1" is the integer 1, and the proof
    of guess_and_check is read in ``var`` (the symbol K with its assumptions, so the
    fitted f(K) = K equals it: before, sympify made a new Symbol("K") and a refutation)."""
    assert metric_thresholds.path_lines([["1", "0"], ["0", "1"]]) == \
        metric_thresholds.path_lines([[1, 0], [0, 1]])
    c = analytic.guess_and_check(lambda k: k, range(1, 6), proof="K")
    assert c.expr == K and c.status.startswith("proved")
    assert analytic.single_sample_forms(gamma="2").gamma == 2
