"""A club night on one server: ``coimbra serve`` without GAME serves every game in progress, and every game
started while it runs, each table with its own links; the organiser's link lists them. Through a real server on
loopback (``tests.live.conftest``), its JSON line read as a script reads it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from cli.live.access import REPLACED, WRONG_TOKEN
from tests.live.conftest import FIXTURE, SETUP_ENTRIES, Served, coimbra, fixture_log
from tests.store.rows import Rows

TABLES = ("first-table", "second-table", "third-table")


def imported(db: Path, folder: Path, name: str, entries: int | None = SETUP_ENTRIES) -> None:
    """The 4-player fixture (cut after ``entries``; ``None``: the whole game, finished, and not as a copy: the
    league counts it) stored as ``name``."""
    log = folder / f"{name}.json"
    log.write_bytes(FIXTURE.read_bytes() if entries is None else fixture_log(entries))
    out = coimbra(db, "import", str(log), "--name", name, *(("--copy",) if entries is not None else ()))
    assert out.returncode == 0, out.stderr


@pytest.fixture(scope="module")
def club(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """Three tables in progress and one game over, in the module's store, and ``coimbra serve`` of them all."""
    folder = tmp_path_factory.mktemp("logs")
    imported(serve.db, folder, "finished", None)  # type: ignore[attr-defined]  (first: the tables are copies of it)
    for name in TABLES:
        imported(serve.db, folder, name)  # type: ignore[attr-defined]
    imported(serve.db, folder, "damaged-table")  # type: ignore[attr-defined]
    rows = Rows(serve.db)  # type: ignore[attr-defined]
    rows.set(rows.entries("damaged-table")[3], state=b"not json")
    return serve()


def tables(served: Served) -> dict[str, dict[str, Any]]:
    """The tables of the JSON line, by name."""
    return {t["game"]: t for t in served.line["tables"]}


def client(served: Served, token: str, source: str) -> httpx.Client:
    return served.client(token, source=source)


def test_the_json_line_names_the_organisers_link_and_every_table_in_progress(club: Served) -> None:
    line = club.line
    assert set(line) == {"organiser_url", "organiser_token", "evening_url", "evening_token", "url", "host", "port", "tables"}
    assert line["organiser_url"] == f"{club.url}/club#t={line['organiser_token']}"
    assert line["evening_url"] == f"{club.url}/evening#t={line['evening_token']}"
    assert list(tables(club)) == list(TABLES)  # the oldest first; the game over is not served, nor the damaged one
    assert "damaged-table is not served: " in club.log() and len(club.log().splitlines()) == 1
    for table in line["tables"]:
        assert set(table) == {"game", "players_url", "watchers_url", "players_token", "watchers_token"}
        assert table["players_url"] == f"{club.url}/play#t={table['players_token']}"
        assert table["watchers_url"] == f"{club.url}/watch#t={table['watchers_token']}"
    tokens = [line["organiser_token"], line["evening_token"], *(t[k] for t in line["tables"] for k in ("players_token", "watchers_token"))]
    assert len(set(tokens)) == len(tokens) == 8


def test_each_tables_token_opens_its_table_only(club: Served) -> None:
    for k, (name, table) in enumerate(tables(club).items()):
        player = client(club, table["players_token"], f"127.0.0.{10 + k}")
        watcher = client(club, table["watchers_token"], f"127.0.0.{10 + k}")
        head = player.get(f"/api/games/{name}").json()["head"]
        assert watcher.get(f"/api/games/{name}").status_code == 200
        noted = player.post(f"/api/games/{name}/notes", json={"at": 1, "text": f"at {name}"})
        assert noted.status_code == 200, noted.text
        assert watcher.post(f"/api/games/{name}/notes", json={"at": 1, "text": "no"}).status_code == 403
        for other in TABLES:
            if other != name:
                for who in (player, watcher):
                    refused = who.get(f"/api/games/{other}")
                    assert refused.status_code == 401 and refused.json()["error"] == WRONG_TOKEN
                refused = player.post(f"/api/games/{other}/inputs", json={"input": "pass", "after": head})
                assert refused.status_code == 401
        assert player.get("/api/tables").status_code == 401
    assert client(club, tables(club)[TABLES[0]]["players_token"], "127.0.0.19").get("/api/games/finished").status_code == 404


