"""Fresh stores for examples and benchmarks: a SQLite file in a temporary folder, a PostgreSQL schema of its own."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping
from uuid import uuid4

from coimbra_events.store.game_store import GameStore


@contextmanager
def sqlite_store() -> Iterator[GameStore]:
    """A store in a SQLite file that is deleted afterwards."""
    with tempfile.TemporaryDirectory(prefix="coimbra-league-") as folder:
        store = GameStore(Path(folder) / "club.sqlite")
        try:
            yield store
        finally:
            store.close()


@contextmanager
def postgres_store(settings: Mapping[str, str], conn: Any = None, **extra: str) -> Iterator[GameStore]:
    """A store in a new schema of the server ``settings`` name (``tests/store/conftest.py``), dropped afterwards."""
    import psycopg
    from psycopg import sql

    own = conn is None
    if own:
        conn = psycopg.connect(host=settings["POSTGRES_HOST"], port=settings["POSTGRES_PORT"], user=settings["POSTGRES_USER"],
                               password=settings["POSTGRES_PASSWORD"], dbname=settings["POSTGRES_DBNAME"], autocommit=True)
    schema = f"coimbra_test_{uuid4().hex[:12]}"
    conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    store = GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.postgres", **settings, "POSTGRES_SCHEMA": schema, **extra})
    try:
        yield store
    finally:
        store.close()
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
        if own:
            conn.close()
