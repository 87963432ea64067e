"""The table's use cases driven directly (``coimbra_events.service.Games``), no CLI: a whole game on SQLite and
PostgreSQL, with a refusal, two writers on one game, an undo and a correction; a JSON log file as GAME; a
``Session`` holding the game between writes; who entered each write; and opening the application by location."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Iterator

import pytest

from coimbra_events import log as game_log
from coimbra_events import log_reader
from coimbra_events.bots import choose
from coimbra_events.catalog import standin_catalog
from coimbra_events.events import AlternativeTaken
from coimbra_events.game import Game
from coimbra_events.notation import render
from coimbra_events.record import replace
from coimbra_events.service import Conflict, Games, Refused, Session, Stored
from coimbra_events.simulator import next_event
from coimbra_events.state import TABLE
from coimbra_events.store.errors import NoStore
from coimbra_events.store.game_store import GameStore
from projections.read_side import ReadSide
from projections.scores import score_report
from tests.store.conftest import PLAYERS


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def connect(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], GameStore]]:
    """Opens another connection to one store (a SQLite file, or a fresh PostgreSQL schema): one per writer."""
    opened: list[GameStore] = []
    if request.param == "sqlite":
        def store() -> GameStore:
            return GameStore(tmp_path / "games.sqlite")
    else:
        env = request.getfixturevalue("postgres_env")
        monkeypatch.delenv("COIMBRA_DB", raising=False)
        monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")

        def store() -> GameStore:
            return GameStore(env=env)

    def one() -> GameStore:
        opened.append(store())
        return opened[-1]

    yield one
    for s in opened:
        s.close()


def recorded(outcome: object) -> Stored:
    assert isinstance(outcome, Stored), outcome
    return outcome


def test_a_whole_game_with_a_refusal_two_writers_an_undo_and_a_correction(connect):
    table, phone = Games(connect, ReadSide()), Games(connect)
    game = table.new_game(PLAYERS, name="evening", seed=11, by="scorer")
    evening = Session("evening", game)  # the table keeps the game between its writes
    rng, plays = random.Random(5), 0
    while not game.over:
        legal = table.legal("evening")
        assert legal.game.head == game.head
        if legal.outcome is not None:
            done = recorded(table.roll(evening, by="scorer"))
            assert done.entries[0].event == done.outcome and done.entries[0].changes
        else:
            event, head = choose(rng, legal.decisions), game.head
            assert [o.event for o in legal.options] == list(legal.decisions)
            done = recorded(table.record(evening, [render(event) if plays % 2 else event], by="scorer"))
            assert [e.event for e in done.entries] == [event] and done.entries[0].stamp[1] == "scorer"
            assert done.entries[0].seq == done.game.entries and done.head == done.game.head != head
            plays += 1
        game = done.game
        if legal.outcome is None and plays == 3:
            _refused(table, game, event)
        elif legal.outcome is None and plays == 5:
            game = _two_writers(table, phone, evening, event)
        elif legal.outcome is None and plays == 7:
            game = _undone_and_played_again(table, evening)
        elif legal.outcome is None and plays == 9:
            game = _corrected(table, evening)
        elif legal.outcome is None and plays == 11:
            game = recorded(table.note(evening, game.entries, "a fine move", bookmark=True, by="scorer")).game
    final = table.open("evening")
    assert final.over and final.head == game.head and final.entries == game.entries
    chain = phone.chain("evening")
    assert chain.problems == () and chain.hashes[-1] == final.head and chain.events == final.entries
    report = score_report(final.state)
    assert len(report["players"]) == len(PLAYERS) and {p["place"] for p in report["players"]} >= {1}
    refused = table.record("evening", ["pass"])
    assert isinstance(refused, Refused) and refused.violation.rule == "GAME.over" and refused.event is None


def test_the_entries_stored_are_answered_as_the_events_the_game_recorded(connect):
    """Not decoded again from what was saved: each new entry is answered as the very event the game holds."""
    games = Games(connect, ReadSide())
    g = Session("g", games.new_game(PLAYERS, name="g", seed=11))
    while g.game.pending.actor == TABLE:
        recorded(games.roll(g))
    done = recorded(games.record(g, [render(games.legal("g").decisions[0])]))
    assert done.entries[0].event is done.game.events[-1]


def _refused(games: Games, game: Game, played: object) -> None:
    """The decision just made, again by another player: refused with its rule, and nothing stored."""
    other = next(name for name, _ in PLAYERS if name != game.pending.actor)
    refused = games.record("evening", [replace(played, actor=other)])
    assert isinstance(refused, Refused) and refused.violation.rule.startswith(("TURN.", "GAME.")), refused
    assert games.open("evening").head == game.head


def _two_writers(table: Games, phone: Games, evening: Session, played: object) -> Game:
    """The phone read the game; the table recorded since: the phone's input, with its stale head or its stale
    copy, is a conflict naming the new head, and nothing of it is stored. The table's session then takes the
    game as the phone stored it."""
    seen = phone.open("evening")
    meant = next_event(seen.state, random.Random(0))  # legal on the table the phone shows
    moved = recorded(table.undo(evening, by="scorer"))
    stale = phone.record("evening", [meant], after=seen.head[:12], by="scorer")
    assert isinstance(stale, Conflict) and stale.head == moved.head != seen.head
    raced = phone.record(Session("evening", seen), [meant], by="scorer")
    assert isinstance(raced, Conflict) and raced.head == moved.head
    assert table.open("evening").head == moved.head
    stored = recorded(phone.record("evening", [played], after=moved.head, by="scorer"))
    game = table.refreshed(evening)
    assert game.head == stored.head and game is evening.game
    return game


def _undone_and_played_again(games: Games, evening: Session) -> Game:
    table = evening.game.state
    undone = recorded(games.undo(evening, by="scorer"))
    play = undone.outcome
    assert undone.entries[0].event.TYPE == "Retracted" and undone.entries[0].changes
    again = recorded(games.record(evening, [play.event], by="scorer"))
    assert again.game.state == table
    return again.game


def _corrected(games: Games, evening: Session) -> Game:
    """The latest play corrected to what it said: two entries, no later play made illegal, the same table."""
    game = evening.game
    seq, entries, table = game.line.plays[-1].seq, game.entries, game.state
    fixed = recorded(games.correct(evening, seq, render(game.line.plays[-1].event), by="scorer"))
    assert fixed.outcome == () and [e.seq for e in fixed.entries] == [entries + 1, entries + 2]
    assert fixed.game.state == table and fixed.entries[0].event.TYPE == "Corrected"
    refused = games.correct(evening, fixed.game.entries + 5, "pass", by="scorer")
    assert isinstance(refused, Refused) and refused.violation.rule == "HISTORY.target"
    assert games.open("evening").head == fixed.head
    return games.open("evening")


def test_a_log_file_is_recorded_into_through_the_same_use_cases(tmp_path):
    store = GameStore(in_memory=True)
    path = tmp_path / "evening.json"
    game_log.write(path, Games(store).new_game(PLAYERS[:2], seed=4, name="evening").to_log())
    never = Games(lambda: pytest.fail("a log file's use cases opened the store"), ReadSide())
    ref = str(path)
    ana = never.session(ref)
    event = choose(random.Random(1), never.legal(ref).decisions)
    done = recorded(never.record(ana, [render(event)], by="Ana"))
    assert done.entries[0].stamp[1] == "Ana" and done.entries[0].changes
    assert log_reader.read(path).head() == done.head and log_reader.read(path).events[-1] == event

    other = Games(lambda: pytest.fail("opened the store"))
    seen = other.session(ref)
    meant = next_event(seen.game.state, random.Random(0))  # legal on the file as Bruno read it
    after = recorded(never.undo(ana, by="Ana"))
    raced = other.record(seen, [meant], by="Bruno")
    assert isinstance(raced, Conflict) and raced.head == after.head
    stale = other.record(ref, [event], after=done.head, by="Bruno")
    assert isinstance(stale, Conflict) and stale.head == after.head
    before = path.read_bytes()
    wrong = replace(event, actor=next(n for n, _ in PLAYERS[:2] if n != event.actor))
    refused = other.record(ref, [wrong], by="Bruno")
    assert isinstance(refused, Refused) and refused.violation.rule.startswith("TURN.") and path.read_bytes() == before
    assert recorded(other.record(ref, [event], after=after.head[:8], by="Bruno")).entries[0].stamp[1] == "Bruno"
    assert other.chain(ref).problems == ()
    store.close()


def test_two_sessions_on_one_log_file_never_save_over_each_other(tmp_path):
    """Two copies of a log file read in one application: the first write is kept, the second, made on a copy read
    before it, is a conflict and the file still holds the first writer's entry (as a stored game's version would)."""
    store = GameStore(in_memory=True)
    path = tmp_path / "evening.json"
    game_log.write(path, Games(store).new_game(PLAYERS[:2], seed=4, name="evening").to_log())
    games = Games(lambda: pytest.fail("a log file's use cases opened the store"))
    ref = str(path)
    first, second = games.session(ref), games.session(ref)
    kept = recorded(games.record(first, games.legal(first).decisions[:1], by="A"))
    lost = games.record(second, games.legal(second).decisions[:1], by="B")
    assert isinstance(lost, Conflict) and lost.head == kept.head
    on_file = log_reader.read(path)
    assert on_file.head() == kept.head and on_file.stamps[-1][1] == "A"
    assert recorded(games.record(second, games.legal(second).decisions[:1], by="B")).game.entries == kept.game.entries + 1
    store.close()


def _next(games: Games, game: Session | str, by: str) -> Stored:
    """The next entry of the game: the table's outcome drawn, or the first legal decision recorded."""
    legal = games.legal(game)
    if legal.outcome is not None:
        return recorded(games.roll(game, by=by))
    return recorded(games.record(game, legal.decisions[:1], by=by))


