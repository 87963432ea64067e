"""A command reads a game once, folds it at most once, and a long game is read from its snapshot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import orjson
from eventsourcing.persistence import PersistenceError

import pytest
from typer.testing import CliRunner

from cli.app import app
from coimbra_events import log_reader
from coimbra_events import folded_record
from coimbra_events.store import snapshots as snapshots_module
from coimbra_events.store.snapshots import GameSnapshot
from coimbra_events import log as game_log
from coimbra_events.service import Games, Session
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.repository import SNAPSHOT_EVERY
from coimbra_events.game import Game
from coimbra_events.store.folding import project
from coimbra_events.history import replay, resolve
from coimbra_events.store.errors import DamagedGame
from coimbra_events.notation import render
from coimbra_events.rules.core import legal
from coimbra_events.simulator import DEFAULT_PLAYERS, next_event, simulate
from tests.applied import stored
from tests.store.conftest import GAMES
from tests.store.rows import Rows
from tests.store.test_show_diff import lend


def reads(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every game the store reads from here on."""
    seen: list[Any] = []
    original = store.stored_games.read_any
    monkeypatch.setattr(store.stored_games, "read_any", lambda game_id, receipt: seen.append(game_id) or original(game_id, receipt))
    return seen


def test_act_reads_the_game_once(store, games, catalog, monkeypatch):
    game = games.new_game(DEFAULT_PLAYERS[:2], catalog, name="g", seed=3)
    decisions = [render(legal(game.state)[0])]
    seen = reads(store, monkeypatch)
    lend(store, monkeypatch)
    result = CliRunner().invoke(app, ["act", "g", *decisions], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert len(seen) == 1 and len(store.get("g").events) == len(game.events) + 1


def test_the_recorder_keeps_the_game_it_read(store, games, catalog, monkeypatch):
    """``record`` with the game in hand (a ``Session`` holding it, once ``update(game=...)``) stores without
    reading it again."""
    game = games.new_game(DEFAULT_PLAYERS[:2], catalog, name="g", seed=3)
    session = Session("g", game)
    seen = reads(store, monkeypatch)
    for _ in range(5):
        game = stored(games.record(session, [next_event(game.state, random.Random(1))]))
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
    monkeypatch.setattr(folded_record, "replay", lambda *a, **k: pytest.fail("the line was replayed"))
    for event in log.events[60:80]:
        game.record(event)
    monkeypatch.undo()
    assert game.state == replay(game.initial, resolve(game.events), stop_at_violation=False).state != state


def grown(store: GameStore, catalog, entries: int, name: str = "long", copy: bool = False) -> Game:
    """A game recorded entry by entry into the store (with an undo and a note on the way); ``copy``: another game
    begun from the same first entries (a deliberate copy, as ``import --copy`` stores one)."""
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:4], 8)
    games = Games(store)
    session = Session(name, games.import_log(log.prefix(10), name, copy=copy).game)
    for k in range(10, entries):
        stored(games.record(session, [log.events[k]]))
        if k == 30:
            stored(games.undo(session))
            stored(games.record(session, [log.events[k]]))
            stored(games.note(session, 12, "here"))
    return session.game


def same_game(a: Game, b: Game) -> None:
    assert (a.id, a.version, a.name, a.header) == (b.id, b.version, b.name, b.header)
    assert (a.entries, a.events, a.hashes, a.stamps) == (b.entries, b.events, b.hashes, b.stamps)
    assert (a.announced, a.tags, a.archived) == (b.announced, b.tags, b.archived)
    assert a.state == b.state and a.line == b.line and a.head == b.head


def test_a_long_game_is_read_from_its_snapshot(store, catalog):
    game = grown(store, catalog, 10 + 3 * SNAPSHOT_EVERY)
    snapshots = list(store.snapshots.get(game.id))
    assert snapshots and all(isinstance(s, GameSnapshot) for s in snapshots)
    assert game.version - snapshots[-1].originator_version < SNAPSHOT_EVERY
    from_snapshot = store.get("long")
    from_events = project(None, store.events.get(game.id))
    assert store.evidence(from_snapshot).snapshot_version == snapshots[-1].originator_version  # restored from it, not folded
    same_game(from_snapshot, from_events)
    same_game(from_snapshot, game)


