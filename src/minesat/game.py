"""The rules of Minesweeper: uncover (with flood fill), flag, unflag, chord.

>>> game = Game(Layout.from_rows(["*  ", "   ", "   "]))
>>> game.play(Move.parse("C3"))
<MoveResult.SOLVED: 'solved'>
>>> game.position.to_rows()
['?1 ', '11 ', '   ']
>>> game          # print(game) draws the board
Game(3x3/1, won, 8 of 8 cells uncovered)

A game may also start without a layout: it is drawn at the first uncover, so
that the first-click rule can be honoured.

>>> game = Game.new(9, 9, 10, seed=3)
>>> game.play("D4")
<MoveResult.VALID: 'valid'>
>>> game.position[3, 3]
0

A move is a :class:`~minesat.board.Move`, its text (``"D4"``, ``"A5*"``) or a cell
(``(3, 3)``, an uncover). A move the game refuses returns ``INVALID`` or ``REDUNDANT``
and leaves the reason in :attr:`Game.refused`:

>>> game.play("Z99"), game.refused
(<MoveResult.INVALID: 'invalid'>, 'Z99 is off the 9x9 board')
"""

from __future__ import annotations

import copy
import enum

from minesat.board import (
    _DISPLAY,
    COVERED,
    FLAG,
    MAX_SIDE,
    Action,
    Cell,
    Layout,
    Move,
    Position,
    as_cell,
    cell_index,
    cell_name,
    neighbour_table,
    neighbours,
    on_board,
    render_grid,
)
from minesat.errors import InvalidValue
from minesat.generate import FirstClick, check_mine_count, generate_layout

__all__ = ["LEGEND", "Game", "MoveResult", "Status", "as_move", "render_position"]


class MoveResult(enum.Enum):
    INVALID = "invalid"  # off the board, malformed, not allowed now
    REDUNDANT = "redundant"  # changes nothing: already uncovered, already flagged
    BLOWN_UP = "blown up"  # uncovered a mine: the game is lost
    SOLVED = "solved"  # every mine-free cell is uncovered: the game is won
    VALID = "valid"


