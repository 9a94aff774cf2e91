"""minesat against JSMinesweeper, the strongest open-source solver, on the same boards.

    python benchmarks/jsminesweeper.py --jsms PATH [--boards FILE | --preset expert --games N
        --seed S --first-click opening --start 3,3] [--strategy NAME] [--out FILE.jsonl]
        [--first K] [--clock frozen|real|both] [--node node] [--check-speed]

PATH is a checkout of https://github.com/DavidNHill/JSMinesweeper (nothing of it is part of
minesat). Every board is played twice, one game at a time, so each side has one core:

* by JSMinesweeper's own solver, headless under Node (``jsminesweeper_driver.mjs`` beside this
  file runs its browser scripts in the Node process's own realm, as its page runs them, with
  minimal shims, and follows its bulk-play loop, ``bulkRun`` in ``main.js``: each turn the
  solver's recommended move, plus its other certain clears);
* by minesat's player, :func:`minesat.player.play_game` with ``--strategy`` (default
  :data:`minesat.player.DEFAULT_STRATEGY`).

Both start with the start cell (safe by the board's construction). JSMinesweeper never sees the
layout: the driver's referee knows it only to answer uncover requests.
``node benchmarks/jsminesweeper_driver.mjs --jsms PATH --check-bulk-run N`` plays N games of
JSMinesweeper's own generator with its ``bulkRun`` verbatim and with the driver, and prints how
many outcomes agree (at its commit d8ff392: 200 of 200).

The boards are a board set (SPEC section 6, ``--boards``; line *i* is game *i*) or the very
layouts ``minesat simulate`` plays with the same options (:func:`minesat.generate.game_seed`,
:func:`minesat.generate.generate_layout`). It prints both win rates with Wilson 95 % intervals,
the paired table (both won, only minesat, only JSMinesweeper, neither) with the exact two-sided
McNemar p-value, guesses per game, and CPU and wall seconds per game for each side (the
speed line compares the mean CPU time per game, then the median).

Games are played in batches (``--batch``, default 25): minesat plays a batch's boards one after
the other, then each driver plays them back to back, so that each side plays warm, as in a loop of
its own. (Game by game, ``--batch 1``, each side's game ran right after the other's, its caches
holding the other's work: JSMinesweeper's time came out above its own loop's.)

``--check-speed`` holds the harness to JSMinesweeper's own speed: it plays JSMinesweeper's side
of the boards through the driver as a run plays them (in batches, minesat's games between them),
and through ``jsminesweeper_plain.mjs``, a plain Node loop that reads the page's ``<script>``
tags, runs them in its realm and plays the boards with ``bulkRun``'s loop and JSMinesweeper's own
``ServerGame``, with nothing of this harness; twice, the order reversed the second time. It
prints the mean times per game (CPU and wall) of each run and their ratios, and exits with status
1 if the CPU ratio of both rounds is past 1.1 either way or, with the clock frozen, any game's
outcome differs.

``--out FILE`` appends one JSON line per game (``game``, ``layout`` digest, both results); a run
that finds FILE plays only the games of its range that FILE lacks, so a long run can be
interrupted and resumed, or split with ``--first``/``--games`` and summarised over the whole
range afterwards (concatenate the files). JSMinesweeper's side of a game does not depend on
minesat, and takes longer: after a change to minesat, ``--rerun-minesat`` replays only
minesat's side of the games FILE already has (with ``--strategy``, the current code) and
prints the comparison without touching FILE; games FILE lacks are played by both as usual.

JSMinesweeper's settings (those of its bulk play, which are also the page's defaults; the
driver prints them): play style "no flags" (``PLAY_STYLE_NOFLAGS``; flagging changes nothing a
win needs), ``advancedGuessing`` on (brute-force deep analysis and the guessing heuristic),
``fullProbability`` on, ``hardcore`` off; ``SolverGlobal``: ``PRUNE_GUESSES``,
``EARLY_FIFTY_FIFTY_CHECKING`` and ``CALCULATE_LONG_TERM_SAFETY`` (long-term risk: 50/50
influence, unavoidable and pseudo 50/50s) on, ``REUSE_BRUTE_FORCE_ANALYSIS`` off (the page's
"Re-use Brute force winning line", off by default: the analysis is redone each move);
``BruteForceGlobal``: brute-force deep analysis when fewer than ``PLAY_BFDA_THRESHOLD`` = 1000
layouts remain, at most 10^8 nodes and 7.5x10^7 enumeration cycles, ``PRUNE_BF_ANALYSIS`` on,
``INCLUDE_DEAD_TOP_TILES`` off. The guessing heuristic ("tie-break": secondary safety and
progress over the candidates within 90 % of the best safety, plus tiles under long-term risk)
runs only when the probability engine took under 50 ms of wall time (``pe.duration < 50`` in
``solver_main.js``). ``--clock frozen`` (default) stops the clock the solver sees, so the
heuristic always runs, as on a fast machine, and every game is reproducible; ``--clock real``
plays as a browser would, with results that depend on the machine's speed and load (the run
then counts the slow probability-engine runs). ``--clock both`` plays every board with both
(two Node processes, one game at a time): the frozen clock's games are the ones paired with
minesat's (``jsminesweeper`` in ``--out``), the real clock's (``jsminesweeper_real``) give the
time a user of JSMinesweeper's page waits, and both times are printed beside minesat's.

Nothing is asserted: this prints figures (only ``--check-speed`` gives its verdict as the exit
status). Bad input is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from minesat.board import PRESETS, Cell, Layout
from minesat.generate import FirstClick, game_seed, generate_layout
from minesat.player import DEFAULT_STRATEGY, STRATEGIES, get_strategy, is_strategy, play_game
from minesat.stats import mcnemar_exact, wilson

DRIVER = Path(__file__).with_name("jsminesweeper_driver.mjs")
PLAIN = Path(__file__).with_name("jsminesweeper_plain.mjs")

#: JSMinesweeper's own board limit (MAX_WIDTH, MAX_HEIGHT in main.js); its binomial table
#: (65000 cells) is sized for it.
JSMS_MAX_SIDE = 250


class BenchmarkError(Exception):
    """Bad input or a peer that cannot run: one line for the user, exit status 2."""


# --- boards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """Game ``index`` of the run: its layout and the seed of JSMinesweeper's hash keys."""

    index: int
    layout: Layout
    seed: int

    @property
    def digest(self) -> str:
        """A short fingerprint of the layout, so a resumed run never mixes up boards.

        >>> Board(0, Layout(2, 2, frozenset({(0, 1)})), 0).digest
        '2x2:fffeb90f2af74591'
        """
        mines = ";".join(f"{r},{c}" for r, c in sorted(self.layout.mines))
        key = f"{self.layout.rows}x{self.layout.cols}"
        return f"{key}:{hashlib.sha256(f'{key}/{mines}'.encode()).hexdigest()[:16]}"

    def request(self, start: Cell) -> dict[str, Any]:
        """The game as the JSMinesweeper driver and the plain loop read it (one JSON line).

        >>> Board(3, Layout(2, 2, frozenset({(1, 0)})), 2**32 + 5).request((0, 1))
        {'game': 3, 'rows': 2, 'cols': 2, 'mines': [[1, 0]], 'start': [0, 1], 'seed': 5}
        """
        return {
            "game": self.index,
            "rows": self.layout.rows,
            "cols": self.layout.cols,
            "mines": sorted([r, c] for r, c in self.layout.mines),
            "start": list(start),
            "seed": self.seed % 2**32,
        }


