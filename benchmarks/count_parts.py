"""The component count of two versions on the parts real games count: the same results, and the time.

    python benchmarks/count_parts.py --old OLD_SRC [--new NEW_SRC] [--games 300] [--seed 0]
        [--repeat 5] [--search-nodes 2000 ...]

``best`` plays expert games (16x30, 99 mines, an opening at 3,3) of ``--seed`` under this
checkout's code, and every part its small road counts (``count_with_layouts``) is kept. Each
version's ``analysis/counting.py`` (``OLD_SRC`` and ``NEW_SRC`` are ``src`` folders; ``--new``
defaults to this checkout's) then counts all of them, the two alternating ``--repeat`` times in
one process; the least CPU time of each is printed, with their ratio, the parts, and the parts
whose results differ (the counts by mine total, each cell's, and the layouts listed box by box,
compared as plain tuples) at each node limit of ``--search-nodes`` (the first is timed).
Nothing is asserted: this prints figures. The load of the machine is printed beside them.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve()


def load(src: Path, name: str) -> ModuleType:
    """One version's ``minesat/analysis/counting.py`` as a module of its own (the rest of minesat,
    which it imports, is this checkout's)."""
    spec = importlib.util.spec_from_file_location(name, src / "minesat" / "analysis" / "counting.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def parts_of_games(games: int, seed: int) -> list[Any]:
    """The components ``best``'s small road counts in expert games ``0..games-1`` of ``seed``."""
    from minesat.analysis import smallroad
    from minesat.generate import game_seed, generate_layout
    from minesat.player import get_strategy, play_game

    parts: list[Any] = []
    count = smallroad.count_with_layouts

    def keep(component: Any, budget: int, **options: Any) -> Any:
        parts.append((component, budget))
        return count(component, budget, **options)

    smallroad.count_with_layouts = keep  # type: ignore[assignment]
    try:
        for index in range(games):
            game = game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=seed, index=index)
            layout = generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=game)
            play_game(layout, (3, 3), strategy=get_strategy("best"), rule="opening")
    finally:
        smallroad.count_with_layouts = count
    return parts


def plain(found: Any) -> Any:
    """A result as plain tuples (two versions' classes never compare equal)."""
    if found is None:
        return None
    count, layouts = found
    cells = tuple((cell, tuple(row)) for cell, row in sorted(count.mine_ways.items()))
    listed = None if layouts is None else (layouts.boxes, layouts.fills, layouts.ways)
    return tuple(count.ways), cells, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--new", type=Path, default=HERE.parent.parent / "src")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--search-nodes", type=int, nargs="+", default=[2000])
    args = parser.parse_args()
    parts = parts_of_games(args.games, args.seed)
    old, new = load(args.old, "counting_old"), load(args.new, "counting_new")
    for nodes in args.search_nodes:
        differ = sum(
            plain(old.count_with_layouts(part, budget, search_nodes=nodes))
            != plain(new.count_with_layouts(part, budget, search_nodes=nodes))
            for part, budget in parts
        )
        print(f"node limit {nodes}: {len(parts)} parts, {differ} with different results")
    nodes = args.search_nodes[0]
    best = {"old": float("inf"), "new": float("inf")}
    gc.collect()
    gc.freeze()  # the parts kept are not collected again and again
    for round_ in range(args.repeat):
        for side in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
            module = old if side == "old" else new
            began = time.process_time()
            for part, budget in parts:
                module.count_with_layouts(part, budget, search_nodes=nodes)
            best[side] = min(best[side], time.process_time() - began)
    print(f"count of the {len(parts)} parts, least CPU of {args.repeat}: old {best['old']:.3f} s, "
          f"new {best['new']:.3f} s, ratio {best['new'] / best['old']:.2f} "
          f"(load {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
