"""Importing a submodule never rebinds a public name of its package.

``import numeric.X`` sets the attribute ``X`` of the package ``numeric`` to the
submodule (the import system binds every submodule on its parent package, the
Python Language Reference, "The import system", §5.4.2 "Submodules").  A
package that also exports a function named ``X`` loses it the first time
anything imports the submodule: pytest's doctest collection of
``numeric/compare.py``, ``import numeric.compare`` in a user's script, or a
lazy ``from .compare import ...`` inside the package, after which
``numeric.compare(...)`` raised "'module' object is not callable".  This is
why the modules of ``compare`` and ``report`` are ``numeric.comparison`` and
``numeric.reporting``.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# In a fresh interpreter (this one may have imported submodules already): import the
# package, record its public names, then load every submodule afresh the way pytest's
# doctest collection does (``--import-mode=importlib``, this project's mode: pytest's
# ``import_path`` executes the file as a new module and binds it on the package), and
# check every public name.  A module that refuses to be executed twice (a claims
# registry) is put back as it was; the package's own module objects are restored after
# each load, so later loads see the package as a user's program does.
_SCRIPT = r"""
import importlib, pkgutil, sys
from pathlib import Path
from _pytest.pathlib import import_path
pkg = importlib.import_module(sys.argv[1])
before = {name: getattr(pkg, name) for name in pkg.__all__}
for info in list(pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")):
    if info.name.rsplit(".", 1)[-1] == "__main__":
        continue
    importlib.import_module(info.name)
    saved = sys.modules.pop(info.name)
    try:
        import_path(Path(saved.__file__), mode="importlib", root=Path.cwd(),
                    consider_namespace_packages=False)
    except ValueError as exc:
        if "registered twice" not in str(exc):
            raise
    finally:
        sys.modules[info.name] = saved
changed = [name for name, obj in before.items() if getattr(pkg, name) is not obj]
print(",".join(sorted(changed)))
"""


@pytest.mark.parametrize("package", ["numeric", "analytic"])
def test_importing_every_submodule_keeps_every_public_name(package):
    """Source: the import system binds ``pkg.sub`` whenever it loads a submodule
    (Language Reference §5.4.2), and pytest's doctest collection loads each file; every
    name of ``__all__`` must still be the object it was before."""
    out = subprocess.run([sys.executable, "-c", _SCRIPT, package], capture_output=True,
                         text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    changed = out.stdout.strip()
    assert changed == "", f"loading the submodules of {package} rebinds: {changed}"


def test_no_public_name_is_a_submodule_name():
    """The same clash read off the file names: a name of ``__all__`` that is also
    a submodule would be rebound by the first import of that submodule."""
    for package in ("numeric", "analytic"):
        pkg = importlib.import_module(package)
        subs = {m.name for m in pkgutil.iter_modules(pkg.__path__)}
        assert not subs & set(pkg.__all__), (package, sorted(subs & set(pkg.__all__)))


def test_compare_and_report_callable_after_importing_their_modules():
    """The reported failure: doctest collection imports the module, then the function is
    called (the 22 failures of test_workflow.py in one pytest run)."""
    import numeric

    importlib.import_module("numeric.comparison")
    importlib.import_module("numeric.reporting")
    assert callable(numeric.compare) and callable(numeric.report)
    c = numeric.compare([0, 1, 2, 2], [0, 1, 1, 2], [0, 2, 2, 2], metrics=["mae"],
                        n_resamples=20, seed=0)
    assert c["MAE"].a == 0.25 and c["MAE"].b == 0.25      # one error of one class each
    assert numeric.report([0, 1, 2, 2], [0, 1, 1, 2], metrics=["mae"])["MAE"].value == 0.25
