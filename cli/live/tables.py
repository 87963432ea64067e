"""The tables one ``coimbra serve`` serves, by name, each with its own keys; and the organiser's key.

``coimbra serve GAME`` serves one table. ``coimbra serve`` alone serves every game of the store in
progress, and every game started while it runs (the games in progress are listed again at every look
that finds the store's notification log moved), on one address: a club night. Each table keeps its own
keys (``Games.table_keys``: the same links whichever server serves it), and the organiser's key
(``Games.organiser_key``) opens the organiser's routes (``cli.live.club``), never a table. Every table
of a server shares one lock: they share one ``Games``, whose store is used by one thread at a time.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Collection, Mapping, Sequence

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from cli.live.access import Gate, Keys, refusal
from cli.live.evening_key import evening_keys
from cli.live.table import ServedTable
from coimbra_events.store.errors import DamagedGame, UnknownGame, one_line

if TYPE_CHECKING:
    from coimbra_events.service import Games

log = logging.getLogger("coimbra.serve")


@dataclass(frozen=True)
class Seated:
    """A served table and its keys."""

    table: ServedTable
    keys: Keys
    game_id: str = ""
    """The game's id: the notification log names what moved by it (``ServedTables.look``)."""


class ServedTables:
    """The served tables by name; with an organiser's key (``organiser``), also every game started later."""

    name = "the tables"
    """What a log line says could not be read (``cli.live.follow``)."""

    def __init__(self, games: Games, by: str = "", organiser: Keys | None = None, tag: str | None = None) -> None:
        """``tag``: the evening's, on every game the organiser starts (``start``)."""
        self.games, self.by, self.organiser, self.tag = games, by, organiser, tag
        self.evening = evening_keys(organiser) if organiser is not None else None
        """The evening page's keys (``cli.live.evening``: its watchers' token), made from the organiser's."""
        self.lock = threading.Lock()
        self.served: dict[str, Seated] = {}
        self._position: int | None = None
        self._unreadable: set[str] = set()
        """Games in progress left out because they could not be read."""
        self.changes = 0
        """Changes to any table (an entry, a seat) or to the tables served, told so far (``changed``)."""
        self._changed = asyncio.Event()

    def serve(self, name: str, renew: bool = False) -> Seated:
        """Serve game NAME: read it and its keys (``renew``: new ones, the kept ones replaced); ``UnknownGame``
        if there is none. In a worker thread holding ``lock``, or before the server answers."""
        table = ServedTable(self.games, name, self.by, self.lock, self.changed)
        game = table.load()
        table.view()  # made once now, so that its first page is answered at once
        seated = Seated(table, Keys(self.games.table_keys(table.session, renew)), str(game.id))
        self.served = {**self.served, name: seated}  # a new dict: the event loop may be going through the old one
        return seated

    def serve_every(self, renew: bool = False, put_away: Collection[str] = ()) -> None:
        """Serve every game in progress not served yet, the oldest first; one that cannot be read (damaged) is said
        once in the log and left out, so that it never keeps the evening's other tables from being served. A table
        archived since it was served, or put away (``put_away``: the games' ids, as the notification log told them),
        through another server process, is served no more."""
        if self._position is None:  # the log's position before the games are read: all stored after it is looked at
            self._position = self.games.position()
        listed = self.games.unfinished()
        self._drop_put_away({info.name for info in listed}, put_away)
        for info in reversed(listed):
            if info.name in self.served or info.name in self._unreadable:
                continue
            try:
                self.serve(info.name, renew)
            except DamagedGame as exc:
                self._unreadable.add(info.name)
                log.warning("%s is not served: %s", info.name, one_line(exc))

    def _drop_put_away(self, in_progress: set[str], put_away: Collection[str]) -> None:
        """Serve no more the tables whose games, not in progress, were put away (``put_away``: their ids) or archived
        meanwhile, or are gone (renamed); a game over is served until put away, a game in progress (reopened since,
        say) is served."""
        gone = {name for name, seated in self.served.items()
                if name not in in_progress and (seated.game_id in put_away or self._archived(name))}
        if gone:
            self.served = {k: v for k, v in self.served.items() if k not in gone}

    def _archived(self, name: str) -> bool:
        try:
            return self.games.info(name).archived
        except UnknownGame:
            return True

    def changed(self) -> None:
        """Wake whoever waits for a change to any table (on the event loop)."""
        self.changes += 1
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    async def wait(self, seen: int) -> None:
        """Return once more than ``seen`` changes were told."""
        while self.changes <= seen:
            await self._changed.wait()

    def start(self, players: Sequence[tuple[str, str]], drawn: bool) -> Seated:
        """A new game for a table the organiser starts (``Games.start_table``, with the evening's tag), served."""
        with self.lock:
            return self.serve(self.games.start_table(players, self.tag, drawn, self.by).name)

    def put_away(self, name: str, archive: bool) -> None:
        """Serve NAME no more (its links stop opening it), here and, at their next look, on every other server process
        of the store; ``archive``: leave it out of the games and the league too (a game in progress is only archived:
        ``StillInProgress``)."""
        with self.lock:
            if archive:
                self.games.archive([name])
            else:
                self.games.put_away(name)
            self.served = {k: v for k, v in self.served.items() if k != name}

    def people(self) -> list[dict[str, Any]]:
        """The league's known people (each once: an alias names its person) and their aliases, caught up with the
        store first; none where the store keeps no league (in memory)."""
        from projections.league.projection import NoLeague
        from projections.league.reports import people_report

        with self.lock:
            try:
                league = self.games.league()
            except NoLeague:
                return []
            league.catch_up()
            with league.view.reading() as tables:
                return [{"name": p["player"], "aliases": p["aliases"]} for p in people_report(tables)]

    def get(self, name: str) -> Seated | None:
        return self.served.get(name)

    def holder(self, token: str | None, cookies: Mapping[str, str]) -> Keys:
        """The keys ``token`` is, or was before ``--new-links``, one of (without a token: whose cookies the request
        holds): a table's, the organiser's or the evening page's; else keys nothing opens (the request is refused as any other that
        lacks the right token)."""
        def opened(keys: Keys) -> bool:
            if token is None:
                return keys.session_role(cookies) is not False
            return keys.role(token) is not None or keys.replaced(token)

        every = [*(s.keys for s in self.served.values()), *(k for k in (self.organiser, self.evening) if k is not None)]
        return next((keys for keys in every if opened(keys)), Keys())

    async def look(self) -> None:
        """Tell the tables what others stored since the last look (``cli.live.follow`` says when), and serve the
        games started since. Only the tables whose games the notification log names look: a look costs the entries
        stored, not the tables served (each table's look is two queries and a thread's turn)."""
        served = self.served
        moved = await run_in_threadpool(self._moved)
        if moved is not None:
            if self.served is not served:  # games started since are served now
                self.changed()
            for seated in list(self.served.values()):
                if seated.game_id in moved:
                    await seated.table.look()

    async def look_seats(self) -> None:
        """Tell each table's pages of a seat claimed or let go through another server process (``cli.live.follow``
        says when: on PostgreSQL, once a second)."""
        for seated in list(self.served.values()):
            await seated.table.look_seats()

    def _moved(self) -> set[str] | None:
        """``None`` if the store's notification log did not move since the last look; else the ids of the games
        stored since (every served game's where the log cannot say), and a server of every table serves the games
        started since and no more those put away or archived since."""
        with self.lock:
            position = self.games.position()
            if position == self._position:
                return None
            ids = self.games.stored_since(self._position, position)
            if self.organiser is not None:
                self.serve_every(put_away=self.games.put_away_since(self._position, position))
            self._position = position
            return ids if ids is not None else {seated.game_id for seated in self.served.values()}


async def admitted(tables: ServedTables, gate: Gate, request: Request, write: bool = False) -> tuple[ServedTable, str] | Response:
    """The table the path names and the request's role at it (by that table's keys only), or the refusal: 404 for
    a table not served here (a table's name is no secret, its tokens are), else the gate's."""
    name = request.path_params["name"]
    seated = tables.get(name)
    if seated is None:
        return refusal(404, f"no game named {name!r} is served here")
    role = await gate.admit(request, seated.keys, write)
    return role if isinstance(role, Response) else (seated.table, role)
