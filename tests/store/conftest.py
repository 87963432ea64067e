"""Fixtures of the store tests: every store test runs against the in-memory and the SQLite store."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from coimbra_events.application import GameStore
from tests.conftest import FIXTURES

GAMES = sorted((FIXTURES / "games").glob("*.json"))
INVALID = sorted(p for p in (FIXTURES / "invalid").glob("*.json") if p.name != "expected.json")
PLAYERS = [("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow")]


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """A fresh store: in memory (POPO) or in a temporary SQLite file."""
    s = GameStore(in_memory=True) if request.param == "memory" else GameStore(tmp_path / "games.sqlite")
    yield s
    s.close()


def stored_events(store: GameStore) -> int:
    """How many events the store holds, all aggregates together."""
    return store.recorder.max_notification_id() or 0
