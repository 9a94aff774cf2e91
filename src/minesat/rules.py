"""The rules a run was played by, in words: the board, the mines, the first-click rule and the
first click, by its name and by its 0-based index, so a reader of a report (or of its JSON)
knows what game was measured without minesat's docs. Every report carries them
(docs/commands/report.md, JSON key ``rules``).

Other players' figures are published under other rules and other ways of naming a cell
(MineSweeperProb writes ``FL@[4,4]``, 1-based, for minesat's D4): a figure is only
comparable once the rules are said.

>>> r = run_rules({"rows": 16, "cols": 30, "mines": 99, "rule": "opening", "start": [3, 3]})
>>> r["start"], r["start_index"], r["first_click"]
('D4', [3, 3], 'opening')
>>> print(start_text(r))
D4 (row 3, column 3, counted from 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from minesat.board import cell_name

__all__ = ["COORDINATES", "RULE_WORDS", "rules_lines", "rules_object", "run_rules", "start_text"]

#: What each first-click rule promises, and how the mines are drawn.
RULE_WORDS = {
    "opening": "the first cell clicked and all its neighbours (8, fewer at an edge or corner) hold no "
    "mine, so the first click opens an area; the mines are drawn uniformly at random among the other cells",
    "safe": "the first cell clicked holds no mine; the mines are drawn uniformly at random among the "
    "other cells",
    "any": "no promise: the mines are drawn uniformly at random among all the cells, and the first click "
    "may hit one",
}

#: How cells are named and counted, once for every report.
COORDINATES = (
    "A cell's name is its row as letters (A is the top row, then B, ..., Z, AA) followed by its column "
    "counted from 1 (D4 is the 4th row's 4th cell); its 0-based index counts rows and columns from 0 "
    "(D4 is row 3, column 3, written 3,3)."
)

#: A board-set run plays the boards of its file as they are.
BOARD_SET = ("the boards of a board set are played as they are (each checked to keep the rule's "
             "promise at the first click); no mine is moved")  # fmt: skip


def run_rules(config: Mapping[str, Any]) -> dict[str, Any]:
    """The rules of one run (a run configuration as a report holds it) as a JSON-ready object:
    ``rows``, ``cols``, ``mines``, ``first_click`` (the rule's name), ``first_click_rule`` (what it
    promises, in words), ``start`` (the first click's name), ``start_index`` (``[row, col]``, 0-based),
    and for a board-set run ``boards`` (how its boards are played)."""
    start = (int(config["start"][0]), int(config["start"][1]))
    rule = str(config["rule"])
    out: dict[str, Any] = {
        "rows": config["rows"],
        "cols": config["cols"],
        "mines": config["mines"],
        "first_click": rule,
        "first_click_rule": RULE_WORDS.get(rule, rule),
        "start": cell_name(start),
        "start_index": list(start),
    }
    if config.get("boards"):
        out["boards"] = BOARD_SET
    return out


def start_text(rules: Mapping[str, Any]) -> str:
    """The first click by name and by index: ``D4 (row 3, column 3, counted from 0)``."""
    row, col = rules["start_index"]
    return f"{rules['start']} (row {row}, column {col}, counted from 0)"


def rules_object(runs: Iterable[tuple[str, Mapping[str, Any] | None]], key: str = "runs") -> dict[str, Any]:
    """The ``rules`` object of a report's JSON: ``coordinates`` (how cells are named),
    ``first_click`` (each rule the runs use, in words) and ``runs`` (each ``(label, config)``'s
    rules, with ``run`` its label; a run of unknown configuration is left out). A sweep's lists
    its curves under ``curves``, each with its mine counts."""
    listed = [{"run": label, **run_rules(config)} for label, config in runs if config is not None]
    used = dict.fromkeys(r["first_click"] for r in listed)
    return {
        "coordinates": COORDINATES,
        "first_click": {rule: RULE_WORDS.get(rule, rule) for rule in used},
        key: listed,
    }


def rules_lines(rules: Mapping[str, Any]) -> list[str]:
    """The rules in sentences, for Markdown and HTML: each run's board and first click (one line
    when every run shares them), each rule used defined, then how cells are named."""
    runs = rules.get("runs", rules.get("curves", []))
    lines = []
    shared = {(r["rows"], r["cols"], str(r["mines"]), r["first_click"], r["start"]) for r in runs}
    for r in runs[:1] if len(shared) == 1 else runs:
        who = "A" if len(shared) == 1 else f"{r['run']}: a"
        mines = r["mines"] if isinstance(r["mines"], int) else ", ".join(map(str, r["mines"]))
        lines.append(f"{who} {r['rows']} x {r['cols']} board with {mines} mines; first click "
                     f"{r['first_click']} at {start_text(r)}.")  # fmt: skip
    for rule, words in rules["first_click"].items():
        lines.append(f"First click {rule}: {words}.")
    if any("boards" in r for r in runs):
        lines.append(f"A board-set run: {BOARD_SET}.")
    lines.append(rules["coordinates"])
    return lines
