"""The live table's web server: the Starlette app (API, event stream, pages) and running it on uvicorn.

``build_app`` assembles the routes of the served tables (one, or every table of a club night); ``listen`` binds the
socket first (port 0: any free port, known before anything is printed) and
``serve`` runs uvicorn on it until Ctrl-C, then stops cleanly: every input
answered was stored before its answer, so nothing recorded is lost. uvicorn's
access log is off (a request line would name nothing secret, but nothing of a
request is printed at all), and an error inside a handler is answered 500 with
one line and logged as one line (once a minute per cause), never a traceback.
Every answer says ``nosniff``; every error, Starlette's 404 and 405 too, is JSON;
a request whose ``Host`` is not an address the server is reached at is refused.
uvicorn runs its own HTTP/1.1 protocol with the limits of ``cli.live.limits`` (a deadline for a request's
headers, caps on connections per address and in all).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import time
from typing import AsyncIterator, Callable, Iterator, Sequence

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cli.live import api, club, pages, stream
from cli.live.follow import follow
from cli.live.limits import Limits, protocol
from cli.live.access import Gate, LimitBody, Throttle, TooLarge, refusal, too_large
from cli.live.tables import ServedTables
from coimbra_events.store.errors import one_line

log = logging.getLogger("coimbra.serve")
STOP = (signal.SIGINT, signal.SIGTERM)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def build_app(tables: ServedTables, hosts: Sequence[str], port: int, throttle: Throttle | None = None) -> Starlette:
    """The web app of the served tables: the API and its event stream (behind each table's tokens), the
    organiser's list (behind the organiser's), the pages (public shells that hold no game data); the store is
    watched for entries others record while it runs.

    ``hosts``: the addresses the server is reached at (with this computer's loopback names, on ``port``), the
    one its links name first; a request that names another in its ``Host`` is answered 400 before anything
    else (a page of another site whose name was made to point here), and only these are the server's own origins."""
    reached = dict.fromkeys([*hosts, *LOOPBACK_NAMES])
    gate = Gate(frozenset(origin for host in reached for origin in origins(host, port)), throttle)
    base = f"http://{url_host(hosts[0])}:{port}"

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        follower = asyncio.create_task(follow(tables))
        try:
            yield
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower

    return Starlette(
        routes=[*api.routes(tables, gate), *stream.routes(tables, gate), *club.routes(tables, gate, base),
                *pages.routes()],
        middleware=[Middleware(Nosniff), Middleware(OneLineErrors),
                    Middleware(TrustedHostMiddleware, allowed_hosts=[url_host(h) for h in reached], www_redirect=False),
                    Middleware(LimitBody)],
        exception_handlers={TooLarge: too_large, HTTPException: http_error},
        lifespan=lifespan,
    )


def url_host(host: str) -> str:
    """``host`` as a URL (and a ``Host`` header) names it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def origins(host: str, port: int) -> list[str]:
    """The origins a browser sends for a page of ``host``:``port`` (the port left out when it is HTTP's own)."""
    named = f"http://{url_host(host)}"
    return [f"{named}:{port}", named] if port == 80 else [f"{named}:{port}"]


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (404: no such path, 405: a method the path does not take) as every other error:
    ``{"error": "one line"}``, with their headers (``Allow``)."""
    assert isinstance(exc, HTTPException)
    words = {404: f"no such path: {request.url.path[:100]}",
             405: f"{request.method} is not allowed here (allowed: {(exc.headers or {}).get('Allow', 'none')})"}
    return refusal(exc.status_code, words.get(exc.status_code, exc.detail), exc.headers)


class Nosniff:
    """ASGI middleware: every answer says ``X-Content-Type-Options: nosniff``, so that no browser reads an answer
    (a JSON error holding a name someone typed, say) as another type than the one it says it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).setdefault("X-Content-Type-Options", "nosniff")
            await send(message)

        await self.app(scope, receive, sending if scope["type"] == "http" else send)


LOG_EVERY = 60.0
"""Seconds between two log lines of one cause: a page retrying a failing request logs once a minute, not per try."""
KEPT_CAUSES = 256
"""Causes of errors remembered at once (those last logged over ``LOG_EVERY`` ago are forgotten first)."""


class OneLineErrors:
    """ASGI middleware: a fault of the server's own is one log line (its kind and message, no request data) and,
    if nothing was answered yet, a 500 in one line; never a traceback. One cause (the kind and message) is
    logged at most once in ``LOG_EVERY`` seconds; its next line says how many times it came meanwhile."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._said: dict[str, tuple[float, int]] = {}
        """Each cause: when it was last logged, and how many times it came since."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # whatever a handler raised: said in one line, as every refusal is
            self._log(scope, f"{type(exc).__name__}: {one_line(exc)}")
            if not started and scope["type"] == "http":
                await refusal(500, "the server could not answer this request; nothing stored by it")(scope, receive, send)

    def _log(self, scope: Scope, cause: str) -> None:
        """Log ``cause`` unless it was logged less than ``LOG_EVERY`` seconds ago (then count it)."""
        now = time.monotonic()
        last, repeats = self._said.get(cause, (None, 0))
        if last is not None and now - last < LOG_EVERY:
            self._said[cause] = (last, repeats + 1)
            return
        if len(self._said) >= KEPT_CAUSES:
            self._said = {c: said for c, said in self._said.items() if now - said[0] < LOG_EVERY}
        if len(self._said) < KEPT_CAUSES:
            self._said[cause] = (now, 0)
        again = f" (and {repeats} more times since it was last logged)" if repeats else ""
        log.error("error answering %s %s: %s%s", scope.get("method", ""), scope.get("path", ""), cause, again)


BACKLOG = 128
"""Connections waiting to be accepted (the socket's queue, and what asyncio accepts at once)."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (0: any free port) and listening (``OSError`` if it cannot be)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


UVICORN = {"log_level": "warning", "access_log": False, "proxy_headers": False, "server_header": False,
           "timeout_graceful_shutdown": 2, "lifespan": "on", "backlog": BACKLOG}
"""uvicorn's settings, for one process (``serve``) and for several (``cli.live.workers``)."""


def serve(app: Starlette, sock: socket.socket, ready: Callable[[], None], limits: Limits | None = None) -> None:
    """Run ``app`` on ``sock`` until Ctrl-C (or SIGTERM); ``ready`` is called once it answers. ``limits``: the
    connections' (``cli.live.limits``: a deadline for a request's headers, caps per address and for all)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """Ctrl-C and SIGTERM stop the server; unlike uvicorn's own, the signal is not raised again after."""
            loop = asyncio.get_running_loop()
            for sig in STOP:
                loop.add_signal_handler(sig, self.handle_exit, sig, None)
            try:
                yield
            finally:
                for sig in STOP:
                    loop.remove_signal_handler(sig)

    config = uvicorn.Config(app, http=protocol(limits or Limits()), **UVICORN)
    server = Server(config)

    async def main() -> None:
        running = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not running.done():
            await asyncio.sleep(0.01)
        if server.started and not running.done():
            ready()
        await running

    asyncio.run(main())
