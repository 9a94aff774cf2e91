"""Replay files: time to read each one and to replay it move by move.

    python benchmarks/replay.py [FILE ...] [--repeat 3]

With no files, every replay in ``../shared/replays`` (beside the repository).
Prints, per file, its events and moves, the best of ``--repeat`` times to read
it (:func:`minesat.formats.read_replay`), to turn its events into moves and
play them (:func:`minesat.replay.play_replay`), and to step a game through the
moves yielding each position (:func:`minesat.replay.replay_steps`). Nothing is
asserted: this prints figures.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from timing import best, read_replays, replay_files

from minesat.formats import read_replay
from minesat.replay import play_replay, replay_steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    files = replay_files(args.files)
    if not files:
        return
    header = ("board", 8), ("events", 7), ("moves", 6), ("read ms", 8), ("play ms", 8), ("steps ms", 9)
    print(f"{'file':40} " + " ".join(name.rjust(width) for name, width in header))
    for path, replay in read_replays(files):
        game = play_replay(replay)
        moves = list(game.moves)
        read = best(args.repeat, lambda: read_replay(path))  # noqa: B023 - timed at once
        play = best(args.repeat, lambda: play_replay(replay))  # noqa: B023
        steps = best(args.repeat, lambda: sum(1 for _ in replay_steps(replay, moves)))  # noqa: B023
        board = f"{replay.rows}x{replay.cols}"
        print(
            f"{path.name:40} {board:>8} {len(replay.events):7d} {len(moves):6d} "
            f"{read * 1000:8.1f} {play * 1000:8.1f} {steps * 1000:9.1f}"
        )


if __name__ == "__main__":
    main()
