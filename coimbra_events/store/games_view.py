"""The games view: the table the games index writes and the store reads, in memory, SQLite or PostgreSQL.

``GamesView`` is a tracking recorder (``eventsourcing.persistence``): each change is
recorded in the same transaction as the tracking record of the notification it came
from. ``POPOGamesView`` keeps it in memory (for tests), ``SQLGamesView`` in one table of
games, one of players and one of tags; ``view_for`` picks the one of a store's database.
The projection that writes it is ``coimbra_events.store.games_index``'s.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Sequence
from uuid import UUID

import orjson
from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from coimbra_events.store.games_query import GameInfo, GamesQuery, name_series


Row = dict[str, Any]
"""A game in the view: the fields of ``GameInfo`` as JSON values, with ``game_id`` as text, and its record's
``anchor``, ``entries`` and ``head`` (``receipts``: the id its receipts are kept under)."""

def create_beside_others(create: Callable[[], None]) -> None:
    """Run a tracking recorder's ``create_table``; again if another process created the tables at that moment.

    The library reads its tracking table's migration row before the transaction that creates the tables, so
    two processes opening a new store at once both insert that row; the second is told by an
    ``IntegrityError``. Run again, it finds the row and inserts nothing.
    """
    for attempt in range(3):
        try:
            create()
            return
        except IntegrityError:
            if attempt == 2:
                raise


RECORDS = "games_index_records"
"""The table of each game's record: its anchor, entries and head (``coimbra_events.store.records``)."""


class GamesView(TrackingRecorder, ABC):
    """The games table, changed only together with the tracking record of the notification that changed it.

    Inside ``batch()`` the changes of many notifications are kept and written in
    one transaction with the last one's tracking record when the batch ends (so a
    catch-up of many notifications commits once, and still all or nothing).
    """

    _pending: dict[str, Row] | None = None
    _pending_tracking: Tracking | None = None

    def upsert(self, row: Row | None, tracking: Tracking) -> None:
        """Write one game's row (``None``: nothing changes) and the tracking record, in one transaction."""
        if self._pending is None:
            self._write([] if row is None else [row], tracking)
            return
        if row is not None:
            self._pending[row["game_id"]] = row
        self._pending_tracking = tracking

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Keep the changes made inside, and write them at the end in one transaction."""
        self._pending, self._pending_tracking = {}, None
        try:
            yield
            rows, tracking = list(self._pending.values()), self._pending_tracking
        finally:
            self._pending, self._pending_tracking = None, None
        if tracking is not None:
            self._write(rows, tracking)

    def row(self, game_id: str) -> Row | None:
        """The row of one game (as changed in the current batch)."""
        if self._pending and game_id in self._pending:
            return dict(self._pending[game_id])
        return self._stored_row(game_id)

    def find(self, name: str) -> Row | None:
        """The row of the game with this name (as changed in the current batch)."""
        for row in (self._pending or {}).values():
            if row["name"] == name:
                return dict(row)
        found = self._stored_find(name)
        return None if found is None or (self._pending and found["game_id"] in self._pending) else found

    def by_receipts(self, receipts: str) -> Row | None:
        """The row of the game whose receipts are kept under this id (as changed in the current batch)."""
        for row in (self._pending or {}).values():
            if row.get("receipts") == receipts:
                return dict(row)
        found = self._stored_by_receipts(receipts)
        return None if found is None or (self._pending and found["game_id"] in self._pending) else found

    @abstractmethod
    def _stored_by_receipts(self, receipts: str) -> Row | None: ...

    @abstractmethod
    def holding(self, anchor: str) -> list[Row]:
        """Every game whose record has this anchor (header hash): name, entries and head, archived or not."""

    @abstractmethod
    def duplicates(self) -> list[list[Row]]:
        """The groups of two or more games that hold the same record (same anchor and head), oldest first."""

    @abstractmethod
    def _write(self, rows: list[Row], tracking: Tracking) -> None:
        """Write these rows and the tracking record in one transaction."""

    @abstractmethod
    def _stored_row(self, game_id: str) -> Row | None: ...

    @abstractmethod
    def _stored_find(self, name: str) -> Row | None: ...

    @abstractmethod
    def select(self, query: GamesQuery) -> tuple[list[Row], int]:
        """The page of rows a query asks for (oldest first), and how many rows match in all."""

    @abstractmethod
    def largest_number(self, base: str) -> int:
        """The largest number of a game named ``base`` or ``base-N`` (0 if there is none)."""


def info_of(row: Row) -> GameInfo:
    """A row of the view as the index lists it."""
    return GameInfo(
        row["name"], tuple((p["name"], p["color"]) for p in row["players"]), row["status"],
        datetime.fromisoformat(row["created"]), row["parent"], row["seed"], row["catalog"],
        tuple(row["result"] or ()), tuple(row["tags"]), bool(row["archived"]), UUID(row["game_id"]),
    )


class POPOGamesView(POPOTrackingRecorder, GamesView):
    """The games table in memory (the in-memory store's)."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: dict[str, Row] = {}

    def _write(self, rows: list[Row], tracking: Tracking) -> None:
        with self._database_lock:
            self._assert_tracking_uniqueness(tracking)
            for row in rows:
                self._rows[row["game_id"]] = dict(row)
            self._insert_tracking(tracking)

    def _stored_row(self, game_id: str) -> Row | None:
        found = self._rows.get(game_id)
        return dict(found) if found else None

    def _stored_find(self, name: str) -> Row | None:
        return next((dict(r) for r in self._rows.values() if r["name"] == name), None)

    def _stored_by_receipts(self, receipts: str) -> Row | None:
        return next((dict(r) for r in self._rows.values() if r.get("receipts") == receipts), None)

    def holding(self, anchor: str) -> list[Row]:
        return [dict(r) for r in self._rows.values() if r.get("anchor") == anchor]

    def duplicates(self) -> list[list[Row]]:
        return _grouped(sorted((dict(r) for r in self._rows.values() if r.get("anchor")), key=_record_order))

    def select(self, query: GamesQuery) -> tuple[list[Row], int]:
        rows = sorted((r for r in self._rows.values() if _matches(r, query)), key=lambda r: (r["created"], r["name"]))
        stop = None if query.limit is None else query.offset + query.limit
        return [dict(r) for r in rows[query.offset:stop]], len(rows)

    def largest_number(self, base: str) -> int:
        return max((n for b, n in (name_series(r["name"]) for r in self._rows.values()) if b == base), default=0)


def _record_order(row: Row) -> tuple[str, str, str, str]:
    return (row["anchor"], row["head"], row["created"], row["name"])


def _grouped(rows: list[Row]) -> list[list[Row]]:
    """Rows in ``_record_order`` as groups of the same record, two or more, oldest group first."""
    groups: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        if not row.get("entries"):
            continue  # no entries, or none its receipts tell (a game from before receipts): no record to compare
        groups.setdefault((row["anchor"], row["head"]), []).append(row)
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: (g[0]["created"], g[0]["name"]))


