"""The page of ``minesat serve`` driven in a real headless Chromium (Playwright, the system's browser).

They build a position by clicking and read its probabilities off the board
(checked against brute force), play a game to its end and its review, and
open a replay. They skip, saying why, where Playwright or Chromium is absent;
``MINESAT_CHROMIUM`` names the browser when it is not on the PATH.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'minesat[web]')")
pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install playwright")

from playwright.sync_api import sync_playwright

from bruteforce import solve
from minesat.board import Position, cell_name
from minesat.perfect import rank_moves
from test_replay_formats import rmv2, rmv_mouse
from test_web import start_server

#: True in the page once the board shown has been analysed.
ANALYSED = "(b => b.dataset.analysed === b.dataset.version)(document.getElementById('a-board'))"

#: How Chromium is started: headless, and quiet (no updates, no sync, no first-run pages).
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def chromium() -> str | None:
    given = os.environ.get("MINESAT_CHROMIUM")
    if given:
        return given
    names = ("chromium", "chromium-browser", "google-chrome")
    return next((p for name in names if (p := shutil.which(name))), None)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    process, address = start_server()
    try:
        yield address
    finally:
        process.terminate()
        process.wait(15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium()
    if path is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set MINESAT_CHROMIUM)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, url: str) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    # The page opens on a sample position, analysed.
    page.wait_for_function("document.getElementById('a-status').textContent.includes('proven safe')")
    yield page
    page.close()
    assert not errors, errors


def cell(page: Any, board: str, name: str, cols: int) -> Any:
    r, c = ord(name[0]) - 65, int(name[1:]) - 1
    return page.locator(f"#{board} [data-i='{r * cols + c}']")


def test_a_position_built_by_clicking_shows_the_exact_probabilities(page: Any) -> None:
    page.fill("#a-rows", "3")
    page.fill("#a-cols", "4")
    page.fill("#a-mines", "3")
    page.click("#a-new")
    cell(page, "a-board", "A1", 4).click()  # covered -> 1
    cell(page, "a-board", "B1", 4).click()
    cell(page, "a-board", "B1", 4).click()  # -> 2
    cell(page, "a-board", "C1", 4).hover()
    page.keyboard.press("1")  # keyboard: C1 is a 1
    page.wait_for_function(ANALYSED)
    position = Position.from_rows(["1???", "2???", "1???"], mines=3)
    truth = solve(position)
    for r in range(3):
        for c in range(1, 4):
            title = cell(page, "a-board", cell_name((r, c)), 4).get_attribute("title")
            p = truth.probability[(r, c)]
            if p == 0:
                assert title.endswith("proven safe"), title
            elif p == 1:
                assert title.endswith("proven mine"), title
            else:
                assert title.endswith(f"mine probability {float(p) * 100:.2f}%"), (title, p)
    assert any(truth.probability[(r, c)] not in (0, 1) for r in range(3) for c in range(1, 4))
    # Pointing at a proven cell says why.
    proven = next((r, c) for r in range(3) for c in range(1, 4) if truth.probability[(r, c)] in (0, 1))
    cell(page, "a-board", cell_name(proven), 4).hover()
    page.wait_for_function("document.getElementById('a-why').textContent.includes('because of')")
    # Few cells covered: perfect play comes by itself, its chance exact.
    page.wait_for_function("document.getElementById('a-perfect').textContent.includes('Chance to win')")
    assert "of" in page.inner_text("#a-perfect")


def test_a_pasted_board_is_read_and_a_bad_one_named_by_line_and_column(page: Any) -> None:
    page.fill("#a-text", "# mines: 1\n1?\n??\n")
    page.click("#a-load")
    page.wait_for_function("document.getElementById('a-status').textContent.includes('3 uncertain')")
    assert "33.33%" in cell(page, "a-board", "A2", 2).get_attribute("title")
    page.fill("#a-text", "1?\nx?\n")
    page.click("#a-load")
    page.wait_for_function("document.getElementById('a-status').textContent.includes('board:2:1')")


def test_perfect_play_ranks_every_move_best_first_the_best_starred(page: Any) -> None:
    rows = ["????", "?11?", "????", "????"]
    page.fill("#a-text", "# mines: 3\n" + "\n".join(rows) + "\n")
    page.click("#a-load")
    page.wait_for_function("document.getElementById('a-status').textContent.includes('14 uncertain')")
    # 14 covered cells: more than perfect play starts by itself, so it waits for Compute.
    assert page.locator("#a-ranking tbody tr").count() == 0
    page.click("#a-perfect-go")
    page.wait_for_function("document.querySelectorAll('#a-ranking tbody tr').length > 0")
    shown = page.eval_on_selector_all(
        "#a-ranking tbody tr",
        "trs => trs.map(tr => [tr.className, ...[...tr.cells].map(td => td.textContent)])",
    )
    ranking = rank_moves(Position.from_rows(rows, mines=3))
    assert len(shown) == len(ranking) == 14
    best = ranking[0].wins
    for (cls, move, chance, wins), expected in zip(shown, ranking, strict=True):
        starred = move.startswith("★ ")
        assert move.removeprefix("★ ") == cell_name(expected.cell)
        assert chance == f"{expected.wins / expected.layouts * 100:.2f}%", (move, chance)
        assert int(wins) == expected.wins
        assert starred == (cls == "top") == (expected.wins == best), move
    assert sum(cls == "top" for cls, *_ in shown) == 4  # A2, A3, C2, C3 tie
    assert "chance to win" in page.inner_text("#a-ranking thead")
    # Pointing at a ranked move outlines its cell on the board.
    page.hover("#a-ranking tbody tr:nth-child(5)")
    assert "pointed" in cell(page, "a-board", shown[4][1].removeprefix("★ "), 4).get_attribute("class")


def test_a_game_played_to_its_end_is_reviewed(page: Any) -> None:
    page.click("#tab-play")
    page.select_option("#p-preset", "custom")
    page.fill("#p-rows", "6")
    page.fill("#p-cols", "6")
    page.fill("#p-mines", "7")
    page.fill("#p-seed", "11")
    page.click("#p-new")
    cell(page, "p-board", "C3", 6).click()
    page.wait_for_function("document.getElementById('p-last').textContent.startsWith('C3: first click')")
    page.check("#p-hint")
    for _ in range(40):
        if page.inner_text("#p-state") in ("won!", "lost"):
            break
        page.wait_for_function("document.getElementById('p-best').textContent.startsWith('Hint')")
        hint = page.inner_text("#p-best")
        name = re.search(r"best plays ([A-Z]+[0-9]+)", hint).group(1)
        target = cell(page, "p-board", name, 6)
        moves = page.evaluate("document.getElementById('p-last').textContent")
        if "proven mine" in hint:
            target.click(button="right")
        else:
            target.click()
        page.wait_for_function(f"document.getElementById('p-last').textContent !== {moves!r}")
    assert page.inner_text("#p-state") in ("won!", "lost")
    page.wait_for_selector("#p-review:not([hidden])")
    viewer = page.frame_locator("#p-viewer")
    assert "Your game" in viewer.locator("h1").inner_text()
    assert "result" in viewer.locator(".summary").inner_text().lower()


def test_a_replay_opens_in_the_viewer(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "tiny.rmv"
    path.write_bytes(rmv2(rmv_mouse(3, 0, 20, 5) + rmv_mouse(5, 10, 20, 5)))
    page.click("#tab-review")
    page.set_input_files("#r-file", str(path))
    page.wait_for_selector("#r-review:not([hidden])")
    assert page.inner_text("#r-status").startswith("tiny.rmv: 1x2")
    assert "tiny.rmv" in page.frame_locator("#r-viewer").locator("h1").inner_text()
