"""``minesat perfect``: the JSON keys SPEC section 13 promises, the text line, and one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.cli import app

runner = CliRunner()


def perfect(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["perfect", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


BOARD = ["--rows", "4", "--cols", "4", "--mines", "4", "--first-click", "safe"]


def test_json_has_the_promised_keys() -> None:
    code, out, _ = perfect(*BOARD, "--start", "B2", "--strategy", "best", "--strategy", "safest", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"rows", "cols", "mines", "first_click", "start", "wins", "layouts", "win_probability",
            "states", "seconds", "strategies"} <= set(data)
    assert (data["rows"], data["cols"], data["mines"], data["first_click"]) == (4, 4, 4, "safe")
    assert data["start"] == [1, 1]
    assert data["layouts"] == 1365  # C(15, 4): every layout with B2 safe
    assert data["win_probability"] == data["wins"] / data["layouts"]
    assert set(data["strategies"]) == {"best", "safest"}
    assert all(0 <= wins <= data["wins"] for wins in data["strategies"].values())


def test_without_a_start_the_best_start_and_every_class_are_given() -> None:
    code, out, _ = perfect(*BOARD, "--json")
    assert code == 0
    data = json.loads(out)
    starts = data["starts"]
    assert [s["start"] for s in starts] == [[0, 0], [0, 1], [1, 1]]
    best = max(starts, key=lambda s: s["wins"] / s["layouts"])
    assert data["start"] == best["start"] and data["wins"] == best["wins"]


def test_text_reads_perfect_then_each_strategy() -> None:
    code, out, _ = perfect(*BOARD, "--start", "B2", "--strategy", "safest")
    assert code == 0
    line = out.splitlines()[1]
    assert line.startswith("perfect 0.6696 (914 of 1365 layouts), safest 0.")
    assert line.endswith(" % of perfect)")


def test_a_position_file_gives_its_value_and_the_moves_that_keep_it(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("# mines: 1\n1?\n??\n")
    code, out, _ = perfect(path, "--json", "--strategy", "safest")
    assert code == 0
    data = json.loads(out)
    assert (data["wins"], data["layouts"], data["moves"]) == (1, 3, ["A2", "B1", "B2"])
    assert data["strategies"] == {"safest": {"move": "A2", "wins": 1}}
    assert data["file"] == str(path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rows", "3", "--cols", "3"], "give --preset NAME or all of --rows, --cols and --mines"),
        (["--rows", "3", "--cols", "3", "--mines", "12"], "12 mines do not fit"),
        (["--rows", "3", "--cols", "3", "--mines", "1", "--start", "D1"], "--start D1 is off the 3x3 board"),
        (["--rows", "3", "--cols", "3", "--mines", "1", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["--rows", "3", "--cols", "3", "--mines", "1", "--first-click", "never"], "--first-click must be"),
        (["missing.txt"], "missing.txt"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = perfect(*args)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("minesat: ") and message in err


def test_a_position_without_its_total_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("1?\n??\n")
    code, _, err = perfect(path)
    assert code == 2 and "total number of mines" in err and len(err.splitlines()) == 1
    assert perfect(path, "--mines", "1")[0] == 0


def test_an_inconsistent_position_is_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("# mines: 1\n3?\n??\n")
    code, _, err = perfect(path)
    assert code == 1 and "inconsistent position" in err and len(err.splitlines()) == 1


def test_past_the_budget_is_exit_1_and_says_how_far_it_got() -> None:
    board = ("--rows", "5", "--cols", "5", "--mines", "5", "--max-states", "50", "--json")
    code, out, err = perfect(*board, "--workers", "1")
    assert code == 1
    assert json.loads(out)["error"].startswith("past --max-states 50: stopped at start 1 of 6 (A1)")
    assert len(err.splitlines()) == 1 and "settled after 51 states" in err
    # On several workers the budget is each part's, and the message names the part that ran out.
    code, out, err = perfect(*board, "--workers", "2")
    assert code == 1
    message = json.loads(out)["error"]
    assert re.match(r"past --max-states 50 on the layouts where [A-E][1-5] shows \d \(with several", message)
    assert re.search(r"\d+\.\d% of the layouts of all 6 starts settled after \d+ states", message)
    assert len(err.splitlines()) == 1
