"""The small-board road (minesat.analysis.small) is only a shortcut: the general road's very answers.

Boards of up to SMALL_CELLS cells are read whole as bit masks; every other
board, and every Analyzer built with ``small_boards=False``, takes the general
road of incremental constraints. tests/test_analysis.py checks the default
Analyzer (on its boards up to 8x8, the small road) against the brute force;
here the general road must give the same Analysis, value for value, or blame
the same number, on the same positions and on positions one cell away.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bruteforce import whole_layouts
from minesat.analysis import Analysis, Analyzer, InconsistentPositionError, counting, small, smallroad
from minesat.analysis.constraints import Component, Constraint
from minesat.analysis.counting import count_component
from minesat.analysis.patterns import pattern_counter
from minesat.board import COVERED, FLAG, Layout, Position, neighbours
from minesat.generate import generate_layout
from minesat.player import get_strategy, play_game
from test_analysis import Played, examples, played_games, replace_cell, revealed_layouts


def outcome(analyzer: Analyzer, position: Position) -> tuple:
    """The whole Analysis, or the number an inconsistent position is blamed on."""
    try:
        return ("analysis", analyzer.analyze(position))
    except InconsistentPositionError as err:
        return ("inconsistent", err.cell)


def proof(analyzer: Analyzer, position: Position) -> tuple:
    try:
        return ("proven", analyzer.proven(position))
    except InconsistentPositionError as err:
        return ("inconsistent", err.cell)


def nearby(position: Position, rnd: random.Random) -> list[Position]:
    """The position and a few others one cell away from it (any cell set to a number, a flag, covered)."""
    out = [position]
    for _ in range(4):
        i = rnd.randrange(len(position.cells))
        cells = list(position.cells)
        cells[i] = rnd.choice([0, 1, 2, 3, FLAG, COVERED])
        out.append(Position(position.rows, position.cols, tuple(cells), position.mines))
    return out


def assert_roads_agree(positions: list[Position]) -> None:
    """Fresh and reused Analyzers on both roads: the same outcome and the same proofs."""
    small_road, general_road = Analyzer(), Analyzer(small_boards=False)
    for position in positions:
        for subject in (position, position.with_mines(None)):
            expected = outcome(Analyzer(small_boards=False), subject)
            assert outcome(Analyzer(), subject) == expected, subject.to_rows()
            assert outcome(small_road, subject) == expected, subject.to_rows()
            assert outcome(general_road, subject) == expected, subject.to_rows()
            if expected[0] == "analysis":
                assert proof(small_road, subject) == ("proven", (expected[1].safe, expected[1].mine))


@examples(150)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_played_positions_take_either_road_alike(game: Played, rnd: random.Random) -> None:
    """150 games (benchmarks/heavy plays 300)."""
    check_played_positions_take_either_road(game, rnd)


def check_played_positions_take_either_road(game: Played, rnd: random.Random) -> None:
    assert_roads_agree([look for position in game.positions for look in nearby(position, rnd)])


@examples(200)
@given(revealed_layouts())
def test_revealed_positions_take_either_road_alike(case: tuple[Layout, Position]) -> None:
    # Zeros next to covered cells, numbers far from each other: what a game never shows.
    assert_roads_agree([case[1]])


@examples(100)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_counted_parts_give_what_enumerated_parts_give(game: Played, rnd: random.Random) -> None:
    # With no enumeration step allowed, every part is counted by count_component.
    positions = [look for position in game.positions for look in nearby(position, rnd)]
    enumerated = [outcome(Analyzer(), p) for p in positions]
    with mock.patch.object(smallroad, "ENUMERATION_STEPS", 0):
        assert [outcome(Analyzer(), p) for p in positions] == enumerated


def open_parts(game: Played) -> Iterator[tuple[Position, int, list[small.MaskConstraint]]]:
    """Every part the local rules leave open in the game's positions: its position, cells, constraints."""
    for position in game.positions:
        reading = small.read(position)
        settled = small.settle(reading.constraints) if reading is not None else None
        if settled is not None:
            for mask, constraints in small.split(settled[2]):
                yield position, mask, constraints


