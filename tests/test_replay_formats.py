"""Replay readers: the sample files as their README describes them, ms-toollib's reading,
hand-built files for each format's corners, and mutated files that must fail in one line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from minesat.formats import BoardFormatError, UnsupportedFormatError, mvf
from minesat.formats import replay as replay_module
from minesat.formats.replay import (
    REPLAY_FORMATS,
    MouseEvent,
    Replay,
    ReplayFormatError,
    decode_text,
    parse_replay,
    read_replay,
    replay_format_for,
)
from minesat.replay import play_replay
from replay_samples import (
    NO_MS_TOOLLIB,
    NO_SAMPLES,
    SAMPLES,
    have_ms_toollib,
    ms_toollib_reading,
    readme_table,
    sample_files,
    sample_params,
)


def ms_toollib_events(replay: Replay) -> list[tuple[float, str, int, int]]:
    """Our events as ms-toollib lists them: it adds the left press Viennasweeper does not
    record before an RMV file's first event, and (RMV, MVF) puts events off the board at
    the board's bottom-right corner."""
    width, height = replay.cols * replay.cell_size, replay.rows * replay.cell_size
    clamp = replay.format in ("rmv", "mvf")
    out = [
        (e.time, e.kind, *((width, height) if clamp and e.cell is None else (e.x, e.y)))
        for e in replay.events
    ]
    first = next((i for i, e in enumerate(out) if e[1] != "pf"), None)
    if replay.format == "rmv" and first is not None:
        out.insert(first, (out[first][0], "lc", *out[first][2:]))
    return out


# --- the samples -----------------------------------------------------------------


@pytest.mark.parametrize("path", sample_params())
def test_sample_agrees_with_the_readme(path: Path) -> None:
    replay = read_replay(path)
    row = readme_table()[path.name]
    if row is None:  # ms-toollib aborts on it: a player name that is not UTF-8
        assert "\ufffd" in replay.metadata["player"]
        assert replay.metadata["player_encoding"] == "utf-8 (invalid bytes replaced)"
        twin = read_replay(path.with_name(path.name.replace("invalid", "basic")))
        assert (replay.layout, replay.events, replay.rtime) == (twin.layout, twin.events, twin.rtime)
        return
    assert replay.format == row["format"] == path.suffix[1:]
    assert (replay.rows, replay.cols) == (int(row["rows"]), int(row["cols"]))
    assert (replay.mines, replay.layout.mine_count) == (int(row["mines"]), int(row["placed"]))
    assert replay.layout.bbbv() == int(row["bbbv"])
    if replay.bbbv is not None:  # the 3BV the file states
        assert replay.bbbv == int(row["bbbv"])
    assert f"{replay.rtime:.3f}" == row["rtime"]
    if replay.completed is not None:  # AVF does not say
        assert str(replay.completed) == row["completed"]
    assert len(ms_toollib_events(replay)) == int(row["events"])


def test_player_names_and_their_encodings() -> None:
    if not SAMPLES.is_dir():
        pytest.skip(NO_SAMPLES)
    players = {p.name: read_replay(p).metadata.get("player") for p in sample_files()}
    assert players["vienna-rmv1_utf8_basic.rmv"] == "Thomas Kolar"
    assert (
        players["vienna-rmv1_utf8_nonascii.rmv"] == players["vienna-rmv2_utf8_nonascii.rmv"] == "aaȑaa Kolar"
    )
    # Without RMV 1's utf8 property the code page is unknown: GB18030 first, as ms-toollib.
    assert players["vienna-rmv1_noutf8_but_valid_utf8.rmv"] == "aa葢aa Kolar"
    assert players["arbiter-beginner-9s.avf"] == "王嘉宁"  # GBK bytes in the AVF footer
    assert players["metasweeper-36x60.evf"] == "Pu Tian Yi(Hu Bei)"
    assert players["clone-expert-38s.mvf"] == "Zhang Shen Jia(China)"


