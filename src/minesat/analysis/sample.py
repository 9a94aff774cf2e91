"""One layout drawn uniformly from those a position allows: a fresh secret behind the same position.

:func:`sample_layout` draws a layout that agrees with every number a player
sees, with the board's total and with the cells a rule keeps mine-free, each
such layout as likely as any other. A copy of a game in progress (a fork in
the web app) holds one: the same position, a fresh draw of what is hidden,
so nothing of the original's hidden layout passes to the copy.

The draw is exact (integers only, from ``random.Random(seed)``) and never
lists the layouts. It follows the counts the analysis makes, top down:

1. The numbers become constraints, split into components
   (:class:`~minesat.analysis.constraints.FrontierModel`; flags are not information,
   so they are read as covered cells, and the cells kept clear leave every number);
   the local rules decide what single numbers decide, and what they leave open
   falls apart into independent *parts*, each counted by mine count
   (:meth:`~minesat.analysis.engine.Analyzer.parts_of`).
2. The parts' mine counts are drawn together: a choice ``k_1 .. k_n`` weighs
   ``prod ways_i[k_i] * C(interior, left - sum k_i)``, the layouts that have it.
   The weights of every choice that starts ``k_1 .. k_i`` are summed once, going
   back from the interior (:func:`~minesat.analysis.combine.completions`), so each
   part's count is drawn in turn by its share of what is left.
3. A part's layout given its ``k``: one cell at a time, mined with its exact
   chance given ``k``, ``mine_ways[cell][k] / ways[k]``; the cell decided, the rules
   run again and what is left (often smaller parts, apart) is counted again and
   drawn as in step 2, without an interior.
4. The interior's mines fall uniformly among its cells (``rng.sample``).

>>> from collections import Counter
>>> from minesat.board import Position
>>> position = Position.from_rows(["1?", "??"])  # one mine next to the 1, and no other
>>> Counter(min(sample_layout(position, 1, seed=s).mines) for s in range(3000))
Counter({(1, 1): 1019, (0, 1): 1008, (1, 0): 973})
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import NoReturn

from minesat.analysis.classify import WorkBudget, classify_with_total
from minesat.analysis.combine import WORK_BUDGET, completions, cut_tables
from minesat.analysis.constraints import Component
from minesat.analysis.counting import STATE_BUDGET, ComponentCount, split_decided
from minesat.analysis.engine import Analyzer
from minesat.analysis.result import InconsistentPositionError, total_of
from minesat.board import Cell, Layout, Position, as_cell, cell_name, on_board, without_flags
from minesat.budget import Budget, checkpoint, watching
from minesat.errors import InvalidValue, OverBudget
from minesat.words import plural

__all__ = ["PartTooLarge", "sample_layout"]


class PartTooLarge(OverBudget):
    """A part of the frontier too large to count within the state budget: a uniform draw needs
    its count. ``cells`` the part's cells, ``limit`` the states a count may hold (``max_states``)."""

    what = "states"
    parameter = "max_states"
    cells = 0


