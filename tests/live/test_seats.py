"""Seats through a real ``coimbra serve`` on loopback: each phone claims its seats, enters only their decisions and
the table's outcomes, withdraws only its seats' latest play, is told when its seat is taken over; claims outlive a
restart. The phones are httpx clients naming their device (``X-Coimbra-Device``), as the page does."""

from __future__ import annotations

from hashlib import sha256
from typing import Callable

import httpx
import orjson

from cli.live.api import DEVICE
from tests.live.conftest import SETUP_ENTRIES, Served, fixture_inputs

ANA, BRUNO, TABLE = "phone-of-ana-0001", "phone-of-bruno-001", "phone-of-the-table"


def phone(served: Served, device: str | None) -> httpx.Client:
    """A players' page on its own phone (``device``: its id; ``None``: a client naming no phone, the scribe)."""
    client = served.client(served.players)
    if device is not None:
        client.headers[DEVICE] = device
    return client


def claim(client: httpx.Client, served: Served, seat: str, take_over: bool = False) -> httpx.Response:
    return client.post(served.api("/seats"), json={"seat": seat, "take_over": take_over})


def enter(client: httpx.Client, served: Served, text: str) -> httpx.Response:
    return client.post(served.api("/inputs"), json={"input": text, "after": client.get(served.api()).json()["head"]})


def test_a_held_seat_is_taken_over_only_when_the_claim_says_so_and_the_first_phone_is_told(
        fixture_game: Callable[..., Served]) -> None:
    served = fixture_game(SETUP_ENTRIES, "seats-taken")
    ana, other = phone(served, ANA), phone(served, BRUNO)
    assert claim(ana, served, "Ana").json() == {"seat": "Ana", "took_over": False}
    assert claim(ana, served, "Bruno").status_code == 200  # a phone may play several seats
    view = ana.get(served.api()).json()
    assert view["you"] == ["Ana", "Bruno"]
    assert [s for s in view["seats"] if s["player"] == "Ana"] == [{"player": "Ana", "held": True, "yours": True}]
    taken = claim(other, served, "Ana")
    assert taken.status_code == 409 and taken.json()["holder"] == ["Ana", "Bruno"]
    assert taken.json()["error"].startswith("Ana is played from another phone (the one that plays Ana and Bruno)")
    assert ana.get(served.api()).json()["you"] == ["Ana", "Bruno"]  # nothing changed
    with ana.stream("GET", served.api("/events"), headers={"Last-Event-ID": str(view["events"])}) as stream:
        assert claim(other, served, "Ana", take_over=True).json() == {"seat": "Ana", "took_over": True}
        told = next(line for line in stream.iter_lines() if line.startswith("event:"))
    assert told == "event: seat"
    assert ana.get(served.api()).json()["you"] == ["Bruno"] and other.get(served.api()).json()["you"] == ["Ana"]
    assert other.post(served.api("/seats"), json={"seat": "Ana", "release": True}).json() == {"released": True}
    assert not [s for s in other.get(served.api()).json()["seats"] if s["held"] and s["player"] == "Ana"]


def test_a_claim_names_a_seat_of_the_game_and_comes_from_a_phone_of_the_players(fixture_game: Callable[..., Served]) -> None:
    served = fixture_game(SETUP_ENTRIES, "seats-claims")
    unknown = claim(phone(served, ANA), served, "Zoe")
    assert unknown.status_code == 400 and "no seat 'Zoe'" in unknown.json()["error"]
    nameless = claim(phone(served, None), served, "Ana")
    assert nameless.status_code == 400 and DEVICE in nameless.json()["error"]
    bad = phone(served, ANA)
    bad.headers[DEVICE] = "short"
    assert claim(bad, served, "Ana").status_code == 400
    watcher = served.client(served.watchers)
    watcher.headers[DEVICE] = ANA
    assert claim(watcher, served, "Ana").status_code == 403  # watchers never claim


