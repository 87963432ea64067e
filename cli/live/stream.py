"""The event stream of a served game (server-sent events): every entry, in order, to every open page.

Each event is ``id: <entry number>``, ``event: entry``, its data the entry as
``presenter.entry_json`` says it (with the head after it). A page that slept,
or whose connection was cut, reconnects with the last id it saw
(``Last-Event-ID``, which a browser's EventSource sends by itself; or
``?last=N`` on a fresh connection) and is told every entry after it, then each
new one as it is stored; ``event: seat`` when a phone claimed or let go a seat (its
page then reads the game again, which says which seats it holds). Entries are read from the served table's list, never
from the store, so a hundred open streams cost the store nothing.
"""

from __future__ import annotations

from typing import Any, AsyncIterator

import orjson
from sse_starlette import EventSourceResponse
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cli.live.access import Gate, entry_number, refusal
from cli.live.table import ServedTable

MAX_STREAMS = 200
"""Streams open at once (a table has a handful of phones and some watchers)."""
PING = 15
"""Seconds between two comments on a quiet stream, so that no proxy or phone drops it as idle."""


def routes(table: ServedTable, gate: Gate) -> list[BaseRoute]:
    return [Route("/api/games/{name}/events", OpenStreams(table, gate).events, methods=["GET"])]


class OpenStreams:
    """The open streams of one served table."""

    def __init__(self, table: ServedTable, gate: Gate) -> None:
        self.table, self.gate, self.open = table, gate, 0
        self._said: tuple[tuple[int, str], str] = ((0, ""), "")

    async def events(self, request: Request) -> Response:
        """Every entry after ``Last-Event-ID`` (or ``?last=N``; none given: from the first), then each new one."""
        role = await self.gate.admit(request)
        if isinstance(role, Response):
            return role
        if request.path_params["name"] != self.table.name:
            return refusal(404, f"no game named {request.path_params['name']!r} at this table")
        if self.open >= MAX_STREAMS:
            return refusal(503, "too many open streams; try again later", {"Retry-After": "5"})
        header, query = request.headers.get("last-event-id"), request.query_params.get("last")
        try:
            last = (entry_number(header.strip(), "Last-Event-ID") if header else
                    entry_number(query, "last") if query is not None else 0)
        except ValueError as exc:
            return refusal(400, f"bad request: {exc}")
        return EventSourceResponse(self._entries(last), ping=PING, headers={"Cache-Control": "no-store"})

    async def _entries(self, seen: int) -> AsyncIterator[dict[str, Any]]:
        self.open += 1
        seats = self.table.seat_changes
        try:
            while True:
                for entry in self.table.entries[seen:]:
                    yield {"id": str(entry["seq"]), "event": "entry", "data": self._data(entry)}
                    seen = entry["seq"]
                if seats != self.table.seat_changes:  # a phone claimed or let go a seat: each page reads who holds what
                    seats = self.table.seat_changes
                    yield {"event": "seat", "data": orjson.dumps({"changes": seats}).decode()}
                await self.table.wait(seen, seats)
        finally:
            self.open -= 1

    def _data(self, entry: dict[str, Any]) -> str:
        """An entry as JSON, made once for every stream that tells it (by its number and head)."""
        key = (entry["seq"], entry["head"])
        if self._said[0] != key:
            self._said = (key, orjson.dumps(entry).decode())
        return self._said[1]
