"""JSMinesweeper's page in headless Chromium: the time from a click to the board redrawn.

    python benchmarks/jsminesweeper_page.py --jsms PATH [--chromium /usr/bin/chromium] [--moves 40]
                                            [--games 3] [--seed 7]

PATH is a checkout of https://github.com/DavidNHill/JSMinesweeper (nothing of it is part of
minesat), served as it is by Python's ``http.server`` on a free loopback port. The page plays
client side: its game, its referee and its solver all run in the page. On an expert board
(its default), with its defaults but autoplay off (hints on, so its solver runs after each
move, as minesat's page answers a move with its hint), each game's first click at the middle,
then ``--moves`` moves, each a safe covered cell beside an uncovered one (picked from its own
referee's layout, outside the timing), clicked with the mouse. Each is timed in the page from
the click's ``mousedown`` to the end of its ``renderTiles``, the board drawn on its canvas (it
draws in the next animation frame, so a frame's wait is in the figure); the next click waits
for its solver to end. ``benchmarks/page.py`` measures minesat's page the same way (from the
click to the board redrawn with the answer, its hint included). It prints figures; it asserts
nothing.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import random
import threading
from pathlib import Path
from typing import Any

from page import spread  # benchmarks/page.py: figures alike
from playwright.sync_api import sync_playwright

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

#: Installed once the page is up: the click's time, and the end of the next ``renderTiles``.
TIMER = """() => {
  window.__clicked = null; window.__drawn = [];
  window.addEventListener("mousedown", () => { window.__clicked = performance.now(); }, true);
  const render = window.renderTiles;
  window.renderTiles = (tiles) => {
    render(tiles);
    if (window.__clicked === null) return;
    window.__drawn.push(performance.now() - window.__clicked);
    window.__clicked = null;
  };
}"""

#: A safe covered cell beside an uncovered one (any safe covered cell before the first move).
PICK = """(seed) => {
  const game = getGame(board.id);
  const mine = (t) => game && game.getTile(t.index).is_bomb;
  const safe = board.tiles.filter(t => t.isCovered() && !t.isFlagged() && !mine(t));
  const near = safe.filter(t => board.getAdjacent(t).some(n => !n.isCovered()));
  const pool = near.length ? near : safe;
  if (!pool.length || board.isGameover()) return null;
  const t = pool[seed % pool.length];
  const box = document.getElementById("myCanvas").getBoundingClientRect();
  return {x: box.left + (t.getX() + 0.5) * TILE_SIZE, y: box.top + (t.getY() + 0.5) * TILE_SIZE};
}"""


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/index.html"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def play(page: Any, moves: int, rng: random.Random) -> tuple[float | None, list[float]]:
    """One game: the first click's time, and each later move's."""
    page.wait_for_function("typeof board !== 'undefined' && board && !canvasLocked")
    box = page.evaluate("(() => { const b = document.getElementById('myCanvas').getBoundingClientRect();"
                        " return {x: b.left + b.width / 2, y: b.top + b.height / 2}; })()")
    times: list[float] = []
    for k in range(moves + 1):
        point = box if k == 0 else page.evaluate(PICK, rng.randrange(1 << 30))
        if point is None:
            break
        done = page.evaluate("window.__drawn.length")
        page.mouse.click(point["x"], point["y"])
        page.wait_for_function(f"window.__drawn.length > {done}", timeout=60_000)
        page.wait_for_function("!canvasLocked", timeout=120_000)  # its solver's hints, before the next
        times.append(page.evaluate("window.__drawn[window.__drawn.length - 1]"))
    return (times[0] if times else None), times[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jsms", type=Path, required=True, help="a checkout of JSMinesweeper")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    server, url = serve(args.jsms)
    rng = random.Random(args.seed)
    firsts: list[float] = []
    clicks: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
            for _ in range(args.games):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(url)
                page.uncheck("#autoplay")
                page.evaluate(TIMER)
                first, later = play(page, args.moves, rng)
                if first is not None:
                    firsts.append(first)
                clicks += later
                page.close()
            browser.close()
    finally:
        server.shutdown()
    print(f"JSMinesweeper expert, {args.games} game(s): the first click {spread(firsts)}")
    print(f"   a move, click to board redrawn: {spread(clicks)}")


if __name__ == "__main__":
    main()
