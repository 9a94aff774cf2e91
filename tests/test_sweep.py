"""minesat sweep: LIST parsing, one resumable store per point, the report and the JSON the SPEC promises."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

from minesat.cli import app
from minesat.report import summarize_db
from minesat.stats import wilson
from minesat.store import GameStore, RunConfig
from minesat.sweep import SweepPoint, parse_mines, point_db, run_sweep

TINY = RunConfig(rows=5, cols=5, mines=2, rule="opening", start=(2, 2), seed=4)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("40,60,99", [40, 60, 99]),
        ("40:120:10", [40, 50, 60, 70, 80, 90, 100, 110, 120]),
        ("40:125:10", [40, 50, 60, 70, 80, 90, 100, 110, 120]),  # STOP included only when reached
        ("3:5", [3, 4, 5]),
        ("99, 10:30:10 ,20", [10, 20, 30, 99]),  # sorted, each count once
    ],
)
def test_parse_mines(text, expected):
    assert parse_mines(text) == expected


@pytest.mark.parametrize("text", ["", "4,", "a", "5:x", "1:2:3:4", "-3", "9:3", "1:9:0", "0:10000000"])
def test_parse_mines_rejects(text):
    with pytest.raises(ValueError, match="--mines"):
        parse_mines(text)


def test_sweep_points_are_runs_of_their_own(tmp_path):
    sweep = run_sweep(TINY, [2, 4, 6], 6, tmp_path, workers=1)
    assert [p.mines for p in sweep.points] == [2, 4, 6]
    for p in sweep.points:
        # Each point is an ordinary store: the report of it agrees with the sweep's point.
        s = summarize_db(p.db)
        assert s.config["mines"] == p.mines
        assert p.db == str(point_db(tmp_path, replace(TINY, mines=p.mines)))
        assert (p.games, p.wins, p.no_guess_wins, p.guesses_total) == (
            s.games, s.wins, s.no_guess_wins, s.guesses_total)  # fmt: skip
        assert p.ci95 == wilson(p.wins, p.games)
        assert p.density == p.mines / 25
    # Resumes: a second call plays nothing and gives the same points.
    again = run_sweep(TINY, [2, 4, 6], 6, tmp_path, workers=1)
    assert [p.to_dict() for p in again.points] == [p.to_dict() for p in sweep.points]


def test_guesses_interval_is_the_normal_interval_of_the_mean():
    # Guesses 0, 1, 2, 3 in four games: mean 1.5, sample variance 5/3.
    p = SweepPoint(mines=3, density=0.1, games=4, wins=2, no_guess_wins=1, guesses_total=6,
                   guesses_sq_total=14)  # fmt: skip
    half = 1.96 * (5 / 3 / 4) ** 0.5
    assert p.guesses_ci95 == pytest.approx((max(0, 1.5 - half), 1.5 + half))


def test_sweep_command_json_and_report(tmp_path):
    args = ["sweep", "--rows", "5", "--cols", "5", "--start", "2,2", "--seed", "4", "--mines", "2:6:2",
            "--games", "5", "--workers", "1", "--db", str(tmp_path / "sw")]  # fmt: skip
    result = CliRunner().invoke(app, [*args, "--json", "--out", str(tmp_path / "sweep.html")])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout.strip().splitlines()[-1])
    assert [p["mines"] for p in doc["points"]] == [2, 4, 6]
    for p in doc["points"]:
        assert {"mines", "density", "games", "wins", "win_rate", "ci95", "no_guess_wins"} <= set(p)
        assert p["games"] == 5 and p["ci95"] == pytest.approx(list(wilson(p["wins"], 5)))
    page = (tmp_path / "sweep.html").read_text()
    assert page.count("<svg") == 1 and "<script" not in page
    assert "minesat sweep --rows 5 --cols 5 --mines 2:6:2 --games 5 --seed 4" in page
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S):
        assert ElementTree.fromstring(svg).tag.endswith("svg")
    # The stores are ordinary: each can be reported on its own.
    stores = sorted((tmp_path / "sw").glob("*.sqlite"))
    assert len(stores) == 3
    with GameStore(stores[0]) as store:
        assert len(store) == 5
    md = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "sweep.md")])
    assert md.exit_code == 0 and (tmp_path / "sweep-curves.svg").is_file()
    assert "| Mines |" in (tmp_path / "sweep.md").read_text()
    assert CliRunner().invoke(app, [*args, "--out", str(tmp_path / "s.json")]).exit_code == 0
    assert json.loads((tmp_path / "s.json").read_text())["points"] == doc["points"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--rows", "5", "--cols", "5", "--mines", "30"],  # does not fit
        ["--rows", "5", "--cols", "5", "--mines", "4:x"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--out", "r.pdf"],
        ["--preset", "expert", "--rows", "5", "--mines", "4"],
        ["--rows", "5", "--mines", "4"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--strategy", "nope"],
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, extra):
    result = CliRunner().invoke(app, ["sweep", *extra, "--games", "2", "--db", str(tmp_path / "sw")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ")
    assert not (tmp_path / "sw").exists()  # nothing started
