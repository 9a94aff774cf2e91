"""Board files: text (``.txt``/``.dat``), ``.mine``, ``.mbf`` and ``.json`` (docs/boards.md).

Replay files of real games (``.avf``, ``.rmv``, ``.mvf``, ``.evf``) are read by
:func:`read_replay`, and ``.evf`` and ``.rmv`` written by :func:`write_replay`
(see :mod:`minesat.formats.replay`).

Each format is a module with a reader paired with its writer; this package picks
the module from the file's extension (or an explicit ``format``), caps how much
of a file is read, and writes atomically.

>>> pos = parse_position("# mines: 1\\n1?\\n11\\n")
>>> pos.rows, pos.cols, pos.mines
(2, 2, 1)
>>> format_position(pos, "json")
'{"rows": 2, "cols": 2, "mines": 1, "cells": ["1?", "11"]}\\n'
>>> parse_position("1x\\n", path="b.txt")
Traceback (most recent call last):
...
minesat.formats.BoardFormatError: b.txt:1:2: unknown character 'x' (a position uses ? * F . 0-8)

Every problem with a file's content raises :class:`BoardFormatError`, which
names the file, the 1-based line and column, and what is wrong, in one line.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath

from minesat.board import MAX_SIDE, Layout, Position
from minesat.errors import MissingFile

# The replay formats, one module each (each imports .replay for the model): the one place a
# format is listed (its program, its reader, its writer); a new one is registered here.
from minesat.formats import avf, evf, jsonfmt, mbf, mine, mvf, rmv, text
from minesat.formats.common import MAX_BYTES, BoardFormatError, UnsupportedFormatError
from minesat.formats.output import open_atomic, open_text_atomic, write_text_atomically
from minesat.formats.replay import (
    Replay,
    ReplayFormat,
    ReplayFormatError,
    format_replay,
    parse_replay,
    read_replay,
    register_replay_format,
    write_replay,
)

register_replay_format(ReplayFormat("avf", "Minesweeper Arbiter", avf.read))
register_replay_format(ReplayFormat("rmv", "Viennasweeper", rmv.read, rmv.write, clock="release",
                                    mode="normal"))
register_replay_format(ReplayFormat("mvf", "Minesweeper Clone", mvf.read))
register_replay_format(ReplayFormat("evf", "Metasweeper", evf.read, evf.write))

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "MAX_BYTES",
    "BoardFormatError",
    "Replay",
    "ReplayFormatError",
    "UnsupportedFormatError",
    "as_position",
    "format_for",
    "format_layout",
    "format_position",
    "format_replay",
    "open_atomic",
    "open_text_atomic",
    "parse_layout",
    "parse_position",
    "parse_replay",
    "read_layout",
    "read_position",
    "read_replay",
    "write_layout",
    "write_position",
    "write_replay",
    "write_text_atomically",
]

#: Format names accepted by ``format=`` and the CLI's ``--format``/``--from``/``--to``.
FORMATS = ("text", "mine", "mbf", "json")

#: Which format each file extension means (compared case-insensitively).
EXTENSIONS = {".txt": "text", ".dat": "text", ".mine": "mine", ".mbf": "mbf", ".json": "json"}

_MODULES = {"text": text, "mine": mine, "mbf": mbf, "json": jsonfmt}


def format_for(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format name for ``path``: ``format`` when given, else from the extension.

    >>> format_for("puzzles/mines.dat"), format_for("x.MBF"), format_for("x.txt", "json")
    ('text', 'mbf', 'json')
    """
    if format is not None:
        name = format.lower()
        if name == "txt":
            name = "text"
        if name not in FORMATS:
            raise UnsupportedFormatError(
                f"unknown board format {format!r} (use one of {', '.join(FORMATS)})"
            )
        return name
    suffix = (path if isinstance(path, PurePath) else Path(path)).suffix.lower()  # a Path is not parsed again
    if suffix not in EXTENSIONS:
        known = ", ".join(EXTENSIONS)
        raise UnsupportedFormatError(
            f"cannot tell the board format from the extension {suffix or '(none)'!r} "
            f"(use {known}, or name the format)", path=str(path),
        )
    return EXTENSIONS[suffix]


# --- strings and bytes ---------------------------------------------------------


def parse_position(data: str | bytes, path: str = "<string>", format: str = "text") -> Position:
    """Read a position from a file's content (``str``, or ``bytes`` for MBF)."""
    return _MODULES[format_for(path, format)].read_position(_content(data, path, format), path)


def parse_layout(data: str | bytes, path: str = "<string>", format: str = "text") -> Layout:
    """Read a layout from a file's content (``str``, or ``bytes`` for MBF)."""
    return _MODULES[format_for(path, format)].read_layout(_content(data, path, format), path)