def _matches(row: Row, q: GamesQuery) -> bool:
    return (
        bool(row["archived"]) == q.archived
        and (q.player is None or q.player.casefold() in {p["name"].casefold() for p in row["players"]})
        and (q.status is None or row["status"] == q.status)
        and (q.since is None or datetime.fromisoformat(row["created"]) >= q.since)
        and (q.tag is None or q.tag in row["tags"])
    )


class SQLGamesView(GamesView, ABC):
    """The games table in SQL, the same for SQLite and PostgreSQL but for placeholders and names.

    ``games_index`` has one row per game (players, result and tags also as JSON
    text, as shown); ``games_index_players`` and ``games_index_tags`` one row per
    player and per tag, for the filters.
    """

    P = "?"
    """The driver's placeholder."""
    NO_LIMIT = "-1"
    """``LIMIT`` for all rows."""

    def _table(self, name: str) -> str:
        return name

    def _create_statements(self) -> list[str]:
        g, pl, tg = self._table("games_index"), self._table("games_index_players"), self._table("games_index_tags")
        rc = self._table(RECORDS)
        return [
            f"CREATE TABLE IF NOT EXISTS {g} (game_id TEXT PRIMARY KEY, name TEXT NOT NULL, series TEXT NOT NULL, "
            "number INTEGER NOT NULL, players TEXT NOT NULL, status TEXT NOT NULL, created TEXT NOT NULL, parent TEXT, "
            "seed BIGINT, catalog TEXT NOT NULL, result TEXT, tags TEXT NOT NULL, archived INTEGER NOT NULL)",
            f"CREATE INDEX IF NOT EXISTS games_index_by_name ON {g} (name)",
            f"CREATE INDEX IF NOT EXISTS games_index_by_series ON {g} (series, number)",
            f"CREATE INDEX IF NOT EXISTS games_index_by_created ON {g} (archived, created, name)",
            f"CREATE TABLE IF NOT EXISTS {pl} (game_id TEXT NOT NULL, player TEXT NOT NULL, PRIMARY KEY (player, game_id))",
            f"CREATE TABLE IF NOT EXISTS {tg} (game_id TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (tag, game_id))",
            f"CREATE TABLE IF NOT EXISTS {rc} (game_id TEXT PRIMARY KEY, receipts TEXT NOT NULL, anchor TEXT NOT NULL, "
            "entries INTEGER NOT NULL, head TEXT NOT NULL)",
            f"CREATE INDEX IF NOT EXISTS games_index_records_by_anchor ON {rc} (anchor, head)",
            f"CREATE INDEX IF NOT EXISTS games_index_records_by_receipts ON {rc} (receipts)",
        ]

    @abstractmethod
    def _write_tracking(self, cursor: Any, tracking: Tracking) -> None:
        """Insert the tracking record in this transaction (the library's recorder does)."""

    def _write(self, rows: list[Row], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as c:
            self._write_tracking(c, tracking)
            for row in rows:
                self._write_row(c, row)

    def _write_row(self, c: Any, row: Row) -> None:
        p, g = self.P, self._table("games_index")
        series, number = name_series(row["name"])
        values = (row["game_id"], row["name"], series, number, orjson.dumps(row["players"]).decode(), row["status"],
                  row["created"], row["parent"], row["seed"], row["catalog"],
                  None if row["result"] is None else orjson.dumps(row["result"]).decode(),
                  orjson.dumps(row["tags"]).decode(), int(row["archived"]))
        c.execute(f"DELETE FROM {g} WHERE game_id = {p}", (row["game_id"],))
        c.execute(f"INSERT INTO {g} VALUES ({', '.join([p] * len(values))})", values)
        for table, column, items in (("games_index_players", "player", [q["name"].casefold() for q in row["players"]]),
                                     ("games_index_tags", "tag", row["tags"])):
            c.execute(f"DELETE FROM {self._table(table)} WHERE game_id = {p}", (row["game_id"],))
            for item in dict.fromkeys(items):
                c.execute(f"INSERT INTO {self._table(table)} (game_id, {column}) VALUES ({p}, {p})", (row["game_id"], item))
        c.execute(f"DELETE FROM {self._table(RECORDS)} WHERE game_id = {p}", (row["game_id"],))
        if row.get("anchor"):
            c.execute(f"INSERT INTO {self._table(RECORDS)} (game_id, receipts, anchor, entries, head) VALUES ({p}, {p}, {p}, {p}, {p})",
                      (row["game_id"], row["receipts"], row["anchor"], row["entries"], row["head"]))

    def _rows(self, where: str, params: Sequence[Any], tail: str = "") -> list[Row]:
        g, rc = self._table("games_index"), self._table(RECORDS)
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT {g}.*, {rc}.receipts, {rc}.anchor, {rc}.entries, {rc}.head FROM {g} LEFT JOIN {rc} "
                      f"ON {rc}.game_id = {g}.game_id WHERE {where} {tail}", tuple(params))
            return [self._decoded(dict(r)) for r in c.fetchall()]

    @staticmethod
    def _decoded(r: Row) -> Row:
        return {**r, "players": orjson.loads(r["players"]), "result": None if r["result"] is None else orjson.loads(r["result"]),
                "tags": orjson.loads(r["tags"])}

    def _stored_row(self, game_id: str) -> Row | None:
        found = self._rows(f"{self._table('games_index')}.game_id = {self.P}", (game_id,))
        return found[0] if found else None

    def _stored_find(self, name: str) -> Row | None:
        found = self._rows(f"name = {self.P}", (name,))
        return found[0] if found else None

    def _stored_by_receipts(self, receipts: str) -> Row | None:
        found = self._rows(f"receipts = {self.P}", (receipts,))
        return found[0] if found else None

    def holding(self, anchor: str) -> list[Row]:
        return self._rows(f"anchor = {self.P}", (anchor,))

    def duplicates(self) -> list[list[Row]]:
        rc = self._table(RECORDS)
        return _grouped(self._rows(f"({rc}.anchor, {rc}.head) IN (SELECT anchor, head FROM {rc} GROUP BY anchor, head "
                                   "HAVING COUNT(*) > 1)", (), "ORDER BY anchor, head, created, name"))

    def select(self, q: GamesQuery) -> tuple[list[Row], int]:
        p, g = self.P, self._table("games_index")
        where, params = [f"archived = {p}"], [int(q.archived)]
        if q.player is not None:
            where.append(f"{g}.game_id IN (SELECT game_id FROM {self._table('games_index_players')} WHERE player = {p})")
            params.append(q.player.casefold())
        if q.tag is not None:
            where.append(f"{g}.game_id IN (SELECT game_id FROM {self._table('games_index_tags')} WHERE tag = {p})")
            params.append(q.tag)
        if q.status is not None:
            where.append(f"status = {p}")
            params.append(q.status)
        if q.since is not None:  # times are stored in UTC, as ISO text: compared as text in UTC too
            where.append(f"created >= {p}")
            params.append(q.since.astimezone(timezone.utc).isoformat())
        condition = " AND ".join(where)
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT COUNT(*) AS n FROM {self._table('games_index')} WHERE {condition}", tuple(params))
            total = int(c.fetchone()["n"])
        limit = self.NO_LIMIT if q.limit is None else str(int(q.limit))
        page = f"ORDER BY created, name LIMIT {limit} OFFSET {int(q.offset)}"
        return self._rows(condition, params, page), total

    def largest_number(self, base: str) -> int:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT MAX(number) AS n FROM {self._table('games_index')} WHERE series = {self.P}", (base,))
            found = c.fetchone()["n"]
        return int(found or 0)


