"""Published win rates beside the runs (docs/commands/report.md, ``--reference FILE.csv``).

A reference file is CSV with a header row: ``source, rows, cols, mines, rule,
start, rate`` and either ``games`` or ``low, high`` (a 95 % interval). Other
columns (a URL, a note) are kept as they are. Blank lines and lines starting
with ``#`` are skipped. A row meets a run when the board, the first-click rule
and the start are the same; the two rates are then compared with a z score,
``(run rate - rate) / sqrt(se_run^2 + se_ref^2)``, se = sqrt(p (1 - p) / n)
(the reference's from ``games``, else ``(high - low) / 3.92``).

That z test holds for independent samples. A reference measured on the very boards of a
run is not one: a row may name its boards (column ``boards``: ``seed S games A..B``, or a
board set's SHA-256), and a run on those boards is then compared with it paired, board by
board (exact McNemar, Newcombe's paired interval), from the reference's per-board outcomes
(column ``outcomes``: a JSON Lines file, ``FILE#KEY`` where each line keeps its ``won``
under ``KEY``); without them the comparison is flagged as dependent.

>>> import io
>>> text = 'source,rows,cols,mines,rule,start,rate,games\\nX,9,9,10,opening,"2,2",0.97,1000\\n'
>>> (row,) = parse_references(io.StringIO(text), "refs.csv")
>>> row.source, row.start, row.rate, round(row.se, 6)
('X', (2, 2), 0.97, 0.005394)
>>> parse_references(io.StringIO("source,rows\\nX,9\\n"), "refs.csv")
Traceback (most recent call last):
...
minesat.report.references.ReferenceError: refs.csv:1:1: missing column 'cols' (a reference file has \
source, rows, cols, mines, rule, start, rate, and games or low, high)
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from minesat.board import parse_cell
from minesat.errors import InputError, InvalidValue
from minesat.stats import normal_two_sided_p

__all__ = [
    "REQUIRED",
    "RULES",
    "WIDTH_IN_SE",
    "Boards",
    "Reference",
    "ReferenceError",
    "ReferenceMatch",
    "match_references",
    "parse_boards",
    "parse_references",
    "read_references",
]

#: The columns every reference file has.
REQUIRED = ("source", "rows", "cols", "mines", "rule", "start", "rate")
RULES = ("opening", "safe", "any")
#: Two standard errors of a 95 % interval: its width is 2 x 1.96 se.
WIDTH_IN_SE = 3.92


class ReferenceError(InputError):
    """A reference file that cannot be read: ``path``, ``line`` and ``column`` where, and why.

    >>> str(ReferenceError("refs.csv", 3, 9, "column 'games': 'x' is not a whole number"))
    "refs.csv:3:9: column 'games': 'x' is not a whole number"
    """

    def __init__(self, path: str, line: int, column: int, message: str) -> None:
        super().__init__(message, path=path, line=line, column=column)


@dataclass(frozen=True)
class Boards:
    """The boards a reference was measured on: games ``first..last`` of run seed ``seed`` (the
    layouts minesat draws for that seed, board, rule and start), or a board set by its SHA-256."""

    seed: int | None = None
    first: int = 0
    last: int | None = None  # None: from ``first`` on, however many
    sha256: str | None = None

    def text(self) -> str:
        if self.sha256 is not None:
            return f"board set {self.sha256[:12]}"
        games = f"games {self.first}..{self.last}" if self.last is not None else f"games {self.first}.."
        return f"seed {self.seed} {games}"

    def covers(self, config: dict[str, Any], last_game: int) -> bool:
        """True when a run of ``config`` whose games reach index ``last_game`` played some of
        these boards."""
        if last_game < self.first:
            return False
        if self.sha256 is not None:
            return config.get("boards") == self.sha256
        return not config.get("boards") and int(config["seed"]) == self.seed


_BOARDS = re.compile(r"^\s*seed\s+(\d+)(?:\s+games?\s+(\d+)\s*(?:\.\.|-)\s*(\d+)?)?\s*$", re.I)
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def parse_boards(text: str) -> Boards | None:
    """A reference's ``boards`` column: ``seed S``, ``seed S games A..B`` (or ``A-B``, ``A..``),
    or a board set's SHA-256 (64 hex digits); None when it is none of them.

    >>> parse_boards("seed 0 games 0..19999"), parse_boards("seed 23").text()
    (Boards(seed=0, first=0, last=19999, sha256=None), 'seed 23 games 0..')
    """
    text = text.strip()
    if _SHA256.match(text.lower()):
        return Boards(sha256=text.lower())
    m = _BOARDS.match(text)
    if m is None:
        return None
    first = int(m.group(2)) if m.group(2) else 0
    last = int(m.group(3)) if m.group(3) else None
    if last is not None and last < first:
        return None
    return Boards(seed=int(m.group(1)), first=first, last=last)


@dataclass(frozen=True)
class Reference:
    """One published win rate: who measured it, on what board and rules, how precisely."""

    source: str
    rows: int
    cols: int
    mines: int
    rule: str
    start: tuple[int, int]
    rate: float
    games: int | None = None
    low: float | None = None
    high: float | None = None
    line: int = 0  # where it is in its file
    extra: dict[str, str] = field(default_factory=dict, compare=False)
    #: The boards it was measured on, when the row names them (column ``boards``).
    boards: Boards | None = None
    #: Its outcome on each of those boards: a JSON Lines file and the key its ``won`` is under
    #: (column ``outcomes``, ``FILE#KEY``; the path relative to the reference file).
    outcomes: str | None = None

    def outcome_lines(self) -> Iterator[tuple[int, bool]]:
        """``(game, won)`` of every line of :attr:`outcomes`, in the file's order."""
        if self.outcomes is None:
            return
        path, _, key = self.outcomes.partition("#")
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    record = json.loads(line)
                    won = record[key]["won"] if key else record["won"]
                    yield int(record["game"]), bool(won)

    @property
    def se(self) -> float:
        """Its standard error: from the games, else from the width of its interval."""
        if self.games:
            return math.sqrt(self.rate * (1 - self.rate) / self.games)
        assert self.low is not None and self.high is not None
        return (self.high - self.low) / WIDTH_IN_SE

    def board(self) -> str:
        """``16x30/99 opening at 3,3``."""
        return f"{self.rows}x{self.cols}/{self.mines} {self.rule} at {self.start[0]},{self.start[1]}"

    def meets(self, config: dict[str, Any] | None) -> bool:
        """True when a run of ``config`` plays the same board, rule and start."""
        if config is None:
            return False
        return (config["rows"], config["cols"], config["mines"], config["rule"], tuple(config["start"])) == (
            self.rows, self.cols, self.mines, self.rule, self.start)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "rows": self.rows, "cols": self.cols, "mines": self.mines,
            "rule": self.rule, "start": f"{self.start[0]},{self.start[1]}", "rate": self.rate,
            "games": self.games, "low": self.low, "high": self.high,
            "boards": None if self.boards is None else self.boards.text(), "outcomes": self.outcomes,
            **self.extra,
        }  # fmt: skip


