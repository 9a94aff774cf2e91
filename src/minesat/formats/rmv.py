"""Viennasweeper replays (``.rmv``), format versions 1 and 2.

The format is specified openly (github.com/ralokt/rmv_spec). In short:

- ``*rmv``, the version (2 bytes); version 2 adds a clone id and major version
  (1 byte each); the file size (4 bytes); version 1 the size of its result
  string (2); the sizes of the version info, player info, board, pre-flags,
  properties (2 bytes each), version 2 of its extension properties (2); the
  events' and checksum's sizes (4 and 2);
- version 1: the result string (``LEVEL:Expert#SCORE:34.88#...#3BV:128#...``);
  the version info; the player fields (a 2-byte count, then per field a
  1-byte length and the text: name, nickname, country, token);
- the board: a timestamp (4 bytes), columns, rows (1 byte each), the mine count
  (2 bytes), per mine its column and row (0-based);
- if the pre-flags section is not empty: their count (2) and per flag column, row;
- the properties, one byte each: question marks, no-flag, mode, level, then
  version 1: text is UTF-8 (if present), version 2: 3BV low and high byte, square size;
- version 2: the extension properties (count, then name and value, each with a 1-byte length);
- the events, each a 1-byte code: 1-7 a mouse event (move, left/right/middle
  press/release): time in ms (3 bytes), button flags (1), x and y (2 each;
  unsigned and offset by 12 and 56 in version 1, signed and relative to the
  board in version 2); 28 (version 2) a short move: time and position change
  since the previous event (1 byte, then 4 bits each); 9-14 and 18-27 a board
  event (a cell's display changed: column, row); 15-17 the end (blast, win,
  other) with the game's time in ms (3 bytes); version 1's code 0 a clock change (4).

Text is UTF-8 in version 2, and in version 1 when the ``utf8`` property says
so; otherwise its code page is not recorded (see :func:`decode_text`). Invalid
UTF-8 where UTF-8 is promised is read with replacement characters rather than
refused, and ``metadata["player_encoding"]`` says so.

Viennasweeper starts recording at the release of the click that starts the game,
so a file's first event is usually that release without its press; ms-toollib
adds the press, this reader keeps the file's events (the replay logic pairs them).

:func:`write` writes version 2 as Viennasweeper 5 does, as a program with no
assigned clone id (0, its name in the ``clone_name`` extension property): the
button flags of each mouse event are the buttons down after it (1 left, 2
right, 16 middle), a move that fits is a short move (code 28), and the
replay's board events follow the mouse event that caused them. The checksum is
empty (Viennasweeper's is its own secret).
"""

from __future__ import annotations

import re
import struct
from collections import defaultdict
from datetime import UTC, datetime
from typing import NamedTuple

from minesat.board import Layout
from minesat.errors import InvalidValue
from minesat.formats.replay import (
    MAX_WRITTEN_SIDE,
    BoardEvent,
    ByteReader,
    MouseEvent,
    Replay,
    cell_of,
    check_board,
    check_events,
    decode_text,
    level_name,
    program_text,
)

__all__ = ["read", "write"]

_MOUSE = {1: "mv", 2: "lc", 3: "lr", 4: "rc", 5: "rr", 6: "mc", 7: "mr"}
_BOARD = {
    9: "pressed",
    10: "pressed_qm",
    11: "closed",
    12: "qm",
    13: "flag",
    14: "blast",
    27: "blast",
    **{18 + n: f"open_{n}" for n in range(9)},
}
_END = {15: False, 16: True, 17: False}  # blast, win, other
_SHORT_MOVE = 28
#: A mouse event after its code: time (3 bytes) and button flags (1), x, y.
_MOUSE_V1 = struct.Struct(">IHH")
_MOUSE_V2 = struct.Struct(">Ihh")
_CLONES = {
    1: "Viennasweeper",
    2: "Arbiter",
    3: "MSX",
    4: "Minesweeper Clone",
    5: "Metasweeper",
    6: "Freesweeper",
}
_LEVELS = {0: "beginner", 1: "intermediate", 2: "expert", 3: "custom"}
_MODES = {0: "normal", 1: "upk", 2: "cheat", 3: "density"}
_PLAYER_FIELDS = ("player", "nickname", "country", "token")
#: Version 1 stores the pointer relative to the window's client area.
_V1_OFFSET = (12, 56)


