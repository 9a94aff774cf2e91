"""Provenance and integrity (SPEC section 18): the player fingerprint recomputed independently, every
store recording who played its games, another player refused on resume and in a batch, reports that
say what made them, and old stores still read."""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import sqlite3
import sys
from contextlib import closing
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

import minesat
from minesat.cli import app
from minesat.provenance import new_session, player_fingerprint, player_modules, short
from minesat.report import make_report, render_html, render_markdown, summarize_db, summarize_store
from minesat.simulation import play_indices, run
from minesat.store import GameStore, PlayerMismatchError, RunConfig

PACKAGE = Path(minesat.__file__).resolve().parent
BEGINNER = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=4, strategy="safest")


# --- the fingerprint ----------------------------------------------------------------------


def module_file(name: str) -> Path | None:
    path = PACKAGE.joinpath(*name.split(".")[1:])
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() and name != "minesat" else None


def ast_closure(starts: list[str]) -> dict[str, bytes]:
    """The minesat modules reachable by imports, found with the ast module (the fingerprint scans text)."""
    found: dict[str, bytes] = {}
    todo = list(starts)
    while todo:
        name = todo.pop()
        if name in found or name == "minesat" or module_file(name) is None:
            continue
        source = module_file(name).read_bytes()
        found[name] = source.replace(b"\r\n", b"\n")
        for node in ast.walk(ast.parse(source)):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for target in targets:
                if target.startswith("minesat.") and module_file(target) is not None:
                    parts = target.split(".")
                    todo += [".".join(parts[:i]) for i in range(2, len(parts) + 1)]
    found["minesat"] = (PACKAGE / "__init__.py").read_bytes().replace(b"\r\n", b"\n")
    return found


@pytest.mark.parametrize(
    ("strategy", "defined_in"), [("best", "minesat.guess.best"), ("safest", "minesat.player")]
)
def test_the_fingerprint_is_the_sha256_spec_18_describes(strategy: str, defined_in: str) -> None:
    sources = ast_closure(["minesat.player", defined_in])
    assert player_modules(strategy) == tuple(sorted(sources))
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(name.encode() + b"\0" + sources[name] + b"\0")
    digest.update(f"python-sat {metadata.version('python-sat')}".encode() + b"\0")
    digest.update(f"python {sys.version_info.major}.{sys.version_info.minor}".encode() + b"\0")
    assert player_fingerprint(strategy) == digest.hexdigest()
    # What decides moves is in; what only reports, draws or parses options is not.
    modules = set(player_modules(strategy))
    assert {"minesat.player", "minesat.guess.best", "minesat.analysis.engine", "minesat.exact.search"} \
        <= modules
    assert not {m for m in modules if m.startswith(("minesat.report", "minesat.cli", "minesat.web"))}


def test_the_fingerprint_follows_the_code_that_decides_moves(tmp_path: Path) -> None:
    copies = {}
    for name in ("same", "strategy", "report", "crlf"):
        copies[name] = tmp_path / name / "minesat"
        shutil.copytree(PACKAGE, copies[name], ignore=shutil.ignore_patterns("__pycache__"))
    with open(copies["strategy"] / "guess" / "best.py", "a") as f:
        f.write("\n# a comment is enough: the fingerprint cannot tell what changes a move\n")
    with open(copies["report"] / "report" / "render.py", "a") as f:
        f.write("\n# the report changes no move\n")
    best = copies["crlf"] / "guess" / "best.py"
    best.write_bytes(best.read_bytes().replace(b"\n", b"\r\n"))  # a checkout on Windows
    prints = {name: player_fingerprint("best", path) for name, path in copies.items()}
    assert prints["same"] == player_fingerprint("best")  # read from the files, wherever installed
    assert prints["strategy"] != prints["same"]
    assert prints["report"] == prints["same"] == prints["crlf"]


# --- stores record who played ---------------------------------------------------------------


def test_a_run_records_its_session_and_every_game_its_player(tmp_path: Path) -> None:
    with GameStore(tmp_path / "run.sqlite", BEGINNER) as store:
        run(BEGINNER, 8, workers=1, store=store)
        run(BEGINNER, 12, workers=1, batch_size=2, store=store)  # the same player resumes as before
        fp = player_fingerprint("safest")
        assert store.players() == {fp: 12}
        assert {g.player for g in store.games()} == {fp}
        first, second = store.sessions()
        assert (first.workers, second.workers, first.player) == (1, 1, fp)
        assert first.started <= first.finished <= second.started <= second.finished
    s = summarize_db(tmp_path / "run.sqlite")
    p = s.provenance
    assert (p["player"], p["workers"], p["sessions"], p["minesat"]) == (fp, 1, 2, minesat.__version__)
    assert (p["started"], p["finished"]) == (first.started, second.finished)
    assert p["command"] == s.command and p["python"] and p["platform"] and p["cpus"] >= 1


