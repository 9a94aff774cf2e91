"""Errors travel as types with fields, from the core to every face: the tests read the fields,
never the wording (the command line's one-line messages aside, where the words are the product)."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.analysis import InconsistentPositionError
from minesat.board import Layout, Position, parse_cell
from minesat.budget import MAX_LAYOUTS, Budget, OutOfMemory, OutOfTime, PastBudget, listing_refusal
from minesat.cli import app
from minesat.cli.common import error_line
from minesat.errors import (
    InputError,
    InvalidValue,
    ListingRefused,
    MinesatError,
    OverBudget,
    StoreError,
    option_name,
)
from minesat.formats import BoardFormatError, ReplayFormatError, UnsupportedFormatError, parse_position
from minesat.formats.wanted import board_from_content
from minesat.perfect import perfect_from_position, perfect_play
from minesat.store import GameStore, RunConfig, StoreBusyError
from minesat.web.api import answer, perfect_request, read_position

SRC = Path(__file__).resolve().parent.parent / "src" / "minesat"


def test_a_bad_board_keeps_its_place_as_fields() -> None:
    with pytest.raises(BoardFormatError) as caught:
        parse_position("# mines: 1\n1?\n1x\n", "b.txt", "text")
    err = caught.value
    assert isinstance(err, InputError) and isinstance(err, ValueError)
    assert (err.path, err.line, err.column, err.cell) == ("b.txt", 3, 2, (1, 1))
    assert str(err).startswith("b.txt:3:2: ")  # file:line:col first, on one line


def test_a_number_too_large_names_its_cell() -> None:
    with pytest.raises(BoardFormatError) as caught:
        parse_position("4?\n??\n", "b.txt", "text")
    assert caught.value.cell == (0, 0) and (caught.value.line, caught.value.column) == (1, 1)


def test_a_board_read_for_a_command_keeps_the_fields_of_the_reader() -> None:
    with pytest.raises(InputError) as caught:
        board_from_content("1?\n1x\n", "board", "text", "position", "analyze")
    assert (caught.value.path, caught.value.line, caught.value.column) == ("board", 2, 2)
    with pytest.raises(InputError) as caught:
        board_from_content("1?\n", "x.zzz", "text", "layout", "solve")
    assert caught.value.path == "x.zzz"


def test_the_web_marks_the_cell_from_the_fields() -> None:
    status, body = answer(read_position, {"board": "# mines: 1\n1?\n1x\n"})
    assert status == 400 and body["cell"] == "B2"
    status, body = answer(read_position, {"board": "# mines: x\n1?\n"})  # a header: no cell
    assert status == 400 and "cell" not in body


def test_a_replay_error_is_a_board_format_error_with_its_offset() -> None:
    err = ReplayFormatError("x.avf", 1234, "truncated event")
    assert isinstance(err, BoardFormatError)
    assert (err.path, err.offset, err.line, err.column) == ("x.avf", 1234, 1, 1235)


def test_a_value_refused_is_an_invalid_value() -> None:
    with pytest.raises(InvalidValue):
        parse_cell("A0")
    with pytest.raises(InvalidValue):
        Layout(2, 2, frozenset({(5, 5)}))
    with pytest.raises(UnsupportedFormatError) as caught:
        parse_position("1?\n", "b.txt", "nosuch")
    assert isinstance(caught.value, InvalidValue)


def test_an_inconsistent_position_names_its_cell() -> None:
    from minesat.analysis import analyze

    with pytest.raises(InconsistentPositionError) as caught:
        analyze(Position.from_rows(["3?", "??"], mines=1))
    assert isinstance(caught.value, MinesatError) and caught.value.cell == (0, 0)


def test_every_budget_stop_is_an_over_budget_with_what_was_spent_and_the_limit() -> None:
    from minesat.analysis.combine import TooMuchWork
    from minesat.exact.alike import TooAlike
    from minesat.exact.geometry import TooManyLayouts
    from minesat.exact.search import OutOfBudget
    from minesat.noguess import NoGuessTimeout
    from minesat.perfect.parallel import PartPastBudget
    from minesat.web.jobs import JobTimeout

    for stop in (TooMuchWork, TooAlike, TooManyLayouts, OutOfBudget, NoGuessTimeout, PartPastBudget,
                 JobTimeout, PastBudget, ListingRefused, OutOfTime, OutOfMemory):
        assert issubclass(stop, OverBudget), stop
    stop = OutOfBudget(100, 101)
    assert (stop.what, stop.spent, stop.limit, stop.parameter) == ("states", 101, 100, "max_states")
    memory = OutOfMemory(900, 200, 1000)
    assert (memory.what, memory.spent, memory.limit) == ("memory", 1100, 1000)


def test_one_refusal_for_too_many_layouts_with_its_numbers() -> None:
    from math import comb

    refusal = listing_refusal(40_000, comb(39_999, 3))
    assert isinstance(refusal, ListingRefused) and isinstance(refusal, PastBudget)
    assert (refusal.what, refusal.layouts, refusal.layout_limit) == ("layouts", comb(39_999, 3), MAX_LAYOUTS)
    memory = listing_refusal(1_000_000, 999_991, max_memory=10**9)
    assert memory is not None and memory.what == "memory" and memory.memory_given
    assert memory.listing_bytes is not None and memory.listing_bytes > memory.max_memory == 10**9
    # A whole board whose layouts are too many is the same refusal, whichever way it is counted.
    with pytest.raises(ListingRefused) as caught:
        perfect_play(30, 30, 200, rule="opening", start=(0, 0))
    assert caught.value.what == "layouts" and caught.value.at_least is False
    with pytest.raises(ListingRefused) as caught:
        perfect_from_position(Position(1000, 1000, (-1,) * 10**6, 10**5))
    assert caught.value.at_least and caught.value.cells == 10**6


def test_the_web_says_the_refusal_from_its_fields() -> None:
    status, body = answer(perfect_request, {"board": "\n".join(["?" * 30] * 30), "mines": 100})
    assert status == 422
    assert body["error"].startswith(f"perfect play lists at most {MAX_LAYOUTS:,}".replace(",", " "))


def test_each_face_names_the_budget_its_own_way() -> None:
    with pytest.raises(PastBudget) as caught:
        perfect_play(1, 40, 2, rule="opening", start=(0, 0), budget=Budget(max_states=20))
    stop = caught.value
    assert stop.what == "states" and stop.states > 20
    assert "max_states=20" in str(stop) and "--max-states" not in str(stop)  # the library's words
    assert error_line(stop).startswith("past --max-states 20: ")  # the command line's


def test_store_errors_keep_the_advice_apart(tmp_path: Path) -> None:
    config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)
    path = tmp_path / "runs.sqlite"
    with (GameStore(path, config) as store, store.lock(), pytest.raises(StoreBusyError) as caught,
          GameStore(path, config) as other, other.lock()):
        pass
    err = caught.value
    assert isinstance(err, StoreError) and err.path == str(path)
    assert ";" not in err.message and "--db" not in err.message
    assert "store=" in str(err) and "--db" in err.render(option_name)
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(StoreError) as caught:
        GameStore(empty, config)
    assert caught.value.message == f"{empty}: an empty file, not a minesat game database"
    assert caught.value.advice == "remove it or give another path"


def test_errors_cross_process_boundaries_with_their_fields() -> None:
    from minesat.perfect.parallel import PartPastBudget

    for err in (
        BoardFormatError("a.txt", 3, 2, "bad", cell=(2, 1)),
        listing_refusal(40_000, 10**13),
        PartPastBudget((0, 0), 1, 99, 10**9),
        InconsistentPositionError((1, 2), "cannot be met"),
        StoreBusyError("busy", path="x", advice="give another {store} path"),
    ):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and back.__dict__ == err.__dict__ and str(back) == str(err)


def test_the_command_line_says_store_errors_with_its_options(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    result = CliRunner().invoke(app, ["report", str(empty)])
    assert result.exit_code == 2
    assert result.stderr == (f"minesat: {empty}: an empty file, not a minesat game database; "
                             "remove it or give another path\n")


def test_no_face_reads_a_message_back() -> None:
    """The faces catch typed errors, not ``ValueError`` at large, and read fields, not messages."""
    sources = {p: p.read_text() for p in SRC.rglob("*.py")}
    caught = sum(len(re.findall(r"except ValueError\b", s)) for s in sources.values())
    assert caught <= 12
    assert sum(len(re.findall(r"except Exception\b", s)) for s in sources.values()) <= 2
    api = sources[SRC / "web" / "api.py"]
    assert not re.search(r"^import re$", api, re.M) and 'split(";")' not in api
    assert api.count(".replace(") == api.count('.replace(",", " ")')  # grouping digits is the only one left
    assert not any(re.search(r'" "\.join\(str\((err|exc)\)', s) for s in sources.values())
