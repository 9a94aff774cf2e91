"""Games per second on one core, and the win rate with its 95 % interval.

    python benchmarks/simulate.py [--games GAMES] [--preset expert] [--seed 0] [--strategy safest]
    python benchmarks/simulate.py GAMES --rows 64 --cols 120 --mines 1536
    python benchmarks/simulate.py --suite [--scale 1.0]

``--suite`` plays, in one run, the three boards the engine's targets are set
on: expert (16x30/99, opening at 3,3), beginner (9x9/10, opening at 2,2) and
64x120 with 1536 mines (opening at 3,3), minesat's ``safest`` player against
ms-toollib's, game batches alternating between the two so that a change in the
machine's load hits both alike. It prints games per CPU second for each and
their ratio (``--scale`` multiplies the number of games). The targets are set
on ``safest``, so the suite plays it unless ``--strategy`` names another.

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
import struct
import time
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from typing import Any

from minesat.analysis import Analysis
from minesat.board import COVERED, FLAG, PRESETS, Cell, Layout, Position
from minesat.generate import generate_layout
from minesat.player import DEFAULT_STRATEGY, GameRecord, get_strategy, play_game
from minesat.simulation import play_indices
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

    The game loop asks :meth:`proven` after every round and :meth:`analyze` only for a guess
    (as it asks minesat's :class:`~minesat.analysis.Analyzer`), so a round costs ms_toollib's
    ``mark_board`` and the board's conversion, and a guess adds ``cal_probability_onboard``
    (``mark_board`` is not asked twice about one position). The conversions to and from
    ms_toollib's lists are a few C-level passes over the cells (a byte translation, a slice a
    row), so the time is ms_toollib's own work plus the least an adapter must do: no Python
    step a cell on the rounds that prove something.
    """

    def __init__(self) -> None:
        # The last position mark_board proved nothing on (its cells), and its board.
        self._unproven: tuple[tuple[int, ...], list[list[int]]] | None = None
        # The last analysis made, by the cells it was made of (and the total).
        self._last: tuple[tuple[tuple[int, ...], int], Analysis] | None = None

    def proven(self, position: Position) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
        """``(safe, mine)``, as :meth:`analyze` gives them: ``mark_board``'s, else the probabilities'."""
        import ms_toollib

        cells = position.cells
        board = _board(cells, position.cols)
        marked = bytes(_flat(ms_toollib.mark_board(board)))
        safe = tuple(_covered(cells, marked, MS_SAFE, position.cols))
        mine = tuple(_covered(cells, marked, MS_FLAG, position.cols))
        if safe or mine:
            return safe, mine
        self._unproven = (cells, board)
        found = self.analyze(position)
        return found.safe, found.mine

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        import ms_toollib

        total = position.mines if mines is None else mines
        cells, rows, cols = position.cells, position.rows, position.cols
        if self._last is not None and self._last[0] == (cells, total):
            return self._last[1]
        probability: list[list[float]] | None = None
        if self._unproven is not None and self._unproven[0] == cells:
            board = self._unproven[1]  # mark_board proved nothing here
            safe: list[Cell] = []
            mine: list[Cell] = []
        else:
            board = _board(cells, cols)
            marked = bytes(_flat(ms_toollib.mark_board(board)))
            safe = list(_covered(cells, marked, MS_SAFE, cols))
            mine = list(_covered(cells, marked, MS_FLAG, cols))
        if not safe and not mine:
            probability = ms_toollib.cal_probability_onboard(board, total)[0]
            flat = list(_flat(probability))
            safe = [divmod(i, cols) for i, (s, p) in enumerate(zip(cells, flat, strict=True))
                    if s == COVERED and p == 0.0]
            mine = [divmod(i, cols) for i, (s, p) in enumerate(zip(cells, flat, strict=True))
                    if s == COVERED and p == 1.0]
        else:
            proven = dict.fromkeys(safe, 0.0)
            proven.update(dict.fromkeys(mine, 1.0))
            flat = [proven.get(divmod(i, cols), 0.0) for i in range(rows * cols)]
        # As minesat's Analysis shows them: None uncovered, 1.0 flagged, the probability covered.
        shown = [p if s == COVERED else (1.0 if s == FLAG else None)
                 for s, p in zip(cells, flat, strict=True)]
        grid = tuple(tuple(shown[at : at + cols]) for at in range(0, rows * cols, cols))
        decided = set(safe) | set(mine)
        unknown = tuple(divmod(i, cols) for i, s in enumerate(cells)
                        if s == COVERED and divmod(i, cols) not in decided)
        analysis = Analysis(rows, cols, total, tuple(safe), tuple(mine), unknown, grid, 0)
        self._last = ((cells, total), analysis)
        return analysis


def ms_toollib_game(layout: Layout, start: Cell, rule: str, strategy: str) -> GameRecord:
    """:func:`minesat.player.play_game` with ms_toollib's engine in place of minesat's.

    The game loop and the strategy object (and so its tie-break) are minesat's own:
    only the analysis differs.
    """
    return play_game(layout, start, strategy=get_strategy(strategy), rule=rule, analyzer=MsToollibAnalyzer())


#: minesat's cell states (two's complement bytes: covered 255, a flag 254, numbers themselves) to
#: ms_toollib's codes.
_TO_MS = bytes(MS_COVERED if b == COVERED & 0xFF else MS_FLAG if b == FLAG & 0xFF else b for b in range(256))


@lru_cache(maxsize=8)
def _packer(cells: int) -> struct.Struct:
    return struct.Struct(f"{cells}b")