def generated_boards(
    rows: int, cols: int, mines: int, rule: str, start: Cell, seed: int, first: int, games: int
) -> Iterator[Board]:
    """Games ``first .. first+games-1`` of ``minesat simulate`` with the same options.

    >>> [b.layout.mine_count for b in generated_boards(9, 9, 10, "opening", (3, 3), 0, 0, 2)]
    [10, 10]
    """
    for index in range(first, first + games):
        s = game_seed(rows, cols, mines, rule=rule, start=start, seed=seed, index=index)
        yield Board(index, generate_layout(rows, cols, mines, start=start, rule=rule, seed=s), s)


def read_board_set(path: Path, first: int, games: int | None) -> list[Board]:
    """Lines ``first ..`` of a board set (SPEC section 6), at most ``games`` of them.

    Raises :class:`BenchmarkError` as ``FILE:LINE:COL: message`` on a bad line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BenchmarkError(f"{path}: cannot read the board set: {error}") from None
    boards = []
    for number, line in enumerate(text.splitlines(), start=1):
        index = number - 1
        if index < first or not line.strip():
            continue
        if games is not None and len(boards) == games:
            break
        layout = _parse_board(line, f"{path}:{number}")
        boards.append(Board(index, layout, index))
    if not boards:
        raise BenchmarkError(f"{path}: no boards from line {first + 1} on")
    return boards


def _parse_board(line: str, where: str) -> Layout:
    """One board-set line as a layout; ``where`` is ``FILE:LINE`` for the message."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise BenchmarkError(f"{where}:{error.colno}: not JSON: {error.msg}") from None

    def bad(message: str) -> BenchmarkError:
        return BenchmarkError(f"{where}:1: {message}")

    if not isinstance(record, dict):
        raise bad('expected an object {"rows", "cols", "mines"}')
    rows, cols, mines = record.get("rows"), record.get("cols"), record.get("mines")
    for name, value in (("rows", rows), ("cols", cols)):
        if type(value) is not int or not 1 <= value <= JSMS_MAX_SIDE:
            raise bad(f'"{name}" must be a whole number from 1 to {JSMS_MAX_SIDE} (JSMinesweeper\'s limit)')
    if not isinstance(mines, list):
        raise bad('"mines" must be a list of [row, col] pairs')
    cells = set()
    for mine in mines:
        if (
            not isinstance(mine, list)
            or len(mine) != 2
            or any(type(v) is not int for v in mine)
            or not (0 <= mine[0] < rows and 0 <= mine[1] < cols)
        ):
            raise bad(f"mine {json.dumps(mine)} is not a [row, col] pair on the {rows}x{cols} board")
        cells.add((mine[0], mine[1]))
    if len(cells) != len(mines):
        raise bad("a mine is listed twice")
    return Layout(rows, cols, frozenset(cells))


