"""Probabilities where exact ones are out of reach: estimates, and how they are made.

Two places need them. A part that no count within the budget takes (a hostile
position) leaves its cells without exact weights; and a position analysed
under a time or memory budget that runs out has no exact weights at all.

The method (docs/commands/analyze.md promises a mean absolute error of at most 0.05
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
>>> p, p_interior = estimate_parts(parts, [None], interior=0, remaining=1, safe=set(), mine=set())
>>> [round(p[cell], 2) for cell in parts[0].cells], p_interior
([0.33, 0.33, 0.33], None)
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext, suppress
from functools import lru_cache
from math import exp, log
from typing import TYPE_CHECKING

from minesat.analysis.constraints import Component
from minesat.analysis.counting import ComponentCount
from minesat.analysis.result import Analysis, InconsistentPositionError
from minesat.board import Cell, Position
from minesat.budget import Clock, OverBudget, checkpoint, watching
from minesat.words import plural

if TYPE_CHECKING:
    import numpy as np

    from minesat.analysis.arrays import Numbers, Open

__all__ = [
    "DAMPING",
    "PAIR_CHUNK",
    "PAIR_OFFSETS",
    "ROUNDS",
    "SETTLED",
    "belief_propagation",
    "estimate_parts",
    "estimate_position",
    "pair_rule",
    "propagate",
    "propagate_beliefs",
]

#: Rounds of belief propagation, and how much of the old message each round keeps.
ROUNDS = 30
DAMPING = 0.5

#: Belief propagation stops early once no message moves by more than this (in log odds).
SETTLED = 1e-6


def estimate_parts(
    parts: Sequence[Component],
    counts: Sequence[ComponentCount | None],
    interior: int,
    remaining: int,
    safe: set[Cell],
    mine: set[Cell],
) -> tuple[dict[Cell, float], float | None]:
    """Estimated mine probabilities of the parts' cells, and each interior cell's (``None``
    when there is no interior).

    ``remaining`` mines are for the parts and the ``interior``; cells of ``safe``
    and ``mine`` are known (they read 0 and 1, and the rest is estimated with them).
    """
    cells = sum(len(part.cells) for part in parts)
    density = min(max(remaining / max(cells + interior, 1), 1e-6), 1 - 1e-6)
    odds = density / (1 - density)
    out: dict[Cell, float] = {}
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
        for at, cell in enumerate(part.cells):
            if not at & 4095:
                checkpoint()
            mined = count.mine_ways[cell]
            out[cell] = sum(weight[k] * mined[k] / ways[k] for k in support) / norm
    out.update(belief_propagation(uncounted, density, safe, mine))
    for known in mine:
        if known in out:
            out[known] = 1.0
    for known in safe:  # after the mines: a cell in both (never met) reads 0 as it always has
        if known in out:
            out[known] = 0.0
    if not interior:
        return out, None
    expected = sum(out.values())
    return out, min(1.0, max(0.0, (remaining - expected) / interior))


def belief_propagation(
    parts: Sequence[Component], density: float, safe: set[Cell], mine: set[Cell]
) -> dict[Cell, float]:
    """Each cell's mine probability by belief propagation over the parts' numbers (see the module)."""
    import numpy as np

    constraints = [c for part in parts for c in part.constraints]
    if not constraints:
        return {}
    index: dict[Cell, int] = {}
    for f, c in enumerate(constraints):
        if not f & 4095:
            checkpoint()
        for cell in c.cells:
            index.setdefault(cell, len(index))
    members = np.full((len(constraints), 8), -1, dtype=np.int64)
    for f, c in enumerate(constraints):
        if not f & 4095:
            checkpoint()
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


def propagate_beliefs(
    members: np.ndarray, need: np.ndarray, fixed: np.ndarray, density: float, *, cut_short: bool = False
) -> np.ndarray:
    """Belief propagation over numbers: ``members[f]`` the cells number ``f`` sees (-1 pads a row of
    eight), ``need[f]`` the mines among them; ``fixed[i]`` 0 or 1 for a known cell, NaN for the
    others. Returns every cell's estimated mine probability (the known ones as they are).
    A budget stop (:func:`~minesat.budget.checkpoint`) is passed on, or with
    ``cut_short`` ends the rounds: the beliefs so far are returned.

    Each round, every number tells each of its cells the odds that its other cells hold
    what it needs with or without this one (from their current estimates), and each cell
    adds what its numbers say to the prior odds of a mine (``density``); messages are damped,
    for at most :data:`ROUNDS` rounds or until they settle.

    >>> import numpy as np
    >>> members = np.array([[0, 1, -1, -1, -1, -1, -1, -1]])   # one number: 1 mine in cells 0, 1
    >>> [round(float(p), 3) for p in propagate_beliefs(members, np.array([1]), np.full(2, np.nan), 0.2)]
    [0.5, 0.5]
    """
    import numpy as np

    n = len(fixed)
    # Each number's cells first and its pads after: a number of k cells is weighed over k slots.
    members = np.take_along_axis(members, np.argsort(members < 0, axis=1, kind="stable"), axis=1)
    padded = members < 0
    sizes = (~padded).sum(axis=1)
    groups = [(np.flatnonzero(sizes == k), int(k)) for k in np.unique(sizes) if k]
    slots = np.where(padded, n, members)  # a pad points at a dummy cell past the end
    flat = slots.ravel()
    known = np.concatenate((fixed, [0.0]))  # the dummy cell is a safe cell: it counts for nothing
    held = known[slots]
    prior = log(density / (1 - density))
    messages = np.zeros(members.shape)
    for _ in range(ROUNDS):
        try:
            checkpoint()
        except OverBudget:
            if not cut_short:
                raise
            break
        total = prior + np.bincount(flat, weights=messages.ravel(), minlength=n + 1)
        elsewhere = 1 / (1 + np.exp(-np.clip(total[slots] - messages, -40, 40)))
        elsewhere = np.where(np.isnan(held), elsewhere, held)
        fresh = np.zeros(members.shape)
        for rows, k in groups:
            if k > 4:  # a round over a hostile board's numbers takes most of a second
                checkpoint()
            fresh[rows, :k] = _cardinality_messages(elsewhere[rows, :k], need[rows])
        damped = np.where(padded, 0.0, DAMPING * messages + (1 - DAMPING) * fresh)
        moved = float(np.abs(damped - messages).max()) if damped.size else 0.0
        messages = damped
        if moved < SETTLED:
            break
    total = prior + np.bincount(flat, weights=messages.ravel(), minlength=n + 1)
    probs = 1 / (1 + np.exp(-np.clip(total[:n], -40, 40)))
    return np.where(np.isnan(fixed), probs, fixed)


def _cardinality_messages(p: np.ndarray, need: np.ndarray) -> np.ndarray:
    """For numbers needing ``need[f]`` mines among cells whose other estimates are ``p[f, j]``:
    the log odds that cell ``j`` is a mine, from number ``f`` alone (a Poisson-binomial count of
    the other cells, from both sides of ``j``)."""
    import numpy as np

    count, size = p.shape
    # prefix[j][f, m]: P(m mines among cells 0..j-1); suffix[j]: among cells j..size-1.
    prefix = np.zeros((size + 1, count, size + 1))
    prefix[0, :, 0] = 1.0
    for j in range(size):
        q = p[:, j : j + 1]
        prefix[j + 1] = prefix[j] * (1 - q)
        prefix[j + 1, :, 1:] += prefix[j, :, :-1] * q
    suffix = np.zeros((size + 1, count, size + 1))
    suffix[size, :, 0] = 1.0
    for j in range(size - 1, -1, -1):
        q = p[:, j : j + 1]
        suffix[j] = suffix[j + 1] * (1 - q)
        suffix[j, :, 1:] += suffix[j + 1, :, :-1] * q
    # P(the others hold m), for m = need - 1 and need: the sum over i of a[i] * b[m - i].
    split = np.arange(size + 1)
    wanted = []
    for target in (need - 1, need):
        rest = target[:, None] - split[None, :]
        wanted.append((np.clip(rest, 0, size), (rest >= 0) & (rest <= size)))
    out = np.empty((count, size))
    for j in range(size):
        a, b = prefix[j], suffix[j + 1]
        mined, spared = (
            (a * np.where(ok, np.take_along_axis(b, rest, axis=1), 0.0)).sum(axis=1) for rest, ok in wanted
        )
        out[:, j] = np.log(np.maximum(mined, 1e-300)) - np.log(np.maximum(spared, 1e-300))
    return np.clip(out, -40, 40)


# --- a whole position past a budget: propagation, then beliefs ------------------------------------

#: Pairs of numbers looked at in one step of the two-number rule (each step checks the budget).
PAIR_CHUNK = 200_000


def estimate_position(
    position: Position, total: int | None, why: str, clock: Clock | None = None
) -> Analysis:
    """Past a budget (docs/commands/analyze.md): every cell propagation proves, estimates for the others.

    Built from the position alone, as arrays (:mod:`.arrays`: it must cost little where
    the exact road cost too much): what single numbers force (a number whose mines are all
    known clears its other cells; one that needs every open cell mines them) and what pairs
    of numbers force (:func:`pair_rule`), to a fixpoint; then :func:`propagate_beliefs` for
    the undecided cells next to numbers, and the mines left over for the others. Each step
    checks the budget it runs under (:func:`~minesat.budget.checkpoint`: ``clock``,
    else the one watching already) and, past it, answers with what it has. Propagation
    goes first and runs to its fixpoint within the ``clock`` (about a microsecond a cell:
    it fits the time left on positions games reach; a hostile board whose deductions walk
    along long chains a few cells a round is cut at the limit, docs/commands/analyze.md); the
    beliefs take what time is left. The certainties found are certain whatever is cut.
    ``consistent`` is ``None`` unless propagation settled every number (then the position
    is consistent, or a number it breaks is named: :class:`InconsistentPositionError`).

    >>> a = estimate_position(Position.from_rows(["1?", "1?", "1?"], mines=1), 1, "past a budget")
    >>> a.safe, a.mine, a.exact, a.consistent
    (((0, 1), (2, 1)), ((1, 1),), False, True)
    """
    from minesat.analysis.arrays import read_numbers

    cols = position.cols
    numbers = read_numbers(position)
    if numbers.broken is not None:
        raise InconsistentPositionError(divmod(numbers.broken, cols), "this number cannot be satisfied")
    value = numbers.undecided()
    settled = False
    # Past the budget (the clock's time or memory), what is decided so far is certain.
    with nullcontext() if clock is None else watching(clock), suppress(OverBudget):
        settled = propagate(numbers, value)
    with nullcontext() if clock is None else watching(clock):
        return _estimated(position, total, why, numbers, value, settled)


def _estimated(
    position: Position, total: int | None, why: str, numbers: Numbers, value: np.ndarray, settled: bool
) -> Analysis:
    """:func:`estimate_position` once propagation has run: the beliefs, then the answer."""
    import numpy as np

    from minesat.analysis.arrays import analysis_of, linked, open_numbers

    cols = position.cols
    decided = value[:-1]
    covered, frontier = numbers.covered, numbers.frontier
    undecided = covered & (decided < 0)
    open_frontier = undecided & frontier
    remaining = None if total is None else total - numbers.flags
    mine_count = int((decided == 1).sum())
    if remaining is not None and settled and not open_frontier.any():
        left = remaining - mine_count
        if not 0 <= left <= int((covered & ~frontier).sum()):
            where = divmod(int(numbers.source[0]), cols) if len(numbers.source) else (0, 0)
            mines = plural(remaining, "remaining mine")
            raise InconsistentPositionError(where, f"no layout places the {mines}")
    consistent = True if settled and not open_frontier.any() else None

    probability = np.where(decided >= 0, decided, np.nan)
    if remaining is not None:
        left = remaining - mine_count
        density = min(max(left / max(int(undecided.sum()), 1), 1e-6), 1 - 1e-6)
        probability[undecided] = density  # what a cell reads should the beliefs be cut
        still = open_numbers(numbers, value)
        if len(still.still):
            # The numbers left open, seeing only their undecided cells, numbered afresh.
            cells, inverse = np.unique(still.members, return_inverse=True)
            members = inverse.reshape(still.members.shape) - (1 if cells[0] < 0 else 0)
            cells = cells[cells >= 0]
            nothing_known = np.full(len(cells), np.nan)
            with suppress(OverBudget):
                beliefs = propagate_beliefs(members, still.still, nothing_known, density, cut_short=True)
                probability[cells] = beliefs
        inside = undecided & ~frontier
        if inside.any():
            expected = float(probability[open_frontier].sum())
            probability[inside] = min(1.0, max(0.0, (left - expected) / int(inside.sum())))
        probability[undecided] = np.clip(probability[undecided], 5e-324, 1.0 - 2.0**-53)
    components = 0
    with suppress(OverBudget):
        group = linked(numbers, frontier)
        components = int((group[frontier] == np.flatnonzero(frontier)).sum())
    return analysis_of(
        position, total, decided == 0, decided == 1, probability, components=components, exact=False,
        why=why, consistent=consistent,
    )


def propagate(numbers: Numbers, value: np.ndarray) -> bool:
    """Single numbers (:func:`~minesat.analysis.arrays.settle`) and pairs of numbers
    (:func:`pair_rule`) to a fixpoint, writing ``value``; True when it got there.
    :class:`InconsistentPositionError` names a number they break.

    The two-number rule looks first at every pair of numbers left open, then only at the
    pairs with a number around a cell decided since: each later round reads only the
    numbers within reach of those (:func:`_open_near`), so a deduction that walks along a
    chain a few cells a round costs the cells it walks, not the board each round.

    >>> from minesat.analysis.arrays import read_numbers
    >>> numbers = read_numbers(Position.from_rows(["???", "121"]))   # the 1-2-1: two mines
    >>> value = numbers.undecided()
    >>> propagate(numbers, value), value[:3].tolist()
    (True, [1, 0, 1])
    """
    import numpy as np

    from minesat.analysis.arrays import Broken, open_numbers, settle, watching

    cols = numbers.cols
    focus: np.ndarray | None = None  # rows of the numbers around cells decided since the last pairs
    active = None
    while True:
        try:
            decided = settle(numbers, value, active)
        except Broken as err:
            where = divmod(err.source, cols)
            raise InconsistentPositionError(where, "this number cannot be satisfied") from None
        near: np.ndarray | None = None
        if focus is None:
            still = open_numbers(numbers, value)
        else:
            if decided.size:
                focus = np.union1d(focus, watching(numbers, decided))
            still = _open_near(numbers, value, focus)
            near = np.zeros(numbers.size + 1, dtype=bool)
            near[numbers.source[focus]] = True
        found = pair_rule(still, value, cols, near)
        if not found.size:
            return True
        focus = active = watching(numbers, found)


def _open_near(numbers: Numbers, value: np.ndarray, focus: np.ndarray) -> Open:
    """The open numbers (as :func:`~minesat.analysis.arrays.open_numbers`) among those ``focus``
    and the numbers that may share a cell with one of them (two rows and columns apart)."""
    import numpy as np

    from minesat.analysis.arrays import Open

    rows, cols, size = numbers.rows, numbers.cols, numbers.size
    r, c = np.divmod(numbers.source[focus], cols)
    found = []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            rr, cc = r + dr, c + dc
            inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
            found.append(numbers.number_at[np.where(inside, rr * cols + cc, size)])
    near = np.unique(np.concatenate(found))
    near = near[near >= 0]
    seen = value[numbers.members[near]]
    members = np.where(seen < 0, numbers.members[near], -1)
    still = numbers.need[near] - (seen == 1).sum(axis=1)
    live = (members >= 0).any(axis=1)
    return Open(members[live], still[live], numbers.source[near][live])


def pair_rule(still: Open, value: np.ndarray, cols: int, near: np.ndarray | None = None) -> np.ndarray:
    """The two-number rule over the numbers left open (``still``), writing ``value``; the cells
    it decided. ``near`` (per cell, where a number stands): look only at pairs with a number
    where it is true.

    Numbers A and B share ``s`` undecided cells, and see ``a`` and ``b`` others alone. The
    shared cells hold between ``max(0, nA - a, nB - b)`` and ``min(s, nA, nB)`` mines; so
    A's own cells hold ``nA`` less that: when that is always 0 they are safe, when it is
    always ``a`` they are mines (and so for B's, and for the shared cells at either end).
    A pair whose bounds cross has no layout: :class:`InconsistentPositionError` names A.
    """
    import numpy as np

    pairs = _close_pairs(still.source, cols, len(value) - 1, near)
    decided = []
    for chunk in range(0, len(pairs), PAIR_CHUNK):
        checkpoint()
        f, g, offset = pairs[chunk : chunk + PAIR_CHUNK].T
        ma, mb = still.members[f], still.members[g]
        ua, ub = ma >= 0, mb >= 0
        na, nb = still.still[f], still.still[g]
        # A cell both see sits in slots the offset between them fixes (members are in AROUND's order).
        shared_a, shared_b = _shared_slots()
        a_shared, b_shared = ua & shared_a[offset], ub & shared_b[offset]
        s = a_shared.sum(axis=1)
        a = ua.sum(axis=1) - s
        b = ub.sum(axis=1) - s
        lo = np.maximum.reduce([np.zeros_like(s), na - a, nb - b])
        hi = np.minimum.reduce([s, na, nb])
        live = s > 0
        crossed = live & (lo > hi)
        if crossed.any():
            where = divmod(int(still.source[f[np.argmax(crossed)]]), cols)
            raise InconsistentPositionError(where, "this number cannot be satisfied")
        to_clear, to_fill = [], []
        for only, cells, n_, own in ((ua & ~a_shared, ma, na, a), (ub & ~b_shared, mb, nb, b)):
            to_clear.append(cells[(live & (own > 0) & (n_ == lo))[:, None] & only])
            to_fill.append(cells[(live & (own > 0) & (n_ - hi == own))[:, None] & only])
        to_clear.append(ma[(live & (hi == 0))[:, None] & a_shared])
        to_fill.append(ma[(live & (lo == s))[:, None] & a_shared])
        clear, fill = np.concatenate(to_clear), np.concatenate(to_fill)
        # Each deduction holds whatever was decided since ``still`` was read: set them now,
        # so that a budget stop keeps them.
        if (value[clear] == 1).any() or (value[fill] == 0).any() or np.intersect1d(clear, fill).size:
            where = divmod(int(still.source[f[0]]), cols)
            raise InconsistentPositionError(where, "these numbers cannot be satisfied")
        fresh = np.concatenate((clear[value[clear] < 0], fill[value[fill] < 0]))
        value[clear] = 0
        value[fill] = 1
        decided.append(fresh)
    return np.unique(np.concatenate(decided)) if decided else np.zeros(0, dtype=np.int64)


#: The offsets from a number to the numbers after it (row-major) that may share a cell with it.
PAIR_OFFSETS = tuple((dr, dc) for dr in range(3) for dc in range(-2, 3) if dr or dc > 0)


@lru_cache(maxsize=1)
def _shared_slots() -> tuple[np.ndarray, np.ndarray]:
    """Per offset of :data:`PAIR_OFFSETS`: which of the first number's eight slots
    (:data:`~minesat.analysis.arrays.AROUND`) hold a cell the second number sees too, and
    which of the second's hold one the first sees."""
    import numpy as np

    from minesat.analysis.arrays import AROUND

    a = np.zeros((len(PAIR_OFFSETS), 8), dtype=bool)
    b = np.zeros((len(PAIR_OFFSETS), 8), dtype=bool)
    for o, (dr, dc) in enumerate(PAIR_OFFSETS):
        for k, (ar, ac) in enumerate(AROUND):
            if (ar - dr, ac - dc) in AROUND:
                a[o, k] = True
                b[o, AROUND.index((ar - dr, ac - dc))] = True
    return a, b


def _close_pairs(source: np.ndarray, cols: int, size: int, near: np.ndarray | None) -> np.ndarray:
    """Pairs of numbers (rows of ``source``, ascending) that may share a cell, each pair once,
    as ``(first, second, offset)`` rows (the offset's index in :data:`PAIR_OFFSETS`); with
    ``near``, only pairs with a number where it is true. A partner is found by a binary search
    in ``source``: no array as long as the board, which a late round of propagation, looking
    at a few numbers, must not pay for."""
    import numpy as np

    if not len(source):
        return np.zeros((0, 3), dtype=np.int64)
    r, c = np.divmod(source, cols)
    rows = size // cols
    last = len(source) - 1
    found = []
    for o, (dr, dc) in enumerate(PAIR_OFFSETS):
        rr, cc = r + dr, c + dc
        inside = (rr < rows) & (cc >= 0) & (cc < cols)
        target = rr * cols + cc
        other = np.minimum(np.searchsorted(source, target), last)
        keep = inside & (source[other] == target)
        if near is not None:
            keep &= near[source] | near[np.where(keep, target, size)]
        first = np.flatnonzero(keep)
        found.append(np.stack((first, other[keep], np.full(len(first), o)), axis=1))
    return np.concatenate(found)