@dataclass(frozen=True)
class ReferenceMatch:
    """A reference beside a run of the report: the two rates compared.

    When the reference names the run's boards, the two are not independent samples: with the
    reference's per-board outcomes they are compared board by board (:attr:`paired`), else
    the z test is flagged (:attr:`dependent`)."""

    reference: Reference
    run: str  # the run's label
    run_rate: float
    run_games: int
    #: The run and the reference on the boards both played, game by game (a ``Paired`` whose
    #: ``a`` is the run, ``b`` the reference), when the reference's outcomes are at hand.
    paired: Any = None
    #: The reference was measured on the run's boards, but its outcomes per board are not at
    #: hand: the z test treats dependent samples as independent.
    dependent: bool = False

    @property
    def p_value(self) -> float | None:
        """The p-value of the comparison the report makes: McNemar's when paired, else :attr:`p`."""
        return self.paired.p_value if self.paired is not None else self.p

    @property
    def z(self) -> float | None:
        """(run rate - rate) / sqrt(se_run^2 + se_ref^2); None when both se are 0."""
        p = self.run_rate
        se_run = math.sqrt(p * (1 - p) / self.run_games) if self.run_games else 0.0
        se = math.hypot(se_run, self.reference.se)
        return (p - self.reference.rate) / se if se > 0 else None

    @property
    def p(self) -> float | None:
        """The two-sided p-value of :attr:`z` (normal); None with it."""
        return None if self.z is None else normal_two_sided_p(self.z)

    def sentence(self) -> str:
        """The comparison in words, claiming no more than its p-value allows."""
        ref = self.reference
        rates = f"{self.run} {100 * self.run_rate:.2f} % against {ref.source} {100 * ref.rate:.2f} %"
        if self.paired is not None:
            from minesat.report.formatting import paired_text

            where = ref.boards.text() if ref.boards else ""
            return (f"{self.run} against {ref.source} on the same boards ({where}), paired board by board: "
                    f"{paired_text(self.paired)}")  # fmt: skip
        if self.z is None or self.p is None:
            return f"{rates}: no spread on either side to compare"
        stats = f"z = {self.z:+.2f}, p = {self.p:.3g}"
        if self.dependent:
            stats += "; not independent samples"
        if self.p < 0.05:
            side = "above" if self.z > 0 else "below"
            said = f"{rates} ({stats}): {self.run} is significantly {side} it"
        else:
            said = f"{rates} ({stats}): consistent with it (no significant difference)"
        if self.dependent:
            where = ref.boards.text() if ref.boards else ""
            said += (f". {ref.source} was measured on this run's boards ({where}), so the two rates are "
                     "not independent: the z test treats them as if they were, and with outcomes that go "
                     "together on shared boards its p is too large. A paired test needs the reference's "
                     "outcome on each board (column outcomes)")  # fmt: skip
        return said

    def to_dict(self) -> dict[str, Any]:
        """The reference's fields, ``run``, ``z`` and ``p`` (the independent test), ``dependent``, and
        ``paired`` (the board-by-board comparison, or null)."""
        return {**self.reference.to_dict(), "run": self.run, "z": self.z, "p": self.p,
                "dependent": self.dependent,
                "paired": None if self.paired is None else self.paired.to_dict()}  # fmt: skip


