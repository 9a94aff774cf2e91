"""What every request passes before a route sees it: where it comes from, who sends it, how often.

``minesat serve`` is a local server with no accounts; what it guards against is other web
pages the player visits and other programs on the machine (docs/security.md). :class:`Guard`
wraps the app and, for every request:

- **Host.** Only the names the server answers to (:data:`LOCAL_HOSTS`, and those given):
  a page of ``attacker.example`` whose name is rebound to 127.0.0.1 sends its own name, 403.
- **Origin.** A request that changes something (any method but GET and HEAD) from another
  page's origin, or that the browser says came from another site (``Sec-Fetch-Site``), 403.
- **Content type.** Such a request says ``application/json`` (the uploads:
  ``application/octet-stream``), else 415: a page elsewhere can send neither without the
  browser first asking (a preflight) the server, which never says yes.
- **The client.** Each browser, or API client that keeps cookies, holds one random token in
  an HttpOnly, SameSite=Strict cookie named for the server's port (:func:`cookie_name`):
  the games it makes are its own. A route reads it as ``request.state.client``.
- **Rate.** Each client (or, without a token, each address) has its own allowance of
  requests a second (:class:`Bucket`); past it, 429 with one line.
- **Headers.** Every answer says ``nosniff``, no referrer, no framing by another page, and
  the Content-Security-Policy the app gives (:func:`content_policy`).

>>> from starlette.applications import Starlette
>>> from starlette.responses import PlainTextResponse
>>> from starlette.routing import Route
>>> from starlette.testclient import TestClient
>>> async def hello(request):
...     return PlainTextResponse(request.state.client[:0] + "hi")
>>> app = Guard(Starlette(routes=[Route("/", hello, methods=["GET", "POST"])]), hosts=["testserver"])
>>> client = TestClient(app)
>>> client.post("/", json={}).text, client.post("/", content=b"{}").status_code
('hi', 415)
>>> client.post("/", json={}, headers={"Origin": "http://attacker.example"}).status_code
403
>>> TestClient(app, base_url="http://attacker.example").get("/").status_code
403
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "CLIENT_BURST",
    "CLIENT_RATE",
    "COOKIE_DAYS",
    "LOCAL_HOSTS",
    "UPLOADS",
    "Bucket",
    "Guard",
    "content_policy",
    "cookie_name",
    "owner_of",
    "script_hash",
]

#: The names a server answers to whatever its ``--host``: this machine's.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")

#: Requests a second each client may make, and how many at once after a pause: ten times what a
#: page sends (autoplay with hints on asked at most 16 in a second, at its 'fast' speed), so that
#: only a flood, or a script, meets it.
CLIENT_RATE = 200.0
CLIENT_BURST = 400

#: The routes that take a file's bytes (``application/octet-stream``), not JSON.
UPLOADS = ("/api/replay", "/api/store")

#: How long a browser keeps the client token (400 days: the most Chromium keeps any cookie).
COOKIE_DAYS = 400

#: A client token as the server makes them (:func:`secrets.token_urlsafe` of 24 bytes).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")

#: Clients whose allowance is remembered; past it the one seen longest ago is forgotten (its
#: next request starts with a full allowance).
_CLIENTS_KEPT = 10_000

#: Methods that only read.
_READS = ("GET", "HEAD")


def cookie_name(port: int) -> str:
    """The client token's cookie for the server on ``port``: cookies are not kept apart by port,
    so two servers on one machine each need their own name.

    >>> cookie_name(8000)
    'minesat-client-8000'
    """
    return f"minesat-client-{port}"


def owner_of(token: str) -> str:
    """What the store keeps of a client token: its hash (a copy of the store gives no one's token).

    >>> owner_of("x" * 32) == owner_of("x" * 32), len(owner_of("x" * 32))
    (True, 32)
    """
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def script_hash(text: str) -> str:
    """A CSP source allowing the inline script (or style) whose content is ``text``.

    >>> script_hash("")
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    """
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return f"'sha256-{digest}'"


def content_policy(scripts: Iterable[str] = (), styles: Iterable[str] = ()) -> str:
    """The page's Content-Security-Policy: everything from the server itself, the inline
    ``scripts`` and ``styles`` given by content (the viewer's, inside its frame), no plugin, no
    other page framing it.

    >>> content_policy().startswith("default-src 'self'; script-src 'self'; style-src 'self'")
    True
    """
    script = " ".join(["'self'", *(script_hash(s) for s in scripts)])
    style = " ".join(["'self'", *(script_hash(s) for s in styles)])
    return (f"default-src 'self'; script-src {script}; style-src {style}; img-src 'self' data: blob:; "
            "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Bucket:
    """A token bucket: ``rate`` a second, up to ``burst`` saved up.

    >>> now = [0.0]
    >>> bucket = Bucket(2.0, 3, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> now[0] = 0.5
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level = float(burst)
        self.at = clock()

    def take(self) -> bool:
        """One request's worth, if there is one."""
        now = self.clock()
        self.level = min(float(self.burst), self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


class Guard:
    """The app behind the checks of the module docstring.

    ``hosts``: the names answered besides :data:`LOCAL_HOSTS` (``--host``, ``--allowed-host``;
    the tests' ``testserver``). ``policy``: the Content-Security-Policy of every answer.
    """

    def __init__(
        self,
        app: Any,
        *,
        hosts: Iterable[str] = (),
        policy: str | None = None,
        rate: float = CLIENT_RATE,
        burst: int = CLIENT_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.hosts = {h.lower().strip("[]") for h in (*LOCAL_HOSTS, *hosts)}
        self.policy = policy or content_policy()
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        extra: list[tuple[bytes, bytes]] = []
        refusal = self.refusal(scope, headers)
        if refusal is None:
            port = (scope.get("server") or ("", 80))[1] or 80
            name = cookie_name(port)
            token = _cookie(headers.get("cookie", ""), name)
            state = scope.setdefault("state", {})
            if token is None and self._may_mint(scope, headers):
                token = secrets.token_urlsafe(24)
                extra.append((b"set-cookie", (f"{name}={token}; Path=/; HttpOnly; SameSite=Strict; "
                                              f"Max-Age={COOKIE_DAYS * 86400}").encode()))
            state["client"] = token or ""
            if scope["path"].startswith("/api/"):
                key = token or "address " + str((scope.get("client") or ("?",))[0])
                if not self._allowance(key).take():
                    refusal = (429, f"too many requests from this client: at most {self.rate:g} a second "
                                    "(wait a moment)")
        policy = self.policy.encode()

        async def guarded_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *_headers(policy), *extra]
            await send(message)

        if refusal is not None:
            status, text = refusal
            body = json.dumps({"error": text}).encode()
            await guarded_send({"type": "http.response.start", "status": status,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
            await guarded_send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, guarded_send)

    def refusal(self, scope: dict[str, Any], headers: dict[str, str]) -> tuple[int, str] | None:
        """Why the request is refused before any route sees it (status, one line), or ``None``."""
        host = headers.get("host", "")
        if _hostname(host) not in self.hosts:
            known = ", ".join(sorted(self.hosts))
            return 403, (f"this server does not answer to the name {host!r} (it answers to {known}; "
                         "minesat serve --allowed-host NAME adds one)")
        site = headers.get("sec-fetch-site", "")
        path, method = scope["path"], scope["method"]
        if method in _READS:
            if path.startswith("/api/") and site in ("cross-site", "same-site"):
                return 403, "a request from another site's page is refused"
            return None
        origin = headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1].lower() != host.lower():
            return 403, f"a request from another site's page ({origin}) is refused: use this server's page"
        if origin is None and site in ("cross-site", "same-site"):
            return 403, "a request from another site's page is refused"
        wanted = "application/octet-stream" if path in UPLOADS else "application/json"
        given = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if given != wanted:
            said = f"Content-Type {given}" if given else "no Content-Type"
            return 415, f"a request that changes something must say Content-Type: {wanted} ({said})"
        return None

    def _may_mint(self, scope: dict[str, Any], headers: dict[str, str]) -> bool:
        """Whether a request without a token is given one: a write, or the page itself opened by
        its address (not a link followed from another site: a SameSite=Strict cookie is not sent
        then, and a new token would take the place of the browser's own)."""
        if scope["method"] not in _READS:
            return True
        return scope["path"] == "/" and headers.get("sec-fetch-site", "none") in ("none", "same-origin")

    def _allowance(self, key: str) -> Bucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.rate, self.burst, self.clock)
            while len(self.buckets) > _CLIENTS_KEPT:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket


def _headers(policy: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", policy),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
    ]


def _hostname(host: str) -> str:
    """The name in a Host header, without its port.

    >>> _hostname("[::1]:8000"), _hostname("LocalHost:80"), _hostname("example")
    ('::1', 'localhost', 'example')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _cookie(header: str, name: str) -> str | None:
    """The client token in a Cookie header, when it has one of the server's making.

    >>> _cookie("a=1; minesat-client-80=" + "x" * 32, "minesat-client-80") == "x" * 32
    True
    >>> _cookie("minesat-client-80=short", "minesat-client-80") is None
    True
    """
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name and _TOKEN.fullmatch(value):
            return value
    return None
