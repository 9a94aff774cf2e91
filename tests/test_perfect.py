"""Perfect play against an independent brute force, and strategy counts against the real player.

The brute force (tests/perfect_bruteforce.py) shares nothing with minesat.perfect:
it lists layouts as sets of mines, plays every click with its own flood fill and
takes the best over every covered cell, with no shortcut. Every board shape up
to 12 cells is checked here, under every first-click rule from every start;
boards up to 9 cells with every mine count, the larger ones with a few (the
full sweep, every mine count of every board up to 12 cells, is
``python3 benchmarks/perfect.py --verify``).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from itertools import product

import pytest

from minesat.analysis import Analyzer
from minesat.board import COVERED, Cell, Layout, Position, cell_name
from minesat.exact.geometry import Board, layouts_matrix
from minesat.exact.search import PerfectSearch, Universe, _Moves
from minesat.generate import FirstClick, check_mine_count, generate_layout
from minesat.perfect import (
    NO_LIMIT,
    SEARCH_BUDGET,
    Budget,
    PastBudget,
    PerfectPlay,
    PositionSearch,
    perfect_from_position,
    perfect_play,
    rank_moves,
    strategy_wins,
)
from minesat.player import get_strategy, play_game
from perfect_bruteforce import BruteForce

RULES = [rule.value for rule in FirstClick]


def shapes(cells: int) -> list[tuple[int, int]]:
    return [(r, cells // r) for r in range(1, cells + 1) if cells % r == 0]


def mine_counts(cells: int) -> list[int]:
    if cells <= 9:
        return list(range(cells + 1))
    return [1, 2, cells - 3, cells - 2]


CASES = [(r, c, m) for n in range(1, 13) for r, c in shapes(n) for m in mine_counts(n)]


def fits(rows: int, cols: int, mines: int, start: tuple[int, int], rule: str) -> bool:
    try:
        check_mine_count(rows, cols, mines, start=start, rule=rule)
    except ValueError:
        return False
    return True


SHAPES = sorted({(r, c) for r, c, _ in CASES})


@pytest.mark.parametrize("rows_cols", SHAPES, ids=lambda rc: f"{rc[0]}x{rc[1]}")
def test_every_start_and_rule_matches_the_brute_force(rows_cols: tuple[int, int]) -> None:
    rows, cols = rows_cols
    for mines in mine_counts(rows * cols):
        brute = BruteForce(rows, cols, mines)
        solver = PerfectPlay(rows, cols, mines, budget=NO_LIMIT)
        for start, rule in product(product(range(rows), range(cols)), RULES):
            if not fits(rows, cols, mines, start, rule):
                continue
            value = solver.start_value(start, rule)
            assert (value.wins, value.layouts) == brute.start(start, rule), (rows, cols, mines, start, rule)


def test_best_start_is_the_best_of_every_start() -> None:
    brute = BruteForce(3, 3, 2)
    result = perfect_play(3, 3, 2, rule="safe")
    chances = {s: brute.start(s, "safe") for s in product(range(3), range(3))}
    best = max(w / n for w, n in chances.values())
    assert result.win_probability == best
    assert chances[result.start] == (result.wins, result.layouts)
    assert {v.start for v in result.starts} == {(0, 0), (0, 1), (1, 1)}  # one cell per symmetry class


def test_mirror_memo_changes_nothing() -> None:
    """The memo shared by mirror images gives the values a search without it gives."""
    board = Board(3, 4)
    matrix = layouts_matrix(board, [i for i in range(12) if i != 5], 3)
    plain, mirrored = PerfectSearch(board, symmetric=False), PerfectSearch(board)
    column = matrix[:, 5]
    for value in sorted(set(column.tolist()) - {9}):
        subset = sum(1 << k for k, v in enumerate(column.tolist()) if v == value)
        seen = bytes(value if i == 5 else 10 for i in range(12))
        one = plain.win_count(seen, Universe(matrix, range(12)), subset)
        assert one == mirrored.win_count(seen, Universe(matrix, range(12)), subset)


# --- strategies: the same count as playing every layout ----------------------------------


def every_layout(rows: int, cols: int, mines: int, start: tuple[int, int], rule: str) -> list[Layout]:
    brute = BruteForce(rows, cols, mines)
    keep = {"opening": {start, *brute.around(start)}, "safe": {start}, "any": set()}[rule]
    return [Layout(rows, cols, m) for m in brute.layouts if not (m & keep)]


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "start", "rule"),
    [
        (3, 3, 2, (1, 1), "any"),
        (3, 4, 3, (1, 1), "safe"),
        (4, 4, 3, (0, 0), "opening"),
        (2, 5, 3, (0, 2), "safe"),
    ],
)
@pytest.mark.parametrize("strategy", ["safest", "best"])
def test_strategy_count_is_what_the_player_wins(
    rows: int, cols: int, mines: int, start: tuple[int, int], rule: str, strategy: str
) -> None:
    played = sum(
        play_game(layout, start, strategy=get_strategy(strategy), rule=rule).won
        for layout in every_layout(rows, cols, mines, start, rule)
    )
    counted = strategy_wins(rows, cols, mines, rule=rule, start=start, strategy=strategy)
    assert counted.wins == played
    assert counted.layouts == perfect_play(rows, cols, mines, rule=rule, start=start).layouts
    assert counted.wins <= perfect_play(rows, cols, mines, rule=rule, start=start).wins


# --- from a position ------------------------------------------------------------------------


Case = tuple[Position, BruteForce, frozenset[int], frozenset]


def partial_positions(count: int, seed: int, rows: int = 3, cols: int = 4, most: int = 4) -> list[Case]:
    """Positions part way through games (2 to ``most`` mines), with the brute force's view of each."""
    rng = random.Random(seed)
    found = []
    brutes: dict[int, BruteForce] = {}
    while len(found) < count:
        mines = rng.randint(2, most)
        layout = generate_layout(rows, cols, mines, start=(1, 1), rule="safe", seed=rng.randrange(10**9))
        brute = brutes.setdefault(mines, BruteForce(rows, cols, mines))
        k = brute.layouts.index(layout.mines)
        seen = brute.click(k, frozenset(), (1, 1))
        assert seen is not None
        for _ in range(rng.randint(0, 2)):
            safe = [c for c in brute.cells if c not in layout.mines and c not in dict(seen)]
            if not safe:
                break
            seen = brute.click(k, seen, rng.choice(safe))
            assert seen is not None
        if len(seen) == rows * cols - mines:
            continue
        shown = dict(seen)
        cells = tuple(shown.get((r, c), -1) for r in range(rows) for c in range(cols))
        consistent = frozenset(
            j
            for j, m in enumerate(brute.layouts)
            if all(brute.counts[j][c] == v and c not in m for c, v in seen)
        )
        found.append((Position(rows, cols, cells, mines), brute, consistent, seen))
    return found


