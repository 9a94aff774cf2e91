"""minesat.review: each move of a played game judged on the position before it.

- Our own player's games: its proven moves review as safe and mine, its guesses as
  guesses with the very probabilities it computed, its outcome as its outcome.
- Chords over wrong flags: the chance of a mine among the cells a chord opens, against
  an enumeration of whole layouts (tests/bruteforce.py).
- Hand cases: a needless guess, a wrong flag, the first click, a loss.
- What a guess kept of the chance to win, against the brute-force perfect player
  (tests/perfect_bruteforce.py), and the ``best`` strategy's move where that is out of reach.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bruteforce import whole_layouts
from minesat.analysis import Analyzer
from minesat.board import COVERED, FLAG, Action, Cell, Layout, Move, Position, neighbours
from minesat.game import Game
from minesat.generate import generate_layout
from minesat.player import Step, get_strategy, play_game
from minesat.review import (
    BEST_MOVE_CELLS,
    PERFECT,
    STRATEGY,
    PlayedMove,
    Verdict,
    describe,
    review_game,
    without_flags,
)
from perfect_bruteforce import BruteForce


@pytest.mark.parametrize("strategy", ["best", "safest"])
def test_our_own_games_review_as_the_player_saw_them(strategy: str) -> None:
    for seed in range(25):
        layout = generate_layout(9, 9, 12, start=(4, 4), rule="opening", seed=seed)
        trace: list[Step] = []
        record = play_game(layout, (4, 4), strategy=get_strategy(strategy), trace=trace)
        review = review_game(layout, record.moves)
        assert review.won == record.won and len(review.moves) == len(record.moves)
        guesses = iter(record.guesses)
        for step, move in zip(trace, review.moves, strict=True):
            assert move.move == step.move
            if step.verdict is Verdict.GUESS:
                guess = next(guesses)
                assert move.verdict in (Verdict.GUESS, Verdict.LOSS) and not move.needless
                assert move.probability == pytest.approx(guess.probability, abs=1e-12)
                assert move.safest is not None and move.safest <= move.probability + 1e-12
            else:
                assert move.verdict is step.verdict, step
        assert review.guesses == len(record.guesses)
        assert review.needless_guesses == 0
        if not record.won:
            assert review.moves[-1].verdict is Verdict.LOSS and review.exploded is not None


def test_a_chord_over_flags_risks_exactly_what_the_layouts_say() -> None:
    """30 chords (benchmarks/heavy checks 60)."""
    check_chords(30)


def check_chords(count: int) -> None:
    """``count`` random chords over random flags, each judged against an enumeration of the layouts."""
    rnd = random.Random(20)
    checked = 0
    while checked < count:
        layout = generate_layout(5, 5, rnd.randint(3, 7), rule="any", seed=rnd.getrandbits(32))
        safe_cells = [(r, c) for r in range(5) for c in range(5) if (r, c) not in layout.mines]
        game = Game(layout)
        for cell in rnd.sample(safe_cells, 4):
            game.uncover(cell)
        if game.over:
            continue
        # Flag covered cells at random, right or wrong, until some number's flags match it.
        covered = [(r, c) for r in range(5) for c in range(5) if game[(r, c)] == COVERED]
        for cell in rnd.sample(covered, min(len(covered), rnd.randint(1, 4))):
            game.flag(cell)
        chords = [Move(cell, Action.CHORD) for cell in safe_cells]
        chords = [chord for chord in chords if game.refusal(chord) is None]
        if not chords:
            continue
        chord = rnd.choice(chords)
        opened = [n for n in neighbours(chord.cell, 5, 5) if game[n] == COVERED]
        before = game.position
        moves = _moves_to(game)
        review = review_game(layout, [*moves, chord])
        judged = review.moves[-1]
        assert judged.move == chord and judged.position == before
        layouts = list(whole_layouts(without_flags(before), layout.mine_count))
        risk = Fraction(sum(any(n in mines for n in opened) for mines in layouts), len(layouts))
        if risk == 0:
            assert judged.verdict is Verdict.SAFE and judged.probability is None
        else:
            hit = any(n in layout.mines for n in opened)
            assert judged.verdict is (Verdict.LOSS if hit else Verdict.GUESS)
            assert judged.probability == pytest.approx(float(risk), abs=1e-12)
        checked += 1


def _moves_to(game: Game) -> list[Move]:
    """Moves that rebuild ``game``'s position from a fresh game: its uncovered cells, then its flags."""
    moves = [Move(cell) for cell in game.position.all_cells() if game[cell] >= 0]
    return moves + [Move(cell, Action.FLAG) for cell in game.position.cells_in(FLAG)]


