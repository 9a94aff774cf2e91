"""Numbers and runs in words: percentages, intervals, durations, the rows every report shows.

>>> pct(0.5), ci_text((0.25, 0.75)), secs(0.0042)
('50.0 %', '25.0–75.0 %', '4.2 ms')
"""

from __future__ import annotations

from minesat.report.statistics import Summary, preset_name


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


