"""Issue 33: messages count in English ("1 mine does not fit", never "1 mines do not fit"),
say what helps ("allow more tries"), and a written replay names its player and program sensibly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from minesat.cli import app
from minesat.formats import BoardFormatError, parse_layout
from minesat.formats.replay import ByteReader, ReplayFormatError
from minesat.generate import check_mine_count

runner = CliRunner()


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def test_one_mine_that_does_not_fit() -> None:
    message = "1 mine does not fit on a 1x1 board with the safe rule at A1 (at most 0)"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_mine_count(1, 1, 1, start=(0, 0), rule="safe")
    result = run("simulate", "--rows", "1", "--cols", "1", "--mines", "1", "--first-click", "safe",
                 "--games", "1")
    assert result.exit_code == 2 and result.stderr == f"minesat: {message}\n"
    with pytest.raises(BoardFormatError, match="1 mine needs 6 bytes"):
        parse_layout(bytes([2, 2, 0, 1]), "x.mbf", "mbf")


def test_a_truncated_replay_needs_one_byte() -> None:
    with pytest.raises(ReplayFormatError, match="needs 1 byte, the file has 0 left"):
        ByteReader(b"", "x.rmv").need(1, "thing")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# mines: 1\n..\n", "A1: 1 mine remains but only 0 covered cells"),
        ("# mines: 2\n*1?\n", "A2: no layout places the 1 remaining mine"),
    ],
)
def test_one_remaining_mine(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.txt"
    path.write_text(text)
    result = run("analyze", path)
    assert result.exit_code == 1
    said = re.escape(f"inconsistent position: {message}") + "(?![a-z])"  # "mine", not "mines"
    assert re.search(said, result.stderr), result.stderr


def test_a_negative_header_number_is_said_to_be_negative(tmp_path: Path) -> None:
    path = tmp_path / "neg.txt"
    path.write_text("# mines: -2\n??\n")
    result = run("analyze", path)
    assert result.exit_code == 2
    assert result.stderr.endswith("bad header value '-2' for 'mines': expected a non-negative whole number\n")


def test_no_guess_boards_not_found_in_few_tries_ask_for_more_tries() -> None:
    result = run("generate", "--preset", "expert", "--count", "1", "--no-guess", "--max-tries", "1",
                 "--method", "rejection")
    assert result.exit_code == 2
    assert result.stderr.endswith("found in 1 try; allow more tries (--max-tries) or place fewer mines\n")


def test_one_class_of_starts_is_every_start_alike() -> None:
    result = run("perfect", "--rows", "1", "--cols", "2", "--mines", "1", "--first-click", "any")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "1x2 board, 1 mine, first click any at A1 (every start alike)"
    result = run("perfect", "--rows", "1", "--cols", "1", "--mines", "0")
    assert "perfect 1.0000 (1 of 1 layout)" in result.stdout and "searched 0 states" in result.stdout
    result = run("perfect", "--rows", "2", "--cols", "3", "--mines", "1", "--first-click", "any")
    assert "(the best of 2 start classes)" in result.stdout


@pytest.mark.parametrize("extension", ["rmv", "evf"])
def test_a_written_replay_names_its_player_and_program(tmp_path: Path, extension: str) -> None:
    from minesat import __version__

    layout = tmp_path / "l.txt"
    layout.write_text("*..\n...\n..*\n")
    replay = tmp_path / f"a.{extension}"
    assert run("solve", layout, "--start", "B2", "--save-replay", replay).exit_code == 0
    result = run("replay", replay)
    assert result.exit_code == 0, result.output
    game = result.stdout.splitlines()[1]
    assert game.startswith(f"Game: minesat (best strategy), minesat {__version__}, "), game
