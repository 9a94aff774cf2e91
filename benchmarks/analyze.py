"""Analysis speed on expert positions, and agreement with ms-toollib when it is installed.

Positions come from seeded expert games (16x30, 99 mines, opening at 3,3) played
forward by making every proven move and, when none exists, uncovering a random
mine-free cell (with knowledge of the layout), so every stage of a game is
represented. Each position is analysed by a fresh Analyzer (no cache), so the
figures are those of a cold, one-off analysis.

    python benchmarks/analyze.py [--games 40] [--seed 0]
    python benchmarks/analyze.py --sizes [--games 10]
    python benchmarks/analyze.py --files 300 [--baseline OLD/src]

``--files N`` writes N of those positions to files and times ``minesat analyze --json`` over all of
them in one process (its CPU time, and that of one file alone, the start-up), against ms-toollib
computing the same probabilities (``cal_probability_onboard``, timed inside its process), in turn
three times. What each side's figure holds differs: ms-toollib's is its computation alone, the
boards handed to it already parsed (its import, reading the boards and any output are outside
the clock); minesat's whole process holds Python's and its libraries' start-up, and past the
start-up the other files each read, checked, analysed and written as a JSON line. So a third
figure times minesat as ms-toollib is timed: its analysis alone (``Analyzer.analyze``, one
analyzer for all positions, as the command shares one), the files read before the clock starts.
Past the start-up is also timed in one process, which runs the command on the first file (the
imports, typer's set-up) and then, under its CPU clock, on all of them: the same work as the
difference of the two processes, without the noise of two start-ups.

``--sizes`` instead times the cold analysis of positions from games on
16x30 (99 mines), 64x120 (1536) and 100x100 (2000), all about one mine in
five cells, and prints the time per position and per thousand cells: linear
cost shows as a flat time per cell.

It prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator

from minesat.analysis import Analyzer
from minesat.board import COVERED, FLAG, Position
from minesat.game import Game
from minesat.generate import game_seed, generate_layout

ROWS, COLS, MINES, START = 16, 30, 99, (3, 3)


def expert_positions(
    games: int, seed: int, rows: int = ROWS, cols: int = COLS, mines: int = MINES
) -> Iterator[Position]:
    """Every position where a player would have to stop and think, over ``games`` games."""
    for i in range(games):
        layout = generate_layout(
            rows,
            cols,
            mines,
            start=START,
            rule="opening",
            seed=game_seed(rows, cols, mines, rule="opening", start=START, seed=seed, index=i),
        )
        rng = random.Random(i)
        game = Game(layout)
        game.uncover(START)
        analyzer = Analyzer()
        while not game.over:
            position = game.position
            yield position
            analysis = analyzer.analyze(position)
            for cell in analysis.mine:
                game.flag(cell)
            for cell in analysis.safe:
                game.uncover(cell)
            if not analysis.safe:
                free = [c for c in analysis.unknown if c not in layout.mines]
                game.uncover(rng.choice(free))


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def ms_toollib_board(position: Position) -> list[list[int]]:
    """ms-toollib's encoding: 0-8 numbers, 10 covered, 11 flagged."""
    code = {COVERED: 10, FLAG: 11}
    return [
        [code.get(position[r, c], position[r, c]) for c in range(position.cols)] for r in range(position.rows)
    ]


#: Boards for ``--sizes``: (rows, cols, mines), about one mine in five cells.
SIZES = [(16, 30, 99), (64, 120, 1536), (100, 100, 2000)]


def sizes(games: int, seed: int) -> None:
    """Cold analysis time per position on growing boards, and per thousand cells."""
    print(f"cold analysis (fresh Analyzer, total known), positions from {games} games a board, seed {seed}")
    for rows, cols, mines in SIZES:
        positions = list(expert_positions(games, seed, rows, cols, mines))
        samples = [timed(lambda p=p: Analyzer().analyze(p)) for p in positions]
        median, p90 = percentiles(samples)
        cells = rows * cols
        print(
            f"{rows}x{cols}/{mines:<5} {len(positions):5d} positions  median {median * 1e3:7.2f} ms  "
            f"p90 {p90 * 1e3:7.2f} ms  median per 1000 cells {median * 1e6 / cells:6.2f} ms"
        )


