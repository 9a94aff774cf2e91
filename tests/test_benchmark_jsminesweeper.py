"""benchmarks/jsminesweeper.py: its statistics, its input checks, and (given a checkout) a real run.

The end-to-end test needs Node and a JSMinesweeper checkout named by the environment variable
``JSMINESWEEPER``; without them it is skipped (CI has neither).
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location(
        "jsminesweeper_bench", ROOT / "benchmarks" / "jsminesweeper.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_doctests() -> None:
    failed, attempted = doctest.testmod(bench)
    assert attempted > 0 and failed == 0


def _two_sided_by_definition(a: int, b: int) -> Fraction:
    """Sum of the probabilities of all outcomes no likelier than the one seen, Binomial(a+b, 1/2)."""
    n = a + b
    p = [Fraction(math.comb(n, k), 2**n) for k in range(n + 1)]
    return sum((q for q in p if q <= p[a]), Fraction(0))


@pytest.mark.parametrize(("a", "b"), [(0, 0), (0, 1), (3, 3), (1, 9), (9, 1), (12, 5), (40, 61), (0, 30)])
def test_mcnemar_matches_the_definition(a: int, b: int) -> None:
    assert bench.mcnemar_exact(a, b) == pytest.approx(float(_two_sided_by_definition(a, b)), rel=1e-12)


def test_generated_boards_are_the_simulated_games() -> None:
    from minesat.generate import game_seed, generate_layout

    boards = list(bench.generated_boards(16, 30, 99, "opening", (3, 3), 0, 5, 2))
    assert [b.index for b in boards] == [5, 6]
    seed = game_seed(16, 30, 99, rule="opening", start=(3, 3), seed=0, index=6)
    assert boards[1].layout == generate_layout(16, 30, 99, start=(3, 3), rule="opening", seed=seed)
    assert boards[0].digest != boards[1].digest


def test_board_set_is_read_from_first_line_on(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    lines = [{"rows": 3, "cols": 4, "mines": [[0, k]], "game": k} for k in range(4)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    boards = bench.read_board_set(path, 1, 2)
    assert [(b.index, sorted(b.layout.mines)) for b in boards] == [(1, [(0, 1)]), (2, [(0, 2)])]


@pytest.mark.parametrize(
    ("line", "where", "message"),
    [
        ('{"rows": 3, "cols": 3, "mines": [[0, 0]]', ":2:41:", "not JSON"),
        ('{"rows": 3, "cols": 3, "mines": [[0, 3]]}', ":2:1:", "not a [row, col] pair"),
        ('{"rows": 3, "cols": 3, "mines": [[1, 1], [1, 1]]}', ":2:1:", "listed twice"),
        ('{"rows": 300, "cols": 3, "mines": []}', ":2:1:", "from 1 to 250"),
        ("[1, 2]", ":2:1:", "expected an object"),
    ],
)
def test_bad_board_set_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, where: str, message: str
) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text('{"rows": 3, "cols": 3, "mines": []}\n' + line + "\n")
    assert bench.main(["--jsms", str(tmp_path), "--boards", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}{where}" in err and message in err


def test_rerun_minesat_needs_an_out_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--jsms", "nowhere", "--games", "1", "--rerun-minesat"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rerun-minesat" in err and "--out" in err


def test_not_a_checkout_is_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("node") is None:
        pytest.skip("no Node.js")
    assert bench.main(["--jsms", str(tmp_path), "--preset", "beginner", "--games", "1"]) == 2
    assert "not a JSMinesweeper checkout" in capsys.readouterr().err


# --- the driver runs JSMinesweeper's scripts as its page does (issue 44) --------------------
#
# A contextified sandbox (vm.createContext) made every global lookup of JSMinesweeper's code go
# through the sandbox's interceptors, about 4.6 times its page's time. These tests need no
# checkout: the driver loads a tiny fake JSMinesweeper made here, whose solver refuses to play
# outside the driver's own realm and whose globals must be the driver's globals.

NODE = shutil.which("node")
DRIVER = ROOT / "benchmarks" / "jsminesweeper_driver.mjs"

_FAKE_SCRIPTS = {
    "Minesweeper/client/Board.js": """
        var fakeJsmsLoaded = true;  // a var of a page's script is a property of its window
        class Board {
            constructor(id, width, height, mines) {
                this.width = width;
                this.height = height;
                this.shown = new Array(width * height).fill(null);
            }
            xy_to_index(x, y) { return y * this.width + x; }
        }
    """,
    "Minesweeper/client/solver_main.js": """
        const HARD_CUT_OFF = 0.9, OFF_EDGE_THRESHOLD = 0.95, PROGRESS_CONTRIBUTION = 0.2;
        const PLAY_STYLE_NOFLAGS = 2;
        class SolverGlobal {}
        // The realm check: process is made in the driver's realm, so it is an instance of this
        // script's Object only when the script runs in that realm (in a vm.createContext
        // sandbox process is missing, or an object of another realm if it is handed in).
        function inDriversRealm() {
            return typeof process === "object" && process instanceof Object && globalThis.solver === solver;
        }
        async function solver(given, options) {
            if (given == null) return;  // main.js's start-up call
            if (!inDriversRealm()) throw new Error("fake JSMinesweeper: not in the driver's realm");
            if (BOMB !== 9 || board !== given || binomialCache.ready !== true) {
                throw new Error("fake JSMinesweeper: main.js's globals are missing");
            }
            if (Date.now() !== 1700000000000) throw new Error("fake JSMinesweeper: the clock runs");
            // Uncover the first covered cell, as certain: the referee says what it was.
            const index = given.shown.indexOf(null);
            const x = index % given.width, y = (index - x) / given.width;
            return { actions: [{ action: ACTION_CLEAR, x, y, prob: 1 }] };
        }
    """,
    "Minesweeper/client/BruteForceAnalysis.js": "class BruteForceGlobal {}",
    "Minesweeper/client/MinesweeperGame.js": """
        const ACTION_CLEAR = 1, ACTION_FLAG = 2, ACTION_CHORD = 3;
        const WON = "won", LOST = "lost", IN_PLAY = "in-play";
        function applyResults(board, reply) {
            for (const tile of reply.tiles) board.shown[tile.index] = tile.value;
        }
    """,
    "Minesweeper/Utility/Binomial.js": """
        class Binomial {}
        class BinomialCache { constructor() { this.ready = true; } }
    """,
}


def _fake_jsminesweeper(root: Path) -> Path:
    """The driver's script list, each file present, the few above with something in them."""
    listing = DRIVER.read_text(encoding="utf-8")
    for script in re.findall(r'^\s*"(Minesweeper/[^"]+\.js)",$', listing, flags=re.MULTILINE):
        file = root / script
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(_FAKE_SCRIPTS.get(script, "// nothing the fake needs"), encoding="utf-8")
    assert (root / "Minesweeper/client/solver_main.js").is_file()
    return root


