"""Replay files (videos) of real games: the data model, and the reader chosen by extension.

Four formats are read, each by its own module: ``.avf`` (Minesweeper Arbiter,
:mod:`minesat.formats.avf`), ``.rmv`` (Viennasweeper, :mod:`~minesat.formats.rmv`),
``.mvf`` (Minesweeper Clone, :mod:`~minesat.formats.mvf`) and ``.evf``
(Metasweeper, :mod:`~minesat.formats.evf`). Every reader gives a :class:`Replay`:
the board as the file stores it, the player's mouse events in file order, and
what the file says about the game (time, completed) and the player.

The readers keep the events as the file has them; turning them into moves
(uncover, flag, chord) is :mod:`minesat.replay`'s job.

>>> replay = parse_replay(_tiny_rmv(), "rmv", "tiny.rmv")
>>> replay.rows, replay.cols, replay.mines, replay.rtime, replay.completed
(1, 2, 1, 0.25, True)
>>> [(e.time, e.kind, e.cell) for e in replay.events]
[(0.25, 'lr', (0, 1))]
>>> parse_replay(b"*rmv\\x00\\x07", "rmv", "bad.rmv")
Traceback (most recent call last):
...
minesat.formats.ReplayFormatError: bad.rmv:byte 4: unknown RMV version 7 (1 and 2 are read)

A file that cannot be read raises :class:`ReplayFormatError`, one line naming the
file and the byte offset (0-based, as a hex viewer shows it) where reading stopped.

Two formats are also written, ``.evf`` and ``.rmv`` (:data:`WRITTEN_FORMATS`):
:func:`format_replay` gives a file's bytes, :func:`write_replay` writes one
atomically. A game minesat played becomes a :class:`Replay` through
:func:`minesat.recording.record_game`.

>>> data = format_replay(replay, "rmv")
>>> again = parse_replay(data, "rmv")
>>> again.layout == replay.layout and again.events == replay.events, again.rtime
(True, 0.25)
"""

from __future__ import annotations

import errno
import importlib
import os
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minesat.board import Cell, Layout
from minesat.formats.common import BoardFormatError, UnsupportedFormatError
from minesat.formats.output import open_atomic
from minesat.words import agree, plural

__all__ = [
    "MAX_EVENTS",
    "MAX_REPLAY_BYTES",
    "MAX_WRITTEN_SIDE",
    "MOUSE_KINDS",
    "REPLAY_EXTENSIONS",
    "REPLAY_FORMATS",
    "WRITTEN_FORMATS",
    "BoardEvent",
    "MouseEvent",
    "Replay",
    "ReplayFormatError",
    "decode_text",
    "format_replay",
    "parse_replay",
    "program_text",
    "read_replay",
    "replay_format_for",
    "write_replay",
    "written_format_for",
]

#: Format names, and the extension that means each (compared case-insensitively).
REPLAY_FORMATS = ("avf", "rmv", "mvf", "evf")
REPLAY_EXTENSIONS = {f".{name}": name for name in REPLAY_FORMATS}
#: The formats minesat also writes, and the longest side of a board they hold (in cells).
WRITTEN_FORMATS = ("evf", "rmv")
MAX_WRITTEN_SIDE = 255

#: Largest replay read, in bytes. A 20-minute 36x60 Metasweeper game is 340 kB;
#: anything past this is refused before it is read whole.
MAX_REPLAY_BYTES = 16 * 1024 * 1024
#: Most mouse events one replay may hold (the 36x60 sample has 56 659).
MAX_EVENTS = 2_000_000

#: Event kinds, as the community's tools (RAWVF, ms-toollib) name them.
MOUSE_KINDS = {
    "mv": "move",
    "lc": "left press",
    "lr": "left release",
    "rc": "right press",
    "rr": "right release",
    "mc": "middle press",
    "mr": "middle release",
    "pf": "flag placed before the game began",
    "cc": "second button pressed: both buttons now down",
    "l": "left press or release (the file does not say which)",
    "r": "right press or release (the file does not say which)",
    "m": "middle press or release (the file does not say which)",
}


