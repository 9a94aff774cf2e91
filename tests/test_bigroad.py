"""The big-board road (a position read whole as arrays) answers as the general road does.

Every Analyzer built with ``big_cells=0`` sends every board with a total down the big
road, so these tests run it on the small random positions the brute force can check
(tests/bruteforce.py), and compare it with the general road, answer for answer, on
positions too large for the brute force: boards of any shape, flags right and wrong,
with the total and without, exact integers or the close road. The arrays it reads
(:mod:`minesat.analysis.arrays`) are checked against the general road's own
reading: the same rules' fixpoint, the same components. And the JSON it is written
as (:func:`~minesat.analysis.result.json_chunks`) is the text ``json.dumps`` writes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bruteforce import frontier_components, solve
from minesat.analysis import Analysis, Analyzer, InconsistentPositionError
from minesat.analysis.arrays import Broken, linked, read_numbers, settle
from minesat.analysis.classify import local_rules
from minesat.analysis.constraints import Frontier
from minesat.analysis.engine import analyze_within
from minesat.analysis.result import json_chunks
from minesat.board import COVERED, FLAG, Position
from minesat.budget import Budget
from test_analysis import (
    Played,
    assert_agrees,
    assert_names_culprit,
    examples,
    played_games,
    revealed_layouts,
    show,
    small_enough,
)


def reached(rows: int, cols: int, seed: int) -> Position:
    """A position a long game reaches, as benchmarks/analyze_growth.py makes them."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from analyze_growth import reached as made

    return made(rows, cols, seed)


def big_road(**settings: object) -> Analyzer:
    """An Analyzer that sends every board down the big road."""
    return Analyzer(small_boards=False, big_cells=0, **settings)  # type: ignore[arg-type]


def general_road(**settings: object) -> Analyzer:
    return Analyzer(small_boards=False, big_cells=None, **settings)  # type: ignore[arg-type]


def outcome(analyzer: Analyzer, position: Position) -> Analysis | tuple[str, object]:
    try:
        return analyzer.analyze(position)
    except InconsistentPositionError as err:
        return ("inconsistent", str(err))


def with_wrong_flags(position: Position, rnd: random.Random, rate: float) -> Position:
    cells = [FLAG if s == COVERED and rnd.random() < rate else s for s in position.cells]
    return Position(position.rows, position.cols, tuple(cells), position.mines)


# --- against the brute force ----------------------------------------------------------


def check_big_road(position: Position) -> None:
    for total in ([position.mines, None] if position.mines is not None else [None]):
        subject = position.with_mines(total)
        expected = solve(subject)
        if not expected.consistent:
            with pytest.raises(InconsistentPositionError) as caught:
                big_road().analyze(subject)
            assert_names_culprit(subject, caught.value)
            continue
        analysis = big_road().big_road.analysis(subject, total)  # the road itself: no other road
        assert analysis is not None, show(subject)
        assert_agrees(subject, analysis, expected, total)
        assert analysis.components == frontier_components(subject), show(subject)
        if total is not None:
            assert analysis.layouts == expected.layouts, show(subject)


@examples(200)
@given(played_games())
def test_played_positions_on_the_big_road_agree_with_bruteforce(played: Played) -> None:
    """200 games (benchmarks/heavy plays 400)."""
    check_played_positions_on_the_big_road(played)


def check_played_positions_on_the_big_road(played: Played) -> None:
    for position in played.positions:
        if small_enough(position):
            check_big_road(position)


@examples(300)
@given(revealed_layouts())
def test_revealed_positions_on_the_big_road_agree_with_bruteforce(case: tuple) -> None:
    _, position = case
    if small_enough(position):
        check_big_road(position)


@examples(200)
@given(played_games(max_steps=3), st.randoms(use_true_random=False), st.sampled_from([0.1, 0.3]))
def test_wrong_flags_on_the_big_road_agree_with_bruteforce(
    played: Played, rnd: random.Random, rate: float
) -> None:
    flagged = with_wrong_flags(played.positions[-1], rnd, rate)
    if small_enough(flagged):
        check_big_road(flagged)


# --- against the general road ---------------------------------------------------------


#: The games the big road and the general road are compared on.
BOTH_ROADS = (played_games(max_side=14, max_steps=10), st.randoms(use_true_random=False),
              st.sampled_from([0.0, 0.05, 0.2]))


@examples(150)
@given(*BOTH_ROADS)
def test_the_big_road_answers_as_the_general_road(played: Played, rnd: random.Random, rate: float) -> None:
    """150 games (benchmarks/heavy plays 300)."""
    check_both_roads(played, rnd, rate)


