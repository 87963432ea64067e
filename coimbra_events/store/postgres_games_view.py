"""The games view in PostgreSQL (imported only for a PostgreSQL store: it needs ``psycopg``).

A top-level class, so the library's factory can build it from its topic
(``TRACKING_RECORDER_TOPIC=coimbra_events.store.postgres_games_view:PostgresGamesView``), as ``ProjectionRunner`` does.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from psycopg.sql import SQL

from coimbra_events.store.games_view import RECORDS, SQLGamesView


class PostgresGamesView(SQLGamesView, PostgresTrackingRecorder):
    """The games table in the store's PostgreSQL schema, with its tracking table ``games_index_tracking``."""

    P = "%s"
    NO_LIMIT = "ALL"

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        # The index keeps its own tracking table, whatever name a factory offers (the library's names
        # it after the application, ``coimbra_tracking``): so ``ProjectionRunner`` can build it too.
        super().__init__(datastore, **{**kwargs, "tracking_table_name": "games_index_tracking"})
        self.sql_create_statements.extend(SQL(s) for s in self._create_statements())  # type: ignore[arg-type]

    def create_table(self) -> None:
        """Create what is missing; an index from before its table of records is forgotten, to be built again."""
        stale = self._exists("games_index_tracking") and not self._exists(RECORDS)
        super().create_table()
        if stale:
            with self.datastore.transaction(commit=True) as c:
                for table in ("games_index", "games_index_players", "games_index_tags", "games_index_tracking"):
                    c.execute(f"DELETE FROM {self._table(table)}")

    def _exists(self, table: str) -> bool:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT to_regclass(%s) AS found", (self._table(table),))
            return c.fetchone()["found"] is not None

    def _table(self, name: str) -> str:
        schema = self.datastore.schema
        return f'"{schema}".{name}' if schema else name

    def _write_tracking(self, cursor: Any, tracking: Tracking) -> None:
        self._insert_tracking(cursor, tracking)
