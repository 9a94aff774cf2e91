"""Issue 9, defect 10: the commands the README gives work as written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["tests/test_stats.py", "src/minesat/stats.py"]


def test_doctests_collect_after_a_non_editable_install(tmp_path: Path) -> None:
    """An installed copy of minesat first on the path (as `pip install .` makes it) must not
    clash with the src/ modules pytest collects doctests from."""
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "src" / "minesat", site / "minesat")
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        # A test module first: it imports minesat, from the installed copy unless src/ comes first.
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *FILES],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "import file mismatch" not in result.stdout


def test_the_simulate_benchmark_takes_games_as_the_readme_says(capsys) -> None:  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import simulate as bench  # benchmarks/simulate.py
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    bench.main(["--games", "2", "--preset", "beginner", "--no-ms-toollib"])
    out = capsys.readouterr().out
    assert "2 games on one core" in out and "win rate" in out


def test_the_commit_hook_refuses_a_subject_past_72_characters(tmp_path: Path) -> None:
    hook = ROOT / ".githooks" / "commit-msg"

    def verdict(subject: str) -> int:
        message = tmp_path / "COMMIT_EDITMSG"
        message.write_text(f"# a comment git strips\n{subject}\n\nThe why, in a body as long as it likes.\n")
        return subprocess.run([sys.executable, str(hook), str(message)], capture_output=True).returncode

    assert verdict("é" * 72) == 0  # characters, not bytes
    assert verdict("x" * 73) == 1
