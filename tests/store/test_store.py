"""The store and the application's use cases on it (``Games``): the same tests against the in-memory, the SQLite and
the PostgreSQL store."""

from __future__ import annotations


import pytest

from coimbra_events import log_reader
from coimbra_events import log as game_log
from coimbra_events.service import Games, Refused
from coimbra_events.store.errors import BadGameName, BadPlayers, UnknownGame
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.games_index import IN_PROGRESS, OVER
from coimbra_events.store.location import default_db_path, store_env
from coimbra_events.store.sources import game_source
from coimbra_events.game import IllegalLog
from coimbra_events.log import LogError
from coimbra_events.notation import parse, render
from coimbra_events.rules.core import legal
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.violations import RuleViolation
from tests.applied import recorded
from tests.store.conftest import GAMES, INVALID, PLAYERS, stored_events


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_import_then_export_gives_identical_bytes(store, games, path):
    log = log_reader.read(path)
    game = games.import_log(log).game
    assert game_log.dumps(store.export(game.name)) == game_log.dumps(log)


def test_import_stores_every_event_in_one_save(store, games, monkeypatch):
    log = log_reader.read(GAMES[0])
    saves = []
    original = store.save
    monkeypatch.setattr(store, "save", lambda *objs: saves.append(objs) or original(*objs))
    game = games.import_log(log).game
    assert len(saves) == 1
    # the game's Created, its events and its result, the name's entry in the register (created claimed,
    # one row), the record's claim (store.records: one row), and the game's receipt
    assert stored_events(store) == 1 + len(log.events) + 1 + 1 + 1 + 1
    assert store.info(game.name).status == OVER


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_an_illegal_log_is_refused_and_nothing_stored(store, games, path):
    with pytest.raises(IllegalLog):
        games.import_log(log_reader.read(path))
    assert stored_events(store) == 0 and store.games() == []


def test_a_refused_decision_stores_nothing(store, games, catalog):
    game = games.new_game(PLAYERS, catalog, seed=5)
    before, count = game_log.dumps(store.export(game.name)), stored_events(store)
    illegal = parse("group 9", default_actor=game.pending.actor)
    refused = games.record(game.name, [illegal])
    assert isinstance(refused, Refused) and isinstance(refused.violation, RuleViolation)
    assert refused.violation.rule == "START.group"
    assert stored_events(store) == count and game_log.dumps(store.export(game.name)) == before


def test_several_decisions_are_stored_all_or_none(store, games, catalog):
    game = games.new_game(PLAYERS, catalog, seed=5)
    count = stored_events(store)
    good = legal(game.state)[0]
    refused = games.record(game.name, [good, good])  # the second one is out of turn
    assert isinstance(refused, Refused) and refused.event == good
    assert stored_events(store) == count
    assert len(recorded(games, game.name, good).events) == len(game.events) + 1


def test_a_seed_draws_the_setup_up_to_the_first_decision(store, games, catalog):
    a = games.new_game(PLAYERS, catalog, seed=11)
    b = games.new_game(PLAYERS, catalog, seed=11)
    assert a.events == b.events and len(a.events) == 6
    assert all(e.RANDOM for e in a.events) and a.pending.actor in dict(PLAYERS)
    assert a.to_log().meta == {"seed": 11} and store.info(a.name).seed == 11
    c = games.new_game(PLAYERS, catalog)
    assert c.events == [] and c.pending.actor == "table"


def test_names_are_generated_unique_and_checked(store, games, catalog):
    names = [games.new_game(PLAYERS, catalog).name for _ in range(3)]
    assert names == ["ana-bruno-carla", "ana-bruno-carla-2", "ana-bruno-carla-3"]
    assert games.new_game(PLAYERS[:2], catalog, name="Friday.1").name == "Friday.1"
    with pytest.raises(BadGameName):
        games.new_game(PLAYERS, catalog, name="Friday.1")
    with pytest.raises(BadGameName):
        games.new_game(PLAYERS, catalog, name="not a name")
    assert [g.name for g in store.games()] == names + ["Friday.1"]
    assert all(g.status == IN_PROGRESS and g.parent is None for g in store.games())


