"""A server that holds on a club's Wi-Fi under load (docs/serve.md, "Connections and streams"): half-sent requests
from one address with the process's file limit at 256 leave the table answering; a burst of streams never opens more
than a role's budget, and the watchers filling theirs never refuse a player's; every stream says ``ping``.

Strangers send from loopback addresses of their own (``127.0.0.x``), as another device would be another address.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import socket
import statistics
import subprocess
import sys
import time
from typing import Iterator

import httpx
import pytest

from cli.live import stream
from cli.live.access import PLAYERS, WATCHERS
from cli.live.limits import PER_ADDRESS, RESERVED_FILES
from tests.commands import scratch
from tests.conftest import ROOT
from tests.live.conftest import SETUP_ENTRIES, Served, coimbra, fixture_inputs, fixture_log, start

DOC = " ".join((ROOT / "docs" / "serve.md").read_text().split())
FILES = 256
"""The process's file limit in the half-sent test (macOS's default)."""


@pytest.fixture(scope="module")
def few_files() -> Iterator[Served]:
    """The 4-player fixture up to its first decision, served by a process that may open ``FILES`` files."""
    with scratch() as folder:
        db, log = folder / "games.sqlite", folder / "table.json"
        log.write_bytes(fixture_log(SETUP_ENTRIES))
        imported = coimbra(db, "import", str(log), "--name", "table")
        assert imported.returncode == 0, imported.stderr
        served = start(db, "table", folder=folder, files=FILES)
        try:
            yield served
        finally:
            assert served.stop() == 0, served.log()
            assert "Traceback" not in served.log()


def half_sent(served: Served, count: int, source: str) -> list[socket.socket]:
    """``count`` connections from ``source``, each with a request's first lines and never the blank line after."""
    port, opened = served.line["port"], []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        opened.append(connection)
        try:
            connection.sendall(f"GET /play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        except OSError:  # the server closed it already: one too many from this address
            pass
    return opened


def test_300_idle_half_sent_requests_from_one_address_leave_a_players_input_answered(few_files: Served) -> None:
    idle = half_sent(few_files, 300, "127.0.0.2")
    try:
        player = few_files.client(few_files.players)
        player.timeout = httpx.Timeout(5)  # a server that cannot answer fails the test in seconds, not minutes
        head = player.get(few_files.api()).json()["head"]
        took = []
        for entry in fixture_inputs()[SETUP_ENTRIES:SETUP_ENTRIES + 20]:
            started = time.monotonic()
            answer = player.post(few_files.api("/inputs"), json={"input": entry, "after": head})
            took.append(time.monotonic() - started)
            assert answer.status_code == 200, answer.text
            head = answer.json()["head"]
        assert statistics.quantiles(took, n=20)[-1] < 0.5, took
    finally:
        for connection in idle:
            connection.close()
    assert len(few_files.log().splitlines()) < 20, few_files.log()[:2000]


def streams_at_once(served: Served, token: str, count: int, sources: int) -> list[tuple[socket.socket, int]]:
    """``count`` requests for the event stream, all sent before any answer is read, from ``sources`` addresses
    (127.0.0.10 on); each connection (still open) with the status it was answered."""
    port, sent = served.line["port"], []
    request = (f"GET {served.api('/events')} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Authorization: Bearer {token}\r\n\r\n").encode()
    for n in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10,
                                              source_address=(f"127.0.0.{10 + n % sources}", 0))
        connection.sendall(request)
        sent.append(connection)
    return [(connection, int(connection.recv(4096).split(b" ", 2)[1])) for connection in sent]


def test_a_burst_of_600_streams_never_opens_more_than_the_budget_and_a_player_still_gets_one(table_game: Served) -> None:
    burst = streams_at_once(table_game, table_game.watchers, 600, sources=20)
    try:
        statuses = [status for _, status in burst]
        assert statuses.count(200) == stream.STREAMS[WATCHERS] and statuses.count(503) == 600 - statuses.count(200)
        player = table_game.client(table_game.players)
        with player.stream("GET", table_game.api("/events")) as players:
            assert players.status_code == 200
        refused = table_game.client(table_game.watchers, source="127.0.0.9").get(table_game.api("/events"))
        assert refused.status_code == 503 and refused.headers["retry-after"] == str(stream.RETRY_AFTER)
        assert refused.headers["content-type"] == "application/json"
        assert f'`"{refused.json()["error"]}"`' in DOC  # said in words, as docs/serve.md quotes them
    finally:
        for connection, _ in burst:
            connection.close()
    watcher = table_game.client(table_game.watchers, source="127.0.0.9")
    deadline = time.monotonic() + 5
    while True:  # the slots are given back as the server sees the connections closed
        with watcher.stream("GET", table_game.api("/events")) as again:
            if again.status_code == 200 or time.monotonic() > deadline:
                break
        time.sleep(0.1)
    assert again.status_code == 200


