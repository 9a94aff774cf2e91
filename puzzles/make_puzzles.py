"""Regenerate the generated puzzles in this directory by playing seeded games.

    python puzzles/make_puzzles.py

Every position here was reached by real play with :mod:`minesat.game`: a small
built-in player makes the moves a person would make without thinking (flag the
covered neighbours of a number that needs them all, uncover those of a number
already satisfied) and, when stuck, uncovers a cell it knows from the layout to be
safe, as a lucky guesser would. The play stops once a target share of the safe
cells is uncovered. The same seeds always give the same files.

The classic exam boards (mines.dat, partial.dat, solution.dat) are not generated.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

from minesat.board import COVERED, FLAG, Position, neighbours
from minesat.formats import write_layout, write_position
from minesat.game import Game

HERE = Path(__file__).resolve().parent
START = (3, 3)  # SPEC's default first click


def simple_moves(game: Game) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Cells the one-number rules prove: (safe to uncover, mines to flag)."""
    safe: set[tuple[int, int]] = set()
    mines: set[tuple[int, int]] = set()
    for r in range(game.rows):
        for c in range(game.cols):
            n = game[r, c]
            if n <= 0:
                continue
            around = list(neighbours((r, c), game.rows, game.cols))
            covered = [x for x in around if game[x] == COVERED]
            flags = sum(1 for x in around if game[x] == FLAG)
            if covered and n == flags:
                safe.update(covered)  # the number already has all its mines
            elif covered and n - flags == len(covered):
                mines.update(covered)  # every covered neighbour must be a mine
    return safe, mines


def step(game: Game, rng: random.Random, guess: bool = True) -> bool:
    """One round of play: flag what the simple rules prove and uncover one proven-safe cell,
    or, when they prove nothing, (if ``guess``) uncover a random cell that is in fact safe.

    Returns False when nothing was done.
    """
    safe, mines = simple_moves(game)
    for cell in sorted(mines):
        game.flag(cell)
    if safe:
        game.uncover(min(safe))
        return True
    if mines:
        return True
    if not guess:
        return False
    assert game.layout is not None
    covered = [cell for cell in game.position.cells_in(COVERED) if cell not in game.layout.mines]
    game.uncover(rng.choice(covered))  # a lucky guess
    return True


def first_click(game: Game) -> None:
    game.uncover((min(START[0], game.rows - 1), min(START[1], game.cols - 1)))


def needs_total(position: Position) -> bool:
    """True when some covered cell is certain only once the total mine count is used.

    Brute force over the covered cells: meant for endgames with a dozen of them.
    """
    rows, cols = position.rows, position.cols
    covered = position.cells_in(COVERED)
    flags = len(position.cells_in(FLAG))
    assert position.mines is not None
    numbers = [
        (cell, position[cell])
        for cell in position.all_cells()
        if position[cell] > 0 and any(position[n] == COVERED for n in neighbours(cell, rows, cols))
    ]

    def consistent(chosen: set[tuple[int, int]]) -> bool:
        for cell, n in numbers:
            around = list(neighbours(cell, rows, cols))
            if sum(1 for x in around if position[x] == FLAG or x in chosen) != n:
                return False
        return True

    any_count: list[set[tuple[int, int]]] = []
    for k in range(len(covered) + 1):
        for combo in combinations(covered, k):
            if consistent(set(combo)):
                any_count.append(set(combo))
    with_count = [s for s in any_count if len(s) == position.mines - flags]

    def certain(solutions: list[set[tuple[int, int]]]) -> set[tuple[int, int]]:
        return {c for c in covered if len({c in s for s in solutions}) == 1}

    return bool(with_count) and bool(certain(with_count) - certain(any_count))


def save(name: str, game: Game) -> None:
    assert game.layout is not None
    write_position(game.position, HERE / f"{name}.txt")
    write_layout(game.layout, HERE / f"{name}.layout.txt")
    print(f"{name}: {game.rows}x{game.cols}, {game.mines} mines, {game.uncovered} uncovered")


def staged(name: str, preset: tuple[int, int, int], share: float, seed: int) -> Game:
    """Play game ``seed`` until ``share`` of its safe cells are uncovered, and save it."""
    rows, cols, mines = preset
    game = Game.new(rows, cols, mines, seed=seed, rule="opening")
    rng = random.Random(seed)
    first_click(game)
    while not game.over and game.uncovered < share * (rows * cols - mines):
        step(game, rng)
    assert not game.over, "the player only uncovers safe cells"
    save(name, game)
    return game


def endgame(seed: int) -> Game:
    """The first beginner game from ``seed`` on that reaches a small endgame where the
    simple rules are stuck and some cell is certain only thanks to the total mine count."""
    while True:
        game = Game.new(9, 9, 10, seed=seed, rule="opening")
        rng = random.Random(seed)
        first_click(game)
        while not game.over:
            if step(game, rng, guess=False):
                continue
            if len(game.position.cells_in(COVERED)) <= 14 and needs_total(game.position):
                save("endgame-count", game)
                return game
            step(game, rng)
        seed += 1


def main() -> None:
    beginner, intermediate, expert = (9, 9, 10), (16, 16, 40), (16, 30, 99)
    staged("beginner-mid", beginner, 0.5, seed=1)
    mid = staged("intermediate-mid", intermediate, 0.5, seed=1)
    write_position(mid.position, HERE / "intermediate-mid.json")
    staged("expert-early", expert, 0.15, seed=1)
    expert_mid = staged("expert-mid", expert, 0.5, seed=2)
    write_position(expert_mid.position, HERE / "expert-mid.mine")
    late = staged("expert-late", expert, 0.85, seed=3)
    assert late.layout is not None
    write_layout(late.layout, HERE / "expert-late.mbf")
    endgame(seed=1)


if __name__ == "__main__":
    main()
