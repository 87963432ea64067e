"""The organiser's routes of a club night's server, through a real server on loopback: a table started with the
organiser's token is served at once with its own links and carries the evening's tag (which ``league standings
--season`` reads), the league's known people come with their aliases, a table is put away or archived; a
table's token does none of it."""

from __future__ import annotations

import time
from typing import Callable, Iterator

import httpx

import orjson
import pytest

from cli.live.api import MAX_INPUTS
from tests.live.conftest import Served, coimbra, fixture_inputs, stream_events
from tests.live.test_club import client, imported

EVENING = "club-test-night"


@pytest.fixture(scope="module")
def club(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """A finished game (the league's people: Ana, Bruno, Carla, Duarte; "Bru" an alias of Bruno), one table in
    progress, and ``coimbra serve --tag EVENING``."""
    folder = tmp_path_factory.mktemp("logs")
    imported(serve.db, folder, "finished", None)  # type: ignore[attr-defined]
    imported(serve.db, folder, "first-table")  # type: ignore[attr-defined]
    assert coimbra(serve.db, "player", "alias", "Bru", "Bruno").returncode == 0  # type: ignore[attr-defined]
    return serve("--tag", EVENING)


def two(first: str = "Hugo", second: str = "Ines") -> dict[str, object]:
    return {"players": [{"name": first, "color": "red"}, {"name": second, "color": "blue"}]}


def test_a_table_started_by_the_organiser_is_served_at_once_and_tagged_for_the_evening(club: Served) -> None:
    organiser = club.organiser("127.0.0.30")
    started = organiser.post("/api/tables", json={**two(), "seating": "entered"})
    assert started.status_code == 200, started.text
    table = started.json()
    assert table["game"] == "hugo-ines" and [p["name"] for p in table["players"]] == ["Hugo", "Ines"]
    assert table["players_url"] == f"{club.url}/play#t={table['players_token']}" and table["players_qr"]
    player = client(club, table["players_token"], "127.0.0.31")
    assert player.get("/api/games/hugo-ines").json()["players"] == [{"name": "Hugo", "color": "red"},
                                                                     {"name": "Ines", "color": "blue"}]
    assert player.get("/api/games/first-table").status_code == 401
    listed = organiser.get("/api/tables").json()
    assert listed["tag"] == EVENING and [t["game"] for t in listed["tables"]] == ["first-table", "hugo-ines"]
    tagged = coimbra(club.db, "games", "--tag", EVENING, "--json")
    assert [g["name"] for g in orjson.loads(tagged.stdout)["games"]] == ["hugo-ines"], tagged.stdout + tagged.stderr


def test_drawn_seats_are_the_players_entered_in_some_order(club: Served) -> None:
    organiser = club.organiser("127.0.0.32")
    table = organiser.post("/api/tables", json={**two("Joao", "Kim"), "seating": "drawn"}).json()
    assert sorted(p["name"] for p in table["players"]) == ["Joao", "Kim"]


@pytest.mark.parametrize("body, words", [
    ({"players": [{"name": "Solo", "color": "red"}]}, "expected 2 to 4 players"),
    ({**two(), "seating": "random"}, "'seating': expected one of entered, drawn"),
    (two("Li:x", "Mo"), "names and colours may not contain"),
])
def test_a_table_that_cannot_be_started_is_400_and_nothing_is_stored(club: Served, body, words) -> None:
    before = coimbra(club.db, "games", "--json").stdout
    refused = club.organiser("127.0.0.33").post("/api/tables", json=body)
    assert refused.status_code == 400 and words in refused.json()["error"], refused.text
    assert coimbra(club.db, "games", "--json").stdout == before


def test_no_tables_token_starts_archives_or_lists(club: Served) -> None:
    first = next(t for t in club.line["tables"] if t["game"] == "first-table")
    for token in (first["players_token"], first["watchers_token"]):
        table = client(club, token, "127.0.0.34")
        assert table.post("/api/tables", json=two("Nuno", "Olga")).status_code == 401
        assert table.post("/api/tables/first-table/done", json={"archive": True}).status_code == 401
        assert table.get("/api/people").status_code == 401
    foreign = club.organiser("127.0.0.35")
    assert foreign.post("/api/tables", json=two("Nuno", "Olga"), headers={"Origin": "http://evil.example"}).status_code == 403


def test_the_leagues_people_come_each_once_with_their_aliases(club: Served) -> None:
    people = club.organiser("127.0.0.36").get("/api/people")
    assert people.status_code == 200, people.text
    assert people.json()["people"] == [{"name": "Ana", "aliases": []}, {"name": "Bruno", "aliases": ["Bru"]},
                                       {"name": "Carla", "aliases": []}, {"name": "Duarte", "aliases": []}]


def test_a_table_in_progress_is_archived_and_served_no_more(club: Served) -> None:
    organiser = club.organiser("127.0.0.37")
    table = organiser.post("/api/tables", json=two("Pia", "Quim")).json()
    kept = organiser.post("/api/tables/pia-quim/done", json={"archive": False})
    assert kept.status_code == 409 and "in progress" in kept.json()["error"]
    archived = organiser.post("/api/tables/pia-quim/done", json={"archive": True})
    assert archived.json() == {"game": "pia-quim", "archived": True}
    assert "pia-quim" not in [t["game"] for t in organiser.get("/api/tables").json()["tables"]]
    assert client(club, table["players_token"], "127.0.0.38").get("/api/games/pia-quim").status_code == 404
    listed = coimbra(club.db, "games", "--json")
    assert "pia-quim" not in [g["name"] for g in orjson.loads(listed.stdout)["games"]]
    assert organiser.post("/api/tables/pia-quim/done", json={"archive": True}).status_code == 404


def test_a_table_started_and_played_to_the_end_counts_in_the_evenings_season(club: Served) -> None:
    """The fixture's game entered whole at a table the organiser started (its players, in its seats): the league's
    standings of the evening's tag (``--season``) count that game, and only it."""
    players = [{"name": n, "color": c} for n, c in (("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow"), ("Duarte", "green"))]
    organiser = club.organiser("127.0.0.39")
    table = organiser.post("/api/tables", json={"players": players, "seating": "entered"}).json()
    player = client(club, table["players_token"], "127.0.0.40")
    inputs = fixture_inputs()
    for start in range(0, len(inputs), MAX_INPUTS):
        head = player.get(f"/api/games/{table['game']}").json()["head"]
        stored = player.post(f"/api/games/{table['game']}/inputs", json={"inputs": inputs[start:start + MAX_INPUTS], "after": head})
        assert stored.status_code == 200, stored.text
    assert next(t for t in organiser.get("/api/tables").json()["tables"] if t["game"] == table["game"])["over"] is True
    standings = coimbra(club.db, "league", "standings", "--season", EVENING, "--json")
    assert standings.returncode == 0, standings.stderr
    report = orjson.loads(standings.stdout)
    assert report["season"] == EVENING and report["games"] == 1
    assert sorted(row["player"] for row in report["players"]) == ["Ana", "Bruno", "Carla", "Duarte"]


def changes(stream: httpx.Response, within: float = 2.0) -> Iterator[int]:
    """The counts the organiser's stream tells (``event: tables``), each within ``within`` seconds of the one
    before (or of the stream's opening): a ping after that fails the test rather than waiting for ever."""
    since = time.monotonic()
    for fields in stream_events(stream):
        if fields.get("event") == "tables":
            yield int(fields["data"])
            since = time.monotonic()
        assert time.monotonic() - since < within, f"no change told within {within} s"


def test_the_organisers_stream_tells_of_an_entry_at_any_table_and_of_a_table_started(club: Served) -> None:
    organiser = club.organiser("127.0.0.41")
    first = next(t for t in club.line["tables"] if t["game"] == "first-table")
    player = client(club, first["players_token"], "127.0.0.42")
    assert player.get("/api/tables/events").status_code == 401
    with organiser.stream("GET", "/api/tables/events") as stream:
        told = changes(stream)
        seen = next(told)
        view = player.get("/api/games/first-table").json()
        recorded = player.post("/api/games/first-table/inputs", json={"input": view["legal"]["options"][0], "after": view["head"]})
        assert recorded.status_code == 200, recorded.text
        after_entry = next(told)
        assert after_entry > seen
        started = organiser.post("/api/tables", json=two("Rui", "Sara"))
        assert started.status_code == 200 and next(told) > after_entry
