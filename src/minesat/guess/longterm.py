"""Long-term risk: cells that may end up in a 50/50 later, and cells that already are one in all but name.

Some mines can never be found by logic: two side-by-side cells holding one mine,
walled in so that no number will ever tell them apart, must be guessed at even
odds. A cell that *may* still end up in such a trap is worth guessing now, at
its present risk, rather than later as a coin toss. This module measures that,
after the long-term risk of DavidNHill's JSMinesweeper (its ``LongTermRiskHelper``),
in minesat's own terms and exact counts.

Two shapes can trap a mine for good:

* a **pair**: two side-by-side covered cells with one mine, whose *walls* (the
  three cells beyond each end, across the pair's length) are mines or off the
  board. Every other cell that sees one of the pair sees both.
* a **box**: a 2x2 block of covered cells with two mines on one diagonal, whose
  walls (the four cells diagonally beyond its corners) are mines or off the
  board. A cell beside the box sees one cell of each diagonal.

A shape *forms* in a layout when its walls are mines and its mines sit one way
round; the number of layouts in which it forms one way round is two counts the
analysis engine gives exactly (walls and the shape's mines flagged, minus those
where a cell that should be safe is a mine too). Its *tally* is the mean over the
ways round: half the layouts in which the trap is there, which is the risk a
later coin toss would cost.

* **Influence** of a cell (the score bonus of :class:`~minesat.guess.best.BestGuess`'s
  ``longterm`` piece, weighed by :data:`~minesat.guess.best.INFLUENCE_WEIGHT`): the
  tallies of the pairs it belongs to with at most :data:`MAX_OPEN_WALLS` walls still
  unknown, plus the largest tally of its boxes, plus its tally as an *enabler* (an
  unknown wall that must be a mine for a likely trap to form: uncovering it instead
  breaks the trap). At most its chance to be a mine or to be safe, whichever is smaller.
* **Pseudo 50/50**: a cell whose every mined layout is a formed trap with it as
  a mine is safe or a later coin toss. Guessing it now costs nothing a later
  guess would not, and the number it shows when safe helps the rest of the board:
  the player guesses it first.

>>> from minesat.analysis import Analyzer
>>> position = Position.from_rows(["????", "????", "**??", "????"], mines=3)   # one mine in 14 cells
>>> a = Analyzer()
>>> risk = LongTermRisk(a, position, a.analyze(position))
>>> risk.pseudos        # were A1 or B1 the mine, nothing could ever tell which
((0, 0), (1, 0))
>>> risk.influence((0, 0)), risk.influence((3, 3))   # 1 layout in 14; D4's traps need 3 mines
(0.07142857142857142, 0.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from minesat.analysis import Analysis, Analyzer
from minesat.analysis.glance import LayoutCounter
from minesat.analysis.patterns import pattern_counter
from minesat.board import COVERED, FLAG, Cell, Position
from minesat.guess.outcomes import each_glance

__all__ = [
    "BOUND_MARGIN",
    "FLOAT_BITS",
    "INFLUENCE_THRESHOLD",
    "MASK_CELLS",
    "MAX_OPEN_WALLS",
    "SCAN_BOX_WALLS",
    "SCAN_PAIR_WALLS",
    "LongTermRisk",
    "Shapes",
    "Trap",
    "layout_unit",
    "shapes",
]

#: Unknown walls a trap may still need when a candidate's influence is measured (JSMinesweeper's).
MAX_OPEN_WALLS = 3

#: Unknown walls a trap may need in the board-wide scan for pseudo 50/50s and enablers:
#: pairs, and boxes (which hold one more mine). JSMinesweeper's.
SCAN_PAIR_WALLS = 1
SCAN_BOX_WALLS = 2

#: Boards of at most this many cells scan their traps on bit sets (each trap's cells and walls as
#: one int, and the position's unknown and blocking cells as two): faster on expert, but each bit
#: set is as long as the board, so a larger board would hold cells x traps bits (a 300x300 board
#: 2 GB, 1000x1000 more than the machine); there each trap is checked on sets, with the same result.
MASK_CELLS = 10_000

#: A trap counts in the scan (for enablers and extra candidates) when its tally is above
#: this share of the layouts. JSMinesweeper's ``INFLUENCE_THRESHOLD``.
INFLUENCE_THRESHOLD = 0.025

#: The relative slack :meth:`LongTermRisk._may_count` leaves its bounds for the rounding of
#: probabilities (a float's is about 1e-16): a trap within it of mattering is counted.
BOUND_MARGIN = 1e-6

#: Tallies are floats counted in units of ``2 ** shift`` layouts: one layout (shift 0)
#: while the total has at most this many bits, else so many that the total has this
#: many bits. A float holds at most about ``2 ** 1024``, and a count of a big board
#: passes that (40x40 with 300 mines has about ``10 ** 320`` layouts); the shares
#: the scores use (a tally over the total) are the same in either unit.
FLOAT_BITS = 1000


def layout_unit(total: int) -> int:
    """Tallies of a position with ``total`` layouts count units of ``2 ** layout_unit(total)`` layouts.

    >>> layout_unit(10 ** 100), layout_unit(2 ** 1000), layout_unit(2 ** 1500)
    (0, 1, 501)
    """
    return max(0, total.bit_length() - FLOAT_BITS)


@dataclass(frozen=True)
class Trap:
    """A pair or box of covered cells (indices) with its still-unknown walls."""

    cells: tuple[int, ...]  # a pair (a, b), or a box (top-left, top-right, bottom-left, bottom-right)
    walls: tuple[int, ...]

    @property
    def ways(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """The ways round it can form: (its mines, its safe cells)."""
        if len(self.cells) == 2:
            a, b = self.cells
            return ((a,), (b,)), ((b,), (a,))
        tl, tr, bl, br = self.cells
        return ((tl, br), (tr, bl)), ((tr, bl), (tl, br))


@dataclass(frozen=True)
class Shapes:
    """Every pair and box of a board with its walls on the board, and those each cell belongs to."""

    pairs: Sequence[Trap]
    boxes: Sequence[Trap]
    pairs_of: Sequence[tuple[int, ...]]  # per cell: indices into pairs
    boxes_of: Sequence[tuple[int, ...]]  # per cell: indices into boxes
    pair_masks: tuple[tuple[int, int], ...] = ()  # per pair: its cells and its walls as bit sets
    box_masks: tuple[tuple[int, int], ...] = ()


def _pair(rows: int, cols: int, r: int, c: int, down: bool) -> Trap:
    """The pair at ``(r, c)`` and its right (or lower) neighbour: its walls are the three cells
    beyond each end, across its length (those on the board)."""
    i = r * cols + c
    if down:
        walls = [(r - 1, c + k) for k in (-1, 0, 1)] + [(r + 2, c + k) for k in (-1, 0, 1)]
        return Trap((i, i + cols), _on_board(rows, cols, walls))
    walls = [(r + k, c - 1) for k in (-1, 0, 1)] + [(r + k, c + 2) for k in (-1, 0, 1)]
    return Trap((i, i + 1), _on_board(rows, cols, walls))


def _box(rows: int, cols: int, r: int, c: int) -> Trap:
    """The 2x2 box with top-left ``(r, c)``: its walls are the four cells diagonally beyond its corners."""
    i = r * cols + c
    walls = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
    return Trap((i, i + 1, i + cols, i + cols + 1), _on_board(rows, cols, walls))


def _on_board(rows: int, cols: int, cells: list[Cell]) -> tuple[int, ...]:
    return tuple(r * cols + c for r, c in cells if 0 <= r < rows and 0 <= c < cols)


class _Traps(Sequence[Trap]):
    """The pairs (or the boxes) of a board past :data:`MASK_CELLS` cells, in the order
    :func:`shapes` lists them (row-major by their first cell; a cell's pair across before the
    one down), each made when asked: held as objects, a 1000x1000 board's three million took
    2 GB and 19 s to build, for a scan that looks only at those of the covered cells.

    >>> eager, lazy = shapes(3, 4), _Traps(3, 4, boxes=False)
    >>> list(lazy) == list(eager.pairs) and [lazy.of(i) for i in range(12)] == list(eager.pairs_of)
    True
    >>> boxes = _Traps(3, 4, boxes=True)
    >>> list(boxes) == list(eager.boxes) and [boxes.of(i) for i in range(12)] == list(eager.boxes_of)
    True
    """

    def __init__(self, rows: int, cols: int, *, boxes: bool) -> None:
        self.rows, self.cols, self.boxes = rows, cols, boxes
        self.per_row = cols - 1 if boxes else 2 * cols - 1  # in each row but the last

    def __len__(self) -> int:
        if self.boxes:
            return (self.rows - 1) * (self.cols - 1)
        return (self.rows - 1) * self.per_row + self.cols - 1

    def __getitem__(self, k: int) -> Trap:  # type: ignore[override]  # by index only, never sliced
        if not 0 <= k < len(self):
            raise IndexError(k)
        if self.boxes:
            return _box(self.rows, self.cols, *divmod(k, self.cols - 1))
        if k >= (self.rows - 1) * self.per_row:  # the last row: pairs across only
            return _pair(self.rows, self.cols, self.rows - 1, k - (self.rows - 1) * self.per_row, False)
        r, o = divmod(k, self.per_row)
        c = o // 2
        return _pair(self.rows, self.cols, r, c, o % 2 == 1 or c == self.cols - 1)

    def __iter__(self) -> Iterator[Trap]:
        return self.anchored(range(self.rows * self.cols))

    def _index(self, r: int, c: int, down: bool = False) -> int:
        """The place of the trap whose first cell is ``(r, c)`` (the pair down, with ``down``)."""
        if self.boxes:
            return r * (self.cols - 1) + c
        if r == self.rows - 1:
            return r * self.per_row + c
        return r * self.per_row + 2 * c + (1 if down and c < self.cols - 1 else 0)

    def anchored(self, cells: Iterable[int]) -> Iterator[Trap]:
        """The traps whose first cell is one of ``cells`` (ascending), in the sequence's order."""
        rows, cols = self.rows, self.cols
        for i in cells:
            r, c = divmod(i, cols)
            if self.boxes:
                if r + 1 < rows and c + 1 < cols:
                    yield _box(rows, cols, r, c)
                continue
            if c + 1 < cols:
                yield _pair(rows, cols, r, c, False)
            if r + 1 < rows:
                yield _pair(rows, cols, r, c, True)

    def of(self, i: int) -> tuple[int, ...]:
        """The places of the traps cell ``i`` belongs to, ascending."""
        rows, cols = self.rows, self.cols
        r, c = divmod(i, cols)
        if self.boxes:
            return tuple(sorted(self._index(r - a, c - b) for a in (0, 1) for b in (0, 1)
                                if 0 <= r - a < rows - 1 and 0 <= c - b < cols - 1))
        found = []
        if c + 1 < cols:
            found.append(self._index(r, c))
        if r + 1 < rows:
            found.append(self._index(r, c, down=True))
        if c > 0:
            found.append(self._index(r, c - 1))
        if r > 0:
            found.append(self._index(r - 1, c, down=True))
        return tuple(sorted(found))


