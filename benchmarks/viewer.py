"""The game viewer's cost: time to build the frames and the page, and the page's size.

Plays seeded games with the automatic player (opening rule at 3,3), builds one
frame per move (every position analysed) and renders the page, on expert
boards and on a 36x60 board with 440 mines (about 1400 moves a game).

    python benchmarks/viewer.py [--games 3] [--seed 1] [--out DIR]

``--out DIR`` keeps the pages (``<board>-<seed>.html``) to open or screenshot.
It prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from minesat.generate import generate_layout
from minesat.player import play_game
from minesat.viewer import game_frames, record_summary, render_viewer

BOARDS = {"expert": (16, 30, 99), "36x60": (36, 60, 440)}
START = (3, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    print(f"{'board':8} {'seed':>5} {'moves':>6} {'result':>7} {'play s':>7} {'frames s':>9} "
          f"{'page s':>7} {'page KB':>8} {'bytes/move':>10}")  # fmt: skip
    for name, (rows, cols, mines) in BOARDS.items():
        for seed in range(args.seed, args.seed + args.games):
            layout = generate_layout(rows, cols, mines, start=START, rule="opening", seed=seed)
            began = time.perf_counter()
            record = play_game(layout, START)
            played = time.perf_counter()
            frames = game_frames(layout, record.moves, rule="opening")
            framed = time.perf_counter()
            summary = record_summary(record, layout, START, "opening", "best")
            page = render_viewer(f"{name} seed {seed}", summary, frames, layout)
            rendered = time.perf_counter()
            size = len(page.encode())
            print(f"{name:8} {seed:>5} {len(record.moves):>6} {'won' if record.won else 'lost':>7} "
                  f"{played - began:>7.2f} {framed - played:>9.2f} {rendered - framed:>7.2f} "
                  f"{size / 1000:>8.0f} {size / len(record.moves):>10.0f}")  # fmt: skip
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"{name}-{seed}.html").write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main()
