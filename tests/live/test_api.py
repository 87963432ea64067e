"""The live table's HTTP API through a real server (docs/serve.md): each answer it documents."""

from __future__ import annotations

from typing import Iterator

import httpx
import orjson

from tests.live.conftest import SETUP_ENTRIES, Served, coimbra, fixture_inputs, stream_events

INPUTS = fixture_inputs()


def test_the_game_as_every_page_reads_it(table_game: Served) -> None:
    answer = table_game.client(table_game.watchers).get(table_game.api())
    assert answer.headers["Cache-Control"] == "no-store"
    view = answer.json()
    assert view["game"] == "table" and view["events"] == SETUP_ENTRIES == len(view["entries"])
    assert [e["seq"] for e in view["entries"]] == list(range(1, SETUP_ENTRIES + 1))
    assert view["entries"][-1]["head"] == view["head"]
    assert view["due"]["player"] == view["legal"]["pending"]["actor"]
    assert view["legal"]["options"] and len(view["legal"]["described"]) == len(view["legal"]["options"])
    assert view["table"]["at"] == SETUP_ENTRIES and view["table"]["players"]
    assert [p["name"] for p in view["players"]] == [p["name"] for p in view["table"]["players"]]


def test_an_input_is_stored_and_answered_with_its_entries(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    head = client.get(table_game.api()).json()["head"]
    seq = client.get(table_game.api()).json()["events"] + 1
    answer = client.post(table_game.api("/inputs"), json={"input": INPUTS[seq - 1], "after": head[:12], "by": "Ana's phone"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    [entry] = body["entries"]
    assert entry["seq"] == seq and entry["by"] == "Ana's phone" and entry["head"] == body["head"] != head
    assert entry["changes"], "what the entry did on the table"
    assert client.get(table_game.api(), params={"since": seq - 1}).json()["entries"] == [entry]


def test_a_stale_head_stores_nothing_and_says_what_changed(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    view = client.get(table_game.api()).json()
    stale = view["entries"][-2]["head"]
    answer = client.post(table_game.api("/inputs"), json={"input": INPUTS[view["events"]], "after": stale})
    assert answer.status_code == 409
    assert answer.json()["head"] == view["head"] and answer.json()["entries"] == view["entries"][-1:]
    assert client.get(table_game.api()).json()["events"] == view["events"]


def test_a_rule_violation_is_422_with_its_rule(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    view = client.get(table_game.api()).json()
    answer = client.post(table_game.api("/inputs"), json={"input": "pass", "after": view["head"]})
    assert answer.status_code in (400, 422)
    illegal = [o for o in INPUTS if o.split(":")[0] != view["due"]["player"] and ":" in o and not o.startswith("table")]
    answer = client.post(table_game.api("/inputs"), json={"input": illegal[0], "after": view["head"]})
    assert answer.status_code == 422, answer.text
    assert answer.json()["rule"] and answer.json()["reason"] and "facts" in answer.json()
    assert answer.json()["error"].startswith("refused '") and answer.json()["error"].endswith("nothing stored")


def test_unreadable_input_is_400_in_one_line(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    head = client.get(table_game.api()).json()["head"]
    for body in ({"input": "fly to the moon", "after": head}, {"input": "pass"}, {"after": head}, [1, 2]):
        answer = client.post(table_game.api("/inputs"), content=orjson.dumps(body), headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, (body, answer.text)
        assert "\n" not in answer.json()["error"] and answer.headers["Cache-Control"] == "no-store"


def test_several_inputs_are_stored_all_or_none(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    view = client.get(table_game.api()).json()
    k = view["events"]
    refused = client.post(table_game.api("/inputs"), json={"inputs": [INPUTS[k], INPUTS[k]], "after": view["head"]})
    assert refused.status_code == 422 and client.get(table_game.api()).json()["events"] == k
    stored = client.post(table_game.api("/inputs"), json={"inputs": INPUTS[k:k + 2], "after": view["head"]})
    assert stored.status_code == 200 and [e["seq"] for e in stored.json()["entries"]] == [k + 1, k + 2]
    assert client.post(table_game.api("/inputs"), json={"inputs": [], "after": view["head"]}).status_code == 400


def test_another_game_than_the_one_served_is_404(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    assert client.get("/api/games/other").status_code == 404
    assert client.post("/api/games/other/inputs", json={"input": "pass", "after": "0" * 12}).status_code == 404


def test_undo_withdraws_one_play_even_when_two_devices_undo(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    view = client.get(table_game.api()).json()
    first = client.post(table_game.api("/undo"), json={"after": view["head"], "by": "Bruno"})
    second = client.post(table_game.api("/undo"), json={"after": view["head"], "by": "Carla"})
    assert (first.status_code, second.status_code) == (200, 409), (first.text, second.text)
    assert first.json()["entries"][0]["type"] == "Retracted"


def test_an_accepted_rule_break_carries_the_head_too(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    view = client.get(table_game.api()).json()
    stale = client.post(table_game.api("/accept"), json={"input": "pass", "reason": "we agreed", "after": view["entries"][-2]["head"]})
    assert stale.status_code == 409 and client.get(table_game.api()).json()["events"] == view["events"]


def test_a_note_on_an_entry(table_game: Served) -> None:
    client = table_game.client(table_game.players)
    answer = client.post(table_game.api("/notes"), json={"at": 1, "text": "monasteries as dealt"})
    assert answer.status_code == 200 and answer.json()["entries"][0]["type"] == "Noted"


def test_an_entry_recorded_by_the_cli_reaches_the_stream(table_game: Served) -> None:
    client = table_game.client(table_game.watchers)
    view = client.get(table_game.api()).json()
    due = view["legal"]["options"][0]
    with client.stream("GET", table_game.api("/events"), headers={"Last-Event-ID": str(view["events"])}) as stream:
        acted = coimbra(table_game.db, "act", table_game.game, due, "--after", view["head"])
        assert acted.returncode == 0, acted.stderr
        event = next(events(stream))
    assert event["id"] == str(view["events"] + 1) and event["data"]["notation"] == due


def test_a_page_that_slept_catches_up_from_the_last_entry_it_saw(table_game: Served) -> None:
    player = table_game.client(table_game.players)
    view = player.get(table_game.api()).json()
    seen = view["events"]
    for _ in range(3):  # recorded while the page slept
        now = player.get(table_game.api()).json()
        answer = player.post(table_game.api("/inputs"), json={"input": now["legal"]["options"][0], "after": now["head"]})
        assert answer.status_code == 200, answer.text
    watcher = table_game.client(table_game.watchers)
    with watcher.stream("GET", table_game.api("/events"), headers={"Last-Event-ID": str(seen)}) as stream:
        told = events(stream)
        caught_up = [next(told) for _ in range(3)]
    assert [int(e["id"]) for e in caught_up] == [seen + 1, seen + 2, seen + 3]
    assert caught_up[-1]["data"]["head"] == player.get(table_game.api()).json()["head"]
    with watcher.stream("GET", table_game.api("/events"), params={"last": seen + 2}) as stream:  # a fresh page: ?last=
        assert next(events(stream)) == caught_up[-1]
    with watcher.stream("GET", table_game.api("/events")) as stream:  # from the first entry
        assert next(events(stream))["data"] == view["entries"][0]


def test_every_open_stream_is_told_each_new_entry(table_game: Served) -> None:
    player = table_game.client(table_game.players)
    view = player.get(table_game.api()).json()
    clients = [table_game.client(t) for t in (table_game.players, table_game.watchers, table_game.watchers)]
    streams = [c.stream("GET", table_game.api("/events"), params={"last": view["events"]}) for c in clients]
    opened = [s.__enter__() for s in streams]
    try:
        answer = player.post(table_game.api("/inputs"), json={"input": view["legal"]["options"][0], "after": view["head"]})
        told = [next(events(s))["data"] for s in opened]
        assert [{k: v for k, v in t.items() if k != "view"} for t in told] == answer.json()["entries"] * 3
    finally:
        for s in streams:
            s.__exit__(None, None, None)


def test_the_newest_entry_comes_with_the_view_after_it(table_game: Served) -> None:
    """A page holding the view before draws the entry from the stream alone: the view after it, its table only the
    parts that changed since the head before, and the latest play with the seat whose phone may withdraw it."""
    player = table_game.client(table_game.players)
    before = player.get(table_game.api()).json()
    with player.stream("GET", table_game.api("/events"), params={"last": before["events"]}) as stream:
        player.post(table_game.api("/inputs"), json={"input": before["legal"]["options"][0], "after": before["head"]})
        update = next(events(stream))["data"]["view"]
    after = player.get(table_game.api()).json()
    assert update["after"] == before["head"] and update["head"] == after["head"] and update["events"] == after["events"]
    assert {**before["table"], **update["table"]} == after["table"]
    assert len(update["table"]) < len(after["table"])  # only what changed
    assert {k: update[k] for k in ("due", "legal", "over", "scores", "outcome_form")} == \
        {k: after[k] for k in ("due", "legal", "over", "scores", "outcome_form")}
    assert "catalog" not in update and "entries" not in update
    undo = {k: v for k, v in after["undo"].items() if k != "yours"}
    assert update["undo"] == {**undo, "seat": after["undo"]["player"]}


def events(stream: httpx.Response) -> Iterator[dict]:
    """The events of a stream as they come (``id``, ``event``, ``data`` read as JSON), comments and pings skipped
    (a ping, every ``stream.PING`` seconds, says only that the stream is alive: a slow ``act`` lets one come first)."""
    for fields in stream_events(stream):
        if "data" in fields and fields.get("event") != "ping":
            yield {**fields, "data": orjson.loads(fields["data"])}


def test_entries_and_options_are_said_in_words_beside_their_notation(fixture_game) -> None:
    """The page's words (``text``): a die by its colour and the value it shows, cards by printed name; the
    notation stays in ``notation`` (and what ``record`` reads in ``typed``)."""
    from coimbra_events.catalog import standin_catalog

    roll = next(k for k, line in enumerate(INPUTS) if line.startswith("table: roll"))
    served = fixture_game(roll + 1, "words")
    client = served.client(served.players)
    view = client.get(served.api()).json()
    groups = view["entries"][SETUP_ENTRIES - 1]
    assert groups["notation"].startswith("table: groups c-I-") and "c-I-" not in groups["text"]
    assert groups["text"].startswith("Table: deal the start groups: 1: ")
    place = next(o for o in view["legal"]["described"] if o["notation"] == INPUTS[roll + 1])
    die, where = INPUTS[roll + 1].split(" ")[-2:]
    value = dict(pair.split("=") for pair in INPUTS[roll].split(" ")[2:])[die]
    said = f"place the {standin_catalog().die_colors[die]} die showing {value} in the"
    assert place["text"].startswith(said) and place["typed"] == f"place {die} {where}" and place["about"]
    answer = client.post(served.api("/inputs"), json={"input": INPUTS[roll + 1], "after": view["head"]})
    [entry] = answer.json()["entries"]
    assert entry["text"] == f"{INPUTS[roll + 1].split(':')[0]}: {place['text']}" and entry["notation"] == INPUTS[roll + 1]
    again = fixture_game(roll + 2, "words-read")  # the same entry, read from the store when served
    assert again.client(again.players).get(again.api()).json()["entries"][-1]["text"] == entry["text"]
