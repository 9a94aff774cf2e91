"""Which covered cells are certainly safe or certainly mined: local rules, then SAT.

The story, in the order the deductions run:

1. *Local rules* (:func:`local_rules`): a number whose mines are all accounted
   for makes its other cells safe; a number needing as many mines as it has
   cells makes them all mines. Repeated until nothing changes. Cheap, and they
   settle most cells of a real game.
2. *SAT* (:func:`classify_component`): what the rules leave open goes to
   Minicard, whose native cardinality constraints state "exactly k of these
   cells" directly. A cell is certain when the opposite value is unsatisfiable.
   Every model found is kept: a cell already seen both mined and safe needs no
   further call.
3. *The global count* (:func:`classify_with_total`): with the total known, the
   frontier must hold between ``remaining - interior`` and ``remaining`` mines.
   This couples the components and decides the interior.

Both roads give the same answer: the local rules are a shortcut, never a
different judgement (the tests check this).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from minesat.analysis.constraints import Component, Constraint
from minesat.analysis.result import InconsistentPositionError
from minesat.board import Cell
from minesat.budget import checkpoint
from minesat.words import plural

__all__ = [
    "FIRST_CALL_CELLS",
    "FIRST_TOTAL_CALL_CELLS",
    "SAT_CELLS_PER_UNIT",
    "SAT_SOLVER",
    "TOTAL_CELLS_SCALE",
    "CardinalitySolver",
    "Certainties",
    "WorkBudget",
    "affords_total_call",
    "check_component",
    "classify_component",
    "classify_with_total",
    "conflict_source",
    "local_rules",
    "solver_call_cost",
]

#: The one place the SAT back end is chosen. Minicard states "at most k" natively;
#: measured 3-30x faster than CNF encodings of the same cardinality constraints.
SAT_SOLVER = "mc"

Certainties = tuple[frozenset[Cell], frozenset[Cell]]  # (safe, mine)

#: What one solver call costs in the units of the engine's work budget (one
#: product of two 2000-bit integers, about 2.5 us): a call on v cells, with
#: reading its model, took about v / 32 of them (measured on components of
#: 2,600 to 180,000 cells).
SAT_CELLS_PER_UNIT = 32

#: With the global count, Minicard's two cardinality constraints span the whole
#: frontier and a call grows faster than the cells: measured, 1.2x the linear
#: cost at 29,000 cells, 2.7x at 117,000, 4x to 10x at 180,000.
TOTAL_CELLS_SCALE = 40_000

#: The first call of a solver searches from nothing and grows with the square
#: of the cells: measured 0.04 s on 20,000 open cells, 0.2 s on 46,000, 1.8 s
#: on 128,000, some 60 s on 750,000. It costs ``(cells / FIRST_CALL_CELLS) ** 2``
#: units more than the others.
FIRST_CALL_CELLS = 150

#: With the global count the first call must also find a layout holding exactly
#: the mines left, and grows with the cube of the cells: measured on meshes of
#: numbers (``benchmarks/hostile.py``), 0.33 s on 29,000 open cells, 3.4 s on
#: 66,000, 8.2 s on 89,000, 22 s on 117,000 (about ``(cells / 560) ** 3``
#: units). Priced by the square alone, the calls on the 500x500 mesh's
#: 182,000 frontier cells fitted the budget and ran 98 s (a profile).
FIRST_TOTAL_CALL_CELLS = 560


def solver_call_cost(cells: int, *, total: bool = False, first: bool = False) -> int:
    """What one call on ``cells`` cells costs, in work units (``total``: with the global
    count; ``first``: the solver's first call).

    >>> solver_call_cost(3200), solver_call_cost(3200, total=True), solver_call_cost(120_000, total=True)
    (101, 101, 37510)
    >>> solver_call_cost(120_000, first=True), solver_call_cost(120_000, total=True, first=True)
    (643751, 10477854)
    """
    cost = 1 + cells // SAT_CELLS_PER_UNIT
    if total:
        cost *= 1 + (cells // TOTAL_CELLS_SCALE) ** 2
    if first:
        cost += (cells // FIRST_CALL_CELLS) ** 2
        if total:
            cost += (cells // FIRST_TOTAL_CALL_CELLS) ** 3
    return cost


class WorkBudget:
    """The work one analysis may still spend on solver calls, in the engine's units.

    ``ran_out`` turns true at the first call refused: the certainties found
    until then are certain (if the position has a layout at all: a component
    too big for even one call is not checked), but some may be missing.
    """

    def __init__(self, units: int) -> None:
        self.left = units
        self.ran_out = False

    def spend(self, units: int) -> bool:
        """Take ``units`` if they are left (True), else refuse and mark the budget spent."""
        if not self.affords(units):
            return False
        self.left -= units
        return True

    def affords(self, units: int) -> bool:
        """Whether ``units`` are left, without taking them (if not, the budget is marked spent)."""
        if units > self.left:
            self.ran_out = True
            return False
        return True


class CardinalitySolver:
    """Minicard over a fixed list of cells, with "exactly k" constraints.

    A constraint may carry a *selector* variable: it then holds only when the
    selector is assumed true, which is how unsatisfiable cores name the numbers
    behind a deduction.
    """

    def __init__(self, cells: Sequence[Cell]) -> None:
        self.var: dict[Cell, int] = {cell: i + 1 for i, cell in enumerate(cells)}
        self.cells = list(cells)
        self.top = len(cells)
        # Imported here, where SAT runs: the small road decides most positions without it, and
        # importing pysat is a sixth of a command's start-up.
        from pysat.solvers import Solver

        self.solver = Solver(name=SAT_SOLVER)

    def __enter__(self) -> CardinalitySolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.delete()

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def at_most(self, lits: Sequence[int], k: int, selector: int | None = None) -> None:
        """At most ``k`` of ``lits`` true (when ``selector`` is true, if given)."""
        n = len(lits)
        if k >= n:
            return  # always holds
        if k < 0:
            self.solver.add_clause([-selector] if selector else [])
            return
        if selector is None:
            self.solver.add_atmost(list(lits), k)
            return
        # Guarded form: n - k fresh literals forced true by the selector fill the
        # slack, so "at most n of lits + padding" means "at most k of lits".
        padding = [self.new_var() for _ in range(n - k)]
        for p in padding:
            self.solver.add_clause([-selector, p])
        self.solver.add_atmost(list(lits) + padding, n)

    def exactly(self, cells: Iterable[Cell], k: int, selector: int | None = None) -> None:
        lits = [self.var[c] for c in cells]
        self.at_most(lits, k, selector)
        self.at_most([-v for v in lits], len(lits) - k, selector)  # at least k

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        return bool(self.solver.solve(assumptions=list(assumptions)))

    def mined_in_model(self) -> set[Cell]:
        model = self.solver.get_model() or []
        return {cell for cell, v in self.var.items() if model[v - 1] > 0}

    def core(self) -> set[int]:
        return set(self.solver.get_core() or ())

    def certain_cells(
        self,
        cells: Sequence[Cell],
        assumptions: Sequence[int] = (),
        budget: WorkBudget | None = None,
        total: bool = False,
    ) -> Certainties | None:
        """Classify ``cells``; ``None`` when the constraints have no solution.

        Model reuse: every model found marks which cells it mines and which it
        leaves safe. Only a value not yet seen is tested, under an assumption;
        if that is unsatisfiable the cell is certain. A model is read as one
        integer, a bit per variable: on thousands of cells, reading it cell by
        cell after every call would cost more than the calls.

        With a ``budget``, each call is paid for (:func:`solver_call_cost`;
        ``total``: the solver holds the global count). Past the budget the
        cells not yet tested are left out: what is returned is certain, but
        may be incomplete (``budget.ran_out``). When not even the first call
        fits, nothing is tested and nothing is returned: whether there is a
        solution at all is then not known.
        """
        if budget is not None and not budget.spend(solver_call_cost(self.top, total=total, first=True)):
            return frozenset(), frozenset()
        cost = solver_call_cost(self.top, total=total)
        if not self.solve(assumptions):
            return None
        # Bit v - 1 of seen_mine (seen_safe): some model mined (spared) variable v.
        seen_mine = seen_safe = 0

        def absorb() -> None:
            nonlocal seen_mine, seen_safe
            mined = _true_mask(self.solver.get_model() or [])
            seen_mine |= mined
            seen_safe |= ~mined

        absorb()
        safe: set[Cell] = set()
        mine: set[Cell] = set()
        for cell in cells:
            v = self.var[cell]
            bit = 1 << (v - 1)
            if seen_mine & bit and seen_safe & bit:
                continue
            if budget is not None and not budget.spend(cost):
                break
            checkpoint()
            untested = -v if seen_mine & bit else v  # the value no model has shown yet
            if self.solve([*assumptions, untested]):
                absorb()
            else:
                (mine if untested < 0 else safe).add(cell)
                if not assumptions:
                    # Learnt for good: later calls need not rediscover it.
                    self.solver.add_clause([-untested])
        return frozenset(safe), frozenset(mine)


_TRUE_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def _true_mask(model: Sequence[int]) -> int:
    """Bit ``v - 1`` set for every variable ``v`` the model makes true (in C, not a Python loop).

    >>> bin(_true_mask([1, -2, 3]))
    '0b101'
    """
    if not model:
        return 0
    return int(bytes(map((0).__lt__, reversed(model))).translate(_TRUE_DIGITS), 2)


def local_rules(constraints: Sequence[Constraint]) -> dict[Cell, bool]:
    """Cells the two classic single-number rules decide (True: mine), to a fixpoint.

    A worklist: a number is looked at again only when one of its cells was
    just decided. Raises :class:`InconsistentPositionError` when the decisions
    leave a number with too many or too few mines (naming the number the
    plain pass-by-pass reading names, :func:`_local_rules_by_passes`).

    >>> from minesat.analysis.constraints import Frontier
    >>> from minesat.board import Position
    >>> sorted(local_rules(Frontier.of(Position.from_rows(["1*", "??"])).constraints).items())
    [((1, 0), False), ((1, 1), False)]
    """
    decided: dict[Cell, bool] = {}
    # Most numbers of a real frontier fire no rule on their own: the index of
    # which numbers see which cell is built only once some number fires.
    todo = [i for i in range(len(constraints) - 1, -1, -1) if _fires(constraints[i])]
    if not todo:
        return decided
    watching: dict[Cell, list[int]] = {}
    for i, c in enumerate(constraints):
        for x in c.cells:
            if x in watching:
                watching[x].append(i)
            else:
                watching[x] = [i]
    # Only the numbers that fire start on the list: another can fire only once
    # one of its cells is decided, and then it is queued (and checked) again.
    queued = [False] * len(constraints)
    for i in todo:
        queued[i] = True
    steps = 0
    while todo:
        steps += 1
        if not steps & 4095:
            checkpoint()
        i = todo.pop()
        queued[i] = False
        c = constraints[i]
        open_cells = []
        need = c.count
        for x in c.cells:
            known = decided.get(x)
            if known is None:
                open_cells.append(x)
            elif known:
                need -= 1
        if need < 0 or need > len(open_cells):
            return _local_rules_by_passes(constraints)  # raises, naming the same number as ever
        # Rule "satisfied": the number's mines are all known, the rest is safe.
        # Rule "full": the number needs every open cell around it.
        if open_cells and (need == 0 or need == len(open_cells)):
            for x in open_cells:
                decided[x] = need > 0
                for j in watching[x]:
                    if not queued[j]:
                        queued[j] = True
                        todo.append(j)
    return decided


def _fires(c: Constraint) -> bool:
    """A rule applies to this number on its own (or it is already broken)."""
    return c.count <= 0 or c.count >= len(c.cells)


def _local_rules_by_passes(constraints: Sequence[Constraint]) -> dict[Cell, bool]:
    """The same rules in whole passes over the numbers until nothing changes (the reference)."""
    decided: dict[Cell, bool] = {}
    changed = True
    while changed:
        changed = False
        for c in constraints:
            open_cells = [x for x in c.cells if x not in decided]
            need = c.count - sum(1 for x in c.cells if decided.get(x))
            # Checked even when every cell is decided: other numbers may have
            # decided them all, leaving this one over- or under-filled.
            if need < 0 or need > len(open_cells):
                raise InconsistentPositionError(c.source, "this number cannot be satisfied")
            if not open_cells:
                continue
            if need == 0 or need == len(open_cells):
                for x in open_cells:
                    decided[x] = need > 0
                changed = True
    return decided


def classify_component(
    component: Component, *, use_local_rules: bool = True, budget: WorkBudget | None = None
) -> Certainties:
    """Certain cells of one component, from its own constraints only.

    ``budget``: as for :meth:`CardinalitySolver.certain_cells`.
    """
    decided, open_cells = _rules_first(component, use_local_rules)
    safe = {c for c, mined in decided.items() if not mined}
    mine = {c for c, mined in decided.items() if mined}
    if open_cells:
        with _solver_for(component, decided, open_cells) as sat:
            found = sat.certain_cells(open_cells, budget=budget)
        if found is None:
            raise InconsistentPositionError(conflict_source(component.constraints), "no layout satisfies it")
        safe |= found[0]
        mine |= found[1]
    return frozenset(safe), frozenset(mine)


def check_component(
    component: Component, *, use_local_rules: bool = True, budget: WorkBudget | None = None
) -> None:
    """Raise :class:`InconsistentPositionError` exactly when :func:`classify_component` would.

    One solver call instead of one per open cell: the check the global count's
    road needs, whose own classification replaces the component's. A
    component too big for the call within the ``budget`` is not checked.
    """
    decided, open_cells = _rules_first(component, use_local_rules)
    if open_cells:
        if budget is not None and not budget.spend(solver_call_cost(len(open_cells), first=True)):
            return
        with _solver_for(component, decided, open_cells) as sat:
            solvable = sat.solve()
        if not solvable:
            raise InconsistentPositionError(conflict_source(component.constraints), "no layout satisfies it")


def _rules_first(component: Component, use_local_rules: bool) -> tuple[dict[Cell, bool], list[Cell]]:
    """What the local rules decide (they raise on a broken number), and the cells left open."""
    decided = local_rules(component.constraints) if use_local_rules else {}
    return decided, [c for c in component.cells if c not in decided]


def _solver_for(component: Component, decided: dict[Cell, bool], open_cells: list[Cell]) -> CardinalitySolver:
    """A solver over the open cells, each number reduced to them and the mines they still hold."""
    sat = CardinalitySolver(open_cells)
    for i, c in enumerate(component.constraints):
        if not i & 1023:
            checkpoint()  # a hostile part has hundreds of thousands of numbers
        rest = [x for x in c.cells if x not in decided]
        if rest:
            sat.exactly(rest, c.count - sum(1 for x in c.cells if decided.get(x)))
    return sat


def affords_total_call(components: Sequence[Component], budget: WorkBudget | None) -> bool:
    """Whether ``budget`` pays the first solver call with the global count over ``components``.

    That call is priced by the cube of the open cells (:data:`FIRST_TOTAL_CALL_CELLS`);
    past it, a position is classified without the total.
    """
    cells = sum(len(comp.cells) for comp in components)
    return budget is None or budget.affords(solver_call_cost(cells, total=True, first=True))


def classify_with_total(
    components: Sequence[Component], interior: int, remaining: int, budget: WorkBudget | None = None
) -> tuple[Certainties, bool | None] | None:
    """Certain frontier cells and the interior's fate when ``remaining`` mines are left.

    Returns ``((safe, mine), interior)`` where ``interior`` is False (all interior
    cells safe), True (all mined) or None (undecided, or there is no interior;
    or not known, past the ``budget``). ``None`` when the ``budget`` cannot pay
    even the first call (:func:`solver_call_cost` with the total): on a
    frontier of hundreds of thousands of cells that call alone takes minutes.
    """
    if not affords_total_call(components, budget):
        return None
    cells = [c for comp in components for c in comp.cells]
    constraints = [c for comp in components for c in comp.constraints]
    with CardinalitySolver(cells) as sat:
        for c in constraints:
            sat.exactly(c.cells, c.count)
        lits = [sat.var[c] for c in cells]
        # The global count on the frontier only: the interior can absorb anything
        # between 0 and all of its cells.
        sat.at_most(lits, remaining)
        sat.at_most([-v for v in lits], len(lits) - (remaining - interior))
        found = sat.certain_cells(cells, budget=budget, total=True)
        if found is None:
            raise InconsistentPositionError(
                conflict_source(constraints, total=(cells, interior, remaining)),
                f"no layout places the {plural(remaining, 'remaining mine')}",
            )
        if not interior:
            return found, None
        if budget is not None and not budget.spend(2 * solver_call_cost(len(cells), total=True)):
            return found, None
        # Interior all safe iff the frontier cannot hold fewer than every remaining
        # mine; all mined iff it cannot hold more than ``remaining - interior``.
        fewer, more = sat.new_var(), sat.new_var()
        sat.at_most(lits, remaining - 1, selector=fewer)
        sat.at_most([-v for v in lits], len(lits) - (remaining - interior + 1), selector=more)
        if not sat.solve([fewer]):
            return found, False
        if not sat.solve([more]):
            return found, True
        return found, None


def conflict_source(
    constraints: Sequence[Constraint], total: tuple[Sequence[Cell], int, int] | None = None
) -> Cell:
    """A number involved in a contradiction, found from an unsatisfiable core.

    ``total`` is ``(frontier cells, interior size, remaining mines)`` when the
    global count takes part.
    """
    cells = sorted({x for c in constraints for x in c.cells} | set(total[0] if total else ()))
    with CardinalitySolver(cells) as sat:
        selectors: dict[int, Cell] = {}
        for c in constraints:
            s = sat.new_var()
            selectors[s] = c.source
            sat.exactly(c.cells, c.count, selector=s)
        assumptions = list(selectors)
        if total is not None:
            frontier, interior, remaining = total
            lits = [sat.var[c] for c in frontier]
            s = sat.new_var()
            sat.at_most(lits, remaining, selector=s)
            sat.at_most([-v for v in lits], len(lits) - (remaining - interior), selector=s)
            assumptions.append(s)
        if sat.solve(assumptions):  # pragma: no cover - callers only ask about contradictions
            raise ValueError("the constraints are satisfiable")
        sources = sorted(selectors[s] for s in sat.core() if s in selectors)
    return sources[0] if sources else min(c.source for c in constraints)
