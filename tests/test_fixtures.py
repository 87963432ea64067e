"""The schema-1 fixtures keep replaying: games are legal and keep their hashes, illegal logs fail as recorded."""

from __future__ import annotations

import orjson
import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.validation import validate
from tests.conftest import FIXTURES

GAMES = sorted((FIXTURES / "games").glob("*.json"))
EXPECTED = orjson.loads((FIXTURES / "invalid" / "expected.json").read_bytes())


def test_corpus_has_a_game_per_player_count():
    counts = {len(log_reader.read(p).players) for p in GAMES}
    assert counts == {2, 3, 4}


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_fixture_game_replays_to_the_end(path):
    data = path.read_bytes()
    log = log_reader.loads(data, str(path))
    result = validate(log)
    assert result.valid, result.violation
    assert result.state.over and result.state.round == 4
    assert log.upcast_from == 1, "the shipped fixtures stay schema 1: they are what upcasting is tested on"
    written = game_log.dumps(log)
    assert game_log.dumps(log_reader.loads(written)) == written, "schema 2 writing is not canonical"
    assert [e["hash"] for e in orjson.loads(written)["events"]] == [e["hash"] for e in orjson.loads(data)["events"]]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_illegal_fixture_fails_with_its_rule(name):
    log = log_reader.read(FIXTURES / "invalid" / name)
    result = validate(log)
    assert not result.valid
    assert result.violation_seq == EXPECTED[name]["seq"]
    assert result.violation.rule == EXPECTED[name]["rule"]
    assert result.violation.reason


def test_every_illegal_fixture_is_listed():
    files = {p.name for p in (FIXTURES / "invalid").glob("*.json")} - {"expected.json"}
    assert files == set(EXPECTED)
