"""The lessons' self-checks check without giving the answer away (issue 40).

``notebooks/selfcheck.py`` compares a fingerprint of a student's answer with
the one written in the lesson; a wrong answer raises ``NotYet`` (an
``AssertionError``) whose message is a hint.  The expected fingerprints of
the lessons are checked by executing the lessons (``test_notebooks.py``: the
teacher's version runs every check on its worked answer).
"""

from __future__ import annotations

import doctest
import importlib.util
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("selfcheck", ROOT / "notebooks" / "selfcheck.py")
selfcheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(selfcheck)
_spec = importlib.util.spec_from_file_location("notebooks_build", ROOT / "notebooks" / "build.py")
nb_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nb_build)


def test_doctests():
    result = doctest.testmod(selfcheck)
    assert result.attempted >= 5 and result.failed == 0


def test_equal_answers_share_a_fingerprint_and_others_do_not():
    f = selfcheck.fingerprint
    assert f(Fraction(10, 13)) == f(sp.Rational(20, 26)) == f(sp.Integer(10) / 13)
    assert f(1) == f(sp.Integer(1)) == f(np.int64(1)) == f(sp.sqrt(4) - 1)   # simplified first
    assert f({"AMAE", "MMAE"}) == f(frozenset({"MMAE", "AMAE"}))
    assert f(np.array([[0, 3], [0, 0]])) == f(np.array([[0, 3], [0, 0]], dtype=object))
    different = [f(v) for v in (sp.Rational(10, 13), sp.Rational(3, 13), 1, 0, "MER", "tau_b",
                                {"AMAE"}, {"AMAE", "MMAE"}, ["AMAE", "MMAE"], True, False,
                                np.array([[0, 3], [0, 0]]), np.array([0, 3, 0, 0]))]
    assert len(set(different)) == len(different)


def test_a_wrong_answer_gets_the_hint_and_never_the_answer():
    right = selfcheck.fingerprint(sp.Rational(10, 13))
    with pytest.raises(AssertionError, match=r"^mer_B is not right yet\. Hint: reread section 2$"):
        selfcheck.check("mer_B", sp.Rational(3, 13), right, "reread section 2")
    with pytest.raises(selfcheck.NotYet, match="not an exact answer"):
        selfcheck.check("mer_B", 10 / 13, right, "reread section 2")   # a float is not exact
    selfcheck.check("mer_B", Fraction(10, 13), right, "reread section 2")


#: per lesson, what its self-checks said before issue 40 (the answers, written out)
REVEALED = {
    "01_tour": ["Rational(10, 13)", "Rational(2, 3)", "Rational(1, 2)", '"MMAE"', "UOC_beta1",
                'notices == "MER"', 'convention == "zero"'],
    "02_oc_uoc_paths": ["Rational(4, 7)", "Rational(32, 49)", "Rational(1, 2)", "== 63",
                        "same_uoc and not same_oc"],
    "03_tridiagonal": ["{0.25: False", "{0.25: True", "Rational(37, 50)"],
    "04_cost_sensitive": ['"AMAE": "Shuffle24"', "assert not same"],
    "05_intervals": ["(x4, x9) == (2, 3)"],
    "07_properties": ['== ["MS (observed classes)"', "[[0, 0], [1, 0]]"],
}


@pytest.mark.parametrize("lesson", sorted(REVEALED))
def test_self_checks_hold_no_answer(lesson):
    """A lesson's self-checks (as the student version keeps them) name no answer: no exact
    value, no answer set, no chosen word; they compare fingerprints or properties."""
    import nbformat

    nb = nbformat.read(str(ROOT / "notebooks" / f"{lesson}.ipynb"), as_version=4)
    checks = [c.source for c in nb_build.student(nb).cells
              if c.cell_type == "code" and "self-check" in c.metadata.get("tags", [])]
    assert checks, lesson
    text = "\n".join(checks)
    for answer in REVEALED[lesson]:
        assert answer not in text, answer
    assert "from selfcheck import check" in text
