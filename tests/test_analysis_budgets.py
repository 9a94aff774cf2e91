"""The analysis past its budgets (SPEC section 19): still an answer, never a wrong certainty.

Budgets are tested with a time limit of 0 (every checkpoint is past it) and a memory budget
below what the interpreter holds: no test reads the wall clock. Whatever is cut, the cells
called safe or mined are so in every layout the brute force finds, the probabilities are
probabilities, and the answer says it is not exact and why.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from typer.testing import CliRunner

from bruteforce import solve
from minesat.analysis import Analyzer, InconsistentPositionError
from minesat.analysis.engine import analyze_within
from minesat.analysis.estimate import estimate_position
from minesat.board import COVERED, Position
from minesat.budget import Budget, OutOfMemory, OutOfTime, OverBudget, PastBudget
from minesat.cli import app
from test_analysis import Played, examples, played_games, small_enough


def assert_sound(position: Position, analysis: object) -> None:
    """Certainties the brute force confirms; every covered cell a probability (the total known)."""
    expected = solve(position)
    assert expected.consistent
    assert set(analysis.safe) <= expected.safe, "a cell called safe is mined in some layout"
    assert set(analysis.mine) <= expected.mine, "a cell called mined is safe in some layout"
    for r, c in position.cells_in(COVERED):
        p = analysis.probability[r][c]
        if position.mines is None:
            assert p is None or (r, c) in analysis.safe or (r, c) in analysis.mine
        else:
            assert p is not None and 0.0 <= p <= 1.0


@examples(60)
@given(played_games())
def test_past_the_time_limit_the_answer_is_sound(game: Played) -> None:
    for position in game.positions:
        if not small_enough(position) or not solve(position).consistent:
            continue
        cut = analyze_within(Analyzer(small_boards=False), position, budget=Budget(time_limit=0.0))
        assert_sound(position, cut)
        if not cut.exact:
            assert cut.why == "past --time-limit 0 s"
            assert cut.consistent in (None, True)


@examples(75)
@given(played_games())
def test_propagation_proves_only_what_holds_and_what_numbers_force(game: Played) -> None:
    """75 games (benchmarks/heavy plays 150)."""
    check_propagation(game)


def check_propagation(game: Played) -> None:
    # Without a budget the estimator runs to its fixpoint: every certainty it names is one,
    # and where its propagation settles every number it says the position is consistent.
    for position in game.positions:
        if not small_enough(position):
            continue
        expected = solve(position)
        if not expected.consistent:
            with contextlib.suppress(InconsistentPositionError):  # a broken number may be named
                estimate_position(position, position.mines, "test")
            continue
        found = estimate_position(position, position.mines, "test")
        assert_sound(position, found)
        assert not found.exact and found.why == "test"
        exact = Analyzer().analyze(position)
        # The single-number rules are in propagation: what they prove it proves too.
        assert set(found.safe) | set(found.mine) <= set(exact.safe) | set(exact.mine)


def test_past_the_memory_budget_the_answer_says_so() -> None:
    position = Position.from_rows(["1??", "???", "?1?"], mines=2)
    cut = analyze_within(Analyzer(small_boards=False), position, budget=Budget(max_memory=1))
    assert not cut.exact and "memory" in (cut.why or "")
    assert isinstance(cut.stop, OutOfMemory) and cut.stop.limit == 1  # the stop itself, as a type
    assert_sound(position, cut)
    whole = analyze_within(Analyzer(small_boards=False), position, budget=Budget())
    assert whole.exact and whole.stop is None and whole.why is None


def test_one_base_for_every_budget_stop() -> None:
    stops = [OutOfTime(2.0, 1.0), OutOfMemory(10, 0, 5), PastBudget("past 9 states", 9, 0, 0)]
    assert all(isinstance(stop, OverBudget) for stop in stops)
    told = [(s.what, s.spent, s.limit) for s in stops]
    assert told == [("time", 2.0, 1.0), ("memory", 10, 5), ("states", 9, None)]


def test_the_command_answers_past_a_budget_and_refuses_one_too_small(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("# mines: 3\n1??\n???\n???\n")
    runner = CliRunner()
    refused = runner.invoke(app, ["analyze", "--json", "--max-memory", "1", str(path)])
    assert refused.exit_code == 2 and "--max-memory" in refused.stderr
    exact = runner.invoke(app, ["analyze", "--json", "--time-limit", "0", str(path)])
    assert exact.exit_code == 0
    line = json.loads(exact.stdout)
    assert line["exact"] is True and line["consistent"] is True and "why" not in line
    bad = runner.invoke(app, ["analyze", "--json", "--max-memory", "-3", str(path)])
    assert bad.exit_code == 2
    # A time limit too short to read a 450x450 board, propagate and write the answer; the
    # small board is answered within the same limit.
    big = tmp_path / "big.txt"
    big.write_text("# mines: 100\n" + ("?" * 450 + "\n") * 450)
    short = runner.invoke(app, ["analyze", "--json", "--time-limit", "0.01", str(big)])
    assert short.exit_code == 2 and "needs a --time-limit of at least" in short.stderr
    answered = runner.invoke(app, ["analyze", "--json", "--time-limit", "0.01", str(path)])
    assert answered.exit_code == 0 and json.loads(answered.stdout)["rows"] == 3
    # One rule for every size (issue 50): the limit itself must hold the board's least, so a
    # 160x160 board is refused a limit of a millisecond, as the 450x450 one is 10 ms.
    middle = tmp_path / "middle.txt"
    middle.write_text("# mines: 100\n" + ("?" * 160 + "\n") * 160)
    short = runner.invoke(app, ["analyze", "--json", "--time-limit", "0.001", str(middle)])
    assert short.exit_code == 2 and json.loads(short.stdout)["error"] in short.stderr
    assert short.stderr == f"minesat: {middle}: a 160x160 board needs a --time-limit of at least 0.14 s " \
        "(to read it, propagate and write the answer)\n"


# --- what propagation proves, whatever the budget ------------------------------------------


def forced_by_pairs(position: Position, safe: set, mine: set) -> tuple[set, set]:
    """Cells any one number or any two numbers sharing a cell force, given ``safe`` and ``mine``:
    every layout of their undecided cells that meets both numbers, listed (an independent
    reading of the two-number rule: no bounds, just the layouts)."""
    from itertools import product

    from minesat.analysis.constraints import Frontier

    known = {**dict.fromkeys(safe, 0), **dict.fromkeys(mine, 1)}
    numbers = Frontier.of(position).constraints
    forced_safe: set = set()
    forced_mine: set = set()
    for a in numbers:
        for b in numbers:
            if a is not b and not set(a.cells) & set(b.cells):
                continue
            cells = sorted({x for x in a.cells + b.cells if x not in known})
            if not cells:
                continue
            seen = [set() for _ in cells]
            for values in product((0, 1), repeat=len(cells)):
                value = {**known, **dict(zip(cells, values, strict=True))}
                if all(sum(value[x] for x in c.cells) == c.count for c in (a, b)):
                    for k, v in enumerate(values):
                        seen[k].add(v)
            for cell, found in zip(cells, seen, strict=True):
                if found == {0}:
                    forced_safe.add(cell)
                elif found == {1}:
                    forced_mine.add(cell)
    return forced_safe, forced_mine


@examples(60)
@given(played_games(max_side=9, max_steps=4))
def test_past_a_budget_every_cell_single_numbers_and_pairs_force_is_proved(game: Played) -> None:
    """SPEC 19: past a budget, at least what single numbers and pairs of numbers force. A time limit
    of 0 cuts the exact analysis and the beliefs at once; propagation still runs to its end."""
    position = game.positions[-1]
    if not solve(position).consistent:
        return
    cut = analyze_within(Analyzer(small_boards=False), position, budget=Budget(time_limit=0.0))
    if cut.exact:
        return  # nothing to cut: a position the rules settle before the first check
    safe, mine = set(cut.safe), set(cut.mine)
    assert (safe, mine) == (set(estimate_position(position, position.mines, "x").safe),
                            set(estimate_position(position, position.mines, "x").mine))
    more_safe, more_mine = forced_by_pairs(position, safe, mine)
    assert more_safe <= safe and more_mine <= mine, "a cell two numbers force was left open"


def half_uncovered(side: int, seed: int) -> Position:
    """A hostile position (issue 40): mines at random, each safe cell uncovered with probability 1/2."""
    import random

    from minesat.board import Layout

    rng = random.Random(seed)
    cells = [(r, c) for r in range(side) for c in range(side)]
    mines = frozenset(rng.sample(cells, side * side // 5))
    counts = Layout(side, side, mines).counts
    shown = [COVERED if cell in mines or rng.random() < 0.5 else counts[i] for i, cell in enumerate(cells)]
    return Position(side, side, tuple(shown), len(mines))


@pytest.mark.parametrize("big_cells", [0, None])
def test_a_hostile_board_keeps_its_time_on_a_fake_clock(
    monkeypatch: pytest.MonkeyPatch, big_cells: int | None
) -> None:
    """Each reading of the clock is 20 ms: the time limit is a count of budget checks (the exact
    analysis of this board reads it some 80-100 times, past its share of 60). The exact
    analysis stops at its share, propagation runs whole, the beliefs stop where the answer must
    be written; the answer comes within the limit and what SPEC 19 allows past it."""
    import minesat.analysis.engine as engine
    import minesat.budget as budget_module
    from fakeclock import FakeClock

    position = half_uncovered(40, seed=3)
    clock = FakeClock(step=0.02).install(monkeypatch, engine, budget_module)
    began = clock()
    analyzer = Analyzer(small_boards=False, big_cells=big_cells, exact_work_per_cell=4)
    cut = analyze_within(analyzer, position, budget=Budget(time_limit=2.0), began=began)
    assert clock.now - began <= engine.allowed_seconds(2.0)
    assert not cut.exact and cut.why == "past --time-limit 2 s"
    assert cut.consistent in (None, True)
    # The stop is kept without its frames, which held the exact analysis's memory (issue 50).
    assert cut.stop is not None and cut.stop.__traceback__ is None
    whole = estimate_position(position, position.mines, "x")
    assert (cut.safe, cut.mine) == (whole.safe, whole.mine)  # propagation was not cut
    exact = Analyzer().analyze(position)
    assert set(cut.safe) <= set(exact.safe) and set(cut.mine) <= set(exact.mine)
    for r, c in position.cells_in(COVERED):
        assert 0.0 <= cut.probability[r][c] <= 1.0
