"""A sweep's wall time: every point on one shared pool, against one pool per point.

    python benchmarks/sweep.py [--size 9x9] [--mines 6:18:3] [--strategy safest,safest-rowmajor]
                               [--games 40] [--workers 2]

Plays the same grid twice, in one run, into two fresh directories:

- *one pool per point*: each point an ordinary ``minesat.simulation.run`` into its
  own store, as ``minesat sweep`` played until the pool was shared (a pool of
  ``--workers`` processes started and stopped for every point, and idle while a
  point's last batches finish);
- *one shared pool*: :func:`minesat.sweeping.run_sweep`, every point of every
  curve on one pool.

It prints both wall times, their ratio, and checks that both hold the same games
(outcome, guesses and seed of every game of every point). Nothing is asserted
about time: the figures are the output. The machine may be shared: compare the
ratio of one run, not figures across runs.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from minesat.simulation import run
from minesat.store import GameStore
from minesat.sweeping import parse_mines, parse_sizes, plan_sweep, point_db, run_sweep, split_list


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--size", action="append", default=None, help="RxC, repeatable (default 9x9)")
    parser.add_argument("--mines", default="6:18:3")
    parser.add_argument("--strategy", default="safest,safest-rowmajor")
    parser.add_argument("--rule", default="opening")
    parser.add_argument("--games", type=int, default=40, help="games per point")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    plan = plan_sweep(parse_sizes(args.size or ["9x9"]), split_list(args.rule, "--rule"),
                      split_list(args.strategy, "--strategy"), mines=parse_mines(args.mines))  # fmt: skip
    configs = [config for curve in plan.curves for config in curve.configs()]
    print(f"{len(plan.curves)} curves, {len(configs)} points, {args.games} games each, "
          f"{args.workers} workers")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        per_point, shared = Path(tmp) / "per-point", Path(tmp) / "shared"
        per_point.mkdir()
        began = time.perf_counter()
        for config in configs:
            with GameStore(point_db(per_point, config), config) as store:
                run(config, args.games, workers=args.workers, store=store)
        old = time.perf_counter() - began
        print(f"one pool per point: {old:7.2f} s wall")
        began = time.perf_counter()
        run_sweep(plan, args.games, shared, workers=args.workers)
        new = time.perf_counter() - began
        print(f"one shared pool:    {new:7.2f} s wall")
        print(f"ratio (per point / shared): {old / new:.2f}x")
        same = all(_games(point_db(per_point, c)) == _games(point_db(shared, c)) for c in configs)
        print(f"same games in both: {'yes' if same else 'NO'}")


def _games(path: Path) -> list[tuple[int, int, bool, tuple]]:
    with GameStore(path) as store:
        return [(g.index, g.seed, g.won, g.guesses) for g in store]


if __name__ == "__main__":
    main()
