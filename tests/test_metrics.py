"""Board metrics: hand-checked small boards, ms-toollib's figures on random layouts, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.board import Action, Layout, Move
from minesat.cli import app
from minesat.formats import write_layout
from minesat.formats.boardset import format_board
from minesat.generate import generate_layout
from minesat.metrics import SolvedBbbv, bbbv_solved, greedy_zini, islands, metrics, opening_regions


def test_an_empty_board_is_one_opening_and_one_click() -> None:
    m = metrics(Layout(4, 7))
    assert (m.cells, m.mines, m.bbbv, m.openings, m.islands, m.zini) == (28, 0, 1, 1, 0, 1)


def test_a_full_board_needs_nothing() -> None:
    m = metrics(Layout(2, 2, frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})))
    assert (m.bbbv, m.openings, m.islands, m.zini) == (0, 0, 0, 0)


def test_openings_and_islands_by_hand() -> None:
    # Two zero regions split by a column of mines; a lone number between two mines.
    lay = Layout.from_rows(["  *  ", "  *  ", "  *  ", "*****", "  *  "])
    regions = opening_regions(lay)
    assert max(regions) == 2
    assert regions[0] == 1 and regions[4] == 2 and regions[2] == 0
    # (4, 0)-(4, 1) and (4, 3)-(4, 4): numbers touching no zero, two groups.
    assert islands(lay) == 2
    assert metrics(lay).bbbv == 2 + 4


def test_zini_saves_clicks_by_chording() -> None:
    # A row of numbers under a row of mines: clicking each costs 5 clicks; one flag
    # and chords do better, and ZiNi never exceeds 3BV.
    lay = Layout.from_rows(["*****", "     ", "*****"])
    m = metrics(lay)
    assert m.bbbv == 5 and m.islands == 1
    assert m.zini <= m.bbbv
    assert greedy_zini(Layout.from_rows(["*1", "11"])) == 3


def _ms_board(layout: Layout) -> list[list[int]]:
    counts = layout.counts
    return [
        [-1 if (r, c) in layout.mines else counts[r * layout.cols + c] for c in range(layout.cols)]
        for r in range(layout.rows)
    ]


def test_equal_to_ms_toollib_on_random_layouts() -> None:
    ms = pytest.importorskip(
        "ms_toollib", reason="ms-toollib is not installed (pip install ms-toollib to compare)"
    )
    rng = random.Random(2026)
    for i in range(150):
        if i % 3:
            rows, cols = rng.randint(1, 24), rng.randint(1, 24)
            mines = rng.randint(0, rows * cols)
        else:
            rows, cols, mines = 16, 30, rng.randint(30, 160)
        layout = generate_layout(rows, cols, mines, rule="any", rng=rng)
        board = _ms_board(layout)
        ours = metrics(layout)
        theirs = (ms.cal_bbbv(board), ms.cal_op(board), ms.Board(board).isl, ms.cal_zini(board))
        where = (rows, cols, sorted(layout.mines))
        assert (ours.bbbv, ours.openings, ours.islands, ours.zini) == theirs, where


# --- the command line ----------------------------------------------------------------


def invoke(args: list[str]):
    return CliRunner().invoke(app, args)


def test_cli_layout_files_and_board_sets(tmp_path: Path) -> None:
    a = generate_layout(9, 9, 10, seed=1)
    b = generate_layout(9, 9, 10, seed=2)
    write_layout(a, tmp_path / "a.txt")
    (tmp_path / "set.jsonl").write_text(format_board(a, game=0) + format_board(b, game=1))
    result = invoke(["metrics", str(tmp_path / "a.txt"), str(tmp_path / "set.jsonl"), "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("line") for r in rows] == [None, 1, 2]
    assert rows[0] | {"file": "", "line": 1} == rows[1] | {"file": "", "line": 1}
    assert rows[2] == {"file": str(tmp_path / "set.jsonl"), "line": 2, **metrics(b).to_json()}
    text = invoke(["metrics", str(tmp_path / "a.txt")])
    assert text.exit_code == 0 and "zini" in text.stdout and str(metrics(a).bbbv) in text.stdout


def test_cli_reads_a_layout_from_standard_input() -> None:
    """``-`` is standard input, as for every command that reads a board (docs/boards.md)."""
    layout = Layout.from_rows(["*  ", "   ", "  *"])
    result = CliRunner().invoke(app, ["metrics", "-", "--json"], input="*..\n...\n..*\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"file": "-", **metrics(layout).to_json()}
    position = CliRunner().invoke(app, ["metrics", "-"], input="1?\n11\n")
    assert position.exit_code == 2 and "<stdin>: covered cells" in position.stderr


def test_cli_bad_files_are_one_line_and_the_rest_still_measured(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"rows": 2, "cols": 2, "mines": [[5, 5]]}\n')
    write_layout(Layout(3, 3, frozenset({(1, 1)})), tmp_path / "ok.txt")
    result = invoke(["metrics", str(tmp_path / "bad.jsonl"), str(tmp_path / "missing.txt"),
                     str(tmp_path / "ok.txt"), "--json"])
    assert result.exit_code == 2
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 2 and all(e.startswith("minesat: ") for e in errors)
    assert "bad.jsonl:1:" in errors[0] and "off the 2x2 board" in errors[0]
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [("error" in o) for o in out] == [True, True, False]
    assert out[2]["bbbv"] == 8


def test_the_3bv_solved_as_a_game_goes_is_the_count_on_its_position() -> None:
    """One 3BV-solved counter: kept up to date move by move (a replay's running figures), it says
    what counting the position afresh says, and the whole 3BV once the game is won; flags
    (which stop a flood) included."""
    from minesat.game import Game, MoveResult

    rng = random.Random(43)
    checked = 0
    for seed in range(60):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        mines = rng.randint(0, rows * cols - 1)
        layout = generate_layout(rows, cols, mines, start=(0, 0), rule="any", seed=seed)
        game, count = Game(layout), SolvedBbbv(layout)
        while not game.over:
            covered = [divmod(i, cols) for i, state in enumerate(game.state) if state == -1]
            cell = rng.choice(covered)
            # A flag, right or wrong, where a click would lose, and now and then elsewhere.
            flag = cell in layout.mines or rng.random() < 0.2
            move = Move(cell, Action.FLAG if flag else Action.UNCOVER)
            if game.play(move) in (MoveResult.VALID, MoveResult.SOLVED) and move.action is Action.UNCOVER:
                count.update(game.state, cell)
            assert count.solved == bbbv_solved(layout, game.position)
            checked += 1
            if all(state != -1 for state in game.state):
                break  # every covered cell flagged
        assert count.bbbv == layout.bbbv()
        if game.over:
            assert count.solved == layout.bbbv()
    assert checked > 500


def test_cli_a_layout_past_the_memory_budget_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """Issue 50: metrics keeps a memory budget as analyze does (a budget of 1 MB is past at once)."""
    write_layout(Layout(3, 3, frozenset({(1, 1)})), tmp_path / "ok.txt")
    result = invoke(["metrics", str(tmp_path / "ok.txt"), "--max-memory", "1", "--json"])
    assert result.exit_code == 1
    said = f"{tmp_path / 'ok.txt'}: past the memory budget of 1 MB; raise --max-memory"
    assert result.stderr == f"minesat: {said}\n"
    assert json.loads(result.stdout) == {"file": str(tmp_path / "ok.txt"), "error": said}
    assert invoke(["metrics", str(tmp_path / "ok.txt"), "--max-memory", "0"]).exit_code == 0
