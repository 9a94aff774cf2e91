"""Solvability reports: statistics checked by hand, every renderer, the CLI."""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minesat.board import Move
from minesat.cli import app
from minesat.player import Guess
from minesat.report import (
    Tally,
    bin_buckets,
    render_html,
    render_json,
    render_markdown,
    simulate_command,
    summarize,
    summarize_db,
    write_report,
)
from minesat.report.plots import PLOTS
from minesat.stats import mcnemar_exact, wilson
from minesat.store import GameStore, RunConfig, StoredGame

#: Plots in a report: the win rates, then every plot of PLOTS (each run here lost some games).
PLOT_COUNT = 1 + len(PLOTS)

BEGINNER = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=7)


def game(index: int, won: bool, probs: tuple[float, ...] = (), bbbv: int = 10,
         seconds: float = 0.01, uncovered: int = 71) -> StoredGame:  # fmt: skip
    guesses = tuple(Guess(Move.parse(f"A{i + 1}"), p) for i, p in enumerate(probs))
    return StoredGame(index=index, seed=1000 + index, won=won, moves=10 + len(probs),
                      guesses=guesses, uncovered=uncovered, bbbv=bbbv, seconds=seconds)  # fmt: skip


#: Five games small enough to count by hand.
GAMES = [
    game(0, True, (), bbbv=10, seconds=0.01),
    game(1, True, (0.2,), bbbv=12, seconds=0.02),
    game(2, False, (0.1, 0.4), bbbv=15, seconds=0.03, uncovered=40),
    game(3, False, (0.5,), bbbv=10, seconds=0.04, uncovered=20),
    game(4, True, (), bbbv=22, seconds=0.05),
]


@pytest.fixture
def summary():
    return summarize(iter(GAMES), BEGINNER, source="runs/beginner.sqlite")


@functools.cache
def html_page() -> str:
    """The HTML report of the five games, rendered once per process for the tests that read it:
    its eight plots take matplotlib about a second, render_html makes a new string from the
    summary alone, and no test changes it."""
    return render_html([summarize(iter(GAMES), BEGINNER, source="runs/beginner.sqlite")])


# --- statistics --------------------------------------------------------------


def test_counts_and_wilson_interval(summary):
    assert (summary.games, summary.wins, summary.losses) == (5, 3, 2)
    assert summary.win_rate == pytest.approx(0.6)
    # Wilson 3/5 at z=1.96, by hand: centre 0.55655, half-width 0.32583.
    assert summary.ci95 == pytest.approx((0.23072, 0.88238), abs=1e-4)
    assert summary.label == "beginner"


def test_no_guess_share(summary):
    assert summary.no_guess_wins == 2
    assert summary.no_guess_share == pytest.approx(0.4)
    assert summary.guesses_mean == pytest.approx(4 / 5)


def test_guesses_histogram(summary):
    rows = [(b.lo, b.games, b.wins) for b in summary.guesses]
    assert rows == [(0, 2, 2), (1, 2, 1), (2, 1, 0)]


def test_where_games_are_lost(summary):
    # 3 games made a 1st guess, game 3 died on it; only game 2 made a 2nd, and died.
    steps = [(s.number, s.made, s.fatal) for s in summary.guess_steps]
    assert steps == [(1, 3, 1), (2, 1, 1)]
    fatal = {round(r.lo, 2): r.fatal for r in summary.fatal_risk if r.fatal}
    assert fatal == {0.4: 1, 0.5: 1}
    made = {round(r.lo, 2): r.guesses for r in summary.fatal_risk if r.guesses}
    assert made == {0.1: 1, 0.2: 1, 0.4: 1, 0.5: 1}
    assert sum(r.probability_sum for r in summary.fatal_risk) == pytest.approx(1.2)


def test_win_rate_by_3bv(summary):
    per_value = [(b.lo, b.games, b.wins) for b in summary.bbbv]
    assert per_value == [(10, 2, 1), (12, 1, 1), (15, 1, 0), (22, 1, 1)]
    # 3BV 10..22 in at most 3 bins: width 5, aligned at multiples of 5.
    binned = [(b.lo, b.hi, b.games, b.wins) for b in bin_buckets(summary.bbbv, 3)]
    assert binned == [(10, 15, 3, 2), (15, 20, 1, 0), (20, 25, 1, 1)]
    assert binned[0] and bin_buckets(summary.bbbv, 3)[0].win_rate == pytest.approx(2 / 3)


