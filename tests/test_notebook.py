"""Positions, layouts, analyses and reviews show themselves as pictures in Jupyter (issue 25):
their ``_repr_svg_`` / ``_repr_html_`` are well-formed and hold every cell of the board."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest

import minesat.notebook  # noqa: F401  (attaches the display hooks)
from minesat.analysis import analyze
from minesat.board import Layout, Move, Position, cell_name
from minesat.generate import generate_layout
from minesat.player import play_game
from minesat.recording import record_game
from minesat.replay import review_replay
from minesat.review import review_game

SVG = "{http://www.w3.org/2000/svg}"


def cell_titles(svg: str) -> dict[str, str]:
    """Each cell's tooltip, by cell name, from a well-formed SVG document."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    tips = [g.find(f"{SVG}title") for g in root.iter(f"{SVG}g")]
    return {t.text.split(":")[0]: t.text for t in tips if t is not None and t.text}


def all_names(rows: int, cols: int) -> set[str]:
    return {cell_name((r, c)) for r in range(rows) for c in range(cols)}


def test_a_position_draws_every_cell() -> None:
    position = Position.from_rows(["1?2", "?*?", "123"], mines=2)
    svg = position._repr_svg_()
    titles = cell_titles(svg)
    assert set(titles) == all_names(3, 3)
    assert titles["A1"] == "A1: 1" and titles["B2"] == "B2: flag" and titles["C3"] == "C3: 3"


def test_a_layout_draws_its_mines_and_numbers() -> None:
    layout = Layout.from_rows(["*  ", "   ", "  *"])
    titles = cell_titles(layout._repr_svg_())
    assert set(titles) == all_names(3, 3)
    assert titles["A1"] == "A1: mine" and titles["C3"] == "C3: mine" and titles["B2"] == "B2: 2"
    assert sum(t.endswith(": mine") for t in titles.values()) == layout.mine_count


def test_an_analysis_draws_its_position_and_probabilities() -> None:
    position = Position.from_rows(["1??", "???"], mines=1)
    analysis = analyze(position)
    titles = cell_titles(analysis._repr_svg_())
    assert set(titles) == all_names(2, 3) and titles["A1"] == "A1: 1"
    assert titles["A2"] == "A2: mine probability 33.3%" and titles["B3"] == "B3: certainly safe"
    # The position rides along for the picture only: the analysis compares as before.
    assert dataclasses.replace(analysis, position=None) == analysis
    bare = cell_titles(dataclasses.replace(analysis, position=None)._repr_svg_())
    assert set(bare) == all_names(2, 3) and bare["A2"] == titles["A2"]


def game(seed: int) -> tuple[Layout, tuple[Move, ...], bool]:
    layout = generate_layout(9, 9, 10, start=(4, 4), rule="safe", seed=seed)
    record = play_game(layout, (4, 4), rule="safe")
    return layout, record.moves, record.won


@pytest.mark.parametrize("won", [True, False])
def test_a_review_shows_the_board_and_its_notable_moves(won: bool) -> None:
    layout, moves, _ = next(g for g in map(game, range(200)) if g[2] == won and len(g[1]) > 5)
    review = review_game(layout, moves)
    html = review._repr_html_()
    root = ET.fromstring(f"<div>{html}</div>")  # well-formed: the SVG inside and the table
    svg = ET.tostring(root.find(f".//{SVG}svg"), encoding="unicode")
    titles = cell_titles(svg)
    assert set(titles) == all_names(9, 9)
    assert ("Won" if won else "Lost") in html and f"in {len(moves)} moves" in html
    if not won:  # the mines are drawn, the one hit outlined
        assert review.exploded is not None
        mines = [titles[cell_name(cell)] for cell in layout.mines]
        assert all(t.endswith((": mine", ": flag")) for t in mines)
        assert titles[cell_name(review.exploded)].endswith(": mine")
    rows = root.findall(".//tr")[1:]
    assert len(rows) == sum(m.verdict.value in ("guess", "loss", "wrong") for m in review.moves)
    assert all(re.search(r"(guess|hit)", "".join(r.itertext())) for r in rows)


def test_a_replay_review_shows_its_title() -> None:
    layout, moves, _ = game(1)
    replay = record_game(layout, moves, date=datetime(2026, 1, 2, tzinfo=UTC), path="g.evf")
    html = review_replay(replay)._repr_html_()
    ET.fromstring(f"<div>{html}</div>")
    assert "g.evf: 9x9, 10 mines, minesat" in html


def test_ipython_picks_the_pictures() -> None:
    formatters = pytest.importorskip("IPython.core.formatters", reason="IPython is not installed")
    formatter = formatters.DisplayFormatter()
    position = Position.from_rows(["1?", "??"], mines=1)
    layout, moves, _ = game(2)
    review = review_game(layout, moves)
    for value, kind in ((position, "image/svg+xml"), (layout, "image/svg+xml"),
                        (analyze(position), "image/svg+xml"), (review, "text/html")):
        data, _ = formatter.format(value)
        assert kind in data and data[kind].lstrip().startswith("<"), type(value)


def run_python(code: str) -> str:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_the_model_does_not_import_what_draws_it() -> None:
    out = run_python(
        "import sys, minesat.board, minesat.analysis, minesat.review\n"
        "print(sorted(m for m in ('minesat.svg', 'minesat.notebook') if m in sys.modules))\n"
        "print(hasattr(minesat.board.Position, '_repr_svg_'))"
    )
    assert out.split() == ["[]", "False"]


def test_under_ipython_import_minesat_attaches_the_pictures() -> None:
    # IPython (a kernel or the shell) is imported before any user code runs; a stand-in is enough.
    out = run_python(
        "import sys, types\nsys.modules['IPython'] = types.ModuleType('IPython')\n"
        "from minesat.board import Position\n"
        "print(Position.from_rows(['1?'], mines=1)._repr_svg_()[:4])"
    )
    assert out.strip() == "<svg"
