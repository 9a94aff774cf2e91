"""Perfect play on several processes: the same exact answer as in one, and a clear message past the budget."""

from __future__ import annotations

from dataclasses import replace

import pytest

import minesat.perfect.game as perfect_game
from minesat.executors import SchedulerError
from minesat.perfect import SEARCH_BUDGET, PastBudget, perfect_play

#: The default budget without its states: the runs here are short, and compared.
NO_STATES = replace(SEARCH_BUDGET, max_states=None)


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
    monkeypatch.setattr(perfect_game, "PARALLEL_FROM", 0)  # small boards too go to the workers
    alone = perfect_play(rows, cols, mines, rule=rule, start=start, budget=NO_STATES)
    seen: list[tuple[int, int, int]] = []
    shared = perfect_play(rows, cols, mines, rule=rule, start=start, budget=NO_STATES, workers=2,
                          progress=lambda *a: seen.append(a))
    assert (shared.start, shared.wins, shared.layouts) == (alone.start, alone.wins, alone.layouts)
    assert shared.starts == alone.starts
    assert shared.states > 0
    assert seen and seen[-1][1] == seen[-1][2]  # every layout settled at the end


def test_past_the_budget_names_the_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perfect_game, "PARALLEL_FROM", 0)
    with pytest.raises(PastBudget, match=r"past max_states=5 on the layouts where A1 shows \d"):
        perfect_play(4, 5, 5, rule="safe", start=(0, 0), budget=replace(SEARCH_BUDGET, max_states=5),
                     workers=2)


def test_a_dask_cluster_gives_what_one_process_gives() -> None:
    # The test extra installs dask: a missing install must fail here, not skip.
    import dask.distributed as distributed

    alone = perfect_play(4, 4, 4, rule="safe", start=None, budget=NO_STATES)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        shared = perfect_play(4, 4, 4, rule="safe", start=None, budget=NO_STATES,
                              scheduler=cluster.scheduler_address)
    assert (shared.start, shared.wins, shared.layouts, shared.starts) == (
        alone.start, alone.wins, alone.layouts, alone.starts
    )


def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    with pytest.raises(SchedulerError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:1"):
        perfect_play(3, 3, 1, rule="safe", start=None, budget=NO_STATES, scheduler="tcp://127.0.0.1:1")
