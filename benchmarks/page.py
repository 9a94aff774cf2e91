"""The page of ``minesat serve`` in headless Chromium: big boards drawn, the pointer answered, moves played.

    python benchmarks/page.py [--chromium /usr/bin/chromium] [--side 300] [--game 100] [--moves 40]
                              [--db PATH | :memory: | none] [--src DIR]

Starts ``minesat serve --port 0`` (a fresh process, as a user would; ``--db`` and
``--src`` as for benchmarks/serve.py), opens the page with Playwright and
measures, in the browser:

1. **big**: a ``--side`` x ``--side`` position (its left half uncovered, its mines
   there left covered; the right half covered) pasted and loaded: the time from
   the Load click to the analysis on screen, the server's two answers within it
   (``/api/position``, ``/api/analyze``, from the browser's resource timing), the
   time from the analysis' arrival to the board drawn, one redraw of the view,
   and the page's answer to the pointer: 80 moves over cells in view, each
   timed from the pointer event to the cell outlined and described;
2. **game**: an expert game (16x30, 99 mines), then a ``--game`` x ``--game``
   game (a fifth of the cells mined), first click opening: ``--moves`` moves
   each, the automatic player's choice (asked outside the timing), played by a
   click and timed from the click to the board redrawn with the answer, with the
   server's share (the page's click-to-board time; JSMinesweeper's page takes a
   median 10 ms).

It prints figures; it asserts nothing. Bounded: about a minute on two cores.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from serve import big_position, start

from minesat.board import cell_name

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ANALYSED = "(b => b.dataset.analysed === b.dataset.version)(document.getElementById('a-board'))"


def spread(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    median = statistics.median(values)
    return f"p50 {median:.1f} ms, p90 {p90:.1f} ms, max {values[-1]:.1f} ms ({len(values)})"


def served(page: Any, path: str) -> float:
    """The last request to ``path`` as the browser timed it (ms)."""
    return float(page.evaluate(
        f"performance.getEntriesByType('resource').filter(e => e.name.endsWith({path!r})).pop().duration"))


def board(page: Any, name: str, what: str) -> Any:
    """``what`` of a board element (``a-board``, ``p-board``), evaluated in the page."""
    return page.evaluate(f"(b => {what})(document.getElementById({name!r}))")


def big(page: Any, side: int) -> None:
    text = big_position(side, side, seed=1)
    page.wait_for_function(ANALYSED + " && document.getElementById('a-board').dataset.analysed")
    page.fill("#a-text", text)
    start = time.perf_counter()
    page.click("#a-load")
    page.wait_for_function(f"document.getElementById('a-board').dataset.rows === '{side}' && {ANALYSED}",
                           timeout=120_000)
    shown = time.perf_counter() - start
    paint, draw, tile = board(page, "a-board", "[Number(b.dataset.paintMs), b.board.drawMs, b.board.s]")
    position, analyze = served(page, "/api/position"), served(page, "/api/analyze")
    print(f"big {side}x{side} ({len(text) // 1024} kB): Load to analysis on screen {shown:.2f} s "
          f"(server: position {position:.0f} ms, analyze {analyze:.0f} ms)")
    print(f"   analysis answer to board drawn {paint} ms; a redraw of the view {draw:.1f} ms ({tile} px)")
    print("   " + page.get_by_test_id("analysis-summary").inner_text())
    box = page.locator("#a-board canvas").bounding_box()
    rng = random.Random(2)
    board(page, "a-board", "b.board.answered = []")
    for _ in range(80):
        x, y = rng.uniform(40, box["width"] - 5), rng.uniform(30, box["height"] - 5)
        page.mouse.move(box["x"] + x, box["y"] + y)
    print(f"   pointer to cell outlined and described: {spread(board(page, 'a-board', 'b.board.answered'))}")


def game(page: Any, url: str, rows: int, cols: int, mines: int, moves: int) -> None:
    page.click("#tab-play")
    page.select_option("#p-preset", "custom")
    page.fill("#p-rows", str(rows))
    page.fill("#p-cols", str(cols))
    page.fill("#p-mines", str(mines))
    page.fill("#p-seed", "7")
    before = board(page, "p-board", "b.dataset.game || ''")
    page.click("#p-new")
    page.wait_for_function(f"(b => b.dataset.game !== {before!r} && b.dataset.status === 'playing')"
                           "(document.getElementById('p-board'))")
    game_id = board(page, "p-board", "b.dataset.game")
    clicks, server = [], []
    for k in range(moves + 1):
        move = cell_name((rows // 2, cols // 2)) if k == 0 else hint(url, game_id)
        if not move or board(page, "p-board", "b.dataset.status") != "playing":
            break
        done = int(board(page, "p-board", "b.dataset.moves"))
        point = board(page, "p-board", f"b.board.center({move.rstrip('*+-')!r})")
        page.mouse.click(point["x"], point["y"], button="right" if move.endswith(("*", "-")) else "left")
        page.wait_for_function(f"Number(document.getElementById('p-board').dataset.moves) > {done}",
                               timeout=60_000)
        took = float(board(page, "p-board", "b.dataset.moveMs"))
        if k:
            clicks.append(took)
            server.append(served(page, "/move"))
        else:  # the first click places the mines: timed apart
            print(f"game {rows}x{cols}, {mines} mines: the first click, {move}, {took:.0f} ms")
    if clicks:
        print(f"   a move, click to board redrawn: {spread(clicks)}")
        print(f"   of which the server's answer: {spread(server)}")


def hint(url: str, game_id: str) -> str | None:
    """The automatic player's next move in the game (asked outside the timing)."""
    request = urllib.request.Request(url + f"api/game/{game_id}/hint", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())["best"]["move"]
    except urllib.error.HTTPError as err:
        print(f"   the hint answered {err.code}: {err.read().decode()[:200]}")
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--side", type=int, default=300)
    parser.add_argument("--game", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--db", default=":memory:", help="the server's store: a path, :memory:, or none")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    args = parser.parse_args()
    server, url = start(args.db, args.src)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
            # Playwright's waits evaluate strings, which the page's policy forbids: let them past it.
            context = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
            page = context.new_page()
            page.goto(url)
            big(page, args.side)
            game(page, url, 16, 30, 99, args.moves)
            game(page, url, args.game, args.game, args.game**2 // 5, args.moves)
            browser.close()
    finally:
        server.terminate()
        server.wait(15)


if __name__ == "__main__":
    main()
