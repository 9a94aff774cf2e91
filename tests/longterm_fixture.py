"""The long-term risk's floats on real guesses, recorded bit for bit: pinned across changes to how it counts.

``python3 tests/longterm_fixture.py`` rewrites ``tests/fixtures/longterm.json``
from the current :mod:`minesat.guess.longterm`; ``tests/test_big_counts.py``
reads the same positions back and compares every float exactly (``repr``).
The positions are those at which the ``best`` player guesses in seeded games,
so the pinned values are the ones its choices are made from. Rewrite the
fixture only when a change is *meant* to change those values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from minesat.analysis import Analysis, Analyzer
from minesat.board import Position
from minesat.formats import format_position
from minesat.generate import game_seed, generate_layout
from minesat.guess.best import BestGuess
from minesat.guess.longterm import LongTermRisk
from minesat.player import get_strategy, play_game

FIXTURE = Path(__file__).parent / "fixtures" / "longterm.json"

#: (rows, cols, mines, games): the boards whose guesses are recorded, at most GUESSES a board.
BOARDS = [(9, 9, 10, 80), (16, 16, 40, 30), (16, 30, 99, 12)]
GUESSES = 20


def guessed_positions(rows: int, cols: int, mines: int, games: int) -> list[Position]:
    """The positions at which ``best`` guessed in games 0..games-1 of a seed-0 run (first click opening)."""
    seen: list[Position] = []
    choose = BestGuess.choose

    def recording(self: BestGuess, position: Position, analysis: Analysis) -> tuple[int, int]:
        seen.append(position)
        return choose(self, position, analysis)

    BestGuess.choose = recording  # type: ignore[method-assign]
    try:
        start = (3, 3)
        for i in range(games):
            seed = game_seed(rows, cols, mines, rule="opening", start=start, seed=0, index=i)
            layout = generate_layout(rows, cols, mines, start=start, rule="opening", seed=seed)
            play_game(layout, start, strategy=get_strategy("best"), rule="opening")
    finally:
        BestGuess.choose = choose  # type: ignore[method-assign]
    return seen[:GUESSES]


def risk_values(position: Position) -> dict[str, Any]:
    """What the long-term risk says of ``position``: pseudo 50/50s, the scan's shares, the influence
    of each undecided cell that has some (the others have none)."""
    analyzer = Analyzer()
    analysis = analyzer.analyze(position)
    risk = LongTermRisk(analyzer, position, analysis)
    return {
        "pseudos": [list(c) for c in risk.pseudos],
        "scanned": sorted([[r, c, repr(v)] for (r, c), v in risk.scanned().items()]),
        "influence": [[r, c, repr(v)] for r, c in analysis.unknown if (v := risk.influence((r, c)))],
    }


def record() -> list[dict[str, Any]]:
    """Every recorded position with its values."""
    out = []
    for rows, cols, mines, games in BOARDS:
        for position in guessed_positions(rows, cols, mines, games):
            text = format_position(position)
            assert isinstance(text, str)
            out.append({"position": text, **risk_values(position)})
    return out


def main() -> None:
    positions = record()
    FIXTURE.write_text("[\n" + ",\n".join(json.dumps(p) for p in positions) + "\n]\n")
    print(f"wrote {FIXTURE}: {len(positions)} positions")


if __name__ == "__main__":
    main()
