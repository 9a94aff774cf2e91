"""Many games: seeded batches on local processes or a Dask cluster, streamed into a store.

Game *i* of a run depends only on the :class:`~minesat.store.RunConfig` and
*i*: its layout is drawn from :func:`~minesat.generate.game_seed`, and the
player is deterministic. So however games are split into batches and batches
among workers, the results are the same, and a run can be resumed by playing
only the indices its store lacks.

>>> config = RunConfig(rows=9, cols=9, mines=10, rule="opening", start=(3, 3), seed=0)
>>> [g.index for g in play_indices(config, [4, 2], play=_trivial_game)]
[4, 2]

A run over a *board set* (``RunConfig.boards``, the file's SHA-256) plays line
*i* of the file as game *i*: :func:`board_run_config` checks the file once,
streamed, and :func:`run` hands every batch its layouts, so no worker reads
the file.

:func:`simulate` is the library's short road (``minesat.simulate(...)``): a preset or a
board, a number of games, and back a :class:`Simulation` whose records a
``pandas.DataFrame`` takes.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from minesat.board import Cell, Layout, Move
from minesat.errors import InvalidValue
from minesat.executors import run_bounded, worker_pool
from minesat.formats.boardset import iter_boardset, scan_boardset
from minesat.generate import BoardSpec, FirstClick
from minesat.player import DEFAULT_STRATEGY, GameRecord, check_start, default_start, get_strategy, play_game
from minesat.provenance import Session, new_session, player_fingerprint, short
from minesat.stats import percent, wilson
from minesat.store import GameStore, PlayerMismatchError, RunConfig, StoredGame
from minesat.tally import Tally

__all__ = [
    "MAX_BATCH",
    "MAX_GAMES",
    "BatchFunction",
    "Games",
    "PlayFunction",
    "ProgressCallback",
    "Simulation",
    "board_run_config",
    "check_batch",
    "check_config",
    "check_counts",
    "check_player",
    "default_batch_size",
    "in_flight",
    "index_batches",
    "play_boards",
    "play_indices",
    "played_by",
    "player_tallies",
    "run",
    "simulate",
    "summarize",
]

#: Plays one layout from a start cell under a rule with a named strategy.
PlayFunction = Callable[[Layout, Cell, str, str], GameRecord]

#: Plays a batch of a run: game indices, or ``(index, layout)`` pairs for a board set;
#: must be picklable (a top-level function).
BatchFunction = Callable[[RunConfig, Sequence[Any]], list[StoredGame]]

#: Called after every stored batch with (games played so far, games to play, their tally).
ProgressCallback = Callable[[int, int, "Tally"], None]


#: Most games per batch by default. A task's overhead (pickling a few indices
#: and results, one SQLite commit) is tiny next to even a beginner game, while
#: small batches keep the progress bar smooth, make Ctrl-C quick and lose
#: little to a crash.
MAX_BATCH = 20

#: Most games a run may ask for: game indices are SQLite integers (and no run gets near this).
#: The library and the command line refuse the same: ``games`` outside 0..MAX_GAMES.
MAX_GAMES = 10**15


def default_batch_size(to_play: int, slots: int) -> int:
    """Games per batch: about 8 batches per slot, so workers finishing at different paces
    stay busy to the end, and at most :data:`MAX_BATCH`."""
    return max(1, min(MAX_BATCH, to_play // (slots * 8)))


def in_flight(slots: int) -> int:
    """Batches submitted at once: two per slot, so a worker finishing one finds the next
    already queued while this process stores the results."""
    return 2 * slots



# --- one batch ---------------------------------------------------------------------


def _play_with_player(layout: Layout, start: Cell, rule: str, strategy: str) -> GameRecord:
    """The real player: a fresh strategy per game, so no state leaks between games.

    (The exact endgame's answers are remembered per process, but each is keyed on
    everything it depends on: a remembered answer is the answer a search would give.)
    """
    return play_game(layout, start, strategy=get_strategy(strategy), rule=rule)


def play_indices(
    config: RunConfig, indices: Sequence[int], *, play: PlayFunction = _play_with_player
) -> list[StoredGame]:
    """Play games ``indices`` of the run ``config``, in the order given.

    Top-level so a process pool or a Dask worker can unpickle it by name.
    ``play`` exists for tests of the plumbing; runs use the real player.
    """
    spec = config.spec
    games = []
    for index in indices:
        seed = spec.game_seed(config.seed, index)
        record = play(spec.layout(seed=seed), config.start, config.rule, config.strategy)
        games.append(StoredGame.from_record(index, seed, record))
    return games


def play_boards(
    config: RunConfig, items: Sequence[tuple[int, Layout]], *, play: PlayFunction = _play_with_player
) -> list[StoredGame]:
    """Play the given layouts of a board-set run as games ``index``, in the order given.

    The layouts come with the batch (a few kilobytes to pickle), so a worker
    never opens the board file. No first-click rule moves a mine: each board is
    played as it is. The stored seed is 0: a board's identity is its line.
    """
    return [
        StoredGame.from_record(index, 0, play(layout, config.start, config.rule, config.strategy))
        for index, layout in items
    ]


def board_run_config(
    path: str | os.PathLike[str],
    *,
    rule: FirstClick | str,
    start: Cell,
    strategy: str,
) -> tuple[RunConfig, int]:
    """The run configuration for playing the board set in ``path``, and its number of boards.

    The seed plays no part in a board-set run and is stored as 0, so two runs of
    the same set differ only in what really differs (strategy, rule, start) and pair.

    One streamed pass checks every line (a :class:`~minesat.formats.BoardFormatError`
    names the first bad one), that all boards share one size, and that each keeps
    the promise ``rule`` makes at ``start``: the player trusts the rule, so a board
    breaking it is refused rather than played under a false promise.
    """
    rule = FirstClick(rule)

    def keeps_the_rule(layout: Layout) -> None:
        try:
            check_start(layout, start, rule)
        except InvalidValue as err:
            raise InvalidValue(f"{err} (play such boards with {{rule:any}})", template=True) from None

    info = scan_boardset(path, keeps_the_rule)
    config = RunConfig(
        rows=info.rows,
        cols=info.cols,
        mines=info.mines,
        rule=rule.value,
        start=start,
        seed=0,
        strategy=strategy,
        boards=info.digest,
    )
    return config, info.count


def _board_batches(
    path: str | os.PathLike[str], indices: Iterator[int], size: int
) -> Iterator[list[tuple[int, Layout]]]:
    """Batches of ``(index, layout)`` for the wanted ``indices`` (ascending), read as the file streams."""
    wanted = next(indices, None)
    batch: list[tuple[int, Layout]] = []
    for number, layout in iter_boardset(path):
        if wanted is None:
            break
        if number - 1 == wanted:
            batch.append((wanted, layout))
            wanted = next(indices, None)
            if len(batch) == size:
                yield batch
                batch = []
    if wanted is not None:
        raise InvalidValue(f"{path}: the board set ends before game {wanted}")
    if batch:
        yield batch


def _trivial_game(layout: Layout, start: Cell, rule: str, strategy: str) -> GameRecord:
    """A stand-in player for doctests: won when the start opens a zero, no analysis at all."""
    won = layout.counts[start[0] * layout.cols + start[1]] == 0
    return GameRecord(won=won, moves=(Move(start),), guesses=(), uncovered=1, bbbv=layout.bbbv(), seconds=0.0)


# --- the summary --------------------------------------------------------------------


def summarize(
    config: RunConfig,
    tally: Tally,
    *,
    played: int,
    seconds: float,
    extra: dict[str, object] | None = None,
) -> dict[str, object]:
    """The summary ``minesat simulate --json`` prints (docs/commands/simulate.md), and more.

    JSON-ready: the seed is a string of digits, as every seed minesat writes in JSON.

    ``games``/``wins`` and the rates cover all games of the run (stored earlier
    or played now); ``played``, ``seconds`` and ``games_per_second`` cover this
    invocation only: wall time, all workers together. Of a store that holds several
    players' games, ``tally`` is this minesat's player's (:func:`run`'s ``players`` lists each).
    """
    n = tally.games
    losses = n - tally.wins
    lo, hi = wilson(tally.wins, n)
    summary: dict[str, object] = {
        "games": n,
        "wins": tally.wins,
        "losses": losses,
        "win_rate": tally.win_rate,
        "ci95": [lo, hi],
        "guesses_mean": tally.guesses / n if n else 0.0,
        "no_guess_wins": tally.no_guess_wins,
        "no_guess_win_rate": tally.no_guess_wins / n if n else 0.0,
        "fatal_guess_probability_mean": tally.fatal_probability / losses if losses else None,
        "analyses_mean": tally.analyses / n if n else 0.0,
        "searches_cut": tally.searches_cut,
        "game_seconds_mean": tally.seconds / n if n else 0.0,
        "played": played,
        "seconds": seconds,
        "games_per_second": played / seconds if played and seconds > 0 else 0.0,
        "rows": config.rows,
        "cols": config.cols,
        "mines": config.mines,
        "first_click": config.rule,
        "start": list(config.start),
        # Digits, as everywhere in minesat's JSON: JSON readers round integers past 2^53.
        "seed": str(config.seed),
        "strategy": config.strategy,
        "config": {**config.to_dict(), "seed": str(config.seed)},
    }
    if extra:
        summary.update(extra)
    return summary


def played_by(
    batch_fn: BatchFunction, config: RunConfig, batch: Sequence[Any]
) -> tuple[str, list[StoredGame]]:
    """Play a batch where it runs (a local process, a Dask worker) and say which player played it:
    the fingerprint of that process's code (:func:`~minesat.provenance.player_fingerprint`)."""
    return player_fingerprint(config.strategy), batch_fn(config, batch)


