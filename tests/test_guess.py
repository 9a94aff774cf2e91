"""The guessing pieces (minesat.guess) against plain enumeration of whole layouts.

Every check here lists the layouts of a small position by trying every subset of
its covered cells (nothing from :mod:`minesat.analysis` or :mod:`minesat.guess`),
then asks the same question of both:

- outcomes: P(cell safe and shows n) is the share of layouts where it does;
- endgame move: its chance to win is the optimum of a naive game-tree search
  over (layouts, uncovered cells), and the move achieves it;
- unavoidable guesses: two layouts that differ only inside the group show the
  same number on every other safe cell (nothing can ever tell them apart);
- the strategy: it always names an uncertain cell, the same one every time, and
  games played with it never uncover a proven mine.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from fractions import Fraction
from functools import cache
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bruteforce import whole_layouts
from minesat.analysis import Analyzer, InconsistentPositionError, analyze
from minesat.board import COVERED, FLAG, Action, Cell, Position, neighbours
from minesat.budget import NO_LIMIT, SEARCH_BUDGET, Budget
from minesat.exact.endgame import endgame_move
from minesat.game import Game, Status
from minesat.generate import FirstClick, game_seed, generate_layout
from minesat.guess.best import BestGuess, next_safety, strategy_named
from minesat.guess.fifty import unavoidable_guess
from minesat.guess.longterm import MASK_CELLS, LongTermRisk
from minesat.guess.outcomes import outcomes
from minesat.player import get_strategy, play_game

examples = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def layouts_of(position: Position) -> list[frozenset[Cell]]:
    """Every set of mines (flags included) consistent with the position and its total."""
    assert position.mines is not None
    return list(whole_layouts(position, position.mines))


def value(cell: Cell, mines: frozenset[Cell], rows: int, cols: int) -> int:
    return sum(n in mines for n in neighbours(cell, rows, cols))


@st.composite
def small_positions(draw: st.DrawFn, max_cells: int = 12) -> Position:
    """A consistent position on a small board from a random layout: some cells shown, some mines flagged."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, max_cells // rows)))
    mines = draw(st.integers(0, rows * cols))
    layout = generate_layout(rows, cols, mines, rule=FirstClick.ANY, seed=draw(st.integers(0, 2**32)))
    rnd = draw(st.randoms(use_true_random=False))
    show = draw(st.sampled_from([0.2, 0.4, 0.6]))
    flag = draw(st.sampled_from([0.2, 0.6]))
    cells = []
    for i, count in enumerate(layout.counts):
        cell = divmod(i, cols)
        if cell in layout.mines:
            cells.append(FLAG if rnd.random() < flag else COVERED)
        else:
            cells.append(count if rnd.random() < show else COVERED)
    return Position(rows, cols, tuple(cells), mines)


# --- outcomes -------------------------------------------------------------------


@examples
@given(small_positions())
def test_outcome_probabilities_are_shares_of_layouts(position: Position) -> None:
    layouts = layouts_of(position)
    covered = position.cells_in(COVERED)
    if not layouts or not covered:
        return
    analyzer = Analyzer()
    total = analyzer.analyze(position).layouts
    assert total == len(layouts)
    for cell in covered:
        got = {o.value: o.probability for o in outcomes(analyzer, position, cell, total)}
        expected: dict[int, int] = {}
        for mines in layouts:
            if cell not in mines:
                v = value(cell, mines, position.rows, position.cols)
                expected[v] = expected.get(v, 0) + 1
        assert got.keys() == expected.keys()
        for v, n in expected.items():
            assert got[v] == pytest.approx(n / len(layouts), abs=1e-12)


def test_next_safety_blends_the_two_safest_cells() -> None:
    finished = analyze(Position.from_rows(["1??"], mines=1))  # A2 is the mine, A3 safe, nothing else
    assert finished.safe and not finished.unknown and next_safety(finished) == 1.0
    two_safe = analyze(Position.from_rows(["001?", "001?", "112?", "????"], mines=3))
    assert len(two_safe.safe) == 2 and two_safe.unknown and next_safety(two_safe) == 1.0
    one_safe = analyze(Position.from_rows(["1?2?", "????"], mines=2))  # B1 safe; best other cell 2/3 safe
    assert len(one_safe.safe) == 1
    best_other = 1 - min(one_safe.probability[r][c] for r, c in one_safe.unknown)
    assert next_safety(one_safe) == pytest.approx((4 + best_other) / 5) and next_safety(one_safe) < 1
    open_question = analyze(Position.from_rows(["???", "???"], mines=3))
    assert next_safety(open_question) == pytest.approx(0.5)


