"""A stored game is checked as it is read: link by link, against its receipts, before any rule runs.

Each test changes a SQLite store's rows directly, as anyone with the file could, and
reads the game back: a damaged game is refused with the entry and the problem
(``DamagedGame``), never folded past the damage, and nothing is changed.
"""

from __future__ import annotations

import sqlite3
import sys

import orjson
import pytest

from coimbra_events import log_reader
from coimbra_events import log as game_log
from coimbra_events.service import Conflict, Games, Session
from coimbra_events.store.errors import DamagedGame, DamagedIndex, EventsRemoved, one_line
from coimbra_events.store.game_store import GameStore
from coimbra_events.log import event_hash
from coimbra_events.rules import core as rules
from tests.applied import recorded, stored
from tests.store.conftest import GAMES, PLAYERS
from tests.store.rows import Rows


@pytest.fixture
def sqlite(tmp_path):
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    games = Games(store)
    games.new_game(PLAYERS, seed=5, name="g")
    for _ in range(4):
        game = store.get("g")
        recorded(games, "g", rules.legal(game.state)[0])
    yield store, Rows(path)
    store.close()


def damage(store: GameStore, name: str = "g") -> DamagedGame:
    with pytest.raises(DamagedGame) as caught:
        store.get(name)
    assert str(caught.value).endswith("; nothing was changed") and "\n" not in str(caught.value)
    return caught.value


def first(caught: DamagedGame) -> tuple[int | None, str]:
    return caught.problems[0].seq, caught.problems[0].what


def test_every_save_leaves_a_receipt_of_the_head_and_an_intact_game_has_no_problem(sqlite):
    store, rows = sqlite
    game = store.get("g")
    receipts = [r.fields() for r in rows.receipts("g")]
    assert [r["entries"] for r in receipts] == [6, 7, 8, 9, 10]
    assert receipts[-1]["head"] == game.head and store.evidence(game).receipts == 5
    inspection = store.inspect("g")
    assert inspection.problems == () and inspection.chain[-1] == game.head


def test_the_last_entries_cut_off_are_caught_against_the_receipt(sqlite):
    store, rows = sqlite
    rows.delete(*rows.entries("g")[-2:])
    assert first(damage(store)) == (9, "entries missing")


def test_a_row_deleted_in_the_middle(sqlite):
    store, rows = sqlite
    rows.delete(rows.entries("g")[4])
    assert first(damage(store)) == (4, "stored row missing")


@pytest.fixture
def whole(tmp_path):
    """A whole recorded game in a SQLite store."""
    store = GameStore(tmp_path / "games.sqlite")
    Games(store).import_log(log_reader.read(GAMES[0]), name="g")
    yield store, Rows(tmp_path / "games.sqlite")
    store.close()


@pytest.mark.parametrize("field, value", [("values", 9), ("values", "six")])
def test_an_edited_die_value_is_a_broken_link_not_a_crash_in_the_rules(whole, field, value):
    """Folding a die of 9 would trip the rules' own assertions: the link is checked first."""
    store, rows = whole
    row = next(r for r in rows.entries("g") if r.fields().get("type") == "DiceRolled")
    rows.edit(row, lambda f: f["payload"][field].update({"gray-1": value}))
    assert first(damage(store)) == (row.version - 1, "hash chain broken")


def test_an_edited_actor_or_hash(sqlite):
    store, rows = sqlite
    row = rows.entries("g")[7]
    rows.edit(row, lambda f: f.update(actor="Carla" if f["actor"] != "Carla" else "Ana"))
    assert first(damage(store)) == (7, "hash chain broken")
    rows.set(row)  # as it was
    assert store.get("g").events
    rows.edit(row, lambda f: f.update(hash="0" * 64))
    assert first(damage(store)) == (7, "hash chain broken")


def test_a_state_that_is_not_json(sqlite):
    store, rows = sqlite
    rows.set(rows.entries("g")[8], state=b"not json")
    seq, what = first(damage(store))
    assert (seq, what) == (8, "unreadable stored row")


