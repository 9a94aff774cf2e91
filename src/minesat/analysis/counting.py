"""Exact solution counts of a component, by number of mines, without enumerating layouts.

Cells that touch exactly the same numbers form a *box*: they are interchangeable,
so a box of ``s`` cells holding ``j`` mines stands for ``C(s, j)`` layouts. The
boxes are visited in an order that keeps few numbers "open" (seen on both sides
of the current box), and a dynamic programme over (box, what the open numbers
still need) counts every layout once:

- the *forward* pass counts the ways to fill the boxes before each point,
- the *backward* pass the ways to fill the boxes after it,
- a box's mine weight combines the two around it.

Counts are polynomials in the component's mine count ``k`` (the global total
needs them split by ``k``). A polynomial ``sum a_k x^k`` is packed into one
Python int ``sum a_k 2^(k*bits)`` (Kronecker substitution): adding polynomials is
adding ints, multiplying by ``x^j`` is a shift, and the product of two
polynomials is one integer multiplication. ``bits`` exceeds the size of any
coefficient (at most 2^cells), so the packed digits never overlap.

>>> from minesat.analysis.constraints import Frontier
>>> from minesat.board import Position
>>> [comp] = Frontier.of(Position.from_rows(["1?", "??"])).components()
>>> count = count_component(comp)
>>> count.ways, count.mine_ways[(0, 1)]
((0, 3, 0, 0), (0, 1, 0, 0))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from math import comb

from minesat.analysis.constraints import Component, Constraint
from minesat.board import Cell
from minesat.errors import OverBudget
from minesat.exact.budget import checkpoint

__all__ = [
    "SEARCH_BOXES",
    "SEARCH_NODES",
    "STATE_BUDGET",
    "ComponentCount",
    "count_component",
    "split_decided",
]

#: Default limit on the dynamic programme's states per component. Real expert
#: positions stay in the hundreds; a component past this is estimated instead.
STATE_BUDGET = 200_000


@dataclass(frozen=True)
class ComponentCount:
    """``ways[k]``: layouts of the component with ``k`` mines; ``mine_ways[cell][k]``:
    how many of those mine ``cell``."""

    ways: tuple[int, ...]
    mine_ways: dict[Cell, tuple[int, ...]]


def split_decided(component: Component, mined: dict[Cell, bool]) -> list[Component]:
    """What is left of ``component`` once the cells in ``mined`` are decided, as components.

    Each number keeps its undecided cells and the mines they still need.
    Decided cells no longer link the numbers around them, so the rest often
    falls apart into smaller, independent components: each is counted (and
    cached) on its own, and far parts of a frontier that a move did not touch
    are found again in the cache.

    >>> from minesat.analysis.constraints import Frontier
    >>> from minesat.board import Position
    >>> [comp] = Frontier.of(Position.from_rows(["?1?1?"])).components()
    >>> [p.cells for p in split_decided(comp, {(0, 2): False})]
    [((0, 0),), ((0, 4),)]
    """
    reduced: list[Constraint] = []
    for c in component.constraints:
        rest = tuple(x for x in c.cells if x not in mined)
        if rest:
            reduced.append(Constraint(rest, c.count - sum(1 for x in c.cells if mined.get(x)), c.source))
    # Union-find over cells, each constraint joining its cells.
    parent: dict[Cell, Cell] = {}

    def find(x: Cell) -> Cell:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in reduced:
        root = find(c.cells[0])
        for x in c.cells[1:]:
            other = find(x)
            if other != root:
                parent[other] = root
    groups: dict[Cell, list[Constraint]] = defaultdict(list)
    for c in reduced:
        groups[find(c.cells[0])].append(c)
    parts = []
    for constraints in groups.values():
        cells = tuple(sorted({x for c in constraints for x in c.cells}))
        constraints.sort(key=lambda c: (c.cells[0], c.source))
        parts.append(Component(cells, tuple(constraints)))
    parts.sort(key=lambda comp: comp.cells[0])
    return parts


def _unpacker(bits: int, degree: int) -> Callable[[int], tuple[int, ...]]:
    """Read ``degree`` coefficients of ``bits`` bits each out of a packed polynomial."""
    mask = (1 << bits) - 1

    def unpack(poly: int) -> tuple[int, ...]:
        # Only the coefficients between the lowest and the highest nonzero one
        # are read (a component's mine counts span a narrow range); the rest are zeros.
        if not poly:
            return (0,) * degree
        low = ((poly & -poly).bit_length() - 1) // bits
        top = min(degree, poly.bit_length() // bits + 1)
        inside = tuple((poly >> (k * bits)) & mask for k in range(low, top))
        return (0,) * low + inside + (0,) * (degree - top)

    return unpack


def _boxes(component: Component) -> tuple[list[tuple[Cell, ...]], list[frozenset[int]]]:
    """Group cells by the set of constraints (by index) that see them."""
    seen_by: dict[Cell, list[int]] = defaultdict(list)
    for i, c in enumerate(component.constraints):
        if not i & 4095:
            checkpoint()  # a hostile part has hundreds of thousands of numbers
        for cell in c.cells:
            seen_by[cell].append(i)
    groups: dict[tuple[int, ...], list[Cell]] = defaultdict(list)
    for k, cell in enumerate(component.cells):
        if not k & 4095:
            checkpoint()
        groups[tuple(seen_by[cell])].append(cell)
    keys = list(groups)
    return [tuple(groups[k]) for k in keys], [frozenset(k) for k in keys]


def _order(box_cons: list[frozenset[int]], n_constraints: int, budget: int) -> list[int] | None:
    """A box order that keeps the set of open constraints small (a greedy path).

    Next is the box, among those touching an open constraint, that leaves the
    fewest constraints open after it; ties go to the lowest index. ``None``
    when weighing the candidates would take more than ``budget`` steps: the
    candidates are as many as the open constraints' boxes, and a component
    that keeps that many open has far more states than any budget allows.
    """
    n = len(box_cons)
    boxes_of: list[list[int]] = [[] for _ in range(n_constraints)]
    for b, cs in enumerate(box_cons):
        for c in cs:
            boxes_of[c].append(b)
    remaining = [len(bs) for bs in boxes_of]  # boxes not yet placed, per constraint
    opened = [False] * n_constraints
    todo = set(range(n))
    # Boxes touching an open constraint that still has boxes to come; a box
    # stays one until it is placed (its own constraints keep some box to come).
    candidates: set[int] = set()
    order: list[int] = []
    steps = 0
    watched = 0  # the steps when the budgets watching were last checked
    while todo:
        best, best_cost = -1, (0, 0, 0)
        steps += len(candidates) or len(todo)
        if steps > budget:
            return None
        if steps - watched > 20_000:
            checkpoint()
            watched = steps
        for b in candidates or todo:
            newly = closing = 0
            for c in box_cons[b]:
                newly += not opened[c]
                closing += remaining[c] == 1
            cost = (newly - closing, -closing, b)
            if best < 0 or cost < best_cost:
                best, best_cost = b, cost
        order.append(best)
        todo.discard(best)
        candidates.discard(best)
        for c in box_cons[best]:
            opened[c] = True
            remaining[c] -= 1
            if remaining[c]:
                candidates.update(x for x in boxes_of[c] if x in todo)
    return order


def _nearby_order(box_cons: list[frozenset[int]], n_constraints: int) -> list[int]:
    """Boxes in breadth-first order through shared numbers, from the first: cheap, and local."""
    boxes_of: list[list[int]] = [[] for _ in range(n_constraints)]
    for b, cs in enumerate(box_cons):
        for c in cs:
            boxes_of[c].append(b)
    placed = [False] * len(box_cons)
    order: list[int] = []
    for start in range(len(box_cons)):
        if placed[start]:
            continue
        placed[start] = True
        order.append(start)
        at = len(order) - 1
        while at < len(order):
            for c in box_cons[order[at]]:
                for b in boxes_of[c]:
                    if not placed[b]:
                        placed[b] = True
                        order.append(b)
            at += 1
    return order


#: Most search nodes :func:`_search` visits before it leaves a component to the
#: dynamic programme. Most components of real games have a handful of solutions
#: and are enumerated in far fewer; a component with many is merged better by
#: the programme's states.
SEARCH_NODES = 2000

#: Most boxes :func:`_search` takes on: it recurses once per box, and a long
#: chain of boxes (a covered row under a row of numbers, thousands of cells)
#: would pass Python's recursion limit of 1000. Larger components go straight
#: to the dynamic programme, which counts such a chain in a few states.
SEARCH_BOXES = 400


class _TooMany(OverBudget):
    """The search passed its node limit."""

    what = "states"


def _search(
    sizes: list[int],
    cons: list[frozenset[int]],
    counts: list[int],
    degree: int,
    limit: int,
) -> tuple[list[int], list[dict[int, int]]] | None:
    """Enumerate the box fillings one by one: ``(ways, weights)`` or ``None`` past ``limit`` nodes.

    ``ways[k]`` counts layouts with ``k`` mines; ``weights[i].get(k, 0)`` is the
    sum, over those layouts, of the mines box ``i`` holds (so a cell of box ``i``
    is mined in ``weights[i][k] / sizes[i]`` of them). The weights are sparse:
    a dense table would take boxes x cells entries before the first node, which
    on a hostile component of tens of thousands of cells is gigabytes. Boxes go in the given
    order with the same bounds as the dynamic programme: a number never gets
    more than it needs, nor less than the boxes after this one can still make up.
    """
    n = len(sizes)
    need = list(counts)
    members = [list(cs) for cs in cons]
    # room[c]: cells of number c in the boxes not placed yet (this one excluded while it is placed).
    room = [0] * len(counts)
    for size, cs in zip(sizes, members, strict=True):
        for c in cs:
            room[c] += size
    binomials = [[comb(s, j) for j in range(s + 1)] for s in sizes]
    ways = [0] * degree
    weights: list[dict[int, int]] = [{} for _ in range(n)]
    # The boxes holding mines on the path to the current node, with their mines: a layout
    # adds to their weights only (most boxes of a layout are empty).
    holding: list[tuple[int, int]] = []
    nodes = 0

    def visit(i: int, k: int, w: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            raise _TooMany("the count passed its node limit", nodes, limit)
        if not nodes & 1023:
            checkpoint()
        if i == n:
            ways[k] += w
            for b, j in holding:
                row = weights[b]
                row[k] = row.get(k, 0) + w * j
            return
        size = sizes[i]
        lo, hi = 0, size
        mine = members[i]
        for c in mine:
            left = need[c]
            room[c] -= size
            if left < hi:
                hi = left
            if left - room[c] > lo:
                lo = left - room[c]
        if lo == 0 <= hi:  # the box empty: nothing its numbers need changes
            visit(i + 1, k, w)
            lo = 1
        binomial = binomials[i]
        for j in range(lo, hi + 1):
            for c in mine:
                need[c] -= j
            holding.append((i, j))
            visit(i + 1, k + j, w * binomial[j])
            holding.pop()
            for c in mine:
                need[c] += j
        for c in mine:
            room[c] += size

    try:
        visit(0, 0, 1)
    except _TooMany:
        return None
    return ways, weights


def count_component(
    component: Component, budget: int = STATE_BUDGET, *, search_nodes: int = SEARCH_NODES
) -> ComponentCount | None:
    """Exact counts, or ``None`` when the dynamic programme would exceed ``budget`` states.

    A plain search over the boxes goes first (up to ``search_nodes`` nodes, and
    never more than ``budget``): most components have few solutions. Past that,
    the dynamic programme merges equal states.
    """
    box_cells, box_cons_unordered = _boxes(component)
    degree = len(component.cells) + 1
    if len(box_cells) == 1 and budget > 1:
        # One box (every number sees every cell): C(s, k) layouts if all the
        # numbers ask for the same k, none otherwise. (Two states of the
        # programme: a budget below that still refuses it.)
        wanted = {c.count for c in component.constraints}
        ways_list = [0] * degree
        per_cell = [0] * degree
        if len(wanted) == 1:
            (k,) = wanted
            if 0 <= k < degree:
                ways_list[k] = comb(degree - 1, k)
                per_cell[k] = comb(degree - 2, k - 1) if k else 0
        shared = tuple(per_cell)
        return ComponentCount(tuple(ways_list), dict.fromkeys(component.cells, shared))
    # Any order is exact. The search goes breadth-first (cheap to find, and
    # local); the programme, which pays for every constraint kept open, takes
    # the greedy path that keeps them fewest.
    n_constraints = len(component.constraints)
    counts = [c.count for c in component.constraints]
    limit = min(search_nodes, budget)
    if limit > 0 and len(box_cells) <= SEARCH_BOXES:
        order = _nearby_order(box_cons_unordered, n_constraints)
        sizes = [len(box_cells[b]) for b in order]
        found = _search(sizes, [box_cons_unordered[b] for b in order], counts, degree, limit)
        if found is not None:
            ways, weights = found
            # Only mine counts some layout has need dividing out.
            low = next((k for k, w in enumerate(ways) if w), 0)
            high = max((k for k, w in enumerate(ways) if w), default=-1) + 1
            head, tail = (0,) * low, (0,) * (degree - high)
            mine_ways: dict[Cell, tuple[int, ...]] = {}
            for i, b in enumerate(order):
                size = sizes[i]
                # C(s, j) * j / s = C(s-1, j-1) layouts mine a given cell of the box.
                row = weights[i]
                per_cell = head + tuple(row.get(k, 0) // size for k in range(low, high)) + tail
                for cell in box_cells[b]:
                    mine_ways[cell] = per_cell
            return ComponentCount(tuple(ways), mine_ways)

    greedy = _order(box_cons_unordered, n_constraints, budget)
    if greedy is None:
        return None
    order = greedy
    sizes = [len(box_cells[b]) for b in order]
    cons = [box_cons_unordered[b] for b in order]
    n = len(order)

    # For each constraint: where it opens, where it closes, and its capacity left
    # after each box (the most mines the boxes after this one could still give it).
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, cs in enumerate(cons):
        for c in cs:
            first.setdefault(c, i)
            last[c] = i
    capacity_after: list[dict[int, int]] = [{} for _ in range(n)]
    left = defaultdict(int)
    for i in range(n - 1, -1, -1):
        for c in cons[i]:
            capacity_after[i][c] = left[c]
        for c in cons[i]:
            left[c] += sizes[i]
    # open_at[i]: constraints with residuals carried in the state *before* box i.
    open_at = [sorted(c for c in first if first[c] < i <= last[c]) for i in range(n + 1)]

    bits = len(component.cells) + 1

    # Each box's plan, worked out once: where each of its constraints' residual
    # is read from (a slot of the state, or the number itself when it opens
    # here) with the capacity after the box; and how the next state is made
    # (each slot copied from a slot or a number, less the box's mines if the
    # constraint sees the box).
    plans = []
    for i in range(n):
        slot = {c: t for t, c in enumerate(open_at[i])}
        reads = [(slot.get(c, -1), counts[c], capacity_after[i][c]) for c in cons[i]]
        makes = [(slot.get(c, -1), counts[c], c in cons[i]) for c in open_at[i + 1]]
        plans.append((sizes[i], reads, makes))

    def transitions(i: int, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """(mines in box i, next state) for every way box i can be filled."""
        size, reads, makes = plans[i]
        lo, hi = 0, size
        for t, number, cap in reads:
            need = state[t] if t >= 0 else number
            if need < hi:
                hi = need
            if need - cap > lo:
                lo = need - cap
        if lo > hi:
            return []
        base = [(state[t] if t >= 0 else number, seen) for t, number, seen in makes]
        return [(j, tuple([v - j if seen else v for v, seen in base])) for j in range(lo, hi + 1)]

    # Forward: ways to fill boxes 0..i-1 reaching each state.
    forward: list[dict[tuple[int, ...], int]] = [{(): 1}]
    moves: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = []  # reused going back
    states = 1
    for i in range(n):
        checkpoint()  # a layer of wide polynomials can take much memory: a budget watching stops it
        layer: dict[tuple[int, ...], int] = {}
        get = layer.get
        here: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}
        moves.append(here)
        binomials = [comb(sizes[i], j) << (j * bits) for j in range(sizes[i] + 1)]
        for state, poly in forward[i].items():
            here[state] = out = transitions(i, state)
            for j, nxt in out:
                layer[nxt] = get(nxt, 0) + poly * binomials[j]
        states += len(layer)
        if states > budget:
            return None
        forward.append(layer)

    # Backward: ways to fill boxes i..n-1 from each state; and each box's mine
    # weight, where C(s-1, j-1) = C(s, j) * j / s counts layouts that mine one
    # given cell of a box holding j mines.
    backward: dict[tuple[int, ...], int] = {(): 1}
    box_weight: list[int] = [0] * n
    for i in range(n - 1, -1, -1):
        checkpoint()
        layer = {}
        size = sizes[i]
        binomials = [comb(size, j) << (j * bits) for j in range(size + 1)]
        per_cell = [comb(size - 1, j - 1) << (j * bits) if j else 0 for j in range(size + 1)]
        get = backward.get
        weight_sum = 0
        for state, poly in forward[i].items():
            total = 0
            weight = 0
            for j, nxt in moves[i][state]:
                after = get(nxt, 0)
                if after:
                    total += after * binomials[j]
                    if j:
                        weight += after * per_cell[j]
            layer[state] = total
            if weight:
                weight_sum += poly * weight
        box_weight[i] = weight_sum
        backward = layer

    unpack = _unpacker(bits, degree)
    ways = unpack(backward.get((), 0))
    mine_ways = {}
    for i, b in enumerate(order):
        per_cell = unpack(box_weight[i])
        for cell in box_cells[b]:
            mine_ways[cell] = per_cell
    return ComponentCount(ways, mine_ways)