# --- the endgame search --------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_cells=9))
def test_endgame_move_wins_what_a_naive_game_tree_wins(position: Position) -> None:
    try:
        analysis = analyze(position)
    except InconsistentPositionError:
        return
    if analysis.safe or not analysis.unknown:
        return  # the player never searches while something is proven
    move = endgame_move(position, analysis, limit=10**6, budget=NO_LIMIT)
    assert move is not None
    layouts = layouts_of(position)
    assert move.cell in analysis.unknown and move.layouts == len(layouts)
    assert move.win_probability == pytest.approx(naive_win(position), abs=1e-12)
    # The move itself achieves it: play it in every layout and search on.
    rows, cols = position.rows, position.cols
    won = 0.0
    for v in {value(move.cell, m, rows, cols) for m in layouts if move.cell not in m}:
        cells = list(position.cells)
        cells[move.cell[0] * cols + move.cell[1]] = v
        after = Position(rows, cols, tuple(cells), position.mines)
        won += len(layouts_of(after)) * naive_win(after)
    assert won / len(layouts) == pytest.approx(move.win_probability, abs=1e-12)


def test_endgame_move_gives_up_past_its_limits() -> None:
    position = Position.from_rows(["?????", "?2?1?", "?????"], mines=3)
    analysis = analyze(position)
    assert analysis.layouts is not None and analysis.layouts > 10
    assert endgame_move(position, analysis, limit=10) is None  # too many layouts to list
    assert endgame_move(position, analysis, budget=Budget(max_states=1)) is None  # past the state budget
    assert endgame_move(position, analysis) is not None


def test_endgame_answers_are_remembered_only_for_the_same_position_and_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from minesat.exact import endgame

    monkeypatch.setattr(endgame, "_answers", type(endgame._answers)())
    # The same cells with another mine count, and the same position searched within other limits:
    # each answer must be the one a fresh search gives, whatever was searched before it.
    asked = [
        (Position.from_rows(["?????", "?2?1?", "?????"], mines=m), limit, states)
        for m in (3, 2, 3) for limit, states in ((10**6, None), (10**6, 1), (10, None), (10**6, None))
    ]
    fresh = [endgame._search(p, analyze(p), limit, Budget(max_states=states))
             if analyze(p).layouts <= limit else None
             for p, limit, states in asked]
    assert len({(f.wins, f.layouts) for f in fresh if f is not None}) == 2  # the two mine counts differ
    remembered = [endgame_move(p, analyze(p), limit=limit, budget=Budget(max_states=states))
                  for p, limit, states in asked]
    assert remembered == fresh
    assert len(endgame._answers) == 4  # each mine count within and past the state budget; 10 lists none
    monkeypatch.setattr(endgame, "REMEMBERED", 3)
    for width in range(2, 8):  # only the latest REMEMBERED are kept
        p = Position.from_rows(["?" * width], mines=1)
        endgame_move(p, analyze(p), limit=100, budget=NO_LIMIT)
    assert [key[0].cols for key in endgame._answers] == [5, 6, 7]


