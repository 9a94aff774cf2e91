"""The player's speed on expert boards, side by side with JSMinesweeper's and ms-toollib's.

    python benchmarks/speed.py [--games 2000] [--seed 43] [--rounds 2] [--jsms PATH]
        [--ms-toollib] [--phases 300] [--node node]

Every side plays the same boards (expert 16x30/99, opening at 3,3: the layouts ``minesat simulate``
plays with ``--seed``; seed 43 is held out: no setting of the player was tuned on it), each in a
loop of its own, one game after another on one core, as its users run it:

* minesat's ``best`` and ``safest``, in this process (a fresh strategy each game, as
  ``minesat simulate`` plays): the process's CPU time during each game;
* JSMinesweeper's solver in its plain Node loop (``jsminesweeper_plain.mjs``: the page's scripts in
  one realm, ``bulkRun``'s loop, the real clock, as its page runs): Node's CPU time during each
  game (all its threads), its loading outside the loop, with ``--jsms``;
* with ``--ms-toollib``, minesat's game loop and ``safest`` with ms-toollib's probabilities
  (``benchmarks/simulate.py``'s player, in a child process: ms-toollib aborts the process on some
  positions; its first game played once untimed, as minesat's side is warmed), the target of
  ``safest`` (5 times its games per second).

The sides run in turn, ``--rounds`` times, the order reversed each round, so that a change in the
machine's load meets every side; each round plays every board. Printed per side and round: wins,
CPU ms a game (mean), the per-guess cost and the base cost of a game (a least-squares line of a
game's time on its guesses), the tail (p90 and p99 of a game's time), and the ratios of the means
of all rounds. ``--phases N`` plays the first N boards once more with ``best``, timing where the
time goes (the look-ahead, the long-term scan, the endgame search, the position read and proved,
the other guess work, the game's own bookkeeping); the phases' timers cost a few percent, so the
shares come from that pass alone. The load average is printed beside each round: on a shared
machine only ratios within a run count. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minesat.board import PRESETS, Layout
from minesat.generate import game_seed, generate_layout
from minesat.player import get_strategy, play_game

HERE = Path(__file__).resolve().parent
#: The boards: expert, opening at 3,3 unless ``--preset``, ``--first-click`` and ``--start`` say else.
ROWS, COLS, MINES, START, RULE = 16, 30, 99, (3, 3), "opening"

#: One side's games: (won, guesses, CPU seconds) for each board.
Games = list[tuple[bool, int, float]]


def boards(seed: int, games: int) -> list[tuple[int, Layout]]:
    """The layouts ``minesat simulate`` plays: games 0..games-1 of ``seed``, with their seeds."""
    out = []
    for index in range(games):
        s = game_seed(ROWS, COLS, MINES, rule=RULE, start=START, seed=seed, index=index)
        out.append((s, generate_layout(ROWS, COLS, MINES, start=START, rule=RULE, seed=s)))
    return out


def play_minesat(layouts: list[tuple[int, Layout]], strategy: str) -> Games:
    """Every board by minesat's ``strategy``, one after another in this process."""
    forget_endgames()
    out = []
    for _, layout in layouts:
        began = time.process_time()
        record = play_game(layout, START, strategy=get_strategy(strategy), rule=RULE)
        out.append((record.won, len(record.guesses), time.process_time() - began))
    return out


def forget_endgames() -> None:
    """Drop the endgame answers the process remembers (a later round plays the same boards:
    it must search them again, as the first did)."""
    from minesat.exact import endgame

    endgame._answers.clear()