def test_a_session_holds_the_game_between_writes_and_no_write_reads_it(games, store, monkeypatch):
    """Read once, when the session opens: each write then changes the very copy the session holds and saves it,
    without reading the game from the store again."""
    games.new_game(PLAYERS, name="g", seed=11)
    session = games.session("g")
    held, reads = session.game, []
    read = store.get
    monkeypatch.setattr(store, "get", lambda *a, **k: reads.append(a) or read(*a, **k))
    for _ in range(4):
        done = _next(games, session, "Ana")
        assert done.game is held and session.game is held
    assert reads == []
    assert games.open("g").head == held.head and reads == [("g",)]


def test_a_write_that_lost_to_another_writer_drops_the_session_s_copy_and_the_next_reads_the_game_again(store, games):
    """The copy holds the entry triggered on it and never saved: kept, every later write would conflict again (or
    chain on an entry never stored); dropped, the next write reads the game as stored and succeeds."""
    games.new_game(PLAYERS, name="g", seed=11)
    session, phone = games.session("g"), Games(store)
    copy, decision = session.game, games.legal(session).decisions[0]
    mine = recorded(phone.record("g", [decision], by="Bruno"))  # the phone saves first
    lost = games.record(session, [decision], by="Ana")  # triggered on the copy, then refused by the store
    assert isinstance(lost, Conflict) and lost.head == mine.head
    assert session.game is None
    done = _next(games, session, "Ana")
    assert session.game is done.game is not copy and done.game.entries == mine.game.entries + 1
    assert games.open("g").head == done.head