def sample_layout(
    position: Position,
    mines: int,
    *,
    seed: int,
    safe: Iterable[Cell] = (),
    budget: Budget | None = None,
) -> Layout:
    """A layout drawn uniformly from every layout of ``mines`` mines consistent with ``position``.

    Consistent: each number of ``position`` sees that many mines, no mine is on an uncovered
    cell or on a cell of ``safe`` (covered cells a rule keeps mine-free, such as a first click's
    opening; uncovered ones may be given too), and there are ``mines`` in all. Flags are read as
    covered cells: a player's flag is a belief, not part of the position.

    The same ``(position, mines, seed, safe)`` give the same layout on any machine.
    :class:`~minesat.analysis.InconsistentPositionError` when no layout is consistent (its
    ``cell`` a number that cannot be met, or the first covered cell when only the total cannot);
    :class:`PartTooLarge` when a part of the frontier is past ``budget.max_states`` states
    (``None``: the analysis's own per-part budget,
    :data:`~minesat.analysis.counting.STATE_BUDGET`); :class:`~minesat.budget.OutOfTime` and
    :class:`~minesat.budget.OutOfMemory` past its time and memory (``None``: no limit).

    >>> from minesat.board import Position
    >>> position = Position.from_rows(["1*?", "???"])  # the flag is no information
    >>> sample_layout(position, 2, seed=0).to_rows()
    [' * ', '  *']
    >>> sample_layout(position, 2, seed=0, safe=[(1, 0), (1, 2)]).to_rows()
    [' **', '   ']
    """
    budget = budget or Budget()
    total = total_of(position, mines)
    if total is None:
        raise InvalidValue("a draw needs the total number of mines", parameter="mines", value=mines)
    kept = _kept_clear(position, safe)
    states = STATE_BUDGET if budget.max_states is None else budget.max_states
    with watching(budget.clock()):
        return _Draw(position, total, kept, random.Random(seed), states).layout()


def _kept_clear(position: Position, safe: Iterable[Cell]) -> set[Cell]:
    """The covered cells of ``safe`` (uncovered ones are clear already); a cell off the board is refused."""
    kept: set[Cell] = set()
    for given in safe:
        cell = as_cell(given, "safe")
        if not on_board(cell, position.rows, position.cols):
            said = f"safe cell {cell_name(cell)} is off the {position.rows}x{position.cols} board"
            raise InvalidValue(said, parameter="safe", value=given)
        if position[cell] < 0:  # covered or flagged (a flag is read as covered)
            kept.add(cell)
    return kept