def check_player(store: GameStore, player: str, *, mix_players: bool = False) -> None:
    """Refuse (:class:`~minesat.store.PlayerMismatchError`) to add ``player``'s games to a store
    that holds another player's, unless ``mix_players``; nothing is written either way.

    Games stored before minesat recorded players are of an unknown player, which is another.
    """
    others = {fp: n for fp, n in store.players().items() if fp != player}
    if not others or mix_players:
        return
    held = "; ".join(
        f"{n:,} game{'s' if n != 1 else ''} of "
        + (f"player {short(fp)}" if fp else "an unknown player (stored before minesat recorded players)")
        for fp, n in others.items()
    )
    raise PlayerMismatchError(
        f"{store.path} holds {held}, and this minesat's player is {short(player)}: resuming would mix "
        "two players' games in one win rate", path=str(store.path),
        advice="use another {db}, or {mix_players} to add them beside (the report keeps each player's "
        "games apart)",
    )


def player_tallies(store: GameStore, stop: int | None = None) -> list[tuple[str | None, Tally]]:
    """Each player's games of ``store`` (those below ``stop``) counted apart, in the order the
    players first stored games: a store that holds several players' games (``mix_players``) is
    several runs, and no win rate mixes them."""
    return [(player, Tally().update(store.games(stop, player=player))) for player in store.players()]


