"""``coimbra serve --workers 2`` on one real PostgreSQL: two server processes on one address, any answering any
request. An input posted on a connection one process holds reaches an event stream another process holds within
a second; a seat claimed through one, and the session cookie one made, hold on the other. Which process holds a
connection is read from Linux's ``/proc`` (the server's end of the connection, by its client's port). On SQLite
``--workers`` is refused in one line, for one table and for every table (a server of every table on PostgreSQL:
tests/live/test_workers_club.py)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import orjson
import pytest

from cli.live.api import DEVICE
from cli.live.follow import SEATS_EVERY
from tests.conftest import installed_coimbra
from tests.live.conftest import Served, environment, stream_events
from tests.store.conftest import postgres_env, postgres_server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads which process holds a connection from /proc")
ANA, BRUNO = "phone-of-ana-0001", "phone-of-bruno-001"
SEAT_TOLD = SEATS_EVERY + 1.0
"""Seconds within which a seat taken over on one process is told on the other's streams (their look once a second)."""


def on_postgres(postgres_env: dict[str, str], folder: Path, *args: str) -> Served:
    """``coimbra serve ARGS --json`` on loopback, any free port, on a PostgreSQL store (``postgres_env``), once it
    answers (every process of it)."""
    env = {**environment(folder / "unused.sqlite"), **postgres_env}
    del env["COIMBRA_DB"]
    stderr = folder / f"serve-{time.monotonic_ns()}.log"
    process = subprocess.Popen([installed_coimbra(), "serve", *args, "--host", "127.0.0.1", "--port", "0", "--json"],
                               stdout=subprocess.PIPE, stderr=stderr.open("w"), env=env)
    ready, _, _ = select.select([process.stdout], [], [], 120)
    line = process.stdout.readline() if ready else b""
    if not line:
        process.kill()
        pytest.fail(f"coimbra serve {' '.join(args)} did not start: {stderr.read_text()}")
    return Served(orjson.loads(line), folder / "unused.sqlite", process, stderr)


@pytest.fixture
def served(postgres_env: dict[str, str], tmp_path: Path) -> Iterator[Served]:
    """``coimbra serve --players … --workers 2`` on a PostgreSQL schema of its own, once both processes answer."""
    running = on_postgres(postgres_env, tmp_path, "--players", "Ana:red,Bruno:blue", "--seed", "3", "--workers", "2")
    yield running
    assert running.stop() == 0, running.log()
    assert not children(running.process.pid), "every server process stopped with it"


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (its server processes, and multiprocessing's helper)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def holder(answer: httpx.Response, pids: list[int]) -> int:
    """The process holding the server's end of the connection ``answer`` came on."""
    client_port = answer.extensions["network_stream"].get_extra_info("client_addr")[1]
    server_port = answer.url.port
    inodes = {fields[9] for fields in (line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:])
              if int(fields[1].split(":")[1], 16) == server_port and int(fields[2].split(":")[1], 16) == client_port}
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) in {f"socket:[{inode}]" for inode in inodes}:
                    return pid
            except OSError:
                continue
    raise AssertionError(f"no server process holds the connection from port {client_port}")


def one_on_each(served: Served, device: str | None = None, cookies: httpx.Cookies | None = None) -> list[httpx.Client]:
    """Two clients (pages), each on a kept-alive connection that another server process holds."""
    pids, found = children(served.process.pid), {}
    for _ in range(200):
        client = served.client(None if cookies else served.players, cookies=cookies)
        if device:
            client.headers[DEVICE] = device
        answer = client.get(served.api())
        assert answer.status_code == 200, answer.text
        found.setdefault(holder(answer, pids), client)
        if len(found) == 2:
            return list(found.values())
    raise AssertionError(f"every connection went to one process: {found}")


def told(stream: httpx.Response, by: float, kind: str = "entry") -> dict:
    """The next event of ``kind`` the stream tells (an entry: one with an id); fails once another event (a ping, every
    5 seconds) comes after ``by`` (a monotonic time)."""
    for fields in stream_events(stream):
        if ("id" in fields) if kind == "entry" else fields.get("event") == kind:
            return {**fields, "data": orjson.loads(fields["data"])}
        assert time.monotonic() < by, f"no {kind} told in time"
    raise AssertionError("the stream ended")


def test_an_input_through_one_process_reaches_a_stream_on_the_other_within_a_second(served: Served) -> None:
    poster, watcher = one_on_each(served)
    pids = children(served.process.pid)
    posting = holder(poster.get(served.api()), pids)
    view = watcher.get(served.api()).json()
    with watcher.stream("GET", served.api("/events"), params={"last": view["events"]}) as stream:
        assert holder(stream, pids) != posting, "the stream is held by the other process"
        answer = poster.post(served.api("/inputs"), json={"input": view["legal"]["options"][0], "after": view["head"]})
        stored = time.monotonic()
        assert answer.status_code == 200 and holder(answer, pids) == posting, answer.text
        entry = told(stream, stored + 1.0)
        took = time.monotonic() - stored
    assert entry["id"] == str(view["events"] + 1)
    assert took < 1.0, f"told {took:.2f} s after the other process stored it"


def test_a_seat_and_a_session_made_through_one_process_hold_on_the_other(served: Served) -> None:
    one, other = one_on_each(served, ANA)
    pids = children(served.process.pid)
    on_one = one.post(served.api("/seats"), json={"seat": "Ana"})
    assert on_one.status_code == 200 and holder(on_one, pids) != holder(other.get(served.api()), pids)
    assert other.get(served.api()).json()["you"] == ["Ana"]
    other.headers[DEVICE] = BRUNO
    taken = other.post(served.api("/seats"), json={"seat": "Ana"})
    assert taken.status_code == 409 and taken.json()["holder"] == ["Ana"], taken.text
    with one.stream("GET", served.api("/events"), params={"last": one.get(served.api()).json()["events"]}) as stream:
        assert holder(stream, pids) != holder(other.get(served.api()), pids)
        assert other.post(served.api("/seats"), json={"seat": "Ana", "take_over": True}).json()["took_over"]
        told(stream, time.monotonic() + SEAT_TOLD, "seat")  # the page that held Ana reads who holds what
    assert one.get(served.api()).json()["you"] == []
    joined = one.post("/api/session", headers={"Origin": served.url})
    assert joined.status_code == 200, joined.text
    cookies = httpx.Cookies({k: v for k, v in one.cookies.items()})
    for page in one_on_each(served, cookies=cookies):  # the cookie alone, on both processes
        assert page.get(served.api()).status_code == 200


def test_on_sqlite_several_processes_are_refused_in_one_line(tmp_path: Path) -> None:
    out = subprocess.run([installed_coimbra(), "serve", "--players", "Ana:red,Bruno:blue", "--workers", "2", "--host",
                          "127.0.0.1"], capture_output=True, text=True, timeout=120, env=environment(tmp_path / "games.sqlite"))
    assert out.returncode == 2 and "--workers 2: several server processes share a PostgreSQL store" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and not (tmp_path / "games.sqlite").exists()


def test_a_server_of_every_table_on_sqlite_is_one_process_and_several_are_refused_in_one_line(tmp_path: Path) -> None:
    out = subprocess.run([installed_coimbra(), "serve", "--workers", "3", "--host", "127.0.0.1"], capture_output=True,
                         text=True, timeout=120, env=environment(tmp_path / "games.sqlite"))
    assert out.returncode == 2 and "--workers 3: several server processes share a PostgreSQL store" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and not (tmp_path / "games.sqlite").exists()
