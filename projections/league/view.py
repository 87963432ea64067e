"""The league's tables, kept in the store's own database with the position of the last event they reflect.

``LeagueView`` is a tracking recorder of the ``eventsourcing`` library (as its
``Projection`` wants): every change of the tables is written in one transaction
together with the tracking of the notification it reflects, so after a crash the
tables are exactly those of some position in the log and the catch-up resumes
from there, each event reflected once. ``SQLiteLeagueView`` and
``PostgresLeagueView`` differ only in how a transaction is opened and locked;
the tables and their SQL (``Tables``) are the same on both.

Tables (all prefixed ``league_``):

- ``games``: every stored game: name, status (``over``, ``in progress``,
  ``damaged``), ``finished`` (the log position at which it last became over:
  the order of the ratings), whether it is a fork, and what is wrong with it;
- ``held``: one row per seat of each finished game that is not a fork (its
  contribution): spelling, identity key, place, total, points by source, facts;
- ``results``: the rows of ``held`` of the games the league counts (each record
  once, nothing archived, not counted or a copy: ``projections.league.counting``),
  which every report reads;
- ``counting``: per game, its record (its head once over) and whether it is
  archived, not counted or a copy;
- ``tags``: the tags of each game (the seasons);
- ``aliases``: the alias map as recorded (``coimbra player alias``);
- ``ratings``: each person's openskill rating after each rated game.
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Sequence

import orjson
from eventsourcing.persistence import IntegrityError, OperationalError, Tracking, TrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from coimbra_events.players import person_key
from coimbra_events.store.games_view import create_beside_others
from projections.league.contribution import SOURCES, Seat
from projections.league.counting import COUNTING_DDL, Counting

APPLICATION = "coimbra"
"""The name of the application whose notification log the league reflects (``GameStore.name``)."""

TABLES = ("games", "results", "tags", "aliases", "ratings", "held", "counting")

_DDL = (
    "CREATE TABLE IF NOT EXISTS {games} (game_id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, "
    "finished BIGINT, fork INTEGER NOT NULL, players INTEGER NOT NULL, problem TEXT)",
    "CREATE INDEX IF NOT EXISTS league_games_finished ON {games} (finished)",
    "CREATE TABLE IF NOT EXISTS {results} (game_id TEXT NOT NULL, seat INTEGER NOT NULL, spelling TEXT NOT NULL, "
    "spelling_key TEXT NOT NULL, place INTEGER NOT NULL, shared INTEGER NOT NULL, total INTEGER NOT NULL, "
    + ", ".join(f"{column} INTEGER NOT NULL" for _, column in SOURCES)
    + ", resources_left INTEGER NOT NULL, facts TEXT NOT NULL, PRIMARY KEY (game_id, seat))",
    "CREATE INDEX IF NOT EXISTS league_results_key ON {results} (spelling_key)",
    "CREATE TABLE IF NOT EXISTS {tags} (game_id TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (game_id, tag))",
    "CREATE INDEX IF NOT EXISTS league_tags_tag ON {tags} (tag)",
    "CREATE TABLE IF NOT EXISTS {aliases} (alias_key TEXT PRIMARY KEY, alias TEXT NOT NULL, person_key TEXT NOT NULL, "
    "person TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {ratings} (finished BIGINT NOT NULL, person_key TEXT NOT NULL, game_id TEXT NOT NULL, "
    "mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, PRIMARY KEY (finished, person_key))",
    "CREATE INDEX IF NOT EXISTS league_ratings_person ON {ratings} (person_key, finished)",
)
_DDL = (*_DDL, next(s for s in _DDL if "{results} (" in s).replace("{results}", "{held}"), *COUNTING_DDL)
"""One schema for both databases (SQLite reads BIGINT and DOUBLE PRECISION by affinity); ``held`` has the columns
of ``results`` (``projections.league.counting``)."""

_SEAT_COLUMNS = ("game_id", "seat", "spelling", "spelling_key", "place", "shared", "total", *(c for _, c in SOURCES),
                 "resources_left", "facts")
_SOURCE_COLUMNS = tuple(c for _, c in SOURCES)

OVER, IN_PROGRESS, DAMAGED = "over", "in progress", "damaged"


class Overtaken(RuntimeError):
    """Another process moved the league on since this one last read it: catch up again from there."""


class Tables(Counting):
    """The league's tables inside one transaction; the same SQL on SQLite and PostgreSQL."""

    def __init__(self, view: LeagueView, cursor: Any, tracking_cursor: Any = None) -> None:
        """``cursor`` runs the league's SQL and returns rows as tuples; ``tracking_cursor`` (the same transaction)
        is the one the library's tracking methods expect."""
        self.view = view
        self.cursor = cursor
        self.tracking_cursor = cursor if tracking_cursor is None else tracking_cursor

    def _run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.cursor.execute(self.view.sql(sql), params)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self._run(sql, params)
        return [tuple(r) for r in self.cursor.fetchall()]

    # -- position in the log

    def position(self) -> int:
        """The last notification the tables reflect (0 before any)."""
        return self.view._max_tracking_id(APPLICATION, self.tracking_cursor) or 0

    def track(self, position: int) -> None:
        """Record that the tables now reflect the log up to ``position`` (refused if they already did)."""
        self.view._insert_tracking(self.tracking_cursor, Tracking(APPLICATION, position))

    def clear(self) -> None:
        """Empty every table and forget the position: the next catch-up starts from the first event."""
        for table in TABLES:
            self._run(f"DELETE FROM {{{table}}}")
        self.cursor.execute(self.view.sql("DELETE FROM {tracking} WHERE application_name = ?"), (APPLICATION,))

    # -- games and their contributions

    def game(self, game_id: str) -> tuple[str, int | None] | None:
        """``(status, finished)`` of a game, or ``None`` if the league has not seen it."""
        return self.games([game_id]).get(game_id)

    def games(self, game_ids: Sequence[str]) -> dict[str, tuple[str, int | None]]:
        """``(status, finished)`` of each of these games the league has seen."""
        out: dict[str, tuple[str, int | None]] = {}
        for chunk in _chunks(list(game_ids)):
            for game_id, status, finished in self._rows(
                    f"SELECT game_id, status, finished FROM {{games}} WHERE game_id IN ({_marks(chunk)})", chunk):
                out[game_id] = (status, finished)
        return out

    def put_games(self, rows: Sequence[tuple[str, str, str, int | None, bool, int, str | None]]) -> None:
        """``(game id, name, status, finished, fork, players, problem)`` rows, replacing what the games had but
        their names (the name a game was created with; ``set_name`` when it is renamed)."""
        if rows:
            self.cursor.executemany(self.view.sql(
                "INSERT INTO {games} (game_id, name, status, finished, fork, players, problem) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, "
                "finished = excluded.finished, fork = excluded.fork, players = excluded.players, problem = excluded.problem"),
                [(g, n, st, f, int(fork), p, why) for g, n, st, f, fork, p, why in rows])

    def seats(self, game_ids: Sequence[str]) -> dict[str, list[tuple[Any, ...]]]:
        """The stored seats of these games, counted or not (every column but the game id), in seat order."""
        out: dict[str, list[tuple[Any, ...]]] = {}
        for chunk in _chunks(list(game_ids)):
            for row in self._rows(f"SELECT {', '.join(_SEAT_COLUMNS)} FROM {{held}} WHERE game_id IN ({_marks(chunk)}) "
                                  "ORDER BY game_id, seat", chunk):
                out.setdefault(row[0], []).append(row[1:])
        return out

    def put_seats(self, contributions: Sequence[tuple[str, Sequence[Seat]]]) -> None:
        """Replace the contribution of each of these games (held: ``recount`` says which count)."""
        for chunk in _chunks([game_id for game_id, _ in contributions]):
            self._run(f"DELETE FROM {{held}} WHERE game_id IN ({_marks(chunk)})", chunk)
            self._run(f"DELETE FROM {{results}} WHERE game_id IN ({_marks(chunk)})", chunk)
        rows = [seat_row(game_id, s) for game_id, seats in contributions for s in seats]
        if rows:
            self.cursor.executemany(
                self.view.sql(f"INSERT INTO {{held}} ({', '.join(_SEAT_COLUMNS)}) VALUES ({_marks(_SEAT_COLUMNS)})"),
                rows,
            )

    def set_name(self, game_id: str, name: str) -> None:
        self._run("UPDATE {games} SET name = ? WHERE game_id = ?", (name, game_id))

    def set_tags(self, game_id: str, tags: Iterable[str]) -> None:
        self._run("DELETE FROM {tags} WHERE game_id = ?", (game_id,))
        unique = list(dict.fromkeys(tags))
        if unique:
            self.cursor.executemany(self.view.sql("INSERT INTO {tags} (game_id, tag) VALUES (?, ?)"),
                                    [(game_id, t) for t in unique])

    def first_finished(self, keys: Iterable[str]) -> int | None:
        """The earliest ``finished`` of the games any of these spellings played."""
        found: list[int] = []
        for chunk in _chunks(list(keys)):
            rows = self._rows("SELECT MIN(g.finished) FROM {results} r JOIN {games} g ON g.game_id = r.game_id "
                              f"WHERE r.spelling_key IN ({_marks(chunk)})", chunk)
            found += [first for first, in rows if first is not None]
        return min(found, default=None)

    # -- aliases

    def aliases(self) -> dict[str, tuple[str, str, str]]:
        """The alias map as recorded: alias key -> (person key, the person as written, the alias as written)."""
        return {a: (p, shown, alias) for a, alias, p, shown in
                self._rows("SELECT alias_key, alias, person_key, person FROM {aliases}")}

    def set_alias(self, alias: str, person: str | None) -> None:
        """Record that ``alias`` is ``person`` (``None``: withdraw the alias)."""
        self._run("DELETE FROM {aliases} WHERE alias_key = ?", (person_key(alias),))
        if person is not None:
            self._run("INSERT INTO {aliases} (alias_key, alias, person_key, person) VALUES (?, ?, ?, ?)",
                      (person_key(alias), alias, person_key(person), person))

    def spelling_keys(self) -> list[str]:
        return [k for (k,) in self._rows("SELECT DISTINCT spelling_key FROM {results}")]

    # -- what the reports read: sums and small sets, never every row of the archive

    def spellings(self) -> list[tuple[str, str, int, int]]:
        """Each spelling of a finished game's seat: key, spelling, how many seats, the first ``finished`` it appears in."""
        return self._rows("SELECT r.spelling_key, r.spelling, COUNT(*), MIN(g.finished) FROM {results} r "
                          "JOIN {games} g ON g.game_id = r.game_id GROUP BY r.spelling_key, r.spelling")

    def doubled(self, together: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
        """``(game id, name)`` of the games where one spelling key, or two keys of one of these groups, hold two seats."""
        found = {g for (g,) in self._rows("SELECT game_id FROM {results} GROUP BY game_id, spelling_key HAVING COUNT(*) > 1")}
        for keys in together:
            for chunk in _chunks(list(keys)):
                found.update(g for (g,) in self._rows(
                    f"SELECT game_id FROM {{results}} WHERE spelling_key IN ({_marks(chunk)}) GROUP BY game_id "
                    "HAVING COUNT(*) > 1", chunk))
        names = self.names(sorted(found))
        return sorted(names.items(), key=lambda gn: gn[1])

    def names(self, game_ids: Sequence[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for chunk in _chunks(list(game_ids)):
            out.update(self._rows(f"SELECT game_id, name FROM {{games}} WHERE game_id IN ({_marks(chunk)})", chunk))
        return out

    def tallies(self, tag: str | None, leave_out: Sequence[str] = ()) -> list[tuple[Any, ...]]:
        """Per spelling key, over the finished games (of a tag) but these: games, wins, shared wins, points, best,
        sum of places, then the points of each source."""
        sums = ", ".join(f"SUM(r.{c})" for c in _SOURCE_COLUMNS)
        sql = ("SELECT r.spelling_key, COUNT(*), SUM(CASE WHEN r.place = 1 THEN 1 ELSE 0 END), "
               "SUM(CASE WHEN r.place = 1 AND r.shared = 1 THEN 1 ELSE 0 END), SUM(r.total), MAX(r.total), SUM(r.place), "
               f"{sums} FROM {{results}} r")
        params: list[Any] = []
        if tag is not None:
            sql += " JOIN {tags} t ON t.game_id = r.game_id AND t.tag = ?"
            params.append(tag)
        if leave_out:
            sql += f" WHERE r.game_id NOT IN ({_marks(leave_out)})"
            params += list(leave_out)
        return self._rows(sql + " GROUP BY r.spelling_key", params)

    def games_counted(self, tag: str | None, leave_out: Sequence[str] = ()) -> int:
        sql, params = "SELECT COUNT(*) FROM {games} g", []
        if tag is not None:
            sql += " JOIN {tags} t ON t.game_id = g.game_id AND t.tag = ?"
            params.append(tag)
        sql += " WHERE g.game_id IN (SELECT game_id FROM {results})"
        if leave_out:
            sql += f" AND g.game_id NOT IN ({_marks(leave_out)})"
            params += list(leave_out)
        return self._rows(sql, params)[0][0]

    def seats_with(self, keys: Sequence[str], tag: str | None) -> list[tuple[Any, ...]]:
        """Every seat of the finished games (of a tag) in which one of these spelling keys played, with the game's
        name and ``finished``, in finishing order."""
        columns = ", ".join(f"r.{c}" for c in _SEAT_COLUMNS)
        sql = f"SELECT {columns}, g.name, g.finished FROM {{results}} r JOIN {{games}} g ON g.game_id = r.game_id"
        params: list[Any] = []
        if tag is not None:
            sql += " JOIN {tags} t ON t.game_id = r.game_id AND t.tag = ?"
            params.append(tag)
        sql += (f" WHERE r.game_id IN (SELECT game_id FROM {{results}} WHERE spelling_key IN ({_marks(keys)})) "
                "ORDER BY g.finished, r.seat")
        return self._rows(sql, [*params, *keys])

    def left_out(self) -> list[tuple[str, str, str | None]]:
        """Games the league does not count although they exist: damaged ones (name, status, why)."""
        return self._rows("SELECT name, status, problem FROM {games} WHERE status = ? ORDER BY name", (DAMAGED,))

    def counts(self) -> dict[str, int]:
        rows = self._rows("SELECT status, fork, COUNT(*) FROM {games} GROUP BY status, fork")
        out: dict[str, int] = {}
        for status, fork, n in rows:
            key = "forks" if fork and status == OVER else status
            out[key] = out.get(key, 0) + n
        return out

    def tag_names(self) -> list[tuple[str, int]]:
        """Every tag with the number of finished games that carry it."""
        return self._rows("SELECT t.tag, COUNT(*) FROM {tags} t JOIN {games} g ON g.game_id = t.game_id "
                          "WHERE g.status = 'over' AND g.fork = 0 GROUP BY t.tag ORDER BY t.tag")

    # -- ratings

    def placings(self, start: int, tag: str | None = None) -> list[tuple[int, str, str, int]]:
        """``(finished, game id, spelling key, place)`` of every seat of the games (of a tag) finished at or after
        ``start``."""
        season, params = ("", [start]) if tag is None else (" JOIN {tags} t ON t.game_id = g.game_id AND t.tag = ?", [tag, start])
        return self._rows("SELECT g.finished, g.game_id, r.spelling_key, r.place FROM {results} r JOIN {games} g "
                          f"ON g.game_id = r.game_id{season} WHERE g.finished >= ? ORDER BY g.finished, r.seat", params)

    def drop_ratings(self, start: int) -> None:
        self._run("DELETE FROM {ratings} WHERE finished >= ?", (start,))

    def ratings_before(self, person_keys: Sequence[str], start: int) -> dict[str, tuple[float, float]]:
        """Each person's latest ``(mu, sigma)`` from a game finished before ``start`` (if any)."""
        out: dict[str, tuple[float, float]] = {}
        for chunk in _chunks(list(person_keys)):
            for person, mu, sigma in self._rows(
                    "SELECT r.person_key, r.mu, r.sigma FROM {ratings} r JOIN (SELECT person_key, MAX(finished) AS latest "
                    f"FROM {{ratings}} WHERE finished < ? AND person_key IN ({_marks(chunk)}) GROUP BY person_key) m "
                    "ON r.person_key = m.person_key AND r.finished = m.latest", [start, *chunk]):
                out[person] = (mu, sigma)
        return out

    def put_ratings(self, rows: Sequence[tuple[int, str, str, float, float]]) -> None:
        """``(finished, person key, game id, mu, sigma)`` rows."""
        if rows:
            self.cursor.executemany(
                self.view.sql("INSERT INTO {ratings} (finished, person_key, game_id, mu, sigma) VALUES (?, ?, ?, ?, ?)"),
                rows,
            )

    def recent_ratings(self, last: int) -> list[tuple[str, int, int, float, float]]:
        """Per person, the ``last`` latest ratings: person key, how many games rated in all, finished, mu, sigma."""
        return self._rows(
            "SELECT person_key, n, finished, mu, sigma FROM (SELECT person_key, finished, mu, sigma, "
            "ROW_NUMBER() OVER (PARTITION BY person_key ORDER BY finished DESC) AS k, "
            "COUNT(*) OVER (PARTITION BY person_key) AS n FROM {ratings}) recent WHERE k <= ? "
            "ORDER BY person_key, finished", (last,))

    # -- for tests and checks: everything, in a stable order

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        order = {"games": "game_id", "results": "game_id, seat", "tags": "game_id, tag", "aliases": "alias_key",
                 "ratings": "finished, person_key", "held": "game_id, seat", "counting": "game_id"}
        out = {t: self._rows(f"SELECT * FROM {{{t}}} ORDER BY {order[t]}") for t in TABLES}
        out["position"] = [(self.position(),)]
        return out


def seat_row(game_id: str, s: Seat) -> tuple[Any, ...]:
    return (game_id, s.seat, s.spelling, s.key, s.place, int(s.shared), s.total, *s.sources, s.resources_left,
            orjson.dumps(dict(s.facts), option=orjson.OPT_SORT_KEYS).decode())


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


def _chunks(values: list[str], size: int = 500) -> Iterator[list[str]]:
    for k in range(0, len(values), size):
        yield values[k:k + size]


class LeagueView(TrackingRecorder, ABC):
    """The league's read models: tables in the store's database, written with their tracking."""

    names: dict[str, str]
    """Each table's name as SQL writes it (``{games}`` ...), and ``{tracking}``."""

    def sql(self, template: str) -> str:
        """A statement with the table names filled in and the placeholders this database uses."""
        return template.format_map(self.names)

    def create_table(self) -> None:
        """Create what is missing (``create_beside_others``: also when another process creates it at once)."""
        older = not self._exists("counting") and self._exists("games")
        create_beside_others(super().create_table)  # type: ignore[misc]
        if older:  # tables from before the league counted each record once: built again from the record
            with self.writing() as tables:
                tables.clear()

    @abstractmethod
    def _exists(self, table: str) -> bool:
        """Whether one of the league's tables is there."""

    @abstractmethod
    @contextmanager
    def writing(self) -> Iterator[Tables]:
        """One transaction that no other league writer runs at the same time; committed if no error."""

    @abstractmethod
    @contextmanager
    def reading(self) -> Iterator[Tables]:
        """One consistent read of the tables."""


class SQLiteLeagueView(LeagueView, SQLiteTrackingRecorder):
    """The league's tables in the store's SQLite file."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        self.names = {t: f"league_{t}" for t in TABLES} | {"tracking": "tracking"}
        super().__init__(datastore, **kwargs)

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *(self.sql(s) for s in _DDL)]

    def _exists(self, table: str) -> bool:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", (self.names[table],))
            return c.fetchone() is not None

    @contextmanager
    def writing(self) -> Iterator[Tables]:
        # BEGIN IMMEDIATE takes the file's write lock first: two catch-ups never both read, then both write.
        with self.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                yield Tables(self, cursor)
                conn.commit()
            except sqlite3.IntegrityError as exc:
                conn.rollback()
                raise IntegrityError(str(exc)) from exc
            except sqlite3.Error as exc:  # "database is locked" and the like: the library's error, one line
                conn.rollback()
                raise OperationalError(str(exc)) from exc
            except BaseException:
                conn.rollback()
                raise
            finally:
                cursor.sqlite_cursor.close()

    @contextmanager
    def reading(self) -> Iterator[Tables]:
        with self.datastore.transaction(commit=False) as cursor:
            yield Tables(self, cursor)
