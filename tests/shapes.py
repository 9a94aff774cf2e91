"""Every board through every face: the shapes, the faces, and what counts as a documented refusal.

The shape sweep (issue 33) plays boards from 1x1 to 1000x1000, thin ones too,
with every mine count from 0 to the most that fit, through each road a user
takes: ``analyze`` on a random consistent position (the library and the
command), one game of each strategy through ``simulate`` and ``solve``,
``perfect`` from a start with a short time limit, and the web API's ``best``,
``game`` and ``hint``. Each must end with an answer or a documented refusal
(:data:`REFUSALS`), never another exception.

``tests/test_shapes.py`` runs a handful of shapes drawn by hypothesis;
``benchmarks/shapes.py`` runs the long sweep, each case in a process of its
own under a memory cap, and prints what it measured. Both call :func:`run_case`.
"""

from __future__ import annotations

import functools
import json
import random
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from minesat.board import Cell, Layout, Position, cell_name
from minesat.game import Game
from minesat.generate import FirstClick, generate_layout, kept_clear

#: The longest side a board file may have (minesat.board.MAX_SIDE).
SIDE = 1000

#: The time limit ``perfect`` is given. How far past it a stop comes is timed by benchmarks/shapes.py,
#: never asserted here (tests/test_perfect_limits.py checks the clock is read, on a fake clock).
PERFECT_LIMIT = 2.0


#: Refusals the documentation promises, by the words that open or carry them: a case that ends in
#: one of these has an answer of a kind (docs/commands/*.md, docs/exit-status.md).
REFUSALS: dict[str, re.Pattern[str]] = {
    "do not fit": re.compile(r"do(es)? not fit"),
    "time limit": re.compile(r"past --time-limit|past the time limit|time limit of"),
    "state budget": re.compile(r"past --max-states|past the state budget|max_states"),
    "memory budget": re.compile(r"past the memory budget|memory budget"),
    "too many layouts": re.compile(r"layouts(, if any fits the position)?: more than|a listing of .* bytes"),
    "busy": re.compile(r"^busy:"),
    "board too large": re.compile(r"too large|at most \d+ (rows|columns|cells)|is at most \d+x\d+"),
    "first click": re.compile(r"first click|opens an area|cannot start"),
    # A board with nothing covered and no number reads as a layout (docs/boards.md).
    "nothing to analyse": re.compile(r"only mines and blank cells, so this is a layout"),
}


def refusal_reason(message: str) -> str | None:
    """The documented refusal ``message`` is, or ``None``."""
    return next((name for name, pattern in REFUSALS.items() if pattern.search(message)), None)


@dataclass(frozen=True)
class Shape:
    rows: int
    cols: int
    mines: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}/{self.mines}"


def most_mines(rows: int, cols: int, rule: FirstClick | str = FirstClick.ANY, start: Cell = (0, 0)) -> int:
    """The most mines a ``rows`` x ``cols`` board holds with ``start`` kept as ``rule`` says."""
    return rows * cols - len(kept_clear(rows, cols, start=start, rule=FirstClick(rule)))


