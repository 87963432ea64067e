"""Fixtures of the league tests: a store on SQLite and on PostgreSQL (the league needs a database of its own).

``club`` is a fresh store, in a SQLite file or in a PostgreSQL schema of its own
(``tests/store/conftest.py`` says how the server is found); ``club_env`` is the
environment a ``coimbra`` process needs to use that same store.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from coimbra_events.store.game_store import GameStore


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the league's PostgreSQL tests ``postgres`` too (``-m "not postgres"`` leaves them out)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        fixtures = getattr(item, "fixturenames", ())
        if "postgres" in params or "postgres_env" in fixtures or "postgres_server" in fixtures:
            item.add_marker("postgres")


@pytest.fixture(params=["sqlite", "postgres"])
def club_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """What a process needs in its environment to open the test's store."""
    if request.param == "sqlite":
        return {"COIMBRA_DB": str(tmp_path / "club.sqlite")}
    return dict(request.getfixturevalue("postgres_env"))  # no pool settings: a process opens the store as a command does


@pytest.fixture
def club(club_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[GameStore]:
    """A fresh store of the kind ``club_env`` names, opened in this process."""
    for key, value in club_env.items():
        monkeypatch.setenv(key, value)
    if "COIMBRA_DB" not in club_env:
        monkeypatch.delenv("COIMBRA_DB", raising=False)
    store = GameStore()
    yield store
    store.close()


def process_env(club_env: dict[str, str]) -> dict[str, str]:
    """The environment of a child process using the test's store (no stray store settings of this one)."""
    env = {k: v for k, v in os.environ.items() if k != "COIMBRA_DB" and not k.startswith(("POSTGRES_", "PERSISTENCE_"))}
    return {**env, **club_env, "NO_COLOR": "1", "COLUMNS": "200"}
