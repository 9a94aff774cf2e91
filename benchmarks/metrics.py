"""Board metrics per layout: minesat's against ms-toollib's, time and agreement.

    python benchmarks/metrics.py [--layouts 1000] [--seed 0] [--rows 16 --cols 30 --mines 99]

Draws seeded layouts (no first-click rule), computes 3BV, openings, islands and
greedy ZiNi with :mod:`minesat.metrics` and, when ``ms_toollib`` is importable
(it is not a dependency), with ``cal_bbbv``, ``cal_op``, ``Board.isl`` and
``cal_zini``; prints milliseconds per layout and how many layouts agree on
each figure. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import random
import time

from minesat.generate import generate_layout
from minesat.metrics import metrics

FIGURES = ("bbbv", "openings", "islands", "zini")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cols", type=int, default=30)
    parser.add_argument("--mines", type=int, default=99)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    size = (args.rows, args.cols, args.mines)
    layouts = [generate_layout(*size, rule="any", rng=rng) for _ in range(args.layouts)]
    began = time.perf_counter()
    ours = [metrics(layout) for layout in layouts]
    seconds = time.perf_counter() - began
    print(f"{args.layouts} layouts {args.rows}x{args.cols}/{args.mines}")
    print(f"  minesat     {seconds / args.layouts * 1000:8.3f} ms/layout (all six figures)")
    try:
        import ms_toollib as ms
    except ImportError:
        print("  ms-toollib  not installed (pip install ms-toollib to compare)")
        return
    boards = []
    for layout in layouts:
        counts = layout.counts
        boards.append([
            [-1 if (r, c) in layout.mines else counts[r * layout.cols + c] for c in range(layout.cols)]
            for r in range(layout.rows)
        ])
    began = time.perf_counter()
    theirs = [(ms.cal_bbbv(b), ms.cal_op(b), ms.Board(b).isl, ms.cal_zini(b)) for b in boards]
    seconds = time.perf_counter() - began
    agree = {name: sum(getattr(m, name) == t[k] for m, t in zip(ours, theirs, strict=True))
             for k, name in enumerate(FIGURES)}
    per = seconds / args.layouts * 1000
    print(f"  ms-toollib  {per:8.3f} ms/layout (cal_bbbv, cal_op, Board.isl, cal_zini)")
    print("  agreement   " + ", ".join(f"{name} {n}/{args.layouts}" for name, n in agree.items()))


if __name__ == "__main__":
    main()
