"""``coimbra serve --workers 2`` without GAME on one real PostgreSQL: two processes serving every table. A table the
organiser starts through one process is answered by the other; an input sent to one reaches a stream the other holds
within a second; a seat claimed through one holds on the other; a table archived through one is served by neither,
nor is a finished table put away (not archived) through one. Which process holds a connection is read from Linux's
``/proc`` (``tests.live.test_workers``). And a server of every table serves no more, and never again, a table archived
or put away through another server process on the store (a game put away and reopened since is served again)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterator

import httpx
import pytest

from cli.live.access import Keys
from cli.live.api import DEVICE, MAX_INPUTS
from cli.live.tables import ServedTables
from coimbra_events import log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.applied import recorded, stored
from tests.live.conftest import FIXTURE, Served, fixture_inputs, fixture_log
from tests.live.test_workers import ANA, children, holder, on_postgres, told
from tests.store.conftest import postgres_env, postgres_server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads which process holds a connection from /proc")
LEARNT = 2.0
"""Seconds within which a process serves a table started through the other (it looks when the store notifies it)."""
FIXTURE_PLAYERS = [{"name": n, "color": c} for n, c in (("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow"),
                                                         ("Duarte", "green"))]
"""The 4-player fixture's players, in its seats: its inputs are those of a table they start."""


@pytest.fixture
def club(postgres_env: dict[str, str], tmp_path: Path) -> Iterator[Served]:
    """``coimbra serve --workers 2`` of every table, on a PostgreSQL schema of its own, once both processes answer."""
    running = on_postgres(postgres_env, tmp_path, "--workers", "2", "--tag", "club-scale")
    yield running
    assert running.stop() == 0, running.log()
    assert not children(running.process.pid), "every server process stopped with it"


def on_each(club: Served, make: Callable[[], httpx.Client], path: str) -> list[httpx.Client]:
    """Two clients made by ``make``, each on a kept-alive connection another server process holds (``GET path``)."""
    pids, found = children(club.process.pid), {}
    for _ in range(200):
        client = make()
        answer = client.get(path)
        assert answer.status_code == 200, answer.text
        found.setdefault(holder(answer, pids), client)
        if len(found) == 2:
            return list(found.values())
    raise AssertionError(f"every connection went to one process: {found}")


def answered(client: httpx.Client, path: str, status: int, within: float) -> float:
    """Seconds until ``GET path`` is answered ``status`` (fails after ``within``)."""
    started = time.monotonic()
    while (answer := client.get(path)).status_code != status:
        assert time.monotonic() - started < within, f"{path} still answered {answer.status_code}: {answer.text}"
        time.sleep(0.05)
    return time.monotonic() - started


def listed(client: httpx.Client, game: str, ready: Callable[[dict], bool] = lambda table: True) -> float:
    """Seconds until ``GET /api/tables`` lists table ``game`` and it is ``ready`` (fails after ``LEARNT``)."""
    started = time.monotonic()
    while not any(t["game"] == game and ready(t) for t in client.get("/api/tables").json()["tables"]):
        assert time.monotonic() - started < LEARNT, f"{game} is not listed as expected"
        time.sleep(0.05)
    return time.monotonic() - started


def test_two_processes_serve_every_table_the_other_started(club: Served) -> None:
    starter, other = on_each(club, club.organiser, "/api/tables")
    started = starter.post("/api/tables", json={"players": FIXTURE_PLAYERS})
    assert started.status_code == 200, started.text
    table, players = started.json()["game"], started.json()["players_token"]
    api = f"/api/games/{table}"

    assert listed(other, table) < LEARNT  # served on both, the other learning it at its next look
    one, two = on_each(club, lambda: club.client(players), api)
    pids = children(club.process.pid)
    view = two.get(api).json()
    with two.stream("GET", f"{api}/events", params={"last": view["events"]}) as stream:
        sent = one.post(f"{api}/inputs", json={"input": fixture_inputs()[0], "after": view["head"]})
        stored = time.monotonic()
        assert sent.status_code == 200, sent.text
        assert holder(stream, pids) != holder(sent, pids), "the stream is held by the other process"
        entry = told(stream, stored + 1.0)
        took = time.monotonic() - stored
    assert entry["id"] == str(view["events"] + 1) and took < 1.0, f"told {took:.2f} s after the other process stored it"

    one.headers[DEVICE] = two.headers[DEVICE] = ANA
    assert one.post(f"{api}/seats", json={"seat": "Ana"}).status_code == 200
    assert two.get(api).json()["you"] == ["Ana"]

    assert starter.post(f"/api/tables/{table}/done", json={"archive": True}).json()["archived"] is True
    answered(other, f"{api}", 404, LEARNT)  # the organiser's token opens no table: 404 once it is served no more
    assert table not in [t["game"] for t in other.get("/api/tables").json()["tables"]]
    assert two.get(api).status_code == 404 and one.get(api).status_code == 404


