"""No-guess generation: the proof-only check, rejection, repair, and ``minesat generate``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.analysis import Analyzer
from minesat.board import Layout
from minesat.cli import app
from minesat.formats.boardset import read_boardset
from minesat.generate import game_seed, generate_layout, kept_clear
from minesat.noguess import (
    Method,
    NoGuessError,
    generate_boards,
    generate_no_guess,
    solve_by_proof,
)
from minesat.player import SafestCell, play_game


def test_the_check_agrees_with_the_player() -> None:
    """Solved by proof exactly when the player wins without a single guess."""
    rng = random.Random(4)
    analyzer = Analyzer()
    seen = set()
    for _ in range(40):
        layout = generate_layout(9, 9, 10, start=(3, 3), rule="opening", rng=rng)
        solved = solve_by_proof(layout, (3, 3), analyzer=analyzer).solved
        record = play_game(layout, (3, 3), rule="opening")
        assert solved == (record.won and not record.guesses)
        seen.add(solved)
    assert seen == {True, False}


def test_a_mine_on_the_start_is_not_solved_under_any() -> None:
    layout = Layout.from_rows(["*  ", "   ", "   "])
    assert not solve_by_proof(layout, (0, 0), rule="any").solved
    assert solve_by_proof(layout, (2, 2), rule="any").solved


def test_expert_boards_are_won_by_the_safest_player_without_a_guess() -> None:
    boards = list(generate_boards(16, 30, 99, 3, start=(3, 3), seed=1, no_guess=True))
    assert [b.game for b in boards] == [0, 1, 2]
    for board in boards:
        assert board.method is Method.REJECTION and board.tries is not None and board.tries >= 1
        assert board.layout.mine_count == 99
        assert not kept_clear((3, 3), 16, 30, "opening") & board.layout.mines
        record = play_game(board.layout, (3, 3), strategy=SafestCell(), rule="opening")
        assert record.won and record.guesses == ()


def test_rejection_is_the_first_no_guess_draw_of_the_seed() -> None:
    """Uniform: the board is the first layout of its seed's stream that the check solves."""
    board = generate_no_guess(9, 9, 10, start=(3, 3), seed=77)
    rng = random.Random(77)
    draws = [generate_layout(9, 9, 10, start=(3, 3), rule="opening", rng=rng) for _ in range(board.tries)]
    assert draws[-1] == board.layout
    assert not any(solve_by_proof(d, (3, 3)).solved for d in draws[:-1])


def test_repair_makes_dense_boards_solvable_and_keeps_the_rule() -> None:
    for rule, start in (("opening", (3, 3)), ("safe", (0, 0))):
        board = generate_no_guess(9, 9, 24, start=start, rule=rule, seed=2, rejection_tries=0)
        assert board.method is Method.REPAIR
        assert board.layout.mine_count == 24
        assert not kept_clear(start, 9, 9, rule) & board.layout.mines
        record = play_game(board.layout, start, rule=rule)
        assert record.won and record.guesses == ()


def test_expert_sized_board_with_140_mines_by_repair() -> None:
    board = generate_no_guess(16, 30, 140, start=(3, 3), seed=0, rejection_tries=0)
    assert board.method is Method.REPAIR and board.layout.mine_count == 140
    assert solve_by_proof(board.layout, (3, 3)).solved


def test_same_seed_same_boards_and_plain_sets_match_simulate() -> None:
    a = list(generate_boards(9, 9, 12, 4, start=(2, 2), seed=9, no_guess=True))
    b = list(generate_boards(9, 9, 12, 4, start=(2, 2), seed=9, no_guess=True))
    assert a == b
    for board in generate_boards(9, 9, 12, 3, start=(2, 2), seed=9):
        seed = game_seed(9, 9, 12, "opening", (2, 2), 9, board.game)
        assert board.seed == seed
        assert board.layout == generate_layout(9, 9, 12, start=(2, 2), rule="opening", seed=seed)


def test_an_impossible_request_runs_out_of_budget() -> None:
    # Safe first click in a 2x2 corner with 2 mines: the start shows 2, and the one
    # safe cell among its three neighbours can never be told apart.
    with pytest.raises(NoGuessError, match="found in 30 tries"):
        generate_no_guess(2, 2, 2, start=(0, 0), rule="safe", seed=0, max_tries=30)


# --- the command line ------------------------------------------------------------------