def test_hand_cases() -> None:
    layout = Layout.from_rows(["*  ", "   ", "  *"])
    # B2 first (B2 shows 2); A3 then risks 2 mines in B2's 8 neighbours: a 25 % guess.
    review = review_game(layout, [PlayedMove(Move.parse("B2"), 0.5), PlayedMove(Move.parse("A3"), 1.25)])
    first, guess = review.moves
    assert (first.verdict, first.time) == (Verdict.FIRST, 0.5)
    assert (guess.verdict, guess.time, guess.probability) == (Verdict.GUESS, 1.25, 0.25)
    assert guess.kind == "uncover" and guess.cell == (0, 2)
    # After A3 opens, C1 is proven safe: guessing B1 instead is a needless guess (it survives).
    # Then a flag on C2, a safe cell (wrong), taken off again.
    review = review_game(layout, [Move.parse(m) for m in ["B2", "A3", "B1", "C2*", "C2-"]])
    needless = review.moves[2]
    assert needless.verdict is Verdict.GUESS and needless.needless and needless.safe_left == 1
    assert needless.safest == needless.probability == 0.5  # the safest guess, C1 aside
    assert review.needless_guesses == 1
    # Had the player taken the safe cell there, only A3's guess would have been a risk.
    assert review.safest_survival == pytest.approx(0.75) and review.survival == pytest.approx(0.375)
    wrong, unflag = review.moves[3:]
    assert (wrong.verdict, unflag.verdict) == (Verdict.WRONG, Verdict.UNFLAG)
    # A refused move is kept and changes nothing: a click on an uncovered cell.
    again = review_game(layout, [Move.parse(m) for m in ["B2", "B2", "A1"]])
    assert [(str(m.move), m.verdict) for m in again.moves][1] == ("B2", Verdict.NO_EFFECT)
    assert again.moves[1].note == "B2 is already uncovered" and again.guesses == 1
    with pytest.raises(ValueError, match="after the end of the game"):
        review_game(layout, [Move.parse(m) for m in ["B2", "A1", "C1"]])
    lost = review_game(layout, [Move.parse("B2"), Move.parse("A1")])
    assert lost.moves[-1].verdict is Verdict.LOSS and lost.exploded == (0, 0) and not lost.won
    assert lost.survival == pytest.approx(0.75)  # A1's risk, 2 mines in B2's 8 neighbours


def test_a_flag_on_a_proven_safe_cell_says_so_and_a_small_chance_keeps_its_digits() -> None:
    """The flag message never reads "0.0%: not a mine": a proven-safe cell is named so, and a
    chance within 0.1 % of 0 or 100 % is written with two significant digits."""
    from dataclasses import replace

    from minesat.review import describe

    # C3 opens all but column 1: B1 is proven safe (B2 shows 2 with A1 and C1 both mines).
    layout = Layout.from_rows(["*  ", "   ", "*  "])
    review = review_game(layout, [Move.parse(m) for m in ["C3", "B1*"]])
    flag = review.moves[1]
    assert (flag.verdict, flag.probability) == (Verdict.WRONG, 0.0)
    assert describe(flag) == "flag on a proven-safe cell: not a mine"
    small = replace(flag, probability=0.0004)
    assert describe(small) == "flag on an unproven cell (mine probability 0.040%): not a mine"
    likely = replace(flag, verdict=Verdict.UNPROVEN, probability=0.99987)
    assert describe(likely) == "flag on an unproven cell (mine probability 99.987%)"


# --- what a guess kept of the chance to win --------------------------------------------------


def _brute_values(brute: BruteForce, position: Position) -> tuple[int, dict[Cell, int], int]:
    """The brute force's view of a position: the value, each covered cell's, and the layouts."""
    cells = [(r, c) for r in range(position.rows) for c in range(position.cols)]
    seen = frozenset((cell, position[cell]) for cell in cells if position[cell] >= 0)
    consistent = frozenset(
        j for j, mines in enumerate(brute.layouts)
        if all(brute.counts[j][cell] == shown and cell not in mines for cell, shown in seen)
    )
    opened = dict(seen)
    moves = {}
    for cell in brute.cells:
        if cell not in opened:
            groups = brute.groups(consistent, seen, cell)
            moves[cell] = sum(brute.value(frozenset(g), after) for after, g in groups.items())
    return brute.value(consistent, seen), moves, len(consistent)


