"""The user documentation in docs/ stays in step with the commands and its links stay whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main

from minesat.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
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