def test_only_the_latest_snapshot_of_a_game_is_kept(store, catalog):
    """Each snapshot holds the whole record, and only the latest is read: the older ones are dropped
    as a new one is taken, so a store grows with its games, not with the square of their length."""
    if store.location == "memory":
        pytest.skip("an in-memory store keeps its snapshots until the process ends")
    game = grown(store, catalog, 10 + 3 * SNAPSHOT_EVERY)
    other = grown(store, catalog, 10 + SNAPSHOT_EVERY, name="other", copy=True)
    kept = store.snapshots.recorder.select_events(game.id)
    snapshot_version = store.evidence(game).snapshot_version
    assert [s.originator_version for s in kept] == [snapshot_version] and snapshot_version > 2 * SNAPSHOT_EVERY
    assert len(store.snapshots.recorder.select_events(other.id)) == 1  # another game's snapshot is its own
    same_game(store.get("long"), project(None, store.events.get(game.id)))


def test_a_snapshot_this_code_did_not_write_is_not_used(store, catalog, monkeypatch):
    game = grown(store, catalog, 10 + SNAPSHOT_EVERY + 2)
    assert list(store.snapshots.get(game.id))
    monkeypatch.setattr(snapshots_module, "SNAPSHOT_FORMAT", "coimbra-game-snapshot-99")
    same_game(store.get("long"), project(None, store.events.get(game.id)))


def _player_entry(game: Game) -> int:
    return next(k for k, e in enumerate(game.events) if e.actor != "table")  # a player's decision


def _another_player(game: Game, k: int) -> str:
    return next(p.name for p in game.state.players if p.name != game.events[k].actor)


Edit = Callable[[Game, dict[str, Any]], None]
"""A change to a snapshot's ``state``, knowing the game it was taken of."""


def _entries_edit(change: Callable[[Game, list[list[Any]]], list[list[Any]] | None]) -> Edit:
    """An edit of the snapshot's entries (``[type, actor, payload, hash, at, by]`` each)."""
    def edit(game: Game, state: dict[str, Any]) -> None:
        entries = orjson.loads(state["entries"])
        state["entries"] = orjson.dumps(change(game, entries) or entries).decode()
    return edit


def _field(field: int, value: Callable[[Game, int], Any], last: bool = False) -> Edit:
    def change(game: Game, entries: list[list[Any]]) -> None:
        k = len(entries) - 1 if last else _player_entry(game)
        entries[k][field] = value(game, k)
    return _entries_edit(change)


def _rechained(head_too: bool) -> Edit:
    def edit(game: Game, state: dict[str, Any]) -> None:
        entries = orjson.loads(state["entries"])
        k = _player_entry(game)
        entries[k][1] = _another_player(game, k)
        prev = game.header.anchor()
        for seq, entry in enumerate(entries, 1):
            entry[3] = prev = game_log.event_hash(prev, seq, *entry[:3], *entry[4:])
        state["entries"] = orjson.dumps(entries).decode()
        if head_too:
            state["head"] = prev
    return edit


def _cut(count_too: bool) -> Edit:
    def edit(game: Game, state: dict[str, Any]) -> None:
        entries = orjson.loads(state["entries"])[:-1]
        state["entries"] = orjson.dumps(entries).decode()
        if count_too:
            state["count"], state["head"] = len(entries), entries[-1][3]
    return edit


SNAPSHOT_EDITS: dict[str, Edit] = {
    "an actor": _field(1, _another_player),
    "a payload": _field(2, lambda game, k: {**game.events[k].payload(), "actor": "x"}),
    "a hash": _field(3, lambda game, k: "0" * 64),
    "the last hash": _field(3, lambda game, k: "0" * 64, last=True),
    "a type": _field(0, lambda game, k: "Noted"),
    "a stamp": _field(4, lambda game, k: "2020-01-01T00:00:00Z"),
    "entries chained again": _rechained(head_too=False),
    "entries chained again, head too": _rechained(head_too=True),
    "the last entry cut": _cut(count_too=False),
    "the last entry cut, count and head too": _cut(count_too=True),
    "the count": lambda game, state: state.update(count=state["count"] - 1),
    "the count not a number": lambda game, state: state.update(count=str(state["count"])),
    "the head": lambda game, state: state.update(head="0" * 64),
    "entries not JSON": lambda game, state: state.update(entries=state["entries"][:-1]),
    "entries not a list of entries": lambda game, state: state.update(entries="[1, 2]"),
}
"""Every way of changing what a snapshot holds of the record (its table aside: ``verify`` folds the rows for it)."""


def _richer_first_player(game: Game, state: dict[str, Any]) -> None:
    """The snapshot's table edited: its first player has five coins more."""
    table = orjson.loads(state["table"])
    table["players"][0]["coins"] += 5
    state["table"] = orjson.dumps(table).decode()


