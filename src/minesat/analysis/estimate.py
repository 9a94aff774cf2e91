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
from contextlib import suppress
from math import exp, log
from typing import TYPE_CHECKING

from minesat.analysis.constraints import Component
from minesat.analysis.counting import ComponentCount
from minesat.analysis.result import Analysis, InconsistentPositionError, build_analysis
from minesat.board import COVERED, FLAG, Cell, Position
from minesat.exact.budget import OverBudget, checkpoint
from minesat.words import plural

if TYPE_CHECKING:
    import numpy as np

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
    import numpy as np

    constraints = [c for part in parts for c in part.constraints]
    if not constraints:
        return {}
    index: dict[Cell, int] = {}
    for c in constraints:
        for cell in c.cells:
            index.setdefault(cell, len(index))
    members = np.full((len(constraints), 8), -1, dtype=np.int64)
    for f, c in enumerate(constraints):
        members[f, : len(c.cells)] = [index[x] for x in c.cells]
    need = np.array([c.count for c in constraints])
    fixed = np.full(len(index), np.nan)
    for cell, i in index.items():
        if cell in safe:
            fixed[i] = 0.0
        elif cell in mine:
            fixed[i] = 1.0
    probs = propagate_beliefs(members, need, fixed, density)
    return {cell: float(probs[i]) for cell, i in index.items()}


def propagate_beliefs(members: np.ndarray, need: np.ndarray, fixed: np.ndarray, density: float) -> np.ndarray:
    """Belief propagation over numbers: ``members[f]`` the cells number ``f`` sees (-1 pads a row of
    eight), ``need[f]`` the mines among them; ``fixed[i]`` 0 or 1 for a known cell, NaN for the
    others. Returns every cell's estimated mine probability (the known ones as they are).

    Each round, every number tells each of its cells the odds that its other cells hold
    what it needs with or without this one (from their current estimates), and each cell
    adds what its numbers say to the prior odds of a mine (``density``); messages are damped.

    >>> import numpy as np
    >>> members = np.array([[0, 1, -1, -1, -1, -1, -1, -1]])   # one number: 1 mine in cells 0, 1
    >>> [round(float(p), 3) for p in propagate_beliefs(members, np.array([1]), np.full(2, np.nan), 0.2)]
    [0.5, 0.5]
    """
    import numpy as np

    n = len(fixed)
    padded = members < 0
    slots = np.where(padded, n, members)  # a pad points at a dummy cell past the end
    known = np.concatenate((fixed, [0.0]))  # the dummy cell is a safe cell: it counts for nothing
    prior = log(density / (1 - density))
    messages = np.zeros(members.shape)
    for _ in range(ROUNDS):
        checkpoint()  # past a budget the caller answers without beliefs
        total = np.full(n + 1, prior)
        np.add.at(total, slots, np.where(padded, 0.0, messages))
        elsewhere = 1 / (1 + np.exp(-np.clip(total[slots] - messages, -40, 40)))
        held = known[slots]
        elsewhere = np.where(np.isnan(held), elsewhere, held)
        fresh = _cardinality_messages(elsewhere, need)
        messages = np.where(padded, 0.0, DAMPING * messages + (1 - DAMPING) * fresh)
    total = np.full(n + 1, prior)
    np.add.at(total, slots, messages)
    probs = 1 / (1 + np.exp(-np.clip(total[:n], -40, 40)))
    return np.where(np.isnan(fixed), probs, fixed)


def _cardinality_messages(p: np.ndarray, need: np.ndarray) -> np.ndarray:
    """For numbers needing ``need[f]`` mines among cells whose other estimates are ``p[f, j]``:
    the log odds that cell ``j`` is a mine, from number ``f`` alone (a Poisson-binomial count of
    the other cells, from both sides of ``j``)."""
    import numpy as np

    count, size = p.shape
    # prefix[j][f, m]: P(m mines among cells 0..j-1); suffix[j]: among cells j..size-1.
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
    suffix.reverse()
    rows = np.arange(count)
    out = np.zeros((count, size))
    for j in range(size):
        a, b = prefix[j], suffix[j + 1]
        # P(the others hold m) for m = need - 1 and need: sum over i of a[i] * b[m - i].
        mined = np.zeros(count)
        spared = np.zeros(count)
        for i in range(size + 1):
            for target, into in ((need - 1, mined), (need, spared)):
                k = target - i
                ok = (k >= 0) & (k <= size)
                into += np.where(ok, a[:, i] * b[rows, np.clip(k, 0, size)], 0.0)
        out[:, j] = np.log(np.maximum(mined, 1e-300)) - np.log(np.maximum(spared, 1e-300))
    return np.clip(out, -40, 40)


