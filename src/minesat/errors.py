"""The errors minesat raises: one family, each carrying what went wrong as fields.

Every error a caller can act on is a :class:`MinesatError`; catch the kind you
mean and read its fields, never its message. Each face says the same error in
its own words: the library names its parameters (``time_limit=``), the command
line its options (``--time-limit``), the web app the fields of a request.

- :class:`InputError`: input that cannot be read (a board, a replay, a reference
  file): ``path``, ``line``, ``column`` and ``cell`` where they are known.
- :class:`InvalidValue`: a value a function refuses: ``parameter``, ``value``, ``choices``.
- :class:`OverBudget`: work stopped at a budget: ``what`` (``states``, ``time``,
  ``memory``, ``layouts``), ``spent`` and ``limit``. :class:`ListingRefused` is the one
  refusal of a position or board with too many layouts to list.
- :class:`StoreError`: a simulation database that cannot be used: ``message`` and ``advice`` apart.

Most are also :class:`ValueError` (all but the budget stops), so code written
before them, catching a ``ValueError``, still catches them.

>>> err = InputError("unknown character 'x'", path="a.txt", line=3, column=2, cell=(2, 1))
>>> str(err), err.line, err.cell
("a.txt:3:2: unknown character 'x'", 3, (2, 1))
>>> stop = OverBudget("past {time_limit:2 s}", spent=2.4, limit=2.0, advice="raise {time_limit}",
...                   template=True)
>>> str(stop), stop.render(option_name)
('past time_limit=2 s; raise time_limit=', 'past --time-limit 2 s; raise --time-limit')
"""

from __future__ import annotations

import copy
import errno
from collections.abc import Callable
from typing import Any

__all__ = [
    "InputError",
    "InvalidValue",
    "ListingRefused",
    "MinesatError",
    "MissingFile",
    "OverBudget",
    "PastBudget",
    "StoreError",
    "fill",
    "one_line",
    "option_name",
    "parameter_name",
]

#: How a face names a parameter (``time_limit``) in a message, with a value said after it or ``""``.
Namer = Callable[[str, str], str]


def parameter_name(name: str, value: str = "") -> str:
    """The library's name for a parameter in a message: ``time_limit=``, ``time_limit=2 s``."""
    return f"{name}={value}"


#: Parameters whose command-line option is not the parameter's name with dashes.
OPTIONS = {"rule": "--first-click", "store": "--db", "rules": "--first-click", "densities": "--density",
           "strategies": "--strategy", "sizes": "--size"}  # fmt: skip


def option_name(name: str, value: str = "") -> str:
    """The command line's name for a library parameter: ``time_limit`` -> ``--time-limit``.

    >>> option_name("max_states"), option_name("rule"), option_name("time_limit", "2 s")
    ('--max-states', '--first-click', '--time-limit 2 s')
    """
    option = OPTIONS.get(name) or "--" + name.replace("_", "-")
    return f"{option} {value}" if value else option


def fill(template: str, name: Namer) -> str:
    """A template's parameters (``{time_limit}``, ``{time_limit:2 s}``) named as ``name`` names them.

    >>> fill("past {time_limit:2 s}", option_name)
    'past --time-limit 2 s'
    """
    return template.format_map(_Names(name))


def one_line(text: str) -> str:
    """``text`` on one line, its runs of white space (line ends among them) one space each.

    >>> one_line("a  message\\nover lines ")
    'a message over lines'
    """
    return " ".join(text.split())


class _Named:
    """A parameter in a template: ``{time_limit}`` its name, ``{time_limit:2 s}`` its name and a value."""

    def __init__(self, key: str, name: Namer) -> None:
        self.key, self.name = key, name

    def __format__(self, value: str) -> str:
        return self.name(self.key, value)


class _Names(dict[str, _Named]):
    """What ``str.format_map`` fills a template's ``{parameter}`` with: the face's name for it."""

    def __init__(self, name: Namer) -> None:
        super().__init__()
        self.name = name

    def __missing__(self, key: str) -> _Named:
        return _Named(key, self.name)


def _rebuilt(cls: type[MinesatError], fields: dict[str, Any]) -> MinesatError:
    """An error as it was pickled (from a worker process to its parent), fields and all."""
    err = cls.__new__(cls)
    err.__dict__.update(fields)
    err.args = (err.message,)
    return err


