"""No-guess generation: the proof-only check, rejection, repair, and ``minesat generate``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fakeclock import FakeClock
from minesat.analysis import Analyzer
from minesat.board import Layout
from minesat.cli import app
from minesat.formats.boardset import read_boardset
from minesat.generate import BoardSpec, game_seed, generate_layout, kept_clear
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
    boards = list(generate_boards(BoardSpec(16, 30, 99, start=(3, 3)), 3, seed=1, no_guess=True))
    assert [b.index for b in boards] == [0, 1, 2]
    for board in boards:
        assert board.method is Method.REJECTION and board.tries is not None and board.tries >= 1
        assert board.layout.mine_count == 99
        assert not kept_clear(16, 30, start=(3, 3), rule="opening") & board.layout.mines
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
        assert not kept_clear(9, 9, start=start, rule=rule) & board.layout.mines
        record = play_game(board.layout, start, rule=rule)
        assert record.won and record.guesses == ()


def test_expert_sized_board_with_140_mines_by_repair() -> None:
    board = generate_no_guess(16, 30, 140, start=(3, 3), seed=0, rejection_tries=0)
    assert board.method is Method.REPAIR and board.layout.mine_count == 140
    assert solve_by_proof(board.layout, (3, 3)).solved


def test_same_seed_same_boards_and_plain_sets_match_simulate() -> None:
    a = list(generate_boards(BoardSpec(9, 9, 12, start=(2, 2)), 4, seed=9, no_guess=True))
    b = list(generate_boards(BoardSpec(9, 9, 12, start=(2, 2)), 4, seed=9, no_guess=True))
    assert a == b
    for board in generate_boards(BoardSpec(9, 9, 12, start=(2, 2)), 3, seed=9):
        seed = game_seed(9, 9, 12, rule="opening", start=(2, 2), seed=9, index=board.index)
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


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """One fake clock (10 ms a reading) for the no-guess search and the analysis it calls."""
    from minesat import budget, noguess

    return FakeClock(0.01).install(monkeypatch, noguess, budget)


def test_cli_time_limit_stops_the_set_in_one_line_and_writes_nothing(
    tmp_path: Path, clock: FakeClock
) -> None:
    """The impossible 2x2 request with tries to spare: only the clock stops it (a fake one, 10 ms a
    reading: the limit is reached after 50 readings)."""
    out = tmp_path / "set.jsonl"
    result = invoke(["generate", "--rows", "2", "--cols", "2", "--mines", "2", "--first-click", "safe",
                     "--start", "0,0", "--no-guess", "--max-tries", "100000000", "--time-limit", "0.5",
                     "--count", "1", "--out", str(out)])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: past --time-limit 0.5 s: 0 of 1 board made, "
                                                   "board 1 not found in ")
    assert not out.exists()
    assert 50 <= clock.readings <= 60


def test_cli_says_how_a_long_set_comes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from minesat.cli import common

    monkeypatch.setattr(common, "PROGRESS_LINE_EVERY", 0.0)  # a line after every layout
    result = invoke(["generate", "--preset", "expert", "--count", "3", "--no-guess", "--seed", "3"])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if line.startswith("minesat generate: ")]
    assert said and all(line.startswith("minesat generate: board ") for line in said)
    assert any(line.startswith("minesat generate: board 1 of 3, 1 layout tried for it, ") for line in said)


# --- issue 42: a time limit is read inside long work, which says how it comes on ---------------


def test_impossible_requests_are_refused_in_one_line_not_an_index_error() -> None:
    """With the rule ``any`` and every cell a mine, no first click survives: the issue's four
    requests (repair found no free cell to move the start's mine to, and raised IndexError)."""
    for size, more in [("2 2 4", []), ("1 1 1", []), ("5 5 25", []), ("5 5 25", ["--method", "repair"])]:
        rows, cols, mines = size.split()
        result = invoke(["generate", "--rows", rows, "--cols", cols, "--mines", mines, "--first-click", "any",
                         "--count", "1", "--no-guess", *more])
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        named = "1 mine" if mines == "1" else f"{mines} mines"
        assert result.stderr == (f"minesat: no no-guess {rows}x{cols} layout with {named}: every cell "
                                 f"holds a mine, so the first click at {min(3, int(rows) - 1)},"
                                 f"{min(3, int(cols) - 1)} loses; "
                                 "place fewer mines\n")
    # One mine fewer leaves a free cell for the first click: a board is found.
    assert invoke(["generate", "--rows", "2", "--cols", "2", "--mines", "3", "--first-click", "any",
                   "--count", "1", "--no-guess"]).exit_code == 0


def test_the_local_rules_read_the_clock_as_they_go(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    """A 300x300 board with few mines: the first click opens most of it and the local rules then
    settle thousands of numbers. Past the deadline they stop within a thousand or so numbers (they
    ran to the end and the clock was read only before the next analysis)."""
    from minesat import noguess

    layout = generate_layout(300, 300, 900, start=(150, 150), rule="opening", seed=1)
    looked = 0
    rules = noguess._local_rules

    def counted(game: object, table: object, pending: set[int], deadline: float | None = None) -> None:
        nonlocal looked

        class Counted(set):  # type: ignore[type-arg]
            def pop(self) -> int:
                nonlocal looked
                looked += 1
                return super().pop()

        watched = Counted(pending)
        try:
            rules(game, table, watched, deadline)  # type: ignore[arg-type]
        finally:
            pending.clear()
            pending.update(watched)

    monkeypatch.setattr(noguess, "_local_rules", counted)
    whole = solve_by_proof(layout, (150, 150), analyzer=Analyzer())
    everything = looked
    assert everything > 20_000
    looked = 0
    with pytest.raises(TimeoutError):
        solve_by_proof(layout, (150, 150), deadline=clock.now + 0.025)  # past it at the third reading
    assert looked <= 2 * noguess._RULES_PER_CLOCK
    assert whole.solved


def test_an_analysis_reads_the_clock_as_it_goes(clock: FakeClock) -> None:
    """The check's analyses are watched at every long step (the issue's 500x500 analyses took
    seconds each with no reading): past the deadline one stops in the middle; with time to spare it
    answers as with no limit; after a stop the analyzer answers as a fresh one."""
    from minesat import noguess
    from minesat.board import COVERED, Position

    layout = generate_layout(40, 40, 250, start=(0, 0), rule="opening", seed=3)
    rng = random.Random(3)
    shown = set(rng.sample([i for i in range(1600) if divmod(i, 40) not in layout.mines], 150))
    cells = tuple(layout.counts[i] if i in shown else COVERED for i in range(1600))
    position = Position(40, 40, cells, 250)
    plain = Analyzer(small_boards=False).analyze(position)
    analyzer = Analyzer(small_boards=False)
    assert noguess._analyze(analyzer, position, clock.now + 1000.0) == plain  # 100 000 readings away
    read = clock.readings
    assert read >= 10  # read inside the analysis, not once around it
    analyzer = Analyzer(small_boards=False)
    with pytest.raises(TimeoutError):
        noguess._analyze(analyzer, position, clock.now + 0.05)  # five readings away
    assert clock.readings - read < 10
    assert analyzer.analyze(position) == plain


def test_the_cli_time_limit_holds_on_a_large_board(clock: FakeClock) -> None:
    """The issue's 500x500 request with 50 000 mines and --time-limit 5, on the fake clock: it stops
    within the limit's readings (500 of 10 ms), in the middle of its first check."""
    result = invoke(["generate", "--rows", "500", "--cols", "500", "--mines", "50000", "--count", "1",
                     "--no-guess", "--time-limit", "5"])
    assert result.exit_code == 1, result.output
    *progress, last = result.stderr.splitlines()  # a progress line every 10 s of real time, if that long
    assert all(line.startswith("minesat generate: board 1 of 1, ") for line in progress)
    assert last.startswith("minesat: past --time-limit 5 s: 0 of 1 board made, board 1 not found in 1 try; ")
    assert clock.readings <= 520


def test_progress_is_a_line_every_ten_seconds_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    from minesat.cli.common import ProgressLine

    clock = iter([0.0, 4.0, 9.9, 10.5, 15.0, 21.0]).__next__
    progress = ProgressLine("generate", live=False, clock=clock)
    for board in range(1, 6):
        progress(f"board {board} of 5")
    said = capsys.readouterr().err
    assert said == "minesat generate: board 3 of 5, 10 s\nminesat generate: board 5 of 5, 21 s\n"


def test_progress_on_a_terminal_is_one_line_kept_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    from minesat.cli.common import ProgressLine

    clock = iter([0.0, 0.1, 0.5, 0.6, 0.9]).__next__
    progress = ProgressLine("generate", live=True, clock=clock)
    for board in range(1, 5):
        progress(f"board {board} of 4")
    progress.done()
    err = capsys.readouterr().err
    assert err.count("\r") == 2 and err.endswith("\n") and err.count("\n") == 1
    assert "board 2 of 4, 0 s" in err and "board 4 of 4, 1 s" in err


def test_progress_keeps_coming_while_one_step_takes_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """:meth:`ProgressLine.ticking` redraws the last news from a thread: a check that takes minutes
    (no news from the work) still shows the line."""
    import threading

    from minesat.cli import common

    shown = threading.Event()
    progress = common.ProgressLine("generate", live=False)
    monkeypatch.setattr(progress, "show", shown.set)
    with progress.ticking():
        assert shown.wait(timeout=60)  # the work (here: waiting) never told it anything


def test_a_sets_time_limit_is_named_as_given() -> None:
    """A set shares one deadline; its refusal names the limit asked for, not the time left of it."""
    from minesat.noguess import NoGuessTimeout

    with pytest.raises(NoGuessTimeout, match=r"found within 0\.3 s \("):
        list(generate_boards(BoardSpec(2, 2, 2, start=(0, 0), rule="safe"), 2, no_guess=True, max_tries=10**8,
                             seconds=0.3))
