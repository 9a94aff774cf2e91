"""Seeded games recorded move for move: the player's behaviour, pinned across engine changes.

``python3 tests/game_fixture.py`` rewrites ``tests/fixtures/games.json`` from the
current player; ``tests/test_same_games.py`` replays the same games and compares
them game for game. Rewrite the fixture only when a change is *meant* to change
the games (a new strategy default, a new tie-break), never to make a speed-up pass.

Each record keeps what a game's outcome depends on: won, cells uncovered, the
every move (as a digest: the lists are long) and every
guess with its probability written with full float precision (``repr``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from minesat.board import Move
from minesat.generate import game_seed, generate_layout
from minesat.player import GameRecord, get_strategy, play_game

FIXTURE = Path(__file__).parent / "fixtures" / "games.json"

#: (label, rows, cols, mines, rule, start, strategy, games): a few hundred games
#: over small, middle and large boards, every first-click rule and both safest players.
SUITES: list[tuple[str, int, int, int, str, tuple[int, int], str, int]] = [
    ("beginner", 9, 9, 10, "opening", (2, 2), "safest", 150),
    ("beginner-any", 9, 9, 10, "any", (0, 0), "safest", 50),
    ("intermediate", 16, 16, 40, "opening", (3, 3), "safest", 60),
    ("expert", 16, 30, 99, "opening", (3, 3), "safest", 80),
    ("expert-safe", 16, 30, 99, "safe", (8, 15), "safest-rowmajor", 20),
    ("dense", 12, 12, 36, "opening", (5, 5), "safest", 40),
]


def digest(moves: tuple[Move, ...]) -> str:
    """A short, order-sensitive fingerprint of a move list (in SPEC notation)."""
    return hashlib.sha256(" ".join(map(str, moves)).encode()).hexdigest()[:16]


def summary(record: GameRecord) -> dict[str, Any]:
    """What the fixture keeps of one game (no wall time: it is no part of the promise)."""
    return {
        "won": record.won,
        "uncovered": record.uncovered,
        "moves": len(record.moves),
        "digest": digest(record.moves),
        "guesses": [[str(g.move), repr(g.probability)] for g in record.guesses],
    }


def play_suite(
    rows: int, cols: int, mines: int, rule: str, start: tuple[int, int], strategy: str, games: int
) -> list[dict[str, Any]]:
    """Play games 0..games-1 of a seed-0 run with these options, summarised."""
    out = []
    for i in range(games):
        seed = game_seed(rows, cols, mines, rule=rule, start=start, seed=0, index=i)
        layout = generate_layout(rows, cols, mines, start=start, rule=rule, seed=seed)
        record = play_game(layout, start, strategy=get_strategy(strategy), rule=rule)
        out.append(summary(record))
    return out


def main() -> None:
    data = {
        label: play_suite(rows, cols, mines, rule, start, strategy, games)
        for label, rows, cols, mines, rule, start, strategy, games in SUITES
    }
    # One game a line: a diff of the fixture shows which games changed.
    lines = ["{"]
    for n, (label, games) in enumerate(data.items()):
        lines.append(f"{json.dumps(label)}: [")
        lines += [json.dumps(g) + ("," if i < len(games) - 1 else "") for i, g in enumerate(games)]
        lines.append("]" + ("," if n < len(data) - 1 else ""))
    lines.append("}")
    FIXTURE.write_text("\n".join(lines) + "\n")
    print(f"wrote {FIXTURE}: {sum(len(v) for v in data.values())} games")


if __name__ == "__main__":
    main()
