"""The library speaks to its own users: errors name its parameters, it refuses what the command
line refuses, values show themselves in a line, a sweep and several stores are one call away,
the namespace holds the front door only, and a missing file is an InputError on every face."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

import minesat
from minesat.cli import app
from minesat.errors import InputError, InvalidValue
from minesat.export import records
from minesat.report import Paired, make_report, summarize_store
from minesat.store import PlayerMismatchError


def test_an_error_raised_through_the_library_names_the_librarys_parameters(tmp_path: Path) -> None:
    db = tmp_path / "run.sqlite"
    minesat.simulate("beginner", 3, strategy="safest", db=db)
    with closing(sqlite3.connect(db)) as con, con:
        con.execute("UPDATE session SET player = ?", ("0" * 64,))  # the games of another minesat
    with pytest.raises(PlayerMismatchError) as caught:
        minesat.simulate("beginner", 5, strategy="safest", db=db)
    said = str(caught.value)
    assert "db=" in said and "mix_players=" in said and "store=" not in said
    # ... and the parameter it names is there: the games are added beside, never pooled.
    sim = minesat.simulate("beginner", 5, strategy="safest", db=db, mix_players=True)
    assert sim.summary["games"] == 2 and len(sim.summary["players"]) == 2
    with pytest.raises(InvalidValue) as caught:
        minesat.simulate("expert2")
    assert caught.value.parameter == "board" and str(caught.value).startswith("board: unknown preset")
    with pytest.raises(InvalidValue, match=r"^densities: each must lie in \[0, 1\]"):
        minesat.sweep("beginner", 2, densities=[0.1, 1.5])
    with pytest.raises(InvalidValue, match="rules: must be among opening, safe, any, not 'openin'"):
        minesat.sweep("beginner", 2, densities=[0.1], rules="openin")


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [({"seed": -1}, "seed"), ({"games": -1}, "games"), ({"games": 10**15 + 1}, "games"),
     ({"workers": 0}, "workers")],
)  # fmt: skip
def test_the_library_refuses_what_the_command_line_refuses(kwargs: dict, parameter: str, tmp_path: Path):
    args = {"games": 2, **kwargs}
    with pytest.raises(InvalidValue) as caught:
        minesat.simulate("beginner", db=tmp_path / "run.sqlite", **args)
    assert caught.value.parameter == parameter
    assert not (tmp_path / "run.sqlite").exists()  # refused before a store is made
    option = {"seed": "--seed", "games": "--games", "workers": "--workers"}[parameter]
    cli = ["simulate", "--preset", "beginner", "--games", str(args["games"]),
           "--db", str(tmp_path / "c.sqlite")]  # fmt: skip
    if "seed" in kwargs:
        cli += ["--seed", str(kwargs["seed"])]
    if "workers" in kwargs:
        cli += ["--workers", str(kwargs["workers"])]
    result = CliRunner().invoke(app, cli)
    assert result.exit_code == 2 and option in result.stderr


def test_paired_validates_its_counts_and_shows_p_and_the_interval() -> None:
    with pytest.raises(InvalidValue, match="5 games, but both"):
        Paired("a", "b", games=5, both=500, only_a=0, only_b=0, neither=0)
    with pytest.raises(InvalidValue, match="only_b"):
        Paired("a", "b", games=0, both=1, only_a=0, only_b=-1, neither=0)
    p = Paired("best", "safest", games=300, both=129, only_a=31, only_b=36, neither=104)
    low, high = p.difference_ci95
    assert repr(p) == (f"Paired(best vs safest on 300 boards: only best won 31, only safest 36; difference "
                       f"-1.67 points, 95 % CI {100 * low:+.2f} to {100 * high:+.2f}; exact McNemar "
                       "p = 0.625)")  # fmt: skip


def test_every_collection_shows_itself_in_a_line(tmp_path: Path) -> None:
    sim = minesat.simulate("beginner", 40, strategy="safest", db=tmp_path / "run.sqlite")
    assert len(repr(sim.games)) < 100 and repr(sim.games).startswith("Games(40 games, indices 0..39: ")
    (summary,) = summarize_store(tmp_path / "run.sqlite")
    report = make_report([summary])
    sweep = minesat.sweep("beginner", 3, densities=[0.1, 0.15, 0.2], strategies="safest", db=tmp_path / "sw")
    for value in (summary, report, sweep, sweep.curves[0], sweep.points[0], sim):
        assert "\n" not in repr(value) and len(repr(value)) < 200, repr(value)
    assert repr(summary).startswith("Summary(run: 40 games, ")


def test_a_sweep_is_one_documented_call_and_its_stores_one_table(tmp_path: Path) -> None:
    sweep = minesat.sweep("beginner", 3, densities="0.1,0.2", strategies=["safest"], db=tmp_path / "sw")
    assert [(p.mines, p.games) for p in sweep.points] == [(8, 3), (16, 3)]
    assert sweep.command() == ("minesat sweep --size 9x9 --density 0.1,0.2 --games 3 --seed 0 --first-click "
                               "opening --strategy safest")  # fmt: skip
    rows = list(records(p.db for p in sweep.points))  # several stores, one stream
    assert [(r["mines"], r["game"]) for r in rows] == [(8, 0), (8, 1), (8, 2), (16, 0), (16, 1), (16, 2)]
    assert list(records(sweep.points[0].db)) == rows[:3]  # one store, as before


def test_simulate_and_sweep_are_functions_and_their_modules_other_names() -> None:
    """``minesat.simulate`` and ``minesat.sweep`` are the functions, also once their modules (named
    otherwise, so as not to take the functions' names) are imported."""
    import minesat.simulation
    import minesat.sweeping

    assert minesat.simulate is minesat.simulation.simulate
    assert minesat.sweep is minesat.sweeping.sweep


def test_the_namespace_holds_the_front_door_only() -> None:
    for name in ("Any", "TYPE_CHECKING", "sys", "importlib", "annotations"):
        assert name not in minesat.__all__ and name not in dir(minesat)
        assert not hasattr(minesat, name), name
    assert "sweep" in minesat.__all__ and "simulate" in minesat.__all__


def test_a_missing_file_is_an_input_error_that_says_so_on_every_face(tmp_path: Path) -> None:
    from minesat.errors import MissingFile

    for path in (tmp_path / "none.txt", tmp_path / "none"):
        for read in (minesat.analyze, minesat.read_position, minesat.read_layout):
            with pytest.raises(InputError) as caught:
                read(str(path))
            assert isinstance(caught.value, MissingFile) and isinstance(caught.value, FileNotFoundError)
            assert str(caught.value) == f"{path}: No such file or directory"
        result = CliRunner().invoke(app, ["analyze", str(path)])
        assert result.exit_code == 2
        assert result.stderr.strip() == f"minesat: {path}: No such file or directory"
        result = CliRunner().invoke(app, ["analyze", str(path), "--json"])
        assert json.loads(result.stdout)["error"] == f"{path}: No such file or directory"
