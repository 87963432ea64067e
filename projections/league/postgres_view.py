"""The league's tables in the store's PostgreSQL schema (imported only for a PostgreSQL store)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.rows import tuple_row
from psycopg.sql import SQL

from projections.league.view import _DDL, TABLES, LeagueView, Tables

TRACKING_TABLE = "league_tracking"
"""The tracking table's name, as the library's factory names it for a projection called ``league``."""


class PostgresLeagueView(LeagueView, PostgresTrackingRecorder):
    """The league's tables beside the store's events, in the same schema.

    Writers take a transaction-scoped advisory lock named after the schema, so
    two catch-ups (a laptop's ``league standings`` and ``league follow``, say)
    never interleave; creating the tables takes another, so concurrent first
    uses create them once.
    """

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        schema = '"' + datastore.schema.replace('"', '""') + '"'
        self.names = {t: f"{schema}.league_{t}" for t in TABLES}
        self.names["tracking"] = f'{schema}."{self.tracking_table_name}"'
        self.lock_name = f"{datastore.schema}.league"
        self.sql_create_statements.extend(SQL(self.sql(s)) for s in _DDL)  # type: ignore[arg-type]

    def sql(self, template: str) -> str:
        return template.format_map(self.names).replace("?", "%s")

    def _exists(self, table: str) -> bool:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute("SELECT to_regclass(%s) AS found", (self.names[table],))
            return curs.fetchone()["found"] is not None

    def _create_table(self, curs: Any) -> None:
        curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.lock_name + ":create",))
        super()._create_table(curs)

    @contextmanager
    def writing(self) -> Iterator[Tables]:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.lock_name,))
            yield Tables(self, curs.connection.cursor(row_factory=tuple_row), curs)

    @contextmanager
    def reading(self) -> Iterator[Tables]:
        with self.datastore.transaction(commit=False) as curs:
            yield Tables(self, curs.connection.cursor(row_factory=tuple_row), curs)
