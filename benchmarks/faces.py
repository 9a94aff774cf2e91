"""Two versions of minesat seen from outside: every command's output and the web API's answers, compared.

    git worktree add --detach /tmp/faces_OLD OLD      # two checkouts (any two trees with src/minesat)
    git worktree add --detach /tmp/faces_NEW NEW
    python3 benchmarks/faces.py --old /tmp/faces_OLD --new /tmp/faces_NEW [--only PATTERN ...]
        [--no-web] [--no-cli] [--list] [--save DIR] [--diff-lines 40] [--self-check]
    git worktree remove /tmp/faces_OLD; git worktree remove /tmp/faces_NEW

Each tree is run as a user runs it: ``python -m minesat`` in a fresh process with the tree's
``src`` on ``PYTHONPATH`` (so this Python needs minesat's dependencies, and no other minesat
may shadow the tree's), in a fresh temporary directory per case holding the same inputs for
both: this checkout's puzzles, the sample replays of ``/work/shared/replays``, small boards and
broken files written by ``faces_corpus.py`` (which lists the corpus: ``--list``). A case is one
command line or a few that build on each other (``simulate`` then ``report`` of its database);
each case runs in the old tree, then in the new. The environment is fixed (``COLUMNS=100``,
``TERM=dumb``, ``NO_COLOR``, ``PYTHONHASHSEED=0``).

Compared, for every command line: standard output, standard error, the exit status, and every
file the case wrote or changed: JSON and JSON Lines structurally, CSV record by record, SQLite
databases table by table, Parquet row by row, replay files as the new tree's ``minesat replay
--json`` reads them, other text line by line, other binary files byte for byte. The web API:
``minesat serve --port 0 --db :memory:`` of each tree (a store kept nowhere), then the same
requests to both, in order, as a client that keeps its cookie (the games it makes are its own):
analyse, position, explain, best, perfect; games made, moved, flagged, hinted, played by
autoplay and reviewed; replays and a game database uploaded; bad requests of each kind. A
replay review that answers "moves first" is waited for; compared: the status and the answer.

What is normalised before comparing, and why (everything else must be equal):

- **The clock.** Keys holding a duration or a moment (``seconds`` and any ``*_seconds_*``
  figure, ``seconds_hist``, ``elapsed``, ``started``, ``finished``, ``games_per_second``, a
  written replay's ``start_time``, ``end_time`` and ``timestamp``; :data:`CLOCK_KEYS`), in
  text a number beside a time unit (``0.42 s``, ``12 ms``), a rate (``412.3 games/s``) and ISO
  dates; an HTML report's "Time per game" figure and the ``NAME-time.svg`` beside a Markdown
  report; a web game's 3BV/s (the server's clock; a replay's 3BV/s is its file's and is
  compared); how far ``generate --no-guess`` got when it stops past ``--time-limit``.
- **Places and random draws.** The tree's path and the case's temporary directory (they differ
  by construction); a web game's ``id`` and a replay review's ``job`` (random tokens).
- **Fingerprints of the code.** The player's fingerprint (a SHA-256 of the source of every
  module the strategy imports, docs/commands/report.md: any change to those files changes it,
  moves or not), whole and as a sweep's table shortens it, and a run's ``games_sha256`` (the
  digest of its export, whose records carry the player). The export itself is compared record
  by record, so the games behind the digest are checked.
- **Matplotlib's SVG.** Its ``id`` attributes (drawn at random) and the date it stamps.

``--self-check`` runs one tree against itself (``--old`` twice): what differs then is noise
this normalisation misses. Differences are printed case by case, each a unified diff of the
normalised outputs; ``--save DIR`` keeps every raw output (``DIR/CASE/old.json``, ``new.json``,
``DIR/web/``). Nothing is asserted: the exit status is 0 whatever differs. A full run (about
330 command lines and 100 requests per tree) takes 8 to 15 minutes on a shared 2-core machine.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import difflib
import fnmatch
import hashlib
import http.client
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faces_corpus import REPLAY_SUFFIXES, REPLAYS, Case, Request, cases, requests, snapshot, write_inputs

# --- running one tree -----------------------------------------------------------------


def environment(tree: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")}
    return {**keep, "PYTHONPATH": str(tree / "src"), "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1",
            "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}


@dataclass
class Ran:
    """What one command line did."""

    argv: list[str]
    status: int
    stdout: str
    stderr: str
    seconds: float


@dataclass
class Outcome:
    """What one case did in one tree: its steps and the files it wrote."""

    steps: list[Ran]
    files: dict[str, Any] = field(default_factory=dict)
    work: str = ""


def run_case(tree: Path, case: Case, reader: Path) -> Outcome:
    """Run ``case`` with ``tree``'s code in a fresh directory (replay files written: read by ``reader``)."""
    with tempfile.TemporaryDirectory(prefix="faces-") as name:
        work = Path(name)
        inputs = write_inputs(work)
        ran = []
        for step in case.steps:
            began = time.perf_counter()
            try:
                given = step.stdin.encode() if isinstance(step.stdin, str) else step.stdin
                done = subprocess.run(
                    [sys.executable, "-m", "minesat", *step.argv], input=given, capture_output=True,
                    cwd=work, env=environment(tree), timeout=step.timeout,
                )
                status = done.returncode
                stdout, stderr = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
            except subprocess.TimeoutExpired:
                status, stdout, stderr = -1, "", f"(timed out after {step.timeout} s)"
            ran.append(Ran(step.argv, status, stdout, stderr, time.perf_counter() - began))
        after = snapshot(work)
        written = {path: read_output(work / path, reader) for path, digest in after.items()
                   if inputs.get(path) != digest}
        return Outcome(ran, written, name)


