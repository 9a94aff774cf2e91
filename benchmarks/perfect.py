"""Perfect play: how fast the search runs, how far it reaches, the table in reports/, the full check.

    python3 benchmarks/perfect.py speed [--before REV]  # states per CPU second on a few boards (and REV's)
    python3 benchmarks/perfect.py largest [--limit 600] # the largest boards solved within the limit (seconds)
    python3 benchmarks/perfect.py table [--out reports/perfect] [--max-states N]
    python3 benchmarks/perfect.py recount [--strategy best] [--max-cells 36]  # after changing a strategy
    python3 benchmarks/perfect.py verify                # every board up to 12 cells against the brute force
    python3 benchmarks/perfect.py gaps [--table reports/perfect.json] [--out reports/perfect-gaps] [--render]
    python3 benchmarks/perfect.py compare --strategies A,B,... [--max-layouts 200000] [--rule safe]

``table`` writes ``OUT.json`` and ``OUT.md``: perfect play for each board of
:data:`TABLE` under each first-click rule (the best start of each, over the
classes of cells the board's symmetries map together, or one given start), with
the exact win counts of ``best`` and ``safest`` from the same start beside it.
It saves after every row and skips rows already in ``OUT.json``: run it again
to resume. A row past ``--max-states`` or too large to list is recorded as
such. ``gaps`` takes each row of the table where ``best`` wins less than
perfect play and lists the positions where its guess costs layouts
(:func:`minesat.perfect.gaps.strategy_gaps`), into ``OUT.json``, ``OUT.md``
and a picture of each of the largest in ``OUT/``, each gap with why the
strategy missed the better move (never scored, tied, or scored lower by its
look-ahead); ``--render`` rewrites those from ``OUT.json`` without searching.
``table --merge`` with no file rewrites ``OUT.md`` from ``OUT.json``.
``compare`` counts, exactly, the layouts each named strategy wins on every row
of the table under one rule (up to ``--max-layouts`` layouts), from the row's
start, and prints them beside perfect play with each one's shortfall in total:
the noise-free first test of an idea (``best-no-endgame`` against
``best-no-endgame-with-pseudo``, say) before a paired run on large boards.
Nothing is asserted: this prints and writes figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from itertools import product
from pathlib import Path

from minesat.board import Cell, cell_name, parse_cell
from minesat.exact.geometry import TooManyLayouts
from minesat.exact.search import OutOfBudget
from minesat.generate import FirstClick, mines_fit
from minesat.perfect import NO_LIMIT, PastBudget, PerfectPlay, StartValue, strategy_wins

RULES = [FirstClick.OPENING, FirstClick.SAFE, FirstClick.ANY]
STRATEGIES = ["best", "safest"]

#: The boards of the table: (rows, cols, mines, start). A start of None tries one
#: cell of every symmetry class and keeps the best. The larger boards are played
#: from one start: the given cell (near the centre) under ``opening``, and the
#: corner A1 (the classic rule, the best start of the 5x5 boards) under ``safe`` and ``any``.
TABLE: list[tuple[int, int, int, Cell | None]] = [
    (2, 2, 1, None), (2, 2, 2, None),
    (2, 3, 1, None), (2, 3, 2, None),
    (3, 3, 1, None), (3, 3, 2, None), (3, 3, 3, None),
    (3, 4, 2, None), (3, 4, 3, None), (3, 4, 4, None),
    (4, 4, 2, None), (4, 4, 3, None), (4, 4, 4, None), (4, 4, 5, None),
    (4, 5, 3, None), (4, 5, 4, None), (4, 5, 5, None),
    (5, 5, 3, None), (5, 5, 4, None), (5, 5, 5, None), (5, 5, 6, None),
    (5, 6, 3, (2, 2)), (5, 6, 4, (2, 2)), (5, 6, 5, (2, 2)), (5, 6, 6, (2, 2)),
    (6, 6, 4, (2, 2)), (6, 6, 5, (2, 2)), (6, 6, 6, (2, 2)), (6, 6, 7, (2, 2)),
    (6, 7, 5, (2, 3)), (6, 7, 6, (2, 3)), (6, 7, 7, (2, 3)),
    (7, 7, 5, (3, 3)), (7, 7, 6, (3, 3)), (7, 7, 7, (3, 3)),
    (8, 8, 10, (3, 3)),
]


# --- speed ---------------------------------------------------------------------------------

SPEED = [
    (4, 5, 4, "safe", (1, 2)),
    (5, 5, 5, "safe", (2, 2)),
    (4, 6, 5, "safe", (1, 2)),
    (6, 6, 6, "opening", (2, 2)),
    (5, 5, 5, "safe", (0, 0)),
    (4, 6, 6, "safe", (0, 0)),
    (5, 5, 6, "safe", (0, 0)),
]

#: One run of perfect play in a child process: its progress and its end, a JSON line each.
_CHILD = """
import json, sys, time
from minesat.perfect import DEFAULT_MAX_MEMORY, Budget, perfect_play
rows, cols, mines, rule, start = json.loads(sys.argv[1])
began = time.process_time()
limit = float(sys.argv[2])
def progress(states, settled, total):
    print(json.dumps({"states": states, "settled": settled, "total": total,
                      "cpu": time.process_time() - began}), flush=True)
    if time.process_time() - began > limit:
        sys.exit(0)
