"""The analysis engine against an independent brute force (tests/bruteforce.py).

The brute force was written from the rules alone, never from the engine's code, so
every agreement here is two implementations agreeing. The first tests check the
brute force itself against an even plainer enumeration of whole layouts; the rest
check :mod:`minesat.analysis`:

- random positions from partly played random games (boards up to 8x8), and from
  layouts with arbitrary cells revealed: safe/mine/unknown sets and probabilities
  agree exactly (to 1e-9), with the total and without it;
- a cell reported safe is never a mine of the true layout (the worst bug);
- wrong flags and corrupted numbers: an error exactly when no layout exists;
- explanations are sufficient and minimal;
- a reused :class:`Analyzer` answers like a fresh one;
- hand cases: the exam position, empty and solved boards, endgames decided by the
  count, a 1000x1000 board, and the JSON shape of SPEC section 3;
- every position in puzzles/: the brute force where small, its true layout where known.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bruteforce import Result, build_problem, forced, forces, frontier_components, solve, whole_layouts
from minesat.analysis import Analysis, Analyzer, InconsistentPositionError, analyze, explain
from minesat.board import COVERED, FLAG, Cell, Layout, Position, cell_name, neighbours, parse_cell
from minesat.formats import read_layout, read_position
from minesat.game import Game
from minesat.generate import FirstClick, generate_layout, kept_clear

#: Positions whose frontier is larger than this are skipped: the brute force tries up
#: to 2**frontier assignments, and boards up to 8x8 rarely go beyond it.
FRONTIER_LIMIT = 20

#: How close a reported probability must be to the exact fraction.
TOLERANCE = 1e-9


def examples(count: int) -> settings:
    """Hypothesis settings for a property test: ``count`` examples, no per-example deadline."""
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- helpers -----------------------------------------------------------------


def show(position: Position, mines: int | None = None) -> str:
    """The position as Python that rebuilds it, for failure messages."""
    total = position.mines if mines is None else mines
    return f"Position.from_rows({position.to_rows()!r}, mines={total!r})"


def small_enough(position: Position) -> bool:
    return len(build_problem(position).frontier) <= FRONTIER_LIMIT


def covered_cells(position: Position) -> list[Cell]:
    return position.cells_in(COVERED)


def numbers_of(position: Position) -> list[Cell]:
    """The uncovered cells (each shows a number, 0 included), row-major."""
    return [c for c in position.all_cells() if position[c] >= 0]


def replace_cell(position: Position, cell: Cell, state: int) -> Position:
    """``position`` with one cell changed (to a number, :data:`FLAG` or :data:`COVERED`)."""
    cells = list(position.cells)
    cells[cell[0] * position.cols + cell[1]] = state
    return Position(position.rows, position.cols, tuple(cells), position.mines)


def assert_agrees(
    position: Position, analysis: Analysis, expected: Result, total: int | None
) -> None:
    """``analysis`` says exactly what the brute force ``expected`` says (SPEC section 3)."""
    where = show(position, total)
    assert expected.consistent
    shape = (analysis.rows, analysis.cols, analysis.mines)
    assert shape == (position.rows, position.cols, total), where
    assert analysis.safe == tuple(sorted(expected.safe)), f"safe cells differ on {where}"
    assert analysis.mine == tuple(sorted(expected.mine)), f"mined cells differ on {where}"
    assert analysis.unknown == tuple(sorted(expected.unknown)), f"unknown cells differ on {where}"
    assert analysis.exact, where

    grid = analysis.probability
    assert len(grid) == position.rows and all(len(row) == position.cols for row in grid), where
    for cell in position.all_cells():
        got = grid[cell[0]][cell[1]]
        state = position[cell]
        if state >= 0:
            assert got is None, f"uncovered {cell_name(cell)} has probability {got} on {where}"
        elif state == FLAG:
            assert got == 1.0, f"flag {cell_name(cell)} has probability {got} on {where}"
        elif cell in expected.safe:
            assert got == 0.0, f"safe {cell_name(cell)} has probability {got} on {where}"
        elif cell in expected.mine:
            assert got == 1.0, f"mined {cell_name(cell)} has probability {got} on {where}"
        elif expected.probability is None:
            assert got is None, f"no total, yet uncertain {cell_name(cell)} shows {got} on {where}"
        else:
            exact = expected.probability[cell]
            assert got is not None and abs(got - exact) <= TOLERANCE, (
                f"{cell_name(cell)}: engine {got}, exact {exact} = {float(exact)} on {where}"
            )
            assert 0.0 < got < 1.0, where


def check_position(position: Position, layout: Layout | None = None) -> None:
    """Compare the engine with the brute force, with the position's total and without one."""
    totals = [position.mines, None] if position.mines is not None else [None]
    for total in totals:
        subject = position.with_mines(total)
        expected = solve(subject)
        if not expected.consistent:
            with pytest.raises(InconsistentPositionError) as caught:
                analyze(subject)
            assert_names_culprit(subject, caught.value)
            continue
        analysis = analyze(subject)
        assert_agrees(subject, analysis, expected, total)
        if total is not None and analysis.exact:
            assert analysis.layouts == expected.layouts, show(subject)
        if layout is not None:
            # The worst bug: a mined cell called safe. Then a safe cell called mined.
            where = show(subject)
            assert not set(analysis.safe) & layout.mines, f"mine reported safe on {where}"
            assert set(analysis.mine) <= layout.mines, f"safe cell reported mined on {where}"


