"""What ranking every move from a position costs beside its value alone.

    python benchmarks/ranking.py [POSITION_FILE ...] [--games 20] [--seed 1]

For each position (the puzzles within reach, given files, and positions taken
from ``--games`` seeded 9x9 games with 14 mines where a guess was needed): its layouts,
the states and seconds to find the position's value alone
(:meth:`minesat.perfect.PositionSearch.wins`), and to rank every move on a
fresh search (:func:`minesat.perfect.rank_moves`, which finds the value first
and shares its memo with every move). Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from minesat.analysis import Analyzer
from minesat.board import Position
from minesat.formats import read_position
from minesat.generate import generate_layout
from minesat.perfect import SEARCH_BUDGET, PastBudget, PositionSearch
from minesat.player import get_strategy, play_game
from minesat.review import review_game, without_flags

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"

#: Positions with more layouts than this are left out (their value alone can take minutes).
MOST_LAYOUTS = 5000


def guess_positions(games: int, seed: int) -> list[tuple[str, Position]]:
    """The position before the first guess within :data:`MOST_LAYOUTS` layouts and not a plain
    50/50, in seeded games of ``safest`` on 9x9 boards with 14 mines."""
    found = []
    analyzer = Analyzer()
    for k in range(games):
        layout = generate_layout(9, 9, 14, start=(4, 4), rule="opening", seed=seed + k)
        record = play_game(layout, (4, 4), strategy=get_strategy("safest"))
        review = review_game(layout, record.moves, rule="opening")
        for move in review.risky:
            position = without_flags(move.position)
            if 2 < (analyzer.layouts(position) or MOST_LAYOUTS + 1) <= MOST_LAYOUTS:
                found.append((f"9x9/14 seed {seed + k} {move.move}", position))
                break
    return found


def timed(position: Position, rank: bool) -> tuple[int, float] | None:
    search = PositionSearch(position, budget=replace(SEARCH_BUDGET, time_limit=60.0))
    began = time.perf_counter()
    try:
        search.ranking() if rank else search.wins()
    except PastBudget:
        return None
    return search.states, time.perf_counter() - began


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    files = args.files or sorted(PUZZLES.glob("*.txt"))
    positions = [(path.name, read_position(path)) for path in files if ".layout." not in path.name]
    positions += guess_positions(args.games, args.seed)
    analyzer = Analyzer()
    head = f"{'value states':>13} {'s':>6} {'rank states':>12} {'s':>6}"
    print(f"{'position':28} {'layouts':>8} {'moves':>6} {head}")
    for name, position in positions:
        if position.mines is None:
            continue
        layouts = analyzer.layouts(position)
        if layouts is None or layouts > MOST_LAYOUTS:
            continue
        value, ranking = timed(position, rank=False), timed(position, rank=True)
        moves = len(PositionSearch(position).candidates())
        cells = [f"{s:13d} {t:6.2f}" if s is not None else f"{'past budget':>20}" for s, t in (
            value or (None, 0.0), ranking or (None, 0.0))]
        print(f"{name:28} {layouts:8d} {moves:6d} {cells[0]} {cells[1]:>19}")


if __name__ == "__main__":
    main()
