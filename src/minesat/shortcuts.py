"""The library's front door: one call for each thing people come for, taking the natural inputs.

``import minesat`` hands these on, loaded when first used:

- ``minesat.read_position(path)``: a board file (:func:`minesat.formats.read_position`);
- ``minesat.analyze(position_or_path)``: every covered cell classified (:func:`minesat.analysis.analyze`);
- ``minesat.explain(position_or_path, "A7")``: why a cell is certain (:func:`minesat.analysis.explain`);
- ``minesat.play("expert", strategy="safest")``: one game by the automatic player (:func:`play`);
- ``minesat.simulate("expert", 200)``: many games, as records (:func:`minesat.simulation.simulate`).

>>> record = play("beginner", seed=2, strategy="safest")
>>> record.won, str(record.moves[0])
(True, 'D4')
"""

from __future__ import annotations

from minesat.board import Cell, Layout
from minesat.generate import BoardSpec, FirstClick
from minesat.player import DEFAULT_STRATEGY, GameRecord, Step, Strategy, default_start, play_game

__all__ = ["play"]


def play(
    board: str | BoardSpec | Layout = "expert",
    start: Cell | str | None = None,
    *,
    strategy: Strategy | str = DEFAULT_STRATEGY,
    rule: FirstClick | str = FirstClick.OPENING,
    seed: int = 0,
    index: int = 0,
    trace: list[Step] | None = None,
) -> GameRecord:
    """One game played by the automatic player, every move with its reason in ``trace`` if given.

    ``board`` is a preset's name, a :class:`~minesat.generate.BoardSpec` (its rule and start
    win over ``rule`` and ``start``) or a :class:`~minesat.board.Layout` to play as it is.
    On a preset or a spec the layout is game ``index`` of ``minesat.simulate`` with ``seed``:
    the same game, played the same way. ``start`` is a cell or its name, by default D4
    clipped to the board; ``strategy`` a strategy or its name (docs/strategies.md).
    """
    if isinstance(board, Layout):
        layout, rule = board, FirstClick(rule)
        where = start if start is not None else default_start(layout.rows, layout.cols)
    else:
        spec = BoardSpec.preset(board, rule=rule, start=start) if isinstance(board, str) else board
        if not isinstance(spec, BoardSpec):
            raise TypeError(f"board must be a preset's name, a BoardSpec or a Layout, not {board!r}")
        where = spec.start if spec.start is not None else default_start(spec.rows, spec.cols)
        spec = BoardSpec(spec.rows, spec.cols, spec.mines, rule=spec.rule, start=where)
        layout, rule = spec.layout(seed=spec.game_seed(seed, index)), spec.rule
    return play_game(layout, where, strategy=strategy, rule=rule, trace=trace)