def test_a_players_stream_is_refused_only_when_the_players_budget_is_full(table_game: Served) -> None:
    burst = streams_at_once(table_game, table_game.players, stream.STREAMS[PLAYERS] + 5, sources=5)
    try:
        statuses = [status for _, status in burst]
        assert statuses.count(200) == stream.STREAMS[PLAYERS] and statuses.count(503) == 5
        with table_game.client(table_game.watchers).stream("GET", table_game.api("/events")) as watchers:
            assert watchers.status_code == 200
    finally:
        for connection, _ in burst:
            connection.close()


def test_a_stream_says_ping_every_few_seconds(table_game: Served) -> None:
    client = table_game.client(table_game.watchers)
    view = client.get(table_game.api()).json()
    started = time.monotonic()
    with client.stream("GET", table_game.api("/events"), params={"last": view["events"]}) as quiet:
        lines = quiet.iter_lines()
        assert next(lines) == "event: ping" and next(lines) == "data: "
    assert stream.PING - 0.5 < time.monotonic() - started < stream.PING + 1.5


SMALL_SERVER = """
import sys
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from cli.live.limits import Limits
from cli.live.server import listen, serve

async def answer(request):
    return PlainTextResponse("ok")

sock = listen("127.0.0.1", 0)
limits = Limits(float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
serve(Starlette(routes=[Route("/", answer)]), sock, lambda: print(sock.getsockname()[1], flush=True), limits)
"""


@contextlib.contextmanager
def small_server(deadline: float, per_address: int, connections: int) -> Iterator[int]:
    """The live server's ``serve`` (uvicorn and its guarded protocol) on loopback in a process of its own, with a
    one-route app and these limits; its port. It must stop cleanly at Ctrl-C and print nothing."""
    process = subprocess.Popen([sys.executable, "-c", SMALL_SERVER, str(deadline), str(per_address), str(connections)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        ready, _, _ = select.select([process.stdout], [], [], 30)
        assert ready, process.stderr.read() if process.poll() is not None else "not ready"
        yield int(process.stdout.readline())
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
        assert process.returncode == 0 and not stderr, stderr.decode()


def connect(port: int, source: str = "127.0.0.1", first: bytes = b"") -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    if first:
        connection.sendall(first)
    return connection


def closed_after(connection: socket.socket) -> float:
    """Seconds until the server closes ``connection`` having answered nothing."""
    started = time.monotonic()
    try:
        assert connection.recv(4096) == b""
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def answered(connection: socket.socket) -> bool:
    """Whether the server answers the small server's one route on ``connection`` (read whole: ``ok``)."""
    said = b""
    while not said.endswith(b"\r\n\r\nok"):
        chunk = connection.recv(4096)
        if not chunk:
            return False
        said += chunk
    return said.startswith(b"HTTP/1.1 200")


def request(port: int) -> bytes:
    return f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


def test_a_request_whose_headers_are_not_complete_by_the_deadline_is_closed_quietly() -> None:
    with small_server(0.5, PER_ADDRESS, 100) as port:
        opened = time.monotonic()
        slow = connect(port, first=request(port)[:20])
        late = connect(port, first=request(port)[:20])
        time.sleep(0.3)
        asked_at = time.monotonic()  # the next deadline starts when the answer is complete: after this, before the next
        late.sendall(request(port)[20:])  # complete within the deadline: answered
        assert answered(late)
        answer_at = time.monotonic()
        late.sendall(request(port)[:20])  # the next request on the kept-alive connection, never completed
        closed_after(slow)
        assert 0.5 <= time.monotonic() - opened < 1.5
        closed_after(late)
        assert time.monotonic() - asked_at >= 0.5 and time.monotonic() - answer_at < 1.5


def test_connections_over_the_cap_of_an_address_or_of_all_are_closed_at_once_and_others_answered() -> None:
    with small_server(10, 4, 6) as port:
        held = [connect(port, "127.0.0.2") for _ in range(4)]
        assert closed_after(connect(port, "127.0.0.2")) < 0.5  # a fifth from one address
        other = connect(port, "127.0.0.3", request(port))
        assert answered(other)
        held.append(connect(port, "127.0.0.3"))
        assert closed_after(connect(port, "127.0.0.4")) < 0.5  # a seventh in all
        for connection in held + [other]:
            connection.close()
        time.sleep(0.2)
        assert answered(connect(port, "127.0.0.4", request(port)))


@pytest.mark.parametrize("soft, hard, allowed", [(256, 8192, 4096), (256, 256, 256), (8192, 8192, 8192)])
def test_the_server_raises_its_file_limit_where_allowed_and_keeps_64_files_beside_its_connections(
        soft: int, hard: int, allowed: int) -> None:
    if hard > resource.getrlimit(resource.RLIMIT_NOFILE)[1]:
        pytest.skip(f"this process may not allow {hard} files")
    said = subprocess.run([sys.executable, "-c", "from cli.live.limits import Limits; print(Limits().connections)"],
                          capture_output=True, text=True, timeout=30, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard)))
    assert said.returncode == 0 and int(said.stdout) == allowed - RESERVED_FILES, said.stderr