def format_position(position: Position, format: str = "text") -> str | bytes:
    """A position as file content; :class:`UnsupportedFormatError` for MBF (layouts only)."""
    return _MODULES[format_for("", format)].write_position(position)


def format_layout(layout: Layout, format: str = "text") -> str | bytes:
    """A layout as file content (``bytes`` for MBF, ``str`` otherwise)."""
    return _MODULES[format_for("", format)].write_layout(layout)


def _content(data: str | bytes, path: str, format: str) -> str | bytes:
    """Hand each reader what it expects: bytes for MBF, checked UTF-8 text for the rest."""
    if format_for(path, format) == "mbf":
        return data.encode() if isinstance(data, str) else data
    return data if isinstance(data, str) else _decode(data, path)


# --- files ---------------------------------------------------------------------


def read_position(path: str | os.PathLike[str], format: str | None = None) -> Position:
    """Read the position in ``path``; ``Position.mines`` is the file's total when it gives one.

    A path that names no file is :class:`~minesat.errors.MissingFile` (an ``InputError``), whatever
    its extension says:

    >>> read_position("no/such/board")
    Traceback (most recent call last):
    minesat.errors.MissingFile: no/such/board: No such file or directory
    """
    name = _format_of_file(path, format)
    return _MODULES[name].read_position(_load(path, name), str(path))


def _format_of_file(path: str | os.PathLike[str], format: str | None) -> str:
    """:func:`format_for`, but a file that is not there is said to be missing, not of a wrong format."""
    try:
        return format_for(path, format)
    except UnsupportedFormatError:
        if format is None and not os.path.lexists(path):
            raise MissingFile(str(path)) from None
        raise


def as_position(position: Position | str | os.PathLike[str], parameter: str = "position") -> Position:
    """A position given as itself or as the path of a board file (read by :func:`read_position`).

    >>> as_position("puzzles/partial.dat").rows
    9
    >>> as_position(3)
    Traceback (most recent call last):
    TypeError: position must be a Position or the path of a board file, not 3
    """
    if isinstance(position, Position):
        return position
    if isinstance(position, str | os.PathLike):
        return read_position(position)
    raise TypeError(f"{parameter} must be a Position or the path of a board file, not {position!r}")


def read_layout(path: str | os.PathLike[str], format: str | None = None) -> Layout:
    """Read the layout (mine positions) in ``path``."""
    name = _format_of_file(path, format)
    return _MODULES[name].read_layout(_load(path, name), str(path))


def write_position(
    position: Position, path: str | os.PathLike[str], format: str | None = None
) -> None:
    """Write ``position`` to ``path`` atomically (MBF raises :class:`UnsupportedFormatError`)."""
    write_text_atomically(path, _MODULES[format_for(path, format)].write_position(position))


def write_layout(layout: Layout, path: str | os.PathLike[str], format: str | None = None) -> None:
    """Write ``layout`` to ``path`` atomically."""
    write_text_atomically(path, _MODULES[format_for(path, format)].write_layout(layout))


#: Bytes :func:`_load` reads first: a 250x250 text board, and more than most files hold.
_FIRST_READ = 64 * 1024


def _load(path: str | os.PathLike[str], format: str) -> str | bytes:
    """Read at most :data:`MAX_BYTES` (+1 to notice more): a hostile file is refused unread."""
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below; a missing file is said in minesat's words
    except FileNotFoundError:
        raise MissingFile(str(path)) from None
    with f:
        # A first read of a size a board file has, then the rest: read(MAX_BYTES + 1) at once
        # would allocate its megabyte for every file (50 microseconds for a 500-byte board).
        data = f.read(_FIRST_READ)
        if len(data) == _FIRST_READ:
            data += f.read(MAX_BYTES + 1 - _FIRST_READ)
    if len(data) > MAX_BYTES:
        line = data.count(b"\n", 0, MAX_BYTES) + 1
        column = MAX_BYTES - data.rfind(b"\n", 0, MAX_BYTES)
        raise BoardFormatError(
            str(path),
            line,
            column,
            f"file too large: more than {MAX_BYTES} bytes (boards are at most "
            f"{MAX_SIDE}x{MAX_SIDE})",
        )
    return data if format == "mbf" else _decode(data, str(path))


def _decode(data: bytes, path: str) -> str:
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - data.rfind(b"\n", 0, err.start)
        raise BoardFormatError(
            path, line, column, f"not UTF-8 text (byte 0x{data[err.start]:02x})"
        ) from None
    return content.removeprefix("\ufeff")  # a byte-order mark some editors add

