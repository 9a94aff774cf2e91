"""The page of ``minesat serve`` driven in a real headless Chromium (Playwright, the system's browser).

Driven through the stable hooks of SPEC section 17 (``data-testid``) where there is one, and
otherwise through what a player sees: the line under the board that describes the cell pointed
at, the panels' text. The board is a canvas: a cell is reached by its centre, which the board
answers (``element.board.center("C3")``, scrolling it into view). One server and one browser
serve the whole module; each test opens its own page (and checks it raised no error). They skip,
saying why, where Playwright or Chromium is absent; ``MINESAT_CHROMIUM`` names the browser when
it is not on the PATH.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import urllib.request
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

#: True once the game is over (the SPEC hook says won or lost).
GAME_OVER = "['won', 'lost'].includes(document.querySelector('[data-testid=game-status]').textContent)"

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


class Pages:
    """Opens pages (in fresh browser contexts when asked) and collects their errors."""

    def __init__(self, browser: Any, url: str) -> None:
        self.browser, self.url = browser, url
        self.errors: list[str] = []
        self.contexts: list[Any] = []

    def open(self, where: str = "", width: int = 1400, height: int = 900, **context: Any) -> Any:
        ctx = self.browser.new_context(viewport={"width": width, "height": height}, **context)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.goto(self.url + where)
        if not where or where.startswith("#analyse"):
            page.wait_for_function(ANALYSED + " && document.getElementById('a-board').dataset.analysed !== undefined")
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Any, url: str) -> Iterator[Pages]:
    opened = Pages(browser, url)
    yield opened
    opened.close()
    assert not opened.errors, opened.errors


@pytest.fixture
def page(pages: Pages) -> Any:
    """The page as it opens: Analyse, on a sample position, analysed."""
    return pages.open()


def at(page: Any, board: str, name: str) -> tuple[float, float]:
    """The centre of cell ``name`` on board ``a-board`` or ``p-board``, scrolled into view."""
    point = page.evaluate(f"document.getElementById('{board}').board.center({name!r})")
    return point["x"], point["y"]


def click(page: Any, board: str, name: str, button: str = "left") -> None:
    x, y = at(page, board, name)
    page.mouse.click(x, y, button=button)


def point(page: Any, board: str, name: str) -> str:
    """Points at a cell; the line under the board that describes it."""
    x, y = at(page, board, name)
    page.mouse.move(x, y)
    line = "a-hover" if board == "a-board" else "p-hover"
    page.wait_for_function(f"document.getElementById('{line}').textContent.startsWith({name + ':'!r})")
    return page.inner_text(f"#{line}")


def paste(page: Any, text: str) -> None:
    page.get_by_test_id("tab-analyse").click()
    page.get_by_test_id("board-text").fill(text)
    version = page.evaluate("document.getElementById('a-board').dataset.version")
    page.get_by_test_id("load").click()
    page.wait_for_function(f"document.getElementById('a-board').dataset.version !== {version!r} && {ANALYSED}")


def new_game(page: Any, rows: int, cols: int, mines: int, seed: int | str | None = None, rule: str = "opening") -> None:
    page.get_by_test_id("tab-play").click()
    page.select_option("#p-preset", "custom")
    page.fill("#p-rows", str(rows))
    page.fill("#p-cols", str(cols))
    page.fill("#p-mines", str(mines))
    page.select_option("#p-rule", rule)
    page.fill("#p-seed", "" if seed is None else str(seed))
    page.get_by_test_id("new-game").click()
    page.wait_for_function("document.getElementById('p-board').dataset.status === 'playing'")


def moves_made(page: Any) -> int:
    return int(page.evaluate("document.getElementById('p-board').dataset.moves"))


def play(page: Any, name: str, button: str = "left") -> None:
    """Clicks a cell of the game and waits for the move's answer."""
    before = moves_made(page)
    click(page, "p-board", name, button)
    page.wait_for_function(f"Number(document.getElementById('p-board').dataset.moves) > {before}")