r = perfect_play(rows, cols, mines, rule=rule, start=tuple(start),
                 budget=Budget(max_memory=DEFAULT_MAX_MEMORY), progress=progress)
print(json.dumps({"done": True, "wins": r.wins, "layouts": r.layouts, "states": r.states,
                  "cpu": time.process_time() - began, "seconds": r.seconds}), flush=True)
"""


def parse_case(text: str) -> tuple[int, int, int, str, tuple[int, int]]:
    """A ``--case`` of ``speed``: ``RxC/MINES:RULE:ROW,COL``.

    >>> parse_case("6x6/6:safe:0,0")
    (6, 6, 6, 'safe', (0, 0))
    """
    size, rule, start = text.split(":")
    board, mines = size.split("/")
    rows, cols = board.split("x")
    r, c = start.split(",")
    if rule not in {x.value for x in RULES}:
        raise ValueError(f"unknown rule {rule!r}")
    return int(rows), int(cols), int(mines), rule, (int(r), int(c))


def speed(
    before: str | None, limit: float, cases: list[tuple[int, int, int, str, tuple[int, int]]] | None = None
) -> None:
    """Each case of :data:`SPEED` (or ``cases``) in a child process, with this source and (``--before REV``)
    an older one.

    The two runs of a case follow each other, so they meet the same load;
    CPU seconds are the child's own. A run past ``limit`` CPU seconds (or four
    times that in wall time) is stopped and says how far it got.
    """
    import os
    import tempfile

    here = Path(__file__).resolve().parents[1]
    sources = [("after", here / "src")]
    if before is not None:
        old = Path(tempfile.mkdtemp(prefix="perfect-before-"))
        archive = subprocess.run(["git", "-C", str(here), "archive", before, "src"], capture_output=True,
                                 check=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        sources.insert(0, (f"before ({before})", old / "src"))
    header = ("board", "rule", "start", "source", "chance", "states", "cpu s", "states/cpu s")
    print(f"{header[0]:>8} {header[1]:>8} {header[2]:>5} {header[3]:>20} {header[4]:>7} {header[5]:>9} "
          f"{header[6]:>7} {header[7]:>12}")
    for rows, cols, mines, rule, start in cases or SPEED:
        for name, source in sources:
            env = dict(os.environ, PYTHONPATH=str(source))
            case = json.dumps([rows, cols, mines, rule, start])
            child = subprocess.Popen([sys.executable, "-c", _CHILD, case, str(limit)], stdout=subprocess.PIPE,
                                     text=True, env=env)
            last: dict = {}
            began = time.perf_counter()
            timer = threading.Timer(4 * limit, child.kill)
            timer.start()
            assert child.stdout is not None
            for text in child.stdout:
                last = json.loads(text)
            child.wait()
            timer.cancel()
            board = f"{rows}x{cols}/{mines}"
            head = f"{board:>8} {rule:>8} {cell_name(start):>5} {name:>20}"
            if last.get("done"):
                chance = last["wins"] / last["layouts"]
                print(f"{head} {chance:7.4f} {last['states']:9d} {last['cpu']:7.1f} "
                      f"{last['states'] / last['cpu']:12.0f}", flush=True)
            elif last:
                share = last["settled"] / last["total"]
                print(f"{head} not within {limit:.0f} s: {last['states']} states, {share:.1%} of the layouts "
                      f"settled, {last['cpu']:.0f} cpu s ({last['states'] / last['cpu']:.0f} states/cpu s)",
                      flush=True)
            else:
                print(f"{head} not within {limit:.0f} s ({time.perf_counter() - began:.0f} s)", flush=True)


# --- the largest boards within a time limit ----------------------------------------------------

LADDER = [
    (5, 5, 5), (5, 6, 5), (5, 6, 6), (6, 6, 5), (6, 6, 6), (6, 6, 7), (6, 6, 8),
    (6, 7, 6), (6, 7, 7), (7, 7, 6), (7, 7, 7), (7, 7, 8), (8, 8, 10),
]


def largest(limit: float) -> None:
    """Each board of :data:`LADDER` from its centre, under ``opening`` and ``safe``, in a child process."""
    print(f"each run: one start (the centre), at most {limit:.0f} s")
    for rule in ("opening", "safe"):
        for rows, cols, mines in LADDER:
            start = f"{(rows - 1) // 2},{(cols - 1) // 2}"
            command = [sys.executable, "-m", "minesat", "perfect", "--rows", str(rows), "--cols", str(cols),
                       "--mines", str(mines), "--first-click", rule, "--start", start, "--json",
                       "--max-states", str(10**9), "--time-limit", "0"]  # the timeout below bounds it
            began = time.perf_counter()
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=limit)
            except subprocess.TimeoutExpired:
                print(f"{rows}x{cols}/{mines:<3} {rule:8} not solved within {limit:.0f} s")
                continue
            seconds = time.perf_counter() - began
            if done.returncode:
                print(f"{rows}x{cols}/{mines:<3} {rule:8} {done.stderr.strip()}")
                continue
            data = json.loads(done.stdout)
            print(f"{rows}x{cols}/{mines:<3} {rule:8} solved in {seconds:6.1f} s: "
                  f"{data['win_probability']:.4f} ({data['wins']} of {data['layouts']}), "
                  f"{data['states']} states")


# --- the table ----------------------------------------------------------------------------------


def _best_start(solver: PerfectPlay, rule: FirstClick, starts: list[Cell], budget: int) -> list[StartValue]:
    solver.search.max_states = solver.search.states + budget
    return [solver.start_value(cell, rule) for cell in starts]


def table_row(
    rows: int, cols: int, mines: int, start: Cell | None, rule: FirstClick, solver: PerfectPlay, budget: int
) -> dict:
    board = solver.board
    every = [board.cell(i) for i in board.orbit_representatives()]
    if start is not None and rule is not FirstClick.OPENING:
        start = (0, 0)
    starts = [s for s in (every if start is None else [start])
              if mines_fit(rows, cols, mines, start=s, rule=rule)]
    record: dict = {
        "rows": rows, "cols": cols, "mines": mines, "cells": rows * cols, "rule": rule.value,
        "starts_tried": "every class" if start is None else "given", "classes": len(starts),
    }
    if not starts:
        record["status"] = "the mines do not fit around any start"
        return record
    began, states = time.perf_counter(), solver.states
    try:
        values = _best_start(solver, rule, starts, budget)
    except OutOfBudget:
        record["status"] = f"past {budget} states ({time.perf_counter() - began:.0f} s)"
        return record
    except TooManyLayouts as err:
        record["status"] = f"too large to list: {err}"
        return record
    best = values[0]
    for v in values[1:]:
        if v.wins * best.layouts > best.wins * v.layouts:
            best = v
    record.update({
        "status": "done", "start": list(best.start), "wins": best.wins, "layouts": best.layouts,
        "win_probability": best.win_probability, "states": solver.states - states,
        "seconds": round(time.perf_counter() - began, 2),
        "starts": [{"start": list(v.start), "wins": v.wins, "layouts": v.layouts} for v in values],
    })
    return record


def add_strategies(record: dict, done: list[dict]) -> None:
    """Each strategy's exact wins from the row's start; under ``any`` they are those under ``safe``.

    A strategy plays the same moves whatever the rule once the first click is
    safe, so under ``any`` it wins exactly the layouts it wins under ``safe``
    from the same start (the layouts with a mine at the start are lost by every player).
    """
    if record.get("status") != "done":
        return
    start = tuple(record["start"])
    if record["rule"] == "any":
        same = (record["rows"], record["cols"], record["mines"], "safe", "done", start)
        twin = next(
            (r for r in done
             if (r["rows"], r["cols"], r["mines"], r["rule"], r.get("status"), tuple(r.get("start", ())))
             == same),
            None,
        )
        if twin is not None:
            record["strategies"] = dict(twin["strategies"])
            record["strategy_seconds"] = {name: 0.0 for name in twin["strategies"]}
            return
    record["strategies"], record["strategy_seconds"] = {}, {}
    for name in STRATEGIES:
        count = strategy_wins(record["rows"], record["cols"], record["mines"], rule=record["rule"],
                              start=start, strategy=name)
        record["strategies"][name] = count.wins
        record["strategy_seconds"][name] = round(count.seconds, 2)


def table(out: Path, budget: int, only: str | None, from_cells: int, merge: list[Path] | None) -> None:
    path = out.with_suffix(".json")
    done: list[dict] = json.loads(path.read_text())["rows"] if path.exists() else []
    command = f"python3 benchmarks/perfect.py table --out {out} --max-states {budget}"
    if merge is not None:  # rows computed elsewhere (another core, another run): add those not here yet
        for other in merge:
            done += [r for r in json.loads(other.read_text())["rows"]
                     if (r["rows"], r["cols"], r["mines"], r["rule"])
                     not in {(d["rows"], d["cols"], d["mines"], d["rule"]) for d in done}]
        _save(out, done, command, budget)
        return
    have = {(r["rows"], r["cols"], r["mines"], r["rule"]) for r in done}
    for rows, cols, mines, start in TABLE:
        if (only and f"{rows}x{cols}" != only) or rows * cols < from_cells:
            continue
        solver = None
        for rule in RULES:
            if (rows, cols, mines, rule.value) in have:
                continue
            if solver is None:
                solver = PerfectPlay(rows, cols, mines, budget=NO_LIMIT)
            record = table_row(rows, cols, mines, start, rule, solver, budget)
            add_strategies(record, done)
            done.append(record)
            _save(out, done, command, budget)
            print(line(record), flush=True)


def recount(out: Path, strategy: str, max_cells: int) -> None:
    """Count ``strategy``'s wins again on the table's rows that it played short of perfect play.

    After a change to the strategy, only those rows can change in one direction:
    a row it already plays perfectly stays so. Boards of more than ``max_cells``
    cells are left as they are. Saves after every row.
    """
    path = out.with_suffix(".json")
    saved = json.loads(path.read_text())
    done = saved["rows"]
    for record in done:
        counts = record.get("strategies", {})
        if record.get("status") != "done" or record["cells"] > max_cells or record["rule"] == "any":
            continue
        if counts.get(strategy) is None or counts[strategy] >= record["wins"]:
            continue
        start = tuple(record["start"])
        size = (record["rows"], record["cols"], record["mines"])
        count = strategy_wins(*size, rule=record["rule"], start=start, strategy=strategy)
        print(f"{line(record)}: {strategy} {counts[strategy]} -> {count.wins} ({count.seconds:.0f} s)",
              flush=True)
        counts[strategy] = count.wins
        record["strategy_seconds"][strategy] = round(count.seconds, 2)
        for twin in done:  # under ``any`` a strategy wins what it wins under ``safe`` from the same start
            twin_size = (twin["rows"], twin["cols"], twin["mines"])
            same = twin_size == size and twin.get("start") == record["start"]
            if twin["rule"] == "any" and twin.get("status") == "done" and same:
                twin["strategies"][strategy] = count.wins
        _save(out, done, saved["command"], saved["max_states"])


def _save(out: Path, done: list[dict], command: str, budget: int) -> None:
    done.sort(key=lambda r: (r["cells"], r["rows"], r["mines"], RULES.index(FirstClick(r["rule"]))))
    payload = {"command": command, "max_states": budget, "rows": done}
    out.with_suffix(".json").write_text(json.dumps(payload, indent=1) + "\n")
    out.with_suffix(".md").write_text(markdown(done, command, budget))


def line(r: dict) -> str:
    head = f"{r['rows']}x{r['cols']}/{r['mines']} {r['rule']:8}"
    if r.get("status") != "done":
        return f"{head} {r['status']}"
    text = f"{head} {cell_name(tuple(r['start']))} perfect {r['win_probability']:.4f}"
    for name, wins in r.get("strategies", {}).items():
        text += f", {name} {wins / r['layouts']:.4f}"
    return text + f"  ({r['states']} states, {r['seconds']} s)"


def markdown(rows: list[dict], command: str, budget: int) -> str:
    out = [
        "# Perfect play: the exact chance to win, and how close the strategies come",
        "",
        "Every layout the first-click rule allows at the start is equally likely (as in `generate` and",
        "`simulate`). *perfect* is the chance a perfect player wins: the exact number of layouts it wins",
        "divided by the number of layouts, no sampling. *best* and *safest* are the exact chances of the",
        "automatic player's strategies from the same start, every layout played (their counts, like",
        "perfect's, are in `perfect.json`). *best's gap* is perfect minus best, in percentage points",
        "and in layouts; where it comes from: `perfect-gaps.md`.",
        "*start* is the best first click over one cell of each class of cells the board's symmetries map",
        "onto each other (*every class*); on the larger boards one start is played (*given*): a cell",
        "near the centre under `opening`, the corner A1 (the classic rule) under `safe` and `any`. Under",
        "`any` the first click may be a mine: those layouts are lost by every player, and on the others",
        "the strategies play as under `safe`, so their counts under `safe` are reused.",
        "*states* and *seconds* are the perfect-play search's work; the seconds are wall time on the",
        "2-core development machine, often beside other runs (the rows of 30 and 36 cells ran beside",
        "three other processes), so they are a rough guide: `benchmarks/perfect.py speed` measures.",
        "Rows of fewer than 30 cells were made with `--max-states 1500000`, the larger with 3000000.",
        "The rows with 6 mines under `safe` and `any` on 5x5, 5x6 and 6x6 were made later, with the",
        "faster search of issue 23 (a look-alike table for any list, a memo key of what still matters),",
        "on a machine loaded by four other runs: their states are not comparable with the older rows'.",
        "",
        "Regenerate (resumable: it skips rows already in `perfect.json`):",
        "",
        "```sh",
        command,
        "```",
        "",
        "| board | mines | first click | start | layouts | perfect | best | safest | best's gap | states "
        "| seconds |",
        "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    stopped = []
    for r in rows:
        board = f"{r['rows']}x{r['cols']}"
        if r.get("status") != "done":
            stopped.append(f"- {board} with {r['mines']} mines, `{r['rule']}`: {r['status']}")
            continue
        n = r["layouts"]
        strategies = r.get("strategies", {})
        best, safest = strategies.get("best"), strategies.get("safest")
        gap = "" if best is None else f"{(r['wins'] - best) / n * 100:.2f} pp ({r['wins'] - best})"
        start = cell_name(tuple(r["start"]))
        if r["starts_tried"] == "every class":
            start += " (every class)"
        chances = [f"{w / n:.4f}" if w is not None else "" for w in (best, safest)]
        out.append(
            f"| {board} | {r['mines']} | {r['rule']} | {start} | {n} | {r['win_probability']:.4f} | "
            f"{chances[0]} | {chances[1]} | {gap} | {r['states']} | {r['seconds']} |"
        )
    if stopped:
        out += ["", "## Where it stops", "", *stopped]
    return "\n".join(out) + "\n"


# --- the full check against the brute force -------------------------------------------------------


def verify() -> None:
    """Every board up to 12 cells, every mine count, rule and start, against tests/perfect_bruteforce.py."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from perfect_bruteforce import BruteForce

    began = time.perf_counter()
    checked = boards = 0
    for cells in range(1, 13):
        for rows in (r for r in range(1, cells + 1) if cells % r == 0):
            cols = cells // rows
            for mines in range(cells + 1):
                brute = BruteForce(rows, cols, mines)
                solver = PerfectPlay(rows, cols, mines, budget=NO_LIMIT)
                boards += 1
                for start, rule in product(product(range(rows), range(cols)), RULES):
                    if not mines_fit(rows, cols, mines, start=start, rule=rule):
                        continue
                    ours = solver.start_value(start, rule)
                    theirs = brute.start(start, rule.value)
                    if (ours.wins, ours.layouts) != theirs:
                        print(f"DISAGREE {rows}x{cols}/{mines} {rule.value} {start}: {ours} vs {theirs}")
                        raise SystemExit(1)
                    checked += 1
    print(f"{checked} (board, mines, rule, start) cases on {boards} boards agree with the brute force "
          f"({time.perf_counter() - began:.0f} s)")