class _TrapsOf(Sequence[tuple[int, ...]]):
    """Per cell, the places of the traps it belongs to (:meth:`_Traps.of`), each found when asked."""

    def __init__(self, traps: _Traps) -> None:
        self.traps = traps

    def __len__(self) -> int:
        return self.traps.rows * self.traps.cols

    def __getitem__(self, i: int) -> tuple[int, ...]:  # type: ignore[override]  # by index, never sliced
        return self.traps.of(i)


@lru_cache(maxsize=16)
def shapes(rows: int, cols: int) -> Shapes:
    """The :class:`Shapes` of a board (its walls are all on the board; the others show nothing).

    Past :data:`MASK_CELLS` cells each trap is made when asked (:class:`_Traps`).

    >>> s = shapes(3, 3)
    >>> len(s.pairs), len(s.boxes), s.pairs[0]     # A1-A2: its walls are A3, B3 (and off the board)
    (12, 4, Trap(cells=(0, 1), walls=(2, 5)))
    """
    if rows * cols > MASK_CELLS:  # scanned on sets (MASK_CELLS), and too many to hold
        lazy_pairs, lazy_boxes = _Traps(rows, cols, boxes=False), _Traps(rows, cols, boxes=True)
        return Shapes(lazy_pairs, lazy_boxes, _TrapsOf(lazy_pairs), _TrapsOf(lazy_boxes))
    pairs, boxes = [], []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                pairs.append(_pair(rows, cols, r, c, False))
            if r + 1 < rows:
                pairs.append(_pair(rows, cols, r, c, True))
            if r + 1 < rows and c + 1 < cols:
                boxes.append(_box(rows, cols, r, c))
    pairs_of: list[list[int]] = [[] for _ in range(rows * cols)]
    boxes_of: list[list[int]] = [[] for _ in range(rows * cols)]
    for k, trap in enumerate(pairs):
        for i in trap.cells:
            pairs_of[i].append(k)
    for k, trap in enumerate(boxes):
        for i in trap.cells:
            boxes_of[i].append(k)

    def masks(traps: list[Trap]) -> tuple[tuple[int, int], ...]:
        return tuple((sum(1 << i for i in t.cells), sum(1 << i for i in t.walls)) for t in traps)

    return Shapes(tuple(pairs), tuple(boxes), tuple(map(tuple, pairs_of)), tuple(map(tuple, boxes_of)),
                  masks(pairs), masks(boxes))


