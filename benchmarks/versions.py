"""Two versions of minesat's code play the same boards, interleaved: the same games, and the time of each.

    python benchmarks/versions.py --old OLD_SRC [--new NEW_SRC] [--preset expert] [--games 300]
        [--first 0] [--seed 0] [--first-click opening --start 3,3] [--strategy best]
        [--out FILE.jsonl] [--old-results FILE.jsonl ...] [--summary FILE.jsonl ...]

``OLD_SRC`` and ``NEW_SRC`` are the ``src`` folders of two checkouts (a checkout's root
works too); ``--new`` defaults to this checkout's. Each version plays in its own worker
process (the same Python, the version's ``src`` first on its path), one game at a time,
game *i* for one and then for the other, the order swapped every game, so that each has
one core and a change in the machine's load meets both alike. The boards are the layouts
``minesat simulate`` plays with the same options, and each worker plays them as the
simulation does (a fresh strategy per game, one process for the whole run, so per-process
memories such as the endgame's stay warm alike).

It prints, per version, the wins, the mean CPU milliseconds per game (the worker's process
time during the game) and their ratio, and whether every game was the same: the same
outcome, the same moves (a digest of the move list) and the same guesses with the same
probabilities (``repr`` of the float). The games that differ are listed. A speed-up that
is meant to keep every move shows 0 games different.

``--out FILE`` appends one JSON line per game (both sides); a run that finds FILE plays only
the games it lacks, so a long run can be split (``--first``/``--games``) or resumed.
``--only old`` plays one side alone. ``--old-results FILE ...`` takes the old side of the
games they hold from earlier ``--out`` files and plays only the new side (a check of the
same games; such games are left out of the time ratio, which compares only sides timed in
one run). ``--summary FILE ...``
prints the summary of finished files without playing. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve()
SIDES = ("old", "new")


# --- the worker (runs under one version's code) -------------------------------------


def worker() -> None:
    """Play the games asked on stdin (one JSON list a line), one JSON result a line on stdout."""
    from minesat.generate import game_seed, generate_layout
    from minesat.player import get_strategy, play_game

    for line in sys.stdin:
        rows, cols, mines, rule, start, seed, index, strategy = json.loads(line)
        start = tuple(start)
        game = game_seed(rows, cols, mines, rule=rule, start=start, seed=seed, index=index)
        layout = generate_layout(rows, cols, mines, start=start, rule=rule, seed=game)
        began = time.process_time()
        record = play_game(layout, start, strategy=get_strategy(strategy), rule=rule)
        seconds = time.process_time() - began
        guesses = " ".join(f"{g.move}:{g.probability!r}" for g in record.guesses)
        print(json.dumps({
            "game": index,
            "won": record.won,
            "moves": len(record.moves),
            "guesses": len(record.guesses),
            "digest": digest(" ".join(map(str, record.moves)) + "|" + guesses),
            "seconds": seconds,
        }), flush=True)


def digest(text: str) -> str:
    """A short fingerprint of a game's moves and guesses.

    >>> digest("D4 A1|A1:0.25")
    '7c64b7587138e4bb'
    """
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def source_folder(path: Path) -> Path:
    """The folder to put first on a worker's path: ``path``, or ``path/src`` in a checkout's root."""
    if (path / "src" / "minesat").is_dir():
        return path / "src"
    if not (path / "minesat").is_dir():
        raise SystemExit(f"versions.py: no minesat package in {path} or {path / 'src'}")
    return path


class Worker:
    """One version's worker process."""

    def __init__(self, src: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(src))
        self.process = subprocess.Popen(
            [sys.executable, str(HERE), "--worker"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True,
        )

    def play(self, job: list[Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("versions.py: a worker stopped (its error is above)")
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


# --- the run ------------------------------------------------------------------------


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a[k] == b[k] for k in ("won", "moves", "guesses", "digest"))


def summarise(games: dict[int, dict[str, Any]]) -> None:
    """Print wins, time per game and the games that differ."""
    indices = sorted(i for i in games if all(side in games[i] for side in SIDES))
    n = len(indices)
    if not n:
        print("no games")
        return
    differ = [i for i in indices if not same(games[i]["old"], games[i]["new"])]
    timed = [i for i in indices if games[i].get("timed", True)]
    print(f"{n} games ({len(timed)} timed in one run)")
    print(f"{'version':8} {'wins':>7} {'ms/game':>9}")
    ms: dict[str, float] = {}
    for side in SIDES:
        wins = sum(bool(games[i][side]["won"]) for i in indices)
        seconds = sum(games[i][side]["seconds"] for i in timed)
        ms[side] = 1000 * seconds / len(timed) if timed else float("nan")
        print(f"{side:8} {wins:>7} {ms[side]:>9.2f}")
    if timed:
        print(f"new / old time per game: {ms['new'] / ms['old']:.3f} ({ms['old'] / ms['new']:.2f}x faster)")
    if differ:
        shown = ", ".join(map(str, differ[:20])) + (" ..." if len(differ) > 20 else "")
        print(f"games different: {len(differ)} of {n}: {shown}")
    else:
        print(f"games different: 0 of {n} (same outcomes, moves and guess probabilities)")


def read_games(files: list[Path]) -> dict[int, dict[str, Any]]:
    games: dict[int, dict[str, Any]] = {}
    for path in files:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                # One side per line from an ``--only`` run, both from a plain one: the sides join.
                games.setdefault(int(record["game"]), {}).update(record)
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--old", type=Path)
    parser.add_argument("--new", type=Path, default=HERE.parent.parent / "src")
    parser.add_argument("--preset", default="expert", choices=["beginner", "intermediate", "expert"])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first game index")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-click", default="opening", choices=["opening", "safe", "any"])
    parser.add_argument("--start", default="3,3")
    parser.add_argument("--strategy", default="best")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--old-results", type=Path, nargs="*", default=[])
    parser.add_argument("--summary", type=Path, nargs="*")
    parser.add_argument("--only", choices=SIDES, help="play one side only (its results for --old-results)")
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.summary is not None:
        summarise(read_games(args.summary))
        return
    if args.old is None and args.only != "new":
        parser.error("--old is required (or --summary)")
    sizes = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
    rows, cols, mines = sizes[args.preset]
    try:
        start = [int(x) for x in args.start.split(",")]
    except ValueError:
        parser.error(f"bad --start {args.start!r}")
    if len(start) != 2:
        parser.error(f"bad --start {args.start!r}")
    indices = range(args.first, args.first + args.games)
    done = read_games([args.out]) if args.out is not None else {}
    earlier = read_games(args.old_results)
    todo = [i for i in indices if i not in done]
    print(f"{args.preset} {rows}x{cols}/{mines}, {args.first_click} at {args.start}, seed {args.seed}, "
          f"strategy {args.strategy}, games {args.first}..{args.first + args.games - 1}: {len(todo)} to play",
          flush=True)
    sides = (args.only,) if args.only else SIDES
    workers = {side: Worker(source_folder(getattr(args, side))) for side in sides}
    out: IO[str] | None = args.out.open("a") if args.out is not None else None
    try:
        for n, i in enumerate(todo):
            job = [rows, cols, mines, args.first_click, start, args.seed, i, args.strategy]
            record: dict[str, Any] = {"game": i}
            reused = i in earlier
            if reused:
                record["old"] = earlier[i]["old"]
                record["timed"] = False
            for side in (sides if n % 2 == 0 else sides[::-1]):
                if side not in record:
                    record[side] = workers[side].play(job)
            done[i] = record
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
            if (n + 1) % 1000 == 0:
                print(f"  {n + 1}/{len(todo)}", file=sys.stderr, flush=True)
    finally:
        for w in workers.values():
            w.close()
        if out is not None:
            out.close()
    summarise({i: done[i] for i in indices if i in done and all(side in done[i] for side in SIDES)})


if __name__ == "__main__":
    main()