# --- where best falls short --------------------------------------------------------------------

#: Pictures drawn: the gaps that cost the most, over all boards, as a share of their board's games.
PICTURES = 24


def gaps(table_path: Path, out: Path, strategy: str) -> None:
    from minesat.formats import format_position
    from minesat.perfect.gaps import strategy_gaps

    rows = [r for r in json.loads(table_path.read_text())["rows"]
            if r.get("status") == "done" and r["rule"] != "any" and strategy in r.get("strategies", {})]
    boards, found = [], []
    for r in rows:
        if r["strategies"][strategy] == r["wins"]:
            continue
        start = tuple(r["start"])
        report = strategy_gaps(r["rows"], r["cols"], r["mines"], rule=r["rule"], start=start,
                               strategy=strategy)
        name = f"{r['rows']}x{r['cols']}/{r['mines']} {r['rule']} {cell_name(start)}"
        boards.append({
            "board": name, "layouts": report.layouts, "perfect": report.perfect, "wins": report.wins,
            "guesses": report.guesses, "gaps": len(report.gaps), "seconds": round(report.seconds, 1),
        })
        print(f"{name:24} perfect {report.perfect}, {strategy} {report.wins} of {report.layouts}: "
              f"{len(report.gaps)} gaps in {report.guesses} guess positions ({report.seconds:.1f} s)",
              flush=True)
        for g in report.gaps:
            found.append({
                "board": name, "layouts_of_board": report.layouts,
                "position": format_position(g.position), "reach": g.layouts, "perfect": g.perfect,
                "chosen": g.chosen, "lost": g.lost, "share_pp": 100 * g.lost / report.layouts,
                "move": cell_name(g.move), "optimal": [cell_name(c) for c in g.optimal],
                "risk": {cell_name(c): p for c, p in g.risk.items()},
            })
    found.sort(key=lambda g: -g["share_pp"])
    command = f"python3 benchmarks/perfect.py gaps --table {table_path} --out {out}"
    write_gaps(out, boards, found, command, strategy)


