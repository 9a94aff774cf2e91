"""The SVG picture of an analysis (SPEC section 12) and ``analyze --svg``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from minesat.analysis import analyze
from minesat.board import COVERED, FLAG, cell_name
from minesat.cli import app
from minesat.formats import read_position
from minesat.svg import position_svg, shade

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
NS = "{http://www.w3.org/2000/svg}"


def tips(svg: str) -> dict[str, str]:
    """Each cell's tooltip, by cell name: the picture says what it shows."""
    root = ET.fromstring(svg)
    out = {}
    for group in root.iter(f"{NS}g"):
        text = group.find(f"{NS}title").text  # type: ignore[union-attr]
        assert text is not None
        out[text.split(":")[0]] = text
    return out


def test_every_cell_is_drawn_with_what_the_analysis_says() -> None:
    position = read_position(PUZZLES / "expert-mid.txt")
    analysis = analyze(position)
    svg = position_svg(position, analysis, title="expert <mid> & co")
    by_cell = tips(svg)
    assert len(by_cell) == position.rows * position.cols
    for cell in position.all_cells():
        tip = by_cell[cell_name(cell)]
        if cell in analysis.safe:
            assert tip.endswith("certainly safe")
        elif cell in analysis.mine:
            assert tip.endswith("certainly a mine")
        elif position[cell] == FLAG:
            assert tip.endswith("flag")
        elif position[cell] == COVERED:
            p = analysis.probability[cell[0]][cell[1]]
            assert p is not None and tip.endswith(f"{p:.1%}")
    texts = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert "&" not in "".join(t for t in texts if t and "expert" not in t)
    assert "expert <mid> & co" in texts  # escaped in the file, intact when read
    assert "A" in texts and "P" in texts and "30" in texts  # row letters, column numbers
    percents = [t for t in texts if t and t.endswith("%") and t[:-1].isdigit()]
    assert len(percents) >= len(analysis.unknown)


def test_shade_runs_green_to_red() -> None:
    greens = [int(shade(p / 10)[3:5], 16) for p in range(11)]
    reds = [int(shade(p / 10)[1:3], 16) for p in range(11)]
    assert reds[0] < reds[5] and greens[10] < greens[5]


def test_analyze_svg_writes_the_picture(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "p.svg"
    result = runner.invoke(app, ["analyze", str(PUZZLES / "partial.dat"), "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert len(tips(out.read_text())) == 81
    partial = str(PUZZLES / "partial.dat")
    two = runner.invoke(app, ["analyze", partial, partial, "--svg", str(out)])
    assert two.exit_code == 2 and "one FILE" in two.stderr
    (tmp_path / "notes.txt").write_text("")  # a file where a folder would be (missing ones are made)
    bad = runner.invoke(app, ["analyze", partial, "--svg", str(tmp_path / "notes.txt" / "p.svg")])
    assert bad.exit_code == 2 and "notes.txt is a file, not a folder" in bad.stderr
