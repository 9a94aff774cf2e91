"""Seconds per no-guess board: minesat's generator against ms-toollib's ``laymine_solvable``.

    python benchmarks/generate.py [--boards 30] [--seed 0] [--cases expert,16x30x140]

For each case, minesat draws BOARDS no-guess boards (opening at 3,3) and says
how (rejection or repair) and how many layouts it tried; every board is then
played by the ``safest`` player, which must win it without a guess (the count
is printed). When ``ms_toollib`` is importable (it is not a dependency),
``laymine_solvable`` is timed on the same case with its default budget, and its
boards are put through minesat's proof-only check. Nothing is asserted: this
prints figures.
"""

from __future__ import annotations

import argparse
import platform
import time

from minesat.analysis import Analyzer
from minesat.board import Layout
from minesat.generate import BoardSpec
from minesat.noguess import generate_boards, solve_by_proof
from minesat.player import SafestCell, play_game

START = (3, 3)


def minesat_case(rows: int, cols: int, mines: int, boards: int, seed: int) -> None:
    began = time.perf_counter()
    made = list(generate_boards(BoardSpec(rows, cols, mines, start=START), boards, seed=seed, no_guess=True))
    seconds = time.perf_counter() - began
    by = {m: sum(1 for b in made if b.method and b.method.value == m) for m in ("rejection", "repair")}
    tries = sum(b.tries or 0 for b in made)
    clean = sum(
        1
        for b in made
        if (r := play_game(b.layout, START, strategy=SafestCell(), rule="opening")).won and not r.guesses
    )
    print(
        f"  minesat     {seconds / boards:8.3f} s/board  {by['rejection']} rejection, {by['repair']} repair, "
        f"{tries / boards:.1f} tries/board; safest player won {clean}/{boards} without a guess"
    )


def ms_toollib_case(rows: int, cols: int, mines: int, boards: int, limit: float) -> None:
    try:
        import ms_toollib
    except ImportError:
        print("  ms-toollib  not installed (pip install ms-toollib to compare)")
        return
    analyzer = Analyzer()
    found = checked = 0
    began = time.perf_counter()
    layouts = []
    asked = 0
    while asked < boards and (asked == 0 or time.perf_counter() - began < limit):
        board, ok = ms_toollib.laymine_solvable(rows, cols, mines, START[0], START[1])
        asked += 1
        found += bool(ok)
        if ok:
            layouts.append(board)
    seconds = time.perf_counter() - began
    for board in layouts:
        mined = frozenset((r, c) for r in range(rows) for c in range(cols) if board[r][c] < 0)
        layout = Layout(rows, cols, mined)
        checked += solve_by_proof(layout, START, rule="opening", analyzer=analyzer).solved
    print(
        f"  ms-toollib  {seconds / asked:8.3f} s/board  laymine_solvable succeeded {found}/{asked}; "
        f"minesat's check solves {checked}/{found} of them"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", default="16x30x99,16x30x140", help="comma-separated RxCxM")
    parser.add_argument(
        "--limit", type=float, default=60.0, help="seconds of ms-toollib per case (one board at least)"
    )
    args = parser.parse_args()
    print(f"no-guess generation, opening at {START[0]},{START[1]}; {platform.python_implementation()} "
          f"{platform.python_version()} on {platform.machine()}")
    for case in args.cases.split(","):
        rows, cols, mines = (int(v) for v in case.split("x"))
        print(f"{rows}x{cols} with {mines} mines, {args.boards} boards")
        minesat_case(rows, cols, mines, args.boards, args.seed)
        ms_toollib_case(rows, cols, mines, args.boards, args.limit)


if __name__ == "__main__":
    main()