def read(r: ByteReader) -> Replay:
    """The replay in ``r``, read section by section as the module's docstring lists them."""
    meta: dict[str, str] = {}
    sizes = _header(r, meta)
    result = r.take(sizes.result, "result string").decode("latin-1")
    # Version 2's text is UTF-8; version 1's version info is ASCII in every known file.
    version_info = r.take(sizes.version_info, "version info")
    meta["version"] = decode_text(version_info, True if sizes.version == 2 else None)[0].strip("\0").strip()
    raw_fields = [r.take(r.u8("player field size"), "player field") for _ in range(r.u16("player fields"))]
    layout, declared, preflags = _board(r, sizes.preflags, meta)
    props = _properties(r, sizes, layout, declared, result, meta)
    meta.setdefault("program", _CLONES.get(sizes.clone_id, f"clone {sizes.clone_id}"))
    _player(raw_fields, props.utf8, meta)
    events, board_events, completed, time_ms = _read_events(
        r, sizes.version, layout.rows, layout.cols, props.size, preflags
    )
    return Replay(
        format="rmv",
        path=r.path,
        layout=layout,
        mines=declared,
        events=tuple(events),
        rtime=time_ms / 1000,
        completed=completed,
        bbbv=props.bbbv,
        cell_size=props.size,
        question_marks=props.marks,
        board_events=tuple(board_events),
        metadata=meta,
    )


class _Sizes(NamedTuple):
    """What the header says: the version, the clone, and the sizes of the sections read."""

    version: int
    clone_id: int
    result: int
    version_info: int
    preflags: int
    properties: int


def _header(r: ByteReader, meta: dict[str, str]) -> _Sizes:
    """The signature, the version (and version 2's clone) and the sections' sizes."""
    if r.take(4, "signature") != b"*rmv":
        raise r.error("not an RMV file (it does not start with '*rmv')", 0)
    version = r.u16("version")
    if version not in (1, 2):
        raise r.error(f"unknown RMV version {version} (1 and 2 are read)", 4)
    meta["format_version"] = str(version)
    clone_id = 1
    if version == 2:
        clone_id = r.u8("clone id")
        meta["clone_major_version"] = str(r.u8("clone major version"))
    r.skip(4, "file size")
    result_size = r.u16("result string size") if version == 1 else 0
    version_size = r.u16("version info size")
    r.skip(4, "player info and board sizes")
    preflags_size = r.u16("pre-flags size")
    properties_size = r.u16("properties size")
    if version == 2:
        r.skip(2, "extension properties size")
    r.skip(6, "events and checksum sizes")
    return _Sizes(version, clone_id, result_size, version_size, preflags_size, properties_size)


def _board(
    r: ByteReader, preflags_size: int, meta: dict[str, str]
) -> tuple[Layout, int, list[tuple[int, int]]]:
    """The board: its timestamp, size, mines and pre-flags: the layout, the mine count declared
    and the pre-flagged cells."""
    timestamp = r.u32("board timestamp")
    meta["timestamp"] = str(timestamp)
    if timestamp:
        meta["date"] = f"{datetime.fromtimestamp(timestamp, UTC):%Y-%m-%d %H:%M:%S}"
    board_at = r.pos
    cols, rows = r.u8("columns"), r.u8("rows")
    declared = r.u16("mine count")
    check_board(r, rows, cols, declared, board_at)
    mines = {_cell(r, rows, cols, f"mine {i + 1}") for i in range(declared)}
    preflags = []
    if preflags_size:
        preflags = [_cell(r, rows, cols, f"pre-flag {i + 1}") for i in range(r.u16("pre-flag count"))]
    return Layout(rows, cols, frozenset(mines)), declared, preflags


class _Properties(NamedTuple):
    """What the properties say: question marks, the 3BV (if known), the square size, and
    whether the player's text is UTF-8 (None: not recorded)."""

    marks: bool
    bbbv: int | None
    size: int
    utf8: bool | None


def _properties(
    r: ByteReader, sizes: _Sizes, layout: Layout, declared: int, result: str, meta: dict[str, str]
) -> _Properties:
    """The properties (and version 2's extension properties)."""
    properties = r.take(sizes.properties, "properties")
    if len(properties) < 4:
        raise r.error(
            f"only {len(properties)} properties: the first four are required", r.pos - len(properties)
        )
    marks, nf, mode, level = properties[:4]
    level_text = _LEVELS.get(level, level_name(layout.rows, layout.cols, declared))
    meta.update(level=level_text, mode=_MODES.get(mode, str(mode)))
    meta["nf"] = str(bool(nf)).lower()
    if sizes.version != 2:
        utf8 = bool(properties[4]) if len(properties) > 4 else False
        return _Properties(bool(marks), _result_bbbv(result), 16, utf8)
    if len(properties) < 7:
        raise r.error("an RMV 2 file needs 7 properties (3BV and square size)", r.pos - len(properties))
    bbbv = properties[4] | properties[5] << 8
    size = properties[6]
    if size == 0:
        raise r.error("square size 0", r.pos - len(properties) + 6)
    for _ in range(r.u16("extension property count")):
        name = r.take(r.u8("extension property name size"), "extension property name")
        value = r.take(r.u8("extension property value size"), "extension property value")
        key = decode_text(name, True)[0]
        if key == "clone_name":
            meta["program"] = decode_text(value, True)[0]
    return _Properties(bool(marks), bbbv, size, True)


