"""minesat export: records round-trip through JSON Lines and CSV; the command streams and fails cleanly."""

from __future__ import annotations

import io
import json
import math

import pytest
from typer.testing import CliRunner

from minesat.board import Move
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
        guesses = tuple(Guess(Move.parse(f"C{j + 1}"), p) for j, p in enumerate(ps))
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


# --- tidy records (SPEC section 18) ------------------------------------------------------------


def played_store(tmp_path, games: int = 12, strategy: str = "safest", seed: int = 3):
    db = tmp_path / f"{strategy}-{seed}.sqlite"
    args = ["simulate", "--preset", "beginner", "--games", str(games), "--seed", str(seed), "--workers", "1",
            "--strategy", strategy, "--db", str(db)]  # fmt: skip
    assert CliRunner().invoke(app, args).exit_code == 0
    return db


def test_every_record_carries_its_run_and_seeds_are_digits(tmp_path):
    from minesat.generate import game_seed
    from minesat.provenance import player_fingerprint

    db = played_store(tmp_path)
    text = CliRunner().invoke(app, ["export", str(db)]).stdout
    for i, line in enumerate(text.splitlines()):
        r = json.loads(line)
        assert (r["rows"], r["cols"], r["mines"], r["rule"], r["start"]) == (9, 9, 10, "opening", "3,3")
        assert (r["strategy"], r["player"], r["run_seed"]) == ("safest", player_fingerprint("safest"), "3")
        # A string of digits, read back by any JSON reader as every digit of the seed.
        assert r["seed"] == str(game_seed(9, 9, 10, rule="opening", start=(3, 3), seed=3, index=i))
        assert f'"seed": "{r["seed"]}"' in line


def test_guess_records_hold_what_each_guess_saw(tmp_path):
    from minesat.game import Game
    from minesat.generate import generate_layout
    from minesat.player import get_strategy, play_game

    db = played_store(tmp_path, games=30)
    exported = CliRunner().invoke(app, ["export", str(db), "--guesses"]).stdout
    guesses = [json.loads(x) for x in exported.splitlines()]
    per_game = CliRunner().invoke(app, ["export", str(db)]).stdout.splitlines()
    games = {r["game"]: r for r in map(json.loads, per_game)}
    assert len(guesses) == sum(g["guesses"] for g in games.values()) > 0
    for game in games.values():
        mine = [g for g in guesses if g["game"] == game["game"]]
        assert [g["k"] for g in mine] == list(range(1, len(mine) + 1))
        lost = not game["won"]
        assert [g["survived"] for g in mine] == [True] * (len(mine) - lost) + [False] * lost
        if not mine:
            continue
        # Replay the game: each guess was made with exactly that many safe cells uncovered.
        layout = generate_layout(9, 9, 10, start=(3, 3), rule="opening", seed=int(game["seed"]))
        record = play_game(layout, (3, 3), strategy=get_strategy("safest"), rule="opening")
        board, seen = Game(layout), []
        for move in record.moves:  # a guess uncovers its cell, which no other move names without a suffix
            if len(seen) < len(record.guesses) and move == record.guesses[len(seen)].move:
                seen.append(board.uncovered)
            board.play(move)
        assert [g["cell"] for g in mine] == [str(g.move) for g in record.guesses]
        assert [g["uncovered"] for g in mine] == seen
        assert [g["uncovered_share"] for g in mine] == [n / 71 for n in seen]
        assert mine[-1]["probability"] == record.guesses[-1].probability


def test_csv_round_trips_settings_and_guesses(tmp_path):
    db = played_store(tmp_path)
    for extra in ([], ["--guesses"]):
        lines = CliRunner().invoke(app, ["export", str(db), *extra]).stdout.splitlines()
        as_json = [json.loads(x) for x in lines]
        text = CliRunner().invoke(app, ["export", str(db), "--csv", *extra]).stdout
        assert list(read_records(io.StringIO(text), as_csv=True)) == as_json


