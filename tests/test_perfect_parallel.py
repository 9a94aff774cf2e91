"""Perfect play on several processes: the same exact answer as in one, and a clear message past the budget."""

from __future__ import annotations

import pytest

import minesat.perfect as perfect
from minesat.perfect import PastBudget, perfect_play


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "rule", "start"),
    [
        (4, 4, 4, "safe", None),
        (4, 5, 4, "opening", None),
        (3, 5, 4, "any", (0, 0)),
        (4, 4, 5, "safe", (0, 1)),
    ],
)
def test_two_workers_give_what_one_gives(
    monkeypatch: pytest.MonkeyPatch,
    rows: int,
    cols: int,
    mines: int,
    rule: str,
    start: tuple[int, int] | None,
) -> None:
    monkeypatch.setattr(perfect, "PARALLEL_FROM", 0)  # small boards too go to the workers
    alone = perfect_play(rows, cols, mines, rule, start, max_states=None)
    seen: list[tuple[int, int, int]] = []
    shared = perfect_play(rows, cols, mines, rule, start, max_states=None, workers=2,
                          progress=lambda *a: seen.append(a))
    assert (shared.start, shared.wins, shared.layouts) == (alone.start, alone.wins, alone.layouts)
    assert shared.starts == alone.starts
    assert shared.states > 0
    assert seen and seen[-1][1] == seen[-1][2]  # every layout settled at the end


def test_past_the_budget_names_the_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perfect, "PARALLEL_FROM", 0)
    with pytest.raises(PastBudget, match=r"past --max-states 5 on the layouts where A1 shows \d"):
        perfect_play(4, 5, 5, "safe", (0, 0), max_states=5, workers=2)
