"""Where a store keeps its served tables' keys and seat claims: files beside it, or tables of its own.

A SQLite store keeps them in files beside its file (``store.links``, ``store.seat_claims``): SQLite is
one server process's store, and a store file travels (a copy for a backup, for a friend who reads the
league) where the tokens, which let whoever holds them record, should not. A PostgreSQL store keeps them in
two tables of its own (``store.postgres_keeping``): every server process on it must hold the same keys and
claims, and whoever may read those tables may write the games anyway. A store in memory keeps claims while
the process runs and no keys (each table gets new ones). The organiser's key of a server of every table is
kept as the tables' keys are. ``keeping_for`` picks; the application asks
``keys`` and ``claims`` and never cares where they live.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar

from coimbra_events.store.links import OrganiserKey, TableKeys, links_folder, organiser_key, table_keys
from coimbra_events.store.seat_claims import ClaimsInMemory, seat_file

if TYPE_CHECKING:
    from eventsourcing.application import Application

T = TypeVar("T")


class SeatClaims(Protocol):
    """The kept claims of one game: each held seat -> the digest of its phone's device id."""

    def load(self) -> dict[str, str]: ...

    def change(self, update: Callable[[dict[str, str]], T]) -> T: ...


class Keeping(Protocol):
    """Where a store keeps its tables' keys and seat claims, by game id, and the organiser's key of its tables."""

    def keys(self, game_id: str, renew: bool = False) -> TableKeys: ...

    def organiser(self, renew: bool = False) -> OrganiserKey: ...

    def claims(self, game_id: str) -> SeatClaims: ...


class FileKeeping:
    """Keys and claims in files in ``folder`` (``None``: a store in memory, whose claims live as long as the process)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._in_memory: dict[str, ClaimsInMemory] = {}

    def keys(self, game_id: str, renew: bool = False) -> TableKeys:
        return table_keys(self.folder, game_id, renew)

    def organiser(self, renew: bool = False) -> OrganiserKey:
        return organiser_key(self.folder, renew)

    def claims(self, game_id: str) -> SeatClaims:
        if self.folder is None:
            return self._in_memory.setdefault(game_id, ClaimsInMemory())
        return seat_file(self.folder, game_id)


def keeping_for(app: Application, location: str) -> Keeping:
    """The keeping of the store ``app`` (at ``location``, as it is said): its tables created if the store creates them."""
    files = FileKeeping(links_folder(app.env, location))
    if type(app.factory).__module__ != "eventsourcing.postgres":
        return files
    from coimbra_events.store.postgres_keeping import PostgresKeeping

    kept = PostgresKeeping(_datastore(app), files)
    if app.factory.env_create_table():
        kept.create_table()
    return kept


def _datastore(app: Application) -> Any:
    return app.factory.datastore  # type: ignore[attr-defined]
