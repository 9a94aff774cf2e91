"""What judging guesses by the chance to win costs a replay's review.

    python benchmarks/review.py [FILE ...] [--repeat 3]

With no files, every replay in ``../shared/replays`` (beside the repository).
Prints, per file, its board, its guesses, how many got an exact chance to win
(perfect play within :data:`minesat.review.GUESS_LAYOUTS` layouts and
:data:`~minesat.review.GUESS_STATES` states) and how many the move of the
``best`` strategy, and the best of ``--repeat`` times to review the game
(:func:`minesat.replay.review_replay`) with the chances and without them (both
limits set to nothing). Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from timing import best, read_replays, replay_files

from minesat import review
from minesat.replay import ReplayReview, review_replay


@contextmanager
def without_chances() -> Iterator[None]:
    """The review as it was before guesses were judged by the chance to win."""
    saved = review.GUESS_LAYOUTS, review.BEST_MOVE_CELLS
    review.GUESS_LAYOUTS, review.BEST_MOVE_CELLS = -1, 0
    try:
        yield
    finally:
        review.GUESS_LAYOUTS, review.BEST_MOVE_CELLS = saved


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    files = replay_files(args.files)
    if not files:
        return
    header = ("board", 8), ("guesses", 8), ("exact", 6), ("best", 5), ("with s", 7), ("without s", 10)
    print(f"{'file':40} " + " ".join(name.rjust(width) for name, width in header))
    for path, replay in read_replays(files):
        judged: ReplayReview = review_replay(replay)
        risky = judged.review.risky
        exact = sum(m.best_move_by == review.PERFECT for m in risky)
        named = sum(m.best_move_by == review.STRATEGY for m in risky)
        with_chances = best(args.repeat, lambda: review_replay(replay))  # noqa: B023 - timed at once
        with without_chances():
            plain = best(args.repeat, lambda: review_replay(replay))  # noqa: B023
        board = f"{replay.rows}x{replay.cols}"
        counts = f"{len(risky):8d} {exact:6d} {named:5d}"
        print(f"{path.name:40} {board:>8} {counts} {with_chances:7.2f} {plain:10.2f}")


if __name__ == "__main__":
    main()
