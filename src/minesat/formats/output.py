"""Where a file minesat writes lands, and how it lands there whole (docs/README.md, "Files minesat writes").

One writer for every output, :func:`open_atomic`:

- a regular file (or a path where nothing is yet) appears whole or not at all: it is written to
  a temporary file beside it and renamed over it at the end; on any error or signal the
  temporary file is removed and the path is left as it was;
- a symbolic link is followed: the file it names is the one replaced (whole, as above), and the
  link stays a link;
- a path that is not a regular file, a FIFO, a device (``/dev/null``), ``/dev/stdout``, a process
  substitution (``/dev/fd/63``), is written in place: renaming a file over it would destroy it
  and leave its readers waiting.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> with open_atomic(os.path.join(folder, "a.txt")) as f:
...     _ = f.write(b"whole")
>>> os.symlink("a.txt", os.path.join(folder, "link.txt"))
>>> with open_text_atomic(os.path.join(folder, "link.txt")) as f:
...     _ = f.write("through the link")
>>> open(os.path.join(folder, "a.txt")).read(), os.path.islink(os.path.join(folder, "link.txt"))
('through the link', True)
>>> sorted(os.listdir(folder))
['a.txt', 'link.txt']
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple, TextIO

__all__ = ["OutputTarget", "open_atomic", "open_text_atomic", "output_target", "write_text_atomically"]

#: Folders whose entries are links to files a process has open (``/dev/stdout`` leads there):
#: the file behind one is the process's own, written in place like a pipe, never replaced.
_OPEN_FILES = ("/proc/", "/dev/fd/")

#: Links followed at most, as the system does (``ELOOP`` past it).
_MAX_LINKS = 40


class OutputTarget(NamedTuple):
    """Where :func:`open_atomic` writes a path: ``real``, the file at the end of its links, and
    ``in_place``, true for a path that is no regular file (written where it is, never replaced).

    >>> output_target("/dev/null")
    OutputTarget(real=PosixPath('/dev/null'), in_place=True)
    """

    real: Path
    in_place: bool


def output_target(path: str | os.PathLike[str]) -> OutputTarget:
    """Follow the links at the end of ``path`` to the file they name, and say whether it is
    written in place (see the module's help). Folders on the way are left as they are: the
    temporary file goes beside the real file, wherever the path to it runs."""
    name = os.fspath(path)
    in_place = _open_file(name)
    for _ in range(_MAX_LINKS):
        if not os.path.islink(name):
            break
        # A relative link is relative to the folder the link is in.
        name = os.path.join(os.path.dirname(name), os.readlink(name))
        in_place = in_place or _open_file(name)
    else:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), os.fspath(path))
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        mode = None
    except OSError:  # a link into /proc that names no path (a pipe): the open file decides
        mode = None if not in_place else stat.S_IFIFO
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        in_place = True  # a FIFO, a device, a socket
    return OutputTarget(Path(name), in_place)


def _open_file(name: str) -> bool:
    return os.path.abspath(name).startswith(_OPEN_FILES)


@contextlib.contextmanager
def open_atomic(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file that appears at ``path`` whole when the block ends, or not at all.

    Written through a temporary file beside the real file (a link followed) and renamed over
    it; on an error, an interrupt or a signal the temporary file is removed and the file is
    untouched. A file replaced keeps its permissions; a new one gets those a plain ``open()``
    gives. A path that is no regular file is written in place (the module's help). Missing
    folders on the way to the file are made first, as every command that writes a file does.
    """
    target = output_target(path)
    if target.in_place:
        # The path as given: a link into /proc is the process's open file. Appended to: a file
        # behind it is the one the shell opened for the command (``>> log``), never cut short.
        with open(path, "ab") as f:
            yield f
        return
    real = target.real
    real.parent.mkdir(parents=True, exist_ok=True)
    try:
        keep = stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        keep = None
    made: list[str] = []  # the temporary file's name, known before the file is
    fd = -1
    try:
        fd = _create_temporary(real, made)
        if keep is not None:
            os.fchmod(fd, keep)
        f = os.fdopen(fd, "wb")
        fd = -1  # the file object owns it now
        with f:
            yield f
        os.replace(made[0], real)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        for name in made:
            Path(name).unlink(missing_ok=True)
        raise


def _create_temporary(real: Path, made: list[str]) -> int:
    """Make ``.NAME.RANDOM.tmp`` beside ``real`` and open it; its name is put in ``made`` before
    the file is made, so that a signal that comes meanwhile leaves nothing the caller cannot
    remove (the name is too unlikely to be another's)."""
    import secrets  # here: it imports hashlib and hmac, which reading a board never needs

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        made[:] = [str(real.parent / f".{real.name}.{secrets.token_hex(4)}.tmp")]
        try:
            return os.open(made[0], flags, 0o666)  # the umask applies, as for open()
        except FileExistsError:
            made.clear()
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(real.parent))


@contextlib.contextmanager
def open_text_atomic(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """:func:`open_atomic` as UTF-8 text, lines ended as written (``newline=""``: the csv module
    writes its own)."""
    with open_atomic(path) as raw:
        stream = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        yield stream
        stream.flush()
        stream.detach()  # open_atomic closes the file itself


def write_text_atomically(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes as they are) to ``path`` by :func:`open_atomic`."""
    with open_atomic(path) as f:
        f.write(content.encode() if isinstance(content, str) else content)
