"""The page of ``minesat serve`` driven in a real headless Chromium (Playwright, the system's browser).

Driven through the stable hooks of SPEC section 17 (``data-testid``) where there is one, and
otherwise through what a player sees: the line under the board that describes the cell pointed
at, the panels' text. The board is a canvas: a cell is reached by its centre, which the board
answers (``element.board.center("C3")``, scrolling it into view). One server and one browser
serve the whole module, and one tab, lent to each test in turn as a fresh page (and checked
for errors); a second page of a test opens in a fresh browser context. Their contexts let
Playwright's own waiting (a script evaluated from a string) past the page's Content-Security-
Policy; the test of that policy opens the page under it. They skip,
saying why, where Playwright or Chromium is absent; ``MINESAT_CHROMIUM`` names the browser when
it is not on the PATH.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'minesat[web]')")
pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install playwright")

from playwright.sync_api import expect, sync_playwright

from bruteforce import solve
from minesat.analysis import analyze
from minesat.board import COVERED, Layout, Position, cell_name
from minesat.formats import format_position, parse_position
from minesat.perfect import rank_moves
from test_replay_formats import rmv2, rmv_mouse
from test_web import start_server

#: Analyse's board, in the page.
BOARD = "document.getElementById('a-board')"

#: True in the page once the board shown has been analysed.
ANALYSED = f"(b => b.dataset.analysed === b.dataset.version)({BOARD})"

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


class Tab:
    """The module's tab, lent to one test at a time: a page opens in a fresh browser context for
    about 1.0 s of CPU (a new renderer process and its first paint), a lent tab in 0.55 s.

    Each loan starts as a fresh context would: the last test's local storage cleared (the only
    storage the page keeps), its document unloaded (through a document of the same server, or
    ``about:blank``), the viewport as asked, and the page loaded anew. What a test hooks on the
    tab (listeners, routes) is taken off when it gives the tab back; everything else reaches the
    page itself.
    """

    def __init__(self, page: Any) -> None:
        self._page = page
        self._hooks: list[tuple[str, Any]] = []
        self._routes: list[tuple[Any, Any]] = []

    def lend(self, address: str, width: int, height: int) -> Tab:
        page = self._page
        parts = urlsplit(address)
        origin = f"{parts.scheme}://{parts.netloc}"
        if page.url.startswith(origin + "/"):
            page.evaluate("localStorage.clear()")
            # Unloaded through a document of the same server rather than about:blank: the
            # renderer is kept, where the hop through about:blank starts two new renderer
            # processes, some 0.1 s of CPU a test. It is a navigation all the same, as about:blank
            # is (a reload would bring back the last test's scroll position).
            page.goto(origin + "/api/meta")
        else:
            if page.url.startswith(("http://", "https://")):
                page.evaluate("localStorage.clear()")
            page.goto("about:blank")
        page.set_viewport_size({"width": width, "height": height})
        page.goto(address)
        return self

    def on(self, event: str, handler: Any) -> None:
        self._page.on(event, handler)
        self._hooks.append((event, handler))

    def route(self, url: Any, handler: Any, **options: Any) -> None:
        self._page.route(url, handler, **options)
        self._routes.append((url, handler))

    def give_back(self) -> None:
        for event, handler in self._hooks:
            self._page.remove_listener(event, handler)
        for url, handler in self._routes:
            self._page.unroute(url, handler)
        self._hooks.clear()
        self._routes.clear()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    yield Tab(context.new_page())
    context.close()


@pytest.fixture(scope="module")
def clock_tab(browser: Any) -> Iterator[Tab]:
    """A second tab for the tests that move the page's clock on (``page.clock.fast_forward``)
    rather than wait for it. Playwright's clock is installed on a whole context and stays there:
    in a context of its own, the other tests keep the browser's real timers. Until a test moves
    it, the clock follows real time."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    context.clock.install()
    yield Tab(context.new_page())
    context.close()


class Pages:
    """Opens pages and collects their errors: the first of a test in the module's tab (unless it
    asks for a browser context of its own: touch, a phone), the others each in a fresh context.
    ``clock=True`` gives a page whose clock the test moves on: the module's clock tab, or a fresh
    context with the clock installed."""

    def __init__(self, browser: Any, url: str, tab: Tab, request: pytest.FixtureRequest) -> None:
        self.browser, self.url, self.tab = browser, url, tab
        self.request = request
        self.errors: list[str] = []
        self.contexts: list[Any] = []
        self.lent: list[Tab] = []

    def open(
        self, where: str = "", width: int = 1400, height: int = 900, clock: bool = False, **context: Any
    ) -> Any:
        tab = self.request.getfixturevalue("clock_tab") if clock else self.tab
        if tab not in self.lent and not context:
            self.lent.append(tab)
            tab.on("pageerror", lambda err: self.errors.append(str(err)))
            page = tab.lend(self.url + where, width, height)
        else:
            ctx = self.browser.new_context(viewport={"width": width, "height": height},
                                           **{"bypass_csp": True, **context})
            self.contexts.append(ctx)
            if clock:
                ctx.clock.install()
            page = ctx.new_page()
            page.on("pageerror", lambda err: self.errors.append(str(err)))
            page.goto(self.url + where)
        # The page's modules wait for /api/meta before they attach their handlers: a file set or
        # a click before that would be lost.
        page.wait_for_function("document.documentElement.dataset.ready === 'true'")
        if not where or where.startswith("#analyse"):
            page.wait_for_function(f"{BOARD}.dataset.analysed !== undefined && {ANALYSED}")
        return page

    def close(self) -> None:
        for tab in self.lent:
            tab.give_back()
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Any, url: str, tab: Tab, request: pytest.FixtureRequest) -> Iterator[Pages]:
    opened = Pages(browser, url, tab, request)
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
    version = page.evaluate(f"{BOARD}.dataset.version")
    page.get_by_test_id("load").click()
    page.wait_for_function(f"{BOARD}.dataset.version !== {version!r} && {ANALYSED}")


def new_game(
    page: Any, rows: int, cols: int, mines: int, seed: int | str | None = None, rule: str = "opening"
) -> None:
    page.get_by_test_id("tab-play").click()
    page.select_option("#p-preset", "custom")
    page.fill("#p-rows", str(rows))
    page.fill("#p-cols", str(cols))
    page.fill("#p-mines", str(mines))
    page.select_option("#p-rule", rule)
    page.fill("#p-seed", "" if seed is None else str(seed))
    before = page.evaluate("document.getElementById('p-board').dataset.game || ''")
    page.get_by_test_id("new-game").click()
    page.wait_for_function(f"(b => b.dataset.game !== {before!r} && b.dataset.status === 'playing')"
                           "(document.getElementById('p-board'))")


def new_preset_game(page: Any, preset: str = "beginner", seed: str = "", rule: str = "opening") -> None:
    """A new game of a preset (its seed drawn by the server unless one is given)."""
    page.get_by_test_id("tab-play").click()
    page.select_option("#p-preset", preset)
    page.select_option("#p-rule", rule)
    page.fill("#p-seed", seed)
    before = page.evaluate("document.getElementById('p-board').dataset.game || ''")
    page.get_by_test_id("new-game").click()
    page.wait_for_function(f"(b => b.dataset.game !== {before!r} && b.dataset.status === 'playing')"
                           "(document.getElementById('p-board'))")