def test_position_value_and_its_moves_match_the_brute_force() -> None:
    for position, brute, consistent, seen in partial_positions(12, seed=4):
        result = perfect_from_position(position, strategies=["best", "safest"])
        assert (result.wins, result.layouts) == (brute.value(consistent, seen), len(consistent))
        opened = dict(seen)
        for cell in brute.cells:
            if cell in opened:
                continue
            groups = brute.groups(consistent, seen, cell)
            wins = sum(brute.value(frozenset(g), after) for after, g in groups.items())
            assert (wins == result.wins) == (cell in result.moves), (position.to_rows(), cell_name(cell))
            for player in result.players:
                if cell == player.move:
                    assert wins == player.wins


def brute_ranking(brute: BruteForce, consistent: frozenset[int], seen: frozenset) -> list[tuple[Cell, int]]:
    """Every covered cell that is not a mine in every layout, with the brute force's value, best first."""
    opened = dict(seen)
    ranked = []
    for cell in brute.cells:  # row-major: the order among equals
        if cell in opened or all(cell in brute.layouts[k] for k in consistent):
            continue
        groups = brute.groups(consistent, seen, cell)
        ranked.append((cell, sum(brute.value(frozenset(g), after) for after, g in groups.items())))
    return sorted(ranked, key=lambda t: -t[1])


