"""The JSON log, schema 2: canonical writing, precise errors for every kind of bad input, stamps, upcasting."""

from __future__ import annotations


import orjson
import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.log import LogError
from coimbra_events.record import replace
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from tests.conftest import FIXTURES


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
        log_reader.loads(data, "game.json")
    assert str(info.value).startswith("game.json: ")
    assert "\n" not in str(info.value)
    return [str(p) for p in info.value.problems]


def test_canonical_form_is_one_event_per_line(game):
    lines = game_log.dumps(game).decode().splitlines()
    assert lines[0].startswith('{"format":"coimbra-log","schema":2,')
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
        "event 2: bad event: expected an object with seq, type, actor, payload, hash (and at, by)",
        "event 3: bad event: expected an object with seq, type, actor, payload, hash (and at, by)",
    ]


def test_tampered_event_breaks_the_chain_at_that_event_only(game):
    doc = _doc(game)
    doc["events"][10]["payload"] = dict(doc["events"][10]["payload"])
    doc["events"][10]["actor"] = "Bruno" if doc["events"][10]["actor"] == "Ana" else "Ana"
    problems = _problems(orjson.dumps(doc))
    assert problems == ["event 11: hash chain broken: the event does not match its recorded hash "
                        "(changed, inserted or removed after recording)"]


def test_tampered_header_breaks_the_first_link(game):
    doc = _doc(game)
    doc["players"][0]["color"] = "purple"
    assert _problems(orjson.dumps(doc))[0].startswith("event 1: hash chain broken")


def test_deleted_event_is_reported_with_sequence_numbers(game):
    doc = _doc(game)
    del doc["events"][5]
    problems = _problems(orjson.dumps(doc))
    assert problems[0].startswith("event 6: sequence broken: expected seq 6, found 7")


@pytest.mark.parametrize("schema", [0, 3, "1", None])
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
        log_reader.read(tmp_path / "nope.json")


def test_write_is_atomic_and_canonical(tmp_path, game):
    path = tmp_path / "g.json"
    game_log.write(path, game)
    assert path.read_bytes() == game_log.dumps(game)
    assert not list(tmp_path.glob("*.tmp"))


# --- reading is total: limits, keys given twice, a strict header, problems named where they are


def test_a_missing_file_or_a_folder_is_the_file_s_problem_not_the_header_s(tmp_path):
    for path, why in ((tmp_path / "nope.json", "No such file or directory"), (tmp_path, "Is a directory")):
        with pytest.raises(LogError) as info:
            log_reader.read(path)
        assert [str(p) for p in info.value.problems] == [f"cannot read file: {why}"]


def test_an_empty_file_is_malformed_json_not_a_broken_hash():
    [problem] = _problems(b"")
    assert problem.startswith("malformed JSON")


def test_a_log_larger_than_the_limit_is_refused_before_it_is_parsed():
    too_large = f"too large: more than {log_reader.MAX_BYTES:,} bytes (a whole game is under 100,000)"
    assert _problems(b" " * (log_reader.MAX_BYTES + 1)) == [too_large]


def _nested(levels: int) -> object:
    value: object = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.parametrize("levels", [253, 300, 1020])
def test_json_nested_deeper_than_the_limit_is_refused_where_it_is(game, levels):
    """orjson reads 1,024 levels but writes only 254: nothing nested beyond the limit is hashed."""
    doc = _doc(game)
    doc["events"][4]["payload"]["order"] = "PLACEHOLDER"
    data = orjson.dumps(doc).replace(b'"PLACEHOLDER"', b"[" * levels + b"]" * levels)
    assert _problems(data) == [f"event 5: nested too deeply: objects and lists may nest at most {log_reader.MAX_DEPTH} levels"]
    doc = _doc(game)
    doc["meta"] = {"notes": "PLACEHOLDER"}
    data = orjson.dumps(doc).replace(b'"PLACEHOLDER"', b"[" * levels + b"]" * levels)
    assert _problems(data) == [f"header: nested too deeply: objects and lists may nest at most {log_reader.MAX_DEPTH} levels"]