def read_output(path: Path, reader: Path) -> Any:
    """A written file as something to compare: text (JSON is parsed later), a database table by
    table, Parquet's rows, a replay file as ``reader``'s ``minesat replay --json`` reads it (its
    bytes hold the clock's time), else the bytes' digest."""
    data = path.read_bytes()
    if data.startswith(b"SQLite format 3"):
        return {"sqlite": dump_sqlite(path)}
    if path.suffix == ".parquet":
        try:
            import pyarrow.parquet

            return {"parquet": pyarrow.parquet.read_table(path).to_pylist()}
        except Exception as err:  # no pyarrow, or a file it cannot read: the digest then
            return {"binary": hashlib.sha256(data).hexdigest(), "bytes": len(data), "unread": str(err)}
    if path.suffix in REPLAY_SUFFIXES:
        done = subprocess.run([sys.executable, "-m", "minesat", "replay", str(path), "--json"],
                              capture_output=True, text=True, env=environment(reader), cwd=path.parent)
        return {"replay": done.stdout, "read": done.returncode, "bytes": len(data)}
    try:
        return data.decode()
    except UnicodeDecodeError:
        return {"binary": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def dump_sqlite(path: Path) -> dict[str, Any]:
    """Every table's schema and rows (in rowid order where there is one)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {}
        listed = "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"
        for name, sql in connection.execute(listed):
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info('{name}')")]
            rows = connection.execute(f"SELECT * FROM '{name}'").fetchall()
            records = [dict(zip(columns, map(plain, row), strict=True)) for row in rows]
            tables[name] = {"sql": sql, "rows": records}
        return tables
    finally:
        connection.close()


def plain(value: Any) -> Any:
    if isinstance(value, bytes):
        try:
            return json.loads(value)
        except ValueError:
            return "<bytes " + hashlib.sha256(value).hexdigest()[:16] + ">"
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


# --- the web API ------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    body: Any


class Server:
    """``minesat serve --port 0`` of one tree."""

    def __init__(self, tree: Path, work: Path) -> None:
        self.log: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "minesat", "serve", "--port", "0", "--db", ":memory:"], cwd=work,
            env=environment(tree),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        match = re.search(r"(http://\S+?)/?\s", line + " ")
        if match is None:
            self.process.kill()
            raise SystemExit(f"faces.py: the server of {tree} did not start: {line.strip()}")
        self.base = match.group(1)
        self.cookies: dict[str, str] = {}  # the client's token: the games it makes are its own
        threading.Thread(target=lambda: self.log.extend(self.process.stderr or ()), daemon=True).start()

    def ask(self, method: str, path: str, body: Any) -> Answer:
        """Status and answer (JSON parsed where it is), as a client that keeps cookies asks: a write
        says JSON, an upload (a replay, a database) ``application/octet-stream``, as the server
        wants them. A body refused unread (413) may break the connection while it is sent: the
        answer is read all the same."""
        where = urllib.parse.urlsplit(self.base)
        connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=120)
        data = None if method == "GET" else body if isinstance(body, bytes) else json.dumps(body).encode()
        upload = urllib.parse.urlsplit(path).path in UPLOADS
        headers = {"Content-Type": "application/octet-stream" if upload else "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                connection.request(method, path, body=data, headers=headers)
            try:
                response = connection.getresponse()
                status, payload = response.status, response.read()
                for header in response.headers.get_all("Set-Cookie") or []:
                    name, _, value = header.split(";", 1)[0].partition("=")
                    self.cookies[name.strip()] = value.strip()
            except (ConnectionError, http.client.HTTPException) as err:
                return Answer(0, f"(no answer: {type(err).__name__})")
        finally:
            connection.close()
        try:
            return Answer(status, json.loads(payload))
        except ValueError:
            return Answer(status, payload.decode(errors="replace"))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def run_web(tree: Path, asked: list[Request]) -> dict[str, Answer]:
    """Every request to ``tree``'s server, in order; a replay review still running is waited for."""
    answers: dict[str, Answer] = {}
    with tempfile.TemporaryDirectory(prefix="faces-web-") as name:
        work = Path(name)
        made = subprocess.run([sys.executable, "-m", "minesat", "simulate", "--preset", "beginner", "--games",
                               "6",
                               "--workers", "1", "--db", "games.sqlite"], cwd=work, env=environment(tree),
                              capture_output=True, text=True)
        if made.returncode:
            raise SystemExit(f"faces.py: the web part's database: {made.stderr}")
        db = (work / "games.sqlite").read_bytes()
        server = Server(tree, work)
        try:
            game = job = "none"
            for request in asked:
                path = request.path.replace("{id}", game).replace("{job}", job)
                body = db if request.body == "{db}" else request.body
                answer = server.ask(request.method, path, body)
                if isinstance(answer.body, dict):
                    if request.path == "/api/game" and "id" in answer.body:
                        game = str(answer.body["id"])
                    if "job" in answer.body:
                        job = str(answer.body["job"])
                        deadline = time.monotonic() + 300
                        while answer.status == 200 and not answer.body.get("done", True) and \
                                time.monotonic() < deadline:
                            time.sleep(0.5)
                            answer = server.ask("GET", f"/api/replay/{job}", None)
                answers[request.name] = answer
        finally:
            server.stop()
    return answers


# --- normalising ----------------------------------------------------------------------

#: JSON keys (and CSV columns) whose values are a clock's: a duration or a moment.
CLOCK_KEYS = {
    "seconds", "elapsed", "started", "finished", "start_time", "end_time", "timestamp", "games_per_second",
}
#: Keys whose values are fingerprints of the code or of a run's export (which carries the player).
FINGERPRINT_KEYS = {"player", "games_sha256"}
#: Keys drawn at random by the web app (a game's id, a replay review's job).
WEB_KEYS = {"id", "job"}
#: The routes that take a file's bytes, not JSON (the server's ``minesat.web.guard.UPLOADS``).
UPLOADS = ("/api/replay", "/api/store")

#: Matplotlib's figure of the time per game in an HTML report (its axis and bars are clock readings).
TIME_FIGURE = re.compile(r'<figure aria-label="Time per game">.*?</figure>', re.S)
#: Rules for text, in order: (pattern, replacement).
TEXT_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?"), "<date>"),
    (re.compile(r"\b\d+(\.\d+)?(e-?\d+)? ?(s|ms|µs|seconds?)\b"), "<time>"),
    (re.compile(r"\b\d+(\.\d+)? (games|moves|analyses)/s\b"), "<rate>"),
    # A report's provenance: the run's export digest (its records carry the player's fingerprint),
    # in a report's table (Markdown or HTML) and in a sweep's, after each point's finishing date.
    (re.compile(r"((?:Games \(SHA-256\)|<date>)(?:</td><td>| \| ))[0-9a-f]{64}\b"), r"\1<games-sha256>"),
    # generate --no-guess past --time-limit: how far it got is the clock's.
    (re.compile(r"(past --time-limit <time>: )\d+( of \d+ boards made, board )\d+( not found in )\d+"),
     r"\1<n>\2<n>\3<n>"),
    # Matplotlib's SVG: ids drawn at random, and the date it stamps.
    (re.compile(r'id="[^"]*"'), 'id="<id>"'),
    (re.compile(r"url\(#[^)]*\)"), "url(#<id>)"),
    (re.compile(r'xlink:href="#[^"]*"'), 'xlink:href="#<id>"'),
    (re.compile(r"<dc:date>[^<]*</dc:date>"), "<dc:date/>"),
]
#: A web game's 3BV per second is the server's clock's (a replay's is its file's, and is compared).
WEB_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(3BV/s</dt><dd>)[\d.]+"), r"\1<clock>"),
]
CSV_HEADER = re.compile(r"^[a-z_][a-z_0-9]*(,[a-z_][a-z_0-9]*){2,}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Normaliser:
    """The normalisation of one tree's outputs: its places (paths) and its player's fingerprint."""

    def __init__(self, places: dict[str, str], web: bool = False) -> None:
        # Longest first, so that a path inside another is replaced whole.
        self.places = sorted(places.items(), key=lambda kv: -len(kv[0]))
        self.keys = CLOCK_KEYS | (WEB_KEYS if web else set())
        self.rules = TEXT_RULES + (WEB_RULES if web else [])
        self.web = web

    def text(self, text: str) -> str:
        for place, name in self.places:
            text = text.replace(place, name)
        for pattern, replacement in self.rules:
            text = pattern.sub(replacement, text)
        return text

    def value(self, value: Any, key: str | None = None) -> Any:
        if value is None or value == "":
            return value
        if key is not None and (key in self.keys or re.search(r"(^|_)seconds(_|$)", key)):
            return "<clock>" if key not in WEB_KEYS else "<random>"
        if key in FINGERPRINT_KEYS and isinstance(value, str) and HEX64.match(value):
            return f"<{key}>"
        if isinstance(value, dict):
            return {k: self.value(v, k) for k, v in value.items()}
        if self.web and isinstance(value, list) and len(value) == 2 and value[0] == "3BV/s":
            return ["3BV/s", "<clock>"]  # a row of a web game's review summary
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if key == "page" and isinstance(value, str):
            return self.stream(value)  # a page as its lines, for a readable diff
        if isinstance(value, str):
            return self.text(value)
        return value

    def stream(self, text: str) -> list[Any]:
        """A stream as lines, each parsed where it is JSON (one document or JSON Lines); CSV as records."""
        text = TIME_FIGURE.sub("<figure: time per game>", text.strip("\n"))
        if text[:1] in "[{":
            try:
                return [self.value(json.loads(text))]
            except ValueError:
                pass
        if CSV_HEADER.match(text.split("\n", 1)[0]):
            return [self.value(dict(row)) for row in csv.DictReader(io.StringIO(text))]
        lines: list[Any] = []
        for line in text.split("\n") if text else []:
            if line[:1] in "[{":
                try:
                    lines.append(self.value(json.loads(line)))
                    continue
                except ValueError:
                    pass
            lines.append(self.text(line))
        return lines

    def answer(self, body: Any) -> Any:
        """A web answer: JSON, or a page's text."""
        return self.stream(body) if isinstance(body, str) else self.value(body)

    def output(self, name: str, content: Any) -> Any:
        if name.endswith("-time.svg"):
            return "<plot: time per game>"
        if isinstance(content, str):
            return self.stream(content)
        if isinstance(content, dict) and "replay" in content:
            return {**content, "replay": self.stream(content["replay"])}
        if isinstance(content, dict):
            return self.value(content)
        return content


def shown(value: Any) -> list[str]:
    """A normalised value as lines, for a diff."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    if isinstance(value, list):
        return [v if isinstance(v, str) else json.dumps(v, sort_keys=True) for v in value] \
            if all(not isinstance(v, (dict, list)) or len(json.dumps(v)) < 200 for v in value) \
            else json.dumps(value, indent=1, sort_keys=True).splitlines()
    return json.dumps(value, indent=1, sort_keys=True).splitlines()


def differences(label: str, old: Any, new: Any, lines: int) -> list[str]:
    if old == new:
        return []
    diff = list(difflib.unified_diff(shown(old), shown(new), "old", "new", lineterm="", n=1))
    cut = diff[2:2 + lines] + ([f"  ... {len(diff) - 2 - lines} more lines"] if len(diff) - 2 > lines else [])
    return [f"  {label}:"] + ["    " + line[:300] for line in cut]


# --- the comparison -------------------------------------------------------------------


def fingerprint(tree: Path) -> str:
    """The player's fingerprint of ``tree`` (SPEC 18): a one-game run's export says it."""
    with tempfile.TemporaryDirectory(prefix="faces-player-") as work:
        run = ["simulate", "--rows", "4", "--cols", "4", "--mines", "1", "--games", "1", "--workers", "1"]
        for argv in ([*run, "--db", "f.sqlite"], ["export", "f.sqlite"]):
            done = subprocess.run([sys.executable, "-m", "minesat", *argv], capture_output=True, text=True,
                                  cwd=work, env=environment(tree))
            if done.returncode:
                raise SystemExit(f"faces.py: {tree}: minesat {' '.join(argv)}: {done.stderr.strip()}")
        player: str = json.loads(done.stdout.splitlines()[0])["player"]
        return player


@dataclass
class Comparison:
    """Two trees, their players' fingerprints, and how much of a diff to show."""

    trees: dict[str, Path]
    players: dict[str, str]
    lines: int
    save: Path | None

    def normaliser(self, side: str, work: str = "", web: bool = False) -> Normaliser:
        player = self.players[side]  # whole, and as a sweep's table shortens it
        places = {str(self.trees[side]): "<tree>", tempfile.gettempdir(): "<tmp>", player: "<player>",
                  player[:12]: "<player>"}
        if work:
            places[work] = "<work>"
        return Normaliser(places, web)

    def case(self, case: Case) -> list[str]:
        """What differs between the trees' runs of ``case``, as lines to print (none: the same)."""
        outcomes = {side: run_case(tree, case, self.trees["new"]) for side, tree in self.trees.items()}
        norms = {side: self.normaliser(side, outcomes[side].work) for side in self.trees}
        report: list[str] = []
        for k, (a, b) in enumerate(zip(outcomes["old"].steps, outcomes["new"].steps, strict=True)):
            found: list[str] = []
            if a.status != b.status:
                found.append(f"  exit status: old {a.status}, new {b.status}")
            for stream in ("stdout", "stderr"):
                found += differences(stream, norms["old"].stream(getattr(a, stream)),
                                     norms["new"].stream(getattr(b, stream)), self.lines)
            if found and len(case.steps) > 1:
                report.append(f" step {k + 1}: minesat {' '.join(a.argv)}")
            report += found
        old_files, new_files = outcomes["old"].files, outcomes["new"].files
        for name in sorted(set(old_files) | set(new_files)):
            if name not in new_files or name not in old_files:
                report.append(f"  file {name}: written by {'old' if name in old_files else 'new'} only")
                continue
            report += differences(f"file {name}", norms["old"].output(name, old_files[name]),
                                  norms["new"].output(name, new_files[name]), self.lines)
        if self.save is not None:
            folder = self.save / re.sub(r"[^\w.-]+", "_", case.name)
            folder.mkdir(parents=True, exist_ok=True)
            for side, outcome in outcomes.items():
                kept = {"steps": [r.__dict__ for r in outcome.steps], "files": outcome.files,
                        "work": outcome.work}
                (folder / f"{side}.json").write_text(json.dumps(kept, indent=1, default=str))
        return report

    def web(self, asked: list[Request]) -> list[str]:
        """What differs between the trees' answers to ``asked``, request by request."""
        answers = {side: run_web(tree, asked) for side, tree in self.trees.items()}
        norms = {side: self.normaliser(side, web=True) for side in self.trees}
        report: list[str] = []
        for request in asked:
            a, b = answers["old"][request.name], answers["new"][request.name]
            found = [f"  status: old {a.status}, new {b.status}"] if a.status != b.status else []
            found += differences("answer", norms["old"].answer(a.body), norms["new"].answer(b.body),
                                 self.lines)
            if found:
                report += [f"[web] {request.name}: {request.method} {request.path}", *found]
        if self.save is not None:
            (self.save / "web").mkdir(parents=True, exist_ok=True)
            for side, got in answers.items():
                (self.save / "web" / f"{side}.json").write_text(json.dumps(
                    {k: v.__dict__ for k, v in got.items()}, indent=1, default=str))
        return report


def selected(items: list[Any], patterns: list[str] | None) -> Iterator[Any]:
    for item in items:
        if not patterns or any(fnmatch.fnmatch(item.name, p) for p in patterns):
            yield item


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="the old tree (a checkout's root, with src/minesat)")
    parser.add_argument("--new", type=Path, help="the new tree")
    parser.add_argument("--self-check", action="store_true", help="run --old against itself: the noise")
    parser.add_argument("--only", nargs="*", help="cases and requests whose names match these patterns")
    parser.add_argument("--no-web", action="store_true", help="leave the web API out")
    parser.add_argument("--no-cli", action="store_true", help="leave the command lines out")
    parser.add_argument("--list", action="store_true", help="list the corpus and stop")
    parser.add_argument("--save", type=Path, help="keep every raw output in this directory")
    parser.add_argument("--diff-lines", type=int, default=40, help="diff lines shown per output (default 40)")
    args = parser.parse_args()
    corpus, asked = cases(), requests()
    if args.list:
        for case in corpus:
            for step in case.steps:
                print(f"{case.name}: minesat {' '.join(step.argv)}" + (" < stdin" if step.stdin else ""))
        for request in asked:
            print(f"[web] {request.name}: {request.method} {request.path}")
        commands = sum(len(c.steps) for c in corpus)
        print(f"{len(corpus)} cases, {commands} command lines; {len(asked)} requests")
        return
    if args.old is None or (args.new is None and not args.self_check):
        parser.error("--old and --new (or --old with --self-check) are required")
    trees = {"old": args.old.resolve(), "new": (args.old if args.self_check else args.new).resolve()}
    for tree in trees.values():
        if not (tree / "src" / "minesat").is_dir():
            parser.error(f"no src/minesat in {tree}")
    if not REPLAYS.is_dir():
        parser.error(f"the sample replays are not in {REPLAYS} (set MINESAT_SAMPLE_REPLAYS)")
    chosen = [] if args.no_cli else list(selected(corpus, args.only))
    chosen_requests = [] if args.no_web else list(selected(asked, args.only))
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    players = {side: fingerprint(tree) for side, tree in trees.items()}
    compare = Comparison(trees, players, args.diff_lines, args.save)
    for side in trees:
        print(f"{side} {trees[side]} (player {players[side][:16]})", flush=True)
    differing = 0
    began = time.perf_counter()
    for n, case in enumerate(chosen, 1):
        found = compare.case(case)
        differing += bool(found)
        print(f"[{n}/{len(chosen)}] {case.name}: {'DIFFERS' if found else 'same'}", *found, sep="\n",
              flush=True)
    web_differing = 0
    if chosen_requests:
        print(f"web: {len(chosen_requests)} requests to each server", flush=True)
        web_report = compare.web(chosen_requests)
        web_differing = sum(line.startswith("[web]") for line in web_report)
        print("\n".join(web_report) if web_report else "web: every answer the same", flush=True)
    commands = sum(len(c.steps) for c in chosen)
    print(f"\n{len(chosen)} cases ({commands} command lines): {differing} differ; "
          f"{len(chosen_requests)} web requests: {web_differing} differ; {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