class SQLiteGamesView(SQLGamesView, SQLiteTrackingRecorder):
    """The games table in the store's SQLite file, with a tracking table of its own.

    (The library's SQLite tracking recorder names its table ``tracking``, one per
    file; the index takes ``games_index_tracking``, so other projections of the same
    store can keep their own.)
    """

    TRACKING = "games_index_tracking"
    _stale = False

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.insert_tracking_statement = _renamed(self.insert_tracking_statement, self.TRACKING)
        self.select_max_tracking_id_statement = _renamed(self.select_max_tracking_id_statement, self.TRACKING)

    def construct_create_table_statements(self) -> list[str]:
        return [_renamed(s, self.TRACKING) for s in super().construct_create_table_statements()] + self._create_statements()

    def _write_tracking(self, cursor: Any, tracking: Tracking) -> None:
        self._insert_tracking(cursor, tracking)

    def create_table(self) -> None:
        """Create what is missing; an index from before its table of records is built again (it is derived)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)", (self.TRACKING, RECORDS))
            found = {r[0] for r in c.fetchall()}
        self._stale = self.TRACKING in found and RECORDS not in found
        create_beside_others(super().create_table)

    def _create_table(self, c: Any) -> None:
        """Build the index again if its layout is older (the index is derived: nothing is lost).

        With single-row tracking (the library's default), the library takes a tracking table
        without its own row for one of an older layout and migrates it, naming the table
        ``tracking`` outright; this one was never of that layout. With ``SINGLE_ROW_TRACKING=n``
        a tracking table never has that row: it is kept as it is.
        """
        single = self.datastore.single_row_tracking
        if self._stale or (single and self.tracking_table_exists and not self.tracking_migration_previous):
            for table in (self.TRACKING, "games_index", "games_index_players", "games_index_tags", RECORDS):
                c.execute(f"DROP TABLE IF EXISTS {table}")
            self.tracking_table_exists = False
        super()._create_table(c)


def _renamed(statement: str, table: str) -> str:
    return re.sub(r"\btracking\b", table, statement)


def postgres_view_class() -> type[GamesView]:
    """The PostgreSQL view (imported on first use: it needs ``psycopg``)."""
    from coimbra_events.store.postgres_games_view import PostgresGamesView

    return PostgresGamesView


def view_for(app: Application) -> GamesView:
    """The games view in the store's own database (its tables created if the store creates tables)."""
    module = type(app.factory).__module__
    if module == "eventsourcing.popo":
        return POPOGamesView()
    if module == "eventsourcing.sqlite":
        view: GamesView = SQLiteGamesView(datastore=app.factory.datastore)
    elif module == "eventsourcing.postgres":
        view = postgres_view_class()(datastore=app.factory.datastore)
    else:
        raise NotImplementedError(f"no games index for the {module} store")
    if app.factory.env_create_table():
        view.create_table()
    return view