def test_json_nested_just_within_the_limit_in_meta_is_read(game):
    doc = _doc(game)
    doc["meta"] = {"deep": _nested(log_reader.MAX_DEPTH - 2)}  # the log object and meta hold it
    assert log_reader.loads(_resign(doc)).meta["deep"] == doc["meta"]["deep"]
    doc["meta"] = {"deep": _nested(log_reader.MAX_DEPTH - 1)}
    assert _problems(_resign(doc)) == [f"header: nested too deeply: objects and lists may nest at most {log_reader.MAX_DEPTH} levels"]


def test_beyond_what_orjson_reads_is_too_deep_too():
    assert _problems(b"[" * 1100 + b"]" * 1100) == [f"nested too deeply: objects and lists may nest at most {log_reader.MAX_DEPTH} levels"]


@pytest.mark.parametrize("pretty", [False, True])
def test_a_key_given_twice_is_refused_with_its_event(game, pretty):
    """orjson would keep the last value silently: the first actor would vanish unseen."""
    data = game_log.dumps(game)
    if pretty:
        data = orjson.dumps(orjson.loads(data), option=orjson.OPT_INDENT_2)
    sep = b'": "' if pretty else b'":"'
    line = b'"actor' + sep + b'table"'
    data = data.replace(line, b'"actor' + sep + b'Ana", ' + line, 1)
    assert _problems(data) == ["event 1: key given twice: ['actor'] in one object; a reader would keep only the last value"]


def test_a_key_given_twice_in_the_header_or_a_payload_map(game):
    data = game_log.dumps(game).replace(b'"ruleset":', b'"ruleset":"other","ruleset":', 1)
    assert _problems(data)[0] == "header: key given twice: ['ruleset'] in one object; a reader would keep only the last value"
    data = game_log.dumps(game)
    k = data.index(b'"values":{') + len(b'"values":{')
    die = data[k:data.index(b",", k)]
    data = data[:k] + die + b"," + data[k:]
    seq = orjson.loads(data[data.rindex(b"\n", 0, k) + 1:data.index(b"\n", k)].rstrip(b","))["seq"]
    assert f"event {seq}: key given twice" in _problems(data)[0]


def test_a_pretty_printed_log_without_repeated_keys_reads_as_the_canonical_one(game):
    data = orjson.dumps(orjson.loads(game_log.dumps(game)), option=orjson.OPT_INDENT_2)
    assert game_log.dumps(log_reader.loads(data)) == game_log.dumps(game)


def test_unknown_keys_anywhere_in_the_header_are_refused(game):
    doc = _doc(game)
    doc["catalog"]["edition"] = "second"
    assert _problems(orjson.dumps(doc)) == ['header: bad catalog identity: expected exactly {"id": str, "sha256": str}']
    doc = _doc(game)
    doc["players"][0]["seat"] = 1
    assert _problems(orjson.dumps(doc))[0].startswith("header: bad players")


def test_a_boolean_is_not_a_sequence_number(game):
    doc = _doc(game)
    doc["events"][0]["seq"] = True
    assert _problems(orjson.dumps(doc)) == ["event 1: sequence broken: expected seq 1, found True"]


def test_a_huge_bad_value_is_quoted_short(game):
    doc = _doc(game)
    doc["events"][3]["payload"]["order"] = "x" * 1_000_000
    [problem] = _problems(_resign(doc))
    assert len(problem) < 200 and "must be a list of strings" in problem


def test_problems_are_listed_in_file_order(game):
    doc = _doc(game)
    doc["events"][9]["hash"] = "0" * 64
    doc["events"][2]["payload"] = {}
    seqs = [p.split(":")[0] for p in _problems(orjson.dumps(doc))]
    assert seqs == sorted(seqs, key=lambda s: int(s.split()[1])) and seqs[0] == "event 3"


