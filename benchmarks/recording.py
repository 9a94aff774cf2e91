"""Replays minesat writes: time to record a game as mouse events and to write it, and file sizes.

    python benchmarks/recording.py [--games 5] [--repeat 3]

For each board (beginner, intermediate, expert, and a 36x60 board with 540
mines, as large as the biggest sample replay) the automatic player plays
``--games`` seeded games; each is recorded (:func:`minesat.recording.record_game`)
and formatted as EVF and RMV (:func:`minesat.formats.format_replay`). Prints
per board the mean moves and mouse events, the best of ``--repeat`` times
(mean over games) to record and to format each file, its size, and the game's
time as recorded. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import statistics
from datetime import UTC, datetime

from timing import best

from minesat.formats import format_replay
from minesat.generate import generate_layout
from minesat.player import play_game
from minesat.recording import record_game

BOARDS = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
    "36x60": (36, 60, 540),
}
DATE = datetime(2026, 1, 1, tzinfo=UTC)



def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    columns = ("moves", 6), ("events", 7), ("record ms", 10), ("evf ms", 7), ("evf kB", 7), ("rmv ms", 7), \
        ("rmv kB", 7), ("game s", 7)
    print(f"{'board':12} " + " ".join(name.rjust(width) for name, width in columns))
    for name, (rows, cols, mines) in BOARDS.items():
        figures: list[tuple[float, ...]] = []
        for seed in range(args.games):
            layout = generate_layout(rows, cols, mines, start=(3, 3), rule="opening", seed=seed)
            moves = play_game(layout, (3, 3)).moves
            replay = record_game(layout, moves, seed=seed, date=DATE)
            rmv = record_game(layout, moves, format="rmv", seed=seed, date=DATE)
            figures.append((
                len(moves),
                len(replay.events),
                best(args.repeat, lambda: record_game(layout, moves, seed=seed, date=DATE)),  # noqa: B023
                best(args.repeat, lambda: format_replay(replay, "evf")),  # noqa: B023
                len(format_replay(replay, "evf")) / 1000,
                best(args.repeat, lambda: format_replay(rmv, "rmv")),  # noqa: B023
                len(format_replay(rmv, "rmv")) / 1000,
                replay.rtime or 0.0,
            ))
        mean = [statistics.fmean(column) for column in zip(*figures, strict=True)]
        print(
            f"{name:12} {mean[0]:6.0f} {mean[1]:7.0f} {mean[2] * 1000:10.1f} {mean[3] * 1000:7.1f} "
            f"{mean[4]:7.1f} {mean[5] * 1000:7.1f} {mean[6]:7.1f} {mean[7]:7.1f}"
        )


if __name__ == "__main__":
    main()
