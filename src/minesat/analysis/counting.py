"""Exact solution counts of a component, by number of mines, without enumerating layouts.

Cells that touch exactly the same numbers form a *box*: they are interchangeable,
so a box of ``s`` cells holding ``j`` mines stands for ``C(s, j)`` layouts. A
component with few layouts is enumerated box by box (a search, up to a node
limit); past that, the boxes are visited in an order that keeps few numbers
"open" (seen on both sides of the current box), and a dynamic programme over
(box, what the open numbers still need) counts every layout once:

- the *forward* pass counts the ways to fill the boxes before each point,
- the *backward* pass the ways to fill the boxes after it,
- a box's mine weight combines the two around it.

Its cost grows with the boxes times the states of a layer, so a long thin
part (a chain of 1s, a ring, a strip along a wall) is counted in time linear
in its length: each step of the order, of the open set and of the passes
costs the width, never the length.

Counts are polynomials in the component's mine count ``k`` (the global total
needs them split by ``k``). A polynomial ``sum a_k x^k`` is packed into one
Python int ``sum a_k 2^(k*bits)`` (Kronecker substitution): adding polynomials is
adding ints, multiplying by ``x^j`` is a shift, and the product of two
polynomials is one integer multiplication. ``bits`` exceeds every count the
programme makes (the layouts through one state bound it: a chain's are 1 or
2), so the packed digits never overlap; and each layer is shifted down by the
fewest mines its states hold, so an int holds the few mine counts a layer
spans, not every count from 0.

Every loop that can run long checks the budgets watching
(:func:`~minesat.budget.checkpoint`): a time or memory limit stops a
hostile part within moments, whichever phase it is in.

>>> from minesat.analysis.constraints import Frontier
>>> from minesat.board import Position
>>> [comp] = Frontier.of(Position.from_rows(["1?", "??"])).components()
>>> count = count_component(comp)
>>> count.ways, count.mine_ways[(0, 1)]
((0, 3, 0, 0), (0, 1, 0, 0))
"""

from __future__ import annotations

import sys
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from math import comb
from operator import mul
from typing import overload

from minesat.analysis.constraints import Component, Constraint
from minesat.board import Cell
from minesat.budget import checkpoint

__all__ = [
    "DENSE_UP_TO",
    "SEARCH_BOXES",
    "SEARCH_NODES",
    "STATE_BUDGET",
    "BoxLayouts",
    "ComponentCount",
    "Padded",
    "box_numbers",
    "by_mines",
    "coefficients",
    "count_boxes",
    "count_component",
    "count_listed",
    "count_with_layouts",
    "list_layouts",
    "split_decided",
]

#: Default limit on the dynamic programme's states per component. Real expert
#: positions stay in the hundreds; a component past this is estimated instead.
STATE_BUDGET = 200_000

#: Most search nodes :func:`_search` visits before it leaves a component to the
#: dynamic programme. Most components of real games have a handful of solutions
#: and are enumerated in far fewer; a component with many is merged better by
#: the programme's states.
SEARCH_NODES = 2000

#: Most boxes :func:`_search` takes on: every layout it finds costs a node per box, so a
#: component of more boxes than :data:`SEARCH_NODES` cannot finish even one, and goes
#: straight to the dynamic programme. (The search walks its boxes in flat lists, not by
#: recursion: a chain of 998 cells and two layouts is enumerated in 1 997 nodes.)
SEARCH_BOXES = SEARCH_NODES


@dataclass(frozen=True)
class ComponentCount:
    """``ways[k]``: layouts of the component with ``k`` mines; ``mine_ways[cell][k]``:
    how many of those mine ``cell``."""

    ways: tuple[int, ...]
    mine_ways: dict[Cell, Sequence[int]]


@dataclass(frozen=True)
class BoxLayouts:
    """A component's layouts as its search found them, box by box: ``boxes[b]``, the cells of box
    ``b`` (cells that touch the same numbers); ``fills``, one tuple per layout of the boxes, the
    mines each box holds (which of its cells hold them is free: ``C(size, j)`` layouts of cells);
    ``ways``, each fill's layouts of cells (the product of its boxes' ``C(size, j)``).

    A look-ahead reads the layouts of a part with one more number from these
    (:mod:`~minesat.analysis.reveal`) instead of counting the part again.
    """

    boxes: tuple[tuple[Cell, ...], ...]
    fills: tuple[tuple[int, ...], ...]
    ways: tuple[int, ...]


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


def count_component(
    component: Component, budget: int = STATE_BUDGET, *, search_nodes: int = SEARCH_NODES
) -> ComponentCount | None:
    """Exact counts, or ``None`` when the dynamic programme would exceed ``budget`` states.

    The phases, each a function below: the cells grouped into boxes
    (:func:`_boxes`); a plain search over the boxes (:func:`_search`, up to
    ``search_nodes`` nodes and never more than ``budget``: most components
    have few solutions); past that, the dynamic programme, which merges equal
    states: an order of the boxes that keeps few numbers open (:func:`_order`),
    each box's plan (:func:`_plans`), the states layer by layer
    (:func:`_forward`), the counts forward and backward by mine count
    (:func:`_polynomials`, :func:`_backward`), and the counts read out
    (:func:`_read`). Every loop that can run long checks the budgets watching
    (:func:`~minesat.budget.checkpoint`).
    """
    found = count_with_layouts(component, budget, search_nodes=search_nodes)
    return None if found is None else found[0]


