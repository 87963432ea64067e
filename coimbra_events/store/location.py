"""Where a store's games are kept, chosen by the environment.

``--db PATH`` (the ``db`` argument), else ``$COIMBRA_DB``, else an eventsourcing
configuration in the environment (``PERSISTENCE_MODULE``, for PostgreSQL say), else
a SQLite file in the user's data directory (``platformdirs``). ``--db`` and
``$COIMBRA_DB`` may also be a ``postgresql://user@host/dbname`` URL: a club's shared
store. Tests use the in-memory store (``in_memory=True``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping
from urllib.parse import parse_qs, unquote, urlsplit

from eventsourcing.utils import Environment

from coimbra_events.store import postgres as postgres_store

APP = "coimbra"
"""The store's application name: the prefix of its own settings (``COIMBRA_SQLITE_DBNAME``) and of its tables."""


def default_db_path() -> Path:
    """``games.sqlite`` in the user's data directory (``~/.local/share/coimbra`` on Linux, by ``platformdirs``)."""
    from platformdirs import user_data_path

    return user_data_path("coimbra", appauthor=False) / "games.sqlite"


def store_settings(
    db: str | os.PathLike[str] | None = None, *, in_memory: bool = False, env: Mapping[str, str] | None = None,
    create: bool = True,
) -> dict[str, str]:
    """What a ``GameStore`` is given: where it lives (``store_env``), ``env`` over it, each key also with
    the application's prefix (so a stray ``COIMBRA_SQLITE_DBNAME`` cannot override ``--db``), and, for
    PostgreSQL, a short connection timeout and a pool of one connection unless set otherwise."""
    settings = {**store_env(db, in_memory=in_memory, environ={**os.environ, **(env or {})}, create=create), **(env or {})}
    given = Environment(APP, {**os.environ, **settings})
    settings.update({key: value for key, value in postgres_store.DEFAULTS.items() if not given.get(key)})
    settings.update({f"{APP.upper()}_{k}": v for k, v in list(settings.items())})
    return settings


def describe_store(env: Mapping[str, str]) -> str:
    """Where a store's games are, as messages say it: a file, ``memory``, or a PostgreSQL database
    (an eventsourcing ``Environment``, which reads prefixed keys first)."""
    module = env.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
    if module == "eventsourcing.sqlite":
        return env.get("SQLITE_DBNAME") or "a SQLite file"
    if module == "eventsourcing.postgres":
        return postgres_store.where(postgres_store.settings(env))
    return "memory" if module == "eventsourcing.popo" else module


def where_games_live(db: str | os.PathLike[str] | None = None) -> str:
    """``describe_store`` for the store ``GameStore(db)`` would open (for a message when it cannot)."""
    try:
        settings = store_settings(db, create=False)
    except OSError:
        settings = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db or os.environ.get("COIMBRA_DB") or "")}
    return describe_store(Environment(APP, {**os.environ, **settings}))


def several_processes(db: str | os.PathLike[str] | None = None) -> bool:
    """Whether several processes may serve the store ``db`` names at once: a PostgreSQL one, which keeps the tables'
    keys and claims itself and tells each process what the others store (``coimbra serve --workers``)."""
    settings = store_settings(db, create=False)
    return Environment(APP, {**os.environ, **settings}).get("PERSISTENCE_MODULE") == "eventsourcing.postgres"


def store_env(
    db: str | os.PathLike[str] | None = None,
    *,
    in_memory: bool = False,
    environ: Mapping[str, str] = os.environ,
    create: bool = True,
) -> dict[str, str]:
    """The eventsourcing settings for a store: see the module docstring for the order of choice.

    ``create``: make the SQLite file's folder if it is missing, readable by its owner only, and the file in it
    (``owner_only``).
    """
    if in_memory:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    path = db if db is not None else environ.get("COIMBRA_DB")
    if path is not None and _POSTGRES_URL.match(str(path)):
        return postgres_url_env(str(path), environ)
    if path is None and (environ.get("PERSISTENCE_MODULE") or environ.get(f"{APP.upper()}_PERSISTENCE_MODULE")):
        return {}
    target = Path(path if path is not None else default_db_path()).expanduser()
    if create and not target.parent.exists():
        owner_only(target)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(target)}


def owner_only(target: Path) -> None:
    """Make a store's folder (0700) and its empty SQLite file (0600), readable by their owner only: a store holds
    who played whom and when. (A folder that exists already is the owner's choice: the library creates the file.)"""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.parent.chmod(0o700)
    os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))


def missing_store(db: str | os.PathLike[str] | None = None, environ: Mapping[str, str] = os.environ) -> Path | None:
    """The SQLite file the store ``db`` names, if it does not exist (a read opens no new store); ``None`` otherwise."""
    settings = store_env(db, environ=environ, create=False)
    if settings.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite":
        return None
    target = Path(settings["SQLITE_DBNAME"])
    return None if target.exists() else target


def existing_stores(environ: Mapping[str, str] = os.environ) -> list[str]:
    """The stores a person may have meant, that exist: ``$COIMBRA_DB`` and the default one."""
    found = []
    given = environ.get("COIMBRA_DB")
    if given and _POSTGRES_URL.match(given):
        found.append("$COIMBRA_DB (a PostgreSQL store)")
    elif given and Path(given).expanduser().exists():
        found.append(f"$COIMBRA_DB {given}")
    if default_db_path().exists():
        found.append(f"the default store {default_db_path()}")
    return found


_POSTGRES_URL = re.compile(r"postgres(?:ql)?:/+", re.IGNORECASE)
"""``postgresql://...``; also as a path option collapses it (``postgresql:/...``)."""


def postgres_url_env(url: str, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``postgresql://user[:password]@host[:port]/dbname[?schema=S]`` as eventsourcing settings.

    Without a password in the URL, ``$PGPASSWORD`` gives it (so it need not be typed where others can see it).
    """
    parts = urlsplit(_POSTGRES_URL.sub("postgresql://", url, count=1))
    query = parse_qs(parts.query)
    settings = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or environ.get("PGUSER", "")),
        "POSTGRES_PASSWORD": unquote(parts.password or environ.get("PGPASSWORD", "")),
        "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or unquote(parts.username or ""),
    }
    if query.get("schema"):
        settings["POSTGRES_SCHEMA"] = query["schema"][0]
    return settings
