"""How a served table learns of the entries others store (``coimbra record`` or ``act``, another server).

On PostgreSQL the store tells: the library's subscription to its notification log
(``recorder.subscribe``, LISTEN/NOTIFY underneath, as ``league follow``'s projection
runner uses) wakes the table whenever anything is stored, and the table looks then
only. SQLite has no such notification (the library's SQLite recorder has no
subscription) and an in-memory store no other writer: there the notification log's
latest position is read ten times a second (one indexed query). Either way a look
reads the game again only when its own record moved (``ServedTable.look``). On PostgreSQL, where other server
processes may serve the same table (``coimbra serve --workers``), the table also reads its seat claims once a
second (one row), and tells its pages when another process's phone claimed or let go a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import TYPE_CHECKING, Any, Protocol

from coimbra_events.store.errors import one_line

if TYPE_CHECKING:
    from coimbra_events.service import Games

log = logging.getLogger("coimbra.serve")
FOLLOW_EVERY = 0.1
"""Seconds between two looks at the store's notification log, where the store cannot tell (SQLite, memory)."""
SEATS_EVERY = 1.0
"""Seconds between two looks at the seat claims the store keeps, where another process may change them (PostgreSQL):
claims are no entries, so the store's notifications do not tell them."""
AGAIN_AFTER = 1.0
"""Seconds before following again after the store did not answer."""


class Followed(Protocol):
    """What follows the store: a served table, or the served tables of a server (``cli.live.tables``)."""

    name: str
    games: Games

    async def look(self) -> None: ...

    async def look_seats(self) -> None: ...


async def follow(table: Followed, every: float = FOLLOW_EVERY) -> None:
    """Tell entries stored by others, for as long as the server runs (a store that does not answer for a
    while, a PostgreSQL server restarting say, is one log line, and followed again a second later)."""
    while True:
        try:
            await _told(table, every)
        except Exception as exc:  # whatever the store raises: said, and tried again
            log.warning("cannot read %s from the store now: %s", table.name, one_line(exc))
            await asyncio.sleep(AGAIN_AFTER)


async def _told(table: Followed, every: float) -> None:
    """Look whenever the store says something was stored (and once at first: what was stored before it listened),
    or every ``every`` seconds where the store cannot say."""
    games = table.games
    subscription = await asyncio.to_thread(lambda: games.subscription(games.position()))
    if subscription is None:
        while True:
            await table.look()
            await asyncio.sleep(every)
    loop = asyncio.get_running_loop()
    listener, seats_due = Listener(subscription, loop), loop.time() + SEATS_EVERY
    try:
        await table.look()
        while True:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for may swallow a cancel (the server stopping) that
            # lands as the awaited event is set, and the follower then ran on for ever (a test hung in CI so).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, seats_due - loop.time())):
                    await listener.woken.wait()
            listener.check()
            if listener.woken.is_set():
                listener.woken.clear()
                await table.look()
            if loop.time() >= seats_due:
                await table.look_seats()
                seats_due = loop.time() + SEATS_EVERY
    finally:
        await asyncio.to_thread(listener.close)


class Listener:
    """The library's subscription to the store's notification log (``Games.subscription``), iterated in a thread of its own
    (each ``next`` blocks until something is stored): every notification sets ``woken`` on the event loop, so
    a batch of them wakes the table once."""

    def __init__(self, subscription: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.woken = asyncio.Event()
        self._loop = loop
        self._error: Exception | None = None
        self._ended = False
        self._subscription = subscription
        self._thread = threading.Thread(target=self._listen, name="coimbra-serve-listener", daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        try:
            with self._subscription:
                for _ in self._subscription:
                    self._loop.call_soon_threadsafe(self.woken.set)
        except Exception as exc:  # the subscription's own thread failed (the server went away): said by ``check``
            self._error = exc
        finally:
            self._ended = True
            with contextlib.suppress(RuntimeError):  # the event loop is gone: nobody is waiting any more
                self._loop.call_soon_threadsafe(self.woken.set)

    def check(self) -> None:
        """Raise what ended the subscription, if it ended."""
        if self._ended:
            raise self._error or ConnectionError("the store's notification subscription ended")

    def close(self) -> None:
        """Stop the subscription and its threads (blocks for at most a tenth of a second: the library's
        listening thread looks at its stop flag that often)."""
        self._subscription.stop()
        self._thread.join()
