"""Endgame search: when few layouts remain, the move most likely to *win*, found exactly.

Near the end of a game the consistent layouts can be few (the exact count is
:attr:`~minesat.analysis.Analysis.layouts`). Then every one of them can be
listed, and the game becomes a small tree: a move uncovers a cell, which either
explodes or shows a number, and each number keeps only the layouts that agree
with it. The chance to win from a set ``S`` of layouts is

- 1 when every undecided cell is a mine in all of ``S`` or in none (the safe
  ones are uncovered and the game is won);
- otherwise, *free information* first: a cell safe in every layout of ``S`` is
  uncovered at no risk, and if layouts disagree on its number it splits ``S``:
  ``win(S) = sum over parts P of |P|/|S| * win(P)``;
- otherwise a *decision*: ``win(S) = max over cells u of
  sum over numbers n of |S(u safe, shows n)| / |S| * win(S(u safe, shows n))``.

Sets of layouts are Python ints used as bit sets (bit *i* is layout *i*), so
"the layouts where ``u`` is safe and shows ``n``" is one ``&`` of precomputed
masks, and set sizes are ``int.bit_count``. Results are memoised by set.
Two prunings keep the tree small without changing the answer: candidates are
tried safest first and the search stops when a cell's chance to survive cannot
beat the best win found; within a cell, the numbers still to try are counted as
certain wins to bound it. A budget on the number of sets evaluated keeps any
game from running away: past it, :meth:`EndgameSearch.best_move` gives up and
the caller falls back to its heuristics.

>>> from minesat.analysis import analyze
>>> position = Position.from_rows(["???", "?2?", "???"], mines=2)   # 28 layouts
>>> search = EndgameSearch.of(position, analyze(position))
>>> cell, chance = search.best_move()
>>> cell, round(chance, 4)
((0, 0), 0.6071)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.analysis.constraints import Component, Frontier
from minesat.board import COVERED, FLAG, Cell, Position, neighbour_table

#: Search when at most this many layouts are consistent with the position.
ENDGAME_LAYOUTS = 500

#: Most sets of layouts one search evaluates before it gives up.
SEARCH_BUDGET = 20_000


class OutOfBudget(Exception):
    """The search evaluated :data:`SEARCH_BUDGET` sets without finishing."""


# --- listing the layouts ------------------------------------------------------------


def _component_solutions(
    component: Component, bit: dict[Cell, int], cap: int
) -> list[tuple[int, int]] | None:
    """Every solution of one component as ``(mine bit set, mine count)``; ``None`` past ``cap``."""
    cells = component.cells
    constraints_of: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for k, c in enumerate(component.constraints):
        for cell in c.cells:
            constraints_of[cell].append(k)
    need = [c.count for c in component.constraints]
    left = [len(c.cells) for c in component.constraints]  # cells of each number not yet assigned
    found: list[tuple[int, int]] = []

    def assign(i: int, mask: int, mines: int) -> bool:
        if i == len(cells):
            found.append((mask, mines))
            return len(found) <= cap
        ks = constraints_of[cells[i]]
        for mined in (0, 1):
            # A number can take this value only if it keeps enough mines and enough room.
            if all(0 <= need[k] - mined <= left[k] - 1 for k in ks):
                for k in ks:
                    need[k] -= mined
                    left[k] -= 1
                ok = assign(i + 1, mask | (bit[cells[i]] if mined else 0), mines + mined)
                for k in ks:
                    need[k] += mined
                    left[k] += 1
                if not ok:
                    return False
        return True

    return found if assign(0, 0, 0) else None


def list_layouts(
    position: Position, limit: int = ENDGAME_LAYOUTS
) -> tuple[tuple[Cell, ...], list[int]] | None:
    """The covered, unflagged cells and every consistent layout as a bit set over them.

    ``None`` when there are more than ``limit`` layouts (or the total is unknown).

    >>> cells, layouts = list_layouts(Position.from_rows(["1?", "??"], mines=1))
    >>> cells, sorted(layouts)
    (((0, 1), (1, 0), (1, 1)), [1, 2, 4])
    """
    if position.mines is None:
        return None
    frontier = Frontier.of(position)
    cells = tuple(sorted((*frontier.frontier, *frontier.interior)))
    bit = {cell: 1 << i for i, cell in enumerate(cells)}
    remaining = position.mines - frontier.flags
    combos: list[tuple[int, int]] = [(0, 0)]
    for component in frontier.components():
        solutions = _component_solutions(component, bit, limit * 16)
        if solutions is None:
            return None
        combos = [(m1 | m2, k1 + k2) for m1, k1 in combos for m2, k2 in solutions if k1 + k2 <= remaining]
        if len(combos) > limit * 16:
            return None
    interior = [bit[cell] for cell in frontier.interior]
    layouts: list[int] = []
    for mask, mines in combos:
        rest = remaining - mines
        if not 0 <= rest <= len(interior):
            continue
        for chosen in combinations(interior, rest):
            layouts.append(mask | sum(chosen))
            if len(layouts) > limit:
                return None
    return cells, layouts


# --- the search ---------------------------------------------------------------------


@dataclass
class EndgameSearch:
    """The exact game tree over a listed set of layouts (see the module docstring)."""

    cells: tuple[Cell, ...]
    mined: list[int]  # per cell: the layouts that mine it
    shows: list[list[int]]  # per cell: for each number it can show, the layouts where it does
    everything: int  # all layouts
    budget: int = SEARCH_BUDGET
    #: ``(layouts, weight)`` pairs when layouts are not equally likely (see :meth:`isolated`);
    #: ``None``: every layout counts once.
    weights: list[tuple[int, int]] | None = None
    evaluated: int = 0
    memo: dict[int, float] = field(default_factory=dict)

    @classmethod
    def of(cls, position: Position, analysis: Analysis, budget: int = SEARCH_BUDGET,
           limit: int = ENDGAME_LAYOUTS) -> EndgameSearch | None:
        """A search over ``position``'s layouts, or ``None`` when there are more than ``limit``."""
        if analysis.layouts is None or analysis.layouts > limit:
            return None
        listed = list_layouts(position, limit)
        if listed is None:
            return None
        cells, layouts = listed
        return cls.over(position, cells, layouts, budget)

    @classmethod
    def over(cls, position: Position, cells: Sequence[Cell], layouts: Sequence[int],
             budget: int = SEARCH_BUDGET, weights: Sequence[int] | None = None) -> EndgameSearch:
        """A search over the given layouts of ``cells`` (bit sets); ``weights[i]`` is layout i's weight."""
        rows, cols = position.rows, position.cols
        table = neighbour_table(rows, cols)
        index = {r * cols + c: i for i, (r, c) in enumerate(cells)}
        mined: list[int] = []
        shows: list[list[int]] = []
        for r, c in cells:
            around = table[r * cols + c]
            flags = sum(1 for j in around if position.cells[j] == FLAG)
            near = sum(1 << index[j] for j in around if position.cells[j] == COVERED)
            me = 1 << index[r * cols + c]
            mine_set = 0
            by_value: dict[int, int] = {}
            for i, layout in enumerate(layouts):
                if layout & me:
                    mine_set |= 1 << i
                else:
                    value = flags + (layout & near).bit_count()
                    by_value[value] = by_value.get(value, 0) | 1 << i
            mined.append(mine_set)
            shows.append([by_value[v] for v in sorted(by_value)])
        grouped = None
        if weights is not None:
            by_weight: dict[int, int] = {}
            for i, w in enumerate(weights):
                by_weight[w] = by_weight.get(w, 0) | 1 << i
            grouped = [(mask, w) for w, mask in by_weight.items()]
        return cls(tuple(cells), mined, shows, (1 << len(layouts)) - 1, budget, weights=grouped)

    def _size(self, layouts: int) -> int:
        if self.weights is None:
            return layouts.bit_count()
        return sum(w * (layouts & mask).bit_count() for mask, w in self.weights)

    @classmethod
    def isolated(cls, position: Position, analysis: Analysis, analyzer: Analyzer,
                 budget: int = SEARCH_BUDGET, limit: int = ENDGAME_LAYOUTS) -> EndgameSearch | None:
        """A search over the smallest *isolated* component, or ``None`` if there is none to search.

        A component is isolated when every covered, unflagged neighbour of its
        cells is in it: numbers uncovered inside it see only its own mines (and
        flags), so it is a game of its own that must be won some day, and can be
        searched exactly even while the whole board has far too many layouts.
        Its solutions are weighted by how many ways the rest of the board
        completes each: with ``k`` mines in the component, that is the layout
        count of the position with one ``k``-mine solution flagged (its other
        cells are then forced safe).
        """
        if analysis.layouts is None:
            return None
        frontier = Frontier.of(position)
        table = neighbour_table(position.rows, position.cols)
        cols = position.cols
        best: tuple[int, Component] | None = None
        for component in frontier.components():
            members = {r * cols + c for r, c in component.cells}
            if any(position.cells[j] == COVERED and j not in members for i in members for j in table[i]):
                continue
            if best is None or len(component.cells) < best[0]:
                best = (len(component.cells), component)
        if best is None:
            return None
        component = best[1]
        cells = component.cells
        bit = {cell: 1 << i for i, cell in enumerate(cells)}
        solutions = _component_solutions(component, bit, limit)
        if not solutions or len(solutions) < 2:
            return None
        weight_of: dict[int, int] = {}
        for mask, mines in solutions:
            if mines not in weight_of:
                flagged = list(position.cells)
                for i, (r, c) in enumerate(cells):
                    if mask >> i & 1:
                        flagged[r * cols + c] = FLAG
                try:
                    after = analyzer.analyze(Position(position.rows, cols, tuple(flagged), position.mines))
                except InconsistentPositionError:
                    weight_of[mines] = 0
                    continue
                if after.layouts is None:
                    return None
                weight_of[mines] = after.layouts
        kept = [(mask, weight_of[mines]) for mask, mines in solutions if weight_of[mines]]
        if len(kept) < 2:
            return None
        return cls.over(position, cells, [m for m, _ in kept], budget, weights=[w for _, w in kept])

    def best_move(self) -> tuple[Cell, float] | None:
        """The cell to uncover and its exact chance to win; ``None`` when the budget ran out."""
        try:
            best = self._decide(self.everything, want_cell=True)
        except OutOfBudget:
            return None
        chance, u = best
        return (self.cells[u], chance) if u is not None else None

    def win(self, layouts: int) -> float:
        """The chance to win from this set of layouts, playing perfectly."""
        if layouts in self.memo:
            return self.memo[layouts]
        self.evaluated += 1
        if self.evaluated > self.budget:
            raise OutOfBudget
        total = self._size(layouts)
        # Free information: a cell safe in every layout is uncovered at no risk;
        # if the layouts disagree on its number, that number splits them.
        for u, mine_set in enumerate(self.mined):
            if not layouts & mine_set:
                parts = [p for m in self.shows[u] if (p := layouts & m)]
                if len(parts) > 1:
                    chance = sum(self._size(p) * self.win(p) for p in parts) / total
                    self.memo[layouts] = chance
                    return chance
        chance, _ = self._decide(layouts, want_cell=False)
        self.memo[layouts] = chance
        return chance

    def _decide(self, layouts: int, *, want_cell: bool) -> tuple[float, int | None]:
        total = self._size(layouts)
        candidates = []
        for u, mine_set in enumerate(self.mined):
            mines = self._size(layouts & mine_set)
            if 0 < mines < total:
                candidates.append((total - mines, u))
        if not candidates:
            return 1.0, None  # every undecided cell is settled: the safe ones open and the game is won
        candidates.sort(key=lambda x: (-x[0], x[1]))
        best, best_cell = -1.0, None
        for safe, u in candidates:
            if safe / total <= best:
                break  # surviving this cell is no likelier than the best win found
            won = 0.0
            unseen = safe  # layouts of this cell not yet scored, bounded above by a certain win
            for m in self.shows[u]:
                part = layouts & m
                if part:
                    size = self._size(part)
                    won += size * self.win(part)
                    unseen -= size
                    if (won + unseen) / total <= best:
                        break
            chance = won / total
            if chance > best:
                best, best_cell = chance, u
        return best, best_cell if want_cell else None
