"""A store whose register of names was written before a new name was registered claimed in one event
(``fixtures/stores/register-v1.sqlite``: ``GameName.Created`` of class version 1, then ``Claimed``)."""

from __future__ import annotations

import shutil

import pytest

from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.errors import BadGameName, UnknownGame
from coimbra_events.store.games_index import OVER
from coimbra_events.store.register import GameName
from coimbra_events.rules.core import legal
from tests.applied import recorded
from tests.conftest import FIXTURES


@pytest.fixture
def old(tmp_path):
    """A copy of the store (the fixture itself is never written)."""
    path = tmp_path / "register-v1.sqlite"
    shutil.copy(FIXTURES / "stores" / "register-v1.sqlite", path)
    store = GameStore(path)
    yield store
    store.close()


@pytest.fixture
def games(old):
    """The application on the old store: renames, records and new games go through it."""
    return Games(old)


def test_its_entries_are_upcast_from_class_version_1(old):
    (created, claimed) = old.recorder.select_events(GameName.create_id("open-3p"))
    assert b"game_id" not in bytes(created.state) and b"class_version" not in bytes(created.state)
    assert claimed.topic.endswith("GameName.Claimed")
    entry = old.claims.entry("open-3p")
    assert entry is not None and entry.game_id is not None and entry.game_id == old.get("open-3p").id


def test_its_names_stand_for_the_games_they_were_claimed_for(old):
    assert old.get("renamed-2p").state.over and old.info("renamed-2p").status == OVER
    assert len(old.get("open-3p").events) == 6
    with pytest.raises(UnknownGame):
        old.get("finished-2p")  # released by the rename


def test_a_released_old_entry_is_claimed_again_and_a_taken_one_is_refused(old, games):
    games.rename("renamed-2p", "finished-2p")
    assert old.get("finished-2p").state.over
    rows = old.recorder.select_events(GameName.create_id("finished-2p"))
    assert [r.topic.rsplit(".", 1)[-1] for r in rows] == ["Created", "Claimed", "Released", "Claimed"]
    with pytest.raises(BadGameName, match="taken"):
        games.rename("open-3p", "finished-2p")


def test_it_takes_new_games_and_entries(old, games):
    game = recorded(games, "open-3p", legal(old.get("open-3p").state)[0], by="tester")
    assert len(game.events) == 7 and old.inspect("open-3p").problems == ()
    new = games.new_game([("Ana", "red"), ("Bruno", "blue")], name="fresh", seed=3, by="tester")
    (created,) = old.recorder.select_events(GameName.create_id("fresh"))
    assert b'"class_version":2' in bytes(created.state) and old.get("fresh").id == new.id
