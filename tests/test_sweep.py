"""minesat sweep: lists, curves over sizes x rules x strategies on one pool, resuming, the 50 % crossing
(checked against a logistic fit written here), the report and the JSON the SPEC promises."""

from __future__ import annotations

import contextlib
import json
import math
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

import minesat
import minesat.sweeping as sweep_module
from glm import chi2_sf, irls
from minesat.cli import app
from minesat.generate import BoardSpec
from minesat.provenance import player_fingerprint, short
from minesat.report import summarize_db
from minesat.report.sweep import curve_style, render_sweep_html, render_sweep_markdown
from minesat.simulation import play_indices
from minesat.stats import wilson
from minesat.store import GameStore, PlayerMismatchError, RunConfig
from minesat.sweeping import (
    effective_density,
    mean_interval,
    parse_densities,
    parse_mines,
    parse_sizes,
    plan_sweep,
    point_db,
    run_sweep,
)

TINY = RunConfig(rows=5, cols=5, mines=2, rule="opening", start=(2, 2), seed=4)

#: Two sizes, two strategies: four curves, every one crossing 50 % within its points (seed 0).
FOUR = dict(sizes=[(6, 6), (5, 5)], rules=["opening"], strategies=["safest", "safest-rowmajor"],
            densities=parse_densities("0.08:0.4:0.08"))  # fmt: skip
FOUR_GAMES = 30


def plan_of(**kw):
    kw = {"sizes": [(5, 5)], "rules": ["opening"], "strategies": ["safest"], **kw}
    return plan_sweep(kw.pop("sizes"), kw.pop("rules"), kw.pop("strategies"), **kw)


# --- the lists -------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.1", ["1/10"]),
        ("0.1:0.3:0.1", ["1/10", "1/5", "3/10"]),  # exact decimals: 0.3 is reached
        ("0.2,0.1:0.2:0.05", ["1/10", "3/20", "1/5"]),
        ("0, 1", ["0", "1"]),
    ],
)
def test_parse_densities(text, expected):
    assert [str(d) for d in parse_densities(text)] == expected


@pytest.mark.parametrize("text", ["", "0.1,", "x", "1.2", "-0.1", "0.1:0.3", "0.3:0.1:0.1", "0.1:0.2:0",
                                  "0:1:0.0001", "nan", "inf"])  # fmt: skip
def test_parse_densities_rejects(text):
    with pytest.raises(ValueError, match="--density"):
        parse_densities(text)


def test_densities_become_mines_by_rounding_the_exact_product():
    plan = plan_of(sizes=[(9, 9), (16, 30)], densities=[Fraction(15, 100), Fraction(1, 6), Fraction(2, 10)])
    small, large = plan.curves
    # 0.15 x 81 = 12.15, 1/6 x 81 = 13.5 (a half: to even), 0.2 x 81 = 16.2; on 480 cells 72, 80, 96.
    assert small.mines == (12, 14, 16)
    assert large.mines == (72, 80, 96)
    # Two densities that round to one count make one point.
    assert plan_of(densities=parse_densities("0.1,0.11")).curves[0].mines == (2, 3)
    assert plan_of(densities=parse_densities("0.09,0.1")).curves[0].mines == (2,)  # 2.25 and 2.5


def test_parse_sizes():
    assert parse_sizes(["9x9", " 16 X 30 ,9x9"]) == [(9, 9), (16, 30)]
    for bad in ["9", "9x", "0x5", "1001x2", "axb"]:
        with pytest.raises(ValueError, match="--size"):
            parse_sizes([bad])


# --- the plan: curves, their order, effective density ------------------------------------


def test_curves_are_every_size_rule_and_strategy_ordered_by_size():
    plan = plan_of(sizes=[(16, 30), (9, 9), (16, 16)], rules=["safe", "opening"],
                   strategies=["safest", "best"], mines=[10, 20])  # fmt: skip
    labels = [c.label for c in plan.curves]
    assert labels[:4] == ["9x9 safe safest", "9x9 safe best", "9x9 opening safest", "9x9 opening best"]
    assert [(c.base.rows, c.base.cols) for c in plan.curves[::4]] == [(9, 9), (16, 16), (16, 30)]
    assert len(set(labels)) == 12
    assert all(c.base.start == (3, 3) for c in plan.curves)


