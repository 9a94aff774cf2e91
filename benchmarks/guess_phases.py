"""Where two players guess and die, by phase of the game: minesat against JSMinesweeper's recorded guesses.

    python benchmarks/guess_phases.py --pairing reports/runs/jsms-classic-s23.jsonl.gz
        --preset expert --seed 23 --first-click safe --start 0,0 [--games 3000]
        [--strategy best+hunt=1] [--start-shows 1]

The pairing file is what ``benchmarks/jsminesweeper.py --out`` writes: per game,
JSMinesweeper's guesses in order. Its boards are remade from the options given
(each game's layout digest is checked against the file's). minesat's side is
played again here with ``--strategy`` (a setting as ``benchmarks/paired.py`` takes
it, knobs and all); JSMinesweeper's is rebuilt from its
guesses: between two guesses every cell minesat's analysis proves safe is
uncovered, which is what any exact solver has uncovered by then (the game's
outcome is checked against the file's).

Every guess is filed by
- phase: ``before`` any 0 has been uncovered (the corner start under the ``safe``
  rule, before an opening) or ``after``;
- place: ``frontier`` (next to a number) or ``interior``;
- reach: ``exact`` (at most the endgame's layouts fit the position: ``best``
  plays perfectly from there) or ``open`` (more).

and per class it prints both players' guesses and the guesses that ended a game;
then, per player, how many games died before any opening and how many of the
others were won. ``--start-shows N`` keeps only the games whose first click shows
N (on the classic start a 1 at A1 is where the two players part most).
Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from jsminesweeper import generated_boards  # the same boards, made the same way
from paired import make_strategy

from minesat.analysis import Analysis, Analyzer
from minesat.board import PRESETS, Cell, Layout, Position, neighbour_table
from minesat.exact.endgame import endgame_limits
from minesat.game import Game, MoveResult, Status
from minesat.generate import FirstClick
from minesat.player import Step, play_game
from minesat.verdict import Verdict

Class = tuple[str, str, str]


def classify(position: Position, analysis: Analysis, cell: Cell) -> Class:
    """The phase, place and reach of a guess at ``cell``.

    >>> from minesat.analysis import analyze
    >>> p = Position.from_rows(["1???", "????", "????"], mines=3)
    >>> classify(p, analyze(p), (0, 1)), classify(p, analyze(p), (2, 3))
    (('before', 'frontier', 'exact'), ('before', 'interior', 'exact'))
    """
    table = neighbour_table(position.rows, position.cols)
    cells = position.cells
    phase = "after" if 0 in cells else "before"
    place = "frontier" if any(cells[j] >= 0 for j in table[cell[0] * position.cols + cell[1]]) else "interior"
    most, _ = endgame_limits(position.rows, position.cols)
    reach = "exact" if analysis.layouts is not None and analysis.layouts <= most else "open"
    return phase, place, reach


def replay(
    layout: Layout, start: Cell, guesses: list[Cell], guessed: Counter[Class], fatal: Counter[Class]
) -> str:
    """Play ``guesses`` in order on ``layout``, every proven safe cell between them.

    Returns how the game went: ``"died before"`` any opening, else ``"won"`` or ``"lost"``.
    """
    game = Game(layout)
    game.uncover(start)
    analyzer = Analyzer()
    pending = list(guesses)
    while not game.over:
        position = game.position
        analysis = analyzer.analyze(position)
        if analysis.safe:
            for cell in analysis.safe:
                game.uncover(cell)
            continue
        if not pending:
            break
        cell = pending.pop(0)
        if position[cell] >= 0:
            continue  # uncovered meanwhile (a flood reached it)
        kind = classify(position, analysis, cell)
        guessed[kind] += 1
        if game.uncover(cell) is MoveResult.BLOWN_UP:
            fatal[kind] += 1
            if kind[0] == "before":
                return "died before"
    return "won" if game.status is Status.WON else "lost"


def minesat_guesses(layout: Layout, start: Cell, rule: str, strategy: str) -> list[Cell]:
    trace: list[Step] = []
    play_game(layout, start, strategy=make_strategy(strategy), rule=rule, trace=trace)
    return [step.move.cell for step in trace if step.verdict is Verdict.GUESS]


class PairingError(Exception):
    """A pairing file that cannot be read: the message says where."""


def read_pairing(path: Path) -> Iterator[dict]:
    """The records of a pairing file (JSON Lines, gzipped if it ends in .gz)."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise PairingError(f"{path}:{number}:{error.colno}: not JSON: {error.msg}") from None
                if not (
                    isinstance(record, dict) and {"game", "layout", "jsminesweeper"} <= record.keys()
                    and isinstance(record["jsminesweeper"], dict) and "guessed" in record["jsminesweeper"]
                ):
                    raise PairingError(f"{path}:{number}:1: not a record of benchmarks/jsminesweeper.py")
                yield record
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise PairingError(f"{path}: cannot read: {error}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--pairing", type=Path, required=True, help="a jsminesweeper.py --out file")
    parser.add_argument("--preset", default="expert", choices=list(PRESETS))
    parser.add_argument("--seed", type=int, required=True, help="the seed the pairing was run with")
    parser.add_argument("--first-click", default="opening", choices=[r.value for r in FirstClick])
    parser.add_argument("--start", type=lambda t: tuple(int(x) for x in t.split(",")), default=(3, 3))
    parser.add_argument("--games", type=int, help="at most this many games (default: all in the file)")
    parser.add_argument("--strategy", default="best", help="a setting as benchmarks/paired.py takes it")
    parser.add_argument("--start-shows", type=int, help="only games whose first click shows this")
    args = parser.parse_args(argv)
    try:
        make_strategy(args.strategy)
    except ValueError as error:
        parser.error(f"--strategy: {error}")
    try:
        return report(args)
    except PairingError as error:
        print(f"guess_phases.py: {error}", file=sys.stderr)
        return 2


