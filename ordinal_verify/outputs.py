"""The output files of every ``ordinal-verify`` command: checked before the work, written atomically.

Every command calls :func:`check_outputs` first, with its output options and
its input files, so that a bad output path is one line on stderr and exit
status 2 *before* any work (the whole ledger, a bootstrap) is done:

* the folder of the path exists and the path is not a folder;
* the path is not one of the command's input files (``os.path.samefile`` when
  both exist, so a symbolic or hard link to the input is caught too);
* two outputs of one command are not the same file;
* ``-`` (stdout) is accepted only by the options that support it, and by one
  of them at a time;
* ``--plot`` needs matplotlib (the ``plot`` extra) and a file format it writes.

:func:`writing` then writes a regular file atomically: into a temporary
file in the same folder, moved over the path with :func:`os.replace` once it
is complete, so that a failure (a full disk, an exception in the writer)
leaves the previous file as it was and no temporary file behind.  A path
that exists and is not a regular file (``/dev/stdout``, ``/dev/null``,
``/dev/full``, a named pipe) is written directly: it cannot be replaced, and
holds nothing a failure could destroy.  An :class:`OSError` while writing is
raised as :class:`OutputError`, printed by :func:`ordinal_verify.main` as the
one line ``ordinal-verify: cannot write PATH: reason`` (exit status 2).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from pathlib import Path

from numeric.errors import OutputError

__all__ = ["OutputError", "Output", "check_outputs", "writing", "write_text", "plot_format",
           "PLOT_INSTALL"]

#: how to install what ``--plot`` needs
PLOT_INSTALL = 'pip install "ordinal-verify[plot]"'


def _cannot(path, reason) -> OutputError:
    return OutputError(f"cannot write {path}: {reason}")


def _reason(exc: OSError) -> str:
    """``'No space left on device'`` rather than ``[Errno 28] No space left on device: 'x'``."""
    return exc.strerror or str(exc) or exc.__class__.__name__


class Output:
    """One checked output path: ``option`` (``'--json'``), ``path`` as given,
    ``kind`` (``'stdout'``, ``'file'`` for a regular or new file, ``'special'``
    for an existing non-regular file) and ``target`` (the resolved path a
    regular file is written to, through any symbolic link)."""

    def __init__(self, option, path, kind, target):
        self.option, self.path, self.kind, self.target = option, path, kind, target

    def __repr__(self):
        return f"Output({self.option!r}, {self.path!r}, {self.kind!r})"


def _stdout_identity():
    try:
        st = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # a captured stdout (pytest, a notebook)
        return ("stdout",)
    return (st.st_dev, st.st_ino)


def _inspect(option, path, stdout_ok) -> tuple[Output, tuple]:
    """The :class:`Output` of one option and an identity to compare with the others."""
    if path == "-":
        if not stdout_ok:
            raise OutputError(f"{option} -: this option cannot write to stdout; "
                              f"give a file name (./- for a file named '-')")
        return Output(option, path, "stdout", None), _stdout_identity()
    if not path:
        raise OutputError(f"{option}: an empty file name")
    try:
        st = os.stat(path)  # follows symbolic links
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _cannot(path, _reason(exc)) from None
    if st is None:
        target = os.path.realpath(path)  # a dangling link: its target is created
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            raise _cannot(path, f"the folder {os.path.dirname(path) or folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise _cannot(path, f"the folder {os.path.dirname(path) or folder} is not writable")
        return Output(option, path, "file", target), ("new", target)
    if stat.S_ISDIR(st.st_mode):
        raise _cannot(path, "it is a folder; give a file name")
    if not os.access(path, os.W_OK):
        raise _cannot(path, "permission denied")
    identity = (st.st_dev, st.st_ino)
    if not stat.S_ISREG(st.st_mode):
        return Output(option, path, "special", None), identity
    target = os.path.realpath(path)
    if not os.access(os.path.dirname(target), os.W_OK):
        raise _cannot(path, f"the folder {os.path.dirname(target)} is not writable "
                            "(the file is replaced, not written in place)")
    return Output(option, path, "file", target), identity


def _input_files(inputs):
    """The existing input files; a folder stands for the ``*.py`` files in it (``--claims``)."""
    for p in inputs:
        if p is None or p == "-":
            continue
        if os.path.isdir(p):
            yield from (str(f) for f in sorted(Path(p).glob("*.py")))
        else:
            yield str(p)


def check_outputs(outputs, inputs=(), *, stdout_ok=("--json", "--csv")) -> dict:
    """Check a command's output paths before it does any work.

    Parameters
    ----------
    outputs : dict
        ``{option: path or None}``, e.g. ``{"--json": args.json, "--plot": args.plot}``;
        ``None`` (the option was not given) is skipped.
    inputs : iterable of str
        The command's input files (a folder stands for its ``*.py`` files).
    stdout_ok : tuple of str
        The options that accept ``-`` for stdout.

    Returns
    -------
    dict
        ``{option: Output}`` for the options given.

    Raises
    ------
    OutputError
        Naming the path and the problem: a missing folder, a folder, an input
        file, two options naming one file, ``-`` where stdout is not supported,
        ``--plot`` without matplotlib or with a format it does not write.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> check_outputs({"--json": os.path.join(d, "x.json"), "--csv": None})["--json"].kind
    'file'
    >>> check_outputs({"--json": os.path.join(d, "no", "x.json")})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    numeric.errors.OutputError: cannot write .../no/x.json: the folder .../no does not exist
    """
    inputs = list(_input_files(inputs))
    checked, seen = {}, {}
    for option, path in outputs.items():
        if path is None:
            continue
        out, identity = _inspect(option, str(path), option in stdout_ok)
        if out.kind != "stdout":
            if out.kind == "file":
                for inp in inputs:
                    same = (os.path.samefile(out.target, inp) if os.path.exists(out.target)
                            and os.path.exists(inp)
                            else out.target == os.path.realpath(inp))
                    if same:
                        raise _cannot(path, f"it is the input file {inp}; "
                                            "choose another name (the input is left as it is)")
            if out.path == os.devnull:
                identity = None  # any number of outputs may be discarded
        if identity is not None and identity in seen:
            raise OutputError(f"{seen[identity]} and {option} name the same file "
                              f"({'stdout' if out.kind == 'stdout' else path}); give each its own")
        if identity is not None:
            seen[identity] = option
        if option == "--plot":
            plot_format(path)
        checked[option] = out
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
        raise _cannot(path, f"matplotlib does not write .{ext} files; "
                            f"use one of {', '.join('.' + f for f in sorted(formats))}")
    return ext


@contextlib.contextmanager
def writing(out, *, binary=False, newline=None):
    """A file object writing ``out`` (an :class:`Output` or a path, checked again here).

    A regular file is written into a temporary file of the same folder, moved
    over the path with :func:`os.replace` when the block ends without an
    exception; on an exception the temporary file is removed and the previous
    file is untouched.  ``-`` is ``sys.stdout`` (flushed at the end); an
    existing non-regular file is opened and written directly.  An ``OSError``
    becomes :class:`OutputError` (``cannot write PATH: reason``).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> with writing(p) as fh:
    ...     _ = fh.write("new")
    >>> open(p).read(), os.listdir(os.path.dirname(p))
    ('new', ['a.txt'])
    """
    if not isinstance(out, Output):
        out = next(iter(check_outputs({"output": out}, stdout_ok=("output",)).values()))
    mode = "wb" if binary else "w"
    text = {} if binary else {"encoding": "utf-8", "newline": newline}
    try:
        if out.kind == "stdout":
            fh = sys.stdout.buffer if binary else sys.stdout
            yield fh
            fh.flush()
        elif out.kind == "special":
            with open(out.path, mode, **text) as fh:
                yield fh
        else:
            with _atomic(out.target, mode, text) as fh:
                yield fh
    except BrokenPipeError:  # stdout's reader went away: ordinal_verify.main stops quietly
        raise
    except OSError as exc:
        raise _cannot("stdout" if out.kind == "stdout" else out.path, _reason(exc)) from None


@contextlib.contextmanager
def _atomic(target, mode, text):
    folder, name = os.path.split(target)
    while True:
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            # 0o666 less the umask, as open() would create it
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))  # an existing file keeps its mode
        with open(fd, mode, **text) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(out, text: str) -> None:
    """Write ``text`` to ``out`` (an :class:`Output` or a path) with :func:`writing`."""
    with writing(out) as fh:
        fh.write(text)
