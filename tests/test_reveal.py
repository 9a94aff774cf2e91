"""The look-ahead's reveals (minesat.analysis.reveal) are the glances of the revealed positions.

A glance at a cell uncovered with a number is read from the layouts the parts
it touches already have, sorted once for every number the cell could show. It
must be the glance the small road gives for the revealed position counted afresh,
for parts enumerated cell by cell and for parts counted box by box, through one
Analyzer kept across positions and boards of different sizes (its cached reveals
and parts must never answer for another position).
"""

from __future__ import annotations

import random
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from minesat.analysis import Analyzer, smallroad
from minesat.analysis.reveal import reveal
from minesat.analysis.smallroad import SmallPosition
from minesat.board import COVERED, Position
from minesat.generate import generate_layout
from minesat.player import get_strategy, play_game
from test_analysis import Played, examples, played_games, replace_cell


def glances_agree(shared: Analyzer, position: Position, rnd: random.Random, cells: int = 6) -> int:
    """Every number some covered cells of ``position`` could show: ``shared``'s glance at the cell
    revealed is a fresh Analyzer's glance at the revealed position. How many glances compared."""
    compared = 0
    covered = position.cells_in(COVERED)
    for cell in rnd.sample(covered, min(len(covered), cells)):
        few = rnd.randrange(4)
        for value in range(9):
            expected = Analyzer().glance(replace_cell(position, cell, value), few)
            assert shared.glance_revealed(position, cell, value, few) == expected, (
                position.to_rows(), position.mines, cell, value)
            compared += 1
    return compared


def counted_box_by_box() -> mock._patch[int]:
    """Every part counted (none enumerated cell by cell): its layouts are kept box by box."""
    return mock.patch.object(smallroad, "ENUMERATION_STEPS", 0)


@examples(60)
@given(st.lists(played_games(max_steps=10), min_size=1, max_size=3), st.booleans(),
       st.randoms(use_true_random=False))
def test_a_reveal_is_the_glance_at_the_revealed_position(
    games: list[Played], boxes: bool, rnd: random.Random
) -> None:
    # One Analyzer for several games (boards of different sizes) and every position of each.
    shared = Analyzer()
    with counted_box_by_box() if boxes else mock.patch.object(smallroad, "ENUMERATION_STEPS",
                                                              smallroad.ENUMERATION_STEPS):
        for game in games:
            for position in game.positions:
                if position.mines is not None:
                    glances_agree(shared, position, rnd)


def test_expert_reveals_are_the_glances_at_the_revealed_positions() -> None:
    # Expert positions from games of `best`: large parts counted box by box, interior cells
    # beside the revealed cell, cells between two parts. Every part counted box by box too.
    rnd = random.Random(5)
    seen: list[Position] = []

    class Recording(Analyzer):
        def proven(self, position: Position, mines: int | None = None) -> tuple:
            seen.append(position)
            return super().proven(position, mines)

    layout = generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=11)
    play_game(layout, (3, 3), strategy=get_strategy("safest"), analyzer=Recording())
    positions = seen[:: 7]
    assert len(positions) >= 3
    for patch in (mock.patch.object(smallroad, "ENUMERATION_STEPS", smallroad.ENUMERATION_STEPS),
                  counted_box_by_box()):
        shared, compared = Analyzer(), 0
        with patch:
            for position in positions:
                compared += glances_agree(shared, position, rnd, cells=4)
        assert compared >= 36


def test_a_part_counted_without_its_layouts_is_counted_again() -> None:
    # A part the dynamic programme counted has no listed layouts: the cell's reveal is refused
    # (None) and each number's position is counted as it comes, with the same answers.
    position = Position.from_rows(["12??", "????", "????"], mines=3)
    with mock.patch.object(smallroad, "ENUMERATION_STEPS", 0), \
            mock.patch.object(smallroad, "list_layouts", lambda *args, **kwargs: None):
        analyzer = Analyzer()
        base = analyzer.small_road.position(position, 3)
        assert isinstance(base, SmallPosition) and base.parts[0].boxes is None
        assert reveal(base, 6) is None
        assert glances_agree(analyzer, position, random.Random(1), cells=8) == 8 * 9


def test_the_reveals_are_kept_with_their_position() -> None:
    # Glancing at one cell's numbers sorts its parts' layouts once; the next position reads anew.
    position = Position.from_rows(["1??", "???", "???"], mines=3)
    analyzer = Analyzer()
    for value in range(4):
        analyzer.glance_revealed(position, (0, 1), value)
    base = analyzer.small_road.position(position, 3)
    assert base is not None and list(base.reveals) == [1]
    moved = replace_cell(position, (2, 2), 1)
    analyzer.glance_revealed(moved, (0, 1), 1)
    after = analyzer.small_road.position(moved, 3)
    assert after is not None and after is not base and list(after.reveals) == [1]
