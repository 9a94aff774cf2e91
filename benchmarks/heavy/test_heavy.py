"""The suite's slowest checks in full (minutes of CPU): see conftest.py.

Each test names its twin in ``tests/``, which runs the same check on fewer or smaller cases.
"""

from __future__ import annotations

import pytest

from test_engine import count_long_chain
from test_game import open_empty_board
from test_player import play_dense


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
