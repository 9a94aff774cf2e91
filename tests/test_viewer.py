"""The game viewer: frames judged on the position before each move, a self-contained page, links."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.board import COVERED, Layout, Move, Position
from minesat.cli import app
from minesat.game import Game
from minesat.generate import generate_layout
from minesat.player import Step, get_strategy, play_game
from minesat.verdict import Verdict
from minesat.viewer import (
    ViewerFrame,
    ViewerMove,
    encode_frames,
    game_frames,
    player_frames,
    render_viewer,
)
from minesat.viewer.page import ALPHABET

ROOT = Path(__file__).resolve().parents[1]
MINES_DAT = ROOT / "puzzles" / "mines.dat"
runner = CliRunner()


# --- helpers: read a page back as the script does, independently of the Python writer ---------


def page_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def decode(data: dict) -> list[tuple[list[int], list[object] | None]]:
    """Per frame: the board (row-major states) and per cell the analysis entry
    ("safe", "mine", None for unknown, a probability; "-" where the cell is not covered)."""
    rows, cols = data["rows"], data["cols"]
    board = [COVERED] * (rows * cols)
    out = []
    for f in data["frames"]:
        board = list(board)
        d = f.get("d", [])
        for i in range(0, len(d), 2):
            board[d[i]] = d[i + 1]
        cells: list[object] | None = None
        if "a" in f:
            table = ["safe", "mine", None, *f.get("p", [])]
            width = f.get("w", 1)
            codes = []
            for token, digits in re.findall(rf"([^0-9]{{{width}}})([0-9]*)", f["a"]):
                code = 0
                for ch in token:
                    code = code * len(ALPHABET) + ALPHABET.index(ch)
                codes += [table[code]] * (int(digits) if digits else 1)
            covered = [i for i, s in enumerate(board) if s == COVERED]
            assert len(codes) == len(covered)
            cells = ["-"] * (rows * cols)
            for i, value in zip(covered, codes, strict=True):
                cells[i] = value
        out.append((board, cells))
    return out


def expected_cells(frame: ViewerFrame) -> list[object]:
    cols = frame.position.cols
    out: list[object] = []
    for i, state in enumerate(frame.position.cells):
        cell = divmod(i, cols)
        if state != COVERED:
            out.append("-")
        elif cell in frame.safe:
            out.append("safe")
        elif cell in frame.mine:
            out.append("mine")
        else:
            assert frame.probability is not None
            p = frame.probability[cell[0]][cell[1]]
            out.append(None if p is None else round(p, 6))
    return out


def mines_dat_game() -> tuple[Layout, list[Move]]:
    layout = Layout.from_rows(MINES_DAT.read_text().splitlines())
    return layout, list(play_game(layout, (0, 0), rule="any").moves)


# --- frames ----------------------------------------------------------------------------------


def test_each_frame_is_the_position_before_its_move_and_the_last_is_the_end() -> None:
    layout, moves = mines_dat_game()
    frames = game_frames(layout, moves)
    assert [f.move.to_move() for f in frames[:-1]] == moves and frames[-1].move is None
    game = Game(layout)
    for frame, move in zip(frames, moves, strict=False):
        assert frame.position == game.position  # analysed before the move is made
        game.play(move)
    assert frames[-1].position == game.position
    assert frames[-1].verdict == "won"
    assert frames[0].verdict == "guess"
    assert frames[0].text == "guess at 12.3%, among the safest; the move best would make"
    assert all(f.verdict in ("safe", "mine") for f in frames[1:-1])


def test_the_players_guesses_and_proofs_match_the_frames() -> None:
    # Seeds whose expert games hold guesses: the frame of each guess shows the very
    # probability the player saw, and each proven move is proven on its own position.
    checked = 0
    for seed in (2, 5, 11):
        layout = generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=seed)
        steps: list[Step] = []
        frames = player_frames(layout, (3, 3), strategy=get_strategy("safest"), steps=steps)
        assert len(frames) == len(steps) + 1
        for frame, step in zip(frames, steps, strict=False):
            assert frame.move.to_move() == step.move
            if step.verdict is Verdict.GUESS:
                cell = step.move.cell
                assert frame.probability is not None
                assert frame.probability[cell[0]][cell[1]] == pytest.approx(step.probability, abs=1e-12)
                assert frame.verdict in ("guess", "loss")
                checked += 1
            elif step.verdict is Verdict.SAFE:
                assert frame.verdict == "safe"
            elif step.verdict is Verdict.MINE:
                assert frame.verdict == "mine"
            else:
                assert frame.verdict == "first click"
    assert checked >= 2


HUMAN = Layout.from_rows(["*    ", "     ", "  *  ", "     "])  # mines at A1 and C3
HUMAN_MOVES = ["A5", "A3", "B1*", "B1-", "C3*", "C4+", "D2"]


def test_a_human_game_is_judged_move_by_move() -> None:
    # A5 opens the right side; C3 is then proven a mine, C1, C2, D3 safe, A1/B1 50/50.
    frames = game_frames(HUMAN, [*HUMAN_MOVES, "B1"], times=[0.5 * i for i in range(8)])
    assert [(str(f.move), f.verdict) for f in frames[:-1]] == [
        ("A5", "guess"),
        ("A3", "no effect"),  # the opening from A5 uncovered it already
        ("B1*", "unproven flag"),
        ("B1-", "unflag"),
        ("C3*", "mine"),
        ("C4+", "safe"),  # C4's one mine is flagged: the chord opens D3, proven safe
        ("D2", "safe"),
        ("B1", "needless guess"),  # C1, C2 and D1 were proven safe
    ]
    assert frames[1].text == "A3 is already uncovered"
    assert frames[2].text == "flag on an unproven cell (mine probability 50.0%): not a mine"
    assert frames[5].text == "chord: opens 1 proven-safe cell"
    assert frames[7].text == (  # a proven-safe cell would have kept the game won
        "guess at 50.0%, among the safest; 3 proven-safe cells left untaken; "
        "kept 50.0% of 100.0% to win (best C1)"
    )
    assert frames[-1].verdict == "unfinished" and frames[-1].mines == frozenset()
    assert frames[3].time == 1.5 and frames[-1].time is None


def test_a_loss_shows_the_mines() -> None:
    frames = game_frames(HUMAN, [*HUMAN_MOVES, "A1"])
    assert frames[-2].verdict == "loss"
    said = "3 proven-safe cells left untaken; kept 50.0% of 100.0% to win (best C1): hit a mine"
    assert frames[-2].text.endswith(said)
    assert frames[-1].verdict == "lost" and frames[-1].text == "lost on move 8: a mine at A1"
    assert frames[-1].exploded == (0, 0) and frames[-1].mines == HUMAN.mines


@pytest.mark.parametrize(
    ("last", "text"), [("B1", "guess at 20.0%"), ("B2+", "chord over 4 unproven cells")]
)
def test_a_wrong_flag_does_not_fool_the_analysis(last: str, text: str) -> None:
    # The mine is B1; the flag on A1 is wrong. Were it believed, B2's 1 would be
    # satisfied and B1 proven safe; set aside, B1 stays a guess (and the chord one).
    layout = Layout.from_rows(["  ", "*1", "  "])
    frames = game_frames(layout, ["B2", "A1*", last])
    assert [f.verdict for f in frames] == ["guess", "unproven flag", "loss", "lost"]
    assert frames[2].safe == frozenset() and frames[2].text.startswith(text)


def test_moves_after_the_end_are_refused() -> None:
    layout = Layout.from_rows(["*  ", "   ", "   "])
    with pytest.raises(ValueError, match="after the end of the game"):
        game_frames(layout, ["C3", "A1"])


# --- the page ---------------------------------------------------------------------------------


def test_the_page_is_self_contained_and_holds_a_frame_per_move() -> None:
    layout, moves = mines_dat_game()
    frames = game_frames(layout, moves)
    page = render_viewer("mines.dat", {"moves": len(moves)}, frames, layout)
    assert page.startswith("<!DOCTYPE html>")
    # Nothing fetched: no address out, no external stylesheet or script, no import.
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<link\b|\bsrc\s*=|@import|url\(", page, re.I)
    data = page_data(page)
    assert len(data["frames"]) == len(moves) + 1
    assert [f["m"] for f in data["frames"][:-1]] == [
        [m.cell[0] * 9 + m.cell[1], ViewerMove.of(m).kind] for m in moves
    ]
    # Read back as the script reads it, every board and analysis is the frame's own.
    for frame, (board, cells) in zip(frames, decode(data), strict=True):
        assert tuple(board) == frame.position.cells
        if frame.probability is None:
            assert cells is None
        else:
            assert cells == expected_cells(frame)
    assert data["layout"] == sorted(r * 9 + c for r, c in layout.mines)
    # The keys' sentence and the address tip read apart (a line break: a space on the page).
    assert "first and last.\nOpen <code>?step=N</code>" in page
    tipless = render_viewer("mines.dat", {"moves": len(moves)}, frames, layout, link_tip=False)
    assert "first and last.</p>" in tipless and "to start at step N" not in tipless


def test_many_distinct_probabilities_take_two_characters_a_cell() -> None:
    rows, cols = 10, 12
    probability = tuple(tuple((r * cols + c + 1) / 200 for c in range(cols)) for r in range(rows))
    frame = ViewerFrame(Position.covered(rows, cols, 60), safe=frozenset({(0, 0)}), probability=probability)
    data = encode_frames([frame])
    assert data["frames"][0]["w"] == 2
    assert decode(data)[0][1] == expected_cells(frame)


def test_hostile_titles_and_texts_are_escaped() -> None:
    evil = "</script><script>alert('x')</script>&amp;<!--"
    layout = Layout.from_rows(["*  ", "   ", "   "])
    frames = [*game_frames(layout, ["C3"])]
    frames[0] = ViewerFrame(frames[0].position, move=frames[0].move, verdict=evil, text=evil)
    page = render_viewer(evil, [(evil, evil), ("player", "Ω \u2028 😀")], frames)
    assert "<script>alert" not in page and "<!--" not in page
    # Our two script elements only; the hostile text is in the JSON, escaped, and comes back whole.
    assert page.count("</script>") == 2
    assert page_data(page)["frames"][0]["t"] == evil
    assert "&lt;/script&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;" in page


def test_frames_of_different_sizes_are_refused() -> None:
    a = ViewerFrame(Position.covered(2, 2))
    b = ViewerFrame(Position.covered(2, 3))
    with pytest.raises(ValueError, match="frame 2 is 2x3"):
        render_viewer("x", {}, [a, b])
    with pytest.raises(ValueError, match="layout is 3x3"):
        render_viewer("x", {}, [a], Layout(3, 3))


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_the_script_draws_the_step_the_address_names(tmp_path: Path) -> None:
    layout, moves = mines_dat_game()
    path = tmp_path / "game.html"
    path.write_text(render_viewer("mines.dat", {}, game_frames(layout, moves), layout), encoding="utf-8")
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"file://{path}#step=2"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert f"step 2 of {len(moves) + 1}" in dom
    assert f"Move 2: {moves[1]} (uncover)" in dom
    assert dom.count('class="c ') == 81 and " mv" in dom


# --- the commands -----------------------------------------------------------------------------


def test_solve_html_writes_the_page_and_keeps_stdout(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    plain = runner.invoke(app, ["solve", str(MINES_DAT), "--start", "A1", "--json"])
    result = runner.invoke(app, ["solve", str(MINES_DAT), "--start", "A1", "--json", "--html", str(out)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["moves"] == json.loads(plain.stdout)["moves"]
    assert result.stderr.strip() == f"wrote {out}"
    data = page_data(out.read_text(encoding="utf-8"))
    assert len(data["frames"]) == len(json.loads(result.stdout)["moves"]) + 1


@pytest.mark.parametrize(
    ("where", "message"),
    [("notes.txt/game.html", "notes.txt is a file, not a folder"), (".", "is a directory")],
)
def test_solve_html_to_a_bad_place_is_one_line_and_status_2(tmp_path: Path, where: str, message: str) -> None:
    (tmp_path / "notes.txt").write_text("")  # missing folders are made; a file in the way is refused
    result = runner.invoke(app, ["solve", str(MINES_DAT), "--html", str(tmp_path / where)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert result.stderr.startswith("minesat: ")


def test_solve_html_does_not_go_with_the_oracle(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", str(MINES_DAT), "--oracle", "--html", str(tmp_path / "x.html")])
    assert result.exit_code == 2 and "--oracle" in result.stderr
    assert not (tmp_path / "x.html").exists()


def test_a_report_carries_its_game_pages_and_they_open_when_it_is_moved_alone(tmp_path: Path) -> None:
    import html as html_module
    import shutil

    db = tmp_path / "run.sqlite"
    args = ["--preset", "beginner", "--games", "40", "--seed", "0", "--strategy", "safest", "--workers", "1"]
    sim = runner.invoke(app, ["simulate", *args, "--db", str(db), "--json"])
    assert sim.exit_code == 0, sim.output
    out = tmp_path / "report" / "beginner.html"
    result = runner.invoke(app, ["report", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    # One file, nothing beside it: the game pages are inside the report.
    assert sorted(p.name for p in out.parent.iterdir()) == ["beginner.html"]
    assert result.stdout == f"wrote {out}\n"
    moved = tmp_path / "elsewhere" / "mailed.html"
    moved.parent.mkdir()
    shutil.copy(out, moved)
    out.unlink()
    page = moved.read_text(encoding="utf-8")
    assert not re.findall(r'<a href="(?!#|https?:)[^"]+"', page)  # no link to a file beside it
    pages = re.findall(r'<iframe title="Game (\d+), move by move" srcdoc="([^"]*)"', page)
    assert 1 <= len(pages) <= 4
    for _, srcdoc in pages:
        data = page_data(html_module.unescape(srcdoc))
        assert data["frames"][-1]["v"] == "lost"
        assert data["frames"][-2]["v"] == "loss"
    # Other formats stay as they were: no pages.
    other = runner.invoke(app, ["report", str(db), "--out", str(tmp_path / "r.json")])
    assert other.exit_code == 0 and other.stdout == f"wrote {tmp_path / 'r.json'}\n"
