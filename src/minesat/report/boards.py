"""The boards a paired comparison names, as layout files beside the report, each with the
``minesat solve`` commands that replay it with both runs' strategies.

A store keeps outcomes, not layouts, but a seeded run's game *i* is generated
again from its seed: so the first boards only A won, and only B won, can be
written out and played again by anyone. (A run over a board set names its
boards by line: the file is the user's.)

>>> from minesat.report.paired import Paired
>>> p = Paired("a", "b", 4, 1, 1, 1, 1, only_a_games=(2,), only_b_games=(0,), seeds={2: 7, 0: 9})
>>> config = dict(rows=9, cols=9, mines=10, rule="opening", start=[3, 3], seed=0, strategy="best")
>>> [(b.index, b.won_by, b.seed) for b in paired_boards(p, config)]
[(2, 'a', 7), (0, 'b', 9)]
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from minesat.report.paired import Paired

__all__ = ["PairedBoard", "paired_boards", "write_boards"]


@dataclass(frozen=True)
class PairedBoard:
    """A board one run of a pair won and the other lost."""

    index: int  # its index in both runs ("game" in the JSON)
    won_by: str  # the label of the run that won it
    seed: int | None  # its layout seed (None: a board set's line)
    layout: str | None = None  # the layout file written beside the report, if any
    replay: tuple[str, ...] = ()  # minesat solve with A's strategy, then with B's

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.index,
            "won_by": self.won_by,
            "seed": None if self.seed is None else str(self.seed),
            "layout": self.layout,
            "replay": list(self.replay),
        }


def paired_boards(p: Paired, config: Mapping[str, Any] | None) -> list[PairedBoard]:
    """The first boards only A won, then only B won, with their seeds (no files written)."""
    seeded = config is not None and not config.get("boards")
    out = []
    for games, label in ((p.only_a_games, p.a), (p.only_b_games, p.b)):
        out += [PairedBoard(g, label, p.seeds.get(g) if seeded else None) for g in games]
    return out


def write_boards(
    boards: list[PairedBoard], config: Mapping[str, Any], strategies: tuple[str, str], out: str | Path
) -> list[PairedBoard]:
    """Write each seeded board as ``<out stem>-board-<game>.txt`` beside ``out`` and give it the
    two ``minesat solve`` commands that replay it; return the boards with their files."""
    from minesat.formats import write_layout
    from minesat.generate import generate_layout

    out = Path(out)
    start = (int(config["start"][0]), int(config["start"][1]))
    written = []
    for board in boards:
        if board.seed is None:
            written.append(board)
            continue
        layout = generate_layout(config["rows"], config["cols"], config["mines"], start=start,
                                 rule=config["rule"], seed=board.seed)  # fmt: skip
        path = out.with_name(f"{out.stem}-board-{board.index}.txt")
        path.parent.mkdir(parents=True, exist_ok=True)
        write_layout(layout, path)
        replay = tuple(
            shlex.join(["minesat", "solve", str(path), "--first-click", str(config["rule"]),
                        "--start", f"{start[0]},{start[1]}", "--strategy", strategy])
            for strategy in strategies
        )  # fmt: skip
        written.append(replace(board, layout=str(path), replay=replay))
    return written