def _snapshotted(tmp_path: Path, catalog: Any, edit: Edit | None = None, vouched: bool = False) -> tuple[Game, Path, int]:
    """A long game in a SQLite file, read from its snapshot, the snapshot changed by ``edit`` (``vouched``: and the
    latest receipt changed to vouch for it), and the version of the snapshot its store kept last."""
    db = tmp_path / "games.sqlite"
    store = GameStore(db)
    game = grown(store, catalog, 10 + 2 * SNAPSHOT_EVERY + 2)  # its undo (entry 31) before the latest snapshot
    kept = store.evidence(game).snapshot_version
    assert kept > 35 and list(store.snapshots.get(game.id))
    store.close()
    if edit is not None:
        Rows(db).edit_snapshot_state("long", lambda state: edit(game, state), vouched)
    return game, db, kept


@pytest.mark.parametrize("what", SNAPSHOT_EDITS)
def test_what_a_snapshot_holds_of_the_record_changed_is_never_read_as_the_record(tmp_path, catalog, what):
    """Whatever is changed of a snapshot's copy of the record, a read gets the entries as recorded (read from the rows
    when the copy does not hold), or the game is refused as damaged; ``verify`` names the snapshot either way."""
    game, db, kept = _snapshotted(tmp_path, catalog, SNAPSHOT_EDITS[what])
    store = GameStore(db)
    try:
        try:
            read = store.get("long")
        except DamagedGame:
            pass  # its head or count no longer what the receipt holds
        else:
            same_game(read, game)
            assert store.evidence(read).snapshot_version == 0  # the next save takes a new snapshot in its place
        assert any(p.what == "snapshot changed" for p in store.inspect("long").problems)
    finally:
        store.close()


def test_a_snapshot_s_edited_entries_are_found_when_read_and_the_rows_read_instead(tmp_path, catalog):
    """The entries are checked when something first reads them, not when the game is read: before then, the game is
    the snapshot's (its head vouched for by the receipt); once read, the rows'."""
    game, db, kept = _snapshotted(tmp_path, catalog, SNAPSHOT_EDITS["an actor"])
    k = _player_entry(game)
    store = GameStore(db)
    try:
        read = store.get("long")
        assert store.evidence(read).snapshot_version == kept and read.entries == game.entries
        assert read.events[k].actor == game.events[k].actor and store.evidence(read).snapshot_version == 0
        same_game(read, game)
    finally:
        store.close()


def test_recording_into_a_game_read_from_its_snapshot_reads_none_of_its_entries(tmp_path, catalog, monkeypatch):
    """``act`` needs the table, the head and the number of entries: the snapshot's entries stay as stored."""
    game, db, kept = _snapshotted(tmp_path, catalog)
    line = simulate(catalog, DEFAULT_PLAYERS[:4], 8)[0].events  # the line ``grown`` recorded
    read: list[int] = []
    chained = snapshots_module.chained_entries
    monkeypatch.setattr(snapshots_module, "chained_entries", lambda *a: read.append(1) or chained(*a))
    env = {"NO_COLOR": "1", "COIMBRA_DB": str(db)}
    for k in range(3):
        decision = render(line[len(game.line.plays) + k])
        result = CliRunner().invoke(app, ["act", "long", decision, "--json"], env=env)
        assert result.exit_code == 0, result.output
        assert orjson.loads(result.output)["events"] == game.entries + k + 1
    assert read == []
    store = GameStore(db)
    try:
        after = store.get("long")
        assert after.entries == game.entries + 3 and read == []
        same_game(after, project(None, store.events.get(game.id)))
        assert read  # and read, checked, once asked for
    finally:
        store.close()


@pytest.mark.parametrize("vouched", [False, True], ids=["as kept", "its receipt changed to vouch for the table"])
def test_a_snapshot_whose_entries_do_not_hold_is_replaced_by_one_of_the_rows(tmp_path, catalog, vouched):
    """Recording on into a game whose snapshot's entries were changed: the acts store on the head the receipt vouched
    for, and the next snapshot, taken from the rows (its table folded from them, even a table changed with the
    receipt that vouches for it), is the record again."""
    edit = SNAPSHOT_EDITS["an actor"]
    game, db, kept = _snapshotted(tmp_path, catalog, (lambda g, state: (edit(g, state), _richer_first_player(g, state)))
                            if vouched else edit, vouched)
    k = _player_entry(game)
    line = simulate(catalog, DEFAULT_PLAYERS[:4], 8)[0].events
    store = GameStore(db)
    try:
        current = store.get("long")
        assert store.evidence(current).snapshot_version == kept  # read from the snapshot: its digest is vouched for
        games, session = Games(store), Session("long", current)
        while current.version - kept < SNAPSHOT_EVERY:
            current = stored(games.record(session, [line[len(game.line.plays) + current.entries - game.entries]]))
        assert store.evidence(current).snapshot_version == current.version  # taken from the rows: the copy did not hold
        problems = store.inspect("long").problems  # the receipts that vouched for the changed snapshot stay as evidence
        assert bool(problems) == vouched and {p.what for p in problems} <= {"receipt changed"}
        same_game(store.get("long"), project(None, store.events.get(game.id)))
        assert store.get("long").events[k].actor == game.events[k].actor
    finally:
        store.close()


