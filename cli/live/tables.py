"""The tables one ``coimbra serve`` serves, by name, each with its own keys; and the organiser's key.

``coimbra serve GAME`` serves one table. ``coimbra serve`` alone serves every game of the store in
progress, and every game started while it runs (the games in progress are listed again at every look
that finds the store's notification log moved), on one address: a club night. Each table keeps its own keys (``Games.table_keys``, the same
links whichever server serves it), and the organiser's key (``Games.organiser_key``) opens the list of
the tables and their links, never a table. Every table of a server shares one lock: they share one
``Games``, whose store is used by one thread at a time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from cli.live.access import Gate, Keys, refusal
from cli.live.table import ServedTable

if TYPE_CHECKING:
    from coimbra_events.service import Games

@dataclass(frozen=True)
class Seated:
    """A served table and its keys."""

    table: ServedTable
    keys: Keys


class ServedTables:
    """The served tables by name; with an organiser's key (``organiser``), also every game started later."""

    name = "the tables"
    """What a log line says could not be read (``cli.live.follow``)."""

    def __init__(self, games: Games, by: str = "", organiser: Keys | None = None) -> None:
        self.games, self.by, self.organiser = games, by, organiser
        self.lock = threading.Lock()
        self.served: dict[str, Seated] = {}
        self._position: int | None = None

    def serve(self, name: str, renew: bool = False) -> Seated:
        """Serve game NAME: read it and its keys (``renew``: new ones, the kept ones replaced); ``UnknownGame``
        if there is none. In a worker thread holding ``lock``, or before the server answers."""
        table = ServedTable(self.games, name, self.by, self.lock)
        table.load()
        table.view()  # made once now, so that its first page is answered at once
        seated = Seated(table, Keys(self.games.table_keys(table.session, renew)))
        self.served = {**self.served, name: seated}  # a new dict: the event loop may be going through the old one
        return seated

    def serve_every(self, renew: bool = False) -> None:
        """Serve every game in progress not served yet, the oldest first."""
        for info in reversed(self.games.unfinished()):
            if info.name not in self.served:
                self.serve(info.name, renew)

    def get(self, name: str) -> Seated | None:
        return self.served.get(name)

    def holder(self, token: str | None, cookies: Mapping[str, str]) -> Keys:
        """The keys ``token`` is, or was before ``--new-links``, one of (without a token: whose cookies the request
        holds): a table's or the organiser's; else keys nothing opens (the request is refused as any other that
        lacks the right token)."""
        def opened(keys: Keys) -> bool:
            if token is None:
                return keys.session_role(cookies) is not False
            return keys.role(token) is not None or keys.replaced(token)

        every = [*(s.keys for s in self.served.values()), *([self.organiser] if self.organiser else [])]
        return next((keys for keys in every if opened(keys)), Keys())

    async def look(self) -> None:
        """Tell every table what others stored since the last look (``cli.live.follow`` says when), and serve the
        games started since."""
        if await run_in_threadpool(self._moved):
            for seated in list(self.served.values()):
                await seated.table.look()

    def _moved(self) -> bool:
        """Whether the store's notification log moved since the last look; if so, a server of every table serves
        the games started since."""
        with self.lock:
            position = self.games.position()
            moved, self._position = position != self._position, position
            if moved and self.organiser is not None:
                self.serve_every()
            return moved


async def admitted(tables: ServedTables, gate: Gate, request: Request, write: bool = False) -> tuple[ServedTable, str] | Response:
    """The table the path names and the request's role at it (by that table's keys only), or the refusal: 404 for
    a table not served here (a table's name is no secret, its tokens are), else the gate's."""
    name = request.path_params["name"]
    seated = tables.get(name)
    if seated is None:
        return refusal(404, f"no game named {name!r} is served here")
    role = await gate.admit(request, seated.keys, write)
    return role if isinstance(role, Response) else (seated.table, role)