def invoke(args: list[str]):
    return CliRunner().invoke(app, args)


def test_cli_writes_a_board_set(tmp_path: Path) -> None:
    out = tmp_path / "set.jsonl"
    result = invoke(["generate", "--preset", "beginner", "--count", "5", "--no-guess", "--seed", "4",
                     "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["game"] for line in lines] == list(range(5))
    assert all(line["method"] == "rejection" and line["tries"] >= 1 and "seed" in line for line in lines)
    assert "generated 5 no-guess 9x9/10 boards: 5 by rejection" in result.stderr
    for layout in read_boardset(out):
        record = play_game(layout, (3, 3), rule="opening")
        assert record.won and not record.guesses
    again = invoke(["generate", "--preset", "beginner", "--count", "5", "--no-guess", "--seed", "4"])
    assert again.stdout == out.read_text()


def test_cli_plain_set_to_stdout() -> None:
    result = invoke(["generate", "--rows", "5", "--cols", "6", "--mines", "4", "--count", "3"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3 and all("method" not in line and len(line["mines"]) == 4 for line in lines)
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rows", "2", "--cols", "2", "--mines", "2", "--first-click", "safe", "--start", "0,0",
          "--no-guess", "--max-tries", "20"], "no no-guess 2x2 layout with 2 mines"),
        (["--preset", "beginner", "--mines", "3"], "not both"),
        (["--rows", "3", "--cols", "3", "--mines", "9"], "do not fit"),
        (["--preset", "beginner", "--method", "magic", "--no-guess"], "--method must be one of"),
        (["--preset", "beginner", "--count", "-1"], "--count must be >= 0"),
        (["--preset", "beginner", "--time-limit", "5"], "--time-limit does nothing without --no-guess"),
        (["--preset", "beginner", "--no-guess", "--time-limit", "nan"], "--time-limit must be a number"),
    ],
)
def test_cli_bad_requests_are_one_line(args: list[str], message: str) -> None:
    if "--count" not in args:
        args = [*args, "--count", "2"]
    result = invoke(["generate", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ") and message in lines[0]


def test_cli_output_is_whole_or_absent(tmp_path: Path) -> None:
    out = tmp_path / "set.jsonl"
    result = invoke(["generate", "--rows", "2", "--cols", "2", "--mines", "2", "--first-click", "safe",
                     "--start", "0,0", "--no-guess", "--max-tries", "5", "--count", "1", "--out", str(out)])
    assert result.exit_code == 2
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_check_past_its_deadline_stops_before_its_next_analysis() -> None:
    layout = generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=5)
    assert solve_by_proof(layout, (3, 3)).rounds >= 1  # this one needs the full analysis
    with pytest.raises(TimeoutError):
        solve_by_proof(layout, (3, 3), deadline=time.monotonic() - 1)


def test_cli_time_limit_stops_the_set_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    """The impossible 2x2 request with tries to spare: only the clock stops it."""
    out = tmp_path / "set.jsonl"
    began = time.monotonic()
    result = invoke(["generate", "--rows", "2", "--cols", "2", "--mines", "2", "--first-click", "safe",
                     "--start", "0,0", "--no-guess", "--max-tries", "100000000", "--time-limit", "0.5",
                     "--count", "1", "--out", str(out)])
    assert time.monotonic() - began < 0.5 * 1.1 + 1
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: past --time-limit 0.5 s: 0 of 1 board made, "
                                                   "board 1 not found in ")
    assert not out.exists()


def test_cli_says_how_a_long_set_comes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from minesat.cli import generate as command

    monkeypatch.setattr(command._Progress, "EVERY", 0.0)  # a line after every layout
    result = invoke(["generate", "--preset", "expert", "--count", "3", "--no-guess", "--seed", "3"])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if line.startswith("minesat generate: ")]
    assert said and said[0].startswith("minesat generate: board 1 of 3, 1 layout tried for it, ")



def test_a_sets_time_limit_is_named_as_given() -> None:
    """A set shares one deadline; its refusal names the limit asked for, not the time left of it."""
    from minesat.noguess import NoGuessTimeout

    with pytest.raises(NoGuessTimeout, match=r"found within 0\.3 s \("):
        list(generate_boards(2, 2, 2, 2, start=(0, 0), rule="safe", no_guess=True, max_tries=10**8,
                             seconds=0.3))
