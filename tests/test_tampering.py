"""Tampering, exhaustively: every byte of a log's events, every stored row, the last entries cut off.

Every change that changes what a record says is caught (100 %, not a sample), and a
damaged stored game is never exported as intact. The default run tampers with the first
20 events of a recorded game; CI's thorough profile with the whole game (about 130,000 edits).
"""

from __future__ import annotations

import orjson
import pytest
from eventsourcing.utils import get_topic

from coimbra_events import log_reader
from coimbra_events import log as game_log
from coimbra_events.game import Game
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.receipts import Receipt
from coimbra_events.store.errors import DamagedGame
from coimbra_events.rules import core as rules
from tests import applied
from tests.commands import scratch
from tests.store.conftest import GAMES, PLAYERS
from tests.store.rows import Row, Rows
from tests.strategies import THOROUGH

EVENTS = None if THOROUGH else 20
"""Events of the log tampered with (None: all of them)."""


def _log_bytes(path) -> bytes:
    log = log_reader.read(path)
    return game_log.dumps(log.with_events(log.events[:EVENTS]))


def _edits(data: bytes, position: int) -> list[bytes]:
    """The byte at ``position`` changed (a bit flipped, a digit, a quote, a letter), removed, or doubled."""
    old = data[position:position + 1]
    new = {bytes([old[0] ^ 1]), b"0", b'"', b"a"} - {old}
    return [data[:position] + b + data[position + 1:] for b in sorted(new)] + [
        data[:position] + data[position + 1:], data[:position] + old + data[position:]]


@pytest.mark.property  # in CI's thorough run too, over the whole game
def test_every_byte_of_the_events_changed_is_caught_when_it_changes_what_the_log_says():
    data = _log_bytes(GAMES[0])
    original = orjson.loads(data)
    start = data.index(b'"events":[') + len(b'"events":[')
    caught = meaning_changed = 0
    for position in range(start, len(data)):
        for edited in _edits(data, position):
            try:
                same = orjson.loads(edited) == original
            except orjson.JSONDecodeError:
                same = False
            try:
                read = log_reader.loads(edited)
            except game_log.LogError:
                read = None
            if same:
                assert read is None or game_log.dumps(read) == data  # whitespace, say: read as it was
                continue
            meaning_changed += 1
            assert read is None, f"a change at byte {position} went unnoticed: {edited[position - 20:position + 20]!r}"
            caught += 1
    assert caught == meaning_changed > 5 * (len(data) - start)


@pytest.fixture
def stored():
    """A stored game of 12 entries (a seeded setup, plays, a note) in a SQLite file in memory."""
    with scratch() as folder:
        store = GameStore(folder / "games.sqlite")
        games = Games(store)
        games.new_game(PLAYERS, seed=9, name="g")
        for _ in range(5):
            applied.recorded(games, "g", rules.legal(store.get("g").state)[0])
        applied.stored(games.note("g", 7, "a ruling"))
        yield store, Rows(folder / "games.sqlite")
        store.close()


def _assert_caught(store: GameStore, what: str) -> None:
    assert store.inspect("g").problems, f"verify missed: {what}"
    with pytest.raises(DamagedGame):
        store.export("g")
    try:
        data = store.export_as_stored("g")
    except DamagedGame:
        return
    with pytest.raises(game_log.LogError):
        log_reader.loads(data)


def _variants(value: object) -> list[object]:
    """Other values for a stored field: each kind changed a little and into another kind."""
    if isinstance(value, bool) or value is None:
        return [not value, "x"]
    if isinstance(value, int):
        return [value + 1, -value - 1, str(value)]
    if isinstance(value, str):
        return [value + "x", value[:-1], "", 7]
    if isinstance(value, list):
        return [value[:-1], [*value, value[0] if value else 1], {}]
    if isinstance(value, dict):
        changed = [{k: v for k, v in list(value.items())[:-1]}, {**value, "extra": 1}, []]
        return changed + [{**value, k: f"{v}x"} for k, v in list(value.items())[:2] if isinstance(v, str | int)]
    return ["x"]


def _rows(rows: Rows) -> list[Row]:
    return rows.entries("g") + rows.receipts("g")


def test_every_stored_row_deleted_is_caught(stored):
    store, rows = stored
    for row in _rows(rows):
        rows.delete(row)
        try:
            _assert_caught(store, f"row {row.version} of {row.topic} deleted")
        finally:
            rows.restore(row)