def check_both_roads(played: Played, rnd: random.Random, rate: float) -> None:
    """The same Analysis (safe, mine, unknown, every probability to the bit, components,
    layouts), or the same error naming the same cell, on boards of any shape."""
    for position in played.positions[-3:]:
        subject = with_wrong_flags(position, rnd, rate)
        for total in (subject.mines, None):
            one = subject.with_mines(total)
            assert outcome(big_road(), one) == outcome(general_road(), one), show(one)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape", [(40, 40), (12, 150), (150, 7), (1, 600), (600, 1)])
def test_positions_games_reach_on_both_roads(seed: int, shape: tuple[int, int]) -> None:
    """Bigger positions reached in a game (16 % mines, 45 % uncovered), exact integers and
    the close road (a work budget of 0 sends every combination to it) alike."""
    position = reached(*shape, seed)
    for budget in (None, 0):
        settings = {} if budget is None else {"work_budget": budget}
        assert outcome(big_road(**settings), position) == outcome(general_road(**settings), position)
    without = position.with_mines(None)
    assert outcome(big_road(), without) == outcome(general_road(), without)


def test_the_big_road_takes_big_boards_only() -> None:
    small = reached(20, 20, 1)
    big = reached(150, 150, 1)
    analyzer = Analyzer()
    assert not analyzer.big_road.takes(small) and analyzer.big_road.takes(big)
    assert not Analyzer(big_cells=None).big_road.takes(big)
    assert analyzer.analyze(big) == general_road().analyze(big)


def test_linear_exact_work_gives_the_close_road_within_its_tolerance(monkeypatch: pytest.MonkeyPatch) -> None:
    import minesat.analysis.engine as engine

    position = reached(60, 60, 3)
    exact = general_road().analyze(position)
    assert big_road(exact_work_per_cell=0).analyze(position) == exact  # within the floor: exact integers
    monkeypatch.setattr(engine, "LINEAR_WORK_FLOOR", 0)  # as a board too big for the floor
    linear = big_road(exact_work_per_cell=0).analyze(position)
    assert exact.layouts is not None and linear.layouts is None  # the close road took it
    assert (linear.safe, linear.mine, linear.exact) == (exact.safe, exact.mine, True)
    for row, other in zip(linear.probability, exact.probability, strict=True):
        for p, q in zip(row, other, strict=True):
            assert (p is None) == (q is None) and (p is None or abs(p - q) <= 1e-10)


# --- the arrays it reads --------------------------------------------------------------


@examples(300)
@given(revealed_layouts(max_side=9), st.randoms(use_true_random=False))
def test_the_rules_reach_the_general_roads_fixpoint(case: tuple, rnd: random.Random) -> None:
    _, position = case
    position = with_wrong_flags(position, rnd, 0.1)
    numbers = read_numbers(position)
    try:
        frontier = Frontier.of(position)
    except InconsistentPositionError:
        assert numbers.broken is not None
        return
    assert numbers.broken is None
    try:
        expected = local_rules(frontier.constraints)
    except InconsistentPositionError:
        expected = None
    value = numbers.undecided()
    try:
        settle(numbers, value)
    except Broken:
        assert expected is None, show(position)
        return
    assert expected is not None, show(position)
    found = {divmod(i, position.cols): bool(value[i]) for i in range(position.rows * position.cols)
             if value[i] >= 0}
    assert found == expected, show(position)
    group = linked(numbers, numbers.frontier)
    labels = {int(group[i]) for i in range(len(group)) if numbers.frontier[i]}
    assert len(labels) == frontier_components(position)
    assert {divmod(i, position.cols) for i in range(len(group)) if numbers.frontier[i]} == set(
        frontier.frontier
    )


def test_long_chains_link_in_few_passes() -> None:
    """A covered row under a row of 1s is one component, however long (and no recursion)."""
    position = Position.from_rows(["?" * 1000, "1" + "2" * 998 + "1"])
    numbers = read_numbers(position)
    group = linked(numbers, numbers.frontier)
    assert set(group[:1000].tolist()) == {0}


# --- the JSON it is written as -------------------------------------------------------


@examples(60)
@given(played_games(max_side=10), st.booleans(), st.booleans())
def test_json_chunks_write_what_json_dumps_writes(played: Played, big: bool, cut: bool) -> None:
    position = played.positions[-1]
    for total in (position.mines, None):
        subject = position.with_mines(total)
        analyzer = big_road() if big else Analyzer()
        try:
            if cut:
                analysis = analyze_within(analyzer, subject, budget=Budget(time_limit=0.0))
            else:
                analysis = analyzer.analyze(subject)
        except InconsistentPositionError:
            continue
        head = {"file": "some/where.txt"}
        assert "".join(json_chunks(analysis, head)) == json.dumps({**head, **analysis.to_json()})
