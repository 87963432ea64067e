"""A SQLite game store's file made ready before the library opens it.

The library opens every connection by asking the file's journal mode and, if it
is not WAL yet, switching it. Two processes opening one new store at once may
both switch: SQLite refuses one of them at once ("database is locked") instead
of letting it wait, since each holds a lock the other needs. And a file that is
not a SQLite database fails at that question with SQLite's own error, which the
library does not turn into one of its own. So ``ready`` switches the file first:
a refused switch is tried again, for as long as the library waits for a lock
(another process is switching or writing the same file; a later try finds it
switched or free), and a file that is not a database is named as
such (``NotAStore``), before the library sees it.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing

from eventsourcing.persistence import OperationalError, PersistenceError
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import Environment


class NotAStore(PersistenceError):
    """The file is there, but SQLite cannot read it as a database (the message is SQLite's reason)."""


def ready(env: Environment) -> None:
    """Put the store's file in WAL mode, as the library would, so that no connection of the library switches it.

    ``env``: the store's settings (its file as the library takes it, a path or a
    ``file:`` URI, and how long to wait for a lock). An in-memory database is
    left alone. ``NotAStore`` if the file is not a database; the library's
    ``OperationalError`` if it is still locked when the lock timeout is over.
    """
    db_name = env.get(SQLiteFactory.SQLITE_DBNAME) or ""
    if not db_name or SQLiteConnectionPool.detect_memory_mode(db_name):
        return
    timeout = env.get(SQLiteFactory.SQLITE_LOCK_TIMEOUT) or ""
    given = int(timeout) if timeout.strip().isdigit() else 0  # a value that is not a number: the library says so
    deadline = time.monotonic() + (given or SQLITE3_DEFAULT_LOCK_TIMEOUT)
    while True:
        try:
            _switch(db_name, max(deadline - time.monotonic(), 0.01))
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise OperationalError(str(exc)) from None
            time.sleep(0.01)
        except sqlite3.DatabaseError as exc:
            raise NotAStore(str(exc)) from None


def _switch(db_name: str, lock_timeout: float) -> None:
    with closing(sqlite3.connect(db_name, uri=True, timeout=lock_timeout, isolation_level=None)) as connection:
        (mode,) = connection.execute("PRAGMA journal_mode").fetchone()
        if mode.lower() != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