def assert_names_culprit(position: Position, error: InconsistentPositionError) -> None:
    """The error names an uncovered number or a flag: something that can be contradicted."""
    cell = error.cell
    assert 0 <= cell[0] < position.rows and 0 <= cell[1] < position.cols, show(position)
    assert position[cell] != COVERED, f"names covered {cell_name(cell)} on {show(position)}"
    assert cell_name(cell) in str(error), str(error)


# --- random positions --------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """A layout and the positions a player saw while playing it (flags always right)."""

    layout: Layout
    positions: tuple[Position, ...]


@st.composite
def played_games(draw: st.DrawFn, max_side: int = 8, max_steps: int = 6) -> Played:
    """A seeded random game: first click, then a few random safe uncovers and correct flags."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    rule = draw(st.sampled_from(list(FirstClick)))
    start = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    free = rows * cols - len(kept_clear(rows, cols, start=start, rule=rule))
    mines = draw(st.integers(0, free))
    seed = draw(st.integers(0, 2**32))
    layout = generate_layout(rows, cols, mines, start=start, rule=rule, seed=seed)
    rnd = draw(st.randoms(use_true_random=False))
    steps = draw(st.integers(0, max_steps))
    flag_chance = draw(st.sampled_from([0.0, 0.3, 0.7]))

    game = Game(layout)
    positions = [game.position]  # nothing revealed yet
    for step in range(steps + 1):
        safe = [c for c in game.position.cells_in(COVERED) if c not in layout.mines]
        if not safe:
            break
        game.uncover(start if step == 0 and start in safe else rnd.choice(safe))
        hidden = sorted(c for c in layout.mines if game[c] == COVERED)
        while hidden and rnd.random() < flag_chance:
            game.flag(hidden.pop(rnd.randrange(len(hidden))))
        positions.append(game.position)
    return Played(layout, tuple(positions))


def reveal(layout: Layout, uncovered: set[Cell], flagged: set[Cell], mines: int | None) -> Position:
    """The position showing ``uncovered`` (true numbers) and ``flagged``, without flood fill."""
    counts = layout.counts
    cells = []
    for i in range(layout.rows * layout.cols):
        cell = divmod(i, layout.cols)
        cells.append(counts[i] if cell in uncovered else FLAG if cell in flagged else COVERED)
    return Position(layout.rows, layout.cols, tuple(cells), mines)


@st.composite
def revealed_layouts(draw: st.DrawFn, max_side: int = 7) -> tuple[Layout, Position]:
    """A random layout with arbitrary safe cells shown: zeros may border covered cells."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    mines = draw(st.integers(0, rows * cols))
    seed = draw(st.integers(0, 2**32))
    layout = generate_layout(rows, cols, mines, rule=FirstClick.ANY, seed=seed)
    rnd = draw(st.randoms(use_true_random=False))
    show_chance = draw(st.sampled_from([0.2, 0.5, 0.8]))
    flag_chance = draw(st.sampled_from([0.0, 0.3, 0.8]))
    safe = [c for c in layout_cells(layout) if c not in layout.mines]
    uncovered = {c for c in safe if rnd.random() < show_chance}
    flagged = {c for c in sorted(layout.mines) if rnd.random() < flag_chance}
    return layout, reveal(layout, uncovered, flagged, mines)


