"""Board sets: JSON Lines layouts, read streamed, every bad line named by file:line:col."""

from __future__ import annotations

import hashlib
import io
import json
import random
import tracemalloc
from pathlib import Path

import pytest

from minesat.board import Layout
from minesat.formats import BoardFormatError
from minesat.formats.boardset import (
    format_board,
    iter_boardset,
    parse_board,
    read_boardset,
    scan_boardset,
    write_boardset,
)
from minesat.generate import generate_layout


def layouts(n: int, rows: int = 9, cols: int = 9, mines: int = 10) -> list[Layout]:
    return [generate_layout(rows, cols, mines, seed=s) for s in range(n)]


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    boards = [*layouts(20), Layout(1, 1), Layout(3, 2, frozenset({(2, 1)}))]
    path = tmp_path / "set.jsonl"
    with path.open("w") as out:
        assert write_boardset(boards, out) == len(boards)
    assert list(read_boardset(path)) == boards
    lines = path.read_text().splitlines()
    assert [json.loads(line)["game"] for line in lines] == list(range(len(boards)))
    assert [n for n, _ in iter_boardset(path)] == list(range(1, len(boards) + 1))


def test_extra_keys_and_whitespace_are_allowed() -> None:
    text = ' { "note": {"x": [1]}, "cols": 4 , "rows" : 2, "mines": [ [1, 3] ], "game": 5 }\n'
    assert parse_board(text, "s", 1) == Layout(2, 4, frozenset({(1, 3)}))


def test_the_same_layout_always_gives_the_same_line() -> None:
    a = Layout(4, 4, frozenset({(3, 3), (0, 1), (2, 0)}))
    b = Layout(4, 4, frozenset(sorted(a.mines, reverse=True)))
    assert format_board(a, seed=3) == format_board(b, seed=3)


def column_of(text: str, fragment: str) -> int:
    return text.index(fragment) + 1


@pytest.mark.parametrize(
    ("text", "fragment", "message"),
    [
        ('{"rows": 2, "cols": 2, "mines": [[0, 0]', None, "bad JSON"),
        ('[1, 2]', "[", "expected a JSON object"),
        ('{"rows": 2, "mines": []}', None, "missing key 'cols'"),
        ('{"rows": 2, "cols": "3", "mines": []}', '"3"', "bad value for 'cols'"),
        ('{"rows": true, "cols": 3, "mines": []}', "true", "bad value for 'rows'"),
        ('{"rows": 0, "cols": 3, "mines": []}', "0,", "bad value for 'rows'"),
        ('{"rows": 2, "cols": 3000, "mines": []}', "3000", "board too large"),
        ('{"rows": 2, "cols": 3, "mines": 4}', "4}", "'mines' must be a list"),
        ('{"rows": 2, "cols": 3, "mines": [[0, 0], [1]]}', "[1]", "mine 2 is not a [row, col] pair"),
        ('{"rows": 2, "cols": 3, "mines": [[0, 0], [1, 1.5]]}', "[1, 1.5]", "not a [row, col] pair"),
        ('{"rows": 2, "cols": 3, "mines": [[0, 0], [1, -1]]}', "[1, -1]", "off the 2x3 board"),
        ('{"rows": 2, "cols": 3, "mines": [[0, 3]]}', "[0, 3]", "mine [0, 3] is off the 2x3 board"),
        ('{"rows": 2, "cols": 3, "mines": [[1, 2], [0, 0], [1, 2]]}', "[1, 2]]", "listed twice"),
    ],
)
def test_bad_lines_name_line_and_column(text: str, fragment: str | None, message: str) -> None:
    with pytest.raises(BoardFormatError) as info:
        parse_board(text, "set.jsonl", 12)
    err = info.value
    assert (err.path, err.line) == ("set.jsonl", 12)
    assert message in err.message
    if fragment is not None:
        assert err.column == column_of(text, fragment)
    else:
        assert err.column >= 1
    assert str(err).startswith(f"set.jsonl:12:{err.column}: ")


def test_json_error_column_is_the_decoders() -> None:
    text = '{"rows": 2, "cols": 3 "mines": []}'
    with pytest.raises(BoardFormatError) as info:
        parse_board(text, "s", 1)
    assert info.value.column == column_of(text, '"mines"')


def test_file_errors_point_at_their_line(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    good = format_board(Layout(2, 2, frozenset({(0, 0)})))
    path.write_text(good + good + '{"rows": 2, "cols": 2, "mines": [[0, 0], [0, 0]]}\n' + good)
    with pytest.raises(BoardFormatError, match=r"set\.jsonl:3:\d+: mine \[0, 0\] is listed twice"):
        list(read_boardset(path))
    path.write_text(good + "\n" + good)
    with pytest.raises(BoardFormatError, match=r":2:1: empty line"):
        list(read_boardset(path))
    path.write_bytes(good.encode() + b'{"rows": 2, "cols": 2, "mines": [], "x": "\xff"}\n')
    with pytest.raises(BoardFormatError, match=r":2:\d+: not UTF-8"):
        list(read_boardset(path))


def test_scan_gives_digest_count_and_size(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    with path.open("w") as out:
        write_boardset(layouts(7), out)
    info = scan_boardset(path)
    assert info.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (info.count, info.rows, info.cols, info.mines) == (7, 9, 9, 10)


def test_scan_refuses_mixed_sizes_empty_sets_and_failed_checks(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text("".join(format_board(b) for b in [*layouts(2), *layouts(1, 9, 9, 11)]))
    with pytest.raises(BoardFormatError, match=r":3:1: board is 9x9 with 11 mines, but line 1"):
        scan_boardset(path)
    path.write_text("")
    with pytest.raises(BoardFormatError, match="empty board set"):
        scan_boardset(path)
    corner = Layout(2, 2, frozenset({(0, 0)}))
    other = Layout(2, 2, frozenset({(1, 1)}))
    path.write_text(format_board(other) * 2 + format_board(corner) + format_board(other))

    def no_mine_in_corner(layout: Layout) -> None:
        if (0, 0) in layout.mines:
            raise ValueError("mine in the corner")

    with pytest.raises(BoardFormatError, match=r":3:1: mine in the corner"):
        scan_boardset(path, no_mine_in_corner)
    path.write_text(format_board(other) * 2)
    assert scan_boardset(path, no_mine_in_corner).count == 2


def test_reading_streams(tmp_path: Path) -> None:
    """Memory for thousands of boards is what one board needs, not what the file holds."""
    path = tmp_path / "big.jsonl"
    rng = random.Random(0)
    # A long extra key makes the file large without making it slow to parse.
    note = "x" * 3000
    distinct = [format_board(generate_layout(9, 9, 10, rng=rng), note=note) for _ in range(50)]
    line_count = 1000
    with path.open("w") as out:
        out.writelines(distinct[i % 50] for i in range(line_count))
    size = path.stat().st_size
    assert size > 3_000_000
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_boardset(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == line_count
    assert peak < size / 10


def test_write_to_a_string_stream() -> None:
    out = io.StringIO()
    write_boardset(layouts(2), out)
    assert out.getvalue().count("\n") == 2
