"""``simulate --boards``: a fixed board set, game i is line i, resumable and paired by digest."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.board import Layout
from minesat.cli import app
from minesat.formats import BoardFormatError
from minesat.formats.boardset import format_board
from minesat.generate import generate_layout
from minesat.player import SafestCell, play_game
from minesat.simulation import board_run_config, play_boards, run
from minesat.store import GameStore, RunConfig, StoredGame


def boards(n: int, seed: int = 0, rule: str = "opening", start: tuple[int, int] = (3, 3)) -> list[Layout]:
    return [generate_layout(9, 9, 10, start=start, rule=rule, seed=seed * 1000 + i) for i in range(n)]


def write(path: Path, layouts: list[Layout]) -> Path:
    path.write_text("".join(format_board(b, game=i, note="x") for i, b in enumerate(layouts)))
    return path


def without_time(games) -> list[StoredGame]:
    """The games as played, less the wall time and who played them (the store records that)."""
    return [dataclasses.replace(g, seconds=0.0, player=None) for g in games]


def test_games_are_the_lines_played_as_they_are(tmp_path: Path) -> None:
    layouts = boards(12)
    path = write(tmp_path / "set.jsonl", layouts)
    config, count = board_run_config(path, rule="opening", start=(3, 3), strategy="safest")
    assert count == 12
    assert config.boards == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (config.rows, config.cols, config.mines, config.seed) == (9, 9, 10, 0)
    with GameStore(tmp_path / "run.sqlite", config) as store:
        summary = run(config, 12, workers=1, store=store, boards=path)
        stored = without_time(store)
    expected = [
        StoredGame.from_record(i, 0, play_game(b, (3, 3), strategy=SafestCell(), rule="opening"))
        for i, b in enumerate(layouts)
    ]
    assert stored == without_time(expected)
    assert summary["games"] == 12 and summary["config"]["boards"] == config.boards


def test_workers_do_not_change_results_and_runs_resume(tmp_path: Path) -> None:
    path = write(tmp_path / "set.jsonl", boards(30))
    config, _ = board_run_config(path, rule="opening", start=(3, 3), strategy="safest")
    one = run(config, 30, workers=1, boards=path, batch_size=4)
    with GameStore(tmp_path / "two.sqlite", config) as store:
        first = run(config, 10, workers=2, store=store, boards=path, batch_size=3)
        assert first["played"] == 10
        second = run(config, 30, workers=2, store=store, boards=path, batch_size=3)
        assert second["played"] == 20
        assert without_time(store) == without_time(play_boards(config, list(enumerate(boards(30)))))
    for key in ("games", "wins", "guesses_mean", "no_guess_wins"):
        assert one[key] == second[key]


def test_a_different_file_with_the_same_bytes_is_the_same_set(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", boards(5))
    b = tmp_path / "b.jsonl"
    b.write_bytes(a.read_bytes())
    other = write(tmp_path / "c.jsonl", boards(5, seed=1))
    config_a, _ = board_run_config(a, rule="opening", start=(3, 3), strategy="safest")
    config_b, _ = board_run_config(b, rule="opening", start=(3, 3), strategy="safest")
    config_c, _ = board_run_config(other, rule="opening", start=(3, 3), strategy="safest")
    assert config_a == config_b != config_c
    with GameStore(tmp_path / "run.sqlite", config_a) as store:
        run(config_a, 3, workers=1, store=store, boards=a)
        assert run(config_b, 5, workers=1, store=store, boards=b)["played"] == 2
        with pytest.raises(ValueError, match="holds"):
            run(config_c, 5, workers=1, store=store, boards=other)


def test_a_board_breaking_the_rule_is_refused_at_its_line(tmp_path: Path) -> None:
    layouts = boards(4)
    layouts[2] = Layout(9, 9, frozenset({(2, 2), *list(layouts[2].mines)[:9]}))
    path = write(tmp_path / "set.jsonl", layouts)
    with pytest.raises(BoardFormatError, match=r"set\.jsonl:3:1: .*breaks the opening first-click rule"):
        board_run_config(path, rule="opening", start=(3, 3), strategy="safest")
    config, count = board_run_config(path, rule="any", start=(3, 3), strategy="safest")
    assert count == 4 and config.rule == "any"


def test_a_store_made_before_board_sets_still_opens(tmp_path: Path) -> None:
    config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)
    path = tmp_path / "old.sqlite"
    GameStore(path, config).close()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM run WHERE key = 'boards'")
    with GameStore(path) as store:
        assert store.config == config and store.config.boards is None


# --- the command line -----------------------------------------------------------------


def invoke(args: list[str]):
    return CliRunner().invoke(app, args)


def test_cli_plays_all_lines_or_fewer(tmp_path: Path) -> None:
    path = write(tmp_path / "set.jsonl", boards(8))
    db = tmp_path / "run.sqlite"
    result = invoke(["simulate", "--boards", str(path), "--db", str(db), "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["games"] == 8
    assert summary["config"]["boards"] == hashlib.sha256(path.read_bytes()).hexdigest()
    result = invoke(["simulate", "--boards", str(path), "--games", "3", "--workers", "1", "--json",
                     "--db", str(tmp_path / "three.sqlite")])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.strip().splitlines()[-1])["games"] == 3


def test_cli_start_is_clipped_to_the_boards(tmp_path: Path) -> None:
    small = [Layout(1, 3, frozenset({(0, 0)}))] * 3
    path = write(tmp_path / "small.jsonl", small)
    result = invoke(["simulate", "--boards", str(path), "--first-click", "safe", "--workers", "1",
                     "--json", "--db", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["start"] == [0, 2] and summary["wins"] == 3


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ('{"rows": 9, "cols": 9, "mines": [[9, 0]]}\n', [], r"set\.jsonl:1:\d+: mine \[9, 0\] is off"),
        ("{bad\n", [], r"set\.jsonl:1:2: bad JSON"),
        ("", [], "empty board set"),
        (None, ["--games", "99"], "more than the 3 boards"),
        (None, ["--preset", "beginner"], "--boards sets the board size"),
        (None, ["--first-click", "sometimes"], "--first-click must be one of"),
    ],
)
def test_cli_bad_board_sets_are_one_line(
    tmp_path: Path, content: str | None, args: list[str], message: str
) -> None:
    path = tmp_path / "set.jsonl"
    if content is None:
        write(path, boards(3))
    else:
        path.write_text(content)
    result = invoke(["simulate", "--boards", str(path), "--db", str(tmp_path / "x.sqlite"), *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ")
    assert re.search(message, lines[0])


def test_cli_resuming_with_another_set_is_refused(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", boards(3))
    b = write(tmp_path / "b.jsonl", boards(3, seed=2))
    db = str(tmp_path / "run.sqlite")
    assert invoke(["simulate", "--boards", str(a), "--db", db, "--workers", "1"]).exit_code == 0
    result = invoke(["simulate", "--boards", str(b), "--db", db, "--workers", "1"])
    assert result.exit_code == 2
    assert "holds a different run: boards" in result.stderr


def test_cli_without_games_or_boards_is_one_line() -> None:
    result = invoke(["simulate", "--preset", "beginner"])
    assert result.exit_code == 2
    assert "give --games N" in result.stderr


def test_cli_seed_plays_no_part_in_a_board_set(tmp_path: Path) -> None:
    path = write(tmp_path / "set.jsonl", boards(4))
    db = str(tmp_path / "run.sqlite")
    common = ["simulate", "--boards", str(path), "--db", db, "--workers", "1", "--json"]
    first = invoke([*common, "--games", "2"])
    assert first.exit_code == 0, first.output
    again = invoke([*common, "--seed", "9"])
    assert again.exit_code == 0, again.output
    summary = json.loads(again.stdout.strip().splitlines()[-1])
    assert (summary["games"], summary["played"], summary["seed"]) == (4, 2, "0")