@pytest.mark.parametrize(
    ("rows", "cols", "most", "count", "seed"), [(3, 4, 4, 40, 11), (4, 4, 3, 8, 12), (2, 5, 4, 20, 13)]
)
def test_every_move_is_ranked_as_the_brute_force_ranks_it(
    rows: int, cols: int, most: int, count: int, seed: int
) -> None:
    for position, brute, consistent, seen in partial_positions(count, seed, rows, cols, most):
        ranking = rank_moves(position)
        expected = brute_ranking(brute, consistent, seen)
        assert [(m.cell, m.wins) for m in ranking] == expected, position.to_rows()
        assert all(m.layouts == len(consistent) for m in ranking)


def test_the_ranking_holds_the_moves_that_keep_the_chance_and_the_strategies_values() -> None:
    for position, *_ in partial_positions(10, seed=14):
        result = perfect_from_position(position, strategies=["best", "safest"])
        assert result.moves == tuple(sorted(m.cell for m in result.ranking if m.wins == result.wins))
        assert result.ranking[0].wins == result.wins
        value = {m.cell: m.wins for m in result.ranking}
        assert all(p.move is None or value[p.move] == p.wins for p in result.players)
        assert result.to_json()["ranking"][0] == {
            "cell": cell_name(result.ranking[0].cell),
            "wins": result.wins,
            "win_probability": result.win_probability,
        }


def test_flagged_cells_and_certain_mines_are_not_ranked() -> None:
    ranking = rank_moves(Position.from_rows(["1*", "??"], mines=1))
    assert [(cell_name(m.cell), m.wins, m.layouts) for m in ranking] == [("B1", 1, 1), ("B2", 1, 1)]
    # A1 is the only covered neighbour of B1's 1: a mine in every layout, a click no one makes.
    ranking = rank_moves(Position.from_rows(["?1?", "11?"], mines=1))
    assert [(cell_name(m.cell), m.wins, m.layouts) for m in ranking] == [("A3", 1, 1), ("B3", 1, 1)]


def test_position_needs_the_total() -> None:
    with pytest.raises(ValueError, match="total number of mines"):
        perfect_from_position(Position.from_rows(["1?", "??"]))


def test_flags_count_as_mines() -> None:
    flagged = perfect_from_position(Position.from_rows(["1*", "??"], mines=1))
    assert (flagged.wins, flagged.layouts, flagged.moves) == (1, 1, ((1, 0), (1, 1)))


# --- budget ----------------------------------------------------------------------------------


def test_past_the_budget_says_how_far_it_got() -> None:
    with pytest.raises(PastBudget, match=r"past max_states=10: stopped at start 1 of 3") as caught:
        perfect_play(4, 4, 4, rule="safe", budget=replace(SEARCH_BUDGET, max_states=10))
    assert caught.value.states == 11 and caught.value.what == "states" and caught.value.spent == 11
    assert 0 <= caught.value.settled < caught.value.layouts


def test_the_budgets_given_apart_still_work_with_a_deprecation_warning() -> None:
    """Scripts written before the searches took one Budget: ``max_states=`` and the rest set its
    fields (the other two keep their defaults), say so once, and stop where the budget would."""
    position = Position.from_rows(["1???", "????"], mines=3)
    calls = [
        (lambda **old: perfect_play(4, 4, 4, rule="safe", **old), "perfect_play"),
        (lambda **old: perfect_from_position(position, strategies=[], **old), "perfect_from_position"),
        (lambda **old: rank_moves(position, **old), "rank_moves"),
        (lambda **old: PositionSearch(position, **old).wins(), "PositionSearch"),
    ]
    for call, name in calls:
        warned = rf"^{name}\(max_states=\.\.\.\) is deprecated: pass budget="
        with pytest.warns(DeprecationWarning, match=warned), pytest.raises(PastBudget, match=r"^past") as old:
            call(max_states=1)
        with pytest.raises(PastBudget) as new:
            call(budget=replace(SEARCH_BUDGET, max_states=1))
        assert str(old.value) == str(new.value)
        with pytest.raises(TypeError, match=rf"{name}\(\) got an unexpected keyword argument 'states'"):
            call(states=1)
    with pytest.warns(DeprecationWarning, match=r"strategy_wins\(time_limit=\.\.\., max_memory=\.\.\.\)"):
        old_count = strategy_wins(3, 3, 1, rule="safe", start=(1, 1), strategy="safest", time_limit=60.0,
                                  max_memory=10**10)
    assert old_count.wins == strategy_wins(3, 3, 1, rule="safe", start=(1, 1), strategy="safest").wins


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int, int]] = []
    from minesat.exact import search

    every, search.PROGRESS_EVERY = search.PROGRESS_EVERY, 8
    try:
        perfect_play(4, 4, 4, rule="safe", start=(1, 1), progress=lambda *a: seen.append(a))
    finally:
        search.PROGRESS_EVERY = every
    assert seen and all(s % 8 == 0 and 0 <= done <= total for s, done, total in seen)


