"""The viewer's playback: a replay's frames carry the running figures and its pointer track, the
page encodes them losslessly, and in headless Chromium the page plays, takes ``?step=N``, and
draws the defects issue 25 saw in it no more (percentages with ``%``, the move's frame inside its
cell, the mines' dots clear of the percentages, an expert board within 800 pixels)."""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from minesat.board import Layout, Move
from minesat.formats.replay import MouseEvent, Replay
from minesat.generate import generate_layout
from minesat.player import play_game
from minesat.replay import replay_frames, review_replay
from minesat.viewer import MouseTrack, encode_frames, player_frames, render_viewer
from minesat.viewer.page import _encode_mouse

CELL = 16


def synthetic_replay(layout: Layout, start: tuple[int, int]) -> tuple[Replay, list[str]]:
    """The automatic player's game as an Arbiter-like recording: the pointer glides to each
    move's cell, then clicks (left for an uncover, right for a flag), a move every 0.4 s."""
    moves = [str(m) for m in play_game(layout, start, rule="opening").moves]
    events: list[MouseEvent] = []
    x, y = 0, 0
    for number, text in enumerate(moves):
        move = Move.parse(text)
        row, col = move.cell
        t = 0.4 * number
        tx, ty = col * CELL + 8, row * CELL + 8
        for step, share in ((0.3, 0.5), (0.2, 1.0)):
            x, y = round(x + (tx - x) * share), round(y + (ty - y) * share)
            events.append(MouseEvent(round(t - step, 3) + 1, "mv", x, y, y // CELL, x // CELL))
        press, release = ("rc", "rr") if text.endswith("*") else ("lc", "lr")
        events.append(MouseEvent(t + 1, press, x, y, row, col))
        events.append(MouseEvent(round(t + 0.05, 3) + 1, release, x, y, row, col))
    replay = Replay("avf", "synthetic.avf", layout, layout.mine_count, tuple(events), None, None)
    return replay, moves


def expert_layout() -> Layout:
    return generate_layout(16, 30, 99, start=(8, 15), rule="opening", seed=25)


@functools.cache
def expert_game() -> tuple[Replay, list[str]]:
    """Played once per process: a Replay is frozen, and no test changes the list of moves."""
    return synthetic_replay(expert_layout(), (8, 15))


# --- the data ------------------------------------------------------------------------------------


def test_replay_frames_carry_the_figures_of_the_board_they_show_and_the_pointer() -> None:
    replay, moves = expert_game()
    result = review_replay(replay, keep_analyses=True)
    assert [str(m) for m in result.game.moves] == moves
    frames, track = replay_frames(result)
    assert len(frames) == len(moves) + 1
    labels = ["Time", "3BV", "3BV/s", "Clicks", "IOE", "RQP", "STNB", "Path"]
    assert [label for label, _ in frames[0].figures] == labels
    assert dict(frames[0].figures)["Time"] == "-" and dict(frames[0].figures)["3BV"].startswith("0/")
    for k in range(1, len(frames)):  # frame k shows the board after k moves: the figures after move k-1
        assert frames[k].figures == tuple(result.game.figures[k - 1].labelled())
    assert dict(frames[-1].figures) == dict(result.game.metrics.labelled())
    # The pointer: every event to the end of the game, on the game's clock (from the first
    # release, 1.05 s on the file's).
    assert len(track.times) == len(replay.events) and result.game.start == 1.05
    assert track.times[0] == pytest.approx(replay.events[0].time - 1.05) and track.times[0] < 0
    assert track.buttons.count("l") == track.buttons.count("L") == sum(not m.endswith("*") for m in moves)
    first = next(i for i, b in enumerate(track.buttons) if b == "l")
    assert (track.x[first], track.y[first]) == (15.5, 8.5)  # the centre of I16, the first click


def test_the_page_holds_the_track_and_the_figures_exactly() -> None:
    replay, _ = expert_game()
    frames, track = replay_frames(review_replay(replay, keep_analyses=True))
    data = encode_frames(frames, None, track)
    assert data["figures"] == [label for label, _ in frames[0].figures]
    assert [f["g"] for f in data["frames"]] == [[text for _, text in f.figures] for f in frames]
    mouse = data["mouse"]
    t = x = y = 0
    for j in range(len(track.times)):  # the script's decoding: running sums
        t, x, y = t + mouse["t"][j], x + mouse["x"][j], y + mouse["y"][j]
        assert (t / 1000, x / 16, y / 16) == (pytest.approx(track.times[j]), track.x[j], track.y[j])
    assert mouse["b"] == track.buttons


def test_evf_presses_and_releases_are_told_apart_and_flags_before_the_game_left_out() -> None:
    layout = Layout.from_rows(["*  ", "   ", "   "])
    events = (
        MouseEvent(0.0, "pf", 0, 0, 0, 0),
        MouseEvent(0.1, "l", 40, 40, 2, 2), MouseEvent(0.2, "l", 40, 40, 2, 2),
    )  # fmt: skip
    replay = Replay("evf", "x.evf", layout, 1, events, 0.1, True)
    _, track = replay_frames(review_replay(replay, keep_analyses=True))
    assert track.buttons == "lL" and track.times == (-0.1, 0.0)


def test_bad_tracks_and_figures_are_refused() -> None:
    with pytest.raises(ValueError, match="as many"):
        MouseTrack((0.0,), (0.0, 1.0), (0.0,), ".")
    with pytest.raises(ValueError, match="unknown button"):
        MouseTrack((0.0,), (0.0,), (0.0,), "z")
    replay, _ = expert_game()
    frames, _ = replay_frames(review_replay(replay, keep_analyses=True))
    frames[3] = frames[3].__class__(frames[3].position, figures=(("Speed", "1"),))
    with pytest.raises(ValueError, match="frame 4: its figures' labels"):
        encode_frames(frames)
    assert _encode_mouse(MouseTrack((), (), (), "")) == {"t": [], "x": [], "y": [], "b": ""}


# --- in Chromium ---------------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")

#: Appended to a page: measures what the eye would see and writes it into the DOM for --dump-dom.
PROBE = """<script>
(function () {
  const out = {}, wrap = document.getElementById("boardwrap"), mv = document.querySelector(".c.mv");
  out.counter = document.getElementById("counter").textContent;
  out.play = document.getElementById("play").textContent;
  out.clock = document.getElementById("clocktext").textContent;
  out.figures = [...document.querySelectorAll("#figures dd")].map((e) => e.textContent);
  out.heat = [...document.querySelectorAll(".c.heat")].map((e) => e.textContent);
  out.pageFits = document.documentElement.scrollWidth <= window.innerWidth;
  out.boardFits = wrap.scrollWidth <= wrap.clientWidth + 1;
  out.cell = document.querySelector(".c").getBoundingClientRect().width;
  out.mvShadow = mv ? getComputedStyle(mv).boxShadow : null;
  out.mvOutline = mv ? getComputedStyle(mv).outlineStyle : null;
  const peek = document.querySelector(".c.peek.heat");
  if (peek) {
    const dot = getComputedStyle(peek, "::after"), box = peek.getBoundingClientRect();
    out.peek = { position: dot.position, right: parseFloat(dot.right) / box.width,
                 top: parseFloat(dot.top) / box.height, width: parseFloat(dot.width) / box.width };
  }
  const arrow = document.querySelector("#mouse path");
  out.arrow = arrow ? arrow.getAttribute("visibility") : null;
  const probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify(out);
  document.body.appendChild(probe);
}());
</script>"""


def probe(page: str, tmp_path: Path, query: str, width: int = 1400) -> dict:
    """Open the page with the probe in headless Chromium and read what it measured."""
    path = tmp_path / "page.html"
    path.write_text(page.replace("</body>", PROBE + "\n</body>"), encoding="utf-8")
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},1000",
         "--virtual-time-budget=5000", "--dump-dom", f"file://{path}{query}"],
        capture_output=True, text=True, timeout=90, check=True,
    ).stdout  # fmt: skip
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found is not None, dom[-2000:]
    return json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


