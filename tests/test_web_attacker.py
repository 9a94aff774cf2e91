"""``minesat serve`` tried as an attacker would, against a real server on a free loopback port.

The tests talk to ``minesat serve --db PATH --port 0`` in a subprocess (uvicorn, the store on
disk): one the module shares, or one of the test's own where it stops, restarts or floods it.
They talk to it over HTTP with ``httpx`` clients that keep cookies, as browsers and API clients
do: another client's moves in someone's game, a page of another site writing to the
server, a flood of new games, a restart, and the headers every page carries (issue 49;
docs/security.md says what the server promises).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'minesat[web]')")
pytest.importorskip("httpx", reason="httpx is not installed")

import httpx

from test_web import start_server

#: What a state answer may hold while its game is played: what its player sees, nothing hidden.
PUBLIC = {"id", "rows", "cols", "mines", "rule", "seed", "seed_drawn", "given", "no_guess", "copy_of",
          "hinted", "start", "status", "cells", "moves", "guesses", "elapsed", "log", "last", "own", "made",
          "making", "hint"}


class Server:
    """``minesat serve`` on a free loopback port, its games in ``store``; stopped by the test."""

    def __init__(self, store: Path, *args: str) -> None:
        self.store, self.args = store, args
        self.process, self.url = start_server("--db", str(store), *args)
        self.port = int(re.search(r":(\d+)/$", self.url).group(1))  # type: ignore[union-attr]

    def client(self) -> httpx.Client:
        """A client of its own (its own cookies: its own token once it writes)."""
        return httpx.Client(base_url=self.url, timeout=60)

    def stop(self, how: signal.Signals = signal.SIGTERM) -> int:
        self.process.send_signal(how)
        return self.process.wait(30)

    def restart(self) -> None:
        """The same store on the same port (a browser's token is named for the port)."""
        self.process, self.url = start_server("--db", str(self.store), "--port", str(self.port), *self.args)


def _serving(store: Path) -> Iterator[Server]:
    running = Server(store)
    try:
        yield running
    finally:
        running.process.kill()
        running.process.wait(30)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own: for the tests that stop it, restart it or flood it."""
    yield from _serving(tmp_path / "games.sqlite")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that only play on it, each with clients of its own (a server
    start is about a second of CPU). Its games are what a served store holds: other clients'
    games beside each test's own, as on a real server. The flood (which spends the address's
    allowance and the server's burst of new games), the restarts and the second server keep a
    server of their own (:func:`server`)."""
    yield from _serving(tmp_path_factory.mktemp("shared") / "games.sqlite")


def new_game(client: httpx.Client, **body: object) -> dict:
    answer = client.post("/api/game", json=body or {"preset": "expert"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def move(client: httpx.Client, gid: str, text: str) -> httpx.Response:
    return client.post(f"/api/game/{gid}/move", json={"move": text})


def one_line(answer: httpx.Response) -> str:
    error = answer.json()["error"]
    assert isinstance(error, str) and "\n" not in error and error, answer.text
    return error


# --- a fork ------------------------------------------------------------------------------------------


def test_losing_in_a_fork_wins_the_original_for_no_one(shared: Server) -> None:
    """The attack of issue 49: copy a game in progress, lose the copy to see its mines, then win the
    original by uncovering every other cell. The copy's mines are its own draw: 0 of 3 expert games
    won that way (each copy's layout shows the original's numbers, and differs from its layout)."""
    won = attacked = 0
    with shared.client() as player:
        for seed in range(3):
            gid = new_game(player, preset="expert", seed=str(seed))["id"]
            move(player, gid, "H15")
            state = player.post(f"/api/game/{gid}/auto", json={"moves": 60, "guesses": False}).json()
            if state["status"] != "playing":
                continue
            copy = player.post(f"/api/game/{gid}/fork", json={}).json()
            attacked += 1
            ended = player.post(f"/api/game/{copy['id']}/auto", json={"moves": 1000}).json()
            assert ended["status"] in ("won", "lost") and ended["seed"] is not None
            theirs = set(ended["mine_cells"])
            cells = player.get(f"/api/game/{gid}").json()["cells"]
            for index, shown in enumerate(cells):
                name = f"{chr(ord('A') + index // 30)}{index % 30 + 1}"
                if shown == -1 and name not in theirs:
                    answer = move(player, gid, name).json()
                    if answer["status"] != "playing":
                        won += answer["status"] == "won"
                        assert set(answer["mine_cells"]) != theirs
                        break
    assert attacked == 3 and won == 0


# --- another player ----------------------------------------------------------------------------------


def test_another_clients_moves_and_autoplay_are_refused_and_the_game_unchanged_its_maker_moves_on(
    shared: Server,
) -> None:
    with shared.client() as maker, shared.client() as stranger:
        game = new_game(maker)
        gid = game["id"]
        assert move(maker, gid, "H15").status_code == 200
        before = maker.get(f"/api/game/{gid}").json()
        attempts = [
            move(stranger, gid, "A1"), move(stranger, gid, "A1*"),
            stranger.post(f"/api/game/{gid}/auto", json={"moves": 1000}),
            stranger.post(f"/api/game/{gid}/move", json={"move": "A1", "hint": True}),
        ]
        for answer in attempts:
            assert answer.status_code == 403, answer.text
            assert one_line(answer).startswith("this game belongs to another player: play on in a copy")
        # A client without any cookie is no one's maker either.
        assert httpx.post(shared.url + f"api/game/{gid}/move", json={"move": "A1"}).status_code == 403
        seen = stranger.get(f"/api/game/{gid}").json()
        assert seen["own"] is False and maker.get(f"/api/game/{gid}").json()["own"] is True
        assert {k: v for k, v in seen.items() if k not in ("own", "elapsed")} == \
            {k: v for k, v in before.items() if k not in ("own", "elapsed")}
        # Reading, a hint on what is public, and a copy stay open to whoever has the id.
        hint = stranger.post(f"/api/game/{gid}/hint", json={})
        assert hint.status_code == 200 and "mine_cells" not in hint.text
        copy = stranger.post(f"/api/game/{gid}/fork", json={})
        assert copy.status_code == 200 and copy.json()["own"] is True and copy.json()["id"] != gid
        assert stranger.get(f"/api/game/{gid}").json()["log"] == before["log"]
        assert maker.post(f"/api/game/{gid}/auto", json={"moves": 1}).status_code == 200  # its maker goes on


def test_what_the_game_says_while_played_is_what_its_player_sees_no_layout_no_seed(shared: Server) -> None:
    with shared.client() as maker, shared.client() as stranger:
        gid = new_game(maker)["id"]
        auto = {"moves": 3, "hint": True, "guesses": False}
        answers = [move(maker, gid, "H15").json(), maker.get(f"/api/game/{gid}").json(),
                   stranger.get(f"/api/game/{gid}").json(),
                   maker.post(f"/api/game/{gid}/auto", json=auto).json()]
        for answer in answers:
            if answer["status"] != "playing":
                continue
            assert set(answer) - {"auto", "stopped", "next"} <= PUBLIC, set(answer) - PUBLIC
            assert answer["seed"] is None and "mine_cells" not in answer and "layout" not in answer


# --- another site ----------------------------------------------------------------------------------


def test_writes_from_another_site_are_refused_and_the_servers_own_origin_accepted(shared: Server) -> None:
    with shared.client() as player:
        gid = new_game(player)["id"]
        own = shared.url.rstrip("/")
        refused = {
            # A no-cors fetch from a page on another port: a text body, its own Origin.
            "text/plain": player.post(f"/api/game/{gid}/move", content=b'{"move": "H15"}',
                                      headers={"Content-Type": "text/plain", "Origin": "http://127.0.0.1:1"}),
            "text/plain, no Origin": player.post(f"/api/game/{gid}/move", content=b'{"move": "H15"}',
                                                 headers={"Content-Type": "text/plain"}),
            "no type": player.post(f"/api/game/{gid}/move", content=b'{"move": "H15"}'),
            "foreign Origin": player.post(f"/api/game/{gid}/move", json={"move": "H15"},
                                          headers={"Origin": "http://attacker.example"}),
            "another port": player.post(f"/api/game/{gid}/move", json={"move": "H15"},
                                        headers={"Origin": "http://127.0.0.1:1"}),
            "Sec-Fetch-Site": player.post(f"/api/game/{gid}/move", json={"move": "H15"},
                                          headers={"Sec-Fetch-Site": "same-site"}),
            "foreign Host": player.post(f"/api/game/{gid}/move", json={"move": "H15"},
                                        headers={"Host": "attacker.example"}),
            "foreign Host, a read": player.get(f"/api/game/{gid}", headers={"Host": "attacker.example"}),
            "foreign Host, the page": player.get("/", headers={"Host": f"attacker.example:{shared.port}"}),
            "a new game, text/plain": player.post("/api/game", content=b'{"preset": "expert"}',
                                                  headers={"Content-Type": "text/plain"}),
            "an upload as JSON": player.post("/api/replay?name=x.rmv", json={}),
        }
        for what, answer in refused.items():
            assert answer.status_code in (403, 415), (what, answer.status_code, answer.text)
            one_line(answer)
        assert player.get(f"/api/game/{gid}").json()["moves"] == 0  # none of them moved
        # The server's own page, by any of its names, is answered.
        for name in (own, own.replace("127.0.0.1", "localhost")):
            host = name.split("://")[1]
            answer = player.post(f"/api/game/{gid}/move", json={"move": "A1*"},
                                 headers={"Origin": name, "Host": host})
            assert answer.status_code == 200, (name, answer.text)
            move(player, gid, "A1-")
        assert player.get("/", headers={"Host": f"localhost:{shared.port}"}).status_code == 200


def test_every_answer_carries_the_policy_nosniff_and_no_framing_and_the_token_is_httponly_strict(
    shared: Server,
) -> None:
    with shared.client() as player:
        page = player.get("/")
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        assert re.search(r"script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;", policy), policy
        cookie = page.headers["set-cookie"]
        assert cookie.startswith(f"minesat-client-{shared.port}=")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        answers = [page, player.get("/assets/app.js"), player.post("/api/analyze", json={"board": "1?\n"}),
                   player.get("/api/game/nosuchgame")]
        for answer in answers:
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["content-security-policy"] == policy
        assert 'sandbox="allow-scripts"' in page.text and "srcdoc" not in page.text


# --- a flood, a restart ------------------------------------------------------------------------------


def test_four_hundred_games_of_another_client_drop_no_game_in_progress(server: Server) -> None:
    with server.client() as player, server.client() as flood:
        games = [new_game(player, preset="beginner")["id"] for _ in range(3)]
        for gid in games:
            assert move(player, gid, "A1*").status_code == 200
        before = [player.get(f"/api/game/{gid}").json()["cells"] for gid in games]
        statuses = [flood.post("/api/game", json={"preset": "beginner"}).status_code for _ in range(400)]
        # Without cookies too: each request another client.
        statuses += [httpx.post(server.url + "api/game", json={"preset": "beginner"}).status_code
                     for _ in range(100)]
        assert set(statuses) <= {200, 429} and statuses.count(200) >= 200, statuses
        refused = flood.post("/api/game", json={"preset": "beginner"})
        if refused.status_code == 429:
            one_line(refused)
        assert [player.get(f"/api/game/{gid}").json()["cells"] for gid in games] == before
        assert all(move(player, gid, "E5").status_code == 200 for gid in games)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_restart_on_the_same_store_loses_no_game_and_its_maker_moves_on(
    server: Server, how: signal.Signals
) -> None:
    with server.client() as player:
        gid = new_game(player)["id"]
        move(player, gid, "H15")
        first = player.get(f"/api/game/{gid}").json()
        finished = new_game(player, preset="beginner", seed="7")["id"]
        over = player.post(f"/api/game/{finished}/auto", json={"moves": 1000}).json()
        assert over["status"] in ("won", "lost")
        code = server.stop(how)
        assert code == (0 if how is signal.SIGTERM else -signal.SIGKILL)
        server.restart()
        with server.client() as again:
            again.cookies = player.cookies  # the same browser
            state = again.get(f"/api/game/{gid}").json()
            assert state["own"] is True and state["cells"] == first["cells"] and state["log"] == first["log"]
            assert state["seed"] is None and "mine_cells" not in state
            assert again.post(f"/api/game/{gid}/move", json={"move": "A1*"}).status_code == 200
            kept = again.get(f"/api/game/{finished}").json()
            assert {k: kept[k] for k in ("status", "mine_cells", "seed", "cells")} == \
                {k: over[k] for k in ("status", "mine_cells", "seed", "cells")}
            assert again.post(f"/api/game/{finished}/review", json={}).status_code == 200


def test_a_second_server_on_the_same_store_is_refused_in_one_line(server: Server) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    second = subprocess.run(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--port", "0",
         "--db", str(server.store)], capture_output=True, text=True, env=env, timeout=60,
    )
    assert second.returncode == 2
    in_use = f"minesat: {server.store} is in use by another minesat serve (one server per --db)\n"
    assert second.stderr == in_use
    with server.client() as player:  # the first goes on
        assert player.post("/api/game", json={"preset": "beginner"}).status_code == 200


def test_serve_refuses_an_empty_host_rather_than_listen_everywhere() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    done = subprocess.run(
        [sys.executable, "-c", "from minesat.cli import main; main()", "serve", "--host", "", "--port", "0",
         "--db", ":memory:"], capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 2 and done.stderr.startswith("minesat: --host must name an address")
    assert done.stderr.count("\n") == 1