def report(args: argparse.Namespace) -> int:
    """Replay the pairing's games and print the tables."""
    rows, cols, mines = PRESETS[args.preset]
    start: Cell = args.start
    players = ("minesat", "jsminesweeper")
    guessed = {p: Counter[Class]() for p in players}
    fatal = {p: Counter[Class]() for p in players}
    ends = {p: Counter[str]() for p in players}
    mismatched = games = 0
    for record in read_pairing(args.pairing):
        if args.games is not None and games >= args.games:
            break
        game = record["game"]
        board = next(generated_boards(rows, cols, mines, args.first_click, start, args.seed, game, 1))
        if record["layout"] != board.digest:
            sys.exit(f"{args.pairing}: game {game}: its board is not the one these options make")
        layout = board.layout
        if args.start_shows is not None and layout.count(start) != args.start_shows:
            continue
        games += 1
        ours = minesat_guesses(layout, start, args.first_click, args.strategy)
        ends["minesat"][replay(layout, start, ours, guessed["minesat"], fatal["minesat"])] += 1
        theirs = [(r, c) for r, c, _ in record["jsminesweeper"]["guessed"]]
        end = replay(layout, start, theirs, guessed["jsminesweeper"], fatal["jsminesweeper"])
        ends["jsminesweeper"][end] += 1
        mismatched += (end == "won") != record["jsminesweeper"]["won"]
    print(f"{games} games, minesat playing {args.strategy}"
          f" ({mismatched} of JSMinesweeper's rebuilt with another outcome than recorded)\n")
    print("| phase | place | reach | minesat guesses / fatal | JSMinesweeper guesses / fatal |")
    print("| --- | --- | --- | ---: | ---: |")
    seen = guessed["minesat"].keys() | guessed["jsminesweeper"].keys()
    kinds = sorted(seen, key=lambda k: (k[0] != "before", k))
    for kind in kinds:
        cells = [f"{guessed[p][kind]} / {fatal[p][kind]}" for p in players]
        print(f"| {' | '.join(kind)} | {cells[0]} | {cells[1]} |")
    totals = [f"{sum(guessed[p].values())} / {sum(fatal[p].values())}" for p in players]
    print(f"| all | | | {totals[0]} | {totals[1]} |\n")
    print("| player | guesses before any opening | died before it | won of the others | won |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for p in players:
        before = sum(n for kind, n in guessed[p].items() if kind[0] == "before")
        died, won = ends[p]["died before"], ends[p]["won"]
        print(f"| {p} | {before} | {died} ({died / max(games, 1):.1%}) | {won} of {games - died}"
              f" ({won / max(games - died, 1):.1%}) | {won} ({won / max(games, 1):.1%}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