def count_with_layouts(
    component: Component, budget: int = STATE_BUDGET, *, search_nodes: int = SEARCH_NODES
) -> tuple[ComponentCount, BoxLayouts | None] | None:
    """:func:`count_component`, and the layouts box by box when the search found them one by one
    (``None`` where the dynamic programme counted them without listing them).

    >>> from minesat.analysis.constraints import Frontier
    >>> from minesat.board import Position
    >>> [comp] = Frontier.of(Position.from_rows(["1?1"])).components()
    >>> count, layouts = count_with_layouts(comp)
    >>> count.ways, layouts
    ((0, 1), BoxLayouts(boxes=(((0, 1),),), fills=((1,),), ways=(1,)))
    """
    box_cells, box_cons, counts = _boxes(component)
    return count_boxes(component.cells, box_cells, box_cons, counts, budget, search_nodes=search_nodes)


def count_boxes(
    cells: tuple[Cell, ...], box_cells: list[tuple[Cell, ...]], box_cons: list[tuple[int, ...]],
    counts: list[int], budget: int = STATE_BUDGET, *, search_nodes: int = SEARCH_NODES,
) -> tuple[ComponentCount, BoxLayouts | None] | None:
    """:func:`count_with_layouts` of a component already grouped into boxes (as :func:`_boxes`
    groups it): its ``cells`` (row-major), each box's cells and numbers (by index), and each
    number's count. ``search_nodes=0`` goes straight to the dynamic programme (a caller that
    searched already, with :func:`list_layouts`)."""
    degree = len(cells) + 1
    if len(box_cells) == 1 and budget > 1:
        # Two states of the programme: a budget below that still refuses it.
        count = _one_box(cells, counts)
        mines = [k for k, w in enumerate(count.ways) if w]
        one = BoxLayouts((cells,), tuple((k,) for k in mines), tuple(count.ways[k] for k in mines))
        return count, one
    listed = list_layouts(box_cells, box_cons, counts, budget, search_nodes=search_nodes)
    if listed is not None:
        return count_listed(listed, degree), listed
    n_constraints = len(counts)
    # The programme pays for every number kept open: the greedy path that keeps them fewest.
    greedy = _order(box_cons, n_constraints, budget)
    if greedy is None:
        return None
    ordered = [box_cells[b] for b in greedy]
    sizes = [len(group) for group in ordered]
    plans, width = _plans(sizes, [box_cons[b] for b in greedy], counts)
    # Packed coefficients must hold every count: 2 ** cells bounds them, and 64 bits hold
    # the counts of most larger parts (a chain's are 1 or 2). Bits are whole bytes: they are
    # read back through bytes.
    bits = _BYTE * -(-min(degree, 64) // _BYTE)
    layers = _forward(plans, width, budget, bits)
    if layers is None:
        return None
    if layers.biggest.bit_length() > bits:  # the counts outgrew the guess: forward again, wide enough
        bits = _BYTE * -(-layers.biggest.bit_length() // _BYTE)
        _polynomials(layers, sizes, bits)
    ways, weights = _backward(layers, sizes, bits)
    return _read(ways, weights, ordered, bits, degree), None


def list_layouts(
    box_cells: list[tuple[Cell, ...]], box_cons: list[tuple[int, ...]], counts: list[int],
    budget: int = STATE_BUDGET, *, search_nodes: int = SEARCH_NODES,
) -> BoxLayouts | None:
    """A component's layouts box by box (boxes as :func:`count_boxes` takes them), when the search
    lists them within ``search_nodes`` nodes (and ``budget``); else ``None``: the dynamic
    programme counts it. The count is then :func:`count_listed`, asked only where it is wanted
    (the proof reads the fills alone).

    >>> list_layouts([((0, 0),), ((0, 1), (0, 2))], [(0,), (0,)], [1])
    BoxLayouts(boxes=(((0, 0),), ((0, 1), (0, 2))), fills=((0, 1), (1, 0)), ways=(2, 1))
    """
    limit = min(search_nodes, budget)
    if limit <= 0 or len(box_cells) > SEARCH_BOXES:
        return None
    # Any order is exact. The search goes breadth-first (cheap to find, and local).
    order = _nearby_order(box_cons, len(counts))
    sizes = [len(box_cells[b]) for b in order]
    found = _search(sizes, [box_cons[b] for b in order], counts, limit)
    if found is None:
        return None
    return BoxLayouts(tuple([box_cells[b] for b in order]), tuple(found[2]), tuple(found[1]))


def count_listed(listed: BoxLayouts, degree: int) -> ComponentCount:
    """The count of a component whose layouts :func:`list_layouts` listed (``degree``: its cells
    and one).

    >>> listed = list_layouts([((0, 0),), ((0, 1), (0, 2))], [(0,), (0,)], [1])
    >>> count_listed(listed, 4).ways
    (0, 3, 0, 0)
    """
    fills = list(listed.fills)
    return _read_search((list(map(sum, fills)), list(listed.ways), fills), list(listed.boxes), degree)


def _one_box(cells: tuple[Cell, ...], counts: list[int]) -> ComponentCount:
    """Every number sees every cell: ``C(s, k)`` layouts if all the numbers ask for the same ``k``,
    none otherwise."""
    degree = len(cells) + 1
    wanted = set(counts)
    ways = [0] * degree
    per_cell = [0] * degree
    if len(wanted) == 1:
        (k,) = wanted
        if 0 <= k < degree:
            ways[k] = comb(degree - 1, k)
            per_cell[k] = comb(degree - 2, k - 1) if k else 0
    shared = tuple(per_cell)
    return ComponentCount(tuple(ways), dict.fromkeys(cells, shared))


def _boxes(component: Component) -> tuple[list[tuple[Cell, ...]], list[tuple[int, ...]], list[int]]:
    """Group cells by the set of constraints (by index) that see them; and the count of each
    constraint, once each: two numbers that see the same cells and ask the same (above and
    below a covered row, say) are one constraint here, which halves the numbers a chain keeps
    open."""
    seen_by: dict[Cell, list[int]] = defaultdict(list)
    index: dict[tuple[tuple[Cell, ...], int], int] = {}
    counts: list[int] = []
    for i, c in enumerate(component.constraints):
        if not i & 4095:
            checkpoint()  # a hostile part has hundreds of thousands of numbers
        key = (c.cells, c.count)
        if key in index:
            continue
        index[key] = len(counts)
        for cell in c.cells:
            seen_by[cell].append(len(counts))
        counts.append(c.count)
    groups: dict[tuple[int, ...], list[Cell]] = defaultdict(list)
    for k, cell in enumerate(component.cells):
        if not k & 4095:
            checkpoint()
        groups[tuple(seen_by[cell])].append(cell)
    keys = list(groups)
    return [tuple(groups[k]) for k in keys], list(map(box_numbers, keys)), counts


def box_numbers(numbers: Sequence[int]) -> tuple[int, ...]:
    """A box's numbers (by index, ascending) in a set's order, as the count holds them: the order
    the boxes are walked in follows it (moves depend on it). Held as a tuple, as the walks read
    them often; a set of numbers below 8 keeps them ascending.

    >>> box_numbers([1, 3]), box_numbers([8, 9])
    ((1, 3), (8, 9))
    """
    return tuple(numbers) if numbers[-1] < 8 else tuple(frozenset(numbers))


def _order(box_cons: list[tuple[int, ...]], n_constraints: int, budget: int) -> list[int] | None:
    """A box order that keeps the set of open constraints small (a greedy path).

    Next is the box, among those touching an open constraint, that leaves the
    fewest constraints open after it (it opens ``newly``, closes ``closing``);
    ties go to the box closing more, then to the lowest index. ``None`` when
    weighing the candidates would take more than ``budget`` steps: the
    candidates are as many as the open constraints' boxes, and a component
    that keeps that many open has far more states than any budget allows.
    Each box's ``newly`` and ``closing`` are kept up to date as its numbers
    open and close, so on a long thin part (a chain, a strip along a wall),
    where the candidates stay few, the path walks it end to end in steps
    linear in its length.
    """
    n = len(box_cons)
    boxes_of: list[list[int]] = [[] for _ in range(n_constraints)]
    for b, cs in enumerate(box_cons):
        for c in cs:
            boxes_of[c].append(b)
    remaining = [len(bs) for bs in boxes_of]  # boxes not yet placed, per constraint
    # A box's rank: (newly - closing, -closing, b) as one integer, smaller first.
    most = max((len(cs) for cs in box_cons), default=0) + 1
    scale = (2 * most + 1) * n
    rank = [(len(cs) + most) * scale + most * n + b for b, cs in enumerate(box_cons)]
    for bs in boxes_of:
        if len(bs) == 1:  # a number seen by one box alone closes there
            rank[bs[0]] -= scale + n
    placed = [False] * n
    # Boxes touching an open constraint that still has boxes to come; a box
    # stays one until it is placed (its own constraints keep some box to come).
    candidates: set[int] = set()
    order: list[int] = []
    steps = 0
    watched = 0  # the steps when the budgets watching were last checked
    for _ in range(n):
        steps += len(candidates) or n - len(order)
        if steps > budget:
            return None
        if steps - watched > 20_000:
            checkpoint()
            watched = steps
        if candidates:
            best = min(candidates, key=rank.__getitem__)
            candidates.discard(best)
        else:  # the first box (a component is connected: later ones always touch an open number)
            best = min((b for b in range(n) if not placed[b]), key=rank.__getitem__)
        order.append(best)
        placed[best] = True
        for c in box_cons[best]:
            left = remaining[c] = remaining[c] - 1
            if left + 1 == len(boxes_of[c]):  # c opens: one fewer number for its other boxes to open
                for x in boxes_of[c]:
                    if not placed[x]:
                        rank[x] -= scale
                        candidates.add(x)
            if left == 1:  # c closes with its last box: it weighs for that box
                for x in boxes_of[c]:
                    if not placed[x]:
                        rank[x] -= scale + n
    return order


def _nearby_order(box_cons: list[tuple[int, ...]], n_constraints: int) -> list[int]:
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


def _search(
    sizes: list[int], cons: list[tuple[int, ...]], counts: list[int], limit: int
) -> tuple[list[int], list[int], list[tuple[int, ...]]] | None:
    """Enumerate the box fillings: each layout's mines ``ks``, its ways ``ws`` (a box of ``s``
    cells holding ``j`` mines stands for ``C(s, j)`` layouts of cells) and its filling (the mines
    of each box, in the order of the boxes), the fillings in lexicographic order; ``None`` past
    ``limit`` nodes.

    A *node* is a box entered with the boxes before it filled (the last "box": a layout found),
    the same on either road below, so a part is searched, or left to the dynamic programme, at
    the same limit whichever road counts it. Boxes go in the given order with the same bounds as
    the dynamic programme: a number never gets more than it needs, nor less than the boxes after
    this one can still make up. A part of few boxes is walked depth first (:func:`_walk`: a node
    costs a few steps); on a longer one, paths that leave its numbers needing the same meet, and
    the layered walk (:func:`_merged`) visits each meeting point once, whatever the nodes that
    reach it (in the 4 067 parts of 300 expert games, 257 000 states for 976 000 nodes; it pays
    from about :data:`MERGE_FROM` boxes).

    >>> _search([1, 2], [(0,), (0,)], [1], 100)
    ([1, 1], [2, 1], [(0, 1), (1, 0)])
    """
    if len(sizes) >= MERGE_FROM:
        return _merged(sizes, cons, counts, limit)
    return _walk(sizes, cons, counts, limit)


#: The fewest boxes :func:`_search` takes the layered walk for (measured on the parts of expert
#: games: below it, the depth-first walk's cheaper nodes win).
MERGE_FROM = 20


def _walk(
    sizes: list[int], cons: list[tuple[int, ...]], counts: list[int], limit: int
) -> tuple[list[int], list[int], list[tuple[int, ...]]] | None:
    """:func:`_search` depth first, one node at a time.

    Along the fixed order, each box's pairs ``(number, cells of it after this box)`` are made
    once. A depth-first walk kept in flat lists (one entry per box: the mines it holds, the
    most it may hold, the mines and ways above it), with no recursion and no object per node;
    a layout found is three appends, its weights are read at the end (:func:`_read_search`).
    Every node counts against ``limit``, a box with no filling among them.

    >>> _walk([1, 2], [(0,), (0,)], [1], 100)
    ([1, 1], [2, 1], [(0, 1), (1, 0)])
    """
    n = len(sizes)
    left = [0] * len(counts)  # cells of each number in the boxes after the one at hand
    plan: list[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], list[int]]] = [(0, (), (), [])] * n
    for d in range(n - 1, -1, -1):
        if not d & 4095:
            checkpoint()
        size, mine = sizes[d], tuple(cons[d])
        plan[d] = size, mine, tuple([(c, left[c]) for c in mine]), _binomials(size)
        for c in mine:
            left[c] += size
    need = list(counts)
    ks: list[int] = []
    ws: list[int] = []
    fills: list[tuple[int, ...]] = []
    mines = [0] * n  # the mines box d holds on the path to the current node
    top = [0] * n  # the most box d may hold there
    above_k = [0] * (n + 1)  # the mines, and the ways, of boxes 0..d-1 on the path
    above_w = [1] * (n + 1)
    nodes = 0
    due = min(limit, 1023)  # the node at which the node limit and the budgets watching are checked next
    d = 0
    while True:
        nodes += 1  # a node: box d is entered (d == n: a layout)
        if nodes > due:
            if nodes > limit:
                return None
            checkpoint()
            due = min(limit, nodes + 1023)
        if d == n:
            ks.append(above_k[n])
            ws.append(above_w[n])
            fills.append(tuple(mines))
        else:
            hi, mine, rests, binomial = plan[d]
            lo = 0
            for c, rest in rests:
                x = need[c]
                if x < hi:
                    hi = x
                if x - rest > lo:
                    lo = x - rest
            if lo <= hi:
                mines[d] = lo
                top[d] = hi
                if lo:
                    for c in mine:
                        need[c] -= lo
                above_k[d + 1] = above_k[d] + lo
                above_w[d + 1] = above_w[d] * binomial[lo]
                d += 1
                continue
        # Back up to the deepest box that can take one more mine, undoing the boxes passed.
        while True:
            d -= 1
            if d < 0:
                return ks, ws, fills
            j = mines[d]
            mine = plan[d][1]
            if j < top[d]:
                mines[d] = j = j + 1
                for c in mine:
                    need[c] -= 1
                above_k[d + 1] = above_k[d] + j
                above_w[d + 1] = above_w[d] * plan[d][3][j]
                d += 1
                break
            if j:
                for c in mine:
                    need[c] += j