def _board(cells: tuple[int, ...], cols: int) -> list[list[int]]:
    """The position's cells as ms_toollib's board: a list of rows of its codes.

    >>> _board((1, -1, -2, 0), 2)
    [[1, 10], [11, 0]]
    """
    raw = _packer(len(cells)).pack(*cells).translate(_TO_MS)
    return [list(raw[at : at + cols]) for at in range(0, len(raw), cols)]


def _flat(rows: list[list[Any]]) -> Iterator[Any]:
    return chain.from_iterable(rows)


def _covered(cells: tuple[int, ...], marked: bytes, code: int, cols: int) -> Iterator[Cell]:
    """The covered cells where ``marked`` (mark_board's codes, row-major) holds ``code``,
    row-major (a flag on the board is 11 before and after: a proved mine is an 11 once covered).

    >>> list(_covered((-1, -2, -1), bytes([11, 11, 12]), 11, 3))
    [(0, 0)]
    """
    at = marked.find(code)
    while at >= 0:
        if cells[at] == COVERED:
            yield divmod(at, cols)
        at = marked.find(code, at + 1)


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


#: The player the suite's targets are set on (the default player has changed since).
SUITE_STRATEGY = "safest"

#: The suite: (label, rows, cols, mines, start, games at scale 1).
SUITE: list[tuple[str, int, int, int, tuple[int, int], int]] = [
    ("expert 16x30/99", 16, 30, 99, (3, 3), 200),
    ("beginner 9x9/10", 9, 9, 10, (2, 2), 2000),
    ("64x120/1536", 64, 120, 1536, (3, 3), 20),
]


def compare(config: RunConfig, games: int, batches: int = 10) -> tuple[float, float, int, int]:
    """Both players on games 0..games-1, batches alternating: (our CPU s, their CPU s, our wins, same games).

    "Same games" counts games where both players won or lost alike and guessed the very same cells.
    """
    ours_cpu = theirs_cpu = 0.0
    wins = same = 0
    step = max(1, games // batches)
    for lo in range(0, games, step):
        indices = range(lo, min(games, lo + step))
        cpu = time.process_time()
        ours = play_indices(config, indices)
        ours_cpu += time.process_time() - cpu
        cpu = time.process_time()
        theirs = play_indices(config, indices, play=ms_toollib_game)
        theirs_cpu += time.process_time() - cpu
        wins += sum(g.won for g in ours)
        same += sum(
            a.won == b.won and [g.move for g in a.guesses] == [g.move for g in b.guesses]
            for a, b in zip(ours, theirs, strict=True)
        )
    return ours_cpu, theirs_cpu, wins, same


def suite(scale: float, seed: int, strategy: str) -> None:
    print(
        f"minesat '{strategy}' player against ms-toollib's engine in the same game loop, seed {seed}, "
        f"one core ({platform.python_version()}, {platform.machine()}); CPU time"
    )
    generate_layout(9, 9, 10, start=(2, 2), rule="opening", seed=0)  # warm imports
    for label, rows, cols, mines, start, games in SUITE:
        n = max(1, round(games * scale))
        config = RunConfig(rows, cols, mines, rule="opening", start=start, seed=seed, strategy=strategy)
        ours, theirs, wins, same = compare(config, n)
        print(
            f"{label:<16} {n:5d} games  minesat {n / ours:8.1f} games/s ({ours / n * 1000:7.2f} ms)  "
            f"ms-toollib {n / theirs:8.1f} games/s ({theirs / n * 1000:7.2f} ms)  "
            f"ratio {theirs / ours:.2f}x  won {wins}  same games {same}/{n}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # Both `simulate.py 200` and `simulate.py --games 200` (as the README and `minesat simulate` say).
    parser.add_argument("count", type=int, nargs="?", default=None, metavar="games")
    parser.add_argument("--games", type=int, default=None, help="games to play (default 200)")
    parser.add_argument("--suite", action="store_true", help="the three target boards, both players")
    parser.add_argument("--scale", type=float, default=1.0, help="--suite: multiply the number of games")
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--mines", type=int)
    parser.add_argument("--preset", default="expert", choices=list(PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", default="opening", choices=["opening", "safe", "any"])
    parser.add_argument("--start", default="3,3", help="ROW,COL of the first click")
    parser.add_argument("--strategy", help=f"default {DEFAULT_STRATEGY}; with --suite, {SUITE_STRATEGY}")
    parser.add_argument("--no-ms-toollib", action="store_true", help="skip the comparison")
    args = parser.parse_args(argv)
    if args.count is not None and args.games is not None and args.count != args.games:
        parser.error(f"give the number of games once, not {args.count} and --games {args.games}")
    args.games = next((n for n in (args.games, args.count) if n is not None), 200)
    if args.games < 1:
        parser.error(f"--games must be >= 1, not {args.games}")
    if args.suite:
        suite(args.scale, args.seed, args.strategy or SUITE_STRATEGY)
        return
    args.strategy = args.strategy or DEFAULT_STRATEGY

    rows, cols, mines = PRESETS[args.preset]
    if args.rows or args.cols or args.mines:
        rows, cols, mines = args.rows or rows, args.cols or cols, args.mines or mines
        args.preset = "custom"
    r, c = (int(x) for x in args.start.split(","))
    config = RunConfig(rows, cols, mines, rule=args.rule, start=(r, c), seed=args.seed,
                       strategy=args.strategy)
    print(
        f"{args.preset} {rows}x{cols}/{mines}, first click {args.rule} at {r},{c}, seed {args.seed}, "
        f"strategy {args.strategy}; {args.games} games on one core ({platform.python_version()}, "
        f"{platform.machine()})"
    )
    # The layouts are generated inside both timings alike; check they are the games a run plays.
    assert config.spec.game_seed(args.seed, 0) == play_indices(config, [0])[0].seed
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
