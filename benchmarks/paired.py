"""Variants of ``best`` played on the same boards, paired game by game: wins and time per game.

    python benchmarks/paired.py [--preset expert] [--games 2000] [--seed 0]
        [--first-click opening --start 3,3] [--settings best,best-no-longterm,2000:100000]
        [--workers 1] [--out FILE.jsonl]

A setting is a strategy name (``best``, ``best-no-lookahead``, ``best-with-pseudo``,
as ``minesat simulate --strategy`` takes them), optionally with knobs of the
look-ahead turned (``best+candidate_share=0.8+max_candidates=16``: :data:`KNOBS`), and followed by
``@LAYOUTS:STATES``: that strategy with its endgame search
(:func:`minesat.exact.endgame.endgame_move`) taking over when at most LAYOUTS
layouts fit the position, and giving up past STATES states (``none``: no
budget). A bare ``LAYOUTS:STATES`` is ``best@LAYOUTS:STATES``; ``default`` is
``best`` (its threshold depends on the board's size:
:func:`minesat.exact.endgame.endgame_limits`). The first setting is the
reference: every other one is paired with it game by game on the very same
boards (the layouts ``minesat simulate`` plays with the same options), with the
exact McNemar p. It prints, per setting, the wins, the win rate with its Wilson
95 % interval, the mean milliseconds per game (CPU time of this process's
games), the endgame searches cut by the budget, and the games it won or lost
alone against the reference.

``--out FILE`` appends one JSON line per game and setting (``game``, ``setting``,
``won``, ``seconds``, ``cut``); a run that finds FILE plays only what it lacks, so
a long run can be stopped and resumed, and a new setting can be added to a run
later without replaying the others. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import sys
import time
from pathlib import Path

from minesat.board import PRESETS
from minesat.generate import FirstClick, game_seed, generate_layout
from minesat.guess.best import BestGuess
from minesat.player import get_strategy, play_game
from minesat.stats import mcnemar_exact, wilson


def parse_setting(text: str) -> tuple[str, tuple[int, int | None] | None]:
    """A setting's strategy name and endgame limits (``None``: the strategy's own rule).

    >>> parse_setting("best-with-pseudo@500:none")
    ('best-with-pseudo', (500, None))
    >>> parse_setting("2000:100000"), parse_setting("default")
    (('best', (2000, 100000)), ('best', None))
    """
    if text == "default":
        return "best", None
    if ":" in text and "@" not in text:
        text = "best@" + text
    name, _, limits = text.partition("@")
    if not limits:
        return name, None
    layouts, _, states = limits.partition(":")
    return name, (int(layouts), None if states in ("", "none") else int(states))


#: The look-ahead's knobs a setting may turn: ``best+candidate_share=0.8``.
KNOBS = {"candidate_share": float, "max_candidates": int, "interior_samples": int, "influence_weight": float}


def make_strategy(setting: str) -> BestGuess:
    """The strategy a setting names, its endgame limits and knobs set; :class:`ValueError` if none.

    >>> make_strategy("best+candidate_share=0.8+max_candidates=16@500:none").candidate_share
    0.8
    """
    name, limits = parse_setting(setting)
    name, *knobs = name.split("+")
    strategy = get_strategy(name)
    if not isinstance(strategy, BestGuess):
        raise ValueError(f"{name!r} is not best or a variant of it")
    if limits is not None:
        strategy.endgame_limits = limits
    for knob in knobs:
        key, _, value = knob.partition("=")
        if key not in KNOBS:
            raise ValueError(f"unknown knob {key!r} (known: {', '.join(KNOBS)})")
        setattr(strategy, key, KNOBS[key](value))
    return strategy


def play_one(job: tuple[int, int, int, str, tuple[int, int], int, int, str]) -> dict[str, object]:
    rows, cols, mines, rule, start, seed, index, setting = job
    layout = generate_layout(
        rows, cols, mines, start=start, rule=rule,
        seed=game_seed(rows, cols, mines, rule=rule, start=start, seed=seed, index=index)
    )
    strategy = make_strategy(setting)
    began = time.process_time()
    record = play_game(layout, start, strategy=strategy, rule=rule)
    return {
        "game": index,
        "setting": setting,
        "won": record.won,
        "seconds": time.process_time() - began,
        "cut": record.searches_cut,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="expert", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0, help="first game index")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-click", default="opening", choices=[r.value for r in FirstClick])
    parser.add_argument("--start", default="3,3")
    parser.add_argument("--settings", default="best,best-no-longterm")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows, cols, mines = PRESETS[args.preset]
    try:
        start = tuple(int(x) for x in args.start.split(","))
        settings = args.settings.split(",")
        for s in settings:
            make_strategy(s)
    except ValueError as error:
        sys.exit(f"paired.py: bad --start or --settings: {error}")
    assert len(start) == 2
    indices = range(args.first, args.first + args.games)
    results: dict[tuple[int, str], dict[str, object]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                results[(r["game"], r["setting"])] = r
    jobs = [
        (rows, cols, mines, args.first_click, start, args.seed, i, s)
        for i in indices for s in settings if (i, s) not in results
    ]
    print(f"{args.preset} {rows}x{cols}/{mines}, {args.first_click} at {args.start}, seed {args.seed}, "
          f"games {args.first}..{args.first + args.games - 1}: {len(jobs)} games to play", flush=True)
    out = args.out.open("a") if args.out is not None else None
    with cf.ProcessPoolExecutor(args.workers) as pool:
        for done, r in enumerate(pool.map(play_one, jobs, chunksize=8), 1):
            results[(int(r["game"]), str(r["setting"]))] = r  # type: ignore[call-overload]
            if out is not None:
                out.write(json.dumps(r) + "\n")
                out.flush()
            if done % 500 == 0:
                print(f"  {done}/{len(jobs)}", file=sys.stderr, flush=True)
    if out is not None:
        out.close()
    reference = settings[0]
    width = max(len(s) for s in [*settings, "setting"])
    print(f"{'setting':>{width}} {'wins':>7} {'win rate':>9} {'95% CI':>17} {'ms/game':>8} {'cut':>6}"
          f" {'only this / only ' + reference:>24} {'McNemar p':>10}")
    for s in settings:
        rows_of = [results[(i, s)] for i in indices]
        wins = sum(bool(r["won"]) for r in rows_of)
        lo, hi = wilson(wins, len(rows_of))
        ms = 1000 * sum(float(r["seconds"]) for r in rows_of) / len(rows_of)  # type: ignore[arg-type]
        cut = sum(int(r["cut"]) for r in rows_of)  # type: ignore[call-overload]
        only = sum(bool(results[(i, s)]["won"]) and not results[(i, reference)]["won"] for i in indices)
        only_ref = sum(not results[(i, s)]["won"] and bool(results[(i, reference)]["won"]) for i in indices)
        pair = f"{only} / {only_ref}" if s != reference else "-"
        p = f"{mcnemar_exact(only, only_ref):.3g}" if s != reference else "-"
        print(f"{s:>{width}} {wins:>7} {wins / len(rows_of):>9.2%} {f'[{lo:.2%}, {hi:.2%}]':>17} {ms:>8.1f} "
              f"{cut:>6} {pair:>24} {p:>10}")


if __name__ == "__main__":
    main()