# --- a whole position past a budget: propagation, then beliefs ------------------------------------

#: The eight neighbours of a cell, as (row, column) offsets.
_AROUND = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def estimate_position(position: Position, total: int | None, why: str) -> Analysis:
    """SPEC section 19 past a budget: every cell propagation proves, and estimates for the others.

    Built from the position alone, as arrays (it must cost little where the exact road
    cost too much): what single numbers force (a number whose mines are all known clears
    its other cells; one that needs every open cell mines them) and what pairs of numbers
    force (the mines two numbers share are bounded by both, which can clear or fill the
    cells only one of them sees), to a fixpoint; then :func:`propagate_beliefs` for the
    undecided cells next to numbers, and the mines left over for the others. Each step
    checks the budget it runs under (:func:`~minesat.exact.budget.checkpoint`) and, past
    it, answers with what it has: the certainties found are certain whatever is cut.
    ``consistent`` is ``None`` unless propagation settled every number (then the position
    is consistent, or a number it breaks is named: :class:`InconsistentPositionError`).

    >>> a = estimate_position(Position.from_rows(["1?", "1?", "1?"], mines=1), 1, "past a budget")
    >>> a.safe, a.mine, a.exact, a.consistent
    (((0, 1), (2, 1)), ((1, 1),), False, True)
    """
    import numpy as np

    rows, cols = position.rows, position.cols
    size = rows * cols
    state = np.fromiter(position.cells, dtype=np.int16, count=size)
    covered = state == COVERED
    numbers = np.flatnonzero(state >= 0)
    r, c = np.divmod(numbers, cols)
    around = np.full((len(numbers), 8), -1, dtype=np.int64)
    for k, (dr, dc) in enumerate(_AROUND):
        rr, cc = r + dr, c + dc
        inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        around[inside, k] = rr[inside] * cols + cc[inside]
    seen = np.where(around >= 0, around, size)
    flagged = np.concatenate((state == FLAG, [False]))[seen].sum(axis=1)
    need = state[numbers].astype(np.int64) - flagged
    is_covered = np.concatenate((covered, [False]))
    members = np.where(is_covered[seen], around, -1)
    open_count = (members >= 0).sum(axis=1)
    broken = (need < 0) | (need > open_count)
    if broken.any():
        where = divmod(int(numbers[np.argmax(broken)]), cols)
        raise InconsistentPositionError(where, "this number cannot be satisfied")
    keep = open_count > 0
    members, need, numbers = members[keep], need[keep], numbers[keep]

    # value[i]: -1 undecided, 0 safe, 1 mine (only covered cells are ever set).
    value = np.full(size + 1, -1, dtype=np.int8)
    value[size] = 0  # the pad: a safe cell outside the board
    settled = False
    with suppress(OverBudget):  # past the budget, what is decided so far is certain
        settled = _propagate(members, need, value, numbers, cols, size)
    padded, value = value, value[:size]
    frontier = np.zeros(size, dtype=bool)
    frontier[members[members >= 0]] = True
    mine_count = int((value == 1).sum())
    undecided = covered & (value < 0)
    flags = int((state == FLAG).sum())
    remaining = None if total is None else total - flags
    if remaining is not None and settled and not undecided[frontier].any():
        interior = int((covered & ~frontier).sum())
        left = remaining - mine_count
        if left < 0 or left > interior:
            where = divmod(int(numbers[0]), cols) if len(numbers) else (0, 0)
            mines = plural(remaining, "remaining mine")
            raise InconsistentPositionError(where, f"no layout places the {mines}")
    consistent = True if settled and not (undecided & frontier).any() else None

    probability = np.full(size, np.nan)
    probability[value == 0] = 0.0
    probability[value == 1] = 1.0
    if remaining is not None:
        left = remaining - mine_count
        density = min(max(left / max(int(undecided.sum()), 1), 1e-6), 1 - 1e-6)
        fixed = np.where(value >= 0, value.astype(float), np.nan)
        try:
            # Only the numbers with undecided cells, seeing only those, and what they still need.
            still = need - _mines_seen(members, padded)
            open_members = np.where(padded[np.where(members >= 0, members, size)] < 0, members, -1)
            live = (open_members >= 0).any(axis=1)
            beliefs = propagate_beliefs(open_members[live], still[live], _open_only(fixed), density)
            probability[undecided & frontier] = beliefs[undecided & frontier]
        except OverBudget:
            probability[undecided & frontier] = density
        inside = undecided & ~frontier
        if inside.any():
            expected = float(np.nansum(probability[undecided & frontier]))
            probability[inside] = min(1.0, max(0.0, (left - expected) / int(inside.sum())))
        free = undecided
        probability[free] = np.clip(probability[free], 5e-324, 1.0 - 2.0**-53)
    cells_safe = {divmod(int(i), cols) for i in np.flatnonzero(value == 0)}
    cells_mine = {divmod(int(i), cols) for i in np.flatnonzero(value == 1)}
    grid: dict[Cell, float | None] = {}
    for i in np.flatnonzero(covered):
        p = probability[i]
        grid[divmod(int(i), cols)] = None if np.isnan(p) else float(p)
    return build_analysis(
        position, total, cells_safe, cells_mine, grid, components=0, exact=False, why=why,
        consistent=consistent,
    )


