"""The games index: every stored game, its status, result and tags, as a projection of the store.

The library has no call that lists aggregates, and folding one index aggregate on
every command grew with the store. The index is instead a materialised view of the
store's notification log, kept the library's way (``eventsourcing.projection``):
``GamesIndex`` processes the few events that change what the index shows (a game
created, finished, reopened, renamed, tagged, archived) into a table of its own,
each change recorded in the same transaction as a tracking record of the
notification it came from, so the view is a deterministic function of the store
and is caught up exactly once whatever crashes in between. ``catch_up`` pulls
what the view has not processed yet (SQLite has no subscriptions); the store calls
it after each save and before each listing, and it costs nothing when nothing is new.

The status shown is the game's own: a game reopened by an undo is "in progress"
again, because the game announces it (``Game.Reopened``). Stores written before
schema 2 have the old index aggregate's events instead (``coimbra_events.store.legacy``):
for those games the status and result are read from the game itself.

Three views hold the same table (``coimbra_events.store.games_view``): in memory
(``POPOGamesView``, for tests), SQLite and PostgreSQL (``SQLGamesView``: one table of
games, one of players, one of tags); what a listing asks and gets is
``coimbra_events.store.games_query``'s. A
league of games (``projections.league``) follows the same pattern: a ``Projection`` with its topics,
a view per store, and ``catch_up``.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Callable
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.dispatch import singledispatchmethod
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.projection import Projection
from eventsourcing.utils import get_topic

from coimbra_events.game import Game, result_of
from coimbra_events.store.errors import EventsRemoved
from coimbra_events.log import GameLog
from coimbra_events.store.games_query import IN_PROGRESS, OVER
from coimbra_events.store.games_view import GamesView
from coimbra_events.store.legacy import LEGACY_TOPICS, LegacyGamesIndex
from coimbra_events.store.receipts import Receipt, receipt_id
from coimbra_events.store.topics import RECEIPT_TOPICS


class GamesIndex(Projection[GamesView]):
    """Processes the store's events about games into the games view.

    ``read_game`` loads a stored game by id: only the old index's events need it,
    for the status of a game the old index may have got wrong.
    """

    name = "games_index"
    topics = (
        get_topic(Game.Created), get_topic(Game.Finished), get_topic(Game.Reopened), get_topic(Game.Renamed),
        get_topic(Game.Tagged), get_topic(Game.Archived), *LEGACY_TOPICS, *RECEIPT_TOPICS,
    )

    def __init__(self, view: GamesView, read_game: Callable[[UUID], Game]) -> None:
        super().__init__(view)
        self.read_game = read_game

    @singledispatchmethod
    def process_event(self, event: Any, tracking: Tracking) -> None:
        self.view.upsert(None, tracking)

    @process_event.register
    def _created(self, event: Game.Created, tracking: Tracking) -> None:
        meta = event.meta
        parent = meta.get("parent")
        seed = meta.get("seed")
        self.view.upsert({
            "game_id": str(event.originator_id), "name": event.name,
            "players": [{"name": str(n), "color": str(c)} for n, c in event.players], "status": IN_PROGRESS,
            "created": event.timestamp.isoformat(), "parent": parent if isinstance(parent, str) else None,
            "seed": seed if type(seed) is int else None, "catalog": event.catalog_id, "result": None, "tags": [],
            "archived": False, "receipts": str(receipt_id(event.originator_id)), "anchor": anchor_of(event),
            "entries": 0, "head": anchor_of(event),
        }, tracking)

    @process_event.register
    def _receipt(self, event: Receipt, tracking: Tracking) -> None:
        """Where a game's chain stands after a save: the record the game holds now (``store.records``)."""
        row = self.view.by_receipts(str(event.originator_id))
        self.view.upsert(None if row is None else {**row, "entries": event.entries, "head": event.head}, tracking)

    def _changed(self, game_id: UUID, tracking: Tracking, **changes: Any) -> None:
        row = self.view.row(str(game_id))
        self.view.upsert(None if row is None else {**row, **changes}, tracking)

    @process_event.register
    def _finished(self, event: Game.Finished, tracking: Tracking) -> None:
        self._changed(event.originator_id, tracking, status=OVER, result=list(event.result))

    @process_event.register
    def _reopened(self, event: Game.Reopened, tracking: Tracking) -> None:
        self._changed(event.originator_id, tracking, status=IN_PROGRESS, result=None)

    @process_event.register
    def _renamed(self, event: Game.Renamed, tracking: Tracking) -> None:
        self._changed(event.originator_id, tracking, name=event.name)

    @process_event.register
    def _tagged(self, event: Game.Tagged, tracking: Tracking) -> None:
        self._changed(event.originator_id, tracking, tags=list(event.tags))

    @process_event.register
    def _archived(self, event: Game.Archived, tracking: Tracking) -> None:
        self._changed(event.originator_id, tracking, archived=bool(event.archived))

    @process_event.register
    def _legacy_listed(self, event: LegacyGamesIndex.Listed, tracking: Tracking) -> None:
        self._legacy(event.name, tracking, parent=event.parent)

    @process_event.register
    def _legacy_status(self, event: LegacyGamesIndex.StatusChanged, tracking: Tracking) -> None:
        self._legacy(event.name, tracking)

    def _legacy(self, name: str, tracking: Tracking, **changes: Any) -> None:
        """An old index's entry: its facts, with the status and result the game itself has now."""
        row = self.view.find(name)
        if row is None:
            self.view.upsert(None, tracking)
            return
        result = result_of(self.read_game(UUID(row["game_id"])).state)
        self.view.upsert({**row, **changes, "status": OVER if result else IN_PROGRESS, "result": result}, tracking)


def anchor_of(created: Game.Created) -> str:
    """The anchor of a stored game's chain: the hash of the header its ``Created`` event holds."""
    players = tuple((str(n), str(c)) for n, c in created.players)
    return GameLog(created.catalog_id, created.catalog_sha256, players, (), created.ruleset, dict(created.meta), (),
                   created.upcast_from).anchor()


def catch_up(app: Application, projection: Projection[Any], batch: int = 500) -> int:
    """Process every notification of the projection's topics that its view has not tracked yet.

    The library's pull loop for stores without subscriptions: from the view's
    last tracked notification, in batches. The changes of a batch are written with
    its last tracking record in one transaction (``GamesView.batch``; a view without
    it writes each notification's own), so a crash loses or repeats nothing; if
    another process tracked a notification first, this one carries on from where
    that one got. Returns how many notifications were processed here; ``EventsRemoved`` if the view has tracked
    further than the store now holds (an append-only store lost events).
    """
    view = projection.view
    together = getattr(view, "batch", nullcontext)
    done = 0
    while True:
        start = view.max_tracking_id(app.name) or 0
        notifications = app.recorder.select_notifications(start=start, limit=batch, topics=projection.topics,
                                                          inclusive_of_start=False)
        if not notifications:
            held = app.recorder.max_notification_id() or 0
            if start > held:  # read after the position: the store can only have grown since
                raise EventsRemoved(f"the store holds {held} events, but its index of games has read {start}: "
                                    "events were removed from the store; nothing was changed")
            return done
        try:
            with together():
                for notification in notifications:
                    projection.process_event(app.mapper.to_domain_event(notification), Tracking(app.name, notification.id))
        except IntegrityError:
            continue  # processed meanwhile by another process: read the position again
        done += len(notifications)
