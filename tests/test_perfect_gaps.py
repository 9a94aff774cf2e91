"""Where a strategy falls short of perfect play: each gap checked against the independent brute force."""

from __future__ import annotations

from itertools import product

import pytest

from minesat.board import COVERED, FLAG, Cell
from minesat.perfect import NO_LIMIT, PerfectPlay, strategy_wins
from minesat.perfect.gaps import Gap, strategy_gaps
from perfect_bruteforce import BruteForce


def _brute_values(brute: BruteForce, gap: Gap) -> dict[Cell, int]:
    """Every covered cell's value from the gap's position (that move, then perfect play), by brute force."""
    position = gap.position
    shown = {cell: position[cell] for cell in brute.cells if position[cell] >= 0}
    flagged = {cell for cell in brute.cells if position[cell] == FLAG}
    ks = frozenset(
        k
        for k, mines in enumerate(brute.layouts)
        if flagged <= mines
        and all(cell not in mines and brute.counts[k][cell] == n for cell, n in shown.items())
    )
    seen = frozenset(shown.items())
    return {
        cell: sum(brute.value(frozenset(g), after) for after, g in brute.groups(ks, seen, cell).items())
        for cell in brute.cells
        if position[cell] == COVERED
    }


@pytest.mark.parametrize("rule", ["opening", "safe"])
def test_every_gap_of_safest_on_3x3_is_what_the_brute_force_finds(rule: str) -> None:
    found = 0
    for mines in range(1, 7):
        brute = BruteForce(3, 3, mines)
        for start in product(range(3), range(3)):
            try:
                report = strategy_gaps(3, 3, mines, rule=rule, start=start, strategy="safest")
            except ValueError:
                continue  # the mines do not fit around this start
            for gap in report.gaps:
                values = _brute_values(brute, gap)
                assert max(values.values()) == gap.perfect
                assert values[gap.move] == gap.chosen < gap.perfect
                assert set(gap.optimal) == {c for c, v in values.items() if v == gap.perfect}
                found += 1
    assert found  # safest does fall short on 3x3 under both rules: there is something to check


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "rule", "start", "strategy"),
    [
        (3, 4, 4, "safe", (1, 1), "safest"),
        (3, 4, 4, "opening", (2, 0), "safest"),
        (4, 4, 5, "safe", (0, 1), "best-no-endgame"),  # best itself plays 4x4 exactly: no gap
        (4, 4, 4, "safe", (0, 0), "safest"),
    ],
)
def test_the_gaps_add_up_to_the_whole_shortfall(
    rows: int, cols: int, mines: int, rule: str, start: Cell, strategy: str
) -> None:
    report = strategy_gaps(rows, cols, mines, rule=rule, start=start, strategy=strategy)
    assert report.wins == strategy_wins(rows, cols, mines, rule=rule, start=start, strategy=strategy).wins
    assert report.perfect == PerfectPlay(rows, cols, mines, budget=NO_LIMIT).start_value(start, rule).wins
    assert report.wins < report.perfect
    assert sum(g.lost for g in report.gaps) == report.perfect - report.wins
    assert all(g.lost > 0 and g.move not in g.optimal for g in report.gaps)
    assert [g.lost for g in report.gaps] == sorted((g.lost for g in report.gaps), reverse=True)


def test_no_gap_where_the_strategy_is_perfect() -> None:
    report = strategy_gaps(3, 4, 3, rule="safe", start=(0, 0), strategy="best")
    assert report.wins == report.perfect and report.gaps == ()
    assert report.guesses > 0  # it did guess: every guess was as good as the best


def test_any_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="those under 'safe'"):
        strategy_gaps(3, 3, 2, rule="any", start=(0, 0), strategy="best")