def _mines_seen(members: np.ndarray, value: np.ndarray) -> np.ndarray:
    """How many of each number's cells propagation has mined (``value`` ends with the pad's)."""
    import numpy as np

    return (value[np.where(members >= 0, members, len(value) - 1)] == 1).sum(axis=1)


def _open_only(fixed: np.ndarray) -> np.ndarray:
    """Beliefs count only undecided cells: a decided one is a known 0 (its mines are taken off ``need``)."""
    import numpy as np

    return np.where(np.isnan(fixed), np.nan, 0.0)


def _propagate(
    members: np.ndarray, need: np.ndarray, value: np.ndarray, numbers: np.ndarray, cols: int, size: int
) -> bool:
    """Single numbers and pairs of numbers to a fixpoint, setting ``value``; True when it got there.

    :class:`InconsistentPositionError` names a number they break.
    """
    import numpy as np

    pairs = _pairs(numbers, cols, size)
    active = np.arange(len(need))
    pairs_due = True
    while True:
        checkpoint()
        changed = _singles(members, need, value, numbers, cols, active)
        if not changed.size:
            if not pairs_due:
                return True
            changed = _pair_rule(members, need, value, numbers, cols, pairs)
            pairs_due = False
            if not changed.size:
                return True
        else:
            pairs_due = True
        # The numbers that see a changed cell are the ones to look at again.
        active = np.flatnonzero(np.isin(members, changed).any(axis=1))


def _singles(
    members: np.ndarray, need: np.ndarray, value: np.ndarray, numbers: np.ndarray, cols: int, rows: np.ndarray
) -> np.ndarray:
    """One pass of the single-number rules over the numbers ``rows``; the cells it decided."""
    import numpy as np

    m = members[rows]
    slots = np.where(m >= 0, m, len(value) - 1)
    v = value[slots]
    unknown = (m >= 0) & (v < 0)
    left = need[rows] - (v == 1).sum(axis=1)
    u = unknown.sum(axis=1)
    broken = (left < 0) | (left > u)
    if broken.any():
        number = int(numbers[rows[np.argmax(broken)]])
        raise InconsistentPositionError(divmod(number, cols), "this number cannot be satisfied")
    clear = (left == 0) & (u > 0)
    fill = (left == u) & (u > 0)
    to_clear = m[clear[:, None] & unknown]
    to_fill = m[fill[:, None] & unknown]
    both = np.intersect1d(to_clear, to_fill)
    if both.size:
        raise InconsistentPositionError(divmod(int(numbers[rows[np.argmax(clear)]]), cols),
                                        "this number cannot be satisfied")
    value[to_clear] = 0
    value[to_fill] = 1
    return np.unique(np.concatenate((to_clear, to_fill)))


