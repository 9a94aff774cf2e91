"""Issue 18, part 3: every proven move the game loop makes, checked against a fresh analysis.

The loop keeps one Analyzer through a game (its caches and incremental model
outlive each position) and `best` keeps another across games for its
look-ahead. Here the loop's engine is wrapped: every answer it gives the loop
(``proven`` or ``analyze``) is compared with :func:`minesat.analysis.analyze`
on the same position from scratch, and with the true layout; then every
proven move in the game's trace is matched to the answer it came from.

The normal suite plays a few dozen games; ``MINESAT_LOOP_GAMES=300`` plays
300 expert and 300 beginner games (the issue's run).
"""

from __future__ import annotations

import os

import pytest

from minesat.analysis import Analysis, Analyzer, analyze
from minesat.board import Cell, Position
from minesat.generate import game_seed, generate_layout
from minesat.player import Step, get_strategy, play_game
from minesat.verdict import Verdict

GAMES = int(os.environ.get("MINESAT_LOOP_GAMES", "0"))

#: (rows, cols, mines, start, games in the normal suite)
BOARDS = {
    "expert": (16, 30, 99, (3, 3), 60),
    "beginner": (9, 9, 10, (2, 2), 300),
}


class CheckedEngine:
    """An Analyzer whose every answer to the loop is recorded and checked against a fresh one."""

    def __init__(self) -> None:
        self.inner = Analyzer()
        self.answers: list[tuple[Position, frozenset[Cell], frozenset[Cell]]] = []
        self.problems: list[str] = []

    def _check(self, position: Position, safe: tuple[Cell, ...], mine: tuple[Cell, ...]) -> None:
        fresh = analyze(position)
        if (safe, mine) != (fresh.safe, fresh.mine):
            self.problems.append(
                f"{position.to_rows()}: loop's engine {safe} {mine}, fresh {fresh.safe} {fresh.mine}"
            )
        self.answers.append((position, frozenset(safe), frozenset(mine)))

    def proven(self, position: Position, mines: int | None = None) -> tuple[tuple[Cell, ...], ...]:
        safe, mine = self.inner.proven(position, mines)
        self._check(position, safe, mine)
        return safe, mine

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        analysis = self.inner.analyze(position, mines)
        self._check(position, analysis.safe, analysis.mine)
        return analysis


def proven_moves_match_answers(trace: list[Step], engine: CheckedEngine) -> list[str]:
    """Each proven move in the trace comes from an answer that proves it, in the order answered."""
    answers = iter([(s, m) for _, s, m in engine.answers if s or m])
    safe: frozenset[Cell] = frozenset()
    mine: frozenset[Cell] = frozenset()
    problems = []
    for step in trace:
        if step.verdict not in (Verdict.SAFE, Verdict.MINE):
            continue
        move = step.move
        wanted = safe if step.verdict is Verdict.SAFE else mine
        while move.cell not in wanted:
            try:
                safe, mine = next(answers)
            except StopIteration:
                problems.append(f"{step.move}: no answer of the engine proves it")
                return problems
            wanted = safe if step.verdict is Verdict.SAFE else mine
    return problems


@pytest.mark.parametrize("board", list(BOARDS))
def test_every_proven_move_of_best_is_what_a_fresh_analysis_proves(board: str) -> None:
    rows, cols, mines, start, suite_games = BOARDS[board]
    strategy = get_strategy("best")  # one strategy over all games: its own Analyzer outlives each
    failures: list[str] = []
    checked = 0
    for game in range(GAMES or suite_games):
        seed = game_seed(rows, cols, mines, rule="opening", start=start, seed=0, index=game)
        layout = generate_layout(rows, cols, mines, start=start, rule="opening", seed=seed)
        engine = CheckedEngine()
        trace: list[Step] = []
        record = play_game(layout, start, strategy=strategy, trace=trace, analyzer=engine)
        failures += [f"{board} game {game}: {p}" for p in engine.problems]
        failures += [f"{board} game {game}: {p}" for p in proven_moves_match_answers(trace, engine)]
        for _, safe, mine in engine.answers:
            if safe & layout.mines or not mine <= layout.mines:
                failures.append(f"{board} game {game}: an answer contradicts the layout")
        if not record.won:
            # A lost game ends on a guess, never on a proven move.
            assert trace[-1].verdict in (Verdict.GUESS, Verdict.FIRST), f"{board} game {game}"
        checked += sum(step.verdict in (Verdict.SAFE, Verdict.MINE) for step in trace)
    assert checked > 0
    assert not failures, f"{len(failures)} problems, the first:\n" + "\n".join(failures[:5])
