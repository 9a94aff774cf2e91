"""The corpus of ``benchmarks/faces.py``: the inputs, the command lines and the web requests.

Every ``minesat`` command with its main options, and bad input of each kind: a missing file, a
directory, a malformed board (a line and column to name), bad option values, budgets exceeded.
The inputs are the same bytes for both trees compared: this checkout's puzzles, the sample
replays of ``/work/shared/replays`` and the small boards below.

    python benchmarks/faces.py --list      # the corpus, one command line or request a line
"""

from __future__ import annotations

import base64
import hashlib
import os
import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
#: The sample replays: beside the repository, or where MINESAT_SAMPLE_REPLAYS says (as the tests find them).
REPLAYS = Path(os.environ.get("MINESAT_SAMPLE_REPLAYS") or ROOT.parent.parent / "shared" / "replays")
#: Replays reviewed by ``replay`` (the 36x60 sample takes minutes and is left out).
SHORT_REPLAYS = [
    "arbiter-beginner-15s.avf", "arbiter-beginner-9s.avf", "arbiter-custom-11x8.avf",
    "arbiter-expert-49s.avf", "clone-expert-38s.mvf", "vienna-rmv1_utf8_basic.rmv",
    "vienna-rmv1_utf8_invalid.rmv", "vienna-rmv2_16px_preflags.rmv", "vienna-rmv2_24px.rmv",
    "vienna-rmv2_24px_preflags.rmv", "vienna-rmv2_utf8_nonascii.rmv",
]
#: Written files read back as replays (their bytes hold the time they were written).
REPLAY_SUFFIXES = {".avf", ".rmv", ".mvf", ".evf"}


def sample(name: str) -> bytes:
    """A sample replay's bytes (none where the samples are not there: faces.py refuses to run then)."""
    path = REPLAYS / name
    return path.read_bytes() if path.exists() else b""


# --- the inputs every case finds in its directory -----------------------------------------


def big_position(rows: int, cols: int, seed: int) -> str:
    """A position of ``rows`` x ``cols``, 16 % mines, the left half uncovered (its mines covered)."""
    rnd = random.Random(seed)
    mine = [[rnd.random() < 0.16 for _ in range(cols)] for _ in range(rows)]
    total = sum(map(sum, mine))
    lines = [f"# mines: {total}"]
    for r in range(rows):
        line = []
        for c in range(cols):
            if mine[r][c] or c >= cols // 2:
                line.append("?")
                continue
            n = sum(
                mine[rr][cc]
                for rr in range(max(0, r - 1), min(rows, r + 2))
                for cc in range(max(0, c - 1), min(cols, c + 2))
            )
            line.append(str(n) if n else ".")
        lines.append("".join(line))
    return "\n".join(lines) + "\n"


#: Small files written into every case's directory: good boards and broken ones.
WRITTEN: dict[str, str | bytes] = {
    "tiny.txt": "# mines: 1\n1?\n??\n",
    "tiny-nototal.txt": "1?\n??\n",
    "small.txt": "# mines: 2\n1??\n???\n???\n",
    "perfect-3x3.txt": "# mines: 1\n1??\n???\n???\n",
    "inconsistent.txt": "# mines: 1\n3?\n??\n",
    "too-many.txt": "# mines: 9\n1?\n??\n",
    "bad-char.txt": "# mines: 2\n1??\n?x?\n???\n",
    "ragged.txt": "# mines: 2\n1??\n??\n???\n",
    "bad-header.txt": "# mines: lots\n1?\n??\n",
    "empty.txt": "",
    "bad.json": '{"rows": 2, "cols": 2, "cells": ["?", ',
    "bad-cells.json": '{"rows": 2, "cols": 2, "cells": ["?", "?", "?", "q"]}',
    "bad.mine": "this is not a mine file\n",
    "bad.mbf": b"\x01\x02",
    "layout-small.txt": "*..\n...\n..*\n",
    "layout-as-position.txt": "1?\n??\n",
    "boards-bad.jsonl": (
        '{"game": 0, "seed": 1, "rows": 3, "cols": 3, "mines": [[0, 0]]}\n'
        '{"game": 1, "rows": 3\n'
    ),
    "not-a-db.sqlite": "this is not a database\n",
    "references.csv": (
        "source,rows,cols,mines,rule,start,rate,games,low,high\n"
        'here,9,9,10,opening,"3,3",0.9,1000,,\n'
        'there,16,16,40,opening,"3,3",0.8,,0.75,0.85\n'
    ),
    "references-bad.csv": (
        "source,rows,cols,mines,rule,start,rate,games,low,high\n"
        'here,9,9,10,opening,"3,3",0.9,1000,,\n'
        'bad,9,9,10,opening,"3,3",ninety,1000,,\n'
    ),
    "big-160.txt": big_position(160, 160, 1),
    "play-script.txt": (
        "show\nuncover E5\nhint\nflag A1\nunflag A1\nshow\nuncover Z99\nfrob\nchord E5\nquit\n"
    ),
}