def test_a_phone_enters_its_own_seats_decisions_and_the_tables_outcomes_only(fixture_game: Callable[..., Served]) -> None:
    served = fixture_game(SETUP_ENTRIES, "seats-inputs")
    inputs = fixture_inputs()[SETUP_ENTRIES:]
    bruno, ana, table, scribe = phone(served, BRUNO), phone(served, ANA), phone(served, TABLE), phone(served, None)
    assert claim(ana, served, "Ana").status_code == 200
    unclaimed = enter(ana, served, inputs[0])  # Bruno is due and no phone holds his seat
    assert unclaimed.status_code == 403 and unclaimed.json()["player"] == "Bruno"
    assert "no phone holds Bruno's seat: claim it first" in unclaimed.json()["error"]
    assert claim(bruno, served, "Bruno").status_code == 200
    held = enter(ana, served, inputs[0])
    assert held.status_code == 403 and "Bruno's seat is held by another phone" in held.json()["error"]
    assert enter(bruno, served, inputs[0]).status_code == 200
    assert ana.get(served.api()).json()["events"] == SETUP_ENTRIES + 1  # nothing of the refused ones was stored
    assert enter(ana, served, inputs[1]).status_code == 200
    mixed = ana.post(served.api("/inputs"), json={"inputs": inputs[2:4], "after": ana.get(served.api()).json()["head"]})
    assert mixed.status_code == 403 and mixed.json()["player"] == "Carla"  # all or none
    assert enter(scribe, served, inputs[2]).status_code == 200  # a client naming no phone is the table's scribe
    assert enter(table, served, inputs[3]).status_code == 403


def test_undo_is_the_latest_plays_seats_or_any_phones_for_the_tables_outcome(fixture_game: Callable[..., Served]) -> None:
    served = fixture_game(SETUP_ENTRIES + 1, "seats-undo")  # Bruno's pilgrim is the latest play
    bruno, ana, table = phone(served, BRUNO), phone(served, ANA), phone(served, TABLE)
    claim(bruno, served, "Bruno")
    claim(ana, served, "Ana")

    def undo(client: httpx.Client) -> httpx.Response:
        return client.post(served.api("/undo"), json={"after": client.get(served.api()).json()["head"]})

    view = ana.get(served.api()).json()
    assert view["undo"]["seq"] == SETUP_ENTRIES + 1 and view["undo"]["player"] == "Bruno"
    assert view["undo"]["yours"] is False and bruno.get(served.api()).json()["undo"]["yours"] is True
    assert view["undo"]["text"].startswith("Bruno")
    refused = undo(ana)
    assert refused.status_code == 403
    assert refused.json()["error"] == (f"not withdrawn: entry {SETUP_ENTRIES + 1} is Bruno's, and only the phone that "
                                       "holds Bruno's seat withdraws it")
    assert undo(bruno).status_code == 200
    latest = table.get(served.api()).json()["undo"]  # now the table's last setup outcome: any phone withdraws it
    assert latest["player"] == "table" and latest["yours"] is True
    assert undo(table).status_code == 200


def test_never_an_undo_at_game_over_from_the_api(fixture_game: Callable[..., Served]) -> None:
    served = fixture_game(len(fixture_inputs()), "seats-over")
    player, scribe = phone(served, ANA), phone(served, None)
    view = player.get(served.api()).json()
    assert view["over"] and view["undo"] is None
    for client in (player, scribe):
        refused = client.post(served.api("/undo"), json={"after": view["head"]})
        assert refused.status_code == 403 and refused.json()["error"].startswith("not withdrawn: the game is over")
    assert player.get(served.api()).json()["events"] == view["events"]


def test_a_restart_keeps_the_claims(fixture_game: Callable[..., Served], serve) -> None:
    first = fixture_game(SETUP_ENTRIES, "seats-restart")
    assert claim(phone(first, ANA), first, "Ana").status_code == 200
    assert first.stop() == 0, first.log()
    again = serve(first.game)
    assert phone(again, ANA).get(again.api()).json()["you"] == ["Ana"]
    assert claim(phone(again, BRUNO), again, "Ana").status_code == 409
    kept = [orjson.loads(f.read_bytes()) for f in serve.db.parent.glob("games.sqlite.links/*.seats")]
    assert {"Ana": sha256(ANA.encode()).hexdigest()} in kept  # a digest of the phone's id, never the id
    assert not [k for k in kept if ANA in str(k) or BRUNO in str(k)]
