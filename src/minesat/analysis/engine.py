"""The analysis pipeline: constraints -> components -> SAT -> exact probabilities.

>>> from minesat.board import Position
>>> a = Analyzer().analyze(Position.from_rows(["1?", "??"]), mines=1)
>>> a.safe, a.mine, a.unknown
((), (), ((0, 1), (1, 0), (1, 1)))
>>> a.probability[1][1]
0.3333333333333333
>>> a.layouts  # the mine is in one of three cells
3
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb
from typing import NoReturn, Protocol, TypeVar

from minesat.analysis import small
from minesat.analysis.classify import (
    Certainties,
    WorkBudget,
    affords_total_call,
    check_component,
    classify_component,
    classify_with_total,
    local_rules,
)
from minesat.analysis.constraints import Component, Constraint, Frontier, FrontierModel
from minesat.analysis.counting import (
    STATE_BUDGET,
    ComponentCount,
    combine_parts,
    count_component,
    single_solution,
    split_decided,
)
from minesat.analysis.result import Analysis, InconsistentPositionError
from minesat.board import COVERED, FLAG, Cell, Position
from minesat.words import agree, plural

T = TypeVar("T")

#: Component results kept per Analyzer; a game never needs more than a few hundred.
CACHE_LIMIT = 4096

#: Most work the exact combination of components may take, in units of one
#: product of two 2000-bit integers (a product of longer integers counts as
#: several). Past it the probabilities are estimated and ``exact`` is false;
#: the certainties stay exact (:func:`_certain_by_feasibility`).
WORK_BUDGET = 4_000_000

#: Boards of up to this many cells take the small-board road (:mod:`.small`):
#: read whole as bit masks on every call instead of updated move by move.
#: Whole games of the ``safest`` player were faster on it by 2.1x on 9x9,
#: 1.9x on 16x16, 1.25x on 16x30 and 1.17x on 30x30; at 32x40 and 40x40 the
#: two roads were even, and on bigger boards updating only what a move
#: changed wins. (The limit also keeps 2n(n + 1), the most work combining the
#: counts of n cells can take, well inside the default work budget.)
SMALL_CELLS = 1000

#: Parts of up to this many cells the small road enumerates layout by layout
#: (:func:`~minesat.analysis.small.solutions`) rather than counting them with
#: :func:`~minesat.analysis.counting.count_component`. The count's dynamic
#: programme never holds more than ``2 ** (cells + 1)`` states (each state is
#: reached by some filling of the boxes placed so far), so with a state budget
#: of at least ``2 ** (ENUMERATED_CELLS + 1)`` it never gives up on such a part,
#: and both give the same exact answer.
ENUMERATED_CELLS = 16

#: Search steps an enumeration may take before the part is counted instead:
#: real parts have a handful of layouts; a part with many is counted faster.
ENUMERATION_STEPS = 400


@dataclass(frozen=True)
class Glance:
    """What :meth:`Analyzer.glance` reads of a position: its layouts (``None`` when not counted
    exactly), how many cells it proves safe, and the lowest mine probabilities of the others."""

    layouts: int | None
    safe: int
    lowest: tuple[float, ...]


class _Off(enum.Enum):
    """Why a position is not on the small road."""

    OFF_ROAD = "off the road"  # a board too large, a budget, a number the general road names
    NO_LAYOUT = "no layout"  # the road proves that no layout fits


_OFF_ROAD, _NO_LAYOUT = _Off.OFF_ROAD, _Off.NO_LAYOUT


@dataclass(frozen=True)
class InteriorCounter:
    """Layouts of a position by what some of its interior cells hold (:meth:`Analyzer.interior_counter`)."""

    ways: tuple[int, ...]  # ways[u]: the frontier's layouts with low + u mines
    low: int
    interior: int  # interior cells
    remaining: int  # mines not flagged

    def layouts(self, mined: int = 0, safe: int = 0) -> int:
        """Layouts in which ``mined`` given interior cells are mines and ``safe`` others are safe."""
        free = self.interior - mined - safe
        # inside[u]: placements of the mines the other interior cells hold when the frontier has low + u.
        most = self.remaining - self.low - mined
        inside = _binomial_row(free, most - (len(self.ways) - 1), most)[::-1]
        return sum(w * ways for w, ways in zip(self.ways, inside, strict=True))


class Analyzer:
    """An analysis engine with a cache: components seen before are not solved again.

    A component's solutions depend only on its own constraints, so after a move
    only the components touched by new numbers are solved; the rest come from
    the cache. One Analyzer per game makes re-analysis after every move cheap.

    ``state_budget`` bounds exact counting per component, ``work_budget`` the
    exact combination of all components with the interior (see
    :data:`WORK_BUDGET`); past either, the probabilities of that position are
    estimates and ``Analysis.exact`` is false, while the certainties stay exact.

    The Analyzer also keeps the constraints of the last position it saw
    (:class:`~minesat.analysis.constraints.FrontierModel`): the next position,
    a move later or one hypothetical cell away, updates them instead of
    rebuilding them.

    A board of at most :data:`SMALL_CELLS` cells takes a shorter road when
    the total is known (:meth:`_small`): the position is read whole as bit
    masks, and the same exact arithmetic gives the same analysis.
    ``small_boards=False`` keeps every board on the general road (the tests
    compare the two).
    """

    def __init__(
        self,
        state_budget: int = STATE_BUDGET,
        *,
        use_local_rules: bool = True,
        work_budget: int = WORK_BUDGET,
        small_boards: bool = True,
    ) -> None:
        # The settings that shape cached answers are fixed for the Analyzer's life
        # (read-only properties below): a cache need not key on them.
        self._state_budget = state_budget
        self._use_local_rules = use_local_rules
        self._small_boards = small_boards
        # The work budget bounds one call at a time and may be raised between calls:
        # a classification it cut short is never cached (:meth:`certainties`), and
        # the small road's last answer keys on it.
        self.work_budget = work_budget
        self._certain: dict[object, Certainties] = {}
        self._counts: dict[object, ComponentCount | None] = {}
        self._decided: dict[object, _Decided | None] = {}
        self._parts: dict[object, _Part | None] = {}
        self._no_layout: dict[object, bool] = {}  # keys of parts (in _parts as None) without a layout
        self._model = FrontierModel()
        # The last analysis of the small road: the game loop asks proven() and
        # then analyze() of the same position when nothing is proven.
        self._last: tuple[_PositionKey, Analysis] | None = None
        # The last position read on the small road (or why not).
        self._small_last: tuple[_PositionKey, _SmallPosition | _Off] | None = None

    @property
    def state_budget(self) -> int:
        """Most states exact counting may hold per component (fixed: cached counts depend on it)."""
        return self._state_budget

    @property
    def use_local_rules(self) -> bool:
        """Whether the local rules run before the solver (fixed for the Analyzer's life)."""
        return self._use_local_rules

    @property
    def small_boards(self) -> bool:
        """Whether small boards take the small road (fixed for the Analyzer's life)."""
        return self._small_boards

    def _cached(self, cache: dict[object, T], key: object, compute: Callable[[], T]) -> T:
        if key not in cache:
            self._cache(cache, key, compute())
        return cache[key]

    @staticmethod
    def _cache(cache: dict[object, T], key: object, value: T) -> T:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = value
        return value

    def certainties(self, component: Component, budget: WorkBudget | None = None) -> Certainties:
        """A component's certain cells on its own (local rules, then SAT), cached when complete."""
        key = component.key
        if key in self._certain:
            return self._certain[key]
        found = classify_component(component, use_local_rules=self.use_local_rules, budget=budget)
        if budget is None or not budget.ran_out:
            self._cache(self._certain, key, found)
        return found

    def count(self, component: Component) -> ComponentCount | None:
        return self._cached(self._counts, component.key, lambda: self._count(component))

    def _rules(self, component: Component) -> dict[Cell, bool]:
        """What the local rules decide in a component (nothing when they are off or break a number).

        Certainties first: a component the rules settle needs no count at all,
        and what they leave open is counted part by part. The rules cost a few
        steps per cell, so only a zero budget (every component "too large")
        turns them off.
        """
        if not self.use_local_rules or self.state_budget <= 0:
            return {}
        try:
            return local_rules(component.constraints)
        except InconsistentPositionError:
            return {}  # the count finds no layout; analyze names the number

    def _part_count(self, part: Component) -> ComponentCount | None:
        # A part is what the rules left open (or a component they decide nothing
        # in): they decide nothing more in it, so it goes straight to counting.
        return self._cached(self._counts, part.key, lambda: count_component(part, self.state_budget))

    def _count(self, component: Component) -> ComponentCount | None:
        decided = self._rules(component)
        if len(decided) == len(component.cells):
            return single_solution(component, decided)
        if decided:
            # Each part cached: a move elsewhere on the frontier leaves it unchanged.
            parts = split_decided(component, decided)
            counts = [self._part_count(part) for part in parts]
            if any(c is None for c in counts):
                return None
            return combine_parts(component, decided, parts, counts)  # type: ignore[arg-type]
        return count_component(component, self.state_budget)

    def decided(self, component: Component) -> _Decided | None:
        """A component's certain cells and its fewest and most mines, from counts alone.

        ``None`` when it has no layout or is past the budget. What the local
        rules decide is read directly, and each part they leave open adds its
        own (cached) certainties and range: a cell of a part is certain in the
        component exactly when it is in its part, since the other parts only
        multiply every count by the same nonzero polynomial. No combined count
        is built.
        """
        key = component.key
        if key in self._decided:
            return self._decided[key]
        rules = self._rules(component)
        if rules:
            safe = [cell for cell, mined in rules.items() if not mined]
            mine = [cell for cell, mined in rules.items() if mined]
            low = high = len(mine)
            for part in split_decided(component, rules) if len(rules) < len(component.cells) else ():
                found = self._decided_of_count(part, self._part_count(part))
                if found is None:
                    return self._cache(self._decided, key, None)
                safe += found[0]
                mine += found[1]
                low += found[2]
                high += found[3]
            return self._cache(self._decided, key, (tuple(safe), tuple(mine), low, high))
        # The rules decide nothing here: the component is counted whole (as a part would be).
        return self._cache(self._decided, key, self._decided_of_count(component, self._part_count(component)))

    def _decided_of_count(self, component: Component, count: ComponentCount | None) -> _Decided | None:
        key = component.key
        if key not in self._decided:
            found = None if count is None or not any(count.ways) else _decided_by(component, count)
            self._cache(self._decided, key, found)
        return self._decided[key]

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        """Classify every covered, unflagged cell; ``mines`` overrides ``position.mines``."""
        total = _total(position, mines)
        if total is not None and (analysis := self._small_analysis(position, total)) is not None:
            return analysis
        model = self._model
        model.update(position)
        components = model.components()

        if total is not None:
            counts = self._counts_of(components)
            remaining = total - model.flags
            _check_room(position, model, remaining)
            if all(c is not None for c in counts):
                # Exact counting decides every cell, the global count included:
                # the per-component SAT step would only repeat what it proves.
                return self._from_counts(position, total, model, components, counts, remaining)

        # The solver calls below share the work budget: a hostile position
        # (thousands of cells no count can take) stops at it, and is flagged
        # inexact, its certainties correct but perhaps incomplete.
        budget = WorkBudget(self.work_budget)
        if total is None:
            # Step 1: each component on its own (local rules, then SAT).
            # Without the total only certainties are promised (SPEC section 3);
            # every other covered cell reads None.
            safe: set[Cell] = set()
            mine: set[Cell] = set()
            for comp in components:
                s, m = self.certainties(comp, budget)
                safe |= s
                mine |= m
            probability: dict[Cell, float | None] = dict.fromkeys(safe, 0.0)
            probability.update(dict.fromkeys(mine, 1.0))
            return _build(position, total, safe, mine, probability, len(components), exact=not budget.ran_out)

        # Step 2': a component too large to count. Certainties come from SAT
        # with the global count (exact unless past the budget); probabilities
        # become estimates. A component with no layout of its own is named
        # first, as the count names it.
        frontier = model.frontier()
        found = None
        if affords_total_call(components, budget):
            for comp, count in zip(components, counts, strict=True):
                if count is None:
                    check_component(comp, use_local_rules=self.use_local_rules, budget=budget)
            found = classify_with_total(components, len(frontier.interior), remaining, budget)
        if found is None:
            # Too big for even one call with the total: each component's own
            # certainties (from its count, or SAT within the budget), which
            # are certain with the total too; what only the total decides, and
            # a total no layout can place, go unseen. (No separate check first:
            # classify_component names a component with no layout just as
            # check_component would, and a first call on 100 000 cells costs seconds.)
            safe, mine = set(), set()
            for comp, count in zip(components, counts, strict=True):
                own = self.certainties(comp, budget) if count is None else _decided_by(comp, count)
                safe.update(own[0])
                mine.update(own[1])
            interior = None
        else:
            (s, m), interior = found
            safe, mine = set(s), set(m)
        if interior is not None:
            (mine if interior else safe).update(frontier.interior)
        probability = _estimate(frontier, components, counts, safe, mine, remaining)
        return _build(position, total, safe, mine, probability, len(components), exact=False)

    def proven(
        self, position: Position, mines: int | None = None
    ) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
        """``(safe, mine)`` exactly as :meth:`analyze` gives them, without the probabilities.

        The game loop's question after every move. Each component's certain
        cells come from :meth:`decided` (local rules, then cached exact counts
        of what they leave open); the total adds nothing when
        every combination of component mine counts leaves the interior a
        number of mines it can hold (``remaining - interior <= min`` and
        ``max <= remaining``), and then no convolution, no probability and no
        grid is computed. Any other case (the total decides something, a
        component past the budget, no total, an inconsistent position) takes
        :meth:`analyze`'s road and returns its answer. A small board asks the
        same question on the small road (:meth:`_small`).

        >>> from minesat.board import Position
        >>> Analyzer().proven(Position.from_rows(["1?", "1?", "1?"], mines=1))
        (((0, 1), (2, 1)), ((1, 1),))
        """
        total = _total(position, mines)
        if total is None:
            a = self.analyze(position, mines)
            return a.safe, a.mine
        if (small_found := self._small(position, total)) is not None:
            proof = small_found.proven()
            if proof is not None:
                return proof
            analysis = self._small_analysis(position, total, small_found)
            if analysis is not None:
                return analysis.safe, analysis.mine
        model = self._model
        model.update(position)
        components = model.components()
        remaining = total - model.flags
        interior = model.interior_size
        low = high = 0
        decided = []
        for comp in components:
            found = self.decided(comp)
            if found is None:
                break
            decided.append(found)
            low += found[2]
            high += found[3]
        else:
            if _total_adds_nothing(remaining, interior, low, high):
                safe = sorted(cell for d in decided for cell in d[0])
                mine = sorted(cell for d in decided for cell in d[1])
                return tuple(safe), tuple(mine)
        a = self.analyze(position, mines)
        return a.safe, a.mine

    # --- the small-board road -----------------------------------------------

    def _small(self, position: Position, total: int) -> _SmallPosition | None:
        """The position read as masks, its local rules applied and its open parts counted.

        ``None`` sends it down the general road: a board too large, settings
        the small road cannot honour exactly, a number that cannot be met,
        a total that cannot fit, a part with no layout or past the budget.
        Everywhere else both roads give the same analysis: the conditions
        below make sure no budget of the general road could have cut it short.
        """
        found = self._small_or_why(position, total)
        return found if isinstance(found, _SmallPosition) else None

    def _small_or_why(self, position: Position, total: int) -> _SmallPosition | _Off:
        """:meth:`_small`, saying why the position is not on the small road: :data:`_NO_LAYOUT`
        when the road proves that no layout fits, :data:`_OFF_ROAD` for every other reason.

        The last answer is kept: a guess asks about its position several times (the game
        loop's proof, the long-term risk's counts, the look-ahead's reveals).
        """
        key = (position.rows, position.cols, position.cells, total, self.work_budget)
        if self._small_last is None or self._small_last[0] != key:
            self._small_last = (key, self._read_small(position, total))
        return self._small_last[1]

    def _read_small(self, position: Position, total: int) -> _SmallPosition | _Off:
        """:meth:`_small_or_why`, read afresh."""
        cells = position.rows * position.cols
        if not (
            self.small_boards
            and cells <= SMALL_CELLS
            # The general road's rules, which the small road always applies.
            and self.use_local_rules
            and self.state_budget > 0
            # The combination's work on n cells is at most 2n(n + 1) (see
            # _tables): with this budget neither road ever stops short.
            and self.work_budget >= 2 * cells * (cells + 1)
        ):
            return _OFF_ROAD
        reading = small.read(position)
        if reading is None:
            return _OFF_ROAD  # the general road names the number (or the state) that is wrong
        remaining = total - reading.flags.bit_count()
        if not 0 <= remaining <= reading.covered.bit_count():
            return _NO_LAYOUT
        settled = small.settle(reading.constraints)
        if settled is None:
            return _NO_LAYOUT  # the rules break a number
        safe, mine, rest = settled
        parts = []
        groups = []
        for _, constraints in small.split(rest):
            part = self._small_part(constraints, position.rows, position.cols)
            if part is None:
                return self._why_no_part(constraints, position.rows, position.cols)
            parts.append(part)
            groups.append(constraints)
        return _SmallPosition(reading, safe, mine, parts, remaining, groups)

    def _why_no_part(self, constraints: list[small.MaskConstraint], rows: int, cols: int) -> _Off:
        """Why :meth:`_small_part` found no part: :data:`_NO_LAYOUT` when the part has no layout,
        :data:`_OFF_ROAD` when its count is past the state budget."""
        key = (rows, cols, frozenset((mask, mines) for mask, mines, _ in constraints))
        return _NO_LAYOUT if key in self._no_layout else _OFF_ROAD

    def _small_part(self, constraints: list[small.MaskConstraint], rows: int, cols: int) -> _Part | None:
        """A part's layouts, cached by its constraints; ``None`` with no layout or past the budget.

        A mask means nothing without the board's width: bit ``r * cols + c`` is
        another cell on a board of another width (issue 18: a part of an 8x3
        board answered for a part of a 6x5 board). The key holds the board's
        shape beside the masks, so one Analyzer serves boards of any size.
        """
        key = (rows, cols, frozenset((mask, mines) for mask, mines, _ in constraints))
        if key in self._parts:
            return self._parts[key]
        mask = 0
        for c in constraints:
            mask |= c[0]
        layouts = None
        part = None
        if mask.bit_count() <= ENUMERATED_CELLS and self.state_budget >= 1 << (ENUMERATED_CELLS + 1):
            layouts = small.solutions(constraints, ENUMERATION_STEPS)
        if layouts is not None:
            part = _Part.of_layouts(mask, cols, layouts) if layouts else None
            if not layouts:
                self._cache(self._no_layout, key, True)
        else:
            component = Component(
                tuple(small.cells(mask, cols)),
                tuple(
                    Constraint(tuple(small.cells(m, cols)), mines, divmod(number, cols))
                    for m, mines, number in constraints
                ),
            )
            count = count_component(component, self.state_budget)
            if count is not None and any(count.ways):
                part = _Part.of_count(mask, cols, component.cells, count)
            elif count is not None:
                self._cache(self._no_layout, key, True)
        if part is not None:
            part.constraints = tuple(constraints)
        return self._cache(self._parts, key, part)

    def _small_analysis(
        self, position: Position, total: int, found: _SmallPosition | None = None
    ) -> Analysis | None:
        """The analysis on the small road, or ``None`` for the general road (see :meth:`_small`).

        The cells the local rules decide are certain; the parts they leave
        open combine as components do (a part is a component of what is left
        open). ``found`` is the position already read, when the caller has it.
        """
        key = (position.rows, position.cols, position.cells, total, self.work_budget)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        if found is None and (found := self._small(position, total)) is None:
            return None
        reading, parts = found.reading, found.parts
        cols = position.cols
        interior = reading.interior.bit_count()
        try:
            weights = _exact_probabilities(
                [part.count for part in parts],
                parts,
                interior,
                found.remaining - found.mine.bit_count(),
                self.work_budget,
            )
        except _TooMuchWork:  # pragma: no cover - _small's work budget condition rules it out
            return None
        if weights is None:
            return None  # no layout places the total: the general road names a number
        safe = set(small.cells(found.safe, cols))
        mine = set(small.cells(found.mine, cols))
        probability: dict[Cell, float | None] = dict.fromkeys(safe, 0.0)
        probability.update(dict.fromkeys(mine, 1.0))
        p_interior, interior_fate, layouts = _read_weights(weights, interior, safe, mine, probability)
        if interior_fate is not None:
            (mine if interior_fate else safe).update(small.cells(reading.interior, cols))
        analysis = _build(
            position, total, safe, mine, probability, small.components(reading.constraints), exact=True,
            layouts=layouts, otherwise=p_interior,
        )
        self._last = (key, analysis)
        return analysis

    def glance(self, position: Position, few: int = 2) -> Glance | None:
        """What a look-ahead reads of a position, without the rest of :meth:`analyze`'s answer.

        The same layout count as ``analyze(position).layouts``, the number of cells it proves
        safe, and the ``few`` lowest mine probabilities of the cells it leaves undecided,
        ascending, the very floats it gives them; ``None`` when no layout fits (where
        :meth:`analyze` raises). On the small road no grid of probabilities is built.
        Raises :class:`ValueError` when the total is unknown.

        >>> from minesat.board import Position
        >>> Analyzer().glance(Position.from_rows(["1??", "???"], mines=2))   # 3 x 2 layouts; A3, B3 at 1/2
        Glance(layouts=6, safe=0, lowest=(0.3333333333333333, 0.3333333333333333))
        >>> Analyzer().glance(Position.from_rows(["1?", "?3"], mines=1)) is None
        True
        """
        total = _total(position, None)
        if total is None:
            raise ValueError("a glance needs the total number of mines")
        found = self._small_or_why(position, total)
        if found is _NO_LAYOUT:
            return None
        if isinstance(found, _SmallPosition):
            interior = found.reading.interior.bit_count()
            return self._small_glance(found.parts, interior, found.remaining - found.mine.bit_count(),
                                      found.safe.bit_count(), few)
        try:
            analysis = self.analyze(position)
        except InconsistentPositionError:
            return None
        grid = analysis.probability
        probabilities = sorted(p for r, c in analysis.unknown if (p := grid[r][c]) is not None)
        return Glance(analysis.layouts, len(analysis.safe), tuple(probabilities[:few]))

    def glance_revealed(self, position: Position, cell: Cell, value: int, few: int = 2) -> Glance | None:
        """:meth:`glance` at ``position`` with ``cell`` uncovered showing ``value`` (nothing else opens).

        The look-ahead asks this of every number a candidate could show. On the small road
        the position is read once and each answer changes only what the one cell touches:
        the numbers beside it lose a covered cell, its own number joins them, and only the
        parts these numbers belong to are settled, split and counted again (the others
        cannot change: no number links them to the cell). The answer is the one
        :meth:`glance` gives for the revealed position.

        >>> from minesat.board import Position
        >>> position = Position.from_rows(["1??", "???"], mines=2)
        >>> Analyzer().glance_revealed(position, (0, 2), 2)    # A3 shows 2: B3 and A2 or B2 mined
        Glance(layouts=2, safe=1, lowest=(0.5, 0.5))
        """
        total = _total(position, None)
        if total is None:
            raise ValueError("a glance needs the total number of mines")
        found = self._small_or_why(position, total)
        # Only a position the rules decide nothing in: each part's constraints are then its numbers'.
        base = found if isinstance(found, _SmallPosition) and not (found.safe or found.mine) else None
        i = cell[0] * position.cols + cell[1]
        if base is not None and base.reading.covered >> i & 1:
            found = self._small_revealed(base, i, value, position.rows, position.cols)
        else:
            found = _OFF_ROAD
        if found is _NO_LAYOUT:
            return None
        if found is _OFF_ROAD:  # the revealed position glanced at as a whole
            cells = list(position.cells)
            cells[i] = value
            return self.glance(Position(position.rows, position.cols, tuple(cells), position.mines), few)
        assert base is not None
        parts, interior, safe, mine = found  # type: ignore[misc]
        return self._small_glance(parts, interior, base.remaining - mine.bit_count(), safe.bit_count(), few)

    def _small_revealed(
        self, base: _SmallPosition, i: int, value: int, rows: int, cols: int
    ) -> tuple[list[_Part], int, int, int] | _Off:
        """``base`` with cell ``i`` uncovered showing ``value``: its parts, interior cells and the
        rules' safe cells and mines (masks), as :meth:`_small` would find them; or why not."""
        reading = base.reading
        bit = 1 << i
        covered = reading.covered & ~bit
        if base.remaining > covered.bit_count():
            return _NO_LAYOUT  # every covered cell a mine: the cell cannot be safe
        around = reading.geometry.around[i]
        sees = around & covered
        need = value - (around & reading.flags).bit_count()
        if not 0 <= need <= sees.bit_count():
            return _OFF_ROAD  # a number no layout can meet: the general road names it
        touched = bit | sees
        local: list[small.MaskConstraint] = []
        parts: list[_Part] = []
        for part, group in zip(base.parts, base.groups, strict=True):
            if not part.mask & touched:
                parts.append(part)  # nothing links it to the cell: the same part
                continue
            for cells, mines, number in group:
                if cells & bit:
                    cells ^= bit  # the cell is safe: the number's mines are among its other cells
                    if not cells:
                        if mines:
                            return _NO_LAYOUT  # the cell was the number's last place for a mine
                        continue
                local.append((cells, mines, number))
        if sees:
            local.append((sees, need, i))
        settled = small.settle(local)
        if settled is None:
            return _NO_LAYOUT
        safe, mine, rest = settled
        for _, constraints in small.split(rest):
            part = self._small_part(constraints, rows, cols)
            if part is None:
                return self._why_no_part(constraints, rows, cols)
            parts.append(part)
        interior = (reading.interior & ~touched).bit_count()
        return parts, interior, safe, mine

    def _small_glance(
        self, parts: list[_Part], interior: int, remaining: int, safe: int, few: int
    ) -> Glance | None:
        """:meth:`glance` on the small road: :meth:`_small_analysis`'s numbers, read without a grid.

        ``remaining`` mines for the parts and the ``interior`` cells; ``safe`` cells the rules proved.
        """
        try:
            weights = _exact_probabilities([part.count for part in parts], parts, interior, remaining,
                                           self.work_budget)
        except _TooMuchWork:  # pragma: no cover - _small's work budget condition rules it out
            weights = None
        if weights is None:
            return None  # no layout places the total
        numerators, interior_mined, denominator = weights
        # As _read_weights: a weight of 0 is a safe cell, one of all the layouts a mine.
        undecided = []
        for num in numerators.values():
            if num == 0:
                safe += 1
            elif num != denominator:
                undecided.append(num)
        undecided.sort()
        lowest = [num / denominator for num in undecided[:few]]
        if interior:
            if interior_mined == 0:
                safe += interior
            elif interior_mined != denominator:
                lowest += [interior_mined / denominator] * min(interior, few)
                lowest.sort()
        return Glance(denominator // interior if interior else denominator, safe, tuple(lowest[:few]))

    def layouts(self, position: Position, mines: int | None = None) -> int | None:
        """The number of layouts consistent with ``position`` and the total: ``analyze(...).layouts``.

        Nothing but the count: no probability, no certainty, no grid, which
        makes it the cheap question of a look-ahead (P(a cell is safe and shows
        n) is ``layouts(position with that n) / layouts(position)``). 0 when no
        layout exists (where :meth:`analyze` raises); ``None`` when the total
        is unknown or a component is past a budget.

        >>> from minesat.board import Position
        >>> a = Analyzer()
        >>> a.layouts(Position.from_rows(["1?", "??"], mines=1))
        3
        >>> a.layouts(Position.from_rows(["1?", "?3"], mines=1))  # the 3 cannot be met
        0
        """
        counter = self.interior_counter(position, mines)
        return counter if counter is None or isinstance(counter, int) else counter.layouts()

    def interior_counter(self, position: Position, mines: int | None = None) -> InteriorCounter | int | None:
        """What :meth:`layouts` counts, kept open for questions about interior cells.

        Interior cells (covered, next to no number) are interchangeable, so the
        layouts in which some given ones are mines and others safe depend only on
        how many there are: :meth:`InteriorCounter.layouts` answers that at once,
        where flagging them and counting again would rebuild the frontier model.
        0 when no layout exists, ``None`` as :meth:`layouts`.

        >>> from minesat.board import Position
        >>> counter = Analyzer().interior_counter(Position.from_rows(["1??", "???"], mines=2))
        >>> counter.layouts(), counter.layouts(mined=1), counter.layouts(mined=2)   # C1 and C2 share one mine
        (6, 3, 0)
        """
        total = _total(position, mines)
        if total is None:
            return None
        model = self._model
        try:
            model.update(position)
        except InconsistentPositionError:
            return 0
        remaining = total - model.flags
        if remaining < 0 or remaining > model.covered:
            return 0
        counts = [self.count(comp) for comp in model.components()]
        if any(c is None for c in counts):
            return None
        try:
            cut = _tables(counts, model.components(), model.interior_size, remaining, self.work_budget)
        except _TooMuchWork:
            return None
        if cut is None:
            return 0
        tables, low, _ = cut
        # The frontier's ways by mine count: the product of the components' tables.
        product = [1]
        for _, t in tables:
            grown = [0] * (len(product) + len(t) - 1)
            for u, p in enumerate(product):
                if p:
                    for j, w in enumerate(t):
                        grown[u + j] += p * w
            product = grown
        return InteriorCounter(tuple(product), low, model.interior_size, remaining)

    def _counts_of(self, components: Sequence[Component]) -> list[ComponentCount | None]:
        counts = [self.count(comp) for comp in components]
        for comp, count in zip(components, counts, strict=True):
            if count is not None and not any(count.ways):
                self.certainties(comp)  # no layout at all: raises, naming a number in the conflict
        return counts

    def _from_counts(
        self,
        position: Position,
        total: int,
        model: FrontierModel,
        components: Sequence[Component],
        counts: Sequence[ComponentCount | None],
        remaining: int,
    ) -> Analysis:
        """Step 2: exact probabilities; a cell is certain when its weight is 0 or all."""
        interior = model.interior_size
        try:
            weights = _exact_probabilities(counts, components, interior, remaining, self.work_budget)
        except _TooMuchWork:
            return self._from_feasibility(position, total, model, components, counts, remaining)
        if weights is None:
            _raise_total_conflict(components, model.frontier(), remaining)
        probability: dict[Cell, float | None] = {}
        safe: set[Cell] = set()
        mine: set[Cell] = set()
        p_interior, interior_fate, layouts = _read_weights(weights, interior, safe, mine, probability)
        if interior_fate is not None:
            (mine if interior_fate else safe).update(model.frontier().interior)
        return _build(
            position, total, safe, mine, probability, len(components), exact=True,
            layouts=layouts, otherwise=p_interior,
        )


    def _from_feasibility(
        self,
        position: Position,
        total: int,
        model: FrontierModel,
        components: Sequence[Component],
        counts: Sequence[ComponentCount | None],
        remaining: int,
    ) -> Analysis:
        """Step 2, too big to combine exactly: exact certainties, estimated probabilities."""
        found = _certain_by_feasibility(counts, components, model.interior_size, remaining)
        if found is None:
            _raise_total_conflict(components, model.frontier(), remaining)
        safe, mine, fate = found
        frontier = model.frontier()
        if fate is not None:
            (mine if fate else safe).update(frontier.interior)
        probability = _estimate(frontier, components, counts, safe, mine, remaining)
        return _build(position, total, safe, mine, probability, len(components), exact=False)


#: What a cached answer about a whole position keys on: its size, cells, total and the work budget.
_PositionKey = tuple[int, int, tuple[int, ...], int, int]

#: A component's certain cells and its fewest and most mines: ``(safe, mine, low, high)``.
_Decided = tuple[tuple[Cell, ...], tuple[Cell, ...], int, int]


def _total_adds_nothing(remaining: int, interior: int, low: int, high: int) -> bool:
    """True when the total decides nothing the components do not decide on their own.

    Every combination of component counts (``low..high`` mines on the frontier)
    fits the interior, so the total rules none out; and it decides the interior
    only when the frontier's count is fixed and leaves it no mine or only mines.
    """
    fits = remaining - interior <= low and high <= remaining
    interior_open = not interior or low != high or 0 < remaining - low < interior
    return fits and interior_open


class _Part:
    """One part of the small road, counted: what its layouts decide, and the count itself.

    ``safe`` and ``mine`` are masks of the cells no layout mines and every
    layout mines; ``low`` and ``high`` its fewest and most mines. ``count``
    (by mine count, per cell) is built only when probabilities are wanted.
    """

    def __init__(self, mask: int, cols: int, safe: int, mine: int, low: int, high: int) -> None:
        self.mask, self.cols = mask, cols
        self.safe, self.mine, self.low, self.high = safe, mine, low, high
        self._layouts: list[int] | None = None
        self._count: ComponentCount | None = None
        self._cells: tuple[Cell, ...] | None = None
        #: The part's constraints (as the small road read them when it was first counted).
        self.constraints: tuple[small.MaskConstraint, ...] = ()

    @classmethod
    def of_layouts(cls, mask: int, cols: int, layouts: list[int]) -> _Part:
        """From every layout of the part, each as a mask of its mines (at least one)."""
        anywhere, everywhere = 0, mask
        sizes = [layout.bit_count() for layout in layouts]
        for layout in layouts:
            anywhere |= layout
            everywhere &= layout
        part = cls(mask, cols, mask & ~anywhere, everywhere, min(sizes), max(sizes))
        part._layouts = layouts
        return part

    @classmethod
    def of_count(cls, mask: int, cols: int, cells: tuple[Cell, ...], count: ComponentCount) -> _Part:
        """From the part's exact count (with at least one layout); ``cells`` are the mask's, row-major."""
        safe = mine = 0
        ways = count.ways
        for cell, bit in zip(cells, _bits(mask), strict=True):
            mined = count.mine_ways[cell]
            if not any(mined):
                safe |= bit
            elif mined == ways:
                mine |= bit
        support = [k for k, w in enumerate(ways) if w]
        part = cls(mask, cols, safe, mine, support[0], support[-1])
        part._count, part._cells = count, cells
        return part

    @property
    def cells(self) -> tuple[Cell, ...]:
        if self._cells is None:
            self._cells = tuple(small.cells(self.mask, self.cols))
        return self._cells

    @property
    def layouts(self) -> list[int] | None:
        """Every layout of the part as a mask of its mines, when it was enumerated; else ``None``."""
        return self._layouts

    @property
    def ways(self) -> tuple[int, ...]:
        """``ways[k]``: the part's layouts with ``k`` mines."""
        if self._count is not None or self._layouts is None:
            return self.count.ways
        ways = [0] * (self.mask.bit_count() + 1)
        for layout in self._layouts:
            ways[layout.bit_count()] += 1
        return tuple(ways)

    @property
    def count(self) -> ComponentCount:
        """The count :func:`_exact_probabilities` combines: ``ways[k]``, and per cell how many mine it."""
        if self._count is None:
            assert self._layouts is not None
            size = self.mask.bit_count() + 1
            ways = [0] * size
            mined: dict[int, list[int]] = {bit: [0] * size for bit in _bits(self.mask)}
            for layout in self._layouts:
                k = layout.bit_count()
                ways[k] += 1
                for bit in _bits(layout):
                    mined[bit][k] += 1
            self._count = ComponentCount(
                tuple(ways), {cell: tuple(mined[bit]) for cell, bit in zip(self.cells, mined, strict=True)}
            )
        return self._count


def _bits(mask: int) -> list[int]:
    """The single-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


@dataclass(frozen=True)
class _SmallPosition:
    """A position on the small road: its reading, the local rules' cells (masks), its counted parts."""

    reading: small.Reading
    safe: int
    mine: int
    parts: list[_Part]
    remaining: int  # mines not flagged
    groups: list[list[small.MaskConstraint]]  # each part's constraints

    def proven(self) -> tuple[tuple[Cell, ...], tuple[Cell, ...]] | None:
        """``(safe, mine)`` when the total adds nothing to what the parts decide, else ``None``."""
        low = high = self.mine.bit_count()
        safe, mine = self.safe, self.mine
        for part in self.parts:
            low += part.low
            high += part.high
            safe |= part.safe
            mine |= part.mine
        if not _total_adds_nothing(self.remaining, self.reading.interior.bit_count(), low, high):
            return None
        cols = self.reading.geometry.cols
        return tuple(small.cells(safe, cols)), tuple(small.cells(mine, cols))


def _decided_by(component: Component, count: ComponentCount) -> _Decided:
    """What a component proves on its own, read from its exact count."""
    ways = count.ways
    support = [k for k, w in enumerate(ways) if w]
    safe: list[Cell] = []
    mine: list[Cell] = []
    verdict: dict[int, list[Cell] | None] = {}  # cells of one box share their table
    for cell in component.cells:
        mined = count.mine_ways[cell]
        key = id(mined)
        if key not in verdict:
            verdict[key] = safe if not any(mined) else mine if mined == ways else None
        found = verdict[key]
        if found is not None:
            found.append(cell)
    return tuple(safe), tuple(mine), support[0], support[-1]


def _total(position: Position, mines: int | None) -> int | None:
    """The total to analyse with (``mines`` overrides the position's); a negative one is refused.

    >>> _total(Position.from_rows(["1?"], mines=1), -3)
    Traceback (most recent call last):
    ValueError: the total number of mines must be >= 0, not -3
    """
    total = mines if mines is not None else position.mines
    if total is not None and total < 0:
        raise ValueError(f"the total number of mines must be >= 0, not {total}")
    return total


def _check_room(position: Position, model: FrontierModel, remaining: int) -> None:
    """The total must leave a non-negative number of mines that fit under the covered cells."""
    covered = model.covered
    if remaining < 0:
        flag = position.cells_in(FLAG)[0]
        mines = plural(remaining + model.flags, "mine")
        raise InconsistentPositionError(flag, f"more flags than the {mines}")
    if remaining > covered:
        cells = position.cells_in(COVERED)
        where = cells[0] if cells else (0, 0)
        remain = f"{plural(remaining, 'mine')} {agree(remaining, 'remains', 'remain')}"
        raise InconsistentPositionError(where, f"{remain} but only {plural(covered, 'covered cell')}")


class _HasCells(Protocol):
    """What the combination of counts reads of a component: its cells (a part has them too)."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...


class _TooMuchWork(Exception):
    """Combining the components exactly would pass :data:`WORK_BUDGET`."""


def _binomial_row(n: int, low: int, high: int) -> list[int]:
    """``C(n, r)`` for ``r`` in ``low..high`` (0 outside ``0..n``): one binomial, then ratios.

    ``C(n, r + 1) = C(n, r) * (n - r) / (r + 1)`` exactly, so a big interior
    costs one large binomial, not one per possible number of frontier mines.

    >>> _binomial_row(5, -1, 6) == [0] + [comb(5, r) for r in range(6)] + [0]
    True
    """
    row = [0] * (high - low + 1)
    start, stop = max(low, 0), min(high, n)
    if start <= stop:
        value = comb(n, start)
        for r in range(start, stop + 1):
            row[r - low] = value
            value = value * (n - r) // (r + 1)
    return row


def _tables(
    counts: Sequence[ComponentCount | None],
    components: Sequence[_HasCells],
    interior: int,
    remaining: int,
    budget: int,
) -> tuple[list[tuple[int, tuple[int, ...]]], int, list[int]] | None:
    """Each component's ways cut to the mine counts it can have, as ``(fewest, ways)``;
    the fewest frontier mines in all; and ``inside[u]``, the placements of the
    interior's mines when the frontier holds ``fewest + u``.

    ``None`` when a component has no layout at all; :class:`_TooMuchWork`
    when combining them would pass ``budget``.
    """
    tables: list[tuple[int, tuple[int, ...]]] = []
    for count in counts:
        assert count is not None
        ways = count.ways
        support = [k for k, w in enumerate(ways) if w]
        if not support:
            return None
        tables.append((support[0], ways[support[0] : support[-1] + 1]))
    low = sum(lo for lo, _ in tables)
    width = 1 + sum(len(t) - 1 for _, t in tables)
    # Work: one product per pair of coefficients met, longer integers costing more.
    size = 1 + (sum(len(comp.cells) for comp in components) + interior) // 2000
    work, spread = 0, 1
    for _, t in tables:
        work += size * spread * len(t)
        spread += len(t) - 1
    if work > budget:
        raise _TooMuchWork
    inside = _binomial_row(interior, remaining - (low + width - 1), remaining - low)[::-1]
    return tables, low, inside


def _read_weights(
    weights: tuple[dict[Cell, int], int, int],
    interior: int,
    safe: set[Cell],
    mine: set[Cell],
    probability: dict[Cell, float | None],
) -> tuple[float | None, bool | None, int]:
    """Read :func:`_exact_probabilities`' weights into ``probability``, ``safe`` and ``mine``.

    A cell is certain when its weight is 0 or all of them. Returns the
    interior's probability (``None`` without an interior), its fate (``False``:
    every interior cell safe, ``True``: every one mined, ``None``: undecided or
    no interior), and the number of layouts. Interior cells are
    interchangeable: one division serves them all, and the caller lists them
    only when their fate is decided.
    """
    numerators, interior_mined, denominator = weights
    for cell, num in numerators.items():
        probability[cell] = num / denominator
        if num == 0:
            safe.add(cell)
        elif num == denominator:
            mine.add(cell)
    if not interior:
        return None, None, denominator
    fate = None if 0 < interior_mined < denominator else interior_mined == denominator
    return interior_mined / denominator, fate, denominator // interior


def _exact_probabilities(
    counts: Sequence[ComponentCount | None],
    components: Sequence[_HasCells],
    interior: int,
    remaining: int,
    budget: int = WORK_BUDGET,
) -> tuple[dict[Cell, int], int, int] | None:
    """Exact mine weights: ``(numerators, interior_numerator, denominator)``.

    ``counts[i]`` counts the layouts of ``components[i]`` (a component, or any
    group of cells no undecided number links to another). A layout is a choice of
    solution for each component plus a placement of the
    rest of the mines in the interior: a frontier solution with ``K`` mines in
    all extends in ``C(interior, remaining - K)`` ways. A frontier cell's
    probability is ``numerators[cell] / denominator``; every interior cell's is
    ``interior_numerator / denominator``. ``None`` when no layout exists;
    :class:`_TooMuchWork` past ``budget``.

    Each component's table is cut to the mine counts it can have. Going
    forward, ``before[i]`` counts the ways to fill components ``0..i-1`` by
    mines; going back, ``after[i][x]`` sums, over fillings of components
    ``i..`` and of the interior, the ways that complete ``x`` mines before
    them. A component's weights are then one correlation of the two, so the
    cost grows with the number of components times the spread of mine counts,
    never its square.
    """
    cut = _tables(counts, components, interior, remaining, budget)
    if cut is None:
        return None
    tables, low, inside = cut

    # after[i][u]: components i.. and the interior, from u extra mines before them.
    n = len(tables)
    after: list[list[int]] = [[]] * (n + 1)
    after[n] = inside
    for i in range(n - 1, -1, -1):
        t = tables[i][1]
        nxt = after[i + 1]
        after[i] = [sum(w * nxt[u + j] for j, w in enumerate(t)) for u in range(len(nxt) - len(t) + 1)]
    layouts = after[0][0]
    if layouts == 0:
        return None

    scale = interior or 1  # keeps every weight an integer (see interior_mined)
    numerators: dict[Cell, int] = {}
    before = [1]
    for i, (comp, count) in enumerate(zip(components, counts, strict=True)):
        assert count is not None
        lo, t = tables[i]
        nxt = after[i + 1]
        # weight[j]: ways to complete a solution of this component with lo + j mines.
        weight = [sum(p * nxt[u + j] for u, p in enumerate(before) if p) for j in range(len(t))]
        done: dict[int, int] = {}  # cells of one box share their table: one sum per box
        for cell in comp.cells:
            mined = count.mine_ways[cell]
            key = id(mined)
            if key not in done:
                done[key] = scale * sum(m * w for m, w in zip(mined[lo : lo + len(t)], weight, strict=True))
            numerators[cell] = done[key]
        grown = [0] * (len(before) + len(t) - 1)
        for u, p in enumerate(before):
            if p:
                for j, w in enumerate(t):
                    grown[u + j] += p * w
        before = grown
    # Interior cells share the mines the frontier leaves: in a layout whose
    # frontier holds K, each interior cell is mined in (remaining - K) / interior
    # of the placements. Scaling every weight by ``interior`` keeps this integer.
    interior_mined = sum(w * inside[u] * (remaining - low - u) for u, w in enumerate(before))
    return numerators, interior_mined, layouts * scale


def _certain_by_feasibility(
    counts: Sequence[ComponentCount | None],
    components: Sequence[Component],
    interior: int,
    remaining: int,
) -> tuple[set[Cell], set[Cell], bool | None] | None:
    """Exact certainties without exact probabilities: ``(safe, mine, interior)``, None if no layout.

    Which mine counts each component can have *together with the others* is a
    question of sets, not of counts. Most components can hold any count
    between their fewest and most mines, and a sum of such ranges is a range;
    the others (a count skipped in between) are combined as bit sets, by
    shifts. A count of component ``i`` is feasible when the others can make up
    a total the interior can absorb; a cell is then safe (mined) when no
    feasible count of its component ever mines (spares) it. ``interior`` is
    False (all safe), True (all mined) or None.
    """
    supports: list[int] = []
    for count in counts:
        assert count is not None
        supports.append(sum(1 << k for k, w in enumerate(count.ways) if w))
    fewest = [(bits & -bits).bit_length() - 1 for bits in supports]
    most = [bits.bit_length() - 1 for bits in supports]
    ranges = fewest, most
    solid = [bits == (1 << (hi + 1)) - (1 << lo) for bits, lo, hi in zip(supports, fewest, most, strict=True)]
    low = sum(lo for lo, whole in zip(ranges[0], solid, strict=True) if whole)
    high = sum(hi for hi, whole in zip(ranges[1], solid, strict=True) if whole)
    gapped = [i for i, whole in enumerate(solid) if not whole]
    # Bit sets of what the gapped components can hold together, all but one of them.
    after = [1] * (len(gapped) + 1)
    for g in range(len(gapped) - 1, -1, -1):
        after[g] = _sumset(after[g + 1], supports[gapped[g]])
    gap_all = after[0]
    gap_but: dict[int, int] = {}
    before = 1
    for g, i in enumerate(gapped):
        gap_but[i] = _sumset(before, after[g + 1])
        before = _sumset(before, supports[i])

    lo_total, hi_total = max(0, remaining - interior), remaining  # what the frontier may hold

    def reachable(bits: int, lo: int, hi: int, a: int, b: int) -> bool:
        # Some s in bits and t in lo..hi with a <= s + t <= b.
        return a <= b and _meets(bits, a - hi, b - lo)

    if not reachable(gap_all, low, high, lo_total, hi_total):
        return None
    safe: set[Cell] = set()
    mine: set[Cell] = set()
    for i, (comp, count) in enumerate(zip(components, counts, strict=True)):
        assert count is not None
        if solid[i]:
            bits, lo, hi = gap_all, low - ranges[0][i], high - ranges[1][i]
        else:
            bits, lo, hi = gap_but[i], low, high
        feasible = [
            k for k, w in enumerate(count.ways) if w and reachable(bits, lo, hi, lo_total - k, hi_total - k)
        ]
        for cell in comp.cells:
            mined = count.mine_ways[cell]
            if all(mined[k] == 0 for k in feasible):
                safe.add(cell)
            elif all(mined[k] == count.ways[k] for k in feasible):
                mine.add(cell)
    fate: bool | None = None
    if interior:
        if not reachable(gap_all, low, high, lo_total, remaining - 1):
            fate = False  # the frontier always holds every remaining mine
        elif remaining >= interior and not reachable(gap_all, low, high, lo_total + 1, hi_total):
            fate = True  # it always leaves the interior full
    return safe, mine, fate


def _sumset(a: int, b: int) -> int:
    """The bit set of sums of an element of ``a`` and one of ``b`` (shifts of the denser by the sparser)."""
    if a.bit_count() < b.bit_count():
        a, b = b, a
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out


def _meets(bits: int, low: int, high: int) -> bool:
    """Some bit of ``bits`` between ``low`` and ``high`` (inclusive, clipped at 0) is set."""
    if high < 0:
        return False
    low = max(low, 0)
    return bool((bits >> low) & ((1 << (high - low + 1)) - 1))


def _raise_total_conflict(components: Sequence[Component], frontier: Frontier, remaining: int) -> NoReturn:
    # The SAT classifier with the global count finds a number in the conflict.
    classify_with_total(components, len(frontier.interior), remaining)
    mines = plural(remaining, "remaining mine")
    raise InconsistentPositionError(frontier.frontier[0], f"no layout places the {mines}")


def _estimate(
    frontier: Frontier,
    components: Sequence[Component],
    counts: Sequence[ComponentCount | None],
    safe: set[Cell],
    mine: set[Cell],
    remaining: int,
) -> dict[Cell, float | None]:
    """Best-effort probabilities when some component could not be counted exactly.

    Counted components use their own solutions, equally weighted; the others a
    local density (what their numbers still need over the cells they see).
    The interior gets the mines the frontier is not expected to hold.
    """
    probability: dict[Cell, float | None] = {}
    expected_frontier = 0.0
    for comp, count in zip(components, counts, strict=True):
        if count is not None:
            total = sum(count.ways)
            for cell in comp.cells:
                probability[cell] = sum(count.mine_ways[cell]) / total
        else:
            density: dict[Cell, list[float]] = {}
            for c in comp.constraints:
                for cell in c.cells:
                    density.setdefault(cell, []).append(c.count / len(c.cells))
            for cell in comp.cells:
                probability[cell] = sum(density[cell]) / len(density[cell])
        for cell in comp.cells:
            if cell in safe:
                probability[cell] = 0.0
            elif cell in mine:
                probability[cell] = 1.0
            expected_frontier += probability[cell] or 0.0
    if frontier.interior:
        share = min(1.0, max(0.0, (remaining - expected_frontier) / len(frontier.interior)))
        for cell in frontier.interior:
            probability[cell] = 0.0 if cell in safe else 1.0 if cell in mine else share
    return probability


def _build(
    position: Position,
    total: int | None,
    safe: set[Cell],
    mine: set[Cell],
    probability: dict[Cell, float | None],
    components: int,
    exact: bool,
    layouts: int | None = None,
    otherwise: float | None = None,
) -> Analysis:
    """The Analysis value; covered cells missing from ``probability`` read ``otherwise``."""
    grid: list[tuple[float | None, ...]] = []
    unknown: list[Cell] = []
    cols, cells = position.cols, position.cells
    get = probability.get
    for r in range(position.rows):
        base = r * cols
        row = cells[base : base + cols]
        if COVERED not in row:
            grid.append(tuple(1.0 if s == FLAG else None for s in row))
            continue
        out: list[float | None] = []
        for c, state in enumerate(row):
            if state == COVERED:
                cell = (r, c)
                out.append(get(cell, otherwise))
                if cell not in safe and cell not in mine:
                    unknown.append(cell)
            else:
                out.append(1.0 if state == FLAG else None)
        grid.append(tuple(out))
    return Analysis(
        rows=position.rows,
        cols=position.cols,
        mines=total,
        safe=tuple(sorted(safe)),
        mine=tuple(sorted(mine)),
        unknown=tuple(unknown),
        probability=tuple(grid),
        components=components,
        exact=exact,
        layouts=layouts,
        position=position,
    )