def player_rows(tallies: Sequence[tuple[str | None, Tally]], this: str) -> list[dict[str, object]]:
    """The ``players`` of a summary: per player of the store, its fingerprint, games, wins, win
    rate and Wilson interval, and whether it is this minesat's."""
    rows: list[dict[str, object]] = []
    for player, tally in tallies:
        lo, hi = wilson(tally.wins, tally.games)
        rows.append({"player": player, "this": player == this, "games": tally.games, "wins": tally.wins,
                     "win_rate": tally.win_rate, "ci95": [lo, hi]})  # fmt: skip
    return rows


def check_batch(player: str, session: Session) -> None:
    """Refuse a batch played by other code than this run's (a worker with another minesat)."""
    if player != session.player:
        raise PlayerMismatchError(
            f"a worker played a batch with player {short(player)}, but this run's player is "
            f"{short(session.player)} (other minesat code on that worker): its games are refused",
            advice="install the same minesat on every worker and run again",
        )


def index_batches(indices: Iterator[int], size: int) -> Iterator[list[int]]:
    """Game indices in lists of ``size`` (the last may be shorter), drawn lazily.

    >>> list(index_batches(iter(range(5)), 2))
    [[0, 1], [2, 3], [4]]
    """
    while batch := list(itertools.islice(indices, size)):
        yield batch


def check_counts(
    games: int, *, workers: int | None = 1, batch_size: int | None = None, seed: int = 0
) -> None:
    """Refuse, as the command line does, a number of games outside 0..:data:`MAX_GAMES`, fewer than
    one worker or game per batch, or a negative seed: :class:`~minesat.errors.InvalidValue` naming
    the parameter.

    >>> check_counts(10, seed=-1)
    Traceback (most recent call last):
    minesat.errors.InvalidValue: seed: must be a whole number >= 0, not -1
    """
    if not 0 <= games <= MAX_GAMES:
        raise InvalidValue(f"must be between 0 and {MAX_GAMES}, not {games}", parameter="games", value=games)
    if workers is not None and workers < 1:
        raise InvalidValue(f"must be >= 1 (or None for every core), not {workers}", parameter="workers",
                           value=workers)  # fmt: skip
    if batch_size is not None and batch_size < 1:
        raise InvalidValue(f"must be >= 1, not {batch_size}", parameter="batch_size", value=batch_size)
    if seed < 0:
        raise InvalidValue(f"must be a whole number >= 0, not {seed}", parameter="seed", value=seed)


def check_config(config: RunConfig) -> None:
    """Raise :class:`ValueError` for a configuration no game can be played with."""
    config.spec.check()
    get_strategy(config.strategy)