def play_jsminesweeper(layouts: list[tuple[int, Layout]], jsms: Path, node: str) -> Games:
    """Every board by JSMinesweeper's plain loop, real clock (one Node process, its own loop)."""
    with tempfile.TemporaryDirectory(prefix="minesat-speed-") as tmp:
        path = Path(tmp) / "boards.jsonl"
        path.write_text("".join(
            json.dumps({"rows": ROWS, "cols": COLS, "mines": sorted(layout.mines), "start": START, "seed": s})
            + "\n" for s, layout in layouts), encoding="utf-8")
        done = subprocess.run([node, str(HERE / "jsminesweeper_plain.mjs"), "--jsms", str(jsms),
                               "--clock", "real", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"speed.py: the plain JSMinesweeper loop stopped: {done.stderr.strip()[-300:]}")
    found = json.loads(done.stdout)
    # Its guesses are not counted by the plain loop: the per-guess line is minesat's alone.
    return [(won, 0, cpu) for won, cpu in zip(found["won"], found["cpu_each"], strict=True)]


def play_ms_toollib(layouts: list[tuple[int, Layout]]) -> Games:
    """Every board by ``safest`` on ms-toollib's probabilities, in a child process."""
    # The child's first game is played once untimed, as minesat's side is warmed (ms-toollib is
    # imported at its first call): neither side's figures hold an import.
    code = (
        "import json, sys, time\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "from simulate import ms_toollib_game\n"
        "from minesat.board import Layout\n"
        "warm = True\n"
        "for line in sys.stdin:\n"
        "    mines = [tuple(m) for m in json.loads(line)]\n"
        f"    layout = Layout({ROWS}, {COLS}, frozenset(mines))\n"
        "    if warm:\n"
        f"        ms_toollib_game(layout, {START!r}, {RULE!r}, 'safest')\n"
        "        warm = False\n"
        "    began = time.process_time()\n"
        f"    record = ms_toollib_game(layout, {START!r}, {RULE!r}, 'safest')\n"
        "    print(json.dumps([record.won, len(record.guesses), time.process_time() - began]), flush=True)\n"
    )
    feed = "".join(json.dumps(sorted(layout.mines)) + "\n" for _, layout in layouts)
    done = subprocess.run([sys.executable, "-c", code], input=feed, capture_output=True, text=True)
    games = [tuple(json.loads(line)) for line in done.stdout.splitlines()]
    if len(games) != len(layouts):
        raise SystemExit(f"speed.py: ms-toollib's player stopped after {len(games)} games "
                         f"(exit status {done.returncode}): {done.stderr.strip()[-300:]}")
    return games  # type: ignore[return-value]


def summary(games: Games) -> dict[str, float]:
    """Wins, mean CPU ms a game, its p90 and p99, and (with guesses counted) the per-guess line."""
    times = sorted(t for _, _, t in games)
    n = len(times)
    out = {
        "wins": sum(w for w, _, _ in games),
        "ms": 1000 * sum(times) / n,
        "p90": 1000 * times[min(n - 1, int(0.9 * n))],
        "p99": 1000 * times[min(n - 1, int(0.99 * n))],
        "guesses": sum(g for _, g, _ in games) / n,
    }
    if out["guesses"] and n > 1:
        slope, base = per_guess(games)
        out["per_guess"], out["base"] = 1000 * slope, 1000 * base
    return out


def per_guess(games: Games) -> tuple[float, float]:
    """The least-squares line of a game's CPU time on its guesses: (seconds a guess, seconds a game).

    >>> per_guess([(True, 0, 1.0), (True, 1, 3.0), (False, 2, 5.0)])
    (2.0, 1.0)
    """
    xs = [g for _, g, _ in games]
    ys = [t for _, _, t in games]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    return slope, my - slope * mx


# --- where the time goes --------------------------------------------------------------------


#: The phases of a game of ``best``: (phase, module, owner, function). A phase's time is its
#: function's time less the phases called inside it; "the game loop" is the rest of a game.
PHASES = [
    ("the look-ahead (rank)", "minesat.guess.best", "BestGuess", "rank"),
    ("the long-term scan", "minesat.guess.longterm", "LongTermRisk", "__init__"),
    ("the endgame search", "minesat.guess.best", None, "endgame_move"),
    ("unavoidable guesses", "minesat.guess.best", None, "unavoidable_guess"),
    ("other guess work", "minesat.guess.best", "BestGuess", "choose"),
    ("the position read and proved", "minesat.player", None, "round_steps"),
    ("the game loop (moves, rounds)", "minesat.player", None, "play_game"),
]


def phases(layouts: list[tuple[int, Layout]]) -> dict[str, float]:
    """CPU seconds in each phase of :data:`PHASES` over the boards played by ``best``."""
    import importlib

    spent: dict[str, float] = dict.fromkeys(name for name, *_ in PHASES)  # type: ignore[arg-type]
    spent = {name: 0.0 for name in spent}
    stack: list[list[float]] = []  # per open phase: [time inside phases called from it]
    undo: list[Callable[[], None]] = []

    def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began = time.process_time()
            stack.append([0.0])
            try:
                return function(*args, **kwargs)
            finally:
                inner = stack.pop()[0]
                took = time.process_time() - began
                spent[name] += took - inner
                if stack:
                    stack[-1][0] += took
        return wrapper

    for name, module_name, owner, attribute in PHASES:
        module = importlib.import_module(module_name)
        holder = getattr(module, owner) if owner else module
        original = getattr(holder, attribute)
        setattr(holder, attribute, timed(name, original))
        undo.append(lambda holder=holder, attribute=attribute, original=original:
                    setattr(holder, attribute, original))
    try:
        import minesat.player

        play = minesat.player.play_game
        forget_endgames()
        for _, layout in layouts:
            play(layout, START, strategy=get_strategy("best"), rule=RULE)
    finally:
        for restore in reversed(undo):
            restore()
    return spent


# --- the run ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--rounds", type=int, default=2, help="times every side plays every board")
    parser.add_argument("--jsms", type=Path, help="a JSMinesweeper checkout (its plain loop plays)")
    parser.add_argument("--node", default=os.environ.get("NODE", "node"))
    parser.add_argument("--ms-toollib", action="store_true", help="also ms-toollib's safest player")
    parser.add_argument("--phases", type=int, default=300, help="boards of the timed-phases pass (0: none)")
    parser.add_argument("--preset", default="expert", choices=list(PRESETS))
    parser.add_argument("--first-click", default="opening", choices=["opening", "safe"])
    parser.add_argument("--start", default="3,3", help="ROW,COL of the first click")
    args = parser.parse_args(argv)
    global ROWS, COLS, MINES, START, RULE
    ROWS, COLS, MINES = PRESETS[args.preset]
    START, RULE = tuple(int(x) for x in args.start.split(",")), args.first_click

    layouts = boards(args.seed, args.games)
    sides: dict[str, Callable[[], Games]] = {
        "minesat best": lambda: play_minesat(layouts, "best"),
        "minesat safest": lambda: play_minesat(layouts, "safest"),
    }
    if args.jsms:
        sides["JSMinesweeper"] = lambda: play_jsminesweeper(layouts, args.jsms, args.node)
    if args.ms_toollib:
        sides["ms-toollib safest"] = lambda: play_ms_toollib(layouts)
    print(f"{args.preset} {ROWS}x{COLS}/{MINES}, {RULE} at {args.start}, seed {args.seed}, "
          f"games 0..{args.games - 1}; "
          f"each side its own loop, one core, CPU time; {args.rounds} rounds, order reversed each round")
    play_game(layouts[0][1], START, strategy=get_strategy("best"), rule=RULE)  # imports warmed
    results: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    header = f"{'side':<20}{'round':>6}{'load':>6}{'wins':>6}{'ms/game':>9}{'p90':>8}{'p99':>8}" \
             f"{'guesses':>8}{'ms/guess':>9}{'base ms':>8}"
    print(header)
    for k in range(args.rounds):
        order = list(sides) if k % 2 == 0 else list(reversed(sides))
        for name in order:
            load = os.getloadavg()[0]
            found = summary(sides[name]())
            results[name].append(found)
            line = (f"{name:<20}{k + 1:>6}{load:>6.1f}{found['wins']:>6.0f}{found['ms']:>9.2f}"
                    f"{found['p90']:>8.1f}{found['p99']:>8.1f}")
            if "per_guess" in found:
                line += f"{found['guesses']:>8.2f}{found['per_guess']:>9.2f}{found['base']:>8.2f}"
            print(line, flush=True)
    mean = {name: statistics.fmean(r["ms"] for r in runs) for name, runs in results.items()}
    print("means of the rounds: " + ", ".join(f"{name} {ms:.2f} ms" for name, ms in mean.items()))
    best, safest = mean["minesat best"], mean["minesat safest"]
    if "JSMinesweeper" in mean:
        js = mean["JSMinesweeper"]
        print(f"best / JSMinesweeper: {best / js:.2f}x its time ({js / best:.2f}x its games per second); "
              f"safest / JSMinesweeper: {safest / js:.2f}x")
    if "ms-toollib safest" in mean:
        ms = mean["ms-toollib safest"]
        print(f"safest: {ms / safest:.2f}x ms-toollib's games per second "
              f"({safest:.2f} against {ms:.2f} ms a game)")
    if args.phases:
        spent = phases(layouts[: args.phases])
        total = sum(spent.values())
        print(f"where best's time goes, {min(args.phases, len(layouts))} boards timed by phase "
              f"({1000 * total / min(args.phases, len(layouts)):.2f} ms a game with the timers):")
        for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
            print(f"  {name:<32}{100 * seconds / total:6.1f} %")


if __name__ == "__main__":
    main()