def component_of(constraints: list[small.MaskConstraint], mask: int, cols: int) -> Component:
    """A part as the general road holds it: its cells and constraints as cells."""
    return Component(
        tuple(small.cells(mask, cols)),
        tuple(Constraint(tuple(small.cells(m, cols)), k, divmod(n, cols)) for m, k, n in constraints),
    )


@examples(100)
@given(played_games(max_steps=10))
def test_a_part_counted_from_its_masks_is_the_part_counted_from_its_cells(game: Played) -> None:
    # The small road groups a part's boxes from its masks and reads what it decides from the
    # fills, its count made only when asked: all as count_with_layouts and Part.of_count give.
    for position, mask, constraints in open_parts(game):
        cols = position.cols
        component = component_of(constraints, mask, cols)
        cells = component.cells
        box_cells, box_cons, counts = counting._boxes(component)
        box_masks, mask_cons, mask_counts = smallroad.boxes(constraints)
        assert [tuple(small.cells(m, cols)) for m in box_masks] == box_cells
        assert (mask_cons, mask_counts) == (box_cons, counts)
        found = counting.count_with_layouts(component)
        assert found is not None
        with mock.patch.object(smallroad, "ENUMERATION_STEPS", 0):  # every part counted
            part = Analyzer().small_road.part(constraints, position.rows, position.cols)
        if not any(found[0].ways):
            assert part is None
            continue
        old = smallroad.Part.of_count(mask, cols, cells, *found)
        assert part is not None
        for name in ("safe", "mine", "low", "high", "cells"):
            assert getattr(part, name) == getattr(old, name)
        if part.boxes is not None and old.boxes is not None:
            assert (part.boxes, part.fills, part.fill_ways) == (old.boxes, old.fills, old.fill_ways)
        assert part.count == old.count and list(part.count.mine_ways) == list(old.count.mine_ways)


Listed = tuple[int, list[small.MaskConstraint]]


def listed_parts(game: Played, move: int) -> Iterator[tuple[Position, Listed, Listed]]:
    """Every open part the small road lists (of at most ENUMERATED_CELLS cells): its position, its
    cells and constraints, and the same moved up by ``move`` bits (masks and numbers alike)."""
    for position, mask, constraints in open_parts(game):
        if mask.bit_count() <= smallroad.ENUMERATED_CELLS:
            moved = [(m << move, k, n + move) for m, k, n in constraints]
            yield position, (mask, constraints), (mask << move, moved)


@examples(100)
@given(played_games(max_steps=10), st.integers(0, 40))
def test_a_shape_lists_the_same_layouts_wherever_it_is(game: Played, move: int) -> None:
    # The process remembers listings by shape: a part and the part moved by some bits, either
    # listed first, list what the enumeration lists for each, and a step limit of its own is kept.
    for _, here, there in listed_parts(game, move):
        for order in [(here, there), (there, here)]:
            smallroad._LISTINGS.clear()
            for cells, part in order:
                listed = small.solutions(part, smallroad.ENUMERATION_STEPS)
                assert smallroad._listing(part, cells) == listed
                with mock.patch.object(smallroad, "ENUMERATION_STEPS", 1):
                    assert smallroad._listing(part, cells) == small.solutions(part, 1)


@examples(100)
@given(played_games(max_steps=10), st.integers(0, 40))
def test_a_part_from_its_shape_is_the_part_from_its_layouts(game: Played, move: int) -> None:
    # A part met again is decided from its remembered shape (the cells some and every layout
    # mines, moved back), its layouts moved back only when asked: the part its layouts make.
    for position, here, there in listed_parts(game, move):
        cols = position.cols
        for cells, part in [here, there]:
            layouts = small.solutions(part, smallroad.ENUMERATION_STEPS)
            found = smallroad._shape(part, cells)
            if layouts is None:
                assert found is None
                continue
            assert found is not None
            shaped = smallroad.Part.of_shape(cells, cols, *found)
            if not layouts:
                assert shaped is None
                continue
            listed = smallroad.Part.of_layouts(cells, cols, layouts)
            assert shaped is not None
            for name in ("safe", "mine", "low", "high", "layouts", "ways", "cells"):
                assert getattr(shaped, name) == getattr(listed, name), name
            assert shaped.count == listed.count