class ReplayFormatError(BoardFormatError):
    """A replay file that cannot be read: the file, the byte offset where reading stopped, and why.

    A :class:`~minesat.formats.BoardFormatError` (so the command line reports it
    like any bad board file): ``line`` is 1 and ``column`` is ``offset + 1``.

    >>> str(ReplayFormatError("x.avf", 1234, "truncated event"))
    'x.avf:byte 1234: truncated event'
    """

    def __init__(self, path: str, offset: int, message: str) -> None:
        super().__init__(path, 1, offset + 1, message)
        self.offset = offset

    @property
    def where(self) -> str:
        return f"{self.path}:byte {self.offset}"


ReplayFormatError.__module__ = "minesat.formats"


@dataclass(frozen=True, slots=True)
class MouseEvent:
    """One mouse event as the file records it.

    ``time`` is in seconds on the file's clock (see each format's notes in
    docs/boards.md); ``kind`` is one of :data:`MOUSE_KINDS`; ``x``, ``y`` are
    pixels from the board's top-left corner; ``row``, ``col`` the cell under
    the pointer, both ``None`` when it is off the board.
    """

    time: float
    kind: str
    x: int
    y: int
    row: int | None
    col: int | None

    @property
    def cell(self) -> Cell | None:
        """``(row, col)`` under the pointer, or ``None`` off the board."""
        return None if self.row is None or self.col is None else (self.row, self.col)


@dataclass(frozen=True, slots=True)
class BoardEvent:
    """A change of one cell's display that the file records (only RMV stores these).

    ``after`` is the index in :attr:`Replay.events` of the mouse event that
    caused it; ``kind`` is one of ``pressed``, ``pressed_qm``, ``closed``,
    ``qm``, ``flag``, ``blast``, ``open_0`` .. ``open_8``.
    """

    after: int
    kind: str
    row: int
    col: int


@dataclass(frozen=True)
class Replay:
    """A replay file's content.

    - ``layout``: the mines as the file stores them (a program that moves a mine
      away from the first click stores the layout after the move);
    - ``mines``: the mine count the header declares (``layout.mine_count`` is
      how many distinct cells hold one);
    - ``events``: every mouse event, in file order;
    - ``rtime``: the game's time in seconds as the file gives it, from the
      release that started the game to the end (``None`` if it gives none);
    - ``completed``: whether the file says the game was won (``None`` if it does
      not say: AVF);
    - ``bbbv``: the 3BV the file states, if it states one;
    - ``cell_size``: pixels per cell side, to map ``x``/``y`` to cells;
    - ``question_marks``: whether the program's question marks were on (a
      right click on a flag then makes a ``?`` instead of uncovering), if known;
    - ``board_events``: the display changes the file records (RMV only);
    - ``metadata``: text fields such as ``player``, ``program``, ``version``,
      ``date``, ``level``, ``mode``, ``country`` where the file has them.
    """

    format: str
    path: str
    layout: Layout
    mines: int
    events: tuple[MouseEvent, ...]
    rtime: float | None
    completed: bool | None
    bbbv: int | None = None
    cell_size: int = 16
    question_marks: bool | None = None
    board_events: tuple[BoardEvent, ...] = ()
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return self.layout.rows

    @property
    def cols(self) -> int:
        return self.layout.cols

    def __repr__(self) -> str:
        """One line: ``Replay(avf, 16x30/99, 2,431 events, 49.25 s)`` (the fields are attributes)."""
        time = "" if self.rtime is None else f", {self.rtime:.2f} s"
        events = f"{len(self.events):,} event{'' if len(self.events) == 1 else 's'}"
        return f"Replay({self.format}, {self.rows}x{self.cols}/{self.mines}, {events}{time})"


# --- choosing the reader ---------------------------------------------------------


