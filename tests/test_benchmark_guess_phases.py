"""benchmarks/guess_phases.py: its classes of guess, and JSMinesweeper's games rebuilt from a pairing file."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAIRING = ROOT / "reports" / "runs" / "jsms-classic-s23.jsonl.gz"


def _load():
    sys.path.insert(0, str(ROOT / "benchmarks"))  # it imports its neighbours jsminesweeper and paired
    try:
        path = ROOT / "benchmarks" / "guess_phases.py"
        spec = importlib.util.spec_from_file_location("guess_phases_bench", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


bench = _load()


def test_doctests() -> None:
    failed, attempted = doctest.testmod(bench)
    assert attempted > 0 and failed == 0


def test_a_guess_into_a_mine_before_any_opening_ends_the_replay_there() -> None:
    from collections import Counter

    from minesat.board import Layout

    layout = Layout.from_rows(["....", "....", "...*", "*..."])  # A1 shows 0: the opening comes first
    guessed, fatal = Counter(), Counter()
    assert bench.replay(layout, (0, 0), [], guessed, fatal) == "won"
    closed = Layout.from_rows([".*..", "....", "....", "...*"])  # A1 shows 1: no opening yet
    assert bench.replay(closed, (0, 0), [(3, 3)], guessed, fatal) == "died before"
    assert fatal == Counter({("before", "interior", "exact"): 1})


def test_jsminesweepers_recorded_games_are_rebuilt_with_their_outcomes() -> None:
    run = subprocess.run(
        [sys.executable, "guess_phases.py", "--pairing", str(PAIRING), "--preset", "expert", "--seed", "23",
         "--first-click", "safe", "--start", "0,0", "--games", "12"],
        cwd=ROOT / "benchmarks", capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("12 games, minesat playing best (0 of JSMinesweeper's rebuilt")
    assert "| before | interior | open |" in run.stdout


def test_a_pairing_from_other_boards_is_refused() -> None:
    run = subprocess.run(
        [sys.executable, "guess_phases.py", "--pairing", str(PAIRING), "--preset", "expert", "--seed", "24",
         "--first-click", "safe", "--start", "0,0", "--games", "1"],
        cwd=ROOT / "benchmarks", capture_output=True, text=True, timeout=600,
    )
    assert run.returncode != 0
    assert "game 0: its board is not the one these options make" in run.stderr


def test_bad_pairing_files_are_one_line_with_where(tmp_path: Path) -> None:
    not_json = tmp_path / "not-json.jsonl"
    not_json.write_text('\nnope\n')
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"game": 0}\n')
    for path, says in [
        (not_json, f"{not_json}:2:1: not JSON"),
        (foreign, f"{foreign}:1:1: not a record of benchmarks/jsminesweeper.py"),
        (tmp_path / "missing.jsonl", "cannot read"),
    ]:
        run = subprocess.run(
            [sys.executable, "guess_phases.py", "--pairing", str(path), "--seed", "0"],
            cwd=ROOT / "benchmarks", capture_output=True, text=True, timeout=600,
        )
        assert run.returncode == 2
        assert says in run.stderr and "Traceback" not in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
