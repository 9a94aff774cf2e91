"""The exact game-tree search: how many layouts a perfect player wins from a position.

A *state* is what the player has seen, and with it the set ``S`` of layouts
still possible (every one of them equally likely). Its value ``W(S)`` is the
number of layouts of ``S`` a perfect player wins:

- ``W(S) = 1`` when ``S`` holds one layout (every safe cell is then known);
- **free cells first**: when some covered cells are safe in every layout of
  ``S``, they are all uncovered at once, and ``W(S)`` is the sum of ``W`` over
  the parts of ``S`` that agree on the numbers they show (uncovering a proven
  safe cell never lowers the value: docs/perfect.md proves it);
- otherwise ``W(S)`` is the best, over covered cells ``c``, of the sum over
  the numbers ``c`` can show of ``W`` of the layouts where it shows it; the
  layouts where ``c`` is a mine are lost.

A click reveals only its own number here: the cascade of a zero is the free
cells of the next state. Five things make the search tractable, none of which
changes the answer (docs/perfect.md has the proofs):

1. **Dead cells are never clicked first.** A cell that shows the same number
   in every layout where it is safe teaches nothing; some other cell is always
   as good, and when every cell is dead exactly one layout can be won.
2. **Threshold search.** Every state is asked "more than ``lo``?": the exact
   value when it is, and only an upper bound when it is not; a candidate move
   is given up as soon as what its outcomes can still add cannot beat the best
   move found.
3. **Bounds.** ``W(S) <= |S|``; a move wins at most the layouts where it is
   safe; and, much tighter, two layouts that no cell safe in both can tell
   apart are never both won, so ``W(S)`` is at most the number of groups in
   any split of ``S`` into groups of mutually indistinguishable layouts
   (:meth:`~minesat.exact.alike.Alike.cover` builds one greedily).
4. **Memoisation** on the position seen, the same for every mirror image of
   it (:meth:`~minesat.exact.geometry.Board.canonical`); on what still
   matters of it (:meth:`PerfectSearch._key_and_scan`: the cells some layouts
   mine and others not, and the numbers around them less the known mines),
   which joins states reached by different guesses; and of the sets of
   layouts within one list of layouts. When the position is symmetric, one
   move of each class of equivalent moves is tried.
5. **Bit sets.** Layouts are listed once (:class:`Universe`); a set of
   layouts is a Python int, so "the layouts where ``c`` is safe and shows
   ``n``" is one ``&``. A small set is moved to its own short list, so that
   deep in the tree the ints stay small.

>>> from minesat.exact.geometry import Board, layouts_matrix
>>> board = Board(2, 3)                     # 2x3, one mine, nothing seen yet: 6 layouts
>>> search = PerfectSearch(board)
>>> universe = Universe(layouts_matrix(board, range(6), 1), range(6))
>>> search.win_count(bytes([COVERED] * 6), universe, universe.everything)   # a corner first
3
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Generator, Iterable
from functools import partial
from typing import Any, TypeVar, cast

import numpy as np

from minesat.budget import checkpoint
from minesat.errors import OverBudget
from minesat.exact.alike import LOCAL_SIZE, Alike, NoTable, SparseAlike, tabulate
from minesat.exact.geometry import COVERED, MINE, Board

__all__ = [
    "COMPACT_MIN",
    "COMPACT_RATIO",
    "LATE_ALIKE",
    "PATIENCE",
    "PROGRESS_EVERY",
    "ROOT_ALIKE",
    "Ask",
    "OutOfBudget",
    "PerfectSearch",
    "Universe",
    "drive",
    "members",
    "root_alike",
]

#: A root list of layouts at most this long works out which of them can be told apart
#: (:attr:`Universe.alike`) when it is made, in a second or two.
ROOT_ALIKE = 65_536

#: A list longer than :data:`ROOT_ALIKE` (or a sub-list longer than
#: :data:`~minesat.exact.alike.LOCAL_SIZE` of a list without them), up to this, works
#: out its look-alikes (about half a minute for 1.6 million layouts) once the search has
#: spent ``size // PATIENCE`` states on it without them: an easy game (6x6 with 6 mines
#: under ``opening``, 6 754 states) never pays for it, a hard one soon has the bound.
#: A longer list leaves it to its sub-lists.
LATE_ALIKE = 2_000_000
PATIENCE = 32

#: A state whose layouts are fewer than ``1 / COMPACT_RATIO`` of its list (a list
#: of more than :data:`COMPACT_MIN` layouts) gets its own list: its bit sets shrink.
COMPACT_RATIO = 4
COMPACT_MIN = 4096

#: At most this many bytes of a list's matrix (and of comparisons with it) are read at once
#: when its columns are made.
_COLUMNS_BLOCK = 1 << 24

#: Past this many parts (the outcomes of uncovering a state's free cells), the budgets are
#: checked as each is split further and as each is valued: thousands of them on a long list, each
#: a bit set as long as the list, and settled from the memo without counting a state.
_MANY_PARTS = 16

#: How many layouts' mines :meth:`Universe.layout_mines` packs at once.
_MINES_BLOCK = 64

#: How many states pass between two calls of the progress callback.
PROGRESS_EVERY = 4096


def root_alike() -> int:
    """:data:`ROOT_ALIKE`, read when called (tests lower it to reach the untabled road)."""
    return ROOT_ALIKE


_BYTE = [bytes((v,)) for v in range(256)]

#: In a reduced memo key (:meth:`PerfectSearch._key_and_scan`): a cell that no longer
#: matters, and a covered safe cell whose number is still to learn.
_BLANK = 12
_TO_LEARN = 13


class OutOfBudget(OverBudget):
    """The search evaluated more states than it was allowed (``states``, the limit)."""

    what = "states"
    parameter = "max_states"

    def __init__(self, states: int, spent: int | None = None) -> None:
        super().__init__(f"more than {states} states", spent, states)
        self.states = states


def drive(root: Generator[Any, Any, R], expand: Callable[..., Generator[Any, Any, Any]]) -> R:
    """Run the walk ``root`` with a stack of its own instead of Python's: each time a walk
    yields a child (a tuple of arguments), ``expand(*child)`` is walked to its end first and its
    value sent back. A game as long as the board then needs no recursion as deep as the board.

    >>> def count(n):                       # the length of a chain, as a walk
    ...     return (1 + (yield (n - 1,))) if n else 0
    >>> drive(count(5000), count)
    5000
    """
    stack: list[Generator[Any, Any, Any]] = [root]
    value: Any = None
    while True:
        try:
            child = stack[-1].send(value)
        except StopIteration as done:
            stack.pop()
            if not stack:
                return done.value
            value = done.value
            continue
        stack.append(expand(*child))
        value = None


def members(subset: int, size: int) -> np.ndarray:
    """The indices of the set bits of ``subset`` (``size`` bits), ascending.

    >>> members(0b1011, 4).tolist()
    [0, 1, 3]
    """
    raw = np.frombuffer(subset.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")[:size])


class Universe:
    """A list of layouts (rows of a matrix) and, per covered cell, bit sets over it.

    ``columns`` holds, for each of the given cells that not all layouts agree
    on, ``(cell, mined, shows)``: the layouts where the cell is a mine, and
    ``(number, layouts)`` pairs for the numbers it shows in the others.
    ``alike`` is the table of look-alike layouts (:mod:`minesat.exact.alike`), or
    ``None`` while not worked out (:meth:`tabulate`). ``memo`` remembers the
    values of sets of layouts of this list.
    """

    __slots__ = ("_mine_rows", "alike", "columns", "everything", "matrix", "memo", "mines", "size")

    def __init__(
        self,
        matrix: np.ndarray,
        cells: Iterable[int],
        alike: Alike | SparseAlike | NoTable | None = None,
        *,
        tabulate: bool = True,
    ) -> None:
        self.matrix = matrix
        self.size = size = len(matrix)
        self.everything = (1 << size) - 1
        self.memo: dict[int, int] = {}
        #: Each layout's mines as a bit set of cells, made when first asked (the reduced memo keys).
        self.mines: dict[int, int] = {}
        self._mine_rows: dict[int, bytes] = {}  # blocks of layouts' mines, packed (layout_mines)
        self.columns: list[tuple[int, int, tuple[tuple[int, int], ...]]] = _columns(matrix, list(cells))
        self.alike: Alike | SparseAlike | NoTable | None = alike
        if tabulate:
            self.tabulate()

    def layout_mines(self, k: int) -> int:
        """Layout ``k``'s mines as a bit set of cells (:attr:`mines`), packed with ``numpy``
        :data:`_MINES_BLOCK` layouts at a time: a search asks for many layouts of a list.

        >>> universe = Universe(np.array([[9, 1], [1, 9]], dtype=np.uint8), [0, 1])
        >>> universe.layout_mines(0), universe.layout_mines(1)
        (1, 2)
        """
        mines = self.mines.get(k)
        if mines is None:
            block, at = divmod(k, _MINES_BLOCK)
            width = (self.matrix.shape[1] + 7) // 8
            raw = self._mine_rows.get(block)
            if raw is None:
                rows = self.matrix[block * _MINES_BLOCK:(block + 1) * _MINES_BLOCK]
                raw = self._mine_rows[block] = np.packbits(rows == MINE, axis=1, bitorder="little").tobytes()
            mines = self.mines[k] = int.from_bytes(raw[at * width:(at + 1) * width], "little")
        return mines

    def tabulate(self) -> None:
        """Work out which layouts no cell tells apart (:attr:`alike`), if not done yet."""
        if self.alike is None:
            self.alike = tabulate(self.matrix, [c for c, _, _ in self.columns])

    def sub(self, subset: int, cells: Iterable[int]) -> tuple[Universe, int]:
        """A universe of the layouts in ``subset`` alone, and the set of all of them in it."""
        index = members(subset, self.size)
        cells = list(cells)
        # Its rows, and about three bit sets over them per cell: checked before they are made.
        checkpoint(more=len(index) * (self.matrix.shape[1] + 3 * len(cells) // 8))
        alike = None
        if self.alike is not None:
            alike = self.alike.restrict(subset, index)
        part = Universe(self.matrix[index], cells, alike, tabulate=len(index) <= LOCAL_SIZE)
        return part, part.everything


def _packed_bits(raw: bytes, width: int, j: int, v: int) -> int:
    """Cell ``j``'s layouts showing value ``v``, as a bit set, from every value packed at once."""
    at = (j * (MINE + 1) + v) * width
    return int.from_bytes(raw[at:at + width], "little")


