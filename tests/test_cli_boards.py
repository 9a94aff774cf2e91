"""``minesat show`` and ``minesat convert``: output, conversions, and one-line errors (exit 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from minesat.cli import app
from minesat.formats import read_layout, read_position

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
runner = CliRunner()


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def test_show_position_draws_the_board_with_the_mine_count() -> None:
    result = run("show", PUZZLES / "partial.dat")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "9x9 position, 10 mines, 3 flagged" in lines[0]
    assert lines[1].split() == [str(c) for c in range(1, 10)]
    assert lines[2] == "A       1 ? ? ? ? 1"
    assert lines[9].split() == ["H", "?", "?", "*", "1", "1", "1", "2", "2", "2"]


def test_show_layout_draws_mines_and_numbers() -> None:
    result = run("show", "--layout", PUZZLES / "mines.dat")
    assert result.exit_code == 0
    assert "9x9 layout, 10 mines" in result.stdout
    assert "A       1 * * 3 * 1" in result.stdout


def test_show_mbf_is_a_layout_and_format_overrides(tmp_path: Path) -> None:
    result = run("show", PUZZLES / "expert-late.mbf")
    assert result.exit_code == 0 and "16x30 layout, 99 mines" in result.stdout
    odd = tmp_path / "board.bin"
    odd.write_text("3x1x1\nH1F\n")
    result = run("show", "--format", "mine", odd)
    assert result.exit_code == 0 and "1x3 position, 1 mine, 1 flagged" in result.stdout


@pytest.mark.parametrize("ext", [".txt", ".mine", ".json", ".dat"])
def test_convert_position_round_trip(tmp_path: Path, ext: str) -> None:
    out = tmp_path / f"p{ext}"
    result = run("convert", PUZZLES / "partial.dat", out)
    assert result.exit_code == 0, result.output
    assert read_position(out) == read_position(PUZZLES / "partial.dat")


@pytest.mark.parametrize("ext", [".txt", ".mine", ".json", ".mbf"])
def test_convert_layout_round_trip(tmp_path: Path, ext: str) -> None:
    out = tmp_path / f"l{ext}"
    assert run("convert", "--layout", PUZZLES / "mines.dat", out).exit_code == 0
    assert read_layout(out) == read_layout(PUZZLES / "mines.dat")
    back = tmp_path / "back.dat"
    assert run("convert", "--layout", out, back).exit_code == 0
    assert read_layout(back) == read_layout(PUZZLES / "mines.dat")


def test_convert_with_explicit_formats(tmp_path: Path) -> None:
    out = tmp_path / "out.data"
    assert run("convert", "--to", "json", PUZZLES / "partial.dat", out).exit_code == 0
    assert run("convert", "--from", "json", "--to", "text", out, tmp_path / "x.out").exit_code == 0
    assert read_position(tmp_path / "x.out", "text") == read_position(PUZZLES / "partial.dat")


def one_line_error(result: Result, status: int = 2) -> str:
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("minesat: ")
    return lines[0]


BAD = [
    ("unknown-char.txt", "1?\n1x\n", ":2:2: unknown character"),
    ("flags.txt", "# mines: 1\n**\n", ":2:2: more flags than mines"),
    ("corner.txt", "4?\n??\n", ":1:1: number 4 is larger"),
    ("ragged.txt", "# cols: 2\n???\n", ":2:3:"),
    ("header.txt", "# mines: x\n??\n", ":1:10: bad header value"),
    ("empty.txt", "", ":1:1: empty"),
    ("ragged.mine", "2x2x1\nHH\nH\n", ":3:2:"),
    ("ragged.json", '{"rows": 1, "cols": 1, "cells": ["??"]}', ":1:36:"),
    ("bad.json", "{", ":1:2: bad JSON"),
]


@pytest.mark.parametrize(("name", "content", "where"), BAD)
def test_bad_input_is_one_line_with_file_line_column(
    tmp_path: Path, name: str, content: str, where: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    for args in (["show", path], ["convert", path, tmp_path / "out.txt"]):
        line = one_line_error(run(*args))
        assert f"{path}{where}" in line
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.parametrize(
    ("content", "where"),
    [(b"\x02\x02\x00\x02\x00\x00", ":1:7: truncated"), (b"\x02\x02\x00\x01\x05\x00", ":1:5: mine 1")],
)
def test_bad_mbf(tmp_path: Path, content: bytes, where: str) -> None:
    path = tmp_path / "bad.mbf"
    path.write_bytes(content)
    assert f"{path}{where}" in one_line_error(run("show", path))


def test_non_utf8_and_too_large(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("?1\n?é\n".encode("latin-1"))
    assert f"{bad}:2:2: not UTF-8" in one_line_error(run("show", bad))
    huge = tmp_path / "huge.txt"
    huge.write_text(("?" * 1001 + "\n") * 2)
    assert f"{huge}:1:1001: board too large" in one_line_error(run("show", huge))


def test_position_to_mbf_is_refused_without_output(tmp_path: Path) -> None:
    out = tmp_path / "p.mbf"
    line = one_line_error(run("convert", PUZZLES / "partial.dat", out))
    assert "layouts only" in line and "--layout" in line
    assert list(tmp_path.iterdir()) == []


def test_a_bad_file_is_named_once(tmp_path: Path) -> None:
    """An error that names its file (its path a field) is said as it is; one that does not (the
    format cannot hold the board) gets the file's path first: never none, never twice."""
    bad = tmp_path / "bad.txt"
    bad.write_text("1?\n1x\n")
    said = f"minesat: {bad}:2:2: unknown character 'x' (a position uses ? * F . 0-8)"
    assert one_line_error(run("show", bad)) == said
    assert one_line_error(run("convert", bad, tmp_path / "out.txt")) == said
    odd = tmp_path / "board.xyz"
    odd.write_text("??\n")
    assert one_line_error(run("show", odd)).startswith(f"minesat: {odd}: cannot tell the board format")
    out = tmp_path / "out.mine"
    totalless = tmp_path / "nototal.txt"
    totalless.write_text("1?\n??\n")
    assert one_line_error(run("convert", totalless, out)) == (
        f"minesat: {out}: a .mine file needs the total number of mines, and this position does not give it "
        "(add a '# mines: N' header)"
    )


def test_missing_file_unknown_extension_and_format(tmp_path: Path) -> None:
    assert "No such file" in one_line_error(run("show", tmp_path / "nope.txt"))
    odd = tmp_path / "board.xyz"
    odd.write_text("??\n")
    assert "board.xyz" in one_line_error(run("show", odd))
    assert "unknown board format" in one_line_error(run("show", "--format", "xml", odd))
    assert "out.xyz" in one_line_error(run("convert", PUZZLES / "partial.dat", tmp_path / "out.xyz"))


def test_a_failed_convert_keeps_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("x\n")
    one_line_error(run("convert", bad, out))
    assert out.read_text() == "old\n"


def test_real_process_exit_status_and_stderr(tmp_path: Path) -> None:
    bad = tmp_path / "corner.txt"
    bad.write_text("??\n?4\n")
    proc = subprocess.run(
        [sys.executable, "-c", "from minesat.cli import main; main()", "show", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"minesat: {bad}:2:2: number 4 is larger than its 3 neighbours\n"