def _pairs(numbers: np.ndarray, cols: int, size: int) -> np.ndarray:
    """Pairs of numbers (row indices) close enough to share a cell: at most two rows and columns apart."""
    import numpy as np

    row_of = np.full(size, -1, dtype=np.int64)
    row_of[numbers] = np.arange(len(numbers))
    r, c = np.divmod(numbers, cols)
    rows_total = size // cols
    found = []
    for dr in range(0, 3):
        for dc in range(-2, 3):
            if dr == 0 and dc <= 0:
                continue
            rr, cc = r + dr, c + dc
            inside = (rr < rows_total) & (cc >= 0) & (cc < cols)
            other = np.full(len(numbers), -1, dtype=np.int64)
            other[inside] = row_of[rr[inside] * cols + cc[inside]]
            has = other >= 0
            found.append(np.stack((np.flatnonzero(has), other[has]), axis=1))
    return np.concatenate(found) if found else np.zeros((0, 2), dtype=np.int64)


def _pair_rule(
    members: np.ndarray,
    need: np.ndarray,
    value: np.ndarray,
    numbers: np.ndarray,
    cols: int,
    pairs: np.ndarray,
) -> np.ndarray:
    """One pass of the two-number rule over every pair; the cells it decided.

    Numbers A and B share ``s`` undecided cells, and see ``a`` and ``b`` others alone. The
    shared cells hold between ``max(0, nA - a, nB - b)`` and ``min(s, nA, nB)`` mines; so
    A's own cells hold ``nA`` less that: when that is always 0 they are safe, when it is
    always ``a`` they are mines (and so for B's, and for the shared cells at either end).
    """
    import numpy as np

    if not len(pairs):
        return np.zeros(0, dtype=np.int64)
    pad = len(value) - 1
    decided_clear, decided_fill = [], []
    for chunk in range(0, len(pairs), 200_000):
        checkpoint()
        f, g = pairs[chunk : chunk + 200_000].T
        ma, mb = members[f], members[g]
        va, vb = value[np.where(ma >= 0, ma, pad)], value[np.where(mb >= 0, mb, pad)]
        ua, ub = (ma >= 0) & (va < 0), (mb >= 0) & (vb < 0)
        na = need[f] - (va == 1).sum(axis=1)
        nb = need[g] - (vb == 1).sum(axis=1)
        same = (ma[:, :, None] == mb[:, None, :]) & ua[:, :, None] & ub[:, None, :]
        a_shared = same.any(axis=2)
        b_shared = same.any(axis=1)
        s = a_shared.sum(axis=1)
        a = ua.sum(axis=1) - s
        b = ub.sum(axis=1) - s
        lo = np.maximum.reduce([np.zeros_like(s), na - a, nb - b])
        hi = np.minimum.reduce([s, na, nb])
        live = s > 0
        if (live & (lo > hi)).any():
            number = int(numbers[f[np.argmax(live & (lo > hi))]])
            raise InconsistentPositionError(divmod(number, cols), "this number cannot be satisfied")
        a_only, b_only = ua & ~a_shared, ub & ~b_shared
        for only, cells, n_, own in ((a_only, ma, na, a), (b_only, mb, nb, b)):
            clear = live & (own > 0) & (n_ - lo == 0)
            fill = live & (own > 0) & (n_ - hi == own)
            decided_clear.append(cells[clear[:, None] & only])
            decided_fill.append(cells[fill[:, None] & only])
        decided_clear.append(ma[(live & (hi == 0))[:, None] & a_shared])
        decided_fill.append(ma[(live & (lo == s))[:, None] & a_shared])
    to_clear = np.unique(np.concatenate(decided_clear))
    to_fill = np.unique(np.concatenate(decided_fill))
    if np.intersect1d(to_clear, to_fill).size:
        raise InconsistentPositionError(divmod(int(numbers[0]), cols), "these numbers cannot be satisfied")
    value[to_clear] = 0
    value[to_fill] = 1
    return np.unique(np.concatenate((to_clear, to_fill)))
