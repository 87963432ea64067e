"""Fixtures of the store tests: every store test runs against each store: memory, SQLite and PostgreSQL.

``memory`` (POPO) and ``sqlite`` (a file in ``tmp_path``) always run. ``postgres`` runs against
a real PostgreSQL server, found in the environment in this order:

1. ``COIMBRA_TEST_POSTGRES``: a libpq connection string, either ``key=value`` pairs
   (``host=127.0.0.1 port=54329 dbname=coimbra_test user=coimbra password=secret``) or a URI
   (``postgresql://coimbra:secret@127.0.0.1:54329/coimbra_test``). Missing keys default as in
   libpq: host ``localhost``, port 5432, user the login name, dbname the user. ``off`` (or
   ``0``, ``no``, ``false``) turns the postgres store off, whatever else is set.
   ``scripts/ci-postgres.sh`` installs and starts such a server and prints the ``export`` line;
   ``.ci/run`` evaluates it before the README's test command.
2. else eventsourcing's own keys, as ``GameStore`` itself reads them in production:
   ``POSTGRES_DBNAME`` with ``POSTGRES_HOST``, ``POSTGRES_PORT`` (5432), ``POSTGRES_USER`` and
   ``POSTGRES_PASSWORD``.

With neither, the postgres tests are skipped with the reason shown by ``-ra``; in CI (``CI`` set
and not ``0``/``false``) they fail instead, since CI must test the store clubs and leagues use.
A server that is configured but cannot be reached, or a missing ``psycopg`` (``pip install -e
".[postgres]"``; ``.[test]`` includes it), is an error in CI and locally alike when configured.

Select them with ``-m postgres`` or leave them out with ``-m "not postgres"``.

Isolation: each postgres test gets a schema of its own, ``coimbra_test_<random hex>``, given to
the store as ``POSTGRES_SCHEMA``; the library creates its tables there, and the schema is dropped
with everything in it when the test ends. Nothing outside it is touched, so any database whose
user may create schemas (its owner may) can be used.
"""

from __future__ import annotations

import getpass
import os
from pathlib import Path
from typing import Any, Iterator, Mapping
from uuid import uuid4

import pytest

from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.conftest import FIXTURES

GAMES = sorted((FIXTURES / "games").glob("*.json"))
INVALID = sorted(p for p in (FIXTURES / "invalid").glob("*.json") if p.name != "expected.json")
PLAYERS = [("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow")]

POSTGRES_VAR = "COIMBRA_TEST_POSTGRES"
_NO = {"0", "off", "no", "false"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs against a PostgreSQL server (see tests/store/conftest.py)")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the postgres store's tests (here, not in ``params``: the marker is registered only once this file is loaded)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("store") == "postgres":
            item.add_marker("postgres")


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """CI is set, as CI services and ``.ci/run``'s caller do."""
    return environ.get("CI", "").strip().lower() not in {"", *_NO}


def postgres_source(environ: Mapping[str, str] = os.environ) -> str | None:
    """Where the postgres test settings come from: ``COIMBRA_TEST_POSTGRES``, ``POSTGRES_*`` or none."""
    raw = environ.get(POSTGRES_VAR, "").strip()
    if raw.lower() in _NO:
        return None
    if raw:
        return POSTGRES_VAR
    return "POSTGRES_*" if environ.get("POSTGRES_DBNAME") else None


def postgres_settings(source: str, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The eventsourcing ``POSTGRES_*`` settings of the test server (``psycopg`` must be importable)."""
    if source == POSTGRES_VAR:
        from psycopg.conninfo import conninfo_to_dict

        given = {k: str(v) for k, v in conninfo_to_dict(environ[POSTGRES_VAR].strip()).items()}
    else:
        keys = ("dbname", "host", "port", "user", "password")
        given = {k: environ[f"POSTGRES_{k.upper()}"] for k in keys if environ.get(f"POSTGRES_{k.upper()}")}
    user = given.get("user") or getpass.getuser()
    return {
        "POSTGRES_HOST": given.get("host") or "localhost",
        "POSTGRES_PORT": given.get("port") or "5432",
        "POSTGRES_USER": user,
        "POSTGRES_PASSWORD": given.get("password", ""),
        "POSTGRES_DBNAME": given.get("dbname") or user,
        "POSTGRES_CONNECT_TIMEOUT": given.get("connect_timeout") or "10",
    }


def _connect(settings: Mapping[str, str]) -> Any:
    import psycopg

    return psycopg.connect(
        host=settings["POSTGRES_HOST"],
        port=settings["POSTGRES_PORT"],
        user=settings["POSTGRES_USER"],
        password=settings["POSTGRES_PASSWORD"],
        dbname=settings["POSTGRES_DBNAME"],
        connect_timeout=int(settings["POSTGRES_CONNECT_TIMEOUT"]),
        autocommit=True,
    )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[tuple[dict[str, str], Any]]:
    """The test server's settings and an autocommit connection to it; skips (fails in CI) if none is set."""
    source = postgres_source()
    if source is None:
        why = (
            f"PostgreSQL store not configured: set {POSTGRES_VAR} to a libpq connection string "
            "(eval \"$(bash scripts/ci-postgres.sh)\" starts a server and prints it) or POSTGRES_DBNAME/HOST/USER/PASSWORD"
        )
        if in_ci():
            pytest.fail(f"CI must test the PostgreSQL store. {why}", pytrace=False)
        pytest.skip(why)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail(f"PostgreSQL configured by {source} but psycopg is missing: pip install -e '.[postgres]'", pytrace=False)
    settings = postgres_settings(source)
    where = "{POSTGRES_USER}@{POSTGRES_HOST}:{POSTGRES_PORT}/{POSTGRES_DBNAME}".format(**settings)
    try:
        conn = _connect(settings)
    except Exception as exc:  # any failure to connect is reported as such, never skipped
        pytest.fail(f"PostgreSQL configured by {source} ({where}) cannot be reached: {exc}", pytrace=False)
    with conn:
        yield settings, conn


@pytest.fixture
def postgres_env(postgres_server: tuple[dict[str, str], Any]) -> Iterator[dict[str, str]]:
    """Settings for one store in a schema of its own, dropped with its tables after the test."""
    from psycopg import sql

    settings, conn = postgres_server
    schema = f"coimbra_test_{uuid4().hex[:12]}"
    conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield {"PERSISTENCE_MODULE": "eventsourcing.postgres", **settings, "POSTGRES_SCHEMA": schema}
    finally:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameStore]:
    """A fresh store: in memory (POPO), in a temporary SQLite file, or in a fresh PostgreSQL schema."""
    if request.param == "memory":
        s = GameStore(in_memory=True)
    elif request.param == "sqlite":
        s = GameStore(tmp_path / "games.sqlite")
    else:
        env = request.getfixturevalue("postgres_env")
        # Production picks PostgreSQL from PERSISTENCE_MODULE in the environment (no --db, no COIMBRA_DB);
        # the connection settings go in env=, which wins over anything else in the environment.
        monkeypatch.delenv("COIMBRA_DB", raising=False)
        monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
        s = GameStore(env=env)
        assert s.location.startswith("PostgreSQL database ") and type(s.recorder).__module__ == "eventsourcing.postgres"
    yield s
    s.close()


@pytest.fixture
def games(store: GameStore) -> Games:
    """The application on the ``store`` fixture's store: the one door the tests use for every use case, as a
    front-end does (the store itself is its persistence)."""
    return Games(store)


def stored_events(store: GameStore) -> int:
    """How many events the store holds, all aggregates together."""
    return store.recorder.max_notification_id() or 0