def test_exports_load_in_pandas_and_pyarrow_with_every_setting_and_seed(tmp_path):
    import pandas as pd
    import pyarrow.parquet as pq

    db = played_store(tmp_path, games=20)
    records = [json.loads(x) for x in CliRunner().invoke(app, ["export", str(db)]).stdout.splitlines()]
    out = tmp_path / "games.parquet"
    assert CliRunner().invoke(app, ["export", str(db), "--out", str(out)]).exit_code == 0
    table = pq.read_table(out)
    assert table.column_names == list(FIELDS) and table.num_rows == 20
    assert str(table.schema.field("seed").type) == "string" and str(table.schema.field("won").type) == "bool"
    assert table.to_pylist() == records  # every value, nulls where JSON has null
    frame = pd.read_parquet(out)
    assert list(frame.seed) == [r["seed"] for r in records] and set(frame.strategy) == {"safest"}
    # The CSV and JSON Lines read into pandas as the docs say, seeds intact.
    csv_file = tmp_path / "games.csv"
    assert CliRunner().invoke(app, ["export", str(db), "--csv", "--out", str(csv_file)]).exit_code == 0
    from_csv = pd.read_csv(csv_file, dtype={"seed": str, "run_seed": str})
    assert list(from_csv.seed) == [r["seed"] for r in records]
    jsonl = tmp_path / "games.jsonl"
    jsonl.write_text(CliRunner().invoke(app, ["export", str(db)]).stdout)
    from_json = pd.read_json(jsonl, lines=True, dtype={"seed": str, "run_seed": str})
    assert list(from_json.seed) == [r["seed"] for r in records]
    assert set(from_json.columns) == set(FIELDS)
    guesses = tmp_path / "guesses.parquet"
    assert CliRunner().invoke(app, ["export", str(db), "--guesses", "--out", str(guesses)]).exit_code == 0
    assert pd.read_parquet(guesses).k.min() == 1


def test_the_docs_recipe_loads_a_sweep_in_three_lines(tmp_path, monkeypatch):
    import pandas as pd

    points = [played_store(tmp_path, games=8, seed=s) for s in (1, 2)]
    monkeypatch.chdir(tmp_path)
    with open("sweep.jsonl", "w") as out:  # for db in ...; do minesat export "$db"; done > sweep.jsonl
        for db in points:
            out.write(CliRunner().invoke(app, ["export", str(db)]).stdout)
    sweep = pd.read_json("sweep.jsonl", lines=True, dtype={"seed": str, "run_seed": str})
    table = sweep.groupby(["rows", "cols", "mines", "rule", "strategy"]).won.agg(["mean", "size"])
    assert table["size"].iloc[0] == 16 and sorted(set(sweep.run_seed)) == ["1", "2"]


def test_parquet_without_pyarrow_names_the_extra(tmp_path, monkeypatch):
    import sys

    db = played_store(tmp_path, games=2)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    result = CliRunner().invoke(app, ["export", str(db), "--out", str(tmp_path / "x.parquet")])
    assert result.exit_code == 2 and result.stderr.strip().count("\n") == 0
    assert "pip install 'minesat[parquet]'" in result.stderr and not (tmp_path / "x.parquet").exists()


def test_the_out_extension_picks_the_format_and_an_unknown_one_is_refused(tmp_path):
    """``--out x.xlsx`` wrote JSON Lines into a file a spreadsheet opens as nothing: now refused
    before any work; ``x.csv`` is CSV without ``--csv``; a name with no extension is as stdout."""
    db = played_store(tmp_path, games=3)
    invoke = CliRunner().invoke
    refused = invoke(app, ["export", str(db), "--out", str(tmp_path / "x.xlsx")])
    assert refused.exit_code == 2 and refused.stderr == (
        f"minesat: {tmp_path / 'x.xlsx'}: export writes JSON Lines (.jsonl, .ndjson), CSV (.csv) or "
        "Parquet (.parquet), not .xlsx\n")
    assert not (tmp_path / "x.xlsx").exists()
    clash = invoke(app, ["export", str(db), "--csv", "--out", str(tmp_path / "x.jsonl")])
    assert clash.exit_code == 2 and "--csv writes CSV, and a .jsonl file is JSON Lines" in clash.stderr
    as_csv = invoke(app, ["export", str(db), "--csv"]).stdout
    assert invoke(app, ["export", str(db), "--out", str(tmp_path / "x.csv")]).exit_code == 0
    assert (tmp_path / "x.csv").read_text() == as_csv
    assert invoke(app, ["export", str(db), "--out", str(tmp_path / "plain")]).exit_code == 0
    assert (tmp_path / "plain").read_text() == invoke(app, ["export", str(db)]).stdout
