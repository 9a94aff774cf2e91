"""The user documentation in docs/ stays in step with the commands and its links stay whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main

from minesat.cli import app, load_commands

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
load_commands()
COMMAND = typer.main.get_command(app)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


@pytest.mark.parametrize("page", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_in_the_project(page: Path) -> None:
    for target in LINK.findall(page.read_text()):
        if "://" in target:
            continue
        resolved = (page.parent / target).resolve()
        assert resolved.exists(), f"{page.name}: broken link {target}"
        assert ROOT in resolved.parents or resolved == ROOT, f"{page.name}: {target} leaves the project"


def test_the_readme_sends_readers_to_docs() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "docs/README.md" in readme and "../shared" not in readme


@pytest.mark.parametrize("name", sorted(COMMAND.commands))  # type: ignore[attr-defined]
def test_every_command_has_a_page_naming_each_option(name: str) -> None:
    page = DOCS / "commands" / f"{name}.md"
    assert page.exists(), f"no docs/commands/{name}.md"
    text = page.read_text()
    assert f"(commands/{name}.md)" in (DOCS / "README.md").read_text(), "not linked from docs/README.md"
    for param in COMMAND.commands[name].params:  # type: ignore[attr-defined]
        for option in param.opts:
            if option.startswith("--") and option != "--help":
                assert option in text, f"{page.name} does not mention {option}"


def test_the_readme_replay_example_runs_from_a_fresh_clone_as_shown(tmp_path: Path) -> None:
    """The README's "A real game" commands, run in an empty folder with only puzzles/ beside them
    (the shared sample replays are not in the repository), print what the README shows, but
    the date of the game and minesat's version."""
    import os
    import subprocess
    import sys

    readme = (ROOT / "README.md").read_text()
    section = readme.split("## A real game, move by move", 1)[1]
    block = section.split("```\n", 2)[1]
    assert "--save-replay" in block and "minesat replay" in block
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    minesat = f"{sys.executable} -c 'from minesat.cli import main; main()'"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    undated = re.compile(r"minesat \S+, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
    commands = re.split(r"^\$ ", block, flags=re.M)[1:]
    for command in commands:
        line, _, expected = command.partition("\n")
        done = subprocess.run(
            line.replace("minesat ", minesat + " ", 1), shell=True, cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=300,
        )
        assert done.returncode == 0, done.stderr
        out = done.stdout + done.stderr
        assert undated.sub("DATE", out) == undated.sub("DATE", expected), line


#: Pages whose shell examples (``$ minesat ...`` with the output below it, ``$ cat FILE``
#: with the file's content) are run and compared, the time a search took aside.
EXAMPLE_PAGES = ["commands/perfect.md", "commands/sweep.md"]  # analyze.md cuts its example short ("...")


def shell_examples(page: Path) -> list[list[tuple[str, str]]]:
    """Each fenced block of ``page`` that runs minesat: its (command, output shown) pairs in order."""
    blocks = re.findall(r"^```\n(.*?)^```", page.read_text(), flags=re.M | re.S)
    found = []
    for block in blocks:
        if "$ minesat " not in block:
            continue
        steps = [step.partition("\n") for step in re.split(r"^\$ ", block, flags=re.M)[1:]]
        found.append([(command, shown) for command, _, shown in steps])
    return found


@pytest.mark.parametrize("name", EXAMPLE_PAGES)
def test_the_shell_examples_print_what_the_page_shows(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    from typer.testing import CliRunner

    monkeypatch.chdir(tmp_path)
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")  # the examples' files, as in a clone
    seconds = re.compile(r"in \d+(\.\d+)? s\b")
    examples = shell_examples(DOCS / name)
    assert examples, f"{name} shows no example"
    for steps in examples:
        for command, shown in steps:
            words = shlex.split(command)
            if words[0] == "cat":  # the file the next commands read
                (tmp_path / words[1]).write_text(shown)
                continue
            assert words[0] == "minesat", command
            result = CliRunner().invoke(app, words[1:])
            printed = result.stdout + result.stderr
            assert seconds.sub("in N s", printed) == seconds.sub("in N s", shown), command