@examples(200)
@given(played_games(max_steps=10))
def test_enumerated_layouts_count_as_count_component_counts(game: Played) -> None:
    # Every part the rules leave open: its layouts one by one against the exact count.
    for position, mask, constraints in open_parts(game):
        cols = position.cols
        if mask.bit_count() > smallroad.ENUMERATED_CELLS:
            # The engine counts such parts and never lists them; listing one
            # can take millions of steps (a hypothesis example once passed 10**6).
            continue
        layouts = small.solutions(constraints, 10**7)
        assert layouts is not None
        component = component_of(constraints, mask, cols)
        cells = component.cells
        count = count_component(component)
        assert count is not None
        assert len(set(layouts)) == len(layouts)  # each layout once
        ways = [0] * (len(cells) + 1)
        for layout in layouts:
            ways[layout.bit_count()] += 1
        assert tuple(ways) == count.ways
        for cell in cells:
            bit = 1 << (cell[0] * cols + cell[1])
            mined = [0] * (len(cells) + 1)
            for layout in layouts:
                if layout & bit:
                    mined[layout.bit_count()] += 1
            assert tuple(mined) == count.mine_ways[cell]


def test_expert_games_take_either_road_alike() -> None:
    # Expert boards take the small road too: whole games of them, every position.
    seen: list[Position] = []

    class Recording(Analyzer):
        def proven(self, position: Position, mines: int | None = None) -> tuple:
            seen.append(position)
            return super().proven(position, mines)

    for seed in range(3):
        layout = generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=seed)
        play_game(layout, (3, 3), strategy=get_strategy("safest"), analyzer=Recording())
    assert smallroad.SMALL_CELLS >= 16 * 30
    general = Analyzer(small_boards=False)
    small_road = Analyzer()
    for position in seen:
        expected = outcome(general, position)
        assert outcome(small_road, position) == expected
        assert isinstance(expected[1], Analysis) and expected[1].exact


def test_larger_boards_keep_the_general_road() -> None:
    # One cell past the limit: no reading, no part counted on the small road.
    analyzer = Analyzer()
    position = Position.covered(1, smallroad.SMALL_CELLS + 1, mines=3)
    cells = list(position.cells)
    cells[0] = 1
    analyzer.analyze(Position(1, smallroad.SMALL_CELLS + 1, tuple(cells), 3))
    assert not analyzer.small_road._parts and analyzer.small_road._last is None


@pytest.mark.parametrize(
    "rows",
    [
        ["1 ", "  "],  # a 1 that sees no covered cell and no flag
        ["1*", "*?"],  # a 1 with two flags
        ["4?", "??"],  # a 4 with three neighbours
        ["2?", "1?"],  # each fine alone: the 2 mines both cells, the 1 wants one
    ],
)
def test_broken_numbers_go_back_to_the_general_road(rows: list[str]) -> None:
    # The small road declines; the general road names the number, for both.
    position = Position.from_rows(rows, mines=2)
    reading = small.read(position)
    assert reading is None or small.settle(reading.constraints) is None
    expected = outcome(Analyzer(small_boards=False), position)
    assert expected[0] == "inconsistent"
    assert outcome(Analyzer(), position) == expected


def test_unknown_states_are_not_read() -> None:
    assert small.read(Position(1, 2, (9, COVERED), 1)) is None
    assert small.read(Position(1, 2, (-3, COVERED), 1)) is None
    assert small.read(Position(1, 2, (300, COVERED), 1)) is None
    assert small.read(Position(1, 2, (1.0, COVERED), 1)) is None  # type: ignore[arg-type]


