"""``minesat solve``: moves with reasons, JSON, the oracle, and one-line errors (SPEC section 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.cli import app

#: The exam layout file (10 mines on 9x9).
MINES_DAT = Path(__file__).resolve().parents[1] / "puzzles" / "mines.dat"

runner = CliRunner()


@pytest.fixture
def layout_file(tmp_path: Path) -> Path:
    path = tmp_path / "mines.dat"
    path.write_bytes(MINES_DAT.read_bytes())
    return path


def solve(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["solve", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_json_has_the_promised_keys(layout_file: Path) -> None:
    code, out, _ = solve(layout_file, "--start", "A1", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"won", "moves", "guesses", "bbbv", "seconds", "uncovered", "steps"} <= set(data)
    assert data["won"] is True
    assert data["moves"][0] == "A1"
    # No rule protects a puzzle file's first click by default: it is the one guess.
    assert data["guesses"] == [{"move": "A1", "probability": 10 / 81}]
    assert data["rule"] == "any"
    assert {s["reason"] for s in data["steps"]} == {"guess", "proven safe", "proven mine"}
    assert [s["move"] for s in data["steps"]] == data["moves"]


def test_start_as_row_col_is_the_same_cell(layout_file: Path) -> None:
    by_name = json.loads(solve(layout_file, "--start", "A1", "--json")[1])
    by_pair = json.loads(solve(layout_file, "--start", "0,0", "--json")[1])
    assert by_name["moves"] == by_pair["moves"]


def test_text_prints_each_move_with_its_reason(layout_file: Path) -> None:
    code, out, _ = solve(layout_file, "--start", "A1", "--first-click", "opening")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["1.", "A1", "first", "click"]
    assert any(line.split()[1:] == ["A5*", "proven", "mine"] for line in lines)
    assert any(line.split()[1:] == ["A7", "proven", "safe"] for line in lines)
    assert any(line.startswith("Won: 21 moves, 0 guesses, 3BV 11") for line in lines)


def test_a_guess_shows_its_probability(tmp_path: Path) -> None:
    path = tmp_path / "fifty.txt"
    path.write_text("* \n  \n")
    code, out, _ = solve(path, "--start", "B2", "--first-click", "safe")
    assert code == 0
    assert "guess, mine probability 33.3%" in out
    assert out.count("\n") > 2  # the board is drawn too


def test_default_start_is_clipped_to_the_board(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text("*  \n   \n")
    data = json.loads(solve(path, "--json")[1])
    assert data["start"] == "B3"  # 3,3 clipped to a 2x3 board


def test_oracle(layout_file: Path) -> None:
    code, out, _ = solve(layout_file, "--start", "A1", "--oracle")
    assert code == 0
    assert out.splitlines()[-1] == "1 risky move from A1 (any rule)."
    code, out, _ = solve(layout_file, "--start", "A1", "--oracle", "--json")
    data = json.loads(out)
    assert data["count"] == 1
    assert data["risky"] == [{"move": "A1", "probability": 10 / 81, "uncovers": 71}]
    data = json.loads(solve(layout_file, "--start", "A1", "--oracle", "--json",
                            "--first-click", "opening")[1])
    assert data["count"] == 0


def test_format_option(tmp_path: Path) -> None:
    path = tmp_path / "board.layout"
    path.write_bytes(MINES_DAT.read_bytes())
    code, _, err = solve(path, "--start", "A1")
    assert code == 2 and "extension" in err
    code, out, _ = solve(path, "--start", "A1", "--format", "text", "--json")
    assert code == 0 and json.loads(out)["won"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--start", "A1", "--first-click", "sometimes"], "--first-click must be one of"),
        (["--start", "Z99"], "off the 9x9 board"),
        (["--start", "A1!"], "--start: not a cell"),
        (["--start", "A1", "--strategy", "nope"], "--strategy: unknown strategy 'nope'"),
        (["--start", "A5", "--first-click", "safe"], "breaks the safe first-click rule at A5"),
        (["--start", "A4", "--first-click", "opening"], "breaks the opening first-click rule"),
        (["--start", "A5", "--oracle"], "cannot start on the mine at A5"),
    ],
)
def test_bad_options_fail_in_one_line(layout_file: Path, args: list[str], message: str) -> None:
    code, out, err = solve(layout_file, *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1 and err.startswith("minesat: ")


def test_bad_files_fail_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    code, _, err = solve(missing)
    assert code == 2 and "missing.txt" in err and err.count("\n") == 1
    ragged = tmp_path / "bad.mbf"
    ragged.write_bytes(b"\x09\x09\x00\x05\x01")
    code, _, err = solve(ragged)
    assert code == 2 and "bad.mbf" in err and err.count("\n") == 1


# --- issue 50: a memory budget and progress, as analyze has -------------------------------------


def test_past_the_memory_budget_the_game_stops_with_its_moves_so_far(layout_file: Path) -> None:
    """A budget of 1 MB is past before the first move is made: a work count, not a time."""
    code, out, err = solve(layout_file, "--start", "A1", "--max-memory", "1")
    assert code == 1
    assert err.startswith("minesat: past the memory budget of 1 MB: the game stopped after ")
    assert err.endswith("; raise --max-memory\n") and err.count("\n") == 1
    moves = int(err.split(" after ")[1].split(" move")[0])
    assert out.splitlines() == [line for line in out.splitlines() if line.strip()[0].isdigit()]
    assert len(out.splitlines()) == moves
    code, out, err = solve(layout_file, "--start", "A1", "--max-memory", "1", "--json")
    assert code == 1 and json.loads(out)["error"] == err.removeprefix("minesat: ").rstrip("\n")
    assert solve(layout_file, "--start", "A1", "--max-memory", "0")[0] == 0  # 0: no limit


def test_a_negative_memory_budget_is_refused(layout_file: Path) -> None:
    assert solve(layout_file, "--max-memory", "-5") == (
        2, "", "minesat: --max-memory must be >= 0 megabytes, not -5\n")


def test_a_long_game_says_how_it_is_coming_on(capsys: pytest.CaptureFixture[str]) -> None:
    """Off a terminal a line every 10 s of the game (a fake clock: a reading per move)."""
    from minesat.board import Move
    from minesat.cli.common import ProgressLine
    from minesat.cli.solve import _Played
    from minesat.player import Step
    from minesat.verdict import Verdict

    clock = iter([0.0, 4.0, 10.5, 12.0]).__next__
    steps = _Played(ProgressLine("solve", live=False, clock=clock))
    steps.append(Step(Move.parse("A1"), Verdict.GUESS, 0.1))
    steps.append(Step(Move.parse("A2"), Verdict.SAFE))
    steps.append(Step(Move.parse("B2*"), Verdict.MINE))
    assert capsys.readouterr().err == "minesat solve: 2 moves, 1 guess, 10 s\n"
    assert [str(s.move) for s in steps] == ["A1", "A2", "B2*"]


def test_the_memory_watch_stops_work_that_has_no_checkpoint() -> None:
    """Past the budget the watch raises in the main thread wherever the work is (here a loop that
    never checks), then puts SIGUSR1's handler back; a block within its budget ends untouched."""
    import signal

    from minesat.budget import OutOfMemory
    from minesat.cli.common import memory_watch

    before = signal.getsignal(signal.SIGUSR1)
    turns, most = 0, 10**10
    with pytest.raises(OutOfMemory), memory_watch(1, every=0.001):
        for turns in range(most):  # noqa: B007  (how far it got is the point)
            pass
    assert turns < most and signal.getsignal(signal.SIGUSR1) is before
    with memory_watch(10**15, every=0.001):
        total = sum(range(100_000))
    assert total == 4999950000 and signal.getsignal(signal.SIGUSR1) is before