def replay_format_for(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The replay format for ``path``: ``format`` when given, else from the extension.

    >>> replay_format_for("games/a.AVF"), replay_format_for("x.bin", "evf")
    ('avf', 'evf')
    """
    if format is not None:
        if format.lower() not in REPLAY_FORMATS:
            raise UnsupportedFormatError(
                f"unknown replay format {format!r} (use one of {', '.join(REPLAY_FORMATS)})"
            )
        return format.lower()
    suffix = Path(path).suffix.lower()
    if suffix not in REPLAY_EXTENSIONS:
        raise UnsupportedFormatError(
            f"cannot tell the replay format from the extension {suffix or '(none)'!r} "
            f"(use {', '.join(REPLAY_EXTENSIONS)})", path=str(path),
        )
    return REPLAY_EXTENSIONS[suffix]


def parse_replay(data: bytes, format: str, path: str = "<bytes>") -> Replay:
    """Read a replay from a file's content; ``format`` is one of :data:`REPLAY_FORMATS`."""
    name = replay_format_for(path, format)
    if len(data) > MAX_REPLAY_BYTES:
        raise ReplayFormatError(path, MAX_REPLAY_BYTES, f"file too large: more than {MAX_REPLAY_BYTES} bytes")
    if not data:
        raise ReplayFormatError(path, 0, f"empty file: not {_a(name.upper())} replay")
    return _reader(name)(ByteReader(data, path))


def read_replay(path: str | os.PathLike[str], format: str | None = None) -> Replay:
    """Read the replay in ``path``, the format from its extension unless ``format`` says.

    Reads at most :data:`MAX_REPLAY_BYTES` (+1 to notice more): a hostile file
    is refused without being read whole. A directory raises
    :class:`IsADirectoryError` before its name is looked at.

    >>> read_replay(".")
    Traceback (most recent call last):
    ...
    IsADirectoryError: [Errno 21] is a directory, not a replay file: '.'
    """
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a replay file", str(path))
    name = replay_format_for(path, format)
    with open(path, "rb") as f:
        data = f.read(MAX_REPLAY_BYTES + 1)
    return parse_replay(data, name, str(path))


def _a(word: str) -> str:
    """``a`` or ``an`` before a word or abbreviation said letter by letter: ``an AVF``, ``a BMP``.

    >>> _a("AVF"), _a("RMV"), _a("MVF"), _a("EVF"), _a("BMP")
    ('an AVF', 'an RMV', 'an MVF', 'an EVF', 'a BMP')
    """
    return ("an " if word[:1] in "AEFHILMNORSX" else "a ") + word

def written_format_for(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The replay format to write ``path`` in; :class:`UnsupportedFormatError` unless minesat writes it.

    >>> written_format_for("game.EVF")
    'evf'
    >>> written_format_for("game.avf")
    Traceback (most recent call last):
    ...
    minesat.formats.UnsupportedFormatError: game.avf: minesat reads .avf replays but ...
    """
    try:
        name = replay_format_for(path, format)
    except UnsupportedFormatError:
        suffix = Path(path).suffix.lower() if format is None else format
        raise UnsupportedFormatError(
            f"cannot tell the replay format to write from the extension {suffix or '(none)'!r} "
            f"(use .evf or .rmv)", path=str(path),
        ) from None
    if name not in WRITTEN_FORMATS:
        raise UnsupportedFormatError(
            f"minesat reads .{name} replays but does not write them (use .evf or .rmv)", path=str(path)
        )
    return name


def format_replay(replay: Replay, format: str) -> bytes:
    """The replay as a file's content in ``format`` (one of :data:`WRITTEN_FORMATS`).

    Raises :class:`ValueError` for a replay the format cannot hold (too large a
    board, too long a game, an event it has no code for).
    """
    name = written_format_for(f"<{format}>", format)
    return importlib.import_module(f"minesat.formats.{name}").write(replay)


def write_replay(replay: Replay, path: str | os.PathLike[str], format: str | None = None) -> None:
    """Write the replay to ``path`` in the format its extension names (unless ``format`` says),
    whole or not at all: through a temporary file in the same directory, then renamed."""
    data = format_replay(replay, written_format_for(path, format))
    with open_atomic(path) as f:
        f.write(data)


def _reader(name: str) -> Callable[[ByteReader], Replay]:
    # Imported when needed: each format module imports this one for the model and ByteReader.
    return importlib.import_module(f"minesat.formats.{name}").read


# --- what the readers share ------------------------------------------------------


class ByteReader:
    """Reads a binary file front to back; every read checks the bytes are there.

    Integers are big-endian, as in all four formats. A read past the end raises
    :class:`ReplayFormatError` naming what was being read, so a truncated file
    gets one line, never an ``IndexError`` or ``struct.error``.
    """

    __slots__ = ("data", "path", "pos")

    def __init__(self, data: bytes, path: str, pos: int = 0) -> None:
        self.data, self.path, self.pos = data, path, pos

    def error(self, message: str, at: int | None = None) -> ReplayFormatError:
        return ReplayFormatError(self.path, self.pos if at is None else at, message)

    @property
    def left(self) -> int:
        """Bytes not yet read."""
        return len(self.data) - self.pos

    def need(self, count: int, what: str) -> None:
        if not 0 <= count <= len(self.data) - self.pos:
            left = max(self.left, 0)
            raise self.error(f"truncated {what}: needs {plural(count, 'byte')}, the file has {left} left")

    def take(self, count: int, what: str) -> bytes:
        self.need(count, what)
        start = self.pos
        self.pos += count
        return self.data[start : self.pos]

    def skip(self, count: int, what: str) -> None:
        self.need(count, what)
        self.pos += count

    def u8(self, what: str) -> int:
        self.need(1, what)
        self.pos += 1
        return self.data[self.pos - 1]

    def u16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "big")

    def i16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "big", signed=True)

    def u24(self, what: str) -> int:
        return int.from_bytes(self.take(3, what), "big")

    def u32(self, what: str) -> int:
        return int.from_bytes(self.take(4, what), "big")

    def u64(self, what: str) -> int:
        return int.from_bytes(self.take(8, what), "big")

    def unpack(self, layout: struct.Struct, what: str) -> tuple[Any, ...]:
        """Several fields at once (the hot loops read events this way)."""
        self.need(layout.size, what)
        values = layout.unpack_from(self.data, self.pos)
        self.pos += layout.size
        return values

    def f64(self, what: str) -> float:
        return struct.unpack(">d", self.take(8, what))[0]

    def cstring(self, what: str, end: bytes = b"\0", limit: int = 4096) -> bytes:
        """Bytes up to ``end`` (consumed, not returned), at most ``limit`` of them."""
        stop = self.data.find(end, self.pos, self.pos + limit + 1)
        if stop < 0:
            if len(self.data) - self.pos <= limit:
                raise self.error(f"truncated {what}: no terminating {end!r} before the end of the file")
            raise self.error(f"{what} longer than {limit} bytes (no terminating {end!r})")
        start = self.pos
        self.pos = stop + len(end)
        return self.data[start:stop]


def decode_text(raw: bytes, utf8: bool | None) -> tuple[str, str]:
    """Decode a text field; return the text and the encoding used.

    - ``utf8=True`` (the format says UTF-8): UTF-8, with invalid bytes replaced
      by U+FFFD (the encoding is then reported as ``utf-8 (invalid bytes replaced)``);
    - ``utf8=False`` (the format says a legacy code page, unnamed): GB18030 (the
      Chinese code page most of these files come from), else Windows-1252,
      else Latin-1, which decodes anything;
    - ``utf8=None`` (unknown): UTF-8 if valid, else as for ``False``.

    Never raises. This is the order ms-toollib tries.

    >>> decode_text("aȑ".encode(), True), decode_text(b"a\\xff", True)
    (('aȑ', 'utf-8'), ('a\\ufffd', 'utf-8 (invalid bytes replaced)'))
    >>> decode_text("王".encode("gb18030"), None), decode_text(b"\\xe9t\\xe9", False)
    (('王', 'gb18030'), ('été', 'cp1252'))
    """
    if utf8 is not False:
        try:
            return raw.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            if utf8:
                return raw.decode("utf-8", errors="replace"), "utf-8 (invalid bytes replaced)"
    for encoding in ("gb18030", "cp1252"):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        return text, encoding
    return raw.decode("latin-1"), "latin-1"


def cell_of(x: int, y: int, size: int, rows: int, cols: int) -> tuple[int | None, int | None]:
    """The cell under pixel ``(x, y)`` on a board of ``size``-pixel cells, or ``(None, None)``."""
    if 0 <= x < cols * size and 0 <= y < rows * size:
        return y // size, x // size
    return None, None


def check_board(reader: ByteReader, rows: int, cols: int, mines: int, at: int) -> None:
    """A board needs at least one cell, and room for its mines (every format bounds its
    sides to 255 or 256, so no size cap is needed)."""
    if rows < 1 or cols < 1:
        raise reader.error(f"bad board size {rows}x{cols}: a board needs at least one row and column", at)
    if mines > rows * cols:
        fit = f"{plural(mines, 'mine')} {agree(mines, 'does', 'do')} not fit"
        raise reader.error(f"{fit} a {rows}x{cols} board", at)


def check_events(reader: ByteReader, count: int) -> None:
    if count > MAX_EVENTS:
        raise reader.error(f"too many events: more than {MAX_EVENTS}")


def program_text(metadata: Mapping[str, str]) -> str:
    """The program that wrote a replay, with its version, as people name it (``""`` when unknown).

    A version that is only a number follows the program's name; one that names the program
    itself (Viennasweeper's version text does) stands alone.

    >>> program_text({"program": "Arbiter", "version": "0.52.3"}), program_text({"program": "minesat 0.1.0"})
    ('Arbiter 0.52.3', 'minesat 0.1.0')
    >>> program_text({"program": "Viennasweeper", "version": "Vienna Minesweeper - Release 5.0.0"})
    'Vienna Minesweeper - Release 5.0.0'
    """
    program, version = metadata.get("program", ""), metadata.get("version", "")
    if version[:1].isdigit():
        return f"{program} {version}".strip()
    return version or program


def level_name(rows: int, cols: int, mines: int) -> str:
    """The classic level a board size is, else ``custom``.

    >>> level_name(16, 30, 99), level_name(8, 8, 10), level_name(9, 9, 10), level_name(5, 5, 3)
    ('expert', 'beginner', 'beginner', 'custom')
    """
    if (rows, cols, mines) in ((8, 8, 10), (9, 9, 10)):
        return "beginner"
    if (rows, cols, mines) == (16, 16, 40):
        return "intermediate"
    if (rows, cols, mines) == (16, 30, 99):
        return "expert"
    return "custom"


def _tiny_rmv() -> bytes:
    """A minimal RMV 2 file (1x2 board, mine in A1, one click on A2), for the doctests."""
    header = b"*rmv" + bytes([0, 2, 1, 5]) + bytes(4)
    sizes = [0, 0, 0, 0, 7, 0]  # version, player, board, preflags, properties, extensions
    header += b"".join(s.to_bytes(2, "big") for s in sizes) + bytes(4) + bytes(2)
    body = (0).to_bytes(2, "big")  # no player fields
    body += bytes(4) + bytes([2, 1]) + (1).to_bytes(2, "big") + bytes([0, 0])  # board: mine at col 0, row 0
    body += bytes([0, 0, 0, 3, 1, 0, 16])  # marks, nf, mode, level, 3BV low/high, square size
    body += (0).to_bytes(2, "big")  # no extension properties
    press = (
        bytes([3]) + (250).to_bytes(3, "big") + bytes([0]) + (20).to_bytes(2, "big") + (5).to_bytes(2, "big")
    )
    return header + body + press + bytes([16]) + (250).to_bytes(3, "big")