def test_the_organisers_token_lists_every_table_and_opens_none(club: Served) -> None:
    organiser = club.organiser("127.0.0.20")
    listed = organiser.get("/api/tables")
    assert listed.status_code == 200, listed.text
    by_name = {t["game"]: t for t in listed.json()["tables"]}
    assert list(by_name) == list(TABLES)
    for name, table in tables(club).items():
        assert {k: by_name[name][k] for k in table} == table
        assert [p["name"] for p in by_name[name]["players"]] == ["Ana", "Bruno", "Carla", "Duarte"]
        assert by_name[name]["players_qr"].startswith("data:image/svg+xml")
        assert by_name[name]["due"]["player"] and by_name[name]["over"] is False
    assert organiser.get(f"/api/games/{TABLES[0]}").status_code == 401
    assert organiser.post("/api/session").json() == {"role": "organiser", "game": None}
    assert client(club, "x" * 43, "127.0.0.21").get("/api/tables").status_code == 401
    assert httpx.get(f"{club.url}/api/tables").status_code == 401


def test_one_browser_holds_every_tables_session_side_by_side(club: Served) -> None:
    """One httpx client is one browser: a tab per table trades its token for its cookie; each table's cookie
    opens that table (a write with cookies alone, as a page writes), and the jar holds one per table and role."""
    with httpx.Client(base_url=club.url, timeout=30, headers={"Origin": club.url}) as browser:
        for table in club.line["tables"]:
            for role in ("players", "watchers"):
                joined = browser.post("/api/session", headers={"Authorization": f"Bearer {table[f'{role}_token']}"})
                assert joined.json() == {"role": role, "game": table["game"]}
        assert len({cookie.name for cookie in browser.cookies.jar}) == 2 * len(TABLES)
        for name in TABLES:
            assert browser.post(f"/api/games/{name}/notes", json={"at": 1, "text": "cookie"}).status_code == 200


def test_a_game_started_while_it_serves_is_served_with_its_own_links(club: Served) -> None:
    started = coimbra(club.db, "new", "--players", "Eva:red,Fil:blue", "--name", "late-table")
    assert started.returncode == 0, started.stderr
    organiser = club.organiser("127.0.0.22")
    deadline = time.monotonic() + 10
    while "late-table" not in (listed := {t["game"]: t for t in organiser.get("/api/tables").json()["tables"]}):
        assert time.monotonic() < deadline, "the game started was not served within 10 s"
        time.sleep(0.2)
    late = listed["late-table"]
    assert client(club, late["players_token"], "127.0.0.23").get("/api/games/late-table").status_code == 200
    assert client(club, late["players_token"], "127.0.0.23").get(f"/api/games/{TABLES[0]}").status_code == 401


def test_the_single_table_server_gives_a_game_the_same_links(club: Served, serve: Callable[..., Served]) -> None:
    alone = serve(TABLES[1])
    assert (alone.players, alone.watchers) == (tables(club)[TABLES[1]]["players_token"], tables(club)[TABLES[1]]["watchers_token"])
    assert alone.client(alone.players).get("/api/tables").status_code == 404  # one table: no organiser's list
    assert alone.stop() == 0


def test_a_restart_keeps_every_link_and_new_links_replace_them_all(club: Served, serve: Callable[..., Served]) -> None:
    assert club.stop() == 0, club.log()
    again = serve()
    assert again.line["organiser_token"] == club.line["organiser_token"]
    assert {n: t for n, t in tables(again).items() if n in TABLES} == {n: t | {"players_url": t["players_url"].replace(
        club.url, again.url), "watchers_url": t["watchers_url"].replace(club.url, again.url)} for n, t in tables(club).items()}
    assert again.stop() == 0, again.log()
    renewed = serve("--new-links")
    old = [club.line["organiser_token"], *(t[k] for t in club.line["tables"] for k in ("players_token", "watchers_token"))]
    new = [renewed.line["organiser_token"], *(t[k] for t in renewed.line["tables"] for k in ("players_token", "watchers_token"))]
    assert set(old).isdisjoint(new)
    refused = client(renewed, club.line["organiser_token"], "127.0.0.24").get("/api/tables")
    assert refused.status_code == 401 and refused.json()["error"] == REPLACED
    assert client(renewed, renewed.line["organiser_token"], "127.0.0.24").get("/api/tables").status_code == 200
    assert all(t not in renewed.log() + club.log() for t in old + new)
