"""Replays minesat writes (SPEC section 16): read back by minesat's readers and, in a subprocess,
by ms-toollib: the same board, moves, result, 3BV, clicks and time."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from minesat.board import COVERED, FLAG, Cell, Layout, cell_name, neighbours
from minesat.formats import UnsupportedFormatError, format_replay, parse_replay, read_replay, write_replay
from minesat.formats.replay import Replay, written_format_for, written_formats
from minesat.game import Game, MoveResult
from minesat.generate import generate_layout
from minesat.player import play_game
from minesat.recording import HOLD_MS, POLL_MS, record_game
from minesat.replay import play_replay
from replay_samples import NO_MS_TOOLLIB, have_ms_toollib, ms_toollib_read

ROOT = Path(__file__).resolve().parent.parent
DATE = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
BOARDS = [(9, 9, 10), (16, 16, 40), (16, 30, 99), (8, 12, 20), (5, 40, 30)]


def player_games(count: int) -> list[tuple[Layout, tuple[str, ...], bool]]:
    """Games the automatic player plays (uncovers and flags), won and lost, on several board sizes."""
    return [player_game(seed) for seed in range(count)]


@functools.cache
def player_game(seed: int) -> tuple[Layout, tuple[str, ...], bool]:
    """Game ``seed`` of :func:`player_games`, played once per process: each test that reads it
    back gets the same (immutable) game, and the 104 games the tests ask for are 40 games played."""
    rows, cols, mines = BOARDS[seed % len(BOARDS)]
    start = (seed % rows, (3 * seed) % cols)
    rule = ("opening", "safe", "any")[seed % 3]
    layout = generate_layout(rows, cols, mines, start=start, rule=rule, seed=seed)
    record = play_game(layout, start, rule=rule)
    return layout, tuple(map(str, record.moves)), record.won  # as the other games: strings


def chording_game(seed: int) -> tuple[Layout, list[str], bool]:
    """A game with chords and wrong flags taken back, by a player who knows the layout; for odd
    seeds, once a few moves are made, flags on safe cells and a chord that blows up."""
    rng = random.Random(seed)
    rows, cols, mines = BOARDS[seed % len(BOARDS)]
    layout = generate_layout(rows, cols, mines, start=(1, 1), rule="opening", seed=seed)
    game = Game(layout)
    moves: list[str] = []

    def play(move: str) -> None:
        assert game.play(move) is not MoveResult.INVALID, move
        moves.append(move)

    def around(cell: Cell, mined: bool) -> list[Cell]:
        return [n for n in neighbours(cell, rows, cols)
                if game[n] == COVERED and (n in layout.mines) == mined]

    play("B2")
    lose_after = rng.randint(5, 30) if seed % 2 else None
    while not game.over:
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        numbers = [cell for cell in cells if game[cell] > 0]
        rng.shuffle(numbers)
        if lose_after is not None and len(moves) >= lose_after:
            lose_after = None
            for cell in numbers:
                need = game[cell] - sum(game[n] == FLAG for n in neighbours(cell, rows, cols))
                if around(cell, True) and 0 < need <= len(around(cell, False)):
                    for n in around(cell, False)[:need]:
                        play(cell_name(n) + "*")
                    play(cell_name(cell) + "+")
                    break
            continue
        if rng.random() < 0.05:
            wrong = rng.choice([cell for cell in cells if game[cell] == COVERED and cell not in layout.mines])
            play(cell_name(wrong) + "*")
            play(cell_name(wrong) + "-")
        mine = next((around(cell, True)[0] for cell in numbers if around(cell, True)), None)
        chord = next((cell for cell in numbers if around(cell, False) and not around(cell, True)), None)
        if mine is not None and (chord is None or rng.random() < 0.5):
            play(cell_name(mine) + "*")
        elif chord is not None:
            play(cell_name(chord) + "+")
        else:
            play(cell_name(next(c for c in cells if game[c] == COVERED and c not in layout.mines)))
    return layout, moves, game.status.value == "won"


def check_read_back(replay: Replay, fmt: str, layout: Layout, moves: list[str] | tuple[str, ...]) -> None:
    back = parse_replay(format_replay(replay, fmt), fmt, f"x.{fmt}")
    assert back.layout == layout and back.mines == layout.mine_count
    assert back.events == replay.events and back.rtime == replay.rtime
    assert back.bbbv == layout.bbbv() and back.cell_size == replay.cell_size
    if fmt == "rmv":
        assert back.board_events == replay.board_events
    game = play_replay(back)
    assert [str(m) for m in game.moves] == list(moves)
    assert back.completed == game.won
    m = game.metrics
    assert m.bbbv == layout.bbbv() and game.seconds == back.rtime
    kinds = [mv[-1] for mv in moves]
    assert (m.left, m.right, m.double) == (
        sum(k.isdigit() for k in kinds), sum(k in "*-" for k in kinds), kinds.count("+"))
    if not any(k in "-+" for k in kinds):  # the player's games: every click counts but a losing one
        assert m.ce == m.cl - (not game.won)


@pytest.mark.parametrize("fmt", written_formats())
def test_the_players_games_read_back_the_same(fmt: str) -> None:
    games = player_games(40)
    assert any(won for *_, won in games) and not all(won for *_, won in games)
    assert any(m.endswith("*") for _, moves, _ in games for m in moves)
    for seed, (layout, moves, _won) in enumerate(games):
        replay = record_game(layout, moves, format=fmt, seed=seed, date=DATE)
        check_read_back(replay, fmt, layout, moves)


@pytest.mark.parametrize("fmt", written_formats())
def test_chords_wrong_flags_and_losses_read_back_the_same(fmt: str) -> None:
    games = [chording_game(seed) for seed in range(16)]
    assert any(won for *_, won in games) and not all(won for *_, won in games)
    every = [m for _, moves, _ in games for m in moves]
    assert any(m.endswith("+") for m in every) and any(m.endswith("-") for m in every)
    for seed, (layout, moves, _won) in enumerate(games):
        check_read_back(record_game(layout, moves, format=fmt, seed=seed, date=DATE), fmt, layout, moves)


def test_the_mouse_moves_and_times_are_plausible() -> None:
    layout, moves, _ = player_games(3)[2]  # an expert game
    replay = record_game(layout, moves, format="evf", seed=3, date=DATE)
    times = [e.time for e in replay.events]
    assert times == sorted(times) and replay.events[0].time == 0.0
    assert all(e.cell is not None for e in replay.events)  # the pointer stays on the board
    steps = [round((b.time - a.time) * 1000) for a, b in zip(replay.events, replay.events[1:], strict=False)
             if a.kind == b.kind == "mv"]
    assert steps and min(steps) >= POLL_MS[0] and max(steps) <= 2 * POLL_MS[1]
    pairs = list(zip(replay.events, replay.events[1:], strict=False))
    jumps = [max(abs(b.x - a.x), abs(b.y - a.y)) for a, b in pairs if b.kind == "mv"]
    assert max(jumps) < 6 * replay.cell_size  # a path, not a teleport
    presses = [(a, b) for a, b in pairs if a.kind in ("lc", "rc")]
    assert all(b.kind in ("lr", "rr") and a.cell == b.cell for a, b in presses)
    assert all(HOLD_MS[0] <= round((b.time - a.time) * 1000) <= HOLD_MS[1] for a, b in presses)
    per_move = replay.rtime / len(moves)
    assert 0.2 < per_move < 1.5  # seconds per click, a human pace


def test_the_same_seed_gives_the_same_file_and_another_seed_another() -> None:
    layout, moves, _ = player_games(1)[0]
    one, two, other = (record_game(layout, moves, seed=s, date=DATE) for s in (5, 5, 6))
    assert format_replay(one, "evf") == format_replay(two, "evf") != format_replay(other, "evf")
    assert [e.kind for e in one.events if e.kind != "mv"] == [e.kind for e in other.events if e.kind != "mv"]


def test_the_header_names_minesat_its_version_and_the_date() -> None:
    from minesat import __version__

    layout, moves, _ = player_games(1)[0]
    for fmt in written_formats():
        back = parse_replay(format_replay(record_game(layout, moves, format=fmt, date=DATE), fmt), fmt)
        meta = back.metadata
        assert meta["player"] == "minesat" and meta["date"] == "2026-01-02 03:04:05"
        assert "minesat" in meta["program"] and __version__ in (meta["program"] + meta.get("version", ""))


def test_refusals() -> None:
    layout = Layout.from_rows(["*  ", "   ", "   "])
    with pytest.raises(ValueError, match="starts with an uncover"):
        record_game(layout, ["A1*", "C3"])
    with pytest.raises(ValueError, match=r"move 2 \(B2\): the game is already over"):
        record_game(layout, ["C3", "B2"])
    with pytest.raises(ValueError, match=r"move 1 \(A9\)"):
        record_game(layout, ["A9"])
    with pytest.raises(UnsupportedFormatError, match="does not write"):
        written_format_for("x.mvf")
    big = Layout(256, 4, frozenset())
    with pytest.raises(ValueError, match="255x255"):
        format_replay(record_game(big, ["A1"], date=DATE), "evf")


def test_writing_is_atomic(tmp_path: Path) -> None:
    """A replay the format cannot hold leaves the file that was there as it was, and no temporary file."""
    target = tmp_path / "game.evf"
    target.write_bytes(b"before")
    with pytest.raises(ValueError):
        write_replay(record_game(Layout(256, 2, frozenset()), ["A1"], date=DATE), target)
    assert target.read_bytes() == b"before" and [p.name for p in tmp_path.iterdir()] == ["game.evf"]
    layout, moves, _ = player_games(1)[0]
    write_replay(record_game(layout, moves, date=DATE), target)
    assert read_replay(target).layout == layout


# --- the command line -----------------------------------------------------------------


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from minesat.cli import main; main()", *args],
        capture_output=True, text=True, cwd=cwd, timeout=120,
    )


@pytest.mark.parametrize("fmt", written_formats())
def test_solve_save_replay_writes_the_game(tmp_path: Path, fmt: str) -> None:
    layout_file = ROOT / "puzzles" / "expert-mid.layout.txt"
    out = tmp_path / f"game.{fmt}"
    done = run("solve", str(layout_file), "--save-replay", str(out), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == f"wrote {out}"
    import json

    record = json.loads(done.stdout)
    replay = read_replay(out)
    game = play_replay(replay)
    assert [str(m) for m in game.moves] == record["moves"] and game.won == record["won"]
    assert game.metrics.bbbv == record["bbbv"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("game.txt", "cannot tell the replay format to write from the extension '.txt'"),
        ("game", "cannot tell the replay format to write from the extension '(none)'"),
        ("game.avf", "minesat reads .avf replays but does not write them"),
        ("notes.txt/game.evf", "notes.txt is a file, not a folder"),  # missing folders are made
    ],
)
def test_solve_save_replay_refuses_in_one_line(tmp_path: Path, name: str, message: str) -> None:
    (tmp_path / "notes.txt").write_text("")
    done = run("solve", str(ROOT / "puzzles" / "mines.dat"), "--save-replay", name, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "notes.txt"]


def test_solve_save_replay_does_not_go_with_the_oracle(tmp_path: Path) -> None:
    layout_file = str(ROOT / "puzzles" / "mines.dat")
    done = run("solve", layout_file, "--oracle", "--save-replay", "g.evf", cwd=tmp_path)
    assert done.returncode == 2 and "--oracle" in done.stderr and list(tmp_path.iterdir()) == []


# --- ms-toollib ----------------------------------------------------------------------


@pytest.mark.skipif(not have_ms_toollib(), reason=NO_MS_TOOLLIB)
def test_ms_toollib_reads_the_same_games(tmp_path: Path) -> None:
    games = [(layout, list(moves)) for layout, moves, _ in player_games(24)]
    games += [(layout, moves) for layout, moves, _ in (chording_game(seed) for seed in range(8))]
    files = []
    for seed, (layout, moves) in enumerate(games):
        for fmt in written_formats():
            path = tmp_path / f"game{seed}.{fmt}"
            write_replay(record_game(layout, moves, format=fmt, seed=seed, date=DATE), path)
            files.append(path)
    theirs = ms_toollib_read(files)
    outcomes = set()
    for path in files:
        replay = read_replay(path)
        ours, m = play_replay(replay), play_replay(replay).metrics
        t = theirs[path.name]
        mines = {tuple(cell) for cell in t["mine_cells"]}
        assert (t["rows"], t["cols"], t["mines"], mines) == (
            replay.rows, replay.cols, replay.mines, set(replay.layout.mines)), path.name
        assert t["completed"] == ours.won and t["bbbv"] == m.bbbv, path.name
        if ours.won or ours.moves[-1].kind != "chord":
            # A chord onto a mine: ms-toollib opens the chord's safe cells too, minesat's
            # rules stop at the mine, so the 3BV solved differs there (the rules, not the file).
            assert t["bbbv_solved"] == m.bbbv_solved, path.name
        clicks = (m.left, m.right, m.double, m.cl, m.ce)
        assert (t["left"], t["right"], t["double"], t["cl"], t["ce"]) == clicks, path.name
        assert t["rtime"] == pytest.approx(ours.seconds, abs=1e-9), path.name
        outcomes.add(ours.won)
    assert outcomes == {True, False}


def test_solve_save_replay_refuses_a_board_too_large_before_playing(tmp_path: Path) -> None:
    (tmp_path / "wide.txt").write_text(" " * 300 + "\n*" + " " * 299 + "\n")
    done = run("solve", "wide.txt", "--save-replay", "g.rmv", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "" and "up to 255x255 cells, not 2x300" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wide.txt"]