@examples(150)
@given(st.lists(played_games(max_steps=10), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_a_reading_from_the_last_is_a_reading_afresh(games: list[Played], rnd: random.Random) -> None:
    """read_since, chained over the positions of games of several sizes (and broken ones one cell
    away, some unreadable), reads what read reads afresh; as does a road reused across them."""
    last: small.Read | None = None
    shared = Analyzer()
    for game in games:
        for position in game.positions:
            for look in nearby(position, rnd)[:3]:
                fresh = small.read(look)
                found = small.read_since(look, last)
                assert (None if found is None else found[1]) == fresh, look.to_rows()
                last = found or last
                if look.mines is not None:
                    assert outcome(shared, look) == outcome(Analyzer(), look), look.to_rows()


def test_near_marks_each_cell_and_its_neighbours() -> None:
    rnd = random.Random(4)
    for rows, cols in [(1, 1), (1, 7), (7, 1), (3, 5), (9, 9), (16, 30)]:
        geometry = small.Geometry.of(rows, cols)
        for _ in range(20):
            mask = rnd.getrandbits(rows * cols)
            expected = mask
            for r, c in small.cells(mask, cols):
                for nr, nc in neighbours((r, c), rows, cols):
                    expected |= 1 << (nr * cols + nc)
            assert geometry.near(mask) == expected


# --- what the look-ahead and the long-term risk read off the small road -------------------


def glance_by_analysis(position: Position, few: int) -> tuple | None:
    """What Analyzer.glance must say, read off the general road's whole Analysis."""
    try:
        analysis = Analyzer(small_boards=False).analyze(position)
    except InconsistentPositionError:
        return None
    grid = analysis.probability
    lowest = sorted(p for r, c in analysis.unknown if (p := grid[r][c]) is not None)[:few]
    return analysis.layouts, len(analysis.safe), tuple(lowest)


@examples(100)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_a_glance_reads_what_the_analysis_gives(game: Played, rnd: random.Random) -> None:
    """100 games (benchmarks/heavy plays 200)."""
    check_a_glance_reads_the_analysis(game, rnd)


def check_a_glance_reads_the_analysis(game: Played, rnd: random.Random) -> None:
    # Positions one cell away are often inconsistent: a glance says None where analyze raises.
    shared = Analyzer()
    for position in game.positions:
        for look in nearby(position, rnd):
            few = rnd.randrange(4)
            expected = glance_by_analysis(look, few)
            for analyzer in (Analyzer(), shared):
                got = analyzer.glance(look, few)
                read = None if got is None else (got.layouts, got.safe, got.lowest)
                assert read == expected, look.to_rows()


def random_pattern(covered: list, rnd: random.Random) -> tuple[list, list]:
    """Up to four covered cells, some to be mined and the others safe."""
    chosen = rnd.sample(covered, min(len(covered), rnd.randrange(5)))
    cut = rnd.randrange(len(chosen) + 1)
    return chosen[:cut], chosen[cut:]


def flagged_count(position: Position, mined: list, safe: list) -> int:
    """Layouts with ``mined`` mines and ``safe`` safe, from flagged positions on the general road."""
    total = 0
    for k in range(len(safe) + 1):
        for extra in itertools.combinations(safe, k):
            cells = list(position.cells)
            for r, c in (*mined, *extra):
                cells[r * position.cols + c] = FLAG
            flagged = Position(position.rows, position.cols, tuple(cells), position.mines)
            total += (-1) ** k * (Analyzer(small_boards=False).layouts(flagged) or 0)
    return total


@pytest.mark.parametrize("steps", [smallroad.ENUMERATION_STEPS, 0])  # 0: every part counted, none listed
@examples(50)
@given(game=played_games(max_steps=10), rnd=st.randoms(use_true_random=False))
def test_pattern_counts_are_the_counts_of_flagged_positions(
    steps: int, game: Played, rnd: random.Random
) -> None:
    """50 games each way (benchmarks/heavy plays 100)."""
    with mock.patch.object(smallroad, "ENUMERATION_STEPS", steps):
        check_pattern_counts(game, rnd)


def check_pattern_counts(game: Played, rnd: random.Random) -> None:
    analyzer = Analyzer()
    for position in game.positions:
        counter = pattern_counter(analyzer, position)
        if counter is None:
            continue
        covered = position.cells_in(COVERED)
        for _ in range(6):
            mined, safe = random_pattern(covered, rnd)
            assert counter.layouts(mined, safe) == flagged_count(position, mined, safe), (
                position.to_rows(), mined, safe)
        numbers = [c for c in position.all_cells() if position[c] >= 0]
        if numbers:
            assert counter.layouts([numbers[0]]) is None  # not a covered cell: ask otherwise


@examples(150)
@given(revealed_layouts(max_side=4), st.randoms(use_true_random=False))
def test_pattern_counts_are_counts_of_whole_layouts(
    case: tuple[Layout, Position], rnd: random.Random
) -> None:
    _, position = case
    counter = pattern_counter(Analyzer(), position)
    layouts = list(whole_layouts(position, position.mines))
    if counter is None:
        assert not layouts  # the small road refuses a small board only when no layout fits
        return
    assert counter.layouts() == len(layouts)
    covered = position.cells_in(COVERED)
    for _ in range(8):
        mined, safe = random_pattern(covered, rnd)
        expected = sum(all(c in m for c in mined) and not any(c in m for c in safe) for m in layouts)
        assert counter.layouts(mined, safe) == expected


@examples(50)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_a_glance_at_a_revealed_cell_is_a_glance_at_the_revealed_position(
    game: Played, rnd: random.Random
) -> None:
    """50 games (benchmarks/heavy plays 100)."""
    check_a_glance_at_a_revealed_cell(game, rnd)


def check_a_glance_at_a_revealed_cell(game: Played, rnd: random.Random) -> None:
    # Every number some covered cells could show (and some they could not), on positions a game
    # shows and positions one cell away; one Analyzer keeps its reading between questions.
    shared = Analyzer()
    for position in game.positions:
        for look in nearby(position, rnd)[:2]:
            covered = look.cells_in(COVERED)
            for cell in rnd.sample(covered, min(len(covered), 6)):
                few = rnd.randrange(4)
                for value in range(9):
                    shown = replace_cell(look, cell, value)
                    try:
                        expected = Analyzer().glance(shown, few)
                    except ValueError:  # no total
                        continue
                    got = shared.glance_revealed(look, cell, value, few)
                    assert got == expected, (look.to_rows(), cell, value)


def listed_as_described(constraints: list[small.MaskConstraint], limit: int) -> list[int] | None:
    """small.solutions as its docstring tells it, plainly: in the linked order, each constraint
    places the mines it still needs among the cells no earlier constraint placed, in the order
    combinations() gives them, depth first; each node entered (a layout too) is one step."""
    order = small._linked_order(constraints)
    free, placed = [], 0
    for cells, _, _ in order:
        free.append([1 << b for b in range(cells.bit_length()) if (cells & ~placed) >> b & 1])
        placed |= cells
    found: list[int] = []
    steps = 0

    def visit(i: int, mined: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > limit:
            return False
        if i == len(order):
            found.append(mined)
            return True
        cells, mines, _ = order[i]
        need = mines - (cells & mined).bit_count()
        if not 0 <= need <= len(free[i]):
            return True
        return all(visit(i + 1, mined | sum(pick)) for pick in itertools.combinations(free[i], need))

    return found if visit(0, 0) else None


@st.composite
def mask_parts(draw: st.DrawFn) -> list[small.MaskConstraint]:
    """A few constraints over at most 12 cells, each some of its cells' mines, numbers in any order."""
    count = draw(st.integers(1, 7))
    masks = draw(st.lists(st.integers(1, (1 << 12) - 1), min_size=count, max_size=count))
    numbers = draw(st.permutations(range(20, 20 + count)))
    return [(m, draw(st.integers(0, m.bit_count())), n) for m, n in zip(masks, numbers, strict=True)]


@examples(300)
@given(mask_parts(), st.integers(0, 400))
def test_the_listing_walks_as_its_docstring_tells(
    constraints: list[small.MaskConstraint], limit: int
) -> None:
    # The walk takes shortcuts (a node's only child at once, the last constraint's placements as
    # layouts): the same layouts in the same order, and the same step at which it gives up.
    assert small.solutions(constraints, limit) == listed_as_described(constraints, limit)
    assert small.solutions(constraints, 10**6) == listed_as_described(constraints, 10**6)


@examples(100)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_settle_from_the_frontier_settles_alike(game: Played, rnd: random.Random) -> None:
    # The small road hands settle the reading's frontier (every cell of its constraints); the
    # rules decide what they decide from the constraints alone.
    for position in game.positions:
        for look in nearby(position, rnd):
            reading = small.read(look)
            if reading is not None:
                settled = small.settle(reading.constraints)
                assert small.settle(reading.constraints, reading.frontier) == settled
