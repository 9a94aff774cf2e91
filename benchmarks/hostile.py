"""Hostile positions: time and peak memory of ``minesat analyze --json`` on each.

    python benchmarks/hostile.py [--only NAME] [--keep DIR] [--big] [--time-limit S] [--max-memory MB]
    python benchmarks/hostile.py --limits [--only NAME] [--cpu-clock]
    python benchmarks/hostile.py --chains [--repeat 3]

Each position is valid (it comes from a real layout) and states the total
mine count, which is what makes exact counting couple everything:

- ``solved-N``: a solved NxN board with its mines left covered (not flagged);
- ``checkerboard-N``: numbers on one colour of an NxN board, covered cells on
  the other, so the whole board is one component (``-half``: half of the
  covered cells mined, which leaves the local rules least to decide);
- ``snake``: a one-cell-wide covered path of about 3,466 cells winding through
  numbers (``-half``: half of it mined);
- ``islands``: 1,320 covered 3x3 holes, each a component whose mine count
  varies (its centre is interior), plus a covered block;
- ``half-N``: an NxN board with its mines at random and each safe cell uncovered with
  probability 1/2 (issue 40: 3.9-7.5 GB and a ``MemoryError`` at 300x300 once);
- ``mesh-N``: numbers on the cells of odd row and odd column of an NxN board,
  every other cell covered: each number shares cells with eight others, so the
  board is one component no count within the budget takes, and the solver
  decides (within its share of the work budget);
- with ``--big``, the same kinds at the 1000x1000 cap.

Each file is analysed by a fresh ``minesat analyze --json`` process
(so start-up, reading and writing the JSON line are counted); its wall time, its
peak resident memory, and the ``exact`` flag of its JSON line are printed.
Nothing is asserted: this prints figures. The goal (issue 8): every position
within 60 s and 1.5 GB; and (issue 40, SPEC 19) every budget kept: ``--time-limit S``
and ``--max-memory MB`` are passed on to ``minesat analyze``, and the limits SPEC 19
allows (1.1 S + 1 s from the file read; 1.1 MB + 50 MB) are printed beside the figures
(the seconds here also count the interpreter's start-up).

``--limits`` (issue 50) runs the hostile positions at the 1000x1000 cap (:func:`limit_positions`:
250 chains of 1s on 1000x998, 2 500 rings of numbers, a checkerboard, and random boards with 20, 35
and 50 % of their cells shown) each twice, with no limit and with ``--time-limit 10
--max-memory 600``, and prints wall and CPU seconds, peak memory, the exit status, whether
the answer is exact and how many cells it proves, and whether the limited run kept the
limits (12 s from the command's start to its end, 650 MB; under ``--cpu-clock``, 12 s of CPU).
``--cpu-clock`` runs the command
with its clock reading the process's CPU time instead of the wall clock (from the process's
start, as the wall clock counts from it): on a machine shared with other work the budgets
then see the time an idle machine would take.

``--chains`` (issue 50) measures the growth on long thin parts: 16 chains of 248, 498 and 998
cells, what ``analyze --json`` does of each past its start-up (read, analyse, write) and the
count's own share, in CPU time, the least of ``--repeat`` rounds, and each size's ratio to
248's (:func:`run_chains` says why in one process).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minesat.board import COVERED, Cell, Layout, Position
from minesat.formats import write_position

DENSITY = 0.2


def _counts(rows: int, cols: int, mines: set[Cell]) -> list[int]:
    return list(Layout(rows, cols, frozenset(mines)).counts)


def _position(rows: int, cols: int, mines: set[Cell], covered: Callable[[int, int], bool]) -> Position:
    """Mines and the cells ``covered`` says stay covered; every other cell shows its number."""
    counts = _counts(rows, cols, mines)
    cells = [
        COVERED if (r, c) in mines or covered(r, c) else counts[r * cols + c]
        for r in range(rows)
        for c in range(cols)
    ]
    return Position(rows, cols, tuple(cells), len(mines))


def solved(n: int, seed: int = 0) -> Position:
    """A solved n x n board with every mine still covered."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(n) for c in range(n)]
    mines = set(rng.sample(cells, round(DENSITY * n * n)))
    return _position(n, n, mines, lambda r, c: False)