@pytest.mark.parametrize(
    ("rule", "start", "clear"),
    [("opening", (3, 3), 9), ("opening", (0, 3), 6), ("opening", (0, 0), 4), ("opening", (15, 29), 4),
     ("safe", (0, 0), 1), ("safe", (3, 3), 1), ("any", (3, 3), 0)],
)  # fmt: skip
def test_effective_density_is_over_the_cells_the_rule_does_not_keep_clear(rule, start, clear):
    spec = BoardSpec(16, 30, 99, rule=rule, start=start)
    assert effective_density(spec) == 99 / (480 - clear) and len(spec.kept_clear()) == clear


def test_an_impossible_point_is_named_before_anything_runs(tmp_path):
    # 0.9 of 5x5 is 22 mines: too many beside the opening (at most 16); 6x6 takes 32 > 27 too,
    # but 5x5 comes first (curves by size), so that is the point named.
    with pytest.raises(ValueError, match=r"^the point 5x5 opening safest at 22 mines cannot be played"):
        plan_of(sizes=[(6, 6), (5, 5)], densities=parse_densities("0.1,0.9"))
    args = ["sweep", "--size", "6x6", "--size", "5x5", "--density", "0.1,0.9", "--games", "3",
            "--strategy", "safest", "--db", str(tmp_path / "sw")]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("minesat: the point 5x5 opening safest at 22 mines cannot be played")
    assert not (tmp_path / "sw").exists()


# --- playing ------------------------------------------------------------------------------


def test_sweep_points_are_runs_of_their_own(tmp_path):
    plan = plan_of(mines=[2, 4, 6], start=(2, 2), seed=4)
    sweep = run_sweep(plan, 6, tmp_path, workers=1)
    (curve,) = sweep.curves
    assert [p.mines for p in curve.points] == [2, 4, 6]
    for p in curve.points:
        # Each point is an ordinary store: the report of it agrees with the sweep's point.
        s = summarize_db(p.db)
        assert s.config["mines"] == p.mines
        assert p.db == str(point_db(tmp_path, replace(TINY, mines=p.mines, strategy="safest")))
        assert (p.games, p.wins, p.no_guess_wins, p.guesses_total) == (
            s.games, s.wins, s.no_guess_wins, s.guesses_total)  # fmt: skip
        assert p.ci95 == wilson(p.wins, p.games)
        assert p.density == p.mines / 25
        assert p.effective_density == p.mines / 16
    # Resumes: a second call plays nothing and gives the same points.
    again = run_sweep(plan, 6, tmp_path, workers=1)
    assert [p.to_dict() for p in again.points] == [p.to_dict() for p in sweep.points]