def layout_cells(layout: Layout) -> list[Cell]:
    return [(r, c) for r in range(layout.rows) for c in range(layout.cols)]


# --- the brute force itself --------------------------------------------------


def naive(position: Position, total: int | None) -> tuple[int, dict[Cell, int]]:
    """Count whole layouts by trying every subset of covered cells; per cell, how many hold a mine.

    Even plainer than the brute force: no frontier, no interior, no weights.
    """
    covered = covered_cells(position)
    layouts, mined = 0, dict.fromkeys(covered, 0)
    for mines in whole_layouts(position, total):
        layouts += 1
        for cell in covered:
            mined[cell] += cell in mines
    return layouts, mined


@examples(150)
@given(revealed_layouts(max_side=4))
def test_bruteforce_matches_whole_layout_enumeration(case: tuple[Layout, Position]) -> None:
    _, position = case
    for total in (position.mines, None):
        layouts, mined = naive(position, total)
        result = solve(position.with_mines(total))
        assert result.consistent == (layouts > 0)
        if not layouts:
            continue
        assert result.safe == {c for c, m in mined.items() if m == 0}
        assert result.mine == {c for c, m in mined.items() if m == layouts}
        if total is not None:
            assert result.probability == {c: Fraction(m, layouts) for c, m in mined.items()}


def test_bruteforce_hand_cases() -> None:
    # Three covered cells around a 1, one mine in all: each holds it a third of the time.
    p = Position.from_rows(["1?", "??"], mines=1)
    assert solve(p).probability == dict.fromkeys([(0, 1), (1, 0), (1, 1)], Fraction(1, 3))
    # Two cells, one constraint: a coin toss, and no interior to take a second mine.
    pair = Position.from_rows(["?1?"])
    assert solve(pair, 1).probability == {(0, 0): Fraction(1, 2), (0, 2): Fraction(1, 2)}
    assert not solve(pair, 2).consistent
    assert solve(pair).unknown == {(0, 0), (0, 2)} and solve(pair).probability is None
    # Interior cells take what the frontier leaves: with 2 mines, each interior cell 1/2.
    line = Position.from_rows(["?1???"])
    assert solve(line, 1).safe == {(0, 3), (0, 4)}
    half = Fraction(1, 2)
    assert solve(line, 2).probability == dict.fromkeys([(0, 0), (0, 2), (0, 3), (0, 4)], half)
    assert solve(line).unknown == {(0, 0), (0, 2), (0, 3), (0, 4)}
    # A number already met by flags makes its other neighbours safe; a full one mines them.
    assert solve(Position.from_rows(["*1", "??"])).safe == {(1, 0), (1, 1)}
    assert solve(Position.from_rows(["??", "?3"])).mine == {(0, 0), (0, 1), (1, 0)}
    # Contradictions: a number with no covered neighbours and too few flags; too many flags.
    assert not solve(Position.from_rows(["1 "])).consistent
    assert not solve(Position.from_rows(["**?"], mines=1)).consistent
    assert not solve(Position.from_rows(["1?", "??"], mines=0)).consistent