def test_remembered_endgame_answers_play_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small boards, where exact play decides from the first guess: games played with every
    answer remembered from earlier games are the games played with none remembered."""
    from minesat.exact import endgame

    layouts = [generate_layout(4, 4, 4, start=(0, 0), rule="safe", seed=s) for s in range(16)]

    searched: list[Position] = []
    search = endgame._search
    monkeypatch.setattr(endgame, "_search", lambda *args: searched.append(args[0]) or search(*args))

    def play_all() -> list[tuple[bool, tuple[str, ...]]]:
        searched.clear()
        games = [play_game(layout, (0, 0), strategy=get_strategy("best"), rule="safe") for layout in layouts]
        return [(game.won, tuple(game.moves)) for game in games]

    monkeypatch.setattr(endgame, "_answers", type(endgame._answers)())
    monkeypatch.setattr(endgame, "REMEMBERED", 0)
    forgetting = play_all()
    searches = len(searched)
    monkeypatch.setattr(endgame, "REMEMBERED", 10_000)
    monkeypatch.setattr(endgame, "_answers", type(endgame._answers)())
    assert play_all() == forgetting and 0 < len(searched) < searches  # positions that come back: remembered
    assert play_all() == forgetting and not searched  # every answer remembered now
    assert 0 < sum(won for won, _ in forgetting) < len(layouts)  # real games: some won, some lost


def test_a_games_endgame_searches_share_their_memo_and_play_the_same_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Small boards, where exact play decides every guess: a game's searches sharing one memo
    play the games searches with a memo each play, and search fewer states."""
    from minesat.exact import endgame
    from minesat.guess import best

    layouts = [generate_layout(4, 4, 4, start=(0, 0), rule="safe", seed=s) for s in range(16)]
    states: list[int] = []

    class Counted(endgame.PositionSearch):
        def best_move(self, prefer=None):  # type: ignore[no-untyped-def]
            try:
                return super().best_move(prefer)
            finally:
                states.append(self.states)

    monkeypatch.setattr(endgame, "PositionSearch", Counted)
    monkeypatch.setattr(endgame, "REMEMBERED", 0)  # every position searched, none answered from memory

    def play_all() -> list[tuple[bool, tuple[str, ...], tuple]]:
        states.clear()
        games = [play_game(layout, (0, 0), strategy=get_strategy("best"), rule="safe") for layout in layouts]
        return [(game.won, game.moves, game.guesses) for game in games]

    monkeypatch.setattr(best, "ENDGAME_MEMO", -1)  # cleared before every search: nothing shared
    alone = play_all()
    searched_alone = sum(states)
    monkeypatch.setattr(best, "ENDGAME_MEMO", 200_000)
    assert play_all() == alone
    assert 0 < sum(states) < searched_alone
    assert 0 < sum(won for won, _, _ in alone) < len(layouts)


def naive_win(position: Position) -> float:
    """The best chance to win, by a plain game tree over (layouts, uncovered cells)."""
    rows, cols = position.rows, position.cols
    covered = tuple(position.cells_in(COVERED))

    @cache
    def win(layouts: frozenset[frozenset[Cell]], opened: frozenset[Cell]) -> float:
        if all(set(covered) - mines <= opened for mines in layouts):
            return 1.0
        best = 0.0
        for cell in covered:
            if cell in opened:
                continue
            by_value: dict[int, set[frozenset[Cell]]] = {}
            for mines in layouts:
                if cell not in mines:
                    by_value.setdefault(value(cell, mines, rows, cols), set()).add(mines)
            chance = sum(len(s) * win(frozenset(s), opened | {cell}) for s in by_value.values())
            best = max(best, chance / len(layouts))
        return best

    return win(frozenset(layouts_of(position)), frozenset())


# --- unavoidable guesses -------------------------------------------------------------


def _never_told_apart(position: Position, group: tuple[Cell, ...]) -> None:
    """The group holds the same number of mines in every layout, and two layouts that differ only
    inside it show the same number on every other cell safe in both."""
    members = set(group)
    layouts = layouts_of(position)
    rows, cols = position.rows, position.cols
    assert len({len(m & members) for m in layouts}) == 1, "the group's mine count varies"
    outside = [c for c in position.all_cells() if c not in members]
    for a, b in itertools.combinations(layouts, 2):
        if a - members != b - members:
            continue
        for c in outside:
            if c not in a:
                assert value(c, a, rows, cols) == value(c, b, rows, cols), (position.to_rows(), group, c)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_unavoidable_groups_can_never_be_told_apart(position: Position) -> None:
    try:
        analysis = analyze(position)
    except InconsistentPositionError:
        return
    group = unavoidable_guess(position, analysis)
    if group is None:
        return
    assert set(group) <= set(analysis.unknown)
    _never_told_apart(position, group)


@pytest.mark.parametrize("rows, mines", [
    ([" 1?", "12?", "??2", "12?"], 3),
    (["1??21", "1?22*", "1?222", "2?2??", "??21?"], 6),
    ([" ?1*?", "12332", "?????", "1??31"], 5),
    (["?2??1", "*?11?"], 3),
])
def test_chains_of_fifty_fifties_are_found(rows: list[str], mines: int) -> None:
    """Positions (found by a random search) where no single number walls its cells in, but a chain does."""
    position = Position.from_rows(rows, mines=mines)
    analysis = analyze(position)
    assert unavoidable_guess(position, analysis, chains=False) is None
    group = unavoidable_guess(position, analysis)
    assert group is not None and len(group) == 4
    _never_told_apart(position, group)
    # Every layout puts the chain's mines one of two ways, equally often.
    ways = [frozenset(m & set(group)) for m in layouts_of(position)]
    assert len(set(ways)) == 2 and ways.count(ways[0]) * 2 == len(ways)