def test_past_the_time_limit_says_how_far_it_got() -> None:
    # The clock is watched from the start, listing included: a limit of 0 stops before the first state.
    said = r"past time_limit=0 s: stopped at start B2 with 0.0% of its layouts settled after 0 states"
    with pytest.raises(PastBudget, match=said):
        perfect_play(4, 4, 4, rule="safe", start=(1, 1), budget=replace(SEARCH_BUDGET, time_limit=0.0))
    untimed = replace(SEARCH_BUDGET, time_limit=None)
    assert perfect_play(4, 4, 4, rule="safe", start=(1, 1), budget=untimed).wins == 914


def test_a_position_past_its_budget_says_how_far_it_got() -> None:
    position = Position.covered(4, 4, mines=4)
    said = r"past time_limit=0 s after 0 states, while listing the layouts, before the search began"
    with pytest.raises(PastBudget, match=said):
        PositionSearch(position, budget=replace(SEARCH_BUDGET, time_limit=0.0))
    search = PositionSearch(position, budget=replace(SEARCH_BUDGET, time_limit=60.0))
    search.clock.deadline = search.clock.began  # the limit passes once the layouts are listed
    with pytest.raises(PastBudget, match=r"past time_limit=60 s after 1 states, before the chance to win"):
        search.wins()
    search = PositionSearch(position, budget=Budget(10_000_000, None, SEARCH_BUDGET.max_memory))
    wins = search.wins()
    search.search.max_states = search.states + 5
    search.budget = replace(search.budget, max_states=search.search.max_states)
    said = rf"past max_states=\d+ after \d+ states, the chance to win is .* \({wins} of 1820 layouts\); "
    said += r"\d+ of 16 moves ranked; raise max_states="
    with pytest.raises(PastBudget, match=said):
        search.ranking()


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "rule", "said"),
    [
        (300, 300, 2, "opening", "4.0e9 layouts: more than the 4000000 the search lists"),
        (1000, 1000, 1, "opening", "999996 layouts of 1000000 cells: a listing of 1.4e12 bytes, past the"),
        (1000, 1000, 999_990, "opening", "1.4e33 layouts"),
        (200, 200, 3, "any", "1.1e13 layouts"),
        (16, 30, 99, "opening", "2.2e104 layouts"),
    ],
)
def test_what_cannot_be_listed_is_refused_before_anything_is_built(
    rows: int, cols: int, mines: int, rule: str, said: str
) -> None:
    with pytest.raises(PastBudget, match="start A1 has " + re.escape(said)):
        perfect_play(rows, cols, mines, rule=rule)


def test_a_negative_total_is_a_clear_value_error() -> None:
    position = Position.from_rows(["1??", "???"], mines=-3)
    for ask in (Analyzer().analyze, Analyzer().layouts, Analyzer().proven, perfect_from_position):
        with pytest.raises(ValueError, match="the total number of mines must be >= 0, not -3"):
            ask(position)
    with pytest.raises(ValueError, match="must be >= 0, not -1"):
        Analyzer().analyze(position.with_mines(2), mines=-1)


def test_states_with_one_reduced_key_have_one_value() -> None:
    """The memo's second key (what still matters of a position) joins only states of equal value."""
    rng = random.Random(11)
    board = Board(3, 4)
    for mines in (3, 4):
        brute = BruteForce(3, 4, mines)
        universe = Universe(layouts_matrix(board, range(12), mines), range(12))
        search = PerfectSearch(board)
        values: dict[bytes, set[int]] = {}
        positions: dict[bytes, set[bytes]] = {}
        for _ in range(400):
            k = rng.randrange(len(brute.layouts))
            seen = frozenset()
            for _ in range(rng.randint(1, 3)):
                safe = [c for c in brute.cells if c not in brute.layouts[k] and c not in dict(seen)]
                if not safe:
                    break
                seen = brute.click(k, seen, rng.choice(safe))
            shown = dict(seen)
            consistent = frozenset(
                j
                for j, m in enumerate(brute.layouts)
                if all(brute.counts[j][c] == v and c not in m for c, v in seen)
            )
            position = bytes(shown.get(board.cell(i), 10) for i in range(12))
            subset = sum(1 << j for j in consistent)
            key, _ = search._key_and_scan(position, universe, subset)
            values.setdefault(key, set()).add(brute.value(consistent, seen))
            positions.setdefault(key, set()).add(position)
        assert all(len(v) == 1 for v in values.values())
        assert sum(len(p) > 1 for p in positions.values()) >= 5  # the key does join different positions


