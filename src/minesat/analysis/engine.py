"""The analysis pipeline: constraints -> components -> local rules -> parts -> counts -> probabilities.

The story of :meth:`Analyzer.analyze`, in the order it runs:

1. The position's numbers become constraints, split into independent
   components (:class:`~minesat.analysis.constraints.FrontierModel`, kept
   up to date move by move).
2. In each component the local rules decide what single numbers decide
   (:func:`~minesat.analysis.classify.local_rules`); those cells are certain,
   and what they leave open often falls apart: each piece is a *part*,
   independent of every other part (:func:`~minesat.analysis.counting.split_decided`).
3. Each part is counted exactly by mine count (:func:`~minesat.analysis.counting.count_component`,
   cached: a move elsewhere leaves a part as it was).
4. The parts are combined with the interior under the total (:mod:`.combine`):
   exact integers where they stay affordable, else the close road (every
   probability within 1e-9 of its rational value); certainties from which mine
   counts are feasible, exactly.
5. A part no count takes (a hostile position) leaves the certainties to SAT with
   the total, within the work budget, and the probabilities to estimates
   (:mod:`.estimate`); ``exact`` is then false and ``why`` says why.

Small boards take a shorter road to the same answers (:mod:`.smallroad`).

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

import gc
import time
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

from minesat.analysis.classify import (
    Certainties,
    WorkBudget,
    affords_total_call,
    check_component,
    classify_component,
    classify_with_total,
    local_rules,
)
from minesat.analysis.combine import (
    LINEAR_WORK_FLOOR,
    WORK_BUDGET,
    NoLayout,
    Split,
    TooMuchWork,
    Weighed,
    certain_by_feasibility,
    exact_weights,
    read_weights,
    total_adds_nothing,
)
from minesat.analysis.constraints import Component, FrontierModel
from minesat.analysis.counting import STATE_BUDGET, ComponentCount, count_component, split_decided
from minesat.analysis.estimate import estimate_parts, estimate_position
from minesat.analysis.memo import remember
from minesat.analysis.result import Analysis, Glance, InconsistentPositionError, build_analysis, total_of
from minesat.analysis.smallroad import SMALL_CELLS, SmallRoad
from minesat.board import COVERED, FLAG, Cell, Position
from minesat.budget import Budget, OutOfTime, OverBudget, checkpoint, give_back, watching, which_budget
from minesat.errors import fill, option_name
from minesat.words import agree, plural

if TYPE_CHECKING:
    from minesat.analysis.bigroad import BigRoad
    from minesat.analysis.glance import InteriorCounter

__all__ = ["BIG_CELLS", "SMALL_CELLS", "WORK_BUDGET", "Analyzer", "Split", "analyze_within"]

#: Boards of at least this many cells take the big road (:mod:`.bigroad`) when the total is known.
BIG_CELLS = 20_000

#: A component's certain cells and its fewest and most mines: ``(safe, mine, low, high)``.
Decided = tuple[tuple[Cell, ...], tuple[Cell, ...], int, int]


class Analyzer:
    """An analysis engine with a cache: parts seen before are not counted again.

    A part's counts depend only on its own constraints, so after a move only
    the parts touched by new numbers are counted; the rest come from the
    cache. One Analyzer per game makes re-analysis after every move cheap.

    ``state_budget`` bounds exact counting per part, ``work_budget`` the
    exact integer combination of all parts with the interior (see
    :data:`~minesat.analysis.combine.WORK_BUDGET`; past it the close road
    weighs them, still exact to 1e-9) and the solver calls of a position
    whose parts no count takes; then the probabilities are estimates and
    ``Analysis.exact`` is false, while the certainties stay certain.

    The Analyzer also keeps the constraints of the last position it saw
    (:class:`~minesat.analysis.constraints.FrontierModel`): the next position,
    a move later or one hypothetical cell away, updates them instead of
    rebuilding them.

    A board of at most :data:`SMALL_CELLS` cells takes a shorter road when
    the total is known (:attr:`small_road`): the position is read whole as bit
    masks, and the same exact arithmetic gives the same analysis. A board of
    at least :data:`BIG_CELLS` cells takes the big
    road (:attr:`big_road`): read whole as arrays, with Python objects only for
    the parts the rules leave open, to the same analysis.
    ``small_boards=False`` and ``big_cells=None`` keep boards on the general
    road (the tests compare the roads; ``big_cells=0`` sends every board with
    a total down the big road).

    ``exact_work_per_cell`` bounds the exact integers further, by the cells
    weighed (the parts' and the interior's): their cost grows faster than the
    board, the close road's with it, so a caller that wants the time to grow
    with the board (``minesat analyze``) sets it. The default leaves the work
    budget alone: the player's probabilities, and so its ties, stay as they are.
    """

    def __init__(
        self,
        state_budget: int = STATE_BUDGET,
        *,
        use_local_rules: bool = True,
        work_budget: int = WORK_BUDGET,
        small_boards: bool = True,
        big_cells: int | None = BIG_CELLS,
        close_road: bool = True,
        exact_work_per_cell: int | None = None,
    ) -> None:
        # The settings that shape cached answers are fixed for the Analyzer's life
        # (read-only properties below): a cache need not key on them.
        self._state_budget = state_budget
        self._use_local_rules = use_local_rules
        self._small_boards = small_boards
        self._big_cells = big_cells
        self._exact_work_per_cell = exact_work_per_cell
        self._close_road = close_road
        # The work budget bounds one call at a time and may be raised between calls:
        # a classification it cut short is never cached (:meth:`certainties`), and
        # the small road's last answer keys on it.
        self.work_budget = work_budget
        self._certain: dict[object, Certainties] = {}
        self._counts: dict[object, ComponentCount | None] = {}
        self._splits: dict[object, tuple[dict[Cell, bool], tuple[Component, ...]]] = {}
        self._decided: dict[object, Decided | None] = {}
        self.model = FrontierModel()
        self.small_road = SmallRoad(self)
        self._big_road: BigRoad | None = None

    def forget(self) -> None:
        """Drop every cache and the frontier model: after a budget stopped the work midway
        (a model half updated must not be read again), or to give the memory back."""
        self._certain.clear()
        self._counts.clear()
        self._splits.clear()
        self._decided.clear()
        self.model = FrontierModel()
        self.small_road = SmallRoad(self)
        self._big_road = None

    @property
    def state_budget(self) -> int:
        """Most states exact counting may hold per part (fixed: cached counts depend on it)."""
        return self._state_budget

    @property
    def use_local_rules(self) -> bool:
        """Whether the local rules run before the solver (fixed for the Analyzer's life)."""
        return self._use_local_rules

    @property
    def small_boards(self) -> bool:
        """Whether small boards take the small road (fixed for the Analyzer's life)."""
        return self._small_boards

    @property
    def big_road(self) -> BigRoad:
        """The big road of this Analyzer (:mod:`.bigroad`; numpy is imported only once a board
        takes it: a small board's analysis starts without it)."""
        if self._big_road is None:
            from minesat.analysis.bigroad import BigRoad

            self._big_road = BigRoad(self, self._big_cells)
        return self._big_road

    @property
    def big_cells(self) -> int | None:
        """The fewest cells a board takes the big road with (``None``: never; fixed)."""
        return self._big_cells

    # --- parts and their counts ------------------------------------------------

    def certainties(self, component: Component, budget: WorkBudget | None = None) -> Certainties:
        """A component's certain cells on its own (local rules, then SAT), cached when complete."""
        key = component.key
        if key in self._certain:
            return self._certain[key]
        found = classify_component(component, use_local_rules=self.use_local_rules, budget=budget)
        if budget is None or not budget.ran_out:
            remember(self._certain, key, found)
        return found

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

    def split(self, component: Component) -> tuple[dict[Cell, bool], tuple[Component, ...]]:
        """What the local rules decide in ``component`` (True: a mine), and the parts they leave open.

        Decided cells no longer link the numbers around them, so the rest often
        falls apart: each part is independent of every other, in this component
        and in the others, and is counted (and cached) on its own.
        """
        key = component.key
        if key not in self._splits:
            rules = self._rules(component)
            if not rules:
                parts: tuple[Component, ...] = (component,)
            elif len(rules) == len(component.cells):
                parts = ()
            else:
                parts = tuple(split_decided(component, rules))
            remember(self._splits, key, (rules, parts))
        return self._splits[key]

    def part_count(self, part: Component) -> ComponentCount | None:
        """A part's exact count by mine count (cached), or ``None`` past the state budget.

        A part is what the rules left open (or a component they decide nothing
        in): they decide nothing more in it, so it goes straight to counting.
        """
        key = part.key
        if key not in self._counts:
            remember(self._counts, key, count_component(part, self.state_budget))
        return self._counts[key]

    def parts_of(self, components: Sequence[Component], *, check: bool = False) -> Split | None:
        """Every component's rules and parts, each part counted; ``None`` when a part has no layout
        (with ``check``, :class:`InconsistentPositionError` naming a number in it instead)."""
        safe: list[Cell] = []
        mine: list[Cell] = []
        parts: list[Component] = []
        counts: list[ComponentCount | None] = []
        for comp in components:
            checkpoint()
            rules, pieces = self.split(comp)
            for cell, mined in rules.items():
                (mine if mined else safe).append(cell)
            for part in pieces:
                count = self.part_count(part)
                if count is not None and not any(count.ways):
                    if check:
                        self.certainties(comp)  # no layout at all: raises, naming a number in the conflict
                    return None
                parts.append(part)
                counts.append(count)
        return Split(tuple(safe), tuple(mine), tuple(parts), tuple(counts))

    def decided(self, component: Component) -> Decided | None:
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
        rules, parts = self.split(component)
        safe = [cell for cell, mined in rules.items() if not mined]
        mine = [cell for cell, mined in rules.items() if mined]
        low = high = len(mine)
        for part in parts:
            found = self._decided_of_part(part)
            if found is None:
                return remember(self._decided, key, None)
            safe += found[0]
            mine += found[1]
            low += found[2]
            high += found[3]
        return remember(self._decided, key, (tuple(safe), tuple(mine), low, high))

    def _decided_of_part(self, part: Component) -> Decided | None:
        key = part.key
        if key not in self._decided:
            count = self.part_count(part)
            found = None if count is None or not any(count.ways) else _decided_by(part, count)
            remember(self._decided, key, found)
        return self._decided[key]

    # --- the analysis ----------------------------------------------------------

    def analyze(self, position: Position, mines: int | None = None) -> Analysis:
        """Classify every covered, unflagged cell; ``mines`` overrides ``position.mines``."""
        total = total_of(position, mines)
        if total is not None and (analysis := self.small_road.analysis(position, total)) is not None:
            return analysis
        big = self._big_cells is not None and position.rows * position.cols >= self._big_cells
        if big and (analysis := self.big_road.analysis(position, total)) is not None:
            return analysis
        model = self.model
        model.update(position)
        components = model.components()
        if total is None:
            return self._without_total(position, components)
        remaining = total - model.flags
        _check_room(position, model, remaining)
        split = self.parts_of(components, check=True)
        assert split is not None
        try:
            weighed = self.weigh(split, model.interior_size, remaining - len(split.mine))
        except NoLayout:
            _raise_total_conflict(model, remaining)
        safe, mine = weighed.safe | set(split.safe), weighed.mine | set(split.mine)
        if weighed.fate is not None:
            (mine if weighed.fate else safe).update(model.frontier().interior)
        probability: dict[Cell, float | None] = dict.fromkeys(split.safe, 0.0)
        probability.update(dict.fromkeys(split.mine, 1.0))
        probability.update(weighed.probability)
        return build_analysis(
            position, total, safe, mine, probability, len(components), exact=weighed.exact,
            layouts=weighed.layouts, otherwise=weighed.interior, why=weighed.why,
            consistent=weighed.consistent,
        )

    def _without_total(self, position: Position, components: Sequence[Component]) -> Analysis:
        """Each component on its own (local rules, then SAT). Without the total only certainties
        are promised (docs/commands/analyze.md, ``probability``); every other covered cell reads
        None. The solver calls share the work budget: a hostile position stops at it, flagged
        inexact, its certainties correct but perhaps incomplete."""
        budget = WorkBudget(self.work_budget)
        safe: set[Cell] = set()
        mine: set[Cell] = set()
        for comp in components:
            s, m = self.certainties(comp, budget)
            safe |= s
            mine |= m
        probability: dict[Cell, float | None] = dict.fromkeys(safe, 0.0)
        probability.update(dict.fromkeys(mine, 1.0))
        return build_analysis(
            position, None, safe, mine, probability, len(components), exact=not budget.ran_out,
            why=_SOLVER_CUT,
        )

    def weigh(self, split: Split, interior: int, left: int) -> Weighed:
        """The parts of ``split`` weighed with ``interior`` cells under ``left`` mines (the total
        less the flags and the mines the rules found): exact integers, else the close road,
        else (a part too large to count) estimates with what SAT proves. The rules' own cells
        are the caller's. :class:`NoLayout` when no layout places the mines."""
        if all(c is not None for c in split.counts):
            # Exact counting decides every cell, the global count included:
            # the per-component SAT step would only repeat what it proves.
            try:
                return self._exact(split, interior, left)
            except TooMuchWork:
                return self._close(split, interior, left)
        return self._past_counting(split, interior, left)

    def without_total(self, split: Split) -> Weighed:
        """What the parts of ``split`` prove on their own, the total unknown: each part's certain
        cells from its count, or SAT within the work budget for a part no count takes (then
        perhaps incomplete: ``exact`` false). Every other cell reads None (docs/commands/analyze.md,
        ``probability``)."""
        budget = WorkBudget(self.work_budget)
        safe: set[Cell] = set()
        mine: set[Cell] = set()
        for part, count in zip(split.parts, split.counts, strict=True):
            own = self.certainties(part, budget) if count is None else _decided_by(part, count)
            safe.update(own[0])
            mine.update(own[1])
        probability: dict[Cell, float | None] = dict.fromkeys(safe, 0.0)
        probability.update(dict.fromkeys(mine, 1.0))
        return Weighed(safe, mine, probability, None, None, exact=not budget.ran_out, why=_SOLVER_CUT)

    def _exact(self, split: Split, interior: int, left: int) -> Weighed:
        """Every part counted: exact probabilities; a cell is certain when its weight is 0 or all."""
        budget = self.work_budget
        if self._exact_work_per_cell is not None:
            cells = interior + sum(len(part.cells) for part in split.parts)
            budget = min(budget, max(LINEAR_WORK_FLOOR, self._exact_work_per_cell * cells))
        weights = exact_weights(split.counts, split.parts, interior, left, budget)
        if weights is None:
            raise NoLayout
        safe: set[Cell] = set()
        mine: set[Cell] = set()
        probability: dict[Cell, float | None] = {}
        p_interior, fate, layouts = read_weights(weights, interior, safe, mine, probability)
        return Weighed(safe, mine, probability, p_interior, fate, exact=True, layouts=layouts)

    def _close(self, split: Split, interior: int, left: int) -> Weighed:
        """Every part counted, too many to combine in exact integers: exact certainties (by which
        mine counts are feasible), probabilities by the close road (within 1e-9), no layout count."""
        found = certain_by_feasibility(split.counts, split.parts, interior, left)
        if found is None:
            raise NoLayout
        safe, mine, fate = found
        # Here, not at the top: the close road computes in numpy, which a small board never loads.
        from minesat.analysis.close import NotClose, close_weights

        why = None
        try:
            if not self._close_road:
                raise NotClose("the close road is off")
            close = close_weights(split.counts, split.parts, interior, left)
        except NotClose as err:
            close, why = None, f"too many parts to weigh exactly ({err})"
        if close is None:
            weights, p_interior = estimate_parts(split.parts, split.counts, interior, left, safe, mine)
        else:
            weights, p_interior = close.probability, close.interior
        # Certain cells read 0 and 1; the others never do, however close a weight came.
        probability: dict[Cell, float | None] = {
            cell: 0.0 if cell in safe else 1.0 if cell in mine else _open(p) for cell, p in weights.items()
        }
        if fate is not None:
            p_interior = 1.0 if fate else 0.0
        elif p_interior is not None:
            p_interior = _open(p_interior)
        return Weighed(safe, mine, probability, p_interior, fate, exact=close is not None, why=why)

    def _past_counting(self, split: Split, interior: int, left: int) -> Weighed:
        """A part too large to count. Certainties come from SAT with the global count (exact unless
        past the work budget); probabilities become estimates. A part with no layout of its own is
        named first, as the count names it."""
        budget = WorkBudget(self.work_budget)
        parts, counts = split.parts, split.counts
        found = None
        if affords_total_call(parts, budget):
            for part, count in zip(parts, counts, strict=True):
                if count is None:
                    check_component(part, use_local_rules=self.use_local_rules, budget=budget)
            found = classify_with_total(parts, interior, left, budget)
        safe: set[Cell] = set()
        mine: set[Cell] = set()
        fate: bool | None = None
        if found is None:
            # Too big for even one call with the total: each part's own certainties (from
            # its count, or SAT within the budget), which are certain with the total too;
            # what only the total decides, and a total no layout can place, go unseen. (No
            # separate check first: classify_component names a part with no layout just as
            # check_component would, and a first call on 100 000 cells costs seconds.)
            for part, count in zip(parts, counts, strict=True):
                own = self.certainties(part, budget) if count is None else _decided_by(part, count)
                safe.update(own[0])
                mine.update(own[1])
        else:
            (s, m), fate = found
            safe |= s
            mine |= m
        estimated, p_interior = estimate_parts(parts, counts, interior, left, safe, mine)
        probability: dict[Cell, float | None] = dict(estimated)
        if fate is not None:
            p_interior = 1.0 if fate else 0.0
        probability.update(dict.fromkeys(safe, 0.0))
        probability.update(dict.fromkeys(mine, 1.0))
        largest = max(len(part.cells) for part, count in zip(parts, counts, strict=True) if count is None)
        why = f"a part of {plural(largest, 'cell')} is past the counting budget"
        if budget.ran_out:
            why += "; " + _SOLVER_CUT
        return Weighed(
            safe, mine, probability, p_interior, fate, exact=False, why=why,
            consistent=None if budget.ran_out and found is None else True,
        )

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
        same question on the small road (:attr:`small_road`).

        >>> from minesat.board import Position
        >>> Analyzer().proven(Position.from_rows(["1?", "1?", "1?"], mines=1))
        (((0, 1), (2, 1)), ((1, 1),))
        """
        total = total_of(position, mines)
        if total is None:
            a = self.analyze(position, mines)
            return a.safe, a.mine
        if (small_found := self.small_road.position(position, total)) is not None:
            proof = small_found.proven()
            if proof is not None:
                return proof
            analysis = self.small_road.analysis(position, total, small_found)
            if analysis is not None:
                return analysis.safe, analysis.mine
        model = self.model
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
            if total_adds_nothing(remaining, interior, low, high):
                safe = sorted(cell for d in decided for cell in d[0])
                mine = sorted(cell for d in decided for cell in d[1])
                return tuple(safe), tuple(mine)
        a = self.analyze(position, mines)
        return a.safe, a.mine

    # --- the look-ahead's questions (:mod:`.glance`) ----------------------------

    def glance(self, position: Position, few: int = 2) -> Glance | None:
        """:func:`minesat.analysis.glance.glance`: layouts, safe cells, lowest probabilities."""
        return _glances().glance(self, position, few)

    def glance_revealed(self, position: Position, cell: Cell, value: int, few: int = 2) -> Glance | None:
        """:func:`minesat.analysis.glance.glance_revealed`: :meth:`glance` with one cell revealed."""
        return _glances().glance_revealed(self, position, cell, value, few)

    def layouts(self, position: Position, mines: int | None = None) -> int | None:
        """:func:`minesat.analysis.glance.layouts`: the layout count alone (0 without a layout).

        >>> from minesat.board import Position
        >>> Analyzer().layouts(Position.from_rows(["1?", "??"], mines=1))
        3
        """
        return _glances().layouts(self, position, mines)

    def interior_counter(
        self, position: Position, mines: int | None = None
    ) -> InteriorCounter | int | None:
        """:func:`minesat.analysis.glance.interior_counter`: the count kept open for interior cells."""
        return _glances().interior_counter(self, position, mines)


#: The share of a time limit the exact analysis may take; the rest is for what propagation
#: proves and the estimates (:func:`~minesat.analysis.estimate.estimate_position`) and for
#: writing the answer, should the exact analysis not finish.
EXACT_SHARE = 0.6

#: Seconds, per cell of the board, that propagation takes past a budget on the dearest
#: positions measured (0.8-1.0 s on 1000x1000 meshes and half-uncovered boards), doubled:
#: it runs whole (docs/commands/analyze.md promises what it proves), so the exact analysis stops
#: early enough to leave it this.
PROPAGATION_SECONDS_PER_CELL = 2e-6

#: Seconds, per cell, kept for building the answer and writing its JSON line once the
#: estimates stop (1.3 s on a 1000x1000 mesh of estimates, under load), with room to spare.
ANSWER_SECONDS_PER_CELL = 2e-6

#: Seconds, per cell, that reading a position file takes (0.6 s for 1000x1000), doubled.
READ_SECONDS_PER_CELL = 1.2e-6


def seconds_needed(cells: int) -> float:
    """The fewest seconds an answer past a budget needs on a board of ``cells`` cells: reading
    it, propagation, the answer written (a time limit that allows less is refused,
    docs/commands/analyze.md: a 1000x1000 board needs more than ``--time-limit 2``).

    >>> round(seconds_needed(1_000_000), 1), round(seconds_needed(480), 4)
    (5.2, 0.0025)
    """
    return (READ_SECONDS_PER_CELL + PROPAGATION_SECONDS_PER_CELL + ANSWER_SECONDS_PER_CELL) * cells


def allowed_seconds(limit: float) -> float:
    """The seconds a ``--time-limit`` of ``limit`` may take (docs/commands/analyze.md): 10 % + 1 s more.

    >>> allowed_seconds(1.0)
    2.1
    """
    return 1.1 * limit + 1.0


def analyze_within(
    analyzer: Analyzer,
    position: Position,
    mines: int | None = None,
    budget: Budget | None = None,
    began: float | None = None,
    read: float | None = None,
) -> Analysis:
    """:meth:`Analyzer.analyze` within a time and memory ``budget`` (docs/commands/analyze.md,
    Past a budget).

    The exact analysis runs under :data:`EXACT_SHARE` of the time limit (less on a big
    board: propagation and the answer must still fit) and the memory budget, watched at
    every long step (:func:`~minesat.budget.checkpoint`); past either, the analyzer
    forgets what it held, and the position is answered by
    :func:`~minesat.analysis.estimate.estimate_position`: every cell propagation proves
    (propagation runs whole), estimated probabilities (the beliefs stop where the answer
    must be written), ``exact`` false, ``why`` the budget, ``consistent`` None unless
    settled. ``began`` (a ``time.perf_counter()``) is when the time started counting:
    when the caller began reading the position, say, or the command started; ``read``,
    when the reading began (by default ``began``): how long it took says how busy the
    machine is. An inconsistent position still
    raises :class:`InconsistentPositionError`. Without a budget this is :meth:`Analyzer.analyze`.

    >>> from minesat.budget import Budget
    >>> position = Position.from_rows(["1?", "?1"], mines=1)
    >>> a = analyze_within(Analyzer(), position, budget=Budget(time_limit=0.0))
    >>> a.exact, a.why, a.safe, a.consistent
    (False, 'past --time-limit 0 s', (), None)
    >>> a.stop.what, a.stop.limit
    ('time', 0.0)
    """
    budget = budget or Budget()
    now = time.perf_counter()
    began = now if began is None else began
    read = began if read is None else read
    limit = budget.time_limit
    cells = position.rows * position.cols
    # A machine busy with other work reads the board slower than it should, and will
    # propagate and write slower too: the time kept for them grows as much.
    slowdown = min(10.0, max(1.0, (now - read) / (READ_SECONDS_PER_CELL / 2 * cells)))
    try:
        first = None
        if limit is not None:
            rest = (PROPAGATION_SECONDS_PER_CELL + ANSWER_SECONDS_PER_CELL) * cells * slowdown
            first = max(0.0, min(limit * EXACT_SHARE, allowed_seconds(limit) - rest))
            if now - began >= first:  # reading the board took the exact analysis's share already
                raise OutOfTime(now - began, limit)
        with watching(Budget(time_limit=first, max_memory=budget.max_memory).clock(began=began)):
            return analyzer.analyze(position, mines)
    except (OverBudget, MemoryError) as err:
        stop: BaseException = err  # kept past the except block, for the answer's ``stop``
        why = fill(which_budget(stop, budget)[0], option_name)  # as analyze --json says it
        # Without its traceback: the frames it holds hold the exact analysis's arrays and parts
        # (hundreds of megabytes on a hostile board), which the estimates would be made beside.
        _forget_frames(stop)
    analyzer.forget()
    gc.collect()
    give_back()
    # The beliefs may use the time a limit allows (10 % + 1 s past it: docs/commands/analyze.md), less
    # what writing the answer takes.
    beliefs = None
    if limit is not None:
        beliefs = max(0.0, allowed_seconds(limit) - ANSWER_SECONDS_PER_CELL * cells * slowdown - 0.1)
    clock = Budget(time_limit=beliefs, max_memory=budget.max_memory).clock(began=began)
    return replace(estimate_position(position, total_of(position, mines), why, clock), stop=stop)


def _forget_frames(err: BaseException) -> None:
    """Drop the tracebacks of ``err`` and of the exceptions it was raised from or during."""
    seen: set[int] = set()
    at: BaseException | None = err
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        at.__traceback__ = None
        at = at.__cause__ or at.__context__


#: Said when the solver's share of the work budget ran out.
_SOLVER_CUT = "the solver ran out of its work budget: some certain cells may be missing"


def _open(p: float) -> float:
    """A probability of a cell that is not certain, kept off 0 and 1 (a weight too small for a
    float must not read as a proof)."""
    return min(max(p, 5e-324), 1.0 - 2.0**-53)


def _decided_by(component: Component, count: ComponentCount) -> Decided:
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


def _raise_total_conflict(model: FrontierModel, remaining: int) -> NoReturn:
    # The SAT classifier with the global count, on the whole components, finds a number in the conflict.
    classify_with_total(model.components(), model.interior_size, remaining)
    mines = plural(remaining, "remaining mine")
    frontier = model.frontier().frontier
    raise InconsistentPositionError(frontier[0] if frontier else (0, 0), f"no layout places the {mines}")


#: :mod:`.glance`, once :func:`_glances` has imported it.
_GLANCE: ModuleType | None = None


def _glances() -> ModuleType:
    """:mod:`.glance`, imported when a look-ahead first asks: ``analyze`` never does (it reads
    :mod:`.reveal` too, a start-up cost a command that only analyses need not pay). Kept in a
    global: a game asks hundreds of times, and an import statement costs a microsecond each."""
    global _GLANCE
    if _GLANCE is None:
        from minesat.analysis import glance

        _GLANCE = glance
    return _GLANCE
