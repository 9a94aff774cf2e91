"""How fast the command line starts: ``minesat --version``, ``--help`` and ``analyze`` of a 2x2
position, against Python importing only the libraries they need.

    python benchmarks/startup.py [--rounds 15]

Each round runs every command once, in turn (so a machine that slows down slows them all alike),
as a fresh process, and times it from start to exit. Printed: each command's median and fastest
wall time and CPU time, and the ratios the issue asks about (42: ``--version`` within 2.5 times
``python -c "import typer"``, ``analyze`` of a 2x2 file within 3 times ``python -c "import typer,
pysat.solvers"``), as the median of the ratios round by round. Nothing is asserted: this prints
figures (tests/test_cli_startup.py checks what is imported, not how long it takes).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def minesat_command() -> list[str]:
    """The ``minesat`` script beside this Python (the one a user runs), else the module."""
    script = Path(sys.executable).parent / "minesat"
    if script.exists():
        return [str(script)]
    found = shutil.which("minesat")
    return [found] if found else [sys.executable, "-m", "minesat"]


#: The commands' environment: this one without ``PYTHONDONTWRITEBYTECODE``. With it set (as some
#: sandboxes set it) minesat's modules, not yet compiled, are compiled again by every run, where the
#: libraries' come compiled from their install: an installed minesat has its bytecode too.
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str]) -> tuple[float, float]:
    """The wall seconds of ``command`` and the CPU seconds (user and system) its process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENVIRONMENT)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs of each command (default 15)")
    args = parser.parse_args()
    minesat = minesat_command()
    with tempfile.TemporaryDirectory() as work:
        board = Path(work) / "small.txt"
        board.write_text("# mines: 1\n1?\n??\n")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "import typer": [sys.executable, "-c", "import typer"],
            "import typer, pysat.solvers": [sys.executable, "-c", "import typer, pysat.solvers"],
            "minesat --version": [*minesat, "--version"],
            "minesat --help": [*minesat, "--help"],
            "minesat analyze 2x2": [*minesat, "analyze", str(board)],
        }
        for command in commands.values():  # warm the file cache and the bytecode
            timed(command)
        wall: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                seconds, used = timed(command)
                wall[name].append(seconds)
                cpu[name].append(used)
    print(f"{args.rounds} rounds, {' '.join(minesat)}; seconds")
    if "PYTHONDONTWRITEBYTECODE" in os.environ:
        print("  (PYTHONDONTWRITEBYTECODE is set here: the commands run without it, their bytecode kept)")
    print(f"  {'command':<30} {'wall median':>12} {'fastest':>8} {'cpu median':>11}")
    for name in commands:
        print(f"  {name:<30} {statistics.median(wall[name]):12.3f} {min(wall[name]):8.3f} "
              f"{statistics.median(cpu[name]):11.3f}")

    def ratio(a: str, b: str) -> str:
        each = [x / y for x, y in zip(wall[a], wall[b], strict=True)]
        used = [x / y for x, y in zip(cpu[a], cpu[b], strict=True) if y]
        fastest = min(wall[a]) / min(wall[b])
        return (f"wall {statistics.median(each):.2f} (fastest against fastest {fastest:.2f}), "
                f"cpu {statistics.median(used):.2f}")

    print("ratios, the median of each round's:")
    print(f"  minesat --version   / import typer:                {ratio('minesat --version', 'import typer')}"
          "  (the issue: at most 2.5)")
    print(f"  minesat --help      / import typer:                {ratio('minesat --help', 'import typer')}")
    print(f"  minesat analyze 2x2 / import typer, pysat.solvers: "
          f"{ratio('minesat analyze 2x2', 'import typer, pysat.solvers')}  (the issue: at most 3)")


if __name__ == "__main__":
    main()
