"""minesat export: records round-trip through JSON Lines and CSV; the command streams and fails cleanly."""

from __future__ import annotations

import io
import json
import math

import pytest
from typer.testing import CliRunner

from minesat.cli import app
from minesat.export import FIELDS, read_records, record, write_records
from minesat.player import Guess
from minesat.store import GameStore, RunConfig, StoredGame

CONFIG = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=5)


def games() -> list[StoredGame]:
    probs = [(), (0.125,), (0.1, 1 / 3), (0.5,), ()]
    won = [True, True, False, False, True]
    out = []
    for i, (w, ps) in enumerate(zip(won, probs, strict=True)):
        guesses = tuple(Guess(f"C{j + 1}", p) for j, p in enumerate(ps))
        out.append(StoredGame(index=i, seed=10**18 + i, won=w, moves=20 + i, guesses=guesses,
                              uncovered=71 - 9 * (not w), bbbv=12 + i, seconds=math.pi / (i + 1),
                              analyses=7 * i))  # fmt: skip
    return out


@pytest.mark.parametrize("as_csv", [False, True])
def test_round_trip(as_csv):
    out = io.StringIO()
    assert write_records(games(), out, as_csv=as_csv, config=CONFIG) == 5
    back = list(read_records(out.getvalue().splitlines(keepends=True), as_csv=as_csv))
    assert back == [record(g, CONFIG) for g in games()]  # floats exact, None where a game has no value
    for rec, g in zip(back, games(), strict=True):
        assert list(rec) == list(FIELDS)
        assert (rec["game"], rec["won"], rec["guesses"], rec["seconds"]) == (
            g.index, g.won, len(g.guesses), g.seconds)  # fmt: skip
    # Lost games name their fatal guess; won games leave it empty.
    assert [r["fatal_move"] for r in back] == [None, None, "C2", "C1", None]
    assert back[2]["fatal_probability"] == 1 / 3 and back[2]["first_guess_probability"] == 0.1


def test_export_command(tmp_path):
    db = tmp_path / "run.sqlite"
    with GameStore(db, CONFIG) as store:
        store.add(reversed(games()))  # stored out of order: exported in game order
    result = CliRunner().invoke(app, ["export", str(db)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["game"] for r in lines] == [0, 1, 2, 3, 4]
    assert lines == [record(g, CONFIG) for g in games()]
    out = tmp_path / "run.csv"
    result = CliRunner().invoke(app, ["export", str(db), "--csv", "--out", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    with out.open(newline="") as handle:
        assert list(read_records(handle, as_csv=True)) == lines


def test_export_of_a_real_run_matches_the_report(tmp_path):
    from minesat.report import summarize_db

    db = tmp_path / "run.sqlite"
    args = ["simulate", "--rows", "6", "--cols", "6", "--mines", "5", "--games", "8", "--workers", "1"]
    assert CliRunner().invoke(app, [*args, "--db", str(db)]).exit_code == 0
    rows = [json.loads(line) for line in CliRunner().invoke(app, ["export", str(db)]).stdout.splitlines()]
    s = summarize_db(db)
    assert len(rows) == s.games == 8
    assert sum(r["won"] for r in rows) == s.wins
    assert sum(r["guesses"] for r in rows) == s.guesses_total


@pytest.mark.parametrize("kind", ["missing", "garbage", "directory", "unwritable out"])
def test_bad_input_is_one_line_exit_2(tmp_path, kind):
    db = tmp_path / "run.sqlite"
    args = ["export", str(db)]
    if kind == "garbage":
        db.write_bytes(b"not sqlite\n" * 200)
    elif kind == "directory":
        db.mkdir()
    elif kind == "unwritable out":
        with GameStore(db, CONFIG) as store:
            store.add(games())
        (tmp_path / "file").write_text("")  # a file where a folder would have to be made
        args += ["--out", str(tmp_path / "file" / "dir" / "x.jsonl")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ")
    assert "Traceback" not in result.output
