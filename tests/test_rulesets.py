"""A record of another ruleset is refused by name, unless a documented migration reads it; never reinterpreted."""

from __future__ import annotations

import os
import subprocess

import orjson
import pytest

from coimbra_events import log_reader
from coimbra_events import RULESET, log as game_log, rulesets
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.repository import SNAPSHOT_EVERY
from coimbra_events.events import DiePlaced, GameEvent
from coimbra_events.game import Game
from coimbra_events.store.receipts import receipt_of
from coimbra_events.log import LogError
from coimbra_events.record import replace
from coimbra_events.rulesets import Migration
from coimbra_events.validation import validate
from tests.conftest import FIXTURES, installed_coimbra

OTHER = "some-other-rules-v9"
FIXTURE = log_reader.read(FIXTURES / "games" / "standin-3p-seed2.json")
FOREIGN = replace(FIXTURE, ruleset=OTHER, upcast_from=0)
"""The fixture as recorded under another ruleset, its chain signed again (written, it verifies)."""


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})


@pytest.fixture
def foreign_file(tmp_path):
    path = tmp_path / "foreign.json"
    game_log.write(path, FOREIGN)
    return path


def test_the_engine_names_the_ruleset_it_implements():
    assert rulesets.IMPLEMENTED == (RULESET,) and rulesets.MIGRATIONS == {}


def test_validate_refuses_another_ruleset_naming_both():
    with pytest.raises(LogError) as caught:
        validate(FOREIGN)
    assert OTHER in str(caught.value) and RULESET in str(caught.value)


@pytest.mark.parametrize("command", [["validate"], ["score"], ["show"], ["import"], ["explain"], ["replay"]])
def test_commands_that_fold_the_rules_refuse_it_with_exit_2(foreign_file, tmp_path, command):
    out = run(*command, str(foreign_file), *(["--db", str(tmp_path / "g.sqlite")] if command == ["import"] else []))
    assert out.returncode == 2, out.stdout + out.stderr
    assert OTHER in out.stderr and RULESET in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_reading_the_record_as_it_is_still_works(foreign_file):
    """``verify`` checks the chain and ``export`` rewrites the bytes: neither interprets the game."""
    assert run("verify", str(foreign_file)).returncode == 0
    exported = run("export", str(foreign_file))
    assert exported.returncode == 0 and orjson.loads(exported.stdout)["ruleset"] == OTHER


def test_validate_json_reports_ruleset_and_catalog():
    out = run("validate", str(FIXTURES / "games" / "standin-3p-seed2.json"), "--json")
    report = orjson.loads(out.stdout)
    assert report["ruleset"] == RULESET and report["migration"] is None
    assert report["catalog"] == {"id": FIXTURE.catalog_id, "sha256": FIXTURE.catalog_sha256}


def test_a_stored_game_of_another_ruleset_is_refused_but_exported(tmp_path):
    store = GameStore(tmp_path / "g.sqlite")
    try:
        game = Game.start("old", store_catalog(), FIXTURE.players, {}, OTHER)
        for event in FIXTURE.events[:10]:
            game._trigger(event)
        store.save(game, receipt_of(game, store.evidence(game)), *store.claims.claim("old", game.id))  # as every save of the store does
        with pytest.raises(LogError, match=OTHER):
            store.get("old")
        assert store.export("old").ruleset == OTHER
        assert store.get("old", any_ruleset=True).first_mismatch() is None  # what verify checks
    finally:
        store.close()


def test_a_stored_game_of_another_ruleset_is_tagged_without_folding_it(tmp_path):
    """Tags and archiving are facts about any record; no snapshot of its table is taken, since that would be a
    fold under rules it was not recorded under."""
    store = GameStore(tmp_path / "g.sqlite")
    try:
        game = Game.start("old", store_catalog(), FIXTURE.players, {}, OTHER)
        for event in FIXTURE.events[:SNAPSHOT_EVERY + 5]:
            game._trigger(event)
        store.save(game, receipt_of(game, store.evidence(game)), *store.claims.claim("old", game.id))
        (tagged,) = Games(store).tag(["old"], add=["club"])
        assert tagged.tags == ("club",) and tagged.version - store.evidence(tagged).snapshot_version >= SNAPSHOT_EVERY
        assert list(store.snapshots.get(game.id)) == [] and not store.inspect("old").problems
    finally:
        store.close()


def store_catalog():
    from coimbra_events.catalog import standin_catalog

    return standin_catalog()


def renamed_die(event: GameEvent) -> GameEvent:
    """What a migration might do: the old ruleset called the first gray die by another id."""
    if type(event) is DiePlaced and event.die == "grey-1":
        return DiePlaced(event.actor, "gray-1", event.location)
    return event


@pytest.fixture
def migration(monkeypatch):
    """A documented migration from ``OTHER``, for as long as a test runs."""
    found = Migration(OTHER, "v9 called the first gray die grey-1; nothing else differs", renamed_die)
    monkeypatch.setitem(rulesets.MIGRATIONS, OTHER, found)
    return found


def old_ids(log):
    events = [DiePlaced(e.actor, "grey-1", e.location) if type(e) is DiePlaced and e.die == "gray-1" else e for e in log.events]
    return replace(log, events=tuple(events))


def test_with_a_migration_the_record_is_read_through_it(migration):
    recorded = old_ids(FOREIGN)
    assert any(getattr(e, "die", None) == "grey-1" for e in recorded.events)
    result = validate(recorded)
    assert result.valid and result.migration is migration
    assert result.to_json()["ruleset"] == OTHER and result.to_json()["migration"] == migration.reason
    assert result.state == validate(FIXTURE).state
    assert recorded.events[15] == old_ids(FOREIGN).events[15]  # the record itself is not rewritten


def test_an_import_through_a_migration_is_a_new_record_that_says_where_it_came_from(migration):
    store = GameStore(in_memory=True)
    recorded = old_ids(FOREIGN)
    imported = Games(store).import_log(recorded, "migrated")
    assert imported.how == "stored"
    game = imported.game
    assert game.header.ruleset == RULESET and validate(game.to_log()).valid
    came_from = game.header.meta["migrated_from"]
    assert came_from == {"ruleset": OTHER, "head": recorded.hashes()[-1], "why": migration.reason}
    assert game.state == validate(FIXTURE).state
