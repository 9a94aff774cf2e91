"""Minesweeper Arbiter replays (``.avf``), as Arbiter 0.52 writes them.

The layout, reverse-engineered by the community (ms-toollib, RAWVF):

- byte 0 the format version, bytes 1-4 random, byte 5 the level: 3 beginner
  (8x8, 10 mines), 4 intermediate (16x16, 40), 5 expert (16x30, 99), 6 custom,
  followed by width - 1, height - 1 (one byte each) and the mine count (2 bytes);
- per mine one byte row and one byte column, 1-based;
- some bytes of checksum, then a bracketed text header such as
  ``[0|26.10.2022.23:13:27:2236|26.23:13:29:7764|B7T3.52]``: level digit,
  (custom: ``W8H11M7``), start and end timestamps, 3BV after ``B`` and the
  time after ``T`` (Arbiter's clock starts at 1, so the game took T - 1 s).
  The byte two before ``[`` is 17 when question marks were on, 127 when off;
- a few bytes, then the mouse events, 8 bytes each: code, x high, seconds low,
  x low, hundredths, y high, seconds high, y low. The code's bits say what
  happened (2 left press, 4 left release, 8 right press, 16 right release,
  32 middle press, 64 middle release; bit 0 is always set). A record whose
  seconds are 0 ends the list (the clock starts at 1);
- a text footer of lines ending in ``\\r``: ``RealTime: ...``, ``Skin: ...``,
  the player's name, the program's name and version.

The header's time is wrong in some files (one sample says 3.61 for a 14.52 s
game, and so does its ``RealTime`` line); when it is shorter than the events
show, the time is taken from the events: from the first left release to the
last event, as ms-toollib does.
"""

from __future__ import annotations

import re

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

#: Level byte -> (rows, cols, mines); 6 is custom (sizes follow in the file).
_LEVELS = {3: (8, 8, 10), 4: (16, 16, 40), 5: (16, 30, 99)}
_CUSTOM = 6
#: Code bits, in the order events are listed when one record holds several.
_BITS = ((2, "lc"), (8, "rc"), (32, "mc"), (4, "lr"), (16, "rr"), (64, "mr"))
_HEADER = re.compile(rb"\[([0-3])\|")
#: How far past the bracketed header the first event may start.
_EVENTS_WITHIN = 64
_CELL = 16


def read(r: ByteReader) -> Replay:
    version = r.u8("version byte")
    r.skip(4, "header")
    level_at = r.pos
    level = r.u8("level byte")
    if level in _LEVELS:
        rows, cols, declared = _LEVELS[level]
    elif level == _CUSTOM:
        cols = r.u8("custom width") + 1
        rows = r.u8("custom height") + 1
        declared = r.u16("custom mine count")
    else:
        raise r.error(f"unknown level byte {level} (3-6: beginner, intermediate, expert, custom)", level_at)
    check_board(r, rows, cols, declared, level_at)
    r.need(2 * declared, f"list of {plural(declared, 'mine')}")
    mines = set()
    for i in range(declared):
        row, col = r.data[r.pos], r.data[r.pos + 1]
        if not (1 <= row <= rows and 1 <= col <= cols):
            raise r.error(
                f"mine {i + 1} at row {row}, column {col} is outside the {rows}x{cols} board (1-based)"
            )
        mines.add((row - 1, col - 1))
        r.pos += 2
    layout = Layout(rows, cols, frozenset(mines))

    header = _HEADER.search(r.data, r.pos)
    if header is None:
        raise r.error("no '[level|' header after the mines")
    marks = {17: True, 127: False}.get(r.data[header.start() - 2]) if header.start() >= 2 else None
    close = r.data.find(b"]", header.end(), header.end() + 256)
    if close < 0:
        raise r.error("the '[...' header has no closing ']' within 256 bytes", header.start())
    fields = _parse_header(r, r.data[header.end() : close].decode("latin-1"), level == _CUSTOM, header.end())

    r.pos = close + 1
    events = _read_events(r, rows, cols)
    meta = {"program": "Arbiter", "level": level_name(rows, cols, declared), "format_version": str(version)}
    meta.update({k: v for k, v in fields.items() if k in ("date", "start_time", "end_time")})
    meta.update(_read_footer(r.data, r.pos))

    rtime = _rtime(events, fields.get("time"))
    if "time" in fields:
        meta["header_time"] = fields["time"]
    bbbv = int(fields["bbbv"]) if "bbbv" in fields else None
    return Replay(
        format="avf",
        path=r.path,
        layout=layout,
        mines=declared,
        events=tuple(events),
        rtime=rtime,
        completed=None,
        bbbv=bbbv,
        cell_size=_CELL,
        question_marks=marks,
        metadata=meta,
    )