def _merged(
    sizes: list[int], cons: list[tuple[int, ...]], counts: list[int], limit: int
) -> tuple[list[int], list[int], list[tuple[int, ...]]] | None:
    """:func:`_search` layer by layer: the nodes of one box that leave the open numbers needing
    the same are one *state* (what follows them is the same), visited once.

    A state is what the open numbers still need, packed in one integer as in the dynamic
    programme (:func:`_plans`), with the nodes that reach it (``paths``: the depth-first walk
    would enter it that many times, so the nodes are counted exactly as it counts them, and
    ``limit`` is kept the same) and the fillings of the boxes before it. Those are held as a
    list of prefixes shared with the states it came from and a tail of its own (a forced box, one
    filling only, appends to the tail: no copy); only where two paths meet are the prefixes
    written out, into a list of the state's own. At the end the fillings are sorted (the
    depth-first walk's order), and the mines and ways of each read from them column by column.

    >>> _merged([1, 2], [(0,), (0,)], [1], 100)
    ([1, 1], [2, 1], [(0, 1), (1, 0)])
    """
    nodes = 1  # box 0 entered
    if nodes > limit:
        return None
    plans, width = _plans(sizes, cons, counts)
    mask = (1 << width) - 1
    layer, paths = [0], [1]
    # Each state's fillings so far: prefixes (shared) and a tail of its own.
    held: list[tuple[list[tuple[int, ...]], list[int]]] = [([()], [])]
    work = 0
    for size, reads, add, mult in plans:
        following: dict[int, int] = {}  # the states of the next layer, in order, by their index
        ahead_paths: list[int] = []
        ahead_held: list[tuple[list[tuple[int, ...]], list[int]]] = []
        merged: set[int] | None = None  # the states of the layer whose prefixes are written out
        for s, state in enumerate(layer):
            lo, hi = 0, size
            for shift, number, cap in reads:
                need = (state >> shift) & mask if shift >= 0 else number
                if need < hi:
                    hi = need
                if need - cap > lo:
                    lo = need - cap
            if lo > hi:  # a dead end: its nodes were counted where it was reached
                continue
            p = paths[s]
            base = state + add
            js: Iterable[int]
            if lo == hi:
                nodes += p
                if nodes > limit:
                    return None
                nxt = base - lo * mult
                t = following.get(nxt)
                if t is None:  # a forced box, and nothing met yet: the state goes on, its tail longer
                    following[nxt] = len(ahead_paths)
                    ahead_paths.append(p)
                    fillings = held[s]
                    fillings[1].append(lo)
                    ahead_held.append(fillings)
                    continue
                js = (lo,)
            else:
                nodes += (hi - lo + 1) * p
                if nodes > limit:
                    return None
                js = range(lo, hi + 1)
            prefixes, tail = held[s]
            for j in js:
                nxt = base - j * mult
                t = following.get(nxt)
                if t is None:
                    following[nxt] = len(ahead_paths)
                    ahead_paths.append(p)
                    ahead_held.append((prefixes, [*tail, j]))
                    continue
                # Two paths meet: the prefixes of both are written out, into a list of its own.
                ahead_paths[t] += p
                if merged is not None and t in merged:
                    joined = ahead_held[t][0]
                else:
                    there, written = ahead_held[t][0], tuple(ahead_held[t][1])
                    joined = [q + written for q in there]
                    ahead_held[t] = (joined, [])
                    if merged is None:
                        merged = {t}
                    else:
                        merged.add(t)
                written = (*tail, j)
                joined += [q + written for q in prefixes]
        work += len(layer)
        if work > 1023:
            checkpoint()
            work = 0
        layer, paths, held = list(following), ahead_paths, ahead_held
    return _fillings(held, sizes)


