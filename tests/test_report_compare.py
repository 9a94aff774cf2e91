"""Comparisons a statistician signs: every figure recomputed from the counts by the textbook formulas,
no sentence naming a winner at p >= 0.05, each count beside its run; warnings, references, the anatomy
of losses (SPEC section 18)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from minesat.board import Move
from minesat.cli import app
from minesat.player import Guess
from minesat.report import Paired, make_report, render_html, render_json, render_markdown, summarize
from minesat.report.formatting import paired_text
from minesat.report.paired import pair_games
from minesat.report.references import read_references
from minesat.store import GameStore, RunConfig, StoredGame

Z = 1.959964
BEGINNER = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=7, strategy="best")


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre, half = 2 * n * p + Z * Z, Z * math.sqrt(Z * Z + 4 * n * p * (1 - p))
    return (centre - half) / (2 * (n + Z * Z)), (centre + half) / (2 * (n + Z * Z))


def mcnemar(b: int, c: int) -> float:
    """Twice the smaller binomial(b + c, 1/2) tail, from math.comb."""
    n, k = b + c, min(b, c)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


def newcombe_paired(a: int, b: int, c: int, d: int) -> tuple[float, float]:
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    (l1, u1), (l2, u2) = wilson(a + b, n), wilson(a + c, n)
    big = a * d - b * c
    corrected = big - n / 2 if big > n / 2 else big if big < 0 else 0
    product = (a + b) * (c + d) * (a + c) * (b + d)
    phi = corrected / math.sqrt(product) if product else 0
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))  # fmt: skip


COUNTS = st.tuples(*[st.integers(0, 400)] * 4).filter(lambda c: sum(c) > 0)
LABELS = st.sampled_from([("best", "safest"), ("expert-best", "short-safest"), ("a", "b")])


@settings(max_examples=150, deadline=None)
@given(COUNTS, LABELS)
def test_every_paired_figure_recomputes_from_the_counts(counts, labels) -> None:
    both, only_a, only_b, neither = counts
    a, b = labels
    n = sum(counts)
    p = Paired(a, b, n, both, only_a, only_b, neither).to_dict()
    assert p["difference"] == pytest.approx((only_a - only_b) / n, abs=1e-12)
    assert p["a_win_rate"] == pytest.approx((both + only_a) / n)
    assert p["b_win_rate"] == pytest.approx((both + only_b) / n)
    assert p["difference_ci95"] == pytest.approx(newcombe_paired(*counts), abs=1e-6)
    assert p["p_value"] == pytest.approx(mcnemar(only_a, only_b), rel=1e-9, abs=1e-300)
    assert p["significant"] == (p["p_value"] < 0.05)
    if p["significant"]:
        assert p["verdict"] == (a if only_a > only_b else b)
    else:
        assert p["verdict"] is None
    low, high = p["difference_ci95"]
    assert (p["disagreement"] is not None) == ((low > 0 or high < 0) != p["significant"])


@settings(max_examples=150, deadline=None)
@given(COUNTS, LABELS)
def test_sentences_name_no_winner_without_significance_and_counts_stand_by_their_run(counts, labels) -> None:
    both, only_a, only_b, neither = counts
    a, b = labels
    pair = Paired(a, b, sum(counts), both, only_a, only_b, neither)
    text = paired_text(pair)
    if not only_a and not only_b:
        assert "won and lost the same" in text
        return
    # Each count beside the run it belongs to, whichever order the runs are named in.
    assert re.search(rf"only {re.escape(a)} won ([\d,]+)", text).group(1).replace(",", "") == str(only_a)
    assert re.search(rf"only {re.escape(b)} won ([\d,]+)", text).group(1).replace(",", "") == str(only_b)
    winners = re.findall(r"(\S+) won more|(\S+)'s win rate is", text)
    if pair.p_value >= 0.05:
        assert not winners and "stronger" not in text.replace("Neither run is shown stronger", "")
        assert "Neither run is shown stronger" in text
    else:
        assert winners and {w for pair_ in winners for w in pair_ if w} == {pair.verdict}


def test_the_reported_case_no_longer_names_a_winner() -> None:
    """The sentence issue 39 found: 31 against 36 on 300 boards, p = 0.625."""
    text = paired_text(Paired("expert-best", "short-safest", 300, 120, 31, 36, 113))
    assert "only expert-best won 31" in text and "only short-safest won 36" in text
    assert "won more" not in text and "Neither run is shown stronger" in text and "p = 0.625" in text


def test_interval_and_test_disagreeing_is_said() -> None:
    found = {True: None, False: None}
    for only_a in range(0, 40):
        for only_b in range(only_a, 40):
            for both, neither in ((0, 0), (5, 5), (40, 40)):
                p = Paired("a", "b", both + only_a + only_b + neither, both, only_a, only_b, neither)
                if p.disagreement:
                    low, high = p.difference_ci95
                    found[low > 0 or high < 0] = p
    # The exact test is the more cautious of the two: where they disagree, the interval leaves out 0
    # while p >= 0.05 (on few boards, all won by one run: 0 against 2 gives p = 0.5).
    assert found[True] is not None
    for p in (x for x in found.values() if x is not None):
        assert "disagree" in paired_text(p) and p.disagreement in paired_text(p)
    excludes = found[True]
    assert excludes.p_value >= 0.05 and excludes.verdict is None


def test_first_boards_each_run_won_alone() -> None:
    from types import SimpleNamespace as G

    a = [G(index=i, won=w, seed=100 + i) for i, w in enumerate([1, 1, 0, 1, 0, 1, 1, 0, 1, 1])]
    b = [G(index=i, won=w, seed=100 + i) for i, w in enumerate([1, 0, 1, 0, 1, 0, 0, 1, 1, 0])]
    p = pair_games(a, b, "A", "B")
    assert p.only_a_games == (1, 3, 5) and p.only_b_games == (2, 4, 7)  # the first three of each
    assert p.seeds == {i: 100 + i for i in (1, 3, 5, 2, 4, 7)}


# --- whole reports from stores ---------------------------------------------------------------


def game(index: int, won: bool, probs: tuple[float, ...] = (), uncovered: int = 71,
         cells: tuple[str, ...] = ()) -> StoredGame:  # fmt: skip
    names = cells or tuple(f"A{i + 1}" for i in range(len(probs)))
    guesses = tuple(Guess(Move.parse(c), p, 10) for c, p in zip(names, probs, strict=True))
    return StoredGame(index=index, seed=10**18 + index, won=won, moves=10, guesses=guesses,
                      uncovered=uncovered, bbbv=10, seconds=0.01)  # fmt: skip


def make_db(path: Path, config: RunConfig, games: list[StoredGame]) -> Path:
    with GameStore(path, config) as store:
        store.add(games)
    return path


def test_paired_report_writes_boards_with_their_replay_commands(tmp_path) -> None:
    from minesat.formats import read_layout
    from minesat.generate import generate_layout

    wins_a = [True, True, False, False, True, True, False, True]
    wins_b = [True, False, False, True, False, False, True, True]
    a = make_db(tmp_path / "a.sqlite", BEGINNER,
                [game(i, w, () if w else (0.5,)) for i, w in enumerate(wins_a)])  # fmt: skip
    b = make_db(tmp_path / "b.sqlite", replace(BEGINNER, strategy="safest"),
                [game(i, w, () if w else (0.5,)) for i, w in enumerate(wins_b)])  # fmt: skip
    out = tmp_path / "ab.json"
    result = CliRunner().invoke(app, ["report", str(a), str(b), "--out", str(out)])
    assert result.exit_code == 0, result.output
    (p,) = json.loads(out.read_text())["paired"]
    assert p["only_a_games"] == [1, 4, 5] and p["only_b_games"] == [3, 6]
    assert [x["game"] for x in p["boards"]] == [1, 4, 5, 3, 6]
    for board in p["boards"]:
        layout = read_layout(board["layout"])
        assert layout == generate_layout(9, 9, 10, start=(3, 3), rule="opening", seed=int(board["seed"]))
        assert board["seed"] == str(10**18 + board["game"])
        assert board["replay"] == [
            f"minesat solve {board['layout']} --first-click opening --start 3,3 --strategy {s}"
            for s in ("best", "safest")
        ]
        assert f"wrote {board['layout']}" in result.stdout
    # The command really replays the board: the layout file is one solve reads.
    solved = CliRunner().invoke(app, [*p["boards"][0]["replay"][0].split()[1:], "--json"])
    assert solved.exit_code == 0 and json.loads(solved.stdout)["moves"][0] == "D4"


def test_warnings_say_what_a_reader_would_miss(tmp_path) -> None:
    long = make_db(tmp_path / "long.sqlite", BEGINNER, [game(i, i % 3 > 0) for i in range(30)])
    short = make_db(tmp_path / "short.sqlite", replace(BEGINNER, strategy="safest"),
                    [game(i, i % 2 > 0) for i in range(10)])  # fmt: skip
    classic = make_db(tmp_path / "classic.sqlite", replace(BEGINNER, rule="safe", start=(0, 0)),
                      [game(i, True) for i in (0, 1, 5)])  # fmt: skip
    result = CliRunner().invoke(app, ["report", str(long), str(short), str(classic), "--json"])
    doc = json.loads(result.stdout)
    warnings = doc["warnings"]
    assert any("unequal numbers of games" in w and "long 30" in w and "short 10" in w
               and "paired on the 10 boards" in w for w in warnings)  # fmt: skip
    assert any("other board options or rules" in w and "classic: 9x9/10, safe at A1 (0,0)" in w
               for w in warnings)  # fmt: skip
    assert any(w.startswith("classic is an incomplete run") for w in warnings)
    # long and short are paired; classic is compared with each as an independent sample.
    assert [(c["a"], c["b"]) for c in doc["compared"]] == [("long", "classic"), ("short", "classic")]
    for c in doc["compared"]:
        (ka, na), (kb, nb) = [(r["wins"], r["games"]) for r in doc["runs"] if r["label"] in (c["a"], c["b"])]
        p1, p2 = ka / na, kb / nb
        (l1, u1), (l2, u2) = wilson(ka, na), wilson(kb, nb)
        assert c["difference"] == pytest.approx(p1 - p2)
        assert c["ci95"] == pytest.approx([p1 - p2 - math.hypot(p1 - l1, u2 - p2),
                                           p1 - p2 + math.hypot(u1 - p1, p2 - l2)], abs=1e-6)  # fmt: skip
    page = render_markdown(make_report([summarize([game(0, True)], BEGINNER, label="x")]))
    assert "Warning" not in page


def test_losses_detail_counts_each_lost_game(tmp_path) -> None:
    games = [
        game(0, False, (0.2,), uncovered=0, cells=("A1",)),  # 0 % uncovered, a corner
        game(1, False, (0.1, 0.5), uncovered=70, cells=("E5", "I9")),  # 70/71: the last tenth
        game(2, False, (0.3, 0.3, 0.25), uncovered=35, cells=("C3", "D4", "E5")),  # 35/71: 40-50 %
        game(3, True, (0.1,)),
        game(4, False, (0.4,), uncovered=71 * 9 // 10, cells=("E5",)),  # 63/71 = 88.7 %
    ]
    s = summarize(games, BEGINNER)
    d = s.losses_detail
    assert d.uncovered_at_death == (1, 0, 0, 0, 1, 0, 0, 0, 1, 1)
    assert d.fatal_guess == (2, 1, 1)  # games 0 and 4 died at their first guess
    grid = [[0] * 9 for _ in range(9)]
    for g in games:
        if not g.won:
            r, c = g.guesses[-1].move.cell
            grid[r][c] += 1
    assert [list(row) for row in d.fatal_cells] == grid
    assert d.on_border == (2, (81 - 49) / 81)  # A1 and I9 on the edge, 32 of 81 cells
    doc = json.loads(render_json([s]))["runs"][0]["losses_detail"]
    assert doc["uncovered_at_death"] == list(d.uncovered_at_death) and doc["fatal_cells"][0][0] == 1
    md = render_markdown([s])
    assert "1 of the 4 lost games (25.0 %) were lost with more than 90 %" in md
    assert "2 of the fatal guesses (50.0 %) were on an edge or corner cell, which make up 39.5 %" in md
    import matplotlib

    from minesat.report.plots import PLOT_STYLE, figure_svg, plot_anatomy, plot_fatal_cells

    with matplotlib.rc_context(PLOT_STYLE):
        heat = figure_svg(plot_fatal_cells([s]), "b")
        plots = [("anatomy", "How far lost games had come", figure_svg(plot_anatomy([s]), "a")),
                 ("fatal-cells", "Heat map of the cells lost games died on", heat)]  # fmt: skip
    page = render_html([s], plots=plots)
    assert "Anatomy of losses" in page and 'aria-label="Heat map of the cells lost games died on"' in page
    assert "were on an edge or corner cell" in page


# --- references -----------------------------------------------------------------------------

REFS = """# a comment, then the header
source,rows,cols,mines,rule,start,rate,games,low,high
Wide,9,9,10,opening,"3,3",0.5,100,,
Narrow,9,9,10,opening,D4,0.97,,0.969,0.971
Level,9,9,10,opening,D4,0.74,1000,,

