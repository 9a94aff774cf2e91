"""Board files: every format round-trips, and every bad input names file, line and column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesat.board import COVERED, FLAG, MAX_SIDE, Layout, Position, neighbours
from minesat.formats import (
    MAX_BYTES,
    BoardFormatError,
    UnsupportedFormatError,
    format_for,
    format_layout,
    format_position,
    parse_layout,
    parse_position,
    read_layout,
    read_position,
    write_layout,
    write_position,
)

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
FORMATS = ["text", "mine", "mbf", "json"]
EXTENSION = {"text": ".txt", "mine": ".mine", "mbf": ".mbf", "json": ".json"}


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return Layout(rows, cols, frozenset(draw(st.sets(st.sampled_from(cells)))))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    states = []
    for r in range(rows):
        for c in range(cols):
            state = draw(st.integers(FLAG, 8))
            states.append(min(state, len(list(neighbours((r, c), rows, cols)))))
    flags = states.count(FLAG)
    mines = draw(st.none() | st.integers(flags, rows * cols))
    return Position(rows, cols, tuple(states), mines)


@given(layouts(), st.sampled_from(FORMATS))
def test_layouts_round_trip(layout: Layout, fmt: str) -> None:
    assert parse_layout(format_layout(layout, fmt), format=fmt) == layout


@given(positions(), st.sampled_from(["text", "json", "mine"]))
def test_positions_round_trip(position: Position, fmt: str) -> None:
    if fmt == "mine" and position.mines is None:
        with pytest.raises(UnsupportedFormatError, match="mine"):
            format_position(position, fmt)
        return
    assert parse_position(format_position(position, fmt), format=fmt) == position


@settings(max_examples=20)
@given(layouts())
def test_a_layout_written_to_text_reads_back_even_with_trailing_blanks_stripped(layout: Layout) -> None:
    text = format_layout(layout, "text")
    assert isinstance(text, str)
    stripped = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    assert parse_layout(stripped) == layout


def test_a_layout_read_as_a_position_through_mine_is_all_covered() -> None:
    layout = Layout.from_rows(["* ", " *"])
    position = parse_position(format_layout(layout, "mine"), format="mine")
    assert position == Position.covered(2, 2, 2)


def test_files_round_trip_in_every_format(tmp_path: Path) -> None:
    layout = read_layout(PUZZLES / "mines.dat")
    position = read_position(PUZZLES / "partial.dat")
    for fmt, ext in EXTENSION.items():
        write_layout(layout, tmp_path / f"l{ext}")
        assert read_layout(tmp_path / f"l{ext}") == layout
        if fmt != "mbf":
            write_position(position, tmp_path / f"p{ext}")
            assert read_position(tmp_path / f"p{ext}") == position
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_position_to_mbf_is_an_error_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedFormatError, match="layouts only"):
        write_position(Position.covered(2, 2, 1), tmp_path / "p.mbf")
    assert list(tmp_path.iterdir()) == []


def test_mbf_read_as_a_position_is_covered_with_the_count() -> None:
    position = parse_position(bytes([3, 2, 0, 2, 0, 0, 2, 1]), format="mbf")
    assert position == Position.covered(2, 3, 2)


def test_format_is_chosen_by_extension_and_overridable(tmp_path: Path) -> None:
    assert [format_for(f"x{e}") for e in (".txt", ".dat", ".mine", ".mbf", ".json", ".DAT")] == [
        "text",
        "text",
        "mine",
        "mbf",
        "json",
        "text",
    ]
    path = tmp_path / "board.weird"
    path.write_text('{"rows": 1, "cols": 2, "mines": 1, "cells": ["1?"]}')
    with pytest.raises(UnsupportedFormatError, match=r"board\.weird"):
        read_position(path)
    assert read_position(path, format="json").to_rows() == ["1?"]
    with pytest.raises(UnsupportedFormatError, match="unknown board format"):
        format_for("x.txt", "xml")


def test_exam_files() -> None:
    layout = read_layout(PUZZLES / "mines.dat")
    assert (layout.rows, layout.cols, layout.mine_count) == (9, 9, 10)
    assert (0, 4) in layout.mines and (8, 8) in layout.mines
    partial = read_position(PUZZLES / "partial.dat")
    assert partial.mines == 10
    assert partial.to_rows()[0] == "   1????1"
    assert partial.to_rows()[5] == "?1       "  # padded: the file strips trailing blanks
    assert read_layout(PUZZLES / "solution.dat") == layout  # a solved board is a layout


def test_every_puzzle_reads() -> None:
    files = sorted(PUZZLES.glob("*.txt")) + sorted(PUZZLES.glob("*.dat"))
    assert len(files) >= 10
    for path in files:
        if path.name.endswith(".layout.txt") or path.name == "mines.dat":
            read_layout(path)
        else:
            pos = read_position(path)
            assert pos.mines is not None, path
    expert = read_position(PUZZLES / "expert-mid.txt")
    assert read_position(PUZZLES / "expert-mid.mine") == expert
    assert (expert.rows, expert.cols, expert.mines) == (16, 30, 99)
    assert read_position(PUZZLES / "intermediate-mid.json") == read_position(PUZZLES / "intermediate-mid.txt")
    assert read_layout(PUZZLES / "expert-late.mbf") == read_layout(PUZZLES / "expert-late.layout.txt")


def test_generated_positions_agree_with_their_layouts() -> None:
    for path in PUZZLES.glob("*.layout.txt"):
        layout = read_layout(path)
        position = read_position(path.with_name(path.name.replace(".layout", "")))
        assert position.mines == layout.mine_count
        for cell in position.all_cells():
            if position[cell] == FLAG:
                assert cell in layout.mines
            elif position[cell] != COVERED:
                assert position[cell] == layout.count(cell)


def test_headers() -> None:
    pos = parse_position("# a comment\n# mines: 3\n#note: whatever\n?1\n??\n")
    assert pos.mines == 3 and pos.rows == 2
    pos = parse_position("# rows: 3\n# cols: 4\n?1\n")
    assert (pos.rows, pos.cols) == (3, 4)
    assert pos.to_rows() == ["?1  ", "    ", "    "]
    assert parse_position("?\r\n1\r\n\n\n").rows == 2  # CRLF and trailing empty lines


# --- bad input: (content, kind, line, column, words in the message) ------------

BAD_TEXT = [
    ("1?\n1x\n", "position", 2, 2, "unknown character"),
    ("# mines: 1\n**\n", "position", 2, 2, "more flags than mines"),
    ("4?\n??\n", "position", 1, 1, "larger than its 3 neighbours"),
    ("??\n?9\n", "position", 2, 2, "unknown character '9'"),
    ("?????\n?????\n????6\n", "position", 3, 5, "larger than its 3 neighbours"),
    ("# mines: ten\n??\n", "position", 1, 10, "bad header value"),
    ("# mines: 5\n??\n", "position", 1, 10, "does not fit"),
    ("# mines: 2\n# mines: 3\n??\n", "position", 2, 10, "twice"),
    ("# cols: 2\n???\n", "position", 2, 3, "cannot be padded"),
    ("# rows: 1\n?\n?\n", "position", 3, 1, "more rows"),
    ("# cols: 1001\n?\n", "position", 1, 9, "too large"),
    ("", "position", 1, 1, "empty"),
    ("\n\n# mines: 0\n\n", "layout", 1, 1, "empty"),
    ("# mines: 2\n*  \n", "layout", 1, 10, "the layout has 1"),
    ("?" * (MAX_SIDE + 1) + "\n", "layout", 1, MAX_SIDE + 1, "too large"),
    ("\n".join(["?"] * (MAX_SIDE + 1)) + "\n", "position", MAX_SIDE + 1, 1, "too large"),
]

BAD_MINE = [
    ("", "position", 1, 1, "empty"),
    ("2x2\nHH\nHH\n", "position", 1, 1, "WxHxM"),
    ("2x2x5\nHH\nHH\n", "position", 1, 5, "does not fit"),
    ("2x2x1\nHH\n", "position", 3, 1, "truncated"),
    ("2x2x1\nHH\nH\n", "position", 3, 2, "1 cell wide"),
    ("2x2x1\nHH\nHHH\n", "position", 3, 3, "3 cells wide"),
    ("2x2x1\nHH\nHX\n", "position", 3, 2, "unknown character"),
    ("2x2x1\nFF\nHH\n", "position", 2, 2, "more flags than mines"),
    ("2x2x1\n4H\nHH\n", "position", 2, 1, "larger than"),
    ("2x2x2\nMH\nHH\n", "layout", 1, 5, "marks 1"),
    ("2x1001x1\n", "layout", 1, 3, "too large"),
]

BAD_JSON = [
    ('{"rows": 1, "cols": 2,', "position", 1, 23, "bad JSON"),
    ("[1, 2]", "position", 1, 1, "JSON object"),
    ('{"rows": 1, "cols": 2}', "position", 1, 1, "missing key 'cells'"),
    ('{"rows": 0, "cols": 2, "cells": []}', "position", 1, 10, "'rows'"),
    ('{"rows": 1, "cols": 2000, "cells": ["?"]}', "position", 1, 21, "too large"),
    ('{"rows": 1, "cols": 2, "mines": "x", "cells": ["??"]}', "position", 1, 33, "'mines'"),
    ('{"rows": 2, "cols": 2, "cells": ["??"]}', "position", 1, 33, "has 1 row,"),
    ('{"rows": 1, "cols": 2,\n "cells": ["???"]}', "position", 2, 15, "cannot be padded"),
    ('{"rows": 1, "cols": 2,\n "cells": ["?x"]}', "position", 2, 14, "unknown character"),
    ('{"rows": 1, "cols": 2, "mines": 0, "cells": ["*?"]}', "position", 1, 47, "more flags"),
    ('{"rows": 1, "cols": 2, "mines": 3, "cells": ["* "]}', "layout", 1, 33, "the layout has 1"),
]

BAD_MBF = [
    (b"", "layout", 1, 1, "empty"),
    (b"\x02\x02\x00", "layout", 1, 4, "truncated"),
    (b"\x00\x02\x00\x00", "layout", 1, 1, "width 0"),
    (b"\x02\x02\x00\x05", "layout", 1, 3, "do not fit"),
    (b"\x02\x02\x00\x02\x00\x00\x01", "layout", 1, 8, "truncated"),
    (b"\x02\x02\x00\x01\x00\x00\x07", "layout", 1, 7, "1 extra byte after the 1 mine"),
    (b"\x02\x02\x00\x01\x02\x00", "layout", 1, 5, "outside"),
    (b"\x02\x02\x00\x01\x00\x05", "position", 1, 6, "outside"),
    (b"\x02\x02\x00\x02\x00\x00\x00\x00", "layout", 1, 7, "listed twice"),
]

CASES = (
    [("text", *case) for case in BAD_TEXT]
    + [("mine", *case) for case in BAD_MINE]
    + [("json", *case) for case in BAD_JSON]
    + [("mbf", *case) for case in BAD_MBF]
)


@pytest.mark.parametrize(("fmt", "content", "kind", "line", "column", "words"), CASES)
def test_bad_input_names_line_and_column(
    tmp_path: Path, fmt: str, content: str | bytes, kind: str, line: int, column: int, words: str
) -> None:
    path = tmp_path / f"bad{EXTENSION[fmt]}"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    reader = read_layout if kind == "layout" else read_position
    with pytest.raises(BoardFormatError) as info:
        reader(path)
    err = info.value
    assert (err.path, err.line, err.column) == (str(path), line, column), str(err)
    assert words in err.message
    assert str(err) == f"{path}:{line}:{column}: {err.message}"
    assert "\n" not in str(err)
    assert isinstance(err, ValueError)


def test_non_utf8_is_refused_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"??\n?\xff\n")
    with pytest.raises(BoardFormatError, match=r"bad.txt:2:2: not UTF-8"):
        read_position(path)


def test_a_huge_file_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with open(path, "wb") as f:
        f.seek(10 * MAX_BYTES)  # a sparse 10 MB file of zero bytes
        f.write(b"\n")
    with pytest.raises(BoardFormatError, match="file too large"):
        read_position(path)


def test_json_error_columns_point_into_row_strings() -> None:
    text = json.dumps({"rows": 2, "cols": 3, "mines": None, "cells": ["?1?", "?7?"]}, indent=2)
    with pytest.raises(BoardFormatError) as info:
        parse_position(text, "b.json", "json")
    lines = text.splitlines()
    assert lines[info.value.line - 1][info.value.column - 1] == "7"
