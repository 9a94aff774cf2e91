"""The exact sampler (:func:`minesat.analysis.sample.sample_layout`): uniform over the layouts a
position allows, and every draw one of them.

Uniformity is checked against the layouts an independent brute force lists (tests/bruteforce.py):
2 000 draws per position, a chi-square test that must not reject (p > 0.01). The draws' seeds are
fixed, so each test gives the same answer every run.
"""

from __future__ import annotations

import random
from collections import Counter
from math import erfc, exp, lgamma, log, sqrt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bruteforce import whole_layouts
from fakeclock import FakeClock
from midgame import START, part_way
from minesat import budget as budget_module
from minesat.analysis import Analyzer, InconsistentPositionError
from minesat.analysis.sample import PartTooLarge, sample_layout
from minesat.board import COVERED, FLAG, Cell, Layout, Position, without_flags
from minesat.budget import Budget, OutOfTime
from minesat.errors import InvalidValue, OverBudget
from minesat.generate import kept_clear


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom: the regularized upper gamma
    Q(df/2, x/2), by its recurrence Q(a+1, y) = Q(a, y) + y^a e^-y / Gamma(a+1) from
    Q(1/2, y) = erfc(sqrt y) or Q(1, y) = e^-y (matches scipy.stats.chi2.sf to 1e-14).

    >>> round(chi2_sf(3.841458820694124, 1), 6), round(chi2_sf(5.991464547107979, 2), 6)
    (0.05, 0.05)
    """
    y = x / 2
    a, total = (0.5, erfc(sqrt(y))) if df % 2 else (1.0, exp(-y))
    while a < df / 2:
        if y > 0:
            total += exp(a * log(y) - y - lgamma(a + 1))
        a += 1
    return total


def agrees(layout: Layout, position: Position, mines: int, safe: set[Cell] = frozenset()) -> list[str]:
    """What in ``layout`` disagrees with ``position`` (flags read as covered), its total and ``safe``."""
    wrong = []
    if (layout.rows, layout.cols) != (position.rows, position.cols):
        return [f"a {layout.rows}x{layout.cols} layout for a {position.rows}x{position.cols} position"]
    if layout.mine_count != mines:
        wrong.append(f"{layout.mine_count} mines, not {mines}")
    counts = layout.counts
    for i, state in enumerate(position.cells):
        cell = divmod(i, position.cols)
        if state >= 0:
            if cell in layout.mines:
                wrong.append(f"a mine on the uncovered {cell}")
            elif counts[i] != state:
                wrong.append(f"{cell} shows {state} but sees {counts[i]}")
        elif cell in safe and cell in layout.mines:
            wrong.append(f"a mine on the safe {cell}")
    return wrong


# --- uniform ------------------------------------------------------------------------------------

#: Small positions with their total and safe cells: frontier and interior coupled by the total,
#: several parts, cells the rules decide, a flag (which is no information), safe cells.
SMALL = [
    (["1??", "???", "?2?", "???"], 3, ()),
    (["??1??", "?????", "1???1"], 3, ()),
    (["?1???", "?2???", "?????"], 4, ()),
    (["?1??", "?2*?", "????", "??1?"], 4, ((3, 0),)),
    (["1*??", "2???", "????"], 3, ((2, 3), (1, 3))),
]

DRAWS = 2000


@pytest.mark.parametrize(("rows", "mines", "safe"), SMALL)
def test_each_layout_is_as_likely(rows: list[str], mines: int, safe: tuple[Cell, ...]) -> None:
    position = Position.from_rows(rows)
    layouts = [m for m in whole_layouts(without_flags(position), mines) if not m & set(safe)]
    assert len(layouts) >= 2
    seen = Counter(sample_layout(position, mines, seed=s, safe=safe).mines for s in range(DRAWS))
    assert set(seen) <= set(layouts), "a draw the brute force does not list"
    expected = DRAWS / len(layouts)
    statistic = sum((seen[m] - expected) ** 2 / expected for m in layouts)
    p = chi2_sf(statistic, len(layouts) - 1)
    assert p > 0.01, (len(layouts), sorted(seen.values()), statistic, p)


def test_same_seed_same_layout() -> None:
    position = Position.from_rows(["?1???", "?2???", "?????"])
    first = [sample_layout(position, 4, seed=s) for s in range(20)]
    assert first == [sample_layout(position, 4, seed=s) for s in range(20)]
    assert len(set(first)) > 5


# --- every draw agrees with the position ---------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[Layout, Position, set[Cell]]:
    """A layout on a small board (1xN, thin, square), from no mine to the most that fit, and a
    position showing some of its safe cells, with flags right and wrong and some covered safe
    cells kept clear."""
    kind = draw(st.sampled_from(["line", "thin", "square"]))
    if kind == "line":
        rows, cols = 1, draw(st.integers(1, 24))
    elif kind == "thin":
        rows, cols = 2, draw(st.integers(1, 12))
    else:
        rows = cols = draw(st.integers(1, 6))
    if draw(st.booleans()):
        rows, cols = cols, rows
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mines = draw(st.one_of(st.sampled_from([0, len(cells)]), st.integers(0, len(cells))))
    rnd = draw(st.randoms(use_true_random=False))
    layout = Layout(rows, cols, frozenset(rnd.sample(cells, mines)))
    free = [x for x in cells if x not in layout.mines]
    shown = set(rnd.sample(free, draw(st.integers(0, len(free)))))
    state = []
    for cell in cells:
        if cell in shown:
            state.append(layout.counts[cell[0] * cols + cell[1]])
        else:
            state.append(FLAG if rnd.random() < 0.2 else COVERED)
    hidden = [x for x in free if x not in shown]
    safe = set(rnd.sample(hidden, draw(st.integers(0, len(hidden)))))
    return layout, Position(rows, cols, tuple(state)), safe


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_every_draw_agrees(drawn: tuple[Layout, Position, set[Cell]], seed: int) -> None:
    layout, position, safe = drawn
    for s in range(seed, seed + 3):
        sampled = sample_layout(position, layout.mine_count, seed=s, safe=safe)
        assert not agrees(sampled, position, layout.mine_count, safe), (position, safe, sampled)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_a_draw_exactly_when_a_layout_fits(rows: int, cols: int, data: st.DataObject) -> None:
    """Any numbers, any total, any safe cells: a draw when the brute force lists a layout,
    :class:`InconsistentPositionError` when it lists none."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    state = data.draw(st.lists(st.sampled_from([COVERED, COVERED, FLAG, 0, 1, 2, 3]),
                               min_size=len(cells), max_size=len(cells)))
    position = Position(rows, cols, tuple(state))
    mines = data.draw(st.integers(0, len(cells)))
    covered = position.cells_in(COVERED) + position.cells_in(FLAG)
    safe = set(data.draw(st.lists(st.sampled_from(covered), max_size=2))) if covered else set()
    fits = [m for m in whole_layouts(without_flags(position), mines) if not m & safe]
    if fits:
        sampled = sample_layout(position, mines, seed=0, safe=safe)
        assert sampled.mines in fits
    else:
        with pytest.raises(InconsistentPositionError):
            sample_layout(position, mines, seed=0, safe=safe)


