"""The rules: uncover with flood fill, flag, unflag, chord, the five move results, display."""

from __future__ import annotations

from pathlib import Path

import pytest

from minesat import board
from minesat.board import COVERED, FLAG, Layout, Move, Position
from minesat.formats import read_layout, read_position
from minesat.game import Game, MoveResult, Status, render_position

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def exam() -> Game:
    return Game(read_layout(PUZZLES / "mines.dat"))


def test_exam_walk_through() -> None:
    game = exam()
    assert game.position.cells == (COVERED,) * 81
    assert game.play("B6") is MoveResult.VALID
    assert game[1, 5] == 3
    assert game.uncovered == 1  # a number opens nothing else

    assert game.play("E5") is MoveResult.VALID
    rows = game.position.to_rows()
    assert rows[0] == "   1?????"
    assert rows[7] == "???111222"
    assert rows[8] == "?" * 9

    assert game.play("H3*") is MoveResult.VALID
    assert game[7, 2] == FLAG


def test_exam_solution_is_complete_and_partial_is_not() -> None:
    layout = read_layout(PUZZLES / "mines.dat")
    assert layout.mine_count == 10
    assert layout.is_solved_by(read_position(PUZZLES / "solution.dat"))
    partial = read_position(PUZZLES / "partial.dat")
    assert partial.mines == 10
    assert not layout.is_solved_by(partial)
    # ...but everything partial.dat shows agrees with the layout.
    for cell in partial.all_cells():
        if partial[cell] == FLAG:
            assert cell in layout.mines
        elif partial[cell] >= 0:
            assert partial[cell] == layout.count(cell)


def test_flood_opens_the_zero_region_and_its_border_only() -> None:
    layout = Layout.from_rows(["    *", "    *", "*****", "     "])
    game = Game(layout)
    assert game.play("A1") is MoveResult.VALID
    assert game.position.to_rows() == ["   2?", "2335?", "?????", "?????"]


def test_flood_from_a_corner_solves_a_one_mine_board() -> None:
    game = Game(Layout(5, 7, frozenset({(4, 6)})))
    assert game.play("A1") is MoveResult.SOLVED
    assert game.status is Status.WON
    assert game.position.cells_in(COVERED) == [(4, 6)]
    assert game[3, 5] == 1 and game[4, 5] == 1 and game[3, 6] == 1


@pytest.mark.parametrize("corner", [(0, 0), (0, 4), (3, 0), (3, 4)])
def test_corner_numbers_count_three_neighbours(corner: tuple[int, int]) -> None:
    rows, cols = 4, 5
    mines = frozenset(board.neighbours(corner, rows, cols))
    game = Game(Layout(rows, cols, mines))
    assert game.uncover(corner) is MoveResult.VALID
    assert game[corner] == 3
    assert game.uncovered == 1


def test_edge_cells_count_five_neighbours() -> None:
    mines = frozenset(board.neighbours((0, 2), 3, 5))
    game = Game(Layout(3, 5, mines))
    assert game.uncover((0, 2)) is MoveResult.VALID
    assert game[0, 2] == 5


def test_flags_are_never_uncovered_by_a_flood() -> None:
    game = Game(Layout(4, 4, frozenset({(3, 3)})))
    assert game.play("B2*") is MoveResult.VALID
    assert game.play("A1") is MoveResult.VALID  # not solved: B2 is still under its flag
    assert game[1, 1] == FLAG
    assert game.play("B2") is MoveResult.INVALID  # a flag protects its cell
    assert game.play("B2-") is MoveResult.VALID
    assert game.play("B2") is MoveResult.SOLVED


def chord_game() -> Game:
    #   1 2 3
    # A * . .
    # B . . .
    # C . . *
    game = Game(Layout.from_rows(["*  ", "   ", "  *"]))
    assert game.play("B2") is MoveResult.VALID
    assert game[1, 1] == 2
    return game


def test_chord_uncovers_the_unflagged_neighbours_of_a_satisfied_number() -> None:
    game = chord_game()
    assert game.play("B2+") is MoveResult.INVALID  # no flags yet: not satisfied
    game.play("A1*")
    assert game.play("B2+") is MoveResult.INVALID  # one flag of two
    game.play("C3*")
    assert game.play("B2+") is MoveResult.SOLVED
    assert game[0, 0] == FLAG and game[2, 2] == FLAG  # flags stay
    assert game.position.to_rows() == ["*1 ", "121", " 1*"]


def test_chord_with_a_wrong_flag_blows_up() -> None:
    game = chord_game()
    game.play("A1*")
    game.play("A2*")  # wrong: A2 is safe, C3 is the mine
    assert game.play("B2+") is MoveResult.BLOWN_UP
    assert game.exploded == (2, 2)
    assert game[0, 1] == FLAG  # the wrong flag was not uncovered
    drawn = game.render()
    assert "X" in drawn and "x" in drawn  # the mine hit, the wrong flag


def test_chord_on_a_covered_cell_is_invalid() -> None:
    game = chord_game()
    game.play("A1*")
    assert game.play("A1+") is MoveResult.INVALID  # a flag is not a number
    assert game.play("C1+") is MoveResult.INVALID  # covered


