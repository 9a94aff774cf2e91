"""Board sets (docs/boardsets.md): JSON Lines, one layout per line.

Each line is an object ``{"rows": R, "cols": C, "mines": [[r, c], ...]}`` with
0-based cells; other keys (``"game"``, ``"seed"``, ...) are allowed and ignored
by the reader. Files are read a line at a time, so a set of a million boards
never sits in memory whole.

>>> from minesat.board import Layout
>>> line = format_board(Layout(2, 3, frozenset({(1, 2), (0, 0)})), game=0)
>>> line
'{"game":0,"rows":2,"cols":3,"mines":[[0,0],[1,2]]}\\n'
>>> sorted(parse_board(line, "set.jsonl", 1).mines)
[(0, 0), (1, 2)]
>>> parse_board('{"rows": 2, "cols": 3, "mines": [[0, 0], [2, 0]]}', "set.jsonl", 7)
Traceback (most recent call last):
...
minesat.formats.BoardFormatError: set.jsonl:7:42: mine [2, 0] is off the 2x3 board

Every problem names the file, the 1-based line and column, and what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from minesat.board import MAX_SIDE, Cell, Layout
from minesat.errors import MinesatError
from minesat.formats.common import MAX_BYTES, BoardFormatError, too_large
from minesat.words import plural

__all__ = [
    "BoardSetInfo",
    "format_board",
    "iter_boardset",
    "parse_board",
    "read_boardset",
    "scan_boardset",
    "write_boardset",
]

#: Longest line read: one board of the largest size (every cell a mine) fits with room to spare.
MAX_LINE = MAX_BYTES * 8

_WS = re.compile(r"\s*")  # matches everywhere (maybe nothing): its ``.match`` is never None


# --- one line ----------------------------------------------------------------------


def format_board(layout: Layout, **extra: object) -> str:
    """One board-set line for ``layout``; ``extra`` keys come first (``game``, ``seed``, ...).

    Mines are written row-major, so the same layout always gives the same line.
    """
    record: dict[str, object] = {**extra, "rows": layout.rows, "cols": layout.cols}
    record["mines"] = [list(cell) for cell in sorted(layout.mines)]
    return json.dumps(record, separators=(",", ":")) + "\n"


def parse_board(text: str, path: str, line: int) -> Layout:
    """The layout on one line of a board set (``line`` is 1-based, for error messages)."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as err:
        # One line, so the error's column is the column in the file.
        raise BoardFormatError(path, line, err.colno, f"bad JSON: {err.msg}") from None
    except RecursionError:
        raise BoardFormatError(path, line, 1, "bad JSON: nested too deeply") from None

    def error(where: int, message: str) -> BoardFormatError:
        return BoardFormatError(path, line, where + 1, message)

    if not isinstance(data, dict):
        raise error(_WS.match(text).end(), 'expected a JSON object {"rows", "cols", "mines"}')  # type: ignore[union-attr]
    for key in ("rows", "cols", "mines"):
        if key not in data:
            raise error(0, f"missing key {key!r}")
    size: dict[str, int] = {}
    for key in ("rows", "cols"):
        value = data[key]
        if not _whole(value) or value < 1:
            raise error(_value_at(text, key), f"bad value for {key!r}: expected a whole number >= 1")
        if value > MAX_SIDE:
            raise too_large(path, line, _value_at(text, key) + 1, "rows" if key == "rows" else "columns")
        size[key] = value
    rows, cols = size["rows"], size["cols"]
    mines = data["mines"]
    if not isinstance(mines, list):
        raise error(_value_at(text, "mines"), "'mines' must be a list of [row, col] pairs")
    cells: set[Cell] = set()
    for i, mine in enumerate(mines):
        if not (isinstance(mine, list) and len(mine) == 2 and all(_whole(v) for v in mine)):
            raise error(
                _element_at(text, "mines", i), f"mine {i + 1} is not a [row, col] pair of whole numbers"
            )
        cell = (mine[0], mine[1])
        if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
            raise error(_element_at(text, "mines", i), f"mine {mine} is off the {rows}x{cols} board")
        if cell in cells:
            raise error(_element_at(text, "mines", i), f"mine {mine} is listed twice")
        cells.add(cell)
    return Layout(rows, cols, frozenset(cells))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _value_at(text: str, key: str) -> int:
    """Offset of the value of top-level ``key`` in a line json.loads accepted (0 if not found)."""
    decode = json.JSONDecoder().raw_decode
    try:
        i = _WS.match(text).end() + 1  # type: ignore[union-attr]  # past the '{'
        while True:
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            name, i = decode(text, i)
            i = _WS.match(text, _WS.match(text, i).end() + 1).end()  # type: ignore[union-attr]
            if name == key:
                found = i
            _, i = decode(text, i)
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i] != ",":
                break
            i += 1
        return found
    except (ValueError, IndexError, UnboundLocalError):
        return 0