def test_games_sha256_is_the_export_without_times(tmp_path: Path) -> None:
    db = tmp_path / "run.sqlite"
    args = ["simulate", "--preset", "beginner", "--games", "10", "--seed", "4", "--workers", "1"]
    assert CliRunner().invoke(app, [*args, "--db", str(db)]).exit_code == 0
    exported = CliRunner().invoke(app, ["export", str(db)]).stdout
    lines = [json.loads(line) for line in exported.splitlines()]
    text = "".join(json.dumps({k: v for k, v in r.items() if k not in ("seconds", "player")}) + "\n"
                   for r in lines)  # fmt: skip
    expected = hashlib.sha256(text.encode()).hexdigest()
    doc = json.loads(CliRunner().invoke(app, ["report", str(db), "--json"]).stdout)
    provenance = doc["runs"][0]["provenance"]
    assert provenance["games_sha256"] == expected
    assert provenance["player"] == lines[0]["player"] == player_fingerprint("best")
    # The HTML and Markdown reports show the same block.
    s = summarize_db(db)
    for page in (render_html([s], plots=[]), render_markdown([s])):
        assert expected in page and provenance["player"] in page and provenance["started"] in page


def test_the_games_hash_names_the_games_not_the_code_that_played_them(tmp_path: Path) -> None:
    """A store whose session rows name another player (the same games played by another version
    of minesat) gives the same games_sha256; the player is kept beside it, and differs."""
    db = tmp_path / "run.sqlite"
    with GameStore(db, BEGINNER) as store:
        run(BEGINNER, 10, workers=1, store=store)
    before = summarize_db(db).provenance
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(db.read_bytes())
    with closing(sqlite3.connect(copy)) as con, con:
        con.execute("UPDATE session SET player = ?", ("e" * 64,))
    after = summarize_db(copy).provenance
    assert after["player"] == "e" * 64 != before["player"]
    assert after["games_sha256"] == before["games_sha256"]
    # The report of the two says they hold the same games, played by other code.
    report = make_report([summarize_db(db), summarize_db(copy)])
    (note,) = [n for n in report.notes if "same 10 games" in n]
    assert f"players {before['player'][:12]} and {'e' * 12}" in note and "other code, the same games" in note


