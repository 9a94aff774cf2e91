"""An independent perfect-play search, written apart from minesat.perfect, to check it.

Nothing clever: every layout is listed as a set of mine cells, a click is played
on each layout with the real game's flood fill, layouts are grouped by what the
click showed, and the value of a set of layouts is the best, over every covered
cell, of the sum of the values of the groups (layouts with a mine there are
lost). No proven-safe shortcut, no dead cells, no bounds, no symmetry: only a
memo on what has been seen, which fixes the set of layouts still possible.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

Cell = tuple[int, int]
Seen = frozenset[tuple[Cell, int]]  # the cells uncovered so far, with their numbers


class BruteForce:
    """Perfect play on one board and mine count, every layout listed."""

    def __init__(self, rows: int, cols: int, mines: int) -> None:
        self.rows, self.cols, self.mines = rows, cols, mines
        self.cells = [(r, c) for r in range(rows) for c in range(cols)]
        self.next_to = {cell: self.around(cell) for cell in self.cells}
        self.layouts = [frozenset(m) for m in combinations(self.cells, mines)]
        self.counts = [self._counts(m) for m in self.layouts]
        self.value = cache(self._value)

    def around(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < self.rows and 0 <= c + dc < self.cols
        ]

    def _counts(self, mines: frozenset[Cell]) -> dict[Cell, int]:
        return {cell: sum(n in mines for n in self.next_to[cell]) for cell in self.cells}

    def click(self, k: int, seen: Seen, cell: Cell) -> Seen | None:
        """What layout ``k`` shows after clicking ``cell`` (cells seen and their numbers); None on a mine."""
        if cell in self.layouts[k]:
            return None
        counts = self.counts[k]
        shown = dict(seen)
        todo = [cell]
        while todo:
            here = todo.pop()
            if here in shown:
                continue
            shown[here] = counts[here]
            if counts[here] == 0:
                todo.extend(n for n in self.next_to[here] if n not in shown)
        return frozenset(shown.items())

    def groups(self, ks: frozenset[int], seen: Seen, cell: Cell) -> dict[Seen, set[int]]:
        """The layouts ``ks`` grouped by what clicking ``cell`` shows (mines left out)."""
        out: dict[Seen, set[int]] = {}
        for k in ks:
            after = self.click(k, seen, cell)
            if after is not None:
                out.setdefault(after, set()).add(k)
        return out

    def _value(self, ks: frozenset[int], seen: Seen) -> int:
        if len(ks) <= 1:
            return len(ks)  # one layout left: its safe cells are known, it is won
        if len(seen) == len(self.cells) - self.mines:
            return len(ks)
        opened = {cell for cell, _ in seen}
        best = 0
        for cell in self.cells:
            if cell in opened:
                continue
            total = sum(self.value(frozenset(g), after) for after, g in self.groups(ks, seen, cell).items())
            best = max(best, total)
        return best

    def start(self, start: Cell, rule: str) -> tuple[int, int]:
        """(wins, layouts) for a first click at ``start`` under ``rule``."""
        if rule == "opening":
            keep = {start, *self.around(start)}
        elif rule == "safe":
            keep = {start}
        else:
            keep = set()
        allowed = frozenset(k for k, m in enumerate(self.layouts) if not (m & keep))
        groups = self.groups(allowed, frozenset(), start)
        return sum(self.value(frozenset(g), after) for after, g in groups.items()), len(allowed)
