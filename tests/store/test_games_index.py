"""The games index, a tracked projection of the store: its status is the game's, and it lists, filters and pages."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from eventsourcing.persistence import IntegrityError, RecordConflictError, Tracking

from coimbra_events import log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.errors import BadGameName, UnknownGame
from coimbra_events.store.games_index import IN_PROGRESS, OVER
from coimbra_events.game import Game, StillInProgress, result_of
from coimbra_events.store.games_index import catch_up
from coimbra_events.store.games_query import GamesQuery, name_series
from coimbra_events.rules.core import legal
from coimbra_events.rules.scoring import final_scores
from tests.applied import recorded, stored
from tests.store.conftest import GAMES, PLAYERS

FINISHED = log_reader.read(GAMES[0])  # 2 players


def reopened(store: GameStore) -> GameStore:
    """Another store on the same data (another process, as far as the store can tell)."""
    if store.location == "memory":
        pytest.skip("an in-memory store cannot be opened twice")
    if store.location.endswith(".sqlite"):
        return GameStore(store.location)
    return GameStore(env={k: v for k, v in store.env.items() if k.startswith("POSTGRES_") or k == "PERSISTENCE_MODULE"})


def agrees(store: GameStore, name: str) -> bool:
    """The index says what the game says: its status, and its result when it is over."""
    game, info = store.get(name), store.info(name)
    return info.status == (OVER if game.over else IN_PROGRESS) and list(info.result) == (result_of(game.state) or [])


def test_a_finished_game_is_listed_with_its_winner_and_scores(store, games):
    game = games.import_log(FINISHED, "final").game
    info = store.info("final")
    scores = final_scores(game.state)
    assert info.status == OVER and info.winners == (scores[0].name,)
    assert [(p["name"], p["place"], p["total"]) for p in info.result] == [(s.name, s.place, s.total) for s in scores]
    assert info.result[0]["sources"] == scores[0].sources()


def test_an_undo_reopens_a_finished_game_and_the_index_says_so(store, games):
    games.import_log(FINISHED, "g")
    stored(games.undo("g"))
    assert store.info("g").status == IN_PROGRESS and store.info("g").result == ()
    assert not store.get("g").over
    recorded(games, "g", FINISHED.events[-1])
    assert store.info("g").status == OVER and store.info("g").winners


def test_corrections_at_the_end_keep_the_index_with_the_game(store, games):
    """Each other choice for the last plays: whatever it does to the end and the result, the index follows."""
    games.import_log(FINISHED, "g")
    for back in (1, 2, 3):
        game = store.get("g")
        play = game.line.plays[-back]
        options = [o for o in legal(game.state_before(play.seq)) if o != play.event]
        if options:
            stored(games.correct("g", play.seq, options[-1]))
        assert agrees(store, "g"), back


def test_status_always_equals_the_games_own(store, games, catalog):
    """Through a game's life, with undos and corrections at its end: the index says what the game says."""
    games.import_log(FINISHED.with_events(FINISHED.events[:-3]), "g")
    for step in ("record", "record", "record", "undo", "record", "undo", "undo", "record", "record"):
        if step == "undo":
            stored(games.undo("g"))
        else:
            game = store.get("g")
            recorded(games, "g", FINISHED.events[len(game.line.plays)])
        assert agrees(store, "g"), step


def test_rename_frees_the_old_name_and_keeps_everything_else(store, games):
    games.import_log(FINISHED, "old")
    head = store.get("old").head
    games.rename("old", "new")
    assert store.get("new").head == head and store.info("new").status == OVER
    with pytest.raises(UnknownGame):
        store.get("old")
    games.import_log(FINISHED, "old", copy=True)  # the name is free again (for a copy: the record is stored as new)
    assert {i.name for i in store.games()} == {"old", "new"}
    with pytest.raises(BadGameName, match="taken"):
        games.rename("old", "new")


def test_a_name_is_never_given_to_two_games(store, games):
    games.import_log(FINISHED, "x")
    with pytest.raises(BadGameName, match="taken"):
        games.import_log(FINISHED, "x", copy=True)
    assert [i.name for i in store.games()] == ["x"]


def test_tags_and_archiving(store, games):
    for name in ("a", "b", "c"):
        games.import_log(FINISHED, name, copy=name != "a")
    games.tag(["a"], add=["season-1", "friday"])
    games.tag(["b"], add=["season-1"])
    games.tag(["a"], remove=["friday"])
    assert store.info("a").tags == ("season-1",)
    assert [i.name for i in store.games(GamesQuery(tag="season-1"))] == ["a", "b"]
    games.archive(["b"])
    assert [i.name for i in store.games()] == ["a", "c"]
    assert [i.name for i in store.games(GamesQuery(archived=True))] == ["b"]
    assert store.get("b").over  # nothing deleted
    games.archive(["b"], archived=False)
    assert [i.name for i in store.games()] == ["a", "b", "c"]
    with pytest.raises(BadGameName):
        games.tag(["a"], add=["two words"])


def test_a_table_put_away_is_named_by_the_log_and_changes_nothing_listed(store, games):
    """``Games.put_away``: the notification log names the games put away between two positions, however far apart
    (``put_away_since``, read by topic in batches), so that every server of every table drops them; the game is
    listed as before and its rows are verified intact. A game in progress is not put away: nothing is stored."""
    first, second = (games.import_log(FINISHED, name, copy=True).game for name in ("a", "b"))
    games.new_game(PLAYERS, name="on")
    start, listed, exported = games.position(), store.games()[:2], games.export("a")
    games.put_away("a")
    games.tag(["on"], add=["friday"])
    games.put_away("b")
    end = games.position()
    assert games.put_away_since(start, end) == store.put_away_since(start, end, batch=1) == {str(first.id), str(second.id)}
    assert games.put_away_since(start + 2, end) == {str(second.id)} and games.put_away_since(None, end) == set()
    assert store.games()[:2] == listed and games.export("a") == exported  # a log holds no such fact
    store.check("a")  # a put-away row is one of a game's (``coimbra verify``)
    with pytest.raises(StillInProgress, match="on is in progress"):
        games.put_away("on")
    assert games.position() == end


