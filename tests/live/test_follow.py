"""A served table learns of entries others store (``cli.live.follow``): on PostgreSQL the store tells it.

The served table and another writer on real PostgreSQL, in-process (``tests/live/test_api_serve_command.py``
runs the installed ``serve`` and ``act`` on PostgreSQL): while nothing is stored the table does not look
at the store's notification log at all, and an entry another writer stores reaches it at once.
"""

from __future__ import annotations

import asyncio
import time

from cli.live import follow as follow_module
from cli.live.follow import FOLLOW_EVERY, follow
from cli.live.table import ServedTable
from coimbra_events.service import Games, Stored
from coimbra_events.store.game_store import GameStore
from projections.read_side import ReadSide
from tests.store.conftest import PLAYERS, postgres_env, postgres_server  # noqa: F401  (fixtures)

QUIET = 1.5
"""Seconds nothing is stored: a table that polled would look 1.5 / ``FOLLOW_EVERY`` = 15 times."""


def test_on_postgresql_the_store_tells_the_table_and_it_does_not_poll(postgres_env, monkeypatch) -> None:
    monkeypatch.delenv("COIMBRA_DB", raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    served, other = GameStore(env=postgres_env), GameStore(env=postgres_env)
    try:
        games = Games(lambda: served, ReadSide())
        name = games.new_game(PLAYERS, name="evening", seed=3).name
        table = ServedTable(games, name)
        told = len(table.load().events)
        looks = []
        where = served.recorder.max_notification_id
        monkeypatch.setattr(served.recorder, "max_notification_id", lambda: looks.append(1) or where())
        writer = Games(lambda: other)

        async def main() -> float:
            follower = asyncio.create_task(follow(table))
            try:
                await asyncio.sleep(QUIET)
                assert len(looks) <= 2, f"{len(looks)} looks at the log in {QUIET} s of quiet"  # subscribing, one look
                decision = writer.legal(name).decisions[0]
                stored = await asyncio.to_thread(writer.record, name, [decision])
                assert isinstance(stored, Stored)
                start = time.monotonic()
                await asyncio.wait_for(table.wait(told), timeout=10)
                return time.monotonic() - start
            finally:
                follower.cancel()
                await asyncio.gather(follower, return_exceptions=True)

        took = asyncio.run(main())
        assert table.entries[-1]["head"] == other.get(name).head
        assert took < 1.0, f"the entry reached the table {took:.2f} s after it was stored"
    finally:
        served.close()
        other.close()


def test_polling_is_what_sqlite_gets(tmp_path, monkeypatch) -> None:
    """The counterpart: SQLite cannot tell, so the table looks ``1 / FOLLOW_EVERY`` times a second."""
    store = GameStore(tmp_path / "games.sqlite")
    try:
        games = Games(lambda: store, ReadSide())
        table = ServedTable(games, games.new_game(PLAYERS, name="evening", seed=3).name)
        table.load()
        looks = []
        where = store.recorder.max_notification_id
        monkeypatch.setattr(store.recorder, "max_notification_id", lambda: looks.append(1) or where())

        async def main() -> None:
            follower = asyncio.create_task(follow(table))
            await asyncio.sleep(10 * FOLLOW_EVERY)
            follower.cancel()
            await asyncio.gather(follower, return_exceptions=True)

        asyncio.run(main())
        assert len(looks) >= 3
    finally:
        store.close()


def test_a_follower_stopped_as_the_store_tells_it_stops(postgres_env, monkeypatch) -> None:
    """The server's stop (a cancel) landing in the very turn the store's notification wakes the follower ends it:
    Python 3.11's ``asyncio.wait_for`` returned the wake-up and dropped the cancel there, and the follower ran on
    for ever (a CI run hung so, in the test above)."""
    monkeypatch.delenv("COIMBRA_DB", raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    served = GameStore(env=postgres_env)
    listeners: list[follow_module.Listener] = []

    class Kept(follow_module.Listener):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)
            listeners.append(self)

    monkeypatch.setattr(follow_module, "Listener", Kept)
    try:
        games = Games(lambda: served, ReadSide())
        table = ServedTable(games, games.new_game(PLAYERS, name="evening", seed=3).name)
        table.load()

        async def main() -> bool:
            follower = asyncio.create_task(follow(table))
            while not listeners:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)  # the follower waits for the store's word
            listeners[0].woken.set()  # the word and the stop in one turn of the loop
            follower.cancel()
            done, _ = await asyncio.wait({follower}, timeout=5)
            follower.cancel()
            return bool(done)

        assert asyncio.run(main()), "the follower ran on after it was stopped"
    finally:
        served.close()
