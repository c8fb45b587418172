"""``ordinal-verify ledger`` (and ``ordinal-verify`` without a subcommand): the claims ledger.

The bare command takes the same options, so ``ordinal-verify --markdown
FILE`` and ``ordinal-verify ledger --markdown FILE`` both write the ledger's
report (``ordinal-verify audit --markdown FILE`` writes the property table);
the bare command's options before another subcommand's name are refused
(that subcommand would ignore them, or overwrite them with its own).

``--claims PATH`` runs the claims a user's module (or folder of modules)
registers instead of the package's (:func:`analytic.ledger.load_claims`).
Each check runs in a worker process under ``--timeout SECONDS`` (default
600, :data:`analytic.ledger.DEFAULT_TIMEOUT`).  A check that raises, calls
``sys.exit``, returns no valid ``Outcome``, runs past the timeout or ends
its worker gets the verdict ``error`` (the reason is its evidence, and is
named on stderr); the other claims still run and the table is printed.
The exit status is 1 when a claim's verdict is not the one it expects (each
is named on stderr), 2 when a check gave ``error`` or the claims file is
unusable, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from .outputs import check_outputs, write_text, writing
from .table import format_table

__all__ = ["add_arguments", "add_parser", "cmd_ledger", "progress_bar", "SHOWN_TIMEOUT"]

#: ``--timeout``'s default as its help states it: :data:`analytic.ledger.DEFAULT_TIMEOUT`,
#: which a run uses; restated because building the parser imports no :mod:`analytic`
#: (and so no SymPy) for the commands that do not need it (a test checks the two agree)
SHOWN_TIMEOUT = 600


def progress_bar(stream):
    """A one-line progress bar on ``stream``.

    Parameters
    ----------
    stream : file
        Where to draw it (a terminal: it rewrites its line with carriage returns).

    Returns
    -------
    callable
        ``show(i, n, label)``: ``i`` of ``n`` done, ``label`` the item under way
        (:func:`analytic.ledger.run`'s ``progress``).

    Examples
    --------
    >>> import io
    >>> s = io.StringIO()
    >>> show = progress_bar(s)
    >>> show(1, 2, "a:claim"); show(2, 2, "")
    >>> s.getvalue().split("\\r")[1].rstrip()
    '[###############...............] 1/2 a:claim'
    """
    def show(i, n, cid):
        if n == 0:
            return
        width = 30
        filled = width * i // n
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {i}/{n} {cid[:40]:<40}")
        if i == n:
            stream.write("\n")
        stream.flush()

    return show


class _Given(argparse.Action):
    """``store`` (``store_true`` with ``nargs=0``) that also notes the option in
    ``namespace.ledger_options``: the bare command's options given before another
    subcommand, which that subcommand would ignore or overwrite (:func:`ordinal_verify.main`
    refuses them)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)
        namespace.ledger_options = [*getattr(namespace, "ledger_options", []), option_string]


def add_arguments(p, *, subcommand=False) -> None:
    """The ledger's options: on the top-level parser (the bare command; each given
    option is noted, :class:`_Given`) or, ``subcommand=True``, on ``ledger``'s parser,
    where an option not given keeps what the top level set (``ordinal-verify --only X
    ledger`` is ``ordinal-verify ledger --only X``).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The parser.
    subcommand : bool, default False
        ``p`` is the ``ledger`` subcommand's parser.

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--only", "silva2018"]).only
    'silva2018'
    """
    def arg(*names, flag=False, **kw):
        if subcommand:
            p.add_argument(*names, action="store_true" if flag else "store",
                           default=argparse.SUPPRESS, **kw)
        elif flag:
            p.add_argument(*names, action=_Given, nargs=0, const=True, default=False, **kw)
        else:
            p.add_argument(*names, action=_Given, default=None, **kw)
    arg("--json", metavar="FILE", help="write the ledger as JSON ('-' for stdout)")
    arg("--markdown", metavar="FILE",
        help="write the ledger as a Markdown report (the claims and their verdicts; "
             "'ordinal-verify audit --markdown FILE' writes the property table)")
    arg("--only", metavar="PREFIX", help="run only the claims whose id starts with PREFIX")
    arg("--no-progress", flag=True, help="no progress bar")
    arg("--claims", metavar="PATH",
                   help="run the claims registered by a Python module or a folder of modules "
                        "instead of the package's; this imports and runs that Python code with "
                        "your rights, so give only code you trust")
    arg("--jobs", type=int, metavar="N",
        help="worker processes, one source key at a time (default: the usable CPUs); "
             "on Linux every check runs in a forked worker, elsewhere in this process")
    arg("--timeout", type=_seconds, metavar="SECONDS",
        help="seconds each check may run before its worker is killed and its verdict "
             f"is 'error' (default: {SHOWN_TIMEOUT:g}; not enforced where checks run "
             "in this process)")


def add_parser(sub) -> None:
    """Add the ``ledger`` subcommand: what the bare command does, with the same options.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``ordinal-verify`` parser.

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> sub = p.add_subparsers(dest="command")
    >>> add_parser(sub)
    >>> p.parse_args(["ledger", "--only", "silva2018"]).only
    'silva2018'
    """
    text = ("run the claims ledger (the default command): a table of every claim with its "
            "verdict and evidence, and a summary line")
    s = sub.add_parser("ledger", help=text, description=text[0].upper() + text[1:] + ".")
    add_arguments(s, subcommand=True)
    s.set_defaults(run=cmd_ledger)


