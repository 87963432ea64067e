"""The club's alias map as the store keeps it: read, folded from its own event classes, and saved again on conflict.

The ``Aliases`` aggregate and what a spelling's key is are the domain's
(``coimbra_events.players``); reading and saving the map are the store's.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import RecordConflictError

from coimbra_events.players import Aliases
from coimbra_events.store.errors import StoreConflict
from coimbra_events.store.folding import Folding

ATTEMPTS = 5
T = TypeVar("T")


fold_aliases = Folding(Aliases, (Aliases.Created, Aliases.Aliased, Aliases.Unaliased))
"""The alias map's fold: its own event classes only (``Folding``), as the store reads every aggregate."""


def aliases_of(store: Application) -> Aliases:
    """The store's alias map (empty when none was ever recorded)."""
    try:
        return store.repository.get(Aliases.create_id(), projector_func=fold_aliases)
    except AggregateNotFoundError:
        return Aliases.open()


def change_aliases(store: Application, change: Callable[[Aliases], T]) -> T:
    """Apply ``change`` to the alias map and save it; again on a fresh copy if another writer saved first."""
    for _ in range(ATTEMPTS):
        aliases = aliases_of(store)
        outcome = change(aliases)
        try:
            store.save(aliases)
        except RecordConflictError:
            continue
        return outcome
    raise StoreConflict("the alias map kept changing while saving; nothing was stored, try again")
