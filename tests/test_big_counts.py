"""Layout counts past what a float holds: every face answers, and small counts give the same floats as ever.

A 40x40 board with 300 mines has about ``10 ** 320`` layouts, more than the
largest float (about ``1.8 * 10 ** 308``); a 150x150 board with 4 500 about
``10 ** 4780``. The counts are exact Python integers; where one meets a float
(the long-term risk's tallies, :mod:`minesat.guess.longterm`) it is scaled first.
Below ``2 ** FLOAT_BITS`` nothing is scaled, and the floats are bit for bit
those recorded before the scaling was added (``tests/fixtures/longterm.json``,
written by ``tests/longterm_fixture.py``), so the ``best`` player's games do not
change where they used to finish.
"""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from longterm_fixture import FIXTURE, risk_values
from minesat.analysis import Analyzer, analyze
from minesat.board import Layout, Position
from minesat.cli import app
from minesat.formats import parse_position, write_layout
from minesat.game import Game
from minesat.guess import longterm
from minesat.guess.longterm import FLOAT_BITS, LongTermRisk, layout_unit
from minesat.player import get_strategy

RECORDED = json.loads(FIXTURE.read_text())


def trap_layout(rows: int, cols: int, mines: int, seed: int = 1) -> Layout:
    """Mines at A1, C1 and C2, none elsewhere in rows A to E, the others at random below."""
    rng = random.Random(seed)
    far = [(r, c) for r in range(5, rows) for c in range(cols)]
    mined = {(0, 0), (2, 0), (2, 1)} | set(rng.sample(far, mines - 3))
    rows_text = ["".join("*" if (r, c) in mined else "." for c in range(cols)) for r in range(rows)]
    return Layout.from_rows(rows_text)


def trap_position(rows: int, cols: int, mines: int) -> Position:
    """:func:`trap_layout` with rows A to E shown, C1 and C2 flagged, A1 and B1 covered: one mine
    between them for good (A2 shows 1, and their walls C1 and C2 are mines), and a big covered
    board below row E."""
    layout = trap_layout(rows, cols, mines)
    lines = []
    for r in range(rows):
        line = ""
        for c in range(cols):
            if r >= 5 or (r, c) in ((0, 0), (1, 0)):
                line += "?"
            elif (r, c) in layout.mines:
                line += "*"
            else:
                line += str(layout.counts[r * cols + c] or ".")
        lines.append(line)
    return Position.from_rows(lines, mines=mines)


# --- the unit tallies are counted in ------------------------------------------------


def test_the_unit_is_one_layout_until_the_total_passes_float_bits() -> None:
    assert layout_unit(0) == layout_unit(1) == layout_unit(2 ** FLOAT_BITS - 1) == 0
    assert layout_unit(2 ** FLOAT_BITS) == 1
    assert layout_unit(10 ** 4000) == (10 ** 4000).bit_length() - FLOAT_BITS


@pytest.mark.parametrize("index", range(len(RECORDED)))
def test_small_counts_give_the_recorded_floats_bit_for_bit(index: int) -> None:
    recorded = RECORDED[index]
    position = parse_position(recorded["position"])
    assert risk_values(position) == {k: v for k, v in recorded.items() if k != "position"}


def test_scaled_tallies_give_the_same_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    # The recorded positions again, every count scaled down (a few bits kept): the shares
    # and pseudo 50/50s are those of the unscaled counts, to the float's precision.
    monkeypatch.setattr(longterm, "FLOAT_BITS", 4)
    for recorded in RECORDED:
        position = parse_position(recorded["position"])
        scaled = risk_values(position)
        assert scaled["pseudos"] == recorded["pseudos"]
        for key in ("scanned", "influence"):
            got = {(r, c): float(v) for r, c, v in scaled[key]}
            want = {(r, c): float(v) for r, c, v in recorded[key]}
            assert got.keys() == want.keys()
            assert all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)


# --- counts past a float ----------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols", "mines", "digits"), [(40, 40, 330, 308), (150, 150, 4500, 3000)])
def test_long_term_risk_counts_past_a_float(rows: int, cols: int, mines: int, digits: int) -> None:
    position = trap_position(rows, cols, mines)
    analyzer = Analyzer()
    analysis = analyzer.analyze(position)
    assert analysis.layouts is not None and analysis.layouts > 10 ** digits
    risk = LongTermRisk(analyzer, position, analysis)
    # A1 and B1 hold one mine between them for good: the trap forms in every layout, and
    # heading it off is worth half of them. Both are dead (B1 would show 3, A1 1): no pseudo.
    assert risk.influence((0, 0)) == risk.influence((1, 0)) == 0.5
    assert risk.scanned() == {(0, 0): 0.5, (1, 0): 0.5}
    assert risk.pseudos == ()
    shares = [risk.influence(cell) for cell in analysis.unknown[:200]]
    assert all(0.0 <= s <= 0.5 for s in shares)


def test_the_player_guesses_past_a_float() -> None:
    # The whole position's guess, long-term risk and all, at 10 ** 4780 layouts.
    position = trap_position(150, 150, 4500)
    analysis = analyze(position)
    cell = get_strategy("best").choose(position, analysis)
    assert cell in analysis.unknown


# --- whole games ----------------------------------------------------------------------------


def test_simulate_plays_big_boards(tmp_path: Path) -> None:
    # 40x40 with 300 mines: game 5 of seed 0 met its first OverflowError here.
    for rows, cols, mines, games in ((40, 40, 300, 6), (100, 100, 2000, 2)):
        result = CliRunner().invoke(app, [
            "simulate", "--rows", str(rows), "--cols", str(cols), "--mines", str(mines),
            "--games", str(games), "--workers", "1", "--db", str(tmp_path / f"{rows}.sqlite"), "--json",
        ])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.splitlines()[-1])["games"] == games


def test_solve_plays_a_game_past_ten_to_the_3000(tmp_path: Path) -> None:
    # Opened at B2 (a 3): the first guess is made among about 10 ** 3190 layouts.
    layout = trap_layout(120, 120, 3000)
    game = Game(layout)
    game.uncover((1, 1))
    assert (analyze(game.position).layouts or 0) > 10 ** 3000
    path = tmp_path / "big.txt"
    write_layout(layout, path)
    result = CliRunner().invoke(app, ["solve", str(path), "--start", "B2", "--json"])
    assert result.exit_code == 0, result.output
    played = json.loads(result.stdout)
    assert played["guesses"] and played["uncovered"] > 0


def test_the_server_answers_past_a_float() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="httpx is not installed (Starlette's TestClient needs it)")
    from minesat.formats import format_layout
    from minesat.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        with TestClient(create_app(work_seconds=60.0, allowed_hosts=["testserver"])) as client:
            covered = "\n".join("?" * 40 for _ in range(40)) + "\n"
            response = client.post("/api/best", json={"board": covered, "mines": 300})
            assert response.status_code == 200, response.text
            assert response.json()["reason"] == "guess"
            game = client.post("/api/game", json={"layout": format_layout(trap_layout(40, 40, 330))}).json()
            client.post(f"/api/game/{game['id']}/move", json={"move": "B2"})  # a 3: nothing proven
            response = client.post(f"/api/game/{game['id']}/hint", json={})
            assert response.status_code == 200, response.text
            assert response.json()["best"]["reason"] == "guess"
