"""The evening's routes through a real server on loopback: its token reads the evening (the league's standings of
the evening's tag, every table with its board) and nothing else, never writes; its one stream tells a table's
board only when it moved, a catalog once, and the standings when read again; a restart keeps its link and ``--new-links`` replaces it."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import httpx
import orjson
import pytest

from tests.live.conftest import Served, stream_events
from tests.live.test_club import imported

TAG = "club-evening-routes"
TABLE = "first-table"


@pytest.fixture(scope="module")
def club(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Served:
    imported(serve.db, tmp_path_factory.mktemp("logs"), TABLE)  # type: ignore[attr-defined]
    return serve("--tag", TAG)


def table_token(served: Served, role: str) -> str:
    return next(t for t in served.line["tables"] if t["game"] == TABLE)[f"{role}_token"]


def told(stream: httpx.Response) -> Iterator[dict[str, Any]]:
    """The evenings a stream tells (``event: evening``), pings skipped."""
    for fields in stream_events(stream):
        if fields.get("event") == "evening":
            yield orjson.loads(fields["data"])


def test_the_evenings_token_reads_the_evening_and_nothing_else(club: Served) -> None:
    evening = club.client(club.line["evening_token"], source="127.0.0.51")
    read = evening.get("/api/evening").json()
    assert read["tag"] == TAG and read["standings"]["season"] == TAG and read["standings"]["players"] == []
    [table] = read["tables"]
    assert table["game"] == TABLE and table["entries"] == 6 and table["board"]["at"] == 6
    assert list(read["catalogs"]) == [table["catalog"]] and read["catalogs"][table["catalog"]]["tracks"]
    for method, path in (("GET", f"/api/games/{TABLE}"), ("POST", f"/api/games/{TABLE}/notes"), ("GET", "/api/tables"),
                         ("POST", "/api/tables"), ("GET", "/api/people")):
        refused = evening.request(method, path, json={"at": 1, "text": "x"} if method == "POST" else None)
        assert refused.status_code == 401, (method, path, refused.text)
    for k, token in enumerate((club.line["organiser_token"], table_token(club, "watchers"), table_token(club, "players"))):
        assert club.client(token, source=f"127.0.0.{52 + k}").get("/api/evening").status_code == 401
    with httpx.Client(base_url=club.url, timeout=30, headers={"Origin": club.url}) as browser:
        joined = browser.post("/api/session", headers={"Authorization": f"Bearer {club.line['evening_token']}"})
        assert joined.json() == {"role": "watchers", "game": None}
        assert browser.get("/api/evening").status_code == 200  # its cookie alone
        assert browser.get("/api/tables").status_code == 401 and browser.get(f"/api/games/{TABLE}").status_code == 401
    assert [t["game"] for t in evening.get("/api/evening").json()["tables"]] == [TABLE]  # nothing was started


def test_the_stream_tells_a_board_once_it_moved_a_catalog_once_and_standings_read_again(club: Served) -> None:
    evening = club.client(club.line["evening_token"], source="127.0.0.56")
    player = club.client(table_token(club, "players"), source="127.0.0.57")
    organiser = club.organiser("127.0.0.58")
    with evening.stream("GET", "/api/evening/events") as stream:
        evenings = told(stream)
        first = next(evenings)
        assert "board" in first["tables"][0] and len(first["catalogs"]) == 1 and first["standings"]["season"] == TAG
        view = player.get(f"/api/games/{TABLE}").json()
        entered = player.post(f"/api/games/{TABLE}/inputs", json={"input": view["legal"]["options"][0], "after": view["head"]})
        assert entered.status_code == 200, entered.text
        moved = next(evenings)
        assert moved["tables"][0]["board"]["at"] == 7 and moved["catalogs"] == {} and "standings" not in moved
        players = [{"name": "Rui", "color": "red"}, {"name": "Sara", "color": "blue"}]
        assert organiser.post("/api/tables", json={"players": players}, headers={"Origin": club.url}).status_code == 200
        started = next(evenings)
        assert [("board" in t) for t in started["tables"]] == [False, True] and started["standings"]["season"] == TAG
        assert set(started["catalogs"]) == {t["catalog"] for t in started["tables"]} - set(first["catalogs"])  # a new one only


def test_a_restart_keeps_the_evenings_link_and_new_links_replace_it(club: Served, serve: Callable[..., Served]) -> None:
    assert club.stop() == 0, club.log()
    again = serve("--tag", TAG)
    assert again.line["evening_token"] == club.line["evening_token"]
    assert again.stop() == 0, again.log()
    renewed = serve("--new-links")
    assert renewed.line["evening_token"] != club.line["evening_token"]
    assert renewed.client(club.line["evening_token"], source="127.0.0.59").get("/api/evening").status_code == 401
    assert renewed.client(renewed.line["evening_token"], source="127.0.0.59").get("/api/evening").status_code == 200
    assert renewed.stop() == 0, renewed.log()
    alone = serve(TABLE)
    assert "evening_url" not in alone.line
    assert alone.client(alone.watchers, source="127.0.0.60").get("/api/evening").status_code == 404