#: 2x3, one mine in the corner: the start (0,0) opens four cells, the fake solver uncovers the fifth.
_GAME = {"game": 4, "rows": 2, "cols": 3, "mines": [[1, 2]], "start": [0, 0], "seed": 9}


@pytest.mark.skipif(NODE is None, reason="no Node.js")
def test_driver_plays_in_its_own_realm(tmp_path: Path) -> None:
    fake = _fake_jsminesweeper(tmp_path / "jsms")
    done = subprocess.run(
        [NODE, str(DRIVER), "--jsms", str(fake), "--clock", "frozen"],
        input=json.dumps(_GAME) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    ready, reply = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["ready"] is True and ready["settings"]["clock"] == "frozen"
    assert reply["game"] == 4 and reply["won"] is True and reply["uncovered"] == 5
    assert reply["clicks"] == 2 and reply["guesses"] == []


@pytest.mark.skipif(NODE is None, reason="no Node.js")
def test_driver_scripts_are_its_globals_and_no_sandbox_is_made(tmp_path: Path) -> None:
    fake = _fake_jsminesweeper(tmp_path / "jsms")
    probe = tmp_path / "probe.mjs"
    probe.write_text(
        f"""
        import vm from "node:vm";
        for (const name of ["createContext", "runInContext", "runInNewContext"]) {{
            vm[name] = () => {{ throw new Error(`vm.${{name}}: a sandbox`); }};
        }}
        const {{ loadSolver, playGame }} = await import({json.dumps(DRIVER.as_uri())});
        const js = loadSolver({json.dumps(str(fake))}, "frozen");
        const reply = await playGame(js, {json.dumps(_GAME)});
        process.stdout.write(JSON.stringify({{
            loaded: globalThis.fakeJsmsLoaded === true,
            solver: globalThis.solver === js.solver,
            clock: Date.now(),
            won: reply.won,
        }}));
        """,
        encoding="utf-8",
    )
    done = subprocess.run([NODE, str(probe)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"loaded": True, "solver": True, "clock": 1700000000000, "won": True}


JSMS = os.environ.get("JSMINESWEEPER")


@pytest.mark.skipif(not JSMS or shutil.which("node") is None, reason="set JSMINESWEEPER to a checkout")
def test_real_run_is_reproducible_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs.jsonl"
    common = ["--jsms", str(JSMS), "--preset", "beginner", "--seed", "5"]
    assert bench.main([*common, "--games", "6", "--out", str(out)]) == 0
    first = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["game"] for r in first] == list(range(6))
    for record in first:
        theirs = record["jsminesweeper"]
        assert theirs["uncovered"] == 71 if theirs["won"] else theirs["uncovered"] < 71
        assert theirs["guesses"] == len(theirs["guessed"])
    # Resuming plays only the missing games; a fresh run plays the same games the same way.
    assert bench.main([*common, "--games", "8", "--out", str(out)]) == 0
    assert "8 games (2 played now, 6 from" in capsys.readouterr().out
    again = tmp_path / "again.jsonl"
    assert bench.main([*common, "--games", "6", "--out", str(again)]) == 0

    def outcome(path: Path) -> list[tuple]:
        records = [json.loads(line) for line in path.read_text().splitlines()][:6]
        return [
            (r["jsminesweeper"]["won"], r["jsminesweeper"]["guessed"], r["minesat"]["won"]) for r in records
        ]

    assert outcome(again) == outcome(out)

    # Replaying minesat's side with another strategy keeps JSMinesweeper's games and the file.
    before = out.read_text()
    capsys.readouterr()
    replay = ["--games", "8", "--out", str(out), "--rerun-minesat", "--strategy", "safest"]
    assert bench.main([*common, *replay]) == 0
    printed = capsys.readouterr().out
    assert "8 games (0 played now, 8 from" in printed and "minesat's side replayed now in 8" in printed
    assert "minesat (safest)" in printed and out.read_text() == before


@pytest.mark.skipif(not JSMS or shutil.which("node") is None, reason="set JSMINESWEEPER to a checkout")
def test_board_set_played_as_it_is_under_rule_any(tmp_path: Path) -> None:
    boards = tmp_path / "set.jsonl"
    # Game 0: the start is a mine, both lose at once. Game 1: one click opens the whole board.
    lines = [{"rows": 4, "cols": 4, "mines": [[0, 0]]}, {"rows": 4, "cols": 4, "mines": [[3, 3]]}]
    boards.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "runs.jsonl"
    argv = ["--jsms", str(JSMS), "--boards", str(boards), "--start", "0,0", "--first-click", "any"]
    assert bench.main([*argv, "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    for record, won in zip(records, (False, True), strict=True):
        for side in ("minesat", "jsminesweeper"):
            assert record[side]["won"] is won
            assert record[side]["guesses"] == 1  # the first click, at 1 mine in 16 cells
    assert records[0]["jsminesweeper"]["guessed"] == [[0, 0, 0.0625]]


def _side(won: bool, cpu: float) -> dict:
    return {"won": won, "guesses": 1, "uncovered": 0, "stalled": False, "cpu_seconds": cpu,
            "wall_seconds": cpu}


def test_both_clocks_are_summarised_side_by_side() -> None:
    # Under --clock both each game has a frozen-clock and a real-clock side: two rows, two speed lines.
    results = [
        {"minesat": _side(True, 0.02), "jsminesweeper": _side(True, 0.2),
         "jsminesweeper_real": _side(False, 0.05)},
        {"minesat": _side(False, 0.04), "jsminesweeper": _side(True, 0.4),
         "jsminesweeper_real": _side(True, 0.01)},
    ]
    printed = bench.summarize(results, "best", "both")
    rows = printed.splitlines()
    assert rows[1].startswith("JSMinesweeper (frozen clock)") and " 2/2 " in rows[1]
    assert rows[2].startswith("JSMinesweeper (real clock)") and " 1/2 " in rows[2]
    assert rows[3].startswith("minesat (best)")
    assert "paired: both won 1, only minesat 0, only JSMinesweeper 1, neither 0" in printed
    speed = [line for line in rows if line.startswith("speed against")]
    assert speed == [
        "speed against JSMinesweeper (frozen clock), CPU time per game, one core each: "
        "mean 30.0 ms against 300.0 ms (minesat 10.00x faster), "
        "median 30.0 ms against 300.0 ms (10.00x faster)",
        "speed against JSMinesweeper (real clock), CPU time per game, one core each: "
        "mean 30.0 ms against 30.0 ms (minesat as fast), median 30.0 ms against 30.0 ms (as fast)",
    ]
    # One clock: one JSMinesweeper row, named by its clock.
    one = [{k: r[k] for k in ("minesat", "jsminesweeper")} for r in results]
    single = bench.summarize(one, "best", "real")
    assert single.splitlines()[1].startswith("JSMinesweeper (real clock)") and "frozen" not in single


@pytest.mark.skipif(not JSMS or shutil.which("node") is None, reason="set JSMINESWEEPER to a checkout")
def test_both_clocks_play_the_frozen_games_and_the_real_ones(tmp_path: Path) -> None:
    common = ["--jsms", str(JSMS), "--preset", "beginner", "--seed", "5", "--games", "3"]
    frozen, both = tmp_path / "frozen.jsonl", tmp_path / "both.jsonl"
    assert bench.main([*common, "--out", str(frozen)]) == 0
    assert bench.main([*common, "--clock", "both", "--out", str(both)]) == 0
    alone = [json.loads(line) for line in frozen.read_text().splitlines()]
    paired = [json.loads(line) for line in both.read_text().splitlines()]
    for one, two in zip(alone, paired, strict=True):
        assert two["clock"] == "both"
        assert two["jsminesweeper"]["guessed"] == one["jsminesweeper"]["guessed"]  # frozen: reproducible
        assert two["jsminesweeper_real"]["uncovered"] > 0 and "slow_pe" in two["jsminesweeper_real"]