class _Draw:
    """One draw: the position's parts and interior, the random stream, and the mines placed so far."""

    def __init__(self, position: Position, total: int, kept: set[Cell], rng: random.Random,
                 states: int) -> None:
        self.rows, self.cols = position.rows, position.cols
        self.total = total
        self.rng = rng
        # One analyzer for the draw: its frontier model splits the position into components, it
        # splits a component by the local rules, and it counts each part once (a piece met again
        # after a cell is decided is counted from its cache).
        self.analyzer = Analyzer(states)
        self.kept = kept
        self.position = without_flags(position)
        self.mines: list[Cell] = []

    def layout(self) -> Layout:
        model = self.analyzer.model
        model.update(self.position)
        frontier = model.frontier()
        components = _without_cells(model.components(), self.kept)
        interior = [x for x in frontier.interior if x not in self.kept]
        split = self.analyzer.parts_of(components, check=True)
        if split is None:  # check names a number when a part has no layout; this is a safety net
            raise InconsistentPositionError(frontier.frontier[0], "no layout satisfies the numbers")
        self.mines.extend(split.mine)
        left = self.total - len(split.mine)
        drawn = self._counts(split.parts, split.counts, len(interior), left)
        if drawn is None:
            covered = [x for x in frontier.frontier if x not in self.kept] + interior
            self._no_room(covered, len(interior), components)
        self._parts(split.parts, split.counts, drawn)
        self.mines.extend(self.rng.sample(interior, left - sum(drawn)))
        return Layout(self.rows, self.cols, frozenset(self.mines))

    def _no_room(self, covered: list[Cell], interior: int, components: list[Component]) -> NoReturn:
        """Each part has layouts, but none places the total among the ``covered`` cells (those not
        kept clear): name a number in the conflict, as the analysis does (the solver with the
        total, within its work budget), or else the first of those cells."""
        where = covered[0] if covered else (0, 0)
        if self.total > len(covered):
            clear = " not kept clear" if self.kept else ""
            said = f"{plural(self.total, 'mine')} but only {plural(len(covered), 'covered cell')}{clear}"
            raise InconsistentPositionError(where, said)
        if components:
            classify_with_total(components, interior, self.total, WorkBudget(WORK_BUDGET))
        raise InconsistentPositionError(where, f"no layout places the {plural(self.total, 'mine')}")

    def _counts(self, parts: Sequence[Component], counts: Sequence[ComponentCount | None], interior: int,
                left: int) -> list[int] | None:
        """Each part's mine count, drawn together by the layouts that have them, with ``left`` mines
        among the parts and ``interior`` cells; ``None`` when no choice places them all."""
        for part, count in zip(parts, counts, strict=True):
            if count is None:
                states = self.analyzer.state_budget
                stop = PartTooLarge(
                    f"a part of {plural(len(part.cells), 'cell')} is past {{max_states:{states}}} states",
                    None, states, advice="raise {max_states}", template=True,
                )
                stop.cells = len(part.cells)
                raise stop
        if left < 0:
            return None
        # No work budget of its own: the combination's cost is watched by the clock (checkpoint).
        cut = cut_tables(counts, parts, interior, left, budget=_NO_WORK_LIMIT)
        if cut is None:
            return None
        tables, _, inside = cut
        after = completions(tables, inside)
        if not after[0][0]:
            return None
        drawn = []
        u = 0  # mines placed in the parts so far, past the fewest they could hold
        for i, (fewest, ways) in enumerate(tables):
            nxt = after[i + 1]
            # Part i holds fewest + j mines in ways[j] * nxt[u + j] of the layouts left.
            r = self.rng.randrange(after[i][u])
            j = 0
            while r >= (weight := ways[j] * nxt[u + j]):
                r -= weight
                j += 1
            drawn.append(fewest + j)
            u += j
        return drawn

    def _parts(self, parts: Sequence[Component], counts: Sequence[ComponentCount | None],
               mines: Sequence[int]) -> None:
        """Each part's layout given its mine count, cell by cell (a stack, never a recursion)."""
        todo = [(part, count, k) for part, count, k in zip(parts, counts, mines, strict=True)][::-1]
        while todo:
            checkpoint()
            part, count, k = todo.pop()
            assert count is not None
            # The middle cell (row-major): a frontier is mostly a line of cells, which two
            # decided cells next to each other cut in two, so the parts left halve.
            cell = part.cells[len(part.cells) // 2]
            mined = self.rng.randrange(count.ways[k]) < count.mine_ways[cell][k]
            if mined:
                self.mines.append(cell)
            left = k - mined
            pieces: list[Component] = []
            for rest in split_decided(part, {cell: mined}):
                rules, open_parts = self.analyzer.split(rest)
                self.mines.extend(x for x, m in rules.items() if m)
                left -= sum(rules.values())
                pieces.extend(open_parts)
            piece_counts = [self.analyzer.part_count(piece) for piece in pieces]
            drawn = self._counts(pieces, piece_counts, 0, left)
            assert drawn is not None, "a cell drawn by its exact chance leaves a layout"
            todo.extend(reversed(list(zip(pieces, piece_counts, drawn, strict=True))))


#: The combination of parts is bounded by the time and memory budgets alone, not by a count of work.
_NO_WORK_LIMIT = 1 << 62


def _without_cells(components: list[Component], kept: set[Cell]) -> list[Component]:
    """``components`` with the cells of ``kept`` known safe: gone from every number, what is left
    of a component perhaps falling apart. A number left needing more mines than it has cells
    is inconsistent."""
    if not kept:
        return components
    out = []
    for comp in components:
        clear = {x: False for x in comp.cells if x in kept}
        if not clear:
            out.append(comp)
            continue
        for c in comp.constraints:
            cleared = sum(1 for x in c.cells if x in kept)
            if c.count > len(c.cells) - cleared:
                said = f"needs {plural(c.count, 'mine')} among {plural(len(c.cells), 'covered neighbour')}"
                raise InconsistentPositionError(c.source, f"{said}, {cleared} of them kept clear")
        out.extend(split_decided(comp, clear))
    return out