class _ShareCover:
    """A stand-in look-alike table: a set's cover is a fixed share of its size (at most the size)."""

    def __init__(self, share: float) -> None:
        self.share = share
        self.asked = 0

    def cover(self, subset: int) -> int:
        self.asked += 1
        return max(1, int(subset.bit_count() * self.share))


def test_moves_come_in_the_order_of_their_bounds_counting_only_those_needed() -> None:
    """``_Moves`` hands out the moves as sorting them all by ``(-bound, -safe count, cell)`` would."""
    rng = random.Random(3)
    everything = (1 << 9) - 1  # the state's layouts: each outcome below is within them
    for _ in range(300):
        live = []
        for c in rng.sample(range(40), rng.randint(1, 12)):
            shows = tuple((v, (1 << rng.randint(1, 9)) - 1) for v in range(rng.randint(2, 4)))
            live.append((sum(mask.bit_count() for _, mask in shows), c, shows))
        alike = _ShareCover(rng.choice([0.3, 0.6, 1.0]))
        expected = []
        for s, c, shows in live:
            bound = sum(alike.cover(mask) if mask.bit_count() > 1 else 1 for _, mask in shows)
            expected.append((-bound, -s, c))
        expected.sort()
        alike.asked = 0
        moves = _Moves(live, alike, everything)
        got = []
        while moves:
            bound, c, bounded = moves.next()
            s = sum(size for _, size, _, _ in bounded)
            got.append((-bound, -s, c))
            assert bound == sum(b for b, _, _, _ in bounded)
        assert got == expected
    # When the first move's bound is at least every other's safe count, no other is counted.
    alike = _ShareCover(1.0)
    live = [(9, 0, ((1, 0b11111), (2, 0b1111))), (3, 1, ((1, 0b11), (2, 0b1)))]
    assert _Moves(live, alike, everything).next()[:2] == (9, 0)
    assert alike.asked == 2  # the two outcomes of cell 0 only


def test_a_component_of_a_thousand_cells_is_listed_without_recursing_that_deep() -> None:
    """A covered row of 999 cells between two rows of numbers: one component, listed cell by cell
    (a recursion per cell went past Python's limit: a 100x100 game's guess hit it in review)."""
    from minesat.exact.listing import list_layouts

    cols = 999
    layout = Layout(3, cols, frozenset((1, c) for c in range(0, cols, 3)))
    cells = [COVERED if r == 1 else layout.counts[r * cols + c] for r in range(3) for c in range(cols)]
    position = Position(3, cols, tuple(cells), layout.mine_count)
    listed = list_layouts(position, 10)
    assert listed is not None
    covered, layouts = listed
    assert layouts == [sum(1 << covered.index(m) for m in layout.mines)]


