"""``minesat serve`` under load: concurrent analyses, a perfect-play search cut at its limit, hostile boards.

    python benchmarks/serve.py [--requests 50] [--concurrency 50] [--hostile NAME ...]

Starts ``minesat serve --port 0`` on 127.0.0.1 (a fresh process, as a user
would) and measures, over HTTP:

1. **load**: ``--requests`` analyses of the puzzles' positions (beginner to
   expert), ``--concurrency`` of them in flight at once: wall time, requests
   per second and latency percentiles;
2. **cut-off**: a perfect-play request that would take minutes (6x6, 6 mines,
   one number shown), and meanwhile analyses one after another: when the
   search is answered (and how: 422 past the time limit), and the analyses'
   latencies while it ran;
3. **hostile**: positions of benchmarks/hostile.py (those under the 1 MB
   body cap), each answered within the time limit or refused.

It prints figures; it asserts nothing. Bounded: about a minute on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hostile import positions as hostile_positions

from minesat.formats import format_position

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = [
    "beginner-mid.txt", "intermediate-mid.txt", "expert-early.txt", "expert-mid.txt", "expert-late.txt"
]
LONG_PERFECT = "1?????\n" + "??????\n" * 5
HOSTILE = ["solved-100", "checkerboard-half", "snake", "islands", "mesh-300"]


def start() -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--port", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"(http://\S+/)", line)
    if match is None:
        process.kill()
        sys.exit(f"the server did not start: {line.strip()}")
    return process, match.group(1)


Answer = tuple[int, float, dict[str, object]]


def post(url: str, body: dict[str, object], timeout: float = 60.0) -> Answer:
    """Status, seconds and answer of one POST."""
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(url, data=data, method="POST", headers=headers)
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as err:
        status, payload = err.code, err.read()
    return status, time.perf_counter() - began, json.loads(payload)


def percentiles(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {pick(0.5):.0f} ms, p90 {pick(0.9):.0f} ms, max {ordered[-1] * 1000:.0f} ms"


def load(base: str, requests: int, concurrency: int) -> None:
    boards = [(ROOT / "puzzles" / name).read_text() for name in PUZZLES]
    jobs = [{"board": boards[i % len(boards)]} for i in range(requests)]
    began = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        answers = list(pool.map(lambda body: post(base + "api/analyze", body), jobs))
    wall = time.perf_counter() - began
    statuses = statistics.multimode([a[0] for a in answers])
    print(f"load: {requests} analyses, {concurrency} at once: {wall:.2f} s, {requests / wall:.1f} per s; "
          f"{percentiles([a[1] for a in answers])}; statuses {sorted(set(a[0] for a in answers))} "
          f"(most {statuses})")


def cut_off(base: str) -> None:
    answer: dict[str, Answer] = {}

    def search() -> None:
        answer["perfect"] = post(base + "api/perfect", {"board": LONG_PERFECT, "mines": 6})

    thread = threading.Thread(target=search)
    began = time.perf_counter()
    thread.start()
    time.sleep(0.5)
    quick = []
    board = (ROOT / "puzzles" / "expert-mid.txt").read_text()
    while thread.is_alive() and time.perf_counter() - began < 40:
        quick.append(post(base + "api/analyze", {"board": board}))
    thread.join()
    status, seconds, body = answer["perfect"]
    print(f"cut-off: perfect play on 6x6/6 answered {status} after {seconds:.1f} s: "
          f"{body.get('error', body)}")
    print(f"         meanwhile {len(quick)} expert analyses one after another, statuses "
          f"{sorted(set(q[0] for q in quick))}: {percentiles([q[1] for q in quick])}")


def hostile(base: str, names: list[str]) -> None:
    made = hostile_positions(big=False)
    for name in names:
        text = format_position(made[name](), "text")
        assert isinstance(text, str)
        status, seconds, body = post(base + "api/analyze", {"board": text})
        what = f"exact {body.get('exact')}" if status == 200 else body.get("error")
        print(f"hostile {name:<18} {len(text) / 1e3:7.0f} kB: {status} in {seconds:5.1f} s, {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--hostile", nargs="*", default=HOSTILE, help="hostile.py positions (none: skip)")
    args = parser.parse_args()
    process, base = start()
    try:
        post(base + "api/analyze", {"board": "1?\n"})  # the first worker starts
        load(base, args.requests, args.concurrency)
        cut_off(base)
        hostile(base, args.hostile)
    finally:
        process.terminate()
        process.wait(15)


if __name__ == "__main__":
    main()
