"""A PostgreSQL game store made ready for a club: reachable, its tables made once.

``ready`` runs before the library opens its connection pool. It connects once
directly, so a wrong password, a missing database or a server that refuses is
said at once in the server's own words (the pool would wait out its timeout and
say only that it got no connection), and it makes sure the tables exist: when
they do (every use but the first), the library is told not to run its table
statements at all; when they do not, one process at a time creates them, under
a PostgreSQL advisory lock, so many first uses at once do not trip over each
other's ``CREATE``.

``psycopg`` is imported only here (``pip install -e ".[postgres]"``).
"""

from __future__ import annotations

import hashlib
import re
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Sequence

from eventsourcing.persistence import PersistenceError

from coimbra_events.store.errors import one_line

DEFAULTS = {"POSTGRES_CONNECT_TIMEOUT": "5", "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "1"}
"""Unless the environment says otherwise: seconds to wait for the server, and the connections a
command keeps (one does a command's work; the library's default pool keeps 5 per process, up to 15,
so 20 commands at once would fill a server's default of 100)."""

CREATE_LOCK = int.from_bytes(hashlib.sha256(b"coimbra: create the store's tables").digest()[:8], "big", signed=True)
"""The advisory lock that the process creating the tables holds."""


class StoreUnavailable(PersistenceError):
    """The PostgreSQL server cannot be used; the message is the server's reason, on one line."""


def settings(env: Any) -> dict[str, str]:
    """The connection settings of an eventsourcing ``Environment`` (its ``get`` reads prefixed keys first)."""
    keys = ("HOST", "PORT", "DBNAME", "USER", "PASSWORD", "CONNECT_TIMEOUT", "SCHEMA")
    return {key.lower(): env.get(f"POSTGRES_{key}") or "" for key in keys}


def where(config: Mapping[str, str]) -> str:
    """``PostgreSQL database coimbra on db.example:5432 (schema s)``: never the password."""
    schema = f" (schema {config['schema']})" if config.get("schema") else ""
    return f"PostgreSQL database {config.get('dbname') or '?'} on {config.get('host') or '?'}:{config.get('port') or 5432}{schema}"


@contextmanager
def ready(env: Any, tables: Sequence[str]) -> Iterator[dict[str, str]]:
    """Check the server, and hold the table-creating lock while the library opens the store.

    Yields settings to add to the store's environment (``CREATE_TABLE=no`` when
    every table in ``tables`` exists already). ``StoreUnavailable`` if the server
    cannot be used. Leaves everything to the library when the environment is
    incomplete (it says which key is missing) or names a password function.
    """
    config = settings(env)
    if not all(config[k] for k in ("host", "dbname", "user")) or env.get("POSTGRES_GET_PASSWORD_TOPIC"):
        yield {}
        return
    from psycopg import sql

    conn = connect(config)
    try:
        schema = config["schema"] or "public"
        told = env.get("CREATE_TABLE")
        if (told or "").lower() in {"n", "no", "f", "false", "off", "0"} or _exist(conn, schema, tables):
            yield _no_create()
            return
        conn.execute("SELECT pg_advisory_lock(%s)", (CREATE_LOCK,))
        try:
            if _exist(conn, schema, tables):
                yield _no_create()
                return
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
            yield {}
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (CREATE_LOCK,))
    finally:
        conn.close()


def _no_create() -> dict[str, str]:
    return {"CREATE_TABLE": "no", "COIMBRA_CREATE_TABLE": "no"}


def connect(config: Mapping[str, str]) -> Any:
    """A connection of its own (autocommit), within the connect timeout; ``StoreUnavailable`` with the server's reason."""
    import psycopg

    try:
        return psycopg.connect(
            host=config["host"], port=config["port"] or "5432", dbname=config["dbname"], user=config["user"],
            password=config["password"], connect_timeout=int(config["connect_timeout"] or DEFAULTS["POSTGRES_CONNECT_TIMEOUT"]),
            autocommit=True,
        )
    except ValueError:
        raise StoreUnavailable(f"POSTGRES_CONNECT_TIMEOUT must be a whole number of seconds, not {config['connect_timeout']!r}") from None
    except psycopg.Error as exc:
        raise StoreUnavailable(reason(exc, config["password"])) from None


def _exist(conn: Any, schema: str, tables: Sequence[str]) -> bool:
    found = conn.execute(
        "SELECT count(*) FROM pg_tables WHERE schemaname = %s AND tablename = ANY(%s)", (schema, list(tables))
    ).fetchone()
    return bool(found and found[0] == len(set(tables)))


def reason(exc: BaseException, password: str = "") -> str:
    """The server's reason in one line: ``password authentication failed for user "ana"``."""
    text = re.sub(r"^connection failed: ", "", one_line(exc, None))
    text = re.sub(r'connection to server (at|on) "[^"]*"( \([^)]*\))?(, port \d+)? failed: ', "", text)
    text = text.replace("FATAL: ", "")
    if password:
        text = text.replace(password, "***")
    return text or type(exc).__name__