def checkerboard(n: int, seed: int = 0, density: float = DENSITY) -> Position:
    """Numbers on the cells with r + c even, covered cells (some mined) on the others."""
    rng = random.Random(seed)
    odd = [(r, c) for r in range(n) for c in range(n) if (r + c) % 2]
    mines = set(rng.sample(odd, round(density * len(odd))))
    return _position(n, n, mines, lambda r, c: (r + c) % 2 == 1)


def snake(rows: int = 59, cols: int = 120, seed: int = 0, density: float = DENSITY) -> Position:
    """A covered path: every odd row across, joined at alternate ends; numbers elsewhere."""
    path: set[Cell] = set()
    for k, r in enumerate(range(1, rows - 1, 2)):
        path.update((r, c) for c in range(1, cols - 1))
        if r + 2 < rows - 1:
            path.add((r + 1, cols - 2 if k % 2 == 0 else 1))
    rng = random.Random(seed)
    mines = set(rng.sample(sorted(path), round(density * len(path))))
    return _position(rows, cols, mines, lambda r, c: (r, c) in path)


def islands(across: int = 40, down: int = 33, block: int = 20, seed: int = 0) -> Position:
    """``across`` x ``down`` holes of 3x3 covered cells, 5 cells apart, and a covered block below.

    A hole's centre touches no number: it belongs to the interior with the
    block's inside, so the holes' mine counts vary and the total couples them all.
    """
    rows, cols = down * 5 + block + 2, across * 5
    holes: set[Cell] = set()
    for i in range(down):
        for j in range(across):
            holes.update((i * 5 + 1 + dr, j * 5 + 1 + dc) for dr in range(3) for dc in range(3))
    lump = {(r, c) for r in range(rows - block, rows) for c in range(block)}
    rng = random.Random(seed)
    mines = {cell for cell in holes if rng.random() < 0.3}
    mines |= set(rng.sample(sorted(lump), block * block // 5))
    return _position(rows, cols, mines, lambda r, c: (r, c) in holes or (r, c) in lump)


def mesh(n: int, seed: int = 0) -> Position:
    """Numbers on the cells with odd row and odd column (unless mined), every other cell covered."""
    rng = random.Random(seed)
    mines = set(rng.sample([(r, c) for r in range(n) for c in range(n)], round(DENSITY * n * n)))
    return _position(n, n, mines, lambda r, c: not (r % 2 == 1 and c % 2 == 1))


def half_uncovered(n: int, seed: int = 0, density: float = DENSITY) -> Position:
    """Mines at random, and each safe cell uncovered with probability 1/2 (issue 40): numbers
    everywhere with covered cells between them, one long frontier no rule settles."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(n) for c in range(n)]
    mines = set(rng.sample(cells, round(density * n * n)))
    hidden = {cell for cell in cells if cell not in mines and rng.random() < 0.5}
    return _position(n, n, mines, lambda r, c: (r, c) in hidden)


def revealed(n: int, shown: float, seed: int = 0, density: float = DENSITY) -> Position:
    """Mines at random (``density`` of the cells) and each safe cell shown with probability
    ``shown``: the dense random boards of issue 50 (20 to 50 % shown)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(n) for c in range(n)]
    mines = set(rng.sample(cells, round(density * n * n)))
    hidden = {cell for cell in cells if cell not in mines and rng.random() >= shown}
    return _position(n, n, mines, lambda r, c: (r, c) in hidden)


def rings(n: int, size: int = 20, seed: int = 0, density: float = DENSITY) -> Position:
    """An ``n`` x ``n`` board tiled with ``size`` x ``size`` blocks, each showing one square ring of
    numbers two cells in from its edge, every other cell covered (``density`` of them mined): each
    ring's covered cells on both sides make a component whose numbers form a cycle, with
    layouts by the billion; the rest is interior, and the total couples every ring."""
    rng = random.Random(seed)
    shown = {(br + r, bc + c) for br in range(0, n - size + 1, size) for bc in range(0, n - size + 1, size)
             for r in range(size) for c in range(size) if min(r, c, size - 1 - r, size - 1 - c) == 2}
    mines = {(r, c) for r in range(n) for c in range(n) if (r, c) not in shown and rng.random() < density}
    return _position(n, n, mines, lambda r, c: (r, c) not in shown)


def chains(count: int, length: int) -> Position:
    """``count`` chains of 1s: each a covered row of ``length`` cells between two rows of revealed 1s
    (a row of 0s below keeps the chains apart), so ``4 * count`` rows of ``length`` columns.

    A chain's mines stand every third cell, starting in its first or second cell: two layouts
    each, with the same mine count, so its cells at 2 mod 3 are safe and the others even odds;
    its constraint graph is a path, and its exact count linear in its length (issue 50).
    """
    mines = {(4 * k + 1, c) for k in range(count) for c in range(0, length, 3)}
    return _position(4 * count, length, mines, lambda r, c: r % 4 == 1)


def limit_positions() -> dict[str, Callable[[], Position]]:
    """The hostile positions of issue 50, at the 1000x1000 cap."""
    return {
        "chains-250": lambda: chains(250, 998),
        "rings-1000": lambda: rings(1000),
        "checkerboard-1000": lambda: checkerboard(1000),
        "revealed-20": lambda: revealed(1000, 0.2),
        "revealed-35": lambda: revealed(1000, 0.35),
        "revealed-50": lambda: revealed(1000, 0.5),
    }


def positions(big: bool) -> dict[str, Callable[[], Position]]:
    made: dict[str, Callable[[], Position]] = {
        "solved-100": lambda: solved(100),
        "solved-150": lambda: solved(150),
        "checkerboard-100": lambda: checkerboard(100),
        "checkerboard-half": lambda: checkerboard(100, density=0.5),
        "snake": snake,
        "snake-half": lambda: snake(density=0.5),
        "islands": islands,
        "mesh-300": lambda: mesh(300),
        "half-150": lambda: half_uncovered(150),
        "half-300": lambda: half_uncovered(300),
    }
    if big:
        made |= {
            "solved-1000": lambda: solved(1000),
            "checkerboard-1000": lambda: checkerboard(1000),
            "snake-1000": lambda: snake(999, 1000),
            "islands-1000": lambda: islands(200, 195, 20),
            # Between the two meshes the solver's calls are dearest: the first one
            # with the global count grows with the cube of the cells (this took
            # 102 s until its price said so).
            "mesh-500": lambda: mesh(500),
            "mesh-1000": lambda: mesh(1000),
            "half-1000": lambda: half_uncovered(1000),
        }
    return made


#: Run in a fresh interpreter: it starts ``minesat analyze`` and reports on it as
#: JSON, so that the peak memory and the CPU time measured (RUSAGE_CHILDREN) are that one
#: process's. ``--cpu-clock``: the command's clock reads its CPU time (see the module).
_MEASURE = """
import json, resource, subprocess, sys, time
clock = sys.argv[3] == "cpu"
cli = "from minesat.cli import main; main()"
if clock:  # the CPU time counts from the process's start: so does the command's clock
    cli = ("import time; time.perf_counter = time.monotonic = time.process_time; "
           "import minesat.cli.analyze as a; a.command_began = lambda: 0.0; " + cli)
start = time.perf_counter()
try:
    done = subprocess.run([sys.executable, "-c", cli, "analyze", "--json", *sys.argv[4:], sys.argv[1]],
                          capture_output=True, text=True, timeout=float(sys.argv[2]))
except subprocess.TimeoutExpired:
    print(json.dumps({"outcome": "timed out"}))
    sys.exit()
wall = time.perf_counter() - start
used = resource.getrusage(resource.RUSAGE_CHILDREN)
line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
answer = json.loads(line) if line else {}
proved = len(answer.get("safe", [])) + len(answer.get("mine", []))
why = f" ({answer['why']})" if answer.get("why") else ""
print(json.dumps({
    "seconds": wall,
    "cpu": used.ru_utime + used.ru_stime,
    "user": used.ru_utime,
    "peak_mb": used.ru_maxrss / 1024,
    "exit": done.returncode,
    "exact": answer.get("exact"),
    "why": answer.get("why", ""),
    "proved": proved,
    "outcome": f"exit {done.returncode}, JSON line {len(line) / 1e6:.1f} MB, "
               f"exact {answer.get('exact')}, {proved} proved{why}",
    "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "",
}))
"""


def measure(
    path: Path, timeout: float, options: list[str] | None = None, cpu_clock: bool = False
) -> dict[str, Any]:
    """Wall and CPU seconds, peak MB and the outcome of one ``minesat analyze --json`` process."""
    clock = "cpu" if cpu_clock else "wall"
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path), str(timeout), clock, *(options or [])],
        capture_output=True, text=True,
    )
    found: dict[str, Any] = json.loads(done.stdout)
    return found


