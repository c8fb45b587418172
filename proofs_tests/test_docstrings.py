"""numpydoc's validation of the public API (issue 40).

Every function and class that a module of ``pyproject.toml``'s
``[tool.numpydoc_validation] modules`` exports (``__all__``: the public modules
of the exact floor :mod:`exactfloor`, :mod:`numeric` and its public submodules,
:mod:`analytic` and its subpackages' public modules, :mod:`ordinal_verify`) is
validated once, under the first module that exports it, by ``numpydoc.validate``
with the checks listed there
(a summary, each parameter of the signature documented and none that it
lacks, a Returns section, Examples).  An exemption is written there with the
checks it skips and its reason; an exemption that is no longer needed fails
too, so the list only shrinks.  The metrics' shared parameters (the matrix or
the label vectors, ``labels=``, ``sample_weight=``, ``arithmetic=``) are
written into their docstrings once, by ``numeric.registry.metric``.
"""

from __future__ import annotations

import importlib
import inspect
import tomllib
from pathlib import Path

import pytest
from numpydoc.validate import validate

import numeric

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["numpydoc_validation"]
CHECKS = set(CONFIG["checks"])
EXEMPTIONS = CONFIG["exemptions"]


def _public(modules):
    """``{full name: module}`` of each exported function or class, once (first module wins)."""
    seen, out = set(), {}
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            # a function (an lru_cache wrapper too: derive_tc_max_balanced) or a class
            function = inspect.isfunction(inspect.unwrap(obj)) if callable(obj) else False
            if (function or inspect.isclass(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                out[f"{module_name}.{name}"] = module_name
    return out


PUBLIC_BY_MODULE = _public(CONFIG["modules"])
PUBLIC = sorted(PUBLIC_BY_MODULE)


def _errors(name):
    return {code: message for code, message in validate(name)["errors"] if code in CHECKS}


def test_the_checks_and_exemptions_are_stated():
    assert CHECKS >= {"GL08", "SS01", "PR01", "RT01", "EX01"}
    assert {"numeric", "analytic", "analytic.ledger", "analytic.properties.audit",
            "ordinal_verify"} <= set(CONFIG["modules"])
    # each listed module adds what it exports first (not an empty list)
    assert set(PUBLIC_BY_MODULE.values()) == set(CONFIG["modules"])
    assert len(PUBLIC) >= 120
    assert sum(name.startswith("numeric.") for name in PUBLIC) >= 50
    for name, exemption in EXEMPTIONS.items():
        assert name in PUBLIC, f"{name}: exempted but not public"
        assert set(exemption["checks"]) <= CHECKS and exemption["checks"], name
        assert len(exemption["reason"]) > 30, f"{name}: an exemption needs its reason"


@pytest.mark.parametrize("name", PUBLIC)
def test_public_docstring_passes_numpydoc_validation(name):
    errors = _errors(name)
    exempt = set(EXEMPTIONS.get(name, {}).get("checks", ()))
    failing = {code: message for code, message in errors.items() if code not in exempt}
    assert not failing, f"{name}: {failing}"
    unused = exempt - set(errors)
    assert not unused, f"{name}: the exemption of {sorted(unused)} is no longer needed (pyproject.toml)"


def test_a_metric_documents_both_call_forms_once():
    """The registry writes the shared entries into a metric's docstring in the signature's
    order, keeps the metric's own entries, and adds a Returns section from its record."""
    doc = inspect.getdoc(numeric.oc)
    order = [doc.index(f"\n{name} : ") for name in inspect.signature(numeric.oc).parameters]
    assert order == sorted(order)
    assert "Used exactly as in eq. 7" in doc                       # oc's own text for beta
    assert doc.count("\nsample_weight : ") == 1
    returns = inspect.getdoc(numeric.mae).split("Returns\n-------\n")[1]
    assert returns.startswith("value : ") and "MAE in [0, inf]; lower is better." in returns
    # the internals of a_uoc stay in its code, out of the page (issue 40)
    assert "int64" not in inspect.getdoc(numeric.a_uoc) and "_exact_areas" not in inspect.getdoc(numeric.a_uoc)