class MinesatError(Exception):
    """Every error minesat raises for a caller to act on: ``message`` what went wrong, ``advice``
    what to do (naming parameters as ``{time_limit}``, which each face names its own way), or ``None``.

    ``str(err)`` is one line in the library's words; :meth:`render` in another face's.

    >>> err = MinesatError("the database is busy", advice="give another {store} path")
    >>> str(err), err.render(option_name)
    ('the database is busy; give another store= path', 'the database is busy; give another --db path')
    >>> import pickle
    >>> pickle.loads(pickle.dumps(err)).advice
    'give another {store} path'
    """

    #: Whether ``message`` names parameters as ``{name}`` too (messages built by minesat itself).
    templated = False

    def __init__(self, message: str, *, advice: str | None = None, template: bool | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.advice = advice
        if template is not None:
            self.templated = template

    def said(self, name: Namer) -> str:
        """What went wrong, without the advice, in the words of the face that names parameters by ``name``."""
        return fill(self.message, name) if self.templated else self.message

    def render(self, name: Namer = parameter_name) -> str:
        """The error in one line, parameters named by ``name`` (:func:`option_name` on the command line)."""
        said = self.said(name)
        if self.advice:
            said = f"{said}; {fill(self.advice, name)}"
        return one_line(said)

    def __str__(self) -> str:
        return self.render()

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), dict(self.__dict__))


