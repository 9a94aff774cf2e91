"""One report, whole: its runs, how they compare, the published figures beside them, and what a
reader must not miss (docs/commands/report.md). Every renderer draws a :class:`Report`.

>>> from minesat.tally import summarize
>>> r = make_report([summarize([], label="a"), summarize([], label="a")])
>>> [s.label for s in r.runs], r.compared, r.warnings
(['a #1', 'a #2'], (), ())
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from minesat.board import cell_name
from minesat.report.boards import PairedBoard, paired_boards
from minesat.report.paired import ALPHA, Compared, Paired
from minesat.report.references import Reference, ReferenceMatch, match_references
from minesat.rules import rules_object
from minesat.tally import Summary

__all__ = [
    "Report", "as_report", "compare_unpaired", "make_report", "multiplicity_note", "player_notes",
    "report_warnings",
    "unique_labels",
]  # fmt: skip


@dataclass(frozen=True, repr=False)
class Report:
    """Everything one report says; its ``repr`` is one line."""

    runs: tuple[Summary, ...]
    paired: tuple[Paired, ...] = ()
    compared: tuple[Compared, ...] = ()
    references: tuple[ReferenceMatch, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    #: For each paired entry, the first boards only one of the two runs won.
    boards: tuple[tuple[PairedBoard, ...], ...] = ()

    def __repr__(self) -> str:
        parts = [f"{len(self.runs)} run{'s' if len(self.runs) != 1 else ''}"]
        for name, items in (("paired", self.paired), ("compared", self.compared),
                            ("references", self.references), ("warnings", self.warnings)):  # fmt: skip
            if items:
                parts.append(f"{len(items)} {name}")
        return f"Report({', '.join(s.label for s in self.runs)}: {', '.join(parts)})"

    def run(self, label: str) -> Summary | None:
        """The run of that label."""
        return next((s for s in self.runs if s.label == label), None)

    @property
    def rules(self) -> dict[str, Any]:
        """The rules the runs were played by (:func:`~minesat.rules.rules_object`)."""
        return rules_object((s.label, s.config) for s in self.runs)


def unique_labels(summaries: Sequence[Summary]) -> list[Summary]:
    """Give runs that share a label distinct ones (their source path), for legends and tables."""
    counts = Counter(s.label for s in summaries)
    sources = Counter(s.source for s in summaries if counts[s.label] > 1)
    out = []
    for i, s in enumerate(summaries):
        if counts[s.label] > 1:
            s = replace(s, label=s.source if s.source and sources[s.source] == 1 else f"{s.label} #{i + 1}")
        out.append(s)
    return out


def _board(config: dict[str, Any] | None) -> tuple[Any, ...] | None:
    if config is None:
        return None
    return (config["rows"], config["cols"], config["mines"], config["rule"], tuple(config["start"]))


def _board_text(s: Summary) -> str:
    c = s.config
    if c is None:
        return "board unknown"
    where = cell_name((int(c["start"][0]), int(c["start"][1])))
    return f"{c['rows']}x{c['cols']}/{c['mines']}, {c['rule']} at {where} ({c['start'][0]},{c['start'][1]})"


def report_warnings(runs: Sequence[Summary], paired: Sequence[Paired]) -> list[str]:
    """What a reader comparing the runs would otherwise miss (docs/commands/report.md), one sentence each:
    runs of unequal game counts, or of other boards or rules, side by side; an incomplete run;
    a store whose games were played by several players."""
    out = []
    shown = [s for s in runs if s.games]
    if len({s.games for s in shown}) > 1:
        counts = ", ".join(f"{s.label} {s.games:,}" for s in shown)
        pairs = "; ".join(f"{p.a} and {p.b} are paired on the {p.games:,} boards both played"
                          for p in paired)  # fmt: skip
        out.append(f"The runs have unequal numbers of games ({counts}): their win rates are not equally "
                   "precise, so compare their intervals, not the rates alone"
                   + (f"; {pairs}." if pairs else "."))  # fmt: skip
    if len({_board(s.config) for s in shown}) > 1:
        boards = "; ".join(f"{s.label}: {_board_text(s)}" for s in shown)
        out.append(f"The runs are of other board options or rules ({boards}): their win rates measure "
                   "different games, so a difference between them says nothing about the players.")
    for s in runs:
        if s.players_in_store > 1:
            # A player's part of a mixed store: resuming the store would add nothing to it (every
            # index below the highest is stored, by one player or another), so the advice is a new store.
            part = (f"; it is not a run from game 0 ({s.games:,} games among indices 0..{s.index_max:,}): "
                    "its whole run needs a store of its own, the command under Reproduce with another --db"
                    if s.games and not s.complete else "")  # fmt: skip
            out.append(f"{s.label} holds the games of one of {s.players_in_store} players of its store "
                       f"({s.source}): each player's games are a run of their own here{part}.")  # fmt: skip
        elif s.games and not s.complete:
            out.append(f"{s.label} is an incomplete run: {s.games:,} games stored out of indices "
                       f"0..{s.index_max:,}; resume it with the command under Reproduce.")  # fmt: skip
    return out


def player_notes(runs: Sequence[Summary]) -> list[str]:
    """Runs of the same options (boards, rules, seed and strategy) played by different players,
    one sentence each: whether their games are the same (equal ``games_sha256``, which leaves
    the player out) or not, so a replication with other code says what it replicated."""
    from minesat.provenance import short

    out = []
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if a.config is None or a.config != b.config or not a.games or a.games != b.games:
                continue
            pa, pb = a.provenance or {}, b.provenance or {}
            if pa.get("player") == pb.get("player") or "games_sha256" not in pa or "games_sha256" not in pb:
                continue
            players = f"players {short(pa.get('player'))} and {short(pb.get('player'))}"
            both = f"{a.label} and {b.label}"
            if pa["games_sha256"] == pb["games_sha256"]:
                digest = str(pa["games_sha256"])[:12]
                out.append(f"{both} hold the same {a.games:,} games (SHA-256 {digest}…), played by "
                           f"{players}: other code, the same games.")
            else:
                out.append(f"{both} are the same run's {a.games:,} games played by {players}, and the "
                           "games differ (their SHA-256 differ): the change of code changed moves.")
    return out  # fmt: skip


def multiplicity_note(paired: Sequence[Paired], references: Sequence[ReferenceMatch]) -> str | None:
    """With several tests in one report, how many would pass 0.05 by chance alone, and which
    remain significant after Holm's correction (Holm 1979: the k-th smallest of m p-values is
    held against 0.05 / (m - k + 1), stopping at the first that fails); None for one test or none.

    >>> from minesat.report.paired import Paired
    >>> tests = [Paired("a", "b", 300, 120, 40, 10, 130), Paired("a", "c", 300, 120, 32, 17, 131),
    ...          Paired("b", "c", 300, 120, 32, 17, 131)]       # p = 2.4e-5, 0.044 and 0.044
    >>> print(multiplicity_note(tests, []))  # doctest: +NORMALIZE_WHITESPACE
    This report makes 3 tests (3 paired comparisons), each at the 5 % level: were no difference real,
    0.15 of them would still come out significant on average. Holm's correction for 3 tests keeps
    1 of the 3 significant at 5 % overall: a vs b.
    """
    tests = [(f"{p.a} vs {p.b}", p.p_value) for p in paired]
    tests += [(f"{m.run} vs {m.reference.source}", m.p_value) for m in references if m.p_value is not None]
    if len(tests) < 2:
        return None
    m = len(tests)
    kept: list[str] = []
    for k, (name, p) in enumerate(sorted(tests, key=lambda t: t[1])):
        if p >= ALPHA / (m - k):
            break
        kept.append(name)
    significant = sum(p < ALPHA for _, p in tests)
    kinds = [f"{len(paired)} paired comparison{'s' if len(paired) != 1 else ''}"] if paired else []
    with_refs = m - len(paired)
    if with_refs:
        kinds.append(f"{with_refs} comparison{'s' if with_refs != 1 else ''} with published figures")
    said = (f"This report makes {m} tests ({' and '.join(kinds)}), each at the 5 % level: were no difference "
            f"real, {m * ALPHA:.2f} of them would still come out significant on average. ")
    if not significant:
        return said + "None is significant at 5 %, corrected or not."
    if not kept:
        return said + (f"Holm's correction for {m} tests keeps none of the {significant} significant at 5 % "
                       "overall: read them as suggestions, not findings.")
    return said + (f"Holm's correction for {m} tests keeps {len(kept)} of the {significant} significant at "
                   f"5 % overall: {', '.join(kept)}.")  # fmt: skip


def compare_unpaired(runs: Sequence[Summary], paired: Sequence[Paired]) -> list[Compared]:
    """Every two runs (with games) that are not paired, compared as independent samples."""
    linked = {frozenset((p.a, p.b)) for p in paired}
    shown = [s for s in runs if s.games]
    return [
        Compared(a.label, b.label, a.wins, a.games, b.wins, b.games)
        for i, a in enumerate(shown)
        for b in shown[i + 1:]
        if frozenset((a.label, b.label)) not in linked
    ]


def make_report(
    summaries: Sequence[Summary],
    paired: Sequence[Paired] = (),
    references: Sequence[Reference] = (),
    notes: Sequence[str] = (),
) -> Report:
    """The whole report over ``summaries`` (labels made unique), the pairs found among them
    (:func:`~minesat.report.paired.pair_runs`) and the references to set beside them."""
    runs = unique_labels(summaries)
    matches, unmatched = match_references(references, runs)
    by_label = {s.label: s for s in runs}
    boards = []
    for p in paired:
        a = by_label.get(p.a)
        boards.append(tuple(paired_boards(p, a.config if a is not None else None)))
    return Report(
        runs=tuple(runs),
        paired=tuple(paired),
        compared=tuple(compare_unpaired(runs, paired)),
        references=tuple(matches),
        warnings=tuple(report_warnings(runs, paired)),
        notes=(*notes, *unmatched, *player_notes(runs),
               *filter(None, [multiplicity_note(paired, matches)])),
        boards=tuple(boards),
    )


def as_report(runs: Report | Sequence[Summary], paired: Sequence[Paired] = ()) -> Report:
    """A :class:`Report` as it is, or one made of a sequence of summaries and their pairs."""
    return runs if isinstance(runs, Report) else make_report(runs, paired)
