"""Replays played by minesat's rules: the samples end won on their time with ms-toollib's
click counts, RMV's own record of the board agrees move for move, and the mouse rules
(releases off the pressed cell, both buttons, question marks, pre-game flags) one by one."""

from __future__ import annotations

from pathlib import Path

import pytest

from minesat.board import COVERED, FLAG, Layout
from minesat.formats.replay import MouseEvent, Replay, read_replay
from minesat.game import Game, MoveResult, Status
from minesat.replay import (
    STNB_CONSTANTS,
    ReplayMetrics,
    bbbv_solved,
    play_replay,
    replay_metrics,
    replay_moves,
    replay_steps,
)
from replay_samples import (
    NO_MS_TOOLLIB,
    NO_SAMPLES,
    SAMPLES,
    have_ms_toollib,
    ms_toollib_reading,
    ms_toollib_running,
    readme_table,
    sample_files,
    sample_params,
)

# --- the samples -----------------------------------------------------------------


@pytest.mark.parametrize("path", sample_params())
def test_sample_replays_to_a_win_on_the_files_time_with_the_readme_metrics(path: Path) -> None:
    replay = read_replay(path)
    game = play_replay(replay)
    assert game.won and game.status is Status.WON
    assert game.seconds == pytest.approx(replay.rtime, abs=1e-9)
    assert game.moves[-1].time == game.seconds
    assert replay.layout.is_solved_by(game.position)
    m = game.metrics
    assert m.bbbv == m.bbbv_solved == replay.layout.bbbv()
    assert m.bbbv_per_second == pytest.approx(m.bbbv / replay.rtime)
    row = readme_table()[path.name]
    if row is None:  # ms-toollib aborts on this one: it is its basic twin's game
        twin = play_replay(read_replay(path.with_name(path.name.replace("invalid", "basic"))))
        assert (game.moves, game.metrics) == (twin.moves, twin.metrics)
        return
    assert m.bbbv == int(row["bbbv"])
    ours = {"left": m.left, "right": m.right, "double": m.double, "cl": m.cl, "ce": m.ce}
    assert ours == {k: int(row[k]) for k in ours}
    assert (f"{m.ioe:.4f}", f"{m.corr:.4f}") == (row["ioe"], row["corr"])


def test_metrics_equal_ms_toollibs() -> None:
    if not SAMPLES.is_dir():
        pytest.skip(NO_SAMPLES)
    if not have_ms_toollib():
        pytest.skip(NO_MS_TOOLLIB)
    readings, _ = ms_toollib_reading()
    for name, theirs in readings.items():
        m = replay_metrics(read_replay(SAMPLES / name))
        assert (m.bbbv, m.left, m.right, m.double, m.cl, m.ce) == tuple(
            theirs[k] for k in ("bbbv", "left", "right", "double", "cl", "ce")
        ), name
        assert (m.ioe, m.corr) == (pytest.approx(theirs["ioe"]), pytest.approx(theirs["corr"])), name
        assert theirs["completed"]


