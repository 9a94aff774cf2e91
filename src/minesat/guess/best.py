"""The strongest guessing strategy minesat has: each idea a named piece that can be switched on or off.

``best`` uses the pieces that measurably win games (:data:`DEFAULT_PIECES`: the
endgame search, unavoidable guesses with chains of 50/50s, the look-ahead, dead
cells and the long-term risk's scan); the others are there for experiments
(``best-with-pseudo``).
When nothing is proven, :class:`BestGuess` asks, in this order:

1. **Endgame search** (:mod:`minesat.exact.endgame`): few layouts left? Then
   play the move perfect play makes, found by the exact search behind
   ``minesat perfect``: the highest chance to *win*, not merely to survive.
2. **Unavoidable guesses** (:mod:`.fifty`): cells (a 50/50 pair, say, or a chain
   of linked 50/50s) that nothing can ever tell apart must be guessed some time;
   guess now, while the number shown can still help. The other pieces pick the
   cell among them.
3. **Look-ahead** (:mod:`.outcomes`): for each cell nearly as safe as the safest,
   the probability of every number it could show and how safe the next move
   would then be. The score is the chance to survive this guess *and* the next
   one: ``sum over numbers n of P(safe, shows n) * next_safety(n)``, where
   ``next_safety`` blends the two safest cells then, a proven safe cell counting
   as safety 1 (so a lone safe cell, which may lead nowhere, is worth less than two).
4. **Dead cells**: a cell that can show only one number teaches nothing; it is
   guessed only when every candidate is dead (later information may still clear
   it for free).
5. **Long-term risk** (:mod:`.longterm`, JSMinesweeper's long-term risk): a
   "pseudo 50/50" (a cell that is safe or a later coin toss) is guessed first,
   and the cells that may still end up in a 50/50 (a pair or 2x2 box walled in
   by mines) are looked ahead at even when a little less safe. JSMinesweeper
   also adds to such a cell's score the chance it does (guessing it now replaces
   a later coin toss): :data:`INFLUENCE_WEIGHT`, 0 in ``best``.
6. **Hunting an opening**: until some cell shows 0 (the ``safe`` first click in a
   corner often shows a number), a guess that goes to the interior (no number
   beside it) goes to the interior cell with fewest covered neighbours, a corner
   first: all interior cells are equally safe, and a corner is the likeliest to
   show 0 and open a region. Without it the look-ahead creeps out from the start
   cell, guess by guess (each safer, but several where a corner needs one),
   as JSMinesweeper does not.
7. **Pseudo 50/50s** alone (:mod:`.longterm`'s scan, without its scores): a cell
   that is safe or a later coin toss is guessed first, after unavoidable guesses.

With every piece off it is the plain safest-cell player. ``BestGuess`` keeps
one :class:`~minesat.analysis.Analyzer` per game (the game loop shares it), so
the many hypothetical positions of a look-ahead re-count only the parts a reveal
touches (:meth:`~minesat.analysis.Analyzer.glance_revealed`), and one position
memo for its endgame searches, which the next search of the game finds again.

>>> p = Position.from_rows(["???", "???", "???"], mines=1)
>>> from minesat.analysis import analyze
>>> BestGuess().choose(p, analyze(p))
(0, 0)
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from dataclasses import dataclass

from minesat.analysis import Analysis, Analyzer, small
from minesat.board import Cell, Position, neighbour_table
from minesat.budget import Budget
from minesat.exact.endgame import ENDGAME_LAYOUTS, ENDGAME_STATES, endgame_limits, endgame_move
from minesat.guess import COIN_TOSS, TIE, mine_probability
from minesat.guess.fifty import unavoidable_guess
from minesat.guess.longterm import LongTermRisk
from minesat.guess.outcomes import each_glance

__all__ = [
    "CANDIDATE_SHARE",
    "DEFAULT_PIECES",
    "ENDGAME_MEMO",
    "INFLUENCE_WEIGHT",
    "INTERIOR_SAMPLES",
    "MAX_CANDIDATES",
    "PIECES",
    "BestGuess",
    "Candidate",
    "best_within",
    "blended_safety",
    "hunting_cell",
    "next_safety",
    "redundant_switches",
    "strategy_named",
]

#: Look ahead at cells whose chance to be safe is at least this share of the best.
CANDIDATE_SHARE = 0.90

#: Most cells looked ahead at per guess (the safest first).
MAX_CANDIDATES = 12

#: Interior cells (next to no number) are interchangeable for safety; this many
#: representatives of each kind are looked at: corners-first and next to the frontier.
INTERIOR_SAMPLES = 2

#: Names of the pieces, as ``best-no-PIECE`` strategy names switch them off.
PIECES = ("endgame", "fifty", "lookahead", "dead", "longterm", "chains", "hunt", "pseudo")

#: Which pieces ``best`` uses. A piece is on only when a paired run of 20 000
#: expert boards showed it helps (docs/strategies.md): the endgame search and the
#: look-ahead did, and unavoidable guesses (on 20 000 fresh boards after a first
#: 20 000 that pointed the same way: 27 games won only with it, 12 only without,
#: McNemar p = 0.024), and then dead cells (19 against 7, p = 0.029; 11 against 4
#: on 20 000 fresh boards), and chains of 50/50s with them (15 against 4, p = 0.019, then
#: 13 against 8 on 20 000 fresh boards; 28 against 12 in all, p = 0.017), and the
#: long-term risk's scan, its score weight 0 (36 against 24 on 20 000 boards, then
#: 109 against 63 on 60 000 fresh ones, p = 0.00056), and hunting an opening (classic
#: start, safe at 0,0; docs/strategies.md).
DEFAULT_PIECES = {
    "endgame": True,
    "fifty": True,
    "lookahead": True,
    "dead": True,
    "longterm": True,
    "chains": True,
    "hunt": True,
    "pseudo": False,
}

#: Most positions the endgame searches of one strategy remember (an expert game's need a few thousand).
ENDGAME_MEMO = 50_000

#: How much a cell's chance of heading off a later 50/50 adds to its score. JSMinesweeper's
#: 0.9 won no more games than 0 (docs/strategies.md), which also spares computing it.
INFLUENCE_WEIGHT = 0.0


@dataclass(frozen=True)
class Candidate:
    """A cell considered for a guess, with what the look-ahead found."""

    cell: Cell
    safety: float  # chance the cell is safe
    score: float  # chance to survive it and the next move
    dead: bool  # it can show only one number


def _safety(analysis: Analysis, cell: Cell) -> float:
    return 1.0 - mine_probability(analysis, cell)


def next_safety(analysis: Analysis) -> float:
    """How safe the next move is after a reveal: ``(4 * best + second) / 5`` over the two safest cells.

    A proven safe cell counts as safety 1, so two of them give 1 but a lone one
    gives ``(4 + s) / 5``, ``s`` the safety of the best unproven cell: one safe
    cell may show a number that proves nothing, and the guess is only put off.
    Scoring a lone safe cell as 1 (as minesat did before) won 118 games where
    this won 154, over 20 000 paired expert boards (McNemar p = 0.034).
    JSMinesweeper's "blended safety" is the same blend.

    >>> from minesat.analysis import analyze
    >>> one_safe = analyze(Position.from_rows(["122?", "????"], mines=3))
    >>> one_safe.safe, one_safe.unknown          # B2 proven safe; A4 and B4 a 50/50
    (((1, 1),), ((0, 3), (1, 3)))
    >>> next_safety(one_safe)                    # (4 * 1 + 0.5) / 5
    0.9
    """
    grid = analysis.probability
    probabilities = sorted(p for r, c in analysis.unknown if (p := grid[r][c]) is not None)
    return blended_safety(len(analysis.safe), probabilities)


def blended_safety(safe: int, lowest: Sequence[float]) -> float:
    """:func:`next_safety` from the number of safe cells and the lowest mine probabilities, ascending.

    >>> blended_safety(1, [0.5, 0.6])
    0.9
    """
    if safe >= 2:
        return 1.0
    safeties = [1.0] * safe + [1.0 - p for p in lowest[: 2 - safe]]
    if not safeties:
        return 1.0  # nothing left to guess: the reveal won the game
    best = safeties[0]
    second = safeties[1] if len(safeties) > 1 else best
    return (4 * best + second) / 5


class BestGuess:
    """Endgame search, unavoidable 50/50s, look-ahead and dead cells; see the module docstring.

    ``searches_cut`` counts endgame searches that ran out of budget (the move
    then came from the other pieces).
    """

    name = "best"  # with other pieces than DEFAULT_PIECES, strategy_named gives it its own name

    def __init__(
        self,
        *,
        endgame: bool = DEFAULT_PIECES["endgame"],
        fifty: bool = DEFAULT_PIECES["fifty"],
        lookahead: bool = DEFAULT_PIECES["lookahead"],
        dead: bool = DEFAULT_PIECES["dead"],
        longterm: bool = DEFAULT_PIECES["longterm"],
        chains: bool = DEFAULT_PIECES["chains"],
        hunt: bool = DEFAULT_PIECES["hunt"],
        pseudo: bool = DEFAULT_PIECES["pseudo"],
    ) -> None:
        self.endgame = endgame
        self.fifty = fifty
        self.lookahead = lookahead
        self.dead = dead
        self.longterm = longterm
        self.chains = chains
        self.hunt = hunt
        self.pseudo = pseudo
        self.influence_weight = INFLUENCE_WEIGHT
        #: ``(layouts, states)`` at which exact play takes over, when set; else by the board's size
        #: (:func:`~minesat.exact.endgame.endgame_limits`).
        self.endgame_limits: tuple[int, int | None] | None = None
        self.candidate_share = CANDIDATE_SHARE
        self.max_candidates = MAX_CANDIDATES
        self.interior_samples = INTERIOR_SAMPLES
        self.analyzer = Analyzer()
        self.searches_cut = 0
        # The endgame searches' position memo, per board and mine count (values hold for every
        # search over them): a game's next search finds the states its last one searched.
        self._endgame_memos: dict[tuple[int, int, int | None], dict[bytes, int]] = {}

    def _endgame_memo(self, position: Position) -> dict[bytes, int]:
        memo = self._endgame_memos.setdefault((position.rows, position.cols, position.mines), {})
        if len(memo) > ENDGAME_MEMO:
            memo.clear()  # a strategy kept for many games: start afresh rather than grow
        return memo

    def choose(self, position: Position, analysis: Analysis) -> Cell:
        layouts, states = self.endgame_limits or endgame_limits(position.rows, position.cols)
        if self.endgame and analysis.layouts is not None and analysis.layouts <= layouts:
            move = endgame_move(position, analysis, limit=layouts, budget=Budget(max_states=states),
                                memo=self._endgame_memo(position))
            if move is not None:
                return move.cell
            self.searches_cut += 1
        hunting = False  # whether the choice may go to a corner instead (only a free choice may)
        group = unavoidable_guess(position, analysis, chains=self.chains) if self.fifty else None
        # The long-term scan only when its answers are used: after an unavoidable guess only its
        # influence scores are (none at weight 0).
        wanted = group is None or (self.longterm and self.influence_weight)
        scan = wanted and (self.longterm or self.pseudo) and analysis.layouts
        risk = LongTermRisk(self.analyzer, position, analysis) if scan else None
        longterm = risk if self.longterm else None  # the pseudo piece uses only its pseudo 50/50s
        if group is not None:
            candidates = list(group)  # one of them must be guessed some day: now, the best of them
        elif risk is not None and risk.pseudos:
            candidates = list(risk.pseudos)  # each is safe or a later coin toss: now, the best of them
        else:
            candidates = self.candidates(position, analysis, longterm.scanned() if longterm else None)
            hunting = self.hunt and 0 not in position.cells
        influence: dict[Cell, float] = {}
        if longterm is not None and self.influence_weight:  # at weight 0 the scores leave it out
            influence = {cell: longterm.influence(cell) for cell in candidates}
        if not (self.lookahead or self.dead or influence) or analysis.layouts is None:
            cell = candidates[0]
        else:
            cell = self.rank(position, analysis, candidates, influence)[0].cell
        return hunting_cell(position, analysis, cell) if hunting else cell

    # --- the pieces ---------------------------------------------------------------

    def candidates(
        self, position: Position, analysis: Analysis, influence: dict[Cell, float] | None = None
    ) -> list[Cell]:
        """Cells worth a look, safest first; ties to fewer neighbours, then row-major.

        A cell that may head off a 50/50 counts its ``influence`` as extra safety here.
        """
        influence = influence or {}
        rows, cols = position.rows, position.cols
        table = neighbour_table(rows, cols)
        geometry = small.Geometry.of(rows, cols)
        numbers = small.shown(position)
        beside = geometry.near(numbers) & ~numbers  # covered (or flagged) cells next to a number
        frontier: list[Cell] = []
        interior: list[Cell] = []
        is_beside = _bits(beside, rows * cols)
        grid = analysis.probability
        safety: dict[Cell, float] = {}  # each undecided cell's, as _safety gives it, read once
        for r, c in analysis.unknown:
            (frontier if is_beside[r * cols + c] == "1" else interior).append((r, c))
            p = grid[r][c]
            safety[r, c] = 1.0 - (COIN_TOSS if p is None else p)  # as mine_probability reads it
        safest = max(safety.values())
        floor = safest * self.candidate_share - TIE if self.lookahead else safest - TIE

        def order(cell: Cell) -> tuple[float, int, Cell]:
            return (-round(safety[cell], 9), len(table[cell[0] * cols + cell[1]]), cell)

        chosen = [cell for cell in frontier if safety[cell] + influence.get(cell, 0.0) >= floor]
        if interior and safety[interior[0]] >= floor:
            # Interior cells share one probability; a few stand for them all: those
            # with fewest neighbours (likeliest to open a region) and those next to
            # the frontier (likeliest to inform it).
            by_corner = heapq.nsmallest(self.interior_samples, interior, key=order)  # sorted()[:n]
            next_to_beside = geometry.near(beside)  # an interior cell in it has a neighbour beside a number
            is_near = _bits(next_to_beside, rows * cols)
            near = [cell for cell in interior if is_near[_index(cell, cols)] == "1"]
            near = [c for c in sorted(near, key=order) if c not in by_corner]
            chosen += by_corner + near[: self.interior_samples]
        if influence:
            chosen += [cell for cell in interior if influence.get(cell) and cell not in chosen
                       and safety[cell] + influence[cell] >= floor]
        chosen.sort(key=order)
        return chosen[: self.max_candidates] if self.lookahead else chosen

    def rank(
        self,
        position: Position,
        analysis: Analysis,
        cells: list[Cell],
        influence: dict[Cell, float] | None = None,
        *,
        prune: bool = True,
    ) -> list[Candidate]:
        """Score the candidates, best first: live before dead (when on), then score, then safety.

        A candidate whose safety is no more than the best score so far cannot beat it
        and is not scored (score 0). With ``prune`` a candidate is also left as soon as
        the numbers it has still to show cannot lift it past the best: its score is then
        an upper bound. Either way the first is the same and its score exact;
        ``prune=False`` gives the others' scores exactly (for reports).
        """
        layouts = analysis.layouts
        assert layouts is not None
        influence = influence or {}
        scored: list[Candidate] = []
        best: Candidate | None = None
        for cell in cells:
            safety = _safety(analysis, cell)
            # Heading off a later 50/50: a cell likely to end up in one is worth more
            # now than its safety says (it would be a coin toss later).
            bonus = 1.0 + self.influence_weight * influence.get(cell, 0.0) / safety if safety > 0 else 1.0
            beatable = best is not None and not (self.dead and best.dead)
            if beatable and best is not None and safety * bonus <= best.score:
                # Its score cannot exceed its safety: it cannot beat the best.
                scored.append(Candidate(cell, safety, 0.0, False))
                continue
            # Without the look-ahead only deadness is used; the score is plain safety.
            score, seen = 0.0, 0.0
            numbers: list[int] = []  # the numbers it can show, so far
            for outcome in each_glance(self.analyzer, position, cell, layouts):
                numbers.append(outcome.value)
                seen += outcome.probability
                if self.lookahead:
                    score += outcome.probability * blended_safety(outcome.glance.safe, outcome.glance.lowest)
                # Pruning: each number still unseen adds at most its probability (a next move
                # of safety 1), so once even that cannot reach the best, stop. Exact: the cell
                # could not have been chosen (it loses on score, dead or alive, unless the best
                # is dead and dead cells go last). Its score is then that upper bound.
                if prune and beatable and self.lookahead and best is not None and (
                    (score + (safety - seen)) * bonus < best.score - TIE
                ):
                    scored.append(Candidate(cell, safety, (score + safety - seen) * bonus, False))
                    break
            else:
                score = (score if self.lookahead else safety) * bonus
                candidate = Candidate(cell, safety, score, len(numbers) == 1)  # dead: one number
                scored.append(candidate)
                if best is None or self._key(candidate) < self._key(best):
                    best = candidate
        scored.sort(key=self._key)
        return scored

    def _key(self, c: Candidate) -> tuple[bool, float, float, Cell]:
        return (self.dead and c.dead, -round(c.score, 9), -round(c.safety, 9), c.cell)


def best_within(layouts: int = ENDGAME_LAYOUTS, states: int | None = ENDGAME_STATES) -> BestGuess:
    """``best`` with its exact play held to ``layouts`` layouts and ``states`` states on every board.

    For one move while a person waits (the web app's hint, a replay's review): by default
    the limits ``best`` has on large boards, since on boards of up to 6x6 the player itself
    searches up to 70 000 layouts, half a minute for some early guesses, which is a price
    for playing whole games.

    >>> best_within().endgame_limits, best_within(500, None).endgame_limits
    ((2000, 100000), (500, None))
    """
    strategy = BestGuess()
    strategy.endgame_limits = (layouts, states)
    return strategy


def hunting_cell(position: Position, analysis: Analysis, cell: Cell) -> Cell:
    """Where a guess at ``cell`` goes while no cell shows 0: a corner, if ``cell`` is in the interior.

    Cells next to no number (the interior) all have the same chance to be safe; the
    one with fewest covered neighbours (ties to the first in row-major order) is the
    likeliest to show 0 and open a region. A guess next to a number stays where it is.

    >>> from minesat.analysis import analyze
    >>> p = Position.from_rows(["1?????", "??????", "??????", "??????"], mines=5)
    >>> hunting_cell(p, analyze(p), (0, 2)), hunting_cell(p, analyze(p), (1, 1))
    ((0, 5), (1, 1))
    """
    cols = position.cols
    table = neighbour_table(position.rows, cols)
    cells = position.cells
    if _touches_number(cells, table, _index(cell, cols)):
        return cell
    interior = [
        (sum(cells[j] < 0 for j in table[_index(c, cols)]), c)
        for c in analysis.unknown if not _touches_number(cells, table, _index(c, cols))
    ]
    return min(interior)[1] if interior else cell


def _index(cell: Cell, cols: int) -> int:
    return cell[0] * cols + cell[1]


def _bits(mask: int, cells: int) -> str:
    """``mask`` as a string of ``"0"`` and ``"1"``, character ``i`` its bit ``i``: one pass, where
    ``mask >> i & 1`` for every cell copies the board-long int each time (quadratic: minutes a
    guess on 1000x1000).

    >>> _bits(0b110, 4)
    '0110'
    """
    return format(mask, f"0{cells}b")[::-1]


def _touches_number(cells: tuple[int, ...], table: tuple[tuple[int, ...], ...], j: int) -> bool:
    return any(cells[k] >= 0 for k in table[j])


#: A piece switch in a strategy name: ``-no-PIECE`` or ``-with-PIECE``.
_SWITCH = re.compile(r"-(no|with)-([a-z]+)")


def redundant_switches(name: str) -> list[str]:
    """What a ``best-...`` name switches to the way ``best`` already has it, said in words.

    >>> redundant_switches("best-with-fifty-no-pseudo")
    ['fifty is already on in best', 'pseudo is already off in best']
    """
    if not name.startswith("best-"):
        return []
    switches = set(_SWITCH.findall(name))
    return [
        f"{piece} is already {'on' if on else 'off'} in best"
        for piece, on in DEFAULT_PIECES.items()
        if ("with" if on else "no", piece) in switches
    ]


def strategy_named(name: str) -> BestGuess | None:
    """``best`` with pieces switched off (``-no-PIECE``) or on (``-with-PIECE``); ``None`` for other names.

    >>> s = strategy_named("best-no-endgame-with-pseudo")
    >>> s.endgame, s.pseudo, s.lookahead, s.name
    (False, True, True, 'best-no-endgame-with-pseudo')
    >>> strategy_named("best-with-lookahead") is None   # already on: a name says what it changes
    True
    """
    if name != "best" and not name.startswith(("best-no-", "best-with-")):
        return None
    settings: dict[str, bool] = {}
    for part in _SWITCH.findall(name[len("best"):]):
        switch, piece = part
        if piece not in PIECES or piece in settings or DEFAULT_PIECES[piece] == (switch == "with"):
            return None
        settings[piece] = switch == "with"
    if "best" + "".join(f"-{'with' if on else 'no'}-{p}" for p, on in settings.items()) != name:
        return None  # stray text between the switches
    strategy = BestGuess(**settings)
    strategy.name = name
    return strategy
