"""A real ``coimbra serve`` on loopback, per test module: the installed command in a process of its own.

``serve(*args)`` (module-scoped factory) starts ``coimbra serve ARGS --json --host 127.0.0.1 --port 0`` on a
store of the module's own and waits for its one JSON line; every server it started is stopped with Ctrl-C
(SIGINT) at the end of the module, and must stop cleanly. ``table_game`` is a game imported from the 4-player
fixture up to its first decision (``fixture_game(k)``: up to entry k), served. Clients are httpx: ``Served.client``
(``Served.organiser``: with the organiser's token); ``stream_events`` reads an event stream.
"""

from __future__ import annotations

import os
import resource
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx
import orjson
import pytest

from tests.commands import scratch
from tests.conftest import FIXTURES, installed_coimbra

FIXTURE = FIXTURES / "games" / "standin-4p-seed3.json"
SETUP_ENTRIES = 6
"""Entries of the 4-player fixture before its first decision (the table's setup outcomes)."""


@dataclass
class Served:
    """One running ``coimbra serve``: its links and tokens (its JSON line), its store, its process."""

    line: dict[str, Any]
    db: Path
    process: subprocess.Popen
    stderr: Path
    clients: list[httpx.Client] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.line["url"]

    @property
    def game(self) -> str:
        return self.line["game"]

    @property
    def players(self) -> str:
        return self.line["players_token"]

    @property
    def watchers(self) -> str:
        return self.line["watchers_token"]

    def client(self, token: str | None = None, source: str | None = None, **kwargs: Any) -> httpx.Client:
        """An httpx client of the server, with ``token`` as its bearer; ``source``: the loopback address it
        sends from (``127.0.0.2``...), so that one address's wrong tokens do not slow another's requests."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        transport = httpx.HTTPTransport(local_address=source) if source else None
        client = httpx.Client(base_url=self.url, headers=headers, transport=transport, timeout=30, **kwargs)
        self.clients.append(client)
        return client

    def organiser(self, source: str | None = None) -> httpx.Client:
        """A client of the server of every table with the organiser's token (``source``: as ``client``'s)."""
        return self.client(self.line["organiser_token"], source)

    def api(self, path: str = "") -> str:
        """The path of the served game's API (``/api/games/NAME`` and ``path``)."""
        return f"/api/games/{self.game}{path}"

    def stop(self) -> int:
        """Ctrl-C, as at the table; the exit code."""
        for client in self.clients:
            client.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise

    def log(self) -> str:
        """What the server printed on stderr so far."""
        return self.stderr.read_text()


def stream_events(stream: httpx.Response) -> Iterator[dict[str, str]]:
    """Each event of a server-sent event stream as its fields, as sent (``id``, ``event``, ``data``), at the blank line
    that ends it: a ping's and a comment's too (a comment has none), so that a reader can time what comes."""
    fields: dict[str, str] = {}
    for line in stream.iter_lines():
        if line:
            key, _, value = line.partition(":")
            if key:
                fields[key] = value[1:] if value.startswith(" ") else value
            continue
        yield fields
        fields = {}


def environment(db: Path) -> dict[str, str]:
    """The commands' environment: the store ``db``, and a catalogs folder and a data folder beside it (never the
    user's: a table on a PostgreSQL store keeps its links in the data folder)."""
    return {**os.environ, "NO_COLOR": "1", "COIMBRA_DB": str(db), "COIMBRA_CATALOGS": str(db.parent / "catalogs"),
            "XDG_DATA_HOME": str(db.parent / "data")}


def coimbra(db: Path, *args: str) -> subprocess.CompletedProcess:
    """The installed command on the store ``db``."""
    return subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=120, env=environment(db))


def start(db: Path, *args: str, folder: Path, files: int | None = None) -> Served:
    """``coimbra serve ARGS --json --host 127.0.0.1 --port 0`` on ``db`` (ARGS may name the port), once it answers;
    ``files``: the most files its process may open (its soft and hard limit), else this process's limit."""
    stderr = folder / f"serve-{time.monotonic_ns()}.log"
    port = () if "--port" in args else ("--port", "0")
    limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))) if files else None
    process = subprocess.Popen([installed_coimbra(), "serve", *args, "--json", "--host", "127.0.0.1", *port],
                               stdout=subprocess.PIPE, stderr=stderr.open("w"), env=environment(db), preexec_fn=limit)
    ready, _, _ = select.select([process.stdout], [], [], 60)
    line = process.stdout.readline() if ready else b""
    if not line:
        process.kill()
        pytest.fail(f"coimbra serve did not start: {stderr.read_text()}")
    return Served(orjson.loads(line), db, process, stderr)


def fixture_log(entries: int) -> bytes:
    """The 4-player fixture's log cut after ``entries`` entries (a prefix of a hash chain is one too)."""
    log = orjson.loads(FIXTURE.read_bytes())
    log["events"] = log["events"][:entries]
    return orjson.dumps(log)


def fixture_inputs() -> list[str]:
    """Every entry of the 4-player fixture in notation, as a device would send it."""
    from coimbra_events import log_reader
    from projections.naming import notation_text

    return [notation_text(e) for e in log_reader.read(FIXTURE).events]


@pytest.fixture(scope="module")
def serve() -> Iterator[Callable[..., Served]]:
    """Start ``coimbra serve ARGS`` on the module's store (``serve.db``); all stopped at the module's end."""
    with scratch() as folder:  # in memory where the system has a tmpfs: a save's fsync is the disk's, not the server's
        yield from _serving(folder)


def _serving(folder: Path) -> Iterator[Callable[..., Served]]:
    db = folder / "games.sqlite"
    started: list[Served] = []

    def run(*args: str) -> Served:
        served = start(db, *args, folder=folder)
        started.append(served)
        return served

    run.db = db  # type: ignore[attr-defined]
    yield run
    for served in started:
        code = served.stop()
        assert code == 0, served.log()
        assert "Traceback" not in served.log()


@pytest.fixture(scope="module")
def fixture_game(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Served]:
    """``fixture_game(k, name)``: the 4-player fixture up to entry ``k`` imported as ``name``, and served.

    Each is a copy (``--copy``): one module's tables share a store, and a longer cut of one record would
    otherwise be appended to the table already imported (a record is one game)."""

    def run(entries: int = SETUP_ENTRIES, name: str = "table") -> Served:
        log = tmp_path_factory.mktemp("log") / f"{name}.json"
        log.write_bytes(fixture_log(entries))
        imported = coimbra(serve.db, "import", str(log), "--name", name, "--copy")  # type: ignore[attr-defined]
        assert imported.returncode == 0, imported.stderr
        return serve(name)

    return run


@pytest.fixture(scope="module")
def table_game(fixture_game: Callable[..., Served]) -> Served:
    """The 4-player fixture up to its first decision, served (one per test module)."""
    return fixture_game()
