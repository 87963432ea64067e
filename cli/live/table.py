"""The one game a ``coimbra serve`` serves: its use cases behind one lock, its entries as told, and who is waiting.

The store is synchronous and the web server is not: every use case runs in a
worker thread (``run_in_threadpool``), one at a time (a lock, shared by every table
of a server), on the one ``Games`` of the server, so the store's objects are never used by two threads at
once, and two inputs made for the same head are decided in turn: the first is
stored, the second finds the head moved (``Conflict``), as with two ``act --after``.

Entries are told from a list kept here, in order, each said once as
``presenter.entry_json``: an event stream resumes from it after any entry number,
without reading the store. Entries stored by others (``coimbra record`` or ``act``
on the same store, another server) are found by a ``look`` at the store's
notification log, whenever the store says something was stored or a few times a
second where it cannot say (``cli.live.follow``): only when the log moved is the
game's latest receipt read, and only when that moved is the game read again and
its new entries told.

Seats (``coimbra_events.service.seats``) are the application's: each write names the
phone it came from (its device id, ``None`` for a client that names none), and a
claim or a release wakes every stream, which tells its page to read the game again
(the view says which seats this phone holds).
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from starlette.concurrency import run_in_threadpool

from cli.presenter import due_view, entry_json, game_view, seats_json, undo_view
from coimbra_events.events import Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.rules import core as rules
from coimbra_events.service import Claimed, NoSeat, Session, Stored, Taken
from coimbra_events.state import GameState

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.service import Games, Outcome, Phone

T = TypeVar("T")


class ServedTable:
    """One stored game, served: ``run`` a use case on it, ``entries`` told so far, ``wait`` for more."""

    def __init__(self, games: Games, name: str, by: str = "", lock: threading.Lock | None = None,
                 told: Callable[[], None] | None = None) -> None:
        """``by``: who enters an input that does not say (the ``--by`` of ``coimbra serve``); ``lock``: the one
        every table served on ``games`` takes (a server of every table shares one ``Games``); ``told``: called
        on the event loop whenever the streams are woken (the organiser's stream follows every table)."""
        self.games, self.name, self.by, self._told_hook = games, name, by, told
        self.entries: list[dict[str, Any]] = []
        """Every entry of the game, entry ``k`` at index ``k - 1``, as the stream tells it."""
        self._lock = lock or threading.Lock()
        self.session = Session(name)
        """The game as last read or saved here, holding every entry told (the application reads it again when a
        write left it holding what was not saved)."""
        self._state: GameState | None = None
        """The table after the entries told."""
        self._position: int | None = None
        self._view: tuple[str, dict[str, Any]] | None = None
        """``game_view`` of the game at a head (the same for every phone), made once per head."""
        self._update: tuple[str, dict[str, Any], dict[str, Any]] | None = None
        """What the streams tell with the newest entry (``update_of``), at its head; and the whole table there."""
        self._told = 0
        self._more = asyncio.Event()
        self.seat_changes = 0
        """Changes of the claims seen so far (claims and releases made here, or on another server process): a stream
        that saw fewer tells its page to read the game again."""
        self._seats_told = 0
        self._held_seen: dict[str, str] = {}
        """The claims as last read here (``look_seats``), each held seat -> its phone's digest."""

    # -- on the event loop

    async def run(self, use: Callable[[], T]) -> T:
        """Run ``use`` (store work) in a worker thread, alone; then wake the streams if it brought new entries."""
        outcome = await run_in_threadpool(self._alone, use)
        self._tell()
        return outcome

    async def wait(self, seen: int, changes: int | None = None) -> None:
        """Return once the game has more than ``seen`` entries (or the seats changed since ``changes`` of them)."""
        while len(self.entries) <= seen and changes in (None, self.seat_changes):
            more = self._more
            await more.wait()

    async def look(self) -> None:
        """Tell the entries others stored since the last look (``cli.live.follow`` says when to look)."""
        await self.run(self._look)

    async def look_seats(self) -> None:
        """Tell the pages a seat changed if the claims the store keeps are not those last seen (another server
        process's phone claimed or let go a seat)."""
        await self.run(self._seats_look)

    def _tell(self) -> None:
        if len(self.entries) > self._told or self.seat_changes > self._seats_told:
            self._told, self._seats_told = len(self.entries), self.seat_changes
            more, self._more = self._more, asyncio.Event()
            more.set()
            if self._told_hook is not None:
                self._told_hook()

    def _alone(self, use: Callable[[], T]) -> T:
        with self._lock:
            outcome = use()
            self._prepare()
            return outcome

    def update_of(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """The view after ``entry`` as every stream tells it with the entry, if it is the newest (else ``None``: a
        page behind reads the game): ``game_view`` without the catalog and the entries (a page holds them), its
        ``table`` only the parts that changed since the head ``after`` (``None``: the whole table), with the play
        an undo would withdraw (``undo_view``: the seat whose phone may; the page knows its own seats)."""
        update = self._update
        if update is None or entry["seq"] != len(self.entries) or update[0] != entry["head"]:
            return None
        return update[1]

    def _prepare(self) -> None:
        """Make the update the streams tell with a new newest entry, before they are woken: a page draws it at
        once, where reading the game would cost each page a request and the server an answer for each."""
        if not self.entries or (self._update is not None and self._update[0] == self.entries[-1]["head"]):
            return
        game = self.games.open(self.session)  # as the use case left it (no look at the store: it just ran)
        if game.head != self.entries[-1]["head"]:
            return
        shared = self._shared(game)
        told = {key: value for key, value in shared.items() if key not in ("catalog", "entries")}
        told["undo"] = undo_view(self._phone(None).seats, game, self.entries)
        before = self._update
        told["after"] = None if before is None else before[0]
        if before is not None:  # only the table's parts that changed since the head before: a page holding it has the rest
            told["table"] = {key: value for key, value in told["table"].items() if before[2].get(key) != value}
        self._update = (game.head, told, shared["table"])

    # -- use cases, in a worker thread (through ``run``)

    def load(self) -> Game:
        """Read the game and tell every entry it has (once, before serving): ``UnknownGame`` if there is none."""
        from projections.timeline import timeline

        self.session = self.games.session(self.name)
        game = self.games.open(self.session)
        line = timeline(game)
        self.entries = [entry_json(game, k, e, game.stamps[k - 1], line.changes[k], line.states[k - 1])
                        for k, e in enumerate(game.events, 1)]
        self._state, self._position = game.state, self.games.position()
        self._held_seen = self._phone(None).seats.held()
        return game

    def view(self, device: str | None = None) -> dict[str, Any]:
        """``game_view`` of the game as it is now, with the seats as phone ``device`` holds them."""
        game = self._latest()
        return {**self._shared(game), **seats_json(self._phone(device), game, self.entries)}

    def _shared(self, game: Game) -> dict[str, Any]:
        """``game_view`` of ``game``, the session's as it is now (made once per head)."""
        if self._view is None or self._view[0] != game.head:
            self._view = (game.head, game_view(self.games.legal(self.session), self.entries))
        return self._view[1]

    def glance(self) -> dict[str, Any]:
        """The table at a glance (the organiser's list of tables): its players, colours and points so far, where the
        game stands and who is due, its entries and when the last one with a time was stored (an imported log's
        entries have none)."""
        game = self._latest()
        points = {p.name: p.points for p in game.state.players}
        return {"game": self.name, "players": [{"name": n, "color": c, "points": points.get(n)} for n, c in game.header.players],
                "due": due_view(game), "round": game.state.round, "phase": game.state.phase, "entries": len(self.entries),
                "last_at": next((e["at"] for e in reversed(self.entries) if e["at"]), None), "over": game.over}

    def record(self, inputs: Sequence[str], after: str | None, by: str, device: str | None = None) -> Outcome[Any]:
        """``Games.record`` of inputs typed in notation, entered by ``by`` on phone ``device``."""
        return self._changed(lambda: self.games.record(self.session, inputs, by, after, self._phone(device)))

    def undo(self, after: str | None, by: str, device: str | None = None) -> Outcome[Any]:
        return self._changed(lambda: self.games.undo(self.session, by, after, self._phone(device)))

    def accept(self, given: str, reason: str, after: str | None, by: str, device: str | None = None) -> Outcome[Any]:
        return self._changed(lambda: self.games.accept(self.session, given, reason, by, after, self._phone(device)))

    def claim(self, device: str, seat: str, take_over: bool) -> Claimed | Taken | NoSeat:
        """Phone ``device`` plays ``seat`` from now on (another phone's only with ``take_over``)."""
        claimed = self._phone(device).claim(seat, take_over)
        self._seats_look()
        return claimed

    def release(self, device: str, seat: str) -> bool:
        """Phone ``device`` no longer plays ``seat``; whether it did."""
        released = self._phone(device).release(seat)
        self._seats_look()
        return released

    def _seats_look(self) -> None:
        """Count a change of the claims as kept (by a phone here or on another server process) since the last look."""
        held = self._phone(None).seats.held()
        self.seat_changes += held != self._held_seen
        self._held_seen = held

    def _phone(self, device: str | None) -> Phone:
        """The phone a request comes from (``None``: a client that names none, the table's scribe)."""
        return self.games.phone(self.session, device)

    def note(self, at: int, text: str, bookmark: bool, by: str) -> Outcome[Any]:
        return self._changed(lambda: self.games.note(self.session, at, text, bookmark, by))

    def since(self, head: str) -> list[dict[str, Any]]:
        """The entries after the one whose head begins with ``head`` (every entry if none does)."""
        for k in range(len(self.entries), 0, -1):
            if self.entries[k - 1]["head"].startswith(head):
                return self.entries[k:]
        return list(self.entries)

    def _changed(self, write: Callable[[], Outcome[Any]]) -> Outcome[Any]:
        """Run a write on the session's game as it is now (read again only if the store moved since: ``_latest``),
        so an input costs one save, and tell what it stored."""
        self._latest()
        outcome = write()
        if isinstance(outcome, Stored):
            self._took(outcome)
        return outcome

    def _latest(self) -> Game:
        """The game as it is now: the session's, unless the store's notification log moved since (or a write left
        the session without a copy: then read again, and its new entries told)."""
        self._look()
        if self.session.game is None:
            self._take(self.games.open(self.session))
        return self.games.open(self.session)

    def _took(self, stored: Stored[Any]) -> None:
        """Tell what a write just stored (its entries carry their changes: nothing is read again)."""
        game = stored.game
        befores = _tables_before(stored.before, [e.event for e in stored.entries])
        if not stored.entries or stored.entries[0].seq != len(self.entries) + 1 or befores is None:
            self.load()  # entries of others saved first (a note made again), or history: tell the record as it is
            return
        self.entries.extend(entry_json(game, e.seq, e.event, e.stamp, e.changes, b) for e, b in zip(stored.entries, befores))
        self._state = game.state

    def _look(self) -> None:
        """Tell what others stored, if the store's notification log moved since the last look and the game's own
        record moved with it (``Games.refreshed``: one row read when the log moved by another game)."""
        position = self.games.position()
        if position == self._position:
            return
        self._position = position
        self._take(self.games.refreshed(self.session))

    def _take(self, game: Game) -> None:
        """Tell the entries ``game`` has that were not told yet."""
        known = len(self.entries)
        if game.entries < known or (known and game.hashes[known - 1] != self.entries[-1]["head"]):
            self.load()  # not the record told so far (it never shrinks: a game renamed and another given its name)
            return
        if game.entries > known:
            new = game.events[known:]
            befores = _tables_before(self._state, new) if self._state is not None else None
            if befores is None:
                self.load()  # history among them: the tables before each are the timeline's
                return
            views = self.games.views
            changes = dict(views.changes(self._state, game, known, new)) if views is not None else {}
            self.entries.extend(entry_json(game, k, game.events[k - 1], game.stamps[k - 1], changes.get(k, ()),
                                           befores[k - known - 1]) for k in range(known + 1, game.entries + 1))
        self._state = game.state


def _tables_before(before: GameState, events: Sequence[GameEvent]) -> list[GameState] | None:
    """The table just before each of ``events``, plays stored after ``before`` (an entry is said from it: the value
    a die shows); ``None`` when one of them changes the line of play (a correction, a withdrawal, a rule break
    accepted: the tables are then the timeline's). Notes and bookmarks leave the table as it is."""
    if any(isinstance(e, (Corrected, Retracted, RuleOverridden)) for e in events):
        return None
    tables = [before]
    for event in events[:-1]:
        tables.append(tables[-1] if isinstance(event, (Noted, Bookmarked)) else rules.apply(tables[-1], event))
    return tables