def test_a_walled_in_pair_is_found() -> None:
    position = Position.from_rows(["??*", "13*", " 11"], mines=3)
    assert unavoidable_guess(position, analyze(position)) == ((0, 0), (0, 1))
    # A1, A2, B2 share one mine, but A3 (perhaps safe) sees A2 and B2, not A1: it could tell.
    opened = Position.from_rows(["???", "1??"], mines=1)
    assert unavoidable_guess(opened, analyze(opened)) is None


# --- the strategy --------------------------------------------------------------------


@examples
@given(small_positions())
def test_best_guess_names_an_uncertain_cell_deterministically(position: Position) -> None:
    try:
        analysis = analyze(position)
    except InconsistentPositionError:
        return
    if analysis.safe or analysis.mine or not analysis.unknown:
        return
    every_piece = "best-with-pseudo"
    for name in ("best", "best-no-lookahead", "best-no-endgame-no-fifty", every_piece):
        first = get_strategy(name).choose(position, analysis)
        assert first in analysis.unknown
        assert get_strategy(name).choose(position, analysis) == first


def _pruning_keeps_the_choice(strategy: BestGuess, position: Position) -> None:
    analysis = strategy.analyzer.analyze(position)
    if analysis.safe or not analysis.unknown or analysis.layouts is None:
        return
    candidates = strategy.candidates(position, analysis)
    pruned = strategy.rank(position, analysis, candidates)
    exact = strategy.rank(position, analysis, candidates, prune=False)
    assert pruned[0] == exact[0]  # the same cell, with the same exact score
    scores = {c.cell: c.score for c in exact}
    for c in pruned[1:]:
        assert c.score >= scores[c.cell] - 1e-12  # an upper bound


@examples
@given(small_positions(max_cells=16))
def test_pruning_the_look_ahead_never_changes_its_choice(position: Position) -> None:
    try:
        analyze(position)
    except InconsistentPositionError:
        return
    for name in ("best-no-endgame", "best-no-endgame-no-dead", "best-no-endgame-no-longterm"):
        strategy = strategy_named(name)
        assert strategy is not None
        _pruning_keeps_the_choice(strategy, position)
    weighed = BestGuess(endgame=False)  # the long-term risk's scores weighed in, as JSMinesweeper does
    weighed.influence_weight = 0.9
    _pruning_keeps_the_choice(weighed, position)


@pytest.mark.parametrize("index", range(3))
def test_pruning_keeps_every_choice_of_expert_games(index: int) -> None:
    """Every guess of whole expert games, ranked with and without pruning."""
    seed = game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=5, index=index)
    layout = generate_layout(16, 30, 99, start=(3, 3), seed=seed)
    strategy = BestGuess(endgame=False)
    game = Game(layout)
    game.uncover((3, 3))
    while not game.over:
        position = game.position
        analysis = strategy.analyzer.analyze(position)
        if analysis.safe:
            game.uncover(analysis.safe[0])
            continue
        _pruning_keeps_the_choice(strategy, position)
        game.uncover(strategy.choose(position, analysis))


def test_strategy_names() -> None:
    assert strategy_named("best-no-dead").dead is False  # type: ignore[union-attr]
    assert strategy_named("best-no-lookahead").lookahead is False  # type: ignore[union-attr]
    assert strategy_named("best-no-wings") is None
    assert strategy_named("best-with-dead") is None  # on already: the name would change nothing
    assert strategy_named("best-no-fifty").fifty is False  # type: ignore[union-attr]
    assert strategy_named("best-with-fifty") is None  # on already
    assert strategy_named("best-with-pseudo-with-pseudo") is None
    assert strategy_named("best-with-pseudox") is None
    assert strategy_named("best-with-longterm") is None  # on already
    assert strategy_named("safest") is None
    with pytest.raises(ValueError, match="unknown strategy"):
        get_strategy("best-no-wings")
    with pytest.raises(ValueError, match=r"; fifty is already on in best, pseudo is already off in best$"):
        get_strategy("best-with-fifty-no-pseudo")


