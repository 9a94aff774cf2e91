"""The JSON format: ``{"rows", "cols", "mines", "cells": [row strings in the text format]}``.

``mines`` may be ``null`` (unknown) for a position. Rows shorter than ``cols``
are padded with blanks, as in the text format. Errors point at the line and
column of the offending value (or character inside a row string).

>>> pos = read_position('{"rows": 1, "cols": 3, "mines": null, "cells": ["1?"]}', "b.json")
>>> pos.to_rows(), pos.mines
(['1? '], None)
>>> read_position('{"rows": 1, "cols": 2, "cells": ["1x"]}', "b.json")
Traceback (most recent call last):
...
minesat.formats.BoardFormatError: b.json:1:36: unknown character 'x' (a position uses ? * F . 0-8)
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

from minesat.board import MAX_SIDE, Layout, Position
from minesat.formats.common import BoardFormatError, too_large
from minesat.formats.text import check_layout_total, position_from_rows
from minesat.words import plural

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "read_layout", "read_position", "write_layout", "write_position"]

_WS = re.compile(r"\s*")
#: More digits than any board count needs; longer numbers are never converted, since
#: Python refuses (or takes quadratic time) to turn thousands of digits into an int.
MAX_DIGITS = 18
#: Nesting beyond this is reported where it starts; a board uses two levels.
MAX_DEPTH = 64


class _TooLong(str):
    """A JSON integer with more than :data:`MAX_DIGITS` digits: not a whole number we accept."""


def _whole_number(text: str) -> int | _TooLong:
    return _TooLong(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _too_deep(content: str) -> int:
    """The offset where nesting first passes :data:`MAX_DEPTH` (brackets in strings skipped)."""
    depth = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', content):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif token in "]}":
            depth -= 1
    return 0


class _Source:
    """A parsed JSON board with the file offsets of its values, for error locations."""

    def __init__(self, content: str, path: str) -> None:
        self.content, self.path = content, path
        try:
            self.data: Any = json.loads(content, parse_int=_whole_number)
        except json.JSONDecodeError as err:
            raise BoardFormatError(path, err.lineno, err.colno, f"bad JSON: {err.msg}") from None
        except RecursionError:
            # json.loads recurses once per nesting level; a board needs two.
            raise self.error(self.at(_too_deep(content)), "bad JSON: nested too deeply") from None
        self.keys: dict[str, int] = {}
        self.rows: list[int] = []
        # json.loads accepted the text, so the scan cannot fail; if it ever did, errors
        # would only point less precisely.
        with contextlib.suppress(ValueError, IndexError):
            self._scan()

    def _skip(self, i: int) -> int:
        return _WS.match(self.content, i).end()  # type: ignore[union-attr]  # \s* always matches

    def _scan(self) -> None:
        """Record where each top-level value, and each string in ``cells``, starts."""
        text, decode = self.content, json.JSONDecoder().raw_decode
        i = self._skip(0)
        if text[i] != "{":
            return
        i = self._skip(i + 1)
        while text[i] != "}":
            key, i = decode(text, i)
            i = self._skip(self._skip(i) + 1)  # past the ':'
            self.keys[key] = i
            if key == "cells" and text[i] == "[":
                self.rows = []
                j = self._skip(i + 1)
                while text[j] != "]":
                    self.rows.append(j)
                    _, j = decode(text, j)
                    j = self._skip(j)
                    if text[j] == ",":
                        j = self._skip(j + 1)
            _, i = decode(text, i)
            i = self._skip(i)
            if text[i] == ",":
                i = self._skip(i + 1)

    def at(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        line = self.content.count("\n", 0, offset) + 1
        return line, offset - self.content.rfind("\n", 0, offset)

    def key_at(self, key: str) -> tuple[int, int]:
        return self.at(self.keys.get(key, 0))

    def cell_at(self, r: int, c: int) -> tuple[int, int]:
        """Where character ``c`` of row string ``r`` is (its opening quote if escapes intervene)."""
        if r >= len(self.rows):
            return self.key_at("cells")
        start = self.rows[r]
        raw = self.content[start + 1 : start + 2 + c]
        return self.at(start if "\\" in raw else start + 1 + c)

    def error(self, where: tuple[int, int], message: str) -> BoardFormatError:
        return BoardFormatError(self.path, *where, message)


def _board(content: str, path: str) -> tuple[_Source, list[str], int | None]:
    """Check the object's shape and return the rows padded to full width."""
    src = _Source(content, path)
    data = src.data
    if not isinstance(data, dict):
        raise src.error((1, 1), 'expected a JSON object {"rows", "cols", "mines", "cells"}')
    for key in ("rows", "cols", "cells"):
        if key not in data:
            raise src.error((1, 1), f"missing key {key!r}")
    size: dict[str, int] = {}
    for key in ("rows", "cols"):
        value = data[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise src.error(src.key_at(key), f"bad value for {key!r}: expected a whole number >= 1")
        if value > MAX_SIDE:
            raise too_large(path, *src.key_at(key), "rows" if key == "rows" else "columns")
        size[key] = value
    mines = data.get("mines")
    if mines is not None and (not isinstance(mines, int) or isinstance(mines, bool)):
        raise src.error(
            src.key_at("mines"), "bad value for 'mines': expected a whole number or null"
        )
    cells = data["cells"]
    if not isinstance(cells, list) or not all(isinstance(row, str) for row in cells):
        raise src.error(src.key_at("cells"), "'cells' must be a list of row strings")
    rows, cols = size["rows"], size["cols"]
    if len(cells) != rows:
        where = src.cell_at(rows, 0) if len(cells) > rows else src.key_at("cells")
        raise src.error(where, f"'cells' has {plural(len(cells), 'row')}, 'rows' says {rows}")
    for r, row in enumerate(cells):
        if len(row) > cols:
            raise src.error(
                src.cell_at(r, cols),
                f"row is {plural(len(row), 'cell')} wide, 'cols' says {cols}: it cannot be padded",
            )
    return src, [row.ljust(cols) for row in cells], mines


def read_position(content: str, path: str) -> Position:
    src, rows, mines = _board(content, path)
    where: Callable[[int, int], tuple[int, int]] = src.cell_at
    return position_from_rows(rows, where, path, mines, src.key_at("mines"))


def read_layout(content: str, path: str) -> Layout:
    src, rows, mines = _board(content, path)
    layout = Layout.from_rows(rows)
    if mines is not None:
        check_layout_total(path, layout, mines, src.key_at("mines"))
    return layout


def _dump(rows: int, cols: int, mines: int | None, cells: list[str]) -> str:
    return json.dumps({"rows": rows, "cols": cols, "mines": mines, "cells": cells}) + "\n"


def write_position(position: Position) -> str:
    return _dump(position.rows, position.cols, position.mines, position.to_rows())


def write_layout(layout: Layout) -> str:
    return _dump(layout.rows, layout.cols, layout.mine_count, layout.to_rows())