def why_missed(gap: dict, strategy: str) -> dict:
    """Why the strategy did not play a better move: its look-ahead never scored one, or scored it lower.

    Only for ``best`` and its variants (strategies with a look-ahead); adds
    ``equal_risk`` (the move is exactly as safe as every better move), ``why``
    (``not looked at``, ``tied`` or ``ranked lower``) and the look-ahead's
    ``scores`` of the move and the better moves it scored.
    """
    from minesat.formats import parse_position
    from minesat.player import get_strategy

    risks = gap["risk"]
    found = {
        "equal_risk": all(abs(risks[c] - risks[gap["move"]]) < 1e-12 for c in gap["optimal"]),
        "why": "",
        "scores": {},
    }
    player = get_strategy(strategy)
    if not hasattr(player, "rank"):
        return found
    position = parse_position(gap["position"])
    analysis = player.analyzer.analyze(position)
    looked_at = player.candidates(position, analysis)
    ranked = {cell_name(c.cell): c.score for c in player.rank(position, analysis, looked_at, prune=False)}
    scored = [c for c in gap["optimal"] if c in ranked]
    if not scored:
        found["why"] = "not looked at"
    elif max(ranked[c] for c in scored) >= ranked[gap["move"]] - 1e-9:
        found["why"] = "tied"  # the same score: the tie went to the first cell in row-major order
    else:
        found["why"] = "ranked lower"
    found["scores"] = {c: round(ranked[c], 5) for c in [gap["move"], *scored] if c in ranked}
    return found


