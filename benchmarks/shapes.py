"""The long shape sweep: every board through every face, each case in a process of its own.

    python benchmarks/shapes.py [--shapes N] [--seed S] [--faces analyze,perfect,...]
        [--memory MB] [--timeout SECONDS] [--jobs K] [--out FILE.jsonl]

Draws N shapes (``tests/shapes.py``'s :func:`draw_shape`: 1x1 to 1000x1000, thin ones, no mines
to the most that fit) and runs every face on each (``analyze``, one game of each strategy through
``simulate`` and ``solve``, ``perfect`` from A1 with a 2 s limit, the web API's ``best``, ``game``
and ``hint``), each case in a fresh process under a cap on its address space (``--memory``, MB).
It prints how the cases ended (answers, refusals by reason, failures: an exception that is not a
documented refusal, a process killed, a case past ``--timeout``), the slowest cases and those that
held the most memory (peak resident set). ``--out`` keeps one JSON line per case.

The games of ``simulate`` and ``solve`` are played on boards of at most ``--play-cells`` cells (a
1000x1000 game with 200 000 mines is hours of play, not a question of robustness): the sweep's
note says so. tests/test_shapes.py runs a handful of shapes through the same code in the suite.

Nothing is asserted: this prints figures; the exit status is 1 when any case failed.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from shapes import FACES, Shape, draw_shape  # noqa: E402


def worker(face: str, shape: Shape, seed: int) -> None:
    """In the case's own process: run it, print one JSON line per outcome (or the failure)."""
    from shapes import Undocumented, close_client, run_case

    try:
        for outcome in run_case(face, shape, seed):
            print(json.dumps(outcome.to_json()), flush=True)
    except (Undocumented, AssertionError, Exception) as err:  # every failure is reported, none hidden
        kind = "undocumented" if isinstance(err, Undocumented) else type(err).__name__
        print(json.dumps({"face": face, "shape": str(shape), "outcome": "failure", "reason": kind,
                          "detail": str(err)[:500]}), flush=True)
    finally:
        close_client()
        # The process's own peak resident set (KB on Linux): the parent reads it from the last line.
        print(json.dumps({"peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}), flush=True)


def run_one(face: str, shape: Shape, seed: int, memory: int, timeout: float) -> list[dict[str, object]]:
    """One case in a child process under the memory cap: its outcomes, wall seconds and peak RSS."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory << 20, resource.RLIM_INFINITY))

    args = [sys.executable, __file__, "--case", face, str(shape.rows), str(shape.cols), str(shape.mines),
            str(seed)]
    began = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=cap)
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        status = "timeout"
    else:
        status = "exit" if child.returncode == 0 else f"exit {child.returncode}"
    seconds = time.perf_counter() - began
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    peaks = [row.pop("peak_kb") for row in rows if "peak_kb" in row]
    rows = [row for row in rows if row]
    peak_mb = peaks[-1] / 1024 if peaks else float("nan")
    if status != "exit" or not rows:
        rows.append({"face": face, "shape": str(shape), "outcome": "failure", "reason": status,
                     "detail": err.strip()[-500:]})
    for row in rows:
        row.update(seed=seed, wall=round(seconds, 2), peak_mb=round(peak_mb, 1))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", type=int, default=60, help="how many shapes to draw (default 60)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the shapes and their positions (default 0)")
    parser.add_argument("--faces", default=",".join(FACES),
                        help="comma-separated faces to run (default: all)")
    parser.add_argument("--memory", type=int, default=2048,
                        help="address-space cap per case, MB (default 2048)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds after which a case is a failure (default 600)")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once (default 1)")
    parser.add_argument("--play-cells", type=int, default=10_000,
                        help="largest board, in cells, on which games are played (default 10 000)")
    parser.add_argument("--out", type=Path, help="append one JSON line per case to this file")
    parser.add_argument("--case", nargs=5, metavar=("FACE", "ROWS", "COLS", "MINES", "SEED"),
                        help="run one case in this process (what the sweep starts for each case)")
    args = parser.parse_args()
    if args.case:
        face, rows, cols, mines, seed = args.case
        worker(face, Shape(int(rows), int(cols), int(mines)), int(seed))
        return
    faces = args.faces.split(",")
    unknown = [f for f in faces if f not in FACES]
    if unknown:
        parser.error(f"unknown faces {unknown} (known: {', '.join(FACES)})")
    rng = random.Random(args.seed)
    cases = []
    for n in range(args.shapes):
        shape = draw_shape(rng)
        for face in faces:
            if face.startswith(("simulate", "solve", "web")) and shape.cells > args.play_cells:
                continue
            cases.append((face, shape, args.seed * 100_000 + n))
    results: list[dict[str, object]] = []
    began = time.perf_counter()
    out = args.out.open("a") if args.out else None
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_one, face, shape, seed, args.memory, args.timeout)
                   for face, shape, seed in cases]
        for done, future in enumerate(cf.as_completed(futures), 1):
            rows = future.result()
            results += rows
            if out:
                out.writelines(json.dumps(r) + "\n" for r in rows)
                out.flush()
            print(f"\r{done}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    report(results, args, len({str(s) for _, s, _ in cases}), time.perf_counter() - began)
    sys.exit(1 if any(r["outcome"] == "failure" for r in results) else 0)


def report(results: list[dict[str, object]], args: argparse.Namespace, shapes: int, seconds: float) -> None:
    print(f"{shapes} shapes, {len(results)} outcomes in {seconds:.0f} s (seed {args.seed}, cap "
          f"{args.memory} MB a case, games on boards of at most {args.play_cells} cells)")
    print("\nby face: answers / refusals / failures")
    faces = sorted({str(r["face"]) for r in results})
    for face in faces:
        mine = [r for r in results if r["face"] == face]
        count = Counter(str(r["outcome"]) for r in mine)
        print(f"  {face:18} {count['answer']:5} {count['refusal']:5} {count['failure']:5}")
    print("\nrefusals by reason:")
    for (face, reason), n in sorted(Counter((str(r["face"]), str(r["reason"])) for r in results
                                            if r["outcome"] == "refusal").items()):
        print(f"  {face:18} {reason:20} {n:5}")
    failures = [r for r in results if r["outcome"] == "failure"]
    if failures:
        print("\nfailures:")
        for r in failures:
            print(f"  {r['face']} {r['shape']} seed {r['seed']}: {r['reason']}: {str(r['detail'])[:300]}")
    print("\nslowest (wall seconds, with the process's start):")
    for r in sorted(results, key=lambda r: -float(r["wall"]))[:8]:  # type: ignore[arg-type]
        print(f"  {float(r['wall']):8.1f} s  {r['face']:18} {r['shape']}  {r['outcome']} {r['reason']}")
    print("\nlargest peak memory (resident set):")
    for r in sorted(results, key=lambda r: -float(r["peak_mb"]))[:8]:  # type: ignore[arg-type]
        print(f"  {float(r['peak_mb']):8.0f} MB  {r['face']:18} {r['shape']}  {r['outcome']} {r['reason']}")


if __name__ == "__main__":
    main()
