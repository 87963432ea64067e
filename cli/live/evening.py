"""The evening for watchers (``/evening``): the evening's standings and every table's board, read only, for a
projector or a phone, on a server of every table.

Its link holds the evening page's token (``cli.live.evening_key``: the watchers' role, so never a write).
``GET /api/evening`` says the evening whole; ``GET /api/evening/events`` is the page's one stream, however
many tables: ``event: evening`` at once, then whenever any table changed (changes that come together are told
once, as on the organiser's stream). The standings are the league's own (``projections.league.reports.standings``
of the evening's tag, as ``league standings --season TAG`` says them), read again only when a table's game ends,
a table starts or is put away; each table is its glance (``ServedTable.glance``) and its board
(``presenter.table_json``), made once per head whichever streams tell it. A stream tells a table's board only
when it moved since that stream last told it, each catalog once, and the standings when they were read again (``Sent``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cli.live.access import Gate, refusal
from cli.live.api import Json
from cli.live.club import GATHER
from cli.live.stream_budget import StreamBudget
from cli.live.table import ServedTable
from cli.live.tables import ServedTables

STREAMS = 60
"""Evening pages open at once (a projector or two, and the watchers' phones)."""


def routes(tables: ServedTables, gate: Gate) -> list[BaseRoute]:
    evening = Evening(tables, gate)
    return [Route("/api/evening", evening.admitted(evening.read), methods=["GET"]),
            Route("/api/evening/events", evening.admitted(evening.events), methods=["GET"])]


UNSENT: Any = object()
"""What a stream that told no standings yet told of them."""


@dataclass
class Sent:
    """What one stream told its page so far: each table's head whose board it told, the catalogs it told, the
    standings it told (as read: they are read again only when a game ended, began or was put away)."""

    heads: dict[str, str] = field(default_factory=dict)
    catalogs: set[str] = field(default_factory=set)
    standings: Any = UNSENT

    def event(self, evening: dict[str, Any], catalogs: dict[str, Any]) -> dict[str, Any]:
        """``evening`` for this page: a table's board only if it moved since told, a catalog only if never told,
        the standings only if read again since told."""
        told = {k: v for k, v in evening.items() if k != "standings" or v is not self.standings}
        self.standings = evening["standings"]
        tables = []
        for table in evening["tables"]:
            moved = self.heads.get(table["game"]) != table["head"]
            self.heads[table["game"]] = table["head"]
            tables.append(table if moved else {k: v for k, v in table.items() if k != "board"})
        new = {key: catalogs[key] for key in {t["catalog"] for t in tables} - self.catalogs}
        self.catalogs |= new.keys()
        return {**told, "tables": tables, "catalogs": new}


class Evening:
    """The evening page's handlers, and the evening as last made (shared by every stream)."""

    def __init__(self, tables: ServedTables, gate: Gate) -> None:
        self.tables, self.gate = tables, gate
        self._tables: dict[str, tuple[tuple[ServedTable, int], dict[str, Any]]] = {}
        """Each table as last made, by name: the served table and its entries then, and the table."""
        self._catalogs: dict[str, dict[str, Any]] = {}
        """The catalogs of the tables (``presenter.catalog_lookup``), by their digest."""
        self._standings: tuple[tuple[tuple[str, bool], ...], dict[str, Any] | None] = ((), None)
        """The standings, and the tables (each its name and whether its game is over) they were read for."""
        self._made: tuple[int, dict[str, Any]] | None = None
        """The evening as last made, and the count of changes it was made at (``ServedTables.changes``)."""
        self._making = asyncio.Lock()
        self._streams = StreamBudget(STREAMS, "the evening's")

    def admitted(self, handle: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        """``handle``, for the evening page's token (or its cookie) only."""

        async def checked(request: Request) -> Response:
            if self.tables.evening is None:
                return refusal(404, "this server serves one table: it has no evening page (serve without GAME)")
            role = await self.gate.admit(request, self.tables.evening)
            return role if isinstance(role, Response) else await handle(request)

        return checked

    async def read(self, request: Request) -> Response:
        """The evening whole: the standings, every table with its board, and their catalogs."""
        return Json(Sent().event(await self.evening(), self._catalogs))

    async def events(self, request: Request) -> Response:
        """``event: evening`` at once, then whenever any table changed (``Sent``: only what the page lacks)."""
        return self._streams.stream(self._told())

    async def _told(self) -> AsyncIterator[dict[str, Any]]:
        told = Sent()
        while True:
            seen = self.tables.changes
            evening = await self.evening()
            yield {"event": "evening", "data": orjson.dumps(told.event(evening, self._catalogs)).decode()}
            await self.tables.wait(seen)
            await asyncio.sleep(GATHER)

    async def evening(self) -> dict[str, Any]:
        """The evening's tag, standings and tables as they are now; made once per change, whoever asks."""
        async with self._making:
            seen = self.tables.changes
            if self._made is None or self._made[0] != seen:
                served = list(self.tables.served.values())
                tables = [await self._table(s.table) for s in served]
                self._tables = {s.table.name: self._tables[s.table.name] for s in served}  # those put away forgotten
                self._made = (seen, {"tag": self.tables.tag, "standings": await self._standings_of(tables), "tables": tables})
            return self._made[1]

    async def _table(self, table: ServedTable) -> dict[str, Any]:
        """A table at a glance with its board, its head and its catalog's key; made again only once it moved."""
        kept = self._tables.get(table.name)
        if kept is None or kept[0] != (table, len(table.entries)):
            told = len(table.entries)
            self._tables[table.name] = ((table, told), await table.run(lambda: self._made_table(table)))
        return self._tables[table.name][1]

    def _made_table(self, table: ServedTable) -> dict[str, Any]:
        """The table's glance, its points the board's (at game over, the final scores: the glance's are the
        track's before the end's scoring), its head, its board and its catalog's key."""
        from cli.presenter import catalog_lookup, table_json

        glance = table.glance()
        game = table.games.open(table.session)
        key = game.catalog.sha256[:16]
        if key not in self._catalogs:
            self._catalogs[key] = catalog_lookup(game.catalog)
        board = table_json(game)
        points = {p["name"]: p["points"] for p in board["players"]}
        players = [{**p, "points": points.get(p["name"], p["points"])} for p in glance["players"]]
        return {**glance, "players": players, "head": game.head, "catalog": key, "board": board}

    async def _standings_of(self, tables: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The league's standings of the evening's tag, read again when a game ended, began or was put away."""
        ended = tuple((t["game"], t["over"]) for t in tables)
        if self._standings[1] is None or self._standings[0] != ended:
            self._standings = (ended, await run_in_threadpool(self._league_standings))
        return self._standings[1]

    def _league_standings(self) -> dict[str, Any] | None:
        """``league standings --season TAG`` of the evening's tag, caught up with the store; ``None`` where the
        store keeps no league (in memory)."""
        from projections.league.projection import NoLeague
        from projections.league.reports import standings

        with self.tables.lock:
            try:
                league = self.tables.games.league()
            except NoLeague:
                return None
            league.catch_up()
            with league.view.reading() as read:
                return standings(read, self.tables.tag)
