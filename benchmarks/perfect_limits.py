"""``minesat perfect`` at the edges: every case ends with an answer or a one-line refusal, in time and memory.

    python benchmarks/perfect_limits.py [--src DIR] [--cap MB] [--only NAME ...] [--no-serve] [--long]

Runs each case of :data:`CASES` as a user would (a fresh ``minesat perfect``
process) and prints, for each, the wall time against what the time limit
allows (``L x 1.2 + 3`` s), the child's peak resident memory (from ``wait4``),
the exit status and the last line it printed. ``--src`` runs another source
tree (an older checkout's ``src``). ``--cap`` sets the children's address-space
limit (``RLIMIT_AS``, default 3 000 MB; MB are 10^6 bytes), so that a runaway
ends in a ``MemoryError`` rather than in the system's killer; ``--cap 1300``
checks that the default budget (1 000 MB) stops the search before a cap not
far above it does. ``--long`` adds the cases that run into the memory budget,
and the late expert position at its defaults. The last row asks a server
(``minesat serve``) for ``POST /api/perfect`` on a covered 40x40 board with one
mine. It prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent



def _board(rows: int, cols: int, mines: int, limit: float, *more: str) -> list[str]:
    """The arguments of a board from A1 within ``limit`` seconds."""
    board = ["--rows", str(rows), "--cols", str(cols), "--mines", str(mines)]
    return [*board, *more, "--start", "A1", "--time-limit", f"{limit:g}"]


#: (name, arguments after ``minesat perfect``, the time limit the case gives).
CASES: list[tuple[str, list[str], float]] = [
    ("40x40/1", _board(40, 40, 1, 20), 20),
    ("100x100/1", _board(100, 100, 1, 20), 20),
    ("1x1000/1", _board(1, 1000, 1, 20), 20),
    ("3x400/1", _board(3, 400, 1, 20), 20),
    ("1x1000/2", _board(1, 1000, 2, 20), 20),
    ("10x100/2", _board(10, 100, 2, 20), 20),
    ("10x60/2", _board(10, 60, 2, 10), 10),
    ("4x8/7 any", _board(4, 8, 7, 10, "--first-click", "any"), 10),
    ("expert-late", [str(ROOT / "puzzles" / "expert-late.txt"), "--time-limit", "5"], 5),
    ("1000x1000/0", _board(1000, 1000, 0, 20), 20),
    ("1000x1000/0 every", ["--rows", "1000", "--cols", "1000", "--mines", "0", "--time-limit", "20"], 20),
    ("1000x1000/999999", ["--rows", "1000", "--cols", "1000", "--mines", "999999", "--time-limit", "20"], 20),
    ("30x30/899", ["--rows", "30", "--cols", "30", "--mines", "899", "--time-limit", "20"], 20),
]

#: With ``--long``: the memory budget reached before the time limit (default 1 000 MB), and the late
#: expert position at its default limits (180 s).
LONG_CASES: list[tuple[str, list[str], float]] = [
    ("1x1000/2 L=150", _board(1, 1000, 2, 150), 150),
    ("10x100/2 L=150", _board(10, 100, 2, 150), 150),
    ("100x100/1 L=150", _board(100, 100, 1, 150), 150),
    ("expert-late default", [str(ROOT / "puzzles" / "expert-late.txt")], 180),
]


def _capped(cap_mb: int) -> None:
    """In the child before it runs: the address-space cap."""
    limit = cap_mb * 10**6
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_case(
    args: list[str], src: Path, cap_mb: int, hard_seconds: float
) -> tuple[float, float, int, str]:
    """One ``minesat perfect`` run: wall seconds, peak RSS (MB), exit status (negative: killed), last line."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-c", "from minesat.cli import main; main()", "perfect", *args]
    began = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                 preexec_fn=lambda: _capped(cap_mb))
        timer = threading.Timer(hard_seconds, child.kill)
        timer.start()
        # wait4 reaps the child and gives its own resource usage: its peak resident memory.
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
        seconds = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = [line for line in out.read().decode(errors="replace").splitlines() if line.strip()]
    return seconds, usage.ru_maxrss * 1024 / 10**6, child.returncode, lines[-1] if lines else ""


def serve_case(src: Path) -> tuple[float, float, int, str]:
    """``POST /api/perfect`` on a covered 40x40 board with one mine: seconds, peak RSS of the server's
    processes (sampled), HTTP status and the answer's first 120 characters."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    server = subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--port", "0",
         "--db", ":memory:"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
    )
    try:
        assert server.stderr is not None
        match = re.search(r"(http://\S+/)", server.stderr.readline())
        if match is None:
            return 0.0, float("nan"), -1, "the server did not start"
        body = json.dumps({"board": "# mines: 1\n" + ("?" * 40 + "\n") * 40}).encode()
        request = urllib.request.Request(match.group(1) + "api/perfect", body,
                                         {"Content-Type": "application/json"})
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        return time.perf_counter() - began, float("nan"), status, text[:120]
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the source tree to run")
    parser.add_argument("--cap", type=int, default=3000, help="the children's address-space cap, MB")
    parser.add_argument("--only", nargs="*", help="run only the cases of these names")
    parser.add_argument("--no-serve", action="store_true", help="leave out the server's case")
    parser.add_argument("--long", action="store_true", help="also the long cases (about ten minutes)")
    args = parser.parse_args()
    print(f"{'case':>19} {'limit':>5} {'allowed':>7} {'wall s':>7} {'peak MB':>8} {'exit':>4}  last line")
    for name, case_args, limit in CASES + (LONG_CASES if args.long else []):
        if args.only and name not in args.only:
            continue
        allowed = limit * 1.2 + 3
        seconds, peak, status, last = run_case(case_args, args.src, args.cap, max(4 * allowed, 60))
        print(f"{name:>19} {limit:5.0f} {allowed:7.0f} {seconds:7.1f} {peak:8.0f} {status:>4}  {last[:160]}",
              flush=True)
    if not args.no_serve and (not args.only or "serve" in args.only):
        seconds, _, status, text = serve_case(args.src)
        print(f"{'serve 40x40/1':>19} {'':>5} {'':>7} {seconds:7.1f} {'':>8} {status:>4}  {text}", flush=True)


if __name__ == "__main__":
    main()
