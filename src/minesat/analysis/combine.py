"""Combining independent parts with the interior under the total: the arithmetic of probabilities.

A position, once its numbers are split into independent parts (components,
or what is left of them once the local rules decide some cells), is counted
part by part: ``ways[k]`` layouts of a part hold ``k`` mines, and
``mine_ways[cell][k]`` of them mine ``cell``
(:class:`~minesat.analysis.counting.ComponentCount`). The total couples the
parts: a choice of layouts holding ``K`` mines in all extends in
``C(interior, remaining - K)`` ways to the interior. This module weighs every
part against all the others and the interior, two ways:

- :func:`exact_weights`, exact integers, for as long as the integers stay
  affordable (:data:`WORK_BUDGET`): numerators and a denominator whose
  quotient is the probability correctly rounded, and the exact layout count;
- :func:`~minesat.analysis.close.close_weights`, past that: every probability within 1e-10
  of its rational value, from numbers only as wide as the answer needs (the close road,
  :mod:`minesat.analysis.close`).

Which cells are certain is a question of which mine counts are feasible, not
of how many layouts have them: :func:`certain_by_feasibility` answers it
exactly with sets of integers, whatever road weighs the probabilities.

>>> from minesat.analysis.counting import ComponentCount
>>> part = ComponentCount((0, 2, 0), {(0, 0): (0, 1, 0), (0, 1): (0, 1, 0)})  # one mine in two cells
>>> exact_weights([part], [Cells(((0, 0), (0, 1)))], interior=2, remaining=2)
({(0, 0): 4, (0, 1): 4}, 4, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Protocol

from minesat.analysis.counting import ComponentCount
from minesat.board import Cell
from minesat.budget import checkpoint
from minesat.errors import OverBudget

if TYPE_CHECKING:
    from minesat.analysis.constraints import Component

__all__ = [
    "LINEAR_WORK_FLOOR",
    "LINEAR_WORK_PER_CELL",
    "WORK_BUDGET",
    "Cells",
    "HasCells",
    "NoLayout",
    "Split",
    "TooMuchWork",
    "Weighed",
    "binomial_row",
    "certain_by_feasibility",
    "completions",
    "correlated",
    "cut_tables",
    "exact_weights",
    "read_weights",
    "times",
    "total_adds_nothing",
    "trimmed",
]

#: Most work the exact combination of parts may take, in units of one
#: product of two 2000-bit integers (a product of longer integers counts as
#: several). Past it the close road weighs the probabilities
#: (:func:`~minesat.analysis.close.close_weights`);
#: the certainties stay exact (:func:`certain_by_feasibility`).
WORK_BUDGET = 4_000_000

#: Work per cell weighed (the parts' and the interior's) the exact integers may take where the
#: time must grow with the board, no faster (``minesat analyze``: ``Analyzer(exact_work_per_cell=...)``).
#: Their work grows with the parts times the spread of mine counts, faster than the board
#: (measured: 0.04 s on a 100x100 position reached in a game, 1.6-2 s on 200x200, 27 s on
#: 300x300), while the close road's grows with the cells (0.01, 0.03 and 0.05 s on the same
#: positions): past a few units a cell (a unit is about a microsecond) the close road is the cheaper.
LINEAR_WORK_PER_CELL = 4

#: The work the exact integers may always take under ``exact_work_per_cell`` (a fifth of a
#: second or so): boards up to a few hundred cells a side keep them, and so give the very
#: probabilities the player reads; only the largest take the close road.
LINEAR_WORK_FLOOR = 200_000


@dataclass(frozen=True)
class Split:
    """Components once the local rules have run: the cells they decide, the parts they leave
    open, and each part's count (``None`` past the state budget)."""

    safe: tuple[Cell, ...]
    mine: tuple[Cell, ...]
    parts: tuple[Component, ...]
    counts: tuple[ComponentCount | None, ...]


