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
from dataclasses import dataclass
from math import comb

from minesat.analysis.constraints import Component
from minesat.board import Cell

#: Default limit on the dynamic programme's states per component. Real expert
#: positions stay in the hundreds; a component past this is estimated instead.
STATE_BUDGET = 200_000


@dataclass(frozen=True)
class ComponentCount:
    """``ways[k]``: layouts of the component with ``k`` mines; ``mine_ways[cell][k]``:
    how many of those mine ``cell``."""

    ways: tuple[int, ...]
    mine_ways: dict[Cell, tuple[int, ...]]


def single_solution(component: Component, mined: dict[Cell, bool]) -> ComponentCount:
    """The count of a component whose every cell is decided (``mined[cell]``): one layout.

    >>> from minesat.analysis.constraints import Frontier
    >>> from minesat.board import Position
    >>> [comp] = Frontier.of(Position.from_rows(["1?", "1?", "1?"])).components()
    >>> single_solution(comp, {(0, 1): False, (1, 1): True, (2, 1): False}) == count_component(comp)
    True
    """
    k = sum(mined.values())
    size = len(component.cells) + 1
    ways = tuple(1 if i == k else 0 for i in range(size))
    zero = (0,) * size
    return ComponentCount(ways, {cell: ways if mined[cell] else zero for cell in component.cells})


def _boxes(component: Component) -> tuple[list[tuple[Cell, ...]], list[frozenset[int]]]:
    """Group cells by the set of constraints (by index) that see them."""
    seen_by: dict[Cell, list[int]] = defaultdict(list)
    for i, c in enumerate(component.constraints):
        for cell in c.cells:
            seen_by[cell].append(i)
    groups: dict[tuple[int, ...], list[Cell]] = defaultdict(list)
    for cell in component.cells:
        groups[tuple(seen_by[cell])].append(cell)
    keys = list(groups)
    return [tuple(groups[k]) for k in keys], [frozenset(k) for k in keys]


def _order(box_cons: list[frozenset[int]], n_constraints: int) -> list[int]:
    """A box order that keeps the set of open constraints small (a greedy path).

    Next is the box, among those touching an open constraint, that leaves the
    fewest constraints open after it; ties go to the lowest index.
    """
    remaining_boxes_of: list[int] = [0] * n_constraints
    for cons in box_cons:
        for c in cons:
            remaining_boxes_of[c] += 1
    todo = set(range(len(box_cons)))
    opened: set[int] = set()
    order: list[int] = []
    while todo:
        live = {c for c in opened if remaining_boxes_of[c] > 0}
        candidates = [b for b in todo if box_cons[b] & live] if live else list(todo)

        def cost(b: int, opened: set[int] = opened) -> tuple[int, int, int]:
            newly = len(box_cons[b] - opened)
            closing = sum(1 for c in box_cons[b] if remaining_boxes_of[c] == 1)
            return (newly - closing, -closing, b)

        best = min(candidates, key=cost)
        order.append(best)
        todo.discard(best)
        opened |= box_cons[best]
        for c in box_cons[best]:
            remaining_boxes_of[c] -= 1
    return order


def count_component(component: Component, budget: int = STATE_BUDGET) -> ComponentCount | None:
    """Exact counts, or ``None`` when the dynamic programme would exceed ``budget`` states."""
    box_cells, box_cons_unordered = _boxes(component)
    order = _order(box_cons_unordered, len(component.constraints))
    sizes = [len(box_cells[b]) for b in order]
    cons = [box_cons_unordered[b] for b in order]
    n = len(order)
    counts = [c.count for c in component.constraints]

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

    def transitions(i: int, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """(mines in box i, next state) for every way box i can be filled."""
        need = dict(zip(open_at[i], state, strict=True))
        for c in cons[i]:
            if first[c] == i:
                need[c] = counts[c]
        lo, hi = 0, sizes[i]
        for c in cons[i]:
            hi = min(hi, need[c])
            lo = max(lo, need[c] - capacity_after[i][c])
        out = []
        nxt = open_at[i + 1]
        for j in range(lo, hi + 1):
            out.append((j, tuple(need[c] - j if c in cons[i] else need[c] for c in nxt)))
        return out

    # Forward: ways to fill boxes 0..i-1 reaching each state.
    forward: list[dict[tuple[int, ...], int]] = [{(): 1}]
    moves: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = []  # reused going back
    states = 1
    for i in range(n):
        layer: dict[tuple[int, ...], int] = defaultdict(int)
        moves.append({})
        for state, poly in forward[i].items():
            moves[i][state] = out = transitions(i, state)
            for j, nxt in out:
                layer[nxt] += (poly * comb(sizes[i], j)) << (j * bits)
        states += len(layer)
        if states > budget:
            return None
        forward.append(dict(layer))

    # Backward: ways to fill boxes i..n-1 from each state; and each box's mine
    # weight, where C(s-1, j-1) = C(s, j) * j / s counts layouts that mine one
    # given cell of a box holding j mines.
    backward: dict[tuple[int, ...], int] = {(): 1}
    box_weight: list[int] = [0] * n
    for i in range(n - 1, -1, -1):
        layer = {}
        for state, poly in forward[i].items():
            total = 0
            weight = 0
            for j, nxt in moves[i][state]:
                after = backward.get(nxt, 0)
                if after:
                    total += (after * comb(sizes[i], j)) << (j * bits)
                    if j:
                        weight += (after * comb(sizes[i] - 1, j - 1)) << (j * bits)
            layer[state] = total
            if weight:
                box_weight[i] += poly * weight
        backward = layer

    mask = (1 << bits) - 1
    degree = len(component.cells) + 1

    def unpack(poly: int) -> tuple[int, ...]:
        return tuple((poly >> (k * bits)) & mask for k in range(degree))

    ways = unpack(backward.get((), 0))
    mine_ways: dict[Cell, tuple[int, ...]] = {}
    for i, b in enumerate(order):
        per_cell = unpack(box_weight[i])
        for cell in box_cells[b]:
            mine_ways[cell] = per_cell
    return ComponentCount(ways, mine_ways)