def _player(raw_fields: list[bytes], utf8: bool | None, meta: dict[str, str]) -> None:
    """The player's fields, decoded, into ``meta``: the token left out (a secret proving who
    played, not for display), the nickname when it only repeats the name."""
    for name, raw in zip(_PLAYER_FIELDS, raw_fields, strict=False):
        if raw:
            meta[name], encoding = decode_text(raw, utf8)
            if name == "player":
                meta["player_encoding"] = encoding
    meta.pop("token", None)
    if meta.get("nickname") == meta.get("player"):
        meta.pop("nickname", None)


def _cell(r: ByteReader, rows: int, cols: int, what: str) -> tuple[int, int]:
    col, row = r.u8(what), r.u8(what)
    if col >= cols or row >= rows:
        raise r.error(f"{what} at column {col}, row {row} is outside the {rows}x{cols} board", r.pos - 2)
    return row, col


def _result_bbbv(result: str) -> int | None:
    """The ``3BV:`` field of a version 1 result string, if it has one (0 means not finished)."""
    for item in result.split("#"):
        key, _, value = item.strip().partition(":")
        if key == "3BV" and value.isdigit() and len(value) < 7:
            return int(value)
    return None


def _read_events(
    r: ByteReader, version: int, rows: int, cols: int, size: int, preflags: list[tuple[int, int]]
) -> tuple[list[MouseEvent], list[BoardEvent], bool, int]:
    """Events up to the end event; pre-flags come first, as ``pf`` events at time 0."""
    events = [MouseEvent(0.0, "pf", c * size, r_ * size, r_, c) for r_, c in preflags]
    board_events: list[BoardEvent] = []
    dx, dy = _V1_OFFSET if version == 1 else (0, 0)
    mouse = _MOUSE_V1 if version == 1 else _MOUSE_V2
    x = y = time = 0
    while True:
        at = r.pos
        code = r.u8("event code (the events have no end event)")
        if code in _MOUSE:
            time_flags, x, y = r.unpack(mouse, "mouse event")
            time = time_flags >> 8  # 3 bytes of time, then a byte of button flags
            x, y = x - dx, y - dy
            kind = _MOUSE[code]
        elif code == _SHORT_MOVE and version == 2:
            time += r.u8("short move time")
            packed = r.u8("short move offsets")
            x += _nibble(packed >> 4)
            y += _nibble(packed & 15)
            kind = "mv"
        elif code in _BOARD:
            across, down = r.u8("board event column"), r.u8("board event row")
            if across >= cols or down >= rows:
                raise r.error(f"board event at column {across}, row {down} is outside the board", at)
            board_events.append(BoardEvent(len(events) - 1, _BOARD[code], down, across))
            continue
        elif code in _END:
            return events, board_events, _END[code], r.u24("game time")
        elif code == 0 and version == 1:
            r.skip(4, "clock change")
            continue
        else:
            raise r.error(f"unknown event code {code}", at)
        row, col = cell_of(x, y, size, rows, cols)
        events.append(MouseEvent(time / 1000, kind, x, y, row, col))
        check_events(r, len(events))


def _nibble(value: int) -> int:
    """A 4-bit two's complement number: 0..7 as they are, 8..15 as -8..-1."""
    return value - 16 if value & 8 else value


# --- writing -----------------------------------------------------------------------

_CODES = {kind: code for code, kind in _MOUSE.items()}
_BOARD_CODES = {"blast": 27, **{kind: code for code, kind in _BOARD.items() if kind != "blast"}}
_BUTTONS = {"lc": 1, "rc": 2, "mc": 16}
_RELEASES = {"lr": 1, "rr": 2, "mr": 16}
_BOARD_LEVELS = {(8, 8, 10): 0, (16, 16, 40): 1, (16, 30, 99): 2}
_MODE_CODES = {name: code for code, name in _MODES.items()}
_MAX_TIME_MS = (1 << 24) - 1