def test_every_point_of_every_curve_shares_one_pool_and_one_progress(tmp_path, monkeypatch):
    pools = []
    real = sweep_module.worker_pool

    @contextlib.contextmanager
    def counted(workers, scheduler, tasks):
        pools.append(tasks)
        with real(workers, scheduler, tasks) as pool:
            yield pool

    monkeypatch.setattr(sweep_module, "worker_pool", counted)
    plan = plan_of(sizes=[(5, 5), (4, 6)], strategies=["safest", "safest-rowmajor"], mines=[2, 5])
    seen = []
    sweep = run_sweep(plan, 7, tmp_path, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert pools == [8 * 7]  # one pool for the 8 points' 56 games
    assert seen[0] == (0, 56) and seen[-1] == (56, 56)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert {t for _, t in seen} == {56}
    # The games are the runs' games, whatever pool played them.
    for curve in sweep.curves:
        for config, p in zip(plan.curves[sweep.curves.index(curve)].configs(), curve.points, strict=True):
            with GameStore(p.db) as store:
                stored = [(g.index, g.seed, g.won, g.guesses) for g in store]
            expected = [(g.index, g.seed, g.won, g.guesses) for g in play_indices(config, range(7))]
            assert stored == expected


def measures(points):
    """The points' figures, without where they are stored and what made them (times, workers)."""
    return [replace(p, db="", provenance=None).to_dict() for p in points]


def test_a_dask_cluster_plays_every_point_as_local_workers_do(tmp_path):
    import dask.distributed as distributed  # the test extra installs dask: fail, not skip, without it

    plan = plan_of(sizes=[(5, 5), (4, 6)], mines=[2, 5])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:  # fmt: skip
        address = cluster.scheduler_address
        on_dask = run_sweep(plan, 6, tmp_path / "dask", scheduler=address)
    local = run_sweep(plan, 6, tmp_path / "local", workers=1)
    assert measures(on_dask.points) == measures(local.points)
    # Every batch the workers sent back was stored with the player that played it, in a session
    # naming the scheduler; the games are the local games, hash for hash.
    for curve in on_dask.curves:
        fp = player_fingerprint(curve.config.strategy)
        for p, q in zip(curve.points, local.curves[on_dask.curves.index(curve)].points, strict=True):
            with GameStore(p.db) as store:
                assert [g.player for g in store] == [fp] * 6
                (session,) = store.sessions()
            assert (session.player, session.workers) == (fp, address)
            assert (p.provenance["player"], p.provenance["workers"]) == (fp, address)
            assert p.provenance["games_sha256"] == q.provenance["games_sha256"]
            assert q.provenance["workers"] == 1
    assert (on_dask.provenance["player"], on_dask.provenance["sessions"]) == (player_fingerprint("safest"), 4)


def test_a_stopped_sweep_keeps_what_it_stored_and_resumes_point_by_point(tmp_path):
    plan = plan_of(strategies=["safest", "safest-rowmajor"], mines=[2, 4, 6])
    calls = []

    def stops_at_the_fourth_batch(config, batch):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return play_indices(config, batch)

    with pytest.raises(KeyboardInterrupt):
        run_sweep(plan, 10, tmp_path / "sw", workers=1, progress=None, batch_fn=stops_at_the_fourth_batch)
    stored = 0
    for path in (tmp_path / "sw").glob("*.sqlite"):
        with GameStore(path) as store:
            stored += len(store)
    assert 0 < stored < 60  # the batches that ended before the interrupt, no more
    seen = []
    resumed = run_sweep(plan, 10, tmp_path / "sw", workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (60 - stored, 60 - stored)  # only what was missing is played
    whole = run_sweep(plan, 10, tmp_path / "whole", workers=1)
    assert measures(resumed.points) == measures(whole.points)


# --- the 50 % crossing, against a fit written here -------------------------------------


def newton_logistic(xs: list[float], ys: list[int]) -> tuple[float, float, list[list[float]]]:
    """A plain Newton-Raphson fit of logit P(y=1) = b0 + b1 x over single games (not grouped),
    and the inverse information at the maximum."""
    b0 = b1 = 0.0
    for _ in range(200):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-(b0 + b1 * x)))
            g0 += y - p
            g1 += (y - p) * x
            w = p * (1 - p)
            h00 += w
            h01 += w * x
            h11 += w * x * x
        det = h00 * h11 - h01 * h01
        d0 = (h11 * g0 - h01 * g1) / det
        d1 = (h00 * g1 - h01 * g0) / det
        b0, b1 = b0 + d0, b1 + d1
        if abs(d0) + abs(d1) < 1e-13:
            break
    return b0, b1, [[h11 / det, -h01 / det], [-h01 / det, h00 / det]]


def test_four_curves_each_crossing_matches_an_independent_fit_of_its_games(tmp_path):
    kw = dict(FOUR)
    plan = plan_sweep(kw.pop("sizes"), kw.pop("rules"), kw.pop("strategies"), **kw)
    sweep = run_sweep(plan, FOUR_GAMES, tmp_path, workers=1)
    assert [c.label for c in sweep.curves] == [
        "5x5 opening safest", "5x5 opening safest-rowmajor",
        "6x6 opening safest", "6x6 opening safest-rowmajor",
    ]  # fmt: skip
    for curve in sweep.curves:
        # Every game of the curve, read back from the stores one by one.
        xs: list[float] = []
        ys: list[int] = []
        for p in curve.points:
            with GameStore(p.db) as store:
                for game in store:
                    xs.append(p.mines / curve.cells)
                    ys.append(int(game.won))
        assert len(ys) == 5 * FOUR_GAMES
        b0, b1, cov = newton_logistic(xs, ys)
        # The quasi-binomial scale: Pearson's X² over points - 2, where it exceeds 1.
        _, _, _, pearson, df = irls([(p.density, p.wins, p.games) for p in curve.points])
        cov = [[v * max(1.0, pearson / df) for v in row] for row in cov]
        crossing = curve.crossing50
        assert crossing is not None, curve.label
        assert crossing.density == pytest.approx(-b0 / b1, abs=1e-3)
        assert crossing.low is not None and crossing.high is not None
        assert crossing.low < -b0 / b1 < crossing.high
        # Fieller's bounds are where the Wald statistic of b0 + b1 x reaches z (SPEC 18's 1.959964).
        for x in (crossing.low, crossing.high):
            var = cov[0][0] + 2 * x * cov[0][1] + x * x * cov[1][1]
            assert abs(b0 + b1 * x) / math.sqrt(var) == pytest.approx(1.959964, abs=1e-4)
        assert crossing.mines == pytest.approx(crossing.density * curve.cells)
        assert crossing.effective_density == pytest.approx(crossing.density * curve.cells / (curve.cells - 9))
    doc = sweep.to_dict()
    assert "points" not in doc and len(doc["curves"]) == 4
    for c in doc["curves"]:
        assert {"label", "rows", "cols", "rule", "start", "strategy", "points", "crossing50"} <= set(c)
        assert {"density", "low", "high", "effective_density", "mines"} <= set(c["crossing50"])
        assert all("effective_density" in p for p in c["points"])


