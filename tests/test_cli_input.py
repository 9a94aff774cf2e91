"""Issue 9, defects 1-3: every bad input is one line and exit status 2, and a batch goes on."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from minesat.cli import app

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
runner = CliRunner()


def run(*args: str | Path, input: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


def one_line_error(result: Result) -> str:
    """The single ``minesat: ...`` line on stderr; no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_missing_file_directory_and_stdin_in_a_json_batch(tmp_path: Path) -> None:
    result = run("analyze", "--json", tmp_path / "nope.txt", tmp_path, PUZZLES / "partial.dat")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    given = [str(tmp_path / "nope.txt"), str(tmp_path), str(PUZZLES / "partial.dat")]
    assert [line["file"] for line in lines] == given
    assert "No such file" in lines[0]["error"] and "directory" in lines[1]["error"]
    assert lines[2]["safe"]  # the batch went on
    assert len(result.stderr.splitlines()) == 2


def test_stdin_is_read_as_text() -> None:
    result = run("analyze", "--json", "-", input=(PUZZLES / "partial.dat").read_text())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["mines"] == 10


def test_deep_json_is_one_line_for_every_reader(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 980 + "]" * 980)
    for command in (["analyze"], ["show"], ["convert"]):
        args = [*command, deep] + ([tmp_path / "out.txt"] if command == ["convert"] else [])
        result = run(*args)
        assert result.exit_code == 2
        assert "deep.json:1:" in one_line_error(result) and "nested too deeply" in result.stderr


def test_huge_header_numbers_point_at_the_value(tmp_path: Path) -> None:
    cases = {
        "big.txt": ("# mines: " + "9" * 4400 + "\n?1\n", "big.txt:1:10:"),
        "big.mine": ("1x1x" + "9" * 5000 + "\nH\n", "big.mine:1:5:"),
        "big.json": ('{"rows": 1, "cols": ' + "9" * 5000 + ', "cells": ["?"]}', "big.json:1:21:"),
    }
    for name, (content, where) in cases.items():
        (tmp_path / name).write_text(content)
        result = run("analyze", tmp_path / name)
        assert result.exit_code == 2
        assert where in one_line_error(result)


def test_a_layout_where_a_position_is_wanted_says_so() -> None:
    for name in ("mines.dat", "expert-late.mbf"):
        result = run("analyze", PUZZLES / name)
        assert result.exit_code == 2
        line = one_line_error(result)
        assert "layout" in line and "analyze wants a position" in line


def test_a_position_where_a_layout_is_wanted_says_so() -> None:
    result = run("solve", PUZZLES / "partial.dat")
    assert result.exit_code == 2
    line = one_line_error(result)
    assert "is a position" in line and "solve wants a layout" in line


def test_unknown_extension_names_the_file_once() -> None:
    result = run("analyze", "foo.xyz")
    assert result.exit_code == 2
    assert one_line_error(result).count("foo.xyz") == 1


def test_huge_option_values_are_one_line(tmp_path: Path) -> None:
    games = run("simulate", "--preset", "beginner", "--games", "9" * 30, "--db", tmp_path / "g.sqlite")
    assert games.exit_code == 2 and "--games must be between" in one_line_error(games)
    far = run("analyze", PUZZLES / "partial.dat", "--explain", "9" * 20 + ",1")
    assert far.exit_code == 2 and "off the 9x9 board" in one_line_error(far)
    assert ("9" * 20 + ",1") in far.stderr  # the cell as given, not a made-up name


def test_stdin_errors_name_stdin_once() -> None:
    result = run("show", "-", "--format", "mbf", input="")
    assert result.exit_code == 2
    line = one_line_error(result)
    assert line.startswith("minesat: <stdin>:1:1:") and line.count("stdin") == 1