@dataclass(frozen=True)
class Weighed:
    """The parts of a :class:`Split` weighed with the interior under the total
    (:meth:`~minesat.analysis.engine.Analyzer.weigh`).

    ``safe`` and ``mine``: the parts' cells found certain; ``probability``: each part cell's
    (0 and 1 for the certain ones); ``interior``: each interior cell's (``None`` without an
    interior); ``fate``: every interior cell safe (False), mined (True) or neither (None).
    """

    safe: set[Cell]
    mine: set[Cell]
    probability: dict[Cell, float | None]
    interior: float | None
    fate: bool | None
    exact: bool
    layouts: int | None = None
    why: str | None = None
    consistent: bool | None = True


class NoLayout(Exception):
    """No layout of the parts leaves the interior a number of mines it can hold."""


@dataclass(frozen=True)
class Cells:
    """Any group of cells no undecided number links to another: what the combination reads of a part."""

    cells: tuple[Cell, ...]


class HasCells(Protocol):
    """What the combination of counts reads of a component: its cells (a part has them too)."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...


class TooMuchWork(OverBudget):
    """Combining the components exactly would pass :data:`WORK_BUDGET`: ``spent`` the work it
    would take, ``limit`` the budget."""


def binomial_row(n: int, low: int, high: int) -> list[int]:
    """``C(n, r)`` for ``r`` in ``low..high`` (0 outside ``0..n``): one binomial, then ratios.

    ``C(n, r + 1) = C(n, r) * (n - r) / (r + 1)`` exactly, so a big interior
    costs one large binomial, not one per possible number of frontier mines.

    >>> binomial_row(5, -1, 6) == [0] + [comb(5, r) for r in range(6)] + [0]
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


def trimmed(counts: Sequence[ComponentCount | None]) -> list[tuple[int, tuple[int, ...]]] | None:
    """Each part's ways cut to the mine counts it can have, as ``(fewest, ways)``; ``None`` when
    a part has no layout at all.

    >>> from minesat.analysis.counting import ComponentCount
    >>> trimmed([ComponentCount((0, 3, 1), {})]), trimmed([ComponentCount((0, 0), {})])
    ([(1, (3, 1))], None)
    """
    tables: list[tuple[int, tuple[int, ...]]] = []
    for count in counts:
        assert count is not None
        ways = count.ways
        support = [k for k, w in enumerate(ways) if w]
        if not support:
            return None
        tables.append((support[0], ways[support[0] : support[-1] + 1]))
    return tables