# --- the run ---------------------------------------------------------------------------


@dataclass
class _Progress:
    callback: ProgressCallback | None
    to_play: int
    played: int = 0
    tally: Tally = field(default_factory=Tally)

    def add(self, games: list[StoredGame]) -> None:
        self.played += len(games)
        self.tally.update(games)
        if self.callback is not None:
            self.callback(self.played, self.to_play, self.tally)


def run(
    config: RunConfig,
    games: int,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    store: GameStore | None = None,
    batch_size: int | None = None,
    progress: ProgressCallback | None = None,
    batch_fn: BatchFunction | None = None,
    boards: str | os.PathLike[str] | None = None,
    mix_players: bool = False,
) -> dict[str, object]:
    """Play games ``0 .. games-1`` of the run ``config`` and return the summary.

    - ``workers``: local processes; 1, the default, plays in this process, ``None`` on
      every core (what ``minesat simulate`` does). Worker processes import the script
      that starts them: from a script, call ``run`` under ``if __name__ == "__main__":``
      (:class:`~minesat.executors.MainGuardMissing` says so otherwise).
    - ``scheduler``: a Dask scheduler address (``tcp://host:port``); ``workers``
      is then ignored and the cluster's threads set the pace.
    - ``store``: games already in it are skipped, new ones are added batch by
      batch, and the summary is computed from it. Without a store the summary
      is tallied from the results as they arrive.
    - ``batch_size``: games per task (default: enough batches to keep every
      worker busy, at most :data:`MAX_BATCH` games).
    - ``progress(played, to_play, tally)``: once before the first batch, then
      after every stored batch.
    - ``batch_fn``: plays a batch; tests inject stand-ins, runs keep the default
      (:func:`play_indices`, or :func:`play_boards` for a board set).
    - ``boards``: the board-set file of a run whose ``config.boards`` is set
      (see :func:`board_run_config`); game *i* is its line *i*.
    - ``mix_players``: add games to a store that holds another player's (see
      :func:`check_player`); refused by default, before anything is played.

    Every batch comes back with the fingerprint of the player that played it
    (:func:`played_by`); one from another player than this process's (a Dask
    worker with other code) stops the run with :class:`~minesat.store.PlayerMismatchError`,
    the batches stored before it kept. The store records each game's session
    (:mod:`minesat.provenance`).
    """
    check_counts(games, workers=workers, batch_size=batch_size, seed=config.seed)
    if (boards is None) != (config.boards is None):
        raise InvalidValue("a board-set run needs its file (boards=...), and only a board-set run takes one")
    if batch_fn is None:
        batch_fn = play_indices if boards is None else play_boards
    check_config(config)
    if store is not None and store.config != config:
        raise InvalidValue(f"the store holds {store.config.label()}, not {config.label()}")
    if store is not None:
        check_player(store, player_fingerprint(config.strategy), mix_players=mix_players)
    began = time.perf_counter()

    to_play = games - store.count(games) if store is not None else games
    todo = store.missing(games) if store is not None else iter(range(games))

    state = _Progress(progress, to_play)
    with worker_pool(workers, scheduler, to_play) as (executor, slots):
        session = new_session(config.strategy, scheduler if scheduler is not None else slots)
        if batch_size is None:
            batch_size = default_batch_size(to_play, slots)
        batches: Iterator[list[Any]] = (
            index_batches(todo, batch_size) if boards is None else _board_batches(boards, todo, batch_size)
        )
        if progress is not None:
            progress(0, to_play, state.tally)  # the total is known before the first batch ends
        with store.lock() if store is not None else contextlib.nullcontext():
            calls = ((None, played_by, (batch_fn, config, batch)) for batch in batches)
            for _, (player, games_done) in run_bounded(executor, calls, in_flight(slots)):
                check_batch(player, session)
                if store is not None:
                    store.add(games_done, session)
                state.add(games_done)
    seconds = time.perf_counter() - began

    tallies = player_tallies(store, games) if store is not None else [(session.player, state.tally)]
    if len(tallies) > 1:
        # A mixed store: the figures are this minesat's player's games, each other player's apart.
        tally = dict(tallies).get(session.player) or Tally()
    else:
        tally = tallies[0][1] if tallies else state.tally
    extra: dict[str, object] = {
        "workers": None if scheduler is not None else slots,
        "scheduler": scheduler,
        "batch_size": batch_size,
        "db": str(store.path) if store is not None else None,
        "player": session.player,
        "players": player_rows(tallies, session.player),
    }
    return summarize(config, tally, played=state.played, seconds=seconds, extra=extra)


