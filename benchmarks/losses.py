"""Where the player guesses and where it loses: guesses, expected deaths and fatal guesses by layouts left.

    python benchmarks/losses.py [--preset expert] [--games 1000] [--seed 0]
        [--first-click opening --start 3,3] [--strategy best]

Each guess the strategy makes is filed under how many layouts fit the position
then (:attr:`~minesat.analysis.Analysis.layouts`, in bands of powers of ten);
per band it prints the guesses, their summed mine probability (the deaths to
expect there) and the guesses that ended a game. Guesses at or under ``best``'s
endgame threshold (2 000 layouts on expert) are perfect play's from that
position on, so a band's deaths say where a better guess could still win games
and where only the positions reached could. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from minesat.analysis import Analysis
from minesat.board import PRESETS, Cell, Position
from minesat.generate import FirstClick, game_seed, generate_layout
from minesat.guess import mine_probability
from minesat.player import Strategy, get_strategy, is_strategy, play_game

#: The bands: a label and the most layouts in it. 2 000 is where ``best``'s exact play takes over on expert.
BANDS = (
    ("1", 1),
    ("2..10", 10),
    ("11..100", 100),
    ("101..2 000", 2_000),
    ("2 001..10^4", 10**4),
    ("10^4..10^6", 10**6),
    ("10^6..10^10", 10**10),
    ("10^10..10^20", 10**20),
    ("10^20..10^50", 10**50),
)
ABOVE = "over 10^50"


def band(layouts: int | None) -> str:
    """The band a layout count falls in, as printed.

    >>> band(7), band(2000), band(10**30), band(10**60), band(None)
    ('2..10', '101..2 000', '10^20..10^50', 'over 10^50', 'uncounted')
    """
    if layouts is None:
        return "uncounted"
    return next((label for label, most in BANDS if layouts <= most), ABOVE)


#: The bands in the order printed: the last two hold more layouts than any band, or an uncounted number.
ORDER = [label for label, _ in BANDS] + [ABOVE, "uncounted"]


@dataclass
class Tally:
    guesses: int = 0
    risk: float = 0.0
    fatal: int = 0


@dataclass
class Recorder:
    """Wraps a strategy and notes the layouts and risk of each of its guesses."""

    strategy: Strategy
    seen: list[tuple[int | None, float]] = field(default_factory=list)

    def choose(self, position: Position, analysis: Analysis) -> Cell:
        cell = self.strategy.choose(position, analysis)
        self.seen.append((analysis.layouts, mine_probability(analysis, cell)))
        return cell

    def __getattr__(self, name: str) -> object:
        return getattr(self.strategy, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="expert", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-click", default="opening", choices=[r.value for r in FirstClick])
    parser.add_argument("--start", default="3,3")
    parser.add_argument("--strategy", default="best")
    args = parser.parse_args()
    if not is_strategy(args.strategy):
        sys.exit(f"losses.py: unknown strategy {args.strategy!r}")
    try:
        r, c = (int(x) for x in args.start.split(","))
    except ValueError:
        sys.exit(f"losses.py: --start is ROW,COL, not {args.start!r}")
    rows, cols, mines = PRESETS[args.preset]
    tallies: dict[str, Tally] = {}
    won = 0
    for i in range(args.games):
        seed = game_seed(rows, cols, mines, rule=args.first_click, start=(r, c), seed=args.seed, index=i)
        layout = generate_layout(rows, cols, mines, start=(r, c), rule=args.first_click, seed=seed)
        recorder = Recorder(get_strategy(args.strategy))
        record = play_game(layout, (r, c), strategy=recorder, rule=args.first_click)  # type: ignore[arg-type]
        won += record.won
        for k, (layouts, risk) in enumerate(recorder.seen):
            t = tallies.setdefault(band(layouts), Tally())
            t.guesses += 1
            t.risk += risk
            t.fatal += (not record.won) and k == len(recorder.seen) - 1
    lost = args.games - won
    print(f"{args.preset} {rows}x{cols}/{mines}, {args.first_click} at {args.start}, seed {args.seed}, "
          f"{args.games} games, strategy {args.strategy}: won {won}, lost {lost}")
    print(f"{'layouts left':>16} {'guesses':>8} {'expected deaths':>16} {'fatal':>6} {'share of losses':>16}")
    for name in sorted(tallies, key=ORDER.index):
        t = tallies[name]
        share = t.fatal / lost if lost else 0.0
        print(f"{name:>16} {t.guesses:>8} {t.risk:>16.1f} {t.fatal:>6} {share:>16.1%}")


if __name__ == "__main__":
    main()