#: What ``--limits`` passes, and what the limited run must keep (issue 50: the answer within
#: 12 s of the command's start, 650 MB).
LIMITS = ["--time-limit", "10", "--max-memory", "600"]
KEPT_SECONDS, KEPT_MB = 12.0, 650.0


def run_limits(names: list[str], where: Path, timeout: float, cpu_clock: bool) -> None:
    """The ``--limits`` table: each position with no limit, then with :data:`LIMITS`."""
    made = limit_positions()
    clock = "its CPU time (--cpu-clock)" if cpu_clock else "the wall clock"
    print(f"minesat analyze --json, a fresh process each, the command's budgets read {clock}; "
          f"limited: {' '.join(LIMITS)} (kept: <= {KEPT_SECONDS:g} s, <= {KEPT_MB:g} MB)")
    print(f"{'position':<18} {'covered':>8} {'run':<8} {'wall s':>7} {'CPU s':>6} {'peak MB':>8} "
          f"{'exit':>4} {'exact':>5} {'proved':>7}  kept")
    for name in names:
        position = made[name]()
        path = where / f"{name}.txt"
        write_position(position, path)
        covered = sum(1 for s in position.cells if s == COVERED)
        for run, options in (("none", []), ("limited", LIMITS)):
            got = measure(path, timeout, options, cpu_clock)
            if "seconds" not in got:
                print(f"{name:<18} {covered:8d} {run:<8} {got['outcome']}", flush=True)
                continue
            kept = ""
            if options:  # under --cpu-clock the command's time is its CPU time, and is judged so
                took = got["cpu"] if cpu_clock else got["seconds"]
                kept = "yes" if took <= KEPT_SECONDS and got["peak_mb"] <= KEPT_MB else "NO"
            kept += f" ({got['why']})" if got.get("why") else ""
            print(f"{name:<18} {covered:8d} {run:<8} {got['seconds']:7.1f} {got['cpu']:6.1f} "
                  f"{got['peak_mb']:8.0f} {got['exit']:4d} {got['exact']!s:>5} {got['proved']:7d}  {kept}",
                  flush=True)


