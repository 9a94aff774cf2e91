"""``minesat replay``: the sample replays analysed move by move, bad files in one line, the viewer.

- every sample in one call with ``--json``: SPEC section 14's keys, the game won on the
  file's time and 3BV (the samples' README), every move with a verdict, the summary
  consistent with the moves;
- mutated samples (truncated, bytes flipped, sizes overwritten) through the command in
  one process: exit status 0 or 2 only, one ``{"file", "error"}`` line per refused file,
  no traceback, nothing hangs;
- ``--html``: one self-contained page per game.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minesat.cli import app
from replay_samples import NO_SAMPLES, readme_table, sample_files

SRC = Path(__file__).resolve().parent.parent / "src"
needs_samples = pytest.mark.skipif(not sample_files(), reason=NO_SAMPLES)
runner = CliRunner()

#: The keys SPEC section 14 promises in each object.
SPEC_KEYS = {"file", "format", "rows", "cols", "mines", "bbbv", "won", "seconds", "guesses",
             "needless_guesses", "moves"}
VERDICTS = {"first", "safe", "guess", "loss", "mine", "unproven", "wrong", "unflag", "no effect"}


def run_cli(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from minesat.cli import main; main()", *map(str, args)],
        capture_output=True, text=True, timeout=timeout,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )


@needs_samples
def test_every_sample_in_one_call_as_json() -> None:
    files = sample_files()
    result = run_cli("replay", "--json", *files)
    assert result.returncode == 0, result.stderr
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["file"] for g in games] == [str(f) for f in files]
    table = readme_table()
    exact = named = 0
    for game in games:
        name = Path(game["file"]).name
        assert game.keys() >= SPEC_KEYS, name
        assert game["won"] is True, name
        # ms-toollib aborts on the two utf8_invalid files: their basic twins hold the same game.
        row = table[name] or table[name.replace("invalid", "basic")]
        assert row is not None
        size = (int(row["rows"]), int(row["cols"]), int(row["mines"]))
        assert (game["rows"], game["cols"], game["mines"]) == size
        assert game["bbbv"] == int(row["bbbv"])
        assert game["seconds"] == pytest.approx(float(row["rtime"]), abs=1e-3)
        moves = game["moves"]
        assert moves and all(m["verdict"] in VERDICTS for m in moves), name
        assert all({"cell", "kind", "time", "verdict", "probability"} <= m.keys() for m in moves)
        risky = [m for m in moves if m["verdict"] in ("guess", "loss")]
        assert game["guesses"] == len(risky)
        assert game["needless_guesses"] == sum(m["needless"] for m in risky)
        # Each guess has its exact risk, strictly between 0 and 1, and never below the safest guess's.
        for m in risky:
            assert 0.0 < m["probability"] < 1.0
            if m["kind"] == "uncover":
                assert m["safest"] <= m["probability"] + 1e-12
        survival = math.prod(1 - m["probability"] for m in risky)
        assert game["survival"] == pytest.approx(survival)
        # What a guess kept of the chance to win: exact (perfect play) on small positions, else
        # the move of the best strategy, or nothing on a board too large for its look-ahead.
        for m in risky:
            if m.get("best_move_by") == "perfect":
                assert 0.0 <= m["win_probability"] <= m["best_win_probability"] <= 1.0, name
                exact += 1
            elif m.get("best_move_by") == "best":
                assert m["win_probability"] is None and m["best_win_probability"] is None, name
                assert not m["needless"] and game["rows"] * game["cols"] <= 1000, name
                named += 1
            else:
                assert "best_move" not in m, name
    assert exact and named


@needs_samples
def test_text_output_and_a_batch_table() -> None:
    files = [f for f in sample_files() if f.suffix in (".avf", ".mvf")]
    result = run_cli("replay", *files)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("== ") == len(files) and f"{len(files)} games:" in out
    assert "3BV: 127/127, 2.579/s" in out  # arbiter-expert-49s: 127 3BV in 49.25 s
    assert "IOE 0.841, correctness 0.954" in out  # its README row: ioe 0.8411, corr 0.9536


def test_bad_files_are_one_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    bad = tmp_path / "bad.avf"
    bad.write_bytes(b"not a replay at all")
    missing = tmp_path / "missing.rmv"
    other = tmp_path / "game.txt"
    other.write_text("?")
    result = run_cli("replay", "--json", bad, missing, other)
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(line) for line in lines] == [{"file", "error"}] * 3
    errors = result.stderr.splitlines()
    assert len(errors) == 3 and all(e.startswith("minesat: ") for e in errors)
    assert "bad.avf:byte" in errors[0] and "No such file" in errors[1] and "extension" in errors[2]
    assert "Traceback" not in result.stderr


def test_a_bad_replay_file_is_named_once(tmp_path: Path) -> None:
    """Errors that name their file (a replay's content, a name with no replay format: the path a
    field) are said as they are; a missing file (an OS error) gets its path first."""
    bad = tmp_path / "bad.avf"
    bad.write_bytes(b"")
    missing = tmp_path / "missing.rmv"
    other = tmp_path / "game.txt"
    other.write_text("?")
    result = run_cli("replay", bad, missing, other)
    assert result.stderr.splitlines() == [
        f"minesat: {bad}:byte 0: empty file: not an AVF replay",
        f"minesat: {missing}: No such file or directory",
        f"minesat: {other}: cannot tell the replay format from the extension '.txt' "
        "(use .avf, .rmv, .mvf, .evf)",
    ]


def test_a_directory_standard_input_and_ctrl_c_get_one_plain_line(tmp_path: Path) -> None:
    result = run_cli("replay", tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"minesat: {tmp_path}: is a directory, not a replay file\n"
    result = run_cli("replay", "-")
    assert result.returncode == 2
    assert result.stderr == (
        "minesat: <stdin>: reading a replay from standard input needs --format (avf, rmv, mvf, evf)\n"
    )
    empty = run_cli("replay", "-", "--format", "avf")
    assert empty.stderr == "minesat: <stdin>:byte 0: empty file: not an AVF replay\n"


def test_ctrl_c_is_one_line_and_status_130() -> None:
    """SIGINT as a terminal sends it (a process started in the background may have it ignored,
    so the child puts back Python's own handler first)."""
    replay = _long_replay()
    # The child says when the replays are under way (before, under load, Ctrl-C could land
    # while the command line is still being parsed, which typer answers with a bare 130).
    code = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); " \
           "import minesat.cli.replay as r; inner = r._replay; " \
           "r._replay = lambda *a, **k: (print('replaying', flush=True), inner(*a, **k)); " \
           "from minesat.cli import main; main()"  # fmt: skip
    child = subprocess.Popen(
        [sys.executable, "-c", code, "replay", "--json", *[str(replay)] * 50],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    try:
        assert child.stdout is not None and child.stdout.readline() == "replaying\n"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert (child.returncode, err) == (130, "minesat: interrupted\n")


def _long_replay() -> Path:
    """A replay that takes a while to review: the 36x60 sample, else one made here."""
    files = [p for p in sample_files() if p.suffix == ".evf"]
    if files:
        return files[0]
    pytest.skip(NO_SAMPLES)


@needs_samples
def test_standard_input_reads_a_replay_given_its_format() -> None:
    sample = sample_files()[0]
    from_file = run_cli("replay", "--json", sample)
    with sample.open("rb") as data:
        from_stdin = subprocess.run(
            [sys.executable, "-c", "from minesat.cli import main; main()", "replay", "--json", "-",
             "--format", sample.suffix[1:]],
            stdin=data, capture_output=True, text=True, timeout=120,
            env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    assert from_stdin.returncode == 0, from_stdin.stderr
    ours, theirs = json.loads(from_stdin.stdout), json.loads(from_file.stdout)
    assert ours.pop("file") == "-" and theirs.pop("file") == str(sample)
    assert ours == theirs


@needs_samples
def test_json_holds_the_running_figures_of_every_move() -> None:
    sample = next(p for p in sample_files() if p.name.startswith("arbiter-expert"))
    data = json.loads(run_cli("replay", "--json", sample).stdout)
    assert data["stnb"] == pytest.approx(73.3166, abs=1e-4)
    assert data["rqp"] == pytest.approx(19.0989, abs=1e-4)
    assert data["path"] == pytest.approx(6082.35, abs=0.01)
    running = [m["figures"] for m in data["moves"]]
    last = running[-1]
    assert (last["stnb"], last["rqp"], last["path"]) == (data["stnb"], data["rqp"], data["path"])
    assert last["bbbv_solved"] == data["bbbv"] and last["cl"] == data["clicks"]["cl"]
    assert [f["seconds"] for f in running] == [m["time"] for m in data["moves"]]
    for before, after in itertools.pairwise(running):
        assert after["cl"] >= before["cl"] and after["bbbv_solved"] >= before["bbbv_solved"]
        assert after["path"] >= before["path"]


@needs_samples
def test_flags_on_proven_safe_cells_say_so() -> None:
    sample = next(p for p in sample_files() if p.name.startswith("clone-expert"))
    data = json.loads(run_cli("replay", "--json", sample).stdout)
    move = data["moves"][35]
    assert (move["cell"], move["kind"], move["verdict"]) == ("J28", "flag", "wrong")
    assert move["text"] == "flag on a proven-safe cell: not a mine"
    assert not any("(mine probability 0.0%)" in m["text"] for m in data["moves"])


@needs_samples
def test_mutated_samples_through_the_command(tmp_path: Path) -> None:
    rng = random.Random(14)
    files = []
    for path in sample_files():
        if "utf8_" in path.name and "basic" not in path.name:
            continue  # the same games as their basic twins
        data = path.read_bytes()
        for i in range(4):
            b = bytearray(data)
            if i == 0:
                b = b[: rng.randrange(len(b))]  # truncated
            else:
                for _ in range(3):  # bytes flipped, in the header more often than not
                    at = rng.randrange(min(len(b), 120) if rng.random() < 0.7 else len(b))
                    b[at] = rng.randrange(256)
            out = tmp_path / f"m{i}-{path.name}"
            out.write_bytes(bytes(b))
            files.append(out)
    result = run_cli("replay", "--json", *files, timeout=600)
    assert result.returncode in (0, 2), result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(f) for f in files]
    refused = [line for line in lines if "error" in line]
    assert len(result.stderr.splitlines()) >= len(refused) > 0
    assert (result.returncode == 2) == bool(refused)


@needs_samples
def test_html_pages(tmp_path: Path) -> None:
    sample = next(f for f in sample_files() if f.name == "arbiter-beginner-15s.avf")
    page = tmp_path / "game.html"
    result = runner.invoke(app, ["replay", str(sample), "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "arbiter-beginner-15s.avf" in text
    two = [sample, next(f for f in sample_files() if f.suffix == ".mvf")]
    pages = tmp_path / "pages"
    result = runner.invoke(app, ["replay", *map(str, two), "--html", str(pages)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in pages.iterdir()) == sorted(f"{f.stem}.html" for f in two)
    # A page where a directory is: refused before any work.
    result = runner.invoke(app, ["replay", str(sample), "--html", str(pages)])
    assert result.exit_code == 2 and "is a directory" in result.stderr
