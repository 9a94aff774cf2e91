"""Seeded layouts and the first-click rules (minesat.generate)."""

from __future__ import annotations

import pytest

from minesat.generate import BoardSpec, FirstClick, game_seed, generate_layout, opening_area


@pytest.mark.parametrize("start", [(3, 3), (0, 0), (8, 8), (0, 4)])
def test_opening_rule_never_puts_a_mine_near_the_first_click(start: tuple[int, int]) -> None:
    area = set(opening_area(start, 9, 9))
    for seed in range(300):
        layout = generate_layout(9, 9, 10, start=start, rule=FirstClick.OPENING, seed=seed)
        assert layout.mine_count == 10
        assert not area & layout.mines


def test_opening_rule_works_when_the_board_is_nearly_full() -> None:
    for seed in range(50):
        layout = generate_layout(9, 9, 72, start=(4, 4), rule="opening", seed=seed)
        assert layout.mines == {(r, c) for r in range(9) for c in range(9)} - set(opening_area((4, 4), 9, 9))


def test_safe_rule_keeps_only_the_first_cell_clear() -> None:
    start = (4, 4)
    near = 0
    for seed in range(300):
        layout = generate_layout(9, 9, 10, start=start, rule=FirstClick.SAFE, seed=seed)
        assert start not in layout.mines
        near += len(set(opening_area(start, 9, 9)) & layout.mines)
    # Each of the 8 neighbours holds a mine with probability 10/80: expect ~300 in total.
    assert 200 < near < 400


def test_any_rule_sometimes_mines_the_first_cell() -> None:
    hits = sum((0, 0) in generate_layout(3, 3, 4, start=(0, 0), rule="any", seed=s).mines for s in range(200))
    assert 50 < hits < 130  # 4/9 of 200 is about 89


def test_mines_are_spread_uniformly() -> None:
    counts = [0] * 81
    for seed in range(400):
        for r, c in generate_layout(9, 9, 10, start=(4, 4), rule="opening", seed=seed).mines:
            counts[r * 9 + c] += 1
    allowed = [n for i, n in enumerate(counts) if divmod(i, 9) not in opening_area((4, 4), 9, 9)]
    assert len(allowed) == 72
    # 4000 mines over 72 cells: about 55.6 each; a cell far off would mean a biased draw.
    assert min(allowed) > 25 and max(allowed) < 90


def test_same_seed_same_layout_different_seed_different_layout() -> None:
    a = generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=42)
    assert a == generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=42)
    assert a != generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=43)


def test_game_seeds_are_a_pure_function_of_the_run() -> None:
    spec = BoardSpec(16, 30, 99, rule="opening", start=(3, 3))
    seeds = [spec.game_seed(7, i) for i in range(100)]
    assert seeds == [game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=7, index=i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert all(0 <= s < 2**63 for s in seeds)
    assert game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=8, index=0) not in seeds


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "rule"),
    [
        (9, 9, 82, "any"),
        (9, 9, 81, "safe"),
        (9, 9, 73, "opening"),
        (9, 9, -1, "any"),
        (0, 9, 0, "any"),
        (1001, 2, 1, "any"),
    ],
)
def test_impossible_mine_counts_are_clear_errors(rows: int, cols: int, mines: int, rule: str) -> None:
    with pytest.raises(ValueError):
        generate_layout(rows, cols, mines, start=(4, 4), rule=rule, seed=1)


def test_mines_that_do_not_fit_around_the_start_name_it_as_a_cell() -> None:
    with pytest.raises(ValueError, match=r"^15 mines do not fit on a 4x4 board with the opening rule at A1 "):
        generate_layout(4, 4, 15, start=(0, 0), rule="opening", seed=1)
    with pytest.raises(ValueError, match=r"with the safe rule at C2 \(at most 15\)$"):
        generate_layout(4, 4, 16, start=(2, 1), rule="safe", seed=1)