@functools.cache
def replay_page() -> tuple[str, int]:
    replay, moves = expert_game()
    result = review_replay(replay, keep_analyses=True)
    frames, track = replay_frames(result)
    return render_viewer("synthetic", result.summary(), frames, result.review.layout, track), len(moves)


@needs_chromium
def test_step_from_the_query_and_the_figures_and_percentages_shown(tmp_path: Path) -> None:
    page, moves = replay_page()
    seen = probe(page, tmp_path, "?step=5")
    assert seen["counter"] == f"step 5 of {moves + 1}" and seen["play"].endswith("play")
    assert seen["figures"][0] == "1.20 s" and seen["figures"][-1].endswith(" px")  # after move 4, at 1.2 s
    assert seen["clock"] == f"1.60 / {0.4 * (moves - 1):.2f} s"  # step 5 sits at its move's time
    assert seen["heat"] and all(re.fullmatch(r"\d{1,3}%", text) for text in seen["heat"])
    assert seen["arrow"] == "visible"


@needs_chromium
def test_the_page_plays_from_the_step_it_opens_at(tmp_path: Path) -> None:
    # Playing runs on animation frames, which a headless Chromium under --virtual-time-budget
    # may not draw at all on a loaded machine: this one test watches the page in real time.
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    page, _ = replay_page()
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        chromium = shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        try:
            tab = browser.new_page()
            tab.goto(f"file://{path}?step=5&play&speed=10")
            clock = "parseFloat(document.getElementById('clocktext').textContent)"
            # Playing starts from the moment step 5's board appeared (1.2 s), and goes on.
            tab.wait_for_function(f"{clock} > 1.2", timeout=30_000)
            assert tab.text_content("#play").endswith("pause")
            step = int(re.match(r"step (\d+) of", tab.text_content("#counter")).group(1))
            assert step >= 5
        finally:
            browser.close()


@needs_chromium
def test_the_moves_frame_stays_inside_its_cell_and_the_mines_dots_in_a_corner(tmp_path: Path) -> None:
    page, _ = replay_page()
    peeking = page.replace('id="showmines"', 'id="showmines" checked')
    seen = probe(peeking, tmp_path, "#step=3")
    # An inset frame draws within the cell's own box: it cannot cover the labels beside A1.
    assert seen["mvOutline"] == "none" and seen["mvShadow"].count("inset") == 2
    dot = seen["peek"]
    assert dot["position"] == "absolute" and dot["right"] < 0.15 and dot["top"] < 0.15 and dot["width"] < 0.3


@needs_chromium
@pytest.mark.parametrize("width", [800, 1400])
def test_an_expert_board_fits_the_window_readably(tmp_path: Path, width: int) -> None:
    layout = expert_layout()
    frames = player_frames(layout, (8, 15))
    seen = probe(render_viewer("expert", {}, frames, layout), tmp_path, "?step=1", width=width)
    assert seen["pageFits"] and seen["boardFits"]
    assert seen["cell"] >= 20  # the percentages are still written
    assert seen["clock"] == ""  # no times: no time scrubber text