def _split(line: str) -> list[tuple[str, int]]:
    """The fields of one CSV line with the 1-based column each starts at (quotes as in RFC 4180)."""
    fields: list[tuple[str, int]] = []
    i, n = 0, len(line)
    while True:
        start = i + 1
        if i < n and line[i] == '"':
            value, i = [], i + 1
            while i < n:
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        value.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                value.append(line[i])
                i += 1
            text = "".join(value)
            while i < n and line[i] != ",":
                i += 1
        else:
            j = line.find(",", i)
            j = n if j < 0 else j
            text, i = line[i:j], j
        fields.append((text.strip(), start))
        if i >= n:
            return fields
        i += 1  # the comma


def parse_references(handle: TextIO | Iterable[str], path: str) -> list[Reference]:
    """Every row of a reference file; :class:`ReferenceError` names file, line and column of the
    first problem (a missing column, a field that is not a number, a rate outside [0, 1] ...)."""
    lines = iter(handle)
    header: list[tuple[str, int]] | None = None
    out = []
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if header is None:
            header = _split(line.lstrip("\ufeff"))
            names = [name.lower() for name, _ in header]
            for name in REQUIRED:
                if name not in names:
                    raise ReferenceError(
                        path, number, 1,
                        f"missing column {name!r} (a reference file has {', '.join(REQUIRED)}, and games or "
                        "low, high)",
                    )
            if "games" not in names and not ("low" in names and "high" in names):
                raise ReferenceError(path, number, 1, "missing column 'games' (or 'low' and 'high')")
            continue
        out.append(_row(header, _split(line), path, number, len(line)))
    if header is None:
        raise ReferenceError(path, 1, 1, "empty reference file: no header row")
    return out


def _row(header: list[tuple[str, int]], fields: list[tuple[str, int]], path: str, number: int,
         width: int) -> Reference:  # fmt: skip
    if len(fields) != len(header):
        col = fields[len(header)][1] if len(fields) > len(header) else width + 1
        raise ReferenceError(
            path, number, col,
            f"{len(fields)} fields where the header has {len(header)} "
            "(quote a start written ROW,COL: \"3,3\")",
        )
    values = {name.lower(): (text, col) for (name, _), (text, col) in zip(header, fields, strict=True)}

    def bad(name: str, why: str) -> ReferenceError:
        text, col = values[name]
        return ReferenceError(path, number, col, f"column {name!r}: {text!r} {why}")

    def whole(name: str, least: int) -> int:
        text, _ = values[name]
        try:
            value = int(text)
        except ValueError:
            raise bad(name, "is not a whole number") from None
        if value < least:
            raise bad(name, f"must be at least {least}")
        return value

    def share(name: str) -> float:
        text, _ = values[name]
        try:
            value = float(text)
        except ValueError:
            raise bad(name, "is not a number") from None
        if not 0.0 <= value <= 1.0:  # nan fails too
            raise bad(name, "is not a rate between 0 and 1 (write 54.3 % as 0.543)")
        return value

    source = values["source"][0]
    if not source:
        raise bad("source", "is empty: name who published the figure")
    rows, cols = whole("rows", 1), whole("cols", 1)
    mines = whole("mines", 0)
    if mines >= rows * cols:
        raise bad("mines", f"do not fit a {rows}x{cols} board")
    rule = values["rule"][0].lower()
    if rule not in RULES:
        raise bad("rule", f"is not a first-click rule ({', '.join(RULES)})")
    try:
        start = parse_cell(values["start"][0])
    except InvalidValue:
        raise bad("start", "is not a cell name or ROW,COL") from None
    if not (0 <= start[0] < rows and 0 <= start[1] < cols):
        raise bad("start", f"is off the {rows}x{cols} board")
    rate = share("rate")
    games = whole("games", 1) if values.get("games", ("", 0))[0] else None
    low = share("low") if values.get("low", ("", 0))[0] else None
    high = share("high") if values.get("high", ("", 0))[0] else None
    if games is None and (low is None or high is None):
        name = "games" if "games" in values else "low" if low is None else "high"
        raise bad(name, "is empty: give the games or a 95 % interval (low and high)")
    if low is not None and high is not None and not low <= rate <= high:
        raise bad("rate", f"lies outside its interval {low}..{high}")
    boards = None
    if values.get("boards", ("", 0))[0]:
        boards = parse_boards(values["boards"][0])
        if boards is None:
            raise bad("boards", "is not 'seed S', 'seed S games A..B' or a board set's SHA-256")
    outcomes = values.get("outcomes", ("", 0))[0] or None
    if outcomes is not None:
        if boards is None:
            raise bad("outcomes", "needs the boards they were played on (column boards)")
        file, sep, key = outcomes.partition("#")
        where = Path(file) if Path(file).is_absolute() else Path(path).parent / file
        outcomes = f"{where}{sep}{key}"
    known = (*REQUIRED, "games", "low", "high", "boards", "outcomes")
    extra = {name: text for name, (text, _) in values.items() if name not in known}
    return Reference(source, rows, cols, mines, rule, start, rate, games, low, high, number, extra, boards,
                     outcomes)  # fmt: skip