def test_a_write_never_follows_a_symlink_left_where_a_temporary_file_could_be(tmp_path, game):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "g.json.tmp").symlink_to(victim)
    for name in ("g.json", "victim-link.json"):
        game_log.write(tmp_path / name, game)
    assert victim.read_text() == "keep me"
    (tmp_path / "out.json").symlink_to(victim)
    game_log.write(tmp_path / "out.json", game)  # the link is replaced by the log, its target left alone
    assert victim.read_text() == "keep me" and not (tmp_path / "out.json").is_symlink()
    assert log_reader.read(tmp_path / "out.json") == game


def test_a_write_keeps_the_file_s_permissions_and_leaves_no_temporary_file(tmp_path, game):
    path = tmp_path / "g.json"
    path.write_text("old")
    path.chmod(0o640)
    game_log.write(path, game)
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, game, monkeypatch):
    import os

    path = tmp_path / "g.json"
    path.write_bytes(b"old")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError):
        game_log.write(path, game)
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


# --- schema 2: when and by whom each entry was entered, in the chain -----------------------------

AT = "2026-05-01T19:04:11Z"


def stamped(log, **by_entry):
    """The log with entry k stamped ``(AT, name)`` for each ``e<k>=name``."""
    stamps = [game_log.NO_STAMP] * len(log.events)
    for key, who in by_entry.items():
        stamps[int(key[1:]) - 1] = (AT, who)
    return log.with_events(log.events, stamps)


def test_stamps_are_written_after_the_payload_and_read_back(game):
    log = stamped(game, e1="Ana", e7="Bruno")
    data = game_log.dumps(log)
    lines = data.decode().splitlines()
    assert lines[1].endswith(f',"at":"{AT}","by":"Ana","hash":"{log.hashes()[0]}"}},')
    assert '"at"' not in lines[2]
    again = log_reader.loads(data)
    assert again.stamps[0] == (AT, "Ana") and again.stamps[6] == (AT, "Bruno") and again.stamps[1] == ("", "")
    assert game_log.dumps(again) == data


def test_an_entry_without_stamp_hashes_as_schema_1_hashed_it(game):
    assert stamped(game, e2="Ana").hashes()[0] == game.hashes()[0]
    assert stamped(game, e2="Ana").hashes()[1] != game.hashes()[1]


@pytest.mark.parametrize("field, value", [("at", "2026-05-01T19:04:12Z"), ("by", "Mallory")])
def test_changing_when_or_by_whom_breaks_the_chain(game, field, value):
    doc = orjson.loads(game_log.dumps(stamped(game, e3="Ana")))
    doc["events"][2][field] = value
    assert _problems(orjson.dumps(doc)) == [
        "event 3: hash chain broken: the event does not match its recorded hash (changed, inserted or removed after recording)"]


def test_removing_a_stamp_breaks_the_chain(game):
    doc = orjson.loads(game_log.dumps(stamped(game, e3="Ana")))
    del doc["events"][2]["by"]
    assert _problems(orjson.dumps(doc))[0].startswith("event 3: hash chain broken")


@pytest.mark.parametrize("at", ["2026-05-01 19:04:11", "2026-13-01T19:04:11Z", "yesterday", 5, ""])
def test_a_time_that_is_not_utc_iso_8601_is_refused(game, at):
    doc = orjson.loads(game_log.dumps(stamped(game, e3="Ana")))
    doc["events"][2]["at"] = at
    assert "event 3: bad at: expected a UTC time like 2026-05-01T19:04:11Z" in _problems(_resign_stamped(doc))[0]


def _resign_stamped(doc):
    prev = game_log.header_hash({k: v for k, v in doc.items() if k != "events"})
    for e in doc["events"]:
        e["hash"] = prev = game_log.event_hash(prev, e["seq"], e["type"], e["actor"], e["payload"], e.get("at", ""), e.get("by", ""))
    return orjson.dumps(doc)