def test_running_figures_equal_ms_toollibs_after_every_move() -> None:
    """3BV solved, clicks, effective clicks, path and STNB after each move, and RQP, STNB,
    path and 3BV/s at the end, as ms-toollib computes them at the same moment.

    ms-toollib is asked half a millisecond after each move (its clock is the game's), so
    moves followed by another event within 2 ms are left out; its STNB then is of that
    later moment, and is brought back to the move's time (STNB goes as time^-1.7).
    Mid-game, ms-toollib's RQP divides the whole game's time squared, not the time so
    far: RQP is compared at the end only.
    """
    if not SAMPLES.is_dir():
        pytest.skip(NO_SAMPLES)
    if not have_ms_toollib():
        pytest.skip(NO_MS_TOOLLIB)
    table = readme_table()
    games, asked = {}, {}
    for path in sample_files():
        if table.get(path.name) is None:
            continue  # ms-toollib aborts on it
        replay = read_replay(path)
        game = play_replay(replay)
        assert len(game.figures) == len(game.moves) and game.figures[-1] == game.metrics
        assert game.start is not None
        kept = []
        for move, figures in zip(game.moves, game.figures, strict=True):
            following = replay.events[move.event + 1 :]
            if move.time > 0 and (not following or following[0].time - game.start - move.time >= 0.002):
                kept.append(figures)
        games[str(path)] = (game, kept)
        asked[str(path)] = [f.seconds + 0.0005 for f in kept]
    compared = 0
    for name, (rows, end) in ms_toollib_running(asked).items():
        game, kept = games[name]
        for ours, (time, solved, cl, ce, path, stnb) in zip(kept, rows, strict=True):
            assert (ours.bbbv_solved, ours.cl, ours.ce) == (solved, cl, ce), (name, ours.seconds)
            assert ours.path == pytest.approx(path, abs=1e-9), (name, ours.seconds)
            assert (ours.stnb or 0.0) * (ours.seconds / time) ** 1.7 == pytest.approx(stnb, rel=1e-9)
            compared += 1
        final = game.metrics
        assert final.seconds == pytest.approx(end["time"])
        assert final.rqp == pytest.approx(end["rqp"]) and final.path == pytest.approx(end["path"])
        assert final.bbbv_per_second == pytest.approx(end["bbbv_s"])
        assert final.ioe == pytest.approx(end["ioe"])
        assert (final.stnb or 0.0) == pytest.approx(end["stnb"]), name
    assert compared > 1000


def test_stnb_only_on_the_three_levels_and_figures_that_would_divide_by_zero_are_none() -> None:
    clicks = dict(left=0, right=0, double=0, lce=0, rce=0, dce=0)
    start = ReplayMetrics.of((16, 30, 99), 120, 0, 0.0, clicks, 0.0)
    assert (start.bbbv_per_second, start.rqp, start.stnb, start.ioe, start.corr) == (None,) * 5
    assert ReplayMetrics.of((9, 9, 10), 20, 20, 10.0, clicks, 0.0).stnb is None
    expert = ReplayMetrics.of((16, 30, 99), 120, 30, 10.0, clicks, 0.0)
    assert expert.stnb == pytest.approx(435 * 30 / 10**1.7 * 0.5) and expert.rqp == pytest.approx(100 / 30)
    assert set(STNB_CONSTANTS) == {(8, 8, 10), (16, 16, 40), (16, 30, 99)}


def test_rmv_files_own_record_of_the_board_agrees_move_for_move() -> None:
    """Viennasweeper stores what every mouse event did to the board: the cells it opened
    (with their numbers), flagged and unflagged. Our moves must do exactly that."""
    files = [p for p in sample_files() if p.suffix == ".rmv"]
    if not files:
        pytest.skip(NO_SAMPLES)
    for path in files:
        replay = read_replay(path)
        ours = []
        game = Game(replay.layout)
        for move in replay_moves(replay):
            before = list(game.state)
            game.play(move.move)
            for i, (was, now) in enumerate(zip(before, game.state, strict=True)):
                if was != now:
                    change = "open" if now >= 0 else "flag" if now == FLAG else "unflag"
                    ours.append((move.event, divmod(i, replay.cols), change, max(now, 0)))
        # Pre-flags are a section of their own, not board events.
        theirs = [(i, e.cell, "flag", 0) for i, e in enumerate(replay.events) if e.kind == "pf"]
        flagged = {e.cell for e in replay.events if e.kind == "pf"}
        for b in replay.board_events:
            cell = (b.row, b.col)
            if b.kind.startswith("open_"):
                theirs.append((b.after, cell, "open", int(b.kind.removeprefix("open_"))))
            elif b.kind == "flag":
                theirs.append((b.after, cell, "flag", 0))
                flagged.add(cell)
            elif b.kind == "closed" and cell in flagged:  # (else a pressed cell released)
                theirs.append((b.after, cell, "unflag", 0))
                flagged.discard(cell)
        assert sorted(ours) == sorted(theirs), path.name
        assert len(ours) > 50


def test_steps_show_the_position_before_each_move() -> None:
    path = SAMPLES / "arbiter-custom-11x8.avf"
    if not path.exists():
        pytest.skip(NO_SAMPLES)
    replay = read_replay(path)
    steps = list(replay_steps(replay))
    assert [s.move for s in steps] == replay_moves(replay)
    assert steps[0].position.cells == (COVERED,) * (11 * 8)
    game = Game(replay.layout)
    for step in steps:
        assert step.position == game.position
        assert game.play(step.move.move) is step.result
    assert steps[-1].result is MoveResult.SOLVED
    assert [s.result for s in steps[:-1]] == [MoveResult.VALID] * (len(steps) - 1)