def test_no_layout_names_a_number() -> None:
    with pytest.raises(InconsistentPositionError) as err:
        sample_layout(Position.from_rows(["?1?1?1?", "???????"]), 4, seed=0)  # 2 or 3 mines fit
    assert err.value.cell in [(0, 1), (0, 3), (0, 5)]
    with pytest.raises(InconsistentPositionError) as err:
        sample_layout(Position.from_rows(["1?", "??"]), 1, seed=0, safe=[(0, 1), (1, 0), (1, 1)])
    assert err.value.cell == (0, 0)


def test_bad_values_are_refused() -> None:
    position = Position.from_rows(["1?", "??"])
    with pytest.raises(InvalidValue):
        sample_layout(position, -1, seed=0)
    with pytest.raises(InvalidValue):
        sample_layout(position, 1, seed=0, safe=[(2, 0)])


# --- budgets ------------------------------------------------------------------------------------


def test_a_part_past_the_state_budget_stops() -> None:
    # The middle row's numbers link every covered cell into one part that no rule decides.
    position = Position.from_rows(["????????", "22222222", "????????"])
    assert not agrees(sample_layout(position, 6, seed=0, budget=Budget(max_states=50)), position, 6)
    with pytest.raises(PartTooLarge) as err:
        sample_layout(position, 6, seed=0, budget=Budget(max_states=10))
    assert isinstance(err.value, OverBudget) and err.value.what == "states" and err.value.limit == 10
    with pytest.raises(PartTooLarge):
        sample_layout(position, 6, seed=0, budget=Budget(max_states=0))


def test_time_limit_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each reading of the fake clock is a second after the last: a limit of 3 s stops the draw
    # at its fourth reading, long before an expert position is done.
    _, position = part_way(16, 30, 99, seed=0, share=0.5)
    FakeClock(step=1.0).install(monkeypatch, budget_module)
    with pytest.raises(OutOfTime):
        sample_layout(position, 99, seed=0, budget=Budget(time_limit=3.0))


# --- real games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [0, 1, 2])
def test_forks_of_expert_games(game: int) -> None:
    """100 draws on an expert game half played: none is the game's own layout, each agrees."""
    layout, position = part_way(16, 30, 99, seed=game, share=0.3 + 0.2 * game)
    clear = kept_clear(16, 30, start=START, rule="opening")
    same = 0
    for s in range(100):
        sampled = sample_layout(position, 99, seed=s, safe=clear)
        assert not agrees(sampled, position, 99, clear)
        same += sampled == layout
    assert same == 0


def test_each_cell_mined_as_often_as_the_analysis_says() -> None:
    """Over N draws a cell is mined about N * p times, p its exact probability: within 5 standard
    deviations of the binomial (sqrt(N p (1 - p))) and one draw, for every covered cell."""
    _, position = part_way(16, 16, 40, seed=3, share=0.4)
    analysis = Analyzer().analyze(position, 40)
    draws = 600
    mined: Counter[Cell] = Counter()
    for s in range(draws):
        mined.update(sample_layout(position, 40, seed=s).mines)
    covered = position.cells_in(COVERED)
    assert covered and any(0 < analysis.probability[r][c] < 1 for r, c in covered)  # type: ignore[operator]
    for r, c in covered:
        p = analysis.probability[r][c]
        assert p is not None
        bound = 5 * sqrt(draws * p * (1 - p)) + 1
        assert abs(mined[r, c] - draws * p) <= bound, ((r, c), mined[r, c], draws * p)


def test_the_interior_is_drawn_uniformly() -> None:
    """A board with nothing uncovered: the sampler's draw is the generator's, a uniform subset."""
    position = Position.covered(3, 4)
    seen = Counter(sample_layout(position, 2, seed=s).mines for s in range(DRAWS))
    assert len(seen) == 66  # C(12, 2)
    expected = DRAWS / 66
    statistic = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi2_sf(statistic, 65) > 0.01


def test_random_module_untouched() -> None:
    """The draw uses its own Random(seed): the module's shared generator is left as it was."""
    random.seed(5)
    before = random.getstate()
    sample_layout(Position.from_rows(["1?", "??"]), 1, seed=1)
    assert random.getstate() == before
