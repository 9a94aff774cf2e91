"""Minesweeper Clone replays (``.mvf``): Clone 0.97 and Clone 2006/2007.

The layout, as the community's readers document it (RAWVF's ``mvf2rawvf``,
ms-toollib):

- Clone 0.97 and later start with a text preamble: ``0x11`` ``"Minesweeper Clone"``
  and further length-prefixed strings, the copyright years among them. Byte 27
  is the last digit of those years: ``5`` Clone 0.97 (data from byte 74), ``6``
  or ``7`` Clone 2006/2007 (a version string at byte 53, data from byte 71),
  ``8`` Clone 0.97 "funny mode" (as 0.97, every game UPK). A file starting
  with two zero bytes is a hacked 0.97 whose data starts at byte 7;
- the data: month, day, year (2 bytes), hour, minute, second, level (1 beginner,
  2 intermediate, 3 expert, 4 custom), mode (1 classic, 2 density, 3 UPK,
  4 cheat); the time (0.97: seconds in 2 bytes, hundredths in 1; 2007:
  milliseconds in 3); 0.97 only: 3BV, 3BV solved, left, double and right
  clicks (2 bytes each); question marks on (1); width, height (1 each), mine
  count (2), per mine its column and row (1-based); the player's name (a
  1-byte length, then the text, code page unknown);
- two bytes that seed a bit permutation, the number of events (3 bytes), and
  the events: 5 bytes each in 0.97, 6 in 2007, whose bits the permutation
  scatters: the right, middle and left button states, x and y (9 bits each in
  0.97, 11 bits less 32 in 2007), the time (0.97: hundredths and seconds;
  2007: milliseconds in 22 bits).

An event records the buttons' states, not their changes: each record becomes
a move event if the pointer moved, then a press or release per button that
changed (the first record: a press for a button already down). Clone starts
its clock at the first press, so the game's time is taken from the events,
from the first left release to the last event (the header's time is kept in
``metadata["header_time"]``).

Clone before 0.97 wrote files with no preamble; they are refused.
"""

from __future__ import annotations

import math

from minesat.board import Layout
from minesat.formats.replay import (
    ByteReader,
    MouseEvent,
    Replay,
    cell_of,
    check_board,
    check_events,
    decode_text,
    level_name,
)
from minesat.words import plural

__all__ = ["read"]

_CELL = 16
_LEVELS = {1: "beginner", 2: "intermediate", 3: "expert", 4: "custom"}
_MODES = {1: "classic", 2: "density", 3: "upk", 4: "cheat"}


def read(r: ByteReader) -> Replay:
    head = r.take(2, "signature")
    if head == b"\x00\x00":
        return _read(r, 7, "0.97 (hacked)", new=False)
    if head != b"\x11M":
        raise r.error(
            "not a Minesweeper Clone 0.97 or later replay (earlier versions, with no "
            "'Minesweeper Clone' preamble, are not read)",
            0,
        )
    r.pos = 27
    digit = r.u8("version digit")
    if digit == ord("5"):
        return _read(r, 74, "0.97 beta", new=False)
    if digit == ord("8"):
        return _read(r, 74, "0.97 funny mode", new=False, mode="upk")
    if digit in b"67":
        r.pos = 53
        version = decode_text(r.take(r.u8("version string length"), "version string"), None)[0]
        return _read(r, 71, version.strip() or "2007", new=True)
    raise r.error(f"unknown Minesweeper Clone version (byte 27 is {digit}, not '5'-'8')", 27)


def _read(r: ByteReader, start: int, version: str, *, new: bool, mode: str | None = None) -> Replay:
    r.pos = start
    month, day = r.u8("month"), r.u8("day")
    year = r.u16("year")
    hour, minute, second = r.u8("hour"), r.u8("minute"), r.u8("second")
    level, mode_byte = r.u8("level"), r.u8("mode")
    meta = {
        "program": "Minesweeper Clone",
        "version": version,
        "date": f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d}",
        "mode": mode or _MODES.get(mode_byte, str(mode_byte)),
    }
    completed = bbbv = None
    if new:
        meta["header_time"] = f"{r.u24('time') / 1000:.3f}"
    else:
        seconds = r.u16("time seconds")
        meta["header_time"] = f"{seconds + r.u8('time hundredths') / 100:.2f}"
        bbbv, solved = r.u16("3BV"), r.u16("3BV solved")
        completed = bbbv == solved
        for name in ("left_clicks", "double_clicks", "right_clicks"):
            meta[name] = str(r.u16(name.replace("_", " ")))
    marks = r.u8("question marks") != 0

    board_at = r.pos
    cols, rows = r.u8("width"), r.u8("height")
    declared = r.u16("mine count")
    check_board(r, rows, cols, declared, board_at)
    mines = set()
    for i in range(declared):
        col, row = r.u8(f"mine {i + 1}"), r.u8(f"mine {i + 1}")
        if not (1 <= col <= cols and 1 <= row <= rows):
            raise r.error(
                f"mine {i + 1} at column {col}, row {row} is outside the {rows}x{cols} board", r.pos - 2
            )
        mines.add((row - 1, col - 1))
    meta["level"] = _LEVELS.get(level, level_name(rows, cols, declared))
    meta["player"], meta["player_encoding"] = decode_text(r.take(r.u8("name length"), "player name"), None)
    if not meta["player"]:
        del meta["player"], meta["player_encoding"]

    events = _read_events(r, rows, cols, new)
    return Replay(
        format="mvf",
        path=r.path,
        layout=Layout(rows, cols, frozenset(mines)),
        mines=declared,
        events=tuple(events),
        rtime=_rtime(events),
        completed=completed,
        bbbv=bbbv,
        cell_size=_CELL,
        question_marks=marks,
        metadata=meta,
    )