def read_references(path: str | Path) -> list[Reference]:
    """:func:`parse_references` of the file at ``path`` (UTF-8)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return parse_references(handle, str(path))
    except UnicodeDecodeError as exc:
        raise ReferenceError(str(path), 1, 1, f"not a UTF-8 text file ({exc.reason})") from None


def _run_outcomes(run: Any) -> Iterator[Any]:
    """The games of a run (a Summary read from a store), in index order, one at a time."""
    from minesat.store import ANY_PLAYER, GameStore

    which = run.player if run.players_in_store > 1 else ANY_PLAYER
    with GameStore(run.source) as store:
        yield from store.games(player=which)


def pair_reference(ref: Reference, run: Any) -> Any:
    """The run and the reference, board by board, over the games both played (within the
    reference's range); None when the run's store or the outcomes file is not at hand."""
    from types import SimpleNamespace

    from minesat.report.paired import pair_games

    if not run.source or not Path(run.source).is_file() or ref.outcomes is None:
        return None
    boards = ref.boards
    assert boards is not None
    try:
        theirs = sorted((game, won) for game, won in ref.outcome_lines()
                        if boards.first <= game and (boards.last is None or game <= boards.last))  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError) as exc:
        file = ref.outcomes.partition("#")[0]
        raise ReferenceError(file, 1, 1, f"cannot read the outcomes: {exc}") from None
    games = (SimpleNamespace(index=game, won=won) for game, won in theirs)
    paired = pair_games(_run_outcomes(run), games, run.label, ref.source)
    return paired if paired.games else None


def match_references(
    references: Sequence[Reference], runs: Sequence[Any]
) -> tuple[list[ReferenceMatch], list[str]]:
    """Each reference beside every run (a :class:`~minesat.tally.Summary`) it meets,
    and a note for each reference that meets none. A reference that names the run's boards is
    paired with it board by board where its outcomes are at hand, else flagged as dependent."""
    matches, unmatched = [], []
    for ref in references:
        met = [run for run in runs if run.games and ref.meets(run.config)]
        if not met:
            unmatched.append(ref.line)
        for run in met:
            shared = ref.boards is not None and ref.boards.covers(run.config, run.index_max)
            paired = pair_reference(ref, run) if shared else None
            matches.append(ReferenceMatch(ref, run.label, run.win_rate, run.games, paired=paired,
                                          dependent=shared and paired is None))  # fmt: skip
    notes = []
    if unmatched:
        rows, lines, verb = ("rows", "lines", "match") if len(unmatched) > 1 else ("row", "line", "matches")
        where = f"{lines} {_spans(unmatched)}"
        notes.append(f"{len(unmatched)} {rows} of the reference file ({where}) {verb} no run here: other "
                     "boards or rules.")
    return matches, notes


def _spans(numbers: Sequence[int]) -> str:
    """Line numbers as runs: ``9-17, 19, 21-23``.

    >>> _spans([9, 10, 11, 13, 15, 16])
    '9-11, 13, 15-16'
    """
    out: list[str] = []
    for n in numbers:
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)