# --- the mouse rules, on hand-made events ------------------------------------------

#: A 3x4 board: mines in A1 and C1; B1 shows 2, B2 shows 2, the rest opens from A4.
LAYOUT = Layout.from_rows(["*   ", "    ", "*   "])


def replay_of(*events: tuple[float, str, tuple[int, int] | None], marks: bool = False) -> Replay:
    mouse = tuple(
        MouseEvent(t, kind, *(((c * 16 + 8, r * 16 + 8, r, c)) if cell else (-1, -1, None, None)))
        for t, kind, cell in events
        for r, c in [cell or (0, 0)]
    )
    return Replay("evf", "t.evf", LAYOUT, 2, mouse, None, None, question_marks=marks)


def summary(replay: Replay) -> tuple[list[str], tuple[int, ...]]:
    game = play_replay(replay)
    m = game.metrics
    return [str(move) for move in game.moves], (m.left, m.right, m.double, m.ce)


A1, A4, B1, B2, C1 = (0, 0), (0, 3), (1, 0), (1, 1), (2, 0)


def test_a_left_click_uncovers_where_the_button_is_released() -> None:
    assert summary(replay_of((0, "lc", B1), (0.1, "mv", A4), (0.2, "lr", A4))) == (["A4"], (1, 0, 0, 1))


def test_left_clicks_count_off_the_board_and_on_open_cells_but_change_nothing() -> None:
    events = (
        (0, "lc", A4),
        (0.1, "lr", A4),
        (1, "lc", None),
        (1.1, "lr", None),
        (2, "lc", A4),
        (2.1, "lr", A4),
    )
    assert summary(replay_of(*events)) == (["A4"], (3, 0, 0, 1))


def test_right_clicks_flag_and_unflag() -> None:
    events = ((0, "lc", A4), (0.1, "lr", A4), (1, "rc", A1), (1.1, "rr", A1), (2, "rc", A1), (2.1, "rr", A1))
    events += ((3, "rc", A1), (3.1, "rr", A1))
    # A mine flagged again after unflagging is not a second effective click.
    assert summary(replay_of(*events)) == (["A4", "A1*", "A1-", "A1*"], (1, 3, 0, 2))


def test_with_question_marks_a_flag_becomes_a_mark_then_nothing() -> None:
    events = ((0, "lc", A4), (0.1, "lr", A4), (1, "rc", A1), (1.1, "rr", A1), (2, "rc", A1), (2.1, "rr", A1))
    events += ((3, "rc", A1), (3.1, "rr", A1), (4, "rc", A1), (4.1, "rr", A1))
    assert summary(replay_of(*events, marks=True)) == (["A4", "A1*", "A1-", "A1*"], (1, 4, 0, 2))


def opened_and_flagged() -> tuple[tuple[float, str, tuple[int, int] | None], ...]:
    return ((0, "lc", A4), (0.1, "lr", A4), (1, "rc", A1), (1.1, "rr", A1), (2, "rc", C1), (2.1, "rr", C1))


def test_both_buttons_chord_at_the_first_release_and_the_second_does_nothing() -> None:
    # Left down first, then right (on the number B2: no flag), released right first.
    events = (*opened_and_flagged(), (3, "lc", B2), (3.1, "rc", B2), (3.2, "rr", B2), (3.3, "lr", B2))
    game = play_replay(replay_of(*events))
    assert [str(m) for m in game.moves] == ["A4", "A1*", "C1*", "B2+"] and game.won
    assert (game.metrics.left, game.metrics.right, game.metrics.double, game.metrics.ce) == (1, 2, 1, 4)