def test_a_schema_1_log_is_upcast_keeping_every_hash():
    """The shipped fixtures are schema 1: read, they say so, and written as schema 2 their chain is the same."""
    data = (FIXTURES / "games" / "standin-3p-seed2.json").read_bytes()
    doc = orjson.loads(data)
    assert doc["schema"] == 1
    log = log_reader.loads(data)
    assert log.upcast_from == 1 and log.stamps == ()
    assert log.with_events(log.events).hashes() == [e["hash"] for e in doc["events"]]  # worked out, not as read
    rewritten = orjson.loads(game_log.dumps(log))
    assert rewritten["schema"] == 2 and rewritten["upcast_from"] == 1
    assert [e["hash"] for e in rewritten["events"]] == [e["hash"] for e in doc["events"]]
    assert log_reader.loads(game_log.dumps(log)) == log


def test_the_upcaster_is_what_reads_schema_1(monkeypatch):
    data = (FIXTURES / "games" / "standin-2p-seed1.json").read_bytes()
    monkeypatch.setattr(log_reader, "UPCASTERS", {})
    with pytest.raises(KeyError):
        log_reader.loads(data)


def test_claiming_another_first_schema_breaks_the_chain():
    doc = orjson.loads(game_log.dumps(log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json")))
    del doc["upcast_from"]
    assert _problems(orjson.dumps(doc))[0].startswith("event 1: hash chain broken")


@pytest.mark.parametrize("change, problem", [
    (lambda doc: doc["events"][0].update(at=AT), "not a schema 1 log: event 1 has 'at' or 'by'"),
    (lambda doc: doc.update(upcast_from=1), "not a schema 1 log: unknown header fields: upcast_from"),
])
def test_a_schema_1_log_has_no_schema_2_fields(change, problem):
    doc = orjson.loads((FIXTURES / "games" / "standin-2p-seed1.json").read_bytes())
    change(doc)
    assert problem in _problems(orjson.dumps(doc))[0]


@pytest.mark.parametrize("by", ["", 7, None])
def test_a_by_that_is_not_a_name_is_refused(game, by):
    doc = orjson.loads(game_log.dumps(stamped(game, e3="Ana")))
    doc["events"][2]["by"] = by
    assert "event 3: bad by: expected who entered it" in _problems(_resign_stamped(doc))[0]


@pytest.mark.parametrize("stamped", [False, True], ids=["as shipped", "stamped"])
def test_a_log_read_keeps_the_chain_its_reader_checked_which_is_the_one_its_entries_give(stamped):
    """``loads`` works out every hash to check the file's chain and keeps them (an import does not hash the
    record again); a log built in code works its chain out when asked, and the two agree."""
    for path in sorted((FIXTURES / "games").glob("*.json")):
        log = log_reader.read(path)
        if stamped:
            stamps = tuple((f"2026-05-01T19:{k // 60 % 60:02d}:{k % 60:02d}Z", "Ana") for k in range(len(log.events)))
            log = log_reader.loads(game_log.dumps(log.with_events(log.events, stamps)))
        doc = orjson.loads(game_log.dumps(log))
        assert log.checked is not None and log.checked.hashes == tuple(e["hash"] for e in doc["events"])
        built = log.with_events(log.events, log.stamps)
        assert built.checked is None and built.hashes() == list(log.checked.hashes) and built == log
        assert log.prefix(10).hashes() == list(log.checked.hashes[:10])


@pytest.mark.parametrize("change", [
    {"ruleset": "some-other-rules-v9"}, {"meta": {"table": "2"}}, {"players": (("Ana", "red"), ("Carla", "yellow"))},
    {"upcast_from": 0}, {"stamps": (("2026-05-01T19:00:00Z", "Ana"),)},
], ids=lambda c: next(iter(c)))
def test_a_log_changed_after_it_was_read_has_its_chain_worked_out_again(change):
    """The chain a reader kept belongs to the header and entries it read: changed, the log is hashed anew."""
    log = log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json")
    changed = replace(log, **change)
    assert changed.hashes() == changed.with_events(changed.events, changed.stamps).hashes() != log.hashes()
    events = (log.events[1],) + log.events[1:]  # the same number of entries, the first one another
    assert replace(log, events=events).hashes()[0] != log.hashes()[0]