def _fillings(
    held: list[tuple[list[tuple[int, ...]], list[int]]], sizes: list[int]
) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """The layered walk's last states written out: the fillings sorted (the depth-first walk's
    order), and the mines and ways of each, read column by column."""
    fills: list[tuple[int, ...]] = []
    for prefixes, tail in held:  # one state at most: every number is closed
        written = tuple(tail)
        fills += [q + written for q in prefixes] if written else prefixes
    if not fills:
        return [], [], []
    fills.sort()
    ks = list(map(sum, fills))
    ws = [1] * len(fills)
    columns: list[tuple[int, ...]] = []
    for d, size in enumerate(sizes):
        if size > 1:  # a box of one cell holds its mine one way
            columns = columns or list(zip(*fills, strict=True))
            ws = list(map(mul, ws, map(_binomials(size).__getitem__, columns[d])))
    return ks, ws, fills


def _binomials(size: int) -> list[int]:
    """``C(size, j)`` for ``j`` from 0 to ``size``, made once a size."""
    row = _BINOMIALS.get(size)
    if row is None:
        row = _BINOMIALS[size] = [comb(size, j) for j in range(size + 1)]
    return row


_BINOMIALS: dict[int, list[int]] = {}


def _read_search(
    found: tuple[list[int], list[int], list[tuple[int, ...]]], cells: list[tuple[Cell, ...]], degree: int
) -> ComponentCount:
    """The search's layouts as a count. A cell of a box holding ``j`` of its ``s`` cells is mined
    in ``C(s-1, j-1) = C(s, j) * j / s`` of the box's fillings: a box's weight is the sum, over
    the layouts, of their ways times its mines, over ``s``. The ways are packed by mine count
    from the fewest (``bits`` each, wide enough for their sum times the largest box), so each
    box's weight is one sum of products, column by column of the fillings."""
    ks, ws, fills = found
    if not ks:
        empty = by_mines(0, (), degree)
        return ComponentCount((0,) * degree, {cell: empty for group in cells for cell in group})
    low, high = min(ks), max(ks) + 1
    bits = _BYTE * -(-(sum(ws) * max(map(len, cells))).bit_length() // _BYTE)
    packed = [w << (k - low) * bits for k, w in zip(ks, ws, strict=True)]
    ways = [0] * degree
    ways[low:high] = coefficients(sum(packed), bits)
    mine_ways: dict[Cell, Sequence[int]] = {}
    shared: dict[int, Sequence[int]] = {}  # boxes with the same weights share a table
    for i, (group, column) in enumerate(zip(cells, zip(*fills, strict=True), strict=True)):
        if not i & 4095:
            checkpoint()
        size = len(group)
        # A box of one cell holds 0 or 1 mine: its weight is the ways of the layouts that mine it.
        weight = sum(compress(packed, column)) if size == 1 else sum(map(mul, column, packed)) // size
        per_cell = shared.get(weight)
        if per_cell is None:
            row = coefficients(weight, bits)
            per_cell = shared[weight] = by_mines(low, row + [0] * (high - low - len(row)), degree)
        for cell in group:
            mine_ways[cell] = per_cell
    return ComponentCount(tuple(ways), mine_ways)


#: A box's plan in the programme: its size; for each of its numbers ``(shift, number, cap)``,
#: where the number's residual sits in the state (its bits from ``shift`` on; -1: the number
#: opens at this box and is read whole), the number, and the most mines the boxes after this
#: one can still give it; ``add``, the numbers opening here and staying open, each in its slot;
#: and ``mult``, a one in the slot of each of the box's numbers with a slot (the box's mines
#: come off each of them).
Plan = tuple[int, list[tuple[int, int, int]], int, int]


def _plans(sizes: list[int], cons: list[tuple[int, ...]], counts: list[int]) -> tuple[list[Plan], int]:
    """Each box's plan (:data:`Plan`), and the bits of a slot, found in one sweep along the order.

    A state of the programme is what the *open* numbers (seen by a box
    before this point and by one from it on) still need, each in a slot of
    one integer: the next state is ``state + add - j * mult`` for ``j`` mines
    in the box. A number takes a free slot where it opens and frees it where
    it closes, its residual 0 by then (the box's bounds see to it), so states
    compare as the residuals do, and each box costs the width of the order,
    never its length.
    """
    n = len(sizes)
    last: dict[int, int] = {}
    for i, cs in enumerate(cons):
        for c in cs:
            last[c] = i
    # What the boxes after box i can still give each of its numbers: a sweep from the end.
    capacity_after: list[dict[int, int]] = [{} for _ in range(n)]
    left: dict[int, int] = defaultdict(int)
    for i in range(n - 1, -1, -1):
        if not i & 4095:
            checkpoint()
        here = capacity_after[i]
        for c in cons[i]:
            here[c] = left[c]
            left[c] += sizes[i]
    width = max(1, max(counts, default=0).bit_length())
    shift_of: dict[int, int] = {}
    free: list[int] = []  # slots freed by numbers closed
    slots = 0
    plans: list[Plan] = []
    for i in range(n):
        if not i & 4095:
            checkpoint()
        reads = []
        add = mult = 0
        for c in cons[i]:
            shift = shift_of.get(c, -1)
            reads.append((shift, counts[c], capacity_after[i][c]))
            if shift < 0 and last[c] != i:  # opens here and stays open: a slot of its own
                if free:
                    shift = free.pop()
                else:
                    shift, slots = slots * width, slots + 1
                shift_of[c] = shift
                add += counts[c] << shift
            if shift >= 0:
                mult += 1 << shift
        for c in cons[i]:
            if last[c] == i and c in shift_of:
                free.append(shift_of.pop(c))
        plans.append((sizes[i], reads, add, mult))
    return plans, width


class _Layers:
    """The programme's states, layer by layer: ``moves[i]``, the transitions through box ``i`` as
    three lists (the state before, by its index in layer ``i``; the state after, by its index in
    layer ``i + 1``; the mines in the box); ``widths[i]``, the states of layer ``i``;
    ``forward[i]``, each state's layouts of the boxes before it by mine count, as ``(low, polys)``
    (:func:`_polynomials`); and ``biggest``, a bound on every count of the programme (the most
    layouts through one state, or in all), which says how wide a packed coefficient must be."""

    __slots__ = ("biggest", "forward", "moves", "widths")

    def __init__(self) -> None:
        self.moves: list[tuple[list[int], list[int], list[int]]] = []
        self.widths: list[int] = [1]
        self.forward: list[tuple[int, list[int]]] = [(0, [1])]
        self.biggest = 1


def _forward(plans: list[Plan], width: int, budget: int, bits: int) -> _Layers | None:
    """The states layer by layer, with the layouts reaching each (a number, and a polynomial in
    the mines packed ``bits`` bits a coefficient); ``None`` past ``budget`` states (the empty
    state before the first box counted).

    Box ``i`` may hold from ``lo`` (what a number needs less what the boxes
    after can still give it) to ``hi`` (the least a number still needs, and
    the box's size) mines. The polynomials are right only if every count fits
    in ``bits``: the layouts reaching a state bound its coefficients, and the
    most of them (``biggest``) says whether they did.
    """
    layers = _Layers()
    mask = (1 << width) - 1
    layer: dict[int, int] = {0: 0}
    reach, low, polys = [1], 0, [1]
    states = due = 1
    tables: dict[int, tuple[list[int], list[int]]] = {}
    for i, (size, reads, add, mult) in enumerate(plans):
        if states >= due:  # a check every few hundred states, and every 1024 in a long layer
            checkpoint()
            due = states + 256
        binomial, step = tables.get(size) or tables.setdefault(size, _steps(size, bits))
        following: dict[int, int] = {}
        ahead: list[int] = []
        ahead_polys: list[int] = []
        src: list[int] = []
        dst: list[int] = []
        held: list[int] = []
        for state, s in layer.items():
            if s and not s & 1023:
                checkpoint()
            lo, hi = 0, size
            for shift, number, cap in reads:
                need = (state >> shift) & mask if shift >= 0 else number
                if need < hi:
                    hi = need
                if need - cap > lo:
                    lo = need - cap
            if lo > hi:
                continue
            base, ways, poly = state + add, reach[s], polys[s]
            for j in range(lo, hi + 1):
                nxt = base - j * mult
                d = following.get(nxt)
                if d is None:
                    d = following[nxt] = len(ahead)
                    ahead.append(ways * binomial[j])
                    ahead_polys.append(poly * step[j])
                else:
                    ahead[d] += ways * binomial[j]
                    ahead_polys[d] += poly * step[j]
                src.append(s)
                dst.append(d)
                held.append(j)
        states += len(following)
        if states > budget:
            return None
        if ahead:
            layers.biggest = max(layers.biggest, max(ahead))
        if not i & 15:  # the polynomials kept a few coefficients wide (see _polynomials)
            low, ahead_polys = _shifted(low, ahead_polys, bits)
        layers.moves.append((src, dst, held))
        layers.widths.append(len(ahead))
        layers.forward.append((low, ahead_polys))
        layer, reach, polys = following, ahead, ahead_polys
    return layers


def _steps(size: int, bits: int) -> tuple[list[int], list[int]]:
    """``C(size, j)`` for each ``j`` mines in a box of ``size`` cells, as numbers and as packed
    polynomials (``C(size, j) x^j``)."""
    binomial = [comb(size, j) for j in range(size + 1)]
    return binomial, [b << (j * bits) for j, b in enumerate(binomial)]


def _polynomials(layers: _Layers, sizes: list[int], bits: int) -> None:
    """Each layer's counts by mine count again, forward, packed ``bits`` bits a coefficient
    (Kronecker substitution: adding counts is adding ints, ``j`` more mines a shift): for a
    component whose counts outgrew the width :func:`_forward` guessed.

    Every 16 layers the polynomials are shifted down by the fewest mines any
    state holds (``low``): on a chain the mines so far grow with its length
    while the states of one layer differ by a mine or two, so the ints stay a
    few coefficients wide.
    """
    low, polys = 0, [1]
    forward = [(low, polys)]
    for i, (src, dst, held) in enumerate(layers.moves):
        checkpoint()
        step = _steps(sizes[i], bits)[1]
        nxt = [0] * layers.widths[i + 1]
        for start in range(0, len(src), _CHUNK):
            if start:
                checkpoint()
            for s, d, j in _chunk(src, dst, held, start):
                nxt[d] += polys[s] * step[j]
        polys = nxt
        if not i & 15:
            low, polys = _shifted(low, polys, bits)
        forward.append((low, polys))
    layers.forward = forward


#: Transitions taken between two budget checks within one layer.
_CHUNK = 4096


def _chunk(src: list[int], dst: list[int], held: list[int], start: int) -> Iterable[tuple[int, int, int]]:
    """The transitions of one layer from ``start``, :data:`_CHUNK` of them (all, in a short layer)."""
    if len(src) <= _CHUNK:
        return zip(src, dst, held, strict=True)
    stop = start + _CHUNK
    return zip(src[start:stop], dst[start:stop], held[start:stop], strict=True)


def _shifted(low: int, polys: list[int], bits: int) -> tuple[int, list[int]]:
    """``polys`` (from ``x^low`` up) shifted down by the fewest mines any of them holds."""
    lowest = min(((p & -p).bit_length() - 1 for p in polys if p), default=0) // bits
    if not lowest:
        return low, polys
    shift = lowest * bits
    return low + lowest, [p >> shift for p in polys]


def _backward(
    layers: _Layers, sizes: list[int], bits: int
) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """The layouts by mine count, and each box's mine weight, as ``(low, packed)`` pairs.

    Backward, the ways to fill boxes ``i..n-1`` from each state of layer ``i``;
    a box's mine weight joins the ways before it (``layers.forward``) with the
    ways after it, each filling of the box weighing ``C(s-1, j-1) = C(s, j) * j / s``:
    the layouts that mine one given cell of a box holding ``j`` mines.
    """
    n = len(sizes)
    low, after = 0, [1] * layers.widths[n]
    weights: list[tuple[int, int]] = [(0, 0)] * n
    tables: dict[int, tuple[list[int], list[int]]] = {}
    work = due = 0
    for i in range(n - 1, -1, -1):
        src, dst, held = layers.moves[i]
        work += len(src) + 1
        if work >= due:
            checkpoint()
            due = work + 256
        size = sizes[i]
        if size not in tables:
            tables[size] = (
                _steps(size, bits)[1],
                [comb(size - 1, j - 1) << (j * bits) if j else 0 for j in range(size + 1)],
            )
        step, per_cell = tables[size]
        width = layers.widths[i]
        total = [0] * width
        weight = [0] * width
        for start in range(0, len(src), _CHUNK):
            if start:
                checkpoint()
            for s, d, j in _chunk(src, dst, held, start):
                ways = after[d]
                if ways:
                    total[s] += ways * step[j]
                    if j:
                        weight[s] += ways * per_cell[j]
        before_low, before = layers.forward[i]
        weights[i] = (before_low + low, sum([p * w for p, w in zip(before, weight, strict=True) if w]))
        after = total
        if not i & 15:
            low, after = _shifted(low, after, bits)
    return (low, after[0]), weights


def _read(
    ways: tuple[int, int], weights: list[tuple[int, int]], cells: list[tuple[Cell, ...]], bits: int,
    degree: int,
) -> ComponentCount:
    """The packed counts read out (every coefficient below ``2 ** bits``, the lowest at ``low``):
    each box's weights only within the mine counts some layout has."""
    low, inside = ways[0], coefficients(ways[1], bits)
    high = low + len(inside)
    total = [0] * degree
    total[low:high] = inside
    mine_ways: dict[Cell, Sequence[int]] = {}
    # Boxes with the same weights share one table (a chain's cells have two between them):
    # it is read once, held once, and what reads it by identity sums it once.
    shared: dict[tuple[int, int], Sequence[int]] = {}
    for i, group in enumerate(cells):
        if not i & 4095:
            checkpoint()
        start, poly = weights[i]
        if poly:  # the offsets of the layers joined may lie below the weight's fewest mines
            zeros = ((poly & -poly).bit_length() - 1) // bits
            start, poly = start + zeros, poly >> (zeros * bits)
        else:
            start = low
        per_cell = shared.get((start, poly))
        if per_cell is None:
            found = coefficients(poly, bits)
            row = [0] * (high - low)
            row[start - low : start - low + len(found)] = found
            per_cell = shared[start, poly] = by_mines(low, row, degree)
        for cell in group:
            mine_ways[cell] = per_cell
    return ComponentCount(tuple(total), mine_ways)


def coefficients(poly: int, bits: int) -> list[int]:
    """The coefficients packed in ``poly``, ``bits`` (a multiple of 8) bits each, lowest first:
    read through its bytes, in one pass however many there are (as an array of machine numbers
    when ``bits`` is one's width).

    >>> coefficients(3 + (5 << 16), 8), coefficients(0, 8), coefficients(7 << 64 | 1, 64)
    ([3, 0, 5], [], [1, 7])
    """
    width = bits // 8
    data = poly.to_bytes((poly.bit_length() + bits - 1) // bits * width, "little")
    if width == 1:
        return list(data)
    code = _ARRAY_CODES.get(width)
    if code is not None:
        numbers = array(code, data)
        if sys.byteorder == "big":
            numbers.byteswap()
        return numbers.tolist()
    return [int.from_bytes(data[at : at + width], "little") for at in range(0, len(data), width)]


#: The array type codes of unsigned numbers 2, 4 and 8 bytes wide on this machine.
_ARRAY_CODES = {array(code).itemsize: code for code in "QLIH"}


_BYTE = 8

#: Counts by mine count of at most this many entries are plain tuples; longer ones
#: (a part of hundreds of cells) are :class:`Padded`: a chain of 998 cells has 999 mine
#: counts and one with layouts, and a tuple for each of its cells would take 8 MB.
DENSE_UP_TO = 64


def by_mines(low: int, inside: Sequence[int], length: int) -> Sequence[int]:
    """A count by mine count, ``inside`` from ``low`` on and zeros elsewhere up to ``length``:
    a tuple when short, else :class:`Padded`.

    >>> by_mines(1, [3], 3)
    (0, 3, 0)
    >>> by_mines(1, [3], 100)[:3], len(by_mines(1, [3], 100))
    ((0, 3, 0), 100)
    """
    if length <= DENSE_UP_TO:
        return (0,) * low + tuple(inside) + (0,) * (length - low - len(inside))
    return Padded(low, tuple(inside), length)


class Padded(Sequence[int]):
    """A tuple of ``length`` counts stored only from ``low`` for ``len(inside)`` entries: zeros
    elsewhere. It reads as the tuple would (indexing, slicing into a tuple, iteration, equality
    with a tuple), each slice at the cost of its nonzero part.

    >>> row = Padded(2, (5, 7), 6)
    >>> row[3], row[0], row[-1], row[1:4], list(row)
    (7, 0, 0, (0, 5, 7), [0, 0, 5, 7, 0, 0])
    >>> row == (0, 0, 5, 7, 0, 0), row == Padded(1, (0, 5, 7), 6)
    (True, True)
    """

    __slots__ = ("inside", "length", "low")

    def __init__(self, low: int, inside: tuple[int, ...], length: int) -> None:
        self.low, self.inside, self.length = low, inside, length

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        low, inside = self.low, self.inside
        if isinstance(index, slice):
            start, stop, step = index.indices(self.length)
            if step != 1:
                return tuple(self)[index]
            stop = max(start, stop)
            lo, hi = max(start, low), min(stop, low + len(inside))
            if lo >= hi:
                return (0,) * (stop - start)
            return (0,) * (lo - start) + inside[lo - low : hi - low] + (0,) * (stop - hi)
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError("Padded index out of range")
        at = index - low
        return inside[at] if 0 <= at < len(inside) else 0

    def __iter__(self) -> Iterator[int]:
        return chain(repeat(0, self.low), self.inside, repeat(0, self.length - self.low - len(self.inside)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Padded):
            if self.length != other.length:
                return False
            lo = min(self.low, other.low)
            hi = max(self.low + len(self.inside), other.low + len(other.inside))
            return self[lo:hi] == other[lo:hi]
        if isinstance(other, tuple):
            return len(other) == self.length and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))