def test_every_field_of_every_stored_row_edited_is_caught(stored):
    store, rows = stored
    edits = 0
    for row in _rows(rows):
        fields = row.fields()
        for key, value in fields.items():
            if key == "timestamp":  # when it was stored: not part of the record (schema 1 does not hash it)
                continue
            for other in _variants(value):
                rows.set(row, state=orjson.dumps({**fields, key: other}))
                _assert_caught(store, f"{row.topic} {key}: {value!r} -> {other!r}")
                edits += 1
        for topic in (get_topic(Game.Recorded), get_topic(Receipt), "this:s"):  # another class's, or none
            if topic != row.topic:
                rows.set(row, state=row.state, topic=topic)
                _assert_caught(store, f"{row.topic} -> topic {topic}")
        rows.set(row)
    assert edits > 100 and store.inspect("g").problems == ()


def test_the_last_entries_cut_off_are_caught_with_or_without_their_receipts(stored):
    store, rows = stored
    whole = store.get("g")
    head = whole.head
    for cut in range(1, 6):
        game_rows = rows.entries("g")
        rows.delete(*game_rows[-cut:])
        with pytest.raises(DamagedGame) as caught:
            store.get("g")
        assert caught.value.problems[0].what == "entries missing"
        receipts = rows.receipts("g")
        taken = [r for r in receipts if r.fields()["entries"] > len(whole.events) - cut]
        rows.delete(*taken)  # someone who knew to take the receipts too: only the table's head shows it
        inspection = store.inspect("g")
        assert inspection.problems == () and head not in inspection.chain
        for row in game_rows[-cut:] + taken:
            rows.restore(row)
        assert store.get("g").head == head


def test_a_finished_game_s_announced_result_edited_or_deleted_is_caught():
    """The games index and the league read a game's result from its ``Finished`` row: a row
    claiming another winner, another total or no end at all is damage, never a result."""
    from coimbra_events.catalog import standin_catalog
    from coimbra_events.simulator import simulate

    with scratch() as folder:
        store = GameStore(folder / "games.sqlite")
        assert Games(store).import_log(simulate(standin_catalog(), PLAYERS, 5)[0], name="g").how == "stored"
        rows = Rows(folder / "games.sqlite")
        (finished,) = [r for r in rows.game("g") if r.topic.endswith("Game.Finished")]
        result = finished.fields()["result"]
        edits = [lambda f: f["result"][0].update(total=f["result"][0]["total"] + 1),
                 lambda f: f["result"][0].update(name=result[1]["name"]),
                 lambda f: f["result"].reverse(),
                 lambda f: f["result"][1]["sources"].update({"voyages": 99})]
        try:
            for edit in edits:
                rows.edit(finished, edit)
                problems = store.inspect("g").problems
                assert [p.what for p in problems] == ["result not the record's"], problems
                rows.set(finished)
            rows.delete(finished)
            assert [p.what for p in store.inspect("g").problems] == ["result not the record's"]
            rows.restore(finished)
            assert store.inspect("g").problems == ()
        finally:
            store.close()


def test_a_header_whose_timestamp_is_not_a_time_is_damage_for_readers_and_writers(stored):
    """Found by the thorough fuzz run: the header's timestamp is not hashed, yet the game is dated by
    it, so a row holding something else is refused as damaged before a write would trip on it."""
    from tests.commands import invoke

    store, rows = stored
    rows.edit(rows.entries("g")[0], lambda fields: fields.update(timestamp=[]))
    with pytest.raises(DamagedGame):
        store.get("g")
    for args in (("show", "g"), ("note", "g", "--at", "1", "x")):
        result = invoke((*args, "--db", str(rows.path)))
        assert result.exit_code == 2 and "timestamp [] is not a time" in result.output, (args, result.output)


@pytest.mark.parametrize("value", [[], {}, "x", 5])
def test_a_name_register_claim_that_names_no_game_id_is_a_damaged_register(stored, value):
    """Found by the thorough fuzz run: a claim whose game id is no id reached the store's query (the
    library's binding error) or read as 'no game named g'; it is the register that is damaged."""
    from coimbra_events.store.errors import DamagedIndex
    from tests.commands import invoke

    store, rows = stored
    (claim,) = [r for r in rows.all() if rows.claims_name(r)]  # a new game's name is claimed as it is registered
    rows.edit(claim, lambda fields: fields.update(game_id=value))
    with pytest.raises(DamagedIndex):
        store.get("g")
    result = invoke(("show", "g", "--db", str(rows.path)))
    assert result.exit_code == 2 and "register of names is damaged at 'g'" in result.output, result.output