def dump(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as db:
        return list(db.iterdump())


def other_player(path: Path, fingerprint: str = "0" * 64) -> None:
    """Make the stored games another player's, as if another minesat had played them."""
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE session SET player = ?", (fingerprint,))


ARGS = ["simulate", "--preset", "beginner", "--seed", "4", "--strategy", "safest", "--workers", "1"]


def test_resuming_with_another_player_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "run.sqlite"
    assert CliRunner().invoke(app, [*ARGS, "--games", "6", "--db", str(db)]).exit_code == 0
    other_player(db)
    before, stamp = dump(db), db.stat().st_mtime_ns
    result = CliRunner().invoke(app, [*ARGS, "--games", "10", "--db", str(db)])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert "6 games of player 000000000000" in line and short(player_fingerprint("safest")) in line
    assert "--mix-players" in line
    assert dump(db) == before and db.stat().st_mtime_ns == stamp
    # Knowingly mixed: the games are added, and the report keeps each player's apart.
    result = CliRunner().invoke(app, [*ARGS, "--games", "10", "--db", str(db), "--mix-players", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[-1])["played"] == 4
    doc = json.loads(CliRunner().invoke(app, ["report", str(db), "--json"]).stdout)
    runs = {r["label"]: r for r in doc["runs"]}
    fp = player_fingerprint("safest")
    assert set(runs) == {"run (player 000000000000)", f"run (player {short(fp)})"}
    assert runs["run (player 000000000000)"]["games"] == 6 and runs[f"run (player {short(fp)})"]["games"] == 4
    assert runs[f"run (player {short(fp)})"]["provenance"]["player"] == fp
    assert any("one of 2 players" in w for w in doc["warnings"])
    # The new player's 4 games (indices 6..9) are no run from game 0, and resuming the store would
    # be refused or play nothing: the advice is a store of its own, never "resume it".
    assert not any("resume it" in w for w in doc["warnings"])
    (part,) = [w for w in doc["warnings"] if w.startswith(f"run (player {short(fp)}) holds")]
    assert "not a run from game 0" in part and "another --db" in part
    assert doc["paired"] == []  # the two players played other game indices: nothing to pair
    # Each player's games are exactly what that player stored.
    with GameStore(db) as store:
        assert [g.index for g in store.games(player="0" * 64)] == list(range(6))
        assert [g.index for g in store.games(player=fp)] == [6, 7, 8, 9]


def test_the_summary_of_a_mixed_store_is_per_player_never_pooled(tmp_path: Path) -> None:
    db = tmp_path / "run.sqlite"
    assert CliRunner().invoke(app, [*ARGS, "--games", "6", "--db", str(db)]).exit_code == 0
    other_player(db)
    result = CliRunner().invoke(app, [*ARGS, "--games", "10", "--db", str(db), "--mix-players", "--json"])
    summary = json.loads(result.stdout.splitlines()[-1])
    fp = player_fingerprint("safest")
    with GameStore(db) as store:
        mine = [g for g in store.games() if g.player == fp]
        theirs = [g for g in store.games() if g.player == "0" * 64]
    # The win rate is this minesat's player's 4 games, not one rate over the 10 of two players.
    assert (summary["games"], summary["wins"]) == (4, sum(g.won for g in mine))
    rows = {p["player"]: p for p in summary["players"]}
    assert rows["0" * 64]["games"] == 6 and rows["0" * 64]["wins"] == sum(g.won for g in theirs)
    assert rows[fp]["this"] and not rows["0" * 64]["this"] and rows[fp]["games"] == 4
    text = CliRunner().invoke(app, [*ARGS, "--games", "10", "--db", str(db), "--mix-players"]).stdout
    assert "2 players, counted apart" in text and "player 000000000000: 6 games" in text
    assert f"player {short(fp)} (this minesat): 4 games" in text


def test_a_store_made_before_players_were_recorded_stays_readable(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    games = play_indices(BEGINNER, range(5))
    with GameStore(db, BEGINNER) as store:  # the tables as an older minesat made them: no session
        columns = "idx, seed, won, moves, guess_count, guesses, uncovered, bbbv, seconds, analyses"
        store._db.executemany(
            f"INSERT INTO game ({columns}) VALUES (?,?,?,?,?,?,?,?,?,?)", [g._row()[:10] for g in games]
        )
        store._db.commit()
    with GameStore(db) as store:
        assert store.players() == {None: 5} and store.sessions() == []
        assert [g.player for g in store.games()] == [None] * 5
        assert all(guess.uncovered is None for g in store.games() for guess in g.guesses)
    (s,) = summarize_store(db)
    assert s.player is None and s.provenance["player"] is None
    assert s.provenance["minesat"] == minesat.__version__  # who made the store: all that is known
    assert s.games == 5 and s.wins == sum(g.won for g in games)
    exported = [json.loads(x) for x in CliRunner().invoke(app, ["export", str(db)]).stdout.splitlines()]
    assert [r["player"] for r in exported] == [None] * 5
    # Resuming it is resuming another (unknown) player: said, and refused unless mixed knowingly.
    args = [*ARGS, "--games", "7", "--db", str(db)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "5 games of an unknown player" in result.stderr
    assert CliRunner().invoke(app, [*args, "--mix-players"]).exit_code == 0
    doc = json.loads(CliRunner().invoke(app, ["report", str(db), "--json"]).stdout)
    labels = [r["label"] for r in doc["runs"]]
    assert labels == ["old (unknown player)", f"old (player {short(player_fingerprint('safest'))})"]


def test_a_batch_from_another_player_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import minesat.simulation as simulation

    def elsewhere(batch_fn, config, batch):  # a worker running other code
        return "f" * 64, batch_fn(config, batch)

    monkeypatch.setattr(simulation, "played_by", elsewhere)
    with GameStore(tmp_path / "run.sqlite", BEGINNER) as store:
        with pytest.raises(PlayerMismatchError, match="with player ffffffffffff, but this run's player is"):
            run(BEGINNER, 6, workers=1, store=store)
        assert len(store) == 0


def test_sessions_note_the_dask_scheduler(tmp_path: Path) -> None:
    session = new_session("safest", "tcp://10.0.0.1:8786")
    with GameStore(tmp_path / "run.sqlite", BEGINNER) as store:
        store.add(play_indices(BEGINNER, [0, 1]), session)
        store.add(play_indices(BEGINNER, [2]), session)  # the same session: one row, its end moved on
        (stored,) = store.sessions()
    assert stored.workers == "tcp://10.0.0.1:8786" and stored.player == player_fingerprint("safest")
    assert stored.started == session.started and stored.finished >= session.started
