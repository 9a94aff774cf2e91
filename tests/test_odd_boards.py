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
