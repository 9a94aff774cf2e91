"""Metasweeper replays (``.evf``), versions 0 to 4.

EVF is specified openly in the ms-toollib repository (``evf format (evf标准).md``).
All integers are big-endian; strings end with a zero byte.

Version 4 (Metasweeper 3.2.1 and later):

- version (1 byte), summary bits (1: completed 0x80, official 0x40, fair 0x20,
  no-flag 0x10, transcoded 0x08), settings bits (1: question marks 0x80, ...; the
  specification's text says this bit means "off", but ms-toollib, which writes
  Metasweeper's files, sets it when question marks are on, so that is how it is read);
- rows, columns (1 byte each), mines (2), cell size in pixels (1), mode (2), 3BV (2),
  the game's time in ms (4), country (2 letters), start and end timestamps
  (microseconds since 1970, 8 each);
- strings: the program and version; if transcoded, the transcoding program and
  the original text encoding; the player; a race and a unique identifier;
- a device id (2-byte length, then the bytes); the mines as bits, row by row,
  most significant bit first, ceil(rows x columns / 8) bytes;
- the names of custom metrics (2-byte count, then strings);
- the events. The first: code, time (1), x and y (2 each). Then each starts
  with a code: 1-12 a mouse event (mv, lc, lr, rc, rr, mc, mr, pf, cc, l, r, m)
  with a time step (1 byte, ms) and the pointer's move (2 signed bytes each);
  81-99 a game state event (replay, win, fail, error) with a time step;
  100-199 a board event with a time step, row and column; 200 and 201 a metric
  with a time step, its index + 10000 (2) and a float (8) or a string; 255 a
  pause (2 bytes of ms added to the next step); 0 the end;
- the checksum (2-byte length, then the bytes).

Versions 0-3 (Metasweeper 3.1 and 3.2.0) store the time in 3 bytes, the
strings (program, player, race and unique identifier, start and end
timestamps, country, version 2 and 3 a device id) before the board, and each
event as code, time in ms (3 bytes), x, y (2 each), ending with a code 0
(a 32-byte checksum follows) or 255 (none). Version 3 added the settings byte.
Their strings may be in any encoding (see :func:`decode_text`).

Coordinates are pixels from the board's top-left corner; events off the board
are recorded at (columns x cell size, rows x cell size).

:func:`write` writes version 4, as ms-toollib's ``generate_evf_v4_raw_data``
does: the question-mark bit set when they are on, the program's name and
version in one string, no device id, no custom metrics, mouse events only, and
an empty checksum (only Metasweeper can sign its own games).
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime

from minesat.board import Layout
from minesat.errors import InvalidValue
from minesat.formats.replay import (
    MAX_WRITTEN_SIDE,
    ByteReader,
    MouseEvent,
    Replay,
    cell_of,
    check_board,
    check_events,
    decode_text,
    level_name,
)

__all__ = ["read", "write"]

_MOUSE = {
    1: "mv",
    2: "lc",
    3: "lr",
    4: "rc",
    5: "rr",
    6: "mc",
    7: "mr",
    8: "pf",
    9: "cc",
    10: "l",
    11: "r",
    12: "m",
}
_GAME_STATE = {81: "replay", 82: "win", 83: "fail", 99: "error"}
_PAUSE = 255
_STEP = struct.Struct(">Bhh")  # a version 4 mouse event: time step, x step, y step
_OLD_EVENT = struct.Struct(">BHHH")  # versions 0-3, after the code: time (3 bytes, as 1 + 2), x, y
_MODES = {
    0: "standard",
    1: "upk",
    2: "cheat",
    3: "density",
    4: "win7",
    5: "competitive solvable",
    6: "strong solvable",
    7: "weak solvable",
    8: "to be solvable",
    9: "strong guessable",
    10: "weak guessable",
    11: "chording recursive",
    12: "flag recursive",
    13: "chording flag recursive",
    14: "solvable chording recursive",
    15: "solvable flag recursive",
    16: "solvable chording flag recursive",
    65535: "no rule",
}


_CODES = {kind: code for code, kind in _MOUSE.items()}
_MODE_CODES = {name: code for code, name in _MODES.items()}


def read(r: ByteReader) -> Replay:
    version = r.u8("version")
    if version > 4:
        raise r.error(f"unknown EVF version {version} (0 to 4 are read)", 0)
    summary = r.u8("summary byte")
    settings = r.u8("settings byte") if version >= 3 else None
    board_at = r.pos
    rows, cols = r.u8("rows"), r.u8("columns")
    declared = r.u16("mine count")
    size = r.u8("cell size")
    check_board(r, rows, cols, declared, board_at)
    if size == 0:
        raise r.error("cell size 0", r.pos - 1)
    mode = r.u16("mode")
    bbbv = r.u16("3BV")
    time_ms = r.u32("game time") if version >= 4 else r.u24("game time")
    meta = {"format_version": str(version), "mode": _MODES.get(mode, str(mode))}
    meta["level"] = level_name(rows, cols, declared)
    if version >= 4:
        meta.update(_read_v4_strings(r, bool(summary & 0x08)))
    else:
        meta.update(_read_old_strings(r, version))
    if version >= 4 and int(meta["start_time"]):
        try:
            start = datetime.fromtimestamp(int(meta["start_time"]) / 1_000_000, UTC)
            meta["date"] = f"{start:%Y-%m-%d %H:%M:%S}"
        except (ValueError, OverflowError, OSError):
            pass  # a start time no calendar holds: the game is still readable, only undated
    meta = {k: v for k, v in meta.items() if v}

    layout = _read_mines(r, rows, cols)
    if version >= 4:
        for _ in range(r.u16("custom metric count")):
            r.cstring("custom metric name")
        events = _read_v4_events(r, rows, cols, size)
        r.skip(r.u16("checksum length"), "checksum")
    else:
        events = _read_old_events(r, rows, cols, size)
    return Replay(
        format="evf",
        path=r.path,
        layout=layout,
        mines=declared,
        events=tuple(events),
        rtime=time_ms / 1000,
        completed=bool(summary & 0x80),
        bbbv=bbbv,
        cell_size=size,
        question_marks=None if settings is None else bool(settings & 0x80),
        metadata=meta,
    )


def _read_v4_strings(r: ByteReader, transcoded: bool) -> dict[str, str]:
    meta = {"country": decode_text(r.take(2, "country"), True)[0].strip("\0 ")}
    meta["start_time"] = str(r.u64("start timestamp"))
    meta["end_time"] = str(r.u64("end timestamp"))
    meta["program"] = decode_text(r.cstring("program name"), True)[0]
    if transcoded:
        meta["transcoded_by"] = decode_text(r.cstring("transcoding program"), True)[0]
        meta["original_encoding"] = decode_text(r.cstring("original encoding"), True)[0]
    meta["player"], meta["player_encoding"] = decode_text(r.cstring("player"), True)
    meta["race"] = decode_text(r.cstring("race identifier"), True)[0]
    meta["unique"] = decode_text(r.cstring("unique identifier"), True)[0]
    r.skip(r.u16("device id length"), "device id")
    return meta


def _read_old_strings(r: ByteReader, version: int) -> dict[str, str]:
    meta = {"program": decode_text(r.cstring("program name"), True)[0]}
    meta["player"], meta["player_encoding"] = decode_text(r.cstring("player"), None)
    meta["race"] = decode_text(r.cstring("race identifier"), None)[0]
    meta["unique"] = decode_text(r.cstring("unique identifier"), None)[0]
    meta["start_time"] = decode_text(r.cstring("start timestamp"), None)[0]
    meta["end_time"] = decode_text(r.cstring("end timestamp"), None)[0]
    meta["country"] = decode_text(r.cstring("country"), None)[0]
    if version >= 2:
        r.cstring("device id")
    return meta


def _read_mines(r: ByteReader, rows: int, cols: int) -> Layout:
    """One bit per cell, row by row, most significant bit first."""
    bits = r.take((rows * cols + 7) // 8, f"mine bits of the {rows}x{cols} board")
    mines = frozenset(divmod(i, cols) for i in range(rows * cols) if bits[i >> 3] & (0x80 >> (i & 7)))
    return Layout(rows, cols, mines)


def _read_v4_events(r: ByteReader, rows: int, cols: int, size: int) -> list[MouseEvent]:
    """Events with time steps and relative moves; game state, board and metric events are skipped."""
    at = r.pos
    code = r.u8("first event code")
    if code not in _MOUSE:
        raise r.error(f"the first event has code {code}, not a mouse event", at)
    time = r.u8("first event time")
    x, y = r.u16("first event x"), r.u16("first event y")
    events = [MouseEvent(time / 1000, _MOUSE[code], x, y, *cell_of(x, y, size, rows, cols))]
    pause = 0
    while True:
        at = r.pos
        code = r.u8("event code (the events have no end code)")
        if code == 0:
            return events
        if code == _PAUSE:
            pause += r.u16("pause length")
            continue
        if code in _MOUSE:
            step, dx, dy = r.unpack(_STEP, "mouse event")
            time += step + pause
            pause = 0
            x += dx
            y += dy
            events.append(MouseEvent(time / 1000, _MOUSE[code], x, y, *cell_of(x, y, size, rows, cols)))
            check_events(r, len(events))
            continue
        if not (code in _GAME_STATE or 100 <= code <= 201):
            raise r.error(f"unknown event code {code}", at)
        time += r.u8("event time step") + pause
        pause = 0
        if 100 <= code <= 199:
            r.skip(2, "board event cell")
        elif code == 200:
            r.skip(10, "number metric")
        elif code == 201:
            r.skip(2, "string metric index")
            r.cstring("string metric value")


def _read_old_events(r: ByteReader, rows: int, cols: int, size: int) -> list[MouseEvent]:
    """Events with absolute times and positions, up to code 0 (a checksum follows) or 255."""
    events: list[MouseEvent] = []
    while True:
        at = r.pos
        code = r.u8("event code (the events have no end code)")
        if code in (0, _PAUSE):
            if code == 0:
                r.skip(32, "checksum")
            return events
        if code not in _MOUSE:
            raise r.error(f"unknown event code {code}", at)
        time_high, time_low, x, y = r.unpack(_OLD_EVENT, "mouse event")
        time = time_high << 16 | time_low
        events.append(MouseEvent(time / 1000, _MOUSE[code], x, y, *cell_of(x, y, size, rows, cols)))
        check_events(r, len(events))


# --- writing -----------------------------------------------------------------------


def write(replay: Replay) -> bytes:
    """The replay as an EVF version 4 file.

    Raises :class:`ValueError` for what version 4 cannot hold: a side over 255
    cells or 32 767 pixels, a first event that is not a move, press or
    pre-flag, or one more than 255 ms into the game.
    """
    rows, cols, size = replay.rows, replay.cols, replay.cell_size
    if max(rows, cols) > MAX_WRITTEN_SIDE or not 1 <= size <= 255 or max(rows, cols) * size > 32767:
        raise InvalidValue(f"EVF holds boards up to 255x255 cells of 32 767 pixels a side, not {rows}x{cols}")
    if not replay.events or replay.events[0].kind not in ("mv", "lc", "rc", "pf"):
        raise InvalidValue("an EVF file starts with a move, a press or a pre-flag")
    meta = replay.metadata
    summary = 0x80 if replay.completed else 0
    summary |= 0x10 if meta.get("nf") == "true" else 0
    settings = 0x80 if replay.question_marks else 0
    bbbv = replay.bbbv if replay.bbbv is not None else replay.layout.bbbv()
    program = " ".join(meta[key] for key in ("program", "version") if meta.get(key))
    country = meta.get("country", "")
    out = bytearray([4, summary, settings, rows, cols])
    out += struct.pack(">HBHHI", replay.mines, size, _MODE_CODES.get(meta.get("mode", ""), 0), bbbv,
                       round((replay.rtime or 0) * 1000))
    out += country.encode() if len(country.encode()) == 2 else b"XX"
    out += struct.pack(">QQ", int(meta.get("start_time", 0)), int(meta.get("end_time", 0)))
    for text in (program, meta.get("player", ""), meta.get("race", ""), meta.get("unique", "")):
        out += text.encode() + b"\0"
    out += struct.pack(">H", 0)  # no device id
    out += _mine_bits(replay.layout)
    out += struct.pack(">H", 0)  # no custom metrics
    out += _events(replay)
    out += b"\0" + struct.pack(">H", 0)  # the end of the events, an empty checksum
    return bytes(out)


def _mine_bits(layout: Layout) -> bytes:
    bits = bytearray((layout.rows * layout.cols + 7) // 8)
    for row, col in layout.mines:
        i = row * layout.cols + col
        bits[i >> 3] |= 0x80 >> (i & 7)
    return bytes(bits)


def _events(replay: Replay) -> bytes:
    """The first event in full, then each as a time step and a move; a step over 255 ms takes pauses."""
    first = replay.events[0]
    time = round(first.time * 1000)
    if not 0 <= time <= 255:
        raise InvalidValue(f"an EVF file's first event is at most 255 ms into the game, not {time} ms")
    out = bytearray(struct.pack(">BBHH", _CODES[first.kind], time, first.x, first.y))
    x, y = first.x, first.y
    for event in replay.events[1:]:
        if event.kind not in _CODES:
            raise InvalidValue(f"EVF has no mouse event {event.kind!r}")
        now = round(event.time * 1000)
        step = now - time
        if step < 0:
            raise InvalidValue(f"events out of order at {event.time} s")
        while step > 255:
            pause = min(step, 65535)
            out += struct.pack(">BH", _PAUSE, pause)
            step -= pause
        out += _STEP_EVENT.pack(_CODES[event.kind], step, event.x - x, event.y - y)
        time, x, y = now, event.x, event.y
    return bytes(out)


_STEP_EVENT = struct.Struct(">BBhh")