class LongTermRisk:
    """The long-term risk of one position (see the module docstring).

    The board-wide scan (pseudo 50/50s, enablers) runs when it is made;
    :meth:`influence` counts a cell's traps when asked. Counts are shared
    through caches, for this position only.
    """

    def __init__(self, analyzer: Analyzer, position: Position, analysis: Analysis) -> None:
        self.analyzer = analyzer
        self.position = position
        self.analysis = analysis
        self.total = analysis.layouts or 0
        self._shift = layout_unit(self.total)
        self._total = self._float(self.total)  # the total in the tallies' unit
        self._shapes = shapes(position.rows, position.cols)
        cols = position.cols
        self._unknown = {r * cols + c for r, c in analysis.unknown}
        # A wall that is uncovered, or proven safe, will show a number that tells the cells apart.
        grid = analysis.probability
        self._blocking = {
            i for i, state in enumerate(position.cells)
            if state >= 0 or (state == COVERED and grid[i // cols][i % cols] == 0.0)
        }
        # Each unknown cell's mine probability (:meth:`_may_count`).
        self._p = {r * cols + c: grid[r][c] or 0.0 for r, c in analysis.unknown}
        self._counts: dict[frozenset[int], int] = {}
        #: The unknown cells as a bit set, and the unknown and blocking ones padded (_open_places).
        self._padded: tuple[int, int, int] | None = None
        self._formed_counts: dict[tuple[frozenset[int], frozenset[int]], int] = {}
        # On the small road a pattern is counted from the position's own parts (the same
        # exact counts, without analysing a flagged position per question); else interior
        # cells (next to no number), which are interchangeable: a trap made of them alone is
        # counted in closed form. Either counter says None where it cannot answer.
        counter: LayoutCounter | int | None = pattern_counter(analyzer, position)
        if counter is None:
            counter = analyzer.interior_counter(position)
        self._counter = None if counter is None or isinstance(counter, int) else counter
        self._interior = (self._counter.interior_mask or 0) if self._counter is not None else 0
        self._interior_shares: dict[int, float] = {}  # by how many interior cells are mined
        self._inside = frozenset(_indices(self._interior))
        self._interior_verdicts: dict[tuple[int, int], bool] = {}  # by cells and walls
        #: Tally per cell from the likely traps of the scan, as one of their cells or as an enabler.
        self.trapped: dict[int, float] = {}
        self.enabling: dict[int, float] = {}
        self.pseudos: tuple[Cell, ...] = ()
        if self.total:
            self._scan()

    # --- counting ----------------------------------------------------------------

    def _layouts(self, mines: frozenset[int]) -> int:
        """Layouts of the position in which every cell of ``mines`` is a mine."""
        if mines not in self._counts:
            cells = list(self.position.cells)
            for i in mines:
                cells[i] = FLAG
            p = self.position
            self._counts[mines] = self.analyzer.layouts(Position(p.rows, p.cols, tuple(cells), p.mines)) or 0
        return self._counts[mines]

    def _formed(self, walls: tuple[int, ...], mines: tuple[int, ...], safe: tuple[int, ...]) -> int:
        """Layouts with ``walls`` and ``mines`` mined and ``safe`` safe (inclusion-exclusion on ``safe``)."""
        if self._counter is not None:
            # Keyed by the cells, not by their bit sets: a bit set is as long as the board up to
            # its last cell, and a scan keeps a key per trap (a 1000x1000 board's passed 1 GB).
            key = (frozenset((*walls, *mines)), frozenset(safe))
            if key not in self._formed_counts:
                count = self._counter.masks(sum(1 << i for i in key[0]), sum(1 << i for i in key[1]))
                if count is None:  # cells the counter does not count (or a part past the budget)
                    count = self._flagged(walls, mines, safe)
                self._formed_counts[key] = count
            return self._formed_counts[key]
        return self._flagged(walls, mines, safe)

    def _flagged(self, walls: tuple[int, ...], mines: tuple[int, ...], safe: tuple[int, ...]) -> int:
        """:meth:`_formed` by counting positions with cells flagged."""
        base = frozenset(walls) | frozenset(mines)
        total = 0
        for mask in range(1 << len(safe)):
            extra = frozenset(s for k, s in enumerate(safe) if mask >> k & 1)
            sign = -1 if bin(mask).count("1") % 2 else 1
            total += sign * self._layouts(base | extra)
        return total

    def _ways(self, trap: Trap) -> list[tuple[tuple[int, ...], int]]:
        """Each way round the trap can form: its mines and the layouts where it does."""
        return [(mines, self._formed(trap.walls, mines, safe)) for mines, safe in trap.ways]

    def _float(self, n: int) -> float:
        """``n`` layouts as a float, in the tallies' unit (:data:`FLOAT_BITS`)."""
        return float(n) if not self._shift else n / (1 << self._shift)

    def _tally(self, trap: Trap) -> float:
        """Half the layouts in which the trap forms: the risk of the coin toss it would be."""
        return self._float(sum(n for _, n in self._ways(trap))) / 2

    def _mine_tally(self, i: int) -> float:
        p = self.analysis.probability[i // self.position.cols][i % self.position.cols]
        assert p is not None
        return p * self._total

    def _open(self, shape: Trap, max_walls: int) -> Trap | None:
        """``shape`` with only its unknown walls, or ``None`` when it cannot trap a mine here."""
        unknown = self._unknown
        if not unknown.issuperset(shape.cells):
            return None  # uncovered, or already decided: nothing to guess there
        if not self._blocking.isdisjoint(shape.walls):
            return None
        walls = unknown.intersection(shape.walls)  # the others are known mines
        return Trap(shape.cells, tuple(sorted(walls))) if len(walls) <= max_walls else None

    def _opened(
        self, traps: Sequence[Trap], masks: tuple[tuple[int, int], ...], max_walls: int
    ) -> Iterator[Trap]:
        """:meth:`_open` of each shape, the ones that can trap a mine here: on bit sets where the
        board has them (:data:`MASK_CELLS`), else one shape after another on sets."""
        if len(masks) != len(traps):
            # Only a trap whose cells are all unknown can trap a mine: those whose first cell is.
            found = traps.anchored(sorted(self._unknown)) if isinstance(traps, _Traps) else traps
            yield from (t for shape in found if (t := self._open(shape, max_walls)) is not None)
            return
        rows, cols = self.position.rows, self.position.cols
        if self._padded is None:
            unknown = sum(1 << i for i in self._unknown)
            self._padded = unknown, _padded(cols, self._unknown), _padded(cols, self._blocking)
        unknown, covered, walled = self._padded
        for k in _open_places(rows, cols, covered, walled, traps is self._shapes.boxes, max_walls):
            walls = masks[k][1] & unknown  # the others are known mines
            yield Trap(traps[k].cells, tuple(_indices(walls)))

    # --- the board-wide scan ------------------------------------------------------

    def _scan(self) -> None:
        """Every likely trap needing few walls: tallies for its cells and enablers, and pseudo 50/50s.

        Pairs first; boxes only when no pair gave a pseudo 50/50 (as JSMinesweeper does).
        """
        pseudos: list[int] = []
        shapes = self._shapes
        for trap in self._opened(shapes.pairs, shapes.pair_masks, SCAN_PAIR_WALLS):
            if self._may_count(trap):
                self._note(trap, pseudos)
        if not pseudos:
            for trap in self._opened(shapes.boxes, shapes.box_masks, SCAN_BOX_WALLS):
                if self._may_count(trap):
                    self._note(trap, pseudos)
        # A dead cell (one number only) would teach nothing: guessing it now gains nothing.
        cols = self.position.cols
        self.pseudos = tuple(divmod(i, cols) for i in sorted(set(pseudos)) if not self._dead(i))

    def _may_count(self, trap: Trap) -> bool:
        """Whether :meth:`_note` could find anything in ``trap``, judged from mine probabilities alone.

        Most traps of a scan are neither likely nor a pseudo 50/50 (an expert game's scans: 297
        of 22 778 were), and each costs a few counts. The layouts in which a trap forms one way
        round are among those in which each of its walls and of that way's mines is a mine, so
        they are at most the fewest of those; both ways together at most the fewest of a
        wall's. A pseudo 50/50 needs every layout mining its cell to mine the walls and the
        way's other mines too: none can be less likely than it. A trap that passes neither
        bound is left uncounted: counting it would change nothing. The bounds keep a margin
        of :data:`BOUND_MARGIN` for the floats' rounding, so a trap near one is counted.
        """
        inside = self._inside
        if all(i in inside for i in trap.cells) and all(i in inside for i in trap.walls):
            # Interior cells alone: alike, so the verdict is the same for every such shape.
            key = (len(trap.cells), len(trap.walls))
            if key not in self._interior_verdicts:
                self._interior_verdicts[key] = self._may_count_by_bounds(trap)
            return self._interior_verdicts[key]
        return self._may_count_by_bounds(trap)

    def _may_count_by_bounds(self, trap: Trap) -> bool:
        """:meth:`_may_count`, judged."""
        most = [self._most((*trap.walls, *mines)) for mines, _ in trap.ways]
        if min(self._most(trap.walls), sum(most)) / 2 * (1 + BOUND_MARGIN) > INFLUENCE_THRESHOLD:
            return True  # it may be likely
        p = self._p
        for (mines, _), share in zip(trap.ways, most, strict=True):
            if any(share >= p[i] * (1 - BOUND_MARGIN) for i in mines):
                return True  # it may be a pseudo 50/50
        return False

    def _most(self, cells: tuple[int, ...]) -> float:
        """At least the share of layouts in which every one of ``cells`` is a mine (1 for none).

        The least likely cell's probability; and where two or more are interior cells, which
        are interchangeable, the exact share in which those are all mines, if less.
        """
        p = self._p
        share = min((p[i] for i in cells), default=1.0)
        inside = sum(1 << i for i in cells) & self._interior
        if inside & (inside - 1):  # two or more
            k = inside.bit_count()
            if k not in self._interior_shares:
                count = self._counter.masks(inside) if self._counter is not None else None
                self._interior_shares[k] = 1.0 if count is None else count / self.total
            share = min(share, self._interior_shares[k])
        return share

    def _dead(self, i: int) -> bool:
        numbers = each_glance(self.analyzer, self.position, divmod(i, self.position.cols), self.total, few=0)
        return next(numbers, None) is None or next(numbers, None) is None

    def _note(self, trap: Trap, pseudos: list[int]) -> None:
        ways = self._ways(trap)
        for mines, n in ways:
            # Pseudo 50/50: each layout in which this cell is a mine is the trap, formed this way round.
            for i in mines:
                close = n and abs(self._float(n) - self._mine_tally(i)) <= 1e-9 * self._total
                if close and n == self._formed((), (i,), ()):
                    pseudos.append(i)
        tally = self._float(sum(n for _, n in ways)) / 2
        if tally / self._total > INFLUENCE_THRESHOLD:
            for i in trap.cells:
                self.trapped[i] = self.trapped.get(i, 0.0) + tally
            for i in trap.walls:  # an enabler: were it safe, the trap could not form
                self.enabling[i] = self.enabling.get(i, 0.0) + tally

    # --- a cell's influence --------------------------------------------------------

    def influence(self, cell: Cell) -> float:
        """The share of layouts in which guessing ``cell`` now heads off a later 50/50 (module docstring)."""
        if not self.total:
            return 0.0
        i = cell[0] * self.position.cols + cell[1]
        shapes = self._shapes
        # The pairs it belongs to (with each side neighbour), and the likeliest of its
        # boxes (they overlap: one trap at most forms there).
        tally = sum(self._tally(trap) for k in shapes.pairs_of[i]
                    if (trap := self._open(shapes.pairs[k], MAX_OPEN_WALLS)) is not None)
        tally += max((self._tally(trap) for k in shapes.boxes_of[i]
                      if (trap := self._open(shapes.boxes[k], MAX_OPEN_WALLS)) is not None), default=0.0)
        tally += self.enabling.get(i, 0.0)
        mines = self._mine_tally(i)
        return min(tally, mines, self._total - mines) / self._total

    def scanned(self) -> dict[Cell, float]:
        """Each cell the scan found in a likely trap or enabling one, and that tally as a share of layouts."""
        cols = self.position.cols
        found: dict[Cell, float] = {}
        for table in (self.trapped, self.enabling):
            for i, tally in table.items():
                cell = divmod(i, cols)
                found[cell] = found.get(cell, 0.0) + tally / self._total
        return found


#: The shapes as offsets from their first cell on a board padded with a frame of one cell
#: (``cols + 2`` wide): their cells, and their walls (:func:`_pair`, :func:`_box`), in three
#: kinds: pairs across, pairs down, boxes (``w`` stands for the padded width).
_KINDS = {
    "across": (lambda w: (0, 1), lambda w: (-w - 1, -1, w - 1, -w + 2, 2, w + 2)),
    "down": (lambda w: (0, w), lambda w: (-w - 1, -w, -w + 1, 2 * w - 1, 2 * w, 2 * w + 1)),
    "box": (lambda w: (0, 1, w, w + 1), lambda w: (-w - 1, -w + 2, 2 * w - 1, 2 * w + 2)),
}


def _padded(cols: int, cells: Iterable[int]) -> int:
    """``cells`` (flat indices of a board ``cols`` wide) as a bit set of the board padded with a
    frame of one cell (``cols + 2`` wide, bit ``(r + 1) * (cols + 2) + c + 1`` for ``(r, c)``).

    >>> bin(_padded(2, [0, 3]))   # A1 and B2 of a 2x2, in a 4x4 frame: bits 5 and 10
    '0b10000100000'
    """
    shift = cols + 3  # cell (r, c) at r * cols + c moves by cols + 3 + 2 * r
    return sum(1 << (i + shift + 2 * (i // cols)) for i in cells)


def _open_places(rows: int, cols: int, covered: int, walled: int, boxes: bool, max_walls: int) -> list[int]:
    """The places in :func:`shapes`' list (its pairs, or its boxes) of the shapes that can trap a
    mine: every cell unknown, no wall blocking, at most ``max_walls`` walls unknown; ascending.
    ``covered`` and ``walled`` are the unknown and the blocking cells (:func:`_padded`).

    Every shape of a kind at once, as bit sets of the board padded with a frame of cells that are
    neither unknown nor blocking (a wall off the board is no wall): a shape's first cell passes
    when the unknown set shifted by each of its cells' offsets has it, no shift of the blocking
    set by a wall's offset has it, and at most ``max_walls`` shifts of the unknown set by a wall's
    offset have it (counted bit-parallel: a bit set of the places one wall is unknown at least,
    another of two, ...). Only the shapes that pass are looked at one by one.

    >>> _open_places(3, 3, _padded(3, range(9)), 0, boxes=False, max_walls=6)  # all pairs of a covered 3x3
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    >>> around = _open_places(3, 3, _padded(3, [0, 1, 2, 3, 5, 6, 7, 8]), _padded(3, [4]), False, 6)
    >>> [shapes(3, 3).pairs[k].cells for k in around]   # B2 uncovered: no pair has it for a wall
    [(0, 1), (0, 3), (1, 2), (2, 5), (3, 6), (5, 8), (6, 7), (7, 8)]
    """
    w = cols + 2

    def shifted(mask: int, d: int) -> int:
        return mask >> d if d >= 0 else mask << -d

    per_row = cols - 1 if boxes else 2 * cols - 1
    places: list[int] = []
    for kind in ("box",) if boxes else ("across", "down"):
        cells, walls = (offsets(w) for offsets in _KINDS[kind])
        passing = covered
        for d in cells:
            passing &= shifted(covered, d)
        for d in walls:
            passing &= ~shifted(walled, d)
        # at_least[n]: the places with more than n walls unknown (n = 0 .. max_walls).
        at_least = [0] * (max_walls + 1)
        for d in walls:
            open_wall = shifted(covered, d) & passing
            for n in range(max_walls, 0, -1):
                at_least[n] |= at_least[n - 1] & open_wall
            at_least[0] |= open_wall
        passing &= ~at_least[max_walls]
        while passing:
            low = passing & -passing
            passing ^= low
            r, c = divmod(low.bit_length() - 1, w)
            r, c = r - 1, c - 1
            if boxes or r == rows - 1:  # a box, or a pair of the last row (across only)
                places.append(r * per_row + c)
            else:
                places.append(r * per_row + 2 * c + (kind == "down" and c < cols - 1))
    places.sort()
    return places


def _indices(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1
