"""The look-alike table against a plain pairwise check, and its two forms against each other."""

from __future__ import annotations

import random

import numpy as np
import pytest

from minesat.exact import alike
from minesat.exact.alike import Alike, NoTable, SparseAlike, alike_pairs, alike_table, tabulate
from minesat.exact.geometry import MINE, Board, layouts_matrix


def pairwise(matrix: np.ndarray, cells: list[int]) -> set[tuple[int, int]]:
    """Every pair of rows equal at each of ``cells`` where neither is a mine, by the definition."""
    rows = matrix[:, cells].tolist()
    return {
        (a, b)
        for a in range(len(rows))
        for b in range(a + 1, len(rows))
        if all(x == y or MINE in (x, y) for x, y in zip(rows[a], rows[b], strict=True))
    }


@pytest.mark.parametrize(("rows", "cols", "mines"), [(3, 3, 2), (3, 4, 4), (4, 4, 3), (2, 6, 4), (4, 5, 5)])
def test_pairs_are_the_alike_pairs(rows: int, cols: int, mines: int, monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board(rows, cols)
    matrix = layouts_matrix(board, range(1, board.cells), mines)[:600]
    cells = list(range(board.cells))
    expected = pairwise(matrix, cells)
    for leaf in (1, 4096):  # split down to single rows, and compared in blocks
        monkeypatch.setattr(alike, "_JOIN_LEAF", leaf)
        monkeypatch.setattr(alike, "_PACKED_LEAF", leaf)
        a, b = alike_pairs(matrix, cells)
        assert set(zip(a.tolist(), b.tolist(), strict=True)) == expected
        monkeypatch.setattr(alike, "_packed", lambda seen: None)  # cell by cell, as past eight numbers a cell
        a, b = alike_pairs(matrix, cells)
        assert set(zip(a.tolist(), b.tolist(), strict=True)) == expected
        monkeypatch.undo()


def test_a_short_list_compared_at_once_gives_the_walks_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A list of at most 64 layouts is compared whole (:func:`alike._pairs_at_once`): the same
    pairs in the same order as the walk, and the same refusal past ``max_pairs``."""
    rng = np.random.default_rng(51)
    for _ in range(200):
        size, width = int(rng.integers(1, 65)), int(rng.integers(1, 30))
        matrix = rng.integers(0, int(rng.integers(1, 10)), size=(size, width)).astype(np.uint8)
        matrix[rng.random((size, width)) < rng.random()] = MINE
        cells = sorted(rng.choice(width, size=int(rng.integers(1, width + 1)), replace=False).tolist())
        a, b = alike_pairs(matrix, cells)
        with monkeypatch.context() as walk:
            walk.setattr(alike, "_JOIN_LEAF", 0)  # no list short enough: the walk, as before
            walk.setattr(alike, "_PACKED_LEAF", int(rng.integers(1, 64)))
            old_a, old_b = alike_pairs(matrix, cells)
        assert a.tolist() == old_a.tolist() and b.tolist() == old_b.tolist()
        assert a.dtype == old_a.dtype == np.int64
        assert set(zip(a.tolist(), b.tolist(), strict=True)) == pairwise(matrix, cells)
        if len(a):
            with pytest.raises(alike.TooAlike):
                alike_pairs(matrix, cells, max_pairs=len(a) - 1)


@pytest.mark.parametrize("numbers", [2, 8, 9])  # eight numbers fill a packed byte; nine take the byte road
def test_pairs_on_some_cells_only(numbers: int) -> None:
    rng = np.random.default_rng(7)
    matrix = rng.integers(0, numbers, size=(300, 19)).astype(np.uint8)
    matrix[rng.random((300, 19)) < 0.5] = MINE
    cells = [1, 3, 4, 5, 6, 7, 8, 9, 10, 12, 18]  # past one word of eight cells
    assert (alike._packed(matrix[:, cells]) is None) == (numbers > 8)
    a, b = alike_pairs(matrix, cells)
    assert set(zip(a.tolist(), b.tolist(), strict=True)) == pairwise(matrix, cells)


def test_long_table_splits_into_groups_of_look_alikes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairs kept as arrays split the list as the bit sets do; a subset meets groups of look-alikes."""
    board = Board(4, 4)
    matrix = layouts_matrix(board, range(1, 16), 4)
    a, b = alike_pairs(matrix, range(16))
    alike_to = set(zip(a.tolist(), b.tolist(), strict=True))
    size = len(matrix)
    short = alike_table(size, a, b)
    monkeypatch.setattr(alike, "LOCAL_SIZE", 0)
    long = alike_table(size, a, b)
    assert isinstance(short, Alike) and isinstance(long, SparseAlike)
    everything = (1 << size) - 1
    assert long.cover(everything) == short.cover(everything) < size
    assert long.group is not None
    rnd = random.Random(3)
    for _ in range(40):
        subset = rnd.getrandbits(size)
        index = [k for k in range(size) if subset >> k & 1]
        groups: dict[int, list[int]] = {}
        for k in index:
            groups.setdefault(int(long.group[k]) if long.group[k] >= 0 else -1 - k, []).append(k)
        assert long.cover(subset) == len(groups)
        for members in groups.values():
            assert all((x, y) in alike_to for x in members for y in members if x < y)
        part = long.restrict(subset, np.array(index, dtype=np.int64))
        assert isinstance(part, SparseAlike)
        kept = {(index[x], index[y]) for x, y in zip(part.a.tolist(), part.b.tolist(), strict=True)}
        assert kept == {(x, y) for x, y in alike_to if subset >> x & 1 and subset >> y & 1}


def test_long_table_is_exact_on_two_layouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search takes the bound of two layouts as their value: one group exactly when they are alike."""
    board = Board(3, 4)
    matrix = layouts_matrix(board, range(1, 12), 4)
    a, b = alike_pairs(matrix, range(12))
    monkeypatch.setattr(alike, "LOCAL_SIZE", 0)
    long = alike_table(len(matrix), a, b)
    alike_to = set(zip(a.tolist(), b.tolist(), strict=True))
    assert alike_to
    for x in range(len(matrix)):
        for y in range(x + 1, len(matrix)):
            assert long.cover(1 << x | 1 << y) == (1 if (x, y) in alike_to else 2)


def test_a_list_past_the_pair_limit_keeps_no_table() -> None:
    board = Board(1, 12)
    matrix = layouts_matrix(board, range(1, 12), 8)  # dense: nearly every pair alike
    cells = list(range(12))
    pairs = len(alike_pairs(matrix, cells)[0])
    assert pairs > len(matrix)
    assert isinstance(tabulate(matrix, cells), Alike)  # within the limit at these sizes
    with pytest.raises(alike.TooAlike):
        alike_pairs(matrix, cells, max_pairs=pairs - 1)


@pytest.mark.parametrize(("rows", "cols", "mines"), [(1, 8, 5), (2, 4, 5), (3, 3, 6), (2, 5, 3), (3, 4, 8)])
def test_a_search_without_tables_has_the_brute_force_values(
    rows: int, cols: int, mines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the pair limit at nothing every list is a :class:`NoTable`: bounded by sizes alone (and
    the exact answer for two layouts), the search still finds every start's true value."""
    from minesat.perfect import NO_LIMIT, PerfectPlay
    from perfect_bruteforce import BruteForce

    monkeypatch.setattr(alike, "PAIRS_PER_LAYOUT", 0)
    monkeypatch.setattr(alike, "PAIRS_FLOOR", 0)
    made: list[object] = []
    real = alike.tabulate

    def spy(matrix: np.ndarray, cells: list[int]) -> object:
        made.append(table := real(matrix, cells))
        return table

    monkeypatch.setattr("minesat.exact.search.tabulate", spy)
    brute = BruteForce(rows, cols, mines)
    solver = PerfectPlay(rows, cols, mines, budget=NO_LIMIT)
    for r in range(rows):
        for c in range(cols):
            value = solver.start_value((r, c), "any")
            assert (value.wins, value.layouts) == brute.start((r, c), "any"), (r, c)
    assert any(isinstance(table, NoTable) for table in made)


def test_no_table_tells_two_layouts_apart_as_the_tables_do() -> None:
    board = Board(3, 3)
    matrix = layouts_matrix(board, range(9), 3)
    cells = list(range(9))
    exact = alike_table(len(matrix), *alike_pairs(matrix, cells))
    stand_in = NoTable(matrix)
    rnd = random.Random(5)
    for _ in range(300):
        x, y = rnd.sample(range(len(matrix)), 2)
        assert stand_in.cover(1 << x | 1 << y) == exact.cover(1 << x | 1 << y)
    assert stand_in.cover((1 << len(matrix)) - 1) == len(matrix)