def write_gaps(out: Path, boards: list[dict], found: list[dict], command: str, strategy: str) -> None:
    """``OUT.json``, ``OUT.md`` and the pictures of the largest gaps in ``OUT/``."""
    from minesat.analysis import Analyzer
    from minesat.formats import parse_position
    from minesat.svg import position_svg

    for g in found:
        g.update(why_missed(g, strategy))
    out.mkdir(parents=True, exist_ok=True)
    analyzer = Analyzer()
    for k, g in enumerate(found[:PICTURES]):
        position = parse_position(g["position"])
        title = f"{g['board']}: {strategy} {g['move']}, better {' '.join(g['optimal'])}"
        svg = position_svg(position, analyzer.analyze(position), title=title, mark=parse_cell(g["move"]),
                           better=[parse_cell(c) for c in g["optimal"]], cell_size=28)
        g["picture"] = f"{out.name}/gap-{k + 1:02d}.svg"
        (out / f"gap-{k + 1:02d}.svg").write_text(svg)
    payload = {"command": command, "strategy": strategy, "boards": boards, "gaps": found}
    out.with_suffix(".json").write_text(json.dumps(payload, indent=1) + "\n")
    out.with_suffix(".md").write_text(gaps_markdown(boards, found, command, strategy))


def gaps_markdown(boards: list[dict], found: list[dict], command: str, strategy: str) -> str:
    out = [
        f"# Where `{strategy}` falls short of perfect play",
        "",
        f"Each board of `perfect.md` where `{strategy}` wins fewer layouts than perfect play, from the",
        "same start. A *gap* is a position where its guess wins fewer layouts (that guess, then perfect",
        "play) than the best move; *reach* is how many of the board's layouts arrive there when",
        f"`{strategy}` plays them, *lost* how many that one guess gives away. The losses of a board add",
        f"up exactly to its shortfall, perfect minus `{strategy}`. The patterns behind them:",
        "`docs/strategies.md`.",
        "",
        "```sh",
        command,
        "```",
        "",
        "| board | layouts | perfect | " + strategy + " | shortfall | guess positions | gaps |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for b in boards:
        short = b["perfect"] - b["wins"]
        out.append(f"| {b['board']} | {b['layouts']} | {b['perfect']} | {b['wins']} | {short} "
                   f"({100 * short / b['layouts']:.2f} pp) | {b['guesses']} | {b['gaps']} |")
    lost = sum(g["lost"] for g in found)
    equal = [g for g in found if g.get("equal_risk")]
    out += [
        "",
        "## Why",
        "",
        f"- {len(equal)} of the {len(found)} gaps ({sum(g['lost'] for g in equal)} of the {lost} layouts "
        f"lost) are a choice among equally safe cells: `{strategy}`'s guess has exactly the mine probability "
        "of the better moves.",
    ]
    for why, meaning in (
        ("not looked at", "no better move was among the cells its look-ahead scored"),
        ("tied", "its look-ahead gave a better move the same score, and the tie went row-major"),
        ("ranked lower", "its look-ahead scored a better move, and scored it lower"),
    ):
        these = [g for g in found if g.get("why") == why]
        if these:
            n = len(these)
            out.append(f"- *{why}*: {n} gap{'s' if n != 1 else ''}, {sum(g['lost'] for g in these)} layouts: "
                       f"{meaning}.")
    out += [
        "",
        f"## The largest gaps (of {len(found)}), as a share of their board's games",
        "",
        "*scores*: the look-ahead's score (the chance to survive this guess and the next) of the move",
        "and of the better moves it scored.",
        "",
        "| # | board | reach | perfect | move | wins | better moves | lost | pp of the board | why | scores "
        "| picture |",
        "| ---: | --- | ---: | ---: | --- | ---: | --- | ---: | ---: | --- | --- | --- |",
    ]
    for k, g in enumerate(found[:40]):
        risks = g["risk"]
        better = " ".join(f"{c} ({risks[c]:.0%})" for c in g["optimal"][:6])
        if len(g["optimal"]) > 6:
            better += " ..."
        picture = f"[svg]({g['picture']})" if "picture" in g else ""
        scores = ", ".join(f"{c} {v:.4f}" for c, v in g.get("scores", {}).items())
        out.append(f"| {k + 1} | {g['board']} | {g['reach']} | {g['perfect']} | {g['move']} "
                   f"({risks[g['move']]:.0%}) | {g['chosen']} | {better} | {g['lost']} | "
                   f"{g['share_pp']:.3f} | {g.get('why', '')} | {scores} | {picture} |")
    return "\n".join(out) + "\n"


def compare(table_path: Path, strategies: list[str], max_layouts: int, rule: str) -> None:
    """Exact wins of each strategy on the table's rows under ``rule``, beside perfect play."""
    rows = [r for r in json.loads(table_path.read_text())["rows"]
            if r.get("status") == "done" and r["rule"] == rule and r["layouts"] <= max_layouts]
    print(f"{rule} rows of {table_path} with at most {max_layouts} layouts, from each row's start")
    print(" | ".join(["board", "start", "layouts", "perfect", *strategies]))
    short = dict.fromkeys(strategies, 0)
    seconds = dict.fromkeys(strategies, 0.0)
    for r in rows:
        start = tuple(r["start"])
        cells = []
        for name in strategies:
            count = strategy_wins(r["rows"], r["cols"], r["mines"], rule=rule, start=start, strategy=name)
            short[name] += r["wins"] - count.wins
            seconds[name] += count.seconds
            cells.append(str(count.wins))
        board = f"{r['rows']}x{r['cols']}/{r['mines']}"
        print(" | ".join([board, cell_name(start), str(r["layouts"]), str(r["wins"]), *cells]), flush=True)
    print("shortfall against perfect play, in layouts: "
          + ", ".join(f"{name} {short[name]} ({seconds[name]:.0f} s)" for name in strategies))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--before", help="also run the source of this git revision, case by case")
    p.add_argument("--limit", type=float, default=300.0, help="CPU seconds a run may take")
    p.add_argument("--case", action="append", type=parse_case, default=None,
                   help="run this case instead of the built-in list: RxC/MINES:RULE:ROW,COL (repeatable)")
    p = sub.add_parser("largest")
    p.add_argument("--limit", type=float, default=600.0)
    p = sub.add_parser("table")
    p.add_argument("--out", type=Path, default=Path("reports/perfect"))
    p.add_argument("--max-states", type=int, default=1_500_000)
    p.add_argument("--only", help="one board size, as RxC")
    p.add_argument("--from-cells", type=int, default=0, help="only boards of at least this many cells")
    p.add_argument("--merge", type=Path, nargs="*", default=None,
                   help="add the rows of these tables (made elsewhere) to OUT and rewrite it; nothing is run "
                        "(with no file: rewrite OUT.md from OUT.json)")
    p = sub.add_parser("recount", help="count a strategy again where it fell short (after changing it)")
    p.add_argument("--out", type=Path, default=Path("reports/perfect"))
    p.add_argument("--strategy", default="best")
    p.add_argument("--max-cells", type=int, default=36)
    sub.add_parser("verify")
    p = sub.add_parser("gaps")
    p.add_argument("--table", type=Path, default=Path("reports/perfect.json"))
    p.add_argument("--out", type=Path, default=Path("reports/perfect-gaps"))
    p.add_argument("--strategy", default="best")
    p.add_argument("--render", action="store_true",
                   help="rewrite OUT.md and the pictures from OUT.json (no search)")
    p = sub.add_parser("compare", help="exact wins of several strategies on the table's rows")
    p.add_argument("--table", type=Path, default=Path("reports/perfect.json"))
    p.add_argument("--strategies", required=True, help="comma-separated strategy names")
    p.add_argument("--max-layouts", type=int, default=200_000)
    p.add_argument("--rule", default="safe", choices=[r.value for r in RULES])
    args = parser.parse_args()
    if args.mode == "compare":
        compare(args.table, args.strategies.split(","), args.max_layouts, args.rule)
    elif args.mode == "speed":
        speed(args.before, args.limit, args.case)
    elif args.mode == "largest":
        largest(args.limit)
    elif args.mode == "table":
        table(args.out, args.max_states, args.only, args.from_cells, args.merge)
    elif args.mode == "recount":
        recount(args.out, args.strategy, args.max_cells)
    elif args.mode == "gaps" and args.render:
        saved = json.loads(args.out.with_suffix(".json").read_text())
        write_gaps(args.out, saved["boards"], saved["gaps"], saved["command"], saved["strategy"])
    elif args.mode == "gaps":
        gaps(args.table, args.out, args.strategy)
    else:
        verify()


if __name__ == "__main__":
    try:
        main()
    except PastBudget as err:
        raise SystemExit(f"perfect.py: {err}") from None