def _element_at(text: str, key: str, index: int) -> int:
    """Offset of element ``index`` of the list under top-level ``key``."""
    decode = json.JSONDecoder().raw_decode
    start = _value_at(text, key)
    try:
        i = _WS.match(text, start + 1).end()  # type: ignore[union-attr]
        for _ in range(index):
            _, i = decode(text, i)
            i = _WS.match(text, _WS.match(text, i).end() + 1).end()  # type: ignore[union-attr]
        return i
    except (ValueError, IndexError):
        return start


# --- files -------------------------------------------------------------------------


def _lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes]]:
    """Raw lines with their 1-based numbers, each read on its own: memory stays flat."""
    with open(path, "rb") as f:
        number = 0
        while raw := f.readline(MAX_LINE + 1):
            number += 1
            if len(raw) > MAX_LINE:
                raise BoardFormatError(str(path), number, MAX_LINE + 1, f"line longer than {MAX_LINE} bytes")
            yield number, raw


def _decode(raw: bytes, path: str, line: int) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        bad = f"not UTF-8 text (byte 0x{raw[err.start]:02x})"
        raise BoardFormatError(path, line, err.start + 1, bad) from None
    if line == 1:
        text = text.removeprefix("\ufeff")
    if not text.strip():
        raise BoardFormatError(path, line, 1, "empty line (a board set has one layout on every line)")
    return text


def iter_boardset(path: str | os.PathLike[str]) -> Iterator[tuple[int, Layout]]:
    """``(line number, layout)`` for every line of the board set in ``path``, streamed."""
    name = str(path)
    for number, raw in _lines(path):
        yield number, parse_board(_decode(raw, name, number), name, number)


def read_boardset(path: str | os.PathLike[str]) -> Iterator[Layout]:
    """The layouts of the board set in ``path``, in order, one at a time."""
    return (layout for _, layout in iter_boardset(path))


def write_boardset(layouts: Iterable[Layout], out: IO[str]) -> int:
    """Write ``layouts`` to the text stream ``out``, each with its ``"game"`` index; returns the count."""
    count = 0
    for count, layout in enumerate(layouts, 1):
        out.write(format_board(layout, game=count - 1))
    return count


@dataclass(frozen=True)
class BoardSetInfo:
    """What one pass over a board set learns: its identity, length and board size.

    ``digest`` is the hex SHA-256 of the file's bytes: two files with the same
    digest are the same set, whatever their names.
    """

    digest: str
    count: int
    rows: int
    cols: int
    mines: int


def scan_boardset(path: str | os.PathLike[str], check: Any = None) -> BoardSetInfo:
    """Check every line of a board set, streamed, and return its :class:`BoardSetInfo`.

    All boards must share one size and mine count (a run has one board size).
    ``check(layout)``, when given, is called on every layout; a
    :class:`ValueError` it raises is reported at that line.
    """
    name = str(path)
    digest = hashlib.sha256()
    size: tuple[int, int, int] | None = None
    count = 0
    for number, raw in _lines(path):
        digest.update(raw)
        layout = parse_board(_decode(raw, name, number), name, number)
        this = (layout.rows, layout.cols, layout.mine_count)
        if size is None:
            size = this
        elif this != size:
            raise BoardFormatError(
                name,
                number,
                1,
                f"board is {this[0]}x{this[1]} with {plural(this[2], 'mine')}, but line 1 is "
                f"{size[0]}x{size[1]} with {plural(size[2], 'mine')}: a board set has one size",
            )
        if check is not None:
            try:
                check(layout)
            except ValueError as err:  # what ``check`` refuses (said in each face's words, as it says it)
                said = err.message if isinstance(err, MinesatError) else str(err)
                refused = BoardFormatError(name, number, 1, said)
                if isinstance(err, MinesatError):
                    refused.templated, refused.advice = err.templated, err.advice
                raise refused from None
        count = number
    if size is None:
        raise BoardFormatError(name, 1, 1, "empty board set: no layout in the file")
    return BoardSetInfo(digest.hexdigest(), count, *size)
