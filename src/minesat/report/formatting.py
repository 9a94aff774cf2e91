"""Numbers and runs in words: percentages, intervals, durations, the rows every report shows.

>>> pct(0.5), ci_text((0.25, 0.75)), secs(0.0042)
('50.0 %', '25.0–75.0 %', '4.2 ms')
"""

from __future__ import annotations

from minesat.board import cell_name
from minesat.report.paired import Paired
from minesat.tally import Summary, preset_name
from minesat.words import agree, plural

__all__ = [
    "ci_text",
    "config_rows",
    "describe_config",
    "headline",
    "interval_points",
    "p_text",
    "paired_rows",
    "paired_text",
    "pct",
    "points",
    "secs",
]


def pct(x: float | None, digits: int = 1) -> str:
    """``0.5 -> '50.0 %'``; ``None -> '–'``."""
    return "–" if x is None else f"{100 * x:.{digits}f} %"


def ci_text(ci: tuple[float, float], digits: int = 1) -> str:
    """An interval of rates: ``25.0–75.0 %``."""
    return f"{100 * ci[0]:.{digits}f}–{100 * ci[1]:.{digits}f} %"


def secs(x: float) -> str:
    """Seconds with a unit that keeps 3 significant digits readable."""
    if x < 1e-3:
        return f"{x * 1e6:.0f} µs"
    if x < 1:
        return f"{x * 1e3:.3g} ms"
    return f"{x:.3g} s"


def describe_config(s: Summary) -> list[tuple[str, str]]:
    """(name, value) rows describing how a run was made."""
    rows: list[tuple[str, str]] = []
    c = s.config
    if c is not None:
        preset = preset_name(c)
        board = f"{c['rows']} rows × {c['cols']} columns, {c['mines']} mines"
        rows.append(("Board", f"{board} ({preset})" if preset else board))
        where = cell_name((int(c["start"][0]), int(c["start"][1])))
        index = f"{c['start'][0]},{c['start'][1]}"
        rows.append(("First click", f"{c['rule']} at {where} ({index} counted from 0)"))
        if c.get("boards"):
            rows.append(("Board set", f"the file of SHA-256 {c['boards']}"))
        else:
            rows.append(("Seed", str(c["seed"])))
        rows.append(("Strategy", str(c.get("strategy", "safest"))))
    if s.source:
        rows.append(("Database", s.source))
    return rows


def headline(s: Summary) -> list[tuple[str, str]]:
    """The key figures of one run, as (name, value) rows; also the comparison table's rows."""
    if not s.games:
        return [("Games", "0")]
    rows = [
        ("Games", f"{s.games:,}"),
        ("Won", f"{s.wins:,}"),
        ("Win rate", pct(s.win_rate)),
        ("95 % CI (Wilson)", ci_text(s.ci95)),
        ("Won with no guess", f"{pct(s.no_guess_share)} ({s.no_guess_wins:,})"),
        ("Guesses per game", f"{s.guesses_mean:.2f}"),
        ("Moves per game", f"{s.moves_mean:.1f}"),
        ("Mean 3BV", f"{sum(b.lo * b.games for b in s.bbbv) / s.games:.1f}"),
        # Not the mean share uncovered: losses come early (a first guess) or at the very end (the last
        # 50/50), and a mean of the two describes no lost game. The anatomy of losses shows both.
        ("Lost games with over 90 % of the safe cells uncovered", _late_losses(s)),
        ("Seconds per game (mean)", secs(s.seconds_mean)),
        ("Seconds per game (median ≈, p90 ≈)", f"{secs(s.seconds_median)}, {secs(s.seconds_p90)}"),
    ]
    return rows


def _late_losses(s: Summary) -> str:
    d = s.losses_detail
    if d is None or not s.losses:
        return "–"
    late = d.uncovered_at_death[-1]
    return f"{pct(late / s.losses)} ({late:,} of {s.losses:,})"


def config_rows(s: Summary) -> list[tuple[str, str]]:
    return [(k, v) for k, v in describe_config(s) if k != "Database"]




