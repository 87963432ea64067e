"""The league as a projection of the store's notification log (the library's ``eventsourcing.projection``).

``League`` is a ``Projection`` over a ``LeagueView``. It takes the store's
events in log order: a game's ``Created`` and ``Recorded`` events fold the game
(``GameFold``), an alias, a change of a game's tags (``Game.Tagged``, the tags
of ``coimbra tag``) or of its name (``Game.Renamed``) is noted; the game's other
events (the games index's ``Finished``, ``Reopened``, ``Archived``, and a club
night's ``PutAway``) only move its fold's version on. ``flush`` then writes,
in one transaction with the tracking of the last event taken, what changed:
each touched game's status and contribution, the aliases, the tags, and the
ratings replayed from the earliest game whose result changed. A crash loses
only what was not flushed, and the next catch-up starts after the last flushed
event: every event is reflected exactly once.

Two ways to drive it, one code path:

- ``catch_up`` pulls the log in batches (``select_notifications`` after the
  tracked position, then ``flush``). Every league command does this first, on
  SQLite (which has no subscriptions) and PostgreSQL alike, so the tables are
  current whenever they are read; ``rebuild`` empties the tables and catches up
  from the first event.
- ``follow`` runs the library's ``ProjectionRunner`` on PostgreSQL: the
  server's notifications deliver each new event to ``process_event`` as it is
  stored, which folds and flushes it at once.

Two catch-ups at once (two laptops asking for the standings) are safe: a flush
takes the view's write lock and checks that the tracked position is still the
one its caches were built on; if another process moved it, the flush raises
``Overtaken`` and the catch-up starts again from the new position.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteFactory
from eventsourcing.utils import get_topic

from coimbra_events.store.game_store import GameStore
from coimbra_events.game import Game
from coimbra_events.store.receipts import receipt_id
from coimbra_events.store.records import LeagueMark
from coimbra_events.store.topics import RECEIPT_TOPICS
from coimbra_events.players import Aliases, resolve
from projections.league.contribution import seats_of
from projections.league.fold import GameFold
from projections.league.log_rows import Decoder, Row, reader
from projections.league.ratings import replay_ratings
from projections.league.view import DAMAGED, IN_PROGRESS, OVER, LeagueView, Overtaken, SQLiteLeagueView, Tables, seat_row

GAME_CREATED, GAME_RECORDED = get_topic(Game.Created), get_topic(Game.Recorded)
GAME_TAGGED, GAME_RENAMED = get_topic(Game.Tagged), get_topic(Game.Renamed)
GAME_OTHER = (get_topic(Game.Finished), get_topic(Game.Reopened), get_topic(Game.PutAway))
"""A game's events that change nothing the league shows (they only move the game's version on)."""
GAME_ARCHIVED = get_topic(Game.Archived)
MARKS = (get_topic(LeagueMark.Created), get_topic(LeagueMark.Marked))
"""What the league is told about a game beyond its record: a copy, or not counted (``store.records``)."""
ALIASED, UNALIASED = get_topic(Aliases.Aliased), get_topic(Aliases.Unaliased)
TOPICS = (GAME_CREATED, GAME_RECORDED, GAME_TAGGED, GAME_RENAMED, *GAME_OTHER, GAME_ARCHIVED, *MARKS, ALIASED, UNALIASED,
          *RECEIPT_TOPICS)

BATCH = 20_000
"""Notifications taken per flush when catching up (each flush is a commit: fewer is faster; a crash loses at most one)."""
OPEN_GAMES = 2000
"""Games in progress kept folded between flushes (older ones are folded again from the store when needed)."""
AS_STORED = -1
"""``GameFold.over_since`` of a game folded again from the store: when it became over is what the table says."""

Progress = Callable[[int, int], None]
"""Told after each flush: the position reached and the last position of the log."""


class NoLeague(ValueError):
    """The store cannot hold the league's tables (an in-memory store)."""


