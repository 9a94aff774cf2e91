"""The web API's heaviest checks in full (see conftest.py). They use the app of
``tests/test_web.py``, and skip where it does."""

from __future__ import annotations

import pytest

import test_web as suite

# The suite's fixture, by its name: one app for the module.
client = suite.client


def test_autoplay_in_batches_plays_the_same_game(
    client: suite.TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An expert game, 37 moves a batch (tests/test_web.py: an intermediate game, 7 a batch)."""
    suite.check_autoplay_in_batches(client, monkeypatch, "expert", 37)