def test_filters_and_pages(store, games, catalog):
    games.import_log(FINISHED, "two")
    games.new_game(PLAYERS, catalog, name="three", seed=4)
    games.new_game([("ana", "red"), ("Duarte", "green")], catalog, name="other")
    everyone = store.games()
    assert [i.name for i in everyone] == ["two", "three", "other"]
    assert [i.name for i in store.games(GamesQuery(player="ANA"))] == ["two", "three", "other"]  # any case
    assert [i.name for i in store.games(GamesQuery(player="carla"))] == ["three"]
    assert [i.name for i in store.games(GamesQuery(status=OVER))] == ["two"]
    assert [i.name for i in store.games(GamesQuery(status=IN_PROGRESS, player="Duarte"))] == ["other"]
    later = everyone[1].created
    assert [i.name for i in store.games(GamesQuery(since=later))] == ["three", "other"]
    east = later.astimezone(timezone(timedelta(hours=5)))  # the same moment, written in another zone
    assert [i.name for i in store.games(GamesQuery(since=east))] == ["three", "other"]
    assert store.games(GamesQuery(since=datetime.now(timezone.utc) + timedelta(days=1))) == []
    page = store.listing(GamesQuery(offset=1, limit=1))
    assert [i.name for i in page.games] == ["three"] and page.total == 3


def test_unnamed_games_are_numbered_after_the_largest_number(games, catalog):
    names = [games.new_game(PLAYERS, catalog).name for _ in range(3)]
    assert names == ["ana-bruno-carla", "ana-bruno-carla-2", "ana-bruno-carla-3"]
    games.rename("ana-bruno-carla-2", "kept")
    assert games.new_game(PLAYERS, catalog).name == "ana-bruno-carla-4"
    assert name_series("ana-bruno-carla-12") == ("ana-bruno-carla", 12) and name_series("x") == ("x", 1)


def test_the_index_catches_up_whatever_was_saved(store):
    """Saves never wait for the index; the next reader brings it up to date, in one transaction."""
    for name in ("a", "b", "c"):
        game = Game.from_log(name, FINISHED)
        game.announce_result()
        store.save(game, *store.claims.claim(name, game.id))
    assert catch_up(store, store.index) == 6  # created and finished, for each
    assert [i.name for i in store.games()] == ["a", "b", "c"] and store.info("b").status == OVER
    assert catch_up(store, store.index) == 0  # nothing left: each notification is processed once


def test_a_batch_that_fails_writes_nothing(store, games):
    """The changes of a catch-up are written with its tracking record, or not at all."""
    games.import_log(FINISHED, "a")
    view = store.index.view
    with pytest.raises(RuntimeError):
        with view.batch():
            store.index.process_event(next(iter(store.events.get(store._game_id("a")))), Tracking(store.name, 1))
            raise RuntimeError("crash")
    assert view.max_tracking_id(store.name) is None and view.row(str(store._game_id("a"))) is None
    assert [i.name for i in store.games()] == ["a"]


def test_a_notification_already_tracked_is_not_processed_twice(store, games):
    games.import_log(FINISHED, "g")
    assert store.index.view.max_tracking_id(store.name) is None  # saving does not touch the index: reading catches it up
    assert [i.name for i in store.games()] == ["g"]
    tracked = store.index.view.max_tracking_id(store.name)
    with pytest.raises(IntegrityError):
        store.index.view.upsert(None, Tracking(store.name, tracked))
    assert [i.name for i in store.games()] == ["g"]


def test_another_process_sees_the_same_index(store, games, catalog):
    games.import_log(FINISHED, "g")
    games.tag(["g"], add=["club"])
    other = reopened(store)
    try:
        assert [(i.name, i.status, i.tags) for i in other.games()] == [("g", OVER, ("club",))]
        Games(other).new_game(PLAYERS, catalog, name="h")
        assert [i.name for i in store.games()] == ["g", "h"]
    finally:
        other.close()


def test_two_writers_claiming_one_name(store, catalog):
    """Both read that the name is free; the second save conflicts, and its retry finds the name taken."""
    other = reopened(store)
    try:
        first = Game.start("x", catalog, PLAYERS)
        second = Game.start("x", catalog, PLAYERS)
        claims = other.claims.claim("x", second.id)  # read before the first writer saves
        store.save(first, *store.claims.claim("x", first.id))
        with pytest.raises(RecordConflictError):
            other.save(second, *claims)
        with pytest.raises(BadGameName, match="taken"):
            Games(other).new_game(PLAYERS, catalog, name="x")
        assert [i.name for i in other.games()] == ["x"]
    finally:
        other.close()


def test_an_index_whose_tracking_rows_were_deleted_is_built_again(tmp_path):
    """The index is derived from the games: with its place in the store's log gone it is built
    again from the start, never a failure to open the store (the library would migrate a table
    of an older layout it names ``tracking`` and fail)."""
    import sqlite3

    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    Games(store).import_log(FINISHED, "final")
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM games_index_tracking")
        conn.execute("DELETE FROM games_index")
    again = GameStore(path)
    try:
        assert [info.name for info in again.games()] == ["final"] and agrees(again, "final")
    finally:
        again.close()