def write_inputs(work: Path) -> dict[str, str]:
    """Fill ``work`` with the inputs; their names and digests (to tell outputs from inputs)."""
    for path in sorted(PUZZLES.iterdir()):
        if path.is_file() and path.suffix != ".py":
            shutil.copy(path, work / path.name)
    for name in SHORT_REPLAYS:
        if (REPLAYS / name).exists():
            shutil.copy(REPLAYS / name, work / name)
    (work / "truncated.avf").write_bytes(sample("arbiter-beginner-9s.avf")[:300])
    (work / "garbage.rmv").write_bytes(b"not a replay at all" * 10)
    for name, content in WRITTEN.items():
        target = work / name
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
    (work / "a-directory").mkdir()
    return snapshot(work)


def snapshot(work: Path) -> dict[str, str]:
    return {
        str(p.relative_to(work)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(work.rglob("*")) if p.is_file()
    }


# --- the corpus -----------------------------------------------------------------------


@dataclass
class Step:
    """One command line (``minesat`` left out) and what it reads on stdin."""

    argv: list[str]
    stdin: str | bytes = ""
    timeout: float = 600.0


@dataclass
class Case:
    name: str
    steps: list[Step]


def cases() -> list[Case]:
    """Every command, its main options, and bad input of each kind."""
    out: list[Case] = []

    def add(name: str, *argv: str, stdin: str | bytes = "") -> None:
        out.append(Case(name, [Step(list(argv), stdin)]))

    def chain(name: str, *steps: list[str]) -> None:
        out.append(Case(name, [Step(s) for s in steps]))

    # The top level.
    add("version", "--version")
    add("help", "--help")
    add("no-command")
    add("unknown-command", "frobnicate")
    for command in ["analyze", "show", "convert", "export", "generate", "metrics", "perfect", "play",
                    "replay", "report", "serve", "simulate", "solve", "sweep"]:
        add(f"{command} --help", command, "--help")
        add(f"{command} -h", command, "-h")
        add(f"{command} --bogus-option", command, "--bogus-option")

    # analyze
    for name in ["mines.dat", "partial.dat", "solution.dat", "beginner-mid.txt", "endgame-count.txt",
                 "intermediate-mid.txt", "intermediate-mid.json", "expert-early.txt", "expert-mid.txt",
                 "expert-mid.mine", "expert-late.txt", "tiny.txt", "tiny-nototal.txt"]:
        add(f"analyze {name}", "analyze", name)
        add(f"analyze {name} --json", "analyze", name, "--json")
    add("analyze several --json", "analyze", "tiny.txt", "missing.txt", "a-directory", "bad-char.txt",
        "inconsistent.txt", "partial.dat", "--json")
    add("analyze several", "analyze", "tiny.txt", "missing.txt", "partial.dat")
    add("analyze --mines", "analyze", "tiny-nototal.txt", "--mines", "2", "--json")
    add("analyze -m bad", "analyze", "tiny.txt", "-m", "x")
    add("analyze -m too many", "analyze", "tiny.txt", "-m", "9")
    add("analyze --explain name", "analyze", "partial.dat", "--explain", "A7")
    add("analyze --explain name --json", "analyze", "partial.dat", "--explain", "A5", "--json")
    add("analyze --explain row,col", "analyze", "endgame-count.txt", "--explain", "0,0", "--json")
    add("analyze --explain uncovered", "analyze", "partial.dat", "--explain", "C3")
    add("analyze --explain uncertain", "analyze", "tiny.txt", "--explain", "B2")
    add("analyze --explain bad cell", "analyze", "tiny.txt", "--explain", "Z99")
    add("analyze --explain not a cell", "analyze", "tiny.txt", "--explain", "hello")
    add("analyze --format mine", "analyze", "expert-mid.mine", "--format", "mine", "--json")
    add("analyze --format bogus", "analyze", "tiny.txt", "--format", "bogus")
    add("analyze --svg file", "analyze", "partial.dat", "--svg", "out.svg")
    add("analyze --svg -", "analyze", "beginner-mid.txt", "--svg", "-")
    add("analyze --svg two files", "analyze", "tiny.txt", "partial.dat", "--svg", "out.svg")
    add("analyze stdin", "analyze", "-", "--json", stdin=WRITTEN["small.txt"])  # type: ignore[arg-type]
    add("analyze missing", "analyze", "missing.txt")
    add("analyze directory", "analyze", "a-directory")
    add("analyze bad char", "analyze", "bad-char.txt")
    add("analyze bad char --json", "analyze", "bad-char.txt", "--json")
    add("analyze ragged", "analyze", "ragged.txt")
    add("analyze bad header", "analyze", "bad-header.txt")
    add("analyze empty", "analyze", "empty.txt")
    add("analyze bad json", "analyze", "bad.json")
    add("analyze bad json cells", "analyze", "bad-cells.json")
    add("analyze bad mine", "analyze", "bad.mine")
    add("analyze inconsistent", "analyze", "inconsistent.txt")
    add("analyze inconsistent --json", "analyze", "inconsistent.txt", "--json")
    add("analyze too many mines", "analyze", "too-many.txt")
    add("analyze big", "analyze", "big-160.txt", "--json")
    add("analyze big --time-limit too small", "analyze", "big-160.txt", "--time-limit", "0.001")
    add("analyze --time-limit negative", "analyze", "tiny.txt", "--time-limit", "-1")
    add("analyze --max-memory too small", "analyze", "big-160.txt", "--max-memory", "1")
    add("analyze --max-memory bad", "analyze", "tiny.txt", "--max-memory", "lots")

    # show
    for name in ["partial.dat", "solution.dat", "expert-mid.mine", "intermediate-mid.json", "tiny.txt"]:
        add(f"show {name}", "show", name)
    add("show --layout", "show", "beginner-mid.layout.txt", "--layout")
    add("show mbf", "show", "expert-late.mbf")
    add("show -f text", "show", "partial.dat", "-f", "text")
    add("show -f bogus", "show", "partial.dat", "-f", "bogus")
    add("show missing", "show", "missing.txt")
    add("show bad char", "show", "bad-char.txt")
    add("show bad mbf", "show", "bad.mbf")
    add("show layout as position", "show", "mines.dat")
    add("show --layout of a position", "show", "tiny.txt", "--layout")

    # convert
    add("convert txt mine", "convert", "expert-mid.txt", "out.mine")
    add("convert txt json", "convert", "partial.dat", "out.json")
    add("convert mine -", "convert", "expert-mid.mine", "-", "--to", "text")
    add("convert json - json", "convert", "intermediate-mid.json", "-", "--to", "json")
    add("convert layout mbf", "convert", "expert-late.layout.txt", "out.mbf", "--layout")
    add("convert mbf txt", "convert", "expert-late.mbf", "out.txt")
    add("convert mbf -", "convert", "expert-late.mbf", "-")
    add("convert to mbf without --layout", "convert", "partial.dat", "out.mbf")
    add("convert --from --to", "convert", "partial.dat", "out.x", "--from", "text", "--to", "mine")
    add("convert --to bogus", "convert", "partial.dat", "out.txt", "--to", "bogus")
    add("convert unknown extension", "convert", "partial.dat", "out.xyz")
    add("convert missing", "convert", "missing.txt", "out.txt")
    add("convert bad", "convert", "bad-char.txt", "out.json")
    add("convert into a directory", "convert", "partial.dat", "a-directory")
    add("convert into missing dir", "convert", "partial.dat", "no/such/dir/out.txt")

    # generate
    add("generate preset", "generate", "--preset", "beginner", "--count", "3")
    add("generate custom", "generate", "--rows", "5", "--cols", "7", "--mines", "6", "--count", "4",
        "--seed", "9")
    add("generate safe start name", "generate", "--preset", "intermediate", "--count", "2",
        "--first-click", "safe", "--start", "A1")
    add("generate any", "generate", "--preset", "expert", "--count", "2", "--first-click", "any")
    add("generate --out", "generate", "--preset", "beginner", "--count", "5", "--out", "set.jsonl")
    add("generate --no-guess", "generate", "--preset", "beginner", "--count", "3", "--no-guess")
    add("generate --no-guess repair", "generate", "--preset", "beginner", "--count", "2", "--no-guess",
        "--method", "repair")
    add("generate --no-guess no layout", "generate", "--rows", "4", "--cols", "4", "--mines", "6",
        "--count", "1", "--no-guess", "--method", "rejection", "--max-tries", "3")
    # Into a file (whole or not at all): on standard output the boards made in time would be the clock's.
    add("generate --no-guess time limit", "generate", "--preset", "expert", "--count", "400",
        "--no-guess", "--time-limit", "0.05", "--out", "set.jsonl")
    add("generate --count missing", "generate", "--preset", "beginner")
    add("generate --count 0", "generate", "--preset", "beginner", "--count", "0")
    add("generate --count 2.5", "generate", "--preset", "beginner", "--count", "2.5")
    add("generate --seed -1", "generate", "--preset", "beginner", "--count", "1", "--seed", "-1")
    add("generate too many mines", "generate", "--rows", "9", "--cols", "9", "--mines", "80", "--count", "1")
    add("generate --start off board", "generate", "--preset", "beginner", "--count", "1", "--start", "Z99")
    add("generate --start bad", "generate", "--preset", "beginner", "--count", "1", "--start", "3;3")
    add("generate --first-click bogus", "generate", "--preset", "beginner", "--count", "1",
        "--first-click", "bogus")
    add("generate --method bogus", "generate", "--preset", "beginner", "--count", "1", "--no-guess",
        "--method", "bogus")
    add("generate --method without --no-guess", "generate", "--preset", "beginner", "--count", "1",
        "--method", "repair")
    add("generate preset and rows", "generate", "--preset", "beginner", "--rows", "5", "--count", "1")
    add("generate --preset bogus", "generate", "--preset", "huge", "--count", "1")
    add("generate no size", "generate", "--count", "1")

    # metrics
    add("metrics layouts", "metrics", "mines.dat", "beginner-mid.layout.txt", "expert-late.mbf")
    add("metrics --json", "metrics", "mines.dat", "expert-mid.layout.txt", "--json")
    chain("metrics board set", ["generate", "--preset", "beginner", "--count", "4", "--out", "set.jsonl"],
          ["metrics", "set.jsonl", "--json"], ["metrics", "set.jsonl"])
    add("metrics bad among good", "metrics", "mines.dat", "missing.txt", "bad-char.txt", "boards-bad.jsonl",
        "layout-small.txt")
    add("metrics bad among good --json", "metrics", "mines.dat", "missing.txt", "boards-bad.jsonl", "--json")
    add("metrics position", "metrics", "tiny.txt")

    # perfect
    add("perfect 2x3", "perfect", "--rows", "2", "--cols", "3", "--mines", "1")
    add("perfect 3x3 --json", "perfect", "--rows", "3", "--cols", "3", "--mines", "2", "--json")
    add("perfect 3x4 --start", "perfect", "--rows", "3", "--cols", "4", "--mines", "3", "--start", "A1",
        "--strategy", "safest", "--strategy", "best", "--json")
    add("perfect safe any", "perfect", "--rows", "3", "--cols", "3", "--mines", "2", "--first-click", "any",
        "--top", "0")
    add("perfect position", "perfect", "perfect-3x3.txt")
    add("perfect position --json", "perfect", "perfect-3x3.txt", "--json", "--strategy", "safest")
    add("perfect position tiny", "perfect", "tiny.txt", "--json")
    add("perfect position no total", "perfect", "tiny-nototal.txt")
    add("perfect position --mines", "perfect", "tiny-nototal.txt", "--mines", "1", "--json")
    add("perfect inconsistent", "perfect", "inconsistent.txt")
    add("perfect --max-states", "perfect", "--rows", "4", "--cols", "4", "--mines", "3", "--max-states", "10")
    add("perfect --max-states --json", "perfect", "--rows", "4", "--cols", "4", "--mines", "3",
        "--max-states", "10", "--json")
    add("perfect --max-states 0", "perfect", "--rows", "2", "--cols", "3", "--mines", "1",
        "--max-states", "0")
    add("perfect too many layouts", "perfect", "expert-early.txt")
    add("perfect --workers 2", "perfect", "--rows", "3", "--cols", "4", "--mines", "2", "--workers", "2",
        "--json")
    add("perfect --strategy bogus", "perfect", "--rows", "2", "--cols", "3", "--mines", "1",
        "--strategy", "bogus")
    add("perfect no size", "perfect")
    add("perfect missing file", "perfect", "missing.txt")
    add("perfect bad char", "perfect", "bad-char.txt")
    add("perfect --workers and --scheduler", "perfect", "--rows", "2", "--cols", "3", "--mines", "1",
        "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    add("perfect --time-limit negative", "perfect", "--rows", "2", "--cols", "3", "--mines", "1",
        "--time-limit", "-1")

    # play
    script = WRITTEN["play-script.txt"]
    assert isinstance(script, str)
    add("play beginner", "play", "--seed", "1", stdin=script)
    add("play custom", "play", "--rows", "5", "--cols", "5", "--mines", "3", "--seed", "7",
        "--first-click", "safe", stdin="uncover C3\nshow\nhint\nquit\n")
    add("play new", "play", "--seed", "2", stdin="new 4 4 2\nuncover A1\nshow\nhelp\nquit\n")
    add("play to the end", "play", "--rows", "3", "--cols", "3", "--mines", "1", "--seed", "3",
        "--first-click", "safe",
        stdin="".join(f"uncover {r}{c}\n" for r in "ABC" for c in "123") + "show\n")
    add("play bad preset", "play", "--preset", "huge")
    add("play --seed -1", "play", "--seed", "-1", stdin="quit\n")

    # replay
    for name in SHORT_REPLAYS:
        add(f"replay {name}", "replay", name)
    add("replay --json", "replay", "arbiter-beginner-9s.avf", "--json")
    add("replay --json mvf", "replay", "clone-expert-38s.mvf", "--json")
    add("replay --json rmv preflags", "replay", "vienna-rmv2_16px_preflags.rmv", "--json")
    add("replay --moves", "replay", "arbiter-custom-11x8.avf", "--moves")
    add("replay --html", "replay", "arbiter-beginner-15s.avf", "--html", "game.html")
    add("replay --html -", "replay", "vienna-rmv2_24px.rmv", "--html", "-")
    add("replay several --html dir", "replay", "arbiter-beginner-9s.avf", "vienna-rmv2_24px.rmv",
        "--html", "pages")
    add("replay several --json with bad", "replay", "arbiter-beginner-9s.avf", "missing.avf", "truncated.avf",
        "garbage.rmv", "--json")
    add("replay stdin", "replay", "-", "--format", "avf", "--json",
        stdin=sample("arbiter-beginner-9s.avf"))
    add("replay truncated", "replay", "truncated.avf")
    add("replay garbage", "replay", "garbage.rmv")
    add("replay unknown extension", "replay", "tiny.txt")
    add("replay --format bogus", "replay", "arbiter-beginner-9s.avf", "--format", "bogus")
    add("replay missing", "replay", "missing.avf")

    # solve
    add("solve layout", "solve", "beginner-mid.layout.txt")
    add("solve --json", "solve", "expert-mid.layout.txt", "--json")
    add("solve --start --first-click", "solve", "intermediate-mid.layout.txt", "--start", "H8",
        "--first-click", "opening", "--json")
    add("solve --start row,col", "solve", "mines.dat", "--start", "0,0", "--strategy", "safest")
    add("solve --oracle", "solve", "expert-late.layout.txt", "--oracle")
    add("solve --oracle --json", "solve", "beginner-mid.layout.txt", "--oracle", "--json")
    add("solve mbf", "solve", "expert-late.mbf", "--json")
    add("solve --html", "solve", "beginner-mid.layout.txt", "--html", "game.html")
    add("solve --html -", "solve", "layout-small.txt", "--html", "-")
    add("solve --save-replay evf", "solve", "beginner-mid.layout.txt", "--save-replay", "game.evf")
    add("solve --save-replay rmv", "solve", "beginner-mid.layout.txt", "--save-replay", "game.rmv")
    chain("solve replay round trip", ["solve", "expert-mid.layout.txt", "--save-replay", "game.evf"],
          ["replay", "game.evf", "--json"])
    add("solve --save-replay bad ext", "solve", "beginner-mid.layout.txt", "--save-replay", "game.txt")
    add("solve --save-replay -", "solve", "beginner-mid.layout.txt", "--save-replay", "-")
    add("solve position", "solve", "layout-as-position.txt")
    add("solve missing", "solve", "missing.txt")
    add("solve --start off board", "solve", "mines.dat", "--start", "Z9")
    add("solve --start on a mine", "solve", "layout-small.txt", "--start", "A1", "--json")
    add("solve --strategy bogus", "solve", "mines.dat", "--strategy", "bogus")
    add("solve --strategy piece", "solve", "expert-mid.layout.txt", "--strategy", "best-no-endgame", "--json")
    add("solve --strategy bad piece", "solve", "mines.dat", "--strategy", "best-no-nothing")

    # simulate, export, report
    sim = ["simulate", "--preset", "beginner", "--games", "12", "--workers", "1"]
    chain("simulate text", [*sim, "--db", "a.sqlite"])
    chain("simulate --json resume", [*sim, "--db", "a.sqlite", "--json"],
          ["simulate", "--preset", "beginner", "--games", "20", "--workers", "1", "--db", "a.sqlite",
           "--json"])
    chain("simulate --workers 2", ["simulate", "--preset", "beginner", "--games", "10", "--workers", "2",
                                   "--db", "w.sqlite", "--json"], ["export", "w.sqlite"])
    chain("simulate default db", ["simulate", "--rows", "5", "--cols", "6", "--mines", "4", "--games", "5",
                                  "--workers", "1", "--seed", "3"])
    chain("simulate safe start strategy", ["simulate", "--preset", "intermediate", "--games", "4",
                                           "--workers", "1", "--first-click", "safe", "--start", "A1",
                                           "--strategy", "safest",
                                           "--db", "s.sqlite", "--json"], ["export", "s.sqlite", "--guesses"])
    chain("simulate --boards", ["generate", "--preset", "beginner", "--count", "6", "--out", "set.jsonl"],
          ["simulate", "--boards", "set.jsonl", "--workers", "1", "--db", "b.sqlite", "--json"],
          ["export", "b.sqlite", "--csv"])
    chain("simulate --boards --no-guess", ["generate", "--preset", "beginner", "--count", "3", "--no-guess",
                                           "--out", "ng.jsonl"],
          ["simulate", "--boards", "ng.jsonl", "--workers", "1", "--db", "ng.sqlite"])
    add("simulate --boards bad", "simulate", "--boards", "boards-bad.jsonl", "--workers", "1", "--db",
        "x.sqlite")
    add("simulate --games 2.5", "simulate", "--preset", "beginner", "--games", "2.5", "--db", "x.sqlite")
    add("simulate --games 0", "simulate", "--preset", "beginner", "--games", "0", "--db", "x.sqlite")
    add("simulate --seed -1", "simulate", "--preset", "beginner", "--games", "2", "--seed", "-1")
    add("simulate --strategy bogus", "simulate", "--preset", "beginner", "--games", "2",
        "--strategy", "bogus",
        "--db", "x.sqlite")
    add("simulate --db -", "simulate", "--preset", "beginner", "--games", "2", "--db", "-")
    add("simulate --db directory", "simulate", "--preset", "beginner", "--games", "2", "--db", "a-directory")
    add("simulate --db not a db", "simulate", "--preset", "beginner", "--games", "2", "--workers", "1",
        "--db", "not-a-db.sqlite")
    add("simulate too many mines", "simulate", "--rows", "9", "--cols", "9", "--mines", "80", "--games", "2")
    add("simulate --workers and --scheduler", "simulate", "--preset", "beginner", "--games", "2", "--workers",
        "2", "--scheduler", "tcp://127.0.0.1:1", "--db", "x.sqlite")
    add("simulate --workers 0", "simulate", "--preset", "beginner", "--games", "2", "--workers", "0",
        "--db", "x.sqlite")
    add("simulate no size", "simulate", "--games", "2", "--db", "x.sqlite")
    chain("simulate resume other options", [*sim, "--db", "a.sqlite"],
          ["simulate", "--preset", "beginner", "--games", "12", "--workers", "1", "--seed", "5", "--db",
           "a.sqlite"])

    chain("export", [*sim, "--db", "a.sqlite"], ["export", "a.sqlite"], ["export", "a.sqlite", "--csv"],
          ["export", "a.sqlite", "--guesses"], ["export", "a.sqlite", "--guesses", "--csv", "--out", "g.csv"],
          ["export", "a.sqlite", "--out", "e.jsonl"], ["export", "a.sqlite", "--out", "-"],
          ["export", "a.sqlite", "--out", "e.parquet"])
    add("export missing", "export", "missing.sqlite")
    add("export not a db", "export", "not-a-db.sqlite")
    add("export directory", "export", "a-directory")
    chain("export --out into a directory", [*sim, "--db", "a.sqlite"], ["export", "a.sqlite", "--out",
                                                                         "a-directory"])

    safest = ["simulate", "--preset", "beginner", "--games", "12", "--workers", "1", "--strategy", "safest"]
    two = [[*sim, "--db", "best.sqlite"], [*safest, "--db", "safest.sqlite"]]
    chain("report one", two[0], ["report", "best.sqlite"], ["report", "best.sqlite", "--json"])
    chain("report paired", *two, ["report", "best.sqlite", "safest.sqlite"],
          ["report", "best.sqlite", "safest.sqlite", "--json"])
    chain("report --out md json html", *two, ["report", "best.sqlite", "safest.sqlite", "--out", "r.md"],
          ["report", "best.sqlite", "safest.sqlite", "--out", "r.json"],
          ["report", "best.sqlite", "safest.sqlite", "--out", "r.html"])
    chain("report compared", two[0],
          ["simulate", "--preset", "intermediate", "--games", "4", "--workers", "1", "--db", "int.sqlite"],
          ["report", "best.sqlite", "int.sqlite", "--json"])
    chain("report --reference", two[0], ["report", "best.sqlite", "--reference", "references.csv", "--json"],
          ["report", "best.sqlite", "--reference", "references.csv"])
    chain("report --reference bad", two[0], ["report", "best.sqlite", "--reference", "references-bad.csv"])
    chain("report --reference missing", two[0], ["report", "best.sqlite", "--reference", "missing.csv"])
    add("report missing", "report", "missing.sqlite")
    add("report not a db", "report", "not-a-db.sqlite")
    chain("report --out bad extension", two[0], ["report", "best.sqlite", "--out", "r.pdf"])
    chain("report --out directory", two[0], ["report", "best.sqlite", "--out", "a-directory"])
    chain("report --out missing dir", two[0], ["report", "best.sqlite", "--out", "no/such/r.html"])

    # sweep
    sweep = ["sweep", "--preset", "beginner", "--games", "5", "--workers", "1"]
    chain("sweep mines --json", [*sweep, "--mines", "5,10", "--db", "sw", "--json"])
    chain("sweep density text", [*sweep, "--density", "0.1:0.2:0.05", "--db", "sw"])
    chain("sweep two curves --out", ["sweep", "--size", "6x6", "--games", "4", "--workers", "1", "--mines",
                                     "3:9:3", "--strategy", "best,safest", "--first-click", "opening,safe",
                                     "--db", "sw", "--out", "s.json"],
          ["sweep", "--size", "6x6", "--games", "4", "--workers", "1", "--mines", "3:9:3", "--strategy",
           "best,safest", "--first-click", "opening,safe", "--db", "sw", "--out", "s.md",
           "--x-axis", "mines"],
          ["sweep", "--size", "6x6", "--games", "4", "--workers", "1", "--mines", "3:9:3", "--strategy",
           "best,safest", "--first-click", "opening,safe", "--db", "sw", "--out", "s.html",
           "--x-axis", "effective-density"])
    chain("sweep rows cols start", ["sweep", "--rows", "5", "--cols", "7", "--games", "3", "--workers", "1",
                                    "--density", "0.1,0.2", "--start", "A1", "--db", "sw", "--json"])
    add("sweep no mines", *sweep, "--db", "sw")
    add("sweep --density 2", *sweep, "--density", "2", "--db", "sw")
    add("sweep --mines bad range", *sweep, "--mines", "9:1:1", "--db", "sw")
    add("sweep --mines garbage", *sweep, "--mines", "a,b", "--db", "sw")
    add("sweep --size bad", "sweep", "--size", "6by6", "--games", "2", "--mines", "3", "--db", "sw")
    add("sweep --x-axis bogus", *sweep, "--mines", "5", "--x-axis", "bogus", "--db", "sw")
    add("sweep --strategy bogus", *sweep, "--mines", "5", "--strategy", "best,bogus", "--db", "sw")
    add("sweep --games missing", "sweep", "--preset", "beginner", "--mines", "5", "--db", "sw")
    add("sweep too many mines", *sweep, "--mines", "80", "--db", "sw")

    # serve (the server itself is tried in the web part)
    add("serve --port bad", "serve", "--port", "70000")
    add("serve --port word", "serve", "--port", "http")
    return out


# --- the web API ------------------------------------------------------------------------


@dataclass
class Request:
    """One request: the method, the path (``{id}`` the last game made, ``{job}`` the last replay job)."""

    name: str
    path: str
    body: Any = None  # a JSON value, or bytes sent as they are
    method: str = "POST"


def requests() -> list[Request]:
    """The API's requests: every endpoint, good and bad."""
    out: list[Request] = []

    def board(name: str) -> str:
        text = (PUZZLES / name).read_text() if (PUZZLES / name).exists() else WRITTEN[name]
        assert isinstance(text, str)
        return text

    for name in ["partial.dat", "beginner-mid.txt", "endgame-count.txt", "intermediate-mid.txt",
                 "expert-mid.txt",
                 "expert-late.txt", "tiny.txt", "small.txt"]:
        out.append(Request(f"analyze {name}", "/api/analyze", {"board": board(name)}))
    out += [
        Request("analyze marks", "/api/analyze", {"board": board("expert-mid.txt"), "marks": True}),
        Request("analyze marks small", "/api/analyze", {"board": "1??\n???\n", "mines": 1, "marks": True}),
        Request("analyze mines", "/api/analyze", {"board": board("tiny-nototal.txt"), "mines": 2}),
        Request("analyze format mine", "/api/analyze", {"board": board("expert-mid.mine"), "format": "mine"}),
        Request("analyze format json", "/api/analyze", {"board": board("intermediate-mid.json"),
                                                        "format": "json"}),
        Request("analyze big", "/api/analyze", {"board": board("big-160.txt")}),
        Request("analyze bad char", "/api/analyze", {"board": board("bad-char.txt")}),
        Request("analyze bad char 2", "/api/analyze", {"board": "1?\n1x\n"}),
        Request("analyze ragged", "/api/analyze", {"board": board("ragged.txt")}),
        Request("analyze bad header", "/api/analyze", {"board": board("bad-header.txt")}),
        Request("analyze bad json board", "/api/analyze", {"board": board("bad.json"), "format": "json"}),
        Request("analyze inconsistent", "/api/analyze", {"board": board("inconsistent.txt")}),
        Request("analyze too many", "/api/analyze", {"board": board("too-many.txt")}),
        Request("analyze no board", "/api/analyze", {}),
        Request("analyze mines bad", "/api/analyze", {"board": "1?\n??\n", "mines": "many"}),
        Request("analyze mines negative", "/api/analyze", {"board": "1?\n??\n", "mines": -1}),
        Request("analyze format bogus", "/api/analyze", {"board": "1?\n??\n", "format": "bogus"}),
        Request("analyze not json", "/api/analyze", b"{not json"),
        Request("analyze not an object", "/api/analyze", [1, 2]),
        Request("analyze too big body", "/api/analyze", b'{"board": "' + b"?" * 1_100_000 + b'"}'),
        Request("position", "/api/position", {"board": board("partial.dat")}),
        Request("position json", "/api/position", {"board": board("intermediate-mid.json"),
                                                   "format": "json"}),
        Request("position bad", "/api/position", {"board": board("bad-char.txt")}),
        Request("explain certain", "/api/explain", {"board": board("partial.dat"), "cell": "A7"}),
        Request("explain mine", "/api/explain", {"board": board("partial.dat"), "cell": "A5"}),
        Request("explain uncertain", "/api/explain", {"board": "1?\n??\n", "mines": 1, "cell": "B2"}),
        Request("explain row,col", "/api/explain", {"board": board("endgame-count.txt"), "cell": "0,0"}),
        Request("explain bad cell", "/api/explain", {"board": "1?\n??\n", "mines": 1, "cell": "Z99"}),
        Request("explain no cell", "/api/explain", {"board": "1?\n??\n", "mines": 1}),
        Request("explain uncovered", "/api/explain", {"board": "1?\n??\n", "mines": 1, "cell": "A1"}),
        Request("best proven", "/api/best", {"board": board("partial.dat")}),
        Request("best guess", "/api/best", {"board": board("tiny.txt")}),
        Request("best no total", "/api/best", {"board": board("tiny-nototal.txt")}),
        Request("best expert", "/api/best", {"board": board("expert-mid.txt")}),
        Request("best inconsistent", "/api/best", {"board": board("inconsistent.txt")}),
        Request("perfect tiny", "/api/perfect", {"board": "1?\n??\n", "mines": 1}),
        Request("perfect 3x3", "/api/perfect", {"board": board("perfect-3x3.txt")}),
        Request("perfect max_states", "/api/perfect", {"board": "1????\n?????\n?????\n?????\n", "mines": 4,
                                                       "max_states": 5}),
        Request("perfect too many layouts", "/api/perfect", {"board": board("expert-early.txt")}),
        Request("perfect no total", "/api/perfect", {"board": "1?\n??\n"}),
        Request("perfect max_states bad", "/api/perfect", {"board": "1?\n??\n", "mines": 1, "max_states": 0}),
        Request("perfect max_states over", "/api/perfect", {"board": "1?\n??\n", "mines": 1,
                                                            "max_states": 10**9}),
        Request("perfect inconsistent", "/api/perfect", {"board": board("inconsistent.txt")}),
    ]
    # Games: made with a seed (and moves), moved, flagged, hinted, auto-played, reviewed.
    out += [
        Request("game beginner", "/api/game", {"preset": "beginner", "seed": "12345"}),
        Request("game early hint", "/api/game/{id}/hint", {}),
        Request("game flag before first", "/api/game/{id}/move", {"move": "A1*"}),
        Request("game first move", "/api/game/{id}/move", {"move": "E5", "hint": True}),
        # (A move's hint's marks are searched for 30 ms of the clock: asked of /hint below instead.)
        Request("game move unflag", "/api/game/{id}/move", {"move": "A1-", "hint": True}),
        Request("game hint", "/api/game/{id}/hint", {}),
        Request("game hint marks", "/api/game/{id}/hint", {"marks": True}),
        Request("game auto 3", "/api/game/{id}/auto", {"moves": 3}),
        Request("game auto no guesses", "/api/game/{id}/auto", {"moves": 1000, "guesses": False}),
        Request("game review after autoplay stopped", "/api/game/{id}/review", {}),
        Request("game auto to end", "/api/game/{id}/auto", {"moves": 1000}),
        Request("game get", "/api/game/{id}", method="GET"),
        Request("game review", "/api/game/{id}/review", {}),
        Request("game move after end", "/api/game/{id}/move", {"move": "A2"}),
        Request("game custom with moves", "/api/game", {"rows": 6, "cols": 7, "mines": 5, "seed": 99,
                                                        "first_click": "safe", "moves": ["D4", "A1*"]}),
        Request("game custom review too early", "/api/game/{id}/review", {}),
        Request("game custom move bad", "/api/game/{id}/move", {"move": "Z99"}),
        Request("game custom move garbage", "/api/game/{id}/move", {"move": "hello"}),
        Request("game custom chord", "/api/game/{id}/move", {"move": "D4+"}),
        Request("game custom auto strategy", "/api/game/{id}/auto", {"moves": 1000, "strategy": "safest",
                                                                     "hint": True}),
        Request("game custom review", "/api/game/{id}/review", {}),
        Request("game layout", "/api/game", {"layout": (PUZZLES / "beginner-mid.layout.txt").read_text(),
                                             "moves": ["D4", "A1"]}),
        Request("game layout auto", "/api/game/{id}/auto", {"moves": 1000}),
        Request("game layout get", "/api/game/{id}", method="GET"),
        Request("game layout mbf", "/api/game", {"layout": base64.b64encode(
            (PUZZLES / "expert-late.mbf").read_bytes()).decode(), "layout_format": "mbf", "moves": ["D4"]}),
        Request("game no-guess", "/api/game", {"preset": "beginner", "seed": "5", "no_guess": True,
                                               "moves": ["E5"]}),
        Request("game no-guess auto", "/api/game/{id}/auto", {"moves": 1000}),
        Request("game no-guess none found", "/api/game", {"rows": 4, "cols": 4, "mines": 9, "seed": 1,
                                                          "no_guess": True, "moves": ["A1"]}),
        Request("game bad move in list", "/api/game", {"preset": "beginner", "seed": 1,
                                                       "moves": ["E5", "Z99"]}),
        Request("game too many mines", "/api/game", {"rows": 9, "cols": 9, "mines": 80}),
        Request("game too big", "/api/game", {"rows": 1000, "cols": 1000, "mines": 10}),
        Request("game bad preset", "/api/game", {"preset": "huge"}),
        Request("game bad rule", "/api/game", {"preset": "beginner", "first_click": "bogus"}),
        Request("game bad seed", "/api/game", {"preset": "beginner", "seed": "abc"}),
        Request("game bad layout", "/api/game", {"layout": "*?x\n"}),
        Request("game unknown", "/api/game/nosuchgame", method="GET"),
        Request("game unknown move", "/api/game/nosuchgame/move", {"move": "A1"}),
        Request("game auto bad moves", "/api/game", {"preset": "beginner", "seed": 3}),
        Request("game auto bad moves 2", "/api/game/{id}/auto", {"moves": 0}),
        Request("game auto bad strategy", "/api/game/{id}/auto", {"strategy": "bogus"}),
        Request("game uncover flagged first", "/api/game", {"preset": "beginner", "seed": 4,
                                                            "moves": ["A1*", "A1"]}),
    ]
    for name in ["arbiter-beginner-9s.avf", "vienna-rmv2_16px_preflags.rmv", "clone-expert-38s.mvf"]:
        out.append(Request(f"replay {name}", f"/api/replay?name={name}", sample(name)))
    out += [
        Request("replay truncated", "/api/replay?name=truncated.avf",
                sample("arbiter-beginner-9s.avf")[:300]),
        Request("replay garbage", "/api/replay?name=garbage.rmv", b"not a replay at all" * 10),
        Request("replay no name", "/api/replay", sample("arbiter-beginner-9s.avf")),
        Request("replay unknown job", "/api/replay/nosuchjob", method="GET"),
        Request("store", "/api/store?name=games.sqlite", "{db}"),
        Request("store game", "/api/store?name=games.sqlite&game=3", "{db}"),
        Request("store unknown game", "/api/store?name=games.sqlite&game=999", "{db}"),
        Request("store not a db", "/api/store?name=x.sqlite", b"this is not a database\n"),
        Request("page", "/", method="GET"),
    ]
    return out