def test_the_same_reading_as_ms_toollib() -> None:
    if not SAMPLES.is_dir():
        pytest.skip(NO_SAMPLES)
    if not have_ms_toollib():
        pytest.skip(NO_MS_TOOLLIB)
    readings, _ = ms_toollib_reading()
    assert readings, "ms-toollib read no file"
    for name, theirs in readings.items():
        replay = read_replay(SAMPLES / name)
        assert (replay.rows, replay.cols, replay.mines) == (
            theirs["rows"],
            theirs["cols"],
            theirs["mines"],
        ), name
        assert sorted(replay.layout.mines) == sorted(map(tuple, theirs["mine_cells"])), name
        assert replay.cell_size == theirs["cell_size"], name
        assert replay.rtime == pytest.approx(theirs["rtime"], abs=1e-9), name
        assert replay.metadata.get("player", "") == theirs["player"], name
        ours = ms_toollib_events(replay)
        assert len(ours) == len(theirs["events"]), name
        for i, (a, b) in enumerate(zip(ours, theirs["events"], strict=True)):
            assert a[1:] == tuple(b[1:]) and a[0] == pytest.approx(b[0], abs=1e-9), (name, i, a, b)


def test_ms_toollibs_evf_transcodings_read_as_their_sources() -> None:
    """EVF versions 0, 2, 3 and 4, as ms-toollib writes them from the AVF, RMV and MVF samples."""
    if not SAMPLES.is_dir():
        pytest.skip(NO_SAMPLES)
    if not have_ms_toollib():
        pytest.skip(NO_MS_TOOLLIB)
    _, transcodings = ms_toollib_reading()
    assert {name.split("-")[0] for name in transcodings} == {"v0", "v2", "v3", "v4"}
    for name, data in transcodings.items():
        version, source = name.split("-", 1)
        if version == "v2":
            # ms-toollib writes version 0 in the first byte of its version 2 files (and then
            # cannot read them itself); the rest is version 2's layout.
            assert data[0] == 0
            data = bytes([2]) + data[1:]
        evf = parse_replay(data, "evf", name)
        original = read_replay(SAMPLES / source.removesuffix(".evf"))
        assert evf.layout == original.layout, name
        assert evf.rtime == pytest.approx(original.rtime, abs=1e-9), name
        assert evf.metadata["player"] == original.metadata["player"], name
        ours, theirs = play_replay(original), play_replay(evf)
        assert [(m.time, m.kind, m.cell) for m in theirs.moves] == [
            (m.time, m.kind, m.cell) for m in ours.moves
        ]
        assert theirs.metrics == ours.metrics, name


# --- hand-built files --------------------------------------------------------------


def rmv2(events: bytes, *, mines: list[tuple[int, int]] = [(0, 0)], cols: int = 2, rows: int = 1) -> bytes:  # noqa: B006
    """A minimal RMV 2 file: a ``cols`` x ``rows`` board, ``events`` then a win at 250 ms."""
    sizes = [0, 0, 0, 0, 7, 0]  # version info, player info, board, pre-flags, properties, extensions
    out = b"*rmv" + bytes([0, 2, 1, 5]) + bytes(4) + b"".join(s.to_bytes(2, "big") for s in sizes) + bytes(6)
    out += bytes(2) + bytes(4) + bytes([cols, rows]) + len(mines).to_bytes(2, "big")
    out += b"".join(bytes([c, r]) for r, c in mines)
    out += bytes([0, 0, 0, 3, 1, 0, 16]) + bytes(2)
    return out + events + bytes([16]) + (250).to_bytes(3, "big")


def rmv_mouse(code: int, ms: int, x: int, y: int) -> bytes:
    return (
        bytes([code])
        + ms.to_bytes(3, "big")
        + bytes([0])
        + x.to_bytes(2, "big", signed=True)
        + y.to_bytes(2, "big", signed=True)
    )


def test_rmv_short_moves_and_off_board_pointers() -> None:
    data = rmv2(
        rmv_mouse(3, 0, 20, 5) + bytes([28, 7, 0x1F]) + bytes([28, 7, 0x8F]) + rmv_mouse(1, 20, -3, 5)
    )
    replay = parse_replay(data, "rmv", "t.rmv")
    assert [(e.time, e.kind, e.x, e.y, e.cell) for e in replay.events] == [
        (0.0, "lr", 20, 5, (0, 1)),
        (0.007, "mv", 21, 4, (0, 1)),  # x + 1, y - 1
        (0.014, "mv", 13, 3, (0, 0)),  # x - 8, y - 1
        (0.02, "mv", -3, 5, None),  # left of the board
    ]
    assert replay.completed is True and replay.rtime == 0.25 and replay.bbbv == 1


