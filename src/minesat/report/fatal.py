"""The positions where games were lost: each lost game replayed to its fatal guess.

A store keeps outcomes, not moves, but every game is reproducible: its layout
comes from its seed and the player is deterministic. Replaying a lost game with
the run's strategy gives its moves; the position before the last one is what
the player saw when it made the guess that lost, and the analysis of that
position shows why the guess looked best.

>>> import os, tempfile
>>> from minesat.simulation import run
>>> from minesat.store import GameStore, RunConfig, StoredGame
>>> config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0, strategy="safest")
>>> path = os.path.join(tempfile.mkdtemp(), "run.sqlite")
>>> with GameStore(path, config) as store:
...     _ = run(config, 40, workers=1, store=store)
>>> [str(board.move) for board in fatal_boards(path, limit=2)]
['H9', 'I9']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from minesat.analysis import Analysis, Analyzer
from minesat.board import Layout, Move, Position
from minesat.errors import InvalidValue
from minesat.game import Game
from minesat.generate import generate_layout
from minesat.player import GameRecord, get_strategy, play_game
from minesat.store import GameStore, RunConfig, StoredGame
from minesat.svg import position_svg

__all__ = [
    "FATAL_BOARDS",
    "FatalBoard",
    "ReplayedGame",
    "fatal_board",
    "fatal_boards",
    "fatal_svg",
    "game_page",
    "lost_games",
    "replay_stored_game",
]

#: Lost games a report shows by default: enough to see a pattern, few enough to replay at once.
FATAL_BOARDS = 4


@dataclass(frozen=True)
class ReplayedGame:
    """A game of a seeded run, replayed: its layout and how the player played it."""

    index: int  # index of the game in its run
    config: RunConfig
    layout: Layout
    record: GameRecord


@dataclass(frozen=True)
class FatalBoard:
    """A lost game at its fatal guess: the position, its analysis, and the guess."""

    index: int  # index of the game in its run
    move: Move  # the fatal guess
    probability: float  # its mine probability as the player saw it
    position: Position
    analysis: Analysis


def lost_games(path: str | Path, limit: int = FATAL_BOARDS) -> Iterator[ReplayedGame]:
    """The first ``limit`` lost games of a seeded run, each replayed from its seed.

    Runs of a board set are skipped (the store does not hold the boards), and
    so are games lost without a guess (a first click under the rule ``any``).
    """
    with GameStore(path) as store:
        config = store.config
        if getattr(config, "boards", None) or limit <= 0:
            return
        lost = []
        for game in store.games():
            if game.fatal_guess is not None:
                lost.append(game)
                if len(lost) == limit:
                    break
    for game in lost:
        yield replay_stored_game(config, game)


def replay_stored_game(config: RunConfig, game: StoredGame) -> ReplayedGame:
    """A stored game of a seeded run played again: its layout from its seed, its moves from the player.

    Raises :class:`ValueError` for a run over a board set, whose boards the store does not hold.
    """
    if getattr(config, "boards", None):
        raise InvalidValue("a run over a board set: the store does not hold its boards, so its games "
                         "cannot be replayed from it")
    layout = generate_layout(
        config.rows, config.cols, config.mines, start=config.start, rule=config.rule, seed=game.seed
    )
    record = play_game(layout, config.start, strategy=get_strategy(config.strategy), rule=config.rule)
    return ReplayedGame(game.index, config, layout, record)


def fatal_board(lost: ReplayedGame) -> FatalBoard:
    """The lost game at the guess that lost it: the position before it, and its analysis."""
    replay = Game(lost.layout)
    for move in lost.record.moves[:-1]:
        replay.play(move)
    position = replay.position
    fatal = lost.record.guesses[-1]
    return FatalBoard(lost.index, fatal.move, fatal.probability, position, Analyzer().analyze(position))


def fatal_boards(path: str | Path, limit: int = FATAL_BOARDS) -> Iterator[FatalBoard]:
    """The first ``limit`` lost games of a seeded run, each at its fatal guess."""
    return (fatal_board(lost) for lost in lost_games(path, limit))


def fatal_svg(board: FatalBoard, cell_size: int = 18) -> str:
    """The board as an SVG picture with the fatal guess outlined."""
    return position_svg(
        board.position,
        board.analysis,
        cell_size=cell_size,
        title=f"game {board.index}: {board.move} at {board.probability:.1%}",
        legend=False,
        mark=board.move.cell,
    )


def game_page(replayed: ReplayedGame, label: str, link_tip: bool = True) -> str:
    """The game as a self-contained viewer page (:mod:`minesat.viewer`), every move analysed
    (``link_tip``: as :func:`~minesat.viewer.render_viewer` takes it)."""
    from minesat.viewer import game_frames, record_summary, render_viewer

    config = replayed.config
    frames = game_frames(replayed.layout, replayed.record.moves, rule=config.rule)
    summary = [
        ("Run", label),
        ("Game", str(replayed.index)),
        *record_summary(replayed.record, replayed.layout, config.start, config.rule, config.strategy),
        ("Seed", str(config.seed)),
    ]
    outcome = "Won" if replayed.record.won else "Lost"
    return render_viewer(f"{outcome} game {replayed.index} of {label}", summary, frames, replayed.layout,
                         link_tip=link_tip)