def times(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials given by their coefficients (exact integers).

    >>> times([1, 2], [1, 1])
    [1, 3, 2]
    """
    if not a or not b:
        return []
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if not i & 255:
            checkpoint()
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def cut_tables(
    counts: Sequence[ComponentCount | None],
    components: Sequence[HasCells],
    interior: int,
    remaining: int,
    budget: int,
) -> tuple[list[tuple[int, tuple[int, ...]]], int, list[int]] | None:
    """Each component's ways cut to the mine counts it can have, as ``(fewest, ways)``;
    the fewest frontier mines in all; and ``inside[u]``, the placements of the
    interior's mines when the frontier holds ``fewest + u``.

    ``None`` when a component has no layout at all; :class:`TooMuchWork`
    when combining them would pass ``budget``.
    """
    tables = trimmed(counts)
    if tables is None:
        return None
    low = sum(lo for lo, _ in tables)
    width = 1 + sum(len(t) - 1 for _, t in tables)
    # Work: one product per pair of coefficients met, longer integers costing more.
    size = 1 + (sum(len(comp.cells) for comp in components) + interior) // 2000
    work, spread = 0, 1
    for _, t in tables:
        work += size * spread * len(t)
        spread += len(t) - 1
    if work > budget:
        raise TooMuchWork("combining the components exactly would take too much work", work, budget)
    inside = binomial_row(interior, remaining - (low + width - 1), remaining - low)[::-1]
    return tables, low, inside


def completions(tables: Sequence[tuple[int, Sequence[int]]], inside: Sequence[int]) -> list[list[int]]:
    """``after[i][u]``: the ways to fill parts ``i..`` and the interior once ``u`` mines more than
    the fewest were placed before them (``tables`` and ``inside`` as :func:`cut_tables` makes them).

    ``after[0][0]`` counts every layout. Each step back is one correlation of a part's ways with
    the step after it, so the work is the parts times the spread of mine counts.

    >>> completions([(0, (1, 2))], [1, 2])  # a part of 0 or 1 mines (2 ways), an interior of 2 cells
    [[5], [1, 2]]
    """
    n = len(tables)
    after: list[list[int]] = [[]] * (n + 1)
    after[n] = list(inside)
    for i in range(n - 1, -1, -1):
        after[i] = correlated(after[i + 1], tables[i][1])
    return after


def read_weights(
    weights: tuple[dict[Cell, int], int, int],
    interior: int,
    safe: set[Cell],
    mine: set[Cell],
    probability: dict[Cell, float | None],
) -> tuple[float | None, bool | None, int]:
    """Read :func:`exact_weights`' weights into ``probability``, ``safe`` and ``mine``.

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


def exact_weights(
    counts: Sequence[ComponentCount | None],
    components: Sequence[HasCells],
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
    :class:`TooMuchWork` past ``budget``.

    Each component's table is cut to the mine counts it can have. Going
    forward, ``before[i]`` counts the ways to fill components ``0..i-1`` by
    mines; going back, ``after[i][x]`` sums, over fillings of components
    ``i..`` and of the interior, the ways that complete ``x`` mines before
    them. A component's weights are then one correlation of the two, so the
    cost grows with the number of components times the spread of mine counts,
    never its square.
    """
    cut = cut_tables(counts, components, interior, remaining, budget)
    if cut is None:
        return None
    tables, low, inside = cut
    after = completions(tables, inside)
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
        weight = correlated(nxt, before, len(t))
        done: dict[int, int] = {}  # cells of one box share their table: one sum per box
        for k, cell in enumerate(comp.cells):
            if not k & 4095:
                checkpoint()  # a hostile part has a hundred thousand cells
            mined = count.mine_ways[cell]
            key = id(mined)
            if key not in done:
                done[key] = scale * sum(m * w for m, w in zip(mined[lo : lo + len(t)], weight, strict=True))
            numerators[cell] = done[key]
        before = times(before, t)
    # Interior cells share the mines the frontier leaves: in a layout whose
    # frontier holds K, each interior cell is mined in (remaining - K) / interior
    # of the placements. Scaling every weight by ``interior`` keeps this integer.
    interior_mined = sum(w * inside[u] * (remaining - low - u) for u, w in enumerate(before))
    return numerators, interior_mined, layouts * scale


def correlated(long: Sequence[int], short: Sequence[int], width: int | None = None) -> list[int]:
    """``out[u] = sum(short[j] * long[u + j])`` for ``u`` in ``0..width-1`` (default: every ``u``
    where ``short`` fits in ``long``), zeros of ``short`` skipped; the budgets watching are
    checked as it goes (each entry is a sum of products of integers as long as the layout counts).

    >>> correlated([1, 2, 3, 4], [1, 1]), correlated([1, 2, 3, 4], [0, 1], 2)
    ([3, 5, 7], [2, 3])
    """
    width = len(long) - len(short) + 1 if width is None else width
    terms = [(j, w) for j, w in enumerate(short) if w]
    out = []
    for u in range(width):
        if not u % 256:
            checkpoint()
        out.append(sum(w * long[u + j] for j, w in terms))
    return out


def certain_by_feasibility(
    counts: Sequence[ComponentCount | None],
    components: Sequence[HasCells],
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
        checkpoint()  # a sum of sets is as long as the mine counts: thousands of parts take a while
        after[g] = _sumset(after[g + 1], supports[gapped[g]])
    gap_all = after[0]
    gap_but: dict[int, int] = {}
    before = 1
    for g, i in enumerate(gapped):
        checkpoint()
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
        for at, cell in enumerate(comp.cells):
            if not at & 4095:
                checkpoint()
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




def total_adds_nothing(remaining: int, interior: int, low: int, high: int) -> bool:
    """True when the total decides nothing the parts do not decide on their own.

    Every combination of part counts (``low..high`` mines on the frontier)
    fits the interior, so the total rules none out; and it decides the interior
    only when the frontier's count is fixed and leaves it no mine or only mines.

    >>> total_adds_nothing(remaining=5, interior=10, low=1, high=3), total_adds_nothing(5, 2, 1, 3)
    (True, False)
    """
    fits = remaining - interior <= low and high <= remaining
    interior_open = not interior or low != high or 0 < remaining - low < interior
    return fits and interior_open
