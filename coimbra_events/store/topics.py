"""What a stored row may name as its class: this application's own classes, under their topics now and
the topics they were stored under before they moved.

The library resolves a row's topic by importing the module it names; refusing any
other topic first means a changed row can only ever be unreadable. Classes that
moved to another module keep their old topics (each module's ``MOVED_FROM``, registered with the
library's ``register_topic``), so every row stored before the move reads as it did.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import get_topic

from coimbra_events.event_decoding import shown
from coimbra_events.store.aliases import fold_aliases
from coimbra_events.store.legacy import LEGACY_TOPICS, OLD_MODULE
from coimbra_events.store import receipts, register, snapshots
from coimbra_events.store.receipts import Receipt
from coimbra_events.store.records import fold_claim, fold_mark
from coimbra_events.store.register import fold_name
from coimbra_events.store.snapshots import fold_game
from coimbra_events.store.tournaments import fold_tournament, fold_tournament_list

RECEIPT_TOPICS: tuple[str, ...] = (get_topic(Receipt), receipts.MOVED_FROM)
"""Every topic a receipt's row may name."""

STORED_TOPICS: frozenset[str] = frozenset(
    [get_topic(cls) for cls in (*fold_game.events, *fold_name.events, *fold_aliases.events, *fold_claim.events,
                                 *fold_mark.events, *fold_tournament.events, *fold_tournament_list.events, Receipt)]
    + [f"{register.MOVED_FROM}.{cls.__name__}" for cls in fold_name.events]
    + [receipts.MOVED_FROM, snapshots.MOVED_FROM, *LEGACY_TOPICS, f"{OLD_MODULE}:GamesIndex.Created"]
)
"""Every topic a stored row may name: the store's mapper resolves these and no other."""


class ForeignTopic(MapperDeserialisationError):
    """A stored row whose topic names no class of this application."""


class StoredTopics(Mapper):
    """A mapper that resolves only the topics in ``topics``, the classes the application stores.

    The library resolves a row's topic by importing the module it names; refusing
    any other topic first means a changed row can only ever be unreadable.
    """

    topics: frozenset[str] = frozenset()

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        if stored_event.topic not in self.topics:
            raise ForeignTopic(f"a stored row names {shown(stored_event.topic)}, which is no class of coimbra's")
        return super().to_domain_event(stored_event)