def test_every_curves_fit_says_how_well_it_fits_as_an_independent_glm_does(tmp_path):
    """deviance, df, p_value and dispersion of each curve's ``fit`` equal a numpy IRLS's within
    1e-3, and its covariance is the binomial one times max(1, dispersion)."""
    kw = dict(FOUR)
    plan = plan_sweep(kw.pop("sizes"), kw.pop("rules"), kw.pop("strategies"), **kw)
    sweep = run_sweep(plan, FOUR_GAMES, tmp_path, workers=1)
    for curve in sweep.to_dict()["curves"]:
        points = [(p["density"], p["wins"], p["games"]) for p in curve["points"]]
        _, cov, deviance, pearson, df = irls(points)
        fit = curve["fit"]
        assert fit["df"] == df == len(points) - 2
        assert fit["deviance"] == pytest.approx(deviance, abs=1e-3)
        assert fit["p_value"] == pytest.approx(chi2_sf(deviance, df), abs=1e-3)
        assert fit["dispersion"] == pytest.approx(pearson / df, abs=1e-3)
        scale = max(1.0, pearson / df)
        for i in range(2):
            for j in range(2):
                assert fit["covariance"][i][j] == pytest.approx(cov[i][j] * scale, rel=1e-5)


def test_a_curve_that_is_not_logistic_is_flagged_beside_its_interpolated_crossing():
    """A curve whose points stray from every logistic curve (deviance far past its df) gets
    its interval widened by the dispersion, a poor_fit flag, and the crossing the points give."""
    from minesat.sweeping import Curve, SweepPoint

    def point(mines, wins, games=200):
        return SweepPoint(mines=mines, density=mines / 256, effective_density=mines / 247, games=games,
                          wins=wins, no_guess_wins=0, guesses_total=0, guesses_sq_total=0)

    # Flat, then a cliff, then flat: no logistic curve bends so.
    base = RunConfig(rows=16, cols=16, mines=40, rule="opening", start=(3, 3), seed=0)
    curve = Curve(base, (point(40, 190), point(48, 180), point(56, 150), point(60, 40), point(68, 30),
                         point(76, 20)))  # fmt: skip
    fit = curve.fit
    assert fit is not None and fit.p_value is not None and fit.p_value < 0.05 and fit.dispersion > 1
    crossing = curve.crossing50
    assert crossing is not None and crossing.poor_fit
    # The line from (56, 75 %) to (60, 20 %) crosses 50 % at 56 + 4 x 25/55 mines.
    assert crossing.interpolated == pytest.approx((56 + 4 * 25 / 55) / 256)
    low, high = crossing.low, crossing.high
    assert low is not None and high is not None
    # Its bounds are where the Wald statistic reaches z with the binomial variance times the
    # dispersion (quasi-binomial): wider than the binomial fit's own interval.
    for x in (low, high):
        var = fit.var_intercept + 2 * x * fit.cov + x * x * fit.var_slope
        assert abs(fit.intercept + fit.slope * x) / math.sqrt(var * fit.dispersion) == pytest.approx(1.959964)
    u_low, u_high = replace(fit, pearson=0.0).fieller()  # dispersion set aside
    assert u_low is not None and u_high is not None and u_low > low and u_high < high
    doc = curve.to_dict()
    assert doc["crossing50"]["poor_fit"] is True and doc["fit"]["p_value"] < 0.05


def test_no_crossing_when_the_points_do_not_bracket_half_or_the_games_separate(tmp_path):
    # A few mines on 6x6: nearly every game won, no point below 50 %.
    easy = run_sweep(plan_of(sizes=[(6, 6)], mines=[1, 2]), 10, tmp_path, workers=1).curves[0]
    assert easy.crossing50 is None and easy.crossing_note == "the points do not bracket 50 %"
    # Every win at a lower density than every loss: no finite fit.
    from minesat.sweeping import Curve, SweepPoint

    def point(mines, wins):
        return SweepPoint(mines=mines, density=mines / 25, effective_density=mines / 16, games=10, wins=wins,
                          no_guess_wins=0, guesses_total=0, guesses_sq_total=0)  # fmt: skip

    split = Curve(replace(TINY, strategy="safest"), (point(2, 10), point(4, 10), point(6, 0)))
    assert split.crossing50 is None and "separate" in (split.crossing_note or "")
    mixed = Curve(replace(TINY, strategy="safest"), (point(2, 10), point(4, 6), point(6, 1)))
    assert mixed.crossing50 is not None