def _renamed_in_header(game: Game, state: dict[str, Any]) -> None:
    state["header"]["players"][0]["name"] = "Mallory"


VOUCHED_PARTS: dict[str, Edit] = {
    "its table": _richer_first_player,
    "its header's players": _renamed_in_header,
    "its header's catalog": lambda game, state: state["header"]["catalog"].update(id="other-catalog"),
    "its name": lambda game, state: state.update(name="other"),
    "its tags": lambda game, state: state.update(tags=["edited"]),
    "its announced result": lambda game, state: state.update(announced=[{"name": "Mallory", "place": 1}]),
    "its count": SNAPSHOT_EDITS["the count"],
}
"""What a snapshot holds beside the entries, which its latest receipt vouches for (``snapshot_digest``)."""


@pytest.mark.parametrize("what", VOUCHED_PARTS)
def test_a_snapshot_its_latest_receipt_does_not_vouch_for_is_not_read(tmp_path, catalog, what):
    """A read starts from a snapshot only if the game's latest receipt vouches for it: one changed since is not used
    (the game is read from its rows), and ``verify`` names it."""
    game, db, kept = _snapshotted(tmp_path, catalog, VOUCHED_PARTS[what])
    store = GameStore(db)
    try:
        read = store.get("long")
        assert store.evidence(read).snapshot_version == 0  # read from the rows
        same_game(read, game)
        assert [p.what for p in store.inspect("long").problems] == ["snapshot changed"]
    finally:
        store.close()


def test_a_snapshot_not_kept_after_its_save_is_not_read(tmp_path, catalog, monkeypatch):
    """The receipt vouches for a snapshot before it is kept: when keeping it fails, the older one is not read (the
    rows are), and this is not damage; the next save keeps one."""
    game, db, kept = _snapshotted(tmp_path, catalog)
    line = simulate(catalog, DEFAULT_PLAYERS[:4], 8)[0].events
    store = GameStore(db)
    try:
        current = store.get("long")
        monkeypatch.setattr(store.snapshots, "put", lambda *a: (_ for _ in ()).throw(PersistenceError("disk full")))
        games, session = Games(store), Session("long", current)
        while current.version - kept < SNAPSHOT_EVERY:
            current = stored(games.record(session, [line[len(game.line.plays) + current.entries - game.entries]]))
        assert store.evidence(current).snapshot_version == kept  # the older one is still the one kept
        monkeypatch.undo()
        assert store.evidence(store.get("long")).snapshot_version == 0 and not store.inspect("long").problems
        current = stored(games.record("long", [line[len(game.line.plays) + current.entries - game.entries]]))
        assert store.evidence(store.get("long")).snapshot_version == current.version
    finally:
        store.close()


def test_an_import_is_stored_without_a_snapshot(store, games):
    log = log_reader.read(GAMES[0])
    game = games.import_log(log, "imported").game
    assert list(store.snapshots.get(game.id)) == []


def test_every_receipt_s_vouching_for_a_snapshot_edited_is_caught(tmp_path, catalog):
    """What each receipt says of the snapshot a read may start from is checked against the game's rows folded to
    that version, by ``verify``: a receipt changed to vouch for another snapshot is named."""
    game, db, kept = _snapshotted(tmp_path, catalog)
    rows, store = Rows(db), GameStore(db)
    try:
        receipts = rows.receipts("long")
        assert {r.fields()["snapshot_version"] for r in receipts} >= {0, kept}
        edits = 0
        for receipt in receipts:
            fields = receipt.fields()
            version = fields["snapshot_version"]
            for key, other in [("snapshot_version", version + 1), ("snapshot_version", version - 1 if version else 5),
                               ("snapshot_version", str(version)), ("snapshot_sha256", "0" * 64),
                               ("snapshot_sha256", None if version else "0" * 64), ("snapshot_sha256", 7)]:
                rows.set(receipt, state=orjson.dumps({**fields, key: other}))
                assert store.inspect("long").problems, f"receipt {receipt.version}: {key} {fields[key]!r} -> {other!r}"
                edits += 1
            rows.set(receipt)
        assert edits == 6 * len(receipts) and not store.inspect("long").problems
    finally:
        store.close()