def _permutation(seed: int, new: bool) -> list[tuple[int, int]]:
    """Where each bit of an event lives: (byte, mask) for bit 0, 1, ...

    The seed's square roots give five (2007: six) numbers; the first eight digits
    of each, in order, name the 40 (48) bit positions: positions holding a 0 come
    first, then those holding a 1, and so on.
    """
    num1 = math.sqrt(seed)
    num2 = math.sqrt(seed + 1000.0)
    num3 = math.sqrt(num1 + 1000.0)
    values = [
        math.cos(num3 + 1000.0),
        math.sin(math.sqrt(num2)),
        math.cos(num3),
        math.sin(math.sqrt(num1) + 1000.0),
    ]
    if new:
        num4 = math.sqrt(num2 + 1000.0)
        values += [math.cos(num4), math.sin(num4)]
    else:
        values.append(math.cos(math.sqrt(num2 + 1000.0)))
    digits = "".join(f"{round(abs(v) * 100_000_000):08d}"[:8] for v in values)
    order = sorted(range(len(digits)), key=lambda j: (digits[j], j))
    return [(j // 8, 1 << (j % 8)) for j in order]


def _read_events(r: ByteReader, rows: int, cols: int, new: bool) -> list[MouseEvent]:
    perm = _permutation(r.u16("permutation seed"), new)
    count = r.u24("event count")
    width = 6 if new else 5
    check_events(r, count)
    r.need(count * width, f"{plural(count, 'event')} of {width} bytes")

    def field(record: bytes, first: int, bits: int) -> int:
        value = 0
        for k in range(bits):
            byte, mask = perm[first + k]
            if record[byte] & mask:
                value |= 1 << k
        return value

    events: list[MouseEvent] = []
    before: tuple[int, int, int, int, int] | None = None
    for _ in range(count):
        record = r.take(width, "event")
        buttons = (field(record, 2, 1), field(record, 0, 1), field(record, 1, 1))  # left, right, middle
        if new:
            x, y = field(record, 14, 11) - 32, field(record, 3, 11) - 32
            ms = field(record, 25, 22)
        else:
            x, y = field(record, 12, 9), field(record, 3, 9)
            ms = field(record, 28, 10) * 1000 + field(record, 21, 7) * 10
        kinds = _changes(before, (x, y, *buttons))
        before = (x, y, *buttons)
        row, col = cell_of(x, y, _CELL, rows, cols)
        events.extend(MouseEvent(ms / 1000, kind, x, y, row, col) for kind in kinds)
    return events


def _changes(before: tuple[int, ...] | None, now: tuple[int, ...]) -> list[str]:
    """The events between two records: a move, then presses, then releases.

    The first record (``before`` None) gives one event: a press of the button
    down (middle, else right, else left), or a move.
    """
    x, y, left, right, middle = now
    if before is None:
        return ["mc" if middle else "rc" if right else "lc" if left else "mv"]
    bx, by, bleft, bright, bmiddle = before
    kinds = ["mv"] if (x, y) != (bx, by) else []
    kinds += [
        k
        for k, down, was in (("lc", left, bleft), ("rc", right, bright), ("mc", middle, bmiddle))
        if down and not was
    ]
    kinds += [
        k
        for k, down, was in (("lr", left, bleft), ("rr", right, bright), ("mr", middle, bmiddle))
        if was and not down
    ]
    return kinds


def _rtime(events: list[MouseEvent]) -> float | None:
    """From the first left release (the game's start) to the last event."""
    if not events:
        return None
    start = next((e.time for e in events if e.kind == "lr"), events[0].time)
    return round(events[-1].time - start, 3)
