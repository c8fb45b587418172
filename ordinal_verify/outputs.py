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
    """:func:`numeric.outputs.check_outputs` for a command's options, and ``--plot``'s format.

    Parameters
    ----------
    outputs : dict
        ``{option: path or None}``; ``None`` (the option was not given) is skipped.
    inputs : iterable of str
        The command's input files.
    stdout_ok : tuple of str, default ("--json", "--csv")
        The options that accept ``-`` for stdout.
    sources : iterable of str
        Source files or folders of the user's code that the command runs.

    Returns
    -------
    dict
        ``{option: Output}`` for the options given.

    Raises
    ------
    OutputError
        As :func:`numeric.outputs.check_outputs`; and for ``--plot``, a format
        matplotlib does not write, or no matplotlib.

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
    """The image format of ``--plot PATH``, after checking that matplotlib writes it.

    Parameters
    ----------
    path : str
        The ``--plot`` path.

    Returns
    -------
    str
        Its extension, lower case; ``png`` without one.

    Raises
    ------
    OutputError
        No matplotlib, or a format it does not write.

    Examples
    --------
    >>> plot_format("study.SVG"), plot_format("study")
    ('svg', 'png')
    """
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