def test_time_and_progress(summary):
    assert summary.seconds_mean == pytest.approx(0.03)
    assert (summary.seconds_min, summary.seconds_max) == (0.01, 0.05)
    # Median from 10-per-decade log bins: within one bin (26 %) of the true 0.03.
    assert 0.03 / 1.26 <= summary.seconds_median <= 0.03 * 1.26
    assert summary.seconds_median <= summary.seconds_p90 <= 0.05
    # Lost games uncovered 40 and 20 of the 71 safe cells.
    assert summary.progress_lost_mean == pytest.approx(60 / (2 * 71))


def test_reproduce_command(summary):
    assert summary.complete
    assert summary.command == (
        "minesat simulate --preset beginner --games 5 --seed 7 --first-click opening "
        "--start 3,3 --strategy best --db runs/beginner.sqlite"
    )
    custom = {"rows": 5, "cols": 6, "mines": 4, "rule": "safe", "start": [0, 0], "seed": 1,
              "strategy": "safest-rowmajor"}  # fmt: skip
    assert simulate_command(custom, 10) == (
        "minesat simulate --rows 5 --cols 6 --mines 4 --games 10 --seed 1 --first-click safe "
        "--start 0,0 --strategy safest-rowmajor"
    )


def test_incomplete_run_is_noted():
    s = summarize([GAMES[0], GAMES[3]], BEGINNER)
    assert not s.complete
    assert any("incomplete" in n for n in s.notes)
    assert "--games 4" in s.command  # replays indices 0..3, the stored ones among them


def test_empty_run():
    s = summarize([], BEGINNER)
    assert (s.games, s.win_rate, s.ci95) == (0, 0.0, (0.0, 1.0))
    assert json.loads(render_json([s]))["runs"][0]["games"] == 0
    assert "no games" in render_html([s])
    assert render_markdown([s]).startswith("# ")


games_strategy = st.lists(
    st.tuples(st.booleans(), st.lists(st.floats(0, 1), max_size=4), st.integers(1, 60)),
    max_size=30,
)


@settings(max_examples=40, deadline=None)
@given(games_strategy)
def test_counters_add_up(raw):
    games = [game(i, won, tuple(ps), bbbv=b) for i, (won, ps, b) in enumerate(raw)]
    s = summarize(games)
    assert sum(b.games for b in s.guesses) == s.games == len(games)
    assert sum(b.games for b in s.bbbv) == sum(b.games for b in s.bbbv_binned) == s.games
    assert sum(b.wins for b in s.bbbv_binned) == s.wins
    assert sum(r.guesses for r in s.fatal_risk) == s.guesses_total
    assert sum(st.fatal for st in s.guess_steps) == s.losses - s.lost_without_guess
    assert sum(r.fatal for r in s.fatal_risk) == s.losses - s.lost_without_guess
    assert 0 <= s.ci95[0] <= s.win_rate <= s.ci95[1] <= 1


def test_accumulator_streams():
    # One pass over a generator; the state is counters whose size does not grow with games.
    acc = Tally()
    for g in (g for _ in range(200) for g in GAMES):
        acc.add(g)
    s = acc.summary()
    assert (s.games, s.wins, s.no_guess_wins) == (1000, 600, 400)
    assert (len(acc.by_guesses), len(acc.by_bbbv)) == (3, 4)


# --- renderers -----------------------------------------------------------------

