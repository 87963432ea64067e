"""``coimbra serve --workers N``: N server processes on one listening socket, any of them answering any request.

uvicorn's own supervisor (``uvicorn.supervisors.Multiprocess``, what ``uvicorn --workers N`` runs) does the
process work: it spawns the processes, hands each the socket bound here (the kernel spreads the connections),
answers their health checks, starts again one that dies or stops answering, and stops them all on Ctrl-C or
SIGTERM (SIGHUP replaces them one at a time; SIGTTIN and SIGTTOU add one or take one away). A spawned
process gets its app from an import string only, so each builds its own (``app``, a factory) from what this
process puts in the environment (``WORKER``: the store, the game, the addresses): each opens the store itself,
holds the table's keys and seat claims as the store keeps them (``store.keeping``), and follows the store's
notification log (``cli.live.follow``), so an entry stored through one process is told on every other's
streams. Only a PostgreSQL store does both (``several_processes``): SQLite is one process's store.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from dataclasses import asdict, dataclass
from typing import Callable

import orjson
from starlette.applications import Starlette
from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.supervisors import Multiprocess

from cli.live.limits import Connections, GuardedH11, Limits

WORKER = "COIMBRA_SERVE_WORKER"
"""The environment variable that tells a spawned process what to serve (``Worker`` as JSON)."""
STARTUP = 60.0
"""Seconds a process may take to open the store, read the game and answer, before the links are printed anyway."""
log = logging.getLogger("coimbra.serve")


@dataclass(frozen=True)
class Worker:
    """What each process serves: the store (``db``: as given, ``None``: where games live), the game, who enters
    an input that does not say, the addresses and port the server is reached at, and the cap per address."""

    db: str | None
    game: str
    by: str
    hosts: list[str]
    port: int
    per_address: int


class WorkerH11(GuardedH11):
    """One process's HTTP/1.1 protocol (named by its import path: a spawned process builds its own), counting that
    process's connections (``app`` sets them up)."""


def app() -> Starlette:
    """The app of one process (uvicorn's factory): the game served as ``coimbra serve`` serves it, with the keys the
    store keeps. A process that cannot open the store or read the game says so in one line and exits as one that
    failed to start (the supervisor then stops, rather than start it again and again)."""
    from cli.live.server import build_app
    from cli.live.tables import ServedTables
    from coimbra_events.service import Games
    from coimbra_events.store.errors import one_line
    from projections.read_side import ReadSide

    worker = Worker(**orjson.loads(os.environ[WORKER]))
    WorkerH11.counted = Connections(Limits(per_address=worker.per_address))
    try:
        games = Games.at(worker.db, views=ReadSide())
        tables = ServedTables(games, worker.by)
        tables.serve(worker.game)
    except Exception as exc:  # whatever keeps it from serving: one line, and the supervisor stops
        log.error("a server process cannot serve %s: %s", worker.game, one_line(exc))
        sys.exit(STARTUP_FAILURE)
    return build_app(tables, worker.hosts, worker.port)


class Supervisor(Multiprocess):
    """uvicorn's supervisor, which calls ``ready`` once every process answers (``started``: whether they did)."""

    def __init__(self, config: Config, sockets: list[socket.socket], ready: Callable[[], None]) -> None:
        super().__init__(config, sockets)
        self.ready, self.started = ready, False

    def init_processes(self) -> None:
        super().init_processes()
        self.started = all(p.wait_until_ready(STARTUP, self.should_exit) for p in self.processes)
        if self.started:
            self.ready()


def serve_workers(worker: Worker, count: int, sock: socket.socket, ready: Callable[[], None]) -> bool:
    """Serve ``worker`` from ``count`` processes on ``sock`` until Ctrl-C (or SIGTERM); ``ready`` is called once
    they all answer. Whether they did (``False``: one could not start, and said why)."""
    from cli.live.server import UVICORN

    os.environ[WORKER] = orjson.dumps(asdict(worker)).decode()
    config = Config(f"{__name__}:app", factory=True, workers=count, http=f"{__name__}:WorkerH11", **UVICORN)
    supervisor = Supervisor(config, [sock], ready)
    supervisor.run()
    return supervisor.started
