"""The screenshots of ``minesat serve`` in docs/: the page at 1400, 800 and 390 pixels, in headless Chromium.

    python docs/screenshots.py [--chromium /usr/bin/chromium] [--out docs]
    python docs/screenshots.py --report reports/quickstart.html

``--report`` shoots only ``report-1100.png``: the top of a ``minesat report`` page
(the README's quick start writes it), at 1100 pixels.

Starts ``minesat serve --port 0 --db :memory:``, opens the page with Playwright, and saves

- ``serve-1400.png``: Analyse, an expert position part way through
  (puzzles/expert-mid.txt): the heat map with its percentages, the marks, the
  automatic player's move, and the proof of a cell pointed at;
- ``serve-800.png``: Play, an intermediate game the automatic player has
  played part way, paused, hints on: each move with its reason;
- ``serve-390.png``: Play on a phone's width, an expert no-guess game after
  a few moves: tiles a finger can tap (the board scrolls), flag mode on;
- ``serve-review-1400.png``: Review, the 36x60 sample replay once every move
  is analysed (skipped when the samples are not beside the repository).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from minesat.board import cell_name

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = Path(os.environ.get("MINESAT_SAMPLE_REPLAYS") or ROOT.parent / "shared" / "replays")
SAMPLE = SAMPLES / "metasweeper-36x60.evf"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ANALYSED = ("(b => b.dataset.analysed === b.dataset.version && b.board.extra.best >= 0)"
            "(document.getElementById('a-board'))")


def click(page: Any, board: str, name: str) -> None:
    point = page.evaluate(f"document.getElementById({board!r}).board.center({name!r})")
    page.mouse.click(point["x"], point["y"])


def analyse(page: Any, out: Path) -> None:
    page.wait_for_function(ANALYSED)
    page.fill("#a-text", (ROOT / "puzzles" / "expert-mid.txt").read_text())
    page.click("#a-load")
    page.wait_for_function("document.getElementById('a-board').dataset.cols === '30' && " + ANALYSED)
    best = page.evaluate("document.getElementById('a-board').board.extra.best")  # proven safe: its proof
    point = page.evaluate(f"document.getElementById('a-board').board.center({cell_name(divmod(best, 30))!r})")
    page.mouse.move(point["x"], point["y"])
    page.wait_for_function("document.getElementById('a-why').textContent.includes('because')")
    page.wait_for_timeout(200)
    page.screenshot(path=str(out / "serve-1400.png"))


def new_game(page: Any, preset: str, seed: int, no_guess: bool = False) -> None:
    """A new game in Play, the automatic player set to its fast speed."""
    page.click("#tab-play")
    page.select_option("#p-preset", preset)
    page.set_checked("#p-noguess", no_guess)
    page.fill("#p-seed", str(seed))
    page.select_option("#p-speed", "60")
    page.click("#p-new")
    page.wait_for_function("document.getElementById('p-board').dataset.status === 'playing'")


def play(page: Any, out: Path) -> None:
    new_game(page, "intermediate", 3)
    page.click("#p-auto")
    page.wait_for_function("Number(document.getElementById('p-board').dataset.moves) >= 60 || "
                           "document.getElementById('p-board').dataset.status !== 'playing'", timeout=120_000)
    page.click("#p-auto")  # pause
    hints(page)
    page.screenshot(path=str(out / "serve-800.png"))


def phone(page: Any, out: Path) -> None:
    new_game(page, "expert", 5, no_guess=True)
    for _ in range(12):
        page.click("#p-step")
        page.wait_for_timeout(150)
    page.click("#p-flagmode")
    hints(page)
    page.screenshot(path=str(out / "serve-390.png"))


def hints(page: Any) -> None:
    """Hints on, shown; the page at its top."""
    page.check("#p-hint")
    page.wait_for_function("document.getElementById('p-best').textContent.startsWith('Hint')")
    page.evaluate("window.scrollTo(0, 0)")


def review(page: Any, out: Path) -> None:
    page.click("#tab-review")
    page.set_input_files("#r-file", str(SAMPLE))
    page.wait_for_function("document.getElementById('r-review').dataset.analysed === 'yes'", timeout=300_000)
    frame = page.frame_locator("#r-viewer")
    for _ in range(40):
        frame.locator("#next").click()
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "serve-review-1400.png"))


def report(chromium: str, page_file: Path, out: Path) -> None:
    """The top of a report page: its cards, the win rate beside the published figures."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 1250})
        page.goto(page_file.resolve().as_uri())
        page.screenshot(path=str(out / "report-1100.png"))
        browser.close()
    _shrink(out / "report-1100.png")
    print(out / "report-1100.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--report", type=Path, help="shoot only this report page (report-1100.png)")
    args = parser.parse_args()
    if args.report is not None:
        report(args.chromium, args.report, args.out)
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--port", "0",
         "--db", ":memory:"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
    )
    assert server.stderr is not None
    url = re.search(r"(http://\S+/)", server.stderr.readline()).group(1)  # type: ignore[union-attr]
    shots = [("serve-1400.png", 1400, 900, analyse), ("serve-800.png", 800, 1000, play),
             ("serve-390.png", 390, 844, phone)]
    if SAMPLE.exists():
        shots.append(("serve-review-1400.png", 1400, 1000, review))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
            for name, width, height, take in shots:
                # The script's waits are JavaScript strings, which the page's Content-Security-Policy
                # refuses to evaluate: lifted for them (as the browser tests do), the page unchanged.
                page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
                errors: list[str] = []
                page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
                page.goto(url)
                take(page, args.out)
                page.close()
                assert not errors, (name, errors)
                _shrink(args.out / name)
                print(f"{args.out / name}")
            browser.close()
    finally:
        server.terminate()
        server.wait(15)


def _shrink(path: Path) -> None:
    """256 colours are plenty for a page of flat colours: a third of the bytes."""
    from PIL import Image

    with Image.open(path) as image:
        image.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)


if __name__ == "__main__":
    main()
