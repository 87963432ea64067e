"""The store's rows as stored: what reading a game row by row, its receipts and its snapshot need.

The library's recorders and mapper behind one small surface, so that the
inspection behind ``verify`` and the store's own reads ask one object, and the one
write the library has no call for (dropping a game's older snapshots) is here too.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import EventStore, Mapper, Recorder, StoredEvent


class Rows:
    """A store's rows: a stream's rows as stored, a row as the event it holds, a game's latest snapshot row."""

    def __init__(self, recorder: Recorder, mapper: Mapper, snapshots: EventStore | None) -> None:
        self.recorder, self.mapper, self.snapshots = recorder, mapper, snapshots

    def of(self, originator_id: UUID, *, desc: bool = False, limit: int | None = None) -> list[StoredEvent]:
        """The rows of one stream (a game, its receipts, a name in the register), oldest first unless ``desc``."""
        return list(self.recorder.select_events(originator_id, desc=desc, limit=limit))  # type: ignore[attr-defined]

    def event(self, row: StoredEvent) -> Any:
        """The event a row holds (the store's mapper: its own classes only)."""
        return self.mapper.to_domain_event(row)

    def latest_snapshot(self, game_id: UUID) -> StoredEvent | None:
        """The row of a game's latest snapshot, if the store keeps snapshots and has one."""
        if self.snapshots is None:
            return None
        rows = self.snapshots.recorder.select_events(game_id, desc=True, limit=1)  # type: ignore[attr-defined]
        return rows[0] if rows else None

    def drop_snapshots_before(self, game_id: UUID, version: int) -> None:
        """Delete a game's snapshots older than ``version``: only the latest is ever read, and each holds
        the whole record, so keeping them all would grow a store with the square of its games' length.

        The library has no call for it (eventsourcing 9.5): one statement per SQL store. An in-memory
        store keeps its snapshots (it ends with the process)."""
        if self.snapshots is None:
            return
        recorder: Any = self.snapshots.recorder
        stores = {cls.__module__ for cls in type(recorder).__mro__}
        if "eventsourcing.sqlite" in stores:
            with recorder.datastore.transaction(commit=True) as cursor:
                cursor.execute(f"DELETE FROM {recorder.events_table_name} WHERE originator_id = ? AND originator_version < ?",
                               (game_id.hex, version))
        elif "eventsourcing.postgres" in stores:
            from psycopg.sql import SQL, Identifier

            statement = SQL("DELETE FROM {schema}.{table} WHERE originator_id = %s AND originator_version < %s").format(
                schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
            with recorder.datastore.transaction(commit=True) as cursor:
                cursor.execute(statement, (game_id, version))