# --- the measures ------------------------------------------------------------------------


def test_guesses_interval_is_students_interval_of_the_mean():
    # Guesses 0, 1, 2, 3 in four games: mean 1.5, sample variance 5/3, t(0.975, 3) = 3.1824.
    half = 3.1824 * (5 / 3 / 4) ** 0.5
    assert mean_interval(6, 14, 4) == pytest.approx((max(0, 1.5 - half), 1.5 + half), abs=1e-4)
    # One value has no spread: no interval at all, not one of width 0 (6.00 (6.00-6.00) read as certainty).
    assert mean_interval(3, 9, 1) is None


def test_guesses_per_won_game_and_the_hazard_come_from_the_games(tmp_path):
    sweep = run_sweep(plan_of(mines=[6, 8]), 25, tmp_path, workers=1)
    for p in sweep.points:
        with GameStore(p.db) as store:
            games = list(store)
        won = [len(g.guesses) for g in games if g.won]
        assert p.guesses_per_win == pytest.approx(sum(won) / len(won))
        fatal = sum(1 for g in games if not g.won and g.guesses)
        assert p.fatal_guesses == fatal and p.guesses_total == sum(len(g.guesses) for g in games)
        assert p.hazard == pytest.approx(fatal / p.guesses_total)
        assert p.hazard_ci95 == wilson(fatal, p.guesses_total)


def test_curves_past_seven_stay_apart():
    looks = [(s.color, s.linestyle, s.marker) for s in map(curve_style, range(32))]
    assert len(set(looks)) == 32
    assert len({s.color for s in map(curve_style, range(8))}) == 8
    assert curve_style(7).linestyle != curve_style(8).linestyle


# --- the command and the report -----------------------------------------------------------


def test_sweep_command_json_and_report(tmp_path):
    args = ["sweep", "--rows", "5", "--cols", "5", "--start", "2,2", "--seed", "4", "--mines", "2:6:2",
            "--games", "5", "--workers", "1", "--strategy", "safest",
            "--db", str(tmp_path / "sw")]  # fmt: skip
    result = CliRunner().invoke(app, [*args, "--json", "--out", str(tmp_path / "sweep.html")])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout.strip().splitlines()[-1])
    assert [p["mines"] for p in doc["points"]] == [2, 4, 6]  # one curve: points at the top, as before
    assert doc["points"] == doc["curves"][0]["points"] and len(doc["curves"]) == 1
    for p in doc["points"]:
        assert {"mines", "density", "effective_density", "games", "wins", "win_rate", "ci95",
                "no_guess_wins"} <= set(p)  # fmt: skip
        assert p["games"] == 5 and p["ci95"] == pytest.approx(list(wilson(p["wins"], 5)))
        assert p["effective_density"] == p["mines"] / 16
    page = (tmp_path / "sweep.html").read_text()
    assert page.count("<svg") == 1 and "<script" not in page
    command = ("minesat sweep --size 5x5 --mines 2:6:2 --games 5 --seed 4 --first-click opening "
               f"--strategy safest --start 2,2 --db {tmp_path / 'sw'}")  # fmt: skip
    assert command in page
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S):
        assert ElementTree.fromstring(svg).tag.endswith("svg")
    # The stores are ordinary: each can be reported on its own.
    stores = sorted((tmp_path / "sw").glob("*.sqlite"))
    assert len(stores) == 3
    with GameStore(stores[0]) as store:
        assert len(store) == 5
    md = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "sweep.md")])
    assert md.exit_code == 0 and (tmp_path / "sweep-curves.svg").is_file()
    assert "| Curve | Mines |" in (tmp_path / "sweep.md").read_text()
    assert CliRunner().invoke(app, [*args, "--out", str(tmp_path / "s.json")]).exit_code == 0
    assert json.loads((tmp_path / "s.json").read_text())["points"] == doc["points"]


