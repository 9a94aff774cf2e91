"""The values the analysis engine returns, and how they are built.

>>> position = Position.from_rows(["1?"], mines=1)
>>> build_analysis(position, 1, set(), {(0, 1)}, {(0, 1): 1.0}, components=1, exact=True).to_json()["moves"]
['A2*']
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, compress
from json.encoder import encode_basestring_ascii as _json_string  # what json.dumps uses
from typing import Any

from minesat.board import COVERED, FLAG, Action, Cell, Move, Position, cell_name, row_name
from minesat.errors import InvalidValue, MinesatError
from minesat.words import plural

__all__ = ["Analysis", "Glance", "InconsistentPositionError", "build_analysis", "total_of"]


class InconsistentPositionError(MinesatError, ValueError):
    """No layout satisfies the position; ``cell`` is a number that cannot be met, ``reason`` why.

    >>> err = InconsistentPositionError((0, 1), "needs 2 mines, has 1 place")
    >>> str(err), err.cell
    ('A2: needs 2 mines, has 1 place', (0, 1))
    """

    def __init__(self, cell: Cell, message: str) -> None:
        super().__init__(f"{cell_name(cell)}: {message}")
        self.cell, self.reason = cell, message

    def __reduce__(self) -> tuple[Any, ...]:
        return InconsistentPositionError, (self.cell, self.reason)


@dataclass(frozen=True)
class Analysis:
    """The classification of every covered, unflagged cell of a position (docs/commands/analyze.md).

    ``probability[r][c]`` is ``None`` for uncovered cells, ``1.0`` for flags, and the
    exact mine probability otherwise (``None`` for uncertain cells when the total
    mine count is unknown). ``exact`` is false when the probabilities are
    estimates (a component was too large to count exactly, or the components
    too many to combine exactly within the engine's work budget), or when the
    solver that then decides the certain cells ran out of that budget. The
    safe and mine cells listed are always certain; they are all of them unless
    the solver ran out (only on hostile positions of thousands of cells that
    no count takes; a component too big for a single solver call is then not
    even checked for a layout).
    """

    rows: int
    cols: int
    mines: int | None
    safe: tuple[Cell, ...]
    mine: tuple[Cell, ...]
    unknown: tuple[Cell, ...]
    probability: tuple[tuple[float | None, ...], ...]
    components: int
    exact: bool = True
    #: Why the probabilities are estimates (or the certainties perhaps incomplete), when ``exact`` is false.
    why: str | None = None
    #: Whether some layout fits the position: True once that is settled (always, when ``exact``);
    #: ``None`` when a budget ran out first (docs/commands/analyze.md). A position no layout fits
    #: raises instead.
    consistent: bool | None = True
    #: The number of layouts consistent with the position and the total, when it
    #: is counted exactly (total known, every component counted); else ``None``.
    #: A look-ahead uses ratios of it: P(a cell is safe and shows n) is
    #: layouts(position with that n) / layouts(position).
    layouts: int | None = None
    #: The position analysed, when the engine made this value (for pictures; not compared).
    position: Position | None = field(default=None, compare=False, repr=False)
    #: The budget stop that cut the exact analysis short (an :class:`~minesat.errors.OverBudget`
    #: with what was spent and the limit, or the system's :class:`MemoryError`), when one did;
    #: ``why`` says it in words. Not compared: the same answer may come with or without one.
    stop: BaseException | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        """A line: the board, its total, and how many cells are safe, mined and uncertain."""
        total = "" if self.mines is None else f", {plural(self.mines, 'mine')}"
        exact = "exact" if self.exact else "estimated"
        return (
            f"Analysis({self.rows}x{self.cols}{total}: {len(self.safe)} safe, "
            f"{plural(len(self.mine), 'mine')}, {len(self.unknown)} uncertain, {exact})"
        )

    def records(self) -> list[dict[str, Any]]:
        """One row per covered, unflagged cell, row-major, for a table (``pandas.DataFrame(...)``).

        Each row has the cell's ``cell`` name, ``row`` and ``col`` (0-based), its ``state``
        (``"safe"``, ``"mine"`` or ``"unknown"``) and its mine ``probability`` (``None`` for an
        uncertain cell when the total is unknown).

        >>> analysis = build_analysis(Position.from_rows(["1?", "??"], mines=1), 1, {(1, 1)}, set(),
        ...                           {(0, 1): 0.5, (1, 0): 0.5, (1, 1): 0.0}, components=1, exact=True)
        >>> analysis.records()[0]
        {'cell': 'A2', 'row': 0, 'col': 1, 'state': 'unknown', 'probability': 0.5}
        """
        states = {**dict.fromkeys(self.unknown, "unknown"), **dict.fromkeys(self.safe, "safe"),
                  **dict.fromkeys(self.mine, "mine")}
        return [
            {"cell": cell_name(cell), "row": cell[0], "col": cell[1], "state": states[cell],
             "probability": self.probability[cell[0]][cell[1]]}
            for cell in sorted(states)
        ]

    def moves(self) -> list[Move]:
        """One uncover per safe cell, then one flag per certain mine, row-major."""
        return [Move(c) for c in self.safe] + [Move(c, Action.FLAG) for c in self.mine]

    def to_json_head(self) -> dict[str, Any]:
        """The first keys of :meth:`to_json`, before the lists of cells."""
        return {"rows": self.rows, "cols": self.cols, "mines": self.mines}

    def to_json(self) -> dict[str, Any]:
        """The object ``minesat analyze --json`` prints (docs/commands/analyze.md), with ``exact``,
        ``consistent`` and (when not exact) ``why``. (:func:`json_chunks` writes its text faster on
        big boards.)"""
        extra: dict[str, Any] = {} if self.exact else {"why": self.why}
        return {
            **self.to_json_head(),
            "safe": [list(c) for c in self.safe],
            "mine": [list(c) for c in self.mine],
            "unknown": [list(c) for c in self.unknown],
            "probability": [list(row) for row in self.probability],
            "moves": [str(m) for m in self.moves()],
            "components": self.components,
            "exact": self.exact,
            "consistent": self.consistent,
            **extra,
        }


#: Most distinct probability objects :func:`json_chunks` remembers the text of.
CACHED = 100_000

#: About how many characters of probabilities :func:`json_chunks` gathers before it hands them on.
CHUNK = 1 << 16


def json_chunks(analysis: Analysis, head: dict[str, Any] | None = None) -> Iterator[str]:
    """The text of ``json.dumps({**head, **analysis.to_json()})``, in pieces, built without the
    million small lists and strings ``to_json`` makes on a big board: each distinct
    probability object is written once, and the pieces go out about :data:`CHUNK` characters
    at a time (one piece for a small board).

    >>> a = build_analysis(Position.from_rows(["1?"], mines=1), 1, set(), {(0, 1)}, {(0, 1): 1.0}, 1, True)
    >>> "".join(json_chunks(a, {"file": "p.txt"})) == json.dumps({"file": "p.txt", **a.to_json()})
    True
    """
    pieces = ["{" + _json_members({**(head or {}), **analysis.to_json_head()})]  # the lists follow
    size = 0
    names = [row_name(r) for r in range(analysis.rows)]
    # A cell's text, made once per cell of a board of this width (files of one size share them).
    texts = _cell_texts(analysis.cols)
    get = texts.get
    for key, cells in (("safe", analysis.safe), ("mine", analysis.mine), ("unknown", analysis.unknown)):
        try:  # every cell's text made before (files of one size soon have them all): looked up in C
            listed = ", ".join(map(texts.__getitem__, cells))
        except KeyError:
            listed = ", ".join([get(cell) or _cell_text(texts, *cell) for cell in cells])
        pieces.append(f', "{key}": [{listed}]')
    pieces.append(', "probability": [')
    # The text of each probability object seen so far (json.dumps writes a float as its repr):
    # the rows of a game's position share a few dozen objects; estimates are all distinct,
    # and past CACHED objects they are written as they come.
    text = {id(None): "null"}
    for r, row in enumerate(analysis.probability):
        try:
            line = ", ".join(map(text.__getitem__, map(id, row)))
        except KeyError:
            if len(text) < CACHED:
                for p in row:  # new objects, kept alive by the row while their id is a key
                    if id(p) not in text:
                        text[id(p)] = _json_number(p)
                line = ", ".join(map(text.__getitem__, map(id, row)))
            else:
                line = ", ".join(map(_json_number, row))
        pieces.append(("[" if not r else ", [") + line + "]")
        size += len(line)
        if size > CHUNK:
            yield "".join(pieces)
            pieces, size = [], 0
    moves = [f'"{names[r]}{c + 1}"' for r, c in analysis.safe]
    moves += [f'"{names[r]}{c + 1}{Action.FLAG.value}"' for r, c in analysis.mine]
    pieces.append('], "moves": [' + ", ".join(moves) + "]")
    tail: dict[str, object] = {
        "components": analysis.components, "exact": analysis.exact, "consistent": analysis.consistent
    }
    if not analysis.exact:
        tail["why"] = analysis.why
    pieces.append(", " + _json_members(tail) + "}")
    yield "".join(pieces)


def _json_members(members: dict[str, Any]) -> str:
    """``json.dumps(members)`` without its braces, faster for the head and tail of a line: keys,
    strings, whole numbers, booleans and ``None`` written as json writes them (its own C string
    encoder), anything else by json itself.

    >>> _json_members({"file": "p.txt", "rows": 16, "mines": None, "exact": True, "p": 0.5})
    '"file": "p.txt", "rows": 16, "mines": null, "exact": true, "p": 0.5'
    """
    return ", ".join([f"{_json_string(key)}: {_json_scalar(value)}" for key, value in members.items()])


def _json_scalar(value: object) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):  # as json writes any int (a bool was written above)
        return int.__repr__(value)
    if isinstance(value, str):
        return _json_string(value)
    return json.dumps(value)


@lru_cache(maxsize=4)
def _cell_texts(cols: int) -> dict[Cell, str]:
    """``[r, c]`` of the cells of a board ``cols`` wide seen so far (:func:`_cell_text`)."""
    return {}


def _cell_text(texts: dict[Cell, str], r: int, c: int) -> str:
    """The JSON of cell ``(r, c)``, ``[r, c]``, kept in ``texts`` (at most :data:`CACHED` of them).

    >>> _cell_text({}, 3, 14)
    '[3, 14]'
    """
    text = texts.get((r, c))
    if text is None:
        text = f"[{r}, {c}]"
        if len(texts) < CACHED:
            texts[r, c] = text
    return text


def _json_number(p: float | None) -> str:
    """``json.dumps(p)``, faster: a float is written as its ``float.__repr__`` (as json does)."""
    return float.__repr__(p) if isinstance(p, float) else json.dumps(p)


@dataclass(frozen=True)
class Glance:
    """What a look-ahead reads of a position (:func:`~minesat.analysis.glance.glance`): its layouts
    (``None`` when not counted exactly), how many cells it proves safe, and the lowest mine
    probabilities of the others."""

    layouts: int | None
    safe: int
    lowest: tuple[float, ...]


def total_of(position: Position, mines: int | None) -> int | None:
    """The total to analyse with (``mines`` overrides the position's); a negative one is refused.

    >>> total_of(Position.from_rows(["1?"], mines=1), -3)
    Traceback (most recent call last):
    minesat.errors.InvalidValue: the total number of mines must be >= 0, not -3
    """
    total = mines if mines is not None else position.mines
    if total is not None and total < 0:
        raise InvalidValue(f"the total number of mines must be >= 0, not {total}")
    return total


#: What an uncovered cell reads in a probability grid: 1.0 flagged, None for a number.
_SHOWN: dict[int, float | None] = {FLAG: 1.0}

#: Boards up to this many cells keep their cells' tuples (:func:`_flat_cells`).
_CACHED_CELLS = 10_000


#: A cell's byte (two's complement) to 1 when it is covered, else 0.
_COVERED_ONES = bytes(int(b == COVERED & 0xFF) for b in range(256))


@lru_cache(maxsize=4)
def _packer(cells: int) -> struct.Struct:
    """Packs ``cells`` states into as many signed bytes."""
    return struct.Struct(f"{cells}b")


@lru_cache(maxsize=4)
def _flat_cells(rows: int, cols: int) -> tuple[Cell, ...]:
    """Every cell of a small board, row-major: made once, not a tuple a cell an analysis."""
    return tuple((r, c) for r in range(rows) for c in range(cols))


def build_analysis(
    position: Position,
    total: int | None,
    safe: set[Cell],
    mine: set[Cell],
    probability: dict[Cell, float | None],
    components: int,
    exact: bool,
    layouts: int | None = None,
    otherwise: float | None = None,
    why: str | None = None,
    consistent: bool | None = True,
) -> Analysis:
    """The Analysis value; covered cells missing from ``probability`` read ``otherwise``."""
    rows, cols, cells = position.rows, position.cols, position.cells
    shown = _SHOWN.get  # an uncovered cell's probability: 1.0 for a flag, None for a number
    # The grid flat, every cell as a list comprehension reads it (a covered one ``otherwise``),
    # then the cells ``probability`` names: most covered cells of a game are interior cells,
    # which all read ``otherwise``, so a per-cell lookup would be wasted on them.
    flat = [otherwise if state == COVERED else shown(state) for state in cells]
    for (r, c), p in probability.items():
        at = r * cols + c
        if cells[at] == COVERED:
            flat[at] = p
    grid = [tuple(flat[base : base + cols]) for base in range(0, rows * cols, cols)]
    return Analysis(
        rows=rows,
        cols=cols,
        mines=total,
        safe=tuple(sorted(safe)),
        mine=tuple(sorted(mine)),
        unknown=tuple(_undecided(cells, rows, cols, safe, mine)),
        probability=tuple(grid),
        components=components,
        exact=exact,
        why=None if exact else why,
        consistent=consistent,
        layouts=layouts,
        position=position,
    )


def _undecided(cells: tuple[int, ...], rows: int, cols: int, safe: set[Cell], mine: set[Cell]) -> list[Cell]:
    """The covered cells neither in ``safe`` nor in ``mine``, row-major.

    >>> _undecided((-1, 2, -1, -1), 2, 2, {(1, 0)}, set())
    [(0, 0), (1, 1)]
    """
    if len(cells) <= _CACHED_CELLS:
        try:
            # A byte a cell, 1 where it is covered: found by a C-level translation, the few
            # decided cells struck out, and the cells picked in C (a set lookup a covered
            # cell, the plain way, cost half the whole analysis's grid).
            undecided = bytearray(_packer(len(cells)).pack(*cells).translate(_COVERED_ONES))
        except struct.error:  # a state past a byte, which the analysis read as shown
            pass
        else:
            for r, c in chain(safe, mine):
                undecided[r * cols + c] = 0
            return list(compress(_flat_cells(rows, cols), undecided))
    decided = safe | mine
    return [cell for at, state in enumerate(cells)
            if state == COVERED and (cell := divmod(at, cols)) not in decided]