def test_a_right_press_on_a_number_that_becomes_a_chord_is_not_a_right_click() -> None:
    events = (*opened_and_flagged(), (3, "rc", B2), (3.1, "lc", B2), (3.2, "lr", B2), (3.3, "rr", B2))
    assert summary(replay_of(*events)) == (["A4", "A1*", "C1*", "B2+"], (1, 2, 1, 4))
    # The same press on a covered cell flags it, and stays a right click.
    events = (*opened_and_flagged()[:4], (3, "rc", C1), (3.1, "lc", C1), (3.2, "lr", B2), (3.3, "rr", B2))
    assert summary(replay_of(*events)) == (["A4", "A1*", "C1*", "B2+"], (1, 2, 1, 4))


def test_holding_one_button_after_a_chord_and_pressing_the_other_chords_again() -> None:
    events = ((0, "lc", A4), (0.1, "lr", A4), (1, "rc", A1), (1.1, "rr", A1))
    events += (
        (2, "lc", B2),
        (2.1, "rc", B2),
        (2.2, "lr", B2),
        (2.3, "lc", B2),
        (2.4, "lr", B2),
        (2.5, "rr", B2),
    )
    # B2 has one flag of two: both chords fail, both count as double clicks.
    assert summary(replay_of(*events)) == (["A4", "A1*"], (1, 1, 2, 2))


def test_metasweepers_cc_and_the_middle_button_chord() -> None:
    events = (*opened_and_flagged(), (3, "lc", B2), (3.1, "cc", B2), (3.2, "lr", B2), (3.3, "rr", B2))
    assert summary(replay_of(*events))[0] == ["A4", "A1*", "C1*", "B2+"]
    events = (*opened_and_flagged(), (3, "mc", B2), (3.2, "mr", B2))
    assert summary(replay_of(*events)) == (["A4", "A1*", "C1*", "B2+"], (1, 2, 1, 4))
    events = (*opened_and_flagged(), (3, "l", B2), (3.1, "r", B2), (3.2, "l", B2), (3.3, "r", B2))
    assert summary(replay_of(*events))[0] == ["A4", "A1*", "C1*", "B2+"]


def test_a_chord_with_a_wrong_flag_loses_and_later_events_are_ignored() -> None:
    events = ((0, "lc", A4), (0.1, "lr", A4), (1, "rc", B1), (1.1, "rr", B1), (2, "rc", C1), (2.1, "rr", C1))
    events += (
        (3, "lc", B2),
        (3.1, "rc", B2),
        (3.2, "lr", B2),
        (3.3, "rr", B2),
        (4, "lc", B1),
        (4.1, "lr", B1),
    )
    game = play_replay(replay_of(*events))
    assert game.status is Status.LOST and [str(m) for m in game.moves][-1] == "B2+"
    assert game.seconds == pytest.approx(3.1) and game.metrics.left == 1
    assert game.metrics.bbbv_solved == bbbv_solved(LAYOUT, game.position) == 1


def test_the_clock_starts_at_the_first_uncover() -> None:
    events = ((0.5, "rc", A1), (0.6, "rr", A1), (1.0, "lc", A4), (1.25, "lr", A4), (3.0, "rc", C1))
    game = play_replay(replay_of(*events))
    assert [(m.time, str(m), m.event) for m in game.moves] == [
        (0.0, "A1*", 0),
        (0.0, "A4", 3),
        (1.75, "C1*", 4),
    ]
    assert game.seconds == 1.75


def test_flags_removed_again_before_the_game_starts_leave_no_clicks() -> None:
    events = (
        (0, "rc", A1),
        (0.1, "rr", A1),
        (0.2, "rc", A1),
        (0.3, "rr", A1),
        (1, "lc", A4),
        (1.1, "lr", A4),
    )
    assert summary(replay_of(*events)) == (["A1*", "A1-", "A4"], (1, 0, 0, 1))
    events = ((0, "pf", A1), (1, "lc", A4), (1.1, "lr", A4))  # a flag standing when the game starts
    assert summary(replay_of(*events)) == (["A1*", "A4"], (1, 1, 0, 2))


def test_a_recording_may_start_with_the_left_button_already_down() -> None:
    assert summary(replay_of((0, "lr", A4)))[0] == ["A4"]  # Viennasweeper's first event
    # Once a button event was seen, a release without its press is not a click.
    assert summary(replay_of((0, "rc", None), (0.1, "rr", None), (1, "lr", A4))) == ([], (0, 0, 0, 0))