def test_every_point_says_what_made_it_and_its_export_names_the_player(tmp_path):
    args = ["sweep", "--size", "5x5", "--size", "4x4", "--mines", "2,4", "--games", "4", "--workers", "1",
            "--strategy", "safest", "--seed", "2", "--db", str(tmp_path / "sw")]  # fmt: skip
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout.strip().splitlines()[-1])
    fp = player_fingerprint("safest")
    points = [p for curve in doc["curves"] for p in curve["points"]]
    assert len(points) == 4
    for p in points:
        prov = p["provenance"]
        assert (prov["player"], prov["minesat"], prov["workers"]) == (fp, minesat.__version__, 1)
        assert prov["sessions"] == 1
        assert prov["python"] and prov["platform"] and prov["cpus"] >= 1
        assert prov["started"] <= prov["finished"]
        # The point's own command plays it alone, into its store; its hash is its export's.
        (s,) = [summarize_db(p["db"])]
        assert prov["command"] == s.command and "--db" in prov["command"]
        assert prov["games_sha256"] == s.provenance["games_sha256"]
        exported = [json.loads(x) for x in CliRunner().invoke(app, ["export", p["db"]]).stdout.splitlines()]
        assert [r["player"] for r in exported] == [fp] * 4
        assert {(r["rows"], r["cols"], r["mines"], r["strategy"]) for r in exported} == {
            (s.config["rows"], s.config["cols"], p["mines"], "safest")}
    assert doc["provenance"]["sessions"] == 4 and doc["provenance"]["player"] == fp
    assert doc["provenance"]["command"].startswith("minesat sweep --size 4x4 --size 5x5 --mines 2,4")
    # The Markdown and HTML reports show the same: the sweep's block, then a row per point.
    again = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "r.html")])
    assert again.exit_code == 0, again.output
    markdown = CliRunner().invoke(app, args).stdout
    for page in (markdown, (tmp_path / "r.html").read_text()):
        assert "Provenance" in page and fp in page and doc["provenance"]["command"] in page
        for p in points:
            assert p["provenance"]["games_sha256"] in page


def test_a_sweep_resumed_by_another_player_is_refused_and_writes_nothing(tmp_path):
    from test_provenance import dump, other_player

    directory = tmp_path / "sw"
    args = ["sweep", "--size", "4x4", "--mines", "2,3,4", "--games", "3", "--workers", "1",
            "--strategy", "safest", "--db", str(directory)]  # fmt: skip
    assert CliRunner().invoke(app, args).exit_code == 0
    stores = sorted(directory.glob("*.sqlite"))
    other_player(stores[1])  # the middle point's games become another player's
    # Nothing to play: the sweep is reported as it was played, each point with its player.
    doc = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout.strip().splitlines()[-1])
    assert doc["points"][1]["provenance"]["player"] == "0" * 64
    before = {path: (dump(path), path.stat().st_mtime_ns) for path in stores}
    files = sorted(directory.iterdir())
    result = CliRunner().invoke(app, [*args[:-2], "--size", "5x5", "--games", "5", "--db", str(directory)])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert str(stores[1]) in line and "3 games of player 000000000000" in line
    assert short(player_fingerprint("safest")) in line and "--mix-players" in line
    # Nothing played nor written: not the other points, not the new size's stores.
    assert {path: (dump(path), path.stat().st_mtime_ns) for path in stores} == before
    assert sorted(directory.iterdir()) == files
    # Knowingly mixed: played, and the point is one player's games, never both pooled.
    result = CliRunner().invoke(app, [*args[:-2], "--games", "5", "--db", str(directory), "--json",
                                      "--mix-players"])  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout.strip().splitlines()[-1])
    players = [p["provenance"]["player"] for p in doc["points"]]
    fp = player_fingerprint("safest")
    assert players == [fp, fp, fp]
    with GameStore(stores[1]) as store:
        assert store.players() == {"0" * 64: 3, fp: 2}
        mine = [g.won for g in store.games(player=fp)]
        theirs = [g.won for g in store.games(player="0" * 64)]
    mixed = doc["points"][1]
    assert (mixed["games"], mixed["wins"]) == (2, sum(mine))  # this minesat's 2 games, not all 5
    rows = {row["player"]: row for row in mixed["players"]}
    assert (rows["0" * 64]["games"], rows["0" * 64]["wins"]) == (3, sum(theirs)) and rows[fp]["shown"]
    assert doc["points"][0]["players"] == []  # a store of one player lists none
    md = CliRunner().invoke(app, [*args[:-2], "--games", "5", "--db", str(directory), "--mix-players"])
    assert "4x4 opening safest at 3 mines: its store holds the games of 2 players" in md.stdout
    assert "never pooled" in md.stdout and "player 000000000000: 3 games" in md.stdout


def test_a_batch_from_another_player_stops_the_sweep(tmp_path, monkeypatch):
    def elsewhere(batch_fn, config, batch):  # a worker running other code
        return "f" * 64, batch_fn(config, batch)

    monkeypatch.setattr(sweep_module, "played_by", elsewhere)
    with pytest.raises(PlayerMismatchError, match="with player ffffffffffff, but this run's player is"):
        run_sweep(plan_of(mines=[2, 3]), 4, tmp_path, workers=1)
    for path in tmp_path.glob("*.sqlite"):
        with GameStore(path) as store:
            assert len(store) == 0