Elsewhere,16,30,99,safe,"0,0",0.41,10000000,,
"""


def test_references_meet_runs_with_z_and_p(tmp_path) -> None:
    refs = tmp_path / "refs.csv"
    refs.write_text(REFS)
    db = make_db(tmp_path / "run.sqlite", BEGINNER, [game(i, i % 4 > 0) for i in range(40)])
    result = CliRunner().invoke(app, ["report", str(db), "--reference", str(refs), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    wide, narrow, level = doc["references"]
    assert (wide["source"], wide["run"], level["source"]) == ("Wide", "run", "Level")
    p, n = 30 / 40, 40
    se_run = math.sqrt(p * (1 - p) / n)
    z = (p - 0.5) / math.sqrt(se_run**2 + 0.5 * 0.5 / 100)
    assert wide["z"] == pytest.approx(z, abs=1e-9)
    assert wide["p"] == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), abs=1e-12)
    z = (p - 0.97) / math.sqrt(se_run**2 + (0.002 / 3.92) ** 2)
    assert narrow["z"] == pytest.approx(z, abs=1e-9) and narrow["start"] == "3,3"
    assert "1 row of the reference file (line 7) matches no run" in " ".join(doc["notes"])  # a note
    md = CliRunner().invoke(app, ["report", str(db), "--reference", str(refs)]).stdout
    assert "against Wide 50.00 % (z = +2.95, p = 0.00319): run is significantly above it" in md
    assert "against Narrow 97.00 % (z = -3.21, p = 0.00131): run is significantly below it" in md
    assert "against Level 74.00 % (z = +0.14, p = 0.886): consistent with it" in md


def test_a_reference_without_spread_on_either_side_has_no_z(tmp_path) -> None:
    refs = tmp_path / "refs.csv"
    refs.write_text('source,rows,cols,mines,rule,start,rate,low,high\nExact,9,9,10,opening,"3,3",1,1,1\n')
    db = make_db(tmp_path / "run.sqlite", BEGINNER, [game(i, True) for i in range(5)])
    result = CliRunner().invoke(app, ["report", str(db), "--reference", str(refs), "--json"])
    (m,) = json.loads(result.stdout)["references"]
    assert m["z"] is None and m["p"] is None


HEADER = "source,rows,cols,mines,rule,start,rate,games"


@pytest.mark.parametrize(
    ("text", "bad", "why"),
    [
        ("source,rows,cols,mines,rule,rate,games\nX,9,9,10,opening,0.5,10\n", None, "missing column 'start'"),
        ("source,rows,cols,mines,rule,start,rate\nX,9,9,10,opening,D4,0.5\n", None, "'games'"),
        (f'{HEADER}\nX,9,nine,10,opening,"3,3",0.5,10\n', "nine", "'cols': 'nine' is not a whole number"),
        (f'{HEADER}\nX,9,9,10,opening,"3,3",54.3,10\n', "54.3", "not a rate between 0 and 1"),
        (f'{HEADER}\nX,9,9,10,opening,"3,3",-0.1,10\n', "-0.1", "not a rate between 0 and 1"),
        ('source,rows,cols,mines,rule,start,rate,low,high\nX,9,9,10,opening,"3,3",0.5,0.4,abc\n', "abc",
         "column 'high': 'abc' is not a number"),
        (f"{HEADER}\nX,9,9,10,opening,3,3,0.5,10\n", "10", "quote"),
        (f'{HEADER}\nX,9,9,10,sometimes,"3,3",0.5,10\n', "sometimes", "not a first-click rule"),
        (f'{HEADER}\nX,9,9,10,opening,"30,3",0.5,10\n', '"30,3"', "off the 9x9 board"),
        (f"{HEADER}\nX,9,9,10,opening,D4,0.5,\n", None, "give the games or a 95 % interval"),
        ("", None, "empty reference file"),
    ],
)
def test_a_bad_reference_file_is_one_line_naming_file_line_and_column(tmp_path, text, bad, why) -> None:
    refs = tmp_path / "refs.csv"
    refs.write_text(text)
    db = make_db(tmp_path / "run.sqlite", BEGINNER, [game(0, True)])
    result = CliRunner().invoke(app, ["report", str(db), "--reference", str(refs)])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    if bad is None:  # a whole column is missing: the header's line
        where = ":1:1:" if "missing" in why or "empty" in why or "'games'" in why else ":2:"
    else:  # the field itself: its line and the column its first character is in
        second = text.splitlines()[1]
        where = f":2:{second.rindex(bad) + 1}:"
    assert line.startswith(f"minesat: {refs}{where}") and why in line, line


def test_the_shipped_references_read_and_cite_their_sources() -> None:
    refs = read_references(Path(__file__).parent.parent / "reports" / "references.csv")
    sources = {r.source.split(" ")[0] for r in refs}
    assert {"MineSweeperProb", "JSMinesweeper", "DNH", "minesolve"} <= sources
    assert all(r.extra.get("note") for r in refs)  # every row says where its figure comes from
    expert = [r for r in refs if r.board() == "16x30/99 opening at 3,3"]
    assert expert and all(0.5 < r.rate < 0.56 for r in expert)


def test_a_missing_or_unreadable_reference_file_is_one_line(tmp_path) -> None:
    db = make_db(tmp_path / "run.sqlite", BEGINNER, [game(0, True)])
    for where in (tmp_path / "nothing.csv", tmp_path):
        result = CliRunner().invoke(app, ["report", str(db), "--reference", str(where)])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert result.stderr.startswith(f"minesat: {where}: ")


def test_board_set_runs_name_their_boards_by_line(tmp_path) -> None:
    from minesat.report.boards import paired_boards

    rows = [[[0, c] for c in range(9)] + [[1, 0]], [[8, c] for c in range(9)] + [[7, 0]]]
    (tmp_path / "set.jsonl").write_text(
        "".join(json.dumps({"rows": 9, "cols": 9, "mines": rows[i % 2]}) + "\n" for i in range(6)))
    db = tmp_path / "best.sqlite"
    args = ["simulate", "--boards", str(tmp_path / "set.jsonl"), "--workers", "1", "--db", str(db)]
    assert CliRunner().invoke(app, args).exit_code == 0, args
    run = json.loads(CliRunner().invoke(app, ["report", str(db), "--json"]).stdout)["runs"][0]
    assert len(run["config"]["boards"]) == 64  # the set's SHA-256, not a seed, names the boards
    assert run["command"].startswith("minesat simulate --boards BOARDS.jsonl --games 6 --first-click opening")
    # A board set's boards are its lines: no seed, and so no layout file or replay command.
    pair = Paired("a", "b", 6, 2, 1, 1, 2, only_a_games=(1,), only_b_games=(4,), seeds={1: 0, 4: 0})
    boards = paired_boards(pair, run["config"])
    assert [(b.index, b.seed, b.layout, b.replay) for b in boards] == [(g, None, None, ()) for g in (1, 4)]


def test_a_reference_played_on_the_runs_boards_is_compared_paired_or_flagged(tmp_path) -> None:
    """A reference row that names the boards of a run (seed 7, games 0..29) is compared with it
    board by board from its per-board outcomes (McNemar, Newcombe paired); without the outcomes
    the independent z test is flagged as dependent. With several tests, a note on their number."""
    import gzip

    won = [i % 4 > 0 for i in range(40)]
    db = make_db(tmp_path / "run.sqlite", BEGINNER, [game(i, w) for i, w in enumerate(won)])
    theirs = [i % 3 > 0 for i in range(30)]  # the reference's outcome on boards 0..29
    with gzip.open(tmp_path / "theirs.jsonl.gz", "wt") as out:
        for i, w in enumerate(theirs):
            out.write(json.dumps({"game": i, "layout": "9x9", "jsm": {"won": w, "guesses": 1}}) + "\n")
    rate = sum(theirs) / 30
    refs = tmp_path / "refs.csv"
    refs.write_text(
        "source,rows,cols,mines,rule,start,rate,games,boards,outcomes\n"
        f'Paired,9,9,10,opening,"3,3",{rate},30,seed 7 games 0..29,theirs.jsonl.gz#jsm\n'
        f'Unpaired,9,9,10,opening,"3,3",{rate},30,seed 7 games 0..29,\n'
        f'Other seed,9,9,10,opening,"3,3",{rate},30,seed 8,\n'
    )
    result = CliRunner().invoke(app, ["report", str(db), "--reference", str(refs), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    paired, dependent, independent = doc["references"]
    pairs = list(zip(won[:30], theirs, strict=True))
    counts = [sum(p == (a, b) for p in pairs) for a, b in ((True, True), (True, False), (False, True),
                                                          (False, False))]  # fmt: skip
    p = paired["paired"]
    assert [p["both"], p["only_a"], p["only_b"], p["neither"]] == counts and p["games"] == 30
    assert p["p_value"] == pytest.approx(mcnemar(counts[1], counts[2]))
    assert p["difference_ci95"] == pytest.approx(list(newcombe_paired(*counts)), abs=1e-9)
    assert paired["dependent"] is False and paired["boards"] == "seed 7 games 0..29"
    assert dependent["paired"] is None and dependent["dependent"] is True
    assert independent["paired"] is None and independent["dependent"] is False  # other boards
    md = CliRunner().invoke(app, ["report", str(db), "--reference", str(refs)]).stdout
    assert "run against Paired on the same boards (seed 7 games 0..29), paired board by board" in md
    assert "paired on 30 shared boards (McNemar)" in md
    assert "Unpaired was measured on this run's boards (seed 7 games 0..29), so the two rates are not " \
           "independent" in md
    assert "This report makes 3 tests (3 comparisons with published figures)" in " ".join(doc["notes"])