def test_rmv_errors_name_the_byte() -> None:
    good = rmv2(rmv_mouse(3, 0, 20, 5))
    with pytest.raises(
        ReplayFormatError, match=r"^t\.rmv:byte 40: mine 1 at column 5, row 0 is outside the 1x2"
    ):
        parse_replay(rmv2(b"", mines=[(0, 5)]), "rmv", "t.rmv")
    with pytest.raises(ReplayFormatError, match=r"byte 51: unknown event code 8$"):
        parse_replay(good[:51] + bytes([8]) + good[52:], "rmv", "t.rmv")
    with pytest.raises(ReplayFormatError, match=r"byte 0: not an RMV file"):
        parse_replay(b"*avf" + good[4:], "rmv", "t.rmv")
    with pytest.raises(ReplayFormatError, match=r"truncated game time: needs 3 bytes, the file has 1 left"):
        parse_replay(good[:-2], "rmv", "t.rmv")
    with pytest.raises(ReplayFormatError, match=r"bad board size 0x2"):
        parse_replay(rmv2(b"", mines=[], rows=0), "rmv", "t.rmv")


def evf_v4(events: bytes, *, transcoded: bool = False) -> bytes:
    """A minimal EVF 4 file: a 1x2 board, mine in A1, 16-pixel cells."""
    out = bytes([4, 0x80 | (0x08 if transcoded else 0), 0x80, 1, 2]) + (1).to_bytes(2, "big") + bytes([16])
    out += bytes(2) + (1).to_bytes(2, "big") + (1234).to_bytes(4, "big") + b"AT" + bytes(16)
    out += b"Test 1.0\0" + (b"Meta 3.2\0gbk\0" if transcoded else b"") + "Jörg\0".encode() + b"\0\0"
    out += (3).to_bytes(2, "big") + b"abc" + bytes([0x80]) + (1).to_bytes(2, "big") + b"key\0"
    return out + events + bytes([0]) + (2).to_bytes(2, "big") + b"ok"


def test_evf_4_steps_pauses_and_other_events() -> None:
    events = bytes([2, 5]) + (20).to_bytes(2, "big") + (5).to_bytes(2, "big")  # lc at 5 ms, (20, 5)
    events += bytes([255]) + (1000).to_bytes(2, "big")  # a pause of 1 s
    events += bytes([3, 10]) + (-1).to_bytes(2, "big", signed=True) + (2).to_bytes(2, "big", signed=True)
    events += bytes([101, 1, 0, 1])  # a board event: cell_1 at row 0, column 1
    events += bytes([200, 1]) + (10000).to_bytes(2, "big") + bytes(8)  # a number metric
    events += bytes([201, 1]) + (10000).to_bytes(2, "big") + b"x\0"  # a string metric
    events += bytes([82, 3])  # win
    # 5 ms + 1 s pause + 10 ms, then 1 + 1 + 1 + 3 ms of non-mouse events, then 4 ms:
    events += bytes([1, 4]) + (100).to_bytes(2, "big", signed=True) + bytes(2)  # off the board
    replay = parse_replay(evf_v4(events), "evf", "t.evf")
    assert [(e.time, e.kind, e.x, e.y, e.cell) for e in replay.events] == [
        (0.005, "lc", 20, 5, (0, 1)),
        (1.015, "lr", 19, 7, (0, 1)),
        (1.025, "mv", 119, 7, None),
    ]
    assert (replay.rtime, replay.completed, replay.bbbv, replay.question_marks) == (1.234, True, 1, True)
    assert replay.metadata["player"] == "Jörg" and replay.metadata["country"] == "AT"
    transcoded = parse_replay(evf_v4(events, transcoded=True), "evf", "t.evf")
    assert transcoded.metadata["transcoded_by"] == "Meta 3.2" and transcoded.events == replay.events


