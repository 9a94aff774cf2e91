"""``minesat serve`` under load, and what a player waits for: big boards, games, autoplay, replays, no-guess.

    python benchmarks/serve.py [--requests 50] [--concurrency 50] [--hostile NAME ...] [--only PART ...]
                               [--db PATH | :memory: | none] [--src DIR] [--clients 50] [--seconds 30]

Starts ``minesat serve --port 0 --db ...`` on 127.0.0.1 (a fresh process, as a
user would; its games in memory unless ``--db`` names a file; ``none`` gives no
``--db``, for a tree from before the store, named by ``--src``) and measures,
over HTTP, as a client that keeps the server's cookie:

1. **load**: ``--requests`` analyses of the puzzles' positions (beginner to
   expert), ``--concurrency`` of them in flight at once: wall time, requests
   per second and latency percentiles;
2. **cut-off**: a perfect-play request that would take minutes (6x6, 6 mines,
   one number shown), and meanwhile analyses one after another: when the
   search is answered (and how: 422 past the time limit), and the analyses'
   latencies while it ran;
3. **hostile**: positions of benchmarks/hostile.py (those under the 1 MB
   body cap), each answered within the time limit or refused;
4. **big**: a pasted 300x300 position (the left half uncovered, its mines
   covered, the right half covered: the page's test board) through
   ``/api/position``, ``/api/analyze`` (twice: on a worker that has not seen
   that board size, then on a warm one) and ``/api/best``: seconds and bytes;
5. **game**: a 100x100 game with 2 000 mines played move by move through
   ``/api/game/ID/move`` (the automatic player's moves, replayed on a second
   game of the same seed; its guesses included): each move's latency;
6. **autoplay**: expert games played by ``/api/game/ID/auto``, one move per
   request (the page's step-by-step speed), and in one request of 1 000 moves;
7. **replay**: the 36x60 sample (``--replay``): ``POST /api/replay`` (the moves
   at once) and the time until ``GET /api/replay/JOB`` says the review is done;
8. **no-guess**: expert no-guess games: the first uncover (the board made at it);
9. **hint**: what a player with hints on waits for after each move: the move asked
   with ``"hint": true`` (the page's way; the hint's dead-cell search held to its
   30 ms), against the move and then ``/hint`` (the page's way before), on twin
   games of one board, the automatic player's moves: expert games and a 100x100
   game with 2 000 mines (its first 150 moves);
10. **clients**: ``--clients`` players at once for ``--seconds`` (each its own cookie):
   each makes an expert game and plays it by the hints it is answered (every move
   asked with ``"hint": true, "marks": true``, as the page does), reads the game's
   state every fifth move, and starts a new game when one ends: the requests and
   the errors (any answer but 200, and hints answered with an error), the p50 and
   p99 of a move with its hint, the server's memory (its process and its workers)
   before and after.

Each part prints its figures; nothing is asserted. All of it takes a few
minutes on two cores (``--only`` picks parts).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hostile import positions as hostile_positions

from minesat.board import Layout, parse_cell
from minesat.formats import format_layout, format_position
from minesat.generate import generate_layout
from minesat.player import default_start, play_game

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = [
    "beginner-mid.txt", "intermediate-mid.txt", "expert-early.txt", "expert-mid.txt", "expert-late.txt"
]
LONG_PERFECT = "1?????\n" + "??????\n" * 5
HOSTILE = ["solved-100", "checkerboard-half", "snake", "islands", "mesh-300"]
PARTS = ["load", "cut-off", "hostile", "big", "game", "autoplay", "replay", "no-guess", "hint", "clients"]
SAMPLE_36X60 = Path("/work/shared/replays/metasweeper-36x60.evf")


def start(db: str = ":memory:", src: Path = ROOT / "src") -> tuple[subprocess.Popen[str], str]:
    """``minesat serve`` on a free port of 127.0.0.1, its games in ``db`` (``none``: no ``--db``,
    for a tree from before the store), the package from ``src``; and its URL."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    store = [] if db == "none" else ["--db", db]
    process = subprocess.Popen(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--port", "0", *store],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"(http://\S+/)", line)
    if match is None:
        process.kill()
        sys.exit(f"the server did not start: {line.strip()}")
    # The rest of its stderr is kept (read, so that a full pipe never stops the server).
    threading.Thread(target=lambda: SERVER_LOG.extend(process.stderr or ()), daemon=True).start()
    return process, match.group(1)


#: What the server wrote on stderr after its URL (printed when the benchmark fails).
SERVER_LOG: list[str] = []


Answer = tuple[int, float, dict[str, Any]]


def post(url: str, body: dict[str, object] | bytes | None = None, timeout: float = 60.0) -> Answer:
    """Status, seconds and answer of one POST (a JSON body, raw bytes, or none)."""
    status, seconds, payload = fetch(url, body, timeout)
    return status, seconds, _json(status, payload, url)


def _json(status: int, payload: bytes, url: str) -> dict[str, Any]:
    try:
        return json.loads(payload)
    except ValueError:
        raise SystemExit(f"{url}: {status} with no JSON: {payload[:200]!r}") from None


def get(url: str, timeout: float = 60.0) -> Answer:
    """Status, seconds and answer of one GET."""
    status, seconds, payload = fetch(url, None, timeout, method="GET")
    return status, seconds, _json(status, payload, url)


def client() -> urllib.request.OpenerDirector:
    """A client of its own: it keeps the cookie the server sets (its token), as a browser does."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


#: The client the parts but ``clients`` play as.
CLIENT = client()


def fetch(
    url: str,
    body: dict[str, object] | bytes | None = None,
    timeout: float = 60.0,
    method: str = "POST",
    opener: urllib.request.OpenerDirector | None = None,
) -> tuple[int, float, bytes]:
    """Status, seconds and the raw answer of one request (as ``opener``, else :data:`CLIENT`)."""
    if method == "GET":
        request = urllib.request.Request(url)
    else:
        data = body if isinstance(body, bytes) else json.dumps(body or {}).encode()
        kind = "application/octet-stream" if isinstance(body, bytes) else "application/json"
        request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": kind})
    began = time.perf_counter()
    try:
        with (opener or CLIENT).open(request, timeout=timeout) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as err:
        status, payload = err.code, err.read()
    return status, time.perf_counter() - began, payload


def big_position(rows: int, cols: int, seed: int) -> str:
    """The page's test board: the left half uncovered (its mines left covered), the right half covered."""
    rnd = random.Random(seed)
    mine = [[rnd.random() < 0.15 for _ in range(cols)] for _ in range(rows)]
    lines = []
    for r in range(rows):
        line = []
        for c in range(cols):
            if c >= cols // 2 or mine[r][c]:
                line.append("?")
                continue
            n = sum(mine[i][j] for i in range(r - 1, r + 2) for j in range(c - 1, c + 2)
                    if 0 <= i < rows and 0 <= j < cols)
            line.append(str(n) if n else ".")
        lines.append("".join(line))
    return f"# mines: {sum(map(sum, mine))}\n" + "\n".join(lines) + "\n"


def big(base: str) -> None:
    text = big_position(300, 300, 1)
    for name, path in [("position", "api/position"), ("analyze (cold)", "api/analyze"),
                       ("analyze (warm)", "api/analyze"), ("best", "api/best")]:
        status, seconds, payload = fetch(base + path, {"board": text})
        body = json.loads(payload)
        what = body.get("error") or (f"{len(body['unknown'])} uncertain" if "unknown" in body else
                                     body.get("text", f"{body.get('rows')}x{body.get('cols')}"))
        print(f"big 300x300 {name:<15} {status} in {seconds:5.2f} s, {len(payload) / 1e6:5.2f} MB: {what}")


def layout_of(state: dict[str, Any]) -> Layout:
    return Layout(state["rows"], state["cols"], frozenset(parse_cell(c) for c in state["mine_cells"]))


def game(base: str, seeds: int) -> None:
    """100x100/2000: the automatic player's game, then the same moves one request each on a twin game."""
    latencies: list[float] = []
    moves = guesses = 0
    for seed in range(seeds):
        first = post(base + "api/game", {"rows": 100, "cols": 100, "mines": 2000, "seed": seed})[2]
        played = post(base + f"api/game/{first['id']}/auto", {"moves": 1000})[2]
        while played["stopped"] is None:
            played = post(base + f"api/game/{first['id']}/auto", {"moves": 1000})[2]
        layout = layout_of(played)
        record = play_game(layout, default_start(100, 100), rule="opening")
        twin = post(base + "api/game", {"rows": 100, "cols": 100, "mines": 2000, "seed": seed})[2]
        for move in record.moves:
            status, seconds, state = post(base + f"api/game/{twin['id']}/move", {"move": str(move)})
            assert status == 200, state
            latencies.append(seconds)
        moves += len(record.moves)
        guesses += len(record.guesses)
    print(f"game 100x100/2000: {moves} moves ({guesses} guesses) of {seeds} games, one request each: "
          f"{percentiles(latencies)}; over 200 ms: {sum(s > 0.2 for s in latencies)}")


def autoplay(base: str, games: int) -> None:
    """Expert games by /auto: one move per request (the page's stepping), and one request for a game."""
    single, batch, moves = [], [], 0
    for seed in range(games):
        gid = post(base + "api/game", {"preset": "expert", "seed": seed})[2]["id"]
        began = time.perf_counter()
        while True:
            state = post(base + f"api/game/{gid}/auto", {"moves": 1})[2]
            moves += len(state["auto"])
            if state["stopped"]:
                break
        single.append(time.perf_counter() - began)
        gid = post(base + "api/game", {"preset": "expert", "seed": seed})[2]["id"]
        status, seconds, state = post(base + f"api/game/{gid}/auto", {"moves": 1000})
        assert status == 200 and state["stopped"] in ("won", "lost"), state
        batch.append(seconds)
    print(f"autoplay expert, {games} games ({moves} moves), one move per request: a game in "
          f"p50 {statistics.median(single):.2f} s, max {max(single):.2f} s "
          f"({sum(single) / moves * 1000:.1f} ms a move); one request a game: p50 "
          f"{statistics.median(batch):.2f} s, max {max(batch):.2f} s")


def replay(base: str, path: Path) -> None:
    if not path.exists():
        print(f"replay: {path} is not here, skipped")
        return
    data = path.read_bytes()
    began = time.perf_counter()
    status, seconds, first = post(base + f"api/replay?name={path.name}", data)
    print(f"replay {path.name}: {status}, {first.get('moves')} moves and the page in {seconds:.1f} s "
          f"(done: {first.get('done')})")
    body = first
    while status == 200 and not body.get("done"):
        time.sleep(0.5)
        status, _, body = get(base + f"api/replay/{first['job']}")
    print(f"        its review {'done' if status == 200 else body.get('error')} at "
          f"{time.perf_counter() - began:.1f} s")


def no_guess(base: str, games: int) -> None:
    seconds, tries = [], []
    for seed in range(games):
        gid = post(base + "api/game", {"preset": "expert", "no_guess": True, "seed": seed})[2]["id"]
        status, took, state = post(base + f"api/game/{gid}/move", {"move": "H15"})
        assert status == 200, state
        seconds.append(took)
        tries.append(state["made"]["tries"])
    print(f"no-guess expert, {games} boards, the first uncover: p50 {statistics.median(seconds):.2f} s, "
          f"max {max(seconds):.2f} s; layouts tried p50 {statistics.median(tries):.0f}, max {max(tries)}")


def hint(base: str, games: int) -> None:
    """Each move with its hint, in one request and in two, on twin games of one board."""
    boards = [("expert", (16, 30, 99), games, None), ("100x100/2000", (100, 100, 2000), 1, 150)]
    for label, (rows, cols, mines), count, most in boards:
        together: list[float] = []
        apart: list[float] = []
        for seed in range(count):
            start = default_start(rows, cols)
            layout = generate_layout(rows, cols, mines, start=start, rule="opening", seed=seed)
            record = play_game(layout, start, rule="opening")
            # Given as a layout (its first click is then judged as a guess: the rule keeps no cell).
            body = {"layout": format_layout(layout, "text")}
            one, two = (post(base + "api/game", body)[2]["id"] for _ in range(2))
            for move in record.moves[:most]:
                status, seconds, state = post(base + f"api/game/{one}/move",
                                              {"move": str(move), "hint": True, "marks": True})
                assert status == 200, state
                status, before, state = post(base + f"api/game/{two}/move", {"move": str(move)})
                assert status == 200, state
                if state["status"] != "playing":
                    break
                status, after, answer = post(base + f"api/game/{two}/hint", {"marks": True})
                assert status == 200, answer
                together.append(seconds)
                apart.append(before + after)
        print(f"hint {label}: {len(together)} moves of {count} game(s), the move with its hint: "
              f"{percentiles(together)}; the move, then /hint: {percentiles(apart)}; "
              f"median ratio {statistics.median(apart) / statistics.median(together):.1f}")


def percentiles(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {pick(0.5):.0f} ms, p90 {pick(0.9):.0f} ms, max {ordered[-1] * 1000:.0f} ms"


def load(base: str, requests: int, concurrency: int) -> None:
    boards = [(ROOT / "puzzles" / name).read_text() for name in PUZZLES]
    jobs = [{"board": boards[i % len(boards)]} for i in range(requests)]
    began = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        answers = list(pool.map(lambda body: post(base + "api/analyze", body), jobs))
    wall = time.perf_counter() - began
    statuses = statistics.multimode([a[0] for a in answers])
    print(f"load: {requests} analyses, {concurrency} at once: {wall:.2f} s, {requests / wall:.1f} per s; "
          f"{percentiles([a[1] for a in answers])}; statuses {sorted(set(a[0] for a in answers))} "
          f"(most {statuses})")


def cut_off(base: str) -> None:
    answer: dict[str, Answer] = {}

    def search() -> None:
        answer["perfect"] = post(base + "api/perfect", {"board": LONG_PERFECT, "mines": 6})

    thread = threading.Thread(target=search)
    began = time.perf_counter()
    thread.start()
    time.sleep(0.5)
    quick = []
    board = (ROOT / "puzzles" / "expert-mid.txt").read_text()
    while thread.is_alive() and time.perf_counter() - began < 40:
        quick.append(post(base + "api/analyze", {"board": board}))
    thread.join()
    status, seconds, body = answer["perfect"]
    print(f"cut-off: perfect play on 6x6/6 answered {status} after {seconds:.1f} s: "
          f"{body.get('error', body)}")
    print(f"         meanwhile {len(quick)} expert analyses one after another, statuses "
          f"{sorted(set(q[0] for q in quick))}: {percentiles([q[1] for q in quick])}")


def hostile(base: str, names: list[str]) -> None:
    made = hostile_positions(big=False)
    for name in names:
        text = format_position(made[name](), "text")
        assert isinstance(text, str)
        status, seconds, body = post(base + "api/analyze", {"board": text})
        what = f"exact {body.get('exact')}" if status == 200 else body.get("error")
        print(f"hostile {name:<18} {len(text) / 1e3:7.0f} kB: {status} in {seconds:5.1f} s, {what}")


def clients(base: str, process: subprocess.Popen[str], count: int, seconds: float) -> None:
    """``count`` players at once for ``seconds``: expert games played by their hints (docstring, 10)."""
    moves: list[float] = []
    counts = {"requests": 0, "games": 0, "reads": 0}
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def player() -> None:
        opener = client()

        def ask(path: str, body: dict[str, object] | None = None, method: str = "POST") -> Answer | None:
            try:
                status, took, payload = fetch(base + path, body, 60.0, method, opener)
            except OSError as err:
                with lock:
                    errors.append(f"{path}: {err}")
                return None
            with lock:
                counts["requests"] += 1
                if status != 200:
                    errors.append(f"{path}: {status} {payload[:120]!r}")
            return (status, took, json.loads(payload)) if status == 200 else None

        while time.perf_counter() < stop:
            made = ask("api/game", {"preset": "expert"})
            if made is None:
                time.sleep(0.2)
                continue
            gid, move, count = made[2]["id"], "H15", 0
            with lock:
                counts["games"] += 1
            while move and time.perf_counter() < stop:
                answer = ask(f"api/game/{gid}/move", {"move": move, "hint": True, "marks": True})
                if answer is None:
                    break
                state = answer[2]
                with lock:
                    moves.append(answer[1])
                if state["status"] != "playing":
                    break
                hint = state.get("hint") or {}
                if "error" in hint:
                    with lock:
                        errors.append(f"hint: {hint['error']}")
                move = (hint.get("best") or {}).get("move")
                count += 1
                if count % 5 == 0 and ask(f"api/game/{gid}", method="GET") is not None:
                    with lock:
                        counts["reads"] += 1

    before = memory(process.pid)
    threads = [threading.Thread(target=player) for _ in range(count)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    after = memory(process.pid)
    ordered = sorted(moves)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    print(f"clients: {count} at once for {wall:.0f} s: {counts['requests']} requests ({counts['games']} "
          f"games, {len(moves)} moves with their hints, {counts['reads']} reads), {len(errors)} errors"
          + (f" (first: {errors[0]})" if errors else ""))
    print(f"         a move with its hint: p50 {pick(0.5):.0f} ms, p99 {pick(0.99):.0f} ms, "
          f"max {pick(1.0):.0f} ms")
    print(f"         server memory (its process + its workers): before {before[0]:.0f} + {before[1]:.0f} MB, "
          f"after {after[0]:.0f} + {after[1]:.0f} MB")


def memory(pid: int) -> tuple[float, float]:
    """Resident memory (MB) of the process ``pid``, and of all its descendants (Linux: /proc)."""

    def rss(process: int) -> float:
        try:
            for line in Path(f"/proc/{process}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def children(process: int) -> list[int]:
        found = []
        for task in Path(f"/proc/{process}/task").glob("*/children"):
            found += [int(c) for c in task.read_text().split()]
        return found

    seen, todo = [], children(pid)
    while todo:
        child = todo.pop()
        seen.append(child)
        todo += children(child)
    return rss(pid), sum(rss(child) for child in seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--hostile", nargs="*", default=HOSTILE, help="hostile.py positions (none: skip)")
    parser.add_argument("--only", nargs="*", choices=PARTS, default=PARTS, help="the parts to run")
    parser.add_argument("--games", type=int, default=5, help="games per part that plays games")
    parser.add_argument("--replay", type=Path, default=SAMPLE_36X60, help="the replay to open")
    parser.add_argument("--db", default=":memory:", help="the server's store: a path, :memory:, or none")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package's tree")
    parser.add_argument("--clients", type=int, default=50, help="players at once (clients)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they play (clients)")
    args = parser.parse_args()
    process, base = start(args.db, args.src)
    parts: dict[str, Callable[[], None]] = {
        "load": lambda: load(base, args.requests, args.concurrency),
        "cut-off": lambda: cut_off(base),
        "hostile": lambda: hostile(base, args.hostile),
        "big": lambda: big(base),
        "game": lambda: game(base, max(1, args.games // 2)),
        "autoplay": lambda: autoplay(base, args.games),
        "replay": lambda: replay(base, args.replay),
        "no-guess": lambda: no_guess(base, 4 * args.games),
        "hint": lambda: hint(base, args.games),
        "clients": lambda: clients(base, process, args.clients, args.seconds),
    }
    try:
        post(base + "api/analyze", {"board": "1?\n"})  # the first worker starts
        for name in args.only:
            parts[name]()
    except BaseException:
        time.sleep(1)  # the server's last words
        print("".join(SERVER_LOG[-60:]), file=sys.stderr)
        raise
    finally:
        process.terminate()
        process.wait(15)


if __name__ == "__main__":
    main()
