"""The suite's slowest checks in full (minutes of CPU): see conftest.py.

Each test names its twin in ``tests/``, which runs the same check on fewer or smaller cases.
"""

from __future__ import annotations

import random
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesat.analysis import smallroad
from test_analysis import Played, examples, played_games
from test_analysis_budgets import check_propagation
from test_bigroad import BOTH_ROADS, check_both_roads, check_played_positions_on_the_big_road
from test_cli_perfect import check_the_best_starts_shown
from test_engine import (
    check_certainties_by_feasibility,
    check_incremental_model,
    check_local_rules,
    check_sat_road,
    count_long_chain,
)
from test_fuzz_cli import fuzz_the_commands
from test_game import open_empty_board
from test_perfect_limits import ask_the_server_perfect_play_on_a_covered_40x40_board
from test_player import play_dense
from test_review import check_chords, check_kept_chances
from test_simulate import kill_a_run_and_finish_it
from test_small import (
    check_a_glance_at_a_revealed_cell,
    check_a_glance_reads_the_analysis,
    check_pattern_counts,
    check_played_positions_take_either_road,
)


@pytest.mark.parametrize("index", range(20))
def test_small_dense_boards_under_every_rule(index: int) -> None:
    """All 20 dense 5x6 boards under every first-click rule (tests/test_player.py plays 16)."""
    play_dense(index)


def test_huge_empty_board_opens_in_one_move_without_recursion() -> None:
    """4 million cells opened by one click (tests/test_game.py opens 1001x1001)."""
    open_empty_board(2000)


def test_a_long_chain_is_counted_without_deep_recursion() -> None:
    """A chain of 3000 boxes, one part (tests/test_engine.py counts 1500)."""
    count_long_chain(3000)


@examples(300)
@given(played_games())
def test_sat_with_the_global_count_matches_exact_counting(game: Played) -> None:
    """300 games through the SAT road with the global count (tests/test_engine.py plays 150)."""
    check_sat_road(game)


def test_the_commands_never_crash(tmp_path: Path) -> None:
    """2000 mutated board files through analyze, show, convert and solve (tests/test_fuzz_cli.py: 800)."""
    fuzz_the_commands(tmp_path, 2000)


def test_a_chord_over_flags_risks_exactly_what_the_layouts_say() -> None:
    """60 chords over random flags (tests/test_review.py checks 30)."""
    check_chords(60)


def test_a_guess_says_the_chance_to_win_it_kept_against_the_best_move() -> None:
    """40 random games on 3x4 (tests/test_review.py plays 20)."""
    assert check_kept_chances(40) > 30


@examples(300)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_played_positions_take_either_road_alike(game: Played, rnd: random.Random) -> None:
    """300 games, the small road against the general one (tests/test_small.py plays 150)."""
    check_played_positions_take_either_road(game, rnd)


@pytest.mark.parametrize("steps", [smallroad.ENUMERATION_STEPS, 0])
@examples(100)
@given(game=played_games(max_steps=10), rnd=st.randoms(use_true_random=False))
def test_pattern_counts_are_the_counts_of_flagged_positions(
    steps: int, game: Played, rnd: random.Random
) -> None:
    """100 games each way (tests/test_small.py plays 50)."""
    with mock.patch.object(smallroad, "ENUMERATION_STEPS", steps):
        check_pattern_counts(game, rnd)


@examples(100)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_a_glance_at_a_revealed_cell_is_a_glance_at_the_revealed_position(
    game: Played, rnd: random.Random
) -> None:
    """100 games (tests/test_small.py plays 50)."""
    check_a_glance_at_a_revealed_cell(game, rnd)


@examples(400)
@given(played_games())
def test_played_positions_on_the_big_road_agree_with_bruteforce(played: Played) -> None:
    """400 games (tests/test_bigroad.py plays 200)."""
    check_played_positions_on_the_big_road(played)


@examples(300)
@given(*BOTH_ROADS)
def test_the_big_road_answers_as_the_general_road(played: Played, rnd: random.Random, rate: float) -> None:
    """300 games (tests/test_bigroad.py plays 150)."""
    check_both_roads(played, rnd, rate)


def test_sigkill_loses_only_games_in_flight(tmp_path: Path) -> None:
    """2400 games, killed within 0.5 s of the first batch stored (tests/test_simulate.py: 1200, 0.25 s)."""
    kill_a_run_and_finish_it(tmp_path, 2400, 0.5)


def test_the_server_answers_perfect_play_on_a_covered_40x40_board() -> None:
    """The search run 6 s before it is cut (tests/test_perfect_limits.py cuts it at 2 s)."""
    ask_the_server_perfect_play_on_a_covered_40x40_board(6.0)


@examples(300)
@given(played_games())
def test_local_rules_are_only_a_shortcut(game: Played) -> None:
    """300 games (tests/test_engine.py plays 150)."""
    check_local_rules(game)


@examples(150)
@given(played_games())
def test_incremental_model_answers_like_a_fresh_build(game: Played) -> None:
    """150 games (tests/test_engine.py plays 75)."""
    check_incremental_model(game)


@examples(300)
@given(played_games())
def test_certainties_by_feasibility_match_exact_counting(game: Played) -> None:
    """300 games (tests/test_engine.py plays 150)."""
    check_certainties_by_feasibility(game)


@examples(200)
@given(played_games(max_steps=10), st.randoms(use_true_random=False))
def test_a_glance_reads_what_the_analysis_gives(game: Played, rnd: random.Random) -> None:
    """200 games (tests/test_small.py plays 100)."""
    check_a_glance_reads_the_analysis(game, rnd)


@examples(150)
@given(played_games())
def test_propagation_proves_only_what_holds_and_what_numbers_force(game: Played) -> None:
    """150 games (tests/test_analysis_budgets.py plays 75)."""
    check_propagation(game)


def test_the_text_shows_the_best_starts_when_thousands_are_tried() -> None:
    """1000x1000 with no mine: 125 250 classes of starts, a 1.7 MB line were they all named
    (tests/test_cli_perfect.py: 100x100, 1 275)."""
    check_the_best_starts_shown(1000, 125250)