def test_evf_errors_name_the_byte() -> None:
    good = evf_v4(bytes([2, 5]) + (20).to_bytes(2, "big") + (5).to_bytes(2, "big"))
    with pytest.raises(ReplayFormatError, match=r"^t\.evf:byte 0: unknown EVF version 9"):
        parse_replay(bytes([9]) + good[1:], "evf", "t.evf")
    with pytest.raises(ReplayFormatError, match=r"truncated checksum: needs 2 bytes, the file has 1 left"):
        parse_replay(good[:-1], "evf", "t.evf")
    with pytest.raises(ReplayFormatError, match=r"unknown event code 77"):
        parse_replay(good[:-5] + bytes([77, 0, 0]) + good[-5:], "evf", "t.evf")
    with pytest.raises(ReplayFormatError, match=r"2 mines do not fit a 1x1 board"):
        parse_replay(bytes([4, 0, 0, 1, 1, 0, 2]) + good[7:], "evf", "t.evf")


def mvf_2007(records: list[tuple[int, int, int, int, int, int]], seed: int = 4321) -> bytes:
    """A Clone 2007 file with one mine at column 2, row 1 of an 8x8 board; records are
    (ms, x, y, left, right, middle) and go through the file's bit permutation."""
    out = bytearray(b"\x11Minesweeper Clone\x092004-2007".ljust(53, b"\0"))
    out += b"\x042007".ljust(18, b"\0")
    out += bytes([3, 9]) + (2008).to_bytes(2, "big") + bytes([10, 20, 30, 1, 1])  # date, level, mode
    out += (1500).to_bytes(3, "big") + bytes([0, 8, 8]) + (1).to_bytes(2, "big") + bytes([2, 1])
    out += bytes([3]) + b"Bob" + seed.to_bytes(2, "big") + len(records).to_bytes(3, "big")
    perm = mvf._permutation(seed, True)
    for ms, x, y, left, right, middle in records:
        record = bytearray(6)
        bits = [right, middle, left]
        bits += [(y + 32) >> k & 1 for k in range(11)] + [(x + 32) >> k & 1 for k in range(11)]
        bits += [ms >> k & 1 for k in range(22)]
        for k, bit in enumerate(bits):
            if bit:
                byte, mask = perm[k]
                record[byte] |= mask
        out += record
    return bytes(out)


#: (ms, x, y, left, right, middle): a left click on B3 (moving while down), a right press off the board.
CLONE_RECORDS = [(0, 40, 24, 1, 0, 0), (35, 41, 24, 1, 0, 0), (90, 41, 24, 0, 0, 0), (1200, -5, 3, 0, 1, 0)]


def test_clone_2007_records() -> None:
    data = mvf_2007(CLONE_RECORDS)
    replay = parse_replay(data, "mvf", "t.mvf")
    assert [(e.time, e.kind, e.x, e.y, e.cell) for e in replay.events] == [
        (0.0, "lc", 40, 24, (1, 2)),
        (0.035, "mv", 41, 24, (1, 2)),
        (0.09, "lr", 41, 24, (1, 2)),
        (1.2, "mv", -5, 3, None),
        (1.2, "rc", -5, 3, None),
    ]
    assert replay.layout.mines == {(0, 1)} and replay.metadata["version"] == "2007"
    assert replay.rtime == 1.11 and replay.metadata["header_time"] == "1.500"
    assert replay.metadata["player"] == "Bob" and replay.completed is None


def test_clone_before_097_is_refused_in_one_line() -> None:
    with pytest.raises(ReplayFormatError, match=r"^old\.mvf:byte 0: not a Minesweeper Clone 0.97 or later"):
        parse_replay(bytes([8, 8, 0, 10]) + bytes(100), "mvf", "old.mvf")


def test_avf_errors_name_the_byte() -> None:
    with pytest.raises(ReplayFormatError, match=r"^a\.avf:byte 5: unknown level byte 9"):
        parse_replay(bytes([52, 1, 2, 3, 4, 9]) + bytes(40), "avf", "a.avf")
    with pytest.raises(ReplayFormatError, match=r"byte 6: mine 1 at row 9, column 1 is outside the 8x8"):
        parse_replay(bytes([52, 1, 2, 3, 4, 3, 9, 1]) + bytes(40), "avf", "a.avf")
    with pytest.raises(ReplayFormatError, match=r"no '\[level\|' header after the mines"):
        parse_replay(bytes([52, 1, 2, 3, 4, 3]) + bytes([1, 1] * 10) + bytes(40), "avf", "a.avf")


