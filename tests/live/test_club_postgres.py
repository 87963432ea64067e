"""A server of every table on PostgreSQL follows the store for every table: a seat claimed through another server
process (``coimbra serve GAME`` beside it, say) is told on the table's streams (``ServedTables.look_seats``, which
``cli.live.follow`` asks for once a second there)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from cli.live.access import Keys
from cli.live.follow import SEATS_EVERY, follow
from cli.live.tables import ServedTables
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.store.conftest import postgres_env, postgres_server  # noqa: F401  (fixtures)


def test_a_seat_claimed_through_another_process_is_told_at_its_table(postgres_env: dict[str, str], tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COIMBRA_DB", raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    stores = [GameStore(env=postgres_env), GameStore(env=postgres_env)]
    games, other = Games(stores[0]), Games(stores[1])
    games.new_game([("Ana", "red"), ("Bruno", "blue")], name="table-1")
    tables = ServedTables(games, "club", Keys(games.organiser_key()), "club-night")
    tables.serve_every()

    async def told() -> int:
        following = asyncio.create_task(follow(tables))
        await asyncio.sleep(SEATS_EVERY * 1.5)
        seen = tables.served["table-1"].table.seat_changes
        await asyncio.to_thread(lambda: other.phone("table-1", "phone-of-ana-0000").claim("Ana"))
        await asyncio.sleep(SEATS_EVERY * 2.5)
        following.cancel()
        return tables.served["table-1"].table.seat_changes - seen

    try:
        with caplog.at_level(logging.WARNING, logger="coimbra.serve"):
            assert asyncio.run(told()) == 1
        assert "cannot read" not in caplog.text, caplog.text
    finally:
        for store in stores:
            store.close()
