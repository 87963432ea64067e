"""The organiser's routes of a server of every table: the tables with their links, starting and putting away
a table, and the league's known people.

Every route takes the organiser's token only (``ServedTables.organiser``); a server of one table has no
organiser, and answers them 404. ``GET /api/tables`` gives every served table at a glance with its links and
tokens and a QR code of its players' link (segno, an SVG as a data URI, made once per set of keys), which
the organiser's page (``/club``) and the table cards (``/cards``) show, with the evening page's link
(``cli.live.evening``); ``GET /api/tables/events`` tells
the organiser's page when to read it again. A table started here is a game of the
application (``Games.start_table``: the evening's tag on it), served at once.
"""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Awaitable, Callable

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cli.live.access import MAX_NAME, Gate, Keys, refusal, text_field
from cli.live.api import Json
from cli.live.evening_key import evening_links
from cli.live.refusals import Refusals
from cli.live.stream_budget import StreamBudget
from cli.live.tables import Seated, ServedTables
from coimbra_events.game import StillInProgress
from coimbra_events.store.errors import BadGameName, BadPlayers, UnknownGame
from coimbra_events.store.links import ORGANISER

SEATINGS = ("entered", "drawn")
"""How a started table's seats are ordered: as the players were entered, or drawn."""
STREAMS = 10
"""The organiser's event streams open at once (a laptop and a phone, a few tabs)."""
GATHER = 0.3
"""Seconds a stream waits after a change for those that come with it (twenty tables' entries: one event)."""


def links(base: str, keys: Keys) -> dict[str, str]:
    """A table's links and tokens (``base``: ``http://HOST:PORT``), as ``--json`` and the organiser's list say them."""
    return {"players_url": f"{base}/play#t={keys.players}", "watchers_url": f"{base}/watch#t={keys.watchers}",
            "players_token": keys.players, "watchers_token": keys.watchers}


def organiser_links(base: str, keys: Keys) -> dict[str, str]:
    """The organiser's link (the organiser's page) and token."""
    token = keys.kept.roles()[ORGANISER]
    return {"organiser_url": f"{base}/club#t={token}", "organiser_token": token}


def routes(tables: ServedTables, gate: Gate, base: str) -> list[BaseRoute]:
    organiser = Organiser(tables, gate, base)
    return [Route("/api/tables", organiser.admitted(organiser.listed), methods=["GET"]),
            Route("/api/tables/events", organiser.admitted(organiser.events), methods=["GET"]),
            Route("/api/tables", organiser.admitted(organiser.start, write=True), methods=["POST"]),
            Route("/api/tables/{name}/done", organiser.admitted(organiser.done, write=True), methods=["POST"]),
            Route("/api/people", organiser.admitted(organiser.people), methods=["GET"])]


class Organiser:
    """The organiser's handlers."""

    def __init__(self, tables: ServedTables, gate: Gate, base: str) -> None:
        self.tables, self.gate, self.base = tables, gate, base
        self._codes: dict[str, str] = {}
        """The QR code of each set of keys' players' link, by the keys' id."""
        self._streams = StreamBudget(STREAMS, "the organiser's")

    def admitted(self, handle: Callable[[Request], Awaitable[Response]],
                 write: bool = False) -> Callable[[Request], Awaitable[Response]]:
        """``handle``, for the organiser's token (or cookie) only."""

        async def checked(request: Request) -> Response:
            if self.tables.organiser is None:
                return refusal(404, "this server serves one table: it has no organiser (serve without GAME)")
            role = await self.gate.admit(request, self.tables.organiser, write)
            return role if isinstance(role, Response) else await handle(request)

        return checked

    async def listed(self, request: Request) -> Response:
        """Every served table, in the order served, at a glance and with its links."""
        return Json({"tag": self.tables.tag, **self._evening(),
                     "tables": [await self._table(s) for s in list(self.tables.served.values())]})

    async def events(self, request: Request) -> Response:
        """``event: tables`` at once, then whenever any table changed (an entry, a seat, a table started or put
        away; changes that come together are told once): the page then reads the list again."""
        return self._streams.stream(self._told())

    async def _told(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            seen = self.tables.changes
            yield {"event": "tables", "data": str(seen)}
            await self.tables.wait(seen)
            await asyncio.sleep(GATHER)

    async def start(self, request: Request) -> Response:
        """``{"players": [{"name", "color"}, ...], "seating": "entered"|"drawn"}``: a new table, served at once."""
        try:
            body = orjson.loads(await request.body())
            players, drawn = _players(body), _seating(body)
        except (ValueError, orjson.JSONDecodeError) as exc:
            return refusal(400, f"bad request: {exc}")
        try:
            seated = await run_in_threadpool(self.tables.start, players, drawn)
        except (BadPlayers, BadGameName) as exc:
            return refusal(400, f"{exc}; no table started")
        self.tables.changed()
        return Json(await self._table(seated))

    async def done(self, request: Request) -> Response:
        """``{"archive": true}``: serve the table no more, and archive its game (the league then leaves it out);
        a game over may be put away without archiving it (``false``), one in progress only archived."""
        name = request.path_params["name"]
        if self.tables.get(name) is None:
            return refusal(404, f"no game named {name!r} is served here")
        try:
            archive = orjson.loads(await request.body()).get("archive")
        except (AttributeError, orjson.JSONDecodeError):
            archive = None
        if not isinstance(archive, bool):
            return refusal(400, "bad request: 'archive': expected true or false")
        refused = await Refusals(unknown=(UnknownGame,), conflict=(StillInProgress,)).run(
            run_in_threadpool(self.tables.put_away, name, archive))
        if isinstance(refused, Response):
            return refused
        self.tables.changed()
        return Json({"game": name, "archived": archive})

    async def people(self, request: Request) -> Response:
        """The league's known people, each once (an alias names its person), with their aliases."""
        return Json({"people": await run_in_threadpool(self.tables.people)})

    async def _table(self, seated: Seated) -> dict[str, Any]:
        glance = await seated.table.run(seated.table.glance)
        shown = links(self.base, seated.keys)
        return {**glance, **shown, "players_qr": self._code(seated.keys.kept.id, shown["players_url"])}

    def _evening(self) -> dict[str, str]:
        """The evening page's link and token (``cli.live.evening``), and the QR code of its link."""
        assert self.tables.evening is not None
        shown = evening_links(self.base, self.tables.evening)
        return {**shown, "evening_qr": self._code(self.tables.evening.kept.id, shown["evening_url"])}

    def _code(self, keys_id: str, url: str) -> str:
        if keys_id not in self._codes:
            import segno

            self._codes[keys_id] = segno.make(url, error="l").svg_data_uri(scale=4, border=2)
        return self._codes[keys_id]


def _players(body: Any) -> list[tuple[str, str]]:
    """The players of a table to start: 2 to 4, each a name and a colour."""
    given = body.get("players") if isinstance(body, dict) else None
    if not isinstance(given, list) or not 2 <= len(given) <= 4 or not all(isinstance(p, dict) for p in given):
        raise ValueError("'players': expected 2 to 4 players, each {\"name\", \"color\"}")
    return [(str(text_field(p, "name", most=MAX_NAME)).strip(), str(text_field(p, "color", most=MAX_NAME)).strip())
            for p in given]


def _seating(body: dict[str, Any]) -> bool:
    """Whether the seats are drawn (``"drawn"``) or kept as entered (``"entered"``, the default)."""
    seating = body.get("seating", "entered")
    if seating not in SEATINGS:
        raise ValueError(f"'seating': expected one of {', '.join(SEATINGS)}")
    return seating == "drawn"