def test_forced_uses_only_the_given_constraints() -> None:
    # Row B "121" under three covered cells: A1 and A3 are mines, A2 is safe, and all
    # three numbers are needed to show it, unless the count (2) replaces the 2.
    p = Position.from_rows(["???", "121"])
    assert solve(p).mine == {(0, 0), (0, 2)} and solve(p).safe == {(0, 1)}
    assert forced(p, (0, 1), [(1, 0), (1, 1), (1, 2)], False) is False
    for pair in ([(1, 0), (1, 2)], [(1, 0), (1, 1)], [(1, 1), (1, 2)]):
        assert forced(p, (0, 1), pair, False) is None
    assert forced(p, (0, 2), [(1, 0), (1, 1)], False) is True
    assert forces(p, (0, 1), [(1, 0), (1, 2)], True, mines=2, mined=False)
    assert forced(p, (0, 1), [], True, mines=2) is None


# --- the engine against the brute force --------------------------------------


@examples(600)
@given(played_games())
def test_played_positions_agree_with_bruteforce(played: Played) -> None:
    for position in played.positions:
        if small_enough(position):
            check_position(position, played.layout)


@examples(500)
@given(revealed_layouts())
def test_revealed_positions_agree_with_bruteforce(case: tuple[Layout, Position]) -> None:
    layout, position = case
    if small_enough(position):
        check_position(position, layout)


@examples(200)
@given(played_games(max_steps=3), st.randoms(use_true_random=False), st.sampled_from([0.1, 0.3]))
def test_wrong_flags_are_mines_or_contradictions(
    played: Played, rnd: random.Random, rate: float
) -> None:
    """Flags on arbitrary covered cells: the engine takes them as mines, right or wrong."""
    position = played.positions[-1]
    cells = list(position.cells)
    for i, state in enumerate(cells):
        if state == COVERED and rnd.random() < rate:
            cells[i] = FLAG
    flagged = Position(position.rows, position.cols, tuple(cells), position.mines)
    if small_enough(flagged):
        check_position(flagged)


@examples(250)
@given(played_games(max_steps=3), st.randoms(use_true_random=False))
def test_corrupted_numbers_raise_exactly_when_no_layout_exists(
    played: Played, rnd: random.Random
) -> None:
    """Change one shown number: an error exactly when the brute force finds no layout."""
    position = played.positions[-1]
    numbers = numbers_of(position)
    if not numbers:
        return
    cell = rnd.choice(numbers)
    # Only values a board file could hold: at most the number of neighbours.
    value = rnd.randint(0, len(list(neighbours(cell, position.rows, position.cols))))
    corrupted = replace_cell(position, cell, value)
    if small_enough(corrupted):
        check_position(corrupted)


@examples(60)
@given(played_games())
def test_mines_argument_overrides_the_position(played: Played) -> None:
    position = played.positions[-1]
    if not small_enough(position) or not solve(position).consistent:
        return
    assert analyze(position.with_mines(None), position.mines) == analyze(position)
    assert analyze(position, position.mines) == analyze(position)


@examples(60)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_reused_analyzer_answers_like_a_fresh_one(played: Played, rnd: random.Random) -> None:
    """One Analyzer through a whole game (with and without the total, and a bad position)."""
    analyzer = Analyzer()
    shape = (played.layout.rows, played.layout.cols)
    for position in played.positions:
        if not small_enough(position):
            continue
        for subject in (position, position.with_mines(None)):
            assert analyzer.analyze(subject) == analyze(subject), show(subject)
        # Its cache must survive a contradiction too: a number larger than its neighbours.
        room = {c: sum(1 for _ in neighbours(c, *shape)) for c in numbers_of(position)}
        small = [c for c in numbers_of(position) if room[c] < 8]
        if small and rnd.random() < 0.3:
            cell = rnd.choice(small)
            bad = replace_cell(position, cell, room[cell] + 1)
            with pytest.raises(InconsistentPositionError):
                analyzer.analyze(bad)


