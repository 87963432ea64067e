"""A server of many tables looks, after an entry stored anywhere, only at the tables whose games the notification
log names (``ServedTables.look``): a look costs the entries stored, not the tables served (docs/serve.md, "A thousand
tables, on paper")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cli.live.access import Keys
from cli.live.tables import ServedTables
from coimbra_events import log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.live.conftest import SETUP_ENTRIES, fixture_log

NAMES = ("table-1", "table-2", "table-3")


def test_only_the_table_stored_to_is_read_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    games = Games(GameStore(in_memory=True))
    log = tmp_path / "table.json"
    log.write_bytes(fixture_log(SETUP_ENTRIES))
    for name in NAMES:
        games.import_log(log_reader.read(log), name, copy=True)
    tables = ServedTables(games, "club", Keys(games.organiser_key()), "club-night")
    tables.serve_every()
    read: list[str] = []
    refreshed = games.refreshed
    monkeypatch.setattr(games, "refreshed", lambda session: read.append(session.ref) or refreshed(session))

    async def looks() -> list[list[str]]:
        seen = []
        for name in (None, "table-2", "table-3"):
            if name is not None:
                games.note(name, 1, "a word", by="club")
            read.clear()
            await tables.look()
            seen.append(sorted(read))
        return seen

    first, second, third = asyncio.run(looks())
    assert first == []  # the first look names every table, each as it was just read: none reads it again
    assert second == ["table-2"] and third == ["table-3"]
    assert len(tables.served["table-2"].table.entries) == len(tables.served["table-1"].table.entries) + 1