@pytest.mark.parametrize("index", range(6))
def test_games_with_best_never_uncover_a_proven_mine(index: int) -> None:
    rows, cols, mines, start = 16, 30, 99, (3, 3)
    layout = generate_layout(rows, cols, mines, start=start, rule="opening",
                             seed=game_seed(rows, cols, mines, rule="opening", start=start, seed=0,
                                            index=index))
    record = play_game(layout, start, strategy=BestGuess())
    again = play_game(layout, start, strategy=BestGuess())
    assert (record.won, record.moves, record.guesses) == (again.won, again.moves, again.guesses)
    game = Game(layout)
    analyzer = Analyzer()
    for move in record.moves:
        if move.action is not Action.FLAG:
            position = game.position
            cell = move.cell
            if position[cell] == COVERED and any(position[c] >= 0 for c in position.all_cells()):
                assert cell not in analyzer.analyze(position).mine, f"{move} was a proven mine"
        game.play(move)
    assert game.over and record.won == (game.status is Status.WON)


def test_the_cli_takes_chained_piece_names(tmp_path) -> None:
    from typer.testing import CliRunner

    from minesat.cli import app

    db = tmp_path / "run.sqlite"
    args = ["simulate", "--preset", "beginner", "--games", "4", "--workers", "1", "--db", str(db)]
    ok = CliRunner().invoke(app, [*args, "--strategy", "best-no-endgame-with-pseudo", "--json"])
    assert ok.exit_code == 0, ok.output
    assert '"strategy": "best-no-endgame-with-pseudo"' in ok.stdout
    bad = CliRunner().invoke(app, [*args, "--strategy", "best-no-wings"])
    assert bad.exit_code == 2 and "unknown strategy 'best-no-wings'" in bad.output


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_endgame_move_keeps_what_minesat_perfect_counts(position: Position) -> None:
    from minesat.perfect import perfect_from_position

    try:
        analysis = analyze(position)
    except InconsistentPositionError:
        return
    if not analysis.unknown:
        return
    move = endgame_move(position, analysis, limit=10**6, budget=NO_LIMIT)
    exact = perfect_from_position(position, strategies=[], budget=replace(SEARCH_BUDGET, max_states=None))
    assert move is not None and (move.wins, move.layouts) == (exact.wins, exact.layouts)
    assert move.cell in exact.moves


# --- long-term risk ----------------------------------------------------------------------


def _shape_walls(shape: tuple[Cell, ...], rows: int, cols: int) -> list[Cell]:
    """The cells outside ``shape`` that see exactly one of its cells: what could tell its mines apart."""
    seen: dict[Cell, int] = {}
    for cell in shape:
        for n in neighbours(cell, rows, cols):
            if n not in shape:
                seen[n] = seen.get(n, 0) + 1
    return [n for n, k in seen.items() if k == 1]


