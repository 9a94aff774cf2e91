"""The close road: every probability within 1e-10 of its rational value, in floats.

Past what exact integers may cost (:data:`~minesat.analysis.combine.WORK_BUDGET`), the parts
are weighed here (docs/commands/analyze.md promises 1e-9), from numbers only as wide as the
answer needs. Each part's table is tilted so that its mine counts weigh as the interior weighs
them, which makes the tables distributions summing to 1; their product over thousands of
parts is concentrated on a window of mine counts a few standard deviations wide, and what
falls outside the window is dropped and added up, so the answer says how far from exact it
can be (and the road refuses when that is not far below 1e-9).

numpy is imported here at the top: the analysis imports this module only when a board takes
the close road, so a small board's analysis never loads numpy.

>>> from minesat.analysis.combine import Cells
>>> from minesat.analysis.counting import ComponentCount
>>> part = ComponentCount((0, 2, 0), {(0, 0): (0, 1, 0), (0, 1): (0, 1, 0)})  # one mine in two cells
>>> weights = close_weights([part], [Cells(((0, 0), (0, 1)))], interior=2, remaining=2)
>>> round(weights.probability[(0, 0)], 12), round(weights.interior, 12)
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import exp, inf, log

import numpy as np

from minesat.analysis.combine import HasCells, trimmed
from minesat.analysis.counting import ComponentCount
from minesat.board import Cell
from minesat.budget import checkpoint

__all__ = ["CUT", "TOLERANCE", "CloseWeights", "NotClose", "close_weights"]

#: The far ends of a product of tilted tables, each entry below this share of the product's
#: largest, are dropped (and what they held is added to the error bound).
CUT = 2.0**-90

#: The most the close road lets the error bound of a probability be; past it, it refuses
#: (:class:`NotClose`). docs/commands/analyze.md promises 1e-9: this keeps a tenfold margin.
TOLERANCE = 1e-10


class NotClose(Exception):
    """The close road cannot vouch for its probabilities within :data:`TOLERANCE`."""


@dataclass(frozen=True)
class CloseWeights:
    """The close road's answer: each frontier cell's probability, each interior cell's
    (``None`` without an interior), and a bound on how far any of them is from its rational value."""

    probability: dict[Cell, float]
    interior: float | None
    error: float


@dataclass(frozen=True)
class _Node:
    """A node of the product tree: the product of its parts' tilted tables, kept from
    ``offset`` mines on; the fewest and most mines its parts can hold; its two children
    (indices into the tree's list), or ``None`` at a part."""

    offset: int
    product: np.ndarray
    low: int
    high: int
    children: tuple[int, int] | None


def close_weights(
    counts: Sequence[ComponentCount | None],
    parts: Sequence[HasCells],
    interior: int,
    remaining: int,
) -> CloseWeights | None:
    """Every probability within :data:`TOLERANCE` of its rational value, in time and memory that
    grow with the parts, not with their number squared. ``None`` when no layout exists;
    :class:`NotClose` when the bound cannot be kept (a window too narrow for the weights).

    The steps, each sound on its own:

    1. *Tilt.* Multiplying every part's ``ways[k]`` by ``t ** k`` and the interior's
       ``C(interior, remaining - K)`` by ``t ** -K`` changes no layout's weight (the
       ``K`` mines of the frontier are the parts' ``k`` together). ``t`` is the saddle
       point: the frontier's mean mine count under the tilted tables is the count at
       which the interior's weight peaks, so the parts' product falls where the interior's
       weight is greatest. Each tilted table is then scaled to sum to 1: a distribution.
    2. *Product tree.* Parts are multiplied pairwise up a balanced tree. A node's
       product is a distribution too (its mass only shrinks by what is dropped): mine
       counts its parts cannot hold with any choice of the others and the interior are
       cut (they weigh exactly nothing), and so are the far ends that weigh less than
       :data:`CUT` of the node's largest entry. A dropped entry could have added at
       most its own mass to any weight below (the other factors are distributions and
       the interior's weight is scaled to at most 1), so their sum bounds the error.
    3. *Contexts.* Down the tree, each node learns what each of its mine counts is worth
       with all the other parts and the interior (a correlation of its parent's worth
       with its sibling's product); at a part, that gives each of its mine counts' weight,
       and a cell's probability is its share of the layouts at each count, so weighted.
    """
    tables = trimmed(counts)
    if tables is None:
        return None
    low = sum(lo for lo, _ in tables)
    high = sum(lo + len(t) - 1 for lo, t in tables)
    first, last = max(low, remaining - interior), min(high, remaining)
    if first > last:
        return None
    logs = [np.array([log(w) if w else -inf for w in t]) for _, t in tables]
    theta = _saddle(logs, [lo for lo, _ in tables], interior, remaining)
    leaves = [
        _Node(lo, _tilted(row, theta), lo, lo + len(t) - 1, None)
        for (lo, t), row in zip(tables, logs, strict=True)
    ]
    nodes, root, dropped = _product_tree(leaves, low, high, interior, remaining)
    outside = _interior_weights(first, last, interior, remaining, theta)
    worth = _root_worth(nodes[root], first, last, outside)
    product = nodes[root].product
    layouts = float(product @ worth)
    if not layouts > 0:
        raise NotClose("the window of mine counts holds no weight")
    # Float rounding: each level of the tree adds at most its sums' length in units of 2 ** -53.
    rounding = 2.0**-53 * (len(product) + 64) * (max(1, len(tables)).bit_length() + 1)
    error = 2 * dropped / layouts + rounding
    if error > TOLERANCE:
        raise NotClose(f"the weights outside the window may reach {error:.2g}")
    interior_share = None
    if interior:
        counts_in = nodes[root].offset + np.arange(len(product))
        interior_share = float(product @ (worth * (remaining - counts_in))) / interior / layouts
    probability = _contexts(nodes, root, worth, counts, parts, layouts)
    return CloseWeights(probability, interior_share, error)


def _tilted(row: np.ndarray, theta: float) -> np.ndarray:
    """Step 1: a part's table (as logs) tilted by ``theta`` and scaled to a distribution."""
    tilted = row + theta * np.arange(len(row))
    tilted = np.exp(tilted - tilted.max())
    return tilted / tilted.sum()


def _interior_weights(first: int, last: int, interior: int, remaining: int, theta: float) -> np.ndarray:
    """The interior's weight of ``K`` frontier mines, tilted and scaled to a peak of 1, for ``K``
    in ``first..last`` (one weight, 1, without an interior)."""
    if not interior:
        return np.ones(1)
    ks = np.arange(first, last)
    steps = np.log(remaining - ks) - np.log(interior - remaining + ks + 1) - theta
    weight_log = np.concatenate(([0.0], np.cumsum(steps)))
    return np.exp(weight_log - weight_log.max())


def _product_tree(
    leaves: list[_Node], low: int, high: int, interior: int, remaining: int
) -> tuple[list[_Node], int, float]:
    """Step 2: the parts multiplied pairwise up a balanced tree, bottom up: every node (the
    leaves first), the root's index, and the mass dropped on the way (what bounds the error)."""
    nodes = list(leaves)
    dropped = 0.0
    level = list(range(len(nodes)))
    while len(level) > 1:
        up = []
        checkpoint()
        for a, b in zip(level[::2], level[1::2], strict=False):
            node, lost = _multiply(nodes[a], nodes[b], (a, b), low, high, interior, remaining)
            dropped += lost
            nodes.append(node)
            up.append(len(nodes) - 1)
        if len(level) % 2:
            up.append(level[-1])
        level = up
    return nodes, level[0], dropped


def _multiply(
    a: _Node, b: _Node, children: tuple[int, int], low: int, high: int, interior: int, remaining: int
) -> tuple[_Node, float]:
    """Two nodes' product, with the counts nothing can complete cut and the far ends dropped:
    the node, and the mass dropped."""
    full = np.convolve(a.product, b.product)
    offset = a.offset + b.offset
    node_low, node_high = a.low + b.low, a.high + b.high
    # Counts the rest of the parts and the interior can never complete: exactly nothing.
    lo_ok = max(offset, remaining - interior - (high - node_high))
    hi_ok = min(offset + len(full) - 1, remaining - (low - node_low))
    keep_from, keep_to = lo_ok - offset, hi_ok - offset + 1
    kept = full[keep_from:keep_to]
    dropped = 0.0
    if len(kept):
        # The far ends, negligible beside the node's largest entry: dropped and counted.
        big = kept >= kept.max() * CUT
        where = np.flatnonzero(big)
        start, stop = int(where[0]), int(where[-1]) + 1
        dropped = float(kept[:start].sum() + kept[stop:].sum())
        kept = kept[start:stop]
        keep_from += start
    return _Node(offset + keep_from, kept, node_low, node_high, children), dropped


def _root_worth(root: _Node, first: int, last: int, outside: np.ndarray) -> np.ndarray:
    """The root's worth of each of its counts: the interior's weight there (0 outside the window)."""
    worth = np.zeros(len(root.product))
    lo_x, hi_x = max(first, root.offset), min(last, root.offset + len(root.product) - 1)
    if lo_x <= hi_x:
        worth[lo_x - root.offset : hi_x - root.offset + 1] = outside[lo_x - first : hi_x - first + 1]
    return worth


def _contexts(
    nodes: list[_Node],
    root: int,
    worth: np.ndarray,
    counts: Sequence[ComponentCount | None],
    parts: Sequence[HasCells],
    layouts: float,
) -> dict[Cell, float]:
    """Step 3: contexts down the tree (an explicit stack: no recursion as deep as anything), and
    at each part its cells' probabilities."""
    probability: dict[Cell, float] = {}
    stack: list[tuple[int, np.ndarray]] = [(root, worth)]
    while stack:
        index, context = stack.pop()
        if not len(stack) & 255:
            checkpoint()
        node = nodes[index]
        if node.children is None:
            _read_part(counts[index], parts[index], node.offset, node.product, context, layouts, probability)
            continue
        a, b = nodes[node.children[0]], nodes[node.children[1]]
        # The context covers the node's kept counts; its children's product spans them and more.
        span = len(a.product) + len(b.product) - 1
        full_context = np.zeros(span)
        at = node.offset - (a.offset + b.offset)
        full_context[at : at + len(context)] = context
        stack.append((node.children[0], np.correlate(full_context, b.product, mode="valid")))
        stack.append((node.children[1], np.correlate(full_context, a.product, mode="valid")))
    return probability


def _read_part(
    count: ComponentCount | None,
    part: HasCells,
    low: int,
    table: np.ndarray,
    context: np.ndarray,
    layouts: float,
    probability: dict[Cell, float],
) -> None:
    """A part's cells' probabilities: at each of its mine counts, the layouts mining the cell,
    weighted by the count's tilted table and its worth with everything else."""
    assert count is not None
    weight = table * context / layouts
    ways = count.ways[low : low + len(weight)]
    done: dict[int, float] = {}  # cells of one box share their table
    for at, cell in enumerate(part.cells):
        if not at & 4095:
            checkpoint()
        mined = count.mine_ways[cell]
        key = id(mined)
        if key not in done:
            shares = zip(weight, mined[low : low + len(weight)], ways, strict=True)
            done[key] = sum(float(w) * (m / n) for w, m, n in shares if m)
        probability[cell] = done[key]


def _saddle(logs: list[np.ndarray], lows: list[int], interior: int, remaining: int) -> float:
    """The tilt ``log t`` at which the parts' mean mine count is the one the interior weighs most.

    With an interior, the interior's weight ``C(interior, remaining - K)`` grows by the
    factor ``(remaining - K) / (interior - remaining + K + 1)`` from ``K`` to ``K + 1``:
    the tilt ``t`` cancels that factor at ``K = (remaining - t (interior - remaining + 1)) / (1 + t)``.
    Without one, the frontier holds every remaining mine. The parts' tilted mean grows with
    ``t`` and that count shrinks, so bisection finds where they meet.
    """
    narrow = [i for i, row in enumerate(logs) if len(row) <= 32]
    wide = [i for i, row in enumerate(logs) if len(row) > 32]
    width = max((len(logs[i]) for i in narrow), default=1)
    table = np.full((len(narrow), width), -inf)
    for r, i in enumerate(narrow):
        table[r, : len(logs[i])] = logs[i]
    steps = np.arange(width)
    base = sum(lows)

    def mean(theta: float) -> float:
        total = float(base)
        if narrow:
            tilted = table + theta * steps
            tilted = np.exp(tilted - tilted.max(axis=1, keepdims=True))
            total += float(((tilted @ steps) / tilted.sum(axis=1)).sum())
        for i in wide:
            row = logs[i] + theta * np.arange(len(logs[i]))
            row = np.exp(row - row.max())
            total += float(row @ np.arange(len(row)) / row.sum())
        return total

    def wanted(theta: float) -> float:
        if not interior:
            return float(remaining)
        t = exp(theta)
        return (remaining - t * (interior - remaining + 1)) / (1 + t)

    lo, hi = -60.0, 60.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if mean(mid) < wanted(mid):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
