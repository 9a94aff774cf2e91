"""Issue 33: the guide's odd boards through the command line (1xN, 100x100, no mines, the most
that fit) end in an answer or a one-line refusal, never a traceback."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from minesat.cli import app

runner = CliRunner()


def test_perfect_from_a_thin_position_with_hundreds_of_mines_left(tmp_path: Path) -> None:
    # 256 mines among 257 covered cells: the search's memo key counted the mines left in one
    # byte, and 256 of them raised an IndexError.
    path = tmp_path / "thin.txt"
    path.write_text("# mines: 256\n" + "?" * 257 + "\n")
    result = runner.invoke(app, ["perfect", str(path), "--top", "1"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("perfect 0.0039 (1 of 257 layouts)")


def test_a_viewer_page_of_a_board_past_its_size_is_refused_before_the_work(tmp_path: Path) -> None:
    # 100x100 with 2 000 mines: the page's analyses passed 5 GB and ten minutes (issue 33's 100x100).
    from minesat.formats import write_layout, write_replay
    from minesat.generate import generate_layout
    from minesat.recording import record_game
    from minesat.viewer import MAX_VIEWER_CELLS

    layout = generate_layout(100, 100, 2000, start=(3, 3), rule="opening", seed=1)
    path = tmp_path / "big.txt"
    write_layout(layout, path)
    page = tmp_path / "page.html"
    result = runner.invoke(app, ["solve", str(path), "--html", str(page)])
    assert result.exit_code == 2 and not page.exists()
    assert result.stderr == (f"minesat: --html draws boards of up to {MAX_VIEWER_CELLS} cells (64x64), not "
                             "100x100: each step keeps its whole analysis; leave out --html\n")
    # A replay as large: refused with --html, reviewed without.
    wide = generate_layout(65, 65, 400, start=(3, 3), rule="opening", seed=1)
    replay = tmp_path / "wide.evf"
    write_replay(record_game(wide, ["D4"], format="evf"), replay)
    result = runner.invoke(app, ["replay", str(replay), "--html", str(page)])
    assert result.exit_code == 2 and "not 65x65" in result.stderr and not page.exists()
    assert runner.invoke(app, ["replay", str(replay)]).exit_code == 0
