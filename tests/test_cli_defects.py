"""Issue 33's smaller command-line defects, one test each: options that would do nothing are
refused, refusals print their JSON, and the commands agree on files, folders and names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from minesat.cli import app

runner = CliRunner()


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def one_line(result: Result, status: int = 2) -> str:
    """The single ``minesat: ...`` line on stderr (no traceback), after exit ``status``."""
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: "), result.stderr
    return lines[0]


# --- perfect --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1"])
def test_perfect_refuses_a_time_limit_that_is_no_limit(value: str) -> None:
    line = one_line(run("perfect", "--rows", "2", "--cols", "2", "--mines", "1", f"--time-limit={value}"))
    assert line.startswith("minesat: --time-limit must be a number of seconds >= 0 (0: no limit), not ")


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--first-click", "safe"], "--first-click does"),
        (["--first-click", "opening"], "--first-click does"),  # the default, given: still nothing
        (["--workers", "2"], "--workers does"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], "--workers and --scheduler do"),
    ],
)
def test_perfect_from_a_position_refuses_options_that_do_nothing(
    tmp_path: Path, options: list[str], named: str
) -> None:
    path = tmp_path / "p.txt"
    path.write_text("# mines: 1\n1?\n??\n")
    line = one_line(run("perfect", path, *options))
    assert line.startswith(f"minesat: {named} nothing with a POSITION_FILE")
    assert run("perfect", path).exit_code == 0


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("# mines: 1\n3?\n??\n", "inconsistent position"),
        ("# mines: 10\n" + "????????\n" * 4, "layouts: more than the"),
    ],
)
def test_perfect_from_a_position_prints_its_refusal_as_json(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "p.txt"
    path.write_text(text)
    result = run("perfect", path, "--json")
    assert said in one_line(result, 1)
    answer = json.loads(result.stdout)
    assert said in answer["error"] and answer["states"] == 0


# --- generate -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--method", "repair"], "--method does"),
        (["--max-tries", "5"], "--max-tries does"),
        (["--method", "auto", "--max-tries", "5"], "--method and --max-tries do"),
    ],
)
def test_generate_refuses_no_guess_options_without_no_guess(options: list[str], named: str) -> None:
    line = one_line(run("generate", "--preset", "beginner", "--count", "1", *options))
    it = "it" if named.endswith("does") else "them"
    assert line == f"minesat: {named} nothing without --no-guess: leave {it} out"
    assert run("generate", "--preset", "beginner", "--count", "1", "--no-guess", *options).exit_code == 0
