"""Issue 50: every file minesat writes lands whole where the user pointed (minesat.formats.output).

A symbolic link is followed (its target rewritten, the link kept), a path that is no regular file
(a device, a FIFO, a process's open file) is written in place and never replaced, and no partial
file is left behind on an error or a signal. No test points an output at a system path: devices
are made with ``mknod`` in a temporary folder (as root; skipped, saying why, otherwise).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from devices import FULL, NULL, device
from minesat.cli import app
from minesat.cli.common import Stopped
from minesat.formats.output import open_atomic, open_text_atomic, output_target
from processes import sigint_as_from_a_shell

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "puzzles" / "beginner-mid.layout.txt"


def run(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def leftovers(folder: Path) -> list[str]:
    """Temporary files a writer left in ``folder`` (``.NAME.RANDOM.tmp``)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- the writer ---------------------------------------------------------------------------------


def test_a_link_is_followed_its_target_replaced_and_the_link_kept(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "board.txt"
    target.write_text("old")
    target.chmod(0o640)
    (tmp_path / "hop").symlink_to("real/board.txt")  # relative, from the link's own folder
    link = tmp_path / "link.txt"
    link.symlink_to("hop")
    with open_atomic(link) as f:
        f.write(b"new")
    assert link.is_symlink() and os.readlink(link) == "hop"
    assert os.readlink(tmp_path / "hop") == "real/board.txt"
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == leftovers(tmp_path / "real") == []


def test_a_dangling_link_makes_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to("made/later.txt")
    with open_text_atomic(link) as f:
        f.write("text")
    assert link.is_symlink() and (tmp_path / "made" / "later.txt").read_text() == "text"


def test_a_loop_of_links_is_an_os_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError, match="links"), open_atomic(tmp_path / "a"):
        pass


@pytest.mark.parametrize("stop", [ValueError("a damaged row"), Stopped(signal.SIGTERM), KeyboardInterrupt()])
def test_an_error_or_a_signal_leaves_the_file_as_it_was(tmp_path: Path, stop: BaseException) -> None:
    target = tmp_path / "set.jsonl"
    target.write_text("the old set\n")
    with pytest.raises(type(stop)), open_text_atomic(target) as f:
        f.write("half a new set")
        raise stop
    assert target.read_text() == "the old set\n" and leftovers(tmp_path) == []


def test_a_device_is_written_in_place_and_stays_a_device(tmp_path: Path) -> None:
    null = device(tmp_path / "null", NULL)
    with open_atomic(null) as f:
        f.write(b"gone")
    assert stat.S_ISCHR(null.stat().st_mode) and leftovers(tmp_path) == []
    full = device(tmp_path / "full", FULL)
    with pytest.raises(OSError, match="No space left"), open_atomic(full) as f:
        f.write(b"x" * 100_000)
    assert stat.S_ISCHR(full.stat().st_mode) and leftovers(tmp_path) == []


def test_a_process_s_open_file_is_written_in_place(tmp_path: Path) -> None:
    """``/dev/stdout`` and a process substitution (``/dev/fd/63``) lead into ``/proc``: written in
    place, so a file the shell opened for the command (``> out``, ``>> log``) is never replaced."""
    assert output_target("/proc/self/fd/1").in_place
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")  # as /dev/stdout is
    assert output_target(stdout).in_place
    assert not output_target(tmp_path / "plain.txt").in_place


