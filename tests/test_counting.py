"""The component count (issue 50): exact on every shape, linear on long thin parts, watched inside.

The count is checked against the brute force of tests/bruteforce.py (written from the rules
alone) on the shapes where its two roads differ most: rows (1xN), rings (a cycle of numbers),
strips two and three cells high along numbers, chains (a covered row between two rows of
numbers) and squares; both by its default road (the search, then the dynamic programme) and
by the programme alone. Its work is counted in its own steps (search nodes, programme
transitions, the width of the packed counts), never timed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import minesat.budget as budget_module
from bruteforce import Constraint as BruteConstraint
from bruteforce import Problem, enumerate_frontier
from minesat.analysis import counting
from minesat.analysis.constraints import Component, Frontier
from minesat.analysis.counting import ComponentCount, Padded, count_component
from minesat.board import COVERED, Cell, Layout, Position
from minesat.budget import Budget, OutOfTime, watching
from test_analysis import examples


def position_of(rows: int, cols: int, mines: set[Cell], covered: Callable[[int, int], bool]) -> Position:
    """Mines, and the cells ``covered`` says stay covered; every other cell shows its number."""
    counts = Layout(rows, cols, frozenset(mines)).counts
    cells = [
        COVERED if (r, c) in mines or covered(r, c) else counts[r * cols + c]
        for r in range(rows)
        for c in range(cols)
    ]
    return Position(rows, cols, tuple(cells), len(mines))


def shaped(kind: str, seed: int) -> Position:
    """A position of one of the shapes, its mines and what stays covered drawn from ``seed``."""
    rng = random.Random(seed)
    if kind == "row":  # 1xN, half the safe cells shown
        n = rng.randint(5, 24)
        mines = {(0, c) for c in range(n) if rng.random() < 0.25}
        hidden = {(0, c) for c in range(n) if rng.random() < 0.5}
        return position_of(1, n, mines, lambda r, c: (r, c) in hidden)
    if kind == "ring":  # a square ring of covered cells, numbers inside and outside it
        n = rng.randint(5, 8)
        inside = range(1, n - 1)
        ring = {(r, c) for r in inside for c in inside if r in (1, n - 2) or c in (1, n - 2)}
        mines = {cell for cell in ring if rng.random() < 0.35}
        return position_of(n, n, mines, lambda r, c: (r, c) in ring)
    if kind == "strip":  # two or three covered rows along a row of numbers above and below
        height, n = rng.randint(2, 3), rng.randint(4, 9)
        strip = {(r, c) for r in range(1, 1 + height) for c in range(n)}
        mines = {cell for cell in strip if rng.random() < 0.3}
        return position_of(height + 2, n, mines, lambda r, c: (r, c) in strip)
    if kind == "chain":  # a covered row between two rows of numbers, mines at random
        n = rng.randint(6, 22)
        mines = {(1, c) for c in range(n) if rng.random() < 0.3}
        return position_of(3, n, mines, lambda r, c: r == 1)
    n = rng.randint(4, 6)  # a square, some of its safe cells shown
    mines = {(r, c) for r in range(n) for c in range(n) if rng.random() < 0.2}
    hidden = {(r, c) for r in range(n) for c in range(n) if rng.random() < 0.45}
    return position_of(n, n, mines, lambda r, c: (r, c) in hidden)


def brute_count(component: Component) -> tuple[dict[int, int], dict[int, dict[Cell, int]]]:
    """The component's layouts by mine count, and per cell how many mine it, one cell at a time."""
    constraints = tuple(BruteConstraint(c.source, c.cells, c.count) for c in component.constraints)
    found = enumerate_frontier(Problem(0, constraints, component.cells, (), False))
    return found.solutions, found.mined