def test_a_topic_of_another_class(sqlite):
    store, rows = sqlite
    rows.set(rows.entries("g")[5], topic="coimbra_events.application:GamesIndex.Listed")
    caught = damage(store)
    assert first(caught) == (5, "not what the row should hold") and "GamesIndex.Listed" in caught.problems[0].why


def test_a_topic_naming_any_other_module_is_never_imported(sqlite):
    store, rows = sqlite
    assert "this" not in sys.modules  # the Zen of Python, printed by importing it: a sentinel
    rows.set(rows.entries("g")[5], topic="this:s")
    assert first(damage(store)) == (5, "unreadable stored row")
    rows.set(rows.entries("g")[5])
    rows.edit(rows.entries("g")[0], lambda f: f.update(originator_topic="this:s"))
    assert first(damage(store))[0] == 0
    assert "this" not in sys.modules


def test_a_changed_header_breaks_the_first_link(sqlite):
    store, rows = sqlite
    rows.edit(rows.entries("g")[0], lambda f: f.update(players=[["Ana", "red"], ["Bruno", "blue"], ["Carla", "black"]]))
    assert first(damage(store)) == (1, "hash chain broken")


def test_a_changed_header_of_a_game_without_entries_is_caught_by_its_receipt(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    Games(store).new_game(PLAYERS, name="empty")
    rows = Rows(tmp_path / "games.sqlite")
    rows.edit(rows.entries("empty")[0], lambda f: f.update(ruleset="another"))
    assert first(damage(store, "empty")) == (0, "receipt does not match")


@pytest.mark.parametrize("value", [[], "0", None], ids=repr)
def test_a_header_whose_schema_of_origin_is_not_a_number_is_damage(tmp_path, value):
    """``upcast_from`` that reads as "none" but is no 0 (found by ``tests/test_fuzz.py``): checked as a log's, so
    ``get`` refuses the game and ``verify`` names it, where folding it used to raise a TypeError."""
    store = GameStore(tmp_path / "games.sqlite")
    Games(store).new_game(PLAYERS, name="empty")
    rows = Rows(tmp_path / "games.sqlite")
    rows.edit(rows.entries("empty")[0], lambda f: f.update(upcast_from=value))
    with pytest.raises(DamagedGame, match="upcast_from"):
        store.get("empty")
    assert first(damage(store, "empty"))[0] == 0


def test_receipts_edited_or_deleted(sqlite):
    """Reading a game checks its latest receipt; verify (``inspect``) checks every one."""
    store, rows = sqlite
    receipt = rows.receipts("g")[2]
    rows.edit(receipt, lambda f: f.update(head="0" * 64))
    assert store.get("g").events
    assert [(p.seq, p.what) for p in store.inspect("g").problems] == [(8, "receipt does not match")]
    rows.set(receipt)
    rows.delete(receipt)
    assert [(p.seq, p.what) for p in store.inspect("g").problems] == [(8, "receipt missing")]
    rows.edit(rows.receipts("g")[-1], lambda f: f.update(entries=9))
    assert [p.what for p in damage(store).problems] == ["receipt missing", "receipt does not match", "entry without receipt"]
    rows.delete(*rows.receipts("g"))
    assert first(damage(store))[1] == "no receipt"


def test_entries_added_behind_coimbra_s_back_are_caught(sqlite):
    """An entry appended with a correct hash but no receipt (someone who knows the chain)."""
    store, rows = sqlite
    game = store.get("g")
    event = rules.legal(game.state)[0]
    last = rows.entries("g")[-1]
    forged = {**last.fields(), "type": event.TYPE, "actor": event.actor, "payload": event.payload(),
              "hash": event_hash(game.head, len(game.events) + 1, event.TYPE, event.actor, event.payload())}
    with sqlite3.connect(rows.path) as conn:
        conn.execute("INSERT INTO stored_events (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
                     (game.id.hex, last.version + 1, last.topic, orjson.dumps(forged)))
    assert first(damage(store)) == (11, "entry without receipt")


def test_a_rule_breaking_entry_whose_hashes_were_worked_out_again(sqlite):
    """The chain is unkeyed: whoever recomputes every later hash and receipt makes it consistent.
    Folding checks the rules again, so such a record is still refused, by the rule it breaks."""
    store, rows = sqlite
    prev = store.get("g").header.anchor()
    chain = [prev]
    for seq, row in enumerate(rows.entries("g")[1:], 1):
        fields = row.fields()
        if seq == 8:
            fields["actor"] = next(n for n, _ in PLAYERS if n != fields["actor"])  # out of turn
        fields["hash"] = prev = event_hash(prev, seq, fields["type"], fields["actor"], fields["payload"],
                                           fields["at"] or "", fields["by"] or "")
        chain.append(prev)
        rows.set(row, state=orjson.dumps(fields))
    for receipt in rows.receipts("g"):
        rows.edit(receipt, lambda f: f.update(head=chain[f["entries"]]))
    assert store.get("g").line.plays  # read, not crashed on: the play that breaks a rule is skipped, not folded
    seq, what = first(damage_found(store))
    assert seq == 8 and what.startswith("breaks rule ")


def damage_found(store: GameStore, name: str = "g") -> DamagedGame:
    """What ``verify`` finds, where reading alone cannot see it."""
    return DamagedGame(name, store.inspect(name).problems)


def test_export_as_stored_keeps_the_recorded_numbers_and_hashes_so_the_damage_shows(sqlite):
    store, rows = sqlite
    rows.edit(rows.entries("g")[7], lambda f: f.update(actor="Carla" if f["actor"] != "Carla" else "Ana"))
    rows.set(rows.entries("g")[4], state=b"not json")
    with pytest.raises(game_log.LogError) as caught:
        log_reader.loads(store.export_as_stored("g"))
    assert [(p.seq, p.what) for p in caught.value.problems] == [
        (4, "sequence broken"), (4, "hash chain broken"), (6, "hash chain broken")]  # the 7th entry is the 6th line


def test_a_cut_off_game_is_not_exported_even_with_force(whole):
    """Written as stored, a record missing its last entries would read as intact: refused."""
    store, rows = whole
    rows.delete(rows.entries("g")[-1])
    with pytest.raises(DamagedGame) as caught:
        store.export_as_stored("g")
    assert [p.what for p in caught.value.problems] == ["stored row missing", "cannot be shown in a log file"]


def test_a_damaged_index_is_refused_not_crashed_on(sqlite):
    store, rows = sqlite
    Games(store).tag(["g"], ["friday"])
    tagged = next(r for r in rows.game("g") if r.topic.endswith("Game.Tagged"))
    rows.edit(tagged, lambda f: f.update(tags=7))
    with pytest.raises((DamagedIndex, DamagedGame), match="nothing was changed"):
        store.games()


def test_events_removed_from_the_store_are_said_not_taken_for_an_empty_store(sqlite):
    """The index has read every event; with the events table emptied, the games it lists are not 'no games', nor a
    name 'not found; did you mean' itself."""
    store, rows = sqlite
    store.games()
    rows._run("DELETE FROM stored_events")
    for read in (store.games, lambda: store.get("g")):
        with pytest.raises(EventsRemoved, match=r"the store holds 0 events, but its index of games has read \d+: "
                                                r"events were removed from the store; nothing was changed"):
            read()


def test_a_fault_of_coimbra_s_own_is_not_called_damage(sqlite, monkeypatch):
    store, _ = sqlite

    def broken(*args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("coimbra_events.game.decode_event", broken)
    with pytest.raises(ZeroDivisionError):
        store.get("g")


def test_a_writer_that_read_an_older_game_stores_nothing(sqlite):
    """Saving a copy read before another writer saved stores nothing: the repository's save answers ``False``, and
    the application's write on a session holding such a copy answers a ``Conflict`` naming the head it moved to."""
    store, rows = sqlite
    mine, held = store.get("g"), store.get("g")
    with Games(GameStore(rows.path)) as theirs:
        head = recorded(theirs, "g", rules.legal(mine.state)[0]).head
    mine.record(rules.legal(mine.state)[0])
    before = len(rows.all())
    assert store.stored_games.save(mine) is False
    conflict = Games(store).record(Session("g", held), [rules.legal(held.state)[0]])
    assert isinstance(conflict, Conflict) and conflict.head == head
    assert "the game changed since you read it; nothing stored; try again" in conflict.reason
    assert len(rows.all()) == before and store.inspect("g").problems == ()


def test_a_note_is_made_again_on_the_game_as_it_is_now(sqlite, monkeypatch):
    """``Games.note`` (once ``GameStore.update(..., retry=True)``): another writer saved between the note's read and its
    save, so the note is made again on the game as it is now rather than answered as a conflict."""
    store, rows = sqlite
    reads = []
    get = store.get

    def read(name, any_ruleset=False):
        game = get(name, any_ruleset)
        if not reads:
            with Games(GameStore(rows.path)) as other:
                stored(other.note("g", 3, "theirs"))
        reads.append(len(game.events))
        return game

    monkeypatch.setattr(store, "get", read)
    stored(Games(store).note("g", 3, "mine"))
    assert reads == [10, 11]
    texts = [e.text for e in get("g").events if e.TYPE == "Noted"]
    assert texts == ["theirs", "mine"]


def test_names_that_read_as_log_files_are_refused(tmp_path):
    from coimbra_events.store.errors import BadGameName

    store = GameStore(in_memory=True)
    games = Games(store)
    for name in ("g2.json", "G2.JSON"):
        with pytest.raises(BadGameName, match="reads as a log file"):
            games.new_game(PLAYERS, name=name)
    with pytest.raises(BadGameName):
        games.import_log(log_reader.read(GAMES[0]), name="copy.json")
    assert store.games() == []


def test_a_name_is_judged_by_its_shape_not_by_the_files_beside_the_command(tmp_path, monkeypatch):
    """The store does not look at the working folder: a file there does not make a name taken or refused.

    Read as a GAME argument, the same word names the file (``log_file``), as it always did."""
    from pathlib import Path

    from coimbra_events.references import log_file

    monkeypatch.chdir(tmp_path)
    (tmp_path / "g3").write_text("{}")
    store = GameStore(in_memory=True)
    Games(store).new_game(PLAYERS, name="g3")
    assert store.get("g3").name == "g3"
    assert log_file("g3") == Path("g3")
    assert log_file("g4") is None


def test_an_error_quoted_in_a_message_is_one_line_and_cut_with_an_ellipsis():
    assert one_line(ValueError("row 3:\n  not\tJSON ")) == "row 3: not JSON"
    assert one_line(ValueError()) == "ValueError"
    cut = one_line(ValueError("x" * 500))
    assert len(cut) == 200 and cut.endswith("x…")
    assert one_line(ValueError("x" * 500), None) == "x" * 500


def test_a_put_away_row_with_a_field_it_never_had(tmp_path):
    """``Game.PutAway`` (a table put away) is a row of a game's as its other facts are: checked field by field."""
    store = GameStore(tmp_path / "games.sqlite")
    games = Games(store)
    games.import_log(log_reader.read(GAMES[0]), "g")
    games.put_away("g")
    store.check("g")
    rows = Rows(tmp_path / "games.sqlite")
    rows.edit(next(r for r in rows.game("g") if r.topic.endswith("Game.PutAway")), lambda f: f.update(archived=True))
    with pytest.raises(DamagedGame) as caught:
        store.check("g")  # ``coimbra verify``'s reading
    assert first(caught.value)[1] == "stored row with other fields" and "archived" in caught.value.problems[0].why
    store.close()
