"""The ``minesat`` command line: typer commands that only wire the library together.

Each group of commands lives in its own module, which declares them on its own ``commands``;
this module imports it and adds them to :data:`app` only when one of its commands is run or its
help is asked for (:data:`COMMANDS`): ``minesat --version``, ``minesat --help`` and ``minesat
analyze`` import what they use and no more. A command's module never imports this one, so the
two import each other in no loop.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

__all__ = ["COMMANDS", "SHELLS", "Commands", "UsageLine", "app", "load_commands", "main", "usage_line"]

# Click's exception classes, whichever Click typer uses (its own copy in recent versions).
_UsageError: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
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
    name = _named(param)
    cause = err.__cause__
    details = cause.errors() if cause is not None and hasattr(cause, "errors") else []
    if details:  # typer's checks (pydantic): the rule broken and the value given
        detail = details[0]
        rule = _RULES.get(detail.get("type", ""))
        if rule is not None:
            return f"{name} {rule.format(**detail.get('ctx', {}))}, not {_given(detail.get('input'))}"
        message = str(detail.get("msg", message)).removeprefix("Value error, ").rstrip(".")
    if (choice := re.fullmatch(r"'(.*)' is not one of (.*)", message)) is not None:
        return f"{name} must be one of {choice[2].replace(chr(39), '')}, not {choice[1]!r}"
    if type(err).__name__ == "MissingParameter":
        return f"{name} is required"
    return f"{name}: {message}"


def _given(value: Any) -> str:
    """A value as given, quoted where it would not show (empty, or blank at an end: ``not ''``).

    >>> _given("2.5"), _given(""), _given(" 3")
    ('2.5', "''", "' 3'")
    """
    text = str(value)
    return repr(text) if text != text.strip() or not text else text


def _named(param: Any) -> str:
    """A parameter as ``--help`` names it: an option by its longest name, an argument by the name
    its usage line shows (``IN``, ``FILE``; not the function's ``source``, ``files``)."""
    opts = list(getattr(param, "opts", None) or [])
    longest = max(opts, key=len) if opts else "value"
    if longest.startswith("-"):
        return longest
    return (getattr(param, "metavar", None) or longest.upper()).removesuffix("...")


@contextmanager
def _one_line() -> Iterator[None]:
    """Turn Click's usage errors into :class:`UsageLine` (help asked for by no arguments is shown as help)."""
    try:
        yield
    except _UsageError as err:
        if type(err).__name__ == "NoArgsIsHelpError":
            raise
        raise UsageLine(usage_line(err)) from err


#: Every command, in the order ``minesat --help`` lists them: the module under ``minesat.cli`` that
#: defines it, and the first paragraph of its help, which the list shows without importing the
#: module (tests/test_cli_startup.py keeps the two equal).
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("analyze", "Classify every covered cell as certainly safe, certainly a mine, or uncertain."),
    "show": ("boards", "Draw a board file with row letters and column numbers."),
    "convert": ("boards", "Convert a board file between formats (text, mine, mbf, json)."),
    "export": ("export", "One record per stored game (or per guess), with its run's settings: JSON Lines, "
               "CSV or Parquet."),
    "generate": ("generate", "Write seeded layouts as a board set: JSON Lines, one board per line."),
    "metrics": ("metrics", "How hard each layout is to clear: cells, mines, 3BV, openings, islands, "
                "greedy ZiNi."),
    "perfect": ("perfect", "The exact chance to win under perfect play, and how close each strategy comes."),
    "play": ("play", "Play Minesweeper line by line (works from a pipe too)."),
    "replay": ("replay", "Replay real games move by move through minesat's rules and analyse every move."),
    "report": ("report", "Win rate with a Wilson 95 % interval, guesses per game, where games are lost, "
               "win rate by 3BV, time per game, and the command that reproduces each run."),
    "serve": ("serve", "Serve the analyser page and its JSON API (docs/commands/serve.md)."),
    "simulate": ("simulate", "Play seeded games with the automatic player and report the win rate."),
    "solve": ("solve", "Play LAYOUT with the automatic player, printing each move and why it was made."),
    "sweep": ("sweep", "Win rate, share won with no guess, guesses per won game and the 50 % crossing "
              "against mine density: one curve per board size, first-click rule and strategy."),
}