@examples(100)
@given(played_games())
def test_components_are_frontier_groups(played: Played) -> None:
    """``components`` counts frontier groups linked through shared numbers (partial.dat: 3)."""
    position = played.positions[-1]
    if small_enough(position) and solve(position).consistent:
        assert analyze(position).components == frontier_components(position), show(position)


# --- explanations ------------------------------------------------------------


def check_explanation(position: Position, cell: Cell, mined: bool) -> None:
    """``explain`` is right about the cell, and its constraints are sufficient and minimal."""
    where = f"{cell_name(cell)} on {show(position)}"
    why = explain(position, cell)
    assert why.cell == cell, where
    assert why.mined == mined, where
    assert list(why.numbers) == sorted(set(why.numbers)), where
    assert all(position[n] >= 0 for n in why.numbers), f"not all uncovered numbers: {why}, {where}"
    assert not why.uses_total or position.mines is not None, where
    sufficient = forces(position, cell, why.numbers, why.uses_total, mined=mined)
    assert sufficient, f"insufficient: {why}, {where}"
    for dropped in why.numbers:
        rest = [n for n in why.numbers if n != dropped]
        assert not forces(position, cell, rest, why.uses_total, mined=mined), (
            f"not minimal, {cell_name(dropped)} is not needed: {why}, {where}"
        )
    if why.uses_total:
        assert not forces(position, cell, why.numbers, False, mined=mined), (
            f"not minimal, the total is not needed: {why}, {where}"
        )


@examples(200)
@given(played_games(), st.randoms(use_true_random=False))
def test_explanations_are_sufficient_and_minimal(played: Played, rnd: random.Random) -> None:
    position = played.positions[-1]
    if not small_enough(position):
        return
    for subject in (position, position.with_mines(None)):
        result = solve(subject)
        certain = sorted(result.safe | result.mine)
        for cell in rnd.sample(certain, min(3, len(certain))):
            check_explanation(subject, cell, cell in result.mine)
        if result.unknown:
            with pytest.raises(ValueError):
                explain(subject, rnd.choice(sorted(result.unknown)))


@examples(100)
@given(played_games(), st.randoms(use_true_random=False))
def test_explanations_past_the_node_budget_are_irreducible_and_told_apart(
    played: Played, rnd: random.Random
) -> None:
    """With no node to spend the proof is the solver's core shrunk: it still forces the cell and no
    number of it can go; a caller who says which way the cell is proven gets the same answer."""
    position = played.positions[-1]
    if not small_enough(position):
        return
    result = solve(position)
    certain = sorted(result.safe | result.mine)
    for cell in rnd.sample(certain, min(3, len(certain))):
        mined = cell in result.mine
        quick = explain(position, cell, max_nodes=0)
        assert quick.mined == mined and forces(position, cell, quick.numbers, quick.uses_total, mined=mined)
        for dropped in quick.numbers:
            rest = [n for n in quick.numbers if n != dropped]
            assert not forces(position, cell, rest, quick.uses_total, mined=mined)
        assert len(quick.numbers) >= len(explain(position, cell).numbers)
        assert explain(position, cell, mined=mined) == explain(position, cell)


# --- hand cases --------------------------------------------------------------

#: puzzles/partial.dat, the exam position (``*`` flags; leading blanks are uncovered zeros).
PARTIAL = [
    "   1????1",
    "   123*21",
    "     1121",
    "11     1*",
    "?1     11",
    "?1       ",
    "?111     ",
    "??*111222",
    "??111????",
]
PARTIAL_SAFE = ["A7", "F1", "G1", "H1", "H2", "I1", "I2", "I7"]
PARTIAL_MINES = ["A5", "A6", "A8", "E1", "I6", "I8", "I9"]


