"""Numbers and runs in words: percentages, intervals, durations, the rows every report shows.

>>> pct(0.5), ci_text((0.25, 0.75)), secs(0.0042)
('50.0 %', '25.0–75.0 %', '4.2 ms')
"""

from __future__ import annotations

from minesat.report.paired import Paired
from minesat.report.statistics import Summary, preset_name
from minesat.words import agree, plural


def pct(x: float | None, digits: int = 1) -> str:
    """``0.5 -> '50.0 %'``; ``None -> '–'``."""
    return "–" if x is None else f"{100 * x:.{digits}f} %"


def ci_text(ci: tuple[float, float]) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f} %"


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
        rows.append(("First click", f"{c['rule']} at {c['start'][0]},{c['start'][1]}"))
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
        ("Lost games: safe cells uncovered", pct(s.progress_lost_mean)),
        ("Seconds per game (mean)", secs(s.seconds_mean)),
        ("Seconds per game (median ≈, p90 ≈)", f"{secs(s.seconds_median)}, {secs(s.seconds_p90)}"),
    ]
    return rows


def config_rows(s: Summary) -> list[tuple[str, str]]:
    return [(k, v) for k, v in describe_config(s) if k != "Database"]




def p_text(p: float) -> str:
    """A p-value in few digits: ``0.0215``, ``4.1e-05``; tiny ones stay readable.

    >>> p_text(1.0), p_text(0.021484375), p_text(4.1e-05)
    ('1', '0.0215', '4.1e-05')
    """
    return f"{p:.3g}"


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
        (f"Difference ({p.a} − {p.b})", f"{100 * p.difference:+.2f} points"),
        ("McNemar p (exact, two-sided)", p_text(p.p_value)),
    ]


def paired_text(p: Paired) -> str:
    """One sentence that says what the paired test found."""
    if not p.only_a and not p.only_b:
        return f"{p.a} and {p.b} won and lost the same {plural(p.games, 'game', ',')}."
    better = p.a if p.only_a > p.only_b else p.b if p.only_b > p.only_a else None
    verdict = f"{better} won more of the games where they differ" if better else "neither wins more often"
    differ = p.only_a + p.only_b
    return (
        f"Of {plural(p.games, 'board', ',')}, {differ:,} {agree(differ, 'was', 'were')} won by one run only: "
        f"{verdict} "
        f"({p.only_a:,} against {p.only_b:,}); exact McNemar p = {p_text(p.p_value)}."
    )
