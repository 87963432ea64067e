"""A command reads a game once, folds it at most once, and a long game is read from its snapshot."""

from __future__ import annotations

import random
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from coimbra_events import game as game_module
from coimbra_events import log as game_log
from coimbra_events.application import SNAPSHOT_EVERY, GameStore
from coimbra_events.game import Game, project
from coimbra_events.history import replay, resolve
from coimbra_events.integrity import DamagedGame
from coimbra_events.notation import render
from coimbra_events.rules.core import legal
from coimbra_events.simulator import DEFAULT_PLAYERS, next_event, simulate
from tests.store.conftest import GAMES
from tests.store.rows import Rows
from tests.store.test_show_diff import Borrowed


def reads(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every game the store reads from here on."""
    seen: list[Any] = []
    original = store._read
    monkeypatch.setattr(store, "_read", lambda game_id: seen.append(game_id) or original(game_id))
    return seen


def test_act_reads_the_game_once(store, catalog, monkeypatch):
    game = store.new_game(DEFAULT_PLAYERS[:2], catalog, name="g", seed=3)
    decisions = [render(legal(game.state)[0])]
    seen = reads(store, monkeypatch)
    monkeypatch.setattr("coimbra_events.application.GameStore", lambda db=None, **kw: Borrowed(store))
    result = CliRunner().invoke(app, ["act", "g", *decisions], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert len(seen) == 1 and len(store.get("g").events) == len(game.events) + 1


def test_the_recorder_keeps_the_game_it_read(store, catalog, monkeypatch):
    """``record`` with the game in hand stores without reading it again (``update(game=...)``)."""
    game = store.new_game(DEFAULT_PLAYERS[:2], catalog, name="g", seed=3)
    seen = reads(store, monkeypatch)
    for _ in range(5):
        game = store.record("g", next_event(game.state, random.Random(1)), game=game)
    assert seen == [] and len(store.get("g").events) == len(game.events)


def test_recording_after_history_entries_folds_only_the_new_entry(catalog, monkeypatch):
    """Once its table is known, a game with corrections, undos and notes takes a play as a plain game does."""
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], 4)
    game = Game.from_log("g", log.prefix(60))
    game.undo()
    game.record(log.events[59])
    game.note(30, "a note")
    again = len(game.events) - 1  # the play entered again after the undo
    other = next(o for o in legal(game.state_before(again)) if o != log.events[59])
    game.correct(again, other)
    game.correct(again, log.events[59])
    state = game.state
    monkeypatch.setattr(game_module, "replay", lambda *a, **k: pytest.fail("the line was replayed"))
    for event in log.events[60:80]:
        game.record(event)
    monkeypatch.undo()
    assert game.state == replay(game.initial, resolve(game.events), stop_at_violation=False).state != state


def grown(store: GameStore, catalog, entries: int, name: str = "long") -> Game:
    """A game recorded entry by entry into the store (with an undo and a note on the way)."""
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:4], 8)
    game = store.import_log(log.prefix(10), name)
    for k in range(10, entries):
        game = store.record(name, log.events[k], game=game)
        if k == 30:
            game, _ = store.update(name, lambda g: g.undo(), game)
            game = store.record(name, log.events[k], game=game)
            game, _ = store.update(name, lambda g: g.note(12, "here"), game)
    return game


def same_game(a: Game, b: Game) -> None:
    assert (a.id, a.version, a.name, a.header) == (b.id, b.version, b.name, b.header)
    assert (a.events, a.hashes, a.stamps, a.plain) == (b.events, b.hashes, b.stamps, b.plain)
    assert (a.announced, a.tags, a.archived) == (b.announced, b.tags, b.archived)
    assert a.state == b.state and a.line == b.line and a.head == b.head


def test_a_long_game_is_read_from_its_snapshot(store, catalog):
    game = grown(store, catalog, 10 + 3 * SNAPSHOT_EVERY)
    snapshots = list(store.snapshots.get(game.id))
    assert snapshots and all(isinstance(s, Game.Snapshot) for s in snapshots)
    assert game.version - snapshots[-1].originator_version < SNAPSHOT_EVERY
    from_snapshot = store.get("long")
    from_events = project(None, store.events.get(game.id))
    assert from_snapshot.snapshot_version == snapshots[-1].originator_version  # restored from it, not folded
    same_game(from_snapshot, from_events)
    same_game(from_snapshot, game)


def test_only_the_latest_snapshot_of_a_game_is_kept(store, catalog):
    """Each snapshot holds the whole record, and only the latest is read: the older ones are dropped
    as a new one is taken, so a store grows with its games, not with the square of their length."""
    if store.location == "memory":
        pytest.skip("an in-memory store keeps its snapshots until the process ends")
    game = grown(store, catalog, 10 + 3 * SNAPSHOT_EVERY)
    other = grown(store, catalog, 10 + SNAPSHOT_EVERY, name="other")
    kept = store.snapshots.recorder.select_events(game.id)
    assert [s.originator_version for s in kept] == [game.snapshot_version] and game.snapshot_version > 2 * SNAPSHOT_EVERY
    assert len(store.snapshots.recorder.select_events(other.id)) == 1  # another game's snapshot is its own
    same_game(store.get("long"), project(None, store.events.get(game.id)))


def test_a_snapshot_this_code_did_not_write_is_not_used(store, catalog, monkeypatch):
    game = grown(store, catalog, 10 + SNAPSHOT_EVERY + 2)
    assert list(store.snapshots.get(game.id))
    monkeypatch.setattr(game_module, "SNAPSHOT_FORMAT", "coimbra-game-snapshot-99")
    same_game(store.get("long"), project(None, store.events.get(game.id)))


@pytest.mark.parametrize("rechained", [False, True], ids=["entry edited", "entry edited and hashes chained again"])
def test_a_snapshot_whose_entries_were_edited_is_never_read_as_the_record(tmp_path, catalog, rechained):
    """The snapshot's copy of an entry is checked against its hash as the stored row is: edited, the snapshot
    is not used (the game is read from its rows); chained again to match, it no longer ends at the receipt's head."""
    store = GameStore(tmp_path / "games.sqlite")
    game = grown(store, catalog, 10 + SNAPSHOT_EVERY + 2)
    assert list(store.snapshots.get(game.id))
    store.close()
    k = next(k for k, e in enumerate(game.events) if e.actor != "table")  # a player's decision
    actor = game.events[k].actor

    def edit(entries: list[list[Any]]) -> None:
        entries[k][1] = next(p.name for p in game.state.players if p.name != actor)
        if rechained:
            prev = game.header.anchor()
            for seq, entry in enumerate(entries, 1):
                entry[3] = prev = game_log.event_hash(prev, seq, *entry[:3], *entry[4:])

    Rows(tmp_path / "games.sqlite").edit_snapshot("long", edit)
    store = GameStore(tmp_path / "games.sqlite")
    try:
        if rechained:
            with pytest.raises(DamagedGame):
                store.get("long")
        else:
            read = store.get("long")
            assert read.snapshot_version == 0 and read.events[k].actor == actor  # folded from its rows
            same_game(read, game)
        assert any(p.what == "snapshot changed" for p in store.inspect("long").problems)
    finally:
        store.close()


def test_an_import_is_stored_without_a_snapshot(store):
    log = game_log.read(GAMES[0])
    game = store.import_log(log, "imported")
    assert list(store.snapshots.get(game.id)) == []
