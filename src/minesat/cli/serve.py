"""``minesat serve``: the analyser, a game and the replay viewer in the browser (docs/commands/serve.md)."""

from __future__ import annotations

import socket
from types import FrameType
from typing import Annotated

import typer

from minesat.cli import app
from minesat.cli.common import fail

__all__ = ["NEEDS_EXTRA", "serve"]

#: Said when the web extra is missing.
NEEDS_EXTRA = "serve needs the web extra: pip install 'minesat[web]'"


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 opens it to the network (no login!).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8000,
) -> None:
    """Serve the analyser page and its JSON API (docs/commands/serve.md).

    Analyse a position (paste, upload or build it by clicking), play a game
    with hints and have it reviewed, or step through a replay. The URL is
    printed on stderr once the server accepts connections; Ctrl-C or SIGTERM
    stops it. Exit status: 0 stopped, 2 the extra missing or the address unusable.
    """
    try:
        import uvicorn

        from minesat.web.app import create_app
    except ImportError:
        fail(NEEDS_EXTRA)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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

    config = uvicorn.Config(create_app(), log_level="warning", lifespan="on", timeout_graceful_shutdown=5)
    Server(config).run(sockets=[sock])