def agrees(count: ComponentCount | None, component: Component) -> None:
    assert count is not None
    solutions, mined = brute_count(component)
    degree = len(component.cells) + 1
    assert len(count.ways) == degree
    assert list(count.ways) == [solutions.get(k, 0) for k in range(degree)]
    for cell in component.cells:
        row = count.mine_ways[cell]
        assert len(row) == degree
        assert list(row) == [mined.get(k, {}).get(cell, 0) for k in range(degree)], cell
        assert all(isinstance(x, int) for x in row)  # exact integers, never floats


SHAPES = ("row", "ring", "strip", "chain", "square")


@examples(60)
@given(st.sampled_from(SHAPES), st.integers(0, 10**6))
def test_the_count_is_the_brute_force_on_every_shape(kind: str, seed: int) -> None:
    for component in Frontier.of(shaped(kind, seed)).components():
        agrees(count_component(component), component)  # the search first, as the analysis counts
        agrees(count_component(component, search_nodes=0), component)  # the dynamic programme alone


#: The most nodes a walk to the end takes in the test below: enough for all but about one
#: "wide" field in 2 000, few enough layouts to hold.
WHOLE_WALK = 10**6


@examples(40)
@given(st.sampled_from((*SHAPES, "wide")), st.integers(0, 10**6))
def test_both_walks_find_the_same_layouts_at_every_node_limit(kind: str, seed: int) -> None:
    # The depth-first walk and the layered one (which takes parts of many boxes): the same
    # layouts in the same order, and past the same node limits, so a part is searched or left to
    # the programme alike whichever walk counts it. "wide": an expert-like field, parts of
    # dozens of boxes.
    if kind == "wide":
        rng = random.Random(seed)
        mines = {(r, c) for r in range(8) for c in range(16) if rng.random() < 0.2}
        hidden = {(r, c) for r in range(8) for c in range(16) if rng.random() < 0.5}
        position = position_of(8, 16, mines, lambda r, c: (r, c) in hidden)
    else:
        position = shaped(kind, seed)
    for component in Frontier.of(position).components():
        cells, cons, counts = counting._boxes(component)
        order = counting._nearby_order(cons, len(counts))
        sizes, along = [len(cells[b]) for b in order], [cons[b] for b in order]
        # Past a million nodes both give up alike (about one "wide" field in 2 000: walked to
        # the end, its layouts took the worker's memory); below, the same layouts, sorted.
        everything = counting._walk(sizes, along, counts, WHOLE_WALK)
        assert everything == counting._merged(sizes, along, counts, WHOLE_WALK)
        assert everything is None or everything[2] == sorted(everything[2])
        for limit in range(0, 4 * len(order) + 40, 7):
            walked = counting._walk(sizes, along, counts, limit)
            assert walked == counting._merged(sizes, along, counts, limit)


def test_duplicate_and_conflicting_numbers_count_as_the_rules_say() -> None:
    # A covered row between two rows of numbers: each number below repeats the one above it,
    # counted once; a number that disagrees with its twin leaves no layout.
    [component] = Frontier.of(position_of(3, 8, {(1, 0), (1, 3), (1, 6)}, lambda r, c: r == 1)).components()
    agrees(count_component(component, search_nodes=0), component)
    first = component.constraints[0]
    twin = type(first)(first.cells, first.count + 1, (9, 9))
    broken = Component(component.cells, (*component.constraints, twin))
    for nodes in (0, counting.SEARCH_NODES):
        count = count_component(broken, search_nodes=nodes)
        assert count is not None and not any(count.ways)


def chain(length: int) -> Component:
    """A chain of 1s (issue 50): a covered row between two rows of 1s, mines every third cell
    from the first, so two layouts (from the first cell or the second) when ``length`` is 2 mod 3."""
    [component] = Frontier.of(position_of(3, length, {(1, c) for c in range(0, length, 3)},
                                          lambda r, c: r == 1)).components()
    return component


