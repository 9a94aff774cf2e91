"""``minesat play`` driven through a pipe, as a script would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from minesat.board import Layout, cell_name
from minesat.cli.play import CommandError, parse_command
from minesat.generate import generate_layout


def play(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from minesat.cli import main; main()", "play", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def seeded_layout() -> Layout:
    """What `play --seed 1` draws when the first click is D4."""
    return generate_layout(9, 9, 10, start=(3, 3), rule="opening", seed=1)


def test_a_scripted_game_is_won_and_ends_at_end_of_input() -> None:
    layout = seeded_layout()
    safe = [(r, c) for r in range(9) for c in range(9) if (r, c) not in layout.mines]
    mine = min(layout.mines)
    lines = ["uncover 4 4", f"flag {mine[0] + 1} {mine[1] + 1}", "show", "bogus command"]
    lines += [f"uncover {cell_name(cell)}" for cell in safe if cell != (3, 3)]
    result = play("\n".join(lines) + "\n", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    out = result.stdout
    assert "new game: 9x9, 10 mines (first click: opening, seed 1)" in out
    assert "uncover D4: valid" in out
    assert f"flag {cell_name(mine)}: valid" in out
    assert "error: unknown command 'bogus command'" in out
    assert "You win" in out
    assert out.count(": solved") == 1


def test_a_lost_game_reveals_the_mines_and_refuses_further_moves() -> None:
    mine = min(seeded_layout().mines)
    script = f"uncover 4 4\nuncover {mine[0] + 1} {mine[1] + 1}\nflag 1 1\nquit\nuncover 4 4\n"
    result = play(script, "--seed", "1")
    assert result.returncode == 0
    out = result.stdout
    assert f"uncover {cell_name(mine)}: blown up" in out
    assert "You lose" in out and " X" in out
    assert "flag A1: refused: the game is over" in out
    assert out.count("uncover D4") == 1  # nothing runs after quit


def test_new_game_and_bad_arguments() -> None:
    script = "new 3 3 9\nnew 4 5 2\nuncover 10 10\nuncover x\nchord 1 1\nhelp\n"
    result = play(
        script, "--rows", "5", "--cols", "5", "--mines", "3", "--first-click", "safe", "--seed", "7"
    )
    assert result.returncode == 0
    out = result.stdout
    assert "new game: 5x5, 3 mines (first click: safe, seed 7)" in out
    assert "error: 9 mines do not fit" in out
    assert "new game: 4x5, 2 mines (first click: safe, seed 8)" in out
    assert "uncover J10: refused: J10 is off the 4x5 board" in out
    assert "error: expected a cell" in out
    assert "chord A1: refused: A1 is not an uncovered number" in out
    assert "new R C M" in out  # the help text


def test_presets_and_bad_options() -> None:
    result = play("", "--preset", "expert")
    assert result.returncode == 0 and "16x30, 99 mines" in result.stdout
    bad = play("", "--preset", "huge")
    assert bad.returncode == 2 and bad.stderr.startswith("minesat: --preset: unknown preset")
    assert play("", "--rows", "5").returncode == 2
    assert play("", "--rows", "3", "--cols", "3", "--mines", "9").returncode == 2


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("uncover 1 5", ("uncover", (0, 4))),
        ("UNCOVER b6", ("uncover", (1, 5))),
        ("flag 2,3", ("flag", (1, 2))),
        ("unflag A1", ("unflag", (0, 0))),
        ("chord 1 1", ("chord", (0, 0))),
        ("A5+", ("chord", (0, 4))),
        ("new 9 9 10", ("new", (9, 9, 10))),
        ("  ", ("", None)),
        ("show", ("show", None)),
    ],
)
def test_parse_command(line: str, parsed: tuple[str, object]) -> None:
    assert parse_command(line) == parsed


@pytest.mark.parametrize(
    "line",
    ["jump 1 1", "uncover", "uncover 1", "uncover -1 2", "uncover 0 0", "new 9 9", "show now", "clearC8+"],
)
def test_parse_command_errors(line: str) -> None:
    with pytest.raises(CommandError):
        parse_command(line)
