"""The store's notification log read in batches as plain rows: the league's catch-up reads every stored event.

The library's ``select_notifications`` builds a frozen ``Notification`` and a
``UUID`` for every row: 5.1 µs per event on SQLite, more than a whole validated
replay of the event from its log (3.1 µs). The same SELECT returning plain
tuples costs 0.6 µs, so for the two recorders the store uses this module runs
that SELECT on the recorder's own table and connection (notification id,
originator id as text, version, topic, state), in the same order; for any
other recorder it asks ``select_notifications``.
``tests/store/league/test_log_rows.py`` holds the two to the same rows.

Topics are not filtered in SQL: on PostgreSQL a topic filter made the planner
scan every later row for each batch (a bitmap scan, then a sort), so a catch-up
of 10,000 games read the log over and over. The few rows the league does not
want (the games index's) are passed over by the caller.

``Decoder`` turns a row's state into the event's fields. A row written by the
current code (its ``class_version`` is the class's) is read as plain JSON; an
older one (schema 1 had no ``class_version``) goes through the library's mapper,
which upcasts it with the event class's own ``upcast_vN_vN+1`` methods, as
``GameStore`` reads it: one interpretation of every stored record.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable
from uuid import UUID

import orjson
from eventsourcing.persistence import ApplicationRecorder, Mapper, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import resolve_topic

Row = tuple[int, str, int, str, bytes]
"""notification id, originator id (text), originator version, topic, state"""

Reader = Callable[[int, int, "int | None"], list[Row]]
"""``read(after, limit, stop)``: up to ``limit`` rows after position ``after`` (and not after ``stop``), in order."""


def reader(recorder: ApplicationRecorder) -> Reader:
    """How to read this recorder's notification log in batches of plain rows."""
    if isinstance(recorder, SQLiteApplicationRecorder):
        return _sqlite(recorder)
    if type(recorder).__module__ == "eventsourcing.postgres":
        return _postgres(recorder)
    return _library(recorder)


def _where(id_column: str, stop: int | None, mark: str) -> str:
    return f"{id_column} > {mark}" + (f" AND {id_column} <= {mark}" if stop is not None else "")


def _params(after: int, limit: int, stop: int | None) -> list[int]:
    return [after, *([stop] if stop is not None else []), limit]


def _sqlite(recorder: SQLiteApplicationRecorder) -> Reader:
    table = recorder.events_table_name

    def read(after: int, limit: int, stop: int | None) -> list[Row]:
        sql = (f"SELECT rowid, originator_id, originator_version, topic, state FROM {table} "
               f"WHERE {_where('rowid', stop, '?')} ORDER BY rowid LIMIT ?")
        with recorder.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor
            cursor.row_factory = None  # plain tuples: the library's connection makes sqlite3.Row objects
            cursor.execute(sql, _params(after, limit, stop))
            return cursor.fetchall()

    return read


def _postgres(recorder: Any) -> Reader:
    from psycopg.rows import tuple_row

    datastore = recorder.datastore
    table = '"{}"."{}"'.format(datastore.schema.replace('"', '""'), recorder.events_table_name.replace('"', '""'))

    def read(after: int, limit: int, stop: int | None) -> list[Row]:
        sql = (f"SELECT notification_id, originator_id::text, originator_version, topic, state FROM {table} "
               f"WHERE {_where('notification_id', stop, '%s')} ORDER BY notification_id LIMIT %s")
        # Binary results: the states arrive as bytes, not as hex text to decode (half the time per row).
        with datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row, binary=True) as curs:
            curs.execute(sql, _params(after, limit, stop), prepare=True)
            return curs.fetchall()

    return read


def _library(recorder: ApplicationRecorder) -> Reader:
    def read(after: int, limit: int, stop: int | None) -> list[Row]:
        return [(n.id, str(n.originator_id), n.originator_version, n.topic, n.state)
                for n in recorder.select_notifications(after, limit, stop=stop, inclusive_of_start=False)]

    return read


_loads = orjson.loads


class Decoder:
    """A stored event's fields from its row: plain JSON when current, through the library's upcasting when older."""

    def __init__(self, mapper: Mapper, topics: Iterable[str]) -> None:
        self.mapper = mapper
        self.versions = {topic: getattr(resolve_topic(topic), "class_version", 1) for topic in topics}
        """The class version this code writes, per topic."""

    def __call__(self, topic: str, originator: str, version: int, state: bytes) -> dict[str, Any]:
        """The fields of the event (``{}`` for a row that cannot be read: the caller says what is missing)."""
        try:
            fields = _loads(state)
        except orjson.JSONDecodeError:
            return {}
        if type(fields) is dict and fields.get("class_version", 1) == self.versions.get(topic, 1):
            return fields
        if not isinstance(fields, dict):
            return {}
        try:
            event = self.mapper.to_domain_event(StoredEvent(UUID(originator), version, topic, state))
        except Exception:  # a damaged row (a class version no upcaster reaches, fields an upcaster cannot read)
            return {}
        return dict(vars(event))
