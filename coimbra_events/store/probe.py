"""Where the store is and whether it answers: what ``coimbra store check`` reports.

The probe reads the store without the library (a SQLite file opened read-only,
a short PostgreSQL connection of its own through ``postgres_store.connect``), so
checking a store never creates or changes anything, a wrong password or an
unreachable server is named in one line within seconds (the server's reason, as
every command says it), and the password is never part of what is said.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Mapping

from eventsourcing.utils import Environment

from coimbra_events.store import postgres as postgres_store
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.location import describe_store, store_env

GAMES_TOPIC = "coimbra_events.game:Game.Created"
LEAGUE_TRACKING = {"sqlite": "tracking", "postgresql": "league_tracking"}
CONNECT_TIMEOUT = 5
"""Seconds a probe waits for a SQLite file's lock."""


class StoreUnreachable(OSError):
    """The store is not there, does not answer, or is not a coimbra store (the message says which)."""


@dataclass(frozen=True)
class StoreReport:
    """What a probe found."""

    kind: str
    location: str
    games: int
    events: int
    league: int | None
    """The last event the league's tables reflect (``None``: never built)."""

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "answers": True,
                "league_behind": None if self.league is None else self.events - self.league}


def environment_of(db: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ) -> Environment:
    """The store's settings as ``GameStore(db)`` reads them (prefixed keys first), without creating any folder."""
    return Environment(GameStore.name, {**environ, **store_env(db, environ=environ, create=False)})


def probe(db: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ) -> StoreReport:
    """Find the store, ask it its size and how far the league got; ``StoreUnreachable`` if it cannot."""
    env = environment_of(db, environ)
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        return _probe_postgres(env)
    if env.get("PERSISTENCE_MODULE") not in (None, "", "eventsourcing.sqlite"):
        raise StoreUnreachable(f"{describe_store(env)}: coimbra can check a SQLite or PostgreSQL store only")
    return _probe_sqlite(Path(env.get("SQLITE_DBNAME") or ""))


def _probe_sqlite(path: Path) -> StoreReport:
    where = str(path)
    if not path.is_file():
        raise StoreUnreachable(f"{where}: no store there yet (coimbra store init creates one)")
    try:
        conn = sqlite3.connect(f"file:{path.as_posix()}?mode=ro", uri=True, timeout=CONNECT_TIMEOUT)
    except sqlite3.Error as exc:
        raise StoreUnreachable(f"{where}: {exc}") from None
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "stored_events" not in tables:
            raise StoreUnreachable(f"{where}: a SQLite file, but not a coimbra store (no stored events)")
        events = conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM stored_events").fetchone()[0]
        games = conn.execute("SELECT COUNT(*) FROM stored_events WHERE topic = ?", (GAMES_TOPIC,)).fetchone()[0]
        league = None
        if LEAGUE_TRACKING["sqlite"] in tables and "league_games" in tables:
            row = conn.execute("SELECT MAX(notification_id) FROM tracking WHERE application_name = ?",
                               (GameStore.name,)).fetchone()
            league = row[0] if row else None
    except sqlite3.Error as exc:
        raise StoreUnreachable(f"{where}: {exc}") from None
    finally:
        conn.close()
    return StoreReport("sqlite", where, games, events, league)


def _probe_postgres(env: Environment) -> StoreReport:
    from psycopg import Error, sql

    config = postgres_store.settings(env)
    where = postgres_store.where(config)
    schema = config["schema"].strip() or "public"
    events_table = sql.Identifier(schema, f"{GameStore.name}_events")
    try:
        conn = postgres_store.connect(config)
    except postgres_store.StoreUnavailable as exc:
        raise StoreUnreachable(f"{where}: {exc}") from None
    try:
        found = {name for (name,) in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,))}
        if f"{GameStore.name}_events" not in found:
            raise StoreUnreachable(f"{where}: the server answers, but holds no coimbra store (coimbra store init creates one)")
        events = conn.execute(sql.SQL("SELECT COALESCE(MAX(notification_id), 0) FROM {}").format(events_table)).fetchone()[0]
        games = conn.execute(sql.SQL("SELECT COUNT(*) FROM {} WHERE topic = %s").format(events_table),
                             (GAMES_TOPIC,)).fetchone()[0]
        league = None
        if LEAGUE_TRACKING["postgresql"] in found:
            row = conn.execute(sql.SQL("SELECT MAX(notification_id) FROM {} WHERE application_name = %s").format(
                sql.Identifier(schema, LEAGUE_TRACKING["postgresql"])), (GameStore.name,)).fetchone()
            league = row[0] if row else None
    except Error as exc:
        raise StoreUnreachable(f"{where}: {postgres_store.reason(exc, config['password'])}") from None
    finally:
        conn.close()
    return StoreReport("postgresql", where, games, events, league)
