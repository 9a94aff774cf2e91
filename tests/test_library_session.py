"""The library as a data scientist meets it (issue 43): a real IPython session, as Jupyter's kernel
runs one, takes the data-science path of docs/library.md, each step a line or two, and every value
it shows is short (a repr under 2,000 characters; the pictures are Jupyter's other formats)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# Looked for, not imported: importing IPython here would raise this test process's recursion limit
# (to 3000) and pandas its memory, and other tests in the same process measure both.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("IPython") is None or importlib.util.find_spec("pandas") is None,
    reason="the session needs IPython and pandas (the test extra)",
)

ROOT = Path(__file__).resolve().parent.parent

#: The session, cell by cell: what a notebook holds.
CELLS = [
    "import minesat, pandas as pd",
    'analysis = minesat.analyze("puzzles/partial.dat")\nanalysis',
    'minesat.explain("puzzles/partial.dat", "A7")',
    'cells = pd.DataFrame(analysis.records())\ncells.groupby("state").size().to_dict()',
    'record = minesat.play("expert", "D4", strategy="safest", seed=1)\nrecord',
    'sim = minesat.simulate("beginner", 200, seed=0)\nsim',
    "games = pd.DataFrame(sim.records())\ngames.shape, bool(games.won.mean() == sim.win_rate)",
    'minesat.read_position("puzzles/partial.dat")',
    'game = minesat.Game(minesat.Layout.from_rows(["*  ", "   ", "   "]))\ngame.play("C3")',
    "game",
    'games.groupby("guesses").won.mean().round(2).to_dict()',
]

#: Runs the cells in a fresh interpreter's IPython shell (a kernel's), and says what each showed.
DRIVER = textwrap.dedent("""
    import json, sys
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shown = []
    for code in json.loads(sys.stdin.read()):
        result = shell.run_cell(code)
        error = result.error_before_exec or result.error_in_exec
        data = shell.display_formatter.format(result.result)[0] if result.result is not None else {}
        shown.append({"error": None if error is None else repr(error), "plain": data.get("text/plain"),
                      "formats": sorted(data)})
    print("SHOWN " + json.dumps(shown))
""")


@pytest.fixture(scope="module")
def session() -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(CELLS), capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("SHOWN "))
    return json.loads(line[len("SHOWN "):])


def test_every_step_is_a_line_or_two_and_runs(session: list[dict[str, object]]) -> None:
    assert all(len(code.splitlines()) <= 2 for code in CELLS)
    assert [s["error"] for s in session] == [None] * len(CELLS)


def test_every_value_shown_is_short(session: list[dict[str, object]]) -> None:
    for code, shown in zip(CELLS, session, strict=True):
        assert shown["plain"] is None or len(shown["plain"]) < 2000, code


def test_the_session_shows_what_it_did(session: list[dict[str, object]]) -> None:
    plain = [s["plain"] for s in session]
    assert plain[1] == "Analysis(9x9, 10 mines: 8 safe, 7 mines, 0 uncertain, exact)"
    assert "image/svg+xml" in session[1]["formats"]  # Jupyter draws the analysis
    assert plain[2] == "Explanation('A7 is safe because of A9, B8')"
    assert plain[3] == "{'mine': 7, 'safe': 8}"
    assert plain[4].startswith("<GameRecord: ") and "3BV" in plain[4]
    assert plain[5].startswith("Simulation(9x9/10 opening at D4, best, seed 0: 200 games, ")
    assert plain[6] == "((200, 22), True)"
    assert plain[7].startswith("Position.from_rows(['   1????1', ") and plain[7].endswith("], mines=10)")
    assert "image/svg+xml" in session[7]["formats"]  # drawn in Jupyter
    assert plain[8] == "<MoveResult.SOLVED: 'solved'>"
    assert plain[9] == "Game(3x3/1, won, 8 of 8 cells uncovered)"
    assert "image/svg+xml" in session[9]["formats"]
    assert plain[10].startswith("{0: ")


def test_the_reprs_of_large_values_stay_short(tmp_path: Path) -> None:
    """The values a session meets at their largest: a 1000x1000 board, an expert game's replay
    and its review (a replay's repr was 300 KB, its review's 500 KB, before issue 43)."""
    from minesat.board import Layout, Position
    from minesat.formats import read_replay, write_replay
    from minesat.game import Game
    from minesat.generate import BoardSpec
    from minesat.player import play_game
    from minesat.recording import record_game
    from minesat.replay import review_replay

    assert len(repr(Position.covered(1000, 1000, 10))) < 100
    assert len(repr(Layout(1000, 1000, frozenset({(5, 5)})))) < 100
    assert len(repr(Game(Layout(1000, 1000, frozenset({(5, 5)}))))) < 100
    spec = BoardSpec.preset("expert", start="D4")
    layout = spec.layout(seed=spec.game_seed(0, 1))
    record = play_game(layout, "D4")
    assert len(repr(record)) < 200 and len(record.moves) > 100
    path = tmp_path / "expert.rmv"
    write_replay(record_game(layout, record.moves, format="rmv"), path)
    replay = read_replay(path)
    assert repr(replay) == f"Replay(rmv, 16x30/99, {len(replay.events):,} events, {replay.rtime:.2f} s)"
    review = review_replay(path)
    assert len(repr(review)) < 300 and repr(review).startswith("<ReplayReview of Replay(rmv, 16x30/99, ")
    assert len(repr(review.game)) < 200 and len(repr(review.review)) < 200
