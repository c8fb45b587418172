"""The sdist and the wheel build, hold what they must, and the installed wheel runs (issue 40).

``python -m build --no-isolation`` (the build backend of this environment, so
no network) builds both from a copy of the tracked files, so the checkout gets
no ``build/`` or ``*.egg-info``; ``twine check`` passes them.  The wheel is
unpacked into a folder of its own (no dependency installed: this interpreter
has them) and run from outside the checkout: ``python -m ordinal_verify`` on
one source's claims; its ``ordinal-verify`` entry point is the one
``pyproject.toml`` declares.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

def _tracked_copy(dest):
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((ROOT / name).read_bytes())


def test_sdist_and_wheel_build_and_the_installed_wheel_runs(tmp_path):
    src, dist, site = tmp_path / "src", tmp_path / "dist", tmp_path / "site"
    _tracked_copy(src)
    res = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check",
                          "--outdir", str(dist), str(src)], cwd=src, capture_output=True, text=True)
    assert res.returncode == 0, (res.stdout + res.stderr)[-2000:]
    name, version = PROJECT["name"].replace("-", "_"), PROJECT["version"]
    wheel_name = f"{name}-{version}-py3-none-any.whl"
    # the sdist's name is normalised (ordinal_verify-) by setuptools >= 69.3, not before
    sdist_name = next(n for n in (f"{name}-{version}.tar.gz", f"{PROJECT['name']}-{version}.tar.gz")
                      if (dist / n).is_file())
    assert sorted(p.name for p in dist.iterdir()) == sorted([sdist_name, wheel_name])
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(dist / sdist_name),
                            str(dist / wheel_name)], capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout.count("PASSED") == 2, check.stdout + check.stderr

    with tarfile.open(dist / sdist_name) as tar:
        members = {m.split("/", 1)[1] for m in tar.getnames() if "/" in m}
    for must in ("pyproject.toml", "README.md", "LICENSE", "numeric/__init__.py", "analytic/__init__.py",
                 "ordinal_verify/__init__.py", "analytic/properties/table.json"):
        assert must in members, f"sdist lacks {must}"

    with zipfile.ZipFile(dist / wheel_name) as whl:
        names = set(whl.namelist())
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = whl.read(meta).decode()
        entry_points = whl.read(meta.replace("METADATA", "entry_points.txt")).decode()
        whl.extractall(site)
    for must in ("numeric/registry.py", "analytic/ledger/__init__.py", "ordinal_verify/__main__.py",
                 "analytic/properties/table.json", "analytic/properties/table_template.md"):
        assert must in names, f"wheel lacks {must}"
    assert not any(n.startswith(("proofs_tests/", "notebooks/", "docs/", "benchmarks/")) for n in names)
    assert f"Version: {version}" in metadata and "License" in metadata
    for dep in PROJECT["dependencies"]:
        assert f"Requires-Dist: {dep}" in metadata, dep
    assert "ordinal-verify = ordinal_verify:main" in entry_points

    # the unpacked wheel, from a folder outside the checkout: its modules, not the checkout's
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-m", "ordinal_verify", "--only", "cardoso2011:sec3",
                          "--no-progress", "--jobs", "1"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert " claims: " in run.stdout and "docs/ledger.md" in run.stdout.splitlines()[-1]
    where = subprocess.run([sys.executable, "-c", "import numeric, analytic; print(numeric.__file__, "
                            "analytic.__file__)"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.stdout.split() == [str(site / "numeric" / "__init__.py"), str(site / "analytic" / "__init__.py")]
