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

from hypothesis import given
from typer.testing import CliRunner

from bruteforce import solve
from minesat.analysis import Analyzer, InconsistentPositionError
from minesat.analysis.engine import analyze_within
from minesat.analysis.estimate import estimate_position
from minesat.board import COVERED, Position
from minesat.cli import app
from minesat.exact.budget import Budget, OutOfMemory, OutOfTime, OverBudget, PastBudget
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


@examples(150)
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


@examples(150)
@given(played_games())
def test_propagation_proves_only_what_holds_and_what_numbers_force(game: Played) -> None:
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
    assert_sound(position, cut)


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