# --- every command that writes a file -----------------------------------------------------------


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A position, a layout, a store of two games and a replay, made once."""
    base = tmp_path_factory.mktemp("inputs")
    position = base / "p.txt"
    position.write_text("# mines: 1\n1?\n??\n")
    store = base / "s.sqlite"
    assert run("simulate", "--rows", "5", "--cols", "5", "--mines", "3", "--games", "2", "--workers", "1",
               "--db", store).exit_code == 0
    replay = base / "a.evf"
    assert run("solve", LAYOUT, "--save-replay", replay).exit_code == 0
    return {"position": position, "layout": LAYOUT, "store": store, "replay": replay, "base": base}


#: Every command that writes a file, with the output's name (its extension picks the format).
WRITERS: dict[str, tuple[str, Callable[[dict[str, Path], Path], list[str | Path]]]] = {
    "analyze --svg": ("out.svg", lambda p, out: ["analyze", p["position"], "--svg", out]),
    "convert": ("out.json", lambda p, out: ["convert", p["layout"], out]),
    "solve --html": ("out.html", lambda p, out: ["solve", p["layout"], "--html", out]),
    "solve --save-replay": ("out.evf", lambda p, out: ["solve", p["layout"], "--save-replay", out]),
    "replay --html": ("out.html", lambda p, out: ["replay", p["replay"], "--html", out]),
    "generate --out": ("out.jsonl", lambda p, out: ["generate", "--preset", "beginner", "--count", "2",
                                                    "--out", out]),
    "report --out": ("out.json", lambda p, out: ["report", p["store"], "--out", out]),
    "export --out": ("out.jsonl", lambda p, out: ["export", p["store"], "--out", out]),
    "export --out CSV": ("out.csv", lambda p, out: ["export", p["store"], "--out", out]),
    "export --out Parquet": ("out.parquet", lambda p, out: ["export", p["store"], "--out", out]),
    "sweep --out": ("out.json", lambda p, out: ["sweep", "--rows", "4", "--cols", "4", "--mines", "2",
                                                "--games", "1", "--workers", "1", "--db",
                                                out.parent / "sweep-stores", "--out", out]),
}


def _needs(writer: str) -> None:
    if writer.endswith("Parquet"):
        pytest.importorskip("pyarrow", reason="Parquet needs the parquet extra")


@pytest.mark.parametrize("writer", WRITERS)
def test_through_a_link_the_target_is_written_and_the_link_kept(
    tmp_path: Path, inputs: dict[str, Path], writer: str
) -> None:
    _needs(writer)
    name, args = WRITERS[writer]
    (tmp_path / "kept").mkdir()
    target = tmp_path / "kept" / name
    target.write_text("old")
    link = tmp_path / name
    link.symlink_to(Path("kept") / name)
    result = run(*args(inputs, link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(Path("kept") / name)
    assert target.is_file() and target.stat().st_size > 3 and target.read_bytes() != b"old"
    assert leftovers(tmp_path) == leftovers(tmp_path / "kept") == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_device_at_the_output_stays_a_device(tmp_path: Path, inputs: dict[str, Path], writer: str) -> None:
    _needs(writer)
    name, args = WRITERS[writer]
    null = device(tmp_path / name, NULL)
    result = run(*args(inputs, null))
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(null.stat().st_mode) and leftovers(tmp_path) == []


@pytest.mark.parametrize("writer", ["analyze --svg", "convert", "export --out", "export --out Parquet",
                                    "generate --out"])
def test_a_full_device_is_one_line_exit_1_and_stays_a_device(
    tmp_path: Path, inputs: dict[str, Path], writer: str
) -> None:
    _needs(writer)
    name, args = WRITERS[writer]
    full = device(tmp_path / name, FULL)
    result = run(*args(inputs, full))
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(f"minesat: {full}: ") and line.endswith("(No space left on device)"), line
    assert stat.S_ISCHR(full.stat().st_mode) and leftovers(tmp_path) == []


@pytest.mark.parametrize("writer", ["analyze --svg", "convert", "export --out CSV", "export --out Parquet",
                                    "generate --out", "solve --html"])
def test_a_fifo_is_written_in_place(tmp_path: Path, inputs: dict[str, Path], writer: str) -> None:
    """As a process substitution is (``--out >(gzip > x.gz)``): the reader gets the whole file."""
    _needs(writer)
    name, args = WRITERS[writer]
    fifo = tmp_path / name
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run(*args(inputs, fifo))
    reader.join(timeout=60)
    assert result.exit_code == 0, result.output
    assert got and len(got[0]) > 10 and stat.S_ISFIFO(fifo.stat().st_mode) and leftovers(tmp_path) == []


def test_dev_stdout_is_standard_output_not_a_file_renamed_over_it(
    tmp_path: Path, inputs: dict[str, Path]
) -> None:
    """``--svg`` through a link to the command's own standard output (as ``/dev/stdout`` is), here a
    file the caller opened in append mode: the picture is written into it, the file not replaced."""
    out = tmp_path / "log.txt"
    out.write_text("kept line\n")
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    with out.open("a") as log:
        done = subprocess.run([sys.executable, "-m", "minesat", "analyze", str(inputs["position"]), "--svg",
                               str(stdout)], stdout=log, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("kept line\n") and "<svg" in text and stdout.is_symlink()


# --- no partial file on an error --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["z.jsonl", "z.csv", "z.parquet"])
def test_export_of_a_damaged_store_leaves_no_file(tmp_path: Path, name: str) -> None:
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow", reason="Parquet needs the parquet extra")
    db = tmp_path / "damaged.sqlite"
    assert run("simulate", "--rows", "5", "--cols", "5", "--mines", "3", "--games", "30", "--workers", "1",
               "--db", db).exit_code == 0
    with sqlite3.connect(db) as con:
        con.execute("UPDATE game SET guesses = '[[1' WHERE idx = 20")  # met after 20 records are written
    con.close()
    out = tmp_path / name
    result = run("export", db, "--out", out)
    assert result.exit_code == 2 and "bad game row 20" in result.stderr, result.output
    assert not out.exists() and leftovers(tmp_path) == []
    out.write_text("an earlier export\n")  # one already there stays as it was
    assert run("export", db, "--out", out).exit_code == 2
    assert out.read_text() == "an earlier export\n" and leftovers(tmp_path) == []


def _waits_for_a_temporary_file(folder: Path, process: subprocess.Popen[str]) -> None:
    """Wait until ``process`` writes its output's temporary file in ``folder`` (no clock: it shows)."""
    while not leftovers(folder):
        assert process.poll() is None, process.communicate()
        threading.Event().wait(0.02)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_generate_stopped_by_a_signal_leaves_no_temporary_file(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "set.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "minesat", "generate", "--rows", "30", "--cols", "30", "--mines", "100",
         "--count", "100000000", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=sigint_as_from_a_shell,
    )
    _waits_for_a_temporary_file(tmp_path, process)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=120)
    name = signal.Signals(signum).name
    said = "minesat: interrupted" if signum == signal.SIGINT else f"minesat: interrupted by {name}"
    assert stderr.splitlines() == [said]
    assert process.returncode == (130 if signum == signal.SIGINT else 128 + signum)
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_scheduler_scheme_leaves_no_store(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed", reason="--scheduler needs the dask extra")
    db = tmp_path / "games.sqlite"
    result = run("simulate", "--preset", "beginner", "--games", "2", "--scheduler", "junk://??", "--db", db)
    assert result.exit_code == 2 and result.stderr.startswith("minesat: cannot reach the Dask scheduler")
    assert list(tmp_path.iterdir()) == []