def test_a_position_within_the_limit_is_listed_whatever_its_parts_hold() -> None:
    """Parts whose solutions and combinations pass the limit many times over, though the total
    leaves few layouts: listed all the same, as the brute force lists them (they were refused as
    "too many to list", and the endgame's search stopped the game with that error), and the
    endgame plays one of them."""
    from bruteforce import whole_layouts
    from minesat.exact.endgame import endgame_move
    from minesat.exact.listing import list_layouts

    position = Position.from_rows(["0?11??3??", "?01??????", "0?1??3?3?"], mines=9)
    expected = {frozenset(m) for m in whole_layouts(position, 9)}
    assert len(expected) == 1
    for limit in (1, 2, 40):
        listed = list_layouts(position, limit)
        assert listed is not None
        assert mine_sets(*listed) == expected
    position = Position.from_rows(["????2??20", "??213??3?", "2??1???4?", "1??1?2???"], mines=10)
    analysis = Analyzer().analyze(position)
    assert analysis.layouts is not None and analysis.unknown
    move = endgame_move(position, analysis, limit=analysis.layouts)
    assert move is not None and move.layouts == analysis.layouts
    rnd = random.Random(51)
    for _ in range(300):  # random positions of few layouts: listed as the brute force lists them
        rows, cols = rnd.randint(2, 4), rnd.randint(3, 6)
        layout = Layout(rows, cols, frozenset(rnd.sample([(r, c) for r in range(rows) for c in range(cols)],
                                                         rnd.randint(1, rows * cols // 2))))
        shown = [COVERED if (r, c) in layout.mines or rnd.random() < 0.55 else layout.counts[r * cols + c]
                 for r in range(rows) for c in range(cols)]
        position = Position(rows, cols, tuple(shown), layout.mine_count)
        expected = {frozenset(m) for m in whole_layouts(position, layout.mine_count)}
        listed = list_layouts(position, len(expected))
        assert listed is not None, position.to_rows()
        assert len(listed[1]) == len(expected) and mine_sets(*listed) == expected
        assert len(expected) < 2 or list_layouts(position, len(expected) - 1) is None


def test_the_listing_reads_the_frontier_from_the_covered_cells_as_frontier_of_reads_it() -> None:
    """The listing's frontier (read from the covered cells out, and, for a position known to be
    consistent, from them alone) and its components equal ``Frontier.of``'s and networkx's split
    on random positions with flags; a broken number raises the error ``Frontier.of`` raises."""
    from minesat.analysis.constraints import Frontier
    from minesat.analysis.result import InconsistentPositionError
    from minesat.board import FLAG
    from minesat.exact.listing import _frontier

    rnd = random.Random(5151)
    broken = fits = 0
    for _ in range(600):
        rows, cols = rnd.randint(1, 7), rnd.randint(1, 9)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        layout = Layout(rows, cols, frozenset(rnd.sample(cells, rnd.randint(0, len(cells) * 2 // 3))))
        covered = rnd.random() * 0.6
        shown = [
            (FLAG if rnd.random() < 0.6 else COVERED) if (r, c) in layout.mines
            else COVERED if rnd.random() < covered else layout.counts[r * cols + c]
            for r, c in cells
        ]
        numbers = [i for i, s in enumerate(shown) if s >= 0]
        changed = bool(numbers) and rnd.random() < 0.3
        if changed:  # a number changed: some positions break
            shown[rnd.choice(numbers)] = rnd.randint(0, 8)
        position = Position(rows, cols, tuple(shown), layout.mine_count)
        try:
            frontier = Frontier.of(position)
        except InconsistentPositionError as err:
            broken += 1
            with pytest.raises(InconsistentPositionError) as raised:
                _frontier(position)
            assert str(raised.value) == str(err)
            continue
        expected = (frontier, frontier.components())
        assert _frontier(position) == expected, position.to_rows()
        if not changed:  # its layout fits it
            fits += 1
            assert _frontier(position, consistent=True) == expected, position.to_rows()
    assert broken > 20 and fits > 300


def mine_sets(covered: tuple[Cell, ...], layouts: list[int]) -> set[frozenset[Cell]]:
    """Listed layouts (bit sets over ``covered``) as sets of mined cells."""
    return {frozenset(c for i, c in enumerate(covered) if layout >> i & 1) for layout in layouts}


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (2, 3), (3, 3), (4, 4), (3, 5), (16, 30)])
def test_a_boards_images_read_the_position_through_each_symmetry(rows: int, cols: int) -> None:
    # Image k holds at cell symmetries[k][i] what the position holds at cell i.
    board = Board(rows, cols)
    rnd = random.Random(rows * 100 + cols)
    for _ in range(5):
        position = bytes(rnd.randrange(12) for _ in range(rows * cols))
        images = board.images(position)
        assert len(images) == len(board.symmetries) == (8 if rows == cols else 4)
        for image, symmetry in zip(images, board.symmetries, strict=True):
            assert all(image[symmetry[i]] == position[i] for i in range(rows * cols))
        assert board.canonical(position) == min(images)
    assert Board.of(rows, cols) is Board.of(rows, cols)