class League(Projection[LeagueView]):
    """Standings, ratings and profiles of the club, kept from the store's notification log."""

    name = "league"
    topics = TOPICS

    def __init__(self, view: LeagueView, source: Application | None = None) -> None:
        super().__init__(view)
        self.source: Application | None = None
        self._attached = threading.Event()
        if source is not None:
            self.attach(source)
        self._reset(None)

    def attach(self, source: Application) -> None:
        """The store whose log this projection reflects (read for games folded again, and when pulling)."""
        self.source = source
        self.decode = Decoder(source.mapper, TOPICS)
        self._attached.set()

    def _reset(self, base: int | None) -> None:
        """Forget everything not flushed; ``base`` is the position the tables are at (``None``: read it)."""
        self.base = base
        self.folds: dict[str, GameFold] = {}
        """By the game's id as the log gives it (text), least recently flushed first."""
        self.dirty: dict[str, None] = {}
        self.aliases: list[tuple[str, str | None]] = []
        """(alias, person) as recorded, in order; person ``None``: the alias was withdrawn."""
        self.tags: dict[str, tuple[str, ...]] = {}
        self.names: dict[str, str] = {}
        """Renamed games, by id: their names now."""
        self.facts: dict[str, dict[str, Any]] = {}
        """By game id: what changed of whether it counts (``archived``, ``counted``, ``copy``)."""
        self.recount: list[str] = []
        """Games whose record or result changed in this flush (``Tables.recount``)."""
        self.last_game: str | None = None
        """The game of the last game event taken: a save's receipt follows that save's events in the log."""
        self.taken: int | None = None

    def _synced(self) -> int:
        if self.base is None:
            with self.view.reading() as tables:
                self._reset(tables.position())
        assert self.base is not None
        return self.base

    # -- taking events

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """The ``ProjectionRunner``'s way in: take one stored event and flush it at once."""
        self._attached.wait()
        if tracking.notification_id <= self._synced():
            return
        fields = {k: v for k, v in vars(domain_event).items() if k != "timestamp"}
        self.take(get_topic(type(domain_event)), str(domain_event.originator_id), domain_event.originator_version,
                  fields, tracking.notification_id)
        try:
            self.flush()
        except (Overtaken, IntegrityError):
            self._reset(None)
            self.catch_up(stop=tracking.notification_id)

    def take(self, topic: str, originator: str, version: int, fields: Mapping[str, Any], position: int) -> None:
        """Note one event of the log (not yet written: ``flush`` does that); ``originator`` is its id as text."""
        if topic == GAME_RECORDED:
            self._fold(originator, version).take(fields, version, position)
        elif topic == GAME_CREATED:
            fold = self.folds[originator] = GameFold(fields)
            fold.id = UUID(originator)
            self.dirty[originator] = None
        elif topic in (ALIASED, UNALIASED):
            alias, person = fields.get("alias"), fields.get("person", "")
            if isinstance(alias, str) and isinstance(person, str):
                self.aliases.append((alias, person if topic == ALIASED else None))
        elif topic == GAME_TAGGED:
            tags = fields.get("tags")
            if isinstance(tags, (list, tuple)):
                self.tags[str(UUID(originator))] = tuple(str(t) for t in tags)
            self._moved_on(originator, version)
        elif topic == GAME_RENAMED:
            name = fields.get("name")
            if isinstance(name, str):
                self.names[str(UUID(originator))] = name
            self._moved_on(originator, version)
        elif topic in GAME_OTHER:
            self._moved_on(originator, version)
        elif topic == GAME_ARCHIVED:
            self.facts.setdefault(str(UUID(originator)), {})["archived"] = int(bool(fields.get("archived")))
            self._moved_on(originator, version)
        elif topic in MARKS:
            game = fields.get("game_id")
            if isinstance(game, (UUID, str)):
                self.facts.setdefault(str(UUID(str(game))), {}).update(
                    copy=int(fields.get("copy_of") is not None), counted=int(bool(fields.get("counted"))))
        elif topic in RECEIPT_TOPICS:
            self._check_receipt(originator, fields)
        if topic not in RECEIPT_TOPICS and topic not in (ALIASED, UNALIASED, *MARKS):
            self.last_game = originator
        self.taken = position

    def _check_receipt(self, originator: str, fields: Mapping[str, Any]) -> None:
        """A save's receipt: the game it follows must hold that many entries, ending in that head.

        Checked against the fold of the game saved just before it (a save writes the game's events, then
        its receipt); a record whose last entries were cut off from the store shows here.
        """
        game = self.last_game
        fold = self.folds.get(game) if game is not None else None
        if fold is None or fold.problem is not None or receipt_id(UUID(game)) != UUID(originator):
            return
        entries, head = fields.get("entries"), fields.get("head")
        if (entries, head) != (len(fold.events), fold.head):
            fold.problem = (f"damaged: its receipt says {entries} entries, its rows hold {len(fold.events)} "
                            "(entries cut off or changed)" if entries != len(fold.events) else
                            f"its receipt's head is not the head of its entries (entry {entries} changed)")
            self.dirty[game] = None  # type: ignore[index]

    def _moved_on(self, originator: str, version: int) -> None:
        """A game's event that folds nothing: a kept fold of the game is at this version now."""
        fold = self.folds.get(originator)
        if fold is not None and fold.version == version - 1:
            fold.version = version

    def _fold(self, originator: str, version: int) -> GameFold:
        """The fold that takes a game's event ``version`` next (folded again from the store if need be)."""
        fold = self.folds.get(originator)
        if fold is None or fold.version != version - 1:
            fold = self.folds[originator] = self._folded_again(UUID(originator), version - 1)
        self.dirty[originator] = None
        return fold

    def _folded_again(self, game_id: UUID, version: int) -> GameFold:
        """A game's fold up to ``version``, read from the store (after a restart, or once it left the cache)."""
        assert self.source is not None, "attach() the store first"
        rows = self.source.recorder.select_events(game_id, lte=version)
        fold = GameFold(self._fields(rows[0])) if rows else GameFold({})
        fold.id = game_id
        if not rows:
            fold.problem = "damaged: its first events are missing from the store"
        for row in rows[1:]:
            if row.topic == GAME_RECORDED:
                fold.take(self._fields(row), row.originator_version, AS_STORED)
        fold.version = version
        if fold.over:
            fold.over_since = AS_STORED
        return fold

    def _fields(self, row: Any) -> dict[str, Any]:
        """The fields of a stored event the library's recorder read (``select_events``)."""
        return self.decode(row.topic, str(row.originator_id), row.originator_version, row.state)

    # -- writing what was taken

    def flush(self) -> None:
        """Write every change taken since the last flush, with the tracking of the last event taken."""
        if self.taken is None:
            return
        base = self._synced()
        with self.view.writing() as tables:
            if tables.position() != base:
                raise Overtaken(f"the league moved on from {base} to {tables.position()}")
            replay_from = self._write_games(tables)
            replay_from = _earliest(replay_from, self._write_aliases(tables))
            for game_id, tags in self.tags.items():
                tables.set_tags(game_id, tags)
            for game_id, name in self.names.items():
                tables.set_name(game_id, name)
            for game_id, facts in self.facts.items():
                for column, value in facts.items():
                    tables.set_fact(game_id, column, value)
            replay_from = _earliest(replay_from, tables.recount([*self.recount, *self.facts]))
            if replay_from is not None:
                replay_ratings(tables, replay_from, person_resolver(tables))
            tables.track(self.taken)
        self.base, self.taken = self.taken, None
        self.dirty.clear()
        self.aliases.clear()
        self.tags.clear()
        self.names.clear()
        self.facts.clear()
        self.recount.clear()
        self._evict()

    def _write_games(self, tables: Tables) -> int | None:
        """Each touched game's status and contribution; the earliest ``finished`` whose result changed."""
        folds = []
        for key in self.dirty:
            folds.append(self.folds.pop(key))
            self.folds[key] = folds[-1]  # the most recently flushed last
        stored = tables.games([str(f.id) for f in folds])
        rows, results = [], []
        for fold in folds:
            gid = str(fold.id)
            before = stored.get(gid)
            was_over = before is not None and before[0] == OVER
            seats, status, finished = (), IN_PROGRESS, None
            if fold.problem is not None:
                status = DAMAGED
            elif fold.over:
                seats = () if fold.fork else seats_of(fold)
                if seats or fold.fork:
                    status = OVER
                    finished = fold.over_since if fold.over_since not in (None, AS_STORED) else (
                        before[1] if was_over and before else self.taken)
            rows.append((gid, fold.name, status, finished, fold.fork, len(fold.players), fold.problem))
            tables.set_fact(gid, "record", fold.head if status == OVER else None)
            self.recount.append(gid)
            if was_over or seats:
                results.append((gid, seats, before[1] if was_over and before else None, finished))
        tables.put_games(rows)
        old = tables.seats([gid for gid, _, was, _ in results if was is not None])
        changed, replay_from = [], None
        for gid, seats, was, finished in results:
            if was is None or was != finished or old.get(gid, []) != [seat_row(gid, s)[1:] for s in seats]:
                changed.append((gid, seats))
                replay_from = _earliest(replay_from, was, finished)
        tables.put_seats(changed)
        return replay_from

    def _write_aliases(self, tables: Tables) -> int | None:
        """The aliases taken; the earliest ``finished`` of a game whose players' identities they change."""
        if not self.aliases:
            return None
        before = tables.aliases()
        for alias, person in self.aliases:
            tables.set_alias(alias, person)
        after = tables.aliases()
        keys = set(tables.spelling_keys()) | set(before) | set(after)
        old = {a: p for a, (p, _, _) in before.items()}
        new = {a: p for a, (p, _, _) in after.items()}
        moved = [k for k in keys if resolve(old, k) != resolve(new, k)]
        return tables.first_finished(moved) if moved else None

    def _evict(self) -> None:
        """Keep the folds of games in progress (the most recent ``OPEN_GAMES``); finished games are read again if needed."""
        for key in [k for k, f in self.folds.items() if f.over or f.problem is not None]:
            del self.folds[key]
        while len(self.folds) > OPEN_GAMES:
            del self.folds[next(iter(self.folds))]

    # -- pulling the log

    def catch_up(self, stop: int | None = None, batch: int = BATCH, progress: Progress | None = None) -> int:
        """Reflect the log up to ``stop`` (default: all of it); returns the position reached."""
        assert self.source is not None, "attach() the store first"
        read = reader(self.source.recorder)
        last = self.source.recorder.max_notification_id() or 0
        while True:
            start = self._synced()
            try:
                with collector_paused():
                    if not self._take_rows(read(start, batch, stop)):
                        return start
                    self.flush()
            except (Overtaken, IntegrityError):
                self._reset(None)
                continue
            if progress is not None:
                progress(self.base or 0, max(last, self.base or 0))

    def _take_rows(self, rows: list[Row]) -> int:
        """Take a batch of the log's rows; returns how many there were."""
        if not rows:
            return 0
        fold, game, decode = None, "", self.decode
        for position, originator, version, topic, state in rows:
            # Most rows are the next event of the game of the row before: folded without further lookups.
            if originator == game and topic == GAME_RECORDED and fold is not None and fold.version == version - 1:
                fold.take(decode(topic, originator, version, state), version, position)
                continue
            if topic in TOPICS:  # the receipts' and the name register's events need no reflecting
                self.take(topic, originator, version, decode(topic, originator, version, state), position)
            fold, game = self.folds.get(originator), originator
        self.taken = rows[-1][0]
        return len(rows)

    def rebuild(self, progress: Progress | None = None) -> int:
        """Empty the league's tables and reflect the whole log again."""
        with self.view.writing() as tables:
            tables.clear()
        self._reset(0)
        return self.catch_up(progress=progress)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold off Python's cyclic garbage collector while a batch is folded and written.

    A fold makes many short-lived objects and the catch-up keeps thousands of
    games folded: the collector would scan them again and again (a quarter of a
    rebuild's time, measured in CPU time on 2,000 games). The states are
    acyclic; whatever a batch leaves is collected once the collector is back.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _earliest(*positions: int | None) -> int | None:
    return min((p for p in positions if p is not None), default=None)


def person_resolver(tables: Tables) -> Callable[[str], str]:
    """Spelling key -> person key, by the aliases the tables hold."""
    targets = {a: p for a, (p, _, _) in tables.aliases().items()}
    return lambda key: resolve(targets, key)


# --- opening the league of a store ----------------------------------------------------------------


def view_of(store: Application) -> LeagueView:
    """The league's tables in the store's own database (created if missing)."""
    factory = store.factory
    if isinstance(factory, SQLiteFactory):
        view: LeagueView = SQLiteLeagueView(datastore=factory.datastore)
    elif type(factory).__module__ == "eventsourcing.postgres":
        from projections.league.postgres_view import TRACKING_TABLE, PostgresLeagueView

        view = PostgresLeagueView(datastore=factory.datastore, tracking_table_name=TRACKING_TABLE)
    else:
        raise NoLeague("the league keeps its tables in the store's database: use a SQLite or PostgreSQL store")
    view.create_table()
    return view


def open_league(store: Application) -> League:
    """The league of a store, ready to catch up."""
    return League(view_of(store), store)


class StoreSource(GameStore):
    """The store as the ``ProjectionRunner`` constructs its application: from settings alone."""

    name = GameStore.name  # the same application: its tables, its notification log

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env=env)


