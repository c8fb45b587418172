"""The output files of every ``ordinal-verify`` command: the project's one output rule
(:mod:`numeric.outputs`), plus ``--plot``'s check.

Every command calls :func:`check_outputs` first, with its output options, its
input files and the source files of a user's module it runs, so that a bad
output path is one line on stderr and exit status 2 *before* any work (the
whole ledger, a bootstrap) is done; :func:`writing` then writes a regular
file atomically (a temporary file in the same folder, moved into place).  The
rules are those of :mod:`numeric.outputs`; here ``--json`` and ``--csv``
accept ``-`` for stdout by default, and ``--plot`` needs matplotlib (the
``plot`` extra) and a file format it writes.  An error is printed by
:func:`ordinal_verify.main` as the one line ``ordinal-verify: cannot write
PATH: reason`` (exit status 2).
"""

from __future__ import annotations

import os

from numeric import outputs as _rule
from exactfloor.errors import OutputError
from numeric.outputs import Output, module_sources, write_text, writing

__all__ = ["OutputError", "Output", "check_outputs", "writing", "write_text", "plot_format",
           "module_sources", "PLOT_INSTALL"]

#: how to install what ``--plot`` needs
PLOT_INSTALL = 'pip install "ordinal-verify[plot]"'


def check_outputs(outputs, inputs=(), *, stdout_ok=("--json", "--csv"), sources=()) -> dict:
    """:func:`numeric.outputs.check_outputs` for a command's options (``--json`` and
    ``--csv`` may be ``-``), and ``--plot``'s format and matplotlib.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> check_outputs({"--json": "-", "--csv": os.path.join(d, "x.csv")})["--json"].kind
    'stdout'
    """
    checked = _rule.check_outputs(outputs, inputs, stdout_ok=stdout_ok, sources=sources)
    if "--plot" in checked:
        plot_format(checked["--plot"].path)
    return checked


def plot_format(path) -> str:
    """The image format of ``--plot PATH`` (its extension; ``png`` without one),
    after checking that matplotlib is installed and writes that format."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise OutputError(f"--plot needs matplotlib, which is not installed: {PLOT_INSTALL}") from None
    ext = os.path.splitext(str(path))[1][1:].lower() or "png"
    formats = FigureCanvasBase.get_supported_filetypes()
    if ext not in formats:
        raise OutputError(f"cannot write {path}: matplotlib does not write .{ext} files; "
                          f"use one of {', '.join('.' + f for f in sorted(formats))}")
    return ext
