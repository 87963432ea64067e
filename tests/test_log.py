"""JSON log v1: canonical writing, and precise errors for every kind of bad input."""

from __future__ import annotations

import orjson
import pytest

from coimbra_events import log as game_log
from coimbra_events.log import LogError
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate


@pytest.fixture(scope="module")
def game(catalog):
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:2], 11)
    return log


def _doc(log):
    return orjson.loads(game_log.dumps(log))


def _resign(doc):
    prev = game_log.header_hash({k: v for k, v in doc.items() if k != "events"})
    for e in doc["events"]:
        e["hash"] = prev = game_log.event_hash(prev, e["seq"], e["type"], e["actor"], e["payload"])
    return orjson.dumps(doc)


def _problems(data: bytes) -> list[str]:
    with pytest.raises(LogError) as info:
        game_log.loads(data, "game.json")
    assert str(info.value).startswith("game.json: ")
    assert "\n" not in str(info.value)
    return [str(p) for p in info.value.problems]


def test_canonical_form_is_one_event_per_line(game):
    lines = game_log.dumps(game).decode().splitlines()
    assert lines[0].startswith('{"format":"coimbra-log","schema":1,')
    assert len(lines) == len(game.events) + 2
    assert all(line.startswith('{"seq":') for line in lines[1:-1])


def test_header_carries_versions_and_catalog_identity(game, catalog):
    head = _doc(game)
    assert head["schema"] == game_log.SCHEMA and head["ruleset"]
    assert head["catalog"] == {"id": catalog.id, "sha256": catalog.sha256}


def test_malformed_json_names_the_position():
    [problem] = _problems(b'{"format": "coimbra-log", "schema": 1,, }')
    assert "malformed JSON" in problem and "line 1" in problem


def test_unknown_event_type_names_its_sequence_number(game):
    doc = _doc(game)
    doc["events"][4]["type"] = "DragonSummoned"
    assert _problems(_resign(doc)) == ["event 5: unknown event type: 'DragonSummoned'"]


def test_bad_payload_names_the_field(game):
    doc = _doc(game)
    doc["events"][0]["payload"]["placement"] = 7
    [problem] = _problems(_resign(doc))
    assert problem.startswith("event 1: bad MonasteriesDrawn payload") and "placement" in problem


def test_missing_and_unexpected_payload_fields(game):
    doc = _doc(game)
    doc["events"][2]["payload"] = {"cards": []}
    [problem] = _problems(_resign(doc))
    assert "missing ['voyages']" in problem and "unexpected ['cards']" in problem


def test_random_outcome_must_come_from_the_table(game):
    doc = _doc(game)
    doc["events"][3]["actor"] = "Ana"
    [problem] = _problems(_resign(doc))
    assert problem.startswith("event 4:") and "actor must be 'table'" in problem


@pytest.mark.parametrize("field, value, expected", [
    ("type", ["DiePlaced"], "event 4: unknown event type: ['DiePlaced']"),
    ("type", 7, "event 4: unknown event type: 7"),
    ("actor", 7, "event 4: bad SeatingDrawn payload: actor must be a non-empty string, got 7"),
    ("actor", None, "event 4: bad SeatingDrawn payload: actor must be a non-empty string, got None"),
])
def test_a_type_or_actor_that_is_not_a_string_is_bad_input(game, field, value, expected):
    doc = _doc(game)
    assert doc["events"][3]["type"] == "SeatingDrawn"
    doc["events"][3][field] = value
    assert _problems(_resign(doc)) == [expected]


def test_an_event_with_other_keys_is_a_bad_event(game):
    doc = _doc(game)
    doc["events"][1]["sequence"] = doc["events"][1].pop("seq")
    doc["events"][2]["extra"] = 1
    assert _problems(orjson.dumps(doc))[:2] == [
        "event 2: bad event: expected an object with seq, type, actor, payload, hash",
        "event 3: bad event: expected an object with seq, type, actor, payload, hash",
    ]


def test_tampered_event_breaks_the_chain_at_that_event_only(game):
    doc = _doc(game)
    doc["events"][10]["payload"] = dict(doc["events"][10]["payload"])
    doc["events"][10]["actor"] = "Bruno" if doc["events"][10]["actor"] == "Ana" else "Ana"
    problems = _problems(orjson.dumps(doc))
    assert problems == ["event 11: hash chain broken: the event does not match its recorded hash (changed, inserted or removed after recording)"]


def test_tampered_header_breaks_the_first_link(game):
    doc = _doc(game)
    doc["players"][0]["color"] = "purple"
    assert _problems(orjson.dumps(doc))[0].startswith("event 1: hash chain broken")


def test_deleted_event_is_reported_with_sequence_numbers(game):
    doc = _doc(game)
    del doc["events"][5]
    problems = _problems(orjson.dumps(doc))
    assert problems[0].startswith("event 6: sequence broken: expected seq 6, found 7")


@pytest.mark.parametrize("schema", [0, 2, "1", None])
def test_unsupported_schema_versions_are_refused(game, schema):
    doc = _doc(game)
    doc["schema"] = schema
    [problem] = _problems(orjson.dumps(doc))
    assert "unsupported schema version" in problem


def test_not_a_log(game):
    assert "not a coimbra log" in _problems(b"[1, 2, 3]")[0]


def test_unknown_header_field(game):
    doc = _doc(game)
    doc["extra"] = 1
    assert "unknown header fields: extra" in _problems(orjson.dumps(doc))[0]


def test_missing_file_is_a_log_error(tmp_path):
    with pytest.raises(LogError, match="cannot read file"):
        game_log.read(tmp_path / "nope.json")


def test_write_is_atomic_and_canonical(tmp_path, game):
    path = tmp_path / "g.json"
    game_log.write(path, game)
    assert path.read_bytes() == game_log.dumps(game)
    assert not list(tmp_path.glob("*.tmp"))
