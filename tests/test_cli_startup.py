"""Issue 42: a command imports what it uses. ``import minesat.cli``, ``minesat --version`` and
``minesat --help`` import no command's work, ``minesat analyze`` of a small file none of the rest
(SPEC 19). What is imported is checked here, in a fresh interpreter; how long it takes is measured
by benchmarks/startup.py, never asserted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer.main

from minesat.cli import COMMANDS, app, load_commands

#: What no command line needs before it knows its command: the web app, the simulator, the
#: perfect-play search and the libraries only they and large boards use.
HEAVY = ("minesat.web", "minesat.simulation", "minesat.sweeping", "minesat.perfect", "minesat.exact",
         "minesat.player", "minesat.store", "minesat.report", "networkx", "numpy", "matplotlib", "jinja2",
         "starlette")


def imported_by(code: str, *args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules a fresh interpreter holds after ``code`` (run with ``sys.argv[1:] == args``)."""
    script = (
        "import json, sys\n"
        f"sys.argv = ['minesat', *{list(args)!r}]\n"
        "try:\n"
        + "".join(f"    {line}\n" for line in code.splitlines())
        + "except SystemExit:\n    pass\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n"
    )
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          timeout=120)
    marker = done.stderr.rindex("MODULES ")
    return set(json.loads(done.stderr[marker + len("MODULES "):])), done


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


def commands(modules: set[str]) -> list[str]:
    """The command modules imported (``common`` is what every command shares, the output guard too)."""
    return sorted(m for m in modules if m.startswith("minesat.cli.") and m != "minesat.cli.common")


def test_importing_the_command_line_imports_no_command() -> None:
    modules, _ = imported_by("import minesat.cli")
    assert heavy(modules) == []
    assert [m for m in modules if m.startswith("minesat.cli.")] == []
    assert "minesat.board" not in modules  # import minesat is lazy too


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["-h"]])
def test_version_and_help_import_no_command(args: list[str]) -> None:
    modules, done = imported_by("from minesat.cli import main\nmain()", *args)
    assert done.returncode == 0, done.stderr
    assert heavy(modules) == []
    assert commands(modules) == []


def test_analyze_of_a_small_file_imports_only_the_analysis(tmp_path: Path) -> None:
    board = tmp_path / "small.txt"
    board.write_text("# mines: 1\n1?\n??\n")
    modules, done = imported_by("from minesat.cli import main\nmain()", "analyze", str(board))
    assert "best guess" in done.stdout, done.stderr
    assert heavy(modules) == []
    assert commands(modules) == ["minesat.cli.analyze"]
    # The small road decides it: no SAT solver, no look-ahead (issue 51).
    assert sorted({"pysat", "minesat.analysis.glance", "minesat.analysis.reveal"} & modules) == []


def test_a_command_help_imports_that_command_only() -> None:
    modules, done = imported_by("from minesat.cli import main\nmain()", "convert", "--help")
    assert done.returncode == 0 and "Usage: minesat convert" in done.stdout
    assert commands(modules) == ["minesat.cli.boards"]


def test_the_list_of_commands_reads_as_each_command_s_own_help() -> None:
    """The summaries ``minesat --help`` shows without importing a command are its help's first
    paragraph, and every command is listed. (Their order in this process is the order their
    modules were first imported, which other tests in the same worker may have done; ``--help``
    takes its order from :data:`COMMANDS`.)"""
    load_commands()
    group = typer.main.get_command(app)
    assert sorted(group.commands) == sorted(COMMANDS)  # type: ignore[attr-defined]
    for name, (module, summary) in COMMANDS.items():
        command = group.commands[name]  # type: ignore[attr-defined]
        assert command.callback is not None
        assert command.help is not None
        assert " ".join(command.help.split("\n\n")[0].split()) == summary, name
        registered = next(i for i in app.registered_commands
                          if (i.name or typer.main.get_command_name(i.callback.__name__)) == name)
        assert registered.callback.__module__ == f"minesat.cli.{module}"


def test_the_help_lists_the_commands_alike_loaded_or_not() -> None:
    _, lazy = imported_by("from minesat.cli import main\nmain()", "--help")
    _, loaded = imported_by("from minesat.cli import load_commands, main\nload_commands()\nmain()", "--help")
    assert "Commands:" in lazy.stdout and "sweep" in lazy.stdout
    assert lazy.stdout == loaded.stdout


def test_import_minesat_keeps_every_name_it_had() -> None:
    import minesat
    import minesat.board

    before = ["COVERED", "FLAG", "PRESETS", "Action", "Cell", "Layout", "Move", "Position", "cell_name",
              "parse_cell"]  # what it exported before the front door (issue 43)
    assert set(before) <= set(minesat.__all__)
    for name in before:
        assert getattr(minesat, name) is getattr(minesat.board, name)
    assert minesat.board is sys.modules["minesat.board"]
    assert set(minesat.__all__) <= set(dir(minesat))
    with pytest.raises(AttributeError):
        _ = minesat.no_such_name  # type: ignore[attr-defined]


#: When this module was imported: after the test process started, before any test runs.
IMPORTED = time.perf_counter()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the process's start is read from /proc")
def test_a_time_limit_counts_from_the_process_start_only_when_the_command_is_the_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``minesat analyze --time-limit`` counts the interpreter's start-up against the limit when
    the command is the process's own (``minesat`` through ``run_main``), and only then: a command
    called within a longer-lived process (a test, a script) counts from its call."""
    from minesat.cli import common

    before = time.perf_counter()
    assert before <= common.command_began() <= time.perf_counter()
    monkeypatch.setattr(common, "_COMMAND_IS_PROCESS", True)
    began = common.command_began()
    # This process started before this module was read; a start more than a minute back is
    # taken as a minute (a clock not believed), so a long-lived test worker gets that.
    assert began <= max(IMPORTED, time.perf_counter() - 60)
