"""``minesat serve``: the analyser, a game and the replay viewer in the browser (docs/commands/serve.md)."""

from __future__ import annotations

import gc
import socket
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from minesat.cli.common import fail

__all__ = ["NEEDS_EXTRA", "default_store", "serve", "tcp_socket"]

#: This module's commands: :mod:`minesat.cli` adds them to ``minesat``'s app when it loads the module.
commands = typer.Typer()

#: Said when the web extra is missing.
NEEDS_EXTRA = "serve needs the web extra: pip install 'minesat[web]'"


def default_store() -> Path:
    """Where the games are kept unless ``--db`` says: the user's data folder, as the platform has
    it (``~/.local/share/minesat/serve.sqlite`` on Linux)."""
    import platformdirs

    return platformdirs.user_data_path("minesat", appauthor=False) / "serve.sqlite"


@commands.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 opens it to the network (no login!).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(metavar="PATH", help="The games' store (default: serve.sqlite in the user's data "
                     "folder; :memory: keeps nothing)."),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME", help="Another name the server answers to (behind a proxy); repeatable."),
    ] = None,
) -> None:
    """Serve the analyser page and its JSON API (docs/commands/serve.md).

    Analyse a position (paste, upload or build it by clicking), play a game
    with hints and have it reviewed, or step through a replay. The games are
    kept in a store (--db) across restarts. The URL is printed on stderr once
    the server accepts connections; Ctrl-C or SIGTERM stops it. Exit status: 0
    stopped, 2 the extra missing, the address unusable or the store in use.
    """
    try:
        import uvicorn

        from minesat.web.app import StoreInUse, StoreUnreadable, create_app
    except ImportError:
        fail(NEEDS_EXTRA)
    if not host.strip():
        # An empty address would listen on every interface: a choice made only by naming it.
        fail("--host must name an address (127.0.0.1, or 0.0.0.0 for every interface), not ''")
    hosts = [host, *(allowed_host or [])]
    if db is None:
        try:
            path: Path | None = default_store()
        except ImportError:
            fail(NEEDS_EXTRA)
        assert path is not None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            fail(f"cannot make {path.parent} for the games' store: {err.strerror or err} (give --db PATH)")
    else:
        path = None if db == ":memory:" else Path(db)
    try:
        web_app = create_app(db=path, allowed_hosts=hosts)
    except (StoreInUse, StoreUnreadable) as err:
        fail(str(err))
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = tcp_socket(family)
    try:
        sock.bind((host, port))
    except (OSError, OverflowError) as err:
        sock.close()
        fail(f"cannot listen on {host}:{port}: {getattr(err, 'strerror', None) or err}")
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{bound}/"

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                typer.echo(f"minesat: serving on {url} (Ctrl-C stops)", err=True)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            # Asked to stop, it stops cleanly (status 0): uvicorn would raise the signal again
            # once shut down, so that the process dies of it.
            captured = getattr(self, "_captured_signals", None)
            if isinstance(captured, list):
                captured.clear()

    # The library's modules and the app are some 400 000 objects the cyclic collector would scan at
    # every full collection (170 ms, in the middle of someone's move): frozen, it scans the games.
    gc.collect()
    gc.freeze()
    config = uvicorn.Config(web_app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5)
    Server(config).run(sockets=[sock])


def tcp_socket(family: socket.AddressFamily) -> socket.socket:
    """A socket to listen on, its address reusable at once after a restart.

    It names its protocol, TCP: asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only on
    connections whose socket says so, and the connections accepted on it inherit it. Without
    it, an answer on a kept-alive connection (headers, then body) waited 40 ms for the client's
    delayed acknowledgement.
    """
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return sock
