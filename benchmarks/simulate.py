"""Expert games per second on one core, and the win rate with its 95 % interval.

    python benchmarks/simulate.py [GAMES] [--preset expert] [--seed 0] [--strategy safest]

When ``ms_toollib`` is importable (it is not a dependency), the same seeded
layouts are also played from the same start by a player that takes its
probabilities from ms_toollib's engine (``mark_board`` for the quick proofs,
``cal_probability_onboard`` for exact probabilities) and guesses with the very
same strategy object. Both win rates, the agreement game by game, and the speed
ratio are printed. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import platform
import time

from minesat.analysis import Analysis
from minesat.board import COVERED, FLAG, PRESETS, Cell, Layout, Position
from minesat.generate import game_seed, generate_layout
from minesat.player import DEFAULT_STRATEGY, GameRecord, get_strategy, play_game
from minesat.simulate import play_indices
from minesat.stats import wilson
from minesat.store import RunConfig, StoredGame

# ms_toollib's board encoding: 0-8 uncovered numbers, 10 covered, 11 flag;
# mark_board also writes 12 for a cell it proved safe (and 11 for a proved mine).
MS_COVERED, MS_FLAG, MS_SAFE = 10, 11, 12


class MsToollibAnalyzer:
    """ms_toollib's engine behind minesat's analysis interface, for :func:`play_game`.

    ``mark_board`` gives the quick proofs; only when it proves nothing are the
    exact probabilities computed (``cal_probability_onboard``), as a player built
    on ms_toollib would do. Cells at probability 0 or 1 then count as proven.
    """

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        import ms_toollib

        total = position.mines if mines is None else mines
        rows, cols = position.rows, position.cols
        covered = position.cells_in(COVERED)
        board = [[_encode(position[r, c]) for c in range(cols)] for r in range(rows)]
        marked = ms_toollib.mark_board(board)
        safe = [cell for cell in covered if marked[cell[0]][cell[1]] == MS_SAFE]
        mine = [cell for cell in covered if marked[cell[0]][cell[1]] == MS_FLAG]
        probability: list[list[float]] | None = None
        if not safe and not mine:
            probability = ms_toollib.cal_probability_onboard(board, total)[0]
            safe = [cell for cell in covered if probability[cell[0]][cell[1]] == 0.0]
            mine = [cell for cell in covered if probability[cell[0]][cell[1]] == 1.0]
        proven = set(safe) | set(mine)
        grid = tuple(
            tuple(
                _shown(position[r, c], probability[r][c] if probability else float((r, c) in mine))
                for c in range(cols)
            )
            for r in range(rows)
        )
        unknown = tuple(cell for cell in covered if cell not in proven)
        return Analysis(rows, cols, total, tuple(safe), tuple(mine), unknown, grid, 0)


def ms_toollib_game(layout: Layout, start: Cell, rule: str, strategy: str) -> GameRecord:
    """:func:`minesat.player.play_game` with ms_toollib's engine in place of minesat's.

    The game loop and the strategy object (and so its tie-break) are minesat's own:
    only the analysis differs.
    """
    return play_game(layout, start, strategy=get_strategy(strategy), rule=rule, analyzer=MsToollibAnalyzer())


def _encode(state: int) -> int:
    if state == COVERED:
        return MS_COVERED
    if state == FLAG:
        return MS_FLAG
    return state


def _shown(state: int, p: float) -> float | None:
    """A probability as minesat's Analysis shows it: None uncovered, 1.0 flagged."""
    if state == FLAG:
        return 1.0
    return p if state == COVERED else None


def play_all(config: RunConfig, games: int, player=None) -> tuple[list[StoredGame], float, float]:
    """Play games 0..games-1 in this process (one core): the games, wall and CPU seconds.

    CPU seconds are the fairer clock on a shared machine; wall seconds are what a user waits.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    if player is None:
        results = play_indices(config, range(games))
    else:
        results = play_indices(config, range(games), play=player)
    return results, time.perf_counter() - wall, time.process_time() - cpu


def describe(name: str, games: list[StoredGame], wall: float, cpu: float) -> str:
    n = len(games)
    wins = sum(g.won for g in games)
    lo, hi = wilson(wins, n)
    guesses = sum(len(g.guesses) for g in games) / n
    no_guess = sum(g.no_guess_win for g in games)
    return (
        f"{name:<11} win rate {wins / n:6.2%}  95% CI [{lo:.2%}, {hi:.2%}]  ({wins}/{n})  "
        f"guesses/game {guesses:.2f}  no-guess wins {no_guess}\n"
        f"{'':<11} {n / cpu:7.2f} games per CPU second ({cpu / n * 1000:.1f} ms/game), "
        f"{n / wall:7.2f} games per wall second"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=200)
    parser.add_argument("--preset", default="expert", choices=list(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", default="opening", choices=["opening", "safe", "any"])
    parser.add_argument("--start", default="3,3", help="ROW,COL of the first click")
    parser.add_argument("--strategy", default=DEFAULT_STRATEGY)
    parser.add_argument("--no-ms-toollib", action="store_true", help="skip the comparison")
    args = parser.parse_args()

    rows, cols, mines = PRESETS[args.preset]
    r, c = (int(x) for x in args.start.split(","))
    config = RunConfig(rows, cols, mines, args.rule, (r, c), args.seed, args.strategy)
    print(
        f"{args.preset} {rows}x{cols}/{mines}, first click {args.rule} at {r},{c}, seed {args.seed}, "
        f"strategy {args.strategy}; {args.games} games on one core ({platform.python_version()}, "
        f"{platform.machine()})"
    )
    # The layouts are generated inside both timings alike; check they are the games a run plays.
    assert game_seed(rows, cols, mines, args.rule, (r, c), args.seed, 0) == play_indices(config, [0])[0].seed
    generate_layout(rows, cols, mines, start=(r, c), rule=args.rule, seed=0)  # warm imports

    ours, ours_wall, ours_cpu = play_all(config, args.games)
    print(describe("minesat", ours, ours_wall, ours_cpu))

    if args.no_ms_toollib:
        return
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        print("ms_toollib   not installed: no comparison (pip install ms_toollib)")
        return
    theirs, their_wall, their_cpu = play_all(config, args.games, ms_toollib_game)
    print(describe("ms_toollib", theirs, their_wall, their_cpu))
    same = sum(a.won == b.won for a, b in zip(ours, theirs, strict=True))
    same_guesses = sum(
        [g.move for g in a.guesses] == [g.move for g in b.guesses] for a, b in zip(ours, theirs, strict=True)
    )
    print(
        f"agreement   same outcome in {same}/{args.games} games, "
        f"the very same guessed cells in {same_guesses}/{args.games}"
    )
    print(
        f"speed       minesat / ms_toollib = {their_cpu / ours_cpu:.2f}x by CPU time, "
        f"{their_wall / ours_wall:.2f}x by wall time (above 1: minesat is faster)"
    )


if __name__ == "__main__":
    main()
