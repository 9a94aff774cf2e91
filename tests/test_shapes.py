"""Every board through every face (issue 33): a handful of shapes drawn by hypothesis, from 1x1 to
1000x1000 and thin ones, each face ending in an answer or a documented refusal under a memory cap.

The long sweep, hundreds of shapes each in a process of its own with its time and memory measured,
is ``benchmarks/shapes.py``; both run :func:`shapes.run_case`.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from shapes import FACES, SIDE, Shape, close_client, most_mines, refusal_reason, run_case

#: The suite's share: a few shapes per face (the long sweep lives in benchmarks/shapes.py).
EXAMPLES = int(os.environ.get("MINESAT_SHAPES", "4"))

#: Address space a case may add to what the process already holds.
CAP = 3 << 30


@pytest.fixture(autouse=True)
def memory_cap() -> Iterator[None]:
    """Each case runs under a cap on the process's address space: past it, an allocation fails
    (a MemoryError the case would report) instead of the machine running out."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        held = int(statm.read().split()[0]) * resource.getpagesize()
    cap = held + CAP if hard == resource.RLIM_INFINITY else min(hard, held + CAP)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture(scope="module", autouse=True)
def one_web_app() -> Iterator[None]:
    yield
    close_client()


@st.composite
def shapes(draw: st.DrawFn, most_cells: int = SIDE * SIDE) -> Shape:
    """Boards from 1x1 to 1000x1000, thin (1xN, 2xN, Nx1) as often as square; no mines, one, the most
    that fit, or a density in between."""
    kind = draw(st.sampled_from(["tiny", "thin", "square", "wide"]))
    if kind == "tiny":
        rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    elif kind == "thin":
        rows, cols = draw(st.integers(1, 2)), draw(st.integers(1, SIDE))
        if draw(st.booleans()):
            rows, cols = cols, rows
    elif kind == "square":
        rows = cols = draw(st.integers(1, 100))
    else:
        rows, cols = draw(st.integers(1, SIDE)), draw(st.integers(1, SIDE))
    while rows * cols > most_cells:
        rows, cols = max(1, rows // 2), max(1, cols // 2)
    cells = rows * cols
    mines = draw(st.one_of(st.sampled_from([0, min(1, cells), cells, max(0, cells - 1)]),
                           st.integers(0, cells)))
    return Shape(rows, cols, mines)


def check(face: str, shape: Shape, seed: int) -> None:
    for outcome in run_case(face, shape, seed):
        assert outcome.outcome == "answer" or refusal_reason(outcome.detail) == outcome.reason, outcome


SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@SETTINGS
@given(shape=shapes(), seed=st.integers(0, 2**32 - 1))
@example(shape=Shape(1, 1, 0), seed=0)
@example(shape=Shape(1, 1, 1), seed=0)
@example(shape=Shape(1000, 1000, 3), seed=1)
@example(shape=Shape(1, 1000, 999), seed=2)
def test_analyze_answers_soundly_on_every_shape(shape: Shape, seed: int) -> None:
    check("analyze", shape, seed)


@SETTINGS
@given(shape=shapes(most_cells=2_500), seed=st.integers(0, 2**32 - 1))
@example(shape=Shape(40, 40, 300), seed=0)
@example(shape=Shape(1, 1000, 1), seed=0)
@example(shape=Shape(2, 2, 4), seed=0)
@example(shape=Shape(1, 31, 22), seed=700061)  # the long sweep: 24 GB in the endgame's look-alikes
@pytest.mark.parametrize("face", [f for f in FACES if f.startswith(("simulate", "solve"))])
def test_one_game_of_each_strategy_ends(face: str, shape: Shape, seed: int) -> None:
    check(face, shape, seed)


@SETTINGS
@given(shape=shapes(), seed=st.just(0))
@example(shape=Shape(40, 40, 1), seed=0)
@example(shape=Shape(1, 1000, 2), seed=0)
@example(shape=Shape(1000, 1000, 0), seed=0)
@example(shape=Shape(961, 490, 235445), seed=0)  # the long sweep: counting its layouts took seconds
def test_perfect_answers_or_refuses_within_its_time_limit(shape: Shape, seed: int) -> None:
    check("perfect", shape, seed)


@SETTINGS
@given(shape=shapes(), seed=st.integers(0, 2**32 - 1))
@example(shape=Shape(1000, 1000, 300_000), seed=0)  # refused before its count, which takes seconds
@example(shape=Shape(3, 3, 2), seed=1)
def test_perfect_from_a_position_answers_or_refuses_within_its_time_limit(shape: Shape, seed: int) -> None:
    check("perfect position", shape, seed)


@SETTINGS
@given(shape=shapes(most_cells=10_000), seed=st.integers(0, 2**53))
@example(shape=Shape(40, 40, 300), seed=0)
@example(shape=Shape(1, 1, 1), seed=0)
def test_the_web_api_answers_or_refuses(shape: Shape, seed: int) -> None:
    check("web", shape, seed)


def test_most_mines_counts_what_the_rules_keep_clear() -> None:
    assert most_mines(30, 30, "opening", (3, 3)) == 891
    assert most_mines(1, 1, "safe") == 0 and most_mines(1, 1) == 1
