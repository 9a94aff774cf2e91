"""The cross-board differential of issue 18 at scale: many random positions against the brute force.

The normal suite (tests/test_cross_board.py) checks 2000 positions per road;
this script checks as many as asked, in seeded chunks, through:

- one shared ``Analyzer`` (the small-board road) and one with ``small_boards=False``
  (the general road), each over every position in a shuffled order;
- ``minesat analyze --json``, one call per chunk of files.

Each answer is compared cell by cell with tests/bruteforce.py (sets and exact
probabilities). It prints the disagreements (none expected) and the time taken.

    python3 benchmarks/cross_board.py --positions 100000
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

from bruteforce import solve  # noqa: E402
from crossboard import describe, disagreements, is_layout_file, random_positions  # noqa: E402
from minesat.analysis import Analyzer, InconsistentPositionError  # noqa: E402
from minesat.board import Position  # noqa: E402
from minesat.formats import format_position  # noqa: E402


def library_answer(analyzer: Analyzer, position: Position) -> dict:
    try:
        return analyzer.analyze(position).to_json()
    except InconsistentPositionError as err:
        return {"error": str(err)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000, help="positions in all (default 100000)")
    parser.add_argument("--chunk", type=int, default=5000, help="positions per chunk and per CLI call")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the first chunk")
    args = parser.parse_args()

    roads = {"small road": Analyzer(), "general road": Analyzer(small_boards=False)}
    failures: list[str] = []
    checked = 0
    began = time.perf_counter()
    for chunk, start in enumerate(range(0, args.positions, args.chunk)):
        positions = random_positions(args.seed + chunk, min(args.chunk, args.positions - start))
        expected = [solve(p) for p in positions]
        for name, analyzer in roads.items():
            order = list(range(len(positions)))
            random.Random(chunk).shuffle(order)
            for i in order:
                got = library_answer(analyzer, positions[i])
                failures += [f"{name}: {describe(positions[i])}: {p}"
                             for p in disagreements(positions[i], got, expected[i])]
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for i, position in enumerate(positions):
                path = Path(tmp) / f"p{i:05d}.txt"
                path.write_text(format_position(position, "text"))
                files.append(path)
            command = [sys.executable, "-c", "from minesat.cli import main; main()", "analyze", "--json"]
            env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
            out = subprocess.run(
                [*command, *map(str, files)], capture_output=True, text=True, env=env
            ).stdout.splitlines()
            for position, want, line in zip(positions, expected, out, strict=True):
                got = json.loads(line)
                if is_layout_file(position) or (
                    "error" in got and not want.consistent
                ):
                    continue  # refused as a layout, or refused with no layout to find: both right
                failures += [f"cli: {describe(position)}: {p}" for p in disagreements(position, got, want)]
        checked += len(positions)
        print(f"{checked} positions, {len(failures)} disagreements, {time.perf_counter() - began:.0f} s",
              file=sys.stderr, flush=True)
    print(f"positions: {checked} (each through 2 shared Analyzers and the CLI)")
    print(f"disagreements: {len(failures)}")
    for line in failures[:10]:
        print("  " + line)
    print(f"seconds: {time.perf_counter() - began:.1f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
