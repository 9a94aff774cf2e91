"""The engine's internal roads agree: local rules or not, exact counting or SAT with the count.

tests/test_analysis.py checks the engine against an independent brute force; these
tests check that the engine's shortcuts are only shortcuts: the classification
is identical whichever road produced it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesat.analysis import Analyzer, InconsistentPositionError
from minesat.analysis.classify import (
    WorkBudget,
    check_component,
    classify_component,
    classify_with_total,
    solver_call_cost,
)
from minesat.analysis.constraints import Frontier
from minesat.analysis.counting import count_component
from minesat.board import COVERED, Position
from test_analysis import Played, examples, played_games


def certainties(analyzer: Analyzer, position: Position, mines: int | None) -> tuple:
    try:
        a = analyzer.analyze(position, mines)
    except InconsistentPositionError as err:
        return ("inconsistent", err.cell)
    return a.safe, a.mine, a.unknown


@examples(150)
@given(played_games())
def test_local_rules_are_only_a_shortcut(game: Played) -> None:
    """150 games (benchmarks/heavy plays 300)."""
    check_local_rules(game)


def check_local_rules(game: Played) -> None:
    for position in game.positions:
        for mines in (None, position.mines):
            assert certainties(Analyzer(), position, mines) == certainties(
                Analyzer(use_local_rules=False), position, mines
            )


@examples(150)
@given(played_games())
def test_sat_with_the_global_count_matches_exact_counting(game: Played) -> None:
    """150 games (benchmarks/heavy plays 300)."""
    check_sat_road(game)


def check_sat_road(game: Played) -> None:
    # state_budget=0 makes every component "too large to count", forcing the
    # SAT road that states the global count on the frontier.
    for position in game.positions:
        exact = certainties(Analyzer(), position, position.mines)
        try:
            by_sat = Analyzer(state_budget=0).analyze(position, position.mines)
        except InconsistentPositionError as err:
            assert exact == ("inconsistent", err.cell)
            continue
        assert (by_sat.safe, by_sat.mine, by_sat.unknown) == exact
        if Frontier.of(position).frontier:
            assert by_sat.exact is False


@examples(200)
@given(played_games())
def test_component_counts_sum_to_the_layouts(game: Played) -> None:
    # Every cell's mine weight is at most the component's layouts, for each k,
    # and a box's weight times its size is never more than k times the layouts.
    for position in game.positions:
        try:
            frontier = Frontier.of(position)
        except InconsistentPositionError:
            continue
        for comp in frontier.components():
            count = count_component(comp)
            assert count is not None
            for k, ways in enumerate(count.ways):
                mined = sum(count.mine_ways[cell][k] for cell in comp.cells)
                assert mined == k * ways  # each k-mine layout mines exactly k cells


def test_budget_exhaustion_is_reported_not_silent() -> None:
    position = Position.from_rows(["1?", "??"], mines=1)
    analysis = Analyzer(state_budget=0).analyze(position)
    assert analysis.exact is False
    assert analysis.to_json()["exact"] is False
    assert Analyzer().analyze(position).exact is True


def test_global_count_contradiction_names_a_cell() -> None:
    # Two "1"s in separate components need two mines, but the board has only one.
    position = Position.from_rows(["1??1"], mines=1)
    assert Analyzer().analyze(position.with_mines(None)).components == 2
    with pytest.raises(InconsistentPositionError) as err:
        Analyzer().analyze(position)
    assert err.value.cell in {(0, 0), (0, 3)}
    with pytest.raises(InconsistentPositionError):
        Analyzer(state_budget=0).analyze(position)


def outcome(analyzer: Analyzer, position: Position) -> tuple:
    """The whole Analysis, or the number an inconsistent position is blamed on."""
    try:
        return ("analysis", analyzer.analyze(position))
    except InconsistentPositionError as err:
        return ("inconsistent", err.cell)


@examples(75)
@given(played_games())
def test_incremental_model_answers_like_a_fresh_build(game: Played) -> None:
    """75 games (benchmarks/heavy plays 150)."""
    check_incremental_model(game)


def check_incremental_model(game: Played) -> None:
    # One Analyzer follows the game, and between moves looks ahead the way a
    # strategy does: a covered cell uncovered with each number it could show
    # (consistent or not), then back. Its incremental model and caches must give
    # exactly what a fresh Analyzer gives, ``proven`` exactly ``safe``/``mine``
    # and ``layouts`` exactly the count. (These boards are small: the reused
    # Analyzer is kept off the small-board road, so that its model is the one
    # tested.)
    reused = Analyzer(small_boards=False)
    for position in game.positions:
        looks = [position]
        covered = [i for i, s in enumerate(position.cells) if s == COVERED]
        for i in covered[:: max(1, len(covered) // 3)]:
            for n in (0, 1, 2, 4):
                cells = list(position.cells)
                cells[i] = n
                looks += [Position(position.rows, position.cols, tuple(cells), position.mines), position]
        for look in looks:
            expected = outcome(Analyzer(), look)
            assert outcome(reused, look) == expected
            # The count alone, as a look-ahead asks for it: 0 where analyze refuses.
            assert reused.layouts(look) == (expected[1].layouts if expected[0] == "analysis" else 0)
            if expected[0] == "analysis":
                assert reused.proven(look) == (expected[1].safe, expected[1].mine)
                blind = Analyzer().analyze(look.with_mines(None))
                assert reused.proven(look.with_mines(None)) == (blind.safe, blind.mine)


@examples(200)
@given(played_games())
def test_search_and_dynamic_programme_count_alike(game: Played) -> None:
    # The box-by-box search and the dynamic programme are two roads to the same counts.
    for position in game.positions:
        try:
            components = Frontier.of(position).components()
        except InconsistentPositionError:
            continue
        for comp in components:
            assert count_component(comp, search_nodes=0) == count_component(comp, search_nodes=10**9)


@examples(150)
@given(played_games())
def test_certainties_by_feasibility_match_exact_counting(game: Played) -> None:
    """150 games (benchmarks/heavy plays 300)."""
    check_certainties_by_feasibility(game)


def check_certainties_by_feasibility(game: Played) -> None:
    # work_budget=0 leaves every position too big to combine in exact integers: the
    # certainties then come from which mine counts are feasible, and must be the very
    # same; the close road weighs the probabilities, within 1e-9 of the exact ones (and
    # with it turned off, they are estimates and the analysis says so).
    for position in game.positions:
        exact = certainties(Analyzer(), position, position.mines)
        by_sets = Analyzer(work_budget=0)
        assert certainties(by_sets, position, position.mines) == exact
        assert certainties(Analyzer(work_budget=0, close_road=False), position, position.mines) == exact
        if exact[0] == "inconsistent":
            continue
        close, truth = by_sets.analyze(position), Analyzer().analyze(position)
        assert close.exact
        for row, true_row in zip(close.probability, truth.probability, strict=True):
            for p, q in zip(row, true_row, strict=True):
                assert (p is None) == (q is None)
                assert p is None or abs(p - q) <= 1e-9
        estimated = Analyzer(work_budget=0, close_road=False).analyze(position)
        assert estimated.exact or estimated.why  # (the rules may leave no part to weigh)


def test_feasible_counts_give_the_certainties_of_exact_weights() -> None:
    # Made-up components whose possible mine counts have gaps (as 0 or 2 but
    # never 1), combined with an interior: the shortcut by feasible counts and
    # the exact weights must find the same certain cells and the same fate
    # for the interior.
    from minesat.analysis.combine import certain_by_feasibility, exact_weights
    from minesat.analysis.constraints import Component
    from minesat.analysis.counting import ComponentCount

    rng = random.Random(8)
    for _ in range(400):
        components, counts = [], []
        for i in range(rng.randint(1, 4)):
            cells = tuple((i, j) for j in range(rng.randint(1, 3)))
            ways = [rng.choice((0, 0, 1, 2)) for _ in range(len(cells) + 1)]
            if not any(ways):
                ways[rng.randrange(len(ways))] = 1
            mine_ways = {}
            for cell in cells:
                mine_ways[cell] = tuple(rng.choice((0, w, w // 2)) for w in ways)
            components.append(Component(cells, ()))
            counts.append(ComponentCount(tuple(ways), mine_ways))
        interior = rng.randint(0, 3)
        remaining = rng.randint(0, sum(len(c.cells) for c in components) + interior)
        exact = exact_weights(counts, components, interior, remaining)
        by_sets = certain_by_feasibility(counts, components, interior, remaining)
        assert (exact is None) == (by_sets is None)
        if exact is None or by_sets is None:
            continue
        numerators, interior_mined, denominator = exact
        assert by_sets[0] == {cell for cell, n in numerators.items() if n == 0}
        assert by_sets[1] == {cell for cell, n in numerators.items() if n == denominator}
        fate = None
        if interior and interior_mined == 0:
            fate = False
        elif interior and interior_mined == denominator:
            fate = True
        assert by_sets[2] == fate


# --- the solver's share of the work budget ---------------------------------------


def mesh(n: int, seed: int = 0) -> Position:
    """Numbers on every cell with odd row and odd column, everything else covered:
    one component in which every number shares cells with eight others, and
    which no count within the default state budget takes (the solver's road)."""
    rng = random.Random(seed)
    mines = set(rng.sample([(r, c) for r in range(n) for c in range(n)], n * n // 5))
    cells = []
    for r in range(n):
        for c in range(n):
            shown = r % 2 == 1 and c % 2 == 1 and (r, c) not in mines
            around = sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            cells.append(around if shown else COVERED)
    return Position(n, n, tuple(cells), len(mines))


@pytest.mark.parametrize(("total", "budget"), [(True, 2), (True, 20), (False, 20)])
def test_solver_calls_stop_at_the_work_budget(total: bool, budget: int) -> None:
    # state_budget=0 sends every component to the solver. A budget of a few
    # calls leaves some certain cells unfound: what is found is still certain,
    # and the analysis says it is not exact. A generous budget finds them all.
    # (A budget of 2 cannot pay one call with the total: each component's own
    # certainties stand in.)
    position = mesh(14)
    if not total:
        position = position.with_mines(None)
    full = Analyzer(state_budget=0).analyze(position)
    cut = Analyzer(state_budget=0, work_budget=budget).analyze(position)
    assert cut.exact is False
    assert set(cut.safe) < set(full.safe) or set(cut.mine) < set(full.mine)
    assert set(cut.safe) <= set(full.safe) and set(cut.mine) <= set(full.mine)
    assert Analyzer(state_budget=0, work_budget=10**9).analyze(position) == full
    assert full.exact is (not total)  # with the total, the probabilities are estimates


def test_the_global_count_is_left_out_when_not_even_one_call_fits() -> None:
    position = mesh(14)
    frontier = Frontier.of(position)
    components = frontier.components()
    cells = sum(len(comp.cells) for comp in components)
    args = (components, len(frontier.interior), position.mines - frontier.flags)
    first = solver_call_cost(cells, total=True, first=True)
    budget = WorkBudget(first - 1)
    assert classify_with_total(*args, budget) is None and budget.ran_out
    assert classify_with_total(*args, WorkBudget(first)) is not None
    assert classify_with_total(*args, WorkBudget(10**9)) == classify_with_total(*args)


def test_a_component_with_no_layout_is_named_when_the_total_cannot_be_paid() -> None:
    # Past the price of one call with the total, the components are classified
    # without it, and an impossible one is still named, as check_component names it.
    position = mesh(40)
    for i, shown in enumerate(position.cells):
        if shown < 0:
            continue
        cells = list(position.cells)
        cells[i] = shown + 1 if shown < 8 else shown - 1
        broken = Position(position.rows, position.cols, tuple(cells), position.mines)
        try:
            components = Frontier.of(broken).components()
        except InconsistentPositionError:
            continue  # the number alone is impossible: no solver needed to see it
        try:
            for comp in components:
                check_component(comp)
        except InconsistentPositionError as err:
            expected = err.cell
            break
    else:
        pytest.fail("no broken variant of the mesh")
    open_cells = sum(len(comp.cells) for comp in components)
    budget = solver_call_cost(open_cells, total=True, first=True) - 1
    assert budget >= solver_call_cost(open_cells, first=True)  # one call without the total fits
    with pytest.raises(InconsistentPositionError) as got:
        Analyzer(state_budget=0, work_budget=budget).analyze(broken)
    assert got.value.cell == expected


def test_a_cut_classification_is_not_cached_as_complete() -> None:
    position = mesh(14).with_mines(None)
    analyzer = Analyzer(state_budget=0, work_budget=20)
    assert analyzer.analyze(position).exact is False
    analyzer.work_budget = 10**9
    assert analyzer.analyze(position) == Analyzer(state_budget=0).analyze(position)


@examples(150)
@given(played_games(max_steps=3), st.randoms(use_true_random=False))
def test_a_component_is_checked_as_it_is_classified(played: Played, rnd: random.Random) -> None:
    # check_component raises exactly when classify_component raises, naming the same number.
    position = played.positions[-1]
    numbers = [i for i, s in enumerate(position.cells) if s >= 0]
    if not numbers:
        return
    cells = list(position.cells)
    cells[rnd.choice(numbers)] = rnd.randint(0, 8)
    try:
        components = Frontier.of(Position(position.rows, position.cols, tuple(cells))).components()
    except InconsistentPositionError:
        return
    for comp in components:
        for rules in (True, False):
            try:
                classify_component(comp, use_local_rules=rules)
                expected = None
            except InconsistentPositionError as err:
                expected = err.cell
            try:
                check_component(comp, use_local_rules=rules)
                checked = None
            except InconsistentPositionError as err:
                checked = err.cell
            assert checked == expected


def test_a_long_chain_is_counted_without_deep_recursion() -> None:
    # A covered row over a row of numbers, 1500 long: one part of 1500 boxes in a chain, which
    # the search walks in flat lists, no recursion. (benchmarks/heavy counts 3000 boxes: 0.9 s
    # and 55 MB, where the count before issue 50 took 4.2 s and 1.8 GB.)
    count_long_chain(1500)


def count_long_chain(n: int) -> None:
    mines = {c for c in range(n) if c % 3 == 1}
    shown = [sum(c + d in mines for d in (-1, 0, 1)) for c in range(n)]
    position = Position(2, n, (COVERED,) * n + tuple(shown), len(mines))
    analysis = Analyzer().analyze(position)
    assert analysis.exact and analysis.layouts == 1
    assert set(analysis.mine) == {(0, c) for c in mines}