def partial_position() -> Position:
    return Position.from_rows(PARTIAL, mines=10)


def test_partial_dat_with_ten_mines() -> None:
    position = partial_position()
    analysis = analyze(position)
    assert analysis.safe == tuple(parse_cell(name) for name in PARTIAL_SAFE)
    assert analysis.mine == tuple(parse_cell(name) for name in PARTIAL_MINES)
    assert analysis.unknown == ()
    assert analysis.components == 3
    assert_agrees(position, analysis, solve(position), 10)


def test_partial_dat_file_matches_the_inline_position() -> None:
    path = Path(__file__).resolve().parents[1] / "puzzles" / "partial.dat"
    position = read_position(path)
    assert position.cells == partial_position().cells
    assert position.mines == 10


PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
PUZZLE_FILES = sorted(
    path for path in PUZZLES.glob("*")
    if path.suffix in {".txt", ".dat", ".json", ".mine"} and ".layout." not in path.name
)


def test_the_puzzle_positions_are_there() -> None:
    # An empty list would silently parametrize test_puzzle_files into nothing.
    names = {path.name for path in PUZZLE_FILES}
    assert {"partial.dat", "expert-early.txt", "expert-mid.txt", "expert-late.txt"} <= names


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda path: path.name)
def test_puzzle_files(path: Path) -> None:
    """Every shipped position: brute force where it is small, its true layout where known."""
    position = read_position(path)
    layout_path = path.with_name(path.name.split(".")[0] + ".layout.txt")
    layout = read_layout(layout_path) if layout_path.exists() else None
    if small_enough(position):
        check_position(position, layout)
    elif layout is not None:
        for total in (position.mines, None):
            analysis = analyze(position.with_mines(total))
            assert not set(analysis.safe) & layout.mines, f"mine reported safe in {path.name}"
            assert set(analysis.mine) <= layout.mines, f"safe cell reported mined in {path.name}"


def test_partial_dat_explanations() -> None:
    position = partial_position()
    for name in PARTIAL_SAFE + PARTIAL_MINES:
        check_explanation(position, parse_cell(name), name in PARTIAL_MINES)


def test_nothing_revealed() -> None:
    position = Position.covered(3, 4)
    for mines in (0, 1, 5, 11, 12):
        analysis = analyze(position, mines)
        p = mines / 12
        row = (pytest.approx(p, abs=TOLERANCE),) * 4
        assert analysis.probability == (row, row, row)
        if p in (0.0, 1.0):  # certain cells are exactly 0.0 or 1.0
            assert all(q == p for row in analysis.probability for q in row)
        cells = tuple(position.all_cells())
        assert analysis.safe == (cells if mines == 0 else ())
        assert analysis.mine == (cells if mines == 12 else ())
        assert analysis.unknown == (cells if 0 < mines < 12 else ())
        assert analysis.components == 0
    unknown_total = analyze(position)
    assert unknown_total.mines is None
    assert unknown_total.unknown == tuple(position.all_cells())
    assert unknown_total.probability == tuple((None,) * 4 for _ in range(3))


def test_fully_solved() -> None:
    layout = Layout.from_rows(["*   ", "  * ", "    "])
    solved = layout.solution()
    for total in (2, None):
        analysis = analyze(solved, total)
        assert (analysis.safe, analysis.mine, analysis.unknown) == ((), (), ())
        assert analysis.probability == tuple(
            tuple(1.0 if (r, c) in layout.mines else None for c in range(4)) for r in range(3)
        )
    # Won by uncovering alone: the mine is still covered, and certain.
    game = Game(Layout.from_rows(["*  ", "   ", "   "]))
    game.uncover((2, 2))
    assert game.over
    for total in (1, None):
        assert analyze(game.position, total).mine == ((0, 0),)