def p_text(p: float) -> str:
    """A p-value in few digits: ``0.0215``, ``4.1e-05``; tiny ones stay readable.

    >>> p_text(1.0), p_text(0.021484375), p_text(4.1e-05)
    ('1', '0.0215', '4.1e-05')
    """
    return f"{p:.3g}"


def points(d: float) -> str:
    """A difference of two rates in percentage points, signed: ``+2.28 points``."""
    return f"{100 * d:+.2f} points"


def interval_points(ci: tuple[float, float]) -> str:
    """An interval of a difference in points: ``+0.90 to +3.61 points``."""
    return f"{100 * ci[0]:+.2f} to {100 * ci[1]:+.2f} points"


def paired_rows(p: Paired) -> list[tuple[str, str]]:
    """(name, value) rows of a paired comparison, for Markdown and HTML alike."""
    n = p.games
    return [
        ("Games on the same boards", f"{n:,}"),
        ("Both won", f"{p.both:,}"),
        (f"Only {p.a} won", f"{p.only_a:,}"),
        (f"Only {p.b} won", f"{p.only_b:,}"),
        ("Neither won", f"{p.neither:,}"),
        (f"Win rate {p.a}", pct(p.a_wins / n if n else None)),
        (f"Win rate {p.b}", pct(p.b_wins / n if n else None)),
        (f"Difference ({p.a} − {p.b})", points(p.difference)),
        ("95 % CI of the difference (Newcombe, paired)", interval_points(p.difference_ci95)),
        ("McNemar p (exact, two-sided)", p_text(p.p_value)),
        ("Significant at 5 %", "yes" if p.significant else "no"),
    ]


def paired_text(p: Paired) -> str:
    """What the paired comparison found, in sentences that claim no more than the test allows.

    Each count stands beside the run it belongs to; a run is named stronger only
    when the exact McNemar p is below 0.05.

    >>> from minesat.report.paired import Paired
    >>> print(paired_text(Paired("best", "safest", 5000, 2500, 160, 46, 2294)))
    ... # doctest: +NORMALIZE_WHITESPACE
    Of 5,000 boards, 206 were won by one run only: only best won 160, only safest won 46.
    best won more of them: exact McNemar p = 5.85e-16; best's win rate is +2.28 points higher
    (95 % CI +1.72 to +2.84 points).
    >>> print(paired_text(Paired("expert-best", "short-safest", 300, 120, 31, 36, 113)))
    ... # doctest: +NORMALIZE_WHITESPACE
    Of 300 boards, 67 were won by one run only: only expert-best won 31, only short-safest won 36.
    Neither run is shown stronger: exact McNemar p = 0.625 (not below 0.05); the difference,
    -1.67 points, has a 95 % CI of -7.01 to +3.69 points.
    """
    if not p.only_a and not p.only_b:
        return f"{p.a} and {p.b} won and lost the same {plural(p.games, 'game', ',')}."
    differ = p.only_a + p.only_b
    counts = (
        f"Of {plural(p.games, 'board', ',')}, {differ:,} {agree(differ, 'was', 'were')} won by one run "
        f"only: only {p.a} won {p.only_a:,}, only {p.b} won {p.only_b:,}."
    )
    ci = interval_points(p.difference_ci95)
    if p.verdict is not None:
        d = p.difference if p.verdict == p.a else -p.difference
        low, high = p.difference_ci95 if p.verdict == p.a else (-p.difference_ci95[1], -p.difference_ci95[0])
        finding = (
            f"{p.verdict} won more of them: exact McNemar p = {p_text(p.p_value)}; {p.verdict}'s win rate "
            f"is {points(d)} higher (95 % CI {interval_points((low, high))})."
        )
    else:
        finding = (
            f"Neither run is shown stronger: exact McNemar p = {p_text(p.p_value)} (not below 0.05); "
            f"the difference, {points(p.difference)}, has a 95 % CI of {ci}."
        )
    text = f"{counts} {finding}"
    if p.disagreement:
        text += f" Note: {p.disagreement}."
    return text
