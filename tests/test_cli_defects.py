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


# --- files and folders ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A layout, a store of two games and two replays of one game (.evf and .rmv), to write from."""
    base = tmp_path_factory.mktemp("played")
    layout = base / "l.txt"
    layout.write_text("*..\n...\n..*\n")
    store = base / "s.sqlite"
    assert run("simulate", "--rows", "5", "--cols", "5", "--mines", "3", "--games", "2", "--workers", "1",
               "--db", store).exit_code == 0
    made = {"layout": layout, "store": store}
    for kind in ("evf", "rmv"):
        made[kind] = base / f"a.{kind}"
        assert run("solve", layout, "--start", "B2", "--save-replay", made[kind]).exit_code == 0
    position = base / "p.txt"
    position.write_text("# mines: 1\n1?\n??\n")
    made["position"] = position
    return made


WRITERS = {
    "simulate --db": lambda p, out: ["simulate", "--rows", "4", "--cols", "4", "--mines", "2", "--games", "1",
                                     "--workers", "1", "--db", out],
    "report --out": lambda p, out: ["report", p["store"], "--out", out.with_suffix(".md")],
    "solve --html": lambda p, out: ["solve", p["layout"], "--html", out],
    "solve --save-replay": lambda p, out: ["solve", p["layout"], "--save-replay", out.with_suffix(".evf")],
    "export --out": lambda p, out: ["export", p["store"], "--out", out],
    "generate --out": lambda p, out: ["generate", "--preset", "beginner", "--count", "1", "--out", out],
    "convert": lambda p, out: ["convert", p["layout"], out.with_suffix(".json")],
    "sweep --db": lambda p, out: ["sweep", "--rows", "4", "--cols", "4", "--mines", "2", "--games", "1",
                                  "--workers", "1", "--db", out],
    "sweep --out": lambda p, out: ["sweep", "--rows", "4", "--cols", "4", "--mines", "2", "--games", "1",
                                   "--workers", "1", "--db", out.parent.parent / "sw",
                                   "--out", out.with_suffix(".md")],
    "replay --html": lambda p, out: ["replay", p["evf"], "--html", out.with_suffix(".html")],
    "replay --html DIR": lambda p, out: ["replay", p["evf"], p["rmv"], "--html", out],
    "analyze --svg": lambda p, out: ["analyze", p["position"], "--svg", out.with_suffix(".svg")],
}


@pytest.mark.parametrize("writer", WRITERS)
def test_every_command_makes_the_missing_folders_of_what_it_writes(
    tmp_path: Path, played: dict[str, Path], writer: str
) -> None:
    out = tmp_path / "missing" / "folders" / "out"
    result = run(*WRITERS[writer](played, out))
    assert result.exit_code == 0, result.output
    assert any((tmp_path / "missing" / "folders").iterdir())


CHECKED_FIRST = list(WRITERS)


@pytest.mark.parametrize("writer", CHECKED_FIRST)
def test_a_file_in_the_way_of_an_output_is_one_line(
    tmp_path: Path, played: dict[str, Path], writer: str
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    line = one_line(run(*WRITERS[writer](played, blocker / "out")))
    assert str(blocker) in line


def test_sweep_db_that_is_a_file_says_so(tmp_path: Path) -> None:
    store = tmp_path / "exist.sqlite"
    store.write_text("")
    line = one_line(run("sweep", "--rows", "4", "--cols", "4", "--mines", "2", "--games", "1", "--db", store))
    assert line == f"minesat: {store}: is a file; --db names the directory of the stores, one per point"


@pytest.mark.parametrize("command", ["show", "metrics", "convert", "analyze"])
@pytest.mark.parametrize("name", ["folder", "folder.txt"])
def test_a_directory_where_a_board_is_wanted_is_said_to_be_one(
    tmp_path: Path, command: str, name: str
) -> None:
    folder = tmp_path / name
    folder.mkdir()
    args = [command, folder] + ([tmp_path / "out.txt"] if command == "convert" else [])
    assert one_line(run(*args)) == f"minesat: {folder}: is a directory, not a board file"


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "bogus"])
def test_simulate_and_sweep_leave_no_store_behind_a_scheduler_that_is_not_there(
    tmp_path: Path, address: str
) -> None:
    pytest.importorskip("dask.distributed", reason="the dask extra is not installed")
    board = ["--rows", "4", "--cols", "4", "--games", "1", "--scheduler", address]
    one_line(run("simulate", *board, "--mines", "2", "--db", tmp_path / "runs" / "s.sqlite"))
    one_line(run("sweep", *board, "--mines", "2,3", "--db", tmp_path / "sweep"))
    assert list(tmp_path.iterdir()) == []


def test_replay_pages_of_files_that_share_a_name_are_all_kept(
    tmp_path: Path, played: dict[str, Path]
) -> None:
    pages = tmp_path / "pages"
    result = run("replay", played["evf"], played["rmv"], "--html", pages)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in pages.iterdir()) == ["a.evf.html", "a.rmv.html"]
    # The same name in two folders cannot be told apart: refused before any page is written.
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    for folder in ("x", "y"):
        (tmp_path / folder / "a.evf").write_bytes(played["evf"].read_bytes())
    other = tmp_path / "other"
    line = one_line(run("replay", tmp_path / "x" / "a.evf", tmp_path / "y" / "a.evf", "--html", other))
    assert "would both be written as" in line and not other.exists()