def child_cpu(command: list[str], stdin: str | None = None, source: str | None = None) -> tuple[float, str]:
    """The CPU seconds (user and system) a child process used, and what it printed; ``source``: a
    directory to import minesat from (``PYTHONPATH``) instead of this process's."""
    import resource
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if source is not None:
        env["PYTHONPATH"] = source
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def files(count: int, games: int, seed: int, rounds: int = 3, baseline: str | None = None) -> None:
    """``minesat analyze --json`` over ``count`` position files in one process, against ms-toollib
    computing the same positions' probabilities (``cal_probability_onboard``, its compute alone,
    in a child process), ``rounds`` times in turn; and ``analyze`` of one file (the start-up)."""
    import json
    import tempfile
    from itertools import islice

    from minesat.formats import format_position

    positions = list(islice(expert_positions(games, seed), count))
    with tempfile.TemporaryDirectory(prefix="minesat-files-") as tmp:
        paths = []
        for k, p in enumerate(positions):
            path = os.path.join(tmp, f"p{k:04d}.txt")
            with open(path, "w", encoding="utf-8") as out:
                out.write(format_position(p))
            paths.append(path)
        minesat = [sys.executable, "-m", "minesat", "analyze", "--json"]
        theirs = (
            "import json, sys, time, ms_toollib\n"
            "boards = json.load(sys.stdin)\n"
            "began = time.process_time()\n"
            "for board, mines in boards:\n"
            "    ms_toollib.cal_probability_onboard(board, mines)\n"
            "print(time.process_time() - began)\n"
        )
        feed = json.dumps([(ms_toollib_board(p), p.mines) for p in positions])
        # minesat timed as ms-toollib is: the analysis alone, the positions read beforehand.
        alone = (
            "import sys, time\n"
            "from minesat.formats import read_position\n"
            "from minesat.usecases.positions import budget_analyzer\n"
            "positions = [read_position(path) for path in sys.argv[1:]]\n"
            "analyzer = budget_analyzer()\n"
            "began = time.process_time()\n"
            "for position in positions:\n"
            "    analyzer.analyze(position)\n"
            "print(time.process_time() - began)\n"
        )
        # Past the start-up without the noise of two processes' start-ups told apart: one process
        # runs the command on the first file (its imports, typer's set-up), then on all files
        # under its CPU clock.
        warm = (
            "import os, sys, time\n"
            "from minesat.cli import app\n"
            "paths, shown = sys.argv[1:], sys.stdout\n"
            "sys.stdout = open(os.devnull, 'w')\n"
            "def run(paths):\n"
            "    try:\n"
            "        app(args=['analyze', '--json', *paths], standalone_mode=False)\n"
            "    except SystemExit:\n"
            "        pass\n"
            "run(paths[:1])\n"
            "began = time.process_time()\n"
            "run(paths)\n"
            "shown.write(f'{time.process_time() - began}\\n')\n"
        )
        child_cpu(minesat + paths)  # the bytecode written, the files cached
        if baseline is not None:
            child_cpu(minesat + paths, source=baseline)
        print(f"{len(positions)} expert position files (from {games} games, seed {seed}); CPU seconds")
        for _ in range(rounds):
            whole, _ = child_cpu(minesat + paths)
            one, _ = child_cpu(minesat + paths[:1])
            _, printed = child_cpu([sys.executable, "-c", theirs], feed)
            ms = float(printed) if printed.strip() else float("nan")
            _, printed = child_cpu([sys.executable, "-c", alone, *paths])
            ours = float(printed) if printed.strip() else float("nan")
            _, printed = child_cpu([sys.executable, "-c", warm, *paths])
            past = float(printed) if printed.strip() else float("nan")
            print(f"  minesat analyze --json, all files {whole:6.3f} (one file, the start-up: {one:6.3f}; "
                  f"the rest {whole - one:6.3f}); ms-toollib's probabilities {ms:6.3f}; "
                  f"minesat / ms-toollib: {whole / ms:.2f}x whole, "
                  f"{(whole - one) / ms:.2f}x past the start-up; in one process past a first file "
                  f"{past:6.3f} ({past / ms:.2f}x); minesat's analysis alone {ours:6.3f} "
                  f"({ours / ms:.2f}x) (load {os.getloadavg()[0]:.1f})")
            if baseline is not None:
                old_whole, _ = child_cpu(minesat + paths, source=baseline)
                old_one, _ = child_cpu(minesat + paths[:1], source=baseline)
                old_rest = old_whole - old_one
                _, printed = child_cpu([sys.executable, "-c", warm, *paths], source=baseline)
                old_past = float(printed) if printed.strip() else float("nan")
                print(f"    baseline {baseline}: all files {old_whole:6.3f} (one file {old_one:6.3f}; "
                      f"the rest {old_rest:6.3f}): {old_rest / ms:.2f}x past the start-up; "
                      f"this tree's rest {(whole - one) / old_rest:.2f}x the baseline's; in one process "
                      f"past a first file {old_past:6.3f}: this tree's {past / old_past:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", action="store_true", help="time per position on growing boards")
    parser.add_argument("--files", type=int, metavar="N",
                        help="analyze --json over N position files in one process, against ms-toollib")
    parser.add_argument("--baseline", metavar="SRC",
                        help="with --files: also time minesat imported from SRC (another tree's src)")
    args = parser.parse_args()
    if args.sizes:
        sizes(args.games, args.seed)
        return
    if args.files:
        files(args.files, args.games, args.seed, baseline=args.baseline)
        return

    positions = list(expert_positions(args.games, args.seed))
    print(f"{len(positions)} expert positions from {args.games} games (seed {args.seed})")

    unknown_total = [p.with_mines(None) for p in positions]
    classify = [timed(lambda p=p: Analyzer().analyze(p)) for p in unknown_total]
    full = [timed(lambda p=p: Analyzer().analyze(p)) for p in positions]
    inexact = sum(1 for p in positions if not Analyzer().analyze(p).exact)
    for label, samples in (("classification only", classify), ("with exact probabilities", full)):
        median, p90 = percentiles(samples)
        print(f"minesat {label:26s} median {median * 1e3:7.2f} ms   p90 {p90 * 1e3:7.2f} ms")
    print(f"positions with estimated (not exact) probabilities: {inexact}")

    try:
        import ms_toollib
    except ImportError:
        print("ms-toollib is not installed: no comparison (pip install ms-toollib)")
        return

    def theirs(p: Position) -> list[list[float]]:
        board = ms_toollib_board(p)
        ms_toollib.mark_board(board)
        return ms_toollib.cal_probability_onboard(board, MINES)[0]

    ms_times = [timed(lambda p=p: theirs(p)) for p in positions]
    median, p90 = percentiles(ms_times)
    print(
        f"ms-toollib mark_board+cal_probability_onboard median {median * 1e3:7.2f} ms"
        f"   p90 {p90 * 1e3:7.2f} ms"
    )
    ours_median, ours_p90 = percentiles(full)
    print(
        f"ratio minesat / ms-toollib (with probabilities): median {ours_median / median:.2f}x, "
        f"p90 {ours_p90 / p90:.2f}x"
    )

    disagreements = 0
    for n, p in enumerate(positions):
        ours = Analyzer().analyze(p).probability
        their = theirs(p)
        worst = max(
            (abs(ours[r][c] - their[r][c]), (r, c))
            for r in range(p.rows)
            for c in range(p.cols)
            if p[r, c] == COVERED and ours[r][c] is not None
        )
        if worst[0] > 1e-9:
            disagreements += 1
            if disagreements <= 5:
                print(f"  position {n}: probabilities differ by {worst[0]:.3g} at {worst[1]}")
    print(
        f"positions where minesat and ms-toollib differ by more than 1e-9: "
        f"{disagreements} of {len(positions)}"
    )


if __name__ == "__main__":
    main()