def api(url: str, path: str, body: object | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path.lstrip("/"), data=data, method="POST" if data is not None else "GET",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


# --- Analyse --------------------------------------------------------------------------------------


def test_a_position_built_by_clicking_shows_the_exact_probabilities(page: Any) -> None:
    page.fill("#a-rows", "3")
    page.fill("#a-cols", "4")
    page.fill("#a-mines", "3")
    page.click("#a-new")
    click(page, "a-board", "A1")  # covered -> 1
    click(page, "a-board", "B1")
    click(page, "a-board", "B1")  # -> 2
    at(page, "a-board", "C1")
    point(page, "a-board", "C1")
    page.keyboard.press("1")  # keyboard: C1 is a 1
    page.wait_for_function(ANALYSED)
    position = Position.from_rows(["1???", "2???", "1???"], mines=3)
    truth = solve(position)
    for r in range(3):
        for c in range(1, 4):
            said = point(page, "a-board", cell_name((r, c)))
            p = truth.probability[(r, c)]
            if p == 0:
                assert said.endswith("proven safe"), said
            elif p == 1:
                assert said.endswith("proven mine"), said
            else:
                assert f"mine probability {float(p) * 100:.2f}%" in said, (said, p)
    assert any(truth.probability[(r, c)] not in (0, 1) for r in range(3) for c in range(1, 4))
    assert page.get_by_test_id("analysis-summary").inner_text().startswith(
        f"{len(truth.safe)} proven safe, {len(truth.mine)} proven mines")
    # Pointing at a proven cell says why.
    proven = next((r, c) for r in range(3) for c in range(1, 4) if truth.probability[(r, c)] in (0, 1))
    point(page, "a-board", cell_name(proven))
    page.wait_for_function("document.getElementById('a-why').textContent.includes('because of')")
    # Few cells covered: perfect play comes by itself, its chance exact.
    page.wait_for_function("document.getElementById('a-perfect').textContent.includes('Chance to win')")


def test_a_pasted_board_is_read_and_a_bad_one_named_by_line_and_column_where_it_was_pasted(page: Any) -> None:
    paste(page, "# mines: 1\n1?\n??\n")
    summary = page.get_by_test_id("analysis-summary").inner_text()
    assert "3 uncertain" in summary
    assert "33.33%" in point(page, "a-board", "A2")
    # A bad paste: the message by the text box, in the page's words; the board and its analysis stay
    # as they were (no red error over an analysis it does not belong to).
    page.get_by_test_id("board-text").fill("1?\nx?\n")
    page.get_by_test_id("load").click()
    page.wait_for_function("document.getElementById('a-load-status').textContent.includes('line 2, column 1')")
    assert "board:" not in page.inner_text("#a-load-status")
    assert page.get_by_test_id("analysis-summary").inner_text() == summary
    assert "33.33%" in point(page, "a-board", "A2")


def test_perfect_play_ranks_every_move_best_first_the_best_starred(page: Any) -> None:
    rows = ["????", "?11?", "????", "????"]
    paste(page, "# mines: 3\n" + "\n".join(rows) + "\n")
    assert "14 uncertain" in page.get_by_test_id("analysis-summary").inner_text()
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
        assert starred == ("top" in cls) == (expected.wins == best), move
    assert sum("top" in cls for cls, *_ in shown) == 4  # A2, A3, C2, C3 tie
    # Pointing at a ranked move outlines its cell on the board.
    page.hover("#a-ranking tbody tr:nth-child(5)")
    name = shown[4][1].removeprefix("★ ")
    r, c = ord(name[0]) - 65, int(name[1:]) - 1
    assert page.evaluate("document.getElementById('a-board').board.extra.pointed") == r * 4 + c


# --- Play -----------------------------------------------------------------------------------------


def test_a_game_played_to_its_end_by_hints_is_reviewed(page: Any) -> None:
    new_game(page, 6, 6, 7, seed=11)
    play(page, "C3")
    assert page.inner_text("#p-last").startswith("C3: first click")
    page.check("#p-hint")
    for _ in range(40):
        if page.evaluate(GAME_OVER):
            break
        page.wait_for_function("document.getElementById('p-best').textContent.startsWith('Hint')")
        hint = page.inner_text("#p-best")
        name = re.search(r"best plays ([A-Z]+[0-9]+)", hint).group(1)
        play(page, name, "right" if "proven mine" in hint else "left")
    assert page.get_by_test_id("game-status").inner_text() in ("won", "lost")
    page.wait_for_selector("#p-review:not([hidden])")
    viewer = page.frame_locator("#p-viewer")
    assert "Your game" in viewer.locator("h1").inner_text()
    assert "result" in viewer.locator(".summary").inner_text().lower()


# --- Review ---------------------------------------------------------------------------------------


def test_a_replay_opens_in_the_viewer(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "tiny.rmv"
    path.write_bytes(rmv2(rmv_mouse(3, 0, 20, 5) + rmv_mouse(5, 10, 20, 5)))
    page.get_by_test_id("tab-review").click()
    page.set_input_files("#r-file", str(path))
    page.wait_for_selector("#r-review:not([hidden])")
    assert page.inner_text("#r-status").startswith("tiny.rmv: 1x2")
    assert "tiny.rmv" in page.frame_locator("#r-viewer").locator("h1").inner_text()