def test_choosing_the_reader_and_bad_input() -> None:
    assert replay_format_for("x/y.EVF") == "evf" and replay_format_for("x.bin", "AVF") == "avf"
    with pytest.raises(UnsupportedFormatError, match="cannot tell the replay format"):
        replay_format_for("game.txt")
    with pytest.raises(UnsupportedFormatError, match="unknown replay format 'zip'"):
        replay_format_for("game.avf", "zip")
    with pytest.raises(ReplayFormatError, match=r"^e\.rmv:byte 0: empty file: not an RMV replay$"):
        parse_replay(b"", "rmv", "e.rmv")
    with pytest.raises(ReplayFormatError, match=r"^e\.avf:byte 0: empty file: not an AVF replay$"):
        parse_replay(b"", "avf", "e.avf")
    assert issubclass(ReplayFormatError, BoardFormatError)  # the command line reports both alike


def test_files_past_the_size_cap_are_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_module, "MAX_REPLAY_BYTES", 100)
    (tmp_path / "big.evf").write_bytes(bytes(101))
    with pytest.raises(ReplayFormatError, match=r"byte 100: file too large: more than 100 bytes"):
        read_replay(tmp_path / "big.evf")


def test_decoding_never_fails() -> None:
    rng = random.Random(5)
    for _ in range(200):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(12)))
        for utf8 in (True, False, None):
            text, encoding = decode_text(raw, utf8)
            assert isinstance(text, str) and encoding


# --- mutated files -----------------------------------------------------------------


def mutations(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    """Truncations at many points, flipped bits and bytes, and header fields overwritten
    with 0, 255 or random values (board sizes, mine counts, lengths)."""
    out = [data[:cut] for cut in sorted({rng.randrange(len(data)) for _ in range(count)})]
    for _ in range(count):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        out.append(bytes(b))
    for _ in range(count):
        b = bytearray(data)
        at = rng.randrange(min(len(b), 80))
        b[at : at + 2] = bytes([rng.choice([0, 255, rng.randrange(256)]) for _ in range(2)])
        out.append(bytes(b))
    return out


def test_mutated_files_fail_in_one_line_through_every_reader() -> None:
    """The samples (when there) and the hand-built files above, mutated, through all four readers:
    each either reads (and then replays) or raises ReplayFormatError, one line naming the byte."""
    built = [
        rmv2(rmv_mouse(3, 0, 20, 5) + bytes([28, 7, 0x1F]) + rmv_mouse(2, 30, 3, 5) + rmv_mouse(3, 40, 3, 5)),
        evf_v4(bytes([2, 5]) + (20).to_bytes(2, "big") + bytes([0, 5, 3, 10]) + bytes(4) + bytes([82, 3])),
        mvf_2007(CLONE_RECORDS),
    ]
    sources = built + [
        path.read_bytes()[:8_000]  # the large files' headers and first events: keeps the test quick
        for path in sample_files()
        if "utf8_" not in path.name or "basic" in path.name  # the others are the same games
    ]
    rng = random.Random(20)
    tried = read = 0
    for data in sources:
        for mutated in mutations(data, rng, 12):
            for fmt in REPLAY_FORMATS:  # the file's own reader, and every other one
                tried += 1
                try:
                    replay = parse_replay(mutated, fmt, f"m.{fmt}")
                except ReplayFormatError as exc:
                    assert "\n" not in str(exc) and str(exc).startswith(f"m.{fmt}:byte "), str(exc)
                    continue
                read += 1
                game = play_replay(replay)  # whatever was read also replays without error
                assert all(isinstance(e, MouseEvent) for e in replay.events) and game.metrics.cl >= 0
    # Every mutation went through every reader, and a fair share of them still read (a flipped
    # byte in a mouse event is a valid file): the checks after a successful read ran too.
    assert tried >= len(sources) * 12 * len(REPLAY_FORMATS) and read > tried // 20, (read, tried)
