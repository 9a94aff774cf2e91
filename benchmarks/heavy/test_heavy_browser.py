"""The browser tests' heaviest checks in full (see conftest.py): a 300x300 position pasted, and the
36x60 sample replay, whose review runs on after its moves are shown. They use the server, the
browser and the tab of ``tests/test_web_browser.py``, and skip where it does."""

from __future__ import annotations

from typing import Any

import test_web_browser as suite

# The suite's fixtures, by their names: one server, one browser and one tab for the module.
url, browser, tab, pages, page = suite.url, suite.browser, suite.tab, suite.pages, suite.page


def test_a_pasted_300x300_position_shows_its_analysis_summarised_and_answers_the_pointer(page: Any) -> None:
    """90,000 cells (tests/test_web_browser.py pastes 150x150)."""
    suite.check_a_pasted_big_position(page, 300, [(5, 200), (250, 290), (299, 299)])


def test_the_36x60_sample_opens_in_review_its_moves_at_once_its_analysis_after(page: Any) -> None:
    """1,298 moves, judged for longer than the page waits (tests/test_web_browser.py opens an expert game)."""
    suite.check_a_sample_opens_in_review(page, "metasweeper-36x60.evf", 1299, "safe")
