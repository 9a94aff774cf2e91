"""Fuzz: thousands of seeded mutations of the puzzle files, through the readers and the CLI.

Whatever the bytes, a command ends with exit status 0, 1 or 2 and never a
traceback (issue 9). The commands run in this process (typer's CliRunner), many
files per ``analyze`` call, so thousands of inputs cost seconds, not minutes.
"""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner, Result

from minesat.board import Layout, Position
from minesat.formats import format_for, parse_layout, parse_position

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
BOARDS = sorted(p for p in PUZZLES.iterdir() if p.suffix in (".txt", ".dat", ".mine", ".mbf", ".json"))

#: Characters that mean something in one format or another, and some that mean nothing.
ALPHABET = b"?*F.0123456789 \n\r\t#:x,[]{}\"HM-+e" + "é\u200b".encode()
HEADERS = [b"# mines: ", b"# rows: ", b"# cols: ", b'"mines": ', b'"rows": ', b"x"]
NUMBERS = [b"0", b"-1", b"1000", b"1001", b"99999999999999999999", b"9" * 5000, b"1e3", b"null", b"true"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random edits: flip, insert, delete, duplicate, truncate, or a hostile number."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out) + 1)
        match rng.randrange(8):
            case 0 if out:
                out[min(i, len(out) - 1)] = rng.randrange(256)
            case 1:
                out[i:i] = bytes([rng.choice(ALPHABET)]) * rng.randint(1, 3)
            case 2:
                del out[i : i + rng.randint(1, 40)]
            case 3:
                j = rng.randrange(len(out) + 1)
                out[i:i] = out[min(i, j) : max(i, j)][:2000]
            case 4:
                del out[i:]
            case 5:
                out[i:i] = rng.choice(HEADERS) + rng.choice(NUMBERS) + b"\n"
            case 6:
                out[i:i] = b"[" * rng.choice((3, 100, 2000)) + b"]" * rng.choice((0, 3))
            case _:
                lines = bytes(out).split(b"\n")
                k = rng.randrange(len(lines))
                lines.insert(k, lines[k] * rng.randint(1, 3))
                out = bytearray(b"\n".join(lines))
    return bytes(out)


CELLS = b"?*F.0123456789 HM"


def retouch(data: bytes, rng: random.Random) -> bytes:
    """A mild edit: a few board characters replaced by others, so the file usually still
    reads and the analysis (consistent or not) is what gets exercised."""
    out = bytearray(data)
    spots = [i for i, b in enumerate(out) if b in CELLS]
    for i in rng.sample(spots, min(len(spots), rng.randint(1, 6))):
        out[i] = rng.choice(CELLS)
    return bytes(out)


def mutants(count: int, seed: int) -> list[tuple[str, bytes]]:
    """``count`` (extension, content) pairs, the same for the same seed: half of them
    mildly retouched, half mangled."""
    rng = random.Random(seed)
    sources = [(p.suffix, p.read_bytes()) for p in BOARDS]
    out = []
    for n in range(count):
        suffix, data = rng.choice(sources)
        edit = retouch if n % 2 and suffix != ".mbf" else mutate
        out.append((suffix, edit(data, rng)))
    return out


def test_the_readers_raise_only_value_errors() -> None:
    """5000 mutants: each reads, or raises ValueError (BoardFormatError and kin)."""
    read = 0
    for n, (suffix, data) in enumerate(mutants(5000, seed=9)):
        name = f"m{n}{suffix}"
        fmt = format_for(name)
        for parse in (parse_position, parse_layout):
            try:
                board = parse(data, name, fmt)
            except ValueError as err:
                assert str(err), name
                assert "\n" not in str(err), (name, str(err))  # one line
            else:
                read += 1
                assert isinstance(board, Position | Layout)
    assert read > 300  # the mutations leave many files readable, so the analysis is fuzzed too


def _check(result: Result, what: str) -> None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{what}: {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1, 2), (what, result.exit_code, result.output[-500:])
    assert "Traceback" not in result.output, what
    for line in result.stderr.splitlines():
        assert line.startswith("minesat: "), (what, line)


def test_the_commands_never_crash(tmp_path: Path) -> None:
    """800 mutants: analyze on each (in batches of 100, and alone), show and convert on each,
    solve on the small ones (benchmarks/heavy runs 2000)."""
    fuzz_the_commands(tmp_path, 800)


def fuzz_the_commands(tmp_path: Path, count: int) -> None:
    """``count`` mutants through analyze, show, convert and solve: never a crash."""
    import typer.main

    from minesat.cli import app

    # Built once: typer rebuilds the click command on every invoke, which costs more than
    # the command itself here.
    command = typer.main.get_command(app)
    runner = CliRunner()
    files = []
    for n, (suffix, data) in enumerate(mutants(count, seed=1)):
        path = tmp_path / f"m{n}{suffix}"
        path.write_bytes(data)
        files.append(path)
    for start in range(0, len(files), 100):
        batch = [str(f) for f in files[start : start + 100]]
        _check(runner.invoke(command, ["analyze", "--json", *batch]), f"analyze --json {batch[0]}..")
    out = str(tmp_path / "out.json")
    for path in files:
        _check(runner.invoke(command, ["analyze", str(path)]), f"analyze {path.name}")
        _check(runner.invoke(command, ["show", str(path)]), f"show {path.name}")
        _check(runner.invoke(command, ["convert", str(path), out]), f"convert {path.name}")
    for path in files[::5]:
        if path.stat().st_size < 200:  # beginner-sized boards: the player's games stay short
            _check(runner.invoke(command, ["solve", str(path), "--json"]), f"solve {path.name}")


def test_play_survives_any_line() -> None:
    """2000 random lines in one session (verbs, cells far and near, junk): the game answers
    each one and never crashes."""
    import typer.main

    from minesat.cli import app

    rng = random.Random(4)
    verbs = ["uncover", "flag", "unflag", "chord", "new", "show", "hint", "help", "", "UNCOVER", "x"]
    words = ["A1", "D4", "i9", "Z99", "AAAA1", "A0", "0", "1", "9", "10", "-1", "9" * 12, "5,5", "+", "*"]
    lines = []
    for _ in range(2000):
        line = " ".join([rng.choice(verbs), *rng.choices(words, k=rng.randint(0, 3))])
        if rng.random() < 0.2:
            line = "".join(chr(rng.randrange(32, 0x250)) for _ in range(rng.randint(1, 12)))
        lines.append(line)
    result = CliRunner().invoke(typer.main.get_command(app), ["play", "--seed", "2"], input="\n".join(lines))
    _check(result, "play")
    assert result.exit_code == 0
