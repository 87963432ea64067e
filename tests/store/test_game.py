"""The ``Game`` aggregate: checks before triggering, one stored event per log event, exact logs back."""

from __future__ import annotations

import dataclasses
import random

import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import parse_catalog
from coimbra_events.store.register import GameName
from coimbra_events.catalog import _CATALOGS, resolve_catalog
from coimbra_events.game import BrokenLink, Game, IllegalLog, StillInProgress
from coimbra_events.store.folding import ForeignEvent
from coimbra_events.store.snapshots import facts_of, fold_game
from coimbra_events.log import LogError
from coimbra_events.record import replace
from coimbra_events.rules.core import legal
from coimbra_events.violations import RuleViolation
from tests.store.conftest import GAMES, INVALID, PLAYERS


def test_created_event_carries_catalog_ruleset_and_players(catalog):
    game = Game.start("g", catalog, PLAYERS)
    (created,) = game.pending_events
    assert isinstance(created, Game.Created)
    assert (created.catalog_id, created.catalog_sha256) == (catalog.id, catalog.sha256)
    assert created.catalog_data is None  # a shipped catalog is found again by its identity
    assert created.ruleset and created.players == tuple(PLAYERS)
    assert created.upcast_from == 0 and created.announces  # begun under schema 2; announces its result
    assert Game.start("g", catalog, PLAYERS).id != game.id  # ids are random: names are claimed in the store's register


def test_record_checks_before_triggering(catalog):
    game = Game.start("g", catalog, PLAYERS)
    space = legal(game.state)
    game.record(space.sample(random.Random(1)))
    version, state, pending = game.version, game.state, list(game.pending_events)
    with pytest.raises(RuleViolation) as caught:
        game.record(space.sample(random.Random(1)))  # monasteries again: the table must place scoring tiles
    assert caught.value.rule == "TURN.kind"
    assert (game.version, game.state, game.pending_events) == (version, state, pending)


def test_one_recorded_event_per_log_event_with_the_log_fields():
    log = log_reader.read(GAMES[0])
    game = Game.from_log("g", log)
    recorded = game.pending_events[1:]
    assert len(recorded) == len(log.events)
    for stored, event, chained in zip(recorded, log.events, log.hashes()):
        assert isinstance(stored, Game.Recorded)
        assert (stored.type, stored.actor, stored.payload, stored.hash) == (event.TYPE, event.actor, event.payload(), chained)
        assert (stored.at, stored.by) == (None, None)  # the fixture's entries do not say when or by whom
    game.announce_result()
    finished = game.pending_events[-1]
    assert isinstance(finished, Game.Finished) and finished.result[0]["place"] == 1


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_to_log_gives_back_the_same_record(path):
    log = log_reader.read(path)
    game = Game.from_log("g", log)
    assert game_log.dumps(game.to_log()) == game_log.dumps(log)  # schema 2, the chain of the schema-1 file
    assert game.over and game.first_mismatch() is None


def test_import_hands_over_the_table_its_validation_reached(monkeypatch):
    """One pass: the state of an imported game is the validation's, not folded again."""
    log = log_reader.read(GAMES[0])
    game = Game.from_log("g", log)
    from coimbra_events import folded_record

    monkeypatch.setattr(folded_record, "replay", lambda *a, **k: pytest.fail("folded again"))
    monkeypatch.setattr(folded_record, "advance", lambda *a, **k: pytest.fail("folded again"))
    assert game.over and game.state == Game.from_log("h", log).state


@pytest.mark.parametrize("path", INVALID[:4], ids=lambda p: p.name)
def test_an_illegal_log_triggers_nothing(path):
    with pytest.raises(IllegalLog) as caught:
        Game.from_log("g", log_reader.read(path))
    assert caught.value.validation.violation is not None
    assert "breaks rule" in str(caught.value)


def test_a_log_for_a_catalog_nobody_has_is_bad_input():
    log = replace(log_reader.read(GAMES[0]), catalog_id="lost-1")
    with pytest.raises(LogError):
        Game.from_log("g", log)


def test_a_home_made_catalog_travels_with_the_game(catalog):
    own = parse_catalog({**catalog.data, "title": "Our own box"})
    game = Game.start("g", own, PLAYERS)
    created = game.pending_events[0]
    assert created.catalog_data is not None
    _CATALOGS.pop(own.sha256)  # as in a new process
    assert resolve_catalog(own.id, own.sha256, created.catalog_data) == own


def test_a_stored_entry_whose_hash_does_not_follow_is_not_folded():
    """The chain is checked as a stored game is folded, before any rule runs on the entry."""
    stored = Game.from_log("g", log_reader.read(GAMES[0])).collect_events()
    assert fold_game(None, stored).over
    changed = dataclasses.replace(stored[5], hash="0" * 64)
    with pytest.raises(BrokenLink, match="entry 5 does not match its recorded hash"):
        fold_game(None, [*stored[:5], changed, *stored[6:]])


def test_a_stored_row_of_another_class_is_not_folded_into_a_game():
    stored = Game.from_log("g", log_reader.read(GAMES[0])).collect_events()
    other = GameName.register("x").collect_events()[0]
    with pytest.raises(ForeignEvent):
        fold_game(None, [other, *stored[1:]])


def test_a_game_over_is_put_away_by_a_fact_that_changes_nothing_the_game_holds():
    """``PutAway`` is for a club night's servers: the record, table, result, tags and listing stay, and so does
    what a snapshot holds (the receipts vouch for its digest), folded again or not."""
    game = Game.from_log("g", log_reader.read(GAMES[0]))
    held = facts_of(game)
    game.put_away()
    assert type(game.pending_events[-1]) is Game.PutAway and facts_of(game) == held
    folded = fold_game(None, game.collect_events())
    assert folded.version == game.version and facts_of(folded) == held


def test_a_game_in_progress_is_not_put_away(catalog):
    game = Game.start("g", catalog, PLAYERS)
    with pytest.raises(StillInProgress, match="g is in progress: archive it"):
        game.put_away()
    assert [type(e) for e in game.pending_events] == [Game.Created]