@pytest.fixture
def two_processes(postgres_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Games, Games]]:
    """Two applications on one PostgreSQL store, as two server processes hold it (in this process)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("COIMBRA_DB", raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    stores = [GameStore(env=postgres_env), GameStore(env=postgres_env)]
    try:
        yield Games(stores[0]), Games(stores[1])
    finally:
        for store in stores:
            store.close()


def every_table(*each: Games) -> list[ServedTables]:
    """A server of every table on each application, serving the games in progress."""
    served = [ServedTables(games, "club", Keys(games.organiser_key()), "club-night") for games in each]
    for tables in served:
        tables.serve_every()
    return served


def test_a_table_archived_through_another_process_is_served_no_more(two_processes: tuple[Games, Games]) -> None:
    one, two = two_processes
    one.new_game([("Ana", "red"), ("Bruno", "blue")], name="table-1")
    one.new_game([("Carla", "red"), ("Dora", "blue")], name="table-2")
    served = every_table(one, two)
    served[0].put_away("table-1", archive=True)
    for tables in served:
        assert tables._moved()
        assert list(tables.served) == ["table-2"]
    one.new_game([("Eva", "red"), ("Fil", "blue")], name="table-3")  # the log moves: every table is listed again
    for tables in served:
        assert tables._moved() and list(tables.served) == ["table-2", "table-3"]


def test_a_finished_table_put_away_through_another_process_is_served_no_more_until_reopened(
        two_processes: tuple[Games, Games]) -> None:
    one, two = two_processes
    whole = log_reader.read(FIXTURE)
    one.import_log(log_reader.loads(fixture_log(len(whole.events) - 1)), "table-1")
    one.new_game([("Carla", "red"), ("Dora", "blue")], name="table-2")
    served = every_table(one, two)
    recorded(one, "table-1", whole.events[-1])  # the game ends: a game over is served until put away
    assert served[1]._moved() and list(served[1].served) == ["table-1", "table-2"]
    served[0].put_away("table-1", archive=False)
    for tables in served:
        assert tables._moved() and list(tables.served) == ["table-2"]
    stored(one.undo("table-1"))  # reopened (as ``coimbra undo`` would): in progress, so served again
    assert served[1]._moved() and sorted(served[1].served) == ["table-1", "table-2"]


def played_to_the_end(client: httpx.Client, api: str) -> None:
    """The 4-player fixture's inputs entered at table ``api`` (its players', in its seats), to its end."""
    inputs = fixture_inputs()
    for start in range(0, len(inputs), MAX_INPUTS):
        head = client.get(api).json()["head"]
        sent = client.post(f"{api}/inputs", json={"inputs": inputs[start:start + MAX_INPUTS], "after": head})
        assert sent.status_code == 200, sent.text


def test_a_finished_table_put_away_through_one_process_is_served_by_neither(club: Served) -> None:
    """Put away without archiving (a game over): the other process learns it from the store's notification log at
    its next look, as it learns of a table archived, and serves it no more."""
    starter, other = on_each(club, club.organiser, "/api/tables")
    game = starter.post("/api/tables", json={"players": FIXTURE_PLAYERS}).json()
    api = f"/api/games/{game['game']}"
    assert listed(other, game["game"]) < LEARNT
    one, two = on_each(club, lambda: club.client(game["players_token"]), api)
    played_to_the_end(one, api)
    assert listed(other, game["game"], lambda table: table["over"]) < LEARNT  # a game over is served until put away

    put_away = starter.post(f"/api/tables/{game['game']}/done", json={"archive": False})
    assert put_away.json() == {"game": game["game"], "archived": False}, put_away.text
    assert max(answered(client, api, 404, LEARNT) for client in (one, two)) < LEARNT  # one on each process
    assert game["game"] not in [t["game"] for t in other.get("/api/tables").json()["tables"]]
