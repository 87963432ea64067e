"""Stored events that only stores written by older versions hold, so those stores stay readable.

Until schema 2 the games index was one aggregate, ``coimbra_events.application:GamesIndex``,
with a ``Listed`` event per game and a ``StatusChanged`` when a game ended. Its events are
still in such a store's notification log; the games index projection reads them (and
takes each game's status from the game itself, since that index never noticed a game
reopened by an undo). The classes are registered under their old topics.
"""

from __future__ import annotations

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

OLD_MODULE = "coimbra_events.application"


class LegacyGamesIndex(Aggregate):
    """The schema-1 games index aggregate: read, never written."""

    class Created(Aggregate.Created):
        pass

    class Listed(Aggregate.Event):
        name: str
        players: tuple
        parent: str | None
        seed: int | None
        catalog_id: str
        status: str

    class StatusChanged(Aggregate.Event):
        name: str
        status: str


for _name, _cls in {"GamesIndex": LegacyGamesIndex, "GamesIndex.Created": LegacyGamesIndex.Created,
                    "GamesIndex.Listed": LegacyGamesIndex.Listed, "GamesIndex.StatusChanged": LegacyGamesIndex.StatusChanged}.items():
    register_topic(f"{OLD_MODULE}:{_name}", _cls)

LEGACY_TOPICS: tuple[str, ...] = (f"{OLD_MODULE}:GamesIndex.Listed", f"{OLD_MODULE}:GamesIndex.StatusChanged")
"""The old index's events the projection reads, by the topics they were stored under."""