#: Games each side plays back to back (:func:`run`).
BATCH = 25


# --- the two players -----------------------------------------------------------------------


class JSMinesweeper:
    """The Node driver as a long-lived child process: one game per request, one at a time."""

    def __init__(self, jsms: Path, clock: str, node: str) -> None:
        if shutil.which(node) is None:
            raise BenchmarkError(f"{node}: Node.js not found (JSMinesweeper runs under Node 18 or later)")
        if not (jsms / "Minesweeper" / "client" / "solver_main.js").is_file():
            raise BenchmarkError(
                f"{jsms}: not a JSMinesweeper checkout (no Minesweeper/client/solver_main.js)"
            )
        self.commit = _git_commit(jsms)
        self.process = subprocess.Popen(
            [node, str(DRIVER), "--jsms", str(jsms), "--clock", clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.settings: dict[str, Any] = self._read()["settings"]

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            assert self.process.stderr is not None
            error = self.process.stderr.read().strip().splitlines()
            raise BenchmarkError(f"the JSMinesweeper driver stopped: {error[0] if error else 'no message'}")
        return json.loads(line)

    def play(self, board: Board, start: Cell, rule: str) -> dict[str, Any]:
        """One game. Under the rule ``any`` the first click counts as a guess, as minesat counts it."""
        return self.play_all([board], start, rule)[0]

    def play_all(self, boards: list[Board], start: Cell, rule: str) -> list[dict[str, Any]]:
        """Games played back to back: every request is sent at once, so that the driver plays the
        next game as soon as it has answered the last (as a loop of games does), not after minesat
        has played its own; each game still timed alone."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(json.dumps(board.request(start)) + "\n" for board in boards))
        self.process.stdin.flush()
        return [self._result(board, self._read(), start, rule) for board in boards]

    def _result(self, board: Board, reply: dict[str, Any], start: Cell, rule: str) -> dict[str, Any]:
        guessed = [[r, c, None if p is None else round(p, 9)] for r, c, p in reply["guesses"]]
        if rule == FirstClick.ANY.value:
            cells = board.layout.rows * board.layout.cols
            guessed.insert(0, [start[0], start[1], round(board.layout.mine_count / cells, 9)])
        return {
            "won": reply["won"],
            "guesses": len(guessed),
            "guessed": guessed,
            "uncovered": reply["uncovered"],
            "stalled": reply["stalled"],
            "cpu_seconds": reply["cpu_seconds"],
            "wall_seconds": reply["wall_seconds"],
            **({"slow_pe": reply["slow_pe"]} if "slow_pe" in reply else {}),
        }

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def _git_commit(path: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"
    return out.stdout.strip()


def play_minesat(board: Board, start: Cell, rule: str, strategy: str) -> dict[str, Any]:
    """One game by minesat's player; CPU seconds of this process, wall seconds of the game."""
    cpu = time.process_time()
    record = play_game(board.layout, start, strategy=get_strategy(strategy), rule=rule)
    cpu = time.process_time() - cpu
    return {
        "won": record.won,
        "guesses": len(record.guesses),
        "uncovered": record.uncovered,
        "cpu_seconds": cpu,
        "wall_seconds": record.seconds,
    }


# --- statistics --------------------------------------------------------------------------


#: The sides of a game in ``--out``: JSMinesweeper's (with the run's clock, or the frozen one
#: under ``--clock both``), JSMinesweeper's with the real clock under ``--clock both``, minesat's.
JSMS, JSMS_REAL, MINESAT = "jsminesweeper", "jsminesweeper_real", "minesat"


def summarize(results: list[dict[str, Any]], strategy: str, clock: str = "frozen") -> str:
    """The printed comparison of games played by both sides.

    CPU seconds per game: mean, median and the slowest game (a few endgame searches can
    dominate the mean); wall seconds: mean. Each JSMinesweeper row says which clock its solver
    saw (``clock``: the run's); under ``both`` the real clock's games are a row of their own,
    and minesat's time is compared with each. The paired table is against the first row.
    """
    n = len(results)
    lines = [
        f"{'':<30}{'win rate':>9}  {'95% CI':<17} {'wins':>11}  {'guesses':>7}  "
        f"{'CPU s/game':>10} {'median':>8} {'max':>8}  {'wall s/game':>11}"
    ]
    first = "real" if clock == "real" else "frozen"
    sides = [(JSMS, f"JSMinesweeper ({first} clock)")]
    if clock == "both":
        sides.append((JSMS_REAL, "JSMinesweeper (real clock)"))
    sides.append((MINESAT, f"minesat ({strategy})"))
    for key, name in sides:
        side = [r[key] for r in results]
        wins = sum(s["won"] for s in side)
        lo, hi = wilson(wins, n)
        cpu = [s["cpu_seconds"] for s in side]
        lines.append(
            f"{name:<30}{wins / n:>9.2%}  [{lo:6.2%}, {hi:6.2%}] {f'{wins}/{n}':>11}  "
            f"{sum(s['guesses'] for s in side) / n:>7.2f}  "
            f"{sum(cpu) / n:>10.4f} {statistics.median(cpu):>8.4f} {max(cpu):>8.3f}  "
            f"{sum(s['wall_seconds'] for s in side) / n:>11.4f}"
        )
    both = sum(r["minesat"]["won"] and r["jsminesweeper"]["won"] for r in results)
    only_m = sum(r["minesat"]["won"] and not r["jsminesweeper"]["won"] for r in results)
    only_j = sum(not r["minesat"]["won"] and r["jsminesweeper"]["won"] for r in results)
    neither = n - both - only_m - only_j
    lines.append(
        f"paired: both won {both}, only minesat {only_m}, only JSMinesweeper {only_j}, neither {neither}; "
        f"exact McNemar p = {mcnemar_exact(only_m, only_j):.3g}"
    )
    ms_cpu = [r[MINESAT]["cpu_seconds"] for r in results]
    for key, name in sides[:-1]:
        js_cpu = [r[key]["cpu_seconds"] for r in results]
        ratios = speed_ratios(ms_cpu, js_cpu)
        lines.append(f"speed against {name}, CPU time per game, one core each: {ratios}")
    stalled = sum(r[key]["stalled"] for r in results for key, _ in sides[:-1])
    if stalled:
        lines.append(
            f"note: JSMinesweeper stalled (no move in 10000 turns) in {stalled} games, counted as losses"
        )
    slow = [r[key]["slow_pe"] for r in results for key, _ in sides[:-1] if "slow_pe" in r[key]]
    if slow:
        lines.append(
            f"clock real: {sum(slow)} probability-engine runs took 50 ms or more (guessing heuristic "
            f"skipped when that was the main run), in {sum(s > 0 for s in slow)} games"
        )
    return "\n".join(lines)


def speed_ratios(ours: list[float], theirs: list[float]) -> str:
    """minesat's CPU seconds per game against JSMinesweeper's: mean, then median, in ms.

    >>> speed_ratios([0.02, 0.04, 0.03], [0.06, 0.09, 0.03])
    'mean 30.0 ms against 60.0 ms (minesat 2.00x faster), median 30.0 ms against 60.0 ms (2.00x faster)'
    >>> speed_ratios([0.02], [0.01])
    'mean 20.0 ms against 10.0 ms (minesat 2.00x slower), median 20.0 ms against 10.0 ms (2.00x slower)'
    """

    def ratio(a: float, b: float) -> str:
        if a <= 0 or b <= 0:
            return "no ratio: a time of 0"
        if f"{a / b:.2f}" == "1.00":
            return "as fast"
        return f"{b / a:.2f}x faster" if a < b else f"{a / b:.2f}x slower"

    mean_m, mean_j = statistics.fmean(ours), statistics.fmean(theirs)
    median_m, median_j = statistics.median(ours), statistics.median(theirs)
    return (
        f"mean {1000 * mean_m:.1f} ms against {1000 * mean_j:.1f} ms (minesat {ratio(mean_m, mean_j)}), "
        f"median {1000 * median_m:.1f} ms against {1000 * median_j:.1f} ms ({ratio(median_m, median_j)})"
    )


# --- the run -----------------------------------------------------------------------------


def load_done(out: Path | None, settings: dict[str, str]) -> dict[int, dict[str, Any]]:
    """Games already in ``out``, after checking they were played with the same settings."""
    done: dict[int, dict[str, Any]] = {}
    if out is None or not out.exists():
        return done
    with out.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                game = record["game"]
                mismatch = [key for key, value in settings.items() if record.get(key) != value]
            except (json.JSONDecodeError, KeyError, TypeError):
                raise BenchmarkError(f"{out}:{number}:1: not a result line of this benchmark") from None
            if mismatch:
                raise BenchmarkError(
                    f"{out}:{number}:1: played with another {mismatch[0]} ({record.get(mismatch[0])!r}, "
                    f"now {settings[mismatch[0]]!r}): use another --out file"
                )
            done[game] = record
    return done


def run(args: argparse.Namespace, boards: list[Board] | Iterator[Board], total: int, describe: str) -> None:
    start: Cell = args.start
    settings = {"strategy": args.strategy, "clock": args.clock, "rule": args.first_click}
    # Replaying minesat's side, the file's strategy may differ: only JSMinesweeper's side is kept.
    checked = {k: v for k, v in settings.items() if not (args.rerun_minesat and k == "strategy")}
    done = load_done(args.out, checked)
    # Under --clock both, one driver per clock: the frozen one's games are paired with minesat's.
    clocks = {JSMS: "frozen", JSMS_REAL: "real"} if args.clock == "both" else {JSMS: args.clock}
    peers = {key: JSMinesweeper(args.jsms, clock, args.node) for key, clock in clocks.items()}
    peer = peers[JSMS]
    shown = {k: v for k, v in peer.settings.items() if k != "options"}
    if args.clock == "both":
        shown["clock"] = "both (frozen and real, each its own process)"
    print(
        f"{describe}; minesat strategy {args.strategy}; one game at a time ({platform.python_version()}, "
        f"{platform.machine()})"
    )
    print(
        f"JSMinesweeper {peer.commit} ({args.jsms}): bulk-play options {json.dumps(peer.settings['options'])}"
    )
    print(f"  settings {json.dumps(shown)}")
    results: list[dict[str, Any]] = []
    played = replayed = 0
    progress = sys.stderr.isatty()
    out: TextIO | None = args.out.open("a", encoding="utf-8") if args.out else None
    # Games are played in batches: minesat plays the batch's boards one after the other, then
    # each JSMinesweeper driver plays them back to back, so that each side plays warm, as its
    # own loop of games does (one side's game right after the other's ran slower: its caches
    # and predictors held the other's work).
    batch: list[tuple[Board, dict[str, Any]]] = []

    def flush() -> None:
        for key, side in peers.items():
            replies = side.play_all([b for b, _ in batch], start, args.first_click)
            for (_, record), reply in zip(batch, replies, strict=True):
                record[key] = reply
        for _, record in batch:
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
        batch.clear()

    try:
        for board in boards:
            record = done.get(board.index)
            if record is not None and record.get("layout") != board.digest:
                raise BenchmarkError(
                    f"{args.out}: game {board.index} there was played on another board: "
                    "use another --out file"
                )
            if record is not None and args.rerun_minesat:
                ours = play_minesat(board, start, args.first_click, args.strategy)
                record = {**record, "strategy": args.strategy, "minesat": ours}
                replayed += 1
            if record is None:
                if not (0 <= start[0] < board.layout.rows and 0 <= start[1] < board.layout.cols):
                    raise BenchmarkError(
                        f"start {start[0]},{start[1]} is off the board of game {board.index}"
                    )
                try:
                    ours = play_minesat(board, start, args.first_click, args.strategy)
                except ValueError as error:  # the layout breaks the first-click rule
                    hint = " (--first-click any plays boards as they are)" if args.boards else ""
                    raise BenchmarkError(f"game {board.index}: {error}{hint}") from None
                record = {"game": board.index, "layout": board.digest, **settings, MINESAT: ours}
                batch.append((board, record))
                played += 1
            results.append(record)
            if len(batch) >= args.batch:
                flush()
            if progress:
                print(f"\r{len(results)}/{total} games", end="", file=sys.stderr, flush=True)
        flush()
    finally:
        if progress:
            print(file=sys.stderr)
        if out is not None:
            out.close()
        for side in peers.values():
            side.close()
    replay = f"; minesat's side replayed now in {replayed}" if replayed else ""
    print(
        f"{len(results)} games ({played} played now, {len(results) - played} from {args.out}{replay})"
        if args.out
        else f"{len(results)} games"
    )
    print(summarize(results, args.strategy, args.clock))


# --- --check-speed: the harness against JSMinesweeper's own loop ----------------------------


#: How far the harness's time per game may be from the plain loop's, either way.
SPEED_TOLERANCE = 1.1


def play_plain(args: argparse.Namespace, boards: list[Board], clock: str) -> dict[str, Any]:
    """The boards played by ``jsminesweeper_plain.mjs``: JSMinesweeper's scripts in one realm,
    ``bulkRun``'s loop, no harness. Its wins (one per board) and CPU and wall seconds in all."""
    with tempfile.TemporaryDirectory(prefix="jsms-plain-") as tmp:
        path = Path(tmp) / "boards.jsonl"
        path.write_text("".join(json.dumps(b.request(args.start)) + "\n" for b in boards), encoding="utf-8")
        done = subprocess.run(
            [args.node, str(PLAIN), "--jsms", str(args.jsms), "--clock", clock, str(path)],
            capture_output=True,
            text=True,
        )
    if done.returncode != 0 or not done.stdout.strip():
        error = done.stderr.strip().splitlines()
        raise BenchmarkError(f"the plain JSMinesweeper loop stopped: {error[-1] if error else 'no message'}")
    return json.loads(done.stdout)


def compare_speed(harness: list[dict[str, Any]], plain: dict[str, Any], clock: str) -> tuple[str, bool]:
    """The printed comparison of one clock's runs, and whether it holds.

    It holds when the harness's mean CPU time per game is within :data:`SPEED_TOLERANCE` of the
    plain loop's, either way, and, with the clock frozen (where a game is a pure function of its
    board), every game has the same outcome in both.

    >>> side = {"won": True, "cpu_seconds": 0.05, "wall_seconds": 0.06}
    >>> text, ok = compare_speed([side, {**side, "won": False}], {"won": [True, False],
    ...     "cpu_seconds": 0.091, "wall_seconds": 0.1}, "frozen")
    >>> ok, text.splitlines()[-1]
    (True, 'harness / plain: CPU 1.10x, wall 1.20x (mean per game): within 1.1x; same outcome in 2/2 games')
    """
    n = len(harness)
    won = [side["won"] for side in harness]
    cpu = sum(side["cpu_seconds"] for side in harness) / n
    wall = sum(side["wall_seconds"] for side in harness) / n
    plain_cpu, plain_wall = plain["cpu_seconds"] / n, plain["wall_seconds"] / n
    ratio = cpu / plain_cpu if plain_cpu > 0 else math.inf
    within = 1 / SPEED_TOLERANCE <= round(ratio, 2) <= SPEED_TOLERANCE
    same = sum(a == b for a, b in zip(won, plain["won"], strict=True))
    lines = [
        f"{'clock ' + clock:<46}{'wins':>6}  {'CPU ms/game':>11}  {'wall ms/game':>12}",
        f"{'harness (jsminesweeper_driver.mjs, per game)':<46}{sum(won):>6}  {1000 * cpu:>11.1f}  "
        f"{1000 * wall:>12.1f}",
        f"{'plain bulkRun loop (jsminesweeper_plain.mjs)':<46}{sum(plain['won']):>6}  "
        f"{1000 * plain_cpu:>11.1f}  {1000 * plain_wall:>12.1f}",
    ]
    verdict = "within" if within else "NOT within"
    wall_ratio = wall / plain_wall if plain_wall > 0 else math.inf
    outcome = f"same outcome in {same}/{n} games"
    if clock == "real" and same < n:
        outcome += " (the real clock: the guessing heuristic depends on the machine's load)"
    lines.append(
        f"harness / plain: CPU {ratio:.2f}x, wall {wall_ratio:.2f}x (mean per game): "
        f"{verdict} {SPEED_TOLERANCE}x; {outcome}"
    )
    return "\n".join(lines), within and (clock == "real" or same == n)


def check_speed(args: argparse.Namespace, boards: list[Board], describe: str) -> bool:
    """Time JSMinesweeper on ``boards`` through the harness, as a run plays them (in batches of
    ``--batch``, minesat's games of each batch first), and through its plain loop, twice, the
    order reversed the second time, for each clock of ``--clock``; print each and their ratio."""
    clocks = ["frozen", "real"] if args.clock == "both" else [args.clock]
    print(f"{describe}; --check-speed: JSMinesweeper through this harness (batches of {args.batch}, "
          f"minesat's games between them, as a run plays) and in its plain loop, twice, in turn")
    print(f"  {platform.node()}: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    held = True
    for clock in clocks:
        runs: dict[str, list[Any]] = {"harness": [], "plain": []}
        for order in (("harness", "plain"), ("plain", "harness")):
            for side in order:
                _progress(f"{clock} clock, {side}: {len(boards)} games")
                if side == "harness":
                    runs[side].append(harness_run(args, boards, clock))
                else:
                    runs[side].append(play_plain(args, boards, clock))
        _progress("")
        for k, (harness, plain) in enumerate(zip(runs["harness"], runs["plain"], strict=True)):
            text, ok = compare_speed(harness, plain, clock)
            print(f"round {k + 1} ({'harness first' if k == 0 else 'plain loop first'}):")
            print(text)
        both = [side for run in runs["harness"] for side in run]
        plains = runs["plain"]
        merged = {"won": [w for plain in plains for w in plain["won"]],
                  "cpu_seconds": sum(plain["cpu_seconds"] for plain in plains),
                  "wall_seconds": sum(plain["wall_seconds"] for plain in plains)}
        text, ok = compare_speed(both, merged, clock)
        print("both rounds:")
        print(text)
        held = held and ok
    print(f"  load average {os.getloadavg()[0]:.2f} at the end")
    return held


def harness_run(args: argparse.Namespace, boards: list[Board], clock: str) -> list[dict[str, Any]]:
    """JSMinesweeper's side of ``boards`` through the harness, as :func:`run` plays them: each
    batch's games by minesat first (their results dropped), then by the driver, back to back."""
    peer = JSMinesweeper(args.jsms, clock, args.node)
    played: list[dict[str, Any]] = []
    try:
        for k in range(0, len(boards), args.batch):
            batch = boards[k : k + args.batch]
            for board in batch:
                play_minesat(board, args.start, args.first_click, args.strategy)
            played += peer.play_all(batch, args.start, args.first_click)
    finally:
        peer.close()
    return played


def _progress(text: str) -> None:
    """One line of progress on a terminal, written over the last ("" clears it)."""
    if sys.stderr.isatty():
        print(f"\r{text:<60}", end="" if text else "\r", file=sys.stderr, flush=True)


def parse_cell(text: str) -> Cell:
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL, not {text!r}") from None
    if r < 0 or c < 0:
        raise argparse.ArgumentTypeError(f"expected ROW,COL at or above 0, not {text!r}")
    return r, c


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--jsms", type=Path, required=True, help="a JSMinesweeper checkout")
    parser.add_argument("--boards", type=Path, help="a board set (SPEC section 6); line i is game i")
    parser.add_argument("--preset", default="expert", choices=list(PRESETS))
    parser.add_argument("--games", type=int, help="games to play (default 200; with --boards all lines)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (to split a run)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-click", default="opening", choices=[r.value for r in FirstClick])
    parser.add_argument("--start", type=parse_cell, default=(3, 3), help="ROW,COL of the first click")
    parser.add_argument(
        "--strategy", default=DEFAULT_STRATEGY, help="minesat's strategy, as for minesat simulate --strategy"
    )
    parser.add_argument("--out", type=Path, help="per-game results, JSON Lines; resumes from it")
    parser.add_argument(
        "--rerun-minesat",
        action="store_true",
        help="replay only minesat's side of the games already in --out; the file is not changed",
    )
    parser.add_argument(
        "--clock",
        default="frozen",
        choices=["frozen", "real", "both"],
        help="the clock JSMinesweeper's solver sees (see the module docstring)",
    )
    parser.add_argument("--node", default=os.environ.get("NODE", "node"), help="the Node.js executable")
    parser.add_argument("--batch", type=int, default=BATCH,
                        help=f"games each side plays back to back before the other's (default {BATCH})")
    parser.add_argument(
        "--check-speed",
        action="store_true",
        help="time JSMinesweeper on the boards through this harness and in its own plain loop "
        f"(jsminesweeper_plain.mjs) and compare them; exit status 1 past {SPEED_TOLERANCE}x either way "
        "or if an outcome differs (frozen clock)",
    )
    args = parser.parse_args(argv)
    prog = Path(sys.argv[0]).name if argv is None else "jsminesweeper.py"
    try:
        if args.check_speed and (args.out is not None or args.rerun_minesat):
            raise BenchmarkError("--check-speed plays JSMinesweeper's side only: no --out or --rerun-minesat")
        if args.rerun_minesat and args.out is None:
            raise BenchmarkError("--rerun-minesat replays the games of an --out file: give one")
        if (args.games is not None and args.games < 1) or args.first < 0:
            raise BenchmarkError("--games must be at least 1 and --first at least 0")
        if not is_strategy(args.strategy):
            raise BenchmarkError(f"unknown strategy {args.strategy!r} (known: {', '.join(STRATEGIES)}, ...)")
        if args.boards is not None:
            boards = read_board_set(args.boards, args.first, args.games)
            describe = (
                f"board set {args.boards}, games {boards[0].index}..{boards[-1].index}, "
                f"first click at {args.start[0]},{args.start[1]} ({args.first_click})"
            )
            if args.check_speed:
                return 0 if check_speed(args, boards, describe) else 1
            run(args, boards, len(boards), describe)
        else:
            rows, cols, mines = PRESETS[args.preset]
            games = 200 if args.games is None else args.games
            describe = (
                f"{args.preset} {rows}x{cols}/{mines}, first click {args.first_click} at "
                f"{args.start[0]},{args.start[1]}, seed {args.seed}, "
                f"games {args.first}..{args.first + games - 1}"
            )
            try:
                generate_layout(rows, cols, mines, start=args.start, rule=args.first_click, seed=0)
            except ValueError as error:
                raise BenchmarkError(str(error)) from None
            boards_iter = generated_boards(
                rows, cols, mines, args.first_click, args.start, args.seed, args.first, games
            )
            if args.check_speed:
                return 0 if check_speed(args, list(boards_iter), describe) else 1
            run(args, boards_iter, games, describe)
    except BenchmarkError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
