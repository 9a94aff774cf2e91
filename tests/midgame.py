"""Seeded games played part way: positions in the middle of real games, for the sampler's tests
and ``benchmarks/sample.py``.

>>> layout, position = part_way(9, 9, 10, seed=1, share=0.5)
>>> layout.is_solved_by(position), 0 < position.cells.count(-1) < 81
(False, True)
"""

from __future__ import annotations

from minesat.analysis import Analyzer
from minesat.board import Cell, Layout, Position
from minesat.game import Game, Status
from minesat.generate import generate_layout
from minesat.player import Rounds, SafestCell

#: Where every game here starts: the first click, with the opening rule.
START: Cell = (3, 3)


def part_way(rows: int, cols: int, mines: int, *, seed: int, share: float) -> tuple[Layout, Position]:
    """A seeded layout (opening rule at :data:`START`) and the position the safest player reaches on it
    once ``share`` of its safe cells are uncovered: or, if it loses or wins first, the last
    position before that move. The game is still in progress there."""
    layout = generate_layout(rows, cols, mines, start=START, rule="opening", seed=seed)
    game = Game(layout)
    game.play(START)
    target = share * (rows * cols - mines)
    for step in Rounds(game, Analyzer(), SafestCell()):
        if game.uncovered >= target:
            break
        before = game.position
        game.play(step.move)
        if game.status is not Status.PLAYING:
            return layout, before
    return layout, game.position