def test_bad_players_are_refused(store, games, catalog):
    with pytest.raises(BadPlayers):
        games.new_game([("Ana", "red")], catalog)
    with pytest.raises(BadPlayers):
        games.new_game([("Ana,B", "red"), ("Bruno", "blue")], catalog)
    assert store.games() == []


def test_an_unknown_game_is_a_key_error(store):
    with pytest.raises(UnknownGame) as caught:
        store.get("nope")
    assert isinstance(caught.value, KeyError) and "nope" in str(caught.value)
    with pytest.raises(KeyError):
        store.export("nope")


def test_recording_the_last_event_marks_the_game_over(store, games):
    log = log_reader.read(GAMES[0])
    games.import_log(log.with_events(log.events[:-1]), name="almost")
    assert store.info("almost").status == IN_PROGRESS
    recorded(games, "almost", log.events[-1])
    assert store.info("almost").status == OVER and store.get("almost").over
    assert game_log.dumps(store.export("almost")) == game_log.dumps(log)


def test_a_path_to_a_log_file_opens_the_game_in_it(store):
    game = game_source(str(GAMES[1]), lambda: store).open()
    assert game.name == GAMES[1].stem and len(game.events) > 100
    assert stored_events(store) == 0


def test_a_damaged_log_lists_every_problem():
    lines = GAMES[0].read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"v-', b'"w-', 1)
    lines[9] = lines[9].replace(b"start-w", b"start-n")
    with pytest.raises(LogError) as caught:
        log_reader.loads(b"\n".join(lines))
    assert [p.seq for p in caught.value.problems if p.what == "hash chain broken"] == [3, 9]


def test_a_sqlite_store_keeps_its_games(tmp_path, catalog):
    path = tmp_path / "games.sqlite"
    with_games = GameStore(path)
    name = Games(with_games).new_game(PLAYERS, catalog, seed=2).name
    with_games.close()
    again = GameStore(path)
    assert [g.name for g in again.games()] == [name] and len(again.get(name).events) == 6
    again.close()


def test_where_the_store_lives(tmp_path, monkeypatch):
    """The user's data directory is platformdirs' (``$XDG_DATA_HOME/coimbra`` on Linux)."""
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert default_db_path() == tmp_path / "data" / "coimbra" / "games.sqlite"
    assert store_env(environ=env)["SQLITE_DBNAME"] == str(tmp_path / "data" / "coimbra" / "games.sqlite")
    assert store_env(environ={**env, "COIMBRA_DB": str(tmp_path / "a.db")})["SQLITE_DBNAME"] == str(tmp_path / "a.db")
    chosen = store_env(tmp_path / "b.db", environ={**env, "COIMBRA_DB": str(tmp_path / "a.db")})
    assert chosen["SQLITE_DBNAME"] == str(tmp_path / "b.db")
    assert store_env(environ={**env, "PERSISTENCE_MODULE": "eventsourcing.postgres"}) == {}
    assert store_env(in_memory=True) == {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == tmp_path / ".local" / "share" / "coimbra" / "games.sqlite"


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_typed_in_notation(store, games, catalog, players):
    """Every event of a simulated game, typed as its notation without the Name: prefix, one act at a time."""
    log, final = simulate(catalog, DEFAULT_PLAYERS[:players], seed=players)
    name = games.new_game(log.players, catalog).name
    for event in log.events:
        due = store.get(name).pending
        text = render(event).split(":", 1)[1]
        recorded(games, name, parse(text, default_actor=due.actor))
    game = store.get(name)
    assert game.events == list(log.events) and game.state == final
    assert store.info(name).status == OVER


def test_a_writer_that_lost_a_race_rebuilds_and_saves(tmp_path, catalog):
    """Two processes create games at once: the one that saves second retries with a fresh index."""
    path = tmp_path / "games.sqlite"
    first, second = GameStore(path), GameStore(path)
    original = first.save
    raced = []

    def save_after_the_other(*objs):
        if not raced:
            raced.append(Games(second).new_game(PLAYERS, catalog).name)
        return original(*objs)

    first.save = save_after_the_other
    mine = Games(first).new_game(PLAYERS, catalog).name
    assert raced == ["ana-bruno-carla"] and mine == "ana-bruno-carla-2"
    assert [g.name for g in GameStore(path).games()] == ["ana-bruno-carla", "ana-bruno-carla-2"]
