"""Issue 52: the house's floors, held. Each module of src/minesat may import only what stands
on a lower floor (CONTRIBUTING.md draws them), and no files import each other in a loop.

The imports are read with ``ast``, every one of them: at the top, inside a function, under
``if TYPE_CHECKING:``, and ``importlib.import_module("minesat....")`` with a literal name. A
lazy import still ties two modules together, so it obeys the floors too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: The floors, from the ground up. A room is a top-level module of minesat or a subpackage (all
#: its files). A room may import rooms on lower floors only; rooms on one floor stand side by
#: side and import none of each other. Files inside one room import each other freely, in no loop.
FLOORS: list[tuple[str, ...]] = [
    ("errors", "words", "verdict", "stats"),  # the ground: the error family, words, numbers
    ("board", "budget", "logistic", "executors"),  # cells and positions; budgets; fits; pools
    ("formats", "generate", "metrics", "sweeplists", "rules"),  # files, fresh boards, figures of one
    ("analysis", "game"),  # what a position proves; the rules of a game
    ("exact", "noguess", "svg"),  # perfect play over listed layouts; no-guess boards; pictures
    ("guess",),  # the guess when nothing is proved
    ("player",),  # whole games, move by move
    ("perfect", "review", "shortcuts", "tally"),  # perfect play of boards; reviews; the front door's
    # verbs; the statistics of finished games
    ("viewer",),  # the replay viewer's page
    ("replay",),  # replays read into clicks and frames
    ("notebook",),  # pictures in Jupyter
    ("__init__",),  # the front door: ``import minesat``
    ("provenance", "recording"),  # what made a run; a game written as a replay
    ("store",),  # finished games in SQLite
    ("export",),  # a store's games as CSV, JSON lines, Parquet
    ("simulate",),  # many games, stored
    ("sweep",),  # many games at every density
    ("report",),  # reports over stores and sweeps
    ("web",),  # the web face
    ("cli",),  # the command line face
    ("__main__",),  # ``python -m minesat``
]


def floor_of() -> dict[str, int]:
    return {room: level for level, rooms in enumerate(FLOORS) for room in rooms}


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((SRC / "minesat").rglob("*.py"))}


def room(module: str) -> str:
    """``minesat.analysis.engine`` stands in ``analysis``; ``minesat`` itself is ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported(path: Path, name: str, known: dict[str, Path]) -> Iterator[tuple[int, str]]:
    """Every minesat module the file at ``path`` (module ``name``) imports, with the line."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up node.level - 1 packages
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                # ``from minesat import budget`` imports a module; ``from minesat.board import Cell`` a name.
                yield node.lineno, f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              == "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):  # fmt: skip
            yield node.lineno, node.args[0].value


def arrows() -> list[tuple[str, int, str]]:
    """(importing module, line, imported module) for every import of one minesat module by another."""
    known = modules()
    out = []
    for name, path in known.items():
        for line, target in imported(path, name, known):
            if target.split(".")[0] != "minesat" or target == name:
                continue
            while target not in known:  # an attribute path: its module
                target = target.rpartition(".")[0]
            out.append((name, line, target))
    return out


def test_every_room_stands_on_a_floor() -> None:
    rooms = {room(name) for name in modules()}
    assert sorted(rooms - set(floor_of())) == [], "a new module or package: give it its floor in FLOORS"
    assert sorted(set(floor_of()) - rooms) == [], "a room that is gone: take it out of FLOORS"


def test_no_import_runs_back_up_or_across() -> None:
    floors = floor_of()
    wrong = [
        f"{src} (floor {floors[room(src)]}) line {line} imports {dst} (floor {floors[room(dst)]})"
        for src, line, dst in arrows()
        if room(src) != room(dst) and floors[room(dst)] >= floors[room(src)]
    ]
    assert wrong == []


def test_no_files_import_each_other_in_a_loop() -> None:
    edges: dict[str, set[str]] = {}
    for src, _, dst in arrows():
        edges.setdefault(src, set()).add(dst)
    # Depth-first, iteratively (three colours): a grey module met again closes a loop.
    colour: dict[str, int] = {}
    loops = []
    for start in sorted(edges):
        if colour.get(start):
            continue
        stack = [(start, iter(sorted(edges.get(start, ()))))]
        colour[start] = 1
        path = [start]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                colour[node] = 2
                stack.pop()
                path.pop()
            elif colour.get(child) == 1:
                loops.append(" -> ".join([*path[path.index(child):], child]))
            elif not colour.get(child):
                colour[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))
    assert loops == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from minesat.board import Cell", ["minesat.board"]),
        ("from minesat import budget", ["minesat.budget"]),
        ("import minesat.analysis.engine as e", ["minesat.analysis.engine"]),
        ("def f():\n    from minesat.player import Guess", ["minesat.player"]),
        ("import importlib\nimportlib.import_module('minesat.store')", ["minesat.store"]),
    ],
)
def test_every_kind_of_import_is_read(tmp_path: Path, source: str, expected: list[str]) -> None:
    """The reader itself: a lazy import and a literal ``import_module`` count as much as a plain one."""
    path = tmp_path / "x.py"
    path.write_text(source, encoding="utf-8")
    found = [target for _, target in imported(path, "minesat.x", modules()) if target.startswith("minesat")]
    assert found == expected