# --- the short road -------------------------------------------------------------------------


class Games(tuple[StoredGame, ...]):
    """The games of a run, in index order: a tuple whose ``repr`` is a line, not every game.

    >>> Games(())
    Games(0 games)
    """

    __slots__ = ()

    def __repr__(self) -> str:
        if not self:
            return "Games(0 games)"
        won = sum(g.won for g in self)
        return (f"Games({len(self):,} game{'s' if len(self) != 1 else ''}, indices {self[0].index}.."
                f"{self[-1].index}: {won:,} won, {len(self) - won:,} lost)")  # fmt: skip


@dataclass(frozen=True)
class Simulation:
    """The games :func:`simulate` played: the run's ``config``, its ``summary`` (the keys of
    ``simulate --json``) and the stored ``games``, in index order."""

    config: RunConfig
    summary: dict[str, object] = field(repr=False)
    games: Games = field(repr=False)

    def records(self, *, guesses: bool = False) -> list[dict[str, Any]]:
        """One record per game (or per guess), as ``minesat export`` writes them, for
        ``pandas.DataFrame(simulation.records())`` (the keys: docs/commands/export.md)."""
        from minesat.export import game_records

        return list(game_records(self.games, self.config, guesses=guesses))

    @property
    def win_rate(self) -> float:
        return float(cast(float, self.summary["win_rate"]))

    def __repr__(self) -> str:
        lo, hi = cast("tuple[float, float]", self.summary["ci95"])
        return (
            f"Simulation({self.config.spec}, {self.config.strategy}, seed {self.config.seed}: "
            f"{len(self.games):,} games, {percent(self.win_rate)} won (95 % interval {percent(lo)} to "
            f"{percent(hi)}))"
        )


def simulate(
    board: str | BoardSpec | RunConfig = "expert",
    games: int = 200,
    *,
    seed: int = 0,
    strategy: str = DEFAULT_STRATEGY,
    rule: FirstClick | str = FirstClick.OPENING,
    start: Cell | str | None = None,
    workers: int | None = 1,
    db: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    mix_players: bool = False,
) -> Simulation:
    """Play games ``0 .. games-1`` on a board and return them: ``minesat.simulate("expert", 200)``.

    ``board`` is a preset's name (``beginner``, ``intermediate``, ``expert``), a
    :class:`~minesat.generate.BoardSpec` (its rule and start win over ``rule`` and ``start``),
    or a whole :class:`~minesat.store.RunConfig` (which carries its seed and strategy too).
    ``start`` defaults to D4, clipped to the board. The games are those ``minesat simulate``
    plays with the same options; ``db`` keeps them in a store (a run there resumes),
    otherwise they live in a temporary one for the call. ``workers``: as :func:`run`.
    ``mix_players`` resumes a ``db`` that holds another player's games (refused otherwise:
    :class:`~minesat.store.PlayerMismatchError`). The bounds are the command line's: ``games``
    from 0 to :data:`MAX_GAMES`, ``seed`` >= 0, ``workers`` >= 1 or None; every error names
    this function's parameters (``board=``, ``db=``, ``mix_players=``).

    >>> sim = simulate("beginner", 3, seed=1)
    >>> sim.config.spec, len(sim.records()), sorted(sim.records()[0])[:4]
    (BoardSpec(9, 9, 10, rule='opening', start='D4'), 3, ['analyses', 'bbbv', 'boards', 'cols'])
    """
    check_counts(games, workers=workers, seed=board.seed if isinstance(board, RunConfig) else seed)
    if isinstance(board, RunConfig):
        config = board
    else:
        try:
            spec = BoardSpec.preset(board, rule=rule, start=start) if isinstance(board, str) else board
        except InvalidValue as err:
            if err.parameter != "name":
                raise
            # The preset is this function's board= (BoardSpec.preset calls it name=).
            raise InvalidValue(err.message, parameter="board", value=err.value, choices=err.choices) from None
        if not isinstance(spec, BoardSpec):
            raise TypeError(f"board must be a preset's name, a BoardSpec or a RunConfig, not {board!r}")
        where = spec.start if spec.start is not None else default_start(spec.rows, spec.cols)
        config = RunConfig(spec.rows, spec.cols, spec.mines, rule=spec.rule, start=where, seed=seed,
                           strategy=strategy)
    with contextlib.ExitStack() as stack:
        if db is None:
            db = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="minesat-"))) / "games.sqlite"
        store = stack.enter_context(GameStore(db, config))
        summary = run(config, games, workers=workers, store=store, progress=progress, mix_players=mix_players)
        return Simulation(config, summary, Games(store.games(games)))