def test_the_report_shows_every_curve_and_its_crossing(tmp_path):
    kw = dict(FOUR)
    plan = plan_sweep(kw.pop("sizes"), kw.pop("rules"), kw.pop("strategies"), **kw)
    sweep = run_sweep(plan, FOUR_GAMES, tmp_path, workers=1)
    page = render_sweep_html(sweep, db="sw", x_axis="effective-density")
    (svg,) = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    for curve in sweep.curves:
        assert svg.count(f">{curve.label}<") == 2  # in the legend and beside its crossing
        assert f"<td>{curve.label}</td>" in page
    assert "effective density (mines per cell not kept clear at the start)" in svg
    md = render_sweep_markdown(sweep)
    crossing = sweep.curves[0].crossing50
    assert crossing is not None and f"| {sweep.curves[0].label} | {100 * crossing.density:.1f} % |" in md
    assert "--size 5x5 --size 6x6 --density 0.08:0.4:0.08" in md


def test_the_command_takes_sizes_presets_densities_rules_and_strategies(tmp_path):
    args = ["sweep", "--preset", "beginner", "--size", "5x6", "--density", "0.1,0.2", "--first-click",
            "opening,safe", "--strategy", "safest,safest-rowmajor", "--games", "2", "--workers", "1",
            "--x-axis", "mines", "--json", "--db", str(tmp_path / "sw"),
            "--out", str(tmp_path / "r.md")]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout.strip().splitlines()[-1])
    assert [c["label"] for c in doc["curves"]][:4] == [
        "5x6 opening safest", "5x6 opening safest-rowmajor", "5x6 safe safest", "5x6 safe safest-rowmajor"]
    assert len(doc["curves"]) == 8 and "points" not in doc
    assert [p["mines"] for p in doc["curves"][-1]["points"]] == [8, 16]  # round(0.1 x 81), round(0.2 x 81)
    assert len(list((tmp_path / "sw").glob("*.sqlite"))) == 16


