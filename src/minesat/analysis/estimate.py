"""Probabilities where exact ones are out of reach: estimates, and how they are made.

Two places need them. A part that no count within the budget takes (a hostile
position) leaves its cells without exact weights; and a position analysed
under a time or memory budget that runs out has no exact weights at all.

The method (SPEC section 19 asks for a mean absolute error of at most 0.05
where the exact probabilities are known; ``benchmarks/estimates.py`` measures it):

- a counted part's cells take the part's own exact probabilities, its mine
  counts tilted as the interior weighs them (the independent-parts reading of
  the close road, without its product over parts);
- the other cells take belief propagation over the numbers: each number
  passes each of its cells the chance that its other cells hold what it still
  needs, given their current estimates, and each cell combines what its
  numbers say with the prior odds of a mine; a few damped rounds;
- the interior takes the mines the frontier is not expected to hold.

>>> from minesat.analysis.constraints import Frontier
>>> from minesat.board import Position
>>> parts = Frontier.of(Position.from_rows(["1?", "??"])).components()
>>> p = estimate_parts(parts, [None], interior=0, remaining=1, safe=set(), mine=set())
>>> [round(p[cell], 2) for cell in parts[0].cells]
[0.33, 0.33, 0.33]
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp, log

from minesat.analysis.constraints import Component
from minesat.analysis.counting import ComponentCount
from minesat.board import Cell

#: Rounds of belief propagation, and how much of the old message each round keeps.
ROUNDS = 30
DAMPING = 0.5


def estimate_parts(
    parts: Sequence[Component],
    counts: Sequence[ComponentCount | None],
    interior: int,
    remaining: int,
    safe: set[Cell],
    mine: set[Cell],
) -> dict[Cell | None, float]:
    """Estimated mine probabilities of the parts' cells (key ``None``: each interior cell's).

    ``remaining`` mines are for the parts and the ``interior``; cells of ``safe``
    and ``mine`` are known (they read 0 and 1, and the rest is estimated with them).
    """
    cells = sum(len(part.cells) for part in parts)
    density = min(max(remaining / max(cells + interior, 1), 1e-6), 1 - 1e-6)
    odds = density / (1 - density)
    out: dict[Cell | None, float] = {}
    uncounted: list[Component] = []
    for part, count in zip(parts, counts, strict=True):
        if count is None:
            uncounted.append(part)
            continue
        ways = count.ways
        # Each mine count k weighs ways[k] * odds ** k: the interior's pull on the part's mines.
        support = [k for k, w in enumerate(ways) if w]
        top = max(log(ways[k]) + k * log(odds) for k in support)
        weight = {k: exp(log(ways[k]) + k * log(odds) - top) for k in support}
        norm = sum(weight.values())
        for cell in part.cells:
            mined = count.mine_ways[cell]
            out[cell] = sum(weight[k] * mined[k] / ways[k] for k in support) / norm
    out.update(belief_propagation(uncounted, density, safe, mine))
    for cell in out:
        if cell in safe:
            out[cell] = 0.0
        elif cell in mine:
            out[cell] = 1.0
    if interior:
        expected = sum(out.values())
        out[None] = min(1.0, max(0.0, (remaining - expected) / interior))
    return out


def belief_propagation(
    parts: Sequence[Component], density: float, safe: set[Cell], mine: set[Cell]
) -> dict[Cell, float]:
    """Each cell's mine probability by belief propagation over the parts' numbers (see the module)."""
    constraints = [c for part in parts for c in part.constraints]
    if not constraints:
        return {}
    import numpy as np

    index: dict[Cell, int] = {}
    for c in constraints:
        for cell in c.cells:
            index.setdefault(cell, len(index))
    prior = log(density / (1 - density))
    n = len(index)
    fixed = np.full(n, np.nan)
    for cell, i in index.items():
        if cell in safe:
            fixed[i] = 0.0
        elif cell in mine:
            fixed[i] = 1.0
    # Numbers grouped by how many cells they see, as arrays: one vectorised round per size.
    groups: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    by_size: dict[int, list[tuple[list[int], int]]] = {}
    for c in constraints:
        by_size.setdefault(len(c.cells), []).append(([index[x] for x in c.cells], c.count))
    for size, rows in by_size.items():
        groups[size] = (np.array([r for r, _ in rows], dtype=np.int64), np.array([k for _, k in rows]))
    # messages[size][f, j]: the log odds number f sends its j-th cell.
    messages = {size: np.zeros(members.shape) for size, (members, _) in groups.items()}
    belief = np.full(n, prior)
    for _ in range(ROUNDS):
        total = np.full(n, prior)
        for size, (members, _) in groups.items():
            np.add.at(total, members, messages[size])
        belief = total
        probs = 1 / (1 + np.exp(-np.clip(belief, -40, 40)))
        probs = np.where(np.isnan(fixed), probs, fixed)
        for size, (members, need) in groups.items():
            # What each cell hears from elsewhere: its belief without this number's message.
            own = messages[size]
            elsewhere = 1 / (1 + np.exp(-np.clip(total[members] - own, -40, 40)))
            elsewhere = np.where(np.isnan(fixed[members]), elsewhere, fixed[members])
            fresh = _cardinality_messages(elsewhere, need)
            messages[size] = DAMPING * own + (1 - DAMPING) * fresh
    total = np.full(n, prior)
    for size, (members, _) in groups.items():
        np.add.at(total, members, messages[size])
    probs = 1 / (1 + np.exp(-np.clip(total, -40, 40)))
    probs = np.where(np.isnan(fixed), probs, fixed)
    return {cell: float(probs[i]) for cell, i in index.items()}


def _cardinality_messages(p: object, need: object) -> object:
    """For numbers needing ``need[f]`` mines among cells whose other estimates are ``p[f, j]``:
    the log odds that cell ``j`` is a mine, from number ``f`` alone."""
    import numpy as np

    p = np.asarray(p)
    need = np.asarray(need)
    count, size = p.shape
    # prefix[j][f, m]: P(m mines among cells 0..j-1); suffix likewise from j+1 on.
    prefix = [np.zeros((count, size + 1))]
    prefix[0][:, 0] = 1.0
    for j in range(size):
        last = prefix[-1]
        nxt = last * (1 - p[:, j : j + 1])
        nxt[:, 1:] += last[:, :-1] * p[:, j : j + 1]
        prefix.append(nxt)
    suffix = [np.zeros((count, size + 1))]
    suffix[0][:, 0] = 1.0
    for j in range(size - 1, -1, -1):
        last = suffix[-1]
        nxt = last * (1 - p[:, j : j + 1])
        nxt[:, 1:] += last[:, :-1] * p[:, j : j + 1]
        suffix.append(nxt)
    suffix.reverse()  # suffix[j]: cells j..size-1
    out = np.zeros((count, size))
    rows = np.arange(count)
    for j in range(size):
        a, b = prefix[j], suffix[j + 1]
        # P(others hold m) for m = need and need - 1: a correlation of the two sides.
        others = np.zeros((count, size + 1))
        for m in range(size + 1):
            others[:, m] = (a[:, : m + 1] * b[:, m::-1]).sum(axis=1)
        mined = others[rows, np.clip(need - 1, 0, size)] * (need >= 1)
        spared = others[rows, np.clip(need, 0, size)]
        out[:, j] = np.log(np.maximum(mined, 1e-300)) - np.log(np.maximum(spared, 1e-300))
    return np.clip(out, -40, 40)