def write(replay: Replay) -> bytes:
    """The replay as an RMV version 2 file (see the module's notes).

    ``pf`` events become the pre-flags. Raises :class:`ValueError` for what RMV
    cannot hold: a side over 255 cells, a game over 4.6 hours (3-byte
    milliseconds), EVF's ambiguous button events (``cc``, ``l``, ``r``, ``m``).
    """
    rows, cols, meta = replay.rows, replay.cols, replay.metadata
    if max(rows, cols) > MAX_WRITTEN_SIDE or not 1 <= replay.cell_size <= 255:
        raise InvalidValue(f"RMV holds boards up to 255x255 cells, not {rows}x{cols}")
    # The version text names the program, as Viennasweeper's does ("Vienna Minesweeper - Release 5.0.0").
    version_info = program_text(meta).encode()
    player = meta.get("player", "").encode()[:255]
    player_info = struct.pack(">HB", 1, len(player)) + player
    board = struct.pack(">IBBH", int(meta.get("timestamp", 0)) & 0xFFFFFFFF, cols, rows, replay.mines)
    board += b"".join(bytes([c, r]) for r, c in sorted(replay.layout.mines))
    preflags = [e.cell for e in replay.events if e.kind == "pf" and e.cell is not None]
    preflagged = struct.pack(">H", len(preflags)) + b"".join(bytes([c, r]) for r, c in preflags)
    bbbv = replay.bbbv if replay.bbbv is not None else replay.layout.bbbv()
    level = _BOARD_LEVELS.get((rows, cols, replay.mines), 3)  # Viennasweeper's levels, by the board
    properties = bytes([bool(replay.question_marks), meta.get("nf") == "true",
                        _MODE_CODES.get(meta.get("mode", ""), 0), level, bbbv & 255, bbbv >> 8,
                        replay.cell_size])
    name = (meta.get("program") or "minesat").encode()[:255]
    extension = struct.pack(">HB", 1, len(b"clone_name")) + b"clone_name" + bytes([len(name)]) + name
    events = _events(replay)

    sections = (version_info, player_info, board, preflagged, properties, extension, events)
    head_size = 4 + 2 + 2 + 4 + 2 * 6 + 4 + 2
    sizes = struct.pack(">HHHHHHIH", *(len(part) for part in sections[:6]), len(events), 0)
    major = re.match(r"\d+", meta.get("version", ""))
    head = b"*rmv" + struct.pack(">HBB", 2, 0, int(major.group()) & 255 if major else 0)
    total = head_size + sum(len(part) for part in sections)
    return head + struct.pack(">I", total) + sizes + b"".join(sections)


def _events(replay: Replay) -> bytes:
    """Mouse events (short moves where they fit), each followed by its board events, then the end."""
    after: dict[int, list[BoardEvent]] = defaultdict(list)
    for shown in replay.board_events:
        after[max(shown.after, 0)].append(shown)
    out = bytearray()
    buttons = 0
    last: tuple[int, int, int] | None = None  # time, x, y of the previous mouse event
    for index, event in enumerate(replay.events):
        if event.kind != "pf":
            if event.kind not in _CODES:
                raise InvalidValue(f"RMV has no mouse event {event.kind!r}")
            time = round(event.time * 1000)
            if not 0 <= time <= _MAX_TIME_MS:
                raise InvalidValue(f"RMV times are 0 to {_MAX_TIME_MS} ms, not {time}")
            flags = (buttons | _BUTTONS.get(event.kind, 0)) & ~_RELEASES.get(event.kind, 0)
            short = last is not None and event.kind == "mv" and flags == buttons
            if short and last is not None:
                step, dx, dy = time - last[0], event.x - last[1], event.y - last[2]
                short = 0 <= step <= 255 and -8 <= dx <= 7 and -8 <= dy <= 7
            if short and last is not None:
                out += bytes([_SHORT_MOVE, time - last[0], (dx & 15) << 4 | (dy & 15)])
            else:
                out += bytes([_CODES[event.kind]]) + _MOUSE_V2.pack(time << 8 | flags, event.x, event.y)
            buttons, last = flags, (time, event.x, event.y)
        for board in after.pop(index, []):
            out += bytes([_BOARD_CODES[board.kind], board.col, board.row])
    end = 16 if replay.completed else 15 if any(b.kind == "blast" for b in replay.board_events) else 17
    out += bytes([end]) + round((replay.rtime or 0) * 1000).to_bytes(3, "big")
    return bytes(out)
