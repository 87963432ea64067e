"""A record is one game: an import recognizes a record already stored, appends the entries of a log
that extends a stored game, stores a deliberate copy marked as one, and two tables importing one log at once store
it once; ``games --duplicates`` lists the copies stores made before."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from coimbra_events import log as game_log
from coimbra_events import log_reader
from coimbra_events.game import Game
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.records import LeagueMark
from tests.commands import started_together
from tests.store.conftest import GAMES

LOG = log_reader.read(GAMES[0])


def stored_as_before(store: GameStore, log: game_log.GameLog, name: str) -> Game:
    """A second game of one record, stored as an import was stored before a record was one game (no record claim)."""

    def build():
        game = Game.from_log(name, log)
        return game, store.claims.claim(name, game.id), None

    return store.stored_games.commit(build, snapshot=False)[0]


def test_the_same_record_twice_stores_nothing_and_names_the_game(store, games):
    assert games.import_log(LOG, "first").how == "stored"
    before = store.recorder.max_notification_id()
    for name in (None, "again", "third"):  # under the players' name, or another one: the same record
        again = games.import_log(LOG, name)
        assert (again.how, again.game, again.held.name, again.held.same) == ("held", None, "first", True)
        assert again.held.said() == f"already stored as first (the same {len(LOG.events)} entries); nothing stored"
    assert store.recorder.max_notification_id() == before and [i.name for i in store.games()] == ["first"]


def test_a_log_that_extends_a_stored_game_appends_and_a_shorter_one_is_held(store, games):
    games.import_log(LOG.prefix(40), "g")
    grown = games.import_log(LOG)
    assert (grown.how, grown.entries, grown.game.name, grown.held.stored) == ("appended", len(LOG.events) - 40, "g", 40)
    assert store.export("g") == LOG and store.info("g").status == "over"
    shorter = games.import_log(LOG.prefix(12))
    assert (shorter.how, shorter.held.name, shorter.held.stored, shorter.held.given) == ("held", "g", len(LOG.events), 12)
    assert "which holds its 12 entries and" in shorter.held.said()
    assert [i.name for i in store.games()] == ["g"]


def test_a_log_that_parts_from_a_stored_game_is_another_game(games):
    games.import_log(LOG.prefix(40), "g")
    other = LOG.with_events(LOG.events[:39])  # the same first 39 entries, then nothing: held
    assert games.import_log(other).how == "held"
    changed = game_log.GameLog(LOG.catalog_id, LOG.catalog_sha256, LOG.players, LOG.events[:40], LOG.ruleset,
                               {**LOG.meta, "seed": "another"})
    assert games.import_log(changed).how == "stored"  # another header: another record


def test_a_copy_is_stored_marked_as_a_copy(store, games):
    games.import_log(LOG, "first")
    copy = games.import_log(LOG, "teaching", copy=True)
    assert (copy.how, copy.game.name, copy.held.name) == ("copy", "teaching", "first")
    assert store.export("teaching") == store.export("first")  # the same record, byte for byte
    mark = store.events.get(LeagueMark.create_id(str(copy.game.id)))
    assert [(type(e).__name__, e.copy_of, e.counted) for e in mark] == [("Created", "first", False)]


def test_duplicates_lists_the_copies_a_store_already_has(store, games):
    games.import_log(LOG, "a")
    stored_as_before(store, LOG, "b")
    games.import_log(log_reader.read(GAMES[1]), "other")
    games.archive(["b"])
    groups = games.duplicates()
    assert [(head, entries, [i.name for i in infos]) for head, entries, infos in groups] == [
        (LOG.head(), len(LOG.events), ["a", "b"])]
    assert games.import_log(LOG).held.name in {"a", "b"}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_four_tables_importing_one_log_at_once_store_it_once(kind, tmp_path, request):
    path = tmp_path / "game.json"
    game_log.write(path, LOG)
    env = {k: v for k, v in os.environ.items() if k != "COIMBRA_DB" and not k.startswith(("POSTGRES_", "PERSISTENCE_"))}
    if kind == "sqlite":
        env["COIMBRA_DB"] = str(tmp_path / "club.sqlite")
    else:
        env.update(request.getfixturevalue("postgres_env"))
    env["NO_COLOR"] = "1"
    done = started_together([["import", str(path), "--json"]] * 4, env, tmp_path)
    assert all(code == 0 for code, _ in done), done
    rows = [orjson.loads(out[out.index("{"):]) for _, out in done]
    assert sorted(r["imported"] for r in rows) == [False, False, False, True]
    stored = next(r["name"] for r in rows if r["imported"])
    assert all(r["name"] == stored for r in rows)
    settings = {"PERSISTENCE_MODULE": "eventsourcing.postgres", **{k: v for k, v in env.items() if k.startswith("POSTGRES_")}}
    store = GameStore(env["COIMBRA_DB"]) if kind == "sqlite" else GameStore(env=settings)
    try:
        assert [i.name for i in store.games()] == [stored] and Games(store).duplicates() == []
    finally:
        store.close()


def test_a_new_store_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "club" / "games.sqlite"
    GameStore(path).close()
    assert (path.parent.stat().st_mode & 0o777, path.stat().st_mode & 0o777) == (0o700, 0o600)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o750)
    shared.chmod(0o750)
    GameStore(shared / "games.sqlite").close()
    assert shared.stat().st_mode & 0o777 == 0o750  # a folder that exists is the owner's choice


def test_a_read_never_creates_a_store(tmp_path: Path):
    from coimbra_events.store.location import missing_store

    where = tmp_path / "no" / "such" / "x.sqlite"
    assert missing_store(where) == where and not (tmp_path / "no").exists()