#: Anything a browser would fetch from elsewhere: src/href to a URL, CSS url() or @import.
EXTERNAL = re.compile(
    r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import""", re.I
)


def test_json_parses(summary):
    doc = json.loads(render_json([summary]))
    run = doc["runs"][0]
    assert run["games"] == 5 and run["win_rate"] == pytest.approx(0.6)
    assert run["ci95"] == pytest.approx([0.23072, 0.88238], abs=1e-4)
    assert run["config"]["start"] == [3, 3]
    assert run["guess_steps"][0] == {"number": 1, "made": 3, "fatal": 1}
    assert run["command"].startswith("minesat simulate --preset beginner")


def test_html_is_self_contained():
    page = html_page()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<svg") == PLOT_COUNT
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert not EXTERNAL.search(page)
    assert "60.0 %" in page and "23.1–88.2 %" in page
    assert "minesat simulate --preset beginner --games 5 --seed 7" in page
    # Ids stay unique across the inline plots.
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    # Every inline plot is well-formed SVG.
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S):
        assert ElementTree.fromstring(svg).tag.endswith("svg")


def test_markdown_to_stdout_has_tables(summary):
    md = render_markdown([summary])
    assert "| Win rate | 60.0 % |" in md
    assert "| 95 % CI (Wilson) | 23.1–88.2 % |" in md
    assert "```sh\nminesat simulate --preset beginner" in md


def test_markdown_file_links_plots_beside_it(summary, tmp_path):
    out = tmp_path / "reports" / "beginner.md"
    written = write_report([summary], out)
    assert written[0] == out and len(written) == 1 + PLOT_COUNT
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", out.read_text())
    assert len(links) == PLOT_COUNT
    for link in links:
        target = out.parent / link
        assert target.is_file() and ElementTree.parse(target).getroot().tag.endswith("svg")


def test_write_report_formats(summary, tmp_path):
    assert json.loads((write_report([summary], tmp_path / "r.json")[0]).read_text())["runs"]
    assert "<svg" in write_report([summary], tmp_path / "r.html")[0].read_text()
    with pytest.raises(ValueError, match="unknown report format"):
        write_report([summary], tmp_path / "r.pdf")


# --- databases and the command line ----------------------------------------------


def make_db(path: Path, config: RunConfig, games: list[StoredGame]) -> Path:
    with GameStore(path, config) as store:
        store.add(games)
    return path


def test_summarize_db_end_to_end(tmp_path):
    db = make_db(tmp_path / "beginner.sqlite", BEGINNER, GAMES)
    s = summarize_db(db)
    assert (s.games, s.wins, s.no_guess_wins) == (5, 3, 2)
    assert s.config["seed"] == 7 and s.label == "beginner"
    assert [(st.number, st.made, st.fatal) for st in s.guess_steps] == [(1, 3, 1), (2, 1, 1)]


def test_two_databases_compared(tmp_path):
    expert = RunConfig(rows=16, cols=30, mines=99, rule="opening", start=(3, 3), seed=1)
    a = make_db(tmp_path / "beginner.sqlite", BEGINNER, GAMES)
    expert_games = [game(0, False, (0.3,), bbbv=150), game(1, True, (0.1, 0.2), bbbv=170)]
    b = make_db(tmp_path / "expert.sqlite", expert, expert_games)
    out = tmp_path / "cmp.html"
    result = CliRunner().invoke(app, ["report", str(a), str(b), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "beginner vs expert" in page
    assert "<h2>Comparison</h2>" in page
    assert "60.0 %" in page and "50.0 %" in page
    assert page.count("<svg") == PLOT_COUNT and not EXTERNAL.search(page)
    doc = json.loads(CliRunner().invoke(app, ["report", str(a), str(b), "--json"]).stdout)
    assert [r["label"] for r in doc["runs"]] == ["beginner", "expert"]
    assert [r["games"] for r in doc["runs"]] == [5, 2]
    # Runs of other boards and of unequal lengths side by side: the reader is told, twice over.
    assert any("other board options" in w for w in doc["warnings"])
    assert any("unequal numbers of games" in w for w in doc["warnings"])
    assert "other board options" in page
    (c,) = doc["compared"]
    assert (c["a"], c["b"]) == ("beginner", "expert") and c["difference"] == pytest.approx(0.6 - 0.5)


def test_cli_markdown_to_stdout(tmp_path):
    db = make_db(tmp_path / "run.sqlite", BEGINNER, GAMES)
    result = CliRunner().invoke(app, ["report", str(db)])
    assert result.exit_code == 0
    assert result.stdout.startswith("# minesat solvability report: run")
    assert "| Games | 5 |" in result.stdout


@pytest.mark.parametrize("kind", ["missing", "garbage", "empty sqlite", "directory"])
def test_cli_bad_database_is_one_line_exit_2(tmp_path, kind):
    path = tmp_path / "bad.sqlite"
    if kind == "garbage":
        path.write_bytes(b"this is not SQLite at all\n" * 100)
    elif kind == "empty sqlite":
        import sqlite3

        sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    elif kind == "directory":
        path.mkdir()
    result = CliRunner().invoke(app, ["report", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ") and str(path) in lines[0]
    assert "Traceback" not in result.output


def test_cli_unknown_format(tmp_path):
    db = make_db(tmp_path / "run.sqlite", BEGINNER, GAMES)
    result = CliRunner().invoke(app, ["report", str(db), "--out", str(tmp_path / "r.pdf")])
    assert result.exit_code == 2 and "unknown report format" in result.stderr


def test_summary_values_are_finite(summary):
    for key, value in summary.to_dict().items():
        if isinstance(value, float):
            assert math.isfinite(value), key


def test_report_on_a_simulated_run(tmp_path):
    # The whole path: the simulator writes the store, the report reads it back.
    db = tmp_path / "beginner.sqlite"
    args = ["simulate", "--preset", "beginner", "--games", "6", "--workers", "1", "--db", str(db)]
    played = CliRunner().invoke(app, [*args, "--json"])
    assert played.exit_code == 0, played.output
    simulated = json.loads(played.stdout.strip().splitlines()[-1])
    doc = json.loads(CliRunner().invoke(app, ["report", str(db), "--json"]).stdout)
    run = doc["runs"][0]
    for key in ("games", "wins", "no_guess_wins"):
        assert run[key] == simulated[key], key
    assert run["ci95"] == pytest.approx(simulated["ci95"])
    assert run["command"].startswith("minesat simulate --preset beginner --games 6 --seed 0")


def test_one_tally_for_simulate_and_report(tmp_path):
    # A small real run counted three ways: by simulate as games arrive (no store), by the
    # report reading the store back, and by plain SQL over the store's rows.
    import sqlite3

    from minesat.simulation import run

    config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=3)
    live = run(config, 12, workers=1)
    with GameStore(tmp_path / "run.sqlite", config) as store:
        stored = run(config, 12, workers=1, store=store)
    report = summarize_db(tmp_path / "run.sqlite")
    with sqlite3.connect(tmp_path / "run.sqlite") as db:
        games, wins, guesses, no_guess, moves = db.execute(
            "SELECT COUNT(*), SUM(won), SUM(guess_count), SUM(won AND guess_count = 0), SUM(moves) FROM game"
        ).fetchone()
    for summary in (live, stored):
        assert (summary["games"], summary["wins"], summary["no_guess_wins"]) == (games, wins, no_guess)
        assert summary["guesses_mean"] == pytest.approx(guesses / games)
    assert (report.games, report.wins, report.no_guess_wins) == (games, wins, no_guess)
    assert (report.guesses_total, report.moves_total) == (guesses, moves)
    assert list(report.ci95) == pytest.approx(stored["ci95"])
    assert report.seconds_mean == pytest.approx(stored["game_seconds_mean"])


def test_templates_ship_inside_the_package():
    from importlib.resources import files

    names = {p.name for p in files("minesat.report").joinpath("templates").iterdir()}
    assert {"base.html.j2", "report.html.j2", "report.css"} <= names


# --- plots ---------------------------------------------------------------------


def test_rates_join_only_dense_points_and_carry_bands():
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure

    from minesat.report.plots import plot_rates

    ax = Figure().add_subplot()
    # x=3 stands on 5 trials: it must break the line in two, not be joined into it.
    points = [(1, 10, 100), (2, 20, 100), (3, 1, 5), (4, 30, 100), (5, 31, 100)]
    plot_rates(ax, points, "C0", "run")
    joined = [list(line.get_xdata()) for line in ax.lines if line.get_linestyle() != "None"]
    assert [1, 2] in joined and [4, 5] in joined
    assert not any(3 in xs for xs in joined)
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 2
    # Each band is the Wilson interval: at x=1, 10 of 100.
    lo, hi = wilson(10, 100)
    at_1 = [y for x, y in bands[0].get_paths()[0].vertices if x == 1]
    assert min(at_1) == pytest.approx(lo) and max(at_1) == pytest.approx(hi)


def test_time_axis_names_no_unit_its_ticks_contradict(summary):
    from minesat.report.plots import plot_time

    label = plot_time([summary]).axes[0].get_xlabel()
    assert "seconds" not in label and "log" in label


def test_detail_tables_do_not_scroll():
    # A table boxed to a fixed height cut rows in half; every report table is bounded, shown whole.
    page = html_page()
    assert "max-height" not in page and 'class="scroll tall"' not in page


# --- paired comparison ------------------------------------------------------------


def test_pair_games_by_index_skipping_unshared():
    from minesat.report import pair_games

    a = [game(0, True), game(1, True), game(2, False), game(4, True), game(5, False)]
    b = [game(1, False), game(2, True), game(3, True), game(4, True), game(5, False), game(6, True)]
    p = pair_games(iter(a), iter(b), "A", "B")  # generators: one pass each
    # Shared indices 1, 2, 4, 5: A only on 1, B only on 2, both on 4, neither on 5.
    assert (p.games, p.both, p.only_a, p.only_b, p.neither) == (4, 1, 1, 1, 1)
    assert (p.a_wins, p.b_wins, p.difference, p.p_value) == (2, 2, 0.0, 1.0)


def test_same_boards_ignores_only_the_strategy():
    from dataclasses import replace

    from minesat.report import same_boards

    assert same_boards(BEGINNER, replace(BEGINNER, strategy="safest-rowmajor"))
    for change in ({"seed": 8}, {"mines": 11}, {"start": (0, 0)}, {"rule": "safe"}):
        assert not same_boards(BEGINNER, replace(BEGINNER, **change))


def test_report_pairs_two_runs_on_the_same_boards(tmp_path):
    from dataclasses import replace

    wins_a = [True, True, False, False, True, True, False, True]
    wins_b = [True, False, False, True, False, False, False, True]
    a = make_db(tmp_path / "a.sqlite", BEGINNER, [game(i, w) for i, w in enumerate(wins_a)])
    b = make_db(tmp_path / "b.sqlite", replace(BEGINNER, strategy="safest-rowmajor"),
                [game(i, w) for i, w in enumerate(wins_b)])  # fmt: skip
    other = make_db(tmp_path / "other.sqlite", replace(BEGINNER, seed=8), [game(0, True)])
    result = CliRunner().invoke(app, ["report", str(a), str(b), str(other), "--json"])
    assert result.exit_code == 0, result.output
    (p,) = json.loads(result.stdout)["paired"]  # the run on other boards pairs with nothing
    both = sum(x and y for x, y in zip(wins_a, wins_b, strict=True))
    only_a = sum(x and not y for x, y in zip(wins_a, wins_b, strict=True))
    only_b = sum(y and not x for x, y in zip(wins_a, wins_b, strict=True))
    assert (p["a"], p["b"], p["games"]) == ("a", "b", 8)
    neither = 8 - both - only_a - only_b
    assert (p["both"], p["only_a"], p["only_b"], p["neither"]) == (both, only_a, only_b, neither)
    assert p["p_value"] == pytest.approx(mcnemar_exact(only_a, only_b))
    assert p["a_win_rate"] == pytest.approx(sum(wins_a) / 8)
    md = CliRunner().invoke(app, ["report", str(a), str(b)]).stdout
    assert "## Paired: a vs b" in md and f"| Only a won | {only_a} |" in md
    out = tmp_path / "ab.html"
    assert CliRunner().invoke(app, ["report", str(a), str(b), "--out", str(out)]).exit_code == 0
    page = out.read_text()
    assert "Paired: a vs b" in page and "McNemar" in page
    # Runs on different boards are only compared side by side.
    alone = json.loads(CliRunner().invoke(app, ["report", str(a), str(other), "--json"]).stdout)
    assert alone["paired"] == []


def test_fatal_boards_replay_each_lost_game_to_the_guess_that_lost_it(tmp_path) -> None:
    from minesat.board import COVERED
    from minesat.generate import generate_layout
    from minesat.report.fatal import fatal_boards, fatal_svg
    from minesat.simulation import run
    from minesat.store import GameStore, RunConfig

    config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=3, strategy="best")
    path = tmp_path / "run.sqlite"
    with GameStore(path, config) as store:
        run(config, 60, workers=1, store=store)
        lost = [g for g in store.games() if not g.won]
    boards = list(fatal_boards(path, limit=3))
    assert [b.index for b in boards] == [g.index for g in lost[:3]]
    for board, game in zip(boards, lost, strict=False):
        layout = generate_layout(9, 9, 10, start=(3, 3), rule="opening", seed=game.seed)
        cell = board.move.cell
        assert board.position[cell] == COVERED and cell in layout.mines  # it was covered, and a mine
        assert board.move == game.guesses[-1].move and board.probability == game.guesses[-1].probability
        assert cell in board.analysis.unknown  # the player never guesses a proven cell
        assert "<svg" in fatal_svg(board) and str(board.move) in fatal_svg(board)


def test_seeds_are_strings_of_digits_in_every_json_minesat_prints(tmp_path: Path) -> None:
    """JSON readers (JavaScript, jq, spreadsheets, pandas' default) round integers past 2^53:
    every seed minesat writes in JSON is a string of digits."""
    big = 2**60 + 1
    db = tmp_path / "run.sqlite"
    args = ["simulate", "--preset", "beginner", "--games", "3", "--seed", str(big), "--workers", "1",
            "--strategy", "safest", "--db", str(db), "--json"]  # fmt: skip
    summary = json.loads(CliRunner().invoke(app, args).stdout.strip().splitlines()[-1])
    assert summary["seed"] == str(big) and summary["config"]["seed"] == str(big)
    doc = json.loads(CliRunner().invoke(app, ["report", str(db), "--json"]).stdout)
    assert doc["runs"][0]["config"]["seed"] == str(big)
    sweep = ["sweep", "--size", "4x4", "--mines", "2,3", "--games", "2", "--seed", str(big), "--workers", "1",
             "--strategy", "safest", "--db", str(tmp_path / "sw"), "--json"]  # fmt: skip
    doc = json.loads(CliRunner().invoke(app, sweep).stdout.strip().splitlines()[-1])
    assert doc["seed"] == str(big) and doc["curves"][0]["seed"] == str(big)
    lines = CliRunner().invoke(app, ["generate", "--preset", "beginner", "--count", "2"]).stdout.splitlines()
    assert all(isinstance(json.loads(line)["seed"], str) for line in lines)


def test_every_report_says_its_rules_in_words_and_names_its_start_cell(tmp_path: Path) -> None:
    """A reader of the Markdown, HTML or JSON learns what the first-click rule promises and where
    the first click was, by name and by 0-based index, without minesat's docs."""
    s = summarize([game(0, True), game(1, False, (0.3,))], BEGINNER, label="beginner")
    md = render_markdown([s])
    assert "## Rules" in md
    assert "D4 (row 3, column 3, counted from 0)" in md
    assert "First click opening: the first cell clicked and all its neighbours" in md
    assert "uniformly at random among the other cells" in md and "9 x 9 board with 10 mines" in md
    assert "opening at D4 (3,3 counted from 0)" in md  # under Reproduce too
    page = render_html([s], plots=[])
    assert "<h2>Rules</h2>" in page and "D4 (row 3, column 3, counted from 0)" in page
    doc = json.loads(render_json([s]))
    rules = doc["rules"]
    assert rules["first_click"] == {"opening": rules["runs"][0]["first_click_rule"]}
    (run,) = rules["runs"]
    assert (run["run"], run["start"], run["start_index"], run["rows"], run["cols"], run["mines"]) == (
        "beginner", "D4", [3, 3], 9, 9, 10)
    assert "counted from 1" in rules["coordinates"]
    # Runs of other rules: each said, each rule defined.
    safe = summarize([game(0, True)], RunConfig(rows=9, cols=9, mines=10, rule="safe", start=(0, 0), seed=7),
                     label="classic")  # fmt: skip
    md = render_markdown([s, safe])
    assert "classic: a 9 x 9 board with 10 mines; first click safe at A1 (row 0, column 0" in md
    assert "First click safe: the first cell clicked holds no mine" in md