def _brute_risk(position: Position) -> tuple[dict[Cell, Fraction], set[Cell]] | None:
    """Each undecided cell's influence and the pseudo 50/50s, from whole layouts (minesat.guess.longterm)."""
    layouts = layouts_of(position)
    if not layouts:
        return None
    rows, cols = position.rows, position.cols
    total = len(layouts)
    covered = set(position.cells_in(COVERED))
    mined = {c: sum(c in m for m in layouts) for c in covered}
    undecided = {c for c in covered if 0 < mined[c] < total}

    def walls_of(shape: tuple[Cell, ...], most: int) -> list[Cell] | None:
        if not set(shape) <= undecided:
            return None
        walls = _shape_walls(shape, rows, cols)
        if any(position[w] >= 0 or (w in covered and mined[w] == 0) for w in walls):
            return None  # a number, or a safe cell that will show one
        open_walls = [w for w in walls if w in undecided]
        return open_walls if len(open_walls) <= most else None

    def formed(walls: list[Cell], mines: tuple[Cell, ...], safe: tuple[Cell, ...]) -> int:
        return sum(all(c in m for c in (*walls, *mines)) and not any(c in m for c in safe) for m in layouts)

    def ways(shape: tuple[Cell, ...]) -> list[tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
        if len(shape) == 2:
            return [((shape[0],), (shape[1],)), ((shape[1],), (shape[0],))]
        tl, tr, bl, br = shape
        return [((tl, br), (tr, bl)), ((tr, bl), (tl, br))]

    def pairs() -> list[tuple[Cell, ...]]:
        return [((r, c), (r + dr, c + dc)) for r in range(rows) for c in range(cols)
                for dr, dc in ((0, 1), (1, 0)) if r + dr < rows and c + dc < cols]

    def boxes() -> list[tuple[Cell, ...]]:
        return [((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                for r in range(rows - 1) for c in range(cols - 1)]

    # The board-wide scan: pairs needing at most 1 unknown wall, then (no pseudo yet) boxes needing 2.
    enabling: dict[Cell, Fraction] = {}
    pseudos: set[Cell] = set()
    for kind, most in ((pairs, 1), (boxes, 2)):
        if pseudos:
            break
        for shape in kind():
            if (walls := walls_of(shape, most)) is None:
                continue
            counts = [(m, formed(walls, m, s)) for m, s in ways(shape)]
            tally = Fraction(sum(n for _, n in counts), 2)
            for m, n in counts:
                pseudos |= {c for c in m if n and n == mined[c]}
            if tally / total > Fraction(25, 1000):
                for w in walls:
                    enabling[w] = enabling.get(w, Fraction(0)) + tally

    def dead(cell: Cell) -> bool:
        return len({value(cell, m, rows, cols) for m in layouts if cell not in m}) == 1

    influence: dict[Cell, Fraction] = {}
    for cell in undecided:
        tally = enabling.get(cell, Fraction(0))
        for shape in pairs():
            if cell in shape and (walls := walls_of(shape, 3)) is not None:
                tally += Fraction(sum(formed(walls, m, s) for m, s in ways(shape)), 2)
        tally += max((Fraction(sum(formed(walls, m, s) for m, s in ways(shape)), 2)
                      for shape in boxes() if cell in shape and (walls := walls_of(shape, 3)) is not None),
                     default=Fraction(0))
        influence[cell] = min(tally, mined[cell], total - mined[cell]) / total
    return influence, {c for c in pseudos if not dead(c)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_cells=14))
def test_long_term_risk_counts_what_whole_layouts_show(position: Position) -> None:
    brute = _brute_risk(position)
    if brute is None:
        return
    influence, pseudos = brute
    analyzer = Analyzer()
    risk = LongTermRisk(analyzer, position, analyzer.analyze(position))
    assert set(risk.pseudos) == pseudos
    for cell, share in influence.items():
        assert risk.influence(cell) == pytest.approx(float(share), abs=1e-12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_cells=14))
def test_the_scan_on_sets_finds_what_the_scan_on_bit_sets_finds(position: Position) -> None:
    """Boards past MASK_CELLS scan trap by trap on sets: the same pseudo 50/50s and tallies."""
    from minesat.guess import longterm

    analyzer = Analyzer()
    analysis = analyzer.analyze(position)
    on_bits = LongTermRisk(analyzer, position, analysis)
    try:
        longterm.MASK_CELLS = 0
        longterm.shapes.cache_clear()
        on_sets = LongTermRisk(analyzer, position, analysis)
    finally:
        longterm.MASK_CELLS = MASK_CELLS
        longterm.shapes.cache_clear()
    assert (on_sets.pseudos, on_sets.trapped, on_sets.enabling) == (
        on_bits.pseudos, on_bits.trapped, on_bits.enabling)


def scan_of(risk: LongTermRisk) -> tuple:
    return risk.pseudos, risk.trapped, risk.enabling


def test_the_scan_skips_only_traps_that_change_nothing() -> None:
    """The scan counts only traps whose probabilities leave room to matter (``_may_count``): it
    finds what counting every trap finds, on the positions of played games of several sizes,
    one Analyzer serving every board, and on the positions one cell away from them."""
    import random

    from minesat.guess import longterm

    shared = Analyzer()
    rnd = random.Random(5)
    skipped = found = 0
    for rows, cols, mines, games in [(9, 9, 10, 10), (16, 16, 40, 5), (16, 30, 99, 5), (8, 30, 40, 3)]:
        for index in range(games):
            seed = game_seed(rows, cols, mines, rule="opening", start=(3, 3), seed=1, index=index)
            game = Game(generate_layout(rows, cols, mines, start=(3, 3), rule="opening", seed=seed))
            game.uncover((3, 3))
            while not game.over:
                position = game.position
                analysis = shared.analyze(position)
                if analysis.layouts:
                    filtered = LongTermRisk(shared, position, analysis)
                    with mock.patch.object(longterm.LongTermRisk, "_may_count", lambda self, trap: True):
                        every = LongTermRisk(Analyzer(), position, analysis)
                    assert scan_of(filtered) == scan_of(every), position.to_rows()
                    skipped += filtered._interior_shares != {}
                    found += bool(filtered.trapped or filtered.pseudos)
                # A round of the player: every proven move, else a random guess.
                for cell in analysis.safe:
                    game.uncover(cell)
                for cell in analysis.mine:
                    game.flag(cell)
                if not (analysis.safe or analysis.mine):  # a lucky guess: the game goes on
                    game.uncover(rnd.choice([c for c in analysis.unknown if c not in game.layout.mines]))
    assert found and skipped  # some scans found traps; the interior's exact shares were used


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.randoms(use_true_random=False))
def test_the_shapes_opened_at_once_are_those_opened_one_by_one(
    rows: int, cols: int, rnd: random.Random
) -> None:
    """The scan opens every shape of a kind at once on padded bit sets (``_open_places``): the
    same shapes, in the same order, as checking each shape's cells and walls in turn."""
    from minesat.guess.longterm import _open_places, _padded, shapes

    unknown = {i for i in range(rows * cols) if rnd.random() < 0.7}
    blocking = {i for i in range(rows * cols) if i not in unknown and rnd.random() < 0.5}
    covered, walled = sum(1 << i for i in unknown), sum(1 << i for i in blocking)
    found = shapes(rows, cols)
    for boxes, masks in ((False, found.pair_masks), (True, found.box_masks)):
        for most in range(4):
            expected = [k for k, (cells, walls) in enumerate(masks) if not cells & ~covered
                        and not walls & walled and (walls & covered).bit_count() <= most]
            assert _open_places(rows, cols, _padded(cols, unknown), _padded(cols, blocking),
                                boxes, most) == expected