class InputError(MinesatError, ValueError):
    """Input that cannot be read: a board or replay file, an upload, a reference file.

    ``path`` names it (``<stdin>``, or what a caller called the text); ``line`` and
    ``column`` (1-based) and ``cell`` (``(row, col)``, 0-based) say where, when known.
    Said ``PATH:LINE:COL: message``, or ``PATH: message`` without a place.

    >>> str(InputError("is a directory, not a board file", path="boards"))
    'boards: is a directory, not a board file'
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        cell: tuple[int, int] | None = None,
        advice: str | None = None,
    ) -> None:
        super().__init__(message, advice=advice)
        self.path, self.line, self.column, self.cell = path, line, column, cell

    @property
    def where(self) -> str:
        """``PATH:LINE:COL``, ``PATH`` or nothing, as much as is known."""
        parts = [str(p) for p in (self.path, self.line, self.column) if p is not None]
        return ":".join(parts)

    def said(self, name: Namer) -> str:
        said = super().said(name)
        return f"{self.where}: {said}" if self.where else said


class MissingFile(InputError, FileNotFoundError):
    """A file that is not there: an :class:`InputError` saying so (``path``), on every face, and a
    :class:`FileNotFoundError` too, so that code catching that (or ``OSError``) still does.

    >>> err = MissingFile("boards/none.txt")
    >>> str(err), err.path, isinstance(err, FileNotFoundError), err.errno == errno.ENOENT
    ('boards/none.txt: No such file or directory', 'boards/none.txt', True, True)
    """

    def __init__(self, path: str, *, advice: str | None = None) -> None:
        super().__init__("No such file or directory", path=str(path), advice=advice)
        self.errno, self.strerror, self.filename = errno.ENOENT, "No such file or directory", str(path)


class InvalidValue(MinesatError, ValueError):
    """A value a function refuses: ``parameter`` (the library's name, or ``None``), the ``value``
    given, and the ``choices`` it takes when they are few. ``template``: the message names
    parameters as ``{rule}`` or ``{rule:any}``, which each face says its own way.

    >>> err = InvalidValue("unknown rule 'opening2'", parameter="rule", value="opening2",
    ...                    choices=("opening", "safe", "any"))
    >>> str(err), err.render(option_name)
    ("rule: unknown rule 'opening2'", "--first-click: unknown rule 'opening2'")
    """

    def __init__(
        self,
        message: str,
        *,
        parameter: str | None = None,
        value: object = None,
        choices: tuple[str, ...] = (),
        advice: str | None = None,
        template: bool | None = None,
    ) -> None:
        super().__init__(message, advice=advice, template=template)
        self.parameter, self.value, self.choices = parameter, value, choices

    def said(self, name: Namer) -> str:
        said = super().said(name)
        if self.parameter is None:
            return said
        return f"{name(self.parameter, '').rstrip('=')}: {said}"


class OverBudget(MinesatError):
    """Every stop at a budget: ``spent`` of ``what`` (states, seconds, bytes or layouts) against
    ``limit``, the budget ``parameter`` sets (``None``: a limit of minesat's own).

    The one base of the budget stops, whatever the work (an exact search, an analysis, a
    no-guess board, a worker): a caller that catches it knows the work was cut short, not wrong.
    Not a :class:`ValueError`: the input was fine.

    >>> stop = OverBudget("more than 10 states", spent=11, limit=10)
    >>> stop.what, stop.spent, stop.limit, str(stop)
    ('work', 11, 10, 'more than 10 states')
    """

    what = "work"
    parameter: str | None = None

    def __init__(
        self,
        message: str = "",
        spent: float | None = None,
        limit: float | None = None,
        *,
        advice: str | None = None,
        template: bool | None = None,
    ) -> None:
        super().__init__(message, advice=advice, template=template)
        self.spent = spent
        self.limit = limit


class PastBudget(OverBudget):
    """Work that needed more states, time, memory or layouts than allowed (an exact search, a
    perfect game): the message says which and how far it got; ``states`` searched, ``settled``
    of ``layouts`` layouts settled.

    ``cause``, the stop met (an :class:`OverBudget` of time, memory or states, or the system's
    :class:`MemoryError`), says which budget ran out: ``what``, ``parameter``, ``spent`` and
    ``limit`` are its own. Without one the states ran out: ``spent`` the states searched.

    >>> stop = PastBudget("past {max_states:10} after 11 states", 11, 2, 6)
    >>> stop.render(option_name), stop.what, stop.spent, stop.settled
    ('past --max-states 10 after 11 states', 'states', 11, 2)
    >>> late = OverBudget("3.1 s", spent=3.1, limit=3.0)
    >>> late.what, late.parameter = "time", "time_limit"
    >>> stop = PastBudget("past {time_limit:3 s} after 40 states", 40, 2, 6, cause=late)
    >>> stop.what, stop.parameter, stop.spent, stop.limit, stop.states
    ('time', 'time_limit', 3.1, 3.0, 40)
    """

    what = "states"
    parameter: str | None = "max_states"
    templated = True  # its messages name the budget that ran out: ``{time_limit:2 s}``

    def __init__(self, message: str, states: int, settled: int, layouts: int, *,
                 advice: str | None = None, cause: BaseException | None = None) -> None:
        super().__init__(message, states, advice=advice)
        self.states = states
        self.settled = settled
        self.layouts = layouts
        if isinstance(cause, OverBudget):
            self.what, self.parameter = cause.what, cause.parameter
            self.spent, self.limit = cause.spent, cause.limit
        elif isinstance(cause, MemoryError):  # the system's own limit, below any budget given
            self.what, self.parameter, self.spent = "memory", "max_memory", None


class ListingRefused(PastBudget, ValueError):
    """The one refusal of a board or position whose layouts an exact search will not list, counted
    before any is: ``count`` layouts (the count as said, ``5.6e104``; ``layouts`` the count itself
    when one was made, else 0; ``at_least`` when it is a least count) of ``cells`` cells, more
    than ``limit`` the search lists (``what`` ``"layouts"``), or a listing of ``listing_bytes``
    past ``max_memory`` bytes (``what`` ``"memory"``; ``memory_given`` false: the bytes a search
    holds with no memory budget).

    >>> err = ListingRefused("11 layouts: more than the 10 the search lists", count="11", layouts=11,
    ...                      cells=9, limit=10)
    >>> err.what, err.count, err.spent, err.limit, isinstance(err, ValueError)
    ('layouts', '11', 11, 10, True)
    """

    templated = False

    def __init__(
        self,
        message: str,
        *,
        count: str,
        cells: int,
        limit: int,
        layouts: int | None = None,
        at_least: bool = False,
        listing_bytes: int | None = None,
        max_memory: int | None = None,
        memory_given: bool = False,
        advice: str | None = None,
    ) -> None:
        super().__init__(message, 0, 0, layouts or 0, advice=advice)
        memory = listing_bytes is not None
        self.what = "memory" if memory else "layouts"
        self.spent, self.limit = (listing_bytes, max_memory) if memory else (layouts, limit)
        self.count, self.at_least, self.cells, self.layout_limit = count, at_least, cells, limit
        self.listing_bytes, self.max_memory, self.memory_given = listing_bytes, max_memory, memory_given

    def reworded(self, message: str) -> ListingRefused:
        """The same refusal said another way (``start A1 has ...``), its fields kept."""
        err = copy.copy(self)
        err.message, err.args = message, (message,)
        return err


class StoreError(MinesatError, ValueError):
    """A simulation database that cannot be used: ``message`` what is wrong with it, ``path`` which,
    ``advice`` what to do (another ``{store}``, moving it aside), apart so that each face says its own.

    >>> err = StoreError("runs.sqlite: not a minesat database", path="runs.sqlite",
    ...                  advice="give another {store} path")
    >>> err.message, err.render(option_name)
    ('runs.sqlite: not a minesat database', 'runs.sqlite: not a minesat database; give another --db path')
    """

    def __init__(self, message: str, *, path: str | None = None, advice: str | None = None) -> None:
        super().__init__(message, advice=advice)
        self.path = path