def test_chord_is_redundant_when_nothing_around_is_covered() -> None:
    game = chord_game()
    game.play("A1*")
    for cell in ("A2", "A3", "B1"):
        game.play(cell)
    assert game[0, 1] == 1
    assert game.play("A2+") is MoveResult.REDUNDANT
    assert not game.over


def test_all_five_move_results() -> None:
    game = Game(Layout.from_rows(["*  ", "   ", "  *"]))
    assert game.play("D1") is MoveResult.INVALID  # off the board
    assert game.play("A4") is MoveResult.INVALID
    assert game.play("not a move") is MoveResult.INVALID  # malformed
    assert game.play("B2") is MoveResult.VALID
    assert game.play("B2") is MoveResult.REDUNDANT  # already uncovered
    assert game.play("B2*") is MoveResult.REDUNDANT  # cannot flag an uncovered cell
    assert game.play("A1*") is MoveResult.VALID
    assert game.play("A1*") is MoveResult.REDUNDANT  # already flagged
    assert game.play("A2-") is MoveResult.REDUNDANT  # nothing to unflag
    for cell in ("A2", "B1", "B3", "C2", "A3"):
        assert game.play(cell) is MoveResult.VALID
    assert game.play("C1") is MoveResult.SOLVED
    assert game.status is Status.WON

    lost = Game(Layout.from_rows(["*  ", "   ", "  *"]))
    assert lost.play("C3") is MoveResult.BLOWN_UP
    assert lost.status is Status.LOST


@pytest.mark.parametrize("ending", ["C3", ["A2", "A3", "B1", "B2", "B3", "C1", "C2"]])
def test_no_move_counts_after_the_game_ends(ending: str | list[str]) -> None:
    game = Game(Layout.from_rows(["*  ", "   ", "  *"]))
    for move in [ending] if isinstance(ending, str) else ending:
        game.play(move)
    assert game.over
    before = game.position
    for move in ("A1", "A1*", "A1-", "B2+", "C3", "C3*"):
        assert game.play(move) is MoveResult.INVALID
    assert game.uncover((0, 0)) is MoveResult.INVALID
    assert game.flag((0, 0)) is MoveResult.INVALID
    assert game.position == before


def test_huge_empty_board_opens_in_one_move_without_recursion() -> None:
    # Files are capped at MAX_SIDE; the rules themselves are not tied to it. A million cells
    # opened from the middle (benchmarks/heavy opens 2000x2000).
    open_empty_board(board.MAX_SIDE + 1)


def open_empty_board(side: int) -> None:
    game = Game(Layout(side, side, frozenset()))
    assert game.uncover((side // 2, side // 2)) is MoveResult.SOLVED
    assert game.uncovered == side * side


def test_new_game_draws_its_layout_at_the_first_uncover() -> None:
    game = Game.new(9, 9, 10, seed=5)
    assert game.layout is None
    assert game.play("E5") is MoveResult.VALID
    assert game.layout is not None and game.layout.mine_count == 10
    assert game[4, 4] == 0  # the opening rule keeps E5 and its neighbours clear


def test_display_stays_aligned_past_nine_columns_and_26_rows() -> None:
    game = Game(Layout(28, 12, frozenset({(27, 11)})))
    lines = game.render().splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 13)]
    assert [line.split()[0] for line in lines[1:]][25:] == ["Z", "AA", "AB"]
    assert len({len(line.rstrip()) for line in lines[1:]}) == 1
    # Cells sit under their column numbers.
    assert lines[1].index("?", 3) + 1 == lines[0].index("1") + 1


def test_render_after_a_loss_shows_the_mines() -> None:
    game = Game(Layout.from_rows(["*  ", "   ", "  *"]))
    game.play("A2*")
    game.play("A1")
    drawn = game.render().splitlines()
    assert drawn[1].split() == ["A", "X", "x", "?"]
    assert drawn[3].split() == ["C", "?", "?", "M"]


def test_render_position_matches_the_game() -> None:
    game = exam()
    game.play("E5")
    assert render_position(game.position) == game.render()


def test_moves_accept_move_objects() -> None:
    game = exam()
    assert game.play(Move((1, 5))) is MoveResult.VALID


def test_copy_is_independent_of_the_original() -> None:
    layout = Layout.from_rows(["*   ", "    ", "  * "])
    game = Game(layout)
    game.play("B2")
    twin = game.copy()
    assert twin.position == game.position and twin.layout is game.layout
    twin.play("A1*")
    twin.play("C3")
    assert game[0, 0] == COVERED and not game.over
    assert twin[0, 0] == FLAG and twin.status is Status.LOST
    game.play("A4")
    assert game[0, 3] == 0 and twin[0, 3] == COVERED


def test_position_is_a_property_and_the_old_call_still_reads_it() -> None:
    # Game.position was a method; scripts written then call it, and a Position called gives itself.
    game = Game(Layout.from_rows(["*.", ".."]))
    assert isinstance(game.position, Position)
    assert game.position() == game.position and game.position().to_rows() == ["??", "??"]