def test_a_board_past_the_mask_size_holds_no_board_long_bit_sets() -> None:
    """A 1000x1000 board's traps as bit sets would take terabytes (``simulate`` was killed at
    24 GB): past MASK_CELLS the shapes keep none."""
    from minesat.guess.longterm import shapes

    small, large = shapes(100, 100), shapes(101, 100)
    assert len(small.pair_masks) == len(small.pairs) and len(small.box_masks) == len(small.boxes)
    assert large.pair_masks == () and large.box_masks == () and len(large.pairs) == 101 * 99 + 100 * 100


@pytest.mark.parametrize("name", ["best-no-endgame", "best-no-endgame-no-longterm-with-pseudo"])
def test_a_pseudo_fifty_fifty_is_guessed_first(name: str) -> None:
    # One mine left among 23 cells; were it E1 or E2, nothing could ever tell which
    # (C4 and C5 are mines, the rest is off the board). Every cell is as safe, and
    # only the long-term risk sees that guessing E1 or E2 settles the pair.
    position = Position.from_rows(["?????", "?????", "?????", "??*??", "??*??"], mines=3)
    analysis = analyze(position)
    assert get_strategy(name).choose(position, analysis) in {(4, 0), (4, 1)}
    assert get_strategy("best-no-endgame-no-longterm").choose(position, analysis) == (0, 0)


# --- hunting an opening -----------------------------------------------------------


def test_before_any_opening_an_interior_guess_goes_to_a_corner() -> None:
    # The classic start: A1 shows 1. The look-ahead alone takes A3, two cells along
    # (its number would tell about A2 and B2); hunting takes the corner A30, as safe
    # (every interior cell is) and the likeliest to show 0.
    position = Position.from_rows(["1" + "?" * 29] + ["?" * 30] * 15, mines=99)
    analysis = analyze(position)
    assert get_strategy("best-no-hunt").choose(position, analysis) == (0, 2)
    assert get_strategy("best").choose(position, analysis) == (0, 29)
    assert analysis.probability[0][2] == analysis.probability[0][29]
    # With A30 shown too, the next corner in row-major order.
    position = Position.from_rows(["1" + "?" * 28 + "1"] + ["?" * 30] * 15, mines=99)
    assert get_strategy("best").choose(position, analyze(position)) == (15, 0)