def test_a_refusal_after_an_entry_was_triggered_drops_the_session_s_copy(games):
    """Several inputs, the second refused: the first was recorded on the copy and never saved; the session must not
    keep it, or its next write would store an entry nobody sent again."""
    game = games.new_game(PLAYERS, name="g", seed=11)
    session = games.session("g")
    decision = games.legal(session).decisions[0]
    refused = games.record(session, [decision, decision], by="Ana")
    assert isinstance(refused, Refused) and refused.event == decision
    assert session.game is None and games.open("g").head == game.head
    done = recorded(games.record(session, [decision], by="Ana"))
    assert done.game.entries == game.entries + 1 and done.game.events[-1] == decision


def test_by_stamps_the_entries_of_every_write(games):
    """Who entered each entry is said with each write, and stored with it: a new game's drawn setup, a record, a
    roll, a correction, a note, an undo, a move the table accepted against a rule."""
    game = games.new_game(PLAYERS, name="g", seed=11, by="dealer")
    assert game.entries and [by for _, by in game.stamps] == ["dealer"] * game.entries
    g, said = Session("g", game), {seq: "dealer" for seq in range(1, game.entries + 1)}
    made = {"record": 0, "roll": 0}
    while g.game.pending.kind != "retrieve":
        by = "dice" if games.legal(g).outcome is not None else "Ana"
        made["roll" if by == "dice" else "record"] += 1
        said |= {e.seq: by for e in _next(games, g, by).entries}
    assert all(made.values()), made
    latest, too_many = g.game.line.plays[-1], standin_catalog().alternative_coins + 1
    writes: list[tuple[str, Callable[[str], object]]] = [
        ("corrector", lambda by: games.correct(g, latest.seq, latest.event, by=by)),
        ("scribe", lambda by: games.note(g, latest.seq, "well played", by=by)),
        ("undoer", lambda by: games.undo(g, by=by)),
        ("Ana", lambda by: games.record(g, [latest.event], by=by)),
        ("referee", lambda by: games.accept(g, AlternativeTaken(g.game.pending.actor, too_many, 0), "so be it", by=by)),
    ]
    for by, write in writes:
        entries = recorded(write(by)).entries
        assert entries and [e.stamp[1] for e in entries] == [by] * len(entries)
        said |= {e.seq: by for e in entries}
    stored = games.open("g")
    assert {seq: by for seq, (_, by) in enumerate(stored.stamps, 1)} == said
    assert all(at.endswith("Z") for at, _ in stored.stamps)


def test_an_application_at_a_missing_sqlite_file_finds_no_store_and_makes_none(tmp_path, monkeypatch):
    """Only an application that may make games makes a store: any other finds none (``NoStore``, when it first
    needs the store) and leaves nothing on disk, not even the folder."""
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    path = tmp_path / "club" / "games.sqlite"
    with Games.at(path) as reader:
        with pytest.raises(NoStore, match="nothing created"):
            reader.games()
        with pytest.raises(NoStore):
            reader.open("g")
    assert list(tmp_path.iterdir()) == []
    with Games.at(path, create=True) as maker:
        made = maker.new_game(PLAYERS, name="g")
    assert path.is_file()
    with Games.at(path) as reader:
        assert reader.open("g").id == made.id and [i.name for i in reader.games()] == ["g"]
