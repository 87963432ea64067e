"""Connections a client may hold: a deadline for a request's headers, a cap per address, and one for all.

uvicorn bounds the size of a request's headers (``h11_max_incomplete_event_size``) and how long an idle
kept-alive connection stays (``timeout_keep_alive``), but not how long a request's headers may take to arrive,
nor how many connections one address holds: a client that opens hundreds of connections and never finishes a
request holds every file the process may open, and each connection accepted after that fails (with a
traceback from asyncio, hundreds a second). So uvicorn's own HTTP/1.1 protocol (h11's: ``httptools`` is not
installed, and the choice is pinned so that installing it changes nothing) is subclassed here: a connection
whose request's headers are not complete ``HEADER_DEADLINE`` seconds after it opened (or after its previous
answer) is closed, and one over ``PER_ADDRESS`` open from its address, or over all the connections the
process's files allow, is closed as soon as it is made; all quietly (nothing logged: a flood is not news).

A table's phones each have an address of their own on the club's network (a browser opens at most six
connections to a server), so the cap per address holds loopback too: one attacker's address never takes
another's connections.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_DEADLINE = 10.0
"""Seconds a connection may take to send a request's headers (from when it opened, or its previous answer)."""
PER_ADDRESS = 64
"""Connections open at once from one address: a phone's browser opens at most six to a server, and the pages of a
test or a benchmark on one computer (one address) about four each."""
RESERVED_FILES = 64
"""Files the process keeps for itself beyond its connections (the store, the pages' files, its threads)."""
WANTED_FILES = 4096
"""Files the process asks to be allowed (up to the system's hard limit: macOS allows 256 by default)."""


def files_allowed(wanted: int = WANTED_FILES) -> int:
    """The files this process may open, raised to ``wanted`` where the system allows it."""
    try:
        import resource
    except ImportError:  # no such limit to read or raise here
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < raised:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):  # not allowed here: the limit stays as it was
            pass
    return wanted if soft == resource.RLIM_INFINITY else soft


def _connections_allowed() -> int:
    return max(1, files_allowed() - RESERVED_FILES)


@dataclass(frozen=True)
class Limits:
    """The limits of one server's connections (the defaults above; a test may shorten them)."""

    header_deadline: float = HEADER_DEADLINE
    per_address: int = PER_ADDRESS
    connections: int = field(default_factory=_connections_allowed)
    """Connections open at once from every address: the files the process may open (raised first to
    ``WANTED_FILES`` where the system allows), less ``RESERVED_FILES``."""


class Connections:
    """The connections open now, by address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: Counter[str] = Counter()
        self.total = 0

    def take(self, address: str) -> bool:
        """Count a new connection from ``address``, unless it is one too many (then ``False``)."""
        if self.total >= self.limits.connections or self.open[address] >= self.limits.per_address:
            return False
        self.open[address] += 1
        self.total += 1
        return True

    def release(self, address: str) -> None:
        self.total -= 1
        self.open[address] -= 1
        if not self.open[address]:
            del self.open[address]


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with the limits of ``Connections`` (``protocol`` makes one per server)."""

    counted: ClassVar[Connections]
    _address: str | None = None
    """The address this connection is counted for (``None``: not counted, it was refused)."""
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if not self.counted.take(address):
            transport.close()
            return
        self._address = address
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._address is not None:
            self.counted.release(self._address)
            self._address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the request's headers are all here
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:  # waiting for the next request
            self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.counted.limits.header_deadline, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The request's headers did not come in time: the connection is closed (nothing was asked, nothing is
        answered)."""
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def protocol(limits: Limits) -> type[GuardedH11]:
    """uvicorn's HTTP/1.1 protocol for one server (``uvicorn.Config(http=...)``), counting its connections."""
    return type("ServedH11", (GuardedH11,), {"counted": Connections(limits)})
