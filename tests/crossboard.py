"""Random positions of many sizes and shapes of play, and a cell-by-cell check against the brute force.

Issue 18: one :class:`~minesat.analysis.Analyzer` answered for a board of one
width with a part cached from a board of another. The positions here mix what
a cache could confuse: sizes from 2x2 to 9x9, every density, games played with
flood fill, cells revealed at random (zeros next to covered cells), right and
wrong flags, corrupted numbers, finished games, with the true total, a wrong
one, or none. :func:`disagreements` compares an answer in the JSON form of
SPEC section 3 (what ``minesat analyze --json`` prints and
``Analysis.to_json()`` gives) with :func:`bruteforce.solve`, so the library and
the command line are checked by the same code.

``tests/test_cross_board.py`` runs a few thousand of them in the normal suite;
``benchmarks/cross_board.py`` runs as many as asked.

>>> positions = random_positions(seed=1, count=3)
>>> [(p.rows, p.cols) for p in positions] == [(p.rows, p.cols) for p in random_positions(1, 3)]
True
"""

from __future__ import annotations

import random
from typing import Any

from bruteforce import Result, build_problem, solve
from minesat.board import COVERED, FLAG, Cell, Layout, Position, cell_name, neighbours
from minesat.game import Game
from minesat.generate import FirstClick, generate_layout, kept_clear

#: Sides of the boards drawn (rows and columns independently).
SIDES = (2, 9)

#: Largest frontier kept: the brute force tries up to 2 ** frontier assignments.
FRONTIER_LIMIT = 24

#: How close a reported probability must be to the exact fraction.
TOLERANCE = 1e-9

#: Shapes of play and how often each is drawn.
SHAPES = {"played": 5, "revealed": 3, "corrupted": 1, "finished": 1}


def random_positions(seed: int, count: int) -> list[Position]:
    """``count`` positions drawn from ``seed``: the same seed, the same positions.

    Positions whose frontier the brute force cannot take (past
    :data:`FRONTIER_LIMIT`) are drawn again.
    """
    rnd = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        position = _draw(rnd)
        if len(build_problem(position).frontier) <= FRONTIER_LIMIT:
            out.append(position)
    return out


def _draw(rnd: random.Random) -> Position:
    rows, cols = rnd.randint(*SIDES), rnd.randint(*SIDES)
    shape = rnd.choices(list(SHAPES), weights=list(SHAPES.values()))[0]
    rule = rnd.choice(list(FirstClick))
    start = (rnd.randrange(rows), rnd.randrange(cols))
    free = rows * cols - len(kept_clear(rows, cols, start=start, rule=rule))
    # Mostly the densities people play (10-25 %), sometimes anything.
    density = rnd.uniform(0.08, 0.3) if rnd.random() < 0.8 else rnd.random()
    mines = min(free, round(density * rows * cols))
    layout = generate_layout(rows, cols, mines, start=start, rule=rule, seed=rnd.getrandbits(32))
    flag_chance = rnd.choice([0.0, 0.3, 0.8])
    if shape == "revealed":
        position = _revealed(layout, rnd, flag_chance)
    elif shape == "finished":
        position = _finished(layout, rnd)
    else:
        position = _played(layout, start, rnd, flag_chance)
        if shape == "corrupted":
            position = _corrupted(position, rnd)
    return position.with_mines(_total(layout, rnd))


def _total(layout: Layout, rnd: random.Random) -> int | None:
    """The true total most often, none some of the time, now and then a wrong one."""
    roll = rnd.random()
    if roll < 0.65:
        return layout.mine_count
    if roll < 0.9:
        return None
    return max(0, min(layout.rows * layout.cols, layout.mine_count + rnd.choice([-2, -1, 1, 2])))


def _played(layout: Layout, start: Cell, rnd: random.Random, flag_chance: float) -> Position:
    """A game played with flood fill: the start, then a few random safe cells, some right flags."""
    game = Game(layout)
    for step in range(rnd.randint(1, 6)):
        safe = [c for c in game.position.cells_in(COVERED) if c not in layout.mines]
        if not safe:
            break
        game.uncover(start if step == 0 and start in safe else rnd.choice(safe))
    position = game.position
    cells = list(position.cells)
    for r, c in sorted(layout.mines):
        if cells[r * layout.cols + c] == COVERED and rnd.random() < flag_chance:
            cells[r * layout.cols + c] = FLAG
    return Position(position.rows, position.cols, tuple(cells))