def follow(settings: Mapping[str, str], stop: threading.Event, on_flush: Callable[[League], None] | None = None,
           poll: float = 1.0) -> None:
    """Keep the league current until ``stop`` is set: the library's ``ProjectionRunner`` on PostgreSQL, a poll on SQLite."""
    store = StoreSource(settings)
    try:
        league = open_league(store)
        league.catch_up()  # the backlog in batches, before events arrive one by one
        if on_flush is not None:
            on_flush(league)
        if isinstance(store.factory, SQLiteFactory):
            while not stop.wait(poll):
                reached = league.base
                if league.catch_up() != reached and on_flush is not None:
                    on_flush(league)
            return
    finally:
        store.close()
    _run(settings, stop, on_flush)


def _run(settings: Mapping[str, str], stop: threading.Event, on_flush: Callable[[League], None] | None) -> None:
    from eventsourcing.projection import ProjectionRunner

    from projections.league.postgres_view import PostgresLeagueView

    class Notifying(League):
        name = "league"

        def flush(self) -> None:
            super().flush()
            if on_flush is not None:
                on_flush(self)

    with ProjectionRunner(application_class=StoreSource, projection_class=Notifying, view_class=PostgresLeagueView,
                          env=dict(settings)) as runner:
        runner.projection.attach(runner.app)
        while not stop.is_set():
            runner.run_forever(timeout=0.5)
