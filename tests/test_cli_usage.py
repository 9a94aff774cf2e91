"""Issue 33: a usage error of any command (a bad option value, an unknown option, a missing
argument) is one ``minesat: ...`` line on stderr and exit status 2, like every other bad input,
not Click's four-line usage block. It is handled once, in the command group (minesat.cli)."""

from __future__ import annotations

import re
import typing

import pytest
import typer
from click.testing import Result
from typer.testing import CliRunner

from minesat.cli import app, load_commands, usage_line

runner = CliRunner()


def one_line(*args: str) -> str:
    result: Result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: "), result.stderr
    assert not result.stdout
    return lines[0]


def number_options() -> list[tuple[str, str, type]]:
    """Every (command, option, int or float) of the command line, read from the commands' signatures."""
    load_commands()
    group = typer.main.get_command(app)
    found = []
    for command in app.registered_commands:
        assert command.callback is not None
        name = command.name or command.callback.__name__
        params = {p.name: p for p in group.commands[name].params}  # type: ignore[attr-defined]
        for arg, hint in typing.get_type_hints(command.callback, include_extras=True).items():
            if typing.get_origin(hint) is not typing.Annotated:
                continue
            base = typing.get_args(hint)[0]
            kinds = [t for t in typing.get_args(base) if t is not type(None)] or [base]
            if kinds[0] in (int, float):
                found.append((name, max(params[arg].opts, key=len), kinds[0]))
    return found


NUMBER_OPTIONS = number_options()


def test_every_number_option_is_found() -> None:
    assert len(NUMBER_OPTIONS) > 25
    assert ("perfect", "--time-limit", float) in NUMBER_OPTIONS and ("serve", "--port", int) in NUMBER_OPTIONS


@pytest.mark.parametrize(("command", "option", "kind"), NUMBER_OPTIONS)
def test_a_value_that_is_no_number_is_one_line(command: str, option: str, kind: type) -> None:
    line = one_line(command, option, "x")
    assert line == f"minesat: {option} must be a {'whole ' if kind is int else ''}number, not x"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "--first-click", "bogus"], "--first-click must be one of opening, safe, any, not 'bogus'"),
        (["perfect", "--max-states", "0"], "--max-states must be at least 1, not 0"),
        (["perfect", "--max-states", "-5"], "--max-states must be at least 1, not -5"),
        (["serve", "--port", "-1"], "--port must be at least 0, not -1"),
        (["serve", "--port", "99999"], "--port must be at most 65535, not 99999"),
        (["simulate", "--games", "2.5"], "--games must be a whole number, not 2.5"),
        (["analyze", "--bogus"], "no such option: --bogus"),
        (["bogus"], "no such command 'bogus'"),
        (["simulate", "--games"], "option '--games' requires an argument"),
        (["analyze"], "FILE is required"),
        (["convert"], "IN is required"),
        (["convert", "a.txt"], "OUT is required"),
        (["simulate", "--mines", ""], "--mines must be a whole number, not ''"),
        (["perfect", "--time-limit", " "], "--time-limit must be a number, not ' '"),
        (["sweep", "--games", "1", "--rows", "9", "--cols", "9", "--mines", "9", "--start", "Z99"],
         "--start Z99 is off the 9x9 board"),
        (["simulate", "--games", "1", "--preset", "huge"],
         "--preset: unknown preset 'huge' (known: beginner, intermediate, expert)"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], expected: str) -> None:
    assert one_line(*args) == f"minesat: {expected}"


def required_arguments() -> list[tuple[str, int]]:
    """Every (command, n) where the command's n-th argument is required, read from the commands."""
    load_commands()
    group = typer.main.get_command(app)
    found = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        arguments = [p for p in command.params if p.param_type_name == "argument"]
        found += [(name, i) for i, p in enumerate(arguments) if p.required]
    return found


@pytest.mark.parametrize(("command", "given"), required_arguments())
def test_a_missing_argument_is_named_as_the_help_names_it(command: str, given: int) -> None:
    """``analyze``'s FILE, not its parameter's name FILES; ``convert``'s IN and OUT, not SOURCE, TARGET."""
    line = one_line(command, *["a.txt"] * given)
    usage = runner.invoke(app, [command, "--help"]).stdout.splitlines()[0]
    named = line.removeprefix("minesat: ").removesuffix(" is required")
    assert line.endswith(" is required") and named.isupper(), line
    assert named in re.split(r"[\s{}\[\].]+", usage), usage


def test_no_arguments_still_shows_the_help() -> None:
    result = runner.invoke(app, [])
    assert "Commands" in result.output and "analyze" in result.output


def test_a_plain_message_reads_as_a_sentence_part() -> None:
    assert usage_line(typer.BadParameter("No such thing.")) == "no such thing"
    assert usage_line(typer.BadParameter("CELL is off the board")) == "CELL is off the board"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home folder of the test's own: completion is installed there, never in the real one."""
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_completion_for_a_shell_typer_does_not_know_is_one_line(home) -> None:
    for flag in ("--install-completion", "--show-completion"):
        assert one_line(flag, "bogus-shell") == (
            f"minesat: {flag} must be one of bash, zsh, fish, powershell, pwsh, not 'bogus-shell'")
    assert list(home.iterdir()) == []


def test_completion_with_no_shell_found_asks_for_its_name(home, monkeypatch) -> None:
    """Where no shell is found (typer said ``Shell None is not supported.``, exit 1, no prefix)."""
    import shellingham

    def nothing() -> None:
        raise shellingham.ShellDetectionFailure()

    monkeypatch.setattr(shellingham, "detect_shell", nothing)
    assert one_line("--install-completion") == (
        "minesat: --install-completion: cannot tell which shell this is; name it: "
        "--install-completion bash (or zsh, fish, powershell, pwsh)")
    assert list(home.iterdir()) == []


def test_completion_is_installed_for_the_shell_named(home) -> None:
    result = runner.invoke(app, ["--install-completion", "bash"])
    assert result.exit_code == 0, result.output
    assert "minesat" in (home / ".bash_completions" / "minesat.sh").read_text()
    shown = runner.invoke(app, ["--show-completion", "zsh"])
    assert shown.exit_code == 0 and "compdef" in shown.stdout