def _shown_bits(shown: list[dict[int, int]], j: int, v: int) -> int:
    """Cell ``j``'s layouts showing value ``v``, as a bit set, from the values it shows."""
    return shown[j][v]


def _columns(matrix: np.ndarray, cells: list[int]) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
    """:attr:`Universe.columns`: per cell not all layouts agree on, its mines and numbers as bit sets.

    Each value's rows are packed into bytes by ``numpy`` for many cells at
    once; only turning them into ints is done cell by cell. A short list
    compares every cell with every value at once; a long one is read a slab
    of cells at a time (:data:`_COLUMNS_BLOCK` bytes), compared with one value
    after another, so that no comparison is larger than the slab.
    """
    size = len(matrix)
    width = (size + 7) // 8
    slab = max(1, _COLUMNS_BLOCK // max(size, 1))  # cells whose column fits in the slab
    columns = []
    for start in range(0, len(cells), slab):
        chunk = cells[start:start + slab]
        checkpoint(more=2 * len(chunk) * size)
        read = np.ascontiguousarray(matrix[:, chunk].T)  # cell, layout: one pass over the rows
        present: list[list[bool]]
        if len(chunk) * (MINE + 1) * size <= _COLUMNS_BLOCK:  # every value at once
            equal = read[:, None, :] == np.arange(MINE + 1, dtype=matrix.dtype)[None, :, None]
            packed = np.packbits(equal, axis=2, bitorder="little")  # cell, value, layout bytes
            present = cast("list[list[bool]]", packed.any(axis=2).tolist())  # numpy types it loosely
            bits = partial(_packed_bits, packed.tobytes(), width)
        else:  # one value at a time, each cell's bit set kept only where the value is shown
            shown: list[dict[int, int]] = [{} for _ in chunk]
            for v in range(MINE + 1):
                checkpoint()
                packed = np.packbits(read == v, axis=1, bitorder="little")  # cell, layout bytes
                raw = packed.tobytes()
                for j in np.flatnonzero(packed.any(axis=1)).tolist():
                    shown[j][v] = int.from_bytes(raw[j * width:(j + 1) * width], "little")
            present = [[v in found for v in range(MINE + 1)] for found in shown]
            bits = partial(_shown_bits, shown)
        for j, values_here in enumerate(present):
            if values_here.count(True) < 2:
                continue  # every layout agrees on the cell
            sets = {v: bits(j, v) for v, here in enumerate(values_here) if here}
            mined = sets.pop(MINE, 0)
            columns.append((chunk[j], mined, tuple(sets.items())))
    return columns


#: What a part of a move carries beside its layouts: the number shown, or the position it leads to.
T = TypeVar("T", int, bytes)

#: What a search asks :meth:`PerfectSearch._drive` to value: a child state that
#: :meth:`PerfectSearch._settled` could not settle, as it hands it to :meth:`PerfectSearch._state`.
Ask = tuple[Any, ...]

#: What a walk of :meth:`PerfectSearch._drive` gives back.
R = TypeVar("R")


def _with_covers(
    alike: Alike | SparseAlike | NoTable | None, parts: list[tuple[int, int, T]]
) -> list[tuple[int, int, int, T]]:
    """Each ``(size, layouts, what)`` part with an upper bound on its value put first: its
    look-alike cover (1 for a single layout), or its size where the list has no table."""
    if alike is None:
        return [(size, size, p, x) for size, p, x in parts]
    return [(alike.cover(p) if size > 1 else 1, size, p, x) for size, p, x in parts]


class _Moves:
    """The live moves of a state, handed out best bound first; each bound is worked out only when needed.

    A move's bound is the sum of the look-alike covers of its outcomes
    (:meth:`~minesat.exact.alike.Alike.cover`), at most the layouts where it
    is safe. Most moves of a state are never tried: the search stops at the
    first move whose bound cannot beat the best value found, and the bounds
    come in falling order. So a move waits in a heap under its safe count, its
    covers are counted when it reaches the top, and it goes back under its
    bound. The moves come out in the order of ``(-bound, -safe count, cell)``
    exactly as if every bound were counted first, since a move's safe count is
    at least its bound. A move's outcomes (``subset`` split by the number it shows) are made
    only then too: a state deep in a long game keeps no bit sets for the moves it never tries.
    """

    __slots__ = ("alike", "heap", "subset")

    def __init__(self, live: list[tuple[int, int, tuple[tuple[int, int], ...]]],
                 alike: Alike | SparseAlike | NoTable | None, subset: int) -> None:
        self.alike = alike
        self.subset = subset
        # (-bound so far, -safe count, cell, counted, the cell's numbers or the outcomes): a cell is
        # in the heap once, so no two entries compare beyond it.
        self.heap: list[tuple[int, int, int, bool, Any]] = [(-s, -s, c, False, shows) for s, c, shows in live]
        heapq.heapify(self.heap)

    def __bool__(self) -> bool:
        return bool(self.heap)

    def next(self) -> tuple[int, int, list[tuple[int, int, int, int]]]:
        """The move with the highest bound left: its bound, cell and ``(cover, size, layouts, number)``s."""
        heap = self.heap
        while True:
            key, minus_s, c, counted, outcomes = heapq.heappop(heap)
            if counted:
                return -key, c, outcomes
            subset = self.subset
            parts = [(p.bit_count(), p, v) for v, mask in outcomes if (p := subset & mask)]
            bounded = _with_covers(self.alike, parts)
            heapq.heappush(heap, (-sum(b[0] for b in bounded), minus_s, c, True, bounded))


class PerfectSearch:
    """The search over one board and mine count, with its memo (shared by every start and rule).

    The value of a position depends on the position alone: the layouts a
    first-click rule allows are exactly those consistent with what the first
    click revealed (the start is uncovered; with ``opening`` it shows 0), so
    the memo is good for every start and rule on the board.
    """

    def __init__(
        self,
        board: Board,
        *,
        max_states: int | None = None,
        progress: Callable[[int], None] | None = None,
        symmetric: bool = True,
        memo: dict[bytes, int] | None = None,
    ) -> None:
        self.board = board
        self.max_states = max_states
        self.progress = progress
        self.symmetric = symmetric
        # Canonical position -> value << 1 | (1 if exact). A value holds for every search over
        # the board and mine count: ``memo`` may come from an earlier one (with ``symmetric`` alike).
        self.memo: dict[bytes, int] = memo if memo is not None else {}
        self.states = 0  # states searched (memo hits and bounds that settle a state do not count)
        # Long lists without their look-alikes, and the state count at which to work them out.
        self._late: list[tuple[Universe, int]] = []

    # --- the public questions -------------------------------------------------------

    def win_count(self, position: bytes, universe: Universe, subset: int) -> int:
        """``W``: how many layouts of ``subset`` a perfect player wins from ``position``.

        ``subset`` must be exactly the layouts of ``universe`` consistent with ``position``.
        """
        self._expect(universe, root=True)
        found = self._settled(position, universe, subset, -1, None)
        if isinstance(found, int):
            return found
        return self._drive(self._state(*found))

    def move_wins(
        self, position: bytes, universe: Universe, subset: int, cell: int, at_least: int = 0
    ) -> int:
        """How many layouts uncovering ``cell`` first and then playing perfectly wins.

        Exact when the answer is at least ``at_least``; otherwise some number below ``at_least``.
        """
        parts = []
        for c, _, shows in universe.columns:
            if c == cell:
                for v, mask in shows:
                    if p := subset & mask:
                        parts.append((p.bit_count(), p, position[:c] + _BYTE[v] + position[c + 1:]))
                break
        else:
            # A cell every layout agrees on: safe and showing one number (or a mine in all).
            if subset and universe.matrix[members(subset, universe.size)[0], cell] == MINE:
                return 0
            value = int(universe.matrix[members(subset, universe.size)[0], cell])
            parts = [(subset.bit_count(), subset, position[:cell] + _BYTE[value] + position[cell + 1:])]
        self._expect(universe, root=True)
        bounded = self._bounded(universe, parts)
        total, _ = self._drive(self._chance(bounded, universe, at_least - 1))
        return total

    # --- the recursion, as a walk with its own stack -------------------------------------
    #
    # A state's search asks for the values of its children: written as generators, each
    # ``yield`` hands :meth:`_drive` a child to search (an :data:`Ask`: one :meth:`_settled`
    # could not settle at once) and gets back its value.
    # The driver keeps the searches under way on a list of its own, so a game as long as the
    # board (a row of a thousand cells) needs no deeper Python recursion than a short one;
    # the states are searched in the same order, with the same counts, as by plain calls.

    def _drive(self, root: Generator[Ask, int, R]) -> R:
        """Run ``root`` and every search it asks for, each child before its parent goes on."""
        return drive(root, self._state)

    def _expect(self, universe: Universe, *, root: bool = False) -> None:
        """Plan the look-alikes of a long list without them (:data:`LATE_ALIKE`).

        A new root (a call from outside) forgets the lists of earlier calls, all searched by now.
        """
        if root:
            self._late = [(late, due) for late, due in self._late if late is universe]
        waiting = any(late is universe for late, _ in self._late)
        if universe.alike is None and LOCAL_SIZE < universe.size <= LATE_ALIKE and not waiting:
            self._late.append((universe, self.states + universe.size // PATIENCE))

    def _count(self) -> None:
        self.states += 1
        if self._late and self.states >= min(due for _, due in self._late):
            for late, due in self._late:
                if self.states >= due:
                    late.tabulate()  # the bounds of the states still to come use it
            self._late = [(late, due) for late, due in self._late if late.alike is None]
        if self.max_states is not None and self.states > self.max_states:
            raise OutOfBudget(self.max_states, self.states)
        checkpoint()  # the time, and every few milliseconds the memory held
        if self.progress is not None and not self.states % PROGRESS_EVERY:
            self.progress(self.states)

    def _settled(
        self, position: bytes, universe: Universe, subset: int, lo: int, ub: int | None
    ) -> int | tuple[Any, ...]:
        """The state's value when it is settled without a search: exact if more than ``lo``, else
        a bound ``<= lo``. Otherwise what :meth:`_state` needs to search it."""
        m = subset.bit_count()
        if m <= 1 or m <= lo:
            return m
        alike = universe.alike
        if alike is not None:
            if ub is None:
                ub = alike.cover(subset)
            if m == 2 or ub <= lo:
                return ub  # two layouts: both are won exactly when some safe cell tells them apart
        else:
            ub = m
        local = universe.memo if universe.size <= LOCAL_SIZE else None
        entry = local.get(subset) if local is not None else None
        if entry is not None and (entry & 1 or entry >> 1 <= lo):
            return entry >> 1
        images = self.board.images(position) if self.symmetric else [position]
        key = min(images)
        known = self.memo.get(key)
        if known is not None:
            if known & 1 or known >> 1 <= lo:
                if local is not None:
                    local[subset] = known
                return known >> 1
            ub = min(ub, known >> 1)
        reduced, scan = self._key_and_scan(position, universe, subset)
        alias = self.memo.get(reduced)
        if alias is not None:
            if alias & 1 or alias >> 1 <= lo:
                if local is not None:
                    local[subset] = alias
                self.memo[key] = alias
                return alias >> 1
            ub = min(ub, alias >> 1)
        if entry is not None:
            ub = min(ub, entry >> 1)
        return position, universe, subset, m, lo, ub, images, key, reduced, local, scan

    def _state(
        self,
        position: bytes,
        universe: Universe,
        subset: int,
        m: int,
        lo: int,
        ub: int,
        images: list[bytes],
        key: bytes,
        reduced: bytes,
        local: dict[int, int] | None,
        scan: list[tuple[int, tuple[tuple[int, int], ...], int]],
    ) -> Generator[Ask, int, int]:
        """Search a state :meth:`_settled` could not settle: its exact value if more than ``lo``,
        else an upper bound ``<= lo``; remembered either way."""
        self._count()
        here, mine = universe, subset
        if (universe.alike is None and m <= LOCAL_SIZE) or (
            universe.size > COMPACT_MIN and m * COMPACT_RATIO < universe.size
        ):
            covered = [c for c, _, _ in universe.columns if position[c] == COVERED]
            here, mine = universe.sub(subset, covered)
            self._expect(here)
            scan = self._scan(position, here, mine)
        value, exact = yield from self._search(position, here, mine, m, lo, ub, images, scan)
        if here is not universe and here.alike is None:
            self._late = [(late, due) for late, due in self._late if late is not here]  # searched
        code = value << 1 | exact
        if local is not None:
            local[subset] = code  # sets of a long list are long ints: the position memo holds those
        self.memo[key] = self.memo[reduced] = code
        return value

    @staticmethod
    def _scan(
        position: bytes, universe: Universe, subset: int
    ) -> list[tuple[int, tuple[tuple[int, int], ...], int]]:
        """The covered cells that not every layout of the list agrees on: ``(cell, its numbers,
        the layouts of subset where it is a mine)``. Read once for a state, by its reduced key and
        by its search."""
        return [(c, shows, subset & mined) for c, mined, shows in universe.columns if position[c] == COVERED]

    def _key_and_scan(
        self, position: bytes, universe: Universe, subset: int
    ) -> tuple[bytes, list[tuple[int, tuple[tuple[int, int], ...], int]]]:
        """A memo key for every state whose game is this one's: what still matters of the position
        (and the :meth:`_scan` it is read from).

        The *open* cells are the covered cells some layouts of the state mine
        and others do not; every other covered cell is a mine in all of them or
        safe in all. The key keeps the open cells, the covered safe cells next
        to them (their numbers are still to learn), and each uncovered cell
        next to them with its number less its neighbours mined in every layout;
        every other cell is blank; then how many mines the open cells hold.
        States with one key have the same value (docs/perfect.md, Theorem 6);
        the key is one byte longer than a position, so the two never meet in the memo.
        """
        board = self.board
        near = board.around
        scan = self._scan(position, universe, subset)
        opened = [c for c, _, q in scan if q and q != subset]
        # The cells next to the open ones, as a set of small ints: walking the bits of a bit set
        # as long as the board took three big-int operations a cell.
        ring: set[int] = set()
        for c in opened:
            ring.update(board.neighbours[c])
        ring.difference_update(opened)
        open_cells = sum([1 << c for c in opened])
        mines = universe.layout_mines((subset & -subset).bit_length() - 1)  # the state's first layout
        known_mines = mines & ~open_cells
        key = bytearray(_BYTE[_BLANK] * len(position))
        for c in opened:
            key[c] = COVERED
        for i in ring:
            seen = position[i]
            if seen <= 8:
                key[i] = seen - (near[i] & known_mines).bit_count()
            elif not known_mines >> i & 1:
                key[i] = _TO_LEARN
        reduced = bytes(key)
        if self.symmetric:
            reduced = min(self.board.images(reduced))
        # The mines left to find; past 255 (a long thin board) three bytes, so each count keeps its own key.
        hidden = (mines & open_cells).bit_count()
        return reduced + (_BYTE[hidden] if hidden < 256 else hidden.to_bytes(3, "big")), scan

    def _search(
        self,
        position: bytes,
        universe: Universe,
        subset: int,
        m: int,
        lo: int,
        ub: int,
        images: list[bytes],
        scan: list[tuple[int, tuple[tuple[int, int], ...], int]],
    ) -> Generator[Ask, int, tuple[int, bool]]:
        safe: list[tuple[int, tuple[tuple[int, int], ...]]] = []
        live: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        for c, shows, q in scan:
            if not q:
                safe.append((c, shows))
            elif q != subset:
                rest = subset ^ q  # the layouts where c is safe, split by the number it shows
                for _, mask in shows:
                    if p := rest & mask:
                        if p != rest:  # a cell with one number when safe is dead: never clicked first
                            live.append((m - q.bit_count(), c, shows))
                        break
        if safe:
            return (yield from self._free_cells(position, universe, subset, safe, lo, ub))
        if not live:
            return 1, True  # every cell dead: the clicks teach nothing, one layout is won
        moves = _Moves(self._one_per_class(live, images), universe.alike, subset)
        bound, c, bounded = moves.next()
        ub = min(ub, bound)
        if ub <= lo:
            return ub, False
        best = lo
        found = False
        failed = 0
        while True:
            if bound <= best:
                failed = max(failed, bound)
                break  # in order of bound: no later move can beat the best either
            bounded.sort(key=lambda t: -t[1])
            children = [(b, size, p, position[:c] + _BYTE[v] + position[c + 1:]) for b, size, p, v in bounded]
            total, exact = yield from self._chance(children, universe, best)
            if exact:
                best, found = total, True
                if best >= ub:
                    break
            else:
                failed = max(failed, total)
            if not moves:
                break
            bound, c, bounded = moves.next()
        if found:
            return best, True
        return min(failed, ub), False

    def _free_cells(
        self,
        position: bytes,
        universe: Universe,
        subset: int,
        safe: list[tuple[int, tuple[tuple[int, int], ...]]],
        lo: int,
        ub: int,
    ) -> Generator[Ask, int, tuple[int, bool]]:
        """Uncover every proven safe cell at once; the value is the sum over what they show."""
        # Each part's position is written in place while the part shows one number at a cell
        # (most cells), and copied only where it splits.
        parts = [(subset, bytearray(position))]
        for c, shows in safe:
            split = []
            many = len(parts) > _MANY_PARTS
            for p, seen in parts:
                if many:
                    checkpoint()  # each part holds a bit set as long as the list: they add up
                for v, mask in shows:
                    q = p & mask
                    if q:
                        if q == p:
                            seen[c] = v
                            split.append((p, seen))
                            break
                        one = bytearray(seen)
                        one[c] = v
                        split.append((q, one))
            parts = split
        bounded = self._bounded(universe, [(q.bit_count(), q, bytes(seen)) for q, seen in parts])
        total, exact = yield from self._chance(bounded, universe, lo)
        return (total, True) if exact else (min(total, ub), False)

    @staticmethod
    def _bounded(
        universe: Universe, parts: list[tuple[int, int, bytes]]
    ) -> list[tuple[int, int, int, bytes]]:
        out = _with_covers(universe.alike, parts)
        out.sort(key=lambda t: -t[1])
        return out

    def _chance(
        self, parts: list[tuple[int, int, int, bytes]], universe: Universe, target: int
    ) -> Generator[Ask, int, tuple[int, bool]]:
        """The sum of the parts' values if it is more than ``target`` (exact), else an upper bound.

        Each part is ``(upper bound, size, layouts, position)``; a part is asked
        only for as much as the sum still needs from it.
        """
        known = 0
        rest = sum(p[0] for p in parts)
        tabulated = universe.alike is not None
        many = len(parts) > _MANY_PARTS  # settled one after another from the memo, no state counted
        for bound, _, p, seen in parts:
            if many:
                checkpoint()
            rest -= bound
            need = target + 1 - known - rest
            w = self._settled(seen, universe, p, need - 1, bound if tabulated else None)
            if not isinstance(w, int):
                w = yield w  # a state to search: the driver searches it, and sends its value back
            if w < need:
                return known + w + rest, False
            known += w
        return known, True

    def _one_per_class(
        self, live: list[tuple[int, int, tuple[tuple[int, int], ...]]], images: list[bytes]
    ) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
        """When a symmetry maps the position onto itself, keep one move of each class it maps together."""
        if len(images) == 1:
            return live
        here = images[0]
        keep = [k for k in range(1, len(images)) if images[k] == here]
        if not keep:
            return live
        maps = [self.board.symmetries[k] for k in keep]
        return [t for t in live if all(image[t[1]] >= t[1] for image in maps)]