def test_a_guess_says_the_chance_to_win_it_kept_against_the_best_move() -> None:
    """20 random games on 3x4 (benchmarks/heavy plays 40)."""
    assert check_kept_chances(20) > 15


def check_kept_chances(games: int) -> int:
    """``games`` random games on 3x4, each risky move's chance to win against the brute-force
    perfect player's; the moves checked."""
    rng = random.Random(5)
    checked = 0
    for _ in range(games):
        mines = rng.randint(2, 4)
        layout = generate_layout(3, 4, mines, start=(1, 1), rule="safe", seed=rng.randrange(10**9))
        game = Game(layout)
        moves = [Move.parse("B2")]
        game.play(moves[0])
        while not game.over:  # random clicks, mines included now and then: guesses and losses
            covered = [(r, c) for r in range(3) for c in range(4) if game[r, c] == COVERED]
            cell = rng.choice(covered)
            moves.append(Move(cell))
            game.play(moves[-1])
        brute = BruteForce(3, 4, mines)
        for move in review_game(layout, moves).risky:
            assert move.best_move_by == PERFECT  # a 3x4 board is always within reach
            best, value, layouts = _brute_values(brute, without_flags(move.position))
            assert move.best_win_probability == best / layouts
            assert move.win_probability == value[move.cell] / layouts
            assert move.best_move is not None and value[move.best_move] == best
            checked += 1
    return checked


def test_the_words_for_what_a_guess_kept() -> None:
    layout = Layout.from_rows(["*  ", "   ", "  *"])
    keeps = review_game(layout, [Move.parse("B2"), Move.parse("A3")]).moves[1]
    assert describe(keeps) == "guess at 25.0%, among the safest; keeps the best chance to win, 60.7%"
    # After A1 (a 1), B1 risks a third where A2, showing 1 or 2, would tell more: half the chance lost.
    lost = review_game(Layout.from_rows(["    ", "*  *"]), [Move.parse("A1"), Move.parse("B1")]).moves[1]
    assert (lost.win_probability, lost.best_win_probability, lost.best_move) == (1 / 6, 1 / 3, (0, 1))
    assert describe(lost) == (
        "guess at 33.3%, safest was 25.0%; kept 16.7% of 33.3% to win (best A2): hit a mine"
    )


def test_out_of_reach_the_best_strategy_names_its_move_on_boards_up_to_a_limit() -> None:
    # A first click under "any" is a guess on a blank board: far too many layouts to search.
    for side, named in ((30, True), (32, False)):
        assert (side * side <= BEST_MOVE_CELLS) is named
        layout = generate_layout(side, side, 150, rule="any", seed=side)
        guess = review_game(layout, [Move.parse("P16")], rule="any").moves[0]
        assert guess.verdict in (Verdict.GUESS, Verdict.LOSS) and guess.win_probability is None
        if named:
            blank = without_flags(guess.position)
            assert guess.best_move_by == STRATEGY
            assert guess.best_move == get_strategy("best").choose(blank, Analyzer().analyze(blank))
            said = "the move best would make" if guess.best_move == guess.cell else "best would guess"
            assert said in describe(guess)
        else:
            assert guess.best_move is None and guess.best_move_by is None


def test_a_played_games_moves_and_their_strings_are_reviewed_alike() -> None:
    # Issue 33: review_game took only Move values and failed with an AttributeError deep in the
    # game's rules on move strings; a played game's moves are Move values (issue 43).
    layout = Layout.from_rows(["*    ", "     ", "   * "])
    record = play_game(layout, (1, 2), rule="safe")
    as_moves = review_game(layout, record.moves)
    as_strings = review_game(layout, [str(m) for m in record.moves])
    assert [m.move for m in as_strings.moves] == list(record.moves)
    assert [(m.verdict, m.probability) for m in as_strings.moves] == [
        (m.verdict, m.probability) for m in as_moves.moves
    ]
    with pytest.raises(ValueError, match=r"^move 2: not a cell: 'zz'"):
        review_game(layout, ["B3", "zz"])
    with pytest.raises(TypeError, match=r"^move 2: expected a Move, a PlayedMove or a move string"):
        review_game(layout, ["B3", 42])  # type: ignore[list-item]
