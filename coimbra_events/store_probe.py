"""Where the store is and whether it answers: what ``coimbra store check`` and ``coimbra store init`` report.

The probe reads the store without the library (a SQLite file opened read-only,
a short PostgreSQL connection of its own), so checking a store never creates
or changes anything, a wrong password or an unreachable server is named in one
line within seconds, and the password is never part of what is said.
"""

from __future__ import annotations

import os
import re
import sqlite3
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from coimbra_events.application import GameStore, store_env

GAMES_TOPIC = "coimbra_events.game:Game.Created"
LEAGUE_TRACKING = {"sqlite": "tracking", "postgresql": "league_tracking"}
CONNECT_TIMEOUT = 5
"""Seconds a probe waits for a PostgreSQL server."""


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


def settings_of(db: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The store's eventsourcing settings, as ``GameStore`` would read them."""
    chosen = store_env(db, environ=environ, create=False)
    if chosen:
        return chosen
    prefix = GameStore.name.upper() + "_"
    out = {k: v for k, v in environ.items() if k.startswith(("PERSISTENCE_MODULE", "POSTGRES_", "SQLITE_"))}
    out.update({k[len(prefix):]: v for k, v in environ.items() if k.startswith(prefix)})
    return out


def is_postgres(settings: Mapping[str, str]) -> bool:
    return settings.get("PERSISTENCE_MODULE", "") == "eventsourcing.postgres"


def postgres_location(settings: Mapping[str, str]) -> str:
    """``postgresql://user@host:port/dbname`` (and the schema): never the password."""
    where = "postgresql://{}@{}:{}/{}".format(settings.get("POSTGRES_USER", "?"), settings.get("POSTGRES_HOST", "?"),
                                             settings.get("POSTGRES_PORT", "5432"), settings.get("POSTGRES_DBNAME", "?"))
    schema = settings.get("POSTGRES_SCHEMA", "").strip()
    return f"{where} (schema {schema})" if schema and schema != "public" else where


def server_reason(exc: BaseException, password: str = "") -> str:
    """The server's own reason in one line: ``password authentication failed for user "club"``, ``Connection refused``."""
    text = str(exc).strip() or type(exc).__name__
    text = text.split(" failed: ")[-1] if "connection failed" in text or "connection to server" in text else text
    text = re.sub(r"^(FATAL|ERROR):\s+", "", text.splitlines()[0].strip())
    return text.replace(password, "***") if password else text


@contextmanager
def postgres_connection(settings: Mapping[str, str]) -> Iterator[Any]:
    """A short-lived autocommit connection of its own; ``StoreUnreachable`` with the server's reason."""
    try:
        import psycopg
    except ImportError:
        raise StoreUnreachable("PostgreSQL needs psycopg: pip install 'coimbra[postgres]'") from None
    password = settings.get("POSTGRES_PASSWORD", "")
    try:
        conn = psycopg.connect(host=settings.get("POSTGRES_HOST"), port=settings.get("POSTGRES_PORT") or "5432",
                               dbname=settings.get("POSTGRES_DBNAME"), user=settings.get("POSTGRES_USER"),
                               password=password, connect_timeout=CONNECT_TIMEOUT, autocommit=True)
    except psycopg.Error as exc:
        raise StoreUnreachable(f"{postgres_location(settings)}: {server_reason(exc, password)}") from None
    try:
        yield conn
    except psycopg.Error as exc:
        raise StoreUnreachable(f"{postgres_location(settings)}: {server_reason(exc, password)}") from None
    finally:
        conn.close()


def probe(db: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ) -> StoreReport:
    """Find the store, ask it its size and how far the league got; ``StoreUnreachable`` if it cannot."""
    settings = settings_of(db, environ)
    if is_postgres(settings):
        return _probe_postgres(settings)
    return _probe_sqlite(Path(settings["SQLITE_DBNAME"]))


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


def _probe_postgres(settings: Mapping[str, str]) -> StoreReport:
    from psycopg import sql

    where = postgres_location(settings)
    schema = settings.get("POSTGRES_SCHEMA", "").strip() or "public"
    events_table = sql.Identifier(schema, f"{GameStore.name}_events")
    with postgres_connection(settings) as conn:
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
    return StoreReport("postgresql", where, games, events, league)


@contextmanager
def init_lock(settings: Mapping[str, str]) -> Iterator[None]:
    """While held, no other ``store init`` of this store runs (PostgreSQL: an advisory lock; SQLite: nothing needed)."""
    if not is_postgres(settings):
        yield
        return
    schema = settings.get("POSTGRES_SCHEMA", "").strip() or "public"
    with postgres_connection(settings) as conn:
        from psycopg import sql

        if not conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone():
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"{schema}.coimbra:init",))
        yield
