"""The ``minesat`` command line: typer commands that only wire the library together.

Each group of commands lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Annotated, Any

import typer
from typer.core import TyperGroup

# Click's exception classes, whichever Click typer uses (its own copy in recent versions).
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
_ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

#: How a bad value reads, by the kind of error typer's value checks report.
_RULES = {
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "finite_number": "must be a finite number",
    "bool_parsing": "must be true or false",
}


class UsageLine(_ClickException):  # type: ignore[misc,valid-type]
    """A usage error (a bad option value, a missing argument, an unknown option) told in one line."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        typer.echo(f"minesat: {self.message}", err=True)


def usage_line(err: Exception) -> str:
    """One line for a usage error Click or typer raised: the option, what it takes, and what it got.

    >>> usage_line(typer.BadParameter("No such thing."))
    'no such thing'
    """
    message = str(getattr(err, "message", None) or err).rstrip(".")
    param = getattr(err, "param", None)
    if param is None:
        return message[:1].lower() + message[1:] if message[1:2].islower() else message
    opts = list(getattr(param, "opts", None) or [])
    longest = max(opts, key=len) if opts else "value"
    name = longest if longest.startswith("-") else longest.upper()
    cause = err.__cause__
    details = cause.errors() if cause is not None and hasattr(cause, "errors") else []
    if details:  # typer's checks (pydantic): the rule broken and the value given
        detail = details[0]
        rule = _RULES.get(detail.get("type", ""))
        if rule is not None:
            return f"{name} {rule.format(**detail.get('ctx', {}))}, not {detail.get('input')}"
        message = str(detail.get("msg", message)).removeprefix("Value error, ").rstrip(".")
    if (choice := re.fullmatch(r"'(.*)' is not one of (.*)", message)) is not None:
        return f"{name} must be one of {choice[2].replace(chr(39), '')}, not {choice[1]!r}"
    if type(err).__name__ == "MissingParameter":
        return f"{name} is required"
    return f"{name}: {message}"


@contextmanager
def _one_line() -> Iterator[None]:
    """Turn Click's usage errors into :class:`UsageLine` (help asked for by no arguments is shown as help)."""
    try:
        yield
    except _UsageError as err:
        if type(err).__name__ == "NoArgsIsHelpError":
            raise
        raise UsageLine(usage_line(err)) from err


class Commands(TyperGroup):
    """``minesat``'s command group: a usage error of any command is one ``minesat: ...`` line, exit 2,
    as every other bad input is (not Click's usage block)."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _one_line():
            return super().invoke(ctx)


app = typer.Typer(
    cls=Commands,
    name="minesat",
    help="Minesweeper constraint-solving analysis engine: analyse boards, play, simulate, report.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain help: the rich panels print "<bool>" beside every flag, as if it took a value.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from minesat import __version__

        typer.echo(f"minesat {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Minesweeper constraint-solving analysis engine: analyse boards, play, simulate, report.

    Documentation: docs/README.md in the project. Exit status: 0 success, 1 an
    inconsistent position, 2 bad input.
    """

# Importing a module registers its commands on ``app``.
from minesat.cli import analyze as _analyze  # noqa: E402,F401
from minesat.cli import boards as _boards  # noqa: E402,F401
from minesat.cli import export as _export  # noqa: E402,F401
from minesat.cli import generate as _generate  # noqa: E402,F401
from minesat.cli import metrics as _metrics  # noqa: E402,F401
from minesat.cli import perfect as _perfect  # noqa: E402,F401
from minesat.cli import play as _play  # noqa: E402,F401
from minesat.cli import replay as _replay  # noqa: E402,F401
from minesat.cli import report as _report  # noqa: E402,F401
from minesat.cli import serve as _serve  # noqa: E402,F401
from minesat.cli import simulate as _simulate  # noqa: E402,F401
from minesat.cli import solve as _solve  # noqa: E402,F401
from minesat.cli import sweep as _sweep  # noqa: E402,F401


def main() -> None:
    app()
