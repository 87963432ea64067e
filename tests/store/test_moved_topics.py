"""Rows stored before the store's classes moved into ``coimbra_events/store/`` name them by their old topics
(``coimbra_events.integrity:Receipt``, ``coimbra_events.game_names:GameName``, ``coimbra_events.game:Game.Snapshot``):
such a store reads, verifies and records on as it did."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from eventsourcing.utils import get_topic

from coimbra_events.service import Games, Session
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.store import receipts, register, snapshots
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.register import GameName
from coimbra_events.store.repository import SNAPSHOT_EVERY
from tests.applied import stored

MOVES = {
    get_topic(receipts.Receipt): receipts.MOVED_FROM,
    get_topic(GameName): register.MOVED_FROM,
    get_topic(snapshots.GameSnapshot): snapshots.MOVED_FROM,
}


def _as_before_the_move(db: Path) -> int:
    """Every row's topic (and a created name's ``originator_topic``) spelled as the code before the move wrote it;
    how many rows were changed."""
    changed = 0
    with sqlite3.connect(db) as conn:
        for table in ("stored_events", "stored_snapshots"):
            rows = conn.execute(f"SELECT originator_id, originator_version, topic, state FROM {table}").fetchall()
            for stream, version, topic, state in rows:
                old_topic, old_state = topic, bytes(state)
                for new, old in MOVES.items():
                    old_topic = old_topic.replace(new, old)
                    old_state = old_state.replace(new.encode(), old.encode())
                if (old_topic, old_state) != (topic, bytes(state)):
                    conn.execute(f"UPDATE {table} SET topic = ?, state = ? WHERE originator_id = ? AND originator_version = ?",
                                 (old_topic, old_state, stream, version))
                    changed += 1
    return changed


def test_a_store_written_before_the_move_reads_verifies_and_records_on(tmp_path, catalog):
    db = tmp_path / "games.sqlite"
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], 5)
    with Games(GameStore(db)) as games:
        session = Session("old", games.import_log(log.prefix(10), "old").game)  # each write saves the copy it holds
        for event in log.events[10:10 + SNAPSHOT_EVERY + 3]:
            game = stored(games.record(session, [event]))
        games.rename("old", "older")
        head, entries = game.head, game.entries
    assert _as_before_the_move(db) > SNAPSHOT_EVERY  # a receipt per save, the names and the snapshot

    store = GameStore(db)
    try:
        read = store.get("older")
        assert (read.head, read.entries) == (head, entries)
        assert store.evidence(read).snapshot_version > 0  # read from the snapshot stored under its old topic
        assert store.inspect("older").problems == ()
        assert [i.name for i in store.games()] == ["older"]
        after = stored(Games(store).record(Session("older", read), [log.events[entries]]))
        assert after.entries == entries + 1 and store.inspect("older").problems == ()
    finally:
        store.close()


def test_a_game_read_through_one_store_is_saved_through_another(tmp_path, catalog):
    """The store's evidence of a game (its receipts, the snapshot in force) is kept beside the games it handed out;
    a copy read through another connection is saved with the receipt that follows the latest one stored."""
    db = tmp_path / "games.sqlite"
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], 5)
    table, phone = GameStore(db), GameStore(db)
    at_table, at_phone = Games(table), Games(phone)
    try:
        session = Session("evening", at_table.import_log(log.prefix(10), "evening").game)
        for event in log.events[10:10 + SNAPSHOT_EVERY + 2]:
            game = stored(at_table.record(session, [event]))
        seen = phone.get("evening")
        assert phone.evidence(seen).snapshot_version > 0  # read from the table's snapshot
        # the phone's copy, saved by the table
        after = stored(at_table.record(Session("evening", seen), [log.events[game.entries]]))
        assert table.evidence(after).receipts == phone.evidence(phone.get("evening")).receipts
        assert table.inspect("evening").problems == () and phone.get("evening").head == after.head
        for event in log.events[after.entries:after.entries + 2]:
            # and back: the table's copy, saved by the phone
            after = stored(at_phone.record(Session("evening", after), [event]))
        assert table.get("evening").head == after.head and table.inspect("evening").problems == ()
    finally:
        table.close()
        phone.close()
