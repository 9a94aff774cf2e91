"""Issue 9, defects 8-9 and 11: output people cannot misread, and play that says why."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from minesat.analysis import analyze
from minesat.board import Position
from minesat.cli import app
from minesat.cli.analyze import best_guess, render_analysis

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
runner = CliRunner()
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(*args: str | Path, input: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


def test_probabilities_carry_a_percent_sign_and_numbers_do_not(tmp_path: Path) -> None:
    result = run("analyze", PUZZLES / "expert-mid.txt")
    assert result.exit_code == 0
    board = result.stdout.splitlines()[2:18]
    cells = [cell for line in board for cell in line[1:].split()]
    numbers = [c for c in cells if c.isdigit()]
    percents = [c for c in cells if c.endswith("%")]
    assert numbers and percents
    assert all(1 <= int(c) <= 8 for c in numbers)
    assert all(1 <= int(c[:-1]) <= 99 for c in percents)


def test_colour_keeps_the_alignment() -> None:
    from minesat.formats import read_position

    position = read_position(PUZZLES / "intermediate-mid.json")
    analysis = analyze(position)
    coloured = render_analysis(position, analysis, colour=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == render_analysis(position, analysis)


def test_best_guess_when_nothing_is_certain(tmp_path: Path) -> None:
    board = tmp_path / "open.txt"
    board.write_text("# mines: 3\n????\n?2??\n????\n")
    result = run("analyze", board)
    assert result.exit_code == 0
    analysis = analyze(Position.from_rows(["????", "?2??", "????"], mines=3))
    guess = best_guess(analysis)
    assert guess is not None and not analysis.safe
    p = analysis.probability[guess[0][0]][guess[0][1]]
    assert p == min(analysis.probability[r][c] for r, c in analysis.unknown)  # type: ignore[type-var]
    assert "best guess: " in result.stdout


def test_explain_on_an_uncertain_cell_answers_with_its_probability() -> None:
    result = run("analyze", PUZZLES / "expert-early.txt", "--explain", "A1")
    assert result.exit_code == 0, result.output
    assert "A1 is uncertain" in result.stdout and "%" in result.stdout
    result = run("analyze", "--json", PUZZLES / "expert-early.txt", "--explain", "A1")
    payload = json.loads(result.stdout)
    assert result.exit_code == 0 and payload["certain"] is False and 0 < payload["probability"] < 1


def test_play_numbers_cells_from_1_refuses_junk_and_says_why() -> None:
    script = "uncover 4 4\nclearC8+\nchord 1 1\nflag 4 4\nhint\nquit\n"
    result = run("play", "--seed", "1", input=script)
    assert result.exit_code == 0
    out = result.stdout
    assert "uncover D4: valid" in out
    assert "error: unknown command 'clearC8+'" in out
    assert "flag D4: refused: D4 is uncovered" in out
    assert "chord A1: refused: A1" in out
    hint = out[out.index("flag D4: refused") :]
    assert "safe: " in hint and "mines: " in hint  # the hint's analysis


def test_version_short_help_and_completion() -> None:
    from minesat import __version__

    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.stdout
    assert run("analyze", "-h").exit_code == 0
    assert "--install-completion" in run("--help").stdout
    assert "<bool>" not in run("analyze", "--help").stdout


def test_a_lost_solve_does_not_print_a_survival_chance(tmp_path: Path) -> None:
    # Under --first-click any the first click is a guess: A5 of mines.dat is a mine.
    result = run("solve", PUZZLES / "mines.dat", "--start", "A5")
    assert result.exit_code == 0, result.output
    assert "Lost" in result.stdout
    assert "chance they were all safe" not in result.stdout