def _parse_header(r: ByteReader, text: str, custom: bool, at: int) -> dict[str, str]:
    """The bracketed header's fields, e.g. ``26.10.2022.23:13:27:2236|26.23:13:29:7764|B7T3.52``.

    The end timestamp is cut at ``|`` or at ``B`` (some files lack the ``|``);
    3BV and time are the last ``B<digits>T<number>`` (a comma may be the decimal point).
    """
    parts = text.split("|")
    if custom and parts and re.fullmatch(r"W\d+H\d+M\d+", parts[0]):
        parts = parts[1:]
    if len(parts) < 2:
        raise r.error(f"header {text!r} lacks the start and end timestamps", at)
    out = {"start_time": parts[0]}
    rest = "|".join(parts[1:])
    out["end_time"] = re.split(r"[|B]", rest, maxsplit=1)[0]
    stats = re.search(r"B(\d{1,6})T(\d{1,6}[.,]?\d*)$", rest)
    if stats:
        out["bbbv"] = stats.group(1)
        out["time"] = f"{float(stats.group(2).replace(',', '.')) - 1:.3f}"
    date = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})\.(\d{1,2}):(\d{1,2}):(\d{1,2}):\d+", parts[0])
    if date:
        day, month, year, hour, minute, second = (int(g) for g in date.groups())
        out["date"] = f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d}"
    return out


def _read_events(r: ByteReader, rows: int, cols: int) -> list[MouseEvent]:
    """The 8-byte event records, from the first one after the header to the end record."""
    data = r.data
    # The first record's seconds are 1 (the clock starts at 1) and its x high byte is
    # 0 or 1: find that pattern in the few bytes after the header, as other readers do.
    start = r.pos
    while True:
        if r.pos + 2 >= len(data) or r.pos - start > _EVENTS_WITHIN:
            raise r.error("no mouse events found after the header", start)
        if data[r.pos + 2] == 1 and data[r.pos + 1] <= 1:
            break
        r.pos += 1
    events: list[MouseEvent] = []
    while True:
        at = r.pos
        record = r.take(8, "event record (the list has no end record)")
        code, x_hi, sec_lo, x_lo, hundredths, y_hi, sec_hi, y_lo = record
        seconds = sec_hi << 8 | sec_lo
        if seconds == 0:
            return events
        if code & 1 == 0:
            raise r.error(f"unknown event code {code}", at)
        if hundredths > 99:
            raise r.error(f"bad hundredths of a second {hundredths} in an event", at + 4)
        # Milliseconds first, then seconds: 1.07 stays 1.07, not 1.0700000000000001.
        time = ((seconds - 1) * 1000 + hundredths * 10) / 1000
        x, y = x_hi << 8 | x_lo, y_hi << 8 | y_lo
        row, col = cell_of(x, y, _CELL, rows, cols)
        # Code 1 (no button bit) is a move; a record with several bits is several events.
        for kind in [kind for bit, kind in _BITS if code & bit] or ["mv"]:
            events.append(MouseEvent(time, kind, x, y, row, col))
        check_events(r, len(events))


def _read_footer(data: bytes, start: int) -> dict[str, str]:
    """Player and program version from the footer lines, where present (never an error)."""
    meta: dict[str, str] = {}
    skin = data.find(b"Skin:", start)
    if skin < 0:
        return meta
    lines = data[skin:].split(b"\r")
    if len(lines) > 1 and lines[1]:
        meta["player"], encoding = decode_text(lines[1][:256], None)
        meta["player_encoding"] = encoding
    program = re.search(rb"Minesweeper Arbiter (\d+(?:\.\d+)*)", data[skin:])
    if program:
        meta["version"] = program.group(1).decode()
    real = re.search(rb"RealTime: ([\d.,]+)", data[start:])
    if real:
        meta["real_time"] = real.group(1).decode()
    return meta


def _rtime(events: list[MouseEvent], header: str | None) -> float | None:
    """The header's time, unless it is shorter than the events show (then the events')."""
    if not events:
        return float(header) if header is not None else None
    first_release = next((e.time for e in events if e.kind == "lr"), events[0].time)
    from_events = round(events[-1].time - first_release, 3)
    if header is not None and float(header) + 1e-6 >= events[-1].time:
        return float(header)
    return from_events
