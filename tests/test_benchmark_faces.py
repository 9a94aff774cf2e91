"""benchmarks/faces.py: its corpus reaches every command, and its normalisation leaves out the clock
and the code's fingerprints, nothing else."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from minesat.cli import app, load_commands

ROOT = Path(__file__).resolve().parent.parent


def _load():
    sys.path.insert(0, str(ROOT / "benchmarks"))  # it imports its corpus, faces_corpus.py
    try:
        spec = importlib.util.spec_from_file_location("faces_bench", ROOT / "benchmarks" / "faces.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


faces = _load()
PLAYER = "ab" * 32


def normaliser(web: bool = False):  # type: ignore[no-untyped-def]
    return faces.Normaliser({"/tmp/faces-xyz": "<work>", PLAYER: "<player>", PLAYER[:12]: "<player>"}, web)


def test_the_corpus_runs_every_command_with_its_help_and_a_bad_option() -> None:
    load_commands()
    commands = {command.name or command.callback.__name__ for command in app.registered_commands}  # type: ignore[union-attr]
    first_words = {step.argv[0] for case in faces.cases() for step in case.steps if step.argv}
    assert commands <= first_words
    names = {case.name for case in faces.cases()}
    assert all(f"{c} --help" in names and f"{c} --bogus-option" in names for c in commands)


def test_clock_keys_and_fingerprints_are_left_out_and_nothing_else() -> None:
    norm = normaliser()
    where = "/tmp/faces-xyz/a.txt"
    a = {"seconds": 0.1, "seconds_hist": [1], "game_seconds_mean": 0.2, "won": True, "file": where,
         "provenance": {"player": PLAYER, "started": "2026-01-01T00:00:00Z"}}
    b = {"seconds": 0.3, "seconds_hist": [2, 3], "game_seconds_mean": 0.4, "won": True, "file": where,
         "provenance": {"player": "cd" * 32, "started": "2026-02-02T01:00:00Z"}}
    assert norm.value(a) == norm.value(b)
    assert norm.value({**a, "won": False}) != norm.value(b)
    # A player that is not a fingerprint (a replay's player's name) is compared.
    assert norm.value({"player": "Zhang"}) != norm.value({"player": "Wang"})
    assert norm.value({"id": "x1"}) != norm.value({"id": "x2"})  # ids are random only in the web app
    assert normaliser(web=True).value({"id": "x1"}) == normaliser(web=True).value({"id": "x2"})


def test_text_keeps_its_words_and_numbers_but_times_paths_and_fingerprints() -> None:
    norm = normaliser()
    assert norm.text("12 games played in 0.03 s (412.3 games/s) into /tmp/faces-xyz/a.sqlite") == \
        "12 games played in <time> (<rate>) into <work>/a.sqlite"
    assert norm.text(f"| 9x9 best | 8 | {PLAYER[:12]} | 1 |") == "| 9x9 best | 8 | <player> | 1 |"
    assert norm.text("B2: 3 mines remain") == "B2: 3 mines remain"
    assert norm.stream("game,seconds,won\n0,0.5,true\n") == norm.stream("game,seconds,won\n0,0.7,true\n")
    assert norm.stream("game,seconds,won\n0,0.5,true\n") != norm.stream("game,seconds,won\n1,0.5,true\n")


def test_a_tree_against_itself_differs_nowhere() -> None:
    """Two cases run twice each by this checkout, in real processes (the benchmark's way)."""
    compare = faces.Comparison({"old": ROOT, "new": ROOT}, {"old": PLAYER, "new": PLAYER}, 10, None)
    chosen = [case for case in faces.cases() if case.name in ("analyze tiny.txt --json", "analyze bad char")]
    assert len(chosen) == 2
    for case in chosen:
        assert compare.case(case) == [], case.name
