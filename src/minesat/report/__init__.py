"""Solvability reports: statistics over stored games, plots, and Markdown / JSON / HTML pages.

The package is split by concern:

- :mod:`minesat.report.runs`: a store's runs, each counted by :class:`~minesat.tally.Tally`
  (the one streaming counter, below ``minesat simulate``, which counts with it too) and
  frozen into a :class:`~minesat.tally.Summary`;
- :mod:`minesat.report.paired`: two runs on the same boards, game by game, with
  the exact McNemar test and Newcombe's interval; runs on other boards compared
  as independent samples;
- :mod:`minesat.report.references`: published win rates set beside the runs;
- :mod:`minesat.report.document`: one :class:`Report`, whole (runs, pairs,
  references, warnings), which every renderer draws;
- :mod:`minesat.report.plots`: matplotlib figures as SVG;
- :mod:`minesat.report.render`: Markdown, JSON, and HTML from the Jinja2
  templates in ``templates/``; :func:`write_report` picks the format by file name.

>>> from minesat.report import summarize, render_markdown
>>> render_markdown([summarize([], label="nothing")]).startswith("# minesat solvability report")
True
"""

from __future__ import annotations

from typing import Any

from minesat.report.paired import Compared, Paired, pair_dbs, pair_games, pair_runs, same_boards
from minesat.report.runs import summarize_db, summarize_store
from minesat.tally import (
    Bucket,
    GuessStep,
    LossesDetail,
    RiskBin,
    Summary,
    Tally,
    bin_buckets,
    simulate_command,
    summarize,
)

#: Names loaded on first use: ``minesat simulate`` and its workers count with
#: :class:`Tally` and should not pay for Jinja2 and the plotting code.
_LAZY = {
    "FORMATS": "render",
    "render_html": "render",
    "render_json": "render",
    "render_markdown": "render",
    "unique_labels": "document",
    "Report": "document",
    "make_report": "document",
    "Reference": "references",
    "ReferenceError": "references",
    "read_references": "references",
    "write_report": "render",
    "write_viewer_pages": "render",
    "PLOTS": "plots",
    "render_plots": "plots",
    "ci_text": "formatting",
    "describe_config": "formatting",
    "headline": "formatting",
    "pct": "formatting",
    "secs": "formatting",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'minesat.report' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"minesat.report.{module}"), name)


__all__ = [
    "FORMATS",
    "PLOTS",
    "Bucket",
    "Compared",
    "GuessStep",
    "LossesDetail",
    "Paired",
    "Reference",
    "ReferenceError",
    "Report",
    "RiskBin",
    "Summary",
    "Tally",
    "bin_buckets",
    "ci_text",
    "describe_config",
    "headline",
    "make_report",
    "pair_dbs",
    "pair_games",
    "pair_runs",
    "pct",
    "read_references",
    "render_html",
    "render_json",
    "render_markdown",
    "render_plots",
    "same_boards",
    "secs",
    "simulate_command",
    "summarize",
    "summarize_db",
    "summarize_store",
    "unique_labels",
    "write_report",
    "write_viewer_pages",
]
