"""Milliseconds per exact draw of a layout (a fork's fresh secret) on positions of seeded games.

    python benchmarks/sample.py [--games 3] [--draws 20] [--cases expert,100x100x2000]

Each case plays GAMES seeded games (opening rule at D4) with the safest player until a share of
their safe cells is uncovered (30 %, 50 % and 70 %, game by game: tests/midgame.py), then draws
DRAWS layouts of each position with :func:`minesat.analysis.sample.sample_layout`, seeds 0..DRAWS-1.
It prints the position's size (covered cells, largest component), the median draw (wall and CPU
time: on a busy machine the CPU time says more) and the slowest, and checks each draw against
the position (every number met, the total, no mine on the opening): a disagreement is printed,
none is expected. Nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

from midgame import START, part_way  # noqa: E402
from minesat.analysis.constraints import FrontierModel  # noqa: E402
from minesat.analysis.sample import sample_layout  # noqa: E402
from minesat.board import COVERED  # noqa: E402
from minesat.generate import PRESETS, kept_clear  # noqa: E402
from test_sample import agrees  # noqa: E402

SHARES = (0.3, 0.5, 0.7)


def case(name: str) -> tuple[int, int, int]:
    """``expert`` (a preset) or ``ROWSxCOLSxMINES``."""
    if name in PRESETS:
        return PRESETS[name]
    rows, cols, mines = (int(x) for x in name.split("x"))
    return rows, cols, mines


def run(name: str, games: int, draws: int) -> None:
    rows, cols, mines = case(name)
    clear = kept_clear(rows, cols, start=START, rule="opening")
    print(f"{name} ({rows}x{cols}, {mines} mines)")
    every: list[float] = []
    every_cpu: list[float] = []
    for game in range(games):
        share = SHARES[game % len(SHARES)]
        _, position = part_way(rows, cols, mines, seed=game, share=share)
        model = FrontierModel()
        model.update(position)
        largest = max((len(comp.cells) for comp in model.components()), default=0)
        times = []
        cpu = []
        wrong = 0
        for seed in range(draws):
            began, used = time.perf_counter(), time.process_time()
            layout = sample_layout(position, mines, seed=seed, safe=clear)
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - used) * 1000)
            wrong += bool(agrees(layout, position, mines, clear))
        every += times
        every_cpu += cpu
        said = (f"median {statistics.median(times):.1f} ms ({statistics.median(cpu):.1f} ms of CPU), "
                f"slowest {max(times):.1f} ms")
        if wrong:
            said += f"; {wrong} draws DISAGREE with the position"
        print(
            f"  game {game}, {share:.0%} uncovered: {position.cells.count(COVERED)} covered, largest "
            f"component {largest} cells: {said}"
        )
    wall, cpu_all = statistics.median(every), statistics.median(every_cpu)
    print(f"  all: median {wall:.1f} ms per draw ({cpu_all:.1f} ms of CPU) over {len(every)} draws")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--cases", default="expert,100x100x2000")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name in args.cases.split(","):
        run(name, args.games, args.draws)


if __name__ == "__main__":
    main()