def _revealed(layout: Layout, rnd: random.Random, flag_chance: float) -> Position:
    """Arbitrary safe cells shown with their true numbers, no flood fill; some right flags."""
    show = rnd.choice([0.2, 0.5, 0.8])
    counts = layout.counts
    cells = []
    for i in range(layout.rows * layout.cols):
        cell = divmod(i, layout.cols)
        if cell in layout.mines:
            cells.append(FLAG if rnd.random() < flag_chance else COVERED)
        else:
            cells.append(counts[i] if rnd.random() < show else COVERED)
    return Position(layout.rows, layout.cols, tuple(cells))


def _finished(layout: Layout, rnd: random.Random) -> Position:
    """A won game: every safe cell uncovered; the mines flagged, or some left covered."""
    flag_all = rnd.random() < 0.6
    counts = layout.counts
    cells = []
    for i in range(layout.rows * layout.cols):
        if divmod(i, layout.cols) in layout.mines:
            cells.append(FLAG if flag_all or rnd.random() < 0.5 else COVERED)
        else:
            cells.append(counts[i])
    return Position(layout.rows, layout.cols, tuple(cells))


def _corrupted(position: Position, rnd: random.Random) -> Position:
    """One number changed, or one covered cell flagged: maybe still consistent, maybe not."""
    cells = list(position.cells)
    numbers = [i for i, s in enumerate(cells) if s >= 0]
    covered = [i for i, s in enumerate(cells) if s == COVERED]
    if numbers and (not covered or rnd.random() < 0.6):
        i = rnd.choice(numbers)
        room = sum(1 for _ in neighbours(divmod(i, position.cols), position.rows, position.cols))
        cells[i] = rnd.randint(0, room)  # never past its neighbours: a file could hold it
    elif covered:
        cells[rnd.choice(covered)] = FLAG
    return Position(position.rows, position.cols, tuple(cells))


# --- the check ---------------------------------------------------------------------


def is_layout_file(position: Position) -> bool:
    """What the command line refuses as a layout once written as text (flags as ``*``).

    Nothing covered, no number, and a total (if any) that the mines match: the
    file then reads as a layout of mines and blanks alone (issue 18, part 4).
    """
    flags = len(position.cells_in(FLAG))
    return (
        not position.cells_in(COVERED)
        and not any(state > 0 for state in position.cells)
        and position.mines in (None, flags)
    )


def disagreements(position: Position, got: dict[str, Any], expected: Result | None = None) -> list[str]:
    """Everything in ``got`` (SPEC section 3 JSON, or ``{"error": ...}``) the brute force disputes.

    An empty list means the answer is right cell by cell: the three sets, every
    probability (exact to :data:`TOLERANCE`), the moves, the total, and an
    error exactly when no layout exists.
    """
    expected = expected if expected is not None else solve(position)
    if not expected.consistent:
        return [] if "error" in got else ["no layout exists, yet an analysis came back"]
    if "error" in got:
        return [f"a consistent position refused: {got['error']}"]
    problems = []
    if (got["rows"], got["cols"], got["mines"]) != (position.rows, position.cols, position.mines):
        problems.append(f"shape or total {got['rows']}x{got['cols']}, {got['mines']}")
    for key, cells in (("safe", expected.safe), ("mine", expected.mine), ("unknown", expected.unknown)):
        want = [list(c) for c in sorted(cells)]
        if got[key] != want:
            problems.append(f"{key}: got {_names(got[key])}, want {_names(want)}")
    want_moves = [cell_name(c) for c in sorted(expected.safe)]
    want_moves += [cell_name(c) + "*" for c in sorted(expected.mine)]
    if sorted(got["moves"]) != sorted(want_moves):
        problems.append(f"moves: got {got['moves']}, want {want_moves}")
    if got.get("exact") is not True:
        problems.append("not exact")
    grid = got["probability"]
    for r in range(position.rows):
        for c in range(position.cols):
            state, p = position[(r, c)], grid[r][c]
            if state >= 0:
                want_p: object = None
            elif state == FLAG or (r, c) in expected.mine:
                want_p = 1.0
            elif (r, c) in expected.safe:
                want_p = 0.0
            elif expected.probability is None:
                want_p = None
            else:
                exact = expected.probability[(r, c)]
                if p is None or abs(p - exact) > TOLERANCE or not 0.0 < p < 1.0:
                    problems.append(f"{cell_name((r, c))}: probability {p}, exact {float(exact)}")
                continue
            if p != want_p:
                problems.append(f"{cell_name((r, c))}: probability {p}, want {want_p}")
    return problems


def _names(cells: list[list[int]]) -> str:
    return " ".join(cell_name((r, c)) for r, c in cells) or "-"


def describe(position: Position) -> str:
    """The position as Python that rebuilds it, for failure messages."""
    return f"Position.from_rows({position.to_rows()!r}, mines={position.mines!r})"