def run_chains(where: Path, repeat: int) -> None:
    """The ``--chains`` table: 16 chains of 248, 498 and 998 cells, what ``minesat analyze --json``
    does of each past its start-up, in this process: the file read, analysed by a fresh
    ``Analyzer`` as the command makes it, and its JSON line made; and of that, the count's own
    CPU time (``count_component``).

    Measured in one process, with the interpreter and its imports (numpy's among them, which
    only the big road takes) out of the timing: a fresh process's start-up (some 0.13 to 0.22
    s of user CPU here, counted in hundredths) is larger than the smallest board's work and
    varies more than it. The files are run in turn, ``repeat`` rounds, each keeping its least.
    """
    import gc
    import time

    import numpy  # noqa: F401  (the big road's import, out of the timing)

    from minesat.analysis import Analyzer, engine
    from minesat.analysis.combine import LINEAR_WORK_PER_CELL
    from minesat.analysis.result import json_chunks
    from minesat.formats.wanted import read_board

    paths = {}
    for length in (248, 498, 998):
        paths[length] = where / f"chains-16-{length}.txt"
        write_position(chains(16, length), paths[length])
    counted = [0.0]
    count = engine.count_component

    def timed_count(*args: Any, **kwargs: Any) -> Any:
        began = time.process_time()
        try:
            return count(*args, **kwargs)
        finally:
            counted[0] += time.process_time() - began

    engine.count_component = timed_count  # type: ignore[assignment]  # this process only
    least = {length: (float("inf"), float("inf")) for length in paths}
    for _ in range(repeat):
        for length, path in paths.items():
            counted[0] = 0.0
            began = time.process_time()
            position = read_board(path, None, "position", "analyze")
            analysis = Analyzer(exact_work_per_cell=LINEAR_WORK_PER_CELL).analyze(position)
            line = "".join(json_chunks(analysis, {"file": str(path)}))
            took = time.process_time() - began
            least[length] = (min(least[length][0], took), min(least[length][1], counted[0]))
            del position, analysis, line
            gc.collect()
    engine.count_component = count  # type: ignore[assignment]
    whole, own = least[248]
    print(f"minesat analyze --json's work past its start-up (read, analyse, write), CPU, "
          f"the least of {repeat} rounds")
    for length, (took, counting) in least.items():
        print(f"16 chains of {length:<4} {took * 1e3:7.1f} ms  {took / whole:5.2f}x 248   "
              f"the count {counting * 1e3:6.1f} ms  {counting / own if own else 0:5.2f}x 248")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the position with this name")
    parser.add_argument("--big", action="store_true", help="also the 1000x1000 positions")
    parser.add_argument("--keep", type=Path, help="write the files here (default: a temporary directory)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--time-limit", type=float, help="passed on to minesat analyze")
    parser.add_argument("--max-memory", type=int, help="passed on to minesat analyze (MB)")
    parser.add_argument("--limits", action="store_true",
                        help="issue 50's table: no limit, then 10 s and 600 MB")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="with --limits: the command's clock reads CPU time")
    parser.add_argument("--chains", action="store_true",
                        help="issue 50's growth on 16 chains of 248-998 cells")
    parser.add_argument("--repeat", type=int, default=3, help="with --chains: runs of each file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        if args.chains:
            run_chains(where, args.repeat)
            return
        if args.limits:
            names = [args.only] if args.only else list(limit_positions())
            run_limits(names, where, args.timeout, args.cpu_clock)
            return
        options: list[str] = []
        if args.time_limit is not None:
            options += ["--time-limit", str(args.time_limit)]
            allowed = 1.1 * args.time_limit + 1
            print(f"--time-limit {args.time_limit:g}: SPEC 19 allows {allowed:.1f} s from the file read")
        if args.max_memory is not None:
            options += ["--max-memory", str(args.max_memory)]
            print(f"--max-memory {args.max_memory}: SPEC 19 allows {1.1 * args.max_memory + 50:.0f} MB")
        made = positions(args.big)
        names = [args.only] if args.only else list(made)
        print(f"{'position':<18} {'size':>9} {'covered':>8} {'seconds':>8} {'peak MB':>8}  outcome")
        for name in names:
            position = made[name]()
            path = where / f"{name}.txt"
            write_position(position, path)
            got = measure(path, args.timeout, options)
            covered = sum(1 for s in position.cells if s == COVERED)
            size = f"{position.rows}x{position.cols}"
            took, peak = got.get("seconds", float("nan")), got.get("peak_mb", float("nan"))
            what = f"{got['outcome']} {got.get('error', '')}".rstrip()
            print(f"{name:<18} {size:>9} {covered:8d} {took:8.1f} {peak:8.0f}  {what}", flush=True)


if __name__ == "__main__":
    main()