@pytest.mark.parametrize(
    "extra",
    [
        ["--rows", "5", "--cols", "5", "--mines", "30"],  # does not fit
        ["--rows", "5", "--cols", "5", "--mines", "4:x"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--out", "r.pdf"],
        ["--preset", "expert", "--rows", "5", "--mines", "4"],
        ["--rows", "5", "--mines", "4"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--strategy", "nope"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--strategy", "safest,"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--first-click", "opening,never"],
        ["--rows", "5", "--cols", "5", "--mines", "4", "--density", "0.1"],  # both
        ["--rows", "5", "--cols", "5"],  # neither
        ["--size", "5x5", "--size", "3x3", "--mines", "2", "--start", "4,4"],  # off the small board
        ["--size", "5by5", "--mines", "2"],
        ["--preset", "giant", "--mines", "2"],
        ["--mines", "2"],  # no size
        ["--size", "5x5", "--mines", "2", "--x-axis", "time"],
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, extra):
    result = CliRunner().invoke(app, ["sweep", *extra, "--games", "2", "--db", str(tmp_path / "sw")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minesat: ")
    assert not (tmp_path / "sw").exists()  # nothing started


def test_default_directory_names_what_sets_the_curves_apart():
    one = plan_of(mines=[2])
    assert one.default_dir() == Path("reports/sweep-5x5-opening-r3c3-s0-safest")
    many = plan_of(sizes=[(9, 9), (5, 5)], strategies=["safest", "best"], rules=["opening", "safe"],
                   mines=[2])  # fmt: skip
    assert many.default_dir() == Path("reports/sweep-5x5+9x9-opening+safe-s0-safest+best")


def _point(mines, wins, games=200, won_guesses=0, won_squares=0, cells=256):
    from minesat.sweeping import SweepPoint

    return SweepPoint(mines=mines, density=mines / cells, effective_density=mines / (cells - 9), games=games,
                      wins=wins, no_guess_wins=0, guesses_total=won_guesses, guesses_sq_total=won_squares,
                      won_guesses_total=won_guesses, won_guesses_sq_total=won_squares)  # fmt: skip


def _sweep_of(curve):
    from minesat.sweeping import Sweep

    plan = plan_sweep([(curve.config.rows, curve.config.cols)], [curve.config.rule], [curve.config.strategy],
                      mines=[p.mines for p in curve.points])  # fmt: skip
    return Sweep(plan=plan, games=200, curves=(curve,))


def test_a_mean_over_one_won_game_has_no_interval_and_hollow_points_count_won_games():
    from matplotlib.figure import Figure

    from minesat.report.sweep import _plot_means, curve_style, sweep_table
    from minesat.sweeping import Curve

    base = RunConfig(rows=16, cols=16, mines=40, rule="opening", start=(3, 3), seed=0)
    # 200 games at each point, but 1 and 2 won games at the last two: the means are over those.
    curve = Curve(base, (_point(40, 150, won_guesses=300, won_squares=900), _point(80, 2, won_guesses=9,
                         won_squares=45), _point(90, 1, won_guesses=6, won_squares=36)))  # fmt: skip
    rows = sweep_table(_sweep_of(curve))[1]
    per_win = [row[7] for row in rows]
    assert per_win[2] == "6.00 (–, 1 won game)"  # not "6.00 (6.00–6.00)"
    # 3 and 6 guesses: mean 4.5, s = 2.121, t(0.975, 1) = 12.706: the interval is honest about two values.
    assert per_win[1] == f"4.50 (0.00–{4.5 + 12.7062 * 2.1213 / 2 ** 0.5:.2f})"
    ax = Figure().add_subplot()
    _plot_means(ax, [(p.density, p) for p in curve.points], curve_style(0))
    hollow = [line for line in ax.lines if line.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))]
    assert len(hollow) == 2  # the points over 2 and 1 won games, though each is over 200 games


def test_the_cards_give_the_crossing_on_the_plots_axis_and_the_plot_draws_the_fitted_curve(tmp_path):
    from minesat.report.sweep import plot_sweep, sweep_cards, to_axis
    from minesat.sweeping import Curve

    base = RunConfig(rows=16, cols=16, mines=40, rule="opening", start=(3, 3), seed=0)
    curve = Curve(base, (_point(40, 180), _point(50, 130), _point(60, 70), _point(70, 20)))
    sweep = _sweep_of(curve)
    crossing = curve.crossing50
    assert crossing is not None
    for axis, expected in (("density", f"{100 * crossing.density:.1f} %"),
                           ("effective-density", f"{100 * crossing.effective_density:.1f} %"),
                           ("mines", f"{crossing.mines:.1f} mines")):  # fmt: skip
        card = sweep_cards(sweep, axis)[1]
        assert card[1] == expected, axis
        assert card[1] == (f"{to_axis(curve, crossing.density, axis):.1f} mines" if axis == "mines"
                           else f"{100 * to_axis(curve, crossing.density, axis):.1f} %")  # fmt: skip
    fig = plot_sweep(sweep, "effective-density")
    win = fig.axes[0]
    fitted = [line for line in win.lines if len(line.get_xdata()) == 121]
    assert len(fitted) == 1
    xs, ys = fitted[0].get_xdata(), fitted[0].get_ydata()
    assert ys[0] == pytest.approx(curve.fit.probability(40 / 256))
    assert xs[0] == pytest.approx(40 / 247)  # effective density: mines over the cells not kept clear


def test_sweep_out_is_quiet_but_for_one_line_naming_the_file(tmp_path):
    args = ["sweep", "--size", "4x4", "--mines", "2,3", "--games", "2", "--workers", "1",
            "--strategy", "safest", "--db", str(tmp_path / "sw")]  # fmt: skip
    for name in ("s.html", "s.md", "s.json"):
        result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        lines = (result.stdout + result.stderr).splitlines()
        assert len(lines) <= 3 and lines[0].startswith(f"wrote {tmp_path / name}"), lines
        assert "| Curve |" not in result.stdout  # the report is in the file, not on standard output
        assert ("s-curves.svg" in lines[0]) == (name == "s.md")  # the Markdown's plot, named beside it


def test_a_sweep_report_says_its_rules(tmp_path):
    sweep = run_sweep(plan_of(mines=[2, 4], rules=["opening", "safe"]), 3, tmp_path, workers=1)
    rules = sweep.to_dict()["rules"]
    assert set(rules["first_click"]) == {"opening", "safe"}
    assert [(c["run"], c["start"], c["start_index"], c["mines"]) for c in rules["curves"]] == [
        ("5x5 opening safest", "D4", [3, 3], [2, 4]), ("5x5 safe safest", "D4", [3, 3], [2, 4])]
    md = render_sweep_markdown(sweep)
    assert "## Rules" in md and "first click safe at D4 (row 3, column 3, counted from 0)" in md
    assert "First click opening: the first cell clicked and all its neighbours" in md
    assert "<h2>Rules</h2>" in render_sweep_html(sweep)