@pytest.mark.parametrize(
    ("rows", "mines", "culprits"),
    [
        (["1 "], None, {(0, 0)}),  # a 1 with nothing around it
        (["*0"], None, {(0, 0), (0, 1)}),  # a flag beside a zero
        (["1?", "??"], 0, {(0, 0)}),  # the count leaves no mine for the 1
        (["?1", "?3"], None, {(1, 1)}),  # a 3 with two covered neighbours
        (["**?"], 1, {(0, 0), (0, 1)}),  # more flags than mines
        (["?2?", "?0?"], None, {(0, 1), (1, 1)}),  # the zero clears the 2's cells
        (["?1 ", "?2 "], None, {(0, 1), (1, 1)}),  # a 1 and a 2 on the same two cells
        ([" ?1"], None, {(0, 0), (0, 2)}),  # the zero clears the cell the 1 needs
        (["*2", "1?"], None, {(0, 1), (1, 0)}),  # the flag meets the 1, not the 2
    ],
)
def test_inconsistent_positions(rows: list[str], mines: int | None, culprits: set[Cell]) -> None:
    position = Position.from_rows(rows, mines)
    if solve(position).consistent:
        pytest.skip("not actually inconsistent")  # guards the table itself
    with pytest.raises(InconsistentPositionError) as caught:
        analyze(position)
    assert caught.value.cell in culprits, str(caught.value)
    assert_names_culprit(position, caught.value)


def test_explain_refuses_what_is_not_certain() -> None:
    position = Position.from_rows(["*1??"])
    for cell in [(0, 0), (0, 1)]:  # a flag, an uncovered number: nothing to explain
        with pytest.raises(ValueError):
            explain(position, cell)
    with pytest.raises(ValueError):
        explain(position, (0, 3))  # uncertain without the total
    # The argument supplies the missing total; the flag already uses it up, so no number
    # is needed at all.
    why = explain(position, (0, 3), mines=1)
    assert (why.mined, why.numbers, why.uses_total) == (False, (), True)


def test_explanation_is_the_smallest() -> None:
    """Issue 3 asks for the smallest set of numbers, not just one that cannot shrink.

    B4 is forced by A5 alone (its only covered neighbour), and also by A2 with A3;
    the second set is minimal (neither number suffices alone) but not the smallest.
    """
    position = Position.from_rows(["11211 ", "1???1 "], mines=2)
    why = explain(position, parse_cell("B4"))
    assert (why.mined, why.numbers, why.uses_total) == (True, (parse_cell("A5"),), False)


def test_endgame_decided_by_the_count() -> None:
    # The 1 pins A2; with one mine in all, the cells no number touches are safe.
    accounted = Position.from_rows(["1???"], mines=1)
    assert analyze(accounted).safe == ((0, 2), (0, 3))
    assert analyze(accounted).mine == ((0, 1),)
    assert analyze(accounted.with_mines(None)).unknown == ((0, 2), (0, 3))
    why = explain(accounted, (0, 3))
    assert (why.mined, why.numbers, why.uses_total) == (False, ((0, 0),), True)
    # No number decides anything here; only the count clears the interior.
    line = Position.from_rows(["?1???"], mines=1)
    analysis = analyze(line)
    assert analysis.safe == ((0, 3), (0, 4))
    assert analysis.probability == ((0.5, None, 0.5, 0.0, 0.0),)
    why = explain(line, (0, 4))
    assert (why.mined, why.numbers, why.uses_total) == (False, ((0, 1),), True)
    # The count can also make mines: the 1 takes one, the two interior cells the rest.
    full = Position.from_rows(["?1???"], mines=3)
    assert analyze(full).mine == ((0, 3), (0, 4))
    assert analyze(full).unknown == ((0, 0), (0, 2))


def test_total_couples_components() -> None:
    # The 1s hold one mine (the middle) or two (the ends), leaving one or none for the
    # two interior cells: 2 + 1 layouts, so the middle is a mine in 2 of 3.
    position = Position.from_rows(["?1?1???"], mines=2)
    analysis = analyze(position)
    third = pytest.approx(1 / 3, abs=TOLERANCE)
    two_thirds = pytest.approx(2 / 3, abs=TOLERANCE)
    assert analysis.probability == ((third, None, two_thirds, None, third, third, third),)
    assert_agrees(position, analysis, solve(position), 2)


