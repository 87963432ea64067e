"""Who may read and write a served table: two tokens, a session cookie, and the refusals.

A served table has two random tokens (256 bits each): the players' (read and
write) and the watchers' (read only), kept by the application for the game
(``Games.table_keys``), so that a restart keeps every link. They travel in the links'
fragments (``/play#t=...``), which a browser never sends, so no server log line
holds one; a request shows one as ``Authorization: Bearer ...``, or a page trades
it (``POST /api/session``) for its role's session cookie (HttpOnly, SameSite=Strict),
which its event stream sends: one cookie per role and table, so tabs of either role
and of many tables (served by one server, or on other ports of one computer) hold theirs side by side. A server
of every table has a third role, the organiser's, with one token of its own (``Games.organiser_key``). Every
comparison takes the same time whatever matches (``hmac.compare_digest``).

Wrong credentials are slowed: each is answered after a delay, and an address
that made ``FREE_FAILURES`` wrong attempts within ``WINDOW`` seconds has its
credentials looked at once every ``WINDOW / FREE_FAILURES`` seconds only (the
right token let in, a wrong one and the requests in between answered 429), so an
address guesses at most twice that many tokens a minute; other addresses (the
table's phones) are answered as before. A write from another site's page is refused (its
``Origin``, or ``Sec-Fetch-Site``, is not one of this server's addresses), and so is a body over
``MAX_BODY`` bytes (``LimitBody``, before it is read whole).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from coimbra_events.controls import first_control
from coimbra_events.store.links import OrganiserKey, TableKeys, digest

PLAYERS, WATCHERS = "players", "watchers"
COOKIE = "coimbra"
"""The session cookies' names begin so: ``coimbra_players_ID``, ``coimbra_watchers_ID`` (``Keys.cookie_name``)."""
MAX_BODY = 16 * 1024
"""Bytes a request body may have."""
MAX_TEXT = 1000
"""Characters an input, a note or a reason may have."""
MAX_NAME = 64
"""Characters of who entered an input (``by``)."""
MAX_DIGITS = 9
"""Digits of an entry number in a query or header (a game has a few hundred entries)."""
FREE_FAILURES = 10
WINDOW = 60.0
FAILURE_DELAY = 0.25
"""Seconds before a wrong credential is answered."""
KEPT_ADDRESSES = 1024
"""Addresses with failures kept before those whose failures have all expired are forgotten."""


@dataclass(frozen=True)
class Keys:
    """The tokens of a served table (``TableKeys``: kept by the application, so a restart keeps them), or the
    organiser's (``OrganiserKey``), and the session cookies they are traded for: one per role, named for the role
    and this set of keys, so a watchers' tab never changes a players' tab and two tables served from one computer
    never share one; its value is made from the token, so that a restarted server takes the cookies its pages hold."""

    kept: TableKeys | OrganiserKey = field(default_factory=TableKeys)

    @property
    def players(self) -> str:
        return self.kept.roles()[PLAYERS]

    @property
    def watchers(self) -> str:
        return self.kept.roles()[WATCHERS]

    def role(self, presented: str) -> str | None:
        """Whose token this is: every token is compared, each in constant time."""
        given = presented.encode()
        found = None
        for role, kept in self.kept.roles().items():
            if hmac.compare_digest(given, kept.encode()):
                found = role
        return found

    def replaced(self, presented: str) -> bool:
        """Whether this token was one of these keys' before they were replaced (``--new-links``)."""
        given = digest(presented).encode()
        return any([hmac.compare_digest(given, kept.encode()) for kept in self.kept.replaced])

    def cookie_name(self, role: str) -> str:
        return f"{COOKIE}_{role}_{self.kept.id}"

    def cookie(self, role: str) -> str:
        """The session cookie's value for ``role``: a secret made from its token, the same in every run."""
        return hmac.new(self.kept.roles()[role].encode(), b"coimbra table session", hashlib.sha256).hexdigest()

    def session_role(self, cookies: Mapping[str, str]) -> str | None | bool:
        """Whose session the request's cookies of these keys are (the players' first); ``False``: none of their
        cookies is there (a cookie of another table, or of replaced links, is not a guess at this one's)."""
        presented = False
        for role in self.kept.roles():
            value = cookies.get(self.cookie_name(role))
            if value is not None:
                presented = True
                if hmac.compare_digest(value.encode(), self.cookie(role).encode()):
                    return role
        return None if presented else False


class Throttle:
    """Wrong attempts by address: each answered after a delay; once an address made ``free`` of them within
    ``window`` seconds, its credentials are looked at once every ``window / free`` seconds only, the others
    answered 429 unlooked. So a phone that now shows the right token is let in, and a guesser tests at most
    twice ``free`` tokens a window."""

    def __init__(self, free: int = FREE_FAILURES, window: float = WINDOW, delay: float = FAILURE_DELAY) -> None:
        self.free, self.window, self.delay = free, window, delay
        self._failures: dict[str, deque[float]] = {}
        self._next: dict[str, float] = {}
        """When a throttled address's credentials are looked at again."""

    def throttled(self, address: str) -> bool:
        """Whether ``address`` made ``free`` wrong attempts within the window (older ones are forgotten)."""
        failures = self._failures.get(address)
        if not failures:
            return False
        now = time.monotonic()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[address]
            self._next.pop(address, None)
        return len(failures) >= self.free

    def wait_for(self, address: str) -> float:
        """Seconds until a credential from ``address`` is looked at (0: now)."""
        if not self.throttled(address):
            return 0.0
        return max(0.0, self._next.get(address, 0.0) - time.monotonic())

    async def failed(self, address: str) -> bool:
        """Count a wrong attempt, and answer it only after a delay (other requests are served meanwhile); whether
        the address was throttled already (then its next credential is looked at only after a spell)."""
        if len(self._failures) >= KEPT_ADDRESSES:
            for other in list(self._failures):
                self.throttled(other)  # forgets the addresses whose failures are all older than the window
        throttled = self.throttled(address)
        if throttled:
            self._next[address] = time.monotonic() + self.window / self.free
        self._failures.setdefault(address, deque()).append(time.monotonic())
        await asyncio.sleep(self.delay)
        return throttled