@examples
@given(small_positions(max_cells=16), st.sampled_from([0, 1, 2, 3]))
def test_candidates_are_the_frontier_and_interior_samples_cell_by_cell(
    position: Position, samples: int
) -> None:
    """The candidates read off bit masks are those read cell by cell from the neighbours."""
    analysis = analyze(position)
    if not analysis.unknown or analysis.layouts is None:
        return
    rows, cols = position.rows, position.cols

    def number_beside(cell: Cell) -> bool:
        return any(position[n] >= 0 for n in neighbours(cell, rows, cols))

    def safety(cell: Cell) -> float:
        return 1 - (analysis.probability[cell[0]][cell[1]] or 0.0)

    def order(cell: Cell) -> tuple:
        return (-round(safety(cell), 9), len(list(neighbours(cell, rows, cols))), cell)

    strategy = BestGuess()
    strategy.interior_samples = samples
    frontier = [c for c in analysis.unknown if number_beside(c)]
    interior = [c for c in analysis.unknown if not number_beside(c)]
    floor = max(safety(c) for c in analysis.unknown) * strategy.candidate_share - 1e-9
    expected = [c for c in frontier if safety(c) >= floor]
    if interior and safety(interior[0]) >= floor:
        corner = sorted(interior, key=order)[:samples]
        near = [c for c in interior
                if any(position[n] < 0 and number_beside(n) for n in neighbours(c, rows, cols))]
        expected += corner + [c for c in sorted(near, key=order) if c not in corner][:samples]
    expected.sort(key=order)
    assert strategy.candidates(position, analysis) == expected[: strategy.max_candidates]


@examples
@given(small_positions(max_cells=16))
def test_hunting_never_moves_a_guess_to_a_riskier_cell(position: Position) -> None:
    # On these small positions (no 0 shown where a guess is needed) hunting moves
    # about one guess in three; the cell it moves to is exactly as safe.
    analyzer = Analyzer()
    try:
        analysis = analyzer.analyze(position)
    except InconsistentPositionError:
        return
    if analysis.safe or not analysis.unknown or analysis.layouts is None:
        return  # nothing to guess
    (hr, hc) = get_strategy("best-no-endgame").choose(position, analysis)
    (pr, pc) = get_strategy("best-no-endgame-no-hunt").choose(position, analysis)
    assert analysis.probability[hr][hc] == pytest.approx(analysis.probability[pr][pc], abs=1e-12)


def test_hunting_never_acts_once_the_game_has_an_opening() -> None:
    # Under the opening rule the first click shows 0: the games are move for move the same.
    for index in range(40):
        layout = generate_layout(9, 9, 10, start=(4, 4), rule=FirstClick.OPENING,
                                 seed=game_seed(9, 9, 10, rule="opening", start=(4, 4), seed=5, index=index))
        games = [play_game(layout, (4, 4), strategy=get_strategy(name), rule=FirstClick.OPENING)
                 for name in ("best", "best-no-hunt")]
        assert games[0].moves == games[1].moves
    # On the classic start (expert, safe in a corner) some games do differ: A1 often shows a number.
    differ = 0
    for index in range(30):
        layout = generate_layout(16, 30, 99, start=(0, 0), rule=FirstClick.SAFE,
                                 seed=game_seed(16, 30, 99, rule="safe", start=(0, 0), seed=5, index=index))
        games = [play_game(layout, (0, 0), strategy=get_strategy(name), rule=FirstClick.SAFE)
                 for name in ("best", "best-no-hunt")]
        differ += games[0].moves != games[1].moves
    assert differ > 0


def test_the_endgame_leaves_a_listing_too_large_to_hold_to_the_heuristics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8 layouts of a 1000x1000 board are half a gigabyte of bit sets, past what the player's search
    may hold: the player then guesses as it would without the endgame (it raised, and ``simulate``
    ended in a traceback)."""
    from collections import OrderedDict

    from minesat import budget
    from minesat.analysis import analyze
    from minesat.exact import endgame

    position = Position.from_rows(["???", "?2?", "???"], mines=2)
    # The answers remembered in the process depend on the listing's limit, changed here: a memory of
    # their own, so that none of these answers outlives the test.
    monkeypatch.setattr(endgame, "_answers", OrderedDict())
    monkeypatch.setattr(budget, "MAX_LISTING", 1000)  # the 28 layouts' listing is past it
    assert endgame.endgame_move(position, analyze(position), memo={}) is None
    monkeypatch.setattr(endgame, "_answers", OrderedDict())
    monkeypatch.setattr(budget, "MAX_LISTING", 512_000_000)
    assert endgame.endgame_move(position, analyze(position), memo={}) is not None