def _seconds(text):
    """A positive, finite number of seconds (``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def _write_json(out, entries):
    with writing(out) as fh:
        json.dump([e.to_dict() for e in entries], fh, indent=1)
        fh.write("\n")


def legend(entries, *, cut=False) -> str:
    """The lines under the table: what each verdict word of ``entries`` means, and where the
    full ledger is (the table shows each evidence cut at 100 characters when ``cut``).

    Examples
    --------
    >>> from analytic.ledger import Entry
    >>> lines = legend([Entry("a:b", "s", "s", "m", "verified", "exact 1", None)]).splitlines()
    >>> lines[0], lines[1].split(":")[0], "docs/ledger.md" in lines[2]
    ('', 'verified', True)
    """
    from analytic.ledger import VERDICT_MEANINGS, VERDICTS

    seen = {e.verdict for e in entries}
    lines = [""] + [f"{v}: {VERDICT_MEANINGS[v]}" for v in VERDICTS if v in seen]
    where = ("The full ledger, each claim with its source, statement, method and "
             + ("whole " if cut else "") + "evidence: docs/ledger.md "
             "(write it anew with --markdown FILE; --json FILE for a program).")
    if cut:
        where = "Evidence is cut at 100 characters above. " + where
    return "\n".join(lines + [where])


def cmd_ledger(args) -> int:
    """Run the claims ledger (``ordinal-verify`` or ``ordinal-verify ledger``), its table printed.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (:func:`ordinal_verify.build_parser`).

    Returns
    -------
    int
        The exit status: 0 when every claim gets its expected verdict, 1
        otherwise, 2 for a bad claims file or prefix, 130 when interrupted.

    Examples
    --------
    >>> import contextlib, io
    >>> from ordinal_verify import build_parser
    >>> args = build_parser().parse_args(["--only", "binotto2024:prop1", "--no-progress"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     status = cmd_ledger(args)
    >>> status, out.getvalue().splitlines()[2].split()[:2]
    (0, ['binotto2024:prop1:exhaustive', 'verified'])
    """
    from analytic import ledger
    from analytic.ledger import DEFAULT_TIMEOUT

    outs = check_outputs({"--json": args.json, "--markdown": args.markdown},
                         inputs=[args.claims], stdout_ok=("--json",))
    # a bar only on a terminal: a log file or a pipe gets no carriage returns
    progress = None if args.no_progress or not sys.stderr.isatty() else progress_bar(sys.stderr)
    if args.claims:
        try:
            todo = ledger.load_claims(args.claims)
        except ValueError:  # a bad path or a module without claims: the CLI's error handler
            raise
        except KeyboardInterrupt:  # the user's Ctrl-C while the module imports
            print("ordinal-verify: interrupted", file=sys.stderr)
            return 130
        except SystemExit as exc:  # sys.exit(0) at import was a silent success
            print(f"ordinal-verify: {args.claims}: importing the claims called "
                  f"sys.exit({exc.code!r}); no claim was run", file=sys.stderr)
            return 2
        except Exception as exc:  # the user's module failed to import: name it, no traceback
            print(f"ordinal-verify: {args.claims}: importing the claims raised {exc!r}",
                  file=sys.stderr)
            return 2
    else:
        todo = ledger.claims()
    if args.only is not None and not any(c.id.startswith(args.only) for c in todo):
        # "0 claims" and exit status 0 read as success: a misspelt prefix is an error
        keys = sorted({c.id.split(":", 1)[0] for c in todo})
        raise ValueError(f"--only {args.only!r}: no claim id starts with it (the ids start with "
                         f"{', '.join(k + ':' for k in keys[:12])}{', ...' if len(keys) > 12 else ''})")
    try:
        entries = ledger.run(prefix=args.only, progress=progress, only=todo,
                             jobs=ledger.default_jobs() if args.jobs is None else args.jobs,
                             timeout=DEFAULT_TIMEOUT if args.timeout is None else args.timeout)
    except KeyboardInterrupt:  # the user's Ctrl-C: the workers are stopped
        if progress is not None:
            sys.stderr.write("\n")
        print("ordinal-verify: interrupted", file=sys.stderr)
        return 130
    if args.json == "-":
        _write_json(outs["--json"], entries)
    else:
        rows = []
        for e in entries:
            ev = e.evidence if len(e.evidence) <= 100 else e.evidence[:97] + "..."
            rows.append((e.id, e.verdict, ev))
        print(format_table(("id", "verdict", "evidence"), rows))
        print(ledger.summary_line(entries))
        print(legend(entries, cut=any(len(e.evidence) > 100 for e in entries)))
        if args.json:
            _write_json(outs["--json"], entries)
    if args.markdown:
        write_text(outs["--markdown"], ledger.to_markdown(entries))
    errors = [e for e in entries if e.verdict == "error"]
    for e in errors:
        print(f"ordinal-verify: claim {e.id!r}: {e.evidence}", file=sys.stderr)
    wrong = ledger.mismatches([e for e in entries if e.verdict != "error"], todo)
    for line in wrong:
        print(f"ordinal-verify: {line}", file=sys.stderr)
    return 2 if errors else 1 if wrong else 0