def moves_made(page: Any) -> int:
    return int(page.evaluate("document.getElementById('p-board').dataset.moves"))


def count_requests(page: Any) -> None:
    """From now on the page keeps the paths of the requests it starts (``requests_started``). It
    keeps them as ``fetch`` is called: a request that a timer starts is there by the time the
    timer's task ends, before its answer comes."""
    page.evaluate("""() => {
        const fetch = window.fetch;
        window.requestsStarted = [];
        window.fetch = (path, ...rest) => {
            window.requestsStarted.push(String(path));
            return fetch(path, ...rest);
        };
    }""")


def requests_started(page: Any) -> list[str]:
    return list(page.evaluate("window.requestsStarted"))


def play(page: Any, name: str, button: str = "left") -> None:
    """Clicks a cell of the game and waits for the move's answer."""
    before = moves_made(page)
    click(page, "p-board", name, button)
    page.wait_for_function(f"Number(document.getElementById('p-board').dataset.moves) > {before}")


def says(page: Any, element: str, text: str) -> None:
    """Waits until the element of that id says ``text``."""
    page.wait_for_function(f"document.getElementById({element!r}).textContent.includes({text!r})")


def api(url: str, path: str, body: object | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url + path.lstrip("/"), data=data, method="GET" if data is None else "POST",
        headers={"Content-Type": "application/json"},
    )
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
    says(page, "a-load-status", "line 2, column 1:")
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
    assert page.evaluate(f"{BOARD}.board.extra.pointed") == r * 4 + c


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
        name = re.search(r"Hint: (?:uncover|flag|guess) ([A-Z]+[0-9]+)", hint).group(1)
        play(page, name, "right" if hint.startswith("Hint: flag") else "left")
    assert page.get_by_test_id("game-status").inner_text() in ("won", "lost")
    page.wait_for_selector("#p-review:not([hidden])")
    viewer = page.frame_locator("#p-viewer")
    assert "Your game" in viewer.locator("h1").inner_text()
    assert "result" in viewer.locator(".summary").inner_text().lower()
    # Played with hints: counted apart from the games played alone, and a win says so.
    stats = page.inner_text("#p-stats tbody")
    assert re.search(r"^6x6/7, hints\s+1\s", stats, re.M), stats
    if page.get_by_test_id("game-status").inner_text() == "won":
        assert page.inner_text("#p-end-head") == "Won (with hints)!"


# --- Review ---------------------------------------------------------------------------------------


