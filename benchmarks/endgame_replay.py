"""The endgame search alone: record the searches `best` makes in N games, replay them, time them.

    python benchmarks/endgame_replay.py record OUT.pkl [--games 300] [--seed 43]
        [--preset expert] [--first-click opening] [--start 3,3]
    python benchmarks/endgame_replay.py replay CALLS.pkl [--reference REF.pkl] [--repeat 1]
    python benchmarks/endgame_replay.py ab CALLS.pkl --old /work/main/src --new src [--rounds 3]

``record`` plays the games (as ``minesat simulate`` lays them out, one fresh strategy a game) and
keeps every call of :func:`~minesat.exact.endgame.endgame_move` with its inputs (the position, its
analysis, the limit and budget) and its answer. ``replay`` makes the calls again, game by game with
one position memo a game (as the player shares it), and prints the CPU time of all the searches;
it checks each answer against the recorded one, and with ``--reference`` each call's answer,
states searched and memo size after it against a reference file (written when it does not exist
yet). ``ab`` runs ``replay`` in child processes, the old and the new source in turn, ``--rounds``
times, and prints the ratio of the times of their second passes (the first pays for imports,
networkx's among them, once a process): the search's cost alone, with the same answers, states
and memo sizes checked. The load average is printed beside each time; only ratios within one run
count. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def record(out: Path, games: int, seed: int, preset: str, first_click: str, start: str) -> None:
    """Play ``games`` games with ``best`` and pickle every endgame call made in them."""
    sys.path.insert(0, str(HERE))
    import speed

    import minesat.guess.best as best
    from minesat.board import PRESETS
    from minesat.player import get_strategy, play_game

    speed.ROWS, speed.COLS, speed.MINES = PRESETS[preset]
    speed.RULE = first_click
    row, col = start.split(",")
    speed.START = (int(row), int(col))
    layouts = speed.boards(seed, games)
    searched = best.endgame_move
    calls: list[tuple[Any, ...]] = []
    game = 0

    def recorded(position: Any, analysis: Any, **options: Any) -> Any:
        answer = searched(position, analysis, **options)
        calls.append((game, position, analysis, options["limit"], options["budget"], answer))
        return answer

    best.endgame_move = recorded  # type: ignore[assignment]
    speed.forget_endgames()
    for game, (_, layout) in enumerate(layouts):  # noqa: B007 (read by ``recorded``)
        play_game(layout, speed.START, strategy=get_strategy("best"), rule=speed.RULE)
    out.write_bytes(pickle.dumps(calls))
    print(f"{len(calls)} endgame calls in {games} games")


def replay(calls_file: Path, reference: Path | None, repeat: int) -> None:
    """Replay the recorded calls, print their CPU time and whether they give the same results."""
    from minesat.exact import endgame, position

    calls = pickle.loads(calls_file.read_bytes())
    made: list[Any] = []
    make = position.PositionSearch.__init__

    def counted(self: Any, *args: Any, **options: Any) -> None:
        made.append(self)
        make(self, *args, **options)

    position.PositionSearch.__init__ = counted  # type: ignore[method-assign]
    times = []
    out: list[tuple[Any, ...]] = []
    for _ in range(repeat):
        endgame._answers.clear()
        memos: dict[int, dict[bytes, int]] = {}
        out = []
        began = time.process_time()
        for game, seen, analysis, limit, budget, answer in calls:
            memo = memos.setdefault(game, {})
            made.clear()
            got = endgame.endgame_move(seen, analysis, limit=limit, budget=budget, memo=memo)
            out.append((got, tuple(s.states for s in made), len(memo), got == answer))
        times.append(time.process_time() - began)
    wrong = sum(not o[3] for o in out)
    load = os.getloadavg()[0]
    print(f"{len(calls)} calls, {wrong} answers unlike the recorded; CPU s",
          " ".join(f"{t:.3f}" for t in times), f"(load {load:.1f})")
    if reference is None:
        return
    if not reference.exists():
        reference.write_bytes(pickle.dumps([o[:3] for o in out]))
        print("reference written")
        return
    old = pickle.loads(reference.read_bytes())
    differ = [i for i, (a, b) in enumerate(zip(old, out, strict=True)) if a != b[:3]]
    print(f"against the reference: {len(differ)} calls differ (answer, states or memo size)", differ[:10])


def ab(calls_file: Path, old: str, new: str, rounds: int) -> None:
    """Replay in child processes, the old source and the new in turn; print the ratio of the times."""
    reference = calls_file.with_suffix(".ref.pkl")
    if reference.exists():
        reference.unlink()
    sums = {"old": 0.0, "new": 0.0}
    for k in range(rounds):
        for side, src in (("old", old), ("new", new)) if k % 2 == 0 else (("new", new), ("old", old)):
            env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
            said = subprocess.run(
                [sys.executable, __file__, "replay", str(calls_file), "--reference", str(reference),
                 "--repeat", "2"],
                env=env, capture_output=True, text=True, check=True,
            ).stdout
            spent = float(said.split("CPU s")[1].split()[1])  # the second pass: imports and tables warm
            sums[side] += spent
            print(f"round {k + 1} {side}: " + " | ".join(said.strip().splitlines()))
    print(f"new / old: {sums['new'] / sums['old']:.3f} ({sums['new']:.3f} against {sums['old']:.3f} s)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--games", type=int, default=300)
    rec.add_argument("--seed", type=int, default=43)
    rec.add_argument("--preset", default="expert")
    rec.add_argument("--first-click", default="opening", choices=["opening", "safe"])
    rec.add_argument("--start", default="3,3")
    rep = sub.add_parser("replay")
    rep.add_argument("calls", type=Path)
    rep.add_argument("--reference", type=Path)
    rep.add_argument("--repeat", type=int, default=1)
    both = sub.add_parser("ab")
    both.add_argument("calls", type=Path)
    both.add_argument("--old", required=True)
    both.add_argument("--new", required=True)
    both.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.command == "record":
        record(args.out, args.games, args.seed, args.preset, args.first_click, args.start)
    elif args.command == "replay":
        replay(args.calls, args.reference, args.repeat)
    else:
        ab(args.calls, args.old, args.new, args.rounds)


if __name__ == "__main__":
    main()