def test_thousand_by_thousand() -> None:
    """A mostly uncovered 1000x1000 board: a covered block, a covered corner mine, a flag."""
    side = 1000
    mines = frozenset({(0, 0), (500, 500), (500, 502), (999, 999), (200, 700)})
    layout = Layout(side, side, mines)
    cells = list(layout.counts)
    block = [(r, c) for r in range(499, 502) for c in range(499, 504)]
    for r, c in [*block, (999, 999), (200, 700), (200, 701), (201, 700)]:
        cells[r * side + c] = COVERED
    cells[0] = FLAG
    position = Position(side, side, tuple(cells), len(mines))
    for total in (None, len(mines)):
        subject = position.with_mines(total)
        analysis = analyze(subject)
        assert_agrees(subject, analysis, solve(subject), total)
        assert (999, 999) in analysis.mine and (200, 700) in analysis.mine
    # The block's ring shows only zeros, so its border cells are safe; the three middle
    # cells hold the two mines left after the flag and the two certain mines.
    assert analysis.probability[500][501] == pytest.approx(2 / 3)
    middle = {(500, 500), (500, 501), (500, 502)}
    assert analysis.safe == tuple(sorted(set(block) - middle | {(200, 701), (201, 700)}))


def test_json_shape() -> None:
    analysis = analyze(partial_position())
    data = json.loads(json.dumps(analysis.to_json()))
    spec_keys = {"rows", "cols", "mines", "safe", "mine", "unknown", "probability", "moves"}
    assert spec_keys | {"components"} <= set(data)
    assert (data["rows"], data["cols"], data["mines"]) == (9, 9, 10)
    assert data["safe"] == [list(parse_cell(n)) for n in PARTIAL_SAFE]
    assert data["mine"] == [list(parse_cell(n)) for n in PARTIAL_MINES]
    assert data["unknown"] == []
    assert data["moves"] == PARTIAL_SAFE + [n + "*" for n in PARTIAL_MINES]
    assert data["components"] == 3
    grid = data["probability"]
    assert len(grid) == 9 and all(len(row) == 9 for row in grid)
    assert grid[0][0] is None and grid[1][6] == 1.0 and grid[0][6] == 0.0 and grid[0][4] == 1.0

    open_total = analyze(Position.from_rows(["?1?"])).to_json()
    assert open_total["mines"] is None
    assert open_total["probability"] == [[None, None, None]]
    assert open_total["unknown"] == [[0, 0], [0, 2]] and open_total["moves"] == []


@examples(200)
@given(revealed_layouts(max_side=4), st.randoms(use_true_random=False))
def test_interior_counter_counts_what_whole_layouts_show(
    case: tuple[Layout, Position], rnd: random.Random
) -> None:
    """Layouts with some interior cells mined and others safe, in closed form, against enumeration."""
    _, position = case
    counter = Analyzer().interior_counter(position)
    layouts = list(whole_layouts(position, position.mines))
    if not layouts:
        assert counter == 0
        return
    assert counter is not None and not isinstance(counter, int)
    assert counter.layouts() == len(layouts)
    numbers = set(numbers_of(position))
    interior = [c for c in covered_cells(position)
                if not any(n in numbers for n in neighbours(c, position.rows, position.cols))]
    assert counter.interior == len(interior)
    rnd.shuffle(interior)
    for mined in range(len(interior) + 1):
        for safe in range(len(interior) - mined + 1):
            some, others = interior[:mined], interior[mined:mined + safe]
            expected = sum(all(c in m for c in some) and not any(c in m for c in others) for m in layouts)
            assert counter.layouts(mined=mined, safe=safe) == expected
