"""The player's games stay the same, game for game, whatever the engine does inside.

The fixture was recorded by ``tests/game_fixture.py`` (see there); speed-ups of
the engine and the game loop must reproduce every outcome, move and guess
probability exactly.
"""

from __future__ import annotations

import json

import pytest

from game_fixture import FIXTURE, SUITES, play_suite

RECORDED = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("suite", SUITES, ids=[s[0] for s in SUITES])
def test_games_match_the_recorded_ones(suite: tuple) -> None:
    label, rows, cols, mines, rule, start, strategy, games = suite
    played = play_suite(rows, cols, mines, rule, start, strategy, games)
    recorded = RECORDED[label]
    assert len(recorded) == games
    for i, (now, then) in enumerate(zip(played, recorded, strict=True)):
        assert now == then, f"{label} game {i} differs"
