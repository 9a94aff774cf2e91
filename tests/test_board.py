"""Cells, names, moves, positions and layouts (minesat.board)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesat.board import (
    COVERED,
    FLAG,
    Action,
    Layout,
    Move,
    Position,
    cell_name,
    neighbours,
    parse_cell,
    parse_row,
    row_name,
)

cells = st.tuples(st.integers(0, 5000), st.integers(0, 5000))


@given(st.integers(0, 100_000))
def test_row_names_round_trip(row: int) -> None:
    assert parse_row(row_name(row)) == row
    assert parse_row(row_name(row).lower()) == row


@given(cells)
def test_cell_names_round_trip(cell: tuple[int, int]) -> None:
    assert parse_cell(cell_name(cell)) == cell
    assert parse_cell(f"{cell[0]},{cell[1]}") == cell


@given(cells, st.sampled_from(list(Action)))
def test_moves_round_trip(cell: tuple[int, int], action: Action) -> None:
    move = Move(cell, action)
    assert Move.parse(str(move)) == move


def test_spec_examples() -> None:
    assert cell_name((0, 4)) == "A5"
    assert parse_cell("P30") == (15, 29)
    assert [row_name(r) for r in (0, 25, 26, 27, 51, 52, 701, 702)] == [
        "A",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
    ]
    assert Move.parse("A5*") == Move((0, 4), Action.FLAG)
    assert Move.parse("A5-").action is Action.UNFLAG
    assert Move.parse("A5+").action is Action.CHORD


@pytest.mark.parametrize("text", ["", "5A", "A0", "A", "12", "A-1", "1,", "A5**", "ä5"])
def test_bad_cell_names(text: str) -> None:
    with pytest.raises(ValueError):
        Move.parse(text)


def test_neighbours_at_corners_edges_and_middle() -> None:
    assert sorted(neighbours((0, 0), 9, 9)) == [(0, 1), (1, 0), (1, 1)]
    assert sorted(neighbours((8, 8), 9, 9)) == [(7, 7), (7, 8), (8, 7)]
    assert len(list(neighbours((0, 4), 9, 9))) == 5
    assert len(list(neighbours((4, 0), 9, 9))) == 5
    assert len(list(neighbours((4, 4), 9, 9))) == 8
    assert list(neighbours((0, 0), 1, 1)) == []
    assert sorted(neighbours((0, 1), 1, 3)) == [(0, 0), (0, 2)]


def test_position_from_rows_reads_every_character() -> None:
    pos = Position.from_rows(["?*F .0  ", "12345678", "        "], mines=3)
    assert (pos.rows, pos.cols, pos.mines) == (3, 8, 3)
    assert pos.cells[:8] == (COVERED, FLAG, FLAG, 0, 0, 0, 0, 0)
    assert pos.cells[8:16] == tuple(range(1, 9))
    assert pos.cells[16:] == (0,) * 8
    assert pos.to_rows()[0] == "?**     "
    assert pos.cells_in(FLAG) == [(0, 1), (0, 2)]


def test_layout_counts_solution_and_3bv() -> None:
    lay = Layout.from_rows(["*  ", "   ", "  *"])
    assert lay.mine_count == 2
    assert lay.count((1, 1)) == 2
    assert lay.counts == (0, 1, 0, 1, 2, 1, 0, 1, 0)  # a mine gets a count too (of other mines)
    solved = lay.solution()
    assert solved.to_rows() == ["*1 ", "121", " 1*"]
    assert lay.is_solved_by(solved)
    assert not lay.is_solved_by(Position.covered(3, 3))
    # Two zero regions (top right, bottom left) whose borders cover every number.
    assert lay.bbbv() == 2
    assert Layout.from_rows(["* *"]).bbbv() == 1  # a lone number, no opening


def test_layout_refuses_mines_off_the_board() -> None:
    with pytest.raises(ValueError, match="off the"):
        Layout(2, 2, frozenset({(2, 0)}))


@pytest.mark.parametrize(
    ("rows", "cols"), [(1, 1), (1, 7), (7, 1), (2, 2), (2, 9), (3, 3), (4, 6), (9, 9), (16, 30)]
)
def test_the_neighbour_table_lists_each_cells_neighbours_in_their_order(rows: int, cols: int) -> None:
    """The table's fast road inside the board gives what :func:`neighbours` gives, in its order
    (the order flood fills and constraint building walk in)."""
    from minesat.board import neighbour_table, neighbours

    expected = tuple(
        tuple(nr * cols + nc for nr, nc in neighbours((r, c), rows, cols))
        for r in range(rows)
        for c in range(cols)
    )
    assert neighbour_table(rows, cols) == expected


def test_position_from_rows_refuses_short_rows_and_unknown_characters() -> None:
    """Rows given in code are taken as they are: a short row is a mistake, not padding (issue 43)."""
    with pytest.raises(ValueError, match="row 2 is 1 cell wide, row 1 2: rows must be equally long"):
        Position.from_rows(["1?", "1"])
    with pytest.raises(ValueError, match=r"row 1, column 2: 'x' is not a position character"):
        Position.from_rows(["1x"])
    # A layout's short row holds no mine past its end, as in a layout file.
    assert Layout.from_rows(["*  ", "", "  *"]) == Layout(3, 3, frozenset({(0, 0), (2, 2)}))
    with pytest.raises(TypeError, match="not one string"):
        Position.from_rows("1?")


def test_positions_index_within_the_board_and_by_name() -> None:
    pos = Position.from_rows(["1?" * 15, "??" * 15])
    assert pos["A2"] == pos[0, 1] == COVERED and pos[1, 0] == COVERED
    for off in [(0, 30), (2, 0), (-1, 0), (0, -1)]:
        with pytest.raises(IndexError, match="off the 2x30 board"):
            pos[off]
    with pytest.raises(ValueError, match="not a cell"):
        pos["5E"]


def test_positions_and_layouts_print_as_boards_with_short_reprs() -> None:
    pos = Position.from_rows(["1?", "*2"], mines=2)
    assert str(pos).splitlines() == ["  1 2", "A 1 ?", "B * 2"]
    assert eval(repr(pos), {"Position": Position}) == pos
    big = Position.covered(1000, 1000, 1)
    assert repr(big) == "<Position 1000x1000, mines=1: 1,000,000 cells covered>"
    lay = Layout.from_rows(["*  ", "   "])
    assert str(lay).splitlines()[1:] == ["A * 1  ", "B 1 1  "]
    assert eval(repr(lay), {"Layout": Layout}) == lay
    assert len(repr(Layout(1000, 1000, frozenset({(0, 0)})))) < 80