def test_a_replay_opens_in_the_viewer(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "tiny.rmv"
    path.write_bytes(rmv2(rmv_mouse(3, 0, 20, 5) + rmv_mouse(5, 10, 20, 5)))
    page.get_by_test_id("tab-review").click()
    page.set_input_files("#r-file", str(path))
    page.wait_for_selector("#r-review:not([hidden])")
    assert page.inner_text("#r-status").startswith("tiny.rmv: 1x2")
    assert "tiny.rmv" in page.frame_locator("#r-viewer").locator("h1").inner_text()


# --- Keep and share ---------------------------------------------------------------------------------


def test_the_tab_is_in_the_url_so_reload_and_back_behave(page: Any) -> None:
    page.get_by_test_id("tab-play").click()
    assert page.evaluate("location.hash").startswith("#play")
    page.reload()
    page.wait_for_selector("#play:not([hidden])")
    assert page.is_hidden("#analyse")
    page.get_by_test_id("tab-review").click()
    page.go_back()
    page.wait_for_selector("#play:not([hidden])")
    page.go_back()  # to where the page opened: Analyse, still this page
    page.wait_for_selector("#analyse:not([hidden])")
    assert page.url.startswith(page.evaluate("location.origin"))


def test_share_gives_a_link_that_shows_the_same_analysis_in_a_fresh_browser(pages: Pages) -> None:
    page = pages.open()
    paste(page, "# mines: 4\n1??1\n????\n2???\n")
    click(page, "a-board", "B4")  # an edit after the paste: the link has it too
    page.wait_for_function(ANALYSED)
    summary = page.get_by_test_id("analysis-summary").inner_text()
    said = point(page, "a-board", "C2")
    link = share(page)
    fresh = pages.open(link.removeprefix(pages.url))
    assert fresh.get_by_test_id("analysis-summary").inner_text() == summary
    assert point(fresh, "a-board", "C2") == said
    assert point(fresh, "a-board", "B4").startswith("B4: the number 1")


def test_share_gives_a_link_to_the_game_so_far_its_options_seed_and_moves(pages: Pages) -> None:
    page = pages.open("#play")
    new_game(page, 8, 10, 12, seed=4242)
    play(page, "D5")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    name = cell_name(divmod(covered, 10))
    play(page, name, "right")  # a flag: a move the link keeps too
    cells = page.evaluate("Array.from(document.getElementById('p-board').board.states)")
    link = share(page)
    fresh = pages.open(link.removeprefix(pages.url))
    fresh.wait_for_function("document.getElementById('p-board').dataset.moves === '2'")
    assert fresh.evaluate("Array.from(document.getElementById('p-board').board.states)") == cells
    assert fresh.get_by_test_id("game-status").inner_text() == "playing"
    assert fresh.input_value("#p-seed") == "4242"
    # A reload is the same: the game in progress comes back at the same move.
    page.reload()
    page.wait_for_function("document.getElementById('p-board').dataset.moves === '2'")
    assert page.evaluate("Array.from(document.getElementById('p-board').board.states)") == cells


def test_a_position_downloads_as_text_and_as_mbf_once_every_mine_is_known(page: Any, tmp_path: Path) -> None:
    paste(page, "# mines: 2\n*2?\n121\n")  # A1 flagged, A3 proven a mine: both mines known
    with page.expect_download() as text:
        page.click("#a-save-text")
    assert Path(text.value.path()).read_text() == "# mines: 2\n*2?\n121\n"
    with page.expect_download() as binary:
        page.click("#a-save-mbf")
    # Width, height, the count in two bytes, then (column, row) of each mine.
    assert Path(binary.value.path()).read_bytes() == bytes([3, 2, 0, 2, 0, 0, 2, 0])
    paste(page, "# mines: 1\n1?\n??\n")  # the mine is not known: no layout to save
    page.click("#a-save-mbf")
    assert "every mine must be flagged or proven" in page.inner_text("#a-save-status")


def share(page: Any) -> str:
    """Presses Share; the link it gives."""
    page.get_by_test_id("share").click()
    page.wait_for_function("document.querySelector('[data-testid=share-link]').value.startsWith('http://')")
    return page.get_by_test_id("share-link").input_value()


def drop(page: Any, target: str, name: str, content: bytes) -> bool:
    """Drops a file on an element; whether the page kept the browser from opening it."""
    return page.evaluate(
        """([target, name, bytes]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([new Uint8Array(bytes)], name));
            const el = document.querySelector(target);
            const over = new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true});
            el.dispatchEvent(over);
            const drop = new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true});
            el.dispatchEvent(drop);
            return over.defaultPrevented && drop.defaultPrevented;
        }""",
        [target, name, list(content)],
    )


def test_a_file_dropped_anywhere_goes_to_its_tab_and_the_page_stays(page: Any) -> None:
    replay = rmv2(rmv_mouse(3, 0, 20, 5) + rmv_mouse(5, 10, 20, 5))
    assert drop(page, "header h1", "tiny.rmv", replay)  # not on the drop zone, not on the Review tab
    page.wait_for_selector("#r-review:not([hidden])")
    assert page.evaluate("location.hash") == "#review"
    assert drop(page, "#r-drop", "board.txt", b"# mines: 1\n1?\n??\n")
    page.wait_for_selector("#analyse:not([hidden])")
    page.wait_for_function(f"{BOARD}.dataset.rows === '2' && " + ANALYSED)
    assert "3 uncertain" in page.get_by_test_id("analysis-summary").inner_text()


# --- Every way to play -------------------------------------------------------------------------------


def test_keys_go_to_the_cell_under_the_pointer_and_never_to_a_focused_control(page: Any) -> None:
    # Analyse: the mines field focused, 3 over a cell sets the cell, and the field keeps its 10.
    page.click("#a-new")
    page.click("#a-mines")
    point(page, "a-board", "E5")
    page.keyboard.press("3")
    page.wait_for_function(ANALYSED)
    assert point(page, "a-board", "E5") == "E5: the number 3"
    assert page.input_value("#a-mines") == "10"
    # Play: after a click on the hints box, Space over a cell flags it and leaves the box alone.
    new_game(page, 9, 9, 10, seed=3)
    play(page, "E5")
    page.click("#p-hint")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    name = cell_name(divmod(covered, 9))
    point(page, "p-board", name)
    before = moves_made(page)
    page.keyboard.press(" ")
    page.wait_for_function(f"document.getElementById('p-board').dataset.moves === '{before + 1}'")
    assert point(page, "p-board", name) == f"{name}: a flag (counted as a mine)"
    assert page.is_checked("#p-hint")


def test_keys_do_nothing_once_the_pointer_has_left_the_board_and_space_scrolls_the_page(page: Any) -> None:
    page.set_viewport_size({"width": 800, "height": 500})
    page.click("#a-new")
    point(page, "a-board", "I9")
    page.mouse.move(5, 300)  # off the board
    version = page.evaluate(f"{BOARD}.dataset.version")
    page.keyboard.press("5")
    page.keyboard.press("f")
    assert page.evaluate(f"{BOARD}.dataset.version") == version
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.click(5, 300)  # nothing focused: Space is the page's
    page.keyboard.press(" ")
    page.wait_for_function("window.scrollY > 0")


def test_a_new_board_says_nothing_of_the_previous_one(page: Any) -> None:
    point(page, "a-board", "D6")  # the sample: D6 is a mine, and the Why panel says why
    page.wait_for_function("document.getElementById('a-why').textContent.includes('D6 is a mine')")
    paste(page, "# mines: 5\n?????\n?????\n?????\n?????\n?????\n")
    assert "D6" not in page.inner_text("#a-why")
    assert "D6" not in page.inner_text("#a-hover")
    assert page.evaluate(f"{BOARD}.board.extra.proof") is None


def test_a_zero_and_a_flag_are_reachable_by_clicks_alone(page: Any) -> None:
    page.fill("#a-rows", "3")
    page.fill("#a-cols", "3")
    page.fill("#a-mines", "1")
    page.click("#a-new")
    page.click("#a-tools [data-tool='0']")
    click(page, "a-board", "A1")
    page.click("#a-tools [data-tool='flag']")
    click(page, "a-board", "C3")
    page.wait_for_function(ANALYSED)
    assert point(page, "a-board", "A1") == "A1: an empty cell (0)"
    assert point(page, "a-board", "C3") == "C3: a flag (counted as a mine)"
    # In Play, flag mode makes a click flag.
    new_game(page, 9, 9, 10, seed=5)
    play(page, "E5")
    page.click("#p-flagmode")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    name = cell_name(divmod(covered, 9))
    play(page, name)
    assert point(page, "p-board", name) == f"{name}: a flag (counted as a mine)"


def test_a_long_press_flags_on_a_touch_screen(pages: Pages) -> None:
    page = pages.open("#play", width=390, height=844, clock=True, has_touch=True, is_mobile=True)
    new_game(page, 9, 9, 10, seed=8)
    play(page, "E5")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    name = cell_name(divmod(covered, 9))
    x, y = at(page, "p-board", name)
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.clock.fast_forward(700)  # held 700 ms, past the long press's 450
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("document.getElementById('p-board').dataset.moves === '2'")
    assert "a flag" in point(page, "p-board", name)


# --- Defects: fields, messages, buttons -------------------------------------------------------------


@pytest.mark.parametrize(("field", "value", "said"), [
    ("#a-mines", "-5", "mines must be at least 0, not -5"),
    ("#a-mines", "2.7", "mines must be a whole number, not 2.7"),
    ("#a-rows", "0", "rows must be at least 1, not 0"),
    ("#a-rows", "1001", "rows must be at most 1,000, not 1001"),
])
def test_number_fields_are_checked_not_silently_changed(page: Any, field: str, value: str, said: str) -> None:
    version = page.evaluate(f"{BOARD}.dataset.version")
    page.fill(field, value)
    page.click("#a-new")
    assert said in page.inner_text("#a-size-status")
    assert page.evaluate(f"{BOARD}.dataset.version") == version
    assert page.input_value(field) == value


def test_a_board_of_500_rows_is_made_as_asked(page: Any) -> None:
    page.fill("#a-rows", "500")
    page.fill("#a-mines", "")
    page.click("#a-new")
    page.wait_for_function(f"{BOARD}.dataset.rows === '500' && " + ANALYSED)
    summary = page.get_by_test_id("analysis-summary").inner_text()
    assert summary.startswith("0 proven safe, 0 proven mines, 4500 uncertain")


def test_a_contradiction_is_marked_on_its_cell_and_perfect_play_is_off(page: Any) -> None:
    paste(page, "# mines: 1\n1?\n??\n?3\n")
    assert page.get_by_test_id("analysis-summary").inner_text().startswith("Impossible position: ")
    named = re.search(r"([A-Z]+[0-9]+):", page.get_by_test_id("analysis-summary").inner_text()).group(1)
    r, c = ord(named[0]) - 65, int(named[1:]) - 1
    assert page.evaluate(f"{BOARD}.board.extra.bad") == r * 2 + c
    assert page.is_disabled("#a-perfect-go")


def test_compute_is_off_while_perfect_play_runs(page: Any) -> None:
    paste(page, "# mines: 3\n????\n?11?\n????\n????\n")
    searches: list[str] = []
    page.on("request", lambda r: searches.append(r.url) if r.url.endswith("/api/perfect") else None)
    # Three clicks in a row (in one go, before any answer can come): one search.
    off = page.evaluate("""() => {
        const compute = document.getElementById('a-perfect-go');
        compute.click();
        const off = compute.disabled;
        compute.click();
        compute.click();
        return off;
    }""")
    assert off
    page.wait_for_function("document.querySelectorAll('#a-ranking tbody tr').length > 0")
    assert page.is_enabled("#a-perfect-go")
    assert len(searches) == 1


def test_an_error_on_a_board_built_in_the_page_names_its_cell(page: Any) -> None:
    page.fill("#a-rows", "2")
    page.fill("#a-cols", "2")
    page.fill("#a-mines", "1")
    page.click("#a-new")
    point(page, "a-board", "B2")
    page.keyboard.press("8")
    page.wait_for_function(ANALYSED)
    said = page.get_by_test_id("analysis-summary").inner_text()
    assert said.startswith("Bad board: B2: number 8 is larger than its 3 neighbours"), said


def test_a_game_that_cannot_start_is_refused_and_a_flag_before_the_first_click_is_kept(page: Any) -> None:
    page.get_by_test_id("tab-play").click()
    page.select_option("#p-preset", "custom")
    page.fill("#p-rows", "9")
    page.fill("#p-cols", "9")
    page.fill("#p-mines", "80")
    page.get_by_test_id("new-game").click()
    says(page, "p-new-status", "80 mines do not fit on a 9x9 board under the opening rule")
    assert page.get_by_test_id("game-status").inner_text() == "no game"
    new_game(page, 9, 9, 10, seed=2)
    click(page, "p-board", "A1", "right")  # before the first click: a flag all the same, no error
    page.wait_for_function("document.getElementById('p-board').board.states[0] === -2")
    assert point(page, "p-board", "A1") == "A1: a flag (counted as a mine)"
    assert page.inner_text("#p-left") == "9"
    assert "error" not in (page.get_attribute("#p-last", "class") or "")
    play(page, "E5")  # the first click; the flag is sent after it (unless the opening took A1)
    page.wait_for_function("document.getElementById('p-board').dataset.moves === '2' || "
                           "document.getElementById('p-board').board.states[0] >= 0")
    if page.evaluate("document.getElementById('p-board').board.states[0]") < 0:
        assert point(page, "p-board", "A1") == "A1: a flag (counted as a mine)"


def layout_file(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "layout.txt"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_the_end_of_a_game_says_what_happened(page: Any, tmp_path: Path) -> None:
    page.get_by_test_id("tab-play").click()
    page.evaluate("localStorage.clear()")
    new_game(page, 9, 9, 1, seed=3)
    play(page, "E5")  # one mine (not in a corner's nook): everything opens, won without a guess
    assert page.get_by_test_id("game-status").inner_text() == "won"
    assert page.inner_text("#p-left") == "0"  # the mine was never flagged
    assert page.inner_text("#p-guess-none") == "No guesses: every move was proven safe."
    end = page.inner_text("#p-end")
    assert end.startswith("Won")
    assert re.search(r"3BV\s+1\b", end), end
    assert re.search(r"guesses\s+none", end, re.IGNORECASE), end
    stats = page.inner_text("#p-stats")
    assert re.search(r"9x9/1\s+1\s+1 \(100 %\)\s+[0-9.]+ s", stats), stats
    mine = page.evaluate("document.getElementById('p-board').board.extra.mines.values().next().value")
    with page.expect_download() as layout:
        page.click("#p-save-mbf")
    assert Path(layout.value.path()).read_bytes() == bytes([9, 9, 0, 1, mine % 9, mine // 9])
    # A chosen layout file is named at once, before New game; it is played as it is.
    page.set_input_files("#p-layout", str(layout_file(tmp_path, ["*..", "...", "..."])))
    assert "layout.txt" in page.inner_text("#p-layout-name")
    page.get_by_test_id("new-game").click()
    page.wait_for_function("document.getElementById('p-board').dataset.moves === '0'")
    play(page, "A1")
    assert page.get_by_test_id("game-status").inner_text() == "lost"
    assert point(page, "p-board", "A1") == "A1: the mine that went off"
    assert page.inner_text("#p-end-head").startswith("Lost")
    stats = page.inner_text("#p-stats")
    assert re.search(r"3x3/1 \(layout file\)\s+1\s+0 \(0 %\)", stats), stats


def test_the_review_of_a_game_fits_its_frame_and_the_end_panel_leads_to_it(
    pages: Pages, tmp_path: Path
) -> None:
    page = pages.open("#play", width=800, height=700)
    page.set_input_files("#p-layout", str(layout_file(tmp_path, ["*...", "....", "...."])))
    page.get_by_test_id("new-game").click()
    page.wait_for_function("document.getElementById('p-board').dataset.status === 'playing'")
    play(page, "C4")
    page.wait_for_function(GAME_OVER)
    page.wait_for_selector("#p-review:not([hidden])")
    # The frame is sandboxed: the page cannot reach into it, and it is as tall as its content.
    assert page.evaluate("document.getElementById('p-viewer').contentDocument") is None
    viewer = page.frame_locator("#p-viewer")
    viewer.locator("h1").wait_for()
    for _ in range(100):
        inside = viewer.locator("html").evaluate("e => e.scrollHeight")
        if page.eval_on_selector("#p-viewer", "f => f.clientHeight") >= inside:
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail(f"the review's frame is shorter than its content ({inside} px)")
    page.click("#p-end-review")
    page.wait_for_function("document.getElementById('p-review').getBoundingClientRect().top < innerHeight/2")


def test_expert_percentages_are_readable_at_1400_and_what_is_printed_is_a_choice(page: Any) -> None:
    middle = ["?" * 12 + "1" * 6 + "?" * 12] + ["?" * 12 + "." * 6 + "?" * 12] * 2
    rows = ["?" * 30] * 6 + middle + ["?" * 30] * 7
    paste(page, "# mines: 99\n" + "\n".join(rows) + "\n")
    assert page.evaluate(f"{BOARD}.board.textPx") >= 11  # the percentages' digits, in pixels
    i = 30 * 3 + 3  # D4, far from the numbers
    mine = page.evaluate(f"{BOARD}.board.cellText({i})")
    said = point(page, "a-board", "D4")
    p = float(re.search(r"mine probability ([0-9.]+)%", said).group(1))
    assert mine == str(round(p))
    page.select_option("#a-print", "safe")
    assert page.evaluate(f"{BOARD}.board.cellText({i})") == str(100 - round(p))
    page.select_option("#a-print", "none")
    assert page.evaluate(f"{BOARD}.board.cellText({i})") == ""
    page.select_option("#a-tile", "48")  # zoom: the board scrolls in its box
    assert page.evaluate(f"{BOARD}.dataset.tile") == "48"
    assert page.evaluate(f"{BOARD}.board.cellText({i})") == ""
    page.select_option("#a-print", "mine")
    assert page.evaluate(f"{BOARD}.board.cellText({i})") == mine + "%"


def test_the_suggested_move_is_framed_dark_on_a_green_cell(page: Any) -> None:
    page.wait_for_function(f"{BOARD}.board.extra.best >= 0")  # asked once the analysis is on screen
    best = page.evaluate(f"{BOARD}.board.extra.best")
    colours = page.evaluate(f"""(() => {{
        const b = {BOARD}.board, s = b.s, i = {best};
        const x = b.lw + (i % b.cols) * s - b.host.scrollLeft;
        const y = b.lh + Math.floor(i / b.cols) * s - b.host.scrollTop;
        const px = (dx, dy) => Array.from(b.ctx.getImageData((x + dx) * b.dpr, (y + dy) * b.dpr, 1, 1).data);
        return [px(s / 2, 3), px(s * 0.3, s * 0.3)];
    }})()""")
    frame, inside = colours
    luminance = 0.2126 * frame[0] + 0.7152 * frame[1] + 0.0722 * frame[2]
    assert luminance < 60 and frame[2] > frame[1]  # dark blue: a bright blue reads like the green around it
    assert inside[1] > inside[0] and inside[1] > inside[2]  # the cell itself stays green (proven safe)


def test_at_800_px_a_ranked_move_out_of_view_is_brought_into_view(pages: Pages) -> None:
    page = pages.open(width=800, height=600)
    paste(page, "# mines: 3\n????\n?11?\n????\n????\n")
    page.click("#a-perfect-go")
    page.wait_for_function("document.querySelectorAll('#a-ranking tbody tr').length > 0")
    row = page.locator("#a-ranking tbody tr").nth(13)
    row.scroll_into_view_if_needed()
    index = int(row.get_attribute("data-i"))
    assert not page.evaluate(f"{BOARD}.board.inView({index})")
    row.hover()
    assert "away" in row.get_attribute("class")
    row.click()
    assert page.evaluate(f"{BOARD}.board.inView({index})")
    assert page.evaluate(f"{BOARD}.board.extra.pointed") == index


def test_a_replay_over_1_mb_is_refused_by_the_page_naming_the_command(page: Any, tmp_path: Path) -> None:
    page.get_by_test_id("tab-review").click()
    assert "up to 1 MB" in page.inner_text("#r-drop")
    path = tmp_path / "long.evf"
    path.write_bytes(b"\0" * (1 << 20 | 1))
    page.set_input_files("#r-file", str(path))
    says(page, "r-status", "minesat replay long.evf --html")


def test_a_seed_the_server_draws_is_kept_from_the_page_until_the_end_then_shown_digit_for_digit(
    pages: Pages, url: str
) -> None:
    page = pages.open(clock=True)
    new_preset_game(page)
    play(page, "E5")
    page.clock.fast_forward(400)  # the URL follows a move within 200 ms
    gid = page.evaluate("document.getElementById('p-board').dataset.game")
    playing = page.evaluate("location.hash")
    assert "s=" not in playing and "Seed" not in page.inner_text("#p-last"), playing
    assert page.get_by_test_id("share-link").input_value() == ""
    page.get_by_test_id("share").click()
    assert "s=" not in page.get_by_test_id("share-link").input_value()
    page.select_option("#p-speed", "0")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function(GAME_OVER, timeout=60_000)
    seed = str(api(url, f"api/game/{gid}")["seed"])
    assert seed.isdigit()
    page.wait_for_function(f"location.hash.includes('ds={seed}&')")
    assert re.search(rf"seed\s+{seed}\b", page.inner_text("#p-end"), re.IGNORECASE)


def test_the_clock_runs_from_the_first_click_and_stops_at_the_end(pages: Pages) -> None:
    page = pages.open(clock=True)
    new_game(page, 9, 9, 10, seed=7)
    assert page.inner_text("#p-time") == "0"
    assert page.inner_text("#p-left") == "10"
    play(page, "E5")
    page.clock.fast_forward(1000)
    assert int(page.inner_text("#p-time")) >= 1
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    play(page, cell_name(divmod(covered, 9)), "right")
    assert page.inner_text("#p-left") == "9"
    page.select_option("#p-speed", "0")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function(GAME_OVER, timeout=60_000)
    stopped = page.inner_text("#p-time")
    page.clock.fast_forward(2000)  # a clock still ticking (every 200 ms) would show 2 s more
    assert page.inner_text("#p-time") == stopped


# --- The automatic player ------------------------------------------------------------------------------


def test_autoplay_moves_pauses_steps_and_the_player_takes_over(pages: Pages) -> None:
    page = pages.open(clock=True)
    new_game(page, 9, 9, 10, seed=21)
    page.select_option("#p-speed", "1000")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function("Number(document.getElementById('p-board').dataset.moves) >= 1")
    assert "pause" in page.get_by_test_id("autoplay").inner_text()
    page.get_by_test_id("autoplay").click()  # pause
    page.wait_for_function("!document.getElementById('p-auto').textContent.includes('pause')")
    paused = moves_made(page)
    count_requests(page)
    page.clock.fast_forward(1500)  # past the 1 s autoplay waits between its moves
    assert requests_started(page) == [] and moves_made(page) == paused
    # Each move's reason is shown as it is made.
    assert "auto" in page.get_attribute("#p-log li:first-child", "class")
    assert re.match(r"[A-Z]+[0-9]+[*-]?: \S", page.inner_text("#p-log li:first-child"))
    page.click("#p-step")
    page.wait_for_function(f"Number(document.getElementById('p-board').dataset.moves) === {paused + 1}")
    count_requests(page)
    page.clock.fast_forward(1500)
    assert requests_started(page) == [] and moves_made(page) == paused + 1
    if page.evaluate(GAME_OVER):
        return
    # The player takes over: a click on the board stops the automatic player and is played.
    page.get_by_test_id("autoplay").click()
    page.wait_for_function("document.getElementById('p-auto').textContent.includes('pause')")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    x, y = at(page, "p-board", cell_name(divmod(covered, 9)))
    page.mouse.click(x, y, button="right")
    page.wait_for_function("!document.getElementById('p-auto').textContent.includes('pause')")
    players = "(li => !li.classList.contains('auto') && /^[A-Z]+[0-9]+[*-]:/.test(li.textContent))"
    page.wait_for_function(players + "(document.getElementById('p-log').firstChild)")  # not autoplay's


def big_position(n: int, seed: int) -> str:
    """An n x n position: the left half shows its numbers (its mines covered), the right half is covered."""
    rnd = random.Random(seed)
    mines = frozenset((r, c) for r in range(n) for c in range(n) if rnd.random() < 0.15)
    counts = Layout(n, n, mines).counts
    shown = [(r, c) not in mines and c < n // 2 for r in range(n) for c in range(n)]
    cells = tuple(counts[i] if shown[i] else COVERED for i in range(n * n))
    return format_position(Position(n, n, cells, len(mines)))


def test_a_pasted_150x150_position_shows_its_analysis_summarised_and_answers_the_pointer(page: Any) -> None:
    """22,500 cells: the big road's, as 300x300 is (benchmarks/heavy pastes that)."""
    check_a_pasted_big_position(page, 150, [(5, 100), (125, 140), (149, 149)])


def check_a_pasted_big_position(page: Any, n: int, cells: list[tuple[int, int]]) -> None:
    text = big_position(n, 1)
    truth = analyze(parse_position(text))
    page.get_by_test_id("board-text").fill(text)
    page.get_by_test_id("load").click()
    # Done when: the analysis within 15 s of Load.
    page.wait_for_function(f"{BOARD}.dataset.rows === '{n}' && {ANALYSED}", timeout=15_000)
    summary = page.get_by_test_id("analysis-summary").inner_text()
    counts = f"{len(truth.safe)} proven safe, {len(truth.mine)} proven mines, {len(truth.unknown)} uncertain"
    assert summary.startswith(counts), summary
    # Long lists are summarised, the rest on request.
    safe = page.inner_text("#a-safe")
    assert len(safe.split()) < 50 and "more (show all)" in safe
    page.click("#a-safe button")
    assert len(page.inner_text("#a-safe").split()) == len(truth.safe) + 1
    # Pointing at cells far apart: each answered, with the probability the library gives.
    for r, c in cells:
        said = point(page, "a-board", cell_name((r, c)))
        assert f"mine probability {truth.probability[r][c] * 100:.2f}%" in said, said
    # The marks follow the analysis on a board this big.
    page.wait_for_function(f"{BOARD}.dataset.marked === {BOARD}.dataset.version")
    assert page.inner_text("#a-marks").startswith("Dead: ")



# --- No-guess boards, the same seed, marks, a long replay ------------------------------------------------


def test_an_expert_no_guess_game_handed_to_autoplay_ends_won(page: Any) -> None:
    page.get_by_test_id("tab-play").click()
    page.select_option("#p-preset", "expert")
    page.get_by_test_id("no-guess").check()
    page.select_option("#p-speed", "0")
    page.get_by_test_id("new-game").click()
    page.wait_for_function("document.getElementById('p-board').dataset.status === 'playing'")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function(GAME_OVER, timeout=120_000)
    assert page.get_by_test_id("game-status").inner_text() == "won"
    assert "No-guess board made from D4:" in page.inner_text("#p-new-status")
    assert page.inner_text("#p-guess-none") == "No guesses: every move was proven safe."
    log = page.inner_text("#p-log")
    assert "proven safe because of" in log and "guess" not in log.replace("no guess", "")
    page.wait_for_selector("#p-review:not([hidden])")


def test_a_no_guess_board_that_cannot_be_made_is_refused_clearly(page: Any) -> None:
    page.get_by_test_id("tab-play").click()
    page.get_by_test_id("no-guess").check()
    new_game(page, 2, 2, 1, seed=1, rule="safe")  # the other three cells hold one mine: no proof finds it
    click(page, "p-board", "A1")
    says(page, "p-new-status", "No no-guess board: ")
    assert "try fewer mines" in page.inner_text("#p-new-status")
    assert page.get_by_test_id("game-status").inner_text() == "ready"


def test_the_same_seed_gives_the_same_game_even_past_2_to_the_53(page: Any) -> None:
    boards = []
    for _ in range(2):
        new_game(page, 16, 30, 99, seed="8148575614706997442")
        play(page, "H15")
        boards.append(page.evaluate("Array.from(document.getElementById('p-board').board.states)"))
        page.wait_for_function("location.hash.includes('s=8148575614706997442&')")
    assert boards[0] == boards[1]
    assert sum(s >= 0 for s in boards[0]) > 1


def test_dead_cells_and_cells_no_play_tells_apart_are_marked(page: Any, url: str) -> None:
    text = "# mines: 3\n??*\n13*\n.11\n"
    paste(page, text)
    marks = api(url, "api/analyze", {"board": text, "marks": True})["marks"]
    assert marks["fifty"], marks  # A1 and A2: walled in, one mine between them
    said = page.inner_text("#a-marks")
    for group in marks["fifty"]:
        assert "–".join(cell_name(tuple(c)) for c in group) in said, said
    for r, c in marks["dead"]:
        assert "dead: its number cannot matter" in point(page, "a-board", cell_name((r, c)))
    first, second = (cell_name(tuple(c)) for c in marks["fifty"][0][:2])
    assert f"no play can tell it from {second}" in point(page, "a-board", first)


def test_an_expert_sample_opens_in_review_and_steps_through_its_moves_judged(page: Any) -> None:
    """An expert game, reviewed within the wait: the page opens it judged (benchmarks/heavy opens
    the 36x60 sample, whose review comes after its moves)."""
    check_a_sample_opens_in_review(page, "arbiter-expert-49s.avf", 145, "safe")


def check_a_sample_opens_in_review(page: Any, name: str, steps: int, sixth: str) -> None:
    """The sample's moves in the viewer at once; if its review is still running, the page says so,
    the viewer steps meanwhile, and the verdicts come to the step looked at (step 6: ``sixth``)."""
    from replay_samples import NO_SAMPLES, SAMPLES

    sample = SAMPLES / name
    if not sample.exists():
        pytest.skip(NO_SAMPLES)
    page.get_by_test_id("tab-review").click()
    page.set_input_files("#r-file", str(sample))
    page.wait_for_selector("#r-review:not([hidden])")
    viewer = page.frame_locator("#r-viewer")
    assert viewer.locator("#counter").inner_text().endswith(f"of {steps}")
    waiting = page.evaluate("document.getElementById('r-review').dataset.analysed") == "no"
    if waiting:
        assert "being analysed" in page.inner_text("#r-progress")
    for _ in range(5):
        viewer.locator("#next").click()
    if waiting:
        analysed = "document.getElementById('r-review').dataset.analysed === 'yes'"
        page.wait_for_function(analysed, timeout=240_000)
    expect(viewer.locator("#counter")).to_have_text(re.compile(r"^step 6 "))  # the step looked at
    assert viewer.locator("#verdict").inner_text() == sixth  # move 6, judged now


def test_the_safest_guesses_are_marked_when_no_cell_is_proven_safe(page: Any, url: str) -> None:
    text = "# mines: 2\n1???\n????\n????\n"
    paste(page, text)
    marks = api(url, "api/analyze", {"board": text, "marks": True})["marks"]
    safest = [cell_name(tuple(c)) for c in marks["safest"]]
    assert safest and len(safest) < 11
    said = page.inner_text("#a-marks")
    assert f"({marks['safest_probability'] * 100:.2f}% mine): " + " ".join(safest) in said, said
    for name in ("A2", "B1", "B2", "C4"):
        assert ("a safest guess" in point(page, "a-board", name)) == (name in safest)


def test_on_a_big_board_a_proof_is_asked_for_not_searched_at_every_move(page: Any) -> None:
    text = big_position(60, 2)
    truth = analyze(parse_position(text))
    paste(page, text)
    proofs: list[str] = []
    page.on("request", lambda r: proofs.append(r.url) if r.url.endswith("/api/explain") else None)
    name = cell_name(truth.safe[0])
    assert point(page, "a-board", name) == f"{name}: proven safe"
    page.wait_for_timeout(300)
    assert proofs == []  # pointing alone: each proof is a search over the 3 600 cells
    assert page.inner_text("#a-why-go") == f"Why is {name} safe?"
    page.click("#a-why-go")
    says(page, "a-why", f"{name} is safe because of ")
    assert len(proofs) == 1


# --- A game that keeps its secrets, hints with the move, reload and share (issue 41) ---------------

#: Two layouts whose first uncover at C3 shows one position; A6 is a mine in the first, B6 in the second.
TWINS = (
    ["*....*", "....*.", "......", ".....*", "....*."],
    ["*.....", "....**", "......", ".....*", "....*."],
)


def play_layout(page: Any, tmp_path: Path, rows: list[str]) -> None:
    page.get_by_test_id("tab-play").click()
    page.set_input_files("#p-layout", str(layout_file(tmp_path, rows)))
    before = page.evaluate("document.getElementById('p-board').dataset.game || ''")
    page.get_by_test_id("new-game").click()
    page.wait_for_function(f"(b => b.dataset.game !== {before!r} && b.dataset.moves === '0')"
                           "(document.getElementById('p-board'))")


def move_log(page: Any) -> list[str]:
    return page.locator("[data-testid=move-log] li").all_inner_texts()


def test_a_flag_reads_alike_on_a_mine_and_on_a_safe_cell_of_one_probability(
    pages: Pages, tmp_path: Path
) -> None:
    said = []
    for rows in TWINS:
        page = pages.open("#play")
        play_layout(page, tmp_path, rows)
        play(page, "C3")
        for name in ("A6", "B6", "A6", "B6"):  # flagged, then unflagged
            play(page, name, "right")
        said.append((page.locator("#p-log li").all_inner_texts(), point(page, "p-board", "E6"),
                     page.inner_text("#p-last")))
    assert said[0] == said[1] and len(said[0][0]) == 5
    assert "not a mine" not in " ".join(said[0][0])


def test_a_hint_comes_with_the_move_that_leads_to_it(page: Any) -> None:
    asked: list[str] = []
    page.route("**/hint", lambda route: route.abort())  # the hint may come only with the move
    page.on("request", lambda r: asked.append(r.post_data or "") if r.url.endswith("/move") else None)
    new_game(page, 9, 9, 10, seed=12)
    page.check("#p-hint")
    play(page, "E5")
    page.wait_for_function("document.getElementById('p-best').textContent.startsWith('Hint: ')")
    assert page.evaluate("document.getElementById('p-board').dataset.hinted") == "1"
    hint = page.inner_text("#p-best")
    name = re.search(r"Hint: (?:uncover|flag|guess) ([A-Z]+[0-9]+)", hint).group(1)
    play(page, name, "right" if hint.startswith("Hint: flag") else "left")
    page.wait_for_function("document.getElementById('p-board').dataset.hinted === '2' || "
                           f"{GAME_OVER}")
    assert all(json.loads(body).get("hint") is True for body in asked), asked
    # A proven-safe cell under the player's flag: the hint says to take the flag off, in words.
    if page.evaluate(GAME_OVER):
        return
    hint = page.inner_text("#p-best")
    if hint.startswith("Hint: uncover "):
        name = hint.split()[2]
        play(page, name, "right")
        says(page, "p-best", f"Hint: take the flag off {name}: it is proven safe")


def test_a_first_click_loss_ends_with_its_time_its_3bv_solved_and_the_guess_it_risked(page: Any) -> None:
    new_preset_game(page, seed="6", rule="any")
    play(page, "A1")
    page.wait_for_function(GAME_OVER)
    figures = dict(zip([dt.lower() for dt in page.locator("#p-end-figures dt").all_inner_texts()],
                       page.locator("#p-end-figures dd").all_inner_texts(), strict=True))
    assert figures["time"] == "0.00 s" and figures["3bv/s"] == "–", figures
    assert re.fullmatch(r"0/\d+", figures["3bv"]), figures
    assert figures["guesses"].startswith("1, chance they would all survive: "), figures
    assert float(page.get_by_test_id("clock").inner_text()) == 0
    # The panel is under the board: the end does not move the board.
    page.get_by_test_id("new-game").click()
    page.wait_for_function("document.getElementById('p-board').dataset.status === 'playing' && "
                           "document.getElementById('p-end').hidden")
    top = page.evaluate("document.getElementById('p-board').getBoundingClientRect().top")
    play(page, "A1")
    page.wait_for_function("!document.getElementById('p-end').hidden")
    assert page.evaluate("document.getElementById('p-board').getBoundingClientRect().top") == top


def test_a_reload_keeps_the_game_its_log_its_running_clock_and_hints_and_new_game_deals_afresh(
    page: Any,
) -> None:
    new_preset_game(page)
    page.check("#p-hint")
    play(page, "E5")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    play(page, cell_name(divmod(covered, 9)), "right")
    gid = page.evaluate("document.getElementById('p-board').dataset.game")
    cells = page.evaluate("Array.from(document.getElementById('p-board').board.states)")
    log = move_log(page)
    page.wait_for_function("Number(document.querySelector('[data-testid=clock]').textContent) >= 1")
    page.wait_for_function(f"location.hash.includes('g={gid}')")
    page.reload()
    page.wait_for_function(f"document.getElementById('p-board').dataset.game === {gid!r}")
    assert move_log(page) == log and len(log) == 2
    assert page.evaluate("Array.from(document.getElementById('p-board').board.states)") == cells
    clock = int(page.get_by_test_id("clock").inner_text())
    assert clock >= 1
    page.wait_for_function(f"Number(document.querySelector('[data-testid=clock]').textContent) > {clock}")
    assert page.is_checked("#p-hint")
    page.wait_for_function("document.getElementById('p-best').textContent.startsWith('Hint: ')")
    assert page.input_value("#p-seed") == ""
    made: list[str] = []
    page.on("request", lambda r: made.append(r.post_data or "") if r.url.endswith("/api/game") else None)
    page.get_by_test_id("new-game").click()
    page.wait_for_function(f"document.getElementById('p-board').dataset.game !== {gid!r}")
    assert made and "seed" not in json.loads(made[0]), made  # a new board, not this one again


def test_a_share_link_reopens_the_game_in_progress_with_its_log_and_clock(pages: Pages) -> None:
    page = pages.open("#play")
    new_preset_game(page)
    play(page, "E5")
    page.wait_for_function("Number(document.querySelector('[data-testid=clock]').textContent) >= 1")
    link = share(page)
    assert "s=" not in link and "g=" in link
    fresh = pages.open(link.removeprefix(pages.url))
    fresh.wait_for_function("document.getElementById('p-board').dataset.moves === '1'")
    assert move_log(fresh) == move_log(page)
    clock = int(fresh.get_by_test_id("clock").inner_text())
    assert clock >= 1
    fresh.wait_for_function(f"Number(document.querySelector('[data-testid=clock]').textContent) > {clock}")
    # The link's game is played on in a copy: a move there leaves the sharer's game as it was,
    # and a reload goes on in the copy (no copy of the copy).
    gid = page.evaluate("document.getElementById('p-board').dataset.game")
    copy = fresh.evaluate("document.getElementById('p-board').dataset.game")
    said = fresh.inner_text("#p-last")
    assert copy != gid and "copy of the link's game" in said and "what is hidden drawn afresh" in said, said
    assert "no guess" not in said
    covered = fresh.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    play(fresh, cell_name(divmod(covered, 9)), "right")
    fresh.wait_for_function("document.getElementById('p-board').dataset.moves === '2'")
    theirs = page.evaluate(f"fetch('/api/game/{gid}').then((r) => r.json())")
    assert theirs["moves"] == 1 and len(theirs["log"]) == 1
    fresh.reload()
    fresh.wait_for_function("document.getElementById('p-board').dataset.moves === '2'")
    assert fresh.evaluate("document.getElementById('p-board').dataset.game") == copy
    # A copy's own link reopens it by its id alone: no seed, no moves to make it again from.
    again = share(fresh)
    assert f"g={copy}" in again and not re.search(r"[?&](s|ds|mv)=", again), again


def test_a_copy_of_a_no_guess_game_says_it_is_no_longer_promised_to_need_no_guess(pages: Pages) -> None:
    page = pages.open("#play")
    page.get_by_test_id("tab-play").click()
    page.select_option("#p-preset", "beginner")
    page.check("#p-noguess")
    page.get_by_test_id("new-game").click()
    page.wait_for_function("document.getElementById('p-board').dataset.status === 'playing'")
    play(page, "E5")
    link = share(page)
    fresh = pages.open(link.removeprefix(pages.url))
    fresh.wait_for_function("document.getElementById('p-board').dataset.moves === '1'")
    said = fresh.inner_text("#p-last")
    assert "copy of the link's game" in said and "no longer promised to need no guess" in said, said


def test_back_after_a_quick_change_of_tab_shows_the_game_as_it_is(page: Any) -> None:
    new_game(page, 9, 9, 10, seed=31)
    play(page, "E5")
    page.wait_for_timeout(400)
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    play(page, cell_name(divmod(covered, 9)), "right")
    page.get_by_test_id("tab-review").click()  # within the 200 ms the URL takes to follow the move
    page.wait_for_timeout(400)
    page.go_back()
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_timeout(500)
    assert moves_made(page) == 2


def test_the_smaller_points_of_the_page(page: Any) -> None:
    # A new board clears the suggested move at once (it named a cell of the old board).
    page.wait_for_function("document.getElementById('a-best').textContent !== ''")
    cleared = "document.getElementById('a-new').click(), document.getElementById('a-best').textContent"
    assert page.evaluate(cleared) == ""
    # What a file said is not said of a later board.
    page.evaluate("document.getElementById('a-load-status').textContent = 'read endgame-count.txt'")
    page.click("#a-new")
    assert page.inner_text("#a-load-status") == ""
    # Perfect play that needs no search says so, not "0 states".
    paste(page, "# mines: 1\n1??\n")
    says(page, "a-perfect", "no search needed")
    assert "0 states" not in page.inner_text("#a-perfect")
    says(page, "a-marks", "Guesses no play can avoid: ")
    assert "The automatic player would play " in page.inner_text("#a-best")
    # Autoplay started again after the player took over says nothing of the taking over.
    new_game(page, 9, 9, 10, seed=21)
    page.select_option("#p-speed", "1000")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function("Number(document.getElementById('p-board').dataset.moves) >= 1")
    covered = page.evaluate("document.getElementById('p-board').board.states.indexOf(-1)")
    click(page, "p-board", cell_name(divmod(covered, 9)), "right")
    says(page, "p-auto-note", "You have taken over")
    if not page.evaluate(GAME_OVER):
        page.get_by_test_id("autoplay").click()
        page.wait_for_function("!document.getElementById('p-auto-note').textContent.includes('taken over')")
    # The hooks of SPEC 19.
    assert page.get_by_test_id("move-log").count() == 1 and page.get_by_test_id("clock").count() == 1


def test_on_a_phone_an_expert_board_has_tiles_a_finger_can_tap_and_a_tap_tints_nothing(pages: Pages) -> None:
    page = pages.open("#play", width=390, height=844, has_touch=True, is_mobile=True)
    new_preset_game(page, "expert")
    assert int(page.evaluate("document.getElementById('p-board').dataset.tile")) >= 28
    canvas = "document.querySelector('#p-board canvas')"
    tint = page.evaluate(f"getComputedStyle({canvas}).webkitTapHighlightColor")
    assert tint in ("rgba(0, 0, 0, 0)", "transparent"), tint


def test_on_a_phone_the_expert_board_scrolls_in_its_box_and_the_games_state_stays_in_view(
    pages: Pages,
) -> None:
    page = pages.open("#play", width=390, height=844, has_touch=True, is_mobile=True)
    new_preset_game(page, "expert")
    board = "document.getElementById('p-board')"
    assert page.evaluate(f"{board}.scrollWidth > {board}.clientWidth")  # it scrolls inside its box
    box = "(e => { const b = e.getBoundingClientRect(); return [b.top, b.bottom]; })"
    top, bottom = page.evaluate(f"{box}({board})")
    assert top >= 0 and bottom <= 844, (top, bottom)  # the whole board's box in view, with them:
    # at the top of the page, and scrolled until the board's last rows alone are left in view.
    for scrolled in (0, bottom - 60):
        page.evaluate(f"scrollTo(0, {scrolled})")
        for hook in ("[data-testid=game-status]", "#p-left", "[data-testid=new-game]"):
            top, bottom = page.evaluate(f"{box}(document.querySelector({hook!r}))")
            assert top >= 0 and bottom <= 844, (scrolled, hook, top, bottom)
    page.evaluate("scrollTo(0, 100000)")  # the page's end: New game still in reach
    top, bottom = page.evaluate(f"{box}(document.querySelector('[data-testid=new-game]'))")
    assert top >= 0 and bottom <= 844, (top, bottom)
    page.get_by_test_id("new-game").tap()  # the floating button deals a new game
    page.wait_for_function(f"{board}.dataset.moves === '0'")


# --- The page under its own Content-Security-Policy (issue 49) ------------------------------------


def test_under_its_own_policy_the_page_plays_and_its_sandboxed_viewer_sizes_steps_and_plays(
    browser: Any, url: str, tmp_path: Path
) -> None:
    """No bypass here: the page as the server sends it, its policy enforced (nothing inline runs
    but the viewer's script and style, allowed by their hashes) and the viewer in a sandboxed frame
    it reaches only by messages. Waits go through Playwright's locators, which the policy allows."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    said: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda message: said.append(message.text))
        page.on("pageerror", lambda err: said.append(str(err)))
        page.goto(url + "#play")
        page.select_option("#p-preset", "custom")
        for field, value in (("#p-rows", "4"), ("#p-cols", "4"), ("#p-mines", "1"), ("#p-seed", "3")):
            page.fill(field, value)
        page.get_by_test_id("new-game").click()
        expect(page.get_by_test_id("game-status")).to_have_text("ready")
        click(page, "p-board", "B2")
        expect(page.get_by_test_id("game-status")).to_have_text(re.compile("playing|won"))
        page.get_by_test_id("autoplay").click()
        expect(page.locator("#p-review")).to_be_visible(timeout=30_000)
        assert page.get_attribute("#p-viewer", "sandbox") == "allow-scripts"
        assert page.evaluate("document.getElementById('p-viewer').contentDocument") is None
        viewer = page.frame_locator("#p-viewer")
        expect(viewer.locator("h1")).to_contain_text("Your game")
        for _ in range(100):  # the frame grows to its content, told by message
            inside = viewer.locator("html").evaluate("e => e.scrollHeight")
            if page.eval_on_selector("#p-viewer", "f => f.clientHeight") >= inside > 300:
                break
            page.wait_for_timeout(100)
        else:
            pytest.fail(f"the viewer's frame never grew to its content ({inside} px)")
        viewer.locator("#first").click()
        viewer.locator("#next").click()
        expect(viewer.locator("#counter")).to_have_text(re.compile(r"^step 2 of"))
        viewer.locator("#play").click()
        expect(viewer.locator("#counter")).to_have_text(re.compile(r"^step 3 of"))
        # Review: a replay in the other sandboxed frame.
        path = tmp_path / "tiny.rmv"
        path.write_bytes(rmv2(rmv_mouse(3, 0, 20, 5) + rmv_mouse(5, 10, 20, 5)))
        page.get_by_test_id("tab-review").click()
        page.set_input_files("#r-file", str(path))
        expect(page.frame_locator("#r-viewer").locator("h1")).to_contain_text("tiny.rmv")
    finally:
        context.close()
    assert not [text for text in said if "Content Security Policy" in text or "Error" in text], said
