"""The screenshots of ``minesat serve`` in docs/: the page at 1400 and 800 pixels wide, in headless Chromium.

    python docs/screenshots.py [--chromium /usr/bin/chromium] [--out docs]

Starts ``minesat serve --port 0``, opens the page with Playwright, and saves
``serve-1400.png`` (analysing the sample position: the heat map, a proof,
perfect play) and ``serve-800.png`` (a game with hints on, on a narrow window).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--port", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
    )
    assert server.stderr is not None
    url = re.search(r"(http://\S+/)", server.stderr.readline()).group(1)  # type: ignore[union-attr]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(url)
            page.wait_for_function("document.getElementById('a-status').textContent.includes('uncertain')")
            page.click("#a-perfect-go")
            page.wait_for_function("document.getElementById('a-perfect').textContent.includes('Chance')")
            page.locator("#a-board [data-i='58']").hover()  # G5, proven safe: its proof outlined
            page.wait_for_function("document.getElementById('a-why').textContent.includes('because')")
            page.wait_for_timeout(300)
            page.screenshot(path=str(args.out / "serve-1400.png"))
            page.close()

            page = browser.new_page(viewport={"width": 800, "height": 1000})
            page.goto(url)
            page.click("#tab-play")
            page.select_option("#p-preset", "intermediate")
            page.fill("#p-seed", "3")
            page.click("#p-new")
            page.locator("#p-board [data-i='136']").click()  # I9
            page.wait_for_function("document.getElementById('p-last').textContent.includes('first click')")
            page.check("#p-hint")
            page.wait_for_function("document.getElementById('p-best').textContent.startsWith('Hint')")
            page.screenshot(path=str(args.out / "serve-800.png"), full_page=True)
            browser.close()
        for name in ("serve-1400.png", "serve-800.png"):
            _shrink(args.out / name)
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
