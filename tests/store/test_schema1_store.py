"""A store written by the schema-1 code (``fixtures/stores``) opens, reads, takes new entries and exports."""

from __future__ import annotations

import shutil

import orjson
import pytest

from coimbra_events import log_reader
from coimbra_events import log as game_log
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.errors import UnknownGame
from coimbra_events.store.games_index import IN_PROGRESS, OVER
from coimbra_events.game import Game
from coimbra_events.rules.core import legal
from coimbra_events.service import Games
from coimbra_events.validation import validate
from tests.applied import recorded, stored
from tests.conftest import FIXTURES

STORES = FIXTURES / "stores"
EXPECTED = orjson.loads((STORES / "schema1-expected.json").read_bytes())


@pytest.fixture
def old(tmp_path):
    """A copy of the schema-1 store (the fixture itself is never written)."""
    path = tmp_path / "schema1.sqlite"
    shutil.copy(STORES / "schema1.sqlite", path)
    store = GameStore(path)
    yield store
    store.close()


@pytest.fixture
def games(old):
    """The application on the old store: every write goes through it, entered by "tester"."""
    return Games(old)


def test_every_game_reads_with_the_entries_and_head_it_was_recorded_with(old):
    for name, said in EXPECTED.items():
        game = old.get(name)
        assert (len(game.events), game.head) == (said["events"], said["head"]), name
        assert game.first_mismatch() is None and game.header.upcast_from == 1
        result = validate(game.to_log())
        assert result.valid and (result.state.over, result.state.round, result.state.phase) == (
            said["game_over"], said["round"], said["phase"]), name


def test_its_stored_events_are_upcast_from_class_version_1(old):
    rows = old.recorder.select_events(old._game_id("finished-2p"))
    assert all(b"class_version" not in bytes(r.state) for r in rows)  # as schema-1 code wrote them
    game = old.get("finished-2p")
    assert set(game.stamps) == {("", "")} and game.announced == "unknown"


def test_the_index_lists_every_game_with_the_status_the_game_has(old):
    """The old index aggregate said "over" for reopened-4p, reopened by an undo; the projection reads the game."""
    listed = {i.name: i for i in old.games()}
    assert set(listed) == set(EXPECTED)
    assert {n: i.status for n, i in listed.items()} == {n: OVER if s["game_over"] else IN_PROGRESS for n, s in EXPECTED.items()}
    assert listed["finished-2p"].winners and listed["fork-3p"].parent == "in-progress-3p"
    assert listed["in-progress-3p"].seed == 11


def test_it_takes_new_entries_stamped_and_chained_on_the_old_ones(old, games):
    before = old.get("in-progress-3p")
    event = legal(before.state)[0]
    game = recorded(games, "in-progress-3p", event, by="tester")
    assert len(game.events) == EXPECTED["in-progress-3p"]["events"] + 1
    at, by = game.stamps[-1]
    assert by == "tester" and at.endswith("Z")
    again = GameStore(old.location)
    try:
        reread = again.get("in-progress-3p")
        assert reread.first_mismatch() is None and reread.state == game.state
    finally:
        again.close()


def test_it_exports_schema_2_with_the_chain_it_was_recorded_with(old, games, tmp_path):
    recorded(games, "in-progress-3p", legal(old.get("in-progress-3p").state)[0], by="tester")
    data = game_log.dumps(old.export("in-progress-3p"))
    doc = orjson.loads(data)
    assert doc["schema"] == 2 and doc["upcast_from"] == 1
    assert doc["events"][EXPECTED["in-progress-3p"]["events"] - 1]["hash"] == EXPECTED["in-progress-3p"]["head"]
    assert "at" in doc["events"][-1] and "at" not in doc["events"][0]
    log = log_reader.loads(data)
    assert validate(log).valid
    copy = games.import_log(log, "copy", copy=True)
    assert copy.how == "copy" and copy.game is not None and copy.game.head == old.get("in-progress-3p").head


def test_its_games_can_be_renamed_and_their_old_names_reused(old, games):
    games.rename("finished-2p", "first")
    with pytest.raises(UnknownGame):
        old.get("finished-2p")
    assert old.get("first").head == EXPECTED["finished-2p"]["head"]
    assert games.import_log(old.export("first"), "finished-2p", copy=True).how == "copy"
    assert {"first", "finished-2p"} <= {i.name for i in old.games()}


def test_an_undo_on_an_old_finished_game_reopens_it_in_the_index(old, games):
    stored(games.undo("finished-2p", by="tester"))
    assert old.info("finished-2p").status == IN_PROGRESS
    assert isinstance(old.get("finished-2p"), Game)
