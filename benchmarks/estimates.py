"""How close the estimates past a budget come to the exact probabilities (SPEC section 19: MAE <= 0.05).

    python benchmarks/estimates.py [--sizes 30,60,100,200] [--seeds 5]

On positions games reach (``analyze_growth.reached``: 16 % mines, 45 % uncovered, held-out
seeds) the exact analysis and :func:`minesat.analysis.estimate.estimate_position` (what an
analysis past a budget answers) are compared: the mean absolute error of the estimated
probabilities over the cells the exact analysis leaves uncertain, the largest error, how
many of the exact certainties propagation proved, and how many of its certainties are
wrong (must be 0). Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analyze_growth import reached

from minesat.analysis import Analyzer
from minesat.analysis.estimate import estimate_position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="30,60,100,200")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=100)
    args = parser.parse_args()
    print(f"{'size':>8} {'seed':>5} {'MAE':>7} {'max err':>8} {'proven':>13} {'wrong':>6} "
          f"{'exact s':>8} {'est. s':>7}")
    errors: list[float] = []
    for n in (int(x) for x in args.sizes.split(",")):
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            position = reached(n, n, seed)
            began = time.perf_counter()
            exact = Analyzer().analyze(position)
            middle = time.perf_counter()
            estimate = estimate_position(position, position.mines, "benchmark")
            end = time.perf_counter()
            grid, guess = exact.probability, estimate.probability
            errs = [abs(grid[r][c] - guess[r][c]) for r, c in exact.unknown]  # type: ignore[operator]
            errors += errs
            wrong = len(set(estimate.safe) - set(exact.safe)) + len(set(estimate.mine) - set(exact.mine))
            proven = f"{len(estimate.safe) + len(estimate.mine)}/{len(exact.safe) + len(exact.mine)}"
            mae = sum(errs) / len(errs) if errs else 0.0
            print(f"{n}x{n:<4} {seed:5d} {mae:7.4f} {max(errs, default=0):8.3f} {proven:>13} {wrong:6d} "
                  f"{middle - began:8.2f} {end - middle:7.2f}", flush=True)
    if errors:
        print(f"over all {len(errors)} uncertain cells: mean absolute error {sum(errors) / len(errors):.4f}")


if __name__ == "__main__":
    main()
