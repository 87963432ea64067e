"""The event stream of a served game (server-sent events): every entry, in order, to every open page.

Each event is ``id: <entry number>``, ``event: entry``, its data the entry as
``presenter.entry_json`` says it (with the head after it), the newest with the view after
it (``view``: ``ServedTable.update_of``), so that a page holding the entry before draws it
without reading the game (each of a dozen pages reading it cost them and the server more
than telling it). A page that slept,
or whose connection was cut, reconnects with the last id it saw
(``Last-Event-ID``, which a browser's EventSource sends by itself; or
``?last=N`` on a fresh connection) and is told every entry after it, then each
new one as it is stored; ``event: seat`` when a phone claimed or let go a seat (its
page then reads the game again, which says which seats it holds). Entries are read from the served table's list, never
from the store, so a hundred open streams cost the store nothing.

Every ``PING`` seconds a stream says ``event: ping`` (its data empty), so that a page that heard nothing
for a few pings knows its stream is dead though it looks open, and no proxy drops a quiet stream as idle.
Each role has its own budget of streams (``STREAMS``), a slot taken before the stream is answered and
given back when it ends, however it ends: a burst never admits more than the budget, and the watchers'
link filling its budget never refuses a player's page.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, AsyncIterator, Callable

import orjson
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from cli.live.access import PLAYERS, WATCHERS, Gate, entry_number, refusal
from cli.live.table import ServedTable
from cli.live.tables import ServedTables, admitted

STREAMS = {PLAYERS: 40, WATCHERS: 120}
"""Streams open at once, by role (a table has a handful of phones, a few reloading tabs, and some watchers)."""
RETRY_AFTER = 5
"""Seconds a client refused a stream (its role's budget is full) is told to wait (``Retry-After``)."""
PING = 5
"""Seconds between two ``ping`` events on a stream (a page that hears nothing for three takes it for dead)."""


def routes(tables: ServedTables, gate: Gate) -> list[BaseRoute]:
    return [Route("/api/games/{name}/events", TableStreams(tables, gate).events, methods=["GET"])]


class TableStreams:
    """The open streams of every served table, each table's counted apart."""

    def __init__(self, tables: ServedTables, gate: Gate) -> None:
        self.tables, self.gate = tables, gate
        self.tables_streams: dict[str, OpenStreams] = {}

    async def events(self, request: Request) -> Response:
        """The stream of the table the path names, admitted by that table's keys (404: no such table here)."""
        found = await admitted(self.tables, self.gate, request)
        if isinstance(found, Response):
            return found
        table, role = found
        streams = self.tables_streams.get(table.name)
        if streams is None or streams.table is not table:
            streams = self.tables_streams[table.name] = OpenStreams(table)
        return streams.events(request, role)


class OpenStreams:
    """The open streams of one served table."""

    def __init__(self, table: ServedTable) -> None:
        self.table = table
        self.open: Counter[str] = Counter()
        """Streams open (or being answered) by role."""
        self._said: tuple[tuple[int, str, bool], str] = ((0, "", False), "")

    def events(self, request: Request, role: str) -> Response:
        """Every entry after ``Last-Event-ID`` (or ``?last=N``; none given: from the first), then each new one."""
        header, query = request.headers.get("last-event-id"), request.query_params.get("last")
        try:
            last = (entry_number(header.strip(), "Last-Event-ID") if header else
                    entry_number(query, "last") if query is not None else 0)
        except ValueError as exc:
            return refusal(400, f"bad request: {exc}")
        if self.open[role] >= STREAMS[role]:
            return refusal(503, f"the {role}' link has {STREAMS[role]} streams open, as many as the table takes: "
                                f"try again in {RETRY_AFTER} seconds", {"Retry-After": str(RETRY_AFTER)})
        self.open[role] += 1
        return HeldStream(self._entries(last), lambda: self.open.subtract((role,)))

    async def _entries(self, seen: int) -> AsyncIterator[dict[str, Any]]:
        seats = self.table.seat_changes
        while True:
            for entry in self.table.entries[seen:]:
                yield {"id": str(entry["seq"]), "event": "entry", "data": self._data(entry)}
                seen = entry["seq"]
            if seats != self.table.seat_changes:  # a phone claimed or let go a seat: each page reads who holds what
                seats = self.table.seat_changes
                yield {"event": "seat", "data": orjson.dumps({"changes": seats}).decode()}
            await self.table.wait(seen, seats)

    def _data(self, entry: dict[str, Any]) -> str:
        """An entry as JSON, made once for every stream that tells it (by its number and head); the newest with
        the view after it (``view``: ``ServedTable.update_of``), so that a page holding the entries before draws
        it without reading the game."""
        update = self.table.update_of(entry)
        key = (entry["seq"], entry["head"], update is not None)
        if self._said[0] != key:
            self._said = (key, orjson.dumps({**entry, "view": update} if update is not None else entry).decode())
        return self._said[1]


def ping() -> ServerSentEvent:
    """A ``ping`` event: a named event (not a comment, which a page's EventSource never tells), its data empty."""
    return ServerSentEvent(event="ping", data="")


class HeldStream(EventSourceResponse):
    """An event stream that holds a slot of its role's budget until it ends (told, cut, or the server stopping)."""

    def __init__(self, entries: AsyncIterator[dict[str, Any]], release: Callable[[], None]) -> None:
        super().__init__(entries, ping=PING, ping_message_factory=ping, headers={"Cache-Control": "no-store"})
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()
