"""The ``ordinal-verify`` command (also ``python -m ordinal_verify``, ``python -m analytic``).

``ordinal-verify`` or ``ordinal-verify ledger``
    runs the claims ledger and prints a table and a summary line;
    ``--json FILE`` (``-`` for stdout), ``--markdown FILE`` (the ledger's
    report), ``--only PREFIX``.
``ordinal-verify metrics FILE``
    every metric of a user's confusion matrix, exact and float.
``ordinal-verify auoc FILE``
    the piecewise UOC(beta) and the exact A_UOC of a matrix.
``ordinal-verify audit [METRIC]``
    the formal properties of a registered metric (or the property table of
    all): a wide float64 search whose candidates are decided in exact
    arithmetic, and symbolic proofs (:mod:`analytic.properties`).
``ordinal-verify study FILE...``
    several methods over many datasets from long-format predictions: the
    table papers print, average ranks, Friedman, Nemenyi, Holm and Wilcoxon
    (:func:`numeric.study`), ``--latex``, ``--markdown``, ``--plot``.
``ordinal-verify --claims PATH``
    the ledger of a user's claims module or folder.

``--json`` and ``--markdown`` belong to the command named before them:
``ordinal-verify --markdown FILE`` writes the ledger, ``ordinal-verify audit
--markdown FILE`` the property table.  The ledger's options before another
subcommand's name are an error (exit status 2).

A matrix file is CSV or whitespace-separated, one row per line, rows = true
class (``--predicted-rows`` for the transpose); ``#`` starts a comment.  A
malformed file gets a one-line error naming the file, line and problem, and
exit status 2.  Every output path (``--json``, ``--csv``, ``--latex``,
``--plot``, ``--markdown``) is checked before the work starts and written atomically
(:mod:`ordinal_verify.outputs`); an output that cannot be written, or one that
names an input file, is one line ``ordinal-verify: cannot write PATH: reason``
and exit status 2.

One module per subcommand: each has ``add_parsers(sub)`` (``add_parser`` and
``add_arguments`` for the ledger, whose options the top level takes too) and
sets ``run``.  :mod:`analytic` (and with it SymPy, about a second) is imported
only by the commands that use it (``ledger``, ``audit``): ``metrics`` and
``auoc`` need only :mod:`numeric`.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from exactfloor.errors import InputError, OutputError  # noqa: F401 (OutputError: importable here)

from . import audit_cmd, ledger_cmd, matrix_cmds, study_cmd
from .inputs import read_matrix

# InputError and OutputError are importable here too, as they were from analytic.cli;
# their home (and their documentation) is exactfloor.errors
__all__ = ["main", "build_parser", "read_matrix"]


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line (``ordinal-verify audit: error: argument
    --max-k: must be >= 1, got -1 (see 'ordinal-verify audit --help')``), exit status 2,
    instead of the usage block and the message; the subcommands' parsers are of this
    class too (``add_subparsers`` makes them of its parser's class)."""

    def error(self, message):
        message = " ".join(str(message).split())
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``ordinal-verify`` command line, with its subcommands.

    Returns
    -------
    argparse.ArgumentParser
        Its errors are one line and exit status 2; the parsed arguments'
        ``run`` is the function of the chosen subcommand (the ledger's when
        none is named).

    Examples
    --------
    >>> build_parser().parse_args(["metrics", "cm.csv"]).command
    'metrics'
    """
    p = _Parser(
        prog="ordinal-verify",
        description="Verify the claims of the ordinal-metric papers, or compute the metrics of a "
                    "matrix.  Without a subcommand it runs the claims ledger (as 'ordinal-verify "
                    "ledger'), and the options below are the ledger's.",
    )
    ledger_cmd.add_arguments(p)
    p.set_defaults(run=ledger_cmd.cmd_ledger)
    sub = p.add_subparsers(dest="command")
    ledger_cmd.add_parser(sub)
    matrix_cmds.add_parsers(sub)
    audit_cmd.add_parsers(sub)
    study_cmd.add_parsers(sub)
    return p


def _parse(argv):
    """The parsed arguments; the ledger's options before another subcommand are
    an argparse error (exit status 2): that subcommand would ignore them
    (``--only``), or replace them with its own default (``--markdown``)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    given = getattr(args, "ledger_options", ())
    if args.command not in (None, "ledger") and given:
        parser.error(f"{', '.join(dict.fromkeys(given))}: an option of the ledger (the bare "
                     f"command), given before '{args.command}'; put the options of "
                     f"'{args.command}' after its name ('ordinal-verify {args.command} --help')")
    return args


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as one line on stderr (not Python's file:line report)."""
    print(f"ordinal-verify: warning: {message}", file=sys.stderr)


def _stdout_to_devnull():
    """Point stdout at devnull so that the interpreter's final flush cannot fail
    (the recipe of the Python documentation, "Note on SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor
        pass


def main(argv=None) -> int:
    """Run the ``ordinal-verify`` command line.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program's name (``sys.argv[1:]`` by default).

    Returns
    -------
    int
        The exit status: 0 on success, 1 when a claim of the ledger does not
        get its expected verdict, 2 for bad input or an output that cannot be
        written, 130 when interrupted.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "cm.csv")
    ...     _ = path.write_text("2,1\\n0,3\\n")
    ...     status = main(["auoc", str(path)])  # doctest: +ELLIPSIS
    /.../cm.csv: UOC(beta), gamma = 1 (silva2018 eq. 28), exact pieces:
    beta in    UOC(beta)
    ---------  ------------
    [0, 6/7)   beta/6 + 1/7
    [6/7, oo)  2/7
    A_UOC = 11/49 = 0.224489795918 (silva2018 eq. 23; lower is better)
    >>> status
    0
    """
    from numeric._common import unlimited_int_digits

    args = _parse(argv)
    try:
        # exact values the command computed may print with over 4,300 digits (an A_UOC of
        # 100 classes of 14-digit counts); a user's matrix or label file is read under the
        # default limit (matrix_cmds.load_matrices), its other texts are short options
        with unlimited_int_digits():
            return _run(args)
    except KeyboardInterrupt:  # the user's Ctrl-C, in any command: one line, no traceback
        print("ordinal-verify: interrupted", file=sys.stderr)
        return 130


def _run(args) -> int:
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            status = args.run(args)
        sys.stdout.flush()  # a write error on stdout is reported here, not at exit
        return status
    except BrokenPipeError:
        # the reader went away (``ordinal-verify | head -1``): stop quietly
        _stdout_to_devnull()
        return 1
    except MemoryError:
        print("ordinal-verify: out of memory (the input is too large)", file=sys.stderr)
        return 2
    except InputError as exc:  # OutputError too
        _error(exc)
        return 2
    except OSError as exc:  # stdout (> /dev/full) or a file no command checks: one line
        where = exc.filename if exc.filename else "stdout"
        if not exc.filename:
            _stdout_to_devnull()
        _error(f"cannot write {where}: {exc.strerror or exc}")
        return 2
    except ValueError as exc:
        target = getattr(args, "file", None)
        _error(f"{target + ': ' if target else ''}{exc}")
        return 2


def _error(message) -> None:
    """``ordinal-verify: MESSAGE`` as one line on stderr: a line break from the
    user's text (a file name, a header read across an open quote) is shown as ``\\n``."""
    print("ordinal-verify: " + "\\n".join(str(message).splitlines()), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