def programme_work(component: Component) -> tuple[int, int, int]:
    """The dynamic programme's work on ``component``: transitions, the most states of a layer, and
    the widest packed count (bits) it holds."""
    cells, cons, counts = counting._boxes(component)
    order = counting._order(cons, len(counts), 10**9)
    assert order is not None
    sizes = [len(cells[b]) for b in order]
    plans, width = counting._plans(sizes, [cons[b] for b in order], counts)
    layers = counting._forward(plans, width, 10**9, 64)
    assert layers is not None
    transitions = sum(len(src) for src, _, _ in layers.moves)
    widest = max(p.bit_length() for _, polys in layers.forward for p in polys)
    return transitions, max(layers.widths), widest


def test_a_chain_is_counted_in_steps_linear_in_its_length() -> None:
    # 998 cells against 248: at most 4.5 times the steps on either road (issue 50), states that
    # stay as few, and packed counts that stay as narrow (a chain's counts are 1 and 2, and the
    # layers are shifted down by their fewest mines: not 999 coefficients of 999 bits).
    short, long = chain(248), chain(998)
    (t_short, w_short, bits_short), (t_long, w_long, bits_long) = programme_work(short), programme_work(long)
    assert t_long <= 4.5 * t_short
    assert w_long == w_short <= 4
    assert bits_long <= bits_short + 64 and bits_short <= 17 * 64  # shifted down every 16 layers
    # The search walks each of the two layouts once: a node per box, each layout.
    for component in (short, long):
        cells, cons, counts = counting._boxes(component)
        order = counting._nearby_order(cons, len(counts))
        sizes = [len(cells[b]) for b in order]
        found = counting._search(sizes, [cons[b] for b in order], counts, 2 * len(order) + 1)
        assert found is not None and sum(found[1]) == 2
    # And what it counts: two layouts of 333 mines; every cell at 2 mod 3 safe, the others even.
    for nodes in (0, counting.SEARCH_NODES):
        count = count_component(long, search_nodes=nodes)
        assert count is not None and count.ways[333] == 2 and sum(count.ways) == 2
        assert {count.mine_ways[(1, c)][333] for c in range(2, 998, 3)} == {0}
        assert {count.mine_ways[(1, c)][333] for c in range(998) if c % 3 != 2} == {1}


def test_long_counts_are_held_only_where_they_can_be_nonzero() -> None:
    count = count_component(chain(998), search_nodes=0)
    assert count is not None
    rows = {id(row): row for row in count.mine_ways.values()}
    assert len(rows) == 2  # the safe cells share one table, the others another
    for row in rows.values():
        assert isinstance(row, Padded) and len(row.inside) == 1 and len(row) == 999


def test_the_count_checks_the_budgets_inside_its_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fake clock a second a reading and a limit of 5 s: one count of one long chain (4 000
    # boxes: past the search, to the programme) reads it often enough to stop inside (its
    # boxes, its order, its layers and passes), not only between parts. (The search reads it
    # every 1 024 nodes, and stops at 2 000 anyway.)
    from fakeclock import FakeClock

    clock = FakeClock(step=1.0).install(monkeypatch, budget_module)
    with watching(Budget(time_limit=5.0).clock()), pytest.raises(OutOfTime):
        count_component(chain(3998))
    assert clock.readings <= 7  # stopped at the first reading past the limit


@given(st.integers(0, 8), st.lists(st.integers(0, 9), max_size=6), st.integers(0, 6))
def test_padded_reads_as_its_tuple(low: int, inside: list[int], extra: int) -> None:
    length = low + len(inside) + extra
    row = Padded(low, tuple(inside), length)
    whole = (0,) * low + tuple(inside) + (0,) * extra
    assert tuple(row) == whole and len(row) == length and row == whole and whole == row
    for start in range(-2, length + 2):
        for stop in range(start - 1, length + 3):
            assert row[start:stop] == whole[start:stop]
    for k in range(-length, length):
        assert row[k] == whole[k]
    assert hash(row) == hash(whole) and row == Padded(0, whole, length)