class Commands(TyperGroup):
    """``minesat``'s command group.

    A command's module is imported when the command is looked up (to run it or show its help),
    not before; the list of commands in ``minesat --help`` comes from :data:`COMMANDS`. A usage
    error of any command is one ``minesat: ...`` line, exit 2, as every other bad input is (not
    Click's usage block), and what goes wrong while a command runs (a closed pipe, a full disk,
    Ctrl-C) is met by :func:`minesat.cli.common.command_guard`, the same for every command.
    """

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in self.commands and name in COMMANDS:
            self._load(COMMANDS[name][0])
        return super().get_command(ctx, name)

    def _load(self, module: str) -> None:
        """Add the commands of ``minesat.cli.<module>`` to :data:`app` and build them."""
        _register(module)
        for info in app.registered_commands:
            assert info.callback is not None
            if (info.name or typer.main.get_command_name(info.callback.__name__)) in self.commands:
                continue
            built = typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
            self.add_command(built)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The list of commands in ``--help``, as Click draws it, from :data:`COMMANDS` for the
        commands not imported yet."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            command = self.commands.get(name) or TyperCommand(name, help=COMMANDS[name][1])
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] in _COMPLETION:
            _completion(ctx, args[0], args[1:])
        return super().parse_args(ctx, args)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:  # typer's words, with the shell that may be named after them
            if param.name in _COMPLETION_HELP:
                param.help = _COMPLETION_HELP[param.name]  # type: ignore[attr-defined]
        return params

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _one_line():
            try:
                return super().make_context(*args, **kwargs)
            except KeyboardInterrupt:  # typer would end with 130 saying nothing
                from minesat.cli.common import interrupted

                interrupted()

    def invoke(self, ctx: Any) -> Any:
        from minesat.cli.common import command_guard

        with _one_line(), command_guard():
            return super().invoke(ctx)


#: The shells typer writes completion for.
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
_COMPLETION = ("--install-completion", "--show-completion")
_COMPLETION_HELP = {
    "install_completion": f"Install completion for the shell this runs in, or for the one named after it "
                          f"({', '.join(SHELLS)}).",
    "show_completion": "Print the completion script of the shell this runs in, or of the one named after it.",
}


def _completion(ctx: Any, flag: str, rest: list[str]) -> None:
    """``--install-completion [SHELL]`` and ``--show-completion [SHELL]``: typer's, with the shell
    that may be named after them read (typer's flag would leave it unread, and install for the
    shell it detects, or say ``Shell None is not supported.`` with status 1 where it detects none).
    A shell it does not know, or none named nor detected, is one line, exit 2."""
    from typer.completion import install_callback, show_callback

    if len(rest) > 1:
        raise UsageLine(f"{flag} takes one shell name, not {' '.join(rest)}")
    shell = rest[0] if rest else _detected_shell()
    if shell is None:
        raise UsageLine(f"{flag}: cannot tell which shell this is; name it: {flag} bash (or "
                        f"{', '.join(SHELLS[1:])})")
    if shell not in SHELLS:
        raise UsageLine(f"{flag} must be one of {', '.join(SHELLS)}, not {shell!r}")
    callback: Any = install_callback if flag == "--install-completion" else show_callback
    callback(ctx, None, shell)  # typer's own, which reads no more than the shell from its option


def _detected_shell() -> str | None:
    """The shell this runs in, as typer detects it (``None`` if none is found)."""
    import shellingham  # type: ignore[import-untyped]

    try:
        return str(shellingham.detect_shell()[0]).lower()
    except shellingham.ShellDetectionFailure:
        return None


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
        from minesat.version import __version__

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
    inconsistent position, a budget reached or an output not written, 2 bad input,
    130 interrupted (docs/exit-status.md).
    """


def _commands_of(module: str) -> typer.Typer:
    """The commands ``minesat.cli.<module>`` declares (on its ``commands``), the module imported.

    >>> [info.callback.__name__ for info in _commands_of("boards").registered_commands]
    ['show', 'convert']
    """
    # Imported here, when a command is looked up, not at the top: ``minesat --version`` and
    # ``--help`` (start-up) must not load every command's module and what it imports.
    match module:
        case "analyze":
            from minesat.cli import analyze
            return analyze.commands
        case "boards":
            from minesat.cli import boards
            return boards.commands
        case "export":
            from minesat.cli import export
            return export.commands
        case "generate":
            from minesat.cli import generate
            return generate.commands
        case "metrics":
            from minesat.cli import metrics
            return metrics.commands
        case "perfect":
            from minesat.cli import perfect
            return perfect.commands
        case "play":
            from minesat.cli import play
            return play.commands
        case "replay":
            from minesat.cli import replay
            return replay.commands
        case "report":
            from minesat.cli import report
            return report.commands
        case "serve":
            from minesat.cli import serve
            return serve.commands
        case "simulate":
            from minesat.cli import simulate
            return simulate.commands
        case "solve":
            from minesat.cli import solve
            return solve.commands
        case "sweep":
            from minesat.cli import sweep
            return sweep.commands
    raise ValueError(f"no command module {module!r}")


def _register(module: str) -> None:
    """Add the commands of ``minesat.cli.<module>`` to :data:`app`, each once."""
    for info in _commands_of(module).registered_commands:
        if info not in app.registered_commands:
            app.registered_commands.append(info)


def load_commands() -> None:
    """Import every command's module, so that :data:`app` holds them all (for what lists them, as
    the tests and the documentation do; the command line imports only the command it runs)."""
    for module in dict.fromkeys(module for module, _ in COMMANDS.values()):
        _register(module)


def main() -> None:
    """The ``minesat`` command: :data:`app`, with standard output watched as every command's is
    (:func:`minesat.cli.common.run_main`)."""
    from minesat.cli.common import run_main

    run_main(app)
