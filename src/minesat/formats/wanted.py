"""The board a caller wants, read from a file or from bytes: a position or a layout, every failure one line.

The CLI's commands and the web app both read boards this way: a layout where
a position is wanted (or the other way round) is refused with a message that
says what the file is, and every problem is an :class:`InputError` whose
error keeps the file, and the line, column and cell where they apply, as fields
(``name:LINE:COL: ...`` when said).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from minesat.board import COVERED, FLAG, Layout, Position
from minesat.errors import InputError, MinesatError, MissingFile, one_line
from minesat.formats import (
    MAX_BYTES,
    UnsupportedFormatError,
    format_for,
    parse_layout,
    parse_position,
    read_layout,
    read_position,
)

__all__ = ["KIND", "board_from_content", "read_board"]


#: What each kind of board is, for messages that say which one a command wants.
KIND = {
    "position": "a position (what a player sees: '?' covered cells, numbers, '*' flags)",
    "layout": "a layout (where the mines are: '*' mines)",
}


def read_board(
    path: Path,
    format: str | None,
    want: Literal["position", "layout"],
    command: str,
    check_kind: bool = True,
) -> Position | Layout:
    """Read the board a command wants, or raise :class:`InputError` with one line.

    ``-`` reads standard input (text format unless ``format`` says otherwise).
    A layout where a position is wanted (an MBF file, or a text board with no
    covered cell), or a position where a layout is wanted (a board with covered
    cells), is refused with a message that says what the file is; ``check_kind``
    false skips that (``show`` and ``convert`` take either).
    """
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise InputError(f"more than {MAX_BYTES} bytes: too large for a board", path="<stdin>")
        return board_from_content(data, "<stdin>", format or "text", want, command, check_kind)
    try:
        # One stat for a file that is there (Path.is_dir and lexists would be two): a directory
        # is refused, and a path that names nothing is said to be missing, not blamed on its
        # extension (lexists: a dangling link is there, and fails when opened).
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except (OSError, ValueError):  # as Path.is_dir: not there, not reachable, not a path
            is_dir = False
            if not os.path.lexists(path):
                raise MissingFile(name) from None
        if is_dir:
            raise InputError("is a directory, not a board file", path=name)
        fmt = format_for(path, format)
        read_p = lambda: read_position(path, fmt)  # noqa: E731
        read_l = lambda: read_layout(path, fmt)  # noqa: E731
        return _of_kind(name, fmt, read_p, read_l, want, command, check_kind)
    except InputError:
        raise
    except UnsupportedFormatError as err:  # the format named, or the file's extension
        raise InputError(err.message, path=name) from None
    except (ValueError, RecursionError) as err:  # what a reader let through: still one line, the file first
        raise _named(name, err) from None
    except OSError as err:
        raise InputError(err.strerror or str(err), path=name) from None


def board_from_content(
    data: str | bytes,
    name: str,
    format: str,
    want: Literal["position", "layout"],
    command: str,
    check_kind: bool = True,
) -> Position | Layout:
    """:func:`read_board` for a file's content already in memory (standard input, an upload).

    ``name`` stands for the file in messages (``name:LINE:COL: ...``).

    >>> board_from_content("1?\\n", "board", "text", "position", "analyze").to_rows()
    ['1?']
    >>> board_from_content("1x\\n", "board", "text", "position", "analyze")
    Traceback (most recent call last):
    ...
    minesat.formats.BoardFormatError: board:1:2: unknown character 'x' (a position uses ? * F . 0-8)
    """
    try:
        fmt = format_for(name, format)
        read_p = lambda: parse_position(data, name, fmt)  # noqa: E731
        read_l = lambda: parse_layout(data, name, fmt)  # noqa: E731
        return _of_kind(name, fmt, read_p, read_l, want, command, check_kind)
    except InputError:
        raise
    except UnsupportedFormatError as err:  # the format named, or the file's extension
        raise InputError(err.message, path=name) from None
    except (ValueError, RecursionError) as err:  # what a reader let through: still one line, the file first
        raise _named(name, err) from None


def _named(name: str, err: ValueError | RecursionError) -> InputError:
    """An error reading ``name`` that names no file (a board too large, say) as an :class:`InputError`."""
    return InputError(one_line(str(err)) or type(err).__name__, path=name)


def _of_kind(
    name: str,
    fmt: str,
    read_p: Callable[[], Position],
    read_l: Callable[[], Layout],
    want: Literal["position", "layout"],
    command: str,
    check_kind: bool,
) -> Position | Layout:
    """The board read the way ``want`` says, refusing a layout for a position and the other way round."""
    if not check_kind:
        return read_p() if want == "position" else read_l()
    if want == "position":
        if fmt == "mbf":
            raise InputError(f"an MBF file is {KIND['layout']}; {command} wants {KIND['position']}",
                             path=name)
        position = read_p()
        if COVERED not in position.cells and not _shows_play(position, read_l):
            raise InputError(
                f"only mines and blank cells, so this is {KIND['layout']}; "
                f"{command} wants {KIND['position']}",
                path=name,
            )
        return position
    if fmt in ("text", "json"):
        # Layout characters are '*' and anything else, so a position reads as a layout
        # without error: its covered cells would silently count as mine-free.
        try:
            as_position = read_p()
        except MinesatError:
            as_position = None
        if as_position is not None and COVERED in as_position.cells:
            raise InputError(
                f"covered cells ('?'), so this is {KIND['position']}; {command} wants {KIND['layout']}",
                path=name,
            )
    return read_l()


def _shows_play(position: Position, read_layout: Callable[[], Layout]) -> bool:
    """Whether a board with no covered cell is a finished position rather than a layout.

    A number (1-8) or a flag written ``F`` is something only a player sees: such a
    file is a finished game, analysed like any position. A file of mines (``*``)
    and blank cells alone is a layout. ``F`` shows where the layout reading of
    the same file finds no mine on a flagged cell.
    """
    if any(state > 0 for state in position.cells):
        return True
    try:
        mines = read_layout().mines
    except MinesatError:
        return True  # not a layout at all
    return set(position.cells_in(FLAG)) != mines