class Status(enum.Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class Game:
    """A game in progress.

    ``Game(layout)`` plays a known layout; :meth:`Game.new` draws the layout
    from a seed when the first cell is uncovered.
    """

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        rows: int = 0,
        cols: int = 0,
        mines: int = 0,
        rule: FirstClick | str = FirstClick.OPENING,
        seed: int | None = None,
    ) -> None:
        if layout is not None:
            rows, cols, mines = layout.rows, layout.cols, layout.mine_count
        # A layout built in code may be any size (the rules do not care); a layout
        # still to be drawn is capped like every board from outside.
        check_mine_count(rows, cols, mines, limit=None if layout is not None else MAX_SIDE)
        self.rows, self.cols, self.mines = rows, cols, mines
        self.rule = FirstClick(rule)
        self.seed = seed
        self.layout = layout
        self.state: list[int] = [COVERED] * (rows * cols)
        self.status = Status.PLAYING
        self.exploded: Cell | None = None
        #: Why the last move played was refused (``INVALID`` or ``REDUNDANT``); None after one that counted.
        self.refused: str | None = None
        self._to_uncover = rows * cols - mines

    @classmethod
    def new(
        cls,
        rows: int,
        cols: int,
        mines: int,
        *,
        seed: int | None = None,
        rule: FirstClick | str = FirstClick.OPENING,
    ) -> Game:
        """A game whose layout is drawn from ``seed`` at the first uncover."""
        return cls(None, rows=rows, cols=cols, mines=mines, rule=rule, seed=seed)

    def copy(self) -> Game:
        """An independent copy of the game in progress: moves on one leave the other alone.

        The layout is shared (it is immutable); the cell states are copied.

        >>> game = Game(Layout.from_rows(["*  ", "   ", "   "]))
        >>> twin = game.copy()
        >>> twin.play("A2"), game[0, 1] == COVERED
        (<MoveResult.VALID: 'valid'>, True)
        """
        twin = copy.copy(self)
        twin.state = list(self.state)
        return twin

    # --- queries -------------------------------------------------------------

    def __getitem__(self, cell: Cell | str) -> int:
        return self.state[cell_index(cell, self.rows, self.cols)]

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        to_uncover = self.rows * self.cols - self.mines
        return (
            f"Game({self.rows}x{self.cols}/{self.mines}, {self.status.value}, "
            f"{self.uncovered} of {to_uncover} cells uncovered)"
        )

    @property
    def over(self) -> bool:
        return self.status is not Status.PLAYING

    @property
    def uncovered(self) -> int:
        """Number of cells uncovered so far."""
        state = self.state
        return len(state) - state.count(COVERED) - state.count(FLAG)

    @property
    def position(self) -> Position:
        """What the player sees now, with the total mine count.

        A property, as ``status`` and ``over`` are; ``game.position()``, from when it was a
        method, still gives the position (a :class:`~minesat.board.Position` called gives itself).
        """
        return Position(self.rows, self.cols, tuple(self.state), self.mines)

    # --- moves ---------------------------------------------------------------

    def refusal(self, move: Move | str | Cell) -> str | None:
        """Why ``move`` would change nothing (``INVALID`` or ``REDUNDANT``), or None if it would.

        >>> game = Game(Layout.from_rows(["*  ", "   "]))
        >>> game.play("A3"), game.refusal("A1+")
        (<MoveResult.VALID: 'valid'>, 'A1 is not an uncovered number: only numbers can be chorded')
        >>> game.refusal(Move.parse("A2+"))
        'A2 shows 1 and has 0 flagged neighbours: chording needs exactly 1'
        >>> game.refusal("E5"), game.refusal("5E")  # doctest: +ELLIPSIS
        ('E5 is off the 2x3 board', "not a move: not a cell: '5E' (expected ...)")
        """
        try:
            move = as_move(move)
        except InvalidValue as err:
            return f"not a move: {err}"
        cell = move.cell
        if cell[0] < 0 or cell[1] < 0:
            return f"{cell} is off the {self.rows}x{self.cols} board"
        name = cell_name(cell)
        if self.over:
            return f"the game is over ({self.status.value})"
        if not on_board(cell, self.rows, self.cols):
            return f"{name} is off the {self.rows}x{self.cols} board"
        state = self[cell]
        match move.action:
            case Action.UNCOVER:
                if state == FLAG:
                    return f"{name} is flagged: unflag it first ({name}-)"
                if state >= 0:
                    return f"{name} is already uncovered"
            case Action.FLAG:
                if state == FLAG:
                    return f"{name} is already flagged"
                if state >= 0:
                    return f"{name} is uncovered: only covered cells take flags"
            case Action.UNFLAG:
                if state != FLAG:
                    return f"{name} has no flag"
            case Action.CHORD:
                if state < 0:
                    return f"{name} is not an uncovered number: only numbers can be chorded"
                around = list(neighbours(cell, self.rows, self.cols))
                flags = sum(1 for n in around if self[n] == FLAG)
                if flags != state:
                    return (
                        f"{name} shows {state} and has {flags} flagged "
                        f"neighbour{'' if flags == 1 else 's'}: "
                        f"chording needs exactly {state}"
                    )
                if not any(self[n] == COVERED for n in around):
                    return f"{name} has no covered, unflagged neighbour left to uncover"
        return None

    def play(self, move: Move | str | Cell) -> MoveResult:
        """Apply a move: a :class:`Move`, its move notation (``"D4"``, ``"A5*"``) or a cell to uncover.

        A move that changes nothing returns ``INVALID`` or ``REDUNDANT`` and leaves why in
        :attr:`refused`.
        """
        try:
            move = as_move(move)
        except InvalidValue:
            result = MoveResult.INVALID
        else:
            if self.over or not on_board(move.cell, self.rows, self.cols):
                result = MoveResult.INVALID
            else:
                match move.action:
                    case Action.UNCOVER:
                        result = self.uncover(move.cell)
                    case Action.FLAG:
                        result = self.flag(move.cell)
                    case Action.UNFLAG:
                        result = self.unflag(move.cell)
                    case Action.CHORD:
                        result = self.chord(move.cell)
        self.refused = self.refusal(move) if result in _REFUSED else None
        return result

    def uncover(self, cell: Cell) -> MoveResult:
        """Uncover a cell; a zero opens its whole region and that region's border."""
        row, col = cell
        if self.status is not Status.PLAYING or not (0 <= row < self.rows and 0 <= col < self.cols):
            return MoveResult.INVALID
        state = self.state[row * self.cols + col]
        if state >= 0:
            return MoveResult.REDUNDANT
        if state == FLAG:
            return MoveResult.INVALID  # a flag protects its cell: unflag it first
        if self.layout is None:
            self.layout = generate_layout(
                self.rows, self.cols, self.mines, start=cell, rule=self.rule, seed=self.seed
            )
        if cell in self.layout.mines:
            self.status = Status.LOST
            self.exploded = cell
            return MoveResult.BLOWN_UP
        self._flood(cell)
        return self._after_uncover()

    def flag(self, cell: Cell) -> MoveResult:
        if self.over or not on_board(cell, self.rows, self.cols):
            return MoveResult.INVALID
        i = cell[0] * self.cols + cell[1]
        if self.state[i] != COVERED:
            return MoveResult.REDUNDANT  # already flagged, or uncovered
        self.state[i] = FLAG
        return MoveResult.VALID

    def unflag(self, cell: Cell) -> MoveResult:
        if self.over or not on_board(cell, self.rows, self.cols):
            return MoveResult.INVALID
        i = cell[0] * self.cols + cell[1]
        if self.state[i] != FLAG:
            return MoveResult.REDUNDANT
        self.state[i] = COVERED
        return MoveResult.VALID

    def chord(self, cell: Cell) -> MoveResult:
        """Uncover every unflagged covered neighbour of a number whose flags are all placed.

        A wrong flag makes the chord uncover a mine, exactly as in the classic game.
        """
        if self.over or not on_board(cell, self.rows, self.cols):
            return MoveResult.INVALID
        number = self[cell]
        if number < 0:
            return MoveResult.INVALID  # only an uncovered number can be chorded
        around = list(neighbours(cell, self.rows, self.cols))
        if sum(1 for n in around if self[n] == FLAG) != number:
            return MoveResult.INVALID  # the number is not satisfied by flags
        targets = [n for n in around if self[n] == COVERED]
        if not targets:
            return MoveResult.REDUNDANT
        assert self.layout is not None  # a number is uncovered, so the layout exists
        for n in targets:
            if n in self.layout.mines:
                self.status = Status.LOST
                self.exploded = n
                return MoveResult.BLOWN_UP
        for n in targets:
            if self[n] == COVERED:
                self._flood(n)
        return self._after_uncover()

    def _flood(self, cell: Cell) -> None:
        """Uncover ``cell``; if it is a zero, its 8-connected zero region and border.

        Iterative (an explicit stack), so a 2000x2000 empty board cannot hit the
        recursion limit. A cell is uncovered when it is reached and only zeros
        are pushed, so each zero is expanded once and the stack stays small.
        Flags are never uncovered. Most uncovers of a game are of numbers, which
        open themselves alone and return at once.
        """
        assert self.layout is not None
        state, counts = self.state, self.layout.counts
        start = cell[0] * self.cols + cell[1]
        if state[start] != COVERED:
            return
        state[start] = counts[start]
        if counts[start]:
            self._to_uncover -= 1
            return
        table = neighbour_table(self.rows, self.cols)
        opened = 1
        stack = [start]
        while stack:
            for j in table[stack.pop()]:
                if state[j] == COVERED:
                    state[j] = counts[j]
                    opened += 1
                    if not counts[j]:
                        stack.append(j)
        self._to_uncover -= opened

    def _after_uncover(self) -> MoveResult:
        if self._to_uncover == 0:
            self.status = Status.WON
            return MoveResult.SOLVED
        return MoveResult.VALID

    # --- display -------------------------------------------------------------

    def render(self) -> str:
        """The board as a player sees it; after a loss, mines and wrong flags too."""
        reveal = self.status is Status.LOST and self.layout is not None
        mines = self.layout.mines if self.layout is not None else frozenset()

        def char(cell: Cell) -> str:
            s = self[cell]
            if reveal:
                if cell == self.exploded:
                    return "X"
                if s == FLAG and cell not in mines:
                    return "x"  # a wrong flag
                if s == COVERED and cell in mines:
                    return "M"
            return _DISPLAY.get(s, str(s))

        return render_grid(self.rows, self.cols, char)


#: What :func:`render_grid` boards show, for help texts.
LEGEND = "? covered, * flag, blank empty, 1-8 numbers; after a loss: X the mine hit, M mines, x wrong flags"

#: The results of a move that changed nothing.
_REFUSED = (MoveResult.INVALID, MoveResult.REDUNDANT)


def as_move(move: Move | str | Cell) -> Move:
    """A :class:`Move` from itself, its move notation, or a cell (an uncover).

    >>> as_move("A5*"), as_move((0, 4))
    (Move(cell=(0, 4), action=<Action.FLAG: '*'>), Move(cell=(0, 4), action=<Action.UNCOVER: ''>))
    """
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    return Move(as_cell(move, "move"))


def render_position(position: Position) -> str:
    """Draw a position the way :meth:`Game.render` draws a game in progress (its ``str``)."""
    return str(position)
