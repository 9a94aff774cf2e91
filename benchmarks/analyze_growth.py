"""Time and peak memory of ``minesat analyze`` as boards grow, beside ms-toollib's.

    python benchmarks/analyze_growth.py [--sizes 50,100,200,300,1000] [--seeds 3] [--timeout 300]
        [--ms-toollib-up-to 300] [--time-limit S]

Positions games reach (issue 40): 16 % of the cells mined at random, then safe cells
uncovered in a random order (each opening what a click opens) until 45 % of the board
is uncovered. Each position is written to a file and analysed by a fresh
``minesat analyze --json`` process (start-up, reading and writing counted); ms-toollib's
``cal_probability_onboard`` runs on the same position in a process of its own. Peak
memory is each process's maximum resident set. Nothing is asserted: this prints figures,
the ratio of each size's median time to the smallest size's (linear growth in the
cells is the ratio of the cells), and seed by seed the ratio of each size's time to the
same seed's at the second size (SPEC 19: 300x300 within 12 times 100x100's time).
ms-toollib runs up to ``--ms-toollib-up-to`` (it takes minutes from 200x200 on).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from minesat.board import COVERED, Position
from minesat.formats import write_position
from minesat.game import Game
from minesat.generate import generate_layout

DENSITY, UNCOVERED = 0.16, 0.45


def reached(rows: int, cols: int, seed: int, density: float = DENSITY, share: float = UNCOVERED) -> Position:
    """A position a long game reaches: ``share`` of the board uncovered by random safe clicks."""
    mines = round(density * rows * cols)
    layout = generate_layout(rows, cols, mines, rule="any", seed=seed)
    rng = random.Random(seed)
    game = Game(layout)
    safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in layout.mines]
    rng.shuffle(safe)
    goal = share * rows * cols
    uncovered = 0
    for cell in safe:
        if uncovered >= goal:
            break
        if game[cell] == COVERED:
            game.uncover(cell)
            uncovered = rows * cols - mines - game._to_uncover
    return game.position


#: Run in a fresh interpreter: one command, its wall time and its own peak memory.
_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
try:
    done = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=float(sys.argv[1]))
except subprocess.TimeoutExpired:
    print(json.dumps({"outcome": "timed out"}))
    sys.exit()
print(json.dumps({"seconds": time.perf_counter() - start,
                  "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                  "stdout": done.stdout[-2000:], "code": done.returncode}))
"""

_MS_TOOLLIB = """
import sys, json
import ms_toollib
from minesat.formats import read_position
from minesat.board import COVERED, FLAG
p = read_position(sys.argv[1])
code = {COVERED: 10, FLAG: 11}
board = [[code.get(p[r, c], p[r, c]) for c in range(p.cols)] for r in range(p.rows)]
ms_toollib.cal_probability_onboard(board, p.mines)
print("done")
"""


def measure(command: list[str], timeout: float) -> dict[str, object]:
    run = [sys.executable, "-c", _MEASURE, str(timeout), *command]
    done = subprocess.run(run, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,100,200,300,1000")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=100, help="held-out seeds start here")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--no-ms-toollib", action="store_true")
    parser.add_argument("--ms-toollib-up-to", type=int, default=300, help="largest side ms-toollib runs on")
    parser.add_argument("--time-limit", type=float, help="passed on to minesat analyze")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    print(f"positions games reach: {DENSITY:.0%} mines, {UNCOVERED:.0%} uncovered; "
          f"seeds from {args.first_seed}")
    print(f"{'size':>9} {'seed':>5} {'minesat s':>10} {'MB':>6} {'exact':>6} {'ms-toollib s':>13} {'MB':>6}")
    medians: dict[int, float] = {}
    by_seed: dict[int, dict[int, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            times = []
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                path = Path(tmp) / f"{n}-{seed}.txt"
                write_position(reached(n, n, seed), path)
                command = [sys.executable, "-m", "minesat", "analyze", "--json", str(path)]
                if args.time_limit is not None:
                    command[-1:-1] = ["--time-limit", str(args.time_limit)]
                ours = measure(command, args.timeout)
                # The line's end (a 1000x1000 line is tens of megabytes): its "exact" key is there.
                found = re.search(r'"exact": (true|false)', str(ours.get("stdout", "")))
                exact = found.group(1) if found else "-"
                theirs: dict[str, object] = {"outcome": "not run"}
                if not args.no_ms_toollib and n <= args.ms_toollib_up_to:
                    theirs = measure([sys.executable, "-c", _MS_TOOLLIB, str(path)], args.timeout)
                if "seconds" in ours:
                    times.append(float(ours["seconds"]))  # type: ignore[arg-type]
                    by_seed.setdefault(seed, {})[n] = float(ours["seconds"])  # type: ignore[arg-type]

                def show(got: dict[str, object]) -> str:
                    if "seconds" not in got:
                        return f"{got.get('outcome', '?'):>13} {'':>6}"
                    return f"{got['seconds']:13.2f} {got['peak_mb']:6.0f}"

                ours_text = show(ours).strip().split()
                ours_cols = f"{ours_text[0]:>10} {ours_text[1] if len(ours_text) > 1 else '':>6}"
                print(f"{n}x{n:<5} {seed:5d} {ours_cols} {exact:>6} {show(theirs)}", flush=True)
            if times:
                medians[n] = statistics.median(times)
    if len(sizes) > 1:
        base = sizes[1] if len(sizes) > 2 else sizes[0]
        for n in sizes:
            ratios = [t[n] / t[base] for t in by_seed.values() if n in t and base in t]
            if ratios and n > base:
                shown = ", ".join(f"{r:.1f}" for r in ratios)
                print(f"{n}x{n} / {base}x{base} seed by seed: {shown} (max {max(ratios):.1f}; "
                      f"cells {n * n / (base * base):.0f}x)")
    if medians:
        base = sizes[0]
        for n, t in medians.items():
            print(f"{n}x{n}: median {t:.2f} s, {t / medians[base]:.1f}x the {base}x{base} time "
                  f"(cells {n * n / (base * base):.0f}x)")


if __name__ == "__main__":
    main()