def draw_shape(rng: random.Random, max_cells: int = SIDE * SIDE) -> Shape:
    """A board and mine count, biased towards the edges: tiny, thin (1xN, 2xN, Nx1), square,
    huge; none, one, the most that fit, or a density in between. The long sweep's shapes."""
    kind = rng.choice(("tiny", "thin", "thin", "medium", "square", "huge"))
    if kind == "tiny":
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
    elif kind == "thin":
        rows, cols = rng.choice((1, 1, 2, 3)), rng.choice((rng.randint(1, 60), rng.randint(60, SIDE)))
        if rng.random() < 0.3:
            rows, cols = cols, rows
    elif kind == "medium":
        rows, cols = rng.randint(4, 60), rng.randint(4, 60)
    elif kind == "square":
        rows = cols = rng.choice((8, 16, 30, 40, 50, 60, 100))
    else:
        rows, cols = rng.randint(100, SIDE), rng.randint(100, SIDE)
    while rows * cols > max_cells:
        rows, cols = max(1, rows // 2), max(1, cols // 2)
    return Shape(rows, cols, draw_mines(rng, rows * cols))


def draw_mines(rng: random.Random, cells: int) -> int:
    choice = rng.random()
    if choice < 0.15:
        return 0
    if choice < 0.3:
        return min(1, cells)
    if choice < 0.45:
        return max(0, cells - rng.choice((0, 1, 9)))
    return round(cells * rng.choice((0.01, 0.05, 0.12, 0.2, 0.3, 0.5)))


# --- the faces -------------------------------------------------------------------------------


@dataclass
class Outcome:
    """How a case ended: ``answer``, or ``refusal`` with its documented ``reason``; ``detail`` says more."""

    face: str
    shape: str
    outcome: str
    reason: str = ""
    detail: str = ""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Undocumented(AssertionError):
    """A case ended in something neither an answer nor a documented refusal."""


def _refused(face: str, shape: Shape, message: str) -> Outcome:
    reason = refusal_reason(message)
    if reason is None:
        raise Undocumented(f"{face} on {shape}: {message}")
    return Outcome(face, str(shape), "refusal", reason, message)


@functools.cache
def _command() -> Any:
    import typer.main

    from minesat.cli import app

    return typer.main.get_command(app)  # built once: typer builds it anew on every invoke


def _cli(args: list[str]) -> tuple[int, str, str]:
    """A command run in this process with the arguments a user types: exit status, stdout, stderr.
    (The sweep gives no bad options, so the road through ``minesat.cli.main`` adds nothing.)"""
    from click.testing import CliRunner

    result = CliRunner().invoke(_command(), args, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise Undocumented(f"minesat {' '.join(args)}: {type(result.exception).__name__}: {result.exception}")
    return result.exit_code, result.stdout, result.stderr


def _one_line(face: str, shape: Shape, code: int, err: str) -> str:
    """A refusal on the command line is one line on stderr (no traceback), exit status 1 or 2."""
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("minesat perfect:")]
    if code not in (1, 2) or len(lines) != 1 or "Traceback" in err:
        raise Undocumented(f"{face} on {shape}: exit {code}, stderr {err[-2000:]!r}")
    return lines[0]


def consistent_position(shape: Shape, seed: int) -> tuple[Layout, Position]:
    """A random position of a random layout: a few clicks on safe cells (with their cascades),
    some true mines flagged, the total given or not."""
    rng = random.Random(seed)
    layout = generate_layout(shape.rows, shape.cols, shape.mines, rule="any", seed=seed)
    game = Game(layout)
    safe = shape.cells - shape.mines
    for _ in range(rng.choice((0, 1, 2, 4))):
        if not safe:
            break
        # A random safe cell: draw cells until one is free (few draws unless nearly full).
        for _ in range(50):
            cell = (rng.randrange(shape.rows), rng.randrange(shape.cols))
            if cell not in layout.mines:
                game.uncover(cell)
                break
        if game.over:
            break
    for cell in rng.sample(sorted(layout.mines), min(len(layout.mines), rng.choice((0, 0, 1, 3)))):
        if game.position[cell] < 0:
            game.flag(cell)
    position = game.position
    if rng.random() < 0.5:
        position = position.with_mines(None)
    return layout, position


def analyze_face(shape: Shape, seed: int, work: Path) -> Outcome:
    """``analyze`` on a random consistent position, by the library and by the command: both the
    same, and sound against the layout (a proven-safe cell holds no mine, a proven mine does)."""
    from minesat.analysis import Analyzer
    from minesat.formats import format_position

    layout, position = consistent_position(shape, seed)
    analysis = Analyzer().analyze(position)
    mines = layout.mines
    wrong = [c for c in analysis.safe if c in mines] + [c for c in analysis.mine if c not in mines]
    if wrong:
        raise AssertionError(f"analyze on {shape} (seed {seed}): wrong about {[cell_name(c) for c in wrong]}")
    library = analysis.to_json()
    text = json.dumps(library, allow_nan=False)  # no float overflowed into inf, no NaN
    path = work / f"position-{seed}.txt"
    path.write_text(format_position(position, "text"))
    # The command runs in this process, whose resident memory is the test runner's (boards of
    # earlier cases included): its memory budget gets that on top of the default a fresh
    # `minesat analyze` has, so it is refused only where a user's command would be.
    from minesat.budget import DEFAULT_MAX_MEMORY, resident_bytes

    megabytes = (DEFAULT_MAX_MEMORY + resident_bytes()) // 10**6
    code, out, err = _cli(["analyze", str(path), "--json", "--max-memory", str(megabytes)])
    if code != 0 and not analysis.unknown and not analysis.safe and not analysis.mine:
        return _refused("analyze", shape, _one_line("analyze", shape, code, err))
    if code != 0:
        raise Undocumented(f"analyze on {shape}: exit {code}: {err.strip()}")
    told = json.loads(out)
    for key in ("safe", "mine", "unknown", "mines"):
        if told[key] != library[key]:
            raise AssertionError(f"analyze on {shape}: the command's {key} differs from the library's")
    return Outcome("analyze", str(shape), "answer", detail=f"{len(analysis.safe)} safe, "
                   f"{len(analysis.mine)} mines, {len(text)} bytes of JSON")


def _layout_file(shape: Shape, seed: int, work: Path) -> Path:
    from minesat.formats import format_layout

    layout = generate_layout(shape.rows, shape.cols, shape.mines, rule="any", seed=seed)
    path = work / f"layout-{seed}.txt"
    path.write_text(format_layout(layout, "text"))
    return path


def simulate_face(shape: Shape, seed: int, work: Path, strategy: str) -> Outcome:
    """One game through ``minesat simulate`` (its default first-click rule, opening at 3,3)."""
    db = work / f"sim-{strategy}-{seed}.sqlite"
    args = ["simulate", "--rows", str(shape.rows), "--cols", str(shape.cols), "--mines", str(shape.mines),
            "--games", "1", "--workers", "1", "--seed", str(seed), "--strategy", strategy, "--db", str(db),
            "--json"]
    code, out, err = _cli(args)
    if code == 0:
        summary = json.loads(out.splitlines()[-1])
        return Outcome(f"simulate {strategy}", str(shape), "answer", detail=f"wins {summary['wins']}")
    return _refused(f"simulate {strategy}", shape, _one_line("simulate", shape, code, err))


def solve_face(shape: Shape, seed: int, work: Path, strategy: str) -> Outcome:
    """One game through ``minesat solve`` on a layout file, from A1 (first click ``any``)."""
    path = _layout_file(shape, seed, work)
    code, out, err = _cli(["solve", str(path), "--strategy", strategy, "--start", "A1", "--json"])
    if code == 0:
        game = json.loads(out)
        return Outcome(f"solve {strategy}", str(shape), "answer", detail=f"won {game['won']}, "
                       f"{len(game['moves'])} moves")
    return _refused(f"solve {strategy}", shape, _one_line("solve", shape, code, err))


def perfect_face(shape: Shape, seed: int, work: Path) -> Outcome:
    """``minesat perfect`` from A1 (first click ``safe``) with a short time limit."""
    return _perfect("perfect", shape, ["--rows", str(shape.rows), "--cols", str(shape.cols),
                                       "--mines", str(shape.mines), "--first-click", "safe", "--start", "A1"])


def perfect_position_face(shape: Shape, seed: int, work: Path) -> Outcome:
    """``minesat perfect POSITION_FILE`` on a random consistent position with the total given."""
    from minesat.formats import format_position

    _, position = consistent_position(shape, seed)
    if position.mines is None:
        position = position.with_mines(shape.mines)
    path = work / f"position-{seed}.txt"
    path.write_text(format_position(position, "text"))
    return _perfect("perfect position", shape, [str(path)])


def _perfect(face: str, shape: Shape, args: list[str]) -> Outcome:
    """``minesat perfect ARGS`` with a short time limit: an answer (never more wins than layouts) or
    a one-line refusal."""
    code, out, err = _cli(["perfect", *args, "--time-limit", str(PERFECT_LIMIT), "--json"])
    if code == 0:
        result = json.loads(out)
        if not 0 <= result["wins"] <= result["layouts"]:
            raise AssertionError(f"{face} on {shape}: {result['wins']} wins of {result['layouts']}")
        return Outcome(face, str(shape), "answer", detail=f"{result['wins']} of {result['layouts']}")
    return _refused(face, shape, _one_line(face, shape, code, err))


#: One web app for all the web cases of a process (its worker pools take a while to start).
_CLIENT: Any = None


def _client() -> Any:
    global _CLIENT
    if _CLIENT is None:
        from starlette.testclient import TestClient

        from minesat.web.app import create_app

        _CLIENT = TestClient(create_app(workers=1, perfect_workers=1, allowed_hosts=["testserver"]))
        _CLIENT.__enter__()
    return _CLIENT


def close_client() -> None:
    global _CLIENT
    if _CLIENT is not None:
        _CLIENT.__exit__(None, None, None)
        _CLIENT = None


def _answered(face: str, shape: Shape, response: Any) -> Outcome:
    """200 is an answer; 422 and 503 a refusal with its reason; anything else (500 above all) is not."""
    if response.status_code == 200:
        return Outcome(face, str(shape), "answer")
    message = response.json().get("error", "") if response.headers.get("content-type", "").startswith(
        "application/json") else response.text
    if response.status_code in (400, 422, 503):
        return _refused(face, shape, message)
    raise Undocumented(f"{face} on {shape}: {response.status_code} {message}")


def web_face(shape: Shape, seed: int, work: Path) -> list[Outcome]:
    """The web API: ``/api/best`` on the covered board, then a game: its first move and a hint."""
    client = _client()
    covered = "\n".join("?" * shape.cols for _ in range(shape.rows))
    outcomes = [_answered("web best", shape, client.post("/api/best", json={"board": covered,
                                                                          "mines": shape.mines}))]
    game = client.post("/api/game", json={"rows": shape.rows, "cols": shape.cols, "mines": shape.mines,
                                          "first_click": "safe", "seed": seed})
    outcomes.append(_answered("web game", shape, game))
    if game.status_code == 200:
        state = game.json()
        moved = client.post(f"/api/game/{state['id']}/move", json={"move": "A1"})
        if moved.status_code != 200:
            raise Undocumented(f"web move on {shape}: {moved.status_code} {moved.text}")
        if moved.json()["status"] == "playing":
            hint = client.post(f"/api/game/{state['id']}/hint", json={})
            outcomes.append(_answered("web hint", shape, hint))
    return outcomes


#: Every face by name; each takes the shape, a seed and a folder for its files.
FACES: dict[str, Callable[[Shape, int, Path], Outcome | list[Outcome]]] = {
    "analyze": analyze_face,
    "simulate best": lambda s, seed, w: simulate_face(s, seed, w, "best"),
    "simulate safest": lambda s, seed, w: simulate_face(s, seed, w, "safest"),
    "solve best": lambda s, seed, w: solve_face(s, seed, w, "best"),
    "solve safest": lambda s, seed, w: solve_face(s, seed, w, "safest"),
    "perfect": perfect_face,
    "perfect position": perfect_position_face,
    "web": web_face,
}


def run_case(face: str, shape: Shape, seed: int) -> list[Outcome]:
    """One face on one shape: its outcomes (the web face has several), each timed."""
    with tempfile.TemporaryDirectory(prefix="minesat-shapes-") as folder:
        began = time.perf_counter()
        got = FACES[face](shape, seed, Path(folder))
        outcomes = got if isinstance(got, list) else [got]
        seconds = time.perf_counter() - began
    for outcome in outcomes:
        outcome.seconds = round(seconds, 3)
    return outcomes