def refusal(status: int, error: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An error answer: ``{"error": "one line"}``, not cached."""
    return JSONResponse({"error": error}, status_code=status, headers={"Cache-Control": "no-store", **(headers or {})})


NO_TOKEN = "this page has no key to the table: scan the table's code, or open the link its screen shows"
WRONG_TOKEN = "this link is not the table's: scan the table's code again, or open the link its screen shows"
REPLACED = "these links were replaced: scan the table's new code"
"""The 401s, said for a person at a phone; an API client reads ``WWW-Authenticate: Bearer`` beside them."""


class Gate:
    """Admits a request to a table (or to the organiser's routes) by its keys, or answers why not; one per
    server, so that wrong tokens are counted per address whichever table they were tried on."""

    def __init__(self, origins: frozenset[str], throttle: Throttle | None = None) -> None:
        """``origins``: the server's own (``http://HOST:PORT`` for each address it is reached at)."""
        self.origins, self.throttle = origins, throttle or Throttle()

    async def admit(self, request: Request, keys: Keys, write: bool = False) -> str | Response:
        """The role of the request's credentials among ``keys``', or the refusal to answer: 403 for a write from
        another site or by the watchers, 415 for a write that is not JSON, 401 without valid credentials, 429 when
        slowed."""
        if write:
            refused = self.cross_site(request)
            if refused is not None:
                return refused
        bearer = bearer_token(request)
        role = keys.role(bearer) if bearer is not None else keys.session_role(request.cookies)
        if role is False:  # no credentials of this table: nothing to count as a guess
            return refusal(401, NO_TOKEN, {"WWW-Authenticate": "Bearer"})
        address = request.client.host if request.client else ""
        wait = self.throttle.wait_for(address)
        if wait > 0:
            return self.slowed(wait)
        if role is None and bearer is not None and keys.replaced(bearer):  # once the table's: not a guess
            return refusal(401, REPLACED, {"WWW-Authenticate": "Bearer"})
        if role is None:
            if await self.throttle.failed(address):
                return self.slowed(self.throttle.wait_for(address))
            return refusal(401, WRONG_TOKEN, {"WWW-Authenticate": "Bearer"})
        if write and role == WATCHERS:
            return refusal(403, "this is the watchers' link: it only watches; to record, scan the players' code")
        if write and bearer is None and "origin" not in request.headers:
            return refusal(403, "not stored: the browser did not say which page this came from; open the table's page again")
        return str(role)

    @staticmethod
    def slowed(wait: float) -> Response:
        return refusal(429, "too many wrong keys from this address: wait a moment, then scan the table's code again",
                       {"Retry-After": str(int(wait) + 1)})

    def cross_site(self, request: Request, json: bool = True) -> Response | None:
        """403 for a write from another site's page (its ``Origin`` or ``Sec-Fetch-Site``); 415 for a write whose
        body is not JSON (a form another site posts); ``None``: neither. The origin is compared with the server's
        own, never with what the request's ``Host`` says."""
        site = request.headers.get("sec-fetch-site")
        origin = request.headers.get("origin")
        if (site is not None and site not in ("same-origin", "none")) or (origin is not None and origin not in self.origins):
            return refusal(403, "not stored: this came from another site's page, not the table's")
        if json and request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return refusal(415, "a write is a JSON body (Content-Type: application/json)")
        return None


def bearer_token(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def text_field(body: dict[str, Any], key: str, required: bool = True, most: int = MAX_TEXT) -> str | None:
    """A string field of a JSON body, at most ``most`` characters and without a control character (nor a
    bidirectional override: ``coimbra_events.controls``); ``ValueError`` naming it otherwise."""
    value = body.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise ValueError(f"{key!r}: expected a string" + ("" if value is None else f", got {type(value).__name__}"))
    if len(value) > most:
        raise ValueError(f"{key!r}: at most {most} characters (got {len(value)})")
    control = first_control(value)
    if control is not None:
        raise ValueError(f"{key!r}: a control character (U+{ord(control):04X}) cannot be stored")
    return value


def entry_number(value: str, name: str) -> int:
    """An entry number given in a query or header: 1 to ``MAX_DIGITS`` ASCII digits; ``ValueError`` naming it
    otherwise (``str.isdigit`` takes ``²``, which ``int`` refuses, and ``int`` refuses over 4,300 digits)."""
    if not _DIGITS.fullmatch(value):
        raise ValueError(f"{name} {value[:20]!r}: expected an entry number (1 to {MAX_DIGITS} digits 0-9)")
    return int(value)


_DIGITS = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")


class TooLarge(Exception):
    """A request body that went over ``MAX_BODY`` while it was read (answered 413: ``too_large``)."""


async def too_large(request: Request, exc: Exception) -> Response:
    return refusal(413, f"a request body may have at most {MAX_BODY} bytes")


class LimitBody:
    """ASGI middleware: a request body over ``MAX_BODY`` bytes is answered 413 before it is read whole (at once if
    it says its length, else ``TooLarge`` as soon as it goes over)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            await too_large_response(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise TooLarge()
            return message

        await self.app(scope, counted, send)


async def too_large_response(scope: Scope, receive: Receive, send: Send) -> None:
    await refusal(413, f"a request body may have at most {MAX_BODY} bytes")(scope, receive, send)
