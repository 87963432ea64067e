"""Opening the store a person names: refused in one line when it is not there or does not answer."""

from __future__ import annotations

import os

from coimbra_events.store.errors import NoStore, StoreNotOpened, one_line
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.location import existing_stores, missing_store, where_games_live


def open_store(db: str | os.PathLike[str] | None = None, create: bool = False) -> GameStore:
    """The store at ``db``. Only a use that makes games (``create``: new, import, record) makes a store: for any
    other, a SQLite file that does not exist is ``NoStore``, naming the stores that do, and nothing is created on
    disk; ``StoreNotOpened`` if it cannot be opened."""
    from eventsourcing.persistence import PersistenceError

    if not create:
        missing = missing_store(db)
        if missing is not None:
            found = existing_stores()
            there = f"; stores that exist: {', '.join(found)}" if found else "; no store exists yet"
            raise NoStore(f"no game store at {missing} (nothing created: coimbra new or coimbra import makes one){there}")
    try:
        return GameStore(db)
    except (PersistenceError, OSError) as exc:
        why = getattr(exc, "strerror", None) or one_line(exc)
        raise StoreNotOpened(f"cannot open the game store {where_games_live(db)}: {why}") from None
