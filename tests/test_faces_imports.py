"""The faces stay thin: the command line and the web app know the library through a few modules.

``minesat.cli`` and ``minesat.web`` parse input and format output; the work is done by
:mod:`minesat.usecases`. Each face imports at most :data:`MOST` of the library's modules outside
its own package (the other face counted, imports made for type checking too), read from the
source with ``ast``; and each web route is a module-level function. (No function of the library
runs over 80 lines: tests/test_layers.py.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import minesat

PACKAGE = Path(minesat.__file__).parent

#: Most library modules a face may import outside its own package.
MOST = 10

def modules(source: str) -> list[str]:
    """The absolute imports of ``source``, anywhere in it (in functions, under ``TYPE_CHECKING``);
    ``from P import X`` counts as module ``P.X`` when that is a module of the library, and
    ``from minesat import X`` as ``minesat.X`` whatever ``X`` is.

    >>> modules("import minesat.board\\nfrom minesat.usecases import games, FirstClick\\nimport json")
    ['minesat.board', 'minesat.usecases.games', 'minesat.usecases', 'json']
    """
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                module = f"{node.module}.{alias.name}"
                if node.module == "minesat" or _is_module(module):
                    names.append(module)
                elif node.module not in names:
                    names.append(node.module)
    return names


def _is_module(name: str) -> bool:
    """Whether ``name`` (``minesat.X.Y``) is a module or package of the library."""
    if name.split(".")[0] != "minesat":
        return False
    path = PACKAGE.joinpath(*name.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported(face: str) -> dict[str, set[str]]:
    """The library's modules ``face`` imports outside its package, each with the files importing it."""
    found: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / face).rglob("*.py")):
        for name in modules(path.read_text(encoding="utf-8")):
            if name.split(".")[0] == "minesat" and not name.startswith(f"minesat.{face}"):
                found.setdefault(name, set()).add(path.name)
    return found


@pytest.mark.parametrize("face", ["cli", "web"])
def test_a_face_imports_few_library_modules(face: str) -> None:
    found = imported(face)
    assert "minesat.usecases" in found
    assert len(found) <= MOST, sorted(found)


def test_the_web_routes_are_module_functions() -> None:
    from starlette.routing import Route

    from minesat.web import app

    made = app.create_app(allowed_hosts=["testserver"])
    routes = [route for route in made.routes if isinstance(route, Route)]
    assert len(routes) == len(made.routes) > 10
    for route in routes:
        assert "<locals>" not in route.endpoint.__qualname__, route.path
        assert getattr(app, route.endpoint.__name__) is route.endpoint
