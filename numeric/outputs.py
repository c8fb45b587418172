"""The one output rule of every writer of the project: checked before the work, written atomically.

Every program of the repository that writes a file uses this module: the
``ordinal-verify`` command (:mod:`ordinal_verify.outputs` adds ``--plot``'s
check), ``python docs/build.py --log``, ``python notebooks/build.py``,
``python -m numeric --write-readme`` and ``python -m benchmarks --output``.
Each calls :func:`check_outputs` first, with its output paths and its input
files, so that a bad output path is one line on stderr and exit status 2
*before* any work (the whole ledger, a bootstrap, minutes of benchmarks) is done:

* the folder of the path exists and the path is not a folder;
* the path is not one of the program's input files (``os.path.samefile`` when
  both exist, so a symbolic or hard link to the input is caught too);
* the path is not a source file (:data:`SOURCE_SUFFIXES`) of the project
  (:func:`project_sources`) or of a user's module that the program runs
  (``sources=``, see :func:`module_sources`);
* two outputs of one program are not the same file;
* ``-`` (stdout) is accepted only by the options that support it, and by one
  of them at a time.

:func:`writing` then writes a regular file atomically: into a temporary
file in the same folder, moved over the path with :func:`os.replace` once it
is complete, so that a failure (a full disk, an exception in the writer)
leaves the previous file as it was and no temporary file behind.  A path
that exists and is not a regular file (``/dev/stdout``, ``/dev/null``,
``/dev/full``, a named pipe) is written directly: it cannot be replaced, and
holds nothing a failure could destroy.  An :class:`OSError` while writing is
raised as :class:`OutputError`, printed by each program as the one line
``PROGRAM: cannot write PATH: reason`` (exit status 2).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from pathlib import Path

from exactfloor.errors import OutputError

__all__ = ["OutputError", "Output", "check_outputs", "writing", "write_text",
           "project_sources", "module_sources", "SOURCE_SUFFIXES"]

#: the suffixes of a source file: never an output in a protected folder
SOURCE_SUFFIXES = (".py", ".pyi", ".pyw", ".pyx", ".pxd")
#: the project's folders of Python sources (those beside ``numeric`` that exist)
_PROJECT_PACKAGES = ("numeric", "analytic", "ordinal_verify", "benchmarks", "notebooks", "docs",
                     "proofs_tests")


def _cannot(path, reason) -> OutputError:
    return OutputError(f"cannot write {path}: {reason}")


def _reason(exc: OSError) -> str:
    """``'No space left on device'`` rather than ``[Errno 28] No space left on device: 'x'``."""
    return exc.strerror or str(exc) or exc.__class__.__name__


class Output:
    """One checked output path (:func:`check_outputs`).

    Parameters
    ----------
    option : str
        The option, e.g. ``'--json'``.
    path : str
        The path as given.
    kind : str
        ``'stdout'``, ``'file'`` for a regular or new file, ``'special'`` for
        an existing non-regular file.
    target : str or None
        The resolved path a regular file is written to, through any symbolic link.

    Examples
    --------
    >>> import tempfile, os
    >>> out = check_outputs({"--json": os.path.join(tempfile.mkdtemp(), "x.json")})["--json"]
    >>> out.option, out.kind, os.path.basename(out.target)
    ('--json', 'file', 'x.json')
    """

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


def project_sources() -> tuple[str, ...]:
    """The folders of the project's Python sources: the packages ``numeric``,
    ``analytic``, ``ordinal_verify`` and, in a checkout, ``benchmarks``,
    ``notebooks``, ``docs`` and ``proofs_tests`` (those that exist beside
    ``numeric``).  A file with a suffix of :data:`SOURCE_SUFFIXES` inside one of
    them is never an output.

    Returns
    -------
    tuple of str
        The folders, as absolute paths.

    Examples
    --------
    >>> any(f.endswith("numeric") for f in project_sources())
    True
    """
    root = Path(__file__).resolve().parent.parent
    return tuple(str(root / name) for name in _PROJECT_PACKAGES if (root / name).is_dir())


def module_sources(name) -> tuple[str, ...]:
    """The source files of a user's module ``name`` that a program is about to run
    (``pkg.impl`` of ``ordinal-verify audit pkg.impl:f``), found without running it:
    the folder of its top-level package (every source file in it, at any depth:
    ``pkg:f`` may be defined in ``pkg/impl.py``), or the module's own file when it
    is not in a package.  ``()`` when the module is not found (the import fails
    later, with its own message).

    Parameters
    ----------
    name : str
        The module's dotted name.

    Returns
    -------
    tuple of str
        The folder of its top-level package, or its own file; ``()`` when not found.

    Examples
    --------
    >>> module_sources("numeric.registry") == (str(Path(__file__).resolve().parent),)
    True
    >>> module_sources("no_such_module_here")
    ()
    """
    import importlib.util

    top = str(name).partition(":")[0].split(".")[0]
    if not top:
        return ()
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: nothing is imported
    except (ImportError, ValueError):
        return ()
    if spec is None:
        return ()
    if spec.submodule_search_locations:
        return tuple(str(Path(d).resolve()) for d in spec.submodule_search_locations)
    return (str(Path(spec.origin).resolve()),) if spec.origin and os.path.exists(spec.origin) else ()


def _protected_source(target, sources) -> str | None:
    """The source file or folder of ``sources`` that ``target`` (a resolved path) is
    or lies in, with a source suffix; ``None`` when it is not a source file."""
    for src in sources:
        src = os.path.realpath(src)
        if os.path.isdir(src):
            if (target.endswith(SOURCE_SUFFIXES)
                    and os.path.commonpath([src, target]) == src):
                return os.path.relpath(target, os.path.dirname(src))
        elif target == src or (os.path.exists(target) and os.path.exists(src)
                               and os.path.samefile(target, src)):
            return os.path.basename(src)
    return None


def check_outputs(outputs, inputs=(), *, stdout_ok=(), sources=()) -> dict:
    """Check a program's output paths before it does any work.

    Parameters
    ----------
    outputs : dict
        ``{option: path or None}``, e.g. ``{"--json": args.json, "--log": args.log}``;
        ``None`` (the option was not given) is skipped.
    inputs : iterable of str
        The program's input files (a folder stands for its ``*.py`` files).
    stdout_ok : tuple of str
        The options that accept ``-`` for stdout.
    sources : iterable of str
        Source files or folders of the user's code that the program runs
        (:func:`module_sources`), protected as the project's own
        (:func:`project_sources`) always are.

    Returns
    -------
    dict
        ``{option: Output}`` for the options given.

    Raises
    ------
    OutputError
        Naming the path and the problem: a missing folder, a folder, an input
        file, a source file, two options naming one file, ``-`` where stdout is
        not supported.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> check_outputs({"--json": os.path.join(d, "x.json"), "--csv": None})["--json"].kind
    'file'
    >>> check_outputs({"--json": os.path.join(d, "no", "x.json")})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactfloor.errors.OutputError: cannot write .../no/x.json: the folder .../no does not exist
    >>> check_outputs({"--log": __file__})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactfloor.errors.OutputError: cannot write ...: it is the source file numeric/outputs.py of the project; ...
    """
    inputs = list(_input_files(inputs))
    sources = list(sources)
    project = project_sources()
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
                for whose, folders in (("the project", project), ("the code being run", sources)):
                    name = _protected_source(out.target, folders)
                    if name is not None:
                        raise _cannot(path, f"it is the source file {name} of {whose}; "
                                            "choose another name (the source is left as it is)")
            if out.path == os.devnull:
                identity = None  # any number of outputs may be discarded
        if identity is not None and identity in seen:
            raise OutputError(f"{seen[identity]} and {option} name the same file "
                              f"({'stdout' if out.kind == 'stdout' else path}); give each its own")
        if identity is not None:
            seen[identity] = option
        checked[option] = out
    return checked


@contextlib.contextmanager
def writing(out, *, binary=False, newline=None):
    """A file object writing ``out`` (an :class:`Output` or a path, checked again here).

    A regular file is written into a temporary file of the same folder, moved
    over the path with :func:`os.replace` when the block ends without an
    exception; on an exception the temporary file is removed and the previous
    file is untouched.  ``-`` is ``sys.stdout`` (flushed at the end); an
    existing non-regular file is opened and written directly.  An ``OSError``
    becomes :class:`OutputError` (``cannot write PATH: reason``).

    Parameters
    ----------
    out : Output or str
        Where to write.
    binary : bool, default False
        A binary file object (else text, UTF-8).
    newline : str, optional
        As :func:`open`'s, for a text file.

    Yields
    ------
    file object
        The file to write into, within a ``with`` block.

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
    """Write ``text`` to ``out`` with :func:`writing`: atomically, the previous file kept on failure.

    Parameters
    ----------
    out : Output or str
        Where to write.
    text : str
        What to write.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.md")
    >>> write_text(p, "# a\\n")
    >>> open(p).read()
    '# a\\n'
    """
    with writing(out) as fh:
        fh.write(text)
